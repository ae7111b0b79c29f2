module chatspec.invalid/runtime

go 1.21

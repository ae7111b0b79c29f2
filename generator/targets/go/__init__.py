"""The Go target: a stdlib-only module with one package per format (generated/go/)."""

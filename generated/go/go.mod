module github.com/chatspec/chatformats

go 1.21

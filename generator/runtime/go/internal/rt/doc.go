// Package rt is the validation runtime shared by the generated format packages.
//
// A document is decoded into an ordered tree (objects keep their key order),
// then walked by small parsers that build the Go value and record every
// problem (JSON pointer + message) in document order. Standard library only,
// so the module can be vendored as is.
package rt

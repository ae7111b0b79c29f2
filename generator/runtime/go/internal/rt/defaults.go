package rt

import (
	"crypto/rand"
	"fmt"
)

// NewUUID4 returns a fresh random UUID (version 4) in its canonical text form.
func NewUUID4() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Default returns a function giving a fixed default (strings, numbers, booleans).
func Default[T any](v T) func() T {
	return func() T { return v }
}

// DefaultPtr returns a function giving a pointer to a fresh copy of a fixed default (a nullable field's).
func DefaultPtr[T any](v T) func() *T {
	return func() *T { return Ptr(v) }
}

// DefaultJSON returns a function building a fresh default from JSON text (lists, maps).
func DefaultJSON[T any](p Parser[T], text string) func() T {
	return func() T { return MustBuild(p, text) }
}

// MustBuild parses a spec default (JSON text, checked by the generator) into a fresh value.
func MustBuild[T any](p Parser[T], text string) T {
	tree, err := Decode([]byte(text))
	if err != nil {
		panic(err)
	}
	out, err := Build(tree, p)
	if err != nil {
		panic(err)
	}
	return out
}

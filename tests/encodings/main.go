// Command extract parses documents of the encodings spec (tests/encodings/spec.json) with the
// generated Go package and prints what it built, for tests/test_encodings.py: bytes as hex,
// date-times as their instant and offset, numbers as Go formats them, and the document as
// MarshalJSON writes it. The test compares each with a decoder that is not chatspec's.
// stdin: ["JSON text", ...]; stdout: [{"ok": true, ...} | {"ok": false, "errors": [[path, message]]}].
package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/chatspec/chatformats/encodings"
)

type built struct {
	OK      bool        `json:"ok"`
	Errors  [][2]string `json:"errors,omitempty"`
	Blob    *string     `json:"blob,omitempty"`
	Blobs   []string    `json:"blobs,omitempty"`
	At      []int64     `json:"at,omitempty"`
	Ats     [][]int64   `json:"ats,omitempty"`
	N       *string     `json:"n,omitempty"`
	I       *string     `json:"i,omitempty"`
	Ns      []string    `json:"ns,omitempty"`
	Encoded string      `json:"encoded,omitempty"`
}

// instant is [Unix seconds, nanoseconds, offset from UTC in seconds].
func instant(t time.Time) []int64 {
	_, offset := t.Zone()
	return []int64{t.Unix(), int64(t.Nanosecond()), int64(offset)}
}

func number(f float64) *string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	return &s
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		panic(err)
	}
	out := make([]built, len(texts))
	for k, text := range texts {
		doc, err := encodings.ParseEncodingsFromJSON([]byte(text))
		if err != nil {
			var ve *encodings.ValidationError
			if !errors.As(err, &ve) {
				out[k] = built{Errors: [][2]string{{"", err.Error()}}}
				continue
			}
			for _, e := range ve.Errors {
				out[k].Errors = append(out[k].Errors, [2]string{e.Path, e.Message})
			}
			continue
		}
		b := built{OK: true}
		if doc.Blob != nil {
			s := hex.EncodeToString(doc.Blob)
			b.Blob = &s
		}
		for _, x := range doc.Blobs {
			b.Blobs = append(b.Blobs, hex.EncodeToString(x))
		}
		if doc.At != nil {
			b.At = instant(*doc.At)
		}
		for _, t := range doc.Ats {
			b.Ats = append(b.Ats, instant(t))
		}
		if doc.N != nil {
			b.N = number(*doc.N)
		}
		if doc.I != nil {
			s := strconv.FormatInt(*doc.I, 10)
			b.I = &s
		}
		for _, f := range doc.Ns {
			b.Ns = append(b.Ns, *number(f))
		}
		encoded, err := json.Marshal(doc)
		if err != nil {
			panic(err)
		}
		b.Encoded = string(encoded)
		out[k] = b
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}

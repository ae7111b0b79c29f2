package rt

import (
	"bytes"
	"time"
	"unsafe"
)

// Scanner reads JSON text straight into the generated structs, with no tree: the
// first attempt of Parse<Format>FromJSON. Each method reads one value or piece of
// syntax and reports false for anything it is not sure of: text outside JSON's grammar
// or the input policy, a number its Go type would not hold as written (an integer
// field's 1.0), a date-time that is Go's zero time. The generated readers report false
// as well for what the struct could not keep (an unknown or repeated key, a null or an
// absent default that a rule reads). Then the text goes to the exact walk (DecodeFast
// and the parse functions), the one place problems are reported from.
//
// The text is read where it lies, not copied: what the structs keep of it is copied
// (fastDecoder.keep), so the caller may change data once the parse returns.
type Scanner struct {
	fastDecoder
	bad  bool // More met neither a separator nor the closing byte
	room int  // the bytes Items may still make room for ahead of the items read (Items.expect)
}

// NewScanner starts reading data; text with a byte order mark is left to the exact walk.
func NewScanner(data []byte) (Scanner, bool) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return Scanner{}, false
	}
	text := unsafe.String(unsafe.SliceData(data), len(data)) // read only while the parse runs
	return Scanner{fastDecoder: fastDecoder{data: data, text: text, alias: true}, room: len(data)}, true
}

// Done reports whether nothing but whitespace is left.
func (s *Scanner) Done() bool {
	s.space()
	return s.pos == len(s.data)
}

// Open reads c, the '{' or '[' that opens an object or array.
func (s *Scanner) Open(c byte) bool {
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// More reports whether a member or item follows, reading the ',' before any but the
// first; at the closing byte it reads it and reports false, and so it does at anything
// else, where Closed then reports false.
func (s *Scanner) More(close byte, first bool) bool {
	s.space()
	if s.pos >= len(s.data) {
		s.bad = true
		return false
	}
	switch c := s.data[s.pos]; {
	case c == close:
		s.pos++
		return false
	case first:
		return true
	case c == ',':
		s.pos++
		return true
	}
	s.bad = true
	return false
}

// Closed reports whether the loop More ran ended at its closing byte (not at a syntax error).
func (s *Scanner) Closed() bool {
	return !s.bad
}

// Key reads a member's key and the ':' after it; the key is matched and dropped
// (MapKey reads one that is kept).
func (s *Scanner) Key() (string, bool) {
	return s.key(false)
}

// MapKey reads a member's key and the ':' after it, to be kept as a map's key.
func (s *Scanner) MapKey() (string, bool) {
	return s.key(true)
}

func (s *Scanner) key(kept bool) (string, bool) {
	start, ok := s.quote()
	if !ok {
		return "", false
	}
	key, ok := s.str(false)
	if !ok {
		return "", false
	}
	if kept {
		key = s.kept(start, key)
	}
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return "", false
	}
	s.pos++
	return key, true
}

// kept is the string just read (its text from start, after the opening quote, up to the
// closing quote before s.pos), to be kept: a copy (keep) where it is a slice of the text,
// as it is when it holds no escape (an escaped one is a copy already, and longer in the text).
func (s *Scanner) kept(start int, text string) string {
	if end := s.pos - 1; end-start == len(text) {
		return s.keep(start, end)
	}
	return text
}

// Null reads a null if one comes next.
func (s *Scanner) Null() bool {
	s.space()
	return s.pos < len(s.data) && s.data[s.pos] == 'n' && s.literal("null")
}

// String reads a string, to be kept.
func (s *Scanner) String() (string, bool) {
	return s.token(true)
}

// token reads a string, kept or looked at and dropped (fastDecoder.str).
func (s *Scanner) token(kept bool) (string, bool) {
	s.space() // (quote, written out: a call less for every string)
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return "", false
	}
	return s.str(kept)
}

// quote skips whitespace to the '"' that opens a string: where its text starts, or false
// where no string comes next.
func (s *Scanner) quote() (int, bool) {
	s.space()
	return s.pos + 1, s.pos < len(s.data) && s.data[s.pos] == '"'
}

// Bool reads true or false.
func (s *Scanner) Bool() (bool, bool) {
	s.space()
	if s.pos >= len(s.data) {
		return false, false
	}
	switch s.data[s.pos] {
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	}
	return false, false
}

// number reads a number literal's text.
func (s *Scanner) number() (string, bool, bool) {
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != '-' && (s.data[s.pos] < '0' || s.data[s.pos] > '9') {
		return "", false, false
	}
	return s.numberText()
}

// Int reads an integer literal that fits an int64 (Integer, given 1.0 or 1e2, reads what this leaves).
func (s *Scanner) Int() (int64, bool) {
	text, integer, ok := s.number()
	if !ok || !integer || len(text) > 18 {
		return 0, false
	}
	var n int64
	digits := text
	if digits[0] == '-' {
		digits = digits[1:]
	}
	for i := 0; i < len(digits); i++ {
		n = n*10 + int64(digits[i]-'0')
	}
	if text[0] == '-' {
		n = -n
	}
	return n, true
}

// Float reads a number as Number reads it.
func (s *Scanner) Float() (float64, bool) {
	text, _, ok := s.number()
	if !ok {
		return 0, false
	}
	return floatText(text)
}

// Time reads a date-time as DateTime reads it; Go's zero time is left to the exact walk
// (a struct holding it reads as "not set").
func (s *Scanner) Time() (time.Time, bool) {
	start, ok := s.quote()
	if !ok {
		return time.Time{}, false
	}
	// A date-time is read where it lies, up to its closing quote: its grammar holds no
	// quote, backslash or control byte, so the string is the date-time and no more, with no
	// scan for its end first (a document of many date-times spends much of its time on them).
	var f rfc3339
	text := s.text[start:]
	if n := rfc3339At(text, &f); n > 0 && n < len(text) && text[n] == '"' {
		s.pos = start + n + 1
		text = text[:n]
	} else if text, ok = s.str(false); !ok {
		return time.Time{}, false
	} else if f, ok = readRFC3339(text); !ok { // (read as a string first: one written with an escape)
		return time.Time{}, false
	}
	plain := formatted(text, f.offset)
	if !plain {
		text = s.kept(start, text) // the time keeps its text (ParseTime): a copy of it, then
	}
	t := f.time(text, plain)
	return t, !t.IsZero()
}

// Bytes reads base64 text as Base64 reads it.
func (s *Scanner) Bytes() ([]byte, bool) {
	text, ok := s.token(false)
	if !ok {
		return nil, false
	}
	return base64Value(text)
}

// Kind is the JSON kind of the value that comes next, as a union by kind selects its variant
// (nothing is read): "integer" only for an integer literal (a union's integer variant leaves
// 1.0 to the exact walk), "" for anything that starts no value.
func (s *Scanner) Kind() string {
	s.space()
	if s.pos >= len(s.data) {
		return ""
	}
	switch c := s.data[s.pos]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == '-' || c >= '0' && c <= '9':
		start := s.pos
		_, integer, ok := s.numberText()
		s.pos = start
		if !ok {
			return ""
		}
		if integer {
			return "integer"
		}
		return "number"
	}
	return ""
}

// Tag is the string value of an object's first member when its key is key: how a union with
// that discriminator selects its variant (nothing is read). False for anything else, a tag
// that comes later among them: the exact walk finds it.
func (s *Scanner) Tag(key string) (string, bool) {
	s.space()
	start := s.pos
	var tag string
	ok := s.Open('{')
	if ok {
		var first string
		first, ok = s.Key()
		ok = ok && first == key
	}
	if ok {
		tag, ok = s.token(false)
	}
	s.pos = start
	return tag, ok
}

// Any reads a free-form value as DecodeFast reads it depth levels below the root,
// and gives what AnyJSON builds from that tree; false where AnyJSON would refuse it
// (too deep, a number no float64 holds) or DecodeFast is unsure.
func (s *Scanner) Any(depth int) (any, bool) {
	v, ok := s.value(depth)
	if !ok || anyProblem(v, MaxDepth-depth, nil) != "" {
		return nil, false
	}
	return plain(v), true
}

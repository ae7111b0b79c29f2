package rt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode parses JSON text into a tree: nil, bool, string, json.Number, []any or *Object.
//
// It follows the input policy (see checkText) and never recurses: any depth is
// decoded in linear time and memory. An array or object more than MaxDepth
// levels deep is checked but built empty, since every parser refuses a value
// at that depth without looking inside; the Python runtime decodes the same way.
func Decode(data []byte) (any, error) {
	return decodeOrdered(data, MaxDepth)
}

// DecodeFast gives what Decode gives (the same tree, the same errors), faster.
//
// It reads the text once, by recursive descent straight into the tree, applying
// the input policy as it goes. The text is copied into one string whose pieces
// are the tree's strings, keys and numbers: a string kept from the result keeps
// that copy alive (never data itself). Whatever it is not sure of (text outside the
// policy or JSON's grammar, nesting deeper than MaxDepth) it leaves to Decode, so
// the messages come from one place and deep text never grows the stack.
func DecodeFast(data []byte) (any, error) {
	// Outside strings JSON text is ASCII, so checking each string's bytes is
	// checking the text is UTF-8; any other byte is left to Decode.
	if v, ok := fastDecode(data); ok {
		return v, nil
	}
	return Decode(data)
}

// fastDecode is DecodeFast's own path: the tree, or false for text it leaves to Decode.
func fastDecode(data []byte) (any, bool) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, false
	}
	f := decoders.Get().(*fastDecoder)
	f.data, f.text, f.pos = data, string(data), 0
	v, ok := f.value(0)
	f.space()
	ok = ok && f.pos == len(data)
	f.release()
	return v, ok
}

// decoders holds fastDecoders between calls, so that their scratch space is
// allocated once, not per document.
var decoders = sync.Pool{New: func() any { return new(fastDecoder) }}

// release forgets the document (the pool keeps none alive) and returns the
// decoder to the pool; scratch space grown past a large document's is dropped.
func (f *fastDecoder) release() {
	clear(f.stack)
	clear(f.keys)
	clear(f.vals)
	f.data, f.text, f.stack, f.keys, f.vals = nil, "", f.stack[:0], f.keys[:0], f.vals[:0]
	if cap(f.stack) > 1<<12 || cap(f.keys) > 1<<12 || cap(f.buf) > 1<<16 {
		f.stack, f.keys, f.vals, f.buf = nil, nil, nil, nil
	}
	decoders.Put(f)
}

// checkText applies the parts of the input policy that come before the syntax:
// the text is UTF-8 (Go's decoder would replace bad bytes with U+FFFD) and
// starts with no byte order mark.
func checkText(data []byte) error {
	if !utf8.Valid(data) {
		return inputError(notUTF8Message)
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return inputError(bomMessage)
	}
	return nil
}

// checkSurrogates refuses a \u escape of a lone UTF-16 surrogate in syntactically
// valid JSON text (Go's decoder would replace it with U+FFFD).
func checkSurrogates(data []byte) error {
	if !bytes.Contains(data, []byte(`\u`)) {
		return nil
	}
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		r := unitAt(data, i)
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if low := unitAt(data, i+6); low < 0xDC00 || low > 0xDFFF {
				return inputError(surrogateMessage)
			}
			i += 11
		case r >= 0xDC00 && r <= 0xDFFF:
			return inputError(surrogateMessage)
		default:
			i++ // the escaped character (a backslash escapes only one)
		}
	}
	return nil
}

// unitAt reads the UTF-16 code unit of a \uXXXX escape at data[at:], or -1.
func unitAt(data []byte, at int) rune {
	if at+6 > len(data) || data[at] != '\\' || data[at+1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range data[at+2 : at+6] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return -1
		}
	}
	return r
}

// tooLong reports whether a number is an integer literal of more than MaxIntDigits digits.
func tooLong(n json.Number) bool {
	digits := strings.TrimPrefix(string(n), "-")
	return len(digits) > MaxIntDigits && !strings.ContainsAny(digits, ".eE")
}

// fastDecoder is DecodeFast's reader: each method reports false for anything
// it leaves to Decode (text that is not UTF-8 among them). Text reaching it
// starts with no byte order mark.
type fastDecoder struct {
	data  []byte
	text  string // data as one string: unescaped strings and numbers are slices of it
	pos   int
	buf   []byte   // unescaped string bytes, reused
	stack []any    // the items of the arrays being read, innermost last
	keys  []string // the keys and values of the objects being read, innermost last
	vals  []any
}

func (f *fastDecoder) space() {
	for f.pos < len(f.data) {
		switch f.data[f.pos] {
		case ' ', '\t', '\n', '\r':
			f.pos++
		default:
			return
		}
	}
}

// value reads one value at nesting level depth (the root is 0).
func (f *fastDecoder) value(depth int) (any, bool) {
	f.space()
	if f.pos >= len(f.data) {
		return nil, false
	}
	switch c := f.data[f.pos]; {
	case c == '"':
		s, ok := f.str()
		return s, ok
	case c == '{':
		if depth >= MaxDepth {
			return nil, false
		}
		return f.object(depth + 1)
	case c == '[':
		if depth >= MaxDepth {
			return nil, false
		}
		return f.array(depth + 1)
	case c == '-' || c >= '0' && c <= '9':
		return f.number()
	case c == 't':
		return true, f.literal("true")
	case c == 'f':
		return false, f.literal("false")
	case c == 'n':
		return nil, f.literal("null")
	}
	return nil, false
}

func (f *fastDecoder) literal(word string) bool {
	if !bytes.HasPrefix(f.data[f.pos:], []byte(word)) {
		return false
	}
	f.pos += len(word)
	return true
}

// object reads an object's members onto the decoder's stacks, like array, and
// then sets them into an object with room for as many (duplicates included).
func (f *fastDecoder) object(depth int) (any, bool) {
	f.pos++ // {
	f.space()
	if f.pos < len(f.data) && f.data[f.pos] == '}' {
		f.pos++
		return NewObject(), true
	}
	base := len(f.keys)
	for {
		f.space()
		if f.pos >= len(f.data) || f.data[f.pos] != '"' {
			return nil, false
		}
		key, ok := f.str()
		if !ok {
			return nil, false
		}
		f.space()
		if f.pos >= len(f.data) || f.data[f.pos] != ':' {
			return nil, false
		}
		f.pos++
		v, ok := f.value(depth)
		if !ok {
			return nil, false
		}
		f.keys, f.vals = append(f.keys, key), append(f.vals, v)
		f.space()
		if f.pos >= len(f.data) {
			return nil, false
		}
		switch f.data[f.pos] {
		case ',':
			f.pos++
		case '}':
			f.pos++
			obj := objectFor(len(f.keys) - base)
			for i, k := range f.keys[base:] {
				obj.Set(k, f.vals[base+i])
			}
			clear(f.keys[base:])
			clear(f.vals[base:])
			f.keys, f.vals = f.keys[:base], f.vals[:base]
			return obj, true
		default:
			return nil, false
		}
	}
}

// array reads an array's items onto the decoder's stack (shared by the arrays
// inside it), then moves them into a slice of their exact length: one
// allocation per array, not one per doubling.
func (f *fastDecoder) array(depth int) (any, bool) {
	f.pos++ // [
	f.space()
	if f.pos < len(f.data) && f.data[f.pos] == ']' {
		f.pos++
		return []any{}, true
	}
	base := len(f.stack)
	for {
		v, ok := f.value(depth)
		if !ok {
			return nil, false
		}
		f.stack = append(f.stack, v)
		f.space()
		if f.pos >= len(f.data) {
			return nil, false
		}
		switch f.data[f.pos] {
		case ',':
			f.pos++
		case ']':
			f.pos++
			list := make([]any, len(f.stack)-base)
			copy(list, f.stack[base:])
			clear(f.stack[base:])
			f.stack = f.stack[:base]
			return list, true
		default:
			return nil, false
		}
	}
}

// str reads a string token.
func (f *fastDecoder) str() (string, bool) {
	f.pos++ // the opening quote
	start := f.pos
	ascii := true
	for f.pos < len(f.data) {
		switch c := f.data[f.pos]; {
		case c == '"':
			f.pos++
			s := f.text[start : f.pos-1]
			return s, ascii || utf8.ValidString(s)
		case c == '\\':
			return f.escaped(start)
		case c < 0x20:
			return "", false
		default:
			ascii = ascii && c < utf8.RuneSelf
			f.pos++
		}
	}
	return "", false
}

// escaped finishes a string that holds escapes, from its first one; a lone
// surrogate is left to Decode, which refuses it.
func (f *fastDecoder) escaped(start int) (string, bool) {
	out := append(f.buf[:0], f.data[start:f.pos]...)
	for f.pos < len(f.data) {
		c := f.data[f.pos]
		switch {
		case c == '"':
			f.pos++
			f.buf = out
			return string(out), utf8.Valid(out)
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			f.pos++
			continue
		}
		if f.pos+1 >= len(f.data) {
			return "", false
		}
		switch e := f.data[f.pos+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := unitAt(f.data, f.pos)
			switch {
			case r < 0:
				return "", false
			case r >= 0xD800 && r < 0xDC00:
				low := unitAt(f.data, f.pos+6)
				if low < 0xDC00 || low > 0xDFFF {
					return "", false
				}
				r = utf16.DecodeRune(r, low)
				f.pos += 6
			case r >= 0xDC00 && r <= 0xDFFF:
				return "", false
			}
			out = utf8.AppendRune(out, r)
			f.pos += 6
			continue
		default:
			return "", false
		}
		f.pos += 2
	}
	return "", false
}

// number reads a number token by JSON's grammar; an integer literal past
// MaxIntDigits is left to Decode.
func (f *fastDecoder) number() (any, bool) {
	start := f.pos
	digits := func() int {
		n := 0
		for f.pos < len(f.data) && f.data[f.pos] >= '0' && f.data[f.pos] <= '9' {
			f.pos++
			n++
		}
		return n
	}
	if f.data[f.pos] == '-' {
		f.pos++
	}
	integer := true
	if f.pos < len(f.data) && f.data[f.pos] == '0' {
		f.pos++
	} else if digits() == 0 {
		return nil, false
	}
	if f.pos < len(f.data) && f.data[f.pos] == '.' {
		f.pos++
		integer = false
		if digits() == 0 {
			return nil, false
		}
	}
	if f.pos < len(f.data) && (f.data[f.pos] == 'e' || f.data[f.pos] == 'E') {
		f.pos++
		integer = false
		if f.pos < len(f.data) && (f.data[f.pos] == '+' || f.data[f.pos] == '-') {
			f.pos++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	if integer && f.pos-start > MaxIntDigits && tooLong(json.Number(f.text[start:f.pos])) {
		return nil, false
	}
	return json.Number(f.text[start:f.pos]), true
}

// frame is an array or object being decoded, down to one level past the limit.
type frame struct {
	list   []any
	obj    *Object
	isList bool
	kept   bool // false one level past the limit: checked, built empty
	key    string
}

// scanner reads JSON text byte by byte, without recursion.
type scanner struct {
	data []byte
	pos  int
}

func (s *scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) fail(context string) error {
	if s.pos >= len(s.data) {
		return errors.New("unexpected end of JSON input")
	}
	return fmt.Errorf("invalid character %s %s", strconv.QuoteRune(rune(s.data[s.pos])), context)
}

// str reads a string token; build decodes it (else it is only checked).
func (s *scanner) str(build bool) (string, error) {
	start := s.pos
	s.pos++ // the opening quote
	plain := true
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			if !build {
				return "", nil
			}
			if plain {
				return string(s.data[start+1 : s.pos-1]), nil
			}
			var out string
			err := json.Unmarshal(s.data[start:s.pos], &out)
			return out, err
		case c < 0x20:
			return "", s.fail("in string literal")
		case c == '\\':
			plain = false
			s.pos++
			if s.pos >= len(s.data) {
				return "", s.fail("")
			}
			switch s.data[s.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.pos++
			case 'u':
				s.pos++
				for i := 0; i < 4; i++ {
					if s.pos >= len(s.data) || !strings.ContainsRune("0123456789abcdefABCDEF", rune(s.data[s.pos])) {
						return "", s.fail("in \\u hexadecimal character escape")
					}
					s.pos++
				}
			default:
				return "", s.fail("in string escape code")
			}
		default:
			s.pos++
		}
	}
	return "", s.fail("")
}

// number reads a number token by JSON's grammar.
func (s *scanner) number() (json.Number, error) {
	start := s.pos
	digits := func() int {
		n := 0
		for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
			s.pos++
			n++
		}
		return n
	}
	if s.data[s.pos] == '-' {
		s.pos++
	}
	if s.pos < len(s.data) && s.data[s.pos] == '0' {
		s.pos++
	} else if digits() == 0 {
		return "", s.fail("in numeric literal")
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if digits() == 0 {
			return "", s.fail("after decimal point in numeric literal")
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if digits() == 0 {
			return "", s.fail("in exponent of numeric literal")
		}
	}
	return json.Number(s.data[start:s.pos]), nil
}

// key reads an object key and its colon.
func (s *scanner) key(build bool) (string, error) {
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return "", s.fail("looking for beginning of object key string")
	}
	k, err := s.str(build)
	if err != nil {
		return "", err
	}
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return "", s.fail("after object key")
	}
	s.pos++
	return k, nil
}

// decodeOrdered decodes without recursion, in linear time and memory. Containers
// more than limit levels deep are checked and built empty (limit < 0: no limit);
// those inside them are kept as one byte each, their kind.
func decodeOrdered(data []byte, limit int) (any, error) {
	if err := checkText(data); err != nil {
		return nil, err
	}
	s := &scanner{data: data}
	var frames []*frame
	var deep []byte // the kinds ('[' or '{') of the containers inside an unkept one
	long := false
	building := func() bool { return len(deep) == 0 && (len(frames) == 0 || frames[len(frames)-1].kept) }
	pop := func() any {
		if len(deep) > 0 {
			deep = deep[:len(deep)-1]
			return nil
		}
		f := frames[len(frames)-1]
		frames = frames[:len(frames)-1]
		if f.isList {
			return f.list
		}
		return f.obj
	}
	inList := func() bool {
		if len(deep) > 0 {
			return deep[len(deep)-1] == '['
		}
		return frames[len(frames)-1].isList
	}
	for {
		// A value starts here.
		s.space()
		if s.pos >= len(data) {
			return nil, s.fail("")
		}
		var value any
		switch c := data[s.pos]; {
		case c == '[' || c == '{':
			s.pos++
			if building() {
				f := &frame{isList: c == '[', kept: limit < 0 || len(frames) <= limit}
				if f.isList {
					f.list = []any{}
				} else {
					f.obj = NewObject()
				}
				frames = append(frames, f)
			} else {
				deep = append(deep, c)
			}
			s.space()
			if s.pos < len(data) && (c == '[' && data[s.pos] == ']' || c == '{' && data[s.pos] == '}') {
				s.pos++
				value = pop()
				break
			}
			if c == '{' {
				k, err := s.key(building())
				if err != nil {
					return nil, err
				}
				if len(deep) == 0 {
					frames[len(frames)-1].key = k
				}
			}
			continue
		case c == '"':
			str, err := s.str(building())
			if err != nil {
				return nil, err
			}
			value = str
		case c == '-' || c >= '0' && c <= '9':
			n, err := s.number()
			if err != nil {
				return nil, err
			}
			long = long || tooLong(n)
			value = n
		case bytes.HasPrefix(data[s.pos:], []byte("true")):
			s.pos += 4
			value = true
		case bytes.HasPrefix(data[s.pos:], []byte("false")):
			s.pos += 5
			value = false
		case bytes.HasPrefix(data[s.pos:], []byte("null")):
			s.pos += 4
		default:
			return nil, s.fail("looking for beginning of value")
		}
		// The value is complete: attach it, then read what follows it.
		for next := false; !next; {
			if len(deep) == 0 && len(frames) == 0 {
				s.space()
				if s.pos < len(data) {
					return nil, s.fail("after top-level value")
				}
				if long {
					return nil, inputError(longIntMessage)
				}
				if err := checkSurrogates(data); err != nil {
					return nil, err
				}
				return value, nil
			}
			if top := frames[len(frames)-1]; len(deep) == 0 && top.kept {
				if top.isList {
					top.list = append(top.list, value)
				} else {
					top.obj.Set(top.key, value)
				}
			}
			s.space()
			list := inList()
			switch {
			case s.pos >= len(data):
				return nil, s.fail("")
			case data[s.pos] == ',':
				s.pos++
				if !list {
					k, err := s.key(building())
					if err != nil {
						return nil, err
					}
					if len(deep) == 0 {
						frames[len(frames)-1].key = k
					}
				}
				next = true
			case list && data[s.pos] == ']' || !list && data[s.pos] == '}':
				s.pos++
				value = pop()
			case list:
				return nil, s.fail("after array element")
			default:
				return nil, s.fail("after object key:value pair")
			}
		}
	}
}

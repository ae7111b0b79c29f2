package rt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
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

// DecodeFast parses JSON with encoding/json's own decoder, several times faster
// than Decode. Its objects do not keep key order, which only decides the order in
// which problems are reported: callers decode again with Decode when there are any.
func DecodeFast(data []byte) (any, error) {
	if err := checkText(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	// encoding/json nests at most 10000 levels, so this walk is bounded.
	tree, long := fromPlain(v)
	if long {
		return nil, inputError(longIntMessage)
	}
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	return tree, nil
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
	unit := func(at int) rune {
		if at+6 > len(data) || data[at] != '\\' || data[at+1] != 'u' {
			return -1
		}
		n, err := strconv.ParseUint(string(data[at+2:at+6]), 16, 32)
		if err != nil {
			return -1
		}
		return rune(n)
	}
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		r := unit(i)
		switch {
		case r >= 0xD800 && r < 0xDC00:
			if low := unit(i + 6); low < 0xDC00 || low > 0xDFFF {
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

// tooLong reports whether a number is an integer literal of more than MaxIntDigits digits.
func tooLong(n json.Number) bool {
	digits := strings.TrimPrefix(string(n), "-")
	return len(digits) > MaxIntDigits && !strings.ContainsAny(digits, ".eE")
}

// fromPlain turns encoding/json's maps into Objects, in place, and reports an
// integer literal that is too long.
func fromPlain(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		long := false
		for k, item := range x {
			keys = append(keys, k)
			var l bool
			x[k], l = fromPlain(item)
			long = long || l
		}
		return &Object{keys: keys, values: x}, long
	case []any:
		long := false
		for i, item := range x {
			var l bool
			x[i], l = fromPlain(item)
			long = long || l
		}
		return x, long
	case json.Number:
		return x, tooLong(x)
	}
	return v, false
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

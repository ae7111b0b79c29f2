package rt

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
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
	data []byte
	text string // data as one string: unescaped strings and numbers are slices of it
	pos  int
	// alias: text is data itself, read where it lies (Scanner), so a string or number kept
	// beyond the parse is a slice of copied, a copy of data from base on (keep).
	alias  bool
	copied string
	base   int
	buf    []byte   // unescaped string bytes, reused
	stack  []any    // the items of the arrays being read, innermost last
	keys   []string // the keys and values of the objects being read, innermost last
	vals   []any
}

// space skips whitespace; most calls find none (a value just after ':' or ','
// with no space, or a space already skipped), so that is checked first.
func (f *fastDecoder) space() {
	data, i := f.data, f.pos
	if i < len(data) && data[i] > ' ' {
		return
	}
	// (data[i] <= ' ' first: the byte after a space is mostly a token's, told apart by one comparison.)
	for i < len(data) && data[i] <= ' ' && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t') {
		i++
	}
	f.pos = i
}

// value reads one value at nesting level depth (the root is 0).
func (f *fastDecoder) value(depth int) (any, bool) {
	f.space()
	if f.pos >= len(f.data) {
		return nil, false
	}
	switch c := f.data[f.pos]; {
	case c == '"':
		s, ok := f.str(true)
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
	// (A comparison of the text with the word, not bytes.HasPrefix: with the word a constant where this is
	// inlined, the compiler compares it as one word, where HasPrefix called memequal for each null.)
	if len(f.data)-f.pos < len(word) || string(f.data[f.pos:f.pos+len(word)]) != word {
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
		key, ok := f.str(true)
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

// str reads a string token, to be kept beyond the parse (kept: see keep) or looked at
// and dropped (a key matched, a date-time read). Most strings are plain printable
// ASCII with no escape: their end is found eight bytes a turn (plainWord), then a byte
// a turn near the text's end, with the position kept in a local (a store through f per
// byte cost a fifth of a document's read). Any other string is read on by strPast.
func (f *fastDecoder) str(kept bool) (string, bool) {
	data := f.data
	start := f.pos + 1 // after the opening quote
	i := start
	for {
		if i+8 > len(data) {
			for i < len(data) && plainByte[data[i]] {
				i++
			}
			break
		}
		// (plainWord's lowest flag is exact: the byte it flags needs no second look)
		if flags := plainWord(binary.LittleEndian.Uint64(data[i:])); flags != 0 {
			i += bits.TrailingZeros64(flags) >> 3
			break
		}
		i += 8
	}
	if i < len(data) && data[i] == '"' {
		f.pos = i + 1
		if kept && f.alias {
			return f.keep(start, i), true
		}
		return f.text[start:i], true
	}
	return f.strPast(start, i, kept)
}

// strPast reads on a string from start that str found to hold something other than plain
// ASCII at i: an escape, a control byte, or a byte past ASCII.
//
// Past ASCII there are two kinds of text. In a string of ASCII with a byte past it here
// and there (a curly quote, an accent), each such sequence is checked as UTF-8 where it
// lies and the scan goes on eight bytes a turn after it: checking the string again at its
// end (utf8.Valid's call, its pass over the ASCII around) was a tenth of the parse of a
// list of short strings with one ’ each. Where a sequence is followed by another (Chinese,
// Russian, a run of emoji), the rest is dense: its end is found eight bytes a turn by a
// test that lets bytes past ASCII through (textWord) and it is checked in one utf8.Valid
// pass at the end (a sequence at a time there was two and a half times slower).
func (f *fastDecoder) strPast(start, i int, kept bool) (string, bool) {
	data := f.data
	dense := -1 // where the dense text past ASCII starts, not yet checked as UTF-8; -1: none
	for i < len(data) {
		switch c := data[i]; {
		case c == '"':
			f.pos = i + 1
			if dense >= 0 && !utf8.Valid(data[dense:i]) {
				return "", false
			}
			if kept && f.alias {
				return f.keep(start, i), true
			}
			return f.text[start:i], true
		case c == '\\':
			f.pos = i // (escaped checks the whole string as UTF-8)
			return f.escaped(start)
		case c < 0x20:
			f.pos = i
			return "", false
		case dense >= 0:
			// In dense text (the byte past ASCII that ended the scan below).
			i++
		default:
			// A byte past ASCII in ASCII text. Where the byte after the sequence its first byte
			// begins is past ASCII too, the text is dense from here; otherwise the sequence is
			// read: DecodeRune reads a sequence of one byte only where it is not UTF-8 (U+FFFD
			// written out takes three).
			if after := i + seqLen(c); after < len(data) && data[after] >= utf8.RuneSelf {
				dense = i
				i++
				break
			}
			_, size := utf8.DecodeRune(data[i:])
			if size == 1 {
				f.pos = i
				return "", false
			}
			i += size
		}
		if dense < 0 {
			// str's scan, written out again: as one function for both, Go does not inline it (cost 82,
			// over the inliner's budget of 80), and str runs it for every string of a document.
			for {
				if i+8 > len(data) {
					for i < len(data) && plainByte[data[i]] {
						i++
					}
					break
				}
				if flags := plainWord(binary.LittleEndian.Uint64(data[i:])); flags != 0 {
					i += bits.TrailingZeros64(flags) >> 3
					break
				}
				i += 8
			}
		} else {
			for i+8 <= len(data) {
				if flags := textWord(binary.LittleEndian.Uint64(data[i:])); flags != 0 {
					i += bits.TrailingZeros64(flags) >> 3
					break
				}
				i += 8
			}
		}
	}
	f.pos = i
	return "", false
}

// keep is data[start:end] copied, for a value kept beyond the parse where the text is
// the caller's data, which the caller may change afterwards. The first value kept copies
// the rest of the text, of which it and every later one are slices: one allocation, and
// none for the keys and numbers before it (a copy per string cost more on documents of
// many short strings; allocating is most of a small document's parse, with the
// collector's work for the bytes allocated).
func (f *fastDecoder) keep(start, end int) string {
	if f.copied == "" || start < f.base { // (values are kept in text order: start < base is never met)
		if start == end {
			return ""
		}
		f.copyFrom(start)
	}
	return f.copied[start-f.base : end-f.base]
}

// copyFrom copies the text from start on (out of keep, which is inlined where a value is read).
func (f *fastDecoder) copyFrom(start int) {
	f.base, f.copied = start, string(f.data[start:])
}

// seqLen is the length of the UTF-8 sequence a byte past ASCII begins, if it begins one
// (strPast's guess of what follows; DecodeRune or utf8.Valid checks it).
func seqLen(c byte) int {
	switch {
	case c >= 0xF0:
		return 4
	case c >= 0xE0:
		return 3
	}
	return 2
}

// plainWord flags, in its top bit, each byte of w (eight bytes of text, little-endian) that
// plainByte does not hold: a quote, a backslash, a control byte or a byte past ASCII. Each
// test sets a byte's top bit; a borrow only runs upward from a byte it flags, so the
// lowest flag is exact (the bytes above it may be flagged wrongly, and are not looked at).
func plainWord(w uint64) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	q, b := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (b-ones)&^b | (w - ones*0x20) | w) & tops
}

// textWord is plainWord for text past ASCII: it flags a quote, a backslash or a control
// byte, and lets a byte past ASCII through (its own top bit clears each test's), with
// plainWord's exact lowest flag.
func textWord(w uint64) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	q, b := w^(ones*'"'), w^(ones*'\\')
	return ((q-ones)&^q | (b-ones)&^b | (w-ones*0x20)&^w) & tops
}

// plainByte holds the bytes a string may hold as they are and that need no second look:
// printable ASCII but the quote and the backslash.
var plainByte = func() (table [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		table[c] = c != '"' && c != '\\'
	}
	return table
}()

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
	text, _, ok := f.numberText()
	if ok && f.alias {
		text = f.keep(f.pos-len(text), f.pos)
	}
	return json.Number(text), ok
}

// numberText reads a number literal: its text (a slice of f.text), and whether it is
// an integer literal (no fraction or exponent). The position is kept in a local, as in str.
func (f *fastDecoder) numberText() (string, bool, bool) {
	data, start := f.data, f.pos
	i := start
	if data[i] == '-' {
		i++
	}
	integer := true
	if i < len(data) && data[i] == '0' {
		i++
	} else if j := digitsEnd(data, i); j > i {
		i = j
	} else {
		f.pos = i
		return "", false, false
	}
	if i < len(data) && data[i] == '.' {
		integer = false
		j := digitsEnd(data, i+1)
		if j == i+1 {
			f.pos = j
			return "", false, false
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		integer = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digitsEnd(data, i)
		if j == i {
			f.pos = j
			return "", false, false
		}
		i = j
	}
	f.pos = i
	text := f.text[start:i]
	if integer && i-start > MaxIntDigits && tooLong(json.Number(text)) {
		return "", false, false
	}
	return text, integer, true
}

// digitsEnd is where the run of ASCII digits from i ends.
func digitsEnd(data []byte, i int) int {
	for i < len(data) && data[i]-'0' <= 9 {
		i++
	}
	return i
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

// syntaxError is where text stops being JSON, in the words of Python's json module
// (Python 3.11), which the Python and TypeScript runtimes report for the same text.
type syntaxError struct {
	what string // e.g. "Expecting ',' delimiter"
	at   int    // the byte offset json names; -1: what is the whole message (NaN is not valid JSON)
}

// message is the problem's text: "invalid JSON: <what> at line L column C", the line and
// column counted in characters (code points) from 1, as Python counts them in a str.
func (e *syntaxError) message(data []byte) string {
	if e.at < 0 {
		return "invalid JSON: " + e.what
	}
	lineStart := bytes.LastIndexByte(data[:e.at], '\n') + 1
	line := bytes.Count(data[:lineStart], []byte{'\n'}) + 1
	column := utf8.RuneCount(data[lineStart:e.at]) + 1
	// json's own words ("Invalid control character at") less the "at" they end in, which the place says.
	return "invalid JSON: " + strings.TrimSuffix(e.what, " at") + " at line " + strconv.Itoa(line) + " column " + strconv.Itoa(column)
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

func (s *scanner) fail(what string) *syntaxError {
	return &syntaxError{what: what, at: s.pos}
}

// escapes are the characters a backslash may escape, \u aside.
const escapes = `"\/bfnrt`

// str reads a string token; build decodes it (else it is only checked). Its problems are
// json's: a control character, a bad escape (at its backslash, or at the u of \u), a
// missing closing quote (at the opening one).
func (s *scanner) str(build bool) (string, *syntaxError) {
	start := s.pos
	p := start + 1
	plain := true
	for {
		if p >= len(s.data) {
			return "", &syntaxError{"Unterminated string starting at", start}
		}
		c := s.data[p]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return "", &syntaxError{"Invalid control character at", p}
		}
		if c != '\\' {
			p++
			continue
		}
		plain = false
		if p+1 >= len(s.data) {
			return "", &syntaxError{"Unterminated string starting at", start}
		}
		switch e := s.data[p+1]; {
		case e == 'u':
			// Four hex digits, and a character after them (json's scanner asks for one).
			if p+6 >= len(s.data) || unitAt(s.data, p) < 0 {
				return "", &syntaxError{"Invalid \\uXXXX escape", p + 1}
			}
			p += 6
		case strings.IndexByte(escapes, e) >= 0:
			p += 2
		default:
			return "", &syntaxError{"Invalid \\escape", p}
		}
	}
	s.pos = p + 1
	if !build {
		return "", nil
	}
	if plain {
		return string(s.data[start+1 : p]), nil
	}
	var out string
	if err := json.Unmarshal(s.data[start:s.pos], &out); err != nil {
		return "", &syntaxError{"Unterminated string starting at", start} // unreachable: the token was checked above
	}
	return out, nil
}

// constant refuses NaN, Infinity and -Infinity at the position, as the Python runtime's
// json module does (it reads them, then refuses them), or says a value is missing there.
func (s *scanner) constant() *syntaxError {
	for _, word := range []string{"NaN", "Infinity", "-Infinity"} {
		if bytes.HasPrefix(s.data[s.pos:], []byte(word)) {
			return &syntaxError{word + " is not valid JSON", -1}
		}
	}
	return s.fail("Expecting value")
}

// number reads a number token by JSON's grammar, as json's scanner does: a fraction or
// an exponent without digits is not part of the number (what follows it is then wrong).
func (s *scanner) number() (json.Number, *syntaxError) {
	start, d := s.pos, s.data
	digit := func(at int) bool { return at < len(d) && d[at] >= '0' && d[at] <= '9' }
	p := start
	if d[p] == '-' {
		p++
	}
	switch {
	case digit(p) && d[p] == '0':
		p++
	case digit(p):
		for digit(p) {
			p++
		}
	default:
		return "", s.constant()
	}
	if p < len(d) && d[p] == '.' && digit(p+1) {
		p += 2
		for digit(p) {
			p++
		}
	}
	if p < len(d) && (d[p] == 'e' || d[p] == 'E') {
		q := p + 1
		if q < len(d) && (d[q] == '+' || d[q] == '-') {
			q++
		}
		if digit(q) {
			for p = q; digit(p); p++ {
			}
		}
	}
	s.pos = p
	return json.Number(d[start:p]), nil
}

// key reads an object key and its colon.
func (s *scanner) key(build bool) (string, *syntaxError) {
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return "", s.fail("Expecting property name enclosed in double quotes")
	}
	k, err := s.str(build)
	if err != nil {
		return "", err
	}
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return "", s.fail("Expecting ':' delimiter")
	}
	s.pos++
	return k, nil
}

// decodeOrdered decodes without recursion, in linear time and memory. Containers
// more than limit levels deep are checked and built empty (limit < 0: no limit);
// those inside them are kept as one byte each, their kind. Text that is not JSON
// gets the Python runtime's message for it (syntaxError); the input policy's own
// problems come after the syntax, as there.
func decodeOrdered(data []byte, limit int) (any, error) {
	if err := checkText(data); err != nil {
		return nil, err
	}
	v, long, bad := scanOrdered(data, limit)
	switch {
	case bad != nil:
		return nil, inputError(bad.message(data))
	case long:
		return nil, inputError(longIntMessage)
	}
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	return v, nil
}

// scanOrdered is decodeOrdered's reader: the value, whether an integer literal is
// longer than MaxIntDigits, or where the text stops being JSON.
func scanOrdered(data []byte, limit int) (any, bool, *syntaxError) {
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
	key := func() *syntaxError {
		k, err := s.key(building())
		if err == nil && len(deep) == 0 {
			frames[len(frames)-1].key = k
		}
		return err
	}
	for {
		// A value starts here.
		s.space()
		if s.pos >= len(data) {
			return nil, false, s.fail("Expecting value")
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
				if err := key(); err != nil {
					return nil, false, err
				}
			}
			continue
		case c == '"':
			str, err := s.str(building())
			if err != nil {
				return nil, false, err
			}
			value = str
		case c == '-' || c >= '0' && c <= '9':
			n, err := s.number()
			if err != nil {
				return nil, false, err
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
			return nil, false, s.constant()
		}
		// The value is complete: attach it, then read what follows it.
		for next := false; !next; {
			if len(deep) == 0 && len(frames) == 0 {
				s.space()
				if s.pos < len(data) {
					return nil, false, s.fail("Extra data")
				}
				return value, long, nil
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
			case s.pos < len(data) && data[s.pos] == ',':
				s.pos++
				if !list {
					if err := key(); err != nil {
						return nil, false, err
					}
				}
				next = true
			case s.pos < len(data) && (list && data[s.pos] == ']' || !list && data[s.pos] == '}'):
				s.pos++
				value = pop()
			default:
				return nil, false, s.fail("Expecting ',' delimiter")
			}
		}
	}
}

package rt

import "encoding/binary"

// Fields are a model's keys, by field, for its direct reader to find the field a member's key
// names (Scanner.Field). Most keys are written as the spec spells them, with no escape: such a
// key is matched in the text where it lies, with its closing quote, so the reader neither scans
// it apart nor compares it with every name (that was a fifth of a small document's parse).
type Fields struct {
	names []string // the wire names, by field (the reader's bit)
	// first: the field, plus one, of the first quoted name to start with each byte (0: none).
	first [256]uint8
	keys  []fieldKey // by field
}

// fieldKey is what Scanner.Field compares a key in the text with, for one field: in one place, so
// that a lookup loads it from one entry.
type fieldKey struct {
	// head: a quoted name's first eight bytes (fewer, zero-padded, in a shorter one), little-endian,
	// and mask the bytes of it that count; tail and tailMask the same of its next eight: most
	// names are matched with a word or two compared, the rest of a longer one as a string.
	head, mask, tail, tailMask uint64
	// quoted: the name and its closing quote as the text spells it with no escape; "" for a name the
	// text cannot spell so (a quote, a backslash or a control byte in it), found by its value only.
	quoted string
	next   uint8 // the field, plus one, of the next quoted name to start with the same byte (0: none)
}

// NewFields holds a model's wire names, by field; a model has at most 64 fields (its reader
// keeps the keys seen in one uint64).
func NewFields(names ...string) *Fields {
	k := &Fields{names: names, keys: make([]fieldKey, len(names))}
	for i := len(names) - 1; i >= 0; i-- { // backwards: each byte's chain in field order
		name := names[i]
		if !spelledAsIs(name) {
			continue
		}
		key := &k.keys[i]
		key.quoted = name + `"`
		key.head, key.mask = wordOf(key.quoted, 0)
		key.tail, key.tailMask = wordOf(key.quoted, 8)
		key.next = k.first[name[0]]
		k.first[name[0]] = uint8(i + 1)
	}
	return k
}

// wordOf is the bytes of q from at on, at most eight, as a little-endian word (zero-padded), and
// the mask of the bytes that count.
func wordOf(q string, at int) (word, mask uint64) {
	for j := 0; at+j < len(q) && j < 8; j++ {
		word |= uint64(q[at+j]) << (8 * j)
		mask |= 0xff << (8 * j)
	}
	return word, mask
}

// spelledAsIs reports whether JSON text may hold name as it is between quotes: a name that is
// not empty and holds no quote, backslash or control byte.
func spelledAsIs(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c == '"' || c == '\\' || c < 0x20 {
			return false
		}
	}
	return name != ""
}

// Field reads a member's key and the ':' after it, and gives the field of k it names; -1 for
// any other key, and where no key comes next (the reader then leaves the text to the exact walk).
// (The quote before the key and the ':' after it are read here, not by quote and colon: a
// call for each was a tenth of a small document's parse.)
func (s *Scanner) Field(k *Fields) int {
	s.space()
	start := s.pos + 1
	if start > len(s.data) || s.data[start-1] != '"' {
		return -1
	}
	// Where the text after the opening quote starts with a name and its closing quote, that is
	// the key, whole and unescaped (the name holds no quote or backslash): the name's first
	// sixteen bytes are compared as two words, and the rest, if any, as a string. Near the text's
	// end a word is padded with zero bytes, which no name holds.
	if start < len(s.data) {
		w := s.word(start)
		for i := k.first[byte(w)]; i != 0; {
			f := int(i) - 1
			key := &k.keys[f]
			i = key.next
			if w&key.mask != key.head {
				continue
			}
			q := key.quoted
			if len(q) > 8 && s.word(start+8)&key.tailMask != key.tail ||
				len(q) > 16 && (len(s.data)-start < len(q) || s.text[start+16:start+len(q)] != q[16:]) {
				continue
			}
			if end := start + len(q); end < len(s.data) && s.data[end] == ':' {
				s.pos = end + 1
				return f
			}
			s.pos = start + len(q)
			return s.colon(f)
		}
	}
	// A key written with an escape, or not one of k's.
	key, ok := s.str(false)
	if !ok {
		return -1
	}
	for i, name := range k.names {
		if name == key {
			return s.colon(i)
		}
	}
	return -1
}

// word is the text's eight bytes from at on as a little-endian word, zero-padded past its end.
func (s *Scanner) word(at int) uint64 {
	if at+8 <= len(s.data) {
		return binary.LittleEndian.Uint64(s.data[at:])
	}
	var w uint64
	for j := len(s.data) - 1; j >= at; j-- {
		w = w<<8 | uint64(s.data[j])
	}
	return w
}

// colon reads the ':' after a key, giving field, or -1 where none comes.
func (s *Scanner) colon(field int) int {
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return -1
	}
	s.pos++
	return field
}

package rt

import "encoding/binary"

// Fields are a model's keys, by field, for its direct reader to find the field a member's key
// names (Scanner.Field). Most keys are written as the spec spells them, with no escape: such a
// key is matched in the text where it lies, with its closing quote, so the reader neither scans
// it apart nor compares it with every name (that was a fifth of a small document's parse).
type Fields struct {
	names []string // the wire names, by field (the reader's bit)
	// quoted: a name and its closing quote as the text spells it with no escape; "" for a name the
	// text cannot spell so (a quote, a backslash or a control byte in it), found by its value only.
	quoted []string
	// first: the field, plus one, of the first quoted name to start with each byte (0: none);
	// next: the one after it that starts with the same byte (0: none).
	first [256]uint8
	next  []uint8
	// head: a quoted name's first eight bytes (fewer, zero-padded, in a shorter one), little-endian,
	// and mask the bytes of it that count: most names are matched with one word compared.
	head, mask []uint64
}

// NewFields holds a model's wire names, by field; a model has at most 64 fields (its reader
// keeps the keys seen in one uint64).
func NewFields(names ...string) *Fields {
	k := &Fields{names: names, quoted: make([]string, len(names)), next: make([]uint8, len(names)),
		head: make([]uint64, len(names)), mask: make([]uint64, len(names))}
	for i := len(names) - 1; i >= 0; i-- { // backwards: each byte's chain in field order
		name := names[i]
		if !spelledAsIs(name) {
			continue
		}
		k.quoted[i] = name + `"`
		for j := 0; j < len(k.quoted[i]) && j < 8; j++ {
			k.head[i] |= uint64(k.quoted[i][j]) << (8 * j)
			k.mask[i] |= 0xff << (8 * j)
		}
		k.next[i] = k.first[name[0]]
		k.first[name[0]] = uint8(i + 1)
	}
	return k
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
func (s *Scanner) Field(k *Fields) int {
	start, ok := s.quote()
	if !ok {
		return -1
	}
	// Where the text after the opening quote starts with a name and its closing quote, that is
	// the key, whole and unescaped (the name holds no quote or backslash): the name's first eight
	// bytes are compared as one word, and the rest, if any, as a string. Near the text's end the
	// word is padded with zero bytes, which no name holds.
	if start < len(s.data) {
		var w uint64
		if start+8 <= len(s.data) {
			w = binary.LittleEndian.Uint64(s.data[start:])
		} else {
			for j := len(s.data) - 1; j >= start; j-- {
				w = w<<8 | uint64(s.data[j])
			}
		}
		for i := k.first[byte(w)]; i != 0; i = k.next[i-1] {
			if w&k.mask[i-1] != k.head[i-1] {
				continue
			}
			if q := k.quoted[i-1]; len(q) <= 8 || len(s.data)-start >= len(q) && s.text[start+8:start+len(q)] == q[8:] {
				s.pos = start + len(q)
				return s.colon(int(i) - 1)
			}
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

// colon reads the ':' after a key, giving field, or -1 where none comes.
func (s *Scanner) colon(field int) int {
	s.space()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return -1
	}
	s.pos++
	return field
}

package rt

import (
	"fmt"
	"math/bits"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// DecodeFast is the parse functions' one decode: it must give what Decode gives,
// tree for tree and error for error, or problems would change with the path taken.
func TestDecodeFastGivesWhatDecodeGivesTreeForTreeAndErrorForError(t *testing.T) {
	wide := make([]string, 0, 40)
	for i := 0; i < 20; i++ {
		wide = append(wide, fmt.Sprintf(`"k%d": %d`, i%13, i)) // duplicates past the index threshold
	}
	texts := []string{
		`{"a": 1, "b": [true, false, null], "c": {"d": "e"}}`,
		`{"a": 1, "a": 2, "b": 3, "a": 4}`,
		// objects and arrays inside each other, of every size an object is allocated for
		`[{"a": [{"b": 1}, {"c": 2, "d": [3, {"e": {}}]}], "f": []}, {"g": 3, "h": [[], [{}]], "i": {"j": {"k": [1, 2]}}}]`,
		`{"a": {"b": 1, "c": 2, "d": 3}, "e": [1, 2, 3, 4, 5], "f": {"g": 1, "h": 2, "i": 3, "j": 4, "k": 5}, "l": 1, "m": 2, "n": 3, "o": 4}`,
		`{"a": [1, {"b": [2, {"c": [3]}]}], "a": {"d": 1}}`,
		"{" + strings.Join(wide, ", ") + "}",
		`["plain", "esc\"aped\\", "\n\t\r\b\f\/", "\u00e9\u0000\u20ac", "\ud83d\ude00 and \uD83D\uDE00", "é€😀 raw"]`,
		`[0, -0, 1.5, -2e10, 3E+2, 4e-1, 12345678901234567890123, 1.0]`,
		"[" + strings.Repeat("7", MaxIntDigits) + ", -" + strings.Repeat("7", MaxIntDigits) + "]",
		"[" + strings.Repeat("7", MaxIntDigits) + ".5]",
		" \n\t{ } ", "[]", "[[], {}, [[]]]", `""`, `"x"`, "0", "true", "null",
		nested(MaxDepth-1, "1"), nested(MaxDepth, "1"), nested(MaxDepth+1, "1"), nested(MaxDepth+2, `{"a": 1}`), nested(5000, ""),
		strings.Repeat(`{"a":`, MaxDepth+3) + "1" + strings.Repeat("}", MaxDepth+3),
		// refused: each must fail with Decode's own error
		// not UTF-8: in a string, an escaped string, a key, between tokens, an encoded surrogate, a cut sequence
		"[\"a\xff\"]", "[\"a\\n\xff\"]", "{\"\xff\": 1}", "[1, \xff]", "[\"\xed\xa0\x80\"]", "[\"\xc3\"]", "\"\xe2\x82\"",
		`["\ud800"]`, `["\udc00"]`, `["\ud800\u0041"]`, `["\ud800x"]`, "[\"\xff\"]", "\xef\xbb\xbf{}",
		"[" + strings.Repeat("7", MaxIntDigits+1) + "]", "[" + strings.Repeat("7", MaxIntDigits+1) + ",]",
		"[1,]", `{"a" 1}`, `{"a":1,}`, "[01]", "[1.]", `"\x"`, `"\u12"`, `"\u12G4"`, "[", "]", `{"a":1}}`, "tru", "nul",
		"[1 2]", "{,}", "-", "1e", "\"\t\"", "", " ", "1 2", "NaN", "[Infinity]", `{"a":1 "b":2}`, `{1:2}`, `"abc`, `"abc\`,
	}
	// Every byte from ASCII's last (0x7f) to 0xff alone in a string (none past ASCII is
	// UTF-8 alone), and the first and last sequences of each length that are UTF-8.
	for b := 0x7f; b <= 0xff; b++ {
		texts = append(texts, "[\"a"+string([]byte{byte(b)})+"b\"]", "\""+string([]byte{byte(b)})+"\"")
	}
	texts = append(texts, "[\"\xc2\x80\", \"\xdf\xbf\", \"\xe0\xa0\x80\", \"\xef\xbf\xbf\", \"\xf0\x90\x80\x80\", \"\xf4\x8f\xbf\xbf\"]",
		"[\"\xc0\x80\"]", "[\"\xf4\x90\x80\x80\"]", "[\"\xe0\x80\x80\"]")
	// Past a string's first byte past ASCII its end is found eight bytes a turn, by plainWord
	// after a sequence followed by ASCII (é, a€) and by textWord after one followed by another
	// (😀😀, éé: dense text, checked at its end): a quote, escape, control byte or bad UTF-8 at
	// every place of the words after it.
	for n := 0; n < 18; n++ {
		for _, special := range []string{`"`, `\n`, `\ud83d\ude00`, `\ud800`, "\x01", "\x7f", "\xff", "\xe2\x82", "\xc3\xa9", "😀", "\xed\xa0\x80é", "\xc0\x80é"} {
			for _, lead := range []string{"é", "a€", "😀😀", "éé", "x€y"} {
				texts = append(texts, "[\""+lead+strings.Repeat("x", n)+special+"yyyyyyyyy\", 1]")
			}
		}
	}
	for _, text := range texts {
		slow, slowErr := Decode([]byte(text))
		fast, fastErr := DecodeFast([]byte(text))
		// Text within the policy and MaxDepth takes the fast path: it is not Decode's result returned twice.
		if _, taken := fastDecode([]byte(text)); taken != (slowErr == nil && depthOf(text) <= MaxDepth) {
			t.Errorf("%.60q: fast path taken %v", text, taken)
		}
		if fmt.Sprint(slowErr) != fmt.Sprint(fastErr) {
			t.Errorf("%.60q: Decode error %v, DecodeFast error %v", text, slowErr, fastErr)
			continue
		}
		if !reflect.DeepEqual(slow, fast) {
			t.Errorf("%.60q: Decode %#v, DecodeFast %#v", text, slow, fast)
		}
	}
}

// depthOf is how deeply a text's arrays and objects nest (brackets inside strings counted too: the corpus has none).
func depthOf(text string) int {
	depth, deepest := 0, 0
	for _, c := range text {
		switch c {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth--
		}
	}
	return deepest
}

func TestAnObjectKeepsFirstPositionsAndLastValuesAcrossItsIndexThreshold(t *testing.T) {
	o := NewObject()
	for i := 0; i < 3*indexFrom; i++ {
		o.Set(fmt.Sprintf("k%d", i%(2*indexFrom)), i)
	}
	if o.Len() != 2*indexFrom {
		t.Fatalf("%d members, want %d", o.Len(), 2*indexFrom)
	}
	for i, k := range o.Keys() {
		if k != fmt.Sprintf("k%d", i) {
			t.Errorf("key %d is %q", i, k)
		}
		v, ok := o.Get(k)
		want := i
		if i < indexFrom {
			want = i + 2*indexFrom
		}
		if !ok || v != want {
			t.Errorf("%s = %v (%v), want %d", k, v, ok, want)
		}
	}
	if _, ok := o.Get("absent"); ok {
		t.Error("an absent key was found")
	}
	small := NewObject()
	small.Set("a", 1)
	small.Set("a", 2)
	if v, _ := small.Get("a"); small.Len() != 1 || v != 2 {
		t.Errorf("a small object replaced a member into %v, %v", small.Keys(), v)
	}
}

// Decoders and Contexts are pooled between calls: goroutines parsing at once
// must each get their own document back, whole.
func TestDocumentsDecodedAndBuiltAtOnceDoNotShareState(t *testing.T) {
	texts := []string{
		`{"a": [1, {"b": "x\n"}], "c": {"d": [true, null]}}`,
		`[{"k": "v"}, {"k": "w", "k": "z"}, [], {}]`,
		`{"deep": ` + nested(40, `{"e": "\u00e9"}`) + `}`,
		`["\ud800"]`, `[1,]`,
	}
	want := make([]any, len(texts))
	for i, text := range texts {
		want[i], _ = Decode([]byte(text))
	}
	parse := AnyJSON(Msgs{"type": "not JSON"})
	done := make(chan string)
	for g := 0; g < 8; g++ {
		go func(g int) {
			for n := 0; n < 300; n++ {
				i := (g + n) % len(texts)
				got, fast := fastDecode([]byte(texts[i]))
				if !fast && want[i] != nil {
					done <- fmt.Sprintf("%q was left to Decode", texts[i])
					return
				}
				if !reflect.DeepEqual(got, want[i]) && want[i] != nil {
					done <- fmt.Sprintf("%q decoded as %#v", texts[i], got)
					return
				}
				if got != nil {
					if _, err := Build(got, parse); err != nil {
						done <- fmt.Sprintf("%q: %v", texts[i], err)
						return
					}
				}
			}
			done <- ""
		}(g)
	}
	for g := 0; g < 8; g++ {
		if problem := <-done; problem != "" {
			t.Error(problem)
		}
	}
}

// plainWord flags first the first byte of a word that plainByte does not hold, whatever the
// bytes before it (plain) and after it (any): every byte value at every place, after every
// byte that is plain and before every byte value.
func TestPlainWordFlagsFirstTheFirstByteThatIsNotPlain(t *testing.T) {
	firstFlagIsExact(t, plainWord, func(c byte) bool { return plainByte[c] })
}

// A string past ASCII is scanned on by textWord, which lets every byte past ASCII through.
func TestTextWordFlagsFirstTheFirstQuoteBackslashOrControlByte(t *testing.T) {
	firstFlagIsExact(t, textWord, func(c byte) bool { return plainByte[c] || c >= utf8.RuneSelf })
}

// firstFlagIsExact puts every byte value at every place of a word, after bytes that pass
// and before 9 kinds of byte, and checks that the lowest flag of word is the first byte
// that does not pass.
func firstFlagIsExact(t *testing.T, word func(uint64) uint64, passes func(byte) bool) {
	t.Helper()
	var plain []byte
	for c := 0; c < 256; c++ {
		if passes(byte(c)) {
			plain = append(plain, byte(c))
		}
	}
	for at := 0; at < 8; at++ {
		for c := 0; c < 256; c++ {
			for k, after := range []int{0x00, 0x1f, 0x20, '"', '\\', 0x7f, 0x80, 0xff, 'a'} {
				var bytes [8]byte
				for j := range bytes {
					bytes[j] = byte(after)
				}
				for j := 0; j < at; j++ {
					bytes[j] = plain[(c+7*j+k)%len(plain)]
				}
				bytes[at] = byte(c)
				w := uint64(0)
				for j := 7; j >= 0; j-- {
					w = w<<8 | uint64(bytes[j])
				}
				first := 8 // the first byte that does not pass (8: none)
				for j, b := range bytes {
					if !passes(b) {
						first = j
						break
					}
				}
				flags := word(w)
				got := 8
				if flags != 0 {
					got = bits.TrailingZeros64(flags) >> 3
				}
				if got != first {
					t.Fatalf("% x: flagged byte %d first, want %d", bytes, got, first)
				}
			}
		}
	}
}

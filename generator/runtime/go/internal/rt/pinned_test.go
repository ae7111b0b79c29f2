package rt

import "testing"

// Pattern reads \d \w \D \W as the ranges pinned to Unicode 14.0, wherever they stand, and nothing else
// that merely looks like them: an escaped backslash before a "d", a "]" escaped inside a class.
func TestPatternReadsDigitsAndWordCharactersAsUnicode14(t *testing.T) {
	cases := []struct {
		expr, value string
		want        bool
	}{
		{`^\d$`, "7", true},
		{`^\d$`, "\u0660", true},      // ARABIC-INDIC DIGIT ZERO: a digit in every version
		{`^\d$`, "\U00011F50", false}, // KAWI DIGIT ZERO: Nd since Unicode 15.0
		{`^\D$`, "\U00011F50", true},
		{`^\w$`, "\U0002EBF0", false}, // a CJK ideograph of Extension I (Unicode 15.1)
		{`^\w+$`, "z_\u00e9\u4e00", true},
		{`^\W$`, "-", true},
		{`^\W$`, "a", false},
		{`^[\w.]+$`, "a.b", true},
		{`^[\w.]+$`, "a-b", false},
		{`^[\]\d]+$`, "]\u0660", true},
		{`^\\d$`, `\d`, true}, // a backslash, then "d"
		{`^\\d$`, "7", false},
		{`^[^\d]$`, "7", false},
		{`^[^\d]$`, "x", true},
	}
	for _, c := range cases {
		if got := Pattern(c.expr).MatchString(c.value); got != c.want {
			t.Errorf("Pattern(%q).MatchString(%q) = %v, want %v (spelt %q)", c.expr, c.value, got, c.want, pinned(c.expr)[:min(80, len(pinned(c.expr)))])
		}
	}
	if expr := `^[a-z]+(?:\n?\z)`; pinned(expr) != expr {
		t.Errorf("a pattern without \\d or \\w changed: %q", pinned(expr))
	}
}

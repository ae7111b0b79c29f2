package rt

import (
	"errors"
	"strings"
	"testing"
)

// The input policy: what JSON text is refused before any spec is consulted, with
// the same messages as the Python runtime (README "Input policy").

func inputProblem(t *testing.T, text string) string {
	t.Helper()
	_, slow := Decode([]byte(text))
	_, fast := DecodeFast([]byte(text))
	var a, b *ValidationError
	if !errors.As(slow, &a) || !errors.As(fast, &b) {
		t.Fatalf("%.40q: Decode gave %v, DecodeFast %v; want a *ValidationError from both", text, slow, fast)
	}
	if a.Error() != b.Error() || a.Errors[0].Keyword != "json" || a.Errors[0].Path != "" {
		t.Fatalf("%.40q: Decode %+v, DecodeFast %+v", text, a.Errors, b.Errors)
	}
	return a.Error()
}

func accepted(t *testing.T, text string) {
	t.Helper()
	if _, err := Decode([]byte(text)); err != nil {
		t.Errorf("Decode(%.40q): %v", text, err)
	}
	if _, err := DecodeFast([]byte(text)); err != nil {
		t.Errorf("DecodeFast(%.40q): %v", text, err)
	}
}

func TestTextOutsideThePolicyIsRefusedWithItsMessage(t *testing.T) {
	long := strings.Repeat("7", MaxIntDigits+1)
	cases := map[string]string{
		"[\"\xff\"]":                "invalid JSON: the text is not valid UTF-8",
		"\xef\xbb\xbf{}":            "invalid JSON: a byte order mark (BOM) is not accepted; send UTF-8 without one",
		`["\ud800"]`:                `invalid JSON: a lone UTF-16 surrogate (such as \ud800) is not Unicode text`,
		`{"a": "x\uDC00"}`:          `invalid JSON: a lone UTF-16 surrogate (such as \ud800) is not Unicode text`,
		`["\udc00\udc00"]`:          `invalid JSON: a lone UTF-16 surrogate (such as \ud800) is not Unicode text`,
		`["\ud800\ud800"]`:          `invalid JSON: a lone UTF-16 surrogate (such as \ud800) is not Unicode text`,
		`["\ud800\u0041"]`:          `invalid JSON: a lone UTF-16 surrogate (such as \ud800) is not Unicode text`,
		`["\ud800\\DC00"]`:          `invalid JSON: a lone UTF-16 surrogate (such as \ud800) is not Unicode text`,
		`["\ud800xuDC00"]`:          `invalid JSON: a lone UTF-16 surrogate (such as \ud800) is not Unicode text`,
		"[" + long + "]":            "invalid JSON: an integer literal has more than 4300 digits",
		`{"a": [-` + long + `, 1]}`: "invalid JSON: an integer literal has more than 4300 digits",
	}
	for text, want := range cases {
		if got := inputProblem(t, text); got != want {
			t.Errorf("%.40q: %q, want %q", text, got, want)
		}
	}
}

func TestTextInsideThePolicyIsAccepted(t *testing.T) {
	digits := strings.Repeat("7", MaxIntDigits)
	for _, text := range []string{
		`"\ud83d\ude00"`, `"\\ud800"`, "\"\u00e9\"", "[" + digits + ", -" + digits + "]",
		"[" + digits + "7.5, 1" + digits + "e0]", " {\"a\": [true, false, null]} ",
	} {
		accepted(t, text)
	}
}

func TestASyntaxErrorIsReportedBeforeALongInteger(t *testing.T) {
	text := "[" + strings.Repeat("7", MaxIntDigits+1) + ",]"
	_, err := Decode([]byte(text))
	var v *ValidationError
	if err == nil || errors.As(err, &v) {
		t.Errorf("Decode gave %v; want the syntax error", err)
	}
}

func TestDecodeRefusesWhatJSONRefuses(t *testing.T) {
	for _, bad := range []string{"[1,]", `{"a" 1}`, `{"a":1,}`, "[01]", "[1.]", `"\x"`, "[", "]", `{"a":1}}`, "tru", "[1 2]", "{,}", "-", "1e", "\"\t\"", "", "1 2", "NaN", "[Infinity]"} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestDeepTextIsCheckedToItsLastByte(t *testing.T) {
	for _, bad := range []string{nested(100000, "1,"), nested(100000, "1") + "]", nested(100000, "") + " 1", nested(100000, `{"a" 1}`)} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("accepted %.20q...", bad)
		}
	}
}

func nested(levels int, inner string) string {
	return strings.Repeat("[", levels) + inner + strings.Repeat("]", levels)
}

func TestAValueDeeperThanMaxDepthIsAValidationErrorAtItsPointer(t *testing.T) {
	parse := AnyJSON(Msgs{"type": "not JSON"})
	tree, err := Decode([]byte(nested(MaxDepth, "1")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(tree, parse); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	// Any depth decodes in linear time: what lies past the limit is checked, built empty.
	tree, err = Decode([]byte(nested(100000, "1")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(tree, parse)
	var v *ValidationError
	if !errors.As(err, &v) || len(v.Errors) != 1 {
		t.Fatalf("100000 levels: %v", err)
	}
	want := ErrorDetail{Path: strings.Repeat("/0", MaxDepth+1), Message: "nesting deeper than 128 levels is not accepted", Keyword: "depth"}
	if v.Errors[0] != want {
		t.Errorf("100000 levels: %+v", v.Errors[0])
	}
}

func TestTypedParsersStopAtMaxDepthToo(t *testing.T) {
	var list Parser[int]
	list = func(v any, c *Context) (int, bool) {
		items, ok := v.([]any)
		if !ok || len(items) == 0 {
			return 0, true
		}
		return Index(c, 0, items[0], list)
	}
	tree, _ := Decode([]byte(nested(MaxDepth+1, "")))
	if _, err := Build(tree, list); err != nil {
		t.Errorf("%d levels: %v", MaxDepth+1, err)
	}
	tree, _ = Decode([]byte(nested(MaxDepth+2, "")))
	_, err := Build(tree, list)
	if err == nil || err.Error() != "nesting deeper than 128 levels is not accepted" {
		t.Errorf("%d levels: %v", MaxDepth+2, err)
	}
}

func TestProblemsPastMaxErrorsAreCountedInOneLastEntry(t *testing.T) {
	tree, _ := Decode([]byte("[" + strings.Repeat(`"x", `, MaxErrors+49) + `"x"]`))
	_, err := Build(tree, List(Integer(NumberSpec{Msgs: Msgs{"type": "item {index} is not a number"}}), ListSpec{}))
	var v *ValidationError
	if !errors.As(err, &v) || len(v.Errors) != MaxErrors+1 {
		t.Fatalf("%v", err)
	}
	if v.Errors[MaxErrors-1].Message != "item 99 is not a number" {
		t.Errorf("last listed: %+v", v.Errors[MaxErrors-1])
	}
	if last := v.Errors[MaxErrors]; last != (ErrorDetail{Message: "... and 50 more problems", Keyword: "limit"}) {
		t.Errorf("the count: %+v", last)
	}
}

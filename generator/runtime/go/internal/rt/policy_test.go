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
	if got, want := inputProblem(t, text), "invalid JSON: Expecting value at line 1 column 4304"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// Text that is not JSON gets the Python runtime's message: its json module's words, the line
// and column counted in characters. (tests/json_syntax.py compares thousands of such texts
// across Python, Go and TypeScript.)
func TestDecodeRefusesWhatJSONRefusesWithPythonsMessage(t *testing.T) {
	for text, want := range map[string]string{
		"[1,]":                "Expecting value at line 1 column 4",
		`{"a" 1}`:             "Expecting ':' delimiter at line 1 column 6",
		`{"a":1,}`:            "Expecting property name enclosed in double quotes at line 1 column 8",
		"[01]":                "Expecting ',' delimiter at line 1 column 3",
		"[1.]":                "Expecting ',' delimiter at line 1 column 3",
		`"\x"`:                `Invalid \escape at line 1 column 2`,
		"[":                   "Expecting value at line 1 column 2",
		"]":                   "Expecting value at line 1 column 1",
		`{"a":1}}`:            "Extra data at line 1 column 8",
		"tru":                 "Expecting value at line 1 column 1",
		"[1 2]":               "Expecting ',' delimiter at line 1 column 4",
		"{,}":                 "Expecting property name enclosed in double quotes at line 1 column 2",
		"-":                   "Expecting value at line 1 column 1",
		"1e":                  "Extra data at line 1 column 2",
		"\"\t\"":              "Invalid control character at line 1 column 2",
		"":                    "Expecting value at line 1 column 1",
		"1 2":                 "Extra data at line 1 column 3",
		"NaN":                 "NaN is not valid JSON",
		"[Infinity]":          "Infinity is not valid JSON",
		"[-Infinity]":         "-Infinity is not valid JSON",
		`"\u12"`:              `Invalid \uXXXX escape at line 1 column 3`,
		`"é\x"`:               `Invalid \escape at line 1 column 3`,
		"{\n \"😀\": [1,\n ]}": "Expecting value at line 3 column 2",
	} {
		if got := inputProblem(t, text); got != "invalid JSON: "+want {
			t.Errorf("%q: %q, want %q", text, got, "invalid JSON: "+want)
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

// Problems past MaxErrors are counted and nothing else: recording one allocates nothing, so
// 10^6 problems cost what 100 do (the rest of the walk is the document's own size).
func TestProblemsPastMaxErrorsAreOnlyCounted(t *testing.T) {
	tree, _ := Decode([]byte(`{"tags": ["x"], "people": ["ann"]}`))
	item := Integer(NumberSpec{Msgs: Msgs{"type": "item {index} is not a number"}})
	c := NewContext(tree)
	for i := 0; i < MaxErrors; i++ {
		Index(c, i, "x", item)
	}
	count := c.count
	if allocs := testing.AllocsPerRun(1000, func() {
		Index(c, 7, "x", item)                                             // a problem at an item
		c.Error("missing required field '{field}'", "required", nil, "id") // and one below the value
	}); allocs != 0 {
		t.Errorf("a problem past MaxErrors allocates %v times", allocs)
	}
	if c.count != count+2*1001 || len(c.errors) != MaxErrors {
		t.Errorf("count %d (from %d), %d listed", c.count, count, len(c.errors))
	}
}

// member_of is skipped when its list holds a problem, past MaxErrors too: the lists of
// strings that hold one are what the Context keeps for it.
func TestMemberOfKnowsItsListFailedPastMaxErrors(t *testing.T) {
	tree, _ := Decode([]byte(`{"people": ["ann", ""], "user": "cy", "tags": []}`))
	nonEmpty := 1
	person := String(StringSpec{Msgs: Msgs{"minLength": "empty name"}, MinLength: &nonEmpty})
	for _, before := range []int{0, MaxErrors, 3 * MaxErrors} {
		c := NewContext(tree)
		for i := 0; i < before; i++ {
			c.Error("earlier", "type", nil)
		}
		Key(c, "people", tree.(*Object).vals[0], List(person, ListSpec{}))
		RuleMemberOf(c, "user", "cy", true, 0, []string{"people"}, "not a member")
		RuleMemberOf(c, "user", "cy", true, 0, []string{"tags"}, "not a tag")
		if c.count != before+2 {
			t.Errorf("%d earlier problems: %d in all, want the empty name and 'not a tag' only: %v", before, c.count, problems(c))
		}
	}
}

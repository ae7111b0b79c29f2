package rt

import (
	"testing"
	"time"
)

// The x-rules as the generated Validate calls them; tests/test_runtime_python.py
// pins the same cases on the Python rule functions.

func object(t *testing.T, text string) *Object {
	t.Helper()
	tree, err := Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return tree.(*Object)
}

func problems(c *Context) []string {
	out := []string{}
	for _, e := range c.Errors() {
		out = append(out, e.Path+" "+e.Keyword+": "+e.Message)
	}
	return out
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %q, want %q", what, got, want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: %q, want %q", what, got, want)
			return
		}
	}
}

type role string // as a format's enum type is

func TestMemberOfLooksTheValueUpInTheListAtTheRelativePointer(t *testing.T) {
	root := object(t, `{"people": ["ann", "bob"], "user": "cy"}`)
	for _, c := range []struct {
		value  any
		usable bool
		want   []string
	}{
		{"cy", true, []string{"/user member_of: user 'cy' is not one of the people"}},
		{"ann", true, nil},
		{func() *string { s := "cy"; return &s }(), true, []string{"/user member_of: user 'cy' is not one of the people"}},
		{func() *string { s := "bob"; return &s }(), true, nil},
		{(*string)(nil), true, nil},
		{"cy", false, nil},
		// An enum field's value: a named string type, or a pointer to one (optional).
		{role("cy"), true, []string{"/user member_of: user 'cy' is not one of the people"}},
		{role("ann"), true, nil},
		{func() *role { r := role("cy"); return &r }(), true, []string{"/user member_of: user 'cy' is not one of the people"}},
		{func() *role { r := role("bob"); return &r }(), true, nil},
		{(*role)(nil), true, nil},
		// No string at all (a rule lower never writes): nothing to look up.
		{7, true, nil},
		{[]string{"cy"}, true, nil},
	} {
		ctx := NewContext(root)
		RuleMemberOf(ctx, "user", c.value, c.usable, 0, []string{"people"}, "user '{value}' is not one of the people")
		same(t, "member_of", problems(ctx), c.want)
	}
	ctx := NewContext(object(t, `{"people": "nobody", "user": "cy"}`))
	RuleMemberOf(ctx, "user", "cy", true, 0, []string{"people"}, "not a member")
	same(t, "member_of, no list", problems(ctx), nil)
}

func TestRequiredWhenAppliesOnlyWhileTheConditionHolds(t *testing.T) {
	for text, want := range map[string][]string{
		`{"kind": "x"}`:               {"/data required_when: data is required for x"},
		`{"kind": "x", "data": null}`: {"/data required_when: data is required for x"},
		`{"kind": "x", "data": 1}`:    nil,
		`{"kind": "y"}`:               nil,
		`{}`:                          nil,
		`{"kind": 1}`:                 nil,
	} {
		ctx := NewContext(nil)
		RuleRequiredWhen(ctx, object(t, text), "data", "kind", nil, "x", "data is required for x", true)
		same(t, text, problems(ctx), want)
	}
	ctx := NewContext(nil)
	RuleRequiredWhen(ctx, object(t, `{"kind": "x"}`), "data", "kind", nil, "x", "m", false)
	same(t, "not usable", problems(ctx), nil)
}

func TestAtLeastOneOfWantsOneFieldPresentAndNotNull(t *testing.T) {
	for text, want := range map[string][]string{
		`{"a": null}`:       {" at_least_one_of: a or b"},
		`{}`:                {" at_least_one_of: a or b"},
		`{"b": 0}`:          nil,
		`{"a": "", "b": 1}`: nil,
	} {
		ctx := NewContext(nil)
		RuleAtLeastOneOf(ctx, object(t, text), []string{"a", "b"}, "a or b")
		same(t, text, problems(ctx), want)
	}
}

func TestAllowedWhenChecksEachItemWhileTheConditionHolds(t *testing.T) {
	for text, want := range map[string][]string{
		`{"kind": "x", "items": [{"t": "a"}, {"t": "z"}, {}, {"t": 1}]}`: {"/items/1/t allowed_when: z not allowed", "/items/3/t allowed_when: 1 not allowed"},
		`{"kind": "y", "items": [{"t": "z"}]}`:                           nil,
		`{"items": [{"t": "z"}]}`:                                        nil,
		`{"kind": "x", "items": {"t": "z"}}`:                             nil,
	} {
		ctx := NewContext(nil)
		RuleAllowedWhen(ctx, object(t, text), "items", []string{"t"}, "kind", nil, "x", []string{"a", "b"}, "{value} not allowed", true)
		same(t, text, problems(ctx), want)
	}
}

func TestContainsWantsOneItemWithTheValue(t *testing.T) {
	for text, want := range map[string][]string{
		`{"items": [{"t": "a"}, {"t": "b"}]}`: nil,
		`{"items": [{"t": "a"}, {}]}`:         {"/items contains: no b"},
		`{"items": []}`:                       {"/items contains: no b"},
		`{"items": "b"}`:                      nil,
		`{}`:                                  nil,
	} {
		ctx := NewContext(nil)
		RuleContains(ctx, object(t, text), "items", []string{"t"}, "b", "no b", true)
		same(t, text, problems(ctx), want)
	}
}

func TestCompareOrdersIntegersExactlyStringsByCodePointAndTimesByInstant(t *testing.T) {
	for _, c := range []struct {
		text, op    string
		left, right Operand
		want        []string
	}{
		{`{"a": 9007199254740993, "b": 9007199254740992.0}`, "<=", Operand{"a", "integer", ""}, Operand{"b", "number", ""}, []string{"/a compare: a is 9007199254740993"}},
		{`{"a": 9007199254740992.0, "b": 9007199254740993}`, "<", Operand{"a", "number", ""}, Operand{"b", "integer", ""}, nil},
		{`{"a": 1.0, "b": 1}`, "==", Operand{"a", "integer", ""}, Operand{"b", "integer", ""}, nil},
		{`{"a": "\ue000", "b": "\ud83d\ude00"}`, ">", Operand{"a", "string", ""}, Operand{"b", "string", ""}, []string{"/a compare: a is \ue000"}},
		{`{"a": "2024-01-15T11:30:00+01:00", "b": "2024-01-15t10:30:00.000z"}`, "!=", Operand{"a", "date-time", ""}, Operand{"b", "date-time", ""}, []string{"/a compare: a is 2024-01-15T11:30:00+01:00"}},
		{`{"a": "2024-01-15T10:30:00.00000000015Z", "b": "2024-01-15T10:30:00.0000000001Z"}`, "<=", Operand{"a", "date-time", ""}, Operand{"b", "date-time", ""}, []string{"/a compare: a is 2024-01-15T10:30:00.00000000015Z"}},
		{`{"a": 101}`, "<=", Operand{"a", "integer", ""}, Operand{"b", "integer", "100"}, []string{"/a compare: a is 101"}},
		{`{"a": 101, "b": null}`, "<=", Operand{"a", "integer", ""}, Operand{"b", "integer", "100"}, nil},
		{`{"a": 101}`, "<=", Operand{"a", "integer", ""}, Operand{"b", "integer", ""}, nil},
		{`{"b": 1}`, ">", Operand{"a", "number", "1.0"}, Operand{"b", "integer", ""}, []string{"/a compare: a is 1.0"}},
	} {
		ctx := NewContext(nil)
		RuleCompare(ctx, object(t, c.text), c.left, c.right, c.op, "a is {value}", true)
		same(t, c.text+" "+c.op, problems(ctx), c.want)
		ctx = NewContext(nil)
		RuleCompare(ctx, object(t, c.text), c.left, c.right, c.op, "m", false)
		same(t, "not usable", problems(ctx), nil)
	}
}

func TestOrderIntFloatIsExactPast2To53AndAtTheEndsOfInt64(t *testing.T) {
	for _, c := range []struct {
		i    int64
		f    float64
		want int
	}{
		{9007199254740993, 9007199254740992, 1}, {9007199254740993, 9007199254740994, -1}, {-9007199254740993, -9007199254740992, -1},
		{1, 1.5, -1}, {2, 1.5, 1}, {-1, -1.5, 1}, {0, -0.0, 0}, {9223372036854775807, 9223372036854775808, -1},
		{-9223372036854775808, -9223372036854775808, 0}, {-9223372036854775808, -1e300, 1}, {5, 5, 0},
	} {
		if got := OrderIntFloat(c.i, c.f); got != c.want {
			t.Errorf("OrderIntFloat(%d, %v) = %d, want %d", c.i, c.f, got, c.want)
		}
		if got := OrderFloatInt(c.f, c.i); got != -c.want {
			t.Errorf("OrderFloatInt(%v, %d) = %d, want %d", c.f, c.i, got, -c.want)
		}
	}
}

func TestOrderTimesReadsTheTextATimeKeepsPastNanoseconds(t *testing.T) {
	at := func(text string) time.Time {
		v, ok := ParseTime(text)
		if !ok {
			t.Fatal(text)
		}
		return v
	}
	a, b := at("2024-01-15T10:30:00.00000000015Z"), at("2024-01-15T10:30:00.0000000001Z")
	if !a.Equal(b) || OrderTimes(a, b) <= 0 || OrderTimes(b, a) >= 0 {
		t.Errorf("the tenth digit: %v", OrderTimes(a, b))
	}
	if OrderTimes(at("2024-01-15T11:30:00+01:00"), at("2024-01-15t10:30:00z")) != 0 {
		t.Error("one instant in two offsets")
	}
	// A time changed in code no longer denotes its text: it is ordered by what it holds.
	if OrderTimes(a.Add(time.Second), b) <= 0 || OrderTimes(time.Date(2024, 1, 15, 10, 30, 0, 1, time.UTC), b) <= 0 {
		t.Error("a changed time")
	}
}

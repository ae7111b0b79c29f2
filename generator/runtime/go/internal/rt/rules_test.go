package rt

import "testing"

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

package rt

import (
	"encoding/json"
	"math"
	"testing"
)

func TestPlaceholdersAreExpandedOnce(t *testing.T) {
	c := NewContext(nil)
	c.path = append(c.path, segment{key: "speaker", index: -1})
	c.Error("must be one of: {{value}, {{field}, a{{{b", "enum", "{index}")
	c.Error("got {value} in {field}", "x", "{field}", "f")
	if c.errors[0].Message != "must be one of: {value}, {field}, a{{b" || c.errors[1].Message != "got {field} in f" {
		t.Fatal(c.errors)
	}
}

func TestIndexIsTheNearestArrayIndexAndFieldTheNearestKey(t *testing.T) {
	c := NewContext(nil)
	c.path = append(c.path, segment{key: "conversation", index: -1}, segment{index: 3}, segment{key: "speaker", index: -1})
	c.Error("message {index}: {field} is {value}", "enum", "nobody")
	c.Error("message {index}: {field} is missing", "required", nil, "text")
	c.path = c.path[:1]
	c.Error("[{index}] {field}", "type", nil)
	want := []ErrorDetail{
		{Path: "/conversation/3/speaker", Message: "message 3: speaker is nobody", Keyword: "enum"},
		{Path: "/conversation/3/speaker/text", Message: "message 3: text is missing", Keyword: "required"},
		{Path: "/conversation", Message: "[] conversation", Keyword: "type"},
	}
	for i, w := range want {
		if c.errors[i] != w {
			t.Errorf("error %d = %+v, want %+v", i, c.errors[i], w)
		}
	}
}

func TestPointersEscapeTildeAndSlash(t *testing.T) {
	c := NewContext(nil)
	c.path = append(c.path, segment{key: "a/b", index: -1}, segment{index: 0})
	c.Error("x", "type", nil, "~c")
	if got := c.errors[0].Path; got != "/a~1b/0/~0c" {
		t.Errorf("pointer = %q", got)
	}
	if got := (ErrorDetail{Message: "m"}).String(); got != "/: m" {
		t.Errorf("a problem at the root reads %q", got)
	}
}

// {value} is written as the Python runtime writes it (json.dumps for numbers).
func TestValuesAreShownAsPythonShowsThem(t *testing.T) {
	cases := []struct {
		value any
		want  string
	}{
		{nil, "null"},
		{"text {field}", "text {field}"},
		{true, "true"},
		{false, "false"},
		{int64(-7), "-7"},
		{2.5, "2.5"},
		{math.NaN(), "NaN"},
		{math.Inf(-1), "-Infinity"},
		{[]any{1}, "array"},
		{NewObject(), "object"},
		{struct{}{}, "value"},
	}
	for _, c := range cases {
		if got := show(c.value); got != c.want {
			t.Errorf("show(%#v) = %q, want %q", c.value, got, c.want)
		}
	}
	// Numbers as decoded (json.Number): as Python shows the int or float json.loads makes.
	for text, want := range map[string]string{
		"12": "12", "-0": "0", "123456789012345678901234567890": "123456789012345678901234567890", "1.0": "1.0",
		"1e2": "100.0", "1E16": "1e+16", "123456789012345.6": "123456789012345.6", "0.0001": "0.0001",
		"0.00001": "1e-05", "-0.0": "-0.0", "1e400": "Infinity", "-1e400": "-Infinity",
	} {
		if got := show(json.Number(text)); got != want {
			t.Errorf("show(json.Number(%q)) = %q, want %q", text, got, want)
		}
	}
}

func TestTheErrorIsTheFirstMessageAndDetailListsEvery(t *testing.T) {
	err := &ValidationError{Errors: []ErrorDetail{{Path: "/a", Message: "first"}, {Message: "second"}}}
	if err.Error() != "first" || err.Detail() != "/a: first\n/: second" {
		t.Errorf("Error() = %q, Detail() = %q", err.Error(), err.Detail())
	}
}

package rt

import (
	"strings"
	"testing"
)

// KindOf chooses a union's variant by JSON kind in the json.Unmarshal path (UnmarshalJSON): an
// integer written with a fraction or an exponent is still an integer, as JSON Schema says.
func TestKindOfNamesEachJSONKind(t *testing.T) {
	for text, want := range map[string]string{
		`"s"`: "string", ` [1]`: "array", "\n{}": "object", "true": "boolean", "false": "boolean", "null": "null",
		"1": "integer", "-0": "integer", "1.0": "integer", "1e2": "integer", " 2E0 ": "integer", "1.5": "number",
		"1e-2": "number", "": "", " \t\r\n": "",
	} {
		if got := KindOf([]byte(text)); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestPeekTagReadsOnlyAStringTag(t *testing.T) {
	cases := []struct {
		text, tag string
		isString  bool
	}{
		{`{"kind": "a", "x": 1}`, "a", true},
		{`{"kind": ""}`, "", true},
		{`{"kind": null}`, "", false},
		{`{"kind": 1}`, "", false},
		{`{"other": "a"}`, "", false},
		{`["kind"]`, "", false},
		{`{"kind": "a"`, "", false},
	}
	for _, c := range cases {
		if got := PeekTag([]byte(c.text), "kind"); got != c.tag {
			t.Errorf("PeekTag(%s) = %q, want %q", c.text, got, c.tag)
		}
		if got := PeekTagIsString([]byte(c.text), "kind"); got != c.isString {
			t.Errorf("PeekTagIsString(%s) = %v, want %v", c.text, got, c.isString)
		}
	}
}

func TestUnmarshalUnknownKeepsNumbersAsWritten(t *testing.T) {
	var into map[string]any
	if err := UnmarshalUnknown([]byte(`{"n": 1.50, "big": 123456789012345678901234567890}`), &into); err != nil {
		t.Fatal(err)
	}
	if got, _ := Encode(AnyTree(into)); string(got) != `{"big":123456789012345678901234567890,"n":1.50}` {
		t.Errorf("written back as %s", got)
	}
	into = map[string]any{"kept": true}
	if err := UnmarshalUnknown([]byte(`[1]`), &into); err == nil || into["kept"] != true {
		t.Errorf("a list read as an unknown variant: %v, %v", err, into)
	}
}

func TestUnmarshalMismatchShowsAtMostFortyBytes(t *testing.T) {
	if got := UnmarshalMismatch("Part", []byte(" 12 ")).Error(); got != "json: cannot unmarshal 12 into Part" {
		t.Error(got)
	}
	long := `"` + strings.Repeat("a", 50) + `"`
	want := "json: cannot unmarshal " + long[:40] + "... into Part"
	if got := UnmarshalMismatch("Part", []byte(long)).Error(); got != want {
		t.Errorf("%s, want %s", got, want)
	}
	exact := strings.Repeat("b", 40)
	if got := UnmarshalMismatch("Part", []byte(exact)).Error(); got != "json: cannot unmarshal "+exact+" into Part" {
		t.Error(got)
	}
}

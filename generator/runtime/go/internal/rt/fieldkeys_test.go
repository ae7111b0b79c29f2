package rt

import (
	"encoding/json"
	"strings"
	"testing"
)

// Field finds a key where the text spells it as the name is, and otherwise by its value: every
// way of writing a key must name the field encoding/json reads it as, and a name a text cannot
// hold as it is (a quote, a backslash, a control byte in it) must never be matched by its bytes.
func TestFieldNamesTheFieldEncodingJSONReadsTheKeyAs(t *testing.T) {
	// Besides: names whose quoted form ends at and on either side of a word's end (8 and 16 bytes).
	names := []string{"role", "rolex", "r", "render_media", "a\"b", `back\slash`, "tab\there", "", "é", "e", "ro\"le",
		"content", "contents", "tool_use_active", "tool_use_actives", "completion_running"}
	fields := NewFields(names...)
	keys := []string{
		`"role"`, `"rolex"`, `"r"`, `"render_media"`, `"a\"b"`, `"back\\slash"`, `"tab\there"`, `""`, `"é"`, `"e"`,
		`"ro\"le"`, `"\u0072ole"`, `"rol\u0065"`, `"\u00e9"`, `"\/role"`, `"rolexx"`, `"ro"`, `"role "`, `"Role"`,
		`"a"`, `"a"b"`, `"a\"b\""`, `"back\slash"`, `"tab	here"`, `"\u0000"`, `"re"`, `"render_medi"`, `"x"`, `"\ud800"`,
		`"rol` + "\xff" + `"`, `"é` + "\xff" + `"`, `role`, `'role'`, `"role`, `"ro\"`, `"`, ``, `1`, `{`,
		`"content"`, `"contents"`, `"contentz"`, `"conten"`, `"tool_use_active"`, `"tool_use_actives"`, `"tool_use_activ"`,
		`"tool_use_activE"`, `"tool_use_activez"`, `"tool_use_activesz"`, `"completion_running"`, `"completion_runnin"`,
		`"completion_runninG"`, `"completion_runningx"`, `"completion_runn"`, `"Completion_running"`, `"completion\u005frunning"`,
	}
	for _, key := range keys {
		for _, after := range []string{`:1`, ` : 1`, "\n\t:1", ` 1`, ``, `,`, `"`} {
			text := " " + key + after
			want := -1
			var value string
			if json.Valid([]byte(key)) && json.Unmarshal([]byte(key), &value) == nil && strings.HasPrefix(strings.TrimLeft(after, " \n\t"), ":") {
				for i, name := range names {
					if name == value {
						want = i
					}
				}
			}
			s, _ := NewScanner([]byte(text))
			got := s.Field(fields)
			if got != want {
				t.Errorf("Field read %q as field %d, want %d", text, got, want)
			} else if got >= 0 && text[s.pos-1] != ':' {
				t.Errorf("Field read %q up to %d, not past the colon", text, s.pos)
			}
		}
	}
}

// Names that start alike are each found, in a model of many fields: the chains by first byte
// hold every name.
func TestFieldFindsEveryNameOfAModelOfManyFields(t *testing.T) {
	var names []string
	for i := 0; i < 64; i++ {
		names = append(names, strings.Repeat("k", 1+i%5)+string(rune('a'+i/5)))
	}
	fields := NewFields(names...)
	for i, name := range names {
		s, _ := NewScanner([]byte(`"` + name + `":0`))
		if got := s.Field(fields); got != i {
			t.Errorf("Field read %q as field %d, want %d", name, got, i)
		}
	}
}

package rt

import "testing"

// OnlyZeroTimes is the one excuse a fuzz target makes for a parsed document that fails
// Validate: every problem must sit on a date-time equal to Go's zero time (read as unset).
func TestOnlyZeroTimes(t *testing.T) {
	doc := []byte(`{"a": "0001-01-01T00:00:00Z", "b/c": ["0001-01-01T00:00:00Z"], "d": "2024-01-01T00:00:00Z", "e": 1}`)
	cases := []struct {
		paths []string
		want  bool
	}{
		{[]string{"/a"}, true},
		{[]string{"/a", "/b~1c/0"}, true},
		{[]string{"/a", "/d"}, false},
		{[]string{"/e"}, false},
		{[]string{"/missing"}, false},
		{[]string{"/b~1c/1"}, false},
		{[]string{"a"}, false},
		{nil, false},
	}
	for _, c := range cases {
		if got := OnlyZeroTimes(doc, c.paths); got != c.want {
			t.Errorf("OnlyZeroTimes(%q) = %v, want %v", c.paths, got, c.want)
		}
	}
}

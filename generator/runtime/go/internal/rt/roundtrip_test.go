package rt

import (
	"encoding/json"
	"testing"
	"time"
)

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

// TimeRefusesRFC3339 is the one excuse a fuzz target makes when encoding/json cannot read
// what a package wrote: time.Time refusing a date-time ParseTime accepts, and nothing else.
func TestTimeRefusesRFC3339(t *testing.T) {
	var plain struct{ T time.Time }
	for text, want := range map[string]bool{
		`{"T": "2024-03-15t10:30:05Z"}`: true, `{"T": "2024-03-15T10:30:05z"}`: true,
		`{"T": "2024-03-15 10:30:05Z"}`: false, `{"T": "2016-12-31T23:59:60Z"}`: false, `{"T": 1}`: false, `{"T": "x"}`: false,
	} {
		err := json.Unmarshal([]byte(text), &plain)
		if err == nil {
			t.Fatalf("%s: encoding/json read it", text)
		}
		if got := TimeRefusesRFC3339(err); got != want {
			t.Errorf("%s (%v): %v, want %v", text, err, got, want)
		}
	}
}

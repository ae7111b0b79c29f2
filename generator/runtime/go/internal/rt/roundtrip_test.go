package rt

import (
	"encoding/json"
	"reflect"
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

// SameValue is how a fuzz target compares a document with its round trip: every difference in an exported
// field must be found, and named where it is.
func TestSameValueFindsEachDifferenceAndWhereItIs(t *testing.T) {
	type inner struct {
		N  int
		At time.Time
	}
	type doc struct {
		Name   string
		hidden int
		Items  []inner
		Tags   map[string]string
		Ptr    *inner
		Any    any
		Opt    *string
		Stamps []time.Time
	}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	base := func() doc {
		s := "s"
		return doc{Name: "a", hidden: 1, Items: []inner{{1, at}, {2, at}}, Tags: map[string]string{"k": "v"},
			Ptr: &inner{3, at}, Any: map[string]any{"x": []any{1.0}}, Opt: &s, Stamps: []time.Time{at}}
	}
	compare := func(d doc) (string, bool) {
		return SameValue(reflect.ValueOf(base()), reflect.ValueOf(d), "doc")
	}
	if where, ok := compare(base()); !ok {
		t.Fatalf("a document differs from its copy at %s", where)
	}
	same := base()
	same.hidden = 2 // unexported: not a field of the document
	same.Stamps = []time.Time{at.In(time.FixedZone("", 0))}
	if where, ok := compare(same); !ok {
		t.Errorf("an unexported field, or the same instant at the same offset, differs at %s", where)
	}
	other := "t"
	cases := map[string]func(*doc){
		"doc.Name":        func(d *doc) { d.Name = "b" },
		"doc.Items":       func(d *doc) { d.Items = d.Items[:1] },
		"doc.Items[1].N":  func(d *doc) { d.Items[1].N = 9 },
		"doc.Items[0].At": func(d *doc) { d.Items[0].At = at.Add(time.Nanosecond) },
		"doc.Tags":        func(d *doc) { d.Tags = map[string]string{"k": "v", "l": "w"} },
		"doc.Tags[\"k\"]": func(d *doc) { d.Tags = map[string]string{"k": "w"} },
		"doc.Ptr":         func(d *doc) { d.Ptr = nil },
		"doc.Ptr.N":       func(d *doc) { d.Ptr.N = 4 },
		"doc.Any":         func(d *doc) { d.Any = map[string]any{"x": []any{2.0}} },
		"doc.Opt":         func(d *doc) { d.Opt = &other },
		"doc.Stamps[0]":   func(d *doc) { d.Stamps = []time.Time{at.In(time.FixedZone("", 3600))} },
	}
	for want, change := range cases {
		d := base()
		change(&d)
		if where, ok := compare(d); ok || where != want {
			t.Errorf("changing %s: SameValue = (%q, %v)", want, where, ok)
		}
	}
	// A key on one side only, both maps of one length.
	d := base()
	d.Tags = map[string]string{"j": "v"}
	if where, ok := compare(d); ok || where != "doc.Tags" {
		t.Errorf("a key on one side only: (%q, %v)", where, ok)
	}
	// A JSON null (a nil interface) against a value, and against null.
	if _, ok := SameValue(reflect.ValueOf(nil), reflect.ValueOf(1), "v"); ok {
		t.Error("null is the same as 1")
	}
	if _, ok := SameValue(reflect.ValueOf(nil), reflect.ValueOf(nil), "v"); !ok {
		t.Error("null differs from null")
	}
}

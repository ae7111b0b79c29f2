package rt

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// numberTexts are JSON number literals starting with every digit and with a minus, as
// integers (up to Int's 18 characters) and as fractions and exponents.
func numberTexts() []string {
	var texts []string
	for d := '0'; d <= '9'; d++ {
		for _, sign := range []string{"", "-"} {
			texts = append(texts, sign+string(d), sign+string(d)+".5", sign+string(d)+"e2", sign+string(d)+"E-1")
			if d != '0' {
				texts = append(texts, sign+string(d)+"0", sign+string(d)+"9", sign+strings.Repeat(string(d), 18-len(sign)))
			}
		}
	}
	return texts
}

// The direct reader is Parse<Format>FromJSON's fast first attempt: a number it declines goes
// to the exact walk with the same verdict, only slower, so no verdict test sees one declined
// that it should read. This one does, with encoding/json's reading as the oracle.
func TestTheScannerReadsEveryNumberLiteralAsEncodingJSONDoes(t *testing.T) {
	for _, text := range numberTexts() {
		if !json.Valid([]byte(text)) {
			t.Fatalf("%q is no JSON number: the test is wrong", text)
		}
		want, err := strconv.ParseFloat(text, 64)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := NewScanner([]byte(" " + text + " "))
		if got, ok := s.Float(); !ok || got != want {
			t.Errorf("Float read %q as %v, %v; want %v", text, got, ok, want)
		}
		s, _ = NewScanner([]byte(text))
		integer := !strings.ContainsAny(text, ".eE")
		if kind := s.Kind(); kind != map[bool]string{true: "integer", false: "number"}[integer] {
			t.Errorf("Kind of %q is %q", text, kind)
		}
		got, ok := s.Int()
		if ok != integer {
			t.Errorf("Int read %q: ok %v, want %v (it leaves only 1.0 and 1e2 to the exact walk)", text, ok, integer)
		} else if want, _ := strconv.ParseInt(text, 10, 64); ok && got != want {
			t.Errorf("Int read %q as %d, want %d", text, got, want)
		}
	}
}

func TestTheScannerDeclinesWhatIsNoNumberAndReadsLiteralsAtTheTextsEnd(t *testing.T) {
	for _, text := range []string{"", " ", "-", "+1", "1.", ".5", "1e", "--1", "x", `"1"`} {
		s, _ := NewScanner([]byte(text))
		if _, ok := s.Int(); ok {
			t.Errorf("Int read %q", text)
		}
		s, _ = NewScanner([]byte(text))
		if _, ok := s.Float(); ok {
			t.Errorf("Float read %q", text)
		}
	}
	for text, want := range map[string]bool{"true": true, " false": false} {
		s, _ := NewScanner([]byte(text))
		if got, ok := s.Bool(); !ok || got != want || !s.Done() {
			t.Errorf("Bool read %q as %v, %v", text, got, ok)
		}
	}
	for _, text := range []string{"", " ", "tru", "fals", "nul", "1"} {
		s, _ := NewScanner([]byte(text))
		if _, ok := s.Bool(); ok {
			t.Errorf("Bool read %q", text)
		}
	}
}

// The scanner reads the caller's bytes where they lie; what it hands over must be its own
// copy, so that the caller may reuse its buffer once the parse returns. Every kind of value
// the structs keep is read, then the buffer is overwritten: a kept value that is a slice of
// it would change. An escaped key (a copy already, and shorter than its text) must come out
// whole, a date-time that keeps its text (as its zone's name) must keep a copy of it.
func TestWhatTheScannerKeepsOutlivesTheCallersBuffer(t *testing.T) {
	data := []byte(`{"a": "b", "k\u0041y": "x\ty", "a key longer than sixteen": "a string longer than sixteen bytes",` +
		` "t": "2024-03-15T10:32:00.250+01:00", "any": {"k": ["v", 1.50, "free-form strings and numbers"]}}`)
	s, _ := NewScanner(data)
	if !s.Open('{') {
		t.Fatal("no object")
	}
	var kept []string
	for first := true; s.More('}', first); first = false {
		key, ok := s.MapKey()
		if !ok {
			t.Fatalf("MapKey declined after %q", kept)
		}
		var value string
		switch key {
		case "t":
			v, ok2 := s.Time()
			value, ok = FormatTime(v), ok2
		case "any":
			v, ok2 := s.Any(1)
			value, ok = fmt.Sprint(v), ok2
		default:
			value, ok = s.String()
		}
		if !ok {
			t.Fatalf("the value of %q was declined", key)
		}
		kept = append(kept, key, value)
	}
	if !s.Closed() || !s.Done() {
		t.Fatal("the object was not read to its end")
	}
	want := []string{"a", "b", "kAy", "x\ty", "a key longer than sixteen", "a string longer than sixteen bytes",
		"t", "2024-03-15T10:32:00.250+01:00", "any", "map[k:[v 1.50 free-form strings and numbers]]"}
	if fmt.Sprint(kept) != fmt.Sprint(want) {
		t.Fatalf("read %q, want %q", kept, want)
	}
	times, _ := NewScanner([]byte(`"2024-03-15T10:32:00.250+01:00"`))
	at, _ := times.Time()
	for i := range data {
		data[i] = '#'
	}
	if fmt.Sprint(kept) != fmt.Sprint(want) {
		t.Fatalf("what was read changed with the caller's buffer: %q", kept)
	}
	if got := FormatTime(at); got != want[7] {
		t.Fatalf("a date-time read on its own writes %q", got)
	}
}

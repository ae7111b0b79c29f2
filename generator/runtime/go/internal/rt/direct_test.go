package rt

import (
	"encoding/json"
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

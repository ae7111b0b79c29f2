package builtincode

// Values built in code, not parsed: through the constructors (New<Model>) or as struct literals that leave
// every slice, map and []byte nil, then changed at random at every depth (set, emptied, nil). Each must
// marshal to a message the package's own parser accepts, Validate must agree, and the message read back
// must marshal to the same bytes. tests/test_built_in_code.py copies this file into the package of the
// golden case built_in_code and runs it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"testing"
	"time"
)

type zzGen struct{ r *rand.Rand }

func (g zzGen) coin() bool { return g.r.Intn(2) == 0 }

var zzStrings = []string{"", "a", "é", "\u2028", "<&>", "\U0001F600", "\x00", "two\nlines", "\"q\""}

func (g zzGen) str() string { return zzStrings[g.r.Intn(len(zzStrings))] }

// strs is nil, empty or a few strings: a nil slice is what Go code leaves most often.
func (g zzGen) strs() []string {
	switch g.r.Intn(3) {
	case 0:
		return nil
	case 1:
		return []string{}
	}
	out := make([]string, 1+g.r.Intn(3))
	for i := range out {
		out[i] = g.str()
	}
	return out
}

func (g zzGen) strMap() map[string]string {
	switch g.r.Intn(3) {
	case 0:
		return nil
	case 1:
		return map[string]string{}
	}
	return map[string]string{g.str(): g.str(), "k": g.str()}
}

func (g zzGen) bytes() []byte {
	switch g.r.Intn(3) {
	case 0:
		return nil
	case 1:
		return []byte{}
	}
	out := make([]byte, g.r.Intn(5))
	g.r.Read(out)
	return out
}

func (g zzGen) free() any {
	values := []any{nil, "s", 1.5, true, []any{}, []any(nil), map[string]any{}, map[string]any(nil), []any{nil, "x"}}
	return values[g.r.Intn(len(values))]
}

func (g zzGen) freeMap() map[string]any {
	switch g.r.Intn(3) {
	case 0:
		return nil
	case 1:
		return map[string]any{}
	}
	return map[string]any{"a": g.free(), g.str(): g.free()}
}

func (g zzGen) time() time.Time {
	zone := time.FixedZone("", 60*(g.r.Intn(1681)-840))
	return time.Date(1+g.r.Intn(9998), time.Month(1+g.r.Intn(12)), 1+g.r.Intn(28), g.r.Intn(24), g.r.Intn(60), g.r.Intn(60), g.r.Intn(1000000000), zone)
}

func (g zzGen) content() Content {
	if g.coin() {
		s := g.str()
		return Content{String: &s}
	}
	parts := make([]Part, g.r.Intn(3)) // not nil: a nil Array is no variant at all
	for i := range parts {
		parts[i] = g.part()
	}
	return Content{Array: parts}
}

func (g zzGen) part() Part {
	p := Part{Type: "text", Text: g.str()}
	if g.coin() {
		p = NewPart(g.str())
	}
	if g.coin() {
		p.Spans = []int64{0, int64(g.r.Intn(100)), -1 << 63, 1<<63 - 1}[:g.r.Intn(5)]
	}
	if g.coin() {
		p.Spans = nil
	}
	return p
}

func (g zzGen) toolCall() ToolCall {
	c := ToolCall{ID: g.str(), Type: "function"}
	if g.coin() {
		c = NewToolCall(g.str(), g.strs())
	}
	if g.coin() {
		c.Arguments = g.freeMap()
	}
	if g.coin() {
		c.Outputs = g.strs()
	}
	return c
}

func (g zzGen) citation() Citation {
	c := Citation{URL: g.str()}
	if g.coin() {
		c = NewCitation(g.str())
	}
	if g.coin() {
		c.StartIndex = int64(g.r.Intn(10))
	}
	switch g.r.Intn(4) {
	case 0:
		c.Quotes = nil
	case 1:
		c.Quotes = map[string][]string{}
	case 2:
		c.Quotes = map[string][]string{"q": nil, g.str(): g.strs()}
	}
	return c
}

// settings is NewSettings() with some of its fields nil: the defaults of a union, a tuple and a model are
// structs no Go constant is a value of, so the constructor builds them from their JSON.
func (g zzGen) settings() Settings {
	s := NewSettings()
	if g.coin() {
		s.Names = nil // an alias of a list: written as its default, ["z"]
	}
	if g.coin() {
		s.Level = nil // a nullable enum: null
	}
	if g.coin() {
		s.Options = nil // free-form: null
	}
	return s
}

// turn is a random AssistantTurn built in code.
func (g zzGen) turn() AssistantTurn {
	var t AssistantTurn
	if g.coin() {
		t = NewAssistantTurn(g.time(), g.content(), g.strs(), g.strMap(), g.bytes(), g.strs())
	} else {
		// A struct literal: the scalars whose zero value the spec refuses are set; every slice, map and
		// []byte is left nil.
		t = AssistantTurn{Role: "assistant", ID: "0f8fad5b-d9cb-469f-a165-70867728950e", CreatedAt: g.time(), Content: g.content(), Detail: DetailAuto}
	}
	if g.coin() {
		t.ToolCalls = make([]ToolCall, g.r.Intn(3))
		for i := range t.ToolCalls {
			t.ToolCalls[i] = g.toolCall()
		}
	}
	if g.coin() {
		t.Citations = make([]Citation, g.r.Intn(3))
		for i := range t.Citations {
			t.Citations[i] = g.citation()
		}
	}
	for _, set := range []func(){
		func() { t.History = g.strs() },
		func() { t.Labels = g.strMap() },
		func() { t.Payload = g.bytes() },
		func() { t.ReplyTo = g.strs() },
		func() { t.Metadata = g.strMap() },
		func() { t.Tags = g.strs() },
		func() { t.Notes = g.strs() },
		func() { t.Extra = g.freeMap() },
		func() { t.Weights = map[string]int64{g.str(): int64(g.r.Intn(9))} },
		func() { t.Weights = nil },
		func() { t.ToolCalls = nil },
		func() { t.Citations = nil },
		func() { t.Attachments = [][]byte{g.bytes(), nil} },
		func() { t.Attachments = [][]byte{} },
		func() { n := g.str(); t.Name = &n },
		func() { t.Detail = []Detail{DetailAuto, DetailLow, DetailHigh}[g.r.Intn(3)] },
		func() { t.Temperature = []float64{0, -1.5, 1e300, 0.1}[g.r.Intn(4)] },
		func() { t.MaxTokens = nil },
		func() { t.Stream = g.coin() },
		func() { s := g.settings(); t.Settings = &s },
	} {
		if g.r.Intn(3) == 0 {
			set()
		}
	}
	return t
}

func TestZZValuesBuiltInCodeMarshalToMessagesTheParserAccepts(t *testing.T) {
	g := zzGen{rand.New(rand.NewSource(20261126))}
	nils := 0
	for i := 0; i < 3000; i++ {
		v := g.turn()
		if v.History == nil || v.Labels == nil || v.Tags == nil || v.Metadata == nil {
			nils++
		}
		text, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("value %d: %v\n%#v", i, err, v)
		}
		back, err := ParseBuiltInCodeFromJSON(text)
		if err != nil {
			t.Fatalf("value %d: the package refuses what MarshalJSON wrote: %v\n%s\n%#v", i, err, text, v)
		}
		if err := v.Validate(); err != nil {
			t.Fatalf("value %d: Validate refuses what the parser accepts: %v\n%s", i, err, text)
		}
		again, err := json.Marshal(back)
		if err != nil || !bytes.Equal(again, text) {
			t.Fatalf("value %d: read back, it marshals otherwise (%v):\n%s\n%s", i, err, text, again)
		}
	}
	fmt.Printf("ZZ values=3000 with_nil=%d\n", nils)
}

// A nil slice or map is written as the field's default where it has one that is not empty, as the
// empty value where empty is what it may hold, and as null only where null is a value of the field.
func TestZZNilIsWrittenAsTheDefaultTheEmptyValueOrNull(t *testing.T) {
	v := AssistantTurn{Role: "assistant", ID: "i", CreatedAt: time.Unix(0, 0).UTC(), Content: Content{String: new(string)}, Detail: DetailAuto}
	text, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"assistant","id":"i","created_at":"1970-01-01T00:00:00Z","content":"","history":[],"labels":{},"payload":"",` +
		`"reply_to":null,"tool_calls":[],"metadata":{},"citations":[],"tags":["chat","v1"],"weights":{"a":1},"notes":null,` +
		`"detail":"auto","temperature":0,"max_tokens":null,"stream":false}`
	if string(text) != want {
		t.Fatalf("got  %s\nwant %s", text, want)
	}
}

// NewSettings gives each default as the parser gives it for a key left out.
func TestZZNewSettingsGivesTheParsersDefaults(t *testing.T) {
	parsed, err := ParseBuiltInCodeFromJSON([]byte(`{"role": "assistant", "created_at": "2024-01-15T10:30:00Z", "content": "hi", "history": [], "labels": {}, "payload": "", "reply_to": null, "settings": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	a, b := zzMust(json.Marshal(NewSettings())), zzMust(json.Marshal(parsed.Settings))
	want := `{"greeting":"hi","parts":[{"type":"text","text":"p","spans":[]}],"pair":["a",1],"limits":{"n":2},"box":{"size":3},"names":["z"],"level":"low","options":{"x":[1]},"big":9007199254740993,"odd":"` + "\u202e" + `\"\\"}` // U+202E written as it is
	if !bytes.Equal(a, b) || string(a) != want {
		t.Fatalf("NewSettings %s\nparser      %s\nwant        %s", a, b, want)
	}
}

// The constructor fills every default: what it returns marshals as the smallest message parses.
func TestZZTheConstructorGivesTheDefaultsTheParserGives(t *testing.T) {
	at := time.Date(2024, 1, 15, 10, 30, 0, 0, time.UTC)
	s := "hi"
	built := NewAssistantTurn(at, Content{String: &s}, []string{}, map[string]string{}, []byte{}, nil)
	parsed, err := ParseBuiltInCodeFromJSON([]byte(`{"role": "assistant", "created_at": "2024-01-15T10:30:00Z", "content": "hi", "history": [], "labels": {}, "payload": "", "reply_to": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(built.ID) != 36 || built.ID == NewAssistantTurn(at, built.Content, nil, nil, nil, nil).ID {
		t.Fatalf("the constructor's id is no fresh UUID4: %q", built.ID)
	}
	built.ID = parsed.ID
	a, _ := json.Marshal(built)
	b, _ := json.Marshal(parsed)
	if !bytes.Equal(a, b) {
		t.Fatalf("constructor %s\nparser      %s", a, b)
	}
}

// What a struct literal leaves at a zero value the spec refuses is Validate's to report, at the field.
func TestZZZeroValuesTheSpecRefusesAreReportedAtTheirField(t *testing.T) {
	s := "hi"
	ok := AssistantTurn{Role: "assistant", CreatedAt: time.Unix(0, 0), Content: Content{String: &s}, Detail: DetailLow}
	if err := ok.Validate(); err != nil {
		t.Fatalf("the literal with its zero values set is valid, but: %v", err)
	}
	for _, c := range []struct {
		change func(*AssistantTurn)
		path   string
	}{
		{func(v *AssistantTurn) { v.Detail = "" }, "/detail"},
		{func(v *AssistantTurn) { v.Role = "" }, "/role"},
		{func(v *AssistantTurn) { v.CreatedAt = time.Time{} }, "/created_at"},
		{func(v *AssistantTurn) { v.Content = Content{} }, "/content"},
	} {
		v := ok
		c.change(&v)
		err := v.Validate()
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Errors) != 1 || ve.Errors[0].Path != c.path {
			t.Fatalf("want one error at %s, got %v", c.path, err)
		}
		if _, perr := ParseBuiltInCodeFromJSON(zzMust(json.Marshal(v))); perr == nil || perr.Error() != "validation failed: "+ve.Error() {
			t.Fatalf("%s: the parser's verdict on what MarshalJSON wrote is %v, Validate's %v", c.path, perr, err)
		}
	}
}

func zzMust(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

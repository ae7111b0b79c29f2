package rt

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// A free-form value built in code is written out as encoding/json writes it, at any depth; a map or
// slice that holds itself is an error (as encoding/json's), not a hang or a stack overflow.
func TestAnyTreeWritesWhatEncodingJSONWrites(t *testing.T) {
	type point struct {
		X int `json:"x"`
	}
	var nilMap map[string]any
	var nilList []any
	value := map[string]any{
		"b": []any{true, nil, "s", json.Number("1.50"), nilMap, nilList},
		"a": point{X: 3},
		"c": map[string]any{"z": 1, "y": 2.5},
	}
	got, err := Encode(AnyTree(value))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(value)
	if string(got) != `{"a":{"x":3},"b":[true,null,"s",1.50,null,null],"c":{"y":2.5,"z":1}}` || string(want) != string(got) {
		t.Errorf("AnyTree wrote %s; encoding/json writes %s", got, want)
	}
}

func TestAnyTreeOfAValueDeeperThanTheCycleSearchIsWrittenWhole(t *testing.T) {
	// Past cycleDepth every container is put on the path and taken off it again: siblings that are the same
	// slice (not a cycle) are both written.
	shared := []any{"x"}
	var deep any = []any{shared, shared}
	for i := 0; i < cycleDepth+5; i++ {
		deep = map[string]any{"k": deep}
	}
	got, err := Encode(AnyTree(deep))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(got), `[["x"],["x"]]`+strings.Repeat("}", cycleDepth+5)) {
		t.Errorf("the end of the deep value: %s", got[len(got)-40:])
	}
}

func TestAnyTreeOfAValueThatHoldsItselfIsAnError(t *testing.T) {
	loop := map[string]any{}
	loop["self"] = loop
	list := make([]any, 1)
	list[0] = list
	for name, value := range map[string]any{"map": loop, "slice": list} {
		_, err := Encode(AnyTree(value))
		if err == nil || !strings.Contains(err.Error(), "encountered a cycle") {
			t.Errorf("%s: %v", name, err)
		}
		if _, want := json.Marshal(value); want == nil {
			t.Errorf("%s: encoding/json writes it", name)
		}
	}
}

func TestValuesWithNoJSONFormAreErrors(t *testing.T) {
	for name, value := range map[string]any{"channel": make(chan int), "NaN": math.NaN(), "+Inf": math.Inf(1), "-Inf": math.Inf(-1)} {
		if _, err := Encode(AnyTree(map[string]any{"v": value})); err == nil {
			t.Errorf("%s was written", name)
		}
		if _, err := Encode([]any{value}); err == nil {
			t.Errorf("%s as a tree value was written", name)
		}
	}
	if got, err := Encode([]any{int64(-7), 2.5, json.Number("1e400")}); err != nil || string(got) != `[-7,2.5,1e400]` {
		t.Errorf("numbers: %s, %v", got, err)
	}
}

// plain is what a tree reads as through encoding/json with UseNumber.
func TestPlainNumbersAreJSONNumbers(t *testing.T) {
	obj := NewObject()
	obj.Set("i", int64(-9223372036854775808))
	obj.Set("f", 0.1)
	obj.Set("n", json.Number("1.0"))
	got := plain([]any{obj, "s"}).([]any)
	m := got[0].(map[string]any)
	if m["i"] != json.Number("-9223372036854775808") || m["f"] != json.Number("0.1") || m["n"] != json.Number("1.0") || got[1] != "s" {
		t.Errorf("plain: %#v", got)
	}
}

func TestNullListsAndMapsAreNullOnlyWhereNullIsAValue(t *testing.T) {
	same := func(x int) any { return int64(x) }
	var nilMap map[string]int
	var nilList []int
	if TreeNullMap(nilMap, same) != nil || TreeNullList(nilList, same) != nil {
		t.Error("a nil map or list where null is a value is not null")
	}
	if got, _ := Encode(TreeMap(nilMap, same)); string(got) != "{}" {
		t.Errorf("TreeMap(nil) = %s", got)
	}
	if got, _ := Encode(TreeList(nilList, same)); string(got) != "[]" {
		t.Errorf("TreeList(nil) = %s", got)
	}
	if got, _ := Encode(TreeNullMap(map[string]int{"b": 2, "a": 1}, same)); string(got) != `{"a":1,"b":2}` {
		t.Errorf("TreeNullMap = %s", got)
	}
	if got, _ := Encode(TreeNullList([]int{3}, same)); string(got) != `[3]` {
		t.Errorf("TreeNullList = %s", got)
	}
}

package rt

import (
	"strings"
	"testing"
)

// selfChecks is what generator/checks.py writes for
// {"$defs": {"Self": {"type": "array", "items": {"anyOf": [{"allOf": [{"$ref": "#/$defs/Self"}, {"minItems": 5}]}, {"$ref": "#/$defs/Self"}]}}}}:
// each level of an array tries both branches on its item, each applying Self to it whole, so a walk
// without remembered verdicts takes 2^depth steps.
const selfChecks = `{"root":{"$ref":"/$defs/Self","messages":{}},"refs":{"/$defs/Self":{"type":["array"],
"items":{"anyOf":[{"allOf":[{"$ref":"/$defs/Self","messages":{}},{"minItems":5,"messages":{"minItems":"must have at least 5 item(s)"}}],"messages":{}},
{"$ref":"/$defs/Self","messages":{}}],"messages":{"anyOf":"must match at least one schema of anyOf"}},"messages":{"type":"must be an array"}}}}`

// recursiveChecks is what generator/checks.py writes for {"$defs": {"R": {"type": "array", "items": {"$ref": "#/$defs/R"}}}}.
const recursiveChecks = `{"root":{"$ref":"/$defs/R","messages":{}},"refs":{"/$defs/R":{"type":["array"],
"items":{"$ref":"/$defs/R","messages":{}},"messages":{"type":"must be an array"}}}}`

// arraysAround is inner inside levels arrays, one in another.
func arraysAround(levels int, inner string) string {
	return strings.Repeat("[", levels) + inner + strings.Repeat("]", levels)
}

// checked runs the checks' Parser over JSON text; it also asks Valid, which must agree.
func checked(t *testing.T, checks *Checks, text string) (bool, []ErrorDetail) {
	t.Helper()
	tree, err := Decode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	c := NewContext(tree)
	_, ok := checks.Parser(Msgs{"type": "must be a JSON value"})(tree, c)
	if len(c.Errors()) == 0 || c.Errors()[0].Keyword != "depth" { // Valid is for values AnyJSON accepts
		if valid := checks.Valid(tree); valid != ok {
			t.Errorf("Valid = %v, Parser ok = %v", valid, ok)
		}
	}
	return ok, c.Errors()
}

func TestOverlappingBranchesAreCheckedInLinearTime(t *testing.T) {
	checks := NewChecks(selfChecks)
	for _, tc := range []struct {
		inner string
		ok    bool
	}{{"", true}, {"1", false}} {
		text := arraysAround(100, tc.inner)
		ok, errs := checked(t, checks, text)
		if ok != tc.ok {
			t.Fatalf("%s: ok = %v", tc.inner, ok)
		}
		// A problem is reported where the walk first finds it: the anyOf of the outer array's item.
		if !tc.ok && (len(errs) != 1 || errs[0] != ErrorDetail{"/0", "must match at least one schema of anyOf", "anyOf"}) {
			t.Errorf("errors = %v", errs)
		}
		// Each (node, value) verdict is computed once: a few per level, not 2^100.
		tree, _ := Decode([]byte(text))
		run := checks.run()
		run.valid(checks.root, tree)
		if len(run.verdicts) > 10*100 {
			t.Errorf("%d verdicts for 100 levels", len(run.verdicts))
		}
	}
}

func TestArraysNestedToMaxDepthAreCheckedByARecursiveSchema(t *testing.T) {
	checks := NewChecks(recursiveChecks)
	if ok, errs := checked(t, checks, arraysAround(MaxDepth+1, "")); !ok {
		t.Fatalf("128 levels below the root: %v", errs)
	}
	ok, errs := checked(t, checks, arraysAround(MaxDepth, `"x"`))
	want := ErrorDetail{strings.Repeat("/0", MaxDepth), "must be an array", "type"}
	if ok || len(errs) != 1 || errs[0] != want {
		t.Fatalf("a string 128 levels down: ok = %v, errors = %v", ok, errs)
	}
	if ok, errs := checked(t, checks, arraysAround(MaxDepth+1, "1")); ok || len(errs) != 1 || errs[0].Keyword != "depth" {
		t.Fatalf("129 levels down: ok = %v, errors = %v", ok, errs)
	}
}

func TestNumbersCompareExactlyAndMultipleOfIsDecimal(t *testing.T) {
	checks := NewChecks(`{"root":{"minimum":9007199254740993,"multipleOf":0.0001,"messages":{"minimum":"min","multipleOf":"mult"}},"refs":{}}`)
	for text, want := range map[string]bool{
		"9007199254740992.0": false, "9007199254740993": true, "9007199254740994.0": true,
		"1e20": true, "100000000000000000000000000000000000001": true, "9007199254740993.00001": true,
	} {
		if ok, errs := checked(t, checks, text); ok != want {
			t.Errorf("%s: ok = %v (%v)", text, ok, errs)
		}
	}
	if !checks.Valid(int64(9007199254740993)) || checks.Valid(float64(9007199254740992)) {
		t.Error("values built in code compare as their JSON would")
	}
}

package rt

import (
	"cmp"
	"encoding/json"
	"math"
	"math/big"
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

// TestCompareNumbersOrdersEveryPairOfKindsByExactValue: every pair of int64, big integer, float and
// infinity (a float built in code) against the order of their exact values as rationals, where every
// finite number lies between the two infinities.
func TestCompareNumbersOrdersEveryPairOfKindsByExactValue(t *testing.T) {
	huge, _ := new(big.Int).SetString("1000000000000000000000000000000", 10)
	numbers := []schemaNumber{
		{isInt: true, small: -3}, {isInt: true, small: 0}, {isInt: true, small: 5},
		{isInt: true, small: math.MaxInt64}, {isInt: true, small: math.MinInt64},
		{isInt: true, big: new(big.Int).Lsh(big.NewInt(1), 63)}, {isInt: true, big: new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 63))},
		{isInt: true, big: huge}, {isInt: true, big: new(big.Int).Neg(huge)},
		{f: -1e300}, {f: -1.5}, {f: math.Copysign(0, -1)}, {f: 0.5}, {f: 5}, {f: 9.3e18}, {f: -9.3e18}, {f: 1e30}, {f: 1e300},
		{f: math.Inf(1)}, {f: math.Inf(-1)},
	}
	rank := func(n schemaNumber) (int, *big.Rat) { // (-1, nil) -inf, (1, nil) +inf, else (0, exact value)
		if !n.isInt && math.IsInf(n.f, 0) {
			return int(math.Copysign(1, n.f)), nil
		}
		return 0, n.exact()
	}
	for _, a := range numbers {
		for _, b := range numbers {
			ia, ra := rank(a)
			ib, rb := rank(b)
			want := cmp.Compare(ia, ib)
			if ia == 0 && ib == 0 {
				want = ra.Cmp(rb)
			}
			if got := compareNumbers(a, b); got != want {
				t.Errorf("compareNumbers(%+v, %+v) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestEdgesOfInt64AndOfItemsPastPrefixItems: an int64 node (a $ref into a typed integer) takes -2^63 to
// 2^63-1 and nothing past them; "items": false after prefixItems takes as many items as prefixItems
// names and not one more. (Typed definitions check these edges in their own parsers; a schema applied
// as written meets them here.)
func TestEdgesOfInt64AndOfItemsPastPrefixItems(t *testing.T) {
	int64Checks := NewChecks(`{"root":{"int64":true,"messages":{"int64":"i64"}},"refs":{}}`)
	tuple := NewChecks(`{"root":{"prefixItems":[{"messages":{}},{"messages":{}}],"items":false,"messages":{"items":"past"}},"refs":{}}`)
	for _, c := range []struct {
		checks *Checks
		text   string
		want   bool
	}{
		{int64Checks, "-9223372036854775808", true}, {int64Checks, "9223372036854775807", true}, {int64Checks, "0", true},
		{int64Checks, "-9223372036854775809", false}, {int64Checks, "9223372036854775808", false},
		{int64Checks, "9223372036854775808.0", false}, {int64Checks, "-9.3e18", false},
		{tuple, "[]", true}, {tuple, "[1]", true}, {tuple, "[1, 2]", true}, {tuple, "[1, 2, 3]", false},
	} {
		if ok, errs := checked(t, c.checks, c.text); ok != c.want {
			t.Errorf("%s: ok = %v, want %v (%v)", c.text, ok, c.want, errs)
		}
	}
}

// TestTypeNamesTakeEachKindOfValueAsJSONSchemaDoes: "type" of a schema applied as written, for every kind
// of value a decoded tree or a value built in code holds (a float with no fraction is an integer, as in
// Python's _SCHEMA_TYPES; a bool is no number).
func TestTypeNamesTakeEachKindOfValueAsJSONSchemaDoes(t *testing.T) {
	values := []struct {
		name  string
		value any
		kind  string // the one type name it has beside "number" for integers
	}{
		{"null", nil, "null"},
		{"true", true, "boolean"},
		{"string", "1", "string"},
		{"array", []any{}, "array"},
		{"object", NewObject(), "object"},
		{"int64", int64(3), "integer"},
		{"integer literal", json.Number("12345678901234567890123"), "integer"},
		{"integral exponent", json.Number("1e2"), "integer"},
		{"integral fraction", json.Number("2.0"), "integer"},
		{"fraction", json.Number("2.5"), "number"},
		{"huge exponent", json.Number("1e400"), "number"},
		{"integral float", float64(4), "integer"},
		{"float", 4.5, "number"},
		{"infinite float", math.Inf(1), "number"},
	}
	for _, v := range values {
		for name, has := range schemaTypes {
			want := name == v.kind || (name == "number" && v.kind == "integer")
			if got := has(v.value); got != want {
				t.Errorf("%s is %q: %v, want %v", v.name, name, got, want)
			}
		}
	}
}

// TestFitsJSONRefusesWhatNoJSONTextHolds: Validate's fast check of free-form values built in code refuses
// a NaN or an infinity, a number literal past float64, and a Go value encoding/json cannot write, however
// deep; a struct is the object encoding/json writes for it.
func TestFitsJSONRefusesWhatNoJSONTextHolds(t *testing.T) {
	object := map[string]any{"a": []any{"x", 1.5, json.Number("7"), nil, true, map[string]any{}}}
	for _, fits := range []any{nil, "s", 1.5, int64(2), json.Number("1e300"), json.Number("12345678901234567890"),
		[]any{object}, object, struct{ A int }{1}} {
		if !FitsJSONAt(fits, 0) {
			t.Errorf("FitsJSONAt(%#v) = false, want true", fits)
		}
	}
	deep := map[string]any{"deep": []any{[]any{math.NaN()}}}
	for _, unfit := range []any{math.NaN(), math.Inf(1), math.Inf(-1), json.Number("1e400"), json.Number("-1.5e999"),
		make(chan int), []any{1, math.Inf(1)}, deep, map[string]any{"f": func() {}}} {
		if FitsJSONAt(unfit, 0) {
			t.Errorf("FitsJSONAt(%#v) = true, want false", unfit)
		}
	}
}

// TestFitsJSONCountsEveryLevelOfListsAndObjects: a value fits at depth d while its deepest leaf is at most
// MaxDepth levels below the root, whether its levels are lists, objects or both.
func TestFitsJSONCountsEveryLevelOfListsAndObjects(t *testing.T) {
	for _, levels := range []int{1, 2, 40} {
		for kind, wrap := range map[string]func(any) any{
			"lists":   func(v any) any { return []any{v} },
			"objects": func(v any) any { return map[string]any{"k": v} },
			"both":    func(v any) any { return map[string]any{"k": []any{v}} },
		} {
			var v any = "leaf"
			for i := 0; i < levels; i++ {
				v = wrap(v)
			}
			depth := levels
			if kind == "both" {
				depth = 2 * levels
			}
			if !FitsJSONAt(v, MaxDepth-depth) {
				t.Errorf("%d levels of %s at %d: refused", levels, kind, MaxDepth-depth)
			}
			if FitsJSONAt(v, MaxDepth-depth+1) {
				t.Errorf("%d levels of %s at %d: fits", levels, kind, MaxDepth-depth+1)
			}
		}
	}
}

// TestFitsPlainDecidesAsTheTreeDoes: FitsJSONAt decides most values without AnyTree's tree; where it
// does, its verdict is the tree's at every depth around the limit, and what it leaves to the tree
// (another Go type, more values than its budget) the tree decides.
func TestFitsPlainDecidesAsTheTreeDoes(t *testing.T) {
	self := map[string]any{}
	self["self"] = self
	wide := make([]any, plainBudget+1)
	for i := range wide {
		wide[i] = "x"
	}
	values := []any{nil, "s", true, 1.5, int64(2), 3, json.Number("1e300"), json.Number("1e400"), json.Number("-1.5e999"),
		json.Number("12345678901234567890"), math.NaN(), math.Inf(-1), []any{}, map[string]any{}, []any(nil),
		map[string]any(nil), []any{1, math.Inf(1)}, map[string]any{"a": []any{"x", 1.5, json.Number("7"), nil}},
		struct{ A int }{1}, []any{struct{ A float64 }{math.NaN()}}, make(chan int), int32(4), self, wide}
	var deep any = "leaf"
	for i := 0; i < 12; i++ {
		deep = map[string]any{"k": []any{deep}}
		values = append(values, deep)
	}
	for i, v := range values {
		for _, room := range []int{0, 1, 2, 11, 23, 24, 25, MaxDepth} {
			fits, sure := fitsPlain(v, room)
			tree := fitsJSON(AnyTree(v), room)
			if sure && fits != tree {
				t.Errorf("value %d at room %d: %v without the tree, %v with it", i, room, fits, tree)
			}
			if got := FitsJSONAt(v, MaxDepth-room); got != tree {
				t.Errorf("value %d at room %d: FitsJSONAt %v, the tree %v", i, room, got, tree)
			}
		}
	}
	if _, sure := fitsPlain(wide, MaxDepth); sure {
		t.Error("a slice past the budget was decided without the tree")
	}
	if _, sure := fitsPlain(struct{}{}, MaxDepth); sure {
		t.Error("a struct was decided without the tree")
	}
}

package rt

// --- a schema applied as written: JSON Schema's own meaning, for what no type of the target holds ---
//
// generator/checks.py compiles such a schema into "checks" (JSON text, the same in every language): a
// node is true, false or an object of the keywords below, each $ref a key of the bundle's "refs", each
// pattern an index into the package's compiled patterns, and every message final (keyword -> text
// under "messages"). The Python (_runtime.py: Checks, _Run) and TypeScript (runtime.ts) runtimes apply
// the same checks and report the same problems, in the same order. Every (node, value) verdict is
// computed once per run, so a document is checked in time linear in its size however the schema's
// branches overlap; the compiler refuses a $ref cycle that does not descend into the value, so every
// walk ends.

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Checks is a schema applied as written (generator/checks.py), compiled once, at package init.
type Checks struct {
	root *schemaNode // nil: the true schema
	// fresh is how many one-off sameKey tokens the const and enum values took: a run's own
	// tokens count on from there, so a value's never equals a schema's (Python's come from one
	// global counter).
	fresh int
}

// schemaNode is one compiled node; a nil *schemaNode is the true schema. Each optional keyword is
// nil (or false, or "") when the node does not have it, as Python's `"keyword" in node` says.
type schemaNode struct {
	messages map[string]string
	never    bool // {"false": true}: a false schema, reported with messages["false"]

	hasType bool
	types   []func(any) bool

	constKey *string             // the const value's sameKey
	enumKeys map[string]struct{} // the enum values' sameKeys (nil: no enum)

	minLength, maxLength *schemaNumber
	pattern              *regexp.Regexp
	format               string // "format": its name (FormatOK), "" for none
	base64               bool   // "contentEncoding": "base64"

	int64                                                            bool // 64-bit (a $ref into a typed integer)
	minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf *schemaNumber

	minItems, maxItems *schemaNumber
	uniqueItems        bool
	prefixItems        []*schemaNode
	items              *schemaNode // the items past prefixItems (nil: any, or none when itemsFalse)
	itemsFalse         bool        // "items": false, which the array reports (messages["items"])
	hasContains        bool
	contains           *schemaNode
	minContains        schemaNumber // 1 unless the node says otherwise
	maxContains        *schemaNumber

	minProperties, maxProperties *schemaNumber
	required                     []string
	dependentRequired            []schemaDependency
	hasPropertyNames             bool
	propertyNames                *schemaNode
	properties                   map[string]*schemaNode
	patternProperties            []schemaPattern
	additionalProperties         *schemaNode

	ref                  *schemaNode
	allOf                []*schemaNode
	hasIf                bool
	ifNode, then, orElse *schemaNode
	dependentSchemas     []schemaTrigger

	hasAnyOf, hasOneOf, hasNot bool
	anyOf, oneOf               []*schemaNode
	not                        *schemaNode
}

// schemaDependency is one dependentRequired entry: if name is present, so must names be.
type schemaDependency struct {
	name    string
	names   []string
	message string
}

// schemaPattern is one patternProperties entry.
type schemaPattern struct {
	pattern *regexp.Regexp
	node    *schemaNode
}

// schemaTrigger is one dependentSchemas entry: if name is present, node applies to the object.
type schemaTrigger struct {
	name string
	node *schemaNode
}

// schemaTypes are JSON Schema's type names, as Python's _SCHEMA_TYPES reads a value: a boolean is
// no number, and an integer is an integer literal of any size or an integral float (1.0).
var schemaTypes = map[string]func(any) bool{
	"null":    func(v any) bool { return v == nil },
	"boolean": func(v any) bool { _, ok := v.(bool); return ok },
	"string":  func(v any) bool { _, ok := v.(string); return ok },
	"array":   func(v any) bool { _, ok := v.([]any); return ok },
	"object":  func(v any) bool { _, ok := v.(*Object); return ok },
	"number":  isSchemaNumber,
	"integer": isSchemaInteger,
}

func isSchemaNumber(v any) bool {
	switch v.(type) {
	case json.Number, int64, float64:
		return true
	}
	return false
}

func isSchemaInteger(v any) bool {
	switch x := v.(type) {
	case int64:
		return true
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			return true
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return !math.IsInf(f, 0) && f == math.Trunc(f)
	case float64:
		return !math.IsInf(x, 0) && x == math.Trunc(x) // Python's float.is_integer()
	}
	return false
}

// schemaNumber is a JSON number as Python's json reads it: an integer literal is an exact
// integer of any size (small, or big past int64), any other number a float64.
type schemaNumber struct {
	isInt bool
	small int64
	big   *big.Int // the integer, when it does not fit in int64
	f     float64
}

// numberOf reads a tree number; ok is false for a value that is no number (booleans included).
func numberOf(v any) (schemaNumber, bool) {
	switch x := v.(type) {
	case int64:
		return schemaNumber{isInt: true, small: x}, true
	case float64:
		return schemaNumber{f: x}, !math.IsNaN(x)
	case json.Number:
		text := string(x)
		if !strings.ContainsAny(text, ".eE") {
			if n, err := strconv.ParseInt(text, 10, 64); err == nil {
				return schemaNumber{isInt: true, small: n}, true
			}
			if n, ok := new(big.Int).SetString(text, 10); ok {
				return schemaNumber{isInt: true, big: n}, true
			}
			return schemaNumber{}, false
		}
		// Python's float(): an underflow is 0, an overflow infinite (which AnyJSON refuses first).
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return schemaNumber{}, false
		}
		return schemaNumber{f: f}, true
	}
	return schemaNumber{}, false
}

// exact is the number's exact value (a float's binary value, as Python compares int and float).
func (n schemaNumber) exact() *big.Rat {
	switch {
	case n.big != nil:
		return new(big.Rat).SetInt(n.big)
	case n.isInt:
		return new(big.Rat).SetInt64(n.small)
	}
	return new(big.Rat).SetFloat64(n.f)
}

// decimal is the number as the decimal its JSON text (shortest form) says, exactly: 0.0075 is
// 75/10000, not the float nearest it (Python's _fraction: Fraction(repr(x))).
func (n schemaNumber) decimal() *big.Rat {
	if n.isInt {
		return n.exact()
	}
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(n.f, 'g', -1, 64))
	return r
}

// compareNumbers orders two numbers by their exact values, as Python compares ints and floats.
func compareNumbers(a, b schemaNumber) int {
	switch {
	case a.isInt && b.isInt && a.big == nil && b.big == nil:
		return cmp.Compare(a.small, b.small)
	case !a.isInt && !b.isInt:
		return cmp.Compare(a.f, b.f)
	case a.isInt && a.big == nil && !b.isInt:
		return OrderIntFloat(a.small, b.f)
	case !a.isInt && b.isInt && b.big == nil:
		return -OrderIntFloat(b.small, a.f)
	case !a.isInt && math.IsInf(a.f, 0):
		return int(math.Copysign(1, a.f)) // beyond every integer
	case !b.isInt && math.IsInf(b.f, 0):
		return -int(math.Copysign(1, b.f))
	}
	return a.exact().Cmp(b.exact()) // a big integer: exactly, as rationals
}

// multipleOf reports whether value / divisor is a whole number, in exact decimal arithmetic.
func multipleOf(value, divisor schemaNumber) bool {
	if value.isInt && divisor.isInt && value.big == nil && divisor.big == nil && divisor.small > 0 {
		return value.small%divisor.small == 0
	}
	if !value.isInt && (math.IsInf(value.f, 0) || math.IsNaN(value.f)) {
		return false // no decimal (Python's Fraction refuses it; AnyJSON refuses the value first)
	}
	if !value.isInt && value.f == math.Trunc(value.f) && divisor.wholeDivisor() {
		// A float that is a whole number over an integer divisor: by its exact value, as Python's
		// is_multiple (2^62 is a multiple of 1024; its shortest form is not).
		return new(big.Rat).Quo(value.exact(), divisor.exact()).IsInt()
	}
	return new(big.Rat).Quo(value.decimal(), divisor.decimal()).IsInt()
}

// wholeDivisor reports whether the number is an integer, or a float that is a whole number below
// 2^53 in size (which every form writes alike).
func (n schemaNumber) wholeDivisor() bool {
	return n.isInt || n.f == math.Trunc(n.f) && math.Abs(n.f) < 1<<53
}

func smallNumber(n int) schemaNumber { return schemaNumber{isInt: true, small: int64(n)} }

// The bounds of an int64, as schema numbers.
var int64Low, int64High = schemaNumber{isInt: true, small: math.MinInt64}, schemaNumber{isInt: true, small: math.MaxInt64}

// NewChecks compiles the checks text; patterns are the node's pattern indices, compiled by the
// generated code (rt.Pattern of the Go spelling). It panics on text generator/checks.py
// cannot have written.
func NewChecks(text string, patterns ...*regexp.Regexp) *Checks {
	var bundle struct {
		Root json.RawMessage            `json:"root"`
		Refs map[string]json.RawMessage `json:"refs"`
	}
	mustUnmarshal([]byte(text), &bundle)
	if bundle.Root == nil {
		panic("rt.NewChecks: the checks have no root")
	}
	k := &checksCompiler{patterns: patterns, refs: make(map[string]*schemaNode, len(bundle.Refs))}
	// Every ref's node first (nil for true), then their keywords: $refs point at one another.
	for key, raw := range bundle.Refs {
		var n *schemaNode
		if !isTrue(raw) {
			n = new(schemaNode)
		}
		k.refs[key] = n
	}
	for key, raw := range bundle.Refs {
		if n := k.refs[key]; n != nil {
			k.fill(n, raw)
		}
	}
	return &Checks{root: k.node(bundle.Root), fresh: k.fresh}
}

// checksCompiler reads the checks text into nodes.
type checksCompiler struct {
	patterns []*regexp.Regexp
	refs     map[string]*schemaNode
	fresh    int // sameKey's one-off tokens so far
}

func mustUnmarshal(data []byte, into any) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(into); err != nil {
		panic("rt.NewChecks: " + err.Error())
	}
}

func isTrue(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "true" }

// node compiles a schema: nil for true; false appears only under items, which fill reads itself.
func (k *checksCompiler) node(raw json.RawMessage) *schemaNode {
	if isTrue(raw) {
		return nil
	}
	n := new(schemaNode)
	k.fill(n, raw)
	return n
}

func (k *checksCompiler) nodes(raw json.RawMessage) []*schemaNode {
	var list []json.RawMessage
	mustUnmarshal(raw, &list)
	out := make([]*schemaNode, len(list))
	for i, sub := range list {
		out[i] = k.node(sub)
	}
	return out
}

func (k *checksCompiler) number(raw json.RawMessage) *schemaNumber {
	var text json.Number
	mustUnmarshal(raw, &text)
	if t := string(bytes.TrimSpace(raw)); t == "" || t[0] == '"' {
		panic("rt.NewChecks: a limit is not a number: " + t)
	}
	n, ok := numberOf(text)
	if !ok {
		panic("rt.NewChecks: a limit is not a number: " + string(text))
	}
	return &n
}

func (k *checksCompiler) pattern(raw json.RawMessage) *regexp.Regexp {
	var index int
	mustUnmarshal(raw, &index)
	if index < 0 || index >= len(k.patterns) || k.patterns[index] == nil {
		panic(fmt.Sprintf("rt.NewChecks: pattern %d was not given", index))
	}
	return k.patterns[index]
}

// sameKey is a JSON value's sameKey, as the runtime compares a value with const and enum.
func (k *checksCompiler) sameKey(raw json.RawMessage) string {
	tree, err := decodeOrdered(raw, -1)
	if err != nil {
		panic("rt.NewChecks: " + err.Error())
	}
	return sameKey(tree, 0, &k.fresh)
}

// fill reads one node's keywords into n.
func (k *checksCompiler) fill(n *schemaNode, raw json.RawMessage) {
	var fields map[string]json.RawMessage
	mustUnmarshal(raw, &fields)
	if fields == nil {
		panic("rt.NewChecks: a node is neither true nor an object: " + string(raw))
	}
	n.minContains = smallNumber(1)
	for key, value := range fields {
		switch key {
		case "messages":
			mustUnmarshal(value, &n.messages)
		case "false":
			n.never = true
		case "type":
			var names []string
			mustUnmarshal(value, &names)
			n.hasType = true
			for _, name := range names {
				is, ok := schemaTypes[name]
				if !ok {
					panic("rt.NewChecks: unknown type " + strconv.Quote(name))
				}
				n.types = append(n.types, is)
			}
		case "const":
			text := k.sameKey(value)
			n.constKey = &text
		case "enum":
			var values []json.RawMessage
			mustUnmarshal(value, &values)
			n.enumKeys = make(map[string]struct{}, len(values))
			for _, v := range values {
				n.enumKeys[k.sameKey(v)] = struct{}{}
			}
		case "minLength":
			n.minLength = k.number(value)
		case "maxLength":
			n.maxLength = k.number(value)
		case "pattern":
			n.pattern = k.pattern(value)
		case "format":
			mustUnmarshal(value, &n.format)
		case "contentEncoding":
			var encoding string
			mustUnmarshal(value, &encoding)
			n.base64 = encoding == "base64"
		case "int64":
			n.int64 = true
		case "minimum":
			n.minimum = k.number(value)
		case "maximum":
			n.maximum = k.number(value)
		case "exclusiveMinimum":
			n.exclusiveMinimum = k.number(value)
		case "exclusiveMaximum":
			n.exclusiveMaximum = k.number(value)
		case "multipleOf":
			n.multipleOf = k.number(value)
			if compareNumbers(*n.multipleOf, smallNumber(0)) <= 0 {
				panic("rt.NewChecks: multipleOf must be greater than 0")
			}
		case "minItems":
			n.minItems = k.number(value)
		case "maxItems":
			n.maxItems = k.number(value)
		case "uniqueItems":
			mustUnmarshal(value, &n.uniqueItems)
		case "prefixItems":
			n.prefixItems = k.nodes(value)
		case "items":
			if string(bytes.TrimSpace(value)) == "false" {
				n.itemsFalse = true
			} else {
				n.items = k.node(value)
			}
		case "contains":
			n.hasContains, n.contains = true, k.node(value)
		case "minContains":
			n.minContains = *k.number(value)
		case "maxContains":
			n.maxContains = k.number(value)
		case "minProperties":
			n.minProperties = k.number(value)
		case "maxProperties":
			n.maxProperties = k.number(value)
		case "required":
			mustUnmarshal(value, &n.required)
		case "dependentRequired":
			var entries [][3]json.RawMessage
			mustUnmarshal(value, &entries)
			for _, e := range entries {
				var d schemaDependency
				mustUnmarshal(e[0], &d.name)
				mustUnmarshal(e[1], &d.names)
				mustUnmarshal(e[2], &d.message)
				n.dependentRequired = append(n.dependentRequired, d)
			}
		case "propertyNames":
			n.hasPropertyNames, n.propertyNames = true, k.node(value)
		case "properties":
			var subs map[string]json.RawMessage
			mustUnmarshal(value, &subs)
			n.properties = make(map[string]*schemaNode, len(subs))
			for name, sub := range subs {
				n.properties[name] = k.node(sub)
			}
		case "patternProperties":
			var entries [][2]json.RawMessage
			mustUnmarshal(value, &entries)
			for _, e := range entries {
				n.patternProperties = append(n.patternProperties, schemaPattern{k.pattern(e[0]), k.node(e[1])})
			}
		case "additionalProperties":
			n.additionalProperties = k.node(value)
		case "$ref":
			var target string
			mustUnmarshal(value, &target)
			found, ok := k.refs[target]
			if !ok {
				panic("rt.NewChecks: $ref " + strconv.Quote(target) + " is not a key of refs")
			}
			n.ref = found
		case "allOf":
			n.allOf = k.nodes(value)
		case "anyOf":
			n.hasAnyOf, n.anyOf = true, k.nodes(value)
		case "oneOf":
			n.hasOneOf, n.oneOf = true, k.nodes(value)
		case "not":
			n.hasNot, n.not = true, k.node(value)
		case "if":
			n.hasIf, n.ifNode = true, k.node(value)
		case "then":
			n.then = k.node(value)
		case "else":
			n.orElse = k.node(value)
		case "dependentSchemas":
			var entries [][2]json.RawMessage
			mustUnmarshal(value, &entries)
			for _, e := range entries {
				var name string
				mustUnmarshal(e[0], &name)
				n.dependentSchemas = append(n.dependentSchemas, schemaTrigger{name, k.node(e[1])})
			}
		default:
			panic("rt.NewChecks: unknown keyword " + strconv.Quote(key))
		}
	}
	if n.messages == nil {
		panic("rt.NewChecks: a node has no messages")
	}
}

// Parser is AnyJSON's checks (depth, numbers), then the schema's; on success it returns what
// AnyJSON returns (plain(v)).
func (c *Checks) Parser(msgs Msgs) Parser[any] {
	asJSON := AnyJSON(msgs)
	return func(v any, ctx *Context) (any, bool) {
		out, ok := asJSON(v, ctx)
		if !ok {
			return nil, false
		}
		run := c.run()
		if run.valid(c.root, v) {
			return out, true
		}
		run.check(c.root, v, ctx)
		return nil, false
	}
}

// Valid is the verdict alone, for a value AnyJSON accepts (a tree from Decode, or a value built in
// code: convert with AnyTree first if needed).
func (c *Checks) Valid(v any) bool {
	if c.root == nil {
		return true
	}
	return c.run().valid(c.root, v)
}

// ValidAt is Validate's fast check of a value built in code, d levels below the document's root: true only
// where the exact walk surely accepts it (AnyJSON's policy within the levels left, then the schema); false
// sends Validate to the exact walk, which says what is wrong.
func (c *Checks) ValidAt(v any, d int) bool {
	t := AnyTree(v)
	return fitsJSON(t, MaxDepth-d) && c.Valid(t)
}

// FitsJSONAt is Validate's fast check of a free-form value built in code, d levels below the document's
// root: whether AnyJSON accepts it there (false sends Validate to the exact walk, which says why).
func FitsJSONAt(v any, d int) bool {
	if fits, sure := fitsPlain(v, MaxDepth-d); sure {
		return fits
	}
	return fitsJSON(AnyTree(v), MaxDepth-d)
}

// plainBudget is how many values fitsPlain looks at before it leaves a value to AnyTree.
const plainBudget = 1 << 12

// fitsPlain is fitsJSON's verdict on AnyTree(v) without the tree (which cost a third of the
// allocations of a direct read of a small document with metadata), for the values encoding/json
// decodes into and most code builds: maps with string keys, slices of any, json.Number, string,
// bool, nil, float64, int64 and int. Each turns into a tree one level deeper for a map or slice,
// the rest into a value fitsJSON reads alike (a float64 that is NaN or an infinity AnyTree cannot
// encode, which fitsJSON refuses). sure is false for anything else, and past plainBudget values
// (a map shared many times over, or holding itself): AnyTree then decides.
func fitsPlain(v any, room int) (fits, sure bool) {
	type item struct {
		value any
		depth int
	}
	var held [16]item
	stack := append(held[:0], item{v, 0})
	for seen := 0; len(stack) > 0; seen++ {
		if seen == plainBudget {
			return false, false
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > room {
			return false, true
		}
		switch x := it.value.(type) {
		case nil, bool, string, int64, int:
		case json.Number:
			if !numberFits(x) {
				return false, true
			}
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false, true
			}
		case []any:
			for _, e := range x {
				stack = append(stack, item{e, it.depth + 1})
			}
		case map[string]any:
			for _, e := range x {
				stack = append(stack, item{e, it.depth + 1})
			}
		default:
			return false, false
		}
	}
	return true, true
}

// numberFits is whether AnyJSON accepts a number's text: not a float literal out of float64's range.
func numberFits(x json.Number) bool {
	if strings.ContainsAny(string(x), ".eE") {
		if f, err := strconv.ParseFloat(string(x), 64); err != nil && math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// fitsJSON is whether AnyJSON accepts the tree with room levels left below it (no error to record).
func fitsJSON(v any, room int) bool {
	type item struct {
		value any
		depth int
	}
	stack := []item{{v, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > room {
			return false
		}
		switch x := it.value.(type) {
		case nil, bool, string, int64:
		case json.Number:
			if !numberFits(x) {
				return false
			}
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return false
			}
		case []any:
			for _, e := range x {
				stack = append(stack, item{e, it.depth + 1})
			}
		case *Object:
			for _, e := range x.vals {
				stack = append(stack, item{e, it.depth + 1})
			}
		default:
			return false
		}
	}
	return true
}

func (c *Checks) run() *schemaRun {
	return &schemaRun{fresh: c.fresh, at: []int{0}}
}

// schemaRun is one document's walk: verdicts remembered by (node, value), problems reported once
// per (node, path).
//
// check is one function for both uses, so a verdict and the problems reported cannot disagree:
// without a context it stops at the first problem; with one it records every problem it finds, in
// the order the Python runtime's _Run finds them (the value's own problems, its items' or fields',
// the subschemas applied to it, then anyOf, oneOf and not), which every runtime keeps.
type schemaRun struct {
	verdicts map[schemaVerdictKey]bool
	reported map[schemaReportKey]struct{}
	// The paths the walk with a context has been at, each by a number (0: where it started), and
	// the numbers of the path it is at now. A (node, path) is remembered by the path's number, not
	// its pointer: a long key is hashed once per step down into it, not again by every check below.
	paths map[schemaStep]int
	at    []int
	fresh int // the next one-off sameKey token (see Checks.fresh)
}

// schemaVerdictKey is a node and a value's identity (see identity).
type schemaVerdictKey struct {
	node  *schemaNode
	value any
}

// schemaReportKey is a node and a path's number.
type schemaReportKey struct {
	node *schemaNode
	path int
}

// schemaStep is one step down from a path (by its number): an object key, or an index when index >= 0.
type schemaStep struct {
	from  int
	key   string
	index int
}

// arrayIdentity is an array's identity: its first item's address and its length. Two arrays with
// both the same hold the same items, so they have the same verdicts.
type arrayIdentity struct {
	first  *any
	length int
}

// identity is what a verdict on v is remembered by: an object by its address, an array by its
// arrayIdentity, and a scalar by its value, since a scalar's verdict depends on its value alone.
// ok is false for a value that is no tree value (its verdict is not remembered).
func identity(v any) (any, bool) {
	switch x := v.(type) {
	case *Object:
		return x, true
	case []any:
		if len(x) == 0 {
			return arrayIdentity{}, true
		}
		return arrayIdentity{&x[0], len(x)}, true
	case nil, bool, string, json.Number, int64:
		return v, true
	case float64:
		return v, !math.IsNaN(x) // NaN is not equal to itself: never found again
	}
	return nil, false
}

// valid is a node's verdict on a value, computed once per run.
func (r *schemaRun) valid(n *schemaNode, v any) bool {
	if n == nil {
		return true
	}
	id, ok := identity(v)
	if !ok {
		return r.check(n, v, nil)
	}
	key := schemaVerdictKey{n, id}
	if verdict, found := r.verdicts[key]; found {
		return verdict
	}
	verdict := r.check(n, v, nil)
	if r.verdicts == nil {
		r.verdicts = make(map[schemaVerdictKey]bool)
	}
	r.verdicts[key] = verdict
	return verdict
}

// schemaProblem is a problem a node finds with a value itself: its message, keyword, and the key
// below the value it is at (none: at the value).
type schemaProblem struct {
	message, keyword string
	below            []string
}

// check reports whether node n accepts v; with a context, every problem is recorded there (once per
// node and path).
func (r *schemaRun) check(n *schemaNode, v any, c *Context) bool {
	if n == nil {
		return true
	}
	if c != nil {
		seen := schemaReportKey{n, r.at[len(r.at)-1]}
		if _, done := r.reported[seen]; done {
			return false
		}
		if r.reported == nil {
			r.reported = make(map[schemaReportKey]struct{})
		}
		r.reported[seen] = struct{}{}
	}
	msgs := n.messages
	if n.never {
		if c != nil {
			c.Error(msgs["false"], "false", v)
		}
		return false
	}
	if n.hasType && !n.typed(v) {
		if c != nil {
			c.Error(msgs["type"], "type", v)
		}
		return false // what else is wrong with a value of another type says little
	}
	// Each problem: (message, keyword, key below the value or none); without a context the first
	// ends the walk.
	var problems []schemaProblem
	if n.constKey != nil || n.enumKeys != nil {
		key := sameKey(v, 0, &r.fresh)
		if n.constKey != nil && key != *n.constKey {
			problems = append(problems, schemaProblem{msgs["const"], "const", nil})
		}
		if n.enumKeys != nil {
			if _, found := n.enumKeys[key]; !found {
				problems = append(problems, schemaProblem{msgs["enum"], "enum", nil})
			}
		}
	}
	failed := ""
	if s, ok := v.(string); ok {
		failed = n.stringProblem(s)
	} else if number, ok := numberOf(v); ok {
		failed = n.numberProblem(number)
	}
	if failed != "" {
		problems = append(problems, schemaProblem{msgs[failed], failed, nil})
	}
	if len(problems) > 0 && c == nil {
		return false
	}
	ok := len(problems) == 0
	for _, p := range problems {
		c.Error(p.message, p.keyword, v, p.below...)
	}
	switch x := v.(type) {
	case []any:
		problems = r.arrayProblems(n, x)
		if len(problems) > 0 && c == nil {
			return false
		}
		ok = ok && len(problems) == 0
		for _, p := range problems {
			c.Error(p.message, p.keyword, v, p.below...)
		}
		// "items": false is nil here: the array reports the items past the prefix once (arrayProblems).
		for i, item := range x {
			sub := n.items
			if i < len(n.prefixItems) {
				sub = n.prefixItems[i]
			}
			if !r.below(sub, schemaStep{key: "", index: i}, item, c) {
				if c == nil {
					return false
				}
				ok = false
			}
		}
	case *Object:
		problems = r.objectProblems(n, x)
		if len(problems) > 0 && c == nil {
			return false
		}
		ok = ok && len(problems) == 0
		for _, p := range problems {
			c.Error(p.message, p.keyword, v, p.below...)
		}
		// Each field's value: its property's schema, then each matching pattern's, else the rest's.
		for i, name := range x.keys {
			item := x.vals[i]
			step := schemaStep{key: name, index: -1}
			sub, listed := n.properties[name]
			matched := listed
			if listed && !r.below(sub, step, item, c) {
				if c == nil {
					return false
				}
				ok = false
			}
			for _, p := range n.patternProperties {
				if !p.pattern.MatchString(name) {
					continue
				}
				matched = true
				if !r.below(p.node, step, item, c) {
					if c == nil {
						return false
					}
					ok = false
				}
			}
			if !matched && !r.below(n.additionalProperties, step, item, c) {
				if c == nil {
					return false
				}
				ok = false
			}
		}
	}
	// The subschemas applied to this same value: each that fails reports its own problems here.
	applied := func(sub *schemaNode) bool {
		if r.valid(sub, v) {
			return true
		}
		if c != nil {
			r.check(sub, v, c)
		}
		return false
	}
	if !applied(n.ref) {
		if c == nil {
			return false
		}
		ok = false
	}
	for _, sub := range n.allOf {
		if !applied(sub) {
			if c == nil {
				return false
			}
			ok = false
		}
	}
	if n.hasIf {
		sub := n.orElse
		if r.valid(n.ifNode, v) {
			sub = n.then
		}
		if !applied(sub) {
			if c == nil {
				return false
			}
			ok = false
		}
	}
	if obj, isObject := v.(*Object); isObject {
		for _, d := range n.dependentSchemas {
			if obj.find(d.name) >= 0 && !applied(d.node) {
				if c == nil {
					return false
				}
				ok = false
			}
		}
	}
	// anyOf, oneOf and not: how many of their subschemas accept the value (each reports only its
	// own message, not its subschemas' problems).
	counted := [...]struct {
		keyword string
		has     bool
		subs    []*schemaNode
	}{{"anyOf", n.hasAnyOf, n.anyOf}, {"oneOf", n.hasOneOf, n.oneOf}, {"not", n.hasNot, []*schemaNode{n.not}}}
	for _, k := range counted {
		if !k.has {
			continue
		}
		matched := 0
		for _, sub := range k.subs {
			if r.valid(sub, v) {
				matched++
				if k.keyword == "anyOf" {
					break
				}
			}
		}
		if (k.keyword == "not" && matched == 0) || (k.keyword == "oneOf" && matched == 1) || (k.keyword == "anyOf" && matched > 0) {
			continue
		}
		if c == nil {
			return false
		}
		ok = false
		c.Error(msgs[k.keyword], k.keyword, v)
	}
	return ok
}

// below checks an item or a field's value (at step below the value): its verdict, and with a
// context, when it fails, its problems at its own path.
func (r *schemaRun) below(sub *schemaNode, step schemaStep, item any, c *Context) bool {
	if sub == nil || r.valid(sub, item) {
		return true
	}
	if c == nil {
		return false
	}
	step.from = r.at[len(r.at)-1]
	id, found := r.paths[step]
	if !found {
		if r.paths == nil {
			r.paths = make(map[schemaStep]int)
		}
		id = len(r.paths) + 1
		r.paths[step] = id
	}
	r.at = append(r.at, id)
	c.path = append(c.path, segment{key: step.key, index: step.index})
	c.values = append(c.values, item)
	r.check(sub, item, c)
	c.path = c.path[:len(c.path)-1]
	c.values = c.values[:len(c.values)-1]
	r.at = r.at[:len(r.at)-1]
	return false
}

// typed reports whether v is of one of the node's types.
func (n *schemaNode) typed(v any) bool {
	for _, is := range n.types {
		if is(v) {
			return true
		}
	}
	return false
}

// stringProblem is the first string keyword the value fails, if any ("": none).
func (n *schemaNode) stringProblem(s string) string {
	if n.minLength != nil || n.maxLength != nil {
		length := smallNumber(utf8.RuneCountInString(s)) // code points, as Python's len
		if n.minLength != nil && compareNumbers(length, *n.minLength) < 0 {
			return "minLength"
		}
		if n.maxLength != nil && compareNumbers(length, *n.maxLength) > 0 {
			return "maxLength"
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		return "pattern"
	}
	if n.format != "" && !FormatOK(n.format, s) {
		return "format"
	}
	if n.base64 {
		if !base64Text.MatchString(s) {
			return "contentEncoding"
		}
		if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			return "contentEncoding"
		}
	}
	return ""
}

// numberProblem is the first number keyword the value fails, if any ("": none). Numbers compare by
// their exact values, as Python compares ints and floats and as JSON Schema compares numbers.
func (n *schemaNode) numberProblem(v schemaNumber) string {
	if n.int64 && (compareNumbers(v, int64Low) < 0 || compareNumbers(v, int64High) > 0) {
		return "int64" // an integer a typed definition holds, reached by a $ref
	}
	if n.minimum != nil && compareNumbers(v, *n.minimum) < 0 {
		return "minimum"
	}
	if n.maximum != nil && compareNumbers(v, *n.maximum) > 0 {
		return "maximum"
	}
	if n.exclusiveMinimum != nil && compareNumbers(v, *n.exclusiveMinimum) <= 0 {
		return "exclusiveMinimum"
	}
	if n.exclusiveMaximum != nil && compareNumbers(v, *n.exclusiveMaximum) >= 0 {
		return "exclusiveMaximum"
	}
	if n.multipleOf != nil && !multipleOf(v, *n.multipleOf) {
		return "multipleOf"
	}
	return ""
}

// arrayProblems are the array's own problems (its items' are checked by check).
func (r *schemaRun) arrayProblems(n *schemaNode, items []any) []schemaProblem {
	var failed []string
	length := smallNumber(len(items))
	if n.minItems != nil && compareNumbers(length, *n.minItems) < 0 {
		failed = append(failed, "minItems")
	}
	if n.maxItems != nil && compareNumbers(length, *n.maxItems) > 0 {
		failed = append(failed, "maxItems")
	}
	if n.uniqueItems && !unique(items, 0) {
		failed = append(failed, "uniqueItems")
	}
	if n.itemsFalse && len(items) > len(n.prefixItems) {
		failed = append(failed, "items")
	}
	if n.hasContains {
		found := 0
		for _, item := range items {
			if r.valid(n.contains, item) {
				found++
			}
		}
		if compareNumbers(smallNumber(found), n.minContains) < 0 {
			failed = append(failed, "minContains")
		}
		if n.maxContains != nil && compareNumbers(smallNumber(found), *n.maxContains) > 0 {
			failed = append(failed, "maxContains")
		}
	}
	var problems []schemaProblem
	for _, keyword := range failed {
		problems = append(problems, schemaProblem{n.messages[keyword], keyword, nil})
	}
	return problems
}

// objectProblems are the object's own problems (its fields' values are checked by check).
func (r *schemaRun) objectProblems(n *schemaNode, obj *Object) []schemaProblem {
	var failed []schemaProblem
	length := smallNumber(obj.Len())
	if n.minProperties != nil && compareNumbers(length, *n.minProperties) < 0 {
		failed = append(failed, schemaProblem{n.messages["minProperties"], "minProperties", nil})
	}
	if n.maxProperties != nil && compareNumbers(length, *n.maxProperties) > 0 {
		failed = append(failed, schemaProblem{n.messages["maxProperties"], "maxProperties", nil})
	}
	for _, name := range n.required {
		if obj.find(name) < 0 {
			failed = append(failed, schemaProblem{n.messages["required"], "required", []string{name}})
		}
	}
	for _, d := range n.dependentRequired {
		if obj.find(d.name) < 0 {
			continue
		}
		for _, name := range d.names {
			if obj.find(name) < 0 {
				failed = append(failed, schemaProblem{d.message, "dependentRequired", []string{name}})
			}
		}
	}
	if n.hasPropertyNames {
		for _, name := range obj.keys {
			if !r.valid(n.propertyNames, name) {
				failed = append(failed, schemaProblem{n.messages["propertyNames"], "propertyNames", []string{name}})
			}
		}
	}
	return failed
}

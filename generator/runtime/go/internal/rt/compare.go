package rt

import (
	"cmp"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// Operand is one side of a compare rule: a field, what it compares as ("integer",
// "number", "string" or "date-time") and, for a field with a default, the
// default's JSON text ("" when it has none).
type Operand struct {
	Field, Kind, Default string
}

// value is the operand's tree value: the field's, else its default (nil: null, or
// nothing to compare).
func (o Operand) value(obj *Object) any {
	if v, ok := obj.Get(o.Field); ok {
		return v
	}
	if o.Default == "" {
		return nil
	}
	v, err := Decode([]byte(o.Default)) // a spec default, which the generator checked
	if err != nil {
		return nil
	}
	return v
}

// RuleCompare: left must stand to right as op says ("<", "<=", "==", "!=", ">=",
// ">"). An absent field compares as its default; a side that is null, or absent
// without a default, leaves the rule nothing to judge. The problem is reported at
// left's field, with its value.
func RuleCompare(c *Context, obj *Object, left, right Operand, op, message string, usable bool) {
	if !usable {
		return
	}
	a, b := left.value(obj), right.value(obj)
	if a == nil || b == nil {
		return
	}
	if order, ok := orderTree(a, left.Kind, b, right.Kind); ok && !Holds(op, order) {
		c.Error(message, "compare", a, left.Field)
	}
}

// Holds reports whether an order (negative, 0, positive: cmp.Compare's) satisfies op.
func Holds(op string, order int) bool {
	switch op {
	case "<":
		return order < 0
	case "<=":
		return order <= 0
	case "==":
		return order == 0
	case "!=":
		return order != 0
	case ">=":
		return order >= 0
	case ">":
		return order > 0
	}
	return false
}

// orderTree orders two tree values, each read as its operand kind says; ok is false
// when one is not such a value (its own check reports that).
func orderTree(a any, ka string, b any, kb string) (int, bool) {
	switch {
	case ka == "string" && kb == "string":
		x, okX := a.(string)
		y, okY := b.(string)
		return strings.Compare(x, y), okX && okY // Go orders UTF-8 bytes as their code points
	case ka == "date-time" && kb == "date-time":
		x, okX := a.(string)
		y, okY := b.(string)
		if !okX || !okY {
			return 0, false
		}
		return orderInstants(x, y)
	case ka == "integer" && kb == "integer":
		x, okX := treeInt(a)
		y, okY := treeInt(b)
		return cmp.Compare(x, y), okX && okY
	case ka == "integer":
		x, okX := treeInt(a)
		y, okY := toFloat(b)
		return OrderIntFloat(x, y), okX && okY
	case kb == "integer":
		x, okX := toFloat(a)
		y, okY := treeInt(b)
		return -OrderIntFloat(y, x), okX && okY
	}
	x, okX := toFloat(a)
	y, okY := toFloat(b)
	return cmp.Compare(x, y), okX && okY
}

// treeInt reads an integer field's tree value exactly (1.0 and 1e2 are integers).
func treeInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			n, err := strconv.ParseInt(string(x), 10, 64)
			return n, err == nil
		}
	}
	f, ok := toFloat(v)
	if !ok || f != math.Trunc(f) || f < -9223372036854775808 || f >= 9223372036854775808 {
		return 0, false
	}
	return int64(f), true
}

// Order is cmp.Compare: numbers of one Go type, strings (by code point), enumeration values.
func Order[T cmp.Ordered](a, b T) int {
	return cmp.Compare(a, b)
}

// OrderIntFloat orders an integer and a float by their exact values (converting the
// integer to a float would round it past 2^53).
func OrderIntFloat(i int64, f float64) int {
	switch {
	case f >= 9223372036854775808:
		return -1
	case f < -9223372036854775808:
		return 1
	}
	whole := math.Trunc(f) // within int64 now, so the conversion is exact
	if n := int64(whole); n != i {
		return cmp.Compare(i, n)
	}
	return cmp.Compare(0, f-whole) // the fraction decides; f-whole is exact
}

// OrderFloatInt orders a float and an integer by their exact values.
func OrderFloatInt(f float64, i int64) int {
	return -OrderIntFloat(i, f)
}

// OrderTimes orders two date-times by their instants, exactly: a time that keeps a
// text with more fraction digits than nanoseconds hold (see ParseTime) is ordered by
// that text.
func OrderTimes(a, b time.Time) int {
	if exactTime(a) && exactTime(b) {
		return a.Compare(b)
	}
	order, _ := orderInstants(FormatTime(a), FormatTime(b))
	return order
}

// exactTime reports whether t holds its instant whole: it keeps no text (ParseTime's
// Location name) with more than nine fraction digits.
func exactTime(t time.Time) bool {
	name := t.Location().String()
	if len(name) < 31 || name[19] != '.' { // 31: the shortest such text, ...:00.0000000001Z
		return true
	}
	end := 20
	for end < len(name) && name[end] >= '0' && name[end] <= '9' {
		end++
	}
	return end-20 <= 9
}

// orderInstants orders two RFC 3339 texts by the instants they denote, exactly
// however many fraction digits they have.
func orderInstants(a, b string) (int, bool) {
	secA, fracA, okA := instantOf(a)
	secB, fracB, okB := instantOf(b)
	if c := cmp.Compare(secA, secB); c != 0 {
		return c, okA && okB
	}
	return strings.Compare(fracA, fracB), okA && okB
}

// instantOf reads RFC 3339 text as whole seconds since 1970 (UTC) and the digits of its
// fraction without trailing zeros, which as text order as the fractions do.
func instantOf(text string) (int64, string, bool) {
	f, ok := readRFC3339(text)
	if !ok {
		return 0, "", false
	}
	seconds := f.unix() - int64(f.offset) // (what time.Date gives: TestParseTimeIsTimeDateOnEveryDayAroundEveryLeapRule)
	fraction := ""
	if text[19] == '.' {
		end := 20
		for end < len(text) && text[end] >= '0' && text[end] <= '9' {
			end++
		}
		fraction = strings.TrimRight(text[20:end], "0")
	}
	return seconds, fraction, true
}

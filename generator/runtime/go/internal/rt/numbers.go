package rt

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
)

// NumberSpec holds the bounds of a number.
type NumberSpec struct {
	Msgs             Msgs
	Minimum          *float64
	Maximum          *float64
	ExclusiveMinimum *float64
	ExclusiveMaximum *float64
	// MultipleOf divides every valid integer (lower accepts it on integers only, 1 to 2^53-1); 0 when the spec has none.
	MultipleOf int64
	// Const and Enum are checked first; lower admits only values below 2^53 in size, which a float64 compares
	// exactly with any number (an int64 beyond rounds to no such value).
	Const *float64
	Enum  []float64
}

func (spec NumberSpec) bounds(c *Context, f float64, v any) bool {
	mark := c.Mark()
	if spec.Const != nil && f != *spec.Const {
		c.Error(spec.Msgs["const"], "const", v)
	}
	if spec.Enum != nil && !slices.Contains(spec.Enum, f) {
		c.Error(spec.Msgs["enum"], "enum", v)
	}
	if spec.Minimum != nil && f < *spec.Minimum {
		c.Error(spec.Msgs["minimum"], "minimum", v)
	}
	if spec.Maximum != nil && f > *spec.Maximum {
		c.Error(spec.Msgs["maximum"], "maximum", v)
	}
	if spec.ExclusiveMinimum != nil && f <= *spec.ExclusiveMinimum {
		c.Error(spec.Msgs["exclusiveMinimum"], "exclusiveMinimum", v)
	}
	if spec.ExclusiveMaximum != nil && f >= *spec.ExclusiveMaximum {
		c.Error(spec.Msgs["exclusiveMaximum"], "exclusiveMaximum", v)
	}
	return !c.FailedSince(mark)
}

// integerBounds checks an integer against the bounds, then against MultipleOf (exact in int64).
func (spec NumberSpec) integerBounds(c *Context, n int64, v any) bool {
	ok := spec.bounds(c, float64(n), v)
	if spec.MultipleOf != 0 && n%spec.MultipleOf != 0 {
		c.Error(spec.Msgs["multipleOf"], "multipleOf", v)
		return false
	}
	return ok
}

// toFloat reads a tree number; ok is false for non-numbers and for values
// beyond float64 (Python's json turns 1e400 into inf, which is no number).
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		return floatText(string(x))
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return 0, false
}

// floatText reads a number literal as toFloat reads a tree number.
func floatText(text string) (float64, bool) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && (!errors.Is(err, strconv.ErrRange) || math.IsInf(f, 0)) {
		return 0, false
	}
	return f, true
}

// Integer checks a 64-bit integer (1.0 counts as 1, as in JSON Schema).
func Integer(spec NumberSpec) Parser[int64] {
	return func(v any, c *Context) (int64, bool) {
		if x, ok := v.(int64); ok {
			return x, spec.integerBounds(c, x, v)
		}
		// ParseInt reports a range error before it sees a fraction ("1000…0.5"), so integer literals only.
		if text, ok := v.(json.Number); ok && !strings.ContainsAny(string(text), ".eE") {
			if n, err := strconv.ParseInt(string(text), 10, 64); err == nil {
				return n, spec.integerBounds(c, n, v)
			} else if errors.Is(err, strconv.ErrRange) {
				c.Error(spec.Msgs["int64"], "int64", v)
				return 0, false
			}
		}
		f, ok := toFloat(v)
		if !ok || f != math.Trunc(f) {
			c.Error(spec.Msgs["type"], "type", v)
			return 0, false
		}
		if f < -9223372036854775808 || f >= 9223372036854775808 {
			c.Error(spec.Msgs["int64"], "int64", v)
			return 0, false
		}
		// {value} shows the integer (1.0 is 1, -0.0 is 0), as Python's int(1.0) and TypeScript's number do.
		return int64(f), spec.integerBounds(c, int64(f), int64(f))
	}
}

// Number checks a finite number.
func Number(spec NumberSpec) Parser[float64] {
	return func(v any, c *Context) (float64, bool) {
		f, ok := toFloat(v)
		if !ok {
			c.Error(spec.Msgs["type"], "type", v)
			return 0, false
		}
		return f, spec.bounds(c, f, v)
	}
}

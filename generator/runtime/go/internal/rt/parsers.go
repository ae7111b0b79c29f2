package rt

import (
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Int and Float return a pointer to a limit, for the specs below.
func Int(n int) *int { return &n }

// Ptr returns a pointer to a copy of v: a string constant of the specs below, a nullable field's default.
func Ptr[T any](v T) *T { return &v }

// Float returns a pointer to a numeric limit.
func Float(f float64) *float64 { return &f }

// Pattern compiles a pattern the generator already translated to Go's syntax, its \d \w \D \W spelt
// out as the ranges pinned to Unicode 14.0 (pinned.go).
func Pattern(expr string) *regexp.Regexp { return regexp.MustCompile(pinned(expr)) }

// StringSpec holds the constraints of a string.
type StringSpec struct {
	Msgs      Msgs
	MinLength *int
	MaxLength *int
	Pattern   *regexp.Regexp
	Enum      []string
	Const     *string
	Format    string // a format FormatOK checks, e.g. "uri"; "" for none
}

// String checks a string; every failed constraint is recorded.
func String(spec StringSpec) Parser[string] {
	return func(v any, c *Context) (string, bool) {
		s, ok := v.(string)
		if !ok {
			c.Error(spec.Msgs["type"], "type", v)
			return "", false
		}
		mark := c.Mark()
		if spec.Const != nil && s != *spec.Const {
			c.Error(spec.Msgs["const"], "const", s)
		}
		if spec.Enum != nil && !contains(spec.Enum, s) {
			c.Error(spec.Msgs["enum"], "enum", s)
		}
		if spec.MinLength != nil || spec.MaxLength != nil {
			n := utf8.RuneCountInString(s)
			if spec.MinLength != nil && n < *spec.MinLength {
				c.Error(spec.Msgs["minLength"], "minLength", s)
			}
			if spec.MaxLength != nil && n > *spec.MaxLength {
				c.Error(spec.Msgs["maxLength"], "maxLength", s)
			}
		}
		if spec.Pattern != nil && !spec.Pattern.MatchString(s) {
			c.Error(spec.Msgs["pattern"], "pattern", s)
		}
		if spec.Format != "" && !FormatOK(spec.Format, s) {
			c.Error(spec.Msgs["format"], "format", s)
		}
		return s, !c.FailedSince(mark)
	}
}

// StringEnum checks a string against a closed set and returns it as its named type.
func StringEnum[T ~string](msgs Msgs, values ...string) Parser[T] {
	p := String(StringSpec{Msgs: msgs, Enum: values})
	return func(v any, c *Context) (T, bool) {
		s, ok := p(v, c)
		return T(s), ok
	}
}

// OpenEnum reads an open enum: a value it lists, or any other string (one a later version may
// add), kept as it is.
func OpenEnum[T ~string](msgs Msgs) Parser[T] {
	return func(v any, c *Context) (T, bool) {
		s, ok := v.(string)
		if !ok {
			c.Error(msgs["type"], "type", v)
		}
		return T(s), ok
	}
}

func contains(values []string, s string) bool {
	for _, v := range values {
		if v == s {
			return true
		}
	}
	return false
}

// BoolSpec holds a boolean's const and enum (Bool checks a boolean without them).
type BoolSpec struct {
	Msgs  Msgs
	Const *bool
	Enum  []bool
}

// Boolean checks a boolean against its const, then its enum.
func Boolean(spec BoolSpec) Parser[bool] {
	return func(v any, c *Context) (bool, bool) {
		b, ok := v.(bool)
		if !ok {
			c.Error(spec.Msgs["type"], "type", v)
			return false, false
		}
		if spec.Const != nil && b != *spec.Const {
			c.Error(spec.Msgs["const"], "const", v)
			ok = false
		}
		if spec.Enum != nil && !slices.Contains(spec.Enum, b) {
			c.Error(spec.Msgs["enum"], "enum", v)
			ok = false
		}
		return b, ok
	}
}

// Bool checks a boolean.
func Bool(msgs Msgs) Parser[bool] {
	return func(v any, c *Context) (bool, bool) {
		b, ok := v.(bool)
		if !ok {
			c.Error(msgs["type"], "type", v)
		}
		return b, ok
	}
}

// AnyJSON accepts any JSON value and returns it as encoding/json would decode it.
//
// It walks the value without recursion, in document order. A value more than
// MaxDepth levels below the document root is refused (at its pointer), and so
// is a number no float64 can hold (1e400). Integers of any size stay exact.
func AnyJSON(msgs Msgs) Parser[any] {
	return func(v any, c *Context) (any, bool) {
		var path []string
		switch anyProblem(v, MaxDepth-len(c.path), &path) {
		case "depth":
			c.Error(depthMessage, "depth", nil, path...)
			return nil, false
		case "type":
			c.Error(msgs["type"], "type", nil)
			return nil, false
		}
		return plain(v), true
	}
}

// anyProblem is AnyJSON's walk of v, room levels being left below it: "depth" for a
// value deeper than that (its path below v in *where, when where is not nil), "type"
// for a number no float64 can hold or a value that is not JSON, "" when v is fine.
func anyProblem(v any, room int, where *[]string) string {
	type item struct {
		value any
		depth int
		key   string
		index int // an array item's index (the key is made only for a path), else -1
	}
	stack := []item{{value: v, index: -1}}
	var path []string
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if where != nil && it.depth > 0 {
			key := it.key
			if it.index >= 0 {
				key = strconv.Itoa(it.index)
			}
			path = append(path[:it.depth-1], key)
		}
		if it.depth > room {
			if where != nil {
				*where = path
			}
			return "depth"
		}
		switch x := it.value.(type) {
		case nil, bool, string, int64:
		case json.Number:
			if strings.ContainsAny(string(x), ".eE") {
				if f, err := strconv.ParseFloat(string(x), 64); err != nil && math.IsInf(f, 0) {
					return "type"
				}
			}
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return "type"
			}
		case []any:
			for i := len(x) - 1; i >= 0; i-- {
				stack = append(stack, item{x[i], it.depth + 1, "", i})
			}
		case *Object:
			for i := len(x.keys) - 1; i >= 0; i-- {
				stack = append(stack, item{x.vals[i], it.depth + 1, x.keys[i], -1})
			}
		default:
			return "type"
		}
	}
	return ""
}

// Nullable accepts null (nil) or what inner accepts.
func Nullable[T any](inner Parser[T]) Parser[*T] {
	return func(v any, c *Context) (*T, bool) {
		if v == nil {
			return nil, true
		}
		out, ok := inner(v, c)
		return &out, ok
	}
}

// OrNull accepts null (the zero value: a nil slice or map) or what inner accepts.
func OrNull[T any](inner Parser[T]) Parser[T] {
	return func(v any, c *Context) (T, bool) {
		if v == nil {
			var zero T
			return zero, true
		}
		return inner(v, c)
	}
}

// ListSpec holds the constraints of an array.
type ListSpec struct {
	Msgs        Msgs
	MinItems    *int
	MaxItems    *int
	UniqueItems bool
}

// List checks an array and each of its items.
func List[T any](item Parser[T], spec ListSpec) Parser[[]T] {
	return func(v any, c *Context) ([]T, bool) {
		items, ok := v.([]any)
		if !ok {
			c.Error(spec.Msgs["type"], "type", v)
			return nil, false
		}
		mark := c.Mark()
		if spec.MinItems != nil && len(items) < *spec.MinItems {
			c.Error(spec.Msgs["minItems"], "minItems", v)
		}
		if spec.MaxItems != nil && len(items) > *spec.MaxItems {
			c.Error(spec.Msgs["maxItems"], "maxItems", v)
		}
		if spec.UniqueItems && !unique(items, len(c.path)+1) {
			c.Error(spec.Msgs["uniqueItems"], "uniqueItems", v)
		}
		out := make([]T, len(items))
		for i, x := range items {
			out[i], _ = Index(c, i, x, item)
		}
		return out, !c.FailedSince(mark)
	}
}

// Map checks an object whose values all have one type.
func Map[T any](value Parser[T], msgs Msgs) Parser[map[string]T] {
	return func(v any, c *Context) (map[string]T, bool) {
		obj, ok := v.(*Object)
		if !ok {
			c.Error(msgs["type"], "type", v)
			return nil, false
		}
		mark := c.Mark()
		out := make(map[string]T, len(obj.keys))
		for i, k := range obj.keys {
			out[k], _ = Key(c, k, obj.vals[i], value)
		}
		return out, !c.FailedSince(mark)
	}
}

// JSONKind names the JSON kind of a tree value as Python's runtime does:
// integer literals (any size) and integral finite floats are "integer".
func JSONKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case *Object:
		return "object"
	case int64:
		return "integer"
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			return "integer"
		}
		f, err := strconv.ParseFloat(string(x), 64)
		if (err == nil || !math.IsInf(f, 0)) && f == math.Trunc(f) {
			return "integer"
		}
		return "number"
	case float64:
		if !math.IsInf(x, 0) && x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	}
	return "unknown"
}

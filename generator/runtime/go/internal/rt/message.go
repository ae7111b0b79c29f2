package rt

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// expand fills a spec message's placeholders: {index} (the nearest array index),
// {field} and {value}. One pass: substituted text is never expanded again, and
// "{{" is a literal "{".
func expand(template, index, field string, value any) string {
	if !strings.Contains(template, "{") {
		return template
	}
	return strings.NewReplacer("{{", "{", "{index}", index, "{field}", field, "{value}", show(value)).Replace(template)
}

// show renders a value for {value} the way the Python runtime does.
func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		if x {
			return "true"
		}
		return "false"
	case json.Number:
		return showNumber(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return showFloat(x)
	case []any:
		return "array" // a container by its JSON type's name, never its text
	case *Object:
		return "object"
	}
	return "value"
}

// showNumber writes a JSON number as Python shows the value json.loads makes of it:
// integers exactly, other numbers as floats (out of range: Infinity).
func showNumber(n json.Number) string {
	text := string(n)
	if !strings.ContainsAny(text, ".eE") {
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		return text
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if f > 0 {
			return "Infinity"
		}
		return "-Infinity"
	}
	return showFloat(f)
}

// showFloat writes a float the way Python's repr does (1.0, 1e+16, 1e-05).
func showFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(sci[strings.IndexByte(sci, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return sci
	}
	text := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(text, ".") {
		text += ".0"
	}
	return text
}

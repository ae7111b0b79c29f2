package rt

import (
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
)

// unique reports whether no two items are equal JSON values; depth is how deep
// the items sit below the document root.
func unique(items []any, depth int) bool {
	seen := make(map[string]struct{}, len(items))
	fresh := 0
	for _, item := range items {
		key := sameKey(item, depth, &fresh)
		if _, dup := seen[key]; dup {
			return false
		}
		seen[key] = struct{}{}
	}
	return true
}

// sameKey is a text equal for equal JSON values: numbers compare by value, as
// JSON Schema says (1, 1.0 and 1e0 are one value; so are 0 and -0), and object
// keys are sorted. A value more than MaxDepth levels deep is refused anyway and
// is its own key, as in the Python runtime.
func sameKey(v any, depth int, fresh *int) string {
	if depth > MaxDepth {
		*fresh++
		return "deep " + strconv.Itoa(*fresh)
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return strconv.Quote(x)
	case json.Number:
		text := string(x)
		if !strings.ContainsAny(text, ".eE") {
			return "n" + NumberKey(text)
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && math.IsInf(f, 0) {
			return "n" + showFloat(f)
		}
		return "n" + floatKey(f)
	case int64:
		return "n" + NumberKey(strconv.FormatInt(x, 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "n" + showFloat(x)
		}
		return "n" + floatKey(x)
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			parts[i] = sameKey(item, depth+1, fresh)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *Object:
		order := make([]int, len(x.keys))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(a, b int) bool { return x.keys[order[a]] < x.keys[order[b]] })
		parts := make([]string, len(order))
		for i, at := range order {
			parts[i] = strconv.Quote(x.keys[at]) + ":" + sameKey(x.vals[at], depth+1, fresh)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	*fresh++
	return "other " + strconv.Itoa(*fresh)
}

// NumberKey reduces a JSON number's text to sign, significant digits and
// exponent: 1, 1.0, 1e0 and 10E-1 all give "1e0", and -0 gives "0".
func NumberKey(text string) string {
	sign := ""
	if strings.HasPrefix(text, "-") {
		sign, text = "-", text[1:]
	}
	mantissa, exponent, _ := strings.Cut(strings.ToLower(text), "e")
	whole, fraction, _ := strings.Cut(mantissa, ".")
	digits := strings.TrimLeft(whole+fraction, "0")
	if digits == "" {
		return "0"
	}
	significant := strings.TrimRight(digits, "0")
	exp := 0
	if exponent != "" {
		n, err := strconv.Atoi(exponent)
		if err != nil {
			return sign + significant + "e" + exponent // beyond int: compared as written
		}
		exp = n
	}
	return sign + significant + "e" + strconv.Itoa(exp-len(fraction)+len(digits)-len(significant))
}

// floatKey is a finite float's NumberKey: a whole number keyed by its exact value, as an integer
// is (2^57 written 144115188075855872.0 is 144115188075855872, not its shortest form
// 1.4411518807585587e+17), any other float by its shortest form, as Python's repr writes it.
func floatKey(f float64) string {
	if f == math.Trunc(f) {
		return NumberKey(strconv.FormatFloat(f, 'f', 0, 64))
	}
	return NumberKey(strconv.FormatFloat(f, 'g', -1, 64))
}

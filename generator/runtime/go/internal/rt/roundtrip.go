package rt

import (
	"errors"
	"reflect"
	"strconv"
	"time"
)

// What every package's fuzz target checks of a document it accepted: these live
// here once instead of in each package's fuzz_test.go.

// TimeRefusesRFC3339 reports whether err (from encoding/json reading what a package
// wrote) is time.Time refusing a date-time ParseTime accepts: RFC 3339 allows a
// lowercase t and z, which the Parse functions keep and write back, and time.Time's
// UnmarshalJSON refuses (documented: plain json.Unmarshal is not the reader for such
// text). Any other error is a real failure.
func TimeRefusesRFC3339(err error) bool {
	var refused *time.ParseError
	if !errors.As(err, &refused) {
		return false
	}
	_, accepted := ParseTime(refused.Value)
	return accepted
}

// OnlyZeroTimes reports whether every path (JSON pointers of the problems
// Validate found) holds, in the input data, a date-time that denotes Go's zero
// time (0001-01-01T00:00:00Z): parsed, it reads as unset, the one documented
// difference between Parse and Validate. Any other value is a real failure.
func OnlyZeroTimes(data []byte, paths []string) bool {
	tree, err := Decode(data)
	if err != nil || len(paths) == 0 {
		return false
	}
	for _, path := range paths {
		tokens, ok := pointerTokens(path)
		if !ok {
			return false
		}
		v, ok := Resolve(tree, tokens)
		text, isString := v.(string)
		if !ok || !isString {
			return false
		}
		if at, ok := ParseTime(text); !ok || !at.IsZero() {
			return false
		}
	}
	return true
}

// pointerTokens splits a JSON pointer ("/a/0/b~1c") into its unescaped tokens.
func pointerTokens(path string) ([]string, bool) {
	if path == "" {
		return nil, true
	}
	if path[0] != '/' {
		return nil, false
	}
	var tokens []string
	start := 1
	for i := 1; i <= len(path); i++ {
		if i == len(path) || path[i] == '/' {
			token := []byte{}
			for j := start; j < i; j++ {
				if path[j] == '~' && j+1 < i && (path[j+1] == '0' || path[j+1] == '1') {
					token = append(token, "~/"[path[j+1]-'0'])
					j++
					continue
				}
				token = append(token, path[j])
			}
			tokens = append(tokens, string(token))
			start = i + 1
		}
	}
	return tokens, true
}

var timeType = reflect.TypeOf(time.Time{})

// SameValue reports whether two parsed documents hold the same values in their
// exported fields (date-times by instant and offset), and where they differ.
func SameValue(a, b reflect.Value, where string) (string, bool) {
	if !a.IsValid() || !b.IsValid() { // a nil interface (a JSON value that is null) has no type
		return where, a.IsValid() == b.IsValid()
	}
	if a.Type() == timeType {
		ta, tb := a.Interface().(time.Time), b.Interface().(time.Time)
		_, oa := ta.Zone()
		_, ob := tb.Zone()
		return where, ta.Equal(tb) && oa == ob
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return where, a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Interface {
			return where, reflect.DeepEqual(a.Interface(), b.Interface())
		}
		return SameValue(a.Elem(), b.Elem(), where)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			if at, ok := SameValue(a.Field(i), b.Field(i), where+"."+a.Type().Field(i).Name); !ok {
				return at, false
			}
		}
		return "", true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return where, false
		}
		for i := 0; i < a.Len(); i++ {
			if at, ok := SameValue(a.Index(i), b.Index(i), where+"["+strconv.Itoa(i)+"]"); !ok {
				return at, false
			}
		}
		return "", true
	case reflect.Map:
		if a.Len() != b.Len() {
			return where, false
		}
		for _, key := range a.MapKeys() {
			other := b.MapIndex(key)
			if !other.IsValid() {
				return where, false
			}
			if at, ok := SameValue(a.MapIndex(key), other, where+"["+strconv.Quote(key.String())+"]"); !ok {
				return at, false
			}
		}
		return "", true
	}
	return where, reflect.DeepEqual(a.Interface(), b.Interface())
}

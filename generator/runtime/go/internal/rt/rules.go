package rt

import (
	"reflect"
	"strconv"
)

// Resolve follows JSON pointer tokens into a tree value.
func Resolve(v any, pointer []string) (any, bool) {
	for _, token := range pointer {
		switch x := v.(type) {
		case *Object:
			next, ok := x.Get(token)
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(x) || token[0] == '+' || token[0] == '-' {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func whenHolds(obj *Object, field string, pointer []string, equals string) bool {
	v, ok := obj.Get(field)
	if !ok {
		return false
	}
	found, ok := Resolve(v, pointer)
	s, isString := found.(string)
	return ok && isString && s == equals
}

// listAt returns the array under field, if that is what field holds.
func listAt(obj *Object, field string) ([]any, bool) {
	v, _ := obj.Get(field)
	items, ok := v.([]any)
	return items, ok
}

func present(obj *Object, field string) bool {
	v, ok := obj.Get(field)
	return ok && v != nil
}

// stringOf is the string a field holds: a string, an enum's named string type (Role), or a
// pointer to either (an optional field); false for anything else or a nil pointer.
func stringOf(value any) (string, bool) {
	switch v := value.(type) {
	case string:
		return v, true
	case *string:
		if v != nil {
			return *v, true
		}
		return "", false
	}
	rv := reflect.ValueOf(value)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() == reflect.String {
		return rv.String(), true
	}
	return "", false
}

// FieldValue is the value of key in obj if it is a JSON string, else nil; otherwise where obj has
// none (the field's default): what RuleMemberOf judges of a union field, whose struct holds a
// string in a variant. (A JSON number in the tree is a named string type stringOf would take.)
func FieldValue(obj *Object, key string, otherwise any) any {
	v, ok := obj.Get(key)
	if !ok {
		return otherwise
	}
	if s, isString := v.(string); isString {
		return s
	}
	return nil
}

// RuleMemberOf: the string value of field must be an item of the array found
// up levels above and then down the pointer. value is a field's value (see stringOf).
func RuleMemberOf(c *Context, field string, value any, usable bool, up int, pointer []string, message string) {
	s, ok := stringOf(value)
	if !usable || !ok {
		return
	}
	base, ok := c.Ancestor(up)
	if !ok {
		return
	}
	pool, ok := Resolve(base, pointer)
	items, isList := pool.([]any)
	if !ok || !isList {
		return
	}
	members := c.members(items) // a set built once per document, not a scan per check
	if members == nil {
		return // a list of non-strings is judged elsewhere
	}
	if _, found := members[s]; found {
		return // a member is never a problem: the common case, decided first
	}
	if c.FailedAt(up, pointer) {
		return // the list itself is wrong; that is reported where it is
	}
	c.Error(message, "member_of", s, field)
}

// RuleRequiredWhen: field must be present (and not null) when the when-field,
// at its pointer, equals a value.
func RuleRequiredWhen(c *Context, obj *Object, field, whenField string, whenPointer []string, equals, message string, usable bool) {
	if !usable || !whenHolds(obj, whenField, whenPointer, equals) {
		return
	}
	if !present(obj, field) {
		c.Error(message, "required_when", nil, field)
	}
}

// RuleAtLeastOneOf: at least one of fields must be present and not null.
func RuleAtLeastOneOf(c *Context, obj *Object, fields []string, message string) {
	for _, f := range fields {
		if present(obj, f) {
			return
		}
	}
	c.Error(message, "at_least_one_of", nil)
}

// RuleAllowedWhen: when the when-field equals a value, each item of field
// (at the each pointer) must be one of allowed.
func RuleAllowedWhen(c *Context, obj *Object, field string, each []string, whenField string, whenPointer []string, equals string, allowed []string, message string, usable bool) {
	items, isList := listAt(obj, field)
	if !usable || !isList || !whenHolds(obj, whenField, whenPointer, equals) {
		return
	}
	for i, item := range items {
		found, ok := Resolve(item, each)
		if !ok {
			continue
		}
		if s, isString := found.(string); isString && contains(allowed, s) {
			continue
		}
		c.Error(message, "allowed_when", found, append([]string{field, strconv.Itoa(i)}, each...)...)
	}
}

// RuleContains: at least one item of field must have equals at the each pointer.
func RuleContains(c *Context, obj *Object, field string, each []string, equals, message string, usable bool) {
	items, isList := listAt(obj, field)
	if !usable || !isList {
		return
	}
	for _, item := range items {
		if found, ok := Resolve(item, each); ok {
			if s, isString := found.(string); isString && s == equals {
				return
			}
		}
	}
	c.Error(message, "contains", nil, field)
}

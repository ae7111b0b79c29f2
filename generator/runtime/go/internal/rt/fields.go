package rt

// Msgs maps a check keyword (e.g. "type", "minLength") to its message template.
type Msgs map[string]string

// Keys is the set of an object's known keys.
type Keys map[string]struct{}

// KeySet builds a Keys.
func KeySet(keys ...string) Keys {
	out := make(Keys, len(keys))
	for _, k := range keys {
		out[k] = struct{}{}
	}
	return out
}

// ExpectObject returns the value as an object, or records the type problem.
func ExpectObject(c *Context, v any, message string) (*Object, bool) {
	obj, ok := v.(*Object)
	if !ok {
		c.Error(message, "type", v)
	}
	return obj, ok
}

// Required parses a key that must be present and not null.
func Required[T any](c *Context, obj *Object, key string, p Parser[T], message string) (T, bool) {
	v, present := obj.Get(key)
	if !present || v == nil {
		c.Error(message, "required", nil, key)
		var zero T
		return zero, false
	}
	return Key(c, key, v, p)
}

// RequiredOrNull parses a key that must be present and may be null (p handles null).
func RequiredOrNull[T any](c *Context, obj *Object, key string, p Parser[T], message string) (T, bool) {
	v, present := obj.Get(key)
	if !present {
		c.Error(message, "required", nil, key)
		var zero T
		return zero, false
	}
	return Key(c, key, v, p)
}

// Optional parses a key that may be absent (the zero value then).
func Optional[T any](c *Context, obj *Object, key string, p Parser[T]) (T, bool) {
	v, present := obj.Get(key)
	if !present {
		var zero T
		return zero, true
	}
	return Key(c, key, v, p)
}

// OptionalPtr parses a key that may be absent (nil then).
func OptionalPtr[T any](c *Context, obj *Object, key string, p Parser[T]) (*T, bool) {
	v, present := obj.Get(key)
	if !present {
		return nil, true
	}
	out, ok := Key(c, key, v, p)
	return &out, ok
}

// OptionalDefault parses a key that takes a default when absent.
func OptionalDefault[T any](c *Context, obj *Object, key string, p Parser[T], def func() T) (T, bool) {
	v, present := obj.Get(key)
	if !present {
		return def(), true
	}
	return Key(c, key, v, p)
}

// unknownValue reads a property an open model's fields do not name: JSON Schema lets it hold
// any value, held to the input policy of a free-form value (depth, numbers).
var unknownValue = AnyJSON(Msgs{"type": "must be a JSON value"})

// KeepUnknown returns the properties of an open model's object that its fields do not
// name (nil when there are none), each checked as a free-form value at its own pointer,
// so that MarshalJSON writes them back.
func KeepUnknown(c *Context, obj *Object, known Keys) map[string]any {
	var out map[string]any
	for i, key := range obj.keys {
		if _, ok := known[key]; ok {
			continue
		}
		v, ok := Key(c, key, obj.vals[i], unknownValue)
		if !ok {
			continue
		}
		if out == nil {
			out = make(map[string]any)
		}
		out[key] = v
	}
	return out
}

// KeepUnknownVariant reads the object of an open union whose tag no variant has (one a later
// version adds): every property is any JSON value, held to the input policy of a free-form value.
// Each property is read at its own pointer, as an open model's other properties are.
func KeepUnknownVariant(c *Context, obj *Object) (map[string]any, bool) {
	mark := c.Mark()
	kept := KeepUnknown(c, obj, Keys{})
	return kept, !c.FailedSince(mark)
}

// SetUnknown writes an open model's additional properties into its tree after its fields,
// in key order (AnyTree's, encoding/json's order for a map); one named like a field replaces it.
func SetUnknown(o *Object, extra map[string]any) {
	if len(extra) == 0 {
		return
	}
	kept := AnyTree(extra).(*Object)
	for i, k := range kept.keys {
		o.Set(k, kept.vals[i])
	}
}

// RejectUnknown records every key the model does not define, in document order.
func RejectUnknown(c *Context, obj *Object, known Keys, message string) {
	for i, key := range obj.keys {
		if _, ok := known[key]; !ok {
			c.Error(message, "additionalProperties", obj.vals[i], key)
		}
	}
}

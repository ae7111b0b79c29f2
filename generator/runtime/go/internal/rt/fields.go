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

// RejectUnknown records every key the model does not define, in document order.
func RejectUnknown(c *Context, obj *Object, known Keys, message string) {
	for i, key := range obj.keys {
		if _, ok := known[key]; !ok {
			c.Error(message, "additionalProperties", obj.vals[i], key)
		}
	}
}

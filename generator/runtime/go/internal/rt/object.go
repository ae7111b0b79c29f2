package rt

// Object is a decoded JSON object that keeps its keys in document order,
// so problems are reported in the order a reader sees them.
type Object struct {
	keys   []string
	values map[string]any
}

// NewObject returns an empty object.
func NewObject() *Object {
	return &Object{values: map[string]any{}}
}

// Set adds or replaces a member; a replaced key keeps its first position, as in Python.
func (o *Object) Set(key string, value any) {
	if _, seen := o.values[key]; !seen {
		o.keys = append(o.keys, key)
	}
	o.values[key] = value
}

// Get returns a member and whether it is present.
func (o *Object) Get(key string) (any, bool) {
	v, ok := o.values[key]
	return v, ok
}

// Keys returns the keys in document order.
func (o *Object) Keys() []string { return o.keys }

// Len returns the number of members.
func (o *Object) Len() int { return len(o.keys) }

package rt

// Object is a decoded JSON object that keeps its keys in document order,
// so problems are reported in the order a reader sees them.
//
// Members sit in two parallel slices in document order; small objects (most of
// a chat document's) are searched in place, and an index by key is built once
// an object grows past indexFrom members, so lookups stay constant-time on
// hostile, wide objects.
type Object struct {
	keys  []string
	vals  []any
	index map[string]int // nil until len(keys) > indexFrom
}

// indexFrom is the size past which an Object indexes its keys: below it a
// linear search beats hashing and saves the map's allocation.
const indexFrom = 8

// NewObject returns an empty object; its first six members need no allocation
// of their own (one allocation where up to nine would be).
func NewObject() *Object {
	s := &smallObject{}
	s.Object.keys = s.keys[:0]
	s.Object.vals = s.vals[:0]
	return &s.Object
}

// smallObject is an Object allocated together with room for its first members.
type smallObject struct {
	Object
	keys [6]string
	vals [6]any
}

// The objects a decoder makes once it knows how many members they have: one
// allocation each, about the size they need.
type (
	object2 struct {
		Object
		keys [2]string
		vals [2]any
	}
	object4 struct {
		Object
		keys [4]string
		vals [4]any
	}
	object8 struct {
		Object
		keys [8]string
		vals [8]any
	}
)

// objectFor returns an empty object with room for n members.
func objectFor(n int) *Object {
	switch {
	case n <= 2:
		o := &object2{}
		o.Object.keys, o.Object.vals = o.keys[:0], o.vals[:0]
		return &o.Object
	case n <= 4:
		o := &object4{}
		o.Object.keys, o.Object.vals = o.keys[:0], o.vals[:0]
		return &o.Object
	case n <= indexFrom:
		o := &object8{}
		o.Object.keys, o.Object.vals = o.keys[:0], o.vals[:0]
		return &o.Object
	}
	return &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

// find returns the position of key, or -1.
func (o *Object) find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range o.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Set adds or replaces a member; a replaced key keeps its first position, as in Python.
func (o *Object) Set(key string, value any) {
	if i := o.find(key); i >= 0 {
		o.vals[i] = value
		return
	}
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, value)
	switch {
	case o.index != nil:
		o.index[key] = len(o.keys) - 1
	case len(o.keys) > indexFrom:
		o.index = make(map[string]int, 2*len(o.keys))
		for i, k := range o.keys {
			o.index[k] = i
		}
	}
}

// Get returns a member and whether it is present.
func (o *Object) Get(key string) (any, bool) {
	if i := o.find(key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Keys returns the keys in document order.
func (o *Object) Keys() []string { return o.keys }

// Len returns the number of members.
func (o *Object) Len() int { return len(o.keys) }

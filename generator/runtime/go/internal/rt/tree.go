package rt

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"time"
)

// AnyTree turns a free-form Go value (e.g. a metadata entry) into a tree,
// without recursion through maps and slices, so any depth is turned. A map or
// slice that holds itself is turned as far as 1,000 levels (encoding/json looks
// for cycles from there too), then stops with a value Encode refuses.
func AnyTree(v any) any {
	type pending struct {
		source any
		set    func(any)
		depth  int
		leave  *container // a marker: the container is no longer on the path
	}
	var root any
	stack := []pending{{source: v, set: func(t any) { root = t }}}
	onPath := map[container]bool{}
	// enter puts a container deep enough to be in a cycle on the path; false when it already is.
	enter := func(p pending, at container) bool {
		if p.depth < cycleDepth {
			return true
		}
		if onPath[at] {
			p.set(unencodable{fmt.Errorf("json: unsupported value: encountered a cycle via %T", p.source)})
			return false
		}
		onPath[at] = true
		stack = append(stack, pending{leave: &at})
		return true
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.leave != nil {
			delete(onPath, *p.leave)
			continue
		}
		switch x := p.source.(type) {
		case map[string]any:
			if x == nil {
				p.set(nil)
				continue
			}
			if !enter(p, container{reflect.ValueOf(x).Pointer(), -1}) {
				continue
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys) // the order encoding/json writes a map in
			obj := NewObject()
			for _, k := range keys {
				obj.Set(k, nil)
			}
			p.set(obj)
			for i := len(keys) - 1; i >= 0; i-- {
				i := i
				stack = append(stack, pending{source: x[keys[i]], set: func(t any) { obj.vals[i] = t }, depth: p.depth + 1})
			}
		case []any:
			if x == nil {
				p.set(nil)
				continue
			}
			if !enter(p, container{reflect.ValueOf(x).Pointer(), len(x)}) {
				continue
			}
			out := make([]any, len(x))
			p.set(out)
			for i := len(x) - 1; i >= 0; i-- {
				i := i
				stack = append(stack, pending{source: x[i], set: func(t any) { out[i] = t }, depth: p.depth + 1})
			}
		case nil, bool, string, json.Number:
			p.set(x)
		default:
			data, err := json.Marshal(x)
			if err != nil {
				p.set(unencodable{err})
				continue
			}
			tree, err := decodeOrdered(data, -1)
			if err != nil {
				p.set(unencodable{err})
				continue
			}
			p.set(tree)
		}
	}
	return root
}

// cycleDepth is how deep AnyTree goes before it looks for a container holding itself.
const cycleDepth = 1000

// container is a map's or a slice's identity: where it points, and a slice's length (-1 for a map).
type container struct {
	at  uintptr
	len int
}

// plain turns a tree into the values encoding/json produces with UseNumber:
// map[string]any, []any, json.Number, string, bool, nil.
func plain(v any) any {
	switch x := v.(type) {
	case *Object:
		out := make(map[string]any, len(x.keys))
		for i, k := range x.keys {
			out[k] = plain(x.vals[i])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = plain(item)
		}
		return out
	case int64:
		return json.Number(strconv.FormatInt(x, 10))
	case float64:
		return json.Number(strconv.FormatFloat(x, 'g', -1, 64))
	}
	return v
}

// TreeList turns a slice into a tree array; a nil slice is the empty array, as it
// is in Go (encoding/json would write null, which a field typed as an array refuses).
func TreeList[T any](xs []T, f func(T) any) any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// TreeNullList is TreeList where null is a value of the type: a nil slice is null.
func TreeNullList[T any](xs []T, f func(T) any) any {
	if xs == nil {
		return nil
	}
	return TreeList(xs, f)
}

// TreeMap turns a map into a tree object with sorted keys; a nil map is the empty
// object, as it is in Go.
func TreeMap[T any](m map[string]T, f func(T) any) any {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := NewObject()
	for _, k := range keys {
		out.Set(k, f(m[k]))
	}
	return out
}

// TreeNullMap is TreeMap where null is a value of the type: a nil map is null.
func TreeNullMap[T any](m map[string]T, f func(T) any) any {
	if m == nil {
		return nil
	}
	return TreeMap(m, f)
}

// Same is the tree form of a string, number or boolean: the value itself.
func Same[T any](x T) any { return x }

// EnumTree is the tree form of an enumeration value: its string.
func EnumTree[T ~string](x T) any { return string(x) }

// TimeTree is the tree form of a date-time: its RFC 3339 text.
func TimeTree(t time.Time) any { return FormatTime(t) }

// TreePtr turns a pointer into a tree value (nil: JSON null).
func TreePtr[T any](p *T, f func(T) any) any {
	if p == nil {
		return nil
	}
	return f(*p)
}

package rt

import (
	"strconv"
	"strings"
	"sync"
)

// segment is one step of a path: an object key, or an array index when index >= 0.
type segment struct {
	key   string
	index int
}

// Context is the state of one validation run: problems so far, the path, and
// the values above the one being parsed (rules with relative pointers look there).
type Context struct {
	errors []ErrorDetail // the first MaxErrors problems; the rest are only counted
	count  int           // every problem, listed or not
	// failed holds the pointers of the lists of strings (the only member_of pools) that
	// hold a problem: all FailedAt needs to know.
	failed map[string]struct{}
	path   []segment
	values []any
	pools  map[*any]map[string]struct{}
	// Room for the path and the values above it down to a depth most documents
	// stay within, allocated with the Context.
	pathRoom   [24]segment
	valuesRoom [25]any
}

// NewContext starts a run over a whole document.
func NewContext(root any) *Context {
	return new(Context).start(root)
}

func (c *Context) start(root any) *Context {
	c.path = c.pathRoom[:0]
	c.values = append(c.valuesRoom[:0], root)
	return c
}

// contexts holds the Contexts of runs that found no problem, for Build to reuse:
// a run then costs no allocation of its own.
var contexts = sync.Pool{New: func() any { return new(Context) }}

// release returns a Context to the pool unless its problems were handed out,
// forgetting every value of the run (the pool keeps no document alive).
func (c *Context) release() {
	if c.count > 0 {
		return
	}
	*c = Context{}
	contexts.Put(c)
}

// Mark returns a position to compare against with FailedSince.
func (c *Context) Mark() int { return c.count }

// FailedSince reports whether a problem was recorded after mark.
func (c *Context) FailedSince(mark int) bool { return c.count > mark }

// Errors returns the problems to report: the first MaxErrors, then one entry
// counting the rest.
func (c *Context) Errors() []ErrorDetail {
	if c.count <= len(c.errors) {
		return c.errors
	}
	more := ErrorDetail{Message: MoreMessage(c.count - len(c.errors)), Keyword: "limit"}
	return append(c.errors[:len(c.errors):len(c.errors)], more)
}

func escape(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

func (c *Context) pointer(below []string) string {
	var b strings.Builder
	for _, s := range c.path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(escape(s.key))
		}
	}
	for _, k := range below {
		b.WriteByte('/')
		b.WriteString(escape(k))
	}
	return b.String()
}

// Error records a problem at the current path, or below it at the given keys.
// The template's {index} is the nearest array index, {field} the first key
// below (or the nearest key above), {value} the offending value.
func (c *Context) Error(template, keyword string, value any, below ...string) {
	if len(below) > 0 {
		// A problem at a value below the one being parsed (a missing field, a rule's
		// field, a value too deep) is at that list, if it is one, for FailedAt.
		if v, ok := Resolve(c.values[len(c.values)-1], below); ok {
			c.failedList(v, below)
		}
	}
	if len(c.errors) >= MaxErrors {
		c.count++ // counted, not kept: neither pointer nor message is built
		return
	}
	index, field := "", ""
	for i := len(c.path) - 1; i >= 0; i-- {
		if c.path[i].index >= 0 {
			index = strconv.Itoa(c.path[i].index)
			break
		}
	}
	if len(below) > 0 {
		field = below[0]
	} else {
		for i := len(c.path) - 1; i >= 0; i-- {
			if c.path[i].index < 0 {
				field = c.path[i].key
				break
			}
		}
	}
	c.count++
	c.errors = append(c.errors, ErrorDetail{Path: c.pointer(below), Message: expand(template, index, field, value), Keyword: keyword})
}

// FailedAt reports whether a problem was recorded at or below the list of strings
// found by going up levels and then down the pointer tokens (RuleMemberOf asks only of
// such a list, which never holds the value being parsed).
func (c *Context) FailedAt(up int, pointer []string) bool {
	if c.count == 0 || len(c.failed) == 0 {
		return false
	}
	saved := c.path
	if up <= len(c.path) {
		c.path = c.path[:len(c.path)-up]
	}
	prefix := c.pointer(pointer)
	c.path = saved
	_, found := c.failed[prefix]
	return found
}

// failedList notes for FailedAt that a problem is at or below v (at the path, then
// below), when v is a list of strings: a member_of pool. (A problem below such a list
// is at one of its strings, recorded while the list is walked.)
func (c *Context) failedList(v any, below []string) {
	items, ok := v.([]any)
	if !ok {
		return
	}
	for _, item := range items {
		if _, isString := item.(string); !isString {
			return
		}
	}
	if c.failed == nil {
		c.failed = map[string]struct{}{}
	}
	c.failed[c.pointer(below)] = struct{}{}
}

// members returns the items of a list as a set (nil if one is not a string),
// built once per run: member_of checks cost O(1), not a scan of the list.
func (c *Context) members(items []any) map[string]struct{} {
	if len(items) == 0 {
		return map[string]struct{}{}
	}
	if set, ok := c.pools[&items[0]]; ok {
		return set
	}
	set := make(map[string]struct{}, len(items))
	for _, item := range items {
		s, ok := item.(string)
		if !ok {
			set = nil
			break
		}
		set[s] = struct{}{}
	}
	if c.pools == nil {
		c.pools = map[*any]map[string]struct{}{}
	}
	c.pools[&items[0]] = set
	return set
}

// Ancestor returns the value up levels above the one being parsed (0 = itself).
func (c *Context) Ancestor(up int) (any, bool) {
	if up >= len(c.values) {
		return nil, false
	}
	return c.values[len(c.values)-1-up], true
}

// Parser checks a tree value and builds its Go value; ok is false when it recorded a problem.
type Parser[T any] func(v any, c *Context) (T, bool)

// Key parses the value under an object key.
func Key[T any](c *Context, key string, v any, p Parser[T]) (T, bool) {
	if len(c.path) >= MaxDepth {
		c.Error(depthMessage, "depth", nil, key)
		var zero T
		return zero, false
	}
	c.path = append(c.path, segment{key: key, index: -1})
	c.values = append(c.values, v)
	mark := c.count
	out, ok := p(v, c)
	if c.count != mark {
		c.failedList(v, nil) // every problem since mark is at or below v
	}
	c.path = c.path[:len(c.path)-1]
	c.values = c.values[:len(c.values)-1]
	return out, ok
}

// Index parses the value at an array index.
func Index[T any](c *Context, i int, v any, p Parser[T]) (T, bool) {
	if len(c.path) >= MaxDepth {
		c.Error(depthMessage, "depth", nil, strconv.Itoa(i))
		var zero T
		return zero, false
	}
	c.path = append(c.path, segment{index: i})
	c.values = append(c.values, v)
	mark := c.count
	out, ok := p(v, c)
	if c.count != mark {
		c.failedList(v, nil) // every problem since mark is at or below v
	}
	c.path = c.path[:len(c.path)-1]
	c.values = c.values[:len(c.values)-1]
	return out, ok
}

// Build runs a parser over a whole tree: the value, or a *ValidationError.
func Build[T any](tree any, p Parser[T]) (T, error) {
	c := contexts.Get().(*Context).start(tree)
	out, _ := p(tree, c)
	if c.count > 0 {
		var zero T
		return zero, &ValidationError{Errors: c.Errors()}
	}
	c.release()
	return out, nil
}

// Check runs a parser over a tree for its verdict only.
func Check[T any](tree any, p Parser[T]) error {
	_, err := Build(tree, p)
	return err
}

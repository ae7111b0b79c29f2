package rt

import (
	"reflect"
	"sync"
)

// Items gathers a JSON array's items for a direct reader, before their count is
// known: the first four in a list of their own, as most arrays are short; past four,
// in a list a Scratch lends, made room for as many items as the text left could hold
// at the rate the first four took (a long array is most of its document), and grown
// by doubling if that was too few. Growing by doubling from the start instead
// allocates and copies 508 items' room for 200.
type Items[T any] struct {
	list     []T
	lent     *[]T
	start    int // where the first item began in the text
	reserved int // the bytes of room made for items guessed (expect), given back by Done
}

// Add appends a zero item and returns it, for the reader to read in place; s is the
// scanner reading the item, at its start.
func (it *Items[T]) Add(pool *Scratch[T], s *Scanner) *T {
	switch {
	case it.lent != nil:
		var zero T
		*it.lent = append(*it.lent, zero)
		return &(*it.lent)[len(*it.lent)-1]
	case len(it.list) < cap(it.list):
		it.list = it.list[:len(it.list)+1]
	case it.list == nil:
		it.start = s.pos
		it.list = make([]T, 1, 4)
	default:
		var zero T
		it.lent = pool.get(it.expect(s))
		*it.lent = append(append(*it.lent, it.list...), zero)
		return &(*it.lent)[len(*it.lent)-1]
	}
	return &it.list[len(it.list)-1]
}

// expect guesses how many items the array holds: those read, and as many more as the
// text left holds at the bytes per item they took. The room made for guessed items
// comes out of the scanner's, the text's length in all, until Done: arrays being read
// at once (nested) never make room for more than the text, and past that, lists grow
// by doubling.
func (it *Items[T]) expect(s *Scanner) int {
	n := len(it.list)
	more := (len(s.data) - s.pos) / max((s.pos-it.start)/n, 1)
	if size := int(reflect.TypeOf((*T)(nil)).Elem().Size()); size > 0 {
		more = min(more, s.room/size)
		it.reserved = more * size
		s.room -= it.reserved
	}
	return n + 1 + more
}

// Done returns the items (never nil: an empty array is an empty list), gives the loan
// back, and the room it made to s. A reader that gives up need not call it: the loan
// is then garbage.
func (it *Items[T]) Done(pool *Scratch[T], s *Scanner) []T {
	switch {
	case it.lent != nil:
		s.room += it.reserved
		return pool.keep(it.lent)
	case it.list == nil:
		return []T{}
	}
	return it.list
}

// Scratch is the pool of lists Items borrows for one item type.
type Scratch[T any] struct{ pool sync.Pool }

// get lends an empty list with room for n items, or for half as many: one the pool
// holds is kept unless it has less than half the room asked for (appending past its
// room then grows it by doubling). Guesses that each ask a little more than the one
// before (sibling arrays of one item type, the text padded to raise each array's
// guess) thus reuse one list; a new one is made only for twice the room, so the lists
// made and dropped add up to at most twice the largest.
func (s *Scratch[T]) get(n int) *[]T {
	if lent, ok := s.pool.Get().(*[]T); ok && 2*cap(*lent) >= n {
		return lent
	}
	fresh := make([]T, 0, max(n, 16))
	return &fresh
}

// keep returns the items. A loan they nearly fill becomes their list (and the pool
// lends a fresh one next); else they are copied into a list of their own, exactly as
// long, and the loan goes back, cleared so that the pool holds no item's strings or
// pointers alive.
func (s *Scratch[T]) keep(lent *[]T) []T {
	items := *lent
	if len(items) >= cap(items)-cap(items)/8 {
		return items[:len(items):len(items)]
	}
	out := make([]T, len(items))
	copy(out, items)
	clear(items)
	*lent = items[:0]
	s.pool.Put(lent)
	return out
}

package rt

import "sync"

// Items gathers a JSON array's items for a direct reader, before their count is
// known: the first four in a list of their own, as most arrays are short; past four,
// in a list a Scratch lends, copied once at the end into a list of exactly their
// count. Growing by doubling instead allocates and copies 508 items for 200 (and
// leaves 56 unused); the copy and the loan cost less than that.
type Items[T any] struct {
	list []T
	lent *[]T
}

// Add appends a zero item and returns it, for the reader to read in place.
func (it *Items[T]) Add(pool *Scratch[T]) *T {
	switch {
	case it.lent != nil:
		var zero T
		*it.lent = append(*it.lent, zero)
		return &(*it.lent)[len(*it.lent)-1]
	case len(it.list) < cap(it.list):
		it.list = it.list[:len(it.list)+1]
	case it.list == nil:
		it.list = make([]T, 1, 4)
	default:
		var zero T
		it.lent = pool.get()
		*it.lent = append(append(*it.lent, it.list...), zero)
		return &(*it.lent)[len(*it.lent)-1]
	}
	return &it.list[len(it.list)-1]
}

// Done returns the items (never nil: an empty array is an empty list) and gives the
// loan back. A reader that gives up need not call it: the loan is then garbage.
func (it *Items[T]) Done(pool *Scratch[T]) []T {
	switch {
	case it.lent != nil:
		return pool.keep(it.lent)
	case it.list == nil:
		return []T{}
	}
	return it.list
}

// Scratch is the pool of lists Items borrows for one item type.
type Scratch[T any] struct{ pool sync.Pool }

func (s *Scratch[T]) get() *[]T {
	if lent, ok := s.pool.Get().(*[]T); ok {
		return lent
	}
	fresh := make([]T, 0, 16)
	return &fresh
}

// keep copies the items into a list of their own, exactly as long, and takes the loan
// back, cleared so that the pool holds no item's strings or pointers alive.
func (s *Scratch[T]) keep(lent *[]T) []T {
	out := make([]T, len(*lent))
	copy(out, *lent)
	clear(*lent)
	*lent = (*lent)[:0]
	s.pool.Put(lent)
	return out
}

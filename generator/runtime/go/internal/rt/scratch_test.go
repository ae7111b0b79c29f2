package rt

import (
	"reflect"
	"strconv"
	"testing"
)

type scratchItem struct {
	Name string
	Tags []string
}

// gather reads n items through Items, as a direct reader does: some set through the
// pointer Add returns after later ones were added (a struct read in place).
func gather(n int, pool *Scratch[scratchItem]) []scratchItem {
	var items Items[scratchItem]
	for i := 0; i < n; i++ {
		item := items.Add(pool)
		item.Name = strconv.Itoa(i)
		item.Tags = []string{item.Name}
	}
	return items.Done(pool)
}

func TestItemsKeepsEveryItemInOrderInAListOfItsOwn(t *testing.T) {
	var pool Scratch[scratchItem]
	var kept [][]scratchItem
	for n := 0; n <= 70; n++ {
		got := gather(n, &pool)
		if got == nil || len(got) != n {
			t.Fatalf("%d items: got %d (nil %v)", n, len(got), got == nil)
		}
		if n > 4 && cap(got) != n {
			t.Errorf("%d items kept with room for %d", n, cap(got))
		}
		for i, item := range got {
			if want := strconv.Itoa(i); item.Name != want || !reflect.DeepEqual(item.Tags, []string{want}) {
				t.Fatalf("%d items: item %d is %+v", n, i, item)
			}
		}
		kept = append(kept, got)
	}
	// Lists handed out earlier share nothing with the pool's later loans.
	for n, got := range kept {
		for i, item := range got {
			if item.Name != strconv.Itoa(i) {
				t.Fatalf("the list of %d items changed at %d after later reads: %+v", n, i, item)
			}
		}
	}
}

func TestItemsOfScalarsAndNestedLoansOfOneType(t *testing.T) {
	var pool Scratch[string]
	var outer Items[string]
	for i := 0; i < 9; i++ {
		var inner Items[string] // a list inside an item of the same type borrows its own
		for j := 0; j < 7; j++ {
			*inner.Add(&pool) = "inner"
		}
		if got := inner.Done(&pool); len(got) != 7 || got[6] != "inner" {
			t.Fatalf("inner list %v", got)
		}
		*outer.Add(&pool) = strconv.Itoa(i)
	}
	got := outer.Done(&pool)
	if want := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("outer list %v", got)
	}
}

func TestScratchGivesBackItsLoansCleared(t *testing.T) {
	var pool Scratch[scratchItem]
	gather(40, &pool)
	lent := pool.get()
	if len(*lent) != 0 {
		t.Fatalf("a loan starts with %d items", len(*lent))
	}
	for i, item := range (*lent)[:cap(*lent)] {
		if item.Name != "" || item.Tags != nil {
			t.Fatalf("the pool keeps item %d alive: %+v", i, item)
		}
	}
}

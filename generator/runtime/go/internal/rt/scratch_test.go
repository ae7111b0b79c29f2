package rt

import (
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

type scratchItem struct {
	Name string
	Tags []string
}

// gather reads n items of width bytes each through Items, as a direct reader does (the
// scanner at each item's start, the item set through the pointer Add returns) from a
// text of the given length.
func gather(n, width, length int, pool *Scratch[scratchItem]) []scratchItem {
	s, _ := NewScanner([]byte(strings.Repeat(" ", length)))
	var items Items[scratchItem]
	for i := 0; i < n; i++ {
		s.pos = 1 + i*width
		item := items.Add(pool, &s)
		item.Name = strconv.Itoa(i)
		item.Tags = []string{item.Name}
	}
	return items.Done(pool, &s)
}

func TestItemsKeepsEveryItemInOrderInAListOfItsOwn(t *testing.T) {
	var pool Scratch[scratchItem]
	var kept [][]scratchItem
	for n := 0; n <= 70; n++ {
		for _, length := range []int{n * 10, n * 40, 100000} { // the array the whole text, a quarter, a sliver
			got := gather(n, 10, length+2, &pool)
			if got == nil || len(got) != n {
				t.Fatalf("%d items: got %d (nil %v)", n, len(got), got == nil)
			}
			if n > 4 && cap(got) > n+n/8+1 {
				t.Errorf("%d items of a text of %d bytes kept with room for %d", n, length, cap(got))
			}
			for i, item := range got {
				if want := strconv.Itoa(i); item.Name != want || !reflect.DeepEqual(item.Tags, []string{want}) {
					t.Fatalf("%d items: item %d is %+v", n, i, item)
				}
			}
			kept = append(kept, got)
		}
	}
	// Lists handed out earlier share nothing with the pool's later loans.
	for _, got := range kept {
		for i, item := range got {
			if item.Name != strconv.Itoa(i) {
				t.Fatalf("a list of %d items changed at %d after later reads: %+v", len(got), i, item)
			}
		}
	}
}

func TestItemsMakesRoomForTheItemsTheTextLeftHolds(t *testing.T) {
	var pool Scratch[scratchItem]
	s, _ := NewScanner([]byte(strings.Repeat(" ", 150000)))
	var items Items[scratchItem]
	loans := map[*[]scratchItem]bool{}
	for i := 0; i < 900; i++ { // from byte 50,000, 100 bytes an item: room for about 1,000 once the fifth comes
		s.pos = 50000 + i*100
		items.Add(&pool, &s)
		if items.lent != nil {
			loans[items.lent] = true
			if cap(*items.lent) < 990 {
				t.Fatalf("item %d: room for %d", i, cap(*items.lent))
			}
		}
	}
	if len(loans) != 1 {
		t.Fatalf("%d loans for one array", len(loans))
	}
}

func TestTheRoomMadeAheadNeverPassesTheTextsLength(t *testing.T) {
	// Short arrays, each of tiny items and nested in the one before (all borrowed at once),
	// ahead of a long text: each would guess room for the whole text.
	var pool Scratch[scratchItem]
	const length = 200000
	s, _ := NewScanner([]byte(strings.Repeat(" ", length)))
	size := int(reflect.TypeOf(scratchItem{}).Size())
	ahead := 0
	for level := 0; level < 50; level++ {
		var items Items[scratchItem]
		for i := 0; i < 5; i++ {
			s.pos = level*20 + i*2
			items.Add(&pool, &s)
		}
		ahead += (cap(*items.lent) - max(5, 16)) * size
	}
	if ahead > length {
		t.Fatalf("room for %d bytes made ahead of the items, on a text of %d", ahead, length)
	}
	if s.room < 0 {
		t.Fatalf("room left %d", s.room)
	}
}

func TestAShortArrayGivesBackTheRoomItGuessedForTheLongOneAfterIt(t *testing.T) {
	// structured_conversation: eight people (ten bytes each), then 1,000 messages (100 bytes each).
	s, _ := NewScanner([]byte(strings.Repeat(" ", 100200)))
	var names Scratch[string]
	var people Items[string]
	for i := 0; i < 8; i++ {
		s.pos = 10 + i*10
		*people.Add(&names, &s) = "someone"
	}
	if s.room >= len(s.data)/2 {
		t.Fatalf("eight names of ten bytes guessed room for %d bytes of a text of %d", len(s.data)-s.room, len(s.data))
	}
	people.Done(&names, &s)
	if s.room != len(s.data) {
		t.Fatalf("room left after the short array: %d of %d", s.room, len(s.data))
	}
	var turns Scratch[scratchItem]
	var messages Items[scratchItem]
	for i := 0; i < 1000; i++ {
		s.pos = 200 + i*100
		messages.Add(&turns, &s)
	}
	if got := messages.Done(&turns, &s); len(got) != 1000 || cap(got) != 1000 {
		t.Fatalf("%d messages, room for %d", len(got), cap(got))
	}
	if s.room != len(s.data) {
		t.Fatalf("room left after both: %d of %d", s.room, len(s.data))
	}
}

func TestItemsOfScalarsAndNestedLoansOfOneType(t *testing.T) {
	var pool Scratch[string]
	s, _ := NewScanner([]byte(strings.Repeat(" ", 1000)))
	var outer Items[string]
	for i := 0; i < 9; i++ {
		s.pos = i * 100
		var inner Items[string] // a list inside an item of the same type borrows its own
		for j := 0; j < 7; j++ {
			*inner.Add(&pool, &s) = "inner"
			s.pos += 3
		}
		if got := inner.Done(&pool, &s); len(got) != 7 || got[6] != "inner" {
			t.Fatalf("inner list %v", got)
		}
		*outer.Add(&pool, &s) = strconv.Itoa(i)
	}
	got := outer.Done(&pool, &s)
	if want := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("outer list %v", got)
	}
}

func TestScratchHandsOverALoanItemsNearlyFillAndTakesBackAnyOtherCleared(t *testing.T) {
	var pool Scratch[scratchItem]
	full := pool.get(64)
	for i := 0; i < cap(*full)-cap(*full)/8; i++ {
		*full = append(*full, scratchItem{Name: "x"})
	}
	if got := pool.keep(full); &got[0] != &(*full)[0] || cap(got) != len(got) {
		t.Fatalf("a loan %d of %d full was copied (or handed over with room to spare)", len(got), cap(*full))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // one P: what the pool takes back, it lends next
	sparse := pool.get(64)
	for i := 0; i < cap(*sparse)/2; i++ {
		*sparse = append(*sparse, scratchItem{Name: "x", Tags: []string{"y"}})
	}
	got := pool.keep(sparse)
	if len(got) != cap(*sparse)/2 || cap(got) != len(got) || &got[0] == &(*sparse)[:1][0] || got[1].Name != "x" {
		t.Fatalf("a loan half full was handed over, or copied wrong: %d items, room for %d", len(got), cap(got))
	}
	lent := pool.get(0)
	if lent != sparse || len(*lent) != 0 {
		t.Fatalf("the pool did not take the loan back emptied")
	}
	for i, item := range (*lent)[:cap(*lent)] {
		if item.Name != "" || item.Tags != nil {
			t.Fatalf("the pool keeps item %d alive: %+v", i, item)
		}
	}
}

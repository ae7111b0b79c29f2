package rt

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestRunesWithinCountsCodePointsNotBytes(t *testing.T) {
	cases := []struct {
		s        string
		min, max int
		want     bool
	}{
		{"", 1, -1, false}, {"a", 1, -1, true}, {"éé", -1, 2, true}, {"ééé", -1, 2, false},
		{"é", 2, -1, false}, {"ab", 2, 2, true}, {strings.Repeat("é", 300), -1, 300, true}, {"abc", -1, -1, true},
	}
	for _, c := range cases {
		if got := RunesWithin(c.s, c.min, c.max); got != c.want {
			t.Errorf("RunesWithin(%q, %d, %d) = %v, want %v", c.s, c.min, c.max, got, c.want)
		}
	}
}

func TestTimeRoundTripsOnlyWhenParseTimeReadsFormatTimesText(t *testing.T) {
	times := []time.Time{
		time.Date(2024, 1, 15, 10, 30, 0, 5, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.FixedZone("", -23*3600-59*60)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("", 25*3600)), time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for _, x := range times {
		_, parsed := ParseTime(FormatTime(x))
		if TimeRoundTrips(x) && !parsed {
			t.Errorf("TimeRoundTrips(%v) is true but ParseTime refuses %q", x, FormatTime(x))
		}
	}
}

// RunesWithin decides from the byte length where it can; it must say what counting says,
// at every bound around a string's quarter and whole byte length, for ASCII, two-, three-
// and four-byte code points, and bytes that are not UTF-8.
func TestRunesWithinIsWhatCountingSays(t *testing.T) {
	for _, unit := range []string{"a", "é", "€", "😀", "\xff", "a😀", "€\xfe"} {
		for n := 0; n <= 5; n++ {
			s := strings.Repeat(unit, n)
			count := utf8.RuneCountInString(s)
			for min := -1; min <= len(s)+2; min++ {
				for max := -1; max <= len(s)+2; max++ {
					want := count >= min && (max < 0 || count <= max)
					if got := RunesWithin(s, min, max); got != want {
						t.Errorf("RunesWithin(%q, %d, %d) = %v, counting says %v", s, min, max, got, want)
					}
				}
			}
		}
	}
}

// TimeRoundTrips reads the year from the Unix time: it must be t.Year()'s verdict at
// the first and last second of years 1 and 9999, in UTC and at offsets either side.
func TestTimeRoundTripsIsTheYearsVerdict(t *testing.T) {
	for _, offset := range []int{0, 1, -1, 3600, -3600, 86399, -86399, 86400, -86400} {
		zone := time.FixedZone("", offset)
		for _, at := range []time.Time{
			time.Date(1, 1, 1, 0, 0, 0, 0, zone), time.Date(0, 12, 31, 23, 59, 59, 999999999, zone),
			time.Date(9999, 12, 31, 23, 59, 59, 999999999, zone), time.Date(10000, 1, 1, 0, 0, 0, 0, zone),
			time.Date(2024, 2, 29, 12, 0, 0, 0, zone), time.Date(-1, 6, 1, 0, 0, 0, 0, zone), {},
		} {
			for _, x := range []time.Time{at, at.UTC(), at.Add(time.Nanosecond), at.Add(-time.Nanosecond)} {
				year := x.Year()
				_, off := x.Zone()
				want := year >= 1 && year <= 9999 && off > -86400 && off < 86400
				if got := TimeRoundTrips(x); got != want {
					t.Errorf("TimeRoundTrips(%v) = %v, its year %d and offset %d say %v", x, got, year, off, want)
				}
			}
		}
	}
}

// Member passes over an item by its length and last byte before comparing: items that agree
// there and differ elsewhere (first byte, middle, one byte of a longer code point) must
// still be told apart, and "" found only where it is an item.
func TestMemberFindsExactlyTheItemsEqualToS(t *testing.T) {
	words := []string{"", "a", "b", "aa", "ba", "ab", "axa", "aya", "bxa", "person0", "person1", "qerson0", "é", "è", "\xff", "a\x00", "\x00a"}
	for size := 0; size <= len(words); size++ {
		for start := range words {
			var items []string
			for j := 0; j < size; j++ {
				items = append(items, words[(start+3*j)%len(words)])
			}
			set := Members(items)
			for _, s := range append(words, "c", "axb", "person2") {
				want := false
				for _, item := range items {
					want = want || item == s
				}
				if Member(items, s) != want || set.Has(s) != want {
					t.Fatalf("%q in %q: Member %v, Has %v, want %v", s, items, Member(items, s), set.Has(s), want)
				}
			}
		}
	}
}

func TestMembersAnswersLikeAScanForShortAndLongLists(t *testing.T) {
	for _, n := range []int{0, 3, 16, 17, 500} {
		items := make([]string, n)
		for i := range items {
			items[i] = "p" + strconv.Itoa(i)
		}
		set := Members(items)
		for _, s := range []string{"p0", "p" + strconv.Itoa(n-1), "p" + strconv.Itoa(n), "", "x"} {
			if set.Has(s) != Member(items, s) {
				t.Errorf("n=%d: Members(...).Has(%q) = %v, the scan says %v", n, s, set.Has(s), Member(items, s))
			}
		}
	}
}

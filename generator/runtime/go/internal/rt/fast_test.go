package rt

import (
	"strconv"
	"strings"
	"testing"
	"time"
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

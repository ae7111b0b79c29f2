package rt

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// The date-time policy: RFC 3339 with a time zone, every field in range (as Python reads it).
func TestParseTimeAcceptsExactlyRFC3339WithAZone(t *testing.T) {
	for _, text := range []string{
		"2024-02-29T23:59:59Z", "2024-01-01t00:00:00z", "2024-01-01T00:00:00.123456789+05:30",
		"0001-01-01T00:00:00Z", "9999-12-31T23:59:59-23:59", "2024-01-01T00:00:00.5Z",
	} {
		if _, ok := ParseTime(text); !ok {
			t.Errorf("refused %q", text)
		}
	}
	for _, text := range []string{
		"2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-12-31T23:59:60Z",
		"0000-01-01T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z",
		"2024-01-01T00:00:00", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+24:00",
		"2024-01-01T00:00:00+05:60", "2024-01-01T00:00:00+0530", "２０２４-01-01T00:00:00Z", "2024-1-01T00:00:00Z",
		"", "2024-01-01T00:00:00ZZ", "2O24-01-01T00:00:00Z", "2024-0a-01T00:00:00Z", "2024-01-0aT00:00:00Z",
		"2024-01-01T0a:00:00Z", "2024-01-01T00:0a:00Z", "2024-01-01T00:00:0aZ", "2024-01-01T00:00:00+0a:00",
		"2024-01-01T00:00:00-00:0a", "2024x01-01T00:00:00Z", "2024-01x01T00:00:00Z", "2024-01-01x00:00:00Z",
		"2024-01-01T00x00:00Z", "2024-01-01T00:00x00Z", "2024-01-01T00:00:0Z", "2024-01-01T00:00:00+05x30",
	} {
		if _, ok := ParseTime(text); ok {
			t.Errorf("accepted %q", text)
		}
	}
}

func TestParseTimeKeepsTheOffsetAndFormatTimeWritesZForUTC(t *testing.T) {
	at, _ := ParseTime("2024-05-06T07:08:09.25-02:30")
	if _, offset := at.Zone(); offset != -(2*3600+30*60) || at.Nanosecond() != 250000000 {
		t.Errorf("offset %d, nanoseconds %d", offset, at.Nanosecond())
	}
	if got := FormatTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)); got != "2024-01-02T03:04:05Z" {
		t.Errorf("FormatTime = %q", got)
	}
}

// A date-time read from text is written back as that text, as the Python and TypeScript
// packages write it, while it denotes the same instant at the same offset; changed in code,
// it is written in RFC 3339 with Z for UTC and the fewest fraction digits.
func TestFormatTimeWritesTheTextParseTimeReadUntilTheTimeChanges(t *testing.T) {
	for _, text := range []string{
		"2024-01-15T10:30:00Z", "2024-01-15t10:30:00z", "2024-01-15T10:30:00z", "2024-01-15t10:30:00Z",
		"2024-01-15T10:30:00-00:00", "2024-01-15T10:30:00+00:00", "2024-01-15T10:30:00.12345678901234567890Z",
		"2024-01-15T10:30:00.500Z", "2024-01-15T10:30:00.000Z", "2024-01-15T10:30:00.0+05:30", "2024-01-15T10:30:00.5+05:30",
		"2024-01-15T10:30:00.123456789-08:00", "9999-12-31T23:59:59.999999999+23:59", "0001-01-01T00:00:00.000000001-00:01",
	} {
		at, ok := ParseTime(text)
		if !ok {
			t.Fatalf("refused %q", text)
		}
		if got := FormatTime(at); got != text {
			t.Errorf("FormatTime(ParseTime(%q)) = %q", text, got)
		}
		again, _ := ParseTime(FormatTime(at))
		if !again.Equal(at) || FormatTime(again) != text {
			t.Errorf("%q: read again, %v (%q)", text, again, FormatTime(again))
		}
		want := at.Add(time.Second)
		if got := FormatTime(want); got != want.Format(time.RFC3339Nano) {
			t.Errorf("%q plus a second: %q, want %q", text, got, want.Format(time.RFC3339Nano))
		}
		if got, want := FormatTime(at.In(time.UTC)), at.In(time.UTC).Format(time.RFC3339Nano); got != want {
			t.Errorf("%q in UTC: %q, want %q", text, got, want)
		}
	}
	at, _ := ParseTime("2024-01-15T10:30:00.500Z")
	if at.Nanosecond() != 500000000 || !at.Equal(time.Date(2024, 1, 15, 10, 30, 0, 5e8, time.UTC)) {
		t.Errorf("the kept text changed the time: %v", at)
	}
	if _, offset := at.Zone(); offset != 0 {
		t.Errorf("offset %d", offset)
	}
	// A time whose Location merely has a date-time's name is written as its own instant.
	named := time.Date(2024, 1, 15, 10, 30, 0, 0, time.FixedZone("2024-01-15T10:30:01Z", 0))
	if got := FormatTime(named); got != "2024-01-15T10:30:00Z" {
		t.Errorf("FormatTime of a time named for another instant = %q", got)
	}
}

// ParseTime computes the instant itself (time.Date's normalising and zone lookup cost more
// than the rest of the read): it must be, field for field, the time.Time time.Date makes in
// the same Location, on every day of years around each kind of leap rule and at both ends of
// the range, at offsets either side of UTC, with and without a fraction. time.Date's own
// normalising (day 0 of the next month) is the oracle for which days exist.
func TestParseTimeIsTimeDateOnEveryDayAroundEveryLeapRule(t *testing.T) {
	years := []int{1, 2, 3, 4, 99, 100, 101, 399, 400, 401, 1600, 1700, 1899, 1900, 1969, 1970, 1971, 1999, 2000, 2023, 2024, 2100, 9998, 9999}
	zones := []struct {
		suffix string
		offset int
	}{{"Z", 0}, {"+05:30", 5*3600 + 30*60}, {"-23:59", -(23*3600 + 59*60)}, {"+00:00", 0}}
	for _, year := range years {
		for month := 1; month <= 12; month++ {
			last := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
			for day := 1; day <= 31; day++ {
				for i, zone := range zones {
					fraction, nanos := "", 0
					if i%2 == 1 {
						fraction, nanos = ".000000123", 123
					}
					text := fmt.Sprintf("%04d-%02d-%02dT%02d:59:07%s%s", year, month, day, (day+i)%24, fraction, zone.suffix)
					got, ok := ParseTime(text)
					if ok != (day <= last) {
						t.Fatalf("ParseTime(%q) ok = %v, but the month has %d days", text, ok, last)
					}
					if !ok {
						continue
					}
					loc := time.UTC
					if zone.suffix == "+00:00" {
						loc = time.FixedZone(text, 0)
					} else if zone.offset != 0 {
						loc = time.FixedZone("", zone.offset)
					}
					want := time.Date(year, time.Month(month), day, (day+i)%24, 59, 7, nanos, loc)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("ParseTime(%q) = %#v, time.Date gives %#v", text, got, want)
					}
				}
			}
		}
	}
}

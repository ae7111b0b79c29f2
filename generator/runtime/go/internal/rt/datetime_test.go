package rt

import (
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

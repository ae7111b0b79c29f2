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

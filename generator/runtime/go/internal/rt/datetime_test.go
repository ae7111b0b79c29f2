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

// byteByByte is the date-time grammar and ranges read one byte at a time, as readRFC3339
// read them before it took the first nineteen bytes as words: the oracle for that reader.
func byteByByte(text string) (rfc3339, bool) {
	var f rfc3339
	num := func(at, n int) (int, bool) {
		v := 0
		for i := at; i < at+n; i++ {
			if i >= len(text) || text[i] < '0' || text[i] > '9' {
				return 0, false
			}
			v = v*10 + int(text[i]-'0')
		}
		return v, true
	}
	at := func(i int, c ...byte) bool {
		for _, b := range c {
			if i < len(text) && text[i] == b {
				return true
			}
		}
		return false
	}
	var ok [6]bool
	f.year, ok[0] = num(0, 4)
	f.month, ok[1] = num(5, 2)
	f.day, ok[2] = num(8, 2)
	f.hour, ok[3] = num(11, 2)
	f.minute, ok[4] = num(14, 2)
	f.second, ok[5] = num(17, 2)
	if ok != [6]bool{true, true, true, true, true, true} || !at(4, '-') || !at(7, '-') || !at(10, 'T', 't') || !at(13, ':') || !at(16, ':') {
		return f, false
	}
	i := 19
	if at(i, '.') {
		i++
		digits := 0
		for ; i < len(text) && text[i] >= '0' && text[i] <= '9'; i++ {
			if digits < 9 {
				f.nanos = f.nanos*10 + int(text[i]-'0')
			}
			digits++
		}
		if digits == 0 {
			return f, false
		}
		for ; digits < 9; digits++ {
			f.nanos *= 10
		}
	}
	switch {
	case at(i, 'Z', 'z') && i+1 == len(text):
	case at(i, '+', '-') && at(i+3, ':') && i+6 == len(text):
		h, okH := num(i+1, 2)
		m, okM := num(i+4, 2)
		if !okH || !okM || h > 23 || m > 59 {
			return f, false
		}
		f.offset = h*3600 + m*60
		if text[i] == '-' {
			f.offset = -f.offset
		}
	default:
		return f, false
	}
	days := time.Date(f.year, time.Month(f.month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return f, f.year >= 1 && f.month >= 1 && f.month <= 12 && f.day >= 1 && f.day <= days && f.hour <= 23 && f.minute <= 59 && f.second <= 59
}

// readRFC3339 checks the first nineteen bytes as three words at once (a digit's lanes, the
// separators' lanes): every byte value at every place of date-times of each form must get the
// byte-by-byte reader's verdict and fields. A word check that let one byte through (a byte
// just below '0' read as a digit, a 't' for the T that is not one) would show here.
func TestReadRFC3339GivesTheByteByByteVerdictForEveryByteAtEveryPlace(t *testing.T) {
	for _, base := range []string{
		"2024-02-29T23:59:59Z", "1999-12-31t00:00:00z", "0001-01-01T00:00:00.123456789+05:30",
		"9999-12-31T23:59:59.5-23:59", "2023-02-28T12:34:56.1234567890123Z", "2000-10-31T09:09:09+00:00",
	} {
		for i := 0; i < len(base); i++ {
			for b := 0; b < 256; b++ {
				text := base[:i] + string([]byte{byte(b)}) + base[i+1:]
				got, ok := readRFC3339(text)
				want, wantOK := byteByByte(text)
				if ok != wantOK || ok && got != want {
					t.Fatalf("%q: read %+v %v, want %+v %v", text, got, ok, want, wantOK)
				}
			}
		}
		for n := 0; n <= len(base); n++ {
			_, ok := readRFC3339(base[:n])
			if _, want := byteByByte(base[:n]); ok != want {
				t.Fatalf("%q: read %v, want %v", base[:n], ok, want)
			}
		}
	}
}

// Scanner.Time reads a date-time where it lies, up to its closing quote, with no scan of the
// string first: it must read what reading the string and then the date-time reads (the value,
// and where the scanner stops), for every byte at every place, a missing closing quote, and a
// date-time written with an escape.
func TestScannerTimeReadsWhatTheStringItIsReadsAs(t *testing.T) {
	var texts []string
	for _, base := range []string{`"2024-02-29T23:59:59Z",`, `"2024-01-15t10:30:00.500+05:30"}`, `"2024-01-15T10:30:00.25-00:00" `} {
		for i := 1; i < len(base); i++ {
			for b := 0; b < 256; b++ {
				texts = append(texts, base[:i]+string([]byte{byte(b)})+base[i+1:])
			}
		}
	}
	texts = append(texts, `"2024-01-15T10:30:00Z`, `"2024-01-15T10:30:00`, `"2024\u002d01-15T10:30:00Z"`,
		`"2024-01-15T10:30:00\u005a"`, `"2024-01-15T10:30:00Z\u0022"`, ` "2024-01-15T10:30:00Z"`)
	for _, text := range texts {
		s, _ := NewScanner([]byte(text))
		got, ok := s.Time()
		r, _ := NewScanner([]byte(text))
		str, strOK := r.token(false)
		want, wantOK := ParseTime(str)
		wantOK = strOK && wantOK && !want.IsZero()
		if ok != wantOK || ok && (!got.Equal(want) || FormatTime(got) != FormatTime(want) || s.pos != r.pos) {
			t.Fatalf("%q: read %v %v (at %d), want %v %v (at %d)", text, got, ok, s.pos, want, wantOK, r.pos)
		}
	}
}

package rt

import "time"

// rfc3339 is a date-time's fields as its text spells them.
type rfc3339 struct {
	year, month, day, hour, minute, second, nanos int
	offset                                        int // seconds east of UTC
}

// readRFC3339 reads RFC 3339 text exactly as the Python runtime does: a time zone is
// required, and every field must be in range (no leap second, no year 0). The grammar
// is YYYY-MM-DD[Tt]hh:mm:ss[.fraction](Z|z|+hh:mm|-hh:mm), ASCII digits; a fraction's
// digits past the ninth are read, not kept (a time.Time holds nanoseconds).
func readRFC3339(text string) (rfc3339, bool) {
	digits := func(s string) (int, bool) {
		n := 0
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return 0, false
			}
			n = n*10 + int(s[i]-'0')
		}
		return n, len(s) > 0
	}
	var f rfc3339
	if len(text) < 20 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' {
		return f, false
	}
	var ok [6]bool
	f.year, ok[0] = digits(text[0:4])
	f.month, ok[1] = digits(text[5:7])
	f.day, ok[2] = digits(text[8:10])
	f.hour, ok[3] = digits(text[11:13])
	f.minute, ok[4] = digits(text[14:16])
	f.second, ok[5] = digits(text[17:19])
	if ok != [6]bool{true, true, true, true, true, true} {
		return f, false
	}
	rest := text[19:]
	if rest[0] == '.' {
		end := 1
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		if end == 1 {
			return f, false
		}
		f.nanos, _ = digits((rest[1:end] + "000000000")[:9])
		rest = rest[end:]
	}
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		offH, okH := digits(rest[1:3])
		offM, okM := digits(rest[4:6])
		if !okH || !okM || offH > 23 || offM > 59 {
			return f, false
		}
		f.offset = offH*3600 + offM*60
		if rest[0] == '-' {
			f.offset = -f.offset
		}
	default:
		return f, false
	}
	if f.year < 1 || f.month < 1 || f.month > 12 || f.day < 1 || f.hour > 23 || f.minute > 59 || f.second > 59 {
		return f, false
	}
	if f.day > time.Date(f.year, time.Month(f.month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return f, false
	}
	return f, true
}

// instant is the moment the fields denote.
func (f rfc3339) instant() time.Time {
	utc := time.Date(f.year, time.Month(f.month), f.day, f.hour, f.minute, f.second, f.nanos, time.UTC)
	return utc.Add(-time.Duration(f.offset) * time.Second)
}

// ParseTime reads RFC 3339 text exactly as the Python runtime does (see readRFC3339).
//
// The time keeps its text: FormatTime writes it back unchanged while the time still
// denotes the same instant and offset, as the Python and TypeScript packages write a
// date-time they read. Most texts are what FormatTime writes anyway; any other (a
// lowercase t or z, -00:00 or +00:00 for UTC, a fraction with trailing zeros or more
// than nine digits) is kept as the name of the time's Location, its one place for it.
func ParseTime(text string) (time.Time, bool) {
	f, ok := readRFC3339(text)
	if !ok {
		return time.Time{}, false
	}
	var loc *time.Location
	switch {
	case !formatted(text, f.offset):
		loc = time.FixedZone(text, f.offset)
	case f.offset == 0:
		loc = time.UTC
	default:
		loc = time.FixedZone("", f.offset)
	}
	return time.Date(f.year, time.Month(f.month), f.day, f.hour, f.minute, f.second, f.nanos, loc), true
}

// formatted reports whether time.RFC3339Nano spells a date-time as text does (text is one
// readRFC3339 accepts, its offset given): an upper-case T, Z for UTC, a fraction of at most
// nine digits that does not end in 0.
func formatted(text string, offset int) bool {
	if text[10] != 'T' || (offset == 0) != (text[len(text)-1] == 'Z') {
		return false
	}
	if text[19] != '.' {
		return true
	}
	end := 20
	for end < len(text) && text[end] >= '0' && text[end] <= '9' {
		end++
	}
	return end-20 <= 9 && text[end-1] != '0'
}

// FormatTime writes a time as RFC 3339 text: the text ParseTime read it from, while the
// time still denotes the same instant at the same offset (the Python runtime keeps its
// date-times' text the same way); else with Z for UTC and the fewest fraction digits
// (time.RFC3339Nano), as for a time made in code.
func FormatTime(t time.Time) string {
	if text := t.Location().String(); len(text) >= 20 {
		if f, ok := readRFC3339(text); ok && f.instant().Equal(t) {
			if _, offset := t.Zone(); offset == f.offset {
				return text
			}
		}
	}
	return t.Format(time.RFC3339Nano)
}

// DateTime checks an RFC 3339 date-time string.
func DateTime(msgs Msgs) Parser[time.Time] {
	return func(v any, c *Context) (time.Time, bool) {
		s, ok := v.(string)
		if !ok {
			c.Error(msgs["type"], "type", v)
			return time.Time{}, false
		}
		t, ok := ParseTime(s)
		if !ok {
			c.Error(msgs["format"], "format", s)
		}
		return t, ok
	}
}

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
	var f rfc3339
	if len(text) < 20 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' {
		return f, false
	}
	ok := true
	f.year = digits2(text, 0, &ok)*100 + digits2(text, 2, &ok)
	f.month = digits2(text, 5, &ok)
	f.day = digits2(text, 8, &ok)
	f.hour = digits2(text, 11, &ok)
	f.minute = digits2(text, 14, &ok)
	f.second = digits2(text, 17, &ok)
	if !ok {
		return f, false
	}
	rest := text[19:]
	if rest[0] == '.' {
		end := 1
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			if end <= 9 {
				f.nanos = f.nanos*10 + int(rest[end]-'0')
			}
			end++
		}
		if end == 1 {
			return f, false
		}
		for kept := end - 1; kept < 9; kept++ {
			f.nanos *= 10
		}
		rest = rest[end:]
	}
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		offH, offM := digits2(rest, 1, &ok), digits2(rest, 4, &ok)
		if !ok || offH > 23 || offM > 59 {
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
	return f, f.day <= daysIn(f.year, f.month)
}

// digits2 is the number two ASCII digits at s[i:i+2] spell; anything else clears ok.
func digits2(s string, i int, ok *bool) int {
	hi, lo := s[i]-'0', s[i+1]-'0'
	if hi > 9 || lo > 9 {
		*ok = false
	}
	return int(hi)*10 + int(lo)
}

// daysIn is the number of days of a month (1-12) of a proleptic Gregorian year.
func daysIn(year, month int) int {
	if month == 2 {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + (month+month/8)%2
}

// unix is the Unix time, in seconds, of the fields' date and time of day read as UTC
// (days from the civil date, as in Howard Hinnant's algorithm: years from March, so the
// leap day ends a year). It is what time.Date computes, without its normalising and
// time zone lookup: ParseTime builds many times per document.
func (f rfc3339) unix() int64 {
	y, m := int64(f.year), int64(f.month)
	if m <= 2 {
		y--
		m += 9
	} else {
		m -= 3
	}
	era := y / 400 // y >= 0: the year is at least 1
	yoe := y - era*400
	doe := yoe*365 + yoe/4 - yoe/100 + (153*m+2)/5 + int64(f.day) - 1
	days := era*146097 + doe - 719468
	return days*86400 + int64(f.hour)*3600 + int64(f.minute)*60 + int64(f.second)
}

// instant is the moment the fields denote.
func (f rfc3339) instant() time.Time {
	return time.Unix(f.unix()-int64(f.offset), int64(f.nanos)).UTC()
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
	return f.time(text, formatted(text, f.offset)), true
}

// time is the time f read from text denotes, at its offset, keeping text (as the name of
// its Location) where time.RFC3339Nano would not spell it so (plain: formatted(text)).
func (f rfc3339) time(text string, plain bool) time.Time {
	switch {
	case !plain:
		return f.instant().In(time.FixedZone(text, f.offset))
	case f.offset == 0:
		return f.instant()
	default:
		return f.instant().In(time.FixedZone("", f.offset))
	}
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

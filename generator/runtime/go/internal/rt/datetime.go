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
	n := rfc3339At(text, &f)
	return f, n > 0 && n == len(text) // (no date-time is empty: 0 is "none")
}

// rfc3339At reads into f the date-time that starts text (by readRFC3339's grammar and
// ranges) and returns its length, or 0 where none does. What follows it is not looked
// at: Scanner.Time reads a date-time where it lies in the document, up to its quote.
func rfc3339At(text string, f *rfc3339) int {
	if len(text) < 20 {
		return 0
	}
	// YYYY-MM-DDThh:mm:ss as three words: bytes 0-7, 8-15 and 11-18.
	w0, w1, w2 := word8(text, 0), word8(text, 8), word8(text, 11)
	if !digitsAt(w0, 0x00ffff00ffffffff) || w0&0xff0000ff00000000 != '-'<<56|'-'<<32 ||
		!digitsAt(w1, 0xffff00ffff00ffff) || w1&0x0000ff0000df0000 != ':'<<40|'T'<<16 || // T or t
		!digitsAt(w2, 0xffff000000000000) || w2&0x0000ff0000000000 != ':'<<40 {
		return 0
	}
	// Each two digits' value in the first byte of the two: ten times the first digit's
	// value plus the next one's (at most 99: no byte carries into the next).
	v0, v1, v2 := w0&0x000f0f000f0f0f0f, w1&0x0f0f000f0f000f0f, w2&0x0f0f000000000000
	t0, t1, t2 := v0*10+v0>>8, v1*10+v1>>8, v2*10+v2>>8
	year, month := int(t0&0xff)*100+int(t0>>16&0xff), int(t0>>40&0xff)
	day, hour, minute, second := int(t1&0xff), int(t1>>24&0xff), int(t1>>48&0xff), int(t2>>48&0xff)
	*f = rfc3339{year: year, month: month, day: day, hour: hour, minute: minute, second: second}
	end := 19
	if text[end] == '.' {
		end++
		for ; end < len(text) && text[end]-'0' <= 9; end++ {
			if end < 29 {
				f.nanos = f.nanos*10 + int(text[end]-'0')
			}
		}
		if end == 20 {
			return 0
		}
		for kept := end - 20; kept < 9; kept++ {
			f.nanos *= 10
		}
	}
	switch {
	case end == len(text):
		return 0
	case text[end] == 'Z' || text[end] == 'z':
		end++
	case len(text)-end >= 6 && (text[end] == '+' || text[end] == '-') && text[end+3] == ':':
		offH, b1 := digits2(text, end+1)
		offM, b2 := digits2(text, end+4)
		if b1|b2 > 15 || offH > 23 || offM > 59 {
			return 0
		}
		f.offset = offH*3600 + offM*60
		if text[end] == '-' {
			f.offset = -f.offset
		}
		end += 6
	default:
		return 0
	}
	if year < 1 || uint(month-1) > 11 || uint(day-1) > 30 || hour > 23 || minute > 59 || second > 59 {
		return 0
	}
	if day > 28 && day > daysIn(year, month) {
		return 0
	}
	return end
}

// word8 is s[i:i+8] as a little-endian word (one load).
func word8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// digitsAt reports whether every byte of w that lanes marks (0xff) is an ASCII digit: its
// top half 3, and so after adding 6 (as simdjson checks eight digits; a byte that carries
// into the next fails itself).
func digitsAt(w, lanes uint64) bool {
	const tops, six = 0xf0f0f0f0f0f0f0f0, 0x0606060606060606
	return (w&tops|(w+six)&tops>>4)&lanes == 0x3333333333333333&lanes
}

// digits2 is the number two ASCII digits at s[i:i+2] spell, and a mark over 15 where
// either byte is no digit (a byte less '0' wraps past 9; adding 6 takes 10 and more past 15).
func digits2(s string, i int) (int, uint32) {
	hi, lo := uint32(s[i]-'0'), uint32(s[i+1]-'0')
	return int(hi*10 + lo), (hi + 6) | (lo + 6)
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
func (f *rfc3339) unix() int64 {
	// Unsigned: the year is at least 1, so y is never negative, and division by a constant
	// needs no correction for a sign.
	y, m := uint64(f.year), uint64(f.month)
	if m <= 2 {
		y--
		m += 9
	} else {
		m -= 3
	}
	era := y / 400
	yoe := y - era*400
	doe := yoe*365 + yoe/4 - yoe/100 + (153*m+2)/5 + uint64(f.day) - 1
	days := int64(era*146097+doe) - 719468
	return days*86400 + int64(f.hour*3600+f.minute*60+f.second)
}

// instant is the moment the fields denote.
func (f *rfc3339) instant() time.Time {
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
func (f *rfc3339) time(text string, plain bool) time.Time {
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

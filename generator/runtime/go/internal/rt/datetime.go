package rt

import "time"

// ParseTime reads RFC 3339 text exactly as the Python runtime does: a time zone
// is required, and every field must be in range (no leap second, no year 0).
// The grammar is YYYY-MM-DD[Tt]hh:mm:ss[.fraction](Z|z|+hh:mm|-hh:mm), ASCII digits.
func ParseTime(text string) (time.Time, bool) {
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
	if len(text) < 20 || text[4] != '-' || text[7] != '-' || (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := digits(text[0:4])
	month, ok2 := digits(text[5:7])
	day, ok3 := digits(text[8:10])
	hour, ok4 := digits(text[11:13])
	minute, ok5 := digits(text[14:16])
	second, ok6 := digits(text[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return time.Time{}, false
	}
	rest := text[19:]
	nanos := 0
	if rest[0] == '.' {
		end := 1
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			end++
		}
		if end == 1 {
			return time.Time{}, false
		}
		nanos, _ = digits((rest[1:end] + "000000000")[:9])
		rest = rest[end:]
	}
	loc := time.UTC
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		offH, okH := digits(rest[1:3])
		offM, okM := digits(rest[4:6])
		if !okH || !okM || offH > 23 || offM > 59 {
			return time.Time{}, false
		}
		offset := offH*3600 + offM*60
		if rest[0] == '-' {
			offset = -offset
		}
		loc = time.FixedZone("", offset)
	default:
		return time.Time{}, false
	}
	if year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 {
		return time.Time{}, false
	}
	if day > time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, second, nanos, loc), true
}

// FormatTime writes a time as RFC 3339 text (Z for UTC).
func FormatTime(t time.Time) string { return t.Format(time.RFC3339Nano) }

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

package rt

import "regexp"

// --- format: the formats chatspec asserts on a string, the same in every runtime ---
//
// Each is a regular expression over ASCII that Python's re, Go's regexp and JavaScript's RegExp
// read alike, built here from the same pieces as the Python runtime's FORMAT_PATTERNS so that the
// text is the same byte for byte (a test compares the three), matched against the whole string,
// plus date's and time's checks of the numbers. The patterns use no class that could reach past
// ASCII (no ".", no negated class), so no non-ASCII character matches, nor a byte of invalid UTF-8
// (which regexp reads as U+FFFD). Go's engine matches in linear time whatever the text.

const (
	decOctet = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
	ipv4     = decOctet + "(?:\\." + decOctet + "){3}"
	h16      = "[0-9A-Fa-f]{1,4}"
	ls32     = "(?:" + h16 + ":" + h16 + "|" + ipv4 + ")"
	ipv6     = "(?:(?:" + h16 + ":){6}" + ls32 +
		"|::(?:" + h16 + ":){5}" + ls32 +
		"|(?:" + h16 + ")?::(?:" + h16 + ":){4}" + ls32 +
		"|(?:(?:" + h16 + ":){0,1}" + h16 + ")?::" + "(?:" + h16 + ":){3}" + ls32 +
		"|(?:(?:" + h16 + ":){0,2}" + h16 + ")?::" + "(?:" + h16 + ":){2}" + ls32 +
		"|(?:(?:" + h16 + ":){0,3}" + h16 + ")?::" + h16 + ":" + ls32 +
		"|(?:(?:" + h16 + ":){0,4}" + h16 + ")?::" + ls32 +
		"|(?:(?:" + h16 + ":){0,5}" + h16 + ")?::" + h16 +
		"|(?:(?:" + h16 + ":){0,6}" + h16 + ")?::" +
		")"

	// RFC 3986, appendix A, with every run of characters and percent-encodings written as pctRun
	// writes it (see the Python runtime: JavaScript's engine keeps one backtracking entry per turn
	// of a loop, so a loop turns once per percent-encoding, not once per character).
	unreserved = "A-Za-z0-9\\-._~"
	subDelims  = "!$&'()*+,;="
	pct        = "%[0-9A-Fa-f]{2}"
	pchar      = unreserved + subDelims + ":@"

	// RFC 5321's Mailbox: a dot-string or a quoted string, @, a domain or an address literal.
	atext        = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-]+"
	label        = "[A-Za-z0-9](?:[A-Za-z0-9\\-]{0,61}[A-Za-z0-9])?"
	emailPattern = "(?:" + atext + "(?:\\." + atext + ")*|\"(?:[ !#-\\[\\]-~]|\\\\[ -~])*\")@" +
		"(?:" + label + "(?:\\." + label + ")*|\\[" + ipv4 + "\\]|\\[IPv6:" + ipv6 + "\\])"
)

// pctRun is any run of the characters and percent-encodings; pctUnit is one of them.
func pctRun(chars string) string  { return "[" + chars + "]*(?:" + pct + "[" + chars + "]*)*" }
func pctUnit(chars string) string { return "(?:[" + chars + "]|" + pct + ")" }

var (
	authority = "(?:" + pctRun(unreserved+subDelims+":") + "@)?(?:\\[(?:" + ipv6 +
		"|[vV][0-9A-Fa-f]+\\.[" + unreserved + subDelims + ":]+)\\]|" + pctRun(unreserved+subDelims) + ")(?::[0-9]*)?"
	segments    = "(?:/" + pctRun(pchar+"/") + ")?"
	absolute    = "/(?:" + pctUnit(pchar) + pctRun(pchar+"/") + ")?"
	uriTail     = "(?:\\?" + pctRun(pchar+"/?") + ")?(?:#" + pctRun(pchar+"/?") + ")?"
	uriPattern  = "[A-Za-z][A-Za-z0-9+\\-.]*:(?://" + authority + segments + "|" + absolute + "|" + pctUnit(pchar) + pctRun(pchar+"/") + ")?" + uriTail
	relativeRef = "(?://" + authority + segments + "|" + absolute + "|" + pctUnit(unreserved+subDelims+"@") +
		pctRun(unreserved+subDelims+"@") + segments + ")?" + uriTail
)

// FormatPatterns is each format's pattern (but date-time's, which readRFC3339 reads), unanchored,
// as the Python runtime's FORMAT_PATTERNS spells it. Read it, do not change it: the compiled
// expressions are made from it once, at package init.
var FormatPatterns = map[string]string{
	"date":          "([0-9]{4})-([0-9]{2})-([0-9]{2})",
	"time":          "([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))",
	"uri":           uriPattern,
	"uri-reference": "(?:" + uriPattern + "|" + relativeRef + ")",
	"uuid":          "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
	"email":         emailPattern,
}

// formatRes holds FormatPatterns anchored at both ends: $ without the m flag is the end of the
// text only, so "2020-01-01\n" is no date, as Python's fullmatch says.
var formatRes = func() map[string]*regexp.Regexp {
	out := make(map[string]*regexp.Regexp, len(FormatPatterns))
	for name, p := range FormatPatterns {
		out[name] = regexp.MustCompile("^(?:" + p + ")$")
	}
	return out
}()

// FormatOK reports whether text is a string of the format, with the Python runtime's format_ok
// meaning: date is RFC 3339's full-date, time its full-time (a leap second only at 23:59:60 UTC),
// date-time what ParseTime reads, uri and uri-reference RFC 3986's, uuid RFC 9562's text form of
// any version, email RFC 5321's Mailbox of at most 254 characters. The generator asserts these seven only; any other name
// is false (where Python raises KeyError), so that no input can make the runtime panic.
func FormatOK(name, text string) bool {
	if name == "date-time" {
		_, ok := readRFC3339(text)
		return ok
	}
	if name == "email" && len(text) > 254 {
		return false // RFC 5321's limit: a path of 256 octets, its brackets included
	}
	re := formatRes[name]
	if re == nil {
		return false
	}
	if name != "date" && name != "time" {
		return re.MatchString(text)
	}
	m := re.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	// The groups are ASCII digits of fixed width, so they are small numbers.
	num := func(s string) int {
		n := 0
		for i := 0; i < len(s); i++ {
			n = n*10 + int(s[i]-'0')
		}
		return n
	}
	if name == "date" {
		year, month, day := num(m[1]), num(m[2]), num(m[3])
		if year < 1 || month < 1 || month > 12 || day < 1 { // no year 0, as in a date-time
			return false
		}
		return day <= daysIn(year, month)
	}
	hour, minute, second := num(m[1]), num(m[2]), num(m[3])
	offset := 0 // minutes east of UTC
	if m[4] != "" {
		offH, offM := num(m[5]), num(m[6])
		if offH > 23 || offM > 59 {
			return false
		}
		offset = offH*60 + offM
		if m[4] == "-" {
			offset = -offset
		}
	}
	if hour > 23 || minute > 59 || second > 60 {
		return false
	}
	// A leap second is the last second of a UTC day. Go's % keeps the dividend's sign, so the
	// minute of the UTC day is brought into 0..1439 as Python's % brings it.
	return second < 60 || ((hour*60+minute-offset)%1440+1440)%1440 == 1439
}

package rt

import (
	"strings"
	"testing"
)

// suiteFormatCases are the string cases of the JSON Schema Test Suite's optional format tests
// (draft2020-12/optional/format/{date,time,uri,uri-reference,uuid,email}.json, MIT licensed: see
// tests/json_schema_test_suite/LICENSE), with the suite's verdicts; tests/test_formats_runtime.py
// checks the same files against all three runtimes.
var suiteFormatCases = []struct {
	format, text string
	valid        bool
}{
	// date.json
	{"date", "1963-06-19", true},  // a valid date string
	{"date", "2020-01-31", true},  // a valid date string with 31 days in January
	{"date", "2020-01-32", false}, // a invalid date string with 32 days in January
	{"date", "2021-02-28", true},  // a valid date string with 28 days in February (normal)
	{"date", "2021-02-29", false}, // a invalid date string with 29 days in February (normal)
	{"date", "2020-02-29", true},  // a valid date string with 29 days in February (leap)
	{"date", "2020-02-30", false}, // a invalid date string with 30 days in February (leap)
	{"date", "2020-03-31", true},  // a valid date string with 31 days in March
	{"date", "2020-03-32", false}, // a invalid date string with 32 days in March
	{"date", "2020-04-30", true},  // a valid date string with 30 days in April
	{"date", "2020-04-31", false}, // a invalid date string with 31 days in April
	{"date", "2020-05-31", true},  // a valid date string with 31 days in May
	{"date", "2020-05-32", false}, // a invalid date string with 32 days in May
	{"date", "2020-06-30", true},  // a valid date string with 30 days in June
	{"date", "2020-06-31", false}, // a invalid date string with 31 days in June
	{"date", "2020-07-31", true},  // a valid date string with 31 days in July
	{"date", "2020-07-32", false}, // a invalid date string with 32 days in July
	{"date", "2020-08-31", true},  // a valid date string with 31 days in August
	{"date", "2020-08-32", false}, // a invalid date string with 32 days in August
	{"date", "2020-09-30", true},  // a valid date string with 30 days in September
	{"date", "2020-09-31", false}, // a invalid date string with 31 days in September
	{"date", "2020-10-31", true},  // a valid date string with 31 days in October
	{"date", "2020-10-32", false}, // a invalid date string with 32 days in October
	{"date", "2020-11-30", true},  // a valid date string with 30 days in November
	{"date", "2020-11-31", false}, // a invalid date string with 31 days in November
	{"date", "2020-12-31", true},  // a valid date string with 31 days in December
	{"date", "2020-12-32", false}, // a invalid date string with 32 days in December
	{"date", "2020-13-01", false}, // a invalid date string with invalid month
	{"date", "06/19/1963", false}, // an invalid date string
	{"date", "2013-350", false},   // only RFC3339 not all of ISO 8601 are valid
	{"date", "1998-1-20", false},  // non-padded month dates are not valid
	{"date", "1998-01-1", false},  // non-padded day dates are not valid
	{"date", "1998-13-01", false}, // invalid month
	{"date", "1998-04-31", false}, // invalid month-day combination
	{"date", "2021-02-29", false}, // 2021 is not a leap year
	{"date", "2020-02-29", true},  // 2020 is a leap year
	{"date", "1963-06-1৪", false}, // invalid non-ASCII '৪' (a Bengali 4)
	{"date", "20230328", false},   // ISO8601 / non-RFC3339: YYYYMMDD without dashes (2023-03-28)
	{"date", "2023-W01", false},   // ISO8601 / non-RFC3339: week number implicit day of week (2023-01-02)
	{"date", "2023-W13-2", false}, // ISO8601 / non-RFC3339: week number with day of week (2023-03-28)
	{"date", "2022W527", false},   // ISO8601 / non-RFC3339: week number rollover to next year (2023-01-01)
	// time.json
	{"time", "08:30:06Z", true},        // a valid time string
	{"time", "008:030:006Z", false},    // invalid time string with extra leading zeros
	{"time", "8:3:6Z", false},          // invalid time string with no leading zero for single digit
	{"time", "8:0030:6Z", false},       // hour, minute, second must be two digits
	{"time", "23:59:60Z", true},        // a valid time string with leap second, Zulu
	{"time", "22:59:60Z", false},       // invalid leap second, Zulu (wrong hour)
	{"time", "23:58:60Z", false},       // invalid leap second, Zulu (wrong minute)
	{"time", "23:59:60+00:00", true},   // valid leap second, zero time-offset
	{"time", "22:59:60+00:00", false},  // invalid leap second, zero time-offset (wrong hour)
	{"time", "23:58:60+00:00", false},  // invalid leap second, zero time-offset (wrong minute)
	{"time", "01:29:60+01:30", true},   // valid leap second, positive time-offset
	{"time", "23:29:60+23:30", true},   // valid leap second, large positive time-offset
	{"time", "23:59:60+01:00", false},  // invalid leap second, positive time-offset (wrong hour)
	{"time", "23:59:60+00:30", false},  // invalid leap second, positive time-offset (wrong minute)
	{"time", "15:59:60-08:00", true},   // valid leap second, negative time-offset
	{"time", "00:29:60-23:30", true},   // valid leap second, large negative time-offset
	{"time", "23:59:60-01:00", false},  // invalid leap second, negative time-offset (wrong hour)
	{"time", "23:59:60-00:30", false},  // invalid leap second, negative time-offset (wrong minute)
	{"time", "23:20:50.52Z", true},     // a valid time string with second fraction
	{"time", "08:30:06.283185Z", true}, // a valid time string with precise second fraction
	{"time", "08:30:06+00:20", true},   // a valid time string with plus offset
	{"time", "08:30:06-08:00", true},   // a valid time string with minus offset
	{"time", "08:30:06-8:000", false},  // hour, minute in time-offset must be two digits
	{"time", "08:30:06z", true},        // a valid time string with case-insensitive Z
	{"time", "24:00:00Z", false},       // an invalid time string with invalid hour
	{"time", "00:60:00Z", false},       // an invalid time string with invalid minute
	{"time", "00:00:61Z", false},       // an invalid time string with invalid second
	{"time", "22:59:60Z", false},       // an invalid time string with invalid leap second (wrong hour)
	{"time", "23:58:60Z", false},       // an invalid time string with invalid leap second (wrong minute)
	{"time", "01:02:03+24:00", false},  // an invalid time string with invalid time numoffset hour
	{"time", "01:02:03+00:60", false},  // an invalid time string with invalid time numoffset minute
	{"time", "01:02:03Z+00:30", false}, // an invalid time string with invalid time with both Z and numoffset
	{"time", "08:30:06 PST", false},    // an invalid offset indicator
	{"time", "01:01:01,1111", false},   // only RFC3339 not all of ISO 8601 are valid
	{"time", "12:00:00", false},        // no time offset
	{"time", "12:00:00.52", false},     // no time offset with second fraction
	{"time", "1২:00:00Z", false},       // invalid non-ASCII '২' (a Bengali 2)
	{"time", "08:30:06#00:20", false},  // offset not starting with plus or minus
	{"time", "ab:cd:ef", false},        // contains letters
	// uri.json
	{"uri", "http://foo.bar/?baz=qux#quux", true},                        // a valid URL with anchor tag
	{"uri", "http://foo.com/blah_(wikipedia)_blah#cite-1", true},         // a valid URL with anchor tag and parentheses
	{"uri", "http://foo.bar/?q=Test%20URL-encoded%20stuff", true},        // a valid URL with URL-encoded stuff
	{"uri", "http://xn--nw2a.xn--j6w193g/", true},                        // a valid puny-coded URL
	{"uri", "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com", true},  // a valid URL with many special characters
	{"uri", "http://223.255.255.254", true},                              // a valid URL based on IPv4
	{"uri", "ftp://ftp.is.co.za/rfc/rfc1808.txt", true},                  // a valid URL with ftp scheme
	{"uri", "http://www.ietf.org/rfc/rfc2396.txt", true},                 // a valid URL for a simple text file
	{"uri", "ldap://[2001:db8::7]/c=GB?objectClass?one", true},           // a valid URL
	{"uri", "mailto:John.Doe@example.com", true},                         // a valid mailto URI
	{"uri", "news:comp.infosystems.www.servers.unix", true},              // a valid newsgroup URI
	{"uri", "tel:+1-816-555-1212", true},                                 // a valid tel URI
	{"uri", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2", true}, // a valid URN
	{"uri", "//foo.bar/?baz=qux#quux", false},                            // an invalid protocol-relative URI Reference
	{"uri", "/abc", false},                                               // an invalid relative URI Reference
	{"uri", "\\\\WINDOWS\\fileshare", false},                             // an invalid URI
	{"uri", "abc", false},                                                // an invalid URI though valid URI reference
	{"uri", "http:// shouldfail.com", false},                             // an invalid URI with spaces
	{"uri", ":// should fail", false},                                    // an invalid URI with spaces and missing scheme
	{"uri", "bar,baz:foo", false},                                        // an invalid URI with comma in scheme
	// uri-reference.json
	{"uri-reference", "http://foo.bar/?baz=qux#quux", true}, // a valid URI
	{"uri-reference", "//foo.bar/?baz=qux#quux", true},      // a valid protocol-relative URI Reference
	{"uri-reference", "/abc", true},                         // a valid relative URI Reference
	{"uri-reference", "\\\\WINDOWS\\fileshare", false},      // an invalid URI Reference
	{"uri-reference", "abc", true},                          // a valid URI Reference
	{"uri-reference", "#fragment", true},                    // a valid URI fragment
	{"uri-reference", "#frag\\ment", false},                 // an invalid URI fragment
	// uuid.json
	{"uuid", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", true},   // all upper-case
	{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true},   // all lower-case
	{"uuid", "2eb8aa08-AA98-11ea-B4Aa-73B441D16380", true},   // mixed case
	{"uuid", "00000000-0000-0000-0000-000000000000", true},   // all zeroes is valid
	{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638", false},   // wrong length
	{"uuid", "2eb8aa08-aa98-11ea-73b441d16380", false},       // missing section
	{"uuid", "2eb8aa08-aa98-11ea-b4ga-73b441d16380", false},  // bad characters (not hex)
	{"uuid", "2eb8aa08aa9811eab4aa73b441d16380", false},      // no dashes
	{"uuid", "2eb8aa08aa98-11ea-b4aa73b441d16380", false},    // too few dashes
	{"uuid", "2eb8-aa08-aa98-11ea-b4aa73b44-1d16380", false}, // too many dashes
	{"uuid", "2eb8aa08aa9811eab4aa73b441d16380----", false},  // dashes in the wrong spot
	{"uuid", "98d80576-482e-427f-8434-7f86890ab222", true},   // valid version 4
	{"uuid", "99c17cbb-656f-564a-940f-1a4568f03487", true},   // valid version 5
	{"uuid", "99c17cbb-656f-664a-940f-1a4568f03487", true},   // hypothetical version 6
	{"uuid", "99c17cbb-656f-f64a-940f-1a4568f03487", true},   // hypothetical version 15
	// email.json
	{"email", "joe.bloggs@example.com", true},         // a valid e-mail address
	{"email", "2962", false},                          // an invalid e-mail address
	{"email", "te~st@example.com", true},              // tilde in local part is valid
	{"email", "~test@example.com", true},              // tilde before local part is valid
	{"email", "test~@example.com", true},              // tilde after local part is valid
	{"email", "\"joe bloggs\"@example.com", true},     // a quoted string with a space in the local part is valid
	{"email", "\"joe..bloggs\"@example.com", true},    // a quoted string with a double dot in the local part is valid
	{"email", "\"joe@bloggs\"@example.com", true},     // a quoted string with a @ in the local part is valid
	{"email", "joe.bloggs@[127.0.0.1]", true},         // an IPv4-address-literal after the @ is valid
	{"email", "joe.bloggs@[IPv6:::1]", true},          // an IPv6-address-literal after the @ is valid
	{"email", ".test@example.com", false},             // dot before local part is not valid
	{"email", "test.@example.com", false},             // dot after local part is not valid
	{"email", "te.s.t@example.com", true},             // two separated dots inside local part are valid
	{"email", "te..st@example.com", false},            // two subsequent dots inside local part are not valid
	{"email", "joe.bloggs@invalid=domain.com", false}, // an invalid domain
	{"email", "joe.bloggs@[127.0.0.300]", false},      // an invalid IPv4-address-literal
}

func TestFormatOKGivesTheSuitesVerdicts(t *testing.T) {
	for _, tc := range suiteFormatCases {
		if got := FormatOK(tc.format, tc.text); got != tc.valid {
			t.Errorf("FormatOK(%q, %q) = %v, the suite says %v", tc.format, tc.text, got, tc.valid)
		}
	}
}

// Edge cases the suite leaves out, each with the Python runtime's verdict.
func TestFormatOKAtTheEdges(t *testing.T) {
	for _, tc := range []struct {
		format, text string
		valid        bool
	}{
		// Leap days: 1900 is no leap year, 2000 is; year 0000 is a date (date-time refuses it).
		{"date", "1900-02-29", false}, {"date", "2000-02-29", true}, {"date", "2024-02-29", true},
		{"date", "2023-02-29", false}, {"date", "0000-02-29", false}, {"date", "0001-01-01", true}, {"date", "2024-04-31", false},
		{"date", "2024-00-10", false}, {"date", "2024-13-10", false}, {"date", "2024-01-00", false},
		{"date", "2020-01-01\n", false}, {"date", "", false}, {"date", " 2020-01-01", false},
		// A leap second is 23:59:60 in UTC, whatever the offset that spells it.
		{"time", "23:59:60Z", true}, {"time", "23:59:60z", true}, {"time", "23:59:60+00:00", true},
		{"time", "23:59:60-00:00", true}, {"time", "15:59:60-08:00", true}, {"time", "00:29:60+00:30", true},
		{"time", "00:00:60+00:01", true}, {"time", "23:58:60-00:01", true}, {"time", "22:59:60Z", false},
		{"time", "23:59:60+01:00", false}, {"time", "00:59:60+01:00", true}, {"time", "23:59:61Z", false},
		{"time", "12:00:00-00:00", true}, {"time", "12:00:00+23:59", true}, {"time", "12:00:00+24:00", false},
		{"time", "12:00:00+00:60", false}, {"time", "24:00:00Z", false}, {"time", "12:60:00Z", false},
		{"time", "12:00:00.Z", false}, {"time", "12:00:00.000000000001Z", true}, {"time", "12:00:00", false},
		{"time", "12:00:00Z\n", false}, {"time", "", false},
		// IPv6 hosts in every form RFC 3986 allows, IPv4 inside, and IPvFuture.
		{"uri", "http://[::]/", true}, {"uri", "http://[::1]:80/", true}, {"uri", "http://[1::]/", true},
		{"uri", "http://[1:2:3:4:5:6:7:8]/", true}, {"uri", "http://[1:2:3:4:5:6:7::]/", true},
		{"uri", "http://[1:2:3:4:5:6:7:8:9]/", false}, {"uri", "http://[1::2::3]/", false},
		{"uri", "http://[::ffff:192.0.2.1]/", true}, {"uri", "http://[::ffff:192.0.2.256]/", false},
		{"uri", "http://[1:2:3:4:5:6:192.0.2.1]/", true}, {"uri", "http://[12345::]/", false},
		{"uri", "http://[v1.fe80::a+en1]/", true}, {"uri", "http://[V1F.x]/", true}, {"uri", "http://[v.x]/", false},
		{"uri", "http://[vz.x]/", false}, {"uri", "http://192.0.2.1/", true}, {"uri", "http://a%2Fb/", true},
		// Percent-encodings: either case of hex digit, never a short or non-hex one.
		{"uri", "http://x/%7e%7E", true}, {"uri", "http://x/%7", false}, {"uri", "http://x/%zz", false},
		{"uri", "http://x/a b", false}, {"uri", "http://x/\u00e9", false}, {"uri", "urn:isbn:0451450523", true},
		{"uri", "mailto:a@b", true}, {"uri", "a:", true}, {"uri", "1a:b", false}, {"uri", "", false},
		{"uri", "http://x/\n", false}, {"uri", "http://x/#a#b", false}, {"uri", "http://x/?a?b#c?d/", true},
		{"uri-reference", "", true}, {"uri-reference", "#", true}, {"uri-reference", "?", true},
		{"uri-reference", "//[::1]", true}, {"uri-reference", "a/b:c", true}, {"uri-reference", "a:b", true},
		{"uri-reference", "%41", true}, {"uri-reference", "%4", false}, {"uri-reference", "\\", false},
		{"uri-reference", "a\n", false},
		{"uuid", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", true}, {"uuid", "2eb8aa08aa9811eab4aa73b441d16380", false},
		{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380\n", false}, {"uuid", "", false},
		{"email", "a@b", true}, {"email", "a.b@c.d", true}, {"email", ".a@b", false}, {"email", "a..b@c", false},
		{"email", "\"a b\"@c", true}, {"email", "\"a\\\"b\"@c", true}, {"email", "\"a\"b\"@c", false},
		{"email", "a@[192.0.2.1]", true}, {"email", "a@[IPv6:::1]", true}, {"email", "a@[ipv6:::1]", false},
		{"email", "a@[::1]", false}, {"email", "a@-b", false}, {"email", "a@b-", false}, {"email", "a@b.", false},
		{"email", "a@" + strings.Repeat("b", 63), true}, {"email", "a@" + strings.Repeat("b", 64), false},
		{"email", "\u00e9@b", false}, {"email", "a@b\n", false}, {"email", "", false},
		// The seven names the generator passes, and no other.
		{"date-time", "2024-12-31T23:59:59Z", true}, {"date-time", "2024-12-31T23:59:60Z", false},
		{"date-time", "2020-01-01T00:00:00Z\n", false}, {"hostname", "example.com", false}, {"", "", false},
	} {
		if got := FormatOK(tc.format, tc.text); got != tc.valid {
			t.Errorf("FormatOK(%q, %q) = %v, want %v", tc.format, tc.text, got, tc.valid)
		}
	}
}

// date-time is the typed date-time parser's verdict, the same as the Python runtime's.
func TestFormatOKDateTimeIsParseTime(t *testing.T) {
	for _, tc := range suiteFormatCases {
		for _, text := range []string{tc.text, "2024-01-01T" + tc.text, tc.text + "T00:00:00Z"} {
			_, parsed := ParseTime(text)
			if got := FormatOK("date-time", text); got != parsed {
				t.Errorf("FormatOK(date-time, %q) = %v, ParseTime says %v", text, got, parsed)
			}
		}
	}
}

// A megabyte of hostile text, invalid in every format, is judged (Go's engine matches in linear
// time; the test only asks that it ends).
func TestFormatOKJudgesHostileMegabyteStrings(t *testing.T) {
	const n = 1 << 20
	for _, text := range []string{
		"a://" + strings.Repeat("b", n) + "\x00",
		"a:" + strings.Repeat("/", n) + "\x00",
		"//" + strings.Repeat("a@", n/2),
		"a@" + strings.Repeat("a-", n/2) + "\x00",
		"\"" + strings.Repeat("\\\"", n/2) + "@a",
		strings.Repeat("a.", n/2) + "@a" + "\x00",
		"http://[" + strings.Repeat("1:", n/2) + "]",
		strings.Repeat("%", n),
		strings.Repeat("0", n) + "\x00",
	} {
		for name := range FormatPatterns {
			if FormatOK(name, text) {
				t.Errorf("FormatOK(%q, %.20q...) = true", name, text)
			}
		}
	}
	if !FormatOK("uri", "a:"+strings.Repeat("b", n)) || !FormatOK("uri", "data:image/png;base64,"+strings.Repeat("iV+/Bw==", n/8)) {
		t.Error("a long valid URI was refused")
	}
	// RFC 5321 bounds a mailbox at 254 characters.
	if !FormatOK("email", strings.Repeat("a", 64)+"@"+strings.Repeat("b", 63)+"."+strings.Repeat("c", 63)+"."+strings.Repeat("d", 61)) ||
		FormatOK("email", strings.Repeat("a", n)+"@b") {
		t.Error("the 254-character bound of an email address")
	}
}

// A schema applied as written checks format after pattern and before contentEncoding, as Python's
// _Run.string does: the first keyword that fails is the one reported.
func TestAppliedChecksTestFormatBetweenLengthAndContentEncoding(t *testing.T) {
	checks := NewChecks(`{"root":{"minLength":1,"format":"uri-reference","contentEncoding":"base64",
"messages":{"minLength":"short","format":"not a URI reference","contentEncoding":"not base64"}},"refs":{}}`)
	for text, want := range map[string]string{
		`"abcd"`: "", `""`: "minLength", `"a%"`: "format", `"ab"`: "contentEncoding", `"a b="`: "format",
	} {
		ok, errs := checked(t, checks, text)
		got := ""
		if len(errs) > 0 {
			got = errs[0].Keyword
		}
		if ok != (want == "") || got != want || len(errs) > 1 {
			t.Errorf("%s: ok = %v, errors = %v, want %q", text, ok, errs, want)
		}
	}
}

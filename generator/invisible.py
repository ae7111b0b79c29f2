"""invisible: the characters no generated file holds raw, and how each kind of output spells them.

"Trojan Source" hides code in characters that reorder or hide text: a right-to-left override
(U+202E) in a comment or a string makes a reviewer read other code than the compiler does, and a
zero-width space (U+200B) makes two names that look alike differ. The set:

- every Default_Ignorable_Code_Point of Unicode (DerivedCoreProperties.txt): the bidirectional
  controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the zero-width characters
  (U+200B-U+200D, U+2060-U+2064, U+FEFF), the soft hyphen U+00AD, the combining grapheme joiner
  U+034F, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the Mongolian variation selectors
  and vowel separator (U+180B-U+180F), the variation selectors (U+FE00-U+FE0F, U+E0100-U+E01EF)
  and the tag characters (U+E0000-U+E0FFF, which "ASCII smuggling" hides text in);
- every other format character (general category Cf, e.g. U+0600-U+0605, U+FFF9-U+FFFB), the line
  and paragraph separators U+2028 and U+2029, which end a JavaScript `//` comment, and the C1
  controls U+0080-U+009F (U+009B starts a terminal escape sequence).

Names (property names, enum values, $defs names, x-name) holding one are refused at load; any
other text keeps its meaning and is spelt here, per kind of output, never raw.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# (first, last) code points, both included: the union described above as of Unicode 15
# (tests/test_invisible.py checks it against Python's own Unicode database).
RANGES = (
    (0x0080, 0x009F),
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)

INVISIBLE = re.compile("[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in RANGES) + "]")


def first(text: str) -> int | None:
    """The index of the first character of the set in text, or None."""
    found = INVISIBLE.search(text)
    return found.start() if found else None


def describe(ch: str) -> str:
    """e.g. "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'an unassigned code point')}"


def u_escape(ch: str) -> str:
    r"""\u202e or \U000e0001: an escape in a Python, Go or YAML string, and the visible spelling elsewhere."""
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def json_escape(ch: str) -> str:
    r"""\u202e, or a surrogate pair (\udb40\udc01) beyond U+FFFF: an escape in JSON and JavaScript strings."""
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def shown(text: str, escape: Callable[[str], str] = u_escape) -> str:
    """text with each character of the set replaced by escape(ch) (u_escape unless told)."""
    return INVISIBLE.sub(lambda m: escape(m.group()), text)


def name_problem(name: str, what: str) -> tuple[str, str] | None:
    """(problem, hint) when a name (a property name, an enum value, ...: `what`) holds a character
    of the set, else None. Generated identifiers are ASCII, but the name itself is a wire name or a
    value that code and docs spell, and one that reads like another must not be a different name."""
    at = first(name)
    if at is None:
        return None
    return (
        f"the {what} {shown(repr(name))} holds {describe(name[at])} at character {at + 1}, which hides or reorders text "
        "(Trojan Source): a name or enum value must read as what it is in the generated code and docs",
        "remove it: names and enum values are spelt in visible characters (free text, such as a description, may hold it)",
    )

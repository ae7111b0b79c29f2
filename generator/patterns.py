"""Spec patterns: the portable subset (RFC 9485 I-Regexp syntax), parsed once and checked; each target translates
the parsed pattern into its own dialect (generator/targets/<target>/regex.py, TypeScript's literals.py).

A spec's `pattern` keeps JSON Schema's meaning: an unanchored search, so `^` and
`$` anchor where the author writes them. Its syntax is I-Regexp (RFC 9485) with
a few documented extensions every target can run with one meaning:

- `^` as the first character of a top-level branch and `$` as its last one
  (anchors; `$` is the end of the text, as ECMA-262 reads it: not before a final line feed, as Python's does);
- the escapes `\\d \\s \\w` (also inside a class) and `\\D \\S \\W` (outside one),
  with Python's Unicode meaning, \\d and \\w pinned to Unicode 14.0 (generator/unicode_classes.py):
  each target's runtime spells them out as those ranges (has_pinned_class), never its engine's own tables.

I-Regexp's `\\p{..}`/`\\P{..}` are refused for now: Python's `re` (the generated
Python, the reference validator) has no such escape.

Everything else is refused with the position and a hint: look-arounds,
back-references, `(?...)` groups and flags, lazy or possessive quantifiers,
`{,n}`, POSIX classes, `\\b`, `\\u....`, `\\N{...}`, unescaped `[ ] { } $ ^` inside
the pattern, repeat counts above 1000 (Go's limit), and patterns that can
backtrack exponentially in Python's engine (see `check_backtracking`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import cast

from generator import unicode_classes

MAX_REPEAT = 1000  # Go's regexp/syntax refuses larger counts
MAX_LENGTH = 1000  # characters of pattern source; keeps the backtracking check cheap
MAX_DEPTH = 50  # nested groups
EXACT_REPEAT = 10  # the backtracking check builds counts up to this exactly, larger ones as if unbounded

# Python's \s on str: [ \t\n\r\f\v] plus every character str.isspace() accepts.
SPACE_RANGES = (
    (0x09, 0x0D),
    (0x1C, 0x20),
    (0x85, 0x85),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)
_SINGLE_ESCAPES = {
    "(": "(",
    ")": ")",
    "*": "*",
    "+": "+",
    "-": "-",
    ".": ".",
    "?": "?",
    "[": "[",
    "\\": "\\",
    "]": "]",
    "^": "^",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "{": "{",
    "|": "|",
    "}": "}",
}


class PatternError(ValueError):
    """A pattern outside the portable subset, or one that can backtrack exponentially."""

    def __init__(self, problem: str, hint: str) -> None:
        self.problem = problem
        self.hint = hint
        super().__init__(problem)


# --- the parse tree -------------------------------------------------------


@dataclass(frozen=True)
class Chars:
    """One character position: a literal, a class or an escape."""

    items: tuple[tuple[str, object], ...]  # ("range", (lo, hi)) | ("esc", "d"/"s"/"w"/"D"/"S"/"W") | ("dot", None)
    negated: bool = False
    bracketed: bool = False  # written as [...]


@dataclass(frozen=True)
class Group:
    alternatives: tuple[tuple[object, ...], ...]  # branches, each a sequence of nodes


@dataclass(frozen=True)
class Repeat:
    node: object
    low: int
    high: int | None  # None: unbounded
    text: str  # as written, e.g. "*", "{2,3}"


@dataclass(frozen=True)
class Anchor:
    kind: str  # "^" or "$"


@dataclass(frozen=True)
class Pattern:
    source: str
    alternatives: tuple[tuple[object, ...], ...]


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.depth = 0

    def fail(self, problem: str, hint: str, at: int | None = None) -> PatternError:
        where = self.i if at is None else at
        return PatternError(f"the pattern {self.text!r} is not in the portable subset (I-Regexp) at character {where + 1}: {problem}", hint)

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def parse(self) -> Pattern:
        if len(self.text) > MAX_LENGTH:
            raise PatternError(
                f"the pattern is {len(self.text)} characters long (at most {MAX_LENGTH})", "shorten it, or check the value in a rule"
            )
        branches = self.alternatives(top=True)
        if self.i < len(self.text):
            raise self.fail("unmatched ')'", "escape it as \\) or remove it")
        return Pattern(self.text, branches)

    def alternatives(self, top: bool) -> tuple[tuple[object, ...], ...]:
        branches = [self.branch(top)]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.branch(top))
        return tuple(branches)

    def branch(self, top: bool) -> tuple[object, ...]:
        items: list[object] = []
        start = self.i
        while self.i < len(self.text) and self.peek() not in "|)":
            ch = self.peek()
            if ch == "^":
                if not (top and self.i == start):
                    raise self.fail(
                        "'^' is an anchor only at the start of the whole pattern or of a top-level alternative",
                        "move the anchor out of the group, e.g. ^(a|b) instead of (^a|^b); write [\\^] for a literal caret",
                    )
                self.i += 1
                items.append(Anchor("^"))
                continue
            if ch == "$":
                end = self.i + 1 == len(self.text) or self.text[self.i + 1] in "|"
                if not (top and end):
                    raise self.fail(
                        "'$' is an anchor only at the end of the whole pattern or of a top-level alternative",
                        "move the anchor out of the group, e.g. (a|b)$ instead of (a$|b$); write [$] for a literal dollar sign",
                    )
                self.i += 1
                items.append(Anchor("$"))
                continue
            atom = self.atom()
            items.append(self.quantified(atom))
        return tuple(items)

    def quantified(self, atom: object) -> object:
        ch = self.peek()
        at = self.i
        if ch in ("*", "+", "?"):
            self.i += 1
            node = Repeat(atom, 0 if ch != "+" else 1, None if ch != "?" else 1, ch)
        elif ch == "{":
            node = self.range_quantifier(atom)
        else:
            return atom
        nxt = self.peek()
        if nxt in ("?", "+"):
            raise self.fail(
                f"lazy or possessive quantifier {self.text[at:self.i + 1]!r}",
                "drop the trailing " + repr(nxt) + ": a pattern only says whether the text matches",
                self.i,
            )
        if nxt in ("*", "{"):
            raise self.fail("a quantifier follows a quantifier", "put the quantified part in a group first, e.g. (a{2})*", self.i)
        return node

    def range_quantifier(self, atom: object) -> Repeat:
        start = self.i
        close = self.text.find("}", start)
        body = self.text[start + 1 : close] if close >= 0 else ""
        low_text, comma, high_text = body.partition(",")
        if (
            close < 0
            or not low_text.isdigit()
            or not low_text.isascii()
            or (high_text and not (high_text.isdigit() and high_text.isascii()))
        ):
            hint = (
                "write {n}, {n,} or {n,m}; {,m} means {0,m} in Python but a literal in Go"
                if low_text == "" and comma
                else "write {n}, {n,} or {n,m}, or escape a literal brace as \\{"
            )
            raise self.fail(f"{self.text[start:close + 1 if close >= 0 else len(self.text)]!r} is not a repeat count", hint)
        low = int(low_text)
        high = None if comma and not high_text else int(high_text) if comma else low
        for count in (low, high):
            if count is not None and count > MAX_REPEAT:
                raise self.fail(
                    f"repeat count {count} is above {MAX_REPEAT}, the largest Go's engine accepts",
                    "use a smaller count, or check the length with minLength/maxLength",
                )
        if high is not None and high < low:
            raise self.fail(f"repeat range {self.text[start:close + 1]!r} has its maximum below its minimum", "swap the two numbers")
        self.i = close + 1
        return Repeat(atom, low, high, self.text[start : close + 1])

    def atom(self) -> object:
        ch = self.peek()
        at = self.i
        if ch == "(":
            if self.text[self.i + 1 : self.i + 2] == "?":
                raise self.fail(
                    f"{self.text[at:at + 3]!r}: look-arounds, non-capturing and named groups and inline flags are not portable",
                    "use a plain group (...), and express flags such as case-insensitivity with classes like [Aa]",
                )
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.fail(f"groups nest more than {MAX_DEPTH} deep", "flatten the pattern")
            self.i += 1
            alternatives = self.alternatives(top=False)
            if self.peek() != ")":
                raise self.fail("'(' is never closed", "add the missing ')'", at)
            self.i += 1
            self.depth -= 1
            return Group(alternatives)
        if ch == "[":
            return self.char_class()
        if ch == ".":
            self.i += 1
            return Chars((("dot", None),))
        if ch == "\\":
            item = self.escape(in_class=False)
            return Chars((item,))
        if ch in "*+?{":
            raise self.fail(f"{ch!r} has nothing to repeat", f"escape it as \\{ch} for a literal {ch!r}")
        if ch in "]}":
            raise self.fail(f"a literal {ch!r} must be escaped", f"write \\{ch}")
        self.i += 1
        self.check_char(ch, at)
        return Chars((("range", (ord(ch), ord(ch))),))

    def check_char(self, ch: str, at: int) -> None:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise self.fail("a lone surrogate is not a character", "remove it; use the real character it was part of", at)

    def escape(self, in_class: bool) -> tuple[str, object]:
        at = self.i
        nxt = self.text[self.i + 1 : self.i + 2]
        self.i += 2
        if nxt == "":
            raise self.fail("the pattern ends in a lone backslash", "escape a literal backslash as \\\\", at)
        if nxt in _SINGLE_ESCAPES:
            code = ord(_SINGLE_ESCAPES[nxt])
            return ("range", (code, code))
        if nxt in "dsw":
            return ("esc", nxt)
        if nxt in "DSW":
            if in_class:
                raise self.fail(
                    f"\\{nxt} inside a character class is not portable (Go cannot express it)",
                    f"use [^...] with \\{nxt.lower()}, or move \\{nxt} out of the class as an alternative",
                    at,
                )
            return ("esc", nxt)
        if nxt in "pP":
            raise self.fail(
                f"\\{nxt}{{..}} (a Unicode category) is I-Regexp, but Python's re, which runs the generated Python and the "
                "reference validator, has no such escape",
                "use \\w, \\d or \\s, or spell the characters out as ranges, e.g. [A-Za-z\u00c0-\u024f]",
                at,
            )
        known = {
            "b": "a word boundary \\b (its meaning differs between Python and Go for non-ASCII text)",
            "B": "\\B (its meaning differs between Python and Go for non-ASCII text)",
            "u": "a \\u escape (Go's engine has none)",
            "U": "a \\U escape (Go's engine has none)",
            "x": "a \\x escape",
            "N": "a \\N{...} escape (Go's engine has none)",
            "A": "\\A",
            "Z": "\\Z",
            "z": "\\z",
            "v": "\\v",
            "f": "\\f",
            "a": "\\a",
            "0": "an octal escape",
        }
        what = known.get(nxt, "a back-reference" if nxt.isdigit() else f"the escape \\{nxt}")
        return self._unknown_escape(what, nxt, at)

    def _unknown_escape(self, what: str, nxt: str, at: int) -> tuple[str, object]:
        if nxt in "uUxN0":
            hint = "write the character itself (JSON's \\u escapes in spec.json are fine)"
        elif nxt in "AZz":
            hint = "use ^ and $ at the start and end of the pattern"
        elif nxt in "bB":
            hint = "spell the boundary out with classes, e.g. (^|[^\\w])word([^\\w]|$)"
        elif nxt.isalnum():
            hint = "use the portable escapes: \\n \\r \\t, \\d \\s \\w (and \\D \\S \\W), or a backslash before a syntax character"
        else:
            hint = f"write {nxt!r} without the backslash, or inside a class: [{nxt}]"
        raise self.fail(f"{what} is not portable", hint, at)

    def char_class(self) -> Chars:
        at = self.i
        self.i += 1
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        items: list[tuple[str, object]] = []
        first = True
        while True:
            ch = self.peek()
            if ch == "":
                raise self.fail("'[' is never closed", "add the missing ']', or escape a literal bracket as \\[", at)
            if ch == "]":
                if first:
                    raise self.fail(
                        "an empty class '[]' (or '[^]') matches nothing portable", "write \\] for a literal bracket inside a class", self.i
                    )
                self.i += 1
                break
            if ch == "-" and (first or self.text[self.i + 1 : self.i + 2] == "]"):
                self.i += 1
                items.append(("range", (0x2D, 0x2D)))
                first = False
                continue
            low_item = self.class_char()
            if self.peek() == "-" and self.text[self.i + 1 : self.i + 2] not in ("]", ""):
                if low_item[0] != "range":
                    raise self.fail("a range cannot start at a class escape", "write the range with characters", self.i)
                dash = self.i
                self.i += 1
                high_item = self.class_char()
                if high_item[0] != "range":
                    raise self.fail("a range cannot end at a class escape", "write the range with characters", dash)
                low = low_item[1][0]  # type: ignore[index]
                high = high_item[1][0]  # type: ignore[index]
                if high < low:
                    raise self.fail(f"the range {chr(low)!r}-{chr(high)!r} is reversed", "write the smaller character first", dash)
                items.append(("range", (low, high)))
            else:
                items.append(low_item)
            first = False
        return Chars(tuple(items), negated=negated, bracketed=True)

    def class_char(self) -> tuple[str, object]:
        ch = self.peek()
        at = self.i
        if ch == "\\":
            return self.escape(in_class=True)
        if ch == "[":
            raise self.fail(
                "'[' inside a class (POSIX classes like [:alpha:] and nested sets are not portable)",
                "write \\[ for a literal bracket; spell a POSIX class out, e.g. [A-Za-z]",
            )
        if ch == "-":
            raise self.fail("'-' in the middle of a class is not portable", "escape it as \\- or put it first or last")
        self.i += 1
        self.check_char(ch, at)
        return ("range", (ord(ch), ord(ch)))


@cache
def parse(text: str) -> Pattern:
    """Parse a spec pattern; PatternError when it is outside the portable subset."""
    return _Parser(text).parse()


# --- translation ------------------------------------------------------------


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
SPECIALS = "\\.^$*+?{}[]|()"  # outside a class, in both dialects


def pattern_char(code: int, specials: str, hex_escaped: bool) -> str:
    """One character of a pattern: a short escape (\\n), a backslash before a special, a hex escape when asked."""
    ch = chr(code)
    if ch in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[ch]
    if ch in specials:
        return "\\" + ch
    if hex_escaped:
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return ch


def py_char(code: int, in_class: bool) -> str:
    # Control characters, white space other than the space, and "#" (verbose mode's comment) are written as hex.
    ch = chr(code)
    return pattern_char(code, "\\]^-[&~|" if in_class else SPECIALS, code < 0x20 or code == 0x7F or ch.isspace() and ch != " " or ch == "#")


def range_item(value: object, in_class: bool, char: Callable[[int, bool], str]) -> str:
    """A character range item in either dialect: one character, or lo-hi inside a class."""
    lo, hi = cast(tuple[int, int], value)
    return char(lo, in_class) if lo == hi else f"{char(lo, True)}-{char(hi, True)}"


def has_pinned_class(text: str) -> bool:
    """Whether a pattern reads \\d \\w \\D or \\W: the escapes every target keeps as they are written and its
    runtime spells out as the ranges pinned to one Unicode version (generator/unicode_classes.py), so that no
    engine's own tables decide what they match."""
    found = False

    def chars(node: Chars) -> str:
        nonlocal found
        found = found or any(kind == "esc" and str(value) in "dwDW" for kind, value in node.items)
        return ""

    emit(parse(text).alternatives, chars, "")
    return found


def py_item(item: tuple[str, object], in_class: bool) -> str:
    kind, value = item
    if kind == "range":
        return range_item(value, in_class, py_char)
    if kind == "esc":
        return f"\\{value}"
    return "."


def spell_chars(node: Chars) -> str:
    """A character class as the spec writes it, which is also how Python's `re` reads it (hex escapes where verbose
    mode or a reader's eye would trip): the Python target's spelling and the one refusals quote."""
    if not node.bracketed:
        return py_item(node.items[0], in_class=False)
    return "[" + ("^" if node.negated else "") + "".join(py_item(i, in_class=True) for i in node.items) + "]"


def _complement(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    out = []
    start = 0
    for lo, hi in ranges:
        if lo > start:
            out.append((start, lo - 1))
        start = hi + 1
    if start <= 0x10FFFF:
        out.append((start, 0x10FFFF))
    # Surrogates are no characters in a str that passed the load checks; leave them out.
    split = []
    for lo, hi in out:
        if lo <= 0xDFFF and hi >= 0xD800:
            if lo < 0xD800:
                split.append((lo, 0xD7FF))
            if hi > 0xDFFF:
                split.append((0xE000, hi))
        else:
            split.append((lo, hi))
    return tuple(split)


def emit(alternatives: tuple[tuple[object, ...], ...], chars: object, dollar: str) -> str:
    """A parsed pattern in a target's regex dialect: chars spells a character class, dollar the end anchor."""

    def node_text(node: object) -> str:
        if isinstance(node, Anchor):
            return "^" if node.kind == "^" else dollar
        if isinstance(node, Chars):
            return chars(node)  # type: ignore[operator,no-any-return]
        if isinstance(node, Group):
            return "(" + alts(node.alternatives) + ")"
        assert isinstance(node, Repeat)
        return node_text(node.node) + node.text

    def alts(branches: tuple[tuple[object, ...], ...]) -> str:
        return "|".join("".join(node_text(n) for n in branch) for branch in branches)

    return alts(alternatives)


# --- exponential backtracking -------------------------------------------------


class _Glushkov:
    """Positions (one per character class occurrence) and which may follow which.

    Every follow edge carries a tag naming the construct that made it, so the two
    edges a -> a of (a+)+ (one per quantifier) stay two ways of reading "aa".
    """

    def __init__(self) -> None:
        self.chars: list[Chars] = []
        self.follow: list[set[tuple[int, int]]] = []
        self.tags = 0
        self.overlapping: str | None = None  # alternatives under a repeat that start alike

    def add(self, node: Chars) -> int:
        self.chars.append(node)
        self.follow.append(set())
        return len(self.chars) - 1

    def link(self, sources: set[int], targets: set[int]) -> None:
        self.tags += 1
        for p in sources:
            self.follow[p] |= {(q, self.tags) for q in targets}


def _build(node: object, g: _Glushkov, repeated: bool) -> tuple[bool, set[int], set[int]]:
    """(nullable, first, last) of a node, adding its positions and follow edges to g."""
    if isinstance(node, Anchor):
        return True, set(), set()
    if isinstance(node, Chars):
        p = g.add(node)
        return False, {p}, {p}
    if isinstance(node, Group):
        return _build_alternatives(node.alternatives, g, repeated)
    assert isinstance(node, Repeat)
    if node.high == 0:
        return True, set(), set()
    if node.high is not None and node.high <= EXACT_REPEAT:
        # Small bounded counts are built exactly: X{2,4} = X X (X (X)?)?
        mandatory = [_build(node.node, g, repeated) for _ in range(node.low)]
        nullable, first, last = _sequence(mandatory, g)
        entry = set(last) if mandatory else set()
        for i in range(node.high - node.low):
            part_nullable, part_first, part_last = _build(node.node, g, repeated)
            g.link(entry, part_first)
            if nullable and (i == 0 or part_nullable):
                first |= part_first
            last |= part_last
            entry = part_last | (entry if part_nullable else set())
        return nullable, first, last
    # Larger or open counts are checked as if unbounded: a large bound backtracks as badly.
    copies = [_build(node.node, g, True) for _ in range(max(1, min(node.low, EXACT_REPEAT)))]
    nullable, first, last = _sequence(copies, g)
    g.link(copies[-1][2], copies[-1][1])
    return nullable or node.low == 0, first, last


def _sequence(parts: list[tuple[bool, set[int], set[int]]], g: _Glushkov) -> tuple[bool, set[int], set[int]]:
    nullable, first, last = True, set[int](), set[int]()
    for part_nullable, part_first, part_last in parts:
        g.link(last, part_first)
        if nullable:
            first |= part_first
        last = part_last | last if part_nullable else set(part_last)
        nullable = nullable and part_nullable
    return nullable, first, last


def _build_alternatives(branches: tuple[tuple[object, ...], ...], g: _Glushkov, repeated: bool) -> tuple[bool, set[int], set[int]]:
    nullable, first, last = False, set[int](), set[int]()
    firsts = []
    for branch in branches:
        n, f, la = _sequence([_build(item, g, repeated) for item in branch], g)
        nullable, first, last = nullable or n, first | f, last | la
        firsts.append(f)
    if repeated and g.overlapping is None and _any_two_overlap([[_ranges(g.chars[p]) for p in f] for f in firsts]):
        g.overlapping = "|".join(emit((branch,), spell_chars, "$") for branch in branches)
    return nullable, first, last


def _any_two_overlap(firsts: list[list[tuple[tuple[int, int], ...]]]) -> bool:
    """Whether two of the alternatives' first characters (a list of ranges per alternative) can be the same character."""
    # Stops at the first pair: 300 alternatives are 45,000 pairs.
    return any(_overlap(x, y) for i, a in enumerate(firsts) for b in firsts[i + 1 :] for x in a for y in b)


@cache
def escape_ranges(name: str) -> tuple[tuple[int, int], ...]:
    """The code points of \\d \\s \\w as Python's re reads them on str, \\d and \\w pinned to one Unicode version
    (generator/unicode_classes.py) (\\D \\S \\W: the rest, lone surrogates left out)."""
    if name == "s":
        return SPACE_RANGES
    if name == "d":
        return unicode_classes.DIGIT
    if name == "w":
        return unicode_classes.WORD
    return _complement(escape_ranges(name.lower()))


def merge_ranges(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Sorted ranges, overlapping and adjacent ones merged."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return tuple(out)


def _item_ranges(item: tuple[str, object]) -> tuple[tuple[int, int], ...]:
    kind, value = item
    if kind == "range":
        return (value,)  # type: ignore[return-value]
    if kind == "dot":
        return ((0, 9), (11, 0x10FFFF))
    return escape_ranges(str(value))


def _ranges(node: Chars) -> tuple[tuple[int, int], ...]:
    merged = merge_ranges(tuple(r for item in node.items for r in _item_ranges(item)))
    return _complement(merged) if node.negated else merged


def _overlap(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i][1] < b[j][0]:
            i += 1
        elif b[j][1] < a[i][0]:
            j += 1
        else:
            return True
    return False


MAX_STATES = 200_000  # pairs of automaton edges the backtracking check explores before giving up
MAX_STEPS = 2_000_000  # steps between such pairs it looks at before giving up (each pair can have thousands)

_BACKTRACKING_HINT = (
    "make each repetition unambiguous, e.g. a+ instead of (a+)+, a(b)? instead of (a|ab), "
    "or put a separator the repeated part cannot match between repetitions, e.g. ([a-z]+-)*[a-z]+"
)


def check_backtracking(text: str) -> None:
    """Refuse a pattern that can backtrack exponentially in a backtracking engine (Python's `re`).

    The pattern's Glushkov automaton (tagged edges, see _Glushkov) is exponentially
    ambiguous exactly when some state can return to itself along two different
    paths reading the same text: in the product of the automaton with itself, a
    strongly connected component holding both a pair (e, e) and a pair (e, f),
    e != f. Counts up to 10 are built exactly; larger ones are checked as if unbounded. Alternatives that
    start alike inside a repeated group ((a|ab)*) are refused too: even where the
    backtracking stays polynomial it is slow, and a(b)? says the same.
    """
    g = _Glushkov()
    _build_alternatives(parse(text).alternatives, g, False)
    if g.overlapping is not None:
        raise PatternError(
            f"the pattern {text!r} repeats alternatives that can start with the same character ({g.overlapping}), "
            "so Python's engine tries each of them at every repetition",
            "give the alternatives different first characters, e.g. a(b)? instead of (a|ab)",
        )
    sets = [_ranges(c) for c in g.chars]
    # The positions each position can read the same character as (itself included), once:
    # a pair's successors then cost what they yield, not every pair of follow edges.
    fits: list[list[int]] = [[] for _ in sets]
    for a, ranges in enumerate(sets):
        for b in range(a, len(sets)):
            if _overlap(ranges, sets[b]):
                fits[a].append(b)
                if b != a:
                    fits[b].append(a)
    for compatible in fits:
        compatible.sort()  # successors in the order of the follow edges, as the check always visited them

    # A node of the edge automaton is (position, tag of the edge that entered it).
    follow = [sorted(f) for f in g.follow]
    follow_to: list[dict[int, list[tuple[int, int]]]] = []  # position -> {target position: its edges}
    for edges_of in follow:
        by_target: dict[int, list[tuple[int, int]]] = {}
        for edge in edges_of:
            by_target.setdefault(edge[0], []).append(edge)
        follow_to.append(by_target)

    too_complex = PatternError(
        f"the pattern {text!r} is too complex to check for exponential backtracking",
        "simplify it: fewer nested repeats, optional parts and alternatives",
    )
    steps = MAX_STEPS

    def successors(node: tuple[tuple[int, int], tuple[int, int]]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        nonlocal steps
        (p, _), (q, _) = node
        targets = follow_to[q]
        found = [(a, b) for a in follow[p] for c in fits[a[0]] for b in targets.get(c, ())]
        steps -= len(found) + 1
        if steps < 0:
            raise too_complex
        return found

    # Tarjan's strongly connected components, iteratively.
    Node = tuple[tuple[int, int], tuple[int, int]]
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    on_stack: set[Node] = set()
    stack: list[Node] = []
    edges = sorted({e for f in g.follow for e in f})
    for root in ((e, e) for e in edges):
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for succ in it:
                if succ not in index:
                    if len(index) >= MAX_STATES:
                        raise too_complex
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(successors(succ))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if any(a == b for a, b in component) and any(a != b for a, b in component):
                    raise PatternError(
                        f"the pattern {text!r} can backtrack exponentially: a repeated part can match the same text "
                        "in more than one way (nested quantifiers such as (a+)+), so Python's engine can run for years on a short input",
                        _BACKTRACKING_HINT,
                    )


def check(text: str) -> None:
    """Every check a spec pattern must pass: the portable subset, then no exponential backtracking."""
    parse(text)
    check_backtracking(text)

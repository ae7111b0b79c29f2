"""Stage: a spec pattern compiled into a deterministic automaton (DFA) that decides JSON Schema's search.

A `pattern` is searched: the value matches when some part of it matches one
top-level branch, where a branch written with `^` must start at the beginning and
one written with `$` must end at the end of the value (ECMA-262's `$`, which JSON Schema
names: not Python's, which also matches before a final line feed). That is a regular language of whole values,

    L = union over the branches b of  X_b . body_b . Y_b

with X_b = "" for `^` and any text otherwise, and Y_b = "" for `$` and any
text otherwise. `compile_pattern` builds the DFA of L by the subset construction
over the Glushkov positions of the bodies (each character class occurrence is a
position; counted repeats are unrolled exactly), on an alphabet of disjoint
code point ranges (`Automaton.bounds`) grouped into classes of characters no
position tells apart. Running it reads each character once and looks up one
transition: time linear in the value's length in every runtime, whatever the
pattern. Two states end a run early: ALL (some branch matched and nothing after it
matters) and DEAD (no branch can match any more).

The construction is bounded, so load stays fast and its refusals deterministic: a
pattern that unrolls to more than MAX_POSITIONS positions or whose DFA needs more
than MAX_STATES states is refused at load as too complex (PatternError).

Characters are code points; a lone surrogate is one like any other (a Python str
can hold one). `\\d \\s \\w` have Python's Unicode meaning, \\d and \\w pinned to Unicode 14.0
(generator/unicode_classes.py).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cache

from generator import unicode_classes
from generator.patterns import Anchor, Chars, Group, Pattern, PatternError, Repeat, escape_ranges, merge_ranges, parse

MAX_POSITIONS = 5_000  # character positions once counted repeats are unrolled
MAX_STATES = 4_096  # states of the DFA
MAX_WORK = 4_000_000  # positions and transitions the subset construction may visit in all

LAST = 0x10FFFF
Ranges = tuple[tuple[int, int], ...]

DEAD = 0  # no branch can match whatever follows
ALL = 1  # a branch matched; whatever follows, the value matches


@dataclass(frozen=True)
class Automaton:
    """A DFA over classes of code points.

    The code point c is in class `classes[i]` for the last i with `bounds[i] <= c`.
    From state s, a character of class k leads to `table[s * width + k]`. States 0
    (DEAD) and 1 (ALL) lead to themselves; a value matches when the state after its
    last character is in `accepting` (ALL always is, DEAD never)."""

    bounds: tuple[int, ...]
    classes: tuple[int, ...]
    width: int  # the number of classes
    table: tuple[int, ...]
    accepting: frozenset[int]
    start: int

    @property
    def states(self) -> int:
        return len(self.table) // self.width

    def search(self, value: str) -> bool:
        """Whether the value matches: the reference walk the generated runtimes repeat."""
        state = self.start
        for ch in value:
            if state <= ALL:
                break
            state = self.table[state * self.width + self.classes[bisect_right(self.bounds, ord(ch)) - 1]]
        return state in self.accepting

    def encode(self) -> str:
        """The automaton as one line of text the runtimes decode at import: three ";"-separated lists of
        base-36 numbers: the alphabet, the table row by row, and the start state followed by the
        accepting states. Each item of the alphabet is an interval's first code point and its class
        ("b.k"), or a run of intervals cut at the edges of a pinned table (`encode_alphabet`)."""

        def numbers(values: tuple[int, ...] | list[int]) -> str:
            return ",".join(_base36(v) for v in values)

        alphabet = encode_alphabet(self.bounds, self.classes)
        # The runtimes rebuild the alphabet as decode_alphabet does: a run that cut it otherwise would be a wrong matcher.
        assert decode_alphabet(alphabet) == (self.bounds, self.classes), "an alphabet run does not rebuild the alphabet"
        return ";".join((alphabet, numbers(self.table), numbers([self.start, *sorted(self.accepting)])))


# The tables every runtime holds (generator/unicode_classes.py), by the letter an encoded run names them with.
TABLES = {"D": unicode_classes.DIGIT, "W": unicode_classes.WORD}
MIN_RUN = 8  # intervals: a shorter run is written out


def table_edges(ranges: Ranges) -> tuple[int, ...]:
    """Where a table's ranges start and end: its edges, a range starting at every even index."""
    out: list[int] = []
    for lo, hi in ranges:
        out.append(lo)
        if hi < LAST:
            out.append(hi + 1)
    return tuple(out)


_EDGES = {letter: table_edges(ranges) for letter, ranges in TABLES.items()}
_EDGE_INDEX = {letter: {edge: i for i, edge in enumerate(edges)} for letter, edges in _EDGES.items()}


def encode_alphabet(bounds: tuple[int, ...], classes: tuple[int, ...]) -> str:
    """The alphabet, each run of MIN_RUN or more intervals cut exactly at a pinned table's edges written as
    "<letter><first edge>.<count>.<class in>.<class out>": \\w alone cuts the code points into 1,400
    intervals, which the runtimes rebuild from the table they hold instead of 10 KB of numbers per pattern.
    An interval starting at an even edge of the table is in it, and of the class in; the others of the class out."""
    items: list[str] = []
    i = 0
    while i < len(bounds):
        best = max((_run(letter, bounds, classes, i) for letter in TABLES), key=lambda run: run[2])
        letter, first, count, inside, outside = best
        if count >= MIN_RUN:
            items.append(letter + ".".join(_base36(v) for v in (first, count, inside, outside)))
            i += count
        else:
            items.append(f"{_base36(bounds[i])}.{_base36(classes[i])}")
            i += 1
    return ",".join(items)


def _run(letter: str, bounds: tuple[int, ...], classes: tuple[int, ...], i: int) -> tuple[str, int, int, int, int]:
    """(letter, first edge, intervals, class in, class out) of the run of table edges starting at bounds[i]."""
    edges = _EDGES[letter]
    first = _EDGE_INDEX[letter].get(bounds[i])
    if first is None or i + 1 >= len(bounds):
        return letter, 0, 0, 0, 0
    expected = {first % 2: classes[i], (first + 1) % 2: classes[i + 1]}  # parity of the edge -> class
    count = 0
    while (
        i + count < len(bounds)
        and first + count < len(edges)
        and bounds[i + count] == edges[first + count]
        and classes[i + count] == expected[(first + count) % 2]
    ):
        count += 1
    return letter, first, count, expected[0], expected[1]


def decode_alphabet(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(bounds, classes) from encode_alphabet's text: what the runtimes do at import."""
    bounds: list[int] = []
    classes: list[int] = []
    for item in text.split(","):
        if item[0] in TABLES:
            first, count, inside, outside = (int(v, 36) for v in item[1:].split("."))
            for j in range(first, first + count):
                bounds.append(_EDGES[item[0]][j])
                classes.append(outside if j % 2 else inside)
        else:
            bound, k = item.split(".")
            bounds.append(int(bound, 36))
            classes.append(int(k, 36))
    return tuple(bounds), tuple(classes)


def _base36(value: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        value, digit = divmod(value, 36)
        text = digits[digit] + text
        if value == 0:
            return text


# --- character classes, exactly as Python's re reads them on str ---------------------------


def _complement(ranges: Ranges) -> Ranges:
    """Every code point not in ranges, lone surrogates included."""
    out, start = [], 0
    for lo, hi in ranges:
        if lo > start:
            out.append((start, lo - 1))
        start = hi + 1
    if start <= LAST:
        out.append((start, LAST))
    return tuple(out)


def _escape(name: str) -> Ranges:
    """\\d \\s \\w as patterns.escape_ranges has them; \\D \\S \\W their complement, lone surrogates included."""
    return escape_ranges(name) if name.islower() else _complement(escape_ranges(name.lower()))


def char_set(node: Chars) -> Ranges:
    """The code points one position reads."""
    ranges: list[tuple[int, int]] = []
    for kind, value in node.items:
        if kind == "range":
            ranges.append(value)  # type: ignore[arg-type]
        elif kind == "dot":
            ranges.extend(((0, 9), (11, LAST)))
        else:
            ranges.extend(_escape(str(value)))
    merged = merge_ranges(tuple(ranges))
    return _complement(merged) if node.negated else merged


# --- Glushkov positions, counted repeats unrolled -------------------------------------------


class _Positions:
    """Positions (bit i of a mask is position i) and, per position, the mask of those that may follow it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sets: list[Ranges] = []
        self.follow: list[int] = []

    def add(self, node: Chars) -> int:
        if len(self.sets) >= MAX_POSITIONS:
            raise too_complex(self.text, f"its counted repeats unroll to more than {MAX_POSITIONS:,} characters")
        self.sets.append(char_set(node))
        self.follow.append(0)
        return 1 << (len(self.sets) - 1)

    def link(self, sources: int, targets: int) -> None:
        while sources:
            low = sources & -sources
            self.follow[low.bit_length() - 1] |= targets
            sources ^= low

    def node(self, node: object) -> tuple[bool, int, int]:
        """(nullable, first, last) of a node, adding its positions and follow links."""
        if isinstance(node, Chars):
            p = self.add(node)
            return False, p, p
        if isinstance(node, Group):
            return self.alternatives(node.alternatives)
        assert isinstance(node, Repeat)
        if node.high is None:
            parts = [self.node(node.node) for _ in range(max(node.low, 1))]
            nullable, first, last = self.sequence(parts)
            self.link(parts[-1][2], parts[-1][1])  # the last copy repeats
            return nullable or node.low == 0, first, last
        # X{n,m} = X...X (X(X(X)?)?)?: n copies, then m - n optional ones, each only after the one before.
        nullable, first, last = self.sequence([self.node(node.node) for _ in range(node.low)])
        entry = last if node.low else 0
        for _ in range(node.high - node.low):
            part_nullable, part_first, part_last = self.node(node.node)
            self.link(entry, part_first)
            if nullable:
                first |= part_first
            last |= part_last
            entry = part_last | (entry if part_nullable else 0)
            if not node.low:
                nullable = True
        return nullable or node.high == 0, first, last

    def sequence(self, parts: list[tuple[bool, int, int]]) -> tuple[bool, int, int]:
        nullable, first, last = True, 0, 0
        for part_nullable, part_first, part_last in parts:
            self.link(last, part_first)
            if nullable:
                first |= part_first
            last = (last | part_last) if part_nullable else part_last
            nullable = nullable and part_nullable
        return nullable, first, last

    def alternatives(self, branches: tuple[tuple[object, ...], ...]) -> tuple[bool, int, int]:
        nullable, first, last = False, 0, 0
        for branch in branches:
            n, f, la = self.sequence([self.node(item) for item in branch])
            nullable, first, last = nullable or n, first | f, last | la
        return nullable, first, last


def too_complex(text: str, why: str) -> PatternError:
    return PatternError(
        f"the pattern {text!r} is too complex to match in linear time: {why}",
        "simplify it: anchor it with ^ where it must start, and use fewer or smaller counted repeats "
        "(a wildcard followed by a counted one, such as .*a.{20}, needs a state for every way to be inside it)",
    )


# --- the alphabet ----------------------------------------------------------------------------


def _alphabet(sets: list[Ranges]) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """(bounds, class of each interval, mask of the positions reading each class): the code points cut
    into intervals at every edge of every set, intervals read by the same positions sharing a class."""
    edges = {0}
    for ranges in sets:
        for lo, hi in ranges:
            edges.add(lo)
            if hi < LAST:
                edges.add(hi + 1)
    bounds = sorted(edges)
    readers = [0] * len(bounds)  # interval -> mask of positions reading it
    positions_of: dict[Ranges, int] = {}  # a set -> the mask of the positions reading it (a set is often read by many)
    for position, ranges in enumerate(sets):
        positions_of[ranges] = positions_of.get(ranges, 0) | 1 << position
    for ranges, mask in positions_of.items():
        for lo, hi in ranges:
            for i in range(bisect_left(bounds, lo), bisect_right(bounds, hi)):
                readers[i] |= mask
    class_of: dict[int, int] = {}
    classes: list[int] = []
    masks: list[int] = []
    for mask in readers:
        if mask not in class_of:
            class_of[mask] = len(masks)
            masks.append(mask)
        classes.append(class_of[mask])
    # Neighbouring intervals of one class are one interval.
    merged_bounds: list[int] = []
    merged_classes: list[int] = []
    for bound, k in zip(bounds, classes):
        if not merged_classes or merged_classes[-1] != k:
            merged_bounds.append(bound)
            merged_classes.append(k)
    return tuple(merged_bounds), tuple(merged_classes), masks


# --- the subset construction -------------------------------------------------------------------


@cache
def compile_pattern(text: str) -> Automaton:
    """The DFA that decides whether a value matches the spec pattern (JSON Schema's search)."""
    return _compile(parse(text))


def _compile(pattern: Pattern) -> Automaton:
    text = pattern.source
    g = _Positions(text)
    branches = []  # (anchored at the start, anchored at the end, nullable, first, last)
    for branch in pattern.alternatives:
        body = [item for item in branch if not isinstance(item, Anchor)]
        nullable, first, last = g.sequence([g.node(item) for item in body])
        start = bool(branch) and isinstance(branch[0], Anchor) and branch[0].kind == "^"
        end = bool(branch) and isinstance(branch[-1], Anchor) and branch[-1].kind == "$"
        branches.append((start, end, nullable, first, last))
    n = len(g.sets)
    # Flags beyond the positions: where branches start, and what follows a finished `$` branch.
    begin, anywhere, end_here = (1 << (n + i) for i in range(3))
    first_anchored = first_anywhere = 0
    open_last = dollar_last = 0  # last positions of branches without `$`, with `$`
    nullable_open = {begin: False, anywhere: False}
    nullable_dollar = {begin: False, anywhere: False}
    for start, end, nullable, first, last in branches:
        flag = begin if start else anywhere
        if start:
            first_anchored |= first
        else:
            first_anywhere |= first
        if end:
            dollar_last |= last
            nullable_dollar[flag] = nullable_dollar[flag] or nullable
        else:
            open_last |= last
            nullable_open[flag] = nullable_open[flag] or nullable
    unanchored = any(not start for start, *_ in branches)
    bounds, classes, masks = _alphabet(g.sets)
    width = len(masks)
    positions = (1 << n) - 1

    def close(state: int) -> int:
        """A branch that just finished: ALL without `$`, the end flag with it."""
        if state & open_last or any(state & flag and nullable_open[flag] for flag in (begin, anywhere)):
            return -1  # ALL
        if state & dollar_last or any(state & flag and nullable_dollar[flag] for flag in (begin, anywhere)):
            state |= end_here
        return state

    ids: dict[int, int] = {}
    order: list[int] = []
    table: list[int] = []
    accepting = {ALL}
    work = MAX_WORK

    def state_id(state: int) -> int:
        if state == -1:
            return ALL
        if state == 0:
            return DEAD
        if state not in ids:
            if len(ids) + 2 >= MAX_STATES:
                raise too_complex(text, f"its automaton needs more than {MAX_STATES:,} states")
            ids[state] = len(ids) + 2
            order.append(state)
        return ids[state]

    start_id = state_id(close(begin | anywhere))
    done = 0
    while done < len(order):
        state = order[done]
        done += 1
        if state & end_here:
            accepting.add(ids[state])
        reachable = 0
        if state & begin:
            reachable |= first_anchored
        if state & anywhere:
            reachable |= first_anywhere
        rest = state & positions
        while rest:
            low = rest & -rest
            reachable |= g.follow[low.bit_length() - 1]
            rest ^= low
            work -= 1
        work -= width
        if work < 0:
            raise too_complex(text, "building its automaton takes too many steps")
        for k in range(width):
            target = (reachable & masks[k]) | (anywhere if unanchored else 0)
            table.append(state_id(close(target)))
    fixed = [DEAD] * width + [ALL] * width  # the rows of DEAD and ALL: each leads to itself
    return Automaton(bounds, classes, width, tuple(fixed + table), frozenset(accepting), start_id)

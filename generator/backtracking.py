"""Stage: which spec patterns a backtracking engine (Python's re, JavaScript's RegExp) runs in linear time, proven per pattern.

Python's `re` and JavaScript's `RegExp` try the ways a pattern can match one after
another, so most patterns run in linear time but some take polynomial or
exponential time on the wrong value. `runs_linear(text)` accepts a pattern only
when this proof holds for it; every other pattern is matched with its automaton
(generator/automaton.py) in those runtimes.

The model. A backtracking engine walks the pattern's Thompson automaton in depth-first
order: character nodes (a class occurrence, reading one character), choice nodes
(an alternation `|`, an optional part, the next turn of a repeat or its exit, tried
in order) and the end of a top-level branch (a match, with `$` an O(1) test of
where it is: at the end (Python's `\\Z`, JavaScript's `$`)). Counted repeats are unrolled:
X{2,4} = X X (X (X)?)?, which is how the engines' counters branch. Its work is
the number of (node, position in the value) pairs the walk visits.

The condition, checked on that automaton:

1. From the start, and from every character node, each node reached through
   choice nodes alone is reached along exactly one path (so no choice node
   closes a loop without reading a character), and the character nodes so
   reached read pairwise disjoint sets of characters;
2. every top-level branch starts with `^`, or matches at most NATIVE_SPAN
   characters.

Why it is linear. Take one attempt from one start position. By (1), after reading
the characters v[start:i] the walk can be at one character node at most (two would
be two distinct paths reading the same text: at their first difference, two nodes
of one closure reading the same character). So the attempt visits, for each i,
that node's closure (at most m nodes, m the size of the automaton, each once by
the first half of (1)), and a node that cannot read v[i] fails at once: at most
(n + 1) * m visits, and a failed attempt never re-enters a position by another
path because there is none. By (2), the attempts at start positions after the
first fail at once at `^` or read at most NATIVE_SPAN characters each: the whole
search is O(n * m * NATIVE_SPAN). Both engines' optimisations (Python's single
character repeats, literal prefixes; V8's lookahead) only skip parts of this walk.

Patterns whose automaton has more than MAX_NODES nodes are not judged (they get the
automaton). tests/test_linear_patterns.py runs every pattern this module accepts
against adversarial values in both engines.
"""

from __future__ import annotations

from functools import cache

from generator.automaton import Ranges, char_set
from generator.patterns import Anchor, Chars, Group, Repeat, parse

NATIVE_SPAN = 16  # characters an unanchored branch may match for the native search
MAX_NODES = 2_000  # nodes of the Thompson automaton the proof looks at

_MATCH = -1  # the end of a top-level branch


class _TooLarge(Exception):
    pass


class _Thompson:
    """Nodes: a character node reads its set then goes to its one successor; a choice node has several successors."""

    def __init__(self) -> None:
        self.sets: list[Ranges | None] = []  # None for a choice node
        self.succ: list[list[int]] = []

    def new(self, ranges: Ranges | None, succ: list[int]) -> int:
        if len(self.sets) >= MAX_NODES:
            raise _TooLarge
        self.sets.append(ranges)
        self.succ.append(succ)
        return len(self.sets) - 1

    def node(self, node: object, then: int) -> int:
        """The entry of node, continuing at then."""
        if isinstance(node, Anchor):
            return then  # `^` passes at the start; `$` only ends a top-level branch: the match node tests it
        if isinstance(node, Chars):
            return self.new(char_set(node), [then])
        if isinstance(node, Group):
            return self.choice([self.sequence(branch, then) for branch in node.alternatives])
        assert isinstance(node, Repeat)
        if node.high is None:
            loop = self.new(None, [])
            self.succ[loop] = [self.node(node.node, loop), then]  # greedy: another turn first
            entry = loop
            for _ in range(node.low):
                entry = self.node(node.node, entry)
            return entry
        entry = then
        for _ in range(node.high - node.low):
            entry = self.new(None, [self.node(node.node, entry), then])
        for _ in range(node.low):
            entry = self.node(node.node, entry)
        return entry

    def sequence(self, items: tuple[object, ...], then: int) -> int:
        for item in reversed(items):
            then = self.node(item, then)
        return then

    def choice(self, entries: list[int]) -> int:
        return entries[0] if len(entries) == 1 else self.new(None, entries)


def _span(node: object) -> float:
    """The most characters a node can match."""
    if isinstance(node, Anchor):
        return 0
    if isinstance(node, Chars):
        return 1
    if isinstance(node, Group):
        return max(sum(_span(item) for item in branch) for branch in node.alternatives)
    assert isinstance(node, Repeat)
    return float("inf") if node.high is None else node.high * _span(node.node)


def _disjoint(sets: list[Ranges]) -> bool:
    edges = sorted(r for ranges in sets for r in ranges)
    return all(edges[i][0] > edges[i - 1][1] for i in range(1, len(edges)))


@cache
def runs_linear(text: str) -> bool:
    """Whether Python's re.search and JavaScript's RegExp.test run the spec pattern in time linear in the value's length."""
    pattern = parse(text)
    for branch in pattern.alternatives:
        anchored = bool(branch) and isinstance(branch[0], Anchor) and branch[0].kind == "^"
        if not anchored and sum(_span(item) for item in branch) > NATIVE_SPAN:
            return False
    g = _Thompson()
    try:
        root = g.choice([g.sequence(branch, _MATCH) for branch in pattern.alternatives])
    except _TooLarge:
        return False
    closures: dict[int, frozenset[int] | None] = {}  # node -> the character and match nodes its choices reach; None: on the way

    def closure(node: int) -> frozenset[int]:
        if node == _MATCH or g.sets[node] is not None:
            return frozenset((node,))
        if node in closures:
            found = closures[node]
            if found is None:
                raise _TooLarge  # a loop of choices that reads nothing
            return found
        closures[node] = None
        reached: frozenset[int] = frozenset()
        for succ in g.succ[node]:
            part = closure(succ)
            if reached & part:
                raise _TooLarge  # two paths to one node
            reached |= part
        closures[node] = reached
        return reached

    try:
        for start in [root, *(g.succ[n][0] for n, ranges in enumerate(g.sets) if ranges is not None)]:
            # A choice node's own closure was checked for two paths inside it; here its reads must differ.
            reads = [g.sets[n] for n in closure(start) if n != _MATCH]
            if not _disjoint([r for r in reads if r is not None]):
                return False
    except (_TooLarge, RecursionError):
        return False
    return True

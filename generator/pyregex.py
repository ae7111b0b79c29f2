"""Spec patterns in Python: the `re` spelling, and the expression that compiles one, for both Python targets
(the dataclass package and the pydantic models), as pyformat.py is their one formatter."""

from __future__ import annotations

from generator import invisible
from generator.automaton import compile_pattern
from generator.backtracking import runs_linear
from generator.patterns import Chars, emit, escape_items, parse, pattern_char, py_char, py_item


def to_python(text: str) -> str:
    """The pattern in Python's `re` syntax (re.search runs it): the spec's own dialect, so only the spelling of
    characters changes, and \\d and \\w's, which are spelt out as their pinned ranges (generator/unicode_classes.py:
    a Python later than 3.11 would read them with newer Unicode tables)."""
    return emit(parse(text).alternatives, _chars, "$")


def _item(item: tuple[str, object], in_class: bool) -> str:
    kind, value = item
    if kind == "esc" and value in ("d", "w"):
        body = escape_items(str(value), _hex)
        return body if in_class else f"[{body}]"
    if kind == "esc" and value in ("D", "W"):
        return f"[^{escape_items(str(value).lower(), _hex)}]"  # the parser refuses \\D and \\W inside a class
    return py_item(item, in_class)


def _hex(code: int, in_class: bool) -> str:
    """A character in a class, hex beyond ASCII (\\d's and \\w's ranges are read as numbers, not as script)."""
    return py_char(code, in_class) if code < 0x80 else pattern_char(code, "", True)


def _chars(node: Chars) -> str:
    if not node.bracketed:
        return _item(node.items[0], in_class=False)
    return "[" + ("^" if node.negated else "") + "".join(_item(i, in_class=True) for i in node.items) + "]"


def matcher(pattern: str) -> str:
    """The expression that compiles a spec pattern once, at import, with the runtime imported as _rt: Python's re
    where it provably runs in time linear in the value's length (generator/backtracking.py), else the pattern's
    automaton. (A literal as repr spells it, the characters that hide or reorder text escaped.)"""
    if runs_linear(pattern):
        return f"_rt.regex({invisible.shown(repr(to_python(pattern)))})"
    return f"_rt.Automaton({invisible.shown(repr(compile_pattern(pattern).encode()))})"


def checks_const(digest: str) -> str:
    """The module constant of a schema applied as written, e.g. _CHECKS_3f2a9c1b07de."""
    return f"_CHECKS_{digest}"


def checks_expr(text: str, patterns: tuple[str, ...]) -> str:
    """The expression that compiles a schema's checks (generator/checks.py) once, at import, with its patterns."""
    matchers = "".join(f"{matcher(p)}, " for p in patterns)
    return f"_rt.Checks({invisible.shown(repr(text))}, ({matchers}))"

"""Spec patterns in Python: the `re` spelling, and the expression that compiles one, for both Python targets
(the dataclass package and the pydantic models), as pyformat.py is their one formatter."""

from __future__ import annotations

from generator import invisible
from generator.automaton import compile_pattern
from generator.backtracking import runs_linear
from generator.patterns import emit, has_pinned_class, parse, spell_chars
from generator.pyliterals import py_str


def to_python(text: str) -> str:
    """The pattern in Python's `re` syntax (re.search runs it): the spec's own dialect, so only the spelling of
    characters changes, and `$`, which is the end of the text (ECMA-262's), becomes `\\Z` (Python's `$` also
    matches before a final line feed). \\d and \\w stay: the runtime spells them out as their pinned ranges
    (_rt.pinned, generator/unicode_classes.py) where the Python running the code reads them with other Unicode
    tables."""
    return emit(parse(text).alternatives, spell_chars, "\\Z")


def pinned(text: str) -> str:
    """The expression of a pattern's Python spelling that a library compiles itself (pydantic's Field, msgspec's
    Meta), with the runtime imported as _rt: wrapped in _rt.pinned where it holds a \\d or a \\w."""
    spelt = py_str(to_python(text))
    return f"_rt.pinned({spelt})" if has_pinned_class(text) else spelt


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

"""Spec patterns in Python's `re` syntax: the spec's own dialect, so only the spelling of characters changes."""

from __future__ import annotations

from generator.patterns import emit, parse, spell_chars


def to_python(text: str) -> str:
    """The pattern in Python's `re` syntax (re.search runs it)."""
    return emit(parse(text).alternatives, spell_chars, "$")

"""Python source literals both Python targets spell values with (the dataclass package and the msgspec package),
as pyregex.py spells their patterns and pyformat.py formats their modules."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from generator import invisible
from generator.messages import number_literal


def py_str(text: str) -> str:
    """A Python string literal (repr is exact for every str, quotes and all; the characters that hide
    or reorder text are escaped too, where repr leaves printable ones such as U+3164 raw)."""
    return invisible.shown(repr(text))


def py_value(value: Any) -> str:
    """A JSON value as a Python literal: numbers as every target writes them (messages.number_literal), the rest by repr."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number_literal(value)
    return invisible.shown(repr(value))  # repr writes a character only inside a string literal


def py_tuple(items: Iterable[str]) -> str:
    """A tuple literal of source snippets (a 1-tuple keeps its comma), e.g. (a, b)."""
    items = list(items)
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def py_strs(items: Iterable[str]) -> str:
    """A tuple literal of strings, e.g. ('user', 'assistant')."""
    return py_tuple(py_str(i) for i in items)

"""Translate a spec pattern to Go's RE2 syntax with the meaning Python's `re` gives it.

The parsing, the portable subset and the translation live in generator/patterns.py
(one parse tree for every target); this module keeps the Go target's import.
"""

from __future__ import annotations

from generator.patterns import PatternError, to_go

__all__ = ["PatternError", "to_go"]

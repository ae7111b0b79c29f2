"""The formatting stage for Python output: black, remembered by content.

Every Python file chatspec writes (the Python and pydantic targets) goes through
format_python, so they are formatted alike; black is most of an uncached run's time.
"""

from __future__ import annotations

from generator import cache


def format_python(code: str) -> str:
    """black's output for code (target Python 3.11)."""
    return cache.memo("black", [*cache.tool_versions("black"), "py311", code], lambda: _black(code))


def _black(code: str) -> str:
    import black  # late: a run whose formatting is all cached need not import it

    return black.format_str(code, mode=black.Mode(target_versions={black.TargetVersion.PY311}))


def warm_up() -> None:
    """Import black and format a line: a worker does it before its first module arrives."""
    _black("x = ( 1, )\n")

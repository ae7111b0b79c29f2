"""The format's descriptions and version kept out of what black formats (generator/standins.py).

The module is rendered from the format with each plain description replaced by a stand-in and
the version by another, formatted (black, remembered by that text), and the stand-ins replaced
back: after an edit of descriptions and the bump that follows it, black has nothing new to format,
so a run need not import it. Every such text lands in a docstring or the VERSION string, whose
formatting black does not derive from their content, with one exception its length decides: the
last line of the module's docstring (the format's description) gets its closing quotes on a line
of their own past 85 characters, so that stand-in is past 85 characters too when the description
is. restore() refuses (None: the real format is rendered) wherever a
stand-in landed anywhere else. tests/test_python_target.py holds both ways equal on drawn texts.
"""

from __future__ import annotations

import re

from generator import ir, standins
from generator.standins import put_back

_LINE_LENGTH = 88  # black's default, which chatspec uses: past it, a multi-line docstring's closing quotes move
# The lines a stand-in may be found on: a one-line docstring, the module docstring's first and last
# lines, and the VERSION constant (S is a stand-in, V the version's).
_ALLOWED = [
    re.compile(p) for p in (r'^ *"""S"""$', r'^"""[^"\\]* \(format [^"\\]*, version V\)\.$', r'^S\.*(""")?$', r'^VERSION: Final = "V"$')
]


def blind(fmt: ir.Format) -> tuple[ir.Format, list[str]] | None:
    """(the format with each plain description and its version stood in for, the texts by stand-in
    number, the version last), or None where the module's docstring would not be plain."""

    def described(text: str) -> str:
        # The module docstring's last line: on the same side of black's turn as the description.
        if len(fmt.description) + 3 > _LINE_LENGTH:
            return text + "." * (_LINE_LENGTH - 2 - len(text))  # as long as any description whose quotes move
        return text

    return standins.blind(fmt, described)


def restore(code: str, texts: list[str]) -> str | None:
    """The module formatted from the skeleton with its texts back (the version last); None where a
    stand-in is anywhere black could have formatted it by its content (the caller then formats the
    real module)."""
    return put_back(code, texts[:-1], _ALLOWED, version=texts[-1])

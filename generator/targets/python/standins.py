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

import dataclasses
import re

from generator import cache, ir
from generator.standins import RESERVED, VERSION, plain, put_back, stand_in

_LINE_LENGTH = 88  # black's default, which chatspec uses: past it, a multi-line docstring's closing quotes move
# The lines a stand-in may be found on: a one-line docstring, the module docstring's first and last
# lines, and the VERSION constant (S is a stand-in, V the version's).
_ALLOWED = [
    re.compile(p) for p in (r'^ *"""S"""$', r'^"""[^"\\]* \(format [^"\\]*, version V\)\.$', r'^S\.*(""")?$', r'^VERSION: Final = "V"$')
]


def blind(fmt: ir.Format) -> tuple[ir.Format, list[str]] | None:
    """(the format with each plain description and its version stood in for, the texts by stand-in
    number, the version last), or None where the module's docstring would not be plain."""
    if not plain(fmt.description) or not plain(fmt.version) or len(fmt.version) > 40 or RESERVED in repr(fmt):
        return None
    texts: dict[str, int] = {}

    def instead(text: str) -> str:
        return stand_in(texts.setdefault(text, len(texts))) if plain(text) else text

    def definition(d: ir.Definition) -> ir.Definition:
        if isinstance(d, ir.Model):
            fields = tuple(dataclasses.replace(f, description=instead(f.description)) for f in d.fields)
            return dataclasses.replace(d, description=instead(d.description), fields=fields)
        return dataclasses.replace(d, description=instead(d.description))

    definitions = tuple(definition(d) for d in fmt.definitions)
    # The module docstring's last line: on the same side of black's turn as the description.
    described = stand_in(len(texts))
    if len(fmt.description) + 3 > _LINE_LENGTH:
        described += "." * (_LINE_LENGTH - 2 - len(described))  # as long as any description whose quotes move
    skeleton = dataclasses.replace(fmt, description=described, version=VERSION, definitions=definitions)
    return skeleton, [*texts, fmt.description, fmt.version]


def fingerprint_apart(fmt: ir.Format) -> str:
    """cache.fingerprint of the format with its plain descriptions and version stood in for (blind): the
    part of a key for a check that reads neither (its examples and defaults, against the exported schema or
    the generated code), so that an edit of them and its bump find the check's last verdict."""
    blinded = blind(fmt)
    return cache.fingerprint(fmt if blinded is None else blinded[0])


def restore(code: str, texts: list[str]) -> str | None:
    """The module formatted from the skeleton with its texts back (the version last); None where a
    stand-in is anywhere black could have formatted it by its content (the caller then formats the
    real module)."""
    return put_back(code, texts[:-1], _ALLOWED, version=texts[-1])

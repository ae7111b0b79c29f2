"""standins: descriptions (and the version) kept out of what a slow formatter remembers.

Editing a description, then bumping the version, is the most common change to a spec. Where a
target's slow step (datamodel-code-generator, black) writes such a text only as the line of a
docstring, its output does not depend on the text: a run remembers the output for the format with
each text replaced by a stand-in, and replaces the stand-ins back. The pydantic target does so for
datamodel-code-generator (targets/pydantic/descriptions.py), the Python target for black
(targets/python/standins.py); each checks where its stand-ins landed, and renders the real text
wherever one is not where it must be.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator import invisible

RESERVED = "chatspecdescription"  # a text that holds this is never stood in for
FIND = re.compile(RESERVED + r"(\d+)z")  # the z ends it, so 1z is not found in 10z
VERSION = "chatspecversionz"  # the version's stand-in


def stand_in(index: int) -> str:
    return f"{RESERVED}{index}z"


def plain(text: str) -> bool:
    """Whether a formatter writes text into a docstring line exactly as it is: one line, printable,
    nothing that hides or reorders text (the targets escape it), no surrounding space, no backslash,
    no quote at either end or two in a row, no stand-in's spelling."""
    return (
        bool(text)
        and text == text.strip()
        and text.isprintable()
        and invisible.first(text) is None
        and "\\" not in text
        and '""' not in text
        and not text.startswith('"')
        and not text.endswith('"')
        and RESERVED not in text
    )


def put_back(code: str, texts: list[str], allowed: Iterable[re.Pattern[str]], version: str | None = None) -> str | None:
    """code with each stand-in replaced by its text (and any padding dots after it), and VERSION by
    version; None where a line holding a stand-in is not of an allowed shape (there, its stand-ins
    spelt S and the version's V) or a stand-in has no text."""
    allowed = list(allowed)
    for line in code.split("\n"):
        if (RESERVED in line or VERSION in line) and not any(p.match(FIND.sub("S", line).replace(VERSION, "V")) for p in allowed):
            return None
        if line.count(VERSION) > 1:
            return None  # the version's spelling in a text beside its stand-in (a title): it would be replaced too
    if any(int(n) >= len(texts) for n in FIND.findall(code)) or (version is None and VERSION in code):
        return None
    code = re.sub(FIND.pattern + r"\.*", lambda m: texts[int(m.group(1))], code)
    return code if version is None else code.replace(VERSION, version)

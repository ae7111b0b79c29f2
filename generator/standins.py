"""standins: descriptions (and the version) kept out of what a slow formatter remembers.

Editing a description, then bumping the version, is the most common change to a spec. Where a
target's slow step (datamodel-code-generator, black) writes such a text only as the line of a
docstring, its output does not depend on the text: a run remembers the output for the format with
each text replaced by a stand-in, and replaces the stand-ins back. The pydantic target does so for
datamodel-code-generator (targets/pydantic/descriptions.py), the Python target for black
(targets/python/standins.py); each checks where its stand-ins landed, and renders the real text
wherever one is not where it must be.

The same holds for the checks that run a Python module's examples (example_keys.py): a module
whose texts were put back only into docstrings and the VERSION string, and that reads neither, runs
as the module with the stand-ins. Each such module this run makes is noted (made; a worker sends
its own, noted), and a check remembers its verdict by that module (as_run), so an edit of
descriptions and its bump does not run the examples again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Iterable

from generator import cache, invisible, ir

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


def blind(fmt: ir.Format, described: Callable[[str], str] = str) -> tuple[ir.Format, list[str]] | None:
    """(the format with each plain description of its definitions and fields stood in for, its own
    description by described(its stand-in) and its version by VERSION; the texts by stand-in number,
    then the format's description and version), or None where those two are not plain."""
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
    skeleton = dataclasses.replace(fmt, description=described(stand_in(len(texts))), version=VERSION, definitions=definitions)
    return skeleton, [*texts, fmt.description, fmt.version]


def fingerprint_apart(fmt: ir.Format) -> str:
    """cache.fingerprint of the format with its plain descriptions and version stood in for (blind): the
    part of a key for a check that reads neither (its examples and defaults, against the exported schema or
    the generated code), so that an edit of them and its bump find the check's last verdict."""
    blinded = blind(fmt)
    return cache.fingerprint(fmt if blinded is None else blinded[0])


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
    # The version first: a text put back may spell its stand-in, and is written as it is.
    code = code if version is None else code.replace(VERSION, version)
    return re.sub(FIND.pattern + r"\.*", lambda m: texts[int(m.group(1))], code)


# sha256 of a module put back -> sha256 of the module with its stand-ins, for each one this process made
# (a digest each: a long test run makes thousands of modules).
_MADE: dict[str, str] = {}
# What may read a docstring or a version at run time: their names, and the ways to reach a name, an attribute
# or source text without spelling it. Generated code spells none of them but on the lines _OWN_LINES holds; a
# behaviour block may, in its own module or another's (reads_texts).
_READS_TEXTS = re.compile(
    r"__doc__|\b(?:getdoc|VERSION|globals|locals|vars|getattr|getattr_static|attrgetter|__getattribute__|eval|exec|compile"
    r"|__import__|importlib|builtins|__builtins__|inspect|linecache|__file__|__loader__|__spec__|__dict__|modules)\b|\bopen\s*\("
)
_OWN_LINES = re.compile(r'^(?:VERSION: Final = "[^"\n]*"|    "VERSION",| *built\.__dict__ = \{)$', re.M)


def made(stood_in: str, put_back_into: str) -> None:
    """Note that put_back_into was made by putting texts back into the formatted module stood_in."""
    _MADE[_sha(put_back_into)] = _sha(stood_in)


def reads_texts(code: str) -> bool:
    """Whether the module code may read a docstring or a version when it runs (_READS_TEXTS): a check that
    runs it then reads every module as written (example_keys.check_keys), not as run (as_run)."""
    return _READS_TEXTS.search(_OWN_LINES.sub("", code)) is not None


def as_run(code: str) -> str:
    """What a check of the module code runs depends on: the module with its stand-ins where this process
    made code from one (made), else code itself."""
    stood_in = _MADE.get(_sha(code))
    return code if stood_in is None else f"stood in: {stood_in}"


def noted() -> dict[str, str]:
    """What made noted in this process (a worker sends it with the modules it made)."""
    return dict(_MADE)


def note(found: dict[str, str]) -> None:
    """Take what another process of this run noted (noted)."""
    _MADE.update(found)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

"""Translate a spec pattern to Go's RE2 syntax with the meaning Python's `re` gives it.

Python's `re` is the reference dialect: the generated Python and the reference
validator (jsonschema) both run patterns with it. Go's RE2 differs where it
matters for chat text: its `\\s`, `\\d`, `\\w` are ASCII-only and its `$` does not
match before a final newline. Constructs RE2 cannot run (look-arounds,
back-references) are reported, never dropped.
"""

from __future__ import annotations

import re

# Python's \s on str: [ \t\n\r\f\v] plus every character str.isspace() accepts.
_SPACE = r"\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}"
# Python's \w on str: str.isalnum() (letters and every kind of number) plus "_".
_WORD = r"\p{L}\p{N}_"

_UNSUPPORTED = [
    (re.compile(r"\(\?<?[=!]"), "look-around assertions"),
    (re.compile(r"\\[1-9]|\(\?P="), "back-references"),
    (re.compile(r"\(\?>|[*+?}]\+"), "atomic groups or possessive quantifiers"),
]


class PatternError(ValueError):
    """The pattern uses a construct Go's RE2 cannot run."""


def to_go(pattern: str) -> str:
    for probe, what in _UNSUPPORTED:
        if probe.search(pattern):
            raise PatternError(f"the pattern uses {what}, which Go's RE2 engine cannot run")
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            i += 2
            if nxt == "d":
                out.append(r"\p{Nd}")
            elif nxt == "D":
                out.append(r"\P{Nd}")
            elif nxt in "sw":
                body = _SPACE if nxt == "s" else _WORD
                out.append(body if in_class else f"[{body}]")
            elif nxt in "SW":
                if in_class:
                    raise PatternError(f"the pattern uses \\{nxt} inside a character class, which Go's RE2 engine cannot express")
                out.append(f"[^{_SPACE if nxt == 'S' else _WORD}]")
            elif nxt == "Z":
                out.append(r"\z")
            else:
                out.append("\\" + nxt)
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            # A "]" right after "[" or "[^" is a literal member of the class.
            if pattern[i + 1 : i + 2] == "^":
                out.append("[^")
                i += 2
            else:
                out.append("[")
                i += 1
            if pattern[i : i + 1] == "]":
                out.append(r"\]")
                i += 1
            continue
        elif ch == "$":
            # Python's $ also matches just before a final newline.
            out.append(r"(?:\n?\z)")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)

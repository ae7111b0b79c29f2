"""Go source text for values: string literals, comments, struct tags.

Each is exact for any input (quotes, control characters, lone surrogates), so a spec's
text cannot break out of the literal or comment it is written into.
"""

from __future__ import annotations

import json
import re
import unicodedata

from generator import invisible
from generator.messages import show_control_characters


def go_str(text: str) -> str:
    """A Go interpreted string literal, exact for any text."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\uFFFD")  # a lone surrogate has no UTF-8 form
        elif (
            code < 0x20
            or code == 0x7F
            or code > 0x7F
            and (not ch.isprintable() and unicodedata.category(ch) != "Zs" or invisible.first(ch) is not None)
        ):
            out.append(invisible.u_escape(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_comment(text: str, indent: str = "") -> tuple[str, ...]:
    """`//` comment lines for free text, in the form gofmt leaves as it is.

    gofmt rewrites doc comments: indented lines become code blocks and ``
    or '' become typographic quotes. So lines lose their indentation and such
    pairs get a space between them; control characters are shown escaped.
    """
    text = show_control_characters(text.replace("\r\n", "\n").replace("\r", "\n"))
    while "``" in text or "''" in text:
        text = text.replace("``", "` `").replace("''", "' '")
    lines = []
    for line in text.split("\n"):
        line = line.replace("\t", "    ").strip()
        lines.append(f"{indent}// {line}" if line else f"{indent}//")
    while len(lines) > 1 and lines[-1].endswith("//"):
        lines.pop()
    return tuple(lines)


def go_const(value: str | bool | int | float) -> str:
    """A Go untyped constant: a string literal, true or false, or the number as Python writes it (1.0 stays a float)."""
    match value:
        case str():
            return go_str(value)
        case bool():
            return "true" if value else "false"
        case int() | float():
            return repr(value)
        case _:
            raise AssertionError(f"a Go constant is a string, a boolean or a number, not {value!r}")


_VALID_TAG = re.compile(r"^[A-Za-z0-9!#$%&()*+\-./:;<=>?@\[\]^_{|}~ ]+$")


def json_tag(wire: str, omitempty: bool) -> str:
    """The struct tag encoding/json reads; keys it cannot spell get none (MarshalJSON never needs it)."""
    if not _VALID_TAG.match(wire):
        return ""
    return "`json:" + json.dumps(wire + (",omitempty" if omitempty else "")) + "`"

"""TypeScript spellings of values: string, number and JSON literals, doc comments, regular expressions."""

from __future__ import annotations

import json
import re
from typing import Any, cast

from generator import invisible
from generator.automaton import compile_pattern
from generator.backtracking import runs_linear
from generator.patterns import Anchor, Chars, Group, Repeat, parse


def ts_str(text: str) -> str:
    """A string literal exact for any text (JSON's escapes are JavaScript's; U+2028/9, which end a
    line in JavaScript, and the other characters that hide or reorder text escaped too)."""
    return invisible.shown(json.dumps(text, ensure_ascii=False), invisible.json_escape)


def ts_number(value: float) -> str:
    """A number literal: integers as written, floats as Python writes them (1.0, 1e+16 are valid JavaScript)."""
    if isinstance(value, bool):
        raise TypeError("a boolean is no number")
    return json.dumps(value)


def exact_json(value: Any) -> str:
    """ts_json, but a number JavaScript would change as rt.JsonNumber, which keeps its text: an integer past
    2^53 (rounded otherwise) and an integral float ({value} shows 1.0, as Python does); undefined for None."""
    if value is None:
        return "undefined"
    if isinstance(value, float) and value.is_integer() or isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return f"new rt.JsonNumber({ts_str(json.dumps(value))})"
    return ts_json(value)


def ts_json(value: Any) -> str:
    """An expression for a JSON value. Objects and arrays go through JSON.parse, so a key
    such as "__proto__" stays an own property and each evaluation is a fresh copy."""
    if isinstance(value, (dict, list)) and not value:
        return "{}" if isinstance(value, dict) else "[]"
    if isinstance(value, (dict, list)):
        return f"JSON.parse({ts_str(json.dumps(value, ensure_ascii=False, separators=(',', ':')))})"
    if value is None or isinstance(value, (bool, str)):
        return ts_str(value) if isinstance(value, str) else json.dumps(value)
    return ts_number(value)


_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def ts_property(wire: str) -> str:
    """A property name in an interface: bare when it is an identifier, else a string literal."""
    return wire if _IDENTIFIER.match(wire) else ts_str(wire)


def ts_doc(text: str, indent: str = "") -> str:
    """A /** ... */ comment holding text as it is: "*/" cannot end it early, line breaks stay lines."""
    if not text:
        return ""
    body = text.replace("\r\n", "\n").replace("\r", "\n").replace("*/", "*\\/")
    body = "".join(
        c if c in "\n\t" or (0x20 <= ord(c) < 0x7F or ord(c) > 0x7F and invisible.first(c) is None) else f"\\u{{{ord(c):x}}}" for c in body
    )
    lines = body.split("\n")
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */"
    return "\n".join([f"{indent}/**", *(f"{indent} *{(' ' + line) if line else ''}" for line in lines), f"{indent} */"])


# --- patterns ------------------------------------------------------------------

# Python's \s on str (generator.patterns.SPACE_RANGES), spelled for a "u"-flag RegExp.
_SPACE = "\\t\\n\\x0b\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"


def _char(code: int) -> str:
    """One character, escaped unless an ASCII letter or digit: safe in and out of a class in "u" mode."""
    ch = chr(code)
    if ch.isascii() and ch.isalnum():
        return ch
    if ch == "\n":
        return "\\n"
    if ch == "\r":
        return "\\r"
    if ch == "\t":
        return "\\t"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\u{{{code:x}}}"


def _item(item: tuple[str, object], in_class: bool) -> str:
    kind, value = item
    if kind == "range":
        lo, hi = cast(tuple[int, int], value)
        return _char(lo) if lo == hi else f"{_char(lo)}-{_char(hi)}"
    if kind == "dot":
        return "[^\\n]"
    if value in ("d", "w", "D", "W"):
        # Kept as written: rt.regex spells them out as the pinned ranges (RegExp reads them as ASCII only).
        return f"\\{value}"
    if value == "s":
        return _SPACE if in_class else f"[{_SPACE}]"
    return f"[^{_SPACE}]"  # \\S: the parser refuses it inside a class


def _chars(node: Chars) -> str:
    if not node.bracketed:
        return _item(node.items[0], in_class=False)
    return "[" + ("^" if node.negated else "") + "".join(_item(i, in_class=True) for i in node.items) + "]"


def to_typescript(text: str) -> str:
    """An `rt.regex(...)` expression (a RegExp, "u" flag) with the meaning Python's `re.search` gives the spec pattern.

    `.` is any character but a line feed, `$` is the end of the text (RegExp's own, without the m flag),
    \\d \\s \\w have Python's Unicode meaning (rt.regex spells \\d and \\w out as the ranges pinned to Unicode 14.0);
    lengths and classes count code points ("u" flag).
    """

    def node_text(node: object) -> str:
        if isinstance(node, Anchor):
            return "^" if node.kind == "^" else "$"
        if isinstance(node, Chars):
            return _chars(node)
        if isinstance(node, Group):
            return "(?:" + alts(node.alternatives) + ")"
        assert isinstance(node, Repeat)
        return node_text(node.node) + node.text

    def alts(branches: tuple[tuple[object, ...], ...]) -> str:
        return "|".join("".join(node_text(n) for n in branch) for branch in branches)

    source = alts(parse(text).alternatives)
    return f"rt.regex({ts_str(source)})"


def ts_matcher(text: str) -> str:
    """The expression that compiles a spec pattern once, at import: a RegExp where the engine provably
    runs it in time linear in the value's length (generator/backtracking.py), else its automaton."""
    if runs_linear(text):
        return to_typescript(text)
    return f"new rt.Automaton({ts_str(compile_pattern(text).encode())})"


# The members every object has from Object.prototype.
OBJECT_MEMBERS = frozenset(
    {
        "constructor",
        "toString",
        "toLocaleString",
        "valueOf",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
    }
)

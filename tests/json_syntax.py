"""Malformed JSON text: every runtime must refuse it with Python's first message, word for word.

The generated Python reads text with the json module (and, past its recursion limit, with
_runtime._load_deep, which gives the same messages); the Go and TypeScript runtimes reproduce
those messages, line and column counted in characters (code points) as Python counts them.
The corpus: truncations at every byte of a few documents (one spread over lines, one with
characters outside ASCII and escapes), bad escapes, control characters in strings, trailing
commas, bad numbers and literals, NaN and Infinity, text after the value, and each of those
at the bottom of deep nesting (past Python's recursion limit too) and after a long integer.

    python tests/json_syntax.py    # how many cases, and the messages they get from Python
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# The documents that are cut at every byte (the format each is parsed as): between them every kind of value a
# direct reader reads (Go's rt.Scanner) ends a text somewhere: strings, nulls, booleans, lists, unions by tag,
# date-times, an integer (droidlet's timestamp: a cut after its ':' once indexed past the text in a mutant).
DOCUMENTS = [
    ("chat_event", ROOT / "specs" / "chat_event" / "examples" / "valid" / "completed_with_messages.json"),
    ("chat_modality", ROOT / "specs" / "chat_modality" / "examples" / "valid" / "user_sends_message.json"),
    ("droidlet_chat", ROOT / "specs" / "droidlet_chat" / "examples" / "valid" / "millisecond_timestamp.json"),
]

# Text put in place of a value, or the whole text.
PIECES = [
    # strings: escapes, control characters, the end of the text
    '"\\x"', '"\\u12G4"', '"\\u"', '"\\u12"', '"\\', '"a\\', "\"\\'\"", '"\\U0041"', '"\\ "', '"\\\n"', '"abc', '"',
    *(f'"a{chr(c)}b"' for c in [*range(0x20), 0x7F]), '"\\u0000"', '"é\x01"', '"😀\x1f"',
    '"\\n\x01"', '"\\u00e9\x1f b"',  # a control character after an escape (Go's escaped-string reader)
    # numbers
    "01", "-01", "00", "-", "-a", "--1", "+1", "1.", "1.e5", ".5", "1e", "1e+", "1e-", "1E", "1.5.5", "1e5.5", "0x10", "1_000",
    "-0.", "2.-1", "1ee2", "0.0e", "- 1",
    # literals and constants
    "NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "nan", "infinity", "tru", "nul", "fals", "True", "None", "nulll", "truex",
    "t", "n", "f", "undefined", "'x'",
    # structure
    "[1,]", '{"a": 1,}', "[,]", "[1,,2]", '{"a": 1,, "b": 2}', "{,}", "[1 2]", '{"a" 1}', '{"a": 1 "b": 2}', '{"a"}', '{"a":}',
    "{1: 2}", "{a: 1}", "{'a': 1}", "[}", "{]", "[1}", '{"a": 1]', "[", "{", "]", "}", ":", ",", '{"a": [1, 2}', "[[]", "[]]",
    '{"a":1}}', '{"a"::1}', "[1:2]", "",
    # whitespace JSON does not allow, and characters outside ASCII
    "\u00a01", "\u20281", "\f1", "\v1", "\ufeff1", "é", "[\"é\", é]", '["😀", 1 2]',
]

# How deep the pieces are put: around MaxDepth and past the C json module's recursion limit.
DEPTHS = [1, 127, 128, 129, 1_500, 5_000]


def _long(digits: int) -> str:
    return "1" * digits


def dropped_duplicates() -> list[str]:
    """chat_event texts the input policy refuses for what a value holds that a later duplicate key replaces."""
    pieces = ['"\\ud800"', '"\\udc00"', '"\\uDBFF\\uDBFF"', '"\\udc00\\ud800"', '"x\\\\\\ud800"', '"\\\\ud800\\udc00"',
              '{"b": "\\udfff"}', _long(4_301), "-" + _long(4_301), f"[{_long(5_000)}]", f'{{"b": {_long(4_301)}}}']
    out = []
    for piece in pieces:
        out.append(f'{{"session_id": {piece}, "session_id": "s", "role": "user"}}')
        out.append(f'{{"session_id": "s", "role": "user", "content": {{"a": {piece}, "a": 1}}}}')
    return out


def texts() -> list[tuple[str, bytes]]:
    """(format, bytes) of every case; no text is accepted (it is not JSON, or the input policy refuses it)."""
    out: list[tuple[str, bytes]] = []
    for fmt, path in DOCUMENTS:
        data = path.read_bytes().rstrip()  # a cut of the final newline alone would be valid
        compact = json.dumps(json.loads(data), ensure_ascii=False).encode()
        for doc in (data, compact):
            out += [(fmt, doc[:cut]) for cut in range(len(doc))]
            out += [(fmt, doc + tail) for tail in (b" x", b"\n\n  }", b",", b" 1", b"{}", b" \"", b"\x00")]
    # Every piece alone, inside an object member and an array, at each depth, after text outside ASCII.
    for piece in PIECES:
        out.append(("chat_event", piece.encode()))
        for depth in DEPTHS:
            out.append(("chat_event", ("[" * depth + piece + "]" * depth).encode()))
            half = depth // 2 + 1
            out.append(("chat_event", ('{"a": [' * half + piece + "]}" * half).encode()))
        out.append(("chat_event", ('{"é😀\\u00e9": "x\n\ty",\n "b": [' + piece + "]}").encode()))
    # After a long integer (Python's json.loads refuses it first, then the text is read again for its syntax).
    for piece in ("x", "NaN", "1 2", "1,]", '"\\x"', '"a\x01"', "-", "]"):
        for digits in (4_300, 4_301, 5_000):
            out.append(("chat_event", f"[{_long(digits)}, {piece}]".encode()))
            out.append(("chat_event", f"[{piece}, {_long(digits)}]".encode()))
    # Lone surrogates next to syntax errors: the syntax error is reported, whichever comes first.
    out += [("chat_event", t.encode()) for t in ('["\\ud800", x]', '[x, "\\ud800"]', '["\\udc00" 1]', '{"\\ud800": }')]
    # A value a later duplicate key replaces, which the JSON readers drop unread (red team round 11: Python's
    # surrogate check searched the value read, TypeScript's JSON.parse never saw the long integer): the text's
    # own rules hold for it all the same.
    out += [("chat_event", t.encode()) for t in dropped_duplicates()]
    # A long integer deeper than the json module's recursion (read by _load_deep) and than MAX_DEPTH, where no
    # value is built: the text's rule holds there too (red team round 12: Python reported the depth or the type).
    for depth in (200, 1_500, 5_000):
        out.append(("chat_event", ("[" * depth + _long(4_301) + "]" * depth).encode()))
        out.append(("chat_event", ('{"session_id": "s", "role": "user", "content": ' + "[" * depth + _long(4_301) + "]" * depth + "}").encode()))
    # Deep text that is cut, and deep text with a second value.
    for depth in (129, 5_000, 100_000):
        out.append(("chat_event", b"[" * depth))
        out.append(("chat_event", b"[" * depth + b"]" * (depth - 1)))
        out.append(("chat_event", b"[" * depth + b"]" * depth + b"]"))
        out.append(("chat_event", b"[" * depth + b"]" * depth + b" 1"))
        out.append(("chat_event", b'{"a":' * depth + b"1" + b"}" * (depth - 1)))
        out.append(("chat_event", b'{"a":' * depth))
    return out


def main() -> int:
    from hostile import python_verdict

    cases = texts()
    messages: dict[str, int] = {}
    for fmt, text in cases:
        verdict = python_verdict(fmt, text)
        assert not verdict["ok"], text[:200]
        first = verdict["errors"][0][1]
        kind = first.split(" at line ")[0]
        messages[kind] = messages.get(kind, 0) + 1
    print(f"{len(cases)} malformed texts")
    for kind, count in sorted(messages.items(), key=lambda kv: -kv[1]):
        print(f"{count:7}  {kind}")
    return 0


if __name__ == "__main__":
    sys.path[:0] = [str(HERE)]
    sys.exit(main())

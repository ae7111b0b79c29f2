"""Hostile bytes: the generated code of every registered driver gets raw input an attacker would send, and must agree.

Each case is bytes, not a JSON value: byte order marks, invalid UTF-8, lone
surrogate escapes, deep nesting (also inside free-form values), huge and
non-finite numbers, long strings, truncated documents, duplicate keys, many
errors at once. They are made from every format's valid examples (a hostile
piece put in place of each value in turn, and whole-text mutations).

Python (parse_<format>_from_json on the bytes) and every other registered driver
(tests/conformance.py DRIVERS: Go's Parse<Format>FromJSON, TypeScript's
parse<Format>FromJSON) must reach the same verdict and report the same problems,
word for word: text
that is not JSON gets Python's json module's message in every runtime (see
tests/json_syntax.py), and the input policy's own messages (BOM, UTF-8,
surrogates, long integers) are the same everywhere. Where the text is JSON,
jsonschema on the exported schema must agree with Python too, except for what
the schema cannot state (the nesting bound, numbers no float holds, spec rules).

    python tests/hostile.py        # all formats, prints one line per format
"""

from __future__ import annotations

import importlib
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT), str(ROOT / "generated" / "python")]

from jsonschema import Draft202012Validator  # noqa: E402

import conformance  # noqa: E402
from conftest import format_folders  # noqa: E402

# Problems the exported schema cannot state: the nesting bound and spec rules;
# "type" only for the free-form numbers no float holds (see python_only below).
_RULE_ONLY = {"member_of", "compare", "depth"}
_HOLE = "\x00hostile\x00"


def policy_messages() -> set[str]:
    from chatformats import _runtime as rt

    return {rt.NOT_UTF8_MESSAGE, rt.BOM_MESSAGE, rt.SURROGATE_MESSAGE, rt.LONG_INT_MESSAGE}


def _deep(levels: int, inner: str = "1") -> str:
    half = levels // 2
    return '{"k": [' * half + inner + "]}" * half


# Raw JSON text put in place of one value (the document stays JSON unless the piece is not).
PIECES: list[bytes] = [
    piece.encode("utf-8", "surrogatepass") if isinstance(piece, str) else piece
    for piece in (
        '"\\ud800"', '"a\\udc00b"', '"\\ud800\\u0041"', '"\\ud83d\\ude00"', '"\\\\ud800"', '"\\ud800\\ud800"',
        '"\\ud800\\\\DC00"', '"\\ud800xuDC00"',
        '"\\uDBFF\\uDFFF"', b'"\xff"', b'"\xed\xa0\x80"', b'"\xc0\xaf"', b'"\xe2\x82"', b'"caf\xc3\xa9"', b'"\xf4\x90\x80\x80"',
        "1e400", "-1e400", "1e-400", "1" * 4300, "-" + "1" * 4300, "1" * 4301, "-" + "1" * 4301,
        "1" + "0" * 400 + ".5", "18446744073709551616", "-9223372036854775809", "9223372036854775807",
        "1.0", "-0", "-0.0", "1E0", "0.1e1",
        "[1, 1.0]", "[0, -0]", "[1.0, 1e0]", '[{"a": 1}, {"a": 1.0}]', '["a", "a"]', "[true, 1]",
        "[" * 127 + "]" * 127, "[" * 128 + "]" * 128, "[" * 129 + "]" * 129, "[" * 130 + "1" + "]" * 130,
        _deep(126), _deep(128), _deep(130), _deep(2_000), _deep(20_000), "[" * 50_000 + "]" * 50_000,
        '"' + "x" * 1_000_000 + '"', '"' + "\\u00e9" * 50_000 + '"',
        "[" + ", ".join(['{"type": 1}'] * 300) + "]", "[" + ", ".join(["null"] * 300) + "]",
        '{"a": 1, "a": 2}', '{"": 1}', '{"\\u0000": 1}', '"\\u0000"',
        "NaN", "Infinity", "[1,]", '{"a" 1}', "01", '"\t"', "'x'", "",
    )
]

# Raw JSON text put before a value under the same key, so that the duplicate after it replaces it (red team
# round 11): the text's own rules still hold for it (a lone surrogate escape, a long integer literal: refused
# in every language), and a value's rules (depth, numbers no float holds) do not, as it is not in the document.
DROPPED: list[bytes] = [
    piece.encode()
    for piece in (
        '"\\ud800"', '"a\\udc00b"', '"\\ud800\\ud800"', '"\\udc00\\ud800"', '"x\\\\ud800"', '"\\ud83d\\ude00"',
        "1" * 4301, "-" + "1" * 4301, "[" + "1" * 4301 + "]", "1" * 4300, '"' + "1" * 4301 + '"',
        "1e400", "[" * 130 + "1" + "]" * 130,
    )
]


# Whole-text variants of a document.
def _variants(text: bytes) -> Iterator[bytes]:
    yield b"\xef\xbb\xbf" + text
    yield text + b"\xef\xbb\xbf"
    yield text.decode("utf-8").encode("utf-16")
    yield text.decode("utf-8").encode("utf-32-le")
    yield text + b"\xff"
    yield b"\xff" + text
    yield text + b" x"
    yield text + b"\n\t "
    yield b"\x00" + text
    for cut in (1, 2, len(text) // 2, len(text) - 1):
        yield text[:cut]
    yield b"[" * 3_000 + text + b"]" * 3_000
    yield b"[" * 200_000
    yield b"{" * 100_000
    yield b""


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _with_hole(doc: Any, path: tuple[Any, ...]) -> Any:
    if not path:
        return _HOLE
    doc = json.loads(json.dumps(doc))
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = _HOLE
    return doc


def cases_for(folder: Path, paths_per_doc: int = 40, examples: int | None = None) -> list[bytes]:
    """Hostile texts made from a format's valid examples, the same ones every run:
    whole-text variants of each, and every piece put in place of paths_per_doc of its values."""
    out: list[bytes] = []
    hole = json.dumps(_HOLE).encode()
    for example in sorted((folder / "examples" / "valid").glob("*.json"))[:examples]:
        doc = json.loads(example.read_text(encoding="utf-8"))
        text = json.dumps(doc, ensure_ascii=False).encode()
        out.extend(_variants(text))
        paths = list(_paths(doc))
        # Spread the holes over the document (leaves and containers alike).
        step = max(1, len(paths) // paths_per_doc)
        for path in paths[::step]:
            template = json.dumps(_with_hole(doc, path), ensure_ascii=False).encode()
            out.extend(template.replace(hole, piece) for piece in PIECES)
            # A duplicate key: the same key again with a hostile value, and a hostile value the same key then replaces.
            if path and isinstance(path[-1], str):
                key = json.dumps(path[-1]).encode()
                out.append(template.replace(hole, b'"dup", ' + key + b": [" * 200 + b"]" * 200))
                kept = json.dumps(_at(doc, path), ensure_ascii=False).encode()
                out.extend(template.replace(hole, piece + b", " + key + b": " + kept) for piece in DROPPED)
    return out


def python_verdict(fmt: str, text: bytes) -> dict[str, Any]:
    mod = importlib.import_module(f"chatformats.{fmt}")
    try:
        getattr(mod, f"parse_{fmt}_from_json")(text)
    except mod.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message] for e in exc.errors], "keywords": [e.keyword for e in exc.errors]}
    return {"ok": True, "errors": [], "keywords": []}


def _not_json(verdict: dict[str, Any], policy: set[str]) -> bool:
    """Whether the verdict is a JSON syntax error (not one of the input policy's own)."""
    errors = verdict["errors"]
    return len(errors) == 1 and errors[0][0] == "" and errors[0][1].startswith("invalid JSON: ") and errors[0][1] not in policy


def _non_finite(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return True
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return False


@dataclass
class Report:
    format: str
    cases: int = 0
    accepted: int = 0
    not_json: int = 0
    disagreements: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.format:26} {self.cases:7} hostile  {self.accepted:5} accepted  "
                f"{self.not_json:5} not JSON  {len(self.disagreements)} disagreements")


def run(built: conformance.Built | None, formats: list[str] | None = None, paths_per_doc: int = 40, examples: int | None = None) -> list[Report]:
    """Every format's hostile cases through Python, every other driver built (built: the generated code of every
    format, conformance.build) and jsonschema."""
    from chatformats import _runtime as rt

    policy = policy_messages()
    others = built.others() if built else []
    reports = []
    for fmt, folder in format_folders().items():
        if formats and fmt not in formats:
            continue
        schema = json.loads((ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
        oracle = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        texts = cases_for(folder, paths_per_doc, examples)
        report = Report(fmt, cases=len(texts))
        python = [python_verdict(fmt, t) for t in texts]
        found = {d.label: d.run(built.built[d.target], [(fmt, t, None) for t in texts]) for d in others} if built else {}
        for i, (text, py) in enumerate(zip(texts, python)):
            report.accepted += py["ok"]
            problem = None
            for language, verdicts in found.items():
                v = verdicts[i]
                if "crash" in v:
                    problem = f"{language} crashed: {v['crash'][:300]}"
                elif v["ok"] != py["ok"]:
                    problem = f"verdict: {language} {v['errors'] or 'valid'}, Python {py['errors'] or 'valid'}"
                elif not py["ok"] and v["errors"] != py["errors"]:
                    problem = f"errors: {language} {v['errors'][:3]}, Python {py['errors'][:3]}"
                if problem:
                    break
            if _not_json(py, policy) or "json" in py["keywords"]:
                report.not_json += 1
            elif problem is None and not (py["keywords"] and set(py["keywords"]) <= _RULE_ONLY):
                doc = rt.load_json(text)
                if not _non_finite(doc) and oracle.is_valid(doc) != py["ok"]:
                    problem = f"jsonschema says {'valid' if py['ok'] is False else 'invalid'}, Python {py['errors'][:3] or 'valid'}"
            if problem:
                report.disagreements.append(f"{fmt}: {text[:200]!r}\n    {problem}")
        reports.append(report)
    return reports


def main(built: conformance.Built | None = None) -> int:
    import tempfile

    built = built or conformance.build(conformance.generated_files(), list(format_folders()), Path(tempfile.mkdtemp()))
    missing = [d.label for d in conformance.DRIVERS if d.target not in built.built]
    if missing:
        print(f"not compared (its toolchain is missing): {', '.join(missing)}", file=sys.stderr)
    reports = run(built)
    for report in reports:
        print(report.line())
        for d in report.disagreements[:5]:
            print("  " + d)
    return 1 if any(r.disagreements for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())

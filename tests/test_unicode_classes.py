"""\\d and \\w in a spec's pattern mean one set of characters in every target, pinned to Unicode 14.0
(generator/unicode_classes.py), not each engine's own tables: Go 1.26 reads \\p{Nd} as Unicode 15.0, Node.js 20's
RegExp as 15.1 or later, a Python after 3.11 as 15.0 or later. Red team round 7 found the Kawi digit U+11F50 a digit
in Go and TypeScript and none in Python and jsonschema, and TypeScript's native RegExp and its automaton (built from
the generator's tables) disagreeing on one pattern. Each character here was added after Unicode 14.0.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import conformance
from generator import runtime, unicode_classes
from generator.automaton import compile_pattern
from generator.core import generate
from generator.load import load_spec
from generator.options import Options
from generator.patterns import merge_ranges

KAWI_ZERO = "\U00011f50"  # Nd since Unicode 15.0
NAG_MUNDARI_ZERO = "\U0001e4f0"  # Nd since Unicode 15.0
CJK_EXT_I = "\U0002ebf0"  # Lo since Unicode 15.1
ARABIC_ZERO = "\u0660"  # Nd in every version: a digit everywhere

SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Digits",
    "description": "Patterns with digits and word characters.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Root",
    "$defs": {
        "Root": {
            "type": "object",
            "description": "The root.",
            "properties": {
                "native": {"type": "string", "pattern": "^\\d$", "description": "A regex each engine runs."},
                "automaton": {"type": "string", "pattern": "\\d{1,20}y", "description": "An automaton in Python and TypeScript."},
                "word": {"type": "string", "pattern": "^\\w+$", "description": "Letters and numbers."},
                "not_word": {"type": "string", "pattern": "^\\W$", "description": "Neither."},
                "in_class": {"type": "string", "pattern": "^[\\d.]+$", "description": "A digit in a class."},
                "applied": {"pattern": "^\\d$", "description": "A schema applied as written."},
            },
        }
    },
}
FIELDS = ["native", "automaton", "word", "not_word", "in_class", "applied"]
TEXTS = [KAWI_ZERO, NAG_MUNDARI_ZERO, CJK_EXT_I, ARABIC_ZERO, "7", "a", "_", "-", "\n"]


@cache
def category_ranges(name: str) -> tuple[tuple[int, int], ...]:
    """Code point ranges of a Unicode general category (one letter: the whole group), from this Python's tables (unicodedata)."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        if unicodedata.category(chr(code)).startswith(name) if len(name) == 1 else unicodedata.category(chr(code)) == name:
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return tuple(ranges)


@pytest.mark.skipif(unicodedata.unidata_version != unicode_classes.VERSION, reason="this Python has other Unicode tables")
def test_the_pinned_classes_are_what_python_311s_re_reads_as_d_and_w() -> None:
    assert unicode_classes.DIGIT == category_ranges("Nd")
    assert unicode_classes.WORD == merge_ranges(category_ranges("L") + category_ranges("N") + ((0x5F, 0x5F),))


def test_d_and_w_get_jsonschemas_verdict_in_every_target_on_characters_newer_than_the_tables(tmp_path: Path) -> None:
    folder = tmp_path / "specs" / "digits"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(SPEC, indent=2) + "\n", encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=["python", "go", "typescript", "pydantic", "jsonschema"])
    built = conformance.build(files, ["digits"], tmp_path / "generated")
    cases: list[conformance.Case] = [
        ("digits", json.dumps({f: text + ("y" if f == "automaton" else "")}), None) for f in FIELDS for text in TEXTS
    ]
    found = built.verdicts(cases)
    assert set(found) == built.languages == {"python", "go", "typescript"}
    wrong = conformance.disagreements(cases, found, {"digits": [("the spec as written", conformance.oracle(SPEC))]})
    assert not wrong, "\n".join(wrong[:20])
    assert not found["python"][0]["ok"], "the Kawi digit is no digit in Unicode 14.0"
    # The pydantic models run Python's re too: each pattern with \d or \w goes through _rt.pinned.
    models = next(text for path, text in files.items() if path.startswith("pydantic/") and "class Root" in text)
    patterns = [k.value for k in ast.walk(ast.parse(models)) if isinstance(k, ast.keyword) and k.arg == "pattern"]
    assert len(patterns) == 5 and all(ast.unparse(p).startswith("_rt.pinned(") for p in patterns), [ast.unparse(p) for p in patterns]
    # The exported schema keeps the pattern as the spec writes it.
    assert json.loads(files["jsonschema/digits.schema.json"])["$defs"]["Root"]["properties"]["native"]["pattern"] == "^\\d$"


def _runtime_table(path: Path, name: str) -> tuple[tuple[int, int], ...]:
    """A table as a runtime's source spells it: the lines of string literals after the line that names it."""
    lines = path.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(name))
    body = []
    for line in lines[start + 1 :]:
        found = re.fullmatch(r'\s*"([0-9A-F -]*)"( \+|;)?', line)
        if found is None:
            break
        body.append(found.group(1))
    return unicode_classes._ranges("".join(body))


@pytest.mark.parametrize(("path", "names"), [
    (runtime.PYTHON_RUNTIME, ("DIGIT_RANGES: Final", "WORD_RANGES: Final")),
    (runtime.GO_PACKAGE / "pinned.go", ("const digitRanges", "const wordRanges")),
    (runtime.TYPESCRIPT_RUNTIME, ("const DIGIT_RANGES", "const WORD_RANGES")),
])
def test_every_runtime_holds_the_pinned_tables(path: Path, names: tuple[str, str]) -> None:
    assert _runtime_table(path, names[0]) == unicode_classes.DIGIT
    assert _runtime_table(path, names[1]) == unicode_classes.WORD


def _edge_probes() -> list[str]:
    """Every code point at an edge of \\d's and \\w's ranges and either side of it, and a lone surrogate."""
    codes = {c + d for lo, hi in unicode_classes.DIGIT + unicode_classes.WORD for c in (lo, hi) for d in (-1, 0, 1)}
    return [chr(c) for c in sorted(codes | {0xD800, 0x10FFFF}) if 0 <= c <= 0x10FFFF]


@pytest.mark.parametrize("pattern", ["^\\d$", "^\\w$", "^\\D$", "^\\W$", "^[\\d.]$", "^[^\\w]$", "^[\\]\\w]$", "^\\\\d$", "^[a\\d]x?$"])
def test_the_python_runtime_spells_d_and_w_out_as_python_311_reads_them(pattern: str) -> None:
    """Where the running Python reads \\d and \\w with other tables (3.12 and later), _rt.pinned spells them out;
    on 3.11 the spelt-out pattern and the native one agree on every edge of every range."""
    rt = _python_runtime()
    spelt = rt.pinned(pattern, native=False)
    assert ("\\d" in spelt or "\\w" in spelt or "\\D" in spelt or "\\W" in spelt) == (pattern == "^\\\\d$")
    native, pinned = re.compile(pattern), re.compile(spelt)
    wrong = [hex(ord(c)) for c in _edge_probes() + ["\\d", "]", "x"] if bool(native.search(c)) != bool(pinned.search(c))]
    if unicodedata.unidata_version == unicode_classes.VERSION:
        assert not wrong, wrong[:10]
    assert rt.pinned(pattern) == (pattern if rt.NATIVE_CLASSES else spelt)


@pytest.mark.parametrize("pattern", ["^\\w+1$", "\\d{1,20}y", "[\\w.-]+@x", "^\\W$", "(\\w|\\d)*z", "[^\\d]x+", "a.b"])
def test_an_automaton_names_a_pinned_table_instead_of_spelling_its_edges(pattern: str) -> None:
    automaton = compile_pattern(pattern)
    data = automaton.encode()
    assert len(data) < 2_000, len(data)  # \\w's 1,400 intervals written out were 10 KB
    rt = _python_runtime()
    decoded = rt.Automaton(data)
    assert (tuple(decoded._bounds), tuple(decoded._classes)) == (automaton.bounds, automaton.classes)
    for text in _edge_probes()[::7] + ["a1", "é1", "x@x", "1y", "a\\nb", "ab"]:
        assert bool(decoded.search(text)) == automaton.search(text), (pattern, text)


def test_d_and_w_cost_no_more_than_any_other_pattern_in_the_generated_code(tmp_path: Path) -> None:
    """The ranges live once, in each runtime: a module with fifty \\w patterns stays small and imports fast."""
    many = json.loads(json.dumps(SPEC))
    many["$defs"]["Root"]["properties"] = {
        f"f{i}": {"type": "string", "pattern": f"^\\w+{i}$" if i % 2 else f"^\\d{{{i}}}[\\w.]$", "description": "A field."}
        for i in range(50)
    }
    folder = tmp_path / "specs" / "digits"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(many, indent=2) + "\n", encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=["python", "go", "typescript", "pydantic"])
    for path in ("python/chatformats/digits.py", "go/digits/validate.go", "typescript/src/digits.ts", "pydantic/chatformats_pydantic/digits.py"):
        assert len(files[path]) < 60_000, (path, len(files[path]))  # the ranges spelt out per pattern made 600 KB


def test_a_python_with_newer_tables_gets_the_pinned_meaning_from_the_package_and_the_models(tmp_path: Path) -> None:
    """The generated Python, pydantic and msgspec packages, imported by a Python that reads \\d and \\w with Unicode 15's
    tables (simulated: unicodedata says so before the runtime is imported), still match Unicode 14.0's."""
    spec = json.loads(json.dumps(SPEC))
    del spec["$defs"]["Root"]["properties"]["applied"]  # (the msgspec package reads no schema applied as written)
    folder = tmp_path / "specs" / "digits"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=["python", "pydantic", "msgspec"], options=Options(msgspec=True))
    assert "Meta(pattern=_rt.pinned(" in files["msgspec/chatformats_msgspec/digits.py"]
    for path, text in files.items():
        (tmp_path / "out" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "out" / path).write_text(text, encoding="utf-8")
    cases = [json.dumps({f: text + ("y" if f == "automaton" else "")}) for f in FIELDS if f != "applied" for text in TEXTS]
    script = """
import json, sys, unicodedata
unicodedata.unidata_version = "15.0.0"
sys.path[:0] = [sys.argv[1] + "/python", sys.argv[1] + "/pydantic", sys.argv[1] + "/msgspec"]
from chatformats import _runtime, digits
from chatformats_pydantic import _runtime as _models_runtime, digits as models
from chatformats_msgspec import digits as structs
assert not _runtime.NATIVE_CLASSES and not _models_runtime.NATIVE_CLASSES
out = []
for text in json.loads(sys.argv[2]):
    try:
        digits.parse_digits_from_json(text); ok = True
    except _runtime.ValidationError:
        ok = False
    try:
        models.Root.model_validate_json(text); model_ok = True
    except Exception:
        model_ok = False
    try:
        structs.parse_digits_from_json(text); struct_ok = True
    except _runtime.ValidationError:
        struct_ok = False
    out.append([ok, model_ok, struct_ok])
print(json.dumps(out))
"""
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out"), json.dumps(cases)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    validator = conformance.oracle(spec)
    wrong = [(case, found) for case, found in zip(cases, json.loads(done.stdout))
             if found != [validator.is_valid(json.loads(case))] * 3]
    assert not wrong, wrong[:10]


@cache
def _python_runtime() -> Any:
    spec = importlib.util.spec_from_file_location("chatspec_runtime_pinned", runtime.PYTHON_RUNTIME)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module

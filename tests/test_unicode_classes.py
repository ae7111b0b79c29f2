"""\\d and \\w in a spec's pattern mean one set of characters in every target, pinned to Unicode 14.0
(generator/unicode_classes.py), not each engine's own tables: Go 1.26 reads \\p{Nd} as Unicode 15.0, Node.js 20's
RegExp as 15.1 or later, a Python after 3.11 as 15.0 or later. Red team round 7 found the Kawi digit U+11F50 a digit
in Go and TypeScript and none in Python and jsonschema, and TypeScript's native RegExp and its automaton (built from
the generator's tables) disagreeing on one pattern. Each character here was added after Unicode 14.0.
"""

from __future__ import annotations

import ast
import json
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import conformance
from generator import unicode_classes
from generator.core import generate
from generator.load import load_spec
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
    # The pydantic models run Python's re too: they get the pinned spelling, not \d.
    models = next(text for path, text in files.items() if path.startswith("pydantic/") and "class Root" in text)
    patterns = [k.value.value for k in ast.walk(ast.parse(models)) if isinstance(k, ast.keyword) and k.arg == "pattern"
                and isinstance(k.value, ast.Constant)]
    assert len(patterns) == 5 and all("\\d" not in p and "\\w" not in p and r"\u0660-\u0669" in p for p in patterns), patterns
    # The exported schema keeps the pattern as the spec writes it.
    assert json.loads(files["jsonschema/digits.schema.json"])["$defs"]["Root"]["properties"]["native"]["pattern"] == "^\\d$"

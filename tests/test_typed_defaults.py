"""A default written with whole floats where only integers may stand ([1.0] of a list of integers) is held as the
integers a document's text gives there (generator/defaults.py): the Python package wrote [1.0] back, which reads back
as [1], so a document that left the field out failed its own round trip (red team round 7). Every target fills in
and writes the same value; the IR holds it typed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import conformance
from generator.core import generate
from generator.load import load_spec
from generator.lower import lower

INTS = {"type": "array", "items": {"type": "integer"}}
FIELDS: dict[str, Any] = {
    "list": {**INTS, "default": [1.0, 2]},
    "nested": {"type": "array", "items": INTS, "default": [[5.0]]},
    "map": {"type": "object", "additionalProperties": {"type": "integer"}, "default": {"a": 1.0}},
    "alias": {"$ref": "#/$defs/Counts", "default": [7.0]},
    "tuple": {"type": "array", "prefixItems": [INTS], "items": False, "minItems": 1, "default": [[8.0]]},
    "numbers": {"type": "array", "items": {"type": "number"}, "default": [1.0]},
    # A union by JSON kind: its one variant of the value's kind (red team round 8).
    "union_list": {"oneOf": [{"type": "string"}, INTS], "default": [1.0]},
    "union_map": {"oneOf": [{"type": "integer"}, {"type": "object", "additionalProperties": {"type": "integer"}}], "default": {"n": 2.0}},
}
SPEC = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Defaults",
    "description": "Whole floats in defaults.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Root",
    "$defs": {
        "Root": {"type": "object", "description": "The root.", "properties": {k: {**v, "description": k} for k, v in FIELDS.items()}},
        "Counts": {**INTS, "description": "Counts."},
    },
}


def test_whole_floats_in_a_default_are_integers_where_only_integers_stand(tmp_path: Path) -> None:
    folder = tmp_path / "specs" / "defaults"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(SPEC, indent=2) + "\n", encoding="utf-8")
    spec = load_spec(folder, tmp_path)
    root = next(d for d in lower(spec).models if d.name == "Root")
    held = {f.wire_name: f.default for f in root.fields}
    assert held == {"list": [1, 2], "nested": [[5]], "map": {"a": 1}, "alias": [7], "tuple": [[8]], "numbers": [1.0],
                    "union_list": [1], "union_map": {"n": 2}}
    assert type(held["union_list"][0]) is int and type(held["union_map"]["n"]) is int
    assert all(type(held[k][0]) is int for k in ("list", "alias")) and type(held["numbers"][0]) is float
    files = generate([spec], targets=["python", "go", "typescript", "jsonschema"])
    built = conformance.build(files, ["defaults"], tmp_path / "generated")
    cases: list[conformance.Case] = [("defaults", "{}", None)]
    found = built.verdicts(cases)
    assert set(found) == built.languages == {"python", "go", "typescript"}
    wrong = conformance.disagreements(cases, found, {"defaults": [("the spec as written", conformance.oracle(SPEC))]})
    assert not wrong, "\n".join(wrong)
    written = {language: json.loads(v[0]["written"]) for language, v in found.items()}
    assert written["python"] == written["go"] == written["typescript"]
    assert json.dumps(written["python"]["list"]) == "[1, 2]"

"""A format's root may be any definition (issue 28): an array, a union, an enum, a map, a tuple, a scalar with
checks, a type list, a schema applied as written. Each root here gets jsonschema's verdict on the spec as written
from the generated Python (make test), and from Python, Go and TypeScript with the same errors, whatever a document
holds (conformance); every definition's own entry points (Python's <name>_from_json, Go's Parse<Name>, TypeScript's
parse<Name>) parse as the root does. tests/golden/root_array holds one such format byte for byte.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import conformance
from go_driver import GO_ENV
from generator.core import generate
from generator.load import load_spec

ITEM = {
    "type": "object",
    "description": "An item.",
    "properties": {"name": {"type": "string", "minLength": 1}, "n": {"type": "integer", "minimum": 0}},
    "required": ["name"],
    "additionalProperties": False,
}

# format id -> (the root definition, other definitions)
ROOTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "r_array": ({"type": "array", "items": {"$ref": "#/$defs/Item"}, "minItems": 1, "maxItems": 3}, {"Item": ITEM}),
    "r_enum": ({"type": "string", "enum": ["red", "green"]}, {}),
    "r_union": ({"anyOf": [{"type": "string", "maxLength": 3}, {"$ref": "#/$defs/Item"}]}, {"Item": ITEM}),
    "r_map": ({"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 2}, {}),
    "r_tuple": ({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False, "minItems": 2}, {}),
    "r_scalar": ({"type": "string", "pattern": "^[0-9a-f-]+$", "format": "uuid"}, {}),
    "r_types": ({"type": ["string", "integer", "null"]}, {}),
    "r_applied": ({"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": {"type": "integer"}}, {}),
    "r_nullable": ({"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]}, {"Item": ITEM}),
    # Applied as written, with a $ref into a typed integer: 64-bit there too, as the exported schema says.
    "r_any": ({}, {}),  # any JSON value, null included (Go: any, nil)
    "r_ref_int": ({"anyOf": [{"$ref": "#/$defs/Count"}, {"type": "string"}]}, {"Count": {"type": "integer", "description": "A count."}}),
    # ... a typed list of types with integer among them; a typed field whose name holds a percent sign (a pointer
    # names it as written, where a URI fragment's percent-decoding would read "a%41" as "aA").
    "r_ref_types": ({"anyOf": [{"$ref": "#/$defs/Count"}, {"type": "boolean"}]},
                    {"Count": {"type": ["integer", "string", "null"], "description": "A count or a name."}}),
    "r_ref_percent": ({"anyOf": [{"$ref": "#/$defs/Named"}, {"type": "boolean"}]},
                      {"Named": {"type": "object", "description": "A field named with a percent sign.", "properties": {"a%41": {"type": "integer"}}}}),
    # Recursion without a model between: no type of the targets is built from itself, so applied as written.
    "r_tree": ({"type": "array", "items": {"$ref": "#/$defs/Root"}, "maxItems": 2}, {}),
    "r_nested": ({"oneOf": [{"type": "string", "maxLength": 3}, {"type": "array", "items": {"$ref": "#/$defs/Nest"}}]},
                 {"Nest": {"$ref": "#/$defs/Root", "description": "A root again."}}),
}
# Where chatspec's verdict is the exported schema's, not the spec's as written: integers past 64 bits.
EXPORT_ONLY = {"r_ref_int", "r_ref_types", "r_ref_percent"}

DOCUMENTS = [
    None, True, 0, 1, -1, 1.5, "", "a", "abc", "abcd", "red", "blue", "3f2a9c1b-07de-4c2b-9a4e-1d2c3b4a5f60",
    2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**70, 1e19, [], [{"name": "x"}], [{"name": "x"}, {"name": "y", "n": 2}], [{"name": ""}], [{"name": "x", "z": 1}],
    [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}], ["a", 1], ["a", 1, 2], [1, "a"], ["a"],
    [[]], [[], [[]]], [[[], [], []]], [["abc", ["ab", []]]], [["abcd"]], [[1]],
    {}, {"name": "x"}, {"name": "x", "n": -1}, {"a": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}, {"a": "x"},
    {"id": "x", "k": 1}, {"id": 1}, {"id": "x", "k": "v"}, {"a": True}, {"a": None}, {"__proto__": 1},
    {"a%41": 1}, {"a%41": 2**70}, {"aA": 2**70},
]


def spec_of(root: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "A root",
        "description": "A root that is no model.",
        "x-version": "1.0.0",
        "$ref": "#/$defs/Root",
        "$defs": {"Root": {**root, "description": "The root."}, **defs},
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("roots")
    for format_id, (schema, defs) in ROOTS.items():
        folder = root / "specs" / format_id
        folder.mkdir(parents=True)
        (folder / "spec.json").write_text(json.dumps(spec_of(schema, defs), indent=2) + "\n", encoding="utf-8")
    return root


def _cases() -> list[conformance.Case]:
    return [(f, json.dumps(doc), None) for f in ROOTS for doc in DOCUMENTS]


def _oracles(files: dict[str, str]) -> dict[str, Any]:
    """jsonschema on the spec as written and on the exported schema (its $defs' integers are 64-bit)."""
    return {
        f: [
            *([] if f in EXPORT_ONLY else [("the spec as written", conformance.oracle(spec_of(*ROOTS[f])))]),
            ("the exported schema", conformance.oracle(json.loads(files[f"jsonschema/{f}.schema.json"]))),
        ]
        for f in ROOTS
    }


def test_every_kind_of_root_gets_jsonschemas_verdict_in_python(project: Path) -> None:
    files = generate([load_spec(project / "specs" / f, project) for f in ROOTS], targets=["python", "jsonschema"])
    for path, text in files.items():
        (project / "out" / path).parent.mkdir(parents=True, exist_ok=True)
        (project / "out" / path).write_text(text, encoding="utf-8")
    cases = _cases()
    found = {"python": conformance._python_run(project / "out" / "python", cases)}
    wrong = conformance.disagreements(cases, found, _oracles(files))
    assert not wrong, "\n".join(wrong[:20])
    for f in ROOTS:  # each root takes some documents and refuses others (r_any takes every one)
        verdicts = [v["ok"] for (fid, _, _), v in zip(cases, found["python"]) if fid == f]
        assert all(verdicts) if f == "r_any" else any(verdicts) and not all(verdicts), f


def test_every_kind_of_root_gets_the_same_verdict_in_python_go_and_typescript(project: Path) -> None:
    files = generate([load_spec(project / "specs" / f, project) for f in ROOTS], targets=["python", "go", "typescript", "jsonschema"])
    built = conformance.build(files, list(ROOTS), project / "generated")
    cases = _cases()
    found = built.verdicts(cases)
    assert set(found) == built.languages
    wrong = conformance.disagreements(cases, found, _oracles(files))
    # Each definition's own entry point parses as the root does (the drivers' "model" cases).
    named = [(f, text, "Root") for f, text, _ in cases]
    by_name = built.verdicts(named)
    wrong += [f"{language} Parse Root / parse<Format>FromJSON differ on {case[1]}" for language in found
              for case, a, b in zip(cases, found[language], by_name[language]) if (a.get("ok"), a.get("errors")) != (b.get("ok"), b.get("errors"))]
    assert not wrong, "\n".join(wrong[:20])
    # And the generated Go tests pass as generated: the fuzz targets' seeds (null, {}, []) through every root.
    if "go" in built.languages:
        done = subprocess.run(["go", "test", "./..."], cwd=project / "generated" / "go", capture_output=True, text=True, env=GO_ENV, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

"""A nullable field whose other branch carries a keyword that also judges null (an applicator, `not`, an `if`) is
exported as `anyOf: [branch, {"type": "null"}]`, not with "null" joined to the branch's `type`: red team round 9
found `{"anyOf": [{"type": "integer", "oneOf": [{"minimum": 3}, {"maximum": 1}]}, {"type": "null"}]}` exported as
`{"type": ["integer", "null"], "oneOf": [...]}`, which refuses null (null meets both branches of the oneOf), so the
export refused documents the spec and every target take, and a valid example or a null default was refused at load.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import conformance
from generator.core import generate
from generator.load import load_spec

BRANCHES: list[dict[str, Any]] = [
    {"type": "integer", "oneOf": [{"minimum": 3}, {"maximum": 1}]},
    {"type": "string", "allOf": [{"type": "string"}]},
    {"type": "string", "if": {"type": "null"}, "then": False},
    {"type": "string", "not": {"type": "null"}},
    {"type": "string", "allOf": [{"minLength": 1}, {"type": "string"}]},
    {"type": "string", "minLength": 2, "pattern": "^a"},  # keywords of strings only: "null" may join the type
]
VALUES: list[Any] = [None, 0, 2, 5, "", "a", "ab", "b", [], {}]


def _spec(branch: dict[str, Any], default: bool) -> dict[str, Any]:
    field: dict[str, Any] = {"description": "A nullable field.", "anyOf": [branch, {"type": "null"}]}
    if default:
        field["default"] = None
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Nullable",
        "description": "A nullable field.",
        "x-version": "1.0.0",
        "$ref": "#/$defs/Root",
        "$defs": {"Root": {"type": "object", "description": "The root.", "properties": {"v": field}}},
    }


@pytest.mark.parametrize("branch", BRANCHES, ids=[json.dumps(b) for b in BRANCHES])
@pytest.mark.parametrize("default", [False, True], ids=["", "null default"])
def test_the_export_of_a_nullable_field_takes_null_as_the_spec_does(tmp_path: Path, branch: dict[str, Any], default: bool) -> None:
    spec = _spec(branch, default)
    folder = tmp_path / "specs" / "nullable"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=["python", "jsonschema"])
    exported = json.loads(files["jsonschema/nullable.schema.json"])
    as_written, export = conformance.oracle(spec), conformance.oracle(exported)
    wrong = [v for v in VALUES if as_written.is_valid({"v": v}) != export.is_valid({"v": v})]
    assert not wrong, (exported["$defs"]["Root"]["properties"]["v"], wrong)
    assert export.is_valid({"v": None}) and export.is_valid({})

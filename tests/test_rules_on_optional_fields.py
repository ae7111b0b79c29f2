"""Rules that read an optional field Go holds as a plain value (a list or a map, nil when absent: rt.Optional),
absent and present, in Python, Go and TypeScript against an oracle written here.

Go's parse function passes each field's "parsed" flag to the rules that read it (a field that failed its own
check is not judged again). An absent optional field parsed fine: `required_when` must then report it missing,
and `contains` and `allowed_when` have no items to judge (README "x-rules").
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

import conformance
from generator.core import generate
from generator.load import load_spec

FORMAT = "optional_reads"

SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Optional reads",
    "description": "Rules on optional lists and maps.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Turn",
    "$defs": {
        "Turn": {
            "type": "object",
            "description": "A turn whose lists and map are optional.",
            "properties": {
                "role": {"type": "string"},
                "ids": {"type": "array", "items": {"type": "string"}},
                "parts": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}},
                "meta": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "required": ["role"],
            "x-rules": [
                {"kind": "required_when", "field": "ids", "when": {"field": "role", "equals": "tool"}, "message": "a tool turn needs ids"},
                {"kind": "required_when", "field": "meta", "when": {"field": "role", "equals": "tool"}, "message": "a tool turn needs meta"},
                {"kind": "contains", "field": "parts", "each": "/type", "equals": "text", "message": "parts need a text part"},
                {"kind": "allowed_when", "field": "parts", "each": "/type", "when": {"field": "role", "equals": "system"},
                 "allowed": ["text"], "message": "a system turn holds text parts, not {value}"},
            ],
        },
    },
}


def oracle(doc: dict[str, Any]) -> list[list[str]]:
    errors = []
    if doc["role"] == "tool":
        for field in ("ids", "meta"):
            if doc.get(field) is None:
                errors.append([f"/{field}", f"a tool turn needs {field}"])
    parts = doc.get("parts")
    if parts is not None:
        if not any(p.get("type") == "text" for p in parts):
            errors.append(["/parts", "parts need a text part"])
        if doc["role"] == "system":
            errors += [[f"/parts/{i}/type", f"a system turn holds text parts, not {p['type']}"] for i, p in enumerate(parts) if "type" in p and p["type"] != "text"]
    return errors


def documents() -> list[dict[str, Any]]:
    ids = [None, [], ["a", "b"]]
    parts = [None, [], [{"type": "text"}], [{"type": "image"}], [{"type": "text"}, {"type": "image"}, {}]]
    meta = [None, {}, {"k": "v"}]
    docs = []
    for role, i, p, m in itertools.product(["tool", "system", "user"], ids, parts, meta):
        doc: dict[str, Any] = {"role": role}
        for key, value in (("ids", i), ("parts", p), ("meta", m)):
            if value is not None:
                doc[key] = value
        docs.append(doc)
    return docs


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    project = tmp_path_factory.mktemp("optional_reads")
    folder = project / "specs" / FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(SPEC, indent=2), encoding="utf-8")
    files = generate([load_spec(folder, project)], targets=["python", "go", "typescript"])
    return conformance.build(files, [FORMAT], project / "out")


def test_rules_on_absent_and_present_optional_lists_and_maps_agree_with_the_oracle(built: conformance.Built) -> None:
    docs = documents()
    cases = [(FORMAT, json.dumps(d), None) for d in docs]
    wrong = built.against(cases, [oracle(d) for d in docs])
    assert not wrong, f"{len(wrong)} disagreements; the first:\n" + "\n".join(wrong[:5])
    assert sum(bool(oracle(d)) for d in docs) > 20 and sum(not oracle(d) for d in docs) > 5

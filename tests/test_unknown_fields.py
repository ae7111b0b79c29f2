"""Issue 30 part 2: the properties an open model's fields do not name survive a parse and a write
in every language (Python's additional_properties, Go's AdditionalProperties, TypeScript's own
properties), in their order where the language keeps one (Go writes a map in key order); a closed
model still refuses them.

One spec holds open models everywhere a model can stand (the root, a field, a list, a map, a
nullable field, each variant of a tagged union) beside a closed one, and a field named like the
attribute Python and Go keep the properties in. Every driver (tests/conformance.py) reports the
text its language writes for an accepted document: that text must be the document read, known
fields first in spec order, then the others as they came.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import conformance
from generator.core import generate
from generator.load import load_spec

FORMAT = "unknown_fields"

SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Unknown fields",
    "description": "Open models everywhere a model can stand, and a closed one.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Envelope",
    "$defs": {
        "Envelope": {
            "type": "object",
            "description": "The document: open.",
            "properties": {
                "id": {"type": "string", "description": "Its id."},
                "note": {"$ref": "#/$defs/Note", "description": "One note."},
                "notes": {"type": "array", "items": {"$ref": "#/$defs/Note"}, "description": "Notes."},
                "by_name": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Note"}, "description": "Notes by name."},
                "maybe": {"oneOf": [{"$ref": "#/$defs/Note"}, {"type": "null"}], "description": "A note or null."},
                "parts": {"type": "array", "items": {"$ref": "#/$defs/Part"}, "description": "Parts."},
                "sealed": {"$ref": "#/$defs/Sealed", "description": "A closed model."},
                # Python's attribute and Go's field for the properties: the spec's field is spelled otherwise there.
                "additional_properties": {"type": "string", "description": "A field named like the attribute."},
            },
            "required": ["id"],
        },
        "Note": {
            "type": "object",
            "description": "An open model.",
            "properties": {"text": {"type": "string", "description": "Its text."}},
            "required": ["text"],
        },
        "TextPart": {
            "type": "object",
            "description": "A text part.",
            "properties": {"type": {"const": "text", "description": "The tag."}, "text": {"type": "string", "description": "Text."}},
            "required": ["type", "text"],
        },
        "ImagePart": {
            "type": "object",
            "description": "An image part.",
            "properties": {"type": {"const": "image", "description": "The tag."}, "url": {"type": "string", "description": "Where."}},
            "required": ["type", "url"],
        },
        "Part": {"oneOf": [{"$ref": "#/$defs/TextPart"}, {"$ref": "#/$defs/ImagePart"}], "description": "A part."},
        "Sealed": {
            "type": "object",
            "description": "A closed model.",
            "properties": {"k": {"type": "string", "description": "A key."}},
            "additionalProperties": False,
        },
    },
}

# Every kind of JSON value, under names JavaScript objects treat specially, written in key order (Go writes a
# map so): the text each language writes is the document, byte for byte as json.dumps writes it.
EVERY_KIND = {
    "": "the empty name",
    "__proto__": {"polluted": True},
    "a-list": [1, 2.5, -0.5, True, False, None, "s", [], {}],
    "big": 123456789,
    "constructor": "c",
    "nested": {"a": "b", "z": [{"deep": {"er": [None]}}]},
    "toString": None,
    "zz": "\u043a\u043b\u044e\u0447 \U0001f600",
}

ORDERED = [
    {"id": "only known"},
    {"id": "e1", **EVERY_KIND},
    {
        "id": "e2",
        "note": {"text": "n", "seen": True},
        "notes": [{"text": "a", "x": 1}, {"text": "b"}, {"text": "c", "y": [1], "z": {"w": None}}],
        "by_name": {"ann": {"text": "t", "mood": "ok"}, "bob": {"text": "u"}},
        "maybe": {"text": "m", "why": "kept"},
        "parts": [{"type": "text", "text": "hi", "lang": "en"}, {"type": "image", "url": "u", "alt": "a", "width": 3}],
        "sealed": {"k": "v"},
        "additional_properties": "a field",
        "AdditionalProperties": "not a field",
        "text": "a field of Note, unknown here",
    },
    {"id": "e3", "notes": [], "by_name": {}},
]

# Names out of key order: Python and TypeScript keep the order read, Go writes its map in key order.
UNORDERED = [{"id": "u1", "note": {"text": "n", "q": 1, "p": 2}, "zeta": 1, "alpha": 2, "mid": {"y": 1, "b": 2}}]

REFUSED = [
    ({"id": "r1", "sealed": {"k": "v", "other": 1}}, [["/sealed/other", "unknown field 'other'"]]),
    ({"id": "r2", "notes": [{"text": "a", "x": 1}, {"x": 2}]}, [["/notes/1/text", "missing required field 'text'"]]),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    project = tmp_path_factory.mktemp("unknown_fields")
    folder = project / "specs" / FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(SPEC, indent=2), encoding="utf-8")
    files = generate([load_spec(folder, project)], targets=["python", "go", "typescript"])
    return conformance.build(files, [FORMAT], project / "out")


def _pairs(text: str) -> Any:
    """The JSON value with every object as its list of (name, value) pairs: order counts."""
    return json.loads(text, object_pairs_hook=lambda pairs: [list(p) for p in pairs])


def _text(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False)


def test_every_language_writes_back_the_properties_it_does_not_know_where_they_were(built: conformance.Built) -> None:
    cases = [(FORMAT, _text(doc), None) for doc in ORDERED + UNORDERED]
    found = built.verdicts(cases)
    assert set(found) == {"python", "go", "typescript"}
    for language, verdicts in found.items():
        for doc, verdict in zip(ORDERED + UNORDERED, verdicts):
            assert verdict.get("ok") is True, f"{language} refused {doc}: {verdict}"
            assert json.loads(verdict["written"]) == doc, f"{language} wrote {verdict['written']} for {doc}"
        for doc, verdict in zip(ORDERED, verdicts):
            assert _pairs(verdict["written"]) == _pairs(_text(doc)), f"{language}: {verdict['written']}"
    for language in ("python", "typescript"):
        (verdict,) = found[language][len(ORDERED):]
        assert _pairs(verdict["written"]) == _pairs(_text(UNORDERED[0])), f"{language} lost the order: {verdict['written']}"
    (go,) = found["go"][len(ORDERED):]
    assert list(json.loads(go["written"])) == ["id", "note", "alpha", "mid", "zeta"]


def test_a_closed_model_still_refuses_them_and_an_open_one_checks_its_own_fields(built: conformance.Built) -> None:
    found = built.verdicts([(FORMAT, _text(doc), None) for doc, _ in REFUSED])
    for language, verdicts in found.items():
        assert [v.get("errors") for v in verdicts] == [errors for _, errors in REFUSED], language


def test_python_keeps_them_on_the_object_and_judges_what_to_dict_would_write(built: conformance.Built, tmp_path: Path) -> None:
    import subprocess
    import sys

    code = """
import json
from chatformats import unknown_fields as m, ValidationError
doc = m.parse_unknown_fields_from_json(json.dumps({"id": "p", "note": {"text": "n", "seen": 1}, "extra": [1], "additional_properties": "f"}))
assert doc.additional_properties == {"extra": [1]} and doc.additional_properties_ == "f", doc
assert doc.note.additional_properties == {"seen": 1}
assert doc.sealed is None and not hasattr(m.Sealed(), "additional_properties")
assert m.Note(text="t") == m.Note(text="t", additional_properties={}) != m.Note(text="t", additional_properties={"a": 1})
doc.note.additional_properties["text"] = 5  # named like a field: to_dict writes it there, and validate() judges it there
try:
    doc.validate()
    raise SystemExit("validate() passed a note whose text to_dict writes as 5")
except ValidationError as exc:
    assert [(e.path, e.message) for e in exc.errors] == [("/note/text", "must be a string")], exc.errors
doc.note.additional_properties = {"kept": {1, 2}}  # no JSON value
try:
    doc.validate()
    raise SystemExit("validate() passed a set")
except ValidationError as exc:
    assert [(e.path, e.message) for e in exc.errors] == [("/note/kept", "must be a JSON value")], exc.errors
print("ok")
"""
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(built.folder / "python")})
    assert done.stdout.strip() == "ok", done.stdout + done.stderr


def test_drawn_documents_come_back_as_they_were_in_every_language(built: conformance.Built) -> None:
    # hypothesis-jsonschema puts properties of its own into every open object it draws.
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis_jsonschema import from_schema

    drawn: list[Any] = []

    @settings(max_examples=300, phases=[Phase.generate], suppress_health_check=list(HealthCheck), database=None, deadline=None)
    @given(from_schema(conformance.generation_schema(SPEC)))
    def draw(doc: Any) -> None:
        drawn.append(doc)

    draw()
    found = built.verdicts([(FORMAT, _text(doc), None) for doc in drawn])
    accepted = [i for i, v in enumerate(found["python"]) if v.get("ok")]
    assert len(accepted) > 200, f"only {len(accepted)} of {len(drawn)} drawn documents are accepted"
    unknown = sum(1 for i in accepted for name in drawn[i] if name not in SPEC["$defs"]["Envelope"]["properties"])
    assert unknown > 100, "the draws hold too few unknown properties to prove anything"
    wrong = []
    for i in accepted:
        # The only change allowed: Python and Go write an optional field holding null as left out (their
        # None and nil are both), TypeScript keeps null apart from undefined.
        left_out = {name: value for name, value in drawn[i].items() if not (name == "maybe" and value is None)}
        for language, verdicts in found.items():
            v = verdicts[i]
            want = drawn[i] if language == "typescript" else left_out
            if not v.get("ok"):
                wrong.append(f"{language} refused {_text(drawn[i])}: {v}")
            elif "written" in v and json.loads(v["written"]) != want:  # TypeScript writes no text holding a 16-digit number
                wrong.append(f"{language} wrote {v['written']} for {_text(drawn[i])}")
    assert not wrong, f"{len(wrong)} documents changed; the first:\n" + "\n".join(w[:600] for w in wrong[:5])


def test_the_pydantic_models_keep_them_too(tmp_path: Path) -> None:
    # datamodel-code-generator gives a class extra="allow" only where the schema says additionalProperties: true
    # (generator/targets/pydantic/models.py open_models_keep_unknown); a closed model keeps extra="forbid".
    import subprocess
    import sys

    folder = tmp_path / "specs" / FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(SPEC), encoding="utf-8")
    conformance.write_files(generate([load_spec(folder, tmp_path)], targets=["pydantic"]), tmp_path / "out")
    code = """
import json, sys
import pydantic
from chatformats_pydantic import unknown_fields as m
for doc in json.loads(sys.argv[1]):
    text = m.Envelope.model_validate_json(json.dumps(doc)).model_dump_json(by_alias=True, exclude_unset=True)
    assert json.loads(text) == doc, (text, doc)
try:
    m.Envelope.model_validate({"id": "x", "sealed": {"other": 1}})
    raise SystemExit("the closed model took an unknown field")
except pydantic.ValidationError:
    pass
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code, json.dumps(ORDERED + UNORDERED)], capture_output=True, text=True,
                          env={"PYTHONPATH": str(tmp_path / "out" / "pydantic")})
    assert done.stdout.strip() == "ok", done.stdout + done.stderr

"""Rule pointers whose tokens look like numbers: every target and the exported schema read them alike.

A token of ASCII digits is an index into an array and a key into an object ("0" finds {"0": ...} too), as
each runtime's resolve reads it. A token that str.isdigit calls a digit but int() refuses ("²") crashed the
generator (the export) and the generated Python (its resolve) with a ValueError; an index token into a value
whose type does not say array was exported as an array index only, so the exported schema disagreed with the
generated code on an object with that key. An index too long for the export to spell (as that many
prefixItems) is refused at load with its place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import conformance
import jsonschema
import pytest

from generator.core import generate
from generator.errors import SpecError
from generator.export import export
from generator.load import load_spec
from generator.lower import lower


def _rule(pointer: str, equals: str, message: str, field: str = "free") -> dict[str, Any]:
    return {"kind": "required_when", "when": {"field": field, "pointer": pointer, "equals": equals}, "field": "note", "message": message}


def _spec(rules: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Pointers",
        "description": "Rule pointer tokens.",
        "x-version": "1.0.0",
        "$ref": "#/$defs/Doc",
        "$defs": {
            "Doc": {
                "type": "object",
                "description": "A document.",
                "properties": {
                    "free": {"description": "Any value."},
                    "map": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Strings by key."},
                    "list": {"type": "array", "items": {"type": "string"}, "description": "Strings."},
                    "pairs": {"type": "array", "items": {"$ref": "#/$defs/Pair"}, "description": "Pairs."},
                    "note": {"type": "string", "description": "A note."},
                },
                "x-rules": rules,
            },
            "Pair": {
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "string"}],
                "items": False,
                "minItems": 2,
                "description": "Two strings.",
            },
        },
    }


RULES = [
    _rule("/\u00b2", "a", "superscript two"),  # a key only: str.isdigit("²") is True, int("²") raises
    _rule("/0", "b", "zero"),  # an index, and a key of an object
    _rule("/01", "c", "zero one"),  # read as index 1 by every runtime, and as the key "01"
    _rule("/1/x", "d", "one x"),
    _rule("/0", "e", "map zero", "map"),  # the type says object: the key "0"
    _rule("/9999", "f", "list 9999", "list"),  # the longest index the export spells
    {"kind": "contains", "field": "pairs", "each": "/1", "equals": "g", "message": "a pair ending in g"},
]

DOCUMENTS: list[Any] = [
    {"free": {"\u00b2": "a"}},
    {"free": ["a"]},
    {"free": {"0": "b"}},
    {"free": ["b"]},
    {"free": ["x", "c"]},
    {"free": {"01": "c"}},
    {"free": {"1": "c"}},
    {"free": ["c"]},
    {"free": [0, {"x": "d"}]},
    {"free": {"1": {"x": "d"}}},
    {"free": {"1": ["d"]}},
    {"map": {"0": "e"}},
    {"map": {"00": "e"}},
    {"list": ["f"] * 10_000},
    {"list": ["f"] * 9_999},
    {"pairs": [["a", "g"]]},
    {"pairs": [["g", "a"]]},
    {"pairs": []},
    {"free": "0"},
    {"free": None},
    {},
]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("pointers")
    folder = tmp / "specs" / "pointers"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(_spec(RULES)), encoding="utf-8")
    return tmp, folder


def test_every_target_and_the_exported_schema_read_numeric_looking_tokens_alike(made: tuple[Path, Path]) -> None:
    tmp, folder = made
    spec = load_spec(folder, tmp)
    schema = export(lower(spec))
    oracle = jsonschema.Draft202012Validator(schema)
    expected = [not any(True for _ in oracle.iter_errors(doc)) for doc in DOCUMENTS]
    assert 0 < sum(expected) < len(DOCUMENTS) - 8, expected  # the documents turn the rules on and off
    built = conformance.build(generate([spec], targets=[d.target for d in conformance.DRIVERS]), ["pointers"], tmp / "out")
    found = built.verdicts([("pointers", json.dumps(doc), None) for doc in DOCUMENTS])
    for target, verdicts in found.items():
        wrong = [
            f"{json.dumps(doc)[:80]}: the exported schema says {'valid' if ok else 'invalid'}, {target} "
            f"{v.get('crash') or v.get('errors') or 'valid'}"
            for doc, ok, v in zip(DOCUMENTS, expected, verdicts)
            if v.get("ok") != ok
        ]
        assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    ("rule", "where", "says"),
    [
        (_rule("/10000", "x", "m", "list"), "/when/pointer", "more than 4 digits"),
        (_rule("/" + "9" * 5000, "x", "m"), "/when/pointer", "more than 4 digits"),  # int() refuses past 4,300 digits
        (_rule("/00001", "x", "m"), "/when/pointer", "more than 4 digits"),
        ({"kind": "contains", "field": "list", "each": "/123456", "equals": "x", "message": "m"}, "/each", "more than 4 digits"),
        ({"kind": "member_of", "field": "note", "in": "9" * 5000 + "/people", "message": "m"}, "/in", "levels up"),
    ],
    ids=["five-digits", "5000-digits", "leading-zeros", "each", "member-of-up"],
)
def test_an_index_too_long_to_export_is_refused_with_its_place(tmp_path: Path, rule: dict[str, Any], where: str, says: str) -> None:
    folder = tmp_path / "specs" / "pointers"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(_spec([rule])), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        lower(load_spec(folder, tmp_path))
    assert caught.value.pointer == "/$defs/Doc/x-rules/0" + where
    assert says in str(caught.value)


def test_a_ref_into_a_list_by_a_token_int_refuses_is_a_spec_error(tmp_path: Path) -> None:
    # "²" (percent-encoded, as a URI spells it) is a digit to str.isdigit: the $ref walk took it for an index and
    # int() raised a ValueError.
    folder = tmp_path / "specs" / "pointers"
    folder.mkdir(parents=True)
    document = _spec([])
    # Inside a schema applied as written (a not), the compiler follows the $ref itself.
    document["$defs"]["Doc"]["properties"]["free"] = {"not": {"$ref": "#/$defs/Pair/prefixItems/%C2%B2"}, "description": "Not that."}
    (folder / "spec.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        lower(load_spec(folder, tmp_path))
    assert caught.value.pointer == "/$defs/Doc/properties/free/not/$ref", str(caught.value)
    assert "does not resolve to a schema" in str(caught.value)


def test_the_pydantic_models_read_numeric_looking_tokens_as_the_exported_schema_does(made: tuple[Path, Path]) -> None:
    # Their _resolve read "²" as a list index (str.isdigit) and int() raised, which pydantic reported as a
    # problem of a valid document (red team round 8).
    import subprocess
    import sys

    tmp, folder = made
    spec = load_spec(folder, tmp)
    oracle = jsonschema.Draft202012Validator(export(lower(spec)))
    out = tmp / "pydantic_out"
    for path, text in generate([spec], targets=["pydantic"]).items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text, encoding="utf-8")
    read = (
        "import json, sys\nfrom chatformats_pydantic.pointers import Pointers\nfor text in json.load(sys.stdin):\n"
        "    try:\n        Pointers.model_validate_json(text); print('ok')\n"
        "    except Exception as exc:\n        print(type(exc).__name__, str(exc).replace(chr(10), ' ')[:200])\n"
    )
    done = subprocess.run([sys.executable, "-c", read], cwd=out / "pydantic", input=json.dumps([json.dumps(d) for d in DOCUMENTS]),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    got = done.stdout.splitlines()
    wrong = [f"{json.dumps(doc)[:80]}: the exported schema says {oracle.is_valid(doc)}, pydantic {said}"
             for doc, said in zip(DOCUMENTS, got) if (said == "ok") != oracle.is_valid(doc)]
    assert len(got) == len(DOCUMENTS) and not wrong, "\n".join(wrong)

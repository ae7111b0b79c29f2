"""Schemas applied as written (generator/checks.py) on hostile and exact values, in Python, Go and TypeScript.

Each schema of SCHEMAS is one field of the model Doc (s0, s1, ...; Tree beside it for a recursive $ref), and
each JSON text of TEXTS the value of one field in a document of its own: the text as written, so an integer
past 2^64, -0.0, 1.0 and 1e21 reach every language as JSON text does. (A spec's own numbers are within 64
bits, as load holds every spec to.) Every document gets jsonschema's verdict on
the spec as written (conformance.oracle) from every driver, and the three report the same problems in the same
order. The numbers (exact decimals for multipleOf, exact comparison of integers and floats), strings (code
points), keys (__proto__, constructor) and equality (1 and 1.0, objects in any order) are where runtimes drift.

A second test holds the linear time: a document 100 levels deep that a naive walk of overlapping anyOf branches
would take 2^100 steps on is judged at once, valid and invalid, in every language.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import generate_cached

import conformance
from generator.load import load_spec

# A typed integer's bounds stated, as the exported schema states them: the spec as written then means what it does.
INT64 = {"minimum": -9223372036854775808, "maximum": 9223372036854775807}
SCHEMAS: list[Any] = [
    {"minimum": 9007199254740993}, {"maximum": 1e19}, {"exclusiveMinimum": 9223372036854775807},
    {"exclusiveMaximum": 0.3}, {"minimum": -0.0}, {"maximum": 1.5, "minimum": -1e-7},
    {"multipleOf": 0.1}, {"multipleOf": 3}, {"multipleOf": 1e-9}, {"multipleOf": 0.0001}, {"multipleOf": 1e21},
    {"multipleOf": 1234567890123456789}, {"multipleOf": 0.3, "minimum": 0},
    {"const": 9007199254740993}, {"const": 1.0}, {"const": -0.0}, {"const": {"a": [1, 2.0], "b": None}},
    {"enum": [1.0, "a", [1], {"a": None}, -9223372036854775808, True]},
    {"const": 1, "enum": [1, 2]},
    {"type": ["number", "string"]}, {"type": ["object", "null"]},
    {"minLength": 2, "maxLength": 3}, {"pattern": "(a|b)*c"},
    {"uniqueItems": True}, {"required": ["__proto__", "a", "constructor"]}, {"propertyNames": {"maxLength": 3}},
    {"properties": {"__proto__": {"type": "string"}, "toString": {"type": "integer"}}, "additionalProperties": {"type": "boolean"}},
    {"patternProperties": {"^a": {"minimum": 2}, "b$": {"maximum": 3}}, "additionalProperties": False},
    {"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3},
    {"format": "date-time", "minLength": 1}, {"contentEncoding": "base64", "minLength": 1},
    {"dependentRequired": {"a": ["b", "c"]}, "dependentSchemas": {"b": {"required": ["d"]}}},
    {"not": {"type": "null"}}, {"if": {"minimum": 5}, "then": {"multipleOf": 2}, "else": {"maximum": 0}},
    {"items": False, "prefixItems": [{}, {"type": "string"}]},
    {"prefixItems": [{"type": "integer"}], "items": {"type": "string"}, "minItems": 2, "maxItems": 3},
    {"oneOf": [{"type": "integer"}, {"minimum": 2}], "anyOf": [{"maximum": 1}, {"multipleOf": 2}]},
    {"allOf": [{"$ref": "#/$defs/Tree"}], "x-messages": {"type": "a tree: {value}"}},
    {"type": "object", "minProperties": 1, "maxProperties": 2, "x-messages": {"minProperties": "at {field}: {value}"}},
    True, False, {"type": "array", "prefixItems": [True, {"type": "string"}], "items": False, "minItems": 2, "maxItems": 2},
    {"$ref": "#/$defs/Tree/properties/left", "maxProperties": 1},
    # A oneOf no JSON type tells apart is applied as written: its integers are not the typed ones (held to 64 bits).
    {"oneOf": [{"type": "integer"}, {"type": "number"}]}, {"oneOf": [{"type": "integer", "maximum": 0}, {"type": "integer", "minimum": 10}]},
    # A typed bound of 2^53 or more in size, which Go and TypeScript would round with the values near it, is applied as
    # written; an integer's maximum 2^63 - 1 and minimum -2^63, which its 64 bits imply, stay typed.
    {"type": "integer", "minimum": 9223372036854775807}, {"type": "integer", "maximum": 9007199254740993},
    {"type": "integer", "exclusiveMaximum": 9223372036854775807}, {"type": "integer", "maximum": -9223372036854775808},
    {"type": "number", "exclusiveMinimum": 9007199254740992}, {"type": "number", "exclusiveMaximum": 9007199254740993},
    {"type": "number", "exclusiveMaximum": 1e30}, {"type": "number", "maximum": 9007199254740992},
    {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807},
    {"$ref": "#/$defs/Nest"}, {"$ref": "#/$defs/Pick"}, {"not": {"not": {"$ref": "#/$defs/Pick/oneOf/0/properties/k"}}},
    # A float that is a whole number is that number exactly (2^57 written 144115188075855872.0), not its shortest
    # form (1.4411518807585587e+17, another number), in equality and in multipleOf; typed and applied alike.
    {"const": 144115188075855872}, {"enum": [4611686018427387904, "x"]}, {"const": 4611686018427387904.0},
    {"not": {"const": 144115188075855872}}, {"contains": {"const": 144115188075855872}}, {"multipleOf": 1024},
    {"type": "array", "items": {"type": "integer", **INT64}, "uniqueItems": True},
    {"type": "integer", "multipleOf": 1024, **INT64}, {"multipleOf": 1e23}, {"multipleOf": 0.3}, {"multipleOf": 9007199254740992},
]
TEXTS = [
    "0", "-0", "-0.0", "1", "1.0", "2", "3", "4", "5", "6", "0.1", "0.3", "0.30000000000000004", "0.7", "1.5", "1e-7", "-1e-7",
    "9007199254740992", "9007199254740993", "9007199254740993.0", "1e19", "10000000000000000000", "18446744073709551615",
    "18446744073709551616", "9223372036854775807", "9223372036854775806", "-9223372036854775808", "-9223372036854775807",
    "9223372036854775808", "[[9223372036854775808]]", '{"k": 9223372036854775808}', "1000000000000000000000000000000", "1000000000000000019884624838656", "1e30", "1e21", "1E21", "1e308", "123456789012345678900000", "24691357802469135780", "0.0075", "0.00751", "3e-9",
    "12.3456789", '""', '"a"', '"ab"', '"\U0001F600\U0001F600"', '"a\U0001F600"', '"\U0001F600\U0001F600\U0001F600\U0001F600"',
    '"abc"', '"é"', '"aac"', '"2024-02-29T12:00:00Z"', '"2023-02-29T12:00:00Z"', '"aGVsbG8="', '"aGVsbG8"', "null", "true", "false",
    "[]", "[1]", "[1, 1.0]", '[1, "1"]', '[{"a": 1}, {"a": 1.0}]', "[[1, 2], [1, 2.0]]", '[1, "x", 2, 3]', "[1, 2, 3, 4]",
    '["a", "b"]', '[1, "b", 3]', "[true, 1]", "{}", '{"a": 1}', '{"a": [1, 2.0], "b": null}', '{"b": null, "a": [1.0, 2]}',
    '{"__proto__": 1}', '{"__proto__": "x", "toString": 1, "c": true, "d": 2}', '{"constructor": 1, "a": 2}',
    '{"a": 1, "b": 2}', '{"a": 1, "c": 2}', '{"b": 1}', '{"b": 1, "d": 0}', '{"abcd": 1, "ab": 2}', '{"a1": 1, "xb": 5, "ab": 2.5}',
    '{"left": {"left": {}, "right": 1}, "right": {}}', '{"left": {"left": {}, "right": {"left": "x"}}}',
    "144115188075855872", "144115188075855872.0", "1.44115188075855872e17", "4611686018427387904.0", "1152921504606846976.0",
    "[144115188075855872.0, 144115188075855872]", "[144115188075855872, 1.44115188075855872e17]", "[144115188075855872.0]",
    "[4611686018427387904.0, 4611686018427387904]", "[1e23, 100000000000000000000000]", "[1e23, 99999999999999991611392]",
    "100000000000000000000000", "1e24", "3e23", "3e30",
]
TREE = {"type": "object", "properties": {"left": {"$ref": "#/$defs/Tree"}, "right": {"$ref": "#/$defs/Tree"}}, "additionalProperties": False}
# Each level an array whose items are one of two overlapping branches; only the innermost item decides.
DEEP = {"type": "array", "items": {"anyOf": [{"allOf": [{"$ref": "#/$defs/Deep"}, {"minItems": 5}]}, {"$ref": "#/$defs/Deep"}]}}


def _spec() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Applied checks", "description": "Schemas applied as written.",
        "x-version": "1.0.0", "$ref": "#/$defs/Doc",
        "$defs": {
            "Doc": {"type": "object", "description": "One field per schema.", "additionalProperties": False,
                    "properties": {**{f"s{i}": s for i, s in enumerate(SCHEMAS)}, "deep": {"$ref": "#/$defs/Deep"}}},
            "Tree": TREE,
            "Deep": DEEP,
            # A union that holds itself (applied as written, being on a cycle), and one lower_union refuses (its first
            # variant's fields a_b and aB spell alike) whose variant a $ref elsewhere reaches: neither is typed, so
            # neither's integers are held to 64 bits, which the exported schema does not state.
            "Nest": {"description": "Integers, or lists of these.", "oneOf": [{"type": "array", "items": {"$ref": "#/$defs/Nest"}}, {"type": "integer"}]},
            "Pick": {"description": "An object or a string.", "oneOf": [
                {"type": "object", "properties": {"a_b": {"type": "string"}, "aB": {"type": "string"}, "k": {"type": "integer"}}},
                {"type": "string"}]},
        },
    }


def _built(tmp_path: Path) -> tuple[conformance.Built, dict[str, Any]]:
    folder = tmp_path / "project" / "specs" / "applied_checks"
    folder.mkdir(parents=True)
    document = _spec()
    (folder / "spec.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    files = generate_cached([load_spec(folder, tmp_path / "project")], targets=["python", "go", "typescript"])
    return conformance.build(files, ["applied_checks"], tmp_path / "generated"), document


def _agree(built: conformance.Built, texts: list[str], verdicts: list[bool]) -> list[str]:
    """What is wrong: a verdict that is not the one given, or problems that differ between the languages."""
    cases = [("applied_checks", text, None) for text in texts]
    found = built.verdicts(cases)
    wrong = []
    for i, (text, want) in enumerate(zip(texts, verdicts)):
        seen = {language: verdicts[i] for language, verdicts in found.items()}
        for language, verdict in seen.items():
            if "crash" in verdict or verdict["ok"] != want:
                wrong.append(f"{language}: {text[:200]}: {verdict.get('crash') or verdict['errors'][:3]}, jsonschema says {want}")
        if len({json.dumps(v.get("errors")) for v in seen.values()}) > 1:
            wrong.append(f"{text[:200]}: the languages report different problems: {json.dumps({k: v.get('errors') for k, v in seen.items()})[:600]}")
    return wrong


def test_every_language_gives_jsonschemas_verdict_and_the_same_problems_on_exact_and_hostile_values(tmp_path: Path) -> None:
    built, document = _built(tmp_path)
    texts = [f'{{"s{i}": {text}}}' for i in range(len(SCHEMAS)) for text in TEXTS]
    oracle = conformance.oracle(document)
    wrong = _agree(built, texts, [oracle.is_valid(json.loads(text)) for text in texts])
    assert not wrong, f"{len(wrong)} wrong:\n" + "\n".join(wrong[:40])


def test_overlapping_branches_over_a_deep_value_are_judged_once_each(tmp_path: Path) -> None:
    built, _ = _built(tmp_path)
    deep_valid, deep_invalid = "[]", "1"
    for _ in range(100):
        deep_valid, deep_invalid = f"[{deep_valid}]", f"[{deep_invalid}]"
    # Without the verdicts remembered per (schema, value), each level would try the inner value twice: 2^100 walks.
    # (jsonschema, the oracle elsewhere, walks it so: the verdicts are stated here. The innermost 1 is no array.)
    wrong = _agree(built, [f'{{"deep": {deep_valid}}}', f'{{"deep": {deep_invalid}}}'], [True, False])
    assert not wrong, "\n".join(wrong)


def test_the_oracles_multiple_of_is_the_one_the_json_text_means() -> None:
    # The runtimes are held to the oracle's multipleOf (generator/reference.py): here it is held to the numbers the
    # texts write, so that the two cannot drift together. (A float's shortest form is what every JSON writer
    # prints; a whole float over a whole divisor below 2^53 is its exact value, which every form writes alike.)
    from generator.reference import _multiple

    truths = [
        ("0.3", "0.1", True), ("0.0075", "0.0001", True), ("0.7", "0.1", True), ("0.30000000000000004", "0.1", False),
        ("4611686018427387904.0", "1024", True), ("1152921504606846976.0", "1024", True),
        ("100000000000000000000000", "1e23", True), ("1e24", "1e23", True), ("3e23", "0.3", True), ("3e30", "0.3", True),
        ("9007199254740993", "3", True), ("10", "4", False), ("1e308", "0.5", True), ("4611686018427387904.0", "9007199254740992", True),
    ]
    for value, divisor, truth in truths:
        assert _multiple(json.loads(value), json.loads(divisor)) is truth, (value, divisor)

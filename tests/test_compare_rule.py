"""The compare rule in Python, Go and TypeScript against an oracle written here with exact arithmetic.

One spec orders, with each of the six operators, an integer against an integer, an integer against a
number (both ways), two numbers, two strings, an enum against a string and two date-times. Documents
take their values from pools of edges: integers past 2^53 one apart, floats between them, strings that
differ across the UTF-16 surrogates (where JavaScript's < is not code point order), date-times in other
offsets and with more fraction digits than nanoseconds hold; sides absent, absent with a default, or null.
The oracle orders them as the README says (integers exactly, numbers as floats, strings by code point,
date-times by instant), in fractions; every language must report exactly the rules it fails (and each
driver checks that what it accepts validates as built and survives its round trip). Also allowed_when on
a field that is a string or a list (a union), which looks into the list only.
"""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from typing import Any

import pytest

import conformance
from conftest import ROOT
from generator.core import generate
from generator.load import load_spec

OPS = ("<", "<=", "==", "!=", ">=", ">")
# (left, right): the pairs of fields each op orders.
PAIRS = (("i1", "i2"), ("i1", "n1"), ("n1", "i2"), ("n1", "n2"), ("s1", "s2"), ("e1", "s2"), ("t1", "t2"))
KINDS = {
    "i1": "integer",
    "i2": "integer",
    "n1": "number",
    "n2": "number",
    "s1": "string",
    "s2": "string",
    "e1": "string",
    "t1": "date-time",
    "t2": "date-time",
}
DEFAULTS = {"i2": 7, "n2": 1.0}
LEVELS = ["a", "b", "\ue000", "\U0001f600"]

# Per format, its compare rules: every op on every pair (no document passes them all), and one op per pair
# (many pass: the drivers then validate what they built and take it through a round trip).
RULES = {
    "comparisons": [(a, op, b) for a, b in PAIRS for op in OPS],
    "orderings": [(a, op, b) for (a, b), op in zip(PAIRS, ("<=", ">=", "!=", "<", "<=", "!=", "<="))],
}


def spec(fid: str) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Comparisons",
        "description": "Every compare operator on every kind of operand, and allowed_when on a union.",
        "x-version": "1.0.0",
        "$ref": "#/$defs/Doc",
        "$defs": {
            "Level": {"type": "string", "enum": LEVELS, "description": "A level."},
            "Part": {"type": "object", "description": "A part.", "properties": {"type": {"type": "string"}}, "required": ["type"]},
            "Doc": {
                "type": "object",
                "description": "Values to order.",
                "properties": {
                    "i1": {"type": "integer"},
                    "i2": {"type": "integer", "default": DEFAULTS["i2"]},
                    "n1": {"type": "number"},
                    "n2": {"type": ["number", "null"], "default": DEFAULTS["n2"]},
                    "s1": {"type": "string"},
                    "s2": {"type": ["string", "null"]},
                    "e1": {"$ref": "#/$defs/Level"},
                    "t1": {"type": "string", "format": "date-time"},
                    "t2": {"type": "string", "format": "date-time"},
                    "role": {"type": "string"},
                    "content": {"oneOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/Part"}}]},
                },
                "x-rules": [
                    *(
                        {"kind": "compare", "field": a, "op": op, "other": b, "message": f"{a} {op} {b} fails at {{value}}"}
                        for a, op, b in RULES[fid]
                    ),
                    {
                        "kind": "allowed_when",
                        "field": "content",
                        "when": {"field": "role", "equals": "system"},
                        "each": "/type",
                        "allowed": ["text"],
                        "message": "system: not {value}",
                    },
                ],
            },
        },
    }


BIG = 2**53
POOLS: dict[str, list[Any]] = {
    # 7.0 and 2^53 written with a fraction are integers too (JSON Schema): still ordered exactly, so 2^53.0 < 2^53 + 1.
    "integer": [0, -1, 1, 7, BIG - 1, BIG, BIG + 1, BIG + 2, BIG + 3, -BIG - 1, 2**63 - 1, -(2**63), 7.0, float(BIG)],
    "number": [0.0, -0.0, 0.5, 1.0, 7.0, 6.999999999999999, float(BIG), float(BIG + 2), float(BIG + 4), -float(BIG), 1e300, -1e-300],
    "string": ["", "a", "ab", "b", "\ue000", "\uffff", "\U0001f600", "\U0001f601", "a\U0001f600", "a\ue000", "é", "e\u0301"],
    "date-time": [
        "2024-01-15T10:30:00Z",
        "2024-01-15T11:30:00+01:00",
        "2024-01-15T10:30:00.000Z",
        "2024-01-15t10:30:00z",
        "2024-01-15T10:30:00.0000000001Z",
        "2024-01-15T10:30:00.00000000015Z",
        "2024-01-15T10:29:59.999999999999Z",
        "2024-01-15T10:30:00.000000001Z",
        "2024-01-14T23:59:00-10:31",
        "0001-01-01T00:00:00+23:59",
        "9999-12-31T23:59:59.5-23:59",
    ],
}


def _instant(text: str) -> Fraction:
    """Seconds since 0001-01-01 as an exact fraction, read here independently of every runtime."""
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d):(\d\d))", text)
    assert m is not None, text
    from datetime import date

    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    seconds = Fraction(date(y, mo, d).toordinal() * 86400 + h * 3600 + mi * 60 + s)
    if m.group(7):
        seconds += Fraction(int(m.group(7)), 10 ** len(m.group(7)))
    if m.group(8):
        offset = int(m.group(9)) * 3600 + int(m.group(10)) * 60
        seconds -= offset if m.group(8) == "+" else -offset
    return seconds


def _key(value: Any, kind: str) -> Any:
    if kind == "integer":
        return Fraction(int(value))
    if kind == "number":
        return Fraction(float(value))  # a number is the float64 Go and TypeScript hold
    if kind == "date-time":
        return _instant(value)
    return [ord(c) for c in value]  # code points, spelled out


def oracle(doc: dict[str, Any], fid: str = "comparisons") -> list[list[str]]:
    """The errors the format's rules give doc, in rule order (every field valid by its own type)."""
    errors = []
    for a, op, b in RULES[fid]:
        left, right = doc.get(a, DEFAULTS.get(a)), doc.get(b, DEFAULTS.get(b))
        if True:
            if left is None or right is None:
                continue
            x, y = _key(left, KINDS[a]), _key(right, KINDS[b])
            holds = {"<": x < y, "<=": x <= y, "==": x == y, "!=": x != y, ">=": x >= y, ">": x > y}[op]
            if not holds:
                shown = left if isinstance(left, str) else json.dumps(left)
                errors.append([f"/{a}", f"{a} {op} {b} fails at {shown}"])
    content = doc.get("content")
    if doc.get("role") == "system" and isinstance(content, list):
        errors += [[f"/content/{i}/type", f"system: not {p['type']}"] for i, p in enumerate(content) if p["type"] != "text"]
    return errors


def documents(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        doc: dict[str, Any] = {}
        for field, kind in KINDS.items():
            roll = rng.random()
            if roll < 0.15:
                continue  # absent (a default where the field has one)
            if roll < 0.2 and field in ("n2", "s2"):
                doc[field] = None
            elif field == "e1":
                doc[field] = rng.choice(LEVELS)
            else:
                doc[field] = rng.choice(POOLS[kind])
        doc["role"] = rng.choice(["system", "user"])
        doc["content"] = rng.choice(["text", [], [{"type": "text"}], [{"type": "text"}, {"type": "image"}], [{"type": "audio"}]])
        out.append(doc)
    return out


def _text(doc: dict[str, Any]) -> str:
    # Floats keep a fraction or exponent in the text (1.0, not 1), so a number is never read as an integer.
    return json.dumps(doc, ensure_ascii=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    project = tmp_path_factory.mktemp("compare")
    for fid in RULES:
        folder = project / "specs" / fid
        folder.mkdir(parents=True)
        (folder / "spec.json").write_text(json.dumps(spec(fid), ensure_ascii=False, indent=2), encoding="utf-8")
    files = generate([load_spec(project / "specs" / fid, project) for fid in RULES], targets=["python", "go", "typescript"])
    return conformance.build(files, list(RULES), project / "out")


def test_the_oracle_reads_the_edges_as_the_readme_says() -> None:
    assert _key(BIG + 1, "integer") > _key(float(BIG), "number") and _key(BIG + 1, "number") == _key(float(BIG), "number")
    assert _key("\U0001f600", "string") > _key("\ue000", "string") and "\U0001f600".encode("utf-16-be") < "\ue000".encode("utf-16-be")
    assert _instant("2024-01-15T10:30:00.00000000015Z") > _instant("2024-01-15T10:30:00.0000000001Z")
    assert _instant("2024-01-15T11:30:00+01:00") == _instant("2024-01-15t10:30:00z")


def test_every_language_orders_the_edges_as_the_oracle(built: conformance.Built) -> None:
    docs = documents(400, seed=7)
    cases = [(fid, _text(d), None) for fid in RULES for d in docs]
    wrong = built.against(cases, [oracle(docs[i % len(docs)], fid) for i, (fid, _, _) in enumerate(cases)])
    assert not wrong, f"{len(wrong)} disagreements; the first:\n" + "\n".join(wrong[:5])
    # Every rule fails somewhere and holds somewhere with both sides given (no verdict here is the default one).
    rules = {f"{a} {op} {b}" for a, b in PAIRS for op in OPS}
    failed = {e[1].split(" fails")[0] for d in docs for e in oracle(d) if " fails " in e[1]}
    assert failed == rules
    assert {r for d in docs for r in _held(d)} == rules
    assert sum(not oracle(d, "orderings") for d in docs) > 20  # accepted: built, validated, written and read again


def _held(doc: dict[str, Any]) -> set[str]:
    """The rules doc gives both sides to and satisfies."""
    failed = {e[1].split(" fails")[0] for e in oracle(doc)}
    return {f"{a} {op} {b}" for a, b in PAIRS if doc.get(a) is not None and doc.get(b) is not None for op in OPS} - failed


def test_a_document_whose_only_problem_is_a_compare_rule_is_refused_where_json_schema_accepts_it() -> None:
    # The rule is no JSON Schema: the exported schema leaves it out (ir.Rule.exportable), so a reference
    # validator accepts what the rule refuses; the differential tests count it as a check beyond JSON Schema.
    from generator.export import export
    from generator.lower import lower

    folder = ROOT / "tests" / "golden" / "compared_fields"
    spec = load_spec(folder, ROOT)
    exported = export(lower(spec), spec.document)
    assert "allOf" not in exported["$defs"]["Span"] and "allOf" in exported["$defs"]["Turn"]
    refused = json.loads((folder / "examples" / "invalid" / "end_before_start.json").read_text(encoding="utf-8"))
    assert conformance.oracle(exported).is_valid(refused["data"])
    assert not conformance.oracle(exported).is_valid(
        json.loads((folder / "examples" / "invalid" / "system_parts.json").read_text(encoding="utf-8"))["data"]
    )


INT64 = "must be an integer from -9223372036854775808 to 9223372036854775807"


def test_an_integer_past_int64_is_its_only_problem_and_no_rule_reads_it(built: conformance.Built) -> None:
    # A side that failed its own check is no operand: a rule that reads it is not run (Python's verdict), in
    # every language, whether the integer past int64 is written as digits or with an exponent or a fraction.
    past = ["9223372036854775808", "-9223372036854775809", "1e19", "-1e19", "9223372036854775808.0", "1.8e19"]
    docs = documents(12, seed=11)
    cases, wants = [], []
    for i, text in enumerate(past * 2):
        field = "i1" if i < len(past) else "i2"
        doc = docs[i]
        base = _text({k: v for k, v in doc.items() if k != field})
        cases.append(("comparisons", base[:-1] + f', "{field}": {text}}}', None))
        ruled = [e for e in oracle({k: v for k, v in doc.items() if k != field}) if field not in e[1].split(" fails")[0].split()]
        wants.append([[f"/{field}", INT64]] + ruled)
    wrong = built.against(cases, wants)
    assert not wrong, "\n".join(wrong[:3])

"""The member_of rule where its pool or its value is not what the spec declares, in Python, Go and
TypeScript against an oracle written here.

A held model's rule may name, two levels up, a property the holder does not declare (an open object
keeps it as any JSON value), and a rule's field may be a union whose value is a string only some of the
time. The rule judges a string value against an array of strings and nothing else (README "x-rules"):
a value that is no string, a pool that is absent, no array, or holds something else than strings, leaves
nothing to judge. Each language must report exactly the problems the oracle finds, and what it accepts
must validate as built (the Go target's typed Validate decides these rules apart, tests/conformance.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import conformance
from generator.core import generate
from generator.load import load_spec

FORMAT = "member_pools"

SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Member pools",
    "description": "member_of rules whose pool the holder does not declare, and whose value is a union.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Doc",
    "$defs": {
        "Pick": {
            "type": "object",
            "description": "A pick from a pool the document does not declare.",
            "properties": {"who": {"type": "string"}},
            "required": ["who"],
            "x-rules": [{"kind": "member_of", "field": "who", "in": "2/others", "message": "pick {value} is not in others"}],
        },
        "Tag": {
            "type": "object",
            "description": "A code that is a name some of the time.",
            "properties": {"code": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
            "required": ["code"],
            "x-rules": [{"kind": "member_of", "field": "code", "in": "2/names", "message": "tag {value} is not in names"}],
        },
        "Team": {
            "type": "object",
            "description": "Members and a lead, who is one of them unless none is given.",
            "properties": {"members": {"type": "array", "items": {"type": "string"}}, "lead": {"type": "string", "default": "ann"}},
            "required": ["members"],
            # Decided by the Go fast check too, which reads a field with a default as a plain string, not a pointer.
            "x-rules": [{"kind": "member_of", "field": "lead", "in": "0/members", "message": "lead {value} is not in members"}],
        },
        "Doc": {
            "type": "object",
            "description": "Names, picks and tags; any other property is kept.",
            "properties": {
                "names": {"type": "array", "items": {"type": "string"}},
                "picks": {"type": "array", "items": {"$ref": "#/$defs/Pick"}},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}},
                "teams": {"type": "array", "items": {"$ref": "#/$defs/Team"}},
                "owner": {"type": "string", "default": "ann"},
            },
            "required": ["names"],
            # A field with a default: absent, its default is judged (the Go fast check reads it as a plain string).
            "x-rules": [{"kind": "member_of", "field": "owner", "in": "0/names", "message": "owner {value} is not in names"}],
        },
    },
}

WHO = ["ann", "bob", "", "\U0001f600", "Ann"]
# Pools past the length the fast paths look through item by item (TypeScript 16, Python 64): those look them up in
# a set made once per pool, or leave them to the exact walk; one holds a number at its end, so judges nothing.
LONG = [f"person{i}" for i in range(20)] + ["bob"]
OTHERS: list[Any] = [["ann", "bob"], [], ["ann", 1], ["\U0001f600", "ann", "ann"], "ann", {"ann": 1}, None, [["ann"]], list(WHO),
                     LONG, [*LONG, 1], LONG * 4]


def oracle(doc: dict[str, Any]) -> list[list[str]]:
    """The errors the rules give doc, in the order of the walk (every value valid by its own type)."""
    errors = []
    others = doc.get("others")
    for i, pick in enumerate(doc.get("picks", [])):
        if isinstance(others, list) and all(isinstance(o, str) for o in others) and pick["who"] not in others:
            errors.append([f"/picks/{i}/who", f"pick {pick['who']} is not in others"])
    for i, tag in enumerate(doc.get("tags", [])):
        if isinstance(tag["code"], str) and tag["code"] not in doc["names"]:
            errors.append([f"/tags/{i}/code", f"tag {tag['code']} is not in names"])
    for i, team in enumerate(doc.get("teams", [])):
        lead = team.get("lead", "ann")
        if lead not in team["members"]:
            errors.append([f"/teams/{i}/lead", f"lead {lead} is not in members"])
    owner = doc.get("owner", "ann")
    if owner not in doc["names"]:
        errors.append(["/owner", f"owner {owner} is not in names"])
    return errors


def documents(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        doc: dict[str, Any] = {"names": rng.sample(WHO, rng.randrange(0, 4))}
        if rng.random() < 0.8:
            doc["others"] = rng.choice(OTHERS)
        if rng.random() < 0.8:
            # mostly from the pool where there is one, so that documents with a long pool are valid too
            pool = [o for o in doc.get("others", ()) if isinstance(o, str)] if isinstance(doc.get("others"), list) else []
            doc["picks"] = [{"who": rng.choice(pool if pool and rng.random() < 0.7 else WHO)} for _ in range(rng.randrange(0, 4))]
        if rng.random() < 0.8:
            doc["tags"] = [{"code": rng.choice([*WHO, 0, 7])} for _ in range(rng.randrange(0, 4))]
        if rng.random() < 0.5:
            doc["teams"] = [{"members": rng.sample(WHO, rng.randrange(0, 4))} for _ in range(rng.randrange(0, 3))]
            for team in doc["teams"]:
                if rng.random() < 0.5:  # mostly a member, so that documents with teams are valid too
                    team["lead"] = rng.choice(team["members"] if team["members"] and rng.random() < 0.7 else WHO)
        if rng.random() < 0.5:
            doc["owner"] = rng.choice(WHO)
        keys = list(doc)
        rng.shuffle(keys)  # the pool may come before or after what it judges
        out.append({k: doc[k] for k in keys})
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    project = tmp_path_factory.mktemp("member_of")
    folder = project / "specs" / FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(SPEC, ensure_ascii=False, indent=2), encoding="utf-8")
    files = generate([load_spec(folder, project)], targets=["python", "go", "typescript"])
    return conformance.build(files, [FORMAT], project / "out")


def test_every_language_judges_undeclared_pools_and_union_values_as_the_oracle(built: conformance.Built) -> None:
    docs = documents(400, seed=12)
    cases = [(FORMAT, json.dumps(d, ensure_ascii=False), None) for d in docs]
    wrong = built.against(cases, [oracle(d) for d in docs])
    assert not wrong, f"{len(wrong)} disagreements; the first:\n" + "\n".join(wrong[:5])
    # Both rules fail somewhere and are met somewhere with a pool to judge against.
    assert {e[1].split()[0] for d in docs for e in oracle(d)} == {"pick", "tag", "lead", "owner"}
    assert sum(not oracle(d) and isinstance(d.get("others"), list) and bool(d.get("picks")) for d in docs) > 10
    # A long pool of strings is judged both ways (a fast path that took it for one holding something else would accept).
    long = [d for d in docs if d.get("others") in (LONG, LONG * 4) and d.get("picks")]
    assert any(oracle(d) for d in long) and any(not oracle(d) for d in long)
    assert sum(not oracle(d) and any("lead" in t for t in d.get("teams", [])) for d in docs) > 5

"""Rules that read a field with a default somewhere along their pointer (generator/rule_pointers.py
check_rule_pointers): the document is judged as sent, without the field, and the value built
from it with the default filled in, so a parsed value would fail its own validate(). Each shape red team round 6
found is refused with the rule's place; a default that cannot change the verdict (one the rule allows, a contains
rule) is not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.errors import SpecError
from generator.load import load_spec
from generator.lower import lower

S = {"type": "string", "description": "A string."}
PEOPLE = {"type": "array", "items": {"type": "string"}, "default": [], "description": "Who takes part."}


def _model(props: dict[str, Any], rules: list[dict[str, Any]] | None = None, **more: Any) -> dict[str, Any]:
    return {"type": "object", "description": "A model.", "properties": props, **({"x-rules": rules} if rules else {}), **more}


def _member(pool: str) -> list[dict[str, Any]]:
    return [{"kind": "member_of", "field": "user", "in": pool, "message": "user {value} is not in people"}]


def _allowed(each: str, allowed: list[str]) -> list[dict[str, Any]]:
    return [{"kind": "allowed_when", "field": "content", "when": {"field": "role", "equals": "system"}, "each": each,
             "allowed": allowed, "message": "a system message holds {value}"}]


TURN = {"Turn": _model({"user": S}, _member("2/people"), required=["user"])}
TEXT = _model({"kind": {"const": "text", "description": "The kind."}}, required=["kind"])
IMAGE = _model({"kind": {"const": "image", "description": "The kind."}, "detail": {"type": "string", "default": "high", "description": "How fine."}},
               required=["kind"])

# case -> (the root, every definition): each refused.
REFUSED: dict[str, dict[str, Any]] = {
    "pool in a field's model": {"Doc": _model({"user": S, "meta": {"$ref": "#/$defs/Meta"}}, _member("0/meta/people")),
                                "Meta": _model({"people": PEOPLE})},
    "pool through a list index": {"Talk": _model({"groups": {"type": "array", "items": {"$ref": "#/$defs/Group"}, "description": "Groups."},
                                                  "turns": {"type": "array", "items": {"$ref": "#/$defs/Turn"}, "description": "Turns."}}),
                                  "Group": _model({"people": PEOPLE}),
                                  "Turn": _model({"user": S}, _member("2/groups/0/people"), required=["user"])},
    "pool through a union": {"Talk": _model({"meta": {"oneOf": [{"$ref": "#/$defs/Meta"}, {"type": "string"}], "description": "Meta."},
                                             "turns": {"type": "array", "items": {"$ref": "#/$defs/Turn"}, "description": "Turns."}}),
                             "Meta": _model({"people": PEOPLE}),
                             "Turn": _model({"user": S}, _member("2/meta/people"), required=["user"])},
    "a turn one level down": {"Talk": _model({"people": PEOPLE, "turn": {"oneOf": [{"$ref": "#/$defs/Turn"},
                                                                                    {"type": "array", "items": {"$ref": "#/$defs/Turn"}}],
                                                                          "description": "A turn or turns."}}),
                              "Turn": _model({"user": S}, _member("1/people"), required=["user"])},
    "a turn two levels down": {"Talk": _model({"people": PEOPLE, "turn": {"oneOf": [{"type": "array", "items": {"$ref": "#/$defs/Turn"}},
                                                                                     {"$ref": "#/$defs/Turn"}], "description": "Turns or a turn."}}),
                               "Turn": _model({"user": S}, _member("2/people"), required=["user"])},
    "items of a union": {"Message": _model({"role": S, "content": {"type": "array", "items": {"oneOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}]},
                                                                   "description": "Parts."}}, _allowed("/detail", ["low"])),
                         "Text": TEXT, "Image": IMAGE},
    "each through a list index": {"Message": _model({"role": S, "content": {"type": "array", "items": {"$ref": "#/$defs/Block"}, "description": "Blocks."}},
                                                    _allowed("/parts/0/type", ["text"])),
                                  "Block": _model({"parts": {"type": "array", "items": {"$ref": "#/$defs/Part"}, "description": "Parts."}}),
                                  "Part": _model({"type": {"type": "string", "default": "image", "description": "The kind."}})},
    "when pointer": {"Doc": _model({"x": S, "settings": {"$ref": "#/$defs/Settings"}},
                                   [{"kind": "required_when", "field": "x", "when": {"field": "settings", "pointer": "/mode", "equals": "strict"},
                                     "message": "strict settings need x"}]),
                     "Settings": _model({"mode": {"type": "string", "default": "strict", "description": "The mode."}})},
}
# ... and accepted: the default is one the rule allows, or the when pointer's default is not the value it equals, or
# the rule is contains (an item holding the value stays one, default or not).
ACCEPTED: dict[str, dict[str, Any]] = {
    "an allowed default": {"Message": _model({"role": S, "content": {"type": "array", "items": {"$ref": "#/$defs/Part"}, "description": "Parts."}},
                                             _allowed("/type", ["text", "image"])),
                           "Part": _model({"type": {"type": "string", "default": "text", "description": "The kind."}})},
    "another when value": {"Doc": _model({"x": S, "settings": {"$ref": "#/$defs/Settings"}},
                                         [{"kind": "required_when", "field": "x", "when": {"field": "settings", "pointer": "/mode", "equals": "strict"},
                                           "message": "strict settings need x"}]),
                           "Settings": _model({"mode": {"type": "string", "default": "lax", "description": "The mode."}})},
    "contains": {"Talk": _model({"turns": {"type": "array", "items": {"$ref": "#/$defs/Turn"}, "description": "Turns."}},
                                [{"kind": "contains", "field": "turns", "each": "/role", "equals": "user", "message": "a talk needs a user turn"}]),
                 "Turn": _model({"role": {"type": "string", "default": "user", "description": "Who."}})},
    "a pool without a default": {"Talk": _model({"people": {k: v for k, v in PEOPLE.items() if k != "default"},
                                                 "turns": {"type": "array", "items": {"$ref": "#/$defs/Turn"}, "description": "Turns."}}),
                                 **TURN},
}


def _lowered(tmp_path: Path, defs: dict[str, Any]) -> Any:
    root = next(iter(defs))
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Rules", "description": "Rules over defaults.",
                "x-version": "1.0.0", "$ref": f"#/$defs/{root}", "$defs": defs}
    folder = tmp_path / "specs" / "rules"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    return lower(load_spec(folder, tmp_path))


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_rule_reading_a_default_along_its_pointer_is_refused_with_its_place(tmp_path: Path, case: str) -> None:
    with pytest.raises(SpecError) as refused:
        _lowered(tmp_path, REFUSED[case])
    assert "/x-rules/0" in (refused.value.pointer or "") and "which has a default" in refused.value.problem, refused.value


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_a_default_that_cannot_change_the_verdict_is_kept(tmp_path: Path, case: str) -> None:
    _lowered(tmp_path, ACCEPTED[case])

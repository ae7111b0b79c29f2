"""Unions of models told apart by a const property the spec names nowhere (lower.inferred_tag): which unions are
inferred, and which stay applied as written. (tests/golden/tagged_unions runs one through every language.)"""

from __future__ import annotations

from typing import Any

import pytest

from generator.lower import inferred_tag


def _model(tag: str, value: Any, required: bool = True, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {tag: {"type": "string", "const": value}}, "required": [tag] if required else [], **extra}


DEFS = {
    "A": _model("type", "a"),
    "B": _model("type", "b"),
    "B2": _model("type", "a"),  # the same tag as A
    "Open": _model("type", "c", required=False),
    "Blank": _model("", "x"),
    "Blank2": _model("", "y"),
    "Num": {"type": "object", "properties": {"type": {"type": "integer", "const": 1}}, "required": ["type"]},
    "Map": {"type": "object", "additionalProperties": {"type": "string"}},
}


@pytest.mark.parametrize(
    "schema, tag",
    [
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}, "type"),
        ({"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "description": "d", "x-messages": {}}, "type"),
        # An empty property name is a name: found, and told apart from "no tag" (found by a red-team pass).
        ({"anyOf": [{"$ref": "#/$defs/Blank"}, {"$ref": "#/$defs/Blank2"}]}, ""),
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B2"}]}, None),  # two branches share a tag
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/Open"}]}, None),  # one does not require it
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/Num"}]}, None),  # not a string const
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/Map"}]}, None),  # not a model
        ({"anyOf": [{"$ref": "#/$defs/A"}]}, None),  # one branch
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "minProperties": 1}, None),  # says more than the union
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "x-discriminator": "type"}, None),  # named: lower_union's
        ({"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B", "minProperties": 1}]}, None),
    ],
)
def test_which_unions_are_inferred(schema: dict[str, Any], tag: str | None) -> None:
    assert inferred_tag(schema, DEFS) == tag

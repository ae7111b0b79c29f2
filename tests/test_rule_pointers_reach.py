"""Rule pointers that name nothing a document can hold there (generator/rule_pointers.py check_rule_pointers): the
rule would never judge a value (member_of's pool, allowed_when's `each`, a `when` pointer) or refuse every array
(contains' `each`) while the spec says it holds, so each is refused with the rule's place. A pointer that may reach
free-form data (an open model's other keys, a field of any JSON value, an open union) may name something and is kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.errors import SpecError
from test_rule_defaults import PEOPLE, S, _allowed, _lowered, _member, _model

TURNS = {"type": "array", "items": {"$ref": "#/$defs/Turn"}, "description": "Turns."}
PARTS = {"type": "array", "items": {"$ref": "#/$defs/Part"}, "description": "Parts."}
CLOSED_PART = _model({"type": S}, additionalProperties=False)


def _when(pointer: str) -> list[dict[str, Any]]:
    return [{"kind": "required_when", "field": "x", "when": {"field": "settings", "pointer": pointer, "equals": "strict"},
             "message": "strict settings need x"}]


def _contains(each: str) -> list[dict[str, Any]]:
    return [{"kind": "contains", "field": "content", "each": each, "equals": "text", "message": "a message needs text"}]


# case -> (every definition, the root first; what the refusal names)
REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "a pool a closed model lacks": ({"Talk": _model({"people": PEOPLE, "turns": TURNS}, additionalProperties=False),
                                     "Turn": _model({"user": S}, _member("2/peple"), required=["user"])},
                                    "no model there has a field 'peple' (Talk)"),
    "a pool past a string": ({"Talk": _model({"people": S, "turns": TURNS}),
                              "Turn": _model({"user": S}, _member("2/people/0"), required=["user"])}, "nothing there holds '0'"),
    "each into closed items": ({"Message": _model({"role": S, "content": PARTS}, _allowed("/kind", ["text"])), "Part": CLOSED_PART},
                               "no model there has a field 'kind' (Part)"),
    "contains into closed items": ({"Message": _model({"content": PARTS}, _contains("/kind")), "Part": CLOSED_PART},
                                   "no model there has a field 'kind' (Part)"),
    "a when pointer into a string": ({"Doc": _model({"x": S, "settings": S}, _when("/mode"))}, "nothing there holds 'mode'"),
    # member_of's pool must be able to be an array of strings: anything else leaves nothing to judge (round 8).
    "a pool that is a string": ({"Doc": _model({"user": S, "pool": S}, _member("0/pool"))}, "is never an array of strings"),
    "a pool of integers": ({"Doc": _model({"user": S, "pool": {"type": "array", "items": {"type": "integer"}, "description": "Ints."}},
                                          _member("0/pool"))}, "is never an array of strings"),
}
# ... and kept: an open model's other keys, a free-form field or an open union may hold what the pointer names.
KEPT: dict[str, dict[str, Any]] = {
    "an open model": {"Talk": _model({"people": PEOPLE, "turns": TURNS}), "Turn": _model({"user": S}, _member("2/peple"), required=["user"])},
    "a free-form field": {"Doc": _model({"x": S, "settings": {"description": "Any JSON value."}}, _when("/mode"))},
    "a pool of strings or numbers": {"Doc": _model({"user": S, "pool": {"type": "array", "items": {"type": ["string", "integer"]},
                                                                         "description": "Mixed."}}, _member("0/pool"))},
    "an open union": {"Message": _model({"role": S, "content": {"type": "array", "description": "Parts.", "items": {
        "oneOf": [{"$ref": "#/$defs/Part"}], "x-discriminator": "type", "x-open": True}}}, _allowed("/kind", ["text"])),
        "Part": _model({"type": {"const": "text", "description": "The kind."}}, required=["type"], additionalProperties=False)},
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_rule_pointer_naming_nothing_is_refused_with_its_place(tmp_path: Path, case: str) -> None:
    defs, names = REFUSED[case]
    with pytest.raises(SpecError) as refused:
        _lowered(tmp_path, defs)
    assert refused.value.pointer.endswith("/x-rules/0") and names in refused.value.problem, refused.value


@pytest.mark.parametrize("case", sorted(KEPT))
def test_a_pointer_that_may_reach_free_form_data_is_kept(tmp_path: Path, case: str) -> None:
    _lowered(tmp_path, KEPT[case])

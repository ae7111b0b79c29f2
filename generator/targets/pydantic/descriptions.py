"""Descriptions kept out of datamodel-code-generator's run, so editing one does not re-run it
(generator/standins.py).

datamodel-code-generator writes a description as the lines of a docstring and nowhere else, and
black does not format such a line by its content, so the module made from a schema is the module
made from the same schema with each description replaced by a stand-in, the stand-ins then
replaced by the descriptions. The pydantic target makes the module from that skeleton
(models.render_models: datamodel-code-generator, retyping, black, each remembered by its input): a
change to descriptions only (the most common edit of a spec, with the version bump that follows
it) costs a text replacement, not a datamodel-code-generator run (about 0.55 s, as long as the
rest of the edit loop together) and no black.

Only what is sure to be written unchanged is replaced: a "plain" description (one line of
printable text, with nothing datamodel-code-generator or black would escape, strip or re-quote),
at a position that is a schema's "description" or "$comment" keyword (the export's "$comment"
holds the version, which a bump changes; datamodel-code-generator does not write it). Anything
else stays in the skeleton as it is. restore() accepts a module only where every stand-in it
finds is a docstring line of its own, and says None otherwise, so the caller makes the module
from the real schema.
tests/test_pydantic_target.py holds datamodel-code-generator's two ways equal on drawn descriptions;
the golden cases and tests/test_cache.py hold the modules equal.
"""

from __future__ import annotations

import re
from typing import Any

from generator.standins import RESERVED, plain, put_back, stand_in

_ALLOWED = [re.compile(r"^ *S$")]  # a docstring line of its own

# Keywords whose text is read by people, not by validators: "$comment" holds the format's version.
_TEXT = ("description", "$comment")
# Keywords whose value is a schema, a list of schemas or a map of name -> schema (draft 2020-12 and older).
_ONE = (
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "items",
)
_LIST = ("prefixItems", "allOf", "anyOf", "oneOf", "items")
_MAP = ("$defs", "definitions", "properties", "patternProperties", "dependentSchemas")


def blind(schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
    """(the schema with each plain description replaced by its stand-in, the descriptions in
    stand-in order; equal texts share one stand-in, so the skeleton keeps which are equal), or
    None when the schema already holds a stand-in's spelling."""
    if RESERVED in repr(schema):
        return None
    texts: dict[str, int] = {}

    def walk(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out = dict(node)
        for key, value in node.items():
            if key in _TEXT and isinstance(value, str) and plain(value):
                out[key] = stand_in(texts.setdefault(value, len(texts)))
            elif key in _MAP and isinstance(value, dict):
                out[key] = {name: walk(sub) for name, sub in value.items()}
            elif key in _LIST and isinstance(value, list):
                out[key] = [walk(sub) for sub in value]
            elif key in _ONE and isinstance(value, dict):
                out[key] = walk(value)
        return out

    return walk(schema), list(texts)


def restore(code: str, texts: list[str]) -> str | None:
    """The skeleton's output with its descriptions back, or None where a stand-in is anywhere
    but a docstring line of its own (the caller then runs on the real schema)."""
    return put_back(code, texts, _ALLOWED)

"""Descriptions kept out of datamodel-code-generator's run, so editing one does not re-run it.

datamodel-code-generator writes a description as the lines of a docstring and nowhere else, so
its output for a schema is its output for the same schema with each description replaced by a
stand-in, the stand-ins then replaced by the descriptions. The pydantic target remembers its
run by that skeleton (models.render_models): a change to descriptions only (the most common
edit of a spec, with the version bump that follows it) costs a text replacement, not a
datamodel-code-generator run (about 0.55 s, as long as the rest of the edit loop together).

Only what is sure to be written unchanged is replaced: a "plain" description (one line of
printable text, with nothing datamodel-code-generator or black would escape, strip or re-quote),
at a position that is a schema's "description" or "$comment" keyword (the export's "$comment" holds
the version, which a bump changes; datamodel-code-generator does not write it). Anything else stays in the skeleton as
it is. restore() accepts a run only where every stand-in it finds is a docstring line of its
own, and says None otherwise, so the caller runs datamodel-code-generator on the real schema.
tests/test_pydantic_target.py holds the two ways equal on drawn descriptions and every golden.
"""

from __future__ import annotations

import re
from typing import Any

_STAND_IN = "chatspecdescription{}z"  # plain itself; the z ends it, so 1z is not found in 10z
_STAND_IN_LINE = re.compile(r"^( *)chatspecdescription(\d+)z$", re.M)

# Keywords whose text is read by people, not by validators: "$comment" holds the format's version.
_TEXT = ("description", "$comment")
# Keywords whose value is a schema, a list of schemas or a map of name -> schema (draft 2020-12 and older).
_ONE = ("additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "additionalItems", "items")
_LIST = ("prefixItems", "allOf", "anyOf", "oneOf", "items")
_MAP = ("$defs", "definitions", "properties", "patternProperties", "dependentSchemas")


def plain(text: str) -> bool:
    """Whether text is written into a docstring line exactly as it is: one line, printable, no
    surrounding space, no backslash, no quote at either end or two in a row."""
    return (bool(text) and text == text.strip() and text.isprintable() and "\\" not in text
            and '""' not in text and not text.startswith('"') and not text.endswith('"'))


def blind(schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
    """(the schema with each plain description replaced by its stand-in, the descriptions in
    stand-in order; equal texts share one stand-in, so the skeleton keeps which are equal), or
    None when the schema already holds a stand-in's spelling."""
    if "chatspecdescription" in repr(schema):
        return None
    texts: dict[str, int] = {}

    def walk(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out = dict(node)
        for key, value in node.items():
            if key in _TEXT and isinstance(value, str) and plain(value):
                out[key] = _STAND_IN.format(texts.setdefault(value, len(texts)))
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
    def put(found: re.Match[str]) -> str:
        return found.group(1) + texts[int(found.group(2))]

    if any(int(n) >= len(texts) for n in re.findall(r"^ *chatspecdescription(\d+)z$", code, re.M)):
        return None
    out = _STAND_IN_LINE.sub(put, code)
    if "chatspecdescription" in _STAND_IN_LINE.sub("", code):
        return None
    return out

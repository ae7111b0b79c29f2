"""x-messages keys that no check of their schema reports: a message that would never show is refused.

A misspelt key is refused by the meta-schema (with a did-you-mean); this finds a well-spelt key whose keyword is
not in the same schema, e.g. {"type": "string", "x-messages": {"maxLength": "..."}} without maxLength, or a
"format" message for a format chatspec only annotates. Keys another schema's keyword may report with ("type",
"required", "int64", "false") are left alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from generator import checks, string_formats
from generator.errors import pointer_of

# The x-messages keys another schema's keyword may report with (a nullable's type, a model's required list, a
# typed integer's int64, a false schema in properties): never refused as unused.
ANYWHERE = frozenset({"type", "required", "int64", "false"})

# An x-messages key -> the keywords of its own schema, any of which reports with it. (Every key of the meta-schema
# is here or in ANYWHERE: tests/test_architecture.py.)
REPORTED_BY = {
    **{
        k: (k,)
        for k in (
            "minLength",
            "maxLength",
            "pattern",
            "contentEncoding",
            "enum",
            "const",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minItems",
            "maxItems",
            "uniqueItems",
            "prefixItems",
            "maxContains",
            "minProperties",
            "maxProperties",
            "propertyNames",
            "dependentRequired",
            "anyOf",
            "oneOf",
            "not",
            "additionalProperties",
        )
    },
    "format": ("format",),
    "items": ("prefixItems", "items"),
    "minContains": ("contains",),
    "discriminator": ("x-discriminator", "anyOf", "oneOf"),
    "discriminatorValue": ("x-discriminator", "anyOf", "oneOf"),
}


def _schemas(schema: Any, pointer: str) -> Iterator[tuple[dict[str, Any], str]]:
    """Every schema in schema (itself included) with its pointer; data (const, enum, default, examples, x- values)
    is not entered."""
    if not isinstance(schema, dict):
        return
    yield schema, pointer
    for key, value in schema.items():
        holds = checks.STRUCTURE.get(key)
        at = pointer + pointer_of(key)
        if holds == "schema":
            yield from _schemas(value, at)
        elif holds == "list" and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _schemas(sub, f"{at}/{i}")
        elif holds == "map" and isinstance(value, dict):
            for name, sub in value.items():
                yield from _schemas(sub, at + pointer_of(name))


def unused(document: dict[str, Any]) -> Iterator[tuple[str, str, str, str]]:
    """(pointer of the x-messages key, key, why no check reports it, the fix) for every such key of the spec, in order."""
    for schema, pointer in _schemas(document, ""):
        over = schema.get("x-messages")
        if not isinstance(over, dict) or "$ref" in schema:
            continue  # (beside a $ref, lower refuses any key but "required", with its own message)
        for key in over:
            needs = REPORTED_BY.get(key)
            at = pointer + pointer_of("x-messages", key)
            if needs is not None and not any(k in schema for k in needs):
                yield at, key, f"this schema has no {' or '.join(needs)}, so no check reports with it", "remove it, or add the check it words"
            elif key == "format" and not (isinstance(schema["format"], str) and string_formats.asserted(schema["format"])):
                yield at, key, f"format {schema['format']!r} is an annotation, not checked", (
                    f"remove it: chatspec checks the formats {', '.join(sorted(string_formats.ASSERTED))}"
                )

"""keywords: the spec language, read from the meta-schema (generator/metaschema/chatspec.schema.json).

The meta-schema is the one list of keywords. For each keyword a spec may write it says what it
means (description), what else bounds it (x-limits) and shows it at work (x-example: a small
spec, values just inside and just past its limits, and the errors the generated code reports).
This module reads that into Keyword records, with what the rest of chatspec knows of the keyword:
the value it takes (in words, from its schema in the meta-schema), where it may stand (lower's
tables) and its default messages (generator/messages.py). `example_spec` makes a keyword's
example into a spec whose inside values are its valid examples and past values its invalid ones,
so generating it checks the example against the exported schema and the generated Python.
The docs' spec-language page is rendered from these records; tests run the examples through
every language.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from generator import checks, messages
from generator.load import LoadedSpec, check_document, check_values, meta_schema
from generator.lower import ANNOTATIONS_READ, KEYWORDS_BY_TYPE

SOURCE = "generator/metaschema/chatspec.schema.json"

# The x-messages keys a keyword reports with, where they are not named like it.
_MESSAGE_KEYS = {
    "type": ("type", "int64"),
    "x-discriminator": ("discriminator", "discriminatorValue"),
    # A false schema (a field that may not be there, false in a list of schemas) reports "false".
    "properties": ("false",),
    "contains": ("minContains",),
}

# The places lower's KEYWORDS_BY_TYPE names, in words.
_KINDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "array": "an array",
    "object": "a map (an object without properties)",
    "model": "a model (an object with properties)",
    "union": "a union (oneOf)",
    "ref": "any schema (annotations beside it)",
    "nullable": "a value that may be null",
}

# The meta-schema's own annotations of a keyword (not keywords a spec writes): its example and its limits.
META_ANNOTATIONS = frozenset({"x-example", "x-limits"})
# The keywords of a meta-schema schema that only annotate it.
_ANNOTATION_KEYS = {"description", "title", "$comment", *META_ANNOTATIONS}

# A property of the example's root model holds the value of a "schema" example.
ROOT = "Example"
VALUE = "value"


@dataclass(frozen=True)
class Example:
    """A keyword's x-example as a spec: its top-level keywords, its $defs and its payloads."""

    document: dict[str, Any]  # top-level keywords the example sets, e.g. {"x-version": "1.2.0"}
    defs: dict[str, Any]  # the spec's $defs; the root is the first, e.g. {"Example": {...}}
    wrapped: bool  # True: a value is the root's property "value" ("schema" examples), False: the whole document
    inside: tuple[Any, ...]  # values accepted, e.g. ("ab",)
    past: tuple[dict[str, Any], ...]  # values refused, each {"data": ..., "errors": [{"path", "message"}]}

    def payload(self, value: Any) -> Any:
        """The document a value is checked as, e.g. {"value": "ab"}."""
        return {VALUE: value} if self.wrapped else value


@dataclass(frozen=True)
class Keyword:
    name: str  # as a spec writes it, e.g. "minLength", "x-rules", or a rule kind, e.g. "member_of"
    place: str  # "document" (top level), "schema" (any schema) or "rule" (a kind of x-rules)
    pointer: str  # where the meta-schema defines it, e.g. "/$defs/schema/properties/minLength"
    description: str
    takes: str  # the value it takes, in words, e.g. "an integer of at least 0"
    on: tuple[str, ...]  # where it may stand, in words, e.g. ("a string",)
    limits: str  # what else bounds it (x-limits), or ""
    # (x-messages key, the JSON type it is for or "", default message) of its checks,
    # e.g. ("minLength", "", "must be at least {limit} character(s) long")
    messages: tuple[tuple[str, str, str], ...]
    example: Example | None
    keys: tuple[tuple[str, str, str], ...] = ()  # a rule kind's keys: (key, the value it takes, description)

    @property
    def format_id(self) -> str:
        """The id of the example's spec, e.g. "schema_min_length", "rule_member_of"."""
        snake = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", self.name).lower()
        return self.place + "_" + re.sub(r"[^a-z0-9]+", "_", snake).strip("_")


def _resolve(schema: Any) -> Any:
    """A meta-schema $ref (#/$defs/...) followed, with the referring schema's other keywords kept."""
    if isinstance(schema, dict) and "$ref" in schema:
        target = meta_schema()["$defs"][schema["$ref"].rsplit("/", 1)[1]]
        return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def takes(schema: Any) -> str:
    """The values a meta-schema schema accepts, in words (the rest of its story is in its description)."""
    named = meta_schema()["$defs"][schema["$ref"].rsplit("/", 1)[1]] if isinstance(schema, dict) and "$ref" in schema else {}
    if "title" in named:  # a definition of the meta-schema that names its values, e.g. "a condition"
        return str(named["title"])
    schema = _resolve(schema)
    if schema is True or not set(schema) - _ANNOTATION_KEYS:
        return "any JSON value"
    if "const" in schema:
        return f"`{_json(schema['const'])}`"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{_json(v)}`" for v in schema["enum"])
    for union in ("anyOf", "oneOf"):
        if union in schema and "type" not in schema:
            return ", or ".join(takes(s) for s in schema[union])
    if schema.get("additionalProperties") is False:
        return "a schema"
    kind = schema.get("type")
    if kind == "string":
        words = "a non-empty string" if schema.get("minLength") else "a string"
        if schema.get("format") == "regex":
            return words + " (a regular expression)"
        return words + (f" matching `{schema['pattern']}`" if "pattern" in schema else "")
    if kind == "integer":
        return "an integer" + (f" of at least {schema['minimum']}" if "minimum" in schema else "")
    if kind == "number":
        return "a number"
    if kind == "boolean":
        return "`true` or `false`"
    if kind == "array":
        least = schema.get("minItems", 0)
        return (
            ("a non-empty list of " if least == 1 else f"a list of at least {least} " if least else "a list of ")
            + _plural(takes(schema.get("items", True)))
            + (", without duplicates" if schema.get("uniqueItems") else "")
        )
    if kind == "object":
        if "propertyNames" in schema and "enum" in schema["propertyNames"]:
            return f"an object from check keywords to {_plural(takes(schema.get('additionalProperties', True)))}"
        return f"an object of {_plural(takes(schema.get('additionalProperties', True)))}"
    raise AssertionError(f"the spec-language page has no words for the meta-schema schema {schema!r}")


def _plural(words: str) -> str:
    """ "a non-empty string" -> "non-empty strings", "a string matching `x`" -> "strings matching `x`"."""
    if not words.startswith(("a ", "an ")):
        return words
    words = words.split(" ", 1)[1]
    noun_end = min(
        (at for at in (words.find(" matching "), words.find(" of "), words.find(" ("), words.find(",")) if at >= 0), default=len(words)
    )
    return words[:noun_end] + "s" + words[noun_end:]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _on(name: str, place: str) -> tuple[str, ...]:
    if place == "document":
        return ("the document (top level)",)
    if place == "rule":
        return ("a model's x-rules",)
    on = [words for kind, words in _KINDS.items() if name in KEYWORDS_BY_TYPE[kind]]
    on += [where for where, names in ANNOTATIONS_READ.items() if name in names]
    if name in checks.APPLIED or name in checks.ANNOTATIONS:
        on.append("a schema applied as written (one no type of the targets holds: a JSON value in code, checked as JSON Schema says)")
    return tuple(on)


def _messages(name: str) -> tuple[tuple[str, str, str], ...]:
    keys = _MESSAGE_KEYS.get(name, (name,) if name in messages.DEFAULTS else ())
    return tuple(row for key in keys for row in _defaults(key))


def _defaults(key: str) -> list[tuple[str, str, str]]:
    """(key, the JSON type it is for or "", default message) of an x-messages key: "type" once per JSON
    type, e.g. ("type", "integer", "must be an integer") (any JSON value has none)."""
    if key == "type":
        return [(key, kind, text) for kind, text in messages.TYPE_MESSAGES.items() if kind != "any"]
    return [(key, "", messages.DEFAULTS[key])]


def _example(found: Any) -> Example | None:
    if found is None:
        return None
    defs = dict(found.get("defs", {}))
    wrapped = "defs" not in found or "schema" in found
    if wrapped:
        root = {"type": "object", "properties": {VALUE: found.get("schema", {"type": "string"})}, "required": [VALUE]}
        defs = {ROOT: root, **defs}
    return Example(
        document=dict(found.get("document", {})),
        defs=defs,
        wrapped=wrapped,
        inside=tuple(found.get("inside", ())),
        past=tuple(found.get("past", ())),
    )


def schema_keywords() -> frozenset[str]:
    """The names of the keywords a schema may have."""
    return frozenset(meta_schema()["$defs"]["schema"]["properties"])


@functools.cache
def keywords() -> tuple[Keyword, ...]:
    """Every keyword of the spec language, as the meta-schema lists them: the document's, a schema's, then the rule kinds."""
    meta = meta_schema()
    found = []
    places = (
        ("document", "/properties", meta["properties"]),
        ("schema", "/$defs/schema/properties", meta["$defs"]["schema"]["properties"]),
    )
    for place, base, properties in places:
        for name, schema in properties.items():
            found.append(
                Keyword(
                    name=name,
                    place=place,
                    pointer=f"{base}/{name.replace('~', '~0').replace('/', '~1')}",
                    description=schema.get("description", ""),
                    takes=takes(schema),
                    on=_on(name, place),
                    limits=schema.get("x-limits", ""),
                    messages=() if place == "document" else _messages(name),
                    example=_example(schema.get("x-example")),
                )
            )
    for i, branch in enumerate(meta["$defs"]["rule"]["oneOf"]):
        keys = tuple((key, takes(s) if key != "kind" else "", s.get("description", "")) for key, s in branch["properties"].items())
        found.append(
            Keyword(
                name=branch["properties"]["kind"]["const"],
                place="rule",
                pointer=f"/$defs/rule/oneOf/{i}",
                description=branch.get("description", ""),
                takes="an object with the keys below",
                on=_on("", "rule"),
                limits=branch.get("x-limits", ""),
                messages=(),
                example=_example(branch.get("x-example")),
                keys=keys,
            )
        )
    return tuple(found)


def message_defaults() -> list[tuple[str, str, str]]:
    """Every x-messages key with its default message, in the meta-schema's order ("type" once per JSON type)."""
    return [row for key in meta_schema()["$defs"]["messages"]["propertyNames"]["enum"] for row in _defaults(key)]


def example_spec(keyword: Keyword) -> LoadedSpec:
    """The keyword's example as a spec, checked as load checks a spec file: its inside values are its
    valid examples, its past values its invalid examples with their errors."""
    assert keyword.example is not None, keyword.name
    example = keyword.example
    shown = f"{SOURCE}#{keyword.pointer}/x-example/spec.json"  # examples/valid/... beside it, in messages
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"The {keyword.name} keyword",
        "description": f"The example of {keyword.name}.",
        "x-version": "1.0.0",
        "$ref": f"#/$defs/{next(iter(example.defs))}",
        "$defs": example.defs,
        **example.document,
    }
    check_values(document, shown)
    check_document(document, shown)
    return LoadedSpec(
        format_id=keyword.format_id,
        path=shown,
        document=document,
        examples_valid=tuple((f"inside_{i}", example.payload(v)) for i, v in enumerate(example.inside)),
        examples_invalid=tuple(
            (f"past_{i}", {"description": "", "data": example.payload(p["data"]), "errors": p["errors"]})
            for i, p in enumerate(example.past)
        ),
    )

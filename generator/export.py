"""The export stage: each format as a plain JSON Schema 2020-12 document.

x- keywords are dropped; the rules JSON Schema can state are added as standard
keywords (if/then, anyOf, contains) so a reference validator reaches the same
verdict; base64 strings get the pattern the generated code checks. A tagged
union (x-discriminator) carries OpenAPI's `discriminator` annotation
({"propertyName", "mapping"}), which downstream generators such as
datamodel-code-generator read; 2020-12 validators ignore it, so verdicts are unchanged.

One stage, read by every consumer: the JSON Schema target writes it, the docs
offer it for download, the pydantic target feeds it to datamodel-code-generator,
and the example checks validate against it.
"""

from __future__ import annotations

import json
from typing import Any

from generator import invisible, ir
from generator.render import header

# Standard padded base64. It ends with (?![\s\S]), "end of text" in ECMA-262 and in
# Python alike: a "$" would also match before a final newline in Python's re.
BASE64_PATTERN = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![\s\S])"

NUMERIC_RANGES = {"integer": (-(2**63), 2**63 - 1), "number": (-1.7976931348623157e308, 1.7976931348623157e308)}

# Keywords whose value is a schema, a list of schemas, or a map of schemas.
_SCHEMA_VALUED = {"items", "additionalProperties"}
_SCHEMA_LISTS = {"prefixItems", "oneOf", "anyOf", "allOf"}
_SCHEMA_MAPS = {"properties", "$defs"}


def discriminator(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI's discriminator annotation of a oneOf with x-discriminator: the tag
    property and, for each tag value, the $ref of its variant (lower.py has checked
    that every variant is a $ref to a model whose tag property has a const)."""
    tag = schema["x-discriminator"]
    mapping = {}
    for variant in schema["oneOf"]:
        target = root["$defs"][variant["$ref"].removeprefix("#/$defs/")]
        mapping[target["properties"][tag]["const"]] = variant["$ref"]
    return {"propertyName": tag, "mapping": mapping}


def strip(schema: Any, root: dict[str, Any] | None = None) -> Any:
    """Copy a schema without x- keywords (data under default/enum/const is left alone).
    root is the whole spec document, where discriminated variants are looked up."""
    if not isinstance(schema, dict):
        return schema
    root = schema if root is None else root
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key.startswith("x-"):
            continue
        if key in _SCHEMA_VALUED:
            out[key] = strip(value, root)
        elif key in _SCHEMA_LISTS:
            out[key] = [strip(v, root) for v in value]
        elif key in _SCHEMA_MAPS:
            out[key] = {k: strip(v, root) for k, v in value.items()}
        else:
            out[key] = value
    if "x-discriminator" in schema and "oneOf" in schema:
        out["discriminator"] = discriminator(schema, root)
    if schema.get("contentEncoding") == "base64":
        out["pattern"] = BASE64_PATTERN
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types or []
    # Generated code holds integers in 64 bits and numbers in float64; say so,
    # so a reference validator draws the same line.
    for kind, (low, high) in NUMERIC_RANGES.items():
        if kind in types:
            out["minimum"] = max(out.get("minimum", low), low)
            out["maximum"] = min(out.get("maximum", high), high)
            break
    return out


def at_pointer(tokens: tuple[str, ...], leaf: dict[str, Any]) -> dict[str, Any]:
    """A schema that holds `leaf` at a JSON pointer inside the value, and requires it to exist."""
    schema = leaf
    for token in reversed(tokens):
        if token.isdigit():
            n = int(token)
            schema = {"type": "array", "prefixItems": [True] * n + [schema], "minItems": n + 1}
        else:
            schema = {"type": "object", "properties": {token: schema}, "required": [token]}
    return schema


def present(field: str) -> dict[str, Any]:
    """Present and not null: what the generated code means by "has a value"."""
    return {"required": [field], "properties": {field: {"not": {"type": "null"}}}}


def rule_schema(rule: ir.Rule) -> dict[str, Any] | None:
    """The standard JSON Schema form of a rule, or None when it has none."""
    if not rule.exportable:
        return None
    when = None
    if rule.when is not None:
        when = {
            "properties": {rule.when.field: at_pointer(rule.when.pointer, {"const": rule.when.equals})},
            "required": [rule.when.field],
        }
    if rule.kind == "required_when":
        return {"if": when, "then": present(rule.fields[0])}
    if rule.kind == "at_least_one_of":
        return {"anyOf": [present(f) for f in rule.fields]}
    if rule.kind == "allowed_when":
        each = {"if": at_pointer(rule.pointer, {}), "then": at_pointer(rule.pointer, {"enum": list(rule.allowed)})}
        return {"if": when, "then": {"properties": {rule.fields[0]: {"items": each}}}}
    if rule.kind == "contains":
        return {"properties": {rule.fields[0]: {"contains": at_pointer(rule.pointer, {"const": rule.equals})}}}
    raise AssertionError(f"no export for rule kind {rule.kind}")


def export(fmt: ir.Format, document: dict[str, Any], with_rules: bool = True) -> dict[str, Any]:
    """The standard schema; with_rules=False leaves out the rules stated as allOf (for a
    consumer that enforces the rules itself, such as the pydantic target)."""
    schema: dict[str, Any] = strip(document)  # a dict in, a dict out
    schema["$comment"] = f"{fmt.id} {fmt.version}. {header(fmt.source)}"
    if not with_rules:
        return schema
    for model in fmt.models:
        extra = [s for s in (rule_schema(r) for r in model.rules) if s is not None]
        if extra:
            schema["$defs"][model.name]["allOf"] = extra
    return schema


def schema_text(schema: dict[str, Any]) -> str:
    """The bytes of an exported schema file (the JSON Schema target writes them, the docs offer them for download);
    a character that hides or reorders text is written as its JSON escape, the same value."""
    return invisible.shown(json.dumps(schema, indent=2, ensure_ascii=False), invisible.json_escape) + "\n"

"""The export stage: each format as a plain JSON Schema 2020-12 document.

It is made from the IR alone, never from the spec's text, so a keyword lower reads has one meaning
everywhere: x- keywords are left out; the rules JSON Schema can state are added as standard
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
import re
from typing import Any

from generator import invisible, ir
from generator.render import header

# Standard padded base64. It ends with (?![\s\S]), "end of text" in ECMA-262 and in
# Python alike: a "$" would also match before a final newline in Python's re.
BASE64_PATTERN = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![\s\S])"

# The keywords null passes whatever their value: annotations, and assertions on one other type. "null" joins the
# `type` of a nullable's schema made of these only; beside any other (enum, const, not, allOf, anyOf, oneOf, if,
# $ref) null would be judged by it too, so the export writes null as a branch of its own (anyOf).
_IGNORE_NULL = frozenset(
    {
        *("title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"),
        *("minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType", "contentSchema"),
        *("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
        *("items", "prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems"),
        *("unevaluatedItems", "properties", "patternProperties", "additionalProperties", "required", "minProperties"),
        *("maxProperties", "propertyNames", "dependentRequired", "dependentSchemas", "unevaluatedProperties"),
    }
)
NUMERIC_RANGES = {"integer": (-(2**63), 2**63 - 1), "number": (-1.7976931348623157e308, 1.7976931348623157e308)}


def type_schema(t: ir.TypeRef, applied: bool = True) -> dict[str, Any]:
    """The standard JSON Schema of an IR type, with its annotations as a nested schema; applied=False gives a schema
    applied as written as {} (any value), a string without its format and no nested annotations (a title there would
    name a class of its own), for a consumer that checks the first two itself (the pydantic target)."""
    out = _shape(t, applied)
    return {**out, **kept(t.annotations)} if applied and t.annotations else out


def _shape(t: ir.TypeRef, applied: bool) -> dict[str, Any]:
    match t:
        case ir.StringType():
            out: dict[str, Any] = {"type": "string"}
            out.update(
                {
                    k: v
                    for k, v in (
                        ("minLength", t.min_length),
                        ("maxLength", t.max_length),
                        ("pattern", t.pattern),
                        ("format", t.format if applied else None),
                        ("const", t.const),
                    )
                    if v is not None
                }
            )
            if t.enum is not None:
                out["enum"] = list(t.enum)
            return out
        case ir.DateTimeType():
            return {"type": "string", "format": "date-time"}
        case ir.BytesType():
            # The generated code checks padded standard base64; JSON Schema only annotates contentEncoding.
            return {"type": "string", "contentEncoding": "base64", "pattern": BASE64_PATTERN}
        case ir.NumericType():
            kind = "integer" if t.integer else "number"
            low, high = NUMERIC_RANGES[kind]
            out = {"type": kind}
            out.update(
                {k: v for k, v in (("exclusiveMinimum", t.exclusive_minimum), ("exclusiveMaximum", t.exclusive_maximum)) if v is not None}
            )
            # Generated code holds integers in 64 bits and numbers in float64; say so, so a reference validator draws the same line.
            # (The range's own bound where the spec's is no tighter: -9.223372036854775808e18 is -2^63 as a float, which
            # datamodel-code-generator writes -9223372036854776000, looser than -2^63.)
            out["minimum"] = low if t.minimum is None or t.minimum <= low else t.minimum
            out["maximum"] = high if t.maximum is None or t.maximum >= high else t.maximum
            if t.multiple_of is not None:
                out["multipleOf"] = t.multiple_of
            # (Not in the pydantic target's schema: datamodel-code-generator's Literal and IntEnum are not strict, so
            # its classes check them as the dataclasses do, generator/targets/pydantic/validators.py.)
            return out | (_values(t) if applied else {})
        case ir.BooleanType():
            return {"type": "boolean"} | (_values(t) if applied else {})
        case ir.AnyType(checks=ir.Checks() as checks) if applied:
            # A schema applied as written is exported as written; its $refs point where the spec's do, which the
            # exported document keeps (tests/test_json_schema_suite.py, the examples stage).
            written: dict[str, Any] | bool = json.loads(checks.written)
            return written if isinstance(written, dict) else {} if written else {"not": {}}
        case ir.AnyType():
            return {}
        case ir.ListType():
            out = {"type": "array", "items": type_schema(t.item, applied)}
            out.update({k: v for k, v in (("minItems", t.min_items), ("maxItems", t.max_items)) if v is not None})
            if t.unique_items:
                out["uniqueItems"] = True
            return out
        case ir.TupleType():
            n = len(t.items)
            return {
                "type": "array",
                "prefixItems": [type_schema(i, applied) for i in t.items],
                "items": False,
                "minItems": n,
                "maxItems": n,
            }
        case ir.MapType():
            return {"type": "object", "additionalProperties": type_schema(t.value, applied)}
        case ir.NullableType():
            inner = type_schema(t.inner, applied)
            if not set(inner) - {"type"} <= _IGNORE_NULL:  # an enum, a const, an applicator: it could refuse null
                return {"anyOf": [inner, {"type": "null"}]}
            if isinstance(inner.get("type"), str):
                return {**inner, "type": [inner["type"], "null"]}
            if isinstance(inner.get("type"), list):
                return {**inner, "type": [*inner["type"], "null"]}
            return {"anyOf": [inner, {"type": "null"}]}
        case ir.UnionType(keyword="type") if applied:
            # A list of types, as written; an integer variant's 64-bit range beside it (it bounds numbers only). (For
            # the pydantic target, a oneOf of each, which it types as its other unions by JSON type.)
            out = {"type": list(t.json_kinds)}
            for v in t.variants:
                out.update({k: x for k, x in type_schema(v, applied).items() if k != "type"})
            return out
        case ir.UnionType():
            out = {"oneOf" if t.keyword == "type" else t.keyword: [type_schema(v, applied) for v in t.variants]}
            if t.open and t.discriminator is not None:
                out["oneOf" if t.keyword == "type" else t.keyword].append(unknown_variant(t.discriminator, t.tags, applied))
                return out  # (OpenAPI's discriminator maps every tag to a variant: an open union's does not)
            # (An inferred tag is the spec's own consts: the export keeps the union as written, but for datamodel-code-
            # generator, which reads the annotation to make a discriminated union.)
            if t.discriminator is not None and not (t.inferred and applied):
                # OpenAPI's annotation, read by datamodel-code-generator; 2020-12 validators ignore it.
                mapping = {tag: f"#/$defs/{v.name}" for tag, v in zip(t.tags, t.variants) if isinstance(v, ir.Ref)}
                out["discriminator"] = {"propertyName": t.discriminator, "mapping": mapping}
            return out
        case ir.Ref():
            return {"$ref": f"#/$defs/{t.name}"}
        case _:
            raise AssertionError(f"no export for the IR type {t.kind!r}")


def unknown_variant(tag: str, tags: tuple[str, ...], applied: bool = True) -> dict[str, Any]:
    """An open union's variant for what a later version adds: an object whose tag is a string no variant has. (For
    the pydantic target, which has no `not`, the same as a pattern Python's re reads: not one of the tags, whole.)"""
    other: dict[str, Any] = {"not": {"enum": list(tags)}}
    if not applied:
        other = {"pattern": "^(?!(?:" + "|".join(re.escape(t) for t in tags) + r")\Z)"}
    out = {"type": "object", "properties": {tag: {"type": "string", **other}}, "required": [tag]}
    # (additionalProperties true means what leaving it out does; datamodel-code-generator then keeps the properties.)
    return out if applied else {**out, "additionalProperties": True}


def annotated(schema: dict[str, Any], title: str = "", description: str = "") -> dict[str, Any]:
    """The schema with its title and description after its type (where the specs write them), where it has them."""
    notes = {k: v for k, v in (("title", title), ("description", description)) if v}
    head = {"type": schema["type"]} if "type" in schema else {}
    return {**head, **notes, **schema}


def kept(annotations: str) -> dict[str, Any]:
    """The annotations a property, a definition or a nested schema keeps as written (e.g. ir.Field.annotations)."""
    return json.loads(annotations) if annotations else {}


def field_schema(f: ir.Field, applied: bool = True) -> dict[str, Any]:
    out = {**annotated(type_schema(f.type, applied), description=f.description), **kept(f.annotations)}
    if f.has_default:
        out["default"] = f.default
    return out


def definition_schema(d: ir.Definition, fmt: ir.Format, with_rules: bool, applied: bool = True) -> dict[str, Any]:
    match d:
        case ir.Model():
            out: dict[str, Any] = {"type": "object", "properties": {f.wire_name: field_schema(f, applied) for f in d.fields}}
            required = [f.wire_name for f in d.fields if f.required]
            if required:
                out["required"] = required
            if d.closed:
                out["additionalProperties"] = False
            rules = [s for s in (rule_schema(r, d, fmt) for r in d.rules) if s is not None] if with_rules else []
            if rules:
                out["allOf"] = rules
            return {**annotated(out, d.title, d.description), **kept(d.annotations)}
        case ir.Enum() if d.open:
            # A value the enum lists, or any other string (which readers keep as an unknown value).
            values = {"anyOf": [{"enum": list(d.values)}, {"type": "string"}]}
            return {**annotated({"type": "string", **values}, d.title, d.description), **kept(d.annotations)}
        case ir.Enum():
            return {**annotated({"type": "string", "enum": list(d.values)}, d.title, d.description), **kept(d.annotations)}
        case ir.Alias():
            return {**annotated(type_schema(d.type, applied), d.title, d.description), **kept(d.annotations)}
        case _:
            raise AssertionError(f"no export for the definition kind {d.kind!r}")


def at_pointer(tokens: tuple[str, ...], leaf: dict[str, Any], shapes: list[str | None] | None = None) -> dict[str, Any]:
    """A schema that holds `leaf` at a JSON pointer inside the value, and requires it to exist. A token that is an
    index goes into an array, and into an object as a key ("0" finds {"0": ...} too); where the value's type says
    which it is (shapes, one per token: "array", "object" or None for either), only that form is written."""
    schema = leaf
    for i, token in reversed(list(enumerate(tokens))):
        n = ir.index_of(token)
        shape = shapes[i] if shapes is not None else None
        as_object = {"type": "object", "properties": {token: schema}, "required": [token]}
        if n is None or shape == "object":
            schema = as_object
            continue
        as_array = {"type": "array", "prefixItems": [True] * n + [schema], "minItems": n + 1}
        schema = as_array if shape == "array" else {**as_array, **as_object, "type": ["array", "object"]}
    return schema


def shapes_along(fmt: ir.Format, t: ir.TypeRef | None, tokens: tuple[str, ...]) -> list[str | None]:
    """What each token of a pointer goes into, by the types the value has on its way: "array", "object", or None
    where the type does not tell (a free-form value, a union, a type not known)."""
    shapes: list[str | None] = []
    for token in tokens:
        t = fmt.underlying(t) if t is not None else None
        if isinstance(t, (ir.ListType, ir.TupleType)):
            shapes.append("array")
            n = ir.index_of(token)
            t = t.item if isinstance(t, ir.ListType) else t.items[n] if n is not None and n < len(t.items) else None
        elif isinstance(t, ir.MapType) or isinstance(t, ir.Ref) and t.target == "model":
            shapes.append("object")
            model = fmt.definition(t.name) if isinstance(t, ir.Ref) else None
            fields = model.fields if isinstance(model, ir.Model) else ()
            t = t.value if isinstance(t, ir.MapType) else next((f.type for f in fields if f.wire_name == token), None)
        else:
            shapes.append(None)
            t = None
    return shapes


def present(field: str) -> dict[str, Any]:
    """Present and not null: what the generated code means by "has a value"."""
    return {"required": [field], "properties": {field: {"not": {"type": "null"}}}}


def rule_schema(rule: ir.Rule, model: ir.Model | None = None, fmt: ir.Format | None = None) -> dict[str, Any] | None:
    """The standard JSON Schema form of a rule, or None when it has none (model and fmt: where it stands, whose types
    tell what its pointers go into)."""
    if not rule.exportable:
        return None

    def at(field: str, tokens: tuple[str, ...], leaf: dict[str, Any], each: bool = False) -> dict[str, Any]:
        t = next((f.type for f in model.fields if f.wire_name == field), None) if model is not None else None
        if each:  # allowed_when's and contains' pointer goes into each item of a list
            t = held.item if fmt is not None and t is not None and isinstance(held := fmt.underlying(t), ir.ListType) else None
        return at_pointer(tokens, leaf, shapes_along(fmt, t, tokens) if fmt is not None else None)

    when = None
    if rule.when is not None:
        when = {
            "properties": {rule.when.field: at(rule.when.field, rule.when.pointer, {"const": rule.when.equals})},
            "required": [rule.when.field],
        }
    field = rule.fields[0] if rule.fields else ""
    if rule.kind == "required_when":
        return {"if": when, "then": present(field)}
    if rule.kind == "at_least_one_of":
        return {"anyOf": [present(f) for f in rule.fields]}
    if rule.kind == "allowed_when":
        each = {"if": at(field, rule.pointer, {}, True), "then": at(field, rule.pointer, {"enum": list(rule.allowed)}, True)}
        return {"if": when, "then": {"properties": {field: {"items": each}}}}
    if rule.kind == "contains":
        return {"properties": {field: {"contains": at(field, rule.pointer, {"const": rule.equals}, True)}}}
    raise AssertionError(f"no export for rule kind {rule.kind}")


def export(fmt: ir.Format, with_rules: bool = True, applied: bool = True, inline: bool = True) -> dict[str, Any]:
    """The format's standard JSON Schema, made from its IR alone, so every keyword has one source; with_rules=False
    leaves out the rules stated as allOf and applied=False the schemas applied as written (for a consumer that enforces
    them itself, such as the pydantic target). A model the spec writes inside another schema is written back there
    (for the pydantic target, or inline=False, it stays a $defs entry of its own: its class has chatspec's name, and a
    check of one field's default finds its schema there)."""
    defs = {d.name: definition_schema(d, fmt, with_rules, applied) for d in fmt.definitions}
    if applied and inline:
        written_inline = {m.name for m in fmt.models if m.inline}
        defs = {name: _inlined(schema, defs, written_inline) for name, schema in defs.items() if name not in written_inline}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": fmt.title,
        "description": fmt.description,
        "$ref": f"#/$defs/{fmt.root}",
        "$defs": defs,
        "$comment": f"{fmt.id} {fmt.version}. {header(fmt.source)}",
    }


def schema_text(schema: dict[str, Any]) -> str:
    """The bytes of an exported schema file (the JSON Schema target writes them, the docs offer them for download);
    a character that hides or reorders text is written as its JSON escape, the same value."""
    return invisible.shown(json.dumps(schema, indent=2, ensure_ascii=False), invisible.json_escape) + "\n"


def _inlined(schema: Any, defs: dict[str, Any], inline: set[str]) -> Any:
    """The schema with each $ref to a model the spec writes inline replaced by that model's schema, where it stands (the
    keywords beside the $ref, e.g. a property's description, kept over the model's)."""
    if isinstance(schema, list):
        return [_inlined(s, defs, inline) for s in schema]
    if not isinstance(schema, dict):
        return schema
    branches = schema.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and branches[1] == {"type": "null"} and _is_inline(branches[0], inline):
        # A model written inline that may be null: as the spec writes it, ["object", "null"] (a $ref into it resolves).
        beside = {k: v for k, v in schema.items() if k != "anyOf"}
        return {**_inlined(branches[0], defs, inline), "type": ["object", "null"], **beside}
    if _is_inline(schema, inline):
        beside = {k: v for k, v in schema.items() if k != "$ref"}
        return {**_inlined(defs[schema["$ref"][len("#/$defs/") :]], defs, inline), **beside}
    return {k: v if k in ("enum", "const", "default", "examples") else _inlined(v, defs, inline) for k, v in schema.items()}


def _is_inline(schema: Any, inline: set[str]) -> bool:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    return isinstance(ref, str) and ref.startswith("#/$defs/") and ref[len("#/$defs/") :] in inline


def _values(t: ir.NumericType | ir.BooleanType) -> dict[str, Any]:
    """A number's or a boolean's const and enum, as written."""
    out: dict[str, Any] = {} if t.const is None else {"const": t.const}
    if t.enum is not None:
        out["enum"] = list(t.enum)
    return out

"""The exported JSON Schema as make bench's hand-written peers read it (tests/bench_typia.py, tests/bench_msgspec.py):
each writes a schema as its own types, so both must refuse what they do not write, in the same way.

The keywords a peer writes are those the exported schemas use for types and values. The rules are compiled into
the exported schema as `allOf` (if/then, contains, not), which neither peer's types can state: `allOf` is skipped
here, and each peer's rules are written by hand beside it. Any other keyword is refused (Unsupported), so a schema
that gains one fails the bench instead of giving a peer less to check.
"""

from __future__ import annotations

from typing import Any

INT64 = (-(2**63), 2**63 - 1)

# Keywords that say nothing a value is checked against (the discriminator names what the variants' consts say).
IGNORED = {"description", "title", "$comment", "default", "examples", "contentEncoding", "discriminator", "allOf"}

KEYWORDS = {
    "string": {"type", "minLength", "maxLength", "pattern", "format", "const", "enum"},
    "integer": {"type", "minimum", "maximum", "const", "enum"},
    "number": {"type", "minimum", "maximum", "const", "enum"},
    "boolean": {"type", "const"},
    "null": {"type"},
    "array": {"type", "items", "prefixItems", "minItems", "maxItems", "uniqueItems"},
    "object": {"type", "properties", "required", "additionalProperties"},
}


class Unsupported(Exception):
    """A schema keyword a peer does not write as its types."""


def shape(schema: Any) -> tuple[str, Any]:
    """What one schema is: ("any", None); ("ref", a $defs name); ("union", its oneOf or anyOf members: both peers'
    unions take a value that fits any member, as oneOf only where no value fits two, which every such union in the
    exported schemas holds: a string or an array, or variants told apart by a const tag); or ("kinds", [(kind, the
    schema's keywords for that kind)]), each keyword applying to values of its own kind ("items" on ["array",
    "null"] to the array)."""
    if schema is True or schema == {}:
        return "any", None
    if not isinstance(schema, dict):
        raise Unsupported(f"the schema {schema!r}")
    schema = {k: v for k, v in schema.items() if k not in IGNORED}
    if "$ref" in schema:
        if len(schema) > 1 or not str(schema["$ref"]).startswith("#/$defs/"):
            raise Unsupported(f"$ref {schema['$ref']} beside {sorted(set(schema) - {'$ref'})}")
        return "ref", str(schema["$ref"]).removeprefix("#/$defs/")
    for union in ("oneOf", "anyOf"):
        if union in schema:
            if len(schema) > 1:
                raise Unsupported(f"{union} beside {sorted(set(schema) - {union})}")
            return "union", list(schema[union])
    kinds = schema.get("type")
    if kinds is None:
        raise Unsupported(f"a schema without a type: {sorted(schema)}")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    extra = set(schema).difference(*(KEYWORDS[kind] for kind in kinds))
    if extra:
        raise Unsupported(f"{sorted(extra)} on a {' or '.join(kinds)}")
    return "kinds", [(kind, {k: v for k, v in schema.items() if k in KEYWORDS[kind]}) for kind in kinds]


def properties(schema: dict[str, Any]) -> tuple[dict[str, Any], set[str], bool]:
    """An object schema's properties, its required names and whether it is closed (additionalProperties false)."""
    rest = schema.get("additionalProperties", True)
    if rest not in (True, False):
        raise Unsupported("additionalProperties beside properties")
    required = set(schema.get("required", ()))
    if required - set(schema["properties"]):
        raise Unsupported(f"required names without a property schema: {sorted(required - set(schema['properties']))}")
    return dict(schema["properties"]), required, rest is False


def closed_tuple(schema: dict[str, Any]) -> list[Any]:
    """A prefixItems array's item schemas, where it is a tuple of fixed length (items false, minItems its length)."""
    if schema.get("items") is not False or schema.get("minItems") != len(schema["prefixItems"]):
        raise Unsupported("prefixItems other than a closed tuple of fixed length")
    return list(schema["prefixItems"])

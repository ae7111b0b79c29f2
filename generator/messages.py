"""Default error messages, by check keyword. A spec overrides any of them with x-messages.

They are resolved into the IR, so every target reports the same text. {limit}
and {allowed} are filled in at generation time; {index}, {field} and {value}
are left for the generated code to fill in, in one pass, so "{{" is how a
template writes a literal "{" (constants filled in here are escaped that way
where needed: an enum value "{value}" is shown as it is, never expanded).
"""

from __future__ import annotations

import re

from generator import invisible

TYPE_MESSAGES = {
    "string": "must be a string",
    "integer": "must be an integer",
    "number": "must be a number",
    "boolean": "must be a boolean",
    "object": "must be an object",
    "array": "must be an array",
    "any": "must be a JSON value",
}

DEFAULTS = {
    "required": "missing required field '{field}'",
    "additionalProperties": "unknown field '{field}'",
    "minLength": "must be at least {limit} character(s) long",
    "maxLength": "must be at most {limit} character(s) long",
    "pattern": "must match the pattern {limit}",
    "format": "must be an RFC 3339 date-time, e.g. 2024-01-15T10:30:00Z",
    "contentEncoding": "must be base64 text (standard alphabet, padded)",
    "enum": "must be one of: {allowed}",
    "const": 'must be "{limit}"',
    "int64": "must be an integer from -9223372036854775808 to 9223372036854775807",
    "minimum": "must be >= {limit}",
    "maximum": "must be <= {limit}",
    "exclusiveMinimum": "must be > {limit}",
    "exclusiveMaximum": "must be < {limit}",
    "multipleOf": "must be a multiple of {limit}",
    "minItems": "must have at least {limit} item(s)",
    "maxItems": "must have at most {limit} item(s)",
    "uniqueItems": "must not contain duplicate items",
    "prefixItems": "must be an array of exactly {limit} items",
    "oneOf": "must be {allowed}",
    "discriminator": "missing required field '{field}'",
    "discriminatorValue": "field '{field}' must be one of: {allowed}",
    # The keywords of a schema applied as written (generator/checks.py).
    "items": "must have at most {limit} item(s)",
    "minContains": "must contain at least {limit} matching item(s)",
    "maxContains": "must contain at most {limit} matching item(s)",
    "minProperties": "must have at least {limit} field(s)",
    "maxProperties": "must have at most {limit} field(s)",
    "propertyNames": "field name '{field}' is not allowed",
    "dependentRequired": "missing field '{field}', required when '{allowed}' is present",
    "anyOf": "must match at least one schema of anyOf",
    "not": "must not match the schema of not",
    "false": "no value is allowed here",
}

# Where a keyword of a schema applied as written says something else than the same keyword of a typed
# schema: oneOf of any schemas, where a typed oneOf is told apart by JSON type or a tag.
APPLIED_DEFAULTS = {
    "oneOf": "must match exactly one schema of oneOf",
}


def number_literal(value: int | float) -> str:
    """A number as text, the same in every target's code (a default) and in every message (a limit):
    1.0 -> "1", -0.0 -> "0", 0.5 -> "0.5", 1e300 -> "1e+300"."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def show_control_characters(text: str) -> str:
    """Text with its control characters (but newline and tab) shown as \\xNN, and the characters that
    hide or reorder text (generator/invisible.py) as \\u202e, for comments and docstrings: an escape
    in a Python docstring, visible text in a Go comment."""
    return invisible.shown(_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text))


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def resolve(keyword: str, overrides: dict[str, str], limit: object = None, allowed: list[str] | None = None) -> str:
    """The final template for one check: the spec's override or the default, with constants filled in."""
    return resolve_with(keyword, overrides, DEFAULTS[keyword], limit, allowed)


def resolve_with(keyword: str, overrides: dict[str, str], default: str, limit: object = None, allowed: list[str] | None = None) -> str:
    """resolve() with another default than the keyword's usual one."""
    template = overrides.get(keyword, default)
    if limit is not None:
        shown = number_literal(limit) if isinstance(limit, (int, float)) and not isinstance(limit, bool) else str(limit)
        template = template.replace("{limit}", literal(shown))
    if allowed is not None:
        template = template.replace("{allowed}", literal(", ".join(allowed)))
    return template


_EXPANDABLE = re.compile(r"\{(?=\{|(?:index|field|value)\})")


def literal(text: str) -> str:
    """Text put into a message template as it is: a "{" the generated code would
    read as a placeholder (or as "{{") becomes "{{", which it shows as "{"."""
    return _EXPANDABLE.sub("{{", text)


def type_message(kind: str, overrides: dict[str, str]) -> str:
    return overrides.get("type", TYPE_MESSAGES[kind])

"""How Go spells what the spec names, and the names the generated Go defines itself: the naming
policy (target.py) and the package builder (package.py) both read them."""

from __future__ import annotations

import re

from generator import ir
from generator.naming import GO_KEYWORDS, GO_PREDECLARED, InlineTypes, go_name

# Methods every generated type has: a field or variant taking the name gets "Field" appended.
METHOD_NAMES = frozenset({"Validate", "MarshalJSON", "UnmarshalJSON"})
# The struct field an open model keeps the properties its fields do not name in: a spec field gets "Field" too.
FIELD_NAMES = METHOD_NAMES | {"AdditionalProperties"}
# Package-level type names the templates define; a definition may not take them.
PACKAGE_NAMES = frozenset({"FormatID", "Version", "ValidationError", "ErrorDetail"})


def field_name(name: str) -> str:
    """The exported Go field of a spec field or tuple item, e.g. "session_id" -> "SessionID", "validate" -> "ValidateField"."""
    spelled = go_name(name)
    return spelled + "Field" if spelled in FIELD_NAMES else spelled


# The Go field of a union variant told apart by its JSON kind.
KIND_FIELDS = {"string": "String", "array": "Array", "object": "Object", "integer": "Integer", "number": "Number", "boolean": "Boolean"}


def variant_field(variant: ir.TypeRef, selector: str) -> str:
    """The union's Go field for a variant: the definition it refers to, else its JSON kind or tag, e.g. "String"."""
    return variant.name if isinstance(variant, ir.Ref) else KIND_FIELDS.get(selector, go_name(selector))


# A union or tuple written inline gets a Go type named after where it sits, e.g. ChatMessageContent, DocTagsItem.
INLINE_TYPES = InlineTypes(
    item=lambda name: name + "Item",
    value=lambda name: name + "Value",
    variant=variant_field,
    tuple_item=field_name,
    reserved_variants=METHOD_NAMES,
    unknown_variant="Unknown",
)


# What a constructor's parameter may not be called: Go's keywords and predeclared names, the packages the
# generated files refer to, and the constructor's own local.
_TAKEN_BY_GO = GO_KEYWORDS | GO_PREDECLARED | {"rt", "json", "fmt", "time", "math", "out"}


def param_name(field: str) -> str:
    """A constructor's parameter for a Go field: the field with its leading word or initialism in lower case,
    e.g. "InputID" -> "inputID", "URL" -> "url", "HTTPServer" -> "httpServer"; "Type" -> "typeValue"."""
    run = re.match(r"[A-Z]*", field)
    n = len(run.group()) if run else 0
    if 1 < n < len(field) and field[n].islower():
        n -= 1  # "HTTPServer": the last capital starts the next word
    name = field[:n].lower() + field[n:] if n else field
    return name + "Value" if name in _TAKEN_BY_GO else name

"""The intermediate representation: frozen dataclasses that know nothing of any target.

Every spec lowers to one Format. Targets read it and build their own views;
the golden tests snapshot it as ir.json so an IR change shows once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Union, overload

from generator.errors import pointer_of

Messages = dict[str, str]  # check keyword -> final message template, e.g. {"minLength": "must not be empty"}


@dataclass(frozen=True)
class StringType:
    """Text in code and on the wire (date-times and base64 bytes are DateTimeType and BytesType)."""

    messages: Messages
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None  # e.g. "\\S"
    const: str | None = None  # e.g. "chat"
    enum: tuple[str, ...] | None = None  # an inline closed set, e.g. ("url", "base64")
    known_values: tuple[str, ...] = ()  # an open set's documented values, e.g. ("markdown", "raw")
    format: str | None = None  # as written, e.g. "uri"; checked where string_formats asserts it, else an annotation
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "string"

    @property
    def checked_format(self) -> str | None:
        """The format every target checks (one chatspec asserts), e.g. "uuid"; None for none or an annotation."""
        return self.format if self.format is not None and "format" in self.messages else None


@dataclass(frozen=True)
class DateTimeType:
    """An RFC 3339 date-time string on the wire ("format": "date-time"), a time value in code."""

    messages: Messages  # "type" and "format"
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "date-time"


@dataclass(frozen=True)
class BytesType:
    """A padded base64 string on the wire ("contentEncoding": "base64"), bytes in code."""

    messages: Messages  # "type" and "contentEncoding"
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "bytes"


@dataclass(frozen=True)
class NumericType:
    messages: Messages
    integer: bool  # True for "integer", False for "number"
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    multiple_of: int | None = None  # integers only, 1 to 2^53-1, e.g. 5: the value % 5 == 0
    # A const and an enum of numbers (each below 2^53 in size, where every target compares them exactly), e.g.
    # -32700, (1, 2, 3); checked before the bounds, each reported under its own keyword.
    const: int | float | None = None
    enum: tuple[int | float, ...] | None = None
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "numeric"


@dataclass(frozen=True)
class BooleanType:
    messages: Messages
    const: bool | None = None  # e.g. true: the one value accepted
    enum: tuple[bool, ...] | None = None  # as written, e.g. (True,)
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "boolean"


@overload
def allowed_values(t: StringType) -> tuple[str, ...] | None: ...


@overload
def allowed_values(t: NumericType | BooleanType) -> tuple[int | float | bool, ...] | None: ...


def allowed_values(t: StringType | NumericType | BooleanType) -> tuple[Any, ...] | None:
    """The values a type's const and enum leave, in the enum's order (None: no const, no enum), for a check that
    needs only to know whether a value passes both: (), when the const is no value of the enum."""
    if t.const is None:
        return t.enum
    return (t.const,) if t.enum is None or t.const in t.enum else ()


@dataclass(frozen=True)
class Checks:
    """A schema applied as written, compiled (generator/checks.py): JSON text every runtime applies the same way."""

    text: str  # {"root": node, "refs": {pointer: node}}, ASCII only
    patterns: tuple[str, ...] = ()  # the patterns its nodes use by index, as the spec writes them
    pointer: str = ""  # where the schema is in the spec, e.g. "/$defs/Value"
    written: str = "true"  # the schema as the spec writes it (JSON text, chatspec's own x- keywords left out), for the export

    @property
    def digest(self) -> str:
        """A short name for it, the same in every target: what it checks and where from."""
        import hashlib

        return hashlib.sha256(json.dumps([self.text, self.patterns, self.pointer]).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class AnyType:
    """Any JSON value, e.g. the values of a free-form metadata map; with checks, those of a schema applied as written."""

    messages: Messages
    checks: Checks | None = None
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "any"


@dataclass(frozen=True)
class ListType:
    item: TypeRef
    messages: Messages
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "list"


@dataclass(frozen=True)
class TupleType:
    """A fixed-length array with a type per position, e.g. ["text", "hello"]."""

    items: tuple[TypeRef, ...]
    messages: Messages
    names: tuple[str, ...] = ()  # a name per position where the spec gives one (x-name), e.g. ("kind", "text")
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "tuple"


@dataclass(frozen=True)
class MapType:
    """An object with string keys and values of one type, e.g. metadata."""

    value: TypeRef
    messages: Messages
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "map"


@dataclass(frozen=True)
class NullableType:
    inner: TypeRef
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "nullable"


@dataclass(frozen=True)
class UnionType:
    """Variants told apart by JSON kind (string vs array), or by a discriminator property."""

    variants: tuple[TypeRef, ...]
    messages: Messages
    discriminator: str | None = None  # e.g. "type"
    tags: tuple[str, ...] = ()  # the discriminator value of each variant, e.g. ("text", "image")
    json_kinds: tuple[str, ...] = ()  # the JSON kind of each variant when not discriminated
    keyword: str = "oneOf"  # as the spec writes it: "oneOf", "anyOf" (a union of tagged models means the same) or "type" (a list)
    inferred: bool = False  # the discriminator is no x-discriminator, but the const every variant's model requires
    open: bool = False  # x-open: an object whose tag is a string no variant has is kept as an unknown variant
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "union"


@dataclass(frozen=True)
class Ref:
    """A reference to a named definition, e.g. Ref("ChatMessage", "model")."""

    name: str
    target: str  # "model" | "enum" | "alias"
    annotations: str = ""  # as a nested schema (items, map value, variant, ...): its annotations as written, JSON text, or ""
    kind: str = "ref"


TypeRef = Union[
    StringType, DateTimeType, BytesType, NumericType, BooleanType, AnyType, ListType, TupleType, MapType, NullableType, UnionType, Ref
]


@dataclass(frozen=True)
class Field:
    name: str  # the identifier base, e.g. "content_type" (targets derive their spelling)
    wire_name: str  # the JSON key, e.g. "content-type"
    type: TypeRef
    required: bool
    description: str
    required_message: str  # e.g. "document ID is required"
    has_default: bool = False
    default: Any = None  # a JSON value, e.g. "markdown" or {}
    default_factory: str | None = None  # e.g. "uuid4"
    null_ok: bool = False  # JSON null is a value of its type (e.g. {} or ["string", "null"]): present, not missing
    annotations: str = ""  # the annotations kept as written (title, examples, deprecated, ..., vendor x- keys): JSON text, or ""

    @property
    def constant(self) -> str | None:
        """The one value of a required string field with a const (a tag, e.g. "type": "text"), which every target's
        constructor gives it; None for any other field."""
        if self.required and isinstance(self.type, StringType) and self.type.const is not None:
            return self.type.const
        return None


@dataclass(frozen=True)
class WhenClause:
    field: str  # wire name, e.g. "source"
    pointer: tuple[str, ...]  # tokens into that field's value, e.g. ("0",)
    equals: str


@dataclass(frozen=True)
class Rule:
    """A check JSON Schema cannot state (or not with its own message), e.g. user in people."""

    kind: str  # "member_of" | "required_when" | "at_least_one_of" | "allowed_when" | "contains" | "compare"
    message: str
    after: str | None  # wire name of the field it runs right after; None = after all fields
    fields: tuple[str, ...]  # wire names it reads, e.g. ("user",) or ("url", "content"); compare: (field, other)
    up: int = 0  # member_of: levels up for the relative pointer "2/people" -> 2
    pointer: tuple[str, ...] = ()  # member_of: ("people",); allowed_when/contains: "each" tokens
    when: WhenClause | None = None
    allowed: tuple[str, ...] = ()
    equals: str | None = None
    op: str | None = None  # compare: how fields[0] must stand to fields[1], e.g. ">="
    operands: tuple[str, ...] = ()  # compare: what each field compares as, e.g. ("integer", "number"); "string", "date-time"
    exportable: bool = True  # False when standard JSON Schema cannot state it


@dataclass(frozen=True)
class Model:
    name: str  # e.g. "ConversationDocument"
    description: str
    fields: tuple[Field, ...]
    closed: bool  # additionalProperties: false
    rules: tuple[Rule, ...]
    type_message: str  # e.g. "must be an object"
    unknown_message: str  # e.g. "unknown field '{field}'"
    title: str = ""  # the $defs entry's title, e.g. "Droidlet Chat" (exported JSON Schema)
    annotations: str = ""  # the other annotations kept as written (examples, deprecated, ..., vendor x- keys): JSON text, or ""
    inline: str = ""  # where the spec writes it inside another schema (lower hoists it), e.g. "/$defs/Chat/properties/meta"
    kind: str = "model"

    @property
    def place(self) -> str:
        """Where the spec writes it: inside another schema (inline), or its $defs entry."""
        return self.inline or pointer_of("$defs", self.name)


@dataclass(frozen=True)
class Enum:
    name: str  # e.g. "Role"
    description: str
    values: tuple[str, ...]
    messages: Messages  # "type" and "enum"
    value_descriptions: dict[str, str] = field(default_factory=dict)
    open: bool = False  # x-open: any other string is kept as an unknown value
    title: str = ""  # the $defs entry's title, e.g. "Droidlet Chat" (exported JSON Schema)
    annotations: str = ""  # the other annotations kept as written (examples, deprecated, ..., vendor x- keys): JSON text, or ""
    kind: str = "enum"


@dataclass(frozen=True)
class Alias:
    """A named type that is not a model or enum, e.g. a union or a tuple."""

    name: str  # e.g. "Content"
    description: str
    type: TypeRef
    title: str = ""  # the $defs entry's title, e.g. "Droidlet Chat" (exported JSON Schema)
    annotations: str = ""  # the other annotations kept as written (examples, deprecated, ..., vendor x- keys): JSON text, or ""
    kind: str = "alias"


Definition = Union[Model, Enum, Alias]


@dataclass(frozen=True)
class InvalidExample:
    name: str
    description: str
    data: Any
    errors: tuple[dict[str, str], ...]  # [{"path": ..., "message": ...}]


@dataclass(frozen=True)
class KnownValues:
    """The documented values of an open string field (x-known-values), e.g. ("ChatEvent", "role", ("user", "assistant"))."""

    model: str  # e.g. "ChatEvent"
    field: str  # the Field's name, e.g. "role"
    values: tuple[str, ...]


@dataclass(frozen=True)
class Format:
    id: str  # e.g. "structured_conversation"
    version: str  # e.g. "1.0.0"
    title: str
    description: str
    decisions: tuple[str, ...]
    root: str  # the root model, e.g. "ConversationDocument"
    definitions: tuple[Definition, ...]  # in spec order
    source: str  # e.g. "specs/structured_conversation/spec.json"
    valid_examples: tuple[tuple[str, Any], ...] = ()
    invalid_examples: tuple[InvalidExample, ...] = ()
    known_values: tuple[KnownValues, ...] = ()  # every model field with x-known-values, in definition order
    upstream: tuple[tuple[str, str], ...] = ()  # x-source as written, e.g. (("file", "openapi.yaml"), ("pointer", "#/..."))
    compatibility: str = "none"  # x-compatibility: what each new version promises, e.g. "backward" or "full_transitive"

    def definition(self, name: str) -> Definition:
        return next(d for d in self.definitions if d.name == name)

    @property
    def models(self) -> tuple[Model, ...]:
        return tuple(d for d in self.definitions if isinstance(d, Model))

    def built_default(self, t: TypeRef, value: Any) -> bool:
        """Whether a default's JSON value is built by the field's parser (see plain_json): it is, or holds, what
        is not plain JSON. An empty array or object of a list or a map holds nothing and is kept as it is; {} of a
        model is a model object, its own defaults set."""
        if self.plain_json(t):
            return False
        t = self.underlying(t)
        return not (value in ([], {}) and isinstance(t, (ListType, MapType)))

    def underlying(self, t: TypeRef) -> TypeRef:
        """What a value of t is when it is not null: the type its aliases stand for, null unwrapped on the way."""
        while isinstance(t, NullableType) or (isinstance(t, Ref) and t.target == "alias"):
            if isinstance(t, NullableType):
                t = t.inner
            else:
                alias = self.definition(t.name)
                assert isinstance(alias, Alias)
                t = alias.type
        return t

    def plain_json(self, t: TypeRef) -> bool:
        """Whether every value of t is plain JSON: no object of a model, no tuple, date-time or bytes anywhere in it.
        A default of such a type may be its JSON value as it is; any other default is built by the field's parser
        (a list of models is a list of objects of a class, not of dicts)."""
        match t:
            case ListType():
                return self.plain_json(t.item)
            case MapType():
                return self.plain_json(t.value)
            case NullableType():
                return self.plain_json(t.inner)
            case UnionType():
                return all(self.plain_json(v) for v in t.variants)
            case Ref(target="alias"):
                alias = self.definition(t.name)
                return isinstance(alias, Alias) and self.plain_json(alias.type)
            case Ref(target="model") | TupleType() | DateTimeType() | BytesType():
                return False
            case _:
                return True


def ref_to(d: Definition) -> Ref:
    """A reference to a definition, e.g. Ref("Role", "enum")."""
    return Ref(d.name, "model" if isinstance(d, Model) else "enum" if isinstance(d, Enum) else "alias")


def index_of(token: str) -> int | None:
    """A JSON pointer token as an array index, as every runtime reads one: ASCII digits ("01" is 1), where str.isdigit
    also takes "²", which int() refuses; None for any other token, and for one no list is long enough for (int()
    refuses more than 4,300 digits)."""
    digits = token.lstrip("0")
    return int(digits or "0") if token.isascii() and token.isdigit() and len(digits) <= 18 else None


def unwrap_nullable(t: TypeRef) -> TypeRef:
    """The type under a NullableType, e.g. StringType for "string or null"; any other type as it is."""
    return t.inner if isinstance(t, NullableType) else t


def children(t: TypeRef) -> tuple[TypeRef, ...]:
    """The types a type holds: a list's item, a map's value, a nullable's inner type, a tuple's items, a union's variants."""
    if isinstance(t, ListType):
        return (t.item,)
    if isinstance(t, MapType):
        return (t.value,)
    if isinstance(t, NullableType):
        return (t.inner,)
    if isinstance(t, TupleType):
        return t.items
    if isinstance(t, UnionType):
        return t.variants
    return ()


def types_of(d: Definition) -> list[TypeRef]:
    """The types a definition holds: a model's fields', an alias's own (an enum holds none)."""
    return [f.type for f in d.fields] if isinstance(d, Model) else [d.type] if isinstance(d, Alias) else []


def checks_of(fmt: Format) -> list[Checks]:
    """Every schema of the format applied as written, once each, in spec order."""
    found: dict[str, Checks] = {}
    stack: list[TypeRef] = []
    for d in fmt.definitions:
        stack.extend(reversed(types_of(d)))
        while stack:
            t = stack.pop()
            if isinstance(t, AnyType) and t.checks is not None:
                found.setdefault(t.checks.digest, t.checks)
            stack.extend(reversed(children(t)))
    return list(found.values())


def refs(t: TypeRef) -> list[str]:
    """Names of the definitions a type refers to, in order, e.g. ["ContentBlock"] for Content."""
    if isinstance(t, Ref):
        return [t.name]
    return [n for inner in children(t) for n in refs(inner)]


def open_enums(fmt: Format) -> frozenset[str]:
    """The names of the format's open enums (x-open), whose values may be unknown ones."""
    return frozenset(d.name for d in fmt.definitions if isinstance(d, Enum) and d.open)

"""The views the Go templates render: data only, no Go source text but names and types.

A view holds what one construct needs (a struct, a parse step, a parser expression);
templates/go/ spells it. Every view that templates dispatch on has a `kind`, and the
builders (types, parsers, encoders, rules, definitions) make only the kinds listed here.
Text from the spec (messages, wire names, values) stays raw: templates quote it with gostr.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Union


class Kinded:
    """A view with a kind the templates dispatch on; a kind outside KINDS is refused when the view is made."""

    KINDS: ClassVar[frozenset[str]]
    kind: str

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise AssertionError(f"{type(self).__name__} has no kind {self.kind!r}; the templates handle {sorted(self.KINDS)}")


@dataclass(frozen=True)
class GoType:
    """A Go type as written in source, and the standard packages that spelling needs, e.g. "[]time.Time" needs "time"."""

    spelling: str
    packages: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return self.spelling


# --- parser expressions: values of type rt.Parser[T] (templates/go/parser_expr.go.j2) ---------------


@dataclass(frozen=True)
class ScalarParser(Kinded):
    """A parser with messages and nothing else: rt.DateTime (RFC 3339 text, read into time.Time), rt.Base64
    (padded base64 text, read into []byte), rt.Bool, rt.AnyJSON (any JSON value)."""

    kind: str  # "date_time" | "bytes" | "bool" | "any"
    messages: Mapping[str, str]

    KINDS: ClassVar[frozenset[str]] = frozenset({"date_time", "bytes", "bool", "any"})


@dataclass(frozen=True)
class ChecksVar:
    """A schema applied as written (generator/checks.py), compiled once: var checks<digest> = rt.NewChecks(text, patterns...)."""

    name: str  # e.g. "checks3f2a9c1b07de"
    text: str  # the checks, as JSON text
    patterns: tuple[str, ...]  # in Go's regexp syntax, by index


@dataclass(frozen=True)
class ChecksParser:
    """A schema applied as written: <its ChecksVar>.Parser(messages)."""

    var: str  # the ChecksVar's name
    messages: Mapping[str, str]
    kind: ClassVar[str] = "checks"


@dataclass(frozen=True)
class StringParser:
    """rt.String with the spec's length, pattern, enum and const checks."""

    messages: Mapping[str, str]
    min_length: int | None
    max_length: int | None
    pattern: str | None  # in Go's regexp syntax (generator.targets.go.regex.to_go)
    enum: tuple[str, ...] | None
    const: str | None
    format: str | None = None  # a format rt.FormatOK checks, e.g. "uri"
    kind: ClassVar[str] = "string"


@dataclass(frozen=True)
class NumberParser:
    """rt.Integer or rt.Number with the spec's bounds."""

    messages: Mapping[str, str]
    integer: bool
    minimum: float | None
    maximum: float | None
    exclusive_minimum: float | None
    exclusive_maximum: float | None
    multiple_of: int | None  # integers only, e.g. 5
    const: int | float | None = None
    enum: tuple[int | float, ...] | None = None
    kind: ClassVar[str] = "number"


@dataclass(frozen=True)
class BooleanParser:
    """rt.Boolean: a boolean with a const or an enum (without either, a ScalarParser "bool": rt.Bool)."""

    messages: Mapping[str, str]
    const: bool | None
    enum: tuple[bool, ...] | None
    kind: ClassVar[str] = "boolean"


@dataclass(frozen=True)
class EnumParser:
    """A named string type with a closed set of values, e.g. Role."""

    type: str
    messages: Mapping[str, str]
    values: tuple[str, ...]
    open: bool = False  # any other string is accepted too
    kind: ClassVar[str] = "enum"


@dataclass(frozen=True)
class ListParser:
    """rt.List[T]: an array whose items the item parser reads."""

    item_type: GoType  # T of []T
    item: Parser  # reads each item
    messages: Mapping[str, str]  # "type", "minItems", "maxItems", "uniqueItems"
    min_items: int | None
    max_items: int | None
    unique_items: bool
    kind: ClassVar[str] = "list"


@dataclass(frozen=True)
class MapParser:
    """rt.Map[T]: an object whose values the value parser reads."""

    value_type: GoType  # T of map[string]T
    value: Parser  # reads each value
    messages: Mapping[str, str]  # "type"
    kind: ClassVar[str] = "map"


@dataclass(frozen=True)
class NullableParser:
    """rt.OrNull[T] or rt.Nullable[T]: null, or what the inner parser reads."""

    inner_type: GoType
    inner: Parser
    or_null: bool  # the inner type's zero value is nil already (rt.OrNull), else stored as *T (rt.Nullable)
    kind: ClassVar[str] = "nullable"


@dataclass(frozen=True)
class NamedParser:
    """The parse function of a named type, e.g. parseChatMessage."""

    type: str
    kind: ClassVar[str] = "named"


Parser = Union[
    ScalarParser, ChecksParser, StringParser, NumberParser, BooleanParser, EnumParser, ListParser, MapParser, NullableParser, NamedParser
]


@dataclass(frozen=True)
class ParserVar:
    """A package variable holding a parser, set in init (so recursive types need no ordering)."""

    name: str  # e.g. "pChatMessage_Role"
    type: GoType  # T of rt.Parser[T]
    parser: Parser


# --- encoders: Go value -> tree value (templates/go/encode_expr.go.j2) ------------------------------


@dataclass(frozen=True)
class TreeFunc(Kinded):
    """A function value of type func(T) any (no func literals: gofmt may unfold them)."""

    kind: str  # "time" | "bytes" | "same" | "any" | "method" | "enum" | "helper"
    type: GoType | None = None  # T for "same", "method", "enum"
    helper: str = ""  # for "helper": the package function, e.g. "treeDocTagsItem"

    KINDS: ClassVar[frozenset[str]] = frozenset({"time", "bytes", "same", "any", "method", "enum", "helper"})


@dataclass(frozen=True)
class Encode(Kinded):
    """How a value becomes a tree value; the value itself is spelled by the template that uses it."""

    kind: str  # "same" | "time" | "bytes" | "any" | "list" | "map" | "ptr" | "enum" | "method"; "null_list" | "null_map" | "null_bytes" (nil is null)
    func: TreeFunc | None = None  # for "list", "map" (each element) and "ptr" (the pointee)

    KINDS: ClassVar[frozenset[str]] = frozenset(
        {"same", "time", "bytes", "any", "list", "map", "ptr", "enum", "method", "null_list", "null_map", "null_bytes"}
    )


@dataclass(frozen=True)
class TreeHelper:
    """A package function func treeX(x T) any, for a tree function no runtime function covers."""

    name: str
    type: GoType
    encode: Encode


# --- parse steps of a model (templates/go/parse_step.go.j2) ---------------------------------------


@dataclass(frozen=True)
class Default(Kinded):
    """A func() T giving a fresh default value of an optional field."""

    kind: str  # "uuid4" | "bool" | "number" | "string" | "json"
    value: Any = None  # the JSON value; for "json" its compact text

    KINDS: ClassVar[frozenset[str]] = frozenset({"uuid4", "bool", "number", "string", "json"})


@dataclass(frozen=True)
class FieldStep(Kinded):
    """out.<field>, ok = rt.<getter>[T](c, obj, wire, parser, ...)."""

    kind: str  # "required" | "required_or_null" | "default" | "optional" | "optional_ptr"
    field: str
    ok: str  # the ok variable rules read, or "_"
    type: GoType  # the getter's type argument
    wire: str
    parser: str  # a ParserVar's name or a parse function
    required_message: str = ""
    default: Default | None = None

    KINDS: ClassVar[frozenset[str]] = frozenset({"required", "required_or_null", "default", "optional", "optional_ptr"})


@dataclass(frozen=True)
class When:
    field: str
    pointer: tuple[str, ...]
    equals: str


@dataclass(frozen=True)
class Operand:
    """A side of a compare rule, as rt.Operand: the field, what it compares as, its default's JSON text ("" for none)."""

    field: str  # the wire name
    kind: str  # "integer" | "number" | "string" | "date-time"
    default: str  # e.g. "100"


@dataclass(frozen=True)
class RuleStep(Kinded):
    """A call of the rule's runtime check, with what it reads; `usable` are ok variables that must all be true."""

    kind: str  # a rule kind: "at_least_one_of" | "member_of" | "contains" | "required_when" | "allowed_when" | "compare"
    message: str
    fields: tuple[str, ...] = ()
    value: str = ""  # member_of: the Go expression of the value, e.g. out.User
    ok: str = ""  # member_of: its ok variable
    up: int = 0
    pointer: tuple[str, ...] = ()
    equals: str = ""
    when: When | None = None
    allowed: tuple[str, ...] = ()
    usable: tuple[str, ...] = ()
    op: str = ""  # compare: e.g. ">="
    operands: tuple[Operand, ...] = ()  # compare: its two sides

    KINDS: ClassVar[frozenset[str]] = frozenset({"at_least_one_of", "member_of", "contains", "required_when", "allowed_when", "compare"})


Step = Union[FieldStep, RuleStep]


# --- definitions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting(Kinded):
    """How a constructor (New<Model>) sets a field: to its parameter, or to the field's default."""

    kind: str  # "param" | "uuid4" | "value" | "ptr" | "json"
    field: str  # the Go field
    value: Any = None  # "param": the parameter; "value", "ptr": the JSON scalar; "json": the default's compact text
    type: GoType | None = None  # "ptr": the type pointed to
    parser: str = ""  # "json": the parser that builds the default

    KINDS: ClassVar[frozenset[str]] = frozenset({"param", "uuid4", "value", "ptr", "json"})


@dataclass(frozen=True)
class ConstructorView:
    """func New<Model>(<required fields>) <Model>: the required fields given, every default set."""

    name: str  # e.g. "NewChatInput"
    params: tuple[tuple[str, GoType], ...]  # (parameter, type), the required fields in spec order
    sets: tuple[Setting, ...]
    doc: tuple[str, ...]  # comment lines


@dataclass(frozen=True)
class FieldView:
    """A struct field, and how toTree writes it."""

    name: str  # e.g. "SessionID"
    type: GoType  # e.g. *bool
    tag: str  # e.g. `json:"completed,omitempty"`
    doc: tuple[str, ...]  # comment lines
    wire: str  # the JSON key
    presence: str  # when toTree writes it: "always" | "not_zero_time" | "not_nil"
    deref: bool  # stored as *T, so toTree reads (*m.<name>)
    encode: Encode
    nil_default: Setting | None = None  # a defaulted list or map whose default is not empty: nil is written as it


@dataclass(frozen=True)
class ModelView:
    """A model: its struct, and its parse function and toTree."""

    name: str
    doc: tuple[str, ...]
    fields: tuple[FieldView, ...]
    ok_vars: tuple[str, ...]  # parse locals rules read, e.g. "okUser"
    steps: tuple[Step, ...]  # the parse function's statements, rules after the field they follow
    closed: bool
    keys: tuple[str, ...]  # the wire names: a closed model refuses the others, an open one keeps them
    type_message: str
    unknown_message: str
    behaviour_fields: str  # fields the behaviour methods keep, or ""
    constructor: ConstructorView | None = None


@dataclass(frozen=True)
class ConstView:
    """A constant of an enum type."""

    name: str
    value: str
    doc: tuple[str, ...]


@dataclass(frozen=True)
class EnumView:
    """A named string type and its constants."""

    name: str
    doc: tuple[str, ...]
    consts: tuple[ConstView, ...]
    open: bool = False  # x-open: any other string is a value too (Known says which are listed)


@dataclass(frozen=True)
class VariantView:
    """A union variant: a field of the union struct, set when the JSON selects it."""

    field: str  # e.g. "TextBlock"
    type: GoType  # the field's Go type, e.g. *TextBlock
    doc: tuple[str, ...]
    match: tuple[str, ...]  # the kinds or tags that select it, e.g. ("integer", "number")
    parser: str  # a ParserVar's name or a parse function
    pointer: bool  # stored as *T
    encode: Encode


@dataclass(frozen=True)
class UnionView:
    """A union: a struct with one pointer (or nil-able) field per variant."""

    name: str  # e.g. "Content", or a field's inline union, e.g. "ChatMessageContent"
    doc: tuple[str, ...]
    variants: tuple[VariantView, ...]
    discriminator: str | None  # the tag key
    type_message: str
    missing_message: str
    value_message: str
    kind_message: str
    open: bool = False  # x-open: an object with a tag no variant has is kept in the Unknown field


@dataclass(frozen=True)
class TupleItemView:
    """An item of a tuple: a field of the tuple struct."""

    field: str  # e.g. "Kind", from the item's x-name or its index ("Item0")
    type: GoType
    doc: tuple[str, ...]
    parser: str  # a ParserVar's name or a parse function
    encode: Encode  # of t.<field>


@dataclass(frozen=True)
class TupleView:
    """A tuple: a struct with a field per item, written as a JSON array."""

    name: str
    doc: tuple[str, ...]
    items: tuple[TupleItemView, ...]
    type_message: str  # the value is not an array
    length_message: str  # it has another number of items


@dataclass(frozen=True)
class EntryView:
    """A definition's public Parse<Name> and Validate<Name> (entry.go.j2)."""

    name: str  # e.g. "ChatMessage"
    encode: Encode | None  # how Validate<Name> makes the tree its parser reads; None: a model (its Validate method)


@dataclass(frozen=True)
class AliasView:
    """A named type for any other type (type A = T) and its parse function."""

    name: str
    doc: tuple[str, ...]
    type: GoType  # e.g. []string
    parser: str  # a ParserVar's name or a parse function


@dataclass(frozen=True)
class KnownView:
    """A var listing an open string field's documented values."""

    name: str  # e.g. "ChatEventRoleValues"
    values: tuple[str, ...]  # in spec order
    doc: tuple[str, ...]


@dataclass(frozen=True)
class ConstantView:
    """A constant behaviour code reads, from the IR, e.g. ConversationDocumentMaxMessagesMaximum."""

    name: str
    facet: str  # e.g. "maximum", "default"
    model: str
    field: str  # the Go field
    value: str | bool | int | float


# --- fast checks: a typed walk that only says "valid" or "not sure" (templates/go/fast_check.go.j2) --------


@dataclass(frozen=True)
class FastCheck(Kinded):
    """How Validate's fast path checks a typed value without building a tree. "unsure" makes it give up, so the
    exact walk decides (and reports): every construct this walk does not decide must be "unsure", never "none"."""

    kind: (
        str  # "none" | "unsure" | "string" | "number" | "boolean" | "enum" | "date_time" | "list" | "map" | "nullable" | "model"
        # | "checks" | "any"
    )
    min_length: int | None = None
    max_length: int | None = None
    pattern: str = ""  # the package variable holding the compiled pattern, or ""
    format: str = ""  # a format rt.FormatOK checks, or ""
    values: tuple[str, ...] | None = None  # enum, string enum or const (one value); number, boolean: Go literals
    integer: bool = False
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    multiple_of: int | None = None  # integers only, e.g. 5
    min_items: int | None = None
    max_items: int | None = None
    unique: bool = False  # list: uniqueItems, on items Go's == compares as JSON Schema does (rt.Distinct)
    inner: FastCheck | None = None  # list item, map value, nullable inner
    pointer: bool = False  # nullable: stored as *T (else a nil slice or map means null)
    nil_ok: bool = False  # list or map: nil passes (toTree writes it empty, or null where null is a value); else not sure
    model: str = ""  # model: its type name; checks: the ChecksVar's name

    KINDS: ClassVar[frozenset[str]] = frozenset(
        {"none", "unsure", "string", "number", "boolean", "enum", "date_time", "list", "map", "nullable", "model", "checks", "any"}
    )


@dataclass(frozen=True)
class FastField:
    """A struct field on the fast path: when it is in the tree (presence as FieldView's) and its check."""

    name: str
    presence: str  # "always" | "not_zero_time" | "not_nil"
    deref: bool
    check: FastCheck
    present: str  # "true" | "nil" | "time": what makes the field present and not null, for at_least_one_of


@dataclass(frozen=True)
class FastText:
    """A string (or string enum) field that the tree holds as a JSON string: m.<name>, or *m.<name> when pointer (nil: absent)."""

    name: str
    pointer: bool
    index: int | None = None  # the when-field is a list of strings and the text is its item at this index
    enum: bool = False  # of an enum's named string type (Role): string(...) where a plain string is wanted


@dataclass(frozen=True)
class FastOperand:
    """A side of a compare rule on the fast path: m.<name>, or *m.<name> when pointer (nil: absent or null, nothing to compare)."""

    name: str
    pointer: bool
    kind: str  # "integer" | "number" | "string" | "date-time"
    enum: bool = False  # a string enumeration type, ordered as string(...)


@dataclass(frozen=True)
class FastRule(Kinded):
    """A rule decided on typed values; a rule that cannot be is not made (the model is then not sure).
    contains / allowed_when: list is the model's list field, item the text field of each item (a model);
    required_when: target must be present when the when text equals; member_of: value must be in the sibling list;
    compare: operands[0] must stand to operands[1] as op says."""

    kind: str  # "contains" | "allowed_when" | "required_when" | "member_of" | "items_member_of" | "compare"
    list: str = ""  # member_of: the pool; items_member_of: the list of items whose value must be in pool
    pool: str = ""  # items_member_of: the list field the items' values must be in
    item: FastText | None = None
    equals: str = ""
    allowed: tuple[str, ...] = ()
    when: FastText | None = None
    target: FastField | None = None
    value: FastText | None = None
    op: str = ""
    operands: tuple[FastOperand, ...] = ()

    KINDS: ClassVar[frozenset[str]] = frozenset({"contains", "allowed_when", "required_when", "member_of", "items_member_of", "compare"})


@dataclass(frozen=True)
class FastModel:
    """A model's fast check: its fields, then its rules; sure is False when a rule or field is not decided here."""

    name: str
    fields: tuple[FastField, ...]
    at_least_one_of: tuple[tuple[FastField, ...], ...]
    rules: tuple[FastRule, ...]
    sure: bool
    closed: bool  # an open model's additional properties are the exact walk's to judge


@dataclass(frozen=True)
class FastTuple:
    """A tuple's fast check: each item's check (toTree always writes every item, so the length holds)."""

    name: str
    items: tuple[tuple[str, FastCheck], ...]  # (Go field, check)
    sure: bool


@dataclass(frozen=True)
class FastUnion:
    """A union's fast check: the variant toTree writes (the first one set), checked as that variant. Every variant is
    told apart from the others by its JSON kind or by a tag its model holds as a constant, so the exact walk reads the
    tree as that variant too."""

    name: str
    variants: tuple[tuple[str, bool, FastCheck], ...]  # (Go field, stored as *T, check)
    sure: bool


@dataclass(frozen=True)
class FastPattern:
    """A package variable holding a compiled pattern the fast path matches."""

    name: str
    pattern: str


# --- direct readers: Parse<Format>FromJSON's first attempt, text straight into the structs (templates/go/direct_model.go.j2) ---


@dataclass(frozen=True)
class DirectValue(Kinded):
    """How a direct reader reads one value into a variable of Go type `type`; `inner` reads the item, map value,
    non-null value, or (convert) the underlying value of an enum or alias type."""

    kind: str
    type: str  # e.g. "[]Message", or the named type of a model, enum, alias, union or tuple
    inner: DirectValue | None = None
    cases: tuple[DirectCase, ...] = ()  # a tuple's items, or the variants of a union the reader reads
    discriminator: str = ""  # a union selected by a tag: its key
    scratch: str = ""  # a list: the rt.Scratch its items are read into (one per item type)

    KINDS: ClassVar[frozenset[str]] = frozenset(
        {
            "string",
            "int",
            "float",
            "bool",
            "time",
            "bytes",
            "any",
            "list",
            "map",
            "nullable",
            "nilable",
            "model",
            "convert",
            "tuple",
            "union",
        }
    )


@dataclass(frozen=True)
class DirectCase:
    """A tuple's item, or a union's variant: the Go field it goes in, and (a variant) the JSON kinds or tags
    that select it and whether the field holds a pointer to the value."""

    field: str
    value: DirectValue
    match: tuple[str, ...] = ()
    pointer: bool = False


@dataclass(frozen=True)
class DirectField:
    """A field as a direct reader reads it: the key's bit in the set of keys seen, and its value (None: left to
    the exact walk wherever the key appears)."""

    wire: str
    name: str  # the Go field
    bit: int
    value: DirectValue | None
    required: bool
    strict_null: bool  # a rule names it that may read a null otherwise than absence: a null is left to the exact walk
    strict_default: bool  # a rule names it: an absent default is left to the exact walk
    default: FieldStep | None  # the parse step that gives the default where it is absent
    pointer: bool  # stored as *T though its type is no pointer (optional, no default)


@dataclass(frozen=True)
class DirectModel:
    """A model's direct reader: decode<Model>(s *rt.Scanner, d int, out *<Model>) bool."""

    name: str
    fields: tuple[DirectField, ...]

    @property
    def required_mask(self) -> int:
        return sum(1 << f.bit for f in self.fields if f.required)

    @property
    def read(self) -> tuple[DirectField, ...]:
        """The fields the reader reads (any other key leaves the object to the exact walk)."""
        return tuple(f for f in self.fields if f.value is not None)

"""The views the Python templates render: data only, no statements or expressions.

Values are kept as the spec gives them (strings, numbers, tuples, IR nodes); the
templates spell them with the filters of generator.targets.python.literals, and the
only source text here is names and the type spellings of types.py. Every view the
templates dispatch on carries a `kind`, and the templates fail on a kind they have
no case for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Union

from generator import ir


@dataclass(frozen=True, order=True)
class Import:
    """One imported name, e.g. Import("typing", "Literal") for `from typing import Literal`."""

    module: str
    name: str


# --- parsers: the runtime combinators a value is parsed with (templates/python/parsers.py.j2) ---


@dataclass(frozen=True)
class Parser:
    """A runtime combinator call, e.g. _rt.list_of(<item>, messages, min_items=1): the IR node
    it parses (its limits and messages, as the IR holds them), the parsers of its parts, and
    what Python adds. The kind, checked exhaustively by parsers.parser, names the template case."""

    kind: Literal["scalar", "string", "enum", "number", "boolean", "list", "tuple", "map", "nullable", "union", "ref", "checks"]
    node: ir.TypeRef | ir.Enum | None  # None for a ref
    parts: tuple[Parser, ...] = ()  # the item, value, inner type, tuple items or union variants, in order
    name: str = ""  # scalar: the runtime function; enum: its values constant; ref: the parse function or constant; checks: their constant
    pattern: str | None = None  # string: the expression of its compiled pattern (parsers.matcher)


@dataclass(frozen=True)
class ChecksView:
    """A schema applied as written, compiled once at import: _CHECKS_<digest>: Final = _rt.Checks(...)."""

    name: str
    expr: str
    pointer: str  # where in the spec, as a JSON string (ASCII, so that no spec text can end the comment it is in)


@dataclass(frozen=True)
class ParserConst:
    """A module-level parser built once at import, e.g. _P_CHAT_EVENT_ROLE: Final = <parser>."""

    name: str
    parser: Parser


# --- fields: declaration, parse call and encoding (templates/python/model.py.j2, parse_function.py.j2) ---


@dataclass(frozen=True)
class Default:
    """What a field holds when the key is absent.

    kind: "required" (no default), "none", "value" (value, a JSON scalar),
    "uuid4" (a fresh UUID4), "empty" (value, a new {} or []), "copy" (value, a copy of a non-empty {} or []),
    "parsed" (value, a non-empty {} or [] holding models or tuples, built anew from its JSON by fn)."""

    kind: Literal["required", "none", "value", "uuid4", "empty", "copy", "parsed"]
    value: Any = None
    fn: str = ""  # "parsed": the module function that builds it (a DefaultFunction)


@dataclass(frozen=True)
class DefaultFunction:
    """def <fn>() -> Any: a fresh default built by a field's parser from its JSON value. A function, as a class
    body's lambda may not read a parser constant mypy has not yet seen the type of."""

    fn: str  # e.g. "_default_settings_parts"
    parser: str  # the field's ParserConst, e.g. "_P_SETTINGS_PARTS"
    value: Any  # the JSON value


@dataclass(frozen=True)
class FieldView:
    """One dataclass attribute: its declaration, the statement that parses it, and its to_dict entry."""

    attr: str  # e.g. "content_type"
    local: str  # the parse function's local for it
    wire: str  # e.g. "content-type"
    annotation: str  # e.g. "list[ContentItem]"
    default: Default
    doc: str  # the description, or ""
    parser: str  # its ParserConst's name
    required_message: str
    nullable: bool  # a required field that may be null
    dump: bool  # to_dict writes it through _rt.dump, not as it is
    omit_when_none: bool  # to_dict leaves it out when None
    constant: str | None = None  # a required tag's one value: the constructor's default (parsing still requires it)
    kind: Literal["field"] = "field"


# --- rules: runtime checks called in the parse function (templates/python/rules.py.j2) ---


@dataclass(frozen=True)
class RuleView:
    """A rule's check, _rt.rule_<kind>(...): the rule as the IR holds it (a kind the Python
    side has checked has a case), with the parse function's locals of the fields it reads."""

    rule: ir.Rule
    inputs: tuple[str, ...]  # the locals of rule.fields, in order
    kind: str
    defaults: tuple[str, ...] = ()  # compare: the literal each field compares as when absent, e.g. ('1.0', 'None')


# A statement of a parse function, in check order: a field's parse call or a rule's check.
Step = Union[FieldView, RuleView]


# --- definitions (templates/python/model.py.j2, enum.py.j2, alias.py.j2) ---


@dataclass(frozen=True)
class ModelView:
    """A model: its dataclass (model.py.j2) and its parse function (parse_function.py.j2)."""

    name: str
    doc: str
    parse_fn: str  # e.g. "_parse_chat_event"
    fields: tuple[FieldView, ...]
    steps: tuple[Step, ...]
    closed: bool
    keys: tuple[str, ...]  # its fields' wire names: all a closed model accepts, what an open one does not keep apart
    keys_const: str
    type_message: str
    unknown_message: str
    fast: FastFunction
    wire_attrs: tuple[tuple[str, str], ...]  # (wire name, attribute) for rules' pointers into built objects, or ()
    behaviour: str  # members the class gains from the behaviour's `class <Model>:` (specs/<format>/behaviour/python.py), or ""


@dataclass(frozen=True)
class EnumView:
    """A named enum: a Literal alias and a tuple of its values (enum.py.j2)."""

    name: str
    doc: str
    values: tuple[str, ...]
    values_const: str  # e.g. "ROLE_VALUES"
    open: bool = False  # x-open: any other string is an Unknown


@dataclass(frozen=True)
class AliasView:
    """A named type that is not a model or enum: a TypeAlias (alias.py.j2)."""

    name: str
    doc: str
    annotation: str


@dataclass(frozen=True)
class EntryView:
    """The public functions of a named type that is not a model (an enum or alias), which has no class to hold
    from_dict/from_json/to_dict/to_json/validate (entry.py.j2), e.g. messages_from_json for Messages."""

    name: str  # e.g. "Messages"
    parser: str  # its parser constant, e.g. "_P_MESSAGES"
    snake: str  # e.g. "messages"

    @property
    def functions(self) -> tuple[str, ...]:
        """from_dict, from_json, to_dict, to_json and validate, in that order, e.g. "messages_from_dict"."""
        s = self.snake
        return (f"{s}_from_dict", f"{s}_from_json", f"{s}_to_dict", f"{s}_to_json", f"validate_{s}")


@dataclass(frozen=True)
class KnownValuesView:
    """The documented values of an open string field, as a tuple constant."""

    const: str  # e.g. "CHAT_EVENT_ROLE_VALUES"
    values: tuple[str, ...]
    doc: str


@dataclass(frozen=True)
class ConstantView:
    """A spec fact behaviour code reads, e.g. CHAT_STATE_MAX_HISTORY_SIZE_DEFAULT: Final = 1000."""

    name: str
    value: Any  # a JSON scalar from the IR
    doc: str


@dataclass(frozen=True)
class ImportLine:
    """`from <module> import <names>`, names sorted."""

    module: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class ModuleView:
    """One format's module (module.py.j2)."""

    header: str
    doc: str
    format_id: str
    version: str
    imports: tuple[ImportLine, ...]  # the standard library's, from what the views use
    enums: tuple[EnumView, ...]
    known_values: tuple[KnownValuesView, ...]
    models: tuple[ModelView, ...]
    aliases: tuple[AliasView, ...]  # after what they use
    entries: tuple[EntryView, ...]  # the enums' and aliases' public functions, in spec order
    parsers: tuple[ParserConst, ...]  # named definitions' first, then fields'
    defaults: tuple[DefaultFunction, ...]  # the "parsed" defaults' functions, in field order
    regexes: tuple[tuple[str, str], ...]  # (constant, pattern) of the fast functions' compiled patterns
    checks: tuple[ChecksView, ...]  # the schemas applied as written, in spec order
    root: str
    root_entry: EntryView | None  # the root's functions when it is not a model
    api_parse: str  # e.g. "parse_chat_event_from_json"
    api_validate: str  # e.g. "validate_chat_event"
    exports: tuple[str, ...]
    behaviour_constants: tuple[ConstantView, ...]  # what the behaviour reads of the spec
    behaviour: str  # module-level behaviour code (specs/<format>/behaviour/python.py), or ""
    behaviour_imports: tuple[str, ...]  # its import lines
    unknown: bool = False  # an open enum or union: the module imports and exports the runtime's Unknown


# --- the fast path: straight-line checks that build a surely valid document (templates/python/fast.py.j2) ---
# Each check reads one value and either assigns what the exact walk would build or raises
# _rt.Unsure; `same` says that what it builds is the value itself (no copy, no conversion).


@dataclass(frozen=True)
class FastString:
    """A string with its limits: length, a compiled pattern's constant, a closed set, a constant."""

    min_length: int | None
    max_length: int | None
    regex: str | None  # the module constant of the compiled pattern (parsers.matcher), e.g. "_RE_1"
    enum: tuple[str, ...] | None
    values_const: str | None  # a named enum's values, e.g. "ROLE_VALUES"
    const: str | None
    same: bool = True
    format: str | None = None  # a format the runtime checks (format_ok), e.g. "uri"
    open: bool = False  # an open enum's (values_const): any other string is kept as an Unknown
    kind: Literal["string"] = "string"


@dataclass(frozen=True)
class FastScalar:
    """A value checked by what it is: "datetime" and "bytes" (converted), "boolean" and "any" (kept)."""

    what: Literal["datetime", "bytes", "boolean", "any"]
    same: bool
    checks: str | None = None  # "any" applying a schema as written: the module constant of its checks, e.g. "_CHECKS_3f2a9c1b07de"
    values: tuple[bool, ...] | None = None  # "boolean" with a const or an enum: the values both leave (ir.allowed_values)
    kind: Literal["scalar"] = "scalar"


@dataclass(frozen=True)
class FastNumber:
    """An integer (int64) or a number (a float64), with the spec's bounds."""

    integer: bool
    minimum: float | None
    maximum: float | None
    exclusive_minimum: float | None
    exclusive_maximum: float | None
    multiple_of: int | None  # integers only: the value % multiple_of is 0
    values: tuple[int | float | bool, ...] | None = None  # with a const or an enum: the values both leave (ir.allowed_values)
    same: bool = True
    kind: Literal["number"] = "number"


@dataclass(frozen=True)
class FastList:
    item: FastCheck
    min_items: int | None
    max_items: int | None
    unique_items: bool
    keep: bool = False
    """Whether the items read no ancestor, so a failed attempt hands the ones it built to the exact walk."""
    same: bool = False
    kind: Literal["list"] = "list"


@dataclass(frozen=True)
class FastTuple:
    items: tuple[FastCheck, ...]
    same: bool = False
    kind: Literal["tuple"] = "tuple"


@dataclass(frozen=True)
class FastMap:
    value: FastCheck
    same: bool = False
    kind: Literal["map"] = "map"


@dataclass(frozen=True)
class FastNullable:
    inner: FastCheck
    same: bool
    kind: Literal["nullable"] = "nullable"


@dataclass(frozen=True)
class FastUnion:
    """Variants chosen by a discriminator's value, or (discriminator None) by the JSON kind:
    cases keyed by "null", "boolean", "integer", "number", "string", "array" or "object"."""

    discriminator: str | None
    cases: tuple[tuple[str, FastCheck], ...]
    same: bool
    open: bool = False  # x-open: an object whose tag is a string no case has is kept as an Unknown
    kind: Literal["union"] = "union"


@dataclass(frozen=True)
class FastModel:
    """A model's fast function; anc: whether it takes the values above it (for its rules' relative pointers)."""

    fn: str  # e.g. "_fast_chat_event"
    anc: bool
    cls: str  # e.g. "ChatEvent"
    check_fn: str  # e.g. "_check_chat_event"
    inside: bool = True  # its parse function tries a value kept from a failed fast attempt (not for a recursive model)
    same: bool = False
    kind: Literal["model"] = "model"


FastCheck = Union[FastString, FastScalar, FastNumber, FastList, FastTuple, FastMap, FastNullable, FastUnion, FastModel]


@dataclass(frozen=True)
class FastField:
    """One field read by a fast function: into its parse function's local, absent as its default says."""

    attr: str
    local: str  # "f_" and the attribute: never one of the function's own locals
    wire: str
    check: FastCheck
    default: Default
    nullable: bool  # a required field that may be null


@dataclass(frozen=True)
class Access:
    """One step of a rule's JSON pointer taken on built values: a model's attribute (a required
    field that is never null, which to_dict always writes) or a tuple's item."""

    kind: Literal["attr", "index"]
    key: str | int  # the attribute, e.g. "content_type", or the item's index


@dataclass(frozen=True)
class FastRule:
    """A rule's check in a fast function, with the fast function's locals of the fields it reads.

    each: for allowed_when and contains, the rule's pointer as attribute steps into each built
    item of the list field, ending at a string (straight-line code); None where the steps
    depend on the value (a union, a list index, an optional field): the exact check runs with _rt.PROBE.
    """

    rule: ir.Rule
    inputs: tuple[str, ...]  # the locals of rule.fields, in order
    kind: str
    each: tuple[Access, ...] | None = None
    probe: bool = True  # runs the exact rule_<kind> with ctx = _rt.PROBE (no straight-line form for it)
    locals_are_raw: bool = False  # at_least_one_of: each input local is None exactly where the object's value is absent or null
    unknown: bool = False  # member_of on an open enum: its local may be an Unknown, left to the exact rule


@dataclass(frozen=True)
class AttrRule:
    """A rule's check on a built object's attributes (validate()), with the check function's locals.

    each: as FastRule's; when_each: the when clause's pointer as attribute steps from the
    when field's value to a string (() when it compares the value itself, as to_dict writes
    it unchanged), or None where _rt.resolve_value follows it."""

    rule: ir.Rule
    fields: tuple[str, ...]  # the locals of rule.fields
    when: str | None  # the local of rule.when.field
    kind: str
    each: tuple[Access, ...] | None = None
    when_each: tuple[Access, ...] | None = None
    defaults: tuple[str, ...] = ()  # compare: as RuleView's (an attribute left None reads as its default)


@dataclass(frozen=True)
class FastFunction:
    """A model's fast function (templates/python/fast.py.j2)."""

    name: str  # the model, e.g. "ChatEvent"
    fn: str  # e.g. "_fast_chat_event"
    check_fn: str  # e.g. "_check_chat_event": the same checks on a built object's attributes (validate())
    anc: bool  # takes the values above it, nearest last
    inside: bool  # the exact walk tries it on each of the model's values below the root (not for a recursive model)
    levels: int  # how many levels below the object its checks read (its depth limit is MAX_DEPTH - levels)
    fields: tuple[FastField, ...]
    temps: tuple[str, ...]  # every local it assigns, declared Any
    kept: tuple[FastField, ...]  # the fields holding a model (or null): built before a later check fails, the exact walk keeps them
    rules: tuple[FastRule, ...]
    attr_rules: tuple[AttrRule, ...]
    closed: bool
    keys_const: str

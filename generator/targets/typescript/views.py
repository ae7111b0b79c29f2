"""Data-only views of one format's module; templates/typescript/*.j2 place what they hold."""

from __future__ import annotations

import json
from dataclasses import dataclass

from generator import ir, nesting
from generator.behaviour import Behaviour
from generator.behaviour import constants as behaviour_constants
from generator.errors import SpecError, pointer_of
from generator.naming import constant_case, pascal_case
from generator.render import header
from generator.targets.typescript.behaviour import typescript_parts
from generator.targets.typescript.encoders import alias_encode_fn, encode, model_encode_fn
from generator.targets.typescript.fast import TsFastBuilder, TsFastFunction, native_rule, operands
from generator.targets.typescript.literals import OBJECT_MEMBERS, ts_doc, ts_json, ts_property, ts_str
from generator.targets.typescript.parsers import model_parse_fn, named_parser, parser
from generator.targets.typescript.types import UNKNOWN_VALUE, ts_type


@dataclass(frozen=True)
class FieldView:
    key: str  # the wire name as a string literal, e.g. "\"content-type\""
    prop: str  # the interface property, e.g. "role" or "\"content-type\""
    doc: str
    type: str  # e.g. "ContentBlock[]"
    optional: bool  # absent when not given (no default)
    local: str  # the parse function's local, e.g. "v3"
    parse: str  # e.g. 'ctx.required(obj, "role", F_ChatInput_3, "...")'
    entry: str  # its entry in the built object's literal, e.g. '"role": v3 as Role'
    set_built: str  # the statement that sets it on `out` when present (optional fields)
    set_wire: str  # the statement that puts its wire form on the encoder's `out`


@dataclass(frozen=True)
class ModelView:
    name: str
    doc: str
    parse_fn: str
    encode_fn: str
    fields: tuple[FieldView, ...]
    steps: tuple[str, ...]
    closed: bool
    keys_const: str
    keys: str
    type_message: str
    unknown_message: str
    # Its fast function (templates/typescript/fast_function.ts.j2); None for a model no document of the
    # root holds: only parse<Format>FromJSON runs fast functions, so one of its own would be unused code.
    fast: TsFastFunction | None
    make_fn: str = ""  # make<Model>: the model from the fields given, every constant and default set
    make_keys: str = ""  # the fields make<Model> may leave out, as a union of string literal types, e.g. '"id" | "metadata"'
    make_entries: tuple[str, ...] = ()  # the object literal entries of those fields' values, e.g. '"id": rt.newUUID4()'
    # Whether the object it builds is asserted to its type rather than declared as it: a field named like a member of
    # Object.prototype ("constructor", "toString") makes an object literal fail the declaration under --strict.
    asserted: bool = False


@dataclass(frozen=True)
class EnumView:
    name: str
    doc: str
    literal: str
    values_const: str
    values: str


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: str
    type: str
    encode_fn: str
    encode: str  # the wire form of `v`


@dataclass(frozen=True)
class EntryView:
    """A definition's public parse<Name> (an enum's or alias's: a model's is its parse function's) and
    validate<Name> (entry.ts.j2)."""

    name: str  # e.g. "Content"
    parser: str  # its parser, e.g. "P_Content" or, for a model, "p_ChatInput"
    encode: str  # the wire form of `value`, e.g. "encodeContent(value)"
    model: bool


@dataclass(frozen=True)
class KnownValuesView:
    const: str
    doc: str
    values: str


@dataclass(frozen=True)
class ModuleView:
    header: str
    doc: str
    format_id: str
    version: str
    enums: tuple[EnumView, ...]
    known_values: tuple[KnownValuesView, ...]
    models: tuple[ModelView, ...]
    aliases: tuple[AliasView, ...]
    parsers: tuple[tuple[str, str], ...]  # (constant, expression), each after what it uses
    fast_constants: tuple[tuple[str, str], ...]  # (constant, expression): the fast functions' patterns and value sets
    entries: tuple[EntryView, ...]  # every definition's, in spec order
    root: str
    root_parser: str  # what parse<Format>FromJSON runs, e.g. "p_ChatEvent" or "P_Messages"
    root_fast: str  # and its fast function first, e.g. "f_ChatEvent", or "" (a root that is not a model)
    root_encode: str  # the wire form of `doc`, a root value
    api_parse: str
    api_stringify: str
    uses: tuple[str, ...]  # runtime types the module's own types name
    # From the format's behaviour set (specs/<format>/behaviour/typescript.ts), when it has TypeScript:
    behaviour_imports: tuple[str, ...] = ()  # imports of the package's other modules
    behaviour_constants: tuple[tuple[str, str, str], ...] = ()  # (name, doc, value), e.g. CHAT_STATE_MAX_HISTORY_SIZE_DEFAULT
    behaviour_source: str = ""  # the stored file, as shown
    behaviour: str = ""  # its code, placed at the end of the module


def _str_list(items: tuple[str, ...] | list[str]) -> str:
    return "[" + ", ".join(ts_str(i) for i in items) + "]"


def rule_call(rule: ir.Rule, model: ir.Model, locals_by_wire: dict[str, str], defaults: dict[str, str] | None = None) -> str:
    """The exact walk's call of a rule; defaults: the default expression of each field that has one, which
    member_of judges where the field is absent (the value the object holds, as Python and Go judge it)."""
    msg = ts_str(rule.message)
    inputs = "[" + ", ".join(locals_by_wire[w] for w in rule.fields) + "]"
    match rule.kind:
        case "member_of":
            local = locals_by_wire[rule.fields[0]]
            default = (defaults or {}).get(rule.fields[0])
            value = local if default is None else f"{local} === undefined ? {default} : {local}"
            return f"rt.ruleMemberOf(ctx, {ts_str(rule.fields[0])}, {value}, {rule.up}, {_str_list(rule.pointer)}, {msg});"
        case "at_least_one_of":
            return f"rt.ruleAtLeastOneOf(ctx, obj, {_str_list(rule.fields)}, {msg});"
        case "contains":
            return (
                f"rt.ruleContains(ctx, obj, {ts_str(rule.fields[0])}, {_str_list(rule.pointer)}, "
                f"{ts_str(rule.equals or '')}, {msg}, {inputs});"
            )
        case "required_when":
            assert rule.when is not None
            when = f"{ts_str(rule.when.field)}, {_str_list(rule.when.pointer)}, {ts_str(rule.when.equals)}"
            return f"rt.ruleRequiredWhen(ctx, obj, {ts_str(rule.fields[0])}, {when}, {msg}, {inputs});"
        case "allowed_when":
            assert rule.when is not None
            when = f"{ts_str(rule.when.field)}, {_str_list(rule.when.pointer)}, {ts_str(rule.when.equals)}"
            return (
                f"rt.ruleAllowedWhen(ctx, obj, {ts_str(rule.fields[0])}, {_str_list(rule.pointer)}, {when}, "
                f"new Set({_str_list(rule.allowed)}), {msg}, {inputs});"
            )
        case "compare":
            left, right = operands(rule, model)
            return f"rt.ruleCompare(ctx, obj, {left}, {right}, {ts_str(rule.op or '')}, {msg}, {inputs});"
        case _:
            raise AssertionError(f"unhandled rule kind {rule.kind!r}")


def absent_when_missing(f: ir.Field) -> bool:
    """Whether a built value leaves the field out when the input does (optional, no default): `name?: T`."""
    return not f.required and f.default_factory is None and not f.has_default


def field_parser(model: ir.Model, index: int) -> str:
    """The constant holding the parser of a model's field, by its index, e.g. "F_ChatInput_3"."""
    return f"F_{model.name}_{index}"


def default_value(fmt: ir.Format, f: ir.Field, const: str) -> str:
    """An expression for a fresh copy of the field's default: its JSON, or built by the field's parser (const) where
    the default holds models or tuples, so that it is what parsing the JSON gives (each model's own defaults set)."""
    if isinstance(f.default, (dict, list)) and fmt.built_default(f.type, f.default):
        return f"rt.run({const}, {ts_json(f.default)})"
    return ts_json(f.default)


def made_value(fmt: ir.Format, model: ir.Model, index: int) -> str | None:
    """What make<Model> gives a field left out: its constant (a tag has one value to give), its default or a fresh
    UUID4; None for a field it must be given or may leave absent."""
    f = model.fields[index]
    if f.constant is not None:
        return ts_str(f.constant)
    if f.default_factory == "uuid4":
        return "rt.newUUID4()"
    return default_value(fmt, f, field_parser(model, index)) if f.has_default else None


def field_view(fmt: ir.Format, model: ir.Model, f: ir.Field, index: int, parsers: list[tuple[str, str]]) -> FieldView:
    const = field_parser(model, index)
    parsers.append((const, parser(f.type)))
    local = f"v{index}"
    key = ts_str(f.wire_name)
    spelled = ts_type(f.type)
    cast = f"{local} as {spelled}"
    optional = absent_when_missing(f)
    if f.required:
        nullable = ", true" if f.null_ok else ""
        parse = f"ctx.required(obj, {key}, {const}, {ts_str(f.required_message)}{nullable})"
        build = cast
    else:
        parse = f"ctx.optional(obj, {key}, {const})"
        match f.default_factory:
            case "uuid4":
                build = f"{local} === undefined ? rt.newUUID4() : ({cast})"
            case None:
                build = f"{local} === undefined ? {default_value(fmt, f, const)} : ({cast})" if f.has_default else cast
            case _:
                raise AssertionError(f"unhandled default factory {f.default_factory!r}")
    # "__proto__" would set the prototype: it goes in as a computed key or an own property.
    proto = f.wire_name == "__proto__"
    inherited = proto or f.wire_name in OBJECT_MEMBERS
    value = f"value[{key}]"
    wire = encode(f.type, value)
    set_wire = f"rt.put(out, {key}, {wire});" if proto else f"out[{key}] = {wire};"
    return FieldView(
        key=key,
        prop=ts_property(f.wire_name),
        doc=ts_doc(f.description, "  "),
        type=spelled,
        optional=optional,
        local=local,
        parse=parse,
        entry=f"{'[' + key + ']' if proto else key}: {build}",
        set_built=f"rt.put(out, {key}, {build});" if proto else f"out[{key}] = {build};",
        # An absent field named like a member every object inherits (constructor, toString, __proto__) reads that
        # member: only an own property is the field.
        set_wire=(
            (
                f"if (Object.hasOwn(value, {key}) && {value} !== undefined) {set_wire}"
                if inherited
                else f"if ({value} !== undefined) {set_wire}"
            )
            if optional
            else set_wire
        ),
    )


def model_view(fmt: ir.Format, model: ir.Model, parsers: list[tuple[str, str]], fast: TsFastBuilder | None) -> ModelView:
    fields = tuple(field_view(fmt, model, f, i, parsers) for i, f in enumerate(model.fields))
    locals_by_wire = {f.wire_name: v.local for f, v in zip(model.fields, fields)}
    defaults = {f.wire_name: default_value(fmt, f, field_parser(model, i)) for i, f in enumerate(model.fields) if f.has_default}
    steps: list[str] = []
    for f, v in zip(model.fields, fields):
        steps.append(f"const {v.local} = {v.parse};")
        steps.extend(rule_call(r, model, locals_by_wire, defaults) for r in model.rules if r.after == f.wire_name)
    steps.extend(rule_call(r, model, locals_by_wire, defaults) for r in model.rules if r.after is None)
    made = [(f, value) for i, f in enumerate(model.fields) if (value := made_value(fmt, model, i)) is not None]
    return ModelView(
        name=model.name,
        doc=ts_doc(model.description or model.name),
        parse_fn=model_parse_fn(model.name),
        encode_fn=model_encode_fn(model.name),
        fields=fields,
        steps=tuple(steps),
        closed=model.closed,
        keys_const=f"K_{model.name}",
        keys=f"new Set({_str_list([f.wire_name for f in model.fields])})",
        type_message=ts_str(model.type_message),
        unknown_message=ts_str(model.unknown_message),
        make_fn=f"make{model.name}",
        asserted=any(f.wire_name in OBJECT_MEMBERS for f in model.fields),
        make_keys=" | ".join(ts_str(f.wire_name) for f, _ in made),
        make_entries=tuple(
            f"{'[' + ts_str(f.wire_name) + ']' if f.wire_name == '__proto__' else ts_str(f.wire_name)}: {value}" for f, value in made
        ),
        fast=(
            None
            if fast is None
            else fast.function(
                model,
                [v.local for v in fields],
                [rule_call(r, model, locals_by_wire) for r in model.rules if r.kind != "member_of" and native_rule(r, model) is None],
                [not absent_when_missing(f) for f in model.fields],
            )
        ),
    )


def exported_names(view: ModuleView) -> list[tuple[str, str]]:
    """(name, what) of every top-level name the module binds, for the clash check."""
    names: list[tuple[str, str]] = [
        ("FORMAT_ID", "the format id constant"),
        ("VERSION", "the version constant"),
        ("ValidationError", "the error class"),
        ("DateTimeString", "a runtime type"),
        ("JsonData", "a runtime type"),
        ("rt", "the runtime import"),
    ]
    for e in view.enums:
        names += [(e.name, "an enumeration"), (e.values_const, "an enumeration's values")]
    for k in view.known_values:
        names.append((k.const, "documented values"))
    for a in view.aliases:
        names += [(a.name, "a type alias"), (a.encode_fn, "an alias encoder")]
    for entry in view.entries:
        names += [(f"parse{entry.name}", "a definition's parser"), (f"validate{entry.name}", "a definition's validator")]
    for m in view.models:
        names += [
            (m.name, "a model"),
            (m.encode_fn, "a model encoder"),
            (m.parse_fn, "a model's parse function"),
            (m.keys_const, "a model's keys"),
            (m.make_fn, "a model's constructor"),
        ]
    names += [(view.api_parse, "the format parser"), (view.api_stringify, "the root serialiser")]
    names += [(c, "a parser constant") for c, _ in view.parsers]
    names += [(m.fast.fn, "a model's fast function") for m in view.models if m.fast is not None]
    names += [(c, "a fast-path constant") for c, _ in view.fast_constants]
    names += [(c, "a constant the behaviour reads") for c, _, _ in view.behaviour_constants]
    return names


def _wire_of(fmt: ir.Format, known: ir.KnownValues) -> str:
    model = fmt.definition(known.model)
    assert isinstance(model, ir.Model)
    return next(f.wire_name for f in model.fields if f.name == known.field)


def module_view(fmt: ir.Format, behaviour: Behaviour | None = None) -> ModuleView:
    b = behaviour if behaviour is not None and "typescript" in behaviour.texts else None
    parts = typescript_parts(b) if b is not None else None
    parsers: list[tuple[str, str]] = []
    enums = tuple(
        EnumView(
            name=e.name,
            doc=ts_doc(e.description or e.name),
            literal=" | ".join([*(ts_str(v) for v in e.values), *([UNKNOWN_VALUE] if e.open else [])]),
            values_const=f"{constant_case(e.name)}_VALUES",
            values=_str_list(e.values),
        )
        for e in fmt.definitions
        if isinstance(e, ir.Enum)
    )
    for e in fmt.definitions:
        if isinstance(e, ir.Enum):
            parsers.append(
                (
                    named_parser(e.name),
                    f"rt.{'openEnum' if e.open else 'string'}<{e.name}>({{ "
                    + ", ".join(f"{ts_str(k)}: {ts_str(v)}" for k, v in e.messages.items())
                    + (" })" if e.open else f" }}, {{ enum: new Set({constant_case(e.name)}_VALUES) }})"),
                )
            )
    ordered = nesting.alias_order(fmt)
    for a in ordered:
        parsers.append((named_parser(a.name), parser(a.type)))
    aliases = tuple(
        AliasView(
            name=a.name,
            doc=ts_doc(a.description or a.name),
            type=ts_type(a.type),
            encode_fn=alias_encode_fn(a.name),
            encode=encode(a.type, "v"),
        )
        for a in ordered
    )
    fast = TsFastBuilder(fmt)
    held = fast.base.held_from(fmt.root)
    models = tuple(model_view(fmt, m, parsers, fast if m.name in held else None) for m in fmt.models)
    known = [
        KnownValuesView(
            const=f"{constant_case(k.model)}_{constant_case(k.field)}_VALUES",
            doc=ts_doc(f"Documented values of {k.model}.{_wire_of(fmt, k)}; any string is accepted."),
            values=_str_list(k.values),
        )
        for k in fmt.known_values
    ]
    spelled = " ".join([*(m_.type for m in models for m_ in m.fields), *(a.type for a in aliases)])
    entries = tuple(
        EntryView(
            d.name,
            model_parse_fn(d.name) if isinstance(d, ir.Model) else named_parser(d.name),
            encode(ir.ref_to(d), "value"),
            isinstance(d, ir.Model),
        )
        for d in fmt.definitions
    )
    root = fmt.root
    root_model = next((m for m in models if m.name == root), None)
    view = ModuleView(
        header=header(fmt.source, b.source("typescript") if b is not None else None),
        doc=ts_doc(f"{fmt.title} (format {fmt.id}, version {fmt.version}).\n\n{fmt.description}".strip()),
        format_id=ts_str(fmt.id),
        version=ts_str(fmt.version),
        enums=enums,
        known_values=tuple(known),
        models=models,
        aliases=aliases,
        parsers=tuple(parsers),
        fast_constants=fast.constants(),
        entries=entries,
        root=root,
        root_parser=next(e.parser for e in entries if e.name == root),
        root_fast=root_model.fast.fn if root_model is not None and root_model.fast is not None else "",
        root_encode=encode(ir.ref_to(fmt.definition(root)), "doc"),
        api_parse=f"parse{pascal_case(fmt.id)}FromJSON",
        api_stringify=f"stringify{root}",
        uses=tuple(n for n in ("DateTimeString", "JsonData") if n in spelled),
        behaviour_imports=tuple(parts.imports) if parts is not None else (),
        behaviour_constants=(
            tuple(
                (
                    f"{constant_case(c.model)}_{constant_case(c.field)}_{c.facet.upper()}",
                    ts_doc(f"The {c.facet} of {c.model}.{c.field} in the spec."),
                    ts_str(c.value) if isinstance(c.value, str) else json.dumps(c.value),
                )
                for c in behaviour_constants(fmt, b)
            )
            if b is not None
            else ()
        ),
        behaviour_source=b.source("typescript") or "" if b is not None else "",
        behaviour=parts.code if parts is not None else "",
    )
    seen: dict[str, str] = {}
    for name, what in exported_names(view):
        if name in seen:
            raise SpecError(
                fmt.source,
                pointer_of("$defs", name) if any(d.name == name for d in fmt.definitions) else pointer_of("$defs"),
                f"the generated TypeScript would define {name!r} twice ({seen[name]}, and {what})",
                'rename the definition, or give it an "x-name", so the names differ',
            )
        seen[name] = what
    return view

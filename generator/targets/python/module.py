"""Python target: IR -> views -> templates/python/*.j2 -> black.

Policy lives here as data (reserved names, annotations per IR type); the
templates only place the snippets these views hold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from generator import ir, runtime
from generator.errors import SpecError, pointer_of
from generator.messages import number_literal
from generator.naming import Names, clash_error, constant_case, python_attr, python_top_level_clashes, snake_case
from generator.patterns import to_python
from generator.behaviour import Behaviour, PythonParts, constants, python_parts
from generator.pyformat import format_python
from generator.render import Templates, header

# The templates under templates/ this target renders, with the filters they use.
TEMPLATES = Templates(pystr=repr)


PACKAGE = "chatformats"

# Locals of a generated parse function; a field local never takes these names.
_PARSE_LOCALS = frozenset({"obj", "ctx", "data", "mark"})


def py_str(text: str) -> str:
    """A Python string literal (repr is exact for every str, quotes and all)."""
    return repr(text)


def py_docstring(text: str) -> str:
    """A triple-quoted docstring that survives quotes, backslashes and control characters."""
    body = text.replace("\r\n", "\n").replace("\r", "\n").replace("\\", "\\\\")
    # A final quote would merge with the closing quotes: escape it before escaping runs of three.
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    body = body.replace('"""', '\\"\\"\\"')
    body = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", body)
    return f'"""{body}"""'


def py_dict(mapping: dict[str, str]) -> str:
    return "{" + ", ".join(f"{py_str(k)}: {py_str(v)}" for k, v in mapping.items()) + "}"


def py_tuple(items: list[str] | tuple[str, ...]) -> str:
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


def py_number(value: float) -> str:
    return repr(value)


@dataclass(frozen=True)
class FieldView:
    attr: str  # e.g. "content_type"
    local: str  # the parse function's local for it
    wire: str  # e.g. "content-type"
    annotation: str  # e.g. "list[ContentItem]"
    default: str | None  # the dataclass default, e.g. "None" or "field(default_factory=dict)"
    doc: str  # docstring literal
    parse: str  # e.g. 'ctx.required(obj, "speaker", _P_..., "...")'
    dump: str  # e.g. "_rt.dump(self.tags)"
    omit_when_none: bool


@dataclass(frozen=True)
class ModelView:
    name: str
    doc: str
    parse_fn: str  # e.g. "_parse_chat_event"
    fields: tuple[FieldView, ...]
    steps: tuple[str, ...]  # statements of the parse function, in check order
    closed: bool
    keys: str  # frozenset literal of wire names
    keys_const: str
    type_message: str
    unknown_message: str
    behaviour: str  # members the class gains from the behaviour's `class <Model>:` (specs/<format>/behaviour/python.py), or ""


@dataclass(frozen=True)
class EnumView:
    name: str
    doc: str
    literal: str  # e.g. 'Literal["user", "assistant"]'
    values_const: str  # e.g. "ROLE_VALUES"
    values: str  # tuple literal


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: str
    annotation: str


@dataclass(frozen=True)
class KnownValuesView:
    const: str  # e.g. "CHAT_EVENT_ROLE_VALUES"
    values: str
    doc: str


class PythonModule:
    """Builds the views of one format's module."""

    def __init__(self, fmt: ir.Format, names: Names, behaviour: Behaviour | None = None) -> None:
        self.fmt = fmt
        self.names = names
        self.behaviour = behaviour if behaviour is not None and "python" in behaviour.texts else None
        self.parts = python_parts(self.behaviour) if self.behaviour is not None else PythonParts([], "", {})
        self.parsers: list[tuple[str, str]] = []  # (constant, expression) in definition order

    # --- names -----------------------------------------------------------

    def parse_fn(self, model: str) -> str:
        return f"_parse_{snake_case(model)}"

    def parser_const(self, *parts: str) -> str:
        return "_P_" + "_".join(constant_case(p) for p in parts)

    # --- types -----------------------------------------------------------

    def annotation(self, t: ir.TypeRef) -> str:
        if isinstance(t, ir.DateTimeType):
            return "datetime"
        if isinstance(t, ir.BytesType):
            return "bytes"
        if isinstance(t, ir.StringType):
            if t.const is not None:
                return f"Literal[{py_str(t.const)}]"
            if t.enum is not None:
                return "Literal[" + ", ".join(py_str(v) for v in t.enum) + "]"
            return "str"
        if isinstance(t, ir.NumericType):
            return "int" if t.integer else "float"
        if isinstance(t, ir.BooleanType):
            return "bool"
        if isinstance(t, ir.AnyType):
            return "Any"
        if isinstance(t, ir.ListType):
            return f"list[{self.annotation(t.item)}]"
        if isinstance(t, ir.TupleType):
            return "tuple[" + ", ".join(self.annotation(i) for i in t.items) + "]"
        if isinstance(t, ir.MapType):
            return f"dict[str, {self.annotation(t.value)}]"
        if isinstance(t, ir.NullableType):
            return f"{self.annotation(t.inner)} | None"
        if isinstance(t, ir.UnionType):
            return " | ".join(self.annotation(v) for v in t.variants)
        return t.name

    def parser(self, t: ir.TypeRef) -> str:
        """A runtime expression that parses a value of this type."""
        if isinstance(t, ir.DateTimeType):
            return f"_rt.date_time({py_dict(t.messages)})"
        if isinstance(t, ir.BytesType):
            return f"_rt.base64_bytes({py_dict(t.messages)})"
        if isinstance(t, ir.StringType):
            args = [py_dict(t.messages)]
            if t.min_length is not None:
                args.append(f"min_length={t.min_length}")
            if t.max_length is not None:
                args.append(f"max_length={t.max_length}")
            if t.pattern is not None:
                args.append(f"pattern={py_str(to_python(t.pattern))}")
            if t.enum is not None:
                args.append("enum=frozenset(" + py_tuple([py_str(v) for v in t.enum]) + ")")
            if t.const is not None:
                args.append(f"const={py_str(t.const)}")
            return f"_rt.string({', '.join(args)})"
        if isinstance(t, ir.NumericType):
            args = [py_dict(t.messages)]
            for name, value in (("minimum", t.minimum), ("maximum", t.maximum),
                                ("exclusive_minimum", t.exclusive_minimum), ("exclusive_maximum", t.exclusive_maximum)):
                if value is not None:
                    args.append(f"{name}={py_number(value)}")
            return f"_rt.{'integer' if t.integer else 'number'}({', '.join(args)})"
        if isinstance(t, ir.BooleanType):
            return f"_rt.boolean({py_dict(t.messages)})"
        if isinstance(t, ir.AnyType):
            return f"_rt.any_json({py_dict(t.messages)})"
        if isinstance(t, ir.ListType):
            args = [self.parser(t.item), py_dict(t.messages)]
            if t.min_items is not None:
                args.append(f"min_items={t.min_items}")
            if t.max_items is not None:
                args.append(f"max_items={t.max_items}")
            if t.unique_items:
                args.append("unique_items=True")
            return f"_rt.list_of({', '.join(args)})"
        if isinstance(t, ir.TupleType):
            return f"_rt.tuple_of({py_tuple([self.parser(i) for i in t.items])}, {py_dict(t.messages)})"
        if isinstance(t, ir.MapType):
            return f"_rt.map_of({self.parser(t.value)}, {py_dict(t.messages)})"
        if isinstance(t, ir.NullableType):
            return f"_rt.nullable({self.parser(t.inner)})"
        if isinstance(t, ir.UnionType):
            if t.discriminator is not None:
                cases = ", ".join(f"{py_str(tag)}: {self.parser(v)}" for tag, v in zip(t.tags, t.variants))
                return f"_rt.union_by_tag({py_str(t.discriminator)}, {{{cases}}}, {py_dict(t.messages)})"
            cases = ", ".join(f"{py_str(k)}: {self.parser(v)}" for k, v in zip(t.json_kinds, t.variants))
            return f"_rt.union_by_kind({{{cases}}}, {py_dict(t.messages)})"
        if t.target == "model":
            return self.parse_fn(t.name)
        return self.parser_const(t.name)

    def needs_dump(self, t: ir.TypeRef) -> bool:
        """Plain JSON scalars go out as they are; everything else through _rt.dump."""
        if isinstance(t, ir.NullableType):
            return self.needs_dump(t.inner)
        if isinstance(t, (ir.DateTimeType, ir.BytesType)):
            return True
        if isinstance(t, ir.StringType):
            return False
        if isinstance(t, (ir.NumericType, ir.BooleanType)):
            return False
        if isinstance(t, ir.Ref) and t.target == "enum":
            return False
        return True

    # --- definitions ----------------------------------------------------

    def field_view(self, model: ir.Model, f: ir.Field, attr: str) -> FieldView:
        const = self.parser_const(model.name, attr)
        self.parsers.append((const, self.parser(f.type)))
        nullable = isinstance(f.type, ir.NullableType)
        annotation = self.annotation(f.type)
        wire = py_str(f.wire_name)
        if f.required:
            default = None
            extra = ", nullable=True" if nullable else ""
            parse = f"ctx.required(obj, {wire}, {const}, {py_str(f.required_message)}{extra})"
        elif f.default_factory == "uuid4":
            default = "field(default_factory=_rt.new_uuid4)"
            parse = f"ctx.optional(obj, {wire}, {const}, factory=_rt.new_uuid4)"
        elif f.has_default and isinstance(f.default, (dict, list)):
            factory = type(f.default).__name__ if not f.default else f"lambda: {f.default!r}"
            default = f"field(default_factory={factory})"
            parse = f"ctx.optional(obj, {wire}, {const}, factory={factory})"
        elif f.has_default and f.default is not None:
            is_number = isinstance(f.default, (int, float)) and not isinstance(f.default, bool)
            default = number_literal(f.default) if is_number else repr(f.default)
            parse = f"ctx.optional(obj, {wire}, {const}, default={default})"
        else:
            default = "None"
            if not nullable:
                annotation += " | None"
            parse = f"ctx.optional(obj, {wire}, {const})"
        value = f"self.{attr}"
        return FieldView(
            attr=attr,
            local=f"{attr}_value" if attr in _PARSE_LOCALS else attr,
            wire=f.wire_name,
            annotation=annotation,
            default=default,
            doc=py_docstring(f.description) if f.description else "",
            parse=parse,
            dump=f"_rt.dump({value})" if self.needs_dump(f.type) else value,
            omit_when_none=not f.required,
        )

    def rule_call(self, rule: ir.Rule, locals_by_wire: dict[str, str]) -> str:
        msg = py_str(rule.message)
        inputs = py_tuple([locals_by_wire[w] for w in rule.fields])
        when = "" if rule.when is None else (
            f"{py_str(rule.when.field)}, {py_tuple([py_str(p) for p in rule.when.pointer])}, {py_str(rule.when.equals)}")
        match rule.kind:
            case "member_of":
                return (f"_rt.rule_member_of(ctx, {py_str(rule.fields[0])}, {locals_by_wire[rule.fields[0]]}, "
                        f"{rule.up}, {py_tuple([py_str(p) for p in rule.pointer])}, {msg})")
            case "at_least_one_of":
                return f"_rt.rule_at_least_one_of(ctx, obj, {py_tuple([py_str(w) for w in rule.fields])}, {msg})"
            case "contains":
                return (f"_rt.rule_contains(ctx, obj, {py_str(rule.fields[0])}, {py_tuple([py_str(p) for p in rule.pointer])}, "
                        f"{py_str(rule.equals or '')}, {msg}, {inputs})")
            case "required_when":
                return f"_rt.rule_required_when(ctx, obj, {py_str(rule.fields[0])}, {when}, {msg}, {inputs})"
            case "allowed_when":
                allowed = "frozenset(" + py_tuple([py_str(a) for a in rule.allowed]) + ")"
                return (f"_rt.rule_allowed_when(ctx, obj, {py_str(rule.fields[0])}, {py_tuple([py_str(p) for p in rule.pointer])}, "
                        f"{when}, {allowed}, {msg}, {inputs})")
            case _:
                raise ValueError(f"the Python target has no check for rule kind {rule.kind!r}")

    def model_view(self, model: ir.Model, index: int) -> ModelView:
        attrs = self.names.of_model(model)
        fields = tuple(self.field_view(model, f, a) for f, a in zip(model.fields, attrs))
        locals_by_wire = {f.wire: f.local for f in fields}
        steps: list[str] = []
        for f in fields:
            steps.append(f"{f.local} = {f.parse}")
            steps.extend(self.rule_call(r, locals_by_wire) for r in model.rules if r.after == f.wire)
        steps.extend(self.rule_call(r, locals_by_wire) for r in model.rules if r.after is None)
        keys_const = f"_KEYS_{constant_case(model.name)}"
        return ModelView(
            name=model.name,
            doc=py_docstring(model.description or model.name),
            parse_fn=self.parse_fn(model.name),
            fields=fields,
            steps=tuple(steps),
            closed=model.closed,
            keys="frozenset(" + py_tuple([py_str(f.wire) for f in fields]) + ")" if fields else "frozenset()",
            keys_const=keys_const,
            type_message=py_str(model.type_message),
            unknown_message=py_str(model.unknown_message),
            behaviour=self.parts.methods.get(model.name, ""),
        )

    def behaviour_constants(self) -> str:
        """The spec facts the behaviour reads (manifest [constants]), e.g.
        CHAT_STATE_MAX_HISTORY_SIZE_DEFAULT: Final = 1000, from the IR."""
        if self.behaviour is None:
            return ""
        out = []
        for c in constants(self.fmt, self.behaviour):
            value = py_str(c.value) if isinstance(c.value, str) else repr(c.value)
            out.append(f"{constant_case(c.model)}_{constant_case(c.field)}_{c.facet.upper()}: Final = {value}\n"
                       + py_docstring(f"The {c.facet} of {c.model}.{python_attr(c.field)} in the spec."))
        return "\n\n".join(out)

    def known_values(self) -> list[KnownValuesView]:
        return [
            KnownValuesView(
                const=f"{constant_case(k.model)}_{constant_case(k.field)}_VALUES",
                values=py_tuple([py_str(v) for v in k.values]),
                doc=py_docstring(f"Documented values of {k.model}.{python_attr(k.field)}; any string is accepted."),
            )
            for k in self.fmt.known_values
        ]

    def alias_order(self) -> list[ir.Alias]:
        """Aliases after what they use, since a type alias is evaluated at import."""
        aliases = {d.name: d for d in self.fmt.definitions if isinstance(d, ir.Alias)}
        ordered: list[ir.Alias] = []

        def visit(name: str, trail: tuple[str, ...]) -> None:
            if name in trail:
                raise SpecError(self.fmt.source, pointer_of("$defs", name), f"definition {name!r} refers to itself through {' -> '.join(trail)}",
                                "break the cycle with a model (an object type)")
            alias = aliases[name]
            if alias in ordered:
                return
            for dep in ir.refs(alias.type):
                if dep in aliases:
                    visit(dep, (*trail, name))
            ordered.append(alias)

        for name in aliases:
            visit(name, ())
        return ordered

    def module(self) -> str:
        fmt = self.fmt
        enums = [
            EnumView(
                name=e.name,
                doc=py_docstring(e.description or e.name),
                literal="Literal[" + ", ".join(py_str(v) for v in e.values) + "]",
                values_const=f"{constant_case(e.name)}_VALUES",
                values=py_tuple([py_str(v) for v in e.values]),
            )
            for e in fmt.definitions if isinstance(e, ir.Enum)
        ]
        models = [self.model_view(m, i) for i, m in enumerate(fmt.models)]
        aliases = [AliasView(a.name, py_docstring(a.description or a.name), self.annotation(a.type)) for a in self.alias_order()]
        named_parsers = [
            (self.parser_const(e.name), f"_rt.string({py_dict(e.messages)}, enum=frozenset({constant_case(e.name)}_VALUES))")
            for e in fmt.definitions if isinstance(e, ir.Enum)
        ]
        named_parsers += [(self.parser_const(a.name), self.parser(a.type)) for a in self.alias_order()]
        root = fmt.definition(fmt.root)
        behaviour_imports = self.parts.imports
        behaviour = "\n\n".join(part for part in (self.behaviour_constants(), self.parts.module) if part)
        code = TEMPLATES.render(
            "python/module.py.j2",
            header=header(fmt.source, self.behaviour.source("python") if self.behaviour else None),
            fmt=fmt,
            doc=py_docstring(f"{fmt.title} (format {fmt.id}, version {fmt.version}).\n\n{fmt.description}"),
            enums=enums,
            aliases=aliases,
            models=models,
            known_values=self.known_values(),
            named_parsers=named_parsers,
            field_parsers=self.parsers,
            root=root.name,
            root_parse_fn=self.parse_fn(root.name),
            api_parse=f"parse_{fmt.id}_from_json",
            api_validate=f"validate_{snake_case(root.name)}",
            uses_datetime=any(isinstance(t, ir.DateTimeType) for t in all_types(fmt)),
            exports=sorted({*(e.name for e in enums), *(e.values_const for e in enums), *(a.name for a in aliases),
                            *(m.name for m in models), *(k.const for k in self.known_values())})
            + ["FORMAT_ID", "VERSION", "ValidationError", f"parse_{fmt.id}_from_json", f"validate_{snake_case(root.name)}"]
            + public_names(behaviour),
            behaviour=behaviour,
            behaviour_imports=behaviour_imports,
        )
        for name, first, second in python_top_level_clashes(code)[:1]:
            raise clash_error(self.fmt, "Python", name, f"{first}, and {second}")
        return format_python(code)


def public_names(code: str) -> list[str]:
    """Top-level functions, classes and constants a behaviour block defines, for __all__."""
    return re.findall(r"^(?:def |class )?([A-Za-z][A-Za-z0-9_]*)(?:\(|:| =)", code, flags=re.M)


def children_of(t: ir.TypeRef) -> tuple[ir.TypeRef, ...]:
    if isinstance(t, ir.ListType):
        return (t.item,)
    if isinstance(t, ir.MapType):
        return (t.value,)
    if isinstance(t, ir.NullableType):
        return (t.inner,)
    if isinstance(t, ir.TupleType):
        return t.items
    if isinstance(t, ir.UnionType):
        return t.variants
    return ()


def all_types(fmt: ir.Format) -> list[ir.TypeRef]:
    roots: list[ir.TypeRef] = []
    for d in fmt.definitions:
        if isinstance(d, ir.Model):
            roots.extend(f.type for f in d.fields)
        elif isinstance(d, ir.Alias):
            roots.append(d.type)
    found: list[ir.TypeRef] = []
    while roots:
        t = roots.pop()
        found.append(t)
        roots.extend(children_of(t))
    return found


def render_package(formats: list[ir.Format], package: str, names: Mapping[str, Names],
                   behaviours: Mapping[str, Behaviour] | None = None) -> dict[str, str]:
    """Every file of generated/python/<package>/, keyed by path under generated/."""
    base = f"python/{package}"
    files = {
        f"{base}/__init__.py": format_python(TEMPLATES.render("python/init.py.j2", header=header(None), formats=formats, package=package)),
        f"{base}/_runtime.py": runtime.python_runtime(),
        f"{base}/py.typed": "",
    }
    for fmt in formats:
        files[f"{base}/{fmt.id}.py"] = PythonModule(fmt, names[fmt.id], (behaviours or {}).get(fmt.id)).module()
    return files

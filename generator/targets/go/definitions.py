"""The views of one format's definitions: enums, model structs with their parse steps, unions, tuples, aliases."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from dataclasses import replace

from generator import ir
from generator.errors import pointer_of
from generator.naming import Names, alias_hint
from generator.targets.go.direct import DirectReaders, variant_match
from generator.targets.go.encoders import Encoders
from generator.targets.go.fastchecks import FastChecks
from generator.targets.go.literals import go_comment, go_str, json_tag
from generator.targets.go.names import INLINE_TYPES, param_name
from generator.targets.go.parsers import Parsers
from generator.targets.go.rules import reads, rule_step
from generator.targets.go.types import GoTypes, pointer
from generator.targets.go.views import (
    AliasView,
    ConstructorView,
    ConstView,
    Default,
    EnumView,
    FastTuple,
    FastUnion,
    FieldStep,
    FieldView,
    GoType,
    KnownView,
    ModelView,
    Setting,
    Step,
    TupleItemView,
    TupleView,
    UnionView,
    VariantView,
)


class Definitions:
    """Builds the views of one format's definitions, once; inline unions and tuples join them as they are met."""

    def __init__(self, fmt: ir.Format, names: Names, behaviour_fields: Callable[[str], str]) -> None:
        self.fmt = fmt
        self.names = names
        self.behaviour_fields = behaviour_fields  # model name -> the fields its behaviour keeps, or ""
        self.types = GoTypes(fmt, names, self.define_inline)
        self.parsers = Parsers(self.types)
        self.encoders = Encoders(self.types)
        self.fast = FastChecks(fmt, self.types, self.parsers, self.names.of_model, lambda name: list(self.names.members[name]))
        self.fast_tuples: dict[str, FastTuple] = {}
        self.fast_unions: dict[str, FastUnion] = {}
        self.unions: list[UnionView] = []
        self.tuples: list[TupleView] = []
        self.enums = [self.enum_view(e) for e in fmt.definitions if isinstance(e, ir.Enum)]
        self.models = [self.model_view(m) for m in fmt.models]
        self.fast_models = {v.name: self.fast.model(m, v, pointer_of("$defs", m.name)) for m, v in zip(fmt.models, self.models)}
        readers = DirectReaders(fmt, self.types, self.names, lambda name: self.fast_models[name].sure)
        self.direct_models, self.direct_composites, self.direct_scratches = readers.reached(self.models)
        self.aliases = [a for a in (self.alias_view(d) for d in fmt.definitions if isinstance(d, ir.Alias)) if a is not None]
        self.known = [self.known_view(k) for k in fmt.known_values]

    def define_inline(self, name: str, t: ir.UnionType | ir.TupleType, where: str) -> None:
        match t:
            case ir.UnionType():
                self.unions.append(self.union_view(name, t, (), where))
            case ir.TupleType():
                self.tuples.append(self.tuple_view(name, t, (), where))
            case _:
                raise AssertionError(f"only unions and tuples are declared inline, not {t.kind!r}")

    def enum_view(self, enum: ir.Enum) -> EnumView:
        consts: list[ConstView] = []
        for value in enum.values:
            name = self.names.constants[enum.name, value]
            consts.append(ConstView(name, value, go_comment(f"{name} is the value {json.dumps(value, ensure_ascii=False)}.", "\t")))
        self.parsers.enum(enum)
        return EnumView(
            name=enum.name,
            doc=go_comment(f"{enum.name}: {enum.description}" if enum.description else f"{enum.name} is an enumeration."),
            consts=tuple(consts),
            open=enum.open,
        )

    def model_view(self, model: ir.Model) -> ModelView:
        fields: list[FieldView] = []
        field_steps: list[FieldStep] = []
        steps: list[Step] = []
        ok_vars: dict[str, str] = {}  # wire -> ok variable, for fields rules read
        read_by_rules = {w for r in model.rules for w in reads(r)}
        defaults = {f.wire_name: json.dumps(f.default, ensure_ascii=False) if f.has_default else "" for f in model.fields}
        go_fields = dict(zip((f.wire_name for f in model.fields), self.names.of_model(model)))
        unions = {
            f.wire_name: go_str(f.default) if isinstance(f.default, str) else "nil"
            for f in model.fields
            if isinstance(self.fmt.underlying(f.type), ir.UnionType)
        }
        for f in model.fields:
            name = go_fields[f.wire_name]
            where = pointer_of("$defs", model.name, "properties", f.wire_name)
            hint = model.name + name
            t = f.type
            base_type = self.types.spell(t, hint, where)
            parser = self.parsers.var(f"p{model.name}_{name}", base_type, self.parsers.parser(t, hint, where))
            ok = "_"
            if f.wire_name in read_by_rules:
                ok = f"ok{name}"
                ok_vars[f.wire_name] = ok
            gotype, deref = base_type, False
            if f.required:
                kind = "required_or_null" if f.null_ok else "required"
                step = FieldStep(kind, name, ok, base_type, f.wire_name, parser, required_message=f.required_message)
                # Go's zero time means "not set", as the original IsZero checks had it.
                presence = "not_zero_time" if isinstance(t, ir.DateTimeType) else "always"
            elif f.has_default or f.default_factory:
                default = Default("uuid4") if f.default_factory == "uuid4" else default_of(f.default, self.types.takes_constant(t))
                step = FieldStep("default", name, ok, base_type, f.wire_name, parser, default=default)
                presence = "always"
            elif self.types.nilable(t):
                step = FieldStep("optional", name, ok, base_type, f.wire_name, parser)
                presence = "not_nil"
            else:
                gotype, deref = pointer(base_type), True
                step = FieldStep("optional_ptr", name, ok, base_type, f.wire_name, parser)
                presence = "not_nil"
            steps.append(step)
            field_steps.append(step)
            encode = self.encoders.encode(t, hint, where)
            steps.extend(rule_step(rule, go_fields, ok_vars, defaults, unions) for rule in model.rules if rule.after == f.wire_name)
            fields.append(
                FieldView(
                    name,
                    gotype,
                    json_tag(f.wire_name, omitempty=presence == "not_nil"),
                    go_comment(f.description or f"{name} is the {f.wire_name!r} field.", "\t"),
                    f.wire_name,
                    presence,
                    deref,
                    encode,
                )
            )
        steps.extend(rule_step(r, go_fields, ok_vars, defaults, unions) for r in model.rules if r.after is None)
        fields = [replace(v, nil_default=self.nil_default(f, v, s)) for f, v, s in zip(model.fields, fields, field_steps)]
        return ModelView(
            name=model.name,
            doc=go_comment(f"{model.name}: {model.description}" if model.description else f"{model.name} is a model of {self.fmt.id}."),
            fields=tuple(fields),
            ok_vars=tuple(ok_vars.values()),
            steps=tuple(steps),
            closed=model.closed,
            keys=tuple(f.wire_name for f in model.fields),
            type_message=model.type_message,
            unknown_message=model.unknown_message,
            behaviour_fields=self.behaviour_fields(model.name),
            constructor=self.constructor(model, fields, field_steps),
        )

    def nil_default(self, f: ir.Field, view: FieldView, step: FieldStep) -> Setting | None:
        """What toTree writes for a nil slice or map in a field whose default is a list or map that is not empty
        (an empty one is what a nil slice or map is written as anyway); None where nil stays itself, or the field
        is no slice or map (a tuple, union or model is a struct)."""
        if not f.has_default or f.null_ok or not isinstance(f.default, (list, dict)) or not f.default or view.presence != "always":
            return None
        if not self.types.nilable(f.type):
            return None
        return Setting("json", view.name, json.dumps(f.default, separators=(",", ":"), ensure_ascii=False), parser=step.parser)

    def constructor(self, model: ir.Model, fields: list[FieldView], steps: list[FieldStep]) -> ConstructorView:
        """New<Model>: a parameter per required field, the default of every other field that has one."""
        params: list[tuple[str, GoType]] = []
        sets: list[Setting] = []
        defaulted: list[str] = []
        for f, view, step in zip(model.fields, fields, steps):
            if f.constant is not None:
                sets.append(Setting("value", view.name, f.constant))  # a tag ("type": "text") has one value to give
                defaulted.append(f.wire_name)
                continue
            if f.required:
                name, n = param_name(view.name), 2
                while name in (p for p, _ in params):
                    name, n = f"{param_name(view.name)}{n}", n + 1
                params.append((name, view.type))
                sets.append(Setting("param", view.name, name))
                continue
            d = step.default  # the parser's default for the field (None: it has none)
            if d is None or (f.default is None and d.kind != "uuid4"):
                continue  # left unset: absent, or nil where a null default is nil
            if d.kind == "uuid4":
                sets.append(Setting("uuid4", view.name))
            elif d.kind == "json":
                sets.append(Setting("json", view.name, d.value, parser=step.parser))
            elif view.type.spelling.startswith("*"):
                sets.append(Setting("ptr", view.name, f.default, type=GoType(view.type.spelling[1:], view.type.packages)))
            else:
                sets.append(Setting("value", view.name, f.default))
            defaulted.append(f.wire_name)
        fresh = [f.wire_name for f in model.fields if f.default_factory == "uuid4"]
        text = f"New{model.name} returns {'an' if model.name[0] in 'AEIOU' else 'a'} {model.name} holding the required fields given"
        if defaulted:
            text += f", and the spec's constant or default of {', '.join(defaulted)}"
            text += f" (a fresh UUID4 for {', '.join(fresh)})" if fresh else ""
        text += "; an optional field without a default is left unset."
        return ConstructorView(f"New{model.name}", tuple(params), tuple(sets), go_comment(textwrap.fill(text, 100)))

    def union_view(self, name: str, t: ir.UnionType, doc: tuple[str, ...], where: str) -> UnionView:
        variants: list[VariantView] = []
        for v, selector, field in zip(t.variants, t.tags or t.json_kinds, self.names.members[name]):
            hint = name + field
            value_type = self.types.spell(v, hint, where)
            stored_as_pointer = not self.types.nilable(v)
            cases = variant_match(t, selector)
            parser = self.parsers.var(f"p{name}_{field}", value_type, self.parsers.parser(v, hint, where))
            described = f"when {t.discriminator!r} is {selector!r}" if t.discriminator else f"when the value is a JSON {selector}"
            variants.append(
                VariantView(
                    field=field,
                    type=pointer(value_type) if stored_as_pointer else value_type,
                    doc=go_comment(f"{field} is set {described}.", "\t"),
                    match=cases,
                    parser=parser,
                    pointer=stored_as_pointer,
                    encode=self.encoders.encode(v, hint, where),
                )
            )
        self.fast_unions[name] = self.fast.union_check(name, t, [v.field for v in variants], [v.pointer for v in variants], where)
        return UnionView(
            name=name,
            doc=doc or go_comment(f"{name} is one of several shapes; exactly one field is set."),
            variants=tuple(variants),
            discriminator=t.discriminator or None,
            type_message=t.messages.get("type", ""),
            missing_message=t.messages.get("discriminator", ""),
            value_message=t.messages.get("discriminatorValue", ""),
            kind_message=t.messages.get("oneOf", ""),
            open=t.open,
        )

    def tuple_view(self, name: str, t: ir.TupleType, doc: tuple[str, ...], where: str) -> TupleView:
        items: list[TupleItemView] = []
        for i, (item, field) in enumerate(zip(t.items, self.names.members[name])):
            hint = name + field
            gotype = self.types.spell(item, hint, where)
            parser = self.parsers.var(f"p{name}_{field}", gotype, self.parsers.parser(item, hint, where))
            items.append(
                TupleItemView(
                    field, gotype, go_comment(f"{field} is item {i} of the array.", "\t"), parser, self.encoders.encode(item, hint, where)
                )
            )
        self.fast_tuples[name] = self.fast.tuple_check(name, t, [i.field for i in items], where)
        return TupleView(
            name, doc or go_comment(f"{name} is a fixed-length array."), tuple(items), t.messages["type"], t.messages["prefixItems"]
        )

    def alias_view(self, alias: ir.Alias) -> AliasView | None:
        """The view of an alias; a union or tuple alias is declared as a union or tuple instead (None)."""
        where = pointer_of("$defs", alias.name)
        doc = go_comment(f"{alias.name}: {alias.description}" if alias.description else f"{alias.name} is a named type.")
        match alias.type:
            case ir.UnionType():
                self.unions.append(self.union_view(alias.name, alias.type, doc, where))
                return None
            case ir.TupleType():
                self.tuples.append(self.tuple_view(alias.name, alias.type, doc, where))
                return None
        hint = alias_hint(alias, INLINE_TYPES)
        gotype = self.types.spell(alias.type, hint, where)
        parser = self.parsers.var(f"p{alias.name}", gotype, self.parsers.parser(alias.type, hint, where))
        return AliasView(alias.name, doc, gotype, parser)

    def known_view(self, known: ir.KnownValues) -> KnownView:
        model = self.fmt.definition(known.model)
        assert isinstance(model, ir.Model)
        field = dict(zip((f.name for f in model.fields), self.names.of_model(model)))[known.field]
        name = f"{known.model}{field}Values"
        return KnownView(
            name, known.values, go_comment(f"{name} lists the documented values of {known.model}.{field}; any string is accepted.")
        )


def default_of(value: object, constant: bool) -> Default:
    """The default of an optional field, by its JSON value: a Go constant where the field's type takes one (constant),
    else built by the field's parser from its JSON text (containers anew for every value; a scalar of a union, e.g.
    "hi" of a string-or-list, is a struct)."""
    match value:
        case bool() if constant:
            return Default("bool", value)
        case int() | float() if constant:
            return Default("number", value)
        case str() if constant:
            return Default("string", value)
        case _:
            return Default("json", json.dumps(value, separators=(",", ":"), ensure_ascii=False))

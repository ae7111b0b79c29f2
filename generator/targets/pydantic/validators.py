"""What pydantic cannot state, added to datamodel-code-generator's classes as model validators:
the spec rules (templates/pydantic/rule.py.j2, because pydantic has no if/then or contains,
and rules such as "speaker in people" are no JSON Schema at all), null for optional fields
that are not nullable, and uniqueItems. (They are added to the generated classes rather
than through a custom model template: in 0.89.0 a custom template loses the built-in
docstring formatting.)
"""

from __future__ import annotations

import ast
import textwrap
from collections import defaultdict

from generator import ir
from generator.errors import SpecError, pointer_of
from generator.pyregex import checks_const
from generator.render import Templates, unknown_kind

# The templates under templates/pydantic/ this target renders, with the filters they use.
TEMPLATES = Templates(pystr=repr, unknown=unknown_kind)

# The rule kinds templates/pydantic/rule.py.j2 has a validator for.
RULE_KINDS = frozenset({"member_of", "required_when", "at_least_one_of", "allowed_when", "contains", "compare"})


def rule_owner(fmt: ir.Format, model: ir.Model, rule: ir.Rule) -> tuple[str, str | None]:
    """The model whose validator can see what the rule reads, and the list field leading to `model`.

    A member_of rule with a relative pointer ("2/people" on a message) reads its
    ancestor; pydantic validates a model without its parent, so the check moves up.
    """
    if rule.up == 0:
        return model.name, None
    for owner in fmt.models:
        for f in owner.fields:
            t = ir.unwrap_nullable(f.type)
            if rule.up == 2 and isinstance(t, ir.ListType) and isinstance(t.item, ir.Ref) and t.item.name == model.name:
                return owner.name, f.wire_name
    raise SpecError(
        fmt.source,
        pointer_of("$defs", model.name, "x-rules"),
        f"the pydantic target cannot place a {rule.kind} rule that looks {rule.up} level(s) up",
        "use a pointer into the model itself, or into the model holding a list of it (2 levels up)",
    )


def null_message(fmt: ir.Format, t: ir.TypeRef) -> str:
    """What the dataclasses say when a field of type t is null: its type message."""
    match t:
        case ir.Ref():
            definition = fmt.definition(t.name)
            match definition:
                case ir.Model():
                    return definition.type_message
                case ir.Alias():
                    return null_message(fmt, definition.type)
                case ir.Enum():
                    return definition.messages.get("type", "must not be null")
                case _:
                    raise AssertionError(f"no null message for the definition kind {definition.kind!r}")
        case ir.NullableType():
            return "must not be null"
        case (
            ir.StringType()
            | ir.DateTimeType()
            | ir.BytesType()
            | ir.NumericType()
            | ir.BooleanType()
            | ir.AnyType()
            | ir.ListType()
            | ir.TupleType()
            | ir.MapType()
            | ir.UnionType()
        ):
            return t.messages.get("type") or t.messages.get("oneOf") or "must not be null"
        case _:
            raise AssertionError(f"no null message for the IR type {t.kind!r}")


def not_nullable_optionals(fmt: ir.Format, model: ir.Model) -> dict[str, str]:
    """Wire name -> message of each optional field without a default that null does not fit.

    datamodel-code-generator types such a field `X | None = None` (strict_nullable
    only covers fields with a default), which would accept an explicit null.
    """
    out = {}
    for f in model.fields:
        t = f.type
        while isinstance(t, ir.Ref) and isinstance(alias := fmt.definition(t.name), ir.Alias):
            t = alias.type
        # (A JSON value's type holds null; a schema applied as written says itself whether it takes null.)
        if not f.required and not f.has_default and not isinstance(t, (ir.NullableType, ir.AnyType)):
            out[f.wire_name] = null_message(fmt, f.type)
    return out


def unique_lists(fmt: ir.Format, model: ir.Model) -> dict[str, str]:
    """Wire name -> message of each array field with uniqueItems (datamodel-code-generator
    types it list[...] without the check)."""
    out = {}
    for f in model.fields:
        t = ir.unwrap_nullable(f.type)
        while isinstance(t, ir.Ref) and isinstance(alias := fmt.definition(t.name), ir.Alias):
            t = ir.unwrap_nullable(alias.type)
        if isinstance(t, ir.ListType) and t.unique_items:
            out[f.wire_name] = t.messages.get("uniqueItems", "must not contain duplicate items")
    return out


def applied_walk(fmt: ir.Format, t: ir.TypeRef, where: str) -> str | None:
    """Where a schema applied as written (or a string's format, which chatspec checks: pydantic's own format types
    give other verdicts) is inside a field's type, as _check_applied walks it (a Python literal); None where there is none. A named definition's own class checks it (a model, or the RootModel of an alias).
    """
    match t:
        case ir.AnyType(checks=ir.Checks() as checks):
            return f"({'checks'!r}, {checks_const(checks.digest)}, {dict(t.messages)!r})"
        case ir.StringType(checked_format=str() as name):
            return f"({'format'!r}, {name!r}, {t.messages['format']!r})"
        case ir.NumericType() | ir.BooleanType() if t.const is not None or t.enum is not None:
            # A number's or a boolean's const and enum, by the runtime's own parser (pydantic's strict type is checked
            # first; its Literal and IntEnum would accept 1 for true and true for 1).
            kind = "boolean" if isinstance(t, ir.BooleanType) else "integer" if t.integer else "number"
            values = (f", const={t.const!r}" if t.const is not None else "") + (
                f", enum=frozenset({t.enum!r})" if t.enum is not None else ""
            )
            return f"({'parser'!r}, _rt.{kind}({dict(t.messages)!r}{values}))"
        case ir.ListType() | ir.MapType() | ir.NullableType():
            inner = applied_walk(fmt, ir.children(t)[0], where)
            return None if inner is None else f"({t.kind!r}, {inner})"
        case ir.TupleType() if any(applied_walk(fmt, c, where) is not None for c in t.items):
            return f"({'tuple'!r}, ({''.join(f'{applied_walk(fmt, c, where)}, ' for c in t.items)}))"
        case ir.UnionType(json_kinds=tuple() as kinds) if kinds and any(applied_walk(fmt, c, where) for c in t.variants):
            # A union by JSON type: the variant the value's JSON type picks.
            pairs = "".join(f"({k!r}, {applied_walk(fmt, c, where)}), " for k, c in zip(kinds, t.variants))
            return f"({'union'!r}, ({pairs}))"
        case ir.UnionType() if any(applied_walk(fmt, c, where) is not None for c in ir.children(t)):
            raise SpecError(
                fmt.source,
                where,
                "the pydantic target cannot yet check a schema applied as written or a string's format inside a discriminated union",
                "name the schema in $defs and $ref it from there",
            )
        case _:
            return None


def applied(fmt: ir.Format) -> dict[str, str]:
    """The validator of each class holding a schema applied as written: a model's fields, an alias's RootModel."""
    out = {}
    for d in fmt.definitions:
        if isinstance(d, ir.Model):
            walks = [
                (f.wire_name, w)
                for f in d.fields
                if (w := applied_walk(fmt, f.type, pointer_of("$defs", d.name, "properties", f.wire_name)))
            ]
            if walks:
                listed = "(" + "".join(f"({name!r}, {w}), " for name, w in walks) + ")"
                out[d.name] = TEMPLATES.render("pydantic/applied.py.j2", root=False, walks=listed).rstrip("\n")
        elif isinstance(d, ir.Alias) and (w := applied_walk(fmt, d.type, pointer_of("$defs", d.name))):
            out[d.name] = TEMPLATES.render("pydantic/applied.py.j2", root=True, walk=w).rstrip("\n")
    return out


def validators(fmt: ir.Format) -> dict[str, list[str]]:
    """The validator methods to add to each model, by class name."""
    methods: dict[str, list[str]] = defaultdict(list)
    for model in fmt.models:
        for rule in model.rules:
            if rule.kind not in RULE_KINDS:
                raise AssertionError(f"no pydantic validator for the rule kind {rule.kind!r}")
            owner, via = rule_owner(fmt, model, rule)
            index = len(methods[owner])
            methods[owner].append(
                TEMPLATES.render(
                    "pydantic/rule.py.j2",
                    rule=rule,
                    index=index,
                    depth=rule.up,
                    via=via,
                    field=rule.fields[0],
                    pool=rule.pointer,
                    defaults=tuple(next(f.default for f in model.fields if f.wire_name == w) for w in rule.fields),
                    message=rule.message,
                    doc=f"{rule.kind} rule of {model.name}: {rule.message}".replace('"""', "'''").replace("\\", "\\\\"),
                ).rstrip("\n")
            )
    for model in fmt.models:
        if fields := not_nullable_optionals(fmt, model):
            methods[model.name].append(TEMPLATES.render("pydantic/not_null.py.j2", fields=fields).rstrip("\n"))
        if fields := unique_lists(fmt, model):
            methods[model.name].append(TEMPLATES.render("pydantic/unique.py.j2", fields=fields).rstrip("\n"))
    for name, method in applied(fmt).items():
        methods[name].append(method)
    return dict(methods)


def add_methods(code: str, methods: dict[str, list[str]]) -> str:
    """Append methods to the bodies of the named top-level classes."""
    lines = code.split("\n")
    classes = [n for n in ast.parse(code).body if isinstance(n, ast.ClassDef) and n.name in methods]
    for node in sorted(classes, key=lambda n: n.lineno, reverse=True):
        assert node.end_lineno is not None
        body = "\n\n".join(textwrap.indent(m, "    ") for m in methods[node.name])
        lines[node.end_lineno : node.end_lineno] = ["", body]
    missing = set(methods) - {n.name for n in classes}
    assert not missing, f"no generated class for {missing}"
    return "\n".join(lines)

"""Parse views: the runtime combinator of each IR type, each field's parse call, each rule's check."""

from __future__ import annotations

from generator import ir, pyregex
from generator.naming import constant_case, snake_case
from generator.pyliterals import py_str
from generator.pyregex import matcher
from generator.targets.python.views import Default, Parser, RuleView


def parse_fn(model: str) -> str:
    """A model's parse function, e.g. "_parse_chat_event"."""
    return f"_parse_{snake_case(model)}"


def parser_const(*parts: str) -> str:
    """A parser constant, e.g. "_P_CHAT_EVENT_ROLE"."""
    return "_P_" + "_".join(constant_case(p) for p in parts)


def checks_const(checks: ir.Checks) -> str:
    """The module constant of a schema applied as written, e.g. _CHECKS_3f2a9c1b07de."""
    return pyregex.checks_const(checks.digest)


def checks_expr(checks: ir.Checks) -> str:
    """The expression that compiles a schema's checks once, at import, with its patterns."""
    return pyregex.checks_expr(checks.text, checks.patterns)


def parser(t: ir.TypeRef) -> Parser:
    """The runtime combinator that parses a value of type t."""
    match t:
        case ir.DateTimeType():
            return Parser("scalar", t, name="date_time")
        case ir.BytesType():
            return Parser("scalar", t, name="base64_bytes")
        case ir.StringType():
            return Parser("string", t, pattern=matcher(t.pattern) if t.pattern is not None else None)
        case ir.NumericType():
            return Parser("number", t)
        case ir.BooleanType():
            return Parser("boolean", t)
        case ir.AnyType(checks=ir.Checks() as checks):
            return Parser("checks", t, name=checks_const(checks))
        case ir.AnyType():
            return Parser("scalar", t, name="any_json")
        case ir.ListType():
            return Parser("list", t, (parser(t.item),))
        case ir.TupleType():
            return Parser("tuple", t, tuple(parser(i) for i in t.items))
        case ir.MapType():
            return Parser("map", t, (parser(t.value),))
        case ir.NullableType():
            return Parser("nullable", t, (parser(t.inner),))
        case ir.UnionType():
            return Parser("union", t, tuple(parser(v) for v in t.variants))
        case ir.Ref(target="model"):
            return Parser("ref", None, name=parse_fn(t.name))
        case ir.Ref(target="enum" | "alias"):
            return Parser("ref", None, name=parser_const(t.name))
        case _:
            raise AssertionError(f"no Python parser for the IR type {t.kind!r}")


def enum_parser(e: ir.Enum, values_const: str) -> Parser:
    """A named enum's parser: a string among its values constant, e.g. ROLE_VALUES."""
    return Parser("enum", e, name=values_const)


def default(f: ir.Field, fmt: ir.Format, fn: str = "") -> Default:
    """What the field holds when its key is absent (the dataclass default and the parse call's); fn: the function
    that builds a default that is not plain JSON (models, tuples) from its JSON."""
    match f:
        case ir.Field(required=True):
            return Default("required")
        case ir.Field(default_factory="uuid4"):
            return Default("uuid4")
        case ir.Field(has_default=True, default=dict() | list() as value) if fmt.built_default(f.type, value):
            return Default("parsed", value, fn)
        case ir.Field(has_default=True, default=dict() | list() as value):
            return Default("copy" if value else "empty", value)
        case ir.Field(has_default=True, default=value) if value is not None:
            return Default("value", value)
        case ir.Field(default_factory=None):
            return Default("none")
        case _:
            raise AssertionError(f"no Python default for the factory {f.default_factory!r}")


def rule_view(rule: ir.Rule, locals_by_wire: dict[str, str], fields: dict[str, ir.Field]) -> RuleView:
    """The check a rule runs in the parse function, with the locals of the fields it reads (fields: the model's, by wire name)."""
    defaults: tuple[str, ...] = ()
    match rule.kind:
        case "member_of" | "at_least_one_of" | "contains":
            pass
        case "required_when" | "allowed_when":
            assert rule.when is not None, f"a {rule.kind} rule without its when clause"
        case "compare":
            # An absent side compares as its default, a JSON scalar as the spec spells it (1.0 stays a float,
            # which {value} shows as "1.0"); None: nothing to compare.
            defaults = tuple(py_str(d) if isinstance(d, str) else repr(d) for d in (fields[w].default for w in rule.fields))
        case _:
            raise AssertionError(f"no Python check for the rule kind {rule.kind!r}")
    return RuleView(rule, tuple(locals_by_wire[w] for w in rule.fields), rule.kind, defaults)

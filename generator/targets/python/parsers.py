"""Parse views: the runtime combinator of each IR type, each field's parse call, each rule's check."""

from __future__ import annotations

from generator import ir
from generator.naming import constant_case, snake_case
from generator.patterns import to_python
from generator.targets.python.views import (
    Default, EnumParser, ListParser, MapParser, NullableParser, NumberParser, Parser, RefParser, RuleView, ScalarParser,
    StringParser, TupleParser, UnionParser,
)


def parse_fn(model: str) -> str:
    """A model's parse function, e.g. "_parse_chat_event"."""
    return f"_parse_{snake_case(model)}"


def parser_const(*parts: str) -> str:
    """A parser constant, e.g. "_P_CHAT_EVENT_ROLE"."""
    return "_P_" + "_".join(constant_case(p) for p in parts)


def parser(t: ir.TypeRef) -> Parser:
    """The runtime combinator that parses a value of type t."""
    match t:
        case ir.DateTimeType():
            return ScalarParser("date_time", t.messages)
        case ir.BytesType():
            return ScalarParser("base64_bytes", t.messages)
        case ir.StringType():
            pattern = to_python(t.pattern) if t.pattern is not None else None
            return StringParser(t.messages, t.min_length, t.max_length, pattern, t.enum, t.const)
        case ir.NumericType():
            return NumberParser(t.messages, t.integer, t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum)
        case ir.BooleanType():
            return ScalarParser("boolean", t.messages)
        case ir.AnyType():
            return ScalarParser("any_json", t.messages)
        case ir.ListType():
            return ListParser(parser(t.item), t.messages, t.min_items, t.max_items, t.unique_items)
        case ir.TupleType():
            return TupleParser(tuple(parser(i) for i in t.items), t.messages)
        case ir.MapType():
            return MapParser(parser(t.value), t.messages)
        case ir.NullableType():
            return NullableParser(parser(t.inner))
        case ir.UnionType():
            keys = t.tags if t.discriminator is not None else t.json_kinds
            return UnionParser(t.discriminator, tuple(zip(keys, (parser(v) for v in t.variants))), t.messages)
        case ir.Ref(target="model"):
            return RefParser(parse_fn(t.name))
        case ir.Ref(target="enum" | "alias"):
            return RefParser(parser_const(t.name))
        case _:
            raise AssertionError(f"no Python parser for the IR type {t.kind!r}")


def enum_parser(e: ir.Enum, values_const: str) -> EnumParser:
    return EnumParser(e.messages, values_const)


def default(f: ir.Field) -> Default:
    """What the field holds when its key is absent (the dataclass default and the parse call's)."""
    match f:
        case ir.Field(required=True):
            return Default("required")
        case ir.Field(default_factory="uuid4"):
            return Default("uuid4")
        case ir.Field(has_default=True, default=dict() | list() as value):
            return Default("copy" if value else "empty", value)
        case ir.Field(has_default=True, default=value) if value is not None:
            return Default("value", value)
        case ir.Field(default_factory=None):
            return Default("none")
        case _:
            raise AssertionError(f"no Python default for the factory {f.default_factory!r}")


def rule_view(rule: ir.Rule, locals_by_wire: dict[str, str]) -> RuleView:
    """The check a rule runs in the parse function, with the locals of the fields it reads."""
    match rule.kind:
        case "member_of" | "at_least_one_of" | "contains":
            pass
        case "required_when" | "allowed_when":
            assert rule.when is not None, f"a {rule.kind} rule without its when clause"
        case _:
            raise AssertionError(f"no Python check for the rule kind {rule.kind!r}")
    return RuleView(rule, tuple(locals_by_wire[w] for w in rule.fields), rule.kind)

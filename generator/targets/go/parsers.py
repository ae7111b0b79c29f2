"""Parsers: the rt.Parser[T] value that reads and checks a tree value of an IR type."""

from __future__ import annotations

from generator import ir
from generator.errors import SpecError
from generator.patterns import PatternError
from generator.targets.go.names import INLINE_TYPES
from generator.targets.go.regex import to_go
from generator.targets.go.types import GoTypes
from generator.targets.go.views import (
    BooleanParser,
    ChecksParser,
    ChecksVar,
    EnumParser,
    GoType,
    ListParser,
    MapParser,
    NamedParser,
    NullableParser,
    NumberParser,
    Parser,
    ParserVar,
    ScalarParser,
    StringParser,
)


class Parsers:
    """The parsers of one package, and the package variables that hold them."""

    def __init__(self, types: GoTypes) -> None:
        self.types = types
        self.vars: list[ParserVar] = []
        self.checks: dict[str, ChecksVar] = {}  # digest -> the package variable of a schema applied as written

    def checks_var(self, checks: ir.Checks) -> str:
        """The package variable holding a schema applied as written, compiled once (its parser and Validate's fast
        check share it)."""
        name = f"checks{checks.digest}"
        if checks.digest not in self.checks:
            patterns = tuple(str(self.pattern(p, checks.pointer)) for p in checks.patterns)
            self.checks[checks.digest] = ChecksVar(name, checks.text, patterns)
        return name

    def parser(self, t: ir.TypeRef, hint: str, where: str) -> Parser:
        """The parser of t; hint and where as for GoTypes.spell."""
        match t:
            case ir.DateTimeType():
                return ScalarParser("date_time", t.messages)
            case ir.BytesType():
                return ScalarParser("bytes", t.messages)
            case ir.StringType():
                return StringParser(
                    t.messages, t.min_length, t.max_length, self.pattern(t.pattern, where), t.enum, t.const, t.checked_format
                )
            case ir.NumericType():
                return NumberParser(
                    t.messages, t.integer, t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum, t.multiple_of, t.const, t.enum
                )
            case ir.BooleanType(const=None, enum=None):
                return ScalarParser("bool", t.messages)
            case ir.BooleanType():
                return BooleanParser(t.messages, t.const, t.enum)
            case ir.AnyType(checks=ir.Checks() as checks):
                return ChecksParser(self.checks_var(checks), t.messages)
            case ir.AnyType():
                return ScalarParser("any", t.messages)
            case ir.ListType():
                item = INLINE_TYPES.item(hint)
                return ListParser(
                    self.types.spell(t.item, item, where),
                    self.parser(t.item, item, where),
                    t.messages,
                    t.min_items,
                    t.max_items,
                    t.unique_items,
                )
            case ir.MapType():
                value = INLINE_TYPES.value(hint)
                return MapParser(self.types.spell(t.value, value, where), self.parser(t.value, value, where), t.messages)
            case ir.NullableType():
                inner_type = self.types.spell(t.inner, hint, where)
                return NullableParser(inner_type, self.parser(t.inner, hint, where), self.types.nilable(t.inner))
            case ir.UnionType() | ir.TupleType():
                return NamedParser(self.types.inline_named(t, hint, where))
            case ir.Ref():
                return NamedParser(t.name)
            case _:
                raise AssertionError(f"the Go target has no parser for IR kind {t.kind!r}")

    def pattern(self, pattern: str | None, where: str) -> str | None:
        """The pattern in Go's regexp syntax."""
        if pattern is None:
            return None
        try:
            return to_go(pattern)
        except PatternError as exc:
            raise SpecError(self.types.fmt.source, where + "/pattern", str(exc), "rewrite the pattern without it") from None

    def var(self, name: str, gotype: GoType, parser: Parser) -> str:
        """What Go code calls to run the parser: a parse function by its name, any other parser kept in a package variable."""
        if isinstance(parser, NamedParser):
            return f"parse{parser.type}"
        self.vars.append(ParserVar(name, gotype, parser))
        return name

    def enum(self, enum: ir.Enum) -> None:
        """The parser of an enum's type, kept in p<Enum> (its parse function calls it)."""
        self.vars.append(ParserVar(f"p{enum.name}", GoType(enum.name), EnumParser(enum.name, enum.messages, enum.values, enum.open)))

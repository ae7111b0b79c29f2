"""IR type -> Go type spelling.

A union or tuple written inline in a field gets a named Go type of its own, named by the
naming pass (Names.inline_types); `define` builds its declaration when first met.
"""

from __future__ import annotations

from collections.abc import Callable

from generator import ir
from generator.naming import Names
from generator.targets.go.names import INLINE_TYPES
from generator.targets.go.views import GoType

TIME = GoType("time.Time", frozenset({"time"}))


def _wrap(prefix: str, inner: GoType) -> GoType:
    return GoType(prefix + inner.spelling, inner.packages)


def pointer(t: GoType) -> GoType:
    """*T."""
    return _wrap("*", t)


class GoTypes:
    """The Go types of one format's package."""

    def __init__(self, fmt: ir.Format, names: Names, define: Callable[[str, ir.UnionType | ir.TupleType, str], None]) -> None:
        self.fmt = fmt
        self.names = names
        self.defs = {d.name: d for d in fmt.definitions}
        self.define = define  # builds the declaration of an inline union or tuple: (name, type, where)
        self.defined: set[str] = set()

    def nilable(self, t: ir.TypeRef) -> bool:
        """Whether the Go zero value of the type is nil (so no pointer is needed to tell absence)."""
        match t:
            case ir.ListType() | ir.MapType() | ir.AnyType() | ir.BytesType() | ir.NullableType():
                return True
            case ir.Ref(target="alias"):
                alias = self.defs[t.name]
                assert isinstance(alias, ir.Alias)
                return not isinstance(alias.type, (ir.UnionType, ir.TupleType)) and self.nilable(alias.type)
            case ir.Ref() | ir.StringType() | ir.DateTimeType() | ir.NumericType() | ir.BooleanType() | ir.UnionType() | ir.TupleType():
                return False
            case _:
                raise AssertionError(f"the Go target has no type for IR kind {t.kind!r}")

    def takes_constant(self, t: ir.TypeRef) -> bool:
        """Whether a Go constant (a JSON string, number or boolean) is a value of the type, or of what its pointer
        points to: a string, number, boolean or enum, or an alias of one. A union or tuple is a struct."""
        match t:
            case ir.StringType() | ir.NumericType() | ir.BooleanType() | ir.Ref(target="enum"):
                return True
            case ir.NullableType():
                return self.takes_constant(t.inner)
            case ir.Ref(target="alias"):
                alias = self.defs[t.name]
                assert isinstance(alias, ir.Alias)
                return not isinstance(alias.type, (ir.UnionType, ir.TupleType)) and self.takes_constant(alias.type)
            case _:
                return False

    def spell(self, t: ir.TypeRef, hint: str, where: str) -> GoType:
        """The Go type of a value of t; hint names an inline union or tuple (e.g. "ChatMessageContent")."""
        match t:
            case ir.StringType():
                return GoType("string")
            case ir.BytesType():
                return GoType("[]byte")
            case ir.NumericType():
                return GoType("int64" if t.integer else "float64")
            case ir.BooleanType():
                return GoType("bool")
            case ir.DateTimeType():
                return TIME
            case ir.AnyType():
                return GoType("any")
            # Go's type checker gives up past 48 levels of slices, maps and pointers; lowering refuses a type
            # past nesting.MAX_LEVELS levels of arrays and maps, so a Go type here has at most one more (a pointer).
            case ir.ListType():
                return _wrap("[]", self.spell(t.item, INLINE_TYPES.item(hint), where))
            case ir.MapType():
                return _wrap("map[string]", self.spell(t.value, INLINE_TYPES.value(hint), where))
            case ir.NullableType():
                inner = self.spell(t.inner, hint, where)
                return inner if self.nilable(t.inner) else pointer(inner)
            case ir.UnionType() | ir.TupleType():
                return GoType(self.inline_named(t, hint, where))
            case ir.Ref():
                return GoType(t.name)
            case _:
                raise AssertionError(f"the Go target has no type for IR kind {t.kind!r}")

    def inline_named(self, t: ir.UnionType | ir.TupleType, name: str, where: str) -> str:
        """The Go type of a union or tuple written inline, named after where it sits (e.g. ChatMessageContent)."""
        assert self.names.inline_types.get(name) is not None, f"the naming pass did not name the inline type {name!r} at {where}"
        if name not in self.defined:
            self.defined.add(name)
            self.define(name, t, where)
        return name

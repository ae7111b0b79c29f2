"""Encoders: how a Go value of an IR type becomes the tree value its parser reads (toTree)."""

from __future__ import annotations

from generator import ir
from generator.naming import alias_hint
from generator.targets.go.names import INLINE_TYPES
from generator.targets.go.types import GoTypes
from generator.targets.go.views import Encode, GoType, TreeFunc, TreeHelper


class Encoders:
    """The encoders of one package, and the tree helper functions they need (one per hint)."""

    def __init__(self, types: GoTypes) -> None:
        self.types = types
        self.helpers: dict[str, TreeHelper | None] = {}  # name -> helper; None while it is being built
        self.named: dict[tuple[str, str], str] = {}  # (hint, Go type) -> the helper's name

    def encode(self, t: ir.TypeRef, hint: str, where: str, null: bool = False) -> Encode:
        """How a value of t becomes a tree value. A nil slice, map or []byte is empty (as it is in Go), but null
        where null is a value of the type (null: the type is the inner type of a nullable one)."""
        match t:
            case ir.StringType() | ir.NumericType() | ir.BooleanType():
                return Encode("same")
            case ir.ListType():
                return Encode("null_list" if null else "list", self.func(t.item, INLINE_TYPES.item(hint), where))
            case ir.MapType():
                return Encode("null_map" if null else "map", self.func(t.value, INLINE_TYPES.value(hint), where))
            case ir.DateTimeType():
                return Encode("time")
            case ir.BytesType():
                return Encode("null_bytes" if null else "bytes")
            case ir.AnyType():
                return Encode("any")
            case ir.NullableType():
                if self.types.nilable(t.inner):
                    return self.encode(t.inner, hint, where, null=True)
                return Encode("ptr", self.func(t.inner, hint, where))
            case ir.UnionType() | ir.TupleType():
                return Encode("method")
            case ir.Ref():
                target = self.types.defs[t.name]
                if isinstance(target, ir.Enum):
                    return Encode("enum")
                if isinstance(target, ir.Alias) and not isinstance(target.type, (ir.UnionType, ir.TupleType)):
                    return self.encode(target.type, alias_hint(target, INLINE_TYPES), where, null)
                return Encode("method")
            case _:
                raise AssertionError(f"the Go target has no encoder for IR kind {t.kind!r}")

    def func(self, t: ir.TypeRef, hint: str, where: str) -> TreeFunc:
        """A function value of type func(T) any for t."""
        gotype = self.types.spell(t, hint, where)
        match t:
            case ir.ListType() | ir.MapType() | ir.NullableType():
                return self.helper(t, hint, where, gotype)
            case ir.Ref() if _plain_alias(self.types.defs[t.name]):
                return self.helper(t, hint, where, gotype)
            case _:  # a runtime function or the type's method does what encode says (encode's match is exhaustive)
                return TreeFunc(self.encode(t, hint, where).kind, gotype)

    def helper(self, t: ir.TypeRef, hint: str, where: str, gotype: GoType) -> TreeFunc:
        """func tree<hint>(x T) any, for a list, map, nullable or plain alias element.

        Two element types whose hints spell alike (a field "x_item" beside a field "x" of lists of lists)
        get tree<hint>2, tree<hint>3, ...: the helpers are the package's own, not API."""
        key = (hint, gotype.spelling)
        if key not in self.named:
            name, n = f"tree{hint}", 2
            while name in self.helpers:
                name, n = f"tree{hint}{n}", n + 1
            self.named[key] = name
            self.helpers[name] = None  # a recursive type reaches its own helper: it is there by name
            self.helpers[name] = TreeHelper(name, gotype, self.encode(t, hint, where))
        return TreeFunc("helper", helper=self.named[key])

    def tree_helpers(self) -> list[TreeHelper]:
        """The helper functions, by name."""
        return [h for _, h in sorted(self.helpers.items()) if h is not None]


def _plain_alias(definition: ir.Definition) -> bool:
    """An alias of a type that has no toTree method of its own (not a union or tuple)."""
    return isinstance(definition, ir.Alias) and not isinstance(definition.type, (ir.UnionType, ir.TupleType))

"""Encoding: how to_dict writes each field back to its JSON shape."""

from __future__ import annotations

from generator import ir


def needs_dump(t: ir.TypeRef, open_enums: frozenset[str] = frozenset()) -> bool:
    """Plain JSON scalars (and closed enums, which are strings) go out as they are; everything else through _rt.dump
    (a value of an open enum, named in open_enums, may be an Unknown)."""
    match t:
        case ir.NullableType():
            return needs_dump(t.inner, open_enums)
        case ir.Ref(target="enum"):
            return t.name in open_enums
        case ir.StringType() | ir.NumericType() | ir.BooleanType():
            return False
        case (
            ir.DateTimeType()
            | ir.BytesType()
            | ir.AnyType()
            | ir.ListType()
            | ir.TupleType()
            | ir.MapType()
            | ir.UnionType()
            | ir.Ref(target="model" | "alias")
        ):
            return True
        case _:
            raise AssertionError(f"no Python encoding for the IR type {t.kind!r}")

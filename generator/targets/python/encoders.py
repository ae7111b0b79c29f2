"""Encode views: how to_dict writes each field back to its JSON shape."""

from __future__ import annotations

from generator import ir
from generator.targets.python.views import Encode


def needs_dump(t: ir.TypeRef) -> bool:
    """Plain JSON scalars (and enums, which are strings) go out as they are; everything else through _rt.dump."""
    match t:
        case ir.NullableType():
            return needs_dump(t.inner)
        case ir.StringType() | ir.NumericType() | ir.BooleanType() | ir.Ref(target="enum"):
            return False
        case (ir.DateTimeType() | ir.BytesType() | ir.AnyType() | ir.ListType() | ir.TupleType() | ir.MapType()
              | ir.UnionType() | ir.Ref(target="model" | "alias")):
            return True
        case _:
            raise AssertionError(f"no Python encoding for the IR type {t.kind!r}")


def encode(f: ir.Field) -> Encode:
    """A field's to_dict entry: optional fields that are None are left out."""
    return Encode(dump=needs_dump(f.type), omit_when_none=not f.required)

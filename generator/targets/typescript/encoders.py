"""Encoder expressions: a value of the generated types back to its wire (JSON) form."""

from __future__ import annotations

from generator import ir
from generator.targets.typescript.literals import ts_str
from generator.targets.typescript.types import ts_type


def model_encode_fn(name: str) -> str:
    """The exported encoder of a model, e.g. encodeChatInput."""
    return f"encode{name}"


def alias_encode_fn(name: str) -> str:
    """The exported encoder of an alias, e.g. encodeContent."""
    return f"encode{name}"


def identity(t: ir.TypeRef) -> bool:
    """Whether values of this type are their own wire form (strings, numbers, booleans, enums, free-form data)."""
    match t:
        case ir.BytesType():
            return False
        case ir.StringType() | ir.DateTimeType() | ir.NumericType() | ir.BooleanType() | ir.AnyType():
            return True
        case ir.NullableType():
            return identity(t.inner)
        case ir.ListType():
            return identity(t.item)
        case ir.MapType():
            return identity(t.value)
        case ir.TupleType():
            return all(identity(i) for i in t.items)
        case ir.UnionType():
            return all(identity(v) for v in t.variants)
        case ir.Ref():
            return t.target == "enum"
        case _:
            raise AssertionError(f"unhandled IR type {t!r}")


def encoder(t: ir.TypeRef) -> str:
    """A function taking a value of the type and returning its wire form (for items, map values and variants)."""
    if identity(t):
        return "rt.same"
    match t:
        case ir.BytesType():
            return "rt.encodeBase64"
        case ir.Ref():
            return model_encode_fn(t.name) if t.target == "model" else alias_encode_fn(t.name)
        case _:
            return f"(v: {ts_type(t)}) => {encode(t, 'v')}"


def encode(t: ir.TypeRef, expr: str) -> str:
    """The wire form of expr, a value of type t (expr is a name or a property read: it may be read twice)."""
    if identity(t):
        return expr
    match t:
        case ir.BytesType():
            return f"rt.encodeBase64({expr})"
        case ir.NullableType():
            return f"{expr} === null ? null : {encode(t.inner, expr)}"
        case ir.ListType():
            return f"{expr}.map({encoder(t.item)})"
        case ir.MapType():
            return f"rt.encodeMap({expr}, {encoder(t.value)})"
        case ir.TupleType():
            return "[" + ", ".join(encode(i, f"{expr}[{n}]") for n, i in enumerate(t.items)) + "]"
        case ir.UnionType():
            if t.discriminator is not None:
                # A tag "__proto__" as a computed key: written plainly, the object literal would set its prototype.
                cases = ", ".join(
                    f"{f'[{ts_str(tag)}]' if tag == '__proto__' else ts_str(tag)}: {encoder(v)}" for tag, v in zip(t.tags, t.variants)
                )
                return f"rt.encodeByTag({expr}, {ts_str(t.discriminator)}, {{ {cases} }}{', true' if t.open else ''})"
            cases = ", ".join(f"{ts_str(k)}: {encoder(v)}" for k, v in zip(t.json_kinds, t.variants))
            return f"rt.encodeByKind({expr}, {{ {cases} }})"
        case ir.Ref():
            return f"{encoder(t)}({expr})"
        case _:
            raise AssertionError(f"unhandled IR type {t!r}")

"""TypeScript type spellings of IR types (the docs show them beside Python's and Go's)."""

from __future__ import annotations

from generator import ir
from generator.targets.typescript.literals import ts_str

# The type of an open enum's and an open union's unknown values (plain JSON data, branded).
UNKNOWN_VALUE = "rt.Unknown<string>"
UNKNOWN_VARIANT = "rt.Unknown<{ readonly [key: string]: JsonData }>"


def _wrap(spelling: str) -> str:
    """Parenthesised when it is a union, so `[]` or `| null` applies to the whole."""
    return f"({spelling})" if " | " in spelling else spelling


def ts_type(t: ir.TypeRef) -> str:
    """e.g. `string`, `"user" | "assistant"`, `ContentBlock[]`, `{ [key: string]: JsonData }`."""
    match t:
        case ir.DateTimeType():
            return "DateTimeString"
        case ir.BytesType():
            return "Uint8Array"
        case ir.StringType():
            if t.const is not None:
                return ts_str(t.const)
            if t.enum is not None:
                return " | ".join(ts_str(v) for v in t.enum)
            return "string"
        case ir.NumericType():
            return "number"
        case ir.BooleanType():
            return "boolean"
        case ir.AnyType():
            return "JsonData"
        case ir.ListType():
            return f"{_wrap(ts_type(t.item))}[]"
        case ir.TupleType():
            return "[" + ", ".join(ts_type(i) for i in t.items) + "]"
        case ir.MapType():
            return f"{{ [key: string]: {ts_type(t.value)} }}"
        case ir.NullableType():
            return f"{ts_type(t.inner)} | null"
        case ir.UnionType():
            return " | ".join([*(ts_type(v) for v in t.variants), *([UNKNOWN_VARIANT] if t.open else [])])
        case ir.Ref():
            return t.name
        case _:
            raise AssertionError(f"unhandled IR type {t!r}")

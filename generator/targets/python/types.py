"""IR types -> Python annotations, with the names each annotation imports."""

from __future__ import annotations

from dataclasses import dataclass

from generator import ir
from generator.pyliterals import py_str
from generator.targets.python.views import Import

DATETIME = Import("datetime", "datetime")
LITERAL = Import("typing", "Literal")
ANY = Import("typing", "Any")
# An open enum's or union's unknown value (the runtime's class, which the module imports and exports).
UNKNOWN = Import("._runtime", "Unknown")


@dataclass(frozen=True)
class Annotation:
    """An annotation's text, e.g. "list[ContentItem] | None", and the imports it needs."""

    text: str
    imports: frozenset[Import] = frozenset()


def join(parts: list[Annotation], text: str) -> Annotation:
    return Annotation(text, frozenset().union(*(p.imports for p in parts)))


def literal(values: tuple[str, ...]) -> Annotation:
    """Literal["user", "assistant"] for a closed set of strings."""
    return Annotation("Literal[" + ", ".join(py_str(v) for v in values) + "]", frozenset({LITERAL}))


def field_annotation(t: ir.TypeRef, absent_is_none: bool) -> Annotation:
    """A dataclass attribute's annotation: an optional field without a default holds None when absent."""
    spelt = annotation(t)
    if absent_is_none and not isinstance(t, ir.NullableType):
        return Annotation(f"{spelt.text} | None", spelt.imports)
    return spelt


def annotation(t: ir.TypeRef) -> Annotation:
    """The annotation of a value of type t, e.g. dict[str, Any] for a map of any JSON."""
    match t:
        case ir.DateTimeType():
            return Annotation("datetime", frozenset({DATETIME}))
        case ir.BytesType():
            return Annotation("bytes")
        case ir.StringType(const=str() as const):
            return literal((const,))
        case ir.StringType(enum=tuple() as values):
            return literal(values)
        case ir.StringType():
            return Annotation("str")
        case ir.NumericType():
            return Annotation("int" if t.integer else "float")
        case ir.BooleanType():
            return Annotation("bool")
        case ir.AnyType():
            return Annotation("Any", frozenset({ANY}))
        case ir.ListType():
            item = annotation(t.item)
            return join([item], f"list[{item.text}]")
        case ir.TupleType():
            items = [annotation(i) for i in t.items]
            return join(items, "tuple[" + ", ".join(i.text for i in items) + "]")
        case ir.MapType():
            value = annotation(t.value)
            return join([value], f"dict[str, {value.text}]")
        case ir.NullableType():
            inner = annotation(t.inner)
            return join([inner], f"{inner.text} | None")
        case ir.UnionType():
            variants = [annotation(v) for v in t.variants]
            if t.open:
                variants.append(Annotation("Unknown", frozenset({UNKNOWN})))
            return join(variants, " | ".join(v.text for v in variants))
        case ir.Ref():
            return Annotation(t.name)
        case _:
            raise AssertionError(f"no Python annotation for the IR type {t.kind!r}")

"""defaults: each field's default as its type holds it, set when a spec is lowered.

A spec writes a default as JSON, and JSON writes a whole number as 1 or as 1.0; where only an integer may stand
(a list of integers, a map of them, a tuple's or a model's integer, an alias of one), the value a document's text
gives there is the integer, whichever way it is spelt. So the IR holds the default that way too: [1.0] of a list of
integers is [1]. Each target then fills in the same value its own parse of the default's text would give, and writes
it back as it writes every integer (the Python package wrote [1.0], which reads back as [1]: red team round 7).
A number (or any JSON value) keeps the default as written: 1.0 stays a float there.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from generator import ir


def typed_defaults(fmt: ir.Format) -> ir.Format:
    """fmt with every field's default as its type holds it (typed)."""
    definitions = []
    for d in fmt.definitions:
        if isinstance(d, ir.Model) and any(f.has_default for f in d.fields):
            fields = tuple(dataclasses.replace(f, default=typed(fmt, f.type, f.default)) if f.has_default else f for f in d.fields)
            d = dataclasses.replace(d, fields=fields)
        definitions.append(d)
    return dataclasses.replace(fmt, definitions=tuple(definitions))


def typed(fmt: ir.Format, t: ir.TypeRef, value: Any) -> Any:
    """value, a JSON value of type t, with each whole float where only an integer may stand made that integer."""
    t = fmt.underlying(t)
    if isinstance(t, ir.UnionType):
        # The one variant of the value's JSON kind, where there is one: a float is the integer's where an integer
        # variant and no number one is among them, a list the list's or tuple's, an object the map's or model's.
        kind: tuple[type, ...] = ()
        if isinstance(value, float):
            kind = (ir.NumericType,)
        elif isinstance(value, list):
            kind = (ir.ListType, ir.TupleType)
        elif isinstance(value, dict):
            kind = (ir.MapType, ir.Ref)
        variants = [v for v in map(fmt.underlying, t.variants) if kind and isinstance(v, kind) and not _enum(v)]
        return typed(fmt, variants[0], value) if len(variants) == 1 else value
    match t, value:
        case ir.NumericType(integer=True), float() if value.is_integer():
            return int(value)
        case ir.ListType(), list():
            return [typed(fmt, t.item, v) for v in value]
        case ir.MapType(), dict():
            return {k: typed(fmt, t.value, v) for k, v in value.items()}
        case ir.TupleType(), list():
            return [typed(fmt, item, v) for item, v in zip(t.items, value)] + value[len(t.items) :]
        case ir.Ref(target="model"), dict():
            model = fmt.definition(t.name)
            assert isinstance(model, ir.Model)
            by_wire = {f.wire_name: f for f in model.fields}
            return {k: typed(fmt, by_wire[k].type, v) if k in by_wire else v for k, v in value.items()}
    return value


def _enum(t: ir.TypeRef) -> bool:
    return isinstance(t, ir.Ref) and t.target == "enum"

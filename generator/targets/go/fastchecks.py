"""Fast checks: Validate's typed walk, which only says "valid" or "not sure, run the exact walk".

The exact walk (toTree, then the model's parser) stays the one source of error messages; the fast
check must never pass a value the exact walk rejects, so every construct it cannot decide is "unsure".
"""

from __future__ import annotations

from dataclasses import replace

from generator import ir
from generator.targets.go.parsers import Parsers
from generator.targets.go.types import GoTypes
from generator.targets.go.views import FastCheck, FastField, FastModel, FastPattern, FieldView, ModelView

UNSURE = FastCheck("unsure")
NONE = FastCheck("none")


def container(c: FastCheck) -> FastCheck:
    """A list or map check, or "none" when it checks nothing (no bounds, nil allowed, items unchecked)."""
    if c.nil_ok and c.min_items is None and c.max_items is None and c.inner is not None and c.inner.kind == "none":
        return NONE
    return c


class FastChecks:
    """The fast checks of one package's models, and the patterns they match."""

    def __init__(self, fmt: ir.Format, types: GoTypes, parsers: Parsers) -> None:
        self.fmt = fmt
        self.types = types
        self.parsers = parsers
        self.patterns: list[FastPattern] = []

    def check(self, t: ir.TypeRef, where: str, nil_ok: bool = False) -> FastCheck:
        match t:
            case ir.StringType():
                pattern = ""
                if t.pattern is not None:
                    pattern = f"fastPattern{len(self.patterns)}"
                    self.patterns.append(FastPattern(pattern, self.parsers.pattern(t.pattern, where) or ""))
                values = t.enum if t.enum is not None else None
                if t.const is not None:
                    values = (t.const,) if values is None else tuple(v for v in values if v == t.const)
                if t.min_length is None and t.max_length is None and not pattern and values is None:
                    return NONE
                return FastCheck("string", min_length=t.min_length, max_length=t.max_length, pattern=pattern, values=values)
            case ir.NumericType():
                bounds = (t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum)
                if t.integer and all(b is None for b in bounds):
                    return NONE  # an int64 is always an integer in range
                return FastCheck("number", integer=t.integer, minimum=t.minimum, maximum=t.maximum,
                                 exclusive_minimum=t.exclusive_minimum, exclusive_maximum=t.exclusive_maximum)
            case ir.BooleanType() | ir.BytesType():
                return NONE
            case ir.DateTimeType():
                return FastCheck("date_time")
            case ir.ListType():
                if t.unique_items:
                    return UNSURE
                return container(FastCheck("list", min_items=t.min_items, max_items=t.max_items,
                                           inner=self.check(t.item, where), nil_ok=nil_ok))
            case ir.MapType():
                return container(FastCheck("map", inner=self.check(t.value, where), nil_ok=nil_ok))
            case ir.NullableType():
                inner = self.check(t.inner, where, nil_ok=True)
                if self.types.nilable(t.inner):
                    return inner if inner.kind in ("list", "map", "none") else UNSURE
                return NONE if inner.kind == "none" else FastCheck("nullable", inner=inner, pointer=True)
            case ir.Ref():
                d = self.fmt.definition(t.name)
                if isinstance(d, ir.Model):
                    return FastCheck("model", model=t.name)
                if isinstance(d, ir.Enum):
                    return FastCheck("enum", values=d.values)
                return UNSURE
            case _:  # any JSON, unions, tuples: the exact walk decides
                return UNSURE

    def model(self, model: ir.Model, view: ModelView, where: str) -> FastModel:
        fields: dict[str, FastField] = {}
        for f, fv in zip(model.fields, view.fields):
            fields[f.wire_name] = self.field(f, fv, where)
        groups = tuple(tuple(fields[w] for w in r.fields) for r in model.rules if r.kind == "at_least_one_of")
        sure = all(r.kind == "at_least_one_of" for r in model.rules) and not any(
            f.presence != "not_nil" and f.check.kind == "unsure" for f in fields.values())
        return FastModel(model.name, tuple(fields.values()), groups, sure)

    def field(self, f: ir.Field, view: FieldView, where: str) -> FastField:
        check = self.check(f.type, where)
        deref = view.deref
        if view.presence == "not_nil":
            # Only a non-nil value is in the tree: check what it points to, or the slice or map itself.
            if check.kind == "nullable" and check.inner is not None:
                check, deref = check.inner, True
            elif check.kind in ("list", "map"):
                check = container(replace(check, nil_ok=True))
        if view.presence == "not_zero_time":
            present = "time"
        elif view.presence == "not_nil" or self.types.nilable(f.type):
            present = "nil"
        else:
            present = "true"
        return FastField(view.name, view.presence, deref, check, present)

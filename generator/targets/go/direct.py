"""The direct readers of the Go target: Parse<Format>FromJSON's first attempt, straight from the text into the
structs with no tree (templates/go/direct_model.go.j2, rt.Scanner).

A reader decodes what the struct holds exactly as the parse function would build it, and leaves to the exact
walk (false) whatever the struct could not keep: an unknown or repeated key, an integer written 1.0, Go's zero
time. The struct it builds is then judged by the model's fast check (fastValid), which answers for the tree
toTree writes; that tree differs from the text's only where a field is absent with a default (toTree writes the
default) or null (toTree leaves it out). Neither changes a check but a rule's, which reads presence: so where
any rule of the format names a field, a null or an absent default there is left to the exact walk too.

A field whose type no reader here reads (a union, a tuple, a free-form value) is left to the exact walk where
it appears; a model that requires one gets no reader, and neither do its holders' fields that hold it.
"""

from __future__ import annotations

from collections.abc import Callable

from generator import ir
from generator.targets.go.types import GoTypes
from generator.targets.go.views import DirectField, DirectModel, DirectValue, FieldStep, ModelView

# A reader keeps the keys it has seen in one uint64.
MAX_FIELDS = 64


def rule_names(fmt: ir.Format, nulls: bool) -> frozenset[str]:
    """Every name a rule of the format reads, in its own model or up the document (over-approximated: by name).
    nulls: only where a null may read otherwise than absence (at_least_one_of reads both as absent)."""
    names: set[str] = set()
    for m in fmt.models:
        for r in m.rules:
            if nulls and r.kind == "at_least_one_of":
                continue
            names.update(r.fields)
            names.update(r.pointer)
            if r.when is not None:
                names.add(r.when.field)
                names.update(r.when.pointer)
    return frozenset(names)


class DirectReaders:
    """The direct readers of one format's models, by model name; a model with none is absent."""

    def __init__(self, fmt: ir.Format, types: GoTypes, go_fields: Callable[[ir.Model], list[str]], sure: Callable[[str], bool]) -> None:
        self.fmt = fmt
        self.types = types
        self.go_fields = go_fields
        self.sure = sure  # model name -> whether its fast check can say "valid" (else a reader is wasted work)
        self.strict_null = rule_names(fmt, nulls=True)
        self.strict_default = rule_names(fmt, nulls=False)
        self.readable: dict[str, bool] = {}  # model name -> has a reader (False while being decided: recursion)

    def models(self, views: list[ModelView]) -> dict[str, DirectModel]:
        out = {}
        for m, view in zip(self.fmt.models, views):
            d = self.model(m, view)
            if d is not None:
                out[m.name] = d
        return out

    def has_reader(self, name: str) -> bool:
        if name not in self.readable:
            self.readable[name] = True  # a model holding itself reads itself
            model = self.fmt.definition(name)
            assert isinstance(model, ir.Model)
            self.readable[name] = (
                self.sure(name)
                and len(model.fields) <= MAX_FIELDS
                and all(self.value(f.type) is not None for f in model.fields if f.required)
            )
        return self.readable[name]

    def model(self, model: ir.Model, view: ModelView) -> DirectModel | None:
        if not self.has_reader(model.name):
            return None
        steps = {s.wire: s for s in view.steps if isinstance(s, FieldStep)}
        fields = []
        for bit, (f, name) in enumerate(zip(model.fields, self.go_fields(model))):
            value = self.value(f.type)
            step = steps[f.wire_name]
            pointer = step.kind == "optional_ptr"  # an optional field of a type whose zero value is not nil: *T
            default = step if step.kind == "default" else None
            strict_null, strict_default = f.wire_name in self.strict_null, f.wire_name in self.strict_default
            fields.append(DirectField(f.wire_name, name, bit, value, f.required, strict_null, strict_default, default, pointer))
        return DirectModel(model.name, tuple(fields))

    def value(self, t: ir.TypeRef) -> DirectValue | None:
        """How a reader reads a value of t, or None where it leaves the value to the exact walk."""
        match t:
            case ir.StringType():
                return DirectValue("string", "string")
            case ir.NumericType():
                return DirectValue("int", "int64") if t.integer else DirectValue("float", "float64")
            case ir.BooleanType():
                return DirectValue("bool", "bool")
            case ir.DateTimeType():
                return DirectValue("time", "time.Time")
            case ir.BytesType():
                return DirectValue("bytes", "[]byte")
            case ir.ListType() | ir.MapType() | ir.NullableType():
                inner = self.value(t.item if isinstance(t, ir.ListType) else t.value if isinstance(t, ir.MapType) else t.inner)
                if inner is None:
                    return None
                kind = t.kind if not isinstance(t, ir.NullableType) else "nilable" if self.types.nilable(t.inner) else "nullable"
                return DirectValue(kind, str(self.types.spell(t, "", "")), inner)
            case ir.Ref(target="model"):
                return DirectValue("model", t.name) if self.has_reader(t.name) else None
            case ir.Ref(target="enum"):
                return DirectValue("convert", t.name, DirectValue("string", "string"))
            case ir.Ref(target="alias"):
                alias = self.fmt.definition(t.name)
                assert isinstance(alias, ir.Alias)
                if isinstance(alias.type, (ir.UnionType, ir.TupleType)):
                    return None
                inner = self.value(alias.type)
                return None if inner is None else DirectValue("convert", t.name, inner)
        return None

"""The direct readers of the Go target: Parse<Format>FromJSON's first attempt, straight from the text into the
structs with no tree (templates/go/direct_model.go.j2, rt.Scanner).

A reader decodes what the struct holds exactly as the parse function would build it, and leaves to the exact
walk (false) whatever the struct could not keep: an unknown or repeated key, an integer written 1.0, Go's zero
time. The struct it builds is then judged by the model's fast check (fastValid), which answers for the tree
toTree writes; that tree differs from the text's only where a field is absent with a default (toTree writes the
default) or null (toTree leaves it out). Neither changes a check but a rule's, which reads presence: so where
any rule of the format names a field, a null or an absent default there is left to the exact walk too.

A field whose type no reader here reads (a schema applied as written, a union none of whose variants it reads)
is left to the exact walk where it appears; a model that requires one gets no reader, and neither do its
holders' fields that hold it. A free-form value is read as DecodeFast reads it (rt.Scanner.Any). A union or a
tuple is read by a function of its own (templates/go/direct_composite.go.j2), as a model is, wherever it is held.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from generator import ir
from generator.naming import Names, alias_hint
from generator.targets.go.names import INLINE_TYPES
from generator.targets.go.types import GoTypes
from generator.targets.go.views import DirectCase, DirectField, DirectModel, DirectValue, FieldStep, ModelView

# A reader keeps the keys it has seen in one uint64.
MAX_FIELDS = 64

# How a scratch pool's name spells the pieces of its item's Go type that are not words.
_SPELLED = {"[]": "List", "*": "Ptr", "map[": "Map"}


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


def variant_match(t: ir.UnionType, selector: str) -> tuple[str, ...]:
    """The tags or JSON kinds that select a union's variant: its own, and for a number variant of a union with no
    integer variant, "integer" too (JSON Schema's 1 is a number)."""
    if not t.discriminator and selector == "number" and "integer" not in t.json_kinds:
        return ("integer", "number")
    return (selector,)


class DirectReaders:
    """The direct readers of one format's models, by model name; a model with none is absent."""

    def __init__(self, fmt: ir.Format, types: GoTypes, names: Names, sure: Callable[[str], bool]) -> None:
        self.fmt = fmt
        self.types = types
        self.names = names
        self.sure = sure  # model name -> whether its fast check can say "valid" (else a reader is wasted work)
        self.strict_null = rule_names(fmt, nulls=True)
        self.strict_default = rule_names(fmt, nulls=False)
        self.readable: dict[str, bool] = {}  # model name -> has a reader
        self.scratches: dict[str, str] = {}  # a list's item Go type -> its rt.Scratch variable
        self.decide()

    def reached(self, views: list[ModelView]) -> tuple[dict[str, DirectModel], dict[str, DirectValue], dict[str, str]]:
        """The readers the root's reader calls, itself included (Parse<Format>FromJSON starts there; a reader
        nothing calls would be dead code): the models' by model name, and the unions' and tuples' (one
        decode<Type> each, however many fields hold one) by Go type name; none where the root has no reader.
        Third, the rt.Scratch pools those readers' lists use: item Go type by variable name, in name order."""
        built = {m.name: self.model(m, view) for m, view in zip(self.fmt.models, views)}
        models: dict[str, DirectModel] = {}
        composites: dict[str, DirectValue] = {}
        todo = [DirectValue("model", self.fmt.root)]
        while todo:
            v = todo.pop()
            if v.kind == "model":
                d = built.get(v.type)
                if d is None or v.type in models:
                    continue
                models[v.type] = d
                todo.extend(called for f in d.fields if f.value is not None for called in _called(f.value))
            elif v.type not in composites:
                composites[v.type] = v
                todo.extend(called for c in v.cases for called in _called(c.value))
        read = [f.value for d in models.values() for f in d.fields if f.value is not None]
        read += [c.value for v in composites.values() for c in v.cases]
        used = {v.scratch for v in _lists(read)}
        scratches = {name: item for item, name in self.scratches.items() if name in used}
        return {m.name: models[m.name] for m in self.fmt.models if m.name in models}, composites, dict(sorted(scratches.items()))

    def has_reader(self, name: str) -> bool:
        return self.readable[name]

    def decide(self) -> None:
        """Which models get a reader: the largest set in which every model's fast check can vouch, its fields fit
        the set of keys seen, and each required field, and each defaulted field a rule reads (its absence is left
        to the exact walk, so the reader must see it present), is one a reader reads (its models in the set)."""
        self.readable = {m.name: self.sure(m.name) and len(m.fields) <= MAX_FIELDS for m in self.fmt.models}
        changed = True
        while changed:
            changed = False
            for m in self.fmt.models:
                names = self.names.of_model(m)
                if self.readable[m.name] and any(
                    self.value(f.type, m.name + g) is None
                    for f, g in zip(m.fields, names)
                    if f.required or ((f.has_default or f.default_factory) and f.wire_name in self.strict_default)
                ):
                    self.readable[m.name] = False
                    changed = True

    def model(self, model: ir.Model, view: ModelView) -> DirectModel | None:
        if not self.has_reader(model.name):
            return None
        steps = {s.wire: s for s in view.steps if isinstance(s, FieldStep)}
        fields = []
        for bit, (f, name) in enumerate(zip(model.fields, self.names.of_model(model))):
            value = self.value(f.type, model.name + name)
            step = steps[f.wire_name]
            pointer = step.kind == "optional_ptr"  # an optional field of a type whose zero value is not nil: *T
            default = step if step.kind == "default" else None
            strict_null, strict_default = f.wire_name in self.strict_null, f.wire_name in self.strict_default
            fields.append(DirectField(f.wire_name, name, bit, value, f.required, strict_null, strict_default, default, pointer))
        return DirectModel(model.name, tuple(fields))

    def value(self, t: ir.TypeRef, hint: str) -> DirectValue | None:
        """How a reader reads a value of t, or None where it leaves the value to the exact walk; hint names a union
        or tuple written inline, as the Go types do (e.g. "ChatMessageContent")."""
        match t:
            case ir.StringType():
                return DirectValue("string", "string")
            case ir.NumericType():
                return DirectValue("int", "int64") if t.integer else DirectValue("float", "float64")
            case ir.BooleanType():
                return DirectValue("bool", "bool")
            case ir.AnyType(checks=None):
                return DirectValue("any", "any")  # as DecodeFast and AnyJSON build it (rt.Scanner.Any)
            case ir.DateTimeType():
                return DirectValue("time", "time.Time")
            case ir.BytesType():
                return DirectValue("bytes", "[]byte")
            case ir.ListType() | ir.MapType() | ir.NullableType():
                if isinstance(t, ir.ListType):
                    inner = self.value(t.item, INLINE_TYPES.item(hint))
                elif isinstance(t, ir.MapType):
                    inner = self.value(t.value, INLINE_TYPES.value(hint))
                else:
                    inner = self.value(t.inner, hint)
                if inner is None:
                    return None
                kind = t.kind if not isinstance(t, ir.NullableType) else "nilable" if self.types.nilable(t.inner) else "nullable"
                scratch = self.scratch(inner.type) if kind == "list" else ""
                return DirectValue(kind, str(self.types.spell(t, hint, "")), inner, scratch=scratch)
            case ir.UnionType() | ir.TupleType():
                return self.composite(str(self.types.spell(t, hint, "")), t)
            case ir.Ref(target="model"):
                return DirectValue("model", t.name) if self.has_reader(t.name) else None
            case ir.Ref(target="enum"):
                return DirectValue("convert", t.name, DirectValue("string", "string"))
            case ir.Ref(target="alias"):
                alias = self.fmt.definition(t.name)
                assert isinstance(alias, ir.Alias)
                if isinstance(alias.type, (ir.UnionType, ir.TupleType)):
                    return self.composite(alias.name, alias.type)
                inner = self.value(alias.type, alias_hint(alias, INLINE_TYPES))
                return None if inner is None else DirectValue("convert", t.name, inner)
        return None

    def scratch(self, item: str) -> str:
        """The rt.Scratch that lists of Go type []item are read into: one per item type, named for it (e.g.
        scratchConversationMessage, scratchListString), a number added where two types spell the same name."""
        if item not in self.scratches:
            base = "scratch" + "".join(_SPELLED.get(w, w[:1].upper() + w[1:]) for w in re.findall(r"\[\]|\*|map\[|\w+", item))
            name, n = base, 1
            while name in self.scratches.values():
                n += 1
                name = f"{base}{n}"
            self.scratches[item] = name
        return self.scratches[item]

    def composite(self, name: str, t: ir.UnionType | ir.TupleType) -> DirectValue | None:
        """A tuple (every item read), or a union (the variants read; any other is left to the exact walk), as the
        Go struct named name holds it (Definitions.tuple_view and union_view)."""
        fields = self.names.members[name]
        if isinstance(t, ir.TupleType):
            items = [self.value(item, name + field) for item, field in zip(t.items, fields)]
            if any(i is None for i in items):
                return None
            return DirectValue("tuple", name, cases=tuple(DirectCase(f, i) for f, i in zip(fields, items) if i is not None))
        cases = []
        for v, selector, field in zip(t.variants, t.tags or t.json_kinds, fields):
            value = self.value(v, name + field)
            if value is None:
                continue
            cases.append(DirectCase(field, value, variant_match(t, selector), pointer=not self.types.nilable(v)))
        if not cases:
            return None
        return DirectValue("union", name, cases=tuple(cases), discriminator=t.discriminator or "")


def _called(v: DirectValue) -> list[DirectValue]:
    """The readers reading v calls: a model's, a union's or a tuple's (what those read, they call)."""
    if v.kind in ("model", "union", "tuple"):
        return [v]
    return [] if v.inner is None else _called(v.inner)


def _lists(values: list[DirectValue]) -> list[DirectValue]:
    """The lists among values and inside them, not inside the models, unions and tuples they call."""
    found = []
    for v in values:
        if v.kind == "list":
            found.append(v)
        if v.kind not in ("model", "union", "tuple") and v.inner is not None:
            found.extend(_lists([v.inner]))
    return found

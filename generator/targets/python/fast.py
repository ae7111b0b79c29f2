"""Fast-path views: per model, straight-line checks that build a surely valid document.

A fast function raises _rt.Unsure at the first thing it is not sure of and the exact
walk (the parse functions) runs instead, so messages and their order come from one
place. Everything here is conservative: a case left out only costs time.
"""

from __future__ import annotations

from collections.abc import Callable

from generator import ir
from generator.fastpath import JSON_KINDS, ModelGraph
from generator.naming import constant_case, snake_case
from generator.pyregex import matcher
from generator.targets.python.parsers import checks_const, default
from generator.targets.python.views import (
    Access,
    AttrRule,
    FastCheck,
    FastField,
    FastFunction,
    FastList,
    FastMap,
    FastModel,
    FastNullable,
    FastNumber,
    FastRule,
    FastScalar,
    FastString,
    FastTuple,
    FastUnion,
    FieldView,
    RuleView,
)


def fast_fn(model: str) -> str:
    """A model's fast function, e.g. "_fast_chat_event"."""
    return f"_fast_{snake_case(model)}"


def check_fn(model: str) -> str:
    """A model's attribute check (validate()), e.g. "_check_chat_event"."""
    return f"_check_{snake_case(model)}"


def keeps_model(c: FastCheck) -> bool:
    """Whether a field's check builds one model (or null) that the exact walk can keep after
    a failed fast attempt (lists keep their items themselves, _rt.keep_items)."""
    inner = c.inner if isinstance(c, FastNullable) else c
    return isinstance(inner, FastModel) and inner.inside


class FastBuilder(ModelGraph):
    """The fast functions of one format, and the compiled patterns they use."""

    def __init__(self, fmt: ir.Format, attrs: Callable[[ir.Model], list[str]]) -> None:
        super().__init__(fmt)
        self.attrs = attrs  # a model's attribute names, in field order
        self.regexes: dict[str, str] = {}  # a compiled pattern's expression (parsers.matcher) -> its constant, in first use order
        self.open_enums = ir.open_enums(fmt)

    def access(self, t: ir.TypeRef, pointer: tuple[str, ...]) -> tuple[Access, ...] | None:
        """A rule's pointer from a checked value of type t to a string, as attribute steps that find
        what resolve finds in the JSON shape; None where the steps depend on the value."""
        steps = []
        for token in pointer:
            t = self.unalias(t)
            if isinstance(t, ir.Ref) and t.target == "model":
                model = self.defs[t.name]
                assert isinstance(model, ir.Model)
                found = [(f, a) for f, a in zip(model.fields, self.attrs(model)) if f.wire_name == token]
                # Only a required field that is never null: present in the JSON shape, a value below it.
                if not found or not found[0][0].required or found[0][0].null_ok:
                    return None
                steps.append(Access("attr", found[0][1]))
                t = found[0][0].type
            elif isinstance(t, ir.TupleType) and (n := ir.index_of(token)) is not None and n < len(t.items):
                steps.append(Access("index", n))
                t = t.items[n]
            else:
                return None
        t = self.unalias(t)
        if isinstance(t, ir.StringType) or isinstance(t, ir.Ref) and t.target == "enum":
            return tuple(steps)
        return None

    def each(self, model: ir.Model, rule: ir.Rule) -> tuple[Access, ...] | None:
        """allowed_when's and contains' pointer into each item of the list field they read, when it is
        a list or absent (None) wherever the rule reads it (no default list stands in for it)."""
        if rule.kind not in ("allowed_when", "contains"):
            return None
        field = next(f for f in model.fields if f.wire_name == rule.fields[0])
        if default(field, self.fmt).kind not in ("required", "none"):
            return None
        t = self.unalias(field.type)
        t = self.unalias(t.inner) if isinstance(t, ir.NullableType) else t
        return self.access(t.item, rule.pointer) if isinstance(t, ir.ListType) else None

    def fast_rule(self, model: ir.Model, r: RuleView, attr_by_local: dict[str, str]) -> FastRule:
        """A rule's check in a fast function: written out for the kinds templates/python/fast.py.j2
        writes out, else the exact rule_<kind> with _rt.PROBE."""
        each = self.each(model, r.rule)
        written = r.kind in ("at_least_one_of", "member_of", "required_when", "compare") or each is not None
        by_wire = {f.wire_name: f for f in model.fields}
        # at_least_one_of reads its fields' locals where None there means absent or null in the object.
        plain = r.kind == "at_least_one_of" and all(default(by_wire[w], self.fmt).kind in ("required", "none") for w in r.rule.fields)
        read = self.unalias(ir.unwrap_nullable(by_wire[r.rule.fields[0]].type)) if r.rule.fields[0] in by_wire else None
        unknown = isinstance(read, ir.Ref) and read.name in self.open_enums
        inputs = tuple(f"f_{attr_by_local[i]}" for i in r.inputs)
        return FastRule(r.rule, inputs, r.kind, each, probe=not written, locals_are_raw=plain, unknown=unknown)

    def when_each(self, model: ir.Model, view: FieldView | None, rule: ir.Rule) -> tuple[Access, ...] | None:
        """The when clause's pointer from its field's attribute to a string (see AttrRule)."""
        if rule.when is None or view is None:
            return None
        if not rule.when.pointer:
            return None if view.dump else ()
        field = next(f for f in model.fields if f.wire_name == rule.when.field)
        if not field.required or field.null_ok:
            return None
        return self.access(field.type, rule.when.pointer)

    def regex(self, pattern: str) -> str:
        return self.regexes.setdefault(matcher(pattern), f"_RE_{len(self.regexes) + 1}")

    def check(self, t: ir.TypeRef) -> FastCheck:
        match t:
            case ir.DateTimeType():
                return FastScalar("datetime", same=False)
            case ir.BytesType():
                return FastScalar("bytes", same=False)
            case ir.StringType():
                regex = self.regex(t.pattern) if t.pattern is not None else None
                return FastString(t.min_length, t.max_length, regex, t.enum, None, t.const, format=t.checked_format)
            case ir.NumericType():
                return FastNumber(
                    t.integer, t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum, t.multiple_of, ir.allowed_values(t)
                )
            case ir.BooleanType():
                values = ir.allowed_values(t)
                return FastScalar("boolean", same=True, values=None if values is None else tuple(v for v in values if isinstance(v, bool)))
            case ir.AnyType(checks=ir.Checks() as checks):
                return FastScalar("any", same=True, checks=checks_const(checks))
            case ir.AnyType():
                return FastScalar("any", same=True)
            case ir.ListType():
                keep = all(self.anc[name] == 0 for name, _ in self.model_refs(t.item, 0))
                return FastList(self.check(t.item), t.min_items, t.max_items, t.unique_items, keep)
            case ir.TupleType():
                return FastTuple(tuple(self.check(i) for i in t.items))
            case ir.MapType():
                return FastMap(self.check(t.value))
            case ir.NullableType():
                inner = self.check(t.inner)
                return FastNullable(inner, same=inner.same)
            case ir.UnionType():
                keys = t.tags if t.discriminator is not None else t.json_kinds
                cases = tuple((k, self.check(v)) for k, v in zip(keys, t.variants) if t.discriminator is not None or k in JSON_KINDS)
                opened = t.open and t.discriminator is not None
                return FastUnion(t.discriminator, cases, same=not opened and all(c.same for _, c in cases), open=opened)
            case ir.Ref(target="model"):
                return FastModel(fast_fn(t.name), self.anc[t.name] > 0, t.name, check_fn(t.name), t.name not in self.recursive)
            case ir.Ref(target="enum"):
                opened = t.name in self.open_enums
                return FastString(None, None, None, None, f"{constant_case(t.name)}_VALUES", None, same=not opened, open=opened)
            case ir.Ref(target="alias"):
                alias = self.defs[t.name]
                assert isinstance(alias, ir.Alias)
                return self.check(alias.type)
            case _:
                raise AssertionError(f"no fast check for the IR type {t.kind!r}")

    def temps(self, c: FastCheck, level: int) -> list[str]:
        """The locals templates/python/fast.py.j2 assigns while checking c at level (it declares them Any,
        since one local holds values of several types in turn)."""
        n = level + 1
        match c:
            case FastList(item=FastModel(anc=anc)):
                return [f"a{n}"] if anc else []
            case FastList(item=item):
                return [f"x{n}", *([] if item.same else [f"y{n}"]), *self.temps(item, n)]
            case FastTuple(items=items):
                return [
                    name
                    for i, item in enumerate(items)
                    for name in (f"x{n}_{i}", *([] if item.same else [f"y{n}_{i}"]), *self.temps(item, n))
                ]
            case FastMap(value=value):
                return [f"k{n}", f"x{n}", *([] if value.same else [f"y{n}"]), *self.temps(value, n)]
            case FastUnion(discriminator=tag, cases=cases):
                return [*([f"t{level}"] if tag is not None else []), *(name for _, v in cases for name in self.temps(v, level))]
            case FastNullable(inner=inner):
                return self.temps(inner, level)
            case _:
                return []

    def function(self, model: ir.Model, fields: tuple[FieldView, ...], keys_const: str, rules: tuple[RuleView, ...]) -> FastFunction:
        attr_by_local = {v.local: v.attr for v in fields}
        attr_by_wire = {v.wire: v.attr for v in fields}
        view_by_wire = {v.wire: v for v in fields}
        checks = [self.check(f.type) for f in model.fields]
        temps = dict.fromkeys(["v1", *(f"f_{v.attr}" for v in fields), *(t for c in checks for t in self.temps(c, 1))])
        if any(self.each(model, r.rule) is not None for r in rules):
            temps["item"] = None  # the items a rule reads, one by one
        if any(r.rule.kind == "member_of" and len(r.rule.pointer) == 1 for r in rules):
            temps["pool"] = None  # member_of's list
        built = tuple(FastField(v.attr, f"f_{v.attr}", v.wire, c, v.default, v.nullable) for v, c in zip(fields, checks))
        return FastFunction(
            name=model.name,
            fn=fast_fn(model.name),
            check_fn=check_fn(model.name),
            anc=self.anc[model.name] > 0,
            inside=model.name not in self.recursive,
            levels=max((1 + self.levels(f.type) for f in model.fields), default=0),
            fields=built,
            temps=tuple(temps),
            # (A model the last check builds is never followed by a failure: nothing to keep.)
            kept=tuple(b for i, b in enumerate(built) if keeps_model(b.check) and (i < len(built) - 1 or rules)),
            rules=tuple(self.fast_rule(model, r, attr_by_local) for r in rules),
            attr_rules=tuple(
                AttrRule(
                    r,
                    tuple(f"f_{attr_by_wire[w]}" for w in r.fields),
                    f"f_{attr_by_wire[r.when.field]}" if r.when is not None else None,
                    r.kind,
                    self.each(model, r),
                    self.when_each(model, view_by_wire.get(r.when.field) if r.when else None, r),
                    # An attribute left None reads as its default where to_dict leaves it out, as null where it writes it.
                    tuple(d if view_by_wire[w].omit_when_none else "None" for w, d in zip(r.fields, v.defaults)),
                )
                for v in rules
                for r in [v.rule]
            ),
            closed=model.closed,
            keys_const=keys_const,
        )

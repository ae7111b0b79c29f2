"""Fast checks: Validate's typed walk, which only says "valid" or "not sure, run the exact walk".

The exact walk (toTree, then the model's parser) stays the one source of error messages; the fast
check must never pass a value the exact walk rejects, so every construct it cannot decide is "unsure".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from generator import ir
from generator.messages import number_literal
from generator.targets.go.parsers import Parsers
from generator.targets.go.types import GoTypes
from generator.targets.go.views import (
    FastCheck,
    FastField,
    FastModel,
    FastOperand,
    FastPattern,
    FastRule,
    FastText,
    FastTuple,
    FastUnion,
    FieldView,
    ModelView,
)

UNSURE = FastCheck("unsure")
NONE = FastCheck("none")


def container(c: FastCheck) -> FastCheck:
    """A list or map check, or "none" when it checks nothing (no bounds, nil allowed, items unchecked)."""
    if c.nil_ok and c.min_items is None and c.max_items is None and not c.unique and c.inner is not None and c.inner.kind == "none":
        return NONE
    return c


class FastChecks:
    """The fast checks of one package's models, and the patterns they match."""

    def __init__(
        self,
        fmt: ir.Format,
        types: GoTypes,
        parsers: Parsers,
        go_fields: Callable[[ir.Model], list[str]],
        tuple_fields: Callable[[str], list[str]],
    ) -> None:
        self.fmt = fmt
        self.tuple_fields = tuple_fields  # a tuple's Go field names, in item order
        self.go_fields = go_fields  # a model's Go field names, in field order
        self.types = types
        self.parsers = parsers
        self.patterns: list[FastPattern] = []

    def check(self, t: ir.TypeRef, where: str, nil_ok: bool = True) -> FastCheck:
        """The fast check of a value of t. A nil slice or map passes as what toTree writes for it: the empty
        array or object, or null where null is a value of the type (nil_ok=False: not sure, e.g. a field whose
        default is a list that is not empty)."""
        match t:
            case ir.StringType():
                pattern = ""
                if t.pattern is not None:
                    pattern = f"fastPattern{len(self.patterns)}"
                    self.patterns.append(FastPattern(pattern, self.parsers.pattern(t.pattern, where) or ""))
                values = ir.allowed_values(t)
                fmt = t.checked_format or ""
                if t.min_length is None and t.max_length is None and not pattern and values is None and not fmt:
                    return NONE
                return FastCheck("string", min_length=t.min_length, max_length=t.max_length, pattern=pattern, values=values, format=fmt)
            case ir.NumericType() | ir.BooleanType() if ir.allowed_values(t) == ():
                return UNSURE  # a const no value of its enum: nothing passes, the exact walk says why
            case ir.NumericType():
                bounds = (t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum, t.multiple_of)
                numbers = ir.allowed_values(t)
                if t.integer and all(b is None for b in bounds) and numbers is None:
                    return NONE  # an int64 is always an integer in range
                return FastCheck(
                    "number",
                    integer=t.integer,
                    minimum=t.minimum,
                    maximum=t.maximum,
                    exclusive_minimum=t.exclusive_minimum,
                    exclusive_maximum=t.exclusive_maximum,
                    multiple_of=t.multiple_of,
                    # Go literals, each below 2^53 in size: an int64 or a float64 equals one exactly when the value does.
                    values=None if numbers is None else tuple(number_literal(v) for v in numbers),
                )
            case ir.BooleanType() if ir.allowed_values(t) not in (None, (True, False), (False, True)):
                return FastCheck("boolean", values=tuple("true" if v else "false" for v in ir.allowed_values(t) or ()))
            case ir.BooleanType() | ir.BytesType():
                return NONE
            case ir.DateTimeType():
                return FastCheck("date_time")
            case ir.ListType():
                if t.unique_items and not self.equal_as_json(t.item):
                    return UNSURE
                inner = self.check(t.item, where)
                return container(
                    FastCheck("list", min_items=t.min_items, max_items=t.max_items, unique=t.unique_items, inner=inner, nil_ok=nil_ok)
                )
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
                    return NONE if d.open else FastCheck("enum", values=d.values)  # (an open enum takes any string)
                if isinstance(d, ir.Alias) and isinstance(d.type, ir.TupleType | ir.UnionType):
                    return FastCheck("model", model=t.name)  # its own fastValid
                if isinstance(d, ir.Alias) and isinstance(d.type, ir.AnyType):
                    return self.check(d.type, where)  # a named free-form value, or schema applied as written: its checks
                return UNSURE
            case ir.AnyType(checks=ir.Checks() as checks):
                return FastCheck("checks", model=self.parsers.checks_var(checks))
            case ir.AnyType():
                return FastCheck("any")  # a value built in code: JSON within the levels left (rt.FitsJSONAt)
            case _:  # unions and tuples written inline: the exact walk decides
                return UNSURE

    def equal_as_json(self, t: ir.TypeRef) -> bool:
        """Whether Go's == on the item's Go value is JSON Schema's equality: strings, int64s, float64s (1 and 1.0
        are one value, NaN never passes the item check), booleans and enum values; not pointers (a nullable
        item), byte slices, times (two texts of one instant are distinct JSON) or anything holding more."""
        if isinstance(t, ir.Ref):
            return isinstance(self.fmt.definition(t.name), ir.Enum)
        return isinstance(t, ir.StringType | ir.NumericType | ir.BooleanType)

    def model(self, model: ir.Model, view: ModelView, where: str) -> FastModel:
        fields: dict[str, FastField] = {}
        for f, fv in zip(model.fields, view.fields):
            fields[f.wire_name] = self.field(f, fv, where)
        groups = tuple(tuple(fields[w] for w in r.fields) for r in model.rules if r.kind == "at_least_one_of")
        rules = [self.rule(model, r, fields) for r in model.rules if r.kind != "at_least_one_of" and not self.up_two(r)]
        rules.extend(self.items_rules(model, fields))
        sure = all(r is not None for r in rules) and not any(f.presence != "not_nil" and f.check.kind == "unsure" for f in fields.values())
        return FastModel(model.name, tuple(fields.values()), groups, tuple(r for r in rules if r is not None), sure, model.closed)

    @staticmethod
    def up_two(rule: ir.Rule) -> bool:
        """A member_of rule whose pool is a list field of the model holding a list of this model (up 2):
        the model cannot check it, its holder does (items_rules); alone, as the exact walk has it, it holds."""
        return rule.kind == "member_of" and rule.up == 2 and len(rule.pointer) == 1

    def items_rules(self, model: ir.Model, fields: dict[str, FastField]) -> list[FastRule | None]:
        """The up-2 member_of rules of the models this model holds: checked here when it holds them in a
        list field and has the pool; any other holding of such a model is not decided here (None)."""
        out: list[FastRule | None] = []
        names = dict(zip((f.wire_name for f in model.fields), self.go_fields(model)))
        for f in model.fields:
            held = self.held(f.type)
            for child_name in sorted(held):
                child = self.fmt.definition(child_name)
                assert isinstance(child, ir.Model)
                for r in child.rules:
                    if not self.up_two(r):
                        continue
                    found = self.model_list(model, f.wire_name)
                    value = self.text(child, r.fields[0])
                    pool = next((p for p in model.fields if p.wire_name == r.pointer[0]), None)
                    if (
                        found is None
                        or not isinstance(found[1], ir.Model)
                        or found[1].name != child_name
                        or value is None
                        or pool is None
                        or not (isinstance(pool.type, ir.ListType) and isinstance(pool.type.item, ir.StringType))
                    ):
                        out.append(None)
                        continue
                    out.append(FastRule("items_member_of", list=names[f.wire_name], pool=fields[pool.wire_name].name, value=value))
        return out

    def held(self, t: ir.TypeRef) -> set[str]:
        """The models a field type holds anywhere inside it."""
        match t:
            case ir.ListType():
                return self.held(t.item)
            case ir.MapType():
                return self.held(t.value)
            case ir.NullableType():
                return self.held(t.inner)
            case ir.UnionType():
                return {n for v in t.variants for n in self.held(v)}
            case ir.TupleType():
                return {n for v in t.items for n in self.held(v)}
            case ir.Ref():
                d = self.fmt.definition(t.name)
                if isinstance(d, ir.Model):
                    return {t.name}
                if isinstance(d, ir.Alias):
                    return self.held(d.type)
        return set()

    def tuple_check(self, name: str, t: ir.TupleType, fields: list[str], where: str) -> FastTuple:
        items = tuple((f, self.check(item, where)) for f, item in zip(fields, t.items))
        return FastTuple(name, items, not any(c.kind == "unsure" for _, c in items))

    def union_check(self, name: str, t: ir.UnionType, fields: list[str], pointers: list[bool], where: str) -> FastUnion:
        selectors = t.tags or t.json_kinds
        variants = tuple(
            (f, p, self.variant_check(t, v, selector, where)) for f, p, v, selector in zip(fields, pointers, t.variants, selectors)
        )
        # lower refuses two variants of one JSON kind or one tag, and a variant of JSON kind null (a tag is a string,
        # "null" among them): each selector picks one variant, as the exact walk reads it.
        return FastUnion(name, variants, not any(c.kind == "unsure" for _, _, c in variants))

    def variant_check(self, t: ir.UnionType, v: ir.TypeRef, selector: str, where: str) -> FastCheck:
        """A variant's check. A tagged variant's model must hold its tag as a constant, which its own fast check then
        requires: a struct set in one variant's field with another variant's tag is not sure (the exact walk reads
        the tag)."""
        if not t.discriminator:
            return self.check(v, where)
        model = self.fmt.definition(v.name) if isinstance(v, ir.Ref) else None
        if not isinstance(model, ir.Model):
            return UNSURE
        tag = next((f for f in model.fields if f.wire_name == t.discriminator), None)
        held = tag.type if tag is not None and tag.required else None
        if not isinstance(held, ir.StringType) or ir.allowed_values(held) != (selector,):
            return UNSURE
        return self.check(v, where)

    def tuple_text(self, alias: ir.Alias, token: str, fields: list[str]) -> FastText | None:
        """The item of a tuple at a pointer token, if it is a string or string enum."""
        assert isinstance(alias.type, ir.TupleType)
        n = ir.index_of(token)
        if n is None or n >= len(alias.type.items):
            return None
        t = alias.type.items[n]
        textual = isinstance(t, ir.StringType) or (isinstance(t, ir.Ref) and isinstance(self.fmt.definition(t.name), ir.Enum))
        return FastText(fields[n], pointer=False) if textual else None

    def text(self, model: ir.Model, wire: str) -> FastText | None:
        """The field as a JSON string in the tree, if it is a string or string enum (else None: not decided here)."""
        for f, name in zip(model.fields, self.go_fields(model)):
            if f.wire_name != wire:
                continue
            t = f.type
            nullable = False
            if isinstance(t, ir.NullableType):
                t, nullable = t.inner, True
            textual = isinstance(t, ir.StringType) or (isinstance(t, ir.Ref) and isinstance(self.fmt.definition(t.name), ir.Enum))
            if not textual:
                return None
            pointer = nullable or not (f.required or f.has_default or bool(f.default_factory))
            return FastText(name, pointer=pointer, enum=isinstance(t, ir.Ref))
        return None

    def when_text(self, model: ir.Model, wire: str, pointer: tuple[str, ...]) -> FastText | None:
        """The when-field's text: the field itself, or (pointer "<i>") item i of a required list of strings."""
        if not pointer:
            return self.text(model, wire)
        index = ir.index_of(pointer[0]) if len(pointer) == 1 else None
        if index is None:
            return None
        for f, name in zip(model.fields, self.go_fields(model)):
            if f.wire_name == wire and f.required and isinstance(f.type, ir.ListType):
                item = f.type.item
                if isinstance(item, ir.StringType) or (isinstance(item, ir.Ref) and isinstance(self.fmt.definition(item.name), ir.Enum)):
                    return FastText(name, pointer=False, index=index)
        return None

    def model_list(self, model: ir.Model, wire: str) -> tuple[str, ir.Model | ir.Alias] | None:
        """A list-of-models field: its Go name and the item model (a nil list ranges over nothing)."""
        for f, name in zip(model.fields, self.go_fields(model)):
            if f.wire_name != wire:
                continue
            t = f.type
            if isinstance(t, ir.NullableType):
                t = t.inner
            if isinstance(t, ir.ListType) and isinstance(t.item, ir.Ref):
                item = self.fmt.definition(t.item.name)
                if isinstance(item, ir.Model) or (isinstance(item, ir.Alias) and isinstance(item.type, ir.TupleType)):
                    return name, item
        return None

    def rule(self, model: ir.Model, rule: ir.Rule, fields: dict[str, FastField]) -> FastRule | None:
        """The rule on typed values, or None when this walk cannot decide it."""
        when = None
        if rule.when is not None:
            when = self.when_text(model, rule.when.field, rule.when.pointer)
            if when is None:
                return None
        match rule.kind:
            case "contains" | "allowed_when":
                found = self.model_list(model, rule.fields[0])
                if found is None or len(rule.pointer) != 1:
                    return None
                name, item_model = found
                if isinstance(item_model, ir.Alias):
                    item = self.tuple_text(item_model, rule.pointer[0], self.tuple_fields(item_model.name))
                else:
                    item = self.text(item_model, rule.pointer[0])
                if item is None or item.pointer:
                    return None
                equals = rule.when.equals if rule.kind == "allowed_when" and rule.when is not None else rule.equals or ""
                return FastRule(rule.kind, list=name, item=item, equals=equals, allowed=rule.allowed, when=when)
            case "required_when":
                return FastRule(rule.kind, target=fields[rule.fields[0]], equals=rule.when.equals if rule.when else "", when=when)
            case "member_of":
                value = self.text(model, rule.fields[0])
                if rule.up != 0 or len(rule.pointer) != 1 or value is None:
                    return None
                pool = next((f for f in model.fields if f.wire_name == rule.pointer[0]), None)
                if pool is None or not (isinstance(pool.type, ir.ListType) and isinstance(pool.type.item, ir.StringType)):
                    return None
                return FastRule(rule.kind, list=fields[rule.pointer[0]].name, value=value)
            case "compare":
                operands = tuple(self.operand(model, w, kind) for w, kind in zip(rule.fields, rule.operands))
                if None in operands:
                    return None
                return FastRule(rule.kind, op=rule.op or "", operands=tuple(o for o in operands if o is not None))
        return None

    def operand(self, model: ir.Model, wire: str, kind: str) -> FastOperand | None:
        """A compare rule's side as a typed value (a number, string, enum or time, or a pointer to one); None
        for a type written another way (an alias), which this walk does not decide."""
        for f, name in zip(model.fields, self.go_fields(model)):
            if f.wire_name != wire:
                continue
            t = f.type
            nullable = isinstance(t, ir.NullableType)
            t = ir.unwrap_nullable(t)
            enum = isinstance(t, ir.Ref) and isinstance(self.fmt.definition(t.name), ir.Enum)
            if not isinstance(t, (ir.NumericType, ir.StringType, ir.DateTimeType)) and not enum:
                return None
            return FastOperand(name, nullable or not (f.required or f.has_default or bool(f.default_factory)), kind, enum)
        return None

    def field(self, f: ir.Field, view: FieldView, where: str) -> FastField:
        check = self.check(f.type, where, nil_ok=view.nil_default is None)
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

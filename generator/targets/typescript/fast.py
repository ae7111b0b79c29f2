"""Fast-path views: per model, straight-line checks over a JSON.parse tree that build a surely
valid value (templates/typescript/fast_function.ts.j2).

A fast function returns rt.UNSURE at the first thing it is not sure of, and runText then runs
the exact walk (the parse functions), so messages and their order come from one place.
Everything here is conservative: a case left out only costs time. Which models take the
values above them (for member_of's relative pointers) and how deep a model's checks read
are worked out in generator/fastpath.py, as for the Python fast path.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Union

from generator import ir
from generator.fastpath import JSON_KINDS, ModelGraph
from generator.naming import constant_case
from generator.targets.typescript.literals import OBJECT_MEMBERS, exact_json, ts_matcher, ts_number, ts_str
from generator.targets.typescript.parsers import checks_expr


@dataclass(frozen=True)
class TsString:
    min_length: int | None
    max_length: int | None
    regex: str | None  # the module constant of the compiled pattern, e.g. "R_1"
    values: str | None  # the module constant of the allowed values (a Set), e.g. "S_1", or None with choices
    const: str | None  # a string literal
    choices: tuple[str, ...] = ()  # a few allowed values as string literals, compared one by one (see choices)
    same: bool = True
    format: str | None = None  # a format rt.formatOk checks, as a string literal
    kind: Literal["string"] = "string"


@dataclass(frozen=True)
class TsScalar:
    what: Literal["datetime", "bytes", "boolean", "any"]
    same: bool
    checks: str | None = None  # "any" applying a schema as written: the constant of its checks, e.g. "CHECKS_3f2a9c1b07de"
    values: tuple[str, ...] | None = None  # "boolean" with a const or an enum: the literals both leave (ir.allowed_values)
    kind: Literal["scalar"] = "scalar"


@dataclass(frozen=True)
class TsNumber:
    integer: bool
    bounds: tuple[tuple[str, str], ...]  # (operator that fails, bound literal), e.g. ("<", "0")
    multiple_of: int | None = None  # integers only, 1 to 2^53-1: the remainder of a safe integer is exact
    values: tuple[str, ...] | None = None  # with a const or an enum: the literals both leave (ir.allowed_values)
    same: bool = True
    kind: Literal["number"] = "number"


@dataclass(frozen=True)
class TsList:
    item: TsCheck
    min_items: int | None
    max_items: int | None
    unique_items: bool
    same: bool = False
    anc: bool = False  # its items' checks take the values above them (built once per list)
    kind: Literal["list"] = "list"


@dataclass(frozen=True)
class TsTuple:
    items: tuple[TsCheck, ...]
    same: bool = False
    kind: Literal["tuple"] = "tuple"


@dataclass(frozen=True)
class TsMap:
    value: TsCheck
    same: bool = False
    anc: bool = False  # as TsList.anc
    kind: Literal["map"] = "map"


@dataclass(frozen=True)
class TsNullable:
    inner: TsCheck
    same: bool
    kind: Literal["nullable"] = "nullable"


@dataclass(frozen=True)
class TsUnion:
    """By a discriminator's value (tags as string literals), or (discriminator None) by JSON kind."""

    discriminator: str | None  # the tag's wire name as a string literal
    cases: tuple[tuple[str, TsCheck], ...]
    same: bool
    open: bool = False  # x-open: an object whose tag is a string no case has is kept as it is
    kind: Literal["union"] = "union"


@dataclass(frozen=True)
class TsModel:
    fn: str  # e.g. "f_ChatEvent"
    anc: bool
    same: bool = False
    kind: Literal["model"] = "model"


TsCheck = Union[TsString, TsScalar, TsNumber, TsList, TsTuple, TsMap, TsNullable, TsUnion, TsModel]


@dataclass(frozen=True)
class TsFastField:
    local: str  # the parse function's local, e.g. "v3" (the entries and rules name it)
    read: str  # the expression reading the member from `obj`
    mode: Literal["required", "nullable", "optional"]
    check: TsCheck


@dataclass(frozen=True)
class TsMemberOf:
    local: str
    up: int
    pointer: str  # the tokens as an array literal
    # The tokens as string literals, read with rt.fastGet, when none is an index (all digits):
    # then where resolve() finds nothing, a plain read finds no array either. Else () (rt.fastMemberOf).
    keys: tuple[str, ...] = ()
    # The field has a default (or a fresh one): absent, the value judged is that default, which the fast
    # function does not hold; it steps aside then (the exact walk judges the default).
    defaulted: bool = False


@dataclass(frozen=True)
class TsStep:
    """One pointer token read from a value that passed its checks: a member or an item."""

    key: str  # the wire name as a string literal, e.g. '"id"', or the index, e.g. "0"
    index: bool


@dataclass(frozen=True)
class TsInlineRule:
    """A rule as straight-line code over the fast function's reads of its fields (w0, w1, ...),
    for when every pointer surely finds a value in values that passed their checks
    (TsFastBuilder.steps): the verdict rt.fastContains, rt.fastAllowedWhen, rt.fastRequiredWhen
    or rt.fastAtLeastOneOf would give, without their resolve() walks."""

    kind: Literal["contains", "allowed_when", "required_when", "at_least_one_of"]
    reads: tuple[str, ...]  # contains, allowed_when: the list's read; required_when: the field's; at_least_one_of: each field's
    each: tuple[TsStep, ...] = ()  # contains, allowed_when: from an item to the value the rule looks at
    equals: str | None = None  # contains: the string literal an item must hold
    when: str | None = None  # allowed_when, required_when: the read of the when-field, e.g. "w2"
    when_steps: tuple[TsStep, ...] = ()
    when_equals: str | None = None  # the string literal that turns the rule on
    allowed: str | None = None  # allowed_when: the module constant of the allowed values (a Set), or None with choices
    choices: tuple[str, ...] = ()  # allowed_when: a few allowed values as string literals (see choices)


@dataclass(frozen=True)
class TsFastFunction:
    name: str
    fn: str
    anc: bool
    levels: int
    fields: tuple[TsFastField, ...]
    member_of: tuple[TsMemberOf, ...]
    checks: tuple[
        str, ...
    ]  # rules checked natively: rt.fast<Rule>(obj, ...) calls, e.g. 'rt.fastRequiredWhen(obj, "url", "source", [], "url")'
    inline_rules: tuple[TsInlineRule, ...]  # rules checked by code of their own instead (TsInlineRule)
    probe_rules: tuple[str, ...]  # the exact walk's rule calls, run on a probe Context
    closed: bool
    keys_const: str
    # The keys of the value the fast function builds, in its order: the fields it always holds (given or
    # defaulted), then those it holds when given. An object whose keys come so, each holding the value the
    # checks would build, is that value itself (JSON.parse made it, nothing else holds it): no copy is made.
    order: str  # the constant: the array of those keys
    order_length: int
    fixed: int  # how many fields the value always holds (the first positions)
    all_fixed: bool  # every field is always held


def _tokens(tokens: tuple[str, ...]) -> str:
    return "[" + ", ".join(ts_str(t) for t in tokens) + "]"


def operands(r: ir.Rule, model: ir.Model) -> tuple[str, str]:
    """A compare rule's sides as rt.Operand literals: [field, kind, default (undefined: none)]."""
    by_wire = {f.wire_name: f for f in model.fields}
    return (
        f"[{ts_str(r.fields[0])}, {ts_str(r.operands[0])}, {exact_json(by_wire[r.fields[0]].default)}]",
        f"[{ts_str(r.fields[1])}, {ts_str(r.operands[1])}, {exact_json(by_wire[r.fields[1]].default)}]",
    )


def native_rule(r: ir.Rule, model: ir.Model, set_of: Callable[[str], str] = lambda expr: expr) -> str | None:
    """The runtime call that says a rule is surely met, for the kinds checked without a probe Context."""
    obj = "obj as rt.JsonObject"
    match r.kind:
        case "required_when" if r.when is not None:
            return f"rt.fastRequiredWhen({obj}, {ts_str(r.fields[0])}, {ts_str(r.when.field)}, {_tokens(r.when.pointer)}, {ts_str(r.when.equals)})"
        case "at_least_one_of":
            return f"rt.fastAtLeastOneOf({obj}, {_tokens(r.fields)})"
        case "allowed_when" if r.when is not None:
            allowed = set_of("new Set<string>(" + _tokens(r.allowed) + ")")
            return (
                f"rt.fastAllowedWhen({obj}, {ts_str(r.fields[0])}, {_tokens(r.pointer)}, {ts_str(r.when.field)}, "
                f"{_tokens(r.when.pointer)}, {ts_str(r.when.equals)}, {allowed})"
            )
        case "contains":
            return f"rt.fastContains({obj}, {ts_str(r.fields[0])}, {_tokens(r.pointer)}, {ts_str(r.equals or '')})"
        case "compare":
            left, right = operands(r, model)
            return f"rt.fastCompare({obj}, {left}, {right}, {ts_str(r.op or '')})"
        case _:
            return None


def takes_ancestors(c: TsCheck) -> bool:
    """Whether a check passes the values above its value on to a model's fast function."""
    match c:
        case TsModel():
            return c.anc
        case TsList():
            return takes_ancestors(c.item)
        case TsMap():
            return takes_ancestors(c.value)
        case TsTuple():
            return any(takes_ancestors(i) for i in c.items)
        case TsNullable():
            return takes_ancestors(c.inner)
        case TsUnion():
            return any(takes_ancestors(v) for _, v in c.cases)
        case _:
            return False


# Up to this many allowed strings are compared one by one (s !== "a" && s !== "b" ...), as Ajv
# does: a string JSON.parse made has no hash yet, and Set.has would compute one for every value.
FEW_CHOICES = 8


def choices(values: tuple[str, ...]) -> tuple[str, ...]:
    """The values as string literals when they are few (FEW_CHOICES), else () for a Set."""
    return tuple(ts_str(v) for v in values) if len(values) <= FEW_CHOICES else ()


def fast_fn(model: str) -> str:
    return f"f_{model}"


class TsFastBuilder:
    def __init__(self, fmt: ir.Format) -> None:
        self.base = ModelGraph(fmt)
        self.regexes: dict[str, str] = {}  # a compiled pattern's expression (literals.ts_matcher) -> constant
        self.sets: dict[str, str] = {}  # Set expression -> constant

    def constants(self) -> tuple[tuple[str, str], ...]:
        return (*((c, e) for e, c in self.regexes.items()), *((c, e) for e, c in self.sets.items()))

    def set_of(self, expr: str) -> str:
        return self.sets.setdefault(expr, f"S_{len(self.sets) + 1}")

    def check(self, t: ir.TypeRef) -> TsCheck:
        match t:
            case ir.DateTimeType():
                return TsScalar("datetime", same=True)
            case ir.BytesType():
                return TsScalar("bytes", same=False)
            case ir.StringType():
                regex = self.regexes.setdefault(ts_matcher(t.pattern), f"R_{len(self.regexes) + 1}") if t.pattern is not None else None
                few = choices(t.enum) if t.enum is not None else ()
                values = (
                    self.set_of("new Set<string>([" + ", ".join(ts_str(v) for v in t.enum) + "])")
                    if t.enum is not None and not few
                    else None
                )
                fmt = ts_str(t.checked_format) if t.checked_format is not None else None
                return TsString(
                    t.min_length, t.max_length, regex, values, ts_str(t.const) if t.const is not None else None, few, format=fmt
                )
            case ir.NumericType():
                bounds = tuple(
                    (op, ts_number(v))
                    for op, v in (("<", t.minimum), (">", t.maximum), ("<=", t.exclusive_minimum), (">=", t.exclusive_maximum))
                    if v is not None
                )
                numbers = ir.allowed_values(t)
                return TsNumber(t.integer, bounds, t.multiple_of, None if numbers is None else tuple(ts_number(v) for v in numbers))
            case ir.BooleanType():
                flags = ir.allowed_values(t)
                return TsScalar("boolean", same=True, values=None if flags is None else tuple("true" if v else "false" for v in flags))
            case ir.AnyType(checks=ir.Checks() as checks):
                const = self.sets.setdefault(checks_expr(checks), f"CHECKS_{checks.digest}")
                return TsScalar("any", same=True, checks=const)
            case ir.AnyType():
                return TsScalar("any", same=True)
            case ir.ListType():
                item = self.check(t.item)
                return TsList(item, t.min_items, t.max_items, t.unique_items, same=item.same, anc=takes_ancestors(item))
            case ir.TupleType():
                items = tuple(self.check(i) for i in t.items)
                return TsTuple(items, same=all(i.same for i in items))
            case ir.MapType():
                value = self.check(t.value)
                return TsMap(value, same=value.same, anc=takes_ancestors(value))
            case ir.NullableType():
                inner = self.check(t.inner)
                return TsNullable(inner, same=inner.same)
            case ir.UnionType():
                if t.discriminator is not None:
                    cases = tuple((ts_str(k), self.check(v)) for k, v in zip(t.tags, t.variants))
                    return TsUnion(ts_str(t.discriminator), cases, same=all(c.same for _, c in cases), open=t.open)
                cases = tuple((k, self.check(v)) for k, v in zip(t.json_kinds, t.variants) if k in JSON_KINDS)
                return TsUnion(None, cases, same=all(c.same for _, c in cases))
            case ir.Ref(target="model"):
                return TsModel(fast_fn(t.name), self.base.anc[t.name] > 0)
            case ir.Ref(target="enum"):
                enum = self.base.defs[t.name]
                assert isinstance(enum, ir.Enum)
                if enum.open:
                    return TsString(None, None, None, None, None)  # any string, kept as it is
                if few := choices(enum.values):
                    return TsString(None, None, None, None, None, few)
                return TsString(None, None, None, self.set_of(f"new Set<string>({constant_case(t.name)}_VALUES)"), None)
            case ir.Ref(target="alias"):
                alias = self.base.defs[t.name]
                assert isinstance(alias, ir.Alias)
                return self.check(alias.type)
            case _:
                raise AssertionError(f"no fast check for the IR type {t.kind!r}")

    def steps(self, t: ir.TypeRef, tokens: tuple[str, ...]) -> tuple[TsStep, ...] | None:
        """How to read tokens (rt.resolve's JSON pointer) from a value of type t that passed its
        checks, when each token surely finds a value there: a required member of a model, a
        tuple's position, a list's item below its minItems. None when resolve could find nothing
        (an optional member, null, a union, a short list): the rule keeps the runtime's walk."""
        found: list[TsStep] = []
        for token in tokens:
            t = self.base.unalias(t)
            # An item's index as resolve reads it ("01" is item 1); a longer one is past any tuple or minItems.
            index = int(token) if re.fullmatch(r"[0-9]{1,9}", token) else None
            match t:
                case ir.Ref(target="model"):
                    model = self.base.defs[t.name]
                    assert isinstance(model, ir.Model)
                    field = next((f for f in model.fields if f.wire_name == token), None)
                    if field is None or not field.required or token == "__proto__":
                        return None
                    found.append(TsStep(ts_str(token), index=False))
                    t = field.type
                case ir.TupleType() if index is not None and index < len(t.items):
                    found.append(TsStep(str(index), index=True))
                    t = t.items[index]
                case ir.ListType() if index is not None and t.min_items is not None and index < t.min_items:
                    found.append(TsStep(str(index), index=True))
                    t = t.item
                case _:
                    return None
        return tuple(found)

    def inline_rule(self, model: ir.Model, r: ir.Rule) -> TsInlineRule | None:
        """A rule as code of its own, when its pointers allow (steps); None keeps the runtime's call."""
        reads = {f.wire_name: (f"w{i}", f) for i, f in enumerate(model.fields)}
        if r.kind == "at_least_one_of":
            return TsInlineRule("at_least_one_of", tuple(reads[w][0] for w in r.fields))
        if r.kind not in ("contains", "allowed_when", "required_when"):
            return None
        read, field = reads[r.fields[0]]
        if r.kind == "required_when":
            each: tuple[TsStep, ...] = ()
        else:
            t = self.base.unalias(field.type)
            if isinstance(t, ir.NullableType):  # null is not a list: the rule has nothing to check
                t = self.base.unalias(t.inner)
            if not isinstance(t, ir.ListType) or (found := self.steps(t.item, r.pointer)) is None:
                return None
            each = found
        if r.kind == "contains":
            return TsInlineRule("contains", (read,), each, equals=ts_str(r.equals or ""))
        assert r.when is not None
        when, when_field = reads[r.when.field]
        # An absent or null when-field never equals the string; below it, every token must find a value.
        when_steps = self.steps(when_field.type, r.when.pointer) if when_field.required or not r.when.pointer else None
        if when_steps is None:
            return None
        when_equals = ts_str(r.when.equals)
        if r.kind == "required_when":
            return TsInlineRule("required_when", (read,), when=when, when_steps=when_steps, when_equals=when_equals)
        few = choices(r.allowed)
        allowed = None if few else self.set_of("new Set<string>(" + _tokens(r.allowed) + ")")
        return TsInlineRule(
            "allowed_when", (read,), each, when=when, when_steps=when_steps, when_equals=when_equals, allowed=allowed, choices=few
        )

    def function(self, model: ir.Model, locals_: list[str], probe_rules: list[str], held: list[bool]) -> TsFastFunction:
        """The model's fast function; held[i]: whether the built value always holds field i (given or defaulted)."""
        fields = []
        for f, local in zip(model.fields, locals_):
            read = (
                # An absent field named like an inherited member would read that member: rt.member reads own values only.
                f"rt.member(obj as rt.JsonObject, {ts_str(f.wire_name)})"
                if f.wire_name == "__proto__" or f.wire_name in OBJECT_MEMBERS
                else f"obj[{ts_str(f.wire_name)}]"
            )
            mode: Literal["required", "nullable", "optional"] = "optional" if not f.required else "nullable" if f.null_ok else "required"
            fields.append(TsFastField(local, read, mode, self.check(f.type)))
        by_wire = dict(zip((f.wire_name for f in model.fields), locals_))
        defaulted = {f.wire_name for f in model.fields if f.has_default or f.default_factory}
        member_of = tuple(
            TsMemberOf(
                by_wire[r.fields[0]],
                r.up,
                "[" + ", ".join(ts_str(p) for p in r.pointer) + "]",
                () if any(re.fullmatch(r"[0-9]+", p) for p in r.pointer) else tuple(ts_str(p) for p in r.pointer),
                r.fields[0] in defaulted,
            )
            for r in model.rules
            if r.kind == "member_of"
        )
        inline = [self.inline_rule(model, r) for r in model.rules]
        return TsFastFunction(
            name=model.name,
            fn=fast_fn(model.name),
            anc=self.base.anc[model.name] > 0,
            levels=max((1 + self.base.levels(f.type) for f in model.fields), default=0),
            fields=tuple(fields),
            member_of=member_of,
            checks=tuple(c for r, i in zip(model.rules, inline) if i is None and (c := native_rule(r, model, self.set_of)) is not None),
            inline_rules=tuple(i for i in inline if i is not None),
            probe_rules=tuple(probe_rules),
            closed=model.closed,
            keys_const=f"K_{model.name}",
            **self.order(model, held),
        )

    def order(self, model: ir.Model, held: list[bool]) -> dict[str, Any]:
        """The key order of the value the fast function builds (TsFastFunction.order)."""
        keys = [f.wire_name for f, h in zip(model.fields, held) if h] + [f.wire_name for f, h in zip(model.fields, held) if not h]
        fixed = sum(held)
        # Looked up by position (a key JSON.parse made is compared by identity first), not hashed. Not frozen, only
        # typed readonly: V8 reads a frozen array's items on a slower path (the key loops of a parse took 3-7% longer
        # on make bench's payloads), and no code outside the module sees the array.
        order = self.set_of(f"{_tokens(tuple(keys))} as readonly string[]")
        return {"order": order, "order_length": len(keys), "fixed": fixed, "all_fixed": fixed == len(keys)}

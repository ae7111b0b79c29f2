"""The msgspec module of one format: IR -> Struct and check views -> templates/msgspec/*.j2 -> black.

Each model is a msgspec Struct whose annotations carry what msgspec checks exactly as JSON Schema does
(types, lengths, bounds, closed models, tags, patterns Python's re runs in linear time); what it cannot
(the rules, other patterns, free-form values' depth, unique items) is a generated check on the decoded
Structs that raises _fast.Unsure where it cannot vouch, and the dataclass package then decides. A
construct neither can honour is refused here, naming it, so no format gets a reader that could give
another verdict than the dataclass package's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from generator import ir, nesting, standins
from generator.backtracking import runs_linear
from generator.errors import SpecError, pointer_of
from generator.naming import Names
from generator.pyformat import format_python
from generator.pyliterals import py_str, py_strs, py_value
from generator.pyregex import matcher, pinned
from generator.render import header
from generator.targets.msgspec.literals import TEMPLATES

INT64 = (-(2**63), 2**63 - 1)
MAX_DEPTH = 128  # the dataclass package's _rt.MAX_DEPTH: deeper documents are refused there
MAX_CHECK_LINES = 4000
MAX_INLINED = 1000  # models written out into the checks
# The names the module itself uses (its imports, constants and the builtins its checks call): no definition may
# take one (names starting with _ are the module's too).
RESERVED = frozenset(
    {
        "Annotated",
        "Any",
        "ClassVar",
        "Final",
        "Literal",
        "Mapping",
        "msgspec",
        "UNSET",
        "Meta",
        "UnsetType",
        "ValidationError",
        "FORMAT_ID",
        "VERSION",
        "type",
        "isinstance",
        "frozenset",
        "list",
        "dict",
        "tuple",
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "object",
        "None",
        "True",
        "False",
    }
)


@dataclass(frozen=True)
class FieldLine:
    """One Struct field: `attr: annotation = value` (value "" for a required field)."""

    attr: str
    annotation: str
    value: str


@dataclass(frozen=True)
class StructView:
    name: str
    options: str  # the class keywords after msgspec.Struct, e.g. "kw_only=True, forbid_unknown_fields=True"
    fields: tuple[FieldLine, ...]
    wire: tuple[tuple[str, str], ...]  # (wire name, attribute), the tag's too: _WIRE_ATTRS, which rules' pointers read
    tag: tuple[str, str] | None  # (attribute, value) of a tagged union's variant: a class attribute
    open: bool  # keeps properties the spec does not name (additional_properties)


def struct_module(package: str) -> str:
    """The msgspec package of the dataclass package `package`."""
    return f"{package}_msgspec"


class MsgspecModule:
    def __init__(self, fmt: ir.Format, names: Names, package: str) -> None:
        self.fmt = fmt
        self.names = names
        self.package = package
        self.patterns: dict[str, str] = {}  # matcher expression -> its module constant (patterns re cannot run linearly)
        self._refuse_recursion()
        self.tags = self._tags()
        self.needs = self._needs()

    # --- refusals ---

    def refuse(self, where: str, what: str) -> SpecError:
        return SpecError(
            self.fmt.source,
            where,
            f"the msgspec package cannot read {what} with JSON Schema's meaning",
            "leave out `msgspec = true` under [tool.chatspec] in pyproject.toml (the dataclass package reads every spec), "
            "or write the schema without it",
        )

    def where(self, d: ir.Definition, wire: str | None = None) -> str:
        """The place of a definition (or of one of a model's fields) in the spec."""
        base = pointer_of("$defs", d.name)
        if isinstance(d, ir.Model) and d.inline:
            base = d.inline  # a model the spec writes inside another schema
        return base + (pointer_of("properties", wire) if wire is not None else "")

    # --- what the format holds ---

    def _tags(self) -> dict[str, tuple[str, str]]:
        """Each variant model of a tagged union -> (tag field's wire name, its tag)."""
        tags: dict[str, tuple[str, str]] = {}
        for d, t in self._types():
            if isinstance(t, ir.UnionType) and t.discriminator is not None:
                for variant, tag in zip(t.variants, t.tags):
                    if not (isinstance(variant, ir.Ref) and variant.target == "model"):
                        raise self.refuse(self.where(d), "a tagged union of other than models")
                    if tags.get(variant.name, (t.discriminator, tag)) != (t.discriminator, tag):
                        raise self.refuse(self.where(d), f"the model {variant.name} under two tags")
                    tags[variant.name] = (t.discriminator, tag)
        # msgspec reads a tagged Struct met outside its union with the tag optional: refused, not widened.
        for d, t in self._types(unions=False):
            if isinstance(t, ir.Ref) and t.name in tags:
                raise self.refuse(self.where(d), f"the model {t.name} outside its tagged union")
        if self.fmt.root in tags:
            raise self.refuse(self.where(self.fmt.definition(self.fmt.root)), "a root model that is a tagged union's variant")
        return tags

    def _types(self, unions: bool = True) -> list[tuple[ir.Definition, ir.TypeRef]]:
        """Every type node of the format with its definition (unions=False: not below a tagged union)."""
        found: list[tuple[ir.Definition, ir.TypeRef]] = []
        for d in self.fmt.definitions:
            stack = list(ir.types_of(d))
            while stack:
                t = stack.pop()
                found.append((d, t))
                if unions or not (isinstance(t, ir.UnionType) and t.discriminator is not None):
                    stack.extend(ir.children(t))
        return found

    def _refuse_recursion(self) -> None:
        """Refuses a definition the root reaches that holds itself (the dataclass package's depth limit bounds such
        documents, and msgspec's is deeper), and a format nested nearly as deep as that limit; the checks below may
        then walk from the root without meeting a definition twice on a path."""
        height: dict[str, int] = {}  # a definition -> the most levels its values nest below them
        open_: list[str] = []
        deepest = MAX_DEPTH - 16

        def too_deep() -> SpecError:
            return self.refuse(self.where(self.fmt.definition(self.fmt.root)), "a format nested nearly as deep as the depth limit")

        # depth: how deep the walk is in a document (so a long chain of definitions is refused before it runs
        # Python out of stack); the height found is the same whatever depth a definition is first met at.
        def levels(t: ir.TypeRef, depth: int) -> int:
            if isinstance(t, ir.Ref):
                return visit(t.name, depth)
            step = 0 if isinstance(t, (ir.NullableType, ir.UnionType)) else 1 if ir.children(t) else 0
            return max([levels(c, depth + step) for c in ir.children(t)] or [0]) + step

        def visit(name: str, depth: int) -> int:
            if name in open_:
                raise self.refuse(
                    self.where(self.fmt.definition(name)), "a recursive definition (the depth limit is the dataclass package's)"
                )
            if depth > deepest:
                raise too_deep()
            if name not in height:
                open_.append(name)
                d = self.fmt.definition(name)
                step = 1 if isinstance(d, ir.Model) else 0
                height[name] = max([levels(t, depth + step) + step for t in ir.types_of(d)], default=0)
                open_.pop()
            return height[name]

        visit(self.fmt.root, 0)  # (a definition the root does not reach is a Struct no document is read into)
        if height[self.fmt.root] > deepest:
            raise too_deep()

    def _models_in(self, t: ir.TypeRef) -> list[str]:
        """The models a field's type holds, through aliases, lists, maps, tuples, unions and null."""
        if isinstance(t, ir.Ref):
            if t.target == "model":
                return [t.name]
            alias = self.fmt.definition(t.name)
            return self._models_in(alias.type) if isinstance(alias, ir.Alias) else []
        return [m for inner in ir.children(t) for m in self._models_in(inner)]

    def _needs(self) -> set[str]:
        """The models whose decoded objects need a generated check (their own, or one below them)."""
        own = {m.name for m in self.fmt.models if m.rules or any(self._own_check(f.type) for f in m.fields)}
        needs = set(own)
        changed = True
        while changed:
            changed = False
            for m in self.fmt.models:
                if m.name not in needs and any(n in needs for f in m.fields for n in self._models_in(f.type)):
                    needs.add(m.name)
                    changed = True
        return needs

    def _own_check(self, t: ir.TypeRef) -> bool:
        """Whether a type's values need a check msgspec does not run (not counting the models they hold)."""
        match t:
            case ir.StringType():
                return t.pattern is not None and not runs_linear(t.pattern)
            case ir.AnyType():
                return True
            case ir.ListType():
                return t.unique_items or self._own_check(t.item)
            case ir.Ref(target="alias"):
                alias = self.fmt.definition(t.name)
                return isinstance(alias, ir.Alias) and self._own_check(alias.type)
            case _:
                return any(self._own_check(inner) for inner in ir.children(t))

    # --- annotations ---

    def annotation(self, t: ir.TypeRef, where: str) -> str:
        match t:
            case ir.StringType():
                if t.checked_format is not None:
                    raise self.refuse(where, f"the string format {t.checked_format!r}")
                values = ir.allowed_values(t)
                if values is not None:
                    if t.pattern is not None:
                        raise self.refuse(where, "a const or enum with a pattern")
                    # The values the lengths also let through: a Literal is all msgspec checks of them.
                    kept = [v for v in values if _within(len(v), t.min_length, t.max_length)]
                    if not kept:
                        raise self.refuse(where, "a string type no value satisfies")
                    return f"Literal[{', '.join(py_str(v) for v in kept)}]"
                meta = {"min_length": t.min_length, "max_length": t.max_length}
                pattern = t.pattern if t.pattern is not None and runs_linear(t.pattern) else None
                return _meta("str", meta, pattern)
            case ir.DateTimeType():
                return "_rt.DateTime"
            case ir.BytesType():
                return "bytes"
            case ir.NumericType():
                numbers = ir.allowed_values(t)
                if numbers is not None:
                    # (A number's 1.0 is 1 to JSON Schema, but the dataclass package keeps it a float: no Literal holds it.)
                    if not t.integer or not all(isinstance(v, int) and not isinstance(v, bool) for v in numbers):
                        raise self.refuse(where, "a const or enum of type number (one of type integer is read)")
                    # The values the bounds and multipleOf also let through: a Literal is all msgspec checks of them.
                    whole = _integer_bounds(t)
                    fits = [v for v in numbers if whole[0] <= v <= whole[1] and (t.multiple_of is None or v % t.multiple_of == 0)]
                    if not fits:
                        raise self.refuse(where, "a number type no value satisfies")
                    return f"Literal[{', '.join(py_value(v) for v in fits)}]"
                if t.multiple_of is not None and not t.integer:
                    raise self.refuse(where, "multipleOf on a number")
                whole = _integer_bounds(t)
                if t.integer:  # every target's integers are 64-bit (the dataclass package refuses the others)
                    return _meta("int", {"ge": max(whole[0], INT64[0]), "le": min(whole[1], INT64[1]), "multiple_of": t.multiple_of})
                # msgspec takes one bound a side: the stricter of the inclusive and the exclusive one.
                ge, gt = _stricter(t.minimum, t.exclusive_minimum, lambda a, b: a > b)
                le, lt = _stricter(t.maximum, t.exclusive_maximum, lambda a, b: a < b)
                # msgspec holds a float's bound as a double, and each is one: a typed bound is below 2^53 in size, or
                # lower applies the schema as written (lower.typed_bound).
                # An integer stays an int, as JSON wrote it; its bounds are the whole numbers within them.
                # (Past 64 bits msgspec refuses it and the dataclass package decides: a number is a float64 there.)
                ints = {"ge": max(whole[0], INT64[0]), "le": min(whole[1], INT64[1])}
                return f"{_meta('int', ints)} | {_meta('float', {'ge': ge, 'gt': gt, 'le': le, 'lt': lt})}"
            case ir.BooleanType():
                if ir.allowed_values(t) not in (None, (True, False), (False, True)):
                    raise self.refuse(where, "a boolean const or enum")
                return "bool"
            case ir.AnyType():
                if t.checks is not None:
                    raise self.refuse(where, "a schema applied as written")
                return "Any"
            case ir.ListType():
                if t.unique_items and not self.fmt.plain_json(t.item):
                    raise self.refuse(where, "uniqueItems on items that are not plain JSON")
                return _meta(f"list[{self.annotation(t.item, where)}]", {"min_length": t.min_items, "max_length": t.max_items})
            case ir.TupleType():
                return f"tuple[{', '.join(self.annotation(i, where) for i in t.items)}]"
            case ir.MapType():
                return f"dict[str, {self.annotation(t.value, where)}]"
            case ir.NullableType():
                return f"{self.annotation(t.inner, where)} | None"
            case ir.UnionType():
                if t.open:
                    raise self.refuse(where, "an open union (x-open)")
                self.check_union(t, where)
                return " | ".join(self.annotation(v, where) for v in t.variants)
            case ir.Ref():
                d = self.fmt.definition(t.name)
                if isinstance(d, ir.Enum) and d.open:
                    raise self.refuse(self.where(d), "an open enum (x-open)")
                return t.name
        raise self.refuse(where, f"the type {t.kind}")

    # --- views ---

    def struct(self, model: ir.Model) -> StructView:
        tag = self.tags.get(model.name)
        options = ["kw_only=True", "forbid_unknown_fields=True"]
        if tag is not None:
            options += [f"tag_field={py_str(tag[0])}", f"tag={py_str(tag[1])}"]
        if not model.closed:
            options.append("dict=True")  # additional_properties is set on the object that has some
        attrs = dict(zip((f.wire_name for f in model.fields), self.names.of_model(model)))
        lines: list[FieldLine] = []
        for f in model.fields:
            if tag is not None and f.wire_name == tag[0]:
                self.check_tag(model, f, tag[1])
                continue  # msgspec reads the tag to choose the variant
            lines.append(self.field(model, f, attrs[f.wire_name]))
        if not model.closed and "additional_properties" in attrs.values():
            raise self.refuse(self.where(model), "an open model with a field named additional_properties")
        tag_attr = (attrs[tag[0]], tag[1]) if tag is not None else None
        return StructView(model.name, ", ".join(options), tuple(lines), tuple(attrs.items()), tag_attr, not model.closed)

    def kinds(self, t: ir.TypeRef) -> list[str]:
        """The JSON kinds msgspec tells a union's members apart by, one entry per member that reads it ("custom": a
        date-time, which msgspec lets share a union with null only)."""
        match t:
            case ir.Ref(target="alias"):
                alias = self.fmt.definition(t.name)
                assert isinstance(alias, ir.Alias)
                return self.kinds(alias.type)
            case ir.NullableType():
                return [*self.kinds(t.inner), "null"]
            case ir.UnionType():
                return [k for v in t.variants for k in self.kinds(v)]
            case ir.StringType() | ir.BytesType() | ir.Ref(target="enum"):
                return ["string"]
            case ir.DateTimeType():
                return ["custom"]
            case ir.NumericType():
                return ["integer"] if t.integer else ["integer", "number"]
            case ir.BooleanType():
                return ["boolean"]
            case ir.ListType() | ir.TupleType():
                return ["array"]
            case ir.Ref(target="model") if t.name in self.tags:
                return [f"tagged {self.tags[t.name][0]}"]
        return ["object"]  # a map, an untagged model, a free-form value (any kind)

    def check_union(self, t: ir.UnionType, where: str) -> None:
        kinds = [k for v in t.variants for k in self.kinds(v)]
        if "custom" in kinds and any(k not in ("custom", "null") for k in kinds):
            raise self.refuse(where, "a date-time in a union with other kinds than null")
        # (lower makes a union only of members of distinct JSON kinds, or of tagged models: a safety net for msgspec's rule)
        twice = sorted({k for k in kinds if kinds.count(k) > 1 and not k.startswith("tagged ")})
        if (
            twice
            or len({k for k in kinds if k.startswith("tagged ")}) > 1
            or ("object" in kinds and any(k.startswith("tagged ") for k in kinds))
        ):
            raise self.refuse(where, f"a union msgspec cannot tell apart ({', '.join(twice) or 'objects'} twice)")

    def check_tag(self, model: ir.Model, f: ir.Field, tag: str) -> None:
        """msgspec checks a variant's tag only by choosing the variant with it: the tag field may say nothing else."""
        where = self.where(model, f.wire_name)
        if not f.required:
            raise self.refuse(where, "a union's tag the variant does not require")
        t = self.fmt.underlying(f.type)
        plain = isinstance(t, ir.StringType) and t.pattern is None and t.checked_format is None
        if not (
            plain
            and isinstance(t, ir.StringType)
            and _within(len(tag), t.min_length, t.max_length)
            and tag in (ir.allowed_values(t) or (tag,))
        ):
            raise self.refuse(where, "a union's tag field with keywords beside its value")

    def field(self, model: ir.Model, f: ir.Field, attr: str) -> FieldLine:
        where = self.where(model, f.wire_name)
        annotation = self.annotation(f.type, where)
        given: list[str] = []
        if f.required:
            pass
        elif f.default_factory == "uuid4":
            given.append("default_factory=_rt.new_uuid4")
        elif f.default_factory is not None:
            raise self.refuse(where, f"the default {f.default_factory}")
        elif f.has_default:
            if self.fmt.built_default(f.type, f.default):
                raise self.refuse(where, "a default that is not plain JSON")
            if isinstance(f.default, (list, dict)) and f.default:
                given.append(f"default_factory=lambda: {py_value(f.default)}")
            else:
                given.append(f"default={py_value(f.default)}")
        else:
            annotation += " | UnsetType"  # absent: UNSET; null only where the type holds it
            given.append("default=_UNSET")
        if attr != f.wire_name:
            given.append(f"name={py_str(f.wire_name)}")
        if not given:
            return FieldLine(attr, annotation, "")
        if given == ["default=_UNSET"]:
            return FieldLine(attr, annotation, "_UNSET")
        # (_field and _UNSET: a field the class body binds first may be named msgspec or UNSET)
        return FieldLine(attr, annotation, f"_field({', '.join(given)})")

    # --- the checks msgspec does not run: one function from the root, each model's written where it is met ---

    def checks(self) -> tuple[str, ...]:
        """The body of _check(value): every model's checks inlined where the document holds it, so a rule
        reads its ancestors as locals and a member_of pool becomes a set once per holder."""
        self.loops = 0
        self.inlined = 0
        self.pools: dict[str, list[str]] = {}  # a holder's expression -> the pool sets its body starts with
        root = self.fmt.definition(self.fmt.root)
        body = self.walk(ir.ref_to(root), "value", 0, (), self.where(root))  # a root may be any definition
        if len(body) > MAX_CHECK_LINES:
            raise self.refuse(self.where(root), f"a format whose checks take {len(body)} lines written out")
        # Python compiles at most 20 nested blocks and about 100 levels of indentation.
        loops = _max_nesting(body, "for ")
        depth = max((len(line) - len(line.lstrip())) // 4 for line in body) if body else 0
        if loops > 18 or depth > 90:
            raise self.refuse(self.where(root), f"a format nested too deep for its checks written out ({loops} loops, {depth} levels)")
        return tuple(body)

    def model_checks(self, name: str, me: str, depth: int, chain: tuple[tuple[str, str | None], ...]) -> list[str]:
        """The statements checking the object `me` of model `name`, `depth` levels into the document;
        chain: the values above it, nearest last, each with its model's name (None: a list, map or tuple)."""
        model = self.fmt.definition(name)
        if name not in self.needs or not isinstance(model, ir.Model):
            return []
        self.inlined += 1
        if self.inlined > MAX_INLINED:
            # A model met at many places is written at each (a tree of shared models grows them exponentially).
            root = self.fmt.definition(self.fmt.root)
            raise self.refuse(self.where(root), f"a format whose checks would write its models out more than {MAX_INLINED} times")
        attrs = dict(zip((f.wire_name for f in model.fields), self.names.of_model(model)))
        here = (*chain, (me, name))
        self.pools[me] = []
        lines: list[str] = []
        for f in model.fields:
            value = f"{me}.{attrs[f.wire_name]}"
            inner = self.walk(f.type, value, depth + 1, here, self.where(model, f.wire_name))
            if inner and not f.required and not f.has_default and f.default_factory is None:
                inner = [f"if {value} is not UNSET:", *_indent(inner)]
            lines += inner
        for rule in model.rules:
            lines += self.rule(model, rule, attrs, me, here)
        return self.pools.pop(me) + lines

    def walk(self, t: ir.TypeRef, value: str, depth: int, chain: tuple[tuple[str, str | None], ...], where: str) -> list[str]:
        """The statements checking a value of t at `value`, `depth` levels into the document."""
        match t:
            case ir.Ref(target="model"):
                return self.model_checks(t.name, value, depth, chain)
            case ir.Ref(target="alias"):
                alias = self.fmt.definition(t.name)
                assert isinstance(alias, ir.Alias)
                return self.walk(alias.type, value, depth, chain, where)
            case ir.NullableType():
                inner = self.walk(t.inner, value, depth, chain, where)
                return [f"if {value} is not None:", *_indent(inner)] if inner else []
            case ir.StringType() if t.pattern is not None and not runs_linear(t.pattern):
                return [f"if {self.pattern(t.pattern)}.search({value}) is None:", "    raise _fast.Unsure"]
            case ir.AnyType():
                # The dataclass package refuses a free-form value past its depth limit (msgspec's is deeper).
                return [f"if type({value}) is not str and not _rt.json_fits({value}, {MAX_DEPTH - depth}):", "    raise _fast.Unsure"]
            case ir.ListType() | ir.MapType() | ir.TupleType():
                lines = (
                    [f"if _rt.has_duplicates({value}, {depth}):", "    raise _fast.Unsure"]
                    if isinstance(t, ir.ListType) and t.unique_items
                    else []
                )
                below = (*chain, (value, None))
                if isinstance(t, ir.TupleType):
                    return lines + [
                        line for i, it in enumerate(t.items) for line in self.walk(it, f"{value}[{i}]", depth + 1, below, where)
                    ]
                self.loops += 1
                item = f"x{self.loops}"
                inner = self.walk(t.item if isinstance(t, ir.ListType) else t.value, item, depth + 1, below, where)
                source = value if isinstance(t, ir.ListType) else f"{value}.values()"
                return lines + ([f"for {item} in {source}:", *_indent(inner)] if inner else [])
            case ir.UnionType():
                lines = []
                for v in t.variants:
                    inner = self.walk(v, value, depth, chain, where)
                    if inner:
                        lines += [f"if {self.is_variant(v, value, where)}:", *_indent(inner)]
                return lines
        return []

    def is_variant(self, t: ir.TypeRef, value: str, where: str) -> str:
        t = self.fmt.underlying(t)
        match t:
            case ir.Ref(target="model"):
                return f"type({value}) is {t.name}"
            case ir.ListType() | ir.TupleType():
                return f"isinstance({value}, {'list' if isinstance(t, ir.ListType) else 'tuple'})"
            case ir.MapType():
                return f"isinstance({value}, dict)"
        raise self.refuse(where, "a union whose variant needs a check no JSON kind tells apart")

    def pattern(self, pattern: str) -> str:
        return self.patterns.setdefault(matcher(pattern), f"_RE_{len(self.patterns) + 1}")

    def access(self, t: ir.TypeRef, pointer: tuple[str, ...], unset: bool = False) -> tuple[str, bool, bool] | None:
        """A rule's pointer into a value of t as attribute and index steps, whether a step is a field with a
        default (which the object holds where the document left it out), and whether the last step may be
        UNSET (an optional field without one; unset: whether the value t describes may be); None: no such steps."""
        steps, defaulted = "", False
        for token in pointer:
            t = self.fmt.underlying(t)
            if isinstance(t, ir.Ref) and t.target == "model":
                model = self.fmt.definition(t.name)
                assert isinstance(model, ir.Model)
                f = next((f for f in model.fields if f.wire_name == token), None)
                if f is None:
                    return None
                steps += "." + self.names.fields[model.name, token]
                defaulted |= f.has_default or f.default_factory is not None
                unset = not (f.required or f.has_default or f.default_factory is not None)
                t = f.type
                continue
            elif isinstance(t, ir.TupleType) and (n := ir.index_of(token)) is not None and n < len(t.items):
                steps += f"[{n}]"
                t = t.items[n]
            elif isinstance(t, ir.ListType) and (n := ir.index_of(token)) is not None:
                steps += f"[{n}]"  # past the end: IndexError, and the dataclass package decides
                t = t.item
            else:
                return None
            unset = False
        end = self.fmt.underlying(t)
        if isinstance(end, ir.DateTimeType):
            if unset or end is not self._unaliased(t):
                return None  # UNSET or None, maybe: no text to read
            steps += ".wire"  # the text the document wrote, which the exact rule compares
        elif not isinstance(end, (ir.StringType, ir.NumericType, ir.BooleanType)) and not (
            isinstance(end, ir.Ref) and end.target == "enum"
        ):
            return None  # a value the object holds in another form than the document's (bytes, a model, ...)
        return steps, defaulted, unset

    def _unaliased(self, t: ir.TypeRef) -> ir.TypeRef:
        """t with its aliases followed, but not through null (a nullable type stays one)."""
        while isinstance(t, ir.Ref) and t.target == "alias":
            alias = self.fmt.definition(t.name)
            assert isinstance(alias, ir.Alias)
            t = alias.type
        return t

    def items_of(self, model: ir.Model, wire: str) -> ir.TypeRef | None:
        """The item type of a list field, else None."""
        t = self.fmt.underlying(next(f for f in model.fields if f.wire_name == wire).type)
        return t.item if isinstance(t, ir.ListType) else None

    def rule(self, model: ir.Model, r: ir.Rule, attrs: dict[str, str], me: str, here: tuple[tuple[str, str | None], ...]) -> list[str]:
        """A rule on the object `me`: raises _fast.Unsure on a violation and wherever the object cannot tell
        what the exact rule, reading the document, would find (so a pass is always the exact rule's pass)."""
        where = self.where(model)
        by_wire = {f.wire_name: f for f in model.fields}

        def value(wire: str) -> str:
            return f"{me}.{attrs[wire]}"

        def defaulted(wire: str) -> bool:
            return by_wire[wire].has_default or by_wire[wire].default_factory is not None

        def when() -> str:
            assert r.when is not None
            w = value(r.when.field)
            f = by_wire[r.when.field]
            steps = self.access(f.type, r.when.pointer, unset=not (f.required or defaulted(r.when.field)))
            if steps is not None:
                # UNSET (left out) equals no string, as the document's missing value does not.
                return f"{w}{steps[0]} == {py_str(r.when.equals)}"
            return f"({w} is not UNSET and _rt.resolve_value({w}, {py_strs(r.when.pointer)}) == {py_str(r.when.equals)})"

        unsure = "    raise _fast.Unsure"
        if r.kind == "member_of":
            read = self.fmt.underlying(by_wire[r.fields[0]].type)
            if not (isinstance(read, ir.StringType) or (isinstance(read, ir.Ref) and read.target == "enum")):
                raise self.refuse(where, "a member_of rule on a field that is no plain string")
            if r.up >= len(here):
                raise self.refuse(where, f"a member_of rule reading {r.up} levels up, above the document")
            holder, holder_model = here[-1 - r.up]
            item = value(r.fields[0])
            pool_field = None
            if holder_model is not None and len(r.pointer) == 1:
                h = self.fmt.definition(holder_model)
                assert isinstance(h, ir.Model)
                found = next((f for f in h.fields if f.wire_name == r.pointer[0]), None)
                if found is not None and isinstance(self.fmt.underlying(found.type), ir.ListType):
                    pool_field = self.names.fields[h.name, found.wire_name]
            if pool_field is None:
                return [f"if not _rt.attr_member_of({item}, {holder}, {py_strs(r.pointer)}):", unsure]
            # The pool as a set, once per holder: a list of strings msgspec read, or absent (no check).
            source = f"_fast.pool({holder}.{pool_field})"
            pool = next((line.split(" = ")[0] for line in self.pools[holder] if line.endswith(" = " + source)), None)
            if pool is None:
                self.loops += 1
                pool = f"pool{self.loops}"
                self.pools[holder].append(f"{pool} = {source}")
            return [f"if {pool} is not None and type({item}) is str and {item} not in {pool}:", unsure]
        if r.kind == "at_least_one_of":
            if any(defaulted(w) for w in r.fields):
                raise self.refuse(where, "at_least_one_of over a field with a default (the object does not say whether it was given)")
            return [f"if {' and '.join(f'({value(w)} is UNSET or {value(w)} is None)' for w in r.fields)}:", unsure]
        if r.kind == "required_when":
            if defaulted(r.fields[0]):
                raise self.refuse(where, "required_when on a field with a default (the object does not say whether it was given)")
            return [f"if ({value(r.fields[0])} is UNSET or {value(r.fields[0])} is None) and {when()}:", unsure]
        item_type = self.items_of(model, r.fields[0])
        steps = self.access(item_type, r.pointer) if item_type is not None else None
        items = value(r.fields[0])
        self.loops += 1
        x = f"x{self.loops}"
        if r.kind == "allowed_when":
            allowed = py_strs(tuple(sorted(r.allowed)))
            if steps is None:
                return [
                    f"if {when()} and not _rt.attr_all_allowed(_fast.given({items}), {py_strs(r.pointer)}, frozenset({allowed})):",
                    unsure,
                ]
            # A value left out is skipped, as the exact rule skips one the document does not hold.
            at = f"{x}{steps[0]}"
            test = f"{at} is not UNSET and {at} not in {allowed}" if steps[2] else f"{at} not in {allowed}"
            return [
                f"if {when()} and isinstance({items}, list):",
                f"    for {x} in {items}:",
                f"        if {test}:",
                "            raise _fast.Unsure",
            ]
        if r.kind == "contains":
            if steps is None or steps[1]:
                # A default the object holds may be the value looked for where the document has none.
                raise self.refuse(where, "a contains rule whose pointer does not name fields without defaults")
            return [
                f"if isinstance({items}, list):",
                f"    for {x} in {items}:",
                f"        if {x}{steps[0]} == {py_str(r.equals or '')}:",
                "            break",
                "    else:",
                "        raise _fast.Unsure",
            ]
        raise self.refuse(where, f"the rule {r.kind}")

    def aliases(self) -> list[tuple[str, str]]:
        """(name, annotation) of every enum, then every alias after those it uses (the module binds them at import,
        after the classes; msgspec resolves the names when the decoder is made)."""
        written: list[tuple[str, str]] = []
        for d in self.fmt.definitions:
            if isinstance(d, ir.Enum):
                if d.open:
                    raise self.refuse(self.where(d), "an open enum (x-open)")
                written.append((d.name, f"Literal[{', '.join(py_str(v) for v in d.values)}]"))
        return written + [(a.name, self.annotation(a.type, self.where(a))) for a in nesting.alias_order(self.fmt)]

    def module(self) -> str:
        for d in self.fmt.definitions:
            if d.name in RESERVED or d.name.startswith("_") or d.name == f"parse_{self.fmt.id}_from_json":
                raise self.refuse(self.where(d), f"a definition named {d.name} (a name the module uses itself)")
        # Formatted with the version stood in for (generator/standins.py), then the version put back: the bump that
        # follows every edit of a spec gives black nothing new to format here, so a run after an edit of descriptions
        # (which this module does not hold) need not import black (0.1 s of that run's 0.8).
        slot = f"msgspec/{self.fmt.id}"
        if standins.plain(self.fmt.version):
            formatted = format_python(self.code(standins.VERSION), slot)
            restored = standins.put_back(formatted, [], _VERSION_LINES, version=self.fmt.version)
            if restored is not None:
                standins.made(formatted, restored)  # its examples' check is remembered by the module stood in (examples.py)
                return restored
        return format_python(self.code(self.fmt.version), slot)

    def code(self, version: str) -> str:
        """The module as rendered, before black, with `version` written as the format's."""
        return TEMPLATES.render(
            "msgspec/module.py.j2",
            header=header(self.fmt.source),
            fmt=self.fmt,
            version=version,
            package=self.package,
            structs=[self.struct(m) for m in self.fmt.models],
            aliases=self.aliases(),
            checks=self.checks(),
            patterns=sorted(((name, expr) for expr, name in self.patterns.items())),
            parse=f"parse_{self.fmt.id}_from_json",
        )


# The lines the version's stand-in may be on (spelt V): the docstring's first line and the VERSION constant, neither
# of which black formats by its content.
_VERSION_LINES = [re.compile(r'^"""[^"\\]* \(format [^"\\]*, version V\), read by msgspec\.$'), re.compile(r'^VERSION: Final = "V"$')]


def _meta(base: str, meta: Mapping[str, object], pattern: str | None = None) -> str:
    given = [f"{k}={py_value(v)}" for k, v in meta.items() if v is not None]
    if pattern is not None:
        given.append(f"pattern={pinned(pattern)}")
    return f"Annotated[{base}, Meta({', '.join(given)})]" if given else base


def _within(n: int, low: int | None, high: int | None) -> bool:
    return (low is None or n >= low) and (high is None or n <= high)


def _integer_bounds(t: ir.NumericType) -> tuple[float, float]:
    """The least and the greatest integer a numeric type's bounds let through (-inf, inf where unbounded)."""
    low: float = -math.inf
    high: float = math.inf
    if t.minimum is not None:
        low = max(low, math.ceil(t.minimum))
    if t.exclusive_minimum is not None:
        low = max(low, math.floor(t.exclusive_minimum) + 1)
    if t.maximum is not None:
        high = min(high, math.floor(t.maximum))
    if t.exclusive_maximum is not None:
        high = min(high, math.ceil(t.exclusive_maximum) - 1)
    return low, high


def _stricter(
    inclusive: float | None, exclusive: float | None, beyond: Callable[[float, float], bool]
) -> tuple[float | None, float | None]:
    """(inclusive, exclusive) with only the stricter of the two bounds of one side kept."""
    if inclusive is None or exclusive is None:
        return inclusive, exclusive
    return (inclusive, None) if beyond(inclusive, exclusive) else (None, exclusive)


def _max_nesting(lines: list[str], opener: str) -> int:
    """How many blocks opened by `opener` lines (e.g. for loops) enclose one another at most, from indentation."""
    open_at: list[int] = []
    most = 0
    for line in lines:
        indent = len(line) - len(line.lstrip())
        while open_at and open_at[-1] >= indent:
            open_at.pop()
        if line.lstrip().startswith(opener):
            open_at.append(indent)
            most = max(most, len(open_at))
    return most


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def render_module(fmt: ir.Format, package: str, names: Names) -> dict[str, str]:
    """generated/msgspec/<package>_msgspec/<format>.py."""
    return {f"msgspec/{struct_module(package)}/{fmt.id}.py": MsgspecModule(fmt, names, package).module()}

"""nesting: how deep a format's types may nest, checked when a spec is lowered (so before `bump` locks it).

A model is a function of its own in every code target, but everything else a field or an alias
holds is written out inline, through the aliases it names: the generated Python checks each level
of an array inside the last (a `for` and a `try`, two nested blocks), and Python compiles at most
20 nested blocks in one function; the pipeline's own walks over a type (naming, the fast paths,
the Go types) go one call deeper for each type it holds, and Python stops at 1,000 calls. So a
type, counted from the field or alias where it is written down to the models it names, may hold:

- at most MAX_LEVELS levels of arrays, maps and tuples (the levels a value of it nests), and
- at most MAX_TYPES types one inside another, each alias followed counting as one.

Either limit passed is refused naming the field or alias, the count and the aliases it goes
through; the fix is the same: hold an inner level in an object model (a $defs entry with
properties) and $ref it, or $ref the end of a chain of aliases directly. tests/test_nesting.py
builds the deepest spec of each kind accepted and compiles and runs it in Python, Go and TypeScript.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from generator import ir
from generator.errors import SpecError, pointer_of

Node = TypeVar("Node", bound=Hashable)

# Eight levels: the generated Python's deepest function then nests 15 blocks (an array level is two),
# five short of Python's 20, whatever holds the type (a union, a nullable value, a model's fields).
MAX_LEVELS = 8
# Thirty-two types one inside another: real formats need a handful (an alias of a union of an array
# of another alias's union is six); every walk over a type stays far from Python's recursion limit.
MAX_TYPES = 32


@dataclass(frozen=True)
class Depth:
    """How deep one type goes: its levels of arrays, maps and tuples, and its types one inside
    another; for each, the first alias on the way to that depth (None: none on the way)."""

    levels: int
    types: int
    levels_via: str | None = None
    types_via: str | None = None


def alias_order(fmt: ir.Format) -> list[ir.Alias]:
    """Aliases after the aliases they use (code targets build each alias's parser at import, so a
    used alias must come first); a cycle of aliases is refused, naming it. (Iterative: a chain of
    aliases is as long as the spec makes it.)"""
    aliases = {d.name: d for d in fmt.definitions if isinstance(d, ir.Alias)}
    ordered: list[ir.Alias] = []
    done: set[str] = set()
    for start in aliases:
        trail: list[str] = []  # the aliases being visited, outermost first
        on_trail: set[str] = set()
        todo: list[tuple[str, bool]] = [(start, False)]
        while todo:
            name, finished = todo.pop()
            if finished:
                on_trail.discard(trail.pop())
                done.add(name)
                ordered.append(aliases[name])
                continue
            if name in done:
                continue
            if name in on_trail:
                raise SpecError(
                    fmt.source,
                    pointer_of("$defs", name),
                    f"definition {name!r} refers to itself through {' -> '.join(trail[trail.index(name):])}",
                    "break the cycle with a model (an object type)",
                )
            trail.append(name)
            on_trail.add(name)
            todo.append((name, True))
            todo.extend((dep, False) for dep in reversed(ir.refs(aliases[name].type)) if dep in aliases and dep not in done)
    return ordered


def alias_cycles(fmt: ir.Format) -> set[str]:
    """The aliases on a cycle of aliases (a tree of arrays of itself, a union of a string and a list of itself):
    no type of the targets is built from itself without a model between, so lower applies them as written."""
    uses = {
        d.name: [(n, "") for n in ir.refs(d.type) if isinstance(fmt.definition(n), ir.Alias)]
        for d in fmt.definitions
        if isinstance(d, ir.Alias)
    }
    return {name for name in uses if _cycle(uses, name) is not None}


def _cycle(edges: Mapping[Node, Iterable[tuple[Node, str]]], start: Node) -> list[tuple[Node, str]] | None:
    """A way from start back to start, as the (node, label) of each edge taken in order, start's first; None if
    there is none. (Iterative: a chain is as long as the spec makes it.)"""
    parent: dict[Node, tuple[Node, str]] = {}
    todo = [start]
    while todo:
        node = todo.pop()
        for nxt, label in edges.get(node, ()):
            if nxt == start:
                path = [(node, label)]
                while path[-1][0] != start:
                    path.append(parent[path[-1][0]])
                return path[::-1]
            if nxt not in parent:
                parent[nxt] = (node, label)
                todo.append(nxt)
    return None


def check_nesting(fmt: ir.Format) -> None:
    """Refuse a field or alias whose type nests past MAX_LEVELS or MAX_TYPES (see the module's docstring)."""
    depths: dict[str, Depth] = {}
    for alias in alias_order(fmt):
        depths[alias.name] = depth = _depth(alias.type, depths)
        _refuse_past_limits(fmt, depth, pointer_of("$defs", alias.name), depths)
    for model in fmt.models:
        for field in model.fields:
            _refuse_past_limits(fmt, _depth(field.type, depths), pointer_of("$defs", model.name, "properties", field.wire_name), depths)


def _depth(t: ir.TypeRef, aliases: dict[str, Depth]) -> Depth:
    """The Depth of t, given those of the aliases it names; a walk of its own without recursion (a
    type written inline is as deep as the spec's JSON)."""
    done: dict[int, Depth] = {}
    todo: list[tuple[ir.TypeRef, bool]] = [(t, False)]
    while todo:
        node, children_done = todo.pop()
        inner = _held(node)
        if inner and not children_done:
            todo.append((node, True))
            todo.extend((i, False) for i in inner)
            continue
        if isinstance(node, ir.Ref) and node.target == "alias":
            named = aliases[node.name]
            done[id(node)] = Depth(named.levels, named.types + 1, node.name if named.levels else None, node.name)
            continue
        below = [done[id(i)] for i in inner]
        levels = max(below, key=lambda d: d.levels, default=Depth(0, 0))
        types = max(below, key=lambda d: d.types, default=Depth(0, 0))
        level = 1 if isinstance(node, (ir.ListType, ir.MapType, ir.TupleType)) else 0
        done[id(node)] = Depth(levels.levels + level, types.types + 1, levels.levels_via, types.types_via)
    return done[id(t)]


def _held(t: ir.TypeRef) -> tuple[ir.TypeRef, ...]:
    """The types t holds directly (an alias's and a model's are theirs, not t's)."""
    match t:
        case ir.ListType():
            return (t.item,)
        case ir.MapType():
            return (t.value,)
        case ir.NullableType():
            return (t.inner,)
        case ir.TupleType():
            return t.items
        case ir.UnionType():
            return t.variants
        case _:
            return ()


def _refuse_past_limits(fmt: ir.Format, depth: Depth, pointer: str, aliases: dict[str, Depth]) -> None:
    fix = "hold an inner level in an object model (a $defs entry with properties) and $ref it"
    if depth.levels > MAX_LEVELS:
        raise SpecError(
            fmt.source,
            pointer,
            f"the type here nests {depth.levels} levels of arrays, maps and tuples{_through(depth.levels_via, aliases, levels=True)}; "
            f"chatspec generates at most {MAX_LEVELS} in one type (each is written out inside the last, and Python "
            "compiles at most 20 nested blocks)",
            fix,
        )
    if depth.types > MAX_TYPES:
        raise SpecError(
            fmt.source,
            pointer,
            f"the type here holds {depth.types} types one inside another (each alias it goes through counts as one)"
            f"{_through(depth.types_via, aliases, levels=False)}; chatspec follows at most {MAX_TYPES}",
            f"$ref the definition the chain of aliases ends in directly, or {fix}",
        )


def _through(first: str | None, aliases: dict[str, Depth], levels: bool) -> str:
    """ ", through the aliases A -> B -> ... -> Z (N aliases)": the aliases on the way to the depth counted."""
    chain: list[str] = []
    while first is not None:
        chain.append(first)
        named = aliases[first]
        first = named.levels_via if levels else named.types_via
    if not chain:
        return ""
    shown = chain if len(chain) <= 6 else [*chain[:3], "...", *chain[-2:]]
    return f", through the alias{'es' if len(chain) > 1 else ''} {' -> '.join(shown)}" + (
        f" ({len(chain)} aliases)" if len(chain) > 6 else ""
    )


def _built(fmt: ir.Format, t: ir.TypeRef, value: object) -> list[tuple[ir.Model, dict[str, object]]]:
    """The model objects a default's JSON value becomes under type t, each with its JSON (without recursion: a
    default is as deep as the spec's JSON)."""
    out: list[tuple[ir.Model, dict[str, object]]] = []
    todo: list[tuple[ir.TypeRef, object]] = [(t, value)]
    while todo:
        t, value = todo.pop()
        match t:
            case ir.Ref():
                d = fmt.definition(t.name)
                if isinstance(d, ir.Alias):
                    todo.append((d.type, value))
                elif isinstance(d, ir.Model) and isinstance(value, dict):
                    out.append((d, value))
                    todo.extend((f.type, value[f.wire_name]) for f in d.fields if f.wire_name in value)
            case ir.NullableType() if value is not None:
                todo.append((t.inner, value))
            case ir.ListType() if isinstance(value, list):
                todo.extend((t.item, v) for v in value)
            case ir.TupleType() if isinstance(value, list):
                todo.extend(zip(t.items, value))
            case ir.MapType() if isinstance(value, dict):
                todo.extend((t.value, v) for v in value.values())
            case ir.UnionType() if t.discriminator is not None and isinstance(value, dict):
                todo.extend((v, value) for tag, v in zip(t.tags, t.variants) if value.get(t.discriminator) == tag)
            case ir.UnionType():
                todo.extend((v, value) for v in t.variants)  # (every variant that could be built from it)
    return out


def check_default_cycles(fmt: ir.Format) -> None:
    """Refuse a default that is built forever: Node.next's default {} is a Node without next, whose default is
    another Node, ... (the targets build a default as parsing its JSON does, each model's own defaults set; Go could
    not even declare the field)."""
    edges: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for model in fmt.models:
        for f in model.fields:
            if f.has_default and not fmt.plain_json(f.type):
                edges[(model.name, f.wire_name)] = [
                    (built.name, g.wire_name)
                    for built, obj in _built(fmt, f.type, f.default)
                    for g in built.fields
                    if g.wire_name not in obj and g.has_default and not fmt.plain_json(g.type)
                ]
    for start in edges:
        path = _cycle({node: [(nxt, "") for nxt in targets] for node, targets in edges.items()}, start)
        if path is not None:
            through = " <- ".join(f"{m}.{w}" for (m, w), _ in reversed(path))
            owner, wire = start
            raise SpecError(
                fmt.source,
                pointer_of("$defs", owner, "properties", wire, "default"),
                f"the default of {owner}.{wire} is built forever: building it builds a {owner} without {wire}, whose"
                f" default is built again (through {through})",
                f"give the default a value for {wire} (null, where it may be null), or remove one of the defaults",
            )


def check_required_cycles(fmt: ir.Format) -> None:
    """Refuse a model that requires itself by value (Node requires next, a Node, which requires next, ...): no finite
    document is valid, and Go could not declare the struct (a required model field, or a tuple item, is held by
    value; an optional one, an array, a map or a union breaks the chain)."""
    held: dict[str, list[tuple[str, str]]] = {}
    for model in fmt.models:
        for f in model.fields:
            if not f.required:
                continue
            types, seen = [f.type], set()
            while types:
                t = types.pop()
                if isinstance(t, ir.Ref) and t.name not in seen:
                    seen.add(t.name)
                    d = fmt.definition(t.name)
                    if isinstance(d, ir.Model):
                        held.setdefault(model.name, []).append((d.name, f.wire_name))
                    elif isinstance(d, ir.Alias):
                        types.append(d.type)
                elif isinstance(t, ir.TupleType):
                    types.extend(t.items)
    for start in held:
        path = _cycle(held, start)
        if path is not None:
            raise SpecError(
                fmt.source,
                pointer_of("$defs", start, "required"),
                f"{start} requires a {start} ({' -> '.join(f'{m}.{w}' for m, w in path)}): no finite document is valid",
                "make one of these fields optional, or nullable, or a list",
            )


def check_unique_items(fmt: ir.Format) -> None:
    """Refuse uniqueItems over items that building makes alike where their JSON differs: a model's default filled in
    ([{"n": 3}, {}] with n's default 3), an optional field's null ([{"n": null}, {}], both None) or base64 text
    ("YQ==" and "YR==", the same byte). The document is valid, as JSON Schema judges the JSON, but the value read
    would fail its own validate() and write a document that is not."""
    for d in fmt.definitions:
        places = [(d.place + pointer_of("properties", f.wire_name), f.type) for f in d.fields] if isinstance(d, ir.Model) else []
        if isinstance(d, ir.Alias):
            places = [(pointer_of("$defs", d.name), d.type)]
        for at, t in places:
            todo = [t]
            while todo:
                t = todo.pop()
                if isinstance(t, ir.ListType) and t.unique_items:
                    lost = _lost_in_building(fmt, t.item, set())
                    if lost is not None:
                        raise SpecError(
                            fmt.source,
                            at,
                            f"uniqueItems over items {lost}: two items that differ in their JSON are built alike, so "
                            "the value read would fail its own validate() and write a document with duplicates",
                            "remove uniqueItems, or what makes the items alike",
                        )
                todo.extend(ir.children(t))


def _lost_in_building(fmt: ir.Format, t: ir.TypeRef, seen: set[str]) -> str | None:
    """What makes two different JSON values of type t one built value, or None."""
    if isinstance(t, ir.BytesType):
        return "of base64 text (two spellings of the same bytes)"
    if isinstance(t, ir.Ref) and t.target != "enum" and t.name not in seen:
        seen.add(t.name)
        d = fmt.definition(t.name)
        if isinstance(d, ir.Model):
            filled = next((f.wire_name for f in d.fields if f.has_default), None)
            if filled is not None:
                return f"whose {d.name}.{filled} has a default (left out, or holding it)"
            blank = next((f.wire_name for f in d.fields if not f.required and f.null_ok), None)
            if blank is not None:
                return f"whose optional {d.name}.{blank} may be null (null, or left out)"
            return next((lost for f in d.fields if (lost := _lost_in_building(fmt, f.type, seen)) is not None), None)
        if isinstance(d, ir.Alias):
            return _lost_in_building(fmt, d.type, seen)
    return next((lost for c in ir.children(t) if (lost := _lost_in_building(fmt, c, seen)) is not None), None)


def check_open_enum_defaults(fmt: ir.Format) -> None:
    """Refuse a default holding a value an open enum does not list: TypeScript's type of the field holds the listed
    values and an unknown one read from a document, which a constant in code is not (it did not compile), and Python
    filled it in as a plain string where a document's gives an Unknown."""
    open_enums = ir.open_enums(fmt)
    for model in fmt.models:
        for f in model.fields:
            if f.has_default:
                unlisted = _unlisted(fmt, open_enums, f.type, f.default, set())
                if unlisted is not None:
                    raise SpecError(
                        fmt.source,
                        model.place + pointer_of("properties", f.wire_name, "default"),
                        f"the default holds {json.dumps(unlisted)}, which the open enum it is a value of does not list",
                        "use a value the enum lists, or add it to the enum",
                    )


def _unlisted(fmt: ir.Format, open_enums: frozenset[str], t: ir.TypeRef, value: object, seen: set[str]) -> str | None:
    """A string of the value that an open enum of its type does not list, or None."""
    if isinstance(t, ir.NullableType):
        return None if value is None else _unlisted(fmt, open_enums, t.inner, value, seen)
    if isinstance(t, ir.ListType) and isinstance(value, list):
        return next((u for v in value if (u := _unlisted(fmt, open_enums, t.item, v, seen)) is not None), None)
    if isinstance(t, ir.MapType) and isinstance(value, dict):
        return next((u for v in value.values() if (u := _unlisted(fmt, open_enums, t.value, v, seen)) is not None), None)
    if isinstance(t, ir.Ref):
        d = fmt.definition(t.name)
        if isinstance(d, ir.Enum):
            return value if t.name in open_enums and isinstance(value, str) and value not in d.values else None
        if isinstance(d, ir.Alias) and t.name not in seen:
            return _unlisted(fmt, open_enums, d.type, value, seen | {t.name})
        if isinstance(d, ir.Model) and isinstance(value, dict):
            return next(
                (
                    u
                    for g in d.fields
                    if g.wire_name in value and (u := _unlisted(fmt, open_enums, g.type, value[g.wire_name], seen)) is not None
                ),
                None,
            )
    return None

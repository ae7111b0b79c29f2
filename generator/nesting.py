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

from dataclasses import dataclass

from generator import ir
from generator.errors import SpecError, pointer_of

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
        d.name: {n for n in ir.refs(d.type) if isinstance(fmt.definition(n), ir.Alias)} for d in fmt.definitions if isinstance(d, ir.Alias)
    }
    found: set[str] = set()
    for start in uses:
        seen: set[str] = set()
        todo = list(uses[start])
        while todo:
            name = todo.pop()
            if name == start:
                found.add(start)
                break
            if name not in seen:
                seen.add(name)
                todo.extend(uses[name])
    return found


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

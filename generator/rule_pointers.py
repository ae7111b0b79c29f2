"""rule_pointers: what the pointers of a model's rules may read, checked when a spec is lowered.

A rule reads values by JSON pointer: member_of's pool (from the object the rule climbs `up` levels to),
allowed_when's and contains' `each` pointer into the array's items, a `when` pointer into the when field. Each
walk here follows a pointer through the types a value may have (a union's variants, an alias, a list index, a
map value, a nullable) from where it starts, so two things are refused with the rule's place:

- a pointer that names nothing a document can hold there (a field no closed model has, a key into a string):
  the rule would never judge anything (or, for contains, refuse every array) while the spec says it holds; so
  would a member_of pool that is never an array of strings;
- a field with a default on the way that can change the verdict: the document is judged as sent, without the
  field, and the value built from it with the default filled in, so that value would fail its own validate().
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from generator import ir
from generator.errors import SpecError


def check_rule_pointers(fmt: ir.Format) -> None:
    """Refuse a rule whose pointer names nothing a document can hold there (_reach), a member_of pool that is never
    an array of strings (_strings), or a pointer that reads, in a model of the document, a field with a default
    that can change its verdict: member_of's pool, at any depth
    and up any number of levels ("2/people" with people's default []); allowed_when's items by their "each"
    pointer ([{"type": "text"}, {}], type's default "image" not allowed); a when pointer into the when field (its
    default the value it equals). The document is judged as sent, without the field; the value built from it has
    the default, so the value read would fail its own validate(). (lower refuses the same for a field of the
    rule's own object. contains is judged as sent or with the default alike: an item that holds the value
    stays.) Every model a union, an alias, a list index or a map may put on the way counts."""
    for m in fmt.models:
        by_wire = {f.wire_name: f for f in m.fields}
        for i, rule in enumerate(m.rules):
            at = m.place + f"/x-rules/{i}"
            # (the types the pointer starts from, its tokens, what it reads, the defaults of its last field that can
            # change nothing: member_of's none; allowed_when's the allowed values; a when pointer's all but `equals`)
            reads: list[tuple[list[ir.TypeRef], tuple[str, ...], str, Callable[[Any], bool]]] = []
            if rule.kind == "member_of":
                starts: list[ir.TypeRef] = [ir.Ref(m.name, "model")] if rule.up == 0 else _above(fmt, m.name, rule.up)
                reads.append((starts, rule.pointer, f"the pool {'/'.join(rule.pointer)!r}", _never))
            if rule.kind in ("allowed_when", "contains") and rule.pointer:
                items = _items_of(fmt, by_wire[rule.fields[0]].type)
                allowed = frozenset(rule.allowed).__contains__ if rule.kind == "allowed_when" else _always
                reads.append((items, rule.pointer, f"the items' {'/'.join(rule.pointer)!r}", allowed))
            if rule.when is not None and rule.when.pointer:
                reads.append(([by_wire[rule.when.field].type], rule.when.pointer, "the when pointer", rule.when.equals.__ne__))
            for starts, tokens, what, harmless in reads:
                reached = _reach(fmt, starts, tokens) if starts else None
                if isinstance(reached, str):
                    raise SpecError(
                        fmt.source,
                        at,
                        f"the {rule.kind} rule reads {what}, which names nothing a document can hold there: {reached}, "
                        "so the rule would never judge a value",
                        "name a field the models on the way have (or leave the model open, additionalProperties not false)",
                    )
                if rule.kind == "member_of" and reached is not None and not any(_strings(fmt, t) for t in _concrete(fmt, reached)):
                    raise SpecError(
                        fmt.source,
                        at,
                        f"the member_of rule's pool {'/'.join(rule.pointer)!r} is never an array of strings, so the rule "
                        "would never judge a value",
                        "point the rule at an array of strings",
                    )
                for holder, field, last in _fields_along(fmt, starts, tokens):
                    if field.has_default and not (last and harmless(field.default)):
                        raise SpecError(
                            fmt.source,
                            at,
                            f"the {rule.kind} rule reads {what} through {holder.name}.{field.wire_name}, which has a default: "
                            "the document is judged without it, the value built from it with it, so the value read would "
                            "fail its own validate()",
                            f"drop the default of {holder.name}.{field.wire_name}, or judge another field",
                        )


def _never(_: Any) -> bool:
    return False


def _always(_: Any) -> bool:
    return True


def _reach(fmt: ir.Format, starts: list[ir.TypeRef], tokens: tuple[str, ...]) -> list[ir.TypeRef] | str | None:
    """The types a value of the start types may hold at the pointer, by every typed way to its end; None where a
    free-form value is on the way (a field of any JSON value or a schema applied as written, the other keys of an
    open model, an open union's unknown variant), which may hold anything; else, where no way gets there, what stops
    them, e.g. "no model there has a field 'peple' (Turn, Talk)"."""
    current = starts
    for token in tokens:
        following: list[ir.TypeRef] = []
        closed: list[str] = []
        for t in _concrete(fmt, current):
            if isinstance(t, ir.Model):
                f = next((f for f in t.fields if f.wire_name == token), None)
                if f is not None:
                    following.append(f.type)
                elif not t.closed:
                    return None
                else:
                    closed.append(t.name)
            elif isinstance(t, ir.AnyType) or isinstance(t, ir.UnionType) and t.open:
                return None
            elif (inner := _inside(t, token)) is not None:
                following.append(inner)
        if not following:
            where = (
                f"no model there has a field {token!r} ({', '.join(sorted(set(closed)))})" if closed else f"nothing there holds {token!r}"
            )
            return where
        current = following
    return current


def _strings(fmt: ir.Format, t: ir.TypeRef | ir.Model) -> bool:
    """Whether a value of t may be an array of strings (a member_of pool: anything else leaves nothing to judge)."""
    if isinstance(t, ir.AnyType) or isinstance(t, ir.UnionType) and t.open:
        return True
    items = [t.item] if isinstance(t, ir.ListType) else list(t.items) if isinstance(t, ir.TupleType) else []
    string = (ir.StringType, ir.DateTimeType, ir.BytesType, ir.AnyType)
    return bool(items) and all(
        any(
            isinstance(c, string) or isinstance(c, ir.Ref) and c.target == "enum" or isinstance(c, ir.UnionType) and c.open
            for c in _concrete(fmt, [i])
        )
        for i in items
    )


def _concrete(fmt: ir.Format, types: list[ir.TypeRef]) -> list[ir.TypeRef | ir.Model]:
    """The types a value of these types may be, through nullables, aliases and unions' variants (a model as itself;
    an open union as itself too, beside its variants)."""
    out: list[ir.TypeRef | ir.Model] = []
    todo, seen = list(types), set()
    while todo:
        t = todo.pop()
        if isinstance(t, ir.Ref) and t.target in ("model", "alias"):
            if t.name in seen:
                continue
            seen.add(t.name)
            d = fmt.definition(t.name)
            if isinstance(d, ir.Model):
                out.append(d)
            elif isinstance(d, ir.Alias):
                todo.append(d.type)
        elif isinstance(t, (ir.NullableType, ir.UnionType)):
            todo.extend(ir.children(t))
            if isinstance(t, ir.UnionType) and t.open:
                out.append(t)  # an object no variant tags is kept as it is: free-form
        else:
            out.append(t)
    return out


def _fields_along(fmt: ir.Format, starts: list[ir.TypeRef], tokens: tuple[str, ...]) -> Iterator[tuple[ir.Model, ir.Field, bool]]:
    """Each model field a pointer may pass through from values of the start types: (its model, it, whether it is the
    pointer's last token)."""
    current = starts
    for n, token in enumerate(tokens):
        following: list[ir.TypeRef] = []
        for t in _concrete(fmt, current):
            if isinstance(t, ir.Model):
                f = next((f for f in t.fields if f.wire_name == token), None)
                if f is not None:
                    yield t, f, n == len(tokens) - 1
                    following.append(f.type)
            elif (inner := _inside(t, token)) is not None:
                following.append(inner)
        current = following


def _inside(t: ir.TypeRef | ir.Model, token: str) -> ir.TypeRef | None:
    """The type a pointer token reads inside a list (an index), a tuple (one of its positions) or a map (any key);
    None for anything else."""
    if isinstance(t, ir.ListType) and ir.index_of(token) is not None:
        return t.item
    if isinstance(t, ir.TupleType) and (k := ir.index_of(token)) is not None and k < len(t.items):
        return t.items[k]
    return t.value if isinstance(t, ir.MapType) else None


def _items_of(fmt: ir.Format, t: ir.TypeRef) -> list[ir.TypeRef]:
    """The item types of the arrays a field holds (a union's array variants too)."""
    return [c.item for c in _concrete(fmt, [t]) if isinstance(c, ir.ListType)]


def _above(fmt: ir.Format, name: str, up: int) -> list[ir.TypeRef]:
    """The types of the values `up` levels above an object of model `name` in some document (each field, array
    item and map value a level: Talk.turns[0] is 2 levels below Talk, 1 below the list Talk.turns)."""
    # model -> (the model holding it, the levels between, the containers between: (type, levels above it))
    below: dict[str, list[tuple[str, int, tuple[tuple[ir.TypeRef, int], ...]]]] = {}
    for holder in fmt.models:
        for f in holder.fields:
            todo: list[tuple[ir.TypeRef, int, tuple[tuple[ir.TypeRef, int], ...]]] = [(f.type, 1, ())]
            seen: set[tuple[str, int]] = set()
            while todo:
                t, level, chain = todo.pop()
                if isinstance(t, ir.Ref) and t.target in ("model", "alias"):
                    if (t.name, level) in seen:
                        continue
                    seen.add((t.name, level))
                    d = fmt.definition(t.name)
                    if isinstance(d, ir.Model):
                        below.setdefault(d.name, []).append((holder.name, level, chain))
                    elif isinstance(d, ir.Alias):
                        todo.append((d.type, level, chain))
                elif isinstance(t, (ir.ListType, ir.MapType, ir.TupleType)):
                    todo.extend((c, level + 1, (*chain, (t, level))) for c in ir.children(t))
                else:
                    todo.extend((c, level, chain) for c in ir.children(t))
    found: list[ir.TypeRef] = []
    states = [(name, up)]
    done: set[tuple[str, int]] = set()
    while states:
        model, left = states.pop()
        if (model, left) in done:
            continue
        done.add((model, left))
        for container, levels, chain in below.get(model, []):
            found.extend(t for t, at in chain if levels - at == left)
            if levels == left:
                found.append(ir.Ref(container, "model"))
            elif levels < left:
                states.append((container, left - levels))
    return found

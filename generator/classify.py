"""classify: every difference between two versions of a format, with the bump it needs.

In the spirit of buf's `breaking` and oasdiff's ERR/WARN/INFO: "major" breaks
a consumer (of the wire format or of the generated code), "minor" adds or
relaxes, "patch" changes only what people read. The comparison runs on the IR,
so how a spec is laid out ($ref or inline, key order) never matters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from generator import ir
from generator.checks import without_messages
from generator.naming import words

LEVELS = ("patch", "minor", "major")


@dataclass(frozen=True)
class Change:
    level: str  # "major" | "minor" | "patch"
    what: str  # e.g. "field removed: DroidletChat.speaker_id"
    warning: bool = False  # additive, but exhaustive consumers must act (e.g. a new enum value)
    # How the set of messages the format accepts moved (compatibility.py reads it for each direction):
    # "same", "wider" (accepts more), "narrower" (accepts less), "other" (some more, some less) or
    # "unknown" (not compared: may be any of them), e.g. "wider" for a constraint removed.
    wire: str = "same"
    # What readers of the version that lacks a field do with it, where that is not plain refusal, e.g. "old
    # readers keep it as an additional property": an open model keeps what its fields do not name.
    readers: str = ""

    def __str__(self) -> str:
        return f"{self.level}: {self.what}" + (" (warning: exhaustive consumers must handle it)" if self.warning else "")


def required_level(changes: list[Change]) -> str | None:
    """The bump the changes need, or None when there are none."""
    return max((c.level for c in changes), key=LEVELS.index, default=None)


def _format(changes: list[Change], where: str, old: ir.StringType, new: ir.StringType) -> None:
    """A checked format added or changed narrows the strings accepted (major), removed widens them (minor); a format
    that is only an annotation changes no verdict (patch)."""
    before, after = old.checked_format, new.checked_format
    if before != after:
        if before is None:
            changes.append(Change("major", f"constraint added: {where} format {after!r}", wire="narrower"))
        elif after is None:
            changes.append(Change("minor", f"constraint removed: {where} format {before!r}", wire="wider"))
        else:
            changes.append(
                Change("major", f"format changed: {where} {before!r} -> {after!r}", wire=_FORMAT_MOVES.get((before, after), "unknown"))
            )
    elif old.format != new.format:
        changes.append(Change("patch", f"format annotation changed: {where} {old.format!r} -> {new.format!r}"))


# Checked formats one of which holds the other (every URI is a URI reference); any other two are not compared.
_FORMAT_MOVES = {("uri", "uri-reference"): "wider", ("uri-reference", "uri"): "narrower"}


def _bound(changes: list[Change], where: str, what: str, old: float | None, new: float | None, lower: bool) -> None:
    """A lower bound rising (or an upper bound falling) tightens; the reverse relaxes."""
    if old == new:
        return
    if old is None:
        changes.append(Change("major", f"constraint added: {where} {what} {new}", wire="narrower"))
    elif new is None:
        changes.append(Change("minor", f"constraint removed: {where} {what} {old}", wire="wider"))
    elif (new > old) == lower:
        changes.append(Change("major", f"constraint tightened: {where} {what} {old} -> {new}", wire="narrower"))
    else:
        changes.append(Change("minor", f"constraint relaxed: {where} {what} {old} -> {new}", wire="wider"))


def _divisor(changes: list[Change], where: str, old: int | None, new: int | None) -> None:
    """multipleOf: a divisor that divides the old one accepts every value the old one did (relaxes, e.g. 10 -> 5);
    any other new divisor refuses some value the old one accepted (e.g. 2 -> 4 refuses 6, 2 -> 3 refuses 4)."""
    if old == new:
        return
    if old is None:
        changes.append(Change("major", f"constraint added: {where} multipleOf {new}", wire="narrower"))
    elif new is None:
        changes.append(Change("minor", f"constraint removed: {where} multipleOf {old}", wire="wider"))
    elif old % new == 0:
        changes.append(Change("minor", f"constraint relaxed: {where} multipleOf {old} -> {new}", wire="wider"))
    else:
        # A multiple of the old divisor refuses values it accepted; any other refuses some and accepts others.
        tightened = new % old == 0
        changes.append(
            Change(
                "major",
                f"constraint {'tightened' if tightened else 'changed'}: {where} multipleOf {old} -> {new}",
                wire="narrower" if tightened else "other",
            )
        )


def _values(
    changes: list[Change],
    where: str,
    what: str,
    old: tuple[Any, ...],
    new: tuple[Any, ...],
    removed_level: str = "major",
    uncompared: tuple[Any, ...] = (),
    moves: tuple[str, str] | None = None,
    kept: tuple[str, str] = ("", ""),
) -> None:
    """Values removed and added; `uncompared` ones move the messages in a way not compared (their wire: unknown).
    Where an enum or union is open (x-open), `moves` is how a value removed and one added move the messages, and
    `kept` what readers of the version without it do with it (see _kept)."""
    # A documented value of an open string is only documentation: every string was accepted before and after.
    checked = what != "documented value"
    removed_wire, added_wire = moves or (("narrower", "wider") if checked else ("same", "same"))
    for value in old:
        if value not in new:
            wire = "unknown" if value in uncompared else removed_wire
            readers = kept[0]
            changes.append(Change(removed_level, f"{what} removed: {where} {_shown(value)}", wire=wire, readers=readers))
    for value in new:
        if value not in old:
            wire = "unknown" if value in uncompared else added_wire
            readers = kept[1]
            changes.append(Change("minor", f"{what} added: {where} {_shown(value)}", warning=checked, wire=wire, readers=readers))


def _kept(what: str, old_open: bool, new_open: bool) -> tuple[str, str]:
    """What readers of the version without a value do with it, for one removed and one added: an open enum or union
    keeps it as `what`, e.g. ("new readers keep it as an unknown value", "")."""
    return (f"new readers keep it as {what}" if new_open else "", f"old readers keep it as {what}" if old_open else "")


def _opened(changes: list[Change], where: str, old: bool, new: bool) -> None:
    """An enum or union made open (x-open: it accepts any other value as unknown) or closed again."""
    if not old and new:
        changes.append(Change("minor", f"made open (x-open): {where}", warning=True, wire="wider"))
    elif old and not new:
        changes.append(Change("major", f"made closed (x-open removed): {where}", wire="narrower"))


def _shown(value: Any) -> str:
    """A value in a change: a string quoted as the locks have always held it ('text'), any other as JSON (true, 1.5)."""
    return repr(value) if isinstance(value, str) else json.dumps(value)


def _order(changes: list[Change], where: str, what: str, old: tuple[Any, ...], new: tuple[Any, ...], level: str = "minor") -> None:
    """The values both versions share, in another order: error messages and generated lists follow it."""
    kept_old = [json.dumps(v) if not isinstance(v, str) else v for v in old if v in new]
    kept_new = [json.dumps(v) if not isinstance(v, str) else v for v in new if v in old]
    if kept_old != kept_new:
        changes.append(Change(level, f"{what} order changed: {where} ({', '.join(kept_old)} -> {', '.join(kept_new)})"))


def _const_and_enum(
    changes: list[Change],
    where: str,
    old: ir.StringType | ir.NumericType | ir.BooleanType,
    new: ir.StringType | ir.NumericType | ir.BooleanType,
) -> None:
    if old.const != new.const:
        if new.const is None:
            changes.append(Change("minor", f"constant removed: {where} {_shown(old.const)}", wire="wider"))
        elif old.const is None:
            changes.append(Change("major", f"constant added: {where} {_shown(new.const)}", wire="narrower"))
        else:
            changes.append(Change("major", f"constant changed: {where} {_shown(old.const)} -> {_shown(new.const)}", wire="other"))
    if old.enum != new.enum:
        if new.enum is None:
            changes.append(Change("minor", f"closed set of values removed: {where}", wire="wider"))
        elif old.enum is None:
            changes.append(Change("major", f"closed set of values added: {where}", wire="narrower"))
        else:
            _values(changes, where, "enum value", old.enum, new.enum)
            _order(changes, where, "enum value", old.enum, new.enum)


def _messages(changes: list[Change], where: str, old: dict[str, str], new: dict[str, str]) -> None:
    for key in sorted(set(old) & set(new)):
        if old[key] != new[key]:
            changes.append(Change("minor", f"error message changed: {where} {key}: {old[key]!r} -> {new[key]!r}"))


def _without_messages(checks: ir.Checks) -> Any:
    """The checks' structure: every node without its messages."""
    return without_messages(json.loads(checks.text)), checks.patterns


def _applied(changes: list[Change], where: str, old: ir.Checks | None, new: ir.Checks | None) -> None:
    """A schema applied as written: which values it accepts is not compared keyword by keyword yet, so any change of
    what it checks needs a major version; a change of its messages alone a minor one, of its annotations a patch."""
    if old is None and new is None:
        return
    if old is None:
        changes.append(Change("major", f"schema applied as written added: {where}", wire="narrower"))
    elif new is None:
        changes.append(Change("minor", f"schema applied as written removed: {where}", wire="wider"))
    elif _without_messages(old) != _without_messages(new):
        changes.append(Change("major", f"schema applied as written changed: {where} (what it accepts is not compared yet)", wire="unknown"))
    elif old.text != new.text:
        changes.append(Change("minor", f"error message changed: {where} (a schema applied as written)"))
    elif old.written != new.written:
        changes.append(Change("patch", f"annotation changed: {where} (a schema applied as written)"))


def compare_type(old: ir.TypeRef, new: ir.TypeRef, where: str) -> list[Change]:
    changes: list[Change] = []
    if isinstance(new, ir.NullableType) and not isinstance(old, ir.NullableType):
        # A free-form value ({}) accepted null already: only the generated type says so now. (A schema applied as
        # written may refuse null, e.g. {"not": {"const": null}}: not compared, it counts as refusing it.)
        changes.append(Change("minor", f"null now accepted: {where}", wire="same" if _anything(old) else "wider"))
        return changes + compare_type(old, new.inner, where)
    if isinstance(old, ir.NullableType) and not isinstance(new, ir.NullableType):
        changes.append(Change("major", f"null no longer accepted: {where}", wire="same" if _anything(new) else "narrower"))
        return changes + compare_type(old.inner, new, where)
    if type(old) is not type(new):
        return [Change("major", f"type changed: {where} ({describe(old)} -> {describe(new)})", wire=_retyped(old, new))]
    if old.annotations != new.annotations:
        changes.append(Change("patch", f"nested annotation changed: {where}"))
    if isinstance(old, ir.NullableType):
        assert isinstance(new, ir.NullableType)
        return changes + compare_type(old.inner, new.inner, where)
    if isinstance(old, ir.Ref):
        assert isinstance(new, ir.Ref)
        if old.name != new.name:
            # Another definition: what it accepts is not compared (a renamed copy accepts the same messages).
            changes.append(Change("major", f"type changed: {where} ({old.name} -> {new.name})", wire="unknown"))
        return changes
    if isinstance(old, ir.StringType):
        assert isinstance(new, ir.StringType)
        _const_and_enum(changes, where, old, new)
        _values(changes, where, "documented value", old.known_values, new.known_values, removed_level="minor")
        _order(changes, where, "documented value", old.known_values, new.known_values, level="patch")
        _bound(changes, where, "minLength", old.min_length, new.min_length, lower=True)
        _bound(changes, where, "maxLength", old.max_length, new.max_length, lower=False)
        if old.pattern != new.pattern:
            if old.pattern is None:
                changes.append(Change("major", f"constraint added: {where} pattern {new.pattern!r}", wire="narrower"))
            elif new.pattern is None:
                changes.append(Change("minor", f"constraint removed: {where} pattern {old.pattern!r}", wire="wider"))
            else:
                # Which strings two patterns share is not compared: the new one may accept more, less or others.
                changes.append(Change("major", f"pattern changed: {where} {old.pattern!r} -> {new.pattern!r}", wire="unknown"))
        _format(changes, where, old, new)
    elif isinstance(old, ir.BooleanType):
        assert isinstance(new, ir.BooleanType)
        _const_and_enum(changes, where, old, new)
    elif isinstance(old, ir.NumericType):
        assert isinstance(new, ir.NumericType)
        if old.integer != new.integer:
            # Every integer is a number: integer -> number accepts more, number -> integer less.
            changes.append(
                Change("major", f"type changed: {where} ({describe(old)} -> {describe(new)})", wire="wider" if old.integer else "narrower")
            )
        _const_and_enum(changes, where, old, new)
        _bound(changes, where, "minimum", old.minimum, new.minimum, lower=True)
        _bound(changes, where, "maximum", old.maximum, new.maximum, lower=False)
        _bound(changes, where, "exclusiveMinimum", old.exclusive_minimum, new.exclusive_minimum, lower=True)
        _bound(changes, where, "exclusiveMaximum", old.exclusive_maximum, new.exclusive_maximum, lower=False)
        _divisor(changes, where, old.multiple_of, new.multiple_of)
    elif isinstance(old, ir.ListType):
        assert isinstance(new, ir.ListType)
        changes += compare_type(old.item, new.item, where + "[]")
        _bound(changes, where, "minItems", old.min_items, new.min_items, lower=True)
        _bound(changes, where, "maxItems", old.max_items, new.max_items, lower=False)
        if old.unique_items != new.unique_items:
            changes.append(
                Change(
                    "major" if new.unique_items else "minor",
                    f"constraint {'added' if new.unique_items else 'removed'}: {where} uniqueItems",
                    wire="narrower" if new.unique_items else "wider",
                )
            )
    elif isinstance(old, ir.TupleType):
        assert isinstance(new, ir.TupleType)
        if len(old.items) != len(new.items):
            return [Change("major", f"type changed: {where} (a tuple of {len(old.items)} -> {len(new.items)} items)", wire="other")]
        if old.names != new.names:
            changes.append(Change("major", f"generated name changed: {where} tuple items {old.names} -> {new.names}"))
        for i, (a, b) in enumerate(zip(old.items, new.items)):
            changes += compare_type(a, b, f"{where}[{i}]")
    elif isinstance(old, ir.MapType):
        assert isinstance(new, ir.MapType)
        changes += compare_type(old.value, new.value, where + "{}")
    elif isinstance(old, ir.AnyType):
        assert isinstance(new, ir.AnyType)
        _applied(changes, where, old.checks, new.checks)
    elif isinstance(old, ir.UnionType):
        assert isinstance(new, ir.UnionType)
        if old.discriminator != new.discriminator:
            return [
                Change("major", f"type changed: {where} (discriminator {old.discriminator!r} -> {new.discriminator!r})", wire="unknown")
            ]
        if (old.keyword, old.inferred) != (new.keyword, new.inferred):
            # anyOf, oneOf, a list of types, an inferred or a named tag: one meaning, written another way.
            changes.append(Change("patch", f"union written another way: {where} ({old.keyword} -> {new.keyword})"))
        old_keys, new_keys = old.tags or old.json_kinds, new.tags or new.json_kinds
        # An integer is a number: an integer variant traded for a number one (or back) moves the messages by what
        # each variant checks, which is not compared here.
        traded = not (old.tags or new.tags) and all((kind in old_keys) != (kind in new_keys) for kind in ("integer", "number"))
        _opened(changes, where, old.open, new.open)
        if old.open or new.open:
            # An object of a variant added was kept as unknown by an open union before, now held to the variant
            # (narrower); one of a variant removed is kept as unknown by an open union after, whatever it holds (wider).
            moves = ("wider" if new.open else "narrower", "narrower" if old.open else "wider")
            kept = _kept("an unknown variant", old.open, new.open)
            _values(changes, where, "union variant", old_keys, new_keys, moves=moves, kept=kept)
        else:
            _values(changes, where, "union variant", old_keys, new_keys, uncompared=("integer", "number") if traded else ())
        _order(changes, where, "union variant", old_keys, new_keys)
        for key in set(old_keys) & set(new_keys):
            changes += compare_type(old.variants[old_keys.index(key)], new.variants[new_keys.index(key)], f"{where}<{key}>")
    if not changes:
        # A message that changed with its constraint (e.g. "at most 5 items") is that change, not another.
        _messages(changes, where, getattr(old, "messages", {}), getattr(new, "messages", {}))
    return changes


def _retyped(old: ir.TypeRef, new: ir.TypeRef) -> str:
    """How the messages move when a value changes type: a date-time or a base64 string is a string, so any
    string becoming one accepts less and the reverse more; a string with checks of its own, or two other
    types, share values no one compared, or none (e.g. string -> integer)."""
    special = (ir.DateTimeType, ir.BytesType)
    if isinstance(old, ir.StringType) and isinstance(new, special):
        return "narrower" if _any_string(old) else "unknown"
    if isinstance(new, ir.StringType) and isinstance(old, special):
        return "wider" if _any_string(new) else "unknown"
    if _anything(old):
        return "narrower"
    if _anything(new):
        return "wider"
    old_kind, new_kind = _json_type(old), _json_type(new)
    return "other" if old_kind and new_kind and old_kind != new_kind else "unknown"


def _anything(t: ir.TypeRef) -> bool:
    """Whether a type accepts every JSON value, null too: a free-form value with no checks ({}), or one whose
    schema applied as written is `true`."""
    return isinstance(t, ir.AnyType) and (t.checks is None or json.loads(t.checks.text)["root"] is True)


# The one JSON type every value of a type has, e.g. a tuple's "array"; types of two of them share no value.
_JSON_TYPES = {
    ir.StringType: "string",
    ir.DateTimeType: "string",
    ir.BytesType: "string",
    ir.NumericType: "number",
    ir.BooleanType: "boolean",
    ir.ListType: "array",
    ir.TupleType: "array",
    ir.MapType: "object",
}


def _json_type(t: ir.TypeRef) -> str | None:
    """The JSON type of all of a type's values, or None (a reference, a union, a schema applied as written)."""
    return _JSON_TYPES.get(type(t))


def _any_string(t: ir.StringType) -> bool:
    """Whether a string type accepts every string (a format it does not check is only an annotation)."""
    return (t.min_length, t.max_length, t.pattern, t.const, t.enum, t.checked_format) == (None, None, None, None, None, None)


def describe(t: ir.TypeRef) -> str:
    if isinstance(t, ir.Ref):
        return t.name
    if isinstance(t, ir.DateTimeType):
        return "string (date-time)"
    if isinstance(t, ir.BytesType):
        return "string (base64)"
    if isinstance(t, ir.StringType):
        return "string"
    if isinstance(t, ir.NumericType):
        return "integer" if t.integer else "number"
    return t.kind


# The outcomes of comparing two values that each compare operator lets pass, e.g. ">=": greater or equal.
_OUTCOMES = {
    "<": frozenset("<"),
    "<=": frozenset("<="),
    "==": frozenset("="),
    "!=": frozenset("<>"),
    ">=": frozenset(">="),
    ">": frozenset(">"),
    "": frozenset(),
}


def _rule_key(rule: ir.Rule) -> tuple[Any, ...]:
    return (rule.kind, rule.fields, rule.when, rule.pointer, rule.up, rule.equals)


def compare_model(old: ir.Model, new: ir.Model) -> list[Change]:
    changes: list[Change] = []
    name = old.name
    if old.description != new.description:
        changes.append(Change("patch", f"description changed: {name}"))
    if old.closed != new.closed:
        changes.append(
            Change(
                "major" if new.closed else "minor",
                f"additionalProperties {'closed' if new.closed else 'opened'}: {name}",
                wire="narrower" if new.closed else "wider",
            )
        )
    old_fields = {f.wire_name: f for f in old.fields}
    new_fields = {f.wire_name: f for f in new.fields}
    # A field keeps its identity when its identifier base spells the same words in every target
    # ("content-type" -> "contentType", or an x-name kept): its code names stay, only the wire changed.
    for wire, f in old_fields.items():
        if wire not in new_fields:
            renamed = [n.wire_name for n in new.fields if n.wire_name not in old_fields and words(n.name) == words(f.name)]
            if renamed:
                moved = new_fields[renamed[0]]
                both = combined(_removed(f, new), _added(moved, old))
                changes.append(Change("major", f"wire name changed: {name}.{wire} -> {renamed[0]}", wire=both))
            else:
                kept = "" if new.closed else "new readers keep it as an additional property"
                changes.append(Change("major", f"field removed: {name}.{wire}", wire=_removed(f, new), readers=kept))
    for wire, f in new_fields.items():
        if wire in old_fields:
            continue
        if any(words(o.name) == words(f.name) for o in old.fields if o.wire_name not in new_fields):
            continue  # reported above as a wire rename
        kept = "" if old.closed else "old readers keep it as an additional property"
        if f.required:
            changes.append(Change("major", f"required field added: {name}.{wire}", wire=_added(f, old), readers=kept))
        else:
            changes.append(Change("minor", f"optional field added: {name}.{wire}", wire=_added(f, old), readers=kept))
    for wire in old_fields.keys() & new_fields.keys():
        a, b = old_fields[wire], new_fields[wire]
        where = f"{name}.{wire}"
        if a.required != b.required:
            changes.append(
                Change(
                    "major" if b.required else "minor",
                    f"{'optional made required' if b.required else 'required made optional'}: {where}",
                    wire="narrower" if b.required else "wider",
                )
            )
        if a.name != b.name:
            changes.append(Change("major", f"generated name changed: {where} ({a.name} -> {b.name})"))
        if (a.has_default, a.default, a.default_factory) != (b.has_default, b.default, b.default_factory):
            # A rule reading the field judges a message without it by its default (a compare side, member_of's field,
            # at_least_one_of's presence): what the messages without it get may change either way.
            read = [r for r in (*old.rules, *new.rules) if wire in r.fields]
            if read:
                changes.append(
                    Change(
                        "major",
                        f"default changed: {where} ({_default(a)} -> {_default(b)}), which its {read[0].kind} rule reads",
                        wire="unknown",
                    )
                )
            else:
                changes.append(Change("major", f"default changed: {where} ({_default(a)} -> {_default(b)})"))
        if a.description != b.description:
            changes.append(Change("patch", f"description changed: {where}"))
        if a.annotations != b.annotations:
            changes.append(Change("patch", f"annotation changed: {where}"))
        if a.required_message != b.required_message and a.required and b.required:
            changes.append(Change("minor", f"error message changed: {where} required: {a.required_message!r} -> {b.required_message!r}"))
        changes += compare_type(a.type, b.type, where)
    # Rules are matched by what they are about (_rule_key); two rules about the same thing (two compare rules on
    # one pair of fields, two allowed_when on one field and case) are not told apart, so such a group that changed
    # is judged as a whole, and not compared.
    old_groups: dict[tuple[Any, ...], list[ir.Rule]] = {}
    new_groups: dict[tuple[Any, ...], list[ir.Rule]] = {}
    for rules, groups in ((old.rules, old_groups), (new.rules, new_groups)):
        for r in rules:
            groups.setdefault(_rule_key(r), []).append(r)
    for key in [*old_groups, *(k for k in new_groups if k not in old_groups)]:
        was_group, now_group = old_groups.get(key, []), new_groups.get(key, [])
        if max(len(was_group), len(now_group)) > 1 and was_group != now_group:
            r = (now_group or was_group)[0]
            changes.append(
                Change(
                    "major",
                    f"rules changed: {name} {r.kind} on {', '.join(r.fields)} ({len(was_group)} -> {len(now_group)} rules "
                    "about the same fields; their changes are not compared)",
                    wire="unknown",
                )
            )
    old_rules = {k: g[0] for k, g in old_groups.items() if len(g) == 1 and len(new_groups.get(k, [])) <= 1}
    new_rules = {k: g[0] for k, g in new_groups.items() if len(g) == 1 and len(old_groups.get(k, [])) <= 1}
    for key, rule in old_rules.items():
        if key not in new_rules:
            changes.append(Change("minor", f"rule removed: {name} {rule.kind} on {', '.join(rule.fields)}", wire="wider"))
    for key, rule in new_rules.items():
        if key not in old_rules:
            changes.append(Change("major", f"rule added: {name} {rule.kind} on {', '.join(rule.fields)}", wire="narrower"))
        else:
            was = old_rules[key]
            if set(rule.allowed) < set(was.allowed):
                changes.append(
                    Change(
                        "major",
                        f"rule tightened: {name} {rule.kind} on {', '.join(rule.fields)} allows {sorted(set(was.allowed) - set(rule.allowed))} no more",
                        wire="narrower",
                    )
                )
            elif set(rule.allowed) != set(was.allowed):
                changes.append(
                    Change(
                        "minor" if set(rule.allowed) > set(was.allowed) else "major",
                        f"rule {'relaxed' if set(rule.allowed) > set(was.allowed) else 'changed'}: {name} {rule.kind} on {', '.join(rule.fields)}",
                        wire="wider" if set(rule.allowed) > set(was.allowed) else "other",
                    )
                )
            if was.op != rule.op:
                # A compare rule passes on the outcomes its op admits: more of them relax it, fewer tighten it.
                before, after = _OUTCOMES[was.op or ""], _OUTCOMES[rule.op or ""]
                changes.append(
                    Change(
                        "minor" if after > before else "major",
                        f"rule {'relaxed' if after > before else 'tightened' if after < before else 'changed'}: "
                        f"{name} {rule.kind} on {', '.join(rule.fields)} ({was.op} -> {rule.op})",
                        wire="wider" if after > before else "narrower" if after < before else "other",
                    )
                )
            if was.operands != rule.operands:
                # A field's type changed under a compare rule: it compares as another kind (an integer exactly, a
                # number as a float, a date-time as the instant), which may change its verdict either way.
                changes.append(
                    Change(
                        "major",
                        f"rule changed: {name} {rule.kind} on {', '.join(rule.fields)} "
                        f"(compares as {', '.join(was.operands)} -> {', '.join(rule.operands)})",
                        wire="unknown",
                    )
                )
            if was.message != rule.message:
                changes.append(Change("minor", f"error message changed: {name} {rule.kind}: {was.message!r} -> {rule.message!r}"))
            if was.after != rule.after:
                # `after` decides where the rule's error sits among the field errors.
                changes.append(
                    Change(
                        "minor",
                        f"rule moved: {name} {rule.kind} on {', '.join(rule.fields)} "
                        f"(runs after {_after(was)} -> after {_after(rule)}; errors come in another order)",
                    )
                )
    kept_old = [key for key in old_rules if key in new_rules]
    kept_new = [key for key in new_rules if key in old_rules]
    if kept_old != kept_new:
        changes.append(Change("minor", f"rule order changed: {name} (errors come in another order)"))
    _messages(
        changes,
        name,
        {"type": old.type_message, "additionalProperties": old.unknown_message},
        {"type": new.type_message, "additionalProperties": new.unknown_message},
    )
    return changes


def _added(f: ir.Field, old: ir.Model) -> str:
    """A field added, as the messages move: an old closed model refused the key, so only new messages hold it
    (optional: wider; required: every new message is one the old refused, and every old one the new refuses);
    an old open model accepted anything under it, which the new one checks (narrower, as Confluent judges a
    property added to an open content model), unless the new field too accepts any JSON value."""
    if old.closed:
        return "other" if f.required else "wider"
    return "same" if _takes_anything(f) and not f.required else "narrower"


def _removed(f: ir.Field, new: ir.Model) -> str:
    """A field removed, as the messages move: a new open model accepts anything under its key (wider, as
    Confluent judges a property removed from an open content model), or nothing when it was required; a new
    closed model refuses the key (narrower), and every message once it was required."""
    if not new.closed:
        return "same" if _takes_anything(f) and not f.required else "wider"
    return "other" if f.required else "narrower"


def _takes_anything(f: ir.Field) -> bool:
    """Whether a field accepts every JSON value under its key (a free-form value, nullable or not: {} takes null
    too). A reference to an alias of one is not followed here: judged narrower, which may ask too much."""
    return _anything(f.type.inner if isinstance(f.type, ir.NullableType) else f.type)


def combined(*wires: str) -> str:
    """The move of several changes taken together, e.g. wider and narrower make other."""
    moved = {w for w in wires if w != "same"}
    if not moved:
        return "same"
    if "other" in moved or {"wider", "narrower"} <= moved:
        return "other"
    if "unknown" in moved:
        return "unknown"
    return moved.pop()


def _after(rule: ir.Rule) -> str:
    return f"{rule.after!r}" if rule.after else "all fields"


def _default(f: ir.Field) -> str:
    if f.default_factory:
        return f"fresh {f.default_factory}"
    # As JSON writes it (null, "text"): the reader of `chatspec diff` wrote the spec, not Python.
    return json.dumps(f.default, ensure_ascii=False) if f.has_default else "none"


def classify(old: ir.Format, new: ir.Format) -> list[Change]:
    """Every difference from old to new, most severe first, in a stable order."""
    changes: list[Change] = []
    for attr in ("title", "description", "decisions"):
        if getattr(old, attr) != getattr(new, attr):
            changes.append(Change("patch", f"{attr} changed"))
    if old.upstream != new.upstream:
        changes.append(Change("patch", "x-source changed"))
    if old.compatibility != new.compatibility:
        # A promise kept to readers: dropping any part of it is a break of the contract, adding to it an addition.
        weakened = not promised(new.compatibility) >= promised(old.compatibility)
        changes.append(
            Change("major" if weakened else "minor", f"compatibility promise changed: {old.compatibility} -> {new.compatibility}")
        )
    if old.root != new.root:
        changes.append(Change("major", f"root model changed: {old.root} -> {new.root}", wire="unknown"))
    old_defs = {d.name: d for d in old.definitions}
    new_defs = {d.name: d for d in new.definitions}
    for name in old_defs:
        if name not in new_defs:
            changes.append(Change("major", f"definition removed: {name}"))
    for name in new_defs:
        if name not in old_defs:
            changes.append(Change("minor", f"definition added: {name}"))
    for name in old_defs.keys() & new_defs.keys():
        a, b = old_defs[name], new_defs[name]
        if a.title != b.title:
            changes.append(Change("patch", f"title changed: {name}"))
        if a.annotations != b.annotations:
            changes.append(Change("patch", f"annotation changed: {name}"))
        if type(a) is not type(b):
            changes.append(Change("major", f"definition changed kind: {name} ({a.kind} -> {b.kind})", wire="unknown"))
        elif isinstance(a, ir.Model):
            assert isinstance(b, ir.Model)
            changes += compare_model(a, b)
        elif isinstance(a, ir.Enum):
            assert isinstance(b, ir.Enum)
            _opened(changes, name, a.open, b.open)
            # A value dropped from an enum open after it, or listed in one open before it, is a string readers of that
            # version keep as unknown: it moves no message.
            moves = ("same" if b.open else "narrower", "same" if a.open else "wider")
            _values(changes, name, "enum value", a.values, b.values, moves=moves, kept=_kept("an unknown value", a.open, b.open))
            _order(changes, name, "enum value", a.values, b.values)
            if a.description != b.description or a.value_descriptions != b.value_descriptions:
                changes.append(Change("patch", f"description changed: {name}"))
            if a.values == b.values:
                _messages(changes, name, a.messages, b.messages)
        else:
            assert isinstance(a, ir.Alias) and isinstance(b, ir.Alias)
            if a.description != b.description:
                changes.append(Change("patch", f"description changed: {name}"))
            changes += compare_type(a.type, b.type, name)
    return most_severe_first(list(dict.fromkeys(changes)))


def most_severe_first(changes: list[Change]) -> list[Change]:
    """The changes, major first, then minor, then patch; by their text within a level (a stable order)."""
    order = {level: i for i, level in enumerate(reversed(LEVELS))}
    return sorted(changes, key=lambda c: (order[c.level], c.what))


def promised(compatibility: str) -> frozenset[str]:
    """What an x-compatibility value promises, e.g. "full_transitive" -> {"backward", "forward", "transitive"}."""
    kind, _, transitive = compatibility.partition("_")
    directions = {"none": set(), "backward": {"backward"}, "forward": {"forward"}, "full": {"backward", "forward"}}[kind]
    return frozenset(directions | ({"transitive"} if transitive else set()))


def bump(version: str, level: str) -> str:
    major, minor, patch = (int(p) for p in version.split("."))
    if level == "major":
        return f"{major + 1}.0.0"
    if level == "minor":
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"


def level_between(old: str, new: str) -> str | None:
    """The kind of bump from one version to a later one (the number it raises), or None if it is not later."""
    a = tuple(int(p) for p in old.split("."))
    b = tuple(int(p) for p in new.split("."))
    if b <= a:
        return None
    if b[0] != a[0]:
        return "major"
    return "minor" if b[1] != a[1] else "patch"


# Semantic versioning's 0.x rule, as Cargo and npm's caret ranges read it (^0.2.3 is >=0.2.3 <0.3.0): while
# the major is 0 (initial development) every number moves down one place. A breaking change raises the
# minor number (0.2.0 -> 0.3.0), an additive or cosmetic one the patch number (0.2.0 -> 0.2.1); 1.0.0 is
# a decision to call the format stable, never a bump chatspec picks by itself.


def needed_version(latest: str, level: str) -> str:
    """The smallest version after `latest` that a change of this class (major, minor, patch) may take."""
    if latest.split(".")[0] == "0":
        return bump(latest, "minor" if level == "major" else "patch")
    return bump(latest, level)


def allowed_level(old: str, new: str) -> str | None:
    """The largest class of change a move from `old` to the later `new` may hold, or None if it is not later:
    the bump's level, but within 0.x a minor bump may break and a patch bump may add."""
    given = level_between(old, new)
    if given is None or old.split(".")[0] != "0" or given == "major":
        return given
    return "major" if given == "minor" else "minor"


def _plain(value: Any) -> Any:
    """The IR as plain data to compare, with what layout alone can change made order-free."""
    if isinstance(value, ir.Format):
        return {
            "title": value.title,
            "description": value.description,
            "decisions": _plain(value.decisions),
            "upstream": _plain(value.upstream),
            "compatibility": value.compatibility,
            "root": value.root,
            "definitions": {d.name: _plain(d) for d in value.definitions},
        }
    if isinstance(value, ir.Model):
        plain = {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
        plain["fields"] = {f.wire_name: _plain(f) for f in value.fields}
        return plain
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _diff(old: Any, new: Any, path: str, out: list[str]) -> None:
    if type(old) is not type(new) or not isinstance(old, (dict, list)):
        if old != new or type(old) is not type(new):
            out.append(f"{path or '/'}: {json.dumps(old, sort_keys=True)[:80]} -> {json.dumps(new, sort_keys=True)[:80]}")
        return
    if isinstance(old, list):
        if len(old) != len(new):
            out.append(f"{path}: {len(old)} -> {len(new)} items")
            return
        for i, (a, b) in enumerate(zip(old, new)):
            _diff(a, b, f"{path}/{i}", out)
        return
    for key in sorted(set(old) | set(new)):
        where = f"{path}/{key}"
        if key not in old or key not in new:
            out.append(f"{where}: {'added' if key not in old else 'removed'}")
        else:
            _diff(old[key], new[key], where, out)


def ir_differences(old: ir.Format, new: ir.Format) -> list[str]:
    """Where the IRs of two versions differ, e.g. ["/definitions/Item/rules/0/after: \"a\" -> \"b\""].

    The safety net under classify(): a difference it does not name is a change nobody
    decided a bump for. Version, source and examples do not count, nor the order of
    definitions and fields (key order in the spec is layout).
    """
    out: list[str] = []
    _diff(_plain(old), _plain(new), "", out)
    return out

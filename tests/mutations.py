"""Mutations of JSON documents for the differential tests.

- Systematic: every value replaced by odd values, every key removed, an extra key added
  (grouped by path, so a selection can reach every path and every depth).
- Rule-aware: near-miss values that just trigger or just miss each spec rule
  (member_of, required_when, allowed_when, at_least_one_of, contains, compare).
- Boundary: every number moved to each edge of every bound the spec states (at, one step and
  half a step either side, the next float), every string and array to each length edge, every
  string to each value the spec names (enum and const members, rules' equals and allowed values).
- Model positions: where in a document each top-level model sits, found by walking
  the exported JSON Schema, so non-root models get real sub-documents as inputs.
"""

from __future__ import annotations

import copy
import functools
import math
import random
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

# JSON values that stress every check: wrong kinds, empties, edges of numbers and text.
ODD: list[Any] = [None, True, 0, -1, 1.0, 1.5, 2**63, -(2**63) - 1, 1e300, "", " ", "\u00a0", "x", "2024-01-15T10:30:00Z",
                   "2024-02-30T00:00:00Z", "QUJD", "QUJD\n", [], [None], [""], [[]], {}, {"type": "text"}, {"x": 1},
                   # a name a pointer escapes (RFC 6901: ~0, ~1) over a value most fields refuse, and a value past the
                   # depth limit (130 levels of lists), where a free-form or open value is checked below it
                   {"a/b~c": [None]}, functools.reduce(lambda inner, _: [inner], range(130), [])]

Path = tuple[Any, ...]


def paths(value: Any, prefix: Path = ()) -> list[Path]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*prefix, i))
    return found


def get(doc: Any, path: Path) -> Any:
    for token in path:
        doc = doc[token]
    return doc


def replaced(doc: Any, path: Path, value: Any) -> Any:
    """A copy of doc with the value at path replaced (path () replaces the whole document)."""
    if not path:
        return copy.deepcopy(value)
    out = copy.deepcopy(doc)
    get(out, path[:-1])[path[-1]] = copy.deepcopy(value)
    return out


def removed(doc: Any, path: Path) -> Any:
    """A copy of doc without the key at path (path must end in an object key)."""
    out = copy.deepcopy(doc)
    del get(out, path[:-1])[path[-1]]
    return out


def mutations_by_path(example: Any) -> list[tuple[Path, list[Any]]]:
    """For each path of the example: the example with that value replaced by each odd
    value, with that key removed, for an object with an extra key added, and for a
    non-empty array with its first item repeated at the end."""
    out = []
    for path in paths(example):
        found = [replaced(example, path, odd) for odd in ODD]
        if path and isinstance(get(example, path[:-1]), dict):
            found.append(removed(example, path))
        here = get(example, path)
        if isinstance(here, dict):
            doc = copy.deepcopy(example)
            get(doc, path)["unexpected-key"] = 1
            found.append(doc)
        if isinstance(here, list) and here:
            # One item more, a copy of the first: uniqueItems and maxItems at their edge.
            found.append(replaced(example, path, [*here, here[0]]))
        out.append((path, found))
    return out


def mutations(example: Any) -> list[Any]:
    """Every systematic mutation of the example, path by path."""
    return [doc for _, found in mutations_by_path(example) for doc in found]


def covering_selection(documents: list[Any], budget: int, seed: int = 0) -> list[tuple[Path, Any]]:
    """Up to budget (path, mutated document) pairs, chosen so that every path depth is
    reached before any depth gets a second case, and every path before any path gets a second one.

    Rounds: round k takes the k-th mutation (in a seeded shuffle) of every path of every
    document. Within a round, paths are taken depth by depth in turn (a seeded shuffle
    inside each depth), so a small budget still reaches the deepest values.
    """
    rng = random.Random(seed)
    groups: list[tuple[int, list[tuple[Path, Any]]]] = []
    for doc in documents:
        for path, found in mutations_by_path(doc):
            found = list(found)
            rng.shuffle(found)
            groups.append((len(path), [(path, doc) for doc in found]))
    out: list[tuple[Path, Any]] = []
    round_ = 0
    while len(out) < budget:
        by_depth: dict[int, list[tuple[Path, Any]]] = {}
        for depth, found in groups:
            if round_ < len(found):
                by_depth.setdefault(depth, []).append(found[round_])
        if not by_depth:
            break
        for queue in by_depth.values():
            rng.shuffle(queue)
        depths = sorted(by_depth)
        while len(out) < budget and any(by_depth[d] for d in depths):
            for d in depths:
                if by_depth[d] and len(out) < budget:
                    out.append(by_depth[d].pop())
        round_ += 1
    return out


# --- boundary mutations ----------------------------------------------------------

_NUMBER_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")  # multipleOf 3: 3, 2 and 4
_LENGTH_BOUNDS = ("minLength", "maxLength", "minItems", "maxItems")
_VALUE_KEYS = ("enum", "const", "equals", "allowed")


@dataclass(frozen=True)
class Edges:
    """The values at and around every bound a spec states: numbers at, just inside and just past each
    numeric bound, and lengths at and next to each length bound."""

    numbers: tuple[float, ...]
    lengths: tuple[int, ...]
    # Every string a spec names as a value (enum and const members, a rule's equals and allowed values): swapped
    # into another place, each tries a value some other check or rule of the spec turns on.
    words: tuple[str, ...] = ()


def edges(spec: Any) -> Edges:
    """The Edges of every bound anywhere in a spec document (a bound is found by its keyword)."""
    numbers: set[float] = set()
    lengths: set[int] = set()
    words: set[str] = set()
    todo = [spec]
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo += node
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in _VALUE_KEYS:
                    words |= {w for w in (value if isinstance(value, list) else [value]) if isinstance(w, str)}
                if key in _NUMBER_BOUNDS and isinstance(value, (int, float)) and not isinstance(value, bool):
                    numbers |= {value, value - 1, value + 1, value - 0.5, value + 0.5,
                                math.nextafter(value, -math.inf), math.nextafter(value, math.inf)}
                elif key in _LENGTH_BOUNDS and isinstance(value, int):
                    lengths |= {n for n in (value - 1, value, value + 1) if n >= 0}
                elif key not in ("enum", "const", "default", "examples"):
                    todo.append(value)
    # Integral values stay integers (an integer field's bound of 5 gives 4, 5, 6 as JSON integers).
    whole = {int(n) if float(n).is_integer() and abs(n) < 2**63 else n for n in numbers}
    return Edges(tuple(sorted(whole, key=float)), tuple(sorted(lengths)), tuple(sorted(words)))


def _texts(n: int) -> list[str]:
    # Code points, not bytes and not UTF-16 units: one, two and four bytes of UTF-8, and a character
    # beyond U+FFFF (two UTF-16 units in JavaScript).
    return ["a" * n, "\u00e9" * n, "\U0001f600" * n]


def boundary_mutations(example: Any, found: Edges) -> list[Any]:
    """The example with, one place at a time, each number replaced by every numeric edge, each string by
    strings of every length edge and by every string the spec names as a value, and each array cut or grown
    (repeating its first item) to every length edge."""
    out = []
    for path in paths(example):
        here = get(example, path)
        if isinstance(here, (int, float)) and not isinstance(here, bool):
            out += [replaced(example, path, n) for n in found.numbers if n != here]
        elif isinstance(here, str):
            out += [replaced(example, path, t) for n in found.lengths for t in _texts(n) if t != here]
            out += [replaced(example, path, w) for w in found.words if w != here]
        elif isinstance(here, list):
            out += [replaced(example, path, (here * (n // len(here) + 1))[:n] if here else []) for n in found.lengths if n != len(here)]
    return out


# --- model positions -----------------------------------------------------------

def model_positions(value: Any, schema: dict[str, Any], models: set[str], root: dict[str, Any] | None = None,
                    path: Path = ()) -> Iterator[tuple[Path, str]]:
    """(path, model name) for every value of the document that sits where a top-level model goes.

    Follows the exported schema: $ref, properties, items, prefixItems, additionalProperties,
    anyOf/oneOf variants whose JSON kind (or discriminator tag) fits the value.
    """
    root = schema if root is None else root
    if not isinstance(schema, dict):
        return
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        if name in models:
            yield path, name
        yield from model_positions(value, root["$defs"][name], models, root, path)
    for key in ("anyOf", "oneOf"):
        variants = schema.get(key, [])
        tag = schema.get("discriminator", {})
        for variant in variants:
            if tag and isinstance(value, dict) and tag.get("mapping", {}).get(value.get(tag["propertyName"])) not in (None, variant.get("$ref")):
                continue
            if _kind_fits(value, variant, root):
                yield from model_positions(value, variant, models, root, path)
    for sub in schema.get("allOf", []):
        if isinstance(sub, dict) and "$ref" in sub:
            yield from model_positions(value, sub, models, root, path)
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            if sub is not None:
                yield from model_positions(item, sub, models, root, (*path, key))
    elif isinstance(value, list):
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else schema.get("items")
            if isinstance(sub, dict):
                yield from model_positions(item, sub, models, root, (*path, i))


def _kind_fits(value: Any, schema: Any, root: dict[str, Any]) -> bool:
    while isinstance(schema, dict) and "$ref" in schema and "type" not in schema:
        schema = root["$defs"][schema["$ref"].removeprefix("#/$defs/")]
    if not isinstance(schema, dict) or "type" not in schema:
        return True
    kinds = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
    actual = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(type(value))
    if actual is None:
        actual = "integer" if isinstance(value, int) else "number"
    return actual in kinds or (actual == "integer" and "number" in kinds)


# --- rule-aware mutations --------------------------------------------------------

ACCENTED = "Jos\u00e9"  # NFC; its NFD form is "Jose\u0301"


def near_misses(text: str) -> list[str]:
    """Strings that differ from text only slightly: case, surrounding whitespace, a prefix or suffix."""
    out = [text.upper(), text.lower(), text.swapcase(), text.title(), f" {text}", f"{text} ", f"\t{text}\n",
           f"{text}x", f"x{text}", text[:-1], text + text[-1:], f"{text}\u00a0", f"\u200b{text}"]
    return [s for s in dict.fromkeys(out) if s != text]


def _pointer(text: str) -> Path:
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in text.split("/")[1:]) if text else ()


def _set_at(doc: Any, path: Path, value: Any) -> Any | None:
    """doc with value at path, creating the last object key; None when the path cannot hold it."""
    parent_path = _tokens(doc, tuple(str(t) for t in path[:-1]))
    if parent_path is None:
        return None
    parent, last = get(doc, parent_path), path[-1]
    if isinstance(parent, list) and str(last).isdigit() and int(last) < len(parent):
        return replaced(doc, (*parent_path, int(last)), value)
    if isinstance(parent, dict):
        return replaced(doc, (*parent_path, last), value)
    return None


def rule_mutations(doc: Any, positions: list[tuple[Path, str]], rules: dict[str, list[dict[str, Any]]],
                   per_rule: int = 3) -> list[tuple[str, Any]]:
    """(label, document) pairs that just trigger or just miss each rule of each model instance
    in doc (at most per_rule instances of each rule). Labels name the rule and the variation."""
    out: list[tuple[str, Any]] = []
    seen: dict[tuple[str, int], int] = {}
    for path, model in positions:
        for n, rule in enumerate(rules.get(model, [])):
            if seen.get((model, n), 0) >= per_rule:
                continue
            # Values the model's other rules give the same condition field: valid values that miss this one.
            others = [r["when"]["equals"] for r in rules[model] if "when" in r and r is not rule and r["when"]["field"] == rule.get("when", {}).get("field")]
            made = _for_rule(doc, path, rule, [o for o in dict.fromkeys(others) if o != rule.get("when", {}).get("equals")])
            if made:
                seen[(model, n)] = seen.get((model, n), 0) + 1
                out += [(f"{model} {rule['kind']} #{n} {label}", d) for label, d in made if d is not None]
    return out


def _for_rule(doc: Any, at: Path, rule: dict[str, Any], other_conditions: list[str]) -> list[tuple[str, Any]]:
    here = get(doc, at)
    if not isinstance(here, dict):
        return []
    kind = rule["kind"]
    made: list[tuple[str, Any]] = []
    if kind == "member_of":
        up, _, rest = rule["in"].partition("/")
        base = at[: len(at) - int(up)] if int(up) else at
        pool_path = (*base, *_pointer("/" + rest))
        try:
            pool = get(doc, pool_path)
        except (KeyError, IndexError, TypeError):
            return []
        field = (*at, rule["field"])
        if not isinstance(pool, list) or not pool or not all(isinstance(p, str) for p in pool):
            return []
        name = here.get(rule["field"]) if isinstance(here.get(rule["field"]), str) and here.get(rule["field"]) in pool else pool[0]
        made.append(("exact member", replaced(doc, field, name)))
        made += [(f"near miss {m!r}", replaced(doc, field, m)) for m in near_misses(name) if m not in pool]
        # Unicode normalisation: the pool holds one form of an accented name, the field the other.
        i = pool.index(name)
        for pool_form, field_form in (("NFC", "NFD"), ("NFD", "NFC"), ("NFC", "NFC")):
            changed = replaced(doc, (*pool_path, i), unicodedata.normalize(pool_form, ACCENTED))
            made.append((f"pool {pool_form}, value {field_form}", _set_at(changed, field, unicodedata.normalize(field_form, ACCENTED))))
        made.append(("empty pool", replaced(doc, pool_path, [])))
    elif kind == "required_when":
        when, field = rule["when"], rule["field"]
        cond = (*at, when["field"], *_pointer(when.get("pointer", "")))
        target = (*at, field)
        on = _set_at(doc, cond, when["equals"])
        if on is not None:
            made.append(("condition met, field present", on if field in get(on, at) else None))
            made.append(("condition met, field absent", removed(on, target) if field in get(on, at) else on))
            made.append(("condition met, field null", _set_at(on, target, None)))
        for miss in [*other_conditions, *near_misses(when["equals"])[:4]]:
            off = _set_at(doc, cond, miss)
            if off is not None:
                made.append((f"condition missed by {miss!r}, field absent", removed(off, target) if field in get(off, at) else off))
    elif kind == "at_least_one_of":
        fields = [f for f in rule["fields"]]
        none = copy.deepcopy(doc)
        for f in fields:
            get(none, at).pop(f, None)
        made.append(("none present", none))
        made.append(("all null", _set_all(none, at, {f: None for f in fields})))
        for f in fields:
            if f in here:
                made.append((f"only {f}", _set_all(none, at, {f: here[f]})))
                made.append((f"only {f}, others null", _set_all(none, at, {g: (here[f] if g == f else None) for g in fields})))
    elif kind in ("allowed_when", "contains"):
        items = here.get(rule["field"])
        if not isinstance(items, list) or not items:
            return []
        each = _pointer(rule["each"])
        seen_values = [v for v in (_value_at(item, each) for item in items) if isinstance(v, str)]
        if kind == "contains":
            target = rule["equals"]
            others = [v for v in seen_values if v != target] or ["x"]
            made.append(("no item equals", _set_each(doc, at, rule["field"], each, lambda i, v: others[i % len(others)] if v == target else v)))
            made.append(("only the last item equals", _set_each(doc, at, rule["field"], each, lambda i, v: target if i == len(items) - 1 else (others[i % len(others)] if v == target else v))))
            made += [(f"near miss {m!r} instead", _set_each(doc, at, rule["field"], each, lambda i, v, m=m: m if v == target else v))
                     for m in near_misses(target)[:4]]
        else:
            when = rule["when"]
            cond = (*at, when["field"], *_pointer(when.get("pointer", "")))
            on = _set_at(doc, cond, when["equals"])
            if on is None:
                return []
            allowed = rule["allowed"]
            outside = [v for v in seen_values if v not in allowed] + [m for a in allowed for m in near_misses(a)[:2]]
            made.append(("condition met, every item allowed", _set_each(on, at, rule["field"], each, lambda i, v: allowed[i % len(allowed)])))
            made += [(f"condition met, last item {o!r}", _set_each(on, at, rule["field"], each, lambda i, v, o=o: o if i == len(items) - 1 else allowed[0]))
                     for o in outside[:4]]
            for miss in [*other_conditions, *near_misses(when["equals"])[:3]]:
                off = _set_at(doc, cond, miss)
                if off is not None and outside:
                    made.append((f"condition missed by {miss!r}", _set_each(off, at, rule["field"], each, lambda i, v: outside[0])))
    elif kind == "compare":
        field, other = rule["field"], rule["other"]
        for side, against in ((field, here.get(other)), (other, here.get(field))):
            if against is not None:
                made += [(f"{side} {label} the other side", _set_at(doc, (*at, side), v)) for label, v in compare_near(against)]
            made.append((f"{side} null", _set_at(doc, (*at, side), None)))
            made.append((f"{side} absent", removed(doc, (*at, side)) if side in here else None))
    return made


def compare_near(value: Any) -> list[tuple[str, Any]]:
    """Values just below, equal to and just above value, of its kind (labelled): integers by one, other numbers
    by a half and by the next float, date-times by a second, by a tenth of a nanosecond and in another offset
    (the same instant), strings by a character (and across the surrogates, where JavaScript's order differs)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [("equal to", value), ("one below", value - 1), ("one above", value + 1), ("as a float", float(value))]
    if isinstance(value, float):
        return [("equal to", value), ("just below", math.nextafter(value, -math.inf)), ("just above", math.nextafter(value, math.inf)),
                ("a half below", value - 0.5), ("a half above", value + 0.5)]
    if not isinstance(value, str):
        return []
    moment = _instant(value)
    if moment is not None:
        shift = lambda d: (moment + d).isoformat().replace("+00:00", "Z")  # noqa: E731
        return [("equal to", value), ("a second before", shift(timedelta(seconds=-1))), ("a second after", shift(timedelta(seconds=1))),
                ("the same instant at +01:00", moment.astimezone(timezone(timedelta(hours=1))).isoformat()),
                *([("a tenth of a nanosecond after", value[:-1] + ("" if "." in value else ".") + "0000000001Z")] if value[-1] in "Zz" else [])]
    return [("equal to", value), ("a prefix of", value[:-1]), ("extended", value + "\x00"), ("extended past the surrogates", value + "\ue000"),
            ("extended by an astral character", value + "\U0001F600")]


def _instant(text: str) -> datetime | None:
    """The aware datetime an RFC 3339 text denotes, or None for other text."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None and len(text) >= 20 else None


def _tokens(value: Any, pointer: Path) -> Path | None:
    """Pointer tokens as indexes into value (digits become list indexes); None when absent."""
    out = []
    for token in pointer:
        if isinstance(value, list) and token.isdigit() and int(token) < len(value):
            out.append(int(token))
            value = value[int(token)]
        elif isinstance(value, dict) and token in value:
            out.append(token)
            value = value[token]
        else:
            return None
    return tuple(out)


def _value_at(item: Any, pointer: Path) -> Any:
    tokens = _tokens(item, pointer)
    return None if tokens is None else get(item, tokens)


def _set_each(doc: Any, at: Path, field: str, each: Path, choose: Any) -> Any:
    """doc with each item's value at `each` (in the list field at `at`) replaced by choose(index, old)."""
    out = copy.deepcopy(doc)
    for i, item in enumerate(get(out, (*at, field))):
        tokens = _tokens(item, each)
        if tokens:
            get(item, tokens[:-1])[tokens[-1]] = choose(i, get(item, tokens))
    return out


def _set_all(doc: Any, at: Path, values: dict[str, Any]) -> Any:
    out = copy.deepcopy(doc)
    get(out, at).update(values)
    return out

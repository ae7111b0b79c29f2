"""The docs against the spec and the code: each field's Required cell is what the spec's `required` says,
and each check's message on a page is what the generated Python reports.

Every page of the formats and the golden cases is generated afresh (never read from a golden file). For
every model, the test breaks one check at a time (a missing field, an unknown key, each constraint of
each field, its items, values, tuple positions and union variants, each rule), runs the document through
the generated Python and requires each error the code reports to be a message the page lists for that
model (or for the enumeration or named type the field refers to, or in the page's table of wrong-type
messages), with each placeholder the page shows (<var>index</var>, <var>field</var>, <var>value</var>)
standing for what the code filled in; and every message the page lists to be one a broken check gave.
"""

from __future__ import annotations

import functools
import html
import json
import math
import operator
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance import Built
from conftest import GOLDEN, ROOT, generate_cached, written_fields
from generator import invisible, ir, messages, string_formats
from generator.core import discover
from generator.load import LoadedSpec, load_spec
from generator.lower import lower
from generator.targets.markdown import APPLIED_ROWS, md_name

# tests/docs_checks/: specs for this test alone, with models the specs and golden cases do not have (a model
# whose only checks are its own: closed, or its own type message, and no field with a check).
SPECS: list[LoadedSpec] = [
    *discover(ROOT / "specs", ROOT),
    *(load_spec(p, ROOT) for p in sorted(GOLDEN.iterdir()) if (p / "spec.json").is_file()),
    *(load_spec(p, ROOT) for p in sorted((Path(__file__).parent / "docs_checks").iterdir()) if (p / "spec.json").is_file()),
]
IDS = [s.format_id for s in SPECS]
_CELL = re.compile(r"(?<!\\)\|")


class Unbuildable(Exception):
    """The test cannot make a value a check needs: extend valid() or breaking(), never skip."""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Built]:
    """Every format's page and its generated Python, written out for the Python driver."""
    files = generate_cached(SPECS, targets=["python", "docs"])
    folder = tmp_path_factory.mktemp("docs_checks")
    for path, text in files.items():
        if path.startswith("python/"):
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, encoding="utf-8")
    pages = {path.removeprefix("docs/").removesuffix(".md"): text for path, text in files.items() if path.startswith("docs/") and path.endswith(".md")}
    return pages, Built(folder, tuple(IDS), {"python": folder / "python"})


# --- reading a page --------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    return [c.strip() for c in _CELL.split(line.strip())[1:-1]]


def _sections(page: str) -> dict[str, str]:
    """### heading -> its text, up to the next heading."""
    found = {}
    for chunk in re.split(r"\n(?=#{2,3} )", page):
        if chunk.startswith("### "):
            name, _, body = chunk.partition("\n")
            found[name[4:]] = body
    return found


def _table(text: str, heading: str) -> list[list[str]]:
    """The rows of the table whose first heading cell is `heading`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and _cells(line)[0] == heading:
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(_cells(row))
            return rows
    return []


def _code_text(cell: str) -> tuple[list[str], list[str]]:
    """A message cell read back: its literal parts and the placeholders between them."""
    if cell.startswith("<code>") and cell.endswith("</code>"):
        parts = re.split(r"<var>(\w+)</var>", cell[len("<code>") : -len("</code>")])
        return [html.unescape(p.replace("<wbr>", "")) for p in parts[::2]], parts[1::2]
    fence = re.match(r"`+", cell)
    assert fence and cell.endswith(fence.group()), f"not a message cell: {cell}"
    text = cell[len(fence.group()) : -len(fence.group())]
    if text.startswith(" ") and text.endswith(" ") and text.strip():
        text = text[1:-1]
    return [text], []


class Message:
    """A message as a page shows it, matched against what the code reports at a path."""

    def __init__(self, where: str, cell: str, field: str = "") -> None:
        self.where = where
        self.field = field  # the Where cell of a model's row, e.g. `session_id`
        self.cell = cell
        literal, self.names = _code_text(cell)
        self.pattern = re.compile("(.*?)".join(re.escape(p) for p in literal), re.S)

    def matches(self, path: str, reported: str) -> bool:
        found = self.pattern.fullmatch(invisible.shown(reported.replace("\n", "\\n").replace("\r", "\\r")))
        if found is None:
            return False
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]]
        for name, value in zip(self.names, found.groups()):
            if name == "index" and value != next((t for t in reversed(tokens) if t.isdigit()), ""):
                return False
            if name == "field" and value != next((t for t in reversed(tokens) if not t.isdigit()), ""):
                return False
        return True


class Page:
    def __init__(self, fmt: ir.Format, text: str) -> None:
        self.sections = _sections(text)
        models = text.split("\n## Models\n", 1)[1].split("\n### ", 1)[0]
        self.type_rows = [Message("wrong type", row[1]) for row in _table(models, "Value")]
        self.rows: dict[str, list[Message]] = {}
        for d in fmt.definitions:
            body = self.sections[d.name]
            if isinstance(d, ir.Model):
                self.rows[d.name] = [Message(f"{d.name}: {r[0]} {r[1]}", r[2], r[0]) for r in _table(body, "Where")]
            elif isinstance(d, ir.Alias):
                self.rows[d.name] = [Message(f"{d.name}: {r[0]}", r[1]) for r in _table(body, "Check")]
            else:
                said = re.findall(r"^A value (outside the list|that is not a string) is reported as (.*)\.$", body, re.M)
                self.rows[d.name] = [Message(f"{d.name}: {what}", cell) for what, cell in said]


# --- values that break one check each --------------------------------------------------------


# Values a schema applied as written is tried on: one it accepts is a document's valid value, each it refuses breaks it.
_JSON_VALUES: list[Any] = [
    "2.0", 1, None, True, False, 0, -1, 0.5, 2.0, 7, 11, 10.25, -32600, "", "a", "abc", "abcd", "text", "2024-01-15T10:30:00Z",
    "https://x", [], [1], ["a"], ["top", 10.25, 0.5, 11], ["a", 11, 12, 13], ["a", 0.3], ["a", "b"], [[]], {}, {"a": 1},
    {"type": "text", "text": "hi"}, {"type": "image", "url": "https://x"}, {"type": "audio"}, {"width": 1}, {"depth": 1},
    {"width": 1, "height": 2}, {"kind": "other"}, {"x-a": "s"}, {"x-a": 1}, {"toolongname123": 1}, {"secret": 1},
    {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5},
]
_NONE = object()


@functools.cache
def _runtime() -> Any:
    """The Python runtime as the generated package holds it."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("_docs_checks_runtime", ROOT / "generator" / "runtime" / "python" / "_runtime.py")
    assert spec is not None and spec.loader is not None
    rt = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = rt  # (its dataclasses look their module up)
    spec.loader.exec_module(rt)
    return rt


def _applied(checks: ir.Checks) -> Any:
    """value -> (pointer, message) of the first problem the Python runtime reports, or None where it accepts it."""
    from generator.automaton import compile_pattern
    from generator.backtracking import runs_linear
    from generator.pyregex import to_python

    rt = _runtime()
    matchers = tuple(rt.regex(to_python(p)) if runs_linear(p) else rt.Automaton(compile_pattern(p).encode()) for p in checks.patterns)
    parser = rt.Checks(checks.text, matchers).parser({"type": "must be a JSON value"})

    def first(value: Any) -> tuple[str, str] | None:
        ctx = rt.Context(value)
        if parser(value, ctx) is not rt.INVALID:
            return None
        return ctx.errors[0].path, ctx.errors[0].message

    return first


def _unwrap(t: ir.TypeRef) -> ir.TypeRef:
    return t.inner if isinstance(t, ir.NullableType) else t


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {str: "string", float: "number", list: "array", dict: "object"}[type(value)]


def _fits(t: ir.StringType, text: str) -> bool:
    return ((t.min_length or 0) <= len(text) <= (t.max_length if t.max_length is not None else math.inf)
            and (t.pattern is None or re.search(t.pattern, text) is not None)
            and (t.checked_format is None or string_formats.checker().conforms(text, t.checked_format)))


_TEXTS = ["a", "", "ab", "abc", "A", "a1", "x-y", "0", "-", " ", "\n", "!", "\x00", "zz", '"', "\\", "\u202e",
          "https://example.com/a", "123e4567-e89b-12d3-a456-426614174000", "joe@example.com", "2024-01-15", "10:30:00Z"]


def _texts(t: ir.StringType, n: int) -> list[str]:
    """n distinct texts every check of t accepts."""
    found = [c for c in [*_TEXTS, "a" * (t.min_length or 0)] if _fits(t, c)]
    if len(found) < n and t.pattern is not None:
        from hypothesis import HealthCheck, settings, strategies as st
        from hypothesis import find

        config = settings(database=None, derandomize=True, suppress_health_check=list(HealthCheck))
        for _ in range(n):
            try:
                found.append(find(st.from_regex(t.pattern), lambda text: _fits(t, text) and text not in found, settings=config))
            except Exception:  # noqa: BLE001 - nothing more to find
                break
    found = list(dict.fromkeys(found))
    if len(found) < n:
        raise Unbuildable(f"no {n} texts fit {t}")
    return found[:n]


def valid_many(fmt: ir.Format, t: ir.TypeRef, n: int) -> list[Any]:
    """n distinct values every check of the type accepts."""
    t = _unwrap(t) if n > 1 else t
    if isinstance(t, ir.Ref) and t.target == "enum":
        t = ir.StringType({}, enum=fmt.definition(t.name).values)  # type: ignore[union-attr]
    match t:
        case ir.StringType() if t.const is None and not t.enum:
            return _texts(t, n)
        case ir.StringType() if len(t.enum or ()) >= n:
            return list((t.enum or ())[:n])
        case ir.NumericType():
            first = valid(fmt, t)
            found = [first + i for i in range(n)]
            if all(valid_number(t, v) for v in found):
                return found
        case ir.DateTimeType():
            return [f"2024-01-15T10:{i:02d}:00Z" for i in range(n)]
    if n == 1:
        return [valid(fmt, t)]
    raise Unbuildable(f"no {n} distinct values of {t}")


def valid_number(t: ir.NumericType, n: float) -> bool:
    bounds = ((t.minimum, operator.lt), (t.maximum, operator.gt), (t.exclusive_minimum, operator.le), (t.exclusive_maximum, operator.ge))
    return not any(b is not None and past(n, b) for b, past in bounds) and (t.multiple_of is None or n % t.multiple_of == 0)


def valid(fmt: ir.Format, t: ir.TypeRef, depth: int = 0) -> Any:
    """A value every check of the type accepts (models: their required fields)."""
    if depth > 12:
        raise Unbuildable("the type nests too deep to build a value of")
    match t:
        case ir.NullableType():
            return None
        case ir.StringType() if t.const is not None:
            return t.const
        case ir.StringType() if t.enum:
            return t.enum[0]
        case ir.StringType():
            return _texts(t, 1)[0]
        case ir.DateTimeType():
            return "2024-01-15T10:30:00Z"
        case ir.BytesType():
            return "aGk="
        case ir.NumericType() | ir.BooleanType() if ir.allowed_values(t) is not None:
            for candidate in ir.allowed_values(t) or ():
                if isinstance(t, ir.BooleanType) or valid_number(t, candidate):  # type: ignore[arg-type]
                    return candidate
            raise Unbuildable(f"no value of the const and enum fits {t}")
        case ir.NumericType():
            step = t.multiple_of or 1
            for candidate in (0, 1, t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum):
                if candidate is None:
                    continue
                for n in (candidate, candidate + step, candidate - step):
                    n = int(n) if t.integer else n
                    n -= n % step if t.multiple_of else 0  # the multiple at or below it
                    if valid_number(t, n):
                        return n
            raise Unbuildable(f"no number fits {t}")
        case ir.BooleanType():
            return True
        case ir.AnyType(checks=ir.Checks() as checks):
            written = json.loads(checks.written)
            own = ([written["const"]] if "const" in written else []) + list(written.get("enum", [])) if isinstance(written, dict) else []
            accepted = next((c for c in [*own, *_JSON_VALUES] if _applied(checks)(c) is None), _NONE)
            if accepted is _NONE:
                raise Unbuildable(f"no value of the pool fits the schema applied as written {checks.written}")
            return accepted
        case ir.AnyType():
            return 1
        case ir.ListType():
            items = [valid(fmt, t.item, depth + 1) for _ in range(t.min_items or 0)]
            if t.unique_items and len(items) > 1:
                raise Unbuildable("distinct items")
            return items
        case ir.TupleType():
            return [valid(fmt, i, depth + 1) for i in t.items]
        case ir.MapType():
            return {}
        case ir.UnionType():
            return valid(fmt, t.variants[0], depth + 1)
        case ir.Ref():
            d = fmt.definition(t.name)
            if isinstance(d, ir.Enum):
                return d.values[0]
            if isinstance(d, ir.Alias):
                return valid(fmt, d.type, depth + 1)
            return {f.wire_name: valid(fmt, f.type, depth + 1) for f in d.fields if f.required}
    raise Unbuildable(f"no value of {t}")


def _wrong_type(t: ir.TypeRef) -> Any:
    return "x" if isinstance(_unwrap(t), (ir.NumericType, ir.BooleanType, ir.ListType, ir.TupleType, ir.MapType, ir.UnionType)) else 7


def _outside(t: ir.StringType) -> str:
    for candidate in ["\x00zz", *_TEXTS]:
        if candidate != t.const and candidate not in (t.enum or ()):
            return candidate
    raise Unbuildable(f"every text is in {t.enum}")


def breaking(fmt: ir.Format, t: ir.TypeRef, owner: str, picked: bool = False) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """(whose section lists the check, a value that breaks it, the path below the value where the code reports
    it) for every check of the type: its own, its items', values', positions' and variants', and those of the
    enumerations and named types it refers to (their own sections'); `owner` is the section of the type's own."""
    t = _unwrap(t)
    if isinstance(t, ir.Ref) and t.target != "model":
        d = fmt.definition(t.name)
        if isinstance(d, ir.Alias):
            yield from breaking(fmt, d.type, d.name, picked)
        elif isinstance(d, ir.Enum) and d.open:
            yield d.name, 7, ()  # (an open enum takes any string: only its type breaks it)
        elif not picked:
            yield from ((d.name, v, ()) for v in ("\x00zz", 7))
        else:
            yield d.name, "\x00zz", ()
        return
    if isinstance(t, ir.AnyType) and t.checks is not None:
        # A schema applied as written: a value of the pool for each message it reports first (the page lists every
        # message the schema has; test_every_message_on_the_page... holds the ones a value of the pool breaks).
        seen: set[str] = set()
        for value in _JSON_VALUES:
            first = _applied(t.checks)(value)
            if first is not None and first[1] not in seen:
                seen.add(first[1])
                yield owner, value, tuple(token for token in first[0].split("/")[1:])
        return
    own = {} if isinstance(t, ir.Ref) else t.messages
    for keyword in own:
        value: Any
        match keyword, t:
            case "type", ir.AnyType():
                continue
            case "type", _:
                if picked:
                    continue  # the value's type picked this variant
                value = _wrong_type(t)
            case "int64", _:
                value = 2**63  # (an integer: in a union by JSON type it picks the integer variant)
            case "minLength", ir.StringType():
                if not t.min_length:
                    continue
                value = "a" * (t.min_length - 1)
            case "maxLength", ir.StringType():
                value = "a" * ((t.max_length or 0) + 1)
            case "pattern", ir.StringType():
                value = next((c for c in _TEXTS if not re.search(t.pattern or "", c) and _fits(ir.StringType({}, t.min_length, t.max_length), c)), None)
                if value is None:
                    raise Unbuildable(f"every text matches {t.pattern!r}")
            case "const" | "enum", ir.StringType():
                value = _outside(t)
            case "const" | "enum", ir.BooleanType():
                value = next((v for v in (True, False) if v not in (ir.allowed_values(t) or ())), None)
                if value is None:
                    continue  # an enum of both: nothing breaks it
            case "const" | "enum", ir.NumericType():
                # An integer past every value of both (the bounds may break too; the page lists each message).
                value = int(max(abs(v) for v in (t.const, *(t.enum or ())) if v is not None)) + 1
            case "format", ir.StringType():
                value = next(c for c in ("2024-01-15", " ") if not string_formats.checker().conforms(c, t.checked_format or ""))
            case "format", _:
                value = "2024-01-15"
            case "contentEncoding", _:
                value = "aGk"
            case "minimum", ir.NumericType():
                value = math.floor(t.minimum - 1) if t.integer else t.minimum - 0.5  # type: ignore[operator]
            case "maximum", ir.NumericType():
                value = math.ceil(t.maximum + 1) if t.integer else t.maximum + 0.5  # type: ignore[operator]
            case "exclusiveMinimum", ir.NumericType():
                value = math.floor(t.exclusive_minimum) if t.integer else t.exclusive_minimum  # type: ignore[arg-type]
            case "exclusiveMaximum", ir.NumericType():
                value = math.ceil(t.exclusive_maximum) if t.integer else t.exclusive_maximum  # type: ignore[arg-type]
            case "multipleOf", ir.NumericType():
                if t.multiple_of == 1:
                    continue  # every integer is a multiple of 1
                value = valid(fmt, t) + 1
                if not valid_number(ir.NumericType({}, True, t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum), value):
                    value -= 2
            case "minItems", ir.ListType():
                if not t.min_items:
                    continue
                value = [valid(fmt, t.item)] * (t.min_items - 1)
            case "maxItems", ir.ListType():
                count = (t.max_items or 0) + 1
                value = valid_many(fmt, t.item, count) if t.unique_items else [valid(fmt, t.item)] * count
            case "uniqueItems", ir.ListType():
                value = [valid(fmt, t.item)] * max(2, t.min_items or 0)
            case "prefixItems", ir.TupleType():
                value = []
            case "oneOf", ir.UnionType():
                value = next(v for v in ("x", 1.5, True, [], {}) if _json_kind(v) not in t.json_kinds and not ("number" in t.json_kinds and isinstance(v, float)))
            case "discriminator", ir.UnionType():
                value = {}
            case "discriminatorValue", ir.UnionType():
                value = {t.discriminator: 7 if t.open else "\x00zz"}  # (an open union keeps any other string tag)
            case _:
                raise Unbuildable(f"no value breaks {keyword!r} of {t.kind}")
        yield owner, value, ()
    match t:
        case ir.ListType():
            rest = [valid(fmt, t.item)] * max(0, (t.min_items or 0) - 1)
            yield from ((o, [v, *rest], ("0", *p)) for o, v, p in breaking(fmt, t.item, owner))
        case ir.MapType():
            yield from ((o, {"k": v}, ("k", *p)) for o, v, p in breaking(fmt, t.value, owner))
        case ir.TupleType():
            for i, item in enumerate(t.items):
                others = [valid(fmt, x) for x in t.items]
                for o, v, p in breaking(fmt, item, owner):
                    yield o, [*others[:i], v, *others[i + 1 :]], (str(i), *p)
        case ir.UnionType() if t.json_kinds:
            for variant in t.variants:
                yield from breaking(fmt, variant, owner, picked=True)


def _holders(fmt: ir.Format, name: str, up: int) -> Iterator[tuple[ir.Model, str, Any]]:
    """(model, field, wrap) for each field that holds the model `name` `up` levels below the model
    (a field 1, an item of a list field 2, ...): wrap(document of the model) is the field's value."""
    for m in fmt.models:
        for f in m.fields:
            t, levels, wrap = _unwrap(f.type), 1, (lambda v: v)
            while isinstance(t, (ir.ListType, ir.MapType)) and levels < up:
                inner = t.item if isinstance(t, ir.ListType) else t.value
                wrap = (lambda w, lst: (lambda v: w([v]) if lst else w({"k": v})))(wrap, isinstance(t, ir.ListType))
                t, levels = _unwrap(inner), levels + 1
            if isinstance(t, ir.Ref) and t.name == name and levels == up:
                yield m, f.wire_name, wrap


def _type_at(fmt: ir.Format, t: ir.TypeRef, pointer: tuple[str, ...]) -> ir.TypeRef:
    """The type of the value at pointer inside a value of t."""
    for token in pointer:
        t = _unwrap(t)
        while isinstance(t, ir.Ref) and t.target == "alias":
            t = _unwrap(fmt.definition(t.name).type)  # type: ignore[union-attr]
        match t:
            case ir.Ref():
                model = fmt.definition(t.name)
                assert isinstance(model, ir.Model)
                t = next(f.type for f in model.fields if f.wire_name == token)
            case ir.TupleType():
                t = t.items[int(token)]
            case ir.ListType():
                t = t.item
            case ir.MapType():
                t = t.value
            case _:
                raise Unbuildable(f"no type at {pointer} of {t}")
    return t


def _with(fmt: ir.Format, t: ir.TypeRef, pointer: tuple[str, ...], leaf: Any) -> Any:
    """A valid value of t with leaf at pointer."""
    if not pointer:
        return leaf
    value = valid(fmt, t)
    inner = _type_at(fmt, t, pointer[:1])
    if isinstance(value, list):
        value = list(value) or [valid(fmt, inner)]
        value[int(pointer[0]) if pointer[0].isdigit() else 0] = _with(fmt, inner, pointer[1:], leaf)
    else:
        value = {**value, pointer[0]: _with(fmt, inner, pointer[1:], leaf)}
    return value


def _other(fmt: ir.Format, t: ir.TypeRef, avoid: tuple[str, ...]) -> str:
    """A valid value of t that is none of avoid."""
    found = next((v for v in valid_many(fmt, t, len(avoid) + 1) if v not in avoid), None)
    if found is None:
        raise Unbuildable(f"every value of {t} is one of {avoid}")
    return found


def _field(model: ir.Model, wire: str) -> ir.TypeRef:
    return next(f.type for f in model.fields if f.wire_name == wire)


def _array_item(fmt: ir.Format, t: ir.TypeRef) -> ir.TypeRef | None:
    """The item type of the array a field may hold (a list, nullable, named, or a union's array variant)."""
    t = _unwrap(t)
    if isinstance(t, ir.Ref) and isinstance(d := fmt.definition(t.name), ir.Alias):
        return _array_item(fmt, d.type)
    if isinstance(t, ir.UnionType):
        return next((item for v in t.variants if (item := _array_item(fmt, v)) is not None), None)
    return t.item if isinstance(t, ir.ListType) else None


_ORDER = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">=": operator.ge, ">": operator.gt}


def _compared(fmt: ir.Format, model: ir.Model, rule: ir.Rule) -> dict[str, Any]:
    """Values of a compare rule's two fields that the rule refuses: numbers by value, date-times by instant,
    strings by code point (Python's order of str)."""
    from datetime import datetime

    def key(t: ir.TypeRef, v: Any) -> Any:
        return datetime.fromisoformat(v.replace("Z", "+00:00")) if isinstance(_unwrap(t), ir.DateTimeType) else v

    left, right = _field(model, rule.fields[0]), _field(model, rule.fields[1])
    for a in valid_many(fmt, left, 2):
        for b in valid_many(fmt, right, 2):
            if not _ORDER[rule.op](key(left, a), key(right, b)):  # type: ignore[index]
                return {rule.fields[0]: a, rule.fields[1]: b}
    raise Unbuildable(f"no values of {rule.fields} break {rule.op}")


def rule_breaking(fmt: ir.Format, model: ir.Model, rule: ir.Rule) -> tuple[str, Any]:
    """(the model to parse, a document of it) that breaks the rule and nothing else."""
    base = {f.wire_name: valid(fmt, f.type) for f in model.fields if f.required}

    def when(doc: dict[str, Any]) -> dict[str, Any]:
        assert rule.when is not None
        return doc | {rule.when.field: _with(fmt, _field(model, rule.when.field), rule.when.pointer, rule.when.equals)}

    match rule.kind:
        case "at_least_one_of":
            return model.name, {k: v for k, v in base.items() if k not in rule.fields}
        case "required_when":
            return model.name, when({k: v for k, v in base.items() if k != rule.fields[0]})
        case "compare":
            return model.name, base | _compared(fmt, model, rule)
        case "allowed_when" | "contains":
            item = _array_item(fmt, _field(model, rule.fields[0]))
            if item is None:
                raise Unbuildable(f"{rule.kind} on a field that is not a list")
            avoid = rule.allowed if rule.kind == "allowed_when" else (rule.equals or "",)
            bad = _with(fmt, item, rule.pointer, _other(fmt, _type_at(fmt, item, rule.pointer), avoid))
            doc = base | {rule.fields[0]: [bad]}
            return model.name, when(doc) if rule.kind == "allowed_when" else doc
        case "member_of":
            pool_type = _field(model, rule.pointer[0]) if rule.up == 0 else None
            if rule.up == 0:
                pool = valid(fmt, pool_type)  # type: ignore[arg-type]
                return model.name, base | {rule.pointer[0]: pool, rule.fields[0]: _other(fmt, _field(model, rule.fields[0]), tuple(pool))}
            holder = next(_holders(fmt, model.name, rule.up), None)
            if holder is None:
                raise Unbuildable(f"no model holds {model.name} {rule.up} levels up")
            outer, field, wrap = holder
            outer_doc = {f.wire_name: valid(fmt, f.type) for f in outer.fields if f.required}
            pool = valid(fmt, _field(outer, rule.pointer[0]))
            doc = base | {rule.fields[0]: _other(fmt, _field(model, rule.fields[0]), tuple(pool))}
            return outer.name, outer_doc | {field: wrap(doc), rule.pointer[0]: pool}
    raise Unbuildable(f"no document breaks a {rule.kind} rule: add it to rule_breaking")


# --- the test --------------------------------------------------------------------------------


def _cases(fmt: ir.Format) -> Iterator[tuple[str, str, Any, str]]:
    """(whose rows the errors are, the model to parse, a document that breaks one check, the path of the broken value)."""
    for model in fmt.models:
        base = {f.wire_name: valid(fmt, f.type) for f in model.fields if f.required}
        for f in model.fields:
            if f.required:
                yield model.name, model.name, {k: v for k, v in base.items() if k != f.wire_name}, f"/{f.wire_name}"
            for owner, value, below in breaking(fmt, f.type, model.name):
                yield owner, model.name, base | {f.wire_name: value}, "/" + "/".join((f.wire_name, *below))
        if model.closed:
            yield model.name, model.name, base | {"zz_unknown": 1}, "/zz_unknown"
        if model.type_message:
            yield model.name, model.name, "x", ""
        for rule in model.rules:
            parsed, doc = rule_breaking(fmt, model, rule)
            yield model.name, parsed, doc, ""
    root = fmt.definition(fmt.root)
    if isinstance(root, ir.Alias):  # a root that is no model: its own checks, broken in a document ("" parses the root)
        for owner, value, below in breaking(fmt, root.type, root.name):
            yield owner, "", value, "/" + "/".join(below) if below else ""


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_every_message_on_the_page_is_what_the_generated_python_reports(spec: LoadedSpec, checked: tuple[dict[str, str], Built]) -> None:
    pages, built = checked
    fmt = lower(spec)
    page = Page(fmt, pages[fmt.id])
    cases = list(_cases(fmt))
    verdicts = built.python([(fmt.id, json.dumps(doc), parsed) for _, parsed, doc, _ in cases])
    used: set[int] = set()
    problems = []
    for (owner, parsed, doc, path), verdict in zip(cases, verdicts):
        assert "crash" not in verdict, verdict
        assert not verdict["ok"], f"{parsed} {json.dumps(doc)} broke no check"
        for at, reported in verdict["errors"]:
            # A missing field beside the one broken is the model's own "required" row. A document that is not an
            # object at all gets the format's table of wrong types only where the model keeps the default message:
            # a model's own message is its own "the object | type" row.
            own_type = not isinstance(doc, dict) and getattr(fmt.definition(owner), "type_message", None) not in (None, messages.TYPE_MESSAGES["object"])
            rows = [*page.rows[owner], *page.rows.get(parsed, ()), *(() if own_type else page.type_rows)]
            # Where two rows give one message, the broken field's own row first.
            rows.sort(key=lambda row: row.field != md_name(path.split("/")[1]) if path else True)
            matching = [row for row in rows if row.matches(at, reported)]
            found = next((row for row in matching if id(row) not in used), matching[0] if matching else None)
            if found is None:
                problems.append(f"{parsed} at {at or '/'}: the code reports {reported!r}, which the page does not list for {owner}"
                                f" (document {json.dumps(doc)[:200]})")
            else:
                used.add(id(found))
    listed = [row for rows in page.rows.values() for row in rows] + page.type_rows
    # (The rows of a schema applied as written list every message it has; the values of the pool break some of them.)
    problems += [f"{row.where}: the page lists {row.cell}, which no broken check gave" for row in listed
                 if id(row) not in used and not any(text in row.where for text in APPLIED_ROWS)]
    assert not problems, f"{fmt.id}:\n" + "\n".join(problems)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_each_required_cell_says_what_the_spec_requires(spec: LoadedSpec, checked: tuple[dict[str, str], Built]) -> None:
    pages, _ = checked
    sections = _sections(pages[spec.format_id])
    defs = spec.document["$defs"]
    models = {name: written_fields(schema, defs) for name, schema in defs.items() if "properties" in schema}
    assert models
    for name, (properties, needed) in models.items():
        rows = {row[0]: row[2] for row in _table(sections[name], "Field")}
        required = set(needed)
        assert len(rows) == len(properties), name
        for wire in properties:
            cell = next(cell for key, cell in rows.items() if html.unescape(re.sub(r"<[^>]+>|`", "", key)) == wire)
            assert cell == ("yes" if wire in required else "no"), f"{spec.format_id}: {name}.{wire}: Required is {cell!r}"


def test_a_message_the_page_gets_wrong_is_caught(checked: tuple[dict[str, str], Built]) -> None:
    # The reading above must be able to fail: a placeholder left raw, or a check the page leaves out.
    fmt = lower(next(s for s in SPECS if s.format_id == "chat_event"))
    pages, built = checked
    raw = pages["chat_event"].replace("`missing required field 'session_id'`", "`missing required field '{field}'`")
    page = Page(fmt, raw)
    row = next(r for r in page.rows["ChatEvent"] if "field" in r.cell)
    assert not row.matches("/session_id", "missing required field 'session_id'")
    assert Message("x", "<code>missing required field '<var>field</var>'</code>").matches("/session_id", "missing required field 'session_id'")
    assert not Message("x", "<code>block <var>index</var></code>").matches("/a/3/b", "block 2")
    assert not any(r.matches("/completed", messages.TYPE_MESSAGES["string"]) for r in Page(fmt, pages["chat_event"]).rows["ChatEvent"])


def test_an_integer_is_an_integer_in_the_diagram(checked: tuple[dict[str, str], Built]) -> None:
    pages, _ = checked
    diagram = pages["chat_modality"].split("```mermaid", 1)[1].split("```", 1)[0]
    assert "+integer message_count" in diagram and "+number" not in diagram
    assert "+number ratio" in pages["constraints"] and "+integer count" in pages["constraints"]


def test_the_decisions_section_is_there_only_for_a_format_with_decisions(checked: tuple[dict[str, str], Built]) -> None:
    pages, _ = checked
    for spec in SPECS:
        page = pages[spec.format_id]
        assert ("\n## Decisions\n" in page) == bool(spec.document.get("x-decisions")), spec.format_id
        assert "source document is followed as written" not in page


def test_no_page_shows_a_raw_placeholder(checked: tuple[dict[str, str], Built]) -> None:
    pages, _ = checked
    for name, page in pages.items():
        if name == "spec-language":
            continue
        found = re.findall(r"\{(?:field|index|value|limit|allowed)\}", page.split("\n## Examples\n")[0])
        assert not found, f"{name}: {found}"


def test_a_page_explains_each_placeholder_it_shows_once_in_one_sentence(checked: tuple[dict[str, str], Built]) -> None:
    from generator.targets.markdown import _PLACEHOLDERS

    pages, _ = checked
    explained_somewhere = False
    for name, page in pages.items():
        if name == "spec-language":
            continue
        lines = page.splitlines()
        start = next((i for i, line in enumerate(lines) if line.startswith("A message shows what only the checked value can tell")), None)
        if start is None:
            assert "<var>" not in page, f"{name}: a placeholder shown and not explained"
            continue
        explained_somewhere = True
        said = lines[start + 1 : lines.index("", start)]
        rest = "\n".join(lines[:start] + lines[start + 1 + len(said) :])
        shown = [p for p in _PLACEHOLDERS if f"<var>{p}</var>" in rest]
        want = [f"<var>{p}</var> is {meaning}" for p, meaning in _PLACEHOLDERS.items() if p in shown]
        assert said == [w + (";" if i < len(want) - 1 else ".") for i, w in enumerate(want)], (name, said)
    assert explained_somewhere

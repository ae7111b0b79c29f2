"""The generated fast path (issue 16) never decides alone: on every document it either
builds exactly what the exact walk builds, or says it is not sure (_rt.Unsure) and the
exact walk runs. It never accepts what the exact walk rejects."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fuzz
import mutations
from conftest import ROOT, format_folders

GOLDEN = ROOT / "tests" / "golden"

# Run in a fresh interpreter per package root: fast-vs-exact over documents given as JSON.
_COMPARE = r"""
import copy, dataclasses, importlib, json, sys
from datetime import datetime, timedelta, timezone
from chatformats import _runtime as rt

ODD = [None, "", "x", 0, -1, 1.5, 2**63, True, [], [None], ["x"], ("a", "b"), {}, {"k": 1}, b"ab", float("nan"),
       datetime(2024, 1, 1), datetime(2024, 1, 1, tzinfo=timezone(timedelta(seconds=30))),
       datetime(2024, 1, 1, tzinfo=timezone.utc), object()]


def objects(root):
    # (model object, attribute) for every attribute of every model object reachable from root, in order
    found, todo = [], [root]
    while todo:
        value = todo.pop(0)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                found.append((value, f.name))
                todo.append(getattr(value, f.name))
        elif isinstance(value, (list, tuple)):
            todo.extend(value)
        elif isinstance(value, dict):
            todo.extend(value.values())
    return found


def find(copied, original, holder):
    # the object in copied at holder's place in original
    pairs = [(copied, original)]
    while pairs:
        c, o = pairs.pop(0)
        if o is holder:
            return c
        if dataclasses.is_dataclass(o):
            pairs.extend((getattr(c, f.name), getattr(o, f.name)) for f in dataclasses.fields(o))
        elif isinstance(o, (list, tuple)):
            pairs.extend(zip(c, o))
        elif isinstance(o, dict):
            pairs.extend((c[k], o[k]) for k in o)
    raise AssertionError("not found")

cases = json.loads(sys.stdin.read())
out = []
ids = [0]
def fixed_uuid4():  # both paths draw their uuid4 defaults from the same sequence
    ids[0] += 1
    return "00000000-0000-4000-8000-%012d" % ids[0]
rt.new_uuid4 = fixed_uuid4
attr_out = []
for module, model, doc, mutate in cases:
    mod = importlib.import_module("chatformats." + module)
    words = "".join("_" + c.lower() if c.isupper() else c for c in model).lstrip("_")
    fast, exact = getattr(mod, "_fast_" + words), getattr(mod, "_parse_" + words)
    ids[0] = 0
    try:
        built = fast(doc, 0, ()) if fast.__code__.co_argcount == 3 else fast(doc, 0)
    except rt.Unsure:
        built = rt.Unsure
    ids[0] = 0
    try:
        expected = rt.parse(exact, doc)
    except rt.ValidationError:
        expected = rt.ValidationError
    if built is rt.Unsure:
        out.append("unsure-ok" if expected is rt.ValidationError else "unsure-valid")
    elif expected is rt.ValidationError:
        out.append("WRONG: the fast path accepts what the exact walk rejects: " + json.dumps(doc)[:300])
    elif built != expected or built.to_json() != expected.to_json() or type(built) is not type(expected):
        out.append("WRONG: the fast path builds something else: " + json.dumps(doc)[:300])
    else:
        out.append("same")
    if expected is rt.ValidationError or not mutate:
        continue
    # validate() on the built object and on copies with one attribute (at any depth) changed:
    # the attribute check may only pass where the exact walk of to_dict() passes.
    check = getattr(mod, "_check_" + words)
    def verdicts(value):
        try:
            check(value, 0, ()) if check.__code__.co_argcount == 3 else check(value, 0)
            quick = True
        except rt.Unsure:
            quick = False
        try:
            rt.parse(exact, value.to_dict())
            slow = True
        except (rt.ValidationError, TypeError, ValueError, AttributeError):
            slow = False
        return quick, slow
    quick, slow = verdicts(expected)
    if not (quick and slow):
        attr_out.append("WRONG: validate() steps aside on a valid object: %s %s %s" % (quick, slow, json.dumps(doc)[:300]))
    for holder, attr in objects(expected):
        for odd in ODD:
            copy_ = copy.deepcopy(expected)
            target = find(copy_, expected, holder)
            setattr(target, attr, odd)
            quick, slow = verdicts(copy_)
            if quick and not slow:
                attr_out.append("WRONG: validate() passes an object the exact walk rejects: %s.%s = %r" % (type(holder).__name__, attr, odd))
            attr_out.append("same" if quick == slow else "unsure")
print(json.dumps([out, attr_out]))
"""


def compare(package_root: Path, cases: list[tuple[str, str, Any, bool]]) -> tuple[list[str], list[str]]:
    """Per case (module, model, document, whether to change the built object's attributes too):
    the fast path's verdict against the exact walk's, and those of validate() on changed objects."""
    done = subprocess.run([sys.executable, "-S", "-c", _COMPARE], input=json.dumps(cases), capture_output=True, text=True,
                          cwd=package_root, env={**os.environ, "PYTHONPATH": str(package_root)})
    assert done.returncode == 0, done.stderr[-3000:]
    verdicts, attrs = json.loads(done.stdout)
    return verdicts, attrs


def golden_cases() -> list[str]:
    return sorted(p.name for p in GOLDEN.iterdir() if (p / "expected" / "python").is_dir())


@pytest.mark.parametrize("fmt", list(format_folders()))
@pytest.mark.slow
def test_the_fast_path_builds_what_the_exact_walk_builds_or_steps_aside_on_fuzz_cases(fmt: str) -> None:
    folder = format_folders()[fmt]
    cases: list[tuple[str, str, Any, bool]] = []
    for target in fuzz.targets(fmt):
        seeds = fuzz.model_seeds(target, folder, 1)
        cases += [(fmt, target.model, doc, True) for doc in seeds]
        cases += [(fmt, target.model, doc, False) for doc in fuzz.cases_for(target, folder, 150, 1)]
        cases += [(fmt, target.model, doc, False) for seed in seeds for doc in mutations.mutations(seed)]
    verdicts, attrs = compare(ROOT / "generated" / "python", cases)
    wrong = [v for v in verdicts + attrs if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong[:10])
    # Both outcomes occur, and the fast path vouches for nearly every valid case (the seeds).
    assert verdicts.count("same") and verdicts.count("unsure-ok"), set(verdicts)
    assert verdicts.count("unsure-valid") <= verdicts.count("same") // 10, (verdicts.count("unsure-valid"), verdicts.count("same"))
    # validate() vouches for most changed objects the exact walk accepts too, and steps aside on the rest.
    assert attrs.count("same") > attrs.count("unsure"), (attrs.count("same"), attrs.count("unsure"))


@pytest.mark.parametrize("case", golden_cases())
def test_the_fast_path_of_each_golden_case_agrees_with_its_exact_walk(case: str, tmp_path: Path) -> None:
    # The golden case's module beside the runtime of this checkout, as generate writes them together.
    package = tmp_path / "chatformats"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_runtime.py").write_text((ROOT / "generated" / "python" / "chatformats" / "_runtime.py").read_text(encoding="utf-8"))
    (package / f"{case}.py").write_text((GOLDEN / case / "expected" / "python" / "chatformats" / f"{case}.py").read_text(encoding="utf-8"))
    valid = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((GOLDEN / case / "examples" / "valid").glob("*.json"))]
    invalid = [json.loads(p.read_text(encoding="utf-8"))["data"] for p in sorted((GOLDEN / case / "examples" / "invalid").glob("*.json"))]
    root = json.loads((GOLDEN / case / "spec.json").read_text(encoding="utf-8"))["$ref"].rsplit("/", 1)[-1]
    docs = [*valid, *invalid, *(m for doc in valid for m in mutations.mutations(doc))]
    verdicts, attrs = compare(tmp_path, [(case, root, doc, i < len(valid)) for i, doc in enumerate(docs)])
    wrong = [v for v in verdicts + attrs if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong[:10])
    # It vouches for the valid examples; integral floats in integer fields (10.0) are left to the exact walk.
    stepped_aside = [doc for doc, v in zip(valid, verdicts) if v != "same"]
    assert all("10.0" in json.dumps(doc) for doc in stepped_aside), stepped_aside
    assert all(v == "unsure-ok" for v in verdicts[len(valid): len(valid) + len(invalid)])


def _runtime() -> Any:
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    try:
        return importlib.import_module("chatformats._runtime")
    finally:
        sys.path.pop(0)


@pytest.mark.parametrize("text", [
    "2024-01-15T10:30:00Z", "2024-01-15t10:30:00z", "2024-01-15T10:30:00.1Z", "2024-01-15T10:30:00.123456789Z",
    "2024-01-15T10:30:00.000000+00:00", "2024-01-15T10:30:00-00:00", "2024-01-15T10:30:00+23:59", "2024-01-15T10:30:00+24:00",
    "2024-01-15T10:30:00+05:60", "2024-01-15T24:00:00Z", "2024-01-15T23:59:60Z", "2023-02-29T00:00:00Z", "2024-02-29T00:00:00Z",
    "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-23:59", "2024-01-15 10:30:00Z",
    "2024-01-15T10:30:00", "2024-01-15T10:30Z", "2024-W03-1T10:30:00Z", "2024-01-15T10:30:00+0530", "２０２４-01-15T10:30:00Z",
    "2024-01-15T10:30:00.Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2024-04-31T00:00:00Z",
])
def test_the_fast_date_time_parser_builds_what_the_exact_one_builds_or_nothing(text: str) -> None:
    rt = _runtime()
    exact, fast = rt.parse_datetime_text(text), rt.datetime_or_none(text)
    if exact is None:
        assert fast is None
    elif fast is not None:  # None only sends the value to the exact walk
        assert (fast, fast.utcoffset(), fast.wire, type(fast)) == (exact, exact.utcoffset(), exact.wire, type(exact))


def test_json_fits_is_unsure_of_cycles_shared_containers_deep_values_and_huge_numbers() -> None:
    rt = _runtime()
    cycle: list[Any] = []
    cycle.append(cycle)
    cycle.append(cycle)  # walked naively, 2**128 paths
    shared = [1]
    assert not rt.json_fits(cycle, 128)
    assert not rt.json_fits([shared, shared], 128)
    assert rt.json_fits([[1], [1]], 128)
    deep: Any = "x"
    for _ in range(10):
        deep = [deep]
    assert rt.json_fits(deep, 10) and not rt.json_fits(deep, 9)
    assert not rt.json_fits({"n": 10**5000}, 128) and not rt.json_fits(float("inf"), 128) and not rt.json_fits({1: "x"}, 128)
    assert rt.json_fits({"n": 10**300, "f": 1.5, "b": True, "z": None}, 128)


_QUICK_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 7, 1.0, 1.5, -0.0, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 10**400, float("nan"),
    float("inf"), "", "a", "abc", "abcdef", "zz", [], ["a"], ["a", "b"], ["a", 1], [1, "a"], ["a", "b", "c"], ("a", "b"),
    {}, {"k": "v"}, {1: "v"}, b"ab",
]


def _quick_parsers(rt: Any) -> dict[str, Any]:
    """The combinators that get a quick check, with every option their quick check reads."""
    text = rt.string({"type": "t", "minLength": "l", "maxLength": "m", "pattern": "p", "enum": "e", "const": "c"},
                     min_length=1, max_length=3, pattern="^[a-c]+$")
    kinds = rt.string({"type": "t", "enum": "e"}, enum=frozenset({"a", "b"}))
    fixed = rt.string({"type": "t", "const": "c"}, const="a")
    whole = rt.integer({"type": "t", "int64": "i", "minimum": "lo", "exclusiveMaximum": "hi"}, minimum=-1, exclusive_maximum=7)
    real = rt.number({"type": "t", "maximum": "hi", "exclusiveMinimum": "lo"}, maximum=7, exclusive_minimum=-1)
    flag = rt.boolean({"type": "t"})
    pair = rt.tuple_of((kinds, text), {"type": "t", "prefixItems": "p"})
    return {"string": text, "enum": kinds, "const": fixed, "integer": whole, "number": real, "boolean": flag,
            "nullable": rt.nullable(whole), "tuple": pair, "nested tuple": rt.tuple_of((pair, rt.nullable(fixed)), {"type": "t", "prefixItems": "p"})}


@pytest.mark.parametrize("name", ["string", "enum", "const", "integer", "number", "boolean", "nullable", "tuple", "nested tuple"])
def test_a_quick_check_builds_what_its_exact_parser_builds_or_is_not_sure(name: str) -> None:
    rt = _runtime()
    parser = _quick_parsers(rt)[name]
    quick, _ = rt._QUICK[parser]
    values = [*_QUICK_VALUES, *([[a, b] for a in _QUICK_VALUES[:20] for b in _QUICK_VALUES[:20]] if "tuple" in name else [])]
    for value in values:
        ctx = rt.Context(value)
        exact = parser(value, ctx)
        fast = quick(value)
        if fast is not rt.INVALID:
            assert ctx.count == 0 and exact is not rt.INVALID, (name, value)
            assert (type(fast), fast) == (type(exact), exact), (name, value)


def test_a_list_of_quick_items_still_reports_the_depth_limit_and_every_bad_item_at_its_pointer() -> None:
    rt = _runtime()
    pair = rt.tuple_of((rt.string({"type": "must be a string"}), rt.string({"type": "must be a string"})), {"type": "t", "prefixItems": "p"})
    items = rt.list_of(pair, {"type": "must be an array"})
    doc = [["a", "b"], ["c", 1], ["d", "e"], [2, "f"]]
    ctx = rt.Context(doc)
    assert items(doc, ctx) is rt.INVALID
    assert [(e.path, e.message) for e in ctx.reported()] == [("/1/1", "must be a string"), ("/3/0", "must be a string")]
    ctx = rt.Context(doc)
    assert items([["a", "b"]], ctx) == [("a", "b")]
    # Two levels below a list at depth MAX_DEPTH - 1 the exact walk stops: the quick check must not step over it.
    ctx = rt.Context(doc)
    ctx._path.extend(["x"] * (rt.MAX_DEPTH - 1))
    assert items([["a", "b"]], ctx) is rt.INVALID
    assert [(e.path, e.keyword) for e in ctx.reported()] == [("/x" * (rt.MAX_DEPTH - 1) + f"/0/{i}", "depth") for i in (0, 1)]
    assert rt._QUICK.get(items) is None  # no whole-list attempt: a failure would be repeated item by item


def test_items_a_failed_fast_attempt_built_are_kept_by_the_exact_walk_which_still_reports_every_problem() -> None:
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    try:
        mod = importlib.import_module("chatformats.droidlet_chat_v1")
    finally:
        sys.path.pop(0)
    rt = mod._rt
    doc = {"speaker_id": "a", "timestamp": 1, "content_type": ["chat_and_media"],
           "content": [["text", "hi"], ["image_link", "u"], ["text", 5], ["image_link", "v"], [3, "w"]]}
    with pytest.raises(rt.Unsure) as caught:
        mod._fast_droidlet_chat(doc, 0)
    done = caught.value.done
    assert done == {(id(doc["content"]), 2): (doc["content"], [("text", "hi"), ("image_link", "u")], ())}
    with pytest.raises(mod.ValidationError) as kept:
        rt.parse(mod._parse_droidlet_chat, doc, done)
    with pytest.raises(mod.ValidationError) as walked:
        rt.parse(mod._parse_droidlet_chat, doc)
    assert [(e.path, e.message) for e in kept.value.errors] == [(e.path, e.message) for e in walked.value.errors]
    assert [e.path for e in walked.value.errors] == ["/content/2/1", "/content/4/0"]
    # Kept items are used only for the same list object at the same depth.
    other = {**doc, "content": [list(item) for item in doc["content"]]}
    with pytest.raises(mod.ValidationError) as elsewhere:
        rt.parse(mod._parse_droidlet_chat, other, {(id(doc["content"]), 2): (doc["content"], [("text", "hi")] * 5, ())})
    assert [e.path for e in elsewhere.value.errors] == ["/content/2/1", "/content/4/0"]
    good = {**doc, "content": [["text", "hi"], ["image_link", "u"]]}
    fake = {(id(good["content"]), 3): (good["content"], [("text", "WRONG")], ())}
    assert rt.parse(mod._parse_droidlet_chat, good, fake).content == [("text", "hi"), ("image_link", "u")]


def test_kept_items_of_models_that_read_ancestors_are_used_only_below_the_same_ancestors() -> None:
    rt = _runtime()
    parser = rt.list_of(rt.any_json({"type": "must be JSON"}), {"type": "must be an array"})  # no quick check
    items, holder, other = [[1], float("nan")], {"k": 1}, {"k": 1}
    kept = {(id(items), 2): (items, ["KEPT"], (holder, items))}
    original = rt.Context.child
    for root, walked in ((holder, [1]), (other, [0, 1])):
        ctx = rt.Context(root)
        ctx._done = kept
        ctx._path.append("k")
        ctx._values.append(items)
        keys: list[Any] = []

        def spy(self: Any, key: Any, value: Any, parser: Any) -> Any:
            keys.append(key)
            return original(self, key, value, parser)

        rt.Context.child = spy
        try:
            assert parser(items, ctx) is rt.INVALID
        finally:
            rt.Context.child = original
        assert keys == walked and [e.path for e in ctx.reported()] == ["/k/1"]

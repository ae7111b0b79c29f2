"""The generated fast path (issue 16) never decides alone: on every document it either
builds exactly what the exact walk builds, or says it is not sure (_rt.Unsure) and the
exact walk runs. It never accepts what the exact walk rejects."""

from __future__ import annotations

import copy
import importlib
import json
import re
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fuzz
import mutations
import rule_paths
from conftest import ROOT, format_folders, golden_generated, golden_model_documents

GOLDEN = ROOT / "tests" / "golden"

# Run in a fresh interpreter per package root: fast-vs-exact over documents given as JSON.
_COMPARE = r"""
import copy, dataclasses, importlib, json, sys
from datetime import datetime, timedelta, timezone
from chatformats import _runtime as rt

ODD = [None, "", "x", 0, -1, 1.5, 2**63, True, [], [None], ["x"], ("a", "b"), {}, {"k": 1}, b"ab", float("nan"), float("inf"), float("-inf"),
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
    elif any(list(vars(a)) != list(vars(b)) for (a, _), (b, _) in zip(objects(built), objects(expected))):
        # The fast path sets each object's __dict__ itself: what vars() and pickling see is __init__'s.
        out.append("WRONG: the fast path builds attributes out of their fields' order: " + json.dumps(doc)[:300])
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
            object.__setattr__(target, attr, odd)  # (an Unknown is frozen: its value changed all the same)
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
    return sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())


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
    root = json.loads((folder / "spec.json").read_text(encoding="utf-8"))["$ref"].rsplit("/", 1)[-1]
    examples = sorted((folder / "examples" / "valid").glob("*.json"))
    cases += [(fmt, root, json.loads(p.read_text(encoding="utf-8")), False) for p in examples]
    verdicts, attrs = compare(ROOT / "generated" / "python", cases)
    wrong = [v for v in verdicts + attrs if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong[:10])
    # It vouches for every valid example of the format: one it stepped aside for would still get the exact walk's
    # verdict, only slower, so no verdict test would see a fast path that gives up on a valid document.
    assert verdicts[-len(examples):] == ["same"] * len(examples), verdicts[-len(examples):]
    # Both outcomes occur, and the fast path vouches for nearly every valid case (the seeds).
    assert verdicts.count("same") and verdicts.count("unsure-ok"), set(verdicts)
    assert verdicts.count("unsure-valid") <= verdicts.count("same") // 10, (verdicts.count("unsure-valid"), verdicts.count("same"))
    # validate() vouches for most changed objects the exact walk accepts too, and steps aside on the rest.
    assert attrs.count("same") > attrs.count("unsure"), (attrs.count("same"), attrs.count("unsure"))


@pytest.fixture(scope="module")
def golden_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every golden case's module and the runtime, generated by this checkout's generator (not read from
    the committed expected/ files, which change only with `make golden`), as one package."""
    folder = tmp_path_factory.mktemp("golden_fast")
    for path, text in golden_generated(("python",)).items():
        target = folder / path.removeprefix("python/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder


def _holed(docs: list[Any]) -> list[Any]:
    """The documents with a property no field names, holding a value nested past the depth limit (a list, an
    object), put into each of their first objects: an open model keeps it only while the exact walk would
    (rt.fast_unknown's check), a closed one refuses it."""
    out = []
    for doc in docs:
        for path in _object_paths(doc)[:8]:
            for deep in ([], {}):
                value: Any = deep
                for _ in range(_runtime().MAX_DEPTH + 2):
                    value = [value] if isinstance(deep, list) else {"k": value}
                changed = copy.deepcopy(doc)
                at = changed
                for step in path:
                    at = at[step]
                at["zz_not_a_field"] = value
                out.append(changed)
    return out


def _object_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to every object in a document, outermost first."""
    if isinstance(value, dict):
        return [path, *(p for k, v in value.items() for p in _object_paths(v, (*path, k)))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _object_paths(v, (*path, i))]
    return []


@pytest.mark.parametrize("case", golden_cases())
def test_the_fast_path_of_each_golden_case_agrees_with_its_exact_walk(case: str, golden_python: Path) -> None:
    root, valid, invalid, changed = golden_model_documents(case)
    docs = [*valid, *invalid, *changed, *_holed(valid)]
    verdicts, attrs = compare(golden_python, [(case, root, doc, i < len(valid)) for i, doc in enumerate(docs)])
    wrong = [v for v in verdicts + attrs if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong[:10])
    # It vouches for the valid examples; integral floats in integer fields (10.0, -32700.0) are left to the exact walk.
    stepped_aside = [doc for doc, v in zip(valid, verdicts) if v != "same"]
    assert all(re.search(r"\d\.0\b", json.dumps(doc)) for doc in stepped_aside), stepped_aside
    assert all(v == "unsure-ok" for v in verdicts[len(valid): len(valid) + len(invalid)])


def test_rules_whose_pointers_go_anywhere_get_the_exact_walks_verdict_on_the_python_fast_path(tmp_path: Path) -> None:
    # tests/rule_paths.py: pointers through required and optional members, tuples, nulls and indexes past minItems.
    from generator.core import generate
    from generator.load import load_spec

    folder = tmp_path / "specs" / "rule_paths"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(rule_paths.SPEC), encoding="utf-8")
    for path, text in generate([load_spec(folder, tmp_path)], targets=["python"]).items():
        (tmp_path / "pkg" / path.removeprefix("python/")).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / path.removeprefix("python/")).write_text(text, encoding="utf-8")
    docs = rule_paths.documents()
    verdicts, attrs = compare(tmp_path / "pkg", [("rule_paths", "Doc", doc, i < len(rule_paths.VALID)) for i, doc in enumerate(docs)])
    # validate() may step aside on a valid object here: a pointer through an optional member that is None
    # (left out of to_dict, or written as null) is not sure on built objects (_rt.resolve_value).
    wrong = [v for v in verdicts + attrs if v.startswith("WRONG") and "steps aside on a valid object" not in v]
    assert not wrong, "\n".join(wrong[:10])
    assert verdicts[: len(rule_paths.VALID)] == ["same"] * len(rule_paths.VALID), verdicts[: len(rule_paths.VALID)]
    assert verdicts.count("unsure-ok") > 50 and attrs.count("same") > attrs.count("unsure"), (set(verdicts), attrs.count("same"))


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
                     min_length=1, max_length=3, pattern=rt.regex("^[a-c]+$"))
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


@pytest.mark.parametrize(("name", "values"), [("string", ["a", "abc", "cab"]), ("integer", [-1, 6]),
                                            ("number", [7, 7.0, -0.5, -0.999])])
def test_a_quick_check_vouches_for_a_value_exactly_at_a_bound(name: str, values: list[Any]) -> None:
    # Not sure is always correct, but a quick check that steps aside at its bounds leaves them to the slow walk.
    rt = _runtime()
    quick, _ = rt._QUICK[_quick_parsers(rt)[name]]
    assert [v for v in values if quick(v) is rt.INVALID] == []


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


def test_a_model_a_failed_fast_attempt_built_before_a_later_field_failed_is_kept_once_by_the_exact_walk() -> None:
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    try:
        mod = importlib.import_module("chatformats.structured_conversation")
    finally:
        sys.path.pop(0)
    rt = mod._rt
    people = ["ann", "bob"]
    conversation = {"source": "s", "people": people, "user": "ann",
                    "conversation": [{"speaker": "bob", "content": "hi", "time": "2024-01-01T00:00:00Z"}]}
    doc = {"id": "d", "conversation": conversation, "tags": ["t", 7], "metadata": {"k": 1}}
    with pytest.raises(rt.Unsure) as caught:
        mod._fast_conversation_document(doc, 0)
    done = caught.value.done
    assert list(done) == [(id(conversation), 1)]
    value, built, above = done[(id(conversation), 1)]
    assert value is conversation and type(built) is mod.StructuredConversation and above == ()
    # The exact walk takes the kept model instead of trying the conversation again, and reports the same problems.
    tried = []
    fast = mod._fast_structured_conversation
    mod._fast_structured_conversation = lambda *args: tried.append(args) or fast(*args)
    try:
        with pytest.raises(mod.ValidationError) as kept:
            rt.parse(mod._parse_conversation_document, doc, dict(done))
        assert tried == []
        with pytest.raises(mod.ValidationError) as walked:
            rt.parse(mod._parse_conversation_document, doc)
        assert len(tried) == 1
    finally:
        mod._fast_structured_conversation = fast
    assert [(e.path, e.message) for e in kept.value.errors] == [(e.path, e.message) for e in walked.value.errors]
    assert [e.path for e in walked.value.errors] == ["/tags/1", "/metadata/k"]
    # from_dict hands the kept model over by itself.
    with pytest.raises(mod.ValidationError) as public:
        mod.ConversationDocument.from_dict(doc)
    assert [(e.path, e.message) for e in public.value.errors] == [(e.path, e.message) for e in walked.value.errors]
    # A kept model is used once, for the same object at the same depth below the same values.
    ctx = rt.Context(doc)
    ctx._done = {(id(conversation), 1): (conversation, "KEPT", ())}
    assert ctx.kept(conversation) is None  # at depth 0
    ctx._path.append("conversation")
    ctx._values.append(conversation)
    assert ctx.kept(dict(conversation)) is None  # an equal object, not the same one
    assert ctx.kept(conversation) == "KEPT"
    assert ctx.kept(conversation) is None  # a shared object met again is walked again
    ctx._done = {(id(conversation), 1): (conversation, "KEPT", ({"other": 1},))}
    assert ctx.kept(conversation) is None  # built below other values than these
    ctx._done = {(id(conversation), 1): (conversation, "KEPT", (doc,))}
    assert ctx.kept(conversation) == "KEPT"
    # Nothing is kept when the attempt stopped before the model was built, or the key holds no object.
    for stopped in ({**doc, "id": ""}, {**doc, "conversation": {**conversation, "user": ""}}):
        with pytest.raises(rt.Unsure) as caught:
            mod._fast_conversation_document(stopped, 0)
        assert not caught.value.done or (id(stopped["conversation"]), 1) not in caught.value.done


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


def _format_module(name: str) -> Any:
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    try:
        return importlib.import_module(f"chatformats.{name}")
    finally:
        sys.path.pop(0)


@pytest.mark.parametrize("fmt", ["droidlet_chat", "droidlet_chat_v1"])
def test_straight_line_rule_checks_agree_with_the_exact_rules_on_every_content_type_and_item_kind(fmt: str) -> None:
    # allowed_when and contains run as loops over the built items (no _rt.rule_* call, no PROBE) in
    # from_dict's fast path and in validate(): every combination gets the exact walk's verdict.
    import inspect
    import itertools

    mod = _format_module(fmt)
    rt = mod._rt
    fast = inspect.getsource(mod._fast_droidlet_chat) + inspect.getsource(mod._check_droidlet_chat)
    assert "_rt.rule_" not in fast and "PROBE" not in fast and "attr_all_allowed" not in fast
    kinds = ["text", "image_link", "response_option", "response_image_link"]
    seen = set()
    for content_type in [*mod.CONTENT_TYPE_VALUES, "not_a_type"]:
        for items in itertools.chain.from_iterable(itertools.combinations(kinds, n) for n in (1, 2)):
            if fmt == "droidlet_chat":
                doc = {"chat_memid": "a", "timestamp": 1, "content_type": content_type,
                       "content": [{"id": kind, "content": "x"} for kind in items]}
                exact_fn = mod._parse_droidlet_chat
            else:
                doc = {"speaker_id": "a", "timestamp": 1, "content_type": [content_type],
                       "content": [[kind, "x"] for kind in items]}
                exact_fn = mod._parse_droidlet_chat
            try:
                expected = rt.parse(exact_fn, doc)
            except mod.ValidationError as e:
                expected = [(d.path, d.message) for d in e.errors]
            try:
                built = mod._fast_droidlet_chat(doc, 0)
            except rt.Unsure:
                built = None
            if isinstance(expected, list):
                assert built is None, (content_type, items)
                with pytest.raises(mod.ValidationError) as caught:
                    mod.DroidletChat.from_dict(doc)
                assert [(d.path, d.message) for d in caught.value.errors] == expected
                seen.add("invalid")
                continue
            assert built == expected, (content_type, items)
            seen.add("valid")
            # validate() on the built object with its content type changed: the exact walk of to_dict() agrees.
            for other in mod.CONTENT_TYPE_VALUES:
                changed = mod.DroidletChat.from_dict(doc)
                changed.content_type = other if fmt == "droidlet_chat" else [other]
                try:
                    rt.parse(exact_fn, changed.to_dict())
                    walked = True
                except mod.ValidationError:
                    walked = False
                try:
                    mod._check_droidlet_chat(changed, 0)
                    checked = True
                except rt.Unsure:
                    checked = False
                assert checked == walked, (content_type, items, other)
                seen.add(f"validate {walked}")
    assert seen == {"valid", "invalid", "validate True", "validate False"}


def test_a_fresh_uuid4_default_is_a_version_4_rfc_4122_uuid_in_its_canonical_spelling_and_new_each_time() -> None:
    import uuid

    rt = _runtime()
    made = [rt.new_uuid4() for _ in range(2000)]
    assert len(set(made)) == len(made)
    for text in made:
        parsed = uuid.UUID(text)
        assert (parsed.version, parsed.variant, str(parsed)) == (4, uuid.RFC_4122, text)
    # Every other bit is random: over 2000 draws each of them is seen both set and clear.
    bits = [uuid.UUID(t).int for t in made]
    fixed = {76, 77, 78, 79, 62, 63}  # the version nibble and the variant's two bits
    for bit in set(range(128)) - fixed:
        assert 0 < sum(b >> bit & 1 for b in bits) < len(bits), bit


def test_a_date_time_keeps_its_wire_text_without_an_instance_dict() -> None:
    rt = _runtime()
    value = rt.datetime_or_none("2024-01-15T09:03:00.50+01:00")
    assert value is not None and value.wire == "2024-01-15T09:03:00.50+01:00" and not hasattr(value, "__dict__")
    assert rt.format_datetime(value) == "2024-01-15T09:03:00.50+01:00"
    assert rt.datetime_or_none("2024-02-30T00:00:00Z") is None and rt.datetime_or_none("2024-01-15t09:03:00z").wire == "2024-01-15t09:03:00z"


def _python_package(tmp_path: Path, format_id: str, spec: dict[str, Any]) -> Path:
    """The spec's generated Python package, written to tmp_path/pkg/chatformats/ (its folder returned)."""
    from generator.core import generate
    from generator.load import load_spec

    folder = tmp_path / "specs" / format_id
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=("python",))
    package = tmp_path / "pkg" / "chatformats"
    package.mkdir(parents=True)
    for path, text in files.items():
        if path.startswith("python/chatformats/"):
            (package / path.removeprefix("python/chatformats/")).write_text(text, encoding="utf-8")
    return package


def test_a_tuple_holding_lists_or_maps_keeps_and_checks_their_items(tmp_path: Path) -> None:
    # The fast path built a tuple item that is a list or a map into the local it read the item from,
    # emptied before it was read: [[["a"]], 1] became ([], 1) and [[[1]], 1] was accepted.
    strings = {"type": "array", "items": {"type": "string"}}
    tuple_of = {"type": "array", "items": False, "minItems": 4, "prefixItems": [
        {"type": "array", "items": strings}, {"type": "object", "additionalProperties": strings},
        {"type": ["array", "null"], "items": {"type": "integer"}}, {"type": "integer"}]}
    spec = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Tuples", "description": "Tuples of lists.",
            "x-version": "1.0.0", "$ref": "#/$defs/Doc",
            "$defs": {"Doc": {"type": "object", "description": "A document.", "required": ["t"], "properties": {"t": tuple_of}}}}
    _python_package(tmp_path, "tuples", spec)
    valid = [{"t": [[["a", "b"], []], {"k": ["c"]}, [1, 2], 3]}, {"t": [[], {}, None, 0]}]
    invalid = [{"t": [[[1]], {}, None, 0]}, {"t": [[], {"k": [2]}, None, 0]}, {"t": [[], {}, ["x"], 0]}, {"t": [[["a"]], {}, None, "x"]}]
    verdicts, _ = compare(tmp_path / "pkg", [("tuples", "Doc", doc, False) for doc in [*valid, *invalid]])
    assert verdicts == ["same"] * len(valid) + ["unsure-ok"] * len(invalid), verdicts
    code = ("import json, sys\nfrom chatformats import tuples\nout = []\nfor doc in json.load(sys.stdin):\n"
            "    try:\n        out.append(tuples.Doc.from_dict(doc).to_dict())\n"
            "    except tuples.ValidationError as e:\n        out.append([[x.path, x.message] for x in e.errors])\n"
            "print(json.dumps(out))")
    done = subprocess.run([sys.executable, "-S", "-c", code], input=json.dumps([*valid, *invalid]), capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "pkg")})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [*valid, [["/t/0/0/0", "must be a string"]], [["/t/1/k/0", "must be a string"]],
                                       [["/t/2/0", "must be an integer"]], [["/t/3", "must be an integer"]]]


def test_a_kept_model_that_reads_its_ancestors_is_handed_over_with_them(tmp_path: Path) -> None:
    # Root holds Child directly; Child's member_of reads Root ("1/people"). A failure after Child
    # was built hands it over with the values above it, and the exact walk keeps it there only.
    spec = {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Kept", "description": "Kept models.",
        "x-version": "1.0.0", "$ref": "#/$defs/Root",
        "$defs": {
            "Root": {"type": "object", "description": "The root.", "required": ["people", "child", "tail"], "properties": {
                "people": {"type": "array", "items": {"type": "string"}, "description": "Names."},
                "child": {"$ref": "#/$defs/Child"},
                "tail": {"type": "integer", "description": "Checked after the child."}}},
            "Child": {"type": "object", "description": "The child.", "required": ["speaker"], "properties": {
                "speaker": {"type": "string", "description": "One of the people."}},
                "x-rules": [{"kind": "member_of", "field": "speaker", "in": "1/people", "message": "'{value}' is not one of the people"}]},
        },
    }
    package = _python_package(tmp_path, "kept", spec)
    assert "_rt.keep_model(unsure, obj, \"child\", depth + 1, f_child, (obj,))" in (package / "kept.py").read_text()
    sys.path.insert(0, str(tmp_path / "pkg"))
    saved = {name: module for name, module in sys.modules.items() if name == "chatformats" or name.startswith("chatformats.")}
    for name in saved:
        del sys.modules[name]
    try:
        mod = importlib.import_module("chatformats.kept")
        rt = mod._rt
        doc = {"people": ["ann"], "child": {"speaker": "ann"}, "tail": "late"}
        with pytest.raises(rt.Unsure) as caught:
            mod._fast_root(doc, 0)
        assert caught.value.done == {(id(doc["child"]), 1): (doc["child"], mod.Child(speaker="ann"), (doc,))}
        tried = []
        fast = mod._fast_child
        mod._fast_child = lambda *args: tried.append(args) or fast(*args)
        try:
            with pytest.raises(mod.ValidationError) as kept:
                mod.Root.from_dict(doc)
            assert len(tried) == 1  # by the root's fast attempt; the exact walk used the kept child
            with pytest.raises(mod.ValidationError) as walked:
                rt.parse(mod._parse_root, doc)
            assert len(tried) == 2  # a walk with nothing kept tries the child again
            # Under other values (another root) the kept child is not used: its rule is judged again there.
            other = {"people": ["bob"], "child": doc["child"], "tail": "late"}
            with pytest.raises(mod.ValidationError) as elsewhere:
                rt.parse(mod._parse_root, other, dict(caught.value.done))
        finally:
            mod._fast_child = fast
        assert [(e.path, e.message) for e in kept.value.errors] == [(e.path, e.message) for e in walked.value.errors] == [
            ("/tail", "must be an integer")]
        assert [(e.path, e.message) for e in elsewhere.value.errors] == [
            ("/child/speaker", "'ann' is not one of the people"), ("/tail", "must be an integer")]
    finally:
        sys.path.remove(str(tmp_path / "pkg"))
        for name in [n for n in sys.modules if n == "chatformats" or n.startswith("chatformats.")]:
            del sys.modules[name]
        sys.modules.update(saved)


def test_a_rule_whose_pointer_has_no_straight_line_form_runs_the_exact_check_with_probe(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As if no pointer could be followed by attribute steps: every allowed_when and contains of the
    # droidlet formats falls back to _rt.rule_<kind>(ctx=_rt.PROBE, ...), and still decides as the exact walk.
    from generator.core import generate
    from generator.load import load_spec
    from generator.targets.python.fast import FastBuilder

    monkeypatch.setattr(FastBuilder, "each", lambda self, model, rule: None)
    monkeypatch.setenv("CHATSPEC_CACHE", "off")
    folders = format_folders()
    files = generate([load_spec(folders[f], ROOT, format_id=f) for f in ("droidlet_chat_v1", "droidlet_chat")], targets=("python",))
    package = tmp_path / "chatformats"
    package.mkdir()
    for path, text in files.items():
        if path.startswith("python/chatformats/"):
            (package / path.removeprefix("python/chatformats/")).write_text(text, encoding="utf-8")
    for name in ("droidlet_chat", "droidlet_chat_v1"):
        source = (package / f"{name}.py").read_text()
        fast = source[source.index("def _fast_droidlet_chat"):source.index("def _check_droidlet_chat")]
        assert "ctx = _rt.PROBE" in fast and "_rt.rule_allowed_when(" in fast and "_rt.rule_contains(" in fast
    cases = []
    for name, model, kinds, doc_of in (
            ("droidlet_chat", "DroidletChat", ["text", "image_link", "response_option"],
             lambda t, ks: {"chat_memid": "a", "timestamp": 1, "content_type": t, "content": [{"id": k, "content": "x"} for k in ks]}),
            ("droidlet_chat_v1", "DroidletChat", ["text", "image_link", "response_option"],
             lambda t, ks: {"speaker_id": "a", "timestamp": 1, "content_type": [t], "content": [[k, "x"] for k in ks]})):
        for t in ("chat_string", "chat_and_media", "chat_and_text_options"):
            for ks in (["text"], ["image_link"], ["text", "image_link"], ["text", "response_option"]):
                cases.append((name, model, doc_of(t, ks), True))
    verdicts, attrs = compare(tmp_path, cases)
    assert not [v for v in verdicts + attrs if v.startswith("WRONG")]
    assert set(verdicts) == {"same", "unsure-ok"}


def test_datetime_ok_decides_a_utc_date_time_by_its_wire_text_alone_and_others_as_before() -> None:
    from datetime import datetime, timedelta, timezone

    rt = _runtime()
    utc = rt.datetime_or_none("2024-01-15T09:03:00Z")
    assert utc is not None and utc.tzinfo is timezone.utc and rt.datetime_ok(utc)
    bare = rt.DateTime(2024, 1, 15, tzinfo=timezone.utc)  # no wire text: to_dict writes isoformat
    assert rt.datetime_ok(bare) and rt.format_datetime(bare) == "2024-01-15T00:00:00Z"
    bare.wire = 5  # type: ignore[assignment]
    assert not rt.datetime_ok(bare)
    assert rt.datetime_ok(rt.datetime_or_none("2024-01-15T09:03:00+05:30"))
    assert not rt.datetime_ok(datetime(2024, 1, 15))  # naive
    assert not rt.datetime_ok(datetime(2024, 1, 15, tzinfo=timezone(timedelta(seconds=30))))
    assert rt.datetime_ok(datetime(2024, 1, 15, tzinfo=timezone.utc))
    assert not rt.datetime_ok("2024-01-15T09:03:00Z")

"""The generated TypeScript fast path (issue 17 item 6) never decides alone: on every JSON.parse
tree it either builds exactly what the exact walk builds on decodeJSON's tree, or says it is
not sure (rt.UNSURE) and the exact walk runs. It never accepts what the exact walk rejects."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import fuzz
import mutations
import rule_paths
from conftest import ROOT, format_folders, golden_model_documents
from typescript_driver import compile_package, node_available, runtime_map, write_tree

pytestmark = pytest.mark.skipif(not node_available(), reason="node is not on this machine")

COMPARE = Path(__file__).resolve().parent / "typescript" / "fast_compare.mjs"
TS_TREE = ROOT / "generated" / "typescript"


GOLDEN = ROOT / "tests" / "golden"


def build(work: Path, modules: list[str], extra: dict[str, str] | None = None) -> Path:
    """The generated package (plus extra files) compiled in work, each module's fast functions exported as __fast."""
    files = {p.relative_to(TS_TREE).as_posix(): p.read_text(encoding="utf-8") for p in TS_TREE.rglob("*") if p.is_file()}
    write_tree({**files, **(extra or {})}, work)
    return export_fast(compile_package(work), modules)


def export_fast(out: Path, modules: list[str]) -> Path:
    # The fast functions are module-private: the test reaches them through an export of its own.
    for fmt in modules:
        js = out / f"{fmt}.js"
        names = re.findall(r"^function (f_\w+)\(", js.read_text(encoding="utf-8"), re.M)
        with js.open("a", encoding="utf-8") as f:
            f.write(f"\nexport const __fast = {{ {', '.join(names)} }};\n")
    return out


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory, typescript_dist: Path) -> Path:
    """The generated package, compiled (a copy of conftest's typescript_dist's package, which stays as tsc wrote it)."""
    package = tmp_path_factory.mktemp("ts-fast") / "package"
    shutil.copytree(typescript_dist.parent, package)
    return export_fast(package / typescript_dist.name, list(format_folders()))


def compare(dist: Path, cases: list[tuple[str, str, Any]]) -> list[str]:
    payload = json.dumps([{"format": f, "model": m, "text": json.dumps(doc, ensure_ascii=False)} for f, m, doc in cases])
    done = subprocess.run(["node", str(COMPARE), str(dist)], input=payload, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    verdicts: list[str] = json.loads(done.stdout)
    return verdicts


@pytest.mark.parametrize("fmt", list(format_folders()))
def test_the_typescript_fast_path_builds_what_the_exact_walk_builds_or_steps_aside(fmt: str, dist: Path) -> None:
    folder = format_folders()[fmt]
    cases: list[tuple[str, str, Any]] = []
    seeds_count = 0
    # Only a model a document of the root can hold has a fast function (no other would run).
    fast = set(re.findall(r"^function f_(\w+)\(", (dist / f"{fmt}.js").read_text(encoding="utf-8"), re.M))
    for target in fuzz.targets(fmt):
        if target.model not in fast:
            assert not target.root, f"{fmt}: the root model {target.model} has no fast function"
            continue
        seeds = fuzz.model_seeds(target, folder, 1)
        seeds_count += len(seeds)
        cases += [(fmt, target.model, doc) for doc in seeds]
        cases += [(fmt, target.model, doc) for doc in fuzz.cases_for(target, folder, 150, 1)]
        cases += [(fmt, target.model, doc) for seed in seeds for doc in mutations.mutations(seed)]
    root = json.loads((folder / "spec.json").read_text(encoding="utf-8"))["$ref"].rsplit("/", 1)[-1]
    examples = sorted((folder / "examples" / "valid").glob("*.json"))
    invalid = sorted((folder / "examples" / "invalid").glob("*.json"))
    cases += [(fmt, root, other) for p in examples for other in shuffled(json.loads(p.read_text(encoding="utf-8")))]
    cases += [(fmt, root, json.loads(p.read_text(encoding="utf-8"))) for p in examples]
    cases += [(fmt, root, json.loads(p.read_text(encoding="utf-8")).get("data")) for p in invalid]
    verdicts = compare(dist, cases)
    wrong = [v for v in verdicts if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong[:10])
    # Both outcomes occur, and the fast path vouches for every valid example of the format.
    assert verdicts.count("same") and verdicts.count("unsure-ok"), set(verdicts)
    n = len(examples)
    start = len(cases) - len(invalid) - n
    assert verdicts[start:start + n] == ["same"] * n, verdicts[start:start + n]


def _reordered(doc: Any, order: Any) -> Any:
    """doc with the items of every object put in order(items)."""
    if isinstance(doc, list):
        return [_reordered(item, order) for item in doc]
    if isinstance(doc, dict):
        return dict(order([(k, _reordered(v, order)) for k, v in doc.items()]))
    return doc


def shuffled(doc: Any) -> list[Any]:
    """doc with the keys of every object in other orders, and with a property no spec names among them: the fast
    path's output must still be the exact walk's, key order included (where it returns JSON.parse's own object,
    that object's keys must come in the order the exact walk gives)."""
    unnamed = ("zz_unnamed", 1)
    return [
        _reordered(doc, lambda items: items[::-1]),
        _reordered(doc, lambda items: [*items[:-2], *items[-2:][::-1]]),  # the last two swapped (often optional fields)
        _reordered(doc, lambda items: [*items[:-1], unnamed, *items[-1:]]),  # an unnamed property before the last
        _reordered(doc, lambda items: [unnamed, *items]),
    ]


def golden_cases() -> list[str]:
    return sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())


@pytest.fixture(scope="module")
def golden_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every golden case's module and the runtime, rendered by this checkout's generator (not read from the
    committed expected/ files, which change only with `make golden`), compiled in one tsc run."""
    from generator.load import load_spec
    from generator.lower import lower
    from generator.targets.typescript import render_package

    cases = golden_cases()
    files = {p.removeprefix("typescript/"): t for p, t in render_package([lower(load_spec(GOLDEN / c, ROOT)) for c in cases]).items()}
    folder = tmp_path_factory.mktemp("ts-fast-golden")
    write_tree(files, folder)
    return export_fast(compile_package(folder), cases)


@pytest.mark.parametrize("case", golden_cases())
def test_the_typescript_fast_path_of_each_golden_case_agrees_with_its_exact_walk(case: str, golden_dist: Path) -> None:
    root, valid, invalid, changed = golden_model_documents(case)
    if not re.search(rf"^function f_{root}\(", (golden_dist / f"{case}.js").read_text(encoding="utf-8"), re.M):
        # A root that is no model (root_array) runs the exact walk alone in TypeScript: no fast function to hold to it.
        assert root != json.loads((GOLDEN / case / "spec.json").read_text(encoding="utf-8"))["$ref"].rsplit("/", 1)[-1]
        return
    docs = [*valid, *invalid, *changed, *(other for doc in valid for other in shuffled(doc))]
    verdicts = compare(golden_dist, [(case, root, doc) for doc in docs])
    wrong = [v for v in verdicts if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong[:10])
    # It vouches for the valid examples, except where JSON.parse rounds an integer (past 2^53: the
    # exact walk reads those from decodeJSON's tree), and steps aside on the invalid ones.
    stepped_aside = [doc for doc, v in zip(valid, verdicts) if v != "same"]
    assert all(re.search(r"\d{16}", json.dumps(doc)) for doc in stepped_aside), stepped_aside
    assert all(v in ("unsure-ok", "unparsed") for v in verdicts[len(valid): len(valid) + len(invalid)])


def test_the_typescript_fast_path_steps_aside_or_agrees_on_hostile_documents(dist: Path) -> None:
    folder = format_folders()["structured_conversation"]
    doc = json.loads(sorted((folder / "examples" / "valid").glob("*.json"))[0].read_text(encoding="utf-8"))
    deep: Any = "x"
    for _ in range(200):
        deep = {"a": [deep]}
    texts = []
    for extra in ({"metadata": {"__proto__": "x"}}, {"metadata": {"__proto__": {"a": "b"}}}, {"metadata": {"toString": "x"}},
                  {"metadata": {"1": "a", "b": "c"}}, {"tags": ["a", 2**60]}, {"tags": ["\ud83d\ude00", ""]}, {"__proto__": {}},
                  {"toString": "x"}, {"id": ""}, {"id": 2**53 + 1}, {"metadata": deep}):
        texts.append({**doc, **extra})
    modality = json.loads(sorted((format_folders()["chat_modality"] / "examples" / "valid").glob("*.json"))[0].read_text(encoding="utf-8"))
    texts_m = [{**modality, "metadata": m} for m in ({"deep": deep}, {"n": 2**60}, {"f": 1e300}, {"p": {"__proto__": [1]}}, {"__proto__": 1})]
    verdicts = compare(dist, [("structured_conversation", "ConversationDocument", t) for t in texts]
                       + [("chat_modality", "ChatInput", t) for t in texts_m])
    wrong = [v for v in verdicts if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong)
    assert "unsure-ok" in verdicts and "same" in verdicts, verdicts


def rule_paths_module(tmp_path: Path) -> str:
    from generator.load import load_spec
    from generator.lower import lower
    from generator.targets.typescript import render_package

    folder = tmp_path / "rule_paths"
    folder.mkdir()
    (folder / "spec.json").write_text(json.dumps(rule_paths.SPEC), encoding="utf-8")
    return render_package([lower(load_spec(folder, tmp_path))])["typescript/src/rule_paths.ts"]


def test_rules_whose_pointers_surely_find_a_value_are_code_of_their_own_in_the_fast_function_and_agree_with_the_exact_walk(tmp_path: Path) -> None:
    module = rule_paths_module(tmp_path)
    fast = module[module.index("function f_Doc("):]
    fast = fast[:fast.index("\n}\n")]
    # 12 rules are code of their own (8 of them loops); the 12 whose pointers may find nothing keep the runtime's walk.
    assert fast.count("rt.fastContains(") == 3 and fast.count("rt.fastAllowedWhen(") == 5 and fast.count("rt.fastRequiredWhen(") == 4, fast
    assert "rt.fastAtLeastOneOf(" not in fast and fast.count("for (let j = 0;") == 8, fast
    # member_of reads its pool with plain reads unless a token is an index.
    pick = module[module.index("function f_Pick("):]
    pick = pick[:pick.index("\n}\n")]
    assert pick.count("rt.fastInPool(") == 2 and pick.count("rt.fastMemberOf(") == 1, pick
    out = build(tmp_path / "package", [], {"src/rule_paths.ts": module})
    js = out / "rule_paths.js"
    with js.open("a", encoding="utf-8") as f:
        f.write("\nexport const __fast = { f_Doc, f_Item, f_Loose, f_Outer, f_Pick, f_Holder };\n")
    valid, docs = rule_paths.VALID, rule_paths.documents()
    verdicts = compare(out, [("rule_paths", "Doc", doc) for doc in docs])
    wrong = [v for v in verdicts if v.startswith("WRONG")]
    assert not wrong, "\n".join(wrong[:10])
    assert verdicts[:len(valid)] == ["same"] * len(valid), verdicts[:len(valid)]
    assert verdicts.count("unsure-ok") > 50, set(verdicts)


def test_each_native_rule_check_vouches_only_for_what_the_exact_rule_accepts(dist: Path) -> None:
    # rt.fastRequiredWhen and rt.fastAtLeastOneOf say "surely met" (true) or "not sure" (false): true must never
    # meet an object the exact rule (Python's, which every driver agrees with) reports. Each on its own: in a
    # generated fast function two of them can hide each other's mistake (a rule_paths Doc without a mode).
    from test_runtime_python import rt as py  # the Python runtime as source

    required_when = [({"kind": k, **extra}, "data", "kind", [], "x") for k in ("x", "y") for extra in ({}, {"data": None}, {"data": 1})]
    required_when += [({"pairs": p, **extra}, "mode", "pairs", ["0", "1"], "x")
                      for p in ([["a", "x"]], [["a", "y"]], [], "xx") for extra in ({}, {"mode": "m"})]
    at_least_one = [(obj, ["a", "b"]) for obj in ({}, {"a": None}, {"b": 0}, {"a": None, "b": None}, {"a": "", "b": None})]
    fast_rw = runtime_map(dist, "rt.fastRequiredWhen(...t)", required_when)
    fast_alo = runtime_map(dist, "rt.fastAtLeastOneOf(...t)", at_least_one)
    wrong = []
    for (obj, field, when, pointer, equals), surely in zip(required_when, fast_rw):
        ctx = py.Context(obj)
        py.rule_required_when(ctx, obj, field, when, tuple(pointer), equals, "needed", ())
        if surely and ctx.count:
            wrong.append(f"fastRequiredWhen{(obj, field, when, pointer, equals)}")
    for (obj, fields), surely in zip(at_least_one, fast_alo):
        ctx = py.Context(obj)
        py.rule_at_least_one_of(ctx, obj, tuple(fields), "one of them")
        if surely and ctx.count:
            wrong.append(f"fastAtLeastOneOf{(obj, fields)}")
    assert not wrong, wrong
    assert any(fast_rw) and not all(fast_rw) and any(fast_alo) and not all(fast_alo)

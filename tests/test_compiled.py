"""make compiled (tests/mypyc_driver.py: the runtime of the generated package compiled with
mypyc into build/mypyc) against the pure-Python package, case by case.

Every document (the spec examples, fuzz cases of every model, hostile texts, the benchmark's
payloads) gets the same verdict, the same errors (path, message, keyword, in order) and, when
valid, builds the same value; validate() on built objects changed in every attribute gives the
same result; the classes callers see behave as in the pure package.

The build takes about 10 s of CPU; it is kept in build/mypyc and reused while the package's
source is the same. Without a C compiler or the Python headers the tests are skipped.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bench
import fuzz
import hostile
import mypyc_driver
from conftest import ROOT, format_folders

PROBLEM = mypyc_driver.compiler_problem()
pytestmark = pytest.mark.skipif(PROBLEM is not None, reason=f"the compiled build cannot be made here: {PROBLEM}")

PURE = ROOT / "generated" / "python"

# Run in a fresh interpreter (-S: nothing but the package and the standard library) with the
# package root on PYTHONPATH. Cases on stdin: [format, model or null for the root, text or
# {"b64": bytes}, whether to change the built object]; out: the modules' files and a result per case.
_RUNNER = r"""
import base64, copy, dataclasses, importlib, json, re, sys
from datetime import datetime, timedelta, timezone
import chatformats
from chatformats import _runtime as rt

UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
ODD = [None, "", "x", 0, -1, 1.5, 2**63, True, [], [None], ["x"], ("a", "b"), {}, {"k": 1}, b"ab",
       datetime(2024, 1, 1), datetime(2024, 1, 1, tzinfo=timezone(timedelta(seconds=30))),
       datetime(2024, 1, 1, tzinfo=timezone.utc), object()]


def outcome(call):
    try:
        value = call()
    except rt.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message, e.keyword] for e in exc.errors]}, None
    except Exception as exc:  # anything else is compared as its type and text
        return {"raised": type(exc).__name__ + ": " + str(exc)[:200]}, None
    return {"ok": True}, value


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


def changes(built):
    # validate() on copies with one attribute set to an odd value, or an odd item added to one list
    out = []
    for holder, attr in objects(built):
        value = getattr(holder, attr)
        odd = [("set", o) for o in ODD] + ([("append", o) for o in ODD] if isinstance(value, list) else [])
        for how, o in odd:
            copied = copy.deepcopy(built)
            target = find(copied, built, holder)
            try:
                if how == "set":
                    setattr(target, attr, o)
                else:
                    getattr(target, attr).append(o)
            except Exception as exc:
                out.append({"set raised": type(exc).__name__})
                continue
            back = getattr(target, attr)
            if how == "set" and (type(back) is not type(o) or back is not o and back != o):
                out.append({"converted": type(o).__name__ + " to " + type(back).__name__})
                continue
            out.append(outcome(copied.validate)[0])
    return out


modules = ["chatformats", "chatformats._runtime"]
results = []
for fmt, model, text, change in json.loads(sys.stdin.read()):
    mod = importlib.import_module("chatformats." + fmt)
    if f"chatformats.{fmt}" not in modules:
        modules.append(f"chatformats.{fmt}")
    data = base64.b64decode(text["b64"]) if isinstance(text, dict) else text
    parse = getattr(mod, model).from_json if model else getattr(mod, f"parse_{fmt}_from_json")
    result, built = outcome(lambda: parse(data))
    if built is not None:
        result["json"] = UUID4.sub("<uuid4>", built.to_json())
        result["validate"] = outcome(built.validate)[0]
        result["again"] = type(built).from_dict(built.to_dict()) == built
        if change:
            result["changes"] = changes(built)
    results.append(result)
print(json.dumps({"files": {m: importlib.import_module(m).__file__ for m in modules}, "results": results}))
"""


def run(package_root: Path, cases: list[tuple[str, str | None, str | bytes, bool]]) -> dict[str, Any]:
    payload = json.dumps([[fmt, model, {"b64": base64.b64encode(text).decode()} if isinstance(text, bytes) else text, change]
                          for fmt, model, text, change in cases])
    done = subprocess.run([sys.executable, "-S", "-c", _RUNNER], input=payload, capture_output=True, text=True,
                          cwd=package_root, env={**os.environ, "PYTHONPATH": str(package_root)})
    assert done.returncode == 0, f"the runner failed on {package_root} (exit {done.returncode}):\n{done.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def compiled() -> Path:
    try:
        mypyc_driver.build()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    return mypyc_driver.OUT


def example_cases(fmt: str) -> tuple[list[tuple[str, str | None, str | bytes, bool]], list[Any]]:
    """The format's examples as cases (valid ones with their built objects changed), and what each expects."""
    folder = format_folders()[fmt]
    cases: list[tuple[str, str | None, str | bytes, bool]] = []
    expected: list[Any] = []
    for path in sorted((folder / "examples" / "valid").glob("*.json")):
        cases.append((fmt, None, path.read_text(encoding="utf-8"), True))
        expected.append(None)
    for path in sorted((folder / "examples" / "invalid").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        cases.append((fmt, None, json.dumps(case["data"]), False))
        expected.append(case["errors"])
    return cases, expected


def assert_same(pure: dict[str, Any], compiled: dict[str, Any], cases: list[Any]) -> dict[str, int]:
    """Per case: the same verdict, errors and built value, and validate() on each changed object
    the same. Returns how many changed objects passed validate() and how many it rejected."""
    assert len(pure["results"]) == len(compiled["results"]) == len(cases)
    counts = {"accepted": 0, "rejected": 0}
    for case, p, c in zip(cases, pure["results"], compiled["results"]):
        where = f"{case[0]} {case[1] or 'root'} {str(case[2])[:200]!r}"
        p_changes, c_changes = p.pop("changes", []), c.pop("changes", [])
        assert c == p, f"the compiled build differs on {where}:\npure:     {json.dumps(p)[:1500]}\ncompiled: {json.dumps(c)[:1500]}"
        assert len(p_changes) == len(c_changes)
        for i, (pc, cc) in enumerate(zip(p_changes, c_changes)):
            assert cc == pc, f"validate() on a changed object (change {i}) differs on {where}:\npure:     {pc}\ncompiled: {cc}"
            counts["accepted" if pc.get("ok") else "rejected"] += 1
    return counts


def test_the_compiled_build_loads_a_compiled_runtime_and_the_pure_one_none(compiled: Path) -> None:
    cases: list[tuple[str, str | None, str | bytes, bool]] = [
        (fmt, None, next((folder / "examples" / "valid").glob("*.json")).read_text(encoding="utf-8"), False)
        for fmt, folder in format_folders().items()]
    files = run(compiled, cases)["files"]
    assert set(files) == {"chatformats", "chatformats._runtime", *(f"chatformats.{fmt}" for fmt in format_folders())}
    assert all(Path(f).is_relative_to(compiled) for f in files.values()), files
    assert {m for m, f in files.items() if f.endswith(mypyc_driver.EXT_SUFFIX)} == {"chatformats._runtime"}, files
    assert all(f.endswith(".py") for f in run(PURE, cases)["files"].values())


@pytest.mark.parametrize("fmt", list(format_folders()))
def test_every_example_gets_the_same_verdict_and_messages_compiled(compiled: Path, fmt: str) -> None:
    cases, expected = example_cases(fmt)
    pure, built = run(PURE, cases), run(compiled, cases)
    # The examples' own expectations hold for the compiled build, path and message.
    for case, want, got in zip(cases, expected, built["results"]):
        if want is None:
            assert got["ok"] and got["validate"] == {"ok": True} and got["again"], (case[2][:200], got)
        else:
            assert not got["ok"] and [e[:2] for e in got["errors"]] == [[w["path"], w["message"]] for w in want], (case[2][:200], got)
    counts = assert_same(pure, built, cases)
    # Changed objects were compared: some pass validate() in both, some fail it with the same errors.
    assert counts["accepted"] and counts["rejected"], counts


@pytest.mark.parametrize("fmt", list(format_folders()))
def test_fuzz_cases_of_every_model_get_the_same_verdict_and_messages_compiled(compiled: Path, fmt: str) -> None:
    folder = format_folders()[fmt]
    cases: list[tuple[str, str | None, str | bytes, bool]] = []
    for target in fuzz.targets(fmt):
        cases += [(fmt, target.model, json.dumps(doc), False) for doc in fuzz.cases_for(target, folder, 120, 1)]
    pure = run(PURE, cases)
    assert_same(pure, run(compiled, cases), cases)
    verdicts = {r["ok"] for r in pure["results"] if "ok" in r}
    assert verdicts == {True, False}, "the fuzz cases must hold valid and invalid documents"


@pytest.mark.parametrize("fmt", list(format_folders()))
def test_hostile_texts_and_the_benchmark_payloads_get_the_same_verdict_compiled(compiled: Path, fmt: str) -> None:
    # Byte order marks, invalid UTF-8, lone surrogates, 10^5 levels of nesting, 4301-digit
    # integers, duplicate keys, hundreds of errors; then the benchmark's large and invalid documents.
    texts: list[str | bytes] = list(hostile.cases_for(format_folders()[fmt], paths_per_doc=4, examples=1))
    large = bench.large_payloads()[fmt]
    texts += [json.dumps(large), json.dumps(bench.invalid_payload(large))]
    cases: list[tuple[str, str | None, str | bytes, bool]] = [(fmt, None, t, False) for t in texts]
    pure = run(PURE, cases)
    assert_same(pure, run(compiled, cases), cases)
    assert pure["results"][-2]["ok"] and not pure["results"][-1]["ok"]


def test_the_build_is_reused_while_the_source_is_the_same(compiled: Path) -> None:
    stamp = mypyc_driver.build()
    assert stamp["reused"] is True and stamp["source_hash"] == mypyc_driver.source_hash()
    assert json.loads(mypyc_driver.STAMP.read_text(encoding="utf-8"))["source_hash"] == stamp["source_hash"]


# What callers do with the package's classes beyond parsing, where a compiled class (a mypyc
# native class) would behave differently: typed attributes, no Python subclasses.
_CALLERS = r"""
import glob, json
from chatformats import ErrorDetail, ValidationError, droidlet_chat, structured_conversation as sc


def attempt(call):
    try:
        return repr(call())
    except Exception as exc:
        return type(exc).__name__ + ": " + str(exc).splitlines()[0]


droidlet = droidlet_chat.parse_droidlet_chat_from_json(open(sorted(glob.glob("specs/droidlet_chat/examples/valid/*.json"))[0]).read())
conversation = sc.parse_structured_conversation_from_json(open(sorted(glob.glob("specs/structured_conversation/examples/valid/*.json"))[0]).read())


def set_bool():
    droidlet.timestamp = True
    droidlet.validate()


def foreign_item():
    conversation.conversation.conversation.append({"speaker": "x"})
    conversation.validate()


class MyError(ValidationError):
    pass


class MyDetail(ErrorDetail):
    pass


def frozen():
    ErrorDetail("/a", "m", "k").path = "/b"


print(json.dumps({
    "a wrong type in a model's constructor": attempt(lambda: sc.ConversationMessage(speaker=1, content="c", time=None)),
    "a bool on an integer field": attempt(set_bool),
    "a foreign list item": attempt(foreign_item),
    "a model's subclass": attempt(lambda: type("Mine", (sc.TextDocument,), {})(id="d", content="c").id),
    "a ValidationError's subclass": attempt(lambda: MyError([ErrorDetail("/a", "m", "k")]).message),
    "an ErrorDetail of other types": attempt(lambda: str(ErrorDetail(1, 2, 3))),
    "an ErrorDetail changed": attempt(frozen),
    "ValidationError.errors replaced": attempt(lambda: setattr(ValidationError([]), "errors", ())),
    "an ErrorDetail's subclass in a ValidationError": attempt(lambda: str(MyError([MyDetail("/a", "m", "k")]))),
}))
"""


def test_the_classes_callers_see_behave_as_in_the_pure_package(compiled: Path) -> None:
    def outcomes(package_root: Path) -> dict[str, str]:
        done = subprocess.run([sys.executable, "-S", "-c", _CALLERS], capture_output=True, text=True, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(package_root)})
        assert done.returncode == 0, done.stderr[-3000:]
        result: dict[str, str] = json.loads(done.stdout)
        return result

    pure = outcomes(PURE)
    assert pure["a bool on an integer field"] == "ValidationError: /timestamp: must be an integer"
    assert pure["a model's subclass"] == "'d'" and pure["a ValidationError's subclass"] == "'m'"
    assert pure["an ErrorDetail changed"].startswith("FrozenInstanceError")
    assert outcomes(compiled) == pure


def test_the_benchmark_times_the_compiled_build_beside_the_pure_one(compiled: Path) -> None:
    rows = bench.python_table(0.001, compiled)
    assert [(r["format"], r["payload"]) for r in rows] == [(f, p) for f in format_folders() for p in ("examples", "large", "invalid")]
    assert all(r["mypyc_us"] > 0 and r["mypyc vs chatspec"] > 0 and r["mypyc vs pydantic v2"] > 0 for r in rows)
    # It refuses to time a package that is not compiled (the row would be the pure package again).
    with pytest.raises(AssertionError, match="is not a compiled module"):
        bench.compiled_times(PURE, [("droidlet_chat", "DroidletChat", [bench.large_payloads()["droidlet_chat"]], True)], 0.001)


def test_a_changed_source_makes_the_build_stale(compiled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert mypyc_driver.built() is not None
    copy = tmp_path / "chatformats"
    copy.mkdir()
    for path in (PURE / "chatformats").glob("*.py"):
        (copy / path.name).write_bytes(path.read_bytes())
    (copy / "py.typed").write_bytes((PURE / "chatformats" / "py.typed").read_bytes())
    monkeypatch.setattr(mypyc_driver, "SOURCE", copy)
    assert mypyc_driver.built() is not None  # the same bytes elsewhere: the same hash
    runtime = copy / "_runtime.py"
    text = runtime.read_text(encoding="utf-8")
    assert "MAX_DEPTH: Final = 128" in text
    runtime.write_text(text.replace("MAX_DEPTH: Final = 128", "MAX_DEPTH: Final = 127"), encoding="utf-8")
    assert mypyc_driver.built() is None


def test_without_a_c_compiler_the_build_says_so_and_builds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mypyc_driver.shutil, "which", lambda name: None)
    problem = mypyc_driver.compiler_problem()
    assert problem is not None and problem.startswith("no C compiler: ")
    before = mypyc_driver.STAMP.read_bytes() if mypyc_driver.STAMP.is_file() else None
    with pytest.raises(RuntimeError, match="cannot build the compiled package: no C compiler"):
        mypyc_driver.build(force=True)
    assert (mypyc_driver.STAMP.read_bytes() if mypyc_driver.STAMP.is_file() else None) == before

"""The TypeScript target: it compiles under tsc --strict and the checks web projects add, and it
gives the same verdicts, paths and messages as the generated Python on every example,
golden case, hostile input and fuzz case. One tsc run per package and one node process
per batch keep it quick."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import fuzz
import hostile
from conftest import GENERATED, GOLDEN, ROOT, format_folders
from typescript_driver import STRICT_OPTIONS, TSC, compile_package, node_available, run_driver, runtime_map, write_tree

pytestmark = pytest.mark.skipif(not node_available(), reason="node is not installed: the TypeScript checks need it")


def _typescript_files(formats: list[Any]) -> dict[str, str]:
    from generator.targets.typescript import render_package

    return {p.removeprefix("typescript/"): t for p, t in render_package(formats).items()}


@pytest.fixture(scope="session")
def ts_dist(typescript_dist: Path) -> Path:
    """The committed generated/typescript package, as a vendoring user gets it, compiled once per run (conftest)."""
    return typescript_dist


@pytest.fixture(scope="session")
def golden_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every golden case's module in one package, compiled once."""
    from generator.load import load_spec
    from generator.lower import lower

    folder = tmp_path_factory.mktemp("typescript-golden")
    cases = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
    write_tree(_typescript_files([lower(load_spec(GOLDEN / c, ROOT)) for c in cases]), folder)
    return compile_package(folder)


def _verdicts(dist: Path, cases: list[tuple[str, str | bytes, str | None]]) -> list[dict[str, Any]]:
    found = run_driver(dist, cases)
    crashes = [(c, v["crash"]) for c, v in zip(cases, found) if "crash" in v]
    assert not crashes, f"{len(crashes)} cases threw something other than a ValidationError, e.g. {crashes[0]}"
    return found


def _compare(found: list[dict[str, Any]], expected: list[dict[str, Any]], what: list[str]) -> None:
    wrong = [f"{w}: expected {e['errors'] or 'valid'}, TypeScript {f['errors'] or 'valid'}"
             for w, e, f in zip(what, expected, found) if (e["ok"], e["errors"]) != (f["ok"], f["errors"])]
    assert not wrong, f"{len(wrong)} of {len(found)} cases differ:\n" + "\n".join(wrong[:20])


def _golden_python_verdicts(case: str, texts: list[str], tmp_path: Path) -> list[dict[str, Any]]:
    """Each text's verdict and errors ([pointer, message]) from a golden case's Python module, as this checkout's
    generator writes it: what TypeScript must give."""
    import subprocess
    import sys

    from conftest import golden_generated

    folder = tmp_path / "python"
    for path, text in golden_generated(("python",)).items():
        target = folder / path.removeprefix("python/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    script = (
        "import json, sys\n"
        f"from chatformats import {case} as m\n"
        "out = []\n"
        "for text in json.load(sys.stdin):\n"
        "    try:\n"
        f"        m.parse_{case}_from_json(text); out.append({{'ok': True, 'errors': []}})\n"
        "    except m.ValidationError as e:\n"
        "        out.append({'ok': False, 'errors': [[x.path, x.message] for x in e.errors]})\n"
        "print(json.dumps(out))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(texts), capture_output=True, text=True, cwd=folder, check=True)
    verdicts: list[dict[str, Any]] = json.loads(done.stdout)
    return verdicts


def test_the_generated_package_compiles_under_every_strict_option(ts_dist: Path) -> None:
    config = json.loads((ts_dist.parent / "tsconfig.json").read_text(encoding="utf-8"))["compilerOptions"]
    assert {o: config.get(o) for o in STRICT_OPTIONS} == dict.fromkeys(STRICT_OPTIONS, True)
    assert {p.name for p in ts_dist.glob("*.js")} >= {"runtime.js", "index.js", *(f"{f}.js" for f in format_folders())}
    assert all((ts_dist / f"{f}.d.ts").is_file() for f in format_folders())


def test_the_package_and_every_golden_case_type_check_from_a_consumer_project_with_every_strict_option(
        ts_dist: Path, golden_dist: Path, tmp_path: Path) -> None:
    """A web project's own tsconfig (STRICT_OPTIONS, no skipLibCheck) checks the sources it imports:
    the generated package and every golden case's module must pass it as they are."""
    import shutil
    import subprocess

    for name, dist in (("generated", ts_dist), ("golden", golden_dist)):
        shutil.copytree(dist.parent / "src", tmp_path / name / "src")
    options = {"target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "lib": ["ES2022"], "types": [],
               "noEmit": True, **dict.fromkeys(STRICT_OPTIONS, True)}
    (tmp_path / "tsconfig.json").write_text(json.dumps({"compilerOptions": options, "include": ["app.ts"]}), encoding="utf-8")
    (tmp_path / "app.ts").write_text('import * as generated from "./generated/src/index.js";\n'
                                     'import * as golden from "./golden/src/index.js";\n'
                                     "export const packages = [generated, golden];\n", encoding="utf-8")
    done = subprocess.run(["node", str(TSC), "-p", str(tmp_path), "--pretty", "false", "--listFiles"], capture_output=True, text=True)
    assert done.returncode == 0, f"tsc under {STRICT_OPTIONS}:\n{done.stdout[-6000:]}{done.stderr[-2000:]}"
    checked = {Path(line).name for line in done.stdout.splitlines()}
    cases = [p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file()]
    assert checked >= {"runtime.ts", *(f"{f}.ts" for f in format_folders()), *(f"{c}.ts" for c in cases)}


# Every example through the TypeScript (and every other driver): tests/test_drivers.py.


# The fuzz cases of every model through the TypeScript: tests/test_fuzz.py runs every registered driver.


# Hostile bytes through the TypeScript (and every other driver): tests/test_fuzz.py.


def test_every_golden_valid_example_round_trips_and_validates_in_typescript(golden_dist: Path) -> None:
    # The driver parses each, writes it with stringify<Root>, parses that again and validates the built value
    # (a throw there is a crash): e.g. an absent optional field named "constructor" is not Object's constructor.
    cases = [(case, p.read_text(encoding="utf-8"), None) for case in sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
             for p in sorted((GOLDEN / case / "examples" / "valid").glob("*.json"))]
    found = _verdicts(golden_dist, cases)
    assert all(v["ok"] for v in found), [(c[0], c[1][:200], v) for c, v in zip(cases, found) if not v["ok"]][:5]


def test_the_makefile_installs_the_typescript_vendor_compiles_with_and_the_package_depends_on_nothing() -> None:
    import re

    from generator.targets.typescript.compile import TYPESCRIPT_VERSION

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(rf"^TYPESCRIPT_VERSION := {re.escape(TYPESCRIPT_VERSION)}$", makefile, re.M)
    package = json.loads((GENERATED / "typescript" / "package.json").read_text(encoding="utf-8"))
    # Shipped built (vendor compiles dist/): no build script, no compiler to install, nothing to depend on.
    assert not {"dependencies", "devDependencies", "scripts"} & set(package)
    assert package["type"] == "module" and package["types"] == "./dist/index.d.ts"


def test_texts_the_engines_json_parse_reads_differently_get_pythons_verdicts(ts_dist: Path) -> None:
    """The fast path (JSON.parse) must never decide these: integer-like keys (a plain object puts
    them first), "__proto__", duplicate keys, integers past 2^53, escaped surrogates, 1.0."""
    pieces = ['"10": 1, "b": 2, "2": 3', '"10" :1, "b": 2, "2"\n\t\r :3', '"\\u0031\\u0030": 1, "b": 2, "\\u0032": 3', '"__proto__": {"x": 1}', '"constructor": 1, "toString": 2',
              '"dup": 1, "dup": 2', '"n": 9223372036854775807', '"n": -9223372036854775809', '"n": 9007199254740993',
              '"s": "\\udfff"', '"s": "\\ud83d\\ude00"', '"f": 1.0', '"f": 1e400', '"0": null, "1": []']
    cases: list[tuple[str, str | bytes, str | None]] = []
    for fmt, folder in format_folders().items():
        example = next((folder / "examples" / "valid").glob("*.json")).read_text(encoding="utf-8").strip()
        assert example.startswith("{")
        for piece in pieces:
            cases.append((fmt, "{" + piece + ", " + example[1:], None))
            cases.append((fmt, example[:-1].rstrip() + ", " + piece + "}", None))
    expected = [{"ok": p["ok"], "errors": p["errors"]} for p in (fuzz.python_verdict(f, str(t), m) for f, t, m in cases)]
    assert any(not e["ok"] and len(e["errors"]) > 1 for e in expected), "some case must report several problems in order"
    _compare(_verdicts(ts_dist, cases), expected, [f"{f} {str(t)[:200]}" for f, t, _ in cases])


def test_equal_items_nested_past_the_depth_limit_are_too_deep_not_duplicates(golden_dist: Path, tmp_path: Path) -> None:
    """uniqueItems compares items by value down to the depth limit; past it each value is its own (Python's
    _same_key, TypeScript's sameKey). Two equal lists of lists at the limit are duplicates; one level deeper,
    each is refused as too deep and no duplicate is reported: Python's errors, from TypeScript."""
    def nested(levels: int, in_object: bool) -> Any:
        value: Any = []
        for _ in range(levels):
            value = {"a": value} if in_object else [value]
        return value

    # /anything/0 is two levels down; its innermost list is levels below that. Lists of lists, then objects.
    cases = [json.dumps({"name": "ab", "count": 1, "budget": 0, "anything": [nested(n, o), nested(n, o)]})
             for o in (False, True) for n in (126, 127)]
    expected = _golden_python_verdicts("constraints", cases, tmp_path)
    too_deep = "nesting deeper than 128 levels is not accepted"
    assert expected == [
        {"ok": False, "errors": [["/anything", "must not contain duplicate items"]]},
        {"ok": False, "errors": [[f"/anything/{i}" + "/0" * 127, too_deep] for i in (0, 1)]},
        {"ok": False, "errors": [["/anything", "must not contain duplicate items"]]},
        {"ok": False, "errors": [[f"/anything/{i}" + "/a" * 127, too_deep] for i in (0, 1)]},
    ], expected
    what = ["lists at the limit", "lists past it", "objects at the limit", "objects past it"]
    _compare(_verdicts(golden_dist, [("constraints", c, None) for c in cases]), expected, what)


def test_a_document_with_problems_gets_pythons_errors_whatever_json_parse_would_read_otherwise_in_it(
        golden_dist: Path, tmp_path: Path) -> None:
    """An invalid document's problems come from JSON.parse's tree unless the text holds something a plain
    object or number reads otherwise (runtime.ts readsAlike): keys of digits only or written with escapes,
    floats with an integral value or none, integers of more than 15 digits. Each beside a problem, where
    a message shows it ({value}) or the problems' order depends on it: Python's errors, in its order."""
    span = '{"start_index": 4, "end_index": 9, "score": 0.75, "max_score": 5, "started_at": "2024-01-15T10:30:00Z"}'
    doc = '{"role": "user", "content": "c", "spans": [%s, 5]}'  # (the 5: a problem in every case)
    values = ["7.0", "7e0", "7.5e1", "-0.0", "1e400", "-1e400", "1234567890123456", "-123456789012345678", "0.5000001", "7"]
    cases = [doc % span.replace('"score": 0.75', f'"score": {v}') for v in values]
    cases += [doc % span.replace('"score": 0.75', f'"end_index": {v}, "score": 0.75').replace('"end_index": 9, ', "")
              for v in ("3.0", "3e0", "30e-1", "1234567890123456", "-1234567890123456", "3")]
    # Keys the model does not name (each a problem) around a digit key, an escaped one, and plain ones.
    for keys in ('"10": 1, "b": 2, "2": 3', '"\\u0031\\u0030": 1, "b": 2, "\\u0032": 3', '"b\\"": 1, "a": 2', '"1a": 1, "0": 2, "": 3',
                 '"x": 1, "y": 2', '"x": 1.0, "9": 2'):
        cases.append(doc.replace('"role"', keys + ', "role"') % span)
        cases.append(doc % span.replace('"score"', keys + ', "score"'))
    expected = _golden_python_verdicts("compared_fields", cases, tmp_path)
    assert all(not e["ok"] for e in expected), [c for c, e in zip(cases, expected) if e["ok"]]
    shown = {m for e in expected for _, m in e["errors"]}
    assert {"span 0: score 7.0 is above max_score", "span 0: score 75.0 is above max_score"} <= shown, shown
    _compare(_verdicts(golden_dist, [("compared_fields", c, None) for c in cases]), expected, cases)


def test_an_engine_without_is_well_formed_tells_lone_surrogates_as_python_does(
        ts_dist: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """String.prototype.isWellFormed is ES2024; where the engine lacks it the runtime tests the text with
    its own pattern (LONE_SURROGATE). With the method deleted before the runtime loads, a text holding a
    lone surrogate (raw or escaped) still gets the surrogate error, and well-formed text (non-ASCII,
    surrogate pairs) is still valid: Python's verdicts, as on an engine that has the method."""
    import subprocess

    preload = tmp_path / "no_is_well_formed.cjs"
    preload.write_text("delete String.prototype.isWellFormed;\n", encoding="utf-8")
    monkeypatch.setenv("NODE_OPTIONS", f"--require {preload}")
    probe = subprocess.run(["node", "-e", "process.stdout.write(typeof ''.isWellFormed)"], capture_output=True, text=True)
    assert probe.stdout == "undefined", probe.stderr
    doc = json.loads((ROOT / "specs" / "chat_modality" / "examples" / "valid" / "agent_responds.json").read_text(encoding="utf-8"))
    lone = ["\ud800", "a\udc00b", "\udbff\udbff\udfff", "\udfff\ud800", "x\ud83d"]
    contents = lone + ["caf\u00e9 72\u00b0F", "\U0001F600 \u4e2d\u6587", "\U0001F600\U0001F600"]
    texts = [json.dumps({**doc, "content": c}, ensure_ascii=False) for c in contents]
    texts += [json.dumps({**doc, "content": "-"}).replace('"-"', piece) for piece in ('"\\ud800"', '"\\ud83d\\ude00"', '"\\udc00x"')]
    cases: list[tuple[str, str | bytes, str | None]] = [("chat_modality", t, None) for t in texts]
    expected = [{"ok": p["ok"], "errors": p["errors"]} for p in (fuzz.python_verdict("chat_modality", t) for t in texts)]
    from chatformats import _runtime as pyrt

    refused = [["", pyrt.SURROGATE_MESSAGE]]
    assert [e["errors"] for e in expected] == [refused] * len(lone) + [[]] * 3 + [refused, [], refused]
    _compare(_verdicts(ts_dist, cases), expected, [ascii(t[-60:]) for t in texts])


def test_the_readme_examples_compile_against_the_generated_package(tmp_path: Path) -> None:
    import re
    import textwrap

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Using the generated TypeScript", 1)[1].split("\n## ", 1)[0]
    codes = re.findall(r"^( *)```ts\n(.*?)^ *```", section, re.S | re.M)
    assert len(codes) >= 2, "the API example and the behaviour example"
    source = GENERATED / "typescript"
    write_tree({p.relative_to(source).as_posix(): p.read_text(encoding="utf-8") for p in source.rglob("*") if p.is_file()}, tmp_path)
    # A snippet shows results it leaves unused (`const out = ...`): the one option it is not held to.
    config = json.loads((tmp_path / "tsconfig.json").read_text(encoding="utf-8"))
    config["compilerOptions"]["noUnusedLocals"] = False
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    for i, (_, code) in enumerate(codes):
        example = textwrap.dedent(code).replace('"@chatspec/chatformats"', '"./index.js"')
        (tmp_path / "src" / f"readme_example_{i}.ts").write_text(
            "declare const text: string;\ndeclare const console: { log(...data: unknown[]): void };\n" + example + "export {};\n", encoding="utf-8")
    dist = compile_package(tmp_path)
    assert all((dist / f"readme_example_{i}.js").is_file() for i in range(len(codes)))


def test_the_differential_fuzzer_compares_the_typescript_and_reports_a_difference(ts_dist: Path) -> None:
    import conformance

    reports = fuzz.run(60, 0, conformance.Built(GENERATED, ("chat_modality",), {"typescript": ts_dist}), formats=["chat_modality"])
    assert reports and reports[0].cases >= 60 and not reports[0].disagreements, reports[0].disagreements[:3]
    py = {"ok": False, "errors": [["/role", "must be one of: user, assistant"]], "keywords": ["enum"]}
    assert fuzz.disagreement(False, py, False, {"TypeScript": {"ok": False, "errors": [["/role", "must be one of: user, assistant"]]}}) is None
    assert "TypeScript" in (fuzz.disagreement(False, py, False, {"TypeScript": {"ok": False, "errors": [["/role", "other"]]}}) or "")
    assert "TypeScript" in (fuzz.disagreement(False, py, False, {"TypeScript": {"crash": "TypeError: x"}}) or "")


def test_numbers_in_messages_are_written_as_python_writes_them(ts_dist: Path) -> None:
    """{value} of a number: Python's repr for floats (1.0, 1e+16, 1e-05, -0.0), exact digits for integers."""
    import random
    import struct

    rng = random.Random(17)
    floats = [struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(3000)]
    floats += [rng.uniform(-1e6, 1e6) for _ in range(1000)] + [rng.randint(-10**6, 10**6) / 8 for _ in range(500)]
    floats += [0.0, -0.0, 1.0, 1e16, 1e15, 123456789012345678.0, 1e-4, 1e-5, 0.1, 5e-324, 1.7976931348623157e308, 2.0**53, 2.0**63]
    floats = [f for f in floats if f == f and abs(f) != float("inf")]
    texts = [json.dumps(f) for f in floats] + ["12345678901234567890123", "-0", "1E2", "1.50", "-0.0", "1e400"]
    shown = runtime_map(ts_dist, "rt.show(rt.decodeJSON('[' + t + ']')[0])", texts)
    from chatformats import _runtime as pyrt

    expected = [pyrt._show(json.loads(t)) for t in texts]
    wrong = [(t, e, f) for t, e, f in zip(texts, expected, shown) if e != f]
    assert not wrong, wrong[:10]


def test_an_integer_built_in_code_at_the_int64_edges_gets_pythons_verdict(ts_dist: Path) -> None:
    # A number built in code (validate() of an object, not text, which is read as a bigint) reaches the int64
    # check as an engine number: 2^63 is one past int64 and -(2^63) is its least value, as in Python and Go.
    values = [2**63, -(2**63), 2**64, -(2**63) * 2, 2**62, 9007199254740993, -1]
    shown = runtime_map(ts_dist, "(() => { const c = new rt.Context(t); rt.integer({type: 'T', int64: 'I'})(t, c); "
                        "return c.errors.map((e) => e.message).join(); })()", [float(v) for v in values])
    assert shown == ["I" if not -(2**63) <= float(v) <= 2**63 - 1 else "" for v in values], shown


def test_a_union_by_json_kind_writes_each_value_with_its_own_variant_and_refuses_a_kind_it_has_none_for(ts_dist: Path) -> None:
    # encodeByKind: an integer goes to the integer variant where there is one, else to the number variant; a value
    # of a kind no variant takes (a built object holding the wrong thing) is a TypeError, never another variant's
    # encoding of it.
    both = "{integer: (v) => 'integer', number: (v) => 'number', string: (v) => 'string'}"
    numbers = "{number: (v) => 'number', string: (v) => 'string'}"
    expression = (f"[{both}, {numbers}].map((encoders) => {{ try {{ return rt.encodeByKind(t, encoders); }} "
                  "catch (e) { return e instanceof TypeError ? 'TypeError' : String(e); } })")
    values = [5, 5.5, -0.0, "x", True, None, [1], {"a": 1}]
    assert runtime_map(ts_dist, expression, values) == [
        ["integer", "number"], ["number", "number"], ["integer", "number"], ["string", "string"],
        ["TypeError", "TypeError"], ["TypeError", "TypeError"], ["TypeError", "TypeError"], ["TypeError", "TypeError"],
    ]


def test_a_number_built_as_json_number_has_the_json_kind_python_gives_its_value(ts_dist: Path) -> None:
    # JsonNumber is exported: a document built in code may hold one of any text, not only the integral or
    # out-of-range ones the reader makes. Its JSON kind (which picks a union's variant) is Python's for the
    # same number: "integer" only when it is finite and whole, so 1.5 is never sent to an integer variant.
    from chatformats import _runtime as pyrt

    texts = ["1", "-0", "1.0", "1e0", "1.5", "-2.25", "1e-7", "12345678901234567890123", "1.5e300", "1e400", "-1e400"]
    found = runtime_map(ts_dist, "rt.jsonKind(new rt.JsonNumber(t))", texts)
    assert found == [pyrt._json_kind(json.loads(t)) for t in texts], found


def test_string_lengths_count_code_points_as_python_does_at_every_surrogate_edge(ts_dist: Path) -> None:
    # minLength and maxLength count code points: a pair is one, at the edges of both halves' ranges too
    # (U+10000 is D800 DC00, U+10FFFF is DBFF DFFF); a lone half, which JSON text may hold escaped, is one.
    texts = ["", "a", "\U00010000", "\U0010ffff", "\U000103ff", "\U00010400", "\U0001f600", "a\U00010000b\U0010ffff",
             "\ud800", "\udc00", "\udbff\ud800", "\udc00\ud800", "\ud7ff\ue000"]
    assert runtime_map(ts_dist, "rt.codePoints(t)", texts) == [len(t) for t in texts]


def test_json_syntax_errors_get_pythons_messages_line_and_column(ts_dist: Path) -> None:
    texts = ["", " ", "[", "{", "[1,]", '{"a":1,}', '{"a" 1}', "[1 2]", '"abc', '"a\\', '"a\\x"', '"\\u12"', '"\\u0041',
             '"\\u\x1012"', '"\\uD83D\\u12"', "nul", "tru", "NaN", "-Infinity", "Infinity", "[1, NaN]", "-", "-a", "01", "1.",
             "1e", "1e+", "[1] x", '"\u00e9" x', '"\U0001F600" x', "\n\n  x", '"a\x01"', '{"a":}', "{1:2}", "[}", "{]",
             "[1,,2]", "{,}", '{"a"}', '{"a":1 "b":2}', "[" * 5 + "]" * 6, '{"a": [1, 2}', "\ufeff{}", "[" + "1" * 5000 + ", x]",
             "[" + "1" * 5000 + ", NaN]", "[" + "1" * 5000 + "]", '["\\udc00", x]', '["\\ud800"]', '"\\ud83d\\ude00"', "\u2028[]"]
    cases: list[tuple[str, str | bytes, str | None]] = [("chat_event", t, None) for t in texts]
    expected = [{"ok": p["ok"], "errors": p["errors"]} for p in (fuzz.python_verdict("chat_event", t) for t in texts)]
    assert sum(1 for e in expected if e["errors"] and e["errors"][0][1].startswith("invalid JSON: Expecting")) > 15
    _compare(_verdicts(ts_dist, cases), expected, [repr(t[:60]) for t in texts])


def test_member_of_reads_each_item_of_its_pool_a_bounded_number_of_times_on_both_paths(ts_dist: Path) -> None:
    """member_of looks names up in a set made once per document, on the fast path (JSON.parse's
    tree) and on the exact walk: a document of n people and n messages, each speaker in people,
    reads the people list's items O(n) times, not once per message (a scan per check is n^2).
    The reads are counted by a Proxy on the list, not timed."""
    import subprocess

    code = """
const mod = await import(process.argv[1]);
const n = Number(process.argv[2]);
let reads = 0;
const counted = (items) => new Proxy(items, { get(t, k, r) { if (typeof k === "string" && /^[0-9]+$/.test(k)) reads++; return Reflect.get(t, k, r); } });
const people = Array.from({ length: n }, (_, i) => `person${i}`);
const text = JSON.stringify({ id: "c", conversation: { source: "s", people, user: "person0",
  conversation: people.map((p) => ({ speaker: p, content: "hi", time: "2024-01-15T12:00:00Z" })) } });
const parse = JSON.parse;
JSON.parse = (t) => { const v = parse(t); v.conversation.people = counted(v.conversation.people); return v; };
const doc = mod.parseStructuredConversationFromJSON(text);  // the fast path reads JSON.parse's tree
JSON.parse = parse;
const fast = reads;
reads = 0;
const value = JSON.parse(text);
value.conversation.people = counted(value.conversation.people);
mod.parseConversationDocument(value);  // a value, not text: the exact walk
process.stdout.write(JSON.stringify({ fast, exact: reads, speakers: doc.conversation.conversation.length }));
"""
    n = 2_000
    done = subprocess.run(["node", "--input-type=module", "-e", code, (ts_dist / "structured_conversation.js").as_uri(), str(n)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["speakers"] == n
    # Each path reads every item a few times (its own check, the set); a scan per message reads n^2 / 2.
    assert 0 < found["fast"] <= 4 * n and 0 < found["exact"] <= 4 * n, found


def test_every_malformed_text_of_the_syntax_corpus_gets_pythons_errors(ts_dist: Path) -> None:
    """tests/json_syntax.py: cuts at every byte of two documents, bad escapes, control characters,
    trailing commas, bad numbers, NaN, each deep inside nesting (past Python's recursion limit
    too) and after a long integer; the errors must be Python's, word for word."""
    import json_syntax

    cases = json_syntax.texts()
    expected = [{"ok": p["ok"], "errors": p["errors"]} for p in (hostile.python_verdict(f, t) for f, t in cases)]
    _compare(_verdicts(ts_dist, [(f, t, None) for f, t in cases]), expected, [repr(t[:120]) for _, t in cases])


def test_a_dropped_long_integer_is_found_wherever_its_digits_fall_against_the_sampled_places(ts_dist: Path) -> None:
    """runText looks for a run of digits past the limit (which JSON.parse would drop unread under a duplicate key)
    only at every MAX_INT_DIGITS-th character and measures a run met there: a run of 4,301 digits with a sampled
    place (the first, second or third) on its first, second, third, middle, last-but-one or last digit is refused,
    one of 4,300 at the same places accepted, each as Python gives it (string and bytes)."""
    limit = 4300
    cases: list[tuple[str, str | bytes, str | None]] = []
    base = len('{"session_id": "", "session_id": ')
    for digits in (limit, limit + 1):
        for place in (0, 1, 2, limit // 2, digits - 2, digits - 1):
            for multiple in (1, 2, 3):  # the first sampled place, or a later one (a wrong stride misses those)
                pad = multiple * limit - place - base  # the run starts at base + pad
                if pad < 0:
                    continue
                text = f'{{"session_id": "{"a" * pad}", "session_id": {"7" * digits}, "session_id": "s", "role": "user"}}'
                assert text.index("7" * digits) + place == multiple * limit
                cases += [("chat_event", text, None), ("chat_event", text.encode(), None)]
    expected = [hostile.python_verdict("chat_event", t if isinstance(t, bytes) else t.encode()) for _, t, _ in cases]
    half = len(cases) // 2  # the runs of 4,300 digits, then those of 4,301
    assert half > 20 and [e["ok"] for e in expected] == [True] * half + [False] * half
    _compare(_verdicts(ts_dist, cases), [{"ok": e["ok"], "errors": e["errors"]} for e in expected],
             [f"{len(t)} characters" for _, t, _ in cases])


def test_problems_past_max_errors_are_only_counted(ts_dist: Path) -> None:
    """The exact walk's Context keeps the first MAX_ERRORS problems and a count: a million
    problems, at items and below values, leave no array, set or map in it longer than that;
    and the benchmark's document of 10^6 bad tags lists 101 problems."""
    import subprocess

    import bench_hostile

    code = """
import { readFileSync } from "node:fs";
const rt = await import(process.argv[1]);
const sc = await import(process.argv[2]);
const ctx = new rt.Context(new Map([["tags", ["x"]], ["people", ["ann"]]]));
for (let i = 0; i < 1000000; i++) {
  ctx.path.push(i % 7);
  ctx.error("item {index} is not a number", undefined, "x");
  ctx.error("missing required field '{field}'", "id");
  ctx.path.pop();
}
const sizes = {};
for (const [name, v] of Object.entries(ctx)) {
  if (Array.isArray(v)) sizes[name] = v.length;
  else if (v instanceof Set || v instanceof Map) sizes[name] = v.size;
}
let listed = 0, last = "";
try {
  sc.parseStructuredConversationFromJSON(new Uint8Array(readFileSync(0)));
} catch (e) {
  listed = e.errors.length;
  last = e.errors[e.errors.length - 1].message;
}
process.stdout.write(JSON.stringify({ count: ctx.count, reported: ctx.reported().length, sizes, listed, last }));
"""
    case = next(c for c in bench_hostile.cases() if c.name == "10^6 errors (bad tags)")
    done = subprocess.run(["node", "--input-type=module", "-e", code, (ts_dist / "runtime.js").as_uri(),
                           (ts_dist / "structured_conversation.js").as_uri()], input=case.data, capture_output=True)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    found = json.loads(done.stdout)
    assert found["count"] == 2_000_000 and found["reported"] == 101
    assert found["sizes"] and max(found["sizes"].values()) <= 100, found["sizes"]
    assert (found["listed"], found["last"]) == (101, f"... and {1_000_000 - 100} more problems")


def test_a_built_integer_past_2_53_is_the_rounded_number_and_validate_judges_that_number(golden_dist: Path) -> None:
    """The README's TypeScript limit, pinned: the verdict on text is exact (the text's integers are read as
    bigints), but the built value is a number, rounded past 2^53 as JSON.parse rounds it. Where the rounded
    number breaks a check the text passed (a multiple of 5 rounded to a non-multiple, two distinct integers
    rounded to one), validate() of the built value judges the number it holds and says so, as JSON Schema
    does for that number: it never calls the rounded value valid, nor the text invalid."""
    import subprocess

    from jsonschema import Draft202012Validator

    spec = json.loads((GOLDEN / "constraints" / "spec.json").read_text(encoding="utf-8"))
    base = json.loads((GOLDEN / "constraints" / "examples" / "valid" / "only_the_required_fields.json").read_text())
    texts = {"batch": '{"batch": 9007199254740995}', "values": '{"values": [9007199254740993, 9007199254740992]}'}
    cases = {field: json.dumps(base)[:-1] + ", " + extra[1:] for field, extra in texts.items()}
    for field, text in cases.items():  # the oracle: both texts are valid JSON Schema
        assert not list(Draft202012Validator(spec).iter_errors(json.loads(text))), field
    code = """
const sc = await import(process.argv[1]);
const out = {};
for (const [field, text] of Object.entries(JSON.parse(process.argv[2]))) {
  const doc = sc.parseConstraintsFromJSON(text);
  let errors = [];
  try { sc.validateConstrained(doc); } catch (e) { errors = e.errors; }
  out[field] = { built: JSON.stringify(doc[field]), errors };
}
process.stdout.write(JSON.stringify(out));
"""
    done = subprocess.run(["node", "--input-type=module", "-e", code, (golden_dist / "constraints.js").as_uri(),
                           json.dumps(cases)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found["batch"] == {"built": "9007199254740996",
                              "errors": [{"path": "/batch", "message": "must be a multiple of 5"}]}
    assert found["values"]["built"] == "[9007199254740992,9007199254740992]"
    assert [e["path"] for e in found["values"]["errors"]] == ["/values"], found["values"]
    rounded = dict(base, batch=9007199254740996, values=[9007199254740992, 9007199254740992])
    assert {e.validator for e in Draft202012Validator(spec).iter_errors(rounded)} == {"multipleOf", "uniqueItems"}


def test_pointers_escape_tilde_and_slash_and_values_show_as_python_shows_them(ts_dist: Path) -> None:
    # A problem's pointer under a key holding "~" or "/" (RFC 6901: ~0, ~1), at the key and below it, and {field}
    # and {value} of every JSON kind, against the Python runtime's Context.
    from chatformats import _runtime as pyrt

    keys = ["a/b~c", "~1", "/", "~", "plain", ""]
    values: list[Any] = [True, False, None, [1], {"a": 1}, "s", 1.5]
    expression = ("(() => { const c = new rt.Context(null); c.child(t[0], t[1], (v, c) => { c.error('{field} is {value}', undefined, v); "
                  "c.error('{field} below', [t[0], '0']); return rt.INVALID; }); return c.reported().map((e) => [e.path, e.message]); })()")
    cases = [[k, v] for k in keys for v in values]
    found = runtime_map(ts_dist, expression, cases)

    def python(key: str, value: Any) -> list[list[str]]:
        ctx = pyrt.Context(None)

        def parser(v: Any, c: Any) -> Any:
            c.error("{field} is {value}", "k", value=v)
            c.error("{field} below", "k", (key, "0"))
            return pyrt.INVALID

        ctx.child(key, value, parser)
        return [[e.path, e.message] for e in ctx.reported()]

    assert found == [python(k, v) for k, v in cases]
    assert found[0] == [["/a~1b~0c", "a/b~c is true"], ["/a~1b~0c/a~1b~0c/0", "a/b~c below"]]


def test_the_automaton_reads_code_points_as_pythons_re_does(ts_dist: Path) -> None:
    # rt.Automaton walks a string by code point: a surrogate pair is one, a lone half is one, and a code point past
    # ASCII finds its class by binary search. Held to re.search on the pattern as written (Python reads the same
    # text by code point).
    from generator.automaton import compile_pattern
    from generator.pyregex import to_python

    patterns = ["^.$", "^..$", "^[😀-😂]+$", "^[^a]{2}$", "^[é٣\u3000]$", "😁", "^\\w+$", "^a.b$", "[\U0010ffff]"]
    values = ["", "a", "é", "😀", "😁😂", "😀a", "a😀b", "\ud83d", "\ude00", "\ud83dx", "x\ud83d", "\ude00\ud83d", "\ud800",
              "\U0010ffff", "٣", "\u3000", "ab", "\ud83d\ud83d", "😃"]
    pairs = [(p, v) for p in patterns for v in values]
    found = runtime_map(ts_dist, "new rt.Automaton(t[0]).test(t[1])", [[compile_pattern(p).encode(), v] for p, v in pairs])
    expected = [re.search(to_python(p), v) is not None for p, v in pairs]
    wrong = [(p, v, e) for (p, v), e, f in zip(pairs, expected, found) if e != f]
    assert not wrong, wrong
    assert any(expected) and not all(expected)


def test_values_built_in_code_are_written_as_json_or_refused_with_a_type_error(ts_dist: Path) -> None:
    # encodeJSON (toJSON of free-form values and unions' unknown variants) writes what JSON can hold, Maps in their
    # order, bytes as base64, integers past 2^53 as the integer they hold; a value that holds itself, a number no
    # JSON holds and a function are TypeErrors, as json.dumps refuses them in Python. encodeByTag writes a union
    # value by its tag's own encoder and refuses any other tag (an inherited name such as toString included).
    expression = """(() => {
      const tried = (f) => { try { return f(); } catch (e) { return e instanceof TypeError ? "TypeError: " + e.message : "other: " + String(e); } };
      const loop = [1]; loop.push({ back: loop });
      const shared = [1];
      const enc = { a: (v) => "a:" + v.n };
      return [
        tried(() => rt.encodeJSON(loop)),
        tried(() => rt.encodeJSON({ nested: [loop] })),
        rt.encodeJSON([shared, { s: shared }]),
        rt.encodeJSON(new Map([["b", 1], ["a", new rt.JsonNumber("1.50")]])),
        rt.encodeJSON({ u: new Uint8Array([0, 255, 1]), big: 12345678901234567890n, n: 2 ** 60, gone: undefined, s: "é\\"", t: true, z: null }),
        tried(() => rt.encodeJSON([NaN])), tried(() => rt.encodeJSON({ x: -Infinity })), tried(() => rt.encodeJSON([() => 1])),
        rt.encodeByTag({ kind: "a", n: 1 }, "kind", enc),
        tried(() => rt.encodeByTag({ kind: "b" }, "kind", enc)),
        tried(() => rt.encodeByTag({ kind: "toString" }, "kind", enc)),
        tried(() => rt.encodeByTag("a", "kind", enc)),
        JSON.stringify(rt.encodeByTag({ kind: "b", x: 2 }, "kind", enc, true)),
        tried(() => rt.encodeByTag({ kind: 1 }, "kind", enc, true)),
      ];
    })()"""
    [found] = runtime_map(ts_dist, expression, [0])
    assert found == [
        "TypeError: Circular reference detected",
        "TypeError: Circular reference detected",
        "[[1],{\"s\":[1]}]",
        '{"b":1,"a":1.50}',
        '{"u":"AP8B","big":12345678901234567890,"n":1152921504606846976,"s":"é\\"","t":true,"z":null}',
        "TypeError: NaN is not valid JSON",
        "TypeError: -Infinity is not valid JSON",
        "TypeError: a function has no JSON form",
        "a:1",
        'TypeError: no variant of the union has "kind" = "b"',
        'TypeError: no variant of the union has "kind" = "toString"',
        'TypeError: no variant of the union has "kind" = undefined',
        '{"kind":"b","x":2}',
        'TypeError: no variant of the union has "kind" = 1',
    ], found


def test_free_form_values_built_in_code_hold_json_only_as_python_says(ts_dist: Path) -> None:
    # anyJSON on a value built in code (validate()): what JSON cannot hold (a function, undefined, a bigint, NaN, an
    # infinity, a JsonNumber no float holds) is the value's type problem at the value itself, as in Python's
    # any_json; Maps and JsonNumbers of any size are JSON.
    expression = """(() => {
      const run = (v) => { const c = new rt.Context(v); const r = rt.anyJSON({ type: "T" })(v, c); return [r === rt.INVALID, c.errors.map((e) => [e.path, e.message])]; };
      return [
        run({ a: [1, () => 1] }), run({ a: [undefined] }), run([1n]), run([NaN]), run({ x: -Infinity }),
        run([new rt.JsonNumber("1e400")]), run([new rt.JsonNumber("123456789012345678901234567890")]),
        run(new Map([["k", [new Map([["j", null]])]]])), run({ a: { b: [true, "s", 1.5] } }),
      ];
    })()"""
    [found] = runtime_map(ts_dist, expression, [0])
    refused = [True, [["", "T"]]]
    assert found == [refused] * 6 + [[False, []]] * 3, found


def test_integers_of_up_to_fifteen_digits_are_read_as_numbers(ts_dist: Path) -> None:
    # The reader keeps an integer literal as a JsonNumber only past 15 digits (where a double may not hold it): one of
    # 15 digits is a plain number in a free-form value, as the user reads it (metadata.n === 123456789012345).
    texts = ["123456789012345", "-999999999999999", "100000000000000", "-0", "1234567890123456", "-1000000000000000"]
    found = runtime_map(ts_dist, "(() => { const v = rt.decodeJSON(t); return [typeof v, String(v)]; })()", texts)
    assert found == [["number", "123456789012345"], ["number", "-999999999999999"], ["number", "100000000000000"], ["number", "0"],
                     ["object", "1234567890123456"], ["object", "-1000000000000000"]], found

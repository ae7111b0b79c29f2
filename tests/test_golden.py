"""Golden cases: one spec per edge, its expected output and IR locked byte for byte.

Update after a reviewed generator change with `make golden` (refused when CI is set).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import GENERATED, GOLDEN, ROOT, generate_cached
from test_keyword_matrix import PROBES, asserting_keywords
from generator import invisible, ir
from generator.core import generate, ir_json, shared_files
from generator.load import LoadedSpec, load_spec
from generator.lower import APPLIED_ONLY, lower

CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
FIX = "run `make golden` to accept the new output after reviewing it"


def _load(case: str) -> LoadedSpec:
    return load_spec(GOLDEN / case, ROOT)


def _expected_tree(case: str) -> dict[str, str]:
    folder = GOLDEN / case / "expected"
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*")) if p.is_file()}


def _write_tree(folder: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")


def test_there_are_golden_cases() -> None:
    assert {"keywords", "name_collisions", "dashed_wire_names", "nested_unions", "optional_vs_nullable",
            "odd_enum_values", "hostile_descriptions", "constraints"} <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_golden_output(case: str, update_golden: bool) -> None:
    spec = _load(case)
    produced = {p: t for p, t in generate([spec]).items() if p not in shared_files()}
    ir_text = ir_json(lower(spec))
    if update_golden:
        folder = GOLDEN / case / "expected"
        for old in sorted(folder.rglob("*"), reverse=True) if folder.exists() else []:
            old.unlink() if old.is_file() else old.rmdir()
        _write_tree(folder, produced)
        (GOLDEN / case / "ir.json").write_text(ir_text, encoding="utf-8")
        return
    expected = _expected_tree(case)
    assert sorted(produced) == sorted(expected), f"golden case {case}: the set of files changed; {FIX}"
    for path in produced:
        assert produced[path] == expected[path], f"golden case {case}: {path} changed; {FIX}"
    assert ir_text == (GOLDEN / case / "ir.json").read_text(encoding="utf-8"), f"golden case {case}: ir.json changed; {FIX}"


_RUN_EXAMPLES = r"""
import importlib, json, sys
from pathlib import Path
from driver import _functions
results = []
for case, folder in json.loads(sys.argv[1]):
    mod = importlib.import_module("chatformats." + case)
    parse = getattr(mod, "parse_" + case + "_from_json")
    for p in sorted(Path(folder, "examples", "valid").glob("*.json")):
        try:
            value = parse(p.read_text(encoding="utf-8"))
            # The root's round trip, with its own functions: a model's methods, or an alias's (tests/python/driver.py).
            from_dict, _, to_dict, _, validate = _functions(mod, parse.__annotations__["return"])
            from_dict(to_dict(value))
            validate(value)
            results.append([str(p), "accepted", None])
        except mod.ValidationError as exc:
            results.append([str(p), "rejected", [[e.path, e.message] for e in exc.errors]])
    for p in sorted(Path(folder, "examples", "invalid").glob("*.json")):
        data = json.loads(p.read_text(encoding="utf-8"))["data"]
        try:
            parse(json.dumps(data))
            results.append([str(p), "accepted", None])
        except mod.ValidationError as exc:
            results.append([str(p), "rejected", [[e.path, e.message] for e in exc.errors]])
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def golden_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden cases generated together as one chatformats package, outside the repo."""
    folder = tmp_path_factory.mktemp("golden_out")
    files = generate_cached([_load(case) for case in CASES])
    _write_tree(folder, {p: t for p, t in files.items() if p.startswith("python/")})
    return folder / "python"


DRIVER_FOLDER = Path(__file__).resolve().parent / "python"  # tests/python/driver.py, the drivers' root functions


def test_golden_examples_through_generated_python(golden_package: Path) -> None:
    # python -S: the generated modules need nothing but the standard library.
    args = json.dumps([[case, str(GOLDEN / case)] for case in CASES])
    done = subprocess.run([sys.executable, "-S", "-c", _RUN_EXAMPLES, args], capture_output=True, text=True,
                          cwd=golden_package, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(golden_package), str(DRIVER_FOLDER)])})
    assert done.returncode == 0, done.stderr
    results = {path: (verdict, errors) for path, verdict, errors in json.loads(done.stdout)}
    assert len(results) >= 2 * len(CASES)
    for path, (verdict, errors) in results.items():
        if "/valid/" in path:
            assert verdict == "accepted", f"{path}: {errors}"
        else:
            expected = json.loads(Path(path).read_text(encoding="utf-8"))["errors"]
            assert verdict == "rejected", path
            assert [{"path": p, "message": m} for p, m in errors] == expected, path


def _unstated_rule_messages(case: str) -> list[re.Pattern[str]]:
    """The messages of the case's rules that standard JSON Schema cannot state (member_of, compare), as patterns
    with their placeholders ({index}, {value}, ...) matching anything."""
    rules = [r for d in lower(_load(case)).definitions if isinstance(d, ir.Model) for r in d.rules if not r.exportable]
    return [re.compile(".*".join(re.escape(part) for part in re.split(r"\{\w+\}", r.message)), re.S) for r in rules]


def test_golden_examples_get_the_same_verdicts_from_jsonschema_on_the_exported_schema() -> None:
    # The independent oracle: every valid golden example passes the exported schema, every invalid one fails
    # it, but for one whose every error is a rule JSON Schema cannot state: the exported schema leaves that out.
    import conformance

    wrong = []
    for case in CASES:
        schema = json.loads(generate([_load(case)], targets=["jsonschema"])[f"jsonschema/{case}.schema.json"])
        oracle = conformance.oracle(schema)  # (format as chatspec asserts it: the formats jsonschema checks its own way)
        unstated = _unstated_rule_messages(case)
        for kind in ("valid", "invalid"):
            for path in sorted((GOLDEN / case / "examples" / kind).glob("*.json")):
                data = json.loads(path.read_text(encoding="utf-8"))
                errors = list(oracle.iter_errors(data if kind == "valid" else data["data"]))
                by_unstated_rules = kind == "invalid" and all(any(p.fullmatch(e["message"]) for p in unstated) for e in data["errors"])
                if bool(errors) != (kind == "invalid" and not by_unstated_rules):
                    wrong.append(f"{case}/{kind}/{path.stem}: jsonschema says {[e.message for e in errors] or 'valid'}")
    assert not wrong, "\n".join(wrong)


def test_no_generated_file_holds_a_character_that_hides_or_reorders_text() -> None:
    # Trojan Source (generator/invisible.py): trojan_source puts such characters into every kind of
    # spec text; each target writes them as escapes (literals, docstrings) or visibly (comments, docs).
    files = {**generate_cached([_load(case) for case in CASES]), **{p.relative_to(GENERATED).as_posix(): p.read_text(encoding="utf-8")
                                                             for p in GENERATED.rglob("*") if p.is_file() and p.suffix != ".pyc"}}
    raw = []
    for path, text in sorted(files.items()):
        at = invisible.first(text)
        if at is not None:
            raw.append(f"{path}:{text.count(chr(10), 0, at) + 1}: {invisible.describe(text[at])}")
    assert not raw, "\n".join(raw[:20])


def test_docstrings_hold_escapes_that_read_back_as_the_spec_text() -> None:
    # The docstrings hold each such character as its escape, which is the character in the string:
    # every description reads back exactly as the spec wrote it.
    import ast

    spec = json.loads((GOLDEN / "trojan_source" / "spec.json").read_text(encoding="utf-8"))
    defs = spec["$defs"]
    texts = {spec["description"], defs["Message"]["description"], defs["Kind"]["description"], defs["Label"]["description"],
             *(p["description"] for p in defs["Message"]["properties"].values() if "description" in p)}
    files = generate([_load("trojan_source")], targets=["python", "pydantic"])
    for path in ("python/chatformats/trojan_source.py", "pydantic/chatformats_pydantic/trojan_source.py"):
        assert invisible.first(files[path]) is None, path
        strings = {n.value.strip() for n in ast.walk(ast.parse(files[path])) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        strings |= {line for s in strings for line in s.split("\n\n")}  # the module docstring: title line, then the description
        assert texts <= strings, (path, texts - strings)


def test_the_constraints_case_has_an_example_at_and_past_every_boundary() -> None:
    # Each invalid example breaks exactly one check, so a runtime off by one on any
    # bound fails it alone; each keyword is broken at least once.
    folder = GOLDEN / "constraints" / "examples"
    broken = []
    for path in sorted((folder / "invalid").glob("*.json")):
        errors = json.loads(path.read_text(encoding="utf-8"))["errors"]
        assert len(errors) == 1, f"{path.name} breaks more than one check"
        broken.append(errors[0]["path"])
    spec = json.loads((GOLDEN / "constraints" / "spec.json").read_text(encoding="utf-8"))
    fields = spec["$defs"]["Constrained"]["properties"]
    assert set(fields) <= {path.split("/")[1] for path in broken}, sorted(set(fields) - {path.split("/")[1] for path in broken})
    # The keywords come from the meta-schema (tests/test_keyword_matrix.py): every one that bounds a value a
    # typed attribute can hold past it is used here, at and past its bound.
    keywords = {k for schema in fields.values() for k in schema}
    bounding = {k for k, variants in PROBES.items() if any(v.built for v in variants)}
    # (A keyword only a schema applied as written takes is held just inside and just past its bound by the
    # keyword matrix, and in every language against jsonschema by tests/golden/applied_as_written.)
    bounding -= APPLIED_ONLY | {"$ref"}
    assert bounding <= keywords, sorted(bounding - keywords)
    assert keywords - {"description", "x-messages"} <= asserting_keywords()
    assert len(list((folder / "valid").glob("*.json"))) >= 3


def test_golden_python_passes_mypy_strict(golden_package: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path), "-p", "chatformats"],
                          capture_output=True, text=True, cwd=golden_package, env={**os.environ, "MYPYPATH": str(golden_package)})
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_update_golden_is_refused_in_ci() -> None:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(Path(__file__)),
                           "--update-golden", "-k", "test_golden_output"],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, "CI": "true"})
    assert done.returncode != 0
    assert "refusing to update golden files" in done.stdout + done.stderr


def test_committed_generated_tree_has_no_golden_formats() -> None:
    # Golden specs live under tests/, never in the shipped package.
    assert not any((GENERATED / "python" / "chatformats" / f"{case}.py").exists() for case in CASES)


_DEEP = """
from chatformats import nested_unions as m
body = "leaf"
for _ in range(10_000):
    body = [{"kind": "ref", "inner": body}]
try:
    m.Envelope.from_dict({"body": body})
except m.ValidationError as exc:
    print(exc.errors[0].path.count("/"), exc.errors[0].message)
"""


def test_ten_thousand_levels_of_a_recursive_spec_are_a_validation_error(golden_package: Path) -> None:
    # nested_unions is recursive (Body -> RefPart -> Body): depth is bounded, never a RecursionError.
    done = subprocess.run([sys.executable, "-S", "-c", _DEEP], capture_output=True, text=True, cwd=golden_package,
                          env={**os.environ, "PYTHONPATH": str(golden_package)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "129 nesting deeper than 128 levels is not accepted"

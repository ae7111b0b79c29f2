"""The Go and TypeScript test drivers tell a parse that wrongly accepts from a correct rejection (issue 33).

The conformance tests compare each driver's verdicts with the spec's: an invalid document must be refused
with the spec's errors. A driver that validates what a parse accepted, and reports the validator's errors
as the verdict, turns a parse that wrongly accepts into a correct rejection: the errors are the right
ones, only found by the wrong function. So a copy of the generated package gets a parse that accepts what
it must refuse, and the driver must call that a crash ("parse accepted, ..."), never a rejection, while
the same invalid example through the unplanted package is the spec's rejection."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from conftest import GENERATED, GOLDEN, ROOT, format_folders, golden_generated

FORMAT = "droidlet_chat"
# Its only error is a bound ("timestamp": -1, "must be >= 0"), which each plant below lets through.
EXAMPLE = json.loads((ROOT / "specs" / FORMAT / "examples" / "invalid" / "negative_timestamp.json").read_text(encoding="utf-8"))
TEXT = json.dumps(EXAMPLE["data"])
REJECTION = {"ok": False, "errors": [[e["path"], e["message"]] for e in EXAMPLE["errors"]]}


def _plant(path: Path, pattern: str, replacement: str) -> None:
    text = path.read_text(encoding="utf-8")
    planted, count = re.subn(pattern, replacement, text, flags=re.M)
    assert count == 1, f"{path}: the plant's pattern {pattern!r} matched {count} times (the generated code changed its shape)"
    path.write_text(planted, encoding="utf-8")


def _crash(verdict: dict[str, Any]) -> str:
    return str(verdict.get("crash", ""))


def test_the_typescript_driver_reports_a_fast_path_that_wrongly_accepts_as_a_crash(tmp_path: Path) -> None:
    from typescript_driver import TSC, compile_package, node_available, run_driver, write_tree

    if not node_available() or not TSC.is_file():
        pytest.skip("node and the pinned tsc are needed (make test installs tsc)")
    source = GENERATED / "typescript"
    files = {p.relative_to(source).as_posix(): p.read_text(encoding="utf-8") for p in source.rglob("*") if p.is_file()}
    clean, planted = tmp_path / "clean", tmp_path / "planted"
    write_tree(files, clean)
    write_tree(files, planted)
    # The audit's kind of bug: the fast path drops the timestamp's minimum, so parse builds what the exact
    # walk (which validate runs) refuses.
    _plant(planted / "src" / f"{FORMAT}.ts", r'(w\d+\) \|\| )(w\d+) < 0(\) return rt\.UNSURE;)', r"\1false\3")
    assert run_driver(compile_package(clean), [(FORMAT, TEXT, None)]) == [REJECTION]
    [verdict] = run_driver(compile_package(planted), [(FORMAT, TEXT, None)])
    assert _crash(verdict).startswith("parse accepted, then:"), f"a parse that wrongly accepts was reported as {verdict}"
    assert "must be >= 0" in _crash(verdict)


def test_the_go_driver_reports_a_parse_that_wrongly_accepts_as_a_crash(tmp_path: Path) -> None:
    from go_driver import build_driver, go_available, run_driver
    from generator.naming import go_package
    from generator.options import DEFAULT_GO_MODULE

    if not go_available():
        pytest.skip("go is not installed")
    planted = tmp_path / "planted-go"
    shutil.copytree(GENERATED / "go", planted)
    package = planted / go_package(FORMAT) / f"{go_package(FORMAT)}.go"
    # A parse that falls back to encoding/json's lenient decode where the exact walk refused the document.
    _plant(package, r'^import \(\n\t"fmt"\n', 'import (\n\t"encoding/json"\n\t"fmt"\n')
    _plant(package, r"(built, err := rt\.Build\[DroidletChat\]\(tree, parseDroidletChat\)\n\tif err != nil) \{", r"\1 && json.Unmarshal(data, &built) != nil {")
    clean = build_driver(GENERATED / "go", DEFAULT_GO_MODULE, [FORMAT], tmp_path / "clean-driver")
    assert run_driver(clean, [(FORMAT, TEXT)], crashes=True) == [REJECTION]
    [verdict] = run_driver(build_driver(planted, DEFAULT_GO_MODULE, [FORMAT], tmp_path / "planted-driver"), [(FORMAT, TEXT)], crashes=True)
    assert _crash(verdict).startswith("parse accepted, Validate rejected:"), f"a parse that wrongly accepts was reported as {verdict}"
    assert "must be >= 0" in _crash(verdict)


# Code targets that have no conformance driver, and what holds them instead.
NOT_DRIVEN = {
    "pydantic": "its own messages and no x-rules: fuzz.py and test_models_differential hold its verdicts to Python's and "
    "jsonschema's, and the keyword matrix each keyword's verdict",
}


def test_every_code_target_has_a_conformance_driver_the_suites_run() -> None:
    import conformance
    from generator.targets import REGISTRY, vendorable

    driven = [d.target for d in conformance.DRIVERS]
    assert len(driven) == len(set(driven)), "a target with two drivers"
    assert set(driven) <= {t.name for t in REGISTRY}, f"a driver of no registered target: {set(driven) - {t.name for t in REGISTRY}}"
    # A target another repository vendors is generated code that parses and validates: it needs a driver.
    missing = set(vendorable()) - set(driven)
    assert not missing, f"vendorable targets with no conformance driver (tests/conformance.py DRIVERS): {sorted(missing)}"
    assert set(NOT_DRIVEN).isdisjoint(driven) and set(NOT_DRIVEN) <= {t.name for t in REGISTRY}


def test_every_code_target_has_its_keyword_matrix_column_and_every_behaviour_target_runs_the_scenarios() -> None:
    # The suites that need more than a verdict per case (each code path of a keyword; behaviour code) run a
    # program of each target's own; registering the target holds it to them too.
    import conformance
    import test_keyword_matrix
    import test_scenarios
    from generator.targets import REGISTRY

    code = {d.target for d in conformance.DRIVERS} | set(NOT_DRIVEN)
    assert set(test_keyword_matrix.COLUMNS) == code, f"code targets without a keyword matrix column: {code - set(test_keyword_matrix.COLUMNS)}"
    placing = {t.name for t in REGISTRY if t.behaviour is not None and t.name in code}  # the docs place behaviour too: no code
    assert set(test_scenarios.RUNNERS) == placing, f"targets placing behaviour without a scenario runner: {placing - set(test_scenarios.RUNNERS)}"
    assert all(callable(f) and f.__name__.startswith("test_") for f in [*test_keyword_matrix.COLUMNS.values(), *test_scenarios.RUNNERS.values()])


def test_built_runs_every_driver_and_a_missing_toolchain_fails_in_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import conformance

    ran: list[str] = []
    fake = tuple(conformance.Driver(name, name, lambda folder, formats, name=name: None if name == "absent" else folder / name,
                                    lambda built, cases, name=name: ran.append(name) or [{"ok": True, "errors": []}] * len(cases), name)
                 for name in ("python", "other", "absent"))
    monkeypatch.setattr(conformance, "DRIVERS", fake)
    monkeypatch.delenv("CI", raising=False)
    built = conformance.build({}, [], tmp_path)
    assert built.languages == {"python", "other"}
    assert set(built.verdicts([("f", "{}", None)])) == {"python", "other"} and ran == ["python", "other"]
    monkeypatch.setenv("CI", "true")
    with pytest.raises(AssertionError, match="the absent driver needs absent"):
        conformance.build({}, [], tmp_path)


def _examples(folders: dict[str, Path]) -> tuple[list[tuple[str, str, None]], list[dict[str, Any]], list[str]]:
    """Every example as a case, the verdict its file states ({"ok", "errors"}), and its name."""
    cases: list[tuple[str, str, None]] = []
    expected: list[dict[str, Any]] = []
    names: list[str] = []
    for fmt, folder in folders.items():
        for p in sorted((folder / "examples" / "valid").glob("*.json")):
            cases.append((fmt, p.read_text(encoding="utf-8"), None))
            expected.append({"ok": True, "errors": []})
            names.append(f"{fmt} valid/{p.name}")
        for p in sorted((folder / "examples" / "invalid").glob("*.json")):
            example = json.loads(p.read_text(encoding="utf-8"))
            cases.append((fmt, json.dumps(example["data"], ensure_ascii=False), None))
            expected.append({"ok": False, "errors": [[e["path"], e["message"]] for e in example["errors"]]})
            names.append(f"{fmt} invalid/{p.name}")
    return cases, expected, names


@pytest.mark.parametrize("corpus", ["specs", "golden"])
def test_every_example_gets_the_verdict_and_errors_its_file_states_from_every_driver(corpus: str, tmp_path: Path) -> None:
    import conformance

    if corpus == "specs":
        # generated/ as committed (make check holds it to the specs), every code target's tree.
        folders = format_folders()
        files = conformance.generated_files()
    else:
        folders = {p.name: p for p in sorted(GOLDEN.iterdir()) if (p / "spec.json").is_file()}
        files = golden_generated(tuple(d.target for d in conformance.DRIVERS))
    built = conformance.build(files, list(folders), tmp_path)
    cases, expected, names = _examples(folders)
    assert len(cases) > 40
    for target, found in built.verdicts(cases).items():
        wrong = [f"{name}: the file says {e['errors'] or 'valid'}, {target} {f.get('crash') or f['errors'] or 'valid'}"
                 for name, e, f in zip(names, expected, found) if (e["ok"], e["errors"]) != (f.get("ok"), f.get("errors"))]
        assert not wrong, f"{target}: {len(wrong)} of {len(cases)} examples differ:\n" + "\n".join(wrong[:20])


def test_rules_whose_pointers_go_anywhere_get_pythons_errors_from_every_driver(tmp_path: Path) -> None:
    # tests/rule_paths.py: rules through required and optional members, tuples and nulls, turned on and off by
    # every string of the documents; which rules a problem elsewhere silences (member_of's pool) must agree too.
    import conformance
    import rule_paths
    from generator.core import generate
    from generator.load import load_spec

    folder = tmp_path / "specs" / "rule_paths"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(rule_paths.SPEC), encoding="utf-8")
    built = conformance.build(generate([load_spec(folder, tmp_path)], targets=[d.target for d in conformance.DRIVERS]),
                              ["rule_paths"], tmp_path / "out")
    cases = [("rule_paths", json.dumps(doc), None) for doc in rule_paths.documents()]
    found = built.verdicts(cases)
    python = found.pop("python")
    assert sum(not v["ok"] for v in python) > len(cases) // 3
    for target, verdicts in found.items():
        wrong = [f"{text[:200]}\n  Python {p['errors']}\n  {target} {v.get('crash') or v['errors']}"
                 for (_, text, _), p, v in zip(cases, python, verdicts) if (p["ok"], p["errors"]) != (v.get("ok"), v.get("errors"))]
        assert not wrong, f"{target}: {len(wrong)} of {len(cases)} documents differ:\n" + "\n".join(wrong[:5])

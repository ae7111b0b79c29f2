"""The test suite itself: self-contained in the repository, and every skip says why."""

from __future__ import annotations

import ast
import functools
import json
import re
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

TESTS = ROOT / "tests"
SOURCES = sorted(p for p in TESTS.rglob("*") if p.suffix in {".py", ".go"} and "golden" not in p.parts and "fuzz_corpus" not in p.parts)
# Hostile values such as "../escaped" are inputs to refuse, not files read, so a bare "../" is not flagged.
OUTSIDE = re.compile(r"""ROOT\.parent\b|\.parent\.parent\.parent|["']\.\./(?:\.\./)*(?:shared|seeds)\b|/work/|["']shared["']|seeds/""")


def test_no_test_reads_a_file_outside_the_repository() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in SOURCES if p.name != "test_hygiene.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert not found, "copy what the test needs into tests/fixtures instead:\n" + "\n".join(found)


def test_every_skip_gives_its_reason() -> None:
    missing = []
    for path in (p for p in SOURCES if p.suffix == ".py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            if name.endswith("skipif") and not any(k.arg == "reason" for k in node.keywords):
                missing.append(f"{path.name}:{node.lineno}: {name} without reason=")
            if name in {"pytest.skip", "pytest.xfail", "pytest.importorskip"} and not (node.args or node.keywords):
                missing.append(f"{path.name}:{node.lineno}: {name}() without a reason")
            if name.endswith("mark.skip") or name.endswith("mark.xfail"):
                if not any(k.arg == "reason" for k in node.keywords) and not node.args:
                    missing.append(f"{path.name}:{node.lineno}: {name} without reason")
    assert not missing, "\n".join(missing)


def _module_fixtures(path: Path) -> set[str]:
    """The names of the module-scoped fixtures a test file defines."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                if (isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.fixture"
                        and any(k.arg == "scope" and ast.literal_eval(k.value) == "module" for k in decorator.keywords)):
                    found.add(node.name)
    return found


def test_every_fixture_the_scheduler_keeps_on_one_worker_is_a_module_fixture_of_its_file() -> None:
    from conftest import SHARED_FIXTURES

    stale = [f"{module}::{name}" for module, names in SHARED_FIXTURES.items() for name in sorted(names)
             if not (ROOT / module).is_file() or name not in _module_fixtures(ROOT / module)]
    assert not stale, f"conftest.SHARED_FIXTURES names what is not a module-scoped fixture of that file: {stale}"


_COLLECT = """
import json, sys
import pytest

class Report:
    def pytest_collection_finish(self, session):
        shared = {m: set(names) for m, names in json.loads(sys.argv[1]).items()}
        print("COLLECTED " + json.dumps([[item.nodeid, item.get_closest_marker("slow") is not None,
                                          sorted(shared.get(item.nodeid.split("::")[0], set()) & set(item.fixturenames))]
                                         for item in session.items]))

sys.exit(pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[2:]], plugins=[Report()]))
"""


@functools.cache
def _collected() -> list[tuple[str, bool, list[str]]]:
    """(nodeid, marked slow, the SHARED_FIXTURES it uses as pytest resolves its fixtures) for the
    tests of the files SHARED_FIXTURES names, in the order pytest hands them to the workers."""
    from conftest import SHARED_FIXTURES

    done = subprocess.run([sys.executable, "-c", _COLLECT, json.dumps({m: sorted(n) for m, n in SHARED_FIXTURES.items()}), *SHARED_FIXTURES],
                          capture_output=True, text=True, cwd=ROOT)
    found = [json.loads(line.removeprefix("COLLECTED ")) for line in done.stdout.splitlines() if line.startswith("COLLECTED ")]
    assert len(found) == 1, done.stdout[-2000:] + done.stderr[-2000:]
    return [tuple(row) for row in found[0]]


def test_the_scheduler_groups_exactly_the_tests_that_use_a_shared_fixture() -> None:
    from conftest import shared_fixture_groups

    expected = {nodeid.split("[", 1)[0]: " + ".join(f"{nodeid.split('::')[0]}::{name}" for name in names)
                for nodeid, _, names in _collected() if names}
    assert shared_fixture_groups() == expected


def test_slow_tests_are_handed_out_first_then_each_group_in_one_run() -> None:
    from conftest import _group_of

    rows = [(nodeid, slow, _group_of(nodeid)) for nodeid, slow, _ in _collected()]
    rank = [0 if slow else 1 if group else 2 for _, slow, group in rows]
    assert 0 in rank and 1 in rank and 2 in rank and rank == sorted(rank), "slow tests, then the groups, then the rest"
    groups = [group for _, slow, group in rows if group and not slow]
    assert all(groups.index(g) == i or groups[i - 1] == g for i, g in enumerate(groups)), "a group's tests come one after another"


def test_the_tests_grouped_for_their_draws_exist_and_draw_the_same_seeds() -> None:
    import test_fuzz
    import test_models_differential
    from conftest import SHARED_DRAWS, SHARED_FIXTURES

    assert test_fuzz.SEEDS == test_models_differential.SEEDS
    collected = {nodeid.split("[", 1)[0] for nodeid, _, _ in _collected()}
    named = [test for tests in SHARED_DRAWS.values() for test in tests]
    assert all(t in collected for t in named if t.split("::")[0] in SHARED_FIXTURES), "a renamed test"
    for test in named:
        module, name = test.split("::")
        assert f"def {name}(" in (ROOT / module).read_text(encoding="utf-8"), test


def test_every_suite_make_conformance_runs_exists() -> None:
    from conftest import CONFORMANCE

    stale = []
    for name in CONFORMANCE:
        module, _, test = name.partition("::")
        path = ROOT / module
        if not path.is_file() or (test and f"def {test}(" not in path.read_text(encoding="utf-8")):
            stale.append(name)
    assert not stale, f"conftest.CONFORMANCE names what the suite does not have: {stale}"

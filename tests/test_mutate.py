"""make mutate's own configuration (tests/mutate.py): what it plants and what it runs stay real.

It runs only tests that exist (a renamed test would silently leave a group unguarded: tests_for
drops what an older checkout lacks), never the golden byte test, and its operators reach the
places the audit planted bugs in (issue 33).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import mutate
from conftest import ROOT


@pytest.mark.parametrize("group", sorted(mutate.GROUPS))
def test_every_test_a_group_runs_exists_and_none_is_the_golden_byte_test(group: str) -> None:
    tests = mutate.PY_TESTS + mutate.GO_TESTS if group == "rules" else mutate.GROUPS[group].tests
    named = [t for t in tests if t.startswith("tests/")]
    assert named, group
    for test in named:
        file, name = mutate.named_test(test)
        assert mutate.has_test(ROOT, test), test
        assert file != "tests/test_golden.py" or name not in ("", "test_golden_output"), f"{group} runs the golden byte test"


@pytest.mark.parametrize("group", sorted(mutate.GROUPS))
def test_a_checkout_that_has_every_test_of_a_group_runs_every_one(group: str) -> None:
    # tests_for drops only what a checkout lacks: this one has them all, one case of a parametrized test too
    # (test_x[go], which it once dropped by looking for "def test_x[go](").
    file = {"classify": mutate.CLASSIFY, "rules": mutate.GO_RULES}.get(group, "x")
    mutant = mutate.Mutant(group, file, 1, "op", "a", "b")
    wanted = mutate.GO_TESTS if group == "rules" else mutate.GROUPS[group].tests
    assert mutate.tests_for(mutant, ROOT) == wanted


@pytest.mark.parametrize("group", sorted(mutate.GROUPS))
def test_every_group_has_mutants_in_files_that_exist(group: str) -> None:
    found = mutate.all_mutants([group])
    assert found, group
    assert all((ROOT / m.file).is_file() and m.mutated != m.original for m in found)


def test_a_sample_is_the_same_wherever_the_lines_moved() -> None:
    m = mutate.Mutant("docs", "generator/targets/markdown.py", 10, "< to <=", "if a < b:", "if a <= b:")
    assert m.draw(1) == replace(m, line=99).draw(1) != m.draw(2)


@pytest.mark.parametrize(("group", "file", "original", "mutated"), [
    # The audit's off-by-one in a fast path's exclusiveMinimum, written by a template as a quoted operator.
    ("fast-paths", "templates/go/fast_check.go.j2", '(c.exclusive_minimum, "<=")', '(c.exclusive_minimum, "<")'),
    ("fast-paths", "generator/targets/typescript/fast.py", '("<=", t.exclusive_minimum)', '("<", t.exclusive_minimum)'),
    # The docs' inverted Required column, and < left unescaped in a cell.
    ("docs", "generator/targets/markdown.py", 'required="yes" if f.required else "no"', 'required="no" if f.required else "yes"'),
    ("docs", "generator/targets/markdown.py", '.replace("&", "&amp;").replace("<", "&lt;")', '.replace("&", "&amp;")'),
    # Go's base64 check, and the droidlet upgrade's boundary in every language.
    ("go-runtime", "generator/runtime/go/internal/rt/base64.go", "!base64Text.MatchString(s) || err != nil", "base64Text.MatchString(s) || err != nil"),
    ("behaviour", "specs/droidlet_chat/behaviour/typescript.ts", "chat.timestamp < V1_SECONDS_BELOW", "chat.timestamp <= V1_SECONDS_BELOW"),
    ("behaviour", "specs/droidlet_chat/behaviour/python.py", "chat.timestamp < V1_SECONDS_BELOW", "chat.timestamp <= V1_SECONDS_BELOW"),
    ("typescript-runtime", "generator/runtime/typescript/runtime.ts", "i + 1 < bytes.length", "i + 1 <= bytes.length"),
])
def test_the_operators_reach_the_places_the_audit_planted_bugs_in(group: str, file: str, original: str, mutated: str) -> None:
    found = [m for m in mutate.all_mutants([group]) if m.file == file and original in m.original and mutated in m.mutated]
    assert found, f"no {group} mutant of {file} turns {original!r} into {mutated!r}"


def test_a_copy_without_the_pinned_typescript_stops_the_run_rather_than_count_its_mutants_stillborn(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A checkout whose build/npm-ts was never installed (a fresh clone run without make) once scored every
    # TypeScript mutant stillborn, and the groups looked whole.
    (tmp_path / "generated" / "typescript").mkdir(parents=True)
    with pytest.raises(SystemExit, match="pinned TypeScript compiler is missing"):
        mutate._compiles(tmp_path, "typescript", 10)

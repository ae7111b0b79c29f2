"""Shared fixtures: project paths, the loaded specs, and generated/python on sys.path."""

from __future__ import annotations

import ast
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mutations

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
PY_OUT = GENERATED / "python"
GOLDEN = Path(__file__).resolve().parent / "golden"

# Hypothesis keeps its caches (and, where a test does not say database=None, its example
# database) in ./.hypothesis; keep them in the ignored build/ folder, not beside the sources.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(ROOT / "build" / "hypothesis"))

# Every chatspec command a test runs shares the user's chatspec cache (~/.cache/chatspec,
# which `make check` warms), so the many temporary projects do not each re-run black and
# datamodel-codegen. Caching changes no output (tests/test_cache.py); the tests that pin
# a run's own behaviour turn it off (CHATSPEC_CACHE=off) or use a folder of their own.

# The generated package is imported from the committed tree, as a vendoring user would.
if str(PY_OUT) not in sys.path:
    sys.path.insert(0, str(PY_OUT))


def run_chatspec(root: Path | None, *args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    """The chatspec command as a user runs it: `--root root` first (when given), then args;
    env is added to this process's environment."""
    command = [sys.executable, "-m", "generator", *_arguments(root, args)]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env={**os.environ, **env})


# tests/versioning: each case a previous and a current spec, and what classify must find between them.
MATRIX = Path(__file__).resolve().parent / "versioning"
MATRIX_CASES = sorted(p.name for p in MATRIX.iterdir() if (p / "expected.json").is_file())


def matrix_format(path: Path) -> Any:
    """A versioning case's spec (previous.json or current.json), checked and lowered as generate would."""
    from generator.load import LoadedSpec, check_document
    from generator.lower import lower

    document = json.loads(path.read_text(encoding="utf-8"))
    check_document(document, str(path))
    return lower(LoadedSpec("sample", path.as_posix(), document, (), ()))


def edit_spec(project: Path, fmt: str, change) -> Path:  # type: ignore[no-untyped-def]
    """Apply change (a function of the parsed document) to specs/<fmt>/spec.json under project, as a user edits it."""
    path = project / "specs" / fmt / "spec.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def _arguments(root: Path | None, args: tuple[str, ...]) -> list[str]:
    """chatspec's arguments: `--root root` first (when given), then args."""
    return [*(["--root", str(root)] if root is not None else []), *args]


def chatspec_here(monkeypatch: pytest.MonkeyPatch, root: Path | None, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """run_chatspec's result from generator.cli.main run in this process (the function the chatspec command
    runs), for the corpora of refusals: a case then costs a tenth of a second, not a new Python importing
    chatspec. Tests that need the command itself (its exit, a killed run, the environment) use run_chatspec.
    No worker processes: they never change what a run writes or reports (tests/test_cache.py), and this
    process is a pytest worker, with threads of its own, where forking is not safe."""
    import contextlib
    import io

    from generator import build, cli

    monkeypatch.setattr(build, "workers_pay", lambda: False)
    monkeypatch.chdir(cwd)
    command = _arguments(root, args)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(command)
    return subprocess.CompletedProcess(["chatspec", *command], status, out.getvalue(), err.getvalue())


def read_tree(out: Path) -> dict[str, str]:
    """Every non-dot, non-cache file under `out` as text (undecodable bytes kept as surrogates)."""
    if not out.is_dir():
        return {}
    return {
        p.relative_to(out).as_posix(): p.read_bytes().decode("utf-8", errors="surrogateescape")
        for p in sorted(out.rglob("*"))
        if p.is_file() and not any(part == "__pycache__" or part.startswith(".") for part in p.relative_to(out).parts)
    }


# Module-scoped fixtures that take seconds to build (a Go build, a tsc run, the docs site, an
# uncached generate): the tests that use one run on one worker, so it is built once, not once
# per worker that meets one of them. Cheap ones are left out: grouping their tests (the 106
# broken specs share a generated project) would give one worker a long run of them.
SHARED_FIXTURES = {
    "tests/test_architecture.py": {"rule_outputs"},
    "tests/test_cache.py": {"formatted"},
    "tests/test_differential.py": {"golden_built"},
    "tests/test_docs.py": {"site"},
    "tests/test_docs_checks.py": {"checked"},
    "tests/test_encodings.py": {"encodings"},
    "tests/test_fast_path.py": {"golden_python"},
    "tests/test_fast_path_typescript.py": {"golden_dist"},
    "tests/test_go.py": {"driver"},
    "tests/test_json_schema_suite.py": {"accepted"},
    "tests/test_golden.py": {"golden_package"},
    "tests/test_keyword_matrix.py": {"matrix"},
    "tests/test_models_differential.py": {"built"},
    "tests/test_scenarios.py": {"go_outcomes", "typescript_outcomes"},
}


@functools.cache
def shared_fixture_groups() -> dict[str, str]:
    """'<module>::<test function>' -> its group, for every test that uses one of SHARED_FIXTURES,
    as a parameter or through another fixture of its module (read from the source, so the
    pytest-xdist controller, which collects nothing, knows the groups too)."""
    groups: dict[str, str] = {}
    for module, shared in SHARED_FIXTURES.items():
        body = ast.parse((ROOT / module).read_text(encoding="utf-8")).body
        functions = {node.name: node for node in body if isinstance(node, ast.FunctionDef)}
        fixtures = {name for name, node in functions.items() if any("fixture" in ast.unparse(d) for d in node.decorator_list)}

        def uses(name: str, seen: frozenset[str]) -> set[str]:
            found: set[str] = set()
            for arg in (a.arg for a in functions[name].args.args):
                if arg in shared:
                    found.add(arg)
                if arg in fixtures and arg not in seen:
                    found |= uses(arg, seen | {arg})
            return found

        for name in functions:
            if name.startswith("test_") and (used := uses(name, frozenset())):
                groups[f"{module}::{name}"] = " + ".join(f"{module}::{u}" for u in sorted(used))
    return groups


# Tests that share a per-process cache rather than a fixture: fuzz.drawn keeps what Hypothesis
# drew (most of fuzzing's time), so the tests that draw the same seeds (fuzz.drawn(schema, 4) for
# every model of every format) run on one worker and draw them once. Group name -> test functions.
SHARED_DRAWS = {
    "fuzz.drawn, 4 seeds per model": (
        "tests/test_fuzz.py::test_python_agrees_with_jsonschema_and_every_driver_with_python",
        "tests/test_fuzz.py::test_the_mutations_in_make_test_reach_every_path_depth_of_the_examples",
        "tests/test_models_differential.py::test_every_top_level_model_gets_inputs_and_accepts_some_of_them",
        "tests/test_models_differential.py::test_every_example_sub_document_and_its_mutations_get_one_verdict_from_every_target",
        "tests/test_models_differential.py::test_rule_near_misses_get_the_same_errors_from_every_driver_and_the_same_verdict_in_pydantic",
    ),
    "fuzz.drawn, 1 seed per model": (
        "tests/test_fast_path.py::test_the_fast_path_builds_what_the_exact_walk_builds_or_steps_aside_on_fuzz_cases",
        "tests/test_fast_path_typescript.py::test_the_typescript_fast_path_builds_what_the_exact_walk_builds_or_steps_aside",
    ),
}


# The suites that prove conformance at volume or attack with many hostile set-ups: `make conformance`
# and CI (.ci/run) run them, `make test` does not, so that a fresh machine runs make test in minutes
# (issue 32). A whole module, or module::test; each says what it is. test_hygiene checks that each exists.
CONFORMANCE = {
    "tests/test_differential.py": "drawn and mutated instances of every golden case, four judges",
    "tests/test_random_specs.py": "random specs through the whole pipeline",
    "tests/test_linear_patterns.py": "Hypothesis patterns against re.search, the step-count model",
    "tests/test_fuzz.py": "differential fuzzing and hostile bytes, Python against Go and jsonschema",
    "tests/test_models_differential.py": "every top-level model's fuzz cases in every target",
    "tests/test_go_fuzz_target.py": "the Go fuzz targets' seed corpora",
    "tests/test_bench.py": "make bench's quick mode",
    "tests/test_bench_go.py": "the Go bench",
    "tests/test_bench_typescript.py": "the TypeScript bench",
    "tests/test_cache.py::test_a_run_entry_edited_where_others_could_write_never_reaches_generated_and_check_does_not_trust_it": "poisoned cache",
    "tests/test_cache.py::test_compiled_templates_planted_where_others_could_write_never_run": "poisoned cache",
    "tests/test_cache.py::test_a_read_only_or_full_cache_folder_means_running_without_it": "failing file systems",
    "tests/test_cache.py::test_a_cache_folder_that_cannot_be_made_means_running_without_it": "failing file systems",
    "tests/test_cache.py::test_a_cache_folder_on_a_full_disk_means_running_without_it": "failing file systems",
    "tests/test_cache.py::test_a_worker_that_dies_or_fails_leaves_its_formats_to_the_main_process": "killed workers",
    "tests/test_cache.py::test_where_no_worker_can_start_everything_renders_in_the_main_process": "no workers",
    "tests/test_cache.py::test_every_twentieth_run_that_stores_trims_the_cache_to_its_limit": "twenty runs",
    "tests/test_cache.py::test_formatting_only_the_changed_statements_gives_blacks_output_for_the_whole_file": "black on many edits",
    "tests/test_cli.py::test_a_write_killed_after_some_files_leaves_each_file_old_or_new_and_the_next_run_repairs_it": "kill points",
    "tests/test_cli.py::test_output_is_identical_whatever_hash_seed_time_zone_or_locale": "four full runs",
    "tests/test_vendor.py::test_pre_commit_hook_passes_when_fresh_and_fails_when_stale": "pre-commit installs its own environment",
    "tests/test_docs.py::test_spec_text_with_scripts_runs_nowhere_on_the_built_site": "the docs site in Chromium",
    "tests/test_docs.py::test_site_renders_in_a_browser": "the docs site in Chromium",
    "tests/test_python_target.py::test_the_module_is_the_same_with_descriptions_and_version_stood_in_for_and_put_back": "many renders",
    "tests/test_go.py::test_generated_go_and_every_golden_case_are_staticcheck_clean": "staticcheck, built from its module",
    "tests/test_json_schema_suite.py::test_the_copy_is_the_pinned_sdists_own": "the pinned jsonschema sdist, from the package index",
    "tests/test_realworld.py::test_python_go_typescript_and_jsonschema_agree_on_published_drawn_and_mutated_messages":
        "published schemas built in three languages, drawn and mutated messages - make test: the doc examples in Python",
    "tests/test_roots.py::test_every_kind_of_root_gets_the_same_verdict_in_python_go_and_typescript":
        "roots of every kind built in three languages - make test: the same documents in Python",
    "tests/test_nesting.py::test_bump_refuses_a_spec_past_the_limits_before_it_locks_anything_and_in_no_time": "specs past every limit",
    "tests/test_nesting.py::test_the_deepest_spec_accepted_compiles_and_gives_one_verdict_in_python_go_and_typescript": "the deepest spec",
    "tests/test_patterns.py::test_a_pattern_with_too_many_ways_to_check_is_refused_as_too_complex": "hostile patterns",
    "tests/test_patterns.py::test_a_final_line_feed_after_the_end_anchor_is_refused_in_every_target_and_by_the_oracle":
        "`$` as the end of the text built in three languages - make test: dashed_wire_names's invalid example in each, and the probes",
    "tests/test_python_package.py::test_no_recursion_error_escapes_any_method_whatever_the_depth": "every depth",
    "tests/test_runtime_python.py::test_the_non_recursive_decoder_gives_the_json_modules_message_at_any_depth": "the syntax corpus at depth",
    # Moved for issue 32's five minutes (each a minute or tens of seconds on a fresh machine); make test keeps
    # a faster check of the same thing where one exists (named after the dash).
    "tests/test_docs.py::test_at_1280_and_390_px_no_table_scrolls_sideways_and_no_identifier_breaks":
        "the docs site in Chromium at two widths - make test: tests/test_docs_checks.py reads every page's cells",
    "tests/test_docs.py::test_navigation_labels_are_unique": "the docs site in Chromium - make test: test_navigation_labels_stay_unique_when_titles_repeat",
    "tests/test_docs.py::test_golden_pages_fit_1280_and_390_px_too": "the golden cases' pages in Chromium at two widths",
    "tests/test_docs.py::test_markdown_lint_is_clean": "pymarkdown over every page",
    "tests/test_json_schema_suite.py::test_every_accepted_group_gets_the_suites_verdict_in_one_language":
        "the JSON Schema Test Suite's accepted groups built and run in Go and TypeScript - make test: "
        "test_the_accepted_groups_are_those_of_the_ledger (every group generated: refused with a message, or accepted)",
    "tests/test_go.py::test_fuzzing_finds_no_panic": "Go's fuzzer, built instrumented, on every format - make test: test_go_survives_hostile_depth_and_caps_errors",
    "tests/test_fast_path.py::test_the_fast_path_builds_what_the_exact_walk_builds_or_steps_aside_on_fuzz_cases":
        "fuzz cases of every model - make test: the fast path of every golden case",
    "tests/test_fast_path_typescript.py::test_the_typescript_fast_path_builds_what_the_exact_walk_builds_or_steps_aside":
        "fuzz cases of every model - make test: the fast path of every golden case",
    "tests/test_keywords.py::test_every_example_gets_the_same_errors_in_python_go_and_typescript":
        "every keyword example in three languages - make test: the keyword matrix and the Python examples",
    "tests/test_drivers.py::test_every_example_gets_the_verdict_and_errors_its_file_states_from_every_driver":
        "every example through every driver - make test: tests/test_go.py and tests/test_golden.py per language",
    "tests/test_behaviour.py::test_go_imports_of_the_generated_module_follow_the_module_path_a_project_or_vendoring_sets":
        "three Go modules built - make test: tests/test_vendor.py builds one under another module path",
    "tests/test_vendor.py::test_vendoring_twice_into_a_users_folder_keeps_every_user_byte": "ten folder layouts, each vendored twice",
    "tests/test_vendor.py::test_a_vendor_killed_at_a_rename_is_reported_by_check_and_the_next_run_leaves_no_temporary_file": "kill points",
    "tests/test_versioning.py::test_a_bump_killed_at_a_rename_leaves_nothing_git_would_commit_by_mistake_and_the_next_bump_finishes": "kill points",
    "tests/test_architecture.py::test_the_generator_passes_mypy_strict": "mypy --strict over the generator, cold (make lint runs it too)",
    "tests/test_architecture.py::test_the_generator_is_formatted_by_black_and_lint_clean_by_ruff": "black and ruff over the generator (make lint runs them too)",
    "tests/test_typescript.py::test_the_package_and_every_golden_case_type_check_from_a_consumer_project_with_every_strict_option":
        "every golden case type-checked by a consumer - make test: tests/test_vendor_typescript.py's tsc project, every strict option",
    "tests/test_drivers.py::test_rules_whose_pointers_go_anywhere_get_pythons_errors_from_every_driver":
        "rule paths through every driver - make test: the same rules on the Python fast path",
    "tests/test_fast_path_typescript.py::test_rules_whose_pointers_surely_find_a_value_are_code_of_their_own_in_the_fast_function_and_agree_with_the_exact_walk":
        "rule paths on the TypeScript fast path - make test: the same rules on the Python fast path",
    "tests/test_vendor_typescript.py::test_typescript_vendored_under_another_package_name_names_chatformats_nowhere":
        "a TypeScript package renamed and built - make test: Python and Go vendored under other names",
    "tests/test_vendor.py::test_accepted_module_paths_are_ones_go_accepts": "four Go modules built - make test: one vendored under another path",
    "tests/test_pydantic_target.py::test_datamodel_codegens_output_is_the_same_with_descriptions_stood_in_for_and_put_back":
        "Hypothesis: 25 datamodel-code-generator runs, twice each",
    "tests/test_typescript_behaviour.py::test_the_typescript_chat_store_gives_what_the_python_chat_state_gives_on_random_inputs":
        "Hypothesis: random event streams - make test: every behaviour scenario in TypeScript",
    "tests/test_cache.py::test_a_later_run_starts_a_worker_only_for_a_slow_format_and_a_description_edit_runs_no_datamodel_codegen": "many runs",
    "tests/test_cache.py::test_after_editing_one_spec_only_that_format_is_rendered_again_and_the_files_are_the_uncached_ones": "many runs",
    "tests/test_cache.py::test_concurrent_runs_share_one_cache_safely": "concurrent runs",
    "tests/test_cache.py::test_a_cache_folder_chatspec_creates_ignores_itself_for_git_and_an_existing_one_is_left_alone": "many runs",
    "tests/test_cache.py::test_a_corrupt_or_truncated_entry_is_recomputed_not_trusted": "damaged caches",
    "tests/test_cache.py::test_an_edited_spec_or_template_misses_the_run_cache": "many runs",
    "tests/test_cache.py::test_a_new_folder_under_specs_is_seen_not_answered_from_the_cache": "many runs",
    "tests/test_cache.py::test_a_remembered_example_check_is_not_trusted_for_a_changed_module": "many runs",
    "tests/test_cache.py::test_the_python_and_pydantic_formats_render_in_worker_processes": "worker processes",
    "tests/test_compatibility.py::test_each_direction_a_case_keeps_holds_on_drawn_messages":
        "Hypothesis: 300 messages drawn per versioning case - make test: each direction a case breaks has a witness",
    "tests/test_unknown_fields.py::test_drawn_documents_come_back_as_they_were_in_every_language":
        "Hypothesis: 300 drawn documents with unknown properties in three languages - make test: written documents of every shape",
    "tests/test_compatibility.py::test_old_and_new_readers_in_every_language_read_each_witness_as_the_verdicts_say":
        "266 formats built in Go and TypeScript - make test: each direction a case breaks has a witness jsonschema confirms",
    "tests/test_msgspec_package.py::test_the_msgspec_package_gives_the_dataclass_packages_verdict_messages_and_values":
        "4,800 to 9,000 texts per format through both Python packages - make test: the examples and every eighth text",
    # Moved again for issue 32's five minutes (make test had grown to 6 min 48 s on a fresh machine): 75 s and 17 s
    # of a worker there, the first nearly all black formatting 266 modules the cache does not yet hold.
    "tests/test_compatibility.py::test_old_and_new_python_readers_read_each_witness_as_the_verdicts_say":
        "266 formats generated in Python - make test: each direction a case breaks has a witness jsonschema confirms",
    "tests/test_open_values.py::test_drawn_documents_get_one_verdict_in_every_language_and_from_jsonschema":
        "Hypothesis: drawn open values in three languages - make test: test_every_language_keeps_what_it_does_not_know_and_writes_it_back",
}


def is_conformance(nodeid: str) -> bool:
    test = nodeid.split("[", 1)[0]
    return test in CONFORMANCE or test.split("::", 1)[0] in CONFORMANCE


def _group_of(nodeid: str) -> str | None:
    test = nodeid.split("[", 1)[0]
    return next((group for group, tests in SHARED_DRAWS.items() if test in tests), None) or shared_fixture_groups().get(test)


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With --dist loadgroup (pyproject.toml): pytest-xdist's scheduler that hands out one work
    unit at a time, each test alone except the tests of one group together. (Its own
    xdist_group marks group nothing under pytest 9.2: pytest-xdist issue 1386; and its scheduler
    can wait forever once a worker has died: tests/xdist_groups.py.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist_groups import GroupScheduling

    return GroupScheduling(config, log, _group_of)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: unknown when a run goes without it (-p no:xdist)
def pytest_handlecrashitem(crashitem: str, report: pytest.TestReport, sched: Any) -> None:
    """A test whose worker died: rerun at the end of the run if it is the only kind of failure (tests/crash_rerun.py)."""
    import crash_rerun

    crash_rerun.record(crashitem)


def pytest_sessionfinish(session: pytest.Session) -> None:
    import crash_rerun

    crash_rerun.rerun(session)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The order make test's two workers are handed the tests in (--no-loadscope-reorder):
    tests marked slow first, then the groups, then the rest, so the last tests handed out are
    short ones and both workers finish together. (tests/mutate.py keeps the order it gives, cheapest first,
    with CHATSPEC_TESTS_IN_GIVEN_ORDER set: with -x, the first failure ends the run.)"""
    if os.environ.get("CHATSPEC_TESTS_IN_GIVEN_ORDER"):
        return

    def rank(item: pytest.Item) -> tuple[int, str]:
        group = _group_of(item.nodeid)
        return (0, "") if item.get_closest_marker("slow") else (1, group) if group else (2, "")

    items.sort(key=rank)
    for item in items:
        if is_conformance(item.nodeid):
            item.add_marker(pytest.mark.conformance)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden/*/expected and ir.json from the current generator (use `make golden`)",
    )


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    wanted = bool(request.config.getoption("--update-golden"))
    if wanted and os.environ.get("CI"):
        pytest.exit("refusing to update golden files when CI is set: golden files are reviewed changes", returncode=2)
    return wanted


@pytest.fixture(scope="session")
def specs():
    from generator.core import discover

    return discover(ROOT / "specs", ROOT)


@pytest.fixture(scope="session")
def typescript_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed generated/typescript package, as a vendoring user gets it, compiled by the
    pinned tsc once per test run: the first test worker that needs it compiles it, under a
    lock, and the other reuses it. Read-only: a test that changes a file compiles its own copy."""
    import fcntl

    from typescript_driver import compile_package, node_available, write_tree

    if not node_available():
        pytest.skip("node is not installed: the TypeScript checks need it")
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # this run's folder, shared by its workers (each has its own below it)
    folder = base / "generated-typescript"
    with open(base / "generated-typescript.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / ".compiled").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            source = GENERATED / "typescript"
            write_tree({p.relative_to(source).as_posix(): p.read_text(encoding="utf-8") for p in source.rglob("*") if p.is_file()}, folder)
            compile_package(folder)
            (folder / ".compiled").touch()
    return folder / "dist"


def dead_pid() -> int:
    """The id of a process that has ended (a fixed number may be some live process's)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    return int(done.stdout)


def go_available() -> bool:
    return shutil.which("go") is not None


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    # A local run without Go passes the Python half only; say so where it cannot be missed.
    if not go_available():
        terminalreporter.write_sep("!", "Go is not installed: the Go checks (build, vet, tests, conformance, fuzz) were SKIPPED", red=True)


def format_folders() -> dict[str, Path]:
    """Every generated format id -> the folder of its spec.json and examples
    (an earlier major, e.g. droidlet_chat_v1, lives in its release snapshot)."""
    from generator.core import spec_folders
    from generator.history import earlier_majors

    out: dict[str, Path] = {}
    for folder in spec_folders(ROOT / "specs"):
        out[folder.name] = folder
        for release in earlier_majors(folder):
            out[f"{folder.name}_v{release.version.split('.')[0]}"] = folder / "history" / release.version
    return dict(sorted(out.items()))


def golden_documents(case: str) -> tuple[list[Any], list[Any], list[Any]]:
    """A golden case's valid examples, its invalid ones, and mutations of the valid ones: systematic
    (tests/mutations.py) and at every edge of every bound its spec states."""
    valid = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((GOLDEN / case / "examples" / "valid").glob("*.json"))]
    invalid = [json.loads(p.read_text(encoding="utf-8"))["data"] for p in sorted((GOLDEN / case / "examples" / "invalid").glob("*.json"))]
    edges = mutations.edges(json.loads((GOLDEN / case / "spec.json").read_text(encoding="utf-8")))
    changed = [m for doc in valid for m in (*mutations.mutations(doc), *mutations.boundary_mutations(doc, edges))]
    return valid, invalid, changed


def golden_model_documents(case: str) -> tuple[str, list[Any], list[Any], list[Any]]:
    """The model whose fast paths a golden case tests, and its valid, invalid and changed documents (golden_documents'):
    the root model and the documents, or, where the root is an array of a model (root_array: fast paths are a model's),
    that model and the documents' object items, the invalid documents' among the changed (an item of an invalid
    document may be valid)."""
    valid, invalid, changed = golden_documents(case)
    spec = json.loads((GOLDEN / case / "spec.json").read_text(encoding="utf-8"))
    root = spec["$ref"].rsplit("/", 1)[-1]
    items = spec["$defs"][root].get("items") if spec["$defs"][root].get("type") == "array" else None
    if items is None:
        return root, valid, invalid, changed

    def objects(docs: list[Any]) -> list[Any]:
        return [item for doc in docs if isinstance(doc, list) for item in doc if isinstance(item, dict)]

    return items["$ref"].rsplit("/", 1)[-1], objects(valid), [], objects([*invalid, *changed])


def generate_cached(specs: list[Any], **arguments: Any) -> dict[str, str]:
    """generator.core.generate as `chatspec generate` runs it: with the user's chatspec cache, so that the
    golden cases and the specs, generated in-process by many fixtures on both workers, are rendered once per
    test run (a render is keyed by chatspec's own source and templates, so a changed generator renders again;
    tests/test_cache.py holds that a cached run writes the bytes of an uncached one). The golden byte test
    (tests/test_golden.py::test_golden_output) and the tests of caching itself generate uncached."""
    from generator import cache
    from generator.core import generate

    with cache.active(cache.open_folder(ROOT)):
        return generate(specs, **arguments)


@functools.cache
def golden_generated(targets: tuple[str, ...]) -> dict[str, str]:
    """Every golden case's files for the targets, generated together by this checkout's generator (not read
    from the committed expected/ files, which change only with `make golden`); made once per test process."""
    from generator.load import load_spec

    cases = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
    return generate_cached([load_spec(GOLDEN / case, ROOT) for case in cases], targets=list(targets))


def written_fields(schema: Any, defs: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A model's properties and required names as the spec writes them, with those of the models its allOf merges
    (a $ref to a $defs entry, or an inline part): what its docs must list, read from the spec, not the IR."""
    if not isinstance(schema, dict):
        return {}, []
    properties: dict[str, Any] = {}
    required: list[str] = []
    for part in schema.get("allOf", []):
        target = defs.get(part["$ref"].rsplit("/", 1)[1], {}) if isinstance(part, dict) and "$ref" in part else part
        props, needed = written_fields(target, defs)
        properties.update(props)
        required += needed
    properties.update(schema.get("properties", {}))
    required += schema.get("required", [])
    return properties, required

"""make mutate: plant one small bug at a time in chatspec's code, and check that the tests relevant
to it notice without the golden byte test (tests/MUTATION.md).

    python tests/mutate.py [--groups python-runtime,go-runtime,...] [--sample 25] [--seed 1]
                           [--list] [--root DIR] [--json FILE] [--only FILE:LINE[:OPERATOR]]

Groups (GROUPS below): the runtimes (python-runtime, go-runtime, typescript-runtime, rules), what
generated code is made of beyond them (fast-paths: the fast-path templates and their views;
behaviour: specs/*/behaviour in Python, Go and TypeScript; docs: the docs target and its templates),
the writer and the cache (writer-cache), the versioning classifier (classify), and the msgspec target and its
runtime (msgspec).

Operators: comparison swaps (< <=, > >=, == !=, === !==), and/or (&& ||), +1/-1,
True/False (true/false), dropping a `not`/`!`, continue/break, a quoted operator that views and
templates write into generated code ("<" "<=", ...), dropping a `.replace(...)` (an escape), the two
literal arms of a conditional expression swapped ("yes" if x else "no"), and deleting a line that
reports an error (`ctx.error(...)`, `c.Error(...)`, `return err`, `raise ...`, `throw ...`, a
classifier's `changes.append(...)`). (Deleting `return INVALID` after an error is reported changes
nothing a caller sees, so it is not an operator.)
Each mutant is written into a temporary copy of the repository (--root, default this checkout). A
runtime's generated copy there is rewritten to match (the source behind the header, as generate
writes it); for the groups whose files shape generated code, `chatspec generate` rewrites generated/
there, as a developer would run it (a mutant whose examples it refuses is killed by it). Only the
tests relevant to the group run (pytest -x: the first failure kills); none of them is the golden
byte test (tests/test_golden.py::test_golden_output), so a mutant only it would notice survives.
A mutant whose own file, or the generated code made from it, does not compile (py_compile, a
template Jinja cannot read, black refusing the generated Python, `go build`, `tsc`) is "stillborn"
and left out of the score. The mutants are sampled (--sample per group, fixed --seed: the same
mutants in two checkouts, wherever their lines moved) so a run stays affordable on 2 cores;
--sample 0 runs them all.

Score = killed / (killed + survived). The survivors are listed with their place.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = sys.executable
SOURCE = ROOT  # the checkout whose files are mutated and tested (--root)

PY_RUNTIME = "generator/runtime/python/_runtime.py"
GO_PACKAGE = "generator/runtime/go/internal/rt"
GO_RULES = f"{GO_PACKAGE}/rules.go"
TS_RUNTIME = "generator/runtime/typescript/runtime.ts"
CLASSIFY = "generator/classify.py"
FAST_FILES = ["templates/python/fast.py.j2", "generator/targets/python/fast.py", "templates/typescript/fast_function.ts.j2",
              "generator/targets/typescript/fast.py", "templates/go/fast_check.go.j2", "templates/go/fast_model.go.j2",
              "templates/go/fast_rule.go.j2", "templates/go/fast_tuple.go.j2", "generator/targets/go/fastchecks.py",
              "templates/go/direct_model.go.j2", "templates/go/direct_read.go.j2", "templates/go/direct_composite.go.j2",
              "generator/targets/go/direct.py"]
WRITER_FILES = ["generator/write.py", "generator/cache.py"]
MSGSPEC_FILES = ["generator/targets/msgspec/module.py", "generator/runtime/msgspec/_fast.py", "templates/msgspec/module.py.j2",
                 "templates/msgspec/struct.py.j2"]

# The fast tests that guard each kind of file, cheapest first (pytest -x stops at the first failure).
PY_TESTS = ["tests/test_runtime_python.py", "tests/test_golden.py::test_golden_examples_through_generated_python",
            "tests/test_golden.py::test_ten_thousand_levels_of_a_recursive_spec_are_a_validation_error",
            "tests/test_examples.py", "tests/test_docs_examples.py", "tests/test_scenarios.py::test_python",
            "tests/test_fast_path.py", "tests/test_python_package.py", "tests/test_encodings.py", "tests/test_compare_rule.py", "tests/test_member_of_rule.py", "tests/test_rules_on_optional_fields.py",
            # the walk of schemas applied as written and the formats, at the JSON Schema Test Suite's edges
            "tests/test_json_schema_suite.py::test_every_accepted_group_gets_the_suites_verdict_in_python",
            "tests/test_formats_runtime.py",
            # every asserting keyword just inside and just past its limit, and each problem's pointer and message as Go's and TypeScript's
            "tests/test_keyword_matrix.py::test_python_exact_walk_fast_path_and_validate_act_on_every_keyword", "tests/test_keyword_matrix.py::test_the_three_languages_report_the_same_errors_on_every_value_past_a_keyword",
            # the runtime's Automaton (a pattern re could take more than linear time on) against re.search
            "tests/test_linear_patterns.py::test_the_automaton_gives_the_verdict_of_re_search_on_the_pattern_as_written",
            "tests/test_linear_patterns.py::test_the_automaton_agrees_with_re_search_on_edge_values",
            "-k", "not mypy and not black"]
GO_TESTS = ["tests/test_runtime_go.py::test_the_go_runtime_passes_its_own_tests", "tests/test_compare_rule.py", "tests/test_member_of_rule.py", "tests/test_rules_on_optional_fields.py",
            "tests/test_go.py::test_rule_pointers_resolve_alike_in_go_and_python",
            "tests/test_go.py::test_every_example_gets_the_same_errors_in_go_and_python",
            "tests/test_go.py::test_golden_cases_compile_vet_and_agree_with_python",
            "tests/test_go.py::test_mutated_examples_get_the_same_errors_in_go_and_python",
            "tests/test_go.py::test_malformed_json_is_a_validation_error_with_pythons_message",
            "tests/test_scenarios.py::test_go",
            "tests/test_go_fuzz_target.py::test_the_golden_cases_fuzz_seed_corpora_pass",
            "tests/test_go_fast_validate.py", "tests/test_encodings.py",
            # the walk of schemas applied as written, at the JSON Schema Test Suite's edges
            "tests/test_json_schema_suite.py::test_every_accepted_group_gets_the_suites_verdict_in_one_language[go]",
            # every asserting keyword just inside and just past its limit, each problem's pointer and message as Python's
            "tests/test_keyword_matrix.py::test_go_exact_walk_fast_check_and_validate_act_on_every_keyword", "tests/test_keyword_matrix.py::test_the_three_languages_report_the_same_errors_on_every_value_past_a_keyword"]
TS_TESTS = ["tests/test_drivers.py::test_every_example_gets_the_verdict_and_errors_its_file_states_from_every_driver",
            "tests/test_scenarios.py::test_typescript", "tests/test_encodings.py", "tests/test_compare_rule.py", "tests/test_member_of_rule.py", "tests/test_rules_on_optional_fields.py",
            "tests/test_typescript.py::test_numbers_in_messages_are_written_as_python_writes_them",
            "tests/test_typescript.py::test_json_syntax_errors_get_pythons_messages_line_and_column",
            "tests/test_typescript.py::test_texts_the_engines_json_parse_reads_differently_get_pythons_verdicts",
            "tests/test_typescript.py::test_an_engine_without_is_well_formed_tells_lone_surrogates_as_python_does",
            "tests/test_typescript.py::test_string_lengths_count_code_points_as_python_does_at_every_surrogate_edge",
            "tests/test_typescript.py::test_an_integer_built_in_code_at_the_int64_edges_gets_pythons_verdict",
            "tests/test_typescript.py::test_equal_items_nested_past_the_depth_limit_are_too_deep_not_duplicates",
            "tests/test_typescript.py::test_a_union_by_json_kind_writes_each_value_with_its_own_variant_and_refuses_a_kind_it_has_none_for",
            "tests/test_typescript.py::test_pointers_escape_tilde_and_slash_and_values_show_as_python_shows_them",
            "tests/test_typescript.py::test_the_automaton_reads_code_points_as_pythons_re_does",
            "tests/test_typescript.py::test_values_built_in_code_are_written_as_json_or_refused_with_a_type_error",
            "tests/test_typescript.py::test_free_form_values_built_in_code_hold_json_only_as_python_says",
            "tests/test_typescript.py::test_integers_of_up_to_fifteen_digits_are_read_as_numbers",
            "tests/test_fast_path_typescript.py", "tests/test_fuzz.py::test_hostile_bytes_get_the_same_verdict_from_every_driver",
            "tests/test_typescript_behaviour.py", "tests/test_differential.py",
            "tests/test_fuzz.py::test_python_agrees_with_jsonschema_and_every_driver_with_python",
            "tests/test_json_schema_suite.py::test_every_accepted_group_gets_the_suites_verdict_in_one_language[typescript]",
            # every asserting keyword just inside and just past its limit, each problem's pointer and message as Python's
            # (the only test where an item or a property fails under a schema applied as written)
            "tests/test_keyword_matrix.py::test_typescript_exact_walk_fast_path_and_validate_act_on_every_keyword", "tests/test_keyword_matrix.py::test_the_three_languages_report_the_same_errors_on_every_value_past_a_keyword"]
FAST_TESTS = ["tests/test_fast_path.py", "tests/test_fast_path_typescript.py", "tests/test_go_fast_validate.py", "tests/test_member_of_rule.py",
              "tests/test_golden.py::test_golden_examples_through_generated_python", "tests/test_examples.py",
              "tests/test_python_package.py", "tests/test_encodings.py", "-k", "not mypy and not black"]
BEHAVIOUR_TESTS = ["tests/test_scenarios.py", "tests/test_versioning.py::test_upgrade_from_v1_reads_seconds_as_milliseconds_and_validates",
                   "tests/test_go.py::test_droidlet_upgrade_from_v1_agrees_in_go_and_python_and_with_the_v2_examples",
                   "tests/test_go.py::test_to_text_document_of_a_conversation_built_with_no_message_has_no_time_in_go_as_in_python",
                   "tests/test_typescript_behaviour.py", "tests/test_behaviour.py"]
DOCS_TESTS = ["tests/test_markdown_text.py", "tests/test_docs_spec.py", "tests/test_docs.py", "tests/test_docs_examples.py", "tests/test_docs_checks.py", "tests/test_keywords.py",
              "tests/test_scenarios.py::test_behaviour_examples_in_the_docs_run_in_python",
              # a kept major's page names its own module and package in the behaviour text
              "tests/test_behaviour.py::test_an_earlier_major_keeps_the_behaviour_that_applies_to_it",
              # the two tests that build the site (minutes each), by name: "not site" alone also left out the
              # hook test (test_the_sites_hook..., since renamed), and a mutant of the hook survived seed 21
              "-k", "not site_renders_in_a_browser and not built_site and not golden_pages_fit and not 1280 and not navigation_labels_are_unique"]
WRITER_TESTS = ["tests/test_cli.py", "tests/test_vendor.py", "tests/test_cache.py",
                "tests/test_versioning.py::test_bump_locks_snapshots_and_feeds_the_changelog",
                "tests/test_versioning.py::test_a_bump_leaves_the_staging_folder_of_a_run_still_alive_alone",
                "tests/test_versioning.py::test_a_bump_killed_at_a_rename_leaves_nothing_git_would_commit_by_mistake_and_the_next_bump_finishes"]
# The msgspec package against the dataclass package on every document (seed formats, golden cases, red-team cases).
MSGSPEC_TESTS = ["tests/test_msgspec_package.py", "tests/test_architecture.py::test_the_msgspec_target_refuses_a_type_kind_it_does_not_know",
                 "tests/test_architecture.py::test_every_target_renders_every_rule_kind"]
# test_open_values.py: what readers of an open enum or union keep ("judged", "kept_by"), which the matrix does not show.
CLASSIFY_TESTS = ["tests/test_versioning.py", "tests/test_open_values.py", "-k", "matrix or classification or arithmetic or judged or kept_by"]


@dataclass(frozen=True)
class Group:
    tests: list[str]
    regenerate: bool  # its files shape generated/: `chatspec generate` runs after planting a mutant


GROUPS = {
    "python-runtime": Group(PY_TESTS, False), "go-runtime": Group(GO_TESTS, False),
    "typescript-runtime": Group(TS_TESTS, False), "rules": Group([], False),  # rules: the Python or the Go tests, by language
    "fast-paths": Group(FAST_TESTS, True), "behaviour": Group(BEHAVIOUR_TESTS, True), "docs": Group(DOCS_TESTS, True),
    "writer-cache": Group(WRITER_TESTS, False), "classify": Group(CLASSIFY_TESTS, False),
    "msgspec": Group(MSGSPEC_TESTS, True),
}

# (pattern, replacement, name); applied to one occurrence at a time, outside string literals.
_COMMON = [
    (r"(?<=\s)<(?=\s)", "<=", "< to <="), (r"(?<=\s)<=(?=\s)", "<", "<= to <"),
    (r"(?<=\s)>(?=\s)", ">=", "> to >="), (r"(?<=\s)>=(?=\s)", ">", ">= to >"),
    (r"(?<=\s)==(?=\s)", "!=", "== to !="), (r"(?<=\s)!=(?=\s)", "==", "!= to =="),
    (r"(?<=\s)\+ 1\b", "- 1", "+1 to -1"), (r"(?<=\s)- 1\b", "+ 1", "-1 to +1"),
]
# A comparison or boolean operator as a quoted string, which a view or a template writes into generated code.
_QUOTED = [(r"(?<=[\"'])<=(?=[\"'])", "<", "quoted <= to <"), (r"(?<=[\"'])<(?=[\"'])", "<=", "quoted < to <="),
           (r"(?<=[\"'])>=(?=[\"'])", ">", "quoted >= to >"), (r"(?<=[\"'])>(?=[\"'])", ">=", "quoted > to >="),
           (r"(?<=[\"'])==(?=[\"'])", "!=", "quoted == to !="), (r"(?<=[\"'])!=(?=[\"'])", "==", "quoted != to =="),
           (r"(?<=[\"'])&&(?=[\"'])", "||", "quoted && to ||"), (r"(?<=[\"'])\|\|(?=[\"'])", "&&", "quoted || to &&")]
_PY_OPS = _COMMON + _QUOTED + [
    (r"(?<=\s)and(?=\s)", "or", "and to or"), (r"(?<=\s)or(?=\s)", "and", "or to and"),
    (r"\bTrue\b", "False", "True to False"), (r"\bFalse\b", "True", "False to True"),
    (r"\bnot (?!in\b)", "", "drop not"), (r"\bcontinue\b", "break", "continue to break"),
    (r"\.replace\((?:\"[^\"]*\"|'[^']*'), (?:\"[^\"]*\"|'[^']*')\)", "", "drop .replace()"),
    (r"(\"[^\"]*\"|'[^']*') if ([^\n]+?) else (\"[^\"]*\"|'[^']*')", r"\3 if \2 else \1", "swap if-else"),
]
_GO_OPS = _COMMON + _QUOTED + [
    (r"&&", "||", "&& to ||"), (r"\|\|", "&&", "|| to &&"),
    (r"\btrue\b", "false", "true to false"), (r"\bfalse\b", "true", "false to true"),
    (r"!(?=[\w(])", "", "drop !"), (r"\bcontinue\b", "break", "continue to break"),
]
_TS_OPS = _GO_OPS + [(r"(?<=\s)===(?=\s)", "!==", "=== to !=="), (r"(?<=\s)!==(?=\s)", "===", "!== to ===")]
_PY_DELETE = re.compile(r"^\s*(ctx\.error\(|raise |changes\.append\()")
_GO_DELETE = re.compile(r"^\s*(c\.Error\(|return err$|return nil, err$|return false$)")
_TS_DELETE = re.compile(r"^\s*(ctx\.error\(|throw )")


def _language(path: str) -> str:
    """go, typescript or python (Python, and the Jinja of the Markdown, YAML, HTML, CSS and JS templates)."""
    name = path.removesuffix(".j2")
    return "go" if name.endswith(".go") else "typescript" if name.endswith(".ts") else "python"


@dataclass
class Mutant:
    group: str
    file: str
    line: int  # 1-based
    operator: str
    original: str
    mutated: str
    outcome: str = ""  # killed | survived | stillborn
    killed_by: str = ""
    seconds: float = 0.0

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def draw(self, seed: int) -> str:
        """Its place in a seed's sample: a hash of what it changes, not of its line number, so that two
        checkouts (before and after a change) sample the same mutants wherever their lines moved."""
        return hashlib.sha256(f"{seed}|{self.file}|{self.operator}|{self.original.strip()}|{self.mutated.strip()}".encode()).hexdigest()


def _in_string(line: str, pos: int) -> bool:
    """Whether pos falls inside a "..." or '...' literal (or a comment) of the line."""
    quote = None
    i = 0
    while i < pos:
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'`":
            quote = ch
        elif line.startswith("//", i) or ch == "#":
            return True
        i += 1
    return quote is not None


# Templates of pages, styles and markup: only what is inside a Jinja tag is code; the rest is prose, and a
# word of it changed ("and" to "or") is not a bug a test should catch.
_MARKUP = (".md.j2", ".css.j2", ".html.j2", ".yml.j2", ".yaml.j2")
_JINJA_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")


def _in_jinja_tag(line: str, start: int, end: int) -> bool:
    return any(m.start() <= start and end <= m.end() for m in _JINJA_TAG.finditer(line))


def _skippable(text: str) -> bool:
    s = text.strip()
    return not s or s.startswith(("#", "//", "*", "/*", "{#", '"""', "import ", "from ", "package ", "def ", "func ", "class ", "type ", "@",
                                  "export interface ", "interface ", "export type ", "function ", "export function ", "export class "))


def _text_lines(text: str) -> set[int]:
    """The lines of triple-quoted text (docstrings): each line a \"\"\" opens or closes, and those between."""
    inside, out = False, set()
    for n, line in enumerate(text.split("\n"), 1):
        quotes = line.count('"""')
        if inside or quotes:
            out.add(n)
        if quotes % 2:
            inside = not inside
    return out


def mutants_of(group: str, path: str, lines: range | None = None) -> list[Mutant]:
    text = (SOURCE / path).read_text(encoding="utf-8")
    language = _language(path)
    go = language != "python"
    ops, delete = {"go": (_GO_OPS, _GO_DELETE), "typescript": (_TS_OPS, _TS_DELETE), "python": (_PY_OPS, _PY_DELETE)}[language]
    found = []
    prose = _text_lines(text) if language == "python" else set()
    markup = path.endswith(_MARKUP)
    for n, line in enumerate(text.split("\n"), 1):
        if n in prose or _skippable(line) or (lines is not None and n not in lines):
            continue
        for pattern, replacement, name in ops:
            for m in re.finditer(pattern, line):
                if markup and not _in_jinja_tag(line, m.start(), m.end()):
                    continue
                if name.startswith("quoted") or not _in_string(line, m.start()):
                    found.append(Mutant(group, path, n, name, line, line[:m.start()] + m.expand(replacement) + line[m.end():]))
        if delete.match(line) and not line.rstrip().endswith(("(", "[", "{", ",")):
            indent = line[: len(line) - len(line.lstrip())]
            found.append(Mutant(group, path, n, "delete line", line, indent + ("pass" if not go else "")))
    return found


def _rule_lines(path: str) -> range:
    """The rule functions of the Python runtime (from resolve() to dump())."""
    lines = (SOURCE / path).read_text(encoding="utf-8").split("\n")
    start = next(i for i, l in enumerate(lines, 1) if l.startswith("def resolve("))
    end = next(i for i, l in enumerate(lines, 1) if l.startswith("def dump("))
    return range(start, end)


def go_runtime_files() -> list[str]:
    """The Go runtime's files but the rules and its own tests, e.g. generator/runtime/go/internal/rt/decode.go."""
    return sorted(f"{GO_PACKAGE}/{p.name}" for p in (SOURCE / GO_PACKAGE).glob("*.go")
                  if not p.name.endswith("_test.go") and f"{GO_PACKAGE}/{p.name}" != GO_RULES)


def behaviour_files() -> list[str]:
    """Every format's behaviour in Python, Go and TypeScript, e.g. specs/droidlet_chat/behaviour/go.go."""
    return sorted(p.relative_to(SOURCE).as_posix() for ext in ("py", "go", "ts") for p in SOURCE.glob(f"specs/*/behaviour/*.{ext}"))


def docs_files() -> list[str]:
    """The docs target and its templates."""
    return ["generator/targets/markdown.py", *sorted(p.relative_to(SOURCE).as_posix() for p in SOURCE.glob("templates/markdown/*.j2"))]


def all_mutants(groups: list[str]) -> list[Mutant]:
    unknown = set(groups) - set(GROUPS)
    if unknown:
        raise SystemExit(f"unknown group(s) {sorted(unknown)}; the groups are {', '.join(GROUPS)}")
    out: list[Mutant] = []
    rules = _rule_lines(PY_RUNTIME)
    if "python-runtime" in groups:
        out += [m for m in mutants_of("python-runtime", PY_RUNTIME) if m.line not in rules]
    if "go-runtime" in groups:
        for path in go_runtime_files():
            out += mutants_of("go-runtime", path)
    if "typescript-runtime" in groups:
        out += mutants_of("typescript-runtime", TS_RUNTIME)
    if "rules" in groups:
        out += mutants_of("rules", PY_RUNTIME, rules) + mutants_of("rules", GO_RULES)
    for group, files in (("fast-paths", FAST_FILES), ("behaviour", behaviour_files()), ("docs", docs_files()), ("writer-cache", WRITER_FILES),
                         ("msgspec", MSGSPEC_FILES)):
        if group in groups:
            for path in files:
                out += mutants_of(group, path)
    if "classify" in groups:
        out += mutants_of("classify", CLASSIFY)
    return out


# --- running ---------------------------------------------------------------------------


def make_copy(source: Path) -> Path:
    """A copy of the checkout to plant mutants in, with the pinned npm tools of the source (the TypeScript
    tests compile with them) and a pristine copy of generated/ beside it, to put back after a regeneration."""
    work = Path(tempfile.mkdtemp(prefix="chatspec-mutate-"))
    ignore = shutil.ignore_patterns(".venv", ".git", "build", "__pycache__", ".mypy_cache", ".pytest_cache", "node_modules", "mutants")
    shutil.copytree(source, work / "repo", ignore=ignore)
    tools = (ROOT if not (source / "build" / "npm-ts").is_dir() else source) / "build" / "npm-ts"
    if tools.is_dir():
        (work / "repo" / "build").mkdir()
        (work / "repo" / "build" / "npm-ts").symlink_to(tools.resolve())
    shutil.copytree(work / "repo" / "generated", work / "generated.pristine")
    # A repository of its own: some tests use the checkout as one (pre-commit's try-repo).
    git = ["git", "-c", "user.email=mutate@example.invalid", "-c", "user.name=mutate", "-c", "commit.gpgsign=false"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "the checkout under test"]):
        subprocess.run([*git, *command], cwd=work / "repo", check=True, capture_output=True)
    return work / "repo"


def _generated(copy: Path, source: str, text: str) -> tuple[str, str]:
    """(generated path, text) of the runtime file generate writes from a (mutated) source."""
    sys.path.insert(0, str(copy))
    try:
        from generator.render import header
    finally:
        sys.path.pop(0)
    if source == PY_RUNTIME:
        return "generated/python/chatformats/_runtime.py", f"# {header(None)}\n{text}"
    if source == TS_RUNTIME:
        return "generated/typescript/src/runtime.ts", f"// {header(None)}\n{text}"
    return f"generated/go/internal/rt/{Path(source).name}", f"// {header(None)}\n\n{text}"


def _run(cmd: list[str], cwd: Path, timeout: int, copy: Path | None = None) -> subprocess.CompletedProcess[str]:
    # chatspec's cache for the copy's runs in the work folder: each mutant is a toolkit of its own.
    top = (copy or cwd).parent
    env = {**os.environ, "PYTHONPATH": str(copy or cwd), "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0",
           "CHATSPEC_CACHE_DIR": str(top / "cache"), "CHATSPEC_TESTS_IN_GIVEN_ORDER": "1"}
    env.pop("CI", None)
    # A session of its own, killed whole at the timeout: a mutant that hangs a test's child (a driver in an endless
    # loop) would otherwise outlive pytest and take a core from every mutant after it.
    with subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          start_new_session=True) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, _ = proc.communicate()
            return subprocess.CompletedProcess(cmd, 124, out, "timeout")
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # what a finished run left behind
            except ProcessLookupError:
                pass
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def tests_for(m: Mutant, copy: Path) -> list[str]:
    """The group's tests that exist in the checkout under test (an older one may lack some)."""
    if m.file == CLASSIFY:
        wanted = CLASSIFY_TESTS
    elif m.group == "rules":
        wanted = GO_TESTS if m.file.endswith(".go") else PY_TESTS
    else:
        wanted = GROUPS[m.group].tests
    return [arg for arg in wanted if not arg.startswith("tests/") or has_test(copy, arg)]


def named_test(arg: str) -> tuple[str, str]:
    """(file, test function) of a pytest argument: tests/x.py, tests/x.py::test_y or one case, tests/x.py::test_y[go]."""
    file, _, name = arg.partition("::")
    return file, name.split("[", 1)[0]


def has_test(root: Path, arg: str) -> bool:
    """Whether the checkout at root has the file and the test function the pytest argument names."""
    file, name = named_test(arg)
    return (root / file).is_file() and (not name or f"def {name}(" in (root / file).read_text(encoding="utf-8"))


def _compiles(copy: Path, language: str, timeout: int) -> bool:
    """Whether the generated code of a language in the copy builds (Go) or type-checks (TypeScript, under the
    package's own strict tsconfig); Python's is parsed by black as generate writes it."""
    if language == "go":
        return _run(["go", "build", "./..."], copy / "generated" / "go", timeout, copy).returncode == 0
    if language == "typescript":
        tsc = copy / "build" / "npm-ts" / "node_modules" / "typescript" / "bin" / "tsc"
        if not tsc.is_file():
            # Not the mutant's fault: without the pinned compiler every TypeScript mutant would count as stillborn.
            raise SystemExit("mutate: the pinned TypeScript compiler is missing (build/npm-ts); run `make mutate`, which installs it")
        return _run(["node", str(tsc), "-p", str(copy / "generated" / "typescript"), "--noEmit"], copy, timeout).returncode == 0
    return True


# What `chatspec generate` says when the generated code could not be made at all (a template Jinja cannot
# read, Python black cannot parse): the mutant is stillborn. Any other failure (an example the generated
# Python gets wrong, a crash) is what a developer running it sees: generate killed the mutant.
_UNMADE = re.compile(r"TemplateSyntaxError|black|Cannot parse|cannot format|INTERNAL ERROR", re.I)


def _regenerate(copy: Path, m: Mutant, timeout: int) -> str:
    """Run `chatspec generate` in the copy: "" when it wrote generated/, else the outcome."""
    done = _run([PYTHON, "-m", "generator", "generate"], copy, timeout)
    if done.returncode == 0:
        return ""
    said = (done.stderr.strip() or done.stdout.strip() or f"exit {done.returncode}").splitlines()
    if done.returncode == 124:
        m.killed_by = "timeout in chatspec generate"
        return "killed"
    if _UNMADE.search(done.stderr):
        return "stillborn"
    m.killed_by = "chatspec generate: " + next((line for line in said if "error" in line.lower()), said[-1])[:160]
    return "killed"


def baseline(copy: Path, groups: list[str], timeout: int) -> list[str]:
    """Each group's tests on the copy before any mutant is planted: a test failing there would kill every
    mutant. Returns the failures."""
    lists = {tuple(GROUPS[g].tests) for g in groups if g != "rules"} | ({tuple(GO_TESTS), tuple(PY_TESTS)} if "rules" in groups else set())
    failures = []
    for tests in sorted(lists):
        wanted = [t for t in tests if not t.startswith("tests/") or (copy / t.partition("::")[0]).is_file()]
        done = _run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", *wanted], copy, 4 * timeout)
        if done.returncode not in (0, 5):
            failures += [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))] or [done.stdout[-2000:]]
    return failures


def run_mutant(copy: Path, m: Mutant, timeout: int, verbose: bool = False) -> None:
    start = time.perf_counter()
    original = (copy / m.file).read_text(encoding="utf-8")
    lines = original.split("\n")
    assert lines[m.line - 1] == m.original, f"{m.where} changed since the mutants were listed"
    mutated = "\n".join(lines[: m.line - 1] + [m.mutated] + lines[m.line:])
    generated: tuple[str, str] | None = None
    backup: str | None = None
    regenerated = False
    language = _language(m.file)
    try:
        (copy / m.file).write_text(mutated, encoding="utf-8")
        if m.file.startswith("generator/runtime/"):
            generated = _generated(copy, m.file, mutated)
            backup = (copy / generated[0]).read_text(encoding="utf-8")
            (copy / generated[0]).write_text(generated[1], encoding="utf-8")
        # compile(), not py_compile: that writes __pycache__/ beside the file (a behaviour folder then holds a folder
        # generate refuses, and every later mutant of the run was "killed" by it).
        compiles = [PYTHON, "-c", "import sys; compile(open(sys.argv[1], encoding='utf-8').read(), sys.argv[1], 'exec')", m.file]
        if m.file.endswith(".py") and _run(compiles, copy, timeout).returncode != 0:
            m.outcome = "stillborn"
            return
        if GROUPS[m.group].regenerate:
            regenerated = True
            m.outcome = _regenerate(copy, m, timeout)
            if m.outcome:
                return
        if (generated or regenerated) and not _compiles(copy, language, timeout):
            m.outcome = "stillborn"
            return
        done = _run([PYTHON, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests_for(m, copy)], copy, timeout)
        if verbose:
            print(done.stdout[-3000:], done.stderr[-2000:])
        if done.returncode in (0, 5):  # passed, or no test to run
            m.outcome = "survived"
        else:
            m.outcome = "killed"
            failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.M)
            m.killed_by = failed.group(1) if failed else ("timeout" if done.returncode == 124 else f"exit {done.returncode}")
    finally:
        (copy / m.file).write_text(original, encoding="utf-8")
        if generated is not None and backup is not None:
            (copy / generated[0]).write_text(backup, encoding="utf-8")
        if regenerated:
            shutil.rmtree(copy / "generated")
            shutil.copytree(copy.parent / "generated.pristine", copy / "generated")
        m.seconds = time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", default=",".join(GROUPS), help=f"comma-separated, of: {', '.join(GROUPS)}")
    parser.add_argument("--sample", type=int, default=25, help="mutants per group (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to copy and test (default: this one)")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds per step of a mutant (generate, a build, the tests)")
    parser.add_argument("--json", type=Path, help="write every mutant's outcome here")
    parser.add_argument("--only", action="append", default=[], metavar="FILE:LINE[:OPERATOR]",
                        help="run only the mutants at this place (all operators there, or the one named); repeatable")
    parser.add_argument("--verbose", action="store_true", help="print the test output of each mutant")
    parser.add_argument("--baseline", action="store_true", help="first run each group's tests on the unmutated copy (they must pass)")
    args = parser.parse_args()
    # A run stopped with SIGTERM still removes its copy.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    global SOURCE
    SOURCE = args.root.resolve()
    groups = args.groups.split(",")
    chosen: list[Mutant] = []
    for group in groups:
        pool = [m for m in all_mutants([group]) if not args.only or m.where in args.only or f"{m.where}:{m.operator}" in args.only]
        picked = pool if args.sample <= 0 or len(pool) <= args.sample else sorted(pool, key=lambda m: m.draw(args.seed))[: args.sample]
        print(f"{group}: {len(pool)} mutants, running {len(picked)}", flush=True)
        chosen += sorted(picked, key=lambda m: (m.file, m.line, m.operator))
    if args.list:
        for m in chosen:
            print(f"{m.group:15} {m.where:40} {m.operator:12} {m.original.strip()}  =>  {m.mutated.strip()}")
        return 0
    copy = make_copy(SOURCE)
    try:
        if args.baseline:
            failing = baseline(copy, groups, args.timeout)
            if failing:
                print("the tests fail on the unmutated checkout, so they would kill every mutant:\n  " + "\n  ".join(failing))
                return 2
            print("baseline: every group's tests pass on the unmutated checkout", flush=True)
        for i, m in enumerate(chosen, 1):
            run_mutant(copy, m, args.timeout, args.verbose)
            print(f"[{i}/{len(chosen)}] {m.outcome:9} {m.where:42} {m.operator:12} {m.killed_by} ({m.seconds:.0f}s)", flush=True)
            if args.json:  # kept as it goes: a long run stopped half-way still tells what it found
                args.json.parent.mkdir(parents=True, exist_ok=True)
                args.json.write_text(json.dumps([asdict(x) for x in chosen[:i]], indent=1), encoding="utf-8")
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)
    print("\nmutation score (killed / (killed + survived); stillborn mutants do not count)")
    for group in groups + ["all"]:
        ms = [m for m in chosen if group in ("all", m.group)]
        killed = sum(m.outcome == "killed" for m in ms)
        survived = sum(m.outcome == "survived" for m in ms)
        born = killed + survived
        score = f"{100 * killed / born:.0f}%" if born else "n/a"
        print(f"  {group:15} {killed:3} killed {survived:3} survived {sum(m.outcome == 'stillborn' for m in ms):3} stillborn  score {score}")
    survivors = [m for m in chosen if m.outcome == "survived"]
    if survivors:
        print("\nsurvivors:")
        for m in survivors:
            print(f"  {m.where}  {m.operator}:  {m.original.strip()}  =>  {m.mutated.strip() or '(deleted)'}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(m) for m in chosen], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

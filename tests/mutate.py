"""make mutate: plant one small bug at a time in the runtimes, the rule code and the
versioning classifier, and check that the fast tests relevant to it notice.

    python tests/mutate.py [--groups python-runtime,go-runtime,rules,classify]
                           [--sample 25] [--seed 1] [--list] [--root DIR] [--json FILE]

Operators: comparison swaps (< <=, > >=, == !=), and/or (&& ||), +1/-1,
True/False (true/false), dropping a `not`/`!`, continue/break, and deleting a line
that reports an error (`ctx.error(...)`, `c.Error(...)`, `return err`, `raise ...`,
a classifier's `changes.append(...)`). (Deleting `return INVALID` after an error is
reported changes nothing a caller sees, so it is not an operator.)
Each mutant is written into a temporary copy of the repository (--root, default this
checkout) into the runtime's source (generator/runtime/), whose generated copy there
is rewritten to match (the source behind the header, as generate writes it), and only
the tests relevant to the group run (pytest -x: the first failure kills it).
A mutant that does not compile (py_compile or `go build` refuses it) is "stillborn"
and left out of the score. The mutants are sampled (--sample per group, fixed --seed) so a
run stays affordable on 2 cores; --sample 0 runs them all.

Score = killed / (killed + survived). The survivors are listed with their place.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
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
CLASSIFY = "generator/classify.py"

# The fast tests that guard each kind of file, cheapest first (pytest -x stops at the first failure).
PY_TESTS = ["tests/test_runtime_python.py", "tests/test_golden.py::test_golden_examples_through_generated_python",
            "tests/test_golden.py::test_ten_thousand_levels_of_a_recursive_spec_are_a_validation_error",
            "tests/test_examples.py", "tests/test_docs_examples.py", "tests/test_scenarios.py::test_python",
            "tests/test_python_package.py", "-k", "not mypy and not black"]
GO_TESTS = ["tests/test_runtime_go.py::test_the_go_runtime_passes_its_own_tests",
            "tests/test_go.py::test_rule_pointers_resolve_alike_in_go_and_python",
            "tests/test_go.py::test_every_example_gets_the_same_errors_in_go_and_python",
            "tests/test_go.py::test_golden_cases_compile_vet_and_agree_with_python",
            "tests/test_go.py::test_mutated_examples_get_the_same_errors_in_go_and_python",
            "tests/test_scenarios.py::test_go",
            "tests/test_go_fuzz_target.py::test_the_golden_cases_fuzz_seed_corpora_pass"]
CLASSIFY_TESTS = ["tests/test_versioning.py", "-k", "matrix or classification or arithmetic"]

# (pattern, replacement, name); applied to one occurrence at a time, outside string literals.
_COMMON = [
    (r"(?<=\s)<(?=\s)", "<=", "< to <="), (r"(?<=\s)<=(?=\s)", "<", "<= to <"),
    (r"(?<=\s)>(?=\s)", ">=", "> to >="), (r"(?<=\s)>=(?=\s)", ">", ">= to >"),
    (r"(?<=\s)==(?=\s)", "!=", "== to !="), (r"(?<=\s)!=(?=\s)", "==", "!= to =="),
    (r"(?<=\s)\+ 1\b", "- 1", "+1 to -1"), (r"(?<=\s)- 1\b", "+ 1", "-1 to +1"),
]
_PY_OPS = _COMMON + [
    (r"(?<=\s)and(?=\s)", "or", "and to or"), (r"(?<=\s)or(?=\s)", "and", "or to and"),
    (r"\bTrue\b", "False", "True to False"), (r"\bFalse\b", "True", "False to True"),
    (r"\bnot (?!in\b)", "", "drop not"), (r"\bcontinue\b", "break", "continue to break"),
]
_GO_OPS = _COMMON + [
    (r"&&", "||", "&& to ||"), (r"\|\|", "&&", "|| to &&"),
    (r"\btrue\b", "false", "true to false"), (r"\bfalse\b", "true", "false to true"),
    (r"!(?=[\w(])", "", "drop !"), (r"\bcontinue\b", "break", "continue to break"),
]
_PY_DELETE = re.compile(r"^\s*(ctx\.error\(|raise |changes\.append\()")
_GO_DELETE = re.compile(r"^\s*(c\.Error\(|return err$|return nil, err$|return false$)")


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


def _skippable(text: str) -> bool:
    s = text.strip()
    return not s or s.startswith(("#", "//", "*", '"""', "import ", "from ", "package ", "def ", "func ", "class ", "type ", "@"))


def mutants_of(group: str, path: str, lines: range | None = None) -> list[Mutant]:
    text = (SOURCE / path).read_text(encoding="utf-8")
    go = path.endswith(".go")
    ops, delete = (_GO_OPS, _GO_DELETE) if go else (_PY_OPS, _PY_DELETE)
    found = []
    in_doc = False
    for n, line in enumerate(text.split("\n"), 1):
        if not go and line.strip().startswith('"""'):
            in_doc = not (line.strip().count('"""') == 2 and len(line.strip()) > 3) and not in_doc
            continue
        if in_doc or _skippable(line) or (lines is not None and n not in lines):
            continue
        for pattern, replacement, name in ops:
            for m in re.finditer(pattern, line):
                if not _in_string(line, m.start()):
                    found.append(Mutant(group, path, n, name, line, line[:m.start()] + replacement + line[m.end():]))
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


def all_mutants(groups: list[str]) -> list[Mutant]:
    out: list[Mutant] = []
    rules = _rule_lines(PY_RUNTIME)
    if "python-runtime" in groups:
        out += [m for m in mutants_of("python-runtime", PY_RUNTIME) if m.line not in rules]
    if "go-runtime" in groups:
        for path in go_runtime_files():
            out += mutants_of("go-runtime", path)
    if "rules" in groups:
        out += mutants_of("rules", PY_RUNTIME, rules) + mutants_of("rules", GO_RULES)
    if "classify" in groups:
        out += mutants_of("classify", CLASSIFY)
    return out


# --- running ---------------------------------------------------------------------------


def make_copy(source: Path) -> Path:
    work = Path(tempfile.mkdtemp(prefix="chatspec-mutate-"))
    ignore = shutil.ignore_patterns(".venv", ".git", "build", "__pycache__", ".mypy_cache", ".pytest_cache", "node_modules", "mutants")
    shutil.copytree(source, work / "repo", ignore=ignore)
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
    return f"generated/go/internal/rt/{Path(source).name}", f"// {header(None)}\n\n{text}"


def _run(cmd: list[str], cwd: Path, timeout: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd), "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}
    env.pop("CI", None)
    try:
        return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        return subprocess.CompletedProcess(cmd, 124, str(exc.stdout or ""), "timeout")


def tests_for(m: Mutant, copy: Path) -> list[str]:
    """The group's tests that exist in the checkout under test (an older one may lack some)."""
    wanted = CLASSIFY_TESTS if m.file == CLASSIFY else GO_TESTS if m.file.endswith(".go") else PY_TESTS
    out = []
    for arg in wanted:
        file, _, name = arg.partition("::")
        if file.startswith("tests/") and not ((copy / file).is_file() and (not name or f"def {name}(" in (copy / file).read_text())):
            continue
        out.append(arg)
    return out


def run_mutant(copy: Path, m: Mutant, timeout: int, verbose: bool = False) -> None:
    start = time.perf_counter()
    original = (copy / m.file).read_text(encoding="utf-8")
    lines = original.split("\n")
    assert lines[m.line - 1] == m.original, f"{m.where} changed since the mutants were listed"
    mutated = "\n".join(lines[: m.line - 1] + [m.mutated] + lines[m.line:])
    generated: tuple[str, str] | None = None
    backup: str | None = None
    try:
        (copy / m.file).write_text(mutated, encoding="utf-8")
        if m.file.startswith("generator/runtime/"):
            generated = _generated(copy, m.file, mutated)
            backup = (copy / generated[0]).read_text(encoding="utf-8")
            (copy / generated[0]).write_text(generated[1], encoding="utf-8")
        if m.file.endswith(".go"):
            built = _run(["go", "build", "./..."], copy / "generated" / "go", timeout)
            if built.returncode != 0:
                m.outcome = "stillborn"
                return
        elif m.file.endswith(".py"):
            if _run([PYTHON, "-m", "py_compile", m.file], copy, timeout).returncode != 0:
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
        m.seconds = time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", default="python-runtime,go-runtime,rules,classify")
    parser.add_argument("--sample", type=int, default=25, help="mutants per group (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to copy and test (default: this one)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per mutant")
    parser.add_argument("--json", type=Path, help="write every mutant's outcome here")
    parser.add_argument("--only", action="append", default=[], metavar="FILE:LINE[:OPERATOR]",
                        help="run only the mutants at this place (all operators there, or the one named); repeatable")
    parser.add_argument("--verbose", action="store_true", help="print the test output of each mutant")
    args = parser.parse_args()
    global SOURCE
    SOURCE = args.root.resolve()
    groups = args.groups.split(",")
    chosen: list[Mutant] = []
    for group in groups:
        pool = [m for m in all_mutants([group]) if not args.only or m.where in args.only or f"{m.where}:{m.operator}" in args.only]
        picked = pool if args.sample <= 0 or len(pool) <= args.sample else random.Random(args.seed).sample(pool, args.sample)
        print(f"{group}: {len(pool)} mutants, running {len(picked)}", flush=True)
        chosen += sorted(picked, key=lambda m: (m.file, m.line, m.operator))
    if args.list:
        for m in chosen:
            print(f"{m.group:15} {m.where:40} {m.operator:12} {m.original.strip()}  =>  {m.mutated.strip()}")
        return 0
    copy = make_copy(SOURCE)
    try:
        for i, m in enumerate(chosen, 1):
            run_mutant(copy, m, args.timeout, args.verbose)
            print(f"[{i}/{len(chosen)}] {m.outcome:9} {m.where:42} {m.operator:12} {m.killed_by} ({m.seconds:.0f}s)", flush=True)
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

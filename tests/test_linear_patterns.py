"""Patterns run in time linear in the value's length in every runtime, by construction (issue 26).

No test here times anything (speed is measured in make bench: tests/bench_patterns.py).
Linearity is shown by structure: the generated Python and TypeScript match a spec
pattern either with its automaton (generator/automaton.py: one transition per
character) or with re/RegExp where generator/backtracking.py proves the engine
linear, and Go uses RE2 (regexp), linear by construction. The automaton must mean
what Python's re.search means (jsonschema's verdict on the pattern as written), and
the three runtimes must agree on adversarial values.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import automaton, backtracking, patterns
from generator.automaton import compile_pattern
from generator.backtracking import runs_linear
from generator.patterns import PatternError
from generator.pyregex import to_python
from generator.targets.typescript.literals import to_typescript

sys.path.insert(0, str(ROOT / "tests"))
import bench_patterns  # noqa: E402
from test_runtime_python import rt as RUNTIME  # noqa: E402  (the Python runtime as source)

# The issue's patterns, slow in Python and TypeScript before, and one the old check accepted that
# backtracks exponentially through empty alternatives.
SLOW = bench_patterns.ISSUE_PATTERNS


# --- the automaton means re.search -------------------------------------------------------------

_ALPHABET = ["a", "b", "é", "\n", " ", "1", "٣", "_", "-", "\u3000", "\ud800", "😀"]


def _atom() -> st.SearchStrategy[str]:
    return st.sampled_from(
        [
            "a",
            "b",
            "é",
            "\\n",
            " ",
            "-",
            ".",
            "\\d",
            "\\s",
            "\\w",
            "\\D",
            "\\S",
            "\\W",
            "[ab]",
            "[^a]",
            "[a-z_]",
            "[\\d\\s]",
            "[^\\w]",
            "😀",
            "\\.",
            "1",
        ]
    )


def _quantified(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(inner, st.sampled_from(["", "", "*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}"])).map("".join)


def _regex(depth: int = 2) -> st.SearchStrategy[str]:
    pieces = (
        _quantified(_atom())
        if depth == 0
        else st.one_of(
            _quantified(_atom()), _quantified(st.lists(_regex(depth - 1), min_size=1, max_size=3).map(lambda bs: "(" + "|".join(bs) + ")"))
        )
    )
    return st.lists(pieces, max_size=4).map("".join)


# A spec pattern: top-level branches, each optionally anchored.
PATTERNS = st.lists(
    st.tuples(st.booleans(), _regex(), st.booleans()).map(lambda t: ("^" if t[0] else "") + t[1] + ("$" if t[2] else "")),
    min_size=1,
    max_size=3,
).map("|".join)
VALUES = st.lists(st.sampled_from(_ALPHABET), max_size=8).map("".join)


def _automaton_or_none(text: str) -> automaton.Automaton | None:
    try:
        patterns.parse(text)
        return compile_pattern(text)
    except PatternError:
        return None


@settings(max_examples=300, deadline=None, derandomize=True)
@given(PATTERNS, st.lists(VALUES, min_size=1, max_size=8))
def test_the_automaton_gives_the_verdict_of_re_search_on_the_pattern_as_written(text: str, values: list[str]) -> None:
    dfa = _automaton_or_none(text)
    if dfa is None:
        return
    as_written, translated = re.compile(text), re.compile(to_python(text))
    runtime = RUNTIME.Automaton(dfa.encode())
    for value in values:
        expected = as_written.search(value) is not None
        assert (translated.search(value) is not None) == expected, (text, value)
        assert dfa.search(value) == expected, (text, value)
        # The runtime's own walk (decoded from the text the generated module holds) agrees.
        assert (runtime.search(value) is not None) == expected, (text, value)


@pytest.mark.parametrize(
    "text",
    [
        *SLOW,
        *bench_patterns.corpus_patterns(),
        "",
        "^$",
        "$",
        "a|",
        "a$|^b",
        "x\n$",
        r"^\w{1,1000}$",
        r"[a-z]{1000}",
        r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$",
    ],
)
def test_the_automaton_agrees_with_re_search_on_edge_values(text: str) -> None:
    try:
        dfa = compile_pattern(text)
    except PatternError:
        return  # a broken spec's pattern
    runtime = RUNTIME.Automaton(dfa.encode())
    compiled = re.compile(to_python(text))
    # Short values only: re.search is the oracle, and it is exponential on some of these.
    for value in [
        "",
        "\n",
        "a",
        "a\n",
        "a\n\n",
        "\na",
        "key: value",
        "abcd",
        "aax",
        "x",
        "x\n",
        "ABC-123",
        "123456",
        "é",
        "😀",
        "\ud800",
        " : ",
        "a" * 7 + "!",
        "foo@bar.io",
        'say "hi"',
    ]:
        expected = compiled.search(value) is not None
        assert dfa.search(value) == expected == (runtime.search(value) is not None), (text, value)


# --- the bounds, and their refusals --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("a.{20}b", "more than 4,096 states"),  # unanchored: a state for every set of places an "a" was seen
        ("(a{1000}){10}", "more than 5,000 characters"),
        ("^.*a.{12}$", "more than 4,096 states"),
    ],
)
def test_a_pattern_whose_automaton_is_too_large_is_refused_with_a_hint(text: str, why: str) -> None:
    with pytest.raises(PatternError) as caught:
        compile_pattern(text)
    assert "too complex to match in linear time" in caught.value.problem and why in caught.value.problem
    assert caught.value.hint


@pytest.mark.parametrize(
    "text",
    [
        r"^[a-z]{1,1000}$",
        r"[0-9]{1000}",
        r"^\w{0,1000}$",
        "^" + "(.*)" * 100 + "$",
        r"^(a{1,10}){1,10}$",
        "(" + "|".join(chr(0x4E00 + i) for i in range(300)) + ")*x",
        "[a-z]*" * 150,
        "(x?)" * 200,
    ],
)
def test_large_patterns_that_a_spec_may_well_hold_compile(text: str) -> None:
    assert compile_pattern(text).states <= automaton.MAX_STATES


# --- the proof that a backtracking engine stays linear ---------------------------------------------


def _backtracking_steps(text: str, value: str) -> int:
    """The (node, position) visits of a depth-first backtracking search over the pattern's Thompson
    automaton (the model generator/backtracking.py reasons about), for every start position."""
    parsed = patterns.parse(text)
    g = backtracking._Thompson()
    starts = []
    for branch in parsed.alternatives:
        anchored = bool(branch) and isinstance(branch[0], patterns.Anchor) and branch[0].kind == "^"
        starts.append((anchored, g.sequence(branch, backtracking._MATCH)))
    steps = 0
    for start in range(len(value) + 1):
        stack = [(entry, start) for anchored, entry in starts if not anchored or start == 0]
        while stack:  # every way, depth first: the engine stops at the first match, the model goes on
            node, i = stack.pop()
            steps += 1
            if node == backtracking._MATCH:
                continue
            ranges = g.sets[node]
            if ranges is None:
                stack.extend((s, i) for s in g.succ[node])
            elif i < len(value) and any(lo <= ord(value[i]) <= hi for lo, hi in ranges):
                stack.append((g.succ[node][0], i + 1))
    return steps


@pytest.mark.parametrize(
    "text",
    [
        r"^[a-z]+(-[a-z]+)*$",
        r"^\+?[0-9]+(\.[0-9]+)?$",
        r"^(ab|cd)*$",
        r"\.json$",
        r"^[a-z]*[0-9]*$",
        r"^[A-Z]{3}-[0-9]+$",
        r'^[^"\\]*$',
        r"\S",
        r"^(a|b)*c$",
    ],
)
def test_a_proven_pattern_costs_a_backtracking_engine_a_bounded_number_of_steps_per_character(text: str) -> None:
    assert runs_linear(text)
    for n in (50, 100):
        for value in ("a" * n, "a" * n + "!", " " * n, "ab" * n, "a-" * n, "1" * n + "x", "A" * n):
            g = backtracking._Thompson()
            g.choice([g.sequence(b, backtracking._MATCH) for b in patterns.parse(text).alternatives])
            bound = (len(value) + 1) * (len(g.sets) + 2) * (backtracking.NATIVE_SPAN + 1)
            assert _backtracking_steps(text, value) <= bound, (text, value)


@pytest.mark.parametrize("text", [*SLOW, r"a*b", r"^(a|ab)*c$", r"^(a+)+$", r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", r"^(a?)*$", r"^a|^a"])
def test_a_pattern_the_proof_does_not_cover_gets_the_automaton(text: str) -> None:
    assert not runs_linear(text)


def test_the_model_of_a_pattern_the_proof_refuses_really_is_superlinear() -> None:
    # The proof is not merely cautious: on its refusals the backtracking model grows faster than n.
    # (Twice the characters, more than thrice the steps; the model counts every way, so the values are short.)
    for text, char, n in ((r"a*b", "a", 8), (r"^\s*(.*)\s*:\s*(.*)\s*$", " ", 8), (r"^(a(|)(|))*x$", "a", 4)):
        small, large = _backtracking_steps(text, char * n), _backtracking_steps(text, char * 2 * n)
        assert large > 3 * small, (text, small, large)


# --- every generated matcher is an automaton walk or a proven pattern --------------------------------


def _generated(pats: list[str], tmp_path: Path) -> dict[str, str]:
    from generator.core import generate
    from generator.load import load_spec

    folder = tmp_path / "specs" / bench_patterns.FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(bench_patterns.spec(pats)), encoding="utf-8")
    return generate([load_spec(folder, tmp_path)], targets=["python", "typescript"])


def test_the_generated_python_and_typescript_compile_each_pattern_as_an_automaton_or_a_proven_regex(tmp_path: Path) -> None:
    pats = bench_patterns.bench_patterns()
    assert set(SLOW) <= set(pats), "the issue's patterns are accepted"
    files = _generated(pats, tmp_path)
    python = files[f"python/chatformats/{bench_patterns.FORMAT}.py"]
    typescript = files[f"typescript/src/{bench_patterns.FORMAT}.ts"]
    # Python: every pattern is compiled through _rt.regex (proven) or _rt.Automaton, nothing else.
    assert "re.compile" not in python and "re.search" not in python
    calls = [
        (node.func.attr, node.args[0].value)
        for node in ast.walk(ast.parse(python))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "_rt"
        and node.func.attr in ("regex", "Automaton")
        and isinstance(node.args[0], ast.Constant)
    ]
    regexes = [arg for kind, arg in calls if kind == "regex"]
    automata = [arg for kind, arg in calls if kind == "Automaton"]
    assert regexes and automata
    proven = {to_python(p) for p in pats if runs_linear(p)}
    assert set(regexes) == proven
    assert set(automata) == {compile_pattern(p).encode() for p in pats if not runs_linear(p)}
    # TypeScript: the same split.
    assert set(re.findall(r'rt\.regex\("(?:[^"\\]|\\.)*"\)', typescript)) == {to_typescript(p) for p in pats if runs_linear(p)}
    assert set(re.findall(r'new rt\.Automaton\("([^"]*)"\)', typescript)) == {
        compile_pattern(p).encode() for p in pats if not runs_linear(p)
    }
    # The runtimes take a compiled matcher: they compile no spec pattern themselves.
    source = (ROOT / "generator" / "runtime" / "python" / "_runtime.py").read_text(encoding="utf-8")
    assert "compiled = pattern\n" in source
    assert "pattern?: Matcher;" in (ROOT / "generator" / "runtime" / "typescript" / "runtime.ts").read_text(encoding="utf-8")


# --- the three runtimes agree on adversarial values ----------------------------------------------------


@pytest.mark.skipif(not bench_patterns.go_available(), reason="Go is not installed: the Go checks did not run")
def test_python_go_and_typescript_give_the_automatons_verdict_on_adversarial_values(tmp_path: Path) -> None:
    from go_driver import build_driver
    from go_driver import run_driver as run_go
    from typescript_driver import compile_package
    from typescript_driver import run_driver as run_typescript

    pats = bench_patterns.bench_patterns()
    files = bench_patterns.write_generated(pats, tmp_path)
    cases, expected = [], []
    for i, p in enumerate(pats):
        for make in bench_patterns.VALUES.values():
            value = make(2_000)
            cases.append(json.dumps({f"p{i}": value}))
            expected.append(compile_pattern(p).search(value))
    assert any(expected) and not all(expected)
    script = (
        "import json, sys\nsys.path.insert(0, sys.argv[1])\nfrom chatformats import pattern_bench as m\nout = []\n"
        "for text in json.load(sys.stdin):\n    try:\n        m.parse_pattern_bench_from_json(text)\n        out.append(True)\n"
        "    except m.ValidationError:\n        out.append(False)\nprint(json.dumps(out))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(files / "python")], input=json.dumps(cases), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    verdicts = {"Python": json.loads(done.stdout)}
    binary = build_driver(files / "go", bench_patterns.MODULE, [bench_patterns.FORMAT], tmp_path / "godriver")
    verdicts["Go"] = [r["ok"] for r in run_go(binary, [(bench_patterns.FORMAT, c) for c in cases])]
    dist = compile_package(files / "typescript")
    verdicts["TypeScript"] = [r["ok"] for r in run_typescript(dist, [(bench_patterns.FORMAT, c, None) for c in cases])]
    for runtime, got in verdicts.items():
        wrong = [
            f"{pats[k // len(bench_patterns.VALUES)]!r} on {list(bench_patterns.VALUES)[k % len(bench_patterns.VALUES)]}"
            for k, (g, e) in enumerate(zip(got, expected))
            if g != e
        ]
        assert not wrong, f"{runtime} disagrees with the automaton: " + ", ".join(wrong)

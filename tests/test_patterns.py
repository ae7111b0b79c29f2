"""Spec patterns: the portable subset (RFC 9485 I-Regexp) is accepted and means the same in Python and Go; the rest is refused.

Patterns that can backtrack exponentially in Python's engine are refused by shape
(no timed test: a refusal is checked, never a stopwatch).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import GOLDEN, ROOT
from go_driver import GO_ENV, go_available

from generator import patterns, runtime
from generator.patterns import PatternError, check
from generator.targets.go.regex import to_go
from generator.pyregex import to_python
from generator.reference import ecma_end


def _spec_patterns() -> list[str]:
    """Every pattern in the repository's specs, their locked history and the golden cases."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("pattern"), str) and value.get("type") in ("string", ["string", "null"]):
                found.add(value["pattern"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in [*sorted((ROOT / "specs").rglob("*.json")), *sorted(GOLDEN.glob("*/spec.json"))]:
        walk(json.loads(path.read_text(encoding="utf-8")))
    return sorted(found)


SPEC_PATTERNS = _spec_patterns()

# Patterns that are portable and unambiguous: accepted, and the same verdict in both targets.
ACCEPTED = [
    *SPEC_PATTERNS,
    r"^[a-z][a-z0-9_]{0,63}$",
    r"^([0-9]{2})+$",
    r"(\d{2}){0,63}x",
    r"(a?){5}b",
    r"^([a-z]+-)*[a-z]+$",
    r"^\+?[0-9]+(\.[0-9]+)?$",
    r"^(ab|cd)*$",
    r"^\d{4}-\d{2}-\d{2}$",
    r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$",
    r"a{2,5}b",
    r"^\w+$|^\s*$",
    r"[.*+?(){}|\]\[\\^-]",
    r"\.\*\+\?\(\)\{\}\|\[\]\\\^\-",
    r"x.y",
    r"^$",
    r"",
    r"a|",
    r"[$]\d",
    r"\n\r\t",
    r"^\S",
    r"é+",
    r"a\\",
]

# Shapes known to backtrack exponentially (or badly) in Python's re.
BACKTRACKING = [
    r"^(a+)+$",
    r"(a|a)*",
    r"(a|ab)*c",
    r"(a*)*b",
    r"(\s*\S+)*$",
    r"(x+x+)+y",
    r"(a?a)+b",
    r"^(\w+\s?)*$",
    r"(.*a){12}",
    r"(a|b|ab)*c",
    r"^([a-z0-9]+)*@",
    r"(\d+)+\.",
    r"(a{2,5})+",
    r"(a{1,2})+b",
    r"(a|a){11}",
    r"^(([a-z])+.)+[A-Z]([a-z])+$",
    r"(\w|\d)+$",
]

# Outside the subset: each with a piece of the message that says why.
NOT_PORTABLE = [
    (r"^(?!admin).*$", "look-arounds"),
    (r"(?x)a", "inline flags"),
    (r"(?i)a", "inline flags"),
    (r"(?:a)", "non-capturing"),
    (r"(a)\1", "back-reference"),
    (r"\u00e9", "\\u escape"),
    (r"\N{DASH}", "\\N{...}"),
    (r"\x41", "\\x escape"),
    (r"a{,3}", "is not a repeat count"),
    (r"[[:alpha:]]", "POSIX classes"),
    (r"\bword\b", "word boundary"),
    (r"a*?", "lazy or possessive"),
    (r"a++", "lazy or possessive"),
    (r"a{1001}", "above 1000"),
    (r"a{3,2}", "maximum below its minimum"),
    (r"[z-a]", "reversed"),
    (r"a$b", "'$' is an anchor only"),
    (r"(^a)", "'^' is an anchor only"),
    (r"a^", "'^' is an anchor only"),
    (r"(a$)", "'$' is an anchor only"),
    (r"[\S]", "inside a character class"),
    (r"\p{Greek}", "a Unicode category"),
    (r"\p{L}", "Python's re"),
    (r"[\P{Nd}]", "Python's re"),
    (r"a]", "must be escaped"),
    (r"a}", "must be escaped"),
    (r"*a", "nothing to repeat"),
    (r"(a", "never closed"),
    (r"a)", "unmatched ')'"),
    (r"[a", "never closed"),
    (r"[]", "empty class"),
    ("a\\", "lone backslash"),
    (r"[a-\d]", "cannot end at a class escape"),
    (r"\A", "\\A"),
    (r"\Z", "\\Z"),
    (r"\z", "\\z"),
    (r"\v", "\\v"),
    (r"a**", "quantifier follows a quantifier"),
    (r"\/", "the escape \\/"),
    ("\ud800", "lone surrogate"),
    ("(" * 51 + ")" * 51, "nest more than 50"),
    ("a" * 1001, "at most 1000"),
]


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_portable_unambiguous_patterns_are_accepted(pattern: str) -> None:
    check(pattern)


def test_every_pattern_the_specs_and_golden_cases_use_is_in_the_corpus_and_translates_to_itself_with_its_end_for_python() -> None:
    assert {r"\S", r"^[0-9]{6}$", r'^[^"\\]*$'} <= set(SPEC_PATTERNS)
    for pattern in SPEC_PATTERNS:
        # Translation to Python is the identity for them but for `$`, the end of the text (ECMA-262's), which is `\Z`.
        assert to_python(pattern) == ecma_end(pattern)
    assert to_python(r"^[0-9]{6}$") == r"^[0-9]{6}\Z" and to_python(r"^[$]") == r"^[$]"


@pytest.mark.parametrize("pattern", BACKTRACKING)
def test_patterns_that_can_backtrack_exponentially_are_refused(pattern: str) -> None:
    patterns.parse(pattern)  # portable syntax: it is the shape that is refused
    with pytest.raises(PatternError) as caught:
        check(pattern)
    assert (
        "backtrack exponentially" in caught.value.problem
        or "repeats alternatives that can start with the same character" in caught.value.problem
    )
    assert caught.value.hint


@pytest.mark.parametrize(("pattern", "why"), NOT_PORTABLE)
def test_patterns_outside_the_portable_subset_are_refused_with_the_reason(pattern: str, why: str) -> None:
    with pytest.raises(PatternError) as caught:
        check(pattern)
    assert why in caught.value.problem
    assert caught.value.hint


def test_a_refusal_names_the_character_where_the_pattern_leaves_the_subset() -> None:
    with pytest.raises(PatternError, match=r"at character 3: '\(\?!'"):
        check(r"^a(?!b)")


def test_the_go_translation_spells_out_python_meanings() -> None:
    # \d and \w kept as written: rt.Pattern spells them out as their pinned ranges (generator/unicode_classes.py);
    # `$` is the end of the text (ECMA-262's, RE2's \z), not also before a final line feed (Python's `$`).
    assert to_go(r"\d") == r"\d" and to_go(r"[\w-]") == r"[\w\-]" and to_go(r"^\W$") == r"^\W\z"
    assert to_go(r"^a$") == r"^a\z"
    assert to_go(r"a$|b$") == r"a\z|b\z"


def test_python_translation_escapes_what_python_would_read_as_syntax_or_set_operations() -> None:
    assert to_python(r"[&&~~||]") == r"[\&\&\~\~\|\|]"
    assert to_python(r"\{\}") == r"\{\}"
    assert re.search(to_python(r"[\]\[]"), "[")


# Probe strings for the differential check: ASCII, non-ASCII letters and digits,
# Unicode spaces, line ends, symbols.
PROBES = [
    "",
    "a",
    "ab",
    "abc",
    "aab",
    "Ab",
    "123456",
    "123456\n",
    "12345",
    "1234567",
    "x\ny",
    "x\ry",
    "\n",
    "a\n",
    "a\n\n",
    'say "hi"',
    "back\\slash",
    "é",
    "Éa",
    "日本",
    "٣٤",
    "\u00a0",
    "\u2003x",
    "x\u3000",
    "a-b-c",
    "a--b",
    "-ab",
    "foo@bar.io",
    "foo@@bar.io",
    "2024-01-31",
    "٢٠٢٤-٠١-٣١",
    "_",
    "a_1",
    "ab ",
    " ",
    "\t",
    "$1",
    "[x]",
    ".*+?(){}|[]\\^-",
    "x.y",
    "xyz",
    "ⅷ",
    "²",
    "a" * 6,
    "ABC",
    "cd",
    "abcd",
    "+1.5",
    "1.",
    "\x1c",
    "\u0085",
    "\U00011f50",  # a digit (Kawi) and a letter (CJK Extension I) newer than the pinned \d and \w: none in every target
    "\U0002ebf0",
]


@pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")
def test_every_accepted_pattern_compiles_in_go_and_gives_pythons_verdict_on_every_probe(tmp_path: Path) -> None:
    cases = [{"go": to_go(p), "python": to_python(p)} for p in ACCEPTED]
    # The program runs in a copy of the runtime's module: rt.Pattern compiles each pattern, as the generated code does.
    shutil.copytree(runtime.GO_MODULE, tmp_path, dirs_exist_ok=True)
    (tmp_path / "cases.json").write_text(json.dumps({"patterns": [c["go"] for c in cases], "probes": PROBES}), encoding="utf-8")
    (tmp_path / "cmd").mkdir()
    (tmp_path / "cmd" / "main.go").write_text(_GO_PROGRAM, encoding="utf-8")
    done = subprocess.run(["go", "run", "./cmd"], cwd=tmp_path, env=GO_ENV, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    go = json.loads(done.stdout)
    disagreements = []
    for pattern, case, row in zip(ACCEPTED, cases, go):
        compiled = re.compile(case["python"])
        for probe, go_match in zip(PROBES, row):
            if bool(compiled.search(probe)) != go_match:
                disagreements.append(f"{pattern!r} on {probe!r}: Python {not go_match}, Go {go_match}")
    assert not disagreements, "\n".join(disagreements)


_GO_PROGRAM = """package main

import (
	"encoding/json"
	"os"

	"chatspec.invalid/runtime/internal/rt"
)

func main() {
	var in struct {
		Patterns []string `json:"patterns"`
		Probes   []string `json:"probes"`
	}
	data, err := os.ReadFile("cases.json")
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(data, &in); err != nil {
		panic(err)
	}
	out := [][]bool{}
	for _, p := range in.Patterns {
		re := rt.Pattern(p)
		row := []bool{}
		for _, s := range in.Probes {
			row = append(row, re.MatchString(s))
		}
		out = append(out, row)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
"""


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = [
    "a",
    "b",
    "é",
    "-",
    "^",
    "$",
    ".",
    "|",
    "(",
    ")",
    "[",
    "]",
    "[^",
    "{",
    "}",
    ",",
    "2",
    "0",
    "*",
    "+",
    "?",
    "\\",
    "\\d",
    "\\s",
    "\\w",
    "\\S",
    "\\p{L}",
    "\\P{Nd}",
    "\\n",
    "\\.",
    "\\\\",
    "(?",
    "{1,3}",
    "{2}",
    "\n",
    "\x00",
]


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
def test_any_text_is_either_refused_with_a_reason_or_compiles_in_python_with_the_same_verdict(text: str) -> None:
    try:
        check(text)
    except PatternError as exc:
        assert exc.problem and exc.hint
        return
    compiled = re.compile(to_python(text))
    assert isinstance(to_go(text), str)
    # The Python translation means what Python reads in the spec pattern, with `$` the end of the text (ECMA-262's).
    original = re.compile(ecma_end(text))
    for probe in PROBES:
        assert bool(compiled.search(probe)) == bool(original.search(probe)), (text, probe)


# Large patterns: the check's work is bounded (steps between pairs of automaton edges, not only
# pairs), so a spec of hostile patterns cannot stall chatspec check; one that needs more is refused.
def test_the_backtracking_check_accepts_a_large_unambiguous_pattern() -> None:
    # 300 alternatives of distinct letters under a star: many states, no ambiguity.
    letters = [chr(0x4E00 + i) for i in range(300)]
    check("^(" + "|".join(letters) + ")*$")


def test_the_backtracking_check_refuses_a_large_ambiguous_pattern() -> None:
    # 300 alternatives of the same letter under a star: every way to split the text is a match.
    with pytest.raises(PatternError, match="start with the same character"):
        check("(" + "|".join(["a"] * 300) + ")*")


@pytest.mark.parametrize(
    "pattern",
    [
        "[a-z]*" * 150,  # each star's follow edges reach every later position: millions of pairs
        "(x?)" * 200,
        "([a-z][0-9])*" * 70,
        "x*" + ".?" * 300,
        # Python's re takes more than 20 s to fail "aaaaaaaaaaaaaaaaaaaa!" against it: not
        # exponential in one repeat, but a polynomial of degree 20 (the check once accepted it).
        "[a-z]{0,10}" * 20,
    ],
    ids=["stars", "optionals", "starred-pairs", "optional-dots", "twenty-counted-repeats"],
)
def test_a_pattern_with_too_many_ways_to_check_is_refused_as_too_complex(pattern: str) -> None:
    with pytest.raises(PatternError, match="too complex to check"):
        check(pattern)


# `$` is the end of the text, as ECMA-262 (JSON Schema's dialect) reads it, in every target and in the oracle: Python's
# `$` also matches before one final line feed, so "abc\n" passed `^[a-z]+$` in every target before (an identifier with a
# line feed in it, which Ajv and the server refuse).
END_SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Ends",
    "description": "Patterns that end with $.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Root",
    "$defs": {
        "Root": {
            "type": "object",
            "description": "The root.",
            "properties": {
                "native": {"type": "string", "pattern": "^[a-z]+$", "description": "A regex each engine runs."},
                "automaton": {"type": "string", "pattern": "[a-z]+c$", "description": "An automaton in Python and TypeScript."},
                "branches": {"type": "string", "pattern": "^a$|bc$", "description": "Two branches, each ending."},
                "keys": {
                    "type": "object",
                    "description": "Keys ending as written.",
                    "patternProperties": {"^k[0-9]$": {"type": "integer"}},
                    "additionalProperties": False,
                },
                "applied": {"pattern": "^[a-z]+$", "description": "A schema applied as written."},
            },
        }
    },
}
END_TEXTS = ["abc", "abc\n", "abc\n\n", "a\n", "a", "\n", "", "ab\nc", "bc\n"]


def test_a_final_line_feed_after_the_end_anchor_is_refused_in_every_target_and_by_the_oracle(tmp_path: Path) -> None:
    import conformance
    from generator.core import generate
    from generator.load import load_spec

    folder = tmp_path / "specs" / "ends"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(END_SPEC, indent=2) + "\n", encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=["python", "go", "typescript", "pydantic", "jsonschema"])
    built = conformance.build(files, ["ends"], tmp_path / "generated")
    documents = [{field: text} for field in ("native", "automaton", "branches", "applied") for text in END_TEXTS]
    documents += [{"keys": {"k1" + tail: 1}} for tail in ("", "\n", "\n\n")]
    cases: list[conformance.Case] = [("ends", json.dumps(d), None) for d in documents]
    found = built.verdicts(cases)
    assert set(found) == built.languages == {"python", "go", "typescript"}
    oracle = conformance.oracle(END_SPEC)
    wrong = conformance.disagreements(cases, found, {"ends": [("the spec as written", oracle)]})
    assert not wrong, "\n".join(wrong[:20])
    # The oracle itself reads `$` as the end: the verdicts above are not Python's `$` on every side.
    assert [oracle.is_valid(d) for d in ({"native": "abc"}, {"native": "abc\n"}, {"keys": {"k1\n": 1}})] == [True, False, False]
    assert [v["ok"] for v in found["python"][:3]] == [True, False, False]
    # The pydantic models write `$` as `\Z` too (Python's re runs them); the exported schema keeps the spec's text.
    models = next(text for path, text in files.items() if path.startswith("pydantic/") and "class Root" in text)
    assert "'^[a-z]+\\\\Z'" in models or '"^[a-z]+\\\\Z"' in models, models
    assert json.loads(files["jsonschema/ends.schema.json"])["$defs"]["Root"]["properties"]["native"]["pattern"] == "^[a-z]+$"

"""The formats chatspec asserts on a string (date, time, date-time, uri, uri-reference, uuid, email) mean the
same in the three runtimes: Go's rt.FormatPatterns and TypeScript's FORMAT_PATTERNS are the Python runtime's
FORMAT_PATTERNS, text for text, and Python's format_ok, Go's FormatOK and TypeScript's formatOk give one verdict
on every string case of the JSON Schema Test Suite's optional format tests (which is also the suite's verdict),
on the edge cases below (with the verdict each states) and on long hostile strings. A schema applied as written
(the Checks of each runtime) reports format where format_ok refuses, after pattern and before contentEncoding.

Each runtime is taken as generate writes it (behind the header) and run once over every case: one Go program,
one node process."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import GENERATED
from generator import runtime, string_formats
from go_driver import GO_ENV, go_available
from typescript_driver import compile_package, node_available, write_tree

SUITE = Path(__file__).resolve().parent / "json_schema_test_suite" / "draft2020-12" / "optional" / "format"
FORMATS = ("date", "time", "uri", "uri-reference", "uuid", "email")


# The Python runtime as the generator reads it (its own checks of examples and defaults use the same module).
rt = string_formats.reference()


def _suite_cases() -> list[tuple[str, str, bool]]:
    """(format, text, the suite's verdict) for every string case of the six files (the suite's cases of other
    JSON types are no strings: format does not apply to them)."""
    cases = []
    for name in FORMATS:
        for group in json.loads((SUITE / f"{name}.json").read_text(encoding="utf-8")):
            assert group["schema"].get("format") == name, (name, group["description"])
            cases.extend((name, test["data"], test["valid"]) for test in group["tests"] if isinstance(test["data"], str))
    return cases


SUITE_CASES = _suite_cases()

EDGE_CASES: list[tuple[str, str, bool]] = [
    # Leap days: 1900 is no leap year, 2000 is; year 0000 is a full-date (date-time, as Python's datetime, refuses it).
    ("date", "1900-02-29", False), ("date", "2000-02-29", True), ("date", "2024-02-29", True), ("date", "2023-02-29", False),
    ("date", "0000-02-29", False), ("date", "0001-01-01", True), ("date", "2024-04-31", False), ("date", "2024-00-10", False), ("date", "2024-13-10", False),
    ("date", "2024-01-00", False), ("date", " 2020-01-01", False), ("date", "２０２０-01-01", False), ("date", "2020-01-0\u0661", False),
    # A leap second is 23:59:60 in UTC, whatever offset spells it; -00:00 is UTC too.
    ("time", "23:59:60Z", True), ("time", "23:59:60z", True), ("time", "23:59:60+00:00", True), ("time", "23:59:60-00:00", True),
    ("time", "15:59:60-08:00", True), ("time", "00:29:60+00:30", True), ("time", "00:00:60+00:01", True),
    ("time", "23:58:60-00:01", True), ("time", "00:59:60+01:00", True), ("time", "22:59:60Z", False),
    ("time", "23:59:60+01:00", False), ("time", "23:59:60-01:00", False), ("time", "23:59:61Z", False),
    ("time", "12:00:00-00:00", True), ("time", "12:00:00+23:59", True), ("time", "12:00:00-23:59", True),
    ("time", "12:00:00+24:00", False), ("time", "12:00:00+00:60", False), ("time", "24:00:00Z", False), ("time", "12:60:00Z", False),
    ("time", "12:00:00.Z", False), ("time", "12:00:00.000000000001Z", True), ("time", "12:00:00", False), ("time", "12:00:00+0100", False),
    # date-time is the typed date-time parser's: no leap second at all, no year 0.
    ("date-time", "2024-12-31T23:59:59Z", True), ("date-time", "2024-12-31T23:59:60Z", False), ("date-time", "0000-01-01T00:00:00Z", False),
    ("date-time", "1900-02-29T00:00:00Z", False), ("date-time", "2000-02-29t00:00:00z", True), ("date-time", "2020-01-01T00:00:00-00:00", True),
    ("date-time", "2020-01-01T00:00:00.Z", False), ("date-time", "2020-01-01 00:00:00Z", False), ("date-time", "2020-01-01T00:00:00+24:00", False),
    # IPv6 hosts in every form RFC 3986 allows, IPv4 inside one, and IPvFuture.
    ("uri", "http://[::]/", True), ("uri", "http://[::1]:80/", True), ("uri", "http://[1::]/", True), ("uri", "http://[1::2]/", True),
    ("uri", "http://[1:2:3:4:5:6:7:8]/", True), ("uri", "http://[1:2:3:4:5:6:7::]/", True), ("uri", "http://[::2:3:4:5:6:7:8]/", True),
    ("uri", "http://[1:2:3:4:5:6:7:8:9]/", False), ("uri", "http://[1::2::3]/", False), ("uri", "http://[1:2:3:4:5:6:7]/", False),
    ("uri", "http://[:::]/", False), ("uri", "http://[::ffff:192.0.2.1]/", True), ("uri", "http://[::ffff:192.0.2.256]/", False),
    ("uri", "http://[1:2:3:4:5:6:192.0.2.1]/", True), ("uri", "http://[1:2:3:4:5:6:7:192.0.2.1]/", False), ("uri", "http://[12345::]/", False),
    ("uri", "http://[::1%25eth0]/", False), ("uri", "http://[v1.fe80::a+en1]/", True), ("uri", "http://[V1F.x]/", True),
    ("uri", "http://[v.x]/", False), ("uri", "http://[vz.x]/", False), ("uri", "http://[v1.]/", False), ("uri", "http://192.0.2.1/", True),
    # Percent-encodings: either case of hex digit, never a short or non-hex one.
    ("uri", "http://x/%7e%7E", True), ("uri", "http://a%2Fb/", True), ("uri", "http://x/%7", False), ("uri", "http://x/%zz", False),
    ("uri", "http://x/a b", False), ("uri", "http://x/\u00e9", False), ("uri", "http://x/\U0001f600", False), ("uri", "urn:isbn:0451450523", True),
    ("uri", "mailto:a@b", True), ("uri", "a:", True), ("uri", "1a:b", False), ("uri", "http://x/#a#b", False),
    ("uri", "http://x/?a?b#c?d/", True), ("uri", "http://x:8a/", False), ("uri", "http://u:p@x:/", True),
    ("uri-reference", "#", True), ("uri-reference", "?", True), ("uri-reference", "//[::1]", True), ("uri-reference", "a/b:c", True),
    ("uri-reference", "a:b", True), ("uri-reference", ":a", False), ("uri-reference", "%41", True), ("uri-reference", "%4", False),
    ("uri-reference", "%4G", False), ("uri-reference", "\\", False), ("uri-reference", "//[v1.x]:1/a?b#c", True),
    ("uuid", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", True), ("uuid", "2eb8aa08aa9811eab4aa73b441d16380", False),
    ("uuid", "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}", False), ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638g", False),
    ("email", "a@b", True), ("email", "a.b@c.d", True), ("email", ".a@b", False), ("email", "a..b@c", False), ("email", "a.@b", False),
    ("email", '"a b"@c', True), ("email", '"a\\"b"@c', True), ("email", '"a"b"@c', False), ("email", '""@c', True),
    ("email", '"a\\\u00e9"@c', False), ("email", "a@[192.0.2.1]", True), ("email", "a@[IPv6:::1]", True), ("email", "a@[ipv6:::1]", False),
    ("email", "a@[::1]", False), ("email", "a@[192.0.2.256]", False), ("email", "a@-b", False), ("email", "a@b-", False),
    ("email", "a@b.", False), ("email", "a@b..c", False), ("email", "a@" + "b" * 63, True), ("email", "a@" + "b" * 64, False),
    ("email", "a@" + "b" * 63 + "." + "c" * 63, True), ("email", "\u00e9@b", False), ("email", "a@\u00e9", False), ("email", "a@@b", False),
    # RFC 5321's 254 characters: taken at 254, refused at 255 (labels of 63, a local part of 64).
    ("email", "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 61, True),
    ("email", "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 62, False),
    # The empty string is a uri-reference (the empty reference) and no other format's string; a trailing line feed
    # (which Python's $ would let through: format_ok uses fullmatch, Go's $ and RegExp's $ without m do not) or a
    # leading space makes a string of none.
    *((name, "", name == "uri-reference") for name in (*FORMATS, "date-time")),
    *((name, text + "\n", False) for name, text in (
        ("date", "2020-01-01"), ("time", "12:00:00Z"), ("date-time", "2020-01-01T00:00:00Z"), ("uri", "http://x/"),
        ("uri-reference", "a"), ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380"), ("email", "a@b"))),
    *((name, " " + text, False) for name, text in (("uri", "http://x/"), ("uri-reference", "a"), ("email", "a@b"))),
]

# Long strings a backtracking engine could take more than linear time on, were a repetition ambiguous: each is
# judged, the same, everywhere.
N = 1 << 18
HOSTILE = [
    "a://" + "b" * N + "\x00", "a:" + "/" * N + "\x00", "//" + "a@" * (N // 2), "a@" + "a-" * (N // 2),
    '"' + '\\"' * (N // 2) + "@a", "a." * (N // 2) + "@a", "http://[" + "1:" * (N // 2) + "]", "%" * N,
    "0" * N, "a:" + "b" * N, "a" * N + "@b", "?" + "/" * N, "a:" + "%41" * (N // 3) + "\x00", "00:00:00." + "0" * N + "Z",
]
CASES = [(name, text) for name, text, _ in SUITE_CASES + EDGE_CASES] + [
    # Every suite string as a date-time too: format_ok's date-time is the typed parser's check of each runtime.
    *(("date-time", text) for _, text, _ in SUITE_CASES),
    *((name, text) for text in HOSTILE for name in (*FORMATS, "date-time")),
    # Past V8's 8 million entries, were a loop to turn once per character: a 12 MiB data: URI (an image in a chat
    # message), 9 MiB of path, 3 MiB of percent-encodings.
    ("uri", "data:image/png;base64," + "iV+/Bw==" * (3 << 19)),
    ("uri", "a:" + "/" * (9 << 20)),
    ("uri-reference", "%41" * (1 << 20)),
]

MESSAGES = {"minLength": "minLength", "format": "format", "contentEncoding": "contentEncoding"}


def _checks(schema: dict[str, Any]) -> str:
    """The checks text generator/checks.py writes for a node of these keywords (each message its keyword's name)."""
    return json.dumps({"root": {**schema, "messages": {k: MESSAGES[k] for k in schema}}, "refs": {}})


# A schema applied as written: each case under {"format": its format}, then the order of the string keywords.
APPLIED = [(_checks({"format": name}), text) for name, text, _ in SUITE_CASES + EDGE_CASES] + [
    (_checks({"minLength": 1, "format": "uri-reference", "contentEncoding": "base64"}), text)
    for text in ("abcd", "", "a%", "ab", "a b=")
] + [(_checks({"minLength": 1, "format": "date", "contentEncoding": "base64"}), text) for text in ("2020-01-01", "20200101")]


def python_results() -> dict[str, Any]:
    parsers: dict[str, Any] = {}
    applied = []
    for checks, text in APPLIED:
        parser = parsers.get(checks) or parsers.setdefault(checks, rt.Checks(checks, ()).parser({"type": "not JSON"}))
        ctx = rt.Context(text)
        parser(text, ctx)
        applied.append([e.message for e in ctx.errors])
    return {"patterns": rt.FORMAT_PATTERNS, "ok": [rt.format_ok(name, text) for name, text in CASES], "applied": applied}


PYTHON = python_results()

_GO_MAIN = """package main

import (
	"encoding/json"
	"os"

	"chatspec.invalid/runtime/internal/rt"
)

func main() {
	var in struct {
		Cases   [][2]string `json:"cases"`   // [format, text]
		Applied [][2]string `json:"applied"` // [checks, text]
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	out := struct {
		Patterns map[string]string `json:"patterns"`
		OK       []bool            `json:"ok"`
		Applied  [][]string        `json:"applied"`
	}{rt.FormatPatterns, []bool{}, [][]string{}}
	for _, c := range in.Cases {
		out.OK = append(out.OK, rt.FormatOK(c[0], c[1]))
	}
	parsers := map[string]rt.Parser[any]{}
	for _, a := range in.Applied {
		parser, ok := parsers[a[0]]
		if !ok {
			parser = rt.NewChecks(a[0]).Parser(rt.Msgs{"type": "not JSON"})
			parsers[a[0]] = parser
		}
		c := rt.NewContext(a[1])
		parser(a[1], c)
		messages := []string{}
		for _, e := range c.Errors() {
			messages = append(messages, e.Message)
		}
		out.Applied = append(out.Applied, messages)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
"""

_NODE_MAIN = """import { readFileSync } from "node:fs";
const rt = await import(process.argv[2]);
const input = JSON.parse(readFileSync(0, "utf8"));
const parsers = new Map();
const applied = input.applied.map(([checks, text]) => {
  if (!parsers.has(checks)) parsers.set(checks, new rt.Checks(checks, []).parser({ type: "not JSON" }));
  const ctx = new rt.Context(text);
  parsers.get(checks)(text, ctx);
  return ctx.errors.map((e) => e.message);
});
const ok = input.cases.map(([name, text]) => rt.formatOk(name, text));
process.stdout.write(JSON.stringify({ patterns: rt.FORMAT_PATTERNS, ok, applied }));
"""


def _payload() -> str:
    return json.dumps({"cases": CASES, "applied": APPLIED})


@pytest.fixture(scope="module")
def go_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The Go runtime as generate writes it, in a module of the runtime's own path (internal/rt is
    importable from its module only), with one program beside it that runs every case."""
    if not go_available():
        pytest.skip("Go is not installed: the Go runtime's formats were not checked")
    work = tmp_path_factory.mktemp("formats-go")
    shutil.copyfile(runtime.GO_MODULE / "go.mod", work / "go.mod")
    write_tree({path.removeprefix("go/"): text for path, text in runtime.go_runtime().items()}, work)
    (work / "main.go").write_text(_GO_MAIN, encoding="utf-8")
    built = subprocess.run(["go", "build", "-o", "formats", "."], cwd=work, capture_output=True, text=True, env=GO_ENV, timeout=600)
    assert built.returncode == 0, built.stderr[-4000:]
    done = subprocess.run([str(work / "formats")], input=_payload(), capture_output=True, text=True, env=GO_ENV, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def typescript_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The TypeScript runtime as generate writes it, compiled alone with the generated package's tsconfig
    (every strict option), and run in one node process over every case."""
    if not node_available():
        pytest.skip("node is not installed: the TypeScript runtime's formats were not checked")
    work = tmp_path_factory.mktemp("formats-ts")
    tsconfig = (GENERATED / "typescript" / "tsconfig.json").read_text(encoding="utf-8")
    # An ES module, as the generated package.json makes the package.
    write_tree({"package.json": '{"type": "module"}\n', "tsconfig.json": tsconfig, "src/runtime.ts": runtime.typescript_runtime()}, work)
    dist = compile_package(work)
    (work / "main.mjs").write_text(_NODE_MAIN, encoding="utf-8")
    done = subprocess.run(["node", str(work / "main.mjs"), (dist / "runtime.js").as_uri()], input=_payload(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_suites_files_of_the_six_formats_are_there_with_their_cases() -> None:
    assert {p.stem for p in SUITE.glob("*.json")} >= set(FORMATS)
    assert {name for name, _, _ in SUITE_CASES} == set(FORMATS) and len(SUITE_CASES) >= 130


def test_python_gives_the_suites_verdicts_and_the_edge_cases_theirs() -> None:
    wrong = [(name, text, valid) for name, text, valid in SUITE_CASES + EDGE_CASES if rt.format_ok(name, text) != valid]
    assert not wrong, wrong
    assert sorted(rt.FORMAT_PATTERNS) == sorted(FORMATS)


def test_a_schema_applied_as_written_reports_format_after_minlength_and_before_contentencoding() -> None:
    verdicts = PYTHON["applied"][-7:]
    assert verdicts == [[], ["minLength"], ["format"], ["contentEncoding"], ["format"], ["contentEncoding"], ["format"]]
    for (name, text, valid), found in zip(SUITE_CASES + EDGE_CASES, PYTHON["applied"]):
        assert found == ([] if valid else ["format"]), (name, text)


def _differences(found: dict[str, Any]) -> list[str]:
    wrong = [f"{name} {text[:80]!r}: Python {p}, here {f}" for (name, text), p, f in zip(CASES, PYTHON["ok"], found["ok"]) if p != f]
    wrong += [f"applied {checks} {text[:80]!r}: Python {p}, here {f}"
              for (checks, text), p, f in zip(APPLIED, PYTHON["applied"], found["applied"]) if p != f]
    assert len(found["ok"]) == len(CASES) and len(found["applied"]) == len(APPLIED)
    return wrong


def test_gos_format_patterns_are_pythons_text_for_text(go_results: dict[str, Any]) -> None:
    assert go_results["patterns"] == PYTHON["patterns"]


def test_go_gives_pythons_verdict_on_every_case(go_results: dict[str, Any]) -> None:
    wrong = _differences(go_results)
    assert not wrong, f"{len(wrong)} differ:\n" + "\n".join(wrong[:30])


def test_typescripts_format_patterns_are_pythons_text_for_text(typescript_results: dict[str, Any]) -> None:
    assert typescript_results["patterns"] == PYTHON["patterns"]


def test_typescript_gives_pythons_verdict_on_every_case(typescript_results: dict[str, Any]) -> None:
    wrong = _differences(typescript_results)
    assert not wrong, f"{len(wrong)} differ:\n" + "\n".join(wrong[:30])


# The characters RFC 3986 gives a role, a few it does not, hex digits for percent-encodings and IP literals.
_URI_ALPHABET = "aZv09fF-._~!$&'()*+,;=:@/?#[]% \\\"<>^`{|}\x7f\u00e9"


@pytest.mark.parametrize("name, rule", [("uri", "URI"), ("uri-reference", "URI_reference")])
def test_uri_and_uri_reference_are_what_an_independent_rfc_3986_grammar_says(name: str, rule: str) -> None:
    # rfc3986-validator (jsonschema's own choice for these formats) is another reading of RFC 3986's appendix A.
    from hypothesis import given, settings, strategies as st
    from rfc3986_validator import validate_rfc3986

    format_ok = rt.format_ok
    pieces = st.sampled_from(["http://", "//", "[::1]", "[v1.x]", "[1:2:3:4:5:6:7:8]", "[::ffff:1.2.3.4]", "%41", "%4", ":80", "@"])
    texts = st.lists(st.one_of(st.text(_URI_ALPHABET, max_size=4), pieces), max_size=8).map("".join)

    @settings(max_examples=3000, deadline=None, database=None, derandomize=True)
    @given(texts)
    def agree(text: str) -> None:
        assert format_ok(name, text) == bool(validate_rfc3986(text, rule=rule)), text

    agree()

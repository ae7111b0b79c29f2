"""The pattern table of make bench: every accepted pattern against adversarial values, in each runtime.

    python tests/bench_patterns.py [--quick] [--timeout SECONDS]

The patterns are every one that load accepts in the golden cases, the broken specs
and the repository's specs, and the issue's slow ones (issue 26). They become the
fields of one generated format, and each case (a pattern, an adversarial value of
10^4 and of 10^5 characters) is parsed in a fresh process per runtime: Python's
parse_<format>_from_json, Go's Parse<Format>FromJSON, TypeScript's
parse<Format>FromJSON. Time is the CPU time of the parse call alone; a case still
running after the timeout is killed and shown as "> timeout" (its 10^5 run is then
not tried). The three runtimes must give the same verdict, and the time of 10^5
characters should be about ten times that of 10^4 (linear).

The last rows are a pattern-heavy payload: 2,000 objects whose fields all hold short
values of every pattern (matching, or not), parsed in each runtime, per string.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

from go_driver import GO_ENV, go_available, write_go_mod  # noqa: E402

FORMAT = "pattern_bench"
MODULE = "example.com/patternbench"

# The issue's patterns (each accepted by the old check), and one the old check accepted that
# backtracks exponentially through empty alternatives.
ISSUE_PATTERNS = [r"^\s*(.*)\s*:\s*(.*)\s*$", r"^.*a.*b.*c.*d.*$", r"^(a{1,10}){1,10}$", "^" + "(.*)" * 12 + "$", "(.*)" * 12,
                  r"^(a(|)(|)(|)(|))*x$"]

# Adversarial values: each a function of the length n.
VALUES: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: " " * n,
    "a..a!": lambda n: "a" * (n - 1) + "!",
    "a..a\\nb": lambda n: "a" * (n - 2) + "\nb",
    "abc..abc": lambda n: "abc" * (n // 3),
    "ABC-1..1x": lambda n: "ABC-" + "1" * (n - 5) + "x",
    '1..1"': lambda n: "1" * (n - 1) + '"',
}

# A short value per pattern for the pattern-heavy payload (a pattern not listed gets none).
SAMPLES: dict[str, list[str]] = {
    r"\S": ["hello", " x", "   "],
    r"^[a-z]+$": ["abc", "word", "Abc"],
    r"^[A-Z]{3}-[0-9]+$": ["ABC-123", "XYZ-9", "AB-1"],
    r"^[0-9]{6}$": ["123456", "000000", "12345"],
    r'^[^"\\]*$': ["plain text", "no quotes here", 'a "quote"'],
    r"^\s*(.*)\s*:\s*(.*)\s*$": ["key: value", " a : b ", "no colon"],
    r"^.*a.*b.*c.*d.*$": ["abcd", "xaybzcwd", "abc"],
    r"^(a{1,10}){1,10}$": ["aaaa", "a" * 30, "b"],
    "^" + "(.*)" * 12 + "$": ["anything", "x", "a\nb"],
    "(.*)" * 12: ["", "x", "\n"],
    r"^(a(|)(|)(|)(|))*x$": ["aax", "x", "ab"],
}


def corpus_patterns() -> list[str]:
    """Every pattern of a string schema in the golden cases, the broken specs and the specs (that parse as JSON)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("pattern"), str) and value.get("type") in ("string", ["string", "null"]):
                found.append(value["pattern"])
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in sorted([*ROOT.glob("tests/golden/*/spec.json"), *ROOT.glob("tests/broken_specs/*/spec.json"), *ROOT.glob("specs/*/spec.json")]):
        try:
            walk(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, RecursionError):
            continue  # a broken spec that is not JSON
    return list(dict.fromkeys(found))


def bench_patterns() -> list[str]:
    """The corpus's patterns that load accepts, then the issue's (those load accepts)."""
    from generator import patterns
    from generator.automaton import compile_pattern

    accepted = []
    for pattern in [*corpus_patterns(), *ISSUE_PATTERNS]:
        try:
            patterns.check(pattern)
            compile_pattern(pattern)
        except patterns.PatternError:
            continue
        accepted.append(pattern)
    return list(dict.fromkeys(accepted))


def spec(pats: list[str]) -> dict[str, Any]:
    fields = {f"p{i}": {"type": "string", "pattern": p, "description": f"Pattern {i}."} for i, p in enumerate(pats)}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Pattern bench", "description": "Patterns.",
            "x-version": "1.0.0", "$ref": "#/$defs/Root",
            "$defs": {"Item": {"type": "object", "description": "One value per pattern.", "properties": fields},
                      "Root": {"type": "object", "description": "The values.", "properties": {
                          **fields, "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "description": "Many."}}}}}


_PYTHON = """
import json, sys, time
sys.path.insert(0, {package!r})
from chatformats import {fmt} as mod
data = open(sys.argv[1], "rb").read()
cpu = time.process_time()
try:
    mod.parse_{fmt}_from_json(data)
    ok = True
except mod.ValidationError:
    ok = False
print(json.dumps({{"ok": ok, "cpu": time.process_time() - cpu}}))
"""

_GO = """package main

import (
	"encoding/json"
	"os"
	"syscall"
	"time"

	"{module}/{pkg}"
)

func cpu() float64 {{
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	return time.Duration(usage.Utime.Nano() + usage.Stime.Nano()).Seconds()
}}

func main() {{
	data, err := os.ReadFile(os.Args[1])
	if err != nil {{
		panic(err)
	}}
	start := cpu()
	_, err = {pkg}.{parse}(data)
	took := cpu() - start
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{{"ok": err == nil, "cpu": took}})
}}
"""

_TYPESCRIPT = """
import {{ readFileSync }} from "node:fs";
import {{ cpuUsage }} from "node:process";
const mod = await import({module!r});
const data = readFileSync(process.argv[2]);
const start = cpuUsage();
let ok = true;
try {{
  mod.{parse}(data);
}} catch (e) {{
  if (!(e instanceof mod.ValidationError)) throw e;
  ok = false;
}}
const used = cpuUsage(start);
console.log(JSON.stringify({{ ok, cpu: (used.user + used.system) / 1e6 }}));
"""


@dataclass
class Runners:
    """A command per runtime that parses the payload file given as its last argument."""

    commands: dict[str, list[str]]


def write_generated(pats: list[str], work: Path) -> Path:
    """The bench format generated for Python, Go and TypeScript into work/generated."""
    from generator.core import generate
    from generator.load import load_spec
    from generator.options import Options

    folder = work / "specs" / FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec(pats)), encoding="utf-8")
    files = generate([load_spec(folder, work)], targets=["python", "go", "typescript"], options=Options(go_module=MODULE))
    out = work / "generated"
    for path, text in files.items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text, encoding="utf-8")
    return out


def build(pats: list[str], work: Path) -> Runners:
    """Generate the bench format into work and prepare a command per runtime."""
    from generator.naming import go_name, go_package

    out = write_generated(pats, work)
    commands: dict[str, list[str]] = {}
    script = work / "measure.py"
    script.write_text(_PYTHON.format(package=str(out / "python"), fmt=FORMAT))
    commands["Python"] = [sys.executable, str(script)]
    if go_available():
        program = work / "gobench"
        program.mkdir()
        (program / "main.go").write_text(_GO.format(module=MODULE, pkg=go_package(FORMAT), parse=f"Parse{go_name(FORMAT)}FromJSON"))
        write_go_mod(program, "gobench", out / "go", MODULE)
        done = subprocess.run(["go", "build", "-o", "gobench", "."], cwd=program, capture_output=True, text=True, env=GO_ENV)
        if done.returncode != 0:
            raise AssertionError(done.stderr)
        commands["Go"] = [str(program / "gobench")]
    from typescript_driver import TSC, compile_package, node_available

    if node_available() and TSC.is_file():
        dist = compile_package(out / "typescript")
        module = (dist / f"{FORMAT}.js").as_uri()
        parse = "parse" + "".join(part.capitalize() for part in FORMAT.split("_")) + "FromJSON"
        (work / "measure.mjs").write_text(_TYPESCRIPT.format(module=module, parse=parse))
        commands["TypeScript"] = ["node", str(work / "measure.mjs")]
    return Runners(commands)


def measure(command: list[str], payload: Path, timeout: float) -> dict[str, Any] | None:
    """{"ok", "cpu"} from a fresh process, or None when it ran past the timeout (killed)."""
    try:
        done = subprocess.run([*command, str(payload)], capture_output=True, text=True, env=GO_ENV, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise AssertionError(f"{command} failed on {payload}:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def cases(pats: list[str], quick: bool) -> list[tuple[int, str]]:
    """(pattern index, value name): every pattern against every adversarial value (quick: the first two)."""
    return [(i, name) for i in range(len(pats)) for name in list(VALUES)[: 2 if quick else None]]


def rows(quick: bool, timeout: float, sizes: tuple[int, int]) -> tuple[list[str], list[dict[str, Any]], Runners]:
    pats = bench_patterns()
    work = Path(tempfile.mkdtemp(prefix="patbench_"))
    runners = build(pats, work)
    out = []
    for i, value in cases(pats, quick):
        row: dict[str, Any] = {"pattern": pats[i], "value": value, "times": {}, "verdicts": set()}
        for runtime, command in runners.commands.items():
            times: list[float | None] = []
            for n in sizes:
                if times and times[-1] is None:
                    times.append(None)  # the smaller value already ran past the timeout
                    continue
                payload = work / "payload.json"
                payload.write_text(json.dumps({f"p{i}": VALUES[value](n)}), encoding="utf-8")
                result = measure(command, payload, timeout)
                if result is None:
                    times.append(None)
                    continue
                row["verdicts"].add((n, result["ok"]))
                times.append(result["cpu"])
            row["times"][runtime] = times
        out.append(row)
    return pats, out, runners


def heavy_rows(pats: list[str], runners: Runners, work: Path, timeout: float, count: int, repeats: int) -> dict[str, Any]:
    """The pattern-heavy payload: count objects, each holding a short value for every pattern with samples;
    the best of repeats fresh processes."""
    values = [(i, SAMPLES[p]) for i, p in enumerate(pats) if p in SAMPLES]
    valid_items = [{f"p{i}": s[0] for i, s in values} for _ in range(count)]
    mixed_items = [{f"p{i}": s[k % len(s)] for i, s in values} for k in range(count)]
    result: dict[str, Any] = {"strings": count * len(values)}
    for label, items in (("valid", valid_items), ("mixed", mixed_items)):
        payload = work / f"heavy_{label}.json"
        payload.write_text(json.dumps({"items": items}), encoding="utf-8")
        for runtime, command in runners.commands.items():
            best = None
            for _ in range(repeats):
                got = measure(command, payload, timeout)
                if got is not None and (best is None or got["cpu"] < best["cpu"]):
                    best = got
            result[(label, runtime)] = best
    return result


def _cell(seconds: float | None, timeout: float) -> str:
    return f"> {timeout:.0f} s" if seconds is None else f"{seconds * 1000:.1f} ms"


def pattern_table(quick: bool = False, timeout: float = 10.0) -> list[str]:
    sizes = (1_000, 10_000) if quick else (10_000, 100_000)
    pats, measured, runners = rows(quick, timeout, sizes)
    names = list(runners.commands)
    lines = [f"Patterns: CPU time of one parse in a fresh process per runtime, value of {sizes[0]:,} / {sizes[1]:,} characters "
             f"(and the ratio; about {sizes[1] // sizes[0]} is linear); '> {timeout:.0f} s': killed",
             f"{'pattern':34} {'value':10} " + " ".join(f"{n + ' (' + format(sizes[0], ',') + ' / ' + format(sizes[1], ',') + ')':>30}" for n in names)]
    worst_per_char: dict[str, float] = {}
    disagreements = []
    for r in measured:
        cells = []
        for name in names:
            small, large = r["times"][name]
            ratio = f"{large / small:5.1f}x" if small and large else "     "
            cells.append(f"{_cell(small, timeout):>10} / {_cell(large, timeout):>10} {ratio}")
            if large is not None:
                worst_per_char[name] = max(worst_per_char.get(name, 0.0), large / sizes[1])
            else:
                worst_per_char[name] = float("inf")
        verdicts = r["verdicts"]
        if len({n for n, _ in verdicts}) != len(verdicts):
            disagreements.append(f"{r['pattern']!r} on {r['value']}: {sorted(verdicts)}")
        shown = r["pattern"] if len(r["pattern"]) <= 34 else r["pattern"][:31] + "..."
        lines.append(f"{shown:34} {r['value']:10} " + " ".join(f"{c:>30}" for c in cells))
    lines.append("worst time per character at the larger size: " + ", ".join(
        f"{n} {'over the timeout' if v == float('inf') else format(v * 1e9, '.0f') + ' ns'}" for n, v in worst_per_char.items()))
    if disagreements:
        lines.append("VERDICTS DIFFER: " + "; ".join(disagreements))
    count, repeats = (200, 1) if quick else (2000, 3)
    heavy = heavy_rows(pats, runners, Path(tempfile.mkdtemp(prefix="patheavy_")), timeout * 6, count, repeats)
    lines.append(f"pattern-heavy payload: {count:,} objects, {heavy['strings']:,} short strings, CPU per string (best of {repeats} processes)")
    for label in ("valid", "mixed"):
        lines.append(f"  {label:6} " + ", ".join(
            f"{n} {heavy[(label, n)]['cpu'] / heavy['strings'] * 1e9:.0f} ns" if heavy[(label, n)] else f"{n} over the timeout" for n in names))
    return lines


if __name__ == "__main__":
    timeout = float(sys.argv[sys.argv.index("--timeout") + 1]) if "--timeout" in sys.argv else 10.0
    print("\n".join(pattern_table("--quick" in sys.argv, timeout)))

"""The hostile table of make bench: inputs an attacker would send, every language, time and peak memory.

    python tests/bench_hostile.py [--quick]

Time is wall-clock and CPU (user + system: on a shared machine the wall time
includes waiting for a core; Go's CPU time includes its parallel garbage
collector). Each case runs in a fresh process (Python: parse_<format>_from_json on the
bytes; Go: Parse<Format>FromJSON; TypeScript: parse<Format>FromJSON on the
bytes, in node), so its peak resident memory is its own: the interpreter or
program, the input read from a file, and what parsing it took. Time is that of the parse call alone. Every case must give the verdict
stated below, so the table cannot measure a parser that gave up early.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT), str(ROOT / "generated" / "python")]

from go_driver import GO_ENV, go_available, write_go_mod  # noqa: E402
from typescript_driver import TSC, node_available  # noqa: E402


@dataclass(frozen=True)
class Case:
    name: str
    format: str
    data: bytes
    accepted: bool
    first: str  # the start of the first problem's message (when rejected)


def _conversation(people: list[str], speakers: list[str], content: str = "hi") -> bytes:
    messages = ",".join(
        json.dumps({"speaker": s, "content": content, "time": "2024-01-15T12:00:00Z"}) for s in speakers
    )
    head = {"source": "s", "people": people, "user": people[0]}
    return (f'{{"id": "c", "conversation": {json.dumps(head)[:-1]}, "conversation": [{messages}]}}}}').encode()


def cases(scale: float = 1.0) -> list[Case]:
    """The issue's hostile inputs; scale < 1 shrinks them for a smoke run."""
    n = lambda count: max(1, int(count * scale))  # noqa: E731
    chat_input = json.loads((ROOT / "specs" / "chat_modality" / "examples" / "valid" / "user_sends_message.json").read_text())
    head = json.dumps({**chat_input, "metadata": None})[: -len('null}')]
    deep = '{"k": [' * n(50_000) + "1" + "]}" * n(50_000)
    people = [f"person{i}" for i in range(n(5_000))]
    return [
        Case("3 MB of [", "structured_conversation", b"[" * n(3_000_000), False, "invalid JSON"),
        Case("metadata 10^5 levels deep", "chat_modality", (head + '{"deep": ' + deep + "}}").encode(), False,
             "nesting deeper than 128 levels"),
        Case("20k member_of failures", "structured_conversation", _conversation(["a"], ["b"] * n(20_000)), False,
             "message 0: speaker 'b' must be included"),
        Case("5k people x 20k messages", "structured_conversation",
             _conversation(people, [people[i % len(people)] for i in range(n(20_000))]), True, ""),
        Case("10^6 errors (bad tags)", "structured_conversation",
             _conversation(["a"], ["a"])[:-1] + b', "tags": [' + b",".join([b"1"] * n(1_000_000)) + b"]}", False,
             "must be a string"),
        Case("50 MB string", "structured_conversation", _conversation(["a"], ["a"], "x" * n(50_000_000)), True, ""),
    ]


_PYTHON = """
import importlib, json, sys, time
sys.path.insert(0, {package!r})
fmt, path = sys.argv[1], sys.argv[2]
mod = importlib.import_module("chatformats." + fmt)
parse = getattr(mod, "parse_" + fmt + "_from_json")
data = open(path, "rb").read()
start, cpu = time.perf_counter(), time.process_time()
try:
    parse(data)
    verdict = {{"ok": True, "first": "", "count": 0}}
except mod.ValidationError as exc:
    verdict = {{"ok": False, "first": exc.errors[0].message, "count": len(exc.errors)}}
verdict["seconds"] = time.perf_counter() - start
verdict["cpu"] = time.process_time() - cpu
# VmHWM, not getrusage: ru_maxrss survives exec, so it would include the parent's peak.
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
verdict["rss_mb"] = int(hwm[0].split()[1]) / 1024 if hwm else 0.0
print(json.dumps(verdict))
"""

_GO = """package main

import (
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

{imports}
)

type verdict struct {{
	OK      bool    `json:"ok"`
	First   string  `json:"first"`
	Count   int     `json:"count"`
	Seconds float64 `json:"seconds"`
	CPU     float64 `json:"cpu"`
	RSSMB   float64 `json:"rss_mb"`
	AllocMB float64 `json:"alloc_mb"`
}}

func main() {{
	data, err := os.ReadFile(os.Args[2])
	if err != nil {{
		panic(err)
	}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := func() float64 {{
		var usage syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
		return time.Duration(usage.Utime.Nano() + usage.Stime.Nano()).Seconds()
	}}
	startCPU := cpu()
	start := time.Now()
	switch os.Args[1] {{
{cases}
	}}
	out.Seconds = time.Since(start).Seconds()
	out.CPU = cpu() - startCPU
	runtime.ReadMemStats(&after)
	out.AllocMB = float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
	// VmHWM, not getrusage: ru_maxrss survives exec, so it would include the parent's peak.
	if status, err := os.ReadFile("/proc/self/status"); err == nil {{
		for _, line := range strings.Split(string(status), "\\n") {{
			if fields := strings.Fields(line); len(fields) > 1 && fields[0] == "VmHWM:" {{
				kb, _ := strconv.ParseFloat(fields[1], 64)
				out.RSSMB = kb / 1024
			}}
		}}
	}}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}}

var out verdict

func report(err error, errs func(error) ([]string, bool)) {{
	if err == nil {{
		out.OK = true
		return
	}}
	if found, ok := errs(err); ok {{
		out.First, out.Count = found[0], len(found)
		return
	}}
	out.First, out.Count = "not a *ValidationError: "+err.Error(), 1
}}

var _ = errors.As
"""

_GO_CASE = """	case "{fmt}":
		_, err := {pkg}.{parse}(data)
		report(err, func(err error) ([]string, bool) {{
			var ve *{pkg}.ValidationError
			if !errors.As(err, &ve) {{
				return nil, false
			}}
			found := make([]string, len(ve.Errors))
			for i, e := range ve.Errors {{
				found[i] = e.Message
			}}
			return found, true
		}})"""


_TYPESCRIPT = """
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [dist, fmt, path] = process.argv.slice(2);
const mod = await import(pathToFileURL(join(dist, fmt + ".js")).href);
const parse = mod[Object.keys(mod).find((k) => /^parse\\w+FromJSON$/.test(k))];
const data = new Uint8Array(readFileSync(path));
const start = performance.now(), cpu = process.cpuUsage();
let verdict;
try {
  parse(data);
  verdict = { ok: true, first: "", count: 0 };
} catch (e) {
  if (!(e instanceof mod.ValidationError)) throw e;
  verdict = { ok: false, first: e.errors[0].message, count: e.errors.length };
}
verdict.seconds = (performance.now() - start) / 1000;
const used = process.cpuUsage(cpu);
verdict.cpu = (used.user + used.system) / 1e6;
// VmHWM, as for the others (node's own maxRSS is the same figure).
const hwm = readFileSync("/proc/self/status", "utf8").split("\\n").find((l) => l.startsWith("VmHWM:"));
verdict.rss_mb = hwm ? Number(hwm.split(/\\s+/)[1]) / 1024 : 0;
process.stdout.write(JSON.stringify(verdict));
"""


def _build_typescript(work: Path) -> Path | None:
    """The generated TypeScript package compiled in work (None without node or the pinned tsc)."""
    if not (node_available() and TSC.is_file()):
        return None
    from typescript_driver import compile_package, write_tree

    tree = ROOT / "generated" / "typescript"
    write_tree({p.relative_to(tree).as_posix(): p.read_text(encoding="utf-8") for p in tree.rglob("*") if p.is_file()}, work / "package")
    return compile_package(work / "package")


def _build_go(work: Path, formats: set[str]) -> Path:
    from generator.naming import go_name
    from generator.options import load_options
    from generator.naming import go_package as package_name

    module = load_options(ROOT).go_module
    imports = "\n".join(f'\t"{module}/{package_name(f)}"' for f in sorted(formats))
    body = "\n".join(_GO_CASE.format(fmt=f, pkg=package_name(f), parse=f"Parse{go_name(f)}FromJSON") for f in sorted(formats))
    (work / "main.go").write_text(_GO.format(imports=imports, cases=body))
    write_go_mod(work, "hostilebench", ROOT / "generated" / "go", module)
    binary = work / "hostile"
    done = subprocess.run(["go", "build", "-o", str(binary), "."], cwd=work, capture_output=True, text=True, env=GO_ENV)
    if done.returncode != 0:
        raise AssertionError(done.stderr)
    return binary


def _measure(command: list[str], case: Case, language: str) -> dict[str, float | str]:
    done = subprocess.run(command, capture_output=True, text=True, env=GO_ENV, timeout=600)
    if done.returncode != 0:
        raise AssertionError(f"{language} crashed on {case.name!r}:\n{done.stderr[-3000:]}")
    result: dict[str, float | str] = json.loads(done.stdout)
    if result["ok"] != case.accepted or not str(result["first"]).startswith(case.first):
        raise AssertionError(f"{language} gave {result} on {case.name!r}; expected accepted={case.accepted}, {case.first!r}")
    return result


def hostile_rows(scale: float = 1.0) -> list[dict[str, object]]:
    work = Path(tempfile.mkdtemp())
    all_cases = cases(scale)
    binary = _build_go(work, {c.format for c in all_cases}) if go_available() else None
    dist = _build_typescript(work)
    script = work / "measure.py"
    script.write_text(_PYTHON.format(package=str(ROOT / "generated" / "python")))
    (work / "measure.mjs").write_text(_TYPESCRIPT)
    rows = []
    for i, case in enumerate(all_cases):
        path = work / f"case{i}.json"
        path.write_bytes(case.data)
        py = _measure([sys.executable, str(script), case.format, str(path)], case, "Python")
        go = _measure([str(binary), case.format, str(path)], case, "Go") if binary else None
        ts = _measure(["node", str(work / "measure.mjs"), str(dist), case.format, str(path)], case, "TypeScript") if dist else None
        rows.append({"case": case.name, "input_mb": len(case.data) / 1e6, "python": py, "go": go, "typescript": ts})
        path.unlink()
    return rows


def hostile_table(quick: bool = False) -> list[str]:
    """The lines make bench prints (quick: inputs a tenth of the size)."""
    lines = ["Hostile inputs: parse time (wall / CPU), and peak RSS of a fresh process per case (Go: also bytes allocated)",
             f"{'case':28} {'input':>8} {'verdict':>12} {'Python wall/CPU':>16} {'RSS':>7} {'Go wall/CPU':>16} {'RSS':>7} {'alloc':>7}"
             f" {'TypeScript wall/CPU':>20} {'RSS':>7}"]
    for r in hostile_rows(0.1 if quick else 1.0):
        py, go, ts = r["python"], r["go"], r["typescript"]
        assert isinstance(py, dict)
        verdict = "valid" if py["ok"] else f"{py['count']} errors"
        go_cells = (f"{go['seconds']:7.3f}s/{go['cpu']:7.3f}s {go['rss_mb']:5.0f}MB {go['alloc_mb']:5.0f}MB"
                    if isinstance(go, dict) else f"{'not measured':>40}")
        ts_cells = (f"    {ts['seconds']:7.3f}s/{ts['cpu']:7.3f}s {ts['rss_mb']:5.0f}MB" if isinstance(ts, dict) else "  not measured")
        lines.append(f"{r['case']:28} {r['input_mb']:6.1f}MB {verdict:>12} {py['seconds']:7.3f}s/{py['cpu']:7.3f}s {py['rss_mb']:5.0f}MB {go_cells}{ts_cells}")
    return lines


if __name__ == "__main__":
    print("\n".join(hostile_table("--quick" in sys.argv)))

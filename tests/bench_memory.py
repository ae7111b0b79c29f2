"""make bench's memory table (issue 31): the peak memory a 1 MiB valid document takes to read, chatspec
against the peer in each language, each side in a fresh process.

    python tests/bench_memory.py [--quick]

Python: parse_<format>_from_json against pydantic v2's model_validate_json; Go: Parse<Format>FromJSON
against json.Unmarshal into plain structs (tests/bench_go_plain.py, which validate nothing); TypeScript:
parse<Format>FromJSON against JSON.parse and an Ajv validator. Each process reads the text, parses a small
example WARM times (lazy imports, compiled validators, caches, and V8's compiling of what runs hot: a
service's steady state, not its first call), collects its garbage, resets the kernel's record of its peak
resident memory (/proc/self/clear_refs) and parses the document: the figure is the peak (VmHWM) less the
resident memory just before, the memory the parse itself took, whatever allocator took it; the median of
nine processes (three with --quick): TypeScript's structured_conversation read 0.25-0.38 MB on both sides over
nine processes, where a median of three put either above the other. Both sides must accept the document, so
neither is measured giving up early.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT), str(ROOT / "generated" / "python")]

from go_driver import GO_ENV, go_available, write_go_mod  # noqa: E402
from typescript_driver import NPM, TSC, node_available  # noqa: E402

MIB = 1 << 20
# Parses of a small example before the measured one, on every side: what runs hot is compiled (V8), and caches fill.
WARM = 5000


def documents(size: int = MIB) -> dict[str, Any]:
    """Realistic documents of about size bytes: a long conversation and a long event history."""
    people = [f"person{i}" for i in range(8)]
    messages: list[dict[str, Any]] = []
    written = 0  # the length of json.dumps(messages), kept as they are added (", " between items)
    while written < size - 400:
        i = len(messages)
        messages.append({"speaker": people[i % 8], "content": f"Message number {i} about the plan for the week.",
                         "time": f"2024-01-15T{9 + i // 3600 % 12:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z"})
        written += len(json.dumps(messages[-1])) + 2
    conversation = {"id": "long_chat", "conversation": {"source": "slack", "people": people, "user": people[0], "conversation": messages},
                    "tags": ["work"], "metadata": {"platform": "slack"}}
    events: list[dict[str, Any]] = []
    written = 0
    while written < size - 200:
        i = len(events)
        events.append({"role": "user", "content": f"Question {i}?"} if i % 3 == 0 else
                      {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{i}", "type": "function",
                                                                             "function": {"name": "lookup", "arguments": json.dumps({"q": i})}}]}
                      if i % 3 == 1 else {"role": "tool", "content": f"result {i}", "tool_call_id": f"call_{i - 1}"})
        written += len(json.dumps(events[-1])) + 2
    history = {"session_id": "s-1", "role": "assistant", "completed": True, "messages": events}
    return {"structured_conversation": conversation, "chat_event": history}


_STATUS = """
def status(key):
    return int(next(line for line in open("/proc/self/status") if line.startswith(key)).split()[1]) / 1024
"""

_PYTHON = """
import gc, importlib, json, sys
WARM = {warm}
sys.path[:0] = [{python!r}, {pydantic!r}]
side, fmt, root, path, small = sys.argv[1:6]
{status}
if side == "chatspec":
    parse = getattr(importlib.import_module("chatformats." + fmt), "parse_" + fmt + "_from_json")
else:
    parse = getattr(importlib.import_module("chatformats_pydantic." + fmt), root).model_validate_json
text, small = open(path, encoding="utf-8").read(), open(small, encoding="utf-8").read()
for _ in range(WARM):
    parse(small)
gc.collect()
with open("/proc/self/clear_refs", "w") as reset:
    reset.write("5")
before = status("VmRSS:")
kept = parse(text)
print(json.dumps({{"mb": status("VmHWM:") - before}}))
"""

_GO = """package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

{imports}
)

func status(key string) float64 {{
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {{
		panic(err)
	}}
	for _, line := range strings.Split(string(data), "\\n") {{
		if fields := strings.Fields(line); len(fields) > 1 && fields[0] == key {{
			kb, _ := strconv.ParseFloat(fields[1], 64)
			return kb / 1024
		}}
	}}
	panic(key)
}}

func main() {{
	side, format := os.Args[1], os.Args[2]
	text, err := os.ReadFile(os.Args[3])
	if err != nil {{
		panic(err)
	}}
	small, err := os.ReadFile(os.Args[4])
	if err != nil {{
		panic(err)
	}}
	var parse func([]byte) (any, error)
	switch side + " " + format {{
{cases}
	default:
		panic(side + " " + format)
	}}
	for i := 0; i < {warm}; i++ {{
		if _, err := parse(small); err != nil {{
			panic(err)
		}}
	}}
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {{
		panic(err)
	}}
	before := status("VmRSS:")
	kept, err := parse(text)
	if err != nil {{
		panic(err)
	}}
	fmt.Printf("{{\\"mb\\": %f}}\\n", status("VmHWM:")-before)
	runtime.KeepAlive(kept)
}}
"""

_GO_CASES = """	case "chatspec {fmt}":
		parse = func(data []byte) (any, error) {{ return {pkg}.{parse}(data) }}
	case "peer {fmt}":
		parse = func(data []byte) (any, error) {{
			var v {plain}
			err := json.Unmarshal(data, &v)
			return &v, err
		}}"""

_TYPESCRIPT = """
const WARM = Number(process.env.WARM);
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [dist, side, fmt, path, small, schemaPath] = process.argv.slice(2);
const status = (key) => Number(readFileSync("/proc/self/status", "utf8").split("\\n").find((l) => l.startsWith(key)).split(/\\s+/)[1]) / 1024;
const rt = await import(pathToFileURL(join(dist, "runtime.js")).href);
let parse;
if (side === "chatspec") {
  const mod = await import(pathToFileURL(join(dist, fmt + ".js")).href);
  parse = mod[Object.keys(mod).find((k) => /^parse\\w+FromJSON$/.test(k))];
} else {
  // As make bench's Ajv (tests/bench_typescript/bench.mjs): strict, the discriminator without its mapping.
  const Ajv2020 = createRequire(import.meta.url)(process.env.AJV_2020).default;
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, allErrors: false, discriminator: true, formats: { "date-time": rt.isDateTime } });
  const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (!Array.isArray(node) && "discriminator" in node) delete node.discriminator.mapping;
    stack.push(...Object.values(node));
  }
  const validate = ajv.compile(schema);
  parse = (text) => {
    const tree = JSON.parse(text);
    if (!validate(tree)) throw new Error("ajv rejects it");
    return tree;
  };
}
const text = readFileSync(path, "utf8");
const example = readFileSync(small, "utf8");
for (let i = 0; i < WARM; i++) parse(example); // the engine compiles what runs hot: a service's steady state, not its first call
globalThis.gc();
writeFileSync("/proc/self/clear_refs", "5");
const before = status("VmRSS:");
const kept = parse(text);
process.stdout.write(JSON.stringify({ mb: status("VmHWM:") - before, kept: kept !== undefined }));
"""


def _run(command: list[str], what: str, runs: int, env: dict[str, str] | None = None) -> float:
    """The median over fresh processes of the megabytes the parse took (a page more or less moves one run)."""
    found = []
    for _ in range(runs):
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
        if done.returncode != 0:
            raise AssertionError(f"{what} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
        found.append(float(json.loads(done.stdout)["mb"]))
    return statistics.median(found)


def memory_rows(size: int = MIB, runs: int = 9) -> list[dict[str, Any]]:
    """Per language and document: the peak megabytes the parse took, chatspec's and the peer's."""
    from bench_go_plain import go_file, plain_structs
    from conftest import format_folders
    from generator.core import discover
    from generator.lower import lower
    from generator.naming import go_name
    from generator.naming import go_package as package_name
    from generator.options import load_options

    work = Path(tempfile.mkdtemp())
    docs = documents(size)
    loaded = {spec.format_id: lower(spec) for spec in discover(ROOT / "specs", ROOT) if spec.format_id in docs}
    paths = {}
    for fmt, doc in docs.items():
        paths[fmt] = (work / f"{fmt}.json", next((format_folders()[fmt] / "examples" / "valid").glob("*.json")))
        paths[fmt][0].write_text(json.dumps(doc), encoding="utf-8")
    rows = []
    script = work / "measure.py"
    script.write_text(_PYTHON.format(python=str(ROOT / "generated" / "python"), pydantic=str(ROOT / "generated" / "pydantic"), status=_STATUS, warm=WARM))
    for fmt, (path, small) in paths.items():
        sides = {f"{s}_mb": _run([sys.executable, str(script), s, fmt, loaded[fmt].root, str(path), str(small)], f"Python {s} on {fmt}", runs)
                 for s in ("chatspec", "peer")}
        rows.append({"language": "Python", "peer": "pydantic v2", "format": fmt, "bytes": path.stat().st_size, **sides})
    if go_available():
        module = load_options(ROOT).go_module
        cases, plain_code = [], []
        for fmt in docs:
            plain, declarations = plain_structs(loaded[fmt], go_name(fmt))
            plain_code.append(declarations)
            cases.append(_GO_CASES.format(fmt=fmt, pkg=package_name(fmt), parse=f"Parse{go_name(fmt)}FromJSON", plain=plain))
        imports = "\n".join(f'\t"{module}/{package_name(f)}"' for f in sorted(docs))
        (work / "main.go").write_text(_GO.format(imports=imports, cases="\n".join(cases), warm=WARM))
        (work / "plain.go").write_text(go_file("main", "\n".join(plain_code)))
        write_go_mod(work, "memorybench", ROOT / "generated" / "go", module)
        built = subprocess.run(["go", "build", "-o", "memory", "."], cwd=work, capture_output=True, text=True, env=GO_ENV)
        if built.returncode != 0:
            raise AssertionError(built.stderr)
        for fmt, (path, small) in paths.items():
            sides = {f"{s}_mb": _run([str(work / "memory"), s, fmt, str(path), str(small)], f"Go {s} on {fmt}", runs) for s in ("chatspec", "peer")}
            rows.append({"language": "Go", "peer": "encoding/json", "format": fmt, "bytes": path.stat().st_size, **sides})
    if node_available() and TSC.is_file():
        from typescript_driver import compile_package, write_tree

        tree = ROOT / "generated" / "typescript"
        write_tree({p.relative_to(tree).as_posix(): p.read_text(encoding="utf-8") for p in tree.rglob("*") if p.is_file()}, work / "package")
        dist = compile_package(work / "package")
        (work / "measure.mjs").write_text(_TYPESCRIPT)
        env = {**GO_ENV, "AJV_2020": str(NPM / "ajv" / "dist" / "2020.js"), "WARM": str(WARM)}
        for fmt, (path, small) in paths.items():
            schema = ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json"
            sides = {f"{s}_mb": _run(["node", "--expose-gc", str(work / "measure.mjs"), str(dist), s, fmt, str(path), str(small), str(schema)],
                             f"TypeScript {s} on {fmt}", runs, env) for s in ("chatspec", "peer")}
            rows.append({"language": "TypeScript", "peer": "Ajv", "format": fmt, "bytes": path.stat().st_size, **sides})
    return rows


def memory_table(quick: bool = False) -> list[str]:
    rows = memory_rows(MIB // 16, runs=3) if quick else memory_rows(MIB)
    lines = ["Memory: the peak a valid document takes to read, in a fresh process per side (peak resident memory less that before the parse)",
             f"{'language':11} {'format':24} {'input':>7} {'chatspec':>9} {'peer':>22} {'ratio':>6}"]
    for r in rows:
        lines.append(f"{r['language']:11} {r['format']:24} {r['bytes'] / MIB:5.2f}MB {r['chatspec_mb']:7.1f}MB {r['peer']:>14} {r['peer_mb']:5.1f}MB"
                     f" {r['chatspec_mb'] / max(r['peer_mb'], 0.1):5.2f}x")
    over = [f"{r['language']} {r['format']}" for r in rows if r["chatspec_mb"] > r["peer_mb"]]
    lines.append(f"rows where chatspec takes more than its peer: {', '.join(over) or 'none'} (goal none: {'met' if not over else 'NOT met'})")
    return lines


if __name__ == "__main__":
    print("\n".join(memory_table("--quick" in sys.argv)))

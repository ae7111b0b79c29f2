"""make bench: every figure a ratio of two timings taken in the same run on the same payloads.

    python tests/bench.py [--quick] [--only SECTION[,SECTION...]]    (make bench ONLY=typescript,go)

Python: JSON text in, validated objects out, as a service meets it: the generated
package's parse_<format>_from_json against pydantic v2's model_validate_json (models made
by datamodel-code-generator), json.loads followed by fastjsonschema (compiled from the
exported schema) or jsonschema (2020-12, format checking), and msgspec decoding into Structs with the same rules
(tests/bench_msgspec.py), on the seed examples, larger
realistic payloads and invalid ones; the peers take turns, CPU time, the collector on. Go: Parse<Format>FromJSON against json.Unmarshal
and goccy/go-json into plain structs that validate nothing. Memory: the peak a 1 MiB document takes to read, against
pydantic, encoding/json and Ajv (tests/bench_memory.py). Patterns: every accepted pattern on adversarial values in the three runtimes. TypeScript: parse<Format>FromJSON against Ajv compiled in strict
mode from the exported schema and typia checking the same schema as tagged types, with the rules by hand
(tests/bench_typescript/bench.mjs, tests/bench_typia.py). Generation: chatspec against datamodel-codegen, and how
generation time per format scales; the edit loop (no-op check, regenerate after an
edit, cold generate) as whole commands against a cold datamodel-codegen run.
Ratios > 1 mean chatspec is faster.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT), str(ROOT / "generated" / "python"), str(ROOT / "generated" / "pydantic"), str(ROOT / "generated" / "msgspec")]

import fastjsonschema  # noqa: E402
import msgspec  # noqa: E402
import pydantic  # noqa: E402
from jsonschema import Draft202012Validator  # noqa: E402

import bench_msgspec  # noqa: E402
import bench_typia  # noqa: E402
from conftest import format_folders  # noqa: E402
from fuzz import generation_schema  # noqa: E402
from go_driver import GO_ENV, go_available, write_go_mod  # noqa: E402

# --- payloads ---------------------------------------------------------------


def large_payloads() -> dict[str, Any]:
    """Realistic larger documents: a 200-message conversation, a 50-message event history, ..."""
    people = [f"person{i}" for i in range(8)]
    conversation = {
        "id": "long_chat",
        "conversation": {"source": "slack", "people": people, "user": people[0], "conversation": [
            {"speaker": people[i % 8], "content": f"Message number {i} about the plan for the week.", "time": f"2024-01-15T{9 + i // 60:02d}:{i % 60:02d}:00Z"}
            for i in range(200)]},
        "tags": ["work", "planning"], "metadata": {"platform": "slack", "channel": "dev"},
    }
    history = {"session_id": "s-1", "role": "assistant", "completed": True, "messages": [
        {"role": "user", "content": f"Question {i}?"} if i % 3 == 0 else
        {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {"name": "lookup", "arguments": json.dumps({"q": i})}}]} if i % 3 == 1 else
        {"role": "tool", "content": f"result {i}", "tool_call_id": f"call_{i - 1}"}
        for i in range(50)]}
    modality = {"timestamp": "2024-03-15T10:31:00Z", "role": "user", "conversation_id": "thread-9", "metadata": {"tokens": 812},
                "content": [{"type": "text", "text": f"Part {i}"} if i % 2 else {"type": "image", "source": "url", "url": f"https://example.com/{i}.png"} for i in range(50)]}
    droidlet = {"chat_memid": "agent-1", "timestamp": 1618000000000, "content_type": "chat_and_media_and_text_options",
                "content": [{"id": "text", "content": "Which one?"}] + [{"id": "image_link" if i % 2 else "response_option", "content": f"option {i}"} for i in range(49)]}
    droidlet_v1 = {"speaker_id": "agent-1", "timestamp": 1618000000, "content_type": ["chat_and_media_and_text_options"],
                   "content": [["text", "Which one?"]] + [["image_link" if i % 2 else "response_option", f"option {i}"] for i in range(49)]}
    return {"structured_conversation": conversation, "chat_event": history, "chat_modality": modality,
            "droidlet_chat": droidlet, "droidlet_chat_v1": droidlet_v1}


def past_ascii(doc: Any, mark: str = "\u2019") -> Any:
    """The document with a curly apostrophe (or `mark`) in each text that starts with a letter and holds a space (a
    message's words, not an id, a date-time, a URL or a JSON argument string): what chat text holds, read as users
    meet it. Written with json.dumps(..., ensure_ascii=False), the payload's text is UTF-8 past ASCII."""
    if isinstance(doc, dict):
        return {key: past_ascii(value, mark) for key, value in doc.items()}
    if isinstance(doc, list):
        return [past_ascii(item, mark) for item in doc]
    if isinstance(doc, str) and doc[:1].isalpha() and " " in doc:
        return doc.replace(" ", f"{mark}s ", 1)
    return doc


def non_ascii_text(fmt: str, doc: Any) -> str:
    """The non-ASCII rows' text of every table: the large document past_ascii made, as UTF-8 JSON, with any fresh ids
    given (ids_given): what the row measures is the text."""
    return ids_given(fmt, [json.dumps(past_ascii(doc), ensure_ascii=False)])[0]


def lone_surrogates(large: dict[str, Any]) -> list[dict[str, Any]]:
    """Each format's large document with a lone UTF-16 surrogate in its words, raw in the text and written as an
    escape: chatspec's input policy refuses both (README, "Input policy"), JSON.parse keeps both. Checked like the
    examples: a peer given chatspec's rules must refuse them too."""
    found = []
    for fmt, doc in large.items():
        marked = past_ascii(doc, "\ud800")
        for how, ascii_only in (("raw", False), ("escaped", True)):
            found.append({"format": fmt, "name": f"large, a lone surrogate in its words ({how})", "valid": False,
                          "text": json.dumps(marked, ensure_ascii=ascii_only), "input_policy": True})
    return found


def invalid_payload(doc: Any) -> Any:
    """The large payload with one wrong type deep inside (time to reject)."""
    bad = copy.deepcopy(doc)
    here = bad
    while True:
        if isinstance(here, dict):
            key = list(here)[-1]
            if isinstance(here[key], (dict, list)) and here[key]:
                here = here[key]
                continue
            here[key] = 12345 if isinstance(here[key], str) else "wrong"
            return bad
        if isinstance(here, list):
            if isinstance(here[-1], (dict, list)) and here[-1]:
                here = here[-1]
                continue
            here[-1] = 12345
            return bad


def examples() -> list[dict[str, Any]]:
    """Every example of every format, valid and invalid, as JSON text: a peer whose types and rules are written
    apart from chatspec (msgspec, typia) must give chatspec's verdict on each before it is timed."""
    found = []
    for fmt, folder in format_folders().items():
        for kind in ("valid", "invalid"):
            for path in sorted((folder / "examples" / kind).glob("*.json")):
                doc = json.loads(path.read_text(encoding="utf-8"))
                found.append({"format": fmt, "name": f"{kind}/{path.name}", "valid": kind == "valid",
                              "text": json.dumps(doc if kind == "valid" else doc["data"], ensure_ascii=False)})
    return found


def ids_given(fmt: str, texts: list[str]) -> list[str]:
    """The texts with each root field whose default is a fresh UUID given one (chatspec makes the UUIDs a document
    leaves out, which no peer does: the row with them given shows what they cost)."""
    import dataclasses as dc

    module = importlib.import_module(f"chatformats.{fmt}")
    root = type(getattr(module, f"parse_{fmt}_from_json")(texts[0]))
    made = {f.name for f in dc.fields(root) if f.default_factory is getattr(module, "_rt").new_uuid4} if dc.is_dataclass(root) else set()
    fresh = [wire for wire, attr in getattr(root, "_WIRE_ATTRS", {}).items() if attr in made]
    order = list(getattr(root, "_WIRE_ATTRS", {}))
    out = []
    for text in texts:
        doc = json.loads(text)
        if isinstance(doc, dict) and any(w not in doc for w in fresh):
            # Each id where the fields' order puts it among the document's own keys (right after the last one before it
            # there), so that the document is the one a writer that gave the ids would send.
            for i, wire in enumerate(fresh):
                if wire in doc:
                    continue
                before = [k for k in order[: order.index(wire)] if k in doc]
                keys = list(doc)
                at = keys.index(before[-1]) + 1 if before else 0
                doc = {**{k: doc[k] for k in keys[:at]}, wire: f"00000000-0000-4000-8000-{i:012d}", **{k: doc[k] for k in keys[at:]}}
            text = json.dumps(doc, ensure_ascii=False)
        out.append(text)
    return out


def edge_cases() -> list[dict[str, Any]]:
    """Where msgspec's own readers take what the schema refuses: every valid example with each date-time written
    with a space for the T (msgspec's date-time parser takes it). A msgspec peer must refuse them too, as chatspec
    does, to count as msgspec with the same rules; the verdict expected is chatspec's own."""
    found = []
    stamp = re.compile(r'"(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d[^"]*)"')
    for example in examples():
        if example["valid"] and stamp.search(example["text"]):
            text = stamp.sub(r'"\1 \2"', example["text"])
            module = importlib.import_module(f"chatformats.{example['format']}")
            try:
                getattr(module, f"parse_{example['format']}_from_json")(text)
                valid = True
            except module.ValidationError:
                valid = False
            found.append({**example, "name": example["name"] + " (a space for the T)", "valid": valid, "text": text})
    return found


# --- validators under test ----------------------------------------------------


def validators(fmt: str) -> dict[str, Callable[[str], bool]]:
    """name -> a function that reads a JSON text and validates it (and, where the tool builds objects, builds
    them): True if accepted. The peers without a JSON reader of their own get json.loads."""
    schema = json.loads((ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
    dataclasses = importlib.import_module(f"chatformats.{fmt}")
    pyd = importlib.import_module(f"chatformats_pydantic.{fmt}")
    parse = getattr(dataclasses, f"parse_{fmt}_from_json")
    example = next((format_folders()[fmt] / "examples" / "valid").glob("*.json")).read_text(encoding="utf-8")
    model = getattr(pyd, type(parse(example)).__name__)
    reference = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    # fastjsonschema knows drafts 4 to 7: it gets tuples in their draft-07 form.
    compiled = fastjsonschema.compile(generation_schema(schema))

    def ours(text: str) -> bool:
        try:
            parse(text)
            return True
        except dataclasses.ValidationError:
            return False

    def pydantic_v2(text: str) -> bool:
        try:
            model.model_validate_json(text)
            return True
        except pydantic.ValidationError:
            return False

    def fast(text: str) -> bool:
        try:
            compiled(json.loads(text))
            return True
        except fastjsonschema.JsonSchemaException:
            return False

    def exact(text: str) -> bool:
        return bool(reference.is_valid(json.loads(text)))

    structs = bench_msgspec.decoder(fmt, schema)
    fastest = getattr(importlib.import_module(f"chatformats_msgspec.{fmt}"), f"parse_{fmt}_from_json")

    def ours_msgspec(text: str) -> bool:
        try:
            fastest(text)
            return True
        except dataclasses.ValidationError:
            return False

    def msgspec_structs(text: str) -> bool:
        try:
            structs.decode(text)
            return True
        except (msgspec.ValidationError, msgspec.DecodeError):
            return False

    return {"chatspec": ours, "chatspec msgspec": ours_msgspec, "pydantic v2": pydantic_v2, "fastjsonschema": fast, "jsonschema": exact,
            "msgspec": msgspec_structs}


def per_call(fn: Callable[[], Any], budget: float) -> float:
    """Seconds per call: the best of 5 repeats, each sized to about budget/5 seconds."""
    n, took = 1, 0.0
    while took < budget / 50:
        n *= 2
        took = timeit.timeit(fn, number=n)
    number = max(1, int(n * (budget / 5) / max(took, 1e-9)))
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def _cpu(fn: Callable[[], Any], n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        fn()
    return time.process_time() - start


def alternating(calls: dict[str, Callable[[], Any]], budget: float, rounds: int = 15) -> dict[str, float]:
    """CPU seconds per call of each: the median of `rounds` turns taken in rotation, each turn about
    budget / rounds / len(calls) seconds, the collector on. A burst of load on a shared machine falls
    on every peer alike, and a ratio of two of them is taken from one run."""
    sizes = {}
    for name, fn in calls.items():
        n = 1
        while (took := _cpu(fn, n)) < 0.002:
            n *= 2
        sizes[name] = max(1, int(n * budget / rounds / len(calls) / took))
    names = list(calls)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for turn in range(rounds):
        for name in names[turn % len(names) :] + names[: turn % len(names)]:
            samples[name].append(_cpu(calls[name], sizes[name]) / sizes[name])
    return {name: statistics.median(times) for name, times in samples.items()}


def python_table(budget: float) -> list[dict[str, Any]]:
    rows = []
    large = large_payloads()
    every_example = examples() + edge_cases()
    for fmt, folder in format_folders().items():
        checks = validators(fmt)
        for example in (e for e in every_example if e["format"] == fmt):
            for peer in ("msgspec", "chatspec msgspec"):
                if checks[peer](example["text"]) != example["valid"]:
                    raise AssertionError(f"{peer} {'rejects' if example['valid'] else 'accepts'} the {fmt} example {example['name']}, "
                                         "which chatspec does not: its types or rules say something else")
        seeds = [p.read_text(encoding="utf-8") for p in sorted((folder / "examples" / "valid").glob("*.json"))]
        payloads: tuple[tuple[str, list[str], bool], ...] = (
            ("examples", seeds, True), ("large", [json.dumps(large[fmt])], True), ("non-ASCII", [non_ascii_text(fmt, large[fmt])], True),
            ("invalid", [json.dumps(invalid_payload(large[fmt]))], False))
        given = ids_given(fmt, seeds)
        if given != seeds:
            # The fresh UUIDs chatspec fills in where a document has no id (the peers make none), in a row of their own.
            payloads = (payloads[0], ("ids given", given, True), *payloads[1:])
        for label, texts, expect in payloads:
            for name, check in checks.items():
                verdicts = {check(t) for t in texts}
                if verdicts != {expect}:
                    raise AssertionError(f"{name} gives {verdicts} on {fmt} {label}: the benchmark would not measure validation")
            times = alternating({name: (lambda check=check, texts=texts: [check(t) for t in texts]) for name, check in checks.items()}, budget)
            times = {name: took / len(texts) for name, took in times.items()}
            rows.append({"format": fmt, "payload": label, "chatspec_us": times["chatspec"] * 1e6,
                         **{f"vs {k}": times[k] / times["chatspec"] for k in ("pydantic v2", "fastjsonschema", "jsonschema", "msgspec")},
                         # The msgspec package against msgspec with the same rules (issue 31's fastest path).
                         "msgspec_us": times["chatspec msgspec"] * 1e6, "msgspec vs msgspec": times["msgspec"] / times["chatspec msgspec"]})
    return rows


def own_dates_table(budget: float) -> list[tuple[str, float]]:
    """The msgspec package against msgspec reading date-times with its own parser, on the large payloads that hold
    date-times: what reading them by the schema's grammar costs both sides (a time the package takes per msgspec's)."""
    rows = []
    large = large_payloads()
    for fmt in format_folders():
        schema = json.loads((ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
        if '"date-time"' not in json.dumps(schema):
            continue
        lenient = bench_msgspec.decoder(fmt, schema, own_dates=True)
        ours = getattr(importlib.import_module(f"chatformats_msgspec.{fmt}"), f"parse_{fmt}_from_json")
        text = json.dumps(large[fmt])
        lenient.decode(text), ours(text)  # both accept it (the verdicts were checked with the same rules)
        times = alternating({"ours": lambda: ours(text), "lenient": lambda: lenient.decode(text)}, budget)
        rows.append((fmt, times["ours"] / times["lenient"]))
    return rows


def validate_table(budget: float) -> list[dict[str, Any]]:
    """validate() on a built object (the large payload's) against the to_dict round trip it replaced:
    to_dict() and the exact walk over the JSON shape."""
    rows = []
    large = large_payloads()
    for fmt, folder in format_folders().items():
        mod = importlib.import_module(f"chatformats.{fmt}")
        example = next((folder / "examples" / "valid").glob("*.json")).read_text(encoding="utf-8")
        root = type(getattr(mod, f"parse_{fmt}_from_json")(example))
        built = root.from_dict(large[fmt])
        exact = getattr(mod, "_parse_" + re.sub(r"(?<!^)(?=[A-Z])", "_", root.__name__).lower())
        new = per_call(built.validate, budget)
        old = per_call(lambda: mod._rt.parse(exact, built.to_dict()), budget)
        rows.append({"format": fmt, "validate_us": new * 1e6, "round_trip_us": old * 1e6, "ratio": old / new})
    return rows


# --- Go -------------------------------------------------------------------------

_GO_BENCH = """package bench

import (
	"encoding/json"
	"os"
	"syscall"
	"testing"

	gojson "github.com/goccy/go-json"
{imports}
)

func load(b *testing.B, name string) []byte {{
	data, err := os.ReadFile(name)
	if err != nil {{
		b.Fatal(err)
	}}
	return data
}}

// cpu is the process's CPU time so far (user + system, every thread: the collector's work counts).
func cpu() int64 {{
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {{
		panic(err)
	}}
	return ru.Utime.Nano() + ru.Stime.Nano()
}}

// timed runs call b.N times and reports its CPU time per call beside Go's wall-clock ns/op.
func timed(b *testing.B, call func() error) {{
	b.ReportAllocs()
	b.ResetTimer()
	start := cpu()
	for i := 0; i < b.N; i++ {{
		if err := call(); err != nil {{
			b.Fatal(err)
		}}
	}}
	b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op")
}}

var _ = json.Unmarshal
var _ = gojson.Unmarshal
{benches}
"""

_GO_PAYLOAD = """
func BenchmarkParse_{name}(b *testing.B) {{
	data := load(b, {path!r})
	// Verdicts first: a Parse that validated nothing must not be timed.
	if _, err := {pkg}.{parse}(load(b, {invalid!r})); err == nil {{
		b.Fatal("{pkg}.{parse} accepts the invalid payload: the benchmark would not measure validation")
	}}
	timed(b, func() error {{
		_, err := {pkg}.{parse}(data)
		return err
	}})
}}

func BenchmarkValidate_{name}(b *testing.B) {{
	doc, err := {pkg}.{parse}(load(b, {path!r}))
	if err != nil {{
		b.Fatal(err)
	}}
	// Verdicts first: a Validate that checks nothing must not be timed (the invalid
	// payload, where encoding/json can build it at all, and a nil document).
	var broken {pkg}.{root}
	if json.Unmarshal(load(b, {invalid!r}), &broken) == nil && {pkg}.{validate}(&broken) == nil || {pkg}.{validate}(nil) == nil {{
		b.Fatal("{pkg}.{validate} accepts an invalid document: the benchmark would not measure validation")
	}}
	timed(b, func() error {{ return {pkg}.{validate}(doc) }})
}}

// The peers decode into plain structs (tests/bench_go_plain.py) and validate nothing.
func BenchmarkUnmarshal_{name}(b *testing.B) {{
	data := load(b, {path!r})
	timed(b, func() error {{
		var v {plain}
		return json.Unmarshal(data, &v)
	}})
}}

func BenchmarkGoccy_{name}(b *testing.B) {{
	data := load(b, {path!r})
	timed(b, func() error {{
		var v {plain}
		return gojson.Unmarshal(data, &v)
	}})
}}
"""

# goccy/go-json, the fastest encoding/json-compatible decoder the issue names (pure Go, no cgo), pinned.
GOCCY = "github.com/goccy/go-json v0.12.0"
_BENCH_KINDS = ("Parse", "Validate", "Unmarshal", "Goccy")


def _go_metrics(line: str) -> dict[str, float]:
    """A benchmark line's figures by unit: {"ns/op": ..., "cpu-ns/op": ..., "B/op": ..., "allocs/op": ...}."""
    fields = line.split()[2:]
    return {unit: float(value) for value, unit in zip(fields[::2], fields[1::2])}


def go_table(benchtime: str, go_tree: Path = ROOT / "generated" / "go", rounds: int = 3) -> list[dict[str, Any]]:
    """Per payload: Parse<Format>FromJSON, Validate<Root> on the parsed document, and json.Unmarshal and goccy/go-json's
    Unmarshal into plain structs; CPU time per call, the best of `rounds` runs of the compiled benchmarks, which
    take turns (every benchmark once per run). A payload whose root fills fresh UUIDs where fields are absent
    has a second row with them given ("ids given"): their generation is the difference."""
    from bench_go_plain import go_file, plain_structs
    from generator.core import discover
    from generator.lower import lower
    from generator.naming import go_name
    from generator.options import load_options
    from generator.naming import go_package as package_name

    module = load_options(ROOT).go_module
    work = Path(tempfile.mkdtemp())
    large = large_payloads()
    loaded = {spec.format_id: spec for spec in discover(ROOT / "specs", ROOT)}  # an earlier major kept beside the latest too
    benches, imports, plain_code = [], set(), []
    for fmt, folder in format_folders().items():
        ir_format = lower(loaded[fmt])
        plain, declarations = plain_structs(ir_format, go_name(fmt))
        plain_code.append(declarations)
        root = ir_format.root
        fresh = [f.wire_name for f in next(m for m in ir_format.models if m.name == root).fields if f.default_factory == "uuid4"]
        example = next((folder / "examples" / "valid").glob("*.json")).read_text(encoding="utf-8")
        invalid = work / f"{fmt}_invalid.json"
        invalid.write_text(json.dumps(invalid_payload(large[fmt])))
        payloads = []
        for label, doc in (("example", json.loads(example)), ("large", large[fmt])):
            payloads.append((f"{fmt}_{label}", doc))
            if any(w not in doc for w in fresh):
                given = {**doc, **{w: f"00000000-0000-4000-8000-{i:012d}" for i, w in enumerate(fresh)}}
                payloads.append((f"{fmt}_{label}_ids_given", given))
        payloads.append((f"{fmt}_large_non_ascii", json.loads(non_ascii_text(fmt, large[fmt]))))
        for name, doc in payloads:
            path = work / f"{name}.json"
            path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
            benches.append(_GO_PAYLOAD.format(name=name, path=str(path), invalid=str(invalid), pkg=package_name(fmt), plain=plain,
                                              parse=f"Parse{go_name(fmt)}FromJSON", validate=f"Validate{root}", root=root).replace("'", '"'))
        imports.add(f'\t"{module}/{package_name(fmt)}"')
    (work / "bench_test.go").write_text(_GO_BENCH.format(imports="\n".join(sorted(imports)), benches="".join(benches)))
    (work / "plain_test.go").write_text(go_file("bench", "\n".join(plain_code)))
    write_go_mod(work, "bench", go_tree, module)
    with (work / "go.mod").open("a") as mod:
        mod.write(f"\nrequire {GOCCY}\n")
    built = subprocess.run(["go", "test", "-c", "-o", "bench.test"], cwd=work, capture_output=True, text=True, env=GO_ENV)
    if built.returncode != 0:
        raise AssertionError(built.stdout + built.stderr)
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(rounds):
        done = subprocess.run([str(work / "bench.test"), "-test.run", "^$", "-test.bench", ".", f"-test.benchtime={benchtime}"],
                              cwd=work, capture_output=True, text=True, env=GO_ENV)
        if done.returncode != 0:
            raise AssertionError(done.stdout + done.stderr)
        for m in re.finditer(rf"^Benchmark({'|'.join(_BENCH_KINDS)})_(\S+?)(?:-\d+)?\s.*$", done.stdout, re.M):
            results.setdefault((m.group(2), m.group(1)), []).append(_go_metrics(m.group(0)))
    rows = []
    for name in dict.fromkeys(n for n, _ in results):
        best = {kind: min(results[(name, kind)], key=lambda r: r["cpu-ns/op"]) for kind in _BENCH_KINDS}
        us = {kind: best[kind]["cpu-ns/op"] / 1000 for kind in _BENCH_KINDS}
        rows.append({"payload": name, "parse_us": us["Parse"], "unmarshal_us": us["Unmarshal"], "goccy_us": us["Goccy"],
                     "vs_json": us["Unmarshal"] / us["Parse"], "vs_goccy": us["Goccy"] / us["Parse"],
                     "allocs": best["Parse"]["allocs/op"], "unmarshal_allocs": best["Unmarshal"]["allocs/op"],
                     "validate_us": us["Validate"], "validate_share": us["Validate"] / us["Unmarshal"],
                     "validate_allocs": best["Validate"]["allocs/op"]})
    return rows


# --- TypeScript -------------------------------------------------------------------


BENCH_MJS = HERE / "bench_typescript" / "bench.mjs"


def typescript_table(budget: float, ts_tree: Path = ROOT / "generated" / "typescript") -> list[dict[str, Any]]:
    """parse<Format>FromJSON against Ajv (JSON.parse + a validator compiled in strict mode from the
    exported schema) on the same texts, timed in one node run (tests/bench_typescript/bench.mjs)."""
    from typescript_driver import NPM, compile_package, write_tree

    work = Path(tempfile.mkdtemp())
    write_tree({p.relative_to(ts_tree).as_posix(): p.read_text(encoding="utf-8") for p in ts_tree.rglob("*") if p.is_file()}, work / "package")
    dist = compile_package(work / "package")
    large = large_payloads()
    payloads = []
    for fmt, folder in format_folders().items():
        schema = str(ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json")
        example = json.loads(next((folder / "examples" / "valid").glob("*.json")).read_text(encoding="utf-8"))
        texts = [json.dumps(doc, ensure_ascii=False) for doc in (example, large[fmt], invalid_payload(large[fmt]))]
        rows = [("example", texts[0], True), ("large", texts[1], True), ("invalid", texts[2], False)]
        # The UUIDs chatspec fills in where a document has no id (the peers make none), in rows of their own.
        given = ids_given(fmt, texts[:2])
        rows[2:2] = [(label, text, True) for label, text, was in zip(("ids given", "large ids"), given, texts) if text != was]
        rows.insert(-1, ("non-ASCII", non_ascii_text(fmt, large[fmt]), True))
        for label, text, valid in rows:
            payloads.append({"format": fmt, "payload": label, "text": text, "valid": valid, "schema": schema})
    (work / "payloads.json").write_text(json.dumps(payloads), encoding="utf-8")
    (work / "examples.json").write_text(json.dumps(examples() + lone_surrogates(large)), encoding="utf-8")
    typia = bench_typia.build(work / "typia", {fmt: ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json" for fmt in format_folders()}, NPM)
    done = subprocess.run(["node", str(BENCH_MJS), str(dist), str(work / "payloads.json"), str(budget), str(work / "examples.json")],
                          capture_output=True, text=True, env={**os.environ, "AJV_2020": str(NPM / "ajv" / "dist" / "2020.js"), "TYPIA_DIST": str(typia)})
    if done.returncode != 0:
        raise AssertionError(done.stdout + done.stderr)
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    for r in rows:
        r["vs ajv"] = r["ajv_us"] / r["chatspec_us"]
        r["vs typia"] = r["typia_us"] / r["chatspec_us"]
    return rows


# --- generation ---------------------------------------------------------------------


def synthetic_spec(name: str, fields: int = 20, union: int = 0) -> dict[str, Any]:
    props: dict[str, Any] = {}
    kinds = [{"type": "string", "minLength": 1}, {"type": "integer", "minimum": 0}, {"type": "boolean"},
             {"type": "array", "items": {"type": "string"}}, {"type": "string", "format": "date-time"}]
    for i in range(fields):
        props[f"field_{i}"] = dict(kinds[i % len(kinds)], description=f"Field {i}.")
    defs: dict[str, Any] = {"Root": {"type": "object", "description": "A synthetic model.", "properties": props, "required": ["field_0"]}}
    if union:
        for i in range(union):
            defs[f"Variant{i}"] = {"type": "object", "properties": {"kind": {"type": "string", "const": f"v{i}"}, "value": {"type": "string"}}, "required": ["kind"]}
        defs["Choice"] = {"oneOf": [{"$ref": f"#/$defs/Variant{i}"} for i in range(union)], "x-discriminator": "kind"}
        props["choice"] = {"$ref": "#/$defs/Choice"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": name, "description": "Synthetic.",
            "x-version": "1.0.0", "$ref": "#/$defs/Root", "$defs": defs}


def generation_seconds(specs: list[dict[str, Any]]) -> float:
    from generator.core import generate
    from generator.load import load_spec

    with tempfile.TemporaryDirectory() as tmp:
        loaded = []
        for i, spec in enumerate(specs):
            folder = Path(tmp) / f"f{i:03d}"
            folder.mkdir()
            (folder / "spec.json").write_text(json.dumps(spec))
            loaded.append(load_spec(folder, Path(tmp)))
        start = time.perf_counter()
        generate(loaded)
        return time.perf_counter() - start


def generation_table(quick: bool) -> list[dict[str, Any]]:
    import warnings

    from datamodel_code_generator import DataModelType, InputFileType, PythonVersion, generate as dmcg
    from datamodel_code_generator.format import Formatter

    from generator.core import discover, generate, histories
    from generator.options import load_options

    rows = []
    from generator.core import TARGETS

    start = time.perf_counter()
    generate(discover(ROOT / "specs", ROOT), options=load_options(ROOT), history=histories(ROOT / "specs"))
    full = time.perf_counter() - start
    schema = (ROOT / "generated" / "jsonschema" / "structured_conversation.schema.json").read_text()
    warnings.simplefilter("ignore", FutureWarning)
    start = time.perf_counter()
    dmcg(schema, input_file_type=InputFileType.JsonSchema, output_model_type=DataModelType.PydanticV2BaseModel,
         target_python_version=PythonVersion.PY_311, disable_timestamp=True, formatters=[Formatter.BLACK])
    one = time.perf_counter() - start
    rows.append({"what": f"chatspec generate: {len(format_folders())} formats x {len(TARGETS)} targets", "seconds": full, "ratio": one / full,
                 "note": f"vs datamodel-codegen, 1 format, pydantic only: {one:.2f}s"})
    counts = (1, 10) if quick else (1, 10, 100)
    base = None
    for n in counts:
        took = generation_seconds([synthetic_spec(f"Synthetic {i}") for i in range(n)])
        per = took / n
        base = base or per
        rows.append({"what": f"{n} synthetic formats of 20 fields", "seconds": took, "ratio": per / base, "note": f"{per * 1000:.0f} ms per format"})
    return rows


def shapes_table(quick: bool) -> list[dict[str, Any]]:
    """Generation of one wide model and of one wide union (the Generation table's last rows)."""
    rows = []
    took = generation_seconds([synthetic_spec("Wide", fields=200 if quick else 1000)])
    rows.append({"what": f"one model of {200 if quick else 1000} fields", "seconds": took, "ratio": None, "note": ""})
    took = generation_seconds([synthetic_spec("Union", fields=5, union=50)])
    rows.append({"what": "a union of 50 variants", "seconds": took, "ratio": None, "note": ""})
    return rows


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _header() -> list[str]:
    return [f"chatspec benchmarks — {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"pydantic {pydantic.VERSION}, {time.strftime('%Y-%m-%d')}", ""]


def python_section(quick: bool) -> list[str]:
    lines = []
    py = python_table(0.15 if quick else 1.5)
    lines.append("Python, JSON text to validated objects: CPU time per document (median of 15 turns taken in rotation), "
                 "and how many times longer each peer takes")
    lines.append(f"{'format':26} {'payload':9} {'chatspec':>10} {'pydantic v2':>12} {'fastjsonschema':>15} {'jsonschema':>11} {'msgspec':>8}"
                 f" {'| msgspec pkg':>13} {'vs msgspec':>10}")
    for r in py:
        lines.append(f"{r['format']:26} {r['payload']:9} {r['chatspec_us']:8.1f}us {r['vs pydantic v2']:11.2f}x {r['vs fastjsonschema']:14.2f}x "
                     f"{r['vs jsonschema']:10.2f}x {r['vs msgspec']:7.2f}x | {r['msgspec_us']:9.1f}us {r['msgspec vs msgspec']:9.2f}x")
    lines.append("(pydantic v2: model_validate_json; fastjsonschema and jsonschema: json.loads, then the check; msgspec "
                 f"{msgspec.__version__}: json.decode into Structs written from the exported schema, the rules by hand as "
                 "__post_init__ hooks, tests/bench_msgspec.py, its verdict chatspec's on every example before timing; msgspec pkg: "
                 "the opt-in generated/msgspec package, same verdicts and messages, against that msgspec peer)")
    valid_rows = [r for r in py if r["payload"] not in ("invalid", "ids given")]
    means = {k: geometric_mean([r[f"vs {k}"] for r in valid_rows]) for k in ("pydantic v2", "fastjsonschema", "jsonschema", "msgspec")}
    lines.append("geometric mean over valid payloads: " + ", ".join(f"{k} {v:.2f}x" for k, v in means.items()))
    # Issue 31's goals: every valid row at least even with pydantic v2, 3x fastjsonschema, an invalid document within
    # 3x the valid path of the same document.
    worst = min(valid_rows, key=lambda r: r["vs pydantic v2"])
    lines.append(f"lowest valid row vs pydantic v2: {worst['format']} {worst['payload']} {worst['vs pydantic v2']:.2f}x "
                 f"(goal >= 1.0x: {'met' if worst['vs pydantic v2'] >= 1.0 else 'NOT met'})")
    lines.append(f"vs fastjsonschema + json.loads: {means['fastjsonschema']:.2f}x (goal >= 3.0x: {'met' if means['fastjsonschema'] >= 3.0 else 'NOT met'})")
    slowest = min(valid_rows, key=lambda r: r["vs msgspec"])
    lines.append(f"vs msgspec with the same rules: the stdlib package takes {1 / means['msgspec']:.1f}x msgspec's time on the geometric "
                 f"mean, {1 / slowest['vs msgspec']:.1f}x on {slowest['format']} {slowest['payload']}")
    # Issue 31's fastest path: the msgspec package within 1.5x of msgspec with the same rules, on every valid row; where
    # the package makes UUIDs the peer does not, the row with the ids given stands in, and the UUIDs' row is shown apart.
    fresh = {r["format"] for r in py if r["payload"] == "ids given"}
    fast_rows = [r for r in py if r["payload"] != "invalid" and not (r["payload"] == "examples" and r["format"] in fresh)]
    worst_fast = min(fast_rows, key=lambda r: r["msgspec vs msgspec"])
    taken = 1 / worst_fast["msgspec vs msgspec"]
    fast_mean = 1 / geometric_mean([r["msgspec vs msgspec"] for r in fast_rows])
    lines.append(f"the msgspec package vs msgspec with the same rules: {fast_mean:.2f}x msgspec's time on the geometric mean, at most "
                 f"{taken:.2f}x ({worst_fast['format']} {worst_fast['payload']}) (goal within 1.5x on every valid row: "
                 f"{'met' if taken <= 1.5 else 'NOT met'})")
    for r in py:
        if r["payload"] == "examples" and r["format"] in fresh:
            lines.append(f"  {r['format']} examples with the UUIDs the package fills in and msgspec does not: {1 / r['msgspec vs msgspec']:.2f}x")
    for fmt, ratio in own_dates_table(0.15 if quick else 1.0):
        lines.append(f"  {fmt} large against msgspec reading date-times with its own parser (in C; it takes a space for the T, "
                     f"so not the same rules): {ratio:.2f}x its time")
    # The invalid payload is the large one with one wrong value: the error path against the valid path.
    slow = {r["format"]: r["chatspec_us"] for r in py if r["payload"] == "invalid"}
    fast = {r["format"]: r["chatspec_us"] for r in py if r["payload"] == "large"}
    worst_invalid = max(slow, key=lambda f: slow[f] / fast[f])
    ratio = slow[worst_invalid] / fast[worst_invalid]
    lines.append(f"invalid vs valid, same document: worst {worst_invalid} {ratio:.2f}x (goal <= 3x: {'met' if ratio <= 3 else 'NOT met'})")
    lines.append("")
    lines.append("Python validate() on a built object (large payloads) vs the to_dict round trip it replaced")
    lines.append(f"{'format':26} {'validate()':>11} {'round trip':>11} {'ratio':>7}")
    checked = validate_table(0.05 if quick else 0.5)
    for r in checked:
        lines.append(f"{r['format']:26} {r['validate_us']:9.1f}us {r['round_trip_us']:9.1f}us {r['ratio']:6.2f}x")
    worst = min(r["ratio"] for r in checked)
    lines.append(f"lowest ratio {worst:.2f}x (goal >= 3x: {'met' if worst >= 3 else 'NOT met'})")
    lines.append("")
    return lines


def go_section(quick: bool) -> list[str]:
    if not go_available():
        return ["Go: not installed, not measured"]
    lines = ["Go: Parse<Format>FromJSON (decode + validate) vs json.Unmarshal and goccy/go-json's Unmarshal into plain structs",
             "(no custom unmarshalers, no validation: tests/bench_go_plain.py); Validate<Root>(doc) on the parsed struct as a",
             "share of the json.Unmarshal's time; CPU time per call, best of 3 runs taking turns; allocations per call",
             f"{'payload':44} {'parse':>9} {'json':>9} {'goccy':>9} {'vs json':>8} {'vs goccy':>8} {'allocs':>13} {'validate':>9} {'share':>6}"]
    # quick: a fixed count of iterations and one run, which is all a smoke run needs to see every figure.
    go = go_table("200x" if quick else "1s", rounds=1 if quick else 3)
    for r in go:
        lines.append(f"{r['payload']:44} {r['parse_us']:7.1f}us {r['unmarshal_us']:7.1f}us {r['goccy_us']:7.1f}us {r['vs_json']:7.2f}x {r['vs_goccy']:7.2f}x"
                     f" {int(r['allocs']):5} vs {int(r['unmarshal_allocs']):4} {r['validate_us']:7.1f}us {r['validate_share'] * 100:5.0f}%")
    worst = min(go, key=lambda r: r["vs_json"])
    lines.append(f"slowest parse vs json.Unmarshal: {worst['payload']} {worst['vs_json']:.2f}x (goal >= 1.0x on every payload: {'met' if worst['vs_json'] >= 1 else 'NOT met'})")
    worst = min(go, key=lambda r: r["vs_goccy"])
    lines.append(f"slowest parse vs goccy/go-json: {worst['payload']} {worst['vs_goccy']:.2f}x (goal >= 1.0x on every payload: {'met' if worst['vs_goccy'] >= 1 else 'NOT met'})")
    over = [r["payload"] for r in go if r["allocs"] > r["unmarshal_allocs"]]
    lines.append(f"payloads whose parse allocates more than json.Unmarshal: {len(over)} of {len(go)} (goal 0: {'met' if not over else 'NOT met'})")
    worst_validate = max(r["validate_share"] for r in go)
    lines.append(f"worst Validate share {worst_validate * 100:.0f}% of json.Unmarshal (goal <= 25%: {'met' if worst_validate <= 0.25 else 'NOT met'})")
    lines.append("")
    return lines


def typescript_section(quick: bool) -> list[str]:
    from typescript_driver import NPM, TSC, node_available

    if not (node_available() and TSC.is_file()):
        return ["TypeScript: node or the pinned TypeScript (make test installs it) missing, not measured"]
    lines = ["TypeScript: parse<Format>FromJSON (decode + validate + build) vs Ajv 2020 (JSON.parse + validate, strict mode)",
             f"and typia {bench_typia.version(NPM)} (JSON.parse + typia's check of the exported schema as tagged types + the rules by hand:",
             "tests/bench_typia.py; its verdict is chatspec's on every example, valid and invalid, before timing); both peers",
             "read the text by chatspec's input policy (a lone surrogate refused: isWellFormed, as chatspec's runText does)",
             f"{'format':26} {'payload':9} {'chatspec':>10} {'ajv':>10} {'typia':>10} {'vs ajv':>8} {'vs typia':>9}"]
    ts = typescript_table(0.05 if quick else 0.5)
    for r in ts:
        lines.append(f"{r['format']:26} {r['payload']:9} {r['chatspec_us']:8.1f}us {r['ajv_us']:8.1f}us {r['typia_us']:8.1f}us "
                     f"{r['vs ajv']:7.2f}x {r['vs typia']:8.2f}x")
    # Where chatspec fills in UUIDs the peers do not make, the rows with the ids given stand in for the goals, and the
    # rows with the UUIDs are shown apart (as for Go and the msgspec package).
    given = {(r["format"], {"ids given": "example", "large ids": "large"}[r["payload"]]) for r in ts if r["payload"] in ("ids given", "large ids")}
    valid = [r for r in ts if r["payload"] != "invalid" and (r["format"], r["payload"]) not in given]
    mean = geometric_mean([r["vs ajv"] for r in valid])
    lines.append(f"geometric mean over valid payloads: ajv {mean:.2f}x (goal >= 1.2x: {'met' if mean >= 1.2 else 'NOT met'})")
    # What is left to win: every side reads the text first (isWellFormed, JSON.parse), most of Ajv's time on these
    # payloads; a check that cost nothing would be Ajv's time over that read's.
    bound = geometric_mean([r["ajv_us"] / r["read_us"] for r in valid])
    after = sum(r["chatspec_us"] - r["read_us"] for r in valid) / sum(r["ajv_us"] - r["read_us"] for r in valid)
    under = [f"{r['format']} {r['payload']} {r['ajv_us'] / r['read_us']:.2f}x" for r in valid if r["ajv_us"] / r["read_us"] < 1.2]
    lines.append(f"  the text read alone (isWellFormed, JSON.parse), timed in the same turns: a check that cost nothing would be "
                 f"{bound:.2f}x ajv on that mean; chatspec's work after the read is {after:.0%} of ajv's (summed over the valid "
                 f"payloads); rows where even that stays under 1.2x: {', '.join(under) or 'none'}")
    typia = geometric_mean([r["vs typia"] for r in valid])
    lowest = min(valid, key=lambda r: r["vs typia"])
    lines.append(f"geometric mean over valid payloads: typia {typia:.2f}x (goal >= 1.0x: {'met' if typia >= 1.0 else 'NOT met'}); "
                 f"lowest row {lowest['format']} {lowest['payload']} {lowest['vs typia']:.2f}x")
    for r in ts:
        if (r["format"], r["payload"]) in given:
            lines.append(f"  {r['format']} {r['payload']} with the UUIDs chatspec fills in and the peers do not: ajv {r['vs ajv']:.2f}x, "
                         f"typia {r['vs typia']:.2f}x")
    # Issue 31: an invalid payload within 3x Ajv's time (which stops at the first problem; chatspec reports every one).
    worst = min((r for r in ts if r["payload"] == "invalid"), key=lambda r: r["vs ajv"])
    lines.append(f"slowest invalid payload vs ajv: {worst['format']} {1 / worst['vs ajv']:.2f}x ajv's time "
                 f"(goal <= 3x: {'met' if worst['vs ajv'] >= 1 / 3 else 'NOT met'})")
    lines.append("")
    return lines


def hostile_section(quick: bool) -> list[str]:
    from bench_hostile import hostile_table  # inputs an attacker would send: tests/bench_hostile.py

    return [*hostile_table(quick), ""]


def memory_section(quick: bool) -> list[str]:
    from bench_memory import memory_table  # a 1 MiB document, chatspec against the peer of each language: tests/bench_memory.py

    return [*memory_table(quick), ""]


def patterns_section(quick: bool) -> list[str]:
    from bench_patterns import pattern_table  # every accepted pattern on adversarial values: tests/bench_patterns.py

    return [*pattern_table(quick), ""]


def _generation_lines(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    for r in rows:
        ratio = f"{r['ratio']:.2f}x" if r["ratio"] is not None else ""
        lines.append(f"{r['what']:50} {r['seconds']:8.2f}s {ratio:>8}  {r['note']}")
    return lines


def generation_section(quick: bool) -> list[str]:
    return ["Generation", *_generation_lines(generation_table(quick))]


def shapes_section(quick: bool) -> list[str]:
    """The rest of the Generation table: one wide model, one wide union."""
    return _generation_lines(shapes_table(quick))


def editloop_section(quick: bool) -> list[str]:
    from bench_editloop import table as editloop_table  # whole commands as a user runs them: tests/bench_editloop.py

    return ["", *editloop_table(1 if quick else 5)]


# The report, in order: each section is measured on its own (tests/test_bench.py runs
# them one by one, in parallel, with --quick's budgets).
SECTIONS: dict[str, Callable[[bool], list[str]]] = {
    "python": python_section,
    "go": go_section,
    "typescript": typescript_section,
    "hostile": hostile_section,
    "memory": memory_section,
    "patterns": patterns_section,
    "generation": generation_section,
    "generation shapes": shapes_section,
    "edit loop": editloop_section,
}


def report(quick: bool = False, only: list[str] | None = None) -> str:
    """The sections named in `only` (every section where it is None), in the report's order: a change
    to one language is measured before and after by its own table, in minutes, not the whole bench's."""
    lines = _header()
    for name, section in SECTIONS.items():
        if only is None or name in only:
            lines.extend(section(quick))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short timings (for a smoke run)")
    parser.add_argument("--only", metavar="SECTIONS", help=f"print only these sections, comma-separated: {', '.join(SECTIONS)}")
    args = parser.parse_args()
    only = None if args.only is None else [name.strip() for name in args.only.split(",")]
    unknown = [name for name in only or [] if name not in SECTIONS]
    if unknown:
        parser.error(f"--only: no section {', '.join(map(repr, unknown))}; the sections are {', '.join(SECTIONS)}")
    print(report(args.quick, only))
    return 0


if __name__ == "__main__":
    sys.exit(main())

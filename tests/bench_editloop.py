"""The edit loop, timed as a user meets it: whole commands, each against a cold
datamodel-codegen run on one schema taken in the same run (medians of alternating runs).

    python tests/bench_editloop.py [--runs N]

- no-op `chatspec check` (nothing changed since the last generate);
- `chatspec generate` after editing one spec (its description, then `chatspec bump`, not timed), with
  the cache of the runs before it;
- a cold full `chatspec generate` with an empty cache;
- reported, without a goal: `chatspec generate` after adding a field to that spec (then `chatspec bump`),
  which runs datamodel-codegen again (a description edit does not: generator/targets/pydantic/descriptions.py);
- reported, the floor under a cold run: the two tools chatspec must run on every format when nothing is
  cached (DESIGN: black formats every Python file, datamodel-code-generator makes the pydantic models),
  alone, in two processes at once, each at its best: datamodel-codegen with chatspec's options on the
  five exported schemas, black on the generated Python and pydantic modules as they are (its own output,
  so one pass each).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
FLOOR = "... black and datamodel-codegen alone (floor)"
GOALS = {"no-op chatspec check": 0.3, "generate after editing one spec": 1.0, "cold full generate, nothing cached": 2.0}


def _seconds(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed, so it would not measure anything:\n{done.stderr[-2000:]}")
    return took


def _edit_description(project: Path, fmt: str, n: int) -> None:
    spec = project / "specs" / fmt / "spec.json"
    document = json.loads(spec.read_text(encoding="utf-8"))
    document["description"] = document.get("description", "") + f" Edit {n}."
    spec.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _add_field(project: Path, fmt: str, n: int) -> None:
    spec = project / "specs" / fmt / "spec.json"
    document = json.loads(spec.read_text(encoding="utf-8"))
    root = document["$defs"][document["$ref"].rpartition("/")[2]]
    root["properties"][f"bench_note_{n}"] = {"type": "string", "description": f"A note added by edit {n}."}
    spec.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _floor_part(part: str, project: Path) -> None:
    """One of the floor's two processes: the tool's import and its work on every format of project."""
    from generator.build import fewer_collections

    generated = project / "generated"
    with fewer_collections():  # as chatspec's own run
        if part == "datamodel-codegen":
            from generator.targets.pydantic.models import _generate

            for schema in sorted((generated / "jsonschema").glob("*.schema.json")):
                _generate(schema.read_text(encoding="utf-8"), "# floor")
        else:
            import black
            from black.mode import Mode, TargetVersion

            for module in sorted([*(generated / "python").rglob("*.py"), *(generated / "pydantic").rglob("*.py")]):
                if module.name != "_runtime.py":  # vendored as it is, never formatted by a run
                    black.format_str(module.read_text(encoding="utf-8"), mode=Mode(target_versions={TargetVersion.PY311}))


def _floor_seconds(project: Path, env: dict[str, str]) -> float:
    parts = [[sys.executable, __file__, "--floor-part", part, str(project)] for part in ("datamodel-codegen", "black")]
    start = time.perf_counter()
    running = [subprocess.Popen(p, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for p in parts]
    errors = [r.communicate()[1] for r in running]  # read while they run: a full pipe would stop a child
    failed = [(p, error) for p, r, error in zip(parts, running, errors) if r.returncode != 0]
    took = time.perf_counter() - start
    if failed:
        raise AssertionError(f"{' '.join(failed[0][0])} failed, so it would not measure anything:\n{failed[0][1][-2000:]}")
    return took


def rows(runs: int = 5) -> list[dict[str, Any]]:
    chatspec = [sys.executable, "-m", "generator"]
    # chatspec byte-compiled, as pip installs it and as `make` does for the checkout (datamodel-codegen's
    # install is too): with PYTHONDONTWRITEBYTECODE set, an editable install compiles its modules every run.
    compileall.compile_dir(str(ROOT / "generator"), quiet=1)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("CHATSPEC_CACHE")}
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        project.mkdir()
        shutil.copytree(ROOT / "specs", project / "specs")
        shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
        env = dict(base_env, CHATSPEC_CACHE_DIR=str(Path(tmp) / "cache"))
        _seconds([*chatspec, "generate"], project, env)  # warm the cache, as any earlier run would have
        schema = project / "generated" / "jsonschema" / "structured_conversation.schema.json"
        reference = [str(BIN / "datamodel-codegen"), "--input", str(schema), "--input-file-type", "jsonschema",
                     "--output-model-type", "pydantic_v2.BaseModel", "--formatters", "black", "--disable-timestamp",
                     "--output", str(Path(tmp) / "models.py")]
        times: dict[str, list[float]] = {k: [] for k in ["datamodel-codegen, 1 schema, cold", "no-op chatspec check",
                                                            "generate after editing one spec", "... after adding a field to it (reported)",
                                                            "cold full generate, nothing cached", FLOOR]}
        for n in range(runs):
            # Alternate the commands, so a noisy moment hits all of them alike.
            times["datamodel-codegen, 1 schema, cold"].append(_seconds(reference, project, base_env))
            times["no-op chatspec check"].append(_seconds([*chatspec, "check"], project, env))
            _edit_description(project, "chat_event", n)
            subprocess.run([*chatspec, "bump", "chat_event"], cwd=project, env=env, capture_output=True, check=True)
            times["generate after editing one spec"].append(_seconds([*chatspec, "generate"], project, env))
            _add_field(project, "chat_event", n)
            subprocess.run([*chatspec, "bump", "chat_event"], cwd=project, env=env, capture_output=True, check=True)
            times["... after adding a field to it (reported)"].append(_seconds([*chatspec, "generate"], project, env))
            cold = dict(base_env, CHATSPEC_CACHE_DIR=str(Path(tmp) / f"cold{n}"))
            times["cold full generate, nothing cached"].append(_seconds([*chatspec, "generate"], project, cold))
            times[FLOOR].append(_floor_seconds(project, base_env))
    reference_median = statistics.median(times["datamodel-codegen, 1 schema, cold"])
    out = []
    for what, values in times.items():
        median = statistics.median(values)
        goal = GOALS.get(what)
        out.append({"what": what, "median": median, "min": min(values), "max": max(values),
                    "ratio": median / reference_median, "goal": goal})
    return out


def table(runs: int = 5) -> list[str]:
    measured = rows(runs)
    width = max(len(r["what"]) for r in measured)
    lines = [f"Edit loop: whole commands, median of {runs} alternating runs, ratio to a cold datamodel-codegen on one schema",
             f"{'command':{width}} {'median':>8} {'min':>7} {'max':>7} {'ratio':>7}  goal"]
    for r in measured:
        goal = "" if r["goal"] is None else f"<= {r['goal']}x: {'met' if r['ratio'] <= r['goal'] else 'NOT met'}"
        lines.append(f"{r['what']:{width}} {r['median']:7.2f}s {r['min']:6.2f}s {r['max']:6.2f}s {r['ratio']:6.2f}x  {goal}".rstrip())
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--floor-part", choices=["datamodel-codegen", "black"], help=argparse.SUPPRESS)
    parser.add_argument("project", nargs="?", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.floor_part:
        _floor_part(args.floor_part, args.project)
        return 0
    print("\n".join(table(args.runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

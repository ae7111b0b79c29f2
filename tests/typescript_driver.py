"""Compile a generated TypeScript package with the pinned tsc and run cases through it with node, for the tests.

The compiler comes from npm into build/npm-ts (the Makefile installs it, pinned, as it
builds the venv); only node itself must be on the machine.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NPM = ROOT / "build" / "npm-ts" / "node_modules"
TSC = NPM / "typescript" / "bin" / "tsc"
DRIVER = Path(__file__).resolve().parent / "typescript" / "driver.mjs"

# The compiler options the generated TypeScript must pass: strict and every check web projects
# commonly add. The generated tsconfig.json sets them all (so every compile in the tests uses
# them), and a consumer's tsconfig with them type-checks the package's sources too.
STRICT_OPTIONS = ("strict", "noUnusedLocals", "noUnusedParameters", "noImplicitReturns", "exactOptionalPropertyTypes",
                  "noPropertyAccessFromIndexSignature", "noUncheckedIndexedAccess")


def node_available() -> bool:
    return shutil.which("node") is not None


def write_tree(files: dict[str, str], folder: Path) -> None:
    """Write {path under generated/typescript/: text} into folder."""
    for path, text in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")


def compile_package(folder: Path) -> Path:
    """tsc -p folder (its tsconfig: the generated one sets STRICT_OPTIONS); returns its dist folder.
    Any diagnostic is a failure that quotes it."""
    if not TSC.is_file():
        raise AssertionError(f"{TSC} is missing: run `make test`, which installs the pinned TypeScript into build/npm")
    done = subprocess.run(["node", str(TSC), "-p", str(folder), "--pretty", "false"], capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"tsc rejects the generated TypeScript in {folder}:\n{done.stdout[-6000:]}{done.stderr[-2000:]}")
    return folder / "dist"


def run_driver(dist: Path, cases: list[tuple[str, str | bytes, str | None]], written: bool = False) -> list[dict[str, Any]]:
    """[(format id, JSON text or bytes, model or None for the root)] -> [{"ok": bool, "errors": [[path, message], ...]}]
    ({"crash": text} where something other than a ValidationError was thrown). With written=True an accepted root's
    verdict keeps "written", its stringify text."""
    payload = json.dumps([{"format": f, "model": model or "",
                           **({"b64": base64.b64encode(data).decode()} if isinstance(data, bytes) else {"data": data})}
                          for f, data, model in cases])
    done = subprocess.run(["node", str(DRIVER), str(dist)], input=payload, capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError(f"the TypeScript driver failed:\n{done.stderr[-4000:]}")
    result: list[dict[str, Any]] = json.loads(done.stdout)
    if not written:
        for r in result:
            r.pop("written", None)
    return result


def runtime_map(dist: Path, expression: str, values: list[Any]) -> list[Any]:
    """The compiled runtime of dist (as rt) run in node on each JSON value (as t): the expression's value for each."""
    code = ("import { readFileSync } from 'node:fs'; const rt = await import(process.argv[1]);"
            "const values = JSON.parse(readFileSync(0, 'utf8'));"
            f"process.stdout.write(JSON.stringify(values.map((t) => {expression})));")
    done = subprocess.run(["node", "--input-type=module", "-e", code, (dist / "runtime.js").as_uri()],
                          input=json.dumps(values), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    result: list[Any] = json.loads(done.stdout)
    return result

"""The vendored TypeScript package's JavaScript and declarations, compiled by the pinned tsc.

`chatspec vendor --lang typescript` ships dist/ (ES2022 modules and .d.ts files) beside src/, so a
web app installs the folder (`"@acme/chat": "file:web/chat"`) and imports it from node, a bundler or
a `tsc` project with no build step of its own, and nothing is ever built inside the vendored folder.
dist/ is chatspec's output like src/: recorded in the manifest, compared by `vendor --check`.

The compiler is TypeScript TYPESCRIPT_VERSION exactly (another version may emit other bytes, which
--check would report as drift), found at CHATSPEC_TSC, then in the project's build/npm-ts (where
`make test` installs it), then on PATH; node runs it. The result is remembered by the sources' text
(generator/cache.py), so a vendor run whose package did not change does not compile.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from generator import cache
from generator.write import RefusedError

TYPESCRIPT_VERSION = "5.6.3"  # the compiler vendor builds dist/ with; the Makefile installs the same
INSTALL = f"npm install --prefix build/npm-ts typescript@{TYPESCRIPT_VERSION}"


def compiled(files: dict[str, str], root: Path) -> dict[str, tuple[str, str]]:
    """{dist/<name>.js and dist/<name>.d.ts: (text, the src/<name>.ts it is made from)} for the
    package's files (paths under the vendored folder: package.json, tsconfig.json, src/*.ts)."""
    sources = {path: text for path, text in files.items() if path.startswith("src/") or path in ("package.json", "tsconfig.json")}
    key = cache.digest(["tsc", TYPESCRIPT_VERSION, *(f"{path}\0{text}" for path, text in sorted(sources.items()))])
    found = cache.load("tsc", key)
    if not isinstance(found, dict):
        found = _compile(sources, root)
        cache.store("tsc", key, found)
    out: dict[str, tuple[str, str]] = {}
    for path, text in sorted(found.items()):
        stem = path.removeprefix("dist/").removesuffix(".d.ts").removesuffix(".js")
        out[path] = (str(text), f"src/{stem}.ts")
    return out


def _compile(sources: dict[str, str], root: Path) -> dict[str, str]:
    tsc = _compiler(root)
    with tempfile.TemporaryDirectory(prefix="chatspec-tsc-") as folder:
        for path, text in sources.items():
            target = Path(folder) / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="")
        done = subprocess.run(
            ["node", str(tsc), "-p", folder, "--pretty", "false", "--newLine", "lf"], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:  # the generated package compiles under its strict tsconfig (tested): a chatspec bug
            raise RuntimeError(f"tsc rejects the generated TypeScript package: {(done.stdout + done.stderr)[-2000:]}")
        dist = Path(folder) / "dist"
        return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(dist.rglob("*")) if p.is_file()}


def _compiler(root: Path) -> Path:
    """The pinned tsc (a node script), or a refusal naming how to install it."""
    if shutil.which("node") is None:
        raise _refusal("node is not installed", f"install Node.js (20 or later), then `{INSTALL}`")
    named = [
        os.environ.get("CHATSPEC_TSC"),
        str(root / "build" / "npm-ts" / "node_modules" / "typescript" / "bin" / "tsc"),
        shutil.which("tsc"),
    ]
    versions = []
    for tsc in (Path(n) for n in named if n and Path(n).is_file()):
        done = subprocess.run(["node", str(tsc), "--version"], capture_output=True, text=True, check=False)
        version = done.stdout.strip().removeprefix("Version ")
        if done.returncode == 0 and version == TYPESCRIPT_VERSION:
            return tsc
        versions.append(f"{tsc} is {version or 'not a working tsc'}")
    found = f" ({'; '.join(versions)})" if versions else ""
    raise _refusal(f"no tsc {TYPESCRIPT_VERSION} was found{found}", f"run `{INSTALL}` in {root}, or set CHATSPEC_TSC=<its bin/tsc>")


def _refusal(problem: str, hint: str) -> RefusedError:
    return RefusedError(
        "vendor --lang typescript",
        f"compiles the package to JavaScript with TypeScript {TYPESCRIPT_VERSION}, so that an app installs it with no build step: {problem}",
        hint,
    )

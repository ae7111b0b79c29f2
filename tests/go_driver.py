"""A Go program that runs cases through generated packages and prints the verdicts, for the tests.

It lives in a temporary module that points at a generated Go tree with a
`replace` directive, so it needs no network and nothing outside the tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from generator.naming import go_name
from generator.targets.go import package_name

GO_ENV = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}

_MAIN = """package main

import (
	"encoding/json"
	"errors"
	"os"

{imports}
)

type verdict struct {{
	OK     bool        `json:"ok"`
	Errors [][2]string `json:"errors"`
}}

func run(err error, detail func(error) ([][2]string, bool)) verdict {{
	if err == nil {{
		return verdict{{OK: true, Errors: [][2]string{{}}}}
	}}
	if found, ok := detail(err); ok {{
		return verdict{{Errors: found}}
	}}
	return verdict{{Errors: [][2]string{{{{"", "invalid JSON: " + err.Error()}}}}}}
}}

func main() {{
	var cases []struct {{
		Format string `json:"format"`
		Data   string `json:"data"`
	}}
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {{
		panic(err)
	}}
	out := make([]verdict, len(cases))
	for i, c := range cases {{
		switch c.Format {{
{cases}
		default:
			panic("unknown format " + c.Format)
		}}
	}}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {{
		panic(err)
	}}
}}
"""

_CASE = """		case {fmt!r}:
			_, err := {pkg}.{parse}([]byte(c.Data))
			out[i] = run(err, func(err error) ([][2]string, bool) {{
				var ve *{pkg}.ValidationError
				if !errors.As(err, &ve) {{
					return nil, false
				}}
				found := make([][2]string, len(ve.Errors))
				for j, e := range ve.Errors {{
					found[j] = [2]string{{e.Path, e.Message}}
				}}
				return found, true
			}})"""


def go_available() -> bool:
    return shutil.which("go") is not None


def write_go_mod(workdir: Path, name: str, go_tree: Path, module: str) -> None:
    """A go.mod for a program at workdir that uses the generated module at go_tree, offline."""
    (workdir / "go.mod").write_text(f"module {name}\n\ngo 1.21\n\nrequire {module} v0.0.0\n\nreplace {module} => {go_tree}\n")


def build_driver(go_tree: Path, module: str, format_ids: list[str], workdir: Path) -> Path:
    """Compile the driver against the generated module at go_tree; returns the binary."""
    workdir.mkdir(parents=True, exist_ok=True)
    imports = "\n".join(f'\t"{module}/{package_name(f)}"' for f in sorted(format_ids))
    cases = "\n".join(
        _CASE.format(fmt=f, pkg=package_name(f), parse=f"Parse{go_name(f)}FromJSON").replace("'", '"')
        for f in sorted(format_ids)
    )
    (workdir / "main.go").write_text(_MAIN.format(imports=imports, cases=cases))
    write_go_mod(workdir, "driver", go_tree, module)
    binary = workdir / "driver"
    done = subprocess.run(["go", "build", "-o", str(binary), "."], cwd=workdir, capture_output=True, text=True, env=GO_ENV)
    if done.returncode != 0:
        raise AssertionError(f"the Go driver does not build:\n{done.stderr}")
    return binary


def run_driver(binary: Path, cases: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """[(format id, JSON text)] -> [{"ok": bool, "errors": [[path, message], ...]}]."""
    payload = json.dumps([{"format": f, "data": d} for f, d in cases])
    done = subprocess.run([str(binary)], input=payload, capture_output=True, text=True, env=GO_ENV)
    if done.returncode != 0:
        raise AssertionError(f"the Go driver failed:\n{done.stderr[-4000:]}")
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result

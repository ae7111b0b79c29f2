"""A Go program that runs cases through generated packages and prints the verdicts, for the tests.

It lives in a temporary module that points at a copy of a generated Go tree with a
`replace` directive, so it needs no network and nothing outside the tree.

A case names a format and, optionally, a top-level definition. The copy gets one
test-only file per package (zz_driver_models.go) that calls each definition's own
Parse<Name> by name.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from generator.naming import go_name
from generator.naming import go_package as package_name

GO_ENV = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}

_MAIN = """package main

import (
	"encoding/json"
	"errors"
	"os"

{imports}
)

type verdict struct {{
	OK      bool        `json:"ok"`
	Errors  [][2]string `json:"errors"`
	Crash   string      `json:"crash,omitempty"`
	Written string      `json:"written,omitempty"` // an accepted root document's MarshalJSON text
}}

// accepted checks what a root parse accepted: it validates as built, and its encoded form parses
// back and encodes to the same bytes. A failure is a crash, never a rejection: a parse that wrongly
// accepts must not look like a correct rejection.
func accepted[T any](doc T, parse func([]byte) (T, error), validate func(T) error) (string, string) {{
	if err := validate(doc); err != nil {{
		return "parse accepted, Validate rejected: " + err.Error(), ""
	}}
	text, err := json.Marshal(doc)
	if err != nil {{
		return "parse accepted, MarshalJSON failed: " + err.Error(), ""
	}}
	again, err := parse(text)
	if err != nil {{
		return "parse accepted, its encoded form " + string(text) + " is rejected: " + err.Error(), ""
	}}
	if text2, _ := json.Marshal(again); string(text2) != string(text) {{
		return "the encoded form changed on a round trip: " + string(text) + " -> " + string(text2), ""
	}}
	return "", string(text)
}}

func run(err error, detail func(error) ([][2]string, bool)) verdict {{
	if err == nil {{
		return verdict{{OK: true, Errors: [][2]string{{}}}}
	}}
	if found, ok := detail(err); ok {{
		return verdict{{Errors: found}}
	}}
	// Every refusal must be a *ValidationError (errors.As): anything else is marked so that it
	// matches no message the Python package gives.
	return verdict{{Errors: [][2]string{{{{"", "not a *ValidationError: " + err.Error()}}}}}}
}}

func main() {{
	var cases []struct {{
		Format string `json:"format"`
		Model  string `json:"model"`
		Data   string `json:"data"`
		B64    []byte `json:"b64"` // bytes that need not be UTF-8 (hostile bytes), instead of data
	}}
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {{
		panic(err)
	}}
	out := make([]verdict, len(cases))
	for i, c := range cases {{
		input := []byte(c.Data)
		if c.B64 != nil {{
			input = c.B64
		}}
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
			var err error
			written := ""
			if c.Model == "" {{
				var doc *{pkg}.{root}
				doc, err = {pkg}.{parse}(input)
				if err == nil {{
					var crash string
					if crash, written = accepted(doc, {pkg}.{parse}, {pkg}.Validate{root}); crash != "" {{
						out[i] = verdict{{Crash: crash}}
						continue
					}}
				}}
			}} else {{
				err = {pkg}.DriverParseModel(c.Model, input)
			}}
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
			}})
			out[i].Written = written"""


def go_available() -> bool:
    return shutil.which("go") is not None


def write_go_mod(workdir: Path, name: str, go_tree: Path, module: str) -> None:
    """A go.mod for a program at workdir that uses the generated module at go_tree, offline."""
    (workdir / "go.mod").write_text(f"module {name}\n\ngo 1.21\n\nrequire {module} v0.0.0\n\nreplace {module} => {go_tree}\n")


_ROOT_PARSE = re.compile(r"^func Parse(\w+)FromJSON\(data \[\]byte\) \(\*(\w+), error\) \{\n.*?^\}\n", re.S | re.M)
_ENTRY = re.compile(r"^func Parse(\w+)\(data \[\]byte\) \(\*(\w+), error\)", re.M)


def root_model(package_dir: Path, format_id: str) -> str:
    """The root model's struct name, from the package's Parse<Format>FromJSON."""
    wanted = go_name(format_id)
    for p in sorted(package_dir.glob("*.go")):
        for m in _ROOT_PARSE.finditer(p.read_text(encoding="utf-8")):
            if m.group(1) == wanted:
                return m.group(2)
    raise AssertionError(f"{package_dir}: no Parse{wanted}FromJSON")


def model_shim(package_dir: Path, format_id: str) -> str:
    """The test-only Go file that parses any top-level definition of the package by name, with its Parse<Name>."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in sorted(package_dir.glob("*.go")) if not p.name.endswith("_test.go")}
    names = [m.group(1) for text in sources.values() for m in _ENTRY.finditer(text) if m.group(1) == m.group(2)]
    if root_model(package_dir, format_id) not in names:
        raise AssertionError(f"{package_dir}: the root has no Parse<Name> of its own")
    # A model with its own exported parser (e.g. ParseChatStateFromJSON in behaviour code) is parsed with it.
    exported = {m.group(2) for text in sources.values() for m in _ROOT_PARSE.finditer(text) if m.group(1) == m.group(2)}
    calls = {n: f"Parse{n}FromJSON" if n in exported else f"Parse{n}" for n in names}
    cases = "".join(f"\tcase {json.dumps(n)}:\n\t\t_, err := {calls[n]}(data)\n\t\treturn err\n" for n in names)
    package = re.search(r"^package (\w+)", next(iter(sources.values())), re.M)
    assert package is not None
    return (f"// Test-only: written by tests/go_driver.py into a copy of the generated tree.\n\npackage {package.group(1)}\n\n"
            + "// DriverParseModel parses data as the named top-level definition.\n"
            + "func DriverParseModel(model string, data []byte) error {\n\tswitch model {\n" + cases
            + "\t}\n\tpanic(\"unknown model \" + model)\n}\n")


_BUILT: dict[tuple[str, str, tuple[str, ...]], Path] = {}


def build_driver(go_tree: Path, module: str, format_ids: list[str], workdir: Path) -> Path:
    """Compile the driver against a copy of the generated module at go_tree (with the
    model shims added); returns the binary. A driver already built in this process
    for the same tree (unchanged since) and formats is reused."""
    sources = tuple(sorted((str(p.relative_to(go_tree)), p.stat().st_mtime_ns) for p in go_tree.rglob("*.go")))
    key = (str(go_tree.resolve()), module, tuple(sorted(format_ids)) + tuple(map(str, sources)))
    if key in _BUILT and _BUILT[key].is_file():
        return _BUILT[key]
    binary = _build(go_tree, module, format_ids, workdir)
    _BUILT[key] = binary
    return binary


def _build(go_tree: Path, module: str, format_ids: list[str], workdir: Path) -> Path:
    workdir.mkdir(parents=True, exist_ok=True)
    tree = workdir / "gotree"
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(go_tree, tree)
    for f in format_ids:
        (tree / package_name(f) / "zz_driver_models.go").write_text(model_shim(tree / package_name(f), f))
    go_tree = tree
    imports = "\n".join(f'\t"{module}/{package_name(f)}"' for f in sorted(format_ids))
    cases = "\n".join(
        _CASE.format(fmt=f, pkg=package_name(f), parse=f"Parse{go_name(f)}FromJSON", root=root_model(tree / package_name(f), f)).replace("'", '"')
        for f in sorted(format_ids)
    )
    (workdir / "main.go").write_text(_MAIN.format(imports=imports, cases=cases))
    write_go_mod(workdir, "driver", go_tree, module)
    binary = workdir / "driver"
    done = subprocess.run(["go", "build", "-o", str(binary), "."], cwd=workdir, capture_output=True, text=True, env=GO_ENV)
    if done.returncode != 0:
        raise AssertionError(f"the Go driver does not build:\n{done.stderr}")
    return binary


def run_driver(binary: Path, cases: list[tuple[str, str]] | list[tuple[str, str | bytes, str | None]], crashes: bool = False,
               written: bool = False) -> list[dict[str, Any]]:
    """[(format id, JSON text or bytes[, model name or None for the root])] -> [{"ok": bool, "errors": [[path, message], ...]}].
    A crash (a root accepted, then failing Validate or its round trip) raises, or with crashes=True is
    returned as {"crash": text}. With written=True an accepted root's verdict keeps "written", its MarshalJSON text."""
    payload = json.dumps([{"format": c[0], "model": (c[2] if len(c) > 2 else None) or "",
                           **({"b64": base64.b64encode(c[1]).decode()} if isinstance(c[1], bytes) else {"data": c[1]})} for c in cases])
    done = subprocess.run([str(binary)], input=payload, capture_output=True, text=True, env=GO_ENV)
    if done.returncode != 0:
        raise AssertionError(f"the Go driver failed:\n{done.stderr[-4000:]}")
    result: list[dict[str, Any]] = json.loads(done.stdout)
    if not written:
        for r in result:
            r.pop("written", None)
    crashed = [(c, r["crash"]) for c, r in zip(cases, result) if r.get("crash")]
    if crashed and not crashes:
        raise AssertionError("the generated Go crashed on " + "; ".join(f"{c[0]} {c[1][:200]!r}: {why}" for c, why in crashed[:5]))
    return result

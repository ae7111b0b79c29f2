"""runtime: the libraries the generated code imports, kept as real source files.

python/_runtime.py (a module mypy --strict and black check as it is) and the Go
package go/internal/rt (its own module: gofmt, go vet and its own _test.go files
run on it directly) and typescript/runtime.ts (tsc --strict checks it with the
package it is copied into) are copied into the output unchanged, behind the generated-file
header. What varies per spec is rendered from templates; nothing here does.
"""

from __future__ import annotations

from pathlib import Path

from generator.render import header

FOLDER = Path(__file__).resolve().parent
PYTHON_RUNTIME = FOLDER / "python" / "_runtime.py"
MSGSPEC_RUNTIME = FOLDER / "msgspec" / "_fast.py"
GO_MODULE = FOLDER / "go"
GO_PACKAGE = GO_MODULE / "internal" / "rt"  # the same place under generated/go/
TYPESCRIPT_RUNTIME = FOLDER / "typescript" / "runtime.ts"


def python_runtime() -> str:
    """generated/python/<package>/_runtime.py: the module with the header line."""
    return f"# {header(None)}\n" + PYTHON_RUNTIME.read_text(encoding="utf-8")


def msgspec_runtime() -> str:
    """generated/msgspec/<package>_msgspec/_fast.py: the module with the header line."""
    return f"# {header(None)}\n" + MSGSPEC_RUNTIME.read_text(encoding="utf-8")


def go_files() -> list[str]:
    """The Go runtime's file names, e.g. "decode.go" (its tests stay here)."""
    return sorted(p.name for p in GO_PACKAGE.glob("*.go") if not p.name.endswith("_test.go"))


def go_runtime() -> dict[str, str]:
    """{path under generated/: text} of the Go runtime package."""
    # A blank line after the header keeps it out of the package's doc comment (doc.go).
    return {f"go/internal/rt/{name}": f"// {header(None)}\n\n" + (GO_PACKAGE / name).read_text(encoding="utf-8") for name in go_files()}


def typescript_runtime() -> str:
    """generated/typescript/src/runtime.ts: the module with the header line."""
    return f"// {header(None)}\n" + TYPESCRIPT_RUNTIME.read_text(encoding="utf-8")

"""The Go runtime as source (generator/runtime/go): its own tests, gofmt, go vet, and
the copy of it that generate writes. Skipped, loudly, without Go (see conftest)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from go_driver import GO_ENV, go_available
from generator import runtime
from generator.core import generate
from generator.load import load_spec
from generator.render import header

pytestmark = pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go runtime's checks did not run")

MODULE = runtime.GO_MODULE


def _go(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["go", *args], cwd=MODULE, capture_output=True, text=True, env=GO_ENV, timeout=600)


def test_the_go_runtime_passes_its_own_tests() -> None:
    done = _go("test", "-count=1", "./...")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "ok  \tchatspec.invalid/runtime/internal/rt" in done.stdout


def test_the_go_runtime_source_is_gofmt_clean_and_vetted() -> None:
    formatted = subprocess.run(["gofmt", "-l", "."], cwd=MODULE, capture_output=True, text=True, env=GO_ENV)
    assert formatted.returncode == 0 and formatted.stdout == "", f"not gofmt-clean:\n{formatted.stdout}{formatted.stderr}"
    vetted = _go("vet", "./...")
    assert vetted.returncode == 0, vetted.stderr


def test_the_go_runtime_needs_only_the_standard_library() -> None:
    done = _go("list", "-deps", "-test", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./...")
    assert done.returncode == 0, done.stderr
    # Every package outside the standard library, the runtime's own test variants included.
    outside = [line for line in done.stdout.splitlines() if line and not line.startswith("chatspec.invalid/runtime/internal/rt")]
    assert done.stdout.strip() and outside == [], outside


def test_generate_copies_the_go_runtime_behind_the_header_and_leaves_its_tests_out() -> None:
    files = generate([load_spec(ROOT / "tests" / "golden" / "keywords", ROOT)], targets=["go"])
    written = {path.removeprefix("go/internal/rt/"): text for path, text in files.items() if path.startswith("go/internal/rt/")}
    sources = sorted(p.name for p in runtime.GO_PACKAGE.glob("*.go"))
    assert any(name.endswith("_test.go") for name in sources)
    assert sorted(written) == [name for name in sources if not name.endswith("_test.go")]
    for name, text in written.items():
        # A blank line after the header: it is no part of the package's doc comment (doc.go).
        assert text == f"// {header(None)}\n\n" + (runtime.GO_PACKAGE / name).read_text(encoding="utf-8"), name


def test_the_runtime_go_module_is_not_the_generated_one() -> None:
    # The source module's path is not a real one, so nothing can import the runtime
    # from here by accident; generated code imports <go-module>/internal/rt.
    assert (MODULE / "go.mod").read_text(encoding="utf-8").startswith("module chatspec.invalid/runtime\n")
    assert not list(Path(MODULE).glob("*.go")), "the module root holds no package of its own"

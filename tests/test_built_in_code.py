"""Values built in code, not parsed, in Go, Python and TypeScript (issue 32 item 1): the golden case
built_in_code (lists, maps and bytes required, defaulted, nullable and optional; defaults of every kind,
constant tags, a fresh UUID4) is generated, and a program in each language (tests/built_in_code/) builds
thousands of random values through the constructors (New<Model>, the dataclasses, make<Model>) and, in Go,
as struct literals with every slice, map and []byte nil; each must write a message the package's own parser
accepts, validate, and read back to the same message. Skipped, loudly, without Go or the pinned tsc."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GOLDEN, ROOT
from generator.core import generate
from generator.load import load_spec
from go_driver import GO_ENV, go_available
from typescript_driver import TSC, compile_package, node_available

HERE = ROOT / "tests" / "built_in_code"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("built_in_code")
    files = generate([load_spec(GOLDEN / "built_in_code", ROOT)], targets=["python", "go", "typescript"])
    for path, text in files.items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text, encoding="utf-8", newline="")
    return out


@pytest.mark.skipif(not go_available(), reason="Go is not installed: Go values built in code were not tried")
def test_go_values_built_in_code_marshal_to_messages_the_package_parses(package: Path) -> None:
    shutil.copy(HERE / "values_test.go", package / "go" / "builtincode" / "zz_values_test.go")
    done = subprocess.run(["go", "test", "-count=1", "-run", "^TestZZ", "-v", "./builtincode/"], cwd=package / "go", capture_output=True,
                          text=True, env=GO_ENV, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert "ZZ values=3000" in done.stdout and done.stdout.count("--- PASS") == 5, done.stdout[-3000:]


def test_python_values_built_in_code_write_messages_the_package_parses(package: Path) -> None:
    done = subprocess.run([sys.executable, "-S", str(HERE / "values.py")], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(package / "python")}, timeout=600)
    assert done.returncode == 0, done.stderr[-6000:]
    assert json.loads(done.stdout) == {"values": 3000}


@pytest.mark.skipif(not (node_available() and TSC.is_file()), reason="node or the pinned tsc is missing: TypeScript values built in code were not tried")
def test_typescript_values_built_in_code_stringify_to_messages_the_package_parses(package: Path) -> None:
    shutil.copy(HERE / "values.ts", package / "typescript" / "src" / "zz_values.ts")
    dist = compile_package(package / "typescript")  # type-checks the calls of make<Model> too
    done = subprocess.run(["node", str(dist / "zz_values.js")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-6000:]
    assert json.loads(done.stdout) == {"values": 3000}

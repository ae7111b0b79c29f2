"""Broken specs: each is one clear error (file, JSON pointer or line:column, hint), and generated/ stays as it was.

tests/broken_specs/<case>/ holds a spec (and examples) with one mistake, and
expected.txt, the exact message the command prints.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from generator.write import read_tree

CORPUS = Path(__file__).resolve().parent / "broken_specs"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").is_file())


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(ROOT / "specs", root / "specs")
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(root), "generate"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return root


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES)
def test_broken_spec_is_one_clear_error_and_changes_nothing(project: Path, case: str) -> None:
    before = {p: p.read_bytes() for p in sorted((project / "generated").rglob("*")) if p.is_file()}
    target = project / "specs" / "broken"
    shutil.copytree(CORPUS / case, target, ignore=shutil.ignore_patterns("expected.txt"))
    try:
        done = subprocess.run([sys.executable, "-m", "generator", "--root", str(project), "generate"],
                              capture_output=True, text=True, cwd=ROOT)
        assert done.returncode == 2, f"{done.stdout[-500:]}{done.stderr}"
        assert done.stderr == (CORPUS / case / "expected.txt").read_text(encoding="utf-8")
        assert done.stderr.startswith("chatspec: specs/broken/") and "\n  hint: " in done.stderr
    finally:
        shutil.rmtree(target)
    assert {p: p.read_bytes() for p in sorted((project / "generated").rglob("*")) if p.is_file()} == before
    assert read_tree(project / "generated")

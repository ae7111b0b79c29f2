"""The generated Go fuzz target catches what it is there for: planted into a copy of
the generated tree, an encoder that drops a field must make its seed corpus fail."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import GENERATED
from go_driver import GO_ENV, go_available

pytestmark = pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")

PACKAGE = "structuredconversation"
TARGET = "FuzzParseStructuredConversation"
_DOCUMENT_ID = '\to.Set("id", m.ID)\n\to.Set("conversation", m.Conversation.toTree())\n'


def _seed_run(tmp_path: Path, old: str, new: str) -> subprocess.CompletedProcess[str]:
    tree = tmp_path / "go"
    shutil.copytree(GENERATED / "go", tree)
    source = tree / PACKAGE / "validate.go"
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the plant no longer applies: {old!r} not found once in {source.name}"
    source.write_text(text.replace(old, new), encoding="utf-8")
    # -run on the fuzz target alone runs its seed corpus (the spec's valid examples), no fuzzing.
    return subprocess.run(["go", "test", f"./{PACKAGE}", f"-run=^{TARGET}$", "-count=1"], cwd=tree,
                          capture_output=True, text=True, env=GO_ENV, timeout=600)


def test_the_fuzz_target_passes_on_the_generated_tree(tmp_path: Path) -> None:
    done = _seed_run(tmp_path, _DOCUMENT_ID, _DOCUMENT_ID)
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_encoder_dropping_a_required_field_fails_validate_in_the_fuzz_target(tmp_path: Path) -> None:
    # Validate checks the typed struct first (its fast path never builds the tree), so a lost "id"
    # is caught where the encoded form is parsed again: not swallowed.
    done = _seed_run(tmp_path, _DOCUMENT_ID, '\to.Set("conversation", m.Conversation.toTree())\n')
    assert done.returncode != 0
    assert "the encoded form of an accepted input is rejected: validation failed: document ID is required" in done.stdout, \
        done.stdout[-3000:]


def test_an_encoder_dropping_an_optional_field_fails_the_round_trip_in_the_fuzz_target(tmp_path: Path) -> None:
    # Validate passes and the encoded form parses, but to another value.
    tags = '\to.Set("conversation", m.Conversation.toTree())\n\tif m.Tags != nil {\n\t\to.Set("tags", rt.TreeList(m.Tags, rt.Same[string]))\n'
    done = _seed_run(tmp_path, tags, '\to.Set("conversation", m.Conversation.toTree())\n\tif m.Tags != nil {\n')
    assert done.returncode != 0
    assert "parses to another value at ConversationDocument.Tags" in done.stdout, done.stdout[-3000:]


def test_the_golden_cases_fuzz_seed_corpora_pass(tmp_path: Path) -> None:
    # Each golden case's valid examples go through Parse, Validate, the round trip and
    # the stable encoding (the constraints case puts every bound on a Go struct).
    from conftest import GOLDEN, ROOT
    from generator.core import generate
    from generator.load import load_spec
    from generator.options import load_options

    cases = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
    files = generate([load_spec(GOLDEN / c, ROOT) for c in cases], targets=["go"], options=load_options(ROOT))
    for path, text in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    done = subprocess.run(["go", "test", "-count=1", "-run=^Fuzz", "./..."], cwd=tmp_path / "go",
                          capture_output=True, text=True, env=GO_ENV, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert done.stdout.count("ok ") >= len(cases)

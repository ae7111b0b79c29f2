"""The Go half of the benchmark checks verdicts before it times anything."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import bench
from conftest import GENERATED, format_folders
from go_driver import go_available

pytestmark = pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go benchmark cannot run")


def test_the_go_bench_times_every_format_on_the_generated_tree() -> None:
    rows = bench.go_table("1x")
    assert {r["payload"] for r in rows} == {f"{fmt}_{label}" for fmt in format_folders() for label in ("example", "large")}
    assert all(r["parse_us"] > 0 and r["unmarshal_us"] > 0 and r["validate_us"] > 0 for r in rows)


def test_a_go_parse_that_validates_nothing_makes_the_bench_fail(tmp_path: Path) -> None:
    tree = tmp_path / "go"
    shutil.copytree(GENERATED / "go", tree)
    source = tree / "structuredconversation" / "structuredconversation.go"
    text = source.read_text(encoding="utf-8")
    # (In the format's own parse: every definition's Parse<Name> wraps its error the same way.)
    failing = 'doc, err := rt.Build[ConversationDocument](tree, parseConversationDocument)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf("validation failed: %w", err)\n\t}\n'
    assert text.count(failing) == 1, "the plant no longer applies"
    source.write_text(text.replace(failing, "doc, _ := rt.Build[ConversationDocument](tree, parseConversationDocument)\n"), encoding="utf-8")
    with pytest.raises(AssertionError, match="structuredconversation.ParseStructuredConversationFromJSON accepts the invalid payload"):
        bench.go_table("1x", go_tree=tree)


def test_a_go_validate_that_checks_nothing_makes_the_bench_fail(tmp_path: Path) -> None:
    tree = tmp_path / "go"
    shutil.copytree(GENERATED / "go", tree)
    source = tree / "structuredconversation" / "structuredconversation.go"
    text = source.read_text(encoding="utf-8")
    entry = "func ValidateConversationDocument(v *ConversationDocument) error {\n"
    assert text.count(entry) == 1, "the plant no longer applies"
    source.write_text(text.replace(entry, entry + "\tif true {\n\t\treturn nil\n\t}\n"), encoding="utf-8")
    with pytest.raises(AssertionError, match="structuredconversation.ValidateConversationDocument accepts an invalid document"):
        bench.go_table("1x", go_tree=tree)

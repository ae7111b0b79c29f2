"""The Go half of the benchmark checks verdicts before it times anything."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import bench
from conftest import GENERATED, ROOT, format_folders
from go_driver import go_available

pytestmark = pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go benchmark cannot run")


def test_the_go_bench_times_every_format_on_the_generated_tree() -> None:
    # A thousand calls each: the CPU clock counts microseconds, so one call of a 7 ns Validate read as 0.
    rows = bench.go_table("1000x", rounds=1)
    payloads = {f"{fmt}_{label}" for fmt in format_folders() for label in ("example", "large", "large_non_ascii")}
    # chat_modality's large input leaves its two UUID fields to their defaults: a row with them given shows what making them costs.
    assert {r["payload"] for r in rows} == payloads | {"chat_modality_large_ids_given"}
    assert all(r["parse_us"] > 0 and r["unmarshal_us"] > 0 and r["goccy_us"] > 0 and r["validate_us"] > 0 for r in rows)


def test_the_plain_structs_read_every_payload_as_the_generated_ones_do(tmp_path: Path) -> None:
    """The peers' structs take every field of the payloads (a misspelt tag would leave a field to decode for nothing)."""
    import subprocess

    from bench_go_plain import go_file, plain_structs
    from generator.core import discover
    from generator.lower import lower
    from generator.naming import go_name
    from go_driver import GO_ENV

    checks = []
    for spec in discover(ROOT / "specs", ROOT):
        fmt = lower(spec)
        root, code = plain_structs(fmt, go_name(spec.format_id))
        (tmp_path / f"{spec.format_id}.go").write_text(go_file("plain", code))
        text = json.dumps(bench.large_payloads()[spec.format_id])
        checks.append(f"\tcheck(t, {json.dumps(text)}, &{root}{{}})\n")
    (tmp_path / "plain_test.go").write_text(_CHECK.replace("CHECKS", "".join(checks)))
    (tmp_path / "go.mod").write_text("module plain\n\ngo 1.21\n")
    done = subprocess.run(["go", "test", "-count=1", "."], cwd=tmp_path, capture_output=True, text=True, env=GO_ENV)
    assert done.returncode == 0, done.stdout + done.stderr


# Decodes each payload with unknown fields refused: every key of the payload is a field of the plain structs.
_CHECK = """package plain

import (
	"bytes"
	"encoding/json"
	"testing"
)

func check(t *testing.T, text string, into any) {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		t.Errorf("%T: %v", into, err)
	}
}

func TestPlainStructsTakeEveryField(t *testing.T) {
CHECKS}
"""


def test_a_go_parse_that_validates_nothing_makes_the_bench_fail(tmp_path: Path) -> None:
    tree = tmp_path / "go"
    shutil.copytree(GENERATED / "go", tree)
    source = tree / "structuredconversation" / "structuredconversation.go"
    text = source.read_text(encoding="utf-8")
    # (In the format's own parse: every definition's Parse<Name> wraps its error the same way.)
    failing = 'built, err := rt.Build[ConversationDocument](tree, parseConversationDocument)\n\tif err != nil {\n\t\treturn fmt.Errorf("validation failed: %w", err)\n\t}\n'
    assert text.count(failing) == 1, "the plant no longer applies"
    source.write_text(text.replace(failing, "built, _ := rt.Build[ConversationDocument](tree, parseConversationDocument)\n"), encoding="utf-8")
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

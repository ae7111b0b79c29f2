"""The TypeScript half of the benchmark checks verdicts before it times anything."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import bench
from conftest import GENERATED, format_folders
from typescript_driver import node_available

pytestmark = pytest.mark.skipif(not node_available(), reason="node is not installed: the TypeScript benchmark cannot run")


def test_the_typescript_bench_times_every_format_against_ajv() -> None:
    rows = bench.typescript_table(0.001)
    assert {(r["format"], r["payload"]) for r in rows} == {(f, p) for f in format_folders() for p in ("example", "large", "invalid")}
    assert all(r["chatspec_us"] > 0 and r["ajv_us"] > 0 for r in rows)


def test_a_typescript_parser_that_validates_nothing_makes_the_bench_fail(tmp_path: Path) -> None:
    tree = tmp_path / "typescript"
    shutil.copytree(GENERATED / "typescript", tree)
    runtime = tree / "src" / "runtime.ts"
    text = runtime.read_text(encoding="utf-8")
    # Both places a text's problems are thrown from: run() (the exact walk of decodeJSON's tree) and runText (those
    # found in JSON.parse's tree where the text reads alike in both).
    plants = {"if (ctx.count > 0 || result === INVALID) throw new ValidationError(ctx.reported());":
              "if (result === INVALID) return undefined as unknown as T;",
              "if (ctx.count > 0 && readsAlike(text)) throw new ValidationError(ctx.reported());":
              "if (ctx.count > 0 && readsAlike(text)) return result as T;"}
    for failing, accepting in plants.items():
        assert text.count(failing) == 1, "the plant no longer applies"
        text = text.replace(failing, accepting)
    runtime.write_text(text, encoding="utf-8")
    with pytest.raises(AssertionError, match="chatspec accepts the chat_event invalid payload"):
        bench.typescript_table(0.001, ts_tree=tree)

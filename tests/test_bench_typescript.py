"""The TypeScript half of the benchmark checks verdicts before it times anything."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import bench
import bench_typia
from conftest import GENERATED, format_folders
from typescript_driver import node_available

pytestmark = pytest.mark.skipif(not node_available(), reason="node is not installed: the TypeScript benchmark cannot run")


def test_the_typescript_bench_times_every_format_against_ajv_and_typia() -> None:
    rows = bench.typescript_table(0.001)
    every = {(f, p) for f in format_folders() for p in ("example", "large", "non-ASCII", "invalid")}
    # chat_modality's large document leaves out the ids chatspec fills in with UUIDs: a row with them given beside (its
    # example, the first file the folder lists, may hold them).
    found = {(r["format"], r["payload"]) for r in rows}
    assert every | {("chat_modality", "large ids")} <= found <= every | {("chat_modality", "ids given"), ("chat_modality", "large ids")}
    assert all(r["chatspec_us"] > 0 and r["ajv_us"] > 0 and r["typia_us"] > 0 and r["read_us"] > 0 for r in rows)


def _plant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: object, name: str, text: str, instead: str) -> None:
    """module.name (a file's path) names a copy with its one `text` replaced by `instead`, for this test."""
    source: Path = getattr(module, name)
    original = source.read_text(encoding="utf-8")
    assert original.count(text) == 1, "the plant no longer applies"
    planted = tmp_path / source.name
    planted.write_text(original.replace(text, instead), encoding="utf-8")
    monkeypatch.setattr(module, name, planted)


@pytest.mark.parametrize(("rule", "example"), [
    ("if (!messageFits(message)) return false;", "chat_event example invalid/message_without_content_or_tools.json"),
    ("if (!people.has(conversation.user)) return false;", "structured_conversation example invalid/"),
])
def test_a_typia_peer_whose_rules_say_less_makes_the_bench_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rule: str, example: str) -> None:
    # typia's types and rules are written apart from chatspec: the bench holds them to chatspec's verdict on every
    # example before it times them, or typia could win by checking less.
    _plant(tmp_path, monkeypatch, bench_typia, "RULES", rule, "")
    with pytest.raises(AssertionError, match=f"typia accepts the {re.escape(example)}"):
        bench.typescript_table(0.001)


@pytest.mark.parametrize(("policy", "how"), [
    ("  if (!text.isWellFormed()) return REFUSED;\n", "raw"),
    ('  return text.indexOf("\\\\u") < 0 || surrogateFree(tree) ? tree : REFUSED;', "escaped"),
])
def test_a_peer_that_keeps_a_lone_surrogate_makes_the_bench_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, policy: str, how: str) -> None:
    # chatspec refuses a lone surrogate, raw or escaped, which JSON.parse keeps: a peer that read text with JSON.parse
    # alone would give another verdict, and skip the scan chatspec pays for on text past Latin-1.
    _plant(tmp_path, monkeypatch, bench, "BENCH_MJS", policy, "  return tree;" if how == "escaped" else "")
    with pytest.raises(AssertionError, match=re.escape(f"ajv accepts the structured_conversation example large, a lone surrogate in its words ({how})")):
        bench.typescript_table(0.001)


def test_the_typia_types_refuse_a_keyword_they_do_not_write() -> None:
    # A keyword the converter skipped would give typia less to check than the schema says.
    base = {"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"n": {"type": "number"}}, "additionalProperties": False}}}
    assert "tags" not in bench_typia.typia_module(base, "rulesA").split("\n", 1)[1].split("const fits")[0]
    for keyword in ({"multipleOf": 2}, {"exclusiveMinimum": 0}, {"not": {"const": 1}}):
        schema = {**base, "$defs": {"A": {**base["$defs"]["A"], "properties": {"n": {"type": "number", **keyword}}}}}
        with pytest.raises(bench_typia.Unsupported):
            bench_typia.typia_module(schema, "rulesA")
    mixed = {**base, "$defs": {"A": {**base["$defs"]["A"], "properties": {"o": {"type": "object", "properties": {}}}}}}
    with pytest.raises(bench_typia.Unsupported, match="open and closed"):
        bench_typia.typia_module(mixed, "rulesA")


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
    # The invalid examples, which the typia peer's check reads first, or the invalid payload.
    with pytest.raises(AssertionError, match="chatspec accepts the chat_event (example invalid/|invalid payload)"):
        bench.typescript_table(0.001, ts_tree=tree)

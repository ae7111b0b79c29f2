"""Differential fuzzing on a fixed budget (make fuzz runs 10,000 cases per format): every
top-level model, with Python, every registered driver, pydantic and jsonschema agreeing on each case."""

from __future__ import annotations

from typing import Any

import pytest

import conformance
import fuzz
import mutations
from conftest import format_folders

BUDGET, SEEDS = 800, 4  # SEEDS: instances drawn per model; drawing is most of the time


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    # Every registered driver whose toolchain is here (conftest says loudly which checks were skipped).
    return conformance.build(conformance.generated_files(), list(format_folders()), tmp_path_factory.mktemp("drivers"))


@pytest.mark.slow
def test_python_agrees_with_jsonschema_and_every_driver_with_python(built: conformance.Built, capsys: pytest.CaptureFixture[str]) -> None:
    reports = fuzz.run(BUDGET, SEEDS, built)
    with capsys.disabled():
        print("\n" + "\n".join(r.line() for r in reports))
    assert {r.format for r in reports} == set(format_folders())
    for report in reports:
        assert report.cases >= BUDGET * 0.9
        assert 0 < report.accepted < report.cases, f"{report.format}: the cases do not exercise both verdicts"
        # Every top-level model is parsed on its own, not only the root.
        assert report.by_model == {t.model: report.by_model.get(t.model, 0) for t in fuzz.targets(report.format)}
        assert all(n >= 30 for n in report.by_model.values()), report.by_model
    found = [d for r in reports for d in r.disagreements]
    assert not found, f"{len(found)} disagreements; record them with `python tests/fuzz.py --record`:\n" + "\n".join(found[:10])


@pytest.mark.slow
def test_hostile_bytes_get_the_same_verdict_from_every_driver(built: conformance.Built, capsys: pytest.CaptureFixture[str]) -> None:
    import hostile

    reports = hostile.run(built, paths_per_doc=6, examples=2)  # `python tests/hostile.py` runs them all
    with capsys.disabled():
        print("\n" + "\n".join(r.line() for r in reports))
    for report in reports:
        assert report.accepted and report.not_json and report.cases > report.accepted + report.not_json
    found = [d for r in reports for d in r.disagreements]
    assert not found, f"{len(found)} disagreements:\n" + "\n".join(found[:10])


def test_the_fuzzer_reports_a_disagreement_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fuzz.python_verdict

    def flipped(fmt: str, text: str, model: str | None = None) -> dict[str, Any]:
        verdict = real(fmt, text, model)
        return {"ok": not verdict["ok"], "errors": [["", "flipped"]] if verdict["ok"] else [], "keywords": ["type"] if verdict["ok"] else []}

    monkeypatch.setattr(fuzz, "python_verdict", flipped)
    reports = fuzz.run(40, 0, None, formats=["structured_conversation"])
    assert reports[0].disagreements


def test_every_top_level_model_is_a_fuzz_target_including_those_only_behaviour_code_uses() -> None:
    models = {fmt: [t.model for t in fuzz.targets(fmt)] for fmt in format_folders()}
    assert models["chat_modality"][0] == "ChatInput"
    assert {"ChatState", "ChatMessage", "ConversationMetadata", "TextBlock", "ContentBlock"} - set(models["chat_modality"]) == {"ContentBlock"}
    assert set(models["structured_conversation"]) == {"ConversationDocument", "StructuredConversation", "ConversationMessage", "TextDocument"}
    assert set(models["chat_event"]) == {"ChatEvent", "FunctionCall", "ToolCall", "Message", "RenderMedia"}


@pytest.mark.parametrize("fmt", list(format_folders()))
def test_the_mutations_in_make_test_reach_every_path_depth_of_the_examples(fmt: str) -> None:
    # The README promises "wrong types at every depth": with make test's budget, the root
    # model's selected mutations must hit every depth its examples (and drawn seeds) have.
    folder = format_folders()[fmt]
    targets = fuzz.targets(fmt)
    parts = fuzz.plan(targets[0], folder, fuzz.share(targets[0], len(targets), BUDGET), SEEDS)
    wanted = {len(path) for doc in parts["seeds"] for path in mutations.paths(doc)}
    reached = {len(path) for path, _ in parts["mutated"]}
    assert wanted - reached == set(), f"{fmt}: depths {sorted(wanted - reached)} get no mutation (reached {sorted(reached)})"
    example_depth = max(len(path) for doc in fuzz.valid_examples(folder) for path in mutations.paths(doc))
    if fmt == "chat_event":
        assert example_depth == 6 and set(range(2, 7)) <= reached


def test_the_selection_takes_every_path_before_any_path_twice() -> None:
    doc = {"a": {"b": [1, {"c": "x"}]}, "d": True}
    everything = [p for p, _ in mutations.mutations_by_path(doc)]
    chosen = [p for p, _ in mutations.covering_selection([doc], len(everything))]
    assert sorted(chosen, key=repr) == sorted(everything, key=repr)
    # And with fewer cases than paths, every depth first.
    depths = {len(p) for p in everything}
    assert {len(p) for p, _ in mutations.covering_selection([doc], len(depths))} == depths


def test_the_fuzzer_reports_pydantic_disagreeing_with_the_dataclasses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fuzz, "pydantic_verdict", lambda fmt, model, text: True)
    reports = fuzz.run(40, 0, None, formats=["structured_conversation"])
    assert any("pydantic says valid" in d for d in reports[0].disagreements)


def test_only_checks_the_schema_cannot_state_excuse_a_verdict_difference_with_jsonschema() -> None:
    def py(*keywords: str) -> dict[str, Any]:
        return {"ok": not keywords, "errors": [["", k] for k in keywords], "keywords": list(keywords)}

    assert fuzz.disagreement(True, py("member_of"), False) is None
    assert fuzz.disagreement(True, py("member_of", "member_of"), False) is None
    assert fuzz.disagreement(True, py("member_of", "type"), False)  # one error the schema could state
    assert fuzz.disagreement(True, py("required_when"), False)  # exported as if/then: no excuse
    assert fuzz.disagreement(False, py(), True)  # jsonschema rejects, Python accepts: never excused
    assert fuzz.disagreement(True, py(), False)  # pydantic rejects a valid case
    assert fuzz.disagreement(False, py("type"), True)  # pydantic accepts an invalid one
    assert "Go" in (fuzz.disagreement(False, py("type"), False, {"Go": {"ok": False, "errors": [["", "other"]]}}) or "")
    assert fuzz.disagreement(False, py("type"), False, {"Go": {"ok": False, "errors": [["", "type"]]}}) is None

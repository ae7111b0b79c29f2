"""Differential fuzzing on a fixed budget (make fuzz runs 10,000 cases per format)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import fuzz
from conftest import ROOT, format_folders
from generator.options import load_options
from go_driver import build_driver, go_available

BUDGET, SEEDS = 800, 8


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    if not go_available():
        return None  # conftest says loudly that the Go checks were skipped
    return build_driver(ROOT / "generated" / "go", load_options(ROOT).go_module, list(format_folders()), tmp_path_factory.mktemp("driver"))


def test_python_agrees_with_jsonschema_and_go_with_python(driver: Path | None, capsys: pytest.CaptureFixture[str]) -> None:
    reports = fuzz.run(BUDGET, SEEDS, driver)
    with capsys.disabled():
        print("\n" + "\n".join(r.line() for r in reports))
    assert {r.format for r in reports} == set(format_folders())
    for report in reports:
        assert report.cases >= BUDGET
        assert 0 < report.accepted < report.cases, f"{report.format}: the cases do not exercise both verdicts"
    found = [d for r in reports for d in r.disagreements]
    assert not found, f"{len(found)} disagreements; record them with `python tests/fuzz.py --record`:\n" + "\n".join(found[:10])


def test_hostile_bytes_get_the_same_verdict_in_python_and_go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import hostile

    binary = None
    if go_available():
        binary = hostile.build_bytes_driver(ROOT / "generated" / "go", load_options(ROOT).go_module, list(format_folders()), tmp_path)
    reports = hostile.run(binary, paths_per_doc=3, examples=2)  # `python tests/hostile.py` runs them all
    with capsys.disabled():
        print("\n" + "\n".join(r.line() for r in reports))
    for report in reports:
        assert report.accepted and report.not_json and report.cases > report.accepted + report.not_json
    found = [d for r in reports for d in r.disagreements]
    assert not found, f"{len(found)} disagreements:\n" + "\n".join(found[:10])


def test_the_fuzzer_reports_a_disagreement_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fuzz.python_verdict

    def flipped(fmt: str, text: str) -> dict[str, Any]:
        verdict = real(fmt, text)
        return {"ok": not verdict["ok"], "errors": [["", "flipped"]] if verdict["ok"] else [], "keywords": ["type"] if verdict["ok"] else []}

    monkeypatch.setattr(fuzz, "python_verdict", flipped)
    reports = fuzz.run(40, 0, None, formats=["structured_conversation"])
    assert reports[0].disagreements

"""The benchmark code itself, so it cannot silently measure nothing (make bench runs the real thing)."""

from __future__ import annotations

import pytest

import bench
from conftest import format_folders


def test_every_peer_gives_the_expected_verdict_on_every_payload() -> None:
    large = bench.large_payloads()
    assert set(large) == set(format_folders())
    for fmt in format_folders():
        for name, check in bench.validators(fmt).items():
            assert check(large[fmt]) is True, f"{name} rejects the large {fmt} payload"
            assert check(bench.invalid_payload(large[fmt])) is False, f"{name} accepts the invalid {fmt} payload"


def test_a_peer_that_validates_nothing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = bench.validators

    def lenient(fmt: str):  # type: ignore[no-untyped-def]
        checks = real(fmt)
        checks["jsonschema"] = lambda doc: True
        return checks

    monkeypatch.setattr(bench, "validators", lenient)
    with pytest.raises(AssertionError, match="would not measure validation"):
        bench.python_table(0.001)


def test_the_report_has_every_section_with_figures() -> None:
    text = bench.report(quick=True)
    assert "geometric mean over valid payloads" in text and "Generation" in text
    for fmt in format_folders():
        assert f"\n{fmt:26} large" in text
    assert "synthetic formats of 20 fields" in text and "a union of 50 variants" in text
    for row in ("no-op chatspec check", "generate after editing one spec", "cold full generate, nothing cached"):
        assert f"\n{row}" in text, row

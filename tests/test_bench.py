"""The benchmark code itself, so it cannot silently measure nothing (make bench runs the real thing)."""

from __future__ import annotations

import json
import re

import pytest

import bench
import bench_msgspec
import bench_msgspec_rules
from conftest import format_folders
from go_driver import go_available
from typescript_driver import TSC, node_available


def test_every_peer_gives_the_expected_verdict_on_every_payload() -> None:
    large = bench.large_payloads()
    assert set(large) == set(format_folders())
    for fmt in format_folders():
        for name, check in bench.validators(fmt).items():
            assert check(json.dumps(large[fmt])) is True, f"{name} rejects the large {fmt} payload"
            assert check(json.dumps(bench.past_ascii(large[fmt]), ensure_ascii=False)) is True, f"{name} rejects the non-ASCII {fmt} payload"
            assert check(json.dumps(bench.invalid_payload(large[fmt]))) is False, f"{name} accepts the invalid {fmt} payload"


def test_the_non_ascii_payload_puts_text_past_ascii_in_each_message_and_nothing_else() -> None:
    for fmt, doc in bench.large_payloads().items():
        past = bench.past_ascii(doc)
        text = json.dumps(past, ensure_ascii=False)
        assert not text.isascii() and text.count("\u2019") >= 25, fmt
        # Only where a message's words are: ids, date-times, URLs and JSON argument strings stay as they were.
        assert json.dumps(past).replace("\\u2019s", "") == json.dumps(doc), fmt


def test_a_peer_that_validates_nothing_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = bench.validators

    def lenient(fmt: str):  # type: ignore[no-untyped-def]
        checks = real(fmt)
        checks["jsonschema"] = lambda doc: True
        return checks

    monkeypatch.setattr(bench, "validators", lenient)
    with pytest.raises(AssertionError, match="would not measure validation"):
        bench.python_table(0.001)


@pytest.mark.parametrize(("hook", "example"), [
    ("message", "chat_event example invalid/message_without_content_or_tools.json"),
    ("structured_conversation", "structured_conversation example invalid/"),
])
def test_a_msgspec_peer_whose_rules_say_less_is_caught(monkeypatch: pytest.MonkeyPatch, hook: str, example: str) -> None:
    # msgspec's Structs and rules are written apart from chatspec: they are held to chatspec's verdict on every
    # example before timing, or msgspec could win by checking less.
    monkeypatch.setattr(bench_msgspec_rules, hook, lambda value: None)
    with pytest.raises(AssertionError, match=f"msgspec accepts the {re.escape(example)}"):
        bench.python_table(0.001)


def test_a_msgspec_peer_reading_date_times_as_msgspec_does_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # msgspec's own date-time reader (like fromisoformat) takes a space for the T, which the schema refuses: a peer
    # that reads date-times so is not msgspec with the same rules (bench.edge_cases).
    monkeypatch.setattr(bench_msgspec, "RFC3339", bench_msgspec.RFC3339.replace("[Tt]", "[Tt ]"))
    with pytest.raises(AssertionError, match=re.escape("(a space for the T)")):
        bench.python_table(0.001)


def test_the_msgspec_structs_refuse_a_keyword_they_do_not_write() -> None:
    base = {"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"n": {"type": "number"}}}}}
    assert "n: int | float" in bench_msgspec.module_source(base, {})
    for keyword in ({"multipleOf": 2}, {"exclusiveMinimum": 0}, {"not": {"const": 1}}):
        schema = {**base, "$defs": {"A": {**base["$defs"]["A"], "properties": {"n": {"type": "number", **keyword}}}}}
        with pytest.raises(bench_msgspec.Unsupported):
            bench_msgspec.module_source(schema, {})


def test_the_peers_take_turns_in_rotation_and_each_gets_every_round(monkeypatch: pytest.MonkeyPatch) -> None:
    turns: list[str] = []
    monkeypatch.setattr(bench, "_cpu", lambda fn, n: (fn(), turns.append(fn()), 0.004)[2])
    took = bench.alternating({"a": lambda: "a", "b": lambda: "b", "c": lambda: "c"}, budget=0.1, rounds=4)
    timed = turns[3:]  # after one sizing call each
    assert timed == list("abc" "bca" "cab" "abc")
    assert set(took) == {"a", "b", "c"} and all(t > 0 for t in took.values())


# What each section of the report must show (each section runs as its own test, so the
# two test workers share the report's minute; test_the_report_is_every_section_in_order
# checks that report() is exactly these sections).
def _python_rows(text: str) -> None:
    assert "Python, JSON text to validated objects" in text and "geometric mean over valid payloads" in text
    assert "Python validate() on a built object" in text and "lowest ratio" in text
    for fmt in format_folders():
        for payload in ("examples", "large", "non-ASCII", "invalid"):
            assert f"\n{fmt:26} {payload:9} " in "\n" + text, (fmt, payload)


def _go_rows(text: str) -> None:
    if not go_available():
        assert text == "Go: not installed, not measured"
        return
    assert "slowest parse vs json.Unmarshal" in text and "slowest parse vs goccy/go-json" in text and "worst Validate share" in text
    for fmt in format_folders():
        assert f"\n{fmt}_example " in text and f"\n{fmt}_large " in text and f"\n{fmt}_large_non_ascii " in text, fmt


def _typescript_rows(text: str) -> None:
    if not (node_available() and TSC.is_file()):
        assert text.startswith("TypeScript: node or the pinned TypeScript")
        return
    assert "geometric mean over valid payloads: ajv" in text
    for fmt in format_folders():
        assert f"\n{fmt:26} large" in text and f"\n{fmt:26} non-ASCII" in text, fmt


def _hostile_rows(text: str) -> None:
    assert text.startswith("Hostile inputs:") and "3 MB of [" in text and "20k member_of failures" in text
    assert "TypeScript wall/CPU" in text and "10^6 errors (bad tags)" in text


def _memory_rows(text: str) -> None:
    assert text.startswith("Memory: the peak a valid document takes to read") and "rows where chatspec takes more than its peer" in text
    assert "\nPython      structured_conversation" in text and "pydantic v2" in text


def _pattern_rows(text: str) -> None:
    assert text.startswith("Patterns: CPU time of one parse") and "worst time per character" in text and "VERDICTS DIFFER" not in text
    assert "^\\s*(.*)\\s*:\\s*(.*)\\s*$" in text and "pattern-heavy payload" in text


def _generation_rows(text: str) -> None:
    assert text.startswith("Generation\n") and "chatspec generate:" in text and "synthetic formats of 20 fields" in text


def _shapes_rows(text: str) -> None:
    assert "one model of 200 fields" in text and "a union of 50 variants" in text


def _editloop_rows(text: str) -> None:
    for row in ("no-op chatspec check", "generate after editing one spec", "... after adding a field to it", "cold full generate, nothing cached",
                "... black and datamodel-codegen alone (floor)"):
        assert f"\n{row}" in text, row


EXPECTED = {"python": _python_rows, "go": _go_rows, "typescript": _typescript_rows, "hostile": _hostile_rows,
            "memory": _memory_rows, "patterns": _pattern_rows, "generation": _generation_rows, "generation shapes": _shapes_rows, "edit loop": _editloop_rows}


@pytest.mark.parametrize("section", list(bench.SECTIONS))
@pytest.mark.slow
def test_each_section_of_the_report_has_its_figures(section: str) -> None:
    text = "\n".join(bench.SECTIONS[section](True))
    EXPECTED[section](text)
    assert re.search(r"\d+\.\d+", text), f"{section}: no figure"


def test_every_section_of_the_report_is_checked() -> None:
    assert list(EXPECTED) == list(bench.SECTIONS)


def test_the_report_is_every_section_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def fake(name: str):  # type: ignore[no-untyped-def]
        def section(quick: bool) -> list[str]:
            calls.append((name, quick))
            return [f"<{name}>", ""]
        return section

    monkeypatch.setattr(bench, "SECTIONS", {name: fake(name) for name in bench.SECTIONS})
    text = bench.report(quick=True)
    assert calls == [(name, True) for name in EXPECTED]
    assert text.startswith("chatspec benchmarks — ") and text.split("\n", 2)[2] == "\n".join(f"<{name}>\n" for name in EXPECTED)


def test_only_prints_the_sections_named_in_the_reports_order_and_refuses_a_name_it_lacks(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    calls = []

    def fake(name: str):  # type: ignore[no-untyped-def]
        def section(quick: bool) -> list[str]:
            calls.append(name)
            return [f"<{name}>"]
        return section

    monkeypatch.setattr(bench, "SECTIONS", {name: fake(name) for name in bench.SECTIONS})
    monkeypatch.setattr("sys.argv", ["bench.py", "--quick", "--only", "typescript, edit loop,python"])
    assert bench.main() == 0
    assert calls == ["python", "typescript", "edit loop"]
    assert capsys.readouterr().out.endswith("<python>\n<typescript>\n<edit loop>\n")
    monkeypatch.setattr("sys.argv", ["bench.py", "--only", "typescript,typscript"])
    with pytest.raises(SystemExit):
        bench.main()
    assert "no section 'typscript'; the sections are python, go, typescript" in capsys.readouterr().err
    assert calls == ["python", "typescript", "edit loop"]

"""The Python runtime as source (generator/runtime/python/_runtime.py), imported from
where it lives: the input policy, the message formatting, mypy --strict, black, and
the copy of it that generate writes."""

from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from generator import runtime
from generator.core import generate
from generator.load import load_spec
from generator.render import header

SOURCE = runtime.PYTHON_RUNTIME


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("chatspec_runtime_source", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


rt = _load()


def _problems(text: str | bytes) -> list[tuple[str, str, str]]:
    with pytest.raises(rt.ValidationError) as caught:
        rt.load_json(text)
    return [(e.path, e.message, e.keyword) for e in caught.value.errors]


def test_the_module_under_test_is_the_source_file() -> None:
    assert Path(rt.__file__) == SOURCE and SOURCE.is_relative_to(ROOT / "generator")


# --- the input policy (the Go runtime's policy_test.go pins the same texts) ---

LONG = "7" * (rt.MAX_INT_DIGITS + 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'["\xff"]', "invalid JSON: the text is not valid UTF-8"),
        (b"\xef\xbb\xbf{}", "invalid JSON: a byte order mark (BOM) is not accepted; send UTF-8 without one"),
        ("\ufeff{}", "invalid JSON: a byte order mark (BOM) is not accepted; send UTF-8 without one"),
        ('["\\ud800"]', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        ('{"a": "x\\uDC00"}', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        ('["\\ud800\\u0041"]', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        ('["\\udc00\\udc00"]', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        ('["\\ud800\\ud800"]', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        ('["\ud800"]', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        # A high surrogate, then the digits of a low one after another escape, or without the backslash.
        ('["\\ud800\\\\DC00"]', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        ('["\\ud800xuDC00"]', "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"),
        (f"[{LONG}]", "invalid JSON: an integer literal has more than 4300 digits"),
        (f'{{"a": [-{LONG}, 1]}}', "invalid JSON: an integer literal has more than 4300 digits"),
    ],
    ids=["not_utf8", "bom_bytes", "bom_text", "lone_high", "lone_low", "high_then_not_low", "low_then_low", "high_then_high", "raw_surrogate", "high_then_escaped_backslash",
         "high_then_u_without_backslash", "long_int", "long_negative_int_inside"],
)
def test_text_outside_the_policy_is_refused_with_its_message(text: str | bytes, message: str) -> None:
    assert _problems(text) == [("", message, "json")]


def test_a_value_a_later_duplicate_key_replaces_is_held_to_the_texts_rules() -> None:
    """Red team round 11: json drops such a value unread, and the surrogate check searched the value
    read, so '{"a": "\\ud800", "a": "s"}' was accepted (Go and TypeScript refused it). Each text of the
    syntax corpus's dropped duplicates gets the policy's message, as str and as bytes (Go's and
    TypeScript's verdicts are held to Python's on the same texts: test_go, test_typescript)."""
    import json_syntax

    for text in json_syntax.dropped_duplicates():
        message = rt.SURROGATE_MESSAGE if "\\u" in text else rt.LONG_INT_MESSAGE
        for given_text in (text, text.encode()):
            assert _problems(given_text) == [("", message, "json")], text[:80]


_UNDER_A_LIMIT = r"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("rt", sys.argv[1])
rt = importlib.util.module_from_spec(spec)
sys.modules["rt"] = rt
spec.loader.exec_module(rt)
out = []
for text in json.loads(sys.stdin.read()):
    try:
        value = rt.load_json(text)
    except rt.ValidationError as exc:
        out.append({"errors": [e.message for e in exc.errors]})
        continue
    # What the runtime does with the value read: its key for uniqueness and enums, and its words in a message.
    rt._same_key(value, 0)
    out.append({"value": rt._digits_of(value) if type(value) is int else str(type(value)), "show": rt._show(value)[:20]})
print(json.dumps(out))
"""


@pytest.mark.parametrize("limit", ["0", "640", "4300", "100000"])
def test_the_digit_limit_is_the_policys_whatever_limit_the_process_set(limit: str) -> None:
    """Red team round 12: json reads integers by Python's own limit (sys.set_int_max_str_digits,
    PYTHONINTMAXSTRDIGITS: one setting for the whole process, which any library may change). Set to 0 or
    100000, a 4,301-digit literal was accepted; set to 640, a 1,000-digit one was refused and one in text
    _load_deep read raised a bare ValueError. Under each limit: 4,301 digits refused wherever the literal
    stands (a kept value, a list, a value a duplicate replaces, a syntax error after it reported first),
    4,300 and 1,000 digits read exactly, and their key and message made without a ValueError."""
    long, most, mid = "7" * 4301, "7" * 4300, "7" * 1000
    refused = [long, f"[-{long}]", f'{{"a": {long}, "a": 1}}', f"  {long}", f"[{'[' * 3000}{long}{']' * 3000}]"]
    syntax = [f"[{long}, x]"]
    read = [most, f"-{most}", mid, f"[{mid}]", f'{{"a": {mid}, "a": {most}}}', f"  {mid}", f"[{'[' * 3000}{mid}{']' * 3000}]"]
    texts = refused + syntax + read
    env = {k: v for k, v in os.environ.items() if k != "PYTHONINTMAXSTRDIGITS"}
    done = subprocess.run([sys.executable, "-c", _UNDER_A_LIMIT, str(SOURCE)], input=json.dumps(texts), capture_output=True, text=True,
                          env={**env, "PYTHONINTMAXSTRDIGITS": limit}, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert [f.get("errors") for f in found[: len(refused)]] == [[rt.LONG_INT_MESSAGE]] * len(refused)
    assert found[len(refused)]["errors"] == ["invalid JSON: Expecting value at line 1 column 4305"]
    values = found[len(refused) + 1 :]
    assert [v.get("errors") for v in values] == [None] * len(read)
    assert [v["value"] for v in values[:3]] == [most, f"-{most}", mid]
    assert values[2]["show"] == mid[:20]


def test_a_long_run_of_digits_is_found_wherever_it_falls_against_the_sampled_places() -> None:
    """_long_digit_run looks only at every MAX_INT_DIGITS-th character and measures a run of digits met there:
    a run one digit past the limit is found with the sampled place (the first, second or third) on its first,
    second, third, middle, last-but-one and last digit, and a run of exactly the limit at the same places is not."""
    limit = rt.MAX_INT_DIGITS
    for digits in (limit, limit + 1):
        for place in (0, 1, 2, limit // 2, digits - 2, digits - 1):
            for multiple in (1, 2, 3):  # the first sampled place, or a later one (a wrong stride misses those)
                pad = multiple * limit - place - 1  # the run starts at 1 + pad
                if pad < 0:
                    continue
                text = "[" + "x" * pad + "7" * digits + "]"
                assert text.index("7") + place == multiple * limit
                assert rt._long_digit_run(text) is (digits > limit), (digits, place, multiple)


def test_escaped_surrogates_are_paired_as_json_decodes_them_wherever_a_value_stands() -> None:
    """_lone_surrogate_escape reads the text's escapes, an escaped backslash before a u included; its verdict
    must be what json's own decoding of every key and string says, the values a duplicated key replaces
    included (read through object_pairs_hook)."""
    atoms = ["\\ud800", "\\uDBFF", "\\udc00", "\\uDFFF", "\\\\", "\\\\\\ud800", "\\u0041", "x", "\\\\u", "ud800", "\\ud83d\\ude00"]

    def lone(text: str) -> bool:
        found = False

        def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
            nonlocal found
            for key, value in items:
                for s in (key, value):
                    found = found or (isinstance(s, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in s))
            return dict(items)

        value = json.loads(text, object_pairs_hook=pairs)
        return found or (isinstance(value, list) and any(0xD800 <= ord(c) <= 0xDFFF for c in value[0]))

    checked = 0
    for n in range(4):
        for combo in itertools.product(atoms, repeat=n):
            body = "".join(combo)
            for text in (f'["{body}"]', f'{{"a": "{body}", "a": 1}}', f'{{"{body}": 1}}'):
                expected = lone(text)
                try:
                    rt.load_json(text)
                    got = False
                except rt.ValidationError:
                    got = True
                assert got == expected, text
                checked += 1
    assert checked > 4000


@pytest.mark.parametrize(
    "text",
    ['"\\ud83d\\ude00"', '"\\\\ud800"', '"\u00e9"', f"[{LONG[1:]}, -{LONG[1:]}]", f"[{LONG}.5, {LONG}e0]", ' {"a": [true, false, null]} '],
    ids=["surrogate_pair", "escaped_backslash", "e_acute", "longest_ints", "long_non_integers", "spaces"],
)
def test_text_inside_the_policy_is_accepted(text: str) -> None:
    assert rt.load_json(text) == json.loads(text)
    assert rt.load_json(text.encode("utf-8")) == json.loads(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": "x\ty"}', "invalid JSON: Invalid control character at line 1 column 9"),
        ('["abc', "invalid JSON: Unterminated string starting at line 1 column 2"),
        ('{"a": 1,}', "invalid JSON: Expecting property name enclosed in double quotes at line 1 column 9"),
    ],
    ids=["control_character", "unterminated", "trailing_comma"],
)
def test_a_syntax_error_says_where_once(text: str, message: str) -> None:
    # json's own words end in "at" for two problems ("Invalid control character at"): the place says it once.
    assert _problems(text) == [("", message, "json")]
    assert _problems(text.encode("utf-8")) == [("", message, "json")]


def test_a_syntax_error_is_reported_before_a_long_integer() -> None:
    [(path, message, keyword)] = _problems(f"[{LONG},]")
    assert message.startswith("invalid JSON: Expecting value") and keyword == "json"


@pytest.mark.parametrize("text", ["[1,]", '{"a" 1}', '{"a":1,}', "[01]", "[1.]", '"\\x"', "[", "]", '{"a":1}}', "tru", "[1 2]", "{,}", "-", "1e", '"\t"', "", "1 2", "NaN", "[Infinity]", "[-Infinity]"])
def test_load_json_refuses_what_json_refuses(text: str) -> None:
    [(path, message, keyword)] = _problems(text)
    assert message.startswith("invalid JSON: ") and keyword == "json"


_INT64 = '{"root": {"int64": true, "messages": {"int64": "i64"}}, "refs": {}}'
_TUPLE = '{"root": {"prefixItems": [{"messages": {}}, {"messages": {}}], "items": false, "messages": {"items": "past"}}, "refs": {}}'


@pytest.mark.parametrize(
    ("checks", "value", "valid"),
    [(_INT64, -(2**63), True), (_INT64, 2**63 - 1, True), (_INT64, 0, True), (_INT64, -(2**63) - 1, False), (_INT64, 2**63, False),
     (_INT64, 9223372036854775808.0, False), (_INT64, -9.3e18, False),
     (_TUPLE, [], True), (_TUPLE, [1], True), (_TUPLE, [1, 2], True), (_TUPLE, [1, 2, 3], False)],
)
def test_a_schema_applied_as_written_takes_int64_and_items_past_prefix_items_up_to_their_edges(checks: str, value: Any, valid: bool) -> None:
    # Typed definitions check these edges in their own parsers; a schema applied as written meets them in the walk
    # (Go's rt: TestEdgesOfInt64AndOfItemsPastPrefixItems).
    compiled = rt.Checks(checks, ())
    ctx = rt.Context(value)
    compiled.parser({"type": "not JSON"})(value, ctx)
    assert (not ctx.errors, compiled.accepts(value)) == (valid, valid), [e.message for e in ctx.errors]


@pytest.mark.parametrize("value", ["{}", '{"a": [1, "x"]}', "[]", "1", "-0.5e3", '"s"', "true", "null", "", "x", "{"])
@pytest.mark.parametrize(
    "around",
    [("", ""), ("", "\n"), (" \t\r\n", ""), ("", " \t\r\n "), ("\n", "\n"), ("", " x"), ("", "\u00a0"),
     ("\u00a0", ""), ("", "\u2028"), ("", "\f"), ("\f", ""), ("", "}"), ("", "1"), ("", " {}"), ("", "\x00")],
)
def test_the_scanner_shortcut_reads_whitespace_and_what_follows_a_value_as_json_does(value: str, around: tuple[str, str]) -> None:
    # load_json calls json's scanner itself where no whitespace is around the value, and decode()
    # otherwise: JSON's four whitespace characters only, and every other tail is json's "Extra data".
    text = around[0] + value + around[1]
    try:
        expected: object = ("accepted", json.loads(text))
    except json.JSONDecodeError as exc:
        expected = f"invalid JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}"
    try:
        got: object = ("accepted", rt.load_json(text))
    except rt.ValidationError as exc:
        [(path, got, keyword)] = [(e.path, e.message, e.keyword) for e in exc.errors]
        assert (path, keyword) == ("", "json")
    assert got == expected


def _json_module_message(text: str) -> str | None:
    """The json module's own message for text, given all the recursion it needs (None: the integer
    digit limit, which json reports without a position)."""
    found: list[str | None] = []

    def read() -> None:
        try:
            json.loads(text, parse_constant=rt._reject_constant)
            found.append("accepted")
        except json.JSONDecodeError as exc:
            found.append(f"invalid JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}")
        except ValueError as exc:
            found.append(None if "integer string conversion" in str(exc) else f"invalid JSON: {exc}")

    import threading

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(1 << 28)  # the C scanner recurses once per level: 100,000 levels need room
    try:
        thread = threading.Thread(target=read)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(0)
        sys.setrecursionlimit(limit)
    return found[0]


def test_the_non_recursive_decoder_gives_the_json_modules_message_at_any_depth() -> None:
    """_load_deep reads what json.loads cannot (too deep for its recursion, a long integer) and
    must then say what json.loads would: the same message at the same line and column, on every
    text of the syntax corpus (tests/json_syntax.py), deep ones included. load_json gives that
    message whichever of the two read the text. On a Python whose json words an error otherwise
    (3.13: trailing commas), load_json keeps 3.11's words, _load_deep's."""
    import json_syntax

    compared = 0
    for _, data in json_syntax.texts():
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if text.startswith("\ufeff"):
            continue  # refused before any reading
        try:
            rt._load_deep(text)
            deep = "accepted"
        except rt.ValidationError as exc:
            deep = exc.message
        loaded = _problems(text)[0][1] if deep != "accepted" else "accepted"
        assert loaded == deep or loaded.startswith("invalid JSON: a lone UTF-16"), (text[:100], loaded, deep)
        wanted = _json_module_message(text)
        if wanted is None:
            continue  # json stops at the digit limit; _load_deep reads on (a syntax error comes first)
        words = wanted.removeprefix("invalid JSON: ").split(" at line ")[0]
        if wanted != "accepted" and words not in {m.removesuffix(" at") for m in rt._JSON_MESSAGES} and not words.endswith(" is not valid JSON"):
            continue  # a later Python's own words
        assert deep == wanted, (text[:100], deep, wanted)
        compared += 1
    assert compared > 3000


def test_a_string_cut_short_in_or_after_its_escapes_gets_the_json_modules_message() -> None:
    # _string_error's edges, which the syntax corpus meets only by chance: a surrogate pair's second escape
    # cut at every place (json's scanner finds the same fault in a pair as in two escapes: no rule of its own),
    # a bad escape after a good one, each at the very end of the text or before more.
    pieces = ["\\ud800", "\\udc00", "\\u12", "\\uZZZZ", "\\u", "\\", "x", '"', "\\n", "\x01"]
    compared = 0
    for a, b, c in itertools.product(pieces, repeat=3):
        body = '"' + a + b + c
        for cut in range(2, len(body) + 1):
            for text in (body[:cut], "[" + body[:cut], body[:cut] + " ]"):
                try:
                    json.loads(text)
                    continue
                except json.JSONDecodeError as exc:
                    wanted = f"invalid JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno} column {exc.colno}"
                with pytest.raises(rt.ValidationError) as caught:
                    rt._load_deep(text)
                assert caught.value.message == wanted, (text, caught.value.message, wanted)
                compared += 1
    assert compared > 20_000


def test_deep_text_gets_the_same_verdict_from_the_non_recursive_decoder() -> None:
    # Past the C decoder's recursion limit, _load_deep takes over: same syntax errors, and
    # what lies deeper than MAX_DEPTH is checked but built empty.
    levels = 100_000
    assert _problems("[" * levels + "1," + "]" * levels)[0][1].startswith("invalid JSON: Expecting value")
    assert _problems("[" * levels + "1" + "]" * (levels + 1))[0][1].startswith("invalid JSON: Extra data")
    assert _problems("[" * levels + "]" * levels + " 1")[0][1].startswith("invalid JSON: Extra data")
    # A long integer the decoder builds, after nesting deep enough to need it, is refused as json refuses it
    # (else the document is only too deep: Go and TypeScript say it is not JSON).
    assert _problems("[" + "[" * levels + "]" * levels + f", {LONG}]") == [("", rt.LONG_INT_MESSAGE, "json")]
    value = rt.load_json("[" * levels + "1" + "]" * levels)
    depth = 0
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    assert depth == rt.MAX_DEPTH + 1


def _nested(levels: int, inner: str) -> str:
    return "[" * levels + inner + "]" * levels


def test_a_value_deeper_than_max_depth_is_a_validation_error_at_its_pointer() -> None:
    parse_any = rt.any_json({"type": "not JSON"})
    assert rt.parse(parse_any, rt.load_json(_nested(rt.MAX_DEPTH, "1"))) is not None
    with pytest.raises(rt.ValidationError) as caught:
        rt.parse(parse_any, rt.load_json(_nested(100_000, "1")))
    [error] = caught.value.errors
    assert (error.path, error.message, error.keyword) == ("/0" * (rt.MAX_DEPTH + 1), rt.DEPTH_MESSAGE, "depth")
    assert rt.DEPTH_MESSAGE == "nesting deeper than 128 levels is not accepted"


def test_typed_parsers_stop_at_max_depth_too() -> None:
    def first(value: object, ctx: Any) -> Any:
        return ctx.child(0, value[0], first) if isinstance(value, list) and value else 0

    assert rt.parse(first, rt.load_json(_nested(rt.MAX_DEPTH + 1, ""))) == 0
    with pytest.raises(rt.ValidationError) as caught:
        rt.parse(first, rt.load_json(_nested(rt.MAX_DEPTH + 2, "")))
    assert caught.value.message == rt.DEPTH_MESSAGE


def test_problems_past_max_errors_are_counted_in_one_last_entry() -> None:
    parser = rt.list_of(rt.integer({"type": "item {index} is not a number"}), {"type": "not a list"})
    with pytest.raises(rt.ValidationError) as caught:
        rt.parse(parser, ["x"] * (rt.MAX_ERRORS + 50))
    errors = caught.value.errors
    assert len(errors) == rt.MAX_ERRORS + 1
    assert errors[rt.MAX_ERRORS - 1].message == "item 99 is not a number"
    assert (errors[-1].path, errors[-1].message, errors[-1].keyword) == ("", "... and 50 more problems", "limit")


def _containers(ctx: Any) -> dict[str, int]:
    """The size of every list, set or dict a Context holds."""
    slots = [name for cls in type(ctx).__mro__ for name in getattr(cls, "__slots__", ())]
    return {name: len(v) for name in slots if isinstance(v := getattr(ctx, name, None), (list, set, dict, tuple))}


def test_problems_past_max_errors_are_only_counted() -> None:
    """The exact walk keeps the first MAX_ERRORS problems and a count: a million problems, at
    items and below values (missing fields), leave no container in the Context longer than that."""
    ctx = rt.Context({"tags": ["x"], "people": ["ann"]})
    for i in range(1_000_000):
        ctx._path.append(i % 7)
        ctx.error("item {index} is not a number", "type", value="x")
        ctx.error("missing required field '{field}'", "required", "id")
        ctx._path.pop()
    assert ctx.count == 2_000_000 and len(ctx.reported()) == rt.MAX_ERRORS + 1
    assert max(_containers(ctx).values()) <= rt.MAX_ERRORS, _containers(ctx)


def test_a_document_with_a_million_problems_keeps_only_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generated package's exact walk over the benchmark's 10^6 bad tags (tests/bench_hostile.py):
    101 problems listed, and no Context of the run holds more than MAX_ERRORS of anything."""
    import bench_hostile
    from chatformats import _runtime
    from chatformats import structured_conversation as sc

    made: list[Any] = []

    class Recorded(_runtime.Context):
        __slots__ = ()

        def __init__(self, root: object) -> None:
            super().__init__(root)
            made.append(self)

    monkeypatch.setattr(_runtime, "Context", Recorded)
    case = next(c for c in bench_hostile.cases() if c.name == "10^6 errors (bad tags)")
    with pytest.raises(sc.ValidationError) as caught:
        sc.parse_structured_conversation_from_json(case.data)
    errors = caught.value.errors
    assert len(errors) == rt.MAX_ERRORS + 1 and errors[-1].message == f"... and {1_000_000 - rt.MAX_ERRORS} more problems"
    assert made and all(max(_containers(ctx).values()) <= rt.MAX_ERRORS for ctx in made), [_containers(c) for c in made]


@pytest.mark.parametrize(
    "text",
    ["2024-02-29T23:59:59Z", "2024-01-01t00:00:00z", "2024-01-01T00:00:00.123456789+05:30", "0001-01-01T00:00:00Z",
     "9999-12-31T23:59:59-23:59", "2024-01-01T00:00:00.5Z"],
)
def test_date_times_in_rfc_3339_with_a_zone_are_accepted(text: str) -> None:
    # The Go runtime's datetime_test.go has the same lists.
    assert rt.parse_datetime_text(text) is not None


@pytest.mark.parametrize(
    "text",
    ["2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-12-31T23:59:60Z",
     "0000-01-01T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z",
     "2024-01-01T00:00:00", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+24:00",
     "2024-01-01T00:00:00+05:60", "2024-01-01T00:00:00+0530", "２０２４-01-01T00:00:00Z", "2024-1-01T00:00:00Z",
     "", "2024-01-01T00:00:00ZZ", "2O24-01-01T00:00:00Z", "2024-0a-01T00:00:00Z", "2024-01-0aT00:00:00Z",
     "2024-01-01T0a:00:00Z", "2024-01-01T00:0a:00Z", "2024-01-01T00:00:0aZ", "2024-01-01T00:00:00+0a:00",
     "2024-01-01T00:00:00-00:0a", "2024x01-01T00:00:00Z", "2024-01x01T00:00:00Z", "2024-01-01x00:00:00Z",
     "2024-01-01T00x00:00Z", "2024-01-01T00:00x00Z", "2024-01-01T00:00:0Z", "2024-01-01T00:00:00+05x30"],
)
def test_other_date_times_are_refused(text: str) -> None:
    assert rt.parse_datetime_text(text) is None


def test_a_date_time_keeps_its_wire_text_while_it_denotes_the_same_instant() -> None:
    parsed = rt.parse_datetime_text("2024-05-06T07:08:09.250-02:30")
    assert parsed is not None and rt.format_datetime(parsed) == "2024-05-06T07:08:09.250-02:30"
    assert rt.format_datetime(parsed.replace(minute=9)) == "2024-05-06T07:09:09.250000-02:30"
    utc = rt.parse_datetime_text("2024-01-02T03:04:05+00:00")
    assert utc is not None and rt.format_datetime(utc) == "2024-01-02T03:04:05+00:00"
    assert rt.format_datetime(utc.replace(second=6)) == "2024-01-02T03:04:06Z"


# --- message formatting ---------------------------------------------------------


def test_placeholders_are_expanded_once() -> None:
    ctx = rt.Context(None)
    ctx._path.append("speaker")
    ctx.error("must be one of: {{value}, {{field}, a{{{b", "enum", value="{index}")
    ctx.error("got {value} in {field}", "x", "f", value="{field}")
    assert [e.message for e in ctx.errors] == ["must be one of: {value}, {field}, a{{b", "got {field} in f"]


def test_index_is_the_nearest_array_index_and_field_the_nearest_key() -> None:
    ctx = rt.Context(None)
    ctx._path.extend(["conversation", 3, "speaker"])
    ctx.error("message {index}: {field} is {value}", "enum", value="nobody")
    ctx.error("message {index}: {field} is missing", "required", "text")
    del ctx._path[1:]
    ctx.error("[{index}] {field}", "type")
    assert [(e.path, e.message, e.keyword) for e in ctx.errors] == [
        ("/conversation/3/speaker", "message 3: speaker is nobody", "enum"),
        ("/conversation/3/speaker/text", "message 3: text is missing", "required"),
        ("/conversation", "[] conversation", "type"),
    ]


def test_pointers_escape_tilde_and_slash() -> None:
    ctx = rt.Context(None)
    ctx._path.extend(["a/b", 0])
    ctx.error("x", "type", "~c")
    assert ctx.errors[0].path == "/a~1b/0/~0c"
    assert str(rt.ErrorDetail("", "m", "type")) == "/: m"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("null", "null"), ('"text {field}"', "text {field}"), ("true", "true"), ("false", "false"), ("-7", "-7"),
        ("-0", "0"), ("123456789012345678901234567890", "123456789012345678901234567890"), ("1.0", "1.0"),
        ("1e2", "100.0"), ("1E16", "1e+16"), ("123456789012345.6", "123456789012345.6"), ("0.0001", "0.0001"),
        ("0.00001", "1e-05"), ("-0.0", "-0.0"), ("1e400", "Infinity"), ("-1e400", "-Infinity"), ("2.5", "2.5"),
        ("[1]", "array"), ("{}", "object"),
    ],
)
def test_values_are_shown_as_the_go_runtime_shows_them(text: str, shown: str) -> None:
    # The Go runtime's message_test.go has the same table (json.Number for each number).
    assert rt._show(json.loads(text)) == shown


def test_unique_items_keys_values_past_max_depth_each_on_its_own_without_recursing_into_them() -> None:
    # Values that deep are refused anyway; their keys must not walk them (a recursion as deep as the value).
    deep_object: Any = "x"
    deep_list: Any = "x"
    for _ in range(5000):
        deep_object = {"a": deep_object}
        deep_list = [deep_list]
    for deep in (deep_object, deep_list):
        assert not rt._has_duplicates([deep, deep], 0)
    assert rt._has_duplicates([{"a": [1]}, {"a": [1.0]}], 0)


def test_an_integer_too_long_for_str_is_shown_by_its_size_in_a_message() -> None:
    # Only from_dict can be handed one (JSON text with it is refused first); str() of it raises.
    ctx = rt.Context(None)
    ctx.error("not {value}", "enum", value=-(10**5000))
    assert ctx.errors[0].message == "not an integer of more than 4300 digits"
    assert rt._show(10**4299) == "1" + "0" * 4299


def test_items_a_fast_attempt_built_are_kept_once_so_a_shared_list_is_walked_again() -> None:
    # A caller of from_dict may hand over one list object twice; the exact walk gives each
    # place its own problems and its own result, and so must the walk that keeps built items.
    item = rt.string({"type": "item {index} is not a string"})
    outer = rt.list_of(rt.list_of(item, {"type": "not a list"}), {"type": "not a list"})
    shared: list[object] = ["a", 1]
    unsure = rt.Unsure()
    rt.keep_items(unsure, shared, 2, ["a"], (shared,))
    with pytest.raises(rt.ValidationError) as caught:
        rt.parse(outer, [shared, shared], unsure.done)
    assert [str(e) for e in caught.value.errors] == ["/0/1: item 1 is not a string", "/1/1: item 1 is not a string"]
    valid: list[object] = ["a", "b"]
    unsure = rt.Unsure()
    rt.keep_items(unsure, valid, 2, ["a"], (valid,))
    built = rt.parse(outer, [valid, valid], unsure.done)
    assert built == [["a", "b"], ["a", "b"]] and built[0] is not built[1]


def test_the_error_message_is_the_first_problem_and_str_lists_every() -> None:
    error = rt.ValidationError([rt.ErrorDetail("/a", "first", "type"), rt.ErrorDetail("", "second", "type")])
    assert error.message == "first" and str(error) == "/a: first\n/: second" and isinstance(error, ValueError)


# --- the x-rules (the Go runtime's rules_test.go pins the same cases) -------------


def _reported(ctx: Any) -> list[str]:
    return [f"{e.path} {e.keyword}: {e.message}" for e in ctx.reported()]


@pytest.mark.parametrize(("value", "pointer", "want"), [
    (["a", "b"], ("1",), "b"), (["a", "b"], ("2",), None), ([], ("0",), None), ({"k": ["x"]}, ("k", "0"), "x"),
    ({"k": ["x"]}, ("k", "1"), None), ("text", ("0",), None), (["a"], ("-1",), None), (["a"], ("+0",), None), ({"0": "o"}, ("0",), "o"),
])
def test_a_rule_pointer_finds_nothing_past_the_end_of_an_array_in_a_scalar_or_at_a_signed_index(value: object, pointer: tuple[str, ...],
                                                                                               want: object) -> None:
    found = rt.resolve(value, pointer)
    assert (None if found is rt._MISSING else found) == want


@pytest.mark.parametrize(
    ("value", "usable", "want"),
    [("cy", True, ["/user member_of: user 'cy' is not one of the people"]), ("ann", True, []), (None, True, []),
     ("cy", False, [])],
)
def test_member_of_looks_the_value_up_in_the_list_at_the_relative_pointer(value: object, usable: bool, want: list[str]) -> None:
    ctx = rt.Context({"people": ["ann", "bob"], "user": value})
    # The generated code passes INVALID for a value that failed its own checks (Go: usable false).
    rt.rule_member_of(ctx, "user", value if usable else rt.INVALID, 0, ("people",), "user '{value}' is not one of the people")
    assert _reported(ctx) == want
    ctx = rt.Context({"people": "nobody", "user": "cy"})
    rt.rule_member_of(ctx, "user", "cy", 0, ("people",), "not a member")
    assert _reported(ctx) == []


@pytest.mark.parametrize("up", [1, 2, 5])
def test_a_relative_pointer_climbing_past_the_document_finds_nothing(up: int) -> None:
    # A model whose member_of climbs two levels may also sit one level below the root (or be the root):
    # the list is then not there, so the rule has nothing to check, and nothing is reported.
    ctx = rt.Context({"user": "cy"})
    assert ctx.ancestor(0) == {"user": "cy"} and ctx.ancestor(up) is rt._MISSING
    rt.rule_member_of(ctx, "user", "cy", up, ("people",), "not a member")
    assert _reported(ctx) == []


@pytest.mark.parametrize(
    ("obj", "want"),
    [({"kind": "x"}, ["/data required_when: data is required for x"]),
     ({"kind": "x", "data": None}, ["/data required_when: data is required for x"]),
     ({"kind": "x", "data": 1}, []), ({"kind": "y"}, []), ({}, []), ({"kind": 1}, [])],
)
def test_required_when_applies_only_while_the_condition_holds(obj: dict[str, Any], want: list[str]) -> None:
    ctx = rt.Context(obj)
    rt.rule_required_when(ctx, obj, "data", "kind", (), "x", "data is required for x", ())
    assert _reported(ctx) == want
    ctx = rt.Context(obj)
    rt.rule_required_when(ctx, obj, "data", "kind", (), "x", "m", (rt.INVALID,))
    assert _reported(ctx) == []


@pytest.mark.parametrize(
    ("obj", "want"),
    [({"a": None}, [" at_least_one_of: a or b"]), ({}, [" at_least_one_of: a or b"]), ({"b": 0}, []), ({"a": "", "b": 1}, [])],
)
def test_at_least_one_of_wants_one_field_present_and_not_null(obj: dict[str, Any], want: list[str]) -> None:
    ctx = rt.Context(obj)
    rt.rule_at_least_one_of(ctx, obj, ("a", "b"), "a or b")
    assert _reported(ctx) == want


@pytest.mark.parametrize(
    ("obj", "want"),
    [({"kind": "x", "items": [{"t": "a"}, {"t": "z"}, {}, {"t": 1}]}, ["/items/1/t allowed_when: z not allowed", "/items/3/t allowed_when: 1 not allowed"]),
     ({"kind": "y", "items": [{"t": "z"}]}, []), ({"items": [{"t": "z"}]}, []), ({"kind": "x", "items": {"t": "z"}}, [])],
)
def test_allowed_when_checks_each_item_while_the_condition_holds(obj: dict[str, Any], want: list[str]) -> None:
    ctx = rt.Context(obj)
    rt.rule_allowed_when(ctx, obj, "items", ("t",), "kind", (), "x", frozenset({"a", "b"}), "{value} not allowed", ())
    assert _reported(ctx) == want


@pytest.mark.parametrize(
    ("obj", "want"),
    [({"items": [{"t": "a"}, {"t": "b"}]}, []), ({"items": [{"t": "a"}, {}]}, ["/items contains: no b"]),
     ({"items": []}, ["/items contains: no b"]), ({"items": "b"}, []), ({}, [])],
)
def test_contains_wants_one_item_with_the_value(obj: dict[str, Any], want: list[str]) -> None:
    ctx = rt.Context(obj)
    rt.rule_contains(ctx, obj, "items", ("t",), "b", "no b", ())
    assert _reported(ctx) == want


# --- the source as a source -------------------------------------------------------


def test_the_python_runtime_source_passes_mypy_strict(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path), str(SOURCE)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_python_runtime_source_is_what_black_writes() -> None:
    # It is copied byte for byte, and every other generated module is black's output.
    import black

    text = SOURCE.read_text(encoding="utf-8")
    assert black.format_str(text, mode=black.Mode(target_versions={black.TargetVersion.PY311})) == text


def test_the_python_runtime_imports_only_the_standard_library() -> None:
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    assert imported and imported <= sys.stdlib_module_names | {"__future__"}, imported - sys.stdlib_module_names


def test_generate_copies_the_python_runtime_behind_the_header() -> None:
    files = generate([load_spec(ROOT / "tests" / "golden" / "keywords", ROOT)], targets=["python"])
    assert files["python/chatformats/_runtime.py"] == f"# {header(None)}\n" + SOURCE.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("obj", "op", "operands", "defaults", "want"),
    [({"a": 2**53 + 1, "b": 2.0**53}, "<=", ("integer", "number"), (None, None), ["/a compare: a is 9007199254740993"]),
     ({"a": 2.0**53, "b": 2**53 + 1}, "<", ("number", "integer"), (None, None), []),
     ({"a": 1.0, "b": 1}, "==", ("integer", "integer"), (None, None), []),
     ({"a": 2**53 + 1, "b": 2**53}, "<=", ("number", "integer"), (None, None), []),  # a number is its float64
     ({"a": "\ue000", "b": "\U0001f600"}, ">", ("string", "string"), (None, None), ["/a compare: a is \ue000"]),
     ({"a": "2024-01-15T11:30:00+01:00", "b": "2024-01-15t10:30:00.000z"}, "!=", ("date-time", "date-time"), (None, None),
      ["/a compare: a is 2024-01-15T11:30:00+01:00"]),
     ({"a": "2024-01-15T10:30:00.00000000015Z", "b": "2024-01-15T10:30:00.0000000001Z"}, "<=", ("date-time", "date-time"), (None, None),
      ["/a compare: a is 2024-01-15T10:30:00.00000000015Z"]),
     ({"a": 101}, "<=", ("integer", "integer"), (None, 100), ["/a compare: a is 101"]),
     ({"a": 101, "b": None}, "<=", ("integer", "integer"), (None, 100), []),
     ({"a": 101}, "<=", ("integer", "integer"), (None, None), []),
     ({"b": 1}, ">", ("number", "integer"), (1.0, None), ["/a compare: a is 1.0"])],
)
def test_compare_orders_integers_exactly_strings_by_code_point_and_times_by_instant(
        obj: dict[str, Any], op: str, operands: tuple[str, str], defaults: tuple[object, object], want: list[str]) -> None:
    # The same cases as the Go runtime's TestCompareOrdersIntegersExactlyStringsByCodePointAndTimesByInstant.
    ctx = rt.Context(obj)
    rt.rule_compare(ctx, obj, ("a", "b"), op, operands, defaults, "a is {value}", ())
    assert _reported(ctx) == want
    ctx = rt.Context(obj)
    rt.rule_compare(ctx, obj, ("a", "b"), op, operands, defaults, "m", (rt.INVALID,))
    assert _reported(ctx) == []


def test_a_built_date_time_is_ordered_by_the_text_to_dict_writes_for_it() -> None:
    kept = rt.parse_datetime_text("2024-01-15T10:30:00.00000000015Z")
    assert kept is not None and rt.instant(kept) == rt.instant("2024-01-15T10:30:00.00000000015Z")
    assert rt.instant(kept) > rt.instant("2024-01-15T10:30:00.0000000001Z")
    made = datetime(2024, 1, 15, 11, 30, tzinfo=timezone(timedelta(hours=1)))
    assert rt.instant(made) == rt.instant("2024-01-15T10:30:00Z")
    # validate()'s check of built attributes: None reads as the default it stands for.
    assert not rt.fast_compare("<=", 101, None, ("integer", "integer"), (None, 100))
    assert rt.fast_compare("<=", 101, None, ("integer", "integer"))


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None, database=None)
@given(_JSON_VALUES, st.sampled_from(["", "list", "object"]))
def test_the_writer_for_values_too_deep_for_json_writes_what_json_dumps_writes(value: Any, shell: str) -> None:
    """to_json writes a value deeper than json.dumps can recurse with _dump_deep: it must write every value exactly
    as json.dumps does (separators, keys, escapes), and deep inside as on top."""
    expected = json.dumps(value, ensure_ascii=False, allow_nan=False)
    assert rt._dump_deep(value) == expected
    if shell:
        levels = 5_000  # past json.dumps' recursion, which Hypothesis raises by about 2,000
        wrapped = value
        for _ in range(levels):
            wrapped = [wrapped, 0] if shell == "list" else {"k": wrapped, "z": 1}
        with pytest.raises(RecursionError):
            json.dumps(wrapped)
        opening, closing = ("[", ", 0]") if shell == "list" else ('{"k": ', ', "z": 1}')
        assert rt.dump_json(wrapped) == opening * levels + expected + closing * levels


@pytest.mark.parametrize("schema", [
    {"oneOf": [{"type": "integer"}, {"minimum": 2}, {"multipleOf": 3}]},
    {"anyOf": [{"type": "integer"}, {"minimum": 2}, {"multipleOf": 3}]},
    {"not": {"oneOf": [{"type": "integer"}, {"minimum": 2}]}},
    {"oneOf": [{"anyOf": [{"minimum": 2}, {"maximum": 0}]}, {"type": "integer"}]},
])
def test_a_schema_applied_as_written_counts_every_branch_of_oneof_and_stops_early_only_for_anyof(schema: dict[str, Any]) -> None:
    """oneOf needs exactly one branch: a value two or three branches accept is refused (the count may stop early
    for anyOf only); jsonschema's verdict on each value, by the runtime's verdict and by its reporting walk."""
    from jsonschema import Draft202012Validator

    from generator import ir
    from generator.load import LoadedSpec
    from generator.lower import lower

    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Applied", "description": "Applied.",
                "x-version": "1.0.0", "$ref": "#/$defs/Doc", "$defs": {"Doc": {"type": "object", "description": "The document.",
                                                                          "properties": {"v": {**schema, "description": "v."}}}}}
    [field] = lower(LoadedSpec("applied", "applied.json", document, (), ())).definition("Doc").fields
    checks = field.type.checks if isinstance(field.type, ir.AnyType) else None
    assert checks is not None, field.type
    parser = rt.Checks(checks.text, ()).parser({"type": "not JSON"})
    oracle = Draft202012Validator(schema)
    for value in (-3, -1, 0, 1, 1.5, 2, 3, 4.5, 6, 9, "x"):
        ctx = rt.Context(value)
        parser(value, ctx)
        assert (not ctx.errors) == oracle.is_valid(value), (schema, value, [e.message for e in ctx.errors])


def test_a_run_of_closing_brackets_that_an_object_interrupts_deep_down_gets_the_json_modules_verdict() -> None:
    # _load_deep pops a run of "]" at once, deep in arrays it keeps only as their kind; where an object sits
    # inside the run's reach it pops only the arrays inside that object, and must find where the run's
    # count-th "]" is, whitespace between them or not. The json module, given the recursion it needs, is the
    # oracle: for text that is JSON and for text whose extra "]" closes the object.
    outer = 3000  # past MAX_DEPTH and past json's default recursion
    texts = []
    for inner in (1, 2, 5):
        for gap in ("", " ", "\n\t ", "  "):
            run = gap.join("]" * inner)
            for after in ('}' + "]" * outer, gap + '}' + gap + "]" * outer, gap + "]}" + "]" * outer, ',1}' + "]" * outer):
                texts.append("[" * outer + '{"a":' + "[" * inner + run + after)
    assert all(len(t) > 2 * outer for t in texts)
    wrong = []
    for text in texts:
        try:
            rt._load_deep(text)
            deep = "accepted"
        except rt.ValidationError as exc:
            deep = exc.message
        wanted = _json_module_message(text)
        if deep != wanted:
            wrong.append((text[outer : outer + 40], deep, wanted))
    assert not wrong, wrong[:5]
    assert {_json_module_message(t) == "accepted" for t in texts} == {True, False}


# --- edges no other test of the group ran (coverage of make mutate's python-runtime tests) ---


def test_a_value_built_in_code_that_holds_itself_is_refused_as_json_refuses_it() -> None:
    looped: list[Any] = [1]
    looped.append({"back": looped})
    for value in (looped, {"a": looped}):
        with pytest.raises(ValueError, match="Circular reference detected"):
            json.dumps(value)
        with pytest.raises(ValueError, match="Circular reference detected"):
            rt.dump_json(value)
    # The same list twice side by side is no cycle: written twice, as json writes it.
    shared = [1, [2]]
    assert rt.dump_json([shared, {"s": shared}]) == json.dumps([shared, {"s": shared}], ensure_ascii=False)
    # Past json.dumps' recursion the writer without recursion keeps its own list of the containers it is inside.
    deep_loop: list[Any] = [looped]
    deep_shared: list[Any] = [shared, {"s": shared}]
    for _ in range(5_000):
        deep_loop, deep_shared = [deep_loop], [deep_shared]
    with pytest.raises(ValueError, match="Circular reference detected"):
        rt.dump_json(deep_loop)
    assert rt.dump_json(deep_shared) == "[" * 5_000 + json.dumps([shared, {"s": shared}]) + "]" * 5_000
    with pytest.raises(ValueError, match="Circular reference detected"):
        rt._dump_deep(looped)
    assert rt._dump_deep([shared, {"s": shared}, shared]) == json.dumps([shared, {"s": shared}, shared])


def test_an_open_models_property_named_by_no_string_is_refused_at_the_object() -> None:
    # from_dict on a dict built in code: JSON names are strings, so the object is no JSON value.
    obj = {1: "one", "kept": [1]}
    ctx = rt.Context(obj)
    kept = rt.keep_unknown(obj, ctx, frozenset())
    assert kept == {"kept": [1]}
    assert [(e.path, e.message, e.keyword) for e in ctx.reported()] == [("", "must be a JSON value", "type")]


def test_the_instant_of_a_text_that_is_no_date_time_is_an_error_not_a_guess() -> None:
    assert rt.instant("2024-01-01T00:00:00.500Z") == rt.instant("2024-01-01T01:00:00.5+01:00")
    for text in ("2024-01-01", "2024-01-01T00:00:00", "not a date"):
        with pytest.raises(ValueError, match="not an RFC 3339 date-time"):
            rt.instant(text)


def test_only_an_aware_datetime_is_a_date_time_validate_accepts() -> None:
    aware = datetime(2024, 1, 1, tzinfo=timezone(timedelta(hours=-3)))
    assert rt.datetime_ok(aware)
    for value in ("2024-01-01T00:00:00Z", 1704067200, None, datetime(2024, 1, 1), datetime(2024, 1, 1, tzinfo=timezone(timedelta(seconds=30)))):
        assert not rt.datetime_ok(value), value
    # A DateTime read from text keeps its wire text, which to_dict writes back: one set in code must be a string.
    for text in ("2024-01-01T00:00:00Z", "2024-01-01T01:00:00+01:00"):
        read = rt.parse_datetime_text(text)
        assert read is not None and rt.datetime_ok(read), text
        read.wire = 5  # type: ignore[assignment]
        assert not rt.datetime_ok(read), text


def test_a_rule_pointer_through_an_object_of_no_model_is_unsure() -> None:
    class Opaque:
        pass

    assert rt.resolve_value({"a": [{"b": "x"}]}, ("a", "0", "b")) == "x"
    assert rt.resolve_value({"a": [1]}, ("a", "1")) is rt._MISSING
    with pytest.raises(rt.Unsure):
        rt.resolve_value({"a": Opaque()}, ("a", "b"))
    with pytest.raises(rt.Unsure):
        rt.resolve_value(Opaque(), ())

"""The generated Python package as a user sees it: importable bare, typed, and faithful on the wire."""

from __future__ import annotations

import copy
import datetime as dt
import importlib
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import PY_OUT, ROOT, format_folders

FOLDERS = format_folders()
FORMATS = list(FOLDERS)


def _valid(fmt: str) -> list[tuple[str, Any]]:
    folder = FOLDERS[fmt] / "examples" / "valid"
    return [(p.stem, json.loads(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.json"))]


def _root_class(fmt: str) -> Any:
    mod = importlib.import_module(f"chatformats.{fmt}")
    text = json.dumps(_valid(fmt)[0][1])
    return type(getattr(mod, f"parse_{fmt}_from_json")(text)), mod


@pytest.mark.parametrize("fmt", FORMATS)
def test_imports_without_site_packages(fmt: str) -> None:
    # python -S: no site-packages, no chatspec, only the vendored folder on the path.
    code = f"import sys; sys.path.insert(0, {str(PY_OUT)!r}); import chatformats.{fmt} as m; print(m.VERSION)"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env, cwd="/")
    assert done.returncode == 0, done.stderr
    spec = json.loads((FOLDERS[fmt] / "spec.json").read_text(encoding="utf-8"))
    assert done.stdout.strip() == spec["x-version"]


def test_mypy_strict_on_generated_package(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path), "-p", "chatformats"],
        capture_output=True, text=True, cwd=PY_OUT, env={**os.environ, "MYPYPATH": str(PY_OUT)},
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_formats_listed_in_package() -> None:
    import chatformats

    assert sorted(chatformats.FORMATS) == FORMATS
    assert issubclass(chatformats.ValidationError, ValueError)


def test_date_time_text_round_trips_exactly() -> None:
    from chatformats import structured_conversation as sc

    doc = dict(_valid("structured_conversation"))["basic_two_person"]
    first = doc["conversation"]["conversation"][0]
    for wire in ("2024-01-15T12:00:00Z", "2024-01-15T12:00:00+00:00", "2024-01-15T14:00:00.250+02:00"):
        data = copy.deepcopy(doc)
        data["conversation"]["conversation"][0] = {**first, "time": wire}
        parsed = sc.parse_structured_conversation_from_json(json.dumps(data))
        when = parsed.conversation.conversation[0].time
        assert isinstance(when, dt.datetime) and when.tzinfo is not None
        assert parsed.to_dict()["conversation"]["conversation"][0]["time"] == wire
    # A datetime built in code is written in RFC 3339 form.
    msg = parsed.conversation.conversation[0]
    msg.time = dt.datetime(2024, 1, 15, 12, 0, tzinfo=dt.timezone.utc)
    assert parsed.to_dict()["conversation"]["conversation"][0]["time"] in ("2024-01-15T12:00:00Z", "2024-01-15T12:00:00+00:00")


def test_time_zone_is_required() -> None:
    from chatformats import structured_conversation as sc

    data = copy.deepcopy(dict(_valid("structured_conversation"))["basic_two_person"])
    data["conversation"]["conversation"][0]["time"] = "2024-01-15T12:00:00"
    with pytest.raises(sc.ValidationError) as caught:
        sc.parse_structured_conversation_from_json(json.dumps(data))
    assert caught.value.errors[0].path == "/conversation/conversation/0/time"


def test_base64_becomes_bytes_and_dash_wire_name_an_attribute() -> None:
    from chatformats import chat_event

    data = dict(_valid("chat_event"))["render_media_bytes"]
    event = chat_event.parse_chat_event_from_json(json.dumps(data))
    assert event.render_media is not None
    assert isinstance(event.render_media.content_bytes, bytes)
    assert event.render_media.content_bytes.startswith(b"RIFF")
    assert event.render_media.content_type == "audio/wav"
    assert event.to_dict()["render_media"]["content-type"] == "audio/wav"
    assert event.to_dict()["render_media"]["content_bytes"] == data["render_media"]["content_bytes"]


def test_fresh_uuid4_defaults() -> None:
    from chatformats import chat_modality

    data = dict(_valid("chat_modality"))["user_sends_message"]
    data = {k: v for k, v in data.items() if k not in ("input_id", "message_id")}
    a = chat_modality.ChatInput.from_dict(data)
    b = chat_modality.ChatInput.from_dict(data)
    assert a.input_id != b.input_id
    assert len(a.input_id) == 36 and a.input_id[14] == "4"


def test_absent_optional_stays_absent() -> None:
    from chatformats import chat_event

    event = chat_event.parse_chat_event_from_json('{"session_id": "s", "role": "user"}')
    assert event.completed is None
    assert event.to_dict() == {"session_id": "s", "role": "user", "output_format": "markdown"}
    event.completed = False
    assert event.to_dict()["completed"] is False


def test_validate_checks_values_changed_in_code() -> None:
    from chatformats import structured_conversation as sc

    doc = sc.parse_structured_conversation_from_json(json.dumps(dict(_valid("structured_conversation"))["basic_two_person"]))
    doc.conversation.user = "nobody"
    with pytest.raises(sc.ValidationError) as caught:
        sc.validate_conversation_document(doc)
    assert caught.value.errors[0].path == "/conversation/user"


# Values no JSON parser produces, but callers of from_dict might pass.
_ODD = [None, 0, -1, 2**70, 1.5, math.nan, math.inf, "", "x", [], {}, [[]], [{}], True, (1, 2), {1, 2}, b"x", object()]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, prefix + (i,))
    return found


def _replace(doc: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    doc = copy.deepcopy(doc)
    here = doc
    for token in path[:-1]:
        here = here[token]
    here[path[-1]] = new
    return doc


@pytest.mark.parametrize("fmt", FORMATS)
def test_any_value_anywhere_gives_model_or_validation_error(fmt: str) -> None:
    cls, mod = _root_class(fmt)
    tried = 0
    for _, example in _valid(fmt):
        for path in _paths(example):
            for odd in _ODD:
                try:
                    value = cls.from_dict(_replace(example, path, odd))
                except mod.ValidationError as exc:
                    assert exc.errors and all(e.path == "" or e.path.startswith("/") for e in exc.errors)
                    assert all(isinstance(e.message, str) and e.message for e in exc.errors)
                else:
                    value.to_dict()  # what was accepted can be written back
                tried += 1
    assert tried > 100


@pytest.mark.parametrize("fmt", FORMATS)
def test_bad_json_text_is_a_validation_error(fmt: str) -> None:
    _, mod = _root_class(fmt)
    parse = getattr(mod, f"parse_{fmt}_from_json")
    for text in ("", "{", "[1,]", "NaN", '{"a": Infinity}', b"\xff\xfe", "[" * 100_000 + "]" * 100_000):
        with pytest.raises(mod.ValidationError):
            parse(text)


def _chat_input(metadata: Any) -> dict[str, Any]:
    return {**dict(_valid("chat_modality"))["user_sends_message"], "metadata": metadata}


def _deep(levels: int) -> Any:
    deep: Any = "leaf"
    for _ in range(levels // 2):
        deep = {"k": [deep]}
    return deep


def test_metadata_deeper_than_128_levels_is_refused_at_its_pointer_by_every_method() -> None:
    from chatformats import chat_modality
    from chatformats._runtime import DEPTH_MESSAGE

    # /metadata is 1 level down; 127 more levels are accepted, 128 more are not.
    fine = {"deep": _deep(124)}
    assert chat_modality.ChatInput.from_dict(_chat_input(fine)).metadata == fine
    for build in (chat_modality.ChatInput.from_dict, lambda d: chat_modality.ChatInput.from_json(json.dumps(d))):
        with pytest.raises(chat_modality.ValidationError) as caught:
            build(_chat_input({"deep": _deep(200)}))
        [error] = caught.value.errors
        assert (error.message, error.keyword) == (DEPTH_MESSAGE, "depth")
        assert error.path.count("/") == 129 and error.path.startswith("/metadata/deep/k/0/k/")


def test_no_recursion_error_escapes_any_method_whatever_the_depth() -> None:
    from chatformats import chat_modality

    deep = {"deep": _deep(200_000)}
    text = json.dumps(_chat_input({"a": 1}))[:-1] + ', "metadata": ' + '{"k": [' * 100_000 + "1" + "]}" * 100_000 + "}"
    for attempt in (
        lambda: chat_modality.ChatInput.from_dict(_chat_input(deep)),
        lambda: chat_modality.ChatInput.from_json(text),
        lambda: chat_modality.ChatInput.from_json("[" * 3_000_000),
        lambda: chat_modality.ChatInput.from_json(b"[" * 100_000 + b"]" * 100_000),
    ):
        with pytest.raises(chat_modality.ValidationError):
            attempt()
    # A value built in code may be deep: it is written out, and validate() refuses it.
    value = chat_modality.ChatInput.from_dict(_chat_input({}))
    value.metadata = deep
    copied = value.to_dict()["metadata"]
    assert copied is not deep and copied["deep"]["k"][0]["k"][0] is not deep["deep"]["k"][0]["k"][0]
    assert value.to_json().count('{"k": [') == 100_000
    with pytest.raises(chat_modality.ValidationError) as caught:
        value.validate()
    assert caught.value.errors[0].keyword == "depth"
    state = chat_modality.ChatState()
    with pytest.raises(chat_modality.ValidationError):
        state.apply_input(value)  # a behaviour: the input is validated first
    assert state.get_snapshot()["messages"] == []
    value.metadata = {"loop": []}
    value.metadata["loop"].append(value.metadata)
    with pytest.raises(ValueError, match="Circular"):
        value.to_dict()


def test_text_that_is_not_utf8_json_is_refused_with_the_policy_message() -> None:
    from chatformats import chat_modality
    from chatformats import _runtime as rt

    good = json.dumps(_chat_input({"note": "x"}))
    cases = {
        b"\xef\xbb\xbf" + good.encode(): rt.BOM_MESSAGE,
        "\ufeff" + good: rt.BOM_MESSAGE,
        good.replace('"x"', '"\xff"').encode("latin-1"): rt.NOT_UTF8_MESSAGE,
        good.encode("utf-16"): rt.NOT_UTF8_MESSAGE,
        good.replace('"x"', '"\\ud800"'): rt.SURROGATE_MESSAGE,
        good.replace('"x"', '"\\udc00\\ud800"').encode(): rt.SURROGATE_MESSAGE,
        good.replace('"note"', '"\\ud83d"'): rt.SURROGATE_MESSAGE,
        good.replace('"x"', '"\ud800"'): rt.SURROGATE_MESSAGE,
        good.replace('"x"', "1" * 4301): rt.LONG_INT_MESSAGE,
        good.replace('"x"', "-" + "1" * 4301): rt.LONG_INT_MESSAGE,
    }
    for text, message in cases.items():
        with pytest.raises(chat_modality.ValidationError) as caught:
            chat_modality.ChatInput.from_json(text)
        assert [(e.path, e.message, e.keyword) for e in caught.value.errors] == [("", message, "json")], text[:80]
    # A syntax error anywhere comes first, as in Go.
    with pytest.raises(chat_modality.ValidationError) as caught:
        chat_modality.ChatInput.from_json(good.replace('"x"', "1" * 4301)[:-1])
    assert caught.value.message.startswith("invalid JSON: ") and "4300" not in caught.value.message
    # What the policy allows: a surrogate pair, an escaped backslash before "ud800", 4300 digits.
    for note, expected in (('"\\ud83d\\ude00"', "\U0001f600"), ('"\\\\ud800"', "\\ud800"), ("9" * 4300, int("9" * 4300))):
        value = chat_modality.ChatInput.from_json(good.replace('"x"', note).encode())
        assert value.metadata == {"note": expected}


def test_numbers_no_float_holds_are_refused_in_free_form_values() -> None:
    from chatformats import chat_modality

    for number in ("1e400", "-1e400", "1" + "0" * 400 + ".5"):
        with pytest.raises(chat_modality.ValidationError) as caught:
            chat_modality.ChatInput.from_json(json.dumps(_chat_input({"n": 0})).replace('"n": 0', f'"n": [{number}]'))
        [error] = caught.value.errors
        assert (error.path, error.keyword) == ("/metadata/n", "type")
    # Built in code (text holding one is refused first): an integer of more than 4300 digits is no JSON value either.
    for huge in ([10**5000], {"k": -(10**5000)}):
        with pytest.raises(chat_modality.ValidationError) as caught:
            chat_modality.ChatInput.from_dict(_chat_input({"n": huge}))
        assert [(e.path, e.keyword) for e in caught.value.errors] == [("/metadata/n", "type")]
    big = chat_modality.ChatInput.from_json(json.dumps(_chat_input({"n": 10**400})))
    assert big.metadata == {"n": 10**400} and "1" + "0" * 400 in big.to_json()


def test_the_error_list_stops_at_100_and_counts_the_rest() -> None:
    from chatformats import chat_modality

    data = _chat_input({})
    data["content"] = [{"type": "nope"}] * 5000
    with pytest.raises(chat_modality.ValidationError) as caught:
        chat_modality.ChatInput.from_dict(data)
    errors = caught.value.errors
    assert len(errors) == 101
    assert errors[:100] == errors[:100] and all(e.keyword != "limit" for e in errors[:100])
    assert (errors[100].path, errors[100].keyword) == ("", "limit")
    assert errors[100].message == "... and 4900 more problems"


def test_unique_items_compares_numbers_by_value() -> None:
    from chatformats import _runtime as rt

    msgs = {"type": "must be an array", "uniqueItems": "must not contain duplicate items"}
    check = rt.list_of(rt.any_json({"type": "must be a JSON value"}), msgs, unique_items=True)
    for duplicated in ([1, 1.0], [0, -0.0], [1.0, 1e0], [10**20, 1e20], [{"a": [1]}, {"a": [1.0]}], [0.5, 5e-1]):
        with pytest.raises(rt.ValidationError, match="duplicate"):
            rt.parse(check, duplicated)
    for distinct in ([1, True], [0, False], [None, 0], ["1", 1], [1, 1.5], [{"a": 1}, {"b": 1}], [[1, 2], [2, 1]]):
        assert rt.parse(check, distinct) == distinct


def test_placeholders_are_expanded_once_from_the_template_text() -> None:
    from chatformats import _runtime as rt
    from generator import messages

    template = messages.resolve("enum", {}, allowed=["{value}", "{field}", "a{{b"])
    ctx = rt.Context(None)
    ctx.child("speaker", "x", lambda v, c: c.error(template, "enum", value="{index}"))
    ctx.error("got {value} in {field}", "x", "f", "{field}")
    assert [e.message for e in ctx.errors] == ["must be one of: {value}, {field}, a{{b", "got {field} in f"]


def test_member_of_builds_one_set_and_indexes_each_problem_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatformats import _runtime as rt
    from chatformats import structured_conversation as sc

    doc = copy.deepcopy(dict(_valid("structured_conversation"))[sorted(dict(_valid("structured_conversation")))[0]])
    message = doc["conversation"]["conversation"][0]
    doc["conversation"]["conversation"] = [dict(message, speaker=f"ghost{i}") for i in range(3000)]
    built: list[int] = []
    real = rt.Context.members

    def counted(self: Any, pool: list[Any]) -> Any:
        if id(pool) not in self._pools:
            built.append(id(pool))
        return real(self, pool)

    monkeypatch.setattr(rt.Context, "members", counted)
    with pytest.raises(sc.ValidationError) as caught:
        rt.parse(sc._parse_conversation_document, doc)
    assert len(built) == 1  # one set for the people list, however many messages ask
    assert len(caught.value.errors) == 101
    assert caught.value.errors[-1].message == "... and 2900 more problems"


def test_errors_are_collected_in_document_order() -> None:
    from chatformats import chat_modality

    with pytest.raises(chat_modality.ValidationError) as caught:
        chat_modality.ChatInput.from_dict({"role": "robot", "content": [], "timestamp": "yesterday"})
    paths = [e.path for e in caught.value.errors]
    assert paths == sorted(paths, key=lambda p: ["timestamp", "role", "content"].index(p.split("/")[1]))
    assert len(paths) == 3


def test_numeric_defaults_are_written_the_same_way_in_python_and_go() -> None:
    from generator.messages import number_literal

    cases = {1.0: "1", -0.0: "0", 0.0: "0", 0.5: "0.5", 1e300: "1e+300", 7: "7", -3: "-3", 2.5e-8: "2.5e-08"}
    assert {value: number_literal(value) for value in cases} == cases


# --- what the odd values above get: the oracle's verdict, an error where the value went, the value kept ---

_JSON_ODD = [None, 0, -1, 2**70, 1.5, "", "x", [], {}, [[]], [{}], True]
_NOT_JSON = [math.nan, math.inf, (1, 2), {1, 2}, b"x", object()]
_RULES = {"member_of", "required_when", "at_least_one_of", "allowed_when", "contains", "compare"}


def _pointer(path: tuple[Any, ...]) -> str:
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in path)


def _near(error_path: str, pointer: str) -> bool:
    """The error is about the value at pointer: there, inside it, or at an ancestor that holds it."""
    return error_path == pointer or pointer.startswith(error_path + "/") or error_path.startswith(pointer + "/")


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for token in path:
        doc = doc[token]
    return doc


def _kept(given: Any, out: Any) -> bool:
    if isinstance(given, dict):
        return isinstance(out, dict) and all(v is None or (k in out and _kept(v, out[k])) for k, v in given.items())
    if isinstance(given, list):
        return isinstance(out, list) and len(out) == len(given) and all(_kept(a, b) for a, b in zip(given, out))
    return bool(out == given and type(out) is type(given))


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_odd_value_anywhere_gets_the_oracle_verdict_an_error_where_it_went_and_is_kept_when_accepted(fmt: str) -> None:
    from jsonschema import Draft202012Validator

    from fuzz import PYTHON_ONLY

    cls, mod = _root_class(fmt)
    schema = json.loads((ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
    oracle = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    wrong: list[str] = []
    accepted = rejected = 0
    for name, example in _valid(fmt):
        for path in _paths(example):
            pointer = _pointer(path)
            for odd in _JSON_ODD + _NOT_JSON:
                doc = _replace(example, path, odd)
                where = f"{name}{pointer or '/'} = {odd!r}"
                try:
                    value = cls.from_dict(doc)
                except mod.ValidationError as exc:
                    rejected += 1
                    keywords = {e.keyword for e in exc.errors}
                    if odd in _JSON_ODD and not any(odd is o for o in _NOT_JSON):
                        by_oracle = list(oracle.iter_errors(doc))
                        if keywords <= PYTHON_ONLY and by_oracle:
                            wrong.append(f"{where}: only {keywords} rejects it, yet jsonschema does too")
                        if not keywords <= PYTHON_ONLY and not by_oracle:
                            wrong.append(f"{where}: rejected ({exc.errors[0]}), jsonschema accepts")
                    if not keywords <= _RULES and not any(_near(e.path, pointer) for e in exc.errors if e.keyword not in _RULES):
                        wrong.append(f"{where}: the errors are elsewhere: {[str(e) for e in exc.errors]}")
                    continue
                accepted += 1
                if any(odd is o for o in _NOT_JSON):
                    wrong.append(f"{where}: a value JSON cannot hold is accepted")
                    continue
                if list(oracle.iter_errors(doc)):
                    wrong.append(f"{where}: accepted, jsonschema rejects")
                out = value.to_dict()
                if cls.from_dict(out) != value:
                    wrong.append(f"{where}: to_dict does not read back to the same value")
                if odd is not None:
                    try:
                        kept = _kept(odd, _at(out, path))
                    except (KeyError, IndexError, TypeError):
                        kept = False
                    if not kept:
                        wrong.append(f"{where}: to_dict does not write it back")
    assert not wrong, f"{len(wrong)} wrong; first ones:\n" + "\n".join(wrong[:15])
    assert accepted > 10 and rejected > 100


def test_errors_name_the_path_and_the_spec_message() -> None:
    from chatformats import structured_conversation as sc

    data = copy.deepcopy(dict(_valid("structured_conversation"))["basic_two_person"])
    data["id"] = ""
    data["conversation"]["conversation"][1]["speaker"] = "Mallory"
    data["conversation"]["conversation"][2]["time"] = "2024-01-15 12:00"
    data["tags"] = "food"
    with pytest.raises(sc.ValidationError) as caught:
        sc.ConversationDocument.from_dict(data)
    got = [(e.path, e.message, e.keyword) for e in caught.value.errors]
    assert got == [
        ("/id", "document ID is required", "minLength"),
        ("/conversation/conversation/1/speaker", "message 1: speaker 'Mallory' must be included in the people list", "member_of"),
        ("/conversation/conversation/2/time", "message 2: time must be a valid RFC 3339 timestamp", "format"),
        ("/tags", "must be an array", "type"),
    ]
    assert str(caught.value) == "\n".join(f"{path}: {message}" for path, message, _ in got)
    assert caught.value.message == "document ID is required"


def test_nan_and_infinity_are_not_json_even_where_null_is_allowed() -> None:
    # "content" may be null; NaN must not slip in as null (or as a float).
    from chatformats import chat_event

    for constant in ("NaN", "Infinity", "-Infinity"):
        with pytest.raises(chat_event.ValidationError) as caught:
            chat_event.parse_chat_event_from_json('{"session_id": "s", "role": "user", "content": %s}' % constant)
        assert [(e.path, e.message) for e in caught.value.errors] == [("", f"invalid JSON: {constant} is not valid JSON")]


def test_free_form_json_is_checked_to_its_last_value() -> None:
    # Every value of open JSON is looked at, whatever comes before a bad one.
    from chatformats import chat_modality

    data = dict(_valid("chat_modality"))["user_sends_message"]
    for metadata, where in (({"bad": math.nan, "ok": 1.5}, "/metadata/bad"), ({"bad": math.inf, "ok": "x"}, "/metadata/bad"),
                            ({"bad": object(), "ok": 1.5}, "/metadata/bad"),
                            ({"deep": [{"bad": {1: "non-string key"}}, 1.5, True, None]}, "/metadata/deep")):
        with pytest.raises(chat_modality.ValidationError) as caught:
            chat_modality.ChatInput.from_dict({**data, "metadata": metadata})
        assert [e.path for e in caught.value.errors] == [where], metadata


def test_to_json_refuses_nan_set_in_code() -> None:
    # NaN is not JSON: writing it is an error, not the text NaN.
    from chatformats import chat_modality

    value = chat_modality.ChatInput.from_dict(dict(_valid("chat_modality"))["user_sends_message"])
    value.metadata = {"score": math.nan}
    with pytest.raises(ValueError):
        value.to_json()


def test_to_json_writes_text_as_utf_8_not_escapes() -> None:
    from chatformats import chat_event

    event = chat_event.parse_chat_event_from_json('{"session_id": "s", "role": "user", "content": "It\'s 21\\u00b0C \\ud83c\\udf1e"}')
    assert event.content == "It's 21°C 🌞"
    assert '"content": "It\'s 21°C 🌞"' in event.to_json()

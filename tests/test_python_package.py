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


def test_deep_nesting_in_open_json_does_not_overflow() -> None:
    from chatformats import chat_modality

    data = dict(_valid("chat_modality"))["user_sends_message"]
    deep: Any = "leaf"
    for _ in range(10_000):
        deep = {"k": [deep]}
    value = chat_modality.ChatInput.from_dict({**data, "metadata": {"deep": deep}})
    assert value.metadata["deep"]["k"][0]["k"][0]["k"]


def test_errors_are_collected_in_document_order() -> None:
    from chatformats import chat_modality

    with pytest.raises(chat_modality.ValidationError) as caught:
        chat_modality.ChatInput.from_dict({"role": "robot", "content": [], "timestamp": "yesterday"})
    paths = [e.path for e in caught.value.errors]
    assert paths == sorted(paths, key=lambda p: ["timestamp", "role", "content"].index(p.split("/")[1]))
    assert len(paths) == 3


# --- what the odd values above get: the oracle's verdict, an error where the value went, the value kept ---

_JSON_ODD = [None, 0, -1, 2**70, 1.5, "", "x", [], {}, [[]], [{}], True]
_NOT_JSON = [math.nan, math.inf, (1, 2), {1, 2}, b"x", object()]
_RULES = {"member_of", "required_when", "at_least_one_of", "allowed_when", "contains"}


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

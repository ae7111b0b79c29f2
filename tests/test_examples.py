"""Every spec example through the generated Python, with jsonschema as an independent oracle."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conftest import GENERATED, ROOT, format_folders

FOLDERS = format_folders()
FORMATS = list(FOLDERS)


def _cases(kind: str) -> list[Any]:
    return [
        pytest.param(fmt, path, id=f"{fmt}/{path.stem}")
        for fmt in FORMATS
        for path in sorted((FOLDERS[fmt] / "examples" / kind).glob("*.json"))
    ]


def _module(fmt: str) -> Any:
    return importlib.import_module(f"chatformats.{fmt}")


def _parse(fmt: str, text: str) -> Any:
    return getattr(_module(fmt), f"parse_{fmt}_from_json")(text)


def _oracle(fmt: str) -> Draft202012Validator:
    schema = json.loads((GENERATED / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _assert_kept(given: Any, out: Any, where: str) -> None:
    if isinstance(given, dict):
        assert isinstance(out, dict), where
        for key, item in given.items():
            if item is not None:
                assert key in out, f"{where}/{key} dropped"
                _assert_kept(item, out[key], f"{where}/{key}")
    elif isinstance(given, list):
        assert isinstance(out, list) and len(out) == len(given), where
        for i, (a, b) in enumerate(zip(given, out)):
            _assert_kept(a, b, f"{where}/{i}")
    else:
        assert out == given and type(out) is type(given), where


def test_oracle_checks_date_times() -> None:
    # Without rfc3339-validator installed, jsonschema silently ignores "format": "date-time".
    assert "date-time" in Draft202012Validator.FORMAT_CHECKER.checkers


def test_every_format_has_enough_examples() -> None:
    for fmt in FORMATS:
        examples = FOLDERS[fmt] / "examples"
        assert len(list((examples / "valid").glob("*.json"))) >= 3, fmt
        assert len(list((examples / "invalid").glob("*.json"))) >= 8, fmt


@pytest.mark.parametrize(("fmt", "path"), _cases("valid"))
def test_valid_example_accepted(fmt: str, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    value = _parse(fmt, text)
    value.validate()
    # What comes out is what went in (same wire keys, values and date-time text), plus
    # defaults filled in; an optional null is written back as absent.
    out = value.to_dict()
    _assert_kept(json.loads(text), out, "")
    assert type(value).from_dict(out) == value
    assert list(_oracle(fmt).iter_errors(json.loads(text))) == []


@pytest.mark.parametrize(("fmt", "path"), _cases("invalid"))
def test_invalid_example_rejected_with_exact_errors(fmt: str, path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    mod = _module(fmt)
    with pytest.raises(mod.ValidationError) as caught:
        _parse(fmt, json.dumps(case["data"]))
    got = [{"path": e.path, "message": e.message} for e in caught.value.errors]
    assert got == case["errors"]
    assert str(caught.value).startswith(case["errors"][0]["message"]) or case["errors"][0]["message"] in str(caught.value)

    # The oracle must agree wherever standard JSON Schema can state the failed checks.
    python_only = {"member_of", "compare"}
    oracle_errors = list(_oracle(fmt).iter_errors(case["data"]))
    if all(e.keyword in python_only for e in caught.value.errors):
        assert oracle_errors == [], "jsonschema rejects what only a non-exportable rule should catch"
    else:
        assert oracle_errors, "jsonschema accepts a payload the generated Python rejects"

"""The msgspec package (`msgspec = true`, issue 31's fastest path) gives the dataclass package's verdict and
messages on every document, and builds the same values.

Each text below is read by both packages: both accept it and the values agree (as JSON, every key and number
kind), or both raise ValidationError with the same problems in the same order. The texts are the seed formats'
examples, their mutations (every value made odd, every key removed or added, every bound's edges, the rules'
near misses), hostile texts (tests/hostile.py) and the places msgspec reads differently from the schema: date-times
msgspec's own parser would take (a space for the T, an offset without its colon, seven fraction digits),
integers written 1.0 or past 4,300 digits, free-form values past the depth limit, properties no field names. The
golden cases run the same way, each generated with the option on: the target either refuses the spec, naming
the file, the place and the fix, or agrees with the dataclass package on every document.
"""

from __future__ import annotations

import base64
import copy
import functools
import importlib
import json
import os
import re
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec
import pytest

import hostile
import mutations
from conftest import GOLDEN, ROOT, format_folders, generate_cached, golden_documents

MS_OUT = ROOT / "generated" / "msgspec"
if str(MS_OUT) not in sys.path:
    sys.path.insert(0, str(MS_OUT))

FORMATS = list(format_folders())

# Date-times around what the schema takes: msgspec's parser alone would take the first three.
DATE_TIMES = [
    "2024-01-15 10:30:00Z",
    "2024-01-15T10:30:00+0100",
    "2024-01-15T10:30:00.1234567Z",
    "2024-01-15t10:30:00z",
    "2024-01-15T10:30:00.9999999Z",
    "2024-02-29T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-01-15T23:59:60Z",
    "2024-01-15T10:30:00-00:00",
    "2024-01-15T10:30:00+24:00",
    "2024-01-15T10:30:00+23:59",
    "0000-01-01T00:00:00Z",
    "2024-01-15T10:30Z",
    "2024-01-15T10:30:00.Z",
    "\uff12024-01-15T10:30:00Z",
    "2024-01-15T10:30:00",
    "9999-12-31T23:59:59.999999-23:59",
]
# Integers the schema takes that msgspec reads otherwise, and ones at the dataclass package's digit limit.
NUMBERS = ["1.0", "1E2", "-0", "0.0", "1e400", "9" * 4300, "9" * 4301, "-" + "9" * 4300, "123456789012345678901234567890"]


def plain(value: Any) -> Any:
    """A msgspec package value as the dataclass package's to_dict writes its own: wire names, tags, optional
    fields left out when absent or null, then the properties no field names; date-times as their wire text."""
    if isinstance(value, msgspec.Struct):
        config = value.__struct_config__
        out: dict[str, Any] = {} if config.tag_field is None else {config.tag_field: config.tag}
        for f in msgspec.structs.fields(value):
            item = getattr(value, f.name)
            if item is msgspec.UNSET or (item is None and (f.default is msgspec.UNSET or f.default is None) and not f.required):
                continue  # absent, or null where no default stands in: to_dict leaves it out
            out[f.encode_name] = plain(item)
        out.update({k: plain(v) for k, v in getattr(value, "additional_properties", {}).items()})
        return out
    if isinstance(value, datetime):
        from chatformats import _runtime

        return _runtime.format_datetime(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def verdict(parse: Any, error: type[Exception], text: Any) -> tuple[str, Any]:
    try:
        return "accepted", parse(text)
    except error as exc:
        return "refused", [(e.path, e.message) for e in exc.errors]  # type: ignore[attr-defined]


def texts_for(fmt: str) -> list[Any]:
    folder = format_folders()[fmt]
    valid = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "examples" / "valid").glob("*.json"))]
    invalid = [json.loads(p.read_text(encoding="utf-8"))["data"] for p in sorted((folder / "examples" / "invalid").glob("*.json"))]
    edges = mutations.edges(json.loads((folder / "spec.json").read_text(encoding="utf-8")))
    docs = [*valid, *invalid, *(m for doc in valid for m in (*mutations.mutations(doc), *mutations.boundary_mutations(doc, edges)))]
    texts: list[Any] = [json.dumps(d) for d in docs]
    for doc in valid:
        texts += odd_texts(doc)
    texts += hostile.cases_for(folder, paths_per_doc=15)
    return texts


def odd_texts(doc: Any) -> list[str]:
    """The document with each date-time, integer and object changed where msgspec reads differently."""
    out: list[str] = []
    for path in mutations.paths(doc):
        value = mutations.get(doc, path)
        if isinstance(value, str) and mutations._instant(value) is not None:
            out += [json.dumps(mutations.replaced(doc, path, d)) for d in DATE_TIMES]
        elif isinstance(value, int) and not isinstance(value, bool):
            marker = "\u0000number\u0000"
            template = json.dumps(mutations.replaced(doc, path, marker))
            out += [template.replace(json.dumps(marker), n) for n in NUMBERS]
        elif isinstance(value, dict):
            extra = copy.deepcopy(value)
            extra["not_a_field"] = {"deep": functools.reduce(lambda inner, _: [inner], range(126), [])}
            out.append(json.dumps(mutations.replaced(doc, path, extra)))
            out.append(json.dumps(mutations.replaced(doc, path, {**value, "x": 1.0})))
        elif isinstance(value, list) and value:
            out.append(json.dumps(mutations.replaced(doc, path, [*value, *value])))
    return out


_UUID = re.compile(r'"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"')


def fresh_ids(written: str, text: Any) -> str:
    """The values with each UUID a default made (one the text does not hold) blanked: each package makes its own."""
    source = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return _UUID.sub(lambda m: m.group(0) if m.group(0)[1:-1] in source else '"<fresh uuid>"', written)


def compare(fast: Any, exact: Any, fmt: str, texts: list[Any]) -> list[str]:
    """Every text the two packages read differently, described."""
    from chatformats import _runtime

    read = getattr(fast, f"parse_{fmt}_from_json")
    check = getattr(exact, f"parse_{fmt}_from_json")
    found = []
    for text in texts:
        mine, theirs = verdict(read, exact.ValidationError, text), verdict(check, exact.ValidationError, text)
        if mine[0] == theirs[0] == "accepted":
            ours = fresh_ids(json.dumps(plain(mine[1]), sort_keys=True), text)
            expected = fresh_ids(json.dumps(json.loads(_runtime.dump_json(_runtime.dump(theirs[1]))), sort_keys=True), text)
            if ours != expected:
                found.append(f"{str(text)[:300]}: built {ours[:300]}, the dataclass package {expected[:300]}")
        elif mine != theirs:
            found.append(f"{str(text)[:300]}: {mine[0]} {str(mine[1])[:300]}, the dataclass package {theirs[0]} {str(theirs[1])[:300]}")
    return found


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_msgspec_package_gives_the_dataclass_packages_verdict_messages_and_values(fmt: str) -> None:
    # Every text (make conformance: 4,800 to 9,000 per format, two minutes of CPU in all); make test reads a sample.
    _compare_texts(fmt, texts_for(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_sample_of_the_texts_is_read_as_the_dataclass_package_reads_it(fmt: str) -> None:
    # The examples (the texts' head) and every eighth text after them.
    texts = texts_for(fmt)
    _compare_texts(fmt, texts[:SAMPLE_HEAD] + texts[SAMPLE_HEAD::8])


SAMPLE_HEAD = 60


def _compare_texts(fmt: str, texts: list[Any]) -> None:
    fast = importlib.import_module(f"chatformats_msgspec.{fmt}")
    exact = importlib.import_module(f"chatformats.{fmt}")
    assert len(texts) > 200
    found = compare(fast, exact, fmt, texts)
    assert not found, f"{len(found)} of {len(texts)} texts read otherwise:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("fmt", FORMATS)
def test_msgspec_reads_every_valid_example_itself(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The speed is msgspec's only where it vouches: no valid example of a seed format falls back to the
    dataclass package (a check that is never sure would pass the verdict tests and be as slow as that package)."""
    fast = importlib.import_module(f"chatformats_msgspec.{fmt}")
    fallbacks: list[Any] = []
    monkeypatch.setattr(fast._READER, "_exact", lambda text: fallbacks.append(text))
    folder = format_folders()[fmt]
    for path in sorted((folder / "examples" / "valid").glob("*.json")):
        getattr(fast, f"parse_{fmt}_from_json")(path.read_text(encoding="utf-8"))
    assert not fallbacks, f"fell back on {fallbacks[0][:200]}"


def test_a_document_msgspec_refuses_but_the_schema_takes_is_built_from_its_value() -> None:
    """An integer written 1.0 and an open model's property no field names: msgspec refuses both, the dataclass
    package takes them, and the Structs hold what it holds (the property in additional_properties)."""
    from chatformats_msgspec import structured_conversation as sc

    doc = json.loads((format_folders()["structured_conversation"] / "examples" / "valid").glob("*.json").__next__().read_text())
    doc["conversation"]["extra"] = {"kept": [1, 2.5]}
    built = sc.parse_structured_conversation_from_json(json.dumps(doc))
    assert built.conversation.additional_properties == {"extra": {"kept": [1, 2.5]}}
    assert built.additional_properties == {}
    from chatformats_msgspec import droidlet_chat as dc

    doc = json.loads((format_folders()["droidlet_chat"] / "examples" / "valid").glob("*.json").__next__().read_text())
    text = json.dumps(doc).replace(f'"timestamp": {doc["timestamp"]}', f'"timestamp": {doc["timestamp"]}.0')
    assert f'{doc["timestamp"]}.0' in text
    chat = dc.parse_droidlet_chat_from_json(text)
    assert chat.timestamp == doc["timestamp"] and type(chat.timestamp) is int


def test_the_generated_msgspec_package_passes_mypy_strict(tmp_path: Path) -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path), "-p", "chatformats_msgspec"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": f"{ROOT / 'generated' / 'python'}{os.pathsep}{MS_OUT}"},
    )
    assert checked.returncode == 0, checked.stdout[-3000:]


# --- the golden cases, each generated with the option on ---

_CHILD = r"""
import importlib, json, sys
import test_msgspec_package as t
sys.path.insert(0, sys.argv[1])  # the case's packages before the seed ones conftest put first
fmt = sys.argv[2]
fast = importlib.import_module(f"chatformats_msgspec.{fmt}")
exact = importlib.import_module(f"chatformats.{fmt}")
texts = json.load(sys.stdin)
print(json.dumps(t.compare(fast, exact, fmt, texts)))
"""

CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())


@functools.cache
def _golden_files(case: str) -> dict[str, str] | str:
    from generator.errors import SpecError
    from generator.load import load_spec
    from generator.options import Options

    try:
        return generate_cached([load_spec(GOLDEN / case, ROOT)], targets=["python", "msgspec"], options=Options(msgspec=True))
    except SpecError as exc:
        return str(exc)


@pytest.mark.parametrize("case", CASES)
def test_each_golden_case_is_refused_with_its_place_or_read_as_the_dataclass_package_reads_it(case: str, tmp_path: Path) -> None:
    files = _golden_files(case)
    if isinstance(files, str):
        assert f"tests/golden/{case}/spec.json" in files and " at /" in files, files
        assert "the msgspec package cannot read" in files and "msgspec = true" in files, files
        return
    for path, text in files.items():
        if path.startswith(("python/", "msgspec/")):
            (tmp_path / path.split("/", 1)[1]).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / path.split("/", 1)[1]).write_text(text, encoding="utf-8")
    fmt = next(p.stem for p in (tmp_path / "chatformats_msgspec").glob("*.py") if not p.name.startswith("_"))
    valid, invalid, changed = golden_documents(case)
    texts = [json.dumps(d) for d in (*valid, *invalid, *changed)] + [t for d in valid for t in odd_texts(d)]
    run = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tmp_path), fmt],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        cwd=ROOT / "tests",
        env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT / 'tests'}"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout)
    assert not found, f"{len(found)} of {len(texts)} texts read otherwise:\n" + "\n".join(found[:10])


def test_the_option_is_a_boolean_and_off_by_default(tmp_path: Path) -> None:
    from generator.options import load_options
    from generator.write import RefusedError

    assert load_options(tmp_path).msgspec is False
    (tmp_path / "pyproject.toml").write_text('[tool.chatspec]\nmsgspec = "yes"\n', encoding="utf-8")
    with pytest.raises(RefusedError, match=r"msgspec.*'yes', not true or false"):
        load_options(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.chatspec]\nmsgspec = true\n", encoding="utf-8")
    assert load_options(tmp_path).msgspec is True


def _spec(folder: Path, defs: dict[str, Any], root: str) -> Any:
    from generator.load import load_spec

    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "T", "description": "A spec of a test.",
                "x-version": "1.0.0", "$ref": f"#/$defs/{root}", "$defs": defs}
    (folder / "made").mkdir(parents=True, exist_ok=True)
    (folder / "made" / "spec.json").write_text(json.dumps(document), encoding="utf-8")
    return load_spec(folder / "made", folder)


def _compare_in_child(files: dict[str, str], folder: Path, texts: list[str]) -> list[str]:
    for path, text in files.items():
        if path.startswith(("python/", "msgspec/")):
            (folder / path.split("/", 1)[1]).parent.mkdir(parents=True, exist_ok=True)
            (folder / path.split("/", 1)[1]).write_text(text, encoding="utf-8")
    fmt = next(p.stem for p in (folder / "chatformats_msgspec").glob("*.py") if not p.name.startswith("_"))
    run = subprocess.run([sys.executable, "-c", _CHILD, str(folder), fmt], input=json.dumps(texts), capture_output=True, text=True,
                         cwd=ROOT / "tests", env={**os.environ, "PYTHONPATH": f"{folder}{os.pathsep}{ROOT / 'tests'}"})
    assert run.returncode == 0, run.stderr[-3000:]
    return list(json.loads(run.stdout))


def test_a_root_that_is_no_model_has_the_rules_of_the_models_it_holds_checked(tmp_path: Path) -> None:
    # A root array of models with a rule: the check starts at the root whatever it is (a model root alone was
    # checked at first, so an item breaking its rule was accepted).
    from generator.core import generate
    from generator.options import Options

    item = {"type": "object", "description": "An item.", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "x-rules": [{"kind": "at_least_one_of", "fields": ["a", "b"], "message": "give a or b"}]}
    spec = _spec(tmp_path / "spec", {"Items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "description": "Items."}, "Item": item},
                 "Items")
    files = generate([spec], targets=["python", "msgspec"], options=Options(msgspec=True))
    texts = ['[{"a": "x"}]', "[{}]", '[{"a": "x"}, {"c": 1}]', '[{"b": "y", "c": null}]', "[]"]
    assert _compare_in_child(files, tmp_path / "out", texts) == []


@pytest.mark.parametrize(("defs", "refused"), [
    ({"Node": {"type": "object", "description": "A tree.", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
     "Node: the msgspec package cannot read a recursive definition"),
    # A definition holding itself but through no model is lowered as a schema applied as written: refused as such.
    ({"Node": {"type": "object", "description": "A holder.", "properties": {"v": {"$ref": "#/$defs/Value"}}},
      "Value": {"description": "Nested lists.", "type": "array", "items": {"$ref": "#/$defs/Value"}}},
     "Value: the msgspec package cannot read a schema applied as written"),
])
def test_a_definition_that_holds_itself_is_refused_with_its_place(tmp_path: Path, defs: dict[str, Any], refused: str) -> None:
    # msgspec reads deeper than the dataclass package's depth limit, so a recursive format could be read otherwise.
    from generator.core import generate
    from generator.errors import SpecError
    from generator.options import Options

    with pytest.raises(SpecError, match=re.escape(f"made/spec.json: at /$defs/{refused}")):
        generate([_spec(tmp_path, defs, "Node")], targets=["msgspec"], options=Options(msgspec=True))


# What a red team found the target read otherwise (each case failed before its fix): a const or enum whose other
# keywords were dropped, an integer of an enum written 1.0 (built as a float, or a crash in a union), a number bound
# a double cannot hold (msgspec rounded it outward; lower now applies such a schema as written, which the target
# refuses, and these are the largest typed ones), a rule's when-field read as a date-time or bytes.
_F = "f"
ONE_FIELD_CASES = [
    ({"type": "string", "enum": ["a", "bb"], "minLength": 2}, ['"a"', '"bb"', '"c"']),
    ({"type": "integer", "enum": [1, 2, 3], "minimum": 2}, ["1", "2", "3", "2.0", "1.0"]),
    ({"type": "integer", "enum": [3, 4], "multipleOf": 2}, ["3", "4", "4.0"]),
    ({"type": "integer", "enum": [0, 1, 2]}, ["1.0", "-0.0", "0.0", "1E0", "3", "true"]),
    ({"type": "array", "items": {"type": "integer", "enum": [1, 2]}}, ["[1.0, 2]", "[2, 2.0]", "[3.0]"]),
    ({"anyOf": [{"type": "integer", "enum": [1, 2]}, {"type": "null"}]}, ["1.0", "null", "2", "3.0"]),
    ({"oneOf": [{"type": "integer", "enum": [1, 2]}, {"type": "string"}]}, ["1.0", '"1"', "2"]),
    ({"type": "number", "maximum": 9007199254740991}, ["9007199254740992.0", "9.007199254740991e15", "9007199254740991", "9007199254740990.0"]),
    ({"type": "number", "minimum": -9007199254740991}, ["-9007199254740992.0", "-9007199254740991", "-9007199254740990.0"]),
    ({"type": "number", "exclusiveMinimum": 9007199254740991}, ["9007199254740992.0", "9007199254740990.0", "9007199254740992"]),
    ({"type": "integer", "maximum": 9223372036854775807}, ["9223372036854775807", "9223372036854775808", "9.223372036854775807e18"]),
]


@pytest.mark.parametrize(("schema", "values"), ONE_FIELD_CASES, ids=[json.dumps(c[0])[:60] for c in ONE_FIELD_CASES])
def test_a_field_the_red_team_read_otherwise_is_read_as_the_dataclass_package_reads_it(
        tmp_path: Path, schema: dict[str, Any], values: list[str]) -> None:
    from generator.core import generate
    from generator.options import Options

    model = {"type": "object", "description": "M.", "additionalProperties": False, "properties": {_F: schema}}
    files = generate([_spec(tmp_path / "spec", {"M": model}, "M")], targets=["python", "msgspec"], options=Options(msgspec=True))
    texts = [f'{{"{_F}": {v}}}' for v in values]
    assert _compare_in_child(files, tmp_path / "out", texts) == []


@pytest.mark.parametrize("schema", [{"type": "string", "const": "abc", "maxLength": 2}, {"type": "integer", "const": 3, "exclusiveMaximum": 3},
                                    {"type": "string", "enum": ["a", "bb"], "pattern": "b"}])
def test_a_const_or_enum_the_other_keywords_leave_nothing_of_or_with_a_pattern_is_refused(tmp_path: Path, schema: dict[str, Any]) -> None:
    from generator.core import generate
    from generator.errors import SpecError
    from generator.options import Options

    model = {"type": "object", "description": "M.", "properties": {_F: schema}}
    with pytest.raises(SpecError, match=r"at /\$defs/M/properties/f: the msgspec package cannot read a (string|number) type no value|with a pattern"):
        generate([_spec(tmp_path, {"M": model}, "M")], targets=["msgspec"], options=Options(msgspec=True))


WHEN_CASES = [
    ({"w": {"type": "string", "format": "date-time"}, "why": {"type": "string"}},
     {"kind": "required_when", "field": "why", "when": {"field": "w", "equals": "2024-01-01T00:00:00Z"}, "message": "why needed"},
     ['{"w": "2024-01-01T00:00:00Z"}', '{"w": "2024-01-01T00:00:00z"}', '{"w": "2024-01-01T00:00:00Z", "why": "x"}', "{}"]),
    ({"w": {"type": ["string", "null"], "format": "date-time"}, "why": {"type": "string"}},
     {"kind": "required_when", "field": "why", "when": {"field": "w", "equals": "2024-01-01T00:00:00Z"}, "message": "why needed"},
     ['{"w": "2024-01-01T00:00:00Z"}', '{"w": null}', "{}"]),
    ({"w": {"type": "string", "contentEncoding": "base64"}, "why": {"type": "string"}},
     {"kind": "required_when", "field": "why", "when": {"field": "w", "equals": "YQ=="}, "message": "why needed"},
     ['{"w": "YQ=="}', '{"w": "YR=="}', '{"w": "YQ==", "why": "x"}']),
    ({"at": {"type": "string", "format": "date-time"},
      "items": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}}},
     {"kind": "allowed_when", "field": "items", "when": {"field": "at", "equals": "2024-01-01T00:00:00Z"}, "each": "/k", "allowed": ["a"],
      "message": "only a"},
     ['{"at": "2024-01-01T00:00:00Z", "items": [{"k": "b"}]}', '{"at": "2024-01-01T00:00:00Z", "items": [{"k": "a"}, {}]}',
      '{"items": [{"k": "b"}]}']),
]


@pytest.mark.parametrize(("properties", "rule", "texts"), WHEN_CASES, ids=["date-time", "nullable date-time", "base64", "allowed_when"])
def test_a_rule_whose_when_field_is_a_date_time_or_bytes_reads_the_documents_text(
        tmp_path: Path, properties: dict[str, Any], rule: dict[str, Any], texts: list[str]) -> None:
    from generator.core import generate
    from generator.options import Options

    model = {"type": "object", "description": "M.", "properties": properties, "x-rules": [rule]}
    files = generate([_spec(tmp_path / "spec", {"M": model}, "M")], targets=["python", "msgspec"], options=Options(msgspec=True))
    assert _compare_in_child(files, tmp_path / "out", texts) == []


# The second round: a variant's tag field with other keywords (msgspec checks a tag only by choosing the variant),
# a number const (the dataclass package keeps 1.0 a float), a union msgspec cannot build or a definition named like
# the module's own names (refused only by the examples' run, with no place, and a module that would not import).
REFUSED_SPECS = [
    ({"A": {"type": "object", "description": "A.", "properties": {"k": {"type": "string", "const": "a", "maxLength": 0}}, "required": ["k"]},
      "B": {"type": "object", "description": "B.", "properties": {"k": {"type": "string", "const": "b"}}, "required": ["k"]},
      "M": {"type": "object", "description": "M.", "properties": {"u": {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "x-discriminator": "k"}}}},
     "/$defs/A/properties/k: the msgspec package cannot read a union's tag field with keywords beside its value"),
    ({"M": {"type": "object", "description": "M.", "properties": {"f": {"type": "number", "const": 1}}}},
     "/$defs/M/properties/f: the msgspec package cannot read a const or enum of type number"),
    ({"M": {"type": "object", "description": "M.", "properties": {"f": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "integer"}]}}}},
     "/$defs/M/properties/f: the msgspec package cannot read a date-time in a union with other kinds than null"),
    # msgspec reads a tagged Struct met outside its union with the tag optional ({"x": 1} would pass for A).
    ({"A": {"type": "object", "description": "A.", "properties": {"k": {"type": "string", "const": "a"}, "x": {"type": "integer"}}, "required": ["k"]},
      "B": {"type": "object", "description": "B.", "properties": {"k": {"type": "string", "const": "b"}}, "required": ["k"]},
      "M": {"type": "object", "description": "M.", "properties": {"u": {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "x-discriminator": "k"},
                                                                    "a": {"$ref": "#/$defs/A"}}}},
     "/$defs/M: the msgspec package cannot read the model A outside its tagged union"),
    ({"M": {"type": "object", "description": "M.", "properties": {"f": {"$ref": "#/$defs/Meta"}}},
      "Meta": {"type": "object", "description": "A model named like msgspec's Meta.", "properties": {"n": {"type": "integer"}}}},
     "/$defs/Meta: the msgspec package cannot read a definition named Meta"),
]


@pytest.mark.parametrize(("defs", "refused"), REFUSED_SPECS, ids=["tag keywords", "number const", "date-time union", "variant outside its union", "named Meta"])
def test_a_spec_the_second_red_team_broke_is_refused_with_its_place(tmp_path: Path, defs: dict[str, Any], refused: str) -> None:
    from generator.core import generate
    from generator.errors import SpecError
    from generator.options import Options

    with pytest.raises(SpecError, match=re.escape(f"made/spec.json: at {refused}")):
        generate([_spec(tmp_path, defs, "M")], targets=["msgspec"], options=Options(msgspec=True))


def test_a_nullable_free_form_field_is_built_when_the_document_falls_back(tmp_path: Path) -> None:
    # An open model's unknown property, or an integer written 1.0, sends the document to the dataclass package; the
    # Structs are then built from its value, and a free-form member of a union had no case there (AssertionError).
    from generator.core import generate
    from generator.options import Options

    model = {"type": "object", "description": "M.", "properties": {"f": {"anyOf": [{}, {"type": "null"}]}, "n": {"type": "integer"},
                                                                    "l": {"type": "array", "items": {"anyOf": [{}, {"type": "null"}]}}}}
    files = generate([_spec(tmp_path / "spec", {"M": model}, "M")], targets=["python", "msgspec"], options=Options(msgspec=True))
    texts = ['{"f": {"a": 1}, "zz": 1}', '{"f": [1], "n": 1.0}', '{"f": "s", "n": 1.0}', '{"f": true, "n": 1.0}', '{"f": null, "n": 1.0}',
             '{"l": [1, null, {"b": []}], "n": 1.0}', '{"f": {"a": 1}}']
    assert _compare_in_child(files, tmp_path / "out", texts) == []


# The third round: names and shapes that broke generation (none read a document otherwise).
def _model(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "description": "M.", "properties": properties, **more}


_RULE = {"x-rules": [{"kind": "at_least_one_of", "fields": ["a", "b"], "message": "give a or b"}]}
_LAST = _model({"a": {"type": "string"}, "b": {"type": "string"}}, **_RULE)


def _chain(n: int, link: Any) -> dict[str, Any]:
    defs = {f"N{i}": _model({"a": link(f"#/$defs/N{i + 1}")}) for i in range(n)}
    return {**defs, f"N{n}": _LAST}


@pytest.mark.parametrize(("defs", "refused"), [
    (_chain(21, lambda ref: {"type": "array", "items": {"$ref": ref}}), "a format nested too deep for its checks written out (21 loops"),
    (_chain(49, lambda ref: {"anyOf": [{"$ref": ref}, {"type": "null"}]}), "a format nested too deep for its checks written out"),
    # Each model holds the next twice: written out, 2^22 copies of the last one's rule (it took minutes and gigabytes).
    ({**{f"N{i}": _model({"a": {"$ref": f"#/$defs/N{i + 1}"}, "b": {"$ref": f"#/$defs/N{i + 1}"}}) for i in range(22)}, "N22": _LAST},
     "a format whose checks would write its models out more than 1000 times"),
], ids=["21 lists", "49 nullables", "a tree of 2^22"])
def test_a_format_whose_checks_would_not_compile_or_grow_without_bound_is_refused_at_its_root(
        tmp_path: Path, defs: dict[str, Any], refused: str) -> None:
    from generator.core import generate
    from generator.errors import SpecError
    from generator.options import Options

    with pytest.raises(SpecError, match=re.escape(f"made/spec.json: at /$defs/N0: the msgspec package cannot read {refused}")):
        generate([_spec(tmp_path, defs, "N0")], targets=["msgspec"], options=Options(msgspec=True))


def test_a_field_named_msgspec_and_enums_spelling_each_others_names_are_read(tmp_path: Path) -> None:
    # A field the class body binds as `msgspec` hid the module from the next field's default; an enum whose value is
    # another definition's name read as an alias naming it.
    from generator.core import generate
    from generator.options import Options

    defs = {"M": _model({"msgspec": {"type": "string"}, "Other-Name": {"type": "string"}, "UNSET": {"type": "string", "default": "x"},
                         "later": {"type": "string"}, "r": {"$ref": "#/$defs/Role"}, "m": {"$ref": "#/$defs/Mode"}}),
            "Role": {"type": "string", "enum": ["Mode"], "description": "R."}, "Mode": {"type": "string", "enum": ["Role"], "description": "M."}}
    files = generate([_spec(tmp_path / "spec", defs, "M")], targets=["python", "msgspec"], options=Options(msgspec=True))
    texts = ['{"msgspec": "a", "Other-Name": "b"}', '{"r": "Mode", "m": "Role"}', '{"r": "Role"}', "{}", '{"UNSET": "y"}']
    assert _compare_in_child(files, tmp_path / "out", texts) == []


def test_a_chain_of_models_past_the_depth_limit_is_refused_before_python_runs_out_of_stack(tmp_path: Path) -> None:
    # 600 models each holding the next: the walk that refuses recursion recursed 600 deep (a RecursionError).
    from generator.core import generate
    from generator.errors import SpecError
    from generator.options import Options

    with pytest.raises(SpecError, match=re.escape("at /$defs/N0: the msgspec package cannot read a format nested nearly as deep")):
        generate([_spec(tmp_path, _chain(600, lambda ref: {"$ref": ref}), "N0")], targets=["msgspec"], options=Options(msgspec=True))


@pytest.mark.parametrize("title", ["Agent C Chat Event", 'A "quoted" title', "t" * 120, "Spelt chatspecversionz"])
@pytest.mark.parametrize("version", ["1.0.0", "12.345.6789"])
def test_the_module_is_the_same_with_its_version_stood_in_for_and_put_back(title: str, version: str) -> None:
    # A version bump follows every edit of a spec: the module is formatted with the version stood in for, so that
    # black, remembered by that text, has nothing new to format after a bump (and a run need not import it).
    import dataclasses

    from generator import standins
    from generator.core import context
    from generator.load import load_spec
    from generator.lower import lower
    from generator.pyformat import _black
    from generator.targets.msgspec import module

    spec = load_spec(format_folders()["chat_event"], ROOT)
    fmt = dataclasses.replace(lower(spec), title=title, version=version)
    names = context([spec], (fmt,), described=False).names["python"][fmt.id]
    built = module.MsgspecModule(fmt, names, "chatformats")
    real = _black(built.code(version))
    restored = standins.put_back(_black(built.code(standins.VERSION)), [], module._VERSION_LINES, version=version)
    if '"' not in title and standins.VERSION not in title:
        assert restored is not None, "the version's stand-in is only where black does not format it by its content"
    if restored is not None:
        assert restored == real
    assert built.module() == real

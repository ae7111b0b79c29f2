"""Version locks and change classification: the matrix of cases, and the lock as a user meets it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import MATRIX, MATRIX_CASES, ROOT, edit_spec, matrix_format, read_tree, run_chatspec
from generator.classify import LEVELS, allowed_level, bump, classify, ir_differences, level_between, needed_version, required_level
from generator.history import check_locked
from generator.load import LoadedSpec, check_document, load_spec
from generator.lower import lower

CASES = MATRIX_CASES
_format = matrix_format


def test_the_matrix_covers_every_rule() -> None:
    assert len(CASES) >= 25
    levels = {json.loads((MATRIX / c / "expected.json").read_text())["level"] for c in CASES}
    assert levels == {"major", "minor", "patch", None}


@pytest.mark.parametrize("case", CASES)
def test_change_classification(case: str) -> None:
    expected = json.loads((MATRIX / case / "expected.json").read_text(encoding="utf-8"))
    changes = classify(_format(MATRIX / case / "previous.json"), _format(MATRIX / case / "current.json"))  # type: ignore[arg-type]
    assert [str(c) for c in changes] == expected["changes"]
    assert required_level(changes) == expected["level"]
    # How each change moves the messages the format accepts (tests/test_compatibility.py holds it to jsonschema).
    assert [c.wire for c in changes] == expected["wire"]
    # The version the changes need after each version the case names (0.x: semantic versioning's rule).
    for latest, needed in expected.get("needs", {}).items():
        assert needed_version(latest, expected["level"]) == needed, (latest, needed)
        allowed = allowed_level(latest, needed)
        assert allowed is not None and LEVELS.index(allowed) >= LEVELS.index(expected["level"]), (latest, needed)


@pytest.mark.parametrize(("case", "readers"), [
    ("optional_field_added", "old readers keep it as an additional property"),
    ("required_field_added", "old readers keep it as an additional property"),
    ("field_removed", "new readers keep it as an additional property"),
    ("closed_model_optional_field_added", ""),
    ("closed_model_required_field_added", ""),
    ("closed_model_field_removed", ""),
])
def test_the_classification_says_what_readers_of_an_open_model_keep(case: str, readers: str) -> None:
    # A field added to or removed from an open model is kept by the readers of the version without it (chatspec
    # diff's forward or backward verdict says so); a closed model's readers refuse it.
    [change] = classify(_format(MATRIX / case / "previous.json"), _format(MATRIX / case / "current.json"))  # type: ignore[arg-type]
    assert change.readers == readers


def test_some_matrix_cases_name_the_version_their_changes_need_at_1_x_and_at_0_x() -> None:
    needs = [json.loads((MATRIX / c / "expected.json").read_text()).get("needs", {}) for c in CASES]
    assert {"major", "minor", "patch"} <= {json.loads((MATRIX / c / "expected.json").read_text())["level"] for c, n in zip(CASES, needs) if n}
    assert any(v.startswith("0.") for n in needs for v in n) and any(not v.startswith("0.") for n in needs for v in n)


@pytest.mark.parametrize("case", CASES)
def test_the_ir_comparison_under_classify_finds_a_difference_in_each_matrix_case_that_changes_something(case: str) -> None:
    # ir_differences is the safety net under classify() (a difference classify does not name is refused as
    # unclassified): it must see every change the matrix makes, and nothing where the layout alone changed.
    expected = json.loads((MATRIX / case / "expected.json").read_text(encoding="utf-8"))
    found = ir_differences(_format(MATRIX / case / "previous.json"), _format(MATRIX / case / "current.json"))  # type: ignore[arg-type]
    assert bool(found) == bool(expected["changes"]), found
    places = {
        "min_length_tightened": ['/definitions/Item/fields/id/type/messages/minLength: "must be at least 1 character(s) long" -> '
                                 '"must be at least 3 character(s) long"', "/definitions/Item/fields/id/type/min_length: 1 -> 3"],
        "field_removed": ["/definitions/Item/fields/note: removed"],
        "optional_field_added": ["/definitions/Item/fields/owner: added"],
        "tuple_length_changed": ["/definitions/Item/fields/pair/type/items: 2 -> 3 items",
                                 '/definitions/Item/fields/pair/type/messages/prefixItems: "must be an array of exactly 2 items" -> '
                                 '"must be an array of exactly 3 items"'],
    }
    if case in places:
        assert found == places[case]


def test_version_arithmetic() -> None:
    assert [bump("1.2.3", lvl) for lvl in ("patch", "minor", "major")] == ["1.2.4", "1.3.0", "2.0.0"]
    assert level_between("1.2.3", "1.2.4") == "patch" and level_between("1.2.3", "1.10.0") == "minor"
    assert level_between("1.2.3", "2.0.0") == "major" and level_between("1.2.3", "1.2.3") is None
    # 0.x: a minor bump may break, a patch bump may add; 1.0.0 is a major bump like any other.
    assert [needed_version("0.2.3", lvl) for lvl in ("patch", "minor", "major")] == ["0.2.4", "0.2.4", "0.3.0"]
    assert [allowed_level("0.2.3", v) for v in ("0.2.4", "0.3.0", "1.0.0", "0.2.3", "0.1.9")] == ["minor", "major", "major", None, None]
    assert [allowed_level("1.2.3", v) for v in ("1.2.4", "1.3.0", "2.0.0")] == ["patch", "minor", "major"]


def _chatspec(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_chatspec(root, *args)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    assert _chatspec(tmp_path, "generate").returncode == 0
    return tmp_path


_edit = edit_spec


def test_dropping_a_field_under_a_minor_bump_is_refused_naming_it(project: Path) -> None:
    # output_format: a field the behaviour does not read (dropping one it reads is refused first,
    # naming the behaviour's manifest: tests/test_behaviour.py).
    def drop(d: dict) -> None:  # type: ignore[type-arg]
        del d["$defs"]["ChatEvent"]["properties"]["output_format"]
        d["x-version"] = "1.1.0"
    _edit(project, "chat_event", drop)
    for example in (project / "specs" / "chat_event" / "examples" / "valid").glob("*.json"):
        data = json.loads(example.read_text())
        data.pop("output_format", None)
        example.write_text(json.dumps(data))
    done = _chatspec(project, "generate")
    assert done.returncode == 2
    assert ("specs/chat_event/spec.json: at /x-version: x-version 1.1.0 is a minor bump, "
            "but the change is major: field removed: ChatEvent.output_format") in done.stderr
    assert "it must move to 2.0.0" in done.stderr
    refused = _chatspec(project, "bump", "chat_event", "--to", "minor")
    assert refused.returncode == 2 and "refused" in refused.stderr and "ChatEvent.output_format" in refused.stderr
    # The author's own 1.1.0 is refused the same way; asking for the major bump locks 2.0.0.
    kept = _chatspec(project, "bump", "chat_event")
    assert kept.returncode == 2 and "use 2.0.0" in kept.stderr
    done = _chatspec(project, "bump", "chat_event", "--to", "major")
    assert done.returncode == 0 and "locked 2.0.0 (major change)" in done.stdout, done.stderr
    assert _chatspec(project, "check").returncode == 1  # generated/ now lags the new major


def test_bump_locks_snapshots_and_feeds_the_changelog(project: Path) -> None:
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer", "description": "New."}))
    done = _chatspec(project, "bump", "chat_event")
    assert done.returncode == 0 and "locked 1.1.0 (minor change)" in done.stdout, done.stderr
    lock = json.loads((project / "specs" / "chat_event" / "history" / "lock.json").read_text())
    assert [r["version"] for r in lock["releases"]] == ["1.0.0", "1.1.0"]
    assert lock["releases"][1]["changes"] == ["minor: optional field added: Message.weight"]
    assert (project / "specs" / "chat_event" / "history" / "1.1.0" / "spec.json").is_file()
    assert (project / "specs" / "chat_event" / "history" / "1.1.0" / "examples" / "valid").is_dir()
    # The staging folder goes with the run that made it: nothing is left beside the spec.
    assert sorted(p.name for p in (project / "specs" / "chat_event").iterdir() if p.name.startswith(".")) == []
    assert _chatspec(project, "generate").returncode == 0
    page = (project / "generated" / "docs" / "chat_event.md").read_text()
    # chat_event's Message is closed: the field widens the format (tests/test_compatibility.py has the verdicts).
    assert "**1.1.0** (minor):\n\n- minor: optional field added: <code>Message.<wbr>weight</code> — backward compatible, breaks forward\n" in page
    diff = _chatspec(project, "diff", "chat_event", "--against", "1.0.0")
    assert "needs a minor bump" in diff.stdout and "optional field added: Message.weight" in diff.stdout


def test_a_bump_leaves_the_staging_folder_of_a_run_still_alive_alone(project: Path) -> None:
    # Another bump of the same format, still running (this test's own process stands in for it), keeps its
    # staging folder; a folder of no run's name is left alone too.
    stage = project / "specs" / "chat_event" / ".chatspec-tmp"
    (stage / str(os.getpid())).mkdir(parents=True)
    (stage / str(os.getpid()) / "spec.json").write_text("{}", encoding="utf-8")
    (stage / "notes").mkdir()
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer", "description": "New."}))
    done = _chatspec(project, "bump", "chat_event")
    assert done.returncode == 0, done.stderr
    assert (stage / str(os.getpid()) / "spec.json").is_file() and (stage / "notes").is_dir()


def test_a_spec_without_a_lock_is_refused(project: Path) -> None:
    shutil.rmtree(project / "specs" / "chat_event" / "history")
    done = _chatspec(project, "check")
    assert done.returncode == 2 and "version 1.0.0 is not locked" in done.stderr and "make bump FORMAT=chat_event" in done.stderr


def test_reformatting_a_spec_needs_no_bump(project: Path) -> None:
    path = project / "specs" / "structured_conversation" / "spec.json"
    path.write_text(json.dumps(json.loads(path.read_text()), indent=4))
    assert _chatspec(project, "check").returncode == 0
    # Reordering keys changes no meaning (no bump) but does change field order in the output,
    # and with it the order of errors, so an invalid example listing two errors is refused.
    path.write_text(json.dumps(json.loads(path.read_text()), indent=4, sort_keys=True))
    done = _chatspec(project, "check")
    assert done.returncode == 2 and "x-version" not in done.stderr
    assert "examples/invalid/" in done.stderr and "but in another order" in done.stderr


def test_earlier_majors_are_generated_side_by_side() -> None:
    from chatformats import FORMATS, droidlet_chat, droidlet_chat_v1

    assert FORMATS["droidlet_chat"].startswith("2.") and FORMATS["droidlet_chat_v1"] == "1.0.0"
    assert droidlet_chat.VERSION.startswith("2.") and droidlet_chat_v1.VERSION == "1.0.0"
    generated = ROOT / "generated"
    for path in ("go/droidletchatv1/droidletchatv1.go", "docs/droidlet_chat_v1.md", "jsonschema/droidlet_chat_v1.schema.json"):
        assert (generated / path).is_file(), path


def test_upgrade_from_v1_reads_seconds_as_milliseconds_and_validates() -> None:
    from chatformats import droidlet_chat, droidlet_chat_v1

    chat = droidlet_chat_v1.DroidletChat(speaker_id="a", timestamp=1618000000, content_type=["chat_string"], content=[("text", "hi")])
    assert droidlet_chat.upgrade_from_v1(chat).timestamp == 1618000000000
    chat.timestamp = 1618000000123
    assert droidlet_chat.upgrade_from_v1(chat).timestamp == 1618000000123
    chat.timestamp = -5
    with pytest.raises(droidlet_chat.ValidationError) as caught:
        droidlet_chat.upgrade_from_v1(chat)
    assert [(e.path, e.message) for e in caught.value.errors] == [("/timestamp", "must be >= 0")]


# --- Every keyword the meta-schema accepts reaches the IR, and the lock sees its change ---------

META = json.loads((ROOT / "generator" / "metaschema" / "chatspec.schema.json").read_text(encoding="utf-8"))
SAMPLE = json.loads((MATRIX / "type_changed" / "previous.json").read_text(encoding="utf-8"))


def _accepted_keywords() -> set[str]:
    """Every keyword a spec may write, read from the meta-schema itself (so a new one shows up here)."""
    defs = META["$defs"]
    rule_keys = {k for branch in defs["rule"]["oneOf"] for k in branch["properties"]}
    return ({f"top/{k}" for k in META["properties"]} | {f"schema/{k}" for k in defs["schema"]["properties"]}
            | {f"rule/{k}" for k in rule_keys} | {f"when/{k}" for k in defs["when"]["properties"]}
            | {f"x-messages/{k}" for k in defs["messages"]["propertyNames"]["enum"]})


def _item(d: dict) -> dict:  # type: ignore[type-arg]
    return d["$defs"]["Item"]


def _props(d: dict) -> dict:  # type: ignore[type-arg]
    return d["$defs"]["Item"]["properties"]


def _add(name: str, schema: dict):  # type: ignore[no-untyped-def,type-arg]
    return lambda d: _props(d).__setitem__(name, schema)


def _rule(rule: dict):  # type: ignore[no-untyped-def,type-arg]
    return lambda d: _item(d).__setitem__("x-rules", [rule])


def _set(path: str, value: object):  # type: ignore[no-untyped-def]
    """An edit that sets the value at a slash path under $defs, e.g. "Item/properties/id/minLength"."""
    def edit(d: dict) -> None:  # type: ignore[type-arg]
        *parents, last = path.split("/")
        node = d["$defs"]
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
        node[last] = value
    return edit


def _both(*edits):  # type: ignore[no-untyped-def]
    def edit(d: dict) -> None:  # type: ignore[type-arg]
        for e in edits:
            e(d)
    return edit


_TUPLE = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "items": False, "minItems": 2, "maxItems": 2}
_TAGGED = _both(
    _set("A", {"type": "object", "properties": {"t": {"type": "string", "const": "a"}, "u": {"type": "string", "const": "x"}}, "required": ["t", "u"]}),
    _set("B", {"type": "object", "properties": {"t": {"type": "string", "const": "b"}, "u": {"type": "string", "const": "y"}}, "required": ["t", "u"]}),
    _set("Tagged", {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "x-discriminator": "t"}),
    _add("tagged", {"$ref": "#/$defs/Tagged"}),
)
_MEMBER = _both(_add("people", {"type": "array", "items": {"type": "string"}}), _add("user", {"type": "string"}),
                _rule({"kind": "member_of", "field": "user", "in": "0/people", "message": "user must be in people"}))
_CONTAINS = _rule({"kind": "contains", "field": "tags", "each": "", "equals": "x", "message": "tags must hold x"})
_COMPARE = _both(_add("limit", {"type": "integer"}), _add("floor", {"type": "number"}),
                 _rule({"kind": "compare", "field": "count", "op": "<=", "other": "limit", "message": "count must not pass limit"}))
_REQUIRED_WHEN = _rule({"kind": "required_when", "field": "note", "when": {"field": "kind", "equals": "a"}, "message": "note is required"})


def _message(key: str, where: str, setup=None):  # type: ignore[no-untyped-def]
    return (setup, _set(f"{where}/x-messages/{key}", f"custom {key} message"))


# keyword -> (setup making a spec that uses the construct, or None; the edit of that keyword alone)
PROBES = {
    "top/$schema": None,  # a const: there is no other value to change it to
    "top/title": (None, lambda d: d.__setitem__("title", "Other")),
    "top/description": (None, lambda d: d.__setitem__("description", "Other.")),
    "top/x-version": (None, lambda d: d.__setitem__("x-version", "1.0.1")),
    "top/x-decisions": (None, lambda d: d.__setitem__("x-decisions", ["Another decision."])),
    "top/x-compatibility": (None, lambda d: d.__setitem__("x-compatibility", "backward")),
    "top/x-open": (None, lambda d: d.__setitem__("x-open", True)),
    "top/x-source": (None, lambda d: d.__setitem__("x-source", {"file": "upstream.json", "pointer": "#", "version": "2", "id": "urn:x"})),
    "top/$ref": (_set("Other", {"type": "object", "properties": {"x": {"type": "string"}}}), lambda d: d.__setitem__("$ref", "#/$defs/Other")),
    "top/$defs": (None, _set("Other", {"type": "object", "properties": {"x": {"type": "string"}}})),
    "schema/$ref": (None, _add("kind", {"$ref": "#/$defs/Body"})),
    "schema/title": (None, _set("Item/title", "An item")),
    "schema/description": (None, _set("Item/properties/id/description", "Another id.")),
    "schema/default": (None, _set("Item/properties/count/default", 1)),
    "schema/type": (None, _set("Item/properties/note/type", "integer")),
    "schema/enum": (None, _set("Item/properties/note/enum", ["p", "q"])),
    "schema/const": (None, _set("Item/properties/note/const", "c")),
    "schema/properties": (None, _add("extra", {"type": "string"})),
    "schema/required": (None, _set("Item/required", ["id", "kind", "note"])),
    "schema/additionalProperties": (None, _set("Item/additionalProperties", False)),
    "schema/items": (None, _set("Item/properties/tags/items", {"type": "integer"})),
    "schema/prefixItems": (_add("pair", dict(_TUPLE)), _set("Item/properties/pair/prefixItems", [{"type": "string"}, {"type": "integer"}])),
    "schema/minItems": (None, _set("Item/properties/tags/minItems", 1)),
    "schema/maxItems": (None, _set("Item/properties/tags/maxItems", 6)),
    "schema/uniqueItems": (None, _set("Item/properties/tags/uniqueItems", True)),
    "schema/minLength": (None, _set("Item/properties/id/minLength", 2)),
    "schema/maxLength": (None, _set("Item/properties/id/maxLength", 9)),
    "schema/pattern": (None, _set("Item/properties/id/pattern", "^a")),
    "schema/format": (None, _set("Item/properties/note/format", "date-time")),
    "schema/contentEncoding": (None, _set("Item/properties/note/contentEncoding", "base64")),
    "schema/minimum": (None, _set("Item/properties/count/minimum", 1)),
    "schema/maximum": (None, _set("Item/properties/count/maximum", 9)),
    "schema/exclusiveMinimum": (None, _set("Item/properties/count/exclusiveMinimum", -1)),
    "schema/exclusiveMaximum": (None, _set("Item/properties/count/exclusiveMaximum", 9)),
    "schema/multipleOf": (None, _set("Item/properties/count/multipleOf", 5)),
    "schema/oneOf": (None, _set("Body/oneOf", [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "integer"}])),
    "schema/anyOf": (None, _add("note", {"anyOf": [{"type": "string"}, {"type": "null"}]})),
    "schema/x-messages": (None, _set("Item/properties/id/x-messages", {"minLength": "say something"})),
    "schema/x-known-values": (None, _set("Item/properties/note/x-known-values", ["a"])),
    "schema/x-enum-descriptions": (None, _set("Kind/x-enum-descriptions/a", "The first.")),
    "schema/x-default-factory": (None, _set("Item/properties/note/x-default-factory", "uuid4")),
    "schema/x-discriminator": (_TAGGED, _set("Tagged/x-discriminator", "u")),
    "schema/x-name": (None, _set("Item/properties/id/x-name", "ident")),
    "schema/x-rules": (None, _set("Item/x-rules", [])),
    "schema/x-open": (None, _set("Kind/x-open", True)),
    "rule/kind": (None, _CONTAINS),
    "rule/message": (None, _set("Item/x-rules/0/message", "another message")),
    "rule/field": (_add("labels", {"type": "array", "items": {"type": "string"}}), _set("Item/x-rules/0/field", "labels")),
    "rule/after": (None, _set("Item/x-rules/0/after", "tags")),
    "rule/in": (_MEMBER, _set("Item/x-rules/0/in", "0/tags")),
    "rule/when": (None, _set("Item/x-rules/0/when", {"field": "id", "equals": "a"})),
    # (an each or when pointer must name something a document can hold there: into open objects, into a list)
    "rule/each": (_both(_add("parts", {"type": "array", "items": {"type": "object"}}), _set("Item/x-rules/0/field", "parts")),
                  _set("Item/x-rules/0/each", "/0")),
    "rule/allowed": (None, _set("Item/x-rules/0/allowed", ["x"])),
    "rule/equals": (_CONTAINS, _set("Item/x-rules/0/equals", "y")),
    "rule/op": (_COMPARE, _set("Item/x-rules/0/op", "<")),
    "rule/other": (_COMPARE, _set("Item/x-rules/0/other", "floor")),
    "rule/fields": (_rule({"kind": "at_least_one_of", "fields": ["id", "note"], "message": "m"}), _set("Item/x-rules/0/fields", ["note", "flag"])),
    "when/field": (_REQUIRED_WHEN, _set("Item/x-rules/0/when/field", "id")),
    "when/pointer": (_both(_add("labels", {"type": "array", "items": {"type": "string"}}), _set("Item/x-rules/0/when/field", "labels"),
                           _set("Item/x-rules/0/when/pointer", "/0")), _set("Item/x-rules/0/when/pointer", "/1")),
    "when/equals": (_REQUIRED_WHEN, _set("Item/x-rules/0/when/equals", "b")),
    "x-messages/required": _message("required", "Item/properties/id"),
    "x-messages/type": _message("type", "Item/properties/id"),
    "x-messages/minLength": _message("minLength", "Item/properties/id"),
    "x-messages/maxLength": _message("maxLength", "Item/properties/id", _set("Item/properties/id/maxLength", 9)),
    "x-messages/pattern": _message("pattern", "Item/properties/id", _set("Item/properties/id/pattern", "^a")),
    "x-messages/format": _message("format", "Item/properties/note", _set("Item/properties/note/format", "date-time")),
    "x-messages/contentEncoding": _message("contentEncoding", "Item/properties/note", _set("Item/properties/note/contentEncoding", "base64")),
    "x-messages/enum": _message("enum", "Kind"),
    "x-messages/const": _message("const", "Item/properties/note", _set("Item/properties/note/const", "c")),
    "x-messages/int64": _message("int64", "Item/properties/count"),
    "x-messages/minimum": _message("minimum", "Item/properties/count"),
    "x-messages/maximum": _message("maximum", "Item/properties/count", _set("Item/properties/count/maximum", 9)),
    "x-messages/exclusiveMinimum": _message("exclusiveMinimum", "Item/properties/count", _set("Item/properties/count/exclusiveMinimum", -1)),
    "x-messages/exclusiveMaximum": _message("exclusiveMaximum", "Item/properties/count", _set("Item/properties/count/exclusiveMaximum", 9)),
    "x-messages/multipleOf": _message("multipleOf", "Item/properties/count", _set("Item/properties/count/multipleOf", 5)),
    "x-messages/minItems": _message("minItems", "Item/properties/tags", _set("Item/properties/tags/minItems", 1)),
    "x-messages/maxItems": _message("maxItems", "Item/properties/tags"),
    "x-messages/uniqueItems": _message("uniqueItems", "Item/properties/tags", _set("Item/properties/tags/uniqueItems", True)),
    "x-messages/prefixItems": _message("prefixItems", "Item/properties/pair", _add("pair", dict(_TUPLE))),
    "x-messages/additionalProperties": _message("additionalProperties", "Item", _set("Item/additionalProperties", False)),
    "x-messages/oneOf": _message("oneOf", "Body"),
    "x-messages/discriminator": _message("discriminator", "Tagged", _TAGGED),
    "x-messages/discriminatorValue": _message("discriminatorValue", "Tagged", _TAGGED),
    # A schema applied as written (generator/checks.py): each keyword and message reaches the checks, each annotation
    # the schema kept for the export.
    "schema/allOf": (None, _add("loose", {"allOf": [{"type": "string"}]})),
    "schema/not": (None, _add("loose", {"not": {"type": "string"}})),
    "schema/if": (_add("loose", {"then": {"minimum": 0}}), _set("Item/properties/loose/if", {"type": "integer"})),
    "schema/then": (_add("loose", {"if": {"type": "integer"}}), _set("Item/properties/loose/then", {"minimum": 0})),
    "schema/else": (_add("loose", {"if": {"type": "integer"}}), _set("Item/properties/loose/else", {"type": "string"})),
    "schema/contains": (None, _add("loose", {"type": "array", "contains": {"type": "string"}})),
    "schema/minContains": (_add("loose", {"contains": {"type": "string"}}), _set("Item/properties/loose/minContains", 2)),
    "schema/maxContains": (_add("loose", {"contains": {"type": "string"}}), _set("Item/properties/loose/maxContains", 2)),
    "schema/patternProperties": (None, _add("loose", {"patternProperties": {"^x": {"type": "string"}}})),
    "schema/propertyNames": (None, _add("loose", {"propertyNames": {"maxLength": 3}})),
    "schema/minProperties": (None, _add("loose", {"minProperties": 1})),
    "schema/maxProperties": (None, _add("loose", {"maxProperties": 1})),
    "schema/dependentRequired": (None, _add("loose", {"dependentRequired": {"a": ["b"]}})),
    "schema/dependentSchemas": (None, _add("loose", {"dependentSchemas": {"a": {"required": ["b"]}}})),
    "schema/$defs": (_add("loose", {"minProperties": 1}),
                     _set("Item/properties/loose", {"$ref": "#/$defs/Item/properties/loose/$defs/one", "$defs": {"one": {"minProperties": 1}}})),
    "schema/examples": (_add("loose", {"minProperties": 1}), _set("Item/properties/loose/examples", [{"a": 1}])),
    "schema/deprecated": (_add("loose", {"minProperties": 1}), _set("Item/properties/loose/deprecated", True)),
    "schema/readOnly": (_add("loose", {"minProperties": 1}), _set("Item/properties/loose/readOnly", True)),
    "schema/writeOnly": (_add("loose", {"minProperties": 1}), _set("Item/properties/loose/writeOnly", True)),
    "schema/$comment": (_add("loose", {"minProperties": 1}), _set("Item/properties/loose/$comment", "A note.")),
    "x-messages/items": _message("items", "Item/properties/loose", _add("loose", {"prefixItems": [{"type": "string"}], "items": False})),
    "x-messages/minContains": _message("minContains", "Item/properties/loose", _add("loose", {"contains": {"type": "string"}})),
    "x-messages/maxContains": _message("maxContains", "Item/properties/loose", _add("loose", {"contains": {"type": "string"}, "maxContains": 1})),
    "x-messages/minProperties": _message("minProperties", "Item/properties/loose", _add("loose", {"minProperties": 1})),
    "x-messages/maxProperties": _message("maxProperties", "Item/properties/loose", _add("loose", {"maxProperties": 1})),
    "x-messages/propertyNames": _message("propertyNames", "Item/properties/loose", _add("loose", {"propertyNames": {"maxLength": 3}})),
    "x-messages/dependentRequired": _message("dependentRequired", "Item/properties/loose", _add("loose", {"dependentRequired": {"a": ["b"]}})),
    "x-messages/anyOf": _message("anyOf", "Item/properties/loose", _add("loose", {"anyOf": [{"type": "string"}, {"minimum": 1}]})),
    "x-messages/not": _message("not", "Item/properties/loose", _add("loose", {"not": {"type": "string"}})),
    "x-messages/false": _message("false", "Item/properties/loose", _add("loose", {"properties": {"a": False}})),
}


def _lowered(document: dict) -> object:  # type: ignore[type-arg]
    check_document(document, "sample.json")
    return lower(LoadedSpec("sample", "sample.json", document, (), ()))


def test_every_keyword_the_meta_schema_accepts_has_a_probe() -> None:
    # A keyword added to the meta-schema fails here until a probe proves lower reads it.
    assert set(PROBES) == _accepted_keywords()


@pytest.mark.parametrize("keyword", sorted(k for k, v in PROBES.items() if v is not None))
def test_each_accepted_keyword_reaches_the_ir_and_its_change_is_classified(keyword: str) -> None:
    import copy

    from generator.core import ir_json

    setup, edit = PROBES[keyword]  # type: ignore[misc]
    before = copy.deepcopy(SAMPLE)
    if setup is not None:
        setup(before)
    after = copy.deepcopy(before)
    edit(after)
    assert after != before, "the probe edits nothing"
    old, new = _lowered(before), _lowered(after)
    assert ir_json(old) != ir_json(new), f"{keyword}: lower does not read it (the IR is the same)"  # type: ignore[arg-type]
    if keyword != "top/x-version":  # the version is the bump itself, not a change to classify
        assert classify(old, new), f"{keyword}: the IR changed but classify() names nothing"  # type: ignore[arg-type]


# Each bound, at the path of the sample's field it bounds, and whether it is a lower bound (raising it tightens).
_BOUNDS = {
    "minimum": ("Item/properties/count", True), "exclusiveMinimum": ("Item/properties/count", True),
    "maximum": ("Item/properties/count", False), "exclusiveMaximum": ("Item/properties/count", False),
    "minLength": ("Item/properties/id", True), "maxLength": ("Item/properties/id", False),
    "minItems": ("Item/properties/tags", True), "maxItems": ("Item/properties/tags", False),
}


@pytest.mark.parametrize(("keyword", "step"), [(k, s) for k in _BOUNDS for s in (1, -1)])
def test_the_classification_of_a_moved_bound_tightens_or_relaxes_as_its_side_says(keyword: str, step: int) -> None:
    import copy

    path, lower_bound = _BOUNDS[keyword]
    before = copy.deepcopy(SAMPLE)
    _set(f"{path}/{keyword}", 4)(before)
    after = copy.deepcopy(before)
    _set(f"{path}/{keyword}", 4 + step)(after)
    changes = classify(_lowered(before), _lowered(after))  # type: ignore[arg-type]
    tightened = (step > 0) == lower_bound
    verb, level, wire = ("tightened", "major", "narrower") if tightened else ("relaxed", "minor", "wider")
    assert [(c.level, c.wire) for c in changes if keyword in c.what] == [(level, wire)], [str(c) for c in changes]
    assert any(f"constraint {verb}" in c.what and keyword in c.what for c in changes), [str(c) for c in changes]


# A compare rule passes where its op admits the outcome of comparing the two fields: more outcomes relax it.
_OPS = {"<": "<", "<=": "<=", "==": "=", "!=": "<>", ">=": ">=", ">": ">"}


@pytest.mark.parametrize(("was", "now"), [(a, b) for a in _OPS for b in _OPS if a != b])
def test_the_classification_of_a_compare_rules_changed_op_relaxed_tightened_or_changed(was: str, now: str) -> None:
    import copy

    before = copy.deepcopy(SAMPLE)
    _COMPARE(before)
    after = copy.deepcopy(before)
    for document, op in ((before, was), (after, now)):
        [rule] = [r for r in document["$defs"]["Item"]["x-rules"] if r["kind"] == "compare"]
        rule["op"] = op
    old, new = set(_OPS[was]), set(_OPS[now])
    level, verb = ("minor", "relaxed") if new > old else ("major", "tightened") if new < old else ("major", "changed")
    assert [str(c) for c in classify(_lowered(before), _lowered(after))] == [  # type: ignore[arg-type]
        f"{level}: rule {verb}: Item compare on count, limit ({was} -> {now})"]


# --- One matrix case per classification branch -------------------------------------------------

def _classifier_branches() -> set[tuple[int, str, str]]:
    """Every (line, level, kind) classify.py can emit, read from its code: each Change(...) call,
    with conditional levels and kinds expanded, and parameters (per call site) and loop variables
    resolved to the constants they take. kind is the change's text up to its first ':'."""
    import ast
    import itertools

    import generator.classify as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def enclosing(node: ast.AST, kind: type) -> ast.AST | None:
        while node in parents:
            node = parents[node]
            if isinstance(node, kind):
                return node
        return None

    def loop_values(name: ast.Name) -> list[str]:
        node: ast.AST = name
        while node in parents:
            node = parents[node]
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and node.target.id == name.id:
                return [ast.literal_eval(e) for e in node.iter.elts]  # type: ignore[attr-defined]
        raise AssertionError(f"classify.py line {name.lineno}: cannot tell the values of {name.id!r}; use constants")

    def texts(node: ast.expr, choice: dict[str, bool], binding: dict[str, str]) -> list[str]:
        if isinstance(node, ast.Constant):
            return [str(node.value)]
        if isinstance(node, ast.IfExp):
            return texts(node.body if choice[ast.unparse(node.test)] else node.orelse, choice, binding)
        if isinstance(node, ast.Name):
            return [binding[node.id]] if node.id in binding else loop_values(node)
        if isinstance(node, ast.JoinedStr):
            parts: list[list[str]] = []
            for value in node.values:
                parts.append(texts(value.value, choice, binding) if isinstance(value, ast.FormattedValue) else texts(value, choice, binding))
                if isinstance(value, ast.Constant) and ":" in str(value.value):
                    break
            return ["".join(p) for p in itertools.product(*parts)]
        return ["<dynamic>"]

    def bindings(call: ast.Call) -> list[dict[str, str]]:
        """One binding of the function's parameters per call site of the function holding `call`."""
        function = enclosing(call, ast.FunctionDef)
        assert isinstance(function, ast.FunctionDef)
        params = [a.arg for a in function.args.args]
        defaults = dict(zip(params[len(params) - len(function.args.defaults):], function.args.defaults))
        sites = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == function.name]
        if not sites:
            return [{}]
        out = []
        for site in sites:
            given = {params[i]: a for i, a in enumerate(site.args)} | {k.arg: k.value for k in site.keywords if k.arg}
            out.append({name: ast.literal_eval(node) for name, node in (defaults | given).items()
                        if isinstance(node, ast.Constant)})
        return out

    found = set()
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Change"):
            continue
        tests = sorted({ast.unparse(n.test) for arg in call.args for n in ast.walk(arg) if isinstance(n, ast.IfExp)})
        for binding in bindings(call):
            for values in itertools.product((True, False), repeat=len(tests)):
                choice = dict(zip(tests, values))
                for level in texts(call.args[0], choice, binding):
                    for what in texts(call.args[1], choice, binding):
                        found.add((call.lineno, level, what.split(":")[0]))
    return found


def _emitted_by_the_matrix(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[int, str, str], list[str]]:
    import generator.classify as module

    seen: dict[tuple[int, str, str], list[str]] = {}
    case = [""]

    class Recorded(module.Change):  # type: ignore[misc,valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            line = sys._getframe(1).f_lineno  # the Change(...) call in classify.py
            seen.setdefault((line, self.level, self.what.split(":")[0]), []).append(case[0])

    monkeypatch.setattr(module, "Change", Recorded)
    for name in CASES:
        case[0] = name
        module.classify(_format(MATRIX / name / "previous.json"), _format(MATRIX / name / "current.json"))  # type: ignore[arg-type]
    return seen


def test_the_branch_reader_finds_the_branches_it_must() -> None:
    branches = _classifier_branches()
    kinds = {kind for _, _, kind in branches}
    # Spot checks that the static reading expands conditionals, parameters and loops.
    assert {"field removed", "definition removed", "root model changed", "pattern changed", "enum value removed",
            "documented value removed", "union variant added", "title changed", "decisions changed",
            "optional made required", "required made optional", "additionalProperties opened", "rule moved"} <= kinds
    assert all("<dynamic>" not in kind for kind in kinds), sorted(k for k in kinds if "<dynamic>" in k)
    assert len(branches) >= 50


def test_every_classification_branch_has_a_matrix_case(monkeypatch: pytest.MonkeyPatch) -> None:
    # A new branch in generator/classify.py fails here until tests/versioning/ has a case that takes it.
    emitted = _emitted_by_the_matrix(monkeypatch)
    missing = sorted(_classifier_branches() - set(emitted))
    assert not missing, "classification branches without a tests/versioning case (line, level, kind):\n" + "\n".join(map(str, missing))
    assert set(emitted) <= _classifier_branches(), "the matrix took a branch the static reading does not know"


# --- The lock as bump and check meet it -----------------------------------------------------------

def _lone_spec(tmp_path: Path, fmt: str = "chat_event") -> Path:
    """A project holding one spec and its history (bump and check need no generated/)."""
    shutil.copytree(ROOT / "specs" / fmt, tmp_path / "specs" / fmt)
    return tmp_path


@pytest.mark.parametrize("to", ["7", "1.0", "v1.1.0", "1.01.0", "huge", "01.2.3"])
def test_bump_refuses_a_to_that_is_neither_a_level_nor_a_full_version(tmp_path: Path, to: str) -> None:
    project = _lone_spec(tmp_path)
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer"}))
    lock = project / "specs" / "chat_event" / "history" / "lock.json"
    before = lock.read_bytes()
    done = _chatspec(project, "bump", "chat_event", "--to", to)
    assert done.returncode == 2 and f"--to {to!r} is neither a level nor a version" in done.stderr, done.stderr
    assert "`chatspec bump chat_event --to minor`" in done.stderr
    assert lock.read_bytes() == before and not (project / "specs" / "chat_event" / "history" / to).exists()
    assert "Traceback" not in done.stderr


def test_bump_to_an_explicit_version_locks_it_and_later_commands_still_work(tmp_path: Path) -> None:
    project = _lone_spec(tmp_path)
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer"}))
    assert _chatspec(project, "bump", "chat_event", "--to", "1.0.0").returncode == 2  # not later than 1.0.0
    done = _chatspec(project, "bump", "chat_event", "--to", "1.5.0")
    assert done.returncode == 0 and "locked 1.5.0 (minor change)" in done.stdout, done.stderr
    lock = json.loads((project / "specs" / "chat_event" / "history" / "lock.json").read_text())
    assert [(r["version"], r["level"]) for r in lock["releases"]] == [("1.0.0", "initial"), ("1.5.0", "minor")]
    assert json.loads((project / "specs" / "chat_event" / "spec.json").read_text())["x-version"] == "1.5.0"
    diff = _chatspec(project, "diff", "chat_event")
    assert diff.returncode == 0 and "0 change(s) since 1.5.0; needs no bump" in diff.stdout, diff.stderr


def test_the_major_bump_refusal_ends_with_the_commands_that_fix_it(tmp_path: Path) -> None:
    project = _lone_spec(tmp_path)
    _edit(project, "chat_event", lambda d: d["$defs"]["ChatEvent"]["properties"].pop("completion_running"))
    done = _chatspec(project, "bump", "chat_event", "--to", "minor")
    assert done.returncode == 2
    assert done.stderr.rstrip().endswith("hint: use 2.0.0: run `chatspec bump chat_event --to 2.0.0` (or `make bump FORMAT=chat_event TO=major`)"), done.stderr


def test_a_damaged_lock_is_one_clear_error_naming_the_fix(tmp_path: Path) -> None:
    project = _lone_spec(tmp_path)
    lock = project / "specs" / "chat_event" / "history" / "lock.json"
    for damage in ("", "{", '{"releases": [{"version": "7"}]}', '{"releases": [{"version": "7", "sha256": "", "level": "", "changes": []}]}'):
        lock.write_text(damage)
        done = _chatspec(project, "check")
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert "specs/chat_event/history/lock.json: the version lock is damaged" in done.stderr
        assert "git checkout -- specs/chat_event/history/lock.json" in done.stderr


# A bump run to its n-th rename of a file into place, then killed there (os._exit: nothing cleans up).
_KILLED_AT_RENAME = """
import os, sys
from generator.cli import main
real, renames = os.replace, [0]
def replace(*args, **kwargs):
    if renames[0] == int(sys.argv[1]):
        os._exit(137)
    renames[0] += 1
    real(*args, **kwargs)
os.replace = replace
sys.exit(main(sys.argv[2:]))
"""


def _git(project: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=project, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git is needed to see what git would commit")
@pytest.mark.parametrize("renames", [0, 1, 2])
def test_a_bump_killed_at_a_rename_leaves_nothing_git_would_commit_by_mistake_and_the_next_bump_finishes(tmp_path: Path, renames: int) -> None:
    # A bump wrote each file through a temporary file beside it (.lock.json.x1y2.tmp): killed at the
    # rename, those were left in specs/, and `git add specs/` committed them.
    def weight(d: dict) -> None:  # type: ignore[type-arg]
        d["$defs"]["Message"]["properties"]["weight"] = {"type": "integer"}

    clean = _lone_spec(tmp_path / "clean")
    _edit(clean, "chat_event", weight)
    assert _chatspec(clean, "bump", "chat_event").returncode == 0
    project = _lone_spec(tmp_path / "project")
    _edit(project, "chat_event", weight)
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "before the bump")
    before = read_tree(project / "specs")
    killed = subprocess.run([sys.executable, "-c", _KILLED_AT_RENAME, str(renames), "--root", str(project), "bump", "chat_event"],
                            cwd=ROOT, capture_output=True, text=True, env={**os.environ, "CHATSPEC_CACHE": "off"})
    assert killed.returncode == 137, killed.stderr
    # What git sees is the bump's own work, part done (check reports it), never a temporary file.
    bumped = {f"specs/{p}" for p, text in read_tree(clean / "specs").items() if before.get(p) != text}
    seen = {line[3:] for line in _git(project, "status", "--porcelain", "--untracked-files=all").splitlines()}
    assert seen <= bumped, seen - bumped
    snapshot = 1 + len(list((project / "specs" / "chat_event" / "examples").rglob("*.json")))  # the spec and its examples
    assert len(seen) == [0, snapshot, snapshot + 1][renames], seen  # nothing, the snapshot, then the spec too
    assert _chatspec(project, "check").returncode == 2, "the spec is not locked yet"
    again = _chatspec(project, "bump", "chat_event")
    assert again.returncode == 0, again.stderr
    assert read_tree(project / "specs") == read_tree(clean / "specs")
    assert not [p for p in (project / "specs").rglob("*") if "tmp" in p.name], "nothing temporary is left"


def test_a_failed_rename_keeps_the_old_lock_and_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import history

    project = _lone_spec(tmp_path)
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer"}))
    lock = project / "specs" / "chat_event" / "history" / "lock.json"
    before = lock.read_bytes()
    real = os.replace

    def crash(src: object, dst: object) -> None:
        if Path(str(dst)) == lock:
            raise OSError("disk full")
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        history.bump_spec(project / "specs" / "chat_event", project)
    assert lock.read_bytes() == before
    assert not (project / "specs" / "chat_event" / ".chatspec-tmp").exists()


def test_a_change_the_classifier_misses_is_refused_as_unclassified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The safety net under classify(): simulate a classifier gap and see the IR comparison catch it.
    from generator import compatibility, history
    from generator.errors import SpecError
    from generator.load import load_spec

    project = _lone_spec(tmp_path)
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"]["content"].__setitem__("minLength", 3))
    monkeypatch.setattr(compatibility, "classify", lambda old, new: [])
    folder = project / "specs" / "chat_event"
    with pytest.raises(SpecError) as caught:
        history.check_locked(load_spec(folder, project), folder, project)
    message = str(caught.value)
    assert "unclassified change since 1.0.0" in message
    assert "/definitions/Message/fields/content/type/inner/min_length: null -> 3" in message, message
    assert message.rstrip().endswith("`git checkout -- specs/chat_event/spec.json`"), message
    with pytest.raises(SpecError, match="unclassified change"):
        history.bump_spec(folder, project)
    # Layout alone (key order, indentation) is no change, classified or not.
    path = folder / "spec.json"
    path.write_text(json.dumps(json.loads((ROOT / "specs" / "chat_event" / "spec.json").read_text()), indent=3, sort_keys=True))
    history.check_locked(load_spec(folder, project), folder, project)


# --- Every refusal of the lock, word for word (issue 32: a hint once left a "(" open) ---------------------------

def _drop_completion_running(d: dict) -> None:  # type: ignore[type-arg]
    del d["$defs"]["ChatEvent"]["properties"]["completion_running"]


def _set_version(version: str, change=None):  # type: ignore[no-untyped-def]
    def edit(d: dict) -> None:  # type: ignore[type-arg]
        if change is not None:
            change(d)
        d["x-version"] = version
    return edit


_SPEC = "chatspec: specs/chat_event/spec.json: at /x-version: "
_TO_2 = "  hint: it must move to 2.0.0: run `chatspec bump chat_event --to 2.0.0` (or `make bump FORMAT=chat_event TO=major`)\n"
_LOCK_IT = "run `chatspec bump chat_event` (or `make bump FORMAT=chat_event`)"


@pytest.mark.parametrize(("edit", "expected"), [
    (None, f"{_SPEC}version 1.0.0 is not locked (no specs/chat_event/history/lock.json)\n  hint: {_LOCK_IT} to lock it\n"),
    (_set_version("1.0.1"), f"{_SPEC}x-version 1.0.1 is not locked and nothing changed since 1.0.0\n"
                            '  hint: set x-version back to 1.0.0 ("x-version": "1.0.0" in specs/chat_event/spec.json)\n'),
    (_drop_completion_running, f"{_SPEC}the spec changed since 1.0.0 was locked, but x-version is still 1.0.0: a major change "
                               f"(major: field removed: ChatEvent.completion_running)\n{_TO_2}"),
    (_set_version("0.9.9", _drop_completion_running), f"{_SPEC}x-version 0.9.9 is not later than the latest locked release 1.0.0\n{_TO_2}"),
    (_set_version("1.1.0", _drop_completion_running), f"{_SPEC}x-version 1.1.0 is a minor bump, but the change is major: "
                                                      f"field removed: ChatEvent.completion_running\n{_TO_2}"),
    (_set_version("2.0.0", _drop_completion_running), f"{_SPEC}x-version 2.0.0 is not locked yet (major change: major: field removed: "
                                                      f"ChatEvent.completion_running)\n  hint: {_LOCK_IT} to lock it\n"),
], ids=["no lock", "moved without a change", "changed in place", "not later", "too small", "not locked yet"])
def test_every_refusal_of_the_lock_is_exact_and_its_commands_are_whole(tmp_path: Path, edit, expected: str) -> None:  # type: ignore[no-untyped-def]
    project = _lone_spec(tmp_path)
    if edit is None:
        shutil.rmtree(project / "specs" / "chat_event" / "history")
    else:
        _edit(project, "chat_event", edit)
    done = _chatspec(project, "check")
    assert (done.returncode, done.stderr) == (2, expected)
    _assert_whole(done.stderr)


def _assert_whole(message: str) -> None:
    """Every "(" closed, every backquoted command closed: a hint is pasted as it is."""
    depth = 0
    for char in message:
        depth += {"(": 1, ")": -1}.get(char, 0)
        assert depth >= 0, message
    assert depth == 0 and message.count("`") % 2 == 0, message


def test_an_older_release_as_x_version_is_refused_with_both_ways_out(tmp_path: Path) -> None:
    project = _lone_spec(tmp_path)
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer"}))
    assert _chatspec(project, "bump", "chat_event").returncode == 0
    _edit(project, "chat_event", _set_version("1.0.0"))
    done = _chatspec(project, "check")
    assert (done.returncode, done.stderr) == (2, f"{_SPEC}x-version 1.0.0 is an older release; the latest locked release is 1.1.0\n"
                                                 f"  hint: set x-version back to 1.1.0, or lock a new release: {_LOCK_IT}\n")
    _assert_whole(done.stderr)


def test_every_hint_in_the_broken_spec_corpus_is_whole() -> None:
    for expected in sorted((Path(__file__).resolve().parent / "broken_specs").glob("*/expected.txt")):
        for line in expected.read_text(encoding="utf-8").splitlines():
            if line.startswith("  hint: "):
                _assert_whole(line)


def test_a_new_format_that_is_not_locked_is_refused_before_any_target_renders_or_example_runs(tmp_path: Path) -> None:
    # A new format was refused as "not locked" only after every target rendered and its examples ran (49 s for
    # the format of issue 32). Its broken example shows that nothing ran: the lock is checked first.
    project = _lone_spec(tmp_path)
    shutil.copytree(ROOT / "specs" / "structured_conversation", project / "specs" / "assistant_turn")
    shutil.rmtree(project / "specs" / "assistant_turn" / "history")
    shutil.rmtree(project / "specs" / "assistant_turn" / "behaviour")
    broken = project / "specs" / "assistant_turn" / "examples" / "valid" / "broken.json"
    broken.write_text('{"id": 7}')
    done = run_chatspec(project, "generate", CHATSPEC_CACHE="off")
    assert (done.returncode, done.stderr) == (2, "chatspec: specs/assistant_turn/spec.json: at /x-version: version 1.0.0 is not locked "
                                                 "(no specs/assistant_turn/history/lock.json)\n"
                                                 "  hint: run `chatspec bump assistant_turn` (or `make bump FORMAT=assistant_turn`) to lock it\n")
    assert not (project / "generated").exists()
    # A mistake in the spec itself still comes first: lowering is what bump would refuse too.
    _edit(project, "assistant_turn", lambda d: d["$defs"]["ConversationDocument"].__setitem__("required", ["nothing"]))
    done = run_chatspec(project, "generate", CHATSPEC_CACHE="off")
    assert done.returncode == 2 and "not locked" not in done.stderr and "nothing" in done.stderr, done.stderr


# --- 0.x: semantic versioning's rule for initial development -------------------------------------------------

def _zero_project(tmp_path: Path) -> tuple[Path, Path]:
    """chat_event restarted at 0.2.0 (no behaviour: its manifest says since = 1), locked as its first release."""
    project = _lone_spec(tmp_path)
    shutil.rmtree(project / "specs" / "chat_event" / "history")
    shutil.rmtree(project / "specs" / "chat_event" / "behaviour")
    _edit(project, "chat_event", _set_version("0.2.0"))
    assert _chatspec(project, "bump", "chat_event").returncode == 0
    return project, project / "specs" / "chat_event" / "history" / "lock.json"


def _lock_rows(lock: Path) -> list[tuple[str, str]]:
    return [(r["version"], r["level"]) for r in json.loads(lock.read_text())["releases"]]


def test_a_breaking_change_in_0_y_needs_only_0_y_plus_1(tmp_path: Path) -> None:
    project, lock = _zero_project(tmp_path)
    _edit(project, "chat_event", _drop_completion_running)
    to_03 = "run `chatspec bump chat_event --to 0.3.0` (or `make bump FORMAT=chat_event TO=minor`)"
    zero = " (in 0.x a breaking change raises the minor number, anything else the patch number)"
    done = _chatspec(project, "check")
    assert (done.returncode, done.stderr) == (2, f"{_SPEC}the spec changed since 0.2.0 was locked, but x-version is still 0.2.0: a major "
                                                 f"change (major: field removed: ChatEvent.completion_running)\n"
                                                 f"  hint: it must move to 0.3.0: {to_03}\n")
    # A patch bump is too small for it, by either command, and says what 0.x numbers mean.
    _edit(project, "chat_event", _set_version("0.2.1"))
    done = _chatspec(project, "check")
    assert (done.returncode, done.stderr) == (2, f"{_SPEC}x-version 0.2.1 is a patch bump, but the change is major{zero}: "
                                                 f"field removed: ChatEvent.completion_running\n  hint: it must move to 0.3.0: {to_03}\n")
    refused = _chatspec(project, "bump", "chat_event", "--to", "patch")
    assert (refused.returncode, refused.stderr) == (2, f"{_SPEC}a patch bump to 0.2.1 is refused: the change is major{zero}: "
                                                       f"field removed: ChatEvent.completion_running\n  hint: use 0.3.0: {to_03}\n")
    # --to 0.3.0 (what the hint says) is accepted, and locked as a release that may break.
    done = _chatspec(project, "bump", "chat_event", "--to", "0.3.0")
    assert done.returncode == 0 and "locked 0.3.0 (major change)" in done.stdout, done.stderr
    assert _lock_rows(lock) == [("0.2.0", "initial"), ("0.3.0", "major")]
    # Without --to, an additive change takes the patch number, a breaking one the minor number.
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer"}))
    assert "locked 0.3.1 (minor change)" in _chatspec(project, "bump", "chat_event").stdout
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].pop("weight"))
    assert "locked 0.4.0 (major change)" in _chatspec(project, "bump", "chat_event").stdout
    assert _lock_rows(lock)[2:] == [("0.3.1", "minor"), ("0.4.0", "major")]
    folder = project / "specs" / "chat_event"
    check_locked(load_spec(folder, project), folder, project)  # locked as it is
    # 0.x generates no earlier "major": 0.2 and 0.3 were initial development.
    assert [s.format_id for s in discover_specs(project)] == ["chat_event"]


def test_major_moves_0_x_to_1_0_0_and_keeps_the_0_x_line_until_it_is_retired(tmp_path: Path) -> None:
    project, lock = _zero_project(tmp_path)
    _edit(project, "chat_event", _drop_completion_running)
    done = _chatspec(project, "bump", "chat_event", "--to", "major")
    assert done.returncode == 0 and "locked 1.0.0 (major change)" in done.stdout, done.stderr
    assert [s.format_id for s in discover_specs(project)] == ["chat_event", "chat_event_v0"]
    done = _chatspec(project, "retire", "chat_event", "0")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("chat_event: retired 0.x (last release 0.2.0): chat_event_v0 is no longer generated, vendored or documented\n"
                           "now run `make generate` and commit specs/ and generated/ together\n")
    assert json.loads(lock.read_text())["retired"] == [{"major": 0, "last_release": "0.2.0"}]
    assert [s.format_id for s in discover_specs(project)] == ["chat_event"]


def discover_specs(project: Path) -> list[LoadedSpec]:
    from generator.core import discover

    return discover(project / "specs", project)


def test_a_0_x_format_whose_behaviour_starts_at_1_is_told_so_not_an_internal_error(tmp_path: Path) -> None:
    # The behaviour check took a set with `since` for one with `majors` and crashed (max() of no majors).
    project = _lone_spec(tmp_path)
    shutil.rmtree(project / "specs" / "chat_event" / "history")
    _edit(project, "chat_event", _set_version("0.2.0"))
    assert _chatspec(project, "bump", "chat_event").returncode == 0
    done = _chatspec(project, "check")
    assert done.returncode == 2 and "internal error" not in done.stderr, done.stderr
    assert done.stderr.startswith("chatspec: specs/chat_event/behaviour/behaviour.toml: at /since: chat_event is at major 0 "
                                  "(specs/chat_event/spec.json) but its behaviour applies to majors 1 and later, so version 0.2.0 "
                                  "would lose python.py, go.go, docs.md, typescript.ts."), done.stderr
    assert "\n  hint: set since = 0 (its [needs] are then checked against 0.2.0)" in done.stderr


# --- chatspec retire ----------------------------------------------------------------------------------------

def _chat_event_at_2(tmp_path: Path) -> Path:
    """chat_event moved to 2.0.0 (output_format dropped, which its behaviour does not read): 1.0.0 is kept as chat_event_v1."""
    project = _lone_spec(tmp_path)
    _edit(project, "chat_event", lambda d: d["$defs"]["ChatEvent"]["properties"].pop("output_format"))
    for example in (project / "specs" / "chat_event" / "examples" / "valid").glob("*.json"):
        data = json.loads(example.read_text())
        data.pop("output_format", None)
        example.write_text(json.dumps(data))
    assert _chatspec(project, "bump", "chat_event", "--to", "major").returncode == 0
    return project


@pytest.mark.slow
def test_retiring_a_kept_major_drops_it_from_generate_vendor_and_the_docs_and_records_it_in_the_lock(tmp_path: Path) -> None:
    project = _chat_event_at_2(tmp_path / "p")
    assert _chatspec(project, "generate").returncode == 0
    v1 = sorted(p for p in read_tree(project / "generated") if "chat_event_v1" in p or "chateventv1" in p)
    assert len(v1) >= 6, v1  # Python, Go, TypeScript, JSON Schema, pydantic, docs
    lock = project / "specs" / "chat_event" / "history" / "lock.json"
    releases = json.loads(lock.read_text())["releases"]
    done = _chatspec(project, "retire", "chat_event", "1")
    assert done.returncode == 0, done.stderr
    assert json.loads(lock.read_text()) == {"format": "chat_event", "releases": releases,
                                            "retired": [{"major": 1, "last_release": "1.0.0"}]}
    done = _chatspec(project, "generate")
    assert done.returncode == 0, done.stderr
    assert {line.removeprefix("removed generated/") for line in done.stdout.splitlines() if line.startswith("removed ")} == set(v1)
    assert not [p for p, text in read_tree(project / "generated").items() if "chat_event_v1" in text or "chateventv1" in text]
    assert "**1.0.0**: the first release." in (project / "generated" / "docs" / "chat_event.md").read_text()  # the changelog keeps it
    vendored = _chatspec(project, "vendor", "--lang", "python", "--package", "acme", "--out", str(tmp_path / "v"))
    assert vendored.returncode == 0, vendored.stderr
    assert sorted(p.name for p in (tmp_path / "v" / "acme").glob("*.py")) == ["__init__.py", "_runtime.py", "chat_event.py"]
    diff = _chatspec(project, "diff", "chat_event", "--against", "1.0.0")  # its snapshot is still read
    assert diff.returncode == 0 and "since 1.0.0; needs a major bump" in diff.stdout, diff.stderr
    # A later bump keeps the record.
    _edit(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer"}))
    assert _chatspec(project, "bump", "chat_event").returncode == 0
    assert json.loads(lock.read_text())["retired"] == [{"major": 1, "last_release": "1.0.0"}]


_KEPT = "  hint: retire an earlier major; the majors kept beside 2.x: 1 (droidlet_chat_v1, last release 1.0.0)\n"


@pytest.mark.parametrize(("major", "expected"), [
    ("2", f"chatspec: specs/droidlet_chat/history/lock.json: 2.x is the latest major of droidlet_chat: it is what droidlet_chat generates\n{_KEPT}"),
    ("3", f"chatspec: specs/droidlet_chat/history/lock.json: droidlet_chat has no release of major 3\n{_KEPT}"),
    ("0", f"chatspec: specs/droidlet_chat/history/lock.json: droidlet_chat has no release of major 0\n{_KEPT}"),
    ("1", "chatspec: specs/droidlet_chat/behaviour/python.py:1:15: the behaviour uses droidlet_chat_v1, the 1.x package of droidlet_chat, "
          "which retiring 1.x stops generating\n"
          "  hint: change the behaviour so it no longer reads 1.x (e.g. remove its upgrade code), then retire 1.x\n"),
])
def test_retire_refuses_what_it_cannot_retire_and_changes_nothing(tmp_path: Path, major: str, expected: str) -> None:
    project = _lone_spec(tmp_path, "droidlet_chat")
    before = read_tree(project / "specs")
    done = _chatspec(project, "retire", "droidlet_chat", major)
    assert (done.returncode, done.stderr) == (2, expected)
    _assert_whole(done.stderr)
    assert read_tree(project / "specs") == before


def test_retire_twice_and_a_major_that_is_no_number_are_refused(tmp_path: Path) -> None:
    project = _chat_event_at_2(tmp_path)
    assert _chatspec(project, "retire", "chat_event", "1").returncode == 0
    done = _chatspec(project, "retire", "chat_event", "1")
    assert (done.returncode, done.stderr) == (2, "chatspec: specs/chat_event/history/lock.json: 1.x of chat_event is retired already "
                                                 "(its last release 1.0.0)\n  hint: nothing to do; no earlier major of chat_event is kept beside 2.x\n")
    done = _chatspec(project, "retire", "chat_event", "v1")
    assert done.returncode == 2 and "'v1' is not a major version number" in done.stderr


def test_behaviour_that_uses_a_retired_major_is_refused_at_generate(tmp_path: Path) -> None:
    # A lock retiring droidlet_chat 1.x while droidlet_chat's upgrade code imports droidlet_chat_v1 (written by hand,
    # or the behaviour changed after retiring): generate names the line instead of generating an import of nothing.
    project = _lone_spec(tmp_path, "droidlet_chat")
    lock = project / "specs" / "droidlet_chat" / "history" / "lock.json"
    lock.write_text(json.dumps({**json.loads(lock.read_text()), "retired": [{"major": 1, "last_release": "1.0.0"}]}))
    done = _chatspec(project, "check")
    assert done.returncode == 2
    assert done.stderr.startswith("chatspec: specs/droidlet_chat/behaviour/python.py:1:15: the behaviour uses droidlet_chat_v1"), done.stderr


@pytest.mark.parametrize("retired", ['[{"major": 2, "last_release": "2.0.0"}]', '[{"major": 1, "last_release": "1.0.1"}]',
                                     '[{"major": "1", "last_release": "1.0.0"}]', '[{"major": 1}]', '7'])
def test_a_lock_whose_retired_majors_do_not_fit_its_releases_is_damaged(tmp_path: Path, retired: str) -> None:
    project = _lone_spec(tmp_path, "droidlet_chat")
    lock = project / "specs" / "droidlet_chat" / "history" / "lock.json"
    lock.write_text(lock.read_text().rstrip()[:-1] + f', "retired": {retired}}}')
    done = _chatspec(project, "check")
    assert done.returncode == 2 and "specs/droidlet_chat/history/lock.json: the version lock is damaged" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr

"""`chatspec import` (generator/importing.py): what each construct of a published schema becomes, what is refused and
how, and the command as a user runs it. The real schemas (OpenTelemetry's, OpenAI's) go through it in
tests/test_realworld.py, with their payloads in every language.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import dead_pid, run_chatspec
from generator import ir
from generator.importing import ImportRefused, import_schema, read_source
from generator.load import load_spec
from generator.lower import lower

REALWORLD = Path(__file__).resolve().parent / "realworld"


def _import(document: dict[str, Any], pointer: str = "", format_id: str = "adopted") -> dict[str, Any]:
    spec: dict[str, Any] = import_schema(document, "source.json", pointer, format_id).spec
    return spec


def _refused(document: dict[str, Any], pointer: str = "") -> list[tuple[str, str]]:
    with pytest.raises(ImportRefused) as refused:
        import_schema(document, "source.json", pointer, "adopted")
    return [(p.pointer, p.reason) for p in refused.value.problems]


def test_draft_07_definitions_tuples_and_dependencies_become_2020_12() -> None:
    spec = _import({
        "$schema": "http://json-schema.org/draft-07/schema#", "title": "Pair", "type": "object",
        "properties": {"pair": {"$ref": "#/definitions/pair"}, "card": {"type": "string"}},
        "dependencies": {"card": ["billing"], "name": {"required": ["first"]}},
        "definitions": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False}},
    })
    # "pair" spelled as an identifier is Pair; the root schema, titled Pair too, takes a name no definition has.
    root = spec["$defs"]["Pair2"]
    assert spec["$ref"] == "#/$defs/Pair2" and root["properties"]["pair"] == {"$ref": "#/$defs/Pair"}
    pair = spec["$defs"]["Pair"]
    assert pair["prefixItems"] == [{"type": "string"}, {"type": "integer"}] and pair["items"] is False
    assert root["dependentRequired"] == {"card": ["billing"]} and root["dependentSchemas"] == {"name": {"required": ["first"]}}
    assert "definitions" not in json.dumps(spec) and "dependencies" not in json.dumps(spec)


def test_a_draft_07_ref_keeps_its_annotations_and_the_assertions_draft_07_ignores_as_meaning_nothing(tmp_path: Path) -> None:
    document = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                "properties": {"a": {"$ref": "#/definitions/A", "minLength": 3, "description": "An a.", "type": "integer"}},
                "definitions": {"A": {"type": "string"}}}
    imported = import_schema(document, "source.json", "", "refs")
    assert imported.spec["$defs"]["Refs"]["properties"]["a"] == {
        "x-ignored": {"minLength": 3, "type": "integer"}, "$ref": "#/$defs/A", "description": "An a."}
    assert [(n.pointer, n.reason) for n in imported.notes] == [
        ("/properties/a", "'minLength', 'type' beside $ref kept in x-ignored: draft-07 ignores a $ref's siblings")]
    # As draft-07 reads it: the field is A's string; the ignored type and minLength check nothing.
    folder = tmp_path / "specs" / "refs"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(imported.spec), encoding="utf-8")
    [field] = lower(load_spec(folder, tmp_path)).definition("Refs").fields
    assert isinstance(field.type, ir.Ref) and field.type.name == "A"


def test_openapi_3_0_nullable_example_byte_and_discriminator_mean_what_they_mean_in_2020_12() -> None:
    document = {"openapi": "3.0.3", "info": {"title": "Chat API", "version": "2.1.0"}, "components": {"schemas": {
        "Message": {"type": "object", "properties": {
            "role": {"type": "string", "enum": ["user", "bot"], "nullable": True},
            "blob": {"type": "string", "format": "byte", "example": "aGk="},
            "part": {"$ref": "#/components/schemas/Part", "nullable": True},
        }, "required": ["role"]},
        "Part": {"oneOf": [{"$ref": "#/components/schemas/text.part"}], "discriminator": {"propertyName": "type", "mapping": {"text": "#/components/schemas/text.part"}}},
        "text.part": {"type": "object", "properties": {"type": {"type": "string"}}},
    }}}
    spec = _import(document, "#/components/schemas/Message")
    props = spec["$defs"]["Message"]["properties"]
    assert props["role"] == {"type": ["string", "null"], "enum": ["user", "bot", None]}
    assert props["blob"] == {"type": "string", "contentEncoding": "base64", "x-openapi": {"format": "byte"}, "examples": ["aGk="]}
    assert props["part"] == {"anyOf": [{"$ref": "#/$defs/Part"}, {"type": "null"}]}
    assert spec["$defs"]["Part"]["x-openapi"] == {"discriminator": {"propertyName": "type", "mapping": {"text": "#/$defs/TextPart"}}}
    assert set(spec["$defs"]) == {"Message", "Part", "TextPart"}
    assert spec["x-source"] == {"file": "source.json", "pointer": "#/components/schemas/Message", "version": "2.1.0"}


def test_only_what_the_root_reaches_is_kept_unless_all_is_asked_for() -> None:
    document = {"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "string"}, "C": {"type": "integer"}}}
    assert set(_import(document, "#/$defs/A")["$defs"]) == {"A", "B"}
    assert set(import_schema(document, "s.json", "#/$defs/A", "x", keep_all=True).spec["$defs"]) == {"A", "B", "C"}


def test_what_cannot_be_kept_is_listed_every_one_with_its_pointer() -> None:
    problems = _refused({"type": "object", "properties": {
        "a": {"$ref": "https://example.com/a.json"},
        "b": {"$id": "urn:b", "type": "string"},
        "c": {"$dynamicRef": "#node"},
        # OpenAPI 3.0's, in a JSON Schema: it means nothing there, so it is kept in x-ignored (and noted), not refused.
        "d": {"type": "string", "nullable": True},
    }})
    assert [p for p, _ in problems] == ["/properties/a/$ref", "/properties/b/$id", "/properties/c/$dynamicRef"]
    assert "remote reference" in problems[0][1]
    spec = _import({"type": "object", "properties": {"d": {"type": "string", "nullable": True}}})
    assert spec["$defs"]["Adopted"]["properties"]["d"] == {"type": "string", "x-ignored": {"nullable": True}}


def test_a_document_without_a_root_names_its_definitions() -> None:
    problems = _refused({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {"type": "string"}}})
    assert "no root schema" in problems[0][1] and "#/$defs/A" in problems[0][1]
    assert "names no definition" in _refused({"$defs": {"A": {"type": "string"}}}, "#/$defs/Z")[0][1]


def test_names_that_are_not_identifiers_are_converted_deterministically() -> None:
    spec = _import({"$defs": {"chat.message": {"type": "string"}, "chat-message": {"type": "integer"}, "9lives": {"type": "boolean"}},
                    "type": "array", "items": {"anyOf": [{"$ref": "#/$defs/chat.message"}, {"$ref": "#/$defs/chat-message"}, {"$ref": "#/$defs/9lives"}]}},
                   format_id="names")
    assert list(spec["$defs"]) == ["Names", "ChatMessage", "ChatMessage2", "D9lives"]


def test_a_required_field_keeps_its_default_as_an_annotation(tmp_path: Path) -> None:
    # JSON Schema's default is an annotation; on a required field chatspec never fills it in (it is never absent),
    # so it is kept in the exported schema and the docs, and the field stays required (OpenAI's PromptCacheBreakpointParam).
    spec = _import({"type": "object", "properties": {"mode": {"type": "string", "default": "auto"}}, "required": ["mode"]}, format_id="modes")
    folder = tmp_path / "specs" / "modes"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    field = lower(load_spec(folder, tmp_path)).models[0].fields[0]
    assert field.required and not field.has_default and json.loads(field.annotations) == {"default": "auto"}


def test_a_definitions_default_is_an_annotation_that_fills_in_nothing(tmp_path: Path) -> None:
    # OpenAI's WebSearchContextSize: an enum definition with a default. JSON Schema fills in nothing; neither does a
    # property that $refs it, and the default is kept (exported schema, docs) rather than refused.
    spec = _import({"type": "object", "properties": {"size": {"$ref": "#/$defs/Size"}},
                    "$defs": {"Size": {"type": "string", "enum": ["low", "high"], "default": "low"}}}, format_id="sizes")
    folder = tmp_path / "specs" / "sizes"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    fmt = lower(load_spec(folder, tmp_path))
    assert json.loads(fmt.definition("Size").annotations) == {"default": "low"}
    assert not fmt.models[0].fields[0].has_default


def test_the_command_writes_the_spec_and_refuses_to_overwrite_it(tmp_path: Path) -> None:
    (tmp_path / "specs").mkdir()
    done = run_chatspec(tmp_path, "import", str(REALWORLD / "otel-gen-ai-input-messages.json"), "--format", "otel_input")
    assert done.returncode == 0, done.stderr
    spec = json.loads((tmp_path / "specs" / "otel_input" / "spec.json").read_text(encoding="utf-8"))
    assert spec["$ref"] == "#/$defs/InputMessages" and spec["x-source"]["file"] == "otel-gen-ai-input-messages.json"
    again = run_chatspec(tmp_path, "import", str(REALWORLD / "otel-gen-ai-input-messages.json"), "--format", "otel_input")
    assert again.returncode == 2 and "--update" in again.stderr
    assert run_chatspec(tmp_path, "bump", "otel_input").returncode == 0
    assert run_chatspec(tmp_path, "generate").returncode == 0
    assert (tmp_path / "generated" / "docs" / "otel_input.md").read_text(encoding="utf-8").count("Adopted from `otel-gen-ai-input-messages.json`") == 1


def test_an_import_killed_while_writing_the_spec_leaves_a_file_the_next_import_removes(tmp_path: Path) -> None:
    # The spec is written to .spec.json.<pid>.chatspec-tmp and renamed: a killed import left that file in the user's
    # spec folder, where git shows it, and generate (which sweeps only the folders it writes) never removed it.
    source = tmp_path / "upstream.json"
    source.write_text(json.dumps({"title": "Note", "type": "object", "properties": {"text": {"type": "string"}}}))
    folder = tmp_path / "specs" / "note"
    folder.mkdir(parents=True)
    killed = folder / f".spec.json.{dead_pid()}.chatspec-tmp"
    killed.write_text('{"half": ')
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as running:
        try:
            writing = folder / f".spec.json.{running.pid}.chatspec-tmp"  # another import writing right now
            writing.write_text("{")
            others = [folder / ".spec.json.chatspec-tmp", folder / f".other.json.{dead_pid()}.chatspec-tmp", folder / "notes.txt"]
            for other in others:
                other.write_text("the user's")
            done = run_chatspec(tmp_path, "import", str(source), "--format", "note")
            assert done.returncode == 0, done.stderr
            assert not killed.exists() and writing.exists() and all(other.exists() for other in others)
        finally:
            running.kill()


def test_update_keeps_the_version_so_diff_and_bump_classify_the_new_upstream(tmp_path: Path) -> None:
    source = tmp_path / "upstream.json"
    source.write_text(json.dumps({"title": "Note", "type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}))
    assert run_chatspec(tmp_path, "import", str(source), "--format", "note").returncode == 0
    assert run_chatspec(tmp_path, "bump", "note").returncode == 0
    source.write_text(json.dumps({"title": "Note", "type": "object", "properties": {"text": {"type": "string"}, "lang": {"type": "string"}},
                                  "required": ["text", "lang"]}))
    done = run_chatspec(tmp_path, "import", str(source), "--format", "note", "--update")
    assert done.returncode == 0, done.stderr
    diff = run_chatspec(tmp_path, "diff", "note")
    assert "needs a major bump" in diff.stdout and "lang" in diff.stdout, diff.stdout


def test_two_published_versions_of_one_schema_are_followed_with_update_diff_and_bump(tmp_path: Path) -> None:
    # OpenTelemetry's GenAI input messages as first published (three part types, a pydantic discriminator in a JSON
    # Schema, no titles) and as published later (twelve part types, titles, a renamed part): the real upgrade path.
    (tmp_path / "specs").mkdir()
    first = run_chatspec(tmp_path, "import", str(REALWORLD / "otel-gen-ai-input-messages-32e44cb.json"), "--format", "otel_input")
    assert first.returncode == 0, first.stderr
    assert run_chatspec(tmp_path, "bump", "otel_input").returncode == 0
    done = run_chatspec(tmp_path, "import", str(REALWORLD / "otel-gen-ai-input-messages.json"), "--format", "otel_input", "--update")
    assert done.returncode == 0, done.stderr
    spec = json.loads((tmp_path / "specs" / "otel_input" / "spec.json").read_text(encoding="utf-8"))
    # The root keeps the name users' code holds, though upstream has since given it a title.
    assert spec["$ref"] == "#/$defs/OtelInput" and spec["x-version"] == "1.0.0"
    diff = run_chatspec(tmp_path, "diff", "otel_input")
    for change in (
        "needs a major bump",
        "major: definition removed: ToolCallPart",  # renamed ToolCallRequestPart upstream
        "major: field removed: ToolCallResponsePart.result",
        "major: required field added: ToolCallResponsePart.response",
        "minor: definition added: ReasoningPart",
        "minor: optional field added: ChatMessage.name",
        "major: default changed: ToolCallResponsePart.id (none -> null)",
        "patch: x-source changed",
    ):
        assert change in diff.stdout, diff.stdout
    assert "root model changed" not in diff.stdout
    bumped = run_chatspec(tmp_path, "bump", "otel_input")
    assert bumped.returncode == 0 and "locked 2.0.0" in bumped.stdout, bumped.stdout + bumped.stderr
    assert run_chatspec(tmp_path, "generate").returncode == 0
    # The kept major: readers of the first version keep their package beside the new one.
    assert (tmp_path / "generated" / "python" / "chatformats" / "otel_input_v1.py").is_file()


def test_an_unknown_keyword_means_nothing_as_in_the_source_and_is_noted() -> None:
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"Text": {"type": "object", "properties": {"type": {"const": "text"}}, "required": ["type"]}},
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLenght": 3},
            "part": {"oneOf": [{"$ref": "#/$defs/Text"}], "discriminator": {"propertyName": "type", "mapping": {"text": "#/$defs/Text"}}},
        },
    }
    imported = import_schema(document, "source.json", "", "adopted")
    name, part = imported.spec["$defs"]["Adopted"]["properties"]["name"], imported.spec["$defs"]["Adopted"]["properties"]["part"]
    assert name == {"type": "string", "x-ignored": {"minLenght": 3}}
    assert part["x-openapi"]["discriminator"]["mapping"] == {"text": "#/$defs/Text"}
    assert [(n.pointer, n.reason) for n in imported.notes] == [
        ("/properties/name/minLenght", "unknown keyword 'minLenght' kept in x-ignored: it means nothing in the source (did you mean 'minLength'?)")
    ]


def test_a_refused_import_writes_nothing_and_lists_every_problem(tmp_path: Path) -> None:
    source = tmp_path / "remote.json"
    source.write_text(json.dumps({"type": "object", "properties": {"a": {"$ref": "other.json#/a"}, "b": {"$anchor": "b"}}}))
    done = run_chatspec(tmp_path, "import", str(source), "--format", "remote")
    assert done.returncode == 2 and "2 construct(s) cannot be imported; nothing was written" in done.stderr
    assert "at /properties/a/$ref:" in done.stderr and "at /properties/b/$anchor:" in done.stderr
    assert not (tmp_path / "specs").exists()
    # And what chatspec itself refuses is found before anything is written.
    source.write_text(json.dumps({"type": "object", "properties": {"a": {"type": "string", "pattern": "(?=x)"}}}))
    done = run_chatspec(tmp_path, "import", str(source), "--format", "remote")
    assert done.returncode == 2 and "look" in done.stderr.lower() and not (tmp_path / "specs" / "remote").exists()
    assert "in the source: remote.json#/properties/a/pattern" in done.stderr, done.stderr  # not only the spec's pointer


def test_a_definition_named_like_the_root_schema_stays_itself() -> None:
    # Found by a red-team pass: the root, named after its title, took the definition's place and every $ref to it.
    spec = _import({"$schema": "http://json-schema.org/draft-07/schema#", "title": "Message", "type": "object", "required": ["m"],
                    "properties": {"m": {"$ref": "#/definitions/Message"}}, "definitions": {"Message": {"type": "string"}}})
    assert spec["$ref"] == "#/$defs/Message2" and spec["$defs"]["Message"]["type"] == "string"
    assert spec["$defs"]["Message2"]["properties"]["m"] == {"$ref": "#/$defs/Message"}


def test_refs_into_the_root_schema_and_into_translated_parts_point_where_they_did() -> None:
    spec = _import({"$schema": "http://json-schema.org/draft-07/schema#", "title": "Tree", "type": "object", "properties": {
        "a": {"type": "string"}, "b": {"$ref": "#/properties/a"}, "kids": {"type": "array", "items": {"$ref": "#"}},
        "t": {"$ref": "#/definitions/T/items/1"}, "odd": {"$ref": "#/definitions/P/properties/a%25b"}},
        "definitions": {"T": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
                        "P": {"type": "object", "properties": {"a%b": {"type": "boolean"}}}}})
    props = spec["$defs"]["Tree"]["properties"]
    assert props["b"] == {"$ref": "#/$defs/Tree/properties/a"} and props["kids"]["items"] == {"$ref": "#/$defs/Tree"}
    assert props["t"] == {"$ref": "#/$defs/T/prefixItems/1"} and props["odd"] == {"$ref": "#/$defs/P/properties/a%25b"}
    # With a definition as the root, the document's root schema is not imported: a $ref into it is listed.
    problems = _refused({"type": "object", "properties": {"x": {"$ref": "#"}}, "$defs": {"A": {"$ref": "#/properties/x"}}}, "#/$defs/A")
    assert problems and "not imported" in problems[0][1]


def test_keywords_draft_07_does_not_know_meant_nothing_there_and_are_kept_as_such() -> None:
    spec = _import({"$schema": "http://json-schema.org/draft-07/schema#", "title": "Root", "type": "object", "properties": {
        "p": {"type": "array", "prefixItems": [{"type": "string"}]}, "d": {"type": "object", "dependentRequired": {"x": ["y"]}}}})
    props = spec["$defs"]["Root"]["properties"]
    assert props["p"] == {"type": "array", "x-ignored": {"prefixItems": [{"type": "string"}]}}
    assert props["d"] == {"type": "object", "x-ignored": {"dependentRequired": {"x": ["y"]}}}


def test_two_definitions_of_one_name_and_draft_04_bounds() -> None:
    problems = _refused({"type": "string", "$defs": {"A": {"type": "string"}}, "definitions": {"A": {"type": "integer"}}})
    assert problems == [("/definitions/A", "both $defs and definitions define 'A'")]
    spec = _import({"openapi": "3.0.3", "components": {"schemas": {"N": {"type": "number", "minimum": 0, "exclusiveMinimum": True,
                                                                       "maximum": 9, "exclusiveMaximum": False}}}}, "#/components/schemas/N")
    assert spec["$defs"]["N"] == {"description": "N (no description in the source).", "type": "number", "exclusiveMinimum": 0, "maximum": 9}
    # Draft-07's empty tuple beside additionalItems: every item is additionalItems'.
    empty = _import({"$schema": "http://json-schema.org/draft-07/schema#", "title": "E", "type": "array", "items": [], "additionalItems": {"type": "string"}})
    assert empty["$defs"]["E"] == {"description": "E (no description in the source).", "title": "E", "type": "array", "items": {"type": "string"}}


def test_yaml_as_json_holds_it_and_what_cannot_be_read_is_one_clear_error(tmp_path: Path) -> None:
    source = tmp_path / "api.yaml"
    source.write_text("openapi: 3.0.3\ninfo: {title: T, version: '1'}\ncomponents:\n  schemas:\n    M:\n      type: object\n"
                      "      properties:\n        d: {type: string, default: 2024-01-01, example: 2024-01-01T00:00:00Z}\n"
                      "        b: {type: string, format: byte}\n        200: {type: integer}\n", encoding="utf-8")
    done = run_chatspec(tmp_path, "import", f"{source}#/components/schemas/M", "--format", "yaml_api")
    assert done.returncode == 0, done.stderr
    props = json.loads((tmp_path / "specs" / "yaml_api" / "spec.json").read_text(encoding="utf-8"))["$defs"]["M"]["properties"]
    assert props["d"] == {"type": "string", "default": "2024-01-01", "examples": ["2024-01-01T00:00:00Z"]} and "200" in props
    assert run_chatspec(tmp_path, "bump", "yaml_api").returncode == 0 and run_chatspec(tmp_path, "generate").returncode == 0
    for text in ("title: [unclosed", "? [a, b]\n: 1\n"):
        source.write_text(text, encoding="utf-8")
        done = run_chatspec(tmp_path, "import", str(source), "--format", "broken_yaml")
        assert done.returncode == 2 and "cannot read the source" in done.stderr and "Traceback" not in done.stderr, done.stderr
    deep = tmp_path / "deep.json"
    deep.write_text('{"items": ' * 100_000 + "{}" + "}" * 100_000, encoding="utf-8")
    done = run_chatspec(tmp_path, "import", str(deep), "--format", "deep")
    assert done.returncode == 2 and "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr


def test_yaml_is_read_as_yaml_1_2_and_a_key_written_twice_is_refused(tmp_path: Path) -> None:
    # OpenAPI 3.1 and JSON Schema documents are YAML 1.2: PyYAML's 1.1 would read this enum as [true, false], the
    # bound as 8 and 1e3 as a string, and a schema that meant other values would be imported in silence.
    source = tmp_path / "switch.yaml"
    source.write_text("type: object\nproperties:\n  mode: {type: string, enum: [yes, no, on, off]}\n"
                      "  n: {type: integer, maximum: 010}\n  f: {type: number, maximum: 1e3}\n", encoding="utf-8")
    props = import_schema(read_source(source), "switch.yaml", "", "switch").spec["$defs"]["Switch"]["properties"]
    assert props == {"mode": {"type": "string", "enum": ["yes", "no", "on", "off"]}, "n": {"type": "integer", "maximum": 10},
                     "f": {"type": "number", "maximum": 1000.0}}
    for name, text, key in (("twice.yaml", "type: object\ntype: string\n", "type"), ("twice.json", '{"type": "object", "type": "string"}', "type"),
                            ("twice_as_json.yaml", "type: object\nproperties:\n  1: {}\n  01: {}\n", "1")):  # one key "1" in JSON
        (tmp_path / name).write_text(text, encoding="utf-8")
        done = run_chatspec(tmp_path, "import", str(tmp_path / name), "--format", "twice")
        assert done.returncode == 2 and f"'{key}' is written twice" in done.stderr, done.stderr


def test_a_discriminator_mapping_that_names_no_definition_is_kept_as_written() -> None:
    # In a JSON Schema document (pydantic writes them) the discriminator meant nothing to a validator: a mapping to a
    # definition the document lacks, or a bare name, is kept as written rather than refusing the import.
    spec = _import({"$schema": "https://json-schema.org/draft/2020-12/schema", "oneOf": [{"$ref": "#/$defs/Cat"}],
                    "discriminator": {"propertyName": "t", "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog", "bird": "Bird"}},
                    "$defs": {"Cat": {"type": "object", "properties": {"t": {"const": "cat"}}, "required": ["t"]}}}, format_id="pets")
    assert spec["$defs"]["Pets"]["x-openapi"]["discriminator"]["mapping"] == {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog", "bird": "Bird"}
    assert list(spec["$defs"]) == ["Pets", "Cat"]


def test_a_default_chatspec_would_refuse_is_found_before_anything_is_written(tmp_path: Path) -> None:
    source = tmp_path / "s.json"
    source.write_text(json.dumps({"title": "S", "type": "object", "properties": {"a": {"type": "integer", "default": "zero"}}}))
    done = run_chatspec(tmp_path, "import", str(source), "--format", "s")
    assert done.returncode == 2 and "nothing was written" in done.stderr and "fails the field's own schema" in done.stderr
    assert not (tmp_path / "specs" / "s").exists()
    (tmp_path / "specs" / "t").mkdir(parents=True)
    (tmp_path / "specs" / "t" / "spec.json").write_text("{broken", encoding="utf-8")
    source.write_text(json.dumps({"title": "S", "type": "string"}))
    done = run_chatspec(tmp_path, "import", str(source), "--format", "t", "--update")
    assert done.returncode == 2 and "cannot read the spec to update" in done.stderr and "Traceback" not in done.stderr


def _same_verdicts(source: dict[str, Any], spec: dict[str, Any], payloads: list[Any], source_validator: Any = None) -> None:
    """jsonschema on the source (in its own dialect) and on the imported spec give every payload one verdict."""
    from jsonschema import Draft202012Validator, validators

    theirs = (source_validator or validators.validator_for(source, default=Draft202012Validator))(source)
    ours = Draft202012Validator(spec)
    for payload in payloads:
        assert theirs.is_valid(payload) == ours.is_valid(payload), (payload, json.dumps(spec)[:600])


def test_a_ref_is_translated_by_what_each_token_names_not_by_its_spelling() -> None:
    # A property named "definitions" (or "dependencies") is a property: only a keyword of a schema is renamed.
    source = {"type": "object", "properties": {"definitions": {"type": "string"}, "$defs": {"type": "integer"},
                                                "dependencies": {"type": "boolean"},
                                                "a": {"$ref": "#/properties/definitions"}, "b": {"$ref": "#/properties/dependencies"}}}
    spec = _import(source)
    _same_verdicts(source, spec, [{"a": "s"}, {"a": 1}, {"b": True}, {"b": "x"}, {"definitions": 1}, {"$defs": "x"}])
    # A schema holding both $defs and definitions: both kept where their names differ, refused where one name is both.
    source = {"type": "object", "properties": {"p": {"definitions": {"A": {"type": "string"}}, "$defs": {"B": {"type": "integer"}}},
                                                "a": {"$ref": "#/properties/p/definitions/A"}, "b": {"$ref": "#/properties/p/$defs/B"}}}
    _same_verdicts(source, _import(source), [{"a": "s"}, {"a": 1}, {"b": 1}, {"b": "s"}])
    source["properties"]["p"]["$defs"]["A"] = {"type": "integer"}
    assert ("/properties/p/definitions/A", "both $defs and definitions define 'A'") in _refused(source)


def test_keywords_mean_what_the_sources_dialect_says() -> None:
    # dependencies is draft-07's (and older): in a 2020-12 document, or one that names no dialect, it means nothing.
    for dialect in ({"$schema": "https://json-schema.org/draft/2020-12/schema"}, {}):
        source = {**dialect, "type": "object", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}
        spec = _import(source)
        assert spec["$defs"]["Adopted"]["x-ignored"] == {"dependencies": source["dependencies"]}
        _same_verdicts(source, spec, [{"a": 1}, {"c": 1}, {"a": 1, "b": 2}])
    # OpenAPI 3.0's Reference Object: the assertions beside a $ref "SHALL be ignored"; its annotations and nullable stay.
    api = {"openapi": "3.0.3", "info": {"title": "T", "version": "1"}, "components": {"schemas": {
        "M": {"type": "object", "properties": {"s": {"$ref": "#/components/schemas/S", "maxLength": 3, "description": "An S."},
                                               "n": {"$ref": "#/components/schemas/S", "nullable": True}}},
        "S": {"type": "string"}}}}
    props = _import(api, "#/components/schemas/M")["$defs"]["M"]["properties"]
    assert props["s"] == {"$ref": "#/$defs/S", "description": "An S.", "x-ignored": {"maxLength": 3}}
    assert props["n"] == {"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}


def test_a_ref_that_could_name_the_root_by_mistake_is_refused() -> None:
    # An anchor (#a) and a definition named "" would both have been read as the document's root schema.
    assert _refused({"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#a"}}}) == [
        ("/properties/b/$ref", "$ref '#a' names an anchor: chatspec resolves only JSON pointers (#/...)")]
    refused = _refused({"type": "object", "properties": {"a": {"$ref": "#/$defs/"}}, "$defs": {"": {"type": "string"}}})
    assert ("/$defs/", "a definition with an empty name: chatspec names each type after it") in refused
    assert _refused({"type": "object", "$defs": [1, 2]}) == [("/$defs", "$defs is not an object of named schemas")]


def test_hostile_yaml_and_json_are_refused_at_once_with_where_and_why(tmp_path: Path) -> None:
    import time

    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8))
    cases = {
        "cycle.yaml": ("type: object\nproperties: {a: &x {type: object, properties: {b: *x}}}\n", "aliases expand"),
        "self.yaml": ("a: &a [*a]\n", "aliases expand"),
        "laughs.yaml": (f"type: object\n{laughs}enum: *i\n", "aliases expand"),
        "binary.yaml": ("type: string\nconst: !!binary aGVsbG8=\n", "bytes"),
        "set.yaml": ("type: array\nenum: [!!set {a, b}]\n", "set"),
    }
    for name, (text, said) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        started = time.process_time()
        done = run_chatspec(tmp_path, "import", str(tmp_path / name), "--format", "hostile")
        assert done.returncode == 2 and "cannot read the source" in done.stderr and said in done.stderr, (name, done.stderr)
        assert "internal error" not in done.stderr and len(done.stderr) < 2000, (name, done.stderr[:500])
        assert time.process_time() - started < 30  # (the child's time is not counted: this guards only the parent)
    assert not (tmp_path / "specs").exists()
    # A lone surrogate in a name, an examples that is no list beside OpenAPI's example, 400 levels of allOf.
    source = tmp_path / "s.json"
    source.write_text('{"type": "object", "properties": {"\\ud800": {"type": "string"}}}', encoding="utf-8")
    done = run_chatspec(tmp_path, "import", str(source), "--format", "lone")
    assert done.returncode == 2 and "surrogate" in done.stderr and "/properties/\\ud800" in done.stderr.replace("\udc00", ""), done.stderr
    assert "internal error" not in done.stderr
    api = {"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
           "components": {"schemas": {"M": {"type": "string", "example": "a", "examples": "abc"}}}}
    assert _import(api, "#/components/schemas/M")["$defs"]["M"]["examples"] == ["abc", "a"]
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(400):
        deep = {"allOf": [deep]}
    source.write_text(json.dumps(deep), encoding="utf-8")
    done = run_chatspec(tmp_path, "import", str(source), "--format", "deep")
    assert done.returncode == 2 and "internal error" not in done.stderr and "deeply" in done.stderr, done.stderr


def test_import_never_writes_through_a_link_out_of_the_project(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "specs").mkdir(parents=True)
    outside.mkdir()
    (project / "specs" / "evil").symlink_to(outside)
    precious = tmp_path / "precious.json"
    precious.write_text('{"keep": true}', encoding="utf-8")
    (project / "specs" / "victim").mkdir()
    (project / "specs" / "victim" / "spec.json").symlink_to(precious)
    source = tmp_path / "s.json"
    source.write_text(json.dumps({"title": "S", "type": "string"}), encoding="utf-8")
    for format_id, update in (("evil", []), ("victim", ["--update"])):
        done = run_chatspec(project, "import", str(source), "--format", format_id, *update)
        assert done.returncode != 0 and "symbolic link" in done.stderr, done.stderr
    assert list(outside.iterdir()) == [] and precious.read_text(encoding="utf-8") == '{"keep": true}'


def test_update_keeps_the_edits_made_in_the_spec_and_refuses_to_drop_one_in_silence(tmp_path: Path) -> None:
    source = tmp_path / "upstream.json"
    source.write_text(json.dumps({"title": "Note", "type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}))
    assert run_chatspec(tmp_path, "import", str(source), "--format", "note").returncode == 0
    path = tmp_path / "specs" / "note" / "spec.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    # What chatspec's own hints ask for: a promise, a name, a message.
    spec["x-compatibility"] = "backward"
    spec["$defs"]["Note"]["properties"]["a"]["x-name"] = "alpha"
    spec["$defs"]["Note"]["properties"]["b"]["x-messages"] = {"type": "b is text"}
    path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    assert run_chatspec(tmp_path, "bump", "note").returncode == 0
    done = run_chatspec(tmp_path, "import", str(source), "--format", "note", "--update")
    assert done.returncode == 0 and "kept the spec's own /$defs/Note/properties/a/x-name" in done.stdout, done.stdout + done.stderr
    assert "0 change(s) since 1.0.0; needs no bump" in run_chatspec(tmp_path, "diff", "note").stdout
    updated = json.loads(path.read_text(encoding="utf-8"))
    assert updated["x-compatibility"] == "backward" and updated["$defs"]["Note"]["properties"]["a"]["x-name"] == "alpha"
    assert updated["$defs"]["Note"]["properties"]["b"]["x-messages"] == {"type": "b is text"}
    # Upstream drops b: its message has no place in the new import, and nothing is written.
    source.write_text(json.dumps({"title": "Note", "type": "object", "properties": {"a": {"type": "string"}}}))
    done = run_chatspec(tmp_path, "import", str(source), "--format", "note", "--update")
    assert done.returncode != 0 and "/$defs/Note/properties/b/x-messages" in done.stderr and "nothing was written" in done.stderr, done.stderr
    assert json.loads(path.read_text(encoding="utf-8")) == updated


def test_import_refuses_what_generate_would_beside_the_projects_other_formats(tmp_path: Path) -> None:
    sources = {
        "clash.json": ({"title": "S", "type": "object", "properties": {"a-b": {"type": "string"}, "a_b": {"type": "string"}}}, "the Python attribute 'a_b'"),
        "own.json": ({"title": "ValidationError", "type": "object", "properties": {"x": {"type": "string"}}}, "the generated package defines itself"),
    }
    for name, (document, said) in sources.items():
        (tmp_path / name).write_text(json.dumps(document), encoding="utf-8")
        done = run_chatspec(tmp_path, "import", str(tmp_path / name), "--format", name.split(".")[0])
        assert done.returncode == 2 and said in done.stderr and "nothing was written" in done.stderr, done.stderr
    (tmp_path / "s.json").write_text(json.dumps({"title": "S", "type": "string"}), encoding="utf-8")
    assert run_chatspec(tmp_path, "import", str(tmp_path / "s.json"), "--format", "a_bc").returncode == 0
    done = run_chatspec(tmp_path, "import", str(tmp_path / "s.json"), "--format", "ab_c")
    assert done.returncode == 2 and "the same Go package 'abc'" in done.stderr, done.stderr
    assert sorted(p.name for p in (tmp_path / "specs").iterdir()) == ["a_bc"]


def test_a_format_the_generated_code_checks_is_said_once_each() -> None:
    source = {"type": "object", "properties": {"id": {"type": "string", "format": "uuid"}, "other": {"type": "string", "format": "uuid"},
                                                "at": {"type": "string", "format": "date-time"}, "b": {"type": "string", "contentEncoding": "base64"},
                                                "n": {"type": "integer", "format": "int64"}}}
    notes = [(n.pointer, n.reason.split(" is ")[0]) for n in import_schema(source, "source.json", "", "adopted").notes]
    assert notes == [("/properties/id/format", "format 'uuid'"), ("/properties/at/format", "format 'date-time'"),
                     ("/properties/b/contentEncoding", "contentEncoding 'base64'")]


def test_update_refuses_to_carry_an_edit_to_a_list_item_upstream_replaced(tmp_path: Path) -> None:
    # The x-name given to the first variant of a oneOf would name another schema once upstream reorders them.
    variants = [{"type": "object", "properties": {"t": {"const": "a"}}, "required": ["t"]},
                {"type": "object", "properties": {"t": {"const": "b"}}, "required": ["t"]}]
    source = tmp_path / "upstream.json"
    source.write_text(json.dumps({"title": "U", "oneOf": variants}))
    assert run_chatspec(tmp_path, "import", str(source), "--format", "u").returncode == 0
    path = tmp_path / "specs" / "u" / "spec.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["$defs"]["U"]["oneOf"][0]["x-name"] = "AlphaPart"
    path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    assert run_chatspec(tmp_path, "import", str(source), "--format", "u", "--update").returncode == 0  # the same: kept
    assert json.loads(path.read_text(encoding="utf-8"))["$defs"]["U"]["oneOf"][0]["x-name"] == "AlphaPart"
    source.write_text(json.dumps({"title": "U", "oneOf": variants[::-1]}))
    done = run_chatspec(tmp_path, "import", str(source), "--format", "u", "--update")
    assert done.returncode != 0 and "/$defs/U/oneOf/0/x-name" in done.stderr, done.stdout + done.stderr


def test_a_ref_to_nothing_is_refused_not_repaired() -> None:
    # jsonschema finds nothing at these pointers (PointerToNowhere): the spec must not find something there.
    refused = _refused({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "$defs": {"X": {"type": "string"}},
                        "properties": {"a": {"$ref": "#/definitions/X"}}})
    assert refused == [("/properties/a/$ref", "$ref '#/definitions/X' points to nothing in the document")]
    refused = _refused({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                        "definitions": {"X": {"$defs": {"Y": {"type": "string"}}}}, "properties": {"a": {"$ref": "#/definitions/X/definitions/Y"}}})
    assert refused == [("/properties/a/$ref", "the $ref points to nothing in the document: no /definitions/Y in the definition it names")]


def test_update_carries_no_edit_into_data_or_onto_a_definition_upstream_renumbered(tmp_path: Path) -> None:
    enums = {"chat.mode": {"type": "string", "enum": ["fast", "slow"]}, "chat-mode": {"type": "string", "enum": ["user", "admin"]}}
    source = tmp_path / "upstream.json"

    def publish(defs: dict[str, Any], const: Any) -> None:
        source.write_text(json.dumps({"title": "M", "type": "object", "$defs": defs, "properties": {
            "mode": {"$ref": "#/$defs/chat.mode"}, "role": {"$ref": "#/$defs/chat-mode"}, "meta": {"type": "object", "const": const}}}))

    publish(enums, {"x-name": "legacy"})
    assert run_chatspec(tmp_path, "import", str(source), "--format", "m").returncode == 0
    path = tmp_path / "specs" / "m" / "spec.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    assert spec["$defs"]["ChatMode"]["enum"] == ["fast", "slow"]
    spec["$defs"]["ChatMode"]["x-messages"] = {"enum": "mode must be fast or slow"}
    path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    # Upstream's const changes: data, never an edit of the spec's.
    publish(enums, {})
    done = run_chatspec(tmp_path, "import", str(source), "--format", "m", "--update")
    assert done.returncode == 0 and "const" not in done.stdout, done.stdout + done.stderr
    spec = json.loads(path.read_text(encoding="utf-8"))
    assert spec["$defs"]["M"]["properties"]["meta"]["const"] == {} and spec["$defs"]["ChatMode"]["x-messages"]
    # Upstream lists the two in the other order: ChatMode is now the user/admin enum, which the message is not about.
    publish(dict(reversed(enums.items())), {})
    done = run_chatspec(tmp_path, "import", str(source), "--format", "m", "--update")
    assert done.returncode != 0 and "/$defs/ChatMode/x-messages" in done.stderr, done.stdout + done.stderr
    assert json.loads(path.read_text(encoding="utf-8")) == spec


def test_a_yaml_anchor_reused_by_every_property_is_read(tmp_path: Path) -> None:
    codes = ", ".join(f"{a}{b}" for a in "abcdefghij" for b in "abcdefghijklmnopqrst")
    props = "".join(f"  p{i}: {{type: string, enum: *langs}}\n" for i in range(40))
    source = tmp_path / "langs.yaml"
    source.write_text(f"type: object\nx-codes: &langs [{codes}]\nproperties:\n{props}", encoding="utf-8")
    assert read_source(source)["properties"]["p39"]["enum"][-1] == "jt"
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "deep").mkdir()
    (tmp_path / "specs" / "deep" / "spec.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    done = run_chatspec(tmp_path, "import", str(source), "--format", "deep", "--update")
    assert done.returncode == 2 and "nests too deeply" in done.stderr and "internal error" not in done.stderr, done.stderr


def test_update_reads_the_spec_by_position_and_refuses_an_edit_the_source_now_overrides(tmp_path: Path) -> None:
    source = tmp_path / "upstream.json"

    def publish(props: dict[str, Any], defs: dict[str, Any]) -> None:
        source.write_text(json.dumps({"title": "Note", "type": "object", "properties": props, "$defs": defs}))

    mode = {"type": "string", "enum": ["a", "b"]}
    publish({"x-trace": {"type": "string"}, "x-name": {"type": "string"}, "m": {"$ref": "#/$defs/Mode"}}, {"Mode": mode})
    assert run_chatspec(tmp_path, "import", str(source), "--format", "note").returncode == 0
    path = tmp_path / "specs" / "note" / "spec.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["$defs"]["Note"]["properties"]["x-trace"]["x-messages"] = {"type": "a trace is text"}  # in a property named x-...
    spec["$defs"]["Mode"]["x-open"] = True
    path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    # Upstream drops the property named x-name (a name, no edit of the spec's): it stays dropped; the edit in x-trace is kept.
    publish({"x-trace": {"type": "string"}, "m": {"$ref": "#/$defs/Mode"}}, {"Mode": mode})
    done = run_chatspec(tmp_path, "import", str(source), "--format", "note", "--update")
    assert done.returncode == 0, done.stdout + done.stderr
    props = json.loads(path.read_text(encoding="utf-8"))["$defs"]["Note"]["properties"]
    assert "x-name" not in props and props["x-trace"]["x-messages"] == {"type": "a trace is text"}
    # Upstream now writes x-open itself, otherwise: the edit is not silently overridden.
    publish({"x-trace": {"type": "string"}, "m": {"$ref": "#/$defs/Mode"}}, {"Mode": {**mode, "x-open": False}})
    done = run_chatspec(tmp_path, "import", str(source), "--format", "note", "--update")
    assert done.returncode != 0 and "/$defs/Mode/x-open" in done.stderr, done.stdout + done.stderr

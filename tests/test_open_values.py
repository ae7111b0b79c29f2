"""Issue 30 part 1: open enums and unions (x-open). A reader keeps a string an open enum does not list,
or an object whose tag is a string no variant of an open union has, as an unknown value, and writes it
back unchanged; every listed value and known variant is checked as before, and a closed enum or union
beside them still refuses what it does not list. Python, Go, TypeScript and pydantic agree, and so does
jsonschema on the exported JSON Schema, which states the open meaning in standard keywords.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import conformance
import pytest

from generator.core import generate
from generator.errors import SpecError
from generator.export import export
from generator.load import load_spec
from generator.lower import lower

FORMAT = "open_values"

SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Open values",
    "description": "Open enums and unions beside closed ones.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Turn",
    "$defs": {
        "Turn": {
            "type": "object",
            "description": "A turn.",
            "properties": {
                "role": {"$ref": "#/$defs/Role", "description": "Who: open."},
                "mode": {"$ref": "#/$defs/Mode", "description": "A closed enum."},
                "parts": {"type": "array", "items": {"$ref": "#/$defs/Part"}, "description": "Parts."},
                "part": {"$ref": "#/$defs/Part", "description": "One part."},
                "sealed": {"$ref": "#/$defs/Sealed", "description": "A closed union."},
                "roles": {"type": "object", "additionalProperties": {"$ref": "#/$defs/Role"}, "description": "Roles."},
            },
            "required": ["role"],
        },
        "Role": {"type": "string", "enum": ["user", "assistant"], "description": "A role.", "x-open": True},
        "Mode": {"type": "string", "enum": ["a", "b"], "description": "A mode."},
        "TextPart": {
            "type": "object",
            "description": "A text part.",
            "properties": {"type": {"const": "text", "description": "The tag."}, "text": {"type": "string", "description": "Text."}},
            "required": ["type", "text"],
        },
        "ImagePart": {
            "type": "object",
            "description": "An image part: closed.",
            "properties": {"type": {"const": "image", "description": "The tag."}, "url": {"type": "string", "description": "Where."}},
            "required": ["type", "url"],
            "additionalProperties": False,
        },
        "Part": {
            "oneOf": [{"$ref": "#/$defs/TextPart"}, {"$ref": "#/$defs/ImagePart"}],
            "x-discriminator": "type",
            "description": "A part: open.",
            "x-open": True,
        },
        "Sealed": {"oneOf": [{"$ref": "#/$defs/TextPart"}, {"$ref": "#/$defs/ImagePart"}], "description": "A closed union (inferred tag)."},
    },
}

ACCEPTED = [
    {"role": "user"},
    {
        "role": "tool",
        "parts": [{"type": "text", "text": "a"}, {"type": "video", "src": [1, {"a": None}], "b": 1.5}, {"type": "image", "url": "u"}],
        "part": {"type": "x"},
        "roles": {"a": "narrator", "b": "user"},
    },
    # The empty string, a tag JavaScript objects treat specially, a tag a known one with a line feed.
    {"role": "", "part": {"type": "", "z": {"y": [[[]]]}}},
    {"role": "USER", "part": {"type": "__proto__", "constructor": 1}},
    {"role": "user\n", "part": {"type": "text\n"}, "sealed": {"type": "text", "text": "t"}},
]

REFUSED = [
    ({"role": 1}, [["/role", "must be a string"]]),
    ({"role": "u", "part": {"type": 5}}, [["/part/type", "field 'type' must be a string"]]),
    ({"role": "u", "part": {"url": 5}}, [["/part/type", "missing required field 'type'"]]),
    ({"role": "u", "part": ["text"]}, [["/part", "must be an object"]]),
    # A known tag is held to its variant, as before.
    ({"role": "u", "part": {"type": "text"}}, [["/part/text", "missing required field 'text'"]]),
    ({"role": "u", "part": {"type": "image", "url": "x", "extra": 1}}, [["/part/extra", "unknown field 'extra'"]]),
    ({"role": "u", "parts": [{"type": "text", "text": 5}]}, [["/parts/0/text", "must be a string"]]),
    # The closed enum and union beside them refuse what they do not list.
    ({"role": "u", "sealed": {"type": "video"}}, [["/sealed/type", "field 'type' must be one of: text, image"]]),
    ({"role": "u", "mode": "c"}, [["/mode", "must be one of: a, b"]]),
    ({"role": "u", "roles": {"a": 2}}, [["/roles/a", "must be a string"]]),
]


def _deep(levels: int) -> Any:
    value: Any = []
    for _ in range(levels):
        value = [value]
    return value


def _text(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False)


def _project(tmp: Path, spec: dict[str, Any]) -> Path:
    folder = tmp / "specs" / FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec, indent=2), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    project = tmp_path_factory.mktemp("open_values")
    files = generate([load_spec(_project(project, SPEC), project)], targets=["python", "go", "typescript"])
    return conformance.build(files, [FORMAT], project / "out")


def _lowered(spec: dict[str, Any]) -> Any:
    import tempfile

    root = Path(tempfile.mkdtemp())
    return lower(load_spec(_project(root, spec), root))


@pytest.fixture(scope="module")
def exported() -> dict[str, Any]:
    return export(_lowered(SPEC))


def test_every_language_keeps_what_it_does_not_know_and_writes_it_back(built: conformance.Built) -> None:
    found = built.verdicts([(FORMAT, _text(doc), None) for doc in ACCEPTED])
    assert set(found) == {"python", "go", "typescript"}
    for language, verdicts in found.items():
        for doc, verdict in zip(ACCEPTED, verdicts):
            assert verdict.get("ok") is True, f"{language} refused {doc}: {verdict}"
            assert json.loads(verdict["written"]) == doc, f"{language} wrote {verdict['written']} for {doc}"


def test_known_values_and_closed_types_are_checked_as_before(built: conformance.Built) -> None:
    deep = {"role": "u", "part": {"type": "x", "deep": _deep(130)}}
    cases = [*REFUSED, (deep, None)]
    found = built.verdicts([(FORMAT, _text(doc), None) for doc, _ in cases])
    for language, verdicts in found.items():
        assert [v.get("errors") for v in verdicts[:-1]] == [errors for _, errors in REFUSED], language
        assert verdicts[-1].get("ok") is False, f"{language} kept a value deeper than the input policy allows"
        assert {m for _, m in verdicts[-1]["errors"]} == {"nesting deeper than 128 levels is not accepted"}, language


def test_a_bad_value_in_an_unknown_variant_is_reported_at_its_own_pointer(built: conformance.Built) -> None:
    # As an open model's other properties are: each property of the unknown variant is read at its pointer.
    text = '{"role": "u", "part": {"type": "q", "ok": [1], "zz": 1e400, "big": -1e999}}'
    found = built.verdicts([(FORMAT, text, None)])
    for language, (verdict,) in found.items():
        assert verdict.get("errors") == [["/part/zz", "must be a JSON value"], ["/part/big", "must be a JSON value"]], language


def test_the_exported_json_schema_gives_the_same_verdicts(exported: dict[str, Any]) -> None:
    # jsonschema on the export: the open enum as anyOf its values and any string, the open union with a variant for the
    # other tags (and without OpenAPI's discriminator, whose mapping would be closed).
    judge = conformance.oracle(exported)
    assert [judge.is_valid(doc) for doc in ACCEPTED] == [True] * len(ACCEPTED)
    assert [judge.is_valid(doc) for doc, _ in REFUSED] == [False] * len(REFUSED)
    assert "discriminator" not in exported["$defs"]["Part"]
    assert exported["$defs"]["Role"]["anyOf"] == [{"enum": ["user", "assistant"]}, {"type": "string"}]


def test_python_code_matches_on_unknown_and_writes_it_back(built: conformance.Built) -> None:
    code = """
import json
from chatformats import open_values as m, ValidationError
doc = m.parse_open_values_from_json(json.dumps({"role": "tool", "parts": [{"type": "video", "n": 1}, {"type": "text", "text": "t"}], "roles": {"a": "user"}}))
assert doc.role == m.Unknown("tool") and doc.roles == {"a": "user"}, doc
match doc.parts[0]:
    case m.Unknown(value):
        assert value == {"type": "video", "n": 1}
    case _:
        raise SystemExit(f"not an Unknown: {doc.parts[0]!r}")
assert isinstance(doc.parts[1], m.TextPart)
assert doc.to_dict()["role"] == "tool" and doc.to_dict()["parts"][0] == {"type": "video", "n": 1}
doc.validate()
doc.role = m.Unknown(5)  # no string: validate() judges what to_dict writes
try:
    doc.validate()
    raise SystemExit("validate() passed an unknown role of 5")
except ValidationError as exc:
    assert [(e.path, e.message) for e in exc.errors] == [("/role", "must be a string")], exc.errors
doc.role = "user"
doc.parts[0] = m.Unknown({"type": 1})
try:
    doc.validate()
    raise SystemExit("validate() passed an unknown part whose tag is no string")
except ValidationError as exc:
    assert [(e.path, e.message) for e in exc.errors] == [("/parts/0/type", "field 'type' must be a string")], exc.errors
assert "Unknown" in m.__all__
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, env={"PYTHONPATH": str(built.folder / "python")}
    )
    assert done.stdout.strip() == "ok", done.stdout + done.stderr


def test_the_pydantic_models_give_the_same_verdicts_and_keep_them_too(tmp_path: Path) -> None:
    conformance.write_files(generate([load_spec(_project(tmp_path, SPEC), tmp_path)], targets=["pydantic"]), tmp_path / "out")
    code = """
import json, sys
import pydantic
from chatformats_pydantic import open_values as m
accepted, refused = json.loads(sys.argv[1])
for doc in accepted:
    text = m.Turn.model_validate_json(json.dumps(doc)).model_dump_json(by_alias=True, exclude_unset=True)
    assert json.loads(text) == doc, (text, doc)
for doc in refused:
    try:
        m.Turn.model_validate_json(json.dumps(doc))
        raise SystemExit(f"pydantic accepted {doc}")
    except pydantic.ValidationError:
        pass
print("ok")
"""
    cases = json.dumps([ACCEPTED, [doc for doc, _ in REFUSED]])
    done = subprocess.run(
        [sys.executable, "-c", code, cases], capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path / "out" / "pydantic")}
    )
    assert done.stdout.strip() == "ok", done.stdout + done.stderr


def test_a_format_wide_x_open_opens_every_enum_and_tagged_union_but_one_that_says_false() -> None:
    spec = json.loads(json.dumps(SPEC))
    spec["x-open"] = True
    for name in ("Role", "Part"):
        del spec["$defs"][name]["x-open"]
    spec["$defs"]["Mode"]["x-open"] = False
    fmt = _lowered(spec)
    opened = {d.name: getattr(d, "open", None) or getattr(getattr(d, "type", None), "open", False) for d in fmt.definitions}
    assert opened == {"Turn": False, "Role": True, "Mode": False, "TextPart": False, "ImagePart": False, "Part": True, "Sealed": True}


REFUSED_SPECS = [
    # On an inline enum (only a named one is a type of its own).
    (("Turn", "properties", "mode"), {"type": "string", "enum": ["a"], "x-open": True}, "/$defs/Turn/properties/mode/x-open", "named enum"),
    # On a union told apart by JSON type.
    (("Turn", "properties", "mode"), {"oneOf": [{"type": "string"}, {"type": "integer"}], "x-open": True}, "/x-open", "x-open"),
    # Not a boolean.
    (("Role", "x-open"), "yes", "/$defs/Role/x-open", "boolean"),
    # In a schema applied as written.
    (("Turn", "properties", "mode"), {"not": {"type": "string"}, "x-open": True}, "/x-open", "x-open"),
]


@pytest.mark.parametrize("where, value, pointer, said", REFUSED_SPECS)
def test_x_open_where_it_would_mean_nothing_is_refused(tmp_path: Path, where: tuple[str, ...], value: Any, pointer: str, said: str) -> None:
    spec = json.loads(json.dumps(SPEC))
    node = spec["$defs"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(SpecError) as info:
        generate([load_spec(_project(tmp_path, spec), tmp_path)], targets=["python"])
    assert pointer in str(info.value) and said in str(info.value), str(info.value)


def test_names_the_unknown_case_takes_are_refused_with_the_fix(tmp_path: Path) -> None:
    spec = json.loads(json.dumps(SPEC))
    spec["$defs"]["Unknown"] = {
        "type": "object",
        "description": "Named like Python's Unknown.",
        "properties": {"type": {"const": "u"}},
        "required": ["type"],
    }
    with pytest.raises(SpecError, match="hide the runtime's Unknown"):
        generate([load_spec(_project(tmp_path / "py", spec), tmp_path / "py")], targets=["python"])
    spec["$defs"]["Part"]["oneOf"].append({"$ref": "#/$defs/Unknown"})
    with pytest.raises(SpecError, match="keeps the variants a later version adds"):
        generate([load_spec(_project(tmp_path / "go", spec), tmp_path / "go")], targets=["go"])


def test_drawn_documents_get_one_verdict_in_every_language_and_from_jsonschema(built: conformance.Built, exported: dict[str, Any]) -> None:
    # hypothesis-jsonschema draws from the export, whose unknown variant makes objects of tags no variant has.
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis_jsonschema import from_schema

    drawn: list[Any] = []
    schema = conformance.generation_schema(exported)

    @settings(max_examples=200, phases=[Phase.generate], suppress_health_check=list(HealthCheck), database=None, deadline=None)
    @given(from_schema(schema))
    def draw(doc: Any) -> None:
        drawn.append(doc)

    draw()
    judge = conformance.oracle(exported)
    found = built.verdicts([(FORMAT, _text(doc), None) for doc in drawn])
    unknown = sum(1 for doc in drawn if doc.get("role") not in ("user", "assistant"))
    assert unknown > 20, "the draws hold too few unknown roles to prove anything"
    wrong = []
    for i, doc in enumerate(drawn):
        for language, verdicts in found.items():
            v = verdicts[i]
            if v.get("ok") != judge.is_valid(doc):
                wrong.append(f"{language} says {v} for {_text(doc)}")
            elif v.get("ok") and "written" in v and json.loads(v["written"]) != doc:
                wrong.append(f"{language} wrote {v['written']} for {_text(doc)}")
    assert not wrong, f"{len(wrong)} disagreements; the first:\n" + "\n".join(w[:600] for w in wrong[:5])


def _changes(edit: Any) -> list[str]:
    from generator import compatibility
    from generator.classify import classify

    new = json.loads(json.dumps(SPEC))
    edit(new["$defs"])
    return [f"{c.level}: {c.what} | {compatibility.verdicts(c)}" for c in classify(_lowered(SPEC), _lowered(new))]


def _add_video(defs: dict[str, Any]) -> None:
    defs["VideoPart"] = {"type": "object", "properties": {"type": {"const": "video"}}, "required": ["type"]}
    defs["Part"]["oneOf"].append({"$ref": "#/$defs/VideoPart"})
    defs["Sealed"]["oneOf"].append({"$ref": "#/$defs/VideoPart"})


DIRECTIONS = [
    # (edit, the changes chatspec diff reports, each with both verdicts)
    (
        lambda d: d["Role"]["enum"].append("tool"),
        [
            "minor: enum value added: Role 'tool' | backward (new readers, old messages): compatible; forward (old readers, new "
            "messages): compatible; old readers keep it as an unknown value"
        ],
    ),
    (
        lambda d: d["Mode"]["enum"].append("c"),
        [
            "minor: enum value added: Mode 'c' | backward (new readers, old messages): compatible; forward (old readers, new "
            "messages): breaks: it accepts messages the old version refused"
        ],
    ),
    (
        lambda d: d["Role"]["enum"].remove("assistant"),
        [
            "major: enum value removed: Role 'assistant' | backward (new readers, old messages): compatible; forward (old readers, "
            "new messages): compatible; new readers keep it as an unknown value"
        ],
    ),
    (
        lambda d: d["Mode"]["enum"].remove("b"),
        [
            "major: enum value removed: Mode 'b' | backward (new readers, old messages): breaks; forward (old readers, "
            "new messages): compatible: it refuses messages the old version accepted"
        ],
    ),
    (
        lambda d: d["Mode"].update({"x-open": True}),
        [
            "minor: made open (x-open): Mode | backward (new readers, old messages): compatible; forward (old readers, new "
            "messages): breaks: it accepts messages the old version refused"
        ],
    ),
    (
        lambda d: d["Role"].pop("x-open"),
        [
            "major: made closed (x-open removed): Role | backward (new readers, old messages): breaks; forward (old readers, new "
            "messages): compatible: it refuses messages the old version accepted"
        ],
    ),
]


@pytest.mark.parametrize("edit, expected", DIRECTIONS)
def test_each_change_is_judged_for_readers_and_writers_of_open_and_closed_types(edit: Any, expected: list[str]) -> None:
    assert _changes(edit) == expected


def test_a_variant_added_to_an_open_union_is_kept_by_old_readers_and_breaks_closed_ones() -> None:
    found = _changes(_add_video)
    assert (
        "minor: union variant added: Part 'video' | backward (new readers, old messages): breaks; forward (old readers, new "
        "messages): compatible: it refuses messages the old version accepted; old readers keep it as an unknown variant"
    ) in found, found
    assert (
        "minor: union variant added: Sealed 'video' | backward (new readers, old messages): compatible; forward (old readers, "
        "new messages): breaks: it accepts messages the old version refused"
    ) in found, found


GO_TEST = """package openvalues

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestAnOpenEnumTakesAnyStringAndKnownSaysWhichAreListed(t *testing.T) {
	if !RoleUser.Known() || !RoleAssistant.Known() || Role("tool").Known() || Role("").Known() {
		t.Fatal("Known")
	}
	doc, err := ParseOpenValuesFromJSON([]byte(`{"role":"tool"}`))
	if err != nil || doc.Role != "tool" || doc.Role.Known() {
		t.Fatal(doc, err)
	}
}

func TestAnOpenUnionKeepsAnUnknownVariantInItsUnknownField(t *testing.T) {
	text := `{"role":"user","parts":[{"type":"video","n":1,"a":[true,null]},{"type":"text","text":"t"}],"part":{"type":"x"}}`
	doc, err := ParseOpenValuesFromJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Parts[0].Unknown == nil || doc.Parts[0].Unknown["type"] != "video" || doc.Parts[0].TextPart != nil {
		t.Fatalf("%+v", doc.Parts[0])
	}
	if doc.Parts[1].TextPart == nil || doc.Parts[1].Unknown != nil || doc.Part.Unknown["type"] != "x" {
		t.Fatalf("%+v", doc)
	}
	out, err := json.Marshal(doc)
	want := `{"role":"user","parts":[{"a":[true,null],"n":1,"type":"video"},{"type":"text","text":"t"}],"part":{"type":"x"}}`
	if err != nil || string(out) != want {
		t.Fatal(string(out), err)
	}
	if err := ValidateTurn(doc); err != nil {
		t.Fatal(err)
	}
	// json.Unmarshal, which validates nothing, reads an unknown variant too; a tag that is no string it cannot read.
	var p Part
	if err := json.Unmarshal([]byte(`{"type":"audio","x":[1]}`), &p); err != nil || p.Unknown["type"] != "audio" {
		t.Fatal(p, err)
	}
	if err := json.Unmarshal([]byte(`{"type":5}`), &p); err == nil {
		t.Fatal("a tag of 5 read", p)
	}
	if err := json.Unmarshal([]byte(`{"type":null}`), &p); err == nil {
		t.Fatal("a null tag read", p)
	}
	// Its numbers as written: MarshalJSON writes them back unchanged.
	var q Part
	if err := json.Unmarshal([]byte(`{"type":"zz","n":12345678901234567890,"f":1.0,"e":1e400}`), &q); err != nil {
		t.Fatal(err)
	}
	if out, err := json.Marshal(q); err != nil || string(out) != `{"e":1e400,"f":1.0,"n":12345678901234567890,"type":"zz"}` {
		t.Fatal(string(out), err)
	}
}

func TestValidateJudgesAnUnknownVariantBuiltInCodeByWhatItWrites(t *testing.T) {
	for _, c := range []struct {
		part Part
		want string
	}{
		{Part{Unknown: map[string]any{"type": "text"}}, "/part/text: missing required field 'text'"},
		{Part{Unknown: map[string]any{"type": 5}}, "/part/type: field 'type' must be a string"},
		{Part{Unknown: map[string]any{"type": "x", "f": func() {}}}, "/part/f: must be a JSON value"},
	} {
		doc := NewTurn(RoleUser)
		doc.Part = &c.part
		var found *ValidationError
		if err := ValidateTurn(&doc); !errors.As(err, &found) || found.Errors[0].Path+": "+found.Errors[0].Message != c.want {
			t.Errorf("%v: got %v at %q, want %q", c.part, err, found.Errors[0].Path, c.want)
		}
	}
}
"""


def test_go_code_asks_known_and_reads_the_unknown_field(built: conformance.Built, tmp_path: Path) -> None:
    import shutil

    import go_driver

    if not go_driver.go_available():
        pytest.skip("Go is not installed")
    tree = tmp_path / "go"
    shutil.copytree(built.folder / "go", tree)
    (tree / "openvalues" / "open_test.go").write_text(GO_TEST, encoding="utf-8")
    for command in (["go", "vet", "./openvalues/"], ["go", "test", "-count=1", "./openvalues/"]):
        done = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=go_driver.GO_ENV)
        assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}{done.stderr}"


TS_EXAMPLE = """import { parseOpenValuesFromJSON, stringifyTurn, validateTurn, type Part, type Role } from "./open_values.js";
import type * as rt from "./runtime.js";

declare const process: { argv: string[]; stdout: { write(text: string): void } };

// A switch over the listed values reaches an unknown one in its default case, typed as such.
function said(role: Role): string {
  switch (role) {
    case "user":
      return "a user";
    case "assistant":
      return "an assistant";
    default: {
      const kept: rt.Unknown<string> = role;
      return `unknown ${kept}`;
    }
  }
}

function shown(part: Part): string {
  if (part.type === "image") return "an image";
  if (part.type !== "text") return `unknown ${String(part.type)}`;
  return "text";
}

const doc = parseOpenValuesFromJSON(process.argv[2]!);
validateTurn(doc);
const parts = (doc.parts ?? []).map(shown);
process.stdout.write(JSON.stringify({ role: said(doc.role), parts, written: stringifyTurn(doc) }));
"""


def test_typescript_code_reaches_an_unknown_value_in_its_default_case(built: conformance.Built, tmp_path: Path) -> None:
    import shutil

    import typescript_driver

    if not typescript_driver.node_available():
        pytest.skip("Node is not installed")
    shutil.copytree(built.folder / "typescript", tmp_path / "ts", ignore=shutil.ignore_patterns("dist"))
    (tmp_path / "ts" / "src" / "open_example.ts").write_text(TS_EXAMPLE, encoding="utf-8")
    dist = typescript_driver.compile_package(tmp_path / "ts")  # the generated tsconfig: every strict option
    doc = {"role": "tool", "parts": [{"type": "text", "text": "t"}, {"type": "video", "n": [1]}, {"type": "image", "url": "u"}]}
    done = subprocess.run(["node", str(dist / "open_example.js"), json.dumps(doc)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "role": "unknown tool",
        "parts": ["text", "unknown video", "an image"],
        "written": json.dumps(doc, separators=(",", ":")),
    }


def _rules_spec() -> dict[str, Any]:
    spec = json.loads(json.dumps(SPEC))
    turn = spec["$defs"]["Turn"]
    turn["properties"].update(
        {
            "people": {"type": "array", "items": {"type": "string"}, "description": "People."},
            "modes": {"type": "array", "items": {"type": "string"}, "description": "Modes."},
            "speaker": {"$ref": "#/$defs/Role", "description": "Open."},
            "other": {"$ref": "#/$defs/Role", "description": "Open."},
            "ostr": {"type": "string", "description": "A string."},
        }
    )
    turn["x-rules"] = [
        {"kind": "member_of", "field": "speaker", "in": "0/people", "message": "speaker must be in people"},
        {"kind": "member_of", "field": "mode", "in": "0/modes", "message": "mode must be in modes"},
        {"kind": "compare", "field": "speaker", "op": "<=", "other": "other", "message": "speaker <= other"},
        {"kind": "compare", "field": "speaker", "op": "!=", "other": "ostr", "message": "speaker != ostr"},
    ]
    return spec


RULED = [
    ({"role": "x", "people": ["bob"], "speaker": "bob", "other": "zz", "ostr": "q", "modes": ["a"], "mode": "a"}, None),
    ({"role": "x", "people": ["ann"], "speaker": "bob"}, [["/speaker", "speaker must be in people"]]),
    ({"role": "x", "people": ["ann"], "speaker": "user"}, [["/speaker", "speaker must be in people"]]),
    # (A closed enum's field too: Go's rule read only a plain string, not the enum's named type, before this stop.)
    ({"role": "x", "modes": ["a"], "mode": "b"}, [["/mode", "mode must be in modes"]]),
    ({"role": "x", "speaker": "zz", "other": "aa"}, [["/speaker", "speaker <= other"]]),
    ({"role": "x", "speaker": "zz", "ostr": "zz"}, [["/speaker", "speaker != ostr"]]),
]


def test_rules_read_an_unknown_value_as_the_string_it_keeps_in_every_language(tmp_path: Path) -> None:
    files = generate([load_spec(_project(tmp_path, _rules_spec()), tmp_path)], targets=["python", "go", "typescript"])
    built = conformance.build(files, [FORMAT], tmp_path / "out")
    found = built.verdicts([(FORMAT, _text(doc), None) for doc, _ in RULED])
    assert set(found) == {"python", "go", "typescript"}
    for language, verdicts in found.items():
        assert [v.get("errors") or None for v in verdicts] == [errors for _, errors in RULED], language
    code = """
from chatformats import open_values as m, ValidationError
for turn, message in [
    (m.Turn(role="x", speaker=m.Unknown("zz"), other="aa"), "speaker <= other"),
    (m.Turn(role="x", speaker=m.Unknown("zz"), ostr="zz"), "speaker != ostr"),
    (m.Turn(role="x", people=["ann"], speaker=m.Unknown("user")), "speaker must be in people"),
]:
    try:
        turn.validate()
        raise SystemExit(f"validate() passed {turn!r}")
    except ValidationError as exc:
        assert [e.message for e in exc.errors] == [message], exc.errors
m.Turn(role="x", people=["bob"], speaker=m.Unknown("bob"), other=m.Unknown("zz")).validate()
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path / "out" / "python")}
    )
    assert done.stdout.strip() == "ok", done.stdout + done.stderr


def test_a_value_or_variant_changed_where_x_open_flips_is_judged_by_what_each_version_accepts() -> None:
    def mode(d: dict[str, Any]) -> None:
        d["Mode"]["x-open"] = True
        d["Mode"]["enum"].remove("b")

    found = _changes(mode)
    assert (
        "major: enum value removed: Mode 'b' | backward (new readers, old messages): compatible; forward (old readers, new "
        "messages): compatible; new readers keep it as an unknown value"
    ) in found, found

    def role(d: dict[str, Any]) -> None:
        del d["Role"]["x-open"]
        d["Role"]["enum"].append("tool")

    found = _changes(role)
    assert (
        "minor: enum value added: Role 'tool' | backward (new readers, old messages): compatible; forward (old readers, new "
        "messages): compatible; old readers keep it as an unknown value"
    ) in found, found

    def part(d: dict[str, Any]) -> None:
        del d["Part"]["x-open"]
        _add_video(d)

    found = _changes(part)
    assert (
        "minor: union variant added: Part 'video' | backward (new readers, old messages): breaks; forward (old readers, new "
        "messages): compatible: it refuses messages the old version accepted; old readers keep it as an unknown variant"
    ) in found, found

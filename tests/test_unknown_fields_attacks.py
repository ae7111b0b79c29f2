"""Attacks on issue 30 part 2 (open models keep the properties their fields do not name), from a red-team
review of it: names and values no JSON text holds, copies that share, a value that holds itself, names
JavaScript treats apart, and the same bad values in every language. tests/test_unknown_fields.py holds the
round trips themselves.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import conformance
from generator.core import generate
from generator.load import load_spec

ROOT = Path(__file__).resolve().parent.parent
FORMAT = "rt_extras"

SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Red-team extras",
    "description": "Open models, one with no fields, one inside a tuple and a union.",
    "x-version": "1.0.0",
    "$ref": "#/$defs/Root",
    "$defs": {
        "Root": {
            "type": "object",
            "description": "The document: open.",
            "properties": {
                "id": {"type": "string", "description": "Its id."},
                "first-name": {"type": "string", "description": "A dashed wire name (first_name in Python)."},
                "empty": {"$ref": "#/$defs/Empty", "description": "An open model with no fields."},
                "tup": {"type": "array", "prefixItems": [{"$ref": "#/$defs/Empty"}, {"type": "string"}], "items": False,
                        "description": "A tuple holding an open model."},
                "kid": {"$ref": "#/$defs/Root", "description": "Recursive."},
                "u": {"oneOf": [{"$ref": "#/$defs/Empty"}, {"type": "string"}], "description": "Told apart by JSON kind."},
            },
            "required": ["id"],
        },
        "Empty": {"type": "object", "description": "Open, with no fields."},
    },
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    project = tmp_path_factory.mktemp("rt_extras")
    folder = project / "specs" / FORMAT
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(SPEC, indent=2), encoding="utf-8")
    files = generate([load_spec(folder, project)], targets=["python", "go", "typescript"])
    return conformance.build(files, [FORMAT], project / "out")


def _python(built: conformance.Built, code: str) -> str:
    done = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(built.folder / "python")}, timeout=120)
    return done.stdout.strip() + done.stderr.strip()


def _go(module: Path, main: str, *, limit_bytes: int | None = None, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """Build main.go in a command of the Go module at module and run it (with an address-space limit)."""
    if shutil.which("go") is None:
        pytest.skip("no Go toolchain")
    cmd = module / "cmd" / "redteam"
    cmd.mkdir(parents=True, exist_ok=True)
    (cmd / "main.go").write_text(main, encoding="utf-8")
    binary = module / "redteam.bin"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/redteam"], cwd=module, check=True, timeout=timeout,
                   capture_output=True)

    def limit() -> None:
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return subprocess.run([str(binary)], capture_output=True, text=True, timeout=60, preexec_fn=limit)


def _node(built: conformance.Built, code: str) -> str:
    if built.ts_dist is None:
        pytest.skip("no TypeScript driver")
    script = built.folder / "redteam.mjs"
    module = (built.folder / "typescript" / "dist" / f"{FORMAT}.js").as_uri()
    script.write_text(f"const m = await import({json.dumps(module)});\n" + code, encoding="utf-8")
    done = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    return done.stdout.strip() + done.stderr.strip()


def test_python_from_dict_refuses_names_that_are_not_strings(built: conformance.Built) -> None:
    """No JSON text holds a name that is not a string: from_dict refuses one, as a free-form value's (else
    to_json() would crash on (1, 2), and write {1: .., "1": ..} as the name "1" twice)."""
    code = """
from chatformats import rt_extras as m, ValidationError
out = []
for extra in ({(1, 2): "x"}, {1: "x", "1": "y"}, {None: "x"}):
    try:
        doc = m.Root.from_dict({"id": "a", **extra})
    except ValidationError as exc:
        out.append("refused")
        continue
    try:
        doc.validate()
        out.append("accepted and valid: " + repr(doc.additional_properties))
    except ValidationError:
        out.append("accepted, then invalid")
print(out)
"""
    assert _python(built, code) == str(["refused"] * 3)


def test_python_to_dict_copies_the_additional_properties(built: conformance.Built) -> None:
    """to_dict() copies the kept values as it copies a free-form field's: editing what it returns leaves the object
    alone (chat_modality's ChatState.get_snapshot(), "the whole state as JSON-shaped data", is to_dict())."""
    code = """
from chatformats import rt_extras as m
doc = m.Root.from_json('{"id": "a", "x": {"l": [1]}, "empty": {"y": [1]}}')
d = doc.to_dict()
d["x"]["l"].append(2)
d["empty"]["y"].append(2)
print(doc.additional_properties, doc.empty.additional_properties)
"""
    assert _python(built, code) == "{'x': {'l': [1]}} {'y': [1]}"


def test_names_that_are_array_indexes_come_first_in_typescript_as_the_docs_say(built: conformance.Built) -> None:
    """A JavaScript object lists the names that are array indexes ("0", "10") first, in numeric order, whatever the
    order it was given them in: TypeScript writes them before the fields (the README and each format's page say
    so); Python keeps the order read, Go writes its map in key order."""
    found = built.verdicts([(FORMAT, '{"id":"a","10":1,"0":2,"b":3}', None)])
    assert found["python"][0]["written"] == '{"id": "a", "10": 1, "0": 2, "b": 3}'
    assert list(json.loads(found["go"][0]["written"])) == ["id", "0", "10", "b"]
    assert list(json.loads(found["typescript"][0]["written"])) == ["0", "10", "id", "b"]


def test_go_chat_state_snapshot_does_not_share_the_additional_properties(tmp_path: Path) -> None:
    """chat_modality's Go GetSnapshot() "returns a copy of the whole state": the state's AdditionalProperties and
    each ConversationMetadata's are copies too, as its Messages, Conversations and ParticipantRoles are."""
    module = tmp_path / "go"
    shutil.copytree(ROOT / "generated" / "go", module)
    run = _go(module, """package main

import (
	"encoding/json"
	"fmt"

	"github.com/chatspec/chatformats/chatmodality"
)

func main() {
	st, err := chatmodality.ParseChatStateFromJSON([]byte(`{"x":1,"conversations":{"c":{"conversation_id":"c",` +
		`"created_at":"2024-01-15T10:30:00Z","last_message_at":"2024-01-15T10:30:00Z","message_count":0,"participant_roles":[],"y":1}}}`))
	if err != nil {
		panic(err)
	}
	snap := st.GetSnapshot()
	snap.AdditionalProperties["x"] = "changed"
	snap.Conversations["c"].AdditionalProperties["y"] = "changed"
	b, _ := json.Marshal(st.AdditionalProperties)
	c, _ := json.Marshal(st.Conversations["c"].AdditionalProperties)
	fmt.Println(string(b), string(c))
}
""")
    assert run.stdout.strip() == '{"x":1} {"y":1}', run.stdout + run.stderr


def test_go_validate_and_marshal_of_a_value_holding_itself_end(built: conformance.Built) -> None:
    """A map or slice that holds itself, set in code as an additional property (or in a free-form field): Go's
    rt.AnyTree looks for a cycle below 1,000 levels, as encoding/json does, so Validate() reports the depth and
    MarshalJSON errs, instead of copying until the process is out of memory (a 2 GB address-space limit here)."""
    if built.go_binary is None:
        pytest.skip("no Go toolchain")
    run = _go(built.folder / "go", """package main

import (
	"fmt"

	"github.com/chatspec/chatformats/rtextras"
)

func main() {
	cyc := map[string]any{}
	cyc["c"] = cyc
	loop := make([]any, 1)
	loop[0] = loop
	for _, v := range []any{cyc, loop} {
		r := rtextras.Root{ID: "a", AdditionalProperties: map[string]any{"c": v}}
		_, err := r.MarshalJSON()
		fmt.Println(r.Validate(), "|", err)
	}
}
""", limit_bytes=2_000_000_000)
    lines = run.stdout.splitlines()
    assert len(lines) == 2, (run.stdout + run.stderr)[-400:]
    for line, kind in zip(lines, ("map[string]interface {}", "[]interface {}")):
        assert line == f"nesting deeper than 128 levels is not accepted | json: unsupported value: encountered a cycle via {kind}", line


def test_bad_extra_values_are_reported_alike_everywhere(built: conformance.Built) -> None:
    deep = "[" * 127 + "1" + "]" * 127
    cases = [
        '{"id":"a","a/b":1e400,"~":1e400,"":1e400}',
        '{"id":"a","empty":{"a/b":{"~0":[1e400]}}}',
        '{"x":1e400,"id":5}',
        '{"id":"a","x":1,"x":1e400}',
        '{"id":"a","x":%s}' % deep,
        '{"id":"a","empty":{"x":%s}}' % deep,
        '{"id":"a","tup":[{"x":%s},"s"]}' % deep,
        '{"id":"a","u":{"x":%s}}' % deep,
        '{"id":"a","__proto__":{"p":1},"constructor":1,"toString":null}',
    ]
    found = built.verdicts([(FORMAT, text, None) for text in cases])
    for language, verdicts in found.items():
        for text, mine, python in zip(cases, verdicts, found["python"]):
            assert (mine.get("ok"), mine.get("errors")) == (python.get("ok"), python.get("errors")), (language, text[:80])
    assert [v["errors"][0][0] for v in found["python"][:4]] == ["/a~1b", "/empty/a~1b", "/id", "/x"]


def test_typescript_keeps_a_parsed_proto_as_an_own_property(built: conformance.Built) -> None:
    out = _node(built, """
const d = m.parseRtExtrasFromJSON('{"id":"a","__proto__":{"polluted":1}}');
console.log(Object.getPrototypeOf(d) === Object.prototype, d.polluted === undefined, ({}).polluted === undefined,
            JSON.stringify(Object.keys(d)), m.stringifyRoot(d));
""")
    assert out == 'true true true ["id","__proto__"] {"id":"a","__proto__":{"polluted":1}}'

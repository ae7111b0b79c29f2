"""The TypeScript behaviour (specs/<format>/behaviour/typescript.ts) against the Python on the
same random inputs: steps in the scenario vocabulary (tests/scenario_runner.py) run through
the generated Python and, by tests/typescript/scenarios.mjs, the compiled generated
TypeScript; every outcome (result or error list) must be the same.

The draws aim at where two languages part: equal instants written differently (offsets,
fractions finer than Python's microseconds), ties broken by input_id in code point order
(astral characters against U+FFFF), a history limit of 1, keys such as "__proto__", text
over the summary limit in characters outside the BMP, ill-typed query parameters.
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scenario_runner import run
from typescript_driver import node_available

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "typescript" / "scenarios.mjs"

pytestmark = pytest.mark.skipif(not node_available(), reason="node is not installed: the TypeScript checks need it")

TIMES = ["2024-03-15T10:00:00Z", "2024-03-15T11:00:00+01:00", "2024-03-15T05:30:00-04:30", "2024-03-15T10:00:00.000000z",
         "2024-03-15T10:00:00.0000004Z", "2024-03-15T10:00:00.000001Z", "2024-03-15T09:59:59.999999Z", "2024-02-29T23:59:59Z",
         "1970-01-01T00:00:00Z", "0001-01-01T00:30:00+00:30", "9999-12-31T23:59:59.9999999Z"]
IDS = ["", "a", "b", "A", "é", "\uffff", "\U0001F600", "a\U0001F600", "a\uffff"]
CONVERSATIONS = [None, "default", "main", "c1", "__proto__", "constructor"]
TEXTS = ["hi", "Hello World", "HELLO", "ÉCOLE", "Straße", "x" * 50, "y" * 51, "\U0001F600" * 49, "\U0001F600" * 51, "  spaced  "]
NEEDLES = ["hello", "HELLO", "é", "ss", "\U0001F600", "", "o w"]


def _content(r: random.Random) -> Any:
    if r.random() < 0.7:
        return r.choice(TEXTS)
    blocks: list[Any] = [{"type": "text", "text": r.choice(TEXTS)} for _ in range(r.randint(1, 2))]
    if r.random() < 0.5:
        blocks.append({"type": "image", "source": "url", "url": "https://example.com/a.png"})
    return blocks


def _input(r: random.Random) -> dict[str, Any]:
    data: dict[str, Any] = {"timestamp": r.choice(TIMES), "role": r.choice(["user", "assistant"]), "content": _content(r),
                            "input_id": r.choice(IDS) or "x", "message_id": f"m{r.randint(0, 12)}"}
    conversation = r.choice(CONVERSATIONS)
    if conversation is not None:
        data["conversation_id"] = conversation
    if r.random() < 0.05:
        data["role"] = "robot"  # invalid: the same error list in both
    return data


def _query(r: random.Random) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, draw in (("conversation_id", lambda: r.choice(["default", "main", "c1", "__proto__", "", None])),
                       ("role", lambda: r.choice(["user", "assistant", "", None, 3])),
                       ("since", lambda: r.choice([*TIMES, "yesterday", 5, None])),
                       ("until", lambda: r.choice([*TIMES, "2024-13-01T00:00:00Z", None])),
                       ("limit", lambda: r.choice([1, 2, 3, 100, 0, -1, 2.0, 2.5, True, "2", None])),
                       ("search", lambda: r.choice([*NEEDLES, None, ["x"]]))):
        if r.random() < 0.35:
            params[name] = draw()
    if r.random() < 0.1:
        params[r.choice(["limt", "a/b~c", "zz", "Since"])] = 1
    return params


def _steps(r: random.Random) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = [{"do": "new_state", "with": {"max_history_size": r.choice([1, 2, 3, 1000]),
                                                                "default_conversation_id": r.choice(["default", "main"])}}]
    for _ in range(r.randint(4, 16)):
        kind = r.random()
        if kind < 0.6:
            steps.append({"do": "apply_input", "with": _input(r)})
        elif kind < 0.8:
            steps.append({"do": "query", "with": _query(r)})
        elif kind < 0.85:
            steps.append({"do": "get_recent_messages", "with": {"limit": r.randint(1, 4), "conversation_id": r.choice(["default", "main", None])}})
        elif kind < 0.9:
            steps.append({"do": "get_message_by_id", "with": {"message_id": f"m{r.randint(0, 12)}"}})
        elif kind < 0.95:
            steps.append({"do": "summary", "with": _input(r)})
        else:
            steps.append({"do": "round_trip"})
    steps += [{"do": "snapshot"}, {"do": "validate_state"}, {"do": "message_ids"}]
    return steps


def _typescript(dist: Path, scenarios: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The scenarios run through the committed package, compiled (conftest's typescript_dist)."""
    done = subprocess.run(["node", str(RUNNER), str(dist)], input=json.dumps(scenarios), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    result: list[list[dict[str, Any]]] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def chatformats() -> Any:
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    try:
        yield importlib.import_module("chatformats")
    finally:
        sys.path.remove(str(ROOT / "generated" / "python"))


def _differences(scenarios: list[dict[str, Any]], found: list[list[dict[str, Any]]]) -> list[str]:
    wrong = []
    for n, (scenario, ts) in enumerate(zip(scenarios, found)):
        module = importlib.import_module(f"chatformats.{scenario['format']}")
        py = run(scenario["format"], module, scenario["steps"])
        for i, (step, a, b) in enumerate(zip(scenario["steps"], py, ts)):
            if a != b:
                wrong.append(f"draw {n} step {i} {json.dumps(step, ensure_ascii=False)[:300]}\n  Python     {json.dumps(a, ensure_ascii=False)[:600]}"
                             f"\n  TypeScript {json.dumps(b, ensure_ascii=False)[:600]}")
                break
    return wrong


@pytest.mark.slow
def test_the_typescript_chat_store_gives_what_the_python_chat_state_gives_on_random_inputs(typescript_dist: Path, chatformats: Any) -> None:
    r = random.Random(17)
    scenarios = [{"format": "chat_modality", "steps": _steps(r)} for _ in range(150)]
    found = _typescript(typescript_dist, scenarios)
    assert len(found) == len(scenarios)
    applied = sum(1 for s in found for o in s if o.get("result") is None and "error" not in o)
    assert applied > 300, "the draws must store messages, not only be refused"
    wrong = _differences(scenarios, found)
    assert not wrong, f"{len(wrong)} of {len(scenarios)} draws differ; the first:\n" + "\n".join(wrong[:3])


def test_the_typescript_accumulator_text_document_and_build_chat_give_what_the_python_gives_on_random_inputs(
        typescript_dist: Path, chatformats: Any) -> None:
    r = random.Random(23)
    scenarios: list[dict[str, Any]] = []
    for _ in range(60):
        steps: list[dict[str, Any]] = []
        for _ in range(r.randint(3, 14)):
            event: dict[str, Any] = {"session_id": r.choice(["s1", "s2"]), "role": r.choice(["assistant", "user", "tool", "search-agent"])}
            for key, draw in (("start", lambda: r.choice([True, False, None])), ("completed", lambda: r.choice([True, False, None])),
                              ("completion_running", lambda: r.choice([True, False, None])),
                              ("tool_use_active", lambda: r.choice([True, False, None])),
                              ("content", lambda: r.choice(["Hel", "lo", "", "\U0001F600", None])),
                              ("tool_calls", lambda: r.choice([None, [], [{"id": "c1", "type": "function",
                                                                          "function": {"name": "f", "arguments": "{}"}}]])),
                              ("render_media", lambda: r.choice([None, {"type": "image", "url": "https://example.com/a.png"}])),
                              ("messages", lambda: r.choice([None, [], [{"role": "assistant", "content": "done"}]]))):
                if r.random() < 0.4:
                    event[key] = draw()
            if r.random() < 0.05:
                event["session_id"] = 7  # invalid: refused, nothing changes
            steps.append({"do": "feed", "with": event})
        steps += [{"do": "status"}, {"do": "messages"}, {"do": "final_messages"}]
        scenarios.append({"format": "chat_event", "steps": steps})
    for _ in range(40):
        messages = [{"speaker": r.choice(["ann", "bob"]), "content": r.choice(["hi", " x ", "\u3000wide\u3000", "a\u0085", "\ufeffbom"]),
                     "time": r.choice(TIMES)} for _ in range(r.randint(1, 3))]
        doc: dict[str, Any] = {"id": "d1", "conversation": {"source": "slack", "people": ["ann", "bob"], "user": "ann", "conversation": messages}}
        if r.random() < 0.5:
            doc["tags"] = r.choice([[], ["a", "b"]])
        if r.random() < 0.5:
            doc["metadata"] = r.choice([{}, {"source": "old", "k": "v"}, {"__proto__": "p"}])
        scenarios.append({"format": "structured_conversation", "steps": [{"do": "to_text_document", "with": doc}]})
        args: dict[str, Any] = {"speaker_id": "agent", "timestamp": r.choice([0, 1700000000000]), "text": r.choice(["hi", ""])}
        for key, draw in (("media", lambda: r.choice(["", "https://example.com/m.png", None])),
                          ("text_options", lambda: r.choice([[], ["yes", "no"], None])),
                          ("media_options", lambda: r.choice([[], ["https://example.com/o.png"], None]))):
            if r.random() < 0.5:
                args[key] = draw()
        scenarios.append({"format": "droidlet_chat", "steps": [{"do": "build_chat", "with": args}]})
    found = _typescript(typescript_dist, scenarios)
    wrong = _differences(scenarios, found)
    assert not wrong, f"{len(wrong)} of {len(scenarios)} draws differ; the first:\n" + "\n".join(wrong[:3])


# --- placing the stored TypeScript ------------------------------------------------


def _project(tmp_path: Path, fmt: str) -> Path:
    import shutil

    shutil.copytree(ROOT / "specs" / fmt, tmp_path / "specs" / fmt)
    return tmp_path


def _generate_project(project: Path) -> dict[str, str]:
    from generator.core import discover, generate

    return generate(discover(project / "specs", project))


def _refusal(project: Path) -> Any:
    from generator.errors import SpecError

    with pytest.raises(SpecError) as caught:
        _generate_project(project)
    return caught.value


def test_the_languages_a_manifest_names_are_the_targets_that_place_behaviour() -> None:
    from generator.behaviour import _extensions
    from generator.targets import REGISTRY

    assert _extensions() == {"python": ".py", "go": ".go", "docs": ".md", "typescript": ".ts"}
    assert [t.name for t in REGISTRY if t.behaviour is not None] == ["python", "go", "docs", "typescript"]


def test_the_typescript_module_names_the_behaviour_file_and_holds_its_code_and_constants() -> None:
    gen = ROOT / "generated" / "typescript" / "src"
    text = (gen / "chat_modality.ts").read_text(encoding="utf-8")
    assert text.splitlines()[0] == ("// Code generated by chatspec from specs/chat_modality/spec.json and "
                                    "specs/chat_modality/behaviour/typescript.ts. DO NOT EDIT.")
    assert "export const CHAT_STATE_MAX_HISTORY_SIZE_MINIMUM = 1;" in text and "export class ChatStore {" in text
    # The stored file's own imports are dropped (its code lands in the module it imports from).
    assert 'from "./chat_modality.js"' not in text
    assert 'import * as v1 from "./droidlet_chat_v1.js";' in (gen / "droidlet_chat.ts").read_text(encoding="utf-8")
    # droidlet_chat's behaviour is for major 2 only: the kept 1.x has none.
    v1 = (gen / "droidlet_chat_v1.ts").read_text(encoding="utf-8")
    assert "buildChat" not in v1 and "behaviour" not in v1.splitlines()[0]


def test_a_typescript_file_named_with_another_extension_is_refused(tmp_path: Path) -> None:
    project = _project(tmp_path, "structured_conversation")
    folder = project / "specs" / "structured_conversation" / "behaviour"
    (folder / "typescript.ts").rename(folder / "typescript.js")
    manifest = folder / "behaviour.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"typescript.ts"', '"typescript.js"'), encoding="utf-8")
    error = _refusal(project)
    assert (error.file, error.pointer) == ("specs/structured_conversation/behaviour/behaviour.toml", "/typescript")
    assert "typescript must name a .ts file in this folder" in error.problem


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda t: t.replace('import type {', 'import { ValidationError } from "./runtime.js";\nimport type {', 1), "imports the runtime as"),
    (lambda t: t + '\nimport { x } from "./chat_event.js";\n', "an import after other code"),
    (lambda t: t[: t.index("// --- behaviour")], "holds no code besides its imports"),
], ids=["runtime-named-import", "import-after-code", "imports-only"])
def test_stored_typescript_that_cannot_be_placed_is_refused_naming_the_file(tmp_path: Path, edit: Any, problem: str) -> None:
    project = _project(tmp_path, "structured_conversation")
    path = project / "specs" / "structured_conversation" / "behaviour" / "typescript.ts"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    error = _refusal(project)
    assert error.file == "specs/structured_conversation/behaviour/typescript.ts"
    assert problem in error.problem


def test_query_parameters_that_are_no_object_are_refused_as_python_refuses_them(typescript_dist: Path, chatformats: Any) -> None:
    # JavaScript's typeof null is "object": null must still be refused with the message, not reach Object.hasOwn and
    # throw a TypeError. (Go's Query takes a map: no scenario of every language can pass these.)
    steps = [{"do": "new_state"}, *({"do": "query", "with": v} for v in (None, "x", "", [], ["a"], 7, 0, True, False))]
    scenarios = [{"format": "chat_modality", "steps": steps}]
    found = _typescript(typescript_dist, scenarios)
    assert _differences(scenarios, found) == []
    assert all(o.get("error") and "query parameters must be an object" in o["error"][0] for o in found[0][1:]), found


def test_to_text_document_of_a_conversation_built_with_no_message_has_no_time(typescript_dist: Path) -> None:
    # A document built in code is not checked: with no message there is no first time to read (Go's and Python's
    # give the same: test_go.py::test_to_text_document_of_a_conversation_built_with_no_message_has_no_time_in_go_as_in_python).
    code = """
const m = await import(process.argv[1]);
const doc = { id: "d", conversation: { source: "slack", people: [], user: "u", conversation: [] } };
process.stdout.write(JSON.stringify(m.toTextDocument(doc)));
"""
    done = subprocess.run(["node", "--input-type=module", "-e", code, (typescript_dist / "structured_conversation.js").as_uri()],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout) == {"id": "d", "content": "", "metadata": {"source": "slack", "user": "u"}}


def test_the_data_the_typescript_accumulator_hands_out_is_plain_data_the_caller_may_change(typescript_dist: Path) -> None:
    # pending() and status() are JSON-shaped data, as Python's dicts: each property enumerable (JSON.stringify
    # writes it), writable and configurable (the caller may change or delete it), as an object literal's are.
    code = """
const m = await import(process.argv[1]);
const acc = new m.InteractionAccumulator();
acc.feed(m.parseChatEvent({ session_id: "s", role: "assistant", start: true, content: "Hel" }));
const found = [];
for (const data of [acc.pending(), acc.status(), acc.status().pending]) {
  for (const key of Object.keys(data)) {
    const d = Object.getOwnPropertyDescriptor(data, key);
    found.push([key, d.enumerable, d.writable, d.configurable]);
  }
  const key = Object.keys(data)[0];
  data[key] = "changed";
  const changed = data[key] === "changed";
  delete data[key];
  found.push(["changed and deleted", changed, !(key in data)]);
}
process.stdout.write(JSON.stringify(found));
"""
    done = subprocess.run(["node", "--input-type=module", "-e", code, (typescript_dist / "chat_event.js").as_uri()],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert ["assistant", True, True, True] in found, found
    assert all(row[1:] == [True, True, True] for row in found if row[0] != "changed and deleted"), found
    assert [row for row in found if row[0] == "changed and deleted"] == [["changed and deleted", True, True]] * 3

"""Behaviour scenarios: the same files run through the generated Python and Go.

tests/scenarios/<format>/*.json hold inputs, operations and expected results
(see tests/scenario_runner.py). A scenario with "pins" keeps a known bug of the
original system from coming back; it fails if the bug does.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from go_driver import GO_ENV, go_available, write_go_mod
from scenario_runner import run

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
FILES = sorted(SCENARIOS.glob("*/*.json"))
IDS = [f"{p.parent.name}/{p.stem}" for p in FILES]


def load(path: Path) -> dict[str, Any]:
    scenario: dict[str, Any] = json.loads(path.read_text())
    assert scenario["format"] == path.parent.name, f"{path}: format must be {path.parent.name!r}"
    return scenario


def expected(scenario: dict[str, Any]) -> list[dict[str, Any] | None]:
    """Per step: the outcome it must have, or None when it only must not fail."""
    out: list[dict[str, Any] | None] = []
    for step in scenario["steps"]:
        if "error" in step:
            out.append({"error": step["error"]})
        elif "expect" in step:
            out.append({"result": step["expect"]})
        else:
            out.append(None)
    return out


def compare(path: Path, language: str, outcomes: list[dict[str, Any]]) -> None:
    scenario = load(path)
    wanted = expected(scenario)
    assert len(outcomes) == len(wanted)
    for i, (step, want, got) in enumerate(zip(scenario["steps"], wanted, outcomes)):
        where = f"{path.relative_to(ROOT)} step {i} ({step['do']}) in {language}"
        if want is None:
            assert "error" not in got, f"{where} failed: {got['error']}"
        else:
            assert got == want, f"{where}:\n  expected {json.dumps(want)}\n  got      {json.dumps(got)}"


@pytest.fixture(scope="module")
def python_package() -> Any:
    sys.path.insert(0, str(ROOT / "generated" / "python"))
    try:
        yield importlib.import_module("chatformats")
    finally:
        sys.path.remove(str(ROOT / "generated" / "python"))


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_python(path: Path, python_package: Any) -> None:
    scenario = load(path)
    module = importlib.import_module(f"chatformats.{scenario['format']}")
    compare(path, "Python", run(scenario["format"], module, scenario["steps"]))


def test_python_query_takes_an_aware_datetime_as_a_bound_and_refuses_a_naive_one(python_package: Any) -> None:
    """A Python caller may give since/until as datetime objects, which no JSON scenario can hold: an aware
    one is the instant it names, whatever its offset; a naive one names no instant and is refused like bad text."""
    from datetime import datetime, timedelta, timezone

    module = importlib.import_module("chatformats.chat_modality")
    state = module.ChatState()
    for n, stamp in enumerate(("2024-03-15T10:00:00Z", "2024-03-15T10:10:00Z", "2024-03-15T10:20:00Z"), 1):
        state.apply_input(module.ChatInput.from_dict({"timestamp": stamp, "message_id": f"m-{n}", "role": "user", "content": "hi"}))
    plus_one = timezone(timedelta(hours=1))
    found = state.query({"since": datetime(2024, 3, 15, 11, 10, tzinfo=plus_one),
                         "until": datetime(2024, 3, 15, 10, 20, tzinfo=timezone.utc)})
    assert [m.message_id for m in found] == ["m-2", "m-3"]
    for name in ("since", "until"):
        with pytest.raises(module.ValidationError) as caught:
            state.query({name: datetime(2024, 3, 15, 10, 10)})
        assert [str(d) for d in caught.value.errors] == [f"/{name}: must be an RFC 3339 date-time, e.g. 2024-01-15T10:30:00Z"]


@pytest.fixture(scope="module")
def go_outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    if not go_available():
        pytest.skip("Go is not installed")
    work = tmp_path_factory.mktemp("scenario_runner")
    (work / "main.go").write_text((SCENARIOS / "runner" / "main.go").read_text())
    module = "github.com/chatspec/chatformats"
    write_go_mod(work, "runner", ROOT / "generated" / "go", module)
    built = subprocess.run(["go", "build", "-o", "runner", "."], cwd=work, capture_output=True, text=True, env=GO_ENV)
    assert built.returncode == 0, built.stderr
    vetted = subprocess.run(["go", "vet", "."], cwd=work, capture_output=True, text=True, env=GO_ENV)
    assert vetted.returncode == 0, vetted.stderr
    done = subprocess.run([str(work / "runner"), *map(str, FILES)], capture_output=True, text=True, env=GO_ENV)
    assert done.returncode == 0, done.stderr[-4000:]
    result: dict[str, list[dict[str, Any]]] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_go(path: Path, go_outcomes: dict[str, list[dict[str, Any]]]) -> None:
    compare(path, "Go", go_outcomes[str(path)])


# The formats whose behaviour has TypeScript (specs/<format>/behaviour/typescript.ts).
TYPESCRIPT_FORMATS = sorted(p.parent.parent.name for p in (ROOT / "specs").glob("*/behaviour/typescript.ts"))
TYPESCRIPT_FILES = [p for p in FILES if p.parent.name in TYPESCRIPT_FORMATS]


@pytest.fixture(scope="module")
def typescript_outcomes(typescript_dist: Path) -> dict[str, list[dict[str, Any]]]:
    """Every scenario of a format with TypeScript behaviour, run through the committed
    generated/typescript package (compiled with the pinned tsc: conftest) by tests/typescript/scenarios.mjs."""
    dist = typescript_dist
    scenarios = [load(p) for p in TYPESCRIPT_FILES]
    done = subprocess.run(["node", str(ROOT / "tests" / "typescript" / "scenarios.mjs"), str(dist)],
                          input=json.dumps(scenarios), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    return dict(zip(map(str, TYPESCRIPT_FILES), json.loads(done.stdout)))


def test_typescript_behaviour_covers_the_event_stream_build_chat_and_the_text_document() -> None:
    assert {"chat_event", "droidlet_chat", "structured_conversation"} <= set(TYPESCRIPT_FORMATS)


@pytest.mark.parametrize("path", TYPESCRIPT_FILES, ids=[f"{p.parent.name}/{p.stem}" for p in TYPESCRIPT_FILES])
def test_typescript(path: Path, typescript_outcomes: dict[str, list[dict[str, Any]]]) -> None:
    compare(path, "TypeScript", typescript_outcomes[str(path)])



# The scenarios' runner of each target that places behaviour (generator.targets, Target.behaviour): a new one
# fails tests/test_drivers.py until it has its runner here.
RUNNERS = {"python": test_python, "go": test_go, "typescript": test_typescript}

# Each scenario operation and the behaviour it runs (directly or through what it calls), in Python, Go
# and TypeScript, as named in specs/<format>/behaviour/ (a function, a class, or Class.method). Operations
# that only read or edit data run none.
OPERATIONS: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    "chat_modality": {
        "new_state": ((), (), ("ChatStore",)),  # Go: NewChatState is generated code now, not behaviour
        "load_state": ((), ("ParseChatStateFromJSON",), ("ChatStore.fromSnapshot",)),
        "round_trip": (("ChatState.get_snapshot",), ("ChatState.GetSnapshot", "ParseChatStateFromJSON"),
                       ("ChatStore.getSnapshot", "ChatStore.fromSnapshot")),
        "apply_input": (("ChatState.apply_input",), ("ChatState.ApplyInput",), ("ChatStore.applyInput",)),
        "apply_built_input": (("ChatState.apply_input",), ("ChatState.ApplyInput",), ("ChatStore.applyInput",)),
        "snapshot": (("ChatState.get_snapshot",), ("ChatState.GetSnapshot",), ("ChatStore.getSnapshot",)),
        "message_ids": ((), (), ()),
        "id_shapes": ((), (), ()),
        "validate_state": (("ChatState.validate_state",), ("ChatState.ValidateState",), ("ChatStore.validateState",)),
        "query": (("ChatState.query", "parse_chat_query", "ChatQuery"), ("ParseChatQuery", "ChatState.Query"), ("ChatStore.query",)),
        "get_conversation": (("ChatState.get_conversation",), ("ChatState.GetConversation",), ("ChatStore.getConversation",)),
        "get_recent_messages": (("ChatState.get_recent_messages",), ("ChatState.GetRecentMessages",), ("ChatStore.getRecentMessages",)),
        "get_message_by_id": (("ChatState.get_message_by_id",), ("ChatState.GetMessageByID",), ("ChatStore.getMessageById",)),
        "append_message": ((), (), ()),
        "reindex": (("ChatState.reindex",), ("ChatState.Reindex",), ("ChatStore.reindex",)),
        "summary": (("ChatInput.get_summary", "summarize"), ("ChatInput.GetSummary", "Summarize"), ("getSummary", "summarize")),
        "affected_entities": (("ChatInput.get_affected_entities",), ("ChatInput.GetAffectedEntities",), ("getAffectedEntities",)),
        "should_merge_with": (("ChatInput.should_merge_with",), ("ChatInput.ShouldMergeWith",), ("shouldMergeWith",)),
    },
    "chat_event": {
        "feed": (("InteractionAccumulator.feed",), ("InteractionAccumulator.Feed",), ("InteractionAccumulator.feed",)),
        "status": (("InteractionAccumulator.status", "InteractionAccumulator.pending"),
                   ("InteractionAccumulator.Status", "InteractionAccumulator.Pending"),
                   ("InteractionAccumulator.status", "InteractionAccumulator.pending")),
        "messages": ((), (), ()),
        "final_messages": ((), (), ()),
    },
    "droidlet_chat": {
        "build_chat": (("build_chat",), ("BuildChat",), ("buildChat",)),
        "upgrade_from_v1": (("upgrade_from_v1",), ("UpgradeFromV1",), ("upgradeFromV1",)),
    },
    "structured_conversation": {
        "to_text_document": (("ConversationDocument.to_text_document",), ("ConversationDocument.ToTextDocument",), ("toTextDocument",)),
    },
}


def behaviour_names(format_id: str) -> tuple[set[str], set[str], set[str]]:
    """The public functions, classes and methods of a format's behaviour in Python, Go and TypeScript."""
    folder = ROOT / "specs" / format_id / "behaviour"
    python: set[str] = set()
    for node in ast.parse((folder / "python.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            python.add(node.name)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            methods = [n.name for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
            python |= {f"{node.name}.{m}" for m in methods} or {node.name}
    go_text = (folder / "go.go").read_text(encoding="utf-8")
    go = {m.group(1) for m in re.finditer(r"^func ([A-Z]\w*)", go_text, re.M)}
    go |= {f"{m.group(1)}.{m.group(2)}" for m in re.finditer(r"^func \(\w+ \*?(\w+)\) ([A-Z]\w*)", go_text, re.M)}
    ts_text = (folder / "typescript.ts").read_text(encoding="utf-8")
    typescript = {m.group(1) for m in re.finditer(r"^export function (\w+)", ts_text, re.M)}
    for cls in re.finditer(r"^export class (\w+)[^\n]*\{\n(.*?)^\}", ts_text, re.M | re.S):
        for method in re.finditer(r"^  (?:static )?(\w+)\(", cls.group(2), re.M):
            typescript.add(cls.group(1) if method.group(1) == "constructor" else f"{cls.group(1)}.{method.group(1)}")
    return python, go, typescript


@pytest.mark.parametrize("format_id", sorted(OPERATIONS))
def test_every_behaviour_runs_in_every_language_from_the_scenarios(format_id: str) -> None:
    # Every public function and method of the behaviour, in each language, is run by an operation...
    for language, names, ran in zip(("Python", "Go", "TypeScript"), behaviour_names(format_id),
                                    zip(*OPERATIONS[format_id].values(), strict=True)):
        run = {name for names_of_op in ran for name in names_of_op}
        assert names <= run, f"{format_id}: no scenario operation runs the {language} behaviour {sorted(names - run)}"
        assert run <= names, f"{format_id}: OPERATIONS names {language} behaviour that is gone: {sorted(run - names)}"
    # ... every operation by some scenario of the format, and each language's runner has it.
    used = {step["do"] for p in FILES if p.parent.name == format_id for step in load(p)["steps"]}
    assert used == set(OPERATIONS[format_id]), f"{format_id}: operations without a scenario {set(OPERATIONS[format_id]) - used}, unlisted {used - set(OPERATIONS[format_id])}"
    runners = {"Python": (ROOT / "tests" / "scenario_runner.py", "    def {}("),
               "Go": (SCENARIOS / "runner" / "main.go", '"{}"'), "TypeScript": (ROOT / "tests" / "typescript" / "scenarios.mjs", "    {}: ")}
    for language, (path, spelling) in runners.items():
        text = path.read_text(encoding="utf-8")
        assert all(spelling.format(op) in text for op in used), f"{language} runner lacks an operation of {format_id}"


def test_every_format_has_scenarios() -> None:
    formats = {p.parent.name for p in FILES}
    assert formats == {"chat_modality", "chat_event", "droidlet_chat", "structured_conversation"}


def test_every_known_bug_is_pinned() -> None:
    """The seeds README lists the original's known bugs; each has a scenario that pins it."""
    pinned = {load(p).get("pins") for p in FILES} - {None}
    assert pinned >= {"message_count after pruning", "get_recent_messages oldest N", "query sorted in place"}


def behaviour_examples(language: str) -> list[tuple[str, str]]:
    """(page, code) of every fenced example in the generated pages' Behaviour sections."""
    found = []
    for page in sorted((ROOT / "generated" / "docs").glob("*.md")):
        text = page.read_text()
        if "\n## Behaviour\n" not in text:
            continue
        section = text.split("\n## Behaviour\n", 1)[1].split("\n## ", 1)[0]
        found += [(page.name, code) for code in re.findall(rf"^```{language}\n(.*?)^```$", section, flags=re.M | re.S)]
    return found


def test_behaviour_examples_in_the_docs_run_in_python() -> None:
    examples = behaviour_examples("python")
    assert {page for page, _ in examples} == {"chat_modality.md", "chat_event.md", "droidlet_chat.md", "structured_conversation.md"}
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generated" / "python")}
    for page, code in examples:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert done.returncode == 0, f"{page}: the Python example fails:\n{code}\n{done.stderr}"


def test_behaviour_examples_in_the_docs_run_in_go(tmp_path: Path) -> None:
    if not go_available():
        pytest.skip("Go is not installed")
    module = "github.com/chatspec/chatformats"
    examples = behaviour_examples("go")
    packages = sorted(set(re.findall(r"\b(chat\w+|droidlet\w+|structured\w+)\.", "\n".join(code for _, code in examples))))
    # Each example is the body of a function given, as data, the first valid
    # example of its page's format.
    bodies, calls = [], []
    for i, (page, code) in enumerate(examples):
        data = sorted((ROOT / "specs" / page.removesuffix(".md") / "examples" / "valid").glob("*.json"))[0].read_text()
        bodies.append(f"func example{i}(data []byte) error {{\n{code}\treturn nil\n}}\n")
        calls.append(f"\tif err := example{i}([]byte({json.dumps(data)})); err != nil {{\n\t\tpanic(err)\n\t}}")
    imports = "\n".join(f'\t"{module}/{p}"' for p in packages)
    guards = "var _ = fmt.Sprint\nvar _ = time.Now\n"
    main = "func main() {\n" + "\n".join(calls) + "\n}\n"
    (tmp_path / "main.go").write_text(f'package main\n\nimport (\n\t"fmt"\n\t"time"\n\n{imports}\n)\n\n{guards}\n' + "\n".join(bodies) + "\n" + main)
    write_go_mod(tmp_path, "examples", ROOT / "generated" / "go", module)
    vetted = subprocess.run(["go", "vet", "."], cwd=tmp_path, capture_output=True, text=True, env=GO_ENV)
    assert vetted.returncode == 0, f"a Go example in the docs does not compile:\n{vetted.stderr}"
    done = subprocess.run(["go", "run", "."], cwd=tmp_path, capture_output=True, text=True, env=GO_ENV)
    assert done.returncode == 0, f"a Go example in the docs fails:\n{done.stderr}"
    assert "What's the weather today?" in done.stdout and "chat_and_media_and_text_options" in done.stdout

"""Compatibility by direction (issue 30): each change's verdict for new readers of old messages (backward) and old
readers of new messages (forward), held to jsonschema, and the promise a spec makes with x-compatibility.

The versioning matrix (tests/versioning/<case>/expected.json) gives each change's move of the accepted messages
("wire": same, wider, narrower, other, unknown). Where the case's changes together break a direction, the case
holds a witness for it: "old_only", a message the old version accepts and the new refuses (backward breaks), or
"new_only", the other way round (forward breaks). jsonschema judges every witness on the schemas chatspec exports
for both versions, so a verdict that says "breaks" is shown to break; the conformance run draws messages to show
that a direction said to be compatible is (no draw of one version refused by the other).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import MATRIX, MATRIX_CASES, ROOT, edit_spec, generate_cached, matrix_format, run_chatspec

import conformance
from generator import ir
from generator.classify import classify, combined
from generator.compatibility import backward, forward, label, verdicts
from generator.export import export

CASES = MATRIX_CASES
# The cases whose rules standard JSON Schema cannot state (a compare between two fields): jsonschema cannot judge
# their messages; tests/test_compare_rule.py holds the rule itself to the generated code.
UNJUDGED = {case for case in CASES if case.startswith("compare_")}
# Which witnesses a case's changes taken together need: the directions they break.
NEEDED = {"same": set(), "wider": {"new_only"}, "narrower": {"old_only"}, "other": {"old_only", "new_only"}, "unknown": set()}


def _case(case: str) -> tuple[ir.Format, ir.Format, dict[str, Any]]:
    expected = json.loads((MATRIX / case / "expected.json").read_text(encoding="utf-8"))
    return matrix_format(MATRIX / case / "previous.json"), matrix_format(MATRIX / case / "current.json"), expected


def test_every_case_that_can_be_judged_is() -> None:
    assert UNJUDGED and all(any(r.kind == "compare" for m in _case(c)[1].models for r in m.rules) for c in UNJUDGED)


@pytest.mark.parametrize("case", sorted(set(CASES) - UNJUDGED))
def test_each_direction_a_case_breaks_has_a_witness_jsonschema_confirms(case: str) -> None:
    old, new, expected = _case(case)
    claim = combined(*(c.wire for c in classify(old, new)))
    witnesses = expected.get("witnesses", {})
    assert set(witnesses) == NEEDED[claim], f"{case}: {claim} needs witnesses {sorted(NEEDED[claim])}, has {sorted(witnesses)}"
    old_ok, new_ok = conformance.oracle(export(old)).is_valid, conformance.oracle(export(new)).is_valid
    if "old_only" in witnesses:
        message = witnesses["old_only"]
        assert old_ok(message) and not new_ok(message), f"{case}: {message} is no message only the old version accepts"
    if "new_only" in witnesses:
        message = witnesses["new_only"]
        assert new_ok(message) and not old_ok(message), f"{case}: {message} is no message only the new version accepts"


def _with_names(schema: Any, names: set[str]) -> Any:
    """A generation schema whose open objects also draw the given property names (any value), so that a draw
    uses the names the other version gives a meaning (an old open model's "owner", which a new one checks)."""
    if isinstance(schema, list):
        return [_with_names(s, names) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _with_names(v, names) for k, v in schema.items()}
    if "properties" in out and out.get("additionalProperties", True) is not False:
        out["properties"] = {**{n: {} for n in sorted(names)}, **out["properties"]}
    return out


def _names(schema: Any) -> set[str]:
    if isinstance(schema, list):
        return set().union(*(_names(s) for s in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = set(schema.get("properties", {}))
    return found.union(*(_names(v) for v in schema.values()))


@pytest.mark.parametrize("case", sorted(set(CASES) - UNJUDGED))
def test_each_direction_a_case_keeps_holds_on_drawn_messages(case: str) -> None:
    # What a witness cannot show: that no message breaks a direction said to be compatible. 150 messages drawn
    # from each version (with the other's property names), each judged by jsonschema on both.
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis_jsonschema import from_schema

    old, new, _ = _case(case)
    changes = classify(old, new)
    old_schema, new_schema = export(old), export(new)
    old_ok, new_ok = conformance.oracle(old_schema).is_valid, conformance.oracle(new_schema).is_valid
    checks = []
    if all(backward(c) == "compatible" for c in changes):
        checks.append((old_schema, new_schema, old_ok, new_ok, "the old version accepts and the new refuses"))
    if all(forward(c) == "compatible" for c in changes):
        checks.append((new_schema, old_schema, new_ok, old_ok, "the new version accepts and the old refuses"))
    for source, other, accepted, refused_by, what in checks:
        names = _names(conformance.generation_schema(other))

        @settings(max_examples=150, phases=[Phase.generate], suppress_health_check=list(HealthCheck), database=None, deadline=None)
        @given(from_schema(_with_names(conformance.generation_schema(source), names)))
        def holds(message: Any) -> None:
            assert not (accepted(message) and not refused_by(message)), f"{case}: {message} is a message {what}"

        holds()


def _both_versions(project: Path) -> tuple[list[str], list[tuple[str, str, Any, bool]]]:
    """Each judged case's two versions as formats of one project (v_<case>_old, v_<case>_new), and what each
    witness must get from the readers of each: (format id, witness name, message, accepted)."""
    formats, expected = [], []
    for case in sorted(set(CASES) - UNJUDGED):
        witnesses = json.loads((MATRIX / case / "expected.json").read_text(encoding="utf-8")).get("witnesses", {})
        for version, source in (("old", "previous.json"), ("new", "current.json")):
            format_id = f"v_{case}_{version}"
            folder = project / "specs" / format_id
            folder.mkdir(parents=True)
            shutil.copyfile(MATRIX / case / source, folder / "spec.json")
            formats.append(format_id)
            for name, message in witnesses.items():
                # old_only: the old version's readers accept it, the new version's refuse it; new_only the reverse.
                expected.append((format_id, name, message, name == f"{version}_only"))
    return formats, expected


def _readers_disagreeing(tmp_path: Path, targets: list[str]) -> list[str]:
    from generator.load import load_spec

    project = tmp_path / "project"
    formats, expected = _both_versions(project)
    files = generate_cached([load_spec(project / "specs" / f, project) for f in formats], targets=targets)
    cases = [(format_id, json.dumps(message), None) for format_id, _, message, _ in expected]
    if targets == ["python"]:
        conformance.write_files(files, tmp_path / "generated")
        found = {"python": conformance.Built(tmp_path / "generated", tuple(formats), {"python": tmp_path / "generated" / "python"}).python(cases)}
    else:
        found = conformance.build(files, formats, tmp_path / "generated").verdicts(cases)
    assert set(found) == set(targets), f"built {sorted(found)} of {targets}"
    wrong = []
    for language, verdicts in found.items():
        for (format_id, name, message, accepted), verdict in zip(expected, verdicts):
            if verdict.get("ok") != accepted:
                wrong.append(f"{language} {format_id}: the {name} witness {json.dumps(message)} is {verdict}, want {'accepted' if accepted else 'refused'}")
    return wrong


def test_old_and_new_python_readers_read_each_witness_as_the_verdicts_say(tmp_path: Path) -> None:
    # Proof with generated code, not only jsonschema: the Python package of each case's old version and of its new
    # one, side by side, reading the messages that show a direction breaks. An old reader refuses exactly the new
    # messages the classifier said it would; a new reader refuses exactly those old ones.
    wrong = _readers_disagreeing(tmp_path, ["python"])
    assert not wrong, "\n".join(wrong)


def test_old_and_new_readers_in_every_language_read_each_witness_as_the_verdicts_say(tmp_path: Path) -> None:
    wrong = _readers_disagreeing(tmp_path, ["python", "go", "typescript"])
    assert not wrong, "\n".join(wrong)


def test_each_verdict_and_label_follows_the_move_of_the_messages() -> None:
    from generator.classify import Change

    rows = {
        wire: (backward(Change("minor", "x", wire=wire)), forward(Change("minor", "x", wire=wire)), label(Change("minor", "x", wire=wire)))
        for wire in ("same", "wider", "narrower", "other", "unknown")
    }
    assert rows == {
        "same": ("compatible", "compatible", "backward and forward compatible"),
        "wider": ("compatible", "breaks", "backward compatible, breaks forward"),
        "narrower": ("breaks", "compatible", "breaks backward, forward compatible"),
        "other": ("breaks", "breaks", "breaks backward and forward"),
        "unknown": ("may break", "may break", "may break backward and forward (not compared)"),
    }
    assert verdicts(Change("minor", "x", wire="wider")) == (
        "backward (new readers, old messages): compatible; forward (old readers, new messages): breaks: "
        "it accepts messages the old version refused"
    )


# --- The promise, as bump, check and diff meet it ----------------------------------------------------------


def _project(tmp_path: Path, promise: str | None, fmt: str = "chat_modality") -> Path:
    """A project holding one spec, its x-compatibility set to `promise` and locked (a minor or patch release)."""
    shutil.copytree(ROOT / "specs" / fmt, tmp_path / "specs" / fmt)
    if promise is not None:
        edit_spec(tmp_path, fmt, lambda d: d.__setitem__("x-compatibility", promise))
        done = run_chatspec(tmp_path, "bump", fmt)
        assert done.returncode == 0, done.stderr
    return tmp_path


def _add_optional_field(d: dict[str, Any]) -> None:
    # ChatMessage is an open model: a message before this change may hold "lang" as anything (narrower).
    d["$defs"]["ChatMessage"]["properties"]["lang"] = {"type": "string", "description": "The language."}


def _add_role(d: dict[str, Any]) -> None:
    d["$defs"]["Role"]["enum"].append("system")  # wider: old readers refuse a message that uses it


@pytest.mark.parametrize(
    "promise, edit, needed",
    [
        (None, _add_optional_field, "minor"),
        ("forward", _add_optional_field, "minor"),
        ("backward", _add_optional_field, "major"),
        ("full", _add_optional_field, "major"),
        (None, _add_role, "minor"),
        ("backward", _add_role, "minor"),
        ("forward", _add_role, "major"),
        ("full_transitive", _add_role, "major"),
    ],
)
def test_a_change_that_breaks_the_promise_needs_a_major_version(tmp_path: Path, promise: str | None, edit, needed: str) -> None:  # type: ignore[no-untyped-def]
    project = _project(tmp_path, promise)
    edit_spec(project, "chat_modality", edit)
    shown = run_chatspec(project, "diff", "chat_modality")
    assert shown.returncode == 0, shown.stderr
    assert f"needs a {needed} bump" in shown.stdout
    broken = "breaks the backward compatibility promise" if edit is _add_optional_field else "breaks the forward compatibility promise"
    assert (broken in shown.stdout) == (needed == "major"), shown.stdout
    if needed == "major":
        refused = run_chatspec(project, "bump", "chat_modality", "--to", "minor")
        assert refused.returncode == 2 and broken in refused.stderr and "is refused: the change is major" in refused.stderr, refused.stderr
    done = run_chatspec(project, "bump", "chat_modality")
    assert done.returncode == 0 and f"({needed} change)" in done.stdout, done.stdout + done.stderr


def test_diff_gives_each_change_both_verdicts_and_the_promise(tmp_path: Path) -> None:
    project = _project(tmp_path, "backward")
    edit_spec(project, "chat_modality", lambda d: (_add_optional_field(d), _add_role(d)))
    shown = run_chatspec(project, "diff", "chat_modality")
    lines = shown.stdout.splitlines()
    assert lines[1] == "  compatibility promised (x-compatibility): backward"
    added = lines.index("  major: optional field added: ChatMessage.lang (breaks the backward compatibility promise)")
    assert lines[added + 1] == (
        "      backward (new readers, old messages): breaks; forward (old readers, new messages): compatible: "
        "it refuses messages the old version accepted; old readers keep it as an additional property"
    )
    role = lines.index("  minor: enum value added: Role 'system' (warning: exhaustive consumers must handle it)")
    assert lines[role + 1].startswith("      backward (new readers, old messages): compatible; forward (old readers, new messages): breaks")


def test_a_transitive_promise_is_kept_against_every_release_of_the_major(tmp_path: Path) -> None:
    # 1.1.0 -> 1.2.0 adds an optional field to an open model (narrower) with no promise made. Promising backward
    # then is a minor change: against 1.2.0 nothing breaks. Promising backward_transitive is not: readers of the
    # new version would refuse a 1.0.0 or 1.1.0 message that used "lang" for something else.
    project = _project(tmp_path, None)
    edit_spec(project, "chat_modality", _add_optional_field)
    assert run_chatspec(project, "bump", "chat_modality").returncode == 0
    for promise, needed in (("backward", "minor"), ("backward_transitive", "major")):
        edit_spec(project, "chat_modality", lambda d: d.__setitem__("x-compatibility", promise))
        shown = run_chatspec(project, "diff", "chat_modality")
        assert f"needs a {needed} bump" in shown.stdout, shown.stdout
        # (1.1.0 added ChatMessage.input_id the same way: a 1.0.0 message may hold it as anything.)
        for field in ("input_id", "lang"):
            against = f"optional field added: ChatMessage.{field} (breaks the backward compatibility promise against 1.0.0)"
            assert (against in shown.stdout) == (promise == "backward_transitive"), shown.stdout


def test_a_promise_dropped_in_the_same_edit_still_binds_it(tmp_path: Path) -> None:
    project = _project(tmp_path, "backward")
    edit_spec(project, "chat_modality", lambda d: (_add_optional_field(d), d.pop("x-compatibility")))
    shown = run_chatspec(project, "diff", "chat_modality")
    assert "major: compatibility promise changed: backward -> none" in shown.stdout
    assert "major: optional field added: ChatMessage.lang (breaks the backward compatibility promise)" in shown.stdout


def test_the_changelog_labels_each_change_and_states_the_promise(tmp_path: Path) -> None:
    from generator.core import discover, generate, histories
    from generator.options import load_options

    project = _project(tmp_path, "forward")
    edit_spec(project, "chat_modality", _add_optional_field)
    assert run_chatspec(project, "bump", "chat_modality").returncode == 0
    page = generate(discover(project / "specs", project), targets=["docs"], options=load_options(project), history=histories(project / "specs"))[
        "docs/chat_modality.md"
    ]
    changelog = page.split("## Changelog", 1)[1]
    assert "This format promises forward compatibility (`x-compatibility`: `forward`)" in changelog
    assert "- minor: optional field added: <code>ChatMessage.<wbr>lang</code> — breaks backward, forward compatible\n" in changelog
    assert "- minor: compatibility promise changed: none -&gt; forward — backward and forward compatible\n" in changelog
    # Every change of every release has its label: none was recorded in words this chatspec does not find again.
    listed = [line for line in changelog.splitlines() if line.startswith("- ")]
    assert listed and all(" — " in line for line in listed), listed


def test_the_witness_messages_are_plain_json() -> None:
    # They are read by people deciding whether a verdict is right: short, ASCII, as JSON writes them.
    for case in CASES:
        for name, message in json.loads((MATRIX / case / "expected.json").read_text(encoding="utf-8")).get("witnesses", {}).items():
            text = json.dumps(message)
            assert text.isascii() and len(text) < 200 and json.loads(text) == copy.deepcopy(message), (case, name, text)


def test_a_change_chatspec_does_not_compare_may_break_the_promise_and_needs_a_major(tmp_path: Path) -> None:
    project = _project(tmp_path, "forward")
    edit_spec(project, "chat_modality", lambda d: d["$defs"]["ChatMessage"]["properties"]["conversation_id"].__setitem__("pattern", "\\w"))
    shown = run_chatspec(project, "diff", "chat_modality")
    assert "major: pattern changed: ChatMessage.conversation_id '\\\\S' -> '\\\\w' (may break the forward compatibility promise)" in shown.stdout, shown.stdout


def test_the_changelog_reads_each_snapshot_once_and_a_missing_one_only_loses_its_labels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import history

    project = _project(tmp_path, "backward_transitive", fmt="chat_event")
    for i in range(6):  # six more releases, each adding an optional field to the closed Message (compatible backward)
        edit_spec(project, "chat_event", lambda d, i=i: d["$defs"]["Message"]["properties"].__setitem__(f"note{i}", {"type": "string"}))
        assert run_chatspec(project, "bump", "chat_event").returncode == 0
    folder = project / "specs" / "chat_event"
    releases = history.read_lock(folder)
    assert len(releases) == 8
    lowered: list[str] = []
    real = history.lower
    monkeypatch.setattr(history, "lower", lambda spec: lowered.append(spec.path) or real(spec))
    found = history.release_changes(folder, project)
    assert len(lowered) == len(releases) and sorted(found) == [r.version for r in releases[1:]]
    assert all(set(found[r.version]) == set(r.changes) for r in releases[1:])
    # A snapshot this chatspec cannot read (here: gone) costs the two releases beside it their labels, nothing more.
    shutil.rmtree(folder / "history" / releases[3].version)
    found = history.release_changes(folder, project)
    assert sorted(found) == sorted(r.version for r in releases[1:] if r.version not in (releases[3].version, releases[4].version))


def test_in_0_x_a_transitive_promise_holds_each_minor_line_together(tmp_path: Path) -> None:
    # 0.1.0 -> 0.2.0 may break (the minor number is 0.x's major); a transitive promise then binds 0.2.x to 0.2.0
    # on, not to 0.1.0: a later edit that breaks nothing is a patch, not another breaking bump.
    project = tmp_path
    shutil.copytree(ROOT / "specs" / "chat_event", project / "specs" / "chat_event")
    folder = project / "specs" / "chat_event"
    shutil.rmtree(folder / "history")
    edit_spec(project, "chat_event", lambda d: (d.__setitem__("x-version", "0.1.0"), d.__setitem__("x-compatibility", "backward_transitive")))
    assert run_chatspec(project, "bump", "chat_event").returncode == 0
    edit_spec(project, "chat_event", lambda d: d["$defs"]["Message"]["properties"].pop("name"))  # closed: narrower
    done = run_chatspec(project, "bump", "chat_event")
    assert done.returncode == 0 and "locked 0.2.0" in done.stdout, done.stdout + done.stderr
    edit_spec(project, "chat_event", lambda d: d.__setitem__("description", "Another description."))
    shown = run_chatspec(project, "diff", "chat_event")
    assert "needs a patch bump" in shown.stdout and "against 0.1.0" not in shown.stdout, shown.stdout

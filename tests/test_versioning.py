"""Version locks and change classification: the matrix of cases, and the lock as a user meets it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from generator.classify import bump, classify, level_between, required_level
from generator.load import LoadedSpec, check_document
from generator.lower import lower

MATRIX = Path(__file__).resolve().parent / "versioning"
CASES = sorted(p.name for p in MATRIX.iterdir() if (p / "expected.json").is_file())


def _format(path: Path) -> object:
    document = json.loads(path.read_text(encoding="utf-8"))
    check_document(document, str(path))
    return lower(LoadedSpec("sample", path.as_posix(), document, (), ()))


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


def test_version_arithmetic() -> None:
    assert [bump("1.2.3", lvl) for lvl in ("patch", "minor", "major")] == ["1.2.4", "1.3.0", "2.0.0"]
    assert level_between("1.2.3", "1.2.4") == "patch" and level_between("1.2.3", "1.10.0") == "minor"
    assert level_between("1.2.3", "2.0.0") == "major" and level_between("1.2.3", "1.2.3") is None


def _chatspec(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", "--root", str(root), *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    assert _chatspec(tmp_path, "generate").returncode == 0
    return tmp_path


def _edit(project: Path, fmt: str, change) -> Path:  # type: ignore[no-untyped-def]
    path = project / "specs" / fmt / "spec.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def test_dropping_a_field_under_a_minor_bump_is_refused_naming_it(project: Path) -> None:
    def drop(d: dict) -> None:  # type: ignore[type-arg]
        del d["$defs"]["ChatEvent"]["properties"]["completion_running"]
        d["x-version"] = "1.1.0"
    _edit(project, "chat_event", drop)
    for example in (project / "specs" / "chat_event" / "examples" / "valid").glob("*.json"):
        data = json.loads(example.read_text())
        data.pop("completion_running", None)
        example.write_text(json.dumps(data))
    done = _chatspec(project, "generate")
    assert done.returncode == 2
    assert ("specs/chat_event/spec.json: at /x-version: x-version 1.1.0 is a minor bump, "
            "but the change is major: field removed: ChatEvent.completion_running") in done.stderr
    assert "it must move to 2.0.0" in done.stderr
    refused = _chatspec(project, "bump", "chat_event", "--to", "minor")
    assert refused.returncode == 2 and "refused" in refused.stderr and "ChatEvent.completion_running" in refused.stderr
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
    assert _chatspec(project, "generate").returncode == 0
    page = (project / "generated" / "docs" / "chat_event.md").read_text()
    assert "| 1.1.0 | minor | minor: optional field added: Message.weight |" in page
    diff = _chatspec(project, "diff", "chat_event", "--against", "1.0.0")
    assert "needs a minor bump" in diff.stdout and "optional field added: Message.weight" in diff.stdout


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

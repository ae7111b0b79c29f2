"""chatspec vendor and the pre-commit hook, as another repository uses them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, format_folders
from go_driver import GO_ENV, go_available


def _chatspec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", "--root", str(ROOT), *args], capture_output=True, text=True, cwd=ROOT)


def _mentions(folder: Path, word: str) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and word in p.read_text(encoding="utf-8", errors="replace")]


def test_python_vendored_under_another_package_name(tmp_path: Path) -> None:
    args = ["vendor", "--lang", "python", "--package", "acme_chat", "--out", str(tmp_path), "--formats", "droidlet_chat,structured_conversation"]
    done = _chatspec(*args)
    assert done.returncode == 0, done.stderr
    package = tmp_path / "acme_chat"
    assert sorted(p.name for p in package.iterdir()) == [
        "README.md", "__init__.py", "_runtime.py", "droidlet_chat.py", "droidlet_chat_v1.py", "py.typed", "structured_conversation.py"]
    assert not _mentions(tmp_path, "chatformats")
    readme = (package / "README.md").read_text()
    assert "| `droidlet_chat` | 2.0.0 |" in readme and "| `droidlet_chat_v1` | 1.0.0 |" in readme
    example = (format_folders()["structured_conversation"] / "examples" / "valid" / "basic_two_person.json").read_text()
    code = ("import sys; from acme_chat import structured_conversation as sc, droidlet_chat\n"
            "doc = sc.parse_structured_conversation_from_json(sys.stdin.read()); print(doc.id, droidlet_chat.VERSION)")
    ran = subprocess.run([sys.executable, "-S", "-c", code], input=example, capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["chat_001", "2.0.0"]
    # The same command again changes nothing, and --check agrees.
    again = _chatspec(*args)
    assert "(0 written, 0 removed)" in again.stdout
    assert _chatspec(*args, "--check").returncode == 0
    (package / "droidlet_chat.py").write_text("# edited\n")
    stale = _chatspec(*args, "--check")
    assert stale.returncode == 1 and "is stale" in stale.stderr


def test_vendor_refuses_a_folder_it_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "main.go").write_text("package main\n")
    done = _chatspec("vendor", "--lang", "go", "--module", "example.com/x", "--out", str(tmp_path))
    assert done.returncode == 2 and "holds files chatspec did not vendor" in done.stderr
    assert (tmp_path / "main.go").read_text() == "package main\n"


@pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")
def test_go_vendored_under_another_module_path_builds_vets_and_tests(tmp_path: Path) -> None:
    done = _chatspec("vendor", "--lang", "go", "--module", "example.com/acme/chat", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "go.mod").read_text().startswith("module example.com/acme/chat\n")
    assert not _mentions(tmp_path, "chatformats")
    for command in (["vet", "./..."], ["test", "-count=1", "./..."]):
        ran = subprocess.run(["go", *command], cwd=tmp_path, capture_output=True, text=True, env=GO_ENV)
        assert ran.returncode == 0, ran.stdout + ran.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="git is needed to try the hook")
def test_pre_commit_hook_passes_when_fresh_and_fails_when_stale(tmp_path: Path) -> None:
    consumer = tmp_path / "consumer"
    shutil.copytree(ROOT / "specs", consumer / "specs")
    git = ["git", "-c", "user.email=ci@example.invalid", "-c", "user.name=ci"]
    subprocess.run(["git", "init", "-q"], cwd=consumer, check=True)
    assert subprocess.run([sys.executable, "-m", "generator", "--root", str(consumer), "generate"], cwd=ROOT, capture_output=True).returncode == 0
    subprocess.run([*git, "add", "-A"], cwd=consumer, check=True)
    subprocess.run([*git, "commit", "-qm", "specs"], cwd=consumer, check=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    hook = [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "chatspec-check", "--all-files"]
    fresh = subprocess.run(hook, cwd=consumer, capture_output=True, text=True, env=env, timeout=900)
    assert fresh.returncode == 0, fresh.stdout[-3000:] + fresh.stderr[-2000:]
    assert "chatspec check" in fresh.stdout and "Passed" in fresh.stdout
    module = consumer / "generated" / "python" / "chatformats" / "chat_event.py"
    module.write_text(module.read_text() + "# edited by hand\n")
    stale = subprocess.run(hook, cwd=consumer, capture_output=True, text=True, env=env, timeout=900)
    assert stale.returncode != 0 and "generated/ is stale" in stale.stdout


def test_hook_definition_names_the_check() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "id: chatspec-check" in text and "entry: chatspec" in text and "args: [check]" in text

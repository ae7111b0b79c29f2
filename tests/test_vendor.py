"""chatspec vendor and the pre-commit hook, as another repository uses them."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import ROOT, chatspec_here, dead_pid, format_folders, run_chatspec
from go_driver import GO_ENV, go_available
from generator.write import MANIFEST


def _chatspec(*args: str) -> subprocess.CompletedProcess[str]:
    return run_chatspec(ROOT, *args)


def _mentions(folder: Path, word: str) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and word in p.read_text(encoding="utf-8", errors="replace")]


def test_python_vendored_under_another_package_name(tmp_path: Path) -> None:
    args = ["vendor", "--lang", "python", "--package", "acme_chat", "--out", str(tmp_path), "--formats", "droidlet_chat,structured_conversation"]
    done = _chatspec(*args)
    assert done.returncode == 0, done.stderr
    package = tmp_path / "acme_chat"
    assert sorted(p.name for p in package.iterdir()) == [
        ".chatspec-manifest.json", "CHATSPEC.md", "__init__.py", "_runtime.py", "droidlet_chat.py", "droidlet_chat_v1.py", "py.typed",
        "structured_conversation.py"]
    assert not _mentions(tmp_path, "chatformats")
    readme = (package / "CHATSPEC.md").read_text()
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


def _hashes(folder: Path) -> dict[str, str]:
    """sha256 of every file under `folder` (dotfiles and .git included; a symlink by where it points)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        key = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[key] = "-> " + os.readlink(path)
        elif path.is_file():
            found[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _ours(folder: Path) -> set[Path]:
    return {folder / MANIFEST, *(folder / p for p in json.loads((folder / MANIFEST).read_text())["files"])}


GIT = ["git", "-c", "user.email=ci@example.invalid", "-c", "user.name=ci", "-c", "init.defaultBranch=main"]


def _git_repository_of_dotfiles(case: Path) -> Path:
    repo = case / "repo"
    repo.mkdir()
    subprocess.run([*GIT, "init", "-q"], cwd=repo, check=True)
    (repo / ".env").write_text("SECRET=1\n")
    (repo / ".gitignore").write_text("*.log\n")
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yml").write_text("on: push\n")
    subprocess.run([*GIT, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*GIT, "commit", "-qm", "dotfiles"], cwd=repo, check=True)
    return repo


def _go_module_root_with_the_users_files(case: Path) -> Path:
    root = case / "chat"
    (root / "cmd" / "demo").mkdir(parents=True)
    (root / "README.md").write_text("# Our chat module\n\nOur own words.\n")
    (root / "cmd" / "demo" / "main.go").write_text(
        'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/acme/chat/chatevent"\n)\n\n'
        'func main() {\n\t_, err := chatevent.ParseChatEventFromJSON([]byte(`{}`))\n\tfmt.Println(err != nil)\n}\n')
    return root


def _old_and_new_siblings(case: Path) -> Path:
    out = case / "out"
    out.mkdir()
    for sibling in ("out.old", "out.new", "out/acme_chat.old", "out/acme_chat.new"):
        (case / sibling).mkdir(parents=True, exist_ok=True)
        (case / sibling / "keep.txt").write_text(f"the user's {sibling}\n")
    return out


def _symlinked_out(case: Path) -> Path:
    real = case / "real"
    real.mkdir()
    (real / "keep.txt").write_text("the user's\n")
    link = case / "acme_chat"  # for python the link is the package folder itself (its name is the package's)
    link.symlink_to(real, target_is_directory=True)
    return link


def _binary_files(case: Path) -> Path:
    out = case / "out"
    (out / "acme_chat").mkdir(parents=True)
    (out / "logo.png").write_bytes(bytes(range(256)) * 4)
    (out / "acme_chat" / "data.bin").write_bytes(b"\xff\xfe\x00\x80 not utf-8")
    (out / "internal").mkdir()
    (out / "internal" / "blob.bin").write_bytes(b"\xc3\x28")
    return out


CORPUS: dict[str, Callable[[Path], Path]] = {
    "git_repository_of_dotfiles": _git_repository_of_dotfiles,
    "go_module_root_with_the_users_files": _go_module_root_with_the_users_files,
    "old_and_new_siblings": _old_and_new_siblings,
    "symlinked_out": _symlinked_out,
    "binary_files": _binary_files,
}


def _vendor_args(lang: str, out: Path, *extra: str) -> list[str]:
    name = ["--package", "acme_chat"] if lang == "python" else ["--module", "example.com/acme/chat"]
    return ["vendor", "--lang", lang, *name, "--out", str(out), "--formats", "chat_event", *extra]


@pytest.mark.parametrize("lang", ["go", "python"])
@pytest.mark.parametrize("case", sorted(CORPUS))
def test_vendoring_twice_into_a_users_folder_keeps_every_user_byte(tmp_path: Path, case: str, lang: str) -> None:
    if case == "go_module_root_with_the_users_files" and lang == "python":
        pytest.skip("a Go module root is a Go case")
    if case == "git_repository_of_dotfiles" and shutil.which("git") is None:
        pytest.skip("git is needed to make the repository")
    out = CORPUS[case](tmp_path)
    user = _hashes(tmp_path)
    assert user, "the corpus case holds files of the user's"
    for run in range(2):
        done = _chatspec(*_vendor_args(lang, out))
        assert done.returncode == 0, done.stderr
        if run == 1:
            assert "(0 written, 0 removed)" in done.stdout
        assert "Traceback" not in done.stderr
        folder = out / "acme_chat" if lang == "python" and out.name != "acme_chat" else out
        ours = _ours(folder)
        after = _hashes(tmp_path)
        assert {k: v for k, v in after.items() if k in user} == user, "a file of the user's changed or went away"
        assert set(after) - set(user) == {p.relative_to(tmp_path).as_posix() for p in ours} - set(user) or out.is_symlink()
        checked = _chatspec(*_vendor_args(lang, out, "--check"))
        assert checked.returncode == 0, checked.stdout + checked.stderr
    if lang == "go":
        assert (folder / "go.mod").read_text().startswith("module example.com/acme/chat\n")
        assert (folder / "chatevent" / "chatevent.go").is_file()
    else:
        assert (folder / "chat_event.py").read_text().startswith("# Code generated by chatspec")
    if out.is_symlink():
        assert out.is_symlink() and (tmp_path / "real" / MANIFEST).is_file()
    if case == "git_repository_of_dotfiles":
        fsck = subprocess.run(["git", "fsck", "--strict"], cwd=out, capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stderr
        status = subprocess.run(["git", "status", "--porcelain"], cwd=out, capture_output=True, text=True, check=True)
        assert status.stdout.splitlines() == ["?? acme_chat/" if lang == "python" else "?? .chatspec-manifest.json",
                                              *([] if lang == "python" else ["?? CHATSPEC.md", "?? chatevent/", "?? go.mod", "?? internal/"])]
    if case == "go_module_root_with_the_users_files" and go_available():
        for command in (["vet", "./..."], ["build", "./..."]):
            ran = subprocess.run(["go", *command], cwd=out, capture_output=True, text=True, env=GO_ENV)
            assert ran.returncode == 0, ran.stdout + ran.stderr


@pytest.mark.parametrize(
    ("lang", "path", "content"),
    [
        ("go", "go.mod", b"module example.com/ours\n\ngo 1.22\n"),
        ("go", "CHATSPEC.md", b"# our notes\n"),
        ("go", "chatevent/chatevent.go", b"\xff\xfe binary, not UTF-8"),
        ("python", "acme_chat/_runtime.py", b"# our runtime\n"),
        ("python", "acme_chat/py.typed", b"partial\n"),
    ],
    ids=["go_mod", "stub", "binary_go_file", "python_module", "py_typed"],
)
def test_a_user_file_where_vendor_writes_is_refused_by_name_and_nothing_is_written(
        tmp_path: Path, lang: str, path: str, content: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / path).write_bytes(content)
    before = _hashes(tmp_path)
    for extra in ((), ("--check",)):
        done = chatspec_here(monkeypatch, ROOT, *_vendor_args(lang, tmp_path, *extra))
        assert "Traceback" not in done.stderr
        if not extra:
            assert done.returncode == 2
            assert done.stderr.startswith(f"chatspec: {tmp_path / path}: is not chatspec's"), done.stderr
            assert "move or rename each file named here" in done.stderr
        else:
            assert done.returncode == 1 and f"({path.removeprefix('acme_chat/')}: is not chatspec's" in done.stdout
    assert _hashes(tmp_path) == before


def test_revendoring_removes_only_its_own_files_that_are_no_longer_produced(tmp_path: Path) -> None:
    both = ["vendor", "--lang", "go", "--module", "example.com/acme/chat", "--out", str(tmp_path), "--formats", "chat_event,chat_modality"]
    assert _chatspec(*both).returncode == 0
    (tmp_path / "chatmodality" / "extra_test.go").write_text("package chatmodality\n")
    (tmp_path / "main.go").write_text("package main\n\nfunc main() {}\n")
    # A run given chat_event alone keeps chat_modality (vendored by the first); --drop removes it.
    assert "it holds chat_event 1.0.0, chat_modality " in _chatspec(*_vendor_args("go", tmp_path)).stdout
    done = _chatspec(*_vendor_args("go", tmp_path), "--drop", "chat_modality")
    assert done.returncode == 0, done.stderr
    assert "removed" in done.stdout and "0 removed" not in done.stdout
    assert sorted(p.name for p in (tmp_path / "chatmodality").iterdir()) == ["extra_test.go"]
    assert (tmp_path / "main.go").read_text() == "package main\n\nfunc main() {}\n"
    assert not any("chatmodality" in p for p in json.loads((tmp_path / MANIFEST).read_text())["files"])
    assert _chatspec(*_vendor_args("go", tmp_path, "--check")).returncode == 0


def test_the_first_run_on_a_folder_an_older_chatspec_vendored_keeps_the_users_files(tmp_path: Path) -> None:
    assert _chatspec(*_vendor_args("go", tmp_path)).returncode == 0
    # What the older chatspec left: no manifest, its README stub, and a file of the user's added since.
    (tmp_path / MANIFEST).unlink()
    stub = (tmp_path / "CHATSPEC.md").read_text()
    (tmp_path / "CHATSPEC.md").unlink()
    (tmp_path / "README.md").write_text(stub)
    (tmp_path / "cmd" / "demo").mkdir(parents=True)
    (tmp_path / "cmd" / "demo" / "main.go").write_text("package main\n\nfunc main() {}\n")
    (tmp_path / "NOTES.md").write_text("no header: the user's\n")
    checked = _chatspec(*_vendor_args("go", tmp_path, "--check"))
    assert checked.returncode == 1 and "(README.md should not exist" in checked.stdout and "NOTES.md" not in checked.stdout
    done = _chatspec(*_vendor_args("go", tmp_path))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "README.md").exists() and (tmp_path / "CHATSPEC.md").is_file()
    assert (tmp_path / "cmd" / "demo" / "main.go").read_text() == "package main\n\nfunc main() {}\n"
    assert (tmp_path / "NOTES.md").read_text() == "no header: the user's\n"
    assert _chatspec(*_vendor_args("go", tmp_path, "--check")).returncode == 0


def test_a_headed_file_in_a_folder_chatspec_never_vendored_is_not_removed(tmp_path: Path) -> None:
    # The user's repository root holds chatspec output of its own (generated/): vendoring Go there must leave it alone.
    theirs = tmp_path / "generated" / "python" / "chatformats" / "chat_event.py"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("# Code generated by chatspec from specs/chat_event/spec.json. DO NOT EDIT.\n")
    assert _chatspec(*_vendor_args("go", tmp_path)).returncode == 0
    assert theirs.is_file()


def test_python_out_ending_in_the_package_name_is_the_package_folder(tmp_path: Path) -> None:
    first = _chatspec(*_vendor_args("python", tmp_path / "src" / "acme_chat"))
    assert first.returncode == 0, first.stderr
    assert (tmp_path / "src" / "acme_chat" / "__init__.py").is_file()
    assert not (tmp_path / "src" / "acme_chat" / "acme_chat").exists()
    again = _chatspec(*_vendor_args("python", tmp_path / "src"))
    assert again.returncode == 0 and "into " + str(tmp_path / "src" / "acme_chat") + " (0 written, 0 removed)" in again.stdout
    here = subprocess.run([sys.executable, "-m", "generator", "--root", str(ROOT), *_vendor_args("python", Path("."))],
                          capture_output=True, text=True, cwd=tmp_path / "src" / "acme_chat")
    assert here.returncode == 0 and "into . (0 written, 0 removed)" in here.stdout, here.stdout + here.stderr
    assert not (tmp_path / "src" / "acme_chat" / "acme_chat").exists()


def test_vendor_check_names_paths_relative_to_the_vendored_folder(tmp_path: Path) -> None:
    assert _chatspec(*_vendor_args("python", tmp_path)).returncode == 0
    module = tmp_path / "acme_chat" / "chat_event.py"
    module.write_text(module.read_text() + "# edited\n")
    stale = _chatspec(*_vendor_args("python", tmp_path, "--check"))
    assert stale.returncode == 1
    assert "--- a/chat_event.py\n+++ b/chat_event.py\n" in stale.stdout
    assert "generated/" not in stale.stdout and str(tmp_path) not in stale.stdout
    assert f"{tmp_path / 'acme_chat'} is stale" in stale.stderr


@pytest.mark.parametrize(
    ("option", "value", "expected"),
    [
        ("--package", "../escaped", "is not a Python identifier"),
        ("--package", "acme/chat", "is not a Python identifier"),
        ("--package", "1chat", "is not a Python identifier"),
        ("--package", "café", "is not a Python identifier"),
        ("--package", "class", "is a Python keyword"),
        ("--package", "json", "is a standard-library module"),
        ("--package", "__pycache__", "starts with __"),
        ("--module", "../escaped", "has the element '..'"),
        ("--module", "example.com/a b", "has the element 'a b'"),
        ("--module", 'example.com/x"; os.Exit(1); "', "Go allows only ASCII letters"),
        ("--module", "/example.com/x", "no leading, trailing or doubled slash"),
        ("--module", "example.com//x", "no leading, trailing or doubled slash"),
        ("--module", "acme/chat", "the first element must be a lowercase domain name with a dot"),
        ("--module", "Example.com/chat", "the first element must be a lowercase domain name with a dot"),
        ("--module", "example.com/chat/v1", "a major-version suffix must be v2 or higher"),
        ("--module", "example.com/.hidden", "starts or ends with a dot"),
        ("--module", "example.com/con", "a reserved file name on Windows"),
    ],
)
def test_vendor_names_are_checked_before_anything_is_written(
        tmp_path: Path, option: str, value: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    lang = "python" if option == "--package" else "go"
    done = chatspec_here(monkeypatch, ROOT, "vendor", "--lang", lang, option, value, "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"chatspec: {option} {value!r}: "), done.stderr
    assert expected in done.stderr and "\n  hint: " in done.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "escaped").exists()


@pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")
@pytest.mark.parametrize("module", ["example.com/acme/chat", "git.example.org/team-a/chat_v2.x", "example.com/chat/v2", "x.io/A~b"])
def test_accepted_module_paths_are_ones_go_accepts(tmp_path: Path, module: str) -> None:
    done = _chatspec("vendor", "--lang", "go", "--module", module, "--out", str(tmp_path), "--formats", "chat_event")
    assert done.returncode == 0, done.stderr
    ran = subprocess.run(["go", "vet", "./..."], cwd=tmp_path, capture_output=True, text=True, env=GO_ENV)
    assert ran.returncode == 0, ran.stdout + ran.stderr


@pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")
def test_an_existing_go_module_builds_against_a_vendored_copy_with_require_and_replace(tmp_path: Path) -> None:
    app = tmp_path / "app"
    (app / "cmd" / "show").mkdir(parents=True)
    # The layout and the two go.mod lines the README gives a consumer.
    (app / "go.mod").write_text("module example.com/app\n\ngo 1.21\n\nrequire example.com/acme/chat v0.0.0\n\n"
                                "replace example.com/acme/chat => ./third_party/chat\n")
    done = _chatspec("vendor", "--lang", "go", "--module", "example.com/acme/chat", "--out", str(app / "third_party" / "chat"))
    assert done.returncode == 0, done.stderr
    (app / "cmd" / "show" / "main.go").write_text(
        'package main\n\nimport (\n\t"fmt"\n\t"io"\n\t"os"\n\n\t"example.com/acme/chat/chatevent"\n)\n\n'
        "func main() {\n\tdata, _ := io.ReadAll(os.Stdin)\n\tevent, err := chatevent.ParseChatEventFromJSON(data)\n"
        '\tif err != nil {\n\t\tfmt.Println("invalid:", err)\n\t\tos.Exit(1)\n\t}\n\tfmt.Printf("%T\\n", event)\n}\n')
    for command in (["vet", "./..."], ["build", "./..."], ["build", "-o", str(tmp_path / "show"), "./cmd/show"]):
        ran = subprocess.run(["go", *command], cwd=app, capture_output=True, text=True, env=GO_ENV)
        assert ran.returncode == 0, ran.stdout + ran.stderr
    example = (format_folders()["chat_event"] / "examples" / "valid" / "content_chunk.json").read_text()
    ran = subprocess.run([str(tmp_path / "show")], input=example, capture_output=True, text=True)
    assert ran.returncode == 0 and ran.stdout == "*chatevent.ChatEvent\n", ran.stdout + ran.stderr
    bad = subprocess.run([str(tmp_path / "show")], input="{}", capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stdout.startswith("invalid:")


def test_a_file_where_vendor_needs_a_folder_or_a_symlink_inside_it_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "internal").write_text("a file of the user's\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "chatevent").symlink_to(outside, target_is_directory=True)
    (tmp_path / "c").write_text("not a folder\n")
    cases = {"a": "chatspec: a/internal: is a file where chatspec needs a folder\n  hint:",
             "b": "chatspec: b/chatevent: is a symlink; chatspec writes no file through or over a symlink inside its folder\n  hint:",
             "c": "chatspec: c: exists and is not a folder\n  hint:"}
    before = _hashes(tmp_path)
    for folder, expected in cases.items():
        done = _chatspec(*_vendor_args("go", tmp_path / folder))
        assert done.returncode == 2 and expected in done.stderr.replace(str(tmp_path) + "/", ""), done.stderr
        assert "Traceback" not in done.stderr
    assert _hashes(tmp_path) == before and not list(outside.iterdir())


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
@pytest.mark.slow
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


def test_a_package_an_older_chatspec_vendored_one_level_too_deep_is_named_and_left_alone(tmp_path: Path) -> None:
    deep = tmp_path / "src" / "acme_chat" / "acme_chat"  # where `--out src/acme_chat` used to land
    assert _chatspec(*_vendor_args("python", deep)).returncode == 0
    (deep / MANIFEST).unlink()
    (deep / "CHATSPEC.md").rename(deep / "README.md")
    before = _hashes(deep)
    done = _chatspec(*_vendor_args("python", tmp_path / "src" / "acme_chat"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "src" / "acme_chat" / "chat_event.py").is_file()
    assert f"note: {deep} is a copy an older chatspec vendored one level too deep" in done.stderr
    assert _hashes(deep) == before


def test_temporary_files_a_killed_run_left_in_a_symlinked_folder_are_removed(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real, target_is_directory=True)
    assert _chatspec(*_vendor_args("go", link)).returncode == 0
    # A killed run's id: a fixed number (999) was a live process's in a CI rehearsal, whose file is rightly kept.
    killed = dead_pid()
    leftovers = [real / f".go.mod.{killed}.chatspec-tmp", real / "chatevent" / f".chatevent.go.{killed}.chatspec-tmp"]
    for leftover in leftovers:
        leftover.write_text("half")
    (real / ".env.chatspec-tmp-not").write_text("the user's")
    assert _chatspec(*_vendor_args("go", link, "--check")).returncode == 0
    assert _chatspec(*_vendor_args("go", link)).returncode == 0
    assert not any(p.exists() for p in leftovers)
    assert (real / ".env.chatspec-tmp-not").read_text() == "the user's" and link.is_symlink()


def test_only_the_stub_an_older_chatspec_wrote_marks_a_folder_as_its_own(tmp_path: Path) -> None:
    from generator.render import header
    from generator.vendor import vendored_by_old_chatspec

    (tmp_path / "README.md").write_text("The chat types in chat/ are Vendored by chatspec; see there.\n")
    assert not vendored_by_old_chatspec(tmp_path)
    (tmp_path / "README.md").write_text(f"<!-- {header(None)} -->\n\n# Vendored by chatspec: `acme`\n")
    assert vendored_by_old_chatspec(tmp_path)


def test_a_folder_with_a_manifest_of_its_own_is_never_taken_for_an_older_chatspecs_files(tmp_path: Path) -> None:
    from generator.write import _headed_files

    headed = "// Code generated by chatspec. DO NOT EDIT.\n"
    (tmp_path / "mine.go").write_text(headed)
    (tmp_path / "vendored" / "pkg").mkdir(parents=True)
    (tmp_path / "vendored" / MANIFEST).write_text("{}")
    (tmp_path / "vendored" / "pkg" / "x.go").write_text(headed)
    assert _headed_files(tmp_path) == ["mine.go"]


def test_formats_bring_only_their_own_kept_earlier_majors() -> None:
    from generator.load import LoadedSpec
    from generator.vendor import _kept_beside

    def spec(format_id: str, path: str) -> LoadedSpec:
        return LoadedSpec(format_id, path, {}, (), ())

    wanted = {"chat_modality", "droidlet_chat"}
    assert _kept_beside(spec("droidlet_chat_v1", "specs/droidlet_chat/history/1.0.0/spec.json"), wanted)
    assert not _kept_beside(spec("chat_modality_verbose", "specs/chat_modality_verbose/spec.json"), wanted)
    assert not _kept_beside(spec("chat_modality_v2", "specs/chat_modality_v2/spec.json"), wanted)


def test_a_temporary_file_of_a_live_run_is_left_alone_and_a_dead_ones_removed(tmp_path: Path) -> None:
    from generator.write import _remove_leftover_temps

    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        dead = dead_pid()
        (tmp_path / f".a.go.{alive.pid}.chatspec-tmp").write_text("half")
        (tmp_path / f".b.go.{dead}.chatspec-tmp").write_text("half")
        _remove_leftover_temps(tmp_path, {""})
        assert sorted(p.name for p in tmp_path.iterdir()) == [f".a.go.{alive.pid}.chatspec-tmp"]
    finally:
        alive.kill()
        alive.wait()


@pytest.mark.parametrize(("lang", "out", "inside"), [
    ("go", "generated", "generated"), ("python", "generated", "generated"), ("go", "generated/go", "generated"),
    ("typescript", "generated/new", "generated"), ("go", "specs", "specs"), ("python", "specs/../specs/chat_event", "specs"),
    ("go", "elsewhere/../generated", "generated"), ("go", "link-to-generated", "generated"), ("python", "link-to-specs/x", "specs"),
])
def test_vendor_refuses_an_out_inside_the_projects_generated_or_specs_before_writing_anything(
        tmp_path: Path, lang: str, out: str, inside: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Into generated/ vendor took generate's manifest for its own and removed 82 files; into specs/ every later run failed.
    project = tmp_path / "project"
    for folder in ("specs", "generated"):
        shutil.copytree(ROOT / folder, project / folder)
    (project / "elsewhere").mkdir()
    (project / "link-to-generated").symlink_to(project / "generated", target_is_directory=True)
    (project / "link-to-specs").symlink_to(project / "specs", target_is_directory=True)
    before = _hashes(project)
    name = {"go": ["--module", "example.com/acme/chat"], "python": ["--package", "acme_chat"], "typescript": ["--package", "@acme/chat"]}[lang]
    for check in ([], ["--check"]):
        done = chatspec_here(monkeypatch, project, "vendor", "--lang", lang, *name, "--out", out, *check, cwd=project)
        assert done.returncode == 2, done.stdout + done.stderr
        first, hint = done.stderr.splitlines()
        assert first.startswith(f"chatspec: {out}") and f"is inside this project's {inside}/ ({(project / inside).resolve()})" in first, first
        assert hint.startswith("  hint: vendor into a folder of the repository that uses the code"), hint
    assert _hashes(project) == before, "nothing was written or removed"


@pytest.mark.parametrize("renames", [0, 3])
def test_a_vendor_killed_at_a_rename_is_reported_by_check_and_the_next_run_leaves_no_temporary_file(tmp_path: Path, renames: int) -> None:
    # Killed outright (os._exit: nothing cleans up) as it renames its renames-th file into place.
    killer = ("import os, sys\nfrom generator.cli import main\nreal, renames = os.replace, [0]\n"
              "def replace(*args, **kwargs):\n    if renames[0] == int(sys.argv[1]):\n        os._exit(137)\n"
              "    renames[0] += 1\n    real(*args, **kwargs)\nos.replace = replace\nsys.exit(main(sys.argv[2:]))\n")
    out = tmp_path / "chat"
    args = _vendor_args("go", out)
    killed = subprocess.run([sys.executable, "-c", killer, str(renames), "--root", str(ROOT), *args], cwd=ROOT, capture_output=True, text=True)
    assert killed.returncode == 137, killed.stderr
    assert [p for p in out.rglob("*chatspec-tmp")], "killed with a temporary file in place"
    stale = _chatspec(*args, "--check")
    assert stale.returncode == 1, stale.stdout
    # (Killed at the first rename, that of its intent manifest, it had touched nothing to report.)
    assert renames == 0 or "a chatspec run was interrupted here" in stale.stdout, stale.stdout
    assert _chatspec(*args).returncode == 0
    assert not [p for p in out.rglob("*chatspec-tmp")], "the next run removes it"
    assert _chatspec(*args, "--check").returncode == 0


# --- One folder, formats vendored in separate runs (issue 32 item 7) ----------------------------------------

_NAMES = {"go": ("--module", "example.com/acme/chat"), "python": ("--package", "acme_chat"), "typescript": ("--package", "@acme/chat")}


def _vendor_into(out: Path, lang: str, *extra: str, root: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run_chatspec(root, "vendor", "--lang", lang, *_NAMES[lang], "--out", str(out), *extra)


def _record(folder: Path) -> dict[str, object]:
    record: dict[str, object] = json.loads((folder / MANIFEST).read_text())["vendored"]
    return record


@pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")
def test_go_formats_vendored_in_separate_runs_share_one_module_that_builds(tmp_path: Path) -> None:
    out = tmp_path / "chat"
    for formats in ("chat_event", "droidlet_chat"):
        done = _vendor_into(out, "go", "--formats", formats)
        assert done.returncode == 0, done.stderr
    # The second run kept the first's package (it removed it, and `go build` failed on the import).
    assert "(9 written, 0 removed); it holds chat_event 1.0.0, droidlet_chat 2.0.0, droidlet_chat_v1 1.0.0" in done.stdout, done.stdout
    record = _record(out)
    assert record["lang"] == "go" and record["name"] == "example.com/acme/chat"
    formats = record["formats"]
    assert isinstance(formats, dict) and list(formats) == ["chat_event", "droidlet_chat", "droidlet_chat_v1"]
    assert formats["chat_event"] == {"version": "1.0.0", "files": ["chatevent/behaviour.go", "chatevent/chatevent.go",
                                                                   "chatevent/fuzz_test.go", "chatevent/validate.go"]}
    owned = {f for entry in formats.values() for f in entry["files"]}
    shared = set(json.loads((out / MANIFEST).read_text())["files"]) - owned
    assert {"go.mod", "CHATSPEC.md"} <= shared and all(p.startswith("internal/") for p in shared - {"go.mod", "CHATSPEC.md"})
    (out / "app").mkdir()
    (out / "app" / "main.go").write_text('package main\n\nimport (\n\t"fmt"\n\n\t"example.com/acme/chat/chatevent"\n'
                                         '\t"example.com/acme/chat/droidletchat"\n)\n\nfunc main() {\n'
                                         '\tfmt.Println(chatevent.FormatID, droidletchat.FormatID)\n}\n')
    for command in (["build", "./..."], ["vet", "./..."], ["run", "./app"]):
        ran = subprocess.run(["go", *command], cwd=out, capture_output=True, text=True, env=GO_ENV)
        assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout == "chat_event droidlet_chat\n"
    # The stub names the command that vendors the folder's formats in one run; either run again changes nothing.
    assert "--out <dir> --formats chat_event,droidlet_chat\n" in (out / "CHATSPEC.md").read_text()
    assert "(0 written, 0 removed)" in _vendor_into(out, "go", "--formats", "chat_event").stdout
    assert _vendor_into(out, "go", "--formats", "droidlet_chat", "--check").returncode == 0
    # --drop takes a format (and the earlier majors it brought) out; the module still builds.
    done = _vendor_into(out, "go", "--drop", "droidlet_chat")
    # Written: the stub (its table and command) and the manifest.
    assert done.returncode == 0 and "(2 written, 7 removed); it holds chat_event 1.0.0\n" in done.stdout, done.stdout
    assert not (out / "droidletchat").exists() and not (out / "droidletchatv1").exists()
    assert list(_record(out)["formats"]) == ["chat_event"]  # type: ignore[call-overload]
    (out / "app" / "main.go").unlink()
    ran = subprocess.run(["go", "build", "./..."], cwd=out, capture_output=True, text=True, env=GO_ENV)
    assert ran.returncode == 0, ran.stdout + ran.stderr


def test_python_formats_vendored_in_separate_runs_are_one_importable_package(tmp_path: Path) -> None:
    for formats in ("structured_conversation", "chat_event"):
        done = _vendor_into(tmp_path, "python", "--formats", formats)
        assert done.returncode == 0, done.stderr
    code = ("from acme_chat import FORMATS, chat_event, structured_conversation\n"
            "print(sorted(FORMATS), chat_event.FORMAT_ID, structured_conversation.FORMAT_ID)")
    ran = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == "['chat_event', 'structured_conversation'] chat_event structured_conversation\n"
    assert list(_record(tmp_path / "acme_chat")["formats"]) == ["chat_event", "structured_conversation"]  # type: ignore[call-overload]


@pytest.mark.parametrize(("first", "second", "expected"), [
    (("go", "--module", "example.com/a"), ("go", "--module", "example.com/b"),
     "{out}: holds chat_event vendored as --module example.com/a; one folder is one module\n"
     "  hint: vendor with --module example.com/a to add formats to it, or into another folder\n"),
    (("go", "--module", "example.com/a"), ("typescript", "--package", "@acme/chat"),
     "{out}: holds the go code of chat_event, vendored by chatspec; one folder holds one language\n"
     "  hint: vendor --lang typescript into a folder of its own\n"),
])
def test_a_second_run_with_another_name_or_language_is_refused_and_changes_nothing(
        tmp_path: Path, first: tuple[str, ...], second: tuple[str, ...], expected: str) -> None:
    out = tmp_path / "chat"
    done = _chatspec("vendor", "--lang", first[0], *first[1:], "--out", str(out), "--formats", "chat_event")
    assert done.returncode == 0, done.stderr
    before = _hashes(out)
    done = _chatspec("vendor", "--lang", second[0], *second[1:], "--out", str(out), "--formats", "structured_conversation")
    assert (done.returncode, done.stderr) == (2, "chatspec: " + expected.format(out=out))
    assert _hashes(out) == before


def test_drop_names_only_formats_the_folder_holds_and_not_one_it_vendors(tmp_path: Path) -> None:
    assert _vendor_into(tmp_path, "go", "--formats", "chat_event,droidlet_chat").returncode == 0
    done = _vendor_into(tmp_path, "go", "--drop", "chat_evnt")
    assert (done.returncode, done.stderr) == (2, "chatspec: --drop chat_evnt: the folder holds no such format (did you mean 'chat_event'?)\n"
                                                 "  hint: drop some of the formats it holds: chat_event, droidlet_chat, droidlet_chat_v1\n")
    done = _vendor_into(tmp_path, "go", "--formats", "chat_event", "--drop", "chat_event")
    assert done.returncode == 2 and "--drop chat_event: names formats --formats vendors" in done.stderr
    done = _vendor_into(tmp_path, "go", "--drop", "chat_event,droidlet_chat")
    assert done.returncode == 2 and "would leave no format in the folder" in done.stderr
    # An earlier major goes only with its latest (whose upgrade code imports it); it was a "chatspec bug" ImportError.
    for extra in ((), ("--formats", "droidlet_chat")):
        done = _vendor_into(tmp_path, "go", "--drop", "droidlet_chat_v1", *extra)
        assert (done.returncode, done.stderr) == (2, "chatspec: --drop droidlet_chat_v1: droidlet_chat_v1 comes with droidlet_chat, which "
                                                     "the folder keeps (its upgrade code may import it)\n  hint: drop droidlet_chat too "
                                                     "(--drop droidlet_chat), or retire 1.x (chatspec retire droidlet_chat 1) and vendor again\n")


@pytest.mark.parametrize(("format_id", "inside"), [("gene_rated", "generated"), ("spe_cs", "specs")])
def test_vendor_refuses_a_go_package_that_would_land_in_the_projects_generated_or_specs(
    tmp_path: Path, format_id: str, inside: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Go module vendored at the project's root (a Go service whose repository holds its specs) has a folder per
    # format's package: gene_rated's package is "generated", and its files went into the project's generated/.
    project = tmp_path / "project"
    (project / "specs" / format_id).mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.chatspec]\n")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Doc",
        "description": "A format.",
        "x-version": "1.0.0",
        "$ref": "#/$defs/Doc",
        "$defs": {"Doc": {"type": "object", "description": "A doc.", "properties": {"a": {"type": "string", "description": "A."}}}},
    }
    (project / "specs" / format_id / "spec.json").write_text(json.dumps(schema))
    for command in (["bump", format_id], ["generate"]):
        done = chatspec_here(monkeypatch, project, *command, cwd=project)
        assert done.returncode == 0, done.stderr
    before = _hashes(project)
    for check in ([], ["--check"]):
        done = chatspec_here(
            monkeypatch, project, "vendor", "--lang", "go", "--module", "example.com/acme/chat", "--out", ".", *check, cwd=project
        )
        assert done.returncode == 2, done.stdout + done.stderr
        first = done.stderr.splitlines()[0]
        assert first.startswith(f"chatspec: {inside}/") and f"is inside this project's {inside}/" in first, first
    assert _hashes(project) == before, "nothing was written or removed"
    # Elsewhere the same format vendors as before.
    done = chatspec_here(
        monkeypatch, project, "vendor", "--lang", "go", "--module", "example.com/acme/chat", "--out", "../app", cwd=project
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "app" / inside / "validate.go").is_file()


def _project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    return tmp_path


def _bump_chat_event(project: Path, change: Callable[[dict], None], *to: str) -> None:  # type: ignore[type-arg]
    path = project / "specs" / "chat_event" / "spec.json"
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document, indent=2))
    done = run_chatspec(project, "bump", "chat_event", *to)
    assert done.returncode == 0, done.stderr


def test_a_format_another_run_vendored_stays_at_its_version_until_it_is_vendored_again(tmp_path: Path) -> None:
    project, out = _project(tmp_path / "p"), tmp_path / "chat"
    assert _vendor_into(out, "python", "--formats", "chat_event", root=project).returncode == 0
    first = (out / "acme_chat" / "chat_event.py").read_text()
    _bump_chat_event(project, lambda d: d["$defs"]["Message"]["properties"].__setitem__("weight", {"type": "integer"}))
    done = _vendor_into(out, "python", "--formats", "structured_conversation", root=project)
    assert done.returncode == 0 and "it holds chat_event 1.0.0, structured_conversation 1.0.0" in done.stdout, done.stdout + done.stderr
    # Made from the 1.0.0 snapshot, which its header names; nothing else changed.
    kept = (out / "acme_chat" / "chat_event.py").read_text()
    assert kept.replace("specs/chat_event/history/1.0.0/spec.json", "specs/chat_event/spec.json") == first
    assert "| `chat_event` | 1.0.0 | `specs/chat_event/history/1.0.0/spec.json` |" in (out / "acme_chat" / "CHATSPEC.md").read_text()
    done = _vendor_into(out, "python", "--formats", "chat_event", root=project)
    assert done.returncode == 0 and "it holds chat_event 1.1.0, structured_conversation 1.0.0" in done.stdout, done.stdout
    assert 'VERSION: Final = "1.1.0"' in (out / "acme_chat" / "chat_event.py").read_text()


def test_a_held_format_that_moved_to_a_new_major_is_refused_until_vendored_again(tmp_path: Path) -> None:
    project, out = _project(tmp_path / "p"), tmp_path / "chat"
    assert _vendor_into(out, "python", "--formats", "chat_event", root=project).returncode == 0
    _bump_chat_event(project, lambda d: d["$defs"]["ChatEvent"]["properties"].pop("output_format"), "--to", "major")
    done = _vendor_into(out, "python", "--formats", "structured_conversation", root=project)
    assert (done.returncode, done.stderr) == (2, "chatspec: specs/chat_event/spec.json: at /x-version: the vendored folder holds chat_event "
                                                 "1.0.0, but chat_event is at 2.0.0 now: 1.x is kept as chat_event_v1\n"
                                                 "  hint: vendor it again to move to 2.0.0: add --formats chat_event, or drop it: --drop chat_event\n")


def test_a_retired_major_the_folder_holds_is_dropped_with_a_note(tmp_path: Path) -> None:
    project, out = _project(tmp_path / "p"), tmp_path / "chat"
    shutil.rmtree(project / "specs" / "droidlet_chat" / "behaviour")  # its upgrade code imports droidlet_chat_v1
    assert _vendor_into(out, "python", "--formats", "droidlet_chat", root=project).returncode == 0
    assert (out / "acme_chat" / "droidlet_chat_v1.py").is_file()
    assert run_chatspec(project, "retire", "droidlet_chat", "1").returncode == 0
    done = _vendor_into(out, "python", "--formats", "chat_event", root=project)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("chatspec: note: droidlet_chat_v1 (1.0.0) is retired (specs/droidlet_chat/history/lock.json): "
                           "its files are removed\n")
    assert not (out / "acme_chat" / "droidlet_chat_v1.py").exists() and (out / "acme_chat" / "droidlet_chat.py").is_file()


def test_a_folder_vendored_before_the_manifest_recorded_its_formats_keeps_them(tmp_path: Path) -> None:
    # Its manifest lists the files only; what it holds is read from its CHATSPEC.md.
    assert _vendor_into(tmp_path, "go", "--formats", "chat_event").returncode == 0
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    del manifest["vendored"]
    (tmp_path / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    done = _vendor_into(tmp_path, "go", "--formats", "structured_conversation")
    assert done.returncode == 0 and "it holds chat_event 1.0.0, structured_conversation 1.0.0" in done.stdout, done.stdout
    assert (tmp_path / "chatevent" / "chatevent.go").is_file()



@pytest.mark.parametrize("vendored", [
    "go", {"lang": "go", "name": "example.com/acme/chat"}, {"lang": "go", "name": "example.com/acme/chat", "formats": ["chat_event"]},
    {"lang": "go", "name": "example.com/acme/chat", "formats": {"../../etc": {"version": "1.0.0"}}},
    {"lang": "go", "name": "example.com/acme/chat", "formats": {"chat_event": {"version": "../1.0.0"}}},
    {"lang": "go", "name": "example.com/acme/chat", "formats": {"chat_event": "1.0.0"}},
])
def test_a_manifest_whose_record_of_formats_is_unreadable_or_names_paths_is_refused_and_nothing_changes(
        tmp_path: Path, vendored: object, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _vendor_into(tmp_path, "go", "--formats", "chat_event").returncode == 0
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["vendored"] = vendored
    (tmp_path / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    before = _hashes(tmp_path)
    done = chatspec_here(monkeypatch, ROOT, "vendor", "--lang", "go", *_NAMES["go"], "--out", str(tmp_path), "--formats", "structured_conversation")
    assert (done.returncode, done.stderr) == (2, f'chatspec: {tmp_path}/{MANIFEST}: records no "vendored" section chatspec can read '
                                                 "(lang, name, formats)\n  hint: restore the manifest from your version control; "
                                                 "chatspec writes it\n")
    assert _hashes(tmp_path) == before

# --- A consumer built from scratch (issue 32 item 3) ---------------------------------------------------------

def test_a_python_project_imports_a_vendored_package_and_mypy_strict_checks_its_use(tmp_path: Path) -> None:
    app = tmp_path / "app"
    done = _chatspec("vendor", "--lang", "python", "--package", "acme_chat", "--out", str(app / "src"), "--formats", "chat_event")
    assert done.returncode == 0, done.stderr
    (app / "src" / "service").mkdir()
    (app / "src" / "service" / "__init__.py").write_text("")
    (app / "src" / "service" / "main.py").write_text(
        "import sys\n\nfrom acme_chat import chat_event\nfrom acme_chat.chat_event import ChatEvent, ValidationError\n\n\n"
        "def role_of(text: str) -> str:\n    event: ChatEvent = chat_event.parse_chat_event_from_json(text)\n    return event.role\n\n\n"
        "if __name__ == \"__main__\":\n    try:\n        print(role_of(sys.stdin.read()))\n"
        "    except ValidationError as error:\n        print([e.path for e in error.errors])\n")
    example = (format_folders()["chat_event"] / "examples" / "valid" / "content_chunk.json").read_text()
    for text, printed in ((example, json.loads(example)["role"] + "\n"), ("{}", "['/session_id', '/role']\n")):
        ran = subprocess.run([sys.executable, "-S", "-m", "service.main"], input=text, capture_output=True, text=True, cwd=app,
                             env={"PYTHONPATH": str(app / "src")})
        assert (ran.returncode, ran.stdout) == (0, printed), ran.stderr
    # The package is typed (py.typed): mypy --strict checks the project's use of it, and finds a misuse.
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "src"]
    checked = subprocess.run(mypy, capture_output=True, text=True, cwd=app)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (app / "src" / "service" / "wrong.py").write_text("from acme_chat.chat_event import ChatEvent\n\n\n"
                                                      "def size(event: ChatEvent) -> int:\n    return event.role\n")
    checked = subprocess.run(mypy, capture_output=True, text=True, cwd=app)
    assert checked.returncode == 1 and 'src/service/wrong.py:5: error: Incompatible return value type (got "str", expected "int")' in checked.stdout

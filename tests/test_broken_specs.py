"""Broken specs: each is one clear error (file, JSON pointer or line:column, hint), and generated/ stays as it was.

tests/broken_specs/<case>/ holds a spec (and examples) with one mistake, and
expected.txt, the exact message the command prints. A case about folder names
holds specs/<folder>/... instead: those folders are added beside the real specs.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, chatspec_here, read_tree, run_chatspec

CORPUS = Path(__file__).resolve().parent / "broken_specs"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").is_file())


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(ROOT / "specs", root / "specs")
    done = run_chatspec(root, "generate")
    assert done.returncode == 0, done.stderr
    return root


def _lock(folder: Path) -> None:
    """Lock the case's spec as its x-version, as `chatspec bump` would: generate checks the lock before it
    renders anything or runs an example, so an unlocked case would be refused as not locked before its mistake."""
    from generator.history import Release, canonical_hash, lock_text

    try:
        document = json.loads((folder / "spec.json").read_text(encoding="utf-8"))
        version, sha256 = document["x-version"], canonical_hash(document)
    except (ValueError, TypeError, KeyError, RecursionError):
        return  # its mistake is found when it is read, before any lock is
    if not isinstance(version, str) or "/" in version:
        return
    (folder / "history" / version).mkdir(parents=True)
    shutil.copy(folder / "spec.json", folder / "history" / version / "spec.json")
    (folder / "history" / "lock.json").write_text(lock_text(folder, [Release(version, sha256, "initial", ())], {}))


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES)
def test_broken_spec_is_one_clear_error_and_changes_nothing(project: Path, case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = {p: p.read_bytes() for p in sorted((project / "generated").rglob("*")) if p.is_file()}
    if (CORPUS / case / "specs").is_dir():
        added = [project / "specs" / p.name for p in sorted((CORPUS / case / "specs").iterdir())]
        for folder in added:
            shutil.copytree(CORPUS / case / "specs" / folder.name, folder)
    else:
        added = [project / "specs" / "broken"]
        shutil.copytree(CORPUS / case, added[0], ignore=shutil.ignore_patterns("expected.txt"))
        _lock(added[0])
    try:
        # In this process (conftest.chatspec_here): 128 cases; the symlink cases below run the command itself.
        done = chatspec_here(monkeypatch, project, "generate")
        assert done.returncode == 2, f"{done.stdout[-500:]}{done.stderr}"
        assert done.stderr == (CORPUS / case / "expected.txt").read_text(encoding="utf-8")
        assert done.stderr.startswith("chatspec: specs/") and "\n  hint: " in done.stderr
        # One error: the message line and its hint; a case named several_* holds several mistakes, all reported.
        errors = done.stderr.count("\nchatspec: ") + 1 if case.startswith("several_") else 1
        assert done.stderr.count("\n") == 2 * errors and done.stderr.count("\n  hint: ") == errors
        assert errors > 1 or not case.startswith("several_"), "a several_* case reports more than one mistake"
    finally:
        for folder in added:
            shutil.rmtree(folder)
    assert {p: p.read_bytes() for p in sorted((project / "generated").rglob("*")) if p.is_file()} == before
    assert read_tree(project / "generated")


# Symlinks are made by the test (a repository should not hold links to outside files):
# (what to link, relative to specs/broken, and whether it is a folder) -> the exact message.
SYMLINKS = {
    "spec_folder": ("", "chatspec: specs/broken: at /: is a symbolic link (to {target}); chatspec reads only real files under specs/\n"),
    "spec_file": ("spec.json", "chatspec: specs/broken/spec.json: at /: is a symbolic link (to {target}); chatspec reads only real files under specs/\n"),
    "examples_folder": ("examples", "chatspec: specs/broken/examples: at /: is a symbolic link (to {target}); chatspec reads only real files under specs/\n"),
    "example_file": ("examples/valid/minimal.json",
                     "chatspec: specs/broken/examples/valid/minimal.json: at /: is a symbolic link (to {target}); chatspec reads only real files under specs/\n"),
    "history_snapshot": ("history/1.0.0/spec.json",
                         "chatspec: specs/broken/history/1.0.0/spec.json: at /: is a symbolic link (to {target}); chatspec reads only real files under specs/\n"),
}


@pytest.mark.parametrize("what", sorted(SYMLINKS))
def test_a_symlink_under_a_spec_folder_is_refused_and_changes_nothing(project: Path, tmp_path: Path, what: str) -> None:
    relative, expected = SYMLINKS[what]
    outside = tmp_path / "outside"
    source = project / "specs" / "chat_event"
    shutil.copytree(source, outside)
    (outside / "examples" / "valid").mkdir(parents=True, exist_ok=True)
    (outside / "examples" / "valid" / "minimal.json").write_text("{}", encoding="utf-8")
    (outside / "history" / "1.0.0").mkdir(parents=True, exist_ok=True)
    target = project / "specs" / "broken"
    before = {p: p.read_bytes() for p in sorted((project / "generated").rglob("*")) if p.is_file()}
    if relative:
        shutil.copytree(outside, target)
        link = target / relative
        shutil.rmtree(link) if link.is_dir() else link.unlink()
        link.symlink_to(outside / relative)
    else:
        target.symlink_to(outside)
    try:
        done = run_chatspec(project, "generate")
        assert done.returncode == 2, done.stderr
        hint = "  hint: replace the link with a copy of the file or folder it points to\n"
        assert done.stderr == expected.format(target=outside / relative if relative else outside).replace("\n", "\n" + hint, 1)
    finally:
        target.unlink() if target.is_symlink() else shutil.rmtree(target)
    assert {p: p.read_bytes() for p in sorted((project / "generated").rglob("*")) if p.is_file()} == before


def test_descriptions_ending_in_quotes_or_backslashes_give_valid_python(tmp_path: Path) -> None:
    from generator.core import generate
    from generator.load import load_spec

    spec = json.loads((CORPUS / "pattern_look_around" / "spec.json").read_text(encoding="utf-8"))
    spec["$defs"]["Doc"]["properties"]["id"]["pattern"] = "^[a-z]+$"
    spec["description"] = 'A format whose description ends in """'
    spec["$defs"]["Doc"]["description"] = 'Ends in a quote"'
    spec["$defs"]["Doc"]["properties"]["user"]["description"] = 'Ends in a backslash and quotes \\"""'
    spec["$defs"]["Kind"]["description"] = '""""'
    folder = tmp_path / "specs" / "quotes"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=("python",))
    module = files["python/chatformats/quotes.py"]
    tree = ast.parse(module)  # it parses: the docstrings closed where they should
    strings = {n.value.rstrip() for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    # (black puts a space between a final quote and the closing quotes)
    assert {'Ends in a quote"', '""""', 'Ends in a backslash and quotes \\"""'} <= strings
    assert ast.get_docstring(tree) is not None and '"""' in ast.get_docstring(tree)


def test_an_unforeseen_error_prints_one_line_naming_the_spec_and_exits_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from generator import cli
    from generator.lower import Lowering

    def broken(self: Lowering, *args: object) -> None:
        raise RuntimeError("something nobody foresaw\nwith a second line")

    monkeypatch.setattr(Lowering, "lower_string", broken)
    monkeypatch.setenv("CHATSPEC_CACHE", "off")  # a cached run would not lower anything
    assert cli.main(["--root", str(ROOT), "check"]) == 2
    err = capsys.readouterr().err
    assert err == ("chatspec: specs/chat_event/spec.json: internal error, please report it with this spec "
                   "(RuntimeError: something nobody foresaw with a second line)\n")


def test_non_ascii_names_and_text_under_a_non_utf8_locale_are_escaped_never_a_traceback(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    env = {**os.environ, "LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii", "PYTHONUTF8": "0"}

    def run(command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "generator", "--root", str(tmp_path), command],
                              capture_output=True, text=True, cwd=ROOT, env=env, encoding="ascii")

    assert run("generate").returncode == 0
    # A stale generated file with non-ASCII text: the diff goes to an ASCII stdout.
    with (tmp_path / "generated" / "docs" / "index.md").open("a", encoding="utf-8") as f:
        f.write("caf\u00e9\n")
    done = run("check")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "+caf" not in done.stdout and "-caf\\xe9" in done.stdout
    # A folder named with non-ASCII letters: one error, the name escaped.
    shutil.copytree(CORPUS / "pattern_look_around", tmp_path / "specs" / "caf\u00e9")
    done = run("generate")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("chatspec: specs/caf\\") and "is not a format id" in done.stderr
    assert done.stderr.count("\n") == 2


@pytest.mark.parametrize("command", ["bump", "diff"])
def test_a_format_id_on_the_command_line_cannot_reach_outside_specs(project: Path, command: str) -> None:
    done = run_chatspec(project, command, "../generated")
    assert done.returncode == 2
    assert done.stderr.startswith("chatspec: specs/../generated/spec.json: the folder name '../generated' is not a format id")


def test_a_field_named_like_a_behaviour_method_is_refused_not_compiled_to_a_shadowed_method(tmp_path: Path) -> None:
    from generator import cache
    from generator.core import generate
    from generator.errors import SpecError
    from generator.load import load_spec

    folder = tmp_path / "specs" / "chat_modality"
    shutil.copytree(ROOT / "specs" / "chat_modality", folder, ignore=shutil.ignore_patterns("history"))
    spec = json.loads((folder / "spec.json").read_text(encoding="utf-8"))
    spec["$defs"]["ChatState"]["properties"]["apply_input"] = {"type": "string", "description": "Shadows a behaviour method."}
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    # Without a cache, then twice with one: the check's finding is remembered by the module's text, and refused again.
    for memo in (None, tmp_path / "memo", tmp_path / "memo"):
        with cache.active(memo), pytest.raises(SpecError) as caught:
            generate([load_spec(folder, tmp_path)], targets=("python",))
        assert caught.value.pointer == "/$defs/ChatState"
        assert "would define 'ChatState.apply_input' twice (a field, and a method)" in caught.value.problem
    assert list((tmp_path / "memo" / "python-clashes").rglob("*.json"))


@pytest.mark.parametrize("format_id", ["internal", "testdata", "index", "runtime"])
def test_a_format_id_that_names_a_file_or_folder_the_trees_hold_is_refused(format_id: str) -> None:
    # "runtime" would be src/runtime.ts, the TypeScript package's runtime, overwritten by the format's module.
    from generator.naming import format_id_problem

    problem = format_id_problem(format_id)
    assert problem is not None and "collides with" in problem[0], problem

"""chatspec vendor --lang typescript, as a web UI's repository uses it: the npm package under its own name."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, format_folders, run_chatspec
from typescript_driver import compile_package, node_available


def _vendor(out: Path, *extra: str, name: str = "@acme/chat") -> subprocess.CompletedProcess[str]:
    return run_chatspec(ROOT, "vendor", "--lang", "typescript", "--package", name, "--out", str(out), *extra)


def test_typescript_vendored_under_another_package_name_names_chatformats_nowhere(tmp_path: Path) -> None:
    done = _vendor(tmp_path, "--formats", "droidlet_chat,structured_conversation")
    assert done.returncode == 0, done.stderr
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
        ".chatspec-manifest.json", "CHATSPEC.md", "package.json", "src/droidlet_chat.ts", "src/droidlet_chat_v1.ts",
        "src/index.ts", "src/runtime.ts", "src/structured_conversation.ts", "tsconfig.json"]
    package = json.loads((tmp_path / "package.json").read_text())
    assert package["name"] == "@acme/chat" and package["type"] == "module" and "dependencies" not in package
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and "chatformats" in p.read_text()]
    stub = (tmp_path / "CHATSPEC.md").read_text()
    assert "| `droidlet_chat` | 2.0.0 |" in stub and "chatspec vendor --lang typescript --package @acme/chat" in stub
    # The same command again changes nothing, and --check agrees; an edit is stale.
    again = _vendor(tmp_path, "--formats", "droidlet_chat,structured_conversation")
    assert "(0 written, 0 removed)" in again.stdout
    assert _vendor(tmp_path, "--formats", "droidlet_chat,structured_conversation", "--check").returncode == 0
    (tmp_path / "src" / "runtime.ts").write_text("// edited\n")
    stale = _vendor(tmp_path, "--formats", "droidlet_chat,structured_conversation", "--check")
    assert stale.returncode == 1 and "is stale" in stale.stderr


@pytest.mark.skipif(not node_available(), reason="node is not installed: the TypeScript checks need it")
def test_a_vendored_package_compiles_and_parses_an_example_from_the_users_code(tmp_path: Path) -> None:
    out = tmp_path / "web" / "chat"
    done = _vendor(out, "--formats", "structured_conversation")
    assert done.returncode == 0, done.stderr
    dist = compile_package(out)
    example = (format_folders()["structured_conversation"] / "examples" / "valid" / "basic_two_person.json").read_text()
    code = ("import { structured_conversation as sc, ValidationError } from './web/chat/dist/index.js';\n"
            "const doc = sc.parseStructuredConversationFromJSON(process.argv[2]);\n"
            "try { sc.parseConversationDocument({}); } catch (e) { console.log(e instanceof ValidationError, e.errors.length > 0); }\n"
            "console.log(doc.id, sc.VERSION);\n")
    (tmp_path / "app.mjs").write_text(code)
    ran = subprocess.run(["node", "app.mjs", example], capture_output=True, text=True, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["true", "true", "chat_001", "1.0.0"]
    assert (dist / "index.d.ts").is_file()


def test_vendoring_typescript_into_a_users_folder_keeps_the_users_files_and_refuses_their_package_json(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.ts").write_text("export const mine = 1;\n")
    (tmp_path / "README.md").write_text("# ours\n")
    for _ in range(2):
        done = _vendor(tmp_path, "--formats", "chat_event")
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "src" / "app.ts").read_text() == "export const mine = 1;\n"
    assert (tmp_path / "README.md").read_text() == "# ours\n"
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "package.json").write_text('{"name": "ours"}\n')
    refused = _vendor(theirs, "--formats", "chat_event")
    assert refused.returncode != 0 and "package.json" in refused.stderr
    assert (theirs / "package.json").read_text() == '{"name": "ours"}\n'
    assert not (theirs / "src").exists()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Acme-Chat", "is not an npm package name"),
        ("@acme/", "is not an npm package name"),
        ("@acme/chat/extra", "is not an npm package name"),
        ("a b", "is not an npm package name"),
        ("../escaped", "is not an npm package name"),
        ("_private", "starts with . or _"),
        ("@acme/.hidden", "starts with . or _"),
        ("x" * 215, "longer than the 214 characters"),
    ],
)
def test_typescript_package_names_are_checked_before_anything_is_written(tmp_path: Path, name: str, expected: str) -> None:
    done = _vendor(tmp_path / "out", name=name)
    assert done.returncode == 2
    assert done.stderr.startswith(f"chatspec: --package {name!r}: "), done.stderr
    assert expected in done.stderr and "\n  hint: " in done.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "escaped").exists()

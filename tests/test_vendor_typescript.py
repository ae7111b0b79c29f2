"""chatspec vendor --lang typescript, as a web UI's repository uses it: the npm package under its own name."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, format_folders, run_chatspec
from typescript_driver import STRICT_OPTIONS, TSC, node_available


def _vendor(out: Path, *extra: str, name: str = "@acme/chat") -> subprocess.CompletedProcess[str]:
    return run_chatspec(ROOT, "vendor", "--lang", "typescript", "--package", name, "--out", str(out), *extra)


def test_typescript_vendored_under_another_package_name_names_chatformats_nowhere(tmp_path: Path) -> None:
    done = _vendor(tmp_path, "--formats", "droidlet_chat,structured_conversation")
    assert done.returncode == 0, done.stderr
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
        ".chatspec-manifest.json", "CHATSPEC.md",
        *(f"dist/{m}.{ext}" for m in ("droidlet_chat", "droidlet_chat_v1", "index", "runtime", "structured_conversation")
          for ext in ("d.ts", "js")),
        "package.json", "src/droidlet_chat.ts", "src/droidlet_chat_v1.ts",
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
    for shipped in ("src/runtime.ts", "dist/runtime.js"):
        original = (tmp_path / shipped).read_text()
        (tmp_path / shipped).write_text("// edited\n")
        stale = _vendor(tmp_path, "--formats", "droidlet_chat,structured_conversation", "--check")
        assert stale.returncode == 1 and "is stale" in stale.stderr and f"+++ b/{shipped}" in stale.stdout, stale.stdout
        (tmp_path / shipped).write_text(original)


def _hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


_CONSUMER_NEEDS = pytest.mark.skipif(not node_available() or shutil.which("npm") is None,
                                     reason="node and npm are not installed: the TypeScript consumer checks need them")
_EXAMPLE = format_folders()["structured_conversation"] / "examples" / "valid" / "basic_two_person.json"


def _web_app(tmp_path: Path) -> tuple[Path, Path]:
    """A web app's repository from scratch, as the README lays it out: the package vendored into web/chat and an
    app in web/app that depends on it by `file:`, installed by npm (offline: the package depends on nothing)."""
    vendored, app = tmp_path / "web" / "chat", tmp_path / "web" / "app"
    done = _vendor(vendored, "--formats", "structured_conversation,chat_event")
    assert done.returncode == 0, done.stderr
    app.mkdir()
    dependency = {"@acme/chat": "file:../chat"}
    (app / "package.json").write_text(json.dumps({"name": "app", "private": True, "type": "module", "dependencies": dependency}))
    npm = ["npm", "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]
    done = subprocess.run(npm, cwd=app, capture_output=True, text=True, env={**os.environ, "NO_UPDATE_NOTIFIER": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return vendored, app


@_CONSUMER_NEEDS
def test_a_plain_esm_project_installs_the_vendored_package_by_file_and_imports_it_with_no_build_step(tmp_path: Path) -> None:
    vendored, app = _web_app(tmp_path)
    before = _hashes(vendored)
    # The package root and a format's own module (toDate among its names), as the README shows them.
    (app / "main.js").write_text(
        'import { structured_conversation as sc, ValidationError } from "@acme/chat";\n'
        'import { parseStructuredConversationFromJSON, toDate, VERSION } from "@acme/chat/structured_conversation";\n'
        "const doc = parseStructuredConversationFromJSON(process.argv[2]);\n"
        "try { sc.parseConversationDocument({}); } catch (e) { console.log(e instanceof ValidationError, e.errors[0].path); }\n"
        "console.log(doc.id, VERSION, toDate(doc.conversation.conversation[0].time).toISOString());\n")
    ran = subprocess.run(["node", "main.js", _EXAMPLE.read_text()], capture_output=True, text=True, cwd=app)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["true", "/id", "chat_001", "1.0.0", "2024-01-15T12:00:00.000Z"]
    # Installing and running built nothing in the vendored folder and left nothing behind there.
    assert _hashes(vendored) == before
    assert _vendor(vendored, "--formats", "structured_conversation,chat_event", "--check").returncode == 0


@_CONSUMER_NEEDS
def test_a_bundler_free_tsc_project_type_checks_its_use_of_the_vendored_package_under_every_strict_option(tmp_path: Path) -> None:
    vendored, app = _web_app(tmp_path)
    before = _hashes(vendored)
    options = {"target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "lib": ["ES2022", "DOM"], "types": [],
               **dict.fromkeys(STRICT_OPTIONS, True), "rootDir": "src", "outDir": "out"}
    (app / "tsconfig.json").write_text(json.dumps({"compilerOptions": options, "include": ["src"]}))
    (app / "src").mkdir()
    main = (
        'import { ValidationError } from "@acme/chat";\n'
        'import { type ConversationDocument, parseStructuredConversationFromJSON, toDate } from "@acme/chat/structured_conversation";\n\n'
        "declare const process: { argv: string[] };\n\n"
        "export function firstTime(text: string): Date | undefined {\n"
        "  const doc: ConversationDocument = parseStructuredConversationFromJSON(text);\n"
        "  const first = doc.conversation.conversation[0];\n"
        "  return first === undefined ? undefined : toDate(first.time);\n}\n\n"
        'try { firstTime("{}"); } catch (e) { if (e instanceof ValidationError) console.log(e.errors.map((d) => d.path).join(",")); }\n'
        'console.log(firstTime(process.argv[2] ?? "")?.toISOString());\n')
    (app / "src" / "main.ts").write_text(main)
    # The README's lines: its package.json dependency is the one installed here, its imports compile (re-exported: used).
    section = (ROOT / "README.md").read_text().split("### Using a vendored TypeScript package from a web app", 1)[1].split("\n## ", 1)[0]
    assert "--out web/chat\n" in section and '"dependencies": { "@acme/chat": "file:../chat" }' in section
    imports = re.findall(r"^```ts\n(.*?)^```", section, re.S | re.M)[0]
    names = sorted(n.strip().removeprefix("type ") for group in re.findall(r"\{([^}]*)\}", imports) for n in group.split(","))
    (app / "src" / "readme.ts").write_text(imports + f"\nexport {{ {', '.join(names)} }};\n")
    tsc = ["node", str(TSC), "-p", str(app), "--pretty", "false"]
    done = subprocess.run(tsc, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = subprocess.run(["node", "out/main.js", _EXAMPLE.read_text()], capture_output=True, text=True, cwd=app)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["/id,/conversation", "2024-01-15T12:00:00.000Z"]
    # The package's declarations are what tsc checks the app against: a misuse is found.
    (app / "src" / "wrong.ts").write_text('import type { ConversationMessage } from "@acme/chat/structured_conversation";\n\n'
                                          "export const size = (m: ConversationMessage): number => m.speaker;\n")
    done = subprocess.run(tsc, capture_output=True, text=True)
    assert done.returncode == 2 and "src/wrong.ts(3," in done.stdout and "Type 'string' is not assignable to type 'number'" in done.stdout
    assert _hashes(vendored) == before


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


def test_without_the_pinned_tsc_vendor_names_the_version_it_found_and_the_install_command_and_writes_nothing(tmp_path: Path) -> None:
    # A project with no build/npm-ts, a tsc of another version on CHATSPEC_TSC, none on PATH, no cache to fall back on.
    project, out = tmp_path / "p", tmp_path / "web" / "chat"
    shutil.copytree(ROOT / "specs", project / "specs")
    fake = tmp_path / "tsc"
    fake.write_text('console.log("Version 5.0.4");\n')
    path = ":".join(p for p in os.environ["PATH"].split(":") if not (Path(p) / "tsc").exists())
    done = run_chatspec(project, "vendor", "--lang", "typescript", "--package", "@acme/chat", "--out", str(out),
                        "--formats", "chat_event", CHATSPEC_TSC=str(fake), CHATSPEC_CACHE="off", PATH=path)
    assert (done.returncode, done.stderr) == (2, "chatspec: vendor --lang typescript: compiles the package to JavaScript with TypeScript "
                                                 f"5.6.3, so that an app installs it with no build step: no tsc 5.6.3 was found ({fake} is 5.0.4)\n"
                                                 "  hint: run `npm install --prefix build/npm-ts typescript@5.6.3` in "
                                                 f"{project}, or set CHATSPEC_TSC=<its bin/tsc>\n")
    assert not out.exists()

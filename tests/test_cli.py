"""The chatspec command as a user runs it: generate, check, spec errors, determinism, crash safety."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from generator.core import discover, generate
from generator.write import read_tree, write_tree


def _run(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", "--root", str(root), *args],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, **env})


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A copy of the specs with a freshly generated tree."""
    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    done = _run(tmp_path, "generate")
    assert done.returncode == 0, done.stderr
    return tmp_path


def test_committed_generated_tree_is_fresh() -> None:
    done = _run(ROOT, "check")
    assert done.returncode == 0, f"generated/ is stale; run `make generate` and commit:\n{done.stdout[:4000]}"


def test_generate_then_check_is_clean_and_a_second_generate_writes_nothing(project: Path) -> None:
    assert _run(project, "check").returncode == 0
    before = {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*") if p.is_file()}
    again = _run(project, "generate")
    assert again.returncode == 0 and "wrote" not in again.stdout
    assert {p: p.stat().st_mtime_ns for p in (project / "generated").rglob("*") if p.is_file()} == before


def test_check_prints_a_diff_and_names_stale_and_extra_files(project: Path) -> None:
    module = project / "generated" / "python" / "chatformats" / "chat_event.py"
    module.write_text(module.read_text() + "# edited by hand\n")
    (project / "generated" / "leftover.txt").write_text("x")
    done = _run(project, "check")
    assert done.returncode == 1
    assert "-# edited by hand" in done.stdout
    assert "generated/leftover.txt should not exist" in done.stdout
    assert "make generate" in done.stderr


def test_generate_writes_only_changed_files_and_removes_extra_ones(project: Path) -> None:
    module = project / "generated" / "python" / "chatformats" / "chat_event.py"
    untouched = project / "generated" / "python" / "chatformats" / "droidlet_chat.py"
    stamp = untouched.stat().st_mtime_ns
    module.write_text("stale")
    (project / "generated" / "leftover.txt").write_text("x")
    done = _run(project, "generate")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["wrote generated/python/chatformats/chat_event.py", "removed generated/leftover.txt"]
    assert untouched.stat().st_mtime_ns == stamp
    assert not (project / "generated" / "leftover.txt").exists()


def test_a_spec_change_needs_a_bump_then_shows_in_check(project: Path) -> None:
    spec_path = project / "specs" / "structured_conversation" / "spec.json"
    spec = json.loads(spec_path.read_text())
    spec["$defs"]["ConversationDocument"]["properties"]["id"]["description"] = "A new description."
    spec_path.write_text(json.dumps(spec, indent=2))
    refused = _run(project, "generate")
    assert refused.returncode == 2
    assert "the spec changed since 1.0.0 was locked, but x-version is still 1.0.0" in refused.stderr
    assert refused.stderr.rstrip().endswith(
        "it must move to 1.0.1: run `chatspec bump structured_conversation --to 1.0.1` (or `make bump FORMAT=structured_conversation TO=patch`)")
    bumped = _run(project, "bump", "structured_conversation")
    assert bumped.returncode == 0 and "locked 1.0.1 (patch change)" in bumped.stdout, bumped.stderr
    assert json.loads(spec_path.read_text())["x-version"] == "1.0.1"
    done = _run(project, "check")
    assert done.returncode == 1 and "+    \"\"\"A new description.\"\"\"" in done.stdout
    assert "| 1.0.1 | patch | patch: description changed: ConversationDocument.id |" in done.stdout


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda s: s.replace('"x-version": "1.0.0"', '"x-version": "1.0"'), "at /x-version:"),
        (lambda s: s.replace('"$defs": {', '"$defs": {"Bad": {"type": "object", "patternProperties": {}},', 1),
         "at /$defs/Bad: unsupported keyword 'patternProperties'"),
        (lambda s: s.replace('"in": "0/people"', '"in": "0/people", "unknown": 1'), "at /$defs/StructuredConversation/x-rules/0"),
        (lambda s: s.replace('"field": "user"', '"field": "usr"'), "at /$defs/StructuredConversation/x-rules/0/field: the rule names field 'usr'"),
        (lambda s: s.replace('"$ref": "#/$defs/ConversationMessage"', '"$ref": "#/$defs/Missing"'), "$ref '#/$defs/Missing' does not resolve"),
    ],
    ids=["bad_version", "unsupported_keyword", "rule_extra_key", "rule_missing_field", "dangling_ref"],
)
def test_bad_spec_is_one_clear_error_and_leaves_generated_untouched(project: Path, edit, expected: str) -> None:
    spec_path = project / "specs" / "structured_conversation" / "spec.json"
    spec_path.write_text(edit(json.dumps(json.loads(spec_path.read_text()), indent=2)))
    before = read_tree(project / "generated")
    done = _run(project, "generate")
    assert done.returncode == 2
    assert done.stderr.startswith("chatspec: specs/structured_conversation/spec.json")
    assert expected in done.stderr, done.stderr
    assert "hint:" in done.stderr
    assert read_tree(project / "generated") == before


def test_json_syntax_error_names_line_and_column(project: Path) -> None:
    spec_path = project / "specs" / "droidlet_chat" / "spec.json"
    spec_path.write_text('{\n  "title": "x",\n  "minItems": 1,\n}\n')
    done = _run(project, "generate")
    assert done.returncode == 2
    # The mistake is the trailing comma at line 3, not the "}" where Python's parser gave up.
    assert "specs/droidlet_chat/spec.json:3:16: invalid JSON: a trailing comma" in done.stderr, done.stderr
    assert "at /" not in done.stderr


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        ('{\n  "a": 1\n  "b": 2\n}\n', "2:9", "a ',' is missing after this value (the next one starts at line 3 column 3)"),
        ('{\n  "a": [1, 2,]\n}\n', "2:13", "a trailing comma"),
        ('{\n  "a": {"b": 1}\n', "2:16", "the file ends inside the '{' opened at line 1 column 1"),
        ('{\n  "a" 1\n}\n', "2:6", "a ':' is missing after this key"),
        ('{\n  "a": "x\n}\n', "2:10", "a raw control character"),
        ('{"a": 1} {"b": 2}\n', "1:10", "text after the end of the JSON document"),
    ],
    ids=["missing_comma", "trailing_comma_in_array", "unclosed_object", "missing_colon", "line_break_in_string", "extra_data"],
)
def test_json_syntax_errors_point_at_the_mistake_not_where_the_parser_gave_up(project: Path, text: str, where: str, problem: str) -> None:
    (project / "specs" / "droidlet_chat" / "spec.json").write_text(text)
    done = _run(project, "check")
    assert done.returncode == 2
    first, hint = done.stderr.splitlines()[:2]
    assert first.startswith(f"chatspec: specs/droidlet_chat/spec.json:{where}: invalid JSON: {problem}"), done.stderr
    assert hint.startswith("  hint: ") and "at that line and column" not in hint


def test_interrupted_write_leaves_the_old_tree(project: Path) -> None:
    out = project / "generated"
    before = read_tree(out)
    files = dict(generate(discover(project / "specs", project)))
    files = {p: t + "# changed\n" for p, t in files.items()}
    with pytest.raises(OSError, match="simulated failure"):
        write_tree(out, files, fail_after=3)
    assert read_tree(out) == before
    assert _run(project, "check").returncode == 0
    assert not (project / "generated.new").exists()


def test_output_is_identical_whatever_hash_seed_time_zone_or_locale(tmp_path: Path) -> None:
    trees = []
    for i, env in enumerate([{"PYTHONHASHSEED": "1", "TZ": "UTC", "LC_ALL": "C"},
                             {"PYTHONHASHSEED": "4242", "TZ": "Asia/Kolkata", "LC_ALL": "C.UTF-8"}]):
        root = tmp_path / str(i)
        shutil.copytree(ROOT / "specs", root / "specs")
        assert _run(root, "generate", **env).returncode == 0
        trees.append(read_tree(root / "generated"))
    assert trees[0] == trees[1]
    assert trees[0] == read_tree(ROOT / "generated")


def test_a_crash_between_the_two_renames_is_repaired_by_the_next_run(project: Path) -> None:
    out = project / "generated"
    before = read_tree(out)
    # As if killed after `generated -> generated.old` and before `generated.new -> generated`.
    out.rename(project / "generated.old")
    (project / "generated.new" / "python").mkdir(parents=True)
    (project / "generated.new" / "python" / "partial.py").write_text("half")
    done = _run(project, "generate")
    assert done.returncode == 0, done.stderr
    assert read_tree(out) == before
    assert not (project / "generated.old").exists() and not (project / "generated.new").exists()


def _bare(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """The command without the --root that _run puts first."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "generator", *args], capture_output=True, text=True, cwd=cwd, env=env)


def test_help_names_every_target_and_every_command_and_option_is_explained() -> None:
    import argparse

    from generator.cli import _parser

    top = _bare("--help").stdout
    for word in ("Python", "Go", "JSON Schema", "pydantic", "Markdown docs"):
        assert word in top, word
    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) == {"generate", "check", "bump", "vendor", "diff"}
    for name, sub in commands.choices.items():
        assert sub.description and len(sub.description) > 40, f"{name} has no description"
        for action in sub._actions:
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
    for action in parser._actions:
        assert action.help, f"chatspec {action.option_strings} has no help"


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    done = _bare("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"chatspec {version('chatspec')}"


def test_root_is_accepted_before_or_after_the_command(tmp_path: Path) -> None:
    before = _bare("--root", str(ROOT), "diff", "chat_event", cwd=tmp_path)
    after = _bare("diff", "chat_event", "--root", str(ROOT), cwd=tmp_path)
    assert before.returncode == after.returncode == 0, after.stderr
    assert before.stdout == after.stdout and "chat_event: 0 change(s) since" in after.stdout


def test_outside_a_project_the_error_points_at_root(tmp_path: Path) -> None:
    for args in (["check"], ["diff", "chat_event"]):
        done = _bare(*args, cwd=tmp_path)
        assert done.returncode == 2 and "--root" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_an_unknown_format_id_gets_a_did_you_mean() -> None:
    done = _bare("diff", "chat_evnt")
    assert done.returncode == 2
    assert "no format 'chat_evnt' (did you mean 'chat_event'?)" in done.stderr and "use one of: " in done.stderr
    done = _bare("diff", "chat_event", "--against", "1.0")
    assert "version 1.0 is not locked (did you mean '1.0.0'?)" in done.stderr


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda d: d["$defs"]["ChatEvent"]["properties"]["session_id"].__setitem__("patern", "x"), "unsupported keyword 'patern' (did you mean 'pattern'?)"),
        (lambda d: d["$defs"]["ChatEvent"]["properties"]["session_id"].__setitem__("format", "datetime"), "(did you mean 'date-time'?)"),
        (lambda d: d["$defs"]["ChatEvent"]["properties"]["session_id"].__setitem__("type", "strin"), "(did you mean 'string'?)"),
    ],
    ids=["keyword", "format", "type"],
)
def test_near_miss_keywords_and_values_get_a_did_you_mean(tmp_path: Path, edit, expected: str) -> None:  # type: ignore[no-untyped-def]
    shutil.copytree(ROOT / "specs" / "chat_event", tmp_path / "specs" / "chat_event")
    path = tmp_path / "specs" / "chat_event" / "spec.json"
    document = json.loads(path.read_text())
    edit(document)
    path.write_text(json.dumps(document, indent=2))
    done = _run(tmp_path, "check")
    assert done.returncode == 2 and expected in done.stderr, done.stderr


def test_every_folder_that_ships_files_is_a_listed_package() -> None:
    # An unlisted folder installs with a setuptools warning per folder (about 500 lines on a first install).
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])

    def packages(folder: Path, name: str) -> set[str]:
        found = {name}
        for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name != "__pycache__"):
            if any(f.is_file() for f in sub.rglob("*") if "__pycache__" not in f.parts):
                found |= packages(sub, f"{name}.{sub.name}")
        return found

    shipped = (packages(ROOT / "generator", "generator") - {"generator.templates"}) | packages(ROOT / "templates", "generator.templates")
    assert listed == shipped
    assert config["package-dir"] == {"generator.templates": "templates"}


def test_every_skip_in_the_suite_says_why() -> None:
    import ast

    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                where, keywords = f"{path.name}:{node.lineno}", {k.arg for k in node.keywords}
                if node.func.attr == "skip":
                    given = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("reason", "msg")), None)
                    assert given is not None and not (isinstance(given, ast.Constant) and not given.value), f"{where}: a skip without a reason"
                if node.func.attr in ("skipif", "importorskip"):
                    assert "reason" in keywords, f"{where}: {node.func.attr} without reason="
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                for decorator in node.decorator_list:  # a bare @pytest.mark.skip gives no reason
                    assert not (isinstance(decorator, ast.Attribute) and decorator.attr == "skip"), f"{path.name}:{decorator.lineno}: a bare skip"

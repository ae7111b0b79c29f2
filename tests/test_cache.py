"""The chatspec cache: it changes how long a run takes, never what it writes."""

from __future__ import annotations

import errno
import hashlib
import json
import re
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, read_tree, run_chatspec
from generator import cache


def _cache(root: Path) -> Path:
    return root.parent / f"{root.name}-cache"  # a cache of the test's own, beside the project


def _run(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # A cache of the test's own, on (unless env turns it off) whatever the caller's environment says.
    return run_chatspec(root, *args, **{"CHATSPEC_CACHE": "", "CHATSPEC_CACHE_DIR": str(_cache(root)), **env})


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(ROOT / "specs", root / "specs")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def _entries(root: Path, kind: str) -> list[Path]:
    return sorted((_cache(root) / kind).rglob("*.json"))


@pytest.fixture(scope="module")
def formatted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache filled by one cold run on the specs, for the tests that need black's and
    datamodel-codegen's results cached but do not test how they get there (the cold runs
    are most of this file's time)."""
    root = tmp_path_factory.mktemp("formatted") / "project"
    shutil.copytree(ROOT / "specs", root / "specs")
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    done = _run(root, "generate")
    assert done.returncode == 0, done.stderr
    return _cache(root)


def _with_formatting_cached(project: Path, formatted: Path) -> Path:
    """Put formatted's black and datamodel-codegen entries (not its run entry: the test's own
    first run makes that) into the project's cache folder, which must not exist yet (made private)."""
    _cache(project).mkdir(mode=0o700)
    for kind in ("black", "datamodel-codegen"):
        assert any((formatted / kind).rglob("*.json")), kind
        shutil.copytree(formatted / kind, _cache(project) / kind)
    return project


@pytest.mark.slow
def test_a_cached_run_writes_the_same_bytes_as_an_uncached_one(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    plain = tmp_path_factory.mktemp("plain")
    shutil.copytree(project / "specs", plain / "specs")
    shutil.copy(project / "pyproject.toml", plain / "pyproject.toml")
    assert _run(plain, "generate", CHATSPEC_CACHE="off").returncode == 0
    assert not _cache(plain).exists()
    first = _run(project, "generate")
    assert first.returncode == 0, first.stderr
    assert _entries(project, "run") and _entries(project, "black") and _entries(project, "datamodel-codegen")
    shutil.rmtree(project / "generated")
    second = _run(project, "generate")  # every file from the cache
    assert second.returncode == 0, second.stderr
    assert read_tree(project / "generated") == read_tree(plain / "generated")
    # The committed tree is what a cached run produces, too.
    assert _run(project, "check").returncode == 0


def test_a_corrupt_or_truncated_entry_is_recomputed_not_trusted(project: Path, formatted: Path) -> None:
    _with_formatting_cached(project, formatted)
    assert _run(project, "generate").returncode == 0
    expected = read_tree(project / "generated")
    (run_entry,) = _entries(project, "run")
    entry = json.loads(run_entry.read_text())
    entry["value"]["python/chatformats/chat_event.py"] = "poisoned\n"
    run_entry.write_text(json.dumps(entry))  # payload no longer matches its hash
    for black_entry in _entries(project, "black")[:3]:
        black_entry.write_text(black_entry.read_text()[:10])  # truncated mid-write
    shutil.rmtree(project / "generated")
    done = _run(project, "generate")
    assert done.returncode == 0, done.stderr
    assert read_tree(project / "generated") == expected


def test_an_edited_spec_or_template_misses_the_run_cache(project: Path, formatted: Path) -> None:
    _with_formatting_cached(project, formatted)
    assert _run(project, "generate").returncode == 0
    spec = project / "specs" / "chat_event" / "spec.json"
    document = json.loads(spec.read_text())
    document["description"] += " Edited."
    spec.write_text(json.dumps(document, indent=2))
    done = _run(project, "check")
    # Not answered from the stale entry: the edit is seen (and refused until bumped).
    assert done.returncode == 2 and "chat_event" in done.stderr
    assert len(_entries(project, "run")) == 1


def test_a_failing_run_is_never_remembered(project: Path) -> None:
    (project / "specs" / "chat_event" / "spec.json").write_text("{ not json")
    for _ in range(2):
        done = _run(project, "generate")
        assert done.returncode == 2 and "specs/chat_event/spec.json" in done.stderr
    assert not _entries(project, "run")


@pytest.mark.slow
def test_concurrent_runs_share_one_cache_safely(project: Path) -> None:
    environ = {**os.environ, "CHATSPEC_CACHE_DIR": str(_cache(project))}
    procs = [subprocess.Popen([sys.executable, "-m", "generator", "--root", str(project), "check"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ) for _ in range(3)]
    outputs = [p.communicate(timeout=300) for p in procs]
    # No generated/ yet: each run reports it stale, none crashes on the other's half-written entries.
    assert [p.returncode for p in procs] == [1, 1, 1], [err for _, err in outputs]
    assert not list(_cache(project).rglob(".*.tmp")), "no temporary entry is left behind"
    assert _run(project, "generate").returncode == 0


def test_a_cache_folder_chatspec_creates_ignores_itself_for_git_and_an_existing_one_is_left_alone(project: Path, formatted: Path) -> None:
    assert _run(project, "generate").returncode == 0
    assert (_cache(project) / ".gitignore").read_text() == "*\n"
    shutil.rmtree(_cache(project))
    _with_formatting_cached(project, formatted)  # an existing folder, e.g. CHATSPEC_CACHE_DIR pointing into a repository
    assert not (_cache(project) / ".gitignore").exists()
    assert _run(project, "generate").returncode == 0
    assert not (_cache(project) / ".gitignore").exists()


def test_by_default_the_cache_lives_outside_the_project(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A cache inside the repository could be committed by anyone and would then be trusted.
    monkeypatch.delenv("CHATSPEC_CACHE_DIR", raising=False)
    monkeypatch.delenv("CHATSPEC_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project.parent / "xdg"))
    assert cache.folder_for(project) == project.parent / "xdg" / "chatspec"
    monkeypatch.setenv("CHATSPEC_CACHE", "off")
    assert cache.folder_for(project) is None


def test_a_new_folder_under_specs_is_seen_not_answered_from_the_cache(project: Path, formatted: Path) -> None:
    _with_formatting_cached(project, formatted)
    assert _run(project, "generate").returncode == 0
    for name in ("new_format", ".scratch", "__pycache__"):
        (project / "specs" / name).mkdir()
        uncached = _run(project, "check", CHATSPEC_CACHE="off")
        cached = _run(project, "check")
        assert (cached.returncode, cached.stderr) == (uncached.returncode, uncached.stderr), name
        (project / "specs" / name).rmdir()


def test_memo_keys_are_length_prefixed() -> None:
    assert cache.digest(["ab", "c"]) != cache.digest(["a", "bc"])


def test_an_edited_runtime_source_misses_the_run_cache(project: Path, tmp_path: Path) -> None:
    # The runtimes are copied into the output as they are, so the run key must read them:
    # a chatspec whose runtime source changed must not be answered from the last run.
    chatspec = tmp_path / "chatspec"
    shutil.copytree(ROOT / "generator", chatspec / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "templates", chatspec / "templates")
    probe = "import sys; from pathlib import Path; from generator.build import run_key; print(run_key(Path(sys.argv[1])))"

    def key() -> str:
        done = subprocess.run([sys.executable, "-c", probe, str(project)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(chatspec)}, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    keys = [key()]
    runtime = chatspec / "generator" / "runtime"
    for source in [runtime / "python" / "_runtime.py", runtime / "go" / "internal" / "rt" / "errors.go", runtime / "go" / "go.mod"]:
        source.write_text(source.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        keys.append(key())
    (runtime / "go" / "internal" / "rt" / "extra.go").write_text("package rt\n", encoding="utf-8")
    keys.append(key())
    assert len(set(keys)) == len(keys), keys


# --- the edit loop: each format's files and example checks remembered; workers ----------------


def _generate_in_process(root: Path, folder: Path | None, workers: bool = False, early: bool = True) -> dict[str, str]:
    from generator.background import Workers
    from generator.core import discover, generate, histories
    from generator.options import load_options

    with cache.active(folder):
        specs = discover(root / "specs", root)
        if not workers:
            return generate(specs, options=load_options(root), history=histories(root / "specs"))
        with Workers(early) as running:
            return generate(specs, options=load_options(root), history=histories(root / "specs"), worker=running)


def _edit_description(root: Path, fmt: str) -> None:
    spec = root / "specs" / fmt / "spec.json"
    document = json.loads(spec.read_text())
    document["description"] += " Edited."
    spec.write_text(json.dumps(document, indent=2))


def _count_renders(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    from generator.targets import REGISTRY

    calls: list[tuple[str, str]] = []
    for target in REGISTRY:
        def counted(fmt, ctx, original=target.render_format, name=target.name):  # type: ignore[no-untyped-def]
            calls.append((name, fmt.id))
            return original(fmt, ctx)
        monkeypatch.setattr(target, "render_format", counted)
    return calls


def test_after_editing_one_spec_only_that_format_is_rendered_again_and_the_files_are_the_uncached_ones(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import examples

    folder = tmp_path / "memo"
    _generate_in_process(project, folder)
    _edit_description(project, "chat_event")
    calls = _count_renders(monkeypatch)
    checked: list[str] = []
    check = examples.check_examples_in_python
    monkeypatch.setattr("generator.targets.python.examples.check_examples_in_python",
                        lambda formats, files, package: (checked.extend(f.id for f in formats), check(formats, files, package)))
    edited = _generate_in_process(project, folder)
    assert sorted({fmt for _, fmt in calls}) == ["chat_event"]
    assert sorted(calls) == sorted((t, "chat_event") for t in {name for name, _ in calls})
    from generator.options import load_options
    from generator.targets import REGISTRY

    enabled = [t.name for t in REGISTRY if t.enabled(load_options(project))]  # the project's, msgspec among them
    assert len(calls) == len(enabled) == 7, calls  # once per target
    # The other formats' examples passed the very same modules before, and the edited one's passed the modules it
    # was made from with its descriptions and version stood in for (generator/standins.py): no example runs.
    assert checked == []
    monkeypatch.undo()
    assert edited == _generate_in_process(project, None)



def test_the_modules_a_worker_made_count_for_the_examples_checks_of_the_main_process(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A project's first run renders the Python modules in a worker; the examples run in the main process, which
    # remembers their verdict by the modules as they run only if it knows the worker made them with stand-ins.
    from generator import examples

    monkeypatch.setattr("generator.standins._MADE", {})  # a new process's (the workers fork from it)
    folder = tmp_path / "memo"
    _generate_in_process(project, folder, workers=True)
    checked: list[str] = []
    check = examples.check_examples_in_python
    monkeypatch.setattr("generator.targets.python.examples.check_examples_in_python",
                        lambda formats, files, package: (checked.extend(f.id for f in formats), check(formats, files, package)))
    _edit_description(project, "chat_event")
    _generate_in_process(project, folder)
    assert checked == []


def test_a_module_reading_another_formats_version_runs_its_examples_again_after_that_ones_bump(
        project: Path, tmp_path: Path) -> None:
    # chat_event's behaviour reads chat_modality's VERSION: an edit of chat_modality's description and its bump
    # leave both modules as they run the same but for that, so chat_event's check must read them as written.
    from generator.errors import SpecError

    behaviour = project / "specs" / "chat_event" / "behaviour" / "python.py"
    behaviour.write_text("from . import chat_modality as _cm\n\n" + behaviour.read_text() + '\n\nif _cm.VERSION == "1.1.1":\n'
                         '    raise RuntimeError("chat_event does not run beside chat_modality " + _cm.VERSION)\n')
    folder = tmp_path / "memo"
    _generate_in_process(project, folder)
    _edit_description(project, "chat_modality")
    assert _run(project, "bump", "chat_modality").returncode == 0
    with pytest.raises(SpecError, match="RuntimeError: chat_event does not run beside chat_modality 1.1.1"):
        _generate_in_process(project, folder)

def _edit_rule(root: Path, fmt: str) -> None:
    spec = root / "specs" / fmt / "spec.json"
    document = json.loads(spec.read_text())
    root_model = document["$defs"][document["$ref"].rpartition("/")[2]]
    root_model["properties"]["chatspec_test_note"] = {"type": "string", "maxLength": 7}
    spec.write_text(json.dumps(document, indent=2))


def test_after_an_edit_of_code_only_that_formats_examples_run_again_in_both_packages(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    from generator import examples

    folder = tmp_path / "memo"
    original = (project / "specs" / "structured_conversation" / "spec.json").read_text()
    _generate_in_process(project, folder)
    checked: list[str] = []
    check = examples.check_examples_in_python
    monkeypatch.setattr("generator.targets.python.examples.check_examples_in_python",
                        lambda formats, files, package: (checked.extend(f.id for f in formats), check(formats, files, package)))
    children: list[str] = []
    run = subprocess.run

    def counted(command, **kwargs):  # type: ignore[no-untyped-def]
        if "-c" in command:  # the msgspec package's check: the formats whose examples it reads
            children.extend(json.loads(kwargs["input"]))
        return run(command, **kwargs)

    monkeypatch.setattr("generator.targets.msgspec.examples.subprocess.run", counted)
    _edit_rule(project, "structured_conversation")
    _generate_in_process(project, folder)
    assert checked == ["structured_conversation"] and children == ["structured_conversation"]
    # An edit of its description: its modules run as the ones just checked, with other texts put back.
    _edit_description(project, "structured_conversation")
    _generate_in_process(project, folder)
    assert checked == ["structured_conversation"] and children == ["structured_conversation"]
    # The edits undone, in a new process (which knows of no module made): the modules come from the render cache,
    # so they are read as written, and their first run remembered them as written too.
    (project / "specs" / "structured_conversation" / "spec.json").write_text(original)
    monkeypatch.setattr("generator.standins._MADE", {})
    _generate_in_process(project, folder)
    assert checked == ["structured_conversation"] and children == ["structured_conversation"]


def test_a_format_key_changes_with_each_input_the_files_are_made_from(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from generator.core import context, discover
    from generator.rendering import format_key
    from generator.lower import lower
    from generator.options import Options
    from generator.targets import target

    specs = discover(project / "specs", project)
    formats = tuple(lower(s) for s in specs)
    ctx = context(specs, formats)
    fmt = next(f for f in formats if f.id == "chat_modality")  # it has behaviour
    docs, python = target("docs"), target("python")
    key = format_key(docs, fmt, ctx)
    assert key == format_key(docs, fmt, context(specs, formats)), "the key is stable"
    changed = {
        "target": format_key(python, fmt, ctx),
        "IR": format_key(docs, dataclasses.replace(fmt, description=fmt.description + " Edited."), ctx),
        "schema": format_key(docs, fmt, dataclasses.replace(ctx, schemas={**ctx.schemas, fmt.id: {**ctx.schemas[fmt.id], "title": "x"}})),
        "plain schema": format_key(docs, fmt, dataclasses.replace(
            ctx, plain_schemas={**ctx.plain_schemas, fmt.id: {**ctx.plain_schemas[fmt.id], "title": "x"}})),
        "options": format_key(docs, fmt, dataclasses.replace(ctx, options=Options(python_package="other"))),
        "history": format_key(docs, fmt, dataclasses.replace(ctx, history={fmt.id: [{"version": "9.9.9", "class": "major", "changes": []}]})),
        "behaviour": format_key(docs, fmt, dataclasses.replace(ctx, behaviours={
            **ctx.behaviours, fmt.id: dataclasses.replace(ctx.behaviours[fmt.id], texts={**ctx.behaviours[fmt.id].texts, "docs": "edited"})})),
        # The docs page's navigation label depends on every format's title.
        "another format's title": format_key(docs, fmt, dataclasses.replace(ctx, formats=tuple(
            dataclasses.replace(f, title=fmt.title) if f.id == "chat_event" else f for f in formats))),
    }
    cache.toolkit.cache_clear()
    monkeypatch.setattr(cache, "tool_versions", lambda *names: ["black==0.0.0"])
    changed["tool versions"] = format_key(docs, fmt, ctx)
    cache.toolkit.cache_clear()
    monkeypatch.undo()
    assert format_key(docs, fmt, ctx) == key
    same = [what for what, other in changed.items() if other == key]
    assert not same, f"the key does not change with: {same}"


def test_chatspecs_own_source_is_part_of_every_format_key(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    before = cache.toolkit(templates)
    (templates / "python" / "init.py.j2").write_text((templates / "python" / "init.py.j2").read_text() + "\n")
    cache.toolkit.cache_clear()
    assert cache.toolkit(templates) != before
    cache.toolkit.cache_clear()


def test_the_examples_check_of_a_format_is_keyed_by_every_module_its_imports_reach() -> None:
    from generator.example_keys import imported_modules

    modules = {"__init__": "from ._runtime import X\nFORMATS = {'a': '1.0.0', 'd': '1.0.0'}", "_runtime": "import re\n", "c": "", "e": "",
               "f": "", "a": "from . import b_v1\nx = 1", "b_v1": "from .c import y\nimport json\n",
               "d": "from . import (\n    e as ee,\n    _runtime,\n)\nimport pkg.f\nfrom other.a import z\n",
               "g": "from . import FORMATS\n", "h": "import pkg\n", "i": "from pkg.c import y\nfrom pkg import f\n"}
    assert imported_modules("a", modules, "pkg") == {"a", "_runtime", "b_v1", "c"}
    assert imported_modules("d", modules, "pkg") == {"d", "_runtime", "e", "f", "__init__"}  # `import pkg.f` binds pkg
    # The __init__'s FORMATS changes with every bump: only a module reading the package's namespace depends on it.
    assert imported_modules("c", modules, "pkg") == {"c", "_runtime"}
    assert imported_modules("g", modules, "pkg") == {"g", "_runtime", "__init__"}
    assert imported_modules("h", modules, "pkg") == {"h", "_runtime", "__init__"}
    assert imported_modules("i", modules, "pkg") == {"i", "_runtime", "c", "f"}


def test_a_remembered_example_check_is_not_trusted_for_a_changed_module(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import core
    from generator.targets.python import examples

    folder = tmp_path / "memo"
    files = _generate_in_process(project, folder)
    specs = core.discover(project / "specs", project)
    formats = [core.lower(s) for s in specs]
    ran: list[str] = []
    monkeypatch.setattr(examples, "check_examples_in_python", lambda fmts, files, package: ran.extend(f.id for f in fmts))
    with cache.active(folder):
        examples.check_python_examples(formats, files, "chatformats")
        assert ran == []
        runtime = "python/chatformats/_runtime.py"
        examples.check_python_examples(formats, {**files, runtime: files[runtime] + "\n# changed\n"}, "chatformats")
    assert ran == [f.id for f in formats]  # every module imports the runtime


def test_the_python_and_pydantic_formats_render_in_worker_processes(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.targets import target

    parent = os.getpid()
    for name in ("python", "pydantic"):
        original = target(name).render_format

        def in_a_worker(fmt, ctx, original=original):  # type: ignore[no-untyped-def]
            files = original(fmt, ctx)
            return {path: f"{text}# rendered in {'this process' if os.getpid() == parent else 'a worker'}" for path, text in files.items()}
        monkeypatch.setattr(target(name), "render_format", in_a_worker)
    files = _generate_in_process(project, None, workers=True)
    marked = {path: text.rpartition("# rendered in ")[2] for path, text in files.items() if "# rendered in " in text}
    assert len(marked) == 10, marked
    for name in ("python", "pydantic"):
        # The main process may take back formats a worker has not started, once it rendered the other targets.
        assert "a worker" in {where for path, where in marked.items() if path.startswith(f"{name}/")}, marked


@pytest.mark.slow
def test_a_later_run_starts_a_worker_only_for_a_slow_format_and_a_description_edit_runs_no_datamodel_codegen(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.background import Workers
    from generator.targets.pydantic import models

    folder = tmp_path / "memo"
    _generate_in_process(project, folder)
    started: list[str] = []
    start = Workers._start
    monkeypatch.setattr(Workers, "_start", lambda self, target, job=None: started.append(target.name) or start(self, target, job))
    runs: list[str] = []
    run = models._datamodel_codegen
    monkeypatch.setattr(models, "_datamodel_codegen", lambda fmt, schema: runs.append(fmt.id) or run(fmt, schema))

    _edit_description(project, "chat_event")  # and a field's, and the version-bearing $comment with a bump
    spec = project / "specs" / "chat_event" / "spec.json"
    document = json.loads(spec.read_text())
    document["$defs"]["Message"]["properties"]["role"]["description"] += " Edited too."
    document["x-version"] = "9.9.9"
    spec.write_text(json.dumps(document, indent=2))
    edited = _generate_in_process(project, folder, workers=True, early=False)
    assert started == [] and runs == [], "the edit's formats render in this process, from datamodel-codegen's remembered run"
    assert any("Edited too." in text for path, text in edited.items() if path.startswith("pydantic/"))
    assert edited == _generate_in_process(project, None)

    document["$defs"]["Message"]["properties"]["mood"] = {"type": "string", "description": "A new field."}
    spec.write_text(json.dumps(document, indent=2))
    added = _generate_in_process(project, folder, workers=True, early=False)
    assert started == ["pydantic"], "a new field runs datamodel-codegen: in a worker; black has the module's last text"
    assert added == _generate_in_process(project, None)


def test_the_main_process_takes_back_only_formats_a_worker_has_not_started_and_leaves_it_the_last(project: Path) -> None:
    from generator.background import Workers
    from generator.core import context, discover
    from generator.lower import lower
    from generator.targets import target

    specs = discover(project / "specs", project)
    formats = tuple(lower(s) for s in specs)
    ctx = context(specs, formats, described=False)
    python, pydantic = target("python"), target("pydantic")
    with Workers() as workers:
        workers.submit(ctx, [(python, f) for f in formats] + [(pydantic, formats[0])])
        taken = []
        while (format_id := workers.take(python)) is not None:
            taken.append(format_id)
        assert workers.take(pydantic) is None  # its only format stays with the worker warmed up for it
        assert taken == [f.id for f in formats][len(formats) - len(taken):][::-1]  # from the end
        assert len(taken) < len(formats)
        started = [f for f in formats if f.id not in taken]
        assert all(workers.result(python, f) is not None for f in started)
        assert all(workers.result(python, f) is None for f in formats if f.id in taken)  # not rendered twice


def test_a_worker_that_dies_or_fails_leaves_its_formats_to_the_main_process(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import background
    from generator.targets import target

    expected = _generate_in_process(project, None)
    monkeypatch.setattr(background, "_serve", lambda *args: os._exit(3))  # dies at once (the worker is forked with this patch)
    assert _generate_in_process(project, None, workers=True) == expected
    monkeypatch.undo()
    parent = os.getpid()
    original = target("pydantic").render_format

    def fails_in_a_worker(fmt, ctx):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            if fmt.id == "chat_event":
                os._exit(4)  # killed mid-run, after sending some formats
            raise RuntimeError("worker failure")
        return original(fmt, ctx)
    monkeypatch.setattr(target("pydantic"), "render_format", fails_in_a_worker)
    assert _generate_in_process(project, None, workers=True) == expected


def test_a_spec_error_is_the_same_with_workers_and_nothing_is_remembered_for_it(project: Path, tmp_path: Path) -> None:
    from generator.errors import SpecError

    spec = project / "specs" / "chat_event" / "spec.json"
    document = json.loads(spec.read_text())
    document["$defs"]["Bogus"] = {"type": "object", "properties": {"x": {"type": "string", "patern": "a"}}}
    spec.write_text(json.dumps(document))
    errors = []
    for folder, workers in ((None, False), (tmp_path / "memo", True), (tmp_path / "memo", True)):
        with pytest.raises(SpecError) as raised:
            _generate_in_process(project, folder, workers=workers)
        errors.append(str(raised.value))
    assert errors[0] == errors[1] == errors[2]


def test_the_python_package_init_is_rendered_black_clean_so_it_needs_no_black() -> None:
    from generator import pyformat
    from generator.core import discover
    from generator.lower import lower
    from generator.targets.python.module import render_shared

    formats = [lower(s) for s in discover(ROOT / "specs", ROOT)]
    init = render_shared(formats, "chatformats")["python/chatformats/__init__.py"]
    assert pyformat._black(init) == init
    assert init == (ROOT / "generated" / "python" / "chatformats" / "__init__.py").read_text()


def test_a_context_a_worker_cannot_be_sent_leaves_the_formats_to_the_main_process(project: Path) -> None:
    import dataclasses

    from generator.background import Workers
    from generator.core import context, discover
    from generator.lower import lower
    from generator.targets import target

    specs = discover(project / "specs", project)
    formats = tuple(lower(s) for s in specs)
    ctx = dataclasses.replace(context(specs, formats, described=False), history={"x": [{"unpicklable": lambda: None}]})
    pydantic = target("pydantic")
    with Workers() as workers:
        workers.submit(ctx, [(pydantic, formats[0])])
        assert workers.result(pydantic, formats[0]) is None  # not a hang: the caller renders it
        assert workers.result(target("python"), formats[0]) is None  # never handed over


def test_where_no_worker_can_start_everything_renders_in_the_main_process(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing.process

    expected = _generate_in_process(project, None)
    # A daemonic process may not start processes (e.g. chatspec called from a multiprocessing pool's worker).
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", lambda self: (_ for _ in ()).throw(AssertionError("daemonic")))
    assert _generate_in_process(project, None, workers=True) == expected


# --- black on the statements that changed only --------------------------------------------------


def _raw_python_modules(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The Python target's modules as rendered, before black."""
    from generator.core import context, discover
    from generator.lower import lower
    from generator.targets.python import module

    raws: dict[str, str] = {}
    monkeypatch.setattr(module, "format_python", lambda code, slot=None: raws.setdefault(str(slot), code))
    specs = discover(ROOT / "specs", ROOT)
    formats = tuple(lower(s) for s in specs)
    ctx = context(specs, formats, described=False)
    for fmt in formats[:3]:
        module.PythonModule(fmt, ctx.names["python"][fmt.id], ctx.behaviours.get(fmt.id)).module()
    monkeypatch.undo()
    return raws


def test_formatting_only_the_changed_statements_gives_blacks_output_for_the_whole_file(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from generator import pyformat

    rnd = random.Random(18)
    used = 0
    for slot, raw in _raw_python_modules(monkeypatch).items():
        formatted = pyformat._black(raw)
        lines = raw.split("\n")
        edits = [raw.replace("(format ", "(format, edited, ", 1), re.sub(r'VERSION: Final = "', 'VERSION: Final = "1', raw, count=1)]
        for _ in range(3):  # a longer string somewhere: a docstring, a message, a pattern
            i = rnd.choice([i for i, line in enumerate(lines) if '"' in line])
            j = lines[i].index('"') + 1
            edits.append("\n".join([*lines[:i], lines[i][:j] + "word " * rnd.randint(1, 30) + lines[i][j:], *lines[i + 1:]]))
        for edited in edits:
            try:
                compile(edited, slot, "exec")
            except SyntaxError:
                continue
            quick = pyformat._changed_statements_only(raw, formatted, edited)
            if quick is not None:
                used += 1
                whole = pyformat._black(edited)
                assert quick[0] == whole, slot
                # The statements it hands on (for the next edit, which then parses only its own text) are the real ones.
                assert quick[1:] == (pyformat._spans(edited), pyformat._spans(whole)), slot
                remembered = [pyformat._spans(raw), pyformat._spans(formatted)]
                assert pyformat._changed_statements_only(raw, formatted, edited, remembered) == quick, slot
    assert used >= 6, "the edits are formatted statement by statement"


def test_statements_whose_kind_or_surroundings_changed_are_formatted_with_the_whole_file() -> None:
    from generator import pyformat

    code = '"""Doc."""\n\nimport re\n\nX = 1\n\n\ndef f():\n    return 1\n'
    formatted = pyformat._black(code)
    refused = {
        "a statement's kind": code.replace("X = 1", "import os"),
        "the lines between statements": code.replace("X = 1\n", "X = 1\n# note\n"),
        "a statement more": code + "Y = 2\n",
        "fmt: comments": code.replace("X = 1", "X = 1  # fmt: skip"),
        "two statements on one line": code.replace("X = 1", "X = 1; Y = 2"),
        "a bare string after the docstring": code.replace("X = 1", "X = 1\n'''About X.'''").replace("'''About X.'''", "'''About X!'''"),
    }
    for what, edited in refused.items():
        assert pyformat._changed_statements_only(code, formatted, edited) is None, what
    with_note = '"""Doc."""\n\nX = 1\n"""About X."""\n'
    assert pyformat._changed_statements_only(with_note, pyformat._black(with_note), with_note.replace("About", "Of")) is None
    quick = pyformat._changed_statements_only(code, formatted, code.replace("X = 1", "X   =   2"))
    assert quick is not None and quick[0] == pyformat._black(code.replace("X = 1", "X = 2"))


# A module black reformats, of six top-level statements: a small edit formats one of them.
_SIX_FUNCTIONS = '"""Doc."""\n\n' + "".join(f"def f{i}(a,b):\n    return (a,\n b)\n\n\n" for i in range(6))


def test_a_slot_remembers_the_last_text_so_the_next_small_edit_formats_one_statement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import pyformat

    code = _SIX_FUNCTIONS
    formatted: list[str] = []
    black = pyformat._black
    monkeypatch.setattr(pyformat, "_black", lambda text: formatted.append(text) or black(text))
    with cache.active(tmp_path / "memo"):
        first = pyformat.format_python(code, slot="python/x.py")
        edited = pyformat.format_python(code.replace("Doc.", "Doc, edited."), slot="python/x.py")
    assert formatted == [code, '"""Doc, edited."""\n']
    assert edited == black(code.replace("Doc.", "Doc, edited.")) and first == black(code)


def test_a_slot_given_the_text_it_holds_again_is_not_parsed_or_written_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # After an edit of descriptions the Python module's stood-in text is the last run's: finding its statements
    # again would cost two parses of the file for nothing.
    from generator import pyformat

    code = _SIX_FUNCTIONS
    parsed: list[str] = []
    spans = pyformat._spans
    monkeypatch.setattr(pyformat, "_spans", lambda text: parsed.append(text) or spans(text))
    with cache.active(tmp_path / "memo"):
        first = pyformat.format_python(code, slot="python/x.py")
        assert len(parsed) == 2  # the text's statements and black's output's, kept with the slot
        written = cache.load("black-slot", pyformat._slot_key("python/x.py"))
        assert pyformat.format_python(code, slot="python/x.py") == first
        assert len(parsed) == 2 and cache.load("black-slot", pyformat._slot_key("python/x.py")) == written
        edited = pyformat.format_python(code.replace("Doc.", "Doc, edited."), slot="python/x.py")
    assert edited == pyformat._black(code.replace("Doc.", "Doc, edited."))


def test_workers_start_only_while_the_cores_are_not_already_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import build

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    for load, idle in ((0.4, True), (1.0, True), (2.2, True), (2.5, False), (3.0, False)):
        monkeypatch.setattr(os, "getloadavg", lambda load=load: (load, load, load))
        assert build.workers_pay() is idle, load
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert build.workers_pay() is False, "one core: nothing to overlap with"
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (_ for _ in ()).throw(OSError("no load average here")))
    assert build.workers_pay() is False


def test_trim_removes_the_least_recently_used_entries_and_nothing_chatspec_did_not_write(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    with cache.active(folder):
        for n in range(10):
            cache.store("black", cache.digest([str(n)]), "x" * 1000)
    paths = [cache._path(folder, "black", cache.digest([str(n)])) for n in range(10)]
    for age, path in enumerate(reversed(paths)):  # entry 0 the oldest
        os.utime(path, (1_000_000 - age * 10, 1_000_000 - age * 10))
    assert cache.load("black", cache.digest(["0"]), folder) == "x" * 1000  # read: now the newest
    compiled = folder / "jinja" / ("0" * 16) / f"__jinja2_{'a' * 40}.cache"
    compiled.parent.mkdir(parents=True)
    compiled.write_bytes(b"y" * 1000)
    os.utime(compiled, (1, 1))
    entry_name = paths[1].relative_to(folder / "black")
    theirs = [folder / "notes.txt", folder / "black" / "ab" / "mine.json", folder / "black" / "README",
              folder / "Notes" / entry_name,  # named as an entry, in a folder no kind of chatspec's is named
              folder / "black" / compiled.relative_to(folder / "jinja")]  # a compiled template's name outside jinja/
    for path in theirs:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("z" * 5000, encoding="utf-8")
        os.utime(path, (1, 1))
    size = sum(p.stat().st_size for p in [*paths, compiled])
    assert cache.trim(folder, limit=size + 1) == 0  # within the limit: nothing goes
    removed = cache.trim(folder, limit=size - 1)
    assert removed > 0 and size - removed <= (size - 1) * 3 // 4
    left = {p for p in [*paths, compiled] if p.exists()}
    assert not compiled.exists()  # the oldest of all
    assert paths[0] in left  # old, but read just now
    gone = [p for p in paths[1:] if p not in left]
    assert gone == paths[1:1 + len(gone)], "the oldest went first"
    assert all(p.exists() for p in theirs), "only chatspec's own entries are ever removed"


def test_trim_never_walks_a_symlink_in_the_cache_into_a_folder_of_the_users(tmp_path: Path) -> None:
    """A link left in a private cache (by a tool of the user's, by hand), named as a folder of entries,
    is never followed: files named like entries in the folder it points at are the user's."""
    folder = tmp_path / "cache"
    with cache.active(folder):
        for n in range(4):
            cache.store("black", cache.digest([str(n)]), "x" * 1000)
    outside = tmp_path / "users"
    key = cache.digest(["the user's"])
    theirs = [outside / f"{key[:2]}{'0' * 62}.json", outside / f"__jinja2_{'a' * 40}.cache", outside / f".{key[:2]}{'1' * 62}.json.a1b2c3.tmp"]
    outside.mkdir()
    for path in theirs:
        path.write_text("z" * 5000, encoding="utf-8")
        os.utime(path, (1, 1))  # older than any entry, and than a killed run's temporary file
    (folder / "black" / key[:2]).symlink_to(outside, target_is_directory=True)
    (folder / "jinja").mkdir()
    (folder / "jinja" / ("0" * 16)).symlink_to(outside, target_is_directory=True)
    assert cache.trim(folder, limit=1) > 0  # past the limit: chatspec's own entries go
    assert [p.name for p in theirs if not p.exists()] == [], "a file behind a link is never removed"
    assert (folder / "black" / key[:2]).is_symlink() and (folder / "jinja" / ("0" * 16)).is_symlink()


def test_trim_removes_the_temporary_files_of_killed_runs_once_they_are_an_hour_old(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    key = cache.digest(["x"])
    old, new = (folder / "render" / key[:2] / f".{key}.json.{suffix}.tmp" for suffix in ("a1b2c3", "d4e5f6"))
    old.parent.mkdir(parents=True)
    for path in (old, new):
        path.write_text("{", encoding="utf-8")
    os.utime(old, (1, 1))
    assert cache.trim(folder, limit=10**9) == 0
    assert not old.exists() and new.exists()  # new may be a run's entry being written


def test_a_temporary_file_exactly_an_hour_old_is_kept_and_one_a_moment_older_is_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The edge of "older than any run that could still be writing it", on a clock held still.
    now = 2_000_000_000
    monkeypatch.setattr(cache.time, "time", lambda: float(now))
    key = cache.digest(["x"])
    kept, removed = (tmp_path / "render" / key[:2] / f".{key}.json.{suffix}.tmp" for suffix in ("a1b2c3", "d4e5f6"))
    kept.parent.mkdir(parents=True)
    for path, age in ((kept, 3600), (removed, 3601)):
        path.write_text("{", encoding="utf-8")
        os.utime(path, (now - age, now - age))
    assert cache.trim(tmp_path, limit=10**9) == 0
    assert kept.exists() and not removed.exists()


def test_a_compiled_template_that_is_read_is_touched_so_trim_removes_it_last(tmp_path: Path) -> None:
    import jinja2

    from generator.render import _bytecode_cache

    compiled = _bytecode_cache(tmp_path)
    jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 1 }}"}), bytecode_cache=compiled).get_template("t")
    [stored] = (tmp_path / "jinja").rglob("*.cache")
    os.utime(stored, (1, 1))
    jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 1 }}"}), bytecode_cache=compiled).get_template("t")
    assert stored.stat().st_mtime > 1


def test_every_twentieth_run_that_stores_trims_the_cache_to_its_limit(project: Path, formatted: Path) -> None:
    folder = _cache(_with_formatting_cached(project, formatted))
    done = _run(project, "generate")
    assert done.returncode == 0, done.stderr
    full = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    (folder / ".runs").write_text(str(cache.TRIM_EVERY - 2), encoding="ascii")
    spec = project / "specs" / "chat_event" / "spec.json"
    limit_mb = max(1, full // 2**20 // 2)
    for n in range(3):  # the 19th run, the 20th, and one that reads the trimmed cache
        document = json.loads(spec.read_text(encoding="utf-8"))
        document["description"] += f" Edit {n}."
        spec.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        assert _run(project, "bump", "chat_event").returncode == 0
        done = _run(project, "generate", CHATSPEC_CACHE_MAX_MB=str(limit_mb))
        assert done.returncode == 0, done.stderr
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        if n == 0:
            assert size > full, "the 19th run does not trim"
        if n == 1:
            assert size <= limit_mb * 2**20 * 3 // 4 + 4096, (size, limit_mb)
            assert (folder / ".runs").read_text(encoding="ascii") == "0"
    # A trimmed cache changes how long a run takes, never what it writes.
    uncached = _run(project, "check", CHATSPEC_CACHE="off")
    assert uncached.returncode == 0, uncached.stdout + uncached.stderr


@pytest.mark.parametrize(("given", "megabytes"), [("", 256), ("10", 10), ("0", 256), ("-5", 256), ("1GB", 256), ("²", 256), (" 10", 256)])
def test_the_cache_limit_is_a_whole_number_of_megabytes_and_anything_else_is_the_default(
    given: str, megabytes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHATSPEC_CACHE_MAX_MB", given)
    assert cache.limit_bytes() == megabytes * 2**20


# --- only a cache: a folder someone else can write is not read; one that cannot be written is not needed ---

OTHER_USER = 54321  # a uid that is not the test's (tests run as root here: os.chown can give files to anyone)


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("chatspec: warning:")]


def _make_hostile(folder: Path, how: str) -> None:
    """Make the cache folder, or the entries in it, something another user could have written."""
    if how == "folder writable by others":
        os.chmod(folder, 0o777)
    elif how == "folder of another user":
        os.chown(folder, OTHER_USER, OTHER_USER)
    else:
        for path in folder.rglob("*"):
            if path.is_file() and path.name != ".runs":
                if how == "entries of another user":
                    os.chown(path, OTHER_USER, OTHER_USER)
                else:  # entries writable by others
                    os.chmod(path, 0o666)


HOSTILE = ["folder writable by others", "folder of another user", "entries of another user", "entries writable by others"]


def _uncached_tree(formatted: Path) -> dict[str, str]:
    # formatted's project ran once with an empty cache: what an uncached run writes.
    return read_tree(formatted.parent / "project" / "generated")


@pytest.mark.slow
@pytest.mark.parametrize("how", HOSTILE)
def test_compiled_templates_planted_where_others_could_write_never_run(project: Path, formatted: Path, tmp_path: Path, how: str) -> None:
    import marshal
    import pickle

    import jinja2.bccache

    from generator.render import _COMPILED_HEADER

    folder = _cache(_with_formatting_cached(project, formatted))
    assert _run(project, "generate").returncode == 0  # compiles every template into the cache
    for kind in ("run", "render", "examples"):
        shutil.rmtree(folder / kind)  # so the next run renders every template again, reading the compiled ones
    compiled = sorted((folder / "jinja").rglob("*.cache"))
    assert len(compiled) > 20
    markers = []
    for n, path in enumerate(compiled):
        marker = tmp_path / f"ran-{n}"
        markers.append(marker)
        if n % 2:  # Jinja's own format: it unpickles the checksum before comparing it
            class Plant:
                def __reduce__(self, marker: Path = marker) -> tuple[object, tuple[str, str]]:
                    return open, (str(marker), "w")

            path.write_bytes(jinja2.bccache.bc_magic + pickle.dumps(Plant(), 2))
        else:  # chatspec's format, with the right checksum: well formed code that would run when loaded
            data = path.read_bytes()
            checksum = data[len(_COMPILED_HEADER):].partition(b"\n")[0] if data.startswith(_COMPILED_HEADER) else b""
            code = marshal.dumps(compile(f"open({str(marker)!r}, 'w')", "planted", "exec"))
            path.write_bytes(_COMPILED_HEADER + checksum + b"\n" + hashlib.sha256(code).hexdigest().encode() + b"\n" + code)
    _make_hostile(folder, how)
    done = _run(project, "generate")
    assert done.returncode == 0, done.stderr
    assert not [m.name for m in markers if m.exists()], "planted code ran"
    assert read_tree(project / "generated") == _uncached_tree(formatted)
    [warning] = _warnings(done.stderr)
    assert str(folder) in warning and "\n  hint: " in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("how", HOSTILE)
def test_a_run_entry_edited_where_others_could_write_never_reaches_generated_and_check_does_not_trust_it(
        project: Path, formatted: Path, how: str) -> None:
    folder = _cache(_with_formatting_cached(project, formatted))
    assert _run(project, "generate").returncode == 0
    (entry_path,) = _entries(project, "run")
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    poisoned = "python/chatformats/chat_event.py"
    entry["value"][poisoned] = "import os\nos.system('echo owned')\n"
    entry["sha256"] = hashlib.sha256(json.dumps(entry["value"], ensure_ascii=False, sort_keys=True).encode()).hexdigest()
    entry_path.write_text(json.dumps(entry), encoding="utf-8")  # a well-formed entry: only its origin is wrong
    _make_hostile(folder, how)
    done = _run(project, "generate")
    assert done.returncode == 0, done.stderr
    assert read_tree(project / "generated") == _uncached_tree(formatted), "the edited entry reached generated/"
    assert len(_warnings(done.stderr)) == 1
    # generated/ as the edited entry would have it: check compares with what the specs produce.
    (project / "generated" / poisoned).write_text(entry["value"][poisoned], encoding="utf-8")
    _make_hostile(folder, how)  # the run above replaced the entries it computed again
    checked = _run(project, "check")
    assert checked.returncode == 1 and "generated/ is stale" in checked.stderr, checked.stdout[-500:] + checked.stderr
    assert f"+++ b/generated/{poisoned}" in checked.stdout


def test_the_cache_folder_is_made_private_and_one_that_is_not_is_refused_with_the_fix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("CHATSPEC_CACHE", raising=False)
    # Made with every folder above it that is missing, and beside one that is already there.
    for made in (tmp_path / "a" / "b" / "cache", tmp_path / "a" / "b" / "other"):
        monkeypatch.setenv("CHATSPEC_CACHE_DIR", str(made))
        assert cache.open_folder(tmp_path) == made and made.is_dir()
    folder = tmp_path / "deep" / "cache"
    monkeypatch.setenv("CHATSPEC_CACHE_DIR", str(folder))
    assert cache.open_folder(tmp_path) == folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and (folder / ".gitignore").read_text() == "*\n"
    assert capsys.readouterr().err == ""

    def refused(fix: str) -> str:
        assert cache.open_folder(tmp_path) is None
        err = capsys.readouterr().err
        assert len(_warnings(err)) == 1 and err.count("\n") == 2, err
        assert f"not using the cache folder {folder}" in err and fix in err and "this run goes on without it" in err
        return err

    os.chmod(folder, 0o770)
    assert "others can write to it (mode 0770)" in refused(f"chmod -R go-w {folder}")
    os.chmod(folder, 0o755)  # readable by others is no risk to what a run reads
    assert cache.open_folder(tmp_path) == folder
    os.chown(folder, OTHER_USER, OTHER_USER)
    assert f"it belongs to user {OTHER_USER}" in refused(f"rm -rf {folder}")
    shutil.rmtree(folder)
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    folder.symlink_to(mine)
    assert cache.open_folder(tmp_path) == folder  # a link of the user's own to a folder of their own
    os.lchown(folder, OTHER_USER, OTHER_USER)
    assert "a symbolic link made by user 54321" in refused("remove the link")
    folder.unlink()
    folder.write_text("not a folder")
    refused("move that file away")
    monkeypatch.setenv("CHATSPEC_CACHE_DIR", str(folder / "cache"))
    assert f"it cannot be made: {folder} is not a folder" in refused("mkdir -m 700")


def test_an_entry_is_read_only_through_folders_and_a_file_no_one_else_could_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "cache"
    with cache.active(folder):
        cache.store("black", "ab" + "0" * 62, "value")
    entry = cache._path(folder, "black", "ab" + "0" * 62)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600 and stat.S_IMODE(entry.parent.stat().st_mode) == 0o700
    assert cache.load("black", "ab" + "0" * 62, folder) == "value"
    for path, change in [(entry, lambda p: os.chmod(p, 0o620)), (entry, lambda p: os.chown(p, OTHER_USER, -1)),
                         (entry.parent, lambda p: os.chmod(p, 0o707)), (entry.parent.parent, lambda p: os.chown(p, OTHER_USER, -1)),
                         (folder, lambda p: os.chmod(p, 0o722))]:
        before = path.lstat()
        change(path)
        assert cache.load("black", "ab" + "0" * 62, folder) is None, path
        os.chmod(path, stat.S_IMODE(before.st_mode))
        os.chown(path, before.st_uid, before.st_gid)
        assert cache.load("black", "ab" + "0" * 62, folder) == "value"
    # A symbolic link in an entry's place, or in a folder's, is not followed.
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(entry.parent, elsewhere)
    shutil.rmtree(entry.parent)
    entry.parent.symlink_to(elsewhere)
    assert cache.load("black", "ab" + "0" * 62, folder) is None
    entry.parent.unlink()
    entry.parent.mkdir(mode=0o700)
    entry.symlink_to(elsewhere / entry.name)
    assert cache.load("black", "ab" + "0" * 62, folder) is None
    os.mkfifo(cache._path(folder, "black", "ab" + "1" * 62))  # a FIFO does not make the run wait
    assert cache.load("black", "ab" + "1" * 62, folder) is None
    err = capsys.readouterr().err
    assert err.count("chatspec: warning:") <= 1


def test_a_write_through_a_folder_a_read_would_not_trust_writes_nothing_and_says_so(tmp_path: Path) -> None:
    # write_private's contract: False when it did not write (store's caller and the run counter rely on it).
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    assert cache.write_private(folder, "black/ab/entry.json", b"{}") is True
    os.chmod(folder / "black" / "ab", 0o777)  # anyone may now put an entry there
    assert cache.write_private(folder, "black/ab/other.json", b"{}") is False
    assert not (folder / "black" / "ab" / "other.json").exists()


def test_marking_an_entry_used_never_touches_what_a_planted_link_points_at(tmp_path: Path) -> None:
    # An entry swapped for a symbolic link between its read and its mark (a cache someone else can write) must
    # not make chatspec change the time of a file the link points at.
    target = tmp_path / "precious"
    target.write_text("x", encoding="utf-8")
    os.utime(target, (1_000_000, 1_000_000))
    link = tmp_path / "entry.json"
    link.symlink_to(target)
    cache.touch(link)
    assert target.stat().st_mtime == 1_000_000 and link.lstat().st_mtime > 1_000_000


class _FailingCache:
    """Every write into the cache folder after the first `allowed` fails with `code` (EROFS: a
    read-only folder, where even making a file fails; ENOSPC: a full one, where writing fails),
    and nothing else: generated/ and the vendored folder are written as ever."""

    def __init__(self, folder: Path, code: int, allowed: int, monkeypatch: pytest.MonkeyPatch, once: bool = False) -> None:
        self.folder, self.code, self.allowed, self.once = str(folder), code, allowed, once
        self.inside: set[int] = set()  # descriptors opened in the cache folder
        self.failures = 0
        self.created_after = 0  # files made in the cache folder after the first failure
        self.real = {name: getattr(os, name) for name in ("open", "close", "mkdir", "write", "replace", "rename")}
        for name in self.real:
            monkeypatch.setattr(os, name, getattr(self, "_" + name))

    def _under(self, path: object, dir_fd: int | None) -> bool:
        return (dir_fd is not None and dir_fd in self.inside) or os.path.abspath(os.fsdecode(path)).startswith(self.folder)  # type: ignore[arg-type]

    def _fail(self) -> bool:
        # once: only the first failure happens (a disk freed right after), so a later write would succeed.
        self.allowed -= 1
        fails = self.allowed < 0 and not (self.once and self.failures)
        self.failures += fails
        return fails

    def _open(self, path: object, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        under = self._under(path, dir_fd)
        if under and flags & os.O_CREAT and self.failures:
            self.created_after += 1
        if under and flags & os.O_CREAT and self.code == errno.EROFS and self._fail():
            raise OSError(self.code, os.strerror(self.code), path)
        fd: int = self.real["open"](path, flags, mode, dir_fd=dir_fd)
        if under:
            self.inside.add(fd)
        return fd

    def _close(self, fd: int) -> None:
        self.inside.discard(fd)
        self.real["close"](fd)

    def _mkdir(self, path: object, mode: int = 0o777, *, dir_fd: int | None = None) -> None:
        if self._under(path, dir_fd) and self.code == errno.EROFS and self._fail():
            raise OSError(self.code, os.strerror(self.code), path)
        self.real["mkdir"](path, mode, dir_fd=dir_fd)

    def _write(self, fd: int, data: bytes) -> int:
        if fd in self.inside and self.code == errno.ENOSPC and self._fail():
            raise OSError(self.code, os.strerror(self.code))
        written: int = self.real["write"](fd, data)
        return written

    def _replace(self, src: object, dst: object, *, src_dir_fd: int | None = None, dst_dir_fd: int | None = None) -> None:
        if self._under(dst, dst_dir_fd) and self.code == errno.EROFS and self._fail():
            raise OSError(self.code, os.strerror(self.code), dst)
        self.real["replace"](src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    def _rename(self, src: object, dst: object, *, src_dir_fd: int | None = None, dst_dir_fd: int | None = None) -> None:
        if self._under(dst, dst_dir_fd) and self.code == errno.EROFS and self._fail():
            raise OSError(self.code, os.strerror(self.code), dst)
        self.real["rename"](src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)


def _command(project: Path, command: str, out: Path) -> list[str]:
    if command == "vendor":
        return ["--root", str(project), "vendor", "--lang", "python", "--package", "acme_chat", "--out", str(out)]
    return ["--root", str(project), "generate"]


def _output(project: Path, command: str, out: Path) -> dict[str, str]:
    return read_tree(out / "acme_chat" if command == "vendor" else project / "generated")


def _uncached_vendored(out: Path) -> dict[str, str]:
    done = run_chatspec(ROOT, *_command(ROOT, "vendor", out)[2:], CHATSPEC_CACHE="off")
    assert done.returncode == 0, done.stderr
    return read_tree(out / "acme_chat")


@pytest.mark.parametrize("command", ["generate", "vendor"])
@pytest.mark.parametrize(("code", "allowed"), [(errno.EROFS, 0), (errno.ENOSPC, 0), (errno.ENOSPC, 3)],
                         ids=["read-only", "full", "full-midway"])
def test_a_read_only_or_full_cache_folder_means_running_without_it(
        project: Path, formatted: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: str, code: int, allowed: int) -> None:
    from generator import cli

    expected = _uncached_tree(formatted) if command == "generate" else _uncached_vendored(tmp_path / "expected")
    folder = _cache(_with_formatting_cached(project, formatted))  # black's and datamodel-codegen's results can be read
    monkeypatch.setenv("CHATSPEC_CACHE_DIR", str(folder))
    monkeypatch.delenv("CHATSPEC_CACHE", raising=False)
    monkeypatch.setattr(cache, "_writable", True)  # restored afterwards: the failure is this run's only
    with monkeypatch.context() as failing:
        _FailingCache(folder, code, allowed, failing)
        assert cli.main(_command(project, command, project / "out")) == 0
    err = capsys.readouterr().err
    assert _output(project, command, project / "out") == expected
    [warning] = _warnings(err)
    assert f"cannot write to the cache folder {folder} ({os.strerror(code)})" in warning, err


def test_after_its_first_failed_write_a_run_stores_nothing_more_in_the_cache(
        project: Path, formatted: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The warning says the run goes on without storing anything: a write that failed once (a full disk) is not
    # tried again for the next entry, even where it would now succeed.
    from generator import cli

    folder = _cache(_with_formatting_cached(project, formatted))
    monkeypatch.setenv("CHATSPEC_CACHE_DIR", str(folder))
    monkeypatch.delenv("CHATSPEC_CACHE", raising=False)
    monkeypatch.setattr(cache, "_writable", True)
    with monkeypatch.context() as failing:
        failed_once = _FailingCache(folder, errno.ENOSPC, 1, failing, once=True)
        assert cli.main(_command(project, "generate", project / "out")) == 0
    assert failed_once.failures == 1 and failed_once.created_after == 0
    [warning] = _warnings(capsys.readouterr().err)
    assert f"cannot write to the cache folder {folder}" in warning


@pytest.mark.parametrize("command", ["generate", "vendor"])
def test_a_cache_folder_that_cannot_be_made_means_running_without_it(project: Path, formatted: Path, tmp_path: Path, command: str) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    expected = _uncached_tree(formatted) if command == "generate" else _uncached_vendored(tmp_path / "expected")
    done = run_chatspec(None, *_command(project, command, project / "out"), CHATSPEC_CACHE="", CHATSPEC_CACHE_DIR=str(blocked / "cache"))
    assert done.returncode == 0, done.stderr
    assert _output(project, command, project / "out") == expected
    [warning] = _warnings(done.stderr)
    assert f"not using the cache folder {blocked / 'cache'}: it cannot be made: {blocked} is not a folder" in warning


def test_a_cache_folder_on_a_full_disk_means_running_without_it(project: Path, tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(small)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small file system here ({mounted.stderr.strip()}); the full-midway case above simulates one")
    try:
        done = _run(project, "generate", CHATSPEC_CACHE_DIR=str(small / "cache"))
        assert done.returncode == 0, done.stderr
        [warning] = _warnings(done.stderr)
        assert "(No space left on device)" in warning
        assert _run(project, "check", CHATSPEC_CACHE="off").returncode == 0
    finally:
        subprocess.run(["umount", str(small)], check=True)


def test_the_tools_whose_version_is_part_of_every_key_are_read_as_installed() -> None:
    # A folder of the package (black/, jinja2/) beside its .dist-info must not pass for the distribution: the key
    # would then miss an upgrade of black, and the cache would serve output formatted by the old one.
    from importlib.metadata import version

    from generator.cache import tool_versions

    names = ("black", "Jinja2", "datamodel-code-generator")
    assert tool_versions(*names) == [f"{n}=={version(n)}" for n in sorted(names, key=lambda n: n.lower().replace("-", "_"))]


def test_an_entry_is_trusted_only_with_this_layout_its_own_key_and_its_payloads_digest(tmp_path: Path) -> None:
    """Each of the three checks alone refuses an entry: one written by another layout, one moved or copied to
    another key's file (its own key inside), and one whose payload changed after its digest was taken."""
    folder = tmp_path / "cache"
    key, other = "a" * 64, "b" * 64
    cache.store("run", key, {"files": ["x"]}, folder)
    assert cache.load("run", key, folder) == {"files": ["x"]}
    path = folder / cache._relative("run", key)
    entry = json.loads(path.read_text(encoding="utf-8"))

    def stored_as(changed: dict[str, object], under: str) -> object:
        target = folder / cache._relative("run", under)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(changed), encoding="utf-8")
        os.chmod(target, 0o600)
        return cache.load("run", under, folder)

    assert stored_as(entry, key) == {"files": ["x"]}  # written back as it was: still trusted
    assert stored_as({**entry, "layout": "0"}, key) is None
    assert stored_as(entry, other) is None  # another key's file
    assert stored_as({**entry, "value": {"files": ["y"]}}, key) is None


def test_after_a_bump_the_changelog_finds_only_the_new_releases_changes(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each release's changes are remembered by the snapshots they are found from, not the whole history's: a
    # generate after a bump lowers two snapshots, not every one (0.5 s per run for a format with 45 releases).
    from generator import core, history

    folder = project / "specs" / "chat_event"
    for n in range(2):
        _edit_description(project, "chat_event")
        assert _run(project, "bump", "chat_event").returncode == 0
    with cache.active(tmp_path / "memo"):
        before = core._change_labels(folder, project)
    _edit_description(project, "chat_event")
    assert _run(project, "bump", "chat_event").returncode == 0
    loaded: list[str] = []
    load_release = history.load_release
    monkeypatch.setattr(history, "load_release", lambda *args, **kwargs: (loaded.append(args[1]), load_release(*args, **kwargs))[1])
    with cache.active(tmp_path / "memo"):
        after = core._change_labels(folder, project)
    versions = [r.version for r in history.read_lock(folder)]
    assert len(versions) == 4 and sorted(set(loaded)) == sorted(versions[-2:])
    assert list(after) == versions[1:] and {v: after[v] for v in before} == before
    assert after[versions[-1]]  # the new release's changes, each with its verdicts
    assert after == core._change_labels(folder, project)  # as found without the cache


def test_the_examples_check_against_the_exported_schema_is_remembered_apart_from_descriptions(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import core
    from generator.errors import SpecError

    checked: list[str] = []
    check = core.schema_problems
    monkeypatch.setattr(core, "schema_problems", lambda spec, fmt, exported: (checked.append(fmt.id), check(spec, fmt, exported))[1])
    folder = tmp_path / "memo"
    _generate_in_process(project, folder)
    assert sorted(checked) == sorted({s.format_id for s in core.discover(project / "specs", project)})
    checked.clear()
    _edit_description(project, "chat_event")  # an annotation: the verdicts on the examples stay
    _generate_in_process(project, folder)
    assert checked == []
    example = sorted((project / "specs" / "chat_event" / "examples" / "valid").glob("*.json"))[0]
    data = json.loads(example.read_text())
    example.write_text(json.dumps([data]))  # an array where the spec wants an object: refused, in every run
    for _ in range(2):
        with pytest.raises(SpecError, match="this valid example fails its own spec"):
            _generate_in_process(project, folder)
    assert checked == ["chat_event", "chat_event"]

"""The chatspec cache: it changes how long a run takes, never what it writes."""

from __future__ import annotations

import json
import os
import shutil
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
    first run makes that) into the project's cache folder, which must not exist yet."""
    assert not _cache(project).exists()
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

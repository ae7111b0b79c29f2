"""cache: remember the results of the slow, pure steps of a run.

black on a module, datamodel-code-generator on a schema and a whole run are pure
functions of their input text, the tool versions and chatspec's own source. Their
results are kept in the user's cache folder ($XDG_CACHE_HOME/chatspec or
~/.cache/chatspec, or $CHATSPEC_CACHE_DIR), keyed by a hash of all of that. It is
never inside the project by default: a cache a pull request could commit would be
trusted input (Jinja's compiled templates are code).

Safe by construction: an entry is written to a temporary file and renamed into
place (concurrent runs race harmlessly: both write the same bytes), and every
entry carries the hash of its own payload, so a truncated or corrupt entry is a
miss that is recomputed, never a wrong output. Caching only changes how long a
run takes, never what it produces; `CHATSPEC_CACHE=off` turns it off.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from generator.write import write_atomic

T = TypeVar("T")

# Entries of an older layout are simply never found: bump when the layout changes.
LAYOUT = "1"

_active: Path | None = None  # the CLI turns caching on; the pure core and tests run uncached


def folder_for(root: Path) -> Path | None:
    """Where the cache lives, or None when caching is turned off. Entries are keyed by
    content, so projects (and clones) on one machine share it safely."""
    if os.environ.get("CHATSPEC_CACHE", "").lower() in {"0", "off", "no", "false"}:
        return None
    override = os.environ.get("CHATSPEC_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "chatspec"


@contextlib.contextmanager
def active(folder: Path | None) -> Iterator[None]:
    """Memoise into `folder` while the block runs (None: compute everything)."""
    global _active
    previous, _active = _active, folder
    try:
        yield
    finally:
        _active = previous


@functools.cache
def source_of(module_file: str) -> str:
    """A module's own source, read once per process: part of the keys of what it computes."""
    return Path(module_file).read_text(encoding="utf-8")


def current() -> Path | None:
    """The folder memo() stores into now (None: caching is off)."""
    return _active


def digest(parts: Iterable[str | bytes]) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        # Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def _path(folder: Path, kind: str, key: str) -> Path:
    return folder / kind / key[:2] / f"{key}.json"


def load(kind: str, key: str, folder: Path | None = None) -> Any | None:
    """The value stored under key, or None when absent, unreadable or corrupt."""
    folder = folder or _active
    if folder is None:
        return None
    try:
        entry = json.loads(_path(folder, kind, key).read_text(encoding="utf-8"))
        payload = entry["value"]
        if entry["layout"] != LAYOUT or entry["key"] != key or entry["sha256"] != _payload_hash(payload):
            return None
        return payload
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(kind: str, key: str, value: Any, folder: Path | None = None) -> None:
    """Keep value under key; a cache that cannot be written is no cache, not an error."""
    folder = folder or _active
    if folder is None:
        return
    target = _path(folder, kind, key)
    entry = {"layout": LAYOUT, "key": key, "sha256": _payload_hash(value), "value": value}
    try:
        _create(folder)
        write_atomic(target, json.dumps(entry, ensure_ascii=False), durable=False)
    except OSError:
        return


def has(kind: str, parts: Iterable[str]) -> bool:
    """Whether memo(kind, parts, ...) has a result stored (Target.slow's guess: only the file is
    looked for, as the render reads it next; a damaged one only means that run takes longer)."""
    return stored(kind, digest([kind, *parts]))


def stored(kind: str, key: str) -> bool:
    """Whether an entry is stored under key (read, it may still turn out damaged: a miss)."""
    return _active is not None and _path(_active, kind, key).is_file()


def memo(kind: str, parts: Iterable[str], compute: Callable[[], T]) -> T:
    """compute(), or its remembered result for the same parts (JSON values only)."""
    if _active is None:
        return compute()
    key = digest([kind, *parts])
    found = load(kind, key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    value = compute()
    store(kind, key, value)
    return value


def _payload_hash(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False, sort_keys=True).encode("utf-8", "surrogatepass")).hexdigest()


def _create(folder: Path) -> None:
    """Make the cache folder; one chatspec creates ignores itself, should it sit inside a repository
    (an existing folder, e.g. CHATSPEC_CACHE_DIR pointing at a project, is left as it is)."""
    if folder.is_dir():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir()
    except FileExistsError:
        return  # another run made it
    (folder / ".gitignore").write_text("*\n", encoding="utf-8")


# The tools whose versions can change a generated byte or a verdict on a spec.
TOOLS = ("black", "datamodel-code-generator", "jinja2", "jsonschema", "pydantic", "referencing", "rfc3339-validator")


@functools.cache
def toolkit(templates: Path) -> str:
    """A digest of everything chatspec itself brings to a run: Python, the pinned tools, its own source
    (the package folder holds the runtimes too, copied into the output as they are) and templates."""
    package = Path(__file__).resolve().parent
    return digest(["toolkit", sys.version, *tool_versions(*TOOLS), *source_files(package), *source_files(templates)])


@functools.cache
def tool_versions(*names: str) -> list[str]:
    """`name==version` of installed distributions, read from their .dist-info folder
    names (importlib.metadata would cost more than the rest of a cached run)."""
    wanted = {n.lower().replace("-", "_"): n for n in names}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:
            continue
        for name in listing:
            if not name.endswith(".dist-info"):
                continue
            dist, _, version = name[: -len(".dist-info")].partition("-")
            normal = dist.lower().replace("-", "_").replace(".", "_")
            if normal in wanted and normal not in found:
                found[normal] = version
    return [f"{wanted[n]}=={found.get(n, '?')}" for n in sorted(wanted)]


def source_files(*folders: Path, every_folder: bool = False) -> list[str]:
    """Every file and folder under folders, as `relative path\\0content hash` lines. Python's
    caches and dot folders are skipped unless every_folder (specs/: a run reads each folder there)."""
    rows: list[str] = []
    for folder in folders:
        _walk(str(folder), folder.name, every_folder, rows)
    return rows


def _walk(path: str, relative: str, every_folder: bool, rows: list[str]) -> None:
    # os.scandir, not pathlib: every run hashes specs/ (a history snapshot per release) and chatspec's own source.
    try:
        entries = sorted(os.scandir(path), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        name = f"{relative}/{entry.name}"
        if not every_folder and entry.is_dir(follow_symlinks=False) and (entry.name == "__pycache__" or entry.name.startswith(".")):
            continue
        if entry.is_symlink():
            # Not followed, but seen: the run it invalidates refuses or reads it.
            rows.append(f"{name}\0-> {os.readlink(entry.path)}")
        elif entry.is_dir():
            rows.append(f"{name}/\0folder")
            _walk(entry.path, name, every_folder, rows)
        else:
            with open(entry.path, "rb") as file:
                rows.append(f"{name}\0{hashlib.sha256(file.read()).hexdigest()}")

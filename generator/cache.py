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

Bounded: every entry read is touched, and every TRIM_EVERY-th run that stored
something looks at the folder's size; past its limit (256 MB, or $CHATSPEC_CACHE_MAX_MB)
it is trimmed to three quarters of it, least recently used entries first (`trim`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import sys
import time
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
    path = _path(folder, kind, key)
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
        payload = entry["value"]
        if entry["layout"] != LAYOUT or entry["key"] != key or entry["sha256"] != _payload_hash(payload):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    touch(path)
    return payload


def touch(path: Path | str) -> None:
    """Mark an entry used now, so trim() removes it last (a read-only cache stays as it is)."""
    with contextlib.suppress(OSError):
        os.utime(path)


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
    return stored(kind, _memo_key(kind, parts))


def stored(kind: str, key: str) -> bool:
    """Whether an entry is stored under key (read, it may still turn out damaged: a miss)."""
    return _active is not None and _path(_active, kind, key).is_file()


def memo(kind: str, parts: Iterable[str], compute: Callable[[], T]) -> T:
    """compute(), or its remembered result for the same parts (JSON values only)."""
    if _active is None:
        return compute()
    key = _memo_key(kind, parts)
    found = load(kind, key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    value = compute()
    store(kind, key, value)
    return value


# How often a run looks at the cache's size: a walk of every entry, a few ms per thousand.
TRIM_EVERY = 20
LIMIT_MB = 256
# Only files named as chatspec names them are ever removed, should the folder hold anything else:
# <kind>/ab/ab<62 hex>.json entries, Jinja's compiled templates (render._bytecode_cache:
# jinja/<16 hex>/__jinja2_<hash>.cache), and the temporary file of an entry whose run was killed.
_KIND = re.compile(r"[a-z][a-z-]*")
_ENTRY = re.compile(r"(?P<sub>[0-9a-f]{2})/(?P=sub)[0-9a-f]{62}\.json")
_COMPILED = re.compile(r"[0-9a-f]{16}/__jinja2_[0-9a-f]+\.cache")
_LEFT_OVER = re.compile(r"(?P<sub>[0-9a-f]{2})/\.(?P=sub)[0-9a-f]{62}\.json\.\w+\.tmp")
_LEFT_OVER_AFTER = 3600  # seconds: older than any run that could still be writing it


def limit_bytes() -> int:
    """The size trim() keeps the cache under: $CHATSPEC_CACHE_MAX_MB megabytes, else LIMIT_MB."""
    given = os.environ.get("CHATSPEC_CACHE_MAX_MB", "")
    megabytes = int(given) if given.isdecimal() and int(given) > 0 else LIMIT_MB  # not isdigit: "²" is a digit int() refuses
    return megabytes * 2**20


def ran(folder: Path) -> None:
    """Count a run that stored entries in folder; every TRIM_EVERY-th one trims it. Never raises:
    a cache that cannot be counted or trimmed is only a larger cache."""
    counter = folder / ".runs"
    try:
        runs = int(counter.read_text(encoding="ascii")) + 1
    except (OSError, ValueError):
        runs = 1  # a lost count (two runs at once, a damaged file) only delays a trim
    try:
        write_atomic(counter, str(0 if runs >= TRIM_EVERY else runs), durable=False)
    except OSError:
        return  # a read-only cache: it would trim on every run, and remove nothing
    if runs >= TRIM_EVERY:
        with contextlib.suppress(OSError):
            trim(folder, limit_bytes())


def trim(folder: Path, limit: int) -> int:
    """When folder's entries are past limit bytes, remove the least recently used (oldest
    modified: a read touches its entry) until they fit in three quarters of it; the bytes removed.
    A run reading an entry as it goes finds it whole (POSIX) or misses and computes it again.
    Temporary files of killed runs, an hour old, go whatever the size."""
    entries: list[tuple[float, int, str]] = []
    left_over: list[str] = []
    too_old = time.time() - _LEFT_OVER_AFTER
    for kind in _listing(str(folder)):
        if not (_KIND.fullmatch(kind.name) and kind.is_dir(follow_symlinks=False)):
            continue
        named = _COMPILED if kind.name == "jinja" else _ENTRY
        for sub in _listing(kind.path):
            if not sub.is_dir(follow_symlinks=False):
                continue
            for entry in _listing(sub.path):
                relative = f"{sub.name}/{entry.name}"
                if named.fullmatch(relative) and entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    entries.append((stat.st_mtime, stat.st_size, entry.path))
                elif _LEFT_OVER.fullmatch(relative) and entry.stat(follow_symlinks=False).st_mtime < too_old:
                    left_over.append(entry.path)
    for path in left_over:
        with contextlib.suppress(OSError):
            os.unlink(path)
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return 0
    removed = 0
    for _, size, path in sorted(entries):
        if total - removed <= limit * 3 // 4:
            break
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed += size
    return removed


def _listing(path: str) -> list[os.DirEntry[str]]:
    try:
        return list(os.scandir(path))
    except OSError:
        return []


def _memo_key(kind: str, parts: Iterable[str]) -> str:
    """Where memo() keeps a result (has() looks there)."""
    return digest([kind, *parts])


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

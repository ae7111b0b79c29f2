"""cache: remember the results of the slow, pure steps of a run.

black on a module, datamodel-code-generator on a schema and a whole run are pure
functions of their input text, the tool versions and chatspec's own source. Their
results are kept in the user's cache folder ($XDG_CACHE_HOME/chatspec or
~/.cache/chatspec, or $CHATSPEC_CACHE_DIR), keyed by a hash of all of that. It is
never inside the project by default: a cache a pull request could commit would be
trusted input (Jinja's compiled templates are code).

Only a cache: whoever can write the folder could choose what a run writes into
generated/ (and what a compiled template runs), so chatspec reads nothing from a
folder that is not private to the user (`open_folder`: owned by the effective user,
writable by nobody else; made 0700), and every entry is opened folder by folder
below it with each folder and the file itself checked on its open descriptor
(`read_private`): an entry someone else could have written is a miss. A folder that
cannot be used, created or written (read-only, full) means the run goes on without
it, with one warning: the same output, only slower.

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
import secrets
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from generator.write import write_all

T = TypeVar("T")

# Entries of an older layout are simply never found: bump when the layout changes.
LAYOUT = "1"

_active: Path | None = None  # the CLI turns caching on; the pure core and tests run uncached
_warned = False  # the run has said what is wrong with its cache (once is enough)
_writable = True  # False once a write failed (read-only, full): the run stores nothing more
_main_pid = os.getpid()  # the process that warns; a worker (forked) keeps quiet, its run's main process speaks

# Folder and file bits that let someone other than the owner change what chatspec would read.
_OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH
_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
# O_NOFOLLOW: a symbolic link inside the folder is never followed (the open fails: a miss);
# O_NONBLOCK: a FIFO in an entry's place cannot make the run wait (a regular file ignores it).
_BELOW = os.O_NOFOLLOW | os.O_NONBLOCK


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


def open_folder(root: Path) -> Path | None:
    """The cache folder a run of the project at root may use (made 0700 when missing), or None:
    caching is off, or the folder is not private to the user or cannot be made; then one warning
    names the folder, the problem and the fix, and the run goes on without a cache."""
    global _warned, _writable, _main_pid
    _warned, _writable, _main_pid = False, True, os.getpid()  # a new run: its first problem is reported
    folder = folder_for(root)
    if folder is None:
        return None
    problem = _make(folder) or _not_private(folder)
    if problem is not None:
        what, fix = problem
        warn(f"not using the cache folder {folder}: {what}", f"{fix}; this run goes on without it (the same output, only slower)")
        return None
    return folder


def warn(problem: str, hint: str) -> None:
    """The run's one warning about its cache on stderr (later ones, and a worker process's, are left out)."""
    global _warned
    if _warned or os.getpid() != _main_pid:
        return
    _warned = True
    print(f"chatspec: warning: {problem}\n  hint: {hint}", file=sys.stderr, flush=True)


def _make(folder: Path) -> tuple[str, str] | None:
    """Make the cache folder (0700) when it is missing; one chatspec makes ignores itself, should it
    sit inside a repository. (problem, fix) when it cannot be made."""
    if os.path.lexists(folder):
        return None
    fix = f"make it yourself (`mkdir -m 700 {folder}`), or set CHATSPEC_CACHE_DIR to a folder you can write"
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError as exc:
        return f"it cannot be made: {exc.filename} is not a folder", fix
    except OSError as exc:
        return f"it cannot be made ({exc.strerror})", fix
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        return None  # another run made it: checked like any existing folder
    except OSError as exc:
        return f"it cannot be made ({exc.strerror})", fix
    write_private(folder, ".gitignore", b"*\n")
    return None


def _not_private(folder: Path) -> tuple[str, str] | None:
    """(problem, fix) when folder is not a folder only the effective user can change: owned by them,
    writable by nobody else, and, when it is a symbolic link, a link they (or root) made."""
    me = os.geteuid()
    elsewhere = "or set CHATSPEC_CACHE_DIR to a folder of your own"
    try:
        link = os.lstat(folder)
        info = os.stat(folder)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror})", f"remove it (chatspec makes a new one), {elsewhere}"
    if stat.S_ISLNK(link.st_mode) and link.st_uid not in (me, 0):
        return (
            f"it is a symbolic link made by {_user(link.st_uid)}, not by you ({_user(me)}), to {os.readlink(folder)}",
            f"remove the link (chatspec makes a folder of your own in its place), {elsewhere}",
        )
    if not stat.S_ISDIR(info.st_mode):
        return "it is not a folder", f"move that file away, {elsewhere}"
    if info.st_uid != me:
        return (
            f"it belongs to {_user(info.st_uid)}, not to you ({_user(me)}), so they could change what chatspec reads from it",
            f"remove it (`rm -rf {folder}`: it holds only a cache; chatspec makes a new one), {elsewhere}",
        )
    if info.st_mode & _OTHERS_WRITE:
        return (
            f"others can write to it (mode {stat.S_IMODE(info.st_mode):04o}), so they could change what chatspec reads from it",
            f"{_tighten(folder)}, {elsewhere}",
        )
    return None


def _tighten(folder: Path) -> str:
    # Safe even where others did write: what they put there is theirs, and chatspec reads only files of the user's own.
    return f"run `chmod -R go-w {folder}` (anything others put there stays unread: chatspec reads only your own files)"


def _user(uid: int) -> str:
    """e.g. "user 1000 (alice)"."""
    try:
        import pwd

        return f"user {uid} ({pwd.getpwuid(uid).pw_name})"
    except (ImportError, KeyError):
        return f"user {uid}"


def _entry_problem(info: os.stat_result, folder: Path) -> tuple[str, str] | None:
    """(problem, fix) when a folder or file below the cache folder cannot be trusted: someone else owns it or may write it."""
    if info.st_uid != os.geteuid():
        return (
            f"it belongs to {_user(info.st_uid)}",
            f"remove the cache folder (`rm -rf {folder}`: it holds only a cache; chatspec makes a new one)",
        )
    if info.st_mode & _OTHERS_WRITE:
        return f"others can write to it (mode {stat.S_IMODE(info.st_mode):04o})", _tighten(folder)
    return None


def read_private(folder: Path, relative: str) -> bytes | None:
    """The bytes of folder/relative, or None when it is missing or unreadable, or when it or any folder
    on the way (folder itself included) may have been written by someone else: each is opened below the
    last (no symbolic link followed) and checked on its open descriptor, so nothing swapped in between
    a check and the read is trusted. A refused entry is a miss, and the run's warning names it."""
    parts = relative.split("/")
    opened: list[int] = []
    try:
        opened.append(os.open(folder, _DIRECTORY))
        for i, part in enumerate(parts):
            problem = _entry_problem(os.fstat(opened[-1]), folder)
            if problem is not None:
                warn(f"ignored the cache folder {folder.joinpath(*parts[:i])}: {problem[0]}", problem[1])
                return None
            last = i == len(parts) - 1
            opened.append(os.open(part, (os.O_RDONLY | os.O_CLOEXEC | _BELOW) if last else (_DIRECTORY | _BELOW), dir_fd=opened[-1]))
        info = os.fstat(opened[-1])
        problem = (
            _entry_problem(info, folder) if stat.S_ISREG(info.st_mode) else ("it is not a regular file", f"remove it (`rm -rf {folder}`)")
        )
        if problem is not None:
            warn(f"ignored the cache entry {folder / relative}: {problem[0]}", problem[1])
            return None
        chunks = []
        while chunk := os.read(opened[-1], 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None  # missing (the usual miss), a symbolic link, unreadable
    finally:
        for fd in opened:
            os.close(fd)


def write_private(folder: Path, relative: str, data: bytes) -> bool:
    """Replace folder/relative by data in one step (a temporary file renamed into place), making the
    folders on the way 0700 and the file 0600; False when it was not written. The first failure (a
    read-only or full folder) is the run's warning and stops its writes: the run goes on without them."""
    global _writable
    if not _writable:
        return False
    *folders, name = relative.split("/")
    opened: list[int] = []
    temp = f".{name}.{secrets.token_hex(4)}.tmp"  # named as trim() knows a killed run's temporary file
    try:
        opened.append(os.open(folder, _DIRECTORY))
        for part in folders:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o700, dir_fd=opened[-1])
            opened.append(os.open(part, _DIRECTORY | _BELOW, dir_fd=opened[-1]))
            if _entry_problem(os.fstat(opened[-1]), folder) is not None:
                return False  # where a read would not trust it (the read's warning says so)
        write_all(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600, dir_fd=opened[-1]), data)
        os.replace(temp, name, src_dir_fd=opened[-1], dst_dir_fd=opened[-1])
        return True
    except OSError as exc:
        if opened:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=opened[-1])
        _writable = False
        warn(
            f"cannot write to the cache folder {folder} ({exc.strerror or exc})",
            "free some space or make the folder writable, or set CHATSPEC_CACHE_DIR to another folder; "
            "this run goes on without storing anything (the same output)",
        )
        return False
    finally:
        for fd in opened:
            os.close(fd)


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


def fingerprint(value: object) -> str:
    """A text that differs whenever two frozen values (IR, behaviour, options) differ: their repr, which
    dataclasses spell field by field. A repr that is not stable across runs only costs a cache miss."""
    return repr(value)


def digest(parts: Iterable[str | bytes]) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        # Length-prefixed, so ("ab", "c") and ("a", "bc") differ.
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def _relative(kind: str, key: str) -> str:
    return f"{kind}/{key[:2]}/{key}.json"


def _path(folder: Path, kind: str, key: str) -> Path:
    return folder / _relative(kind, key)


def load(kind: str, key: str, folder: Path | None = None) -> Any | None:
    """The value stored under key, or None when absent, unreadable, corrupt or not the user's own."""
    folder = folder or _active
    if folder is None:
        return None
    data = read_private(folder, _relative(kind, key))
    if data is None:
        return None
    try:
        entry = json.loads(data.decode("utf-8"))
        payload = entry["value"]
        if entry["layout"] != LAYOUT or entry["key"] != key or entry["sha256"] != _payload_hash(payload):
            return None
    except (ValueError, KeyError, TypeError):
        return None
    touch(_path(folder, kind, key))
    return payload


def touch(path: Path | str) -> None:
    """Mark an entry used now, so trim() removes it last (a read-only cache stays as it is)."""
    with contextlib.suppress(OSError):
        os.utime(path, follow_symlinks=False)


def store(kind: str, key: str, value: Any, folder: Path | None = None) -> None:
    """Keep value under key; a cache that cannot be written is no cache, not an error."""
    folder = folder or _active
    if folder is None or _make(folder) is not None:
        return
    entry = {"layout": LAYOUT, "key": key, "sha256": _payload_hash(value), "value": value}
    write_private(folder, _relative(kind, key), json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass"))


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
# jinja/<16 hex>/__jinja2_<hash>.cache), and the temporary file (write_private) of one whose run was killed.
_KIND = re.compile(r"[a-z][a-z-]*")
_ENTRY = re.compile(r"(?P<sub>[0-9a-f]{2})/(?P=sub)[0-9a-f]{62}\.json")
_COMPILED = re.compile(r"[0-9a-f]{16}/__jinja2_[0-9a-f]+\.cache")
_LEFT_OVER = re.compile(r"(?P<sub>[0-9a-f]{2})/\.(?P=sub)[0-9a-f]{62}\.json\.\w+\.tmp")
_LEFT_OVER_COMPILED = re.compile(r"[0-9a-f]{16}/\.__jinja2_[0-9a-f]+\.cache\.\w+\.tmp")
_LEFT_OVER_AFTER = 3600  # seconds: older than any run that could still be writing it


def limit_bytes() -> int:
    """The size trim() keeps the cache under: $CHATSPEC_CACHE_MAX_MB megabytes, else LIMIT_MB."""
    given = os.environ.get("CHATSPEC_CACHE_MAX_MB", "")
    megabytes = int(given) if given.isdecimal() and int(given) > 0 else LIMIT_MB  # not isdigit: "²" is a digit int() refuses
    return megabytes * 2**20


def ran(folder: Path) -> None:
    """Count a run that stored entries in folder; every TRIM_EVERY-th one trims it. Never raises:
    a cache that cannot be counted or trimmed is only a larger cache."""
    try:
        runs = int((read_private(folder, ".runs") or b"").decode("ascii")) + 1
    except ValueError:
        runs = 1  # a lost count (two runs at once, a damaged file) only delays a trim
    if not write_private(folder, ".runs", str(0 if runs >= TRIM_EVERY else runs).encode("ascii")):
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
        named, left = (_COMPILED, _LEFT_OVER_COMPILED) if kind.name == "jinja" else (_ENTRY, _LEFT_OVER)
        for sub in _listing(kind.path):
            if not sub.is_dir(follow_symlinks=False):
                continue
            for entry in _listing(sub.path):
                relative = f"{sub.name}/{entry.name}"
                if named.fullmatch(relative) and entry.is_file(follow_symlinks=False):
                    stat = entry.stat(follow_symlinks=False)
                    entries.append((stat.st_mtime, stat.st_size, entry.path))
                elif left.fullmatch(relative) and entry.stat(follow_symlinks=False).st_mtime < too_old:
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


# The tools whose versions can change a generated byte or a verdict on a spec (msgspec: the msgspec package's examples).
TOOLS = ("black", "datamodel-code-generator", "jinja2", "jsonschema", "msgspec", "pydantic", "referencing", "rfc3339-validator")


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

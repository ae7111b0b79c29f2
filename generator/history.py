"""history: the version lock of each spec and the snapshots of its releases.

specs/<format>/history/lock.json lists every locked release (version, canonical
hash of the spec, the class of change and the changes); history/<version>/
holds the spec and its examples as they were when that version was locked.
The toolkit maintains both (`chatspec bump`); nobody edits them by hand.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from generator import ir
from generator.classify import (
    LEVELS,
    Change,
    allowed_level,
    bump,
    ir_differences,
    level_between,
    needed_version,
    required_level,
)
from generator.compatibility import kept_promise, promise_between
from generator.errors import SpecError
from generator.load import LoadedSpec, load_spec
from generator.lower import lower
from generator.write import staged, write_durably

# A released version, as x-version's pattern in the meta-schema says.
VERSION_RE = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")


@dataclass(frozen=True)
class Release:
    version: str  # e.g. "1.0.0"
    sha256: str  # of the canonical spec without its x-version
    level: str  # "initial" | "major" | "minor" | "patch"
    changes: tuple[str, ...]  # e.g. ("major: field removed: DroidletChat.speaker_id",)


def canonical_hash(document: dict[str, Any]) -> str:
    """A hash of what the spec says (key order and whitespace do not count, nor x-version)."""
    content = {k: v for k, v in document.items() if k != "x-version"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lock_path(spec_dir: Path) -> Path:
    return spec_dir / "history" / "lock.json"


def read_lock(spec_dir: Path) -> list[Release]:
    return _read_lock(spec_dir)[0]


def read_retired(spec_dir: Path) -> dict[int, str]:
    """The earlier majors retired from generation (`chatspec retire`): major -> its last release, e.g. {1: "1.0.0"}."""
    return _read_lock(spec_dir)[1]


def _read_lock(spec_dir: Path) -> tuple[list[Release], dict[int, str]]:
    path = lock_path(spec_dir)
    if not path.is_file():
        return [], {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        releases = [Release(r["version"], r["sha256"], r["level"], tuple(r["changes"])) for r in data["releases"]]
        for r in releases:
            if not (isinstance(r.version, str) and VERSION_RE.fullmatch(r.version)):
                raise ValueError(f"release version {r.version!r} is not X.Y.Z")
        retired = {r["major"]: r["last_release"] for r in data.get("retired", [])}
        for major, last in retired.items():
            if not (isinstance(major, int) and 0 <= major < major_of(releases[-1].version) and last_release_of(releases, major) == last):
                raise ValueError(f"retired major {major!r} is no earlier major whose last release is {last!r}")
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        shown = f"specs/{spec_dir.name}/history/lock.json"
        raise SpecError(
            shown,
            None,
            f"the version lock is damaged ({exc})",
            f"restore it from git: `git checkout -- {shown}` (the toolkit writes it; nobody edits it by hand)",
        ) from None
    return releases, retired


def major_of(version: str) -> int:
    return int(version.split(".")[0])


def line_of(version: str) -> tuple[int, ...]:
    """The releases a transitive promise holds together: a major (1.x), or in 0.x, where a minor bump may
    break, one minor (0.2.x): e.g. (1,) or (0, 2)."""
    major, minor = (int(p) for p in version.split(".")[:2])
    return (major,) if major else (0, minor)


def last_release_of(releases: list[Release], major: int) -> str | None:
    """The version of the last release of a major, or None when it has none."""
    return next((r.version for r in reversed(releases) if major_of(r.version) == major), None)


def lock_text(spec_dir: Path, releases: list[Release], retired: dict[int, str]) -> str:
    data: dict[str, object] = {"format": spec_dir.name, "releases": [dict(asdict(r), changes=list(r.changes)) for r in releases]}
    if retired:  # a lock that never retired a major keeps the shape it always had
        data["retired"] = [{"major": major, "last_release": retired[major]} for major in sorted(retired)]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_lock(spec_dir: Path, stage: Path, releases: list[Release], retired: dict[int, str]) -> None:
    """Put the lock in place from a staged copy (write.staged): a reader sees the old lock or the new one."""
    write_durably(stage / "lock.json", lock_text(spec_dir, releases, retired))
    os.replace(stage / "lock.json", lock_path(spec_dir))


def load_release(spec_dir: Path, version: str, root: Path, format_id: str | None = None) -> LoadedSpec:
    """The spec (and examples) of a locked release, from its snapshot."""
    return load_spec(spec_dir / "history" / version, root, format_id=format_id or spec_dir.name)


def changes_since(spec_dir: Path, release: Release, current: LoadedSpec, root: Path) -> list[Change]:
    """The classified changes from a locked release to the current spec.

    Refuses an unclassified change: the spec's meaning (its IR) differs from the release's
    but classify() names nothing, so no bump level was ever decided for it.
    """
    old, new = lower(load_release(spec_dir, release.version, root)), lower(current)
    # Held to the spec's compatibility promise (compatibility.py): a change that breaks it needs a major.
    transitive = "transitive" in promise_between(old, new)
    earlier = [lower(load_release(spec_dir, v, root)) for v in _before_in_line(read_lock(spec_dir), release.version)] if transitive else []
    changes = kept_promise(old, new, earlier)
    if not changes:
        differences = ir_differences(old, new)
        if differences:
            raise SpecError(
                current.path,
                "/",
                f"unclassified change since {release.version}: the compiled spec differs at "
                + "; ".join(differences[:3])
                + (f" (and {len(differences) - 3} more)" if len(differences) > 3 else "")
                + ", but no change rule names it",
                "this is a gap in chatspec's change classification (generator/classify.py), please report it; "
                f"until it is fixed, undo the edit: `git checkout -- {current.path}`",
            )
    return changes


def release_changes(spec_dir: Path, root: Path) -> dict[str, dict[str, Change]]:
    """Each release's changes as classify and the promise find them again from the snapshots, by the text the
    lock records: version -> {"minor: optional field added: Item.note": Change}. The lock keeps only the text;
    this gives the changelog each change's verdict per direction. A snapshot this chatspec cannot read any
    more gives its release none (its changes are listed without verdicts)."""
    return {version: found for version, _, find in each_release(spec_dir, root) if (found := find()) is not None}


def each_release(spec_dir: Path, root: Path) -> Iterator[tuple[str, list[str], Callable[[], dict[str, Change] | None]]]:
    """Per release after the first: its version, the releases whose snapshots its changes are found from (the
    one before it, last, and the earlier ones of its line, which a transitive promise reads), and a function
    finding them (release_changes; None where a snapshot cannot be read). A caller that remembers the changes
    by those snapshots (core: the changelog) finds only a new release's."""
    releases = read_lock(spec_dir)
    formats: dict[str, ir.Format | None] = {}

    def lowered(version: str) -> ir.Format | None:
        # Each snapshot once, however long the history (a transitive promise compares each release with all
        # the earlier ones of its major).
        if version not in formats:
            try:
                formats[version] = lower(load_release(spec_dir, version, root))
            except SpecError:
                formats[version] = None
        return formats[version]

    def find(before: str, version: str) -> dict[str, Change] | None:
        old, new = lowered(before), lowered(version)
        if old is None or new is None:
            return None
        earlier: list[ir.Format] = []
        if "transitive" in promise_between(old, new):
            found = [lowered(v) for v in _before_in_line(releases, before)]
            earlier = [f for f in found if f is not None]
        return {str(c): c for c in kept_promise(old, new, earlier)}

    for before, release in itertools.pairwise(releases):
        yield release.version, [*_before_in_line(releases, before.version), before.version], functools.partial(
            find, before.version, release.version
        )


def _before_in_line(releases: list[Release], version: str) -> list[str]:
    """The releases of the same major (in 0.x, of the same minor) before `version`, oldest first: what a
    transitive promise is kept against."""
    return [r.version for r in releases if line_of(r.version) == line_of(version) and level_between(r.version, version) is not None]


def _listing(changes: list[Change], only: str | None = None) -> str:
    """The changes as one line; with `only`, just that level's, without repeating the level."""
    if only is not None:
        return "; ".join(c.what for c in changes if c.level == only)
    return "; ".join(str(c) for c in changes)


def lock_commands(format_id: str) -> str:
    """The two spellings of the command that locks a spec's changes under the version they need."""
    return f"run `chatspec bump {format_id}` (or `make bump FORMAT={format_id}`)"


def check_locked(spec: LoadedSpec, spec_dir: Path, root: Path) -> None:
    """Refuse a spec whose content differs from the locked snapshot of its x-version."""
    version = spec.document["x-version"]
    releases = read_lock(spec_dir)
    fid = spec.format_id
    if not releases:
        raise SpecError(
            spec.path,
            "/x-version",
            f"version {version} is not locked (no {lock_path(spec_dir).relative_to(root).as_posix()})",
            f"{lock_commands(fid)} to lock it",
        )
    latest = releases[-1]
    if version == latest.version and canonical_hash(spec.document) == latest.sha256:
        return
    locked = {r.version for r in releases}
    if version in locked and version != latest.version:
        raise SpecError(
            spec.path,
            "/x-version",
            f"x-version {version} is an older release; the latest locked release is {latest.version}",
            f"set x-version back to {latest.version}, or lock a new release: {lock_commands(fid)}",
        )
    changes = changes_since(spec_dir, latest, spec, root)
    level = required_level(changes)
    if level is None:
        if version == latest.version:
            return  # only the layout changed (key order, whitespace): same meaning, same hash not needed
        raise SpecError(
            spec.path,
            "/x-version",
            f"x-version {version} is not locked and nothing changed since {latest.version}",
            f'set x-version back to {latest.version} ("x-version": "{latest.version}" in {spec.path})',
        )
    target = needed_version(latest.version, level)
    move = f"it must move to {target}: {bump_commands(fid, target, level_between(latest.version, target))}"
    if version == latest.version:
        raise SpecError(
            spec.path,
            "/x-version",
            f"the spec changed since {version} was locked, but x-version is still {version}: a {level} change ({_listing(changes)})",
            move,
        )
    given = allowed_level(latest.version, version)
    if given is None:
        raise SpecError(spec.path, "/x-version", f"x-version {version} is not later than the latest locked release {latest.version}", move)
    if LEVELS.index(given) < LEVELS.index(level):
        raise SpecError(
            spec.path,
            "/x-version",
            f"x-version {version} is a {level_between(latest.version, version)} bump, but the change is {level}"
            f"{_zero_note(latest.version)}: {_listing(changes, level)}",
            move,
        )
    raise SpecError(
        spec.path,
        "/x-version",
        f"x-version {version} is not locked yet ({level} change: {_listing(changes)})",
        f"{lock_commands(fid)} to lock it",
    )


def _zero_note(latest: str) -> str:
    """What a refused bump of a 0.x version needs to say: the numbers mean something else there."""
    return " (in 0.x a breaking change raises the minor number, anything else the patch number)" if major_of(latest) == 0 else ""


def bump_commands(format_id: str, to: str, level: str | None = None) -> str:
    """The two spellings of the command that locks `to` (a version, or a level); `level` spells it for make."""
    return f"run `chatspec bump {format_id} --to {to}` (or `make bump FORMAT={format_id} TO={level or to}`)"


def _check_to(spec: LoadedSpec, to: str) -> None:
    if to not in LEVELS and not VERSION_RE.fullmatch(to):
        raise SpecError(
            spec.path,
            "/x-version",
            f"--to {to!r} is neither a level nor a version",
            f"use major, minor, patch or a full version X.Y.Z, e.g. {bump_commands(spec.format_id, 'minor')}",
        )


def bump_spec(spec_dir: Path, root: Path, to: str | None = None) -> tuple[str, list[Change]]:
    """Lock the spec's current content under the version its changes need; returns (version, changes).

    `to` is None (the version the changes need, or the author's x-version if that is enough),
    a level (major|minor|patch) or a full version X.Y.Z later than the latest locked release.
    """
    spec = load_spec(spec_dir, root)
    # Lowered first, the first release too: a spec generate would refuse (a $ref it cannot follow,
    # a type nested deeper than the targets write) is refused before anything is locked.
    lower(spec)
    if to is not None:
        _check_to(spec, to)
    releases = read_lock(spec_dir)
    version = spec.document["x-version"]
    fid = spec.format_id
    changes: list[Change] = []
    if not releases:
        if to in LEVELS:
            raise SpecError(
                spec.path,
                "/x-version",
                f"nothing is locked yet, so --to {to} has nothing to bump from",
                f"the first release is locked as the spec's x-version ({version}): run `chatspec bump {fid}` without --to",
            )
        target, level = to or version, "initial"
    else:
        latest = releases[-1]
        changes = changes_since(spec_dir, latest, spec, root)
        needed = required_level(changes)
        if needed is None:
            raise SpecError(
                spec.path,
                "/",
                f"nothing changed since {latest.version}",
                "edit the spec first; there is nothing to bump (`chatspec diff " f"{fid}` lists the changes since {latest.version})",
            )
        need = needed_version(latest.version, needed)
        if to in LEVELS:
            target = bump(latest.version, to)
        elif to is not None:
            target = to
        elif level_between(latest.version, version) is not None:
            target = version  # the author already wrote the next version
        else:
            target = need
        given = allowed_level(latest.version, target)
        need_commands = bump_commands(fid, need, level_between(latest.version, need))
        if given is None:
            raise SpecError(
                spec.path,
                "/x-version",
                f"{target} is not later than the latest locked release {latest.version}",
                f"the {needed} change needs {need}: {need_commands}",
            )
        if LEVELS.index(given) < LEVELS.index(needed):
            raise SpecError(
                spec.path,
                "/x-version",
                f"a {level_between(latest.version, target)} bump to {target} is refused: the change is {needed}"
                f"{_zero_note(latest.version)}: {_listing(changes, needed)}",
                f"use {need}: {need_commands}",
            )
        level = given  # the largest class of change the version may hold: what its consumers must expect
    spec_file = spec_dir / "spec.json"
    text = spec_file.read_text(encoding="utf-8")
    text = re.sub(r'("x-version"\s*:\s*)"[^"]*"', lambda m: f'{m.group(1)}"{target}"', text, count=1)
    document = json.loads(text)
    if document.get("x-version") != target:  # the edit must change exactly the top-level x-version
        raise SpecError(
            spec.path,
            "/x-version",
            f"could not set x-version to {target} in the file's text",
            f'set "x-version": "{target}" by hand, then run `chatspec bump {fid}` again',
        )
    releases.append(Release(target, canonical_hash(document), level, tuple(str(c) for c in changes)))
    # Everything is made in a folder git ignores (write.staged), then renamed into place, the lock
    # last: a run cut short leaves no file anyone could commit by mistake, and before the lock's
    # rename the spec is not locked (check says so, and running bump again finishes the job).
    snapshot = spec_dir / "history" / target
    with staged(spec_dir) as stage:
        (stage / "snapshot").mkdir()
        write_durably(stage / "snapshot" / "spec.json", text)
        if (spec_dir / "examples").is_dir():
            shutil.copytree(spec_dir / "examples", stage / "snapshot" / "examples")
        write_durably(stage / "spec.json", text)
        snapshot.parent.mkdir(exist_ok=True)
        if snapshot.exists():
            shutil.rmtree(snapshot)  # an earlier bump to this version that was cut short
        os.replace(stage / "snapshot", snapshot)
        os.replace(stage / "spec.json", spec_file)
        write_lock(spec_dir, stage, releases, read_retired(spec_dir))
    return target, changes


def earlier_majors(spec_dir: Path) -> list[Release]:
    """The last release of every major before the latest one that is not retired, oldest first."""
    releases, retired = _read_lock(spec_dir)
    if not releases:
        return []
    current = major_of(releases[-1].version)
    last: dict[int, Release] = {}
    for r in releases:
        major = major_of(r.version)
        if major < current and major not in retired:
            last[major] = r
    return [last[m] for m in sorted(last)]

"""write: put a generated tree on disk all at once, or not at all.

The new tree is assembled beside the old one (unchanged files are hard links,
so they keep their identity and mtime), then swapped in with two renames.
An interrupted run leaves either the old tree or the new one; the next run
finishes or undoes a half-done swap before doing anything else.
"""

from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path


def _siblings(out: Path) -> tuple[Path, Path]:
    return out.with_name(out.name + ".new"), out.with_name(out.name + ".old")


def recover(out: Path) -> None:
    """Repair what an interrupted write left behind."""
    new, old = _siblings(out)
    if old.exists() and not out.exists():
        old.rename(out)  # crashed between the two renames: the old tree is complete
    if old.exists():
        shutil.rmtree(old)
    if new.exists():
        shutil.rmtree(new)


def _is_cache(relative: Path) -> bool:
    # Importing, type-checking or building the output leaves caches in it
    # (__pycache__, .mypy_cache); they are not generated files, so neither
    # drift nor something to remove.
    return any(part == "__pycache__" or part.startswith(".") for part in relative.parts)


def read_tree(out: Path) -> dict[str, str]:
    if not out.is_dir():
        return {}
    return {
        p.relative_to(out).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(out.rglob("*"))
        if p.is_file() and not _is_cache(p.relative_to(out))
    }


def changes(out: Path, files: dict[str, str]) -> tuple[list[str], list[str]]:
    """(paths to write, paths to remove) to make `out` hold exactly `files`."""
    current = read_tree(out)
    write = [p for p, text in files.items() if current.get(p) != text]
    remove = sorted(p for p in current if p not in files)
    return write, remove


def write_tree(out: Path, files: dict[str, str], fail_after: int | None = None) -> tuple[list[str], list[str]]:
    """Make `out` hold exactly `files`. fail_after (tests only) raises after that many writes."""
    recover(out)
    written, removed = changes(out, files)
    if not written and not removed:
        return written, removed
    new, old = _siblings(out)
    try:
        _assemble(new, out, files, set(written), fail_after)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    if out.exists():
        out.rename(old)
    new.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return written, removed


def _assemble(new: Path, out: Path, files: dict[str, str], to_write: set[str], fail_after: int | None) -> None:
    """Build the complete new tree in `new`: changed files written, the rest hard-linked."""
    for i, (path, text) in enumerate(sorted(files.items())):
        target = new / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if path in to_write:
            if fail_after is not None and i >= fail_after:
                raise OSError(f"simulated failure after {fail_after} files")
            with open(target, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
        else:
            os.link(out / path, target)


def unified_diff(out: Path, files: dict[str, str]) -> str:
    """What `write_tree` would change, as a unified diff (removals named too)."""
    current = read_tree(out)
    chunks = []
    for path in sorted(set(current) | set(files)):
        before, after = current.get(path), files.get(path)
        if before == after:
            continue
        chunks.extend(difflib.unified_diff(
            (before or "").splitlines(keepends=True),
            (after or "").splitlines(keepends=True),
            fromfile=f"a/{out.name}/{path}" if before is not None else "/dev/null",
            tofile=f"b/{out.name}/{path}" if after is not None else "/dev/null",
        ))
        if after is None:
            chunks.append(f"(generated/{path} should not exist: no spec produces it)\n")
    return "".join(chunks)

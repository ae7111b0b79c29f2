"""The chatspec command: the only part of the toolkit that writes files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator import cache
from generator.build import generated_files
from generator.errors import SpecError
from generator.naming import format_id_problem
from generator.write import unified_diff, write_tree

# The subcommands import what they use when they run: a no-op `chatspec check` is
# answered from the cache without loading Jinja, jsonschema or black.


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chatspec", description="Compile chat-format specs to Python, JSON Schema and docs.")
    parser.add_argument("--root", type=Path, default=Path("."), help="project root holding specs/ and generated/ (default: .)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("generate", help="write generated/ from specs/ (only changed files)")
    sub.add_parser("check", help="exit 1 with a diff when generated/ is stale")
    bump = sub.add_parser("bump", help="lock a spec's changes under the version they need")
    bump.add_argument("format", help="the format id, e.g. droidlet_chat")
    bump.add_argument("--to", help="major, minor, patch or an explicit version (refused if too small for the change)")
    vendor = sub.add_parser("vendor", help="write the generated code of some formats for another repository")
    vendor.add_argument("--lang", choices=["python", "go"], required=True)
    vendor.add_argument("--package", help="the Python package name (with --lang python)")
    vendor.add_argument("--module", help="the Go module path (with --lang go)")
    vendor.add_argument("--out", type=Path, required=True, help="python: the folder to hold the package; go: the module root")
    vendor.add_argument("--formats", help="comma-separated format ids (default: all)")
    vendor.add_argument("--check", action="store_true", help="exit 1 with a diff when the vendored copy is stale")
    diff = sub.add_parser("diff", help="print the classified changes of a spec since a locked release")
    diff.add_argument("format", help="the format id, e.g. droidlet_chat")
    diff.add_argument("--against", help="a locked version (default: the latest)")
    return parser


def _spec_dir(root: Path, format_id: str) -> Path:
    problem = format_id_problem(format_id)
    if problem is not None:  # also keeps e.g. "../x" from reaching outside specs/
        raise SpecError(f"specs/{format_id}/spec.json", "", *problem)
    folder = root / "specs" / format_id
    if not (folder / "spec.json").is_file():
        raise SpecError(f"specs/{format_id}/spec.json", "", "no such spec", "use a folder name under specs/")
    return folder


def _bump(root: Path, format_id: str, to: str | None) -> int:
    from generator.classify import required_level
    from generator.history import bump_spec

    version, changes = bump_spec(_spec_dir(root, format_id), root, to)
    print(f"{format_id}: locked {version}" + (f" ({required_level(changes)} change)" if changes else " (initial release)"))
    for change in changes:
        print(f"  {change}")
    print("now run `make generate` and commit specs/ and generated/ together")
    return 0


def _vendor(root: Path, args: argparse.Namespace) -> int:
    from generator.vendor import ensure_ours, target_folder, vendored_files

    name = args.package if args.lang == "python" else args.module
    if not name:
        print(f"chatspec: vendor --lang {args.lang} needs {'--package' if args.lang == 'python' else '--module'}", file=sys.stderr)
        return 2
    formats = [f.strip() for f in args.formats.split(",")] if args.formats else None
    with cache.active(cache.folder_for(root)):
        files = vendored_files(root, args.lang, name, formats)
    folder = target_folder(args.out, args.lang, name)
    if args.check:
        diff = unified_diff(folder, files)
        if diff:
            sys.stdout.write(diff)
            print(f"chatspec: {folder} is stale; run the vendor command again and commit the result", file=sys.stderr)
            return 1
        print(f"chatspec: {folder} is up to date")
        return 0
    ensure_ours(folder)
    written, removed = write_tree(folder, files)
    print(f"chatspec: vendored {len(files)} file(s) into {folder} ({len(written)} written, {len(removed)} removed)")
    return 0


def _diff(root: Path, format_id: str, against: str | None) -> int:
    from generator.classify import required_level
    from generator.history import changes_since, read_lock
    from generator.load import load_spec

    folder = _spec_dir(root, format_id)
    releases = {r.version: r for r in read_lock(folder)}
    if not releases:
        raise SpecError(f"specs/{format_id}/spec.json", "/x-version", "no locked release to compare with", f"run `make bump FORMAT={format_id}`")
    release = releases.get(against or list(releases)[-1])
    if release is None:
        raise SpecError(f"specs/{format_id}/history/lock.json", "", f"version {against} is not locked", f"use one of: {', '.join(releases)}")
    changes = changes_since(folder, release, load_spec(folder, root), root)
    print(f"{format_id}: {len(changes)} change(s) since {release.version}; needs a {required_level(changes) or 'no'} bump")
    for change in changes:
        print(f"  {change}")
    return 0


def _spec_in_flight(exc: BaseException) -> str | None:
    """The spec an unforeseen error happened in: the innermost frame that holds one (as fmt, spec or self)."""
    tb = exc.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        shown = frame.f_locals.get("shown")
        if isinstance(shown, str) and shown.endswith(".json"):
            return shown
        for name in ("fmt", "spec", "self"):
            value = frame.f_locals.get(name)
            for holder in (value, getattr(value, "fmt", None), getattr(value, "spec", None)):
                for attr in ("source", "path"):
                    shown = getattr(holder, attr, None)
                    if isinstance(shown, str) and shown.endswith("spec.json"):
                        return shown
    return None


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        # Under a non-UTF-8 locale (LANG=C, PYTHONIOENCODING=ascii) non-ASCII text is escaped, not a crash.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        return _main(argv)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        detail = " ".join(str(exc).split())[:300]
        print(f"chatspec: {_spec_in_flight(exc) or 'specs/'}: internal error, please report it with this spec "
              f"({type(exc).__name__}: {detail})", file=sys.stderr)
        return 2


def _main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    root: Path = args.root
    try:
        if args.command == "bump":
            return _bump(root, args.format, args.to)
        if args.command == "diff":
            return _diff(root, args.format, args.against)
        if args.command == "vendor":
            return _vendor(root, args)
        files = generated_files(root)
    except SpecError as exc:
        print(f"chatspec: {exc}", file=sys.stderr)
        return 2
    out = root / "generated"
    if args.command == "check":
        diff = unified_diff(out, files)
        if diff:
            sys.stdout.write(diff)
            print("chatspec: generated/ is stale; run `make generate` and commit the result", file=sys.stderr)
            return 1
        print("chatspec: generated/ is up to date")
        return 0
    written, removed = write_tree(out, files)
    for path in written:
        print(f"wrote generated/{path}")
    for path in removed:
        print(f"removed generated/{path}")
    if not written and not removed:
        print("chatspec: generated/ is up to date")
    return 0

"""The chatspec command: the only part of the toolkit that writes files."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator import cache
from generator.build import generated_files
from generator.errors import SpecError, SpecErrors, did_you_mean
from generator.naming import format_id_problem
from generator.write import RefusedError, locked, reading, replace_file, unified_diff, write_tree, writing

if TYPE_CHECKING:
    from generator import ir
    from generator.load import LoadedSpec

# The subcommands import what they use when they run: a no-op `chatspec check` is
# answered from the cache without loading Jinja, jsonschema or black.


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chatspec")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class _Version(argparse.Action):
    """--version, looked up only when asked for (a no-op check should not pay for it)."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


DESCRIPTION = """\
Compile chat-format specs (specs/<format>/spec.json: JSON Schema 2020-12 plus
chatspec's x- keywords) to Python dataclasses with validators, Go structs with
validators, a TypeScript package with types, parsers and validators, exported
JSON Schema, pydantic models and Markdown docs, and keep each format's versions
locked (specs/<format>/history/)."""

EPILOG = """\
examples:
  chatspec generate                      write generated/ from specs/
  chatspec check                         exit 1 if generated/ is stale
  chatspec bump droidlet_chat            lock a spec's changes under the version they need
  chatspec diff droidlet_chat            list the changes since the latest locked release
  chatspec retire droidlet_chat 1        stop generating droidlet_chat_v1, the 1.x kept beside 2.x
  chatspec vendor --lang go --module example.com/chat --out ../app/chat

--root may come before or after the command.

environment:
  CHATSPEC_CACHE=off                     run without the cache ($XDG_CACHE_HOME/chatspec, ~/.cache/chatspec)
  CHATSPEC_CACHE_DIR=DIR                 keep the cache in DIR
  CHATSPEC_CACHE_MAX_MB=N                trim the cache back when past N MB (a whole number; default 256)
  CHATSPEC_TSC=FILE                      the pinned tsc (its bin/tsc) vendor --lang typescript compiles dist/ with
                                         (default: build/npm-ts of --root, then tsc on PATH)"""


def _parser(vendor_options: bool = True) -> argparse.ArgumentParser:
    """The command line; vendor_options=False leaves out vendor's per-language options, which
    read the target registry (importing every target's contract): only `vendor` needs them,
    and a no-op `chatspec check` should not pay for them."""
    # --root is accepted before and after the command: the subcommands take it too,
    # with a default that does not override one given before the command.
    root_help = "the project root holding specs/ and generated/ (default: the current folder)"
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=Path, default=argparse.SUPPRESS, help=root_help)
    parser = argparse.ArgumentParser(
        prog="chatspec", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--root", type=Path, default=Path("."), help=root_help)
    parser.add_argument("--version", action=_Version, help="print chatspec's version and exit")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="command", help="what to do (chatspec <command> --help explains each)"
    )

    def command(name: str, summary: str, description: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[common], help=summary, description=description)

    command(
        "generate",
        "write generated/ from specs/ (only changed files)",
        "Check every spec (and its version lock), then write generated/: python/, go/, typescript/, jsonschema/, "
        "pydantic/ and docs/, and msgspec/ where pyproject.toml's [tool.chatspec] says msgspec = true. Only files whose "
        "content changed are written; files chatspec no longer produces are removed. "
        "Every example the generated code disagrees with is reported in one run.",
    )
    command(
        "check",
        "exit 1 with a diff when generated/ is stale",
        "Do everything generate does except writing: print a unified diff and exit 1 when generated/ differs "
        "from what the specs produce, exit 2 when a spec is wrong or its version is not locked, else exit 0.",
    )
    bump = command(
        "bump",
        "lock a spec's changes under the version they need",
        "Classify the changes since the latest locked release (major, minor or patch), set x-version, "
        "snapshot the spec and its examples under specs/<format>/history/<version>/ and record the release "
        "in history/lock.json. A bump smaller than the changes need is refused.",
    )
    bump.add_argument("format", help="the format id (its folder under specs/), e.g. droidlet_chat")
    bump.add_argument(
        "--to",
        metavar="LEVEL|X.Y.Z",
        help="major, minor, patch (the number to raise), or a full version later than the latest locked release "
        "(default: the smallest bump the changes need, or the spec's own x-version if that is enough). "
        "In 0.x a breaking change needs only the minor number raised (0.2.0 -> 0.3.0) and any other change the patch "
        "number; major moves to 1.0.0",
    )
    retire = command(
        "retire",
        "stop generating an earlier major kept beside the latest",
        "Record in specs/<format>/history/lock.json that an earlier major (kept beside the latest as <format>_v<N>) "
        "is retired: generate, vendor and the docs leave it out. Its releases and snapshots stay in the lock and history/. "
        "Refused while the behaviour code of a generated major uses it.",
    )
    retire.add_argument("format", help="the format id (its folder under specs/), e.g. droidlet_chat")
    retire.add_argument("major", type=_major, help="the earlier major to retire, e.g. 1 (droidlet_chat_v1)")
    vendor = command(
        "vendor",
        "write the generated code of some formats for another repository",
        "Write the generated Python package, Go module or TypeScript package of some formats into another repository, "
        "under its own package name or module path. Only files chatspec vendored are replaced or removed.",
    )
    if vendor_options:
        _add_vendor_options(vendor)
    vendor.add_argument(
        "--out",
        type=Path,
        required=True,
        help=(
            "go: the module root; typescript: the package root (package.json, src/, dist/); python: the folder to hold the "
            "package folder, or the package folder itself when its last part is the package name (--out src and --out "
            "src/acme_chat both write src/acme_chat/). The folder may "
            "hold your own files: chatspec records what it writes in .chatspec-manifest.json and touches nothing else. "
            "A symlinked folder is written through, never replaced"
        ),
    )
    vendor.add_argument(
        "--formats",
        help="comma-separated format ids, e.g. chat_event,droidlet_chat (default: all, or none with --drop), vendored at their "
        "latest locked versions; the other formats the folder holds, vendored by earlier runs, are kept at their versions",
    )
    vendor.add_argument("--drop", help="comma-separated format ids to remove from the folder, e.g. chat_event")
    vendor.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 with a diff (paths relative to the vendored folder) when the vendored copy is stale",
    )
    adopt = command(
        "import",
        "write a spec from a published JSON Schema or OpenAPI document",
        "Translate a JSON Schema (draft-07, 2019-09, 2020-12) or OpenAPI 3.0/3.1 document, JSON or YAML, into "
        "specs/<format>/spec.json: the schema at #<pointer> (default: the document's root schema) and every definition it "
        "reaches, under identifier names, with what each OpenAPI and draft-07 construct means in JSON Schema 2020-12. "
        "What cannot be kept (a remote $ref, $id, $anchor, $dynamicRef, a construct chatspec cannot give its meaning) is "
        "listed with its pointer and nothing is written. Then run `chatspec bump <format>` and `chatspec generate`.",
    )
    adopt.add_argument("source", metavar="SOURCE[#POINTER]", help="e.g. openapi.yaml#/components/schemas/ChatMessage or schema.json")
    adopt.add_argument("--format", required=True, dest="format_id", help="the format id to write, e.g. openai_chat_message")
    adopt.add_argument(
        "--all", action="store_true", dest="keep_all", help="keep every definition of the document, not only those the root reaches"
    )
    adopt.add_argument(
        "--update",
        action="store_true",
        help="re-import over an existing spec (a newer version of the source); its x-version stays, so `chatspec diff` "
        "classifies the change and `chatspec bump` locks it",
    )
    diff = command(
        "diff",
        "print the classified changes of a spec since a locked release",
        "List every change since a locked release with its level, and the bump they need together. Writes nothing.",
    )
    diff.add_argument("format", help="the format id (its folder under specs/), e.g. droidlet_chat")
    diff.add_argument("--against", metavar="X.Y.Z", help="a locked version to compare with (default: the latest)")
    return parser


def _add_vendor_options(vendor: argparse.ArgumentParser) -> None:
    """--lang and each vendorable target's naming option (e.g. --package, --module), from the registry."""
    from generator.targets import vendorable

    languages = vendorable()
    vendor.add_argument("--lang", choices=list(languages), required=True, help=f"the language to vendor: {', '.join(languages)}")
    flags: dict[str, list[str]] = {}
    for target in languages.values():
        assert target.vendoring is not None
        flags.setdefault(target.vendoring.flag, []).append(target.vendoring.help)
    for flag, helps in flags.items():
        vendor.add_argument(flag, dest="vendor_name_" + flag.lstrip("-"), metavar=flag.lstrip("-").upper(), help="; ".join(helps))


def _major(text: str) -> int:
    """A major version as `retire` takes it: 1, not v1 or 1.0.0."""
    if not text.isdecimal() or not text.isascii():
        raise argparse.ArgumentTypeError(f"{text!r} is not a major version number (e.g. 1 for the 1.x kept as <format>_v1)")
    return int(text)


def _spec_dir(root: Path, format_id: str) -> Path:
    problem = format_id_problem(format_id)
    if problem is not None:  # also keeps e.g. "../x" from reaching outside specs/
        raise SpecError(f"specs/{format_id}/spec.json", None, *problem)
    folder = root / "specs" / format_id
    if not (folder / "spec.json").is_file():
        known = sorted(p.name for p in (root / "specs").glob("*/spec.json") for p in [p.parent]) if (root / "specs").is_dir() else []
        if not known:
            raise SpecError(
                f"specs/{format_id}/spec.json",
                None,
                f"no format {format_id!r}: there is no specs/ folder with specs in {root}",
                "run chatspec in the project folder (the one holding specs/), or name it with --root <project folder>",
            )
        raise SpecError(
            f"specs/{format_id}/spec.json",
            None,
            f"no format {format_id!r}{did_you_mean(format_id, known)}",
            f"use one of: {', '.join(known)}",
        )
    return folder


def _bump(root: Path, format_id: str, to: str | None) -> int:
    from generator.classify import required_level
    from generator.history import bump_spec

    spec_dir = _spec_dir(root, format_id)
    with locked(spec_dir, str(spec_dir)):  # another bump of this spec finishes first; this one reads what it locked
        version, changes = bump_spec(spec_dir, root, to)
    print(f"{format_id}: locked {version}" + (f" ({required_level(changes)} change)" if changes else " (initial release)"))
    for change in changes:
        print(f"  {change}")
    print("now run `make generate` and commit specs/ and generated/ together")
    return 0


def _retire(root: Path, format_id: str, major: int) -> int:
    from generator.retire import retire_major

    spec_dir = _spec_dir(root, format_id)
    with locked(spec_dir, str(spec_dir)):
        last = retire_major(spec_dir, root, major)
    print(f"{format_id}: retired {major}.x (last release {last}): {format_id}_v{major} is no longer generated, vendored or documented")
    print("now run `make generate` and commit specs/ and generated/ together")
    return 0


def _vendor(root: Path, args: argparse.Namespace) -> int:
    from generator.targets import vendorable
    from generator.vendor import refuse_project_folders, target_folder

    vendoring = vendorable()[args.lang].vendoring
    assert vendoring is not None
    name = getattr(args, "vendor_name_" + vendoring.flag.lstrip("-"))
    if not name:
        print(f"chatspec: vendor --lang {args.lang} needs {vendoring.flag}", file=sys.stderr)
        return 2
    formats = [f.strip() for f in args.formats.split(",")] if args.formats else None
    drop = [f.strip() for f in args.drop.split(",")] if args.drop else []
    folder = target_folder(args.out, args.lang, name)
    refuse_project_folders(root, folder)
    # Locked before what the folder holds is read (the formats it keeps): a run that waited works from what the other left.
    with reading(folder, str(folder)) if args.check else writing(folder, str(folder)):
        return _vendor_into(root, args, folder, name, formats, drop)


def _vendor_into(root: Path, args: argparse.Namespace, folder: Path, name: str, formats: list[str] | None, drop: list[str]) -> int:
    from generator.vendor import refuse_project_folders, vendored_by_old_chatspec, vendored_files

    with cache.active(cache.open_folder(root)):
        vendored = vendored_files(root, args.lang, name, formats, folder, drop)
    files, record = vendored.files, vendored.record
    refuse_project_folders(root, folder, files)  # a Go package of the module may be a folder of the project
    for note in vendored.notes:
        print(f"chatspec: note: {note}", file=sys.stderr)
    legacy = vendored_by_old_chatspec(folder)
    if args.check:
        diff = unified_diff(folder, files, str(folder), legacy, diff_prefix="", record=record)
        if diff:
            sys.stdout.write(diff)
            print(f"chatspec: {folder} is stale; run the vendor command again and commit the result", file=sys.stderr)
            return 1
        print(f"chatspec: {folder} is up to date")
        return 0
    written, removed = write_tree(folder, files, str(folder), legacy, record)
    held = ", ".join(f"{format_id} {version}" for format_id, (version, _) in vendored.formats.items())
    print(f"chatspec: vendored {len(files)} file(s) into {folder} ({len(written)} written, {len(removed)} removed); it holds {held}")
    misplaced = folder / name
    if args.lang == "python" and vendored_by_old_chatspec(misplaced):
        print(
            f"chatspec: note: {misplaced} is a copy an older chatspec vendored one level too deep; "
            f"delete it once nothing imports it (the package now lives in {folder})",
            file=sys.stderr,
        )
    return 0


def _other_formats(root: Path, format_id: str) -> list[tuple[LoadedSpec, ir.Format]]:
    """The project's other specs, loaded and lowered, that import checks a new one's names beside; none when one of
    them does not load (generate then says so, about that spec)."""
    from generator.core import discover
    from generator.lower import lower

    try:
        specs = [s for s in discover(root / "specs", root) if s.format_id != format_id]
        return [(s, lower(s)) for s in specs]
    except (SpecError, SpecErrors):
        return []


def _import(root: Path, source: str, format_id: str, keep_all: bool, update: bool) -> int:
    import tempfile

    from generator.core import context
    from generator.examples import schema_problems
    from generator.export import export
    from generator.importing import ImportRefused, carry_edits, import_schema, problems_text, read_source
    from generator.load import check_format_ids, check_values, load_spec, refuse_symlinks
    from generator.lower import lower
    from generator.options import load_options
    from generator.targets import REGISTRY

    problem = format_id_problem(format_id)
    if problem is not None:
        raise SpecError(f"specs/{format_id}/spec.json", None, *problem)
    path_text, _, pointer = source.partition("#")
    path = Path(path_text)
    target = root / "specs" / format_id / "spec.json"
    # The spec is written into the project, never through a link out of it (which the loader then refuses to read).
    refuse_symlinks(target.parent, root)
    if target.exists() and not update:
        raise SpecError(
            f"specs/{format_id}/spec.json", None, "the format exists already", "re-import over it with --update, or choose another --format"
        )
    if update and not target.exists():
        raise SpecError(f"specs/{format_id}/spec.json", None, "there is no spec to update", "import it first, without --update")
    try:
        document = read_source(path)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise SpecError(path_text, None, f"cannot read the source: {exc}", "give a JSON or YAML (.yaml, .yml) file") from None
    current: object = None
    if update:
        try:
            current = json.loads(target.read_text(encoding="utf-8"))
        except RecursionError:
            raise SpecError(
                f"specs/{format_id}/spec.json", None, "cannot read the spec to update: it nests too deeply", "fix or remove it"
            ) from None
        except (OSError, ValueError) as exc:
            raise SpecError(f"specs/{format_id}/spec.json", None, f"cannot read the spec to update: {exc}", "fix or remove it") from None
    # The document's root schema keeps the name the spec gave it (its definitions keep their own).
    ref = current.get("$ref") if isinstance(current, dict) else None
    kept_root = ref.rpartition("/")[2] or None if isinstance(ref, str) else None
    try:
        imported = import_schema(document, path_text, pointer, format_id, keep_all, root_name=kept_root)
    except RecursionError:
        raise SpecError(
            path_text, None, "its schemas nest too deeply to translate", "import a definition nested less deeply (#<pointer>)"
        ) from None
    except ImportRefused as refused:
        print(f"chatspec: {path_text}: {len(refused.problems)} construct(s) cannot be imported; nothing was written:", file=sys.stderr)
        for line in problems_text(refused):
            print(line, file=sys.stderr)
        return 2
    spec = imported.spec
    if isinstance(current, dict) and isinstance(current.get("x-version"), str):
        spec["x-version"] = current["x-version"]
    # The edits made in the spec since (x-name, x-compatibility, x-rules, ...) are kept where the new import has
    # their place; one whose place is gone is not dropped in silence.
    carried, lost = carry_edits(current, spec, imported.renamed.values()) if update else ([], [])
    if lost:
        raise SpecError(
            f"specs/{format_id}/spec.json",
            lost[0],
            f"the new import has no place for {len(lost)} edit(s) made in the spec: {', '.join(lost)}",
            "move each where it belongs in the spec, or remove it, and run the import again (nothing was written)",
        )
    text = json.dumps(spec, indent=2, ensure_ascii=False) + "\n"
    # What chatspec itself refuses (generate's checks of the spec, its defaults among them) is found before anything
    # is written: the spec is checked in a scratch project.
    with tempfile.TemporaryDirectory(prefix="chatspec-import-") as scratch:
        folder = Path(scratch) / "specs" / format_id
        folder.mkdir(parents=True)
        try:
            # (Text no target can emit, a lone surrogate among it, is said where it is: it cannot even be written.)
            check_values(spec, f"specs/{format_id}/spec.json", numbers=False)
            (folder / "spec.json").write_text(text, encoding="utf-8")
            loaded = load_spec(folder, Path(scratch))
            fmt = lower(loaded)
            problems = schema_problems(loaded, fmt, export(fmt))
            if not problems:
                # The names every target gives it, beside the project's other formats and with its options (a field
                # a_b beside a-b, a definition named ValidationError, two formats one Go package).
                others = _other_formats(root, format_id)
                check_format_ids([*(s for s, _ in others), loaded], [t.module for t in REGISTRY if t.module is not None])
                context([*(s for s, _ in others), loaded], (*(f for _, f in others), fmt), load_options(root), described=False)
        except SpecError as exc:
            problems = [exc]
        if problems:
            print(f"chatspec: {path_text}: chatspec refuses the translated spec; nothing was written:", file=sys.stderr)
            for error in [e for p in problems for e in (p.errors if isinstance(p, SpecErrors) else [p])]:
                print(f"  {error}", file=sys.stderr)
                edit = next((c for c in carried if (error.pointer or "") == c or (error.pointer or "").startswith(c + "/")), None)
                origin = imported.source_pointer(error.pointer)
                if edit is not None:
                    print(f"  an edit of the spec's, kept by --update: {edit}", file=sys.stderr)
                elif origin is not None:
                    print(f"  in the source: {path.name}#{origin}", file=sys.stderr)
            return 2
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, text)  # a temporary file renamed over the spec: a run cut short leaves it old or new
    print(
        f"{format_id}: imported {spec['$ref'].rsplit('/', 1)[1]} and {len(imported.kept) - 1} definition(s) it reaches from {path.name} into specs/{format_id}/spec.json"
    )
    for old, new in sorted(imported.renamed.items()):
        print(f"  renamed {old!r} -> {new}")
    for pointer in carried:
        print(f"  kept the spec's own {pointer}")
    for note in imported.notes:
        print(f"  note at {note.pointer}: {note.reason}")
    print(
        f"now run `chatspec bump {format_id}` and `chatspec generate`"
        if not update
        else f"now run `chatspec diff {format_id}` and `chatspec bump {format_id}`"
    )
    return 0


def _diff(root: Path, format_id: str, against: str | None) -> int:
    from generator.classify import required_level
    from generator.compatibility import verdicts
    from generator.history import changes_since, read_lock
    from generator.load import load_spec

    folder = _spec_dir(root, format_id)
    releases = {r.version: r for r in read_lock(folder)}
    if not releases:
        raise SpecError(
            f"specs/{format_id}/spec.json", "/x-version", "no locked release to compare with", f"run `make bump FORMAT={format_id}`"
        )
    release = releases.get(against or list(releases)[-1])
    if release is None:
        raise SpecError(
            f"specs/{format_id}/history/lock.json",
            None,
            f"version {against} is not locked{did_you_mean(against, releases)}",
            f"use one of: {', '.join(releases)}, e.g. `chatspec diff {format_id} --against {list(releases)[-1]}`",
        )
    spec = load_spec(folder, root)
    changes = changes_since(folder, release, spec, root)
    level = required_level(changes)
    print(f"{format_id}: {len(changes)} change(s) since {release.version}; needs {f'a {level} bump' if level else 'no bump'}")
    promise = spec.document.get("x-compatibility", "none")
    print(f"  compatibility promised (x-compatibility): {promise}" + ("" if promise != "none" else " (only what the version number says)"))
    for change in changes:
        print(f"  {change}")
        print(f"      {verdicts(change)}")
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
    except KeyboardInterrupt:
        # Every file is old or new and the manifest says which: the next run finishes the job.
        print("chatspec: interrupted; run the command again to finish", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, never a traceback
        detail = " ".join(str(exc).split())[:300]
        print(
            f"chatspec: {_spec_in_flight(exc) or 'specs/'}: internal error, please report it with this spec "
            f"({type(exc).__name__}: {detail})",
            file=sys.stderr,
        )
        return 2


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _parser(vendor_options="vendor" in argv).parse_args(argv)
    root: Path = args.root
    try:
        if args.command == "bump":
            return _bump(root, args.format, args.to)
        if args.command == "diff":
            return _diff(root, args.format, args.against)
        if args.command == "retire":
            return _retire(root, args.format, args.major)
        if args.command == "vendor":
            return _vendor(root, args)
        if args.command == "import":
            # --update reads the spec and writes it back: it waits for a bump of the spec (which holds its folder).
            spec_dir = root / "specs" / args.format_id
            hold = args.update and format_id_problem(args.format_id) is None and spec_dir.is_dir() and not spec_dir.is_symlink()
            with locked(spec_dir, f"specs/{args.format_id}/") if hold else contextlib.nullcontext():
                return _import(root, args.source, args.format_id, args.keep_all, args.update)
    except (SpecError, RefusedError) as exc:
        for error in exc.errors if isinstance(exc, SpecErrors) else [exc]:  # several examples: each on its own
            print(f"chatspec: {error}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"chatspec: cannot write {exc.filename or 'the output'}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    out = root / "generated"
    try:
        # generated/ is locked before the specs are read: a run that waited for another reads the specs as they are then.
        with reading(out, "generated") if args.command == "check" else writing(out, "generated"):
            files = generated_files(root)
            if args.command == "check":
                diff = unified_diff(out, files, "generated")
                if diff:
                    sys.stdout.write(diff)
                    print("chatspec: generated/ is stale; run `make generate` and commit the result", file=sys.stderr)
                    return 1
                print("chatspec: generated/ is up to date")
                return 0
            written, removed = write_tree(out, files, "generated")
    except (SpecError, RefusedError) as exc:
        for error in exc.errors if isinstance(exc, SpecErrors) else [exc]:
            print(f"chatspec: {error}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"chatspec: cannot write {exc.filename or 'generated/'}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote generated/{path}")
    for path in removed:
        print(f"removed generated/{path}")
    if not written and not removed:
        print("chatspec: generated/ is up to date")
    return 0

"""vendor: the generated code of some formats, for another repository, under its own names.

Python under another package name, Go under another module path, TypeScript under another npm
name: the same generator, so the same bytes a golden test locks, with nothing left that names
chatformats. A stub, CHATSPEC.md, records the spec versions and the command that made it (not
README.md: the folder may be a module root holding the user's README). What chatspec owns in the
folder is recorded in its manifest (see generator/write.py).

One folder, several runs. The manifest also records what was vendored there: the language, the
name and, per format, the version and the files that format owns (the rest, a runtime, go.mod,
the package's __init__.py or index, are shared). A run vendors the formats it is given at their
latest locked versions and keeps every other format the folder holds at the version recorded for
it (read from that release's snapshot), so the shared files serve them all and a second run never
removes the packages of the first. `--drop` removes formats; a retired major is dropped by itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from generator.core import check_versions, discover, generate
from generator.errors import SpecError, did_you_mean
from generator.history import earlier_majors, load_release, major_of, read_lock, read_retired
from generator.load import LoadedSpec
from generator.render import header
from generator.targets import vendorable
from generator.targets.base import Vendoring
from generator.write import MANIFEST, RefusedError, read_manifest

MARKER = "Vendored by chatspec"
STUB = "CHATSPEC.md"


@dataclass(frozen=True)
class Vendored:
    files: dict[str, str]  # path under the vendored folder -> text
    lang: str  # e.g. "go"
    name: str  # e.g. "example.com/acme/chat"
    formats: dict[str, tuple[str, list[str]]]  # format id -> (version, the files it owns), e.g. {"chat_event": ("1.0.0", [...])}
    notes: list[str] = field(default_factory=list)  # what the run did that it was not asked to, e.g. a retired major dropped

    @property
    def record(self) -> dict[str, object]:
        """The manifest's "vendored" section: what the next run into the folder keeps."""
        formats = {fid: {"version": version, "files": files} for fid, (version, files) in self.formats.items()}
        return {"lang": self.lang, "name": self.name, "formats": formats}


def vendored_files(
    root: Path,
    lang: str,
    name: str,
    formats: list[str] | None,
    folder: Path | None = None,
    drop: Iterable[str] = (),
) -> Vendored:
    """The files of the vendored folder for the target lang (e.g. "python") named `name`: the formats
    given (all when None, none when only dropping) at their latest locked versions, and every other
    format the folder at `folder` holds at its recorded version, but those dropped."""
    vendoring = _vendoring(lang)
    vendoring.check(name)
    specs = discover(root / "specs", root)
    check_versions(root / "specs", root, specs)
    known = [s.format_id for s in specs]
    dropped = set(drop)
    held = _held(folder, lang, name, vendoring) if folder is not None else {}
    wanted = set(formats if formats is not None else [] if dropped else known)
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SpecError("specs/", "", f"no format {', '.join(map(repr, unknown))}", f"use some of: {', '.join(known)}")
    both = sorted(wanted & dropped)
    if both:
        raise RefusedError(f"--drop {','.join(both)}", "names formats --formats vendors", "name each format in one of the two options")
    not_held = sorted(dropped - set(held))
    if not_held:
        hint = did_you_mean(not_held[0], held) or ""
        raise RefusedError(
            f"--drop {','.join(not_held)}",
            f"the folder holds no such format{hint}",
            f"drop some of the formats it holds: {', '.join(held) or 'none'}",
        )
    # A latest major brings its earlier ones (kept releases under its history/): its upgrade code imports them.
    staying = (set(held) | wanted) - dropped
    alone = sorted(f for f in dropped if (base := f.rpartition("_v")[0]) in staying and _earlier_major_of(f, {base}))
    if alone:
        base, _, major = alone[0].rpartition("_v")
        raise RefusedError(
            f"--drop {','.join(alone)}",
            f"{alone[0]} comes with {base}, which the folder keeps (its upgrade code may import it)",
            f"drop {base} too (--drop {base}), or retire {major}.x (chatspec retire {base} {major}) and vendor again",
        )
    chosen = [s for s in specs if s.format_id in wanted or _kept_beside(s, wanted)]
    kept, notes = _kept(root, held, {s.format_id for s in chosen}, wanted | dropped, {s.format_id: s for s in specs})
    every = sorted(chosen + kept, key=_order)
    if not every:
        raise RefusedError(
            str(folder),
            f"--drop {','.join(sorted(dropped))} would leave no format in the folder",
            f"to remove chatspec's files, delete the files {MANIFEST} lists, then the manifest",
        )
    owners: dict[str, str] = {}
    files = generate(every, targets=[lang], options=vendoring.options(name), owners=owners)
    prefix = vendoring.subtree(name)
    out = {path[len(prefix) :]: text for path, text in files.items() if path.startswith(prefix)}
    owner = {path[len(prefix) :]: format_id for path, format_id in owners.items() if path.startswith(prefix)}
    if vendoring.build is not None:
        for path, (text, source) in vendoring.build(out, root).items():
            out[path], owner[path] = text, owner.get(source, "")
    ids = [s.format_id for s in every]
    command = f"chatspec vendor --lang {lang} {vendoring.flag} {name} --out <dir>"
    if set(ids) != set(known):
        command += f" --formats {','.join(i for i in ids if not _earlier_major_of(i, set(ids)))}"
    rows = "\n".join(f"| `{s.format_id}` | {s.document['x-version']} | `{s.path}` |" for s in every)
    out[STUB] = (
        f"<!-- {header(None)} -->\n\n# {MARKER}: `{name}`\n\n"
        "Generated from these specs; regenerate instead of editing:\n\n"
        f"| Format | Version | Spec |\n|---|---|---|\n{rows}\n\n"
        f"```sh\n{command}\n```\n"
    )
    owned = {s.format_id: (str(s.document["x-version"]), sorted(p for p, o in owner.items() if o == s.format_id)) for s in every}
    return Vendored(dict(sorted(out.items())), lang, name, owned, notes)


def _order(spec: LoadedSpec) -> tuple[str, int, int]:
    """discover's order: by spec folder, the latest major first, then its earlier majors oldest first."""
    folder = spec.path.split("/")[1]
    base, _, major = spec.format_id.rpartition("_v")
    return (folder, 0, 0) if spec.format_id == folder else (folder, 1, int(major) if base == folder and major.isdigit() else 0)


def _held(folder: Path, lang: str, name: str, vendoring: Vendoring) -> dict[str, str]:
    """The formats the folder holds (format id -> version), from its manifest; a folder of another
    language or name is refused (their shared files, go.mod, package.json, cannot serve both)."""
    manifest = read_manifest(folder, str(folder))
    if manifest is None:
        return {}
    record = manifest.record if manifest.record is not None else _record_from_stub(folder)
    if record is None:
        return {}
    held_lang, held_name, formats = (record.get(k) for k in ("lang", "name", "formats")) if isinstance(record, dict) else (None,) * 3
    entries = formats.items() if isinstance(formats, dict) else []
    held = {fid: entry.get("version") for fid, entry in entries if isinstance(entry, dict)}
    readable = isinstance(held_lang, str) and isinstance(held_name, str) and isinstance(formats, dict) and len(held) == len(formats)
    # Ids and versions become paths under specs/ (a release's snapshot): only what chatspec writes is read.
    if not readable or not all(isinstance(v, str) and _ID.fullmatch(f) and _VERSION.fullmatch(v) for f, v in held.items()):
        raise RefusedError(
            f"{folder}/{MANIFEST}",
            'records no "vendored" section chatspec can read (lang, name, formats)',
            "restore the manifest from your version control; chatspec writes it",
        )
    if held_lang != lang:
        raise RefusedError(
            str(folder),
            f"holds the {held_lang} code of {', '.join(held)}, vendored by chatspec; one folder holds one language",
            f"vendor --lang {lang} into a folder of its own",
        )
    if held_name != name:
        flag = vendoring.flag
        raise RefusedError(
            str(folder),
            f"holds {', '.join(held)} vendored as {flag} {held_name}; one folder is one {flag.lstrip('-')}",
            f"vendor with {flag} {held_name} to add formats to it, or into another folder",
        )
    return {f: str(v) for f, v in held.items()}


_ID = re.compile(r"[a-z][a-z0-9_]*")
_VERSION = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")
_ROW = re.compile(r"^\| `([a-z][a-z0-9_]*)` \| ([0-9]+\.[0-9]+\.[0-9]+) \| `[^`]*` \|$", re.M)
_COMMAND = re.compile(r"^chatspec vendor --lang (\S+) --\S+ (\S+) --out <dir>", re.M)


def _record_from_stub(folder: Path) -> dict[str, object] | None:
    """What a folder vendored before the manifest recorded its formats holds, read from its CHATSPEC.md."""
    try:
        text = (folder / STUB).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    command = _COMMAND.search(text)
    if command is None:
        return None
    return {"lang": command.group(1), "name": command.group(2), "formats": {f: {"version": v} for f, v in _ROW.findall(text)}}


def _kept(
    root: Path, held: dict[str, str], chosen: set[str], named: set[str], current: dict[str, LoadedSpec]
) -> tuple[list[LoadedSpec], list[str]]:
    """The specs of the formats the folder holds that this run neither vendors nor drops, each at its
    recorded version; and a note for each retired major left out."""
    kept: list[LoadedSpec] = []
    notes: list[str] = []
    for fid, version in held.items():
        if fid in chosen or fid in named or _earlier_major_of(fid, named):
            continue
        base, _, major = fid.rpartition("_v")
        earlier = not (root / "specs" / fid / "spec.json").is_file() and major.isdigit() and bool(base)
        spec_dir = root / "specs" / (base if earlier else fid)
        drop = f"drop it: --drop {fid}"
        releases = [r.version for r in read_lock(spec_dir)] if (spec_dir / "spec.json").is_file() else []
        if version not in releases:
            raise SpecError(
                f"specs/{spec_dir.name}/history/lock.json",
                None,
                f"{fid} {version}, which the vendored folder holds, is not a locked release here",
                f"vendor from the specs it was vendored from (--root), or {drop}",
            )
        if earlier:
            if int(major) in read_retired(spec_dir):
                notes.append(f"{fid} ({version}) is retired (specs/{spec_dir.name}/history/lock.json): its files are removed")
                continue
            kept.append(load_release(spec_dir, version, root, format_id=fid))
            continue
        latest = releases[-1]
        if major_of(version) != major_of(latest):
            kept_as = [f"{fid}_v{major_of(r.version)}" for r in earlier_majors(spec_dir) if r.version == version]
            raise SpecError(
                f"specs/{fid}/spec.json",
                "/x-version",
                f"the vendored folder holds {fid} {version}, but {fid} is at {latest} now: {major_of(version)}.x is "
                + (f"kept as {kept_as[0]}" if kept_as else "no longer generated"),
                f"vendor it again to move to {latest}: add --formats {fid}, or {drop}",
            )
        spec = current[fid]
        kept.append(spec if spec.document["x-version"] == version else load_release(spec_dir, version, root))
    return kept, notes


def _vendoring(lang: str) -> Vendoring:
    vendoring = vendorable()[lang].vendoring
    assert vendoring is not None
    return vendoring


def target_folder(out: Path, lang: str, name: str) -> Path:
    """Where the target's files land for --out (e.g. Go: the module root; Python: <out>/<package>/)."""
    return _vendoring(lang).folder(out, name)


def refuse_project_folders(root: Path, folder: Path, files: Iterable[str] = ()) -> None:
    """Refuse a vendored folder, or a file vendoring would write there, inside the project's own generated/ or specs/
    (.. and symbolic links resolved), before anything is written: vendoring into generated/ would take over
    generate's files (its manifest would be read as vendor's and the files vendor does not write removed), and a
    folder under specs/ is read as a format by every later run. The files matter where the folder is above those
    two: a Go module vendored at the project's root holds a folder per format's package, and a format whose package
    is named generated (id gene_rated) or specs would land in them."""
    for where in (folder, *(folder / name for name in files)):
        resolved = where.resolve()
        for name, why in (
            ("generated", "`chatspec generate` owns it: vendor would replace or remove generate's files there, and generate vendor's"),
            ("specs", "every folder there is read as a format, so every later run would fail on it"),
        ):
            owned = (root / name).resolve()
            if resolved == owned or owned in resolved.parents:
                raise RefusedError(
                    str(where),
                    f"is inside this project's {name}/ ({owned}); {why}",
                    "vendor into a folder of the repository that uses the code (e.g. --out ../app/chat), "
                    f"outside {root / 'generated'} and {root / 'specs'}",
                )


def _earlier_major_of(format_id: str, wanted: set[str]) -> bool:
    """Whether the id names an earlier major of a format of `wanted` (droidlet_chat_v1 of droidlet_chat)."""
    base, _, major = format_id.rpartition("_v")
    return major.isdigit() and base in wanted


def _kept_beside(spec: LoadedSpec, wanted: set[str]) -> bool:
    """Whether the spec is an earlier major kept beside a format of `wanted` (a release under its history/)."""
    base = spec.format_id.rpartition("_v")[0]
    return _earlier_major_of(spec.format_id, wanted) and spec.path.startswith(f"specs/{base}/history/")


def vendored_by_old_chatspec(folder: Path) -> bool:
    """A folder an older chatspec vendored (no manifest; README.md with the marker): it owned the folder whole."""
    readme = folder / "README.md"
    # Exactly the stub the older chatspec wrote (its first two lines), not any README that mentions it.
    stub = f"<!-- {header(None)} -->\n\n# {MARKER}: `".encode()
    try:
        return readme.is_file() and not readme.is_symlink() and readme.read_bytes().startswith(stub)
    except OSError:
        return False

"""vendor: the generated code of some formats, for another repository, under its own names.

Python under another package name, Go under another module path: the same
generator, so the same bytes a golden test locks, with nothing left that names
chatformats. A stub, CHATSPEC.md, records the spec versions and the command that
made it (not README.md: the folder may be a module root holding the user's README).
What chatspec owns in the folder is recorded in its manifest (see generator/write.py).
"""

from __future__ import annotations

from pathlib import Path

from generator.core import check_versions, discover, generate
from generator.errors import SpecError
from generator.load import LoadedSpec
from generator.render import header
from generator.targets import vendorable
from generator.targets.base import Vendoring
from generator.write import RefusedError

MARKER = "Vendored by chatspec"
STUB = "CHATSPEC.md"


def vendored_files(root: Path, lang: str, name: str, formats: list[str] | None) -> dict[str, str]:
    """{path under the vendored folder: text} for the target lang (e.g. "python") named `name`."""
    vendoring = _vendoring(lang)
    vendoring.check(name)
    specs = discover(root / "specs", root)
    check_versions(root / "specs", root, specs)
    known = [s.format_id for s in specs]
    wanted = set(formats or known)
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SpecError("specs/", "", f"no format {', '.join(map(repr, unknown))}", f"use some of: {', '.join(known)}")
    # A latest major brings its earlier ones (kept releases under its history/): its upgrade code imports them.
    chosen = [s for s in specs if s.format_id in wanted or _earlier_major_of(s, wanted)]
    files = generate(chosen, targets=[lang], options=vendoring.options(name))
    prefix = vendoring.subtree(name)
    out = {path[len(prefix) :]: text for path, text in files.items() if path.startswith(prefix)}
    command = f"chatspec vendor --lang {lang} {vendoring.flag} {name} --out <dir>"
    if formats:
        command += f" --formats {','.join(sorted(wanted))}"
    rows = "\n".join(f"| `{s.format_id}` | {s.document['x-version']} | `{s.path}` |" for s in chosen)
    out[STUB] = (
        f"<!-- {header(None)} -->\n\n# {MARKER}: `{name}`\n\n"
        "Generated from these specs; regenerate instead of editing:\n\n"
        f"| Format | Version | Spec |\n|---|---|---|\n{rows}\n\n"
        f"```sh\n{command}\n```\n"
    )
    return dict(sorted(out.items()))


def _vendoring(lang: str) -> Vendoring:
    vendoring = vendorable()[lang].vendoring
    assert vendoring is not None
    return vendoring


def target_folder(out: Path, lang: str, name: str) -> Path:
    """Where the target's files land for --out (e.g. Go: the module root; Python: <out>/<package>/)."""
    return _vendoring(lang).folder(out, name)


def refuse_project_folders(root: Path, folder: Path) -> None:
    """Refuse a vendored folder inside the project's own generated/ or specs/ (.. and symbolic links
    resolved), before anything is written: vendoring into generated/ would take over generate's files
    (its manifest would be read as vendor's and the files vendor does not write removed), and a folder
    under specs/ is read as a format by every later run."""
    where = folder.resolve()
    for name, why in (
        ("generated", "`chatspec generate` owns it: vendor would replace or remove generate's files there, and generate vendor's"),
        ("specs", "every folder there is read as a format, so every later run would fail on it"),
    ):
        owned = (root / name).resolve()
        if where == owned or owned in where.parents:
            raise RefusedError(
                str(folder),
                f"is inside this project's {name}/ ({owned}); {why}",
                "vendor into a folder of the repository that uses the code (e.g. --out ../app/chat), "
                f"outside {root / 'generated'} and {root / 'specs'}",
            )


def _earlier_major_of(spec: LoadedSpec, wanted: set[str]) -> bool:
    base, _, major = spec.format_id.rpartition("_v")
    return major.isdigit() and base in wanted and spec.path.startswith(f"specs/{base}/history/")


def vendored_by_old_chatspec(folder: Path) -> bool:
    """A folder an older chatspec vendored (no manifest; README.md with the marker): it owned the folder whole."""
    readme = folder / "README.md"
    # Exactly the stub the older chatspec wrote (its first two lines), not any README that mentions it.
    stub = f"<!-- {header(None)} -->\n\n# {MARKER}: `".encode()
    try:
        return readme.is_file() and not readme.is_symlink() and readme.read_bytes().startswith(stub)
    except OSError:
        return False

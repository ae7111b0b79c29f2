"""vendor: the generated code of some formats, for another repository, under its own names.

Python under another package name, Go under another module path: the same
generator, so the same bytes a golden test locks, with nothing left that names
chatformats. A README stub records the spec versions and the command that made it.
"""

from __future__ import annotations

from pathlib import Path

from generator.core import check_versions, discover, generate
from generator.errors import SpecError
from generator.options import Options
from generator.render import header
from generator.write import read_tree

MARKER = "Vendored by chatspec"


def vendored_files(root: Path, lang: str, name: str, formats: list[str] | None) -> dict[str, str]:
    """{path under the vendored folder: text} for lang ("python" or "go") named `name`."""
    specs = discover(root / "specs", root)
    check_versions(root / "specs", root, specs)
    known = [s.format_id for s in specs]
    wanted = set(formats or known)
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SpecError("specs/", "", f"no format {', '.join(map(repr, unknown))}", f"use some of: {', '.join(known)}")
    # A latest major brings its earlier ones: its upgrade code imports them.
    chosen = [s for s in specs if s.format_id in wanted or s.format_id.rsplit("_v", 1)[0] in wanted]
    options = Options(python_package=name) if lang == "python" else Options(go_module=name)
    files = generate(chosen, targets=[lang], options=options)
    prefix = f"python/{name}/" if lang == "python" else "go/"
    out = {path[len(prefix):]: text for path, text in files.items() if path.startswith(prefix)}
    command = f"chatspec vendor --lang {lang} {'--package' if lang == 'python' else '--module'} {name} --out <dir>"
    if formats:
        command += f" --formats {','.join(sorted(wanted))}"
    rows = "\n".join(f"| `{s.format_id}` | {s.document['x-version']} | `{s.path}` |" for s in chosen)
    out["README.md"] = (
        f"<!-- {header(None)} -->\n\n# {MARKER}: `{name}`\n\n"
        "Generated from these specs; regenerate instead of editing:\n\n"
        f"| Format | Version | Spec |\n|---|---|---|\n{rows}\n\n"
        f"```sh\n{command}\n```\n"
    )
    return dict(sorted(out.items()))


def target_folder(out: Path, lang: str, name: str) -> Path:
    """Python goes to <out>/<package>/, Go to <out>/ (the module root)."""
    return out / name if lang == "python" else out


def ensure_ours(folder: Path) -> None:
    """Refuse to overwrite a folder chatspec did not vendor: write_tree removes what it does not produce."""
    existing = read_tree(folder)
    if existing and MARKER not in existing.get("README.md", ""):
        raise SpecError(folder.as_posix(), "", "the folder holds files chatspec did not vendor",
                        "vendor into an empty folder, or one chatspec vendored before")

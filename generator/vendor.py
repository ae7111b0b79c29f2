"""vendor: the generated code of some formats, for another repository, under its own names.

Python under another package name, Go under another module path: the same
generator, so the same bytes a golden test locks, with nothing left that names
chatformats. A stub, CHATSPEC.md, records the spec versions and the command that
made it (not README.md: the folder may be a module root holding the user's README).
What chatspec owns in the folder is recorded in its manifest (see generator/write.py).
"""

from __future__ import annotations

import keyword
import os
import re
import sys
from pathlib import Path

from generator.core import check_versions, discover, generate
from generator.errors import SpecError
from generator.load import LoadedSpec
from generator.options import Options
from generator.render import header
from generator.write import RefusedError

MARKER = "Vendored by chatspec"
STUB = "CHATSPEC.md"
_GO_ELEMENT = re.compile(r"[A-Za-z0-9._~-]+")
_GO_HOST = re.compile(r"[a-z0-9.-]+")
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def check_package(name: str) -> None:
    """`vendor --package`: an importable top-level Python package name that shadows nothing."""
    def refuse(why: str) -> RefusedError:
        return RefusedError(f"--package {name!r}", why, "choose a lowercase Python identifier such as acme_chat, e.g. "
                            "`chatspec vendor --lang python --package acme_chat --out src/`")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise refuse("is not a Python identifier (ASCII letters, digits and _, not starting with a digit)")
    if keyword.iskeyword(name):
        raise refuse("is a Python keyword, so `import` cannot name it")
    if name.startswith("__"):
        raise refuse("starts with __, which Python reserves (and __pycache__ is a cache folder)")
    if name in sys.stdlib_module_names:
        raise refuse("is a standard-library module: the package would shadow it, and the generated code imports the standard library")


def check_module(path: str) -> None:
    """`vendor --module`: a Go module path `go` accepts (golang.org/x/mod/module.CheckPath, without a version suffix)."""
    def refuse(why: str) -> RefusedError:
        return RefusedError(f"--module {path!r}", why, "use a path such as example.com/acme/chat, e.g. "
                            "`chatspec vendor --lang go --module example.com/acme/chat --out third_party/chat/`")
    if not path or path.startswith("/") or path.endswith("/") or "//" in path:
        raise refuse("must be slash-separated path elements, with no leading, trailing or doubled slash")
    elements = path.split("/")
    for element in elements:
        if not _GO_ELEMENT.fullmatch(element):
            raise refuse(f"has the element {element!r}: Go allows only ASCII letters, digits and . _ - ~ in a module path")
        if element.startswith(".") or element.endswith("."):
            raise refuse(f"has the element {element!r}, which starts or ends with a dot")
        if element.split(".")[0].lower() in _WINDOWS_RESERVED:
            raise refuse(f"has the element {element!r}, a reserved file name on Windows")
        if re.search(r"~[0-9]+$", element.split(".")[0]):
            raise refuse(f"has the element {element!r}, which looks like a Windows short name")
    host = elements[0]
    if not _GO_HOST.fullmatch(host) or "." not in host or host.startswith("-"):
        raise refuse(f"starts with {host!r}: the first element must be a lowercase domain name with a dot "
                     "(Go reserves dot-less paths for its standard library)")
    if len(elements) > 1 and re.fullmatch(r"v[0-9]+", elements[-1]):
        major = elements[-1][1:]
        if major in ("0", "1") or major.startswith("0"):
            raise refuse(f"ends in /{elements[-1]}: a major-version suffix must be v2 or higher, without leading zeros")


def vendored_files(root: Path, lang: str, name: str, formats: list[str] | None) -> dict[str, str]:
    """{path under the vendored folder: text} for lang ("python" or "go") named `name`."""
    (check_package if lang == "python" else check_module)(name)
    specs = discover(root / "specs", root)
    check_versions(root / "specs", root, specs)
    known = [s.format_id for s in specs]
    wanted = set(formats or known)
    unknown = sorted(wanted - set(known))
    if unknown:
        raise SpecError("specs/", "", f"no format {', '.join(map(repr, unknown))}", f"use some of: {', '.join(known)}")
    # A latest major brings its earlier ones (kept releases under its history/): its upgrade code imports them.
    chosen = [s for s in specs if s.format_id in wanted or _earlier_major_of(s, wanted)]
    options = Options(python_package=name) if lang == "python" else Options(go_module=name)
    files = generate(chosen, targets=[lang], options=options)
    prefix = f"python/{name}/" if lang == "python" else "go/"
    out = {path[len(prefix):]: text for path, text in files.items() if path.startswith(prefix)}
    command = f"chatspec vendor --lang {lang} {'--package' if lang == 'python' else '--module'} {name} --out <dir>"
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


def target_folder(out: Path, lang: str, name: str) -> Path:
    """Go: <out>/ is the module root. Python: <out>/<package>/, or <out> itself when its last part is the package name."""
    if lang == "go" or Path(os.path.abspath(out)).name == name:  # abspath: `--out .` inside src/acme_chat; no symlink resolved
        return out
    return out / name


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

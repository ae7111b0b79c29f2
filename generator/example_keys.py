"""example_keys: what a check that runs a format's examples through generated Python is remembered by.

The Python target runs them through the dataclass package (targets/python/examples.py), the msgspec
target through both packages (targets/msgspec/examples.py). Each remembers a format's verdict by the
format apart from its descriptions and version (standins.fingerprint_apart: the checks read its examples,
defaults and file names) and the text of every module the format's module imports, directly or not, as
each runs (standins.as_run: a module made from one with its descriptions and version stood in for counts
as that one), so after an edit only the formats whose generated code changed run their examples again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from generator import cache, ir, standins
from generator.render import TEMPLATES

# An import statement of a generated Python module: `from .a import x`, `from . import (a, b)`, `import pkg.a`.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<source>[\w.]+)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)" r"|import[ \t]+(?P<absolute>[\w.]+))", re.M
)


def package_modules(files: Mapping[str, str], package: str, folder: str = "python") -> dict[str, str]:
    """{module name: text} of the package's modules ("__init__" its own) among files under generated/."""
    base = f"{folder}/{package}/"
    return {path[len(base) : -3]: text for path, text in files.items() if path.startswith(base) and path.endswith(".py")}


def check_keys(kind: str, package: str, fmt: ir.Format, modules: Mapping[str, str]) -> tuple[str, ...]:
    """The keys a check of the format's examples by these modules is remembered by: the format with its
    descriptions and version stood in for (the checks read its examples, defaults and file names, not
    those), and the modules as they run (standins.as_run) and as they are written (one made with the texts
    put back, then the same text again from the render cache, finds what its first run stored); as they
    are written only, where any of them may read a docstring or a version (standins.reads_texts)."""
    described = standins.fingerprint_apart(fmt)
    run = {m: standins.as_run(code) for m, code in modules.items()}

    def key(texts: Mapping[str, str]) -> str:
        return cache.digest([kind, cache.toolkit(TEMPLATES), package, described, *(f"{m}\0{texts[m]}" for m in sorted(texts))])

    # A format's module may read a docstring or a version, its own or another module's (its behaviour block); the
    # runtimes (_runtime, _fast: a format id starts with a letter) are chatspec's own, and read no module's.
    if run == modules or any(standins.reads_texts(code) for m, code in modules.items() if not m.rpartition("/")[2].startswith("_")):
        return (key(modules),)
    return (key(run), key(modules))


def imported_modules(module: str, modules: dict[str, str], package: str, importers: Iterable[str] = ()) -> set[str]:
    """module and every module of the package its import statements reach, directly or not
    (`from . import a`, `from .a import x`, `from <package>.a import x`, `import <package>.a`), with
    what the package's __init__ imports (importing a module runs it). "__init__" itself is in only
    when one of them reads the package's namespace (`from . import NAME` of no module, `import
    <package>`): beyond its imports it holds FORMATS and __all__, which vary with the formats'
    versions, and a bump of one format must not count as a change of every format's code.
    importers: the texts of another package's modules that run (the msgspec package's), whose
    absolute imports of this package reach modules too ("" for none: module itself then is not in)."""
    seen = {module} & set(modules)
    reached = set().union(*(_imports(text, package, modules, relative=False) for text in importers))
    todo = [*seen, *reached, "__init__"]
    seen |= reached & set(modules)
    while todo:
        for other in _imports(modules.get(todo.pop(), ""), package, modules) & set(modules) - seen:
            seen.add(other)
            todo.append(other)
    return seen


def _imports(text: str, package: str, modules: Mapping[str, str], relative: bool = True) -> set[str]:
    """The package's modules text imports itself ("__init__" where it reads the package's namespace); a
    relative import counts only if text is of the package (relative)."""
    reached: set[str] = set()
    for found in _IMPORT.finditer(text):
        source, names, absolute = found.group("source"), found.group("names"), found.group("absolute")
        if absolute is not None:
            path = absolute.split(".")
            reached |= ({"__init__"} | set(path[1:2])) if path[0] == package else set()
        elif (
            inner := (
                (source.lstrip(".") if relative else None)
                if source.startswith(".")
                else source.removeprefix(package) if source.split(".")[0] == package else None
            )
        ) is None:
            pass  # another package
        elif inner.lstrip("."):
            reached.add(inner.lstrip(".").split(".")[0])
        else:  # from . import a, B: modules, or names of the package's namespace
            imported = {n.split(" as ")[0].strip() for n in names.strip("()").split(",") if n.strip()}
            reached |= imported & set(modules) | ({"__init__"} if imported - set(modules) else set())
    return reached

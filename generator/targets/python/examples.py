"""The Python target's check of its files: every example runs through the generated Python, as its users will run it.

Remembered per format by the text of every module its module imports, so after an edit only the formats
whose generated code changed run their examples again; a module made from one with its descriptions and
version stood in for counts as that one (generator/standins.py), so an edit of descriptions and its bump
runs no example again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from generator import cache, ir, standins
from generator.examples import check_examples_in_python
from generator.render import TEMPLATES
from generator.targets.python.standins import fingerprint_apart

# An import statement of a generated Python module: `from .a import x`, `from . import (a, b)`, `import pkg.a`.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<source>[\w.]+)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)" r"|import[ \t]+(?P<absolute>[\w.]+))", re.M
)


def check_python_examples(formats: list[ir.Format], files: Mapping[str, str], package: str) -> None:
    """check_examples_in_python, skipping each format whose examples already passed the very same
    generated code (remembered by the format and the text of every module its module imports)."""
    if cache.current() is None:
        check_examples_in_python(formats, files, package)
        return
    modules = package_modules(files, package)
    keys = {
        fmt.id: check_keys("examples", package, fmt, {m: modules[m] for m in imported_modules(fmt.id, modules, package)}) for fmt in formats
    }
    unchecked = [fmt for fmt in formats if not any(cache.load("examples", key) is not None for key in keys[fmt.id])]
    if unchecked:
        check_examples_in_python(unchecked, files, package)
    for fmt in unchecked:
        for key in keys[fmt.id]:
            cache.store("examples", key, True)


def package_modules(files: Mapping[str, str], package: str, folder: str = "python") -> dict[str, str]:
    """{module name: text} of the package's modules ("__init__" its own) among files under generated/."""
    base = f"{folder}/{package}/"
    return {path[len(base) : -3]: text for path, text in files.items() if path.startswith(base) and path.endswith(".py")}


def check_keys(kind: str, package: str, fmt: ir.Format, modules: Mapping[str, str]) -> tuple[str, ...]:
    """The keys a check of the format's examples by these modules is remembered by: the format with its
    descriptions and version stood in for (the checks read its examples, defaults and file names, not
    those), and the modules as they run (standins.as_run) and as they are written (one made with the texts
    put back, then the same text again from the render cache, finds what its first run stored)."""
    described = fingerprint_apart(fmt)

    def key(text: Callable[[str], str]) -> str:
        return cache.digest([kind, cache.toolkit(TEMPLATES), package, described, *(f"{m}\0{text(modules[m])}" for m in sorted(modules))])

    return tuple(dict.fromkeys([key(standins.as_run), key(str)]))


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

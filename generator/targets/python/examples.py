"""The Python target's check of its files: every example runs through the generated Python, as its users will run it.

Remembered per format by the text of every module its module imports, so after an edit only the formats
whose generated code changed run their examples again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from generator import cache, ir
from generator.examples import check_examples_in_python
from generator.render import TEMPLATES

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
    base = f"python/{package}/"
    modules = {path[len(base) : -3]: text for path, text in files.items() if path.startswith(base) and path.endswith(".py")}
    keys = {
        fmt.id: cache.digest(
            [
                "examples",
                cache.toolkit(TEMPLATES),
                package,
                cache.fingerprint(fmt),
                *(f"{m}\0{modules[m]}" for m in sorted(imported_modules(fmt.id, modules, package))),
            ]
        )
        for fmt in formats
    }
    unchecked = [fmt for fmt in formats if cache.load("examples", keys[fmt.id]) is None]
    if unchecked:
        check_examples_in_python(unchecked, files, package)
    for fmt in unchecked:
        cache.store("examples", keys[fmt.id], True)


def imported_modules(module: str, modules: dict[str, str], package: str) -> set[str]:
    """module and every module of the package its import statements reach, directly or not
    (`from . import a`, `from .a import x`, `from <package>.a import x`, `import <package>.a`), with
    what the package's __init__ imports (importing a module runs it). "__init__" itself is in only
    when one of them reads the package's namespace (`from . import NAME` of no module, `import
    <package>`): beyond its imports it holds FORMATS and __all__, which vary with the formats'
    versions, and a bump of one format must not count as a change of every format's code."""
    seen = {module}
    todo = [module, "__init__"]
    while todo:
        text = modules.get(todo.pop(), "")
        for found in _IMPORT.finditer(text):
            source, names, absolute = found.group("source"), found.group("names"), found.group("absolute")
            if absolute is not None:
                path = absolute.split(".")
                reached = ({"__init__"} | set(path[1:2])) if path[0] == package else set()
            elif (
                inner := (
                    source.lstrip(".")
                    if source.startswith(".")
                    else source.removeprefix(package) if source.split(".")[0] == package else None
                )
            ) is None:
                reached = set()  # another package
            elif inner.lstrip("."):
                reached = {inner.lstrip(".").split(".")[0]}
            else:  # from . import a, B: modules, or names of the package's namespace
                imported = {n.split(" as ")[0].strip() for n in names.strip("()").split(",") if n.strip()}
                reached = imported & set(modules) | ({"__init__"} if imported - set(modules) else set())
            for other in reached & set(modules) - seen:
                seen.add(other)
                todo.append(other)
    return seen & set(modules)

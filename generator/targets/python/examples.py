"""The Python target's check of its files: every example runs through the generated Python, as its users will run it.

Remembered per format by the text of every module its module imports (generator/example_keys.py), so
after an edit only the formats whose generated code changed run their examples again, and an edit of
descriptions and its bump runs none.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator import cache, ir
from generator.example_keys import check_keys, imported_modules, package_modules
from generator.examples import check_examples_in_python


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

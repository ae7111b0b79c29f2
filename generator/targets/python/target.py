"""The Python target's contract: its name, how it is vendored, and what it renders.

Light to import (the CLI reads the vendoring rules); the module builder is imported when rendering.
"""

from __future__ import annotations

import keyword
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from generator import ir
from generator.behaviour import Behaviour
from generator.naming import NamingPolicy, python_attr
from generator.options import Options
from generator.targets.base import Context, Description, Target, Vendoring
from generator.targets.python.behaviour import python_parts
from generator.write import RefusedError


def check_package(name: str) -> None:
    """`vendor --package`: an importable top-level Python package name that shadows nothing."""

    def refuse(why: str) -> RefusedError:
        return RefusedError(
            f"--package {name!r}",
            why,
            "choose a lowercase Python identifier such as acme_chat, e.g. "
            "`chatspec vendor --lang python --package acme_chat --out src/`",
        )

    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise refuse("is not a Python identifier (ASCII letters, digits and _, not starting with a digit)")
    if keyword.iskeyword(name):
        raise refuse("is a Python keyword, so `import` cannot name it")
    if name.startswith("__"):
        raise refuse("starts with __, which Python reserves (and __pycache__ is a cache folder)")
    if name in sys.stdlib_module_names:
        raise refuse("is a standard-library module: the package would shadow it, and the generated code imports the standard library")


def package_folder(out: Path, name: str) -> Path:
    """<out>/<package>/, or <out> itself when its last part is the package name."""
    return out if Path(os.path.abspath(out)).name == name else out / name  # abspath: `--out .` inside src/acme_chat; no symlink resolved


class PythonTarget(Target):
    name = "python"
    behaviour = ("python", ".py")
    vendoring = Vendoring(
        flag="--package",
        help="the Python package name, e.g. chatmodels (with --lang python): an ASCII identifier, not a keyword or standard-library module",
        check=check_package,
        options=lambda name: Options(python_package=name),
        subtree=lambda name: f"python/{name}/",
        folder=package_folder,
    )

    naming = NamingPolicy("Python", "Python attribute", python_attr)
    # black on each module is most of the Python target's time: on a core of its own.
    background = True

    def warm_up(self) -> None:
        from generator import pyformat
        from generator.targets.python import module  # noqa: F401 - imported ahead of the first format

        pyformat.warm_up()

    def slow(self, fmt: ir.Format, ctx: Context) -> bool:
        from generator import pyformat
        from generator.targets.python.module import slot

        return not pyformat.has_slot(slot(fmt))

    def check_rendered(self, ctx: Context, files: Mapping[str, str]) -> None:
        # The examples run through the generated Python as its users will (their errors are what the docs show).
        from generator.targets.python.examples import check_python_examples

        check_python_examples(list(ctx.formats), files, ctx.options.python_package)

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        from generator.targets.python.module import render_module

        return render_module(fmt, ctx.options.python_package, ctx.names[self.name][fmt.id], ctx.behaviours.get(fmt.id))

    def render_shared(self, ctx: Context) -> dict[str, str]:
        from generator.targets.python.module import render_shared

        return render_shared(list(ctx.formats), ctx.options.python_package)

    def shared_files(self, options: Options) -> frozenset[str]:
        base = f"python/{options.python_package}"
        return frozenset({f"{base}/__init__.py", f"{base}/_runtime.py", f"{base}/py.typed"})

    def check_behaviour(self, b: Behaviour) -> None:
        if "python" in b.texts:
            python_parts(b)

    def describe(self, fmt: ir.Format, ctx: Context) -> Description:
        from generator.targets.python.module import PythonModule

        module = PythonModule(fmt, ctx.names[self.name][fmt.id])
        fields = {(model.name, f.wire): f"{f.attr}: {f.annotation}" for model in fmt.models for f in module.model_view(model).fields}
        return Description("Python", "", f"{ctx.options.python_package}.{fmt.id}", fields)


TARGET = PythonTarget()

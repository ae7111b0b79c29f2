"""The msgspec target's contract: opt-in (`msgspec = true` under [tool.chatspec]), beside the dataclass package.

generated/msgspec/<package>_msgspec/ reads JSON text with msgspec, in C, into Structs, and hands whatever
msgspec refuses or a generated check cannot vouch for to generated/python/<package>/, whose exact walk
decides and words every problem: the same verdicts and messages, so it needs that package beside it.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator import ir
from generator.options import Options
from generator.targets.base import Context, Target


class MsgspecTarget(Target):
    name = "msgspec"
    background = True  # black on each module, as the Python target

    def enabled(self, options: Options) -> bool:
        return options.msgspec

    def warm_up(self) -> None:
        from generator import pyformat
        from generator.targets.msgspec import module  # noqa: F401 - imported ahead of the first format

        pyformat.warm_up()

    def slow(self, fmt: ir.Format, ctx: Context) -> bool:
        from generator import pyformat

        return not pyformat.has_slot(f"msgspec/{fmt.id}")

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        from generator.targets.msgspec.module import render_module

        return render_module(fmt, ctx.options.python_package, ctx.names["python"][fmt.id])

    def render_shared(self, ctx: Context) -> dict[str, str]:
        from generator import runtime
        from generator.render import header
        from generator.targets.msgspec.literals import TEMPLATES
        from generator.targets.msgspec.module import struct_module

        base = f"msgspec/{struct_module(ctx.options.python_package)}"
        init = TEMPLATES.render("msgspec/init.py.j2", header=header(None), formats=ctx.formats, package=ctx.options.python_package)
        return {
            f"{base}/__init__.py": init,
            f"{base}/_fast.py": runtime.msgspec_runtime(),
            f"{base}/py.typed": "",
        }

    def shared_files(self, options: Options) -> frozenset[str]:
        from generator.targets.msgspec.module import struct_module

        base = f"msgspec/{struct_module(options.python_package)}"
        return frozenset({f"{base}/__init__.py", f"{base}/_fast.py", f"{base}/py.typed"})

    def check_rendered(self, ctx: Context, files: Mapping[str, str]) -> None:
        # Every example read by the Structs as by the dataclass package: the same verdict and problems.
        from generator.targets.msgspec.examples import check_msgspec_examples

        check_msgspec_examples(list(ctx.formats), files, ctx.options.python_package)


TARGET = MsgspecTarget()

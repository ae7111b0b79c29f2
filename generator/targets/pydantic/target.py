"""The pydantic target's contract; light to import (the models are built when rendering)."""

from __future__ import annotations

from generator import ir, runtime
from generator.render import header
from generator.targets.base import Context, Target

PACKAGE = "chatformats_pydantic"


class PydanticTarget(Target):
    """generated/pydantic/: pydantic v2 models from the exported schemas, by datamodel-code-generator."""

    name = "pydantic"

    # datamodel-code-generator and black: the slowest part of a run, so on the second core.
    background = True

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        from generator.targets.pydantic.models import render_models

        return {f"pydantic/{PACKAGE}/{fmt.id}.py": render_models(fmt, ctx.plain_schemas[fmt.id])}

    def slow(self, fmt: ir.Format, ctx: Context) -> bool:
        from generator.targets.pydantic.models import remembered

        return not remembered(fmt, ctx.plain_schemas[fmt.id])

    def warm_up(self) -> None:
        from generator.targets.pydantic.models import warm_up

        warm_up()

    def render_shared(self, ctx: Context) -> dict[str, str]:
        return {
            f"pydantic/{PACKAGE}/__init__.py": f'# {header(None)}\n"""Pydantic v2 models of the chat formats (needs pydantic; the dataclasses in chatformats do not)."""\n',
            # The dataclass package's runtime, for the schemas applied as written (their checks, the same in both).
            f"pydantic/{PACKAGE}/_runtime.py": runtime.python_runtime(),
        }

    def shared_files(self, options: object) -> frozenset[str]:
        return frozenset({f"pydantic/{PACKAGE}/__init__.py", f"pydantic/{PACKAGE}/_runtime.py"})


TARGET = PydanticTarget()

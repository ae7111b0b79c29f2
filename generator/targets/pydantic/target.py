"""The pydantic target's contract; light to import (the models are built when rendering)."""

from __future__ import annotations

from generator.render import header
from generator.targets.base import Context, Target

PACKAGE = "chatformats_pydantic"


class PydanticTarget(Target):
    """generated/pydantic/: pydantic v2 models from the exported schemas, by datamodel-code-generator."""

    name = "pydantic"

    def render(self, ctx: Context) -> dict[str, str]:
        from generator.targets.pydantic.models import render_models

        base = f"pydantic/{PACKAGE}"
        files = {f"{base}/__init__.py": f"# {header(None)}\n\"\"\"Pydantic v2 models of the chat formats (needs pydantic; the dataclasses in chatformats do not).\"\"\"\n"}
        for fmt in ctx.formats:
            files[f"{base}/{fmt.id}.py"] = render_models(fmt, ctx.plain_schemas[fmt.id])
        return files

    def shared_files(self, options: object) -> frozenset[str]:
        return frozenset({f"pydantic/{PACKAGE}/__init__.py"})


TARGET = PydanticTarget()

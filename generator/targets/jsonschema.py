"""JSON Schema target: the export stage's schema of each format, as a file (see generator/export.py)."""

from __future__ import annotations

from generator import ir
from generator.export import schema_text
from generator.targets.base import Context, Target


class JSONSchemaTarget(Target):
    name = "jsonschema"

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        return {f"jsonschema/{fmt.id}.schema.json": schema_text(ctx.schemas[fmt.id])}


TARGET = JSONSchemaTarget()

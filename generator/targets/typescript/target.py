"""The TypeScript target: an npm package under generated/typescript/.

src/runtime.ts is generator/runtime/typescript/runtime.ts, copied with the header;
src/<format>.ts is rendered per format from data-only views (views.py) by one
template per construct (templates/typescript/*.j2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator import ir
from generator.render import header, render
from generator.targets.typescript.types import ts_type
from generator.targets.typescript.views import module_view

DEFAULT_PACKAGE = "@chatspec/chatformats"
TYPESCRIPT_VERSION = "5.6.3"  # the compiler package.json names and the Makefile installs
RUNTIME_SOURCE = Path(__file__).resolve().parents[2] / "runtime" / "typescript" / "runtime.ts"
BASE = "typescript"


def runtime_source() -> str:
    return RUNTIME_SOURCE.read_text(encoding="utf-8")


def render_module(fmt: ir.Format) -> str:
    return render("typescript/module.ts.j2", m=module_view(fmt))


def render_package(formats: list[ir.Format], package: str = DEFAULT_PACKAGE) -> dict[str, str]:
    """Every file of generated/typescript/, keyed by path under generated/."""
    files = {
        f"{BASE}/package.json": render("typescript/package.json.j2", package=package, header=header(None),
                                       typescript_version=TYPESCRIPT_VERSION),
        f"{BASE}/tsconfig.json": render("typescript/tsconfig.json.j2"),
        f"{BASE}/src/runtime.ts": f"// {header(None)}\n" + runtime_source(),
        f"{BASE}/src/index.ts": render("typescript/index.ts.j2", header=header(None), ids=[f.id for f in formats]),
    }
    for fmt in formats:
        files[f"{BASE}/src/{fmt.id}.ts"] = render_module(fmt)
    return files


class TypeScriptTarget:
    name = "typescript"
    label = "TypeScript"

    def render(self, ctx: Any) -> dict[str, str]:
        return render_package(list(ctx.formats), getattr(ctx.options, "typescript_package", DEFAULT_PACKAGE))

    def shared_files(self, ctx: Any) -> frozenset[str]:
        return frozenset({f"{BASE}/package.json", f"{BASE}/tsconfig.json", f"{BASE}/src/runtime.ts", f"{BASE}/src/index.ts"})

    def field_types(self, fmt: ir.Format) -> dict[tuple[str, str], str]:
        """(model, wire name) -> the TypeScript type of the field, e.g. ("ChatInput", "content") -> "Content"."""
        out = {}
        for model in fmt.models:
            for f in model.fields:
                spelled = ts_type(f.type)
                out[(model.name, f.wire_name)] = spelled if f.required or f.has_default or f.default_factory else f"{spelled} | undefined"
        return out


TARGET = TypeScriptTarget()

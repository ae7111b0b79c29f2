"""The TypeScript target: an npm package under generated/typescript/.

src/runtime.ts is generator/runtime/typescript/runtime.ts, copied with the header;
src/<format>.ts is rendered per format from data-only views (views.py) by one
template per construct (templates/typescript/*.j2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from generator import ir
from generator.behaviour import Behaviour
from generator.naming import NamingPolicy
from generator.options import DEFAULT_TYPESCRIPT_PACKAGE, Options
from generator.targets.base import Context, Description, Target, Vendoring
from generator.targets.typescript.behaviour import typescript_parts
from generator.write import RefusedError

BASE = "typescript"

# Globals the generated modules name and the runtime types they re-export: a definition
# of that name would shadow them.
RESERVED_TYPES = frozenset(
    {
        "Array",
        "BigInt",
        "Error",
        "JSON",
        "Map",
        "Number",
        "Object",
        "RegExp",
        "Set",
        "String",
        "Symbol",
        "Uint8Array",
        "DateTimeString",
        "ErrorDetail",
        "JsonData",
        "ValidationError",
    }
)

# npm's rules for a package name (validate-npm-package-name): lowercase, URL-safe, an optional @scope/.
_NPM_NAME = re.compile(r"^(?:@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*$")


def check_package(name: str) -> None:
    """`vendor --package` with --lang typescript: a name npm accepts for a package."""

    def refuse(why: str) -> RefusedError:
        return RefusedError(
            f"--package {name!r}",
            why,
            "use an npm package name such as @acme/chat or acme-chat, e.g. "
            "`chatspec vendor --lang typescript --package @acme/chat --out web/chat/`",
        )

    if len(name) > 214:
        raise refuse("is longer than the 214 characters npm allows")
    if name.removeprefix("@").split("/")[-1].startswith((".", "_")):
        raise refuse("starts with . or _, which npm refuses")
    if not _NPM_NAME.fullmatch(name):
        raise refuse("is not an npm package name (lowercase letters, digits, - . _ ~, optionally under one @scope/)")


def render_package(
    formats: list[ir.Format], package: str = DEFAULT_TYPESCRIPT_PACKAGE, behaviours: Mapping[str, Behaviour] | None = None
) -> dict[str, str]:
    """Every file of generated/typescript/, keyed by path under generated/."""
    files = shared_package_files(formats, package)
    for fmt in formats:
        files.update(module_file(fmt, (behaviours or {}).get(fmt.id)))
    return files


def shared_package_files(formats: list[ir.Format], package: str) -> dict[str, str]:
    """The package's files no format owns: package.json, tsconfig.json, the runtime and the index."""
    from generator import runtime
    from generator.render import header, render

    return {
        f"{BASE}/package.json": render("typescript/package.json.j2", package=package, header=header(None)),
        f"{BASE}/tsconfig.json": render("typescript/tsconfig.json.j2"),
        f"{BASE}/src/runtime.ts": runtime.typescript_runtime(),
        f"{BASE}/src/index.ts": render("typescript/index.ts.j2", header=header(None), ids=[f.id for f in formats]),
    }


def module_file(fmt: ir.Format, behaviour: Behaviour | None) -> dict[str, str]:
    """src/<format>.ts."""
    from generator.render import render
    from generator.targets.typescript.views import module_view

    return {f"{BASE}/src/{fmt.id}.ts": render("typescript/module.ts.j2", m=module_view(fmt, behaviour))}


def _compiled(files: dict[str, str], root: Path) -> dict[str, tuple[str, str]]:
    """dist/: the vendored package's JavaScript and declarations (imported here: it runs tsc, which only vendor needs)."""
    from generator.targets.typescript.compile import compiled

    return compiled(files, root)


class TypeScriptTarget(Target):
    name = "typescript"
    behaviour = ("typescript", ".ts")
    vendoring = Vendoring(
        flag="--package",
        help="the npm package name, e.g. @acme/chat (with --lang typescript)",
        check=check_package,
        options=lambda name: Options(typescript_package=name),
        subtree=lambda name: f"{BASE}/",
        folder=lambda out, name: out,  # --out is the package root (package.json, src/, dist/)
        build=lambda files, root: _compiled(files, root),
    )

    # Properties are the wire names themselves (quoted where they are no identifiers), so a
    # field spells as the spec names it; definitions must not take a name the modules use.
    naming = NamingPolicy("TypeScript", "TypeScript property", lambda name: name, reserved_types=RESERVED_TYPES)

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        return module_file(fmt, ctx.behaviours.get(fmt.id))

    def render_shared(self, ctx: Context) -> dict[str, str]:
        return shared_package_files(list(ctx.formats), ctx.options.typescript_package)

    def shared_files(self, options: Options) -> frozenset[str]:
        return frozenset({f"{BASE}/package.json", f"{BASE}/tsconfig.json", f"{BASE}/src/runtime.ts", f"{BASE}/src/index.ts"})

    def check_behaviour(self, b: Behaviour) -> None:
        if "typescript" in b.texts:
            typescript_parts(b)

    def describe(self, fmt: ir.Format, ctx: Context) -> Description:
        """Each field as its interface declares it, e.g. ("ImageBlock", "url") -> "url?: string"."""
        from generator.targets.typescript.literals import ts_property
        from generator.targets.typescript.types import ts_type
        from generator.targets.typescript.views import absent_when_missing

        # From the types alone: the module's own checks (name clashes) belong to render, in registry order.
        fields = {
            (model.name, f.wire_name): f"{ts_property(f.wire_name)}{'?' if absent_when_missing(f) else ''}: {ts_type(f.type)}"
            for model in fmt.models
            for f in model.fields
        }
        return Description("TypeScript", "module", f"{ctx.options.typescript_package}/{fmt.id}", fields)


TARGET = TypeScriptTarget()

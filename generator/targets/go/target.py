"""The Go target's contract: its name, how it is vendored, and what it renders.

Light to import (the CLI reads the vendoring rules); the package builder is imported when rendering.
"""

from __future__ import annotations

import re

from generator import ir, runtime
from generator.behaviour import Behaviour
from generator.naming import NamingPolicy, go_name, go_package
from generator.options import DEFAULT_GO_MODULE, Options
from generator.targets.base import Context, Description, Target, Vendoring
from generator.targets.go.behaviour import go_parts
from generator.targets.go.names import INLINE_TYPES, PACKAGE_NAMES, field_name
from generator.write import RefusedError

_GO_ELEMENT = re.compile(r"[A-Za-z0-9._~-]+")
_GO_HOST = re.compile(r"[a-z0-9.-]+")
_WINDOWS_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))}


def check_module(path: str) -> None:
    """`vendor --module`: a Go module path `go` accepts (golang.org/x/mod/module.CheckPath, without a version suffix)."""

    def refuse(why: str) -> RefusedError:
        return RefusedError(
            f"--module {path!r}",
            why,
            "use a path such as example.com/acme/chat, e.g. "
            "`chatspec vendor --lang go --module example.com/acme/chat --out third_party/chat/`",
        )

    if not path or path.startswith("/") or path.endswith("/") or "//" in path:
        raise refuse("must be slash-separated path elements, with no leading, trailing or doubled slash")
    elements = path.split("/")
    for element in elements:
        if not _GO_ELEMENT.fullmatch(element):
            raise refuse(f"has the element {element!r}: Go allows only ASCII letters, digits and . _ - ~ in a module path")
        if element.startswith(".") or element.endswith("."):
            raise refuse(f"has the element {element!r}, which starts or ends with a dot")
        if element.split(".")[0].lower() in _WINDOWS_RESERVED:
            raise refuse(f"has the element {element!r}, a reserved file name on Windows")
        if re.search(r"~[0-9]+$", element.split(".")[0]):
            raise refuse(f"has the element {element!r}, which looks like a Windows short name")
    host = elements[0]
    if not _GO_HOST.fullmatch(host) or "." not in host or host.startswith("-"):
        raise refuse(
            f"starts with {host!r}: the first element must be a lowercase domain name with a dot "
            "(Go reserves dot-less paths for its standard library)"
        )
    if len(elements) > 1 and re.fullmatch(r"v[0-9]+", elements[-1]):
        major = elements[-1][1:]
        if major in ("0", "1") or major.startswith("0"):
            raise refuse(f"ends in /{elements[-1]}: a major-version suffix must be v2 or higher, without leading zeros")


class GoTarget(Target):
    name = "go"
    behaviour = ("go", ".go")
    module = ("Go package", go_package)
    vendoring = Vendoring(
        flag="--module",
        help="the Go module path, e.g. example.com/app/chat (with --lang go): its first element a domain with a dot",
        check=check_module,
        options=lambda name: Options(go_module=name),
        subtree=lambda name: "go/",
        folder=lambda out, name: out,  # --out is the module root
    )
    naming = NamingPolicy(
        "Go",
        "Go field",
        field_name,
        reserved_types=PACKAGE_NAMES,
        enum_constant=lambda enum, value: enum + go_name(value),
        inline_types=INLINE_TYPES,
    )

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        from generator.targets.go.package import GoPackage

        return GoPackage(fmt, ctx.options, ctx.names[self.name][fmt.id], ctx.behaviours.get(fmt.id)).files()

    def render_shared(self, ctx: Context) -> dict[str, str]:
        from generator.targets.go.package import render_shared

        return render_shared(ctx.options)

    def shared_files(self, options: Options) -> frozenset[str]:
        return frozenset({"go/go.mod", *(f"go/internal/rt/{name}" for name in runtime.go_files())})

    def check_behaviour(self, b: Behaviour) -> None:
        if "go" in b.texts:
            go_parts(b, DEFAULT_GO_MODULE)

    def describe(self, fmt: ir.Format, ctx: Context) -> Description:
        from generator.targets.go.package import GoPackage

        models = GoPackage(fmt, ctx.options, ctx.names[self.name][fmt.id]).views.models
        fields = {
            (model.name, f.wire_name): f"{view.name} {view.type}"
            for m, model in zip(models, fmt.models)
            for f, view in zip(model.fields, m.fields)
        }
        return Description("Go", "package", go_package(fmt.id), fields)


TARGET = GoTarget()

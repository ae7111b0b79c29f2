"""The files of the Go target: one package per format, rendered from views by templates/go/*.j2.

Every generated package parses a decoded JSON tree with parsers compiled from
the IR, exactly as the Python target does, so both report the same problems in
the same order. Templates never align columns: every struct field and constant
gets its own comment line, which ends gofmt's alignment sections.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from generator import ir, runtime
from generator.messages import number_literal, show_number
from generator.naming import Names, clash_error, go_name, go_package, go_top_level_clashes
from generator.options import Options
from generator.render import Templates, header, template_exists
from generator.targets.go.definitions import Definitions
from generator.targets.go.literals import go_comment, go_str
from generator.targets.go.views import GoType


def unhandled(kind: object) -> str:
    """What a template's dispatch on a view kind ends in: the views make no other kind."""
    raise AssertionError(f"templates/go has no case for the view kind {kind!r}")


# The templates under templates/go/ and the filters they spell Go with.
TEMPLATES = Templates(gostr=go_str, gofloat=show_number, gonumber=number_literal, unhandled=unhandled)


def imports(types: Iterable[GoType], *always: str) -> list[str]:
    """The standard packages a file imports: those its types spell, and those its fixed code calls."""
    return sorted({*always, *(p for t in types for p in t.packages)})


class GoPackage:
    """One format's package: its views, built once, and its files."""

    def __init__(self, fmt: ir.Format, options: Options, names: Names) -> None:
        self.fmt = fmt
        self.options = options
        self.package = go_package(fmt.id)
        self.views = Definitions(fmt, names, self.behaviour_fields)

    def behaviour_fields(self, model: str) -> str:
        """Unexported struct fields a model's behaviour methods keep (e.g. an index)."""
        name = f"go/behaviour/{self.fmt.id}/{model}.fields.go.j2"
        return TEMPLATES.render(name, fmt=self.fmt).strip("\n") if template_exists(name) else ""

    def render_behaviour(self, context: Mapping[str, object]) -> str | None:
        """behaviour.go: the format's hand-written methods, when it has any for this version."""
        behaviour = f"go/behaviour/{self.fmt.id}.go.j2"
        if not template_exists(behaviour):
            return None
        code = TEMPLATES.render(behaviour, **context)
        return code if code.strip() else None  # a template may apply to some versions only

    def files(self) -> dict[str, str]:
        fmt, views = self.fmt, self.views
        declared = [*(f.type for m in views.models for f in m.fields), *(v.type for u in views.unions for v in u.variants),
                    *(i.type for t in views.tuples for i in t.items), *(a.type for a in views.aliases)]
        helpers = views.encoders.tree_helpers()
        context = dict(
            header=header(fmt.source),
            fmt=fmt,
            package=self.package,
            module=self.options.go_module,
            package_doc=go_comment(f"Package {self.package}: {fmt.title} (format {fmt.id}, version {fmt.version}).\n\n{fmt.description}"),
            enums=views.enums,
            models=views.models,
            unions=views.unions,
            tuples=views.tuples,
            aliases=views.aliases,
            known=views.known,
            parser_vars=views.parsers.vars,
            tree_helpers=helpers,
            root=fmt.root,
            api_parse=f"Parse{go_name(fmt.id)}FromJSON",
            api_validate=f"Validate{fmt.root}",
            phrase=fmt.id.replace("_", " "),
            types_imports=imports(declared, "fmt", *(["encoding/json"] if views.unions or views.tuples else [])),
            validate_imports=imports([*(v.type for v in views.parsers.vars), *(h.type for h in helpers)]),
            valid_examples=[json.dumps(data, ensure_ascii=False, separators=(",", ":")) for _, data in fmt.valid_examples],
        )
        base = f"go/{self.package}"
        files = {
            f"{base}/{self.package}.go": TEMPLATES.render("go/types.go.j2", **context),
            f"{base}/validate.go": TEMPLATES.render("go/validate.go.j2", **context),
            f"{base}/fuzz_test.go": TEMPLATES.render("go/fuzz_test.go.j2", **context),
        }
        behaviour = self.render_behaviour(context)
        if behaviour is not None:
            files[f"{base}/behaviour.go"] = behaviour
        for name, first, second in go_top_level_clashes({p: c for p, c in files.items() if not p.endswith("_test.go")})[:1]:
            files_named = sorted({first.removeprefix("go/"), second.removeprefix("go/")})
            raise clash_error(fmt, "Go", name, f"in {' and '.join(files_named)}")
        return files


def render_module(formats: list[ir.Format], options: Options, names: Mapping[str, Names]) -> dict[str, str]:
    """Every file of generated/go/, keyed by path under generated/."""
    files = {"go/go.mod": TEMPLATES.render("go/go.mod.j2", module=options.go_module)}
    files.update(runtime.go_runtime())
    for fmt in formats:
        files.update(GoPackage(fmt, options, names[fmt.id]).files())
    return files

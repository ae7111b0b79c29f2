"""The files of the Go target: one package per format, rendered from views by templates/go/*.j2.

Every generated package parses a decoded JSON tree with parsers compiled from
the IR, exactly as the Python target does, so both report the same problems in
the same order. Templates never align columns: every struct field and constant
gets its own comment line, which ends gofmt's alignment sections.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from generator import ir, runtime
from generator.behaviour import Behaviour, constants
from generator.messages import number_literal
from generator.naming import Names, clash_error, go_name, go_package, go_top_level_clashes
from generator.options import Options
from generator.render import Templates, header, unknown_kind
from generator.targets.go.behaviour import GoParts, go_parts
from generator.targets.go.definitions import Definitions
from generator.targets.go.literals import go_comment, go_const, go_str
from generator.targets.go.views import ConstantView, EntryView, FastCheck, FastModel, FastTuple, FastUnion, GoType

# The templates under templates/go/ and the filters they spell Go with.
TEMPLATES = Templates(gostr=go_str, goconst=go_const, gonumber=number_literal, unknown=unknown_kind)


def checks_float(check: FastModel | FastTuple | FastUnion) -> bool:
    """Whether a model's, tuple's or union's fast check reads a float64 (so validate.go imports math)."""

    def reads(c: FastCheck | None) -> bool:
        return c is not None and ((c.kind == "number" and not c.integer) or reads(c.inner))

    if isinstance(check, FastTuple):
        return check.sure and any(reads(c) for _, c in check.items)
    if isinstance(check, FastUnion):
        return check.sure and any(reads(c) for _, _, c in check.variants)
    return check.sure and any(reads(f.check) for f in check.fields)


def imports(types: Iterable[GoType], *always: str) -> list[str]:
    """The standard packages a file imports: those its types spell, and those its fixed code calls."""
    return sorted({*always, *(p for t in types for p in t.packages)})


class GoPackage:
    """One format's package: its views, built once, and its files."""

    def __init__(self, fmt: ir.Format, options: Options, names: Names, behaviour: Behaviour | None = None) -> None:
        self.fmt = fmt
        self.options = options
        self.names = names
        self.behaviour = behaviour if behaviour is not None and "go" in behaviour.texts else None
        self.parts = go_parts(self.behaviour, options.go_module) if self.behaviour is not None else GoParts("", {})
        self.package = go_package(fmt.id)
        self.views = Definitions(fmt, names, self.behaviour_fields)  # after self.parts: the structs read behaviour_fields

    def behaviour_fields(self, model: str) -> str:
        """Struct fields a model's behaviour methods keep (e.g. an index)."""
        return self.parts.fields.get(model, "")

    def behaviour_file(self) -> str:
        """behaviour.go: the stored go.go under the generated header and package clause, with the
        constants it reads (manifest [constants]) emitted from the IR after its imports."""
        assert self.behaviour is not None
        fmt = self.fmt
        consts = []
        for c in constants(fmt, self.behaviour):
            model = next(m for m in fmt.models if m.name == c.model)
            field = self.names.fields[model.name, next(f.wire_name for f in model.fields if f.name == c.field)]
            consts.append(ConstantView(f"{c.model}{field}{c.facet.capitalize()}", c.facet, c.model, field, c.value))
        code = self.parts.code
        if consts:
            imports = re.match(r"(import \([^)]*\)\n|import \"[^\"]*\"\n)", code)
            at = imports.end() if imports else 0
            block = TEMPLATES.render("go/constants.go.j2", consts=consts)
            code = code[:at] + ("\n" if at else "") + block + ("\n" if at == 0 else "") + code[at:]
        return TEMPLATES.render(
            "go/stored_source.go.j2", header=header(fmt.source, self.behaviour.source("go")), package=self.package, code=code
        )

    def files(self) -> dict[str, str]:
        fmt, views = self.fmt, self.views
        declared = [
            *(f.type for m in views.models for f in m.fields),
            *(v.type for u in views.unions for v in u.variants),
            *(i.type for t in views.tuples for i in t.items),
            *(a.type for a in views.aliases),
        ]
        entries = [
            EntryView(d.name, None if isinstance(d, ir.Model) else views.encoders.encode(ir.ref_to(d), d.name, f"/$defs/{d.name}"))
            for d in fmt.definitions
        ]
        helpers = views.encoders.tree_helpers()  # after the entries' encoders, which may add some
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
            entries=entries,
            phrase=fmt.id.replace("_", " "),
            types_imports=imports(declared, "fmt", *(["encoding/json"] if views.unions or views.tuples else [])),
            validate_imports=imports(
                [*(v.type for v in views.parsers.vars), *(h.type for h in helpers)],
                *(
                    ["math"]
                    if any(map(checks_float, views.fast_models.values()))
                    or any(map(checks_float, views.fast_tuples.values()))
                    or any(map(checks_float, views.fast_unions.values()))
                    else []
                ),
            ),
            fast_models=views.fast_models,
            direct_models=views.direct_models,
            direct_composites=views.direct_composites,
            direct_scratches=views.direct_scratches,
            fast_tuples=views.fast_tuples,
            fast_unions=views.fast_unions,
            fast_patterns=views.fast.patterns,
            checks_vars=list(views.parsers.checks.values()),
            valid_examples=[json.dumps(data, ensure_ascii=False, separators=(",", ":")) for _, data in fmt.valid_examples],
        )
        base = f"go/{self.package}"
        files = {
            # The structs hold the fields the behaviour's go.go adds, so the header names it too.
            f"{base}/{self.package}.go": TEMPLATES.render(
                "go/types.go.j2",
                **{
                    **context,
                    "header": header(fmt.source, self.behaviour.source("go") if self.behaviour is not None and self.parts.fields else None),
                },
            ),
            f"{base}/validate.go": TEMPLATES.render("go/validate.go.j2", **context),
            f"{base}/fuzz_test.go": TEMPLATES.render("go/fuzz_test.go.j2", **context),
        }
        if self.behaviour is not None:
            files[f"{base}/behaviour.go"] = self.behaviour_file()
        for name, first, second in go_top_level_clashes({p: c for p, c in files.items() if not p.endswith("_test.go")})[:1]:
            files_named = sorted({first.removeprefix("go/"), second.removeprefix("go/")})
            raise clash_error(fmt, "Go", name, f"in {' and '.join(files_named)}")
        return files


def render_shared(options: Options) -> dict[str, str]:
    """The files of generated/go/ no format owns (go.mod, the runtime), keyed by path under generated/."""
    files = {"go/go.mod": TEMPLATES.render("go/go.mod.j2", module=options.go_module)}
    files.update(runtime.go_runtime())
    return files

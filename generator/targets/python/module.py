"""The Python module of one format: IR -> views (views.py) -> templates/python/*.j2 -> black.

Each concern has its module: literals (how values are spelt), types (annotations),
parsers (parse calls and checks), encoders (to_dict); this one puts a format's
views together, and the templates place them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import fields

from generator import cache, ir, nesting, runtime
from generator.behaviour import Behaviour, constants
from generator.errors import SpecError, pointer_of
from generator.naming import Names, clash_error, constant_case, python_attr, python_top_level_clashes, snake_case
from generator.pyformat import format_python
from generator.pyliterals import py_str
from generator.render import TEMPLATES as TEMPLATE_FOLDER
from generator.render import header
from generator.standins import made
from generator.targets.python import encoders, parsers, standins, types
from generator.targets.python.behaviour import PythonParts, python_parts
from generator.targets.python.fast import FastBuilder
from generator.targets.python.literals import TEMPLATES
from generator.targets.python.parsers import checks_const, checks_expr
from generator.targets.python.views import (
    AliasView,
    ChecksView,
    ConstantView,
    DefaultFunction,
    EntryView,
    EnumView,
    FieldView,
    Import,
    ImportLine,
    KnownValuesView,
    ModelView,
    ModuleView,
    ParserConst,
    Step,
)

# Locals of a generated parse function; a field local never takes these names.
_PARSE_LOCALS = frozenset({"obj", "ctx", "data", "mark", "kept"})

# What the module's own lines use whatever the format holds: Final (FORMAT_ID), Any (parse
# functions, to_dict) and dataclass (the models); and field, which behaviour code uses
# unimported (behaviour blocks import only beyond these). The rest follows from the views.
FIELD = Import("dataclasses", "field")
TYPE_ALIAS = Import("typing", "TypeAlias")
SKELETON_IMPORTS = frozenset({Import("dataclasses", "dataclass"), FIELD, types.ANY, Import("typing", "Final")})


def import_lines(uses: Iterable[Import]) -> tuple[ImportLine, ...]:
    """`from m import a, b` lines for the names used, by module, names sorted."""
    by_module: dict[str, set[str]] = {}
    for use in uses:
        by_module.setdefault(use.module, set()).add(use.name)
    return tuple(ImportLine(m, tuple(sorted(names))) for m, names in sorted(by_module.items()))


class PythonModule:
    """Builds the views of one format's module."""

    def __init__(self, fmt: ir.Format, names: Names, behaviour: Behaviour | None = None) -> None:
        self.fmt = fmt
        self.names = names
        self.behaviour = behaviour if behaviour is not None and "python" in behaviour.texts else None
        self.parts = python_parts(self.behaviour) if self.behaviour is not None else PythonParts([], "", {})
        self.parsers: list[ParserConst] = []  # the fields' parsers, in definition order
        self.defaults: list[DefaultFunction] = []  # the functions of defaults built by a parser, in definition order
        self.uses: set[Import] = set(SKELETON_IMPORTS)
        self.fast = FastBuilder(fmt, names.of_model)
        self.open_enums = ir.open_enums(fmt)  # (to_dict dumps their fields: a value may be an Unknown)

    def field_view(self, model: ir.Model, f: ir.Field, attr: str) -> FieldView:
        const = parsers.parser_const(model.name, attr)
        self.parsers.append(ParserConst(const, parsers.parser(f.type)))
        default = parsers.default(f, self.fmt, "_default" + const.lower().removeprefix("_p"))
        if default.kind == "parsed":
            self.defaults.append(DefaultFunction(default.fn, const, default.value))
        annotation = types.field_annotation(f.type, absent_is_none=default.kind == "none")
        self.uses |= annotation.imports
        if default.kind in ("uuid4", "empty", "copy", "parsed"):
            self.uses.add(FIELD)  # field(default_factory=...)
        return FieldView(
            attr=attr,
            local=f"{attr}_value" if attr in _PARSE_LOCALS else attr,
            wire=f.wire_name,
            annotation=annotation.text,
            default=default,
            doc=f.description,
            parser=const,
            required_message=f.required_message,
            nullable=f.null_ok,
            dump=encoders.needs_dump(f.type, self.open_enums),
            # Absent optional fields stay absent; but where null is a value of the field and absent means a default
            # other than null, None is that null, written out (left out, it would read back as the default).
            omit_when_none=not f.required and not (f.null_ok and f.has_default and f.default is not None),
            constant=f.constant,
        )

    def model_view(self, model: ir.Model) -> ModelView:
        attrs = self.names.of_model(model)
        fields = tuple(self.field_view(model, f, a) for f, a in zip(model.fields, attrs))
        locals_by_wire = {f.wire: f.local for f in fields}
        by_wire = {f.wire_name: f for f in model.fields}
        steps: list[Step] = []
        for f in fields:
            steps.append(f)
            steps.extend(parsers.rule_view(r, locals_by_wire, by_wire) for r in model.rules if r.after == f.wire)
        steps.extend(parsers.rule_view(r, locals_by_wire, by_wire) for r in model.rules if r.after is None)
        keys_const = f"_KEYS_{constant_case(model.name)}"
        rules = tuple(s for s in steps if not isinstance(s, FieldView))
        wire_attrs = tuple((f.wire, f.attr) for f in fields) if any(m.rules for m in self.fmt.models) else ()
        if wire_attrs:
            self.uses.add(Import("typing", "ClassVar"))
        return ModelView(
            name=model.name,
            doc=model.description or model.name,
            parse_fn=parsers.parse_fn(model.name),
            fields=fields,
            steps=tuple(steps),
            closed=model.closed,
            keys=tuple(f.wire for f in fields),
            keys_const=keys_const,
            type_message=model.type_message,
            unknown_message=model.unknown_message,
            fast=self.fast.function(model, fields, keys_const, rules),
            wire_attrs=wire_attrs,
            behaviour=self.parts.methods.get(model.name, ""),
        )

    def behaviour_constants(self) -> tuple[ConstantView, ...]:
        """The spec facts the behaviour reads (manifest [constants]), e.g.
        CHAT_STATE_MAX_HISTORY_SIZE_DEFAULT: Final = 1000, from the IR."""
        if self.behaviour is None:
            return ()
        return tuple(
            ConstantView(
                f"{constant_case(c.model)}_{constant_case(c.field)}_{c.facet.upper()}",
                c.value,
                f"The {c.facet} of {c.model}.{python_attr(c.field)} in the spec.",
            )
            for c in constants(self.fmt, self.behaviour)
        )

    def known_values(self) -> tuple[KnownValuesView, ...]:
        return tuple(
            KnownValuesView(
                const=f"{constant_case(k.model)}_{constant_case(k.field)}_VALUES",
                values=k.values,
                doc=f"Documented values of {k.model}.{python_attr(k.field)}; any string is accepted.",
            )
            for k in self.fmt.known_values
        )

    def alias_view(self, a: ir.Alias) -> AliasView:
        annotation = types.annotation(a.type)
        self.uses |= annotation.imports | {TYPE_ALIAS}
        return AliasView(a.name, a.description or a.name, annotation.text)

    def enum_view(self, e: ir.Enum) -> EnumView:
        self.uses |= {types.LITERAL, TYPE_ALIAS} | ({types.UNKNOWN} if e.open else set())
        return EnumView(e.name, e.description or e.name, e.values, f"{constant_case(e.name)}_VALUES", e.open)

    def refuse_entries_alike(self, entries: tuple[EntryView, ...], api_parse: str) -> None:
        """Two definitions whose names the module spells alike (HTTPRoot and HttpRoot: http_root_from_json), or one
        spelling the format's parse function (ParseChat in format chat: parse_chat_from_json), named as such, at the
        later definition (the module's own clash check would name only the generated names)."""
        made: dict[str, str] = {api_parse: "the format's parse function"}
        for e in entries:
            for name in (*e.functions, parsers.parser_const(e.name)):
                if name in made:
                    raise SpecError(
                        self.fmt.source,
                        pointer_of("$defs", e.name),
                        f"the definition {e.name!r} would make the Python name {name!r}, which {made[name]} makes too",
                        "rename one of them",
                    )
                made[name] = f"the definition {e.name!r}"

    def view(self) -> ModuleView:
        fmt = self.fmt
        ir_enums = [d for d in fmt.definitions if isinstance(d, ir.Enum)]
        ir_aliases = nesting.alias_order(self.fmt)
        enums = tuple(self.enum_view(e) for e in ir_enums)
        models = tuple(self.model_view(m) for m in fmt.models)
        aliases = tuple(self.alias_view(a) for a in ir_aliases)
        named = [ParserConst(parsers.parser_const(e.name), parsers.enum_parser(e, v.values_const)) for e, v in zip(ir_enums, enums)]
        named += [ParserConst(parsers.parser_const(a.name), parsers.parser(a.type)) for a in ir_aliases]
        root = fmt.definition(fmt.root)
        behaviour_constants = self.behaviour_constants()
        known_values = self.known_values()
        api_parse, api_validate = f"parse_{fmt.id}_from_json", f"validate_{snake_case(root.name)}"
        entries = tuple(
            EntryView(d.name, parsers.parser_const(d.name), snake_case(d.name))
            for d in fmt.definitions
            if isinstance(d, (ir.Enum, ir.Alias))
        )
        root_entry = next((e for e in entries if e.name == root.name), None)
        self.refuse_entries_alike(entries, api_parse)
        unknown = types.UNKNOWN in self.uses
        if unknown and any(d.name == "Unknown" for d in fmt.definitions):
            raise SpecError(
                fmt.source,
                pointer_of("$defs", "Unknown"),
                "the definition 'Unknown' would hide the runtime's Unknown, the Python type of an open enum's or union's unknown values",
                "rename the definition",
            )
        return ModuleView(
            header=header(fmt.source, self.behaviour.source("python") if self.behaviour else None),
            doc=f"{fmt.title} (format {fmt.id}, version {fmt.version}).\n\n{fmt.description}",
            format_id=fmt.id,
            version=fmt.version,
            imports=import_lines(self.uses - {types.UNKNOWN}),
            unknown=unknown,
            enums=enums,
            known_values=known_values,
            models=models,
            aliases=aliases,
            entries=entries,
            parsers=(*named, *self.parsers),
            defaults=tuple(self.defaults),
            regexes=tuple((const, pattern) for pattern, const in self.fast.regexes.items()),
            checks=tuple(ChecksView(checks_const(c), checks_expr(c), json.dumps(c.pointer)) for c in ir.checks_of(fmt)),
            root=root.name,
            root_entry=root_entry,
            api_parse=api_parse,
            api_validate=api_validate,
            exports=(
                *sorted(
                    {
                        *(e.name for e in enums),
                        *(e.values_const for e in enums),
                        *(a.name for a in aliases),
                        *(m.name for m in models),
                        *(k.const for k in known_values),
                        *(f for e in entries for f in e.functions),
                        *(["Unknown"] if unknown else []),
                    }
                ),
                "FORMAT_ID",
                "VERSION",
                "ValidationError",
                api_parse,
                *([] if root_entry else [api_validate]),
                *(c.name for c in behaviour_constants),
                *public_names(self.parts.module),
            ),
            behaviour_constants=behaviour_constants,
            behaviour=self.parts.module,
            behaviour_imports=tuple(self.parts.imports),
        )

    def module(self) -> str:
        """The module, formatted: rendered with the format's descriptions and version stood in for
        (targets/python/standins.py), so that an edit of them gives black nothing new to format."""
        blinded = standins.blind(self.fmt)
        if blinded is not None:
            skeleton, texts = blinded
            formatted = format_python(PythonModule(skeleton, self.names, self.behaviour).code(), slot=slot(self.fmt))
            restored = standins.restore(formatted, texts)
            if restored is not None:
                made(formatted, restored)  # its examples' check is remembered by the module stood in (examples.py)
                return restored
        return format_python(self.code(), slot=slot(self.fmt))

    def code(self) -> str:
        """The module as rendered, before black (ClashError: two top-level names collide)."""
        view = self.view()
        code = TEMPLATES.render("python/module.py.j2", **{f.name: getattr(view, f.name) for f in fields(view)})
        # Remembered by the text (a parse of the module, 20-40 ms, in every run that renders it; after an edit of
        # descriptions, the code with them stood in for is the last run's).
        clashes = cache.memo(
            "python-clashes", [cache.toolkit(TEMPLATE_FOLDER), code], lambda: [list(c) for c in python_top_level_clashes(code)]
        )
        for name, first, second in clashes[:1]:
            raise clash_error(self.fmt, "Python", name, f"{first}, and {second}")
        return code


def slot(fmt: ir.Format) -> str:
    """Where black formats the format's module run after run (generator.pyformat)."""
    return f"python/{fmt.id}.py"


def public_names(code: str) -> list[str]:
    """Top-level functions, classes and constants a behaviour block defines, for __all__."""
    return re.findall(r"^(?:def |class )?([A-Za-z][A-Za-z0-9_]*)(?:\(|:| =)", code, flags=re.M)


def render_shared(formats: list[ir.Format], package: str) -> dict[str, str]:
    """The files of generated/python/<package>/ no format owns, keyed by path under generated/."""
    base = f"python/{package}"
    # Format ids and versions that need no escapes are written as black writes them, so the file is
    # black's output as rendered and a run that changed only a version needs no black.
    plain = bool(formats) and all(re.fullmatch(r"[A-Za-z0-9_.+-]+", s) for f in formats for s in (f.id, f.version))
    init = TEMPLATES.render(
        "python/init.py.j2", header=header(None), formats=formats, package=package, quote=(lambda s: f'"{s}"') if plain else py_str
    )
    return {
        f"{base}/__init__.py": init if plain else format_python(init),
        f"{base}/_runtime.py": runtime.python_runtime(),
        f"{base}/py.typed": "",
    }


def render_module(fmt: ir.Format, package: str, names: Names, behaviour: Behaviour | None = None) -> dict[str, str]:
    """generated/python/<package>/<format>.py."""
    return {f"python/{package}/{fmt.id}.py": PythonModule(fmt, names, behaviour).module()}

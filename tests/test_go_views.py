"""The Go target's views and templates: every IR type and view kind is handled, or refused by name.

The Go target builds data-only views (generator/targets/go/views.py) and templates/go/ spells
them; these tests need no Go toolchain (tests/test_go.py compiles what they render).
"""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path

import pytest

from generator import ir
from generator.load import load_spec
from generator.naming import assign_names
from generator.render import environment
from generator.targets.go.encoders import Encoders
from generator.targets.go.package import TEMPLATES
from generator.targets.go.parsers import Parsers
from generator.targets.go.target import TARGET
from generator.targets.go.types import GoTypes
from generator.targets.go.views import Default, Encode, FieldStep, GoType, ListParser, RuleStep, ScalarParser, StringParser, TreeFunc

MSGS = {"type": "must be a value"}

# One value of each IR type kind, refs to each kind of definition in the format below.
SAMPLES: dict[type, list[ir.TypeRef]] = {
    ir.StringType: [ir.StringType(MSGS, min_length=1, pattern="^a")],
    ir.DateTimeType: [ir.DateTimeType(MSGS)],
    ir.BytesType: [ir.BytesType(MSGS)],
    ir.NumericType: [ir.NumericType(MSGS, integer=True, minimum=0), ir.NumericType(MSGS, integer=False, exclusive_maximum=0.5)],
    ir.BooleanType: [ir.BooleanType(MSGS)],
    ir.AnyType: [ir.AnyType(MSGS)],
    ir.ListType: [ir.ListType(ir.ListType(ir.DateTimeType(MSGS), MSGS), MSGS, unique_items=True)],
    ir.TupleType: [ir.TupleType((ir.StringType(MSGS), ir.BooleanType(MSGS)), {"type": "t", "prefixItems": "p"})],
    ir.MapType: [ir.MapType(ir.NullableType(ir.NumericType(MSGS, integer=True)), MSGS)],
    ir.NullableType: [ir.NullableType(ir.StringType(MSGS)), ir.NullableType(ir.ListType(ir.AnyType(MSGS), MSGS))],
    ir.UnionType: [ir.UnionType((ir.StringType(MSGS), ir.BooleanType(MSGS)), {"oneOf": "o"}, json_kinds=("string", "boolean"))],
    ir.Ref: [ir.Ref("Item", "model"), ir.Ref("Kind", "enum"), ir.Ref("Stamp", "alias"), ir.Ref("Either", "alias")],
}


def format_with(t: ir.TypeRef) -> ir.Format:
    """A format whose model Doc has one field x of type t, beside a definition of each kind t may refer to."""
    doc = ir.Model("Doc", "", (ir.Field("x", "x", t, True, "", "x is required"),), False, (), "must be an object", "unknown field")
    item = ir.Model("Item", "", (), False, (), "must be an object", "unknown field")
    kind = ir.Enum("Kind", "", ("a", "b"), {"type": "t", "enum": "e"})
    stamp = ir.Alias("Stamp", "", ir.DateTimeType(MSGS))
    either = ir.Alias("Either", "", ir.UnionType((ir.StringType(MSGS), ir.AnyType(MSGS)), {"oneOf": "o"},
                                                 json_kinds=("string", "object")))
    return ir.Format("sample", "1.0.0", "Sample", "", (), "Doc", (doc, item, kind, stamp, either), "specs/sample/spec.json")


def go_types(fmt: ir.Format, declared: list[str] | None = None) -> GoTypes:
    names = assign_names(fmt, TARGET.naming) if TARGET.naming else None
    assert names is not None
    return GoTypes(fmt, names, lambda name, inline, where: (declared if declared is not None else []).append(name))


def test_the_samples_cover_every_ir_type_kind() -> None:
    assert set(SAMPLES) == set(typing.get_args(ir.TypeRef)), "add a sample of the new IR type, so the Go target is made to handle it"


@pytest.mark.parametrize("t", [t for ts in SAMPLES.values() for t in ts], ids=lambda t: t.kind)
def test_every_ir_type_has_a_go_type_a_parser_and_an_encoder_that_the_templates_spell(t: ir.TypeRef) -> None:
    declared: list[str] = []
    types = go_types(format_with(t), declared)
    parsers, encoders = Parsers(types), Encoders(types)
    gotype = types.spell(t, "DocX", "/where")
    parser = parsers.parser(t, "DocX", "/where")
    encode = encoders.encode(t, "DocX", "/where")
    text = environment(None, TEMPLATES.filters).from_string(
        '{% from "go/parser_expr.go.j2" import parser %}{% from "go/encode_expr.go.j2" import encode %}'
        "{{ parser(p) }}\n{{ encode(e, 'm.X') }}").render(p=parser, e=encode)
    parse_text, encode_text = text.split("\n")
    assert gotype.spelling and parse_text and "m.X" in encode_text
    assert ("time" in gotype.packages) == ("time.Time" in gotype.spelling)
    if isinstance(t, (ir.UnionType, ir.TupleType)):
        assert declared == ["DocX"] and parse_text == "parseDocX"


def test_a_type_the_go_target_does_not_know_is_refused_naming_its_kind() -> None:
    @dataclasses.dataclass(frozen=True)
    class Bogus:
        messages: dict[str, str]
        kind: str = "bogus"

    types = go_types(format_with(ir.BooleanType(MSGS)))
    for build in (types.spell, Parsers(types).parser, Encoders(types).encode):
        with pytest.raises(AssertionError, match="'bogus'"):
            build(Bogus({}), "Hint", "/where")  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="'bogus'"):
        types.nilable(Bogus({}))  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="'bogus'"):
        go_types(format_with(Bogus({})))  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [
    lambda: Encode("bogus"),
    lambda: TreeFunc("bogus"),
    lambda: Default("bogus"),
    lambda: ScalarParser("bogus", {}),
    lambda: FieldStep("bogus", "F", "_", GoType("string"), "f", "pF"),
    lambda: RuleStep("bogus", "message"),
], ids=["encode", "tree_func", "default", "scalar_parser", "field_step", "rule_step"])
def test_a_view_of_a_kind_the_templates_have_no_case_for_cannot_be_made(make: typing.Callable[[], object]) -> None:
    with pytest.raises(AssertionError, match="'bogus'.*the templates handle"):
        make()


def test_a_template_meeting_a_view_kind_it_has_no_case_for_fails_naming_it() -> None:
    @dataclasses.dataclass(frozen=True)
    class Stray:
        kind: str = "stray"

    for template, macro in (("parser_expr", "parser(v)"), ("encode_expr", "encode(v, 'x')"), ("encode_expr", "tree_func(v)"),
                            ("parse_step", "step(v)")):
        name = macro.split("(")[0]
        source = f'{{% from "go/{template}.go.j2" import {name} %}}{{{{ {macro} }}}}'
        with pytest.raises(AssertionError, match="no template case for the view kind 'stray'"):
            environment(None, TEMPLATES.filters).from_string(source).render(v=Stray())


def test_parser_views_render_as_the_runtime_combinators_with_every_constraint_in_order() -> None:
    item = StringParser({"type": "t", "pattern": 'p "q"'}, 1, 9, "^a$", ("x", "y"), None)
    view = ListParser(GoType("string"), item, {"type": "must be an array"}, 1, None, True)
    text = environment(None, TEMPLATES.filters).from_string('{% from "go/parser_expr.go.j2" import parser %}{{ parser(p) }}').render(p=view)
    assert text == ('rt.List[string](rt.String(rt.StringSpec{Msgs: rt.Msgs{"type": "t", "pattern": "p \\"q\\""}, MinLength: rt.Int(1), '
                    'MaxLength: rt.Int(9), Pattern: rt.Pattern("^a$"), Enum: []string{"x", "y"}}), '
                    'rt.ListSpec{Msgs: rt.Msgs{"type": "must be an array"}, MinItems: rt.Int(1), UniqueItems: true})')


def test_a_package_imports_time_exactly_when_its_types_spell_a_date_time(tmp_path: Path) -> None:
    from generator.core import generate

    def files(field: dict[str, object]) -> dict[str, str]:
        import json

        folder = tmp_path / "specs" / f"t{len(list(tmp_path.rglob('spec.json')))}"
        folder.mkdir(parents=True)
        (folder / "spec.json").write_text(json.dumps({
            "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "T", "description": "T.", "x-version": "1.0.0",
            "$ref": "#/$defs/Doc", "$defs": {"Doc": {"type": "object", "description": "A document.", "properties": {"at": field}}}}))
        out = generate([load_spec(folder, tmp_path)], targets=["go"])
        return {path.rsplit("/", 1)[1]: text for path, text in out.items() if path.endswith((f"{folder.name}.go", "validate.go"))}

    plain = files({"type": "string"})
    assert not any('"time"' in text for text in plain.values())
    deep = files({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string", "format": "date-time"}}})
    assert all('\t"time"\n' in text for text in deep.values()) and len(deep) == 2


def test_the_naming_pass_names_go_inline_unions_and_tuples_and_their_fields_and_python_needs_none() -> None:
    union = ir.UnionType((ir.StringType(MSGS), ir.Ref("Item", "model")), {"oneOf": "o"}, json_kinds=("string", "object"))
    pair = ir.TupleType((ir.StringType(MSGS), ir.MapType(union, MSGS)), {"type": "t", "prefixItems": "p"}, names=("validate", ""))
    fmt = format_with(ir.ListType(ir.NullableType(pair), MSGS))
    assert TARGET.naming is not None
    names = assign_names(fmt, TARGET.naming)
    # the tuple sits in the list's items; its second item is a map whose values are the union
    assert names.inline_types == {"DocXItem": "/$defs/Doc/properties/x", "DocXItemItem1Value": "/$defs/Doc/properties/x"}
    assert names.members == {"DocXItem": ("ValidateField", "Item1"), "DocXItemItem1Value": ("String", "Item"),
                             "Either": ("String", "Object")}
    from generator.targets.python.target import TARGET as PYTHON

    assert PYTHON.naming is not None
    python = assign_names(fmt, PYTHON.naming)
    assert python.inline_types == {} and python.members == {}

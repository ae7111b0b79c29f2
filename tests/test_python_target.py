"""The Python target's dispatch is exhaustive: every IR type, rule kind and view kind has a case, and anything else fails loudly."""

from __future__ import annotations

import ast
import dataclasses
import json
import typing
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import GENERATED, GOLDEN, ROOT, golden_generated
from generator import ir
from generator.targets.python import encoders, parsers, types, views
from generator.render import environment
from generator.targets.python.literals import TEMPLATES, py_docstring

MSGS = {"type": "must be a string"}

# One value of every IR type, each a different shape (a ref of each target, a union of each kind).
SAMPLES: list[ir.TypeRef] = [
    ir.StringType(MSGS, min_length=1, max_length=9, pattern="^a$"),
    ir.StringType(MSGS, const="chat"),
    ir.StringType(MSGS, enum=("url", "base64")),
    ir.DateTimeType(MSGS),
    ir.BytesType(MSGS),
    ir.NumericType(MSGS, integer=True, minimum=1, exclusive_maximum=10.0),
    ir.NumericType(MSGS, integer=False, maximum=0.5),
    ir.BooleanType(MSGS),
    ir.AnyType(MSGS),
    ir.ListType(ir.StringType(MSGS), MSGS, min_items=1, max_items=3, unique_items=True),
    ir.TupleType((ir.StringType(MSGS),), MSGS),
    ir.TupleType((ir.StringType(MSGS), ir.AnyType(MSGS)), MSGS),
    ir.MapType(ir.AnyType(MSGS), MSGS),
    ir.NullableType(ir.DateTimeType(MSGS)),
    ir.UnionType((ir.Ref("A", "model"), ir.Ref("B", "model")), MSGS, discriminator="type", tags=("a", "b")),
    ir.UnionType((ir.StringType(MSGS), ir.ListType(ir.Ref("Block", "alias"), MSGS)), MSGS, json_kinds=("string", "array")),
    ir.Ref("Role", "enum"),
]


@dataclass(frozen=True)
class Mystery:
    """A type node no target knows."""

    kind: str = "mystery"


def test_samples_cover_every_ir_type() -> None:
    assert {type(t) for t in SAMPLES} == set(typing.get_args(ir.TypeRef))


@pytest.mark.parametrize("t", SAMPLES, ids=lambda t: t.kind)
def test_every_ir_type_has_an_annotation_a_parser_and_an_encoding_that_render_as_python(t: ir.TypeRef) -> None:
    ast.parse(render_parser(parsers.parser(t)), mode="eval")
    ast.parse(types.annotation(t).text, mode="eval")
    assert encoders.needs_dump(t) in (True, False)


def render_parser(p: views.Parser) -> str:
    return render('{% import "python/parsers.py.j2" as c %}{{ c.parser(p) }}', p=p)


def render(source: str, **context: object) -> str:
    """A snippet of template source with the Python target's filters."""
    return environment(None, TEMPLATES.filters).from_string(source).render(**context)


@pytest.mark.parametrize("spell", [types.annotation, parsers.parser, encoders.needs_dump], ids=["annotation", "parser", "needs_dump"])
def test_an_ir_type_without_a_case_fails_naming_its_kind(spell: typing.Callable[[typing.Any], object]) -> None:
    with pytest.raises(AssertionError, match="'mystery'"):
        spell(Mystery())
    with pytest.raises(AssertionError, match="'mystery'"):
        spell(ir.NullableType(Mystery()))  # type: ignore[arg-type]


def test_a_ref_to_an_unknown_kind_of_definition_fails() -> None:
    with pytest.raises(AssertionError, match="'ref'"):
        parsers.parser(ir.Ref("X", "table"))
    with pytest.raises(AssertionError, match="'ref'"):
        encoders.needs_dump(ir.Ref("X", "table"))


def rule_kinds() -> list[str]:
    """The rule kinds a spec may use: the meta-schema's $defs/rule kind enum."""
    schema = json.loads((ROOT / "generator" / "metaschema" / "chatspec.schema.json").read_text(encoding="utf-8"))
    kinds: list[str] = schema["$defs"]["rule"]["properties"]["kind"]["enum"]
    return kinds


# The fields sample_rule reads (compare reads their defaults: "a" has one, "b" has none).
_SAMPLE_FIELDS = {"a": ir.Field("a", "a", ir.NumericType(MSGS, integer=True), False, "", "m", has_default=True, default=1),
                  "b": ir.Field("b", "b", ir.NumericType(MSGS, integer=True), False, "", "m")}


def sample_rule(kind: str) -> ir.Rule:
    return ir.Rule(kind=kind, message="no {field}", after=None, fields=("a", "b"), up=2, pointer=("people",),
                   when=ir.WhenClause("b", ("0",), "x"), allowed=("p", "q"), equals="e")


@pytest.mark.parametrize("kind", rule_kinds())
def test_every_rule_kind_of_the_meta_schema_has_a_check_that_renders_as_python(kind: str) -> None:
    view = parsers.rule_view(sample_rule(kind), {"a": "a_value", "b": "b"}, _SAMPLE_FIELDS)
    assert view.kind == kind
    call = render('{% import "python/rules.py.j2" as r %}{{ r.check(v) }}', v=view)
    assert call.startswith(f"_rt.rule_{kind}(")
    ast.parse(call, mode="eval")


def test_a_rule_kind_without_a_case_fails_naming_it() -> None:
    with pytest.raises(AssertionError, match="'unheard_of'"):
        parsers.rule_view(sample_rule("unheard_of"), {"a": "a", "b": "b"}, _SAMPLE_FIELDS)


@pytest.mark.parametrize(("template", "call"), [
    ("python/parsers.py.j2", "parser"), ("python/rules.py.j2", "check"), ("python/fields.py.j2", "factory"),
])
def test_a_template_fails_on_a_view_kind_it_has_no_case_for(template: str, call: str) -> None:
    source = f'{{% import "{template}" as t %}}{{{{ t.{call}(v) }}}}'
    with pytest.raises(AssertionError, match="'mystery'"):
        render(source, v=Mystery())


_ITEM_FORMAT = ir.Format("sample", "1.0.0", "Sample", "", (), "Item", (ir.Model("Item", "", (), False, (), "must be an object", "unknown field"),), "")


@pytest.mark.parametrize(("field", "dataclass_default", "parse_tail"), [
    (ir.Field("a", "a", ir.StringType(MSGS), True, "", "missing"), "", "'missing')"),
    (ir.Field("a", "a", ir.NullableType(ir.StringType(MSGS)), True, "", "missing"), "", "'missing', nullable=True)"),
    (ir.Field("a", "a", ir.StringType(MSGS), False, "", "m", default_factory="uuid4"),
     " = field(default_factory=_rt.new_uuid4)", "factory=_rt.new_uuid4)"),
    (ir.Field("a", "a", ir.MapType(ir.AnyType(MSGS), MSGS), False, "", "m", has_default=True, default={}),
     " = field(default_factory=dict)", "factory=dict)"),
    (ir.Field("a", "a", ir.ListType(ir.AnyType(MSGS), MSGS), False, "", "m", has_default=True, default=[1, "x"]),
     " = field(default_factory=lambda: [1, 'x'])", "factory=lambda: [1, 'x'])"),
    (ir.Field("a", "a", ir.NumericType(MSGS, integer=False), False, "", "m", has_default=True, default=2.0),
     " = 2", "default=2)"),
    (ir.Field("a", "a", ir.BooleanType(MSGS), False, "", "m", has_default=True, default=False), " = False", "default=False)"),
    (ir.Field("a", "a", ir.StringType(MSGS), False, "", "m", has_default=True, default=None), " = None", "_P_A)"),
    (ir.Field("a", "a", ir.StringType(MSGS), False, "", "m"), " = None", "_P_A)"),
    (ir.Field("a", "a", ir.ListType(ir.Ref("Item", "model"), MSGS), False, "", "m", has_default=True, default=[{}]),
     " = field(default_factory=lambda: _default_a())", "factory=lambda: _default_a())"),
], ids=["required", "required_nullable", "uuid4", "empty_map", "non_empty_list", "float_whole", "false", "null", "absent", "models"])
def test_each_kind_of_default_is_spelt_in_the_class_and_in_the_parse_call(field: ir.Field, dataclass_default: str, parse_tail: str) -> None:
    # A default holding models is built by the field's parser (through a function): a list of objects, not dicts.
    view = views.FieldView(attr="a", local="a", wire="a", annotation="str", default=parsers.default(field, _ITEM_FORMAT, "_default_a"), doc="", parser="_P_A",
                           required_message=field.required_message, nullable=isinstance(field.type, ir.NullableType),
                           dump=encoders.needs_dump(field.type), omit_when_none=not field.required)
    assert render('{% import "python/fields.py.j2" as f %}{{ f.default(d) }}', d=view.default) == dataclass_default
    call = render('{% import "python/fields.py.j2" as f %}{{ f.parse(v) }}', v=view)
    assert call.endswith(parse_tail), call
    ast.parse(call)


def test_an_unknown_default_factory_fails_naming_it() -> None:
    with pytest.raises(AssertionError, match="'uuid7'"):
        parsers.default(ir.Field("a", "a", ir.StringType(MSGS), False, "", "m", default_factory="uuid7"), _ITEM_FORMAT)


@pytest.mark.parametrize("text", ['ends in a quote"', 'three """ quotes', "back\\slash", "nul\x00 and \x1b escape", "cr\r\nlf", "\x7f"])
def test_docstrings_survive_hostile_text(text: str) -> None:
    source = py_docstring(text)
    assert source.isprintable() or "\n" in source
    assert ast.literal_eval(source) == text.replace("\r\n", "\n")


def test_deeply_nested_types_render() -> None:
    t: ir.TypeRef = ir.StringType(MSGS)
    for _ in range(60):
        t = ir.ListType(ir.MapType(t, MSGS), MSGS)
    expression = render_parser(parsers.parser(t))
    assert expression.count("_rt.list_of(") == 60
    ast.parse(expression, mode="eval")
    assert types.annotation(t).text.count("list[dict[str, ") == 60


def generated_modules() -> list[str]:
    """The committed generated modules and the golden cases' (as this checkout generates them, not their expected/ files)."""
    found = [p.relative_to(ROOT).as_posix() for p in GENERATED.glob("python/chatformats/*.py")]
    found += [f"tests/golden/{p.name}/{p.name}.py" for p in GOLDEN.iterdir() if (p / "spec.json").is_file()]
    return sorted(p for p in found if not Path(p).name.startswith("_"))


@pytest.mark.parametrize("path", generated_modules())
def test_every_standard_library_name_a_module_imports_is_used_in_it(path: str) -> None:
    if path.startswith("tests/golden/"):
        text = golden_generated(("python",))[f"python/chatformats/{Path(path).name}"]
    else:
        text = (ROOT / path).read_text(encoding="utf-8")
    tree = ast.parse(text)
    imported = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) and n.module in ("dataclasses", "datetime", "typing")
                for a in n.names}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    # `field` stays for behaviour code, which uses it unimported (module.SKELETON_IMPORTS).
    assert imported - used - {"field"} == set()
    assert imported >= used & {"datetime", "Literal", "TypeAlias", "Any", "Final", "dataclass"}


# --- descriptions and the version kept out of what black formats (generator/targets/python/standins.py) ---

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from generator.standins import plain  # noqa: E402
from generator.targets.python import standins  # noqa: E402


def _module_both_ways(fmt: ir.Format) -> tuple[str, str | None]:
    from generator.core import context
    from generator.load import load_spec
    from generator.pyformat import _black
    from generator.targets.python.module import PythonModule

    ctx = context([load_spec(GOLDEN / "optional_vs_nullable", ROOT)], (fmt,), described=False)
    names = ctx.names["python"][fmt.id]
    real = _black(PythonModule(fmt, names).code())
    blinded = standins.blind(fmt)
    if blinded is None:
        return real, None
    skeleton, texts = blinded
    return real, standins.restore(_black(PythonModule(skeleton, names).code()), texts)


_DOC = st.one_of(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=100),
                 st.integers(70, 100).map(lambda n: ("word " * 30)[:n].strip() or "w"),  # around black's 85-character turn
                 st.sampled_from(['a "quoted" word', 'ends in "a quote"', "two\nlines", " padded ", "back\\slash", "é and 漢字"]))


@pytest.mark.slow
@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.lists(_DOC, min_size=1, max_size=12), _DOC, st.sampled_from(["1.0.0", "2.13.7-rc.1+build.5", "0.0.1"]))
def test_the_module_is_the_same_with_descriptions_and_version_stood_in_for_and_put_back(texts: list[str], about: str, version: str) -> None:
    from generator.load import load_spec
    from generator.lower import lower

    fmt = lower(load_spec(GOLDEN / "optional_vs_nullable", ROOT))
    drawn = iter(texts * 20)
    definitions = tuple(dataclasses.replace(d, description=next(drawn), **(
        {"fields": tuple(dataclasses.replace(f, description=next(drawn)) for f in d.fields)} if isinstance(d, ir.Model) else {}))
        for d in fmt.definitions)
    fmt = dataclasses.replace(fmt, description=about, version=version, definitions=definitions)
    real, restored = _module_both_ways(fmt)
    if plain(about):
        assert restored is not None, "a plain module description always comes back"
    if restored is not None:
        assert restored == real


def test_a_stand_in_black_could_format_by_its_content_means_the_real_module_is_formatted() -> None:
    texts = ["A model.", "The format.", "1.0.0"]
    assert standins.restore('class A:\n    """chatspecdescription0z"""\n', texts) == 'class A:\n    """A model."""\n'
    assert standins.restore('VERSION: Final = "chatspecversionz"\n', texts) == 'VERSION: Final = "1.0.0"\n'
    assert standins.restore('X = "chatspecdescription0z"\n', texts) is None  # a string black may wrap by its length
    assert standins.restore('class A:\n    """See chatspecdescription0z."""\n', texts) is None
    assert standins.restore('class A:\n    """chatspecdescription2z"""\n', texts) is None  # the version's number is not a description's


def test_a_title_that_spells_the_versions_stand_in_is_written_as_it_is() -> None:
    # The title shares the docstring's first line with the version's stand-in: put back, the version replaced both.
    from generator.load import load_spec
    from generator.lower import lower

    fmt = dataclasses.replace(lower(load_spec(GOLDEN / "optional_vs_nullable", ROOT)), title="Spelt chatspecversionz", version="2.0.0")
    real, restored = _module_both_ways(fmt)
    assert "Spelt chatspecversionz (format" in real
    assert restored is None or restored == real
    # Descriptions that spell it, stood in for (one line) or not (two): not written over with the version either.
    base, model, spelt = fmt, fmt.models[0], "Spelt chatspecversionz."
    for where in ["format", "model", "field", "two lines"]:
        text = spelt.replace(" ", "\n") if where == "two lines" else spelt
        field = dataclasses.replace(model.fields[0], description=text if where == "field" else "A field.")
        described = dataclasses.replace(model, description=text if where in ("model", "two lines") else "A model.", fields=(field, *model.fields[1:]))
        fmt = dataclasses.replace(base, title="Plain", description=text if where == "format" else "Plain.",
                                  definitions=tuple(described if d is model else d for d in base.definitions))
        real, restored = _module_both_ways(fmt)
        assert "chatspecversionz." in real and "2.0.0." not in real, where
        assert restored is None or restored == real, where


def test_a_module_that_may_read_docstrings_or_a_version_makes_its_check_read_every_module_as_written() -> None:
    # The examples' check is remembered by the modules stood in for only where the texts put back cannot change
    # what any of them does (generator/standins.py): a module that may read VERSION or a docstring, its own or
    # another module's, by name or without spelling it, makes every module of the check read as written.
    from generator import ir, standins
    from generator.example_keys import check_keys

    stood_in = f'"""{standins.stand_in(0)}"""\nVERSION: Final = "{standins.VERSION}"\n__all__ = [\n    "VERSION",\n]\n'
    fmt = ir.Format(id="f", version="1.2.3", title="F", description="A chat.", decisions=(), root="F", definitions=(), source="specs/f/spec.json")
    plain = 'def f(built):\n    built.__dict__ = {\n        "a": 1,\n    }\n'  # the fast path's, as generated
    reading = ["LATEST = _other.VERSION\n", "HELP = parse.__doc__\n", "HELP = inspect.getdoc(parse)\n", 'V = globals()["VER" + "SION"]\n',
               'V = getattr(_other, "VER" + "SION")\n', "V = vars(_other)\n", "S = open(__file__).read()\n", "V = _other.__dict__\n"]
    for code, kept in [("", True), (plain, True), ("MY_VERSION = 1\n", True), *((c, False) for c in reading)]:
        made = (stood_in + code).replace(standins.stand_in(0), "A chat.").replace(standins.VERSION, "1.2.3")
        standins.made(stood_in + code, made)
        assert (standins.as_run(made) != made) and standins.reads_texts(made) is not kept, code
        other = stood_in.replace(standins.stand_in(0), "Other.").replace(standins.VERSION, "2.0.0")
        standins.made(stood_in, other)
        # Two modules in one check: the reader's verdict is remembered by the other's text as written.
        keys = check_keys("examples", "p", fmt, {"f": made, "other": other})
        assert len(keys) == (2 if kept else 1), code
        assert standins.as_run(made.replace("A chat.", "A talk.")) == made.replace("A chat.", "A talk.")  # not made here

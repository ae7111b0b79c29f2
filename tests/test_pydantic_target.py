"""The pydantic target's dispatch is exhaustive: every rule kind gets a validator, every IR type a null message, anything else fails loudly."""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys

import pytest

from conftest import ROOT
from generator import ir
from generator.targets.pydantic import validators
from test_python_target import MSGS, SAMPLES, Mystery, rule_kinds, sample_rule


def a_format(rule: ir.Rule) -> ir.Format:
    doc = ir.Model("Doc", "", (ir.Field("a", "a", ir.StringType(MSGS), False, "", "m"),
                              ir.Field("b", "b", ir.ListType(ir.StringType(MSGS), MSGS), False, "", "m")),
                   False, (dataclasses.replace(rule, up=0),), "must be an object", "unknown")
    return ir.Format("f", "1.0.0", "F", "", (), "Doc", (doc,), "specs/f/spec.json")


def test_the_validators_cover_exactly_the_rule_kinds_of_the_meta_schema() -> None:
    assert validators.RULE_KINDS == set(rule_kinds())


@pytest.mark.parametrize("kind", rule_kinds())
def test_every_rule_kind_renders_a_validator_that_parses_as_python(kind: str) -> None:
    method = validators.validators(a_format(sample_rule(kind)))["Doc"][0]  # rules first, then the null check
    assert f"def _rule_0_{kind}(cls, data: Any) -> Any:" in method
    ast.parse(method)
    assert "raise ValueError('no {field}')" in method or "_rule_member_of(" in method


def test_a_rule_kind_without_a_validator_fails_naming_it() -> None:
    with pytest.raises(AssertionError, match="'unheard_of'"):
        validators.validators(a_format(sample_rule("unheard_of")))


def test_the_rule_template_fails_on_a_kind_it_has_no_case_for() -> None:
    with pytest.raises(AssertionError, match="'unheard_of'"):
        validators.TEMPLATES.render("pydantic/rule.py.j2", rule=sample_rule("unheard_of"), index=0, depth=0, via=None,
                                    field="a", pool=(), message="m", doc="d")


@pytest.mark.parametrize("t", SAMPLES, ids=lambda t: t.kind)
def test_every_ir_type_has_a_null_message(t: ir.TypeRef) -> None:
    fmt = dataclasses.replace(a_format(sample_rule("contains")), definitions=(
        ir.Model("A", "", (), False, (), "A must be an object", ""), ir.Model("B", "", (), False, (), "", ""),
        ir.Alias("Block", "", ir.StringType({"type": "block must be text"})), ir.Enum("Role", "", ("x",), {"type": "role?"}),
    ))
    assert validators.null_message(fmt, t)
    assert validators.null_message(fmt, ir.Ref("Block", "alias")) == "block must be text"
    assert validators.null_message(fmt, ir.Ref("Role", "enum")) == "role?"


def test_an_ir_type_without_a_null_message_fails_naming_its_kind() -> None:
    with pytest.raises(AssertionError, match="'mystery'"):
        validators.null_message(a_format(sample_rule("contains")), Mystery())  # type: ignore[arg-type]


def test_the_registry_imports_neither_the_model_builder_nor_its_tools() -> None:
    code = "import sys, generator.targets; print(sorted(m for m in sys.modules if m.startswith(('generator.targets.pydantic.models', 'generator.targets.python.module', 'jinja2', 'black', 'datamodel_code_generator'))))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"

"""Pydantic target: pydantic v2 models made by datamodel-code-generator from the exported JSON Schema.

datamodel-code-generator (pinned) turns the exported schema into models with its
own templates; chatspec then adds to each model a validator per spec rule
(templates/pydantic/rule.py.j2), because pydantic has no if/then or contains,
and rules such as "speaker in people" are no JSON Schema at all. (They are added
to the generated classes rather than through a custom model template: in 0.89.0
a custom template loses the built-in docstring formatting.) The output is
formatted with the same black as every other Python file: deterministic and
golden-locked.
"""

from __future__ import annotations

import ast
import json
import textwrap
import warnings
from collections import defaultdict
from typing import Any

from generator import ir
from generator.errors import SpecError, pointer_of
from generator.render import header, render
from generator.targets.python import format_python

PACKAGE = "chatformats_pydantic"


def rule_owner(fmt: ir.Format, model: ir.Model, rule: ir.Rule) -> tuple[str, str | None]:
    """The model whose validator can see what the rule reads, and the list field leading to `model`.

    A member_of rule with a relative pointer ("2/people" on a message) reads its
    ancestor; pydantic validates a model without its parent, so the check moves up.
    """
    if rule.up == 0:
        return model.name, None
    for owner in fmt.models:
        for f in owner.fields:
            t = f.type.inner if isinstance(f.type, ir.NullableType) else f.type
            if rule.up == 2 and isinstance(t, ir.ListType) and isinstance(t.item, ir.Ref) and t.item.name == model.name:
                return owner.name, f.wire_name
    raise SpecError(fmt.source, pointer_of("$defs", model.name, "x-rules"),
                    f"the pydantic target cannot place a {rule.kind} rule that looks {rule.up} level(s) up",
                    "use a pointer into the model itself, or into the model holding a list of it (2 levels up)")


def validators(fmt: ir.Format) -> dict[str, list[str]]:
    """The validator methods to add to each model, by class name."""
    methods: dict[str, list[str]] = defaultdict(list)
    for model in fmt.models:
        for rule in model.rules:
            owner, via = rule_owner(fmt, model, rule)
            index = len(methods[owner])
            methods[owner].append(render(
                "pydantic/rule.py.j2", rule=rule, index=index, depth=rule.up, via=via,
                field=rule.fields[0], pool=rule.pointer, message=rule.message,
                doc=f"{rule.kind} rule of {model.name}: {rule.message}".replace('"""', "'''").replace("\\", "\\\\"),
            ).rstrip("\n"))
    for model in fmt.models:
        integral = [(f.wire_name, shape) for f in model.fields if (shape := integer_shape(f.type)) is not None]
        unique = [(f.wire_name, t.messages["uniqueItems"]) for f in model.fields
                  for t in [f.type.inner if isinstance(f.type, ir.NullableType) else f.type]
                  if isinstance(t, ir.ListType) and t.unique_items]
        if integral or unique:
            methods[model.name].append(render("pydantic/values.py.j2", integral=integral, unique=unique).rstrip("\n"))
    return dict(methods)


def integer_shape(t: ir.TypeRef) -> Any:
    """Where a field's value holds integers: "int", ("list"|"map", shape), ("tuple", [shape or None]); None if nowhere.
    (A referenced model converts its own fields.)"""
    if isinstance(t, ir.NullableType):
        return integer_shape(t.inner)
    if isinstance(t, ir.NumericType):
        return "int" if t.integer else None
    if isinstance(t, ir.ListType):
        inner = integer_shape(t.item)
        return None if inner is None else ("list", inner)
    if isinstance(t, ir.MapType):
        inner = integer_shape(t.value)
        return None if inner is None else ("map", inner)
    if isinstance(t, ir.TupleType):
        shapes = [integer_shape(i) for i in t.items]
        return ("tuple", shapes) if any(s is not None for s in shapes) else None
    return None


def add_methods(code: str, methods: dict[str, list[str]]) -> str:
    """Append methods to the bodies of the named top-level classes."""
    lines = code.split("\n")
    classes = [n for n in ast.parse(code).body if isinstance(n, ast.ClassDef) and n.name in methods]
    for node in sorted(classes, key=lambda n: n.lineno, reverse=True):
        assert node.end_lineno is not None
        body = "\n\n".join(textwrap.indent(m, "    ") for m in methods[node.name])
        lines[node.end_lineno:node.end_lineno] = ["", body]
    missing = set(methods) - {n.name for n in classes}
    assert not missing, f"no generated class for {missing}"
    return "\n".join(lines)


def render_models(fmt: ir.Format, schema: dict[str, Any]) -> str:
    from datamodel_code_generator import DataModelType, InputFileType, PythonVersion, generate
    from datamodel_code_generator.enums import StrictTypes
    from datamodel_code_generator.format import Formatter

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notices about future defaults; every option we rely on is set
        code = generate(
            json.dumps(schema),
            input_file_type=InputFileType.JsonSchema,
            output_model_type=DataModelType.PydanticV2BaseModel,
            target_python_version=PythonVersion.PY_311,
            disable_timestamp=True,
            use_schema_description=True,
            use_field_description=True,
            # Optional is not nullable unless the spec says so; no lax coercion ("1" -> 1).
            strict_nullable=True,
            # Constraints as Annotated[..., Field(...)] survive inside unions (con*() there loses minItems).
            use_annotated=True,
            field_constraints=True,
            strict_types=[StrictTypes.str, StrictTypes.int, StrictTypes.float, StrictTypes.bool],
            custom_file_header=f"# {header(fmt.source)}\n# Pydantic v2 models made by datamodel-code-generator from jsonschema/{fmt.id}.schema.json.",
            formatters=[Formatter.BLACK],
        )
    assert isinstance(code, str)
    methods = validators(fmt)
    if methods:
        code = add_methods(code, methods)
        code = code.replace("from __future__ import annotations\n", "from __future__ import annotations\n\nimport json\n\nfrom pydantic import model_validator\n", 1)
        code += render("pydantic/helpers.py.j2")
    return format_python(code)


def render_package(formats: list[ir.Format], schemas: dict[str, dict[str, Any]]) -> dict[str, str]:
    base = f"pydantic/{PACKAGE}"
    files = {f"{base}/__init__.py": f"# {header(None)}\n\"\"\"Pydantic v2 models of the chat formats (needs pydantic; the dataclasses in chatformats do not).\"\"\"\n"}
    for fmt in formats:
        files[f"{base}/{fmt.id}.py"] = render_models(fmt, schemas[fmt.id])
    return files

"""Pydantic v2 models made by datamodel-code-generator (pinned) from the exported JSON Schema,
then retyped where its types accept other JSON than the dataclasses, given Python's regex
engine, and given the validators of generator.targets.pydantic.validators. The output is
formatted with the same black as every other Python file: deterministic and golden-locked.
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
import warnings
from pathlib import Path
from typing import Any

from generator import cache, invisible, ir, pyformat
from generator.errors import SpecError, pointer_of
from generator.patterns import PatternError
from generator.pyformat import format_python
from generator.pyregex import checks_const, checks_expr, pinned, to_python
from generator.render import header
from generator.targets.pydantic import descriptions
from generator.targets.pydantic.validators import TEMPLATES, add_methods, validators

# datamodel-code-generator's types that accept other JSON than the dataclasses do, and
# chatspec's replacements (templates/pydantic/json_types.py.j2): StrictInt refuses 1.0,
# which JSON Schema calls an integer; AwareDatetime takes numbers and non-RFC 3339 text.
JSON_TYPES = {"StrictInt": "_JsonInt", "AwareDatetime": "_JsonDatetime"}
JSON_TYPES_IMPORTS = {
    "re": ["re"],
    "datetime": ["datetime", "timedelta", "timezone"],
    "pydantic": ["AwareDatetime", "BeforeValidator", "Discriminator", "PlainValidator", "Strict", "Tag"],
    "typing": ["Annotated", "Any", "Callable"],
}


def class_names(fmt: ir.Format, code: str) -> dict[str, str]:
    """Each definition's class in datamodel-code-generator's module: its own name, or, where the module imports
    that name (a definition named Field, StrictInt or BaseModel), the name with "Model" appended, as
    datamodel-code-generator names it (a class named like an import would shadow it: wrong verdicts)."""
    classes = {n.name for n in ast.parse(code).body if isinstance(n, ast.ClassDef)}
    names = {d.name for d in fmt.definitions}
    out = {}
    for d in fmt.definitions:
        if d.name in classes:
            out[d.name] = d.name
        elif d.name + "Model" in classes and d.name + "Model" not in names:
            out[d.name] = d.name + "Model"
    return out


def tag_kind_unions(fmt: ir.Format, code: str) -> str:
    """Give each named union told apart by JSON kind (e.g. Content: a string or a list) a
    callable discriminator on the value's kind, as the dataclasses choose the variant: a
    value then fails in one variant only (one error, not one per variant)."""
    tree = ast.parse(code)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    class_of = class_names(fmt, code)
    lines = code.split("\n")
    edits = []
    for alias in fmt.definitions:
        if not (isinstance(alias, ir.Alias) and isinstance(alias.type, ir.UnionType) and alias.type.json_kinds and alias.name in class_of):
            continue
        root = next(
            (
                n
                for n in classes[class_of[alias.name]].body
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == "root"
            ),
            None,
        )
        names = _union_names(root.annotation) if root is not None else None
        if root is None or names is None or len(names) != len(alias.type.json_kinds):
            continue  # not the shape datamodel-code-generator gives a named union: left as it is
        tagged = " | ".join(f'Annotated[{n}, Tag("{k}")]' for n, k in zip(names, alias.type.json_kinds))
        edits.append((root.annotation, f"Annotated[{tagged}, Discriminator(_json_kind({tuple(dict.fromkeys(alias.type.json_kinds))!r}))]"))
    for node, text in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset), reverse=True):
        assert node.end_lineno is not None and node.end_col_offset is not None
        first, last = lines[node.lineno - 1], lines[node.end_lineno - 1]
        lines[node.lineno - 1 : node.end_lineno] = [first[: node.col_offset] + text + last[node.end_col_offset :]]
    return "\n".join(lines)


def _union_names(node: ast.expr) -> list[str] | None:
    """["A", "B"] for the annotation A | B, None for anything else."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _union_names(node.left), _union_names(node.right)
        return left + right if left is not None and right is not None else None
    return None


def retype(code: str, fmt: ir.Format) -> str:
    """Replace the JSON_TYPES names in datamodel-code-generator's code (names only, not
    text in strings or docstrings), tag the unions by JSON kind, and define what they
    use after the imports."""
    tagged = tag_kind_unions(fmt, code)
    tree = ast.parse(tagged)
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in JSON_TYPES})
    if not used and tagged == code:
        return code
    code = tagged
    lines = code.split("\n")
    edits = sorted(
        ((n.lineno, n.col_offset, n.end_col_offset) for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in JSON_TYPES), reverse=True
    )
    for line, start, end in edits:
        text = lines[line - 1]
        lines[line - 1] = text[:start] + JSON_TYPES[text[start:end]] + text[end:]
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    for node in sorted(imports, key=lambda n: n.lineno, reverse=True):
        if isinstance(node, ast.ImportFrom) and node.module == "pydantic" and any(a.name in JSON_TYPES for a in node.names):
            kept = [a.name for a in node.names if a.name not in JSON_TYPES]
            lines[node.lineno - 1 : node.end_lineno] = [f"from pydantic import {', '.join(kept)}"] if kept else []
    body = ast.parse("\n".join(lines)).body
    have = {
        (n.module if isinstance(n, ast.ImportFrom) else a.name, a.name)
        for n in body
        if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }
    wanted = []
    for module, names in JSON_TYPES_IMPORTS.items():
        missing = [name for name in names if (module, name) not in have]
        if missing:
            wanted.append(f"import {module}" if missing == [module] else f"from {module} import {', '.join(missing)}")
    last = max(n.end_lineno or n.lineno for n in body if isinstance(n, (ast.Import, ast.ImportFrom)))
    lines[last:last] = [*wanted, "", TEMPLATES.render("pydantic/json_types.py.j2").rstrip("\n"), ""]
    return "\n".join(lines)


def python_regex_engine(code: str) -> str:
    """Every model with a pattern validates it with Python's re, as the dataclasses do.

    pydantic's default engine (Rust's regex) reads \\d and \\w with its own Unicode tables and refuses
    large Unicode repeats such as \\w{1000}; the patterns are written as the dataclasses spell them
    (pyregex.pinned: `$` as `\\Z`), the meaning the README's pattern table states for every target."""
    tree = ast.parse(code)
    lines = code.split("\n")
    edits: list[tuple[int, int, str]] = []  # (line index, column, text to insert), applied bottom-up
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        if not any(isinstance(k, ast.keyword) and k.arg == "pattern" for k in ast.walk(node)):
            continue
        config = next(
            (
                s.value
                for s in node.body
                if isinstance(s, ast.Assign)
                and isinstance(s.value, ast.Call)
                and any(isinstance(t, ast.Name) and t.id == "model_config" for t in s.targets)
            ),
            None,
        )
        if config is not None:
            if any(k.arg == "regex_engine" for k in config.keywords):
                continue  # datamodel-code-generator already chose Python's re (e.g. for a look-ahead)
            assert config.func.end_col_offset is not None  # parsed from text: every node has its position
            edits.append((config.lineno - 1, config.func.end_col_offset + 1, 'regex_engine="python-re", '))
        else:
            first = node.body[0]
            documented = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
            at = first.end_lineno if documented and first.end_lineno else first.lineno - 1
            edits.append((at, -1, " " * first.col_offset + 'model_config = ConfigDict(regex_engine="python-re")'))
    if not edits:
        return code
    for line, column, text in sorted(edits, reverse=True):
        if column < 0:
            lines.insert(line, text)
        else:
            lines[line] = lines[line][:column] + text + lines[line][column:]
    code = "\n".join(lines)
    if not re.search(r"^from pydantic import .*\bConfigDict\b", code, re.M):
        found = re.search(r"^from pydantic import ([\w, ]+)$", code, re.M)
        assert found is not None, "datamodel-code-generator's output imports nothing from pydantic"
        names = sorted({*found.group(1).split(", "), "ConfigDict"})
        code = code[: found.start(1)] + ", ".join(names) + code[found.end(1) :]
    return code


def pinned_patterns(code: str) -> str:
    """Every pattern datamodel-code-generator copied from the schema, as the dataclasses spell it (pyregex.pinned):
    `$` as `\\Z` (the end of the text, as ECMA-262 reads `$`), and one holding \\d or \\w through _rt.pinned, which
    spells them out as their pinned ranges where the Python running the models would read them with other Unicode
    tables. A pattern Python reads as the spec does is left as written."""
    lines = code.split("\n")
    for node in ast.walk(ast.parse(code)):
        if not (isinstance(node, ast.keyword) and node.arg == "pattern" and isinstance(node.value, ast.Constant)):
            continue
        value = node.value
        if not isinstance(value.value, str) or value.lineno != value.end_lineno or value.end_col_offset is None:
            continue  # (datamodel-code-generator writes each pattern as one literal on one line)
        try:
            spelt = pinned(value.value)
        except PatternError:
            continue  # a pattern of chatspec's own (the export's base64 text), no spec pattern: it holds no \\d or \\w
        if spelt.startswith("_rt.") or to_python(value.value) != value.value:
            line = lines[value.lineno - 1].encode()  # ast's columns count UTF-8 bytes
            lines[value.lineno - 1] = (line[: value.col_offset] + spelt.encode() + line[value.end_col_offset :]).decode()
    return "\n".join(lines)


def render_models(fmt: ir.Format, schema: dict[str, Any]) -> str:
    """The module, made from the schema with its descriptions stood in for and then put back
    (generator/targets/pydantic/descriptions.py): a run that changed descriptions only runs neither
    datamodel-code-generator nor black. Where a stand-in lands anywhere but a docstring line of its
    own, the module is made from the real schema."""
    schema = open_models_keep_unknown(fmt, schema)
    blinded = descriptions.blind(schema)
    if blinded is not None:
        skeleton, texts = blinded
        code = descriptions.restore(_module(fmt, skeleton, blinded=True), texts)
        if code is not None:
            return code
    return _module(fmt, schema)


def open_models_keep_unknown(fmt: ir.Format, schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with "additionalProperties": true written on each open model (the same meaning as leaving it
    out): datamodel-code-generator then gives the class extra="allow", so pydantic keeps the properties the spec
    does not name (model_extra) and writes them back, as every other target does; by default it drops them."""
    defs = schema["$defs"]
    opened = {m.name for m in fmt.models if not m.closed and m.name in defs and "additionalProperties" not in defs[m.name]}
    if not opened:
        return schema
    return {**schema, "$defs": {name: {**d, "additionalProperties": True} if name in opened else d for name, d in defs.items()}}


def validated_defaults(code: str) -> str:
    """A default datamodel-code-generator leaves for pydantic to validate into a class of the module (Annotated[Content,
    Field(validate_default=True)] = "hi", JSON a RootModel or a model is built from) as
    Field(default_factory=lambda: Content.model_validate("hi")): the same value to pydantic, a fresh one for each
    object, and one mypy --strict accepts (a str is no Content; Field(default="hi") is typed as its default). Built
    when an object is, not when the class is: the class may come before what validating it needs (a later class,
    a validator's helper, itself)."""
    tree = ast.parse(code)
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    edits: list[tuple[ast.expr, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.annotation, ast.Subscript)):
            continue
        annotated = node.annotation
        if not (isinstance(annotated.value, ast.Name) and annotated.value.id == "Annotated" and isinstance(annotated.slice, ast.Tuple)):
            continue
        kind = annotated.slice.elts[0]
        marked = any(isinstance(n, ast.keyword) and n.arg == "validate_default" for n in ast.walk(annotated))
        if marked and isinstance(kind, ast.Name) and kind.id in classes:
            edits.append((node.value, kind.id))
    lines = code.split("\n")
    for value, cls in sorted(edits, key=lambda e: (e[0].lineno, e[0].col_offset), reverse=True):
        assert value.end_lineno is not None and value.end_col_offset is not None
        last = value.end_lineno - 1
        lines[last] = lines[last][: value.end_col_offset] + "))" + lines[last][value.end_col_offset :]
        first = value.lineno - 1
        lines[first] = (
            lines[first][: value.col_offset] + f"Field(default_factory=lambda: {cls}.model_validate(" + lines[first][value.col_offset :]
        )
    return "\n".join(lines)


def _module(fmt: ir.Format, schema: dict[str, Any], blinded: bool = False) -> str:
    code = cache.memo("datamodel-codegen", _key_parts(fmt, schema, blinded), lambda: _datamodel_codegen(fmt, schema))
    code = pinned_patterns(python_regex_engine(retype(validated_defaults(code), fmt)))
    methods = validators(fmt)
    if methods:
        class_of = class_names(fmt, code)
        missing = sorted(set(methods) - set(class_of))
        if missing:
            raise SpecError(
                fmt.source,
                pointer_of("$defs", missing[0]),
                f"the pydantic module has no class for the definition {missing[0]!r} (datamodel-code-generator named it otherwise)",
                "rename the definition",
            )
        code = add_methods(code, {class_of[name]: listed for name, listed in methods.items()})
        imports = "from pydantic import model_validator\n"
        if not re.search(r"^from typing import .*\bAny\b", code, re.M):
            imports += "from typing import Any\n"  # the validators' annotations
        code = code.replace("from __future__ import annotations\n", "from __future__ import annotations\n\n" + imports, 1)
        code += TEMPLATES.render("pydantic/helpers.py.j2")
        if any(r.kind == "compare" for m in fmt.models for r in m.rules):
            code += TEMPLATES.render("pydantic/compare.py.j2")
        found = ir.checks_of(fmt)
        if found or any("_check_applied(" in method for listed in methods.values() for method in listed):
            listed = [{"name": checks_const(c.digest), "expr": checks_expr(c.text, c.patterns)} for c in found]
            code += TEMPLATES.render("pydantic/applied_helpers.py.j2", checks=listed)
    if "_rt." in code:  # a pinned pattern or an applied check (importing it for a description's "_rt." is harmless)
        code = code.replace(
            "from __future__ import annotations\n", "from __future__ import annotations\n\nfrom . import _runtime as _rt\n", 1
        )
    return escape_invisible(format_python(code, slot=f"pydantic/{fmt.id}.py"))


def escape_invisible(code: str) -> str:
    """datamodel-code-generator writes descriptions into docstrings as they are: a character that
    hides or reorders text (generator/invisible.py) becomes its escape there, the same text in
    __doc__ (and in a comment, where it is shown). Black has formatted the module already; an
    escape only makes its line longer."""
    if invisible.first(code) is None:
        return code
    lines = code.split("\n")
    edits = []  # (line, column, end line, end column, new text), applied from the end
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type in (tokenize.STRING, tokenize.COMMENT) and invisible.first(token.string) is not None:
            prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
            # A raw string has no escapes: it is written again as the plain literal of its value.
            text = invisible.shown(repr(ast.literal_eval(token.string)) if "r" in prefix.lower() else token.string)
            edits.append((*token.start, *token.end, text))
    for line, column, end_line, end_column, text in reversed(edits):
        first, last = lines[line - 1], lines[end_line - 1]
        lines[line - 1 : end_line] = (first[:column] + text + last[end_column:]).split("\n")
    return "\n".join(lines)


def remembered(fmt: ir.Format, schema: dict[str, Any]) -> bool:
    """Whether rendering the format would find datamodel-code-generator's output in the cache."""
    schema = open_models_keep_unknown(fmt, schema)
    blinded = descriptions.blind(schema)
    return cache.has("datamodel-codegen", _key_parts(fmt, blinded[0], blinded=True) if blinded is not None else _key_parts(fmt, schema))


def _key_parts(fmt: ir.Format, schema: dict[str, Any], blinded: bool = False) -> list[str]:
    # This module's source is part of the key: the options passed to datamodel-code-generator are part of the input.
    return [
        *cache.tool_versions("datamodel-code-generator", "black", "pydantic"),
        cache.source_of(__file__),
        fmt.source,
        *([cache.source_of(descriptions.__file__)] if blinded else []),
        json.dumps(schema),
    ]


def warm_up() -> None:
    """Import datamodel-code-generator and black and run each once on a small input, so the first
    format they get costs only its own work (datamodel-code-generator's first run sets itself up:
    0.12 s of the first call, 0.02 s of this one's own)."""
    schema = {"title": "Warm", "type": "object", "properties": {"a": {"type": "string", "description": "A."}}}
    _generate(json.dumps(schema), "# warming up")
    pyformat.warm_up()


def _datamodel_codegen(fmt: ir.Format, schema: dict[str, Any]) -> str:
    from datamodel_code_generator import InvalidClassNameError

    text = f"# {header(fmt.source)}\n# Pydantic v2 models made by datamodel-code-generator from jsonschema/{fmt.id}.schema.json."
    try:
        return _generate(json.dumps(schema), text)
    except InvalidClassNameError:
        # The root's class is named after the format's title, which need be no identifier ("2024 chat", "None"):
        # then after the root definition, whose name is one.
        return _generate(json.dumps(schema), text, class_name=f"{fmt.root}Document")


# black's settings for datamodel-code-generator, which formats with those of the pyproject.toml nearest to the
# folder it is given (by default the working directory, walking up): a project's own [tool.black] line length would
# change the generated models. A folder shipped with chatspec, read only: a temporary one per call stayed behind
# whenever a process was killed in this step (104 of them in /tmp after the test runs of a few sessions).
_BLACK_SETTINGS = Path(__file__).parent / "black_settings"


def _generate(schema: str, file_header: str, class_name: str | None = None) -> str:
    from datamodel_code_generator import PythonVersion, generate
    from datamodel_code_generator.enums import DataModelType, InputFileType, StrictTypes
    from datamodel_code_generator.format import Formatter

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notices about future defaults; every option we rely on is set
        code = generate(
            schema,
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
            # A default as Field(default=...) and an enum's as its member: mypy --strict accepts both (a bare
            # "hi" assigned to a RootModel-typed field, or "c" to an enum's, it refuses; pydantic validates them).
            use_default_kwarg=True,
            set_default_enum_member=True,
            strict_types=[StrictTypes.str, StrictTypes.int, StrictTypes.float, StrictTypes.bool],
            custom_file_header=file_header,
            formatters=[Formatter.BLACK],
            settings_path=_BLACK_SETTINGS,
            class_name=class_name,
        )
    assert isinstance(code, str)
    return code

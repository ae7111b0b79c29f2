"""A format's stored python.py (generator/behaviour.py), split into what the generated module places."""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass

from generator.behaviour import Behaviour
from generator.errors import SpecError


@dataclass(frozen=True)
class PythonParts:
    imports: list[str]  # leading import lines, e.g. ["import bisect"]
    module: str  # module-level code
    methods: dict[str, str]  # model -> its class body's extra statements, dedented


def python_parts(b: Behaviour) -> PythonParts:
    """python.py split up: a top-level `class <Model>:` for each model in extends.python
    holds members of the generated class (its docstring stays behind); the rest is
    module-level code. `from __future__` imports are dropped (the module has them)."""
    models = b.extends.get("python", ())
    text = b.texts["python"]
    shown = b.sources["python"]
    try:
        tree = ast.parse(text, filename=shown)
    except SyntaxError as exc:
        raise SpecError(
            shown, None, f"not valid Python: {exc.msg} (line {exc.lineno})", "fix the syntax; behaviour is stored as real Python"
        ) from None
    except (RecursionError, MemoryError, ValueError) as exc:  # ValueError: a NUL byte
        raise SpecError(
            shown, None, f"cannot be parsed as Python ({type(exc).__name__})", "fix the file; behaviour is stored as real Python"
        ) from None
    lines = text.splitlines()
    cut: set[int] = set()
    imports: list[str] = []
    methods: dict[str, str] = {}
    body_started = False
    for node in tree.body:
        end = node.end_lineno or node.lineno
        span = range(node.lineno - 1, end)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not body_started:
            if not (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
                imports.extend(lines[i] for i in span)
            cut.update(span)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            raise SpecError(shown, None, f"an import after other code (line {node.lineno})", "move every import to the top of the file")
        body_started = True
        if isinstance(node, ast.ClassDef) and node.name in models:
            if node.bases or node.keywords or node.decorator_list:
                raise SpecError(
                    shown,
                    None,
                    f"class {node.name} (line {node.lineno}) holds members of the generated {node.name}: it takes no bases or decorators",
                    "remove them; the generated dataclass is the class",
                )
            members = node.body[1:] if _is_docstring(node.body[0]) else node.body
            if not members:
                raise SpecError(
                    shown,
                    None,
                    f"class {node.name} (line {node.lineno}) adds nothing to the generated {node.name}",
                    "add methods or remove it",
                )
            first = min(m.lineno for m in members) - 1
            first = min([first, *(d.lineno - 1 for m in members for d in getattr(m, "decorator_list", []))])
            # Comments right above the first member belong to it.
            while first - 1 > node.lineno - 1 and lines[first - 1].strip().startswith("#"):
                first -= 1
            methods[node.name] = textwrap.dedent("\n".join(lines[first:end])).strip()
            cut.update(span)
    for name in models:
        if name not in methods:
            raise SpecError(
                shown,
                None,
                f"no top-level `class {name}:` holding the members extends.python in {b.manifest} promises",
                f"write `class {name}:` with the methods the generated {name} gains, or take {name!r} out of extends.python",
            )
    module = "\n".join(line for i, line in enumerate(lines) if i not in cut)
    return PythonParts(imports, re.sub(r"\n{3,}", "\n\n\n", module).strip(), methods)


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)

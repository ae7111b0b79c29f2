"""examples: a spec's examples and defaults must say what the spec and its generated code do.

Valid examples and defaults are checked with the reference validator on the
exported schema; then every example runs through the generated Python, and an
invalid example's expected errors must be exactly what that code reports. So a
typo in an example, a default or an expected message is a spec error at
generation time, not a surprise in the docs or in generated code.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import itertools
import json
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jsonschema.exceptions import best_match

from generator import ir, reference, string_formats
from generator.errors import SpecError, pointer_of, raise_all
from generator.export import export
from generator.load import LoadedSpec


def schema_problems(spec: LoadedSpec, fmt: ir.Format, exported: dict[str, Any]) -> list[SpecError]:
    """Every valid example and every default the exported schema rejects, one error each."""
    problems: list[SpecError] = []
    validator = reference.Validator(exported, format_checker=string_formats.checker())
    folder = spec.path.rsplit("/", 1)[0]
    for name, data in spec.examples_valid:
        error = best_match(validator.iter_errors(data))
        if error is not None:
            problems.append(
                SpecError(
                    f"{folder}/examples/valid/{name}.json",
                    pointer_of(*error.absolute_path),
                    f"this valid example fails its own spec: {error.message}",
                    "fix the example, or move it to examples/invalid with its expected errors",
                )
            )
    # Every model a $defs entry, those the spec writes inline too.
    flat = export(fmt, inline=False)["$defs"]
    for model in fmt.models:
        for f in model.fields:
            if not f.has_default:
                continue
            field_schema = dict(flat[model.name]["properties"][f.wire_name], **{"$defs": flat})
            field_schema.pop("default", None)
            error = best_match(reference.Validator(field_schema, format_checker=string_formats.checker()).iter_errors(f.default))
            if error is not None:
                problems.append(
                    SpecError(
                        spec.path,
                        model.place + pointer_of("properties", f.wire_name, "default"),
                        f"the default {json.dumps(f.default)} fails the field's own schema: {error.message}",
                        "change the default so the field accepts it",
                    )
                )
    return problems


class _Sources(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a generated Python package from its source text, under a private name."""

    def __init__(self, name: str, modules: dict[str, str]) -> None:
        self.name = name
        self.modules = modules  # "" for the package's __init__, else a module name

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname == self.name:
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        package, _, module = fullname.rpartition(".")
        if package == self.name and module in self.modules:
            return importlib.util.spec_from_loader(fullname, self, is_package=False)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        key = "" if module.__name__ == self.name else module.__name__.rpartition(".")[2]
        code = compile(self.modules[key], f"<generated {self.name}/{key or '__init__'}.py>", "exec")
        exec(code, module.__dict__)  # noqa: S102 - the code chatspec itself just generated


@contextlib.contextmanager
def _generated_package(files: Mapping[str, str], package: str) -> Iterator[Callable[[str], types.ModuleType]]:
    base = f"python/{package}/"
    modules = {path[len(base) : -3]: text for path, text in files.items() if path.startswith(base) and path.endswith(".py")}
    modules[""] = modules.pop("__init__", "")
    name = f"_chatspec_examples_{next(_PACKAGES)}"
    finder = _Sources(name, modules)
    sys.meta_path.insert(0, finder)
    try:
        yield lambda module: importlib.import_module(f"{name}.{module}")
    finally:
        sys.meta_path.remove(finder)
        for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[loaded]


_PACKAGES = itertools.count()


def _reported(exc: Exception) -> list[dict[str, str]]:
    return [{"path": e.path, "message": e.message} for e in getattr(exc, "errors", [])]


def check_examples_in_python(formats: list[ir.Format], files: Mapping[str, str], package: str) -> None:
    """Run every example through the generated Python, as its users will.

    A valid example must be accepted; an invalid one must be rejected with exactly
    the errors (path and message, in order) it expects, because those errors are
    what the docs show. Every example that disagrees is refused in the same run
    (one error each: the example file, its first differing entry and what the
    generated code reports instead, ready to paste).
    """
    problems: list[SpecError] = []
    with _generated_package(files, package) as load:
        for fmt in formats:
            problems.extend(_format_problems(fmt, load))
    raise_all(problems)


def _format_problems(fmt: ir.Format, load: Callable[[str], types.ModuleType]) -> list[SpecError]:
    folder = fmt.source.rsplit("/", 1)[0]
    try:
        module = load(fmt.id)
        parse = getattr(module, f"parse_{fmt.id}_from_json")
    except Exception as exc:
        return [_crash(fmt.source, fmt, exc)]
    problems: list[SpecError] = _default_problems(fmt, module)
    for name, data in fmt.valid_examples:
        shown = f"{folder}/examples/valid/{name}.json"
        try:
            parse(json.dumps(data))
        except module.ValidationError as exc:
            first = exc.errors[0]
            problems.append(
                SpecError(
                    shown,
                    first.path,
                    f"the generated Python rejects this valid example: {first.message}",
                    "fix the example, or move it to examples/invalid with its expected errors",
                )
            )
        except Exception as exc:
            problems.append(_crash(shown, fmt, exc))
    for case in fmt.invalid_examples:
        shown = f"{folder}/examples/invalid/{case.name}.json"
        try:
            parse(json.dumps(case.data))
        except module.ValidationError as exc:
            problem = _compare(shown, list(case.errors), _reported(exc))
            if problem is not None:
                problems.append(problem)
        except Exception as exc:
            problems.append(_crash(shown, fmt, exc))
        else:
            problems.append(
                SpecError(
                    shown,
                    "/data",
                    "the generated Python accepts this invalid example",
                    'change "data" so it breaks the rule the example is about, or move it to examples/valid',
                )
            )
    return problems


def _default_problems(fmt: ir.Format, module: types.ModuleType) -> list[SpecError]:
    """Each default built from a model that the model's own checks refuse (its rules, which the exported schema that
    check_defaults reads cannot state): filling it in would fail every document that leaves the field out, and Go
    builds it with MustBuild, which panics."""
    problems: list[SpecError] = []

    def built(t: ir.TypeRef, value: Any) -> None:
        match t:
            case ir.Ref(target="model"):
                getattr(module, t.name).from_dict(value)
            case ir.ListType() if isinstance(value, list):
                for item in value:
                    built(t.item, item)
            case ir.MapType() if isinstance(value, dict):
                for item in value.values():
                    built(t.value, item)
            case ir.NullableType() if value is not None:
                built(t.inner, value)

    for model in fmt.models:
        for f in model.fields:
            if not f.has_default:
                continue
            try:
                built(f.type, f.default)
            except module.ValidationError as exc:
                first = exc.errors[0]
                problems.append(
                    SpecError(
                        fmt.source,
                        model.place + pointer_of("properties", f.wire_name, "default"),
                        f"the default {json.dumps(f.default)} fails its model's own checks: {first.path or '/'}: {first.message}",
                        "change the default, or the rule, so the model accepts it",
                    )
                )
    return problems


def _compare(shown: str, expected: list[dict[str, str]], actual: list[dict[str, str]]) -> SpecError | None:
    """The first difference between the errors an example expects and those the code reports, or None."""
    if expected == actual:
        return None
    hint = f'the generated Python reports "errors": {json.dumps(actual, ensure_ascii=False)}; expect exactly that, or fix "data"'
    for i, want in enumerate(expected):
        if not (isinstance(want, dict) and isinstance(want.get("path"), str) and isinstance(want.get("message"), str)):
            return SpecError(shown, pointer_of("errors", i), 'an expected error is {"path": <JSON pointer>, "message": <text>}', hint)

    def by_place(error: dict[str, str]) -> tuple[str, str]:
        return error["path"], error["message"]

    if sorted(expected, key=by_place) == sorted(actual, key=by_place):
        return SpecError(
            shown,
            "/errors",
            "the expected errors are the ones the generated Python reports, but in another order "
            "(the order follows the spec's properties and rules, so reordering them changes it)",
            hint,
        )
    for i, (want, got) in enumerate(zip(expected, actual)):
        for key in ("path", "message"):
            if want.get(key) != got[key]:
                return SpecError(
                    shown,
                    pointer_of("errors", i, key),
                    f"expected {key} {json.dumps(want.get(key), ensure_ascii=False)}, the generated Python reports {json.dumps(got[key], ensure_ascii=False)}",
                    hint,
                )
        extra = set(want) - {"path", "message"}
        if extra:
            return SpecError(shown, pointer_of("errors", i), f'an expected error has only "path" and "message", not {sorted(extra)}', hint)
    if len(expected) > len(actual):
        return SpecError(
            shown, pointer_of("errors", len(actual)), f"{len(expected)} errors expected, the generated Python reports {len(actual)}", hint
        )
    return SpecError(shown, "/errors", f"{len(expected)} error(s) expected, the generated Python reports {len(actual)}", hint)


def _crash(shown: str, fmt: ir.Format, exc: Exception) -> SpecError:
    return SpecError(
        shown,
        "/",
        f"the generated Python for {fmt.id} failed here: {type(exc).__name__}: {exc}",
        "this is a chatspec bug, not a spec mistake: report it with the file named here",
    )

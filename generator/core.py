"""The pure core: specs in, {path under generated/: text} out. Nothing here writes."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import behaviour, cache, ir, keywords
from generator.errors import SpecError
from generator.examples import check_examples, check_examples_in_python
from generator.export import export
from generator.history import check_locked, earlier_majors, load_release, read_lock
from generator.load import LoadedSpec, check_format_ids, load_spec
from generator.lower import lower
from generator.naming import assign_names
from generator.options import Options
from generator.render import TEMPLATES
from generator.targets import REGISTRY
from generator.targets.base import Context, Description, Target

if TYPE_CHECKING:
    from generator.background import Workers

TARGETS = tuple(t.name for t in REGISTRY)

# An import statement of a generated Python module: `from .a import x`, `from . import (a, b)`, `import pkg.a`.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<source>[\w.]+)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n]*)" r"|import[ \t]+(?P<absolute>[\w.]+))", re.M
)


def shared_files(options: Options = Options()) -> frozenset[str]:
    """Generated files that do not depend on any one spec (runtimes, package markers)."""
    return frozenset().union(*(t.shared_files(options) for t in REGISTRY))


def spec_folders(specs_dir: Path) -> list[Path]:
    folders = sorted(p for p in specs_dir.iterdir() if p.is_dir()) if specs_dir.is_dir() else []
    if not folders:
        raise SpecError(
            specs_dir.as_posix(),
            None,
            "no specs found",
            "run chatspec in the project folder (the one holding specs/<format>/spec.json), "
            "name it with --root <project folder>, or start one by adding specs/<format>/spec.json",
        )
    return folders


def discover(specs_dir: Path, root: Path) -> list[LoadedSpec]:
    """Load every specs/<format>/spec.json in name order, each followed by the last
    release of every earlier major (as <format>_v<N>), so consumers migrate at their own pace."""
    specs = []
    for folder in spec_folders(specs_dir):
        specs.append(load_spec(folder, root))
        for release in earlier_majors(folder):
            major = release.version.split(".")[0]
            specs.append(load_release(folder, release.version, root, format_id=f"{folder.name}_v{major}"))
    check_format_ids(specs)
    return specs


def check_versions(specs_dir: Path, root: Path, loaded: Iterable[LoadedSpec] = ()) -> None:
    """Refuse any spec whose content is not the locked snapshot of its x-version.

    `loaded` may hold specs discover() already read, so they are not read again."""
    by_id = {s.format_id: s for s in loaded}
    for folder in spec_folders(specs_dir):
        check_locked(by_id.get(folder.name) or load_spec(folder, root), folder, root)


def histories(specs_dir: Path) -> dict[str, list[dict[str, object]]]:
    """The changelog of every generated format id: its releases, newest first."""
    out: dict[str, list[dict[str, object]]] = {}
    for folder in spec_folders(specs_dir):
        releases = read_lock(folder)
        rows: list[dict[str, object]] = [{"version": r.version, "class": r.level, "changes": list(r.changes)} for r in reversed(releases)]
        out[folder.name] = rows
        for release in earlier_majors(folder):
            major = release.version.split(".")[0]
            out[f"{folder.name}_v{major}"] = [row for row in rows if str(row["version"]).split(".")[0] == major]
    return out


def generate(
    specs: Iterable[LoadedSpec],
    targets: Iterable[str] = TARGETS,
    options: Options = Options(),
    history: dict[str, list[dict[str, object]]] | None = None,
    worker: Workers | None = None,
) -> dict[str, str]:
    """Every generated file, keyed by its path under generated/ (history feeds the docs' changelogs).

    load -> lower -> export -> names (one pass per target language) -> descriptions (for the docs) -> render.
    While a cache is active (generator.cache), each target's files of each format are remembered by
    what they are made from (format_key), so a run renders only the formats that changed; given
    workers (generator.background), the background targets' formats render there meanwhile."""
    specs = list(specs)
    formats = tuple(lower(s) for s in specs)
    # Checked before any target renders: a spec change that breaks a behaviour's declarations is a SpecError.
    behaviours = resolve_behaviours(specs, formats)
    schemas = {f.id: export(f, s.document) for s, f in zip(specs, formats)}
    for spec, fmt in zip(specs, formats):
        check_examples(spec, fmt, schemas[fmt.id])
    wanted = [t for t in REGISTRY if t.name in set(targets)]
    ctx = context(specs, formats, options, history, schemas=schemas, described=any(t.name == "docs" for t in wanted), behaviours=behaviours)
    parts = {f.id: format_parts(f, ctx) for f in formats} if cache.current() is not None else {}
    keys = {(t.name, f.id): format_key(t, f, ctx, parts[f.id]) for t in wanted for f in formats} if parts else {}
    remembered = {pair: found for pair, key in keys.items() if isinstance(found := cache.load("render", key), dict)}
    for fmt in formats:
        if ctx.descriptions and any((t.name, fmt.id) not in remembered for t in wanted):
            ctx.descriptions[fmt.id]  # describing checks the code targets' names: before any target renders, as always
    # Largest first (by its schema, a fair guess of the work): the formats taken back from the end are the small ones.
    by_size = sorted(formats, key=lambda f: -len(json.dumps(ctx.schemas[f.id])))
    offloaded = (
        [(t, f) for t in wanted if t.background for f in by_size if (t.name, f.id) not in remembered and t.slow(f, ctx)] if worker else []
    )
    if worker is not None:
        worker.submit(ctx, offloaded)
    # While the workers render theirs, this process renders the other formats, keeping each outcome (its
    # files or its error) for its turn below: the error reported is the first in registry order, as without workers.
    outcomes: dict[tuple[str, str], dict[str, str] | Exception] = {}
    if offloaded:
        busy = {(t.name, f.id) for t, f in offloaded}
        for target in wanted:
            for fmt in formats:
                if (target.name, fmt.id) not in remembered and (target.name, fmt.id) not in busy:
                    outcomes[target.name, fmt.id] = _attempt(target, fmt, ctx)
    while worker is not None:  # then it takes back a format a worker has not started, the first target's first
        taken = next(((t, format_id) for t in wanted if t.background and (format_id := worker.take(t)) is not None), None)
        if taken is None:
            break
        target, format_id = taken
        outcomes[target.name, format_id] = _attempt(target, next(f for f in formats if f.id == format_id), ctx)
    files: dict[str, str] = {}
    for target in wanted:
        files.update(target.render_shared(ctx))
        for fmt in formats:
            pair = (target.name, fmt.id)
            if pair in remembered:
                files.update(remembered[pair])
                continue
            rendered = outcomes.pop(pair, None)
            if isinstance(rendered, Exception):
                raise rendered
            if rendered is None and worker is not None:
                rendered = worker.result(target, fmt)
            if rendered is None:
                rendered = target.render_format(fmt, ctx)
            if pair in keys:
                cache.store("render", keys[pair], rendered)
            files.update(rendered)
        if target.name == "python":
            # The examples run through the generated Python as its users will (their errors are what the docs show).
            check_python_examples(list(formats), files, options.python_package)
    return dict(sorted(files.items()))


def _attempt(target: Target, fmt: ir.Format, ctx: Context) -> dict[str, str] | Exception:
    """The target's files of the format, or the error rendering them raised (raised again at its turn)."""
    try:
        return target.render_format(fmt, ctx)
    except Exception as exc:  # noqa: BLE001 - kept, not swallowed
        return exc


def format_key(target: Target, fmt: ir.Format, ctx: Context, parts: tuple[str, ...] = ()) -> str:
    """What a target's files of one format are made from: chatspec itself (its source, templates, runtimes,
    Python and the pinned tools), the target, the format's IR, its schemas, behaviour and history, the
    options, and what the target reads of the other formats (Target.format_inputs). The names and the
    descriptions are computed from these."""
    return cache.digest(
        ["render", cache.toolkit(TEMPLATES), target.name, *(parts or format_parts(fmt, ctx)), *target.format_inputs(fmt, ctx)]
    )


def format_parts(fmt: ir.Format, ctx: Context) -> tuple[str, ...]:
    """The parts of format_key every target shares (a run makes them once per format)."""
    return (
        fingerprint(fmt),
        json.dumps(ctx.schemas[fmt.id], sort_keys=True),
        json.dumps(ctx.plain_schemas[fmt.id], sort_keys=True),
        fingerprint(ctx.behaviours.get(fmt.id)),
        json.dumps(ctx.history.get(fmt.id), sort_keys=True, default=str),
        fingerprint(ctx.options),
    )


def fingerprint(value: object) -> str:
    """A text that differs whenever two frozen values (IR, behaviour, options) differ: their repr, which
    dataclasses spell field by field. A repr that is not stable across runs only costs a cache miss."""
    return repr(value)


def check_python_examples(formats: list[ir.Format], files: dict[str, str], package: str) -> None:
    """check_examples_in_python, skipping each format whose examples already passed the very same
    generated code (remembered by the format and the text of every module its module imports)."""
    if cache.current() is None:
        check_examples_in_python(formats, files, package)
        return
    base = f"python/{package}/"
    modules = {path[len(base) : -3]: text for path, text in files.items() if path.startswith(base) and path.endswith(".py")}
    keys = {
        fmt.id: cache.digest(
            [
                "examples",
                cache.toolkit(TEMPLATES),
                package,
                fingerprint(fmt),
                *(f"{m}\0{modules[m]}" for m in sorted(imported_modules(fmt.id, modules, package))),
            ]
        )
        for fmt in formats
    }
    unchecked = [fmt for fmt in formats if cache.load("examples", keys[fmt.id]) is None]
    if unchecked:
        check_examples_in_python(unchecked, files, package)
    for fmt in unchecked:
        cache.store("examples", keys[fmt.id], True)


def imported_modules(module: str, modules: dict[str, str], package: str) -> set[str]:
    """module and every module of the package its import statements reach, directly or not
    (`from . import a`, `from .a import x`, `from <package>.a import x`, `import <package>.a`), with
    what the package's __init__ imports (importing a module runs it). "__init__" itself is in only
    when one of them reads the package's namespace (`from . import NAME` of no module, `import
    <package>`): beyond its imports it holds FORMATS and __all__, which vary with the formats'
    versions, and a bump of one format must not count as a change of every format's code."""
    seen = {module}
    todo = [module, "__init__"]
    while todo:
        text = modules.get(todo.pop(), "")
        for found in _IMPORT.finditer(text):
            source, names, absolute = found.group("source"), found.group("names"), found.group("absolute")
            if absolute is not None:
                path = absolute.split(".")
                reached = ({"__init__"} | set(path[1:2])) if path[0] == package else set()
            elif (
                inner := (
                    source.lstrip(".")
                    if source.startswith(".")
                    else source.removeprefix(package) if source.split(".")[0] == package else None
                )
            ) is None:
                reached = set()  # another package
            elif inner.lstrip("."):
                reached = {inner.lstrip(".").split(".")[0]}
            else:  # from . import a, B: modules, or names of the package's namespace
                imported = {n.split(" as ")[0].strip() for n in names.strip("()").split(",") if n.strip()}
                reached = imported & set(modules) | ({"__init__"} if imported - set(modules) else set())
            for other in reached & set(modules) - seen:
                seen.add(other)
                todo.append(other)
    return seen & set(modules)


def resolve_behaviours(specs: list[LoadedSpec], formats: tuple[ir.Format, ...]) -> dict[str, behaviour.Behaviour]:
    """Format id -> the behaviour set that applies to it, each checked against the format's IR (SpecError)."""
    return {fmt.id: b for spec, fmt in zip(specs, formats) if (b := behaviour.resolve(spec.behaviours, fmt)) is not None}


def context(
    specs: list[LoadedSpec],
    formats: tuple[ir.Format, ...],
    options: Options = Options(),
    history: dict[str, list[dict[str, object]]] | None = None,
    schemas: dict[str, dict[str, Any]] | None = None,
    described: bool = True,
    behaviours: dict[str, behaviour.Behaviour] | None = None,
) -> Context:
    """The one Context every target renders from: the exported schemas (given, or exported here), the
    behaviour set of each format (given, or resolved and checked here), each target's names and, when
    `described`, each code target's description for the docs."""
    if behaviours is None:
        behaviours = resolve_behaviours(specs, formats)
    ctx = Context(
        formats=formats,
        schemas=schemas if schemas is not None else {f.id: export(f, s.document) for s, f in zip(specs, formats)},
        plain_schemas={f.id: export(f, s.document, with_rules=False) for s, f in zip(specs, formats)},
        options=options,
        history=history or {},
        behaviours=behaviours,
        names={t.name: {f.id: assign_names(f, t.naming) for f in formats} for t in REGISTRY if t.naming is not None},
    )
    if described:
        ctx = dataclasses.replace(ctx, descriptions=Descriptions(ctx), keyword_descriptions=KeywordDescriptions(options))
    return ctx


class Descriptions(Mapping[str, tuple[Description, ...]]):
    """Format id -> each code target's description of it, made when first read: a run whose docs
    pages are all remembered describes nothing."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.made: dict[str, tuple[Description, ...]] = {}

    def __getitem__(self, format_id: str) -> tuple[Description, ...]:
        if format_id not in self.made:
            fmt = next((f for f in self.ctx.formats if f.id == format_id), None)
            if fmt is None:
                raise KeyError(format_id)
            self.made[format_id] = describe(fmt, self.ctx)
        return self.made[format_id]

    def __iter__(self) -> Iterator[str]:
        return iter([f.id for f in self.ctx.formats])

    def __len__(self) -> int:
        return len(self.ctx.formats)


class KeywordDescriptions(Mapping[str, tuple[Description, ...]]):
    """The format id of each keyword's example spec -> each code target's description of it: the spec
    language's "In code". Made when first read (the docs' spec-language page, itself remembered), once
    per process and options."""

    def __init__(self, options: Options) -> None:
        self.options = options

    def __getitem__(self, format_id: str) -> tuple[Description, ...]:
        return describe_examples(self.options)[format_id]

    def __iter__(self) -> Iterator[str]:
        return iter(describe_examples(self.options))

    def __len__(self) -> int:
        return len(describe_examples(self.options))


@functools.cache
def describe_examples(options: Options) -> dict[str, tuple[Description, ...]]:
    """Every keyword's example spec (generator.keywords), loaded, lowered, named and described by each code target."""
    specs = [keywords.example_spec(k) for k in keywords.keywords() if k.example is not None]
    formats = tuple(lower(s) for s in specs)
    ctx = context(specs, formats, options, described=False)
    return {f.id: describe(f, ctx) for f in formats}


def describe(fmt: ir.Format, ctx: Context) -> tuple[Description, ...]:
    """Each code target's description of the format (how it spells every field), in registry order."""
    return tuple(d for d in (t.describe(fmt, ctx) for t in REGISTRY) if d is not None)


def ir_json(fmt: ir.Format) -> str:
    """The IR as stable JSON (for golden snapshots)."""

    def convert(value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: convert(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, (list, tuple)):
            return [convert(v) for v in value]
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        return value

    return json.dumps(convert(fmt), indent=2, ensure_ascii=False) + "\n"

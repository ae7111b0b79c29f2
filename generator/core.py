"""The pure core: specs in, {path under generated/: text} out. Nothing here writes."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import behaviour, cache, ir, keywords, rendering, standins
from generator.classify import Change
from generator.compatibility import label
from generator.errors import SpecError, raise_all
from generator.examples import schema_problems
from generator.export import export
from generator.history import check_locked, each_release, earlier_majors, load_release, read_lock
from generator.load import LoadedSpec, check_format_ids, load_spec
from generator.lower import lower
from generator.naming import assign_names
from generator.options import Options
from generator.render import TEMPLATES
from generator.retire import check_retired
from generator.targets import REGISTRY
from generator.targets.base import Context, Description

if TYPE_CHECKING:
    from generator.background import Workers

TARGETS = tuple(t.name for t in REGISTRY)


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
    release of every earlier major not retired (as <format>_v<N>), so consumers migrate at their own pace."""
    specs = []
    for folder in spec_folders(specs_dir):
        specs.append(load_spec(folder, root))
        check_retired(specs[-1], folder)
        for release in earlier_majors(folder):
            major = release.version.split(".")[0]
            specs.append(load_release(folder, release.version, root, format_id=f"{folder.name}_v{major}"))
    check_format_ids(specs, [t.module for t in REGISTRY if t.module is not None])
    return specs


def check_versions(specs_dir: Path, root: Path, loaded: Iterable[LoadedSpec] = ()) -> None:
    """Refuse any spec whose content is not the locked snapshot of its x-version.

    `loaded` may hold specs discover() already read, so they are not read again. They are lowered
    first: a mistake in a spec is reported before whether it is locked. Run before `generate`, so a
    spec that is not locked is refused in a second, before any target renders or any example runs."""
    loaded = list(loaded)
    for spec in loaded:
        lower(spec)
    by_id = {s.format_id: s for s in loaded}
    for folder in spec_folders(specs_dir):
        check_locked(by_id.get(folder.name) or load_spec(folder, root), folder, root)


def _change_labels(folder: Path, root: Path) -> dict[str, dict[str, str]]:
    """Each release's changes, by the text the lock records, with their verdicts per direction
    (compatibility.label): classifying two snapshots again costs a run that renders about 10 ms, so each
    release's are remembered by the snapshots they are found from (history.each_release) and chatspec, and
    a bump finds only the new release's, however long the history."""
    toolkit = cache.toolkit(TEMPLATES)
    texts: dict[str, str] = {}

    def snapshot(version: str) -> str:
        if version not in texts:
            path = folder / "history" / version / "spec.json"
            texts[version] = path.read_text(encoding="utf-8") if path.is_file() else ""
        return texts[version]

    labels: dict[str, dict[str, str]] = {}
    for version, read, find in each_release(folder, root):
        parts = [toolkit, folder.name, *(f"{v}\n{snapshot(v)}" for v in [*read, version])]
        labels[version] = cache.memo("changelog", parts, functools.partial(_labelled, find))
    return labels


def _labelled(find: Callable[[], dict[str, Change] | None]) -> dict[str, str]:
    return {text: label(c) for text, c in (find() or {}).items()}


def histories(specs_dir: Path) -> dict[str, list[dict[str, object]]]:
    """The changelog of every generated format id: its releases, newest first."""
    out: dict[str, list[dict[str, object]]] = {}
    for folder in spec_folders(specs_dir):
        releases = read_lock(folder)
        found = _change_labels(folder, specs_dir.parent) if len(releases) > 1 else {}
        rows: list[dict[str, object]] = [
            {
                "version": r.version,
                "class": r.level,
                "changes": list(r.changes),
                # Each change's verdict per direction (compatibility.label), "" where it is not found again.
                "labels": [found.get(r.version, {}).get(c, "") for c in r.changes],
            }
            for r in reversed(releases)
        ]
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
    owners: dict[str, str] | None = None,
) -> dict[str, str]:
    """Every generated file, keyed by its path under generated/ (history feeds the docs' changelogs;
    `owners`, when given, gets each path's format id, "" for a file no single format owns).

    The pipeline, stage by stage, on specs load has read; only the CLI writes. The render stage is where the
    cache and the worker processes come in (generator/rendering.py), so a run renders only what changed."""
    specs = list(specs)
    formats = tuple(lower(s) for s in specs)  # lower: resolve $refs, name, resolve messages -> IR
    behaviours = resolve_behaviours(specs, formats)  # behaviours: a spec change that breaks one is refused before anything renders
    schemas = {f.id: export(f) for f in formats}  # export: the standard JSON Schema of each IR
    # examples and defaults against the exported schema: every one it rejects, in all formats, reported in one run
    raise_all([problem for spec, fmt in zip(specs, formats) for problem in _schema_problems(spec, fmt, schemas[fmt.id])])
    wanted = [t for t in REGISTRY if t.name in set(targets) and t.enabled(options)]
    # names (every identifier of every target language) and, for a target that reads them, descriptions
    ctx = context(
        specs, formats, options, history, schemas=schemas, described=any(t.reads_descriptions for t in wanted), behaviours=behaviours
    )
    return rendering.render(wanted, ctx, worker, owners)  # render and format each target, each checking its files (examples)


def _schema_problems(spec: LoadedSpec, fmt: ir.Format, exported: dict[str, Any]) -> list[SpecError]:
    """examples.schema_problems, its "none" remembered by what it reads: the examples, the defaults and the schema
    exported from the format, whose verdicts its descriptions and version (annotations) do not change."""
    if cache.current() is None:
        return schema_problems(spec, fmt, exported)
    key = cache.digest(
        [
            "schema-examples",
            cache.toolkit(TEMPLATES),
            spec.path,
            standins.fingerprint_apart(fmt),
            json.dumps(spec.examples_valid, sort_keys=True),
        ]
    )
    if cache.load("schema-examples", key) is not None:
        return []
    problems = schema_problems(spec, fmt, exported)
    if not problems:
        cache.store("schema-examples", key, True)
    return problems


def resolve_behaviours(specs: list[LoadedSpec], formats: tuple[ir.Format, ...]) -> dict[str, behaviour.Behaviour]:
    """Format id -> the behaviour set that applies to it, each checked against the format's IR (SpecError).
    Every set is first split by each target that places its code, whether a major uses it or not."""
    # (a kept earlier major reads the same sets again: one split per manifest)
    for stored in {b.manifest: b for spec in specs for b in spec.behaviours}.values():
        for target in REGISTRY:
            target.check_behaviour(stored)
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
        schemas=schemas if schemas is not None else {f.id: export(f) for f in formats},
        plain_schemas={f.id: export(f, with_rules=False, applied=False) for f in formats},
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

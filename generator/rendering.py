"""The render stage: each wanted target's files of each format, and its shared files.

Rendering is the one stage the cache and the worker processes wrap, from here, so core.generate
reads as the pipeline alone:

- while a cache is active (generator.cache), each target's files of each format are remembered by
  what they are made from (format_key), so a run renders only the formats that changed;
- given workers (generator.background), the background targets' slow formats render there while
  this process renders the others, and it takes back what a worker has not started.

Whatever renders where, the files and the first error are the ones a plain run in registry order gives.
After each target's files, the target checks them (Target.check_rendered: the examples through the
generated Python), as its users will meet them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from generator import cache, ir
from generator.render import TEMPLATES
from generator.targets.base import Context, Target

if TYPE_CHECKING:
    from generator.background import Workers

Pair = tuple[str, str]  # (target name, format id)


def render(wanted: list[Target], ctx: Context, worker: Workers | None = None) -> dict[str, str]:
    """{path under generated/: text} of every wanted target, in registry order, each checked as it is done."""
    plan = Plan(wanted, ctx, worker)
    files: dict[str, str] = {}
    for target in wanted:
        done = target.render_shared(ctx)
        for fmt in ctx.formats:
            done.update(plan.files(target, fmt))
        files.update(done)
        target.check_rendered(ctx, files)
    return dict(sorted(files.items()))


class Plan:
    """What each (target, format) pair's files come from: the cache, a worker, or rendering them here."""

    def __init__(self, wanted: list[Target], ctx: Context, worker: Workers | None) -> None:
        self.ctx = ctx
        self.worker = worker
        parts = {f.id: format_parts(f, ctx) for f in ctx.formats} if cache.current() is not None else {}
        self.keys = {(t.name, f.id): format_key(t, f, ctx, parts[f.id]) for t in wanted for f in ctx.formats} if parts else {}
        self.remembered: dict[Pair, dict[str, str]] = {
            pair: found for pair, key in self.keys.items() if isinstance(found := cache.load("render", key), dict)
        }
        for fmt in ctx.formats:
            if ctx.descriptions and any((t.name, fmt.id) not in self.remembered for t in wanted):
                ctx.descriptions[fmt.id]  # describing checks the code targets' names: before any target renders, as always
        self.outcomes: dict[Pair, dict[str, str] | Exception] = {}
        if worker is not None:
            self.offload(wanted)

    def offload(self, wanted: list[Target]) -> None:
        """Hand the slow formats of background targets to the workers, render the rest meanwhile (each outcome, its
        files or its error, kept for its turn: the error reported is the first in registry order, as without workers),
        then take back what a worker has not started."""
        assert self.worker is not None
        ctx = self.ctx
        # Largest first (by its schema, a fair guess of the work): the formats taken back from the end are the small ones.
        by_size = sorted(ctx.formats, key=lambda f: -len(json.dumps(ctx.schemas[f.id])))
        offloaded = [(t, f) for t in wanted if t.background for f in by_size if (t.name, f.id) not in self.remembered and t.slow(f, ctx)]
        self.worker.submit(ctx, offloaded)
        if offloaded:
            busy = {(t.name, f.id) for t, f in offloaded}
            for target in wanted:
                for fmt in ctx.formats:
                    if (target.name, fmt.id) not in self.remembered and (target.name, fmt.id) not in busy:
                        self.outcomes[target.name, fmt.id] = attempt(target, fmt, ctx)
        while True:  # the first target's first format a worker has not started
            taken = next(((t, format_id) for t in wanted if t.background and (format_id := self.worker.take(t)) is not None), None)
            if taken is None:
                break
            target, format_id = taken
            self.outcomes[target.name, format_id] = attempt(target, next(f for f in ctx.formats if f.id == format_id), ctx)

    def files(self, target: Target, fmt: ir.Format) -> dict[str, str]:
        pair = (target.name, fmt.id)
        if pair in self.remembered:
            return dict(self.remembered[pair])
        rendered = self.outcomes.pop(pair, None)
        if isinstance(rendered, Exception):
            raise rendered
        if rendered is None and self.worker is not None:
            rendered = self.worker.result(target, fmt)
        if rendered is None:
            rendered = target.render_format(fmt, self.ctx)
        if pair in self.keys:
            cache.store("render", self.keys[pair], rendered)
        return dict(rendered)


def attempt(target: Target, fmt: ir.Format, ctx: Context) -> dict[str, str] | Exception:
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
        cache.fingerprint(fmt),
        json.dumps(ctx.schemas[fmt.id], sort_keys=True),
        json.dumps(ctx.plain_schemas[fmt.id], sort_keys=True),
        cache.fingerprint(ctx.behaviours.get(fmt.id)),
        json.dumps(ctx.history.get(fmt.id), sort_keys=True, default=str),
        cache.fingerprint(ctx.options),
    )

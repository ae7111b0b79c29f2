"""build: every generated file of a project, remembered between runs.

A run is a pure function of the specs, chatspec's own source and templates, the
project's options and the pinned tools' versions; when none of them changed, the
files of the last successful run are the answer, read from the cache without
importing Jinja, jsonschema, black or datamodel-code-generator. A run that fails
is never remembered, so a broken spec is reported every time.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Iterator
from pathlib import Path

from generator import cache
from generator.background import Workers


def run_key(root: Path) -> str:
    from generator.render import TEMPLATES

    pyproject = root / "pyproject.toml"
    return cache.digest(
        [
            "run",
            cache.toolkit(TEMPLATES),
            *cache.source_files(root / "specs", every_folder=True),
            pyproject.read_bytes() if pyproject.is_file() else b"",
        ]
    )


def workers_pay() -> bool:
    """Whether workers pay: they need a core that is not already shared. Measured with
    tests/bench_editloop.py on this 2-core machine: idle, an edit 0.82 s with workers and 1.16 s
    without, a cold run 2.55 s and 3.95 s; with one core kept busy by another process (load about
    2, the run's own processes included) 1.03 s and 1.16 s, 3.05 s and 4.46 s; at a load of 3
    they lose (an edit 1.12 s with them, 0.98 s without)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return False
    cores = os.cpu_count() or 1
    return cores > 1 and load < cores + 0.5


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Python's cyclic garbage collector run about 40 times less often (young objects 30,000
    instead of 700), then as before. black and datamodel-code-generator build large trees that
    live until their module is done, and the default collector walks them again and again.
    Alternating cold runs: 2.55 s with the default, 2.2 s with this (black alone on
    chat_modality's module 0.43 s and 0.26 s); a spec with a model of 1,500 fields 32.7 s and
    20 s, its peak memory 416 MB and 449 MB. (100,000 was no faster on the specs here and
    18 s on that one, but 685 MB.) Garbage is still collected, so memory stays bounded."""
    before = gc.get_threshold()
    gc.set_threshold(30_000, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def generated_files(root: Path) -> dict[str, str]:
    """{path under generated/: text} for the project at root (SpecError on a bad spec)."""
    folder = cache.open_folder(root)
    key = run_key(root) if folder is not None else ""
    if folder is not None:
        found = cache.load("run", key, folder)
        if isinstance(found, dict):
            return found
    project = cache.digest(["project", str(root.resolve())])
    # On the first run of a project (or after the cache was emptied) most of the run is slow: the workers start
    # first, so their warming up overlaps everything up to rendering. Later runs start a worker only for a slow
    # format (Target.slow), if any: after a small edit the fork and warming up would cost more than they save.
    early = folder is None or cache.load("project", project, folder) is None
    with fewer_collections(), cache.active(folder), Workers(early) if workers_pay() else contextlib.nullcontext() as workers:
        from generator.core import check_versions, discover, generate, histories
        from generator.options import load_options

        # Generating first reports what is wrong in a spec before whether its version is locked.
        specs = discover(root / "specs", root)
        files = generate(specs, options=load_options(root), history=histories(root / "specs"), worker=workers)
        check_versions(root / "specs", root, specs)
    if folder is not None:
        cache.store("run", key, files, folder)
        if early:
            cache.store("project", project, True, folder)  # found, it was touched when read
        cache.ran(folder)
    return files

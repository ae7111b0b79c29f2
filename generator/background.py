"""background: a worker process that renders the formats of the slow targets while the run goes on.

A run starts the worker first thing (generator/build.py), before it reads a spec: the worker
imports and warms up what the background targets need (Target.warm_up: datamodel-code-generator
and black for pydantic) while the main process loads, lowers and checks the specs. The pipeline
(core.generate) then hands it the formats those targets must render and renders the other
targets itself; result() collects the worker's files when a format's turn comes.

A worker only ever makes a run faster, never different: where fork is unavailable, when the
worker fails on a format or dies, result() is None and the caller renders that format itself
(raising the real error, if there is one). The files come whole or not at all, and nothing
here writes a file. The block's end stops a worker still running.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from generator import ir
    from generator.targets.base import Context, Target


class Worker:
    """The one worker process of a run (use as a context manager)."""

    def __init__(self) -> None:
        self.process: BaseProcess | None = None
        self.connection: Connection | None = None
        self.done: dict[tuple[str, str], dict[str, str] | None] = {}
        self.waiting: set[tuple[str, str]] = set()

    def __enter__(self) -> Worker:
        if sys.platform != "linux":
            return self  # fork elsewhere is unsafe or unavailable: everything renders in this process
        import multiprocessing

        fork = multiprocessing.get_context("fork")  # the worker starts with this process's modules and active cache
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # else the worker could write out a second copy of what is buffered
        ours, theirs = fork.Pipe()
        self.process = fork.Process(target=_serve, args=(theirs, ours), daemon=True, name="chatspec-worker")
        self.process.start()
        theirs.close()
        self.connection = ours
        return self

    def submit(self, ctx: Context, pairs: list[tuple[Target, ir.Format]]) -> None:
        """Hand the worker these (target, format) pairs to render from ctx; without a worker, nothing."""
        if self.connection is None or not pairs:
            return
        import threading

        self.waiting = {(t.name, f.id) for t, f in pairs}
        job = (ctx, [(t.name, f.id) for t, f in pairs])
        # Sent from a thread: the worker reads it only when warmed up, and a pipe holds little.
        threading.Thread(target=self._send, args=(self.connection, job), daemon=True).start()

    def _send(self, connection: Connection, job: Any) -> None:
        try:
            connection.send(job)
        except Exception:  # noqa: BLE001 - unpicklable or a closed pipe: the caller renders the formats itself
            self.waiting = set()
            if self.process is not None:
                self.process.terminate()  # so a result() waiting for it sees the pipe end

    def result(self, target: Target, fmt: ir.Format) -> dict[str, str] | None:
        """The worker's files of the format, or None when the caller must render it."""
        wanted = (target.name, fmt.id)
        while wanted in self.waiting and wanted not in self.done and self.connection is not None:
            try:
                name, format_id, files = self.connection.recv()
            except (EOFError, OSError):  # the worker died: what it did not send is rendered here
                self.connection.close()
                self.connection = None
                break
            self.done[name, format_id] = files
        return self.done.pop(wanted, None)

    def __exit__(self, *exc: object) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        if self.process is not None:
            if self.process.is_alive():
                self.process.terminate()
            self.process.join()
            self.process = None


def _serve(connection: Connection, parents_end: Connection) -> None:
    """The worker: warm up, then render each format it is handed, sending its files (None for a
    format that failed: the caller renders it again and reports the error)."""
    parents_end.close()  # so the worker sees the end of the pipe when the run no longer needs it
    from generator.targets import REGISTRY

    for target in REGISTRY:
        if target.background:
            target.warm_up()
    try:
        ctx, pairs = connection.recv()
    except EOFError:
        return  # nothing to render in the background this run
    targets = {t.name: t for t in REGISTRY}
    formats = {f.id: f for f in ctx.formats}
    for name, format_id in pairs:
        try:
            files: dict[str, str] | None = targets[name].render_format(formats[format_id], ctx)
        except Exception:  # noqa: BLE001 - reported where the caller renders the format again
            files = None
        connection.send((name, format_id, files))
    connection.close()

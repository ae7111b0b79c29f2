"""background: worker processes that render the formats of the slow targets while the run goes on.

A run starts them first thing (generator/build.py), before it reads a spec: one process per
background target (Target.background: Python and pydantic, whose black and
datamodel-code-generator are most of a run), each importing and warming up what its target
needs (Target.warm_up) while the main process loads, lowers and checks the specs. The pipeline
(core.generate) then hands each the formats its target must render, renders the other targets
itself, and collects the workers' files (result()) when a format's turn comes.

Workers only ever make a run faster, never different: where fork is unavailable, when a worker
fails on a format or dies, result() is None and the caller renders that format itself (raising
the real error, if there is one). Files come whole or not at all, and nothing here writes a
file. The block's end stops any worker still running.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from generator import ir
    from generator.targets.base import Context, Target


class Workers:
    """The worker processes of a run, one per background target (use as a context manager)."""

    def __init__(self, early: bool = True) -> None:
        self.early = early  # start every background target's worker on entry, not when submit() has its formats
        self.processes: dict[str, BaseProcess] = {}  # target name -> its worker
        self.connections: dict[str, Connection] = {}
        self.waiting: set[tuple[str, str]] = set()  # (target, format) handed to a worker, not yet collected
        self.done: dict[tuple[str, str], dict[str, str] | None] = {}
        self.queues: dict[str, _Jobs] = {}  # target name -> its jobs, shared with its worker

    def __enter__(self) -> Workers:
        if self.early:
            from generator.targets import REGISTRY

            for target in REGISTRY:
                if target.background and not self._start(target):
                    self.__exit__()
                    break
        return self

    def _start(self, target: Target, job: tuple[Context, list[str]] | None = None) -> bool:
        """Fork the target's worker (given its job, it needs none sent); False where none can start."""
        if sys.platform != "linux":
            return False  # fork elsewhere is unsafe or unavailable: everything renders in this process
        import multiprocessing

        fork = multiprocessing.get_context("fork")  # a worker starts with this process's modules and active cache
        for stream in (sys.stdout, sys.stderr):
            stream.flush()  # else a worker could write out a second copy of what is buffered
        jobs = _Jobs(fork.Lock(), fork.Value("i", 0, lock=False), fork.Value("i", 0, lock=False))
        if job is not None:
            jobs.ids, jobs.back.value = job[1], len(job[1])
        ours, theirs = fork.Pipe()
        # The worker closes this process's ends of every pipe so far, or a worker would never see one close.
        ends = [ours, *self.connections.values()]
        process = fork.Process(target=_serve, args=(target, theirs, ends, jobs, job), daemon=True, name=f"chatspec-{target.name}")
        try:
            process.start()
        except Exception:  # noqa: BLE001 - e.g. run inside a daemonic process, which may have none: no workers
            ours.close()
            theirs.close()
            return False
        theirs.close()
        self.processes[target.name], self.connections[target.name] = process, ours
        self.queues[target.name] = jobs
        return True

    def submit(self, ctx: Context, pairs: list[tuple[Target, ir.Format]]) -> None:
        """Hand each pair's worker the format to render from ctx, starting the worker now if it has
        none yet; a pair without a worker is left to the caller."""
        import threading

        jobs: dict[Target, list[str]] = {}
        for target, fmt in pairs:
            jobs.setdefault(target, []).append(fmt.id)
        for name in [n for n in self.connections if n not in {t.name for t in jobs}]:
            # Nothing for it this run: its warming up stops here, not at the run's end.
            self.connections.pop(name).close()
            self.processes[name].terminate()
        for target, format_ids in jobs.items():
            if target.name not in self.connections:
                if self._start(target, (ctx, format_ids)):  # one that cannot start leaves its formats to the caller
                    self.waiting.update((target.name, i) for i in format_ids)
                continue
            queue = self.queues[target.name]
            with queue.lock:
                queue.ids, queue.back.value = format_ids, len(format_ids)
            self.waiting.update((target.name, i) for i in format_ids)
            # Sent from a thread: a worker reads it only when warmed up, and a pipe holds little.
            threading.Thread(
                target=_send, args=(self.connections[target.name], self.processes[target.name], (ctx, format_ids)), daemon=True
            ).start()

    def take(self, target: Target) -> str | None:
        """A format the target's worker has not started, taken back for the caller to render (the last
        of its list, while at least two are left: the worker keeps one it is warmed up for); or None."""
        queue = self.queues.get(target.name)
        if queue is None or target.name not in self.connections:
            return None
        with queue.lock:
            if queue.back.value - queue.front.value < 2:
                return None
            queue.back.value -= 1
            format_id: str = queue.ids[queue.back.value]
        self.waiting.discard((target.name, format_id))
        return format_id

    def result(self, target: Target, fmt: ir.Format) -> dict[str, str] | None:
        """The worker's files of the format, or None when the caller must render it."""
        from generator import standins

        wanted = (target.name, fmt.id)
        connection = self.connections.get(target.name)
        while wanted in self.waiting and wanted not in self.done and connection is not None:
            try:
                format_id, files, made = connection.recv()
            except (EOFError, OSError):  # the worker died: what it did not send is rendered here
                break
            self.done[target.name, format_id] = files
            standins.note(made)  # the modules it made with texts put back: their checks run here
        self.waiting.discard(wanted)
        return self.done.pop(wanted, None)

    def __exit__(self, *exc: object) -> None:
        for connection in self.connections.values():
            connection.close()
        for process in self.processes.values():
            if process.is_alive():
                process.terminate()
            process.join()
        self.connections.clear()
        self.processes.clear()


def _send(connection: Connection, process: BaseProcess, job: Any) -> None:
    try:
        connection.send(job)
    except Exception:  # noqa: BLE001 - unpicklable, or the worker is gone: the caller renders its formats
        process.terminate()  # so a result() waiting for it sees the pipe end


class _Jobs:
    """A worker's list of formats, shared with the main process: the worker takes them from the
    front, the main process may take some back from the end (Workers.take)."""

    def __init__(self, lock: Any, front: Any, back: Any) -> None:
        self.lock = lock
        self.front = front  # the next format the worker starts (shared memory)
        self.back = back  # one past the last format left to the worker (shared memory)
        self.ids: list[str] = []  # the formats (each side has its copy)


def _serve(
    target: Target, connection: Connection, parents_ends: list[Connection], jobs: _Jobs, job: tuple[Context, list[str]] | None
) -> None:
    """A worker: warm up, then render each format it is handed (in `job`, when it was started
    with its formats), sending its files (None for a format that failed: the caller renders it
    again and reports the error)."""
    from generator import standins

    for end in parents_ends:
        end.close()  # so the worker sees its pipe end when the run no longer needs it
    if job is None:
        target.warm_up()
        try:
            job = connection.recv()
        except EOFError:
            return  # nothing to render in the background this run
    ctx, format_ids = job
    formats = {f.id: f for f in ctx.formats}
    while True:
        with jobs.lock:
            if jobs.front.value >= jobs.back.value:
                break
            format_id = format_ids[jobs.front.value]
            jobs.front.value += 1
        try:
            files: dict[str, str] | None = target.render_format(formats[format_id], ctx)
        except Exception:  # noqa: BLE001 - reported where the caller renders the format again
            files = None
        connection.send((format_id, files, standins.noted()))
    connection.close()

"""make test's answer to a test whose worker process died: when every failure of the run is such a
test, each runs once more, alone, in a fresh process without xdist, and the run passes if they do.

Why: make test has met a segmentation fault in Python's garbage collector three times in about twenty
runs (one of them stop 43's CI run). A worker dies at whatever test is running when a collection finds
what corrupts it (black formatting, an export, markdown-it so far; black's mypyc-compiled modules were
loaded each time); each of those tests passes alone, and the crash never came when looked for (a
collection after every test, PYTHONMALLOC=debug, a collection every 20 allocations over test_cache and
test_docs, six whole runs in a row with core dumps on). tests/xdist_groups.py
makes such a run end with that test failed; this reruns it. A test that dies, or fails, again fails
the run; so does any other failure, which is never rerun. The rerun says what it did, above the
summary, and the worker's fatal error and stack stay in the output.

(A rerun inside the run, on a new worker, was tried first and taken back: xdist's scheduler lost
track of a test that died twice.)
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

_crashed: list[str] = []  # the tests whose worker died, in the order xdist reported them (controller side)


def record(crashitem: str) -> None:
    """pytest_handlecrashitem's part: remember the test (xdist reports it failed)."""
    _crashed.append(crashitem)


def rerun(session: pytest.Session) -> None:
    """pytest_sessionfinish's part: rerun the crashed tests when they are the run's only failures."""
    if session.exitstatus != pytest.ExitCode.TESTS_FAILED or not _crashed:
        return
    reporter: Any = session.config.pluginmanager.get_plugin("terminalreporter")
    failed = {r.nodeid for key in ("failed", "error") for r in reporter.stats.get(key, []) if getattr(r, "nodeid", "")}
    if not failed or not failed <= set(_crashed):
        return
    tests = sorted(failed)
    reporter.write("\n")  # the progress line may still be open
    reporter.write_sep("=", f"{len(tests)} test(s) whose worker died, run once more alone in a new process")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-o", "addopts=", "-q", *tests],
        cwd=session.config.rootpath,
        capture_output=True,
        text=True,
    )
    reporter.write(done.stdout[-6000:] + done.stderr[-2000:])
    if done.returncode == 0:
        session.exitstatus = pytest.ExitCode.OK
        reporter.write_line(f"passed on the rerun: {', '.join(tests)}: the run passes (its worker's crash is above)", yellow=True)
    else:
        reporter.write_line("failed again on the rerun: the run fails", red=True)

"""make test's scheduler (tests/xdist_groups.py) when a worker dies: the run ends, the test it died
on is reported failed once, and every other test runs once. Run as pytest runs make test's suite:
two workers, --dist loadgroup, on a small suite of its own with one test that kills its worker."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

CONFTEST = """
import pytest

@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist_groups import GroupScheduling
    return GroupScheduling(config, log, lambda nodeid: "pair" if "_pair_" in nodeid else None)

@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem, report, sched):
    from xdist_groups import rerun_crashed_once
    rerun_crashed_once(crashitem, report, sched)
"""

DIES = """
def test_{name}():
    import os, signal
    os.kill(os.getpid(), signal.SIGSEGV)  # as the worker CI saw die: a segfault
"""

DIES_ONCE = """
def test_{name}():
    import os, signal, pathlib
    died = pathlib.Path("died-once")
    if not died.exists():
        died.write_text("")
        os.kill(os.getpid(), signal.SIGSEGV)
"""

RUNS = """
def test_{name}():
    import time
    time.sleep(0.1)
"""


NAMES = [f"t{i:02}" for i in range(12)] + ["t_pair_1", "t_pair_2", "t12", "t13", "t14"]


@pytest.mark.parametrize("dies", ["t00", "t05", "t_pair_2", "t14"])
def test_a_run_whose_worker_dies_ends_with_that_test_failed_and_every_other_run_once(tmp_path: Path, dies: str) -> None:
    # A test that kills its worker every time: run once more on a new worker, it dies again and is reported failed.
    report, code = _run(tmp_path, {name: DIES if name == dies else RUNS for name in NAMES})
    assert code == 1, report
    assert re.search(rf"worker 'gw\d' crashed while running 'test_suite.py::test_{dies}' \(its output is above\): running it once more", report), report
    assert re.search(rf"^FAILED test_suite.py::test_{dies} - worker 'gw\d' crashed while running", report, re.M), report
    ran = re.findall(r"^(PASSED|FAILED) test_suite.py::test_(\w+)", report, re.M)
    assert sorted(ran) == sorted([("FAILED", dies)] + [("PASSED", name) for name in NAMES if name != dies]), report


@pytest.mark.parametrize("dies", ["t00", "t_pair_2", "t14"])
def test_a_test_whose_worker_died_once_runs_again_and_the_crash_stays_in_the_report(tmp_path: Path, dies: str) -> None:
    # As make test met it twice: a worker dies in the garbage collector at a test that passes when run again.
    report, code = _run(tmp_path, {name: DIES_ONCE if name == dies else RUNS for name in NAMES})
    assert code == 0, report
    assert re.search(rf"worker 'gw\d' crashed while running 'test_suite.py::test_{dies}' \(its output is above\): running it once more", report), report
    assert re.search(r"\b1 rerun\b", report), report
    ran = re.findall(r"^(PASSED|FAILED) test_suite.py::test_(\w+)", report, re.M)
    assert sorted(ran) == sorted(("PASSED", name) for name in NAMES), report


def _run(tmp_path: Path, tests: dict[str, str]) -> tuple[str, int]:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider --dist loadgroup --no-loadscope-reorder\n")
    (tmp_path / "test_suite.py").write_text("".join(body.format(name=name) for name, body in tests.items()))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-n", "2", "-rA", "-p", "no:faulthandler", "test_suite.py"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            env=_env(),
        )
    except subprocess.TimeoutExpired as waited:
        pytest.fail(f"the run waited for ever after its worker died:\n{waited.stdout!r}")
    return done.stdout, done.returncode


def _env() -> dict[str, str]:
    """This environment without what pytest and xdist set for the run this test is part of."""
    import os

    own = {name: value for name, value in os.environ.items() if not name.startswith(("PYTEST_", "PYTHONPATH"))}
    return {**own, "PYTHONPATH": str(TESTS)}

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
"""

DIES = """
def test_{name}():
    import os, signal
    os.kill(os.getpid(), signal.SIGSEGV)  # as the worker CI saw die: a segfault
"""

RUNS = """
def test_{name}():
    import time
    time.sleep(0.1)
"""


@pytest.mark.parametrize("dies", ["t00", "t05", "t_pair_2", "t14"])
def test_a_run_whose_worker_dies_ends_with_that_test_failed_and_every_other_run_once(tmp_path: Path, dies: str) -> None:
    names = [f"t{i:02}" for i in range(12)] + ["t_pair_1", "t_pair_2", "t12", "t13", "t14"]
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider --dist loadgroup --no-loadscope-reorder\n")
    (tmp_path / "test_suite.py").write_text("".join((DIES if name == dies else RUNS).format(name=name) for name in names))
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
    report = done.stdout
    assert done.returncode == 1, report
    assert re.search(rf"worker 'gw\d' crashed while running 'test_suite.py::test_{dies}'", report), report
    ran = re.findall(r"^(PASSED|FAILED) test_suite.py::test_(\w+)", report, re.M)
    assert sorted(ran) == sorted([("FAILED", dies)] + [("PASSED", name) for name in names if name != dies]), report


def _env() -> dict[str, str]:
    """This environment without what pytest and xdist set for the run this test is part of."""
    import os

    own = {name: value for name, value in os.environ.items() if not name.startswith(("PYTEST_", "PYTHONPATH"))}
    return {**own, "PYTHONPATH": str(TESTS)}


RERUN_CONFTEST = CONFTEST + """

@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem, report, sched):
    import crash_rerun
    crash_rerun.record(crashitem)


def pytest_sessionfinish(session):
    import crash_rerun
    crash_rerun.rerun(session)
"""

DIES_ONCE = """
def test_{name}():
    import os, pathlib, signal
    mark = pathlib.Path(__file__).with_name("died")
    if not mark.exists():
        mark.write_text("once")
        os.kill(os.getpid(), signal.SIGSEGV)
"""

FAILS = """
def test_{name}():
    assert False, "a real failure"
"""


@pytest.mark.parametrize("kind", ["dies once", "dies every time", "dies once beside a failure"])
def test_a_test_whose_worker_died_runs_once_more_alone_and_only_its_passing_there_passes_the_run(tmp_path: Path, kind: str) -> None:
    # tests/crash_rerun.py, as conftest.py registers it: the rerun happens only when every failure is a crash.
    names = [f"t{i:02}" for i in range(8)] + ["t_pair_1", "t_pair_2"]
    body = {"t03": DIES_ONCE if kind != "dies every time" else DIES}
    if kind == "dies once beside a failure":
        body["t06"] = FAILS
    (tmp_path / "conftest.py").write_text(RERUN_CONFTEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider --dist loadgroup --no-loadscope-reorder\n")
    (tmp_path / "test_suite.py").write_text("".join(body.get(name, RUNS).format(name=name) for name in names))
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-rA", "-p", "no:faulthandler", "test_suite.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, env=_env())
    report = done.stdout
    assert re.search(r"worker 'gw\d' crashed while running 'test_suite.py::test_t03'", report), report
    if kind == "dies once":
        assert done.returncode == 0, report
        assert "passed on the rerun: test_suite.py::test_t03" in report, report
    elif kind == "dies every time":
        assert done.returncode == 1 and "failed again on the rerun" in report, report
    else:
        assert done.returncode == 1 and "run once more" not in report, report
    ran = re.findall(r"^(PASSED|FAILED) test_suite.py::test_(\w+)", report, re.M)
    assert sorted(ran) == sorted([("FAILED", n) if n in ("t03", "t06") and n in body else ("PASSED", n) for n in names]), report

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

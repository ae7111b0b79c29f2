"""make compiled: the optional compiled build, the runtime of generated/python/chatformats compiled with mypyc into build/mypyc.

    python tests/mypyc_driver.py [--force]      # what make compiled runs

mypyc comes with the pinned mypy (the dev extra); it also needs a C compiler and the
Python headers. It compiles chatformats/_runtime.py, where the exact walk, the input
policy and the fast path's helpers live; the format modules stay Python, because mypyc
makes a dataclass a typed native class (a wrongly typed value set in code would raise
TypeError, a bool set on an integer field would become an int), so their models behave
exactly as in the pure package. tests/test_compiled.py checks that the compiled package
gives the same verdicts, messages and values as the pure one.

The build works on a copy of the package (generated/ is never written) and leaves in build/mypyc:

    chatformats/                     the package: the runtime's extension (.so) beside the sources
    chatformats__mypyc.<tag>.so      the compiled code (a top-level module the runtime loads)
    BUILD.json                       the source hash it was built from, and how long it took

With build/mypyc first on sys.path, `import chatformats` loads the compiled runtime (it loads
only as that top-level package, for this Python version and platform). A build is reused
while the package's source, mypy, Python and this recipe are the same (the hash of all
four); a lock keeps two test workers from building at once.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import importlib.metadata
import importlib.util
import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "generated" / "python" / "chatformats"
OUT = ROOT / "build" / "mypyc"
PACKAGE = OUT / "chatformats"
STAMP = OUT / "BUILD.json"
EXT_SUFFIX: str = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
COMPILED = ("_runtime",)
"""The modules compiled: the runtime. The format modules stay Python, so their models keep
Python's semantics (mypyc's native classes would type their attributes)."""

# setup.py of the copy: the runtime compiled (one group: the shared library chatformats__mypyc),
# at mypyc's default optimisation level; the format modules stay Python.
_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="chatformats",
    packages=["chatformats"],
    ext_modules=mypycify(["chatformats/_runtime.py"], opt_level="3", group_name="chatformats"),
)
"""


def compiler_problem() -> str | None:
    """Why this machine cannot build the compiled package, or None if it can."""
    try:
        importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        return "mypy (which brings mypyc) is not installed: pip install -e '.[dev]'"
    if importlib.util.find_spec("setuptools") is None:  # a Python 3.12 venv comes without it
        return "setuptools, which mypyc builds with, is not installed: pip install setuptools"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler: {cc} (the compiler this Python was built with) is not on PATH"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers: {headers} is missing (install the python3-dev package)"
    return None


def source_hash() -> str:
    """The hash a build is keyed on: the package's files, mypy's version, the Python and this recipe."""
    digest = hashlib.sha256()
    for path in sorted(p for p in SOURCE.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(SOURCE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(f"mypy {importlib.metadata.version('mypy')}\0{sys.version}\0{EXT_SUFFIX}\0{_SETUP}".encode())
    return digest.hexdigest()


def built() -> dict[str, object] | None:
    """BUILD.json of the build in build/mypyc if it is current (same source hash), else None."""
    try:
        stamp: dict[str, object] = json.loads(STAMP.read_text(encoding="utf-8"))
        key = source_hash()
    except (OSError, ValueError, importlib.metadata.PackageNotFoundError):  # no build, or no mypy to tell
        return None
    complete = all((PACKAGE / f"{m}{EXT_SUFFIX}").is_file() for m in COMPILED)
    return stamp if complete and stamp.get("source_hash") == key else None


def build(force: bool = False) -> dict[str, object]:
    """Build (or reuse) the compiled package in build/mypyc; returns its BUILD.json.
    Raises RuntimeError naming what is missing, or quoting the compiler's output."""
    problem = compiler_problem()
    if problem:
        raise RuntimeError(f"cannot build the compiled package: {problem}")
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        current = None if force else built()
        if current is not None:
            return {**current, "reused": True}
        key = source_hash()
        work = Path(tempfile.mkdtemp(prefix="work-", dir=OUT))
        try:
            shutil.copytree(SOURCE, work / "chatformats", ignore=shutil.ignore_patterns("__pycache__"))
            (work / "setup.py").write_text(_SETUP, encoding="utf-8")
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=work,
                                  capture_output=True, text=True)
            seconds = time.perf_counter() - start
            (OUT / "build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
            if done.returncode != 0:
                raise RuntimeError(f"mypyc failed to compile {SOURCE.relative_to(ROOT)} (exit {done.returncode}; "
                                   f"full log in {(OUT / 'build.log').relative_to(ROOT)}):\n"
                                   f"{(done.stdout + done.stderr)[-4000:]}")
            shutil.rmtree(PACKAGE, ignore_errors=True)
            for old in OUT.glob("chatformats__mypyc*"):
                old.unlink()
            shutil.move(str(work / "chatformats"), PACKAGE)
            for shared in work.glob(f"chatformats__mypyc*{EXT_SUFFIX}"):
                shutil.move(str(shared), OUT / shared.name)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        stamp: dict[str, object] = {"source_hash": key, "seconds": round(seconds, 1),
                                    "mypy": importlib.metadata.version("mypy"), "python": sys.version.split()[0]}
        STAMP.write_text(json.dumps(stamp, indent=2) + "\n", encoding="utf-8")
        return {**stamp, "reused": False}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild even if build/mypyc is current")
    args = parser.parse_args()
    try:
        stamp = build(force=args.force)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    where = OUT.relative_to(ROOT)
    if stamp["reused"]:
        print(f"{where} is up to date (compiled from this source in {stamp['seconds']} s)")
    else:
        print(f"compiled chatformats with mypyc {stamp['mypy']} into {where} in {stamp['seconds']} s")
    print(f"use it: PYTHONPATH={where} (or copy {where}/chatformats and {where}/chatformats__mypyc*{EXT_SUFFIX} "
          f"into site-packages); make bench adds a chatspec (mypyc) column")
    return 0


if __name__ == "__main__":
    sys.exit(main())

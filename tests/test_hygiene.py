"""The test suite itself: self-contained in the repository, and every skip says why."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

TESTS = ROOT / "tests"
SOURCES = sorted(p for p in TESTS.rglob("*") if p.suffix in {".py", ".go"} and "golden" not in p.parts and "fuzz_corpus" not in p.parts)
# Hostile values such as "../escaped" are inputs to refuse, not files read, so a bare "../" is not flagged.
OUTSIDE = re.compile(r"""ROOT\.parent\b|\.parent\.parent\.parent|["']\.\./(?:\.\./)*(?:shared|seeds)\b|/work/|["']shared["']|seeds/""")


def test_no_test_reads_a_file_outside_the_repository() -> None:
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in SOURCES if p.name != "test_hygiene.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert not found, "copy what the test needs into tests/fixtures instead:\n" + "\n".join(found)


def test_every_skip_gives_its_reason() -> None:
    missing = []
    for path in (p for p in SOURCES if p.suffix == ".py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = ast.unparse(node.func)
            if name.endswith("skipif") and not any(k.arg == "reason" for k in node.keywords):
                missing.append(f"{path.name}:{node.lineno}: {name} without reason=")
            if name in {"pytest.skip", "pytest.xfail", "pytest.importorskip"} and not (node.args or node.keywords):
                missing.append(f"{path.name}:{node.lineno}: {name}() without a reason")
            if name.endswith("mark.skip") or name.endswith("mark.xfail"):
                if not any(k.arg == "reason" for k in node.keywords) and not node.args:
                    missing.append(f"{path.name}:{node.lineno}: {name} without reason")
    assert not missing, "\n".join(missing)

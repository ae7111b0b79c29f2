"""The docs' Python examples print what their comments say they print.

Every `print(...)` line in a Behaviour example ends in `# <the exact output>`; the
example is run and its output compared line by line with those comments.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import ROOT
from test_scenarios import behaviour_examples

_PRINT = re.compile(r"^\s*print\(.*\)\s*#\s?(.*)$")


def expected_output(code: str) -> list[str]:
    """The output the comments promise, in order; every print must carry one."""
    lines = []
    for line in code.splitlines():
        if line.lstrip().startswith("print("):
            found = _PRINT.match(line)
            assert found, f"a print without its expected output in a comment: {line.strip()}"
            lines.append(found.group(1).rstrip())
    return lines


def test_expected_output_reads_the_comment_of_every_print() -> None:
    assert expected_output('x = 1\nprint(x)   # 1\nfor i in []:\n    print(i)  # never\n') == ["1", "never"]


def test_every_python_example_in_the_docs_prints_what_its_comments_say() -> None:
    examples = behaviour_examples("python")
    assert {page for page, _ in examples} == {"chat_modality.md", "chat_event.md", "droidlet_chat.md", "structured_conversation.md"}
    env = {**os.environ, "PYTHONPATH": str(ROOT / "generated" / "python")}
    for page, code in examples:
        promised = expected_output(code)
        assert promised, f"{page}: an example that prints nothing checks nothing:\n{code}"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert done.returncode == 0, f"{page}: the Python example fails:\n{code}\n{done.stderr}"
        assert [line.rstrip() for line in done.stdout.splitlines()] == promised, f"{page}:\n{code}\nprinted:\n{done.stdout}"

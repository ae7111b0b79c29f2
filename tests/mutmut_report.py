"""Print mutmut's score for generator/classify.py after `mutmut run` (make mutate).

    python tests/mutmut_report.py [--survivors]

Reads mutmut's own verdicts (`mutmut results --all true`) and prints killed / total,
and killed / mutants some selected test reaches ("no tests": mutmut found no selected
test that calls the function, so the mutant was never run). With --survivors, also a
Markdown table of the surviving mutants: the line in classify.py and the change
(`mutmut show <name>` gives the whole diff). See tests/MUTATION.md.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTMUT = [str(Path(sys.executable).parent / "mutmut")]
SOURCE = ROOT / "generator" / "classify.py"


def results() -> dict[str, str]:
    out = subprocess.run([*MUTMUT, "results", "--all", "true"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    verdicts = {}
    for line in out.splitlines():
        name, sep, verdict = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            verdicts[name] = verdict
    return verdicts


def function_lines() -> dict[str, int]:
    """mutmut's name for each function or method (x_f, xǁClassǁm) -> its first line."""
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    lines = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines[f"x_{node.name}"] = min([node.lineno] + [d.lineno for d in node.decorator_list])
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines[f"xǁ{node.name}ǁ{item.name}"] = min([item.lineno] + [d.lineno for d in item.decorator_list])
    return lines


def survivor_row(name: str, starts: dict[str, int], source: list[str]) -> tuple[int, str, str]:
    diff = subprocess.run([*MUTMUT, "show", name], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    function = name.split(".")[-1].split("__mutmut_")[0]
    old = [l[1:] for l in diff.splitlines() if l.startswith("-") and not l.startswith("---")]
    new = [l[1:] for l in diff.splitlines() if l.startswith("+") and not l.startswith("+++")]
    hunk = re.search(r"^@@ -(\d+)", diff, re.M)
    line = 0
    if hunk and old:
        # The hunk counts from the function's first line; the first removed line follows its context.
        body = diff[hunk.end():].splitlines()[1:]
        offset = next(i for i, l in enumerate(body) if l.startswith("-"))
        line = starts.get(function, 1) + int(hunk.group(1)) - 1 + offset
        if source[line - 1].strip() != old[0].strip():  # fall back to a search in the file
            line = next((i + 1 for i, l in enumerate(source) if l.strip() == old[0].strip()), 0)
    change = " / ".join(o.strip() for o in old) + " → " + (" / ".join(n.strip() for n in new) or "(deleted)")
    return line, name.split(".")[-1], change


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--survivors", action="store_true", help="also list the survivors as a Markdown table")
    args = parser.parse_args()
    verdicts = results()
    if not verdicts:
        print("mutmut: no results; run `mutmut run` first", file=sys.stderr)
        return 1
    counts = Counter(verdicts.values())
    total, killed = len(verdicts), counts["killed"]
    reached = total - counts["no tests"]
    detail = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
    print(f"mutmut generator/classify.py: {killed}/{total} killed = {100 * killed / total:.0f}% "
          f"({killed}/{reached} = {100 * killed / reached:.0f}% of the mutants a selected test reaches; {detail})")
    if args.survivors:
        starts = function_lines()
        source = SOURCE.read_text(encoding="utf-8").splitlines()
        rows = sorted(survivor_row(n, starts, source) for n, v in verdicts.items() if v == "survived")
        print("\n| line | mutant | change |\n|---|---|---|")
        for line, name, change in rows:
            escaped = change.replace("|", "\\|")
            print(f"| {line} | `{name}` | `{escaped}` |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

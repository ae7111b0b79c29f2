"""The JSON Schema Test Suite through chatspec, per keyword file: groups, groups accepted, tests of the accepted
groups, and with --languages how many of those get the suite's verdict in Python, Go and TypeScript; then every
refused group's reason, counted.

    .venv/bin/python tests/json_schema_suite_table.py [--languages]

(The tests hold the same: tests/test_json_schema_suite.py. This prints the table the README and the closing
notes quote.)
"""

from __future__ import annotations

import collections
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

import conformance  # noqa: E402
import test_json_schema_suite as suite  # noqa: E402
from conftest import generate_cached  # noqa: E402
from generator.load import load_spec  # noqa: E402


def main() -> None:
    project = Path(tempfile.mkdtemp())
    rows: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])  # file -> groups, accepted, tests
    reasons: collections.Counter[str] = collections.Counter()
    accepted: dict[str, suite.Accepted] = {}
    for stem, i, group in suite._groups():
        format_id = f"s_{re.sub(r'[^a-z0-9]', '', stem.lower())}_{i}"
        rows[stem][0] += 1
        refused = suite._try(project, format_id, suite.spec_of(group["schema"]))
        if refused is None:
            rows[stem][1] += 1
            rows[stem][2] += len(group["tests"])
            accepted[format_id] = suite.Accepted(f"{stem}: {group['description']}", stem, group["description"], group["schema"], group["tests"])
        else:
            reasons[re.sub(r"^.*?: at \S+: ", "", str(refused).splitlines()[0])[:110]] += 1
    passed: dict[str, collections.Counter[str]] = {}
    if "--languages" in sys.argv:
        specs = [load_spec(project / "specs" / f, project) for f in accepted]
        built = conformance.build(generate_cached(specs, targets=["python", "go", "typescript"]), list(accepted), project / "generated")
        cases = [(f, json.dumps({"value": t["data"]}), None) for f, a in accepted.items() for t in a.tests]
        expected = [(a, t) for a in accepted.values() for t in a.tests]
        for language, verdicts in built.verdicts(cases).items():
            passed[language] = collections.Counter(
                a.file for (a, t), v in zip(expected, verdicts) if "crash" not in v and v["ok"] == t["valid"]
            )
    languages = sorted(passed)
    print("| file | groups | accepted | tests |" + "".join(f" {lang} |" for lang in languages))
    print("|---|---|---|---|" + "---|" * len(languages))
    for stem, (groups, ok, tests) in sorted(rows.items()):
        print(f"| {stem} | {groups} | {ok} | {tests} |" + "".join(f" {passed[lang][stem]} |" for lang in languages))
    total = [sum(r[i] for r in rows.values()) for i in range(3)]
    print(f"| all | {total[0]} | {total[1]} | {total[2]} |" + "".join(f" {sum(passed[lang].values())} |" for lang in languages))
    print("\nrefused groups, by reason:")
    for reason, count in reasons.most_common():
        print(f"{count:4} {reason}")


if __name__ == "__main__":
    main()

"""The official JSON Schema Test Suite (draft 2020-12) through chatspec, in Python, Go and TypeScript (issue 28).

tests/json_schema_test_suite/draft2020-12/ holds the suite's files as the jsonschema 4.25.1 sdist ships them
(`pip download --no-deps --no-binary :all: jsonschema==4.25.1`, folder json/tests/draft2020-12/; the suite's
MIT licence is beside them). Each test group's schema becomes a spec, as written: the schema is the definition
Value, the root model's property "value" (its own $defs inside it, its "#" pointers rewritten to point at it),
and each test's data is checked as the document {"value": data}. A schema no type of the targets holds is
applied as written (generator/checks.py): most groups are.

What this holds:
- every group is either refused with a SpecError (meaning refused, with a message) or accepted;
- every test of an accepted group gets the suite's verdict from every driver (tests/conformance.py), but the
  two assertions chatspec makes beyond the standard's defaults (DEVIATIONS);
- the accepted groups are exactly those of tests/json_schema_test_suite/accepted.txt, so the count the README
  states stays true: a group newly accepted is added there, a group no longer accepted is a regression.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, generate_cached

import conformance
from generator.errors import SpecError
from generator.load import load_spec

SUITE = Path(__file__).resolve().parent / "json_schema_test_suite"
LEDGER = SUITE / "accepted.txt"

# (file, group, test) -> why chatspec's verdict is not the suite's. The suite runs with format and content
# as annotations only (2020-12's default); chatspec asserts both (README, "What a spec means"), as the
# format-assertion vocabulary allows.
DEVIATIONS = {
    ("content", "validation of binary string-encoding", "an invalid base64 string (% is not a valid character); validates true"):
        "chatspec asserts contentEncoding base64",
    **{
        ("format", f"{name} format", f"invalid {name} string is only an annotation by default"): f"chatspec asserts format {name}"
        for name in ("date-time", "date", "time", "uri", "uri-reference", "uuid", "email")
    },
    # A date-time is a time value in every target, and none holds a 61st second.
    ("optional/format/date-time", "validation of date-time strings", "a valid date-time with a leap second, UTC"):
        "chatspec refuses a leap second in a date-time",
    ("optional/format/date-time", "validation of date-time strings", "a valid date-time with a leap second, with minus offset"):
        "chatspec refuses a leap second in a date-time",
    # Every target holds an integer as int64 (README, "Input policy": an integer beyond 64 bits in an `integer` field).
    **{("optional/bignum", "integer", f"a {sign}bignum is an integer"): "chatspec holds integers as int64" for sign in ("", "negative ")},
    # The escapes \d \w \s (and \D \W \S) have Python's Unicode meaning in every target (README, "Patterns"), as
    # jsonschema reads them; the suite's optional file holds them to ECMA-262's ASCII classes (and \s to its set, which
    # has U+FEFF and lacks U+001C-U+001F and U+0085). Each test where the two meanings part:
    **{
        ("optional/ecmascript-regex", group, test): "chatspec reads \\d \\w \\s as Python's re does, not as ECMA-262"
        for group, tests in {
            "ECMA 262 \\d matches ascii digits only": ("NKO DIGIT ZERO does not match (unlike e.g. Python)", "NKO DIGIT ZERO (as \\u escape) does not match"),
            "ECMA 262 \\D matches everything but ascii digits": ("NKO DIGIT ZERO matches (unlike e.g. Python)", "NKO DIGIT ZERO (as \\u escape) matches"),
            "ECMA 262 \\w matches ascii letters only": ("latin-1 e-acute does not match (unlike e.g. Python)",),
            "ECMA 262 \\W matches everything but ascii letters": ("latin-1 e-acute matches (unlike e.g. Python)",),
            "ECMA 262 \\s matches whitespace": ("zero-width whitespace matches",),
            "ECMA 262 \\S matches everything but whitespace": ("zero-width whitespace does not match",),
            **{
                f"\\w in {keyword} matches [A-Za-z0-9_], not unicode letters": ("literal unicode character in json string", "unicode character in hex format in string")
                for keyword in ("patterns", "patternProperties")
            },
            **{
                f"\\d in {keyword} matches [0-9], not unicode digits": ("non-ascii digits (BENGALI DIGIT FOUR, BENGALI DIGIT TWO)",)
                for keyword in ("pattern", "patternProperties")
            },
        }.items()
        for test in tests
    },
}

# The suite's optional files that test what chatspec asserts beyond the standard's defaults: the formats it checks.
OPTIONAL = ("date-time", "date", "time", "uri", "uri-reference", "uuid", "email")
# And every optional file that is not about a format: big and overflowing numbers, patterns (code points past the
# BMP, ECMA-262's classes: DEVIATIONS), keywords of other drafts and identifiers; each group accepted or refused.
OPTIONAL_FILES = ("anchor", "bignum", "cross-draft", "dependencies-compatibility", "dynamicRef", "ecmascript-regex", "float-overflow",
                  "format-assertion", "id", "no-schema", "non-bmp-regex", "refOfUnknownKeyword", "unknownKeyword")


# The keywords whose values are data, not schemas: nothing in them is rewritten.
_DATA = frozenset({"enum", "const", "default", "examples"})
# The keywords whose values map names to schemas.
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas", "$defs"})


def _into_value(schema: Any) -> Any:
    """The schema with its pointers into itself ("#", "#/properties/...") pointing into the spec's $defs/Value,
    where it stands (its own $defs with it)."""
    if isinstance(schema, list):
        return [_into_value(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for k, v in schema.items():
        if k in _DATA:
            out[k] = v
        elif k == "$ref" and isinstance(v, str) and (v == "#" or v.startswith("#/")):
            out[k] = "#/$defs/Value" + v[1:]
        elif k in _SCHEMA_MAPS and isinstance(v, dict):
            out[k] = {name: _into_value(s) for name, s in v.items()}
        else:
            out[k] = _into_value(v)
    return out


def spec_of(schema: Any) -> dict[str, Any]:
    """A spec whose root model's "value" is the schema, as written (its $schema is the spec's own dialect, so it is
    dropped; its $defs stay where they are)."""
    if isinstance(schema, dict):
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "JSON Schema Test Suite case",
        "description": "A test group of the JSON Schema Test Suite.", "x-version": "1.0.0", "$ref": "#/$defs/Doc",
        "$defs": {"Doc": {"type": "object", "description": "Holds the value under test.", "properties": {"value": {"$ref": "#/$defs/Value"}},
                          "required": ["value"], "additionalProperties": False},
                  "Value": _into_value(schema)},
    }


def _groups() -> list[tuple[str, int, dict[str, Any]]]:
    files = [(path.stem, path) for path in sorted((SUITE / "draft2020-12").glob("*.json"))]
    files += [(f"optional/{name}", SUITE / "draft2020-12" / "optional" / f"{name}.json") for name in OPTIONAL_FILES]
    files += [(f"optional/format/{name}", SUITE / "draft2020-12" / "optional" / "format" / f"{name}.json") for name in OPTIONAL]
    return [(stem, i, group) for stem, path in files for i, group in enumerate(json.loads(path.read_text(encoding="utf-8")))]


@dataclass(frozen=True)
class Accepted:
    line: str  # as the ledger lists it, e.g. "minLength: minLength validation"
    file: str  # e.g. "minLength"
    group: str  # the group's description
    schema: Any  # as written
    tests: list[dict[str, Any]]


def _try(project: Path, format_id: str, spec: dict[str, Any]) -> SpecError | None:
    folder = project / "specs" / format_id
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
    try:
        generate_cached([load_spec(folder, project)], targets=["python"])
    except SpecError as refused:
        shutil.rmtree(folder)
        return refused
    return None


@pytest.fixture(scope="module")
def accepted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Accepted]:
    """format id -> what chatspec accepted of a group, for every group it accepts."""
    project = tmp_path_factory.mktemp("suite")
    out = {}
    for stem, i, group in _groups():
        format_id = f"s_{re.sub(r'[^a-z0-9]', '', stem.lower())}_{i}"
        line = f"{stem}: {group['description']}"
        if _try(project, format_id, spec_of(group["schema"])) is None:
            out[format_id] = Accepted(line, stem, group["description"], group["schema"], group["tests"])
    return out


def test_every_group_is_accepted_or_refused_with_a_message(accepted: dict[str, Accepted]) -> None:
    # The fixture tried every group, and _try lets anything but a SpecError through: a crash on a schema someone
    # else wrote fails here. Both outcomes occur.
    assert len(_groups()) > 300 and 0 < len(accepted) < len(_groups())


def test_the_accepted_groups_are_those_of_the_ledger(accepted: dict[str, Accepted]) -> None:
    found = sorted(a.line for a in accepted.values())
    ledger = [line for line in LEDGER.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    assert found == ledger, (
        f"now accepted, not in {LEDGER.name}: {sorted(set(found) - set(ledger))}; "
        f"in it, no longer accepted (a regression): {sorted(set(ledger) - set(found))}"
    )


def _wrong_verdicts(accepted: dict[str, Accepted], project: Path, targets: list[str], folder: Path) -> list[str]:
    """Every test of every accepted group whose verdict in one of the targets is not the suite's (nor a deviation)."""
    for format_id, a in accepted.items():
        spec_folder = project / "specs" / format_id
        spec_folder.mkdir(parents=True)
        (spec_folder / "spec.json").write_text(json.dumps(spec_of(a.schema), indent=2) + "\n", encoding="utf-8")
    specs = [load_spec(project / "specs" / format_id, project) for format_id in accepted]
    # One language other than Python: Python is built too, whose problems (pointers and messages) it must give.
    alike = targets != ["python"] and len(targets) == 1
    built_targets = targets + ["python"] if alike else targets
    files = generate_cached(specs, targets=built_targets)
    cases = [(format_id, json.dumps({"value": t["data"]}), None) for format_id, a in accepted.items() for t in a.tests]
    if len(targets) == 1:
        # One language's driver, built here: a missing toolchain fails the test instead of skipping it.
        conformance.write_files(files, folder)
        found = {}
        for target in built_targets:
            [driver] = [d for d in conformance.DRIVERS if d.target == target]
            built = driver.build(folder, list(accepted))
            assert built is not None, f"the {driver.target} driver needs {driver.needs}"
            found[driver.target] = driver.run(built, cases)
    else:
        found = conformance.build(files, list(accepted), folder).verdicts(cases)
    expected = [(a, t) for a in accepted.values() for t in a.tests]
    wrong = []
    if alike:
        # The walk's problems, not only its verdict: a wrong pointer or message under a schema applied as written
        # leaves the verdict alone.
        python = found.pop("python")
        for (a, test), theirs, ours in zip(expected, found[targets[0]], python):
            if "crash" not in theirs and theirs.get("errors") != ours.get("errors"):
                wrong.append(f"{targets[0]}: {a.line}: {test['description']}: {json.dumps(test['data'])[:200]}: problems "
                             f"{theirs.get('errors', [])[:3]}, Python's {ours.get('errors', [])[:3]}")
    for language, verdicts in found.items():
        for (a, test), verdict in zip(expected, verdicts):
            if "crash" in verdict:
                wrong.append(f"{language}: {a.line}: {test['description']}: crashed: {verdict['crash'][:300]}")
            elif verdict["ok"] != test["valid"] and (a.file, a.group, test["description"]) not in DEVIATIONS:
                wrong.append(f"{language}: {a.line}: {test['description']}: {json.dumps(test['data'])[:200]}: "
                             f"chatspec {'accepts' if verdict['ok'] else 'refuses'} {verdict['errors'][:2]}, the suite says "
                             f"{'valid' if test['valid'] else 'invalid'}")
    return wrong


def test_every_accepted_group_gets_the_suites_verdict_in_python(accepted: dict[str, Accepted], tmp_path: Path) -> None:
    # make test's share of the next test: the Python runtime's walk of schemas applied as written, its formats and
    # bounds, at every edge the suite tests (a few seconds; Go and TypeScript need their builds).
    wrong = _wrong_verdicts(accepted, tmp_path / "project", ["python"], tmp_path / "generated")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("language", ["go", "typescript"])
def test_every_accepted_group_gets_the_suites_verdict_in_one_language(language: str, accepted: dict[str, Accepted], tmp_path: Path) -> None:
    # The same in Go and in TypeScript, one at a time: the mutation groups of their runtimes run the one of their
    # language (tests/mutate.py), so a bug in a walk of schemas applied as written meets the suite's edges there too.
    wrong = _wrong_verdicts(accepted, tmp_path / "project", [language], tmp_path / "generated")
    assert not wrong, "\n".join(wrong)


def test_each_deviation_is_still_met(accepted: dict[str, Accepted]) -> None:
    # A deviation no accepted test meets any more is stale: remove it.
    met = {(a.file, a.group, t["description"]) for a in accepted.values() for t in a.tests}
    assert set(DEVIATIONS) <= met, sorted(set(DEVIATIONS) - met)


def test_the_copy_is_the_pinned_sdists_own(tmp_path: Path) -> None:
    # The files the tests read are the suite as jsonschema 4.25.1 ships it, byte for byte: fetched from the
    # package index (so this runs with the conformance tests, which may reach it), never a hand copy.
    import subprocess
    import sys
    import tarfile

    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:", "jsonschema==4.25.1", "-d", str(tmp_path)],
        check=True,
    )
    (sdist,) = tmp_path.glob("jsonschema-4.25.1.tar.gz")
    with tarfile.open(sdist) as tar:
        shipped = {
            m.name.split("/json/tests/draft2020-12/", 1)[1]: tar.extractfile(m).read()  # type: ignore[union-attr]
            for m in tar.getmembers()
            if "/json/tests/draft2020-12/" in m.name and m.isfile()
        }
    ours = {str(p.relative_to(SUITE / "draft2020-12")): p.read_bytes() for p in (SUITE / "draft2020-12").rglob("*.json")}
    assert ours, "no suite files"
    assert {name: data for name, data in ours.items() if shipped.get(name) != data} == {}

"""Differential test: every golden spec gets one verdict from the generated Python, Go and TypeScript,
from jsonschema on its exported schema, and from jsonschema on the spec as written.

Cases are each case's examples, instances hypothesis-jsonschema draws from the exported schema and
from the spec as written, and systematic mutations of all of those (tests/mutations.py), chosen to
reach every path depth. Python, Go and TypeScript must report the same errors, paths and messages;
the exported schema must give Python's verdict; so must the spec as written, except where the only
errors are checks chatspec makes beyond it (the 64-bit integer range and the nesting bound, both
stated in the exported schema or the README, and the rules: every x-rule for the spec as written, whose x-
keywords jsonschema ignores; for the exported schema, the rules JSON Schema cannot state: member_of, compare).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import conformance
import fuzz
import mutations
from conftest import GOLDEN, ROOT
from generator.core import generate
from generator.load import load_spec

CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
RULE_KINDS = json.loads((ROOT / "generator" / "metaschema" / "chatspec.schema.json").read_text(encoding="utf-8"))["$defs"]["rule"]["properties"]["kind"]["enum"]
DRAWN = 40  # instances drawn from each of the two schemas
MUTATED = 300  # mutations of the examples and drawn instances


@pytest.fixture(scope="module")
def golden_built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    files = generate([load_spec(GOLDEN / case, ROOT) for case in CASES], targets=["python", "go", "typescript", "jsonschema"])
    return conformance.build(files, CASES, tmp_path_factory.mktemp("golden_differential"))


def documents(case: str, exported: dict[str, Any], written: dict[str, Any]) -> list[Any]:
    folder = GOLDEN / case / "examples"
    examples = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "valid").glob("*.json"))]
    examples += [json.loads(p.read_text(encoding="utf-8"))["data"] for p in sorted((folder / "invalid").glob("*.json"))]
    seeds = [*examples, *fuzz.drawn(conformance.inline_refs(exported), DRAWN), *fuzz.drawn(conformance.generation_schema(written), DRAWN)]
    return [*seeds, *(doc for _, doc in mutations.covering_selection(seeds, MUTATED, seed=len(case)))]


@pytest.mark.parametrize("case", CASES)
def test_python_go_typescript_and_jsonschema_agree_on_drawn_and_mutated_instances(golden_built: conformance.Built, case: str) -> None:
    written_doc = json.loads((GOLDEN / case / "spec.json").read_text(encoding="utf-8"))
    exported_doc = json.loads((golden_built.folder / "jsonschema" / f"{case}.schema.json").read_text(encoding="utf-8"))
    docs = documents(case, exported_doc, written_doc)
    texts = list(dict.fromkeys(json.dumps(d, ensure_ascii=False) for d in docs))
    cases = [(case, t, None) for t in texts]
    found = golden_built.verdicts(cases)
    assert set(found) == golden_built.languages
    # jsonschema reads no x-rules in the spec as written: every rule's error is a check beyond it there, while the
    # exported schema states all rules but member_of and compare.
    wrong = conformance.disagreements(cases, found, {case: [("the exported schema", conformance.oracle(exported_doc))]})
    # (x-open widens what the spec as written accepts: the oracle reads that meaning stated in standard keywords.)
    written = conformance.oracle(conformance.with_x_open(written_doc))
    wrong += conformance.disagreements(cases, found, {case: [("the spec as written", written)]},
                                       beyond=frozenset({"int64", "depth", *RULE_KINDS}))
    wrong = list(dict.fromkeys(wrong))  # a language's disagreement is found by both calls
    assert not wrong, f"{len(wrong)} of {len(texts)} cases disagree; the first:\n" + "\n".join(wrong[:8])
    # The cases reach both verdicts, so agreement is not two validators accepting (or refusing) everything.
    assert any(v["ok"] for v in found["python"]) and any(not v["ok"] for v in found["python"])

"""Differential fuzzing: generated Python vs jsonschema on the exported schema, and Go vs Python.

Cases are instances Hypothesis draws from each exported schema (with a fixed
seed) and systematic mutations of them and of the spec's valid examples. For
each case the generated Python's verdict must equal jsonschema's, except where a
spec rule the schema cannot state decided it (then Python's errors must all be
those rules); Go must report exactly Python's errors. Disagreements can be
recorded as permanent corpus cases under tests/fuzz_corpus/<format>/.

    python tests/fuzz.py --cases 10000 [--record]    # what `make fuzz` runs
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import importlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT), str(ROOT / "generated" / "python")]

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from hypothesis_jsonschema import from_schema  # noqa: E402
from jsonschema import Draft202012Validator  # noqa: E402

from conftest import format_folders  # noqa: E402
from mutations import mutations  # noqa: E402

CORPUS = HERE / "fuzz_corpus"
# Checks that only generated code makes: rules the exported schema cannot state, and the nesting bound.
PYTHON_ONLY = {"member_of", "depth"}


@dataclass
class Report:
    format: str
    cases: int = 0
    accepted: int = 0
    disagreements: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.format:26} {self.cases:7} cases  {self.accepted:6} accepted  "
                f"{self.cases - self.accepted:6} rejected  {len(self.disagreements)} disagreements")


def generation_schema(schema: Any) -> Any:
    """The exported schema in the form hypothesis-jsonschema reads: it predates
    2020-12, so tuples (prefixItems) are given as draft-07 item arrays."""
    if isinstance(schema, list):
        return [generation_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: generation_schema(v) for k, v in schema.items()}
    if out.get("$schema"):
        out["$schema"] = "http://json-schema.org/draft-07/schema#"
    if "prefixItems" in out:
        after = out.pop("items", True)  # what 2020-12 allows after the prefix
        out["items"] = out.pop("prefixItems")
        if after is not True:
            out["additionalItems"] = after
    return out


def drawn(schema: dict[str, Any], count: int) -> list[Any]:
    """count instances drawn from the schema, the same ones every run."""
    found: list[Any] = []
    if count <= 0:
        return found

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(from_schema(generation_schema(schema)))
    def collect(value: Any) -> None:
        found.append(value)

    try:
        collect()
    except Unsatisfiable:
        # hypothesis-jsonschema cannot satisfy some 2020-12 combinations (e.g. contains
        # over tuples); the format is then fuzzed from mutations of its examples alone.
        print(f"note: hypothesis-jsonschema cannot draw from {schema.get('title')!r}; using its examples only", file=sys.stderr)
    return found


def cases_for(fmt: str, folder: Path, budget: int, seeds: int) -> list[Any]:
    """Drawn instances, then mutations of the valid examples and of the drawn ones
    (taken in turn from each, so every document contributes), up to budget."""
    schema = json.loads((ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
    examples = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "examples" / "valid").glob("*.json"))]
    drawn_docs = drawn(schema, seeds)
    out: list[Any] = [*examples, *drawn_docs]
    pools = [mutations(doc) for doc in out]
    while len(out) < budget and any(pools):
        for pool in pools:
            if pool and len(out) < budget:
                out.append(pool.pop(0))
    corpus = sorted((CORPUS / fmt).glob("*.json")) if (CORPUS / fmt).is_dir() else []
    return [json.loads(p.read_text(encoding="utf-8")) for p in corpus] + out[:budget]


def python_verdict(fmt: str, text: str) -> dict[str, Any]:
    mod = importlib.import_module(f"chatformats.{fmt}")
    try:
        getattr(mod, f"parse_{fmt}_from_json")(text)
    except mod.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message] for e in exc.errors], "keywords": [e.keyword for e in exc.errors]}
    return {"ok": True, "errors": [], "keywords": []}


def run(budget: int, seeds: int, go_binary: Path | None, record: bool = False, formats: list[str] | None = None) -> list[Report]:
    from go_driver import run_driver

    reports = []
    for fmt, folder in format_folders().items():
        if formats and fmt not in formats:
            continue
        schema = json.loads((ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
        oracle = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        docs = cases_for(fmt, folder, budget, seeds)
        texts = [json.dumps(d, ensure_ascii=False) for d in docs]
        report = Report(fmt, cases=len(docs))
        python = [python_verdict(fmt, t) for t in texts]
        go = run_driver(go_binary, [(fmt, t) for t in texts]) if go_binary else None
        for i, (doc, text, py) in enumerate(zip(docs, texts, python)):
            report.accepted += py["ok"]
            reference_ok = oracle.is_valid(doc)
            problem = None
            if py["ok"] != reference_ok:
                if not (reference_ok and set(py["keywords"]) <= PYTHON_ONLY):
                    problem = f"jsonschema says {'valid' if reference_ok else 'invalid'}, Python {py['errors'] or 'valid'}"
            if problem is None and go is not None and (go[i]["ok"], go[i]["errors"]) != (py["ok"], py["errors"]):
                problem = f"Go {go[i]['errors'] or 'valid'}, Python {py['errors'] or 'valid'}"
            if problem:
                report.disagreements.append(f"{fmt}: {text[:400]}\n    {problem}")
                if record:
                    name = hashlib.sha256(text.encode()).hexdigest()[:16]
                    (CORPUS / fmt).mkdir(parents=True, exist_ok=True)
                    (CORPUS / fmt / f"{name}.json").write_text(json.dumps(copy.deepcopy(doc), ensure_ascii=False, indent=1) + "\n")
        reports.append(report)
    return reports


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases per format (default 10000)")
    parser.add_argument("--seeds", type=int, default=100, help="instances drawn from each schema (default 100)")
    parser.add_argument("--record", action="store_true", help="save disagreements under tests/fuzz_corpus/")
    args = parser.parse_args()
    from go_driver import build_driver, go_available
    from generator.options import load_options

    binary = None
    if go_available():
        import tempfile

        binary = build_driver(ROOT / "generated" / "go", load_options(ROOT).go_module, list(format_folders()), Path(tempfile.mkdtemp()))
    else:
        print("Go is not installed: comparing Python with jsonschema only", file=sys.stderr)
    reports = run(args.cases, args.seeds, binary, record=args.record)
    for report in reports:
        print(report.line())
        for d in report.disagreements[:5]:
            print("  " + d)
    import hostile  # raw bytes, not JSON values: see tests/hostile.py

    return max(1 if any(r.disagreements for r in reports) else 0, hostile.main())


if __name__ == "__main__":
    sys.exit(main())

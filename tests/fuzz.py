"""Differential fuzzing of every top-level model: generated Python, Go, TypeScript, pydantic and jsonschema.

Each format's root model and every other top-level model is fuzzed. Cases are the
valid examples (for a non-root model: the sub-documents found at its positions in
them), instances Hypothesis draws from the model's exported schema (with a fixed
seed), rule-aware near-misses (member_of, required_when, allowed_when,
at_least_one_of, contains), and systematic mutations chosen to reach every path
depth first. For each case the generated Python's verdict must equal jsonschema's
on the exported schema, except where a check the schema cannot state decided it
(then Python's errors must all be those checks); the pydantic model's verdict must
equal Python's; every other registered driver (tests/conformance.py DRIVERS: Go, TypeScript) must
report exactly Python's errors. Disagreements can be
recorded as permanent corpus cases under tests/fuzz_corpus/<format>/[<Model>/].

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

import conformance  # noqa: E402
from conftest import format_folders  # noqa: E402
import mutations  # noqa: E402

CORPUS = HERE / "fuzz_corpus"
PYDANTIC_OUT = ROOT / "generated" / "pydantic"
if str(PYDANTIC_OUT) not in sys.path:
    sys.path.insert(1, str(PYDANTIC_OUT))
# Checks that only generated code makes, which the exported schema cannot state: the
# member_of rule (a value found in another part of the document), the compare rule (one
# field ordered against another) and the nesting bound.
# Only where jsonschema accepts and every Python error is one of these does a verdict
# difference count as agreement; jsonschema rejecting what Python accepts never does.
PYTHON_ONLY = {"member_of", "compare", "depth"}


@dataclass
class Report:
    format: str
    cases: int = 0
    accepted: int = 0
    disagreements: list[str] = field(default_factory=list)
    by_model: dict[str, int] = field(default_factory=dict)  # model -> cases

    def line(self) -> str:
        return (f"{self.format:26} {self.cases:7} cases  {self.accepted:6} accepted  "
                f"{self.cases - self.accepted:6} rejected  {len(self.disagreements)} disagreements  "
                f"({len(self.by_model)} models)")


@dataclass
class Target:
    """One top-level model of a format: what the fuzzer parses a case as."""

    format: str
    model: str  # the class / struct name, e.g. "ConversationMessage"
    root: bool
    schema: dict[str, Any]  # the exported schema of this model alone


def exported_schema(fmt: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((ROOT / "generated" / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8"))
    return result


def targets(fmt: str) -> list[Target]:
    """The format's root model first, then every other top-level model (an object
    definition the generated code has a class for), in spec order."""
    schema = exported_schema(fmt)
    mod = importlib.import_module(f"chatformats.{fmt}")
    root = schema["$ref"].removeprefix("#/$defs/")
    out = [Target(fmt, root, True, schema)]
    for name in schema["$defs"]:
        if name != root and hasattr(getattr(mod, name, None), "from_json"):
            alone = {"$schema": schema["$schema"], "$ref": f"#/$defs/{name}", "$defs": schema["$defs"]}
            out.append(Target(fmt, name, False, alone))
    return out


def spec_rules(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Model name -> its x-rules, as written in the spec."""
    document = json.loads((folder / "spec.json").read_text(encoding="utf-8"))
    return {name: d["x-rules"] for name, d in document.get("$defs", {}).items() if d.get("x-rules")}


def valid_examples(folder: Path) -> list[Any]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "examples" / "valid").glob("*.json"))]


def sub_documents(fmt: str, documents: list[Any]) -> dict[str, list[Any]]:
    """Model name -> the distinct values found at that model's positions in the documents."""
    schema = exported_schema(fmt)
    models = {t.model for t in targets(fmt)}
    out: dict[str, list[Any]] = {m: [] for m in models}
    seen: set[tuple[str, str]] = set()
    for doc in documents:
        for path, model in mutations.model_positions(doc, schema, models):
            value = mutations.get(doc, path)
            key = (model, json.dumps(value, sort_keys=True))
            if key not in seen:
                seen.add(key)
                out[model].append(value)
    return out


def rule_cases(target: Target, documents: list[Any], rules: dict[str, list[dict[str, Any]]]) -> list[tuple[str, Any]]:
    """(label, document) near-misses that just trigger or just miss each rule, in each document."""
    models = {t.model for t in targets(target.format)}
    out = []
    for doc in documents:
        positions = list(mutations.model_positions(doc, target.schema, models))
        out += mutations.rule_mutations(doc, positions, rules)
    return out


def generation_schema(schema: Any) -> Any:
    """The exported schema in the form hypothesis-jsonschema reads: it predates
    2020-12, so tuples (prefixItems) are given as draft-07 item arrays."""
    if isinstance(schema, list):
        return [generation_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    # OpenAPI's discriminator annotation is left out: hypothesis-jsonschema does not know it.
    out = {k: generation_schema(v) for k, v in schema.items() if not (k == "discriminator" and isinstance(v, dict) and "propertyName" in v)}
    if out.get("$schema"):
        out["$schema"] = "http://json-schema.org/draft-07/schema#"
    if "prefixItems" in out:
        after = out.pop("items", True)  # what 2020-12 allows after the prefix
        out["items"] = out.pop("prefixItems")
        if after is not True:
            out["additionalItems"] = after
    return out


_DRAWN: dict[tuple[str, int], list[Any]] = {}


def drawn(schema: dict[str, Any], count: int) -> list[Any]:
    """count instances drawn from the schema, the same ones every run (kept for the
    process: drawing is the slow part of fuzzing, and several tests draw the same)."""
    key = (json.dumps(schema, sort_keys=True), count)
    if key not in _DRAWN:
        _DRAWN[key] = _draw(schema, count)
    return copy.deepcopy(_DRAWN[key])


def _draw(schema: dict[str, Any], count: int) -> list[Any]:
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
        # over tuples); the model is then fuzzed from mutations of its examples alone.
        print(f"note: hypothesis-jsonschema cannot draw from {schema.get('title') or schema.get('$ref')!r}; using its examples only", file=sys.stderr)
    return found


def model_seeds(target: Target, folder: Path, seeds: int, drawn_roots: list[Any] | None = None) -> list[Any]:
    """The documents a model's cases start from. For the root: the valid examples and
    `seeds` instances drawn from its schema (drawn_roots, when the caller has drawn them).
    For another model: the sub-documents at its positions in those; only a model that no
    example or drawn root holds (e.g. ChatState, used by behaviour code) is drawn from its
    own $defs schema."""
    examples = valid_examples(folder)
    roots = [*examples, *(drawn(fuzz_root(target).schema, seeds) if drawn_roots is None else drawn_roots)]
    if target.root:
        return roots
    return sub_documents(target.format, roots)[target.model] or drawn(target.schema, seeds)


def fuzz_root(target: Target) -> Target:
    return target if target.root else targets(target.format)[0]


def plan(target: Target, folder: Path, budget: int, seeds: int, drawn_roots: list[Any] | None = None) -> dict[str, list[Any]]:
    """The cases of one model, by source: the corpus, the seed documents, rule-aware
    near-misses of the seeds (at most a quarter of the budget), then systematic mutations
    of the seeds chosen to reach every path depth first (mutations.covering_selection),
    up to budget; "mutated" holds (path, document) pairs.

    The seeds are model_seeds().
    """
    seeds_docs = model_seeds(target, folder, seeds, drawn_roots)
    rules = spec_rules(folder)
    near = [doc for _, doc in rule_cases(target, seeds_docs, rules)][: max(budget // 4, 1)]
    selected = mutations.covering_selection(seeds_docs, budget - len(seeds_docs) - len(near), seed=len(target.model))
    where = CORPUS / target.format if target.root else CORPUS / target.format / target.model
    corpus = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(where.glob("*.json"))] if where.is_dir() else []
    return {"corpus": corpus, "seeds": seeds_docs, "near": near, "mutated": selected}


def cases_for(target: Target, folder: Path, budget: int, seeds: int, drawn_roots: list[Any] | None = None) -> list[Any]:
    """Every case of plan(), in order."""
    parts = plan(target, folder, budget, seeds, drawn_roots)
    return [*parts["corpus"], *parts["seeds"], *parts["near"], *(doc for _, doc in parts["mutated"])]


def python_verdict(fmt: str, text: str, model: str | None = None) -> dict[str, Any]:
    """The generated Python's verdict on text parsed as the format's root (or as `model`)."""
    mod = importlib.import_module(f"chatformats.{fmt}")
    parse = getattr(mod, model).from_json if model else getattr(mod, f"parse_{fmt}_from_json")
    try:
        parse(text)
    except mod.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message] for e in exc.errors], "keywords": [e.keyword for e in exc.errors]}
    return {"ok": True, "errors": [], "keywords": []}


def pydantic_verdict(fmt: str, model: str, text: str) -> bool:
    """Whether the pydantic model of that name accepts text."""
    import pydantic

    cls = getattr(importlib.import_module(f"chatformats_pydantic.{fmt}"), model)
    try:
        cls.model_validate_json(text)
    except pydantic.ValidationError:
        return False
    return True


def share(target: Target, models: int, budget: int) -> int:
    """A model's part of the format's budget: half for the root, the rest shared by the
    other top-level models (at least 30 each)."""
    if models == 1:
        return budget
    return budget // 2 if target.root else max(budget // (2 * (models - 1)), 30)


def disagreement(reference_ok: bool, py: dict[str, Any], pyd_ok: bool, others: dict[str, dict[str, Any]] | None = None) -> str | None:
    """What is wrong with the verdicts on one case (jsonschema, Python, pydantic, and every other driver's verdict by
    its language: {"Go": {...}, "TypeScript": {...}}), or None when they agree."""
    if py["ok"] != reference_ok and not (reference_ok and set(py["keywords"]) <= PYTHON_ONLY):
        return f"jsonschema says {'valid' if reference_ok else 'invalid'}, Python {py['errors'] or 'valid'}"
    # The nesting bound is the dataclasses' input policy, not JSON Schema's: the pydantic models accept what the
    # exported schema accepts up to pydantic's own limit (about 254 levels; README, Pydantic models).
    if pyd_ok != py["ok"] and not (pyd_ok and reference_ok and set(py["keywords"]) == {"depth"}):
        return f"pydantic says {'valid' if pyd_ok else 'invalid'}, Python {py['errors'] or 'valid'}"
    for language, found in (others or {}).items():
        if (found.get("ok"), found.get("errors")) != (py["ok"], py["errors"]):
            return f"{language} {found.get('crash') or found['errors'] or 'valid'}, Python {py['errors'] or 'valid'}"
    return None


def run(budget: int, seeds: int, built: conformance.Built | None, record: bool = False, formats: list[str] | None = None) -> list[Report]:
    """budget cases per format: half for the root model, half shared by the other top-level models.
    built: the generated code of every format (conformance.build), whose every driver beside Python's is compared."""
    others = built.others() if built else []
    reports = []
    for fmt, folder in format_folders().items():
        if formats and fmt not in formats:
            continue
        report = Report(fmt)
        all_targets = targets(fmt)
        drawn_roots = drawn(all_targets[0].schema, seeds)
        for target in all_targets:
            docs = cases_for(target, folder, share(target, len(all_targets), budget), seeds, drawn_roots)
            texts = [json.dumps(d, ensure_ascii=False) for d in docs]
            oracle = Draft202012Validator(target.schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
            model = None if target.root else target.model
            python = [python_verdict(fmt, t, model) for t in texts]
            found = {d.label: d.run(built.built[d.target], [(fmt, t, model) for t in texts]) for d in others} if built else {}
            report.cases += len(docs)
            report.by_model[target.model] = len(docs)
            for i, (doc, text, py) in enumerate(zip(docs, texts, python)):
                report.accepted += py["ok"]
                problem = disagreement(oracle.is_valid(doc), py, pydantic_verdict(fmt, target.model, text),
                                       {language: verdicts[i] for language, verdicts in found.items()})
                if problem:
                    report.disagreements.append(f"{fmt} {target.model}: {text[:400]}\n    {problem}")
                    if record:
                        name = hashlib.sha256(text.encode()).hexdigest()[:16]
                        where = CORPUS / fmt if target.root else CORPUS / fmt / target.model
                        where.mkdir(parents=True, exist_ok=True)
                        (where / f"{name}.json").write_text(json.dumps(copy.deepcopy(doc), ensure_ascii=False, indent=1) + "\n")
        reports.append(report)
    return reports


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases per format (default 10000)")
    parser.add_argument("--seeds", type=int, default=100, help="instances drawn from each schema (default 100)")
    parser.add_argument("--record", action="store_true", help="save disagreements under tests/fuzz_corpus/")
    args = parser.parse_args()
    import tempfile

    built = conformance.build(conformance.generated_files(), list(format_folders()), Path(tempfile.mkdtemp()))
    missing = [d.label for d in conformance.DRIVERS if d.target not in built.built]
    if missing:
        print(f"not compared (its toolchain is missing): {', '.join(missing)}", file=sys.stderr)
    reports = run(args.cases, args.seeds, built, record=args.record)
    for report in reports:
        print(report.line())
        for d in report.disagreements[:5]:
            print("  " + d)
    import hostile  # raw bytes, not JSON values: see tests/hostile.py

    return max(1 if any(r.disagreements for r in reports) else 0, hostile.main(built))


if __name__ == "__main__":
    sys.exit(main())

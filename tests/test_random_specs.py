"""Random specs (tests/specgen.py) through the whole pipeline: each one chatspec accepts gets
JSON Schema's verdict from the generated Python, Go and TypeScript on instances drawn from it and
their mutations; each one it does not accept is refused with a SpecError, never a crash.

`make test` runs SPECS seeds; `python tests/test_random_specs.py --specs N --first K` runs more
(what `make fuzz` does) and prints each disagreement with its seed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import conformance  # noqa: E402
import fuzz  # noqa: E402
import mutations  # noqa: E402
import specgen  # noqa: E402
from generator.core import generate  # noqa: E402
from generator.errors import SpecError  # noqa: E402
from generator.load import LoadedSpec, load_spec  # noqa: E402

SPECS = 24  # seeds in make test
DRAWN = 12  # instances drawn from each spec
MUTATED = 60  # mutations of them


def load_random(seeds: range, folder: Path) -> tuple[list[LoadedSpec], dict[int, str]]:
    """The random specs of the seeds as a project under folder: (the ones that load and lower, {seed: refusal})."""
    loaded, refused = [], {}
    for seed in seeds:
        fid = f"random_{seed}"
        (folder / "specs" / fid).mkdir(parents=True)
        (folder / "specs" / fid / "spec.json").write_text(json.dumps(specgen.spec(seed), indent=1), encoding="utf-8")
        try:
            spec = load_spec(folder / "specs" / fid, folder)
            generate([spec], targets=["jsonschema"])  # lowers it, checks its examples
        except SpecError as exc:
            refused[seed] = str(exc)
            continue
        loaded.append(spec)
    return loaded, refused


def disagreements(specs: list[LoadedSpec], built: conformance.Built) -> tuple[list[str], int, int]:
    """Every disagreement on the specs' cases, and how many cases Python accepted and rejected."""
    cases: list[tuple[str, str, str | None]] = []
    oracles = {}
    for spec in specs:
        oracles[spec.format_id] = [("the spec as written", conformance.oracle(spec.document))]
        seeds = fuzz.drawn(conformance.generation_schema(spec.document), DRAWN)
        docs = [*seeds, *(d for _, d in mutations.covering_selection(seeds, MUTATED, seed=len(spec.format_id)))]
        cases += [(spec.format_id, t, None) for t in dict.fromkeys(json.dumps(d, ensure_ascii=False) for d in docs)]
    found = built.verdicts(cases)
    accepted = sum(bool(v.get("ok")) for v in found["python"])
    return conformance.disagreements(cases, found, oracles), accepted, len(cases) - accepted


@pytest.mark.slow
def test_random_specs_are_compiled_to_jsonschemas_verdict_in_every_language_or_refused(tmp_path: Path) -> None:
    specs, refused = load_random(range(SPECS), tmp_path / "project")
    assert len(specs) >= SPECS // 2, f"too few random specs load: {refused}"
    files = generate(specs, targets=["python", "go", "typescript", "jsonschema"])
    built = conformance.build(files, [s.format_id for s in specs], tmp_path / "out")
    wrong, accepted, rejected = disagreements(specs, built)
    assert not wrong, f"{len(wrong)} disagreements; the first:\n" + "\n".join(wrong[:8])
    assert accepted and rejected


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--specs", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="random_specs_"))
    specs, refused = load_random(range(args.first, args.first + args.specs), folder)
    print(f"{len(specs)} specs load, {len(refused)} are refused", file=sys.stderr)
    files = generate(specs, targets=["python", "go", "typescript", "jsonschema"])
    built = conformance.build(files, [s.format_id for s in specs], folder / "out")
    wrong, accepted, rejected = disagreements(specs, built)
    print(f"{accepted} cases accepted, {rejected} rejected, {len(wrong)} disagreements", file=sys.stderr)
    for w in wrong:
        print(w)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

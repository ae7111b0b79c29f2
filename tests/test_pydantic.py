"""The pydantic v2 models (datamodel-code-generator + chatspec's rule validators) accept and reject like the dataclasses."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pydantic
import pytest

from conftest import GENERATED, GOLDEN, ROOT, format_folders
from generator.core import generate
from generator.load import load_spec

PYDANTIC_OUT = GENERATED / "pydantic"
if str(PYDANTIC_OUT) not in sys.path:
    sys.path.insert(0, str(PYDANTIC_OUT))

FOLDERS = format_folders()


def _examples(folder: Path) -> list[tuple[str, str]]:
    cases = []
    for kind in ("valid", "invalid"):
        for path in sorted((folder / "examples" / kind).glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            cases.append((f"{kind}/{path.stem}", json.dumps(data["data"] if kind == "invalid" else data)))
    return cases


def _verdicts(fmt: str, cases: list[tuple[str, str]]) -> list[tuple[str, bool, bool]]:
    dataclasses = importlib.import_module(f"chatformats.{fmt}")
    models = importlib.import_module(f"chatformats_pydantic.{fmt}")
    parse = getattr(dataclasses, f"parse_{fmt}_from_json")
    root: Any = None
    out = []
    for name, text in cases:
        try:
            value = parse(text)
            root = root or type(value)
            accepted = True
        except dataclasses.ValidationError:
            accepted = False
        out.append((name, accepted, text))
    model = getattr(models, root.__name__)
    result = []
    for name, accepted, text in out:
        try:
            model.model_validate_json(text)
            by_pydantic = True
        except pydantic.ValidationError:
            by_pydantic = False
        result.append((name, accepted, by_pydantic))
    return result


@pytest.mark.parametrize("fmt", list(FOLDERS))
def test_pydantic_models_give_the_dataclass_verdict_on_every_example(fmt: str) -> None:
    verdicts = _verdicts(fmt, _examples(FOLDERS[fmt]))
    wrong = [f"{name}: dataclass {'accepts' if a else 'rejects'}, pydantic {'accepts' if b else 'rejects'}" for name, a, b in verdicts if a != b]
    assert not wrong, "\n".join(wrong)
    assert any(a for _, a, _ in verdicts) and any(not a for _, a, _ in verdicts)


_GOLDEN_RUN = r"""
import importlib, json, sys
import pydantic
results = []
for case, folder, root in json.loads(sys.argv[1]):
    model = getattr(importlib.import_module("chatformats_pydantic." + case), root)
    for kind, path, text in json.loads(sys.argv[2])[case]:
        try:
            model.model_validate_json(text); results.append([path, True])
        except pydantic.ValidationError:
            results.append([path, False])
print(json.dumps(results))
"""


def test_golden_cases_import_and_give_the_dataclass_verdicts(tmp_path: Path) -> None:
    cases = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
    specs = [load_spec(GOLDEN / c, ROOT) for c in cases]
    for path, text in generate(specs, targets=["pydantic"]).items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    from generator.lower import lower

    roots = [[c, str(GOLDEN / c), lower(s).root] for c, s in zip(cases, specs)]
    examples = {c: [[k, n, t] for n, t in _examples(GOLDEN / c) for k in [n.split("/")[0]]] for c in cases}
    done = subprocess.run([sys.executable, "-c", _GOLDEN_RUN, json.dumps(roots), json.dumps(examples)], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path / "pydantic")})
    assert done.returncode == 0, done.stderr[-3000:]
    got = dict(json.loads(done.stdout))
    for case in cases:
        for name, text in _examples(GOLDEN / case):
            assert got[name] == name.startswith("valid/"), f"{case}/{name}"

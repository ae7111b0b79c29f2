"""Public chat-message schemas someone else wrote (tests/realworld/, with their licences), compiled as written.

Each schema (OpenTelemetry's GenAI input and output messages: a root array of messages whose parts are an anyOf of
twelve part models, open objects, type lists, format annotations) becomes a spec as `chatspec import` would make one:
its $defs are the spec's, and its root schema, as written, is the definition Messages, the spec's root. Every JSON
block its docs publish, instances hypothesis-jsonschema draws from the schema and mutations of all of those get
jsonschema's verdict on the schema as written from the generated Python, Go and TypeScript, with the same errors in
every language.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import conformance
import fuzz
import mutations
from conftest import ROOT
from generator.core import generate
from generator.load import load_spec

REALWORLD = Path(__file__).resolve().parent / "realworld"
SCHEMAS = {"otel_input": "otel-gen-ai-input-messages.json", "otel_output": "otel-gen-ai-output-messages.json"}
DRAWN = 60
MUTATED = 400


def source(format_id: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((REALWORLD / SCHEMAS[format_id]).read_text(encoding="utf-8"))
    return result


def spec_of(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema's $defs as the spec's, and the root schema (an array of messages), as written, the root definition."""
    root = {k: v for k, v in schema.items() if k not in ("$defs", "$schema")}
    assert "Messages" not in schema["$defs"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": schema.get("title", "Messages"),
        "description": "A published schema, as written.",
        "x-version": "1.0.0",
        "$ref": "#/$defs/Messages",
        "$defs": {**schema["$defs"], "Messages": root},
    }


def doc_examples() -> list[Any]:
    return [block["data"] for block in json.loads((REALWORLD / "otel-doc-examples.json").read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("realworld")
    for format_id in SCHEMAS:
        folder = root / "specs" / format_id
        folder.mkdir(parents=True)
        (folder / "spec.json").write_text(json.dumps(spec_of(source(format_id)), indent=2) + "\n", encoding="utf-8")
    return root


def test_the_doc_examples_get_jsonschemas_verdict_in_python(project: Path) -> None:
    # make test's quick part: the Python package alone, on the published examples (most valid, some not: each
    # block is judged against both schemas).
    files = generate([load_spec(project / "specs" / f, project) for f in SCHEMAS], targets=["python"])
    folder = project / "generated_python"
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    cases = [(f, json.dumps(doc), None) for f in SCHEMAS for doc in doc_examples()]
    found = {"python": conformance._python_run(folder / "python", cases)}
    oracles = {f: [("the schema as written", conformance.oracle(source(f)))] for f in SCHEMAS}
    wrong = conformance.disagreements(cases, found, oracles)
    assert not wrong, "\n".join(wrong)
    assert any(v["ok"] for v in found["python"]) and not all(v["ok"] for v in found["python"])


def test_python_go_typescript_and_jsonschema_agree_on_published_drawn_and_mutated_messages(project: Path) -> None:
    files = generate([load_spec(project / "specs" / f, project) for f in SCHEMAS], targets=["python", "go", "typescript"])
    built = conformance.build(files, list(SCHEMAS), project / "generated")
    wrong = []
    for format_id in SCHEMAS:
        schema = source(format_id)
        seeds = [*doc_examples(), *fuzz.drawn(conformance.generation_schema(schema), DRAWN)]
        docs = [*seeds, *(doc for _, doc in mutations.covering_selection(seeds, MUTATED, seed=len(format_id)))]
        texts = list(dict.fromkeys(json.dumps(d, ensure_ascii=False) for d in docs))
        cases = [(format_id, t, None) for t in texts]
        found = built.verdicts(cases)
        assert set(found) == built.languages
        wrong += conformance.disagreements(cases, found, {format_id: [("the schema as written", conformance.oracle(schema))]})
        assert sum(v["ok"] for v in found["python"]) >= len(doc_examples()) // 2, "too few valid messages to say much"
    assert not wrong, "\n".join(wrong[:20])

"""Public chat-message schemas someone else wrote (tests/realworld/, with their licences), adopted with `chatspec import`
(generator/importing.py) and compiled as written.

OpenTelemetry's GenAI input and output messages (JSON Schema 2020-12: a root array of messages whose parts are an
anyOf of twelve part models, open objects, type lists, format annotations; the input messages also as first
published, a oneOf of three parts), OpenAI's chat-completion request message (OpenAPI 3.1: the whole openapi.yaml,
root #/components/schemas/ChatCompletionRequestMessage, a oneOf of six messages with an OpenAPI discriminator, twenty
definitions) and its whole request body (CreateChatCompletionRequest, 59 definitions) each import with no edit. Every
JSON block their docs publish, instances hypothesis-jsonschema draws from the source, and mutations of all of those get
jsonschema's verdict on the source as written from the generated Python, Go and TypeScript, with the same errors in
every language.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import conformance
import fuzz
import mutations
from generator.core import generate
from generator.importing import import_schema, read_source
from generator.load import load_spec

REALWORLD = Path(__file__).resolve().parent / "realworld"
# format id -> (file, the root's pointer: "" for the document's root schema)
SCHEMAS = {
    "otel_input": ("otel-gen-ai-input-messages.json", ""),
    "otel_output": ("otel-gen-ai-output-messages.json", ""),
    # The input messages as first published: a oneOf of three part models with a pydantic discriminator.
    "otel_input_first": ("otel-gen-ai-input-messages-32e44cb.json", ""),
    "openai_message": ("openai-openapi.yaml", "#/components/schemas/ChatCompletionRequestMessage"),
    "openai_request": ("openai-openapi.yaml", "#/components/schemas/CreateChatCompletionRequest"),
}
DRAWN = 60
MUTATED = 400


@cache
def _document(name: str) -> Any:
    return read_source(REALWORLD / name)


def source(format_id: str) -> dict[str, Any]:
    """The schema as its source writes it, for jsonschema: the document itself, or a $ref into it (OpenAPI)."""
    name, pointer = SCHEMAS[format_id]
    document = _document(name)
    if not pointer:
        return dict(document)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": pointer, "components": {"schemas": document["components"]["schemas"]}}


def spec_of(format_id: str) -> dict[str, Any]:
    """What `chatspec import <file>#<pointer> --format <id>` writes."""
    name, pointer = SCHEMAS[format_id]
    spec: dict[str, Any] = import_schema(_document(name), name, pointer, format_id).spec
    return spec


def doc_examples(format_id: str) -> list[Any]:
    """The payloads the source's docs publish: OpenTelemetry's lists of messages (each judged by both of its schemas),
    OpenAI's request bodies and their messages."""
    if format_id.startswith("otel"):
        return [block["data"] for block in json.loads((REALWORLD / "otel-doc-examples.json").read_text(encoding="utf-8"))]
    blocks = json.loads((REALWORLD / "openai-doc-examples.json").read_text(encoding="utf-8"))
    if format_id == "openai_request":
        return [block["data"] for block in blocks]
    return [message for block in blocks for message in block["data"].get("messages", [])]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("realworld")
    for format_id in SCHEMAS:
        folder = root / "specs" / format_id
        folder.mkdir(parents=True)
        (folder / "spec.json").write_text(json.dumps(spec_of(format_id), indent=2) + "\n", encoding="utf-8")
    return root


def test_the_doc_examples_get_jsonschemas_verdict_in_python(project: Path) -> None:
    # make test's quick part: the Python package alone, on the published examples (most valid, some not: each
    # block is judged against both schemas).
    files = generate([load_spec(project / "specs" / f, project) for f in SCHEMAS], targets=["python"])
    folder = project / "generated_python"
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    cases = [(f, json.dumps(doc), None) for f in SCHEMAS for doc in doc_examples(f)]
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
        # Drawn from the source as written (its refs inlined: hypothesis-jsonschema does not follow an OpenAPI
        # document's components), so what import may have lost is drawn too; judged by the source.
        seeds = [*doc_examples(format_id), *fuzz.drawn(schema, DRAWN)]
        docs = [*seeds, *(doc for _, doc in mutations.covering_selection(seeds, MUTATED, seed=len(format_id)))]
        texts = list(dict.fromkeys(json.dumps(d, ensure_ascii=False) for d in docs))
        cases = [(format_id, t, None) for t in texts]
        found = built.verdicts(cases)
        assert set(found) == built.languages
        wrong += conformance.disagreements(cases, found, {format_id: [("the schema as written", conformance.oracle(schema))]})
        assert sum(v["ok"] for v in found["python"]) >= len(doc_examples(format_id)) // 2, "too few valid messages to say much"
    assert not wrong, "\n".join(wrong[:20])


def test_openais_whole_request_body_imports_and_generates_every_target(tmp_path: Path) -> None:
    # CreateChatCompletionRequest: 59 definitions, allOf over shared properties, enums with a default on the
    # definition, int64's limits written as a float prints them (seed: noted, and left to int64), a property named
    # "messages" in schemas applied as written (which crashed the docs). Its verdicts: the tests above.
    name, pointer = SCHEMAS["openai_request"]
    imported = import_schema(_document(name), name, pointer, "openai_request")
    assert [n.pointer for n in imported.notes] == [f"{pointer[1:]}/allOf/1/properties/seed/{k}" for k in ("minimum", "maximum")] + [
        "/components/schemas/ChatCompletionRequestMessageContentPartImage/properties/image_url/properties/url/format"]  # uri: checked
    folder = tmp_path / "specs" / "openai_request"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(imported.spec, indent=2) + "\n", encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)])  # every target, the docs included
    assert "docs/openai_request.md" in files and "python/chatformats/openai_request.py" in files

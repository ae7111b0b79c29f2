"""The spec language's reference: every keyword of the meta-schema is described, and its example is what
the generated code does.

Each keyword's x-example (generator/metaschema/chatspec.schema.json) is a small spec with values just
inside its limits and just past them, each with the errors the code reports. Generating the example
spec runs them through the exported schema and the generated Python (inside accepted, past rejected
with exactly the stated errors); tests/conformance.py runs them through Go and TypeScript too. The
keyword x code-path matrix of issue 27 reads the same examples.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import conformance
from conftest import ROOT
from generator import keywords, messages
from generator.core import discover, generate
from generator.errors import SpecError
from generator.load import meta_schema
from generator.targets.markdown import TEMPLATE_PLACEHOLDER as _TEMPLATE
from generator.targets.markdown import keyword_heading, md_heading, md_message

KEYWORDS = keywords.keywords()
EXAMPLES = [k for k in KEYWORDS if k.example is not None]

# What an x-example may hold (the meta-schema's $comment says what each key means).
EXAMPLE_SHAPE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "schema": {"type": "object"},
        "defs": {"type": "object", "minProperties": 1},
        "document": {"type": "object", "minProperties": 1},
        "inside": {"type": "array", "minItems": 1},
        "past": {"type": "array", "minItems": 1, "items": {
            "type": "object", "additionalProperties": False, "required": ["data", "errors"],
            "properties": {"data": True, "errors": {"type": "array", "minItems": 1, "items": {
                "type": "object", "additionalProperties": False, "required": ["path", "message"],
                "properties": {"path": {"type": "string"}, "message": {"type": "string"}}}}}}},
    },
    "anyOf": [{"required": ["schema"]}, {"required": ["defs"]}, {"required": ["document"]}],
}


def _keywords_in(schema: Any, where: str = "") -> list[tuple[str, Any]]:
    """(pointer, schema) of every property of every closed object of the meta-schema (the keywords a spec
    may write, as load reads them); never inside the meta-schema's own annotations (x-example, x-limits)."""
    found: list[tuple[str, Any]] = []
    if isinstance(schema, dict):
        if schema.get("additionalProperties") is False:
            found += [(f"{where}/properties/{k}", v) for k, v in schema.get("properties", {}).items()]
        for key, value in schema.items():
            if key not in keywords.META_ANNOTATIONS:
                found += _keywords_in(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            found += _keywords_in(value, f"{where}/{i}")
    return found


def test_every_keyword_of_the_meta_schema_has_a_description() -> None:
    meta = meta_schema()
    described = [*_keywords_in(meta), *((f"/$defs/rule/oneOf/{i}", b) for i, b in enumerate(meta["$defs"]["rule"]["oneOf"])),
                 *((f"/$defs/{name}", d) for name, d in meta["$defs"].items())]
    assert len(described) > 60
    missing = [pointer for pointer, schema in described if not str(schema.get("description", "")).strip()]
    assert not missing, f"give each a description in generator/metaschema/chatspec.schema.json: {missing}"


def test_every_keyword_of_the_document_and_of_a_schema_and_every_rule_kind_has_an_example() -> None:
    assert {k.place for k in KEYWORDS} == {"document", "schema", "rule"}
    missing = [k.pointer for k in KEYWORDS if k.example is None]
    assert not missing, f"give each an x-example (see the meta-schema's $comment): {missing}"
    names = {(k.place, k.name) for k in KEYWORDS}
    meta = meta_schema()
    assert names >= {("document", n) for n in meta["properties"]} | {("schema", n) for n in meta["$defs"]["schema"]["properties"]}
    assert {n for p, n in names if p == "rule"} == set(meta["$defs"]["rule"]["properties"]["kind"]["enum"])


@pytest.mark.parametrize("keyword", KEYWORDS, ids=[k.format_id for k in KEYWORDS])
def test_each_example_has_the_shape_the_tests_read(keyword: keywords.Keyword) -> None:
    found = _raw_example(keyword)
    errors = sorted(Draft202012Validator(EXAMPLE_SHAPE).iter_errors(found), key=str)
    assert not errors, f"{keyword.pointer}/x-example: {errors[0].message}"
    if keyword.messages:
        # A check: a value just inside and one just past, each past value with what the code reports.
        assert keyword.example and keyword.example.inside and keyword.example.past, keyword.pointer
    if keyword.place == "rule":
        assert keyword.example and keyword.example.past, f"{keyword.pointer}: a rule kind's example shows a document it rejects"


def _raw_example(keyword: keywords.Keyword) -> Any:
    node: Any = meta_schema()
    for token in keyword.pointer.split("/")[1:]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node["x-example"]


def test_every_x_messages_key_is_the_message_of_some_keyword() -> None:
    keys = {key for k in KEYWORDS for key, _, _ in k.messages}
    listed = set(meta_schema()["$defs"]["messages"]["propertyNames"]["enum"])
    assert keys == listed, f"no keyword reports {sorted(listed - keys)}: name it in generator/keywords.py _MESSAGE_KEYS"
    assert {m for k in KEYWORDS for _, _, m in k.messages} <= set(messages.DEFAULTS.values()) | set(messages.TYPE_MESSAGES.values())


def test_every_example_is_what_the_generated_python_does() -> None:
    # generate() checks every valid example against the exported schema and runs every example through the
    # generated Python: an inside value it rejects, or a past value whose errors differ, is a SpecError.
    specs = [keywords.example_spec(k) for k in EXAMPLES]
    files = generate(specs, targets=["python"])
    assert {f"python/chatformats/{k.format_id}.py" for k in EXAMPLES} <= set(files)


@pytest.mark.parametrize("change", ["message", "inside", "path"])
def test_an_example_the_code_disagrees_with_is_refused(change: str) -> None:
    keyword = next(k for k in KEYWORDS if k.name == "maxLength")
    assert keyword.example is not None
    past = keyword.example.past[0]
    if change == "message":
        example = dataclasses.replace(keyword.example, past=({**past, "errors": [{"path": "/value", "message": "too long"}]},))
    elif change == "path":
        example = dataclasses.replace(keyword.example, past=({**past, "errors": [{"path": "", "message": past["errors"][0]["message"]}]},))
    else:
        example = dataclasses.replace(keyword.example, inside=(past["data"],))
    with pytest.raises(SpecError, match=r"maxLength/x-example"):
        generate([keywords.example_spec(dataclasses.replace(keyword, example=example))], targets=["python"])


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    specs = [keywords.example_spec(k) for k in EXAMPLES]
    files = generate(specs, targets=["python", "go", "typescript"])
    return conformance.build(files, [k.format_id for k in EXAMPLES], tmp_path_factory.mktemp("keyword_examples"))


@pytest.mark.slow
def test_every_example_gets_the_same_errors_in_python_go_and_typescript(built: conformance.Built) -> None:
    cases: list[conformance.Case] = []
    expected = []
    for k in EXAMPLES:
        assert k.example is not None
        cases += [(k.format_id, json.dumps(k.example.payload(v)), None) for v in k.example.inside]
        expected += [[] for _ in k.example.inside]
        cases += [(k.format_id, json.dumps(k.example.payload(p["data"])), None) for p in k.example.past]
        expected += [[[e["path"], e["message"]] for e in p["errors"]] for p in k.example.past]
    found = built.verdicts(cases)
    assert set(found) >= {"python"}
    problems = []
    for language, verdicts in found.items():
        for (fid, text, _), verdict, errors in zip(cases, verdicts, expected):
            got = verdict.get("errors") if "crash" not in verdict else verdict["crash"]
            if got != errors or verdict.get("ok") != (not errors):
                problems.append(f"{language}: {fid} {text}: expected {errors or 'accepted'}, got {got or 'accepted'}")
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def docs() -> dict[str, str]:
    """The docs of specs/, generated afresh (never read from generated/)."""
    return generate(discover(ROOT / "specs", ROOT), targets=["docs"])


def _keyword_sections(page: str) -> dict[str, str]:
    """Each keyword's section of the spec-language page, from its ### heading on, by keyword_heading."""
    sections = re.split(r"\n(?=#{2,3} )", page)
    headings = {f"### {md_heading(keyword_heading(k))}\n": keyword_heading(k) for k in KEYWORDS}
    return {headings[s.split("\n", 1)[0] + "\n"]: s for s in sections if s.split("\n", 1)[0] + "\n" in headings}


def test_the_spec_language_page_shows_every_keyword_and_its_example(docs: dict[str, str]) -> None:
    page = docs["docs/spec-language.md"]
    sections = _keyword_sections(page)
    for k in KEYWORDS:
        section = sections.get(keyword_heading(k))
        assert section is not None, f"no section of {k.name} ({k.place}) on the page"
        assert k.example is not None
        for past in k.example.past:
            for error in past["errors"]:
                assert md_message(error["message"]) in section, f"{k.name}: {error['message']!r} is not on the page"
        for key, _, template in k.messages:
            assert f"`x-messages` key `{key}`" in section and md_message(template, pattern=_TEMPLATE) in section
    assert "## Messages" in page
    for key in meta_schema()["$defs"]["messages"]["propertyNames"]["enum"]:
        assert f"| `{key}`" in page, key
    # Each default message's row, written out here: the key, with the JSON type it is for where it has one
    # (`type` has one per type), and the message.
    rows = set(page.splitlines())
    for key, kind, template in keywords.message_defaults():
        shown = f"`{key}` ({kind})" if kind else f"`{key}`"
        assert f"| {shown} | {md_message(template, pattern=_TEMPLATE)} |" in rows, (key, kind)
    assert sum(1 for key, _, _ in keywords.message_defaults() if key == "type") >= 5


def test_the_page_shows_a_value_or_a_document_and_spells_the_field_of_every_schema_example_in_each_language(docs: dict[str, str]) -> None:
    # A schema keyword's example is a field `value`: the page shows how each language declares it. A
    # top-level keyword's example (x-version, ...) declares no field, so no "In code" table.
    sections = _keyword_sections(docs["docs/spec-language.md"])
    for k in KEYWORDS:
        assert k.example is not None
        section = sections[keyword_heading(k)]
        # The results table's first column (where the example has results): a value of the field, or a whole document.
        if k.example.inside or k.example.past:
            assert f"\n| {'Value' if k.example.wrapped else 'Document'} | Result |\n" in section, k.name
        if k.example.document:
            assert "In code:" not in section, f"{k.name}: a top-level keyword's example declares no field"
        elif k.example.wrapped:
            assert "In code:\n" in section and "\n| `value` |" in section, f"{k.name}: the field `value` is not spelled in code"
            # The definitions the value's schema names are shown beside it; the root that wraps the value is not.
            named = [n for n in k.example.defs if n != keywords.ROOT]
            assert all(f'\n    "{n}": {{' in section for n in named), f"{k.name}: {named} not all shown"
            assert f'"{keywords.ROOT}": {{' not in section, f"{k.name}: the wrapping root is shown"


def test_the_page_is_linked_from_the_index_and_the_navigation(docs: dict[str, str]) -> None:
    assert "](spec-language.md)" in docs["docs/index.md"]
    assert "  - Spec language: spec-language.md\n" in docs["mkdocs.yml"]


def test_a_rule_kinds_keys_table_shows_what_each_key_takes(docs: dict[str, str]) -> None:
    from generator.targets.markdown import md_code, md_text

    sections = _keyword_sections(docs["docs/spec-language.md"])
    with_keys = [k for k in KEYWORDS if k.keys]
    assert with_keys and any(t for k in with_keys for _, t, _ in k.keys)
    for k in with_keys:
        for key, takes, meaning in k.keys:
            row = f"| {md_code(key, True)} | {md_text(takes) or '—'} | {md_text(meaning)} |"
            assert row in sections[keyword_heading(k)], (k.name, row)


def test_an_examples_values_and_errors_holding_a_pipe_stay_in_their_cells() -> None:
    # No keyword's example holds a "|" today; one that did must not split the results table.
    import dataclasses

    from markdown_it import MarkdownIt

    from generator.targets.markdown import keyword_example

    k = next(k for k in KEYWORDS if k.name == "minLength")
    assert k.example is not None
    example = dataclasses.replace(k.example, inside=("a|b",), past=({"data": "|", "errors": [{"path": "/value|x", "message": "m|n"}]},))
    shown = keyword_example(dataclasses.replace(k, example=example), ())
    assert shown is not None
    table = "| Value | Result |\n|---|---|\n" + "".join(f"| {a} | {b} |\n" for a, b in shown.results)
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(table)
    rows = re.findall(r"<tr>\s*(.*?)\s*</tr>", html, re.S)[1:]
    cells = [re.findall(r"<td>(.*?)</td>", row, re.S) for row in rows]
    import html as html_module

    text = [[html_module.unescape(re.sub(r"<[^>]+>", "", c)) for c in row] for row in cells]
    assert text == [['"a|b"', "accepted"], ['"|"', "/value|x: m|n"]], text


def test_headings_tell_a_top_level_keyword_and_a_rule_kind_from_the_schema_keyword_of_the_same_name(docs: dict[str, str]) -> None:
    """Written out here, not through keyword_heading (which the section lookup above uses): the document's
    keywords say "(top level)", a rule kind named like a schema keyword says "(rule)", the rest their name."""
    headings = re.findall(r"^### (.+)$", docs["docs/spec-language.md"], re.M)
    for name in ("$schema", "title", "description", "x-version", "$ref", "$defs"):
        assert f"{name} (top level)" in headings, name
    for name in ("$ref", "title", "description", "$defs", "type", "minLength", "contains", "member\\_of", "required\\_when", "compare"):
        assert name in headings, name
    assert "contains (rule)" in headings
    assert not [h for h in headings if h.startswith(("type ", "minLength ", "member\\_of ", "compare ", "x-messages "))], headings

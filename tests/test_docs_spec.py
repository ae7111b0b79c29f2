"""The docs say what the spec says: each page, as this checkout's generator writes it, read back as a
reader's Markdown renderer reads it (markdown-it, HTML on) and held to the spec it documents.

For every format and every golden case: each model's field table lists its fields in order with their
JSON name, whether the spec requires them (the `required` list of the spec as written, for the models
it defines under $defs), their default and their description, and the type of each field the spec
writes as one plain JSON type (the checks tables: tests/test_docs_checks.py); each enumeration lists its values and their
descriptions; each invalid example shows the errors it lists. Text is compared as a reader sees it
(a cell's text, entities and escapes resolved, any HTML the text opened dropped), so a cell that drops
an escape (`<` read as a tag, `|` splitting a row) or an inverted Required column fails here, not only
in the golden bytes.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from conftest import GOLDEN, ROOT, written_fields
from generator import invisible, ir
from generator.core import discover, generate, histories
from generator.load import LoadedSpec, load_spec
from generator.lower import lower

GOLDEN_CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
NO_DEFAULT = "\u2014"  # an em dash: the cell of a field without a default
PLAIN_TYPES = ("integer", "number", "string", "boolean")
PLAIN_SPELT_OUT = {"enum", "const", "format", "contentEncoding"}  # keywords the Type cell spells out beside the type


@dataclass
class Section:
    """An h3 section of a page: its paragraphs' text and its tables (rows of cell text, header first)."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    tables: list[list[list[str]]] = field(default_factory=list)


def _text(inline: Token) -> str:
    """The text a reader sees of an inline token: text and code, entities and backslash escapes resolved;
    HTML (the <code> and <wbr> the docs write, or a tag spec text opened) is no text."""
    parts = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def read_page(text: str) -> dict[str, list[Section]]:
    """h2 title ("" before the first: the page's h1 and what follows it) -> its sections: an untitled one
    holding what comes before the first h3, then each h3's, in order."""
    tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(text)
    page: dict[str, list[Section]] = {"": [Section("")]}
    here = page[""][0]
    row: list[str] | None = None
    table: list[list[str]] | None = None
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1":
            here.title = _text(tokens[i + 1])
        elif token.type == "heading_open" and token.tag == "h2":
            here = Section("")
            page[tokens[i + 1].content] = [here]
        elif token.type == "heading_open" and token.tag == "h3":
            here = Section(_text(tokens[i + 1]))
            list(page.values())[-1].append(here)
        elif token.type == "table_open":
            table = []
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(_text(token))
        elif token.type == "tr_close" and table is not None and row is not None:
            table.append(row)
            row = None
        elif token.type == "table_close" and table is not None:
            here.tables.append(table)
            table = None
        elif token.type == "inline" and tokens[i - 1].type == "paragraph_open":
            here.paragraphs.append(_text(token))
    return page


def shown(text: str) -> str:
    """Spec text as the README says the docs show it: a character that hides or reorders text as its escape."""
    return invisible.shown(text)


def cell(text: str) -> str:
    """A one-line cell: whitespace runs read as one space."""
    return " ".join(shown(text).split())


def code(text: str) -> str:
    """A code span's text: line breaks shown as \\n and \\r."""
    return shown(text.replace("\n", "\\n").replace("\r", "\\r"))


def paragraphs(text: str) -> list[str]:
    """Free text as the docs show it: its paragraphs, each line of one on a line of its own (a hard
    break), whitespace runs read as one space."""
    blocks = re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n").strip())
    out = ["\n".join(cell(line) for line in block.split("\n") if line.strip()) for block in blocks]
    return [p for p in out if p]


def json_shown(value: Any) -> str:
    return invisible.shown(json.dumps(value, ensure_ascii=False), invisible.json_escape)


def problems(fmt: ir.Format, document: dict[str, Any], page: dict[str, list[Section]]) -> list[str]:
    """Where the page does not say what the spec says."""
    wrong: list[str] = []
    top = page[""][0]
    # The title, or where formats share it (a format and its earlier major), with the major or the id (README).
    title = cell(fmt.title or fmt.id)
    if top.title not in (title, f"{title} {fmt.version.split('.')[0]}.x", f"{title} ({fmt.id})"):
        wrong.append(f"{fmt.id}: the page's title is {top.title!r}, the spec's {title!r}")
    if top.paragraphs[1:] != paragraphs(fmt.description):
        wrong.append(f"{fmt.id}: the page describes the format as {top.paragraphs[1:]}, the spec as {paragraphs(fmt.description)}")
    decided = page.get("Decisions", [Section("")])[0].paragraphs
    if fmt.decisions and decided[1:] != [p for d in fmt.decisions for p in paragraphs(d)]:
        wrong.append(f"{fmt.id}: the decisions read {decided[1:]}, the spec's are {fmt.decisions}")
    sections = {s.title: s for s in page.get("Models", [])}
    defs = document.get("$defs", {})
    for model in fmt.models:
        section = sections.get(model.name)
        if section is None or not section.tables:
            wrong.append(f"{fmt.id}: model {model.name} has no section with a field table")
            continue
        described = paragraphs(model.description)
        if section.paragraphs[: len(described)] != described:
            wrong.append(f"{fmt.id}: {model.name} is described as {section.paragraphs}, the spec says {described}")
        # A model the spec writes inside another schema says where; one of $defs says nothing of the kind.
        inline = [p for p in section.paragraphs if p.startswith("Written inline in the spec, at ")]
        if inline != ([f"Written inline in the spec, at {model.inline}."] if model.inline else []):
            wrong.append(f"{fmt.id}: {model.name} (written at {model.inline or '$defs'}) is said to be {inline}")
        title = defs.get(model.name, {}).get("title") if isinstance(defs.get(model.name), dict) else None
        if isinstance(title, str) and not any(p.startswith(f"Title: {' '.join(title.split())}.") for p in section.paragraphs[len(described):]):
            wrong.append(f"{fmt.id}: {model.name}'s title {title!r} is not on the page")
        # An open model (no additionalProperties: false) says that other properties are kept; a closed one does not.
        kept = any(p.startswith("Other properties are allowed and may hold any JSON value.") for p in section.paragraphs)
        if kept == model.closed:
            wrong.append(f"{fmt.id}: {model.name} is {'closed' if model.closed else 'open'}, and the page {'says' if kept else 'does not say'} other properties are kept")
        header, *rows = section.tables[0]
        assert header == ["Field", "Type", "Required", "Default", "Description"], header
        written = defs.get(model.name, {})
        required = set(written_fields(written, defs)[1]) if isinstance(written, dict) and "properties" in written else None
        want = []
        for f in model.fields:
            if f.default_factory:
                default = f"fresh {f.default_factory}"
            else:
                default = json_shown(f.default) if f.has_default else NO_DEFAULT
            # The spec as written decides Required for the models it spells out; inline ones only the IR has.
            is_required = f.wire_name in required if required is not None else f.required
            want.append([code(f.wire_name), "yes" if is_required else "no", default, cell(f.description)])
        # The Description cell: the field's description, then what its own and its nested schemas' annotations say (a
        # nested schema's description and title each appear in it).
        properties = written_fields(written, defs)[0]
        got = []
        for f, r in zip(model.fields, rows):
            described = cell(f.description)
            notes = r[4][len(described):] if r[4].startswith(described) else r[4]
            prop = properties.get(f.wire_name) if isinstance(properties, dict) else None
            for text in _nested_texts(prop):
                if cell(text) not in notes:
                    wrong.append(f"{fmt.id}: {model.name} field {f.wire_name!r}: the page does not say {text!r} ({r[4]!r})")
            got.append([r[0], r[2], r[3], described if r[4].startswith(described) else r[4]])
        # The Type cell of a field the spec writes as one plain JSON type (no enum, const, format or
        # encoding, which the cell spells out): that type's name.
        for f, r in zip(model.fields, rows):
            prop = properties.get(f.wire_name) if isinstance(properties, dict) else None
            if isinstance(prop, dict) and prop.get("type") in PLAIN_TYPES and not PLAIN_SPELT_OUT & prop.keys() and r[1] != prop["type"]:
                wrong.append(f"{fmt.id}: {model.name} field {f.wire_name!r}: the page says its type is {r[1]!r}, the spec {prop['type']!r}")
        # A union's Type cell says by what its variants are told apart, and whether chatspec inferred that tag from
        # the variants' own constants or the spec declared it.
        for f, r in zip(model.fields, rows):
            union = f.type.inner if isinstance(f.type, ir.NullableType) else f.type
            if isinstance(union, ir.UnionType) and union.discriminator:
                inferred = f"by {code(union.discriminator)} (inferred: each requires its own constant {code(union.discriminator)})"
                if (inferred in r[1]) != union.inferred:
                    wrong.append(f"{fmt.id}: {model.name} field {f.wire_name!r}: the Type cell {r[1]!r} for a union whose tag is "
                                 f"{'inferred' if union.inferred else 'declared'}")
        # An open union told apart by a tag, written inside the field's type, says that an unknown variant is kept; no
        # other union says so.
        for f, r in zip(model.fields, rows):
            said, tags = r[4].count("open (x-open): an object whose "), _open_tagged_unions(f.type)
            if said != len(tags):
                wrong.append(f"{fmt.id}: {model.name} field {f.wire_name!r}: {said} notes of an open union, the type holds {tags} ({r[4]!r})")
        if got != want:
            wrong += [f"{fmt.id}: {model.name} field row {w[0]!r}: the page says {g}, the spec {w}" for g, w in zip(got, want) if g != w]
            if len(got) != len(want):
                wrong.append(f"{fmt.id}: {model.name}: the page lists {len(got)} fields, the spec {len(want)}")
        # The checks table: tests/test_docs_checks.py breaks each check and holds the page to the messages
        # the generated code reports, names and limits filled in.
    enums = {s.title: s for s in page.get("Enumerations", [])}
    for enum in (d for d in fmt.definitions if isinstance(d, ir.Enum)):
        section = enums.get(enum.name)
        if section is None or not section.tables:
            wrong.append(f"{fmt.id}: enumeration {enum.name} has no section with a table")
            continue
        if section.paragraphs[: len(paragraphs(enum.description))] != paragraphs(enum.description):
            wrong.append(f"{fmt.id}: enumeration {enum.name} is described as {section.paragraphs}, the spec says {enum.description!r}")
        values = [[json_shown(v), cell(enum.value_descriptions.get(v, ""))] for v in enum.values]
        if section.tables[0][1:] != values:
            wrong.append(f"{fmt.id}: enumeration {enum.name}: the page lists {section.tables[0][1:]}, the spec {values}")
        said = [p for p in section.paragraphs if p.startswith("A value outside the list is reported as ")]
        kept = [p for p in section.paragraphs if p.startswith("Open (x-open): a string outside the list")]
        if enum.open and (said or len(kept) != 1):
            wrong.append(f"{fmt.id}: enumeration {enum.name} is open, the page says {said or 'nothing'} of a value outside the list")
        elif not enum.open and (kept or said != [f"A value outside the list is reported as {code(m)}." for k, m in enum.messages.items() if k != "type"]):
            wrong.append(f"{fmt.id}: enumeration {enum.name}: {said} for the messages {enum.messages}")
    aliases = {s.title: s for s in page.get("Named types", [])}
    for alias in (d for d in fmt.definitions if isinstance(d, ir.Alias)):
        section = aliases.get(alias.name)
        if section is None:
            wrong.append(f"{fmt.id}: named type {alias.name} has no section")
            continue
        if section.paragraphs[: len(paragraphs(alias.description))] != paragraphs(alias.description):
            wrong.append(f"{fmt.id}: named type {alias.name} is described as {section.paragraphs}, the spec says {alias.description!r}")
    invalid = [t for s in page.get("Examples", []) if s.title == "Invalid" for t in s.tables]
    shown_errors = [[(p, m) for p, m in t[1:]] for t in invalid]
    listed = [[(code(e["path"] or "/"), code(e["message"])) for e in case.errors] for case in fmt.invalid_examples]
    if shown_errors != listed:
        wrong.append(f"{fmt.id}: the invalid examples' errors: the page shows {shown_errors}, the spec lists {listed}")
    return wrong


def _open_tagged_unions(t: ir.TypeRef) -> list[str]:
    """The tags of the open unions told apart by a tag written inside a type (not behind a reference)."""
    own = [t.discriminator] if isinstance(t, ir.UnionType) and t.open and t.discriminator is not None else []
    return own + [tag for inner in ir.children(t) for tag in _open_tagged_unions(inner)]


def _nested_texts(schema: object) -> list[str]:
    """The description and title of each typed schema nested in a property's schema (items, map values, tuple items,
    variants), as the spec writes them."""
    if not isinstance(schema, dict):
        return []
    found = []
    for key in ("items", "additionalProperties"):
        sub = schema.get(key)
        if isinstance(sub, dict) and "type" in sub and "properties" not in sub:  # (an inline model has its own section)
            found += [sub[k] for k in ("description", "title") if isinstance(sub.get(k), str) and sub[k]]
            found += _nested_texts(sub)
    return found


def _pages(specs: list[LoadedSpec], history: dict[str, list[dict[str, object]]] | None = None) -> dict[str, str]:
    files = generate(specs, targets=["docs"], history=history)
    labels = {entry["file"]: entry["label"] for entry in nav(files["mkdocs.yml"])}
    for spec in specs:
        # The navigation label, which the theme writes into every page as HTML as it is: the page's title, escaped.
        label = labels[f"{spec.format_id}.md"]
        title = read_page(files[f"docs/{spec.format_id}.md"])[""][0].title
        assert html.unescape(label) == title and not re.search(r"[<>\"']|&(?!(?:amp|lt|gt|quot|#39);)", label), (label, title)
    return {s.format_id: files[f"docs/{s.format_id}.md"] for s in specs}


def nav(config: str) -> list[dict[str, str]]:
    """mkdocs.yml's navigation: [{"label", "file"}] (its !!python tags are the theme's, skipped)."""
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    entries = yaml.load(config, Loader=Loader)["nav"]
    return [{"label": label, "file": file} for entry in entries for label, file in entry.items() if isinstance(file, str)]


@pytest.mark.parametrize("case", GOLDEN_CASES)
def test_each_golden_case_page_says_what_its_spec_says(case: str) -> None:
    spec = load_spec(GOLDEN / case, ROOT)
    page = read_page(_pages([spec])[case])
    assert not (wrong := problems(lower(spec), spec.document, page)), "\n".join(wrong[:12])


def test_each_format_page_says_what_its_spec_says() -> None:
    specs = discover(ROOT / "specs", ROOT)
    pages = _pages(specs, histories(ROOT / "specs"))
    wrong = [w for spec in specs for w in problems(lower(spec), spec.document, read_page(pages[spec.format_id]))]
    assert not wrong, "\n".join(wrong[:12])


# Markdown and HTML syntax a cell or a paragraph must show as text (no braces: messages read {...} as placeholders).
MARKUP = ("Mark <b>bold</b> </td></tr><tr><td> a | pipe \\| *star* _under_ `tick` [link](javascript:x) ![i](x) "
          "&lt;lt&gt; &amp; &#124; <!-- c --> ~~strike~~ \\ back <em>em a <= b >= c")
# Free text also gets what opens a block at the start of a line.
BLOCKS = MARKUP + " {#id}\n1. item\n- dash\n> quote\n# head\n---\n+ plus\n=== under\n\n2) second paragraph <script>x</script>"


def markup_spec(project: Path) -> LoadedSpec:
    """The hostile_descriptions golden case with MARKUP in every text the docs show: titles, descriptions,
    decisions, messages, defaults, enum values and their descriptions, an invalid example's errors."""
    folder = project / "specs" / "markup"
    shutil.copytree(GOLDEN / "hostile_descriptions", folder, ignore=shutil.ignore_patterns("expected", "ir.json"))
    doc = json.loads((folder / "spec.json").read_text(encoding="utf-8"))
    doc["title"] = "Title \"quoted\" 'single' " + MARKUP
    doc["description"] = BLOCKS
    doc["x-decisions"] = [BLOCKS, "Plain."]
    hostile = doc["$defs"]["Hostile"]
    hostile["description"] = BLOCKS
    hostile["properties"]["note"]["description"] = BLOCKS
    hostile["properties"]["note"]["x-messages"] = {"type": "note " + MARKUP}
    hostile["properties"]["note"]["maxLength"] = 100
    hostile["properties"]["raw"]["default"] = MARKUP
    hostile["properties"]["kind"] = {"$ref": "#/$defs/Kind"}
    hostile["properties"]["fixed"] = {"type": "string", "const": MARKUP, "description": MARKUP}
    hostile["properties"]["tags"] = {"type": "array", "items": {"type": "string", "minLength": 1, "x-messages": {"minLength": "tag " + MARKUP}},
                                     "description": "Tags.", "x-messages": {"type": "tags " + MARKUP}}
    hostile["x-messages"]["additionalProperties"] = "unknown " + MARKUP
    hostile["additionalProperties"] = False
    doc["$defs"]["Kind"] = {"type": "string", "description": BLOCKS, "enum": [MARKUP, "plain"],
                            "x-enum-descriptions": {MARKUP: MARKUP, "plain": "plain"}, "x-messages": {"enum": "kind " + MARKUP}}
    doc["$defs"]["Label"] = {"type": "string", "maxLength": 5, "description": BLOCKS, "x-messages": {"maxLength": "label " + MARKUP}}
    hostile["properties"]["label"] = {"$ref": "#/$defs/Label"}
    (folder / "spec.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    (folder / "examples" / "invalid" / "markup.json").write_text(json.dumps({
        "description": BLOCKS, "data": {"text": "ok", "note": 1, "kind": "x", "tags": [""]},
        "errors": [{"path": "/note", "message": "note " + MARKUP}, {"path": "/kind", "message": "kind " + MARKUP},
                   {"path": "/tags/0", "message": "tag " + MARKUP}]}), encoding="utf-8")
    (folder / "examples" / "valid" / "markup.json").write_text(json.dumps({"text": "ok", "kind": MARKUP, "fixed": MARKUP}), encoding="utf-8")
    # An example's name starts a line of the page: one that Markdown would read as a quote or a heading.
    (folder / "examples" / "valid" / "> quoted.json").write_text(json.dumps({"text": "ok"}), encoding="utf-8")
    (folder / "examples" / "valid" / "# heading.json").write_text(json.dumps({"text": "ok"}), encoding="utf-8")
    (folder / "examples" / "invalid" / "1. listed.json").write_text(json.dumps({
        "data": {"text": "ok", "note": 1}, "errors": [{"path": "/note", "message": "note " + MARKUP}]}), encoding="utf-8")
    return load_spec(folder, project)


def test_a_page_whose_every_text_is_markdown_and_html_syntax_says_what_its_spec_says(tmp_path: Path) -> None:
    spec = markup_spec(tmp_path)
    page = read_page(_pages([spec])["markup"])
    assert not (wrong := problems(lower(spec), spec.document, page)), "\n".join(wrong[:12])
    # The page holds what was compared: every kind of text.
    assert MARKUP in page[""][0].paragraphs[1] and any(s.title == "Kind" for s in page["Enumerations"])
    assert any(s.title == "Label" and s.tables for s in page["Named types"])
    named = [p for s in page["Examples"] for p in s.paragraphs]
    assert {"> quoted:", "# heading:", "1. listed"} <= set(named), named


def test_wire_names_and_a_message_holding_a_pipe_and_a_carriage_return_read_whole_in_every_table(tmp_path: Path) -> None:
    """A property name may hold `|` and a carriage return (only characters that hide text are refused):
    each code span and code cell shows the return as \\r (a raw one ends the table row), and the `|` of
    a field name splits no cell, in the field tables and in a compare rule's sentence in the checks table."""
    low, high, message = "low|er\rmost", "up|per\rmost", "low\rabove high"
    folder = tmp_path / "specs" / "pipes"
    (folder / "examples" / "valid").mkdir(parents=True)
    (folder / "examples" / "invalid").mkdir()
    range_ = {"type": "object", "description": "A range.",
              "properties": {low: {"type": "integer", "description": "Low."}, high: {"type": "integer", "description": "High."},
                             "mode": {"type": "string", "enum": ["a|b", "c"], "description": "A value with a pipe.",
                                       "deprecated": True, "readOnly": False, "writeOnly": True},
                             "name": {"type": "string", "minLength": 2, "default": "x|y", "description": "A bounded name.",
                                       "examples": ["p|q"]}},
              "required": [low, high],
              "x-rules": [{"kind": "at_least_one_of", "fields": [low, "name"], "message": "{field} needs a low or a name"},
                          {"kind": "compare", "field": low, "op": "<=", "other": high, "message": message}]}
    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Pipes", "description": "Names with pipes.",
           "x-version": "1.0.0", "$ref": "#/$defs/Range", "$defs": {"Range": range_}}
    (folder / "spec.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    (folder / "examples" / "valid" / "ok.json").write_text(json.dumps({low: 1, high: 2, "name": "ab"}), encoding="utf-8")
    (folder / "examples" / "invalid" / "bad.json").write_text(json.dumps(
        {"description": "Low above high.", "data": {low: 3, high: 2, "mode": "c"}, "errors": [{"path": "", "message": message}]}),
        encoding="utf-8")
    (folder / "examples" / "invalid" / "not_a_number.json").write_text(json.dumps(
        {"description": "Low is text.", "data": {low: "x", high: 2}, "errors": [{"path": "/" + low, "message": "must be an integer"}]}),
        encoding="utf-8")
    spec = load_spec(folder, tmp_path)
    text = _pages([spec])["pipes"]
    assert "\r" not in text
    page = read_page(text)
    assert not (wrong := problems(lower(spec), spec.document, page)), "\n".join(wrong[:12])
    [section] = page["Models"][1:]
    fields, in_code, checks = section.tables
    assert [r[0] for r in fields[1:]] == [r[0] for r in in_code[1:]] == [code(low), code(high), code("mode"), code("name")]
    # A bound shown with its value; an at_least_one_of rule's {field} is the object's field, known only from the value.
    assert [code("name"), f"minLength: {code('2')}"] in [r[:2] for r in checks], checks
    assert fields[4][fields[0].index("Default")] == code(json.dumps("x|y")), fields[4]
    # The annotations that are true, and only those, said in the Description cell.
    assert fields[3][fields[0].index("Description")] == "A value with a pipe. Deprecated. Write-only.", fields[3]
    # An annotation's example holding a pipe, whole in the Description cell.
    assert fields[4][fields[0].index("Description")].endswith(f'Examples: {code(json.dumps("p|q"))}.'), fields[4]
    # An example's error at a field whose name holds a pipe: its path whole in the errors table.
    assert [code("/" + low), code("must be an integer")] in [t for section in page["Examples"][1:] for table in section.tables
                                                             for t in table], page["Examples"]
    assert ["rule", f"at least one of {code(low)}, name is present and not null", "field needs a low or a name"] in checks, checks
    assert "<code><var>field</var> needs a low or a name</code>" in text
    # An enum value holding a pipe, whole in the Type cell and in its check's row.
    assert fields[3][fields[0].index("Type")] == f'string, one of {code(json.dumps("a|b"))}, {code(json.dumps("c"))}', fields[3]
    assert [code("mode"), f'enum: {code(json.dumps(["a|b", "c"]))}'] in [r[:2] for r in checks], checks
    assert checks[0] == ["Where", "Check", "Message"]
    assert checks[-1] == ["rule", f"{code(low)} <= {code(high)} (as numbers; not checked while either is null, or absent without a default)",
                          code(message)]


def test_the_reader_sees_what_a_cell_that_loses_its_escapes_would_hide() -> None:
    # The test's own reading: text that opens a tag or splits a row no longer reads as the spec's text.
    page = read_page("## Models\n\n### M\n\n| Field | Type | Required | Default | Description |\n|---|---|---|---|---|\n"
                     "| `a` | string | yes | \u2014 | x <b>y</b> \\| &lt;z&gt; |\n| `b` | string | no | \u2014 | p | q |\n")
    rows = page["Models"][1].tables[0][1:]
    assert rows[0][4] == "x y | <z>" and rows[1][4] == "p"


def test_a_schema_applied_as_written_shows_its_text_as_written_and_an_adopted_format_names_its_source(tmp_path: Path) -> None:
    """Written out here: the applied schema's cell holds its non-ASCII text as the spec does (not \\u escapes), and
    the sentence an adopted format's page opens with names the file, a pointer other than the whole file, the
    version and the id."""
    from generator.targets.markdown import upstream_text

    folder = tmp_path / "specs" / "accents"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Accents", "description": "Accents.",
        "x-version": "1.0.0", "$ref": "#/$defs/M",
        "$defs": {"M": {"type": "object", "description": "A model.", "properties": {
            "greeting": {"const": "café ☕", "description": "Déjà vu."}}}},
    }, ensure_ascii=False), encoding="utf-8")
    page = _pages([load_spec(folder, tmp_path)])["accents"]
    assert '`{"const": "café ☕", "description": "Déjà vu."}`' in page, page
    assert upstream_text({}) == ""
    for pointer in (None, "", "#"):
        source = {"file": "a.json"} if pointer is None else {"file": "a.json", "pointer": pointer}
        assert upstream_text(source) == "Adopted from `a.json`."
    assert upstream_text({"file": "openapi.yaml", "pointer": "#/components/schemas/ChatMessage", "version": "2.3.0", "id": "urn:x"}) == (
        "Adopted from `openapi.yaml`, its `#/components/schemas/ChatMessage`, version 2.3.0, id `urn:x`.")


def _one_format_page(tmp_path: Path, name: str, doc: dict[str, Any], valid: Any, invalid: dict[str, Any]) -> str:
    """The docs page of a format made here: its spec, one valid example and one invalid one."""
    folder = tmp_path / "specs" / name
    (folder / "examples" / "valid").mkdir(parents=True)
    (folder / "examples" / "invalid").mkdir()
    (folder / "spec.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    (folder / "examples" / "valid" / "ok.json").write_text(json.dumps(valid), encoding="utf-8")
    (folder / "examples" / "invalid" / "wrong.json").write_text(json.dumps(invalid), encoding="utf-8")
    return _pages([load_spec(folder, tmp_path)])[name]


def test_a_tagged_union_keeping_the_default_wrong_type_message_is_in_the_table_of_wrong_types(tmp_path: Path) -> None:
    # Every model here words its own wrong-type message, so the only value that reports "must be an object" is the
    # union told apart by its tag (a value of no JSON object): the page's table of wrong types must still list it.
    def block(kind: str) -> dict[str, object]:
        return {"type": "object", "description": f"A {kind} block.", "additionalProperties": False, "required": ["type"],
                "properties": {"type": {"const": kind, "description": "The tag."}}, "x-messages": {"type": f"a {kind} block is an object"}}

    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Tagged", "description": "A tagged union.",
           "x-version": "1.0.0", "$ref": "#/$defs/Message",
           "$defs": {"Message": {"type": "object", "description": "A message.", "additionalProperties": False, "required": ["block"],
                                 "x-messages": {"type": "a message is an object"},
                                 "properties": {"block": {"description": "One block.", "oneOf": [{"$ref": "#/$defs/Text"}, {"$ref": "#/$defs/Image"}]}}},
                     "Text": block("text"), "Image": block("image")}}
    text = _one_format_page(tmp_path, "tagged", doc, {"block": {"type": "text"}},
                            {"description": "A block that is a number.", "data": {"block": 1}, "errors": [{"path": "/block", "message": "must be an object"}]})
    assert "| not an object (a model or a map) | `must be an object` |" in text, text[:3000]


def test_an_enumeration_keeping_the_default_wrong_type_message_is_in_the_table_of_wrong_types(tmp_path: Path) -> None:
    # The only strings here are two enumerations: Mode keeps "must be a string", Tone words its own. The table of
    # wrong types lists the default message each value of another type can get, so it holds Mode's, never Tone's.
    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Enums", "description": "Two enumerations.",
           "x-version": "1.0.0", "$ref": "#/$defs/Message",
           "$defs": {"Message": {"type": "object", "description": "A message.", "additionalProperties": False, "required": ["mode", "tone"],
                                 "x-messages": {"type": "a message is an object"},
                                 "properties": {"mode": {"$ref": "#/$defs/Mode", "description": "The mode."},
                                                "tone": {"$ref": "#/$defs/Tone", "description": "The tone."}}},
                     "Mode": {"type": "string", "enum": ["a", "b"], "description": "A mode."},
                     "Tone": {"type": "string", "enum": ["calm", "loud"], "description": "A tone.", "x-messages": {"type": "a tone is a word"}}}}
    text = _one_format_page(tmp_path, "enums", doc, {"mode": "a", "tone": "calm"},
                            {"description": "Numbers for words.", "data": {"mode": 1, "tone": 2},
                             "errors": [{"path": "/mode", "message": "must be a string"}, {"path": "/tone", "message": "a tone is a word"}]})
    rows = [line for line in text.splitlines() if line.startswith("| not a")]
    assert rows == ["| not a string (a string, date-time or base64 field) | `must be a string` |"], rows


def test_the_changelog_states_each_compatibility_promise_with_its_direction_and_its_scope() -> None:
    from generator.targets.markdown import promise_text

    meta = json.loads((ROOT / "generator" / "metaschema" / "chatspec.schema.json").read_text(encoding="utf-8"))
    values = meta["properties"]["x-compatibility"]["enum"]
    assert promise_text("none").startswith("This format promises no compatibility")
    readers = {"backward": "readers built from each new version read the messages of the versions before it",
               "forward": "readers built from earlier versions read the messages of each new version"}
    for value in (v for v in values if v != "none"):
        kind, _, transitive = value.partition("_")
        text = promise_text(value)
        assert text.startswith(f"This format promises {kind} compatibility (`x-compatibility`: `{value}`): "), text
        # full: the backward sentence, "and the other way round"
        assert (readers["backward"] in text) == (kind != "forward") and (readers["forward"] in text) == (kind == "forward"), text
        assert ("and the other way round" in text) == (kind == "full"), text
        scope = "every earlier release of the same major" if transitive else "the release just before"
        assert f"against {scope}" in text and text.count("against") == 1, text

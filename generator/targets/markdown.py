"""Markdown target: a page per format, an index, the site configuration, the schemas to download.

Free text from specs (titles, descriptions, enum values, messages, example
names) is escaped for the place it lands, so it can never break a table or inject
HTML:
- a heading (md_heading), a table cell or line (md_inline), paragraphs (md_paragraph):
  no HTML, no Markdown syntax; mkdocs' table of contents and search index take the
  heading's escaped text;
- a code span or a code cell (md_code, md_name, md_decl), a JSON value (md_json) or an
  example's JSON block (json_text);
- a diagram member (mermaid_name: letters, digits and _ only);
- a navigation label in mkdocs.yml (yaml_str of html_text): the theme writes it into
  every page's navigation and header as HTML as it is, and the page's <title> element
  takes it as it is too (docs/templates/main.html: the theme's own <title> would
  unescape it).
No spec text reaches an attribute (but the title's heading id, which mkdocs spells with
ASCII letters, digits, _ and -), a script, a meta tag or the sitemap.
A character that hides or reorders text (generator/invisible.py) is shown as its
escape (\u202e) everywhere. Code in tables wraps only between words (<wbr>), so
tables fit the page.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from generator import cache, invisible, ir, keywords, messages
from generator.behaviour import Behaviour
from generator.checks import all_nodes
from generator.export import schema_text
from generator.naming import go_package
from generator.render import TEMPLATES, header, render
from generator.targets.base import Context, Description, Target

# Characters that open Markdown syntax anywhere in a line (links, emphasis, code,
# tables, attribute lists); CommonMark lets any ASCII punctuation be backslash-escaped.
# GitHub's ~~strikethrough~~ too, but Python-Markdown (the site) would show a backslash
# before a "~": it goes in as an entity, which both read.
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]{}|])")
# What opens a block only at the start of a line: headings, quotes, lists, setext underlines.
_BLOCK_START = re.compile(r"^(?:([>#=+-])|(\d+)([.)]))")


def _escape_block_start(line: str) -> str:
    # "1." is escaped as "1\." (a backslash before a digit is no escape in CommonMark).
    # A setext underline's "=" is no escape for Python-Markdown (the site would show the backslash): an entity.
    return _BLOCK_START.sub(
        lambda m: ("&#61;" if m.group(1) == "=" else "\\" + m.group(1)) if m.group(1) else m.group(2) + "\\" + m.group(3), line
    )


def md_inline(text: str) -> str:
    """Text for a table cell or a single line: no HTML, no Markdown syntax, no line break."""
    text = invisible.shown(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _INLINE_SPECIAL.sub(r"\\\1", text).replace("~", "&#126;")
    return " ".join(text.split())


def md_heading(text: str) -> str:
    """Text for a heading line: as md_inline, and a closing run of # is text, not the heading's end ("C#")."""
    return re.sub(r"(?<!&)#", r"\\#", md_inline(text))  # "&#" only starts an entity md_inline wrote


def md_paragraph(text: str) -> str:
    """Free text as paragraphs: lines kept (hard breaks), nothing read as syntax."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n").strip()):
        lines = [_escape_block_start(md_inline(line)) for line in block.split("\n") if line.strip()]
        # A line break both readers take: Python-Markdown (the site) shows CommonMark's "\\" before one as text.
        paragraphs.append("<br>\n".join(lines))
    return "\n\n".join(p for p in paragraphs if p)


# A tab too: Python-Markdown (the site) turns a tab anywhere in the page into spaces.
_CODE_ENTITIES = {ch: f"&#{ord(ch)};" for ch in "|\\`*_[]{}~#\t"} | {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def md_code(text: str, in_table: bool = False) -> str:
    """A code span showing text exactly (newlines as \\n).

    In a table, a pipe inside a code span splits the cell for GitHub unless
    escaped as \\|, while Python-Markdown (the site) then shows the backslash;
    an HTML code element with &#124; reads the same in both.
    """
    text = invisible.shown(text.replace("\n", "\\n").replace("\r", "\\r"))
    # A code span cannot be empty, and Python-Markdown (the site) strips the white space at its ends, which
    # CommonMark keeps, turns tabs into spaces and ends "&#0" with a ";": such a text, like a pipe in a table,
    # goes in as an HTML code element.
    if in_table and "|" in text or text.strip() != text or not text or "\t" in text or "&#" in text:
        # Markdown still parses inside inline HTML, so its syntax goes in as entities too.
        escaped = "".join(_CODE_ENTITIES.get(ch, ch) for ch in text)
        return f"<code>{escaped}</code>"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text.startswith("`") or text.endswith("`"):
        text = f" {text} "
    return f"{fence}{text}{fence}"


# A line may break after a run of type punctuation that follows a word, never inside a word:
# "map[string]Conversation" -> "map[<wbr>string]<wbr>Conversation", "time.Time" -> "time.<wbr>Time".
_DECL_BREAK = re.compile(r"(?<=\w)[\[\].,]+(?=\w)")
# A name longer than this may also break between its words: after a _ or -, or before
# the capital of a CamelCase word (never inside a word).
_LONG_NAME = 24
_LONG = re.compile(r"[\w-]{%d,}" % (_LONG_NAME + 1))
_NAME_BREAK = re.compile(r"(?<=[^\W_])[_-](?=[^\W_])|(?<=[a-z0-9])(?=[A-Z])")


# In a schema shown as written, a JSON pointer may also break after each "/" that starts a name.
_POINTER_BREAK = re.compile(r"/(?=[\w$])")


def _code_cell(text: str, nested: bool, pointers: bool = False) -> str:
    text = invisible.shown(text.replace("\n", "\\n").replace("\r", "\\r"))
    points = {m.end() for m in _DECL_BREAK.finditer(text)} if nested else set()
    if pointers:
        points |= {m.end() for m in _POINTER_BREAK.finditer(text)}
    for run in _LONG.finditer(text):
        points |= {run.start() + m.end() for m in _NAME_BREAK.finditer(run.group())}
    if not points and "|" not in text:
        return md_code(text, True)
    # Markdown still parses inside inline HTML, so its syntax goes in as entities.
    return "<code>" + "".join(("<wbr>" if i in points else "") + _CODE_ENTITIES.get(ch, ch) for i, ch in enumerate(text)) + "</code>"


def md_name(text: str) -> str:
    """A name (a JSON key) for a table cell: whole, unless it is very long (then it may wrap between its words)."""
    return _code_cell(text, nested=False)


def md_decl(text: str) -> str:
    """A declaration in code (e.g. `input_id: str | None`, `Items map[string]Item`) for a table cell.

    Identifiers never break inside a word; where a type nests, the browser may wrap
    between its parts (<wbr>), so a column of long types still fits beside other languages.
    """
    return _code_cell(text, nested=True)


def html_text(text: str) -> str:
    """Text where HTML is read raw and Markdown is not (mkdocs navigation labels, the page's <title>)."""
    return (
        invisible.shown(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
    )


def html_comment(text: str) -> str:
    """Text inside <!-- -->: it cannot close the comment early (no `>`), and holds no `--`, which
    SGML-era parsers read as the comment's end (a space after each `-` another follows, so `--->` too)."""
    return re.sub("-(?=-)", "- ", text).replace(">", "&gt;")


def nav_labels(formats: list[ir.Format]) -> dict[str, str]:
    """A navigation label per format id, unique across the site.

    Titles that several formats share (a format and its earlier majors) get their
    major version ("Droidlet Chat 2.x", "Droidlet Chat 1.x"); any label still shared
    after that gets its format id.
    """

    def shared(labels: dict[str, str]) -> set[str]:
        seen: dict[str, int] = {}
        for label in labels.values():
            seen[label] = seen.get(label, 0) + 1
        return {label for label, count in seen.items() if count > 1}

    title = {f.id: " ".join(f.title.split()) or f.id for f in formats}
    labels = dict(title)
    twice = shared(labels)
    labels = {f.id: f"{title[f.id]} {f.version.split('.')[0]}.x" if title[f.id] in twice else title[f.id] for f in formats}
    twice = shared(labels)
    return {i: f"{label} ({i})" if label in twice else label for i, label in labels.items()}


def yaml_str(text: str) -> str:
    """A YAML double-quoted scalar: exact for any text (control and line-break characters escaped)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF or invisible.first(ch) is not None:
            out.append(invisible.u_escape(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def json_text(value: object, indent: int | None = None) -> str:
    """A JSON value as the docs show it: exact JSON, a character that hides or reorders text as its escape."""
    return invisible.shown(json.dumps(value, indent=indent, ensure_ascii=False), invisible.json_escape)


def md_json(value: object, in_table: bool = False) -> str:
    return md_code(json_text(value), in_table)


# A message template's placeholders, read as the generated code reads them ("{{" is a literal "{").
_PLACEHOLDER = re.compile(r"\{\{|\{(index|field|value)\}")


# What each placeholder of a message stands for, as the generated code fills it in.
_PLACEHOLDERS = {
    "index": "the 0-based index of the nearest array item holding the value (empty outside any array)",
    "field": "the key the check is about: an unknown key, a map's key, or the field holding the object",
    "value": "the value itself (text as it is, anything else as JSON)",
}


def md_message(template: str, field: str | None = None, pattern: re.Pattern[str] = _PLACEHOLDER) -> str:
    """A check's message as the generated code reports it, for a table cell or a line.

    Limits were filled in at load; {field} is filled in here where the check knows it (a missing
    field, a field's own value); what only the checked value tells ({index}, {value}, an unknown
    key, the key of a map) is a placeholder, shown as <var>index</var>."""
    parts: list[tuple[str, bool]] = []  # (text, is a placeholder)
    at = 0
    for found in pattern.finditer(template):
        parts.append((template[at : found.start()], False))
        name = found.group(1)
        parts.append(("{", False) if name is None else (field, False) if name == "field" and field is not None else (name, True))
        at = found.end()
    parts.append((template[at:], False))
    if not any(placeholder for _, placeholder in parts):
        return md_code("".join(text for text, _ in parts), True)
    shown = (invisible.shown(text.replace("\n", "\\n").replace("\r", "\\r")) for text, _ in parts)
    # Markdown still parses inside inline HTML, so its syntax goes in as entities.
    return (
        "<code>"
        + "".join(
            f"<var>{text}</var>" if placeholder else "".join(_CODE_ENTITIES.get(ch, ch) for ch in text)
            for text, (_, placeholder) in zip(shown, parts)
        )
        + "</code>"
    )


# The words a changelog line puts in code: a definition's field (Message.tool_call_id, RenderMedia.content-type)
# or a snake_case name (allowed_when, content_type). Prose words never break; these never break inside a word.
_CHANGE_NAME = re.compile(r"(?<![\w.-])[A-Za-z_][\w-]*[._-][\w-]*\w(?![\w-])")


def md_change(text: str) -> str:
    """One line of a changelog: prose, with the names it mentions as code."""
    out, at = [], 0
    for found in [*_CHANGE_NAME.finditer(text), None]:
        out.append(_prose(text[at : found.start() if found else len(text)]))
        if found:
            out.append(md_decl(found.group()))
            at = found.end()
    return "".join(out).strip()


def _prose(text: str) -> str:
    """md_inline of prose beside code, keeping a space at either end (md_inline folds it away)."""
    return (" " if text[:1].isspace() else "") + md_inline(text) + (" " if text[-1:].isspace() and text.strip() else "")


def anchor(name: str) -> str:
    """The id GitHub and mkdocs both give a heading that is a definition name (e.g. "ChatInput" -> "chatinput")."""
    return re.sub(r"[^a-z0-9_-]", "", name.lower())


def mermaid_name(text: str) -> str:
    """A member name Mermaid shows as it is: only [A-Za-z0-9_], never wrapped in _ (Mermaid's emphasis)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text).strip("_") or "_"


def json_kind(t: ir.TypeRef) -> str:
    """The JSON type a value of the type has, as messages.TYPE_MESSAGES names it (a union by JSON type has none: "")."""
    match t:
        case ir.StringType() | ir.DateTimeType() | ir.BytesType():
            return "string"
        case ir.NumericType():
            return "integer" if t.integer else "number"
        case ir.BooleanType():
            return "boolean"
        case ir.AnyType():
            return "any"
        case ir.ListType() | ir.TupleType():
            return "array"
        case ir.MapType():
            return "object"
        case ir.UnionType():
            return "object" if t.discriminator is not None else ""
        case ir.NullableType():
            return json_kind(t.inner)
        case ir.Ref():
            return t.target
    raise AssertionError(f"the docs have no JSON type for the type kind {t.kind!r}")


def upstream_text(source: dict[str, str]) -> str:
    """The sentence a page of an adopted format opens with (x-source), e.g. "Adopted from `openapi.yaml`, its
    `#/components/schemas/ChatMessage`, version 2.3.0."; "" for a format of its own."""
    if not source:
        return ""
    stated = [f"version {md_inline(source['version'])}"] if "version" in source else []
    stated += [f"id {md_code(source['id'])}"] if "id" in source else []
    where = f", its {md_code(source['pointer'])}" if source.get("pointer") not in (None, "", "#") else ""
    return f"Adopted from {md_code(source['file'])}{where}" + (f", {', '.join(stated)}" if stated else "") + "."


def definition_notes(d: ir.Definition) -> str:
    """annotation_notes of a definition: its title (ir keeps a $defs entry's apart, for the export) and the rest; the
    page shows them as a paragraph after the definition's description."""
    kept = json.loads(d.annotations) if d.annotations else {}
    if d.title:
        kept = {"title": d.title, **kept}
    return annotation_notes(json.dumps(kept)) if kept else ""


def annotation_notes(annotations: str) -> str:
    """What a reader needs of the annotations a property or a definition keeps (ir.Field.annotations): its title,
    that it is deprecated, read-only or write-only, and its examples. ($comment and vendor x- keys are for the
    spec's authors and tools: the exported schema holds them.)"""
    kept = json.loads(annotations) if annotations else {}
    notes = []
    if isinstance(kept.get("title"), str):
        notes.append(f"Title: {md_inline(kept['title'])}.")
    notes += [
        text
        for key, text in (("deprecated", "Deprecated."), ("readOnly", "Read-only."), ("writeOnly", "Write-only."))
        if kept.get(key) is True
    ]
    if isinstance(kept.get("examples"), list) and kept["examples"]:
        notes.append("Examples: " + ", ".join(md_json(e, True) for e in kept["examples"]) + ".")
    return " ".join(notes)


def nested_notes(t: ir.TypeRef) -> str:
    """The annotations the schemas nested in a type keep (ir.TypeRef.annotations), each after where it is: "Each
    item: One tag. Title: Tag." (a schema applied as written shows its own, as written)."""
    notes: list[str] = []

    def walk(t: ir.TypeRef, where: str) -> None:
        kept = json.loads(t.annotations) if t.annotations else {}
        said = [md_inline(kept["description"])] if isinstance(kept.get("description"), str) and kept["description"] else []
        said += [annotation_notes(t.annotations)] if annotation_notes(t.annotations) else []
        if "default" in kept:
            said.append(f"Default: {md_json(kept['default'], True)} (an annotation: not filled in).")
        if said:
            notes.append(f"{where or 'The value'}: " + " ".join(said))
        match t:
            case ir.ListType():
                walk(t.item, "Each item")
            case ir.MapType():
                walk(t.value, "Each value")
            case ir.NullableType():
                walk(t.inner, where)
            case ir.TupleType():
                for i, item in enumerate(t.items):
                    walk(item, f"Item {i}")
            case ir.UnionType():
                if t.open and t.discriminator is not None:
                    notes.append(
                        f"{where or 'The value'}: open (x-open): an object whose {md_code(t.discriminator, True)} is a string "
                        "no variant has (one a later version adds) is kept as an unknown variant and written back unchanged."
                    )
                for i, variant in enumerate(t.variants):
                    walk(variant, f"Variant {i + 1}")

    walk(dataclasses.replace(t, annotations=""), "")
    return " ".join(notes)


# The check cells of a schema applied as written: the first row shows the schema, the others each list a message of it.
APPLIED_ROWS = ("schema, applied as written", "the same schema")


def applied_messages(checks: ir.Checks) -> list[str]:
    """The messages a schema applied as written reports, each once, in the order its checks hold them."""
    found: dict[str, None] = {}
    for node in all_nodes(json.loads(checks.text)):
        found.update(dict.fromkeys(node.get("messages", {}).values()))
        found.update(dict.fromkeys(entry[2] for entry in node.get("dependentRequired", ())))
    return list(found)


def default_message(t: ir.TypeRef, keyword: str) -> str:
    """The message a type's "type" or "int64" check has unless a spec sets its own."""
    return messages.DEFAULTS["int64"] if keyword == "int64" else messages.TYPE_MESSAGES.get(json_kind(t), "")


# How the page names each JSON type in its table of wrong-type messages (and the int64 range check).
_WRONG_TYPE = {
    "string": "not a string (a string, date-time or base64 field)",
    "integer": "not an integer",
    "int64": "an integer beyond 64 bits",
    "number": "not a number",
    "boolean": "not a boolean",
    "array": "not an array (a list or a tuple)",
    "object": "not an object (a model or a map)",
}


def check_limit(t: ir.TypeRef, keyword: str) -> object:
    """The value a check compares with, shown beside its keyword (e.g. minLength 2), or None."""
    match keyword:
        case "prefixItems" if isinstance(t, ir.TupleType):
            return len(t.items)
        case "discriminator" if isinstance(t, ir.UnionType):
            return t.discriminator
        case "discriminatorValue" if isinstance(t, ir.UnionType):
            return list(t.tags)
        case "enum" if isinstance(t, ir.StringType | ir.NumericType | ir.BooleanType):
            return list(t.enum or ())
        case "const" if isinstance(t, ir.NumericType | ir.BooleanType):
            return t.const  # (a boolean too: the value it must be)
    attribute = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", keyword).lower()  # minLength -> min_length
    value = getattr(t, attribute, None)
    return None if isinstance(value, bool) else value


@dataclass(frozen=True)
class FieldRow:
    wire: str  # code span of the JSON name
    json_type: str  # Markdown (may link to a model)
    code: tuple[str, ...]  # per code target, its declaration, e.g. `content_type: str | None`, `ContentType *string`
    required: str
    default: str
    description: str
    checks: tuple[tuple[str, str], ...]  # (check, message) as Markdown


@dataclass(frozen=True)
class ModelSection:
    name: str
    anchor: str
    description: str
    fields: tuple[FieldRow, ...]
    closed: bool
    unknown_message: str  # "" for an open model
    type_message: str  # a custom message for a value that is not an object, or ""
    rules: tuple[tuple[str, str], ...]  # (what it checks, message)


@dataclass(frozen=True)
class EnumSection:
    name: str
    anchor: str
    description: str
    values: tuple[tuple[str, str], ...]  # (value code span, description)
    outside: str  # the message of a value outside the list
    type_message: str  # a custom message for a value that is not a string, or ""
    open: bool  # x-open: any other string is kept as an unknown value


@dataclass(frozen=True)
class AliasSection:
    name: str
    anchor: str
    description: str
    shape: str
    checks: tuple[tuple[str, str], ...]  # (check, message), as FieldRow.checks


class FormatPage:
    """The page of one format; each code target's spelling comes from its Description."""

    def __init__(self, fmt: ir.Format, code: tuple[Description, ...], behaviour: Behaviour | None = None) -> None:
        self.fmt = fmt
        self.behaviour_set = behaviour if behaviour is not None and "docs" in behaviour.texts else None
        self.defs = {d.name: d for d in fmt.definitions}
        self.code = code

    def link(self, name: str) -> str:
        return f"[{name}](#{anchor(name)})"

    def json_type(self, t: ir.TypeRef) -> str:
        """The JSON shape of a type in words, with links to named definitions."""
        match t:
            case ir.DateTimeType():
                return "string (date-time)"
            case ir.BytesType():
                return "string (base64)"
            case ir.StringType(const=str() as const):
                return f"string, always {md_json(const, True)}"
            case ir.StringType(enum=tuple() as values):
                return "string, one of " + ", ".join(md_json(v, True) for v in values)
            case ir.StringType(format=str() as name) if t.checked_format is None:
                return f"string (format {md_json(name, True)}: an annotation, not checked)"
            case ir.StringType(format=str() as name):
                return f"string ({md_json(name, True)})"
            case ir.StringType():
                return "string"
            case ir.NumericType() | ir.BooleanType() if t.const is not None:
                return f"{json_kind(t)}, always {md_json(t.const, True)}"
            case ir.NumericType() | ir.BooleanType() if t.enum is not None:
                return f"{json_kind(t)}, one of " + ", ".join(md_json(v, True) for v in t.enum)
            case ir.NumericType():
                return "integer" if t.integer else "number"
            case ir.BooleanType():
                return "boolean"
            case ir.AnyType(checks=ir.Checks()):
                return "a JSON value its schema accepts (applied as written)"
            case ir.AnyType():
                return "any JSON value"
            case ir.ListType():
                return f"array of {self.json_type(t.item)}"
            case ir.TupleType():
                return "array \\[" + ", ".join(self.json_type(i) for i in t.items) + "\\]"
            case ir.MapType():
                return f"object of {self.json_type(t.value)}"
            case ir.NullableType():
                return f"{self.json_type(t.inner)} or null"
            case ir.UnionType(discriminator=str() as tag, inferred=True):
                listed = " or ".join(self.json_type(v) for v in t.variants)
                return f"{listed}, by {md_name(tag)} (inferred: each requires its own constant {md_name(tag)})"
            case ir.UnionType():
                return " or ".join(self.json_type(v) for v in t.variants)
            case ir.Ref():
                return self.link(t.name)
        raise AssertionError(f"the docs have no JSON shape for the type kind {t.kind!r}")

    def checks(self, t: ir.TypeRef, field: str | None, picked: bool = False) -> list[tuple[str, str]]:
        """(check, message) for every check on a value of the type, its items, values and variants, as the
        generated code reports it. `field` is the name the code gives {field} there (None: a map's key,
        known only from the value). A wrong JSON type with the default message is said once per page
        (type_defaults); `picked`: the value's JSON type picked this union variant, so it has no type check."""
        if isinstance(t, ir.NullableType):
            return self.checks(t.inner, field)
        found: list[tuple[str, str]] = []
        for keyword, message in getattr(t, "messages", {}).items():
            if keyword in ("type", "int64") and (picked or message == default_message(t, keyword) or isinstance(t, ir.AnyType)):
                continue  # (any JSON value has the right type)
            limit = check_limit(t, keyword)
            shown = f"{keyword}: {md_json(limit, True)}" if limit is not None else keyword
            # A union's tag is reported at the tag's key: its {field} is the discriminator.
            named = t.discriminator if isinstance(t, ir.UnionType) and keyword.startswith("discriminator") else field
            found.append((shown, md_message(message, named)))
        match t:
            case ir.AnyType(checks=ir.Checks() as applied):
                # The schema as the spec writes it (annotations and all), and every message its checks report.
                # (Spaced JSON: code wraps only at spaces, so the compact text would widen the table on a phone.)
                spaced = json.dumps(json.loads(applied.written), ensure_ascii=False, separators=(", ", ": "))
                shown = f"{APPLIED_ROWS[0]}: {_code_cell(spaced, nested=False, pointers=True)}"
                found += [(shown if i == 0 else APPLIED_ROWS[1], md_message(m)) for i, m in enumerate(applied_messages(applied))]
            case ir.ListType():
                found += [(f"each item: {c}", m) for c, m in self.checks(t.item, field)]
            case ir.MapType():
                found += [(f"each value: {c}", m) for c, m in self.checks(t.value, None)]
            case ir.TupleType():
                found += [(f"item {i}: {c}", m) for i, item in enumerate(t.items) for c, m in self.checks(item, field)]
            case ir.UnionType() if t.json_kinds:
                found += [
                    (f"{kind} variant: {c}", m) for kind, v in zip(t.json_kinds, t.variants) for c, m in self.checks(v, field, picked=True)
                ]
        return found

    def type_defaults(self) -> list[tuple[str, str]]:
        """(JSON type, message) for each wrong-type check of the format that keeps its default message."""
        used: dict[str, str] = {}

        def visit(t: ir.TypeRef, picked: bool = False) -> None:
            # picked: a variant of a union by JSON kind, chosen by the value's kind, so its own wrong-type
            # message is never reported (the union's is); what lies inside it still is.
            for keyword in ("int64",) if picked else ("type", "int64"):
                message = getattr(t, "messages", {}).get(keyword)
                if message is not None and message == default_message(t, keyword) and not isinstance(t, ir.AnyType):
                    used[_WRONG_TYPE[json_kind(t)] if keyword == "type" else _WRONG_TYPE["int64"]] = message
            by_kind = isinstance(t, ir.UnionType) and bool(t.json_kinds)
            for inner in ir.children(t):
                visit(inner, picked=by_kind)

        for d in self.fmt.definitions:
            if isinstance(d, ir.Model):
                if d.type_message == messages.TYPE_MESSAGES["object"]:
                    used[_WRONG_TYPE["object"]] = d.type_message
                for f in d.fields:
                    visit(f.type)
            elif isinstance(d, ir.Enum):
                if d.messages.get("type") == messages.TYPE_MESSAGES["string"]:
                    used[_WRONG_TYPE["string"]] = d.messages["type"]
            else:
                visit(d.type)
        return [(label, md_message(used[label])) for label in _WRONG_TYPE.values() if label in used]

    def rule_field(self, rule: ir.Rule) -> str | None:
        """What {field} is in a rule's message: the field the code reports it at, or None for a rule
        reported at the object (at_least_one_of), whose {field} is the field that holds the object."""
        return None if rule.kind == "at_least_one_of" else rule.fields[0]

    def rule_text(self, rule: ir.Rule) -> str:
        fields = ", ".join(md_code(f, True) for f in rule.fields)
        when = (
            ""
            if rule.when is None
            else (
                f"when {md_code(rule.when.field + ''.join('/' + p for p in rule.when.pointer), True)} is {md_json(rule.when.equals, True)}"
            )
        )
        match rule.kind:
            case "member_of":
                where = "/".join(rule.pointer)
                return f"{md_code(rule.fields[0], True)} must be an item of {md_code(where, True)} ({rule.up} level(s) up)"
            case "at_least_one_of":
                return f"at least one of {fields} is present and not null"
            case "contains":
                return f"some item of {md_code(rule.fields[0], True)} has {md_json(rule.equals, True)} at {md_code('/' + '/'.join(rule.pointer), True)}"
            case "required_when":
                return f"{md_code(rule.fields[0], True)} is required {when}"
            case "allowed_when":
                allowed = ", ".join(md_json(a, True) for a in rule.allowed)
                return f"{when}, each item of {md_code(rule.fields[0], True)} has one of {allowed} at {md_code('/' + '/'.join(rule.pointer), True)}"
            case "compare":
                left, right = (md_code(f, True) for f in rule.fields)
                how = {"date-time": "as instants", "string": "by code point"}.get(rule.operands[0], "as numbers")
                return (
                    f"{left} {md_code(rule.op or '', True)} {right} ({how}; not checked while either is null, or absent without a default)"
                )
            case _:
                raise ValueError(f"the docs have no text for rule kind {rule.kind!r}")

    def model_section(self, model: ir.Model) -> ModelSection:
        rows = []
        for f in model.fields:
            if f.default_factory:
                default = f"fresh {f.default_factory}"
            elif f.has_default:
                default = md_json(f.default, True)
            else:
                default = "—"
            checks = [("required", md_message(f.required_message, f.wire_name))] if f.required else []
            checks += self.checks(f.type, f.wire_name)
            rows.append(
                FieldRow(
                    wire=md_name(f.wire_name),
                    json_type=self.json_type(f.type),
                    code=tuple(md_decl(d.fields[model.name, f.wire_name]) for d in self.code),
                    required="yes" if f.required else "no",
                    default=default,
                    description=" ".join(
                        part for part in (md_inline(f.description), annotation_notes(f.annotations), nested_notes(f.type)) if part
                    ),
                    checks=tuple(checks),
                )
            )
        return ModelSection(
            name=model.name,
            anchor=anchor(model.name),
            description="\n\n".join(part for part in (md_paragraph(model.description), definition_notes(model)) if part)
            + (f"\n\nWritten inline in the spec, at {md_code(model.inline)}." if model.inline else ""),
            fields=tuple(rows),
            closed=model.closed,
            # An open model reports no unknown key: its message is shown nowhere (nor its placeholders explained).
            unknown_message=md_message(model.unknown_message) if model.closed else "",
            type_message="" if model.type_message == messages.TYPE_MESSAGES["object"] else md_message(model.type_message),
            rules=tuple((self.rule_text(r), md_message(r.message, self.rule_field(r))) for r in model.rules),
        )

    def behaviour(self) -> str:
        """The format's behaviour section (specs/<format>/behaviour/docs.md), or ""."""
        if self.behaviour_set is None:
            return ""
        b = self.behaviour_set
        # docs.md is written for the format's latest major; a kept earlier major's page names its own
        # Python module and Go package.
        text = b.texts["docs"].strip()
        if self.fmt.id != b.format_id:
            text = re.sub(rf"\bchatformats\.{re.escape(b.format_id)}\b", f"chatformats.{self.fmt.id}", text)
            text = re.sub(rf"\b{re.escape(go_package(b.format_id))}\b", go_package(self.fmt.id), text)
        return text

    def diagram(self) -> list[str]:
        """Mermaid classDiagram lines: models with their fields, and what refers to what."""
        lines = ["classDiagram"]
        edges: list[str] = []
        for d in self.fmt.definitions:
            lines.append(f"    class {d.name} {{")
            if isinstance(d, ir.Model):
                for f in d.fields:
                    lines.append(f"        +{mermaid_name(self.short_type(f.type))} {mermaid_name(f.wire_name)}")
                    edges += [f"    {d.name} --> {ref} : {mermaid_name(f.wire_name)}" for ref in dict.fromkeys(ir.refs(f.type))]
            elif isinstance(d, ir.Enum):
                lines.append("        <<enumeration>>")
                lines += [f"        {mermaid_name(v)}" for v in d.values]
            else:
                lines.append("        <<union>>" if isinstance(d.type, ir.UnionType) else "        <<type>>")
                edges += [f"    {d.name} --> {ref}" for ref in dict.fromkeys(ir.refs(d.type))]
            lines.append("    }")
        return lines + edges

    def short_type(self, t: ir.TypeRef) -> str:
        """A type as one diagram word, e.g. "Message_list"."""
        match t:
            case ir.Ref():
                return t.name
            case ir.ListType():
                return self.short_type(t.item) + "_list"
            case ir.MapType():
                return self.short_type(t.value) + "_map"
            case ir.NullableType():
                return self.short_type(t.inner)
            case ir.StringType() | ir.DateTimeType() | ir.BytesType() | ir.NumericType() | ir.BooleanType() | ir.AnyType():
                return json_kind(t)
            case ir.TupleType():
                return "tuple"
            case ir.UnionType():
                return "union"
        raise AssertionError(f"the docs' diagram has no word for the type kind {t.kind!r}")

    def page(self, history: list[dict[str, object]], label: str) -> str:
        fmt = self.fmt
        models = [self.model_section(m) for m in fmt.models]
        enums = [
            EnumSection(
                e.name,
                anchor(e.name),
                "\n\n".join(part for part in (md_paragraph(e.description), definition_notes(e)) if part),
                tuple((md_json(v, True), md_inline(e.value_descriptions.get(v, ""))) for v in e.values),
                md_message(e.messages["enum"]),
                "" if e.messages["type"] == messages.TYPE_MESSAGES["string"] else md_message(e.messages["type"]),
                e.open,
            )
            for e in fmt.definitions
            if isinstance(e, ir.Enum)
        ]
        aliases = [
            AliasSection(
                a.name,
                anchor(a.name),
                "\n\n".join(
                    part
                    for part in (md_paragraph(a.description), " ".join(n for n in (definition_notes(a), nested_notes(a.type)) if n))
                    if part
                ),
                self.json_type(a.type),
                tuple(self.checks(a.type, None)),
            )
            for a in fmt.definitions
            if isinstance(a, ir.Alias)
        ]
        invalid = [
            (
                _escape_block_start(md_inline(case.name)),
                md_paragraph(case.description),
                json_text(case.data, indent=2),
                [(md_code(e["path"] or "/", True), md_code(e["message"], True)) for e in case.errors],
            )
            for case in fmt.invalid_examples
        ]
        sections = repr((models, enums, aliases))
        return render(
            "markdown/format.md.j2",
            placeholders=[(name, meaning) for name, meaning in _PLACEHOLDERS.items() if f"<var>{name}</var>" in sections],
            header=html_comment(header(fmt.source, self.behaviour_set.source("docs") if self.behaviour_set else None)),
            fmt=fmt,
            format_id=md_code(fmt.id),
            title=md_heading(label),
            description=md_paragraph(fmt.description),
            root=self.link(fmt.root),
            root_is_model=isinstance(fmt.definition(fmt.root), ir.Model),
            upstream=upstream_text(dict(fmt.upstream)),
            languages=[d.label for d in self.code],
            places=[f"{d.label}: {d.noun + ' ' if d.noun else ''}{md_code(d.where)}." for d in self.code],
            models=models,
            enums=enums,
            aliases=aliases,
            diagram=self.diagram(),
            type_defaults=self.type_defaults(),
            # An example's name starts a line: "# x" or "1. x" would be a heading or a list there.
            valid=[(_escape_block_start(md_inline(name)), json_text(data, indent=2)) for name, data in fmt.valid_examples],
            invalid=invalid,
            decisions=[md_paragraph(d) for d in fmt.decisions],
            history=history,
            promise=promise_text(fmt.compatibility),
            version=md_inline(fmt.version),
            behaviour=self.behaviour(),
            fence=lambda text: "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0)),
        )


def promise_text(compatibility: str) -> str:
    """What the format's x-compatibility promises, in a sentence of its changelog."""
    if compatibility == "none":
        return "This format promises no compatibility beyond what its version numbers say (no `x-compatibility`)."
    kind, _, transitive = compatibility.partition("_")
    what = {
        "backward": "readers built from each new version read the messages of the versions before it",
        "forward": "readers built from earlier versions read the messages of each new version",
        "full": "readers built from each new version read the messages of the versions before it, and the other way round",
    }[kind]
    scope = "every earlier release of the same major (in 0.x, of the same minor)" if transitive else "the release just before"
    return f"This format promises {kind} compatibility (`x-compatibility`: `{compatibility}`): {what}, against {scope}, unless the major version changes."


# The placeholders of a default message template: {limit} and {allowed} are filled in at generation.
TEMPLATE_PLACEHOLDER = re.compile(r"\{\{|\{(index|field|value|limit|allowed)\}")


def md_text(text: str) -> str:
    """chatspec's own prose (the meta-schema's descriptions): a line, with `code` in backticks kept as code."""
    return "".join(md_code(part, True) if i % 2 else _prose(part) for i, part in enumerate(re.split(r"`([^`]*)`", text))).strip()


@dataclass(frozen=True)
class KeywordExample:
    written: str  # what the JSON block is, e.g. "The schema of a field `value`:"
    text: str  # the example as the spec writes it (JSON)
    what: str  # the results table's first heading, e.g. "Value"
    results: tuple[tuple[str, str], ...]  # (value, "accepted" or each error's path and message)
    fields: tuple[tuple[str, tuple[str, ...]], ...]  # (field, its declaration per code target) of the example's root model


@dataclass(frozen=True)
class KeywordSection:
    name: str
    description: str
    takes: str
    on: str
    limits: str
    messages: tuple[tuple[str, str], ...]
    keys: tuple[tuple[str, str, str], ...]  # a rule kind's keys: (key, takes, meaning)
    example: KeywordExample | None


def keyword_example(k: keywords.Keyword, code: tuple[Description, ...]) -> KeywordExample | None:
    example = k.example
    if example is None:
        return None
    wrapped = {n: d for n, d in example.defs.items() if n != keywords.ROOT} if example.wrapped else example.defs
    if example.document:
        written, shown = "At the top of the spec:", example.document
    elif example.wrapped:
        value = example.defs[keywords.ROOT]["properties"][keywords.VALUE]
        written, shown = (
            ("The schema of a field `value`:", value)
            if not wrapped
            else ("The schema of a field `value`, and the definitions it names:", {"value": value, "$defs": wrapped})
        )
    else:
        written, shown = "The spec's definitions (the first is the document):", example.defs
    results = [(md_json(v, True), "accepted") for v in example.inside]
    results += [
        (md_json(p["data"], True), "; ".join(f"{md_code(e['path'] or '/', True)}: {md_message(e['message'])}" for e in p["errors"]))
        for p in example.past
    ]
    root = next(iter(example.defs))
    names = [wire for model, wire in (code[0].fields if code else {}) if model == root]
    fields = tuple((md_name(wire), tuple(md_decl(d.fields[root, wire]) for d in code)) for wire in names)
    return KeywordExample(
        written=md_text(written),
        text=json_text(shown, indent=2),
        what="Value" if example.wrapped else "Document",
        results=tuple(results),
        fields=fields if not example.document else (),
    )


def spec_language_page(described: Mapping[str, tuple[Description, ...]]) -> str:
    """generated/docs/spec-language.md: every keyword of the meta-schema (generator.keywords)."""
    sections = []
    for place, heading, intro in _PLACES:
        found = []
        for k in keywords.keywords():
            if k.place != place:
                continue
            code = described.get(k.format_id, ()) if k.example is not None else ()
            found.append(
                KeywordSection(
                    name=md_heading(keyword_heading(k)),
                    description=md_text(k.description),
                    takes=md_text(k.takes),
                    on=", ".join(md_text(o) for o in k.on),
                    limits=md_text(k.limits),
                    messages=tuple((_message_key(key, kind), md_message(m, pattern=TEMPLATE_PLACEHOLDER)) for key, kind, m in k.messages),
                    keys=tuple((md_code(key, True), md_text(t) or "—", md_text(m)) for key, t, m in k.keys),
                    example=keyword_example(k, code),
                )
            )
        sections.append((found, heading, intro))
    languages = [d.label for d in next(iter(described.values()), ())]
    return render(
        "markdown/spec_language.md.j2",
        header=header(keywords.SOURCE),
        sections=sections,
        languages=languages,
        messages=[(_message_key(key, kind), md_message(m, pattern=TEMPLATE_PLACEHOLDER)) for key, kind, m in keywords.message_defaults()],
        fence=lambda text: "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0)),
    )


def keyword_heading(k: keywords.Keyword) -> str:
    """A keyword's heading: its name, and "(top level)" for the document's ($ref, title and description are a schema's too),
    "(rule)" for a rule kind whose name is a schema keyword's too (contains)."""
    if k.place == "document":
        return f"{k.name} (top level)"
    if k.place == "rule" and k.name in keywords.schema_keywords():
        return f"{k.name} (rule)"
    return k.name


def _message_key(key: str, kind: str) -> str:
    """An x-messages key, with the JSON type its default is for, e.g. `type` (integer)."""
    return md_code(key, True) + (f" ({md_inline(kind)})" if kind else "")


# The spec-language page's sections: (Keyword.place, heading, what its keywords are).
_PLACES = (
    ("document", "The document", "The keywords at the top of a spec, beside `$defs`."),
    ("schema", "Schemas", "The keywords of a schema: a definition of `$defs`, a property, an array's items, a map's values, a variant."),
    ("rule", "Rules", "The kinds of rule `x-rules` takes, each an object with `kind`, `message` and the keys of its kind."),
)


def first_sentence(text: str) -> str:
    line = " ".join(text.split())
    cut = re.search(r"(?<=[.!?])\s", line)
    return line[: cut.start()] if cut else line


class DocsTarget(Target):
    """generated/docs/*.md, the schemas to download beside them, and generated/mkdocs.yml."""

    name = "docs"
    behaviour = ("docs", ".md")
    reads_descriptions = True

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        (label,) = self.format_inputs(fmt, ctx)
        rows: list[dict[str, object]] = [
            {
                "version": md_inline(str(h["version"])),
                "class": md_inline(str(h["class"])),
                "changes": [md_change(str(c)) for c in h["changes"]],  # type: ignore[attr-defined]
                "labels": [md_inline(str(c)) for c in h.get("labels", [])],  # type: ignore[attr-defined]
            }
            for h in ctx.history.get(fmt.id, [])
        ]
        return {
            f"docs/{fmt.id}.md": FormatPage(fmt, ctx.descriptions.get(fmt.id, ()), ctx.behaviours.get(fmt.id)).page(rows, label),
            f"docs/schemas/{fmt.id}.schema.json": schema_text(ctx.schemas[fmt.id]),
        }

    def format_inputs(self, fmt: ir.Format, ctx: Context) -> tuple[str, ...]:
        """The page's navigation label: unique among every format's title."""
        return (nav_labels(list(ctx.formats))[fmt.id],)

    def render_shared(self, ctx: Context) -> dict[str, str]:
        labels = nav_labels(list(ctx.formats))
        files = {}
        index = [
            (md_inline(labels[f.id]), f.id, md_code(f.id, True), md_inline(f.version), md_inline(first_sentence(f.description)))
            for f in ctx.formats
        ]
        files["docs/index.md"] = render("markdown/index.md.j2", header=header(None), rows=index)
        # Made from chatspec itself (the meta-schema, the targets' spellings): remembered until chatspec changes.
        files["docs/spec-language.md"] = cache.memo(
            "spec-language", [cache.toolkit(TEMPLATES), repr(ctx.options)], lambda: spec_language_page(ctx.keyword_descriptions)
        )
        # mkdocs puts navigation labels into the HTML of every page as they are: escaped here.
        nav = [(yaml_str(html_text(labels[f.id])), yaml_str(f"{f.id}.md")) for f in ctx.formats]
        files["mkdocs.yml"] = render("markdown/mkdocs.yml.j2", header=header(None), nav=nav)
        files["docs/assets/chatspec.css"] = render("markdown/chatspec.css.j2", header=header(None))
        files["docs/assets/mermaid-init.js"] = render("markdown/mermaid-init.js.j2", header=header(None))
        # Beside mkdocs.yml, outside docs/: mkdocs would copy a file of docs/ into the site.
        files["mkdocs_hooks.py"] = render("markdown/hooks.py.j2", header=header(None))
        # mkdocs reads docs/templates/ as theme files only (its default exclude_docs leaves the folder out of the site).
        files["docs/templates/main.html"] = render("markdown/theme-main.html.j2", header=header(None))
        return files

    def shared_files(self, options: object) -> frozenset[str]:
        return frozenset(
            {
                "docs/index.md",
                "docs/spec-language.md",
                "docs/assets/mermaid-init.js",
                "docs/assets/chatspec.css",
                "docs/templates/main.html",
                "mkdocs.yml",
                "mkdocs_hooks.py",
            }
        )


TARGET = DocsTarget()

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

import json
import re
from dataclasses import dataclass

from generator import invisible, ir
from generator.behaviour import Behaviour, docs_text
from generator.export import schema_text
from generator.naming import go_package
from generator.render import header, render
from generator.targets.base import Context, Description, Target

# Characters that open Markdown syntax anywhere in a line (links, emphasis, code,
# tables, attribute lists); CommonMark lets any ASCII punctuation be backslash-escaped.
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]{}|~])")
# What opens a block only at the start of a line: headings, quotes, lists, setext underlines.
_BLOCK_START = re.compile(r"^(?:([>#=+-])|(\d+)([.)]))")


def _escape_block_start(line: str) -> str:
    # "1." is escaped as "1\." (a backslash before a digit is no escape in CommonMark).
    return _BLOCK_START.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), line)


def md_inline(text: str) -> str:
    """Text for a table cell or a single line: no HTML, no Markdown syntax, no line break."""
    text = invisible.shown(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _INLINE_SPECIAL.sub(r"\\\1", text)
    return " ".join(text.split())


def md_heading(text: str) -> str:
    """Text for a heading line: as md_inline, and a closing run of # is text, not the heading's end ("C#")."""
    return md_inline(text).replace("#", "\\#")


def md_paragraph(text: str) -> str:
    """Free text as paragraphs: lines kept (hard breaks), nothing read as syntax."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n").strip()):
        lines = [_escape_block_start(md_inline(line)) for line in block.split("\n") if line.strip()]
        paragraphs.append("\\\n".join(lines))
    return "\n\n".join(p for p in paragraphs if p)


_CODE_ENTITIES = {ch: f"&#{ord(ch)};" for ch in "|\\`*_[]{}~#"} | {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def md_code(text: str, in_table: bool = False) -> str:
    """A code span showing text exactly (newlines as \\n).

    In a table, a pipe inside a code span splits the cell for GitHub unless
    escaped as \\|, while Python-Markdown (the site) then shows the backslash;
    an HTML code element with &#124; reads the same in both.
    """
    text = invisible.shown(text.replace("\n", "\\n").replace("\r", "\\r"))
    if in_table and "|" in text:
        # Markdown still parses inside inline HTML, so its syntax goes in as entities too.
        escaped = "".join(_CODE_ENTITIES.get(ch, ch) for ch in text)
        return f"<code>{escaped}</code>"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip()):
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


def _code_cell(text: str, nested: bool) -> str:
    text = invisible.shown(text.replace("\n", "\\n").replace("\r", "\\r"))
    points = {m.end() for m in _DECL_BREAK.finditer(text)} if nested else set()
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
    """Text inside <!-- -->: it cannot close the comment early."""
    return text.replace("--", "- -").replace(">", "&gt;")


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


def anchor(name: str) -> str:
    """The id GitHub and mkdocs both give a heading that is a definition name (e.g. "ChatInput" -> "chatinput")."""
    return re.sub(r"[^a-z0-9_-]", "", name.lower())


def mermaid_name(text: str) -> str:
    """A member name Mermaid shows as it is: only [A-Za-z0-9_], never wrapped in _ (Mermaid's emphasis)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text).strip("_") or "_"


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
    unknown_message: str
    rules: tuple[tuple[str, str], ...]  # (what it checks, message)


@dataclass(frozen=True)
class EnumSection:
    name: str
    anchor: str
    description: str
    values: tuple[tuple[str, str], ...]  # (value code span, description)
    messages: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class AliasSection:
    name: str
    anchor: str
    description: str
    shape: str
    messages: tuple[tuple[str, str], ...]


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
            case ir.StringType():
                return "string"
            case ir.NumericType():
                return "integer" if t.integer else "number"
            case ir.BooleanType():
                return "boolean"
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
            case ir.UnionType():
                return " or ".join(self.json_type(v) for v in t.variants)
            case ir.Ref():
                return self.link(t.name)
        raise AssertionError(f"the docs have no JSON shape for the type kind {t.kind!r}")

    def checks(self, t: ir.TypeRef) -> list[tuple[str, str]]:
        """(check, message) for every constraint on a type, as the generated code reports it."""
        found: list[tuple[str, str]] = []
        if isinstance(t, ir.NullableType):
            return self.checks(t.inner)
        messages = getattr(t, "messages", {})
        limits = {
            "minLength": getattr(t, "min_length", None),
            "maxLength": getattr(t, "max_length", None),
            "pattern": getattr(t, "pattern", None),
            "minItems": getattr(t, "min_items", None),
            "maxItems": getattr(t, "max_items", None),
            "minimum": getattr(t, "minimum", None),
            "maximum": getattr(t, "maximum", None),
        }
        for keyword, message in messages.items():
            if keyword == "type" or keyword == "int64":
                continue
            limit = limits.get(keyword)
            shown = f"{keyword}: {md_json(limit, True)}" if limit is not None else keyword
            found.append((shown, md_code(message, True)))
        if isinstance(t, ir.ListType):
            found.extend((f"each item: {c}", m) for c, m in self.checks(t.item))
        if isinstance(t, ir.MapType):
            found.extend((f"each value: {c}", m) for c, m in self.checks(t.value))
        return found

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
            checks = [("required", md_code(f.required_message, True))] if f.required else []
            checks += self.checks(f.type)
            rows.append(
                FieldRow(
                    wire=md_name(f.wire_name),
                    json_type=self.json_type(f.type),
                    code=tuple(md_decl(d.fields[model.name, f.wire_name]) for d in self.code),
                    required="yes" if f.required else "no",
                    default=default,
                    description=md_inline(f.description),
                    checks=tuple(checks),
                )
            )
        return ModelSection(
            name=model.name,
            anchor=anchor(model.name),
            description=md_paragraph(model.description),
            fields=tuple(rows),
            closed=model.closed,
            unknown_message=md_code(model.unknown_message),
            rules=tuple((self.rule_text(r), md_code(r.message, True)) for r in model.rules),
        )

    def behaviour(self) -> str:
        """The format's behaviour section (specs/<format>/behaviour/docs.md), or ""."""
        if self.behaviour_set is None:
            return ""
        return docs_text(self.behaviour_set, self.fmt, go_package(self.fmt.id), go_package(self.behaviour_set.format_id))

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
            case ir.StringType() | ir.DateTimeType() | ir.BytesType():
                return "string"
            case ir.NumericType():
                return "number"
            case ir.BooleanType():
                return "boolean"
            case ir.AnyType():
                return "any"
            case ir.TupleType():
                return "tuple"
            case ir.UnionType():
                return "union"
        raise AssertionError(f"the docs' diagram has no word for the type kind {t.kind!r}")

    def page(self, history: list[dict[str, str]], label: str) -> str:
        fmt = self.fmt
        models = [self.model_section(m) for m in fmt.models]
        enums = [
            EnumSection(
                e.name,
                anchor(e.name),
                md_paragraph(e.description),
                tuple((md_json(v, True), md_inline(e.value_descriptions.get(v, ""))) for v in e.values),
                tuple((k, md_code(m, True)) for k, m in e.messages.items() if k != "type"),
            )
            for e in fmt.definitions
            if isinstance(e, ir.Enum)
        ]
        aliases = [
            AliasSection(
                a.name,
                anchor(a.name),
                md_paragraph(a.description),
                self.json_type(a.type),
                tuple((k, md_code(m, True)) for k, m in getattr(a.type, "messages", {}).items() if k != "type"),
            )
            for a in fmt.definitions
            if isinstance(a, ir.Alias)
        ]
        invalid = [
            (
                md_inline(case.name),
                md_paragraph(case.description),
                json_text(case.data, indent=2),
                [(md_code(e["path"] or "/", True), md_code(e["message"], True)) for e in case.errors],
            )
            for case in fmt.invalid_examples
        ]
        return render(
            "markdown/format.md.j2",
            header=html_comment(header(fmt.source, self.behaviour_set.source("docs") if self.behaviour_set else None)),
            fmt=fmt,
            format_id=md_code(fmt.id),
            title=md_heading(label),
            description=md_paragraph(fmt.description),
            root=self.link(fmt.root),
            languages=[d.label for d in self.code],
            places=[f"{d.label}: {d.noun + ' ' if d.noun else ''}{md_code(d.where)}." for d in self.code],
            models=models,
            enums=enums,
            aliases=aliases,
            diagram=self.diagram(),
            valid=[(md_inline(name), json_text(data, indent=2)) for name, data in fmt.valid_examples],
            invalid=invalid,
            decisions=[md_paragraph(d) for d in fmt.decisions],
            history=history,
            version=md_inline(fmt.version),
            behaviour=self.behaviour(),
            fence=lambda text: "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0)),
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
        rows = [
            {
                "version": md_inline(str(h["version"])),
                "class": md_inline(str(h["class"])),
                "changes": "; ".join(md_inline(str(c)) for c in h["changes"]) or "first release",  # type: ignore[attr-defined]
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
        # mkdocs puts navigation labels into the HTML of every page as they are: escaped here.
        nav = [(yaml_str(html_text(labels[f.id])), yaml_str(f"{f.id}.md")) for f in ctx.formats]
        files["mkdocs.yml"] = render("markdown/mkdocs.yml.j2", header=header(None), nav=nav)
        files["docs/assets/chatspec.css"] = render("markdown/chatspec.css.j2", header=header(None))
        files["docs/assets/mermaid-init.js"] = render("markdown/mermaid-init.js.j2", header=header(None))
        # mkdocs reads docs/templates/ as theme files only (its default exclude_docs leaves the folder out of the site).
        files["docs/templates/main.html"] = render("markdown/theme-main.html.j2", header=header(None))
        return files

    def shared_files(self, options: object) -> frozenset[str]:
        return frozenset(
            {"docs/index.md", "docs/assets/mermaid-init.js", "docs/assets/chatspec.css", "docs/templates/main.html", "mkdocs.yml"}
        )


TARGET = DocsTarget()

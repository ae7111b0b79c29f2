"""The docs' text helpers (generator/targets/markdown.py) read back by the two Markdown readers the pages meet.

A page is read by CommonMark (GitHub, markdown-it here) and by Python-Markdown with the extensions the site
builds with (templates/markdown/mkdocs.yml.j2). Whatever a spec's text holds, each helper's output must show
that text and nothing else: no markup it spells by accident (`*a*`, `<b>`, `&lt;` turned into `<`), no cell
split by a pipe, no line break lost or made up. The expected text is worked out from the input alone, so a
helper that forgets one escape fails here, not only in the golden bytes.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from generator import invisible
from generator.targets.markdown import (
    md_change,
    md_code,
    md_decl,
    md_heading,
    md_inline,
    md_json,
    md_message,
    md_name,
    md_paragraph,
    md_text,
)

# What spec text is made of where it hurts: every character Markdown or HTML reads as syntax, entity-like
# runs, line breaks of each spelling, and plain words around them.
_SYNTAX = list("&<>|\\`*_[]{}~#!-+=.():\"' \t") + [
    "\r\n",
    "\r",
    "\n",
    "&amp;",
    "&lt;",
    "&#124;",
    "<b>",
    "</td>",
    "1.",
    "**",
    "~~",
    # a message template's placeholders, and its escaped brace
    "{index}",
    "{field}",
    "{value}",
    "{{",
    "``",
    # what opens raw HTML at the start of a line, with no ">"
    "<div ",
    "<!--",
    "<script",
    "<?",
]
TEXT = st.lists(st.sampled_from(_SYNTAX) | st.text(alphabet="abcXYZ09é😀\u200b", min_size=1, max_size=3), max_size=14).map("".join)
ONE_LINE = TEXT.map(lambda t: re.sub(r"[\r\n]", " ", t))


def _commonmark(text: str) -> str:
    # As GitHub reads it: CommonMark with GFM's tables and ~~strikethrough~~.
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).render(text)


def _python_markdown(text: str) -> str:
    # As the site reads it (mkdocs: Python-Markdown with the tables extension).
    # (Not named "site": make mutate deselects the browser tests with -k "not site".)
    return markdown.markdown(text, extensions=["tables"])


READERS = {"commonmark": _commonmark, "python_markdown": _python_markdown}


class _Cells(HTMLParser):
    """The text and the attributes of each element named `tag`, and the tags met inside them (entities read as the
    browser does)."""

    def __init__(self, tag: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tag, self.depth, self.texts, self.inner = tag, 0, list[str](), set[str]()
        self.attrs: list[list[tuple[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == self.tag:
            self.depth += 1
            self.texts.append("")
            self.attrs.append(attrs)
        elif self.depth:
            self.inner.add(tag)
            if tag == "br":
                self.texts[-1] += "\x01"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == self.tag:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.texts[-1] += data


def _read(page_html: str, tag: str) -> tuple[list[str], set[str]]:
    parser = _Cells(tag)
    parser.feed(page_html)
    parser.close()
    return parser.texts, parser.inner


def _cell(reader: str, cell: str) -> tuple[str, set[str]]:
    """The one body cell of a one-column table holding `cell`, as the reader shows it."""
    texts, inner = _read(READERS[reader]("| head |\n|---|\n| " + cell + " |\n"), "td")
    assert len(texts) == 1, f"{reader} made {len(texts)} cells of {cell!r}"
    return texts[0], inner


def _code_text(text: str) -> str:
    """What a code cell shows of text: exactly it, its line breaks as \\n and \\r, invisible characters spelt."""
    return invisible.shown(text.replace("\n", "\\n").replace("\r", "\\r"))


@pytest.mark.parametrize("reader", READERS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=TEXT)
def test_inline_text_reads_back_as_itself_in_a_table_cell(reader: str, text: str) -> None:
    shown, inner = _cell(reader, md_inline(text))
    assert shown.strip() == " ".join(invisible.shown(text).split()) and not inner


@pytest.mark.parametrize("reader", READERS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=ONE_LINE)
def test_a_heading_reads_back_as_itself(reader: str, text: str) -> None:
    texts, inner = _read(READERS[reader]("# " + md_heading(text) + "\n"), "h1")
    assert texts == [" ".join(invisible.shown(text).split())] and not inner


@pytest.mark.parametrize("reader", READERS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=TEXT)
def test_a_paragraph_keeps_every_line_break_of_each_spelling_and_shows_nothing_else(reader: str, text: str) -> None:
    # Each line break ("\r\n", "\r" or "\n") is a line on the page; a blank line between text starts a paragraph.
    lines = [" ".join(invisible.shown(line).split()) for line in re.split(r"\r\n|\r|\n", text)]
    paragraphs, current = [], list[str]()
    for line in [*lines, ""]:
        if line:
            current.append(line)
        elif current:
            paragraphs.append("\n".join(current))
            current = []
    texts, inner = _read(READERS[reader](md_paragraph(text)), "p")
    # HTML folds white space; a <br> (read as \x01) is the line break.
    assert [re.sub(r" ?\x01 ?", "\n", " ".join(t.split())) for t in texts] == paragraphs and inner <= {"br"}


@pytest.mark.parametrize("in_table", [True, False])
@pytest.mark.parametrize("reader", READERS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=TEXT)
def test_code_shows_the_text_exactly_in_a_cell_and_on_a_line(reader: str, in_table: bool, text: str) -> None:
    if in_table:
        shown, inner = _cell(reader, md_code(text, True))
        assert inner == {"code"}
        texts = [shown]
    else:
        texts, _ = _read(READERS[reader]("x " + md_code(text) + " y\n"), "code")
    assert texts == [_code_text(text)]


@pytest.mark.parametrize("reader", READERS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=TEXT, nested=st.booleans())
# A line break where the text may also break (<wbr>): after type punctuation, in a very long name.
@example(text="items map[string]\nItem|x", nested=True)
@example(text="a_very_long_name_that_may_wrap_between_words\r\nnext", nested=False)
@example(text="map[string]Item.id", nested=False)
def test_names_and_declarations_show_the_text_exactly_and_may_break_only_where_a_wbr_says(reader: str, text: str, nested: bool) -> None:
    shown, inner = _cell(reader, (md_decl if nested else md_name)(text))
    assert shown == _code_text(text) and inner <= {"code", "wbr"}
    # A name breaks only inside a very long run of word characters, never after type punctuation ("a.b").
    assert nested or "wbr" not in inner or re.search(r"[\w-]{25,}", invisible.shown(text))


@pytest.mark.parametrize("reader", READERS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(template=TEXT, field=st.none() | ONE_LINE)
def test_a_message_shows_its_text_exactly_and_each_placeholder_as_a_var(reader: str, template: str, field: str | None) -> None:
    # What the reader of the docs must see: the message as the code reports it, a placeholder the check cannot
    # fill ({index}, {value}, {field} where it is not known) as its name in <var>, "{{" as "{".
    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        return "{" if name is None else field if name == "field" and field is not None else f"\x00{name}\x00"

    filled = re.sub(r"\{\{|\{(index|field|value)\}", fill, template)
    shown, inner = _cell(reader, md_message(template, field))
    names = re.findall(r"\x00(\w+)\x00", filled)
    expected = _code_text(filled.replace("\x00", ""))
    assert inner <= {"code", "var"} and ("var" in inner) == bool(names)
    assert shown == expected


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("value", ["a|b", "<b>x</b>", "`", "  ", "\r\n", {"k": "&lt;|"}, [1, "*x*"], 1e300, None])
def test_a_json_value_shows_as_its_json_text(reader: str, value: object) -> None:
    import json

    shown, _ = _cell(reader, md_json(value, True))
    assert shown == _code_text(json.dumps(value, ensure_ascii=False))


@pytest.mark.parametrize("reader", READERS)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    words=st.lists(
        st.sampled_from(["the", "field", "Message.tool_call_id", "allowed_when", "content-type", "a.b", "x", " ", "  ", "*"]), max_size=8
    )
)
@example(words=["Message.tool_call_id", " ", "was", " ", "added"])
@example(words=["from", " ", "content-type", "to", " ", "allowed_when"])
def test_a_changelog_line_reads_as_written_with_its_names_as_code(reader: str, words: list[str]) -> None:
    # The names go in as code, the prose around them as text: the words and the spaces between them stay as written.
    text = "".join(words)
    shown, inner = _cell(reader, md_change(text))
    assert " ".join(shown.split()) == " ".join(text.split()) and inner <= {"code", "wbr"}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("text", ["a `b` c", "`x`y", "x`y`", "the `minLength` of a string", "` spaced `  and  `|pipe|`", "no code"])
def test_chatspecs_own_prose_keeps_its_code_and_the_spaces_around_it(reader: str, text: str) -> None:
    shown, inner = _cell(reader, md_text(text))
    assert " ".join(shown.split()) == " ".join(text.replace("`", "").split()) and inner <= {"code", "wbr"}


def test_the_mkdocs_hook_labels_each_cell_with_its_heading_as_one_attribute_whatever_the_heading_holds() -> None:
    # generated/mkdocs_hooks.py (templates/markdown/hooks.py.j2), which mkdocs runs on every page: the headings
    # are chatspec's own words, but a heading holding a quote, markup or an entity must stay one attribute value.
    import importlib.util

    from conftest import GENERATED

    spec = importlib.util.spec_from_file_location("chatspec_mkdocs_hooks", GENERATED / "mkdocs_hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    headings = ['x" onmouseover="alert(1)', "<b>Type</b> &amp; kind", "it's"]
    table = ("<p>before</p><table><thead><tr>" + "".join(f"<th>{h}</th>" for h in headings) + "</tr></thead><tbody>"
             '<tr><td>a</td><td class="c">b</td><td>c</td></tr><tr><td>d</td><td>e</td><td>f</td></tr></tbody></table><p>after</p>')
    page = hooks.on_page_content(table)
    cells = _Cells("td")
    cells.feed(page)
    labels = ['x" onmouseover="alert(1)', "Type & kind", "it's"]
    assert cells.attrs == [[("data-label", labels[0])], [("data-label", labels[1]), ("class", "c")], [("data-label", labels[2])]] + [
        [("data-label", label)] for label in labels]
    assert page.startswith("<p>before</p>") and page.endswith("<p>after</p>")

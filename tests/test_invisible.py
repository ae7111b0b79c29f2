"""Trojan Source: the characters that hide or reorder text (generator/invisible.py) are never written raw.

Each spelling that carries spec text into an output is held to two things for every character of
the set: the output holds none raw, and where the output is a literal, it reads back as the text.
"""

from __future__ import annotations

import ast
import json
import unicodedata

import pytest
import yaml
from markdown_it import MarkdownIt

from generator import invisible
from generator.errors import SpecError
from generator.export import schema_text
from generator.messages import show_control_characters
from generator.targets.go.literals import go_comment, go_str
from generator.targets.markdown import html_text, json_text, md_code, md_decl, md_heading, md_inline, md_json, md_name, md_paragraph, yaml_str
from generator.targets.pydantic.models import escape_invisible
from generator.targets.python.literals import py_docstring, py_str, py_value
from generator.targets.typescript.literals import ts_doc, ts_json, ts_str

# Default_Ignorable_Code_Point, from Unicode 15.1's DerivedCoreProperties.txt (Python's unicodedata has no such property).
DEFAULT_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
# The bidirectional controls (Bidi_Control) the issue names: Trojan Source's own characters.
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _members() -> set[int]:
    return {code for lo, hi in invisible.RANGES for code in range(lo, hi + 1)}


SET = "".join(chr(c) for c in sorted(_members()))
# One text holding every character of the set, each between visible ones, and a few that need care beside them.
TEXT = "a" + "b".join(SET) + "z \"quote\" \\backslash */ --> ]]> </script>"


def test_the_set_holds_every_default_ignorable_format_and_separator_character() -> None:
    members = _members()
    ignorable = {c for lo, hi in DEFAULT_IGNORABLE for c in range(lo, hi + 1)}
    assert ignorable <= members
    assert {ord(c) for c in BIDI} <= members
    # Every format character, line and paragraph separator Python's Unicode database knows.
    categorised = {c for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cf", "Zl", "Zp")}
    assert categorised <= members, sorted(hex(c) for c in categorised - members)
    # ... and nothing else but the C1 controls and code points not assigned yet (U+13439-U+1343F in Unicode 14).
    others = {c for c in members - ignorable - categorised if not 0x80 <= c <= 0x9F}
    assert all(unicodedata.category(chr(c)) == "Cn" for c in others), sorted(hex(c) for c in others)


def test_visible_text_is_not_in_the_set() -> None:
    for text in ("plain ASCII", "ünïcödé", "עברית", "العربية", "日本語", "😀", " \t\n", "\u00a0", "\u3000"):
        assert invisible.first(text) is None, text


@pytest.mark.parametrize("ch", list(BIDI + "\u200b\u200d\u00ad\u3164\ufe0f\U000e0041\u2028\u009b"))
def test_each_escape_reads_back_as_the_character(ch: str) -> None:
    assert ast.literal_eval(f'"{invisible.u_escape(ch)}"') == ch  # Python (and Go, whose \u and \U are the same)
    assert json.loads(f'"{invisible.json_escape(ch)}"') == ch
    assert yaml.safe_load(f'k: "{invisible.u_escape(ch)}"') == {"k": ch}


def test_string_literals_are_exact_and_hold_none_raw() -> None:
    for literal, read in ((py_str(TEXT), ast.literal_eval), (py_value([TEXT, {TEXT: TEXT}]), ast.literal_eval),
                          (go_str(TEXT), ast.literal_eval), (ts_str(TEXT), json.loads), (ts_json({TEXT: [TEXT]}), None),
                          (schema_text({"d": TEXT}), json.loads), (json_text({"d": TEXT}, indent=2), json.loads)):
        assert invisible.first(literal) is None, literal[:80]
        if read is not None:
            value = read(literal)
            assert value in (TEXT, [TEXT, {TEXT: TEXT}], {"d": TEXT}), literal[:80]
    assert yaml.safe_load(f"k: {yaml_str(TEXT)}") == {"k": TEXT}
    assert invisible.first(yaml_str(TEXT)) is None


def test_docstrings_keep_the_text_and_comments_show_each_escape() -> None:
    docstring = py_docstring(TEXT)
    assert invisible.first(docstring) is None and ast.literal_eval(docstring) == TEXT
    for comment in ("\n".join(go_comment(TEXT)), ts_doc(TEXT), show_control_characters(TEXT)):
        assert invisible.first(comment) is None
        assert "\\u202e" in comment or "\\u{202e}" in comment


def test_a_pydantic_module_gets_escapes_inside_its_strings_and_comments_only() -> None:
    code = (f'# {TEXT}\nclass A:\n    """\n    {TEXT.replace(chr(92), chr(92) * 2)}\n    """\n\n    x: str = {TEXT!r}\n'
            f'    y: str = r"a\\d{SET[:40]}"\n')
    escaped = escape_invisible(code)
    assert invisible.first(escaped) is None
    tree = ast.parse(escaped)
    cls = tree.body[0]
    assert isinstance(cls, ast.ClassDef)
    assert ast.get_docstring(cls, clean=False) == f"\n    {TEXT}\n    "
    assert ast.literal_eval(cls.body[1].value) == TEXT  # type: ignore[attr-defined]
    assert ast.literal_eval(cls.body[2].value) == "a\\d" + SET[:40]  # type: ignore[attr-defined]  # a raw string, written again


def test_the_docs_show_each_character_as_its_escape() -> None:
    parser = MarkdownIt("commonmark", {"html": True}).enable("table")
    for text in (md_inline(TEXT), md_heading(TEXT), md_paragraph(TEXT), md_code(TEXT), md_code(TEXT + "|", True),
                 md_name(TEXT), md_decl(TEXT), md_json(TEXT), html_text(TEXT)):
        assert invisible.first(text) is None, text[:80]
    html = parser.render(md_inline("a\u202eb\u200bc"))
    assert "a\\u202eb\\u200bc" in html


def test_an_error_message_never_prints_one_raw() -> None:
    error = SpecError("specs/x/spec.json", "/$defs/A/properties/us\u202eer", "the name 'us\u3164er'", "remove \u200b")
    assert invisible.first(str(error)) is None
    assert "us\\u202eer" in str(error) and "us\\u3164er" in str(error)

"""The generated docs: intact tables, no injected HTML, resolving links, lint-clean, and a site that renders."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import html as html_lib
import html.parser as html_parser
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml
from jsonschema import Draft202012Validator
from markdown_it import MarkdownIt

from conftest import GENERATED, GOLDEN, ROOT, format_folders, run_chatspec
from generator import ir
from generator.core import discover, generate
from generator.load import load_spec
from generator.lower import lower
from generator import invisible
from generator.targets.markdown import md_decl, md_name, md_paragraph, nav_labels, yaml_str

DOCS = GENERATED / "docs"
FOLDERS = format_folders()
FORMATS = list(FOLDERS)
GOLDEN_CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
# The only HTML a page may contain: what Markdown itself produces, <code> for code with pipes
# in tables, <wbr> where a long type in a table may wrap, and <var> for a message's placeholder.
ALLOWED_TAGS = {"p", "h1", "h2", "h3", "h4", "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "a", "strong", "ol", "ul", "li", "br", "wbr",
                "var"}
# The widths the site is read at: a desktop window, and a phone (where each table row is a stack of labelled cells).
WIDTHS = (1280, 390)
_HEADING = re.compile(r"^#{1,6} (.*?)\s*$", re.M)


def _slug(heading: str) -> str:
    """The id GitHub and mkdocs give a heading: lower case, punctuation dropped, spaces as dashes."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).strip().replace(" ", "-")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _pages() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(DOCS.glob("*.md"))}


def _golden_pages() -> dict[str, str]:
    files = generate([load_spec(GOLDEN / case, ROOT) for case in GOLDEN_CASES], targets=["docs"])
    return {path: text for path, text in files.items() if path.endswith(".md")}


def _table_problems(name: str, text: str) -> list[str]:
    """Rows whose cell count differs from their header's, split as GitHub does (every unescaped pipe)."""
    problems = []
    header_cells = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.startswith("|"):
            header_cells = None
            continue
        cells = len(_UNESCAPED_PIPE.findall(line))
        if header_cells is None:
            header_cells = cells
        elif cells != header_cells:
            problems.append(f"{name}:{number}: {cells - 1} cells where the header has {header_cells - 1}: {line[:200]}")
    return problems


def _html_tags(text: str) -> set[str]:
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    html = re.sub(r"<!--.*?-->", "", html, flags=re.S)
    return {m.lower() for m in re.findall(r"</?([A-Za-z][A-Za-z0-9-]*)", html)}


@pytest.mark.parametrize("source", ["formats", "golden"])
def test_tables_stay_intact_and_no_html_is_injected(source: str) -> None:
    pages = _pages() if source == "formats" else _golden_pages()
    assert pages
    problems = [p for name, text in pages.items() for p in _table_problems(name, text)]
    assert not problems, "\n".join(problems)
    for name, text in pages.items():
        extra = _html_tags(text) - ALLOWED_TAGS
        assert not extra, f"{name}: HTML tags from spec text reached the page: {sorted(extra)}"


@pytest.mark.parametrize("text", ["-->", "--!>", "a--b", "x->y", "--->", "<!-- nested -->", "ends in -", ">"])
def test_text_in_the_header_comment_cannot_close_it(text: str) -> None:
    # The page's header comment names the spec's files: whatever they hold, the comment ends where it should.
    from generator.targets.markdown import html_comment

    class Parts(html_parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.parts: list[tuple[str, str]] = []

        def handle_comment(self, data: str) -> None:
            self.parts.append(("comment", data))

        def handle_data(self, data: str) -> None:
            self.parts.append(("data", data))

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            self.parts.append(("tag", tag))

    parser = Parts()
    parser.feed(f"<!-- {html_comment(text)} --><p>after</p>")
    parser.close()
    assert parser.parts == [("comment", f" {html_comment(text)} "), ("tag", "p"), ("data", "after")], parser.parts
    assert "--" not in html_comment(text) and ">" not in html_comment(text)


def test_a_rule_kind_the_docs_have_no_text_for_is_an_error_not_a_blank() -> None:
    # A rule kind added to the meta-schema and the IR but not to the docs must stop the run, not print "None".
    from generator.targets.markdown import FormatPage

    page = FormatPage(lower(load_spec(GOLDEN / "constraints", ROOT)), ())
    with pytest.raises(ValueError, match="the docs have no text for rule kind 'no_such_kind'"):
        page.rule_text(ir.Rule(kind="no_such_kind", message="m", after=None, fields=("x",)))


def test_a_type_kind_the_docs_have_no_words_for_is_an_error_not_a_blank() -> None:
    # A type kind added to the IR but not to the docs must stop the run, not print "None" in a Type cell.
    import dataclasses

    from generator.targets.markdown import FormatPage, json_kind

    @dataclasses.dataclass(frozen=True)
    class NoSuchType:
        kind: str = "no_such_type"

    page = FormatPage(lower(load_spec(GOLDEN / "constraints", ROOT)), ())
    with pytest.raises(AssertionError, match="no JSON type for the type kind 'no_such_type'"):
        json_kind(NoSuchType())  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="no JSON shape for the type kind 'no_such_type'"):
        page.json_type(NoSuchType())  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="diagram has no word for the type kind 'no_such_type'"):
        page.short_type(NoSuchType())  # type: ignore[arg-type]


def test_the_diagram_marks_each_definition_as_what_it_is() -> None:
    # A union alias is <<union>>, another alias <<type>>, an enum <<enumeration>> (nested_unions has all three).
    from generator.targets.markdown import FormatPage

    fmt = lower(load_spec(GOLDEN / "nested_unions", ROOT))
    lines = FormatPage(fmt, ()).diagram()
    marks = {lines[i - 1].strip().removeprefix("class ").removesuffix(" {"): line.strip()
             for i, line in enumerate(lines) if line.strip().startswith("<<")}
    want = {d.name: "<<enumeration>>" if isinstance(d, ir.Enum) else "<<union>>" if isinstance(d.type, ir.UnionType) else "<<type>>"
            for d in fmt.definitions if not isinstance(d, ir.Model)}
    assert marks == want and set(want.values()) >= {"<<union>>", "<<type>>"}, (marks, want)


def test_a_title_ending_in_hashes_keeps_them_in_its_heading() -> None:
    # Python-Markdown (the site) and CommonMark read a closing run of # as the end of an ATX heading.
    import markdown

    spec = load_spec(GOLDEN / "hostile_descriptions", ROOT)
    spec.document["title"] = "Chat for C# ##"
    page = generate([spec], targets=["docs"])["docs/hostile_descriptions.md"]
    heading = next(line for line in page.splitlines() if line.startswith("# "))
    assert markdown.markdown(heading) == "<h1>Chat for C# ##</h1>"
    assert MarkdownIt("commonmark").render(heading) == "<h1>Chat for C# ##</h1>\n"


def test_hostile_text_is_shown_not_interpreted() -> None:
    page = next(text for path, text in _golden_pages().items() if path.endswith("hostile_descriptions.md"))
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(page)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html
    assert "pipe" in page and "&lt;em&gt;html&lt;/em&gt;" in html


def test_every_link_and_anchor_resolves() -> None:
    pages = _pages()
    ids = {name: {_slug(h) for h in _HEADING.findall(text)} for name, text in pages.items()}
    parser = MarkdownIt("commonmark").enable("table")
    checked = 0
    for name, text in pages.items():
        for token in parser.parse(text):
            for child in token.children or []:
                if child.type != "link_open":
                    continue
                href = str(child.attrs["href"])
                target, _, fragment = href.partition("#")
                target = target or name
                if target.endswith(".md"):
                    assert target in pages, f"{name}: link to missing page {href}"
                    assert not fragment or fragment in ids[target], f"{name}: link to missing anchor {href}"
                else:
                    assert (DOCS / target).is_file(), f"{name}: link to missing file {href}"
                checked += 1
    assert checked > 20


def test_every_field_of_every_model_is_on_its_page() -> None:
    for spec in discover(ROOT / "specs", ROOT):
        fmt = lower(spec)
        page = (DOCS / f"{fmt.id}.md").read_text(encoding="utf-8")
        for model in fmt.models:
            section = page.split(f"\n### {model.name}\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
            for field in model.fields:
                assert f"| {md_name(field.wire_name)} |" in section, f"{fmt.id}: {model.name}.{field.wire_name} missing"
        for example in fmt.invalid_examples:
            for error in example.errors:
                assert error["message"] in page, f"{fmt.id}: message of {example.name} missing"
        decisions = page.split("## Decisions", 1)[-1].split("## Changelog", 1)[0]
        for decision in fmt.decisions:
            assert md_paragraph(decision).replace("\n", "\n    ") in decisions, f"{fmt.id}: decision missing: {decision[:60]}"


def test_index_lists_every_format_with_its_version() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for spec in discover(ROOT / "specs", ROOT):
        assert f"]({spec.format_id}.md)" in index and f"| {spec.document['x-version']} |" in index


def test_every_output_is_named_wherever_the_outputs_are_listed() -> None:
    # The index, `chatspec --help`, `generate --help` and `vendor --help` list what chatspec makes: a target
    # added to the registry (TypeScript was left out of all four) must be named in each.
    from generator.core import context
    from generator.targets import REGISTRY, vendorable

    specs = discover(ROOT / "specs", ROOT)
    ctx = context(specs, tuple(lower(s) for s in specs))
    labels = {d.label for d in ctx.descriptions[specs[0].format_id]}
    by_name = {t.name: d.label for t in REGISTRY if (d := t.describe(ctx.formats[0], ctx)) is not None}
    assert labels == set(by_name.values()) >= {"Python", "Go", "TypeScript"}
    intro = generate(specs, targets=["docs"])["docs/index.md"].split("\n| ", 1)[0]
    overall = run_chatspec(None, "--help").stdout
    generate_help = " ".join(run_chatspec(None, "generate", "--help").stdout.split())
    vendor_help = " ".join(run_chatspec(None, "vendor", "--help").stdout.split())
    for label in labels:
        assert label in " ".join(intro.split()) and label in " ".join(overall.split()), label
    for target in REGISTRY:
        assert f"{target.name}/" in generate_help, f"generate --help does not name {target.name}/"
    for name in vendorable():
        assert by_name[name] in vendor_help.split("options:")[0], f"vendor --help does not name {by_name[name]}"
        assert f"{name}:" in vendor_help, f"vendor --help does not say where --out puts {name}"


def test_markdown_lint_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "pymarkdown", "scan", *sorted(str(p) for p in DOCS.glob("*.md"))],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_navigation_labels_stay_unique_when_titles_repeat() -> None:
    def fmt(id_: str, title: str, version: str) -> ir.Format:
        return ir.Format(id=id_, version=version, title=title, description="", decisions=(), root="A", definitions=(), source="")

    labels = nav_labels([fmt("chat", "Chat", "2.1.0"), fmt("chat_v1", "Chat", "1.4.0"), fmt("other", "Other", "1.0.0"),
                         fmt("twin_a", "Twin", "1.0.0"), fmt("twin_b", "Twin", "1.0.0"), fmt("blank", "  ", "1.0.0")])
    assert labels == {"chat": "Chat 2.x", "chat_v1": "Chat 1.x", "other": "Other", "twin_a": "Twin 1.x (twin_a)",
                      "twin_b": "Twin 1.x (twin_b)", "blank": "blank"}


@pytest.mark.parametrize("text", ["plain", 'quote " and \\ backslash', "<img src=x onerror=alert(1)>", "tab\tnew\nline\u2028sep\x85nel",
                                  "#: not a comment", "- not a list", "ünï 😀", "\ufeffbom", "{a: b}", "&amp;", "delete \x7f",
                                  # lone surrogates (a spec's JSON may escape one) at both ends of their range, and beside it
                                  "lone \ud800", "lone \udfff", "\ud7ff\ue000"])
def test_yaml_strings_read_back_exactly(text: str) -> None:
    assert yaml.safe_load(f"key: {yaml_str(text)}") == {"key": text}
    yaml_str(text).encode("utf-8")  # mkdocs.yml is written as UTF-8, which holds no lone surrogate


def test_yaml_strings_write_what_needs_no_escape_as_it_is() -> None:
    # mkdocs.yml is read by people too: only the quote, the backslash, control and line-break characters, lone
    # surrogates and characters that hide text are escaped; spaces, punctuation and letters past ASCII are not.
    text = "Agent C Chat Event ~ (v2) ünï 😀 !#%&*+,-./:;<=>?@[]^_`{|}'"
    assert yaml_str(text) == f'"{text}"'
    assert yaml_str('a "b" \\ c') == '"a \\"b\\" \\\\ c"'


def test_only_a_very_long_name_may_wrap_and_only_between_its_words() -> None:
    assert md_name("default_conversation_id") == "`default_conversation_id`"
    assert md_name("a_field_name_longer_than_any_column") == (
        "<code>a&#95;<wbr>field&#95;<wbr>name&#95;<wbr>longer&#95;<wbr>than&#95;<wbr>any&#95;<wbr>column</code>")
    assert md_decl("AFieldNameLongerThanAnyColumn string") == "<code>AField<wbr>Name<wbr>Longer<wbr>Than<wbr>Any<wbr>Column string</code>"
    assert md_name("x" * 40) == "`" + "x" * 40 + "`"  # one word: never broken


def test_declarations_may_wrap_between_the_parts_of_a_type_but_never_inside_a_name() -> None:
    assert md_decl("message_id: str") == "`message_id: str`"
    assert md_decl("Items map[string]Item") == "<code>Items map&#91;<wbr>string&#93;<wbr>Item</code>"
    assert md_decl("input_id: str | None") == "<code>input&#95;id: str &#124; None</code>"
    assert md_decl("At time.Time") == "<code>At time.<wbr>Time</code>"
    assert md_decl("Blocks []Block") == "`Blocks []Block`"  # no break right after a space
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render("| a |\n|---|\n| " + md_decl("x: dict[str, list[A|B]]") + " |\n")
    assert "<code>x: dict[<wbr>str, list[<wbr>A|B]]</code>" in html


def test_downloadable_schemas_are_the_exported_ones_and_valid_2020_12() -> None:
    for fmt in FORMATS:
        exported = (GENERATED / "jsonschema" / f"{fmt}.schema.json").read_text(encoding="utf-8")
        assert (DOCS / "schemas" / f"{fmt}.schema.json").read_text(encoding="utf-8") == exported
        Draft202012Validator.check_schema(json.loads(exported))


# --- the site, built and opened in a browser ----------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
_CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                   "--disable-background-networking", "--disable-component-update", "--disable-sync",
                   "--virtual-time-budget=15000"]


def _need(tool: str | None, what: str) -> None:
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is required in CI (.ci/run installs it)")
        pytest.skip(f"{what} is not installed: the site was not checked in a browser")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _need(shutil.which("npm"), "npm")
    done = subprocess.run(["make", "-s", "docs"], capture_output=True, text=True, cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return ROOT / "build" / "site"


def _dom(url: str, profile: Path, width: int) -> str:
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *_CHROMIUM_FLAGS, f"--window-size={width},900", f"--user-data-dir={profile}", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@contextlib.contextmanager
def _served(directory: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_site_renders_in_a_browser(site: Path, site_reports: dict[int, dict[str, dict[str, Any]]]) -> None:
    index = site_reports[1280]["index.html"]["dom"]
    for fmt in FORMATS:
        assert f'href="{fmt}.html"' in index, f"the index does not list {fmt}"
    assert 'href="spec-language.html"' in index, "the index does not link the spec language"
    for fmt in FORMATS:
        page = site_reports[1280][f"{fmt}.html"]["dom"]
        models = lower(load_spec(FOLDERS[fmt], ROOT, format_id=fmt)).models
        assert page.count("<table") >= len(models), f"{fmt}: the tables did not render"
        for model in models:
            assert f'id="{model.name.lower()}"' in page
        assert re.search(r'class="mermaid-diagram"[^>]*>\s*<svg[^>]*aria-roledescription="class"', page), \
            f"{fmt}: the Mermaid diagram was not rendered to SVG"
    assert (site / "schemas" / "structured_conversation.schema.json").is_file()


# Runs in each page of a copy of the site once it has rendered (Mermaid included), and
# leaves its findings in the DOM: tables wider than their box, identifiers split over
# two lines, elements and handlers that spec text injected, and the flag payloads set.
_PROBE = r"""
window.addEventListener("load", function () {
  setTimeout(function () {
    var report = {width: window.innerWidth, tables: 0, codes: 0, overflow: [], broken: [], injected: [], stacked: 0, unlabelled: [],
                  flag: window.__chatspec_xss === undefined ? null : String(window.__chatspec_xss),
                  nav: Array.from(document.querySelectorAll(".md-nav--primary a.md-nav__link")).filter(function (a) { return !a.closest(".md-nav--secondary"); }).map(function (a) { return a.textContent.trim(); }),
                  title: document.title};
    document.querySelectorAll("article table").forEach(function (table) {
      report.tables++;
      var head = table.rows[0].textContent.replace(/\s+/g, " ").trim();
      if (getComputedStyle(table).display === "block") report.stacked++;
      table.querySelectorAll("td").forEach(function (cell) {
        if (!cell.dataset.label) report.unlabelled.push(head + ": " + cell.textContent.slice(0, 60));
      });
      [table, table.parentElement, table.parentElement.parentElement].forEach(function (box) {
        if (box.scrollWidth > box.clientWidth) {
          report.overflow.push(head + ": " + box.tagName + "." + box.className + " " + box.scrollWidth + " > " + box.clientWidth);
        }
      });
    });
    document.querySelectorAll("article code").forEach(function (code) {
      if (code.closest("pre")) return;
      report.codes++;
      var walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), node;
      while ((node = walker.nextNode())) {
        // A word of letters, digits and _ ("tool_call_id", "MessageID") within one text node: code may
        // wrap at a space, after a hyphen, or where the page put a <wbr> (which ends the text node).
        var word = /[\p{L}\p{N}_]+/gu, m;
        while ((m = word.exec(node.data))) {
          var range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          var lines = new Set(Array.from(range.getClientRects()).map(function (r) { return Math.round(r.top); }));
          if (lines.size > 1) report.broken.push(m[0] + " in " + code.textContent);
        }
      }
    });
    document.querySelectorAll("body *").forEach(function (el) {
      if (el.id === "chatspec-probe-script") return;
      var handlers = Array.from(el.attributes).filter(function (a) { return /^on/i.test(a.name); });
      var foreign = ["IMG", "IFRAME", "OBJECT", "EMBED", "B", "I", "EM"].indexOf(el.tagName) >= 0 && el.closest("article, .md-sidebar");
      var script = el.tagName === "SCRIPT" && !el.src && el.closest("article, .md-sidebar");
      if (handlers.length || foreign || script) report.injected.push(el.outerHTML.slice(0, 200));
    });
    var out = document.createElement("pre");
    out.id = "chatspec-probe";
    out.textContent = JSON.stringify(report);
    document.body.appendChild(out);
  }, 1000);
});
"""


def _probe(site: Path, tmp_path: Path) -> dict[int, dict[str, dict[str, Any]]]:
    """Every page of a copy of the site, opened at each of WIDTHS: width -> page -> _PROBE's report, and the page's DOM as "dom"."""
    _need(CHROMIUM, "Chromium")
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    (copy / "chatspec-probe.js").write_text(_PROBE, encoding="utf-8")
    pages = sorted(p.name for p in copy.glob("*.html") if p.name != "404.html")
    for name in pages:
        html = (copy / name).read_text(encoding="utf-8")
        assert "</body>" in html, name
        tag = '<script id="chatspec-probe-script" src="chatspec-probe.js"></script>'
        (copy / name).write_text(html.replace("</body>", tag + "</body>"), encoding="utf-8")
    reports: dict[int, dict[str, dict[str, Any]]] = {width: {} for width in WIDTHS}
    with _served(copy) as base:
        for width in WIDTHS:
            for i, name in enumerate(pages):
                url = f"{base}/{name}"
                if width < _NARROWEST_WINDOW:
                    # Headless Chromium makes no window narrower than 500 px: the page opens in a frame that wide.
                    (copy / f"frame-{width}-{name}").write_text(_FRAME.replace("WIDTH", str(width)).replace("PAGE", name), encoding="utf-8")
                    url = f"{base}/frame-{width}-{name}"
                dom = _dom(url, tmp_path / f"profile{width}-{i}", max(width, _NARROWEST_WINDOW))
                found = re.search(r'<pre id="chatspec-probe">(.*?)</pre>', dom, re.S)
                assert found, f"{name}: the probe did not run at {width} px"
                framed = re.search(r'<pre id="chatspec-dom">(.*?)</pre>', dom, re.S)
                reports[width][name] = json.loads(html_lib.unescape(found.group(1))) | {"dom": html_lib.unescape(framed.group(1)) if framed else dom}
    return reports


_NARROWEST_WINDOW = 500
# A page opened in a frame WIDTH px wide; the probe's report and the page's DOM are copied out when it has run.
_FRAME = """<!doctype html><html><body style="margin:0">
<iframe id="page" src="PAGE" style="width:WIDTHpx;height:900px;border:0"></iframe>
<script>
var timer = setInterval(function () {
  var page = document.getElementById("page").contentDocument;
  var report = page && page.getElementById("chatspec-probe");
  if (!report) return;
  clearInterval(timer);
  [["chatspec-probe", report.textContent], ["chatspec-dom", page.documentElement.outerHTML]].forEach(function (pair) {
    var out = document.createElement("pre");
    out.id = pair[0];
    out.textContent = pair[1];
    document.body.appendChild(out);
  });
}, 100);
</script></body></html>
"""


@pytest.fixture(scope="module")
def site_reports(site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, dict[str, Any]]]:
    return _probe(site, tmp_path_factory.mktemp("probe"))


def _fits(reports: dict[int, dict[str, dict[str, Any]]]) -> None:
    """At each width no table scrolls sideways and no identifier breaks; on a phone every table is stacked, each cell labelled."""
    for width, pages in reports.items():
        for name, report in pages.items():
            assert report["width"] == width, name
            assert report["tables"] >= 1 and report["codes"] >= 1, f"{name}: nothing was measured"
            assert not report["overflow"], f"{name}: tables scroll sideways at {width} px: {report['overflow']}"
            assert not report["broken"], f"{name}: identifiers broken over two lines at {width} px: {report['broken'][:10]}"
            assert not report["unlabelled"], f"{name}: cells without their column's label: {report['unlabelled'][:5]}"
            # A row of labelled cells on a phone; the table as written at 1280 px.
            assert report["stacked"] == (report["tables"] if width < 720 else 0), f"{name} at {width} px: {report['stacked']} of {report['tables']} stacked"


def test_at_1280_and_390_px_no_table_scrolls_sideways_and_no_identifier_breaks(site_reports: dict[int, dict[str, dict[str, Any]]]) -> None:
    assert set(site_reports) == set(WIDTHS)
    assert set(site_reports[390]) >= {"index.html", "spec-language.html", *(f"{fmt}.html" for fmt in FORMATS)}
    _fits(site_reports)


def test_navigation_labels_are_unique(site_reports: dict[int, dict[str, dict[str, Any]]]) -> None:
    report = site_reports[1280]["index.html"]
    labels = [label for label in report["nav"] if label]
    assert len(labels) == len(set(labels)) >= len(FORMATS) + 2, labels
    assert {"Droidlet Chat 2.x", "Droidlet Chat 1.x"} <= set(labels)


# Payloads that set a flag if any of them runs, one in every kind of spec text a page shows.
_MARK = "__chatspec_xss"
_XSS = f"<img src=x onerror=window.{_MARK}=1>"


def _breakouts(where: str) -> str:
    """Text that runs script if it lands unescaped in any context a page has: element text, the
    <title> element, a script, a style, a textarea, an attribute value in either quotes, a CDATA
    section, a comment. Each sets the flag to where it came from and which context it broke.
    (Spaces between the parts: code in a table cell wraps only at a space, and these must not
    widen a table either.)"""
    def run(context: str) -> str:
        return f"<img src=x onerror = \"{_MARK} = '{where}: {context}'\">"
    return (f"</title><script> {_MARK} = '{where}: title' </script> "
            f"</script><script> {_MARK} = '{where}: script' </script> "
            f"</style>{run('style')} </textarea>{run('textarea')} "
            f"\"'>{run('attribute')} \" autofocus onfocus = \"{_MARK} = '{where}: dq'\" x=\" "
            f"' autofocus onfocus = '{_MARK} = `{where}: sq`' x=' "
            f"]]>{run('cdata')} -->{run('comment')}")


_XSS_TEXTS = {
    "title": f"Title {_XSS} {_breakouts('title')}",
    "description": f"Text <script>window.{_MARK}=2</script> and <svg onload=window.{_MARK}=3> {_breakouts('description')}",
    "decision": f"Decision {_XSS} [link](javascript:window.{_MARK}=4) {_breakouts('decision')}",
    "model": f"Model {_XSS} {_breakouts('model')}",
    "field": f"Field <iframe src=javascript:window.{_MARK}=5></iframe> {_breakouts('field')}",
    "message": f"Message {_XSS} <b onmouseover=window.{_MARK}=6> {_breakouts('message')}",
    "enum": f"Value {_XSS} {_breakouts('enum')}",
    "default": f"Default {_breakouts('default')}",
    "const": f"Const {_breakouts('const')}",
    "example": f"Example {_breakouts('example')}",
}
# Characters that hide or reorder text (Trojan Source): each is shown as its escape, never raw.
_TROJAN = "Trojan \u202ereversed\u202c \u2066isolated\u2069 zero\u200bwidth filler\u3164 tag\U000e0041"
# Names hold no "/" (an example's name is its file name): the breakouts that need none.
_XSS_NAME = f"\"'><img src=x onerror = \"{_MARK} = 'name'\"> ]]>--><img src=x onerror = \"{_MARK} = 'name2'\">"


@pytest.fixture(scope="module")
def hostile_site(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site built from the golden cases, plus hostile_descriptions with a script payload in its title and every other text."""
    project = tmp_path_factory.mktemp("hostile")
    shutil.copytree(GOLDEN / "hostile_descriptions", project / "specs" / "hostile", ignore=shutil.ignore_patterns("expected", "ir.json"))
    spec_file = project / "specs" / "hostile" / "spec.json"
    doc = json.loads(spec_file.read_text(encoding="utf-8"))
    doc["title"] = _XSS_TEXTS["title"]
    doc["description"] += "\n" + _XSS_TEXTS["description"]
    doc["x-decisions"].append(_XSS_TEXTS["decision"])
    hostile = doc["$defs"]["Hostile"]
    hostile["description"] = _XSS_TEXTS["model"]
    hostile["properties"]["note"]["description"] = _XSS_TEXTS["field"]
    hostile["properties"]["note"]["x-messages"] = {"type": _XSS_TEXTS["message"]}
    hostile["properties"]["kind"] = {"$ref": "#/$defs/Kind"}
    hostile["properties"]["raw"]["default"] = _XSS_TEXTS["default"]
    hostile["properties"]["fixed"] = {"type": "string", "const": _XSS_TEXTS["const"], "description": _XSS_TEXTS["field"]}
    hostile["properties"]["tagged"] = {"type": "string", "pattern": f"^(</title><script> {_MARK} = 'pattern' </script>)?$"}
    hostile["properties"][_XSS_NAME] = {"type": "string", "description": _XSS_NAME}
    hostile["properties"]["trojan"] = {"type": "string", "description": _TROJAN, "default": _TROJAN, "x-messages": {"type": _TROJAN}}
    doc["x-decisions"].append(_TROJAN)
    # And what could widen a table: a very long name (in every language) and a very long word.
    hostile["properties"]["a_field_name_much_longer_than_any_column_of_a_table_would_be"] = {
        "type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/Kind"}},
        "description": "See https://example.com/" + "a-very-long-path" * 8}
    doc["$defs"]["Kind"] = {"type": "string", "description": _XSS_TEXTS["enum"], "enum": [_XSS, _XSS_TEXTS["enum"], "plain"],
                            "x-enum-descriptions": {_XSS: _XSS_TEXTS["enum"], "plain": "plain"}}
    spec_file.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    invalid = project / "specs" / "hostile" / "examples" / "invalid"
    (invalid / f"{_XSS}.json").write_text(json.dumps({
        "description": _XSS_TEXTS["description"], "data": {"text": "ok", "note": 1},
        "errors": [{"path": "/note", "message": _XSS_TEXTS["message"]}]}), encoding="utf-8")
    (invalid / f"{_XSS_NAME}.json").write_text(json.dumps({
        "description": _XSS_TEXTS["example"], "data": {"text": "ok", "note": 1, "fixed": _XSS_TEXTS["example"]},
        "errors": [{"path": "/note", "message": _XSS_TEXTS["message"]},
                   {"path": "/fixed", "message": f"must be \"{_XSS_TEXTS['const']}\""}]}), encoding="utf-8")
    (project / "specs" / "hostile" / "examples" / "valid" / f"{_TROJAN}.json").write_text(json.dumps({"text": "ok", "trojan": _TROJAN}), encoding="utf-8")
    (project / "specs" / "hostile" / "examples" / "valid" / f"{_XSS_NAME}.json").write_text(
        json.dumps({"text": "ok", "note": _XSS_TEXTS["example"], "kind": _XSS_TEXTS["enum"]}), encoding="utf-8")
    specs = [*(load_spec(GOLDEN / case, ROOT) for case in GOLDEN_CASES), load_spec(project / "specs" / "hostile", project)]
    files = generate(specs, targets=["docs"])
    for path, text in files.items():
        (project / "generated" / path).parent.mkdir(parents=True, exist_ok=True)
        (project / "generated" / path).write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(project / "generated" / "mkdocs.yml")],
                          capture_output=True, text=True, cwd=project, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    built = project / "build" / "site"
    shutil.copy(site / "assets" / "mermaid.min.js", built / "assets" / "mermaid.min.js")
    return built


class _Landing(html_parser.HTMLParser):
    """Where the payloads' marker lands in a built page, read by a parser as the browser would.

    Spec text may be element text, or the value of an attribute that is only text
    (aria-label, title, alt) or an anchor made from a heading (id, href: word
    characters and dashes). Anywhere else (an attribute name or any other value, a
    script, a style, a comment) it became markup.
    """

    TEXT_ATTRIBUTES = frozenset({"aria-label", "title", "alt"})
    ANCHOR_ATTRIBUTES = frozenset({"id", "href", "for"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.markup: list[str] = []
        self.text: list[str] = []
        self.raw: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if _MARK in name or (value and _MARK in value and name not in self.TEXT_ATTRIBUTES
                                 and not (name in self.ANCHOR_ATTRIBUTES and re.fullmatch(r"#?[\w-]+", value))):
                self.markup.append(f"<{tag} {name}={value!r}>")
        if tag in ("script", "style", "textarea", "title"):
            self.raw = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == self.raw:
            self.raw = None

    def handle_data(self, data: str) -> None:
        if self.raw in ("script", "style") and _MARK in data:
            self.markup.append(f"<{self.raw}>{data[:120]}")
        self.text.append(data)

    def handle_comment(self, data: str) -> None:
        if _MARK in data:
            self.markup.append(f"<!--{data[:120]}-->")


def _landing(page: str) -> _Landing:
    parser = _Landing()
    parser.feed(page)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def hostile_reports(hostile_site: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, dict[str, Any]]]:
    return _probe(hostile_site, tmp_path_factory.mktemp("probe_hostile"))


def test_spec_text_with_scripts_runs_nowhere_on_the_built_site(hostile_site: Path, hostile_reports: dict[int, dict[str, dict[str, Any]]]) -> None:
    reports = {f"{name} at {width} px": report for width, pages in hostile_reports.items() for name, report in pages.items()}
    assert set(hostile_reports[1280]) == {"index.html", "spec-language.html", "hostile.html", *(f"{case}.html" for case in GOLDEN_CASES)}
    for name, report in reports.items():
        assert report["flag"] is None, f"{name}: a payload from the spec ran (flag {report['flag']})"
        assert not report["injected"], f"{name}: spec text became HTML: {report['injected']}"
        # The title is shown as text, exactly once escaped, in the navigation and the window title.
        assert _XSS_TEXTS["title"] in report["nav"], f"{name}: {report['nav']}"
        if name.startswith("hostile.html"):
            assert report["title"] == f"{_XSS_TEXTS['title']} - Chat message formats", report["title"]
    # A parser finds spec text nowhere but in text: no element, attribute, script or comment came from it.
    for path in sorted(hostile_site.rglob("*.html")):
        landing = _landing(path.read_text(encoding="utf-8"))
        assert not landing.markup, f"{path.name}: spec text became markup: {landing.markup[:5]}"
    # ... and the payloads are on the page as text, exactly, not dropped.
    page = (hostile_site / "hostile.html").read_text(encoding="utf-8")
    assert page.count(html_lib.escape(_XSS, quote=False)) >= 5
    text = "".join(_landing(page).text)
    for what in ("title", "model", "field", "decision", "enum", "message", "example"):
        assert _XSS_TEXTS[what] in text, f"the {what} is not on the page as text"
    assert _XSS_NAME in text
    # No page, nor the search index, holds a character that hides or reorders text: each is its escape.
    for path in sorted([*hostile_site.rglob("*.html"), hostile_site / "search" / "search_index.json"]):
        content = path.read_text(encoding="utf-8")
        at = invisible.first(content)
        assert at is None, f"{path.name}: {invisible.describe(content[at])} raw"
    assert invisible.shown(_TROJAN) in text
    # The sitemap (XML) lists the pages, nothing else.
    sitemap = ElementTree.parse(hostile_site / "sitemap.xml").getroot()
    assert all(_MARK not in (e.text or "") for e in sitemap.iter())
    # The search results are drawn from the index as HTML: it holds the text escaped too.
    index = json.loads((hostile_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    entries = " ".join(d["title"] + d["text"] for d in index["docs"])
    assert "__chatspec_xss=1" in entries and not re.search(r"<(img|script|svg|iframe|b|style|textarea|title)\b", entries, re.I)


def test_golden_pages_fit_1280_and_390_px_too(hostile_reports: dict[int, dict[str, dict[str, Any]]]) -> None:
    # Odd names, long patterns and hostile text must not widen a table or split an identifier either.
    _fits(hostile_reports)


class _TitleReader(html_parser.HTMLParser):
    """The elements of an HTML fragment and the text of its <title>, as a browser's tokenizer reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.title = ""
        self.open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.open = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self.open = False

    def handle_data(self, data: str) -> None:
        if self.open:
            self.title += data


def test_the_themes_title_element_holds_the_pages_label_as_text_and_the_home_page_the_sites_name(tmp_path: Path) -> None:
    # The theme override (docs/templates/main.html) writes the <title> of every page of the built site, with the
    # navigation label mkdocs gives it as page.title. Its block is rendered here by MkDocs' own Jinja environment for
    # the theme, without building the site: a page whose title would close the element, the home page, a page with
    # no title.
    from mkdocs.theme import Theme

    spec = load_spec(GOLDEN / "hostile_descriptions", ROOT)
    spec = dataclasses.replace(spec, document=dict(spec.document, title=f"Chat </title><script>window.{_MARK}=1</script>"))
    files = generate([spec], targets=["docs"])
    (tmp_path / "main.html").write_text(files["docs/templates/main.html"], encoding="utf-8")

    class Loader(yaml.SafeLoader):  # mkdocs.yml's !!python tags are the theme's: skipped
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    config = yaml.load(files["mkdocs.yml"], Loader=Loader)
    [label] = [key for entry in config["nav"] for key, file in entry.items() if file == f"{spec.format_id}.md"]
    site_name = config["site_name"]
    template = Theme(name="material", custom_dir=str(tmp_path)).get_env().get_template("main.html")

    def title(page_title: str | None, home: bool) -> _TitleReader:
        context = template.new_context({"page": type("Page", (), {"title": page_title, "is_homepage": home}),
                                        "config": {"site_name": site_name}})
        reader = _TitleReader()
        reader.feed("".join(template.blocks["htmltitle"](context)))
        return reader

    page = title(label, False)
    assert page.tags == ["title"] and page.title == f"Chat </title><script>window.{_MARK}=1</script> - {site_name}", (page.tags, page.title)
    for page_title, home in (("Chat message formats", True), (None, False)):
        other = title(page_title, home)
        assert other.tags == ["title"] and other.title == site_name, (page_title, home, other.title)


def test_a_decision_of_several_paragraphs_stays_one_item_of_the_list_in_both_readers(tmp_path: Path) -> None:
    """Red team round 9: a decision's second paragraph, indented 3 spaces, left the list on the site (Python-Markdown
    wants 4) and every later decision became text of that paragraph. With ten or more decisions the marker is wider."""
    decisions = ["First decision.\n\nIts second paragraph.", "Second decision,\non two lines.",
                 *[f"Decision {i}." for i in range(3, 11)], "Eleventh decision.\n\nIts second paragraph."]
    folder = tmp_path / "specs" / "decided"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Decided", "description": "A format.",
        "x-version": "1.0.0", "x-decisions": decisions, "$ref": "#/$defs/Root",
        "$defs": {"Root": {"type": "object", "description": "The root.", "properties": {"a": {"type": "string", "description": "A."}}}},
    }), encoding="utf-8")
    import markdown

    page = generate([load_spec(folder, tmp_path)], targets=["docs"])["docs/decided.md"]
    section = page.split("## Decisions", 1)[1].split("## Changelog", 1)[0]
    site = markdown.markdown(section, extensions=["tables", "toc", "pymdownx.superfences"])
    commonmark = MarkdownIt("commonmark", {"html": True}).render(section)
    for name, html in (("Python-Markdown", site), ("CommonMark", commonmark)):
        items = re.findall(r"<li>(.*?)</li>", html, re.S)
        assert len(items) == len(decisions) and html.count("<ol") == 1, (name, html)
        assert "Its second paragraph." in items[0] and "Its second paragraph." in items[-1], (name, html)
        assert "Second decision" in items[1] and "Decision 3." in items[2], (name, html)

"""The generated docs: intact tables, no injected HTML, resolving links, lint-clean, and a site that renders."""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from markdown_it import MarkdownIt

from conftest import GENERATED, GOLDEN, ROOT, format_folders
from generator.core import discover, generate
from generator.load import load_spec
from generator.lower import lower
from generator.targets.markdown import md_paragraph

DOCS = GENERATED / "docs"
FOLDERS = format_folders()
FORMATS = list(FOLDERS)
GOLDEN_CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())
# The only HTML a page may contain: what Markdown itself produces, <code> for code with pipes
# in tables, and <wbr> where a long type in a table may wrap.
ALLOWED_TAGS = {"p", "h1", "h2", "h3", "h4", "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "a", "strong", "ol", "ul", "li", "br", "wbr"}
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
                assert f"| `{field.wire_name}` |" in section, f"{fmt.id}: {model.name}.{field.wire_name} missing"
        for example in fmt.invalid_examples:
            for error in example.errors:
                assert error["message"] in page, f"{fmt.id}: message of {example.name} missing"
        decisions = page.split("## Decisions", 1)[1].split("## Changelog", 1)[0]
        for decision in fmt.decisions:
            assert md_paragraph(decision).replace("\n", "\n   ") in decisions, f"{fmt.id}: decision missing: {decision[:60]}"


def test_index_lists_every_format_with_its_version() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for spec in discover(ROOT / "specs", ROOT):
        assert f"]({spec.format_id}.md)" in index and f"| {spec.document['x-version']} |" in index


def test_markdown_lint_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "pymarkdown", "scan", *sorted(str(p) for p in DOCS.glob("*.md"))],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


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


def _dom(url: str, profile: Path) -> str:
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *_CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_site_renders_in_a_browser(site: Path, tmp_path: Path) -> None:
    _need(CHROMIUM, "Chromium")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        index = _dom(f"{base}/index.html", tmp_path / "p0")
        for fmt in FORMATS:
            assert f'href="{fmt}.html"' in index, f"the index does not list {fmt}"
        for i, fmt in enumerate(FORMATS, 1):
            page = _dom(f"{base}/{fmt}.html", tmp_path / f"p{i}")
            models = lower(load_spec(FOLDERS[fmt], ROOT, format_id=fmt)).models
            assert page.count("<table") >= len(models), f"{fmt}: the tables did not render"
            for model in models:
                assert f'id="{model.name.lower()}"' in page
            assert re.search(r'class="mermaid-diagram"[^>]*>\s*<svg[^>]*aria-roledescription="class"', page), \
                f"{fmt}: the Mermaid diagram was not rendered to SVG"
        assert (site / "schemas" / "structured_conversation.schema.json").is_file()
    finally:
        server.shutdown()

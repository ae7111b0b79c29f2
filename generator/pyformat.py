"""The formatting stage for Python output: black, remembered by content.

Every Python file chatspec writes (the Python and pydantic targets) goes through
format_python, so they are formatted alike; black is most of an uncached run's time.

A file that changed a little since its last run (one spec's description, its version)
need not be formatted whole: given the name of its slot (e.g. "python/chat_event.py"),
format_python remembers the last text it formatted there and black's output for it, and
formats only the top-level statements that changed, keeping black's output for the rest
(`_changed_statements_only`). That holds exactly what black does where it applies, and is
refused (the whole file is formatted) wherever black's output for a statement could depend
on its neighbours: another statement count or kind, changed lines between statements, a
bare string that is not the module docstring, `fmt:` comments, several statements on a line.
"""

from __future__ import annotations

import ast
from typing import Any

from generator import cache


def format_python(code: str, slot: str | None = None) -> str:
    """black's output for code (target Python 3.11); `slot` names where the text is formatted
    run after run, so a small change formats only the statements that changed."""
    version = _version()
    if slot is None or cache.current() is None:
        return cache.memo("black", [*version, code], lambda: _black(code))
    spans: list[Spans | None] = [None, None]  # the statements of code and of black's output, when known
    last = cache.load("black-slot", _slot_key(slot))
    if not (isinstance(last, dict) and isinstance(last.get("code"), str) and isinstance(last.get("black"), str)):
        last = None

    def compute() -> str:
        if last is not None:
            done = _changed_statements_only(last["code"], last["black"], code, last.get("spans"))
            if done is not None:
                formatted, spans[0], spans[1] = done
                return formatted
        return _black(code)

    formatted = cache.memo("black", [*version, code], compute)
    if last is not None and last["code"] == code and last["black"] == formatted:
        return formatted  # the slot holds it already (its statements found again would cost two parses of the file)
    if spans[0] is None or spans[1] is None:
        spans[:] = [_spans(code), _spans(formatted)]
    cache.store("black-slot", _slot_key(slot), {"code": code, "black": formatted, "spans": spans})
    return formatted


def has_slot(slot: str) -> bool:
    """Whether format_python remembers a last text of the slot (so a small change formats little)."""
    return cache.stored("black-slot", _slot_key(slot))


def _slot_key(slot: str) -> str:
    return cache.digest(["black-slot", *_version(), slot])


def _version() -> list[str]:
    """What black's output depends on besides the text: its version and the target Python (_black's mode)."""
    return [*cache.tool_versions("black"), "py311"]


def _black(code: str) -> str:
    import black  # late: a run whose formatting is all cached need not import it
    from black.mode import Mode, TargetVersion

    return black.format_str(code, mode=Mode(target_versions={TargetVersion.PY311}))


def warm_up() -> None:
    """Import black and format a line: a worker does it before its first module arrives."""
    _black("x = ( 1, )\n")


# A text's top-level statements: [first line, end line, kind] each (lines counted from 0, end excluded).
Spans = list[list[Any]]


def _spans(code: str) -> Spans | None:
    """The top-level statements of code, each with its kind; None where they do not split into whole lines."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return None
    lines = code.splitlines(keepends=True)
    spans: Spans = []
    at = 0
    for node in body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) - 1
        if first < at or node.end_lineno is None:
            return None  # two statements on one line
        string = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        # A string's quotes too: black treats a triple-quoted one apart.
        quotes = lines[first].lstrip()[:4] + ":string" if string else ""
        spans.append([first, node.end_lineno, f"{type(node).__name__}:{len(getattr(node, 'decorator_list', []))}:{quotes}"])
        at = node.end_lineno
    return spans


def _statements(code: str, spans: Spans | None) -> tuple[list[str], list[str], list[str]] | None:
    """(gaps, statements, kinds): the text between top-level statements (blank lines, comments;
    one more gap than statements), each statement's lines, and its kind; None without spans."""
    if spans is None:
        return None
    lines = code.splitlines(keepends=True)
    gaps, statements, kinds = [], [], []
    at = 0
    for first, end, kind in spans:
        gaps.append("".join(lines[at:first]))
        statements.append("".join(lines[first:end]))
        kinds.append(kind)
        at = end
    gaps.append("".join(lines[at:]))
    return gaps, statements, kinds


def _changed_statements_only(last_code: str, last_black: str, code: str, last_spans: Any = None) -> tuple[str, Spans, Spans] | None:
    """black's output for code, from black's output for last_code, formatting only the top-level
    statements that changed; None where that might not be black's output for the whole file. With
    it, the statements of code and of the output (last_spans: those of last_code and last_black, if
    remembered, else they are parsed again)."""
    if "fmt:" in code or "fmt:" in last_code:
        return None  # fmt: off/on and skip regions can span statements
    remembered = isinstance(last_spans, list) and len(last_spans) == 2
    new_spans = _spans(code)
    old = _statements(last_code, last_spans[0] if remembered else _spans(last_code))
    out = _statements(last_black, last_spans[1] if remembered else _spans(last_black))
    new = _statements(code, new_spans)
    if old is None or new is None or out is None or new_spans is None:
        return None
    (old_gaps, old_statements, old_kinds), (new_gaps, new_statements, new_kinds) = old, new
    out_gaps, out_statements, out_kinds = out
    if old_gaps != new_gaps or old_kinds != new_kinds or out_kinds != old_kinds:
        return None  # black's blank lines between statements follow their kinds and the lines between them
    changed = [i for i, (a, b) in enumerate(zip(old_statements, new_statements)) if a != b]
    if not changed or len(changed) * 2 > len(new_statements):
        return None
    if any(i > 0 and new_kinds[i].endswith(":string") for i in changed):
        return None  # alone, a bare string would be formatted as a module docstring
    parts: list[str] = []
    out_spans: Spans = []
    at = 0
    for i, statement in enumerate(out_statements):
        parts.append(out_gaps[i])
        if i in changed:
            statement = _black(new_statements[i])
            if statement.count("\n") == 0 or not statement.endswith("\n") or statement.endswith("\n\n"):
                return None
        parts.append(statement)
        at += out_gaps[i].count("\n")
        out_spans.append([at, at + statement.count("\n"), new_kinds[i]])
        at += statement.count("\n")
    parts.append(out_gaps[-1])
    return "".join(parts), new_spans, out_spans

"""A format's stored go.go (generator/behaviour.py), split into what the generated package places.

The one substitution in stored Go: imports of the generated module are written with the default
module path (DEFAULT_GO_MODULE) and rewritten to the module actually generated (a project's
go-module, or vendoring's)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.behaviour import Behaviour
from generator.errors import SpecError
from generator.options import DEFAULT_GO_MODULE


@dataclass(frozen=True)
class GoParts:
    code: str  # the file after its package clause, import prefix rewritten
    fields: dict[str, str]  # model -> struct fields to add, as written (tab-indented)


_GO_PACKAGE_RE = re.compile(r"^package [A-Za-z_][A-Za-z0-9_]*\n", re.M)
# A holder's doc comment goes with it.
_GO_HOLDER_RE = re.compile(r"^(?://[^\n]*\n)*type ([A-Z][A-Za-z0-9_]*) struct \{\n(.*?)^\}\n", re.M | re.S)


def go_parts(b: Behaviour, module: str) -> GoParts:
    """go.go split up: everything before the package clause is dropped (the generated
    header takes its place), a top-level `type <Model> struct {...}` for each model in
    extends.go holds fields the generated struct gains, and imports under
    DEFAULT_GO_MODULE are rewritten to `module`."""
    models = b.extends.get("go", ())
    text = b.texts["go"]
    shown = b.sources["go"]
    match = _GO_PACKAGE_RE.search(text)
    if match is None:
        raise SpecError(shown, None, "no package clause", "start the file with `package <name>` as Go requires")
    code = text[match.end() :]
    fields: dict[str, str] = {}

    def take(m: re.Match[str]) -> str:
        if m.group(1) not in models:
            return m.group(0)
        fields[m.group(1)] = m.group(2).rstrip("\n")
        return ""

    code = _GO_HOLDER_RE.sub(take, code)
    for name in models:
        if name not in fields:
            raise SpecError(
                shown,
                None,
                f"no top-level `type {name} struct {{...}}` holding the fields extends.go in {b.manifest} promises",
                f"write it with the fields the generated {name} gains, or take {name!r} out of extends.go",
            )
    code = code.replace(f'"{DEFAULT_GO_MODULE}/', f'"{module}/')
    return GoParts(re.sub(r"\n{3,}", "\n\n", code).strip("\n") + "\n", fields)

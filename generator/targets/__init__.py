"""The registry: every target chatspec renders, one line each, in the order they render.

The pipeline (generator.core), `chatspec vendor --lang` and the golden tests all read
this tuple; adding a target is one module or package, its templates and one line here.
"""

from __future__ import annotations

from generator.targets import jsonschema, markdown
from generator.targets.base import Target
from generator.targets.go.target import TARGET as GO
from generator.targets.msgspec.target import TARGET as MSGSPEC
from generator.targets.pydantic.target import TARGET as PYDANTIC
from generator.targets.python.target import TARGET as PYTHON
from generator.targets.typescript.target import TARGET as TYPESCRIPT

REGISTRY: tuple[Target, ...] = (
    PYTHON,
    GO,
    jsonschema.TARGET,
    markdown.TARGET,
    PYDANTIC,
    TYPESCRIPT,
    MSGSPEC,
)


def target(name: str) -> Target:
    """The registered target called name (KeyError when there is none)."""
    found = {t.name: t for t in REGISTRY}
    return found[name]


def vendorable() -> dict[str, Target]:
    """The targets another repository can vendor, by name."""
    return {t.name: t for t in REGISTRY if t.vendoring is not None}

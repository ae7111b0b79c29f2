"""The "format" of a string: which formats chatspec asserts, and what any other format means.

JSON Schema 2020-12 makes format an annotation unless a validator asserts it. chatspec asserts the
formats of ASSERTED in every runtime (each runtime's format check: _runtime.py format_ok, Go's
rt.FormatOK, TypeScript's formatOk, with the same regular expressions) and reports each with its
own message. Any other format is what JSON Schema's default makes it, an annotation: kept in the
exported schema and shown in the docs as not checked. A name a slip away from an asserted format
("datetime", "UUID") is refused, since the check its writer meant would be lost.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType

from jsonschema import FormatChecker

from generator import messages
from generator.errors import SpecError, did_you_mean

# Each asserted format and its default message (x-messages "format" overrides it).
ASSERTED = {
    "date-time": messages.DEFAULTS["format"],
    "date": "must be an RFC 3339 date, e.g. 2024-01-15",
    "time": "must be an RFC 3339 time with an offset, e.g. 10:30:00Z",
    "uri": "must be an absolute URI (RFC 3986), e.g. https://example.com/page",
    "uri-reference": "must be a URI reference (RFC 3986), e.g. /page#top",
    "uuid": "must be a UUID, e.g. 123e4567-e89b-12d3-a456-426614174000",
    "email": "must be an email address (RFC 5321), e.g. joe@example.com",
}

# Formats JSON Schema 2020-12 or OpenAPI define that chatspec does not assert: annotations, never taken for
# a slip of an asserted one ("iri-reference" is not a misspelt "uri-reference").
ANNOTATED = frozenset(
    {
        "duration",
        "hostname",
        "idn-hostname",
        "idn-email",
        "ipv4",
        "ipv6",
        "iri",
        "iri-reference",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
        "int32",
        "int64",
        "float",
        "double",
        "byte",
        "binary",
        "password",
    }
)


def asserted(name: str | None) -> bool:
    return name in ASSERTED


def check(name: object, pointer: str, fail: Callable[[str, str, str], SpecError]) -> str:
    """The format's name; a name that is not a string, or a slip of an asserted format's, is refused."""
    if not isinstance(name, str):
        raise fail(pointer, "format must be a string", 'name a format, e.g. "format": "uri"')
    if name not in ASSERTED and name not in ANNOTATED:
        slip = did_you_mean(name, ASSERTED)
        if slip:
            raise fail(
                pointer,
                f"format {name!r} is not a format chatspec asserts{slip}",
                "spell it as JSON Schema does (format names are case-sensitive); chatspec asserts "
                + ", ".join(ASSERTED)
                + ", and keeps any other format as an annotation",
            )
    return name


def message(name: str, over: dict[str, str]) -> str:
    """The message of an asserted format's check."""
    return messages.resolve_with("format", over, ASSERTED[name])


@functools.cache
def reference() -> ModuleType:
    """The Python runtime, read from its file: the reference the Go and TypeScript runtimes are tested against."""
    from generator.runtime import PYTHON_RUNTIME

    spec = importlib.util.spec_from_file_location("_chatspec_runtime", PYTHON_RUNTIME)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


@functools.cache
def checker() -> FormatChecker:
    """jsonschema's format checker with chatspec's meaning, for the generator's own checks of examples and defaults:
    each asserted format as every runtime checks it (the reference runtime's format_ok), any other format an
    annotation."""
    out = FormatChecker(formats=())
    for name in ASSERTED:
        out.checks(name)(functools.partial(_conforms, reference().format_ok, name))
    return out


def _conforms(format_ok: Callable[[str, str], bool], name: str, value: object) -> bool:
    return not isinstance(value, str) or format_ok(name, value)

"""Identifier names for generated code. Reserved words are data, not code paths."""

from __future__ import annotations

import keyword
import re

# Names a generated Python field must not take: keywords, names the generated
# module itself uses at class scope (annotations, method names), and `self`.
PYTHON_RESERVED = frozenset(
    set(keyword.kwlist)
    | set(keyword.softkwlist)
    | {
        "self", "cls", "str", "int", "float", "bool", "bytes", "list", "dict", "tuple",
        "datetime", "Any", "Literal", "TypeAlias", "Final", "field", "dataclass",
        "from_dict", "from_json", "to_dict", "to_json", "validate",
    }
)

# Go keywords and predeclared identifiers a generated name must not shadow.
GO_RESERVED = frozenset(
    {
        "break", "case", "chan", "const", "continue", "default", "defer", "else",
        "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map",
        "package", "range", "return", "select", "struct", "switch", "type", "var",
    }
)

# Go's common initialisms (as golint spells them): "id" -> "ID", "url" -> "URL".
GO_INITIALISMS = frozenset(
    {"ID", "URL", "URI", "JSON", "HTTP", "HTTPS", "API", "UUID", "HTML", "XML", "SQL", "IP", "UI", "TTL", "UTF8"}
)

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9]|$|[^A-Za-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+")


def words(name: str) -> list[str]:
    """Split any spelling into lowercase words: "content-type" -> ["content", "type"]."""
    ascii_only = re.sub(r"[^A-Za-z0-9]+", " ", name)
    return [w.lower() for w in _WORD.findall(ascii_only)]


def snake_case(name: str) -> str:
    """e.g. "contentType" -> "content_type"; names starting with a digit get a prefix."""
    result = "_".join(words(name)) or "field"
    return f"n{result}" if result[0].isdigit() else result


def python_attr(name: str) -> str:
    """A Python attribute name for a wire name, e.g. "class" -> "class_"."""
    result = snake_case(name)
    return f"{result}_" if result in PYTHON_RESERVED else result


def pascal_case(name: str) -> str:
    """e.g. "chat_event" -> "ChatEvent"."""
    result = "".join(w[:1].upper() + w[1:] for w in words(name)) or "Value"
    return f"N{result}" if result[0].isdigit() else result


def go_name(name: str) -> str:
    """An exported Go identifier, e.g. "session_id" -> "SessionID", "url" -> "URL"."""
    parts = []
    for w in words(name) or ["value"]:
        upper = w.upper()
        parts.append(upper if upper in GO_INITIALISMS else w[:1].upper() + w[1:])
    result = "".join(parts)
    return f"N{result}" if result[0].isdigit() else result


def constant_case(name: str) -> str:
    """e.g. "ChatEvent" -> "CHAT_EVENT"."""
    return snake_case(name).upper()

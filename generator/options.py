"""Project configuration: [tool.chatspec] in the project's pyproject.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

# The Go module path of generated/go when the project does not set one.
DEFAULT_GO_MODULE = "github.com/chatspec/chatformats"


# The Python package of generated/python.
DEFAULT_PYTHON_PACKAGE = "chatformats"


# The npm package name of generated/typescript.
DEFAULT_TYPESCRIPT_PACKAGE = "@chatspec/chatformats"


@dataclass(frozen=True)
class Options:
    go_module: str = DEFAULT_GO_MODULE  # e.g. "example.com/acme/chatformats"
    python_package: str = DEFAULT_PYTHON_PACKAGE  # e.g. "acme_chat" when vendored
    typescript_package: str = DEFAULT_TYPESCRIPT_PACKAGE  # e.g. "@acme/chat" when vendored
    msgspec: bool = False  # also generated/msgspec/<package>_msgspec/ (`msgspec = true`): Structs read by msgspec


def load_options(root: Path) -> Options:
    """Read [tool.chatspec] from root/pyproject.toml; defaults where it is absent."""
    path = root / "pyproject.toml"
    if not path.is_file():
        return Options()
    from generator.write import RefusedError

    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RefusedError(
            str(path), f"is not TOML chatspec can read ({exc})", "fix the file (its [tool.chatspec] table sets chatspec's options)"
        ) from None
    tool = document.get("tool", {})
    table = tool.get("chatspec", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise RefusedError(f"{path}: [tool.chatspec]", "is not a table", "write it as a [tool.chatspec] table, or leave it out")
    msgspec = table.get("msgspec", False)
    if not isinstance(msgspec, bool):
        raise RefusedError(
            f"{path}: [tool.chatspec] msgspec", f"is {msgspec!r}, not true or false", "write `msgspec = true` or leave it out"
        )
    return Options(go_module=table.get("go-module", DEFAULT_GO_MODULE), msgspec=msgspec)

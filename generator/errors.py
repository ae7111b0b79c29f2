"""The one error type a bad spec produces: file, JSON pointer, what is wrong, how to fix it."""

from __future__ import annotations


class SpecError(Exception):
    """A spec cannot be compiled. str() is the whole message a user sees."""

    def __init__(
        self,
        file: str,
        pointer: str,
        problem: str,
        hint: str,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.file = file
        self.pointer = pointer
        self.problem = problem
        self.hint = hint
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}:{self.column}"
        return f"{where}: at {self.pointer or '/'}: {self.problem}\n  hint: {self.hint}"


def pointer_of(*tokens: object) -> str:
    """JSON pointer from tokens, e.g. pointer_of("$defs", "A/B") == "/$defs/A~1B"."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)

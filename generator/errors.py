"""The one error type a bad spec produces: file, JSON pointer, what is wrong, how to fix it."""

from __future__ import annotations

from collections.abc import Iterable

from generator import invisible


class SpecError(Exception):
    """A spec cannot be compiled. str() is the whole message a user sees."""

    def __init__(
        self,
        file: str,
        pointer: str | None,
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
        # None: a problem with no place in the document (e.g. a JSON syntax error: line:column says where).
        at = "" if self.pointer is None else f" at {self.pointer or '/'}:"
        # A pointer or a quoted text may hold a character that hides or reorders text: shown escaped, never raw.
        return invisible.shown(f"{where}:{at} {self.problem}\n  hint: {self.hint}")


def pointer_of(*tokens: object) -> str:
    """JSON pointer from tokens, e.g. pointer_of("$defs", "A/B") == "/$defs/A~1B"."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def did_you_mean(word: object, options: Iterable[object]) -> str:
    """ " (did you mean 'pattern'?)" when word is a near miss of one of the options, else ""."""
    import difflib

    choices = [str(o) for o in options]
    text = str(word)
    # 0.75: a typo ("patern", "usr", "strng"), not a different word ("patternProperties" is not "additionalProperties").
    close = difflib.get_close_matches(text, choices, n=1, cutoff=0.75)
    if not close:  # a case slip, e.g. "Pattern"
        close = [c for c in choices if c.lower() == text.lower()][:1]
    if not close and len(text) >= 3:  # a part of the name, e.g. "date" for "date-time"
        close = [c for c in choices if c.lower().startswith(text.lower())][:1]
    return f" (did you mean {close[0]!r}?)" if close else ""

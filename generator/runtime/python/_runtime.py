"""Validation runtime shared by the generated format modules of this package.

Standard library only, so the package can be vendored as is. Each generated
module builds its parsers from the small combinators below once, at import;
a parser takes a JSON-shaped value and a Context, records every problem it
finds in the Context (JSON pointer + message, in document order) and returns
the built value, or INVALID.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import math
import operator
import os
import re
import sys
import unicodedata
from fractions import Fraction
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any, Final, Literal, Protocol, TypedDict, Unpack


class _Invalid:
    """Marker for a value that failed validation (None is a valid JSON null)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "INVALID"


INVALID: Final = _Invalid()
_MISSING: Final = object()

Parser = Callable[[Any, "Context"], Any]

Done = dict[tuple[int, int], tuple[Any, Any, tuple[object, ...]]]
"""(id of a list, its items' depth) -> (the list, its first items as built, the values above
them that the items read, nearest last): see keep_items. (id of an object, its depth) -> (the
object, the model built from it, the values above it that it reads): see keep_model."""

Quick = Callable[[Any], Any]
"""A parser's check without a Context: the value the parser builds when it is surely valid,
INVALID when not sure (the parser then runs and says what is wrong)."""

_QUICK: dict[Parser, tuple[Quick, int]] = {}
"""The parsers that read nothing but their value (no rule, no ancestor): their quick check, and
how many path levels it covers (the value's own and its items'), so that Context.child only
uses it where the exact walk could not reach the depth limit."""


def _no_quick(value: object) -> Any:
    return INVALID


def _quick(parser: Parser, check: Quick, levels: int) -> Parser:
    _QUICK[parser] = (check, levels)
    return parser


@dataclass(frozen=True)
class ErrorDetail:
    """One problem: where (a JSON pointer into the input) and what."""

    path: str
    message: str
    keyword: str
    """The check that failed, e.g. "required", "minLength" or a rule kind such as "member_of"."""

    def __str__(self) -> str:
        return f"{self.path or '/'}: {self.message}"


class ValidationError(ValueError):
    """Raised for invalid input; .errors lists every problem in document order."""

    def __init__(self, errors: Iterable[ErrorDetail]) -> None:
        self.errors: list[ErrorDetail] = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))

    @property
    def message(self) -> str:
        """The first problem's message (the one a fail-fast validator would report)."""
        return self.errors[0].message if self.errors else ""


# --- the input policy (the Go runtime states the same numbers and messages) ---

MAX_DEPTH: Final = 128
"""How deep any value may sit below the document root, typed or free-form (metadata)."""
DEPTH_MESSAGE: Final = "nesting deeper than 128 levels is not accepted"
MAX_ERRORS: Final = 100
"""How many problems a ValidationError lists; one last entry counts the rest."""
MAX_INT_DIGITS: Final = 4300
"""The longest integer literal JSON text may hold (Python's own int-from-text limit)."""
NOT_UTF8_MESSAGE: Final = "invalid JSON: the text is not valid UTF-8"
BOM_MESSAGE: Final = (
    "invalid JSON: a byte order mark (BOM) is not accepted; send UTF-8 without one"
)
SURROGATE_MESSAGE: Final = (
    "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text"
)
LONG_INT_MESSAGE: Final = "invalid JSON: an integer literal has more than 4300 digits"

# Python's own limit on converting between an int and its decimal text (sys.set_int_max_str_digits,
# PYTHONINTMAXSTRDIGITS: one setting for the whole process, 4300 by default, which json follows and
# any library may change). Past it the runtime converts through decimal, which it does not bound, so
# that MAX_INT_DIGITS is the policy's limit whatever the process set.


def _int_of(literal: str) -> int:
    """The value of an integer literal of at most MAX_INT_DIGITS digits, whatever the process's limit."""
    try:
        return int(literal)
    except ValueError:
        # Longer than the process's limit, which int() checks before any conversion work.
        return int(Decimal(literal))


def _digits_of(value: int) -> str:
    """The decimal text of an int of at most MAX_INT_DIGITS digits, whatever the process's limit."""
    try:
        return str(value)
    except ValueError:
        return str(Decimal(value))


def _reads_longer_integers() -> bool:
    """Whether json, by the limit the process set (0: none), reads integers the policy refuses."""
    limit = sys.get_int_max_str_digits()
    return limit == 0 or limit > MAX_INT_DIGITS


# At most one more digit than the policy allows, from where a match starts.
_DIGIT_RUN: Final = re.compile(f"[0-9]{{0,{MAX_INT_DIGITS + 1}}}")


def _long_digit_run(text: str) -> bool:
    """Whether text holds a run of more than MAX_INT_DIGITS ASCII digits, where an integer literal the
    policy refuses could stand. Such a run holds a multiple of MAX_INT_DIGITS, so only the characters
    there are looked at, and a run met there is measured at most MAX_INT_DIGITS each way (as the
    TypeScript runtime's longDigitRun)."""
    for at in range(MAX_INT_DIGITS, len(text), MAX_INT_DIGITS):
        if "0" <= text[at] <= "9":
            before = text[max(0, at - MAX_INT_DIGITS) : at]
            start = at - (len(before) - len(before.rstrip("0123456789")))
            match = _DIGIT_RUN.match(text, at)
            if match is not None and match.end() - start > MAX_INT_DIGITS:
                return True
    return False


def more_message(count: int) -> str:
    """The last entry of a capped error list."""
    return f"... and {count} more problems"


_PLACEHOLDER: Final = re.compile(r"\{\{|\{(index|field|value)\}")
"""{index}, {field} and {value} are filled in; "{{" stands for a literal "{"."""


def _escape(token: object) -> str:
    text = str(token)
    return (
        text.replace("~", "~0").replace("/", "~1")
        if "~" in text or "/" in text
        else text
    )


def _pointer(tokens: Iterable[object]) -> str:
    return "".join("/" + _escape(s) for s in tokens)


class Context:
    """The state of one validation run: problems so far, the path and the values above."""

    __slots__ = (
        "errors",
        "count",
        "_failed",
        "_path",
        "_values",
        "_pools",
        "_done",
    )

    def __init__(self, root: object) -> None:
        self.errors: list[ErrorDetail] = []
        """The first MAX_ERRORS problems."""
        self.count = 0
        """How many problems were found, listed or not."""
        # The pointers of the lists of strings (the only member_of pools) that hold a
        # problem: all failed_at needs to know. Problems past MAX_ERRORS are only counted.
        self._failed: set[str] = set()
        self._path: list[str | int] = []
        # _values[-1] is the value being parsed, earlier entries its ancestors;
        # rules with a relative JSON pointer (e.g. "2/people") look up there.
        self._values: list[object] = [root]
        self._pools: dict[int, tuple[object, frozenset[str] | None]] = {}
        self._done: Done | None = None
        """Lists whose first items a failed fast attempt built (keep_items): kept, not walked again."""

    def error(
        self,
        template: str,
        keyword: str,
        key: str | tuple[str, ...] | None = None,
        value: object = None,
    ) -> None:
        """Record a problem at the current path, or at `key` (one or more tokens) below it."""
        below: tuple[str, ...] = (
            () if key is None else (key,) if isinstance(key, str) else key
        )
        self.count += 1
        if below:
            # A problem at a value below the one being parsed (a missing field, a rule's
            # field, a value too deep) is at that list, if it is one, for failed_at.
            self._failed_list(resolve(self._values[-1], below), below)
        if len(self.errors) >= MAX_ERRORS:
            return  # counted, not kept: neither pointer nor message is built
        pointer = _pointer((*self._path, *below))
        if "{" not in template:  # nothing to fill in
            self.errors.append(ErrorDetail(pointer, template, keyword))
            return
        index = next((s for s in reversed(self._path) if isinstance(s, int)), "")
        field = (
            below[0]
            if below
            else next((s for s in reversed(self._path) if isinstance(s, str)), "")
        )
        found = {"index": str(index), "field": field, "value": _show(value)}
        # One pass over the template: substituted text is never expanded again.
        message = _PLACEHOLDER.sub(
            lambda m: found[m.group(1)] if m.group(1) else "{", template
        )
        self.errors.append(ErrorDetail(pointer, message, keyword))

    def reported(self) -> list[ErrorDetail]:
        """The problems to report: the first MAX_ERRORS, then one entry counting the rest."""
        if self.count <= len(self.errors):
            return self.errors
        return [
            *self.errors,
            ErrorDetail("", more_message(self.count - len(self.errors)), "limit"),
        ]

    def child(self, key: str | int, value: object, parser: Parser) -> Any:
        if len(self._path) >= MAX_DEPTH:
            # Recursive specs would otherwise overflow the stack; Go stops at the same depth.
            self.error(DEPTH_MESSAGE, "depth", str(key))
            return INVALID
        quick = _QUICK.get(parser)
        if quick is not None and len(self._path) + quick[1] <= MAX_DEPTH:
            # A leaf or a container of leaves that is surely valid: no path to keep.
            result = quick[0](value)
            if result is not INVALID:
                return result
        return self.walk(key, value, parser)

    def walk(self, key: str | int, value: object, parser: Parser) -> Any:
        """child() without its quick attempt, for a caller whose own attempt failed (list_of)."""
        if len(self._path) >= MAX_DEPTH:
            self.error(DEPTH_MESSAGE, "depth", str(key))
            return INVALID
        self._path.append(key)
        self._values.append(value)
        mark = self.count
        # No try/finally: parsers record problems instead of raising, and a
        # Context lives for one run only.
        result = parser(value, self)
        if self.count != mark:
            self._failed_list(
                value, ()
            )  # every problem since mark is at or below value
        self._path.pop()
        self._values.pop()
        return result

    def _failed_list(self, value: object, below: tuple[str, ...]) -> None:
        """Note for failed_at that a problem is at or below value (at the path, then below),
        when value is a list of strings: a member_of pool, the only thing failed_at is asked of.
        (A problem below such a list is at one of its strings, recorded while it is walked.)
        """
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            self._failed.add(_pointer((*self._path, *below)))

    def required(
        self,
        obj: Mapping[Any, Any],
        key: str,
        parser: Parser,
        message: str,
        nullable: bool = False,
    ) -> Any:
        value = obj.get(key, _MISSING)
        if value is _MISSING or (value is None and not nullable):
            self.error(message, "required", key)
            return INVALID
        # A null that is present is the parser's to judge (a schema applied as written may refuse it).
        return self.child(key, value, parser)

    def optional(
        self,
        obj: Mapping[Any, Any],
        key: str,
        parser: Parser,
        default: object = None,
        factory: Callable[[], object] | None = None,
    ) -> Any:
        value = obj.get(key, _MISSING)
        if value is _MISSING:
            return factory() if factory is not None else default
        return self.child(key, value, parser)

    def ancestor(self, up: int) -> object:
        """The value `up` levels above the one being parsed (0 = itself), or _MISSING."""
        if up >= len(self._values):
            return _MISSING
        return self._values[-1 - up]

    def failed_at(self, up: int, pointer: tuple[str, ...]) -> bool:
        """Whether a problem was recorded at or below the list of strings found by relative pointer
        (rule_member_of asks only of such a list, which never holds the value being parsed).
        """
        if not self.count:
            return False
        base = self._path[: len(self._path) - up] if up else self._path
        return _pointer((*base, *pointer)) in self._failed

    def members(self, pool: list[Any]) -> frozenset[str] | None:
        """The items of a list as a set (None if one is not a string), built once per run."""
        cached = self._pools.get(id(pool))
        if cached is None or cached[0] is not pool:
            items = frozenset(pool) if all(isinstance(p, str) for p in pool) else None
            cached = (pool, items)
            self._pools[id(pool)] = cached
        return cached[1]

    @property
    def depth(self) -> int:
        """How many levels below the document's root the value being parsed is."""
        return len(self._path)

    def above(self) -> tuple[object, ...]:
        """The values above the one being parsed, nearest last (a fast function's anc)."""
        return tuple(self._values[:-1])

    def kept(self, value: object) -> Any:
        """The model a failed fast attempt built from value at this depth (keep_model), once, or None."""
        if self._done is None:
            return None
        key = (id(value), len(self._path))
        found = self._done.get(key)
        if (
            found is None
            or found[0] is not value
            or not _same_above(found[2], self._values[:-1])
        ):
            return None
        # Once: a value met twice (a shared dict) gets a model of its own the second time.
        del self._done[key]
        return found[1]

    def keep(self, unsure: Unsure) -> None:
        """Keep the items a failed fast attempt built, for list_of."""
        if unsure.done is not None:
            if self._done is None:
                self._done = {}
            self._done.update(unsure.done)

    def mark(self) -> int:
        return self.count

    def failed_since(self, mark: int) -> bool:
        return self.count > mark


def _show(value: object) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > _INT_DIGITS_BITS:
        # Only a Python caller of from_dict can hand over an int of more than MAX_INT_DIGITS
        # digits (JSON text is refused first), and str() of it raises ValueError: a message
        # must never raise.
        if abs(value) >= _INT_DIGITS_LIMIT:
            return f"an integer of more than {MAX_INT_DIGITS} digits"
    if isinstance(value, (int, float)):
        try:
            return json.dumps(value)
        except ValueError:  # an int longer than a lower limit the process set
            return _digits_of(int(value))
    # A container by its JSON type's name, never its text (which may be as long as the document).
    return "array" if isinstance(value, (list, tuple)) else "object"


def parse(parser: Parser, data: object, done: Done | None = None) -> Any:
    """Run a parser on a whole document; raise ValidationError listing every problem.

    done: the items a failed fast attempt built (Unsure.done), which the walk keeps."""
    ctx = Context(data)
    ctx._done = done
    result = parser(data, ctx)
    if ctx.count:
        raise ValidationError(ctx.reported())
    return result


def _json_error(message: str) -> ValidationError:
    return ValidationError([ErrorDetail("", message, "json")])


# A \u escape of a high and a low UTF-16 surrogate together (a pair: one match), or of one
# surrogate (a high one D800-DBFF, a low one DC00-DFFF) on its own.
_SURROGATE_ESCAPE: Final = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}"
)


def load_json(text: str | bytes | bytearray) -> Any:
    """Parse JSON text under the input policy; any problem is a ValidationError.

    UTF-8 only: bytes must be valid UTF-8, and neither bytes nor str may start
    with a byte order mark; lone surrogates (raw, or escaped as \\ud800) are
    refused; NaN and Infinity are not JSON; an integer literal has at most
    MAX_INT_DIGITS digits. Depth is not limited here (the parsers refuse values
    deeper than MAX_DEPTH), and deep text never overflows the stack.
    """
    # An ASCII str (what most services hand over) takes two O(1) tests: CPython keeps the flag,
    # and a byte order mark is not ASCII.
    if isinstance(text, str):
        if not text.isascii():
            # Encoding fails exactly on a surrogate code point, at twice a regex's speed.
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                raise _json_error(SURROGATE_MESSAGE) from None
            if text.startswith("\ufeff"):
                raise _json_error(BOM_MESSAGE)
    elif isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise _json_error(NOT_UTF8_MESSAGE) from None
        if text.startswith("\ufeff"):
            raise _json_error(BOM_MESSAGE)
    else:
        raise _json_error(
            f"invalid JSON: expected str or bytes, not {type(text).__name__}"
        )
    try:
        # _DECODER.decode(text), without its two whitespace regexes where no whitespace is around
        # the value (a third of a small document's decode), written here rather than called (a
        # call is a twentieth of it). Anything else, every error included, is decode()'s own reading.
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            # Leading whitespace, or no value: decode() skips the one and reports the other.
            value = _DECODER.decode(text)
            end = len(text)
        else:
            if end != len(text) and text[end:].strip(" \t\n\r"):
                value = _DECODER.decode(text)  # json's "Extra data" error
    except json.JSONDecodeError as exc:
        if exc.msg not in _JSON_MESSAGES:
            _load_deep(
                text
            )  # raises Python 3.11's message where a later json words it otherwise
        raise _syntax_error(exc) from None
    except RecursionError:
        # Deeper than the C parser's recursion allows: parse without recursion.
        value = _load_deep(text)
        end = 0  # _load_deep counts an integer's digits itself
    except ValueError as exc:
        if "integer string conversion" not in str(exc):
            raise _json_error(f"invalid JSON: {exc}") from None
        # Past the limit the process set: the policy's may be another, so the text is read again
        # counting (which reports a syntax error anywhere in it first, as Go and TypeScript do).
        value = _read_counted(text)
        end = 0
    # json reads integers by the process's limit, the policy's only while it is Python's default:
    # where a program raised it or turned it off, text holding a run of digits past the policy's
    # limit is read again, counting.
    if end > MAX_INT_DIGITS and _reads_longer_integers() and _long_digit_run(text):
        value = _read_counted(text)
    if "\\" in text and _lone_surrogate_escape(text):
        raise _json_error(SURROGATE_MESSAGE)
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


# One decoder for every call: json.loads with an option builds a new one each time (3 us
# of a 112-byte document). decode() is what loads runs after its BOM check, made above.
class _Decoder(json.JSONDecoder):
    # The C scanner JSONDecoder.__init__ sets and decode() calls; typeshed does not declare it.
    scan_once: Callable[[str, int], tuple[Any, int]]


_DECODER: Final = _Decoder(parse_constant=_reject_constant)
_SCAN: Final = _DECODER.scan_once


class _LongInteger(ValueError):
    """An integer literal of more than MAX_INT_DIGITS digits, counted by _counted_int."""


def _too_long(literal: str) -> bool:
    """Whether an integer literal has more digits than the input policy allows."""
    return len(literal) - literal.startswith("-") > MAX_INT_DIGITS


def _counted_int(literal: str) -> int:
    if _too_long(literal):
        raise _LongInteger(LONG_INT_MESSAGE)
    return _int_of(literal)


_COUNTED: Final = _Decoder(parse_constant=_reject_constant, parse_int=_counted_int)


def _read_counted(text: str) -> Any:
    """JSON text read as load_json reads it, counting each integer's digits against MAX_INT_DIGITS
    (for a process whose own limit on them is another)."""
    try:
        return _COUNTED.decode(text)
    except _LongInteger:
        _load_deep(text)  # a syntax error anywhere in the text is reported first
        raise _json_error(LONG_INT_MESSAGE) from None
    except json.JSONDecodeError as exc:
        _load_deep(text)  # Python 3.11's message
        raise _syntax_error(exc) from None
    except RecursionError:
        return _load_deep(text)
    except ValueError as exc:
        raise _json_error(f"invalid JSON: {exc}") from None  # NaN, Infinity


def _syntax_error(exc: json.JSONDecodeError) -> ValidationError:
    return _json_error(_located(exc.msg, exc.lineno, exc.colno))


def _located(what: str, line: int, column: int) -> str:
    """The message of a syntax error at a line and column: json's own words ("Invalid control character at"
    less the "at" it ends in, which the place says)."""
    return f"invalid JSON: {what.removesuffix(' at')} at line {line} column {column}"


def _lone_surrogate_escape(text: str) -> bool:
    """Whether JSON text (one json read whole) escapes a UTF-16 surrogate outside a pair, anywhere.

    The text, not the value read: a value a later duplicate key replaces is not in the value,
    and the input policy refuses the text all the same (as Go and TypeScript do). In JSON text
    every backslash is inside a string and begins an escape, so a match is an escape where an
    even run of backslashes stands before it ("\\\\ud800": an escaped backslash, then letters).
    """
    for found in _SURROGATE_ESCAPE.finditer(text):
        start = found.start()
        before = start
        while before > 0 and text[before - 1] == "\\":
            before -= 1
        escape = (start - before) % 2 == 0
        if found.end() - start == 12:
            # A pair, unless its first backslash is escaped: then letters, and a low escape alone.
            if not escape:
                return True
        elif escape:
            return True
    return False


# What _load_deep reads at a value's first character (whitespace skipped): a run of [, {, a string
# without an error (no control character, every escape complete), a constant the json module
# hands to parse_constant, a number, a literal. Anything else is json's error there.
_STRING: Final = r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"'
_VALUE: Final = re.compile(
    r"(\[[\[ \t\n\r]*)"  # 1: a run of [ (a character class: no backtracking state)
    r"|(\{)"  # 2
    r"|(" + _STRING + r")"  # 3
    r"|(NaN|Infinity|-Infinity)"  # 4
    r"|(-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)"  # 5 (6, 7)
    r"|(true|false|null)"  # 8
)
_KEY: Final = re.compile(_STRING)
_SPACE: Final = re.compile(r"[ \t\n\r]*")
_CLOSERS: Final = re.compile(
    r"\][\] \t\n\r]*"
)  # a run of ] and whitespace (a character class: no backtracking state)
_PLAIN: Final = re.compile(r'[^"\\\x00-\x1f]*')
_HEX4: Final = re.compile(r"[0-9a-fA-F]{4}")
_ESCAPES: Final = frozenset('"\\/bfnrt')
_LITERALS: Final = {"true": True, "false": False, "null": None}
_OPEN_LIST: Final = ord("[")
# The json module's own messages (Python 3.11): any other (3.13 words a trailing comma its own
# way) is read again by _load_deep, so the message is the same on every Python.
_JSON_MESSAGES: Final = frozenset(
    {
        "Expecting value",
        "Expecting ',' delimiter",
        "Expecting ':' delimiter",
        "Expecting property name enclosed in double quotes",
        "Unterminated string starting at",
        "Invalid control character at",
        "Invalid \\escape",
        "Invalid \\uXXXX escape",
        "Extra data",
    }
)


def _reach(pattern: re.Pattern[str], text: str, at: int) -> int:
    """Where a match of pattern (one that cannot fail: `x*`, or the caller knows) at text[at] ends."""
    m = pattern.match(text, at)
    return at if m is None else m.end()


def _at(text: str, at: int, what: str) -> ValidationError:
    """json's message for a problem at text[at], as load_json words it (line and column in characters)."""
    line = text.count("\n", 0, at) + 1
    return _json_error(_located(what, line, at - text.rfind(chr(10), 0, at)))


def _string_error(text: str, begin: int) -> ValidationError:
    """json's error for the string token at text[begin] (a quote) that _STRING does not match.

    As the json module's scanner reads it: the first control character, unfinished escape or
    missing closing quote, at the position json names (a bad escape at its backslash or its u).
    """
    n = len(text)
    end = begin + 1
    while True:
        at = _reach(_PLAIN, text, end)
        if at == n:
            return _at(text, begin, "Unterminated string starting at")
        c = text[at]
        if c <= "\x1f":
            return _at(text, at, "Invalid control character at")
        if c == '"':  # unreachable: _STRING would have matched
            return _at(text, begin, "Unterminated string starting at")
        at += 1  # past the backslash
        if at == n:
            return _at(text, begin, "Unterminated string starting at")
        if text[at] != "u":
            if text[at] not in _ESCAPES:
                return _at(text, at - 1, "Invalid \\escape")
            end = at + 1
            continue
        end = at + 5
        if end >= n or _HEX4.fullmatch(text, at + 1, end) is None:
            return _at(text, at, "Invalid \\uXXXX escape")


def _load_deep(text: str) -> Any:
    """JSON text to a value without recursion, in linear time and memory; the json module's verdict.

    For text json.loads cannot read to the end: too deep for its recursion, or an integer of more
    than MAX_INT_DIGITS digits (refused once the whole text is known to be JSON, so a syntax error
    anywhere is reported first). Any other problem is the one json.loads gives for the same text,
    with the same message and position, however deep. An array or object more than MAX_DEPTH
    levels deep is checked but built empty: every parser refuses a value at that depth without
    looking inside, so the verdict and the problems are those of the whole text (the Go and
    TypeScript runtimes decode the same way). Containers down to that depth are frames
    [value, pending key, is_list, kept]; those inside it are only their kind, one byte each in
    `deep`.
    """
    frames: list[list[Any]] = []
    deep = bytearray()
    too_long = False
    n = len(text)
    pos = _reach(_SPACE, text, 0)

    def building() -> bool:
        return not deep and (not frames or frames[-1][3])

    def open_containers(is_list: bool, count: int) -> None:
        while count and building():
            kept = len(frames) <= MAX_DEPTH
            frames.append([[] if is_list else {}, None, is_list, kept])
            count -= 1
        deep.extend((b"[" if is_list else b"{") * count)

    def close() -> Any:
        if deep:
            deep.pop()
            return None
        return frames.pop()[0]

    def key(at: int) -> int:
        """Reads a key, its colon and the whitespace after it; the position of the value."""
        if text.startswith('"', at):
            m = _KEY.match(text, at)
            if m is None:
                raise _string_error(text, at)
            if building():
                frames[-1][1] = json.loads(m.group())
            at = _reach(_SPACE, text, m.end())
            if text.startswith(":", at):
                return _reach(_SPACE, text, at + 1)
            raise _at(text, at, "Expecting ':' delimiter")
        raise _at(text, at, "Expecting property name enclosed in double quotes")

    while True:
        # A value starts at pos.
        m = _VALUE.match(text, pos)
        if m is None:
            if text.startswith('"', pos):
                raise _string_error(text, pos)
            raise _at(text, pos, "Expecting value")
        kind = m.lastindex
        value: Any = None
        if kind == 1:
            open_containers(True, m.group(1).count("["))
            pos = m.end()
            if not text.startswith("]", pos):
                continue
            pos += 1  # the innermost array is empty: a whole value
            value = close()
        elif kind == 2:
            open_containers(False, 1)
            pos = _reach(_SPACE, text, m.end())
            if not text.startswith("}", pos):
                pos = key(pos)
                continue
            pos += 1
            value = close()
        elif kind == 4:
            raise _json_error(f"invalid JSON: {m.group(4)} is not valid JSON")
        else:
            pos = m.end()
            integer = kind == 5 and m.group(6) is None and m.group(7) is None
            if integer and _too_long(m.group(5)):
                # Reported once the whole text is known to be JSON; below MAX_DEPTH too, where
                # nothing is built (the text's rule, as in Go and TypeScript).
                too_long = True
            elif not building():
                pass  # checked, not built
            elif kind == 3:
                value = json.loads(m.group(3))
            elif integer:
                value = _int_of(m.group(5))
            elif kind == 5:
                value = float(m.group(5))
            else:
                value = _LITERALS[m.group(8)]
        # The value is complete: attach it, then read what follows it.
        while True:
            if not deep and not frames:
                pos = _reach(_SPACE, text, pos)
                if pos != n:
                    raise _at(text, pos, "Extra data")
                if too_long:
                    raise _json_error(LONG_INT_MESSAGE)
                return value
            if building():
                top = frames[-1]
                if top[2]:
                    top[0].append(value)
                else:
                    top[0][top[1]] = value
            pos = _reach(_SPACE, text, pos)
            is_list = deep[-1] == _OPEN_LIST if deep else frames[-1][2]
            c = text[pos : pos + 1]
            if c == ",":
                pos = _reach(_SPACE, text, pos + 1)
                if not is_list:
                    pos = key(pos)
                break
            if c == ("]" if is_list else "}"):
                if c == "]" and len(deep) > 1:
                    # A run of ] closing arrays deep inside: pop them at once (3 MB of [ ... ]).
                    run = text[pos : _reach(_CLOSERS, text, pos)]
                    closers = run.count("]")
                    reach = min(closers, len(deep))
                    last_object = deep.rfind(b"{", len(deep) - reach)
                    count = reach if last_object < 0 else len(deep) - 1 - last_object
                    del deep[len(deep) - count :]
                    pos += len(run) if count == closers else _nth(run, "]", count) + 1
                    value = None
                    continue
                pos += 1
                value = close()
                continue
            raise _at(text, pos, "Expecting ',' delimiter")


def _nth(text: str, char: str, count: int) -> int:
    """The index of the count-th occurrence of char in text (count >= 1)."""
    if text.count(char, 0, count) == count:
        return (
            count - 1
        )  # the first count characters (the usual case: no whitespace between)
    at = -1
    for _ in range(count):
        at = text.index(char, at + 1)
    return at


def dump_json(data: object) -> str:
    """JSON text (no NaN); values deeper than the C encoder allows are written without recursion."""
    try:
        return json.dumps(data, ensure_ascii=False, allow_nan=False)
    except RecursionError:
        return _dump_deep(data)


def _dump_deep(data: object) -> str:
    parts: list[str] = []
    # Frames: an iterator over the (separator, key or None, value) still to write, and the closer.
    stack: list[tuple[Iterator[tuple[str, str | None, object]], str]] = []
    on_path: list[int] = []  # the containers being written, to refuse a cycle
    on_path_set: set[int] = set()
    step: tuple[str, str | None, object] | None = ("", None, data)
    while True:
        if step is None:
            if not stack:
                return "".join(parts)
            step = next(stack[-1][0], None)
            if step is None:
                parts.append(stack.pop()[1])
                on_path_set.discard(on_path.pop())
                continue
        sep, key, value = step
        step = None
        parts.append(sep)
        if key is not None:
            parts.append(json.dumps(key, ensure_ascii=False) + ": ")
        if isinstance(value, (list, tuple, dict)):
            if id(value) in on_path_set:
                raise ValueError("Circular reference detected")
            on_path.append(id(value))
            on_path_set.add(id(value))
            if isinstance(value, dict):
                parts.append("{")
                stack.append(
                    (
                        (
                            (", " if i else "", str(k), v)
                            for i, (k, v) in enumerate(value.items())
                        ),
                        "}",
                    )
                )
            else:
                parts.append("[")
                stack.append(
                    (((", " if i else "", None, v) for i, v in enumerate(value)), "]")
                )
        else:
            parts.append(json.dumps(value, ensure_ascii=False, allow_nan=False))


def new_uuid4() -> str:
    """str(uuid.uuid4()) in half its time: 16 bytes of os.urandom with the version (4) and
    variant (RFC 4122) bits set, as lowercase hex in 8-4-4-4-12 groups."""
    raw = bytearray(os.urandom(16))
    raw[6] = raw[6] & 0x0F | 0x40
    raw[8] = raw[8] & 0x3F | 0x80
    text = raw.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


# --- objects ----------------------------------------------------------------


def expect_object(data: object, ctx: Context, message: str) -> Mapping[Any, Any] | None:
    if isinstance(data, dict):
        return data
    ctx.error(message, "type", value=data)
    return None


def reject_unknown(
    obj: Mapping[Any, Any], ctx: Context, known: frozenset[str], message: str
) -> None:
    for key in obj:
        if key not in known:
            ctx.error(message, "additionalProperties", str(key), obj[key])


def keep_unknown(
    obj: Mapping[Any, Any], ctx: Context, known: frozenset[str]
) -> dict[str, Any]:
    """The properties of an open model's object that its fields do not name, in document
    order: JSON Schema lets them hold any value, and a reader keeps them so that to_dict
    writes them back. Each is held to the input policy of a free-form value at its own
    pointer (depth, numbers); a value or name no JSON text holds (from from_dict) is refused.
    """
    extra: dict[str, Any] = {}
    for key, value in obj.items():
        if type(key) is not str:
            # At the object, as any_json refuses a name that is not a string.
            ctx.error(_UNKNOWN_VALUE_MESSAGE, "type", value=obj)
        elif key not in known:
            kept = ctx.child(key, value, _UNKNOWN_VALUE)
            if kept is not INVALID:
                extra[key] = kept
    return extra


def fast_unknown(
    obj: Mapping[Any, Any], known: frozenset[str], room: int
) -> dict[str, Any]:
    """keep_unknown for a fast path: Unsure unless every name and value surely passes."""
    extra = {key: value for key, value in obj.items() if key not in known}
    if not fast_unknown_kept(extra, known, room):
        raise Unsure
    return extra


def fast_unknown_kept(extra: object, known: frozenset[str], room: int) -> bool:
    """Whether keep_unknown surely accepts these properties as they are: a dict of names
    that are strings and no field's, holding values any_json surely accepts (fast_unknown's
    check, and validate()'s fast check of what to_dict writes after the fields)."""
    if type(extra) is not dict:
        return False
    for key, value in extra.items():
        if type(key) is not str or key in known:
            return False
        if type(value) is not str and not json_fits(value, room):
            return False
    return True


# --- scalars ----------------------------------------------------------------


class Matcher(Protocol):
    """A spec pattern, compiled: regex() or Automaton(). search() is not None when the value matches."""

    def search(self, value: str, /) -> object: ...


def open_enum(msgs: Mapping[str, str], enum: frozenset[str]) -> Parser:
    """An open enum: a value it lists, or any other string kept as Unknown."""

    def parse_open_enum(value: object, ctx: Context) -> Any:
        if not isinstance(value, str):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        return value if value in enum else Unknown(value)

    return parse_open_enum


def string(
    msgs: Mapping[str, str],
    min_length: int | None = None,
    max_length: int | None = None,
    pattern: Matcher | None = None,
    enum: frozenset[str] | None = None,
    const: str | None = None,
    format: str | None = None,
) -> Parser:
    compiled = pattern

    def parse_string(value: object, ctx: Context) -> Any:
        if not isinstance(value, str):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        mark = ctx.count
        if const is not None and value != const:
            ctx.error(msgs["const"], "const", value=value)
        if enum is not None and value not in enum:
            ctx.error(msgs["enum"], "enum", value=value)
        if min_length is not None and len(value) < min_length:
            ctx.error(msgs["minLength"], "minLength", value=value)
        if max_length is not None and len(value) > max_length:
            ctx.error(msgs["maxLength"], "maxLength", value=value)
        if compiled is not None and compiled.search(value) is None:
            ctx.error(msgs["pattern"], "pattern", value=value)
        if format is not None and not format_ok(format, value):
            ctx.error(msgs["format"], "format", value=value)
        return INVALID if ctx.failed_since(mark) else value

    def quick_string(value: object) -> Any:
        if (
            not isinstance(value, str)
            or const is not None
            and value != const
            or enum is not None
            and value not in enum
            or min_length is not None
            and len(value) < min_length
            or max_length is not None
            and len(value) > max_length
            or compiled is not None
            and compiled.search(value) is None
            or format is not None
            and not format_ok(format, value)
        ):
            return INVALID
        return value

    return _quick(parse_string, quick_string, 1)


_RFC3339: Final = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))",
    re.ASCII,
)


class DateTime(datetime):
    """A timezone-aware datetime that remembers its RFC 3339 wire text.

    to_dict() writes the text back unchanged ("Z" stays "Z", fractions keep
    their digits) as long as the value still denotes the same instant and offset.
    """

    # No __dict__: one is built per date-time of a document, and setting wire is cheaper.
    __slots__ = ("wire",)
    wire: str


def parse_datetime_text(text: str) -> datetime | None:
    m = _RFC3339.fullmatch(text)
    if m is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    fraction = m.group(7)
    micro = int((fraction[1:] + "000000")[:6]) if fraction else 0
    if m.group(8):
        tz = timezone.utc
    else:
        off_h, off_m = int(m.group(10)), int(m.group(11))
        if off_h > 23 or off_m > 59:
            return None
        sign = -1 if m.group(9) == "-" else 1
        tz = timezone(sign * timedelta(hours=off_h, minutes=off_m))
    try:
        result = DateTime(year, month, day, hour, minute, second, micro, tzinfo=tz)
    except ValueError:
        return None
    result.wire = text
    return result


def format_datetime(value: datetime) -> str:
    wire = getattr(value, "wire", None)
    if wire is not None:
        again = parse_datetime_text(wire)
        if (
            again == value
            and again is not None
            and again.utcoffset() == value.utcoffset()
        ):
            return str(wire)
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def date_time(msgs: Mapping[str, str]) -> Parser:
    def parse_date_time(value: object, ctx: Context) -> Any:
        if not isinstance(value, str):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        result = parse_datetime_text(value)
        if result is None:
            ctx.error(msgs["format"], "format", value=value)
            return INVALID
        return result

    return parse_date_time


# --- format: the formats chatspec asserts on a string, the same in every runtime ---
# Each is a regular expression over ASCII, written in the syntax Python's re, Go's regexp and
# JavaScript's RegExp read alike (FORMAT_PATTERNS: the same text in all three, which a test
# compares), matched against the whole string, plus date's and time's checks of the numbers.
# Every repetition is unambiguous or bounded, so a backtracking engine matches in linear time.
_DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_IPV4 = _DEC_OCTET + "(?:\\." + _DEC_OCTET + "){3}"
_H16 = "[0-9A-Fa-f]{1,4}"
_LS32 = "(?:" + _H16 + ":" + _H16 + "|" + _IPV4 + ")"
_IPV6 = (
    "(?:(?:"
    + _H16
    + ":){6}"
    + _LS32
    + "|::(?:"
    + _H16
    + ":){5}"
    + _LS32
    + "|(?:"
    + _H16
    + ")?::(?:"
    + _H16
    + ":){4}"
    + _LS32
    + "".join(
        "|(?:(?:" + _H16 + ":){0," + str(n) + "}" + _H16 + ")?::" + tail
        for n, tail in (
            (1, "(?:" + _H16 + ":){3}" + _LS32),
            (2, "(?:" + _H16 + ":){2}" + _LS32),
            (3, _H16 + ":" + _LS32),
            (4, _LS32),
            (5, _H16),
            (6, ""),
        )
    )
    + ")"
)
# RFC 3986, appendix A, with every run of characters and percent-encodings written as
# _run writes it: a loop turns once per percent-encoding, not once per character (JavaScript's
# engine keeps one backtracking entry per turn, and a data: URI may be megabytes long).
_UNRESERVED = "A-Za-z0-9\\-._~"
_SUB_DELIMS = "!$&'()*+,;="
_PCT = "%[0-9A-Fa-f]{2}"


def _run(chars: str) -> str:
    """Any run of the characters and percent-encodings, e.g. a path's (pchar / "/")*."""
    return "[" + chars + "]*(?:" + _PCT + "[" + chars + "]*)*"


def _unit(chars: str) -> str:
    """One of the characters, or a percent-encoding."""
    return "(?:[" + chars + "]|" + _PCT + ")"


_PCHAR = _UNRESERVED + _SUB_DELIMS + ":@"
_AUTHORITY = (
    "(?:"
    + _run(_UNRESERVED + _SUB_DELIMS + ":")
    + "@)?(?:\\[(?:"
    + _IPV6
    + "|[vV][0-9A-Fa-f]+\\.["
    + _UNRESERVED
    + _SUB_DELIMS
    + ":]+)\\]|"
    + _run(_UNRESERVED + _SUB_DELIMS)
    + ")(?::[0-9]*)?"
)
# path-abempty, *( "/" segment ): nothing, or "/" and any pchars and slashes.
_SEGMENTS = "(?:/" + _run(_PCHAR + "/") + ")?"
# path-absolute: "/" not followed by another "/" (segment-nz *( "/" segment ) is one pchar, then
# pchars and slashes: each character read one way only, so that re does not backtrack).
_ABSOLUTE = "/(?:" + _unit(_PCHAR) + _run(_PCHAR + "/") + ")?"
_TAIL = "(?:\\?" + _run(_PCHAR + "/?") + ")?(?:#" + _run(_PCHAR + "/?") + ")?"
_URI = (
    "[A-Za-z][A-Za-z0-9+\\-.]*:(?://"
    + _AUTHORITY
    + _SEGMENTS
    + "|"
    + _ABSOLUTE
    + "|"
    + _unit(_PCHAR)
    + _run(_PCHAR + "/")
    + ")?"
    + _TAIL
)
# A relative reference's first segment has no ":" (path-noscheme).
_RELATIVE = (
    "(?://"
    + _AUTHORITY
    + _SEGMENTS
    + "|"
    + _ABSOLUTE
    + "|"
    + _unit(_UNRESERVED + _SUB_DELIMS + "@")
    + _run(_UNRESERVED + _SUB_DELIMS + "@")
    + _SEGMENTS
    + ")?"
    + _TAIL
)
# RFC 5321's Mailbox: a dot-string or a quoted string, @, a domain or an address literal.
_ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-]+"
_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9\\-]{0,61}[A-Za-z0-9])?"
_EMAIL = (
    "(?:"
    + _ATEXT
    + "(?:\\."
    + _ATEXT
    + ')*|"(?:[ !#-\\[\\]-~]|\\\\[ -~])*")@(?:'
    + _LABEL
    + "(?:\\."
    + _LABEL
    + ")*|\\["
    + _IPV4
    + "\\]|\\[IPv6:"
    + _IPV6
    + "\\])"
)
FORMAT_PATTERNS: Final = {
    "date": "([0-9]{4})-([0-9]{2})-([0-9]{2})",
    "time": "([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))",
    "uri": _URI,
    "uri-reference": "(?:" + _URI + "|" + _RELATIVE + ")",
    "uuid": "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
    "email": _EMAIL,
}
# Compiled when a format is first checked: the uri, uri-reference and email patterns take 12 ms to compile,
# which every import of the package paid, whether its formats assert one or not.
_FORMAT_RES: Final[dict[str, re.Pattern[str]]] = {}
_DAYS: Final = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def format_ok(name: str, text: str) -> bool:
    """Whether text is a string of the format (one chatspec asserts: lower keeps no other).
    date: RFC 3339 full-date; time: full-time (a leap second only at 23:59:60 UTC); uri and
    uri-reference: RFC 3986; uuid: RFC 9562's text form, any version; email: RFC 5321.
    """
    if name == "date-time":
        return parse_datetime_text(text) is not None
    if name == "email" and len(text) > 254:
        return False  # RFC 5321's limit: a path of 256 octets, its brackets included
    pattern = _FORMAT_RES.get(name)
    if pattern is None:
        pattern = _FORMAT_RES[name] = re.compile(FORMAT_PATTERNS[name])
    m = pattern.fullmatch(text)
    if m is None:
        return False
    if name == "date":
        year, month, day = int(m[1]), int(m[2]), int(m[3])
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        # No year 0, as in a date-time: no target's date value holds it.
        return (
            year >= 1
            and 1 <= month <= 12
            and 1 <= day <= _DAYS[month - 1] - (month == 2 and not leap)
        )
    if name == "time":
        hour, minute, second = int(m[1]), int(m[2]), int(m[3])
        off = 0
        if m[4] is not None:
            if int(m[5]) > 23 or int(m[6]) > 59:
                return False
            off = (int(m[5]) * 60 + int(m[6])) * (1 if m[4] == "+" else -1)
        if hour > 23 or minute > 59 or second > 60:
            return False
        # A leap second is the last second of a UTC day.
        return second < 60 or (hour * 60 + minute - off) % 1440 == 1439
    return True


# Standard alphabet with padding; the exported JSON Schema carries the same
# pattern so that a reference validator reaches the same verdict.
BASE64_PATTERN: Final = (
    r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![\s\S])"
)
_BASE64: Final = re.compile(BASE64_PATTERN)


def base64_bytes(msgs: Mapping[str, str]) -> Parser:
    def parse_base64(value: object, ctx: Context) -> Any:
        if not isinstance(value, str):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        if _BASE64.match(value) is None:
            ctx.error(msgs["contentEncoding"], "contentEncoding", value=value)
            return INVALID
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            ctx.error(msgs["contentEncoding"], "contentEncoding", value=value)
            return INVALID

    return parse_base64


class Bounds(TypedDict, total=False):
    """The limits a spec sets on a number, each given only when the spec has it."""

    const: float  # checked first: a const, then an enum, then the bounds
    enum: frozenset[float]
    minimum: float
    maximum: float
    exclusive_minimum: float
    exclusive_maximum: float
    multiple_of: int  # integers only (lower refuses it on a number)


def _bounds(
    value: float, ctx: Context, msgs: Mapping[str, str], bounds: Bounds
) -> bool:
    if not bounds:
        return True
    mark = ctx.count
    const = bounds.get("const")
    enum = bounds.get("enum")
    if const is not None and value != const:
        ctx.error(msgs["const"], "const", value=value)
    if enum is not None and value not in enum:
        ctx.error(msgs["enum"], "enum", value=value)
    minimum = bounds.get("minimum")
    maximum = bounds.get("maximum")
    exclusive_minimum = bounds.get("exclusive_minimum")
    exclusive_maximum = bounds.get("exclusive_maximum")
    multiple_of = bounds.get("multiple_of")
    if minimum is not None and value < minimum:
        ctx.error(msgs["minimum"], "minimum", value=value)
    if maximum is not None and value > maximum:
        ctx.error(msgs["maximum"], "maximum", value=value)
    if exclusive_minimum is not None and value <= exclusive_minimum:
        ctx.error(msgs["exclusiveMinimum"], "exclusiveMinimum", value=value)
    if exclusive_maximum is not None and value >= exclusive_maximum:
        ctx.error(msgs["exclusiveMaximum"], "exclusiveMaximum", value=value)
    if multiple_of is not None and value % multiple_of:
        ctx.error(msgs["multipleOf"], "multipleOf", value=value)
    return not ctx.failed_since(mark)


# Integers are 64-bit in every target, so Go and Python accept the same values.
_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1


def _within(bounds: Bounds) -> Callable[[float], bool]:
    """Whether a number meets the bounds (_bounds without a Context)."""
    if not bounds:
        return lambda value: True
    low = bounds.get("minimum")
    high = bounds.get("maximum")
    above = bounds.get("exclusive_minimum")
    below = bounds.get("exclusive_maximum")
    step = bounds.get("multiple_of")
    const = bounds.get("const")
    enum = bounds.get("enum")

    def within(value: float) -> bool:
        return (
            (const is None or value == const)
            and (enum is None or value in enum)
            and (low is None or value >= low)
            and (high is None or value <= high)
            and (above is None or value > above)
            and (below is None or value < below)
            and (step is None or value % step == 0)
        )

    return within


def _finite_float(value: int | float) -> bool:
    """Whether a JSON number fits a float64 (Go's float64; a huge int does not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def integer(msgs: Mapping[str, str], **bounds: Unpack[Bounds]) -> Parser:
    def parse_integer(value: object, ctx: Context) -> Any:
        # JSON Schema counts 1.0 as an integer; bool is not a number in JSON.
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        if not _INT64_MIN <= value <= _INT64_MAX:
            ctx.error(msgs["int64"], "int64", value=value)
            return INVALID
        return value if _bounds(value, ctx, msgs, bounds) else INVALID

    within = _within(bounds)

    def quick_integer(value: object) -> Any:
        if type(value) is not int or not _INT64_MIN <= value <= _INT64_MAX:
            return INVALID
        return value if within(value) else INVALID

    return _quick(parse_integer, quick_integer, 1)


def number(msgs: Mapping[str, str], **bounds: Unpack[Bounds]) -> Parser:
    def parse_number(value: object, ctx: Context) -> Any:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not _finite_float(value)
        ):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        return value if _bounds(value, ctx, msgs, bounds) else INVALID

    within = _within(bounds)

    def quick_number(value: object) -> Any:
        if not (
            type(value) is float
            and -INF < value < INF
            or type(value) is int
            and _INT64_MIN <= value <= _INT64_MAX
        ):
            return INVALID
        return value if within(value) else INVALID

    return _quick(parse_number, quick_number, 1)


def boolean(
    msgs: Mapping[str, str],
    const: bool | None = None,
    enum: frozenset[bool] | None = None,
) -> Parser:
    def parse_boolean(value: object, ctx: Context) -> Any:
        if not isinstance(value, bool):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        ok = True
        if const is not None and value is not const:
            ctx.error(msgs["const"], "const", value=value)
            ok = False
        if enum is not None and value not in enum:
            ctx.error(msgs["enum"], "enum", value=value)
            ok = False
        return value if ok else INVALID

    def quick_boolean(value: object) -> Any:
        if value is not True and value is not False:
            return INVALID
        if const is not None and value is not const:
            return INVALID
        return value if enum is None or value in enum else INVALID

    return _quick(parse_boolean, quick_boolean, 1)


def any_json(msgs: Mapping[str, str]) -> Parser:
    """Any JSON value, checked without recursion, in document order.

    A value more than MAX_DEPTH levels below the document root is refused (at
    its pointer); so is a number no float can hold (1e400) or an integer of
    more than MAX_INT_DIGITS digits. Integers of any other size stay exact.
    """

    def parse_any(value: object, ctx: Context) -> Any:
        room = MAX_DEPTH - len(ctx._path)  # how many levels the value may add
        stack: list[tuple[object, int, str | int]] = [(value, 0, "")]
        path: list[str] = []
        while stack:
            item, depth, key = stack.pop()
            if depth:
                del path[depth - 1 :]
                path.append(str(key))
            if depth > room:
                ctx.error(DEPTH_MESSAGE, "depth", tuple(path))
                return INVALID
            if item is None or isinstance(item, (str, bool)):
                continue
            if isinstance(item, int):
                if (
                    item.bit_length() > _INT_DIGITS_BITS
                    and abs(item) >= _INT_DIGITS_LIMIT
                ):
                    ctx.error(msgs["type"], "type")
                    return INVALID
                continue
            if isinstance(item, float) and math.isfinite(item):
                continue
            if isinstance(item, list):
                stack.extend(
                    (item[i], depth + 1, i) for i in range(len(item) - 1, -1, -1)
                )
                continue
            if isinstance(item, dict) and all(isinstance(k, str) for k in item):
                stack.extend((v, depth + 1, k) for k, v in reversed(item.items()))
                continue
            ctx.error(msgs["type"], "type")
            return INVALID
        return value

    return parse_any


@dataclass(frozen=True)
class Unknown:
    """A value of an open enum or union that this version does not know, kept as read
    and written back unchanged: Unknown("video") for an enum, Unknown({"type": "video",
    ...}) for a union. Match on it (case Unknown(value): ...) to handle what a later
    version of the format adds."""

    value: Any

    def to_dict(self) -> Any:
        """The value as read (to_dict and to_json write it back unchanged)."""
        return dump(self.value)


def known_or_kept(value: object) -> object:
    """The value a rule reads: an open enum's Unknown is the string it keeps."""
    return value.value if type(value) is Unknown else value


# What keep_unknown reads an open model's other properties with.
_UNKNOWN_VALUE_MESSAGE: Final = "must be a JSON value"
_UNKNOWN_VALUE: Final = any_json({"type": _UNKNOWN_VALUE_MESSAGE})

_INT_DIGITS_LIMIT: Final = 10**MAX_INT_DIGITS
_INT_DIGITS_BITS: Final = _INT_DIGITS_LIMIT.bit_length() - 2


# --- containers -------------------------------------------------------------


def nullable(inner: Parser) -> Parser:
    def parse_nullable(value: object, ctx: Context) -> Any:
        return None if value is None else inner(value, ctx)

    quick = _QUICK.get(inner)
    if quick is None:
        return parse_nullable
    inner_quick = quick[0]

    def quick_nullable(value: object) -> Any:
        return None if value is None else inner_quick(value)

    return _quick(parse_nullable, quick_nullable, quick[1])


def number_key(text: str) -> str:
    """A JSON number's text reduced to sign, significant digits and exponent: 1, 1.0, 1e0 and
    10E-1 all give "1e0", and -0 gives "0". The Go runtime reduces numbers the same way.
    """
    sign = "-" if text.startswith("-") else ""
    mantissa, _, exponent = text.lstrip("-").lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    if not digits:
        return "0"
    significant = digits.rstrip("0")
    return f"{sign}{significant}e{int(exponent or 0) - len(fraction) + len(digits) - len(significant)}"


_unique_tokens = itertools.count()


def _same_key(value: object, depth: int) -> object:
    """A hashable key, equal for equal JSON values (numbers compare by value, as JSON Schema says).

    Values more than MAX_DEPTH levels deep are refused anyway; each is its own key.
    """
    if depth > MAX_DEPTH:
        return ("deep", next(_unique_tokens))
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        exact = value.bit_length() <= _INT_DIGITS_BITS or abs(value) < _INT_DIGITS_LIMIT
        return ("n", number_key(_digits_of(value)) if exact else next(_unique_tokens))
    if isinstance(value, float):
        if value.is_integer():
            # A whole number is keyed by its exact value, as Python compares it with an int: 2.0**57 is
            # 144115188075855872 (its shortest form, 1.4411518807585587e+17, is another number).
            return ("n", number_key(str(int(value))))
        return ("n", number_key(repr(value)) if math.isfinite(value) else repr(value))
    if isinstance(value, (list, tuple)):
        return ("a", tuple(_same_key(v, depth + 1) for v in value))
    if isinstance(value, dict):
        return ("o", frozenset((k, _same_key(v, depth + 1)) for k, v in value.items()))
    return ("other", next(_unique_tokens))


def _has_duplicates(items: list[Any], depth: int) -> bool:
    seen = set()
    for item in items:
        key = _same_key(item, depth)
        if key in seen:
            return True
        seen.add(key)
    return False


def list_of(
    item: Parser,
    msgs: Mapping[str, str],
    min_items: int | None = None,
    max_items: int | None = None,
    unique_items: bool = False,
) -> Parser:
    def parse_list(value: object, ctx: Context) -> Any:
        if not isinstance(value, list):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        mark = ctx.count
        if min_items is not None and len(value) < min_items:
            ctx.error(msgs["minItems"], "minItems", value=value)
        if max_items is not None and len(value) > max_items:
            ctx.error(msgs["maxItems"], "maxItems", value=value)
        if unique_items and _has_duplicates(value, len(ctx._path) + 1):
            ctx.error(msgs["uniqueItems"], "uniqueItems", value=value)
        result: list[Any] = []
        start = 0
        if ctx._done is not None:
            key = (id(value), len(ctx._path) + 1)
            kept = ctx._done.get(key)
            if (
                kept is not None
                and kept[0] is value
                and _same_above(kept[2], ctx._values)
            ):
                # Built by a fast attempt: surely valid, no problem to report. Once, as in
                # Context.kept: a list met twice (shared by a caller of from_dict) is walked
                # the second time, so it gets its own problems and a result of its own.
                del ctx._done[key]
                result = kept[1]
                start = len(result)
        rest = enumerate(value[start:], start) if start else enumerate(value)
        if len(ctx._path) + item_levels <= MAX_DEPTH:
            # Context.child's quick attempt, without a call per item that passes.
            for i, v in rest:
                built = item_quick(v)
                if built is INVALID:
                    built = ctx.walk(i, v, item)
                result.append(built)
        else:
            result.extend(ctx.child(i, v, item) for i, v in rest)
        return INVALID if ctx.failed_since(mark) else result

    # No quick check of a whole list: after a failed attempt the walk would try each item again.
    quick = _QUICK.get(item)
    item_quick = quick[0] if quick is not None else _no_quick
    item_levels = quick[1] if quick is not None else MAX_DEPTH + 1
    return parse_list


def tuple_of(items: tuple[Parser, ...], msgs: Mapping[str, str]) -> Parser:
    def parse_tuple(value: object, ctx: Context) -> Any:
        if not isinstance(value, list):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        if len(value) != len(items):
            ctx.error(msgs["prefixItems"], "prefixItems", value=value)
            return INVALID
        mark = ctx.count
        result = tuple(ctx.child(i, v, p) for i, (v, p) in enumerate(zip(value, items)))
        return INVALID if ctx.failed_since(mark) else result

    quicks = [_QUICK.get(p) for p in items]
    if not all(quicks):
        return parse_tuple
    checks = tuple(q[0] for q in quicks if q is not None)
    count = len(checks)

    def quick_tuple(value: object) -> Any:
        if not isinstance(value, list) or len(value) != count:
            return INVALID
        result = []
        for check, v in zip(checks, value):
            built = check(v)
            if built is INVALID:
                return INVALID
            result.append(built)
        return tuple(result)

    return _quick(
        parse_tuple,
        quick_tuple,
        1 + max((q[1] for q in quicks if q is not None), default=0),
    )


def map_of(value_parser: Parser, msgs: Mapping[str, str]) -> Parser:
    def parse_map(value: object, ctx: Context) -> Any:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        mark = ctx.count
        result = {k: ctx.child(k, v, value_parser) for k, v in value.items()}
        return INVALID if ctx.failed_since(mark) else result

    return parse_map


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if math.isfinite(value) and value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "unknown"


def union_by_kind(variants: Mapping[str, Parser], msgs: Mapping[str, str]) -> Parser:
    """A union whose variants have distinct JSON kinds: the kind picks the variant."""

    def parse_union(value: object, ctx: Context) -> Any:
        kind = _json_kind(value)
        variant = variants.get(kind)
        if variant is None and kind == "integer":
            variant = variants.get("number")
        if variant is None:
            ctx.error(msgs["oneOf"], "oneOf", value=value)
            return INVALID
        return variant(value, ctx)

    return parse_union


def union_by_tag(
    tag: str,
    variants: Mapping[str, Parser],
    msgs: Mapping[str, str],
    open: bool = False,
) -> Parser:
    """A union of object models told apart by the constant value of one property. An open
    one keeps an object whose tag is a string no variant has as Unknown (its other
    properties held to the input policy of a free-form value)."""

    def parse_tagged(value: object, ctx: Context) -> Any:
        if not isinstance(value, dict):
            ctx.error(msgs["type"], "type", value=value)
            return INVALID
        if value.get(tag) is None:
            ctx.error(msgs["discriminator"], "discriminator", tag)
            return INVALID
        variant = variants.get(value[tag]) if isinstance(value[tag], str) else None
        if variant is None and open and isinstance(value[tag], str):
            # Each property at its own pointer, as an open model's other properties.
            mark = ctx.mark()
            kept = keep_unknown(value, ctx, frozenset())
            return INVALID if ctx.failed_since(mark) else Unknown(kept)
        if variant is None:
            ctx.error(msgs["discriminatorValue"], "discriminator", tag, value[tag])
            return INVALID
        return variant(value, ctx)

    return parse_tagged


# --- spec rules (x-rules) ---------------------------------------------------


def _index(token: str) -> int:
    """A pointer token as an array index, -1 for any other: ASCII digits only ("²" is a digit to isdigit,
    and int() refuses it; the spec's pointers hold at most 4 digits)."""
    return int(token) if token.isascii() and token.isdigit() else -1


def resolve(value: object, pointer: tuple[str, ...]) -> object:
    """Follow JSON pointer tokens into a JSON value; _MISSING when absent."""
    for token in pointer:
        if isinstance(value, dict):
            value = value.get(token, _MISSING)
        elif isinstance(value, list) and 0 <= (i := _index(token)) < len(value):
            value = value[i]
        else:
            return _MISSING
    return value


def _usable(inputs: tuple[object, ...]) -> bool:
    # A rule only judges inputs that passed their own checks, so one bad value
    # is reported once, by the check that owns it.
    # (The inputs are parsed values, whose == never claims to equal the INVALID marker.)
    return INVALID not in inputs


def _applies(
    obj: Mapping[Any, Any],
    when_field: str,
    when_pointer: tuple[str, ...],
    equals: str,
    inputs: tuple[object, ...],
) -> bool:
    """Whether a conditional rule judges obj: its inputs are usable and the condition holds."""
    return (
        _usable(inputs)
        and resolve(obj.get(when_field, _MISSING), when_pointer) == equals
    )


def rule_member_of(
    ctx: Context,
    field: str,
    value: object,
    up: int,
    pointer: tuple[str, ...],
    message: str,
) -> None:
    """The string at `field` must be an item of the array found at a relative JSON pointer."""
    value = known_or_kept(value)
    if not isinstance(value, str):
        return
    pool = resolve(ctx.ancestor(up), pointer)
    if not isinstance(pool, list):
        return
    members = ctx.members(pool)  # a set built once per document, not a scan per check
    if members is None or value in members:
        return  # a member is never a problem; a list of non-strings is judged elsewhere
    if ctx.failed_at(up, pointer):
        return  # the list itself is wrong; that is reported where it is
    ctx.error(message, "member_of", field, value)


def rule_required_when(
    ctx: Context,
    obj: Mapping[Any, Any],
    field: str,
    when_field: str,
    when_pointer: tuple[str, ...],
    equals: str,
    message: str,
    inputs: tuple[object, ...],
) -> None:
    """`field` must be present (and not null) when `when_field` (at a pointer) equals a value."""
    if (
        _applies(obj, when_field, when_pointer, equals, inputs)
        and obj.get(field) is None
    ):
        ctx.error(message, "required_when", field)


def rule_at_least_one_of(
    ctx: Context, obj: Mapping[Any, Any], fields: tuple[str, ...], message: str
) -> None:
    """At least one of `fields` must be present and not null."""
    if all(obj.get(f) is None for f in fields):
        ctx.error(message, "at_least_one_of")


def rule_allowed_when(
    ctx: Context,
    obj: Mapping[Any, Any],
    field: str,
    each: tuple[str, ...],
    when_field: str,
    when_pointer: tuple[str, ...],
    equals: str,
    allowed: frozenset[str],
    message: str,
    inputs: tuple[object, ...],
) -> None:
    """When `when_field` equals a value, each item of `field` (at `each`) must be allowed."""
    items = obj.get(field)
    if not isinstance(items, list) or not _applies(
        obj, when_field, when_pointer, equals, inputs
    ):
        return
    for i, item in enumerate(items):
        found = resolve(item, each)
        if found is not _MISSING and found not in allowed:
            ctx.error(message, "allowed_when", (field, str(i), *each), found)


def rule_contains(
    ctx: Context,
    obj: Mapping[Any, Any],
    field: str,
    each: tuple[str, ...],
    equals: str,
    message: str,
    inputs: tuple[object, ...],
) -> None:
    """At least one item of `field` must have `equals` at `each`."""
    if not _usable(inputs):
        return
    items = obj.get(field)
    if isinstance(items, list) and not any(resolve(i, each) == equals for i in items):
        ctx.error(message, "contains", field)


def rule_compare(
    ctx: Context,
    obj: Mapping[Any, Any],
    fields: tuple[str, str],
    op: str,
    operands: tuple[str, str],
    defaults: tuple[object, object],
    message: str,
    inputs: tuple[object, ...],
) -> None:
    """fields[0] must stand to fields[1] as op says. An absent field compares as its
    default (None: it has none); a side that is null, or absent without a default,
    leaves the rule nothing to judge."""
    if not _usable(inputs):
        return
    left = obj.get(fields[0], defaults[0])
    right = obj.get(fields[1], defaults[1])
    if not fast_compare(op, left, right, operands):
        ctx.error(message, "compare", fields[0], left)


_ORDER: Final[Mapping[str, Callable[[Any, Any], bool]]] = {
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    ">": operator.gt,
}


def fast_compare(
    op: str,
    left: object,
    right: object,
    operands: tuple[str, str],
    defaults: tuple[object, object] = (None, None),
) -> bool:
    """Whether a compare rule holds for two values that passed their checks (None:
    absent or null, nothing to judge). On built attributes, defaults are the fields'
    defaults: an attribute left None is not written by to_dict, so it reads as absent.
    """
    if left is None:
        left = defaults[0]
    if right is None:
        right = defaults[1]
    if left is None or right is None:
        return True
    return _ORDER[op](compare_key(left, operands[0]), compare_key(right, operands[1]))


def compare_key(value: Any, operand: str) -> Any:
    """What a compare rule orders: an integer exactly (1.0 is 1), a number as the
    64-bit float Go and TypeScript hold, a string by code point (Python's own order),
    a date-time by its instant (instant)."""
    value = known_or_kept(value)
    if operand == "integer":
        return int(value)
    if operand == "number":
        return float(value)
    if operand == "date-time":
        return instant(value)
    return value


def instant(value: str | datetime) -> tuple[int, str]:
    """A date-time's instant, exact however many fraction digits its text has: whole
    seconds since 0001-01-01T00:00:00Z, then the fraction's digits without trailing
    zeros (as strings these order as the fractions do). A datetime is read from the
    text to_dict() writes for it."""
    text = value if isinstance(value, str) else format_datetime(value)
    m = _RFC3339.fullmatch(text)
    if m is None:
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    seconds = date(year, month, day).toordinal() * 86400 + hour * 3600 + minute * 60
    seconds += second
    if not m.group(8):
        offset = int(m.group(10)) * 3600 + int(m.group(11)) * 60
        seconds += -offset if m.group(9) == "+" else offset
    return seconds, (m.group(7) or ".")[1:].rstrip("0")


# --- output -----------------------------------------------------------------


def dump(value: object) -> Any:
    """Turn a model attribute back into its JSON shape (lists and dicts without recursion)."""
    if not isinstance(value, (list, tuple, dict)):
        return _dump_leaf(value)
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any, int]] = [(value, root, 0)]
    on_path: list[int] = (
        []
    )  # the containers above the one being copied, to refuse a cycle
    on_path_set: set[int] = set()
    while stack:
        source, target, depth = stack.pop()
        while len(on_path) > depth:
            on_path_set.discard(on_path.pop())
        on_path.append(id(source))
        on_path_set.add(id(source))
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, item in items:
            if isinstance(item, (list, tuple, dict)):
                if id(item) in on_path_set:
                    raise ValueError("Circular reference detected")
                copy: Any = {} if isinstance(item, dict) else []
                stack.append((item, copy, depth + 1))
            else:
                copy = _dump_leaf(item)
            if isinstance(target, dict):
                target[key] = copy
            else:
                target.append(copy)
    return root


def _dump_leaf(value: object) -> Any:
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None and not isinstance(value, type):
        return to_dict()
    if isinstance(value, datetime):
        return format_datetime(value)
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode("ascii")
    return value


# --- fast path ----------------------------------------------------------------
# Each generated model has a fast function of straight-line checks that builds the
# objects of a document that is surely valid, and raises Unsure at the first thing
# it is not sure of; the caller then runs the exact walk above, the one source of
# error messages. A fast function never decides that a document is invalid.


class Unsure(Exception):
    """The fast path cannot vouch for a value: run the exact walk."""

    done: Done | None = None
    """The lists whose first items the fast attempt built before it stopped (keep_items)."""


def keep_items(
    unsure: Unsure,
    items: list[Any],
    depth: int,
    built: list[Any],
    above: tuple[object, ...] = (),
) -> None:
    """Hand the items of a list built before a fast attempt stopped (at `depth`, reading no
    ancestor but those in `above`, the list last) to the exact walk: list_of keeps them
    instead of checking them again, for the same list at the same depth below the same values.
    """
    if unsure.done is None:
        unsure.done = {}
    unsure.done[(id(items), depth)] = (items, built, above)


def keep_model(
    unsure: Unsure,
    holder: dict[Any, Any],
    key: str,
    depth: int,
    built: object,
    above: tuple[object, ...] = (),
) -> None:
    """Hand the model a fast attempt built from holder[key] (at `depth`, reading no ancestor but
    those in `above`) before a later check stopped it to the exact walk: the model's parse
    function keeps it (Context.kept) instead of checking the object again. `built` is ABSENT
    when the attempt stopped before it, or the field's default (or None) when the key is absent.
    """
    value = holder.get(key)
    if built is _MISSING or type(value) is not dict:
        return
    if unsure.done is None:
        unsure.done = {}
    unsure.done[(id(value), depth)] = (value, built, above)


def _same_above(above: tuple[object, ...], values: list[object]) -> bool:
    """Whether the values above a list's items (the list last) end with `above`, the same objects."""
    if len(above) > len(values):
        return False
    start = len(values) - len(above)
    return all(a is values[start + i] for i, a in enumerate(above))


ABSENT: Final = _MISSING
"""What dict.get returns for an absent key on the fast path."""

INF: Final = math.inf
BIG: Final = 2**1000
"""An int below this in size surely fits a float64 (number's check); larger ones go to the exact walk."""


class _Probe(Context):
    """A Context whose first problem ends the fast path: the exact rule checks run unchanged."""

    __slots__ = ()

    def error(
        self,
        template: str,
        keyword: str,
        key: str | tuple[str, ...] | None = None,
        value: object = None,
    ) -> None:
        raise Unsure


PROBE: Final = _Probe(None)
"""Passed as ctx to a rule check on the fast path; it keeps no state, so one serves every run."""

# A pool longer than this is left to the exact walk, which builds its set once per run.
FAST_POOL: Final = 64


def fast_member_of(value: object, holder: object, pointer: tuple[str, ...]) -> bool:
    """Whether rule_member_of surely finds no problem: value is no string, the pool
    (at pointer below holder) no list, or value one of its first items."""
    value = known_or_kept(value)
    if not isinstance(value, str):
        return True
    if len(pointer) == 1 and isinstance(holder, dict):
        pool = holder.get(pointer[0])  # resolve's one step into an object
    else:
        pool = resolve(holder, pointer)
    if not isinstance(pool, list):
        return True
    return len(pool) <= FAST_POOL and value in pool


def fast_ancestor(anc: tuple[object, ...], up: int) -> object:
    """The value `up` levels above the one a fast function checks (anc nearest last), or absent."""
    return anc[-up] if len(anc) >= up else _MISSING


def json_fits(value: object, room: int) -> bool:
    """Whether any_json surely accepts value with `room` levels left below it."""
    if room < 0:
        return False
    stack: list[tuple[object, int]] = [(value, 0)]
    seen: set[int] = (
        set()
    )  # a container met twice (shared, or a cycle in a built object): unsure
    while stack:
        item, depth = stack.pop()
        if item is None or isinstance(item, (str, bool)):
            continue
        if isinstance(item, int):
            if item.bit_length() > _INT_DIGITS_BITS:
                return False
            continue
        if isinstance(item, float):
            if not -math.inf < item < math.inf:
                return False
            continue
        if depth >= room or id(item) in seen:
            return False  # a container here has items deeper than room (or is empty: unsure)
        seen.add(id(item))
        if isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
            continue
        if isinstance(item, dict):
            for k, v in item.items():
                if not isinstance(k, str):
                    return False
                stack.append((v, depth + 1))
            continue
        return False
    return True


def has_duplicates(items: list[Any], depth: int) -> bool:
    """uniqueItems' check on the fast path (depth: the items' path length)."""
    return _has_duplicates(items, depth)


# The common shape of an RFC 3339 date-time, every field in range but the day: for text of
# this shape datetime.fromisoformat (in C) builds what parse_datetime_text builds, or fails.
_FAST_RFC3339: Final = re.compile(
    r"\d{4}-(?:0[1-9]|1[0-2])-\d\dT(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,6})?"
    r"(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)",
    re.ASCII,
)


def datetime_or_none(
    value: str,
    _match: Callable[[str], re.Match[str] | None] = _FAST_RFC3339.fullmatch,
    _build: Callable[[str], DateTime] = DateTime.fromisoformat,
) -> datetime | None:
    """A date-time's value, or None where the exact walk would report a problem (or might).
    (_match and _build are bound once: this runs once per date-time of a document.)"""
    if _match(value) is None:
        return parse_datetime_text(value)
    try:
        result = _build(value)
    except ValueError:
        return None
    result.wire = value
    return result


def bytes_or_none(value: str) -> bytes | None:
    """A base64 string's bytes, or None where the exact walk would report a problem."""
    if _BASE64.match(value) is None:
        return None
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return None


# --- patterns: \d and \w pinned to Unicode 14.0 ----------------------------------------------

# The code points a spec pattern's \d and \w match in every target, as Python 3.11's re reads them
# (Unicode 14.0: \d the digits of category Nd, \w every letter and number and "_"). A Python with
# newer tables (3.12 and later) would match more, and Go and JavaScript read them otherwise still, so
# each runtime holds these ranges (chatspec's generator/unicode_classes.py has the same text).
DIGIT_RANGES: Final = (
    "0030-0039 0660-0669 06F0-06F9 07C0-07C9 0966-096F 09E6-09EF 0A66-0A6F 0AE6-0AEF 0B66-0B6F 0BE6-0BEF "
    "0C66-0C6F 0CE6-0CEF 0D66-0D6F 0DE6-0DEF 0E50-0E59 0ED0-0ED9 0F20-0F29 1040-1049 1090-1099 17E0-17E9 "
    "1810-1819 1946-194F 19D0-19D9 1A80-1A89 1A90-1A99 1B50-1B59 1BB0-1BB9 1C40-1C49 1C50-1C59 A620-A629 "
    "A8D0-A8D9 A900-A909 A9D0-A9D9 A9F0-A9F9 AA50-AA59 ABF0-ABF9 FF10-FF19 104A0-104A9 10D30-10D39 "
    "11066-1106F 110F0-110F9 11136-1113F 111D0-111D9 112F0-112F9 11450-11459 114D0-114D9 11650-11659 "
    "116C0-116C9 11730-11739 118E0-118E9 11950-11959 11C50-11C59 11D50-11D59 11DA0-11DA9 16A60-16A69 "
    "16AC0-16AC9 16B50-16B59 1D7CE-1D7FF 1E140-1E149 1E2F0-1E2F9 1E950-1E959 1FBF0-1FBF9 "
)
WORD_RANGES: Final = (
    "0030-0039 0041-005A 005F 0061-007A 00AA 00B2-00B3 00B5 00B9-00BA 00BC-00BE 00C0-00D6 00D8-00F6 "
    "00F8-02C1 02C6-02D1 02E0-02E4 02EC 02EE 0370-0374 0376-0377 037A-037D 037F 0386 0388-038A 038C "
    "038E-03A1 03A3-03F5 03F7-0481 048A-052F 0531-0556 0559 0560-0588 05D0-05EA 05EF-05F2 0620-064A "
    "0660-0669 066E-066F 0671-06D3 06D5 06E5-06E6 06EE-06FC 06FF 0710 0712-072F 074D-07A5 07B1 07C0-07EA "
    "07F4-07F5 07FA 0800-0815 081A 0824 0828 0840-0858 0860-086A 0870-0887 0889-088E 08A0-08C9 0904-0939 "
    "093D 0950 0958-0961 0966-096F 0971-0980 0985-098C 098F-0990 0993-09A8 09AA-09B0 09B2 09B6-09B9 09BD "
    "09CE 09DC-09DD 09DF-09E1 09E6-09F1 09F4-09F9 09FC 0A05-0A0A 0A0F-0A10 0A13-0A28 0A2A-0A30 0A32-0A33 "
    "0A35-0A36 0A38-0A39 0A59-0A5C 0A5E 0A66-0A6F 0A72-0A74 0A85-0A8D 0A8F-0A91 0A93-0AA8 0AAA-0AB0 "
    "0AB2-0AB3 0AB5-0AB9 0ABD 0AD0 0AE0-0AE1 0AE6-0AEF 0AF9 0B05-0B0C 0B0F-0B10 0B13-0B28 0B2A-0B30 "
    "0B32-0B33 0B35-0B39 0B3D 0B5C-0B5D 0B5F-0B61 0B66-0B6F 0B71-0B77 0B83 0B85-0B8A 0B8E-0B90 0B92-0B95 "
    "0B99-0B9A 0B9C 0B9E-0B9F 0BA3-0BA4 0BA8-0BAA 0BAE-0BB9 0BD0 0BE6-0BF2 0C05-0C0C 0C0E-0C10 0C12-0C28 "
    "0C2A-0C39 0C3D 0C58-0C5A 0C5D 0C60-0C61 0C66-0C6F 0C78-0C7E 0C80 0C85-0C8C 0C8E-0C90 0C92-0CA8 "
    "0CAA-0CB3 0CB5-0CB9 0CBD 0CDD-0CDE 0CE0-0CE1 0CE6-0CEF 0CF1-0CF2 0D04-0D0C 0D0E-0D10 0D12-0D3A 0D3D "
    "0D4E 0D54-0D56 0D58-0D61 0D66-0D78 0D7A-0D7F 0D85-0D96 0D9A-0DB1 0DB3-0DBB 0DBD 0DC0-0DC6 0DE6-0DEF "
    "0E01-0E30 0E32-0E33 0E40-0E46 0E50-0E59 0E81-0E82 0E84 0E86-0E8A 0E8C-0EA3 0EA5 0EA7-0EB0 0EB2-0EB3 "
    "0EBD 0EC0-0EC4 0EC6 0ED0-0ED9 0EDC-0EDF 0F00 0F20-0F33 0F40-0F47 0F49-0F6C 0F88-0F8C 1000-102A "
    "103F-1049 1050-1055 105A-105D 1061 1065-1066 106E-1070 1075-1081 108E 1090-1099 10A0-10C5 10C7 10CD "
    "10D0-10FA 10FC-1248 124A-124D 1250-1256 1258 125A-125D 1260-1288 128A-128D 1290-12B0 12B2-12B5 "
    "12B8-12BE 12C0 12C2-12C5 12C8-12D6 12D8-1310 1312-1315 1318-135A 1369-137C 1380-138F 13A0-13F5 "
    "13F8-13FD 1401-166C 166F-167F 1681-169A 16A0-16EA 16EE-16F8 1700-1711 171F-1731 1740-1751 1760-176C "
    "176E-1770 1780-17B3 17D7 17DC 17E0-17E9 17F0-17F9 1810-1819 1820-1878 1880-1884 1887-18A8 18AA "
    "18B0-18F5 1900-191E 1946-196D 1970-1974 1980-19AB 19B0-19C9 19D0-19DA 1A00-1A16 1A20-1A54 1A80-1A89 "
    "1A90-1A99 1AA7 1B05-1B33 1B45-1B4C 1B50-1B59 1B83-1BA0 1BAE-1BE5 1C00-1C23 1C40-1C49 1C4D-1C7D "
    "1C80-1C88 1C90-1CBA 1CBD-1CBF 1CE9-1CEC 1CEE-1CF3 1CF5-1CF6 1CFA 1D00-1DBF 1E00-1F15 1F18-1F1D "
    "1F20-1F45 1F48-1F4D 1F50-1F57 1F59 1F5B 1F5D 1F5F-1F7D 1F80-1FB4 1FB6-1FBC 1FBE 1FC2-1FC4 1FC6-1FCC "
    "1FD0-1FD3 1FD6-1FDB 1FE0-1FEC 1FF2-1FF4 1FF6-1FFC 2070-2071 2074-2079 207F-2089 2090-209C 2102 2107 "
    "210A-2113 2115 2119-211D 2124 2126 2128 212A-212D 212F-2139 213C-213F 2145-2149 214E 2150-2189 "
    "2460-249B 24EA-24FF 2776-2793 2C00-2CE4 2CEB-2CEE 2CF2-2CF3 2CFD 2D00-2D25 2D27 2D2D 2D30-2D67 2D6F "
    "2D80-2D96 2DA0-2DA6 2DA8-2DAE 2DB0-2DB6 2DB8-2DBE 2DC0-2DC6 2DC8-2DCE 2DD0-2DD6 2DD8-2DDE 2E2F "
    "3005-3007 3021-3029 3031-3035 3038-303C 3041-3096 309D-309F 30A1-30FA 30FC-30FF 3105-312F 3131-318E "
    "3192-3195 31A0-31BF 31F0-31FF 3220-3229 3248-324F 3251-325F 3280-3289 32B1-32BF 3400-4DBF 4E00-A48C "
    "A4D0-A4FD A500-A60C A610-A62B A640-A66E A67F-A69D A6A0-A6EF A717-A71F A722-A788 A78B-A7CA A7D0-A7D1 "
    "A7D3 A7D5-A7D9 A7F2-A801 A803-A805 A807-A80A A80C-A822 A830-A835 A840-A873 A882-A8B3 A8D0-A8D9 "
    "A8F2-A8F7 A8FB A8FD-A8FE A900-A925 A930-A946 A960-A97C A984-A9B2 A9CF-A9D9 A9E0-A9E4 A9E6-A9FE "
    "AA00-AA28 AA40-AA42 AA44-AA4B AA50-AA59 AA60-AA76 AA7A AA7E-AAAF AAB1 AAB5-AAB6 AAB9-AABD AAC0 AAC2 "
    "AADB-AADD AAE0-AAEA AAF2-AAF4 AB01-AB06 AB09-AB0E AB11-AB16 AB20-AB26 AB28-AB2E AB30-AB5A AB5C-AB69 "
    "AB70-ABE2 ABF0-ABF9 AC00-D7A3 D7B0-D7C6 D7CB-D7FB F900-FA6D FA70-FAD9 FB00-FB06 FB13-FB17 FB1D "
    "FB1F-FB28 FB2A-FB36 FB38-FB3C FB3E FB40-FB41 FB43-FB44 FB46-FBB1 FBD3-FD3D FD50-FD8F FD92-FDC7 "
    "FDF0-FDFB FE70-FE74 FE76-FEFC FF10-FF19 FF21-FF3A FF41-FF5A FF66-FFBE FFC2-FFC7 FFCA-FFCF FFD2-FFD7 "
    "FFDA-FFDC 10000-1000B 1000D-10026 10028-1003A 1003C-1003D 1003F-1004D 10050-1005D 10080-100FA "
    "10107-10133 10140-10178 1018A-1018B 10280-1029C 102A0-102D0 102E1-102FB 10300-10323 1032D-1034A "
    "10350-10375 10380-1039D 103A0-103C3 103C8-103CF 103D1-103D5 10400-1049D 104A0-104A9 104B0-104D3 "
    "104D8-104FB 10500-10527 10530-10563 10570-1057A 1057C-1058A 1058C-10592 10594-10595 10597-105A1 "
    "105A3-105B1 105B3-105B9 105BB-105BC 10600-10736 10740-10755 10760-10767 10780-10785 10787-107B0 "
    "107B2-107BA 10800-10805 10808 1080A-10835 10837-10838 1083C 1083F-10855 10858-10876 10879-1089E "
    "108A7-108AF 108E0-108F2 108F4-108F5 108FB-1091B 10920-10939 10980-109B7 109BC-109CF 109D2-10A00 "
    "10A10-10A13 10A15-10A17 10A19-10A35 10A40-10A48 10A60-10A7E 10A80-10A9F 10AC0-10AC7 10AC9-10AE4 "
    "10AEB-10AEF 10B00-10B35 10B40-10B55 10B58-10B72 10B78-10B91 10BA9-10BAF 10C00-10C48 10C80-10CB2 "
    "10CC0-10CF2 10CFA-10D23 10D30-10D39 10E60-10E7E 10E80-10EA9 10EB0-10EB1 10F00-10F27 10F30-10F45 "
    "10F51-10F54 10F70-10F81 10FB0-10FCB 10FE0-10FF6 11003-11037 11052-1106F 11071-11072 11075 "
    "11083-110AF 110D0-110E8 110F0-110F9 11103-11126 11136-1113F 11144 11147 11150-11172 11176 "
    "11183-111B2 111C1-111C4 111D0-111DA 111DC 111E1-111F4 11200-11211 11213-1122B 11280-11286 11288 "
    "1128A-1128D 1128F-1129D 1129F-112A8 112B0-112DE 112F0-112F9 11305-1130C 1130F-11310 11313-11328 "
    "1132A-11330 11332-11333 11335-11339 1133D 11350 1135D-11361 11400-11434 11447-1144A 11450-11459 "
    "1145F-11461 11480-114AF 114C4-114C5 114C7 114D0-114D9 11580-115AE 115D8-115DB 11600-1162F 11644 "
    "11650-11659 11680-116AA 116B8 116C0-116C9 11700-1171A 11730-1173B 11740-11746 11800-1182B "
    "118A0-118F2 118FF-11906 11909 1190C-11913 11915-11916 11918-1192F 1193F 11941 11950-11959 "
    "119A0-119A7 119AA-119D0 119E1 119E3 11A00 11A0B-11A32 11A3A 11A50 11A5C-11A89 11A9D 11AB0-11AF8 "
    "11C00-11C08 11C0A-11C2E 11C40 11C50-11C6C 11C72-11C8F 11D00-11D06 11D08-11D09 11D0B-11D30 11D46 "
    "11D50-11D59 11D60-11D65 11D67-11D68 11D6A-11D89 11D98 11DA0-11DA9 11EE0-11EF2 11FB0 11FC0-11FD4 "
    "12000-12399 12400-1246E 12480-12543 12F90-12FF0 13000-1342E 14400-14646 16800-16A38 16A40-16A5E "
    "16A60-16A69 16A70-16ABE 16AC0-16AC9 16AD0-16AED 16B00-16B2F 16B40-16B43 16B50-16B59 16B5B-16B61 "
    "16B63-16B77 16B7D-16B8F 16E40-16E96 16F00-16F4A 16F50 16F93-16F9F 16FE0-16FE1 16FE3 17000-187F7 "
    "18800-18CD5 18D00-18D08 1AFF0-1AFF3 1AFF5-1AFFB 1AFFD-1AFFE 1B000-1B122 1B150-1B152 1B164-1B167 "
    "1B170-1B2FB 1BC00-1BC6A 1BC70-1BC7C 1BC80-1BC88 1BC90-1BC99 1D2E0-1D2F3 1D360-1D378 1D400-1D454 "
    "1D456-1D49C 1D49E-1D49F 1D4A2 1D4A5-1D4A6 1D4A9-1D4AC 1D4AE-1D4B9 1D4BB 1D4BD-1D4C3 1D4C5-1D505 "
    "1D507-1D50A 1D50D-1D514 1D516-1D51C 1D51E-1D539 1D53B-1D53E 1D540-1D544 1D546 1D54A-1D550 "
    "1D552-1D6A5 1D6A8-1D6C0 1D6C2-1D6DA 1D6DC-1D6FA 1D6FC-1D714 1D716-1D734 1D736-1D74E 1D750-1D76E "
    "1D770-1D788 1D78A-1D7A8 1D7AA-1D7C2 1D7C4-1D7CB 1D7CE-1D7FF 1DF00-1DF1E 1E100-1E12C 1E137-1E13D "
    "1E140-1E149 1E14E 1E290-1E2AD 1E2C0-1E2EB 1E2F0-1E2F9 1E7E0-1E7E6 1E7E8-1E7EB 1E7ED-1E7EE "
    "1E7F0-1E7FE 1E800-1E8C4 1E8C7-1E8CF 1E900-1E943 1E94B 1E950-1E959 1EC71-1ECAB 1ECAD-1ECAF "
    "1ECB1-1ECB4 1ED01-1ED2D 1ED2F-1ED3D 1EE00-1EE03 1EE05-1EE1F 1EE21-1EE22 1EE24 1EE27 1EE29-1EE32 "
    "1EE34-1EE37 1EE39 1EE3B 1EE42 1EE47 1EE49 1EE4B 1EE4D-1EE4F 1EE51-1EE52 1EE54 1EE57 1EE59 1EE5B "
    "1EE5D 1EE5F 1EE61-1EE62 1EE64 1EE67-1EE6A 1EE6C-1EE72 1EE74-1EE77 1EE79-1EE7C 1EE7E 1EE80-1EE89 "
    "1EE8B-1EE9B 1EEA1-1EEA3 1EEA5-1EEA9 1EEAB-1EEBB 1F100-1F10C 1FBF0-1FBF9 20000-2A6DF 2A700-2B738 "
    "2B740-2B81D 2B820-2CEA1 2CEB0-2EBE0 2F800-2FA1D 30000-3134A "
)
# Where this Python's re reads \d and \w as the ranges above, patterns keep them (a class of 700 ranges
# costs 4 ms to compile).
NATIVE_CLASSES: Final = unicodedata.unidata_version == "14.0.0"


def _ranges(text: str) -> list[tuple[int, int]]:
    out = []
    for word in text.split():
        lo, _, hi = word.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


def _edges(text: str) -> list[int]:
    """Where the ranges start and end (a range starts at every even index)."""
    return [edge for lo, hi in _ranges(text) for edge in (lo, hi + 1)]


# Made from the tables when first needed (most packages' patterns hold neither escape): a table's text -> its
# ranges as the items of a class, and the letter an automaton names a table by -> the table's edges.
_CLASS_BODIES: dict[str, str] = {}
_TABLE_EDGES: dict[str, list[int]] = {}
_TABLES: Final = {"D": DIGIT_RANGES, "W": WORD_RANGES}


def _class_body(text: str) -> str:
    body = _CLASS_BODIES.get(text)
    if body is None:
        body = _CLASS_BODIES[text] = "".join(
            f"\\U{lo:08x}" if lo == hi else f"\\U{lo:08x}-\\U{hi:08x}"
            for lo, hi in _ranges(text)
        )
    return body


def _table_edges(letter: str) -> list[int] | None:
    """The edges of the table an automaton's alphabet names by letter (None: the item is no table's)."""
    edges = _TABLE_EDGES.get(letter)
    if edges is None and letter in _TABLES:
        edges = _TABLE_EDGES[letter] = _edges(_TABLES[letter])
    return edges


def pinned(pattern: str, native: bool = NATIVE_CLASSES) -> str:
    """A pattern as chatspec writes it for Python's re, its \\d \\w \\D \\W spelt out as the pinned
    ranges unless this Python reads them so itself. (The generator writes \\D and \\W outside classes
    only, and escapes every "[" and "]" it means as a character.)"""
    if native or "\\" not in pattern:
        return pattern
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            name = pattern[i + 1]
            if name in "dwDW":
                body = _class_body(DIGIT_RANGES if name in "dD" else WORD_RANGES)
                out.append(
                    body if in_class else f"[{'^' if name.isupper() else ''}{body}]"
                )
            else:
                out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


def regex(pattern: str) -> re.Pattern[str]:
    """A spec pattern that Python's re runs in time linear in the value's length, compiled once, at
    import (chatspec proves it per pattern: generator/backtracking.py)."""
    return re.compile(pinned(pattern))


class Automaton:
    """A spec pattern as a deterministic automaton (generator/automaton.py), for the patterns Python's re
    could take more than linear time on: search() reads each character once.

    The data is one line: three ";"-separated lists of base-36 numbers: the alphabet, the transition
    table (one row of classes per state), then the start state and the accepting ones. Each item of
    the alphabet is the first code point of an interval and its class ("b.k"), or a run of intervals
    cut at the edges of a pinned table ("W<first edge>.<count>.<class in>.<class out>": an interval
    starting at an even edge is in the table). State 0 matches nothing more, state 1 has matched;
    both end the walk."""

    __slots__ = ("_ascii", "_bounds", "_classes", "_rows", "_start", "_accepting")

    def __init__(self, data: str) -> None:
        alphabet, table_text, states_text = data.split(";")
        bounds: list[int] = []
        classes: list[int] = []
        for item in alphabet.split(","):
            edges = _table_edges(item[0])
            if edges is not None:
                first, count, inside, outside = (
                    int(x, 36) for x in item[1:].split(".")
                )
                bounds.extend(edges[first : first + count])
                classes.extend(
                    outside if j % 2 else inside for j in range(first, first + count)
                )
            else:
                bound, k = item.split(".")
                bounds.append(int(bound, 36))
                classes.append(int(k, 36))
        table = [int(x, 36) for x in table_text.split(",")]
        states = [int(x, 36) for x in states_text.split(",")]
        width = max(classes) + 1
        self._bounds = bounds
        self._classes = classes
        self._ascii = [classes[bisect_right(bounds, c) - 1] for c in range(128)]
        self._rows = [table[i : i + width] for i in range(0, len(table), width)]
        self._start = states[0]
        accepting = set(states[1:])
        self._accepting = [s in accepting for s in range(len(self._rows))]

    def search(self, value: str) -> Literal[True] | None:
        rows, ascii_classes = self._rows, self._ascii
        bounds, classes = self._bounds, self._classes
        state = self._start
        for ch in value:
            code = ord(ch)
            if code < 128:
                state = rows[state][ascii_classes[code]]
            else:
                state = rows[state][classes[bisect_right(bounds, code) - 1]]
            if state < 2:
                break
        return True if self._accepting[state] else None


# --- validate() on a built object: the attributes checked as the exact walk checks to_dict() ---


_UTC: Final = timezone.utc


def datetime_ok(value: object) -> bool:
    """Whether to_dict writes value as a date-time the exact walk accepts: an aware datetime
    whose offset is whole minutes (and whose remembered wire text, if any, is a string).
    """
    if type(value) is DateTime and value.tzinfo is _UTC:
        # The common case, decided without a failed attribute lookup: a DateTime (its slots
        # hold no to_dict) in UTC.
        wire = getattr(value, "wire", None)
        return wire is None or isinstance(wire, str)
    if not isinstance(value, datetime) or hasattr(value, "to_dict"):
        return False
    wire = getattr(value, "wire", None)
    if wire is not None and not isinstance(wire, str):
        return False
    offset = value.utcoffset()
    return offset is not None and not offset.microseconds and not offset.seconds % 60


_JSON_LEAF: Final = (str, int, float, bool)
_JSON_VALUE: Final = (str, int, float, bool, list, tuple, dict)


def resolve_value(value: object, pointer: tuple[str, ...]) -> object:
    """resolve() on built objects: what resolve would find in to_dict()'s JSON shape,
    following wire names through models (_WIRE_ATTRS); raises Unsure where it cannot tell.
    """
    for token in pointer:
        if isinstance(value, (list, tuple)):
            if not 0 <= (i := _index(token)) < len(value):
                return _MISSING
            value = value[i]
        elif isinstance(value, dict):
            value = value.get(token, _MISSING)
        elif value is _MISSING or value is None or isinstance(value, _JSON_LEAF):
            return _MISSING
        else:
            wire: dict[str, str] | None = getattr(type(value), "_WIRE_ATTRS", None)
            if wire is None:
                raise Unsure
            attr = wire.get(token)
            if attr is None:
                return _MISSING
            value = getattr(value, attr)
            if value is None:
                raise Unsure  # left out of to_dict, or written as null
    if value is _MISSING or value is None or isinstance(value, _JSON_VALUE):
        return value
    raise Unsure


def attr_member_of(value: object, holder: object, pointer: tuple[str, ...]) -> bool:
    """fast_member_of on built objects."""
    value = known_or_kept(value)
    if not isinstance(value, str):
        return True
    pool = resolve_value(holder, pointer)
    if not isinstance(pool, (list, tuple)):
        return True
    return len(pool) <= FAST_POOL and value in pool


def attr_all_allowed(
    items: object, each: tuple[str, ...], allowed: frozenset[str]
) -> bool:
    """Whether rule_allowed_when surely finds every item's value (at each) allowed."""
    if items is None:
        return True
    if not isinstance(items, (list, tuple)):
        return False
    for item in items:
        found = resolve_value(item, each)
        if found is _MISSING:
            continue
        if not isinstance(found, str) or found not in allowed:
            return False
    return True


def attr_contains(items: object, each: tuple[str, ...], equals: str) -> bool:
    """Whether rule_contains surely finds an item with equals at each."""
    if items is None:
        return True
    return isinstance(items, (list, tuple)) and any(
        resolve_value(item, each) == equals for item in items
    )


# --- a schema applied as written: JSON Schema's own meaning, for what no type of the target holds ---
#
# generator/lower.py compiles such a schema into "checks" (JSON text, the same in every language): a
# node is true, false or an object of the keywords below, each $ref a key of the bundle's "refs", each
# pattern an index into the module's matchers, and every message final (keyword -> text under
# "messages"). The Go (rt/schema.go) and TypeScript (runtime.ts) runtimes apply the same checks and
# report the same problems. Every (node, value) verdict is computed once per run, so a document is
# checked in time linear in its size however the schema's branches overlap; lower refuses a $ref
# cycle that does not descend into the value, so every walk ends.

_SCHEMA_TYPES: Final = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
}


def _fraction(value: int | float) -> Fraction:
    """A number as the decimal of its shortest form, exactly: 0.0075 is 75/10000 (a float's shortest
    form, which is its JSON text's unless that text has more digits than a float holds).
    """
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def is_multiple(value: int | float, divisor: int | float) -> bool:
    """multipleOf on the decimals the JSON text writes (0.3 is a multiple of 0.1, 1e24 of 1e23), but a
    float that is a whole number over an integer divisor (or a whole one below 2^53, which every form
    writes alike) by its exact value, as Python's % divides: 2.0**62 is a multiple of 1024, though its
    shortest form, 4.611686018427388e+18, is not.
    """
    if (
        isinstance(value, float)
        and value.is_integer()
        and (isinstance(divisor, int) or divisor.is_integer() and abs(divisor) < 2**53)
    ):
        return Fraction(value) % Fraction(divisor) == 0
    return (_fraction(value) / _fraction(divisor)).denominator == 1


class Checks:
    """A compiled schema (see above) and the run's memory of verdicts."""

    __slots__ = ("root", "refs", "matchers", "keys")

    def __init__(self, text: str, matchers: tuple[Matcher, ...]) -> None:
        bundle = json.loads(text)
        self.root: Any = bundle["root"]
        self.refs: dict[str, Any] = bundle["refs"]
        self.matchers = matchers
        # const/enum values as _same_key keys, by the id of the node that holds them and the keyword.
        self.keys: dict[tuple[int, str], frozenset[object]] = {}
        nodes = [self.root, *self.refs.values()]
        while nodes:
            node = nodes.pop()
            if not isinstance(node, dict):
                continue
            if "const" in node:
                self.keys[(id(node), "const")] = frozenset(
                    [_same_key(node["const"], 0)]
                )
            if "enum" in node:
                self.keys[(id(node), "enum")] = frozenset(
                    _same_key(v, 0) for v in node["enum"]
                )
            nodes.extend(_subschemas(node))

    def parser(self, msgs: Mapping[str, str]) -> Parser:
        """any_json's checks (depth, numbers), then the schema's."""
        as_json = any_json(msgs)

        def parse_checked(value: object, ctx: Context) -> Any:
            if as_json(value, ctx) is INVALID:
                return INVALID
            run = _Run(self, ctx)
            if run.valid(self.root, value):
                return value
            run.check(self.root, value, ctx)
            return INVALID

        return parse_checked

    def accepts(self, value: object) -> bool:
        """The verdict alone, for the fast path and validate() (value already within any_json)."""
        return _Run(self, None).valid(self.root, value)


def _subschemas(node: dict[str, Any]) -> Iterator[Any]:
    for key in (
        "items",
        "contains",
        "additionalProperties",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
    ):
        if key in node:
            yield node[key]
    for key in ("prefixItems", "allOf", "anyOf", "oneOf"):
        yield from node.get(key, ())
    yield from node.get("properties", {}).values()
    for key in ("patternProperties", "dependentSchemas"):
        for _, sub in node.get(key, ()):
            yield sub


class _Run:
    """One document's walk: verdicts remembered by (node, value), problems reported once per (node, path).

    check() is one function for both uses, so a verdict and the problems reported cannot disagree:
    without a context it stops at the first problem; with one it records every problem it finds, in
    a fixed order (the same in every runtime): the value's own problems (its type, const and enum,
    its keywords, then each item's or field's problems in document order), then those of each
    subschema applied to it ($ref, allOf, then or else, dependentSchemas), then anyOf, oneOf and
    not. It calls itself directly, one Python frame per schema applied (verdicts are looked up
    where it is called, never through another method), so that a value 128 levels deep stays
    within Python's recursion limit: lower applies at most 4 subschemas to one value before a
    keyword descends into it.
    """

    __slots__ = ("checks", "ctx", "verdicts", "reported")

    def __init__(self, checks: Checks, ctx: Context | None) -> None:
        self.checks = checks
        self.ctx = ctx
        # Keyed by ids: every node and value lives as long as the run (the schema, the document).
        self.verdicts: dict[tuple[int, int], bool] = {}
        self.reported: set[tuple[int, tuple[str | int, ...]]] = set()

    def valid(self, node: Any, value: Any) -> bool:
        # (lower compiles every false schema but items' into a node: check says so)
        if node is True:
            return True
        key = (id(node), id(value))
        verdict = self.verdicts.get(key)
        if verdict is None:
            verdict = self.verdicts[key] = self.check(node, value, None)
        return verdict

    def check(self, node: Any, value: Any, ctx: Context | None) -> bool:
        """Whether node accepts value; with a context, every problem is recorded there (once per node and path)."""
        if node is True:
            return True
        if node is False:
            raise AssertionError(
                "lower compiles every false schema but items' into a node with its message"
            )
        if ctx is not None:
            seen = (id(node), tuple(ctx._path))
            if seen in self.reported:
                return False
            self.reported.add(seen)
        verdicts = self.verdicts
        verdict: (
            bool | None
        )  # a subschema's verdict, looked up (None: not yet known) or computed
        msgs = node["messages"]
        if "false" in node:
            if ctx is not None:
                ctx.error(msgs["false"], "false", None, value)
            return False
        types = node.get("type")
        if types is not None and not any(_SCHEMA_TYPES[t](value) for t in types):
            if ctx is not None:
                ctx.error(msgs["type"], "type", None, value)
            return False  # what else is wrong with a value of another type says little
        # Each problem: (message, keyword, key below the value or None); without a context the first ends the walk.
        problems: list[tuple[str, str, str | None]] = []
        for keyword in ("const", "enum"):
            if (
                keyword in node
                and _same_key(value, 0) not in self.checks.keys[(id(node), keyword)]
            ):
                problems.append((msgs[keyword], keyword, None))
        failed: str | None = None
        if isinstance(value, str):
            failed = self.string(node, value)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            failed = self.number(node, value)
        if failed is not None:
            problems.append((msgs[failed], failed, None))
        # (key, item, subschema): each item or field and a schema that applies to it, in document order.
        below: list[tuple[str | int, Any, Any]] = []
        if isinstance(value, list):
            problems += self.array_problems(node, value, msgs)
            if "contains" in node:
                sub = node["contains"]
                found = 0
                # (No shortcut for a boolean subschema, here or below: check(True) returns at once, and a false one
                # is a node with its message, checks.py.)
                for item in value:
                    verdict = verdicts.get((id(sub), id(item)))
                    if verdict is None:
                        verdict = verdicts[(id(sub), id(item))] = self.check(
                            sub, item, None
                        )
                    found += verdict
                if found < node.get("minContains", 1):
                    problems.append((msgs["minContains"], "minContains", None))
                if "maxContains" in node and found > node["maxContains"]:
                    problems.append((msgs["maxContains"], "maxContains", None))
            prefix = node.get("prefixItems", ())
            # items false: the array reports the items past the prefix once (array_problems).
            rest = node.get("items", True) or True
            below = [
                (i, item, prefix[i] if i < len(prefix) else rest)
                for i, item in enumerate(value)
            ]
        elif isinstance(value, dict):
            problems += self.object_problems(node, value, msgs)
            if "propertyNames" in node:
                sub = node["propertyNames"]
                for name in value:
                    verdict = verdicts.get((id(sub), id(name)))
                    if verdict is None:
                        verdict = verdicts[(id(sub), id(name))] = self.check(
                            sub, name, None
                        )
                    if not verdict:
                        problems.append((msgs["propertyNames"], "propertyNames", name))
            properties = node.get("properties", {})
            patterns = node.get("patternProperties", ())
            rest = node.get("additionalProperties", True)
            matchers = self.checks.matchers
            for name, item in value.items():
                listed = name in properties
                if listed:
                    below.append((name, item, properties[name]))
                for index, sub in patterns:
                    if matchers[index].search(name) is not None:
                        listed = True
                        below.append((name, item, sub))
                if not listed:
                    below.append((name, item, rest))
        if problems and ctx is None:
            return False
        ok = not problems
        for message, keyword, at in problems:
            assert ctx is not None
            ctx.error(message, keyword, at, value)
        for key, item, sub in below:
            if sub is True:
                continue
            verdict = verdicts.get((id(sub), id(item)))
            if verdict is None:
                verdict = verdicts[(id(sub), id(item))] = self.check(sub, item, None)
            if not verdict:
                if ctx is None:
                    return False
                ok = False
                ctx._path.append(key)
                ctx._values.append(item)
                self.check(sub, item, ctx)
                ctx._path.pop()
                ctx._values.pop()
        # The subschemas applied to this same value: each that fails reports its own problems here.
        applied: list[Any] = []
        if "$ref" in node:
            applied.append(self.checks.refs[node["$ref"]])
        applied.extend(node.get("allOf", ()))
        if "if" in node:
            sub = node["if"]
            verdict = verdicts.get((id(sub), id(value)))
            if verdict is None:
                verdict = verdicts[(id(sub), id(value))] = self.check(sub, value, None)
            applied.append(node.get("then" if verdict else "else", True))
        if isinstance(value, dict):
            applied.extend(
                sub
                for trigger, sub in node.get("dependentSchemas", ())
                if trigger in value
            )
        for sub in applied:
            if sub is True:
                continue
            verdict = verdicts.get((id(sub), id(value)))
            if verdict is None:
                verdict = verdicts[(id(sub), id(value))] = self.check(sub, value, None)
            if not verdict:
                if ctx is None:
                    return False
                ok = False
                self.check(sub, value, ctx)
        # anyOf, oneOf and not: how many of their subschemas accept the value (looked up here, not in a call
        # of valid(), to keep to one frame per schema applied).
        for keyword in ("anyOf", "oneOf", "not"):
            if keyword not in node:
                continue
            subs = [node["not"]] if keyword == "not" else node[keyword]
            matched = 0
            for sub in subs:
                verdict = verdicts.get((id(sub), id(value)))
                if verdict is None:
                    verdict = verdicts[(id(sub), id(value))] = self.check(
                        sub, value, None
                    )
                if verdict:
                    matched += 1
                    if keyword == "anyOf":
                        break
            if matched == (0 if keyword == "not" else 1) or (
                keyword == "anyOf" and matched
            ):
                continue
            if ctx is None:
                return False
            ok = False
            ctx.error(msgs[keyword], keyword, None, value)
        return ok

    def string(self, node: dict[str, Any], value: str) -> str | None:
        """The first string keyword the value fails, if any."""
        if "minLength" in node and len(value) < node["minLength"]:
            return "minLength"
        if "maxLength" in node and len(value) > node["maxLength"]:
            return "maxLength"
        if (
            "pattern" in node
            and self.checks.matchers[node["pattern"]].search(value) is None
        ):
            return "pattern"
        if "format" in node and not format_ok(node["format"], value):
            return "format"
        if node.get("contentEncoding") == "base64" and bytes_or_none(value) is None:
            return "contentEncoding"
        return None

    @staticmethod
    def number(node: dict[str, Any], value: int | float) -> str | None:
        """The first number keyword the value fails, if any. Python compares ints and floats by their
        exact values, as JSON Schema compares numbers."""
        if node.get("int64") and not -(2**63) <= value <= 2**63 - 1:
            return "int64"  # an integer a typed definition holds, reached by a $ref
        if "minimum" in node and value < node["minimum"]:
            return "minimum"
        if "maximum" in node and value > node["maximum"]:
            return "maximum"
        if "exclusiveMinimum" in node and value <= node["exclusiveMinimum"]:
            return "exclusiveMinimum"
        if "exclusiveMaximum" in node and value >= node["exclusiveMaximum"]:
            return "exclusiveMaximum"
        if "multipleOf" in node and not is_multiple(value, node["multipleOf"]):
            return "multipleOf"
        return None

    @staticmethod
    def array_problems(
        node: dict[str, Any], value: list[Any], msgs: Mapping[str, str]
    ) -> list[tuple[str, str, str | None]]:
        """The array's own problems but contains' (check counts the items contains accepts, and checks the items)."""
        failed = []
        if "minItems" in node and len(value) < node["minItems"]:
            failed.append("minItems")
        if "maxItems" in node and len(value) > node["maxItems"]:
            failed.append("maxItems")
        if node.get("uniqueItems", False) and _has_duplicates(value, 0):
            failed.append("uniqueItems")
        if node.get("items", True) is False and len(value) > len(
            node.get("prefixItems", ())
        ):
            failed.append("items")
        return [(msgs[keyword], keyword, None) for keyword in failed]

    @staticmethod
    def object_problems(
        node: dict[str, Any], value: dict[str, Any], msgs: Mapping[str, str]
    ) -> list[tuple[str, str, str | None]]:
        """The object's own problems but propertyNames' (check judges the names, and checks the fields' values)."""
        failed: list[tuple[str, str, str | None]] = []
        if "minProperties" in node and len(value) < node["minProperties"]:
            failed.append((msgs["minProperties"], "minProperties", None))
        if "maxProperties" in node and len(value) > node["maxProperties"]:
            failed.append((msgs["maxProperties"], "maxProperties", None))
        failed.extend(
            (msgs["required"], "required", name)
            for name in node.get("required", ())
            if name not in value
        )
        for trigger, names, message in node.get("dependentRequired", ()):
            if trigger in value:
                failed.extend(
                    (message, "dependentRequired", name)
                    for name in names
                    if name not in value
                )
        return failed

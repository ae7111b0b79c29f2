"""The reference validator the generator judges a spec's own values with (its valid examples, its defaults):
jsonschema's Draft 2020-12, with multipleOf and a pattern's `$` read as every runtime reads them.

jsonschema divides floats (0.3 / 0.1 is 2.9999999999999996), so it calls 0.3 no multiple of 0.1; the runtimes
divide the decimals the JSON text writes (each number's shortest form; a float that is a whole number over a whole
divisor, its exact value), exactly. A default or an example the
generated code accepts must not be refused at generate for a float's rounding. The tests' oracle is this too.

jsonschema searches a pattern with Python's `re`, whose `$` also matches before a final line feed; JSON Schema's
dialect is ECMA-262's, whose `$` (no m flag) is the end of the text only: "abc\\n" does not match `^abc$`. So
`pattern`, `patternProperties` and the properties `additionalProperties` counts as matched are searched with each
`$` outside a class written as `\\Z` (ecma_end). The escapes \\d \\w \\s keep Python's meaning (README, Patterns).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators


def _exact(n: int | float) -> Fraction:
    return Fraction(n) if isinstance(n, int) else Fraction(repr(n))


def _multiple(value: int | float, divisor: int | float) -> bool:
    # A float that is a whole number over an integer divisor (or a whole one below 2^53, which every form writes alike): by its exact
    # value, as Python's % divides (2.0**62, whose shortest form 4.611686018427388e+18 is another number, is a
    # multiple of 1024). Else the decimals the JSON text writes: 0.3 of 0.1, 1e24 of 1e23.
    if isinstance(value, float) and value.is_integer() and (isinstance(divisor, int) or divisor.is_integer() and abs(divisor) < 2**53):
        return Fraction(value) % Fraction(divisor) == 0
    return (_exact(value) / _exact(divisor)).denominator == 1


def exact_multiple_of(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """multipleOf on the decimals the JSON text writes, exactly: 0.3 is a multiple of 0.1."""
    if validator.is_type(instance, "number") and not _multiple(instance, divisor):
        yield ValidationError(f"{instance!r} is not a multiple of {divisor}")


def ecma_end(pattern: str) -> str:
    """The pattern for Python's re with each `$` anchor (one outside a class, not escaped) written as `\\Z`: the end of
    the text, as ECMA-262 reads `$`. Python's class syntax: a `]` first in a class (after `[` or `[^`) is a character."""
    out = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            start = i + 1 + (pattern[i + 1 : i + 2] == "^")
            if pattern[start : start + 1] == "]":
                out.append(pattern[i : start + 1])
                i = start + 1
                continue
        elif c == "$":
            c = "\\Z"
        out.append(c)
        i += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def _search(pattern: str) -> Any:
    return re.compile(ecma_end(pattern)).search


def ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """pattern, with `$` the end of the text (jsonschema's own message)."""
    if validator.is_type(instance, "string") and not _search(pattern)(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def ecma_pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    """patternProperties, with `$` the end of the text."""
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if _search(pattern)(key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def ecma_additional_properties(validator: Any, additional: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """additionalProperties, the properties patternProperties matches found with `$` the end of the text (jsonschema's
    own messages)."""
    if not validator.is_type(instance, "object"):
        return
    named = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = {key for key in instance if key not in named and not any(_search(p)(key) for p in patterns)}
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        if patterns:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {', '.join(repr(p) for p in sorted(patterns))}")
        else:
            shown = sorted(extras, key=str)
            listed = ", ".join(repr(extra) for extra in shown)
            yield ValidationError(f"Additional properties are not allowed ({listed} {'was' if len(shown) == 1 else 'were'} unexpected)")


# The keywords every reading of a spec's values shares: the generator's (examples, defaults) and the tests' oracle.
KEYWORDS = {
    "multipleOf": exact_multiple_of,
    "pattern": ecma_pattern,
    "patternProperties": ecma_pattern_properties,
    "additionalProperties": ecma_additional_properties,
}

Validator: Any = validators.extend(Draft202012Validator, KEYWORDS)

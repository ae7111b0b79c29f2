"""The reference validator the generator judges a spec's own values with (its valid examples, its defaults):
jsonschema's Draft 2020-12, with multipleOf read as every runtime reads it.

jsonschema divides floats (0.3 / 0.1 is 2.9999999999999996), so it calls 0.3 no multiple of 0.1; the runtimes
divide the decimals the JSON text writes (each number's shortest form; a float that is a whole number over a whole
divisor, its exact value), exactly. A default or an example the
generated code accepts must not be refused at generate for a float's rounding. The tests' oracle is this too.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
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


Validator: Any = validators.extend(Draft202012Validator, {"multipleOf": exact_multiple_of})

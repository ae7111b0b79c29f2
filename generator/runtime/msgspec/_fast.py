"""The runtime of the msgspec package: read a document with msgspec into Structs, and let the dataclass
package's exact walk decide whatever msgspec refuses or a check cannot vouch for.

A Reader first decodes the text with msgspec.json.Decoder into the format's Structs (the schema's
constraints as msgspec `Meta`, a date-time by the dataclass package's own reader), then runs the format's
generated checks (rules, patterns msgspec cannot run in linear time, free-form values' depth, unique
items): any refusal or doubt there raises, and the text goes to the dataclass package, which reports
every problem with the same messages. A text it accepts after all (an integer written 1.0, an open
model's properties the spec does not name, ...) is built into the Structs from its JSON value, so the
verdict is always the dataclass package's.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final, Generic, TypeVar

import msgspec
from msgspec import inspect as mi

T = TypeVar("T")

# An open model's properties the spec does not name: none, unless the document had some (a model
# holding them is built by Reader.build, which sets the attribute on that object).
NO_PROPERTIES: Final[Mapping[str, Any]] = MappingProxyType({})


class Unsure(Exception):
    """A generated check cannot vouch for a value: the dataclass package's exact walk decides."""


def pool(value: object) -> frozenset[object] | None:
    """A member_of rule's pool as a set (msgspec read it as a list of strings), or None where the
    document has none (the exact rule then checks nothing)."""
    return frozenset(value) if isinstance(value, list) else None


def given(value: object) -> object:
    """A field's value as the exact rule reads the document: None for one left out (UNSET)."""
    return None if value is msgspec.UNSET else value


class Reader(Generic[T]):
    """Reads JSON text into the Structs of root, with the verdict and messages of `exact`.

    exact: the dataclass package's parse of the same format (raises its ValidationError);
    load: its JSON reader (the same input policy); check: the generated checks of a decoded root;
    customs: how a custom type (a date-time) is read from its JSON value, None where it is not one of it.
    """

    def __init__(
        self,
        root: type[T],
        exact: Callable[[Any], object],
        load: Callable[[Any], Any],
        check: Callable[[T], None],
        customs: Mapping[type, Callable[[Any], Any]],
    ) -> None:
        self._customs = dict(customs)
        self._decoder = msgspec.json.Decoder(root, dec_hook=_hook(self._customs))
        self._root = root
        self._exact = exact
        self._load = load
        self._check = check
        self._info: mi.Type | None = None

    def read(self, text: object) -> T:
        # msgspec also reads a memoryview, which the dataclass package refuses: only what both take.
        if isinstance(text, (str, bytes, bytearray)):
            try:
                value: T = self._decoder.decode(text)
                self._check(value)
                return value
            except Exception:  # refused or unsure (any error, a RecursionError too): the exact walk decides
                pass
        self._exact(text)  # raises ValidationError listing every problem
        if self._info is None:
            self._info = mi.type_info(self._root)
        built: T = self.build(self._load(text), self._info)
        return built

    def build(self, value: Any, kind: mi.Type) -> Any:
        """The Structs of a JSON value the exact walk accepted, as msgspec would have built them."""
        if isinstance(kind, mi.StructType):
            return self._struct(value, kind)
        if isinstance(kind, mi.UnionType):
            return self.build(value, self._member(value, kind))
        if isinstance(kind, (mi.ListType, mi.VarTupleType)):
            items = [self.build(v, kind.item_type) for v in value]
            return items if isinstance(kind, mi.ListType) else tuple(items)
        if isinstance(kind, mi.TupleType):
            return tuple(self.build(v, t) for v, t in zip(value, kind.item_types))
        if isinstance(kind, mi.DictType):
            return {k: self.build(v, kind.value_type) for k, v in value.items()}
        if isinstance(kind, mi.IntType) or (isinstance(kind, mi.LiteralType) and type(value) is float):
            return int(value)  # an integer the exact walk took, maybe written 1.0 (a Literal of numbers is an integer's)
        if isinstance(kind, mi.BytesType):
            return base64.b64decode(value)
        if isinstance(kind, mi.CustomType):
            return self._customs[kind.cls](value)
        return value  # str, a Literal, bool, None, a number, any JSON value

    def _struct(self, value: dict[str, Any], kind: mi.StructType) -> Any:
        by_wire = {f.encode_name: f for f in kind.fields}
        given: dict[str, Any] = {}
        unnamed: dict[str, Any] = {}
        for key, item in value.items():
            field = by_wire.get(key)
            if field is not None:
                given[field.name] = self.build(item, field.type)
            elif key != kind.tag_field:
                unnamed[key] = item
        result = kind.cls(**given)
        if unnamed:
            setattr(result, "additional_properties", unnamed)  # an open model's (a closed one refused them)
        return result

    @staticmethod
    def _member(value: Any, kind: mi.UnionType) -> mi.Type:
        """The member of a union a JSON value the exact walk accepted is read as: one of its own JSON kind
        first (a float stays a float where the union has one), else an integer written 1.0."""
        for exact in (True, False):
            for member in kind.types:
                if isinstance(member, mi.StructType):
                    if isinstance(value, dict) and (member.tag_field is None or value.get(member.tag_field) == member.tag):
                        return member
                elif _holds(member, value, exact):
                    return member
        raise AssertionError(f"no member of {kind} reads {type(value).__name__}")


def _hook(customs: Mapping[type, Callable[[Any], Any]]) -> Callable[[type, Any], Any]:
    """msgspec's dec_hook: a custom type read from its JSON value (a string); a refusal is a ValueError,
    which msgspec reports as a ValidationError (and the exact walk then says what is wrong)."""
    if len(customs) == 1:  # one lookup fewer for each date-time of a document
        ((only, read),) = customs.items()

        def one(kind: type, value: Any) -> Any:
            result = read(value) if kind is only and type(value) is str else None
            if result is None:
                raise ValueError("not a value of the spec's type")
            return result

        return one

    def hook(kind: type, value: Any) -> Any:
        read = customs.get(kind)
        result = read(value) if read is not None and type(value) is str else None
        if result is None:
            raise ValueError("not a value of the spec's type")
        return result

    return hook


def _holds(kind: mi.Type, value: Any, exact: bool) -> bool:
    """Whether a union's member reads a JSON value (exact: only as its own kind, an int as int)."""
    if isinstance(kind, mi.AnyType):
        return value is not None or not exact  # any JSON value (null goes to the union's None first)
    if isinstance(kind, mi.LiteralType):
        # An integer of a const or enum may be written 1.0 (the exact walk takes it as 1); True is not 1.
        same_kind = [v for v in kind.values if type(v) is type(value) or (not exact and type(value) is float and type(v) is int)]
        return value in same_kind
    if value is None:
        return isinstance(kind, mi.NoneType)
    if isinstance(value, bool):
        return isinstance(kind, mi.BoolType)
    if isinstance(value, int):
        return isinstance(kind, mi.IntType) or (not exact and isinstance(kind, mi.FloatType))
    if isinstance(value, float):
        return isinstance(kind, mi.FloatType) or (not exact and isinstance(kind, mi.IntType) and value.is_integer())
    if isinstance(value, str):
        return isinstance(kind, (mi.StrType, mi.BytesType, mi.CustomType))
    if isinstance(value, list):
        return isinstance(kind, (mi.ListType, mi.VarTupleType, mi.TupleType))
    return isinstance(kind, mi.DictType)

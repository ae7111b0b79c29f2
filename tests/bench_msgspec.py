"""make bench's msgspec peer (issue 31's "within 1.5x of msgspec with the same rules"): each format's exported JSON
Schema written as msgspec Structs with `Meta` constraints, its x-rules by hand as `__post_init__` hooks
(tests/bench_msgspec_rules.py), read by `msgspec.json.decode` into those Structs.

As with typia (tests/bench_typia.py), the converter reads the schema as tests/peer_schema.py does (any keyword it
does not write is refused; the rules, the schema's allOf, are written by hand), and bench.py requires the peer's
verdict to be chatspec's on every example of every format before it times anything. An optional field is `T | UnsetType` (absent, or a T: a null is refused where the schema refuses one).

A date-time is read as chatspec reads one (RFC 3339's grammar, a real day, an offset within a day): a string
msgspec matches against that pattern, made a datetime by `datetime.fromisoformat` in `__post_init__` (which refuses
the 30th of February). msgspec's own date-time reader would take what the schema refuses (a space for the T, an
offset without its colon), so it would not be the same rules; make bench checks that on a date-time written with a
space (bench.edge_cases). An integer written 1.0 is refused, where the schema takes it: no payload holds one.
"""

from __future__ import annotations

import json
import keyword
import re
import sys
import types
from typing import Any

from peer_schema import INT64, Unsupported, closed_tuple, properties, shape


# RFC 3339's date-time as chatspec reads it (every field in range; the day checked by datetime.fromisoformat).
RFC3339 = (r"^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?"
           r"(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$")


class _Writer:
    def __init__(self, schema: dict[str, Any], own_dates: bool = False) -> None:
        self.schema = schema
        self.own_dates = own_dates  # msgspec's own date-time reader (which takes what the schema refuses): timed apart
        self.tags: dict[str, tuple[str, str]] = {}  # a variant of a union by tag -> (tag field, tag value)
        for definition in schema["$defs"].values():
            if "discriminator" in definition:
                field = definition["discriminator"]["propertyName"]
                for member in definition["oneOf"]:
                    name = member["$ref"].removeprefix("#/$defs/")
                    self.tags[name] = (field, schema["$defs"][name]["properties"][field]["const"])

    def type(self, schema: Any) -> str:
        what, detail = shape(schema)
        if what == "any":
            return "Any"
        if what == "ref":
            return str(detail)
        if what == "union":
            # msgspec takes one member per JSON kind, or Structs told apart by a tag (its Decoder refuses others).
            return " | ".join(self.type(member) for member in detail)
        return " | ".join(self.one_kind(keywords, kind) for kind, keywords in detail)

    def one_kind(self, schema: dict[str, Any], kind: str) -> str:
        if kind == "null":
            return "None"
        if "const" in schema or "enum" in schema:
            values = [schema["const"]] if "const" in schema else schema["enum"]
            if not all(isinstance(v, str) for v in values):
                raise Unsupported(f"a const or enum of {values!r}")
            return f"Literal[{', '.join(repr(v) for v in values)}]"
        meta: dict[str, Any] = {}
        if kind == "string":
            meta = {"min_length": schema.get("minLength"), "max_length": schema.get("maxLength"), "pattern": schema.get("pattern")}
            if "format" in schema:
                if schema["format"] != "date-time":
                    raise Unsupported(f"format {schema['format']}")
                if self.own_dates:
                    return "Annotated[datetime, Meta(tz=True)]"
                return f"Annotated[str, Meta(pattern={RFC3339!r})]"  # made a datetime by __post_init__
            base = "str"
        elif kind in ("integer", "number"):
            low, high = schema.get("minimum"), schema.get("maximum")
            meta = {"ge": low if kind == "number" or low is None or low > INT64[0] else None,
                    "le": high if kind == "number" or high is None or high < INT64[1] else None}
            base = "int" if kind == "integer" else "int | float"  # msgspec reads an integer into int
        elif kind == "boolean":
            base = "bool"
        elif kind == "array":
            if "prefixItems" in schema:
                return f"tuple[{', '.join(self.type(s) for s in closed_tuple(schema))}]"
            if schema.get("uniqueItems"):
                raise Unsupported("uniqueItems (a rule in bench_msgspec_rules.py checks it)")
            meta = {"min_length": schema.get("minItems"), "max_length": schema.get("maxItems")}
            base = f"list[{self.type(schema.get('items', True))}]"
        else:
            if "properties" in schema:
                raise Unsupported("an object with properties outside $defs")
            base = f"dict[str, {self.type(schema.get('additionalProperties', True))}]"
        given = ", ".join(f"{k}={v!r}" for k, v in meta.items() if v is not None)
        return f"Annotated[{base}, Meta({given})]" if given else base

    def struct(self, name: str, definition: dict[str, Any], hooks: dict[str, str], unique: set[tuple[str, str]]) -> str:
        what, detail = shape(definition)
        if what != "kinds" or [kind for kind, _ in detail] != ["object"] or "properties" not in detail[0][1]:
            return f"{name} = {self.type(definition)}"
        fields, required, closed = properties(detail[0][1])
        options = ["kw_only=True"] + (["forbid_unknown_fields=True"] if closed else [])
        tag = self.tags.get(name)
        if tag is not None:
            options += [f"tag_field={tag[0]!r}", f"tag={tag[1]!r}"]
        lines = [f"class {name}(msgspec.Struct, {', '.join(options)}):"]
        dates: list[str] = []
        for field, schema in fields.items():
            if tag is not None and field == tag[0]:
                continue  # the tag: msgspec reads it to choose the variant
            attribute = field.replace("-", "_")
            if not attribute.isidentifier() or keyword.iskeyword(attribute):
                raise Unsupported(f"the field name {field!r}")
            if schema.get("format") == "date-time":
                dates += [] if self.own_dates else [attribute]
            elif "date-time" in json.dumps(schema):
                raise Unsupported(f"a date-time below the field {field!r}")
            if schema.get("uniqueItems"):
                unique.add((name, attribute))
                schema = {k: v for k, v in schema.items() if k != "uniqueItems"}
            written = self.type(schema) if field in required else f"{self.type(schema)} | UnsetType"
            given = [] if field in required else ["default=UNSET"]
            given += [] if attribute == field else [f"name={field!r}"]
            value = "" if not given else " = UNSET" if given == ["default=UNSET"] else f" = msgspec.field({', '.join(given)})"
            lines.append(f"    {attribute}: {written}{value}")
        checks = [f"        self.{field} = rules.date_time(self.{field})" for field in dates]
        checks += [f"        rules.unique(self.{field})" for struct, field in sorted(unique) if struct == name]
        if name in hooks:
            checks.append(f"        rules.{hooks[name]}(self)")
        if checks:
            lines += ["", "    def __post_init__(self) -> None:", *checks]
        return "\n".join(lines)


def module_source(schema: dict[str, Any], hooks: dict[str, str], own_dates: bool = False) -> str:
    """The Python of one format: a Struct per object definition (each rule hook its __post_init__), an alias per
    other definition, and ROOT."""
    writer = _Writer(schema, own_dates)
    unique: set[tuple[str, str]] = set()
    parts = ["from __future__ import annotations", "", "from datetime import datetime",
             "from typing import Annotated, Any, Literal", "", "import msgspec", "from msgspec import UNSET, Meta, UnsetType",
             "", "import bench_msgspec_rules as rules", ""]
    written = {name: writer.struct(name, definition, hooks, unique) for name, definition in schema["$defs"].items()}
    # Classes first (their annotations are read when the decoder is made), then each alias once those it names are.
    done = [name for name, text in written.items() if text.startswith("class ")]
    parts += [written[name] + "\n" for name in done]
    aliases = [name for name in written if name not in done]
    while aliases:
        ready = [a for a in aliases if not any(re.search(rf"\b{b}\b", written[a]) for b in aliases if b != a)]
        if not ready:
            raise Unsupported(f"aliases that name each other: {aliases}")
        parts += [written[a] + "\n" for a in ready]
        aliases = [a for a in aliases if a not in ready]
    parts.append(f"ROOT = {schema['$ref'].removeprefix('#/$defs/')}")
    return "\n".join(parts) + "\n"


def decoder(fmt: str, schema: dict[str, Any], own_dates: bool = False) -> Any:
    """msgspec.json.Decoder for the format's root, its Structs made from module_source (own_dates: date-times read by
    msgspec's own parser, which is not the same rules)."""
    import bench_msgspec_rules
    import msgspec

    name = f"bench_msgspec_{fmt}{'_own_dates' if own_dates else ''}"
    module = types.ModuleType(name)
    sys.modules[name] = module  # msgspec resolves the annotations (strings) in the module's namespace
    exec(compile(module_source(schema, bench_msgspec_rules.HOOKS[fmt], own_dates), f"<msgspec peer of {fmt}>", "exec"), module.__dict__)
    return msgspec.json.Decoder(module.ROOT)

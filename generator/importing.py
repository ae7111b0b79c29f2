"""`chatspec import`: a published JSON Schema (draft-07, 2019-09, 2020-12) or OpenAPI (3.0, 3.1) document as a spec.

It translates, never drops: definitions (`definitions`, `$defs`, `components/schemas`) become the spec's `$defs`
under identifier names, every `$ref` between them is rewritten to point there, draft-07's array `items` and
`additionalItems` become `prefixItems`/`items`, `dependencies` becomes `dependentRequired`/`dependentSchemas`, and
OpenAPI's `nullable`, `example`, `format: byte` and `discriminator` become what they mean in JSON Schema 2020-12
(the discriminator, an annotation there, is kept in `x-openapi`, also where a JSON Schema document holds one, as
pydantic writes them). Annotations and vendor `x-` keys are kept as written. A keyword neither JSON Schema nor
OpenAPI defines meant nothing in the source (JSON Schema ignores what it does not know): it is kept in `x-ignored`
and noted, with the keyword it may be a slip of. What cannot be kept (a remote `$ref`, `$id`, `$anchor`,
`$dynamicRef`) is listed, every one with its JSON pointer, and nothing is written.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import checks, ir, string_formats
from generator.errors import did_you_mean, pointer_of
from generator.load import INT64
from generator.naming import DEFINITION_NAME

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# The keywords of JSON Schema 2020-12's validation and applicator vocabularies, annotations included, that a spec
# may hold as written.
_KEPT = (
    checks.APPLIED
    | checks.ANNOTATIONS
    | {"contentEncoding", "contentMediaType", "contentSchema", "unevaluatedProperties", "unevaluatedItems"}
)
# Identifiers chatspec resolves nowhere: a schema holding one is not imported.
_UNRESOLVED = {
    "$id": "a schema's own base URI: chatspec resolves only the document's own #/ pointers",
    "$anchor": "an anchor: chatspec resolves only JSON pointers",
    "$dynamicRef": "a dynamic reference",
    "$dynamicAnchor": "a dynamic reference's anchor",
    "$recursiveRef": "a recursive reference (2019-09)",
    "$recursiveAnchor": "a recursive reference's anchor (2019-09)",
}
# Keywords of 2019-09 and 2020-12 that draft-07 does not know, and so ignored: kept, as meaning nothing, in x-ignored.
_NEWER = frozenset(
    {
        "prefixItems",
        "dependentRequired",
        "dependentSchemas",
        "minContains",
        "maxContains",
        "unevaluatedProperties",
        "unevaluatedItems",
        "contentSchema",
    }
)
# OpenAPI keywords that annotate a schema: kept in one x-openapi object, e.g. {"x-openapi": {"discriminator": {...}}}.
_OPENAPI_ANNOTATIONS = frozenset({"discriminator", "xml", "externalDocs"})


@dataclass(frozen=True)
class Problem:
    pointer: str  # in the source, e.g. "/components/schemas/Chat/properties/a/$ref"
    reason: str


class ImportRefused(Exception):
    """What the source holds that the spec cannot keep: every one, with its pointer."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source, self.problems = source, problems
        super().__init__(f"{source}: {len(problems)} construct(s) cannot be imported")


@dataclass
class Imported:
    spec: dict[str, Any]
    renamed: dict[str, str] = field(default_factory=dict)  # a definition's name in the source -> its name in the spec
    kept: list[str] = field(default_factory=list)  # the definitions kept, in the spec's order
    notes: list[Problem] = field(default_factory=list)  # what was kept as meaning nothing, for the user to read
    origins: dict[str, str] = field(default_factory=dict)  # a definition's name in the spec -> its pointer in the source

    def source_pointer(self, pointer: str | None) -> str | None:
        """Where a pointer into the spec (/$defs/<name>/...) came from in the source, the rest of it as translated."""
        tokens = checks.pointer_tokens(pointer or "")
        if len(tokens) < 2 or tokens[0] != "$defs" or tokens[1] not in self.origins:
            return None
        return self.origins[tokens[1]] + pointer_of(*tokens[2:])


def read_source(path: Path) -> Any:
    """A JSON or YAML document (YAML: by its suffix, .yaml or .yml) as JSON would hold it: a YAML date or timestamp
    is its text, a key that is no string (`200:`) its text; a document it cannot read is a ValueError."""
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            return _as_json(_load_yaml(text), budget=10 * len(text) + 100_000)
        return json.loads(text, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise ValueError("it nests too deeply to read") from None


# YAML 1.2's core schema, which OpenAPI 3.1 and JSON Schema documents are written in (PyYAML reads YAML 1.1, where
# `yes` and `on` are true, `010` is 8, `1:20` is 80 and `1e3` is a string): each tag, the characters a plain scalar
# of it begins with, and its whole text. Integers before floats: `10` is an integer.
_CORE = (
    ("tag:yaml.org,2002:bool", "tTfF", r"^(?:true|True|TRUE|false|False|FALSE)$"),
    ("tag:yaml.org,2002:int", "-+0123456789", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    (
        "tag:yaml.org,2002:float",
        "-+.0123456789",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
    ),
)


def _load_yaml(text: str) -> Any:
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C parser reads a 3 MB OpenAPI file 10x faster

    class Loader(base):  # type: ignore[valid-type, misc]
        """The safe loader reading YAML 1.2's core schema, without timestamps (JSON has none: a date in an example is
        its text), and refusing a key written twice in one mapping (JSON would keep one of them in silence)."""

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: set[str] = set()
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    # As JSON will hold it (_as_json): 1 and 01 are one key "1", true and True one key "true".
                    value = self.construct_object(key)
                    text = json.dumps(value) if isinstance(value, (bool, type(None))) else str(value)
                    if text in seen:
                        raise yaml.constructor.ConstructorError(
                            "in a mapping", node.start_mark, f"the key {text!r} is written twice", key.start_mark
                        )
                    seen.add(text)
            return super().construct_mapping(node, deep=deep)

        def construct_yaml_int(self, node: Any) -> int:
            value = str(self.construct_scalar(node))
            return int(value[2:], 8 if value[1] == "o" else 16) if value[:2] in ("0o", "0x") else int(value)

        def construct_yaml_float(self, node: Any) -> float:
            value = str(self.construct_scalar(node)).lower()
            return float(value.replace(".inf", "inf").replace(".nan", "nan"))

    core = {tag for tag, _, _ in _CORE} | {"tag:yaml.org,2002:timestamp"}
    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag not in core] for first, resolvers in base.yaml_implicit_resolvers.items()
    }
    for tag, firsts, pattern in _CORE:
        Loader.add_implicit_resolver(tag, re.compile(pattern), list(firsts))
    Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)
    Loader.add_constructor("tag:yaml.org,2002:float", Loader.construct_yaml_float)
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        raise ValueError(f"not YAML: {exc}") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each written once (json keeps the last of two in silence)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} is written twice in one object")
        out[key] = value
    return out


def _as_json(value: Any, budget: int) -> Any:
    """A YAML value as JSON holds it: keys as text (YAML's 200: and true: are "200" and "true"). Aliases make one
    value appear in many places, or inside itself: more values than `budget` (ten per character of the text, and
    100,000: an enum reused by every property fits) is an alias cycle or an alias bomb ("billion laughs"), refused
    before it is walked further."""
    stack: list[Any] = [value]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > budget:
            raise ValueError(f"its aliases expand to more than {budget} values (an alias inside itself, or aliases of aliases)")
        if not isinstance(node, (dict, list, str, int, float, bool, type(None))):
            raise ValueError(f"it holds a {type(node).__name__} (a YAML tag such as !!binary or !!set), which JSON has no kind of")
        if isinstance(node, dict):
            for key in [k for k in node if not isinstance(k, str)]:
                if isinstance(key, (list, dict, tuple)):
                    raise ValueError(f"a mapping key that is no scalar ({key!r}): JSON has none")
                node[json.dumps(key) if isinstance(key, (bool, type(None))) else str(key)] = node.pop(key)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return value


class _Translator:
    def __init__(self, document: dict[str, Any], openapi: str | None, draft07: bool) -> None:
        self.document = document
        self.openapi = openapi  # "3.0" or "3.1", None for a JSON Schema
        self.draft07 = draft07
        self.problems: list[Problem] = []
        self.notes: list[Problem] = []
        self.asserted: set[str] = set()  # the asserted formats and encodings noted (once each)
        self.names: dict[str, str] = {}  # the definitions' source names -> spec names
        self.wanted: list[str] = []  # source names a translated $ref reached, in order

    # --- definitions and names -------------------------------------------------------

    def definitions(self) -> dict[str, tuple[str, Any]]:
        """source name -> (its pointer, its schema), every definition of the document."""
        out: dict[str, tuple[str, Any]] = {}
        if self.openapi:
            for name, schema in ((self.document.get("components") or {}).get("schemas") or {}).items():
                out[name] = (pointer_of("components", "schemas", name), schema)
            return out
        for key in ("$defs", "definitions"):
            held = self.document.get(key) or {}
            if not isinstance(held, dict):
                self.problems.append(Problem(pointer_of(key), f"{key} is not an object of named schemas"))
                continue
            for name, schema in held.items():
                if name == "":
                    # (A spec names the document's own root schema "" too: as a $ref to "#" does.)
                    self.problems.append(
                        Problem(pointer_of(key, name), "a definition with an empty name: chatspec names each type after it")
                    )
                if name in out:  # two definitions a $ref tells apart by its keyword: one name in the spec cannot
                    self.problems.append(Problem(pointer_of(key, name), f"both $defs and definitions define {name!r}"))
                out.setdefault(name, (pointer_of(key, name), schema))
        return out

    def name_all(self, names: list[str], root_title: str | None) -> None:
        """Each definition's spec name: itself where it is an identifier chatspec takes, else its words joined, e.g.
        "chat.message" -> "ChatMessage" (after the names kept as they are; the second of two alike gets 2, 3, ...,
        in source order); then the document's root schema's (root_title: its title or the format id; None when the
        root is a definition), keyed "" as a $ref to "#" names it, under a name no definition takes."""
        taken: set[str] = set()

        def take(key: str, spelled: str) -> None:
            candidate, n = spelled, 2
            while candidate in taken:
                candidate, n = f"{spelled}{n}", n + 1
            taken.add(candidate)
            self.names[key] = candidate

        kept = [n for n in names if DEFINITION_NAME.fullmatch(n)]
        for name in kept:
            take(name, name)
        for name in names:
            if name not in self.names:
                take(name, _pascal(name))
        if root_title is not None:
            take("", root_title if DEFINITION_NAME.fullmatch(root_title) else _pascal(root_title))

    # --- schemas ------------------------------------------------------------------------

    def ref(self, ref: Any, at: str) -> Any:
        if not isinstance(ref, str) or not ref.startswith("#"):
            self.problems.append(Problem(at, f"a remote reference ({ref!r}): only the document's own #/ pointers can be imported"))
            return ref
        if ref != "#" and not ref.startswith("#/"):
            self.problems.append(Problem(at, f"$ref {ref!r} names an anchor: chatspec resolves only JSON pointers (#/...)"))
            return ref
        tokens = checks.pointer_tokens(ref[1:]) if ref != "#" else []
        if self.openapi:
            if tokens[:2] != ["components", "schemas"] or len(tokens) < 3:
                self.problems.append(Problem(at, f"$ref {ref!r} points outside components/schemas"))
                return ref
            name, rest = tokens[2], tokens[3:]
            source = (self.document["components"]["schemas"] or {}).get(name)
        elif tokens[:1] in (["$defs"], ["definitions"]) and len(tokens) >= 2:
            name, rest = tokens[1], tokens[2:]
            held = self.document.get(tokens[0])
            source = held.get(name) if isinstance(held, dict) else None
            if source is None and name in self.names:
                # (Named under the other keyword: #/definitions/X where only $defs has X points to nothing.)
                self.problems.append(Problem(at, f"$ref {ref!r} points to nothing in the document"))
                return ref
        else:
            name, rest, source = "", tokens, self.document  # into the document's root schema
        if name not in self.names:
            what = "no definition of the document" if name else "the document's root schema, which is not imported (its root is another)"
            self.problems.append(Problem(at, f"$ref {ref!r} points into {what}"))
            return ref
        if name:
            self.wanted.append(name)
        return "#" + urllib.parse.quote(
            pointer_of("$defs", self.names[name], *self.translated_path(source, rest, at)), safe="/~-._!$&'()*+,;=:@"
        )

    def translated_path(self, source: Any, rest: list[str], at: str) -> list[str]:
        """The tokens below a definition, as the translation writes what they pass through (draft-07's array items
        are prefixItems, its dependencies dependentSchemas, its definitions $defs)."""
        out: list[str] = []
        tokens = iter(rest)
        # What the next token names, as checks.schemas_on reads a pointer: a keyword of a schema, an entry of a map or
        # list of schemas, or data (below const, enum, ...: nothing there is translated). Only a keyword is renamed:
        # a property named "definitions" stays what it is.
        expect = "schema"
        for token in tokens:
            value = source.get(token) if isinstance(source, dict) else None
            if expect != "schema":
                out.append(token)
                if isinstance(source, list) and (n := ir.index_of(token)) is not None and n < len(source):
                    source = source[n]
                else:
                    source = value
                expect = "schema" if expect in ("map", "list") else "data"
            elif token == "items" and isinstance(value, list):
                index = next(tokens, "")
                out += ["prefixItems", index]
                n = ir.index_of(index)
                source = value[n] if n is not None and n < len(value) else None
            elif token == "additionalItems" and isinstance(source, dict) and isinstance(source.get("items"), list):
                out.append("items")
                source = value
            elif token == "dependencies" and self.draft07 and isinstance(value, dict):
                entry = next(tokens, "")
                out += ["dependentSchemas", entry]
                source = value.get(entry)
            elif token == "definitions":
                out.append("$defs")
                source, expect = value, "map"
            elif self.openapi == "3.0" and isinstance(source, dict) and source.get("nullable") is True and "type" not in source:
                self.problems.append(
                    Problem(at, "a $ref into a nullable schema without a type: it becomes an anyOf, where the pointer finds nothing")
                )
                return rest
            else:
                out.append(token)
                source, expect = value, checks.STRUCTURE.get(token, "data")
        if rest and source is None:
            self.problems.append(
                Problem(at, f"the $ref points to nothing in the document: no {pointer_of(*rest)} in the definition it names")
            )
        return out

    def schema(self, node: Any, at: str) -> Any:
        """The schema at pointer `at` of the source, as a spec writes it."""
        if isinstance(node, bool):
            return node
        if not isinstance(node, dict):
            self.problems.append(Problem(at, "not a schema (an object or a boolean)"))
            return node
        out: dict[str, Any] = {}
        if (self.draft07 or self.openapi == "3.0") and "$ref" in node:
            # Draft-07 ignores a $ref's siblings, and OpenAPI 3.0's Reference Object says they "SHALL be ignored": the
            # assertions beside it meant nothing (kept in x-ignored, and said), the annotations are kept. (OpenAPI
            # 3.0's nullable beside a $ref is read as its writers mean it: the referenced type, or null.)
            annotation = checks.ANNOTATIONS | _OPENAPI_ANNOTATIONS | ({"nullable", "example"} if self.openapi else set())
            ignored = {k: v for k, v in node.items() if not (k == "$ref" or k in annotation or k.startswith("x-"))}
            if ignored:
                out["x-ignored"] = ignored
                which = "draft-07" if self.draft07 else "OpenAPI 3.0"
                self.notes.append(
                    Problem(at, f"{', '.join(map(repr, ignored))} beside $ref kept in x-ignored: {which} ignores a $ref's siblings")
                )
            node = {k: v for k, v in node.items() if k not in ignored}
        for key, value in node.items():
            here = f"{at}{pointer_of(key)}"
            if self.draft07 and key in _NEWER:
                out.setdefault("x-ignored", {})[key] = value  # draft-07 ignores it: it meant nothing in the source
            elif key in _UNRESOLVED:
                self.problems.append(Problem(here, f"{key} is {_UNRESOLVED[key]}"))
            elif key == "$schema":
                continue  # the spec's dialect is 2020-12; the translation made it so
            elif key == "$ref":
                out[key] = self.ref(value, here)
            elif key == "examples" and self.openapi and "example" in node:
                continue  # (with example: below)
            elif key in ("enum", "const", "default", "examples") or key.startswith("x-"):
                out[key] = value  # data, as written
            elif key == "example" and self.openapi:
                written = node.get("examples", [])
                out["examples"] = [*(written if isinstance(written, list) else [written]), value]
            elif key == "nullable" and self.openapi:
                continue  # below
            elif key in _OPENAPI_ANNOTATIONS:  # OpenAPI's own, or an unknown keyword of a JSON Schema that pydantic wrote
                out.setdefault("x-openapi", {})[key] = self.discriminator(value, here) if key == "discriminator" else value
            elif key == "items" and isinstance(value, list):  # draft-07's tuple
                if value:
                    out["prefixItems"] = [self.schema(s, f"{here}/{i}") for i, s in enumerate(value)]
                if "additionalItems" in node:
                    out["items"] = self.schema(node["additionalItems"], f"{at}/additionalItems")
            elif key == "additionalItems":
                continue  # with an array items (above); beside a schema items draft-07 ignores it
            elif key == "dependencies" and self.draft07 and isinstance(value, dict):
                for name, dep in value.items():
                    target = "dependentRequired" if isinstance(dep, list) else "dependentSchemas"
                    out.setdefault(target, {})[name] = dep if isinstance(dep, list) else self.schema(dep, f"{here}{pointer_of(name)}")
            elif key in ("definitions", "$defs") and isinstance(value, dict):
                both = set(value) & set(node.get("$defs" if key == "definitions" else "definitions") or {})
                for name in sorted(both) if key == "definitions" else ():
                    self.problems.append(Problem(f"{here}{pointer_of(name)}", f"both $defs and definitions define {name!r}"))
                out.setdefault("$defs", {}).update({n: self.schema(s, f"{here}{pointer_of(n)}") for n, s in value.items()})
            elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
                # OpenAPI 3.0's (and draft-04's) boolean: the minimum or maximum beside it is exclusive.
                bound = "minimum" if key == "exclusiveMinimum" else "maximum"
                if value and bound in node:
                    out[key] = node[bound]
            elif key in ("minimum", "maximum") and node.get("exclusive" + key[:1].upper() + key[1:]) is True:
                continue  # (exclusive: above)
            elif key in checks.STRUCTURE:
                out[key] = self.sub(key, value, here)
            elif key == "format" and value == "byte" and self.openapi:
                out["contentEncoding"] = "base64"  # OpenAPI's byte: base64 text
                out.setdefault("x-openapi", {})["format"] = value
            elif key in _KEPT:
                out[key] = value
            else:
                # JSON Schema gives a keyword it does not know no meaning: kept as meaning nothing, and said.
                out.setdefault("x-ignored", {})[key] = value
                slip = did_you_mean(key, sorted(_KEPT | _UNRESOLVED.keys() | {"$ref", "$defs", "definitions", "dependencies"}))
                self.notes.append(Problem(here, f"unknown keyword {key!r} kept in x-ignored: it means nothing in the source{slip}"))
        self.vacuous_bounds(out, at)
        for key in ("format", "contentEncoding"):
            said = out.get(key)
            if isinstance(said, str) and (key == "contentEncoding" or string_formats.asserted(said)) and said not in self.asserted:
                # The source's JSON Schema only annotates a string with it; the generated code refuses what fails it.
                self.asserted.add(said)
                self.notes.append(
                    Problem(
                        f"{at}/{key}",
                        f"{key} {said!r} is checked by the generated code, where the source's JSON Schema only annotates it "
                        "(README: Asserted annotations); said once",
                    )
                )
        if self.openapi == "3.0" and node.get("nullable") is True:
            return _nullable(out)
        return out

    def vacuous_bounds(self, out: dict[str, Any], at: str) -> None:
        """An integer's bound beyond 64 bits (OpenAI writes int64's limits as a float prints them,
        -9223372036854776000) bounds nothing every target's int64 does not: kept in x-ignored as a float (no target
        emits an integer beyond 64 bits, even in an x- key), and said."""
        kinds = out.get("type")
        if not ({kinds} if isinstance(kinds, str) else set(kinds) if isinstance(kinds, list) else set()) - {"null"} == {"integer"}:
            return
        for key, beyond in (("minimum", -1), ("exclusiveMinimum", -1), ("maximum", 1), ("exclusiveMaximum", 1)):
            value = out.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and not INT64[0] <= value <= INT64[1] and (value > 0) == (beyond > 0):
                out.setdefault("x-ignored", {})[key] = float(out.pop(key))
                self.notes.append(
                    Problem(
                        f"{at}/{key}", f"{key} {value} is beyond every 64-bit integer, which every target's integers are: kept in x-ignored"
                    )
                )

    def sub(self, key: str, value: Any, at: str) -> Any:
        holds = checks.STRUCTURE[key]
        if holds == "list" and isinstance(value, list):
            return [self.schema(s, f"{at}/{i}") for i, s in enumerate(value)]
        if holds == "map" and isinstance(value, dict):
            return {n: self.schema(s, f"{at}{pointer_of(n)}") for n, s in value.items()}
        return self.schema(value, at)

    def discriminator(self, value: Any, at: str) -> Any:
        """OpenAPI's discriminator with its mapping's references rewritten (an annotation: oneOf/anyOf says what is
        valid); one that names no definition of the document, or a bare name, is kept as written (it meant nothing
        to a validator), not refused."""
        if not isinstance(value, dict) or not isinstance(value.get("mapping"), dict):
            return value
        mapping = {}
        for tag, ref in value["mapping"].items():
            mapping[tag] = ref
            if isinstance(ref, str) and ref.startswith("#"):
                known, wanted = len(self.problems), len(self.wanted)
                rewritten = self.ref(ref, f"{at}/mapping{pointer_of(tag)}")
                if len(self.problems) == known:
                    mapping[tag] = rewritten
                else:
                    del self.problems[known:], self.wanted[wanted:]
        return {**value, "mapping": mapping}


def _pascal(name: str) -> str:
    import unicodedata

    # Letters with marks keep their base letter ("über" -> "Uber"); what has none in ASCII splits words.
    ascii_text = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    words = [w for w in re.split(r"[^A-Za-z0-9]+", ascii_text) if w]
    spelled = "".join(w[:1].upper() + w[1:] for w in words) or "Definition"
    return "D" + spelled if spelled[0].isdigit() else spelled


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAPI 3.0's nullable: true in JSON Schema: null is a value of the type (and of its enum), or one branch more."""
    kind = schema.get("type")
    if isinstance(kind, str):
        out = {**schema, "type": [kind, "null"]}
        if "enum" in out and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    annotations = {k: v for k, v in schema.items() if k in checks.ANNOTATIONS or k.startswith("x-")}
    rest = {k: v for k, v in schema.items() if k not in annotations}
    return {**annotations, "anyOf": [rest, {"type": "null"}]}


def _kind(document: Any) -> tuple[str | None, bool]:
    """(the OpenAPI version, "3.0" or "3.1", or None for a JSON Schema; whether it is draft-07 or older)."""
    if isinstance(document, dict) and isinstance(document.get("openapi"), str):
        return ("3.0" if document["openapi"].startswith("3.0") else "3.1"), False
    dialect = document.get("$schema", "") if isinstance(document, dict) else ""
    return None, isinstance(dialect, str) and bool(re.search(r"draft-0[4-7]", dialect))


def import_schema(
    document: Any, source: str, pointer: str, format_id: str, keep_all: bool = False, root_name: str | None = None
) -> Imported:
    """The spec of the schema at `pointer` ("" for the document's root schema) of a published document. root_name
    names the document's root schema (else its title or the format id): --update keeps the name the spec gave it, so
    a title upstream adds later does not rename the type every user's code holds."""
    if not isinstance(document, dict):
        raise ImportRefused(source, [Problem("", "the document is not a JSON object")])
    openapi, draft07 = _kind(document)
    t = _Translator(document, openapi, draft07)
    definitions = t.definitions()
    tokens = checks.pointer_tokens(pointer[1:] if pointer.startswith("#") else pointer) if pointer not in ("", "#") else []
    by_pointer = {p: n for n, (p, _) in definitions.items()}
    root_pointer = pointer_of(*tokens)
    title_name: str | None = None  # the document's root schema's name, when it is the root
    if root_pointer in by_pointer:
        root_name, root_schema = by_pointer[root_pointer], definitions[by_pointer[root_pointer]][1]
    elif tokens:
        raise ImportRefused(source, [Problem(root_pointer, "names no definition of the document" + _choices(definitions))])
    else:
        root_schema = {k: v for k, v in document.items() if k not in ("$defs", "definitions", "$schema", "$id", "$comment")}
        if openapi or not set(root_schema) - set(checks.ANNOTATIONS):
            raise ImportRefused(source, [Problem("", "the document has no root schema: name one with #<pointer>" + _choices(definitions))])
        root_name, title_name = "", root_name or str(document.get("title") or format_id)  # "": as a $ref to "#" names it
    if t.problems:
        raise ImportRefused(source, t.problems)
    t.name_all([n for n in definitions if isinstance(n, str)], title_name)
    translated: dict[str, Any] = {}
    todo = [root_name] + (list(definitions) if keep_all else [])
    while todo:
        name = todo.pop(0)
        if name in translated:
            continue
        at, schema = (root_pointer, root_schema) if name == root_name else definitions[name]
        start = len(t.wanted)
        translated[name] = t.schema(schema, at)
        todo.extend(n for n in t.wanted[start:] if n not in translated)
    if t.problems:
        raise ImportRefused(source, t.problems)
    defs = {t.names[n]: _described(s, t.names[n]) for n, s in translated.items()}
    info = document.get("info") if openapi else None
    upstream = {"file": Path(source).name, "pointer": "#" + root_pointer}
    version = (info or {}).get("version") if isinstance(info, dict) else None
    if isinstance(version, str) and version:
        upstream["version"] = version
    if isinstance(document.get("$id"), str) and document["$id"]:
        upstream["id"] = document["$id"]
    root_doc = translated[root_name] if isinstance(translated[root_name], dict) else {}
    title = root_doc.get("title") or (info.get("title") if isinstance(info, dict) else None)
    spec = {
        "$schema": DIALECT,
        "title": str(title or t.names[root_name]),
        "description": str(root_doc.get("description") or f"{t.names[root_name]}, adopted from {upstream['file']}."),
        "x-version": "1.0.0",
        "x-source": upstream,
        "$ref": f"#/$defs/{t.names[root_name]}",
        "$defs": defs,
    }
    origins = {t.names[n]: root_pointer if n == root_name else definitions[n][0] for n in translated}
    return Imported(spec, {n: s for n, s in t.names.items() if n and n != s and n in translated}, list(defs), t.notes, origins)


def _described(schema: Any, name: str) -> Any:
    """A definition as the spec holds it: one without a description says where it came from (a spec's definitions
    are documented)."""
    if isinstance(schema, dict) and not isinstance(schema.get("description"), str):
        return {"description": f"{name} (no description in the source).", **schema}
    return schema


def _choices(definitions: dict[str, tuple[str, Any]]) -> str:
    shown = [f"#{p}" for p, _ in list(definitions.values())[:12]]
    return f"; its definitions: {', '.join(shown)}{', ...' if len(definitions) > 12 else ''}" if shown else ""


def problems_text(refused: ImportRefused) -> Iterator[str]:
    for p in refused.problems:
        yield f"  at {p.pointer or '/'}: {p.reason}"


# chatspec's own keywords, which only an edit made in the spec writes (a source's x- keys are its own, kept as the
# new import writes them): what --update carries over.
_EDITS = checks.OWN_X_KEYWORDS | {"x-compatibility", "x-decisions"}


def carry_edits(current: Any, spec: dict[str, Any], renamed: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """Copy into `spec` (a new import) chatspec's keywords `current` (the spec it replaces) holds, where the new
    import has the same place: (the pointers carried, the pointers whose place is gone, or where the new import
    writes the keyword otherwise itself). A definition the import named after its source name's words (`renamed`:
    "chat.mode" and "chat-mode" are ChatMode and ChatMode2 in source order), and an item of a list of schemas (a
    oneOf's variant), is the same place only where it holds the same schema. The walk reads the spec as
    checks.schemas_on does: a key of a schema is a keyword, a key of properties or $defs a name (a property named
    x-name is no edit)."""
    carried: list[str] = []
    lost: list[str] = []
    stack: list[tuple[tuple[str, ...], Any, str]] = [((), current, "schema")]
    numbered = set(renamed)
    while stack:
        path, node, kind = stack.pop()
        if len(path) == 2 and path[0] == "$defs" and path[1] in numbered and _bare(node) != _bare(_at(spec, path)):
            node = _Moved(node)
        if isinstance(node, _Moved):
            lost.extend(pointer_of(*path, *p) for p in _edits_in(node.value))
        elif kind == "list" and isinstance(node, list):
            # Upstream may have reordered or replaced the items.
            same = _at(spec, path)
            for i, item in reversed(list(enumerate(node))):
                kept = isinstance(same, list) and i < len(same) and _bare(item) == _bare(same[i])
                stack.append(((*path, str(i)), item if kept else _Moved(item), "schema"))
        elif kind == "map" and isinstance(node, dict):
            stack.extend(((*path, name), sub, "schema") for name, sub in node.items())
        elif kind == "schema" and isinstance(node, dict):
            for key, value in node.items():
                if key in _EDITS:
                    place = _at(spec, path)
                    if not isinstance(place, dict) or place.get(key, value) != value:
                        lost.append(pointer_of(*path, key))  # (gone, or the source now says otherwise itself)
                    elif key not in place:
                        place[key] = value
                        carried.append(pointer_of(*path, key))
                elif key in checks.STRUCTURE:
                    stack.append(((*path, key), value, checks.STRUCTURE[key]))
    return sorted(carried), sorted(lost)


@dataclass(frozen=True)
class _Moved:
    """A list item whose place in the new import holds another schema."""

    value: Any


def _bare(value: Any, kind: str = "schema") -> Any:
    """A schema without chatspec's own keywords, at any depth (what the import itself would write)."""
    if kind == "schema" and isinstance(value, dict):
        return {k: _bare(v, checks.STRUCTURE.get(k, "data")) for k, v in value.items() if k not in _EDITS}
    if kind == "map" and isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items()}
    if kind == "list" and isinstance(value, list):
        return [_bare(v) for v in value]
    return value


def _edits_in(value: Any) -> Iterator[tuple[str, ...]]:
    """Where chatspec's own keywords are in a value: paths below it."""
    stack: list[tuple[tuple[str, ...], Any, str]] = [((), value, "schema")]
    while stack:
        path, node, kind = stack.pop()
        if kind == "schema" and isinstance(node, dict):
            for k, v in node.items():
                if k in _EDITS:
                    yield (*path, k)
                elif k in checks.STRUCTURE:
                    stack.append(((*path, k), v, checks.STRUCTURE[k]))
        elif kind == "map" and isinstance(node, dict):
            stack.extend(((*path, k), v, "schema") for k, v in node.items())
        elif kind == "list" and isinstance(node, list):
            stack.extend(((*path, str(i)), v, "schema") for i, v in enumerate(node))


def _at(document: Any, path: tuple[str, ...]) -> Any:
    for token in path:
        if isinstance(document, dict) and token in document:
            document = document[token]
        elif isinstance(document, list) and (n := ir.index_of(token)) is not None and n < len(document):
            document = document[n]
        else:
            return None
    return document

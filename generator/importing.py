"""`chatspec import`: a published JSON Schema (draft-07, 2019-09, 2020-12) or OpenAPI (3.0, 3.1) document as a spec.

It translates, never drops: definitions (`definitions`, `$defs`, `components/schemas`) become the spec's `$defs`
under identifier names, every `$ref` between them is rewritten to point there, draft-07's array `items` and
`additionalItems` become `prefixItems`/`items`, `dependencies` becomes `dependentRequired`/`dependentSchemas`, and
OpenAPI's `nullable`, `example`, `format: byte` and `discriminator` become what they mean in JSON Schema 2020-12
(the discriminator, an annotation there, is kept in `x-openapi`). Annotations and vendor `x-` keys are
kept as written. What cannot be kept (a remote `$ref`, `$id`, `$anchor`, `$dynamicRef`, a keyword neither JSON
Schema nor OpenAPI defines) is listed, every one with its JSON pointer, and nothing is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import checks
from generator.errors import pointer_of

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


def read_source(path: Path) -> Any:
    """A JSON or YAML document (YAML: by its suffix, .yaml or .yml)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader reads a 3 MB OpenAPI file 10x faster
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    return json.loads(text)


class _Translator:
    def __init__(self, document: dict[str, Any], openapi: str | None, draft07: bool) -> None:
        self.document = document
        self.openapi = openapi  # "3.0" or "3.1", None for a JSON Schema
        self.draft07 = draft07
        self.problems: list[Problem] = []
        self.names: dict[str, str] = {}  # the definitions' source names -> spec names
        self.container = ("components", "schemas") if openapi else ()
        self.wanted: list[str] = []  # source names a translated $ref reached, in order
        self.root_name = ""

    # --- definitions and names -------------------------------------------------------

    def definitions(self) -> dict[str, tuple[str, Any]]:
        """source name -> (its pointer, its schema), every definition of the document."""
        out: dict[str, tuple[str, Any]] = {}
        if self.openapi:
            for name, schema in ((self.document.get("components") or {}).get("schemas") or {}).items():
                out[name] = (pointer_of("components", "schemas", name), schema)
            return out
        for key in ("$defs", "definitions"):
            for name, schema in (self.document.get(key) or {}).items():
                out.setdefault(name, (pointer_of(key, name), schema))
        return out

    def name_all(self, names: list[str], root: str) -> None:
        """Each definition's spec name: itself where it is an identifier chatspec takes, else its words joined, e.g.
        "chat.message" -> "ChatMessage"; the second of two alike gets 2, 3, ... (deterministic: source order)."""
        taken: set[str] = set()
        for name in [root, *names]:
            if name in self.names:
                continue
            spelled = name if re.fullmatch(r"[A-Z][A-Za-z0-9]*", name) else _pascal(name)
            candidate, n = spelled, 2
            while candidate in taken:
                candidate, n = f"{spelled}{n}", n + 1
            taken.add(candidate)
            self.names[name] = candidate

    # --- schemas ------------------------------------------------------------------------

    def ref(self, ref: Any, at: str) -> Any:
        if not isinstance(ref, str) or not ref.startswith("#"):
            self.problems.append(Problem(at, f"a remote reference ({ref!r}): only the document's own #/ pointers can be imported"))
            return ref
        tokens = checks.pointer_tokens(ref[1:]) if ref != "#" else []
        if self.openapi:
            if tokens[:2] != ["components", "schemas"] or len(tokens) < 3:
                self.problems.append(Problem(at, f"$ref {ref!r} points outside components/schemas"))
                return ref
            name, rest = tokens[2], tokens[3:]
        elif tokens[:1] in (["$defs"], ["definitions"]) and len(tokens) >= 2:
            name, rest = tokens[1], tokens[2:]
        else:
            name, rest = "", tokens  # into the document's root schema
        if name and name not in self.names:
            self.problems.append(Problem(at, f"$ref {ref!r} names no definition of the document"))
            return ref
        if name:
            self.wanted.append(name)
        return "#/$defs/" + pointer_of(self.names[name], *rest)[1:]

    def schema(self, node: Any, at: str) -> Any:
        """The schema at pointer `at` of the source, as a spec writes it."""
        if isinstance(node, bool):
            return node
        if not isinstance(node, dict):
            self.problems.append(Problem(at, "not a schema (an object or a boolean)"))
            return node
        if self.draft07 and "$ref" in node:
            # Draft-07 ignores a $ref's siblings: the assertions beside it meant nothing, the annotations are kept.
            node = {k: v for k, v in node.items() if k == "$ref" or k in checks.ANNOTATIONS or k.startswith("x-")}
        out: dict[str, Any] = {}
        for key, value in node.items():
            here = f"{at}{pointer_of(key)}"
            if key in _UNRESOLVED:
                self.problems.append(Problem(here, f"{key} is {_UNRESOLVED[key]}"))
            elif key == "$schema":
                continue  # the spec's dialect is 2020-12; the translation made it so
            elif key == "$ref":
                out[key] = self.ref(value, here)
            elif key in ("enum", "const", "default", "examples") or key.startswith("x-"):
                out[key] = value  # data, as written
            elif key == "example" and self.openapi:
                out["examples"] = [*node.get("examples", []), value]
            elif key == "nullable" and self.openapi:
                continue  # below
            elif key in _OPENAPI_ANNOTATIONS and self.openapi:
                out.setdefault("x-openapi", {})[key] = self.discriminator(value) if key == "discriminator" else value
            elif key == "items" and isinstance(value, list):  # draft-07's tuple
                out["prefixItems"] = [self.schema(s, f"{here}/{i}") for i, s in enumerate(value)]
                if "additionalItems" in node:
                    out["items"] = self.schema(node["additionalItems"], f"{at}/additionalItems")
            elif key == "additionalItems":
                continue  # with an array items (above); beside a schema items draft-07 ignores it
            elif key == "dependencies" and isinstance(value, dict):
                for name, dep in value.items():
                    target = "dependentRequired" if isinstance(dep, list) else "dependentSchemas"
                    out.setdefault(target, {})[name] = dep if isinstance(dep, list) else self.schema(dep, f"{here}{pointer_of(name)}")
            elif key in ("definitions", "$defs"):
                out["$defs"] = {n: self.schema(s, f"{here}{pointer_of(n)}") for n, s in value.items()}
            elif key in checks.STRUCTURE:
                out[key] = self.sub(key, value, here)
            elif key == "format" and value == "byte" and self.openapi:
                out[key] = value
                out["contentEncoding"] = "base64"  # OpenAPI's byte: base64 text
            elif key in _KEPT:
                out[key] = value
            else:
                self.problems.append(
                    Problem(here, f"unknown keyword {key!r}: neither JSON Schema nor OpenAPI defines it (an x- key of your own is kept)")
                )
        if self.openapi == "3.0" and node.get("nullable") is True:
            return _nullable(out)
        return out

    def sub(self, key: str, value: Any, at: str) -> Any:
        holds = checks.STRUCTURE[key]
        if holds == "list" and isinstance(value, list):
            return [self.schema(s, f"{at}/{i}") for i, s in enumerate(value)]
        if holds == "map" and isinstance(value, dict):
            return {n: self.schema(s, f"{at}{pointer_of(n)}") for n, s in value.items()}
        return self.schema(value, at)

    def discriminator(self, value: Any) -> Any:
        """OpenAPI's discriminator with its mapping's references rewritten (an annotation: oneOf/anyOf says what is valid)."""
        if not isinstance(value, dict) or not isinstance(value.get("mapping"), dict):
            return value
        mapping = {tag: self.ref(ref, "") if isinstance(ref, str) and ref.startswith("#") else ref for tag, ref in value["mapping"].items()}
        return {**value, "mapping": mapping}


def _pascal(name: str) -> str:
    words = [w for w in re.split(r"[^A-Za-z0-9]+", name) if w]
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


def import_schema(document: Any, source: str, pointer: str, format_id: str, keep_all: bool = False) -> Imported:
    """The spec of the schema at `pointer` ("" for the document's root schema) of a published document."""
    if not isinstance(document, dict):
        raise ImportRefused(source, [Problem("", "the document is not a JSON object")])
    openapi, draft07 = _kind(document)
    t = _Translator(document, openapi, draft07)
    definitions = t.definitions()
    tokens = checks.pointer_tokens(pointer[1:] if pointer.startswith("#") else pointer) if pointer not in ("", "#") else []
    by_pointer = {p: n for n, (p, _) in definitions.items()}
    root_pointer = pointer_of(*tokens)
    if root_pointer in by_pointer:
        root_name, root_schema = by_pointer[root_pointer], definitions[by_pointer[root_pointer]][1]
    elif tokens:
        raise ImportRefused(source, [Problem(root_pointer, "names no definition of the document" + _choices(definitions))])
    else:
        root_schema = {k: v for k, v in document.items() if k not in ("$defs", "definitions", "$schema", "$id", "$comment")}
        if openapi or not set(root_schema) - set(checks.ANNOTATIONS):
            raise ImportRefused(source, [Problem("", "the document has no root schema: name one with #<pointer>" + _choices(definitions))])
        root_name = str(document.get("title") or format_id)
    t.name_all(list(definitions), root_name)
    t.root_name = root_name
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
    defs = {t.names[n]: _described(s, n) for n, s in translated.items()}
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
    return Imported(spec, {n: s for n, s in t.names.items() if n != s and n in translated}, list(defs))


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

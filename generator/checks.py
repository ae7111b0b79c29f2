"""A schema applied as written: JSON Schema's own meaning where no type of the targets holds the schema.

A schema with constraints but no "type", a list of types, allOf, not, if/then/else, contains,
patternProperties, propertyNames, dependentRequired, const or enum of any JSON value, and the like:
lower.py gives such a schema the targets' JSON value type (ir.AnyType) and compiles it here into
checks (ir.Checks), which every runtime applies in the same way (the Python runtime's Checks, Go's
rt/schema.go, TypeScript's runtime.ts), reporting the same problems with the same messages.

The checks are JSON text: {"root": node, "refs": {key: node}}. A node is true, or an object of
the keywords below with their values, where
- every message is final, under "messages" (keyword -> text, x-messages applied here);
- "type" is always a list of type names;
- each $ref is a key of "refs" (the JSON pointer it resolved to), each pattern an index into
  ir.Checks.patterns (each target compiles the pattern in its own dialect);
- patternProperties, dependentSchemas and dependentRequired are lists of pairs (or triples), in
  the spec's order;
- a false schema is {"false": true} with the message for its place ("items": false stays false:
  the array reports it);
- annotations, $defs and x- keywords other than x-messages are left out (the exported JSON
  Schema keeps the schema as written).

What a runtime may rely on: every $ref cycle passes through a keyword that descends into the value
(items, properties, ...), and at most MAX_HOPS subschemas apply one inside another to one value.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Callable
from typing import Any

from generator import automaton, ir, messages, patterns, string_formats
from generator.errors import SpecError, did_you_mean, pointer_of

# The keywords chatspec applies as JSON Schema says, by what they take.
_SCHEMA_KEYS = ("items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else")
_SCHEMA_LISTS = ("prefixItems", "allOf", "anyOf", "oneOf")
_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas")
_VALUES = (
    "type",
    "enum",
    "const",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "contentEncoding",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minContains",
    "maxContains",
    "required",
    "minProperties",
    "maxProperties",
    "dependentRequired",
)
APPLIED = frozenset({*_SCHEMA_KEYS, *_SCHEMA_LISTS, *_SCHEMA_MAPS, *_VALUES, "$ref"})

# Keywords that say nothing about which values are valid: kept in the exported schema, not checked.
ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment", "$defs", "x-messages"}
)

# JSON Schema keywords chatspec cannot give their meaning yet, and why.
REFUSED = {
    "$id": "a schema's own base URI (and the $refs relative to it) is not supported; chatspec resolves only local #/... pointers",
    "$anchor": "anchors are not supported; $ref a JSON pointer (#/$defs/...) instead",
    "$dynamicRef": "dynamic references are not supported",
    "$dynamicAnchor": "dynamic references are not supported",
    "$vocabulary": "a spec is always JSON Schema 2020-12's validation vocabulary",
    "unevaluatedProperties": "unevaluatedProperties is not supported yet: its meaning depends on every other subschema's annotations",
    "unevaluatedItems": "unevaluatedItems is not supported yet: its meaning depends on every other subschema's annotations",
    "contentMediaType": "contentMediaType is not asserted by chatspec; remove it or describe the content in description",
    "contentSchema": "contentSchema is not asserted by chatspec; remove it or describe the content in description",
    "dependencies": "dependencies is draft-07; write dependentRequired or dependentSchemas",
    "additionalItems": "additionalItems is draft-07; in 2020-12, items after prefixItems is the schema of the other items",
    "definitions": "definitions is draft-07; write $defs",
}

# The keywords a JSON pointer may go through to reach a schema, and what each holds: a schema, a map of them by
# name, or a list of them. (Anything else holds data, which a $ref cannot point into.)
STRUCTURE = {
    **dict.fromkeys(_SCHEMA_KEYS, "schema"),
    **dict.fromkeys(_SCHEMA_LISTS, "list"),
    **dict.fromkeys((*_SCHEMA_MAPS, "$defs"), "map"),
}

# How many subschemas may apply one inside another to one value ($ref, allOf, anyOf, oneOf, not,
# if/then/else, dependentSchemas) before a keyword descends into it: the runtimes walk the schema
# recursively, and Python's stack holds 128 levels of a document times this.
MAX_HOPS = 4


def article(kind: str) -> str:
    return kind if kind == "null" else ("an " if kind[0] in "aeiou" else "a ") + kind


def shown(value: Any) -> str:
    """A const or enum value in a message: a string as it is (as chatspec's string enums show it), else its JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _messages(schema: dict[str, Any], over: dict[str, str]) -> dict[str, str]:
    """Each check's final message on this schema."""
    out: dict[str, str] = {}
    if "type" in schema:
        types = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        out["type"] = over.get("type") or "must be " + " or ".join(article(t) for t in types)
    if "const" in schema:
        value = schema["const"]
        default = messages.DEFAULTS["const"] if isinstance(value, str) else "must be {limit}"
        out["const"] = messages.resolve_with("const", over, default, limit=shown(value))
    if "enum" in schema:
        out["enum"] = messages.resolve("enum", over, allowed=[shown(v) for v in schema["enum"]])
    for key in (
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "maxContains",
    ):
        if key in schema:
            out[key] = messages.resolve(key, over, limit=schema[key])
    if "contains" in schema:
        out["minContains"] = messages.resolve("minContains", over, limit=schema.get("minContains", 1))
    if string_formats.asserted(schema.get("format")):
        out["format"] = string_formats.message(schema["format"], over)
    for key in ("contentEncoding", "uniqueItems", "required", "propertyNames", "anyOf", "not"):
        if key in schema:
            out[key] = messages.resolve(key, over)
    if "oneOf" in schema:
        out["oneOf"] = messages.resolve_with("oneOf", over, messages.APPLIED_DEFAULTS["oneOf"])
    if schema.get("items") is False:
        out["items"] = messages.resolve("items", over, limit=len(schema.get("prefixItems", ())))
    return out


class Compiler:
    """Compiles one schema (and every schema its $refs reach) into checks."""

    def __init__(
        self,
        document: dict[str, Any],
        fail: Callable[[str, str, str], SpecError],
        merges: Callable[[Any], bool] = lambda _: False,
        typed: Callable[[str], bool] = lambda _: False,
    ) -> None:
        self.document = document
        self.fail = fail
        self.merges = merges  # whether a schema's allOf merges models into one (lower.merged_all_of)
        # Whether the schema at a pointer is one the targets hold in a type of their own (lower.typed_at): an integer
        # there is 64-bit, as the exported schema says, so a $ref into it from here checks that bound too.
        self.typed = typed
        self.refs: dict[str, Any] = {}
        self.patterns: list[str] = []
        self.pending: list[str] = []

    def compile(self, schema: Any, pointer: str) -> ir.Checks:
        root = self.node(schema, pointer, "value")
        while self.pending:
            key = self.pending.pop()
            self.refs[key] = self.node(self.resolve(key), key, "value")
        bundle = {"root": root, "refs": dict(sorted(self.refs.items()))}
        self.check_hops(bundle, pointer)
        return ir.Checks(
            json.dumps(bundle, ensure_ascii=True, separators=(",", ":")),
            tuple(self.patterns),
            pointer,
            json.dumps(as_written(schema), ensure_ascii=True, separators=(",", ":")),
        )

    def resolve(self, pointer: str) -> Any:
        """The schema at a JSON pointer into the spec ("/$defs/Value/properties/a"); None where the pointer reaches
        no schema: nothing, or a place that holds data (a const, a default, examples, an x- key's value)."""
        path = schemas_on(self.document, pointer)
        return path[-1] if path is not None else None

    def ref(self, ref: str, pointer: str) -> str:
        if not ref.startswith("#/$defs/"):
            raise self.fail(
                pointer,
                f"$ref {ref!r} is not a pointer into this spec's $defs",
                "chatspec resolves only local references: #/$defs/<Name>, or a pointer below one",
            )
        # The fragment percent-decoded is the JSON pointer it names (RFC 6901, section 6): the one spelling of a
        # place that the pointers this compiler builds below it (pointer_of_key) share, so typed() reads both alike.
        key = urllib.parse.unquote(ref[1:])
        target = self.resolve(key)
        if not isinstance(target, (dict, bool)):
            raise self.fail(
                pointer,
                f"$ref {ref!r} does not resolve to a schema",
                "point it at a schema of this spec's $defs (not into a const, a default, examples or an x- key's value)",
            )
        for at in re.finditer(r"/(anyOf|allOf)/", key):
            # Where the exported schema writes the schema holding that keyword another way, the pointer would point
            # nowhere there.
            rewritten = self.rewritten(self.resolve(key[: at.start()]), at.group(1))
            if rewritten:
                raise self.fail(
                    pointer,
                    f"$ref {ref!r} points into the {at.group(1)} of {rewritten}",
                    "name the schema the $ref wants in $defs, and $ref it from both places",
                )
        if key not in self.refs and key not in self.pending:
            self.refs[key] = None  # taken: compiled once
            self.pending.append(key)
        return key

    def rewritten(self, holder: Any, keyword: str) -> str:
        """How the exported schema writes a schema whose anyOf or allOf a $ref points into, where not as written: a
        schema and {"type": "null"} as a list of types, a model that merges others as one model; else ""."""
        branches = holder.get(keyword) if isinstance(holder, dict) else None
        if keyword == "anyOf" and isinstance(branches, list) and len(branches) == 2 and {"type": "null"} in branches:
            return "a value that may be null, which the exported schema writes as a list of types"
        if keyword == "allOf" and self.merges(holder):
            return "a model that merges others, which the exported schema writes as one model"
        return ""

    def pattern(self, pattern: str, pointer: str) -> int:
        try:
            patterns.check(pattern)
            automaton.compile_pattern(pattern)  # refuses a pattern too complex to match in linear time
        except patterns.PatternError as exc:
            raise self.fail(pointer, exc.problem, exc.hint) from None
        if pattern not in self.patterns:
            self.patterns.append(pattern)
        return self.patterns.index(pattern)

    def false(self, place: str, over: dict[str, str]) -> dict[str, Any]:
        key = "additionalProperties" if place == "field" else "false"
        return {"false": True, "messages": {"false": messages.resolve(key, over)}}

    def node(self, schema: Any, pointer: str, place: str, over: dict[str, str] | None = None) -> Any:
        """One schema's node; place is what it checks ("value", or "field" for an unlisted field); over, the
        x-messages of the schema it is in, which word a false schema's message."""
        if schema is True:
            return True
        if schema is False:
            return self.false(place, over or {})
        if not isinstance(schema, dict):
            raise self.fail(pointer, "a schema must be an object or a boolean", "write {} for any value, false for none")
        for key in schema:
            if key in REFUSED:
                raise self.fail(pointer_of_key(pointer, key), f"{key} is not supported: {REFUSED[key]}", "remove it")
            if key not in APPLIED and key not in ANNOTATIONS and not key.startswith("x-"):
                raise self.fail(
                    pointer_of_key(pointer, key),
                    f"unknown keyword {key!r}{did_you_mean(key, sorted(APPLIED | ANNOTATIONS))}",
                    "use a JSON Schema 2020-12 keyword, or an x- keyword for your own annotations",
                )
        for key in schema:
            check_vendor_key(key, pointer_of_key(pointer, key), self.fail)
            if key in ("x-known-values", "x-enum-descriptions"):
                raise self.fail(
                    pointer_of_key(pointer, key),
                    f'{key} is read only on a typed string (an enum of strings with "type": "string"); here it would be lost',
                    f"remove {key}, or say it in description",
                )
        if "x-open" in schema:
            raise self.fail(
                pointer_of_key(pointer, "x-open"),
                "x-open is read only on a named enum and on a union told apart by x-discriminator; "
                "in a schema applied as written it would be lost",
                "remove x-open, or make the schema a $defs enum or a tagged union",
            )
        if schema.get("x-rules"):
            raise self.fail(
                pointer_of_key(pointer, "x-rules"),
                "x-rules are checked only on a model (an object type with properties and nothing chatspec applies as written); "
                "here they would be skipped",
                "move the rule to a model, or drop it",
            )
        if "format" in schema:
            string_formats.check(schema["format"], pointer_of_key(pointer, "format"), self.fail)
        over = schema.get("x-messages", {})
        node: dict[str, Any] = {}
        for key, value in schema.items():
            at = pointer_of_key(pointer, key)
            if key == "type":
                node["type"] = [value] if isinstance(value, str) else list(value)
            elif key == "$ref":
                node["$ref"] = self.ref(value, at)
            elif key == "pattern":
                node["pattern"] = self.pattern(value, at)
            elif key == "items":
                node["items"] = False if value is False else self.node(value, at, "value")
            elif key == "additionalProperties":
                node[key] = self.node(value, at, "field", over)
            elif key in _SCHEMA_KEYS:
                node[key] = self.node(value, at, "value", over)
            elif key in _SCHEMA_LISTS:
                node[key] = [self.node(sub, f"{at}/{i}", "value", over) for i, sub in enumerate(value)]
            elif key == "properties":
                node[key] = {name: self.node(sub, pointer_of_key(at, name), "value", over) for name, sub in value.items()}
            elif key == "patternProperties":
                node[key] = [
                    [self.pattern(name, pointer_of_key(at, name)), self.node(sub, pointer_of_key(at, name), "value", over)]
                    for name, sub in value.items()
                ]
            elif key == "dependentSchemas":
                node[key] = [[name, self.node(sub, pointer_of_key(at, name), "value", over)] for name, sub in value.items()]
            elif key == "dependentRequired":
                node[key] = [
                    [name, list(names), messages.resolve("dependentRequired", over, allowed=[name])] for name, names in value.items()
                ]
            elif key == "format":
                if string_formats.asserted(value):
                    node[key] = value  # (any other format is an annotation: nothing to check)
            elif key in _VALUES:
                node[key] = value
        node["messages"] = _messages(schema, over)
        if "integer" in node.get("type", ()) and self.typed(pointer):
            # (The runtimes check -2^63 <= value < 2^63 on a number, as the typed parsers do; a type list with integer
            # takes no other number: ["integer", "null"], ["integer", "string"].)
            node["int64"] = True
            node["messages"]["int64"] = messages.resolve("int64", over)
        return node

    def check_hops(self, bundle: dict[str, Any], pointer: str) -> None:
        """Refuse a $ref cycle that never descends into the value, and more than MAX_HOPS subschemas applied
        one inside another to one value (each node's longest such chain, once per node)."""
        longest: dict[int, int] = {}
        walking: set[int] = set()

        def hops(node: Any) -> int:
            if not isinstance(node, dict):
                return 0
            if id(node) in longest:
                return longest[id(node)]
            if id(node) in walking:
                raise self.fail(
                    pointer,
                    "a $ref cycle here applies a schema to the same value again and again, without descending into it",
                    "break the cycle, or put it below properties, items or another keyword that descends into the value",
                )
            walking.add(id(node))
            inner = [bundle["refs"][node["$ref"]]] if "$ref" in node else []
            for key in ("allOf", "anyOf", "oneOf"):
                inner += node.get(key, [])
            inner += [node[key] for key in ("not", "if", "then", "else") if key in node]
            inner += [sub for _, sub in node.get("dependentSchemas", [])]
            result = 1 + max((hops(sub) for sub in inner), default=0)
            walking.discard(id(node))
            longest[id(node)] = result
            return result

        for node in all_nodes(bundle):
            deepest = hops(node)
            if deepest > MAX_HOPS + 1:
                raise self.fail(
                    pointer,
                    f"{deepest - 1} subschemas apply one inside another to one value here ($ref, allOf, anyOf, oneOf, not, if); "
                    f"chatspec applies at most {MAX_HOPS}",
                    "flatten the chain: merge allOf branches, or $ref the definition the chain ends at",
                )


# chatspec's own x- keywords: read by lower, left out of the exported schema (other x- keys are kept there).
OWN_X_KEYWORDS = frozenset(
    {"x-messages", "x-name", "x-known-values", "x-enum-descriptions", "x-default-factory", "x-discriminator", "x-rules", "x-open"}
)


# Vendor keys chatspec's own import writes (OpenAPI's annotations, kept as written): never a slip for x-open.
WRITTEN_BY_IMPORT = frozenset({"x-openapi"})


def check_vendor_key(key: str, pointer: str, fail: Callable[[str, str, str], SpecError]) -> None:
    """A vendor x- key is kept as written; one a letter away from chatspec's own is a slip whose meaning would be
    lost, refused with a did-you-mean."""
    if key.startswith("x-") and key not in OWN_X_KEYWORDS | WRITTEN_BY_IMPORT and did_you_mean(key, OWN_X_KEYWORDS):
        raise fail(
            pointer,
            f"unknown keyword {key!r}{did_you_mean(key, OWN_X_KEYWORDS)}",
            "spell chatspec's keyword as it is, or name your own x- key so it reads as no keyword of chatspec's",
        )


def as_written(schema: Any) -> Any:
    """The schema for the exported JSON Schema: as the spec writes it, without chatspec's own x- keywords (values
    of enum, const, default and examples are data, kept whole)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in OWN_X_KEYWORDS:
            continue
        if key in _SCHEMA_KEYS:
            out[key] = as_written(value)
        elif key in _SCHEMA_LISTS:
            out[key] = [as_written(v) for v in value]
        elif key in (*_SCHEMA_MAPS, "$defs"):
            out[key] = {name: as_written(v) for name, v in value.items()}
        else:
            out[key] = value
    return out


def _children(node: dict[str, Any]) -> list[Any]:
    """A node's subschemas' nodes, in its keys' order. Only where a node holds nodes: a property named "messages",
    or an enum value holding that key, is no node's messages."""
    out: list[Any] = []
    for key, value in node.items():
        if key in _SCHEMA_KEYS:
            out.append(value)
        elif key in _SCHEMA_LISTS:
            out.extend(value)
        elif key == "properties":
            out.extend(value.values())
        elif key in ("patternProperties", "dependentSchemas"):
            out.extend(sub for _, sub in value)
    return out


def all_nodes(bundle: dict[str, Any]) -> list[dict[str, Any]]:
    """Every node of compiled checks ({"root": node, "refs": {...}}) that is an object, each once, in document order
    (the root's, then each ref's)."""
    out: list[dict[str, Any]] = []
    stack: list[Any] = [*reversed(bundle["refs"].values()), bundle["root"]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            out.append(node)
            stack.extend(reversed(_children(node)))
    return out


def without_messages(bundle: dict[str, Any]) -> dict[str, Any]:
    """Compiled checks without their messages: what they accept (a dependentRequired's message is its third item)."""

    def strip(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "messages":
                continue
            if key in _SCHEMA_KEYS:
                out[key] = strip(value)
            elif key in _SCHEMA_LISTS:
                out[key] = [strip(sub) for sub in value]
            elif key == "properties":
                out[key] = {name: strip(sub) for name, sub in value.items()}
            elif key in ("patternProperties", "dependentSchemas"):
                out[key] = [[first, strip(sub)] for first, sub in value]
            elif key == "dependentRequired":
                out[key] = [entry[:2] for entry in value]
            else:
                out[key] = value  # data (an enum's values, a const) or a keyword's own value
        return out

    return {"root": strip(bundle["root"]), "refs": {key: strip(node) for key, node in bundle["refs"].items()}}


def schemas_on(document: Any, pointer: str) -> list[Any] | None:
    """The schemas a JSON pointer into the spec passes through, the document first and the one it names last (the
    maps and lists of schemas between them left out); None where it reaches no schema."""
    found: Any = document
    path = [document]
    expect = "schema"  # what the next token names: a keyword of a schema (the document: its $defs), or an entry of a map or list of schemas
    for token in json_pointer_tokens(pointer):
        if expect == "schema":
            if not isinstance(found, dict) or token not in STRUCTURE or token not in found:
                return None
            expect = STRUCTURE[token]
            found = found[token]
        elif isinstance(found, dict) and expect == "map" and token in found:
            found, expect = found[token], "schema"
        elif isinstance(found, list) and expect == "list" and (n := ir.index_of(token)) is not None and n < len(found):
            found, expect = found[n], "schema"
        else:
            return None
        if expect == "schema":
            path.append(found)
    return path if expect == "schema" else None


def pointer_tokens(pointer: str) -> list[str]:
    """The tokens of a $ref's JSON pointer: a $ref is a URI, so its fragment is percent-decoded first ("%2F" is a "/"
    that splits), then read as a JSON pointer (RFC 6901, section 6)."""
    return json_pointer_tokens(urllib.parse.unquote(pointer))


def json_pointer_tokens(pointer: str) -> list[str]:
    """The tokens of a JSON pointer as RFC 6901 writes it (not percent-encoded: "/properties/a%41" names "a%41")."""
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def pointer_of_key(pointer: str, key: str) -> str:
    return pointer + pointer_of(key)

"""lower: turn a loaded spec into the IR (resolve $refs, name things, resolve messages)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from generator import automaton, checks, invisible, ir, messages, naming, patterns, string_formats
from generator.defaults import typed_defaults
from generator.errors import SpecError, did_you_mean, pointer_of
from generator.load import LoadedSpec
from generator.nesting import (
    alias_cycles,
    check_default_cycles,
    check_nesting,
    check_open_enum_defaults,
    check_required_cycles,
    check_unique_items,
)
from generator.rule_pointers import check_rule_pointers

# Keywords that describe a value but do not constrain it.
ANNOTATIONS = frozenset({"title", "description", "default", "x-messages", "x-name", "x-default-factory"})

# Where lower reads each annotation into the IR; anywhere else it is refused, never dropped.
ANNOTATIONS_READ = {
    "$defs entries": {"title", "description", "x-messages"},
    "properties": {"description", "default", "x-messages", "x-name", "x-default-factory"},
    "tuple items": {"x-messages", "x-name"},
    "nested schemas": {"x-messages"},
}

# The keywords the meta-schema accepts that lower never reads, and why; every other one it reads
# into the IR (tests/test_architecture.py fails on a keyword that is neither).
NOT_LOWERED = {
    "$schema": "load accepts only the 2020-12 dialect's URI, the same in every spec, so the IR has nothing to carry",
}

# The constraint keywords each JSON type takes; anything else on it is a mistake.
KEYWORDS_BY_TYPE = {
    "string": {
        "type",
        "enum",
        "const",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "contentEncoding",
        "x-known-values",
        "x-enum-descriptions",
        "x-open",
    },
    "integer": {"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "enum", "const"},
    "number": {"type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "const"},
    "boolean": {"type", "enum", "const"},
    "array": {"type", "items", "prefixItems", "minItems", "maxItems", "uniqueItems"},
    "object": {"type", "additionalProperties"},
    "model": {"type", "properties", "required", "additionalProperties", "x-rules"},
    "union": {"oneOf", "x-discriminator", "x-open"},
    "ref": {"$ref"},
    "nullable": {"anyOf"},
    "any": set(),
}

_SPEC_URI = "urn:chatspec:spec"

# An open union's default message for a tag that is not a string (any string is a tag it keeps).
OPEN_TAG_MESSAGE = "field '{field}' must be a string"

# What each kind of compare operand is ordered as: integers and numbers order together.
_ORDERED_AS = {"integer": "a number", "number": "a number", "string": "a string", "date-time": "a date-time"}


class Lowering:
    """Lowers one spec. Holds the spec's $defs and a referencing resolver for $ref."""

    def __init__(self, spec: LoadedSpec, cyclic: frozenset[str] = frozenset(), applied_unions: frozenset[str] = frozenset()) -> None:
        self.spec = spec
        self.defs: dict[str, Any] = spec.document["$defs"]
        self.cyclic = cyclic  # aliases on a cycle of aliases (nesting.alias_cycles): applied as written
        # oneOfs an earlier pass applied as written (lower_union refused them): their variants are not typed (typed_at)
        self.applied_unions = applied_unions
        self.fell_back: set[str] = set()  # the oneOfs this pass applied as written
        self.kind_trail: list[str] = []  # aliases json_kind is inside of, to catch an alias that contains itself
        self.ends_in_a_type: set[str] = set()  # definitions whose chain of bare $refs is known to end in a real type
        self.hoisted: dict[str, ir.Model] = {}  # pointer -> the model of an object schema inside another (hoist)
        resource = Resource.from_contents(spec.document, default_specification=DRAFT202012)
        self.resolver = Registry().with_resource(_SPEC_URI, resource).resolver(base_uri=_SPEC_URI)

    def fail(self, pointer: str, problem: str, hint: str) -> SpecError:
        return SpecError(self.spec.path, pointer, problem, hint)

    def check_name(self, name: object, what: str, pointer: str) -> None:
        """A property name or an enum value holds no character that hides or reorders text (generator/invisible.py)."""
        found = invisible.name_problem(name, what) if isinstance(name, str) else None
        if found is not None:
            raise self.fail(pointer, *found)

    # --- definitions ---------------------------------------------------

    def lower_format(self) -> ir.Format:
        doc = self.spec.document
        for name in self.defs:
            if name in naming.PYTHON_CAPITALISED_BUILTINS:
                raise self.fail(
                    pointer_of("$defs", name),
                    f"the definition name {name!r} is a Python builtin, which the generated module would shadow",
                    "rename the definition",
                )
        definitions = tuple(self.lower_definition(name, schema) for name, schema in self.defs.items())
        definitions += tuple(self.hoisted.values())  # (in the order lower met them)
        root = self.ref_name(doc["$ref"], "/$ref")
        self.lookup_definition(definitions, root)  # any definition: a model, an enum, an array, a union, ...
        return ir.Format(
            id=self.spec.format_id,
            version=doc["x-version"],
            title=doc["title"],
            description=doc["description"],
            decisions=tuple(doc.get("x-decisions", ())),
            upstream=tuple((k, doc["x-source"][k]) for k in ("file", "pointer", "version", "id") if k in doc.get("x-source", {})),
            compatibility=doc.get("x-compatibility", "none"),
            root=root,
            definitions=definitions,
            source=self.spec.path,
            valid_examples=self.spec.examples_valid,
            invalid_examples=tuple(
                ir.InvalidExample(name, case.get("description", ""), case["data"], tuple(case["errors"]))
                for name, case in self.spec.examples_invalid
            ),
            known_values=tuple(
                ir.KnownValues(d.name, f.name, t.known_values)
                for d in definitions
                if isinstance(d, ir.Model)
                for f in d.fields
                for t in [ir.unwrap_nullable(f.type)]
                if isinstance(t, ir.StringType) and t.known_values
            ),
        )

    @staticmethod
    def lookup_definition(definitions: tuple[ir.Definition, ...], name: str) -> ir.Definition:
        return next(d for d in definitions if d.name == name)

    def definition_kind(self, name: str) -> str:
        """ "model", "enum" or "alias" for a $defs entry (a $ref-only entry is an alias)."""
        schema = self.defs[name]
        if merged_all_of(schema, self.defs) is not None:
            return "model"
        if not isinstance(schema, dict) or applied_as_written(schema, definition=True, defs=self.defs):
            return "alias"
        if "properties" in schema or (schema.get("type") == "object" and not isinstance(schema.get("additionalProperties"), dict)):
            return "model"
        if "enum" in schema and schema.get("type") == "string":
            return "enum"
        return "alias"

    def lower_definition(self, name: str, schema: dict[str, Any]) -> ir.Definition:
        pointer = pointer_of("$defs", name)
        if not isinstance(schema, dict):  # true or false: any value, or none
            return ir.Alias(name=name, description="", type=self.lower_checks(schema, pointer))
        self.check_placement(
            schema, pointer, "a $defs entry", ANNOTATIONS_READ["$defs entries"] | DEFINITION_KEPT, keeps=True, definition=True
        )
        kind = self.definition_kind(name)
        description = schema.get("description", "")
        title = schema.get("title", "")
        if kind == "model":
            return self.lower_model(name, merged_all_of(schema, self.defs) or schema, pointer)
        if kind == "enum":
            self.check_keywords(schema, "string", pointer)
            over = schema.get("x-messages", {})
            values = list(schema["enum"])
            for i, value in enumerate(values):
                self.check_name(value, "enum value", pointer + pointer_of("enum", i))
            return ir.Enum(
                name=name,
                description=description,
                values=tuple(values),
                messages={"type": messages.type_message("string", over), "enum": messages.resolve("enum", over, allowed=values)},
                value_descriptions=self.enum_descriptions(schema, values, pointer),
                open=self.is_open(schema),
                title=title,
                annotations=kept_annotations(schema, ANNOTATIONS_READ["$defs entries"], definition=True, defs=self.defs),
            )
        self.check_alias_cycle(name, pointer)
        return ir.Alias(
            name=name,
            description=description,
            type=self.lower_checks(schema, pointer) if name in self.cyclic else self.lower_type(schema, pointer),
            title=title,
            annotations=kept_annotations(schema, ANNOTATIONS_READ["$defs entries"], definition=True, defs=self.defs),
        )

    def is_open(self, schema: dict[str, Any]) -> bool:
        """x-open on the enum or union, else the spec's own (every enum and tagged union of the format)."""
        return bool(schema.get("x-open", self.spec.document.get("x-open", False)))

    def enum_descriptions(self, schema: dict[str, Any], values: list[str], pointer: str) -> dict[str, str]:
        described = dict(schema.get("x-enum-descriptions", {}))
        for value in described:
            if value not in values:
                raise self.fail(
                    pointer + pointer_of("x-enum-descriptions", value),
                    f"x-enum-descriptions describes {value!r}, which is not one of the enum's values{did_you_mean(value, values)}",
                    f"describe only the values in enum: {', '.join(values)}",
                )
        return described

    def check_alias_cycle(self, name: str, pointer: str) -> None:
        """Refuse a chain of bare $refs that comes back to itself. Each definition's chain is walked
        once: one already known to end in a real type ends the walk (a long chain stays linear)."""
        seen, walking = [name], {name}
        schema = self.defs[name]
        while isinstance(schema, dict) and set(schema) - ANNOTATIONS == {"$ref"} and seen[-1] not in self.ends_in_a_type:
            target = self.ref_name(schema["$ref"], pointer + "/$ref")
            if target in walking:
                chain = " -> ".join([*seen, target])
                raise self.fail(
                    pointer + "/$ref", f"cyclic $ref: {chain}", "make one of these definitions a real type instead of a bare $ref"
                )
            seen.append(target)
            walking.add(target)
            schema = self.defs[target]
        self.ends_in_a_type.update(seen)

    def lower_model(self, name: str, schema: dict[str, Any], pointer: str) -> ir.Model:
        if schema.get("type") != "object":
            # Without it JSON Schema accepts every value that is not an object (properties and required say
            # nothing about them), where a model would refuse them: meaning kept or refused, never changed.
            raise self.fail(
                pointer + ("/type" if "type" in schema else ""),
                (
                    'a model (an object with properties) must say "type": "object": without it, JSON Schema accepts every '
                    "value that is not an object"
                    if "type" not in schema
                    else f'a model (an object with properties) must have "type": "object", not {json.dumps(schema["type"])}: '
                    "JSON Schema accepts the values of the other types"
                )
                + ", which the generated code would refuse",
                'write "type": "object" (a value that may be null: {"anyOf": [{"$ref": ...}, {"type": "null"}]} where it is used)',
            )
        self.check_keywords(schema, "model", pointer)
        properties: dict[str, Any] = schema.get("properties", {})
        required = schema.get("required", [])
        for i, key in enumerate(required):
            if key not in properties:
                raise self.fail(
                    pointer + pointer_of("required", i),
                    f"required field {key!r} is not in properties",
                    f"add {key!r} to properties or remove it from required",
                )
        fields = tuple(
            self.lower_field(key, prop, key in required, pointer + pointer_of("properties", key)) for key, prop in properties.items()
        )
        extra = schema.get("additionalProperties", True)
        if isinstance(extra, dict) and extra:
            # JSON Schema checks every property not listed against this schema; the generated models keep
            # only their listed fields, so the check would be skipped in silence.
            raise self.fail(
                pointer + "/additionalProperties",
                "additionalProperties with a schema beside properties is not supported: " "the properties not listed would go unchecked",
                "use true (any other property allowed) or false (none), or list the properties; "
                "for a map of one value type, drop properties and keep additionalProperties",
            )
        closed = extra is False
        over = schema.get("x-messages", {})
        rules = tuple(self.lower_rule(rule, fields, pointer + pointer_of("x-rules", i)) for i, rule in enumerate(schema.get("x-rules", [])))
        return ir.Model(
            name=name,
            description=schema.get("description", ""),
            fields=fields,
            closed=closed,
            rules=rules,
            type_message=messages.type_message("object", over),
            unknown_message=messages.resolve("additionalProperties", over),
            title=schema.get("title", ""),
            annotations=kept_annotations(schema, ANNOTATIONS_READ["$defs entries"], definition=True, defs=self.defs),
        )

    def hoist(self, schema: dict[str, Any], pointer: str, written: dict[str, Any] | None = None) -> ir.TypeRef:
        """An object schema with properties inside another: a model of its own, named after where it is (the definition,
        then each property's name, Item for array items, Value for a map's values, Item<n> for a tuple's, Variant<n> for
        a union's), e.g. ChatMessageMetadata, or after its x-name where it is no property (a property's x-name names the
        field). Where it cannot be a model (a required name it does not list, a name taken or spelt alike in a target),
        it is applied as written (`written`: the schema as the spec writes it),
        which means the same; a mistake in it is still refused there."""
        if pointer in self.hoisted:
            return ir.Ref(self.hoisted[pointer].name, "model")
        parts = tokens(pointer)
        # Named after the nearest model it is inside: a $defs entry, or a model hoisted from around it.
        around = max((p for p in self.hoisted if pointer.startswith(p + "/")), key=len, default=None)
        words, i = ([self.hoisted[around].name], len(tokens(around))) if around is not None else ([parts[1]], 2)
        while i < len(parts):
            token = parts[i]
            if token in ("properties", "patternProperties", "dependentSchemas"):
                words.append(naming.pascal_case(parts[i + 1]))
                i += 2
            elif token in ("prefixItems", "oneOf", "anyOf", "allOf"):
                words.append(("Item" if token == "prefixItems" else "Variant") + str(int(parts[i + 1]) + (token != "prefixItems")))
                i += 2
            else:
                words.append({"items": "Item", "additionalProperties": "Value"}.get(token, naming.pascal_case(token)))
                i += 1
        named = schema.get("x-name") if parts[-2:-1] != ("properties",) else None
        if isinstance(named, str) and named in naming.PYTHON_CAPITALISED_BUILTINS:
            raise self.fail(
                pointer + "/x-name",
                f"the name {named!r} is a Python builtin, which the generated module would shadow",
                "give the model another x-name",
            )
        name = named if isinstance(named, str) else "".join(words)
        taken = {n.lower() for n in self.defs} | {m.name.lower() for m in self.hoisted.values()}
        if name.lower() in taken or not naming.DEFINITION_NAME.fullmatch(name) or name in naming.PYTHON_CAPITALISED_BUILTINS:
            return self.lower_checks(written or schema, pointer)
        before = dict(self.hoisted)
        self.hoisted[pointer] = ir.Model(name, "", (), False, (), "", "")  # taken while its fields are lowered
        try:
            model: ir.Model | None = self.lower_model(name, {k: v for k, v in schema.items() if k != "x-name"}, pointer)
        except SpecError:
            model = None
        # Fields a target would spell alike (class and class_, a_b and aB) are refused on a $defs model (naming.py);
        # here, as for any model this cannot be, the schema is applied as written instead.
        if model is None or any(len(set(spelt)) < len(model.fields) for spelt in _spellings(model.fields)):
            self.hoisted = before
            return self.lower_checks(written or schema, pointer)
        self.hoisted[pointer] = dataclasses.replace(model, inline=pointer)
        return ir.Ref(name, "model")

    def lower_field(self, key: str, schema: dict[str, Any] | bool, required: bool, pointer: str) -> ir.Field:
        self.check_name(key, "property name", pointer)
        if not isinstance(schema, dict):  # true or false: any value, or none (applied as written)
            return ir.Field(key, key, self.lower_checks(schema, pointer), required, "", messages.resolve("required", {}), null_ok=True)
        self.check_placement(schema, pointer, "a property", ANNOTATIONS_READ["properties"], keeps=True)
        over = schema.get("x-messages", {})
        factory = schema.get("x-default-factory")
        if required and factory:
            raise self.fail(pointer, f"required field {key!r} has an x-default-factory", "drop it, or make the field optional")
        # A required field is never absent, so its default is never filled in: JSON Schema's annotation, kept as such.
        filled = "default" in schema and not required
        lowered = self.lower_type(schema, pointer)
        if factory:
            self.check_factory_fits(key, lowered, "default" in schema, pointer)
        if filled:
            self.check_default_emittable(key, lowered, pointer)
        annotations = kept_annotations(schema, ANNOTATIONS_READ["properties"], defs=self.defs)
        if "default" in schema and not filled and not applied_as_written(schema, defs=self.defs):
            annotations = json.dumps(
                {**(json.loads(annotations) if annotations else {}), "default": schema["default"]}, ensure_ascii=True, separators=(",", ":")
            )
        return ir.Field(
            name=schema.get("x-name", key),
            wire_name=key,
            type=lowered,
            required=required,
            description=schema.get("description", ""),
            required_message=messages.resolve("required", over),
            has_default=filled,
            default=schema.get("default") if filled else None,
            default_factory=factory,
            null_ok=self.accepts_null(lowered),
            annotations=annotations,
        )

    def check_factory_fits(self, key: str, t: ir.TypeRef, defaulted: bool, pointer: str) -> None:
        """Refuse x-default-factory where a fresh UUID is no value of the field: every target types the field as a
        string it fills in, so an integer, an enum, a nullable or a date-time field would not compile in Go and
        TypeScript, and a pattern, a length or a format a UUID may break would build a value its own validate()
        refuses. Beside a default, the two would disagree on what an absent field is."""
        if defaulted:
            raise self.fail(pointer, f"field {key!r} has both a default and an x-default-factory", "keep one of them")
        plain = self.underlying(t)
        fits = (
            not self.accepts_null(t)
            and isinstance(plain, ir.StringType)
            and plain.pattern is None
            and ir.allowed_values(plain) is None
            and plain.checked_format in (None, "uuid")
            and (plain.min_length or 0) <= 36 <= (plain.max_length if plain.max_length is not None else 36)
        )
        if not fits:
            raise self.fail(
                pointer + "/x-default-factory",
                f"field {key!r} fills in a fresh UUID, which is no value of its type",
                "put x-default-factory on a string field without a pattern, const, enum or other format, that holds 36 characters",
            )

    def accepts_null(self, t: ir.TypeRef) -> bool:
        """Whether JSON null is a value of the type (nullable, free-form, or an alias of either): a required
        field of such a type that holds null is present, as JSON Schema's required means."""
        seen: set[str] = set()
        while isinstance(t, ir.Ref) and t.target == "alias" and t.name not in seen:
            seen.add(t.name)
            t = self.lower_type(self.defs[t.name], pointer_of("$defs", t.name))
        return isinstance(t, (ir.NullableType, ir.AnyType))

    def underlying(self, t: ir.TypeRef) -> ir.TypeRef:
        """What a value of t is when it is not null: the type its aliases stand for, null unwrapped on the way."""
        t = ir.unwrap_nullable(t)
        seen = set()
        while isinstance(t, ir.Ref) and t.target == "alias" and t.name not in seen:
            seen.add(t.name)
            t = ir.unwrap_nullable(self.lower_type(self.defs[t.name], pointer_of("$defs", t.name)))
        return t

    def check_default_emittable(self, key: str, t: ir.TypeRef, pointer: str) -> None:
        """A default must be a value the generated code can hold as it is: no date-time or base64 field has one,
        because the generated field holds a parsed time or bytes, which a JSON string default does not give."""
        t = self.underlying(t)
        if isinstance(t, (ir.DateTimeType, ir.BytesType)):
            what = "a date-time" if isinstance(t, ir.DateTimeType) else "a base64"
            held = "a parsed time" if isinstance(t, ir.DateTimeType) else "decoded bytes"
            raise self.fail(
                pointer + "/default",
                f"field {key!r} is {what} string, which cannot have a default: the generated code holds {held}, not the JSON text",
                "drop the default (an absent value stays absent), or make the field a plain string",
            )

    # --- rules ---------------------------------------------------------

    def lower_rule(self, rule: dict[str, Any], fields: tuple[ir.Field, ...], pointer: str) -> ir.Rule:
        lowered = self.lower_rule_as_written(rule, fields, pointer)
        # A rule runs where `after` says, and reads the values its fields' checks give (at_least_one_of only
        # looks whether they are present): one placed before a field it reads would read nothing there.
        order = [f.wire_name for f in fields]
        reads = () if lowered.kind == "at_least_one_of" else lowered.fields
        late = [w for w in reads if lowered.after is not None and order.index(w) > order.index(lowered.after)]
        if late:
            last = max(late, key=order.index)
            raise self.fail(
                pointer + "/after",
                f"the rule runs right after field {lowered.after!r}, but it reads field {last!r}, whose checks come later",
                f'set "after" to {last!r} or a field after it, or leave "after" out (the rule then runs after all fields)',
            )
        return lowered

    def check_when_can_hold(self, field: ir.Field, when: ir.WhenClause, pointer: str) -> None:
        """Refuse a when clause whose field (read whole) is a closed set of strings without its equals: the rule
        could never apply (and TypeScript's compiler refuses comparing the field with a value its type lacks)."""
        if when.pointer:
            return
        held = self.underlying(field.type)
        textual = isinstance(held, (ir.StringType, ir.DateTimeType, ir.BytesType, ir.AnyType)) or (
            isinstance(held, ir.Ref) and held.target == "enum" or isinstance(held, ir.UnionType) and "string" in held.json_kinds
        )
        if not textual:
            raise self.fail(
                pointer,
                f"the rule applies when {when.field!r} is the string {when.equals!r}, and the field holds no string: it could never apply",
                "name a string field, or a pointer into this one to a string",
            )
        t = ir.unwrap_nullable(field.type)
        allowed: tuple[str, ...] | None = None
        if isinstance(t, ir.Ref) and t.target == "enum":
            enum = self.defs[t.name]
            allowed = None if self.is_open(enum) else tuple(enum["enum"])
        elif isinstance(t, ir.StringType):
            allowed = ir.allowed_values(t)
        if allowed is not None and when.equals not in allowed:
            raise self.fail(
                pointer,
                f"the rule applies when {when.field!r} is {when.equals!r}, which is none of its values ({', '.join(map(repr, allowed))}): "
                "it could never apply",
                "name one of its values, or remove the rule",
            )

    def lower_rule_as_written(self, rule: dict[str, Any], fields: tuple[ir.Field, ...], pointer: str) -> ir.Rule:
        by_wire = {f.wire_name: f for f in fields}

        def known(name: str, where: str) -> str:
            if name not in by_wire:
                raise self.fail(
                    pointer + where,
                    f"the rule names field {name!r}, which the model does not have{did_you_mean(name, by_wire)}",
                    f"use one of: {', '.join(by_wire)}",
                )
            return name

        def rule_tokens(text: str, where: str) -> tuple[str, ...]:
            found = tokens(text)
            if len(found) > MAX_POINTER_TOKENS:
                raise self.fail(
                    pointer + where,
                    f"the pointer goes {len(found)} levels down, more than the {MAX_POINTER_TOKENS} a rule's pointer may",
                    "point at a value nearer the field (the exported schema spells each level as a schema inside the last)",
                )
            for token in found:
                if token.isascii() and token.isdigit() and len(token) > MAX_INDEX_DIGITS:
                    raise self.fail(
                        pointer + where,
                        f"the pointer's token {token[:20] + ('...' if len(token) > 20 else '')!r} is an array index of more "
                        f"than {MAX_INDEX_DIGITS} digits: the exported schema writes an index as that many prefixItems",
                        f"point at an index below {10 ** MAX_INDEX_DIGITS} (without leading zeros)",
                    )
            return found

        def undefaulted(name: str, where: str) -> None:
            # The rule judges the document as sent (an absent field is absent, as the exported schema says), and
            # validate() the value built from it (the default filled in): the value read would fail its own validate().
            if by_wire[name].has_default:
                raise self.fail(
                    pointer + where,
                    f"the {kind} rule reads field {name!r}, which has a default: the document is judged without it, "
                    "the value built from it with it, so the value read would fail its own validate()",
                    "drop the default, or judge another field",
                )

        kind = rule["kind"]
        after = known(rule["after"], "/after") if "after" in rule else None
        when = None
        if "when" in rule:
            w = rule["when"]
            when = ir.WhenClause(known(w["field"], "/when/field"), rule_tokens(w.get("pointer", ""), "/when/pointer"), w["equals"])
            self.check_when_can_hold(by_wire[when.field], when, pointer + "/when/equals")
            undefaulted(when.field, "/when/field")
        field = known(rule["field"], "/field") if "field" in rule else ""  # every kind but at_least_one_of names one
        if kind in ("allowed_when", "contains"):
            undefaulted(field, "/field")  # (member_of and compare judge an absent field by its default)
        match kind:
            case "at_least_one_of":
                names = tuple(known(f, f"/fields/{i}") for i, f in enumerate(rule["fields"]))
                return ir.Rule(kind, rule["message"], after, names)
            case "member_of":
                self.check_member_text(by_wire[field], pointer + "/field")
                if by_wire[field].default_factory is not None:
                    raise self.fail(
                        pointer + "/field",
                        f"field {field!r} defaults to a fresh {by_wire[field].default_factory}, which no list holds: the rule would "
                        "refuse every document that leaves it out, each time with another value",
                        "look up a field without x-default-factory",
                    )
                up_text, _, rest = rule["in"].partition("/")
                pool = tokens("/" + rest)[0]
                if up_text == "0" and pool in by_wire:
                    undefaulted(pool, "/in")  # (a pool further up is another model's field)
                if len(up_text) > MAX_INDEX_DIGITS:
                    raise self.fail(
                        pointer + "/in",
                        f"the pointer climbs {up_text[:20]!r} levels up, past any document chatspec reads",
                        "count the levels from this object to the one that holds the array",
                    )
                return ir.Rule(
                    kind, rule["message"], after, (field,), up=int(up_text), pointer=rule_tokens("/" + rest, "/in"), exportable=False
                )
            case "required_when":
                assert when is not None
                return ir.Rule(kind, rule["message"], after, (field, when.field), when=when)
            case "allowed_when" | "contains":
                if not self.holds_arrays(by_wire[field].type):
                    raise self.fail(
                        pointer + "/field",
                        f"{kind} looks into the items of an array of one item type, and field {field!r} never holds one "
                        "(a tuple's positions each have their own type)",
                        "name an array field (items), or a union field with an array variant",
                    )
                reads = (field,) if when is None else (field, when.field)
                return ir.Rule(
                    kind,
                    rule["message"],
                    after,
                    reads,
                    pointer=rule_tokens(rule["each"], "/each"),
                    when=when,
                    allowed=tuple(rule.get("allowed", ())),
                    equals=rule.get("equals"),
                )
            case "compare":
                other = known(rule["other"], "/other")
                if other == field:
                    raise self.fail(pointer + "/other", f"compare orders two fields, and both sides are {field!r}", "name another field")
                operands = (self.operand(by_wire[field], pointer + "/field"), self.operand(by_wire[other], pointer + "/other"))
                families = [_ORDERED_AS[o] for o in operands]
                if families[0] != families[1]:
                    raise self.fail(
                        pointer + "/other",
                        f"compare cannot order {families[0]} field {field!r} against {families[1]} field {other!r}",
                        "compare two numbers, two strings or two date-times",
                    )
                return ir.Rule(kind, rule["message"], after, (field, other), op=rule["op"], operands=operands, exportable=False)
            case _:
                raise self.fail(
                    pointer + "/kind", f"unknown rule kind {kind!r}", "see the rule kinds in generator/metaschema/chatspec.schema.json"
                )

    def check_member_text(self, f: ir.Field, pointer: str) -> None:
        """member_of judges the string at its field as the JSON holds it. A date-time or base64 field (or union
        variant) is a JSON string that the generated code holds as a parsed time or decoded bytes: Python and Go
        would judge no string there and TypeScript the text, so such a rule is refused rather than given two meanings."""

        def parsed(t: ir.TypeRef) -> ir.TypeRef | None:
            t = self.underlying(t)
            if isinstance(t, ir.UnionType):
                return next((p for v in t.variants if (p := parsed(v)) is not None), None)
            return t if isinstance(t, (ir.DateTimeType, ir.BytesType)) else None

        found = parsed(f.type)
        if found is not None:
            is_ = "can be" if isinstance(self.underlying(f.type), ir.UnionType) else "is"
            what = (
                "a date-time, which the generated code holds as a parsed time"
                if isinstance(found, ir.DateTimeType)
                else "base64, which the generated code holds as decoded bytes"
            )
            raise self.fail(
                pointer,
                f"member_of looks a string up in a list of strings, and field {f.wire_name!r} {is_} {what}, not as its text",
                "name a field of type string (or an enum of strings)",
            )

    def holds_arrays(self, t: ir.TypeRef) -> bool:
        """Whether a field of type t may hold an array (allowed_when and contains look into its items; on any
        other value they have nothing to judge, as JSON Schema's items and contains do): a list or a tuple, or a
        union by JSON type with an array variant."""
        t = self.underlying(t)
        if isinstance(t, ir.UnionType):
            return "array" in t.json_kinds
        return isinstance(t, (ir.ListType, ir.TupleType))

    def operand(self, f: ir.Field, pointer: str) -> str:
        """What a compare rule's side compares as: "integer", "number", "string" or "date-time"."""
        if f.default_factory is not None:
            raise self.fail(
                pointer,
                f"field {f.wire_name!r} defaults to a fresh {f.default_factory}, so comparing it would give another verdict on every read",
                "compare fields without x-default-factory",
            )
        t = self.underlying(f.type)
        match t:
            case ir.NumericType():
                return "integer" if t.integer else "number"
            case ir.StringType() | ir.Ref(target="enum"):
                return "string"
            case ir.DateTimeType():
                return "date-time"
        what = {"bytes": "base64 bytes", "any": "any JSON value", "ref": "an object", "list": "an array", "map": "an object"}.get(
            t.kind, f"a {t.kind}"
        )
        raise self.fail(
            pointer,
            f"compare orders numbers, strings and date-times, and field {f.wire_name!r} holds {what}",
            "compare two number, string or date-time fields",
        )

    # --- types ---------------------------------------------------------

    def ref_name(self, ref: str, pointer: str) -> str:
        try:
            self.resolver.lookup(ref)
        except Unresolvable:
            raise self.fail(
                pointer,
                f"$ref {ref!r} does not resolve{did_you_mean(ref, [f'#/$defs/{d}' for d in self.defs])}",
                f"define it under $defs, or use one of: {', '.join(self.defs)}",
            ) from None
        name = ref.removeprefix("#/$defs/")
        if name not in self.defs:
            raise self.fail(pointer, f"$ref {ref!r} must point at a $defs entry", "use #/$defs/<Name>")
        return name

    def check_keywords(self, schema: dict[str, Any], shape: str, pointer: str) -> None:
        extra = sorted(set(schema) - ANNOTATIONS - KEYWORDS_BY_TYPE[shape])
        if "multipleOf" in extra and shape == "number":
            raise self.fail(
                pointer + "/multipleOf",
                "multipleOf is accepted on integers only: the remainder of a float differs between Python, Go and JavaScript",
                'make the field "type": "integer" if its values are whole numbers, or remove multipleOf',
            )
        for key in extra:
            checks.check_vendor_key(key, pointer + pointer_of(key), self.fail)
        # Annotations kept as written are the place's to hold (check_placement): a property's, a $defs entry's.
        extra = [k for k in extra if not is_kept(k)]
        if extra:
            raise self.fail(
                pointer,
                f"keyword(s) {', '.join(extra)} do not apply to {'an' if shape[0] in 'aeiou' else 'a'} {shape} here",
                "remove them, or move the schema to $defs if it should be a named model",
            )

    def check_placement(
        self, schema: dict[str, Any], pointer: str, place: str, allowed: set[str], keeps: bool = False, definition: bool = False
    ) -> None:
        """Refuse an annotation where the IR would not read it (it would be dropped in silence). A schema applied as
        written keeps every annotation (the exported schema holds it as written); a property and a $defs entry (keeps)
        keep the annotations is_kept names, as written (ir.Field.annotations, and each definition's)."""
        if applied_as_written(schema, definition, self.defs):
            return
        for key in sorted(k for k in schema if is_kept(k) and k not in allowed):
            if not keeps:
                raise self.fail(
                    pointer + pointer_of(key),
                    f"{key} is kept on a property, a $defs entry or a schema applied as written; on {place} it would be lost",
                    f"move {key} to the property or the $defs entry, or remove it",
                )
        for key in sorted((set(schema) & ANNOTATIONS) - allowed - (KEPT if keeps else set())):
            where = ", ".join(sorted(p for p, keys in ANNOTATIONS_READ.items() if key in keys)) or "nowhere"
            raise self.fail(
                pointer + pointer_of(key),
                f"{key} is not read on {place}; chatspec reads it only on: {where}",
                f"move {key} to where it is read, or remove it",
            )

    def lower_nested(self, schema: dict[str, Any], pointer: str, named: bool = False) -> ir.TypeRef:
        """A schema inside another (array items, tuple items, union variants, map values, anyOf branches), with the
        annotations it keeps as written (JSON Schema allows them on any schema): description, default (an
        annotation here: only a property's is filled in), title, examples, ..., vendor x- keys."""
        read = ANNOTATIONS_READ["tuple items"] if named else ANNOTATIONS_READ["nested schemas"]
        if isinstance(schema, dict) and schema.get("type") in ("object", ["object", "null"], ["null", "object"]) and "properties" in schema:
            read = read | {"x-name"}  # (the name of the model hoisted from it)
        place = "a tuple item" if named else "a nested schema (items, union variant, map value, anyOf branch)"
        self.check_placement(schema, pointer, place, read | NESTED_KEPT, keeps=True)
        t = self.lower_type(schema, pointer)
        if isinstance(t, ir.AnyType) and t.checks is not None:
            return t  # (its checks keep the schema as written, annotations and all)
        kept = {k: v for k, v in schema.items() if (k in NESTED_KEPT or is_kept(k)) and k not in read}
        if pointer in self.hoisted:
            kept = {k: v for k, v in kept.items() if k not in ("description", "title")}  # (the model's own)
        if t.annotations:
            kept = {**json.loads(t.annotations), **kept}  # (a format on a number, kept by lower_type)
        return dataclasses.replace(t, annotations=json.dumps(kept, ensure_ascii=True, separators=(",", ":"))) if kept else t

    def lower_checks(self, schema: Any, pointer: str) -> ir.AnyType:
        """A schema applied as written: the JSON value type, checked as JSON Schema says (generator/checks.py)."""
        merges = lambda holder: merged_all_of(holder, self.defs) is not None  # noqa: E731
        compiled = checks.Compiler(self.spec.document, self.fail, merges, self.typed_at).compile(schema, pointer)
        over = schema.get("x-messages", {}) if isinstance(schema, dict) else {}
        return ir.AnyType({"type": messages.type_message("any", over)}, compiled)

    def typed_at(self, pointer: str) -> bool:
        """Whether the schema at a pointer into the spec ("/$defs/Num", "/$defs/Chat/properties/n") is one the targets
        hold in a type of their own: its definition and every schema on the way to it are not applied as written."""
        path = checks.schemas_on(self.spec.document, pointer)
        tokens_of = tokens(pointer)
        if path is None or len(path) < 2 or tokens_of[0] != "$defs":
            return False
        definition, *below = path[1:]
        return (
            tokens_of[1] not in self.cyclic
            and not applied_as_written(definition, definition=True, defs=self.defs)
            and not any(applied_as_written(s, defs=self.defs) for s in below)
            and not any(tokens(u) == tokens_of[: len(tokens(u))] for u in self.applied_unions)
        )

    def lower_type(self, schema: dict[str, Any], pointer: str) -> ir.TypeRef:
        if applied_as_written(schema, defs=self.defs):
            return self.lower_checks(schema, pointer)
        over: dict[str, str] = schema.get("x-messages", {})
        merged = merged_all_of(schema, self.defs)
        if merged is not None:
            return self.hoist(merged, pointer, written=schema)
        tag = inferred_tag(schema, self.defs)
        if tag is not None:
            self.check_keywords({k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}, "union", pointer)
            key = "anyOf" if "anyOf" in schema else "oneOf"
            return self.lower_union(schema, over, pointer, key, tag)
        if "$ref" in schema:
            self.check_keywords(schema, "ref", pointer)
            if set(over) - {"required"}:
                raise self.fail(
                    pointer + "/x-messages",
                    "next to $ref, x-messages may only set 'required'",
                    "put the other messages on the referenced definition",
                )
            name = self.ref_name(schema["$ref"], pointer + "/$ref")
            return ir.Ref(name, self.definition_kind(name))
        if "oneOf" in schema:
            self.check_keywords(schema, "union", pointer)
            if "x-discriminator" in schema:
                return self.lower_union(schema, over, pointer)
            hoisted = dict(self.hoisted)
            try:
                return self.lower_union(schema, over, pointer)
            except SpecError:
                # Variants no value's JSON type tells apart: JSON Schema tries each, and so do the checks (which hold
                # the variants as written: no model hoisted from them is left over).
                self.hoisted = hoisted
                self.fell_back.add(pointer)
                return self.lower_checks(schema, pointer)
        if "anyOf" in schema:
            self.check_keywords(schema, "nullable", pointer)
            branches = schema["anyOf"]
            real = [b for b in branches if b != {"type": "null"}]
            if len(branches) != 2 or len(real) != 1:
                raise self.fail(
                    pointer + "/anyOf",
                    'anyOf is supported only as [<schema>, {"type": "null"}]',
                    'use oneOf for a union, or type: [..., "null"]',
                )
            return ir.NullableType(self.lower_nested(real[0], pointer + "/anyOf/" + str(branches.index(real[0]))))
        declared = schema.get("type")
        if declared is None:
            self.check_keywords(schema, "any", pointer)
            return ir.AnyType({"type": messages.type_message("any", over)})
        types = [declared] if isinstance(declared, str) else list(declared)
        if "null" in types and len(types) > 1:
            inner = dict(schema, type=[t for t in types if t != "null"][0] if len(types) == 2 else [t for t in types if t != "null"])
            # An enum or const beside the type list applies to null too: one without null leaves null out.
            if ("enum" in schema and isinstance(schema["enum"], list) and None not in schema["enum"]) or schema.get(
                "const", None
            ) is not None:
                return self.lower_type(inner, pointer)
            return ir.NullableType(self.lower_type(inner, pointer))
        if len(types) > 1:
            # A union by JSON type, as a oneOf of each would be (applied_as_written admits only types no value shares).
            self.check_keywords({k: v for k, v in schema.items() if k != "type"}, "union", pointer)
            # Each variant takes the messages of its own checks (e.g. int64); the union's is "type" (or "oneOf").
            own = {k: v for k, v in over.items() if k not in ("type", "oneOf")}
            variants = tuple(self.lower_type({"type": kind, **({"x-messages": own} if own else {})}, pointer) for kind in types)
            described = " or ".join(checks.article(kind) for kind in types)
            msg = over.get("type") or over.get("oneOf") or messages.resolve("oneOf", {}, allowed=[described])
            return ir.UnionType(variants, {"oneOf": msg}, json_kinds=tuple(types), keyword="type")
        if types[0] == "null":
            raise self.fail(pointer + "/type", f"type {declared!r} is not supported", 'use one type, optionally with "null", or oneOf')
        kind = types[0]
        if kind == "object":
            if "properties" in schema:
                return self.hoist(schema, pointer)
            self.check_keywords(schema, "object", pointer)
            value_schema = schema.get("additionalProperties", {})
            if not isinstance(value_schema, dict):
                raise self.fail(
                    pointer,
                    "an object without properties must give additionalProperties a schema",
                    'e.g. "additionalProperties": {"type": "string"}',
                )
            return ir.MapType(
                self.lower_nested(value_schema, pointer + "/additionalProperties"), {"type": messages.type_message("object", over)}
            )
        if kind in ("integer", "number", "boolean") and "format" in schema:
            # JSON Schema checks a format on strings only: on another type it is an annotation (OpenAPI's int64, double).
            string_formats.check(schema["format"], pointer + "/format", self.fail)
            t = self.lower_type({k: v for k, v in schema.items() if k != "format"}, pointer)
            return dataclasses.replace(t, annotations=json.dumps({"format": schema["format"]}, separators=(",", ":")))
        self.check_keywords(schema, kind, pointer)
        if kind == "string":
            return self.lower_string(schema, over, pointer)
        if kind in ("integer", "number"):
            limits = {k: schema.get(k) for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")}
            if limits["multipleOf"] is not None:
                # The meta-schema holds it to a whole number from 1 to 2^53-1; 5.0 is read as 5.
                limits["multipleOf"] = int(limits["multipleOf"])
            msgs = {"type": messages.type_message(kind, over)}
            if kind == "integer":
                # Integers are 64-bit in every target (Go's int64); the exported schema says so too.
                msgs["int64"] = messages.resolve("int64", over)
            msgs.update({k: messages.resolve(k, over, limit=v) for k, v in limits.items() if v is not None})
            msgs.update(_value_messages(schema, over))
            return ir.NumericType(
                msgs,
                integer=kind == "integer",
                minimum=limits["minimum"],
                maximum=limits["maximum"],
                exclusive_minimum=limits["exclusiveMinimum"],
                exclusive_maximum=limits["exclusiveMaximum"],
                multiple_of=limits["multipleOf"],
                const=schema.get("const"),
                enum=tuple(schema["enum"]) if "enum" in schema else None,
            )
        if kind == "boolean":
            msgs = {"type": messages.type_message("boolean", over), **_value_messages(schema, over)}
            return ir.BooleanType(msgs, const=schema.get("const"), enum=tuple(schema["enum"]) if "enum" in schema else None)
        return self.lower_array(schema, over, pointer)

    def lower_string(self, schema: dict[str, Any], over: dict[str, str], pointer: str) -> ir.StringType | ir.DateTimeType | ir.BytesType:
        msgs = {"type": messages.type_message("string", over)}
        if "pattern" in schema:
            try:
                patterns.check(schema["pattern"])
                automaton.compile_pattern(schema["pattern"])  # refuses a pattern too complex to match in linear time
            except patterns.PatternError as exc:
                raise self.fail(pointer + "/pattern", exc.problem, exc.hint) from None
        for key in ("minLength", "maxLength", "pattern"):
            if key in schema:
                msgs[key] = messages.resolve(key, over, limit=schema[key])
        if "const" in schema:
            msgs["const"] = messages.resolve("const", over, limit=schema["const"])
        if "enum" in schema:
            for i, value in enumerate(schema["enum"]):
                self.check_name(value, "enum value", pointer + pointer_of("enum", i))
            msgs["enum"] = messages.resolve("enum", over, allowed=list(schema["enum"]))
        if "format" in schema:
            string_formats.check(schema["format"], pointer + "/format", self.fail)
            if string_formats.asserted(schema["format"]):
                msgs["format"] = string_formats.message(schema["format"], over)
        if "x-enum-descriptions" in schema:
            raise self.fail(
                pointer + "/x-enum-descriptions",
                "x-enum-descriptions is read only on a named enum (a $defs entry); on an inline enum it would be dropped",
                'move the enum to $defs (e.g. "$defs": {"Kind": {"type": "string", "enum": [...], "x-enum-descriptions": {...}}}) and $ref it',
            )
        if "x-open" in schema:
            raise self.fail(
                pointer + "/x-open",
                "x-open is read only on a named enum (a $defs entry with enum) and on a union told apart by a tag; "
                "here it would be dropped",
                "move the enum to $defs and $ref it (an open enum keeps a value it does not list), or remove x-open",
            )
        if "contentEncoding" in schema:
            msgs["contentEncoding"] = messages.resolve("contentEncoding", over)
            if set(schema) & {"minLength", "maxLength", "pattern", "enum", "const", "format"}:
                raise self.fail(
                    pointer,
                    "a base64 string cannot carry other string constraints",
                    "constrain the decoded bytes in a rule instead, or drop contentEncoding",
                )
        if schema.get("format") == "date-time":
            return ir.DateTimeType(msgs)
        if schema.get("contentEncoding") == "base64":
            return ir.BytesType(msgs)
        return ir.StringType(
            msgs,
            min_length=schema.get("minLength"),
            max_length=schema.get("maxLength"),
            pattern=schema.get("pattern"),
            const=schema.get("const"),
            enum=tuple(schema["enum"]) if "enum" in schema else None,
            known_values=tuple(schema.get("x-known-values", ())),
            format=schema.get("format"),
        )

    def lower_array(self, schema: dict[str, Any], over: dict[str, str], pointer: str) -> ir.TypeRef:
        msgs = {"type": messages.type_message("array", over)}
        if "prefixItems" in schema:
            prefix = schema["prefixItems"]
            n = len(prefix)
            # Without minItems a shorter array is valid JSON Schema, which a fixed-length tuple cannot hold:
            # the length is stated, never assumed (maxItems may be left out: items false implies it).
            if schema.get("items") is not False or schema.get("maxItems", n) != n:
                raise self.fail(
                    pointer,
                    'a tuple (prefixItems) must have "items": false and minItems = maxItems = its length',
                    f'set "items": false, "minItems": {n}, "maxItems": {n}',
                )
            if schema.get("minItems") != n:
                raise self.fail(
                    pointer,
                    f'a tuple (prefixItems) without "minItems": {n} accepts shorter arrays in JSON Schema, '
                    "which a fixed-length tuple cannot hold",
                    f'set "minItems": {n}',
                )
            if "uniqueItems" in schema:
                raise self.fail(
                    pointer + "/uniqueItems",
                    "uniqueItems on a tuple (prefixItems) is not supported: the check would be skipped",
                    "remove uniqueItems",
                )
            msgs["prefixItems"] = messages.resolve("prefixItems", over, limit=n)
            items = tuple(self.lower_nested(s, f"{pointer}/prefixItems/{i}", named=True) for i, s in enumerate(prefix))
            names = tuple(s.get("x-name", "") for s in prefix)
            return ir.TupleType(items, msgs, names=names if any(names) else ())
        if not isinstance(schema.get("items"), dict):
            raise self.fail(pointer, 'an array needs an "items" schema', 'add "items": {...}')
        for key in ("minItems", "maxItems"):
            if key in schema:
                msgs[key] = messages.resolve(key, over, limit=schema[key])
        if schema.get("uniqueItems"):
            msgs["uniqueItems"] = messages.resolve("uniqueItems", over)
        return ir.ListType(
            self.lower_nested(schema["items"], pointer + "/items"),
            msgs,
            min_items=schema.get("minItems"),
            max_items=schema.get("maxItems"),
            unique_items=bool(schema.get("uniqueItems")),
        )

    def lower_union(
        self, schema: dict[str, Any], over: dict[str, str], pointer: str, key: str = "oneOf", inferred: str | None = None
    ) -> ir.UnionType:
        """A oneOf told apart by JSON type or by x-discriminator; or an anyOf or oneOf of models whose tag lower
        inferred (inferred_tag)."""
        variants = tuple(self.lower_nested(s, f"{pointer}/{key}/{i}") for i, s in enumerate(schema[key]))
        tag = inferred if inferred is not None else schema.get("x-discriminator")
        if tag is not None:
            tags = []
            for i, v in enumerate(variants):
                raw = self.defs.get(v.name) if isinstance(v, ir.Ref) and v.target == "model" else None
                model = merged_all_of(raw, self.defs) or raw  # (a model that merges others has their tags too)
                const = (model or {}).get("properties", {}).get(tag, {}).get("const")
                if model is None or const is None or tag not in model.get("required", []):
                    raise self.fail(
                        f"{pointer}/oneOf/{i}",
                        f"with x-discriminator {tag!r}, every variant must $ref a model whose required {tag!r} has a const",
                        f'add "{tag}": {{"type": "string", "const": ...}} to the variant and require it',
                    )
                if not isinstance(const, str):
                    # (A union of models told apart by a const of another type is inferred as JSON Schema says, by
                    # trying each: inferred_tag takes string consts only.)
                    raise self.fail(
                        f"{pointer}/oneOf/{i}",
                        f"with x-discriminator {tag!r}, every variant's {tag!r} const must be a string, not {json.dumps(const)}",
                        "make the consts strings, or drop x-discriminator: the union then tries each variant, as JSON Schema does",
                    )
                tags.append(const)
            if len(set(tags)) != len(tags):
                raise self.fail(pointer + "/oneOf", f"two variants share a {tag!r} value", "give each variant its own const")
            is_open = self.is_open(schema)
            # (An open union refuses only a tag that is not a string: "must be one of" would name too few.)
            value_message = OPEN_TAG_MESSAGE if is_open else messages.DEFAULTS["discriminatorValue"]
            msgs = {
                "type": messages.type_message("object", over),
                "discriminator": messages.resolve("discriminator", over),
                "discriminatorValue": messages.resolve_with("discriminatorValue", over, value_message, allowed=tags),
            }
            return ir.UnionType(
                variants, msgs, discriminator=tag, tags=tuple(tags), keyword=key, inferred=inferred is not None, open=is_open
            )
        if "x-open" in schema:
            raise self.fail(
                pointer + "/x-open",
                "x-open applies to a union told apart by a tag (x-discriminator), whose unknown tags it keeps; "
                "this union tells its variants apart by JSON type",
                "remove x-open, or tell the variants apart with x-discriminator",
            )
        kinds = tuple(self.json_kind(v, f"{pointer}/oneOf/{i}") for i, v in enumerate(variants))
        if len(set(kinds)) != len(kinds):
            raise self.fail(
                pointer + "/oneOf",
                f"oneOf variants must differ in JSON type (got {', '.join(kinds)})",
                "add x-discriminator naming a const property, or merge the variants",
            )
        if {"integer", "number"} <= set(kinds):
            # JSON Schema's oneOf fails a value two variants accept: every integer is also a number.
            raise self.fail(
                pointer + "/oneOf",
                "oneOf variants 'integer' and 'number' overlap: an integer matches both, " "so oneOf would reject every integer",
                "keep the number variant alone (it accepts integers too)",
            )
        described = " or ".join(("an " if k[0] in "aeiou" else "a ") + k for k in kinds)
        return ir.UnionType(variants, {"oneOf": messages.resolve("oneOf", over, allowed=[described])}, json_kinds=kinds)

    def json_kind(self, t: ir.TypeRef, pointer: str) -> str:
        """The one JSON type every value of a union variant has, which picks the variant; a variant that
        takes values of several JSON types (null, any value, a union by JSON type) is refused, since
        telling it apart by type would give another verdict than JSON Schema's oneOf."""
        if isinstance(t, (ir.StringType, ir.DateTimeType, ir.BytesType)):
            return "string"
        if isinstance(t, ir.NumericType):
            return "integer" if t.integer else "number"
        if isinstance(t, ir.BooleanType):
            return "boolean"
        if isinstance(t, (ir.ListType, ir.TupleType)):
            return "array"
        if isinstance(t, ir.MapType):
            return "object"
        if isinstance(t, ir.UnionType) and t.discriminator is not None:
            return "object"  # a union of models told apart by a property: every variant is an object
        if isinstance(t, ir.Ref):
            if t.target == "model":
                return "object"
            if t.target == "enum":
                return "string"
            if t.name in self.kind_trail:
                chain = " -> ".join([*self.kind_trail[self.kind_trail.index(t.name) :], t.name])
                raise self.fail(
                    pointer_of("$defs", t.name),
                    f"the union alias {t.name!r} contains itself ({chain}), so it has no JSON type",
                    "put a model (an object type with properties) between the alias and itself",
                )
            self.kind_trail.append(t.name)
            try:
                return self.json_kind(self.lower_type(self.defs[t.name], pointer_of("$defs", t.name)), pointer)
            finally:
                self.kind_trail.pop()
        what = {"nullable": "null or a value", "any": "any JSON value", "union": "values of several JSON types"}.get(t.kind, t.kind)
        raise self.fail(
            pointer,
            f"a oneOf variant without x-discriminator must take values of one JSON type; this one takes {what}, "
            "so choosing the variant by the value's type could disagree with oneOf",
            "list such a variant's types as variants of this oneOf, or tell the variants apart with x-discriminator",
        )


# The keywords no typed schema takes: a schema with one of them is applied as written.
APPLIED_ONLY = frozenset(
    {
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "minContains",
        "maxContains",
        "patternProperties",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "dependentSchemas",
    }
)
# A list of these types (and null), with nothing else beside it, is a union by JSON type (lower_type): no value is of
# two of them (but an integer, which is a number too: such a list is applied as written).
_SCALAR_KINDS = frozenset({"string", "integer", "number", "boolean"})
# What a schema without "type" may say and still be typed: a reference, a union, a nullable, or nothing (any value).
_UNTYPED_OK = frozenset({"$ref", "oneOf", "anyOf", "x-discriminator"})


def typed_value(kind: str, value: Any) -> bool:
    """Whether a const or enum value is one the type of its kind holds and every target compares exactly: a string,
    a boolean, an integer (of an integer or a number) or a number (of a number) below 2^53 in size (beyond, a
    float64 holds no longer every integer, and the value is applied as written, which compares integers exactly)."""
    if kind == "string" or kind == "boolean":
        return isinstance(value, str if kind == "string" else bool)
    if kind not in ("integer", "number") or isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (isinstance(value, int) or kind == "number") and abs(value) < 2**53


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")


def typed_bound(kind: str, key: str, value: Any) -> bool:
    """Whether a number's bound is one every target compares exactly with the values its type holds: below 2^53 in size
    (a float64 value then stands on the same side of it as the exact number), or on an integer a maximum or minimum the
    64 bits every integer is held to already imply. Any other (9007199254740993, 1e30) Go and TypeScript would round,
    with the values near it, so the schema is applied as written, which compares integers and floats exactly."""
    if kind not in ("integer", "number") or isinstance(value, bool) or not isinstance(value, (int, float)) or abs(value) < 2**53:
        return True
    return kind == "integer" and (key == "maximum" and value >= 2**63 - 1 or key == "minimum" and value <= -(2**63))


def _value_messages(schema: dict[str, Any], over: dict[str, str]) -> dict[str, str]:
    """The messages of a typed number's or boolean's const and enum: the words a schema applied as written has for
    them (generator/checks.py), so typing a value changes no message."""
    msgs = {}
    if "const" in schema:
        msgs["const"] = messages.resolve_with("const", over, "must be {limit}", limit=checks.shown(schema["const"]))
    if "enum" in schema:
        msgs["enum"] = messages.resolve("enum", over, allowed=[checks.shown(v) for v in schema["enum"]])
    return msgs


def applied_as_written(schema: Any, definition: bool = False, defs: Mapping[str, Any] | None = None) -> bool:
    """Whether no type of the targets holds the schema, so that it is applied as written (generator/checks.py):
    a boolean schema, a keyword only JSON Schema's own meaning gives (allOf, not, contains, ...), constraints
    without a "type" (JSON Schema applies each to the values of its type), a list of types that is not one
    type and null, a const or enum of values its type does not hold (typed_value), $ref beside other keywords or into a
    subschema, anyOf other than a nullable, an array without items or a prefix that is not a tuple, an
    object with properties that is not a model ($defs entry of "type": "object"), a multipleOf that is not a whole
    number on an integer."""
    if not isinstance(schema, dict):
        return True
    if defs is not None and inferred_tag(schema, defs) is not None:
        return False  # a union of models told apart by a const property (lower_union)
    if defs is not None and merged_all_of(schema, defs) is not None:
        return False  # a model that has the fields of the models it merges (lower_type)
    keys = {k for k in schema if not k.startswith("x-")} - ANNOTATIONS - checks.ANNOTATIONS
    if keys & APPLIED_ONLY or "$defs" in schema:
        return True
    if "$ref" in schema:
        ref = schema["$ref"]
        return bool(keys - {"$ref"}) or not (isinstance(ref, str) and ref.startswith("#/$defs/") and "/" not in ref[len("#/$defs/") :])
    declared = schema.get("type")
    if declared is None:
        return bool(keys - _UNTYPED_OK) or ("anyOf" in schema and not _nullable_shape(schema["anyOf"]))
    if "anyOf" in schema or "oneOf" in schema:
        return True  # beside a type: both apply, as JSON Schema says
    types = [declared] if isinstance(declared, str) else list(declared)
    real = [t for t in types if t != "null"]
    if len(real) != 1:
        return not (
            _SCALAR_KINDS >= set(real) and len(set(real)) == len(real) > 1 and not {"integer", "number"} <= set(real) and keys == {"type"}
        )
    kind = real[0]
    for key in ("const", "enum"):
        if key in schema:
            values = [schema[key]] if key == "const" else schema[key]
            if not all(typed_value(kind, v) for v in values):
                return True
    if not all(typed_bound(kind, key, schema[key]) for key in _BOUNDS if key in schema):
        return True
    if kind == "array":
        prefix = schema.get("prefixItems")
        if prefix is not None and not all(isinstance(item, dict) for item in prefix):
            return True  # a boolean schema at a position
        if prefix is not None:
            n = len(prefix)
            return not (
                schema.get("items") is False
                and schema.get("minItems") == n
                and schema.get("maxItems", n) == n
                and "uniqueItems" not in schema
            )
        return not isinstance(schema.get("items"), dict)
    if kind == "object":
        extra = schema.get("additionalProperties", {})
        if (
            kind == "object"
            and isinstance(schema.get("properties"), dict)
            and (definition and declared == "object" or _inline_model(schema, keys))
        ):
            return isinstance(extra, dict) and bool(extra)  # a model (lower_model), but for a schema for the other fields
        return "properties" in schema or "required" in schema or not isinstance(extra, dict)
    if kind == "string" and schema.get("format") == "date-time" and keys & {"minLength", "maxLength", "pattern", "enum", "const"}:
        return True  # a date-time is a time value in code, which holds none of these checks on its text
    if "multipleOf" in schema:
        m = schema["multipleOf"]
        return kind != "integer" or not (isinstance(m, (int, float)) and float(m).is_integer() and 1 <= m <= 2**53 - 1)
    return False


def _inline_model(schema: dict[str, Any], keys: set[str]) -> bool:
    """Whether an object schema inside another is a model of its own (lower hoists it under a name of its own): it
    says "type": "object" and properties, and nothing a model does not take."""
    return keys <= KEYWORDS_BY_TYPE["model"] and not isinstance(schema.get("additionalProperties"), dict)


def _spellings(fields: tuple[ir.Field, ...]) -> list[list[str]]:
    """How the targets spell each field, as their naming policies do: its Python attribute and its Go field (by case,
    the stricter reading; TypeScript keeps the wire name, which is unique)."""
    return [[naming.python_attr(f.name) for f in fields], [naming.go_name(f.name).lower() for f in fields]]


def merged_all_of(schema: Any, defs: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """An allOf of models (a $ref to one, or an object schema of properties and required) as one model with all their
    fields (and the schema's own), where that means what JSON Schema's allOf means: every part open to other
    properties (a closed one would refuse the others' fields), no property in two parts (both schemas would apply),
    no part with x-rules, and the value an object. None for any other schema (then it is applied as written)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("allOf"), list) or not schema["allOf"]:
        return None
    own = {k: v for k, v in schema.items() if k != "allOf"}
    if {k for k in own if not k.startswith("x-")} - ANNOTATIONS - checks.ANNOTATIONS - {"type", "properties", "required"}:
        return None
    if set(own) & {"x-rules", "x-discriminator", "x-known-values", "x-enum-descriptions"} or own.get("type", "object") != "object":
        return None
    parts = []
    for part in schema["allOf"]:
        ref = part.get("$ref") if isinstance(part, dict) else None
        if isinstance(ref, str) and set(part) == {"$ref"} and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/") :]
            if name in seen:
                return None  # (a model that merges itself: applied as written, which refuses the cycle)
            target = defs.get(name)
            target = merged_all_of(target, defs, seen | {name}) or target  # (a model that merges others itself)
            if not isinstance(target, dict) or target.get("type") != "object" or applied_as_written(target, definition=True):
                return None
            if "additionalProperties" in target and target["additionalProperties"] is not True or "x-rules" in target:
                return None
            parts.append({"type": "object", "properties": target.get("properties", {}), "required": target.get("required", [])})
        elif isinstance(part, dict) and set(part) <= {"type", "properties", "required"} and part.get("type", "object") == "object":
            parts.append(part)
        else:
            return None
    parts.append(own)  # (the schema's own fields after those it merges)
    if not any(p.get("type") == "object" for p in parts):
        return None  # (no part refuses a value that is no object)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for part in parts:
        props, needed = part.get("properties", {}), part.get("required", [])
        if not isinstance(props, dict) or not isinstance(needed, list) or set(props) & set(properties):
            return None
        properties.update(props)
        required += [r for r in needed if isinstance(r, str) and r not in required]
    if set(required) - set(properties):
        return None
    merged = {k: v for k, v in own.items() if k not in ("properties", "required")}
    return {**merged, "type": "object", "properties": properties, **({"required": required} if required else {})}


def inferred_tag(schema: Any, defs: Mapping[str, Any]) -> str | None:
    """The property that tells apart the branches of an anyOf or oneOf of models where the spec names none
    (x-discriminator): one every branch's model requires, each with its own string const. Such a union means what
    a discriminated union means: no value can match two branches, and a value matches the branch its tag names or
    none. The first such property of the first branch's model; None where there is none, or where the schema says
    more than the union (then it is applied as written)."""
    if not isinstance(schema, dict) or "x-discriminator" in schema:
        return None
    found = [k for k in ("anyOf", "oneOf") if k in schema]
    if len(found) != 1 or {k for k in schema if not k.startswith("x-")} - ANNOTATIONS - checks.ANNOTATIONS - set(found):
        return None
    branches = schema[found[0]]
    if not isinstance(branches, list) or len(branches) < 2:
        return None
    models = []
    for branch in branches:
        ref = branch.get("$ref") if isinstance(branch, dict) else None
        if not isinstance(ref, str) or set(branch) - {"$ref", "description", "title"} or not ref.startswith("#/$defs/"):
            return None
        model = defs.get(ref[len("#/$defs/") :])
        model = merged_all_of(model, defs) or model  # (a model that merges others has their fields)
        if not isinstance(model, dict) or model.get("type") != "object" or not isinstance(model.get("properties"), dict):
            return None
        if applied_as_written(model, definition=True):
            return None
        models.append(model)
    for key in models[0]["properties"]:
        tags = []
        for model in models:
            prop = model["properties"].get(key)
            if key not in model.get("required", []) or not isinstance(prop, dict) or not isinstance(prop.get("const"), str):
                break
            if prop.get("type", "string") != "string":
                break
            tags.append(prop["const"])
        else:
            if len(set(tags)) == len(tags):
                return str(key)
    return None


def _nullable_shape(branches: Any) -> bool:
    return isinstance(branches, list) and len(branches) == 2 and sum(1 for b in branches if b == {"type": "null"}) == 1


# Annotations a property or a $defs entry keeps as written, for the export and the docs (and any vendor x- key).
KEPT = frozenset({"title", "examples", "deprecated", "readOnly", "writeOnly", "$comment"})
# What a nested schema keeps besides: a property reads these two itself.
NESTED_KEPT = frozenset({"description", "default"})
# What a $defs entry keeps besides: its default is an annotation (JSON Schema fills in nothing; a property that
# $refs it gets no default from it), as OpenAI's enums carry one.
DEFINITION_KEPT = frozenset({"default"})


def is_kept(key: str) -> bool:
    return key in KEPT or (key.startswith("x-") and key not in checks.OWN_X_KEYWORDS)


def kept_annotations(schema: Any, read: set[str], definition: bool = False, defs: Mapping[str, Any] | None = None) -> str:
    """The annotations a property or a $defs entry keeps as written (those lower reads itself, e.g. a $defs entry's
    title, left out): JSON text, or "" for none."""
    if not isinstance(schema, dict) or applied_as_written(schema, definition, defs):
        return ""  # (a schema applied as written keeps them in its own text)
    kept = {k: v for k, v in schema.items() if (is_kept(k) or (definition and k in DEFINITION_KEPT)) and k not in read}
    return json.dumps(kept, ensure_ascii=True, separators=(",", ":")) if kept else ""


MAX_INDEX_DIGITS = 4  # a rule pointer's array index; the export spells index n as n prefixItems
MAX_POINTER_TOKENS = 64  # a rule pointer's levels; the export spells each as a schema inside the last (its walk recurses)


def tokens(pointer: str) -> tuple[str, ...]:
    """JSON pointer text -> unescaped tokens, e.g. "/0/a~1b" -> ("0", "a/b")."""
    return tuple(checks.json_pointer_tokens(pointer))


def lower(spec: LoadedSpec) -> ir.Format:
    """The spec's IR; a type nesting deeper than the targets can write is refused (generator/nesting.py)."""
    try:
        lowering = Lowering(spec)
        fmt = lowering.lower_format()
        # Lowered again while a pass finds applied as written what it was not told of: the aliases on a cycle (JSON
        # Schema's meaning, recursion and all, where no type of the targets holds it), and the oneOfs lower_union
        # refused, whose variants typed_at would take for typed (the checks' int64 bound, which the export does not
        # state). Each pass is told all the earlier ones found, so the sets only grow, and the loop ends.
        while (cyclic := frozenset(alias_cycles(fmt))) - lowering.cyclic or lowering.fell_back - lowering.applied_unions:
            lowering = Lowering(spec, lowering.cyclic | cyclic, lowering.applied_unions | lowering.fell_back)
            fmt = lowering.lower_format()
    except RecursionError:
        raise SpecError(
            spec.path, "", "the spec nests schemas too deeply to compile", "move nested schemas to $defs and $ref them"
        ) from None
    check_nesting(fmt)
    fmt = typed_defaults(fmt)
    check_default_cycles(fmt)
    check_required_cycles(fmt)
    check_unique_items(fmt)
    check_open_enum_defaults(fmt)
    check_rule_pointers(fmt)
    return fmt

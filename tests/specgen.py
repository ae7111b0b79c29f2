"""Random specs in the language chatspec accepts, for the differential tests.

`spec(seed)` builds one spec document from a seeded random.Random: models with fields of every
kind the spec language has (strings with length, pattern, enum, const, date-time and base64;
integers and numbers with every bound; booleans; lists with item counts and uniqueItems; tuples;
maps; nullable types; free-form values; unions by JSON type and tagged unions; $refs to models,
enums and aliases, recursion included), required and optional fields, open and closed objects and
defaults. The same seed gives the same spec, so a disagreement is reproduced by its seed alone.

Not every spec is one chatspec accepts (names may collide, a default may break a check it drew):
the tests keep the ones that load and require the others to be refused with a SpecError.
"""

from __future__ import annotations

import random
from typing import Any

SCHEMA = "https://json-schema.org/draft/2020-12/schema"
PATTERNS = ["^[a-z]+$", "\\S", "^[A-Z][a-z0-9_-]{0,8}$", "^(ab|cd)*$", "x", "^\\d{2,4}$", "^[^@]+@[^@]+$", "^$"]
WORDS = ["alpha", "beta", "gamma", "delta", "text", "image", "url", "id", "role", "kind", "data", "name", "type",
         "content", "items", "class", "value", "from", "default", "list", "map", "a-b", "x y", "Zeta"]
TAG_VALUES = ["text", "image", "audio", "tool_call", "a", "b"]


class Builder:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.defs: dict[str, Any] = {}
        self.counter = 0

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # --- leaf types ---------------------------------------------------------

    def string(self) -> dict[str, Any]:
        r = self.rng
        s: dict[str, Any] = {"type": "string"}
        pick = r.randrange(8)
        if pick == 0:
            s["enum"] = r.sample(WORDS, r.randint(1, 4))
        elif pick == 1:
            s["const"] = r.choice(WORDS)
        elif pick == 2:
            s["format"] = "date-time"
        elif pick == 3:
            s["contentEncoding"] = "base64"
        else:
            if self.chance(0.4):
                s["minLength"] = r.randint(0, 3)
            if self.chance(0.4):
                s["maxLength"] = s.get("minLength", 0) + r.randint(0, 6)
            if self.chance(0.35):
                s["pattern"] = r.choice(PATTERNS)
        return s

    def number(self) -> dict[str, Any]:
        r = self.rng
        integer = self.chance(0.5)
        s: dict[str, Any] = {"type": "integer" if integer else "number"}
        low = r.choice([-5, 0, 1, 10]) if integer else r.choice([-2.5, 0, 0.5, 10])
        if self.chance(0.4):
            s["minimum" if self.chance(0.5) else "exclusiveMinimum"] = low
        if self.chance(0.4):
            s["maximum" if self.chance(0.5) else "exclusiveMaximum"] = low + r.choice([1, 5, 100])
        if integer and self.chance(0.25):
            s["multipleOf"] = r.choice([1, 2, 3, 7])
        return s

    def leaf(self) -> dict[str, Any]:
        pick = self.rng.randrange(4)
        return self.string() if pick < 2 else self.number() if pick == 2 else {"type": "boolean"}

    # --- composite types ----------------------------------------------------

    def of_kind(self, kind: str, depth: int) -> dict[str, Any]:
        """A schema whose values are all of one JSON kind (a union variant)."""
        match kind:
            case "string":
                return self.string()
            case "integer":
                return {**self.number(), "type": "integer"}
            case "number":
                return {"type": "number"}
            case "boolean":
                return {"type": "boolean"}
            case "array":
                return self.array(depth)
            case _:
                return self.ref_model(depth) if self.chance(0.6) else {"type": "object", "additionalProperties": self.type(depth + 1)}

    def array(self, depth: int) -> dict[str, Any]:
        r = self.rng
        if self.chance(0.3):
            items = [self.type(depth + 1) for _ in range(r.randint(1, 3))]
            return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items), "maxItems": len(items)}
        s: dict[str, Any] = {"type": "array", "items": self.type(depth + 1)}
        if self.chance(0.3):
            s["minItems"] = r.randint(0, 2)
        if self.chance(0.3):
            s["maxItems"] = s.get("minItems", 0) + r.randint(0, 3)
        if self.chance(0.25):
            s["uniqueItems"] = True
        return s

    def union(self, depth: int) -> dict[str, Any]:
        if self.chance(0.5):
            return self.tagged_union()
        kinds = self.rng.sample(["string", "integer", "boolean", "array", "object"], self.rng.randint(2, 3))
        if "integer" in kinds and self.chance(0.5):
            kinds[kinds.index("integer")] = "number"
        return {"oneOf": [self.of_kind(k, depth + 1) for k in kinds]}

    def tagged_union(self) -> dict[str, Any]:
        tag = self.rng.choice(["type", "kind"])
        variants = []
        for value in self.rng.sample(TAG_VALUES, self.rng.randint(2, 3)):
            name = self.name("Variant")
            model = self.model_schema(depth=2, extra={tag: {"type": "string", "const": value}})
            model["required"] = sorted({*model.get("required", []), tag})
            self.defs[name] = model
            variants.append({"$ref": f"#/$defs/{name}"})
        name = self.name("Tagged")
        self.defs[name] = {"oneOf": variants, "x-discriminator": tag}
        return {"$ref": f"#/$defs/{name}"}

    def ref_model(self, depth: int) -> dict[str, Any]:
        models = [n for n, d in self.defs.items() if "properties" in d]
        if models and self.chance(0.5):
            return {"$ref": f"#/$defs/{self.rng.choice(models)}"}  # may close a cycle: recursion
        name = self.name("Model")
        self.defs[name] = {}  # reserved first, so a nested draw may refer back to it
        self.defs[name] = self.model_schema(depth + 1)
        return {"$ref": f"#/$defs/{name}"}

    def type(self, depth: int) -> dict[str, Any]:
        r = self.rng
        if depth >= 4:
            return self.leaf()
        pick = r.randrange(20)
        if pick < 5:
            return self.leaf()
        if pick < 10:
            return self.array(depth)  # containers of containers, tuples of lists: where fast paths reuse locals
        if pick == 10:
            return {"type": "object", "additionalProperties": self.type(depth + 1)}
        if pick == 11:
            return {}
        if pick == 12:
            inner = self.leaf()
            return {**inner, "type": [inner["type"], "null"]} if "enum" not in inner and "const" not in inner else inner
        if pick == 13:
            return {"anyOf": [self.type(depth + 1), {"type": "null"}]}
        if pick < 16:
            return self.union(depth)
        if pick == 16:
            name = self.name("Kind")
            self.defs[name] = {"type": "string", "enum": r.sample(WORDS, r.randint(1, 4))}
            return {"$ref": f"#/$defs/{name}"}
        if pick == 17:
            name = self.name("Alias")
            self.defs[name] = {}
            self.defs[name] = self.type(depth + 1)
            return {"$ref": f"#/$defs/{name}"}
        return self.ref_model(depth)

    def default_for(self, schema: dict[str, Any]) -> tuple[bool, Any]:
        """A default that satisfies the schema, for the simple schemas that have an obvious one."""
        t = schema.get("type")
        if "const" in schema:
            return True, schema["const"]
        if "enum" in schema:
            return True, schema["enum"][0]
        if t == "boolean":
            return True, self.chance(0.5)
        if t == "string" and not set(schema) & {"pattern", "minLength", "format", "contentEncoding"}:
            return True, ""
        if t == "array" and "items" in schema and not schema.get("minItems"):
            return True, []
        if t == "object" and "additionalProperties" in schema and "properties" not in schema:
            return True, {}
        return False, None

    def model_schema(self, depth: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        r = self.rng
        keys = r.sample(WORDS, r.randint(1, 5))
        properties: dict[str, Any] = dict(extra or {})
        for key in keys:
            if key not in properties:
                properties[key] = self.type(depth + 1)
        required = [k for k in properties if self.chance(0.45)]
        for key, schema in properties.items():
            if key not in required and key not in (extra or {}) and "$ref" not in schema and self.chance(0.3):
                ok, value = self.default_for(schema)
                if ok:
                    schema["default"] = value
        model: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            model["required"] = required
        if self.chance(0.4):
            model["additionalProperties"] = self.chance(0.7) is False
        return model


def spec(seed: int) -> dict[str, Any]:
    """One random spec document (see the module docstring)."""
    b = Builder(seed)
    b.defs["Root"] = {}
    b.defs["Root"] = b.model_schema(0)
    return {"$schema": SCHEMA, "title": f"Random {seed}", "description": f"A random spec (tests/specgen.py, seed {seed}).",
            "x-version": "1.0.0", "$ref": "#/$defs/Root", "$defs": b.defs}

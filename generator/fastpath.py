"""What every code target's fast path needs to know of a format's models, target-neutral.

A fast path (straight-line checks that build a surely valid value, else step aside for the
exact walk) needs to know how many levels above its object a model reads (member_of's "up"),
which models can hold themselves, and how deep a type's own checks read. The Python and
TypeScript targets both read it from here.
"""

from __future__ import annotations

from generator import ir

# The JSON kinds a parsed value can have: a union case of another kind ("any") is never chosen.
JSON_KINDS = ("null", "boolean", "integer", "number", "string", "array", "object")


class ModelGraph:
    """Which models hold which, for one format."""

    def __init__(self, fmt: ir.Format) -> None:
        self.fmt = fmt
        self.defs = {d.name: d for d in fmt.definitions}
        self.anc = self.ancestors_needed()
        self.recursive = self.recursive_models()

    def unalias(self, t: ir.TypeRef) -> ir.TypeRef:
        """The type an alias names (through aliases of aliases); any other type as it is."""
        while isinstance(t, ir.Ref) and t.target == "alias":
            alias = self.defs[t.name]
            assert isinstance(alias, ir.Alias)
            t = alias.type
        return t

    def ancestors_needed(self) -> dict[str, int]:
        """How many levels above its object each model's fast function reads (member_of's "up"),
        directly or through the models it holds; a fixpoint, since models may hold each other."""
        need = {m.name: max((r.up for r in m.rules if r.kind == "member_of"), default=0) for m in self.fmt.models}
        changed = True
        while changed:
            changed = False
            for m in self.fmt.models:
                for f in m.fields:
                    for name, level in self.model_refs(f.type, 1):
                        if need[name] - level > need[m.name]:
                            need[m.name] = need[name] - level
                            changed = True
        return need

    def holds(self) -> dict[str, set[str]]:
        """Each model -> the models its fields hold directly."""
        return {m.name: {name for f in m.fields for name, _ in self.model_refs(f.type, 1)} for m in self.fmt.models}

    def held_from(self, root: str) -> set[str]:
        """The models a document of `root` can hold, root included: a fast path that starts at the
        root reaches the fast functions of these alone (e.g. chat_modality's ChatState is not one)."""
        holds = self.holds()
        found, todo = set(), [root]
        while todo:
            name = todo.pop()
            if name not in found:
                found.add(name)
                todo.extend(holds.get(name, ()))
        return found

    def recursive_models(self) -> set[str]:
        """The models that can hold themselves: the exact walk does not try their fast functions
        (on a deep document each level would try the whole subtree below it again)."""
        holds = self.holds()
        found = set()
        for start in holds:
            seen, todo = set(), list(holds[start])
            while todo:
                name = todo.pop()
                if name == start:
                    found.add(start)
                    break
                if name not in seen:
                    seen.add(name)
                    todo.extend(holds[name])
        return found

    def model_refs(self, t: ir.TypeRef, level: int) -> list[tuple[str, int]]:
        """The models a type holds (through aliases), with the level below the field's object."""
        match t:
            case ir.Ref(target="model"):
                return [(t.name, level)]
            case ir.Ref(target="alias"):
                alias = self.defs[t.name]
                assert isinstance(alias, ir.Alias)
                return self.model_refs(alias.type, level)
            case ir.ListType() | ir.MapType():
                inner = t.item if isinstance(t, ir.ListType) else t.value
                return self.model_refs(inner, level + 1)
            case ir.TupleType():
                return [r for i in t.items for r in self.model_refs(i, level + 1)]
            case ir.NullableType():
                return self.model_refs(t.inner, level)
            case ir.UnionType():
                return [r for v in t.variants for r in self.model_refs(v, level)]
            case _:
                return []

    def levels(self, t: ir.TypeRef) -> int:
        """How many levels below a value its own checks read (a model's are its own function's)."""
        match t:
            case ir.Ref(target="alias"):
                alias = self.defs[t.name]
                assert isinstance(alias, ir.Alias)
                return self.levels(alias.type)
            case ir.ListType():
                return 1 + self.levels(t.item)
            case ir.MapType():
                return 1 + self.levels(t.value)
            case ir.TupleType():
                return 1 + max((self.levels(i) for i in t.items), default=0)
            case ir.NullableType():
                return self.levels(t.inner)
            case ir.UnionType():
                return max((self.levels(v) for v in t.variants), default=0)
            case _:
                return 0

"""A spec whose rules follow pointers of every shape, and documents that turn each rule on and off,
for the fast-path tests of every language (tests/test_fast_path.py, tests/test_fast_path_typescript.py,
tests/test_go_fast_validate.py).

Rules whose pointers surely find a value (a model's required member, a tuple's position, a
list's item below minItems) are code of their own with direct reads in the fast function
(loops for contains / allowed_when); the others keep the runtime's resolve walk (rt.fast<Rule>).
"""

from __future__ import annotations

from typing import Any

import mutations

SPEC: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Rule paths", "description": "Rule pointers of every shape.",
    "x-version": "1.0.0", "$ref": "#/$defs/Doc",
    "$defs": {
        "Item": {"type": "object", "description": "An item.", "properties": {
            "id": {"type": "string", "description": "Its kind."}, "note": {"type": ["string", "null"], "description": "A note."}},
            "required": ["id", "note"]},
        "Loose": {"type": "object", "description": "An item whose key may be absent.", "properties": {
            "k": {"type": "string", "description": "Maybe."}}},
        # Named as TypeScript's utility type Pick: the generated module must not use the global (make<Model>).
        "Pick": {"type": "object", "description": "Names from lists two levels up.", "properties": {
            "name": {"type": "string", "description": "One of the tags."}, "alt": {"type": "string", "description": "One of the pair."},
            "alt2": {"type": "string", "description": "One of the first of the pairs."}}, "required": ["name"],
            "x-rules": [{"kind": "member_of", "field": "name", "in": "2/tags", "message": "a tag"},
                        {"kind": "member_of", "field": "alt", "in": "2/pair", "message": "one of the pair"},
                        {"kind": "member_of", "field": "alt2", "in": "2/pairs/0", "message": "one of the first pair"}]},
        "Outer": {"type": "object", "description": "An item holding one.", "properties": {
            "inner": {"$ref": "#/$defs/Item", "description": "The inner item."}}, "required": ["inner"]},
        "Holder": {"type": "object", "description": "An item that may hold one.", "properties": {
            "inner": {"$ref": "#/$defs/Item", "description": "The inner item, optional."}}},
        "Doc": {"type": "object", "description": "The document.", "properties": {
            "kind": {"type": "string", "enum": ["a", "b", "c"], "description": "Turns rules on."},
            "mode": {"type": "string", "description": "Optional: turns a rule on."},
            "extra": {"type": ["string", "null"], "description": "Optional, may be null."},
            "label": {"type": "string", "default": "none", "description": "Defaulted: absent means none, but is not there."},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "items": False, "minItems": 2, "maxItems": 2,
                     "description": "A pair."},
            "maybe_pair": {"type": ["array", "null"], "prefixItems": [{"type": "string"}, {"type": "string"}], "items": False,
                           "minItems": 2, "maxItems": 2, "description": "A pair or null."},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "description": "At least two tags."},
            "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}, "description": "Items."},
            "pairs": {"type": "array", "items": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "items": False,
                                                 "minItems": 2, "maxItems": 2}, "description": "Optional pairs."},
            "maybe": {"type": ["array", "null"], "items": {"$ref": "#/$defs/Item"}, "description": "Items or null."},
            "loose": {"type": "array", "items": {"$ref": "#/$defs/Loose"}, "description": "Loose items."},
            "maybe_loose": {"type": "array", "items": {"$ref": "#/$defs/Loose"}, "description": "Optional loose items."},
            "holders": {"type": "array", "items": {"$ref": "#/$defs/Holder"}, "description": "Items that may hold an item."},
            "nested": {"type": "array", "items": {"$ref": "#/$defs/Outer"}, "description": "Nested items."},
            "picks": {"type": "array", "items": {"$ref": "#/$defs/Pick"}, "description": "Picks."},
            # One level below the root, its rules climb past the document: nothing to check.
            "pick": {"$ref": "#/$defs/Pick", "description": "A pick whose lists would be above the document."},
            "free": {"description": "Any JSON value, absent in the documents."}},
            "required": ["kind", "pair", "maybe_pair", "tags", "items", "maybe", "loose", "nested"],
            "x-rules": [
                {"kind": "contains", "field": "items", "each": "/id", "equals": "x", "message": "an x item"},
                {"kind": "allowed_when", "when": {"field": "kind", "equals": "a"}, "field": "items", "each": "/id", "allowed": ["x"],
                 "message": "kind a: x items only"},
                {"kind": "allowed_when", "when": {"field": "pair", "pointer": "/0", "equals": "p"}, "field": "pairs", "each": "/01",
                 "allowed": ["x", "y"], "message": "pair p: pairs end in x or y"},
                {"kind": "allowed_when", "when": {"field": "tags", "pointer": "/1", "equals": "t"}, "field": "items", "each": "/note",
                 "allowed": ["n"], "message": "second tag t: notes n"},
                {"kind": "allowed_when", "when": {"field": "mode", "equals": "m"}, "field": "nested", "each": "/inner/id",
                 "allowed": ["x"], "message": "mode m: nested x only"},
                {"kind": "contains", "field": "tags", "each": "", "equals": "t", "message": "a tag t"},
                {"kind": "contains", "field": "maybe", "each": "/id", "equals": "x", "message": "maybe holds an x"},
                {"kind": "contains", "field": "nested", "each": "/inner/id", "equals": "x", "message": "a nested x"},
                {"kind": "required_when", "when": {"field": "kind", "equals": "c"}, "field": "mode", "message": "kind c needs a mode"},
                {"kind": "required_when", "when": {"field": "kind", "equals": "b"}, "field": "extra", "message": "kind b needs an extra"},
                {"kind": "required_when", "when": {"field": "pair", "pointer": "/1", "equals": "r"}, "field": "pairs",
                 "message": "pair ending in r needs pairs"},
                {"kind": "at_least_one_of", "fields": ["maybe", "pairs"], "message": "maybe or pairs"},
                # A when pointer into an optional field, which may be absent.
                {"kind": "required_when", "when": {"field": "pairs", "pointer": "/0/1", "equals": "x"}, "field": "mode",
                 "message": "pairs whose first ends in x need a mode"},
                # A defaulted field counts only where the document has it: its default does not.
                {"kind": "at_least_one_of", "fields": ["label", "extra"], "message": "a label or an extra"},
                # These keep the runtime's walk: past minItems, an optional member, a member of null, a pointer into a string.
                {"kind": "required_when", "when": {"field": "maybe_pair", "pointer": "/1", "equals": "r"}, "field": "mode",
                 "message": "maybe_pair ending in r needs a mode"},
                {"kind": "allowed_when", "when": {"field": "tags", "pointer": "/2", "equals": "t"}, "field": "items", "each": "/id",
                 "allowed": ["x"], "message": "third tag t: x items only"},
                {"kind": "contains", "field": "loose", "each": "/k", "equals": "x", "message": "a loose x"},
                {"kind": "allowed_when", "when": {"field": "maybe_pair", "pointer": "/0", "equals": "p"}, "field": "items", "each": "/id",
                 "allowed": ["x"], "message": "maybe_pair p: x items only"},
                {"kind": "allowed_when", "when": {"field": "kind", "equals": "c"}, "field": "items", "each": "/more/0", "allowed": ["x"],
                 "message": "kind c: nothing below an item's more"},
                # Pointers into free-form data that find nothing in these documents (a pointer that can find nothing in
                # any document, "/first" into a typed list, is refused at load).
                {"kind": "required_when", "when": {"field": "free", "pointer": "/first", "equals": "s"}, "field": "extra",
                 "message": "never: no free first"},
                {"kind": "required_when", "when": {"field": "free", "pointer": "/0/x", "equals": "s"}, "field": "extra",
                 "message": "never: no free 0/x"},
                # On an optional list: absent in the valid documents, where the rule holds.
                {"kind": "contains", "field": "maybe_loose", "each": "/k", "equals": "x", "message": "a maybe-loose x"},
                {"kind": "allowed_when", "when": {"field": "kind", "equals": "a"}, "field": "maybe_loose", "each": "/k", "allowed": ["x"],
                 "message": "kind a: maybe-loose x only"},
                # Through an optional member (a holder without its inner item has nothing there).
                {"kind": "allowed_when", "when": {"field": "kind", "equals": "b"}, "field": "holders", "each": "/inner/id",
                 "allowed": ["x", "y"], "message": "kind b: held ids x or y"},
                {"kind": "contains", "field": "holders", "each": "/inner/note", "equals": "n", "message": "a held note n"},
            ]},
    },
}

_ITEM = {"id": "x", "note": "n"}
VALID: list[Any] = [
    {"kind": "a", "pair": ["p", "q"], "maybe_pair": None, "tags": ["s", "t"], "items": [_ITEM, _ITEM], "pairs": [["a", "x"], ["b", "y"]],
     "maybe": [_ITEM], "loose": [{"k": "x"}, {}], "nested": [{"inner": _ITEM}], "mode": "m", "picks": [{"name": "t"}, {"name": "s"}],
     "holders": [{"inner": _ITEM}], "label": "l"},
    {"kind": "b", "extra": "e", "pair": ["q", "q"], "maybe_pair": ["q", "r"], "mode": "o", "tags": ["t", "u", "v"],
     "items": [{"id": "y", "note": None}, _ITEM], "maybe": None, "pairs": [["a", "b"]], "loose": [{}, {"k": "x"}],
     "nested": [{"inner": {"id": "y", "note": None}}, {"inner": _ITEM}], "holders": [{}, {"inner": {"id": "y", "note": "n"}}]},
    {"kind": "c", "mode": "o", "pair": ["q", "r"], "pairs": [["a", "b"]], "maybe": [_ITEM], "maybe_pair": None, "tags": ["t", "u"],
     "items": [{"id": "y", "note": "n"}, _ITEM], "loose": [{"k": "x"}], "nested": [{"inner": _ITEM}],
     "picks": [{"name": "u", "alt": "q", "alt2": "b"}], "label": "l", "pick": {"name": "zz", "alt": "q"}},
]


def documents() -> list[Any]:
    """The valid documents, their systematic mutations, and each with every string swapped for the
    values that turn the rules on and off."""
    docs: list[Any] = [*VALID]
    for doc in VALID:
        docs += mutations.mutations(doc)
        for path in mutations.paths(doc):
            if isinstance(mutations.get(doc, path), str):
                docs += [mutations.replaced(doc, path, s) for s in ("a", "b", "c", "m", "n", "p", "r", "t", "x", "y", "z")]
    return docs

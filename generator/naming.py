"""Identifier names for generated code. Reserved words are data, not code paths."""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from generator import ir
from generator.errors import SpecError, pointer_of

# Names a generated Python field must not take: keywords, names the generated
# module itself uses at class scope (annotations, method names), and `self`.
PYTHON_RESERVED = frozenset(
    set(keyword.kwlist)
    | set(keyword.softkwlist)
    | {
        "self",
        "cls",
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "list",
        "dict",
        "tuple",
        "datetime",
        "Any",
        "Literal",
        "TypeAlias",
        "Final",
        "field",
        "dataclass",
        "from_dict",
        "from_json",
        "to_dict",
        "to_json",
        "validate",
        "additional_properties",  # an open model's properties its fields do not name
    }
)

# Go's keywords: a format whose Go package would spell one does not compile (format_id_problem).
# Generated Go identifiers are exported (capitalised), so they never meet a keyword.
GO_KEYWORDS = frozenset(
    {
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
    }
)

# Go's common initialisms (as golint spells them): "id" -> "ID", "url" -> "URL".
GO_INITIALISMS = frozenset({"ID", "URL", "URI", "JSON", "HTTP", "HTTPS", "API", "UUID", "HTML", "XML", "SQL", "IP", "UI", "TTL", "UTF8"})

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z0-9]|$|[^A-Za-z0-9])|[A-Z]?[a-z0-9]+|[A-Z]+")


def words(name: str) -> list[str]:
    """Split any spelling into lowercase words: "content-type" -> ["content", "type"]."""
    ascii_only = re.sub(r"[^A-Za-z0-9]+", " ", name)
    return [w.lower() for w in _WORD.findall(ascii_only)]


def snake_case(name: str) -> str:
    """e.g. "contentType" -> "content_type"; names starting with a digit get a prefix."""
    result = "_".join(words(name)) or "field"
    return f"n{result}" if result[0].isdigit() else result


def python_attr(name: str) -> str:
    """A Python attribute name for a wire name, e.g. "class" -> "class_"."""
    result = snake_case(name)
    return f"{result}_" if result in PYTHON_RESERVED else result


def pascal_case(name: str) -> str:
    """e.g. "chat_event" -> "ChatEvent"."""
    result = "".join(w[:1].upper() + w[1:] for w in words(name)) or "Value"
    return f"N{result}" if result[0].isdigit() else result


def go_name(name: str) -> str:
    """An exported Go identifier, e.g. "session_id" -> "SessionID", "url" -> "URL"."""
    parts = []
    for w in words(name) or ["value"]:
        upper = w.upper()
        parts.append(upper if upper in GO_INITIALISMS else w[:1].upper() + w[1:])
    result = "".join(parts)
    return f"N{result}" if result[0].isdigit() else result


def go_package(format_id: str) -> str:
    """The Go package of a format, e.g. "structured_conversation" -> "structuredconversation"."""
    return re.sub(r"[^a-z0-9]", "", format_id.lower())


def constant_case(name: str) -> str:
    """e.g. "ChatEvent" -> "CHAT_EVENT"."""
    return snake_case(name).upper()


# --- format ids --------------------------------------------------------------

FORMAT_ID = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
# A definition's name (the meta-schema's $defs propertyNames): a capital letter, then letters and digits.
DEFINITION_NAME = re.compile(r"[A-Z][A-Za-z0-9]*")

# Go's predeclared identifiers: a package of that name shadows them in every file that imports it.
GO_PREDECLARED = frozenset(
    {
        "any",
        "append",
        "bool",
        "byte",
        "cap",
        "clear",
        "close",
        "comparable",
        "complex",
        "complex64",
        "complex128",
        "copy",
        "delete",
        "error",
        "false",
        "float32",
        "float64",
        "imag",
        "int",
        "int8",
        "int16",
        "int32",
        "int64",
        "iota",
        "len",
        "make",
        "max",
        "min",
        "new",
        "nil",
        "panic",
        "print",
        "println",
        "real",
        "recover",
        "rune",
        "string",
        "true",
        "uint",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "uintptr",
    }
)

# Folder and file names the generated trees use beside the formats' own, per target:
# generated/go/internal/, Go's ignored testdata/, generated/docs/index.md.
_TREE_NAMES = {
    "internal": "the Go module's internal/ folder",
    "testdata": "a folder name the go tool ignores",
    "index": "the docs' index page (docs/index.md)",
    "runtime": "the TypeScript package's runtime module (src/runtime.ts)",
}


def format_id_problem(format_id: str) -> tuple[str, str] | None:
    """(problem, hint) when a folder name under specs/ cannot be a format id; None when it can."""
    import builtins

    if not FORMAT_ID.fullmatch(format_id):
        suggestion = snake_case(format_id)[:64]
        return (
            f"the folder name {format_id!r} is not a format id: it must be a lowercase letter followed by up to 63 "
            "lowercase letters, digits or underscores (it names a Python module, a Go package and files)",
            (
                f"rename the folder, e.g. to {suggestion!r}"
                if FORMAT_ID.fullmatch(suggestion) and suggestion != "field"
                else "rename the folder, e.g. to 'my_format'"
            ),
        )
    package = go_package(format_id)
    if format_id in keyword.kwlist or format_id in keyword.softkwlist:
        return f"the format id {format_id!r} is a Python keyword or soft keyword", "rename the folder"
    if format_id in dir(builtins):
        return (
            f"the format id {format_id!r} is a Python builtin, which `from <package> import {format_id}` would shadow",
            "rename the folder",
        )
    if package in GO_KEYWORDS or package in GO_PREDECLARED:
        return (
            f"the format id {format_id!r} becomes the Go package {package!r}, a Go keyword or predeclared identifier",
            "rename the folder",
        )
    for name in {format_id, package}:
        if name in _TREE_NAMES:
            return f"the format id {format_id!r} collides with {_TREE_NAMES[name]}", "rename the folder"
    return None


# --- names the generated code defines itself -------------------------------------

# Capitalised Python builtins: a model of that name would shadow them in the generated module.
PYTHON_CAPITALISED_BUILTINS = frozenset(n for n in dir(__import__("builtins")) if n[:1].isupper())


def python_top_level_clashes(code: str) -> list[tuple[str, str, str]]:
    """(name, first binding, second binding) for every top-level name a generated Python module binds twice.

    The same import twice (a behaviour block importing what the module imports) is no clash."""
    import ast

    bound: dict[str, str] = {}
    clashes: list[tuple[str, str, str]] = []
    for node in ast.parse(code).body:
        found: list[tuple[str, str]] = []
        if isinstance(node, ast.ImportFrom):
            found = [(a.asname or a.name, f"imported from {'.' * node.level}{node.module or ''}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Import):
            found = [(a.asname or a.name.split(".")[0], f"imported {a.name}") for a in node.names]
        elif isinstance(node, ast.ClassDef):
            found = [(node.name, "a class")]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found = [(node.name, "a function")]
        elif isinstance(node, ast.Assign):
            found = [(t.id, "a module constant") for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found = [(node.target.id, "a module constant" if node.value is not None else "a type alias")]
        if isinstance(node, ast.ClassDef):
            fields = {n.target.id for n in node.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            methods = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
            clashes.extend((f"{node.name}.{name}", "a field", "a method") for name in sorted(fields & methods))
        for name, what in found:
            if name == "__all__" or (name in bound and bound[name] == what and what.startswith("imported")):
                continue
            _bind(bound, clashes, name, what)
    return clashes


_GO_DECL = re.compile(r"^(?:func|type|var|const) ([A-Za-z_][A-Za-z0-9_]*)", re.M)
_GO_BLOCK = re.compile(r"^(?:var|const|type) \(\n(.*?)^\)", re.M | re.S)


def go_top_level_clashes(sources: dict[str, str]) -> list[tuple[str, str, str]]:
    """(name, first file, second file) for every package-level Go name the generated files of one package declare twice."""
    bound: dict[str, str] = {}
    clashes: list[tuple[str, str, str]] = []
    for path, code in sorted(sources.items()):
        names = _GO_DECL.findall(code)
        for block in _GO_BLOCK.findall(code):
            names += re.findall(r"^\t([A-Za-z_][A-Za-z0-9_]*)\b", block, flags=re.M)
        for name in names:
            if name not in ("init", "_"):
                _bind(bound, clashes, name, path)
    return clashes


def _bind(bound: dict[str, str], clashes: list[tuple[str, str, str]], name: str, where: str) -> None:
    """Record that `where` binds name: the first binding is kept, a later one is a clash (name, first, later)."""
    if name in bound:
        clashes.append((name, bound[name], where))
    else:
        bound[name] = where


def clash_error(fmt: object, language: str, name: str, where: str) -> Exception:
    """The SpecError for a name the generated code would define twice, pointing at the definition when one has that name."""
    owner = next((d for d in getattr(fmt, "definitions", ()) if d.name == name.split(".")[0]), None)
    # (A model the spec writes inside another schema is no $defs entry: its place is where it is written.)
    pointer = pointer_of("$defs") if owner is None else getattr(owner, "place", pointer_of("$defs", owner.name))
    return SpecError(
        getattr(fmt, "source", ""),
        pointer,
        f"the generated {language} code would define {name!r} twice ({where}): a definition, field or value "
        "spells a name the generated code uses itself (e.g. VERSION, Literal, Validate<Root>, <Enum>Values, Parse...FromJSON, New<Model>)",
        'rename the definition, or give the field an "x-name", so the names differ',
    )


# --- the naming pass ------------------------------------------------------------
#
# One pass after lowering gives every identifier a target spells from the spec, in every
# target, under one collision policy:
#   - a word the language or the generated code reserves is escaped by the language's rule
#     (spelling, not collision: "class" -> "class_" in Python, "validate" -> "ValidateField" in Go);
#   - two names the spec's author controls (definitions, properties, x-name) that spell alike are
#     an error naming both and the fix, since renaming one silently would change an API;
#   - a name derived from data the author cannot rename (an enum value) takes the first free
#     numeric suffix, in spec order ("a-b", "a_b" -> ModeAB, ModeAB2);
#   - a type named after where it sits (Go's inline unions and tuples, e.g. ChatMessageContent) is
#     author-controlled through the names it is made of: one that spells another type's name is an error.


@dataclass(frozen=True)
class InlineTypes:
    """How a language that declares a type for every union and tuple a spec writes inline (Go) names them.

    The type is named after where it sits: the model and field (ChatMessageContent), then a word per
    step into a list or map (...Item, ...Value), a union's variant or a tuple's item (...String)."""

    item: Callable[[str], str]  # a list's item type from the list's name, e.g. "DocTags" -> "DocTagsItem"
    value: Callable[[str], str]  # a map's value type from the map's name, e.g. "DocMeta" -> "DocMetaValue"
    variant: Callable[[ir.TypeRef, str], str]  # (variant, its tag or JSON kind) -> the union's field, e.g. "String"
    tuple_item: Callable[[str], str]  # an item's x-name, or item<i>, -> the tuple's field, e.g. "Kind"
    reserved_variants: frozenset[str] = frozenset()  # names a union's field may not take (its methods), e.g. {"Validate"}
    unknown_variant: str = ""  # the field an open union keeps an unknown variant in, e.g. "Unknown"


@dataclass(frozen=True)
class NamingPolicy:
    """How one target language spells the identifiers of a format (data, not code paths)."""

    language: str  # for messages, e.g. "Go"
    field_noun: str  # what a field becomes, e.g. "Go field" or "Python attribute"
    field_name: Callable[[str], str]  # Field.name -> identifier, reserved words escaped, e.g. python_attr
    reserved_types: frozenset[str] = frozenset()  # type names the generated code defines itself, e.g. {"ValidationError"}
    enum_constant: Callable[[str, str], str] | None = None  # (enum, value) -> constant, e.g. ("Role", "user") -> "RoleUser"
    inline_types: InlineTypes | None = None  # None: the language writes unions and tuples inline, unnamed (Python)


@dataclass(frozen=True)
class Names:
    """Every identifier a target spells from a format's spec (the naming pass's result)."""

    fields: Mapping[tuple[str, str], str]  # (model, wire name) -> identifier, e.g. ("Message", "content-type") -> "content_type"
    constants: Mapping[tuple[str, str], str] = field(default_factory=dict)  # (enum, value) -> constant, e.g. ("Mode", "a_b") -> "ModeAB2"
    inline_types: Mapping[str, str] = field(default_factory=dict)  # inline union or tuple type -> where it sits
    members: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # union or tuple type -> its fields, e.g. ("String", "Array")

    def of_model(self, model: ir.Model) -> list[str]:
        """The identifiers of a model's fields, in field order."""
        return [self.fields[model.name, f.wire_name] for f in model.fields]


class Namespace:
    """One scope of identifiers (a module, a struct's fields): claims names under the policy above."""

    def __init__(self, source: str, reserved: Mapping[str, str] | None = None) -> None:
        self.source = source
        self.owners: dict[str, str] = dict(reserved or {})  # identifier -> what took it

    def claim(self, name: str, owner: str, clash: Callable[[str], Exception]) -> str:
        """name for owner; clash(the other owner) is raised when a spec name already took it."""
        if name in self.owners:
            raise clash(self.owners[name])
        self.owners[name] = owner
        return name

    def derive(self, base: str, owner: str) -> str:
        """base, or base2, base3, ...: the first form no one took (for names made from data)."""
        name, n = base, 2
        while name in self.owners:
            name, n = f"{base}{n}", n + 1
        self.owners[name] = owner
        return name


def _type_taken(fmt: ir.Format, policy: NamingPolicy, name: str, where: str) -> Callable[[str], Exception]:
    """The error for a type name someone else took: the generated package, or a definition or inline type at other."""

    def taken(other: str) -> Exception:
        if other == "the generated package":
            return SpecError(
                fmt.source,
                where,
                f"the {policy.language} type name {name!r} is one the generated package defines itself",
                "rename the definition",
            )
        return SpecError(
            fmt.source,
            where,
            f"the {policy.language} type name {name!r} is taken twice ({other} and {where})",
            'rename one of the definitions, or give the field an "x-name"',
        )

    return taken


def assign_names(fmt: ir.Format, policy: NamingPolicy) -> Names:
    """The naming pass for one format and one target language."""
    module = Namespace(fmt.source, {n: "the generated package" for n in policy.reserved_types})
    for d in fmt.definitions:
        where = pointer_of("$defs", d.name)
        module.claim(d.name, where, _type_taken(fmt, policy, d.name, where))
    fields: dict[tuple[str, str], str] = {}
    for model in fmt.models:
        scope = Namespace(fmt.source)
        for f in model.fields:
            where = pointer_of("$defs", model.name, "properties", f.wire_name)

            def same(other: str, name: str = policy.field_name(f.name), wire: str = f.wire_name, where: str = where) -> Exception:
                return SpecError(
                    fmt.source,
                    where,
                    f"fields {other!r} and {wire!r} both become the {policy.field_noun} {name!r}",
                    'give one of them a distinct "x-name"',
                )

            fields[model.name, f.wire_name] = scope.claim(policy.field_name(f.name), f.wire_name, same)
    constants: dict[tuple[str, str], str] = {}
    if policy.enum_constant is not None:
        for enum in (d for d in fmt.definitions if isinstance(d, ir.Enum)):
            for value in enum.values:
                constants[enum.name, value] = module.derive(policy.enum_constant(enum.name, value), f"{enum.name} value {value!r}")
    if policy.inline_types is None:
        return Names(fields, constants)
    inline = _InlineNames(fmt, policy, policy.inline_types, module)
    for model in fmt.models:
        for f in model.fields:
            inline.walk(f.type, model.name + fields[model.name, f.wire_name], pointer_of("$defs", model.name, "properties", f.wire_name))
    for alias in (d for d in fmt.definitions if isinstance(d, ir.Alias)):
        where = pointer_of("$defs", alias.name)
        match alias.type:
            case ir.UnionType() | ir.TupleType():
                inline.name_members(alias.name, alias.type, where)
            case _:
                inline.walk(alias.type, alias_hint(alias, policy.inline_types), where)
    return Names(fields, constants, inline.types, inline.members)


def alias_hint(alias: ir.Alias, spelling: InlineTypes) -> str:
    """What an alias's inline types are named after: the alias itself, but where the alias is a union or tuple or
    null (a pointer to it in Go), the union or tuple takes the value's name (e.g. Id = *IdValue), not the alias's."""
    inner = alias.type.inner if isinstance(alias.type, ir.NullableType) else None
    return spelling.value(alias.name) if isinstance(inner, (ir.UnionType, ir.TupleType)) else alias.name


class _InlineNames:
    """The inline union and tuple types of a format, and the fields of every union and tuple, in spec order."""

    def __init__(self, fmt: ir.Format, policy: NamingPolicy, spelling: InlineTypes, module: Namespace) -> None:
        self.fmt, self.policy, self.spelling, self.module = fmt, policy, spelling, module
        self.types: dict[str, str] = {}  # inline type -> where it sits
        self.declared: dict[str, ir.UnionType | ir.TupleType] = {}  # inline type -> the type (one name may serve one type)
        self.members: dict[str, tuple[str, ...]] = {}

    def walk(self, t: ir.TypeRef, name: str, where: str) -> None:
        """Name the inline types in t, which would be called name (a list's items name + "Item", ...)."""
        match t:
            case ir.ListType():
                self.walk(t.item, self.spelling.item(name), where)
            case ir.MapType():
                self.walk(t.value, self.spelling.value(name), where)
            case ir.NullableType():
                self.walk(t.inner, name, where)
            case ir.UnionType() | ir.TupleType():
                if name in self.declared:  # met again: the same type may keep its name, another may not take it
                    if self.declared[name] != t:
                        raise _type_taken(self.fmt, self.policy, name, where)(self.types[name])
                    return
                self.module.claim(name, where, _type_taken(self.fmt, self.policy, name, where))
                self.types[name] = where
                self.declared[name] = t
                self.name_members(name, t, where)
            case ir.Ref() | ir.StringType() | ir.DateTimeType() | ir.BytesType() | ir.NumericType() | ir.BooleanType() | ir.AnyType():
                pass
            case _:
                raise AssertionError(f"the naming pass has no case for the IR type kind {t.kind!r}")

    def name_members(self, name: str, t: ir.UnionType | ir.TupleType, where: str) -> None:
        """The fields of the union or tuple type name, then the inline types inside them."""
        members: list[str] = []
        if isinstance(t, ir.UnionType):
            for v, selector in zip(t.variants, t.tags or t.json_kinds):
                member = self.spelling.variant(v, selector)
                if t.open and member == self.spelling.unknown_variant:
                    raise SpecError(
                        self.fmt.source,
                        where,
                        f"a variant of the open union {name} becomes the {self.policy.field_noun} {member!r}, "
                        "which keeps the variants a later version adds",
                        "rename the variant's definition",
                    )
                if member in members or member in self.spelling.reserved_variants:
                    raise SpecError(
                        self.fmt.source,
                        where,
                        f"two variants of {name} both become the {self.policy.field_noun} {member!r}",
                        "make the variants distinct definitions",
                    )
                members.append(member)
                self.walk(v, name + member, where)
        else:
            labels = [t.names[i] if i < len(t.names) and t.names[i] else f"item{i}" for i in range(len(t.items))]
            members = [self.spelling.tuple_item(label) for label in labels]
            for item, member in zip(t.items, members):
                self.walk(item, name + member, where)
            if len(set(members)) != len(members):
                raise SpecError(
                    self.fmt.source, where, f"two items of the tuple {name} have the same name", 'give the prefixItems distinct "x-name"s'
                )
        self.members[name] = tuple(members)

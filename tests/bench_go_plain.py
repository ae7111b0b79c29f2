"""make bench's Go baseline (issue 31): plain Go structs for a format, as a user without chatspec would
write them for encoding/json or goccy/go-json. They validate nothing and have no custom unmarshalers:
a model is a struct with one field per property (a date-time is time.Time and base64 is []byte, the
standard library's own readings), an enum a string, a union or a tuple whatever JSON holds (`any`),
a map a map[string]T; an optional field is a pointer where its zero value could be a value. Unknown
properties are dropped, as encoding/json drops them.
"""

from __future__ import annotations

from generator import ir
from generator.naming import go_name


def plain_structs(fmt: ir.Format, prefix: str) -> tuple[str, str]:
    """(the root's Go type name, the Go declarations of every model of fmt), each type named prefix + model name."""

    def spell(t: ir.TypeRef) -> str:
        match t:
            case ir.StringType():
                return "string"
            case ir.DateTimeType():
                return "time.Time"
            case ir.BytesType():
                return "[]byte"
            case ir.NumericType():
                return "int64" if t.integer else "float64"
            case ir.BooleanType():
                return "bool"
            case ir.AnyType() | ir.UnionType() | ir.TupleType():
                return "any"
            case ir.ListType():
                return "[]" + spell(t.item)
            case ir.MapType():
                return "map[string]" + spell(t.value)
            case ir.NullableType():
                inner = spell(t.inner)
                return inner if nilable(inner) else "*" + inner
            case ir.Ref(target="model"):
                return prefix + t.name
            case ir.Ref(target="enum"):
                return "string"
            case ir.Ref(target="alias"):
                alias = fmt.definition(t.name)
                assert isinstance(alias, ir.Alias)
                return spell(alias.type)
        raise AssertionError(f"no plain Go type for {t!r}")

    def nilable(spelt: str) -> bool:
        return spelt == "any" or spelt.startswith(("[]", "map[", "*"))

    out = []
    for model in fmt.models:
        lines = [f"type {prefix}{model.name} struct {{"]
        for i, f in enumerate(model.fields):
            spelt = spell(f.type)
            if not f.required and not nilable(spelt):
                spelt = "*" + spelt
            omit = "" if f.required else ",omitempty"
            lines.append(f"\tF{i}{go_name(f.name)} {spelt} `json:{f'{f.wire_name}{omit}'!r}`".replace("'", '"'))
        lines.append("}")
        out.append("\n".join(lines))
    return prefix + fmt.root, "\n\n".join(out) + "\n"


def go_file(package: str, declarations: str) -> str:
    """A Go source file of package `package` holding plain_structs' declarations (importing time where they use it)."""
    return f"package {package}\n\n" + ('import "time"\n\n' if "time.Time" in declarations else "") + declarations

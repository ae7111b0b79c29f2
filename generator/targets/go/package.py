"""Go target: IR -> views -> templates/go/*.j2, gofmt-clean as rendered.

Every generated package parses a decoded JSON tree with parsers compiled from
the IR, exactly as the Python target does, so both report the same problems in
the same order. Templates never align columns: every struct field and constant
gets its own comment line, which ends gofmt's alignment sections.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from generator import ir, runtime
from generator.errors import SpecError, pointer_of
from generator.messages import number_literal
from generator.naming import Names, clash_error, go_name, go_package, go_top_level_clashes
from generator.options import Options
from generator.behaviour import Behaviour, GoParts, constants, go_parts
from generator.render import Templates, header
from generator.patterns import PatternError, to_go
from generator.targets.go.names import METHOD_NAMES, PACKAGE_NAMES


def go_str(text: str) -> str:
    """A Go interpreted string literal, exact for any text."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\uFFFD")  # a lone surrogate has no UTF-8 form
        elif code < 0x20 or code == 0x7F or not ch.isprintable() and unicodedata.category(ch) != "Zs":
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# The templates under templates/go/ this target renders; gostr spells Go string literals.
TEMPLATES = Templates(gostr=go_str)


def go_comment(text: str, indent: str = "") -> list[str]:
    """`//` comment lines for free text, in the form gofmt leaves as it is.

    gofmt rewrites doc comments: indented lines become code blocks and ``
    or '' become typographic quotes. So lines lose their indentation and such
    pairs get a space between them; control characters are shown escaped.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", text)
    while "``" in text or "''" in text:
        text = text.replace("``", "` `").replace("''", "' '")
    lines = []
    for line in text.split("\n"):
        line = line.replace("\t", "    ").strip()
        lines.append(f"{indent}// {line}" if line else f"{indent}//")
    while len(lines) > 1 and lines[-1].endswith("//"):
        lines.pop()
    return lines


def go_strings(items: tuple[str, ...] | list[str]) -> str:
    return "[]string{" + ", ".join(go_str(i) for i in items) + "}"


def go_msgs(messages: dict[str, str]) -> str:
    return "rt.Msgs{" + ", ".join(f"{go_str(k)}: {go_str(v)}" for k, v in messages.items()) + "}"


def go_float(value: float) -> str:
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


_VALID_TAG = re.compile(r"^[A-Za-z0-9!#$%&()*+\-./:;<=>?@\[\]^_{|}~ ]+$")


def json_tag(wire: str, omitempty: bool) -> str:
    """The struct tag encoding/json reads; keys it cannot spell get none (MarshalJSON never needs it)."""
    if not _VALID_TAG.match(wire):
        return ""
    return "`json:" + json.dumps(wire + (",omitempty" if omitempty else "")) + "`"


@dataclass(frozen=True)
class FieldView:
    name: str  # e.g. "SessionID"
    type: str  # e.g. "*bool"
    tag: str  # e.g. `json:"completed,omitempty"`
    doc: tuple[str, ...]  # comment lines


@dataclass(frozen=True)
class ModelView:
    name: str
    doc: tuple[str, ...]
    fields: tuple[FieldView, ...]
    parse_locals: tuple[str, ...]  # e.g. "var okUser bool"
    steps: tuple[str, ...]  # statements of the parse function
    tree: tuple[str, ...]  # statements of toTree
    closed: bool
    keys_var: str
    keys: str
    type_message: str
    unknown_message: str
    uses_obj: bool
    behaviour_fields: str  # fields the behaviour's `type <Model> struct` adds (specs/<format>/behaviour/go.go), or ""


@dataclass(frozen=True)
class ConstView:
    name: str
    value: str  # Go literal
    doc: tuple[str, ...]


@dataclass(frozen=True)
class EnumView:
    name: str
    doc: tuple[str, ...]
    consts: tuple[ConstView, ...]
    values_var: str


@dataclass(frozen=True)
class VariantView:
    field: str  # e.g. "TextBlock"
    type: str  # the field's Go type, e.g. "*TextBlock"
    doc: tuple[str, ...]
    match: str  # the kind or tag that selects it, as a Go case list, e.g. "\"text\""
    parser: str  # expression of rt.Parser[T]
    value_type: str  # T
    pointer: bool  # stored as *T
    tree: str  # tree expression of the set variant


@dataclass(frozen=True)
class UnionView:
    name: str
    doc: tuple[str, ...]
    variants: tuple[VariantView, ...]
    discriminator: str | None  # Go literal of the tag key
    type_message: str
    missing_message: str
    value_message: str
    kind_message: str


@dataclass(frozen=True)
class TupleItemView:
    field: str
    type: str
    doc: tuple[str, ...]
    parser: str
    tree: str


@dataclass(frozen=True)
class TupleView:
    name: str
    doc: tuple[str, ...]
    items: tuple[TupleItemView, ...]
    type_message: str
    length_message: str


@dataclass(frozen=True)
class AliasView:
    name: str
    doc: tuple[str, ...]
    type: str
    parser: str


class GoPackage:
    """Builds the views of one format's package."""

    def __init__(self, fmt: ir.Format, options: Options, names: Names, behaviour: Behaviour | None = None) -> None:
        self.fmt = fmt
        self.options = options
        self.names = names
        self.behaviour = behaviour if behaviour is not None and "go" in behaviour.texts else None
        self.parts = go_parts(self.behaviour, options.go_module) if self.behaviour is not None else GoParts("", {})
        self.package = go_package(fmt.id)
        self.defs = {d.name: d for d in fmt.definitions}
        self.unions: list[UnionView] = []
        self.tuples: list[TupleView] = []
        self.parser_vars: list[tuple[str, str, str]] = []  # (name, Go type, expression)
        # Go type name -> where it comes from (for collisions): the definitions, named by the naming pass, and inline types.
        self.type_names: dict[str, str] = {d.name: pointer_of("$defs", d.name) for d in fmt.definitions}
        self.uses_time = False
        self.tree_helpers: dict[str, tuple[str, str]] = {}  # name -> (Go type, tree expression of x)

    def fail(self, pointer: str, problem: str, hint: str) -> SpecError:
        return SpecError(self.fmt.source, pointer, problem, hint)

    def claim_type_name(self, name: str, where: str) -> str:
        if name in PACKAGE_NAMES:
            raise self.fail(where, f"the Go type name {name!r} is one the generated package defines itself", "rename the definition")
        if name in self.type_names:
            raise self.fail(where, f"the Go type name {name!r} is taken twice ({self.type_names[name]} and {where})",
                            "rename one of the definitions, or give the field an \"x-name\"")
        self.type_names[name] = where
        return name

    # --- types ------------------------------------------------------------

    def nilable(self, t: ir.TypeRef) -> bool:
        """Whether the Go zero value of the type is nil (so no pointer is needed to tell absence)."""
        if isinstance(t, (ir.ListType, ir.MapType, ir.AnyType, ir.BytesType)):
            return True
        if isinstance(t, ir.NullableType):
            return True
        if isinstance(t, ir.Ref) and t.target == "alias":
            alias = self.defs[t.name]
            assert isinstance(alias, ir.Alias)
            if not isinstance(alias.type, (ir.UnionType, ir.TupleType)):
                return self.nilable(alias.type)
        return False

    def gotype(self, t: ir.TypeRef, hint: str, where: str) -> str:
        if isinstance(t, ir.DateTimeType):
            self.uses_time = True
            return "time.Time"
        if isinstance(t, ir.BytesType):
            return "[]byte"
        if isinstance(t, ir.StringType):
            return "string"
        if isinstance(t, ir.NumericType):
            return "int64" if t.integer else "float64"
        if isinstance(t, ir.BooleanType):
            return "bool"
        if isinstance(t, ir.AnyType):
            return "any"
        if isinstance(t, ir.ListType):
            return "[]" + self.gotype(t.item, hint + "Item", where)
        if isinstance(t, ir.MapType):
            return "map[string]" + self.gotype(t.value, hint + "Value", where)
        if isinstance(t, ir.NullableType):
            inner = self.gotype(t.inner, hint, where)
            return inner if self.nilable(t.inner) else "*" + inner
        if isinstance(t, (ir.UnionType, ir.TupleType)):
            return self.inline_named(t, hint, where)
        return t.name

    def inline_named(self, t: ir.UnionType | ir.TupleType, name: str, where: str) -> str:
        """A union or tuple written inline in a field gets a named type of its own."""
        if name not in self.type_names:
            self.claim_type_name(name, where)
            if isinstance(t, ir.UnionType):
                self.unions.append(self.union_view(name, t, (), where))
            else:
                self.tuples.append(self.tuple_view(name, t, (), where))
        return name

    def parser(self, t: ir.TypeRef, hint: str, where: str) -> str:
        """An expression of type rt.Parser[T] for the type."""
        if isinstance(t, ir.DateTimeType):
            return f"rt.DateTime({go_msgs(t.messages)})"
        if isinstance(t, ir.BytesType):
            return f"rt.Base64({go_msgs(t.messages)})"
        if isinstance(t, ir.StringType):
            spec = [f"Msgs: {go_msgs(t.messages)}"]
            if t.min_length is not None:
                spec.append(f"MinLength: rt.Int({t.min_length})")
            if t.max_length is not None:
                spec.append(f"MaxLength: rt.Int({t.max_length})")
            if t.pattern is not None:
                try:
                    spec.append(f"Pattern: rt.Pattern({go_str(to_go(t.pattern))})")
                except PatternError as exc:
                    raise self.fail(where + "/pattern", str(exc), "rewrite the pattern without it") from None
            if t.enum is not None:
                spec.append(f"Enum: {go_strings(t.enum)}")
            if t.const is not None:
                spec.append(f"Const: rt.Ptr({go_str(t.const)})")
            return "rt.String(rt.StringSpec{" + ", ".join(spec) + "})"
        if isinstance(t, ir.NumericType):
            spec = [f"Msgs: {go_msgs(t.messages)}"]
            for name, value in (("Minimum", t.minimum), ("Maximum", t.maximum),
                                ("ExclusiveMinimum", t.exclusive_minimum), ("ExclusiveMaximum", t.exclusive_maximum)):
                if value is not None:
                    spec.append(f"{name}: rt.Float({go_float(value)})")
            fn = "Integer" if t.integer else "Number"
            return f"rt.{fn}(rt.NumberSpec{{{', '.join(spec)}}})"
        if isinstance(t, ir.BooleanType):
            return f"rt.Bool({go_msgs(t.messages)})"
        if isinstance(t, ir.AnyType):
            return f"rt.AnyJSON({go_msgs(t.messages)})"
        if isinstance(t, ir.ListType):
            item_type = self.gotype(t.item, hint + "Item", where)
            spec = [f"Msgs: {go_msgs(t.messages)}"]
            if t.min_items is not None:
                spec.append(f"MinItems: rt.Int({t.min_items})")
            if t.max_items is not None:
                spec.append(f"MaxItems: rt.Int({t.max_items})")
            if t.unique_items:
                spec.append("UniqueItems: true")
            item = self.parser(t.item, hint + "Item", where)
            return f"rt.List[{item_type}]({item}, rt.ListSpec{{{', '.join(spec)}}})"
        if isinstance(t, ir.MapType):
            value_type = self.gotype(t.value, hint + "Value", where)
            return f"rt.Map[{value_type}]({self.parser(t.value, hint + 'Value', where)}, {go_msgs(t.messages)})"
        if isinstance(t, ir.NullableType):
            inner_type = self.gotype(t.inner, hint, where)
            combinator = "OrNull" if self.nilable(t.inner) else "Nullable"
            return f"rt.{combinator}[{inner_type}]({self.parser(t.inner, hint, where)})"
        if isinstance(t, (ir.UnionType, ir.TupleType)):
            return "parse" + self.inline_named(t, hint, where)
        return "parse" + t.name

    def tree(self, t: ir.TypeRef, value: str, hint: str, where: str) -> str:
        """An expression turning a Go value of the type into a tree value."""
        if isinstance(t, ir.DateTimeType):
            return f"rt.FormatTime({value})"
        if isinstance(t, ir.BytesType):
            return f"rt.TreeBytes({value})"
        if isinstance(t, ir.StringType):
            return value
        if isinstance(t, (ir.NumericType, ir.BooleanType)):
            return value
        if isinstance(t, ir.AnyType):
            return f"rt.AnyTree({value})"
        if isinstance(t, ir.ListType):
            return f"rt.TreeList({value}, {self.tree_fn(t.item, hint + 'Item', where)})"
        if isinstance(t, ir.MapType):
            return f"rt.TreeMap({value}, {self.tree_fn(t.value, hint + 'Value', where)})"
        if isinstance(t, ir.NullableType):
            if self.nilable(t.inner):
                return self.tree(t.inner, value, hint, where)
            return f"rt.TreePtr({value}, {self.tree_fn(t.inner, hint, where)})"
        if isinstance(t, (ir.UnionType, ir.TupleType)):
            return f"{value}.toTree()"
        target = self.defs[t.name]
        if isinstance(target, ir.Enum):
            return f"string({value})"
        if isinstance(target, ir.Alias) and not isinstance(target.type, (ir.UnionType, ir.TupleType)):
            return self.tree(target.type, value, t.name, where)
        return f"{value}.toTree()"

    def tree_fn(self, t: ir.TypeRef, hint: str, where: str) -> str:
        """A function value of type func(T) any for the type (no func literals: gofmt may unfold them)."""
        gotype = self.gotype(t, hint, where)
        if isinstance(t, ir.DateTimeType):
            return "rt.TimeTree"
        if isinstance(t, ir.BytesType):
            return "rt.TreeBytes"
        if isinstance(t, ir.StringType):
            return "rt.Same[string]"
        if isinstance(t, (ir.NumericType, ir.BooleanType)):
            return f"rt.Same[{gotype}]"
        if isinstance(t, ir.AnyType):
            return "rt.AnyTree"
        if isinstance(t, (ir.UnionType, ir.TupleType)):
            return f"{gotype}.toTree"
        if isinstance(t, ir.Ref):
            target = self.defs[t.name]
            if isinstance(target, ir.Enum):
                return f"rt.EnumTree[{t.name}]"
            if not isinstance(target, ir.Alias) or isinstance(target.type, (ir.UnionType, ir.TupleType)):
                return f"{t.name}.toTree"
        name = f"tree{hint}"
        if name not in self.tree_helpers:
            self.tree_helpers[name] = (gotype, "")
            self.tree_helpers[name] = (gotype, self.tree(t, "x", hint, where))
        return name

    def parser_var(self, name: str, gotype: str, expr: str) -> str:
        """A package variable for a combinator expression (bare function names need none)."""
        if expr.isidentifier():
            return expr
        self.parser_vars.append((name, gotype, expr))
        return name

    # --- definitions ----------------------------------------------------

    def field_names(self, model: ir.Model) -> list[str]:
        return self.names.of_model(model)

    def behaviour_fields(self, model: str) -> str:
        """Struct fields a model's behaviour methods keep (e.g. an index)."""
        return self.parts.fields.get(model, "")

    def behaviour_file(self) -> str:
        """behaviour.go: the stored go.go under the generated header and package clause, with the
        constants it reads (manifest [constants]) emitted from the IR after its imports."""
        assert self.behaviour is not None
        fmt = self.fmt
        consts = []
        for c in constants(fmt, self.behaviour):
            model = next(m for m in fmt.models if m.name == c.model)
            field = self.field_names(model)[[f.name for f in model.fields].index(c.field)]
            name = f"{c.model}{field}{c.facet.capitalize()}"
            value = go_str(c.value) if isinstance(c.value, str) else str(c.value).lower() if isinstance(c.value, bool) else repr(c.value)
            consts.append(f"// {name} is the {c.facet} of {c.model}.{field} in the spec.\nconst {name} = {value}\n")
        code = self.parts.code
        if consts:
            imports = re.match(r"(import \([^)]*\)\n|import \"[^\"]*\"\n)", code)
            at = imports.end() if imports else 0
            code = code[:at] + ("\n" if at else "") + "\n".join(consts) + ("\n" if at == 0 else "") + code[at:]
        sources = (fmt.source, self.behaviour.source("go"))
        return f"// {header(*sources)}\n\npackage {self.package}\n\n{code}"

    def model_view(self, model: ir.Model) -> ModelView:
        fields: list[FieldView] = []
        steps: list[str] = []
        tree: list[str] = []
        ok_vars: dict[str, str] = {}  # wire -> ok variable, for fields rules read
        # at_least_one_of looks at presence only; the other rules skip unusable (invalid) inputs.
        read_by_rules = {w for r in model.rules if r.kind != "at_least_one_of"
                         for w in (*r.fields, *(() if r.when is None else (r.when.field,)))}
        values: dict[str, str] = {}
        for f, name in zip(model.fields, self.field_names(model)):
            where = pointer_of("$defs", model.name, "properties", f.wire_name)
            hint = model.name + name
            t = f.type
            nullable = isinstance(t, ir.NullableType)
            base_type = self.gotype(t, hint, where)
            parser = self.parser_var(f"p{model.name}_{name}", base_type, self.parser(t, hint, where))
            wire = go_str(f.wire_name)
            ok = "_"
            if f.wire_name in read_by_rules:
                ok = f"ok{name}"
                ok_vars[f.wire_name] = ok
            values[f.wire_name] = f"out.{name}"
            set_tree = f"o.Set({wire}, {{}})"
            if f.required:
                gotype = base_type
                fn = "RequiredOrNull" if nullable else "Required"
                steps.append(f"out.{name}, {ok} = rt.{fn}[{gotype}](c, obj, {wire}, {parser}, {go_str(f.required_message)})")
                line = set_tree.format(self.tree(t, f"m.{name}", hint, where))
                if isinstance(t, ir.DateTimeType):
                    # Go's zero time means "not set", as the original IsZero checks had it.
                    tree.append(f"if !m.{name}.IsZero() {{")
                    tree.append("\t" + line)
                    tree.append("}")
                else:
                    tree.append(line)
                omitempty = False
            elif f.has_default or f.default_factory:
                gotype = base_type
                default = "rt.NewUUID4" if f.default_factory == "uuid4" else self.default_func(f, t, gotype, parser)
                steps.append(f"out.{name}, {ok} = rt.OptionalDefault[{gotype}](c, obj, {wire}, {parser}, {default})")
                tree.append(set_tree.format(self.tree(t, f"m.{name}", hint, where)))
                omitempty = False
            elif self.nilable(t):
                gotype = base_type
                steps.append(f"out.{name}, {ok} = rt.Optional[{gotype}](c, obj, {wire}, {parser})")
                tree.extend([f"if m.{name} != nil {{", "\t" + set_tree.format(self.tree(t, f"m.{name}", hint, where)), "}"])
                omitempty = True
            else:
                gotype = "*" + base_type
                steps.append(f"out.{name}, {ok} = rt.OptionalPtr[{base_type}](c, obj, {wire}, {parser})")
                tree.extend([f"if m.{name} != nil {{", "\t" + set_tree.format(self.tree(t, f"(*m.{name})", hint, where)), "}"])
                omitempty = True
            for rule in model.rules:
                if rule.after == f.wire_name:
                    steps.append(self.rule_call(rule, values, ok_vars))
            fields.append(FieldView(name, gotype, json_tag(f.wire_name, omitempty),
                                    tuple(go_comment(f.description or f"{name} is the {f.wire_name!r} field.", "\t"))))
        steps.extend(self.rule_call(r, values, ok_vars) for r in model.rules if r.after is None)
        return ModelView(
            name=model.name,
            doc=tuple(go_comment(f"{model.name}: {model.description}" if model.description else f"{model.name} is a model of {self.fmt.id}.")),
            fields=tuple(fields),
            parse_locals=tuple(f"var {v} bool" for v in ok_vars.values()),
            steps=tuple(steps),
            tree=tuple(tree),
            closed=model.closed,
            keys_var=f"keys{model.name}",
            keys="rt.KeySet(" + ", ".join(go_str(f.wire_name) for f in model.fields) + ")",
            type_message=go_str(model.type_message),
            unknown_message=go_str(model.unknown_message),
            uses_obj=bool(model.fields) or model.closed or bool(model.rules),
            behaviour_fields=self.behaviour_fields(model.name),
        )

    def default_func(self, f: ir.Field, t: ir.TypeRef, gotype: str, parser: str) -> str:
        """A func() T giving a fresh default (containers are built anew for every value)."""
        value = f.default
        if isinstance(value, bool):
            return f"rt.Default[{gotype}]({'true' if value else 'false'})"
        if isinstance(value, (int, float)):
            return f"rt.Default[{gotype}]({number_literal(value)})"
        if isinstance(value, str):
            return f"rt.Default[{gotype}]({go_str(value)})"
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        return f"rt.DefaultJSON[{gotype}]({parser}, {go_str(text)})"

    def rule_call(self, rule: ir.Rule, values: dict[str, str], ok_vars: dict[str, str]) -> str:
        msg = go_str(rule.message)

        def usable() -> str:  # the fields it reads parsed (at_least_one_of looks at presence only)
            reads = [*rule.fields, *(() if rule.when is None else (rule.when.field,))]
            return " && ".join(dict.fromkeys(ok_vars[w] for w in reads))

        when = "" if rule.when is None else f"{go_str(rule.when.field)}, {go_strings(rule.when.pointer)}, {go_str(rule.when.equals)}"
        match rule.kind:
            case "at_least_one_of":
                return f"rt.RuleAtLeastOneOf(c, obj, {go_strings(rule.fields)}, {msg})"
            case "member_of":
                field = rule.fields[0]
                return (f"rt.RuleMemberOf(c, {go_str(field)}, {values[field]}, {ok_vars[field]}, {rule.up}, "
                        f"{go_strings(rule.pointer)}, {msg})")
            case "contains":
                return (f"rt.RuleContains(c, obj, {go_str(rule.fields[0])}, {go_strings(rule.pointer)}, "
                        f"{go_str(rule.equals or '')}, {msg}, {usable()})")
            case "required_when":
                return f"rt.RuleRequiredWhen(c, obj, {go_str(rule.fields[0])}, {when}, {msg}, {usable()})"
            case "allowed_when":
                return (f"rt.RuleAllowedWhen(c, obj, {go_str(rule.fields[0])}, {go_strings(rule.pointer)}, {when}, "
                        f"{go_strings(rule.allowed)}, {msg}, {usable()})")
            case _:
                raise ValueError(f"the Go target has no check for rule kind {rule.kind!r}")

    def enum_view(self, enum: ir.Enum) -> EnumView:
        consts: list[ConstView] = []
        for value in enum.values:
            name = self.names.constants[enum.name, value]
            consts.append(ConstView(name, go_str(value), tuple(go_comment(f"{name} is the value {json.dumps(value, ensure_ascii=False)}.", "\t"))))
        self.parser_vars.append((f"p{enum.name}", enum.name,
                                 f"rt.StringEnum[{enum.name}]({go_msgs(enum.messages)}, " + ", ".join(go_str(v) for v in enum.values) + ")"))
        return EnumView(
            name=enum.name,
            doc=tuple(go_comment(f"{enum.name}: {enum.description}" if enum.description else f"{enum.name} is an enumeration.")),
            consts=tuple(consts),
            values_var=f"{enum.name}Values",
        )

    def union_view(self, name: str, t: ir.UnionType, doc: tuple[str, ...], where: str) -> UnionView:
        variants: list[VariantView] = []
        seen: set[str] = set()
        for i, (v, selector) in enumerate(zip(t.variants, t.tags or t.json_kinds)):
            if isinstance(v, ir.Ref):
                field = v.name
            else:
                field = {"string": "String", "array": "Array", "object": "Object", "integer": "Integer",
                         "number": "Number", "boolean": "Boolean"}.get(selector, go_name(selector))
            if field in seen or field in METHOD_NAMES:
                raise self.fail(where, f"two variants of {name} both become the Go field {field!r}", "make the variants distinct definitions")
            seen.add(field)
            hint = name + field
            value_type = self.gotype(v, hint, where)
            pointer = not self.nilable(v)
            cases = [selector]
            if not t.discriminator and selector == "number" and "integer" not in t.json_kinds:
                cases = ["integer", "number"]
            parser = self.parser_var(f"p{name}_{field}", value_type, self.parser(v, hint, where))
            described = f"when {t.discriminator!r} is {selector!r}" if t.discriminator else f"when the value is a JSON {selector}"
            variants.append(VariantView(
                field=field,
                type=("*" if pointer else "") + value_type,
                doc=tuple(go_comment(f"{field} is set {described}.", "\t")),
                match=", ".join(go_str(c) for c in cases),
                parser=parser,
                value_type=value_type,
                pointer=pointer,
                tree=self.tree(v, f"(*u.{field})" if pointer else f"u.{field}", hint, where),
            ))
        return UnionView(
            name=name,
            doc=doc or tuple(go_comment(f"{name} is one of several shapes; exactly one field is set.")),
            variants=tuple(variants),
            discriminator=go_str(t.discriminator) if t.discriminator else None,
            type_message=go_str(t.messages.get("type", "")),
            missing_message=go_str(t.messages.get("discriminator", "")),
            value_message=go_str(t.messages.get("discriminatorValue", "")),
            kind_message=go_str(t.messages.get("oneOf", "")),
        )

    def tuple_view(self, name: str, t: ir.TupleType, doc: tuple[str, ...], where: str) -> TupleView:
        items: list[TupleItemView] = []
        for i, item in enumerate(t.items):
            label = t.names[i] if i < len(t.names) and t.names[i] else f"item{i}"
            field = go_name(label)
            if field in METHOD_NAMES:
                field += "Field"
            hint = name + field
            gotype = self.gotype(item, hint, where)
            parser = self.parser_var(f"p{name}_{field}", gotype, self.parser(item, hint, where))
            items.append(TupleItemView(field, gotype, tuple(go_comment(f"{field} is item {i} of the array.", "\t")),
                                       parser, self.tree(item, f"t.{field}", hint, where)))
        if len({i.field for i in items}) != len(items):
            raise self.fail(where, f"two items of the tuple {name} have the same name", "give the prefixItems distinct \"x-name\"s")
        return TupleView(name, doc or tuple(go_comment(f"{name} is a fixed-length array.")), tuple(items),
                         go_str(t.messages["type"]), go_str(t.messages["prefixItems"]))

    def alias_view(self, alias: ir.Alias) -> AliasView | None:
        where = pointer_of("$defs", alias.name)
        doc = tuple(go_comment(f"{alias.name}: {alias.description}" if alias.description else f"{alias.name} is a named type."))
        if isinstance(alias.type, ir.UnionType):
            self.unions.append(self.union_view(alias.name, alias.type, doc, where))
            return None
        if isinstance(alias.type, ir.TupleType):
            self.tuples.append(self.tuple_view(alias.name, alias.type, doc, where))
            return None
        gotype = self.gotype(alias.type, alias.name, where)
        parser = self.parser_var(f"p{alias.name}", gotype, self.parser(alias.type, alias.name, where))
        return AliasView(alias.name, doc, gotype, parser)

    # --- files ----------------------------------------------------------

    def prepare(self) -> tuple[list[EnumView], list[ModelView], list[AliasView]]:
        """Build every view once (the docs read the models' Go field types from them)."""
        if not hasattr(self, "_views"):
            fmt = self.fmt
            enums = [self.enum_view(e) for e in fmt.definitions if isinstance(e, ir.Enum)]
            models = [self.model_view(m) for m in fmt.models]
            aliases = [a for a in (self.alias_view(d) for d in fmt.definitions if isinstance(d, ir.Alias)) if a is not None]
            self._views = (enums, models, aliases)
        return self._views

    def files(self) -> dict[str, str]:
        fmt = self.fmt
        enums, models, aliases = self.prepare()
        known = []
        for k in fmt.known_values:
            model = fmt.definition(k.model)
            assert isinstance(model, ir.Model)
            name = dict(zip((f.name for f in model.fields), self.field_names(model)))[k.field]
            known.append((f"{k.model}{name}Values", go_strings(k.values),
                          go_comment(f"{k.model}{name}Values lists the documented values of {k.model}.{name}; any string is accepted.")))
        root = fmt.root
        module = self.options.go_module
        context = dict(
            header=header(fmt.source),
            fmt=fmt,
            package=self.package,
            module=module,
            package_doc=go_comment(f"Package {self.package}: {fmt.title} (format {fmt.id}, version {fmt.version}).\n\n{fmt.description}"),
            enums=enums,
            models=models,
            unions=self.unions,
            tuples=self.tuples,
            aliases=aliases,
            known=known,
            parser_vars=self.parser_vars,
            tree_helpers=sorted(self.tree_helpers.items()),
            root=root,
            api_parse=f"Parse{go_name(fmt.id)}FromJSON",
            api_validate=f"Validate{root}",
            phrase=fmt.id.replace("_", " "),
            uses_time_types=self.uses_time,
            valid_examples=[go_str(json.dumps(data, ensure_ascii=False, separators=(",", ":"))) for _, data in fmt.valid_examples],
        )
        base = f"go/{self.package}"
        files = {
            # The structs hold the fields the behaviour's go.go adds, so the header names it too.
            f"{base}/{self.package}.go": TEMPLATES.render("go/types.go.j2", **{**context, "header": header(
                fmt.source, self.behaviour.source("go") if self.behaviour is not None and self.parts.fields else None)}),
            f"{base}/validate.go": TEMPLATES.render("go/validate.go.j2", **context),
            f"{base}/fuzz_test.go": TEMPLATES.render("go/fuzz_test.go.j2", **context),
        }
        if self.behaviour is not None:
            files[f"{base}/behaviour.go"] = self.behaviour_file()
        for name, first, second in go_top_level_clashes({p: c for p, c in files.items() if not p.endswith("_test.go")})[:1]:
            files_named = sorted({first.removeprefix("go/"), second.removeprefix("go/")})
            raise clash_error(fmt, "Go", name, f"in {' and '.join(files_named)}")
        return files


def render_module(formats: list[ir.Format], options: Options, names: Mapping[str, Names],
                  behaviours: Mapping[str, Behaviour] | None = None) -> dict[str, str]:
    """Every file of generated/go/, keyed by path under generated/."""
    files = {"go/go.mod": TEMPLATES.render("go/go.mod.j2", module=options.go_module)}
    files.update(runtime.go_runtime())
    for fmt in formats:
        files.update(GoPackage(fmt, options, names[fmt.id], (behaviours or {}).get(fmt.id)).files())
    return files

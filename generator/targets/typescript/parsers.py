"""Parser expressions: each IR type becomes a call of a runtime combinator (runtime.ts)."""

from __future__ import annotations

from generator import ir
from generator.targets.typescript.literals import ts_matcher, ts_number, ts_str
from generator.targets.typescript.types import ts_type


def checks_expr(checks: ir.Checks) -> str:
    """A schema applied as written, compiled (generator/checks.py): its checks and its patterns' matchers."""
    return f"new rt.Checks({ts_str(checks.text)}, [{', '.join(ts_matcher(p) for p in checks.patterns)}])"


def msgs(messages: dict[str, str]) -> str:
    return "{ " + ", ".join(f"{ts_str(k)}: {ts_str(v)}" for k, v in messages.items()) + " }" if messages else "{}"


def model_parse_fn(name: str) -> str:
    """The module-private parse function of a model, e.g. p_ChatInput."""
    return f"p_{name}"


def named_parser(name: str) -> str:
    """The module-private parser constant of an enum or alias, e.g. P_Role."""
    return f"P_{name}"


def _options(pairs: list[tuple[str, str]]) -> str:
    return "{ " + ", ".join(f"{k}: {v}" for k, v in pairs) + " }"


def parser(t: ir.TypeRef) -> str:
    """A runtime expression that parses a value of this type."""
    match t:
        case ir.DateTimeType():
            return f"rt.dateTime({msgs(t.messages)})"
        case ir.BytesType():
            return f"rt.base64Bytes({msgs(t.messages)})"
        case ir.StringType():
            m = msgs(t.messages)
            opts: list[tuple[str, str]] = []
            if t.min_length is not None:
                opts.append(("minLength", str(t.min_length)))
            if t.max_length is not None:
                opts.append(("maxLength", str(t.max_length)))
            if t.pattern is not None:
                opts.append(("pattern", ts_matcher(t.pattern)))
            if t.enum is not None:
                opts.append(("enum", "new Set([" + ", ".join(ts_str(v) for v in t.enum) + "])"))
            if t.const is not None:
                opts.append(("const", ts_str(t.const)))
            if t.checked_format is not None:
                opts.append(("format", ts_str(t.checked_format)))
            generic = f"<{ts_type(t)}>" if t.enum is not None or t.const is not None else ""
            return f"rt.string{generic}({m}, {_options(opts)})" if opts else f"rt.string{generic}({m})"
        case ir.NumericType():
            bounds = [
                (k, ts_number(v))
                for k, v in (
                    ("minimum", t.minimum),
                    ("maximum", t.maximum),
                    ("exclusiveMinimum", t.exclusive_minimum),
                    ("exclusiveMaximum", t.exclusive_maximum),
                    ("multipleOf", t.multiple_of),
                    ("const", t.const),
                )
                if v is not None
            ]
            if t.enum is not None:
                bounds.append(("enum", "new Set([" + ", ".join(ts_number(v) for v in t.enum) + "])"))
            fn = "rt.integer" if t.integer else "rt.number"
            return f"{fn}({msgs(t.messages)}, {_options(bounds)})" if bounds else f"{fn}({msgs(t.messages)})"
        case ir.BooleanType(const=None, enum=None):
            return f"rt.boolean({msgs(t.messages)})"
        case ir.BooleanType():
            values = [("const", "true" if t.const else "false")] if t.const is not None else []
            if t.enum is not None:
                values.append(("enum", "[" + ", ".join("true" if v else "false" for v in t.enum) + "]"))
            return f"rt.boolean({msgs(t.messages)}, {_options(values)})"
        case ir.AnyType(checks=ir.Checks() as checks):
            return f"{checks_expr(checks)}.parser({msgs(t.messages)})"
        case ir.AnyType():
            return f"rt.anyJSON({msgs(t.messages)})"
        case ir.ListType():
            opts = []
            if t.min_items is not None:
                opts.append(("minItems", str(t.min_items)))
            if t.max_items is not None:
                opts.append(("maxItems", str(t.max_items)))
            if t.unique_items:
                opts.append(("uniqueItems", "true"))
            tail = f", {_options(opts)}" if opts else ""
            return f"rt.listOf({parser(t.item)}, {msgs(t.messages)}{tail})"
        case ir.TupleType():
            return f"rt.tupleOf<{ts_type(t)}>([{', '.join(parser(i) for i in t.items)}], {msgs(t.messages)})"
        case ir.MapType():
            return f"rt.mapOf({parser(t.value)}, {msgs(t.messages)})"
        case ir.NullableType():
            return f"rt.nullable({parser(t.inner)})"
        case ir.UnionType():
            spelled = ts_type(t)
            if t.discriminator is not None:
                cases = ", ".join(f"[{ts_str(tag)}, {parser(v)}]" for tag, v in zip(t.tags, t.variants))
                return f"rt.unionByTag<{spelled}>({ts_str(t.discriminator)}, new Map<string, rt.Parser<{spelled}>>([{cases}]), {msgs(t.messages)}{', true' if t.open else ''})"
            cases = ", ".join(f"{ts_str(k)}: {parser(v)}" for k, v in zip(t.json_kinds, t.variants))
            return f"rt.unionByKind<{spelled}>({{ {cases} }}, {msgs(t.messages)})"
        case ir.Ref():
            return model_parse_fn(t.name) if t.target == "model" else named_parser(t.name)
        case _:
            raise AssertionError(f"unhandled IR type {t!r}")

"""Rules: the runtime check each x-rule runs in its model's parse function."""

from __future__ import annotations

from collections.abc import Mapping

from generator import ir
from generator.targets.go.literals import go_str
from generator.targets.go.views import Operand, RuleStep, When


def reads(rule: ir.Rule) -> tuple[str, ...]:
    """The wire names whose parsed values the rule's check reads (at_least_one_of looks at presence only)."""
    match rule.kind:
        case "at_least_one_of":
            return ()
        case "member_of" | "contains" | "required_when" | "allowed_when" | "compare":
            return (*rule.fields, *(() if rule.when is None else (rule.when.field,)))
        case _:
            raise AssertionError(f"the Go target has no check for rule kind {rule.kind!r}")


def rule_step(
    rule: ir.Rule, fields: Mapping[str, str], ok_vars: Mapping[str, str], defaults: Mapping[str, str], unions: Mapping[str, str]
) -> RuleStep:
    """The check of one rule; fields maps wire names to Go fields, ok_vars wire names to their ok variables,
    defaults wire names to the JSON text of the field's default ("" when it has none), unions the wire names of
    union fields to the Go value of their default (nil when it is none or no string)."""
    usable = tuple(dict.fromkeys(ok_vars[w] for w in reads(rule)))
    when = None if rule.when is None else When(rule.when.field, rule.when.pointer, rule.when.equals)
    match rule.kind:
        case "at_least_one_of":
            return RuleStep(rule.kind, rule.message, fields=rule.fields)
        case "member_of":
            field = rule.fields[0]
            # A union's struct holds its string in a variant's field: the rule reads the value as the JSON has it,
            # a string wherever the other languages' union value is one (member_of refuses time and bytes variants).
            value = f"rt.FieldValue(obj, {go_str(field)}, {unions[field]})" if field in unions else f"out.{fields[field]}"
            return RuleStep(rule.kind, rule.message, fields=(field,), value=value, ok=ok_vars[field], up=rule.up, pointer=rule.pointer)
        case "contains":
            return RuleStep(rule.kind, rule.message, fields=rule.fields[:1], pointer=rule.pointer, equals=rule.equals or "", usable=usable)
        case "required_when":
            assert when is not None
            return RuleStep(rule.kind, rule.message, fields=rule.fields[:1], when=when, usable=usable)
        case "allowed_when":
            assert when is not None
            return RuleStep(
                rule.kind, rule.message, fields=rule.fields[:1], pointer=rule.pointer, when=when, allowed=rule.allowed, usable=usable
            )
        case "compare":
            assert rule.op is not None
            operands = tuple(Operand(w, kind, defaults[w]) for w, kind in zip(rule.fields, rule.operands))
            return RuleStep(rule.kind, rule.message, fields=rule.fields, op=rule.op, operands=operands, usable=usable)
        case _:
            raise AssertionError(f"the Go target has no check for rule kind {rule.kind!r}")

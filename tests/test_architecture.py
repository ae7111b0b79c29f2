"""The architecture, enforced: who may import whom, that lower reads every keyword load accepts,
that every target handles every rule kind (and refuses one it does not know), and that the
CLI and the docs take their list of targets from the registry.

generator/ARCHITECTURE.md names the checklists these tests hold the code to.
"""

from __future__ import annotations

import argparse
import ast
import collections
import dataclasses
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from generator import checks, ir, messages
from generator.core import context, generate
from generator.errors import SpecError
from generator.export import rule_schema
from generator.keywords import META_ANNOTATIONS
from generator.load import LoadedSpec, load_spec, meta_schema
from generator.lower import ANNOTATIONS, KEYWORDS_BY_TYPE, NOT_LOWERED, lower
from generator.options import Options
from generator.targets import REGISTRY
from generator.targets.base import Context, Description, Target, Vendoring

GENERATOR = ROOT / "generator"
TARGETS = GENERATOR / "targets"

# --- imports -------------------------------------------------------------------------------


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(GENERATOR.rglob("*.py"))}


def _imports(module: str) -> Iterator[tuple[int, str]]:
    """(line, module imported) for every import in a module, late imports inside functions and
    TYPE_CHECKING blocks included; `from a import b` counts as importing a.b when a.b is a module."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
        elif (isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "import_module", "__import__")
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield node.lineno, node.args[0].value  # an import by name is an import too


def _generator_imports(module: str) -> list[tuple[int, str]]:
    return [(line, name) for line, name in _imports(module) if name in MODULES]


def _target_unit(module: str) -> str | None:
    """The target a module belongs to (generator.targets.go for generator.targets.go.package), or None
    for the registry, the contract and every pipeline stage."""
    parts = module.split(".")
    if module in ("generator.targets", "generator.targets.base") or parts[:2] != ["generator", "targets"]:
        return None
    return ".".join(parts[:3])


def _where(module: str, line: int) -> str:
    return f"{MODULES[module].relative_to(ROOT)}:{line}"


def test_the_import_rules_see_every_target() -> None:
    # The rules below are only as good as this reading of the code: it must find every registered target
    # (and nothing under targets/ that is not one), the registry's imports of them, and the late imports
    # the CLI makes inside functions.
    units = {_target_unit(m) for m in MODULES} - {None}
    assert {_target_unit(type(t).__module__) for t in REGISTRY} == units, (
        "every module or package under generator/targets/ (but base.py) is a registered target; code two targets "
        "share belongs in a pipeline stage")
    assert len(units) == len(REGISTRY) >= 5
    registry = {name for _, name in _generator_imports("generator.targets")}
    assert {type(t).__module__ for t in REGISTRY} <= registry


def test_no_target_imports_another_target() -> None:
    found = []
    for module in MODULES:
        unit = _target_unit(module)
        if unit is None:
            continue
        for line, name in _generator_imports(module):
            if name == "generator.targets" or (_target_unit(name) not in (None, unit)):
                found.append(f"{_where(module, line)}: {module} imports {name}")
    assert not found, ("a target reads another target only through the Context (generator/targets/base.py); "
                       "move what both need into a pipeline stage:\n" + "\n".join(found))


# The stages that run the targets (background: the worker that renders some of them), and what of
# generator.targets they may import: the registry and the contract.
RUNS_TARGETS = {"generator.core", "generator.rendering", "generator.cli", "generator.vendor", "generator.background"}
REGISTRY_MODULES = {"generator.targets", "generator.targets.base"}


def test_no_pipeline_stage_imports_a_target() -> None:
    found = []
    for module in MODULES:
        if module.startswith("generator.targets"):
            continue
        allowed = REGISTRY_MODULES if module in RUNS_TARGETS else set()
        for line, name in _generator_imports(module):
            if name.startswith("generator.targets") and name not in allowed:
                found.append(f"{_where(module, line)}: {module} imports {name}")
    assert not found, ("pipeline stages do not import targets; only core, rendering, cli, vendor and background reach them, through "
                       "the registry (generator.targets) and the contract (generator.targets.base):\n" + "\n".join(found))


# Where a target's name may still decide something outside generator/targets (issue 27 item 4 is not
# finished there): the per-language behaviour parts and `vendor --lang`.
NAME_BRANCHES_LEFT = {"generator/behaviour.py", "generator/cli.py"}


def test_no_stage_outside_the_targets_branches_on_a_targets_name() -> None:
    """Per-language policy lives in its target: no comparison or match outside generator/targets names a
    registered target ("python", "go", ...), so a new target needs no edit of core, rendering or a stage."""
    names = {t.name for t in REGISTRY}
    found = []
    for path in sorted(GENERATOR.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        if path.is_relative_to(TARGETS) or path.is_relative_to(GENERATOR / "runtime") or where in NAME_BRANCHES_LEFT:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Compare, ast.Match)) and any(
                isinstance(c, ast.Constant) and c.value in names for c in ast.walk(node)
            ):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)[:100]}")
    assert not found, "a stage decides by a target's name; let the target say it (generator/targets/base.py):\n" + "\n".join(found)
    assert all((ROOT / p).is_file() for p in NAME_BRANCHES_LEFT)


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in the graph, as the list of modules around it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def _import_graph() -> dict[str, set[str]]:
    # A package's __init__ that Python runs before a submodule is not an edge: generator.targets (the
    # registry) imports every target, and every target imports generator.targets.base below it, by design.
    return {m: {name for _, name in _generator_imports(m) if name != m} for m in MODULES}


def test_there_is_no_import_circle_in_the_generator() -> None:
    circle = _cycle(_import_graph())
    assert circle is None, ("import circle (late imports inside functions count too): " + " -> ".join(circle or [])
                            + "; move what both sides need into a module both import")


def test_a_late_import_by_name_inside_a_function_counts_as_an_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sneaky = tmp_path / "sneaky.py"
    target = type(REGISTRY[0]).__module__
    sneaky.write_text(f'import importlib\n\ndef later():\n    return importlib.import_module("{target}")\n', encoding="utf-8")
    monkeypatch.setitem(MODULES, "generator.sneaky", sneaky)
    assert (4, target) in _generator_imports("generator.sneaky")


def test_the_circle_finder_finds_a_circle_through_a_late_import() -> None:
    graph = _import_graph()
    graph["generator.errors"] = graph["generator.errors"] | {"generator.cli"}  # cli -> errors, now errors -> cli
    circle = _cycle(graph)
    assert circle is not None and circle[0] == circle[-1] and {"generator.errors", "generator.cli"} <= set(circle)


# --- keywords: what load accepts, lower reads ------------------------------------------------


def _accepted_keywords(schema: Any) -> set[str]:
    """Every key an object of the meta-schema may hold: the properties of every closed object
    (additionalProperties: false), which is how load refuses an unsupported keyword. The meta-schema's
    own x- annotations (x-example: a small spec; x-limits) are not read."""
    found: set[str] = set()
    if isinstance(schema, dict):
        if schema.get("additionalProperties") is False:
            found |= set(schema.get("properties", {}))
        for key, value in schema.items():
            if key not in META_ANNOTATIONS:
                found |= _accepted_keywords(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= _accepted_keywords(value)
    return found


# lower.py's tables of what it accepts where: they allow a keyword, they do not read it.
_ACCEPTANCE_TABLES = {"ANNOTATIONS", "ANNOTATIONS_READ", "KEYWORDS_BY_TYPE", "NOT_LOWERED"}


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    return []


def keywords_read(source: str) -> set[str]:
    """The string keys a module reads: d["k"], d.get("k"), "k" in d, for k in ("k", ...), set(d) & {"k"}."""
    tree = ast.parse(source)
    tables = {id(n) for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
              for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
              if isinstance(target, ast.Name) and target.id in _ACCEPTANCE_TABLES for n in ast.walk(node)}
    read: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in tables:
            continue
        if isinstance(node, ast.Subscript):
            read.update(_strings(node.slice))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
            read.update(_strings(node.args[0]))
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            read.update(_strings(node.left))
        elif isinstance(node, (ast.For, ast.comprehension)):
            read.update(_strings(node.iter))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.Sub)):
            read.update(_strings(node.left) + _strings(node.right))
    return read


LOWER_SOURCE = (GENERATOR / "lower.py").read_text(encoding="utf-8")
# What a schema applied as written may say: lower hands it to generator/checks.py, which compiles each of these
# keywords into the checks (APPLIED) or keeps it in the exported schema as written (ANNOTATIONS).
APPLIED_READ = checks.APPLIED | checks.ANNOTATIONS


def test_lower_reads_every_keyword_the_meta_schema_accepts() -> None:
    accepted = _accepted_keywords(meta_schema())
    unread = sorted(accepted - keywords_read(LOWER_SOURCE) - APPLIED_READ - set(NOT_LOWERED))
    assert not unread, (f"the meta-schema accepts {unread}, which lower never reads, so a spec using it would be "
                        "accepted and then dropped in silence: read it in generator/lower.py into the IR, or list it "
                        "in lower.NOT_LOWERED with the reason no target needs it")


def test_every_keyword_lower_leaves_unread_has_a_reason_and_is_not_read_after_all() -> None:
    accepted = _accepted_keywords(meta_schema())
    assert set(NOT_LOWERED) <= accepted, f"lower.NOT_LOWERED names keywords the meta-schema does not accept: {set(NOT_LOWERED) - accepted}"
    assert all(reason.strip() for reason in NOT_LOWERED.values())
    stale = set(NOT_LOWERED) & (keywords_read(LOWER_SOURCE) | APPLIED_READ)
    assert not stale, f"lower reads {stale} after all: take it out of lower.NOT_LOWERED"


def test_the_behavioural_keyword_probes_leave_out_exactly_the_keywords_lower_does_not_read() -> None:
    # tests/test_versioning.py proves each read keyword reaches the IR by changing it; the ones it cannot
    # probe must be the ones lower.NOT_LOWERED explains, so there is one list of them, with reasons.
    from test_versioning import PROBES

    unprobed = {key.partition("/")[2] for key, probe in PROBES.items() if probe is None}
    assert unprobed == set(NOT_LOWERED)


def test_a_keyword_added_to_the_meta_schema_and_never_read_is_caught() -> None:
    grown = json.loads(json.dumps(meta_schema()))
    grown["$defs"]["schema"]["properties"]["x-sparkle"] = {"type": "boolean"}
    assert "x-sparkle" in _accepted_keywords(grown) - keywords_read(LOWER_SOURCE) - set(NOT_LOWERED)
    # ...and reading it in lower is what clears it.
    assert "x-sparkle" in keywords_read(LOWER_SOURCE + '\nsparkle = schema.get("x-sparkle")\n')


def test_lower_accepts_no_keyword_the_meta_schema_refuses() -> None:
    # A keyword in lower's tables that load refuses is dead: no spec can reach it.
    allowed = set(ANNOTATIONS).union(*KEYWORDS_BY_TYPE.values())
    dead = sorted(allowed - _accepted_keywords(meta_schema()))
    assert not dead, f"lower's tables allow {dead}, which the meta-schema refuses: remove them from lower.py or add them to the meta-schema"


def test_every_x_messages_key_has_a_default_message_and_every_default_can_be_overridden() -> None:
    keys = set(meta_schema()["$defs"]["messages"]["propertyNames"]["enum"])
    assert keys == set(messages.DEFAULTS) | {"type"}, (
        "x-messages keys (generator/metaschema/chatspec.schema.json) and the defaults in generator/messages.py differ: "
        f"only in the meta-schema {sorted(keys - set(messages.DEFAULTS) - {'type'})}, "
        f"only in messages.DEFAULTS {sorted(set(messages.DEFAULTS) - keys)}")


def test_every_x_messages_key_says_which_keywords_report_with_it() -> None:
    # generator/message_keys.py refuses a key whose keyword is not in its schema; a new key it does not list would
    # never be refused, so every key is listed there, or named one another schema's keyword may report with.
    from generator import message_keys

    keys = set(meta_schema()["$defs"]["messages"]["propertyNames"]["enum"])
    assert keys == set(message_keys.REPORTED_BY) | message_keys.ANYWHERE, sorted(keys ^ (set(message_keys.REPORTED_BY) | message_keys.ANYWHERE))


# --- rule kinds ------------------------------------------------------------------------------


def rule_kinds() -> list[str]:
    """The rule kinds, as the meta-schema lists them (load refuses any other)."""
    rule = meta_schema()["$defs"]["rule"]
    kinds = list(rule["properties"]["kind"]["enum"])
    branches = [b["properties"]["kind"]["const"] for b in rule["oneOf"]]
    assert sorted(branches) == sorted(kinds), "each rule kind in the meta-schema's enum needs exactly one oneOf branch"
    return kinds


# One rule of each kind on the model below; a new kind in the meta-schema fails the tests until it has one.
SAMPLE_RULES: dict[str, dict[str, Any]] = {
    "member_of": {"kind": "member_of", "field": "speaker", "in": "0/people", "message": "speaker must be one of people"},
    "required_when": {"kind": "required_when", "field": "url", "when": {"field": "source", "equals": "url"},
                      "message": "a url source needs a url"},
    "at_least_one_of": {"kind": "at_least_one_of", "fields": ["url", "text"], "message": "give a url or a text"},
    "allowed_when": {"kind": "allowed_when", "field": "items", "when": {"field": "source", "equals": "url"}, "each": "/type",
                     "allowed": ["link"], "message": "a url source holds only links"},
    "contains": {"kind": "contains", "field": "items", "each": "/type", "equals": "cover", "message": "one item must be the cover"},
    "compare": {"kind": "compare", "field": "text", "op": "!=", "other": "url", "message": "the text must not repeat the url"},
}


def _rules_spec(folder: Path, kinds: list[str]) -> LoadedSpec:
    document = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Rule kinds",
        "description": "One rule of every kind.",
        "x-version": "1.0.0",
        "$ref": "#/$defs/Doc",
        "$defs": {
            "Item": {"type": "object", "description": "An item.", "properties": {"type": {"type": "string"}}},
            "Doc": {
                "type": "object",
                "description": "A document with one rule of each kind.",
                "properties": {
                    "people": {"type": "array", "items": {"type": "string"}},
                    "speaker": {"type": "string"},
                    "source": {"type": "string"},
                    "url": {"type": "string"},
                    "text": {"type": "string"},
                    "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
                },
                "x-rules": [SAMPLE_RULES[k] for k in kinds],
            },
        },
    }
    spec_dir = folder / "rule_kinds"
    spec_dir.mkdir(parents=True, exist_ok=True)
    (spec_dir / "spec.json").write_text(json.dumps(document, indent=2), encoding="utf-8")
    return load_spec(spec_dir, folder)


def _target_sources(target: Target) -> list[Path]:
    """The files of a target: its package's modules, or its one module."""
    path = MODULES[type(target).__module__]
    return sorted(path.parent.glob("*.py")) if path.parent != TARGETS else [path]


def reads_rules(target: Target) -> bool:
    """Whether the target's code reads the IR's rules (the rest take them from the export stage, ctx.schemas)."""
    return any(isinstance(node, ast.Attribute) and node.attr == "rules"
               for path in _target_sources(target) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def test_the_sample_rules_cover_every_rule_kind() -> None:
    assert sorted(SAMPLE_RULES) == sorted(rule_kinds()), (
        "add a rule of the new kind to SAMPLE_RULES (and its field to the sample model), so every target is made to handle it")


def test_every_rule_kind_lowers_to_a_rule_of_that_kind(tmp_path: Path) -> None:
    fmt = lower(_rules_spec(tmp_path, rule_kinds()))
    assert [r.kind for r in fmt.models[-1].rules] == rule_kinds()


# Rule kinds a target refuses, naming the rule (the msgspec package cannot tell from its Structs what a compare
# rule reads); every other kind it must render.
REFUSED_RULES = {"msgspec": {"compare"}}


@pytest.fixture(scope="module")
def rule_outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str | None, dict[str, dict[str, str]]]:
    """Per target, its files for the sample spec with every rule it renders (key None) and without each kind in turn
    (opt-in targets on)."""
    kinds = rule_kinds()
    out: dict[str | None, dict[str, dict[str, str]]] = {}
    for left_out in [None, *kinds]:
        out[left_out] = {}
        for t in REGISTRY:
            wanted = [k for k in kinds if k != left_out and k not in REFUSED_RULES.get(t.name, set())]
            spec = _rules_spec(tmp_path_factory.mktemp("rules"), wanted)
            out[left_out][t.name] = generate([spec], targets=[t.name], options=Options(msgspec=True))
    return out


@pytest.mark.parametrize("kind", rule_kinds())
@pytest.mark.parametrize("target", REGISTRY, ids=lambda t: t.name)
def test_every_target_renders_every_rule_kind(
        rule_outputs: dict[str | None, dict[str, dict[str, str]]], target: Target, kind: str, tmp_path: Path) -> None:
    # Dropping the rule must change what the target writes: a target that skipped the kind would not notice.
    # A target that does not read rules writes what the export stage states, and standard JSON Schema
    # cannot state every rule (ir.Rule.exportable).
    if kind in REFUSED_RULES.get(target.name, set()):
        with pytest.raises(SpecError, match=f"the rule {kind}"):
            generate([_rules_spec(tmp_path, [kind])], targets=[target.name], options=Options(msgspec=True))
        return
    with_it, without = rule_outputs[None][target.name], rule_outputs[kind][target.name]
    (rule,) = lower(_rules_spec(tmp_path, [kind])).models[-1].rules
    if reads_rules(target) or rule.exportable:
        assert with_it != without, f"the {target.name} target writes the same files with and without a {kind} rule"
    else:
        assert with_it == without


BOGUS = ir.Rule("bogus", "never shown", None, ("items", "source"), up=0, pointer=("type",),
                when=ir.WhenClause("source", (), "url"), allowed=("link",), equals="cover")


def _with_bogus_rule(fmt: ir.Format) -> ir.Format:
    definitions = tuple(dataclasses.replace(d, rules=(*d.rules, BOGUS)) if isinstance(d, ir.Model) and d.name == "Doc" else d
                        for d in fmt.definitions)
    return dataclasses.replace(fmt, definitions=definitions)


@pytest.mark.parametrize("target", REGISTRY, ids=lambda t: t.name)
def test_a_rule_kind_a_target_does_not_know_is_refused_not_skipped(tmp_path: Path, target: Target) -> None:
    spec = _rules_spec(tmp_path, [k for k in rule_kinds() if k not in REFUSED_RULES.get(target.name, set())])
    clean = lower(spec)
    # Everything but the formats as the pipeline makes it from the clean format: only the target meets the unknown kind.
    ctx = dataclasses.replace(context([spec], (clean,)), formats=(_with_bogus_rule(clean),))
    if not reads_rules(target):
        # It writes what the export stage states: there the unknown kind must fail.
        with pytest.raises((AssertionError, ValueError), match="bogus"):
            rule_schema(BOGUS)
        return
    with pytest.raises((AssertionError, ValueError, SpecError), match="bogus"):  # SpecError: a refusal that names it
        target.render(ctx)


@dataclasses.dataclass(frozen=True)
class _BogusType:
    """A type kind no target knows (the IR gains one, e.g. a new ir.*Type, before the targets do)."""

    messages: dict[str, str]
    kind: str = "bogus"


def _with_bogus_type(fmt: ir.Format) -> ir.Format:
    def retyped(d: ir.Definition) -> ir.Definition:
        if not (isinstance(d, ir.Model) and d.name == "Doc"):
            return d
        bogus: Any = _BogusType({"type": "must be bogus"})  # not an ir.TypeRef: that is the point
        fields = tuple(dataclasses.replace(f, type=bogus) if f.wire_name == "text" else f for f in d.fields)
        return dataclasses.replace(d, fields=fields)

    return dataclasses.replace(fmt, definitions=tuple(retyped(d) for d in fmt.definitions))


def _code_targets() -> list[Any]:
    return [t for t in REGISTRY if type(t).describe is not Target.describe]  # a code target describes its spelling


@pytest.mark.parametrize("target", _code_targets())
def test_a_type_kind_a_code_target_does_not_know_is_refused_not_read_as_another(tmp_path: Path, target: Target) -> None:
    # A code target spells every type of every field; an unknown kind must fail naming it.
    spec = _rules_spec(tmp_path, [])
    clean = lower(spec)
    ctx = context([spec], (clean,), described=False)
    with pytest.raises((AssertionError, ValueError), match="bogus"):
        target.describe(_with_bogus_type(clean), ctx)


def test_the_docs_refuse_a_type_kind_they_do_not_know(tmp_path: Path) -> None:
    spec = _rules_spec(tmp_path, [])
    clean = lower(spec)
    ctx = dataclasses.replace(context([spec], (clean,)), formats=(_with_bogus_type(clean),))
    with pytest.raises((AssertionError, ValueError), match="bogus"):
        next(t for t in REGISTRY if t.name == "docs").render(ctx)


def test_the_msgspec_target_refuses_a_type_kind_it_does_not_know(tmp_path: Path) -> None:
    # It spells every type too, with no describe (no docs column), so the test above does not reach it.
    spec = _rules_spec(tmp_path, [])
    clean = lower(spec)
    ctx = dataclasses.replace(context([spec], (clean,)), formats=(_with_bogus_type(clean),))
    with pytest.raises(SpecError, match="cannot read the type bogus"):
        next(t for t in REGISTRY if t.name == "msgspec").render(ctx)


# --- the registry is the one list of targets -----------------------------------------------------


class _FakeTarget(Target):
    """A code target only this test knows: a label in the docs, a --lang when it vendors."""

    def __init__(self, name: str, vendoring: Vendoring | None) -> None:
        self.name = name
        self.vendoring = vendoring

    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        return {f"{self.name}/{fmt.id}.txt": fmt.id}

    def describe(self, fmt: ir.Format, ctx: Context) -> Description:
        fields = {(m.name, f.wire_name): f"fake_{f.wire_name}" for m in fmt.models for f in m.fields}
        return Description("Fakelang", "crate", f"fake_{fmt.id}", fields)


_FAKE_VENDORING = Vendoring(flag="--crate", help="the crate name", check=lambda name: None, options=lambda name: Options(),
                            subtree=lambda name: "fake/", folder=lambda out, name: out)


def _lang_choices() -> list[str]:
    from generator.cli import _parser

    vendor = next(a for a in _parser()._subparsers._group_actions if isinstance(a, argparse._SubParsersAction)).choices["vendor"]  # type: ignore[union-attr]
    return list(next(a for a in vendor._actions if a.dest == "lang").choices)


def test_the_vendor_command_offers_exactly_the_registered_targets_that_vendor() -> None:
    assert _lang_choices() == [t.name for t in REGISTRY if t.vendoring is not None]


def test_a_registered_target_with_vendoring_becomes_a_lang_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.targets

    monkeypatch.setattr(generator.targets, "REGISTRY", (*REGISTRY, _FakeTarget("fakevend", _FAKE_VENDORING), _FakeTarget("fakenone", None)))
    choices = _lang_choices()
    assert "fakevend" in choices and "fakenone" not in choices


def test_the_docs_show_a_column_per_code_target(tmp_path: Path) -> None:
    spec = _rules_spec(tmp_path, [])
    labels = [d.label for d in context([spec], (lower(spec),)).descriptions["rule_kinds"]]
    assert labels, "no registered target describes its code"
    page = generate([spec], targets=["docs"])["docs/rule_kinds.md"]
    headers = [line for line in page.splitlines() if line.startswith("| Field |") and "| Type |" not in line]
    assert headers == ["| Field | " + " | ".join(labels) + " |"] * 2  # the two models' "In code" tables


def test_a_registered_code_target_gets_its_column_in_the_docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.core

    monkeypatch.setattr(generator.core, "REGISTRY", (*REGISTRY, _FakeTarget("fake", None)))
    page = generate([_rules_spec(tmp_path, [])], targets=["docs"])["docs/rule_kinds.md"]
    headers = [line for line in page.splitlines() if line.startswith("| Field |") and "| Type |" not in line]
    assert headers and all(line.endswith("| Fakelang |") for line in headers)
    assert "Fakelang: crate `fake_rule_kinds`." in page
    assert "`fake_speaker`" in page


def test_lower_refuses_a_rule_kind_it_does_not_know_naming_the_rule(tmp_path: Path) -> None:
    # load refuses an unknown kind first; lower's own default is the guard behind it (e.g. a kind added to the
    # meta-schema but not to lower), and must not fall through to another kind's shape.
    from generator.errors import SpecError

    spec = _rules_spec(tmp_path, ["required_when"])
    document = json.loads(json.dumps(spec.document))
    document["$defs"]["Doc"]["x-rules"][0]["kind"] = "bogus"
    with pytest.raises(SpecError, match="bogus") as caught:
        lower(dataclasses.replace(spec, document=document))
    assert caught.value.pointer == "/$defs/Doc/x-rules/0/kind"


# --- one spelling per thing --------------------------------------------------------------------


@pytest.mark.parametrize(("limit", "shown"), [(2.0, "2"), (-0.0, "0"), (0.5, "0.5"), (1e20, "1e+20"), (1e300, "1e+300"), (7, "7"),
                                              (2**63 - 1, "9223372036854775807")])
def test_a_limit_in_a_message_is_spelled_as_generated_code_spells_that_number(limit: float, shown: str) -> None:
    # One function spells numbers (generator.messages.number_literal): the docs, the messages and the defaults agree.
    assert messages.number_literal(limit) == shown
    assert messages.resolve("maximum", {}, limit=limit) == f"must be <= {shown}"


# --- generator/ARCHITECTURE.md stays true ------------------------------------------------------


def test_the_architecture_page_names_only_tests_and_files_that_exist() -> None:
    page = (GENERATOR / "ARCHITECTURE.md").read_text(encoding="utf-8")
    tests = {node.name for path in (ROOT / "tests").glob("test_*.py")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.FunctionDef)}
    named = set(re.findall(r"::(test_\w+)", page))
    assert named and not named - tests, f"generator/ARCHITECTURE.md names tests that do not exist: {sorted(named - tests)}"
    paths = {p.rstrip("/") for p in re.findall(r"`((?:generator|templates|tests)/[\w./-]*)", page)}
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert paths and not missing, f"generator/ARCHITECTURE.md names files that do not exist: {missing}"


def test_the_architecture_page_has_a_checklist_for_each_extension_point() -> None:
    page = (GENERATOR / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for heading in ("## The pipeline", "## The target contract", "## How to add a target", "## How to add an `x-` keyword",
                    "## How to add a rule kind"):
        assert heading in page
    # The contract table names every member of the contract.
    members = [n for n in vars(Target) if not n.startswith("_")] + [n for n in Target.__annotations__ if n not in vars(Target)]
    assert {"name", "vendoring", "render", "describe"} <= set(members)
    assert all(f"`Target.{m}" in page for m in members), [m for m in members if f"`Target.{m}" not in page]
    assert all(f"`{f.name}`" in page for f in dataclasses.fields(Context))


# --- no dead code ---------------------------------------------------------------------------

# Module-level names nothing in generator/, templates/ or the build reads, and why they stay.
READ_ELSEWHERE = {
    "ir_json": "the IR's snapshot format: golden cases lock it as ir.json (tests/test_golden.py)",
    "pascal_case": "the TypeScript target's (its own branch) until it merges",
    "NOT_LOWERED": "the one list of keywords lower leaves unread, with reasons; this file holds lower to it",
}


def _module_level_names() -> Iterator[tuple[Path, int, str]]:
    """(file, line, name) for every function, class and constant defined at the top of a generator module."""
    for path in sorted(GENERATOR.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                yield path, node.lineno, node.name
            elif isinstance(node, ast.Assign):
                yield from ((path, node.lineno, t.id) for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                yield path, node.lineno, node.target.id


def test_every_module_level_name_in_the_generator_is_read_by_chatspec_itself() -> None:
    # A function, class or constant only tests read is a test hook in production code, or dead.
    sources = [p.read_text(encoding="utf-8") for p in GENERATOR.rglob("*.py")]
    sources += [p.read_text(encoding="utf-8") for p in (ROOT / "templates").rglob("*") if p.is_file()]
    sources += [(ROOT / name).read_text(encoding="utf-8") for name in ("pyproject.toml", "Makefile")]
    # How often each whole word occurs (a name is a whole word: no word character on either side),
    # counted in one pass rather than one search of every source per name.
    words = collections.Counter(word for text in sources for word in re.findall(r"\w+", text))
    unread = []
    for path, line, name in _module_level_names():
        if name.startswith("__") or name in READ_ELSEWHERE:
            continue
        if words[name] <= 1:  # its own definition
            unread.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    assert not unread, "nothing in chatspec reads these; remove them (or say in READ_ELSEWHERE who does):\n" + "\n".join(unread)


def test_the_names_read_elsewhere_exist() -> None:
    defined = {name for _, _, name in _module_level_names()}
    assert set(READ_ELSEWHERE) <= defined, f"stale READ_ELSEWHERE entries: {sorted(set(READ_ELSEWHERE) - defined)}"


def test_the_behaviour_languages_are_exactly_the_registered_targets_that_place_behaviour() -> None:
    # behaviour.py is a stage and may not read the registry; its table mirrors the targets' declarations.
    from generator import behaviour

    declared = {t.behaviour[0]: t.behaviour[1] for t in REGISTRY if t.behaviour is not None}
    assert list(behaviour.LANGUAGES.items()) == list(declared.items()), (
        "generator/behaviour.py LANGUAGES must list every registered target's `behaviour` (key, extension), in registry order")


def test_the_generator_passes_mypy_strict(tmp_path: Path) -> None:
    # From the repository root, so pyproject.toml's mypy settings apply (jsonschema ships no types).
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path), "generator"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_generator_is_formatted_by_black_and_lint_clean_by_ruff() -> None:
    # Both read their settings from pyproject.toml ([tool.black], [tool.ruff]); `make format` fixes both.
    black = subprocess.run([sys.executable, "-m", "black", "--check", "--quiet", "generator"], capture_output=True, text=True, cwd=ROOT)
    assert black.returncode == 0, f"run `make format`: black would reformat\n{black.stderr}"
    ruff = subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", "generator"], capture_output=True, text=True, cwd=ROOT)
    assert ruff.returncode == 0, f"run `make format` (ruff check --fix), then fix what remains:\n{ruff.stdout}{ruff.stderr}"

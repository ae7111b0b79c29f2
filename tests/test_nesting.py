"""How deep a type may nest (generator/nesting.py): the deepest spec chatspec accepts compiles and gives
one verdict in Python, Go and TypeScript; one level or one alias more is refused when the spec is
loaded, before `bump` locks it. (tests/broken_specs/ holds a spec past each limit, with its message.)"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, run_chatspec
from go_driver import build_driver, go_available, run_driver as run_go
from typescript_driver import compile_package, node_available, run_driver as run_typescript, write_tree
from generator import ir
from generator.core import generate
from generator.errors import SpecError
from generator.load import load_spec
from generator.lower import lower
from generator.nesting import MAX_LEVELS, MAX_TYPES, alias_order
from generator.options import load_options

Schema = dict[str, Any]

# One wrapping per kind of level: the schema around an inner one, and a value of it around an inner value.
LEVELS: dict[str, tuple[Callable[[Schema], Schema], Callable[[Any], Any]]] = {
    "array": (lambda s: {"type": "array", "items": s}, lambda v: [v]),
    "map": (lambda s: {"type": "object", "additionalProperties": s}, lambda v: {"k": v}),
    "tuple": (lambda s: {"type": "array", "prefixItems": [s, {"type": "integer"}], "items": False, "minItems": 2}, lambda v: [v, 1]),
    "nullable array": (lambda s: {"type": ["array", "null"], "items": s}, lambda v: [v]),
    "union": (lambda s: {"oneOf": [{"type": "array", "items": s}, {"type": "integer"}]}, lambda v: [v]),
}
# Innermost first: every kind of level, in and around every other.
MIXED = ["array", "map", "tuple", "nullable array", "union", "map", "tuple", "array"]


def _nest(kinds: list[str], schema: Schema, value: Any) -> tuple[Schema, Any]:
    for kind in kinds:
        schema, value = LEVELS[kind][0](schema), LEVELS[kind][1](value)
    return schema, value


def _deepest() -> tuple[Schema, dict[str, Any], dict[str, Any]]:
    """The deepest spec accepted: a field per kind of level at MAX_LEVELS, levels through aliases, a
    model's rule reading the document from below MAX_LEVELS - 1 arrays, and a chain of aliases at
    MAX_TYPES; a valid document, and for each field (name -> (bad document, the error's path))."""
    string = {"type": "string", "minLength": 1}
    fields: dict[str, tuple[Schema, Any, Any, str]] = {}  # name -> (schema, good value, bad value, bad path)
    for kind in LEVELS:
        schema, good = _nest([kind] * MAX_LEVELS, string, "s")
        bad = _nest([kind] * MAX_LEVELS, string, 5)[1]
        path = "/" + "/".join(["k" if kind == "map" else "0"] * MAX_LEVELS)
        fields[kind.replace(" ", "_")] = (schema, good, bad, path)
    schema, good = _nest(MIXED, string, "s")
    fields["mixed"] = (schema, good, _nest(MIXED, string, 5)[1], "/0/0/k/0/0/0/k/0")
    defs: Schema = {f"Level{k}": LEVELS["array"][0]({"$ref": f"#/$defs/Level{k + 1}"}) for k in range(1, MAX_LEVELS)}
    defs[f"Level{MAX_LEVELS}"] = LEVELS["array"][0](string)
    good = _nest(["array"] * MAX_LEVELS, string, "s")[1]
    fields["through_aliases"] = ({"$ref": "#/$defs/Level1"}, good, _nest(["array"] * MAX_LEVELS, string, "")[1], "/" + "/".join("0" * MAX_LEVELS))
    # A field's type is one, then each alias of the chain one more: MAX_TYPES - 1 aliases in all.
    defs.update({f"Name{k}": {"$ref": f"#/$defs/Name{k + 1}"} for k in range(1, MAX_TYPES - 1)})
    defs[f"Name{MAX_TYPES - 1}"] = string
    fields["chain"] = ({"$ref": "#/$defs/Name1"}, "s", "", "")
    defs["Leaf"] = {"type": "object", "description": "A leaf.", "required": ["user"], "properties": {"user": {"type": "string"}},
                    "x-rules": [{"kind": "member_of", "field": "user", "in": f"{MAX_LEVELS}/people", "message": "user must be in people"}]}
    leaves = _nest(["array"] * (MAX_LEVELS - 1), {"$ref": "#/$defs/Leaf"}, {"user": "ann"})
    fields["leaves"] = (leaves[0], leaves[1], _nest(["array"] * (MAX_LEVELS - 1), {}, {"user": "bob"})[1],
                        "/" + "/".join("0" * (MAX_LEVELS - 1)) + "/user")
    properties = {"people": {"type": "array", "items": {"type": "string"}}, **{name: f[0] for name, f in fields.items()}}
    spec = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Deepest", "description": "The deepest types accepted.",
            "x-version": "1.0.0", "$ref": "#/$defs/Doc",
            "$defs": {"Doc": {"type": "object", "description": "A document.", "required": ["people"], "properties": properties}, **defs}}
    valid = {"people": ["ann"], **{name: f[1] for name, f in fields.items()}}
    bad = {name: ({**valid, name: f[2]}, f"/{name}{f[3]}") for name, f in fields.items()}
    return spec, valid, bad


def _spec_dir(root: Path, spec: Schema, name: str = "deepest") -> Path:
    folder = root / "specs" / name
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec, indent=1), encoding="utf-8")
    return folder


def test_the_deepest_spec_is_at_each_limit_and_one_more_level_or_alias_is_refused_naming_where(tmp_path: Path) -> None:
    spec, _, _ = _deepest()
    lower(load_spec(_spec_dir(tmp_path, spec), tmp_path))  # accepted
    properties = spec["$defs"]["Doc"]["properties"]
    for name in properties:
        if name in ("people", "chain", "leaves", "through_aliases"):
            continue
        deeper = copy.deepcopy(spec)
        deeper["$defs"]["Doc"]["properties"][name] = LEVELS["array"][0](properties[name])
        with pytest.raises(SpecError) as refused:
            lower(load_spec(_spec_dir(tmp_path / name, deeper), tmp_path / name))
        assert refused.value.pointer == f"/$defs/Doc/properties/{name}", name
        assert f"nests {MAX_LEVELS + 1} levels of arrays, maps and tuples" in refused.value.problem, name
        assert f"at most {MAX_LEVELS} in one type" in refused.value.problem
    deeper = copy.deepcopy(spec)
    deeper["$defs"]["Level1"] = LEVELS["array"][0](deeper["$defs"]["Level1"])
    with pytest.raises(SpecError) as refused:
        lower(load_spec(_spec_dir(tmp_path / "aliases", deeper), tmp_path / "aliases"))
    assert refused.value.pointer == "/$defs/Level1" and "through the aliases Level2 -> Level3" in refused.value.problem
    longer = copy.deepcopy(spec)
    longer["$defs"]["Name0"] = {"$ref": "#/$defs/Name1"}
    longer["$defs"]["Doc"]["properties"]["chain"] = {"$ref": "#/$defs/Name0"}
    with pytest.raises(SpecError) as refused:
        lower(load_spec(_spec_dir(tmp_path / "chain", longer), tmp_path / "chain"))
    assert refused.value.pointer == "/$defs/Doc/properties/chain"
    assert f"holds {MAX_TYPES + 1} types one inside another" in refused.value.problem and f"at most {MAX_TYPES}" in refused.value.problem


@pytest.mark.slow
def test_the_deepest_spec_accepted_compiles_and_gives_one_verdict_in_python_go_and_typescript(tmp_path: Path) -> None:
    spec, valid, bad = _deepest()
    files = generate([load_spec(_spec_dir(tmp_path, spec), tmp_path)], options=load_options(ROOT), targets=["python", "go", "typescript"])
    out = tmp_path / "generated"
    for path, text in files.items():
        (out / path).parent.mkdir(parents=True, exist_ok=True)
        (out / path).write_text(text, encoding="utf-8")
    documents = [valid, *(doc for doc, _ in bad.values())]
    expected: list[Any] = [True, *([[path, "user must be in people" if name == "leaves" else message]]
                                   for name, (_, path) in bad.items()
                                   for message in ["must be at least 1 character(s) long" if name in ("chain", "through_aliases") else "must be a string"])]
    code = ("import json, sys\nfrom chatformats import deepest\nout = []\nfor doc in json.load(sys.stdin):\n"
            "    try:\n        value = deepest.Doc.from_dict(doc)\n        value.validate()\n"
            "        out.append(value.to_dict() == doc or ['built', value.to_dict()])\n"
            "    except deepest.ValidationError as e:\n        out.append([[x.path, x.message] for x in e.errors])\nprint(json.dumps(out))")
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(documents), capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(out / "python")})
    assert done.returncode == 0, done.stderr[-3000:]
    verdicts = {"python": json.loads(done.stdout)}
    texts = [json.dumps(doc) for doc in documents]
    if go_available():
        binary = build_driver(out / "go", load_options(ROOT).go_module, ["deepest"], tmp_path / "go-driver")
        verdicts["go"] = [True if v.get("ok") else v["errors"] for v in run_go(binary, [("deepest", t) for t in texts])]
    if node_available():
        typescript = tmp_path / "typescript"
        write_tree({p.removeprefix("typescript/"): t for p, t in files.items() if p.startswith("typescript/")}, typescript)
        results = run_typescript(compile_package(typescript), [("deepest", t, None) for t in texts])
        verdicts["typescript"] = [True if v.get("ok") else v.get("errors", v) for v in results]
    for language, got in verdicts.items():
        assert got == expected, (language, [(i, g, e) for i, (g, e) in enumerate(zip(got, expected)) if g != e])


@pytest.mark.parametrize("past", ["arrays", "alias chain of 1,000", "alias chain of 5,000"])
def test_bump_refuses_a_spec_past_the_limits_before_it_locks_anything_and_in_no_time(tmp_path: Path, past: str) -> None:
    string = {"type": "string"}
    defs: Schema = {}
    if past == "arrays":
        field = _nest(["array"] * (MAX_LEVELS + 3), string, "")[0]
        where, problem = "/$defs/Doc/properties/x", f"nests {MAX_LEVELS + 3} levels"
    else:
        count = 1000 if "1,000" in past else 5000
        defs = {f"A{k}": {"$ref": f"#/$defs/A{k + 1}"} for k in range(count)}
        defs[f"A{count}"] = string
        field = {"$ref": "#/$defs/A0"}
        where, problem = f"/$defs/A{count - MAX_TYPES}", f"holds {MAX_TYPES + 1} types one inside another"
    spec = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Deep", "description": "Past a limit.", "x-version": "1.0.0",
            "$ref": "#/$defs/Doc", "$defs": {"Doc": {"type": "object", "description": "A document.", "properties": {"x": field}}, **defs}}
    folder = _spec_dir(tmp_path, spec, "deep")
    before = (folder / "spec.json").read_bytes()
    for command in (["bump", "deep"], ["generate"]):
        started = time.perf_counter()
        done = run_chatspec(tmp_path, *command, CHATSPEC_CACHE="off")
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.startswith(f"chatspec: specs/deep/spec.json: at {where}: ") and problem in done.stderr, done.stderr
        assert "internal error" not in done.stderr and done.stderr.count("\n  hint: ") == 1
        assert time.perf_counter() - started < 30
    assert sorted(p.name for p in folder.iterdir()) == ["spec.json"], "nothing locked, no snapshot"
    assert (folder / "spec.json").read_bytes() == before
    assert not (tmp_path / "generated").exists()


def test_aliases_are_ordered_after_the_aliases_they_use_without_recursion() -> None:
    msgs: dict[str, str] = {}
    count = 20_000  # far past Python's recursion limit; lowering refuses such a chain, the order itself needs no limit
    chain = tuple(ir.Alias(f"A{k}", "", ir.ListType(ir.Ref(f"A{k + 1}", "alias"), msgs)) for k in range(count))
    union = ir.Alias("U", "", ir.UnionType((ir.Ref("A5", "alias"), ir.Ref("B", "alias")), msgs, json_kinds=("array", "string")))
    fmt = ir.Format(id="x", version="1.0.0", title="X", description="", decisions=(), root="Doc", source="specs/x/spec.json",
                    definitions=(union, *chain, ir.Alias(f"A{count}", "", ir.StringType(msgs)), ir.Alias("B", "", ir.StringType(msgs))))
    # Depth first from each alias in the spec's order, an alias after the ones it uses (in their order).
    assert [a.name for a in alias_order(fmt)] == [*(f"A{k}" for k in range(count, 4, -1)), "B", "U", "A4", "A3", "A2", "A1", "A0"]
    cyclic = ir.Format(id="x", version="1.0.0", title="X", description="", decisions=(), root="Doc", source="specs/x/spec.json",
                       definitions=(ir.Alias("P", "", ir.ListType(ir.Ref("Q", "alias"), msgs)), ir.Alias("Q", "", ir.MapType(ir.Ref("P", "alias"), msgs))))
    with pytest.raises(SpecError, match="definition 'P' refers to itself through P -> Q"):
        alias_order(cyclic)

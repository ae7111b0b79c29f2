"""The keyword x code-path matrix (issue 27): every keyword of the meta-schema that asserts something
is held, at values just inside and just past its limit (or on each branch of its meaning), in every
code path of every target.

The keywords come from the meta-schema (generator/metaschema/chatspec.schema.json), the one list of
what a spec may say: a keyword asserts if the reference validator (jsonschema, with the two keywords
chatspec asserts beyond its defaults: tests/conformance.py) validates with it. Each must have a probe
in PROBES, or the first test fails naming it; a probe is a model using the keyword, with values of
that model just inside and just past it. From them one spec (format keyword_matrix) is generated, and:

- Python: the exact walk (_parse_<model>), the fast path (_fast_<model>: builds every inside value,
  never one past) and, for a value built in code, the fast check (_check_<model>) and validate();
- Go: the exact walk (Parse's), and for a value built in code (encoding/json fills the struct) the
  fast check (fastValid) and Validate();
- TypeScript: the exact walk (parse<Model>), the fast path (the root's parse...FromJSON) and
  validate<Root>() of a value built in code;
- pydantic: model_validate_json;
- the exported JSON Schema and jsonschema on the spec as written give the same verdicts;
- the docs state the keyword with its value; the classifier classifies adding it and removing it.

"Built in code" needs a value the typed attribute can hold: the loose twin (the same model without
the keyword) parses the past value, and its attributes are handed to the strict model. A keyword the
static type already holds (a type, a date-time, a tuple's shape) has built=False and no such check.
A failure names the keyword, the target and the code path.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import conformance  # noqa: E402
from conftest import generate_cached  # noqa: E402
from generator.classify import classify  # noqa: E402
from generator.load import LoadedSpec, load_spec  # noqa: E402
from generator.lower import lower  # noqa: E402

ROOT = HERE.parent
METASCHEMA = ROOT / "generator" / "metaschema" / "chatspec.schema.json"
DRIVERS = HERE / "keyword_matrix"
FORMAT = "keyword_matrix"


def _field(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"v": schema}, "required": ["v"], "additionalProperties": False}


@dataclass(frozen=True)
class Variant:
    """One model using the keyword (at the JSON pointer `at` inside it), with values of the model."""

    name: str  # the model's suffix
    model: dict[str, Any]
    at: str
    inside: tuple[Any, ...]
    past: tuple[Any, ...]
    built: bool  # a value past it can be built in code (the static type does not hold the keyword)
    docs: tuple[str, ...] = ()  # text the docs' row for the keyword must hold


def _v(name: str, schema: dict[str, Any], inside: list[Any], past: list[Any], built: bool, docs: tuple[str, ...] = ()) -> Variant:
    """A variant whose model has one required field v with schema (the keyword at /properties/v)."""
    return Variant(name, _field(schema), "/properties/v", tuple({"v": x} for x in inside), tuple({"v": x} for x in past), built, docs)


INNER = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": False}

PROBES: dict[str, tuple[Variant, ...]] = {
    "type": (_v("", {"type": "integer"}, [0, -3, 10**15], ["0", 1.5, None, True], built=False),),
    "enum": (_v("", {"type": "string", "enum": ["a", "b"]}, ["a", "b"], ["c", ""], built=True, docs=("a", "b")),),
    "const": (_v("", {"type": "string", "const": "x"}, ["x"], ["y", ""], built=True, docs=("x",)),),
    "properties": (Variant("", {"type": "object", "properties": {"v": {"type": "integer"}}, "additionalProperties": False}, "",
                           ({}, {"v": 1}), ({"v": "1"}, {"v": None}), built=False),),
    "required": (Variant("", _field({"type": "string"}), "", ({"v": "a"},), ({},), built=False, docs=("v",)),),
    "additionalProperties": (
        Variant("Closed", {"type": "object", "properties": {"v": {"type": "string"}}, "additionalProperties": False}, "",
                ({}, {"v": "a"}), ({"w": 1}, {"v": "a", "V": "b"}), built=False),
        _v("Map", {"type": "object", "additionalProperties": {"type": "integer"}}, [{}, {"a": 1}], [{"a": "x"}, {"a": 1, "b": None}], built=False),
    ),
    "items": (_v("", {"type": "array", "items": {"type": "integer"}}, [[], [1, 2]], [["x"], [1, 1.5]], built=False),
              _v("False", {"type": "array", "prefixItems": [{"type": "string"}], "items": False, "minItems": 1}, [["a"]], [["a", 1]],
                 built=False)),
    "prefixItems": (_v("", {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False, "minItems": 2},
                       [["a", 1]], [[1, "a"], ["a", "b"]], built=False),),
    "minItems": (_v("", {"type": "array", "items": {"type": "integer"}, "minItems": 2}, [[1, 2], [1, 2, 3]], [[1], []], built=True, docs=("2",)),),
    "maxItems": (_v("", {"type": "array", "items": {"type": "integer"}, "maxItems": 2}, [[], [1, 2]], [[1, 2, 3]], built=True, docs=("2",)),),
    "uniqueItems": (_v("", {"type": "array", "items": {"type": "number"}, "uniqueItems": True}, [[1, 2], [1, 1.5], []], [[1, 1], [1, 1.0], [0, -0.0]],
                       built=True),),
    "minLength": (_v("", {"type": "string", "minLength": 2}, ["ab", "\U0001f600\U0001f600", "é\u0301"], ["a", "\U0001f600", ""], built=True,
                     docs=("2",)),),
    "maxLength": (_v("", {"type": "string", "maxLength": 2}, ["ab", "\U0001f600\U0001f600", ""], ["abc", "\U0001f600\U0001f600\U0001f600"], built=True,
                     docs=("2",)),),
    "pattern": (_v("", {"type": "string", "pattern": "^a+$"}, ["a", "aaa"], ["ab", "", "ba"], built=True, docs=("^a+$",)),),
    "format": (_v("", {"type": "string", "format": "date-time"}, ["2024-01-15T10:30:00Z", "2024-01-15t10:30:00.5+01:00"],
                  ["2024-13-15T10:30:00Z", "2024-01-15T10:30:00", "yesterday"], built=False, docs=("date-time",)),),
    "contentEncoding": (_v("", {"type": "string", "contentEncoding": "base64"}, ["AAEC", "", "+/8="], ["AAE", "-_8=", "AA=="[:3]], built=False,
                           docs=("base64",)),),
    "minimum": (_v("Int", {"type": "integer", "minimum": 1}, [1, 2], [0, -1], built=True, docs=("1",)),
                _v("Number", {"type": "number", "minimum": -0.5}, [-0.5, 0], [-0.50001, -1], built=True, docs=("-0.5",))),
    "maximum": (_v("Int", {"type": "integer", "maximum": 10}, [10, -10], [11], built=True, docs=("10",)),
                _v("Number", {"type": "number", "maximum": 100.5}, [100.5, 100], [100.50001, 101], built=True, docs=("100.5",))),
    "exclusiveMinimum": (_v("Int", {"type": "integer", "exclusiveMinimum": -5}, [-4, 0], [-5, -6], built=True, docs=("-5",)),
                         _v("Number", {"type": "number", "exclusiveMinimum": 0}, [1e-9, 1], [0, -0.0, -1e-9], built=True, docs=("0",))),
    "exclusiveMaximum": (_v("Int", {"type": "integer", "exclusiveMaximum": 5}, [4, -5], [5, 6], built=True, docs=("5",)),
                         _v("Number", {"type": "number", "exclusiveMaximum": 1}, [0.999, 0], [1, 1.0, 1.5], built=True, docs=("1",))),
    # Values within 2^53: the TypeScript driver's exact walk and built values read JSON.parse's numbers. Past 2^53
    # (2^53+9, no multiple of 5, rounds to 2^53+8, one) the golden case constraints holds it, from JSON text.
    "multipleOf": (_v("", {"type": "integer", "multipleOf": 5}, [0, 10, -15, 9007199254740990], [12, -7, 1, 9007199254740991],
                      built=True, docs=("5",)),
                   _v("Big", {"type": "integer", "multipleOf": 9007199254740991}, [0, 9007199254740991, -9007199254740991],
                      [9007199254740990, 2, -1], built=True, docs=("9007199254740991",))),
    "oneOf": (_v("", {"oneOf": [{"type": "string"}, {"type": "integer"}]}, ["a", 1], [1.5, None, True, []], built=False),),
    "anyOf": (_v("", {"anyOf": [{"type": "string"}, {"type": "null"}]}, [None, "a"], [1, {}], built=False),),
    "$ref": (_v("", {"$ref": "#/$defs/Inner"}, [{"n": 1}], [{"n": "1"}, {}, None], built=False),
             _v("Below", {"$ref": "#/$defs/Inner/properties/n"}, [1, -2], ["1", 1.5], built=True)),
    # Schemas applied as written (generator/checks.py): a JSON value in code, so a value past the keyword can be built.
    "allOf": (_v("", {"allOf": [{"type": "string"}, {"minLength": 2}]}, ["ab"], ["a", 1], built=True, docs=("allOf",)),
              # An item or a property failing under a schema applied as written: each is reported at its own pointer.
              _v("Below", {"allOf": [{"items": {"type": "string"}, "properties": {"a": {"minimum": 1}}}]}, [["x"], {"a": 1, "b": 0}, 3],
                 [[1], ["x", 2, "y", None], {"a": 0}, {"b": 0, "a": -1}], built=True, docs=("allOf",))),
    "not": (_v("", {"not": {"type": "string"}}, [1, None, []], ["a", ""], built=True, docs=("not",)),),
    "if": (_v("", {"if": {"type": "integer"}, "then": {"minimum": 0}, "else": {"type": "string"}}, [0, "a"], [-1, 1.5, None], built=True,
              docs=("if",)),),
    "contains": (_v("", {"type": "array", "contains": {"const": 1}}, [[1], [0, 1.0]], [[], [0, True]], built=True, docs=("contains",)),),
    "minContains": (_v("", {"contains": {"type": "integer"}, "minContains": 2}, [[1, 2], "x", [1, "a", 2]], [[1], [1, "a"]], built=True,
                       docs=("minContains",)),),
    "maxContains": (_v("", {"contains": {"type": "integer"}, "maxContains": 1}, [[1], [1, "a"]], [[1, 2], [1, "a", 3]], built=True,
                       docs=("maxContains",)),),
    "patternProperties": (_v("", {"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
                             [{}, {"x-a": "s", "a": 1}], [{"x-a": 1}, {"a": "s", "x-": None}], built=True, docs=("patternProperties",)),),
    "propertyNames": (_v("", {"propertyNames": {"maxLength": 2}}, [{}, {"ab": 1}, 3], [{"abc": 1}], built=True, docs=("propertyNames",)),),
    "minProperties": (_v("", {"type": "object", "minProperties": 1}, [{"a": 1}], [{}], built=True, docs=("minProperties",)),),
    "maxProperties": (_v("", {"type": "object", "maxProperties": 1}, [{}, {"a": 1}], [{"a": 1, "b": 2}], built=True, docs=("maxProperties",)),),
    "dependentRequired": (_v("", {"dependentRequired": {"a": ["b"]}}, [{}, {"a": 1, "b": 2}, {"b": 1}], [{"a": 1}], built=True,
                             docs=("dependentRequired",)),),
    "dependentSchemas": (_v("", {"dependentSchemas": {"a": {"required": ["b"]}}}, [{}, {"a": 1, "b": 2}], [{"a": 1}], built=True,
                            docs=("dependentSchemas",)),),
}


def _metaschema_keywords() -> set[str]:
    document = json.loads(METASCHEMA.read_text(encoding="utf-8"))
    return set(document["$defs"]["schema"]["properties"])


def asserting_keywords() -> set[str]:
    """The meta-schema's keywords that the reference validator validates with."""
    return _metaschema_keywords() & set(conformance._Oracle.VALIDATORS)


def _suffix(keyword: str) -> str:
    return re.sub(r"[^A-Za-z]", "", keyword[0].upper() + keyword[1:])


def _without(model: dict[str, Any], at: str, keyword: str) -> dict[str, Any]:
    loose = copy.deepcopy(model)
    node = loose
    for part in [p for p in at.split("/") if p]:
        node = node[part]
    del node[keyword]
    if keyword == "properties":
        node.pop("required", None)
    return loose


@dataclass(frozen=True)
class Probe:
    keyword: str
    variant: Variant

    @property
    def model(self) -> str:
        return "K" + _suffix(self.keyword) + self.variant.name

    @property
    def loose(self) -> str:
        return "L" + _suffix(self.keyword) + self.variant.name if self.variant.built else ""

    @property
    def field(self) -> str:
        return "k_" + re.sub(r"(?<!^)(?=[A-Z])", "_", _suffix(self.keyword) + self.variant.name).lower()


def probes() -> list[Probe]:
    return [Probe(k, v) for k, variants in sorted(PROBES.items()) for v in variants]


def spec_document() -> dict[str, Any]:
    defs: dict[str, Any] = {"Inner": INNER}
    root: dict[str, Any] = {}
    for p in probes():
        defs[p.model] = p.variant.model
        root[p.field] = {"$ref": f"#/$defs/{p.model}"}
        if p.loose:
            defs[p.loose] = _without(p.variant.model, p.variant.at, p.keyword)
            root["l" + p.field[1:]] = {"$ref": f"#/$defs/{p.loose}"}
    defs["KeywordMatrix"] = {"type": "object", "properties": root, "additionalProperties": False}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Keyword matrix",
            "description": "One model per keyword of the meta-schema that asserts something (tests/test_keyword_matrix.py).",
            "x-version": "1.0.0", "$ref": "#/$defs/KeywordMatrix", "$defs": defs}


def _load(document: dict[str, Any], folder: Path, fid: str = FORMAT) -> LoadedSpec:
    (folder / "specs" / fid).mkdir(parents=True, exist_ok=True)
    (folder / "specs" / fid / "spec.json").write_text(json.dumps(document, indent=1), encoding="utf-8")
    return load_spec(folder / "specs" / fid, folder)


def _cases() -> list[tuple[Probe, str, Any]]:
    return [(p, side, value) for p in probes() for side in ("inside", "past") for value in getattr(p.variant, side)]


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The generated files of the matrix spec and the verdicts of every code path on every case."""
    folder = tmp_path_factory.mktemp("keyword_matrix")
    spec = _load(spec_document(), folder / "project")
    files = generate_cached([spec], targets=["python", "go", "typescript", "jsonschema", "docs", "pydantic"])
    built = conformance.build({p: t for p, t in files.items() if p.split("/")[0] in ("python", "go", "typescript")}, [FORMAT], folder / "out")
    cases = _cases()
    payload = [{"model": p.model, "loose": p.loose, "field": p.field, "data": _text(value)}
               for p, side, value in cases]
    found: dict[str, Any] = {"files": files, "cases": cases}
    done = subprocess.run([sys.executable, "-S", str(DRIVERS / "driver.py")], input=json.dumps(payload), capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(built.folder / "python")})
    assert done.returncode == 0, done.stderr[-4000:]
    found["python"] = json.loads(done.stdout)
    found["pydantic"] = _run_pydantic(files, payload, folder)
    if built.go_binary is not None:
        found["go"] = _run_go(built.folder / "go", payload, folder)
    if built.ts_dist is not None:
        done = subprocess.run(["node", str(DRIVERS / "driver.mjs"), str(built.ts_dist)], input=json.dumps(payload), capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-4000:]
        found["typescript"] = json.loads(done.stdout)
    return found


_PYDANTIC = """
import json, sys
import pydantic
sys.path.insert(0, sys.argv[1])
from chatformats_pydantic import keyword_matrix as mod
out = []
for case in json.load(sys.stdin):
    try:
        getattr(mod, case["model"]).model_validate_json(case["data"])
        out.append({"ok": True, "errors": []})
    except pydantic.ValidationError as exc:
        out.append({"ok": False, "errors": [[str(e["loc"]), e["msg"]] for e in exc.errors()]})
json.dump([{"model_validate_json": v} for v in out], sys.stdout)
"""


def _run_pydantic(files: dict[str, str], payload: list[dict[str, Any]], folder: Path) -> list[dict[str, Any]]:
    for path, text in files.items():
        if path.startswith("pydantic/"):
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _PYDANTIC, str(folder / "pydantic")], input=json.dumps(payload), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def _run_go(tree: Path, payload: list[dict[str, Any]], folder: Path) -> list[dict[str, Any]]:
    from go_driver import GO_ENV
    from generator.naming import go_package

    models = sorted({c["model"] for c in payload})
    cases = "".join(f'\t\tcase "{m}":\n\t\t\tout[i] = probe[{m}](data, parse{m}, built)\n' for m in models)
    package = tree / go_package(FORMAT)
    (package / "zz_matrix_test.go").write_text((DRIVERS / "matrix_test.go.tmpl").read_text(encoding="utf-8").replace("{{CASES}}\n", cases))
    (folder / "cases.json").write_text(json.dumps(payload), encoding="utf-8")
    env = {**GO_ENV, "MATRIX_CASES": str(folder / "cases.json"), "MATRIX_OUT": str(folder / "go.json")}
    done = subprocess.run(["go", "test", "-count=1", "-run", "^TestKeywordMatrix$", f"./{go_package(FORMAT)}"], cwd=tree, capture_output=True,
                          text=True, env=env)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    result: list[dict[str, Any]] = json.loads((folder / "go.json").read_text(encoding="utf-8"))
    return result


def test_every_keyword_of_the_meta_schema_that_asserts_has_a_probe() -> None:
    missing = sorted(asserting_keywords() - set(PROBES))
    assert not missing, f"keywords of the meta-schema with no probe in tests/test_keyword_matrix.py PROBES: {missing}"
    stale = sorted(set(PROBES) - _metaschema_keywords())
    assert not stale, f"probes of keywords the meta-schema does not have: {stale}"


def test_the_probes_are_right_by_jsonschema_on_the_spec_as_written_and_on_the_exported_schema(matrix: dict[str, Any]) -> None:
    exported = json.loads(matrix["files"][f"jsonschema/{FORMAT}.schema.json"])
    judges = {"the spec as written": conformance.oracle(spec_document()), "the exported schema": conformance.oracle(exported)}
    wrong = [f"{p.keyword} ({p.model}): {judge} says {'valid' if ok else 'invalid'} for {side} value {_text(value)}"
             for p, side, value in matrix["cases"] for judge, oracle in judges.items()
             if (ok := oracle.is_valid({p.field: value})) != (side == "inside")]
    assert not wrong, "\n".join(wrong)


def _verdict(v: dict[str, Any] | None) -> str:
    if v is None:
        return "no verdict"
    if "crash" in v:
        return "crashed: " + v["crash"][-600:]
    return "accepted" if v["ok"] else "rejected"


def _wrong(matrix: dict[str, Any], language: str, paths: dict[str, Any]) -> list[str]:
    """paths: {code path name: function(result, side, probe) -> problem or None}."""
    out = []
    for (p, side, value), result in zip(matrix["cases"], matrix[language], strict=True):
        for path, judge in paths.items():
            problem = judge(result, side, p)
            if problem:
                out.append(f"{language} {path}: {p.keyword} ({p.model}) {side} {_text(value)}: {problem}")
    return out


def _expect(key: str) -> Any:
    def judge(result: dict[str, Any], side: str, p: Probe) -> str | None:
        v = result.get(key)
        if v is None and key != "exact" and (side == "inside" or not p.loose):
            return None
        want = "accepted" if side == "inside" else "rejected"
        return None if _verdict(v) == want else f"{_verdict(v)}, not {want}"

    return judge


def _quick(key: str) -> Any:
    """A fast path builds every inside value (it acts on the keyword, not stepping aside everywhere) and none past."""

    def judge(result: dict[str, Any], side: str, p: Probe) -> str | None:
        got = result.get(key)
        if got is None:
            return None
        if side == "inside":
            return None if got == "built" else f"{got} on a valid value: the fast path does not handle the keyword"
        return None if got in ("stepped aside", "rejected") else f"{got} a value past the keyword"

    return judge


def test_python_exact_walk_fast_path_and_validate_act_on_every_keyword(matrix: dict[str, Any]) -> None:
    wrong = _wrong(matrix, "python", {"exact walk": _expect("exact"), "fast path (_fast_)": _quick("fast"),
                                      "fast check of built values (_check_)": _quick("check"), "validate()": _expect("validate")})
    assert not wrong, f"{len(wrong)} wrong:\n" + "\n".join(wrong[:40])


def test_go_exact_walk_fast_check_and_validate_act_on_every_keyword(matrix: dict[str, Any]) -> None:
    if "go" not in matrix:
        pytest.skip("Go is not installed: the Go column of the keyword matrix needs it")

    def fast(result: dict[str, Any], side: str, p: Probe) -> str | None:
        if result.get("fast") is None:
            return None
        if side == "inside":
            return None if result["fast"] else "steps aside on a valid value: the fast check does not handle the keyword"
        return "vouches for a value past the keyword" if result["fast"] else None

    wrong = _wrong(matrix, "go", {"exact walk (Parse)": _expect("exact"), "fast check (fastValid)": fast, "Validate()": _expect("validate")})
    assert not wrong, f"{len(wrong)} wrong:\n" + "\n".join(wrong[:40])


def test_typescript_exact_walk_fast_path_and_validate_act_on_every_keyword(matrix: dict[str, Any]) -> None:
    if "typescript" not in matrix:
        pytest.skip("node or the pinned tsc is missing: the TypeScript column of the keyword matrix needs them")
    wrong = _wrong(matrix, "typescript", {"exact walk (parse<Model>)": _expect("exact"), "fast path (parse...FromJSON)": _expect("fromJSON"),
                                          "validate()": _expect("validate")})
    assert not wrong, f"{len(wrong)} wrong:\n" + "\n".join(wrong[:40])


def test_the_pydantic_models_act_on_every_keyword(matrix: dict[str, Any]) -> None:
    wrong = _wrong(matrix, "pydantic", {"model_validate_json": _expect("model_validate_json")})
    assert not wrong, f"{len(wrong)} wrong:\n" + "\n".join(wrong[:40])



# Each code target's column of the matrix (tests/test_drivers.py: every registered driver's target has one).
COLUMNS = {"python": test_python_exact_walk_fast_path_and_validate_act_on_every_keyword,
           "go": test_go_exact_walk_fast_check_and_validate_act_on_every_keyword,
           "typescript": test_typescript_exact_walk_fast_path_and_validate_act_on_every_keyword,
           "pydantic": test_the_pydantic_models_act_on_every_keyword}


def test_the_three_languages_report_the_same_errors_on_every_value_past_a_keyword(matrix: dict[str, Any]) -> None:
    wrong = []
    for i, (p, side, value) in enumerate(matrix["cases"]):
        python = matrix["python"][i]["exact"]
        for language in ("go", "typescript"):
            if language in matrix and matrix[language][i]["exact"].get("errors") != python.get("errors"):
                wrong.append(f"{p.keyword} {side} {_text(value)}: {language} {matrix[language][i]['exact']} != python {python}")
    assert not wrong, "\n".join(wrong[:20])


def test_the_docs_state_every_keyword_with_its_value(matrix: dict[str, Any]) -> None:
    page = matrix["files"][f"docs/{FORMAT}.md"]
    wrong = []
    for p in probes():
        if not p.variant.docs:
            continue
        section = page.split(f"### {p.model}\n", 1)[-1].split("\n### ", 1)[0]
        rows = [line for line in section.splitlines() if p.keyword in line and line.startswith("|")]
        if not rows:
            wrong.append(f"{p.keyword} ({p.model}): no row of the model's docs names it")
        for text in p.variant.docs:
            if not any(text in row for row in rows):
                wrong.append(f"{p.keyword} ({p.model}): its rows do not state {text!r}: {rows}")
    assert not wrong, "\n".join(wrong)


def test_the_classifier_classifies_adding_and_removing_every_keyword(tmp_path: Path) -> None:
    wrong = []
    for p in probes():
        strict = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Probe", "description": "A probe.", "x-version": "1.0.0", "$ref": "#/$defs/M",
                  "$defs": {"M": p.variant.model, "Inner": INNER}}
        loose = copy.deepcopy(strict)
        loose["$defs"]["M"] = _without(p.variant.model, p.variant.at, p.keyword)
        try:
            formats = [lower(_load(d, tmp_path / f"{p.model}_{i}", "probe")) for i, d in enumerate((loose, strict))]
        except Exception as exc:  # noqa: BLE001 - a model without the keyword may be refused (an array without items)
            if p.variant.built:
                wrong.append(f"{p.keyword} ({p.model}): the model without it does not load: {exc}")
            continue
        for name, old, new in (("adding", formats[0], formats[1]), ("removing", formats[1], formats[0])):
            if not classify(old, new):
                wrong.append(f"{p.keyword} ({p.model}): {name} it is not classified as a change")
    assert not wrong, "\n".join(wrong)

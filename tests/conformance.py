"""Generated code of any set of specs, built once and run through every language's driver.

`build(specs, folder)` writes the generated files into folder and builds each code target's driver
(DRIVERS: tests/python/driver.py, the Go driver of tests/go_driver.py, the compiled TypeScript of
tests/typescript_driver.py); then `Built.verdicts(cases)` runs [(format id, JSON text, model or
None)] through every driver and returns {target: [{"ok", "errors": [[path, message]]}]} (Python also gives each error's
"keywords"). Every driver reports a root document that parses but then fails its own
validate() or its round trip as a crash ({"crash": text}), never as a rejection; `disagreements`
counts a crash as one.

An accepted root document's verdict also holds "written", the text its language writes for the built value.

`oracle(spec_document)` is jsonschema on the spec as written: JSON Schema 2020-12 with the
two keywords chatspec asserts beyond the standard's defaults (format, with jsonschema's
format checker less a final line feed after a date-time, and contentEncoding base64),
multipleOf computed exactly on the decimals (jsonschema divides floats) and a pattern's `$` the end of the text
(ECMA-262's, not Python's: see generator/reference.py), and chatspec's x- keywords ignored.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators
from generator import string_formats
from generator.reference import KEYWORDS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON_DRIVER = HERE / "python" / "driver.py"

Case = tuple[str, "str | bytes", "str | None"]  # (format id, JSON text or raw bytes, model or None for the root)


def _python_build(folder: Path, formats: list[str]) -> Path:
    return folder / "python"


def _python_run(package: Path, cases: list[Case]) -> list[dict[str, Any]]:
    payload = json.dumps([{"format": f, "data": t, "model": m or ""} for f, t, m in cases])
    done = subprocess.run([sys.executable, "-S", str(PYTHON_DRIVER), "chatformats"], input=payload, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(package)})
    if done.returncode != 0:
        raise AssertionError(f"the Python driver failed:\n{done.stderr[-4000:]}")
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def _go_build(folder: Path, formats: list[str]) -> Path | None:
    from go_driver import build_driver, go_available

    if not go_available():
        return None
    module = re.search(r"^module (\S+)", (folder / "go" / "go.mod").read_text(encoding="utf-8"), re.M)
    assert module, f"{folder / 'go' / 'go.mod'} names no module"
    return build_driver(folder / "go", module.group(1), formats, folder / "go-driver")


def _go_run(binary: Path, cases: list[Case]) -> list[dict[str, Any]]:
    from go_driver import run_driver

    return run_driver(binary, list(cases), crashes=True, written=True)


def _typescript_build(folder: Path, formats: list[str]) -> Path | None:
    from typescript_driver import TSC, compile_package, node_available

    return compile_package(folder / "typescript") if node_available() and TSC.is_file() else None


def _typescript_run(dist: Path, cases: list[Case]) -> list[dict[str, Any]]:
    from typescript_driver import run_driver

    return run_driver(dist, list(cases), written=True)


@dataclass(frozen=True)
class Driver:
    """A code target's conformance driver: cases in, one verdict per case out ({"ok", "errors": [[path,
    message]]} or {"crash": text}), with Python's paths and messages."""

    target: str  # the registered target (generator.targets.REGISTRY) whose generated code it runs
    label: str  # its language, as the suites' messages name it
    build: Callable[[Path, list[str]], Path | None]  # the generated tree -> what runs it; None: its toolchain is missing
    run: Callable[[Path, list[Case]], list[dict[str, Any]]]
    needs: str  # what build needs, for the message when it is missing


# Every suite that judges generated code through Built (the golden cases' differential test, random specs, the
# keyword reference's examples, encodings, compare rules) runs every driver here, so a code target registered in
# generator/targets is held to all of them by adding its driver; test_drivers requires one per vendorable target.
DRIVERS: tuple[Driver, ...] = (
    Driver("python", "Python", _python_build, _python_run, "Python"),
    Driver("go", "Go", _go_build, _go_run, "Go"),
    Driver("typescript", "TypeScript", _typescript_build, _typescript_run, "node and the pinned tsc (make test installs it)"),
)


def generated_files() -> dict[str, str]:
    """The committed generated/ trees of every driver's target (make check holds them to specs/), as build takes them."""
    generated = ROOT / "generated"
    return {p.relative_to(generated).as_posix(): p.read_text(encoding="utf-8")
            for d in DRIVERS for p in (generated / d.target).rglob("*") if p.is_file()}


@dataclass(frozen=True)
class Built:
    folder: Path  # the generated tree: python/, go/, typescript/
    formats: tuple[str, ...]
    built: dict[str, Path]  # target -> what its driver built; a target whose toolchain is missing is not here

    @property
    def languages(self) -> set[str]:
        return set(self.built)

    @property
    def go_binary(self) -> Path | None:
        return self.built.get("go")

    @property
    def ts_dist(self) -> Path | None:
        return self.built.get("typescript")

    def run(self, target: str, cases: list[Case]) -> list[dict[str, Any]] | None:
        driver = next(d for d in DRIVERS if d.target == target)
        return driver.run(self.built[target], cases) if target in self.built else None

    def python(self, cases: list[Case]) -> list[dict[str, Any]]:
        return _python_run(self.built["python"], cases)

    def go(self, cases: list[Case]) -> list[dict[str, Any]] | None:
        return self.run("go", cases)

    def typescript(self, cases: list[Case]) -> list[dict[str, Any]] | None:
        return self.run("typescript", cases)

    def others(self) -> list[Driver]:
        """The drivers built beside Python's, which the suites hold to Python's paths and messages."""
        return [d for d in DRIVERS if d.target != "python" and d.target in self.built]

    def verdicts(self, cases: list[Case]) -> dict[str, list[dict[str, Any]]]:
        """{target: [verdict]} from every driver built; a verdict is {"ok", "errors"} or {"crash": text} (see the module docstring)."""
        return {d.target: d.run(self.built[d.target], cases) for d in DRIVERS if d.target in self.built}

    def against(self, cases: list[Case], wants: list[list[list[str]]]) -> list[str]:
        """Each language's errors ([path, message] pairs, or its crash) on each case where they are not the
        oracle's (wants: one list per case); every driver must have run."""
        found = self.verdicts(cases)
        assert set(found) == self.languages, (set(found), self.languages)
        wrong = []
        for i, want in enumerate(wants):
            for language, verdicts in found.items():
                got = verdicts[i].get("crash") or verdicts[i]["errors"]
                if got != want:
                    wrong.append(f"{language} on {cases[i][1]}:\n    got  {got}\n    want {want}")
        return wrong


def disagreements(cases: list[Case], found: dict[str, list[dict[str, Any]]], oracles: dict[str, Any],
                  beyond: frozenset[str] = frozenset({"int64", "depth", "member_of", "compare"})) -> list[str]:
    """What is wrong with the verdicts on each case: a crash; a language whose errors (paths and messages) are not
    Python's; an oracle ({format id: [(name, jsonschema validator)]}) whose verdict is not Python's, unless it
    accepts and every Python error is a check chatspec makes beyond it (beyond: error keywords)."""
    out = []
    for i, (fid, text, _) in enumerate(cases):
        crashed = [f"{language}: {v[i]['crash']}" for language, v in found.items() if "crash" in v[i]]
        if crashed:
            out.append(f"{fid}: {text[:300]}\n    crashed in " + "\n    ".join(c[:1500] for c in crashed))
            continue
        py = found["python"][i]
        for language, verdicts in found.items():
            if (verdicts[i]["ok"], verdicts[i]["errors"]) != (py["ok"], py["errors"]):
                out.append(f"{fid}: {text[:300]}\n    {language} {verdicts[i]['errors'] or 'valid'}, Python {py['errors'] or 'valid'}")
        doc = json.loads(text)
        for name, validator in oracles[fid]:
            ok = validator.is_valid(doc)
            if ok != py["ok"] and not (ok and set(py["keywords"]) <= beyond):
                out.append(f"{fid}: {text[:300]}\n    jsonschema on {name}: {'valid' if ok else 'invalid'}, Python {py['errors'] or 'valid'}")
    return out


def write_files(files: dict[str, str], folder: Path) -> None:
    """Write generate()'s files under folder, as generate writes them."""
    for path, text in files.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")


def build(files: dict[str, str], formats: list[str], folder: Path) -> Built:
    """Write generate()'s files under folder and build what runs them: every driver whose toolchain is here (in CI,
    where .ci/run installs them all, a missing one fails: a target that skips the suites cannot be green)."""
    write_files(files, folder)
    built = {}
    for driver in DRIVERS:
        found = driver.build(folder, formats)
        if found is not None:
            built[driver.target] = found
        elif os.environ.get("CI"):
            raise AssertionError(f"the {driver.target} driver needs {driver.needs}, which CI installs")
    return Built(folder, tuple(formats), built)


def _content_encoding(validator: Any, encoding: str, instance: Any, schema: dict[str, Any]) -> Any:
    from generator.export import BASE64_PATTERN

    if encoding == "base64" and isinstance(instance, str) and not re.search(BASE64_PATTERN, instance):
        yield ValidationError(f"{instance!r} is not padded base64")


_Oracle = validators.extend(Draft202012Validator, {**KEYWORDS, "contentEncoding": _content_encoding})
FORMATS = copy.deepcopy(Draft202012Validator.FORMAT_CHECKER)


@FORMATS.checks("date-time")
def _date_time(instance: object) -> bool:
    """jsonschema's own date-time check (rfc3339-validator on the upper-cased text), less a final line
    feed, which that check's pattern lets through (it ends in `$`): "2024-01-15T10:30:00Z\n" is no date-time."""
    from rfc3339_validator import validate_rfc3339

    return not isinstance(instance, str) or (not instance.endswith("\n") and bool(validate_rfc3339(instance.upper())))


# The formats chatspec asserts, and no other (any other is an annotation): date and uuid as jsonschema checks them,
# uri and uri-reference with rfc3986-validator (jsonschema's own choice, an RFC 3986 grammar of its own), date-time
# above. jsonschema's time refuses every leap second and its email asks only for an "@": for those two the oracle
# is the Python runtime's format_ok, which tests/test_formats_runtime.py holds to the suite's optional format files.
for _name in set(FORMATS.checkers) - {"date-time", "date", "uuid", "uri", "uri-reference"}:
    del FORMATS.checkers[_name]
assert {"date", "uuid", "uri", "uri-reference"} <= set(FORMATS.checkers), "rfc3986-validator is not installed"
for _name in ("time", "email"):
    FORMATS.checks(_name)(lambda instance, _name=_name: not isinstance(instance, str) or string_formats.checker().conforms(instance, _name))
# jsonschema's uuid check is uuid.UUID's reading, which drops extra hyphens and takes int()'s underscores: beside its
# own check of the four hyphens' places, "12345678-1234-1234-1234-12345678901-2" passed (red team round 7). RFC 9562's
# text form is 8-4-4-4-12 hex digits and nothing else, which chatspec checks.
_uuid = FORMATS.checkers["uuid"][0]
FORMATS.checks("uuid", raises=ValueError)(
    lambda instance: not isinstance(instance, str) or (bool(_uuid(instance)) and re.fullmatch(r"[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}", instance) is not None)
)
# rfc3986-validator's patterns end in `$` too, which lets one final line feed through: "a:b\n" is no URI.
for _name in ("uri", "uri-reference"):
    _check = FORMATS.checkers[_name][0]
    FORMATS.checks(_name)(lambda instance, _check=_check: not isinstance(instance, str) or (not instance.endswith("\n") and bool(_check(instance))))


def oracle(document: dict[str, Any]) -> Any:
    """jsonschema on the spec as written (see the module docstring); .is_valid(instance)."""
    return _Oracle(document, format_checker=FORMATS)


def with_x_open(document: dict[str, Any]) -> dict[str, Any]:
    """The spec as written with x-open's meaning stated in standard keywords, which jsonschema cannot read from an
    x- keyword (the test's own statement of it, not the export's): an open enum takes any other string, an open
    union (x-discriminator) any object whose tag is a string no variant has."""
    import copy

    doc = copy.deepcopy(document)
    default = doc.get("x-open", False)
    defs = doc["$defs"]

    def tag_values(variants: list[Any], tag: str) -> list[str]:
        return [defs[v["$ref"].split("/")[-1]]["properties"][tag]["const"] for v in variants]

    def walk(node: Any, named_enum: bool) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, False)
            return
        if not isinstance(node, dict):
            return
        opened = node.get("x-open", default)
        if named_enum and opened and "enum" in node:
            node["anyOf"] = [{"enum": node.pop("enum")}, {"type": "string"}]
        if opened and "x-discriminator" in node:
            key = "oneOf" if "oneOf" in node else "anyOf"
            tag = node["x-discriminator"]
            other = {"type": "string", "not": {"enum": tag_values(node[key], tag)}}
            node[key].append({"type": "object", "properties": {tag: other}, "required": [tag]})
        for key, value in list(node.items()):
            if key != "$defs" and not key.startswith("x-"):
                walk(value, False)

    for entry in defs.values():
        walk(entry, isinstance(entry, dict) and entry.get("type") == "string")
    return doc


def generation_schema(document: dict[str, Any]) -> dict[str, Any]:
    """The spec as written in the form hypothesis-jsonschema draws from: x- keywords left out,
    tuples as draft-07 item arrays (it predates 2020-12)."""

    def convert(schema: Any) -> Any:
        if isinstance(schema, list):
            return [convert(s) for s in schema]
        if not isinstance(schema, dict):
            return schema
        out = {}
        for key, value in schema.items():
            if key.startswith("x-"):
                continue
            if key in ("enum", "const", "default", "examples"):
                out[key] = value
            elif key in ("properties", "$defs"):
                out[key] = {k: convert(v) for k, v in value.items()}
            elif key == "oneOf":
                # Drawn as anyOf: hypothesis-jsonschema filters oneOf's draws for exclusivity, which takes
                # minutes on recursive unions; the instances need only be plausible, the oracle judges them.
                out["anyOf"] = convert(value)
            else:
                out[key] = convert(value)
        if "prefixItems" in out:
            after = out.pop("items", True)
            out["items"] = out.pop("prefixItems")
            if after is not True:
                out["additionalItems"] = after
        if out.get("contentEncoding") == "base64":
            out["pattern"] = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z"
        return out

    converted: dict[str, Any] = convert(inline_refs(document))
    converted["$schema"] = "http://json-schema.org/draft-07/schema#"
    return converted


def _at_pointer(document: Any, ref: str) -> Any:
    """What a local $ref ("#/$defs/A/properties/b", percent-encoded and JSON pointer escaped) points at."""
    from urllib.parse import unquote

    found = document
    for token in ref.removeprefix("#").split("/")[1:]:
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        found = found[int(token)] if isinstance(found, list) else found[token]
    return found


def inline_refs(document: dict[str, Any], depth: int = 2) -> dict[str, Any]:
    """The document with every local $ref replaced by its target, recursion unrolled `depth` times and
    cut off below with `false` (hypothesis-jsonschema cannot draw from recursive references). What only
    holds definitions ($defs, draft-07's definitions, an OpenAPI document's components) is left out."""

    def walk(schema: Any, trail: tuple[str, ...]) -> Any:
        if isinstance(schema, list):
            return [walk(s, trail) for s in schema]
        if not isinstance(schema, dict):
            return schema
        out = {}
        for key, value in schema.items():
            if key in ("enum", "const", "default", "examples", "$defs"):
                out[key] = value if key != "$defs" else {}
            elif key == "$ref":
                continue
            elif key in ("properties", "patternProperties"):
                out[key] = {k: walk(v, trail) for k, v in value.items()}
            else:
                out[key] = walk(value, trail)
        if "$ref" in schema:
            name = schema["$ref"]
            target = walk(_at_pointer(document, name), (*trail, name)) if trail.count(name) < depth else False
            if target is False:
                return False
            return {"allOf": [target, out]} if set(out) - {"description", "title"} else target
        return out

    holders = ("$defs", "definitions", "components")
    result: dict[str, Any] = walk({k: v for k, v in document.items() if k not in holders}, ())
    return result

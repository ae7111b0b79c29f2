"""make bench's typia peer: each format's exported JSON Schema written as TypeScript types with typia's tags,
its x-rules written by hand (tests/bench_typescript/typia_rules.ts), compiled by `typia generate` and tsc.

typia checks a TypeScript type, so the types must say what the schema says: the converter below reads the schema
as tests/peer_schema.py does (any keyword it does not write is refused; the rules, the schema's allOf, are left to
typia_rules.ts, written as a typia user writes such checks). bench.mjs then requires typia's verdict to be
chatspec's on every example, valid and invalid, of every format before it times anything.

Where typia checks less than the schema says, and no example tells: `MinLength` counts UTF-16 code units, not code
points; its date-time pattern takes a space for the T and a 30 February (chatspec, and Ajv with chatspec's
date-time check, refuse both). That leaves typia less work, not more.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from peer_schema import INT64, Unsupported, closed_tuple, properties, shape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RULES = HERE / "bench_typescript" / "typia_rules.ts"


def _literal(value: Any) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return json.dumps(value)
    raise Unsupported(f"a const or enum member {value!r}")


def _tags(schema: dict[str, Any], kind: str) -> list[str]:
    tags = []
    if kind == "string":
        if "minLength" in schema:
            tags.append(f"tags.MinLength<{schema['minLength']}>")
        if "maxLength" in schema:
            tags.append(f"tags.MaxLength<{schema['maxLength']}>")
        if "pattern" in schema:
            tags.append(f"tags.Pattern<{json.dumps(schema['pattern'])}>")
        if "format" in schema:
            if schema["format"] != "date-time":
                raise Unsupported(f"format {schema['format']}")
            tags.append('tags.Format<"date-time">')
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if kind == "integer":
            tags.append('tags.Type<"int64">')  # an integer, and within int64's range
        if low is not None and (kind == "number" or low > INT64[0]):
            tags.append(f"tags.Minimum<{low}>")
        if high is not None and (kind == "number" or high < INT64[1]):
            tags.append(f"tags.Maximum<{high}>")
    if kind == "array":
        if "minItems" in schema:
            tags.append(f"tags.MinItems<{schema['minItems']}>")
        if "maxItems" in schema:
            tags.append(f"tags.MaxItems<{schema['maxItems']}>")
        if schema.get("uniqueItems"):
            tags.append("tags.UniqueItems")
    return tags


def _type(schema: Any, closed: list[bool]) -> str:
    """The TypeScript type with typia tags for one schema; `closed` gathers each object's additionalProperties."""
    what, detail = shape(schema)
    if what == "any":
        return "unknown"
    if what == "ref":
        return str(detail)
    if what == "union":
        return " | ".join(f"({_type(member, closed)})" for member in detail)
    return " | ".join(f"({_one_kind(keywords, kind, closed)})" for kind, keywords in detail)


def _one_kind(schema: dict[str, Any], kind: str, closed: list[bool]) -> str:
    if kind == "null":
        return "null"
    if "const" in schema:
        return _literal(schema["const"])
    if "enum" in schema:
        return " | ".join(_literal(v) for v in schema["enum"])
    base = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean", "array": "", "object": ""}[kind]
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(_type(s, closed) for s in closed_tuple(schema)) + "]"
        base = f"Array<{_type(schema.get('items', True), closed)}>"
    if kind == "object":
        if "properties" not in schema:
            return f"Record<string, {_type(schema.get('additionalProperties', True), closed)}>"
        fields, required, is_closed = properties(schema)
        closed.append(is_closed)
        written = [f"{json.dumps(name)}{'' if name in required else '?'}: {_type(s, closed)};" for name, s in fields.items()]
        return "{ " + " ".join(written) + " }"
    return " & ".join([base] + _tags(schema, kind))


def typia_module(schema: dict[str, Any], rules: str) -> str:
    """The TypeScript of one format for `typia generate`: its types, and `check(tree)`, typia's check (`equals`
    where every object is closed, `is` where every object is open) then the format's rules, on what bench.mjs read
    from the text (JSON.parse, by chatspec's input policy)."""
    closed: list[bool] = []
    lines = ['import typia, { tags } from "typia";', f'import {{ {rules} as rules }} from "./typia_rules.js";', ""]
    for name, definition in schema["$defs"].items():
        lines.append(f"export type {name} = {_type(definition, closed)};")
    root = _type({"$ref": schema["$ref"]}, closed)
    if len(set(closed)) != 1:
        raise Unsupported("a format with open and closed objects (typia's equals holds every object closed)")
    check = "createEquals" if closed[0] else "createIs"
    lines += ["", f"const fits = typia.{check}<{root}>();", "",
              "export function check(value: unknown): boolean {",
              "  return fits(value) && rules(value);",
              "}", ""]
    return "\n".join(lines)


def version(npm: Path) -> str:
    """The typia the Makefile installed (TYPIA_VERSION), for the table's heading."""
    return str(json.loads((npm / "typia" / "package.json").read_text(encoding="utf-8"))["version"])


def build(work: Path, schemas: dict[str, Path], npm: Path) -> Path:
    """typia generate (templates/ to src/; the rules file, which calls no typia function, comes through as it is),
    then tsc, in `work`; returns the folder of `<format>.js` modules for bench.mjs."""
    templates, src = work / "templates", work / "src"
    templates.mkdir(parents=True)
    for fmt, path in schemas.items():
        name = "rules" + "".join(part.title() for part in fmt.split("_"))
        (templates / f"{fmt}.ts").write_text(typia_module(json.loads(path.read_text(encoding="utf-8")), name), encoding="utf-8")
    (templates / "typia_rules.ts").write_text(RULES.read_text(encoding="utf-8"), encoding="utf-8")
    (work / "package.json").write_text('{"private": true, "type": "module"}\n', encoding="utf-8")
    (work / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "lib": ["ES2022"], "types": [],
        "strict": True, "skipLibCheck": True, "rootDir": "src", "outDir": "dist"}, "include": ["src"]}), encoding="utf-8")
    if not (work / "node_modules").exists():
        os.symlink(npm, work / "node_modules")  # typia's generated code imports typia's own helpers
    for command in (["node", str(npm / "typia" / "lib" / "executable" / "typia.js"), "generate", "--input", str(templates),
                     "--output", str(src), "--project", str(work / "tsconfig.json")],
                    ["node", str(npm / "typescript" / "bin" / "tsc"), "-p", str(work), "--pretty", "false"]):
        done = subprocess.run(command, cwd=work, capture_output=True, text=True)
        if done.returncode != 0 or "error" in done.stdout.lower():
            raise AssertionError(f"{' '.join(command[:3])} failed:\n{done.stdout[-4000:]}{done.stderr[-2000:]}")
    return work / "dist"


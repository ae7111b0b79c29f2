"""Runs cases through a generated Python package and prints the verdicts (tests/conformance.py).

stdin: [{"format": id, "model": name or "", "data": JSON text | "b64": base64 of bytes}]; stdout: [{"ok", "errors": [[path, message]],
"keywords": [...]} | {"crash": text}]; an accepted root document's verdict also has "written", its to_json text. Run with the package's folder first on sys.path and -S: the generated
modules need nothing but the standard library.

A root document that parses must also validate as built, and its to_dict/from_dict and to_json round trip must
give the same document: a failure there is a crash, never a rejection, so a parse that wrongly accepts cannot
look like a correct rejection.
"""

import base64
import importlib
import json
import sys
import traceback


def verdict(package: str, case: dict) -> dict:
    mod = importlib.import_module(f"{package}.{case['format']}")
    model = case.get("model") or ""
    name = model or mod.__dict__[f"parse_{case['format']}_from_json"].__annotations__["return"]
    from_dict, from_json, to_dict, to_json, validate = _functions(mod, name)
    parse = from_json if model else getattr(mod, f"parse_{case['format']}_from_json")
    try:
        doc = parse(base64.b64decode(case["b64"]) if "b64" in case else case["data"])
    except mod.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message] for e in exc.errors], "keywords": [e.keyword for e in exc.errors]}
    except Exception:  # noqa: BLE001 - anything else is the finding
        return {"crash": traceback.format_exc(limit=-3)}
    try:
        validate(doc)
        again = from_dict(to_dict(doc))
        if to_json(again) != to_json(doc):
            raise AssertionError(f"round trip changed the document: {to_json(doc)} -> {to_json(again)}")
        validate(from_json(to_json(doc)))
    except Exception:  # noqa: BLE001 - a ValidationError here is a crash too
        return {"crash": "parse accepted, then: " + traceback.format_exc(limit=-3)}
    verdict = {"ok": True, "errors": [], "keywords": []}
    if not model:
        verdict["written"] = to_json(doc)
    return verdict


def _functions(mod, name: str) -> tuple:
    """from_dict, from_json, to_dict, to_json and validate of a definition: a model's methods, else the module's
    functions that take it (e.g. messages_from_json for Messages)."""
    cls = getattr(mod, name)
    if isinstance(cls, type) and hasattr(cls, "from_dict"):
        return cls.from_dict, cls.from_json, cls.to_dict, cls.to_json, cls.validate
    snake = next(n[len("validate_"):] for n in mod.__all__ if n.startswith("validate_") and mod.__dict__[n].__annotations__["value"] == name)
    return tuple(getattr(mod, n) for n in (f"{snake}_from_dict", f"{snake}_from_json", f"{snake}_to_dict", f"{snake}_to_json", f"validate_{snake}"))


def main() -> None:
    package = sys.argv[1]
    cases = json.load(sys.stdin)
    json.dump([verdict(package, c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()

"""Runs cases through a generated Python package and prints the verdicts (tests/conformance.py).

stdin: [{"format": id, "model": name or "", "data": JSON text | "b64": base64 of bytes}]; stdout: [{"ok", "errors": [[path, message]],
"keywords": [...]} | {"crash": text}]. Run with the package's folder first on sys.path and -S: the generated
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
    parse = getattr(mod, model).from_json if model else getattr(mod, f"parse_{case['format']}_from_json")
    try:
        doc = parse(base64.b64decode(case["b64"]) if "b64" in case else case["data"])
    except mod.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message] for e in exc.errors], "keywords": [e.keyword for e in exc.errors]}
    except Exception:  # noqa: BLE001 - anything else is the finding
        return {"crash": traceback.format_exc(limit=-3)}
    try:
        doc.validate()
        again = type(doc).from_dict(doc.to_dict())
        if again.to_json() != doc.to_json():
            raise AssertionError(f"round trip changed the document: {doc.to_json()} -> {again.to_json()}")
        type(doc).from_json(doc.to_json()).validate()
    except Exception:  # noqa: BLE001 - a ValidationError here is a crash too
        return {"crash": "parse accepted, then: " + traceback.format_exc(limit=-3)}
    return {"ok": True, "errors": [], "keywords": []}


def main() -> None:
    package = sys.argv[1]
    cases = json.load(sys.stdin)
    json.dump([verdict(package, c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()

"""The keyword matrix's Python driver (tests/test_keyword_matrix.py): each code path of the generated
Python on its own.

stdin: [{"model": class, "loose": class or "", "field": root field, "data": JSON text}]; stdout, per case:
{"exact": verdict, "fast": "built" | "stepped aside" | "rejected", "check": same, "validate": verdict or None}
where a verdict is {"ok", "errors": [[path, message]], "keywords": [...]}. "check" and "validate" are the
fast check and validate() of a value built in code: the loose twin (the model without the keyword) parses
the value, and its attributes are handed to the strict model's constructor, as code that builds values does.
Run with -S and the package's folder on PYTHONPATH.
"""

import dataclasses
import importlib
import json
import re
import sys
import traceback


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def verdict(call) -> dict:
    mod = importlib.import_module("chatformats.keyword_matrix")
    try:
        call()
    except mod.ValidationError as exc:
        return {"ok": False, "errors": [[e.path, e.message] for e in exc.errors], "keywords": [e.keyword for e in exc.errors]}
    except Exception:  # noqa: BLE001 - anything else is the finding
        return {"crash": traceback.format_exc(limit=-3)}
    return {"ok": True, "errors": [], "keywords": []}


def quick(call) -> str:
    mod = importlib.import_module("chatformats.keyword_matrix")
    try:
        call()
    except mod._rt.Unsure:
        return "stepped aside"
    except mod.ValidationError:
        return "rejected"
    except Exception:  # noqa: BLE001
        return "crash: " + traceback.format_exc(limit=-3)
    return "built"


def run(case: dict) -> dict:
    mod = importlib.import_module("chatformats.keyword_matrix")
    rt = mod._rt
    words = snake(case["model"])
    data = rt.load_json(case["data"])
    out = {
        "exact": verdict(lambda: rt.parse(getattr(mod, f"_parse_{words}"), data)),
        "fast": quick(lambda: getattr(mod, f"_fast_{words}")(data, 0)),
        "check": None,
        "validate": None,
    }
    if case["loose"]:
        loose = getattr(mod, case["loose"]).from_dict(data)
        strict = getattr(mod, case["model"])(**{f.name: getattr(loose, f.name) for f in dataclasses.fields(loose)})
        out["check"] = quick(lambda: getattr(mod, f"_check_{words}")(strict, 0))
        out["validate"] = verdict(strict.validate)
    return out


def main() -> None:
    json.dump([run(case) for case in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()

"""load: read a spec file and check it against JSON Schema 2020-12 and chatspec's meta-schema."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
import functools
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from generator import cache
from generator.errors import SpecError, pointer_of


@dataclass(frozen=True)
class LoadedSpec:
    format_id: str  # e.g. "droidlet_chat" (the spec's folder name)
    path: str  # as shown in messages, e.g. "specs/droidlet_chat/spec.json"
    document: dict[str, Any]
    examples_valid: tuple[tuple[str, Any], ...]  # (file name, data)
    examples_invalid: tuple[tuple[str, dict[str, Any]], ...]  # (file name, {description, data, errors})


@functools.cache
def meta_schema() -> dict[str, Any]:
    text = resources.files("generator").joinpath("metaschema/chatspec.schema.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


# Hints by the meta-schema check that failed: what the user should do.
_HINTS = {
    "additionalProperties": "remove it, or use one of the keywords chatspec supports (see generator/metaschema/chatspec.schema.json)",
    "required": "add the missing keyword",
    "type": "change the value to the expected JSON type",
    "enum": "use one of the listed values",
    "const": "use the value shown",
    "pattern": "change the value so it matches the pattern",
    "propertyNames": "rename the key",
    "oneOf": "check the rule's 'kind' and that it has exactly the keys that kind takes",
    "minItems": "add items",
    "uniqueItems": "remove the duplicates",
    "format": "fix the value's syntax",
}


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads would silently keep the last of two equal keys (e.g. two models of one name).
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _parse_json(text: str, shown: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise SpecError(
            shown, "", f"invalid JSON: {exc.msg}", "fix the JSON syntax at that line and column",
            line=exc.lineno, column=exc.colno,
        ) from None
    except _DuplicateKey as exc:
        # The second occurrence is the one to look at.
        found = list(re.finditer(re.escape(json.dumps(exc.key)) + r"\s*:", text))
        at = found[1].start() if len(found) > 1 else 0
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise SpecError(shown, "", f"duplicate key {exc.key!r} in one object (JSON would keep only the last)",
                        "rename or remove one of them", line=line, column=column) from None


def _explain(error: jsonschema.ValidationError) -> tuple[str, str]:
    """A readable problem + hint for one meta-schema failure."""
    if error.validator == "oneOf" and isinstance(error.instance, dict) and "kind" in error.instance:
        kinds = error.schema.get("properties", {}).get("kind", {}).get("enum", [])
        return (f"rule kind {error.instance['kind']!r} is unknown, or the rule has keys its kind does not take",
                f"use one of the kinds {', '.join(kinds)} with exactly the keys it takes (see the meta-schema)")
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = sorted(k for k in error.instance if k not in allowed)
        return f"unsupported keyword {', '.join(repr(k) for k in extra)}", _HINTS["additionalProperties"]
    return error.message, _HINTS.get(str(error.validator), "see the chatspec meta-schema")


def check_document(document: Any, shown: str) -> None:
    """Raise SpecError for the first problem the two meta-schemas find."""
    # A verdict never changes for the same document: remember the documents that passed.
    parts = [*cache.tool_versions("jsonschema", "rfc3339-validator"), json.dumps(meta_schema(), sort_keys=True), json.dumps(document, sort_keys=True)]
    cache.memo("spec-check", parts, lambda: _check_document(document, shown))


def _check_document(document: Any, shown: str) -> bool:
    errors = list(Draft202012Validator(meta_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER).iter_errors(document))
    if errors:
        error = best_match(errors)
        problem, hint = _explain(error)
        raise SpecError(shown, pointer_of(*error.absolute_path), problem, hint)
    try:
        Draft202012Validator.check_schema(document)
    except jsonschema.SchemaError as exc:
        raise SpecError(shown, pointer_of(*exc.absolute_path), exc.message, "make it a valid JSON Schema 2020-12 document") from None
    return True


def _read_examples(folder: Path, root: Path) -> list[tuple[str, Any]]:
    if not folder.is_dir():
        return []
    return [
        (p.stem, _parse_json(p.read_text(encoding="utf-8"), _shown(p, root)))
        for p in sorted(folder.glob("*.json"))
    ]


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def load_spec(spec_dir: Path, root: Path, format_id: str | None = None) -> LoadedSpec:
    """Load <spec_dir>/spec.json and its examples; root makes paths in messages relative.

    The format id is the folder's name unless given (a release snapshot's folder is its version).
    """
    spec_path = spec_dir / "spec.json"
    shown = _shown(spec_path, root)
    try:
        text = spec_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(shown, "", f"cannot read the spec: {exc.strerror}", "create spec.json in the format's folder") from None
    document = _parse_json(text, shown)
    check_document(document, shown)
    invalid = _read_examples(spec_dir / "examples" / "invalid", root)
    for name, case in invalid:
        shown_case = _shown(spec_dir / "examples" / "invalid" / f"{name}.json", root)
        if not (isinstance(case, dict) and "data" in case and isinstance(case.get("errors"), list) and case["errors"]):
            raise SpecError(shown_case, "", "an invalid example must be an object with 'data' and a non-empty 'errors' list",
                            'write {"description": ..., "data": <the payload>, "errors": [{"path": ..., "message": ...}]}')
    return LoadedSpec(
        format_id=format_id or spec_dir.name,
        path=shown,
        document=document,
        examples_valid=tuple(_read_examples(spec_dir / "examples" / "valid", root)),
        examples_invalid=tuple(invalid),
    )

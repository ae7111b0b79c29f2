"""load: read a spec file and check it against JSON Schema 2020-12 and chatspec's meta-schema."""

from __future__ import annotations

import functools
import json
import math
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema.validators
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from generator import cache, checks, invisible, message_keys, patterns
from generator.behaviour import Behaviour, load_sets
from generator.errors import SpecError, did_you_mean, pointer_of
from generator.naming import format_id_problem


@dataclass(frozen=True)
class LoadedSpec:
    format_id: str  # e.g. "droidlet_chat" (the spec's folder name)
    path: str  # as shown in messages, e.g. "specs/droidlet_chat/spec.json"
    document: dict[str, Any]
    examples_valid: tuple[tuple[str, Any], ...]  # (file name, data)
    examples_invalid: tuple[tuple[str, dict[str, Any]], ...]  # (file name, {description, data, errors})
    # Every behaviour set of the format's folder (specs/<format>/behaviour/), e.g. one for majors [1];
    # a release snapshot reads its format folder's, so an earlier major keeps what applies to it.
    behaviours: tuple[Behaviour, ...] = ()


@functools.cache
def meta_schema_text() -> str:
    return resources.files("generator").joinpath("metaschema/chatspec.schema.json").read_text(encoding="utf-8")


@functools.cache
def meta_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(meta_schema_text())
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


def _line_column(text: str, at: int) -> tuple[int, int]:
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def _unclosed(text: str) -> int | None:
    """The offset of the first '{' or '[' that is never closed (strings skipped), if any."""
    stack: list[int] = []
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append(i)
        elif ch in "}]" and stack:
            stack.pop()
    return stack[0] if stack else None


def _syntax_problem(text: str, exc: json.JSONDecodeError) -> tuple[int, str, str]:
    """Where a JSON syntax error really is, what it is and how to fix it: (offset, problem, hint).

    Python's parser reports where it gave up, which is often the token after the mistake:
    a missing comma shows on the next line, a trailing comma at the closing bracket.
    """
    before = text[: exc.pos].rstrip()
    previous = before[-1:] if before else ""
    upcoming = text[exc.pos : exc.pos + 1]
    if exc.pos >= len(text.rstrip()) and exc.msg != "Unterminated string starting at":
        opener = _unclosed(text)
        if opener is not None:
            line, column = _line_column(text, opener)
            closer = "}" if text[opener] == "{" else "]"
            return (
                len(before),
                f"invalid JSON: the file ends inside the {text[opener]!r} opened at line {line} column {column}",
                f"add the missing {closer!r}",
            )
    if previous == "," and (upcoming in "}]" or exc.msg.startswith("Expecting property name")) and upcoming:
        return (len(before) - 1, "invalid JSON: a trailing comma (JSON allows no comma before a closing bracket)", "remove this comma")
    if exc.msg == "Expecting ',' delimiter" and before:
        return (
            len(before),
            f"invalid JSON: a ',' is missing after this value (the next one starts at line {exc.lineno} column {exc.colno})",
            "add a ',' here",
        )
    if exc.msg == "Expecting ':' delimiter" and before:
        return len(before), "invalid JSON: a ':' is missing after this key", "add a ':' and the value"
    plain = {
        "Unterminated string starting at": ("a string starts here and is never closed", "add the closing '\"'"),
        "Invalid control character at": ("a raw control character (e.g. a line break) inside a string", "write it escaped, e.g. \\n"),
        "Extra data": ("text after the end of the JSON document", "remove it, or wrap both values in one array or object"),
        "Expecting value": (
            "a value is expected here",
            "write a JSON value: a string in double quotes, a number, true, false, null, [...] or {...}",
        ),
    }
    problem, hint = plain.get(exc.msg, (exc.msg, "fix the JSON syntax at that line and column"))
    return exc.pos, f"invalid JSON: {problem}", hint


def _parse_json(text: str, shown: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise SpecError(
            shown, "", "the JSON nests too deeply to read", "flatten the document (a spec or example needs only a few levels)"
        ) from None
    except json.JSONDecodeError as exc:
        at, problem, hint = _syntax_problem(text, exc)
        line, column = _line_column(text, at)
        # A syntax error has no JSON pointer: there is no document yet.
        raise SpecError(shown, None, problem, hint, line=line, column=column) from None
    except _DuplicateKey as exc:
        # The second occurrence is the one to look at.
        found = list(re.finditer(re.escape(json.dumps(exc.key)) + r"\s*:", text))
        at = found[1].start() if len(found) > 1 else 0
        line, column = _line_column(text, at)
        raise SpecError(
            shown,
            None,
            f"duplicate key {exc.key!r} in one object (JSON would keep only the last)",
            "rename or remove one of them",
            line=line,
            column=column,
        ) from None
    except ValueError:
        # Python refuses to read integers longer than sys.get_int_max_str_digits() (4300 digits).
        long_number = re.search(r"(?<![0-9.eE+-])-?[0-9]{%d,}" % (sys.get_int_max_str_digits() + 1), text)
        at = long_number.start() if long_number else 0
        line, column = _line_column(text, at)
        digits = len(long_number.group().lstrip("-")) if long_number else 0
        raise SpecError(
            shown,
            "",
            f"a number with {digits} digits: no target can hold it (and Python reads at most {sys.get_int_max_str_digits()})",
            "write a number that fits in 64 bits",
            line=line,
            column=column,
        ) from None


INT64 = (-(2**63), 2**63 - 1)


def check_values(value: Any, shown: str, numbers: bool = True) -> None:
    """Refuse values no target can emit: non-finite numbers, integers beyond 64 bits, U+FEFF and lone surrogates.

    `numbers` is False for examples, whose numbers are data a runtime must judge, not code to emit.
    """
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, dict):
            for key, sub in reversed(item.items()):
                _check_text(key, shown, (*path, key), "key")
                stack.append(((*path, key), sub))
        elif isinstance(item, list):
            stack.extend(((*path, i), sub) for i, sub in reversed(list(enumerate(item))))
        elif isinstance(item, str):
            _check_text(item, shown, path, "text")
        elif isinstance(item, float) and not math.isfinite(item):
            spelled = "NaN" if math.isnan(item) else ("-" if item < 0 else "") + "Infinity"
            how = "" if spelled == "NaN" else f" (written as {spelled}, or a number too large for a 64-bit float, e.g. 1e400)"
            raise SpecError(
                shown,
                pointer_of(*path),
                f"{spelled} is not a JSON number{how}",
                "write a finite number, at most 1.7976931348623157e308 in size",
            )
        elif numbers and isinstance(item, int) and not isinstance(item, bool) and not INT64[0] <= item <= INT64[1]:
            raise SpecError(
                shown,
                pointer_of(*path),
                f"the integer {item} does not fit in 64 bits, and every target holds integers as int64",
                f"use an integer from {INT64[0]} to {INT64[1]} (or write a number field's value as a float, e.g. 1e20)",
            )


def _check_text(text: str, shown: str, path: tuple[str | int, ...], what: str) -> None:
    for i, ch in enumerate(text):
        if ch == "\ufeff":
            raise SpecError(
                shown,
                pointer_of(*path),
                f"the {what} {text[:40]!r} holds U+FEFF (a byte order mark) at character {i + 1}, which generated code and docs would carry invisibly",
                "remove it (write U+2060 WORD JOINER if a zero-width no-break space is meant)",
            )
        if "\ud800" <= ch <= "\udfff":
            raise SpecError(
                shown,
                pointer_of(*path),
                f"the {what} {text[:40]!r} holds a lone surrogate \\u{ord(ch):04x} at character {i + 1}, which no UTF-8 text can hold",
                "remove it, or write the whole character (both halves of a surrogate pair, or the character itself)",
            )


def _explain(error: jsonschema.ValidationError) -> tuple[str, str]:
    """A readable problem + hint for one meta-schema failure."""
    if error.validator == "oneOf" and isinstance(error.instance, dict) and "kind" in error.instance:
        kinds = error.schema.get("properties", {}).get("kind", {}).get("enum", [])
        kind = error.instance["kind"]
        a_rule = f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} rule"
        if kind not in kinds:
            return (
                f"rule kind {kind!r} is unknown{did_you_mean(kind, kinds)}",
                f"use one of the kinds {', '.join(kinds)} (see the rule in generator/metaschema/chatspec.schema.json)",
            )
        branch = next(b for b in error.schema["oneOf"] if b["properties"]["kind"].get("const") == kind)
        takes = list(branch["properties"])
        extra = [k for k in error.instance if k not in takes]
        missing = [k for k in branch.get("required", []) if k not in error.instance]
        if extra:
            named = ", ".join(f"{k!r}{did_you_mean(k, [t for t in takes if t not in error.instance])}" for k in extra)
            return (f"{a_rule} does not take {named}", f"remove it; {a_rule} takes {', '.join(takes)}")
        if missing:
            return (f"{a_rule} needs {', '.join(map(repr, missing))}", f"add it; {a_rule} takes {', '.join(takes)}")
        return (f"{a_rule} is malformed", f"{a_rule} takes {', '.join(takes)} (see the meta-schema)")
    if tuple(error.absolute_schema_path)[-3:-1] == ("properties", "multipleOf"):
        return (
            f"multipleOf must be a whole number from 1 to 9007199254740991 (2^53-1), not {json.dumps(error.instance)}",
            "use a positive integer divisor on an integer field: a fraction's remainder differs between Python, Go and JavaScript, "
            "and TypeScript holds the divisor as a float64 number, exact up to 2^53-1",
        )
    if error.validator == "format" and error.validator_value == "regex" and isinstance(error.instance, str):
        # Python's re cannot read the pattern: the portable-subset parser says where and why.
        try:
            patterns.parse(error.instance)
        except patterns.PatternError as exc:
            return exc.problem, exc.hint
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = [k for k in error.schema.get("properties", {}) if k not in error.instance]
        extra = sorted(k for k in error.instance if k not in error.schema.get("properties", {}))
        named = ", ".join(f"{k!r}{did_you_mean(k, allowed)}" for k in extra)
        reasons = [checks.REFUSED[k] for k in extra if k in checks.REFUSED]
        return f"unsupported keyword {named}", "; ".join(reasons) if reasons else _HINTS["additionalProperties"]
    if error.validator in ("anyOf", "oneOf") and isinstance(error.instance, str):
        # e.g. "type": "strng" fails both the single-name and the list-of-names branch.
        names = [v for e in error.context if e.validator == "enum" and isinstance(e.validator_value, list) for v in e.validator_value]
        if names:
            return (f"{error.instance!r} is not one of {names}{did_you_mean(error.instance, names)}", _HINTS["enum"])
    if error.validator == "enum" and isinstance(error.validator_value, list):
        return error.message + did_you_mean(error.instance, error.validator_value), _HINTS["enum"]
    return error.message, _HINTS.get(str(error.validator), "see the chatspec meta-schema")


def _inside_rule(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For a rule of a known kind, the error inside it (e.g. a typo under "when"), not "no branch of oneOf matched"."""
    if not (error.validator == "oneOf" and isinstance(error.instance, dict) and "kind" in error.instance):
        return error
    branches = error.schema["oneOf"]
    index = next((i for i, b in enumerate(branches) if b["properties"]["kind"].get("const") == error.instance["kind"]), None)
    deeper = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == index and e.relative_path]
    return best_match(deeper) if deeper else error


def _pattern_to_the_end(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Any:
    """The meta-schema's `pattern`, with a final `$` meaning the end of the text: Python's `$` also
    matches before a final newline, which would let "Doc\n" through as a model name into generated code."""
    if isinstance(instance, str):
        strict = pattern[:-1] + r"\Z" if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
        if not re.search(strict, instance):
            yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


_MetaValidator = jsonschema.validators.extend(Draft202012Validator, {"pattern": _pattern_to_the_end})


def check_document(document: Any, shown: str) -> None:
    """Raise SpecError for the first problem the two meta-schemas find."""
    # A verdict never changes for the same document: remember the documents that passed.
    # Keyed by this module's source too, so a new check is never skipped by an old verdict.
    # Python's version too: the meta-schema's "regex" format is checked with its re.
    parts = [
        sys.version,
        *cache.tool_versions("jsonschema", "rfc3339-validator"),
        cache.source_of(__file__),
        meta_schema_text(),
        json.dumps(document, sort_keys=True),
    ]
    cache.memo("spec-check", parts, lambda: _check_document(document, shown))


def _is_regex(instance: object) -> bool:
    if isinstance(instance, str):
        re.compile(instance)
    return True


# Draft 2020-12's format checks, with a "regex" that also takes re's OverflowError for a pattern it cannot compile
# (a repeat count of 2^32 or more, "a{4294967295}"), which jsonschema's lets escape.
_FORMATS = jsonschema.FormatChecker(formats=())
_FORMATS.checkers = {**Draft202012Validator.FORMAT_CHECKER.checkers, "regex": (_is_regex, (re.error, OverflowError))}


def _check_document(document: Any, shown: str) -> bool:
    with warnings.catch_warnings():
        # The "regex" format check compiles patterns with re, which warns about e.g. "[[" (nested sets).
        warnings.simplefilter("ignore")
        errors = list(_MetaValidator(meta_schema(), format_checker=_FORMATS).iter_errors(document))
    if errors:
        error = best_match(errors)
        error = _inside_rule(error)
        problem, hint = _explain(error)
        path = list(error.absolute_path)
        if error.validator == "enum" and path[-1:] == ["kind"] and "x-rules" in path and isinstance(error.instance, str):
            # The rule's kind itself is unknown (best_match went down to it, through the schema's anyOf of a
            # boolean or an object): said of the rule, as for a rule checked against its kinds' oneOf.
            kinds = [str(k) for k in error.validator_value]
            problem = f"rule kind {error.instance!r} is unknown{did_you_mean(error.instance, kinds)}"
            hint = f"use one of the kinds {', '.join(kinds)} (see the rule in generator/metaschema/chatspec.schema.json)"
            path = path[:-1]
        if (
            error.validator == "pattern"
            and path[-1:] == ["$ref"]
            and isinstance(error.instance, str)
            and not error.instance.startswith("#/$defs/")
        ):
            problem = f"$ref {error.instance!r} is not a pointer into this spec's $defs"
            hint = (
                "chatspec resolves local references only (#/$defs/<Name>, or a pointer below one): no remote schema, no "
                "$id or $anchor; copy the schema it names into $defs"
            )
        elif error.validator == "pattern" and isinstance(error.instance, str):
            # A name the meta-schema spells with a pattern ($defs names, x-name, $ref) that holds a
            # character that hides or reorders text: said so, at the name itself.
            named = "propertyNames" in error.schema_path  # the error is at the object whose key it is
            found = invisible.name_problem(error.instance, "definition name" if named else str(path[-1]) if path else "name")
            if found is not None:
                problem, hint = found
                path += [error.instance] if named else []
        raise SpecError(shown, pointer_of(*path), problem, hint)
    try:
        Draft202012Validator.check_schema(document)
    except jsonschema.SchemaError as exc:
        raise SpecError(shown, pointer_of(*exc.absolute_path), exc.message, "make it a valid JSON Schema 2020-12 document") from None
    return True


def _read_examples(folder: Path, root: Path) -> list[tuple[str, Any]]:
    if not folder.is_dir():
        return []
    return [(p.stem, _checked_example(p, root)) for p in sorted(folder.glob("*.json"))]


def _checked_example(path: Path, root: Path) -> Any:
    shown = _shown(path, root)
    data = _parse_json(_read_text(path, shown), shown)
    check_values(data, shown, numbers=False)
    return data


def _read_text(path: Path, shown: str, missing: str = "check that it exists and is a readable file") -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SpecError(shown, "", f"cannot read the file: {exc.strerror}", missing) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", errors="replace")
        line, column = _line_column(before, len(before))
        raise SpecError(
            shown,
            "",
            f"the file is not UTF-8 text (byte 0x{data[exc.start]:02x} cannot start a character here)",
            "save it as UTF-8",
            line=line,
            column=column,
        ) from None


def refuse_symlinks(spec_dir: Path, root: Path) -> None:
    """A spec folder and everything in it (spec, examples, history) must be real files: a symlink would pull
    files from outside the repository into the docs, the Go fuzz seeds and the release snapshots."""
    found = [spec_dir] if spec_dir.is_symlink() else []
    if not found and spec_dir.is_dir():
        for folder, dirs, files in os.walk(spec_dir):
            # os.path, not pathlib: a spec's history holds every release's examples.
            found.extend(Path(folder, name) for name in sorted([*dirs, *files]) if os.path.islink(os.path.join(folder, name)))
            if found:
                break
    if found:
        link = found[0]
        raise SpecError(
            _shown(link, root),
            "",
            f"is a symbolic link (to {os.readlink(link)}); chatspec reads only real files under specs/",
            "replace the link with a copy of the file or folder it points to",
        )


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def check_format_ids(specs: list[LoadedSpec], modules: Iterable[tuple[str, Callable[[str], str]]] = ()) -> None:
    """No two generated formats (spec folders and earlier majors kept as <format>_v<N>) share a format id, or
    the name a target gives a format's own code (`Target.module`, e.g. ("Go package", go_package)): one
    would silently overwrite the other."""
    keys: list[tuple[str, Callable[[str], str]]] = [("format id", lambda format_id: format_id), *modules]
    taken: list[dict[str, LoadedSpec]] = [{} for _ in keys]
    for spec in specs:
        for (noun, name_of), names in zip(keys, taken):
            key = name_of(spec.format_id)
            other = names.get(key)
            if other is not None:
                first, second = sorted((other, spec), key=lambda s: (s.path != _folder_spec(s), s.format_id))
                if second.path != _folder_spec(second):
                    raise SpecError(
                        first.path,
                        "",
                        f"the format id {first.format_id!r} is the name chatspec gives the kept last release of an "
                        f"earlier major ({second.path}), so one would overwrite the other",
                        "rename the folder",
                    )
                raise SpecError(
                    first.path,
                    "",
                    f"the formats {first.format_id!r} and {second.format_id!r} ({second.path}) both become "
                    f"the same {noun} {key!r}, so one would overwrite the other",
                    "rename one of the spec folders",
                )
            names[key] = spec


def _folder_spec(spec: LoadedSpec) -> str:
    return f"specs/{spec.format_id}/spec.json"


def load_spec(spec_dir: Path, root: Path, format_id: str | None = None) -> LoadedSpec:
    """Load <spec_dir>/spec.json and its examples; root makes paths in messages relative.

    The format id is the folder's name unless given (a release snapshot's folder is its version).
    """
    spec_path = spec_dir / "spec.json"
    shown = _shown(spec_path, root)
    # The folder name is checked first: it becomes a module, a package and file names.
    problem = format_id_problem(format_id or spec_dir.name)
    if problem is not None:
        raise SpecError(shown, "", *problem)
    refuse_symlinks(spec_dir, root)
    text = _read_text(spec_path, shown, missing="create spec.json in the format's folder")
    document = _parse_json(text, shown)
    check_values(document, shown)
    try:
        check_document(document, shown)
    except RecursionError:
        raise SpecError(shown, "", "the spec nests schemas too deeply to check", "move nested schemas to $defs and $ref them") from None
    if spec_dir.parent.name != "history":  # (a release snapshot is read as it was locked)
        for at, key, why, fix in message_keys.unused(document):
            raise SpecError(shown, at, f"x-messages sets {key!r}, which no check here reports: {why}", fix)
    invalid = _read_examples(spec_dir / "examples" / "invalid", root)
    for name, case in invalid:
        shown_case = _shown(spec_dir / "examples" / "invalid" / f"{name}.json", root)
        if not (isinstance(case, dict) and "data" in case and isinstance(case.get("errors"), list) and case["errors"]):
            raise SpecError(
                shown_case,
                "",
                "an invalid example must be an object with 'data' and a non-empty 'errors' list",
                'write {"description": ..., "data": <the payload>, "errors": [{"path": ..., "message": ...}]}',
            )
    # A release snapshot (specs/<format>/history/<version>/) reads its format folder's behaviour.
    format_dir = spec_dir.parent.parent if spec_dir.parent.name == "history" else spec_dir
    return LoadedSpec(
        format_id=format_id or spec_dir.name,
        path=shown,
        document=document,
        examples_valid=tuple(_read_examples(spec_dir / "examples" / "valid", root)),
        examples_invalid=tuple(invalid),
        behaviours=tuple(load_sets(format_dir, _shown(format_dir, root))),
    )

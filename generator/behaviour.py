"""behaviour: a format's hand-written code, stored as real source beside its spec.

specs/<format>/behaviour/behaviour.toml is the manifest; the files it names are plain
Python, Go and Markdown (no template syntax). A format may hold more than one set:
further sets live in sub-folders (specs/<format>/behaviour/<name>/behaviour.toml), each
for its own majors, so an earlier major keeps its behaviour when the next one changes.
Every major a set applies to (the latest and each kept earlier one) is checked.

    since = 1                      # the majors it applies to: this one and every later one,
                                   # or exactly: majors = [1, 2]
    python = "python.py"           # module-level code; `class <Model>:` bodies become methods
    go = "go.go"                   # a file of the Go package; `type <Model> struct {...}` adds fields
    docs = "docs.md"               # the "Behaviour" section of the format's page
    extends = { python = ["ChatState"], go = ["ChatState"] }   # models with holder classes/structs

    [needs]                        # the fields and definitions the code relies on, with their shape
    "ChatMessage.input_id" = "optional string"
    "ChatMessage" = "model built from message_id, input_id, role"

    [constants]                    # spec facts the code reads, emitted from the IR
    "ChatState.max_history_size" = ["default", "minimum"]

Loading reads and checks the manifest and its files; each target splits the file it places
(generator/targets/<target>/behaviour.py, `Target.check_behaviour`); `resolve` (at generate, on the
lowered IR) picks the set for each generated major and refuses a spec that no longer
has what the set declares, naming the manifest, the field and the fix.
generator/ARCHITECTURE.md (Behaviour) has the vocabulary and how stored source is placed.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator import invisible, ir
from generator.errors import SpecError

MANIFEST = "behaviour.toml"
# Python's bytecode cache, which importing python.py (from the user's own tests, say) leaves beside it: never behaviour.
NOT_BEHAVIOUR = frozenset({"__pycache__"})
FOLDER = "behaviour"


# The languages a manifest may name, each with its file's extension, in registry order. Each is
# a target's `behaviour` (generator.targets.base.Target); a stage may not read the registry, so
# tests/test_architecture.py holds this table equal to the registered targets' declarations.
LANGUAGES = {"python": ".py", "go": ".go", "docs": ".md", "typescript": ".ts"}


def _extensions() -> dict[str, str]:
    """The languages a manifest may name, with their extensions, e.g. {"python": ".py", ...}."""
    return dict(LANGUAGES)


def _keys() -> tuple[str, ...]:
    """The manifest's keys; anything else is a misspelling."""
    return ("majors", "since", *_extensions(), "extends", "needs", "constants")


# Facets of a field a behaviour may ask for as a generated constant.
_FACETS = ("default", "minimum", "maximum", "const")


@dataclass(frozen=True)
class Constant:
    model: str  # e.g. "ChatState"
    field: str  # the field's name in the IR, e.g. "max_history_size"
    facet: str  # "default" | "minimum" | "maximum" | "const"
    value: Any  # from the IR, e.g. 1000


@dataclass(frozen=True)
class Behaviour:
    """One behaviour set as loaded: the manifest and the text of each file it names."""

    folder: str  # as shown in messages, e.g. "specs/chat_modality/behaviour"
    majors: tuple[int, ...]  # exactly these majors, e.g. (2,); empty when `since` is given
    since: int | None  # this major and every later one, e.g. 1
    sources: dict[str, str]  # language -> file shown, e.g. {"go": "specs/chat_modality/behaviour/go.go"}
    texts: dict[str, str]  # language -> the file's text
    extends: dict[str, tuple[str, ...]]  # language -> models whose generated class/struct gains members, e.g. {"go": ("ChatState",)}
    needs: dict[str, str]  # "Model.field" -> shape, e.g. {"ChatMessage.input_id": "optional string"}
    constants: dict[str, tuple[str, ...]]  # "Model.field" -> facets, e.g. {"ChatState.max_history_size": ("default",)}
    format_id: str  # the folder's format, e.g. "chat_modality"

    def applies_to(self, major: int) -> bool:
        return major in self.majors or (self.since is not None and major >= self.since)

    def overlap(self, other: Behaviour) -> int | None:
        """A major both sets claim, or None."""
        if self.since is not None and other.since is not None:
            return max(self.since, other.since)
        for a, b in ((self, other), (other, self)):
            claimed = [m for m in a.majors if b.applies_to(m)]
            if claimed:
                return min(claimed)
        return None

    @property
    def manifest(self) -> str:
        return f"{self.folder}/{MANIFEST}"

    def source(self, language: str) -> str | None:
        """The file a language's code comes from, as shown (for headers), or None."""
        return self.sources.get(language)


# --- loading -------------------------------------------------------------------


def _refuse_invisible(text: str, shown: str) -> None:
    """Behaviour is placed in generated code and docs as written, where nothing can escape a
    character that hides or reorders text (generator/invisible.py): such a file is refused."""
    at = invisible.first(text)
    if at is not None:
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise SpecError(
            shown,
            None,
            f"holds {invisible.describe(text[at])}, which hides or reorders text (Trojan Source): "
            "the file is placed in the generated code or docs as it is, where it would read as other text than it holds",
            f"remove it; in a string literal, write its escape ({invisible.u_escape(text[at])})",
            line=line,
            column=column,
        )


def load_sets(format_dir: Path, shown_dir: str) -> list[Behaviour]:
    """Every behaviour set of a format folder (specs/<format>/), checked on its own.

    shown_dir is the format folder as messages show it, e.g. "specs/chat_modality"."""
    for entry in sorted(format_dir.iterdir()) if format_dir.is_dir() else []:
        if (
            entry.name != FOLDER
            and entry.is_dir()
            and difflib.get_close_matches(entry.name.lower(), [FOLDER, "behavior"], n=1, cutoff=0.75)
        ):
            raise SpecError(
                f"{shown_dir}/{entry.name}",
                None,
                f"a folder named {entry.name!r} is not read: behaviour lives in {FOLDER}/",
                f"rename it to {shown_dir}/{FOLDER}",
            )
    root = format_dir / FOLDER
    if not root.is_dir():
        return []
    shown_root = f"{shown_dir}/{FOLDER}"
    sets: list[Behaviour] = []
    if (root / MANIFEST).is_file():
        sets.append(_load_set(root, shown_root, format_dir.name, subfolders_allowed=True))
    for sub in sorted(p for p in root.iterdir() if p.is_dir() and p.name not in NOT_BEHAVIOUR):
        shown_sub = f"{shown_root}/{sub.name}"
        if not (sub / MANIFEST).is_file():
            raise SpecError(
                shown_sub,
                None,
                f"a behaviour folder without {MANIFEST}",
                f"add {shown_sub}/{MANIFEST} (see {shown_root}/{MANIFEST}) or remove the folder",
            )
        sets.append(_load_set(sub, shown_sub, format_dir.name, subfolders_allowed=False))
    if not sets:
        raise SpecError(
            shown_root,
            None,
            f"a behaviour folder without {MANIFEST}",
            f"add {shown_root}/{MANIFEST} naming majors and the files, or remove the folder",
        )
    for i, b in enumerate(sets):
        for other in sets[:i]:
            shared = b.overlap(other)
            if shared is not None:
                raise SpecError(
                    b.manifest,
                    "/since" if b.since is not None else "/majors",
                    f"major {shared} already has behaviour in {other.manifest}",
                    "give each major one behaviour set: list exact majors (majors = [1]) where a later major has a set of its own",
                )
    return sets


def _load_set(folder: Path, shown: str, format_id: str, subfolders_allowed: bool) -> Behaviour:
    manifest = f"{shown}/{MANIFEST}"
    try:
        data = tomllib.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(manifest, None, f"not valid TOML ({exc})", "fix the syntax; see generator/behaviour.py for the keys") from None
    except RecursionError:
        raise SpecError(
            manifest, None, "nests arrays or tables too deeply to read", "write the manifest flat, as generator/behaviour.py shows"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(manifest, None, f"cannot be read ({exc})", "check that it is a readable UTF-8 file") from None
    keys = _keys()
    extensions = _extensions()
    for key in data:
        if key not in keys:
            close = difflib.get_close_matches(key, keys, n=1)
            raise SpecError(
                manifest,
                f"/{key}",
                f"unknown key {key!r} (known: {', '.join(keys)})",
                f"did you mean {close[0]!r}?" if close else "remove it",
            )
    if ("majors" in data) == ("since" in data):
        raise SpecError(
            manifest,
            "",
            "give exactly one of since (this major and every later one, e.g. since = 1) or majors " "(exactly these, e.g. majors = [2])",
            "name the majors of the format this behaviour applies to",
        )
    majors = data.get("majors", [])
    since = data.get("since")
    if "majors" in data and not (
        isinstance(majors, list) and majors and all(type(m) is int and m >= 0 for m in majors) and len(set(majors)) == len(majors)
    ):
        raise SpecError(
            manifest,
            "/majors",
            "majors must be a non-empty list of distinct major versions, e.g. majors = [1]",
            "name the majors of the format this behaviour applies to",
        )
    if "since" in data and not (type(since) is int and since >= 0):
        raise SpecError(
            manifest, "/since", "since must be a major version, e.g. since = 1", "name the first major this behaviour applies to"
        )
    sources: dict[str, str] = {}
    texts: dict[str, str] = {}
    for language, ext in extensions.items():
        name = data.get(language)
        if name is None:
            continue
        if not (isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9_.-]+", name) and name.endswith(ext) and name != MANIFEST):
            raise SpecError(
                manifest,
                f"/{language}",
                f'{language} must name a {ext} file in this folder, e.g. {language} = "{language}{ext}"',
                "give the file's name, without a folder",
            )
        path = folder / name
        if path.is_symlink() or not path.is_file():
            raise SpecError(
                manifest, f"/{language}", f"names {shown}/{name}, which is not a file", f"create {shown}/{name} or fix the name"
            )
        try:
            texts[language] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError(f"{shown}/{name}", None, f"cannot be read ({exc})", "check that it is a readable UTF-8 file") from None
        _refuse_invisible(texts[language], f"{shown}/{name}")
        sources[language] = f"{shown}/{name}"
    if not sources:
        raise SpecError(manifest, "", "names no behaviour file", "name at least one of " + ", ".join(extensions))
    named = {Path(s).name for s in sources.values()} | {MANIFEST}
    for entry in sorted(folder.iterdir()):
        if (entry.is_dir() and subfolders_allowed) or entry.name in NOT_BEHAVIOUR:
            continue
        if entry.name not in named:
            close = difflib.get_close_matches(entry.name, sorted(named), n=1)
            raise SpecError(
                f"{shown}/{entry.name}",
                None,
                f"a file {manifest} does not name, so it would never be used",
                f"name it in {MANIFEST}" + (f" (did you mean {close[0]!r}?)" if close else "") + " or remove it",
            )
    needs = _table(data, "needs", manifest)
    for key, value in needs.items():
        if "." in key:
            _field_key(key, manifest, "needs")
        elif not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
            raise SpecError(
                manifest,
                f"/needs/{key}",
                f"{key!r} is neither Model.field nor a definition's name",
                'name a field, e.g. "ChatMessage.input_id", or a definition, e.g. "Role"',
            )
        if not isinstance(value, str) or not value.strip():
            raise SpecError(
                manifest,
                f"/needs/{key}",
                'a need is a shape, e.g. "optional string", "list of ChatMessage", "integer"',
                "write the shape the code relies on",
            )
    constants: dict[str, tuple[str, ...]] = {}
    for key, value in _table(data, "constants", manifest).items():
        _field_key(key, manifest, "constants")
        if not (isinstance(value, list) and value and all(v in _FACETS for v in value) and len(set(value)) == len(value)):
            raise SpecError(
                manifest,
                f"/constants/{key}",
                f"a constant entry lists facets of the field, some of {', '.join(_FACETS)}",
                'e.g. "ChatState.max_history_size" = ["default", "minimum"]',
            )
        constants[key] = tuple(value)
    extends: dict[str, tuple[str, ...]] = {}
    for language, models in _table(data, "extends", manifest).items():
        if language not in ("python", "go") or language not in sources:
            raise SpecError(
                manifest,
                f"/extends/{language}",
                f"extends.{language}: only python and go code, named in this manifest, add members to models",
                "use python or go, and name that file",
            )
        if not (isinstance(models, list) and models and all(isinstance(m, str) for m in models) and len(set(models)) == len(models)):
            raise SpecError(
                manifest,
                f"/extends/{language}",
                'a list of the models whose generated class gains members, e.g. ["ChatState"]',
                "name each model once",
            )
        extends[language] = tuple(models)
    behaviour = Behaviour(
        shown, tuple(majors), since, sources, texts, extends, {k: " ".join(v.split()) for k, v in needs.items()}, constants, format_id
    )
    return behaviour


def _table(data: dict[str, Any], key: str, manifest: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise SpecError(manifest, f"/{key}", f"[{key}] must be a table", f'write [{key}] and one "Model.field" = ... line per entry')
    return value


def _field_key(key: str, manifest: str, table: str) -> tuple[str, str]:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_-]*", key):
        raise SpecError(
            manifest, f"/{table}/{key}", f"{key!r} is not Model.field", 'name a model and one of its fields, e.g. "ChatMessage.input_id"'
        )
    model, field = key.split(".")
    return model, field


def select(sets: list[Behaviour], version: str) -> Behaviour | None:
    """The set that applies to a version, or None."""
    major = int(version.split(".")[0])
    return next((b for b in sets if b.applies_to(major)), None)


# --- checking against the IR -----------------------------------------------------


def shape(f: ir.Field) -> str:
    """A field's shape in the manifest's words, e.g. "optional string", "list of ChatMessage"."""
    prefix = "" if f.required else "defaulted " if f.has_default or f.default_factory else "optional "
    return prefix + type_shape(f.type)


def type_shape(t: ir.TypeRef) -> str:
    match t:
        case ir.StringType():
            return "string"
        case ir.DateTimeType():
            return "date-time"
        case ir.BytesType():
            return "bytes"
        case ir.NumericType():
            return "integer" if t.integer else "number"
        case ir.BooleanType():
            return "boolean"
        case ir.AnyType():
            return "any"
        case ir.ListType():
            return f"list of {type_shape(t.item)}"
        case ir.MapType():
            return f"map of {type_shape(t.value)}"
        case ir.NullableType():
            return f"nullable {type_shape(t.inner)}"
        case ir.TupleType():
            return "tuple of (" + ", ".join(type_shape(i) for i in t.items) + ")"
        case ir.UnionType():
            return "union of (" + ", ".join(type_shape(v) for v in t.variants) + ")"
        case ir.Ref():
            return t.name
        case _:
            raise AssertionError(f"type_shape: unhandled type {t!r}")


def _find_field(fmt: ir.Format, key: str) -> tuple[ir.Model | None, ir.Field | None]:
    model_name, field_name = key.split(".")
    model = next((m for m in fmt.models if m.name == model_name), None)
    if model is None:
        return None, None
    return model, next((f for f in model.fields if f.name == field_name), None)


def problems(fmt: ir.Format, b: Behaviour) -> list[tuple[str, str, str]]:
    """What in the format breaks the behaviour's declarations: (pointer in the manifest, problem, fix)."""
    files = [Path(s).name for s in b.sources.values()]
    code = files[0] if len(files) == 1 else ", ".join(files[:-1]) + " and " + files[-1]  # e.g. "python.py, go.go and docs.md"
    out: list[tuple[str, str, str]] = []
    models = {m.name for m in fmt.models}
    for language, extended in b.extends.items():
        for name in extended:
            if name not in models:
                out.append(
                    (
                        f"/extends/{language}",
                        f"extends.{language} names {name!r}, which is no model of {fmt.id} {fmt.version} ({fmt.source})",
                        f"update {Path(b.sources[language]).name} and this entry for the spec, or correct the name",
                    )
                )
    for table, keys in (("needs", b.needs), ("constants", b.constants)):
        for key in keys:
            if "." not in key:
                continue
            model, f = _find_field(fmt, key)
            where = f"{fmt.id} {fmt.version} ({fmt.source})"
            if model is None:
                known = ", ".join(m.name for m in fmt.models)
                out.append(
                    (
                        f"/{table}/{key}",
                        f"{key}: {where} has no model {key.split('.')[0]!r} (models: {known})",
                        f"update {code} and this entry for the spec, or correct the name",
                    )
                )
            elif f is None:
                fields = ", ".join(x.name for x in model.fields)
                out.append(
                    (
                        f"/{table}/{key}",
                        f"{key}: {where} has no field {key.split('.')[1]!r} in {model.name} (fields: {fields})",
                        f"update {code} and this entry for the spec, or correct the name",
                    )
                )
    for key, want in b.needs.items():
        if "." not in key:
            found = definition_problem(fmt, key, want)
            if found:
                out.append(
                    (
                        f"/needs/{key}",
                        f"{key}: {code} rely on it being {want!r}, but in {fmt.id} {fmt.version} ({fmt.source}) {found}",
                        f"update {code} for the spec and this [needs] entry, or give that major its own behaviour set",
                    )
                )
            continue
        model, f = _find_field(fmt, key)
        if f is not None and shape(f) != want:
            out.append(
                (
                    f"/needs/{key}",
                    f"{key}: {code} rely on it being {want!r}, but {fmt.id} {fmt.version} ({fmt.source}) makes it {shape(f)!r}",
                    f"update {code} for the new shape and write {key!r} = {shape(f)!r} in [needs]; or, if the code is right only for "
                    f"earlier majors, list them exactly (e.g. majors = [1]) and give major {fmt.version.split('.')[0]} its own set "
                    f"({b.folder.split('/' + FOLDER)[0]}/{FOLDER}/v{fmt.version.split('.')[0]}/{MANIFEST})",
                )
            )
    for key, facets in b.constants.items():
        model, f = _find_field(fmt, key)
        if f is None:
            continue
        for facet in facets:
            value = _facet_value(f, facet)
            if value is not None and not isinstance(value, (str, int, float)):
                out.append(
                    (
                        f"/constants/{key}",
                        f"{key}'s {facet} in {fmt.id} {fmt.version} ({fmt.source}) is {value!r}, not one string or number",
                        f"take {facet!r} out of this entry; a constant holds a string or a number",
                    )
                )
            if value is None:
                out.append(
                    (
                        f"/constants/{key}",
                        f"{key} has no {facet} in {fmt.id} {fmt.version} ({fmt.source}), but {code} read it",
                        f"update {code} and take {facet!r} out of this entry, or give the field a {facet} in the spec",
                    )
                )
    return out


def definition_shape(d: ir.Definition) -> str:
    """A definition's shape in the manifest's words: "model", "enum of a, b", "alias of <shape>"."""
    match d:
        case ir.Model():
            return "model"
        case ir.Enum():
            return "enum of " + ", ".join(d.values)
        case ir.Alias():
            return "alias of " + type_shape(d.type)
        case _:
            raise AssertionError(f"definition_shape: unhandled definition {d!r}")


def definition_problem(fmt: ir.Format, name: str, want: str) -> str | None:
    """What is wrong with a definition need, or None. "enum with a, b" asks for at least
    those values (more are fine); "model", "enum of ..." and "alias of ..." are exact."""
    d = next((x for x in fmt.definitions if x.name == name), None)
    if d is None:
        return f"there is no definition {name!r} (definitions: {', '.join(x.name for x in fmt.definitions)})"
    have = definition_shape(d)
    if want.startswith("model built from "):
        given = [v.strip() for v in want.removeprefix("model built from ").split(",")]
        if not isinstance(d, ir.Model):
            return f"it is {have!r}"
        names = [f.name for f in d.fields]
        unknown = [g for g in given if g not in names]
        if unknown:
            return f"model {name} has no field {', '.join(repr(u) for u in unknown)} (fields: {', '.join(names)})"
        unset = [f.name for f in d.fields if f.required and f.name not in given]
        return f"model {name} requires {', '.join(repr(u) for u in unset)}, which the code does not set" if unset else None
    if want.startswith("enum with "):
        values = [v.strip() for v in want.removeprefix("enum with ").split(",")]
        if not isinstance(d, ir.Enum):
            return f"it is {have!r}"
        missing = [v for v in values if v not in d.values]
        return f"enum {name} has no value {', '.join(repr(v) for v in missing)} (it is {have!r})" if missing else None
    return None if have == want else f"it is {have!r}"


def check(fmt: ir.Format, b: Behaviour) -> None:
    """Refuse a format that breaks what its behaviour declares (the first problem, with its fix)."""
    found = problems(fmt, b)
    if found:
        pointer, problem, fix = found[0]
        more = f" ({len(found) - 1} more: {'; '.join(p for _, p, _ in found[1:])})" if len(found) > 1 else ""
        raise SpecError(b.manifest, pointer, problem + more, fix)


def check_latest(fmt: ir.Format, sets: list[Behaviour]) -> None:
    """A format with behaviour sets must say what its latest major gets: a bump past every
    set's majors would otherwise drop the behaviour silently."""
    major = int(fmt.version.split(".")[0])
    if not sets or any(b.applies_to(major) for b in sets):
        return
    # A set with `since` here starts after the major (a 0.x format whose behaviour says since = 1).
    nearest = max(sets, key=lambda b: max(b.majors) if b.majors else b.since or 0)
    broken = problems(fmt, nearest)
    also = (" Its declarations do not hold for " + fmt.version + ": " + "; ".join(p for _, p, _ in broken) + ".") if broken else ""
    claimed, include = (
        (f"majors {list(nearest.majors)} only", f"add {major} to majors")
        if nearest.majors
        else (f"majors {nearest.since} and later", f"set since = {major}")
    )
    raise SpecError(
        nearest.manifest,
        "/majors" if nearest.majors else "/since",
        f"{fmt.id} is at major {major} ({fmt.source}) but its behaviour applies to {claimed}, "
        f"so version {fmt.version} would lose {', '.join(Path(s).name for s in nearest.sources.values())}.{also}",
        f"{include} (its [needs] are then checked against {fmt.version}) and update the code where it relies on what "
        f"changed, or write a set for major {major} in {nearest.folder.split('/' + FOLDER)[0]}/{FOLDER}/v{major}/{MANIFEST}",
    )


def _facet_value(f: ir.Field, facet: str) -> Any:
    t = ir.unwrap_nullable(f.type)
    if facet == "default":
        return f.default if f.has_default else None
    if facet == "const":
        return t.const if isinstance(t, ir.StringType) else None
    if isinstance(t, ir.NumericType):
        value = t.minimum if facet == "minimum" else t.maximum
        return int(value) if value is not None and t.integer else value
    return None


def constants(fmt: ir.Format, b: Behaviour) -> list[Constant]:
    """The constants a behaviour reads, with their values from the IR (check() ran first)."""
    out = []
    for key, facets in b.constants.items():
        model, f = _find_field(fmt, key)
        assert model is not None and f is not None
        for facet in facets:
            out.append(Constant(model.name, f.name, facet, _facet_value(f, facet)))
    return out


def resolve(sets: tuple[Behaviour, ...], fmt: ir.Format) -> Behaviour | None:
    """The behaviour set that applies to a generated format, checked against its IR.

    The latest major (the format folder's own id) must be covered by a set when any
    exists; an earlier major kept beside it takes the set naming its major, if any."""
    if not sets:
        return None
    b = select(list(sets), fmt.version)
    if b is not None:
        check(fmt, b)
    elif fmt.id == sets[0].format_id:
        check_latest(fmt, list(sets))
    return b

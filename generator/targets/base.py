"""The target contract: what a target is, and the one context every target renders from.

A target turns the lowered formats into files under generated/<its folder>/.
It never imports another target: what one target needs to know of another (the
docs show each language's field types) reaches it through the Context, filled by
the pipeline from each target's `describe`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator import ir
from generator.behaviour import Behaviour
from generator.naming import Names, NamingPolicy
from generator.options import Options


@dataclass(frozen=True)
class Description:
    """How one code target spells a format, for the docs: e.g. Go, package chatevent, ("Message", "role") -> "Role Role"."""

    label: str  # the docs' column header, e.g. "Python"
    noun: str  # what `where` is, e.g. "package" (Go), or "" (a Python module path says so itself)
    where: str  # what users import, e.g. "chatformats.chat_event"
    fields: Mapping[tuple[str, str], str]  # (model, wire name) -> declaration, e.g. ("Message", "role") -> "role: Role"


@dataclass(frozen=True)
class Context:
    """Everything a target renders from; built once per run by generator.core."""

    formats: tuple[ir.Format, ...]
    schemas: Mapping[str, dict[str, Any]]  # format id -> exported JSON Schema, rules as allOf (generator.export)
    plain_schemas: Mapping[
        str, dict[str, Any]
    ]  # format id -> the same without the rules and the schemas applied as written ({}), for consumers that enforce them
    options: Options = Options()
    history: Mapping[str, list[dict[str, object]]] = field(default_factory=dict)  # format id -> releases, newest first
    names: Mapping[str, Mapping[str, Names]] = field(default_factory=dict)  # target name -> format id -> its identifiers
    descriptions: Mapping[str, tuple[Description, ...]] = field(default_factory=dict)  # format id -> per code target
    # format id -> the behaviour set that applies to it (specs/<format>/behaviour/), checked against its IR
    behaviours: Mapping[str, Behaviour] = field(default_factory=dict)
    # the format id of each keyword's example (generator.keywords) -> each code target's description of it,
    # e.g. "schema_format" -> (Python: ("Example", "value") -> "value: datetime", ...), for the spec-language page
    keyword_descriptions: Mapping[str, tuple[Description, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Vendoring:
    """How `chatspec vendor --lang <target>` names and places the target's output in another repository."""

    flag: str  # the option naming it, e.g. "--package"
    help: str  # that option's help
    check: Callable[[str], None]  # raises RefusedError (naming the fix) for a name the language cannot use
    options: Callable[[str], Options]  # the options that make the target spell that name
    subtree: Callable[[str], str]  # the folder under generated/ that is vendored, e.g. "python/acme_chat/"
    folder: Callable[[Path, str], Path]  # where the files land, given --out and the name
    # What the vendored copy ships beside the rendered files, made from them, given the project root: {path: (text,
    # the rendered file it is made from, whose format owns it)}; e.g. TypeScript's dist/*.js compiled by tsc. None: nothing.
    build: Callable[[dict[str, str], Path], dict[str, tuple[str, str]]] | None = None


class Target(ABC):
    """One output: a name, and the files it renders from a Context."""

    name: str  # the --lang value and the folder under generated/, e.g. "go"
    vendoring: Vendoring | None = None  # None: not something another repository vendors
    naming: NamingPolicy | None = None  # how it spells identifiers (generator.naming's pass); None: it spells none
    # The stored behaviour source it places: (the manifest's key, the file's extension), e.g.
    # ("go", ".go") reads `go = "go.go"` of specs/<format>/behaviour/behaviour.toml; None: it places none.
    behaviour: tuple[str, str] | None = None
    # The name a format's own code takes in this language where it is not the format id, which no two formats
    # may share (one would overwrite the other): (what it is, for the refusal; the name of a format id),
    # e.g. ("Go package", go_package). None: the format id itself, which is unique already.
    module: tuple[str, Callable[[str], str]] | None = None

    # True: the pipeline renders this target's formats in a worker process, overlapped with the
    # other targets (render_format must then read nothing but the Context; e.g. pydantic, whose
    # datamodel-code-generator and black take longer than all the other targets together).
    background: bool = False
    # True: render_format reads Context.descriptions (each code target's spelling of the fields: the docs),
    # so the pipeline makes them.
    reads_descriptions: bool = False

    def enabled(self, options: Options) -> bool:
        """Whether a run renders this target for a project with these options (an opt-in target says no by default)."""
        return True

    def render(self, ctx: Context) -> dict[str, str]:
        """{path under generated/: text} for every file of this target: the shared files and each format's."""
        files = self.render_shared(ctx)
        for fmt in ctx.formats:
            files.update(self.render_format(fmt, ctx))
        return files

    @abstractmethod
    def render_format(self, fmt: ir.Format, ctx: Context) -> dict[str, str]:
        """The files one format owns. A pure function of the format's own part of the Context (its IR,
        schemas, names, descriptions, behaviour and history, and the options) plus format_inputs:
        the pipeline remembers it by those and skips it for a format that did not change."""

    def render_shared(self, ctx: Context) -> dict[str, str]:
        """The files no single format owns (an index, a runtime, a package marker); rendered every run."""
        return {}

    def warm_up(self) -> None:
        """For a background target: import (and run once on a small input) what render_format needs.
        The worker does it while the run loads the specs, before the first format reaches it."""
        return None  # most targets have nothing to warm up

    def slow(self, fmt: ir.Format, ctx: Context) -> bool:
        """For a background target: whether rendering the format is slow enough to pay for a worker
        (a fork, and importing what render_format needs). A run whose every slow step is remembered
        (e.g. only a description changed) then starts no worker at all."""
        return True

    def format_inputs(self, fmt: ir.Format, ctx: Context) -> tuple[str, ...]:
        """What render_format reads of the other formats, as text (e.g. the docs' navigation label,
        which depends on every format's title); () when it reads only its own format."""
        return ()

    def shared_files(self, options: Options) -> frozenset[str]:
        """Files no single format owns (runtimes, package markers); golden cases leave them out."""
        return frozenset()

    def check_rendered(self, ctx: Context, files: Mapping[str, str]) -> None:
        """After the target's files are made: check them as their users will meet them, raising SpecError
        (the Python target runs every example through the generated Python). files: every file made so far."""
        return None

    def check_behaviour(self, b: Behaviour) -> None:
        """Split the behaviour source this target places (Target.behaviour) as rendering will, raising SpecError
        naming the file: run on every set a spec folder holds, so a mistake shows even in a set no major uses yet."""
        return None

    def describe(self, fmt: ir.Format, ctx: Context) -> Description | None:
        """How this target spells the format's fields, shown in the docs; None for a target that is not code."""
        return None

"""render: the one Jinja environment every target renders with."""

from __future__ import annotations

import functools
import hashlib
import types
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from generator import cache

if TYPE_CHECKING:
    import jinja2


def _templates() -> Path:
    """templates/ of the checkout, or generator/templates/ of an installed wheel."""
    checkout = Path(__file__).resolve().parent.parent / "templates"
    return checkout if checkout.is_dir() else Path(__file__).resolve().parent / "templates"


TEMPLATES = _templates()


Filter = Callable[[Any], str]


@functools.cache
def environment(cache_folder: Path | None = None, filters: tuple[tuple[str, Filter], ...] = ()) -> jinja2.Environment:
    """The environment, with a target's filters; compiled templates are kept in cache_folder when given."""
    import jinja2  # late: a cached run renders nothing and need not pay for it

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        bytecode_cache=_bytecode_cache(cache_folder) if cache_folder else None,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters.update(dict(filters))
    return env


class Templates:
    """A target's templates and the filters they use, e.g. Templates(gostr=go_str) for Go string literals."""

    def __init__(self, **filters: Filter) -> None:
        self.filters = tuple(sorted(filters.items()))

    def render(self, template: str, **context: Any) -> str:
        return environment(cache.current(), self.filters).get_template(template).render(**context)


_PLAIN = Templates()


def unknown_kind(kind: object) -> NoReturn:
    """The failing default of a template's dispatch, as a filter: `{% else %}{{ view.kind | unknown }}`."""
    raise AssertionError(f"no template case for the view kind {kind!r}")


def render(template: str, **context: Any) -> str:
    """A template that needs no target's filters."""
    return _PLAIN.render(template, **context)


@functools.cache
def _compiled_key() -> str:
    # Jinja keys compiled templates by their source alone; the environment's options
    # (trim_blocks, filters, ...) live in this module and its version in jinja2's.
    return cache.digest([cache.source_of(__file__), *cache.tool_versions("jinja2")])[:16]


# The compiled form of a template, as chatspec keeps it: this header, the sha1 of the template's
# source (Jinja's checksum), the sha256 of the marshalled code, a line feed each, then the code.
_COMPILED_HEADER = b"chatspec compiled template 1\n"


def _bytecode_cache(folder: Path) -> jinja2.BytecodeCache:
    """Jinja's compiled templates, kept under folder/jinja/<key>/ (folder: a cache folder the run may use).

    A compiled template is Python code the run executes, so it is read only as chatspec reads
    every entry (cache.read_private): from a folder only the user can write, with every folder on
    the way and the file itself checked on its open descriptor, so it can only be code the user's
    own runs wrote; the same trust Python gives its __pycache__ (which checks no owner at all).
    Jinja's own FileSystemBytecodeCache checks nothing and unpickles the file's checksum before
    comparing it (pickle runs code), so it is not used: the format here is plain bytes, and the
    code is unmarshalled only when the checksum and the hash of its bytes match.
    """
    import marshal

    import jinja2

    where = f"jinja/{_compiled_key()}"

    class Private(jinja2.BytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            name = f"{where}/__jinja2_{bucket.key}.cache"
            data = cache.read_private(folder, name)
            if data is None or not data.startswith(_COMPILED_HEADER):
                return
            checksum, _, rest = data[len(_COMPILED_HEADER) :].partition(b"\n")
            sha256, _, code = rest.partition(b"\n")
            if checksum.decode("ascii", "replace") != bucket.checksum or sha256 != hashlib.sha256(code).hexdigest().encode("ascii"):
                return  # another template's source, or damaged: a miss, compiled again
            try:
                compiled = marshal.loads(code)
            except (ValueError, EOFError, TypeError):
                return
            if isinstance(compiled, types.CodeType):
                bucket.code = compiled
                cache.touch(folder / name)  # used: cache.trim removes it last

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            code = marshal.dumps(bucket.code)
            data = b"%s%s\n%s\n%s" % (
                _COMPILED_HEADER,
                bucket.checksum.encode("ascii"),
                hashlib.sha256(code).hexdigest().encode("ascii"),
                code,
            )
            cache.write_private(folder, f"{where}/__jinja2_{bucket.key}.cache", data)

    return Private()


def header(source: str | None, *more: str | None) -> str:
    """The first-line marker of every generated file, naming every source that produced it
    (the spec, then behaviour files), e.g. "... from specs/x/spec.json and specs/x/behaviour/go.go.";
    no dates, no tool versions."""
    sources = [s for s in (source, *more) if s is not None]
    if not sources:
        return "Code generated by chatspec. DO NOT EDIT."
    named = sources[0] if len(sources) == 1 else ", ".join(sources[:-1]) + " and " + sources[-1]
    return f"Code generated by chatspec from {named}. DO NOT EDIT."

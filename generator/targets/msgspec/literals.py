"""The msgspec target's templates (templates/msgspec/*.j2) and the filters they spell literals with."""

from __future__ import annotations

from generator.pyliterals import py_str
from generator.render import Templates, unknown_kind

TEMPLATES = Templates(pystr=py_str, unknown=unknown_kind)

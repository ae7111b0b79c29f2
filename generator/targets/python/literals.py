"""Python source literals: how a value of the spec is spelt in the generated module.

These are the filters the Python templates apply to view data (TEMPLATES below);
no other part of the target spells a literal.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.messages import show_control_characters
from generator.pyliterals import py_str, py_strs, py_tuple, py_value
from generator.render import Templates, unknown_kind


def py_docstring(text: str) -> str:
    """A triple-quoted docstring that survives quotes, backslashes and control characters."""
    body = text.replace("\r\n", "\n").replace("\r", "\n").replace("\\", "\\\\")
    # A final quote would merge with the closing quotes: escape it before escaping runs of three.
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    body = body.replace('"""', '\\"\\"\\"')
    return f'"""{show_control_characters(body)}"""'


def py_dict(mapping: Mapping[str, str]) -> str:
    """A dict literal of strings, e.g. the messages of a check: {'type': 'must be a string'}."""
    return "{" + ", ".join(f"{py_str(k)}: {py_str(v)}" for k, v in mapping.items()) + "}"


# The templates under templates/python/ and the filters they spell literals with.
# pynum is repr: a bound keeps the spelling of its JSON number (1.0 stays a float).
TEMPLATES = Templates(
    pystr=py_str, pydoc=py_docstring, pydict=py_dict, pytuple=py_tuple, pystrs=py_strs, pynum=repr, pyvalue=py_value, unknown=unknown_kind
)

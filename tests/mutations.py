"""Systematic mutations of a JSON document: every value replaced by odd values, every key removed, an extra key added."""

from __future__ import annotations

import copy
from typing import Any

# JSON values that stress every check: wrong kinds, empties, edges of numbers and text.
ODD: list[Any] = [None, True, 0, -1, 1.0, 1.5, 2**63, -(2**63) - 1, 1e300, "", " ", "\u00a0", "x", "2024-01-15T10:30:00Z",
                   "2024-02-30T00:00:00Z", "QUJD", "QUJD\n", [], [None], [""], [[]], {}, {"type": "text"}, {"x": 1}]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*prefix, i))
    return found


def mutations(example: Any) -> list[Any]:
    """The example with each value replaced by each odd value, each key removed, and an extra key added."""
    out = []
    for path in paths(example):
        for odd in ODD:
            doc = copy.deepcopy(example)
            if not path:
                out.append(odd)
                continue
            here = doc
            for token in path[:-1]:
                here = here[token]
            here[path[-1]] = odd
            out.append(doc)
        if path:
            doc = copy.deepcopy(example)
            here = doc
            for token in path[:-1]:
                here = here[token]
            if isinstance(here, dict):
                del here[path[-1]]
                out.append(doc)
        doc = copy.deepcopy(example)
        here = doc
        for token in path:
            here = here[token]
        if isinstance(here, dict):
            here["unexpected-key"] = 1
            out.append(doc)
    return out

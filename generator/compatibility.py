"""compatibility: each change judged for the two directions messages travel, and the promise a spec makes.

classify() says how each change moves the set of messages a format accepts (Change.wire). Schema registries
(Confluent's BACKWARD / FORWARD / FULL, oasdiff's request vs response) read that move in two directions:

- backward: a reader built from the new version reads the messages of the old one (old writers keep working);
- forward: a reader built from the old version reads the messages of the new one (old readers keep working).

A spec's x-compatibility promises one, both or neither, optionally against every release of its major
(transitive). A change that breaks the promise is one its readers were told would not come: it needs a major
version, whatever its own level.
"""

from __future__ import annotations

from dataclasses import replace

from generator import ir
from generator.classify import Change, classify, most_severe_first, promised

# Per move of the accepted messages: the verdict for each direction, e.g. a wider format's new readers read
# every old message (compatible) but its new messages may be refused by old readers (breaks).
_VERDICTS = {
    "same": ("compatible", "compatible"),
    "wider": ("compatible", "breaks"),
    "narrower": ("breaks", "compatible"),
    "other": ("breaks", "breaks"),
    "unknown": ("may break", "may break"),
}

_WHY = {
    "same": "it accepts the same messages as before",
    "wider": "it accepts messages the old version refused",
    "narrower": "it refuses messages the old version accepted",
    "other": "each version refuses messages the other accepts",
    "unknown": "what the two versions accept is not compared",
}


def backward(change: Change) -> str:
    """Whether readers of the new version read the old version's messages: compatible, breaks or may break."""
    return _VERDICTS[change.wire][0]


def forward(change: Change) -> str:
    """Whether readers of the old version read the new version's messages: compatible, breaks or may break."""
    return _VERDICTS[change.wire][1]


def verdicts(change: Change) -> str:
    """Both verdicts with the reason, e.g. "backward (new readers, old messages): compatible; forward (old
    readers, new messages): breaks: it accepts messages the old version refused", and what readers of the version
    without a field do with it where they keep it ("; old readers keep it as an additional property")."""
    return (
        f"backward (new readers, old messages): {backward(change)}; forward (old readers, new messages): {forward(change)}"
        + ("" if change.wire == "same" else f": {_WHY[change.wire]}")
        + (f"; {change.readers}" if change.readers else "")
    )


def label(change: Change) -> str:
    """The verdicts in a changelog's words, e.g. "backward compatible, breaks forward"."""
    return {
        "same": "backward and forward compatible",
        "wider": "backward compatible, breaks forward",
        "narrower": "breaks backward, forward compatible",
        "other": "breaks backward and forward",
        "unknown": "may break backward and forward (not compared)",
    }[change.wire]


def breaks(change: Change, promise: frozenset[str]) -> tuple[str, ...]:
    """The directions of a promise the change does not keep, e.g. ("backward",)."""
    return tuple(
        d for d, verdict in (("backward", backward(change)), ("forward", forward(change))) if d in promise and verdict != "compatible"
    )


def held_to(changes: list[Change], promise: frozenset[str], against: str | None = None) -> list[Change]:
    """The changes, each one that breaks the promise raised to major and saying which part it breaks (and,
    for a release before the latest, against which)."""
    out = []
    for change in changes:
        broken = breaks(change, promise)
        if broken:
            # A change chatspec does not compare may break it: it is held to the promise all the same.
            verb = "may break" if change.wire == "unknown" else "breaks"
            what = f"{change.what} ({verb} the {' and '.join(broken)} compatibility promise{f' against {against}' if against else ''})"
            out.append(replace(change, level="major", what=what))
        else:
            out.append(change)
    return out


def promise_between(old: ir.Format, new: ir.Format) -> frozenset[str]:
    """The promise a new version is held to: what the last release promised, and what the new one promises
    (a promise dropped in the same edit still binds that edit)."""
    return promised(old.compatibility) | promised(new.compatibility)


def kept_promise(latest: ir.Format, new: ir.Format, earlier: list[ir.Format]) -> list[Change]:
    """Every change from the latest release, held to the promise; with a transitive promise, also the changes
    from each earlier release of the same major (in 0.x, of the same minor) that break it (new readers must read those messages too, and
    their readers the new messages), each once."""
    promise = promise_between(latest, new)
    found = classify(latest, new)
    changes = held_to(found, promise)
    if "transitive" in promise:
        seen = {c.what for c in found}
        for old in earlier:
            for change in classify(old, new):
                if breaks(change, promise) and change.what not in seen:
                    seen.add(change.what)
                    changes += held_to([change], promise, against=old.version)
    return most_severe_first(changes)

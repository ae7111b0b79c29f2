"""Values of the golden case built_in_code built in Python code, through the dataclasses' constructors with
only the required fields given and the others set at random: each must validate, write a message the
package's parser accepts and read back to the same message; the constructor's defaults must be the parser's.
tests/test_built_in_code.py runs it with the generated package on PYTHONPATH."""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone
from typing import Any

from chatformats import built_in_code as m

STRINGS = ["", "a", "é", "\u2028", "<&>", "\U0001f600", "\x00", "two\nlines", '"q"']


def strs(r: random.Random) -> list[str]:
    return [r.choice(STRINGS) for _ in range(r.randrange(4))]


def free(r: random.Random) -> Any:
    return r.choice([None, "s", 1.5, True, [], {}, [None, "x"], {"k": None}])


def when(r: random.Random) -> datetime:
    zone = timezone(timedelta(minutes=r.randrange(-840, 841)))
    return datetime(r.randrange(1, 9999), r.randrange(1, 13), r.randrange(1, 29), r.randrange(24), r.randrange(60), r.randrange(60),
                    r.randrange(1000000), tzinfo=zone)


def part(r: random.Random) -> m.Part:
    p = m.Part(text=r.choice(STRINGS))
    if r.random() < 0.5:
        p.spans = [r.choice([0, 7, -(1 << 63), (1 << 63) - 1]) for _ in range(r.randrange(4))]
    return p


def tool_call(r: random.Random) -> m.ToolCall:
    c = m.ToolCall(id=r.choice(STRINGS), outputs=strs(r))
    if r.random() < 0.5:
        c.arguments = {r.choice(STRINGS): free(r), "a": free(r)}
    return c


def citation(r: random.Random) -> m.Citation:
    c = m.Citation(url=r.choice(STRINGS))
    if r.random() < 0.5:
        c.start_index = r.randrange(10)
    if r.random() < 0.5:
        c.quotes = {r.choice(STRINGS): strs(r) for _ in range(r.randrange(3))}
    return c


def turn(r: random.Random) -> m.AssistantTurn:
    content: m.Content = r.choice(STRINGS) if r.random() < 0.5 else [part(r) for _ in range(r.randrange(3))]
    t = m.AssistantTurn(created_at=when(r), content=content, history=strs(r), labels={r.choice(STRINGS): r.choice(STRINGS)},
                        payload=r.randbytes(r.randrange(5)), reply_to=r.choice([None, strs(r)]))
    setters = [
        lambda: setattr(t, "tool_calls", [tool_call(r) for _ in range(r.randrange(3))]),
        lambda: setattr(t, "citations", [citation(r) for _ in range(r.randrange(3))]),
        lambda: setattr(t, "metadata", {r.choice(STRINGS): r.choice(STRINGS)}),
        lambda: setattr(t, "tags", strs(r)),
        lambda: setattr(t, "weights", {r.choice(STRINGS): r.randrange(9)}),
        lambda: setattr(t, "notes", r.choice([None, strs(r)])),
        lambda: setattr(t, "detail", r.choice(["auto", "low", "high"])),
        lambda: setattr(t, "temperature", r.choice([0.0, -1.5, 1e300, 0.1])),
        lambda: setattr(t, "max_tokens", r.choice([None, 0, 1 << 40])),
        lambda: setattr(t, "stream", r.random() < 0.5),
        lambda: setattr(t, "name", r.choice(STRINGS)),
        lambda: setattr(t, "attachments", [r.randbytes(r.randrange(4)) for _ in range(r.randrange(3))]),
        lambda: setattr(t, "extra", {r.choice(STRINGS): free(r)}),
        lambda: setattr(t, "settings", m.Settings(names=r.choice([["z"], []]), level=r.choice([None, "high"]))),
    ]
    for s in setters:
        if r.random() < 1 / 3:
            s()
    return t


def main() -> None:
    r = random.Random(20261126)
    for i in range(3000):
        t = turn(r)
        t.validate()
        text = t.to_json()
        back = m.parse_built_in_code_from_json(text)
        assert back.to_json() == text, f"value {i}: read back, it writes otherwise:\n{text}\n{back.to_json()}"
    # Only the required fields given: every default is the parser's (the id aside, a fresh UUID4 each time).
    at = datetime(2024, 1, 15, 10, 30, tzinfo=timezone.utc)
    built = m.AssistantTurn(created_at=at, content="hi", history=[], labels={}, payload=b"", reply_to=None)
    parsed = m.parse_built_in_code_from_json(
        '{"role": "assistant", "created_at": "2024-01-15T10:30:00Z", "content": "hi", "history": [], "labels": {}, "payload": "", "reply_to": null}')
    assert len(built.id) == 36 and built.id != m.AssistantTurn(created_at=at, content="", history=[], labels={}, payload=b"", reply_to=None).id
    built.id = parsed.id
    assert built.to_json() == parsed.to_json(), (built.to_json(), parsed.to_json())
    # A default of every kind of type is the parser's (a union's, a tuple's, a model's, ...).
    assert m.Settings().to_json() == m.Settings.from_json("{}").to_json()
    # Defaults are fresh values: changing one value's list changes no other's.
    built.tags.append("x")
    assert m.AssistantTurn(created_at=at, content="hi", history=[], labels={}, payload=b"", reply_to=None).tags == ["chat", "v1"]
    print(json.dumps({"values": 3000}))


if __name__ == "__main__":
    main()

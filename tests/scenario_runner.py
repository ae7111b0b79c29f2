"""Runs behaviour scenarios (tests/scenarios/<format>/*.json) through the generated Python.

A scenario is steps: {"do": operation, "with": argument, "expect": result} or
{..., "error": ["pointer: message", ...]}. Each step's outcome is
{"result": JSON} or {"error": [...]}, the same shape the Go runner
(tests/scenarios/runner/main.go) prints, so one comparison serves both.
"""

from __future__ import annotations

import importlib
import json
import re
from typing import Any, Callable

# What a fresh ID looks like, for scenarios that cannot know its value.
UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def _dicts(items: list[Any]) -> list[Any]:
    return [item.to_dict() for item in items]


class ChatModality:
    def __init__(self, mod: Any) -> None:
        self.m = mod
        self.state = mod.ChatState()

    def new_state(self, args: dict[str, Any]) -> None:
        self.state = self.m.ChatState(**(args or {}))

    def load_state(self, snapshot: dict[str, Any]) -> None:
        self.state = self.m.ChatState.from_dict(snapshot)

    def round_trip(self, _: Any) -> bool:
        before = self.state.get_snapshot()
        self.state = self.m.ChatState.from_json(json.dumps(before))
        return bool(self.state.get_snapshot() == before)

    def apply_input(self, data: dict[str, Any]) -> None:
        self.state.apply_input(self.m.ChatInput.from_dict(data))

    def apply_built_input(self, data: dict[str, Any]) -> None:
        """An input built in code from its required fields only (the rest left to their defaults)."""
        read = self.m.ChatInput.from_dict(data)
        self.state.apply_input(self.m.ChatInput(timestamp=read.timestamp, role=read.role, content=read.content))

    def snapshot(self, _: Any) -> Any:
        return self.state.get_snapshot()

    def message_ids(self, _: Any) -> list[str]:
        return [m.message_id for m in self.state.messages]

    def id_shapes(self, _: Any) -> list[list[str]]:
        """Per stored message, [message_id, input_id] with a fresh UUID4 shown as "uuid4"."""
        return [["uuid4" if UUID4.fullmatch(i or "") else str(i) for i in (m.message_id, m.input_id)] for m in self.state.messages]

    def validate_state(self, _: Any) -> list[str]:
        return list(self.state.validate_state())

    def query(self, params: dict[str, Any]) -> list[Any]:
        return _dicts(self.state.query(params))

    def get_conversation(self, args: dict[str, Any]) -> list[Any]:
        return _dicts(self.state.get_conversation(args["conversation_id"]))

    def get_recent_messages(self, args: dict[str, Any]) -> list[Any]:
        return _dicts(self.state.get_recent_messages(args["limit"], args.get("conversation_id")))

    def get_message_by_id(self, args: dict[str, Any]) -> Any:
        found = self.state.get_message_by_id(args["message_id"])
        return None if found is None else found.to_dict()

    def append_message(self, message: dict[str, Any]) -> None:
        """Edits the state's messages by hand (what reindex() is for)."""
        self.state.messages.append(self.m.ChatMessage.from_dict(message))

    def reindex(self, _: Any) -> None:
        self.state.reindex()

    def summary(self, data: dict[str, Any]) -> str:
        return str(self.m.ChatInput.from_dict(data).get_summary())

    def affected_entities(self, data: dict[str, Any]) -> list[str]:
        return list(self.m.ChatInput.from_dict(data).get_affected_entities())

    def should_merge_with(self, args: dict[str, Any]) -> bool:
        return bool(self.m.ChatInput.from_dict(args["input"]).should_merge_with(self.m.ChatInput.from_dict(args["other"])))


class ChatEvent:
    def __init__(self, mod: Any) -> None:
        self.m = mod
        self.acc = mod.InteractionAccumulator()

    def feed(self, event: dict[str, Any]) -> list[Any]:
        return _dicts(self.acc.feed(self.m.ChatEvent.from_dict(event)))

    def status(self, _: Any) -> Any:
        return self.acc.status()

    def messages(self, _: Any) -> list[Any]:
        return _dicts(self.acc.messages)

    def final_messages(self, _: Any) -> Any:
        return None if self.acc.final_messages is None else _dicts(self.acc.final_messages)


class DroidletChat:
    def __init__(self, mod: Any) -> None:
        self.m = mod

    def build_chat(self, args: dict[str, Any]) -> Any:
        return self.m.build_chat(**args).to_dict()

    def upgrade_from_v1(self, chat: dict[str, Any]) -> Any:
        v1 = importlib.import_module(self.m.__name__ + "_v1")
        return self.m.upgrade_from_v1(v1.DroidletChat.from_dict(chat)).to_dict()


class StructuredConversation:
    def __init__(self, mod: Any) -> None:
        self.m = mod

    def to_text_document(self, doc: dict[str, Any]) -> Any:
        return self.m.ConversationDocument.from_dict(doc).to_text_document().to_dict()


RUNNERS: dict[str, Callable[[Any], Any]] = {
    "chat_modality": ChatModality,
    "chat_event": ChatEvent,
    "droidlet_chat": DroidletChat,
    "structured_conversation": StructuredConversation,
}


def run(format_id: str, module: Any, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every step's outcome, in order."""
    runner = RUNNERS[format_id](module)
    outcomes: list[dict[str, Any]] = []
    for step in steps:
        operation = getattr(runner, step["do"])
        try:
            outcomes.append({"result": operation(step.get("with"))})
        except module.ValidationError as e:
            outcomes.append({"error": [str(d) for d in e.errors]})
    return outcomes

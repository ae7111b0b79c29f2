# --- behaviour: assembling a stream of events into messages -------------------


class InteractionAccumulator:
    """Turns the ChatEvents a client receives into finished messages.

    The format's notes ask clients to handle any combination of fields, role
    changes mid-interaction and tools sending events directly. Feed every event
    in arrival order: content chunks are buffered per role until the interaction
    completes (or, for the role announcing tool calls, until it does: its text so
    far and the calls become one message); start, completion_running and
    tool_use_active are tracked, with the tool calls that are active; render_media
    is collected. feed() returns the messages the event finished. The event
    stream never carries tool results, so messages holds what was streamed; the
    agent's own list, when the completing event has one, is final_messages.
    """

    def __init__(self) -> None:
        self.session_id: str | None = None
        self.interaction_active = False
        self.interaction_role: str | None = None
        self.completion_running: bool | None = None
        self.tool_use_active: bool | None = None
        self.active_tool_calls: list[ToolCall] = []
        self.media: list[RenderMedia] = []
        self.messages: list[Message] = []
        self.final_messages: list[Message] | None = None
        # role -> chunks; dict order is the order roles first streamed text.
        self._pending: dict[str, list[str]] = {}

    def feed(self, event: ChatEvent) -> list[Message]:
        """Apply one event (validated first: ValidationError leaves the accumulator as it was)."""
        event.validate()
        finished: list[Message] = []
        self.session_id = event.session_id
        if event.start:
            finished += self._flush()  # an interaction that never completed ends here
            self.interaction_active = True
            self.interaction_role = event.role
            self.final_messages = None
        if event.completion_running is not None:
            self.completion_running = event.completion_running
        if event.content:
            self._pending.setdefault(event.role, []).append(event.content)
        if event.render_media is not None:
            self.media.append(event.render_media)
        if event.tool_use_active is not None:
            self.tool_use_active = event.tool_use_active
            self.active_tool_calls = (
                list(event.tool_calls or []) if event.tool_use_active else []
            )
            if event.tool_use_active and event.tool_calls:
                finished.append(
                    Message(
                        role=event.role,
                        content=self._take(event.role),
                        tool_calls=list(event.tool_calls),
                    )
                )
        if event.completed:
            finished += self._flush()
            self.interaction_active = False
            if event.messages is not None:
                self.final_messages = list(event.messages)
        self.messages += finished
        return finished

    def pending(self) -> dict[str, str]:
        """Text buffered per role and not yet part of a finished message."""
        return {role: "".join(chunks) for role, chunks in self._pending.items()}

    def status(self) -> dict[str, Any]:
        """The tracked state as JSON-shaped data."""
        return {
            "session_id": self.session_id,
            "interaction_active": self.interaction_active,
            "interaction_role": self.interaction_role,
            "completion_running": self.completion_running,
            "tool_use_active": self.tool_use_active,
            "active_tool_calls": [c.to_dict() for c in self.active_tool_calls],
            "pending": self.pending(),
            "media": [m.to_dict() for m in self.media],
        }

    def _take(self, role: str) -> str | None:
        chunks = self._pending.pop(role, None)
        return "".join(chunks) if chunks else None

    def _flush(self) -> list[Message]:
        return [
            Message(role=role, content=self._take(role)) for role in list(self._pending)
        ]

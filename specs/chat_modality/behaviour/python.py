import bisect

# --- behaviour: ChatInput helpers and the ChatState store ---------------------

SUMMARY_MAX_CHARS: Final = 50
"""get_summary() shows text up to this many characters; longer text is cut to 47 and ends in "..."."""

DEFAULT_CONVERSATION_ENTITY: Final = "default_conversation"
"""What get_affected_entities() names when an input has no conversation_id."""

DEFAULT_INPUT_CONVERSATION: Final = CHAT_INPUT_CONVERSATION_ID_DEFAULT
"""ChatInput's default conversation_id; ChatState files such inputs under its default_conversation_id."""

QUERY_PARAMETERS: Final = (
    "conversation_id",
    "role",
    "since",
    "until",
    "limit",
    "search",
)
"""The keys ChatState.query() understands, in the order it checks them."""


def summarize(role: str, content: Content) -> str:
    """The summary line: "User: 'text'" (long text shortened), or "User: [multimodal message with N parts]"."""
    who = role[:1].upper() + role[1:]
    if isinstance(content, str):
        text = (
            content
            if len(content) <= SUMMARY_MAX_CHARS
            else content[: SUMMARY_MAX_CHARS - 3] + "..."
        )
        return f"{who}: '{text}'"
    parts = "part" if len(content) == 1 else "parts"
    return f"{who}: [multimodal message with {len(content)} {parts}]"


def _order_key(message: ChatMessage) -> tuple[datetime, str]:
    """Messages are ordered by timestamp; equal timestamps by input_id (absent reads as "")."""
    return (message.timestamp, message.input_id or "")


def _remove(messages: list[ChatMessage], message: ChatMessage) -> None:
    """Remove this very message object from an ordered list."""
    i = bisect.bisect_left(messages, _order_key(message), key=_order_key)
    while messages[i] is not message:
        i += 1
    del messages[i]


class _ChatIndex:
    """ChatState's lookups: messages by ID, and each conversation's messages in order."""

    def __init__(self, messages: list[ChatMessage]) -> None:
        self.by_id: dict[str, ChatMessage] = {}
        self.by_conversation: dict[str, list[ChatMessage]] = {}
        for m in messages:
            self.by_id.setdefault(m.message_id, m)
            self.by_conversation.setdefault(m.conversation_id, []).append(m)


@dataclass(frozen=True)
class ChatQuery:
    """ChatState.query() parameters, checked; None (or "") means "any"."""

    conversation_id: str | None = None
    role: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    limit: int | None = None
    search: str | None = None


def parse_chat_query(params: dict[str, Any]) -> ChatQuery:
    """Check query parameters; raise ValidationError naming each bad one (pointer /<name>)."""
    if not isinstance(params, dict):
        raise ValidationError(
            [_rt.ErrorDetail("", "query parameters must be an object", "type")]
        )
    errors: list[_rt.ErrorDetail] = []
    values: dict[str, Any] = {}
    for name in QUERY_PARAMETERS:
        value = params.get(name)
        if value is None:
            continue
        if name in ("since", "until"):
            when = (
                value
                if isinstance(value, datetime) and value.utcoffset() is not None
                else None
            )
            if isinstance(value, str):
                when = _rt.parse_datetime_text(value)
            if when is None:
                errors.append(
                    _rt.ErrorDetail(
                        f"/{name}",
                        "must be an RFC 3339 date-time, e.g. 2024-01-15T10:30:00Z",
                        "format",
                    )
                )
            values[name] = when
        elif name == "limit":
            whole = isinstance(value, int) or (
                isinstance(value, float) and value.is_integer()
            )
            if isinstance(value, bool) or not whole or value < 1:
                errors.append(
                    _rt.ErrorDetail("/limit", "must be an integer >= 1", "minimum")
                )
            else:
                values[name] = int(value)
        elif not isinstance(value, str):
            errors.append(_rt.ErrorDetail(f"/{name}", "must be a string", "type"))
        elif value:
            values[name] = value
    for name in sorted(set(params) - set(QUERY_PARAMETERS)):
        errors.append(
            _rt.ErrorDetail(
                "/" + name.replace("~", "~0").replace("/", "~1"),
                "unknown query parameter; known: " + ", ".join(QUERY_PARAMETERS),
                "additionalProperties",
            )
        )
    if errors:
        raise ValidationError(errors)
    return ChatQuery(**values)


def _matches(message: ChatMessage, q: ChatQuery) -> bool:
    if q.conversation_id is not None and message.conversation_id != q.conversation_id:
        return False
    if q.role is not None and message.role != q.role:
        return False
    if q.since is not None and message.timestamp < q.since:
        return False
    if q.until is not None and message.timestamp > q.until:
        return False
    return q.search is None or _contains_text(message.content, q.search.lower())


def _contains_text(content: Content, needle: str) -> bool:
    """Whether string content, or any text block, contains the (lower-case) needle, ignoring case."""
    if isinstance(content, str):
        return needle in content.lower()
    return any(
        isinstance(block, TextBlock) and needle in block.text.lower()
        for block in content
    )


def _state_problems(state: ChatState) -> list[str]:
    """ChatState.validate_state(): each inconsistency as one sentence."""
    problems: list[str] = []
    messages = state.messages
    for i in range(1, len(messages)):
        if _order_key(messages[i]) < _order_key(messages[i - 1]):
            problems.append(f"Messages not in chronological order at index {i}")
    seen: set[str] = set()
    by_conversation: dict[str, list[ChatMessage]] = {}
    for m in messages:
        if m.message_id in seen:
            problems.append(f"Message {m.message_id} appears more than once")
        seen.add(m.message_id)
        by_conversation.setdefault(m.conversation_id, []).append(m)
        if m.conversation_id not in state.conversations:
            problems.append(
                f"Message {m.message_id} belongs to conversation {m.conversation_id}, which has no metadata"
            )
    for cid in sorted(state.conversations):
        meta = state.conversations[cid]
        stored = by_conversation.get(cid, [])
        expected = min(meta.message_count, state.max_history_size)
        if len(stored) > state.max_history_size:
            problems.append(
                f"Conversation {cid} has {len(stored)} messages, exceeds maximum {state.max_history_size}"
            )
        elif len(stored) != expected:
            problems.append(
                f"Conversation {cid} holds {len(stored)} messages; its message_count {meta.message_count}"
                f" and max_history_size {state.max_history_size} call for {expected}"
            )
        for role in sorted({m.role for m in stored} - set(meta.participant_roles)):
            problems.append(
                f"Conversation {cid} metadata roles [{', '.join(meta.participant_roles)}] don't include {role}"
            )
        if stored and max(m.timestamp for m in stored) != meta.last_message_at:
            problems.append(
                f"Conversation {cid} metadata last_message_at doesn't match actual last message timestamp"
            )
        if stored and min(m.timestamp for m in stored) < meta.created_at:
            problems.append(
                f"Conversation {cid} metadata created_at is after its first message"
            )
    applied = sum(meta.message_count for meta in state.conversations.values())
    if state.update_count != applied:
        problems.append(
            f"update_count {state.update_count} doesn't match the {applied} messages applied to conversations"
        )
    if messages and (
        state.last_updated is None
        or state.last_updated < max(m.timestamp for m in messages)
    ):
        problems.append("last_updated is before the last message")
    return problems


class ChatInput:
    """Members the generated ChatInput dataclass gains."""

    def get_summary(self) -> str:
        """A one-line summary for logs and UIs, e.g. "User: 'What's the weather?'".

        Text longer than SUMMARY_MAX_CHARS characters is cut and ends in "...";
        multimodal content reads "[multimodal message with N parts]".
        """
        return summarize(self.role, self.content)

    def get_affected_entities(self) -> list[str]:
        """The conversation this input touches: [conversation_id], or ["default_conversation"] when it is unset."""
        return [self.conversation_id or DEFAULT_CONVERSATION_ENTITY]

    def should_merge_with(self, other: ChatInput) -> bool:
        """Always False: each chat message is distinct, never merged with another input."""
        return False


class ChatState:
    """Members the generated ChatState dataclass gains."""

    # Lookups kept by apply_input; built from the fields when first needed, so a
    # state parsed from a snapshot has them too. Not part of the wire shape.
    _index: _ChatIndex | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def apply_input(self, input_data: ChatInput) -> None:
        """Add the input's message to its conversation, keeping the order and the history limit.

        The input is validated first (ValidationError, state unchanged). An input
        whose conversation_id is the input's default (DEFAULT_INPUT_CONVERSATION) goes to
        default_conversation_id. A message_id already stored is refused. Messages
        stay ordered by (timestamp, input_id) whatever order inputs arrive in; a
        conversation keeps its newest max_history_size messages, while its metadata
        keeps describing every message applied (message_count counts them all).
        """
        # Parsing the input's own dict validates it and copies its content and
        # metadata, so later edits to the input cannot reach the state.
        input_data = ChatInput.from_dict(input_data.to_dict())
        if self.max_history_size < CHAT_STATE_MAX_HISTORY_SIZE_MINIMUM:
            raise ValidationError(
                [
                    _rt.ErrorDetail(
                        "/max_history_size",
                        f"must be >= {CHAT_STATE_MAX_HISTORY_SIZE_MINIMUM}",
                        "minimum",
                    )
                ]
            )
        index = self._indexed()
        if input_data.message_id in index.by_id:
            raise ValidationError(
                [
                    _rt.ErrorDetail(
                        "/message_id",
                        f"message ID '{input_data.message_id}' is already in the state",
                        "unique",
                    )
                ]
            )
        conversation_id = input_data.conversation_id
        if conversation_id == DEFAULT_INPUT_CONVERSATION:
            conversation_id = self.default_conversation_id
        message = ChatMessage(
            message_id=input_data.message_id,
            input_id=input_data.input_id,
            conversation_id=conversation_id,
            role=input_data.role,
            content=input_data.content,
            timestamp=input_data.timestamp,
            metadata=input_data.metadata,
        )
        conversation = index.by_conversation.setdefault(conversation_id, [])
        bisect.insort(self.messages, message, key=_order_key)
        bisect.insort(conversation, message, key=_order_key)
        index.by_id[message.message_id] = message
        while len(conversation) > self.max_history_size:
            oldest = conversation.pop(0)
            index.by_id.pop(oldest.message_id, None)
            _remove(self.messages, oldest)
        self._count(message)
        self.update_count += 1
        if self.last_updated is None or message.timestamp > self.last_updated:
            self.last_updated = message.timestamp

    def _count(self, message: ChatMessage) -> None:
        """Update the conversation's metadata for one more applied message."""
        meta = self.conversations.get(message.conversation_id)
        if meta is None:
            meta = ConversationMetadata(
                conversation_id=message.conversation_id,
                created_at=message.timestamp,
                last_message_at=message.timestamp,
                message_count=0,
            )
            self.conversations[message.conversation_id] = meta
        meta.created_at = min(meta.created_at, message.timestamp)
        meta.last_message_at = max(meta.last_message_at, message.timestamp)
        meta.message_count += 1
        if message.role not in meta.participant_roles:
            meta.participant_roles = sorted([*meta.participant_roles, message.role])

    def get_snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-shaped data; ChatState.from_dict() turns it back into a state."""
        return self.to_dict()

    def validate_state(self) -> list[str]:
        """Problems with the state's consistency (ordering, metadata, history limits); empty when valid."""
        return _state_problems(self)

    def query(self, query_params: dict[str, Any]) -> list[ChatMessage]:
        """Stored messages matching every given parameter, in chronological order.

        Parameters: conversation_id, role, since and until (datetime or RFC 3339
        text, both inclusive), limit (the newest N of the matches, N >= 1) and search
        (case-insensitive text in string content or in text blocks). Unknown or
        ill-typed parameters raise ValidationError. The stored order is never
        changed; the messages returned are the stored ones, to be read, not edited.
        """
        q = parse_chat_query(query_params)
        index = self._indexed()
        found: list[ChatMessage] = (
            index.by_conversation.get(q.conversation_id, [])
            if q.conversation_id is not None
            else self.messages
        )
        found = [m for m in found if _matches(m, q)]
        return found[-q.limit :] if q.limit is not None else found

    def get_conversation(self, conversation_id: str) -> list[ChatMessage]:
        """Every stored message of one conversation, in chronological order (empty when unknown)."""
        return list(self._indexed().by_conversation.get(conversation_id, []))

    def get_recent_messages(
        self, limit: int = 10, conversation_id: str | None = None
    ) -> list[ChatMessage]:
        """The newest `limit` stored messages (of one conversation if given), in chronological order."""
        params: dict[str, Any] = {"limit": limit}
        if conversation_id is not None:
            params["conversation_id"] = conversation_id
        return self.query(params)

    def get_message_by_id(self, message_id: str) -> ChatMessage | None:
        """The stored message with this ID, or None."""
        return self._indexed().by_id.get(message_id)

    def reindex(self) -> None:
        """Rebuild the lookups from messages; needed only after editing messages by hand."""
        self._index = _ChatIndex(self.messages)

    def _indexed(self) -> _ChatIndex:
        if self._index is None:
            self.reindex()
        assert self._index is not None
        return self._index

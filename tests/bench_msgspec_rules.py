"""make bench's msgspec peer (tests/bench_msgspec.py): each format's x-rules, written by hand as a msgspec user
writes checks msgspec's constraints cannot state: `__post_init__` hooks that raise ValueError, which msgspec
reports as a ValidationError. Each reads a Struct msgspec has already checked against the format's types."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from msgspec import UNSET


def date_time(text: Any) -> Any:
    """A date-time string the Struct's pattern matched, as a datetime (ValueError for a day the month lacks);
    fromisoformat takes the T and the Z in capitals only."""
    return text if text is UNSET or text is None else datetime.fromisoformat(text.upper())


def unique(items: Any) -> None:
    """uniqueItems, for the lists of strings it is set on."""
    if items is not UNSET and len(set(items)) != len(items):
        raise ValueError("items are not unique")


def _given(value: Any) -> bool:
    return value is not UNSET and value is not None


# chat_event: Message and RenderMedia are at_least_one_of.
def message(m: Any) -> None:
    if not (_given(m.content) or _given(m.tool_calls)):
        raise ValueError("a message must have content unless it carries tool_calls")


def render_media(m: Any) -> None:
    if not (_given(m.url) or _given(m.content) or _given(m.content_bytes)):
        raise ValueError("render media must have a url, content or both")


# chat_modality: Image, Audio and Video blocks are required_when source is url (url) or base64 (data).
def media_block(block: Any) -> None:
    if block.source == "url" and block.url is UNSET or block.source == "base64" and block.data is UNSET:
        raise ValueError("a media block lacks what its source names")


# droidlet_chat (and 1.0.0, whose items are (id, content) pairs and content_type a one-item list): content
# contains a text item; allowed_when content_type names a kind of chat, only those items.
ALLOWED = {
    "chat_string": {"text"},
    "chat_and_media": {"text", "image_link"},
    "chat_and_text_options": {"text", "response_option"},
    "chat_and_media_options": {"text", "response_image_link"},
    "chat_and_media_and_text_options": {"text", "image_link", "response_option"},
}


def _kinds(content_type: str, ids: list[str]) -> None:
    if "text" not in ids:
        raise ValueError("a chat must contain at least one text item")
    only = ALLOWED.get(content_type)
    if only is not None and not only.issuperset(ids):
        raise ValueError(f"content type {content_type} admits only {sorted(only)}")


def droidlet_chat(chat: Any) -> None:
    _kinds(chat.content_type, [item.id for item in chat.content])


def droidlet_chat_v1(chat: Any) -> None:
    _kinds(chat.content_type[0], [item[0] for item in chat.content])


# structured_conversation: member_of: the user and every message's speaker are among the people.
def structured_conversation(conversation: Any) -> None:
    people = set(conversation.people)
    if conversation.user not in people:
        raise ValueError("the user must be included in the people list")
    for m in conversation.conversation:
        if m.speaker not in people:
            raise ValueError("a speaker must be included in the people list")


# format -> {Struct name: the hook its __post_init__ calls}
HOOKS: dict[str, dict[str, str]] = {
    "chat_event": {"Message": "message", "RenderMedia": "render_media"},
    "chat_modality": {"ImageBlock": "media_block", "AudioBlock": "media_block", "VideoBlock": "media_block"},
    "droidlet_chat": {"DroidletChat": "droidlet_chat"},
    "droidlet_chat_v1": {"DroidletChat": "droidlet_chat_v1"},
    "structured_conversation": {"StructuredConversation": "structured_conversation"},
}

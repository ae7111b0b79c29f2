from . import droidlet_chat_v1 as _v1

# --- behaviour: upgrading a version 1 chat -------------------------------------

V1_SECONDS_BELOW: Final = 100_000_000_000
"""Version 1 timestamps below this are read as seconds (as milliseconds they would
fall before 1973) and multiplied by 1000; larger ones are already milliseconds."""


def upgrade_from_v1(chat: _v1.DroidletChat) -> DroidletChat:
    """A version 1 chat as a version 2 chat.

    speaker_id becomes chat_memid, the one-item content_type list its only value,
    each [kind, text] pair an item {"id": kind, "content": text}, and a timestamp in
    seconds becomes milliseconds (see V1_SECONDS_BELOW). The result is validated:
    a version 1 chat that is not valid raises ValidationError.
    """
    timestamp = (
        chat.timestamp * 1000 if chat.timestamp < V1_SECONDS_BELOW else chat.timestamp
    )
    return DroidletChat.from_dict(
        {
            "chat_memid": chat.speaker_id,
            "timestamp": timestamp,
            "content_type": chat.content_type[0] if chat.content_type else None,
            "content": [{"id": kind, "content": text} for kind, text in chat.content],
        }
    )


def build_chat(
    speaker_id: str,
    timestamp: int,
    text: str,
    media: str | None = None,
    text_options: list[str] | None = None,
    media_options: list[str] | None = None,
) -> DroidletChat:
    """A chat whose content type follows from what is given.

    media_options -> chat_and_media_options; media with text_options ->
    chat_and_media_and_text_options; text_options -> chat_and_text_options;
    media -> chat_and_media; otherwise chat_string. Items: the text, then the
    media link, the response options and the response image links. A combination
    the content type does not admit (e.g. text options with media options) raises
    ValidationError, as any invalid chat does. timestamp is in milliseconds.
    """
    if media_options:
        content_type = "chat_and_media_options"
    elif media and text_options:
        content_type = "chat_and_media_and_text_options"
    elif text_options:
        content_type = "chat_and_text_options"
    elif media:
        content_type = "chat_and_media"
    else:
        content_type = "chat_string"
    items = [{"id": "text", "content": text}]
    if media:
        items.append({"id": "image_link", "content": media})
    items += [
        {"id": "response_option", "content": option} for option in text_options or []
    ]
    items += [
        {"id": "response_image_link", "content": link} for link in media_options or []
    ]
    return DroidletChat.from_dict(
        {
            "chat_memid": speaker_id,
            "timestamp": timestamp,
            "content_type": content_type,
            "content": items,
        }
    )

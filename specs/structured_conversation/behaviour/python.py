# --- behaviour: the legacy text form ------------------------------------------

GO_WHITESPACE: Final = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
"""What Go's strings.TrimSpace trims (unicode.IsSpace); str.strip() would also trim \\x1c-\\x1f."""


class ConversationDocument:
    """Members the generated ConversationDocument dataclass gains."""

    def to_text_document(self) -> TextDocument:
        """The legacy text form, as Go's ToTextDocument(): one "<speaker>: <content>"
        line per message (the whole text trimmed of whitespace as Go's
        strings.TrimSpace sees it), the first message's time, the tags as they are,
        and a copy of the metadata plus "source" and "user"."""
        messages = self.conversation.conversation
        content = "\n".join(f"{m.speaker}: {m.content}" for m in messages).strip(
            GO_WHITESPACE
        )
        metadata = dict(self.metadata or {})
        metadata["source"] = self.conversation.source
        metadata["user"] = self.conversation.user
        return TextDocument(
            id=self.id,
            content=content,
            timestamp=messages[0].time if messages else None,
            tags=self.tags,
            metadata=metadata,
        )

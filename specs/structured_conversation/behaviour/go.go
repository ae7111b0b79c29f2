package structuredconversation

import (
	"strings"
)

// ToTextDocument converts the document to the legacy text format: one
// "<speaker>: <content>" line per message (the whole text trimmed), the first
// message's time, the tags as they are, and a copy of the metadata plus
// "source" and "user".
func (d *ConversationDocument) ToTextDocument() *TextDocument {
	lines := make([]string, 0, len(d.Conversation.Conversation))
	for _, msg := range d.Conversation.Conversation {
		lines = append(lines, msg.Speaker+": "+msg.Content)
	}
	doc := &TextDocument{
		ID:       d.ID,
		Content:  strings.TrimSpace(strings.Join(lines, "\n")),
		Tags:     d.Tags,
		Metadata: make(map[string]string, len(d.Metadata)+2),
	}
	if len(d.Conversation.Conversation) > 0 {
		first := d.Conversation.Conversation[0].Time
		doc.Timestamp = &first
	}
	for k, v := range d.Metadata {
		doc.Metadata[k] = v
	}
	doc.Metadata["source"] = d.Conversation.Source
	doc.Metadata["user"] = d.Conversation.User
	return doc
}

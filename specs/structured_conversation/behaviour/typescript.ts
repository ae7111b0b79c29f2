// ConversationDocument's legacy text form, for TypeScript: real source beside the generated
// package (generated/typescript/src/), placed at the end of src/structured_conversation.ts.
import type { ConversationDocument, TextDocument } from "./structured_conversation.js";

// --- behaviour: the legacy text form ------------------------------------------

/** What Go's strings.TrimSpace trims (unicode.IsSpace); String.prototype.trim() would also trim U+FEFF and not U+0085. */
export const GO_WHITESPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

function trimGoSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && GO_WHITESPACE.includes(text.charAt(start))) start++;
  while (end > start && GO_WHITESPACE.includes(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * The legacy text form, as Go's ToTextDocument() and Python's to_text_document(): one
 * "<speaker>: <content>" line per message (the whole text trimmed of whitespace as Go's
 * strings.TrimSpace sees it), the first message's time, the tags as they are, and a copy
 * of the metadata plus "source" and "user".
 */
export function toTextDocument(doc: ConversationDocument): TextDocument {
  const messages = doc.conversation.conversation;
  const content = trimGoSpace(messages.map((m) => `${m.speaker}: ${m.content}`).join("\n"));
  const metadata: { [key: string]: string } = { ...(doc.metadata ?? {}) };
  metadata["source"] = doc.conversation.source;
  metadata["user"] = doc.conversation.user;
  const text: TextDocument = { id: doc.id, content, metadata };
  const first = messages[0];
  if (first !== undefined) text.timestamp = first.time;
  if (doc.tags !== undefined) text.tags = doc.tags;
  return text;
}

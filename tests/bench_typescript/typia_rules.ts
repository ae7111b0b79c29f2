// make bench's typia peer (tests/bench_typia.py): each format's x-rules, written by hand as a typia user
// writes the checks typia's tags cannot state. Each takes a value typia has already checked against the
// format's types, so it reads fields without checking their kinds again. Each rule's spec is named above it.

/* eslint-disable @typescript-eslint/no-explicit-any */

function present(value: any, field: string): boolean {
  return value[field] !== undefined && value[field] !== null;
}

// chat_event: Message and RenderMedia are at_least_one_of.
function messageFits(message: any): boolean {
  return present(message, "content") || present(message, "tool_calls");
}

export function rulesChatEvent(event: any): boolean {
  const media = event.render_media;
  if (media !== undefined && media !== null && !(present(media, "url") || present(media, "content") || present(media, "content_bytes"))) return false;
  const messages = event.messages;
  if (messages !== undefined && messages !== null) {
    for (const message of messages) if (!messageFits(message)) return false;
  }
  return true;
}

// chat_modality: Image, Audio and Video blocks are required_when source is url (url) or base64 (data).
export function rulesChatModality(input: any): boolean {
  const content = input.content;
  if (typeof content === "string") return true;
  for (const block of content) {
    if (block.type === "text") continue;
    if (block.source === "url" && block.url === undefined) return false;
    if (block.source === "base64" && block.data === undefined) return false;
  }
  return true;
}

// droidlet_chat (and its 1.0.0, whose items are [id, content] pairs and content_type a one-item list):
// content contains a text item; allowed_when content_type names a kind of chat, only those items.
const allowed: Record<string, readonly string[]> = {
  chat_string: ["text"],
  chat_and_media: ["text", "image_link"],
  chat_and_text_options: ["text", "response_option"],
  chat_and_media_options: ["text", "response_image_link"],
  chat_and_media_and_text_options: ["text", "image_link", "response_option"],
};

function kindsFit(contentType: string, ids: readonly string[]): boolean {
  const only = allowed[contentType];
  let text = false;
  for (const id of ids) {
    if (id === "text") text = true;
    else if (only !== undefined && !only.includes(id)) return false;
  }
  return text;
}

export function rulesDroidletChat(chat: any): boolean {
  return kindsFit(chat.content_type, chat.content.map((item: any) => item.id));
}

export function rulesDroidletChatV1(chat: any): boolean {
  return kindsFit(chat.content_type[0], chat.content.map((item: any) => item[0]));
}

// structured_conversation: member_of: the user and every message's speaker are among the people.
export function rulesStructuredConversation(document: any): boolean {
  const conversation = document.conversation;
  const people = new Set<string>(conversation.people);
  if (!people.has(conversation.user)) return false;
  for (const message of conversation.conversation) if (!people.has(message.speaker)) return false;
  return true;
}

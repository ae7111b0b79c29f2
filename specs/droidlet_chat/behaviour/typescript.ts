// build_chat and upgradeFromV1, for TypeScript: real source beside the generated package
// (generated/typescript/src/), placed at the end of src/droidlet_chat.ts.
import type { ContentType, DroidletChat } from "./droidlet_chat.js";
import { parseDroidletChat } from "./droidlet_chat.js";
import * as v1 from "./droidlet_chat_v1.js";

// --- behaviour: upgrading a version 1 chat -------------------------------------

/**
 * Version 1 timestamps below this are read as seconds (as milliseconds they would fall
 * before 1973) and multiplied by 1000; larger ones are already milliseconds.
 */
export const V1_SECONDS_BELOW = 100_000_000_000;

/**
 * A version 1 chat as a version 2 chat: speaker_id becomes chat_memid, the one-item
 * content_type list its only value, each [kind, text] pair an item {id: kind, content: text},
 * and a timestamp in seconds becomes milliseconds (see V1_SECONDS_BELOW). The result is
 * validated: a version 1 chat that is not valid throws ValidationError.
 */
export function upgradeFromV1(chat: v1.DroidletChat): DroidletChat {
  const timestamp = chat.timestamp < V1_SECONDS_BELOW ? chat.timestamp * 1000 : chat.timestamp;
  return parseDroidletChat({
    chat_memid: chat.speaker_id,
    timestamp,
    content_type: chat.content_type.length > 0 ? chat.content_type[0] : null,
    content: chat.content.map(([kind, text]) => ({ id: kind, content: text })),
  });
}

/** What buildChat takes besides the speaker, the time and the text. */
export interface BuildChatOptions {
  media?: string | null;
  textOptions?: string[] | null;
  mediaOptions?: string[] | null;
}

/**
 * A chat whose content type follows from what is given, as Python's build_chat and Go's
 * BuildChat: mediaOptions -> chat_and_media_options; media with textOptions ->
 * chat_and_media_and_text_options; textOptions -> chat_and_text_options; media ->
 * chat_and_media; otherwise chat_string. Items: the text, then the media link, the response
 * options and the response image links. A combination the content type does not admit
 * (e.g. text options with media options) throws ValidationError, as any invalid chat does.
 * timestamp is in milliseconds. Empty strings and empty lists count as not given.
 */
export function buildChat(speakerId: string, timestamp: number, text: string, options: BuildChatOptions = {}): DroidletChat {
  const media = options.media ?? "";
  const textOptions = options.textOptions ?? [];
  const mediaOptions = options.mediaOptions ?? [];
  let contentType: ContentType;
  if (mediaOptions.length > 0) contentType = "chat_and_media_options";
  else if (media !== "" && textOptions.length > 0) contentType = "chat_and_media_and_text_options";
  else if (textOptions.length > 0) contentType = "chat_and_text_options";
  else if (media !== "") contentType = "chat_and_media";
  else contentType = "chat_string";
  const items: { id: string; content: string }[] = [{ id: "text", content: text }];
  if (media !== "") items.push({ id: "image_link", content: media });
  for (const option of textOptions) items.push({ id: "response_option", content: option });
  for (const link of mediaOptions) items.push({ id: "response_image_link", content: link });
  return parseDroidletChat({ chat_memid: speakerId, timestamp, content_type: contentType, content: items });
}

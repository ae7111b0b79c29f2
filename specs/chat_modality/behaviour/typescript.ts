// ChatInput's helpers and the ChatState store, for TypeScript: real source beside the generated
// package (generated/typescript/src/), placed at the end of src/chat_modality.ts. A ChatState is
// plain data there, so the store is a class holding one (ChatStore), with the methods Python's
// ChatState and Go's *ChatState have, and the same results (tests/scenarios/chat_modality/).
import type { ChatInput, ChatMessage, ChatState, Content, ConversationMetadata } from "./chat_modality.js";
import {
  CHAT_INPUT_CONVERSATION_ID_DEFAULT,
  CHAT_STATE_MAX_HISTORY_SIZE_MINIMUM,
  encodeChatInput,
  encodeChatState,
  parseChatInput,
  parseChatState,
} from "./chat_modality.js";
import * as rt from "./runtime.js";

// --- behaviour: ChatInput helpers and the ChatState store ---------------------

/** getSummary() shows text up to this many characters; longer text is cut to 47 and ends in "...". */
export const SUMMARY_MAX_CHARS = 50;

/** What getAffectedEntities() names when an input has no conversation_id. */
export const DEFAULT_CONVERSATION_ENTITY = "default_conversation";

/** The keys ChatStore.query() understands, in the order it checks them. */
export const QUERY_PARAMETERS = ["conversation_id", "role", "since", "until", "limit", "search"] as const;

/** Strings in code point order, as Python and Go compare them (JavaScript's < compares UTF-16 units). */
function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** A date-time as a comparable instant: [whole seconds since the epoch, microseconds], as Python's datetime holds it. */
type Instant = readonly [number, number];

function instant(text: string): Instant {
  const year = Number(text.slice(0, 4));
  const day = new Date(0);
  day.setUTCFullYear(year, Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  let seconds = day.getTime() / 1000 + Number(text.slice(11, 13)) * 3600 + Number(text.slice(14, 16)) * 60 + Number(text.slice(17, 19));
  let i = 19;
  let micro = 0;
  if (text[i] === ".") {
    let j = i + 1;
    while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    micro = Number((text.slice(i + 1, j) + "000000").slice(0, 6));
    i = j;
  }
  if (text[i] === "+" || text[i] === "-") {
    const offset = Number(text.slice(i + 1, i + 3)) * 3600 + Number(text.slice(i + 4, i + 6)) * 60;
    seconds -= text[i] === "+" ? offset : -offset;
  }
  return [seconds, micro];
}

function compareInstants(a: Instant, b: Instant): number {
  return a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] !== b[1] ? (a[1] < b[1] ? -1 : 1) : 0;
}

function compareTimes(a: string, b: string): number {
  return compareInstants(instant(a), instant(b));
}

/** Messages are ordered by timestamp; equal timestamps by input_id (absent reads as ""). */
function compareOrder(a: ChatMessage, b: ChatMessage): number {
  return compareTimes(a.timestamp, b.timestamp) || compareText(a.input_id ?? "", b.input_id ?? "");
}

/** Insert after every item that does not come after it (Python's bisect.insort). */
function insort(list: ChatMessage[], message: ChatMessage): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareOrder(message, list[mid]!) < 0) hi = mid;
    else lo = mid + 1;
  }
  list.splice(lo, 0, message);
}

function codePoints(text: string): string[] {
  return Array.from(text);
}

/** The summary line: "User: 'text'" (long text shortened), or "User: [multimodal message with N parts]". */
export function summarize(role: string, content: Content): string {
  const chars = codePoints(role);
  const who = (chars[0] ?? "").toUpperCase() + chars.slice(1).join("");
  if (typeof content === "string") {
    const text = codePoints(content);
    const shown = text.length <= SUMMARY_MAX_CHARS ? content : text.slice(0, SUMMARY_MAX_CHARS - 3).join("") + "...";
    return `${who}: '${shown}'`;
  }
  return `${who}: [multimodal message with ${content.length} ${content.length === 1 ? "part" : "parts"}]`;
}

/** A one-line summary for logs and UIs, e.g. "User: 'What's the weather?'" (Python's ChatInput.get_summary()). */
export function getSummary(input: ChatInput): string {
  return summarize(input.role, input.content);
}

/** The conversation an input touches: [conversation_id], or ["default_conversation"] when it is unset. */
export function getAffectedEntities(input: ChatInput): string[] {
  return [input.conversation_id || DEFAULT_CONVERSATION_ENTITY];
}

/** Always false: each chat message is distinct, never merged with another input. */
export function shouldMergeWith(_input: ChatInput, _other: ChatInput): boolean {
  return false;
}

/** ChatStore.query() parameters; an absent key (or null, or "") means "any". since and until take RFC 3339 text or a Date. */
export interface ChatQueryParams {
  conversation_id?: string | null;
  role?: string | null;
  since?: string | Date | null;
  until?: string | Date | null;
  limit?: number | null;
  search?: string | null;
}

interface ChatQuery {
  conversation_id?: string;
  role?: string;
  since?: Instant;
  until?: Instant;
  limit?: number;
  search?: string;
}

function escapePointer(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Check query parameters; throw ValidationError naming each bad one (pointer /<name>). */
function parseChatQuery(params: unknown): ChatQuery {
  if (typeof params !== "object" || params === null || Array.isArray(params) || params instanceof Date) {
    throw new rt.ValidationError([{ path: "", message: "query parameters must be an object" }]);
  }
  const given = params as { [key: string]: unknown };
  const errors: rt.ErrorDetail[] = [];
  const q: ChatQuery = {};
  for (const name of QUERY_PARAMETERS) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (value === undefined || value === null) continue;
    if (name === "since" || name === "until") {
      let when: Instant | undefined;
      if (typeof value === "string" && rt.isDateTime(value)) when = instant(value);
      else if (value instanceof Date && !Number.isNaN(value.getTime())) {
        const ms = value.getTime();
        when = [Math.floor(ms / 1000), (ms - Math.floor(ms / 1000) * 1000) * 1000];
      }
      if (when === undefined) errors.push({ path: `/${name}`, message: "must be an RFC 3339 date-time, e.g. 2024-01-15T10:30:00Z" });
      else q[name] = when;
    } else if (name === "limit") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1) errors.push({ path: "/limit", message: "must be an integer >= 1" });
      else q.limit = value;
    } else if (typeof value !== "string") {
      errors.push({ path: `/${name}`, message: "must be a string" });
    } else if (value !== "") {
      q[name] = value;
    }
  }
  const known: readonly string[] = QUERY_PARAMETERS;
  for (const name of Object.keys(given).filter((k) => !known.includes(k)).sort(compareText)) {
    errors.push({ path: "/" + escapePointer(name), message: "unknown query parameter; known: " + QUERY_PARAMETERS.join(", ") });
  }
  if (errors.length > 0) throw new rt.ValidationError(errors);
  return q;
}

/** Whether string content, or any text block, contains the (lower-case) needle, ignoring case. */
function containsText(content: Content, needle: string): boolean {
  if (typeof content === "string") return content.toLowerCase().includes(needle);
  return content.some((block) => block.type === "text" && block.text.toLowerCase().includes(needle));
}

function matches(message: ChatMessage, q: ChatQuery): boolean {
  if (q.conversation_id !== undefined && message.conversation_id !== q.conversation_id) return false;
  if (q.role !== undefined && message.role !== q.role) return false;
  if (q.since !== undefined && compareInstants(instant(message.timestamp), q.since) < 0) return false;
  if (q.until !== undefined && compareInstants(instant(message.timestamp), q.until) > 0) return false;
  return q.search === undefined || containsText(message.content, q.search.toLowerCase());
}

/** The earliest (first one on a tie) or the latest (first one on a tie) of some date-times. */
function extreme(times: rt.DateTimeString[], sign: 1 | -1): rt.DateTimeString {
  return times.reduce((best, t) => (sign * compareTimes(t, best) > 0 ? t : best));
}

/**
 * The ChatState store: ChatStore holds a ChatState (plain data, as parsed) and keeps it as
 * Python's ChatState and Go's *ChatState keep theirs. Messages stay ordered by
 * (timestamp, input_id) whatever order inputs arrive in; a conversation keeps its newest
 * max_history_size messages, while its metadata describes every message applied.
 */
export class ChatStore {
  /** The state; read it freely, and call reindex() after editing its messages by hand. */
  readonly state: ChatState;
  private byId = new Map<string, ChatMessage>();
  private byConversation = new Map<string, ChatMessage[]>();

  /** A store over a state (validated by parseChatState when it comes from the wire), or a new empty one. */
  constructor(state?: ChatState) {
    this.state = state ?? parseChatState({});
    this.reindex();
  }

  /** A store over a snapshot (what getSnapshot() returns), validated. */
  static fromSnapshot(snapshot: unknown): ChatStore {
    return new ChatStore(parseChatState(snapshot));
  }

  /**
   * Add the input's message to its conversation, keeping the order and the history limit.
   * The input is validated first (ValidationError, state unchanged). An input whose
   * conversation_id is the input's default goes to default_conversation_id. A message_id
   * already stored is refused.
   */
  applyInput(inputData: ChatInput): void {
    // Parsing the input's own wire form validates it and copies its content and metadata,
    // so later edits to the input cannot reach the state.
    const input = parseChatInput(rt.decodeJSON(rt.encodeJSON(encodeChatInput(inputData))));
    const state = this.state;
    if (state.max_history_size < CHAT_STATE_MAX_HISTORY_SIZE_MINIMUM) {
      throw new rt.ValidationError([{ path: "/max_history_size", message: `must be >= ${CHAT_STATE_MAX_HISTORY_SIZE_MINIMUM}` }]);
    }
    if (this.byId.has(input.message_id)) {
      throw new rt.ValidationError([{ path: "/message_id", message: `message ID '${input.message_id}' is already in the state` }]);
    }
    const conversationId = input.conversation_id === CHAT_INPUT_CONVERSATION_ID_DEFAULT ? state.default_conversation_id : input.conversation_id;
    const message: ChatMessage = {
      message_id: input.message_id,
      input_id: input.input_id,
      conversation_id: conversationId,
      role: input.role,
      content: input.content,
      timestamp: input.timestamp,
      metadata: input.metadata,
    };
    let conversation = this.byConversation.get(conversationId);
    if (conversation === undefined) {
      conversation = [];
      this.byConversation.set(conversationId, conversation);
    }
    insort(state.messages, message);
    insort(conversation, message);
    this.byId.set(message.message_id, message);
    while (conversation.length > state.max_history_size) {
      const oldest = conversation.shift()!;
      this.byId.delete(oldest.message_id);
      state.messages.splice(state.messages.indexOf(oldest), 1);
    }
    this.count(message);
    state.update_count += 1;
    if (state.last_updated === undefined || compareTimes(message.timestamp, state.last_updated) > 0) {
      state.last_updated = message.timestamp;
    }
  }

  private count(message: ChatMessage): void {
    const conversations = this.state.conversations;
    let meta: ConversationMetadata | undefined = Object.hasOwn(conversations, message.conversation_id)
      ? conversations[message.conversation_id]
      : undefined;
    if (meta === undefined) {
      meta = {
        conversation_id: message.conversation_id,
        created_at: message.timestamp,
        last_message_at: message.timestamp,
        message_count: 0,
        participant_roles: [],
      };
      Object.defineProperty(conversations, message.conversation_id, { value: meta, enumerable: true, writable: true, configurable: true });
    }
    meta.created_at = extreme([meta.created_at, message.timestamp], -1);
    meta.last_message_at = extreme([meta.last_message_at, message.timestamp], 1);
    meta.message_count += 1;
    if (!meta.participant_roles.includes(message.role)) {
      meta.participant_roles = [...meta.participant_roles, message.role].sort(compareText);
    }
  }

  /** The whole state as JSON-shaped data; ChatStore.fromSnapshot() turns it back into a store. */
  getSnapshot(): { [key: string]: unknown } {
    return encodeChatState(this.state);
  }

  /** Problems with the state's consistency (ordering, metadata, history limits); empty when valid. */
  validateState(): string[] {
    const state = this.state;
    const problems: string[] = [];
    const messages = state.messages;
    for (let i = 1; i < messages.length; i++) {
      if (compareOrder(messages[i]!, messages[i - 1]!) < 0) problems.push(`Messages not in chronological order at index ${i}`);
    }
    const seen = new Set<string>();
    const byConversation = new Map<string, ChatMessage[]>();
    for (const m of messages) {
      if (seen.has(m.message_id)) problems.push(`Message ${m.message_id} appears more than once`);
      seen.add(m.message_id);
      const list = byConversation.get(m.conversation_id);
      if (list === undefined) byConversation.set(m.conversation_id, [m]);
      else list.push(m);
      if (!Object.hasOwn(state.conversations, m.conversation_id)) {
        problems.push(`Message ${m.message_id} belongs to conversation ${m.conversation_id}, which has no metadata`);
      }
    }
    let applied = 0;
    for (const cid of Object.keys(state.conversations).sort(compareText)) {
      const meta = state.conversations[cid]!;
      applied += meta.message_count;
      const stored = byConversation.get(cid) ?? [];
      const expected = Math.min(meta.message_count, state.max_history_size);
      if (stored.length > state.max_history_size) {
        problems.push(`Conversation ${cid} has ${stored.length} messages, exceeds maximum ${state.max_history_size}`);
      } else if (stored.length !== expected) {
        problems.push(`Conversation ${cid} holds ${stored.length} messages; its message_count ${meta.message_count}`
          + ` and max_history_size ${state.max_history_size} call for ${expected}`);
      }
      const roles = [...new Set(stored.map((m) => m.role))].filter((r) => !meta.participant_roles.includes(r)).sort(compareText);
      for (const role of roles) {
        problems.push(`Conversation ${cid} metadata roles [${meta.participant_roles.join(", ")}] don't include ${role}`);
      }
      if (stored.length > 0 && compareTimes(extreme(stored.map((m) => m.timestamp), 1), meta.last_message_at) !== 0) {
        problems.push(`Conversation ${cid} metadata last_message_at doesn't match actual last message timestamp`);
      }
      if (stored.length > 0 && compareTimes(extreme(stored.map((m) => m.timestamp), -1), meta.created_at) < 0) {
        problems.push(`Conversation ${cid} metadata created_at is after its first message`);
      }
    }
    if (state.update_count !== applied) {
      problems.push(`update_count ${state.update_count} doesn't match the ${applied} messages applied to conversations`);
    }
    if (messages.length > 0 && (state.last_updated === undefined
      || compareTimes(state.last_updated, extreme(messages.map((m) => m.timestamp), 1)) < 0)) {
      problems.push("last_updated is before the last message");
    }
    return problems;
  }

  /**
   * Stored messages matching every given parameter, in chronological order. Parameters:
   * conversation_id, role, since and until (RFC 3339 text or a Date, both inclusive), limit
   * (the newest N of the matches, N >= 1) and search (case-insensitive text in string
   * content or in text blocks). Unknown or ill-typed parameters throw ValidationError. The
   * stored order is never changed; the messages returned are the stored ones, to be read.
   */
  query(queryParams: ChatQueryParams): ChatMessage[] {
    const q = parseChatQuery(queryParams);
    const pool = q.conversation_id !== undefined ? this.byConversation.get(q.conversation_id) ?? [] : this.state.messages;
    const found = pool.filter((m) => matches(m, q));
    return q.limit !== undefined ? found.slice(Math.max(0, found.length - q.limit)) : found;
  }

  /** Every stored message of one conversation, in chronological order (empty when unknown). */
  getConversation(conversationId: string): ChatMessage[] {
    return [...(this.byConversation.get(conversationId) ?? [])];
  }

  /** The newest `limit` stored messages (of one conversation if given), in chronological order. */
  getRecentMessages(limit = 10, conversationId?: string): ChatMessage[] {
    return this.query(conversationId !== undefined ? { limit, conversation_id: conversationId } : { limit });
  }

  /** The stored message with this ID, or undefined. */
  getMessageById(messageId: string): ChatMessage | undefined {
    return this.byId.get(messageId);
  }

  /** Rebuild the lookups from the messages; needed only after editing them by hand. */
  reindex(): void {
    this.byId = new Map();
    this.byConversation = new Map();
    for (const m of this.state.messages) {
      if (!this.byId.has(m.message_id)) this.byId.set(m.message_id, m);
      const list = this.byConversation.get(m.conversation_id);
      if (list === undefined) this.byConversation.set(m.conversation_id, [m]);
      else list.push(m);
    }
  }
}


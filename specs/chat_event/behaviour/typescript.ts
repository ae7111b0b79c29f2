// InteractionAccumulator, for TypeScript: real source beside the generated package
// (generated/typescript/src/), placed at the end of src/chat_event.ts.
import type { ChatEvent, Message, RenderMedia, ToolCall } from "./chat_event.js";
import { encodeRenderMedia, encodeToolCall, validateChatEvent } from "./chat_event.js";

// --- behaviour: assembling a stream of events into messages -------------------

/** The tracked state of an InteractionAccumulator as JSON-shaped data (Python's status()). */
export interface AccumulatorStatus {
  session_id: string | null;
  interaction_active: boolean;
  interaction_role: string | null;
  completion_running: boolean | null;
  tool_use_active: boolean | null;
  active_tool_calls: { [key: string]: unknown }[];
  pending: { [role: string]: string };
  media: { [key: string]: unknown }[];
}

/**
 * Turns the ChatEvents a client receives into finished messages, as Python's and Go's
 * InteractionAccumulator. Feed every event in arrival order: content chunks are buffered per
 * role until the interaction completes (or, for the role announcing tool calls, until it
 * does: its text so far and the calls become one message); start, completion_running and
 * tool_use_active are tracked, with the tool calls that are active; render_media is
 * collected. feed() returns the messages the event finished. The event stream never carries
 * tool results, so messages holds what was streamed; the agent's own list, when the
 * completing event has one, is finalMessages.
 */
export class InteractionAccumulator {
  sessionId: string | null = null;
  interactionActive = false;
  interactionRole: string | null = null;
  completionRunning: boolean | null = null;
  toolUseActive: boolean | null = null;
  activeToolCalls: ToolCall[] = [];
  media: RenderMedia[] = [];
  messages: Message[] = [];
  finalMessages: Message[] | null = null;
  // role -> chunks; Map order is the order roles first streamed text.
  private readonly pendingChunks = new Map<string, string[]>();

  /** Apply one event (validated first: a ValidationError leaves the accumulator as it was). */
  feed(event: ChatEvent): Message[] {
    validateChatEvent(event);
    const finished: Message[] = [];
    this.sessionId = event.session_id;
    if (event.start) {
      finished.push(...this.flush()); // an interaction that never completed ends here
      this.interactionActive = true;
      this.interactionRole = event.role;
      this.finalMessages = null;
    }
    if (event.completion_running !== undefined && event.completion_running !== null) {
      this.completionRunning = event.completion_running;
    }
    if (event.content) {
      const chunks = this.pendingChunks.get(event.role);
      if (chunks === undefined) this.pendingChunks.set(event.role, [event.content]);
      else chunks.push(event.content);
    }
    if (event.render_media !== undefined && event.render_media !== null) this.media.push(event.render_media);
    if (event.tool_use_active !== undefined && event.tool_use_active !== null) {
      this.toolUseActive = event.tool_use_active;
      this.activeToolCalls = event.tool_use_active ? [...(event.tool_calls ?? [])] : [];
      if (event.tool_use_active && event.tool_calls && event.tool_calls.length > 0) {
        finished.push(message(event.role, this.take(event.role), [...event.tool_calls]));
      }
    }
    if (event.completed) {
      finished.push(...this.flush());
      this.interactionActive = false;
      if (event.messages !== undefined && event.messages !== null) this.finalMessages = [...event.messages];
    }
    this.messages.push(...finished);
    return finished;
  }

  /** Text buffered per role and not yet part of a finished message. */
  pending(): { [role: string]: string } {
    const out: { [role: string]: string } = {};
    for (const [role, chunks] of this.pendingChunks) Object.defineProperty(out, role, { value: chunks.join(""), enumerable: true, writable: true, configurable: true });
    return out;
  }

  /** The tracked state as JSON-shaped data, with the wire's field names (Python's status()). */
  status(): AccumulatorStatus {
    return {
      session_id: this.sessionId,
      interaction_active: this.interactionActive,
      interaction_role: this.interactionRole,
      completion_running: this.completionRunning,
      tool_use_active: this.toolUseActive,
      active_tool_calls: this.activeToolCalls.map(encodeToolCall),
      pending: this.pending(),
      media: this.media.map(encodeRenderMedia),
    };
  }

  private take(role: string): string | null {
    const chunks = this.pendingChunks.get(role);
    this.pendingChunks.delete(role);
    return chunks !== undefined && chunks.length > 0 ? chunks.join("") : null;
  }

  private flush(): Message[] {
    return [...this.pendingChunks.keys()].map((role) => message(role, this.take(role)));
  }
}

function message(role: string, content: string | null, toolCalls?: ToolCall[]): Message {
  const out: Message = { role };
  if (content !== null) out.content = content;
  if (toolCalls !== undefined) out.tool_calls = toolCalls;
  return out;
}

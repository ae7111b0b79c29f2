// Runs behaviour scenarios (tests/scenarios/<format>/*.json) through a compiled generated
// TypeScript package, as tests/scenario_runner.py runs them through the Python and
// tests/scenarios/runner/main.go through the Go: each step's outcome is {"result": JSON} or
// {"error": ["pointer: message", ...]}, so one comparison serves all three.
// stdin: [{"format": id, "steps": [...]}]; stdout: [[outcome, ...], ...] (one list per scenario).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dist = process.argv[2];
const rt = await import(pathToFileURL(join(dist, "runtime.js")).href);
const load = async (format) => import(pathToFileURL(join(dist, `${format}.js`)).href);

// A step's argument as the parser gets wire data: decoded by the runtime, as text would be.
const wire = (value) => rt.decodeJSON(JSON.stringify(value));
// What a behaviour returns, as the JSON the scenario expects.
const json = (value) => JSON.parse(rt.encodeJSON(value));

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const RUNNERS = {
  chat_modality: (m) => {
    let store = new m.ChatStore();
    const messages = (list) => list.map((x) => json(m.encodeChatMessage(x)));
    const input = (data) => m.parseChatInput(wire(data));
    return {
      // As Python's ChatState(**args): the fields given over the defaults, not validated.
      new_state: (args) => { store = new m.ChatStore({ ...m.parseChatState({}), ...(args ?? {}) }); return null; },
      load_state: (snapshot) => { store = m.ChatStore.fromSnapshot(wire(snapshot)); return null; },
      round_trip: () => {
        const before = rt.encodeJSON(store.getSnapshot());
        store = m.ChatStore.fromSnapshot(rt.decodeJSON(before));
        return rt.encodeJSON(store.getSnapshot()) === before;
      },
      apply_input: (data) => { store.applyInput(input(data)); return null; },
      apply_built_input: (data) => {
        const read = input(data); // made from its required fields only: the rest take their defaults
        store.applyInput(m.makeChatInput({ timestamp: read.timestamp, role: read.role, content: read.content }));
        return null;
      },
      snapshot: () => json(store.getSnapshot()),
      message_ids: () => store.state.messages.map((x) => x.message_id),
      id_shapes: () => store.state.messages.map((x) => [x.message_id, x.input_id].map((i) => (UUID4.test(i ?? "") ? "uuid4" : String(i ?? null)))),
      validate_state: () => store.validateState(),
      query: (params) => messages(store.query(params)),
      get_conversation: (args) => messages(store.getConversation(args.conversation_id)),
      get_recent_messages: (args) => messages(store.getRecentMessages(args.limit, args.conversation_id ?? undefined)),
      get_message_by_id: (args) => {
        const found = store.getMessageById(args.message_id);
        return found === undefined ? null : json(m.encodeChatMessage(found));
      },
      // Edits the state's messages by hand (what reindex() is for).
      append_message: (message) => { store.state.messages.push(m.parseChatMessage(wire(message))); return null; },
      reindex: () => { store.reindex(); return null; },
      summary: (data) => m.getSummary(input(data)),
      affected_entities: (data) => m.getAffectedEntities(input(data)),
      should_merge_with: (args) => m.shouldMergeWith(input(args.input), input(args.other)),
    };
  },
  chat_event: (m) => {
    const acc = new m.InteractionAccumulator();
    return {
      feed: (event) => acc.feed(m.parseChatEvent(wire(event))).map((x) => json(m.encodeMessage(x))),
      status: () => json(acc.status()),
      messages: () => acc.messages.map((x) => json(m.encodeMessage(x))),
      final_messages: () => (acc.finalMessages === null ? null : acc.finalMessages.map((x) => json(m.encodeMessage(x)))),
    };
  },
  droidlet_chat: (m, v1) => ({
    build_chat: (args) =>
      json(m.encodeDroidletChat(m.buildChat(args.speaker_id, args.timestamp, args.text,
        { media: args.media, textOptions: args.text_options, mediaOptions: args.media_options }))),
    upgrade_from_v1: (chat) => json(m.encodeDroidletChat(m.upgradeFromV1(v1.parseDroidletChat(wire(chat))))),
  }),
  structured_conversation: (m) => ({
    to_text_document: (doc) => json(m.encodeTextDocument(m.toTextDocument(m.parseConversationDocument(wire(doc))))),
  }),
};

const scenarios = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const scenario of scenarios) {
  const make = RUNNERS[scenario.format];
  if (make === undefined) throw new Error(`no TypeScript runner for ${scenario.format}`);
  // A format's earlier major (droidlet_chat_v1), where the package keeps one, for its upgrade.
  const runner = make(await load(scenario.format), await load(`${scenario.format}_v1`).catch(() => undefined));
  const outcomes = [];
  for (const step of scenario.steps) {
    const operation = runner[step.do];
    if (operation === undefined) throw new Error(`no TypeScript operation ${step.do} for ${scenario.format}`);
    try {
      outcomes.push({ result: operation(step.with ?? null) });
    } catch (e) {
      if (!(e instanceof rt.ValidationError)) throw e;
      outcomes.push({ error: e.errors.map((d) => `${d.path || "/"}: ${d.message}`) }); // the root as "/", as Python and Go write it
    }
  }
  out.push(outcomes);
}
process.stdout.write(JSON.stringify(out));

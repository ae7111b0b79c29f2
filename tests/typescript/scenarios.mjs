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

const RUNNERS = {
  chat_event: (m) => {
    const acc = new m.InteractionAccumulator();
    return {
      feed: (event) => acc.feed(m.parseChatEvent(wire(event))).map((x) => json(m.encodeMessage(x))),
      status: () => json(acc.status()),
      messages: () => acc.messages.map((x) => json(m.encodeMessage(x))),
      final_messages: () => (acc.finalMessages === null ? null : acc.finalMessages.map((x) => json(m.encodeMessage(x)))),
    };
  },
  droidlet_chat: (m) => ({
    build_chat: (args) =>
      json(m.encodeDroidletChat(m.buildChat(args.speaker_id, args.timestamp, args.text,
        { media: args.media, textOptions: args.text_options, mediaOptions: args.media_options }))),
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
  const runner = make(await load(scenario.format));
  const outcomes = [];
  for (const step of scenario.steps) {
    const operation = runner[step.do];
    if (operation === undefined) throw new Error(`no TypeScript operation ${step.do} for ${scenario.format}`);
    try {
      outcomes.push({ result: operation(step.with ?? null) });
    } catch (e) {
      if (!(e instanceof rt.ValidationError)) throw e;
      outcomes.push({ error: e.errors.map((d) => `${d.path}: ${d.message}`) });
    }
  }
  out.push(outcomes);
}
process.stdout.write(JSON.stringify(out));

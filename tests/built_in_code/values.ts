// Values of the golden case built_in_code built in TypeScript code, through make<Model> with only the fields
// it needs and the others set at random: each must validate, stringify to a message the package's parser
// accepts and read back to the same message; makeAssistantTurn's defaults must be the parser's. Compiled by
// tsc with the package (tests/test_built_in_code.py copies it into src/), so the calls are type-checked too.
import { built_in_code as m } from "./index.js";
import type { DateTimeString } from "./index.js";

declare const console: { log(text: string): void }; // the package compiles without @types/node

let seed = 20261126;
function random(): number {
  // mulberry32: a small seeded generator, so a failure is repeatable.
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n: number): number => Math.floor(random() * n);
function pick<T>(xs: readonly T[]): T {
  return xs[below(xs.length)] as T;
}

const STRINGS = ["", "a", "é", "\u2028", "<&>", "\u{1F600}", "\u0000", "two\nlines", '"q"'] as const;
const str = (): string => pick(STRINGS);
const strs = (): string[] => Array.from({ length: below(4) }, str);
const bytes = (): Uint8Array => Uint8Array.from({ length: below(5) }, () => below(256));
const free = (): unknown => pick([null, "s", 1.5, true, [], {}, [null, "x"], { k: null }]);

function when(): DateTimeString {
  const pad = (n: number, w = 2): string => String(n).padStart(w, "0");
  const offset = below(1681) - 840;
  const zone = `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${pad(1 + below(9998), 4)}-${pad(1 + below(12))}-${pad(1 + below(28))}T${pad(below(24))}:${pad(below(60))}:${pad(below(60))}.${pad(below(1000000000), 9)}${zone}` as DateTimeString;
}

function part(): m.Part {
  const p = m.makePart({ text: str() });
  if (random() < 0.5) p.spans = Array.from({ length: below(4) }, () => pick([0, 7, -(2 ** 53) + 1, 2 ** 53 - 1]));
  return p;
}

function toolCall(): m.ToolCall {
  const c = m.makeToolCall({ id: str(), outputs: strs() });
  if (random() < 0.5) c.arguments = { [str()]: free(), a: free() } as m.ToolCall["arguments"];
  return c;
}

function citation(): m.Citation {
  const c = m.makeCitation({ url: str() });
  if (random() < 0.5) c.start_index = below(10);
  if (random() < 0.5) c.quotes = Object.fromEntries(Array.from({ length: below(3) }, () => [str(), strs()]));
  return c;
}

function turn(): m.AssistantTurn {
  const content: m.Content = random() < 0.5 ? str() : Array.from({ length: below(3) }, part);
  const t = m.makeAssistantTurn({
    created_at: when(), content, history: strs(), labels: { [str()]: str() }, payload: bytes(), reply_to: random() < 0.5 ? null : strs(),
  });
  const setters: (() => void)[] = [
    () => { t.tool_calls = Array.from({ length: below(3) }, toolCall); },
    () => { t.citations = Array.from({ length: below(3) }, citation); },
    () => { t.metadata = { [str()]: str() }; },
    () => { t.tags = strs(); },
    () => { t.weights = { [str()]: below(9) }; },
    () => { t.notes = random() < 0.5 ? null : strs(); },
    () => { t.detail = pick(m.DETAIL_VALUES); },
    () => { t.temperature = pick([0, -1.5, 1e300, 0.1]); },
    () => { t.max_tokens = pick([null, 0, 2 ** 40]); },
    () => { t.stream = random() < 0.5; },
    () => { t.name = str(); },
    () => { t.attachments = Array.from({ length: below(3) }, bytes); },
    () => { t.extra = { [str()]: free() } as NonNullable<m.AssistantTurn["extra"]>; },
    () => { t.settings = m.makeSettings(random() < 0.5 ? {} : { names: [], level: null }); },
  ];
  for (const set of setters) if (random() < 1 / 3) set();
  return t;
}

for (let i = 0; i < 3000; i++) {
  const t = turn();
  m.validateAssistantTurn(t);
  const text = m.stringifyAssistantTurn(t);
  const again = m.stringifyAssistantTurn(m.parseBuiltInCodeFromJSON(text));
  if (again !== text) throw new Error(`value ${i}: read back, it writes otherwise:\n${text}\n${again}`);
}
// Only the fields it needs: every default is the parser's (the id aside, a fresh UUID4 each time).
const at = "2024-01-15T10:30:00Z" as DateTimeString;
const needed = { created_at: at, content: "hi", history: [], labels: {}, payload: new Uint8Array(), reply_to: null };
const built = m.makeAssistantTurn(needed);
const parsed = m.parseBuiltInCodeFromJSON(
  '{"role": "assistant", "created_at": "2024-01-15T10:30:00Z", "content": "hi", "history": [], "labels": {}, "payload": "", "reply_to": null}');
if (built.id.length !== 36 || built.id === m.makeAssistantTurn(needed).id) throw new Error(`no fresh UUID4: ${built.id}`);
built.id = parsed.id;
if (m.stringifyAssistantTurn(built) !== m.stringifyAssistantTurn(parsed)) {
  throw new Error(`makeAssistantTurn ${m.stringifyAssistantTurn(built)}\nparser ${m.stringifyAssistantTurn(parsed)}`);
}
// A default of every kind of type is the parser's (a union's, a tuple's, a model's, ...).
const settings = m.encodeSettings(m.makeSettings({}));
if (JSON.stringify(settings) !== JSON.stringify(m.encodeSettings(m.parseSettings({})))) throw new Error(`makeSettings ${JSON.stringify(settings)}`);
// Defaults are fresh values: changing one value's list changes no other's.
built.tags.push("x");
if (m.makeAssistantTurn(needed).tags.length !== 2) throw new Error("makeAssistantTurn shares its default list");
console.log(JSON.stringify({ values: 3000 }));

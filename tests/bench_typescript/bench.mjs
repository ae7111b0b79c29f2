// make bench's TypeScript row (tests/bench.py): the generated parse<Format>FromJSON (decode +
// validate + build) against Ajv (JSON.parse by the input policy + a validator compiled in strict mode from the
// exported JSON Schema) on the same payload texts, in one run, timed in turns by process CPU
// time (perCall). Verdicts are checked first:
// a side that accepts the invalid payload or rejects a valid one would not measure validation.
//
// The typia peer (tests/bench_typia.py: the exported schema as typia's types, the rules by hand) is a third
// side when TYPIA_DIST names its compiled modules; its verdict must be chatspec's on every example of every
// format too (examples.json), since its types and rules are written apart from chatspec.
//
// Both peers read the text by chatspec's input policy where JSON.parse alone gives another verdict: a lone UTF-16
// surrogate is refused (peerRead). examples.json holds texts with one, which every side must refuse.
//
//   node bench.mjs <compiled package dist> <payloads.json> <seconds per timing> [<examples.json>]
// (examples.json: chatspec's and typia's verdicts are checked on each, Ajv's on those of the input policy)
// payloads.json: [{"format", "payload", "text", "valid": bool, "schema": path}]
// examples.json: [{"format", "name", "text", "valid": bool, "input_policy"?: true}]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, payloadFile, budgetText, examplesFile] = process.argv.slice(2);
const budget = Number(budgetText);
const require = createRequire(import.meta.url);
const Ajv2020 = require(process.env.AJV_2020 ?? "ajv/dist/2020").default; // AJV_2020: the pinned copy tests/bench.py names
const rt = await import(pathToFileURL(join(dist, "runtime.js")).href);

// Process CPU time, not wall time: on a machine other jobs share, time spent waiting for a core
// would land on whichever side was running. (It counts V8's helper threads too: GC is work.)
function seconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

function calls(fn) {
  // How many calls take about budget/5 seconds.
  let n = 1;
  let took = 0;
  while (took < budget / 50) {
    n *= 2;
    const start = seconds();
    for (let i = 0; i < n; i++) fn();
    took = seconds() - start;
  }
  return Math.max(1, Math.floor((n * (budget / 5)) / Math.max(took, 1e-9)));
}

function perCall(fns) {
  // Seconds per call of each function: the best of 5 repeats, each about budget/5 seconds. The
  // repeats take turns (A B A B ...), so a burst of load on a shared machine falls on both sides.
  const numbers = fns.map(calls);
  const best = fns.map(() => Infinity);
  for (let r = 0; r < 5; r++) {
    fns.forEach((fn, j) => {
      const start = seconds();
      for (let i = 0; i < numbers[j]; i++) fn();
      best[j] = Math.min(best[j], (seconds() - start) / numbers[j]);
    });
  }
  return best;
}

// Ajv supports the OpenAPI discriminator only without its "mapping" (it reads each variant's
// const instead, which is what the mapping says); keeping it keeps Ajv on its fast path.
function forStrictAjv(schema) {
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (!Array.isArray(node) && "discriminator" in node) delete node.discriminator.mapping;
    stack.push(...Object.values(node));
  }
  return schema;
}

const validators = new Map();
function ajvFor(schemaPath) {
  if (!validators.has(schemaPath)) {
    // Strict mode: unknown keywords and formats, NaN-prone number options and undefined
    // required properties are errors. Not strictTypes and strictTuples, style rules the
    // exported schema's rules (allOf) do not follow: they state `contains` without repeating
    // `type`, and check an array's first item with a one-item prefixItems. date-time is checked
    // by the same RFC 3339 function the generated code uses, so both sides do that work.
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, allErrors: false, discriminator: true, formats: { "date-time": rt.isDateTime } });
    validators.set(schemaPath, ajv.compile(forStrictAjv(JSON.parse(readFileSync(schemaPath, "utf8")))));
  }
  return validators.get(schemaPath);
}

// chatspec refuses a lone UTF-16 surrogate, raw in a string given as a string or written as an escape ("\ud800")
// (README, "Input policy"); JSON.parse keeps it. A peer user who wants chatspec's verdicts reads text so: the
// engine's isWellFormed on the text (what chatspec's runText does), and where the text holds a \u escape, on the
// keys and strings JSON.parse made (the payloads hold none: no side pays for that walk in the timings).
const REFUSED = Symbol("refused by the input policy");

function surrogateFree(tree) {
  const stack = [tree];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (!value.isWellFormed()) return false;
    } else if (Array.isArray(value)) {
      stack.push(...value);
    } else if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) {
        if (!key.isWellFormed()) return false;
        stack.push(value[key]);
      }
    }
  }
  return true;
}

function peerRead(text) {
  if (!text.isWellFormed()) return REFUSED;
  const tree = JSON.parse(text);
  return text.indexOf("\\u") < 0 || surrogateFree(tree) ? tree : REFUSED;
}

/** A peer's side: the text read by the input policy, then `check` on the tree. */
function byPolicy(check) {
  return (text) => {
    const tree = peerRead(text);
    return tree !== REFUSED && check(tree);
  };
}

async function parserOf(format) {
  const mod = await import(pathToFileURL(join(dist, `${format}.js`)).href);
  return mod[Object.keys(mod).find((k) => /^parse\w+FromJSON$/.test(k))];
}

function accepts(parse, text) {
  try {
    parse(text);
    return true;
  } catch (e) {
    if (e instanceof rt.ValidationError) return false;
    throw e;
  }
}

const typiaDist = process.env.TYPIA_DIST;
async function typiaOf(format) {
  const { check } = await import(pathToFileURL(join(typiaDist, `${format}.js`)).href);
  const side = byPolicy(check);
  return (text) => {
    try {
      return side(text);
    } catch (e) {
      if (e instanceof SyntaxError) return false; // JSON.parse's refusal
      throw e;
    }
  };
}

const payloads = JSON.parse(readFileSync(payloadFile, "utf8"));
if (examplesFile !== undefined) {
  const schemas = new Map(payloads.map((p) => [p.format, p.schema]));
  for (const e of JSON.parse(readFileSync(examplesFile, "utf8"))) {
    const ours = accepts(await parserOf(e.format), e.text);
    if (ours !== e.valid) throw new Error(`chatspec ${e.valid ? "rejects" : "accepts"} the ${e.format} example ${e.name}`);
    const peers = [];
    if (e.input_policy) {
      // Ajv checks the exported schema, which cannot say a rule (member_of): only the input policy's texts are its.
      peers.push(["ajv", byPolicy(ajvFor(schemas.get(e.format)))]);
    }
    if (typiaDist !== undefined) peers.push(["typia", await typiaOf(e.format)]);
    for (const [name, check] of peers) {
      if (check(e.text) !== ours) {
        throw new Error(`${name} ${ours ? "rejects" : "accepts"} the ${e.format} example ${e.name} chatspec ${ours ? "accepts" : "rejects"}: its types or rules say something else`);
      }
    }
  }
}

const rows = [];
for (const p of payloads) {
  const parse = await parserOf(p.format);
  const read = byPolicy(ajvFor(p.schema));
  const ours = () => accepts(parse, p.text);
  const ajv = () => read(p.text);
  const sides = [["chatspec", ours], ["ajv", ajv]];
  if (typiaDist !== undefined) {
    const typia = await typiaOf(p.format);
    sides.push(["typia", () => typia(p.text)]);
  }
  for (const [name, check] of sides) {
    if (check() !== p.valid) {
      throw new Error(`${name} ${p.valid ? "rejects" : "accepts"} the ${p.format} ${p.payload} payload: the benchmark would not measure validation`);
    }
  }
  // The text read alone by the input policy, what every side does first: no peer (it checks nothing), the floor
  // under every side's time, timed in the same turns. A check that cost nothing would take this long.
  const readAlone = () => peerRead(p.text) !== REFUSED;
  const seconds = perCall([...sides.map(([, check]) => check), readAlone]);
  const [oursSeconds, ajvSeconds, typiaSeconds] = seconds;
  const row = { format: p.format, payload: p.payload, chatspec_us: oursSeconds * 1e6, ajv_us: ajvSeconds * 1e6, read_us: seconds.at(-1) * 1e6 };
  if (typiaDist !== undefined) row.typia_us = typiaSeconds * 1e6;
  rows.push(row);
}
process.stdout.write(JSON.stringify(rows));

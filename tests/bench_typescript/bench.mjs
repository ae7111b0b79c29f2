// make bench's TypeScript row (tests/bench.py): the generated parse<Format>FromJSON (decode +
// validate + build) against Ajv (JSON.parse + a validator compiled in strict mode from the
// exported JSON Schema) on the same payload texts, in one run, timed in turns by process CPU
// time (perCall). Verdicts are checked first:
// a side that accepts the invalid payload or rejects a valid one would not measure validation.
//
//   node bench.mjs <compiled package dist> <payloads.json> <seconds per timing>
// payloads.json: [{"format", "payload", "text", "valid": bool, "schema": path}]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, payloadFile, budgetText] = process.argv.slice(2);
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

const rows = [];
for (const p of JSON.parse(readFileSync(payloadFile, "utf8"))) {
  const mod = await import(pathToFileURL(join(dist, `${p.format}.js`)).href);
  const parse = mod[Object.keys(mod).find((k) => /^parse\w+FromJSON$/.test(k))];
  const validate = ajvFor(p.schema);
  const ours = () => {
    try {
      parse(p.text);
      return true;
    } catch (e) {
      if (e instanceof rt.ValidationError) return false;
      throw e;
    }
  };
  const ajv = () => validate(JSON.parse(p.text));
  for (const [name, check] of [["chatspec", ours], ["ajv", ajv]]) {
    if (check() !== p.valid) {
      throw new Error(`${name} ${p.valid ? "rejects" : "accepts"} the ${p.format} ${p.payload} payload: the benchmark would not measure validation`);
    }
  }
  const [oursSeconds, ajvSeconds] = perCall([ours, ajv]);
  rows.push({ format: p.format, payload: p.payload, chatspec_us: oursSeconds * 1e6, ajv_us: ajvSeconds * 1e6 });
}
process.stdout.write(JSON.stringify(rows));

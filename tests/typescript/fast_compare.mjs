// For tests/test_fast_path_typescript.py: each case's JSON.parse tree through a model's fast
// function (f_<Model>, reached through the __fast export the test appends to the compiled
// module) against the exact walk. Prints one verdict per case.
import { isDeepStrictEqual } from "node:util";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dist = process.argv[2];
const cases = JSON.parse(readFileSync(0, "utf-8"));
const rt = await import(pathToFileURL(join(dist, "runtime.js")).href);
const modules = new Map();
let ids = 0;
// Both paths draw their uuid4 defaults from the same sequence.
Object.defineProperty(globalThis, "crypto", { value: { randomUUID: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}` } });
// Whether every object of a and b (deeply equal) has its keys in the same order: a reader iterates them
// (Object.keys, for...in), so the fast path must build them as the exact walk does.
function sameOrder(a, b) {
  if (Array.isArray(a)) return a.every((x, i) => sameOrder(x, b[i]));
  if (a === null || typeof a !== "object" || a instanceof Uint8Array) return true;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  return keys.length === others.length && keys.every((k, i) => k === others[i] && sameOrder(a[k], b[k]));
}

const out = [];
for (const c of cases) {
  if (!modules.has(c.format)) modules.set(c.format, await import(pathToFileURL(join(dist, `${c.format}.js`)).href));
  const mod = modules.get(c.format);
  let tree;
  try {
    tree = JSON.parse(c.text);
  } catch {
    out.push("unparsed");
    continue;
  }
  ids = 0;
  const built = mod.__fast[`f_${c.model}`](tree, 0, []);
  ids = 0;
  // The verdict is decodeJSON's (the one runText gives); the value is what the exact walk builds
  // from the same JSON.parse tree (decodeJSON keeps 1.0 in free-form data as written).
  let expected = rt.UNSURE;
  try {
    mod[`parse${c.model}`](rt.decodeJSON(c.text));
    ids = 0;
    expected = mod[`parse${c.model}`](JSON.parse(c.text));
  } catch (e) {
    if (!(e instanceof rt.ValidationError)) throw e;
  }
  if (built === rt.UNSURE) out.push(expected === rt.UNSURE ? "unsure-ok" : "unsure-valid");
  else if (expected === rt.UNSURE) out.push("WRONG: the fast path accepts what the exact walk rejects: " + c.text.slice(0, 300));
  else if (!isDeepStrictEqual(built, expected) || !sameOrder(built, expected)) out.push("WRONG: the fast path builds something else: " + c.text.slice(0, 300) + (process.env.FAST_DEBUG ? "\n" + JSON.stringify(built) + "\n" + JSON.stringify(expected) : ""));
  else out.push("same");
}
process.stdout.write(JSON.stringify(out));

// Runs cases through a compiled generated TypeScript package and prints the verdicts (tests/typescript_driver.py).
// stdin: [{"format": id, "model": name or "", "data": JSON text | "b64": base64 of bytes}]; stdout: [{"ok", "errors": [[path, message]]} | {"crash": text}];
// an accepted root document's verdict also has "written", its stringify text (not for a document holding a 16-digit number).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dist = process.argv[2];
const rt = await import(pathToFileURL(join(dist, "runtime.js")).href);
const modules = new Map();
async function load(format) {
  if (!modules.has(format)) modules.set(format, await import(pathToFileURL(join(dist, `${format}.js`)).href));
  return modules.get(format);
}
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = [];
for (const c of cases) {
  const mod = await load(c.format);
  // Bytes come base64-encoded (they need not be UTF-8); text as it is.
  const input = c.b64 !== undefined ? new Uint8Array(Buffer.from(c.b64, "base64")) : c.data;
  try {
    if (c.model) {
      const parse = mod[`parse${c.model}`];
      if (typeof parse !== "function") throw new Error(`no parse${c.model} in ${c.format}`);
      parse(rt.decodeJSON(input));
    } else {
      const name = Object.keys(mod).find((k) => /^parse\w+FromJSON$/.test(k));
      const doc = mod[name](input);
      // What is accepted goes back out and in again unchanged, and validates as built; integers
      // beyond 2^53 are numbers in the built value (rounded, as JSON.parse rounds them), so a
      // document holding a 16-digit or longer number is left out of this check.
      if (typeof input !== "string" || /\d{16}/.test(input)) {
        out.push({ ok: true, errors: [] });
        continue;
      }
      // A failure from here on is a crash, never a rejection: a parse that wrongly accepts must not
      // look like a correct rejection.
      let text;
      try {
        const root = Object.keys(mod).find((k) => /^stringify\w+$/.test(k)).slice("stringify".length);
        text = mod[`stringify${root}`](doc);
        const again = mod[`stringify${root}`](mod[name](text));
        if (again !== text) throw new Error(`round trip changed the document:\n${text}\n${again}`);
        mod[`validate${root}`](doc);
      } catch (e) {
        out.push({ crash: `parse accepted, then: ${e instanceof rt.ValidationError ? JSON.stringify(e.errors) : String(e && e.stack ? e.stack : e)}` });
        continue;
      }
      out.push({ ok: true, errors: [], written: text });
      continue;
    }
    out.push({ ok: true, errors: [] });
  } catch (e) {
    if (e instanceof rt.ValidationError) {
      if (e.message !== (e.errors[0]?.message ?? "")) out.push({ crash: `.message ${JSON.stringify(e.message)} is not the first error's` });
      else out.push({ ok: false, errors: e.errors.map((d) => [d.path, d.message]) });
    } else {
      out.push({ crash: String(e && e.stack ? e.stack : e) });
    }
  }
}
process.stdout.write(JSON.stringify(out));

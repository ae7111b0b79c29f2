// Parses documents of the encodings spec (tests/encodings/spec.json) with the compiled generated
// TypeScript package and prints what it built, for tests/test_encodings.py: bytes as hex (read with
// node's Buffer, not the runtime's encoder), date-times as toDate's milliseconds, numbers as
// JavaScript writes them, and the document as stringifyEncoded writes it.
// argv: the dist folder; stdin: ["JSON text", ...]; stdout: [{"ok": true, ...} | {"ok": false, "errors": [[path, message]]}].
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dist = process.argv[2];
const rt = await import(pathToFileURL(join(dist, "runtime.js")).href);
const mod = await import(pathToFileURL(join(dist, "encodings.js")).href);
const hex = (bytes) => {
  if (!(bytes instanceof Uint8Array)) throw new Error(`not a Uint8Array: ${bytes}`);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
};
const out = [];
for (const text of JSON.parse(readFileSync(0, "utf8"))) {
  let doc;
  try {
    doc = mod.parseEncodingsFromJSON(text);
  } catch (e) {
    if (!(e instanceof rt.ValidationError)) throw e;
    out.push({ ok: false, errors: e.errors.map((d) => [d.path, d.message]) });
    continue;
  }
  const b = { ok: true };
  if (doc.blob !== undefined) b.blob = hex(doc.blob);
  if (doc.blobs !== undefined) b.blobs = doc.blobs.map(hex);
  if (doc.at !== undefined) b.at = rt.toDate(doc.at).getTime();
  if (doc.ats !== undefined) b.ats = doc.ats.map((t) => rt.toDate(t).getTime());
  if (doc.n !== undefined) b.n = String(doc.n);
  if (doc.i !== undefined) b.i = String(doc.i);
  if (doc.ns !== undefined) b.ns = doc.ns.map(String);
  b.encoded = mod.stringifyEncoded(doc);
  out.push(b);
}
process.stdout.write(JSON.stringify(out));

// The keyword matrix's TypeScript driver (tests/test_keyword_matrix.py): each code path of the
// compiled package on its own. argv[2]: the dist folder. stdin: [{"model", "loose", "field", "data"}].
// stdout, per case: {"exact": verdict (parse<Model> on JSON.parse's value: the exact walk),
// "fromJSON": verdict (the root's parse...FromJSON on {field: value}: the fast path, the exact walk
// where it steps aside), "validate": verdict or null (validate<Root> of {field: value built by the
// loose twin, the model without the keyword})}.
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";

const dist = process.argv[2];
const mod = await import(pathToFileURL(`${dist}/keyword_matrix.js`).href);

function judge(call) {
  try {
    call();
  } catch (e) {
    if (e instanceof mod.ValidationError) return { ok: false, errors: e.errors.map((x) => [x.path, x.message]) };
    return { crash: String(e && e.stack ? e.stack : e) };
  }
  return { ok: true, errors: [] };
}

const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map((c) => {
  const value = JSON.parse(c.data);
  const wrapped = `{"${c.field}":${c.data}}`;
  const result = {
    exact: judge(() => mod[`parse${c.model}`](value)),
    fromJSON: judge(() => mod.parseKeywordMatrixFromJSON(wrapped)),
    validate: null,
  };
  if (c.loose) {
    const built = mod[`parse${c.loose}`](value);
    result.validate = judge(() => mod.validateKeywordMatrix({ [c.field]: built }));
  }
  return result;
});
process.stdout.write(JSON.stringify(out));

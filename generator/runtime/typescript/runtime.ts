/**
 * Validation runtime shared by the generated format modules.
 *
 * No dependencies: the package can be vendored as it is. It gives the same
 * verdicts, the same JSON pointers and the same messages, in the same order,
 * as the generated Python and Go. Each generated module builds its parsers
 * from the combinators below once, at import; a parser takes a JSON value and
 * a Context, records every problem in the Context (pointer + message, in
 * document order) and returns the built value, or INVALID.
 *
 * JSON text is read by decodeJSON, not JSON.parse: objects keep their keys in
 * document order (a plain object puts "0" before "b"), integers keep all their
 * digits (JSON.parse rounds past 2^53, and int64 bounds need them exact), 1.0
 * stays a float as in Python, deep text never overflows the stack, and the
 * input policy (UTF-8 text, no lone surrogate, integers up to 4300 digits) is
 * applied with the Python runtime's messages.
 */

// --- the JSON values this runtime reads -------------------------------------

/**
 * A number whose JavaScript value is not its whole story: an integer literal of
 * more than 15 digits (kept exact), or a float literal with an integral value
 * such as 1.0 or 1e2 (a float for Python: {value} shows "1.0"), or beyond
 * float64 (1e400).
 */
export class JsonNumber {
  constructor(readonly text: string) {}
  /** The nearest JavaScript number (Infinity beyond float64). */
  valueOf(): number {
    return Number(this.text);
  }
  toString(): string {
    return this.text;
  }
}

/** A JSON value as the parsers read it: decodeJSON's objects are Maps (keys in document order),
 * JSON.parse's are plain objects; both are read as they are. */
export type JsonValue = null | boolean | string | number | JsonNumber | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue> | { readonly [key: string]: JsonValue };

/** A member of an object (an own property of a plain one), or undefined. */
export function member(obj: JsonObject, key: string): JsonValue | undefined {
  if (obj instanceof Map) return obj.get(key);
  const value = (obj as { readonly [key: string]: JsonValue | undefined })[key];
  // What an object inherits is a function (toString, ...) or, for "__proto__", its prototype:
  // never a JSON value of its own.
  if (value === undefined || typeof value === "function" || (key === "__proto__" && !Object.hasOwn(obj, key))) return undefined;
  return value;
}

/** An object's [key, value] pairs, in its order. */
export function entriesOf(obj: JsonObject): [string, JsonValue][] {
  return obj instanceof Map ? [...obj.entries()] : Object.entries(obj as { readonly [key: string]: JsonValue });
}

/** What a free-form field (e.g. metadata) holds: plain JSON-shaped data. */
export type JsonData = null | boolean | string | number | JsonNumber | JsonData[] | { [key: string]: JsonData };

/** A date-time as its RFC 3339 wire text, checked; Date.parse and toDate read it. */
export type DateTimeString = string & { readonly __dateTime: true };

/** The JavaScript Date of a checked date-time (milliseconds; finer digits are dropped). */
export function toDate(value: DateTimeString): Date {
  return new Date(Date.parse(value.replace(/^(.{19}\.\d{3})\d+/, "$1")));
}

// --- errors --------------------------------------------------------------

/** One problem: where (a JSON pointer into the input) and what. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** Thrown for invalid input; .errors lists every problem in document order. */
export class ValidationError extends Error {
  readonly errors: ErrorDetail[];
  constructor(errors: ErrorDetail[]) {
    super(errors.length > 0 ? errors[0]!.message : "");
    this.name = "ValidationError";
    this.errors = errors;
  }
}

// --- the input policy (Python and Go state the same numbers and messages) ---

export const MAX_DEPTH = 128;
export const DEPTH_MESSAGE = "nesting deeper than 128 levels is not accepted";
export const MAX_ERRORS = 100;
export const MAX_INT_DIGITS = 4300;
export const BOM_MESSAGE = "invalid JSON: a byte order mark (BOM) is not accepted; send UTF-8 without one";
export const NOT_UTF8_MESSAGE = "invalid JSON: the text is not valid UTF-8";
export const SURROGATE_MESSAGE = "invalid JSON: a lone UTF-16 surrogate (such as \\ud800) is not Unicode text";
export const LONG_INT_MESSAGE = "invalid JSON: an integer literal has more than 4300 digits";

export function moreMessage(count: number): string {
  return `... and ${count} more problems`;
}

function escapeToken(token: string): string {
  return token.indexOf("~") >= 0 || token.indexOf("/") >= 0 ? token.replace(/~/g, "~0").replace(/\//g, "~1") : token;
}

function pointer(tokens: readonly (string | number)[]): string {
  let out = "";
  for (const t of tokens) out += "/" + (typeof t === "number" ? String(t) : escapeToken(t));
  return out;
}

const PLACEHOLDER = /\{\{|\{(index|field|value)\}/g;

/** Marker for a value that failed validation (null is a valid JSON value). */
export const INVALID: unique symbol = Symbol("INVALID");
export type Invalid = typeof INVALID;
const MISSING: unique symbol = Symbol("MISSING");
type Missing = typeof MISSING;

export type Parser<T> = (value: JsonValue, ctx: Context) => T | Invalid;

/** What make<Model> takes: T with the keys K (those with a constant or a default) optional. Here, not in
 * the format's module, where a spec's model named Pick, Omit or Partial would shadow TypeScript's own. */
export type Defaulted<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** The state of one validation run: problems so far, the path and the values above. */
export class Context {
  readonly errors: ErrorDetail[] = [];
  /** How many problems were found, listed or not. */
  count = 0;
  /** Set when a number the engine's JSON.parse may have rounded was read (see runText). */
  inexact = false;
  // The pointers of the lists of strings (the only member_of pools) that hold a problem:
  // all failedAt needs to know. Problems past MAX_ERRORS are only counted.
  private failed: Set<string> | null = null;
  readonly path: (string | number)[] = [];
  private readonly values: JsonValue[];
  private pools: Map<JsonValue[], Set<string> | null> | null = null;

  constructor(root: JsonValue) {
    this.values = [root];
  }

  /** Record a problem at the current path, or at `below` (tokens) under it. */
  error(template: string, below?: string | readonly string[], value?: JsonValue | Missing): void {
    const tokens: readonly string[] = below === undefined ? [] : typeof below === "string" ? [below] : below;
    this.count++;
    // A problem at a value below the one being parsed (a missing field, a rule's field, a
    // value too deep) is at that list, if it is one, for failedAt.
    if (tokens.length > 0) this.failedList(resolve(this.values[this.values.length - 1], tokens), tokens);
    if (this.errors.length >= MAX_ERRORS) return; // counted, not kept: neither pointer nor message is built
    const at = pointer(this.path) + pointer(tokens);
    const message = template.indexOf("{") < 0 ? template : template.replace(PLACEHOLDER, (_m: string, name: string | undefined) => {
      if (name === undefined) return "{";
      if (name === "index") {
        for (let i = this.path.length - 1; i >= 0; i--) if (typeof this.path[i] === "number") return String(this.path[i]);
        return "";
      }
      if (name === "field") {
        if (tokens.length > 0) return tokens[0]!;
        for (let i = this.path.length - 1; i >= 0; i--) if (typeof this.path[i] === "string") return this.path[i] as string;
        return "";
      }
      return value === undefined || value === MISSING ? "null" : show(value);
    });
    this.errors.push({ path: at, message });
  }

  /** The problems to report: the first MAX_ERRORS, then one entry counting the rest. */
  reported(): ErrorDetail[] {
    if (this.count <= this.errors.length) return this.errors;
    return [...this.errors, { path: "", message: moreMessage(this.count - this.errors.length) }];
  }

  child<T>(key: string | number, value: JsonValue, parser: Parser<T>): T | Invalid {
    if (this.path.length >= MAX_DEPTH) {
      this.error(DEPTH_MESSAGE, String(key));
      return INVALID;
    }
    this.path.push(key);
    this.values.push(value);
    const mark = this.count;
    const result = parser(value, this);
    if (this.count !== mark) this.failedList(value, []); // every problem since mark is at or below value
    this.path.pop();
    this.values.pop();
    return result;
  }

  /**
   * Note for failedAt that a problem is at or below value (at the path, then below), when value
   * is a list of strings: a member_of pool. (A problem below such a list is at one of its
   * strings, recorded while the list is walked.)
   */
  private failedList(value: JsonValue | Missing, below: readonly string[]): void {
    if (!Array.isArray(value)) return;
    for (let i = 0; i < value.length; i++) if (typeof value[i] !== "string") return;
    (this.failed ??= new Set()).add(pointer(this.path) + pointer(below));
  }

  required<T>(obj: JsonObject, key: string, parser: Parser<T>, message: string, nullable = false): T | null | Invalid {
    const value = member(obj, key);
    if (value === undefined || (value === null && !nullable)) {
      this.error(message, key);
      return INVALID;
    }
    // A null that is present is the parser's to judge (a schema applied as written may refuse it).
    return this.child(key, value, parser);
  }

  optional<T>(obj: JsonObject, key: string, parser: Parser<T>): T | undefined | Invalid {
    const value = member(obj, key);
    if (value === undefined) return undefined;
    return this.child(key, value, parser);
  }

  /** The value `up` levels above the one being parsed (0 = itself), or MISSING. */
  ancestor(up: number): JsonValue | Missing {
    if (up >= this.values.length) return MISSING;
    return this.values[this.values.length - 1 - up]!;
  }

  /**
   * Whether a problem was recorded at or below the list of strings found by relative pointer
   * (ruleMemberOf asks only of such a list, which never holds the value being parsed).
   */
  failedAt(up: number, tokens: readonly string[]): boolean {
    if (this.count === 0 || this.failed === null) return false;
    const base = up ? this.path.slice(0, this.path.length - up) : this.path;
    return this.failed.has(pointer(base) + pointer(tokens));
  }

  /** The items of a list as a set (null if one is not a string), built once per run. */
  members(pool: JsonValue[]): Set<string> | null {
    const pools = (this.pools ??= new Map<JsonValue[], Set<string> | null>());
    let found = pools.get(pool);
    if (found === undefined) {
      found = pool.every((p) => typeof p === "string") ? new Set(pool as string[]) : null;
      pools.set(pool, found);
    }
    return found;
  }
}

/** {value} the way the Python runtime shows it. */
export function show(value: JsonValue): string {
  if (typeof value === "string") return value;
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return Number.isInteger(value) ? integerText(value) : showFloat(value);
  if (value instanceof JsonNumber) {
    const text = value.text;
    if (!/[.eE]/.test(text)) return text.replace(/^-0$/, "0");
    return showFloat(Number(text));
  }
  if (Array.isArray(value)) return "array"; // a container by its JSON type's name, never its text
  return "object";
}

function integerText(n: number): string {
  if (Object.is(n, -0)) return "0";
  return Math.abs(n) < 1e21 ? n.toFixed(0) : BigInt(n).toString();
}

/** A float the way Python's repr writes it (1.0, 1e+16, 1e-05, inf). */
export function showFloat(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (f === Infinity) return "Infinity";
  if (f === -Infinity) return "-Infinity";
  if (Object.is(f, -0)) return "-0.0";
  const sci = f.toExponential(); // the shortest digits that read back as f
  const e = sci.indexOf("e");
  const exp = Number(sci.slice(e + 1));
  if (exp < -4 || exp >= 16) {
    const sign = exp < 0 ? "-" : "+";
    const digits = String(Math.abs(exp));
    return sci.slice(0, e) + "e" + sign + (digits.length < 2 ? "0" + digits : digits);
  }
  const mantissa = sci.slice(0, e).replace(".", "");
  const negative = mantissa.startsWith("-");
  const ds = negative ? mantissa.slice(1) : mantissa;
  let text: string;
  if (exp < 0) text = "0." + "0".repeat(-exp - 1) + ds;
  else if (ds.length <= exp + 1) text = ds + "0".repeat(exp + 1 - ds.length) + ".0";
  else text = ds.slice(0, exp + 1) + "." + ds.slice(exp + 1);
  return (negative ? "-" : "") + text;
}

/** Run a parser on a whole document; throw ValidationError listing every problem. */
export function run<T>(parser: Parser<T>, data: JsonValue): T {
  const ctx = new Context(data);
  const result = parser(data, ctx);
  if (ctx.count > 0 || result === INVALID) throw new ValidationError(ctx.reported());
  return result;
}

// Text JSON.parse may read differently from decodeJSON: escaped surrogates (a lone one is
// refused). Integers past 2^53, which it rounds, are caught where a parser reads them
// (Context.inexact); one past the digit limit is looked for in the text (longDigitRun), since
// JSON.parse drops a value a later duplicate key replaces.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * Whether text holds a run of more than MAX_INT_DIGITS ASCII digits: where one stands, an integer literal
 * the input policy refuses may too, in a value a later duplicate key replaces (JSON.parse drops it unread,
 * so no parser would see it). Such a run holds a multiple of MAX_INT_DIGITS, so only the characters there
 * are looked at (a text of 24 kB: five), and a run met there is measured at most MAX_INT_DIGITS each way:
 * at most about two reads a character, on text made of digits.
 */
function longDigitRun(text: string): boolean {
  const n = text.length;
  for (let at = MAX_INT_DIGITS; at < n; at += MAX_INT_DIGITS) {
    if (!isDigit(text.charCodeAt(at))) continue;
    let start = at;
    while (start > 0 && at - start < MAX_INT_DIGITS && isDigit(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < n && end - start <= MAX_INT_DIGITS && isDigit(text.charCodeAt(end))) end++;
    if (end - start > MAX_INT_DIGITS) return true;
  }
  return false;
}

const nativeWellFormed = (String.prototype as unknown as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** Whether a string holds no lone surrogate (isWellFormed where the engine has it). */
function wellFormed(text: string): boolean {
  return nativeWellFormed !== undefined ? nativeWellFormed.call(text) : !LONE_SURROGATE.test(text);
}

const NO_ANCESTORS: readonly unknown[] = Object.freeze([]);

/**
 * Parse JSON text and run a parser on it; throw ValidationError listing every problem.
 *
 * Text takes the fast path: the engine's JSON.parse, then the parsers. Where
 * JSON.parse's tree could differ from decodeJSON's in a way a verdict sees (long
 * integers, escaped surrogates), or where there is a problem and the text holds
 * something a plain object or number reads otherwise (readsAlike: the problems'
 * order must follow the text, a float's message shows 1.0), the text is decoded
 * again by decodeJSON and that verdict is the one given.
 */
export function runText<T>(parser: Parser<T>, input: string | Uint8Array,
  fast?: (tree: unknown, depth: number, anc: readonly unknown[]) => T | Unsure): T {
  let text: string | null = null;
  if (typeof input === "string") text = input;
  else {
    try {
      text = new Utf8Decoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      text = null; // decodeJSON reports it
    }
  }
  // Text the fatal decoder made from UTF-8 holds no lone surrogate (UTF-8 cannot encode one):
  // only a string given as it is is scanned for one (a scan a fifth of JSON.parse's time on
  // text past Latin-1, a curly quote in it enough).
  if (text !== null && text.charCodeAt(0) !== 0xfeff && (typeof input !== "string" || wellFormed(text)) && (text.indexOf("\\u") < 0 || !SURROGATE_ESCAPE.test(text)) && !longDigitRun(text)) {
    let tree: JsonValue | Missing = MISSING;
    try {
      tree = JSON.parse(text) as JsonValue;
    } catch {
      // Not JSON, or too deep for the engine: decodeJSON says which.
    }
    if (tree !== MISSING && fast !== undefined) {
      let built: T | Unsure;
      try {
        built = fast(tree, 0, NO_ANCESTORS);
      } finally {
        fastPools = null; // the document's pools go with it
      }
      if (built !== UNSURE) return built;
    }
    if (tree !== MISSING) {
      const ctx = new Context(tree);
      const result = parser(tree, ctx);
      if (!ctx.inexact) {
        if (ctx.count === 0 && result !== INVALID) return result;
        // The problems, in the order of the text, where nothing in it reads otherwise in a plain
        // object: an invalid document is not decoded and walked a second time.
        if (ctx.count > 0 && readsAlike(text)) throw new ValidationError(ctx.reported());
      }
    }
  }
  return run(parser, decodeJSON(text ?? input));
}

/**
 * Whether the problems the parsers find in JSON.parse's tree of text (valid JSON) are those they
 * find in decodeJSON's: no key is empty or digits only (a plain object puts digit keys first, out
 * of the text's order) or written with an escape (which could spell one), and no float literal has
 * an integral value or none (1.0, 1e2, -0.0, 1e400: Python shows them as floats; JSON.parse gives
 * a plain 1), and no integer literal is longer than 15 characters (decodeJSON's JsonNumber: past
 * 2^53 JSON.parse rounds it, and past MAX_INT_DIGITS digits the input policy refuses the text, where
 * no parser may have read it). Each is rare; where one occurs the text is decoded again. One pass,
 * linear in the text's length.
 */
function readsAlike(text: string): boolean {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: its closing quote is the first one after an even run of backslashes.
      let end = text.indexOf('"', i + 1);
      for (;;) {
        let k = end - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((end - 1 - k) % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      let next = end + 1;
      while (next < n && text.charCodeAt(next) <= 0x20) next++; // JSON's whitespace, between tokens
      if (text.charCodeAt(next) === 0x3a && !plainKey(text, i + 1, end)) return false;
      i = end + 1;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      let float = false;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (d === 0x2e || d === 0x65 || d === 0x45) float = true;
        else if ((d < 0x30 || d > 0x39) && d !== 0x2b && d !== 0x2d) break;
      }
      if (float) {
        const value = Number(text.slice(i, j));
        if (!Number.isFinite(value) || Number.isInteger(value)) return false;
      } else if (j - i > 15) {
        return false;
      }
      i = j;
    } else {
      i++;
    }
  }
  return true;
}

/** Whether the key text[from, to) holds a character other than a digit, and no escape. */
function plainKey(text: string, from: number, to: number): boolean {
  let digits = true;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x5c) return false;
    if (c < 0x30 || c > 0x39) digits = false;
  }
  return !digits;
}

// --- the fast path -------------------------------------------------------------

/**
 * What a module's fast function returns when it is not sure a JSON.parse tree is valid:
 * runText then runs the exact walk, the one source of messages. A fast function only reads
 * plain JSON.parse values, refuses what the exact walk would flag as inexact (integers past
 * 2^53) and builds what the exact walk builds.
 */
export const UNSURE: unique symbol = Symbol("UNSURE");
export type Unsure = typeof UNSURE;

/** Whether a JSON.parse value is one anyJSON accepts without a word at `room` levels of depth left. */
export function fitsJSON(value: unknown, room: number): boolean {
  // Recursion stops at `room` levels (at most MAX_DEPTH), however deep the value is.
  if (room < 0) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value));
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!fitsJSON(value[i], room - 1)) return false;
    return true;
  }
  if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const k in value) if (!fitsJSON((value as { readonly [key: string]: unknown })[k], room - 1)) return false;
  return true;
}

/** Whether a member_of rule is surely met (ruleMemberOf, on values that passed their checks). */
export function fastMemberOf(value: unknown, base: unknown, tokens: readonly string[]): boolean {
  if (typeof value !== "string") return true;
  return fastInPool(value, resolve(base as JsonValue | undefined, tokens));
}

// The member_of pools of the document a fast function is reading, each as a Set made once
// (null: an item is not a string), so that a check costs O(1) however long the pool is, as
// Context.members does for the exact walk. runText drops them when the fast run ends.
let fastPools: Map<readonly unknown[], ReadonlySet<unknown> | null> | null = null;

// Up to this many items a pool is scanned: cheaper than making its Set.
const SHORT_POOL = 16;

/** Whether a member_of rule is surely met, given what its pointer found (only an array of strings is a pool). */
export function fastInPool(value: unknown, pool: unknown): boolean {
  if (typeof value !== "string" || !Array.isArray(pool)) return true;
  if (pool.length <= SHORT_POOL) {
    // A member is found first: the pool's items are looked at one by one only when the value is not among them.
    if (pool.includes(value)) return true;
    for (let i = 0; i < pool.length; i++) if (typeof pool[i] !== "string") return true;
    return false;
  }
  const pools = (fastPools ??= new Map());
  let members = pools.get(pool);
  if (members === undefined) {
    members = pool.every((p) => typeof p === "string") ? new Set(pool) : null;
    pools.set(pool, members);
  }
  return members === null || members.has(value);
}

/**
 * A member of a JSON.parse value by a key that is not an index: where resolve() finds
 * nothing (a missing key, a scalar, an array, an inherited name) this finds no array either.
 */
export function fastGet(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as { readonly [key: string]: unknown })[key] : undefined;
}

/** Whether a required_when rule is surely met (ruleRequiredWhen, on values that passed their checks). */
export function fastRequiredWhen(obj: JsonObject, field: string, whenField: string, whenPointer: readonly string[], equals: string): boolean {
  if (resolve(member(obj, whenField), whenPointer) !== equals) return true;
  const v = member(obj, field);
  return v !== undefined && v !== null;
}

/** Whether an at_least_one_of rule is met (ruleAtLeastOneOf). */
export function fastAtLeastOneOf(obj: JsonObject, fields: readonly string[]): boolean {
  for (const f of fields) {
    const v = member(obj, f);
    if (v !== undefined && v !== null) return true;
  }
  return false;
}

/** Whether a contains rule is surely met (ruleContains, on values that passed their checks). */
export function fastContains(obj: JsonObject, field: string, each: readonly string[], equals: string): boolean {
  const items = member(obj, field);
  if (!Array.isArray(items)) return true;
  for (const item of items) if (resolve(item, each) === equals) return true;
  return false;
}

/** Whether an allowed_when rule is surely met (ruleAllowedWhen, on values that passed their checks). */
export function fastAllowedWhen(
  obj: JsonObject, field: string, each: readonly string[], whenField: string, whenPointer: readonly string[], equals: string,
  allowed: ReadonlySet<string>,
): boolean {
  if (resolve(member(obj, whenField), whenPointer) !== equals) return true;
  const items = member(obj, field);
  if (!Array.isArray(items)) return true;
  for (const item of items) {
    const found = resolve(item, each);
    if (found !== MISSING && !(typeof found === "string" && allowed.has(found))) return false;
  }
  return true;
}

function inputError(message: string): ValidationError {
  return new ValidationError([{ path: "", message }]);
}

// --- JSON text ---------------------------------------------------------------

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface Frame {
  list: JsonValue[] | null;
  obj: Map<string, JsonValue> | null;
  key: string;
  kept: boolean;
}

// TextDecoder is in every browser and in Node; reached through globalThis so the
// package compiles without the DOM or Node type libraries.
const Utf8Decoder = (globalThis as unknown as {
  TextDecoder: new (label: string, options: { fatal: boolean; ignoreBOM: boolean }) => { decode(input: Uint8Array): string };
}).TextDecoder;

class SyntaxFailure {
  constructor(readonly what: string, readonly at: number) {}
}

/**
 * JSON text to a value under the input policy; any problem is a ValidationError
 * whose one message is Python's for the same text. Never recurses: containers
 * more than MAX_DEPTH levels deep are checked and built empty (every parser
 * refuses a value at that depth without looking inside), so any depth is read
 * in linear time and memory.
 */
export function decodeJSON(input: string | Uint8Array): JsonValue {
  let text: string;
  if (typeof input !== "string") {
    try {
      text = new Utf8Decoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      throw inputError(NOT_UTF8_MESSAGE);
    }
  } else if (!wellFormed(input)) {
    throw inputError(SURROGATE_MESSAGE);
  } else {
    text = input;
  }
  if (text.charCodeAt(0) === 0xfeff) throw inputError(BOM_MESSAGE);
  const d = new Decoder(text);
  let value: JsonValue;
  try {
    value = d.document();
  } catch (e) {
    if (e instanceof SyntaxFailure) {
      if (e.what.startsWith("!")) throw inputError("invalid JSON: " + e.what.slice(1));
      // json's own words ("Invalid control character at") less the "at" they end in, which the place says.
      throw inputError(`invalid JSON: ${e.what.replace(/ at$/, "")} at ${lineColumn(text, e.at)}`);
    }
    throw e;
  }
  if (d.tooLong) throw inputError(LONG_INT_MESSAGE);
  if (d.surrogate) throw inputError(SURROGATE_MESSAGE);
  return value;
}

/** "line L column C" of a UTF-16 offset, counting characters (code points) as Python does. */
function lineColumn(text: string, at: number): string {
  let line = 1;
  let column = 1;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      column = 1;
    } else if (c < 0xdc00 || c > 0xdfff || i === 0 || text.charCodeAt(i - 1) < 0xd800 || text.charCodeAt(i - 1) > 0xdbff) {
      column++;
    }
  }
  return `line ${line} column ${column}`;
}

class Decoder {
  pos = 0;
  tooLong = false;
  surrogate = false;
  constructor(readonly text: string) {}

  space(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  document(): JsonValue {
    const t = this.text;
    const frames: Frame[] = [];
    // The kinds (91 "[" or 123 "{") of containers inside one that is not kept.
    const deep: number[] = [];
    for (;;) {
      // A value starts here.
      this.space();
      const c = t.charCodeAt(this.pos);
      let value: JsonValue;
      if (c === 91 || c === 123) {
        this.pos++;
        const building = deep.length === 0 && (frames.length === 0 || frames[frames.length - 1]!.kept);
        if (building) {
          frames.push({ list: c === 91 ? [] : null, obj: c === 123 ? new Map() : null, key: "", kept: frames.length <= MAX_DEPTH });
        } else {
          deep.push(c);
        }
        this.space();
        const n = t.charCodeAt(this.pos);
        if ((c === 91 && n === 93) || (c === 123 && n === 125)) {
          this.pos++;
          value = this.pop(frames, deep);
        } else {
          if (c === 123) this.key(frames, deep);
          continue;
        }
      } else if (c === 34) {
        value = this.string();
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        value = this.number();
      } else if (t.startsWith("true", this.pos)) {
        this.pos += 4;
        value = true;
      } else if (t.startsWith("false", this.pos)) {
        this.pos += 5;
        value = false;
      } else if (t.startsWith("null", this.pos)) {
        this.pos += 4;
        value = null;
      } else {
        for (const constant of ["NaN", "Infinity", "-Infinity"]) {
          if (t.startsWith(constant, this.pos)) throw new SyntaxFailure(`!${constant} is not valid JSON`, this.pos);
        }
        throw new SyntaxFailure("Expecting value", this.pos);
      }
      // The value is complete: attach it, then read what follows it.
      for (;;) {
        if (deep.length === 0 && frames.length === 0) {
          this.space();
          if (this.pos < t.length) throw new SyntaxFailure("Extra data", this.pos);
          return value;
        }
        const top = frames[frames.length - 1]!;
        if (deep.length === 0 && top.kept) {
          if (top.list !== null) top.list.push(value);
          else top.obj!.set(top.key, value);
        }
        this.space();
        const isList = deep.length > 0 ? deep[deep.length - 1] === 91 : top.list !== null;
        const n = t.charCodeAt(this.pos);
        if (n === 44) {
          this.pos++;
          if (!isList) this.key(frames, deep);
          break;
        }
        if ((isList && n === 93) || (!isList && n === 125)) {
          this.pos++;
          value = this.pop(frames, deep);
          continue;
        }
        throw new SyntaxFailure("Expecting ',' delimiter", this.pos);
      }
    }
  }

  pop(frames: Frame[], deep: number[]): JsonValue {
    if (deep.length > 0) {
      deep.pop();
      return null;
    }
    const f = frames.pop()!;
    return f.list !== null ? f.list : f.obj!;
  }

  key(frames: Frame[], deep: number[]): void {
    this.space();
    if (this.text.charCodeAt(this.pos) !== 34) throw new SyntaxFailure("Expecting property name enclosed in double quotes", this.pos);
    const k = this.string();
    this.space();
    if (this.text.charCodeAt(this.pos) !== 58) throw new SyntaxFailure("Expecting ':' delimiter", this.pos);
    this.pos++;
    if (deep.length === 0) frames[frames.length - 1]!.key = k;
  }

  string(): string {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
    let escaped = false;
    let surrogateEscape = false;
    for (;;) {
      if (p >= t.length) throw new SyntaxFailure("Unterminated string starting at", start);
      const c = t.charCodeAt(p);
      if (c === 34) break;
      if (c < 0x20) throw new SyntaxFailure("Invalid control character at", p);
      if (c !== 92) {
        p++;
        continue;
      }
      escaped = true;
      if (p + 1 >= t.length) throw new SyntaxFailure("Unterminated string starting at", start);
      const e = t.charCodeAt(p + 1);
      if (e === 117) {
        if (p + 6 >= t.length || !isHex4(t, p + 2)) throw new SyntaxFailure("Invalid \\uXXXX escape", p + 1);
        const high = t.charCodeAt(p + 2) | 0x20; // the first hex digit, lowercased
        if (high === 100 && "89abcdef".indexOf(String.fromCharCode(t.charCodeAt(p + 3) | 0x20)) >= 0) surrogateEscape = true;
        p += 6;
        continue;
      }
      if (e !== 34 && e !== 92 && e !== 47 && e !== 98 && e !== 102 && e !== 110 && e !== 114 && e !== 116) {
        throw new SyntaxFailure("Invalid \\escape", p);
      }
      p += 2;
    }
    this.pos = p + 1;
    if (!escaped) return t.slice(start + 1, p);
    // Checked above: the engine's JSON.parse reads the literal exactly as JSON says.
    const value = JSON.parse(t.slice(start, p + 1)) as string;
    // A pair of escapes is one character; a lone one is refused once the text is known to be JSON.
    if (surrogateEscape && !wellFormed(value)) this.surrogate = true;
    return value;
  }

  number(): JsonValue {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 45) p++;
    const first = t.charCodeAt(p);
    if (first === 48) p++;
    else if (first >= 49 && first <= 57) {
      while (isDigit(t.charCodeAt(p))) p++;
    } else {
      for (const constant of ["-Infinity"]) {
        if (t.startsWith(constant, start)) throw new SyntaxFailure(`!${constant} is not valid JSON`, start);
      }
      throw new SyntaxFailure("Expecting value", start);
    }
    let float = false;
    if (t.charCodeAt(p) === 46 && isDigit(t.charCodeAt(p + 1))) {
      float = true;
      p += 2;
      while (isDigit(t.charCodeAt(p))) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 101 || e === 69) {
      let q = p + 1;
      const s = t.charCodeAt(q);
      if (s === 43 || s === 45) q++;
      if (isDigit(t.charCodeAt(q))) {
        float = true;
        p = q + 1;
        while (isDigit(t.charCodeAt(p))) p++;
      }
    }
    this.pos = p;
    const literal = t.slice(start, p);
    if (!float) {
      const digits = literal.length - (literal.charCodeAt(0) === 45 ? 1 : 0);
      if (digits > MAX_INT_DIGITS) {
        this.tooLong = true;
        return 0;
      }
      return digits <= 15 ? (literal === "-0" ? 0 : Number(literal)) : new JsonNumber(literal);
    }
    const f = Number(literal);
    return Number.isInteger(f) || !Number.isFinite(f) ? new JsonNumber(literal) : f;
  }
}

function isHex4(text: string, at: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A JSON-shaped JavaScript value (e.g. from JSON.parse) as this runtime reads it: plain objects become Maps, one level at a time. */
function asObject(value: JsonValue | unknown): JsonObject | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  if (value instanceof Map) return value as JsonObject;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null ? (value as JsonObject) : null;
}

/** Text of a JSON value written back (no spaces; keys in order; JsonNumbers as written). */
export function encodeJSON(value: unknown): string {
  const parts: string[] = [];
  type Open = { items: [string | null, unknown][]; next: number; close: string };
  const stack: Open[] = [];
  const onPath = new Set<unknown>();
  const openers: unknown[] = [];
  let current: unknown = value;
  for (;;) {
    if (Array.isArray(current) || current instanceof Map || (current !== null && typeof current === "object" && !(current instanceof JsonNumber) && !(current instanceof Uint8Array))) {
      if (onPath.has(current)) throw new TypeError("Circular reference detected");
      onPath.add(current);
      openers.push(current);
      if (Array.isArray(current)) {
        parts.push("[");
        stack.push({ items: current.map((v) => [null, v] as [string | null, unknown]), next: 0, close: "]" });
      } else {
        parts.push("{");
        const entries = current instanceof Map ? [...(current as Map<string, unknown>).entries()] : Object.entries(current as object);
        stack.push({ items: entries.filter(([, v]) => v !== undefined), next: 0, close: "}" });
      }
    } else {
      parts.push(encodeScalar(current));
    }
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return parts.join("");
      if (top.next < top.items.length) {
        const [k, v] = top.items[top.next]!;
        if (top.next > 0) parts.push(",");
        if (k !== null) parts.push(JSON.stringify(k) + ":");
        top.next++;
        current = v;
        break;
      }
      parts.push(top.close);
      stack.pop();
      onPath.delete(openers.pop());
    }
  }
}

function encodeScalar(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof JsonNumber) return value.text;
  if (value instanceof Uint8Array) return JSON.stringify(encodeBase64(value));
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${value} is not valid JSON`);
    // An integer past 2^53 is written as the integer it holds: JSON.stringify writes its shortest
    // digits, padded with zeros, which may be another integer (-2^63 as -9223372036854776000, past int64).
    if (Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21) return BigInt(value).toString();
    return JSON.stringify(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  throw new TypeError(`a ${typeof value} has no JSON form`);
}

export function newUUID4(): string {
  const c = (globalThis as unknown as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID !== undefined) return c.randomUUID();
  const hex = "0123456789abcdef";
  let out = "";
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) out += "-";
    else if (i === 14) out += "4";
    else if (i === 19) out += hex[8 + Math.floor(Math.random() * 4)];
    else out += hex[Math.floor(Math.random() * 16)];
  }
  return out;
}

// --- objects -------------------------------------------------------------

export function expectObject(data: JsonValue, ctx: Context, message: string): JsonObject | null {
  const obj = asObject(data);
  if (obj === null) ctx.error(message, undefined, data);
  return obj;
}

export function rejectUnknown(obj: JsonObject, ctx: Context, known: ReadonlySet<string>, message: string): void {
  if (obj instanceof Map) {
    for (const [key, value] of obj) if (!known.has(key)) ctx.error(message, key, value);
    return;
  }
  for (const key in obj) if (!known.has(key) && Object.hasOwn(obj, key)) ctx.error(message, key, obj[key]);
}

// --- the properties an open model's fields do not name ------------------------
//
// JSON Schema lets an open object hold any value under a name its properties do not list. A
// reader keeps them, in order, as own properties of the value it builds, so that the wire form
// writes them back; each is held to the input policy of a free-form value (depth, numbers).

const unknownValue = anyJSON({ type: "must be a JSON value" });

/** The properties of an open model's object that its fields do not name (null when none), each checked at its own pointer. */
export function keepUnknown(obj: JsonObject, ctx: Context, known: ReadonlySet<string>): [string, unknown][] | null {
  let out: [string, unknown][] | null = null;
  for (const [key, value] of entriesOf(obj)) {
    if (known.has(key)) continue;
    const kept = ctx.child(key, value, unknownValue);
    if (kept !== INVALID) (out ??= []).push([key, kept]);
  }
  return out;
}

/** keepUnknown for a fast function (a JSON.parse object): UNSURE unless every value surely passes. */
export function fastUnknown(obj: { readonly [key: string]: unknown }, known: ReadonlySet<string>, room: number): [string, unknown][] | null | Unsure {
  let out: [string, unknown][] | null = null;
  for (const key in obj) {
    if (known.has(key) || !Object.hasOwn(obj, key)) continue;
    const value = obj[key];
    if (!fitsJSON(value, room)) return UNSURE;
    (out ??= []).push([key, value]);
  }
  return out;
}

/** Sets the properties keepUnknown kept on the value built from the fields. */
export function putUnknown(target: object, extra: [string, unknown][] | null): void {
  if (extra !== null) for (const [key, value] of extra) put(target, key, value);
}

/** Copies a built value's own properties its model's fields do not name onto its wire form, in order;
 * one holding undefined is left out, as JSON.stringify leaves it out. */
export function copyUnknown(out: object, value: object, known: ReadonlySet<string>): void {
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    const item = (value as { readonly [key: string]: unknown })[key];
    if (item !== undefined) put(out, key, item);
  }
}

// --- scalars --------------------------------------------------------------

export type Msgs = Readonly<Record<string, string>>;

function msg(msgs: Msgs, keyword: string): string {
  const m = msgs[keyword];
  return m === undefined ? keyword : m;
}

/** Characters (code points) of a string, as Python's len counts them. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

// The code points a spec pattern's \d and \w match in every target, as Python 3.11's re reads them
// (Unicode 14.0: \d the digits of category Nd, \w every letter and number and "_"). RegExp reads \d and
// \w as ASCII, and \p{Nd} with the engine's own (newer) tables, so regex() spells them out as these
// ranges (chatspec's generator/unicode_classes.py has the same text).
const DIGIT_RANGES =
  "0030-0039 0660-0669 06F0-06F9 07C0-07C9 0966-096F 09E6-09EF 0A66-0A6F 0AE6-0AEF 0B66-0B6F 0BE6-0BEF " +
  "0C66-0C6F 0CE6-0CEF 0D66-0D6F 0DE6-0DEF 0E50-0E59 0ED0-0ED9 0F20-0F29 1040-1049 1090-1099 17E0-17E9 " +
  "1810-1819 1946-194F 19D0-19D9 1A80-1A89 1A90-1A99 1B50-1B59 1BB0-1BB9 1C40-1C49 1C50-1C59 A620-A629 " +
  "A8D0-A8D9 A900-A909 A9D0-A9D9 A9F0-A9F9 AA50-AA59 ABF0-ABF9 FF10-FF19 104A0-104A9 10D30-10D39 " +
  "11066-1106F 110F0-110F9 11136-1113F 111D0-111D9 112F0-112F9 11450-11459 114D0-114D9 11650-11659 " +
  "116C0-116C9 11730-11739 118E0-118E9 11950-11959 11C50-11C59 11D50-11D59 11DA0-11DA9 16A60-16A69 " +
  "16AC0-16AC9 16B50-16B59 1D7CE-1D7FF 1E140-1E149 1E2F0-1E2F9 1E950-1E959 1FBF0-1FBF9 ";
const WORD_RANGES =
  "0030-0039 0041-005A 005F 0061-007A 00AA 00B2-00B3 00B5 00B9-00BA 00BC-00BE 00C0-00D6 00D8-00F6 " +
  "00F8-02C1 02C6-02D1 02E0-02E4 02EC 02EE 0370-0374 0376-0377 037A-037D 037F 0386 0388-038A 038C " +
  "038E-03A1 03A3-03F5 03F7-0481 048A-052F 0531-0556 0559 0560-0588 05D0-05EA 05EF-05F2 0620-064A " +
  "0660-0669 066E-066F 0671-06D3 06D5 06E5-06E6 06EE-06FC 06FF 0710 0712-072F 074D-07A5 07B1 07C0-07EA " +
  "07F4-07F5 07FA 0800-0815 081A 0824 0828 0840-0858 0860-086A 0870-0887 0889-088E 08A0-08C9 0904-0939 " +
  "093D 0950 0958-0961 0966-096F 0971-0980 0985-098C 098F-0990 0993-09A8 09AA-09B0 09B2 09B6-09B9 09BD " +
  "09CE 09DC-09DD 09DF-09E1 09E6-09F1 09F4-09F9 09FC 0A05-0A0A 0A0F-0A10 0A13-0A28 0A2A-0A30 0A32-0A33 " +
  "0A35-0A36 0A38-0A39 0A59-0A5C 0A5E 0A66-0A6F 0A72-0A74 0A85-0A8D 0A8F-0A91 0A93-0AA8 0AAA-0AB0 " +
  "0AB2-0AB3 0AB5-0AB9 0ABD 0AD0 0AE0-0AE1 0AE6-0AEF 0AF9 0B05-0B0C 0B0F-0B10 0B13-0B28 0B2A-0B30 " +
  "0B32-0B33 0B35-0B39 0B3D 0B5C-0B5D 0B5F-0B61 0B66-0B6F 0B71-0B77 0B83 0B85-0B8A 0B8E-0B90 0B92-0B95 " +
  "0B99-0B9A 0B9C 0B9E-0B9F 0BA3-0BA4 0BA8-0BAA 0BAE-0BB9 0BD0 0BE6-0BF2 0C05-0C0C 0C0E-0C10 0C12-0C28 " +
  "0C2A-0C39 0C3D 0C58-0C5A 0C5D 0C60-0C61 0C66-0C6F 0C78-0C7E 0C80 0C85-0C8C 0C8E-0C90 0C92-0CA8 " +
  "0CAA-0CB3 0CB5-0CB9 0CBD 0CDD-0CDE 0CE0-0CE1 0CE6-0CEF 0CF1-0CF2 0D04-0D0C 0D0E-0D10 0D12-0D3A 0D3D " +
  "0D4E 0D54-0D56 0D58-0D61 0D66-0D78 0D7A-0D7F 0D85-0D96 0D9A-0DB1 0DB3-0DBB 0DBD 0DC0-0DC6 0DE6-0DEF " +
  "0E01-0E30 0E32-0E33 0E40-0E46 0E50-0E59 0E81-0E82 0E84 0E86-0E8A 0E8C-0EA3 0EA5 0EA7-0EB0 0EB2-0EB3 " +
  "0EBD 0EC0-0EC4 0EC6 0ED0-0ED9 0EDC-0EDF 0F00 0F20-0F33 0F40-0F47 0F49-0F6C 0F88-0F8C 1000-102A " +
  "103F-1049 1050-1055 105A-105D 1061 1065-1066 106E-1070 1075-1081 108E 1090-1099 10A0-10C5 10C7 10CD " +
  "10D0-10FA 10FC-1248 124A-124D 1250-1256 1258 125A-125D 1260-1288 128A-128D 1290-12B0 12B2-12B5 " +
  "12B8-12BE 12C0 12C2-12C5 12C8-12D6 12D8-1310 1312-1315 1318-135A 1369-137C 1380-138F 13A0-13F5 " +
  "13F8-13FD 1401-166C 166F-167F 1681-169A 16A0-16EA 16EE-16F8 1700-1711 171F-1731 1740-1751 1760-176C " +
  "176E-1770 1780-17B3 17D7 17DC 17E0-17E9 17F0-17F9 1810-1819 1820-1878 1880-1884 1887-18A8 18AA " +
  "18B0-18F5 1900-191E 1946-196D 1970-1974 1980-19AB 19B0-19C9 19D0-19DA 1A00-1A16 1A20-1A54 1A80-1A89 " +
  "1A90-1A99 1AA7 1B05-1B33 1B45-1B4C 1B50-1B59 1B83-1BA0 1BAE-1BE5 1C00-1C23 1C40-1C49 1C4D-1C7D " +
  "1C80-1C88 1C90-1CBA 1CBD-1CBF 1CE9-1CEC 1CEE-1CF3 1CF5-1CF6 1CFA 1D00-1DBF 1E00-1F15 1F18-1F1D " +
  "1F20-1F45 1F48-1F4D 1F50-1F57 1F59 1F5B 1F5D 1F5F-1F7D 1F80-1FB4 1FB6-1FBC 1FBE 1FC2-1FC4 1FC6-1FCC " +
  "1FD0-1FD3 1FD6-1FDB 1FE0-1FEC 1FF2-1FF4 1FF6-1FFC 2070-2071 2074-2079 207F-2089 2090-209C 2102 2107 " +
  "210A-2113 2115 2119-211D 2124 2126 2128 212A-212D 212F-2139 213C-213F 2145-2149 214E 2150-2189 " +
  "2460-249B 24EA-24FF 2776-2793 2C00-2CE4 2CEB-2CEE 2CF2-2CF3 2CFD 2D00-2D25 2D27 2D2D 2D30-2D67 2D6F " +
  "2D80-2D96 2DA0-2DA6 2DA8-2DAE 2DB0-2DB6 2DB8-2DBE 2DC0-2DC6 2DC8-2DCE 2DD0-2DD6 2DD8-2DDE 2E2F " +
  "3005-3007 3021-3029 3031-3035 3038-303C 3041-3096 309D-309F 30A1-30FA 30FC-30FF 3105-312F 3131-318E " +
  "3192-3195 31A0-31BF 31F0-31FF 3220-3229 3248-324F 3251-325F 3280-3289 32B1-32BF 3400-4DBF 4E00-A48C " +
  "A4D0-A4FD A500-A60C A610-A62B A640-A66E A67F-A69D A6A0-A6EF A717-A71F A722-A788 A78B-A7CA A7D0-A7D1 " +
  "A7D3 A7D5-A7D9 A7F2-A801 A803-A805 A807-A80A A80C-A822 A830-A835 A840-A873 A882-A8B3 A8D0-A8D9 " +
  "A8F2-A8F7 A8FB A8FD-A8FE A900-A925 A930-A946 A960-A97C A984-A9B2 A9CF-A9D9 A9E0-A9E4 A9E6-A9FE " +
  "AA00-AA28 AA40-AA42 AA44-AA4B AA50-AA59 AA60-AA76 AA7A AA7E-AAAF AAB1 AAB5-AAB6 AAB9-AABD AAC0 AAC2 " +
  "AADB-AADD AAE0-AAEA AAF2-AAF4 AB01-AB06 AB09-AB0E AB11-AB16 AB20-AB26 AB28-AB2E AB30-AB5A AB5C-AB69 " +
  "AB70-ABE2 ABF0-ABF9 AC00-D7A3 D7B0-D7C6 D7CB-D7FB F900-FA6D FA70-FAD9 FB00-FB06 FB13-FB17 FB1D " +
  "FB1F-FB28 FB2A-FB36 FB38-FB3C FB3E FB40-FB41 FB43-FB44 FB46-FBB1 FBD3-FD3D FD50-FD8F FD92-FDC7 " +
  "FDF0-FDFB FE70-FE74 FE76-FEFC FF10-FF19 FF21-FF3A FF41-FF5A FF66-FFBE FFC2-FFC7 FFCA-FFCF FFD2-FFD7 " +
  "FFDA-FFDC 10000-1000B 1000D-10026 10028-1003A 1003C-1003D 1003F-1004D 10050-1005D 10080-100FA " +
  "10107-10133 10140-10178 1018A-1018B 10280-1029C 102A0-102D0 102E1-102FB 10300-10323 1032D-1034A " +
  "10350-10375 10380-1039D 103A0-103C3 103C8-103CF 103D1-103D5 10400-1049D 104A0-104A9 104B0-104D3 " +
  "104D8-104FB 10500-10527 10530-10563 10570-1057A 1057C-1058A 1058C-10592 10594-10595 10597-105A1 " +
  "105A3-105B1 105B3-105B9 105BB-105BC 10600-10736 10740-10755 10760-10767 10780-10785 10787-107B0 " +
  "107B2-107BA 10800-10805 10808 1080A-10835 10837-10838 1083C 1083F-10855 10858-10876 10879-1089E " +
  "108A7-108AF 108E0-108F2 108F4-108F5 108FB-1091B 10920-10939 10980-109B7 109BC-109CF 109D2-10A00 " +
  "10A10-10A13 10A15-10A17 10A19-10A35 10A40-10A48 10A60-10A7E 10A80-10A9F 10AC0-10AC7 10AC9-10AE4 " +
  "10AEB-10AEF 10B00-10B35 10B40-10B55 10B58-10B72 10B78-10B91 10BA9-10BAF 10C00-10C48 10C80-10CB2 " +
  "10CC0-10CF2 10CFA-10D23 10D30-10D39 10E60-10E7E 10E80-10EA9 10EB0-10EB1 10F00-10F27 10F30-10F45 " +
  "10F51-10F54 10F70-10F81 10FB0-10FCB 10FE0-10FF6 11003-11037 11052-1106F 11071-11072 11075 " +
  "11083-110AF 110D0-110E8 110F0-110F9 11103-11126 11136-1113F 11144 11147 11150-11172 11176 " +
  "11183-111B2 111C1-111C4 111D0-111DA 111DC 111E1-111F4 11200-11211 11213-1122B 11280-11286 11288 " +
  "1128A-1128D 1128F-1129D 1129F-112A8 112B0-112DE 112F0-112F9 11305-1130C 1130F-11310 11313-11328 " +
  "1132A-11330 11332-11333 11335-11339 1133D 11350 1135D-11361 11400-11434 11447-1144A 11450-11459 " +
  "1145F-11461 11480-114AF 114C4-114C5 114C7 114D0-114D9 11580-115AE 115D8-115DB 11600-1162F 11644 " +
  "11650-11659 11680-116AA 116B8 116C0-116C9 11700-1171A 11730-1173B 11740-11746 11800-1182B " +
  "118A0-118F2 118FF-11906 11909 1190C-11913 11915-11916 11918-1192F 1193F 11941 11950-11959 " +
  "119A0-119A7 119AA-119D0 119E1 119E3 11A00 11A0B-11A32 11A3A 11A50 11A5C-11A89 11A9D 11AB0-11AF8 " +
  "11C00-11C08 11C0A-11C2E 11C40 11C50-11C6C 11C72-11C8F 11D00-11D06 11D08-11D09 11D0B-11D30 11D46 " +
  "11D50-11D59 11D60-11D65 11D67-11D68 11D6A-11D89 11D98 11DA0-11DA9 11EE0-11EF2 11FB0 11FC0-11FD4 " +
  "12000-12399 12400-1246E 12480-12543 12F90-12FF0 13000-1342E 14400-14646 16800-16A38 16A40-16A5E " +
  "16A60-16A69 16A70-16ABE 16AC0-16AC9 16AD0-16AED 16B00-16B2F 16B40-16B43 16B50-16B59 16B5B-16B61 " +
  "16B63-16B77 16B7D-16B8F 16E40-16E96 16F00-16F4A 16F50 16F93-16F9F 16FE0-16FE1 16FE3 17000-187F7 " +
  "18800-18CD5 18D00-18D08 1AFF0-1AFF3 1AFF5-1AFFB 1AFFD-1AFFE 1B000-1B122 1B150-1B152 1B164-1B167 " +
  "1B170-1B2FB 1BC00-1BC6A 1BC70-1BC7C 1BC80-1BC88 1BC90-1BC99 1D2E0-1D2F3 1D360-1D378 1D400-1D454 " +
  "1D456-1D49C 1D49E-1D49F 1D4A2 1D4A5-1D4A6 1D4A9-1D4AC 1D4AE-1D4B9 1D4BB 1D4BD-1D4C3 1D4C5-1D505 " +
  "1D507-1D50A 1D50D-1D514 1D516-1D51C 1D51E-1D539 1D53B-1D53E 1D540-1D544 1D546 1D54A-1D550 " +
  "1D552-1D6A5 1D6A8-1D6C0 1D6C2-1D6DA 1D6DC-1D6FA 1D6FC-1D714 1D716-1D734 1D736-1D74E 1D750-1D76E " +
  "1D770-1D788 1D78A-1D7A8 1D7AA-1D7C2 1D7C4-1D7CB 1D7CE-1D7FF 1DF00-1DF1E 1E100-1E12C 1E137-1E13D " +
  "1E140-1E149 1E14E 1E290-1E2AD 1E2C0-1E2EB 1E2F0-1E2F9 1E7E0-1E7E6 1E7E8-1E7EB 1E7ED-1E7EE " +
  "1E7F0-1E7FE 1E800-1E8C4 1E8C7-1E8CF 1E900-1E943 1E94B 1E950-1E959 1EC71-1ECAB 1ECAD-1ECAF " +
  "1ECB1-1ECB4 1ED01-1ED2D 1ED2F-1ED3D 1EE00-1EE03 1EE05-1EE1F 1EE21-1EE22 1EE24 1EE27 1EE29-1EE32 " +
  "1EE34-1EE37 1EE39 1EE3B 1EE42 1EE47 1EE49 1EE4B 1EE4D-1EE4F 1EE51-1EE52 1EE54 1EE57 1EE59 1EE5B " +
  "1EE5D 1EE5F 1EE61-1EE62 1EE64 1EE67-1EE6A 1EE6C-1EE72 1EE74-1EE77 1EE79-1EE7C 1EE7E 1EE80-1EE89 " +
  "1EE8B-1EE9B 1EEA1-1EEA3 1EEA5-1EEA9 1EEAB-1EEBB 1F100-1F10C 1FBF0-1FBF9 20000-2A6DF 2A700-2B738 " +
  "2B740-2B81D 2B820-2CEA1 2CEB0-2EBE0 2F800-2FA1D 30000-3134A ";

function pinnedRanges(text: string): [number, number][] {
  return text
    .trim()
    .split(" ")
    .map((item) => {
      const [lo, hi] = item.split("-");
      return [parseInt(lo!, 16), parseInt(hi ?? lo!, 16)];
    });
}

function classItems(text: string): string {
  return pinnedRanges(text)
    .map(([lo, hi]) => (lo === hi ? `\\u{${lo.toString(16)}}` : `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`))
    .join("");
}

const TABLES: ReadonlyMap<string, string> = new Map([
  ["D", DIGIT_RANGES],
  ["W", WORD_RANGES],
]);
const tableEdges = new Map<string, readonly number[]>();

/**
 * Where the table an automaton's alphabet names by letter starts and ends its ranges (a range starts at
 * every even index); undefined where the item is no table's. Made when first needed: most packages'
 * patterns hold neither escape.
 */
function edgesOf(letter: string): readonly number[] | undefined {
  let edges = tableEdges.get(letter);
  const text = TABLES.get(letter);
  if (edges === undefined && text !== undefined) {
    edges = pinnedRanges(text).flatMap(([lo, hi]) => [lo, hi + 1]);
    tableEdges.set(letter, edges);
  }
  return edges;
}

let pinnedClasses: { d: string; w: string } | undefined;

/**
 * A pattern as chatspec writes it for RegExp, its \d \w \D \W spelt out as the pinned ranges. (The
 * generator writes \D and \W outside classes only, and every "[" and "]" it means as a character as a
 * hex escape.)
 */
export function pinned(source: string): string {
  if (!source.includes("\\")) return source;
  pinnedClasses ??= { d: classItems(DIGIT_RANGES), w: classItems(WORD_RANGES) };
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\" && i + 1 < source.length) {
      const name = source[++i]!;
      if (name === "d" || name === "w" || name === "D" || name === "W") {
        const body = name === "d" || name === "D" ? pinnedClasses.d : pinnedClasses.w;
        out += inClass ? body : name === "D" || name === "W" ? `[^${body}]` : `[${body}]`;
      } else {
        out += c + name;
      }
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return out;
}

/** A spec pattern that RegExp runs in time linear in the value's length, compiled once, at import. */
export function regex(source: string): RegExp {
  return new RegExp(pinned(source), "u");
}

/** A spec pattern, compiled: a RegExp or an Automaton. test() says whether the value matches. */
export interface Matcher {
  test(value: string): boolean;
}

/**
 * A spec pattern as a deterministic automaton (generator/automaton.py), for the patterns a RegExp
 * could take more than linear time on: test() reads each code point once.
 *
 * The data is one line: three ";"-separated lists of base-36 numbers: the alphabet, the transition
 * table (one row of classes per state), then the start state and the accepting ones. Each item of the
 * alphabet is the first code point of an interval and its class ("b.k"), or a run of intervals cut at
 * the edges of a pinned table ("W<first edge>.<count>.<class in>.<class out>": an interval starting at
 * an even edge is in the table). State 0 matches nothing more, state 1 has matched; both end the walk.
 */
export class Automaton implements Matcher {
  private readonly bounds: Int32Array;
  private readonly classes: Int32Array;
  private readonly ascii: Int32Array;
  private readonly table: Int32Array;
  private readonly width: number;
  private readonly start: number;
  private readonly accepting: Uint8Array;

  constructor(data: string) {
    const [alphabet, table, states] = data.split(";");
    const bounds: number[] = [];
    const classes: number[] = [];
    for (const item of alphabet!.split(",")) {
      const edges = edgesOf(item[0]!);
      if (edges !== undefined) {
        const [first, count, inside, outside] = item.slice(1).split(".").map((x) => parseInt(x, 36)) as [number, number, number, number];
        for (let j = first; j < first + count; j++) {
          bounds.push(edges[j]!);
          classes.push(j % 2 ? outside : inside);
        }
      } else {
        const [bound, k] = item.split(".");
        bounds.push(parseInt(bound!, 36));
        classes.push(parseInt(k!, 36));
      }
    }
    this.bounds = Int32Array.from(bounds);
    this.classes = Int32Array.from(classes);
    this.table = Int32Array.from(table!.split(","), (x) => parseInt(x, 36));
    const found = Int32Array.from(states!.split(","), (x) => parseInt(x, 36));
    this.width = this.classes.reduce((a, b) => Math.max(a, b), 0) + 1;
    this.ascii = Int32Array.from({ length: 128 }, (_, c) => this.classOf(c));
    this.start = found[0]!;
    this.accepting = new Uint8Array(this.table.length / this.width);
    for (const s of found.subarray(1)) this.accepting[s] = 1;
  }

  /** The class of a code point: the last interval starting at or below it (a binary search). */
  private classOf(code: number): number {
    let lo = 0;
    let hi = this.bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.bounds[mid]! <= code) lo = mid;
      else hi = mid - 1;
    }
    return this.classes[lo]!;
  }

  test(value: string): boolean {
    const { table, width, ascii } = this;
    let state = this.start;
    const n = value.length;
    for (let i = 0; i < n; i++) {
      let code = value.charCodeAt(i);
      // A surrogate pair is one code point, as Python reads the same text; a lone surrogate is one too.
      if (code >= 0xd800 && code < 0xdc00 && i + 1 < n) {
        const low = value.charCodeAt(i + 1);
        if (low >= 0xdc00 && low < 0xe000) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
        }
      }
      state = table[state * width + (code < 128 ? ascii[code]! : this.classOf(code))]!;
      if (state < 2) break;
    }
    return this.accepting[state] === 1;
  }
}

export interface StringSpec {
  minLength?: number;
  maxLength?: number;
  pattern?: Matcher;
  enum?: ReadonlySet<string>;
  const?: string;
  /** A format formatOk checks, e.g. "uri". */
  format?: string;
}

export function string<T extends string = string>(msgs: Msgs, spec: StringSpec = {}): Parser<T> {
  const { minLength, maxLength, pattern, const: constant, format } = spec;
  const values = spec.enum;
  return (value, ctx) => {
    if (typeof value !== "string") {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    const mark = ctx.count;
    if (constant !== undefined && value !== constant) ctx.error(msg(msgs, "const"), undefined, value);
    if (values !== undefined && !values.has(value)) ctx.error(msg(msgs, "enum"), undefined, value);
    // Python counts characters (code points); .length counts UTF-16 units, at most twice as many.
    if (minLength !== undefined && (value.length < minLength || (value.length < 2 * minLength && codePoints(value) < minLength))) {
      ctx.error(msg(msgs, "minLength"), undefined, value);
    }
    if (maxLength !== undefined && value.length > maxLength && codePoints(value) > maxLength) {
      ctx.error(msg(msgs, "maxLength"), undefined, value);
    }
    if (pattern !== undefined && !pattern.test(value)) ctx.error(msg(msgs, "pattern"), undefined, value);
    if (format !== undefined && !formatOk(format, value)) ctx.error(msg(msgs, "format"), undefined, value);
    return ctx.count > mark ? INVALID : (value as T);
  };
}

/** The value of n ASCII digits at text[at...], or -1. */
function digitsAt(text: string, at: number, n: number): number {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    value = value * 10 + (c - 48);
  }
  return value;
}

/** The value of the two ASCII digits at text[at], text[at + 1] (both inside text), or -1. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  // As unsigned, a character below "0" is past 9 too.
  return a >>> 0 > 9 || b >>> 0 > 9 ? -1 : a * 10 + b;
}

/**
 * Whether text is an RFC 3339 date-time the Python runtime accepts:
 * YYYY-MM-DD[Tt]hh:mm:ss[.fraction](Z|z|+hh:mm|-hh:mm) in ASCII digits, a time zone
 * required, every field in range (no leap second, no year 0, offsets up to 23:59).
 * Every timestamp of a document goes through it, so it reads each character once, in place.
 */
export function isDateTime(text: string): boolean {
  const n = text.length;
  if (n < 20) return false;
  // "T" and "t" differ only in the bit 32; so do "Z" and "z".
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || (text.charCodeAt(10) | 32) !== 116 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) {
    return false;
  }
  const century = twoDigits(text, 0);
  const yy = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  const hour = twoDigits(text, 11);
  const minute = twoDigits(text, 14);
  const second = twoDigits(text, 17);
  const year = century * 100 + yy;
  if (century < 0 || yy < 0 || year < 1 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return false;
  }
  let i = 19;
  let c = text.charCodeAt(i);
  if (c === 46) {
    const start = ++i;
    while (i < n && (c = text.charCodeAt(i)) >= 48 && c <= 57) i++;
    if (i === start) return false;
    c = text.charCodeAt(i); // NaN at the end: no time zone
  }
  if (i === n - 1 && (c | 32) === 122) {
    // Z or z
  } else if (i === n - 6 && (c === 43 || c === 45) && text.charCodeAt(i + 3) === 58) {
    const offH = twoDigits(text, i + 1);
    const offM = twoDigits(text, i + 4);
    if (offH < 0 || offM < 0 || offH > 23 || offM > 59) return false;
  } else {
    return false;
  }
  if (day <= 28) return true; // every month has 28 days
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

export function dateTime(msgs: Msgs): Parser<DateTimeString> {
  return (value, ctx) => {
    if (typeof value !== "string") {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    if (!isDateTime(value)) {
      ctx.error(msg(msgs, "format"), undefined, value);
      return INVALID;
    }
    return value as DateTimeString;
  };
}

// --- format: the formats chatspec asserts on a string, the same in every runtime ---
// Each is a regular expression over ASCII that Python's re, Go's regexp and RegExp read alike,
// built from the same pieces as the Python runtime's FORMAT_PATTERNS so that the text is the same
// (a test compares the three), matched against the whole string, plus date's and time's checks of
// the numbers. No flags: with no class that reaches past ASCII (no ".", no negated class) the u
// flag would change nothing. Every repetition is unambiguous or bounded, so a backtracking engine
// matches in linear time. (V8 keeps one backtracking entry per turn of a group's loop, and throws a
// RangeError past about 8 million of them: the loops here turn once per percent-encoding of a URI,
// or per dot of an email address of at most 254 characters, never once per character.)
const DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const IPV4 = DEC_OCTET + "(?:\\." + DEC_OCTET + "){3}";
const H16 = "[0-9A-Fa-f]{1,4}";
const LS32 = "(?:" + H16 + ":" + H16 + "|" + IPV4 + ")";
const IPV6 =
  "(?:(?:" + H16 + ":){6}" + LS32 +
  "|::(?:" + H16 + ":){5}" + LS32 +
  "|(?:" + H16 + ")?::(?:" + H16 + ":){4}" + LS32 +
  ([
    [1, "(?:" + H16 + ":){3}" + LS32],
    [2, "(?:" + H16 + ":){2}" + LS32],
    [3, H16 + ":" + LS32],
    [4, LS32],
    [5, H16],
    [6, ""],
  ] as const).map(([n, tail]) => "|(?:(?:" + H16 + ":){0," + n + "}" + H16 + ")?::" + tail).join("") +
  ")";
// RFC 3986, appendix A, with every run of characters and percent-encodings written as pctRun writes
// it: a loop turns once per percent-encoding, not once per character (see above: a data: URI may
// be megabytes long).
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = "%[0-9A-Fa-f]{2}";
const PCHAR = UNRESERVED + SUB_DELIMS + ":@";
/** Any run of the characters and percent-encodings. */
const pctRun = (chars: string): string => "[" + chars + "]*(?:" + PCT + "[" + chars + "]*)*";
/** One of the characters, or a percent-encoding. */
const pctUnit = (chars: string): string => "(?:[" + chars + "]|" + PCT + ")";
const AUTHORITY =
  "(?:" + pctRun(UNRESERVED + SUB_DELIMS + ":") + "@)?" +
  "(?:\\[(?:" + IPV6 + "|[vV][0-9A-Fa-f]+\\.[" + UNRESERVED + SUB_DELIMS + ":]+)\\]|" + pctRun(UNRESERVED + SUB_DELIMS) + ")(?::[0-9]*)?";
const SEGMENTS = "(?:/" + pctRun(PCHAR + "/") + ")?";
const ABSOLUTE = "/(?:" + pctUnit(PCHAR) + pctRun(PCHAR + "/") + ")?";
const URI_TAIL = "(?:\\?" + pctRun(PCHAR + "/?") + ")?(?:#" + pctRun(PCHAR + "/?") + ")?";
const URI = "[A-Za-z][A-Za-z0-9+\\-.]*:(?://" + AUTHORITY + SEGMENTS + "|" + ABSOLUTE + "|" + pctUnit(PCHAR) + pctRun(PCHAR + "/") + ")?" + URI_TAIL;
const RELATIVE =
  "(?://" + AUTHORITY + SEGMENTS + "|" + ABSOLUTE + "|" + pctUnit(UNRESERVED + SUB_DELIMS + "@") + pctRun(UNRESERVED + SUB_DELIMS + "@") + SEGMENTS + ")?" + URI_TAIL;
// RFC 5321's Mailbox: a dot-string or a quoted string, @, a domain or an address literal.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-]+";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9\\-]{0,61}[A-Za-z0-9])?";
const EMAIL =
  "(?:" + ATEXT + "(?:\\." + ATEXT + ')*|"(?:[ !#-\\[\\]-~]|\\\\[ -~])*")@' +
  "(?:" + LABEL + "(?:\\." + LABEL + ")*|\\[" + IPV4 + "\\]|\\[IPv6:" + IPV6 + "\\])";

/** Each format's pattern (but date-time's, which isDateTime reads), unanchored, as the Python runtime's FORMAT_PATTERNS spells it. */
export const FORMAT_PATTERNS: Readonly<Record<string, string>> = Object.freeze({
  date: "([0-9]{4})-([0-9]{2})-([0-9]{2})",
  time: "([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))",
  uri: URI,
  "uri-reference": "(?:" + URI + "|" + RELATIVE + ")",
  uuid: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
  email: EMAIL,
});
/** FORMAT_PATTERNS anchored at both ends: $ without the m flag is the end of the text only, so "2020-01-01\n" is no date, as Python's fullmatch says. */
const FORMAT_RES: ReadonlyMap<string, RegExp> = new Map(Object.entries(FORMAT_PATTERNS).map(([name, p]) => [name, new RegExp("^(?:" + p + ")$")]));
/** Each month's last day in a leap year. */
const MONTH_DAYS: readonly number[] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether text is a string of the format, with the Python runtime's format_ok meaning: date is
 * RFC 3339's full-date, time its full-time (a leap second only at 23:59:60 UTC), date-time what
 * isDateTime accepts, uri and uri-reference RFC 3986's, uuid RFC 9562's text form of any version,
 * email RFC 5321's Mailbox of at most 254 characters. The generator asserts these seven only; any other name is false
 * (where Python raises KeyError), so that no input can make the runtime throw.
 */
export function formatOk(name: string, text: string): boolean {
  if (name === "date-time") return isDateTime(text);
  if (name === "email" && text.length > 254) return false; // RFC 5321's limit: a path of 256 octets, its brackets included
  const re = FORMAT_RES.get(name);
  if (re === undefined) return false;
  const m = re.exec(text);
  if (m === null) return false;
  if (name !== "date" && name !== "time") return true;
  // The groups are ASCII digits of fixed width; a group that took no part is undefined.
  const num = (i: number): number => Number(m[i]);
  if (name === "date") {
    const year = num(1);
    const month = num(2);
    const day = num(3);
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const last = (MONTH_DAYS[month - 1] ?? 0) - (month === 2 && !leap ? 1 : 0);
    return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= last; // no year 0, as in a date-time
  }
  const hour = num(1);
  const minute = num(2);
  const second = num(3);
  let offset = 0; // minutes east of UTC
  if (m[4] !== undefined) {
    if (num(5) > 23 || num(6) > 59) return false;
    offset = (num(5) * 60 + num(6)) * (m[4] === "+" ? 1 : -1);
  }
  if (hour > 23 || minute > 59 || second > 60) return false;
  // A leap second is the last second of a UTC day. JavaScript's % keeps the dividend's sign, so the
  // minute of the UTC day is brought into 0..1439 as Python's % brings it.
  return second < 60 || ((((hour * 60 + minute - offset) % 1440) + 1440) % 1440) === 1439;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether text is base64 as base64Bytes accepts it. */
export function isBase64(text: string): boolean {
  return BASE64.test(text);
}
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/=+$/, "");
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | ALPHABET.indexOf(clean[i]!);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    out += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | (b >> 4)]!;
    out += i + 1 < bytes.length ? ALPHABET[((b & 15) << 2) | (c >> 6)]! : "=";
    out += i + 2 < bytes.length ? ALPHABET[c & 63]! : "=";
  }
  return out;
}

export function base64Bytes(msgs: Msgs): Parser<Uint8Array> {
  return (value, ctx) => {
    if (typeof value !== "string") {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    if (!BASE64.test(value)) {
      ctx.error(msg(msgs, "contentEncoding"), undefined, value);
      return INVALID;
    }
    return decodeBase64(value);
  };
}

export interface Bounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** Integers only (lower refuses it on a number), 1 to 2^53-1: a safe integer, exact as a number and as a bigint. */
  multipleOf?: number;
  /** Checked first. Each below 2^53 in size (lower): a number equal to one is that number, exactly. */
  const?: number;
  enum?: ReadonlySet<number>;
}

function bounds(f: number, value: JsonValue, ctx: Context, msgs: Msgs, b: Bounds): boolean {
  const mark = ctx.count;
  if (b.const !== undefined && f !== b.const) ctx.error(msg(msgs, "const"), undefined, value);
  if (b.enum !== undefined && !b.enum.has(f)) ctx.error(msg(msgs, "enum"), undefined, value);
  if (b.minimum !== undefined && f < b.minimum) ctx.error(msg(msgs, "minimum"), undefined, value);
  if (b.maximum !== undefined && f > b.maximum) ctx.error(msg(msgs, "maximum"), undefined, value);
  if (b.exclusiveMinimum !== undefined && f <= b.exclusiveMinimum) ctx.error(msg(msgs, "exclusiveMinimum"), undefined, value);
  if (b.exclusiveMaximum !== undefined && f >= b.exclusiveMaximum) ctx.error(msg(msgs, "exclusiveMaximum"), undefined, value);
  // The remainder of two integral numbers is exact (fmod rounds nothing); past 2^53 f is already a rounded
  // value, which the Context marks inexact, so the text is read again and checked by exactBounds.
  if (b.multipleOf !== undefined && f % b.multipleOf !== 0) ctx.error(msg(msgs, "multipleOf"), undefined, value);
  return ctx.count === mark;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Compare an exact integer literal with a float bound as Python compares int with float. */
function exactBounds(text: string, value: JsonValue, ctx: Context, msgs: Msgs, b: Bounds): boolean {
  const n = BigInt(text);
  const below = (bound: number): number => compareBigFloat(n, bound);
  const mark = ctx.count;
  // An integer literal equals a const or an enum value (an integer below 2^53, or no integer) only as that bigint.
  const equal = (v: number): boolean => Number.isInteger(v) && BigInt(v) === n;
  if (b.const !== undefined && !equal(b.const)) ctx.error(msg(msgs, "const"), undefined, value);
  if (b.enum !== undefined && ![...b.enum].some(equal)) ctx.error(msg(msgs, "enum"), undefined, value);
  if (b.minimum !== undefined && below(b.minimum) < 0) ctx.error(msg(msgs, "minimum"), undefined, value);
  if (b.maximum !== undefined && below(b.maximum) > 0) ctx.error(msg(msgs, "maximum"), undefined, value);
  if (b.exclusiveMinimum !== undefined && below(b.exclusiveMinimum) <= 0) ctx.error(msg(msgs, "exclusiveMinimum"), undefined, value);
  if (b.exclusiveMaximum !== undefined && below(b.exclusiveMaximum) >= 0) ctx.error(msg(msgs, "exclusiveMaximum"), undefined, value);
  if (b.multipleOf !== undefined && n % BigInt(b.multipleOf) !== 0n) ctx.error(msg(msgs, "multipleOf"), undefined, value);
  return ctx.count === mark;
}

function compareBigFloat(n: bigint, f: number): number {
  if (f === Infinity) return -1;
  if (f === -Infinity) return 1;
  const whole = Math.floor(f);
  const w = BigInt(whole);
  if (n < w) return -1;
  if (n > w) return 1;
  return whole === f ? 0 : -1;
}

export function integer(msgs: Msgs, b: Bounds = {}): Parser<number> {
  return (value, ctx) => {
    if (typeof value === "number") {
      if (!Number.isInteger(value)) {
        ctx.error(msg(msgs, "type"), undefined, value);
        return INVALID;
      }
      if (!Number.isSafeInteger(value)) ctx.inexact = true;
      if (Math.abs(value) >= 2 ** 63 && !(value === -(2 ** 63))) {
        ctx.error(msg(msgs, "int64"), undefined, value);
        return INVALID;
      }
      return bounds(value, value, ctx, msgs, b) ? value : INVALID;
    }
    if (value instanceof JsonNumber) {
      const text = value.text;
      if (!/[.eE]/.test(text)) {
        const n = BigInt(text);
        if (n < INT64_MIN || n > INT64_MAX) {
          ctx.error(msg(msgs, "int64"), undefined, value);
          return INVALID;
        }
        return exactBounds(text, value, ctx, msgs, b) ? Number(text) : INVALID;
      }
      const f = Number(text);
      if (!Number.isFinite(f) || !Number.isInteger(f)) {
        ctx.error(msg(msgs, "type"), undefined, value);
        return INVALID;
      }
      // JSON Schema counts 1.0 as an integer; Python then holds it as int(1.0).
      const exact = BigInt(f);
      if (exact < INT64_MIN || exact > INT64_MAX) {
        ctx.error(msg(msgs, "int64"), undefined, exact.toString());
        return INVALID;
      }
      const shown = new JsonNumber(exact.toString());
      return exactBounds(exact.toString(), shown, ctx, msgs, b) ? f : INVALID;
    }
    ctx.error(msg(msgs, "type"), undefined, value);
    return INVALID;
  };
}

export function number(msgs: Msgs, b: Bounds = {}): Parser<number> {
  return (value, ctx) => {
    let f: number;
    if (typeof value === "number" && Number.isFinite(value)) {
      f = value;
      if (Number.isInteger(f) && !Number.isSafeInteger(f)) ctx.inexact = true;
    } else if (value instanceof JsonNumber && Number.isFinite(Number(value.text))) {
      f = Number(value.text);
      if (!/[.eE]/.test(value.text)) return exactBounds(value.text, value, ctx, msgs, b) ? f : INVALID;
    } else {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    return bounds(f, value, ctx, msgs, b) ? f : INVALID;
  };
}

export function boolean(msgs: Msgs, values: { const?: boolean; enum?: readonly boolean[] } = {}): Parser<boolean> {
  return (value, ctx) => {
    if (typeof value !== "boolean") {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    const mark = ctx.count;
    if (values.const !== undefined && value !== values.const) ctx.error(msg(msgs, "const"), undefined, value);
    if (values.enum !== undefined && !values.enum.includes(value)) ctx.error(msg(msgs, "enum"), undefined, value);
    return ctx.count === mark ? value : INVALID;
  };
}

/**
 * Any JSON value, checked without recursion in document order, returned as plain
 * data (objects become plain objects). A value more than MAX_DEPTH levels below
 * the document root is refused at its pointer; so is a number no float can hold.
 */
export function anyJSON(msgs: Msgs): Parser<JsonData> {
  return (value, ctx) => {
    const room = MAX_DEPTH - ctx.path.length;
    const stack: [JsonValue, number, string][] = [[value, 0, ""]];
    const path: string[] = [];
    while (stack.length > 0) {
      const [item, depth, key] = stack.pop()!;
      if (depth > 0) {
        path.length = depth - 1;
        path.push(key);
      }
      if (depth > room) {
        ctx.error(DEPTH_MESSAGE, [...path]);
        return INVALID;
      }
      if (item === null || typeof item === "string" || typeof item === "boolean") continue;
      if (typeof item === "number") {
        if (Number.isInteger(item) && !Number.isSafeInteger(item)) ctx.inexact = true;
        if (Number.isFinite(item)) continue;
        ctx.error(msg(msgs, "type"));
        return INVALID;
      }
      if (item instanceof JsonNumber) {
        if (/[.eE]/.test(item.text) && !Number.isFinite(Number(item.text))) {
          ctx.error(msg(msgs, "type"));
          return INVALID;
        }
        continue;
      }
      if (Array.isArray(item)) {
        for (let i = item.length - 1; i >= 0; i--) stack.push([item[i]!, depth + 1, String(i)]);
        continue;
      }
      const obj = asObject(item);
      if (obj === null) {
        ctx.error(msg(msgs, "type"));
        return INVALID;
      }
      const entries = entriesOf(obj);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], depth + 1, entries[i]![0]]);
    }
    return plain(value);
  };
}

/** A decoded value as plain data: Maps become plain objects (without recursion). */
export function plain(value: JsonValue): JsonData {
  if (value === null || typeof value !== "object" || value instanceof JsonNumber) return value;
  const root: JsonData = Array.isArray(value) ? [] : {};
  const stack: [JsonValue, JsonData][] = [[value, root]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    const obj = Array.isArray(source) ? null : asObject(source);
    const entries: [string | number, JsonValue][] = Array.isArray(source) ? source.map((v, i) => [i, v]) : obj === null ? [] : entriesOf(obj);
    for (const [k, v] of entries) {
      let copy: JsonData;
      if (v !== null && typeof v === "object" && !(v instanceof JsonNumber)) {
        copy = Array.isArray(v) ? [] : {};
        stack.push([v, copy]);
      } else {
        copy = v;
      }
      if (Array.isArray(target)) target.push(copy);
      else Object.defineProperty(target, k, { value: copy, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

// --- containers ----------------------------------------------------------

export function nullable<T>(inner: Parser<T>): Parser<T | null> {
  return (value, ctx) => (value === null ? null : inner(value, ctx));
}

/** A JSON number's text reduced to sign, significant digits and exponent (1, 1.0, 1e0 give "1e0"). */
export function numberKey(text: string): string {
  let sign = "";
  if (text.startsWith("-")) {
    sign = "-";
    text = text.slice(1);
  }
  const lower = text.toLowerCase();
  const e = lower.indexOf("e");
  const mantissa = e < 0 ? lower : lower.slice(0, e);
  const exponent = e < 0 ? "" : lower.slice(e + 1);
  const dot = mantissa.indexOf(".");
  const whole = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const fraction = dot < 0 ? "" : mantissa.slice(dot + 1);
  const digits = (whole + fraction).replace(/^0+/, "");
  if (digits === "") return "0";
  const significant = digits.replace(/0+$/, "");
  const exp = exponent === "" ? 0n : BigInt(exponent.replace(/^\+/, ""));
  return `${sign}${significant}e${exp - BigInt(fraction.length) + BigInt(digits.length) - BigInt(significant.length)}`;
}

let uniqueTokens = 0;
let sawUnsafe = false; // sameKey met an integer past 2^53 (see Context.inexact)

/**
 * A number's key: a whole number by its exact value, as an integer is (2.0**57 written 144115188075855872.0
 * is 144115188075855872, not its shortest form 1.4411518807585587e+17); any other by its shortest form.
 */
function floatKey(f: number): string {
  return Number.isInteger(f) ? numberKey(integerText(f)) : Number.isFinite(f) ? numberKey(showFloat(f)) : showFloat(f);
}

function sameKey(value: JsonValue, depth: number): string {
  if (depth > MAX_DEPTH) return `x${uniqueTokens++}`;
  if (value === null) return "z";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (typeof value === "string") return "s" + JSON.stringify(value);
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) sawUnsafe = true;
  if (typeof value === "number") return "n" + floatKey(value);
  if (value instanceof JsonNumber) return "n" + (/[.eE]/.test(value.text) ? floatKey(Number(value.text)) : numberKey(value.text));
  if (Array.isArray(value)) return "a[" + value.map((v) => sameKey(v, depth + 1)).join(",") + "]";
  const obj = asObject(value);
  if (obj === null) return `x${uniqueTokens++}`;
  return "o{" + entriesOf(obj).map(([k, v]) => JSON.stringify(k) + ":" + sameKey(v, depth + 1)).sort().join(",") + "}";
}

function hasDuplicates(items: JsonValue[], depth: number): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = sameKey(item, depth);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** For the fast path: whether a JSON.parse list has equal items, or one the exact walk must judge. */
export function fastHasDuplicates(items: readonly unknown[], depth: number): boolean {
  sawUnsafe = false;
  return hasDuplicates(items as JsonValue[], depth) || sawUnsafe;
}

export interface ListSpec {
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

export function listOf<T>(item: Parser<T>, msgs: Msgs, spec: ListSpec = {}): Parser<T[]> {
  return (value, ctx) => {
    if (!Array.isArray(value)) {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    const mark = ctx.count;
    if (spec.minItems !== undefined && value.length < spec.minItems) ctx.error(msg(msgs, "minItems"), undefined, value);
    if (spec.maxItems !== undefined && value.length > spec.maxItems) ctx.error(msg(msgs, "maxItems"), undefined, value);
    if (spec.uniqueItems === true) {
      sawUnsafe = false;
      if (hasDuplicates(value, ctx.path.length + 1)) ctx.error(msg(msgs, "uniqueItems"), undefined, value);
      if (sawUnsafe) ctx.inexact = true;
    }
    const out: T[] = new Array<T>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = ctx.child(i, value[i]!, item) as T;
    return ctx.count > mark ? INVALID : out;
  };
}

export function tupleOf<T extends unknown[]>(items: { [K in keyof T]: Parser<T[K]> }, msgs: Msgs): Parser<T> {
  return (value, ctx) => {
    if (!Array.isArray(value)) {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    if (value.length !== items.length) {
      ctx.error(msg(msgs, "prefixItems"), undefined, value);
      return INVALID;
    }
    const mark = ctx.count;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(ctx.child(i, value[i]!, items[i] as Parser<unknown>));
    return ctx.count > mark ? INVALID : (out as T);
  };
}

export function mapOf<T>(inner: Parser<T>, msgs: Msgs): Parser<{ [key: string]: T }> {
  return (value, ctx) => {
    const obj = Array.isArray(value) ? null : asObject(value);
    if (obj === null) {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    const mark = ctx.count;
    const out: { [key: string]: T } = {};
    for (const [k, v] of entriesOf(obj)) {
      Object.defineProperty(out, k, { value: ctx.child(k, v, inner), enumerable: true, writable: true, configurable: true });
    }
    return ctx.count > mark ? INVALID : out;
  };
}

/** The JSON kind of a value as Python's runtime names it: integral finite floats are "integer". */
export function jsonKind(value: JsonValue): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : Number.isFinite(value) ? "number" : "number";
  if (value instanceof JsonNumber) {
    if (!/[.eE]/.test(value.text)) return "integer";
    const f = Number(value.text);
    return Number.isFinite(f) && Number.isInteger(f) ? "integer" : "number";
  }
  if (Array.isArray(value)) return "array";
  return asObject(value) === null ? "unknown" : "object";
}

/** A union whose variants have distinct JSON kinds: the kind picks the variant. */
export function unionByKind<T>(variants: Readonly<Record<string, Parser<T>>>, msgs: Msgs): Parser<T> {
  return (value, ctx) => {
    const kind = jsonKind(value);
    let variant = Object.prototype.hasOwnProperty.call(variants, kind) ? variants[kind] : undefined;
    if (variant === undefined && kind === "integer" && Object.prototype.hasOwnProperty.call(variants, "number")) variant = variants["number"];
    if (variant === undefined) {
      ctx.error(msg(msgs, "oneOf"), undefined, value);
      return INVALID;
    }
    return variant(value, ctx);
  };
}

/**
 * A value of an open enum or union that this version does not know (one a later version adds):
 * the string, or the object, as read, written back unchanged. The brand only marks the type, so
 * that code handles it apart (e.g. a switch's default case); the value is plain JSON data.
 */
export type Unknown<T> = T & { readonly __unknown: true };

/** An open enum: a value it lists, or any other string, kept as it is. */
export function openEnum<T extends string>(msgs: Msgs): Parser<T> {
  return (value, ctx) => {
    if (typeof value !== "string") {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    return value as T;
  };
}

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * A union of object models told apart by the constant value of one property. An open one keeps an
 * object whose tag is a string no variant has as it is (its values held to the input policy of any
 * JSON value).
 */
export function unionByTag<T>(tag: string, variants: ReadonlyMap<string, Parser<T>>, msgs: Msgs, open = false): Parser<T> {
  return (value, ctx) => {
    const obj = Array.isArray(value) ? null : asObject(value);
    if (obj === null) {
      ctx.error(msg(msgs, "type"), undefined, value);
      return INVALID;
    }
    const found = member(obj, tag);
    if (found === undefined || found === null) {
      ctx.error(msg(msgs, "discriminator"), tag);
      return INVALID;
    }
    const variant = typeof found === "string" ? variants.get(found) : undefined;
    if (variant === undefined && open && typeof found === "string") {
      // An open union keeps an object whose tag no variant has: any JSON values under its keys, each
      // read at its own pointer, as an open model's other properties are.
      const mark = ctx.count;
      const kept = {};
      putUnknown(kept, keepUnknown(obj, ctx, NO_KEYS));
      return ctx.count > mark ? INVALID : (kept as T);
    }
    if (variant === undefined) {
      ctx.error(msg(msgs, "discriminatorValue"), tag, found);
      return INVALID;
    }
    return variant(obj, ctx);
  };
}

// --- spec rules (x-rules) -------------------------------------------------

/** Follow JSON pointer tokens into a JSON value; MISSING when absent. */
export function resolve(value: JsonValue | Missing | undefined, tokens: readonly string[]): JsonValue | Missing {
  let current: JsonValue | Missing | undefined = value;
  for (const token of tokens) {
    if (current === undefined || current === MISSING) return MISSING;
    if (Array.isArray(current)) {
      if (/^[0-9]+$/.test(token) && Number(token) < current.length) current = current[Number(token)]!;
      else return MISSING;
      continue;
    }
    const obj = asObject(current);
    if (obj === null) return MISSING;
    current = member(obj, token);
  }
  return current === undefined ? MISSING : current;
}

function usable(inputs: readonly unknown[]): boolean {
  // A rule only judges inputs that passed their own checks.
  for (const v of inputs) if (v === INVALID) return false;
  return true;
}

export function ruleMemberOf(ctx: Context, field: string, value: unknown, up: number, tokens: readonly string[], message: string): void {
  if (typeof value !== "string") return;
  const pool = resolve(ctx.ancestor(up), tokens);
  if (!Array.isArray(pool)) return;
  const members = ctx.members(pool);
  if (members === null || members.has(value)) return;
  if (ctx.failedAt(up, tokens)) return;
  ctx.error(message, field, value);
}

export function ruleRequiredWhen(
  ctx: Context, obj: JsonObject, field: string, whenField: string, whenPointer: readonly string[], equals: string,
  message: string, inputs: readonly unknown[],
): void {
  if (!usable(inputs)) return;
  if (resolve(member(obj, whenField), whenPointer) !== equals) return;
  const v = member(obj, field);
  if (v === undefined || v === null) ctx.error(message, field);
}

export function ruleAtLeastOneOf(ctx: Context, obj: JsonObject, fields: readonly string[], message: string): void {
  for (const f of fields) {
    const v = member(obj, f);
    if (v !== undefined && v !== null) return;
  }
  ctx.error(message);
}

export function ruleAllowedWhen(
  ctx: Context, obj: JsonObject, field: string, each: readonly string[], whenField: string, whenPointer: readonly string[],
  equals: string, allowed: ReadonlySet<string>, message: string, inputs: readonly unknown[],
): void {
  if (!usable(inputs)) return;
  if (resolve(member(obj, whenField), whenPointer) !== equals) return;
  const items = member(obj, field);
  if (!Array.isArray(items)) return;
  for (let i = 0; i < items.length; i++) {
    const found = resolve(items[i], each);
    if (found !== MISSING && !(typeof found === "string" && allowed.has(found))) ctx.error(message, [field, String(i), ...each], found);
  }
}

export function ruleContains(
  ctx: Context, obj: JsonObject, field: string, each: readonly string[], equals: string, message: string, inputs: readonly unknown[],
): void {
  if (!usable(inputs)) return;
  const items = member(obj, field);
  if (!Array.isArray(items)) return;
  for (const item of items) if (resolve(item, each) === equals) return;
  ctx.error(message, field);
}

/** A side of a compare rule: the field, what it compares as, and its default (undefined: none). */
export type Operand = readonly [field: string, kind: "integer" | "number" | "string" | "date-time", fallback: JsonValue | undefined];

/** The value a compare rule reads for an operand: the field's, else its default. */
function operandValue(obj: JsonObject, operand: Operand): JsonValue | undefined {
  const v = member(obj, operand[0]);
  return v === undefined ? operand[2] : v;
}

/**
 * left must stand to right as op says ("<", "<=", "==", "!=", ">=", ">"). An absent field compares as
 * its default; a side that is null, or absent without a default, leaves the rule nothing to judge.
 */
export function ruleCompare(
  ctx: Context, obj: JsonObject, left: Operand, right: Operand, op: string, message: string, inputs: readonly unknown[],
): void {
  if (!usable(inputs)) return;
  if (!fastCompare(obj, left, right, op)) ctx.error(message, left[0], operandValue(obj, left));
}

/** Whether a compare rule holds (ruleCompare, on values that passed their checks). */
export function fastCompare(obj: JsonObject, left: Operand, right: Operand, op: string): boolean {
  const a = operandValue(obj, left);
  const b = operandValue(obj, right);
  if (a === undefined || a === null || b === undefined || b === null) return true;
  const order = orderValues(a, left[1], b, right[1]);
  switch (op) {
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
    case "==":
      return order === 0;
    case "!=":
      return order !== 0;
    case ">=":
      return order >= 0;
    default:
      return order > 0;
  }
}

/** The order (negative, 0, positive) of two checked values of a compare rule, each read as its kind says. */
function orderValues(a: JsonValue, ka: Operand[1], b: JsonValue, kb: Operand[1]): number {
  if (ka === "string") return compareCodePoints(String(a), String(b));
  if (ka === "date-time") {
    const [x, fx] = instantOf(String(a));
    const [y, fy] = instantOf(String(b));
    return x !== y ? x - y : fx === fy ? 0 : fx < fy ? -1 : 1; // fraction digits order as text
  }
  const x = ka === "integer" ? exactInteger(a) : Number(a);
  const y = kb === "integer" ? exactInteger(b) : Number(b);
  return x < y ? -1 : x > y ? 1 : 0; // a bigint and a number compare by their exact values
}

/** An integer field's value exactly: an integer literal of any length, or a float literal with an integral value. */
function exactInteger(value: JsonValue): bigint {
  if (value instanceof JsonNumber && !/[.eE]/.test(value.text)) return BigInt(value.text);
  return BigInt(Number(value));
}

/**
 * The order of two strings by Unicode code point, as Python and Go order them (JavaScript's < compares
 * UTF-16 code units, which puts U+1F600 before U+E000).
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      // At a surrogate, the code point it starts (or, after an equal high surrogate, ends) decides.
      return a.codePointAt(i)! < b.codePointAt(i)! ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/**
 * A checked date-time's instant, exact however many fraction digits its text has: whole seconds since
 * 1970 (UTC), then the fraction's digits without trailing zeros (as text these order as the fractions do).
 */
function instantOf(text: string): [number, string] {
  let y = digitsAt(text, 0, 4);
  const m = digitsAt(text, 5, 2);
  y -= m <= 2 ? 1 : 0; // days from the civil date (proleptic Gregorian), by Howard Hinnant's method
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + digitsAt(text, 8, 2) - 1;
  const days = era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
  let seconds = days * 86400 + digitsAt(text, 11, 2) * 3600 + digitsAt(text, 14, 2) * 60 + digitsAt(text, 17, 2);
  let i = 19;
  if (text.charCodeAt(i) === 46) while (++i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57);
  const fraction = text.slice(20, Math.max(i, 20)).replace(/0+$/, "");
  if (i === text.length - 6) {
    const offset = digitsAt(text, i + 1, 2) * 3600 + digitsAt(text, i + 4, 2) * 60;
    seconds += text.charCodeAt(i) === 43 ? -offset : offset;
  }
  return [seconds, fraction];
}

// --- output -----------------------------------------------------------------

/** The wire form of a list, each item through f. */
export function encodeList<T>(items: readonly T[], f: (item: T) => unknown): unknown[] {
  return items.map(f);
}

/** The wire form of a map, each value through f, keys in insertion order. */
export function encodeMap<T>(m: { readonly [key: string]: T }, f: (item: T) => unknown): { [key: string]: unknown } {
  const out: { [key: string]: unknown } = {};
  for (const k of Object.keys(m)) Object.defineProperty(out, k, { value: f(m[k]!), enumerable: true, writable: true, configurable: true });
  return out;
}

/** The same value: strings, numbers, booleans and free-form data go out as they are. */
export function same<T>(value: T): T {
  return value;
}

type Encoder = (value: never) => unknown;

/** The wire form of a union value whose variants have distinct JSON kinds. */
export function encodeByKind(value: unknown, encoders: { readonly [kind: string]: Encoder }): unknown {
  let kind: string;
  if (value === null) kind = "null";
  else if (typeof value === "string" || value instanceof Uint8Array) kind = "string";
  else if (typeof value === "boolean") kind = "boolean";
  else if (typeof value === "number" || value instanceof JsonNumber) kind = Number.isInteger(Number(value)) ? "integer" : "number";
  else if (Array.isArray(value)) kind = "array";
  else kind = "object";
  let f = Object.prototype.hasOwnProperty.call(encoders, kind) ? encoders[kind] : undefined;
  if (f === undefined && kind === "integer" && Object.prototype.hasOwnProperty.call(encoders, "number")) f = encoders["number"];
  if (f === undefined) throw new TypeError(`no variant of the union takes a value of JSON kind ${kind}`);
  return (f as (value: unknown) => unknown)(value);
}

/** The wire form of a union value told apart by the string value of one property. */
export function encodeByTag(value: unknown, tag: string, encoders: { readonly [tag: string]: Encoder }, open = false): unknown {
  const found = value !== null && typeof value === "object" ? (value as { [key: string]: unknown })[tag] : undefined;
  const f = typeof found === "string" && Object.prototype.hasOwnProperty.call(encoders, found) ? encoders[found] : undefined;
  // An open union's unknown variant is plain JSON data already.
  if (f === undefined && open && typeof found === "string") return value;
  if (f === undefined) throw new TypeError(`no variant of the union has ${JSON.stringify(tag)} = ${JSON.stringify(found)}`);
  return (f as (value: unknown) => unknown)(value);
}

/** Set a property as an own, enumerable one (a key such as "__proto__" included). */
export function put<T extends object>(target: T, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// --- a schema applied as written: JSON Schema's own meaning, for what no type of the target holds ---
//
// generator/checks.py compiles such a schema into "checks" (JSON text, the same in every language): a
// node is true, or an object of keywords with their values, each $ref a key of the bundle's "refs",
// each pattern an index into the module's matchers, and every message final (keyword -> text under
// "messages"). The Python (_runtime.py) and Go (rt/schema.go) runtimes apply the same checks and
// report the same problems, in the same order. Every (node, value) verdict is computed once per run,
// so a document is checked in time linear in its size however the schema's branches overlap; the
// generator refuses a $ref cycle that does not descend into the value, so every walk ends.

/**
 * A number as the checks compare it, exactly as Python does: a JavaScript number (a float, or an
 * integer it holds exactly) or a bigint (an integer literal too long for a number). JavaScript
 * compares a bigint with a number by their exact values, as Python compares an int with a float.
 */
type Exact = number | bigint;

/** A number of the document or of the checks (decodeJSON keeps long integer literals as JsonNumbers). */
function exactOf(value: number | JsonNumber): Exact {
  if (typeof value === "number") return value;
  return /[.eE]/.test(value.text) ? Number(value.text) : BigInt(value.text);
}

/**
 * A number as the decimal its JSON text (shortest form) says, exactly: digits times 10 to the
 * exponent (0.0075 is 75e-4), as Python reads Fraction(repr(x)). The float nearest 0.0075 is not
 * 75/10000, and multipleOf must ask the question the spec's author wrote. String(n) writes the
 * shortest digits that read back as n, as repr does, except for a whole number past 2^53: there it
 * writes every digit (2 ** 62 as 4611686018427387904), and showFloat repr's 4.611686018427388e+18.
 */
function decimalOf(value: Exact): [bigint, number] {
  if (typeof value === "bigint") return [value, 0];
  const text = Number.isInteger(value) && !Number.isSafeInteger(value) ? showFloat(value) : String(value);
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  let exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf(".");
  if (dot < 0) return [BigInt(mantissa), exponent];
  exponent -= mantissa.length - dot - 1;
  return [BigInt(mantissa.slice(0, dot) + mantissa.slice(dot + 1)), exponent];
}

/** An integer literal of the checks (a long one is a bigint), or a whole number below 2^53 (which every form writes alike). */
function wholeDivisor(n: Exact): boolean {
  return typeof n === "bigint" || Number.isSafeInteger(n);
}

/** Whether value / divisor is an integer, both read as decimals (decimalOf). */
function isMultipleOf(value: Exact, divisor: Exact): boolean {
  if (typeof value === "number" && Number.isInteger(value) && wholeDivisor(divisor)) {
    // A float that is a whole number over an integer divisor: by its exact value, as Python's is_multiple
    // (2 ** 62 is a multiple of 1024; its shortest form is not).
    return BigInt(value) % BigInt(divisor) === 0n;
  }
  const [a, ea] = decimalOf(value);
  const [b, eb] = decimalOf(divisor);
  if (b === 0n) return false; // the generator refuses multipleOf 0; nothing is a multiple of it
  return ea >= eb ? (a * 10n ** BigInt(ea - eb)) % b === 0n : a % (b * 10n ** BigInt(eb - ea)) === 0n;
}

/** Whether a value is of a JSON Schema type; "integer" takes 1.0 as JSON Schema says. */
function schemaType(kind: string, value: JsonValue): boolean {
  switch (kind) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "array":
      return Array.isArray(value);
    case "object":
      return !Array.isArray(value) && asObject(value) !== null;
    case "number":
      return typeof value === "number" || value instanceof JsonNumber;
    case "integer":
      if (typeof value === "number") return Number.isInteger(value);
      return value instanceof JsonNumber && (!/[.eE]/.test(value.text) || Number.isInteger(Number(value.text)));
    default:
      return false;
  }
}

/** A subschema: true (anything) or a node. */
type CheckSchema = true | CheckNode;

/** One node of the checks, its keywords read once, at module load. */
class CheckNode {
  /** Its place in the run's memory of verdicts. */
  readonly index: number;
  readonly messages: Msgs;
  readonly isFalse: boolean;
  readonly types: readonly string[] | undefined;
  /** The const and enum values as sameKey keys (JSON equality: 1 and 1.0 are one number). */
  readonly const: ReadonlySet<string> | undefined;
  readonly enum: ReadonlySet<string> | undefined;
  readonly minLength: Exact | undefined;
  readonly maxLength: Exact | undefined;
  readonly pattern: Matcher | undefined;
  /** The format's name (formatOk), if the node has one. */
  readonly format: string | undefined;
  readonly base64: boolean;
  readonly minimum: Exact | undefined;
  readonly maximum: Exact | undefined;
  readonly int64: boolean;
  readonly exclusiveMinimum: Exact | undefined;
  readonly exclusiveMaximum: Exact | undefined;
  readonly multipleOf: Exact | undefined;
  readonly minItems: Exact | undefined;
  readonly maxItems: Exact | undefined;
  readonly uniqueItems: boolean;
  readonly prefixItems: readonly CheckSchema[];
  /** false: no items past prefixItems, which the array reports once. */
  readonly items: CheckSchema | false;
  readonly contains: CheckSchema | undefined;
  readonly minContains: Exact;
  readonly maxContains: Exact | undefined;
  readonly minProperties: Exact | undefined;
  readonly maxProperties: Exact | undefined;
  readonly required: readonly string[];
  readonly dependentRequired: readonly (readonly [string, readonly string[], string])[];
  readonly propertyNames: CheckSchema | undefined;
  readonly properties: ReadonlyMap<string, CheckSchema>;
  readonly patternProperties: readonly (readonly [Matcher, CheckSchema])[];
  readonly additionalProperties: CheckSchema;
  /** The key of "refs" its $ref names; ref is set once every node of the bundle is read. */
  readonly refKey: string | undefined;
  ref: CheckSchema | undefined = undefined;
  readonly allOf: readonly CheckSchema[];
  /** $ref's node, then allOf's: the subschemas applied to the value whatever it holds (set with ref). */
  always: readonly CheckSchema[] = [];
  /** anyOf, oneOf and not, in that order, with the subschemas whose matches they count. */
  readonly counted: readonly (readonly [string, readonly CheckSchema[]])[];
  readonly if: CheckSchema | undefined;
  readonly then: CheckSchema;
  readonly else: CheckSchema;
  readonly dependentSchemas: readonly (readonly [string, CheckSchema])[];

  constructor(index: number, raw: ReadonlyMap<string, JsonValue>, sub: (raw: JsonValue | undefined) => CheckSchema, matchers: readonly Matcher[]) {
    this.index = index;
    const messages: Record<string, string> = {};
    for (const [k, v] of checkEntries(raw.get("messages"))) put(messages, k, v);
    this.messages = messages;
    this.isFalse = raw.get("false") === true;
    const types = raw.get("type");
    this.types = Array.isArray(types) ? types.map(String) : undefined;
    const constant = raw.get("const");
    this.const = constant === undefined ? undefined : new Set([sameKey(constant, 0)]);
    const values = raw.get("enum");
    this.enum = Array.isArray(values) ? new Set(values.map((v) => sameKey(v, 0))) : undefined;
    const num = (key: string): Exact | undefined => {
      const v = raw.get(key);
      return typeof v === "number" || v instanceof JsonNumber ? exactOf(v) : undefined;
    };
    this.minLength = num("minLength");
    this.maxLength = num("maxLength");
    const pattern = raw.get("pattern");
    this.pattern = pattern === undefined ? undefined : matcherAt(matchers, pattern);
    const format = raw.get("format");
    this.format = typeof format === "string" ? format : undefined;
    this.base64 = raw.get("contentEncoding") === "base64";
    this.int64 = raw.get("int64") === true;
    this.minimum = num("minimum");
    this.maximum = num("maximum");
    this.exclusiveMinimum = num("exclusiveMinimum");
    this.exclusiveMaximum = num("exclusiveMaximum");
    this.multipleOf = num("multipleOf");
    this.minItems = num("minItems");
    this.maxItems = num("maxItems");
    this.uniqueItems = raw.get("uniqueItems") === true;
    this.prefixItems = checkList(raw.get("prefixItems")).map(sub);
    const items = raw.get("items");
    this.items = items === false ? false : sub(items);
    this.contains = raw.has("contains") ? sub(raw.get("contains")) : undefined;
    this.minContains = num("minContains") ?? 1;
    this.maxContains = num("maxContains");
    this.minProperties = num("minProperties");
    this.maxProperties = num("maxProperties");
    this.required = checkList(raw.get("required")).map(String);
    this.dependentRequired = checkList(raw.get("dependentRequired")).map((entry) => {
      const [name, names, message] = checkList(entry);
      return [String(name), checkList(names).map(String), String(message)] as const;
    });
    this.propertyNames = raw.has("propertyNames") ? sub(raw.get("propertyNames")) : undefined;
    this.properties = new Map(checkEntries(raw.get("properties")).map(([k, v]) => [k, sub(v)] as const));
    this.patternProperties = checkList(raw.get("patternProperties")).map((pair) => {
      const [index, node] = checkList(pair);
      return [matcherAt(matchers, index), sub(node)] as const;
    });
    this.additionalProperties = sub(raw.get("additionalProperties"));
    const ref = raw.get("$ref");
    this.refKey = typeof ref === "string" ? ref : undefined;
    this.allOf = checkList(raw.get("allOf")).map(sub);
    const counted: (readonly [string, readonly CheckSchema[]])[] = [];
    if (raw.has("anyOf")) counted.push(["anyOf", checkList(raw.get("anyOf")).map(sub)]);
    if (raw.has("oneOf")) counted.push(["oneOf", checkList(raw.get("oneOf")).map(sub)]);
    if (raw.has("not")) counted.push(["not", [sub(raw.get("not"))]]);
    this.counted = counted;
    this.if = raw.has("if") ? sub(raw.get("if")) : undefined;
    this.then = sub(raw.get("then"));
    this.else = sub(raw.get("else"));
    this.dependentSchemas = checkList(raw.get("dependentSchemas")).map((pair) => {
      const [name, node] = checkList(pair);
      return [String(name), sub(node)] as const;
    });
  }
}

/** The matcher a pattern index names: one the generated code did not build is its bug, said at module load. */
function matcherAt(matchers: readonly Matcher[], index: JsonValue | undefined): Matcher {
  const found = matchers[Number(index)];
  if (found === undefined) throw new RangeError(`the checks use pattern ${String(index)}, but only ${matchers.length} matchers were given`);
  return found;
}

/** A list of the checks' JSON (decodeJSON's), or none. */
function checkList(value: JsonValue | undefined): readonly JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** The members of an object of the checks' JSON (decodeJSON's Map), in order, or none. */
function checkEntries(value: JsonValue | undefined): [string, JsonValue][] {
  return value instanceof Map ? [...value.entries()] : [];
}

/**
 * Record one problem. The keyword names the check that failed, as the Python and Go runtimes
 * record it with each problem; this runtime's ErrorDetail has no keyword yet, so it is named here
 * and goes no further.
 */
function schemaProblem(ctx: Context, template: string, _keyword: string, below: string | undefined, value: JsonValue): void {
  ctx.error(template, below, value);
}

/** A schema applied as written (generator/checks.py), compiled once, at module load. */
export class Checks {
  private readonly root: CheckSchema;
  /** How many nodes there are: the size of a run's memory of verdicts. */
  private readonly size: number;

  /** text: the checks (JSON); matchers: the patterns they index, built by the generated code. */
  constructor(text: string, matchers: readonly Matcher[]) {
    // decodeJSON, not JSON.parse: a bound such as 18446744073709551615 stays exact.
    const bundle = decodeJSON(text) as Map<string, JsonValue>;
    const nodes: CheckNode[] = [];
    let count = 0;
    const sub = (raw: JsonValue | undefined): CheckSchema => {
      if (!(raw instanceof Map)) return true; // absent or true: every false schema is a node
      const node = new CheckNode(count++, raw, sub, matchers); // its index taken before its subschemas take theirs
      nodes.push(node);
      return node;
    };
    this.root = sub(bundle.get("root"));
    const refs = new Map(checkEntries(bundle.get("refs")).map(([key, raw]) => [key, sub(raw)] as const));
    // Every $ref names one node read once, so that its verdicts are shared wherever it applies.
    for (const node of nodes) {
      if (node.refKey !== undefined) node.ref = refs.get(node.refKey) ?? true;
      node.always = node.ref !== undefined ? [node.ref, ...node.allOf] : node.allOf;
    }
    this.size = nodes.length;
  }

  /** anyJSON's checks (depth, numbers), then the schema's; on success, what anyJSON returns. */
  parser(msgs: Msgs): Parser<JsonData> {
    const asJSON = anyJSON(msgs);
    return (value, ctx) => {
      const built = asJSON(value, ctx);
      if (built === INVALID) return INVALID;
      const run = new CheckRun(this.size);
      if (run.valid(this.root, value)) return built;
      run.check(this.root as CheckNode, value, ctx);
      return INVALID;
    };
  }

  /** The verdict alone, for the fast path (a JSON.parse value fitsJSON accepts) and a value anyJSON accepts. */
  accepts(value: unknown): boolean {
    return new CheckRun(this.size).valid(this.root, value as JsonValue);
  }
}

/** A problem found by check: [message, keyword, key below the value or undefined]. */
type Problem = readonly [string, string, string | undefined];
const NO_PROBLEMS: readonly Problem[] = Object.freeze([]);

/**
 * One document's walk: verdicts remembered by (node, value), problems reported once per (node, path).
 *
 * check() is one function for both uses, so a verdict and the problems reported cannot disagree:
 * without a context it stops at the first problem; with one it records every problem it finds, in
 * a fixed order (the same in every runtime): the value's own problems (its type, const and enum,
 * its keywords, then each item's or field's problems in document order), then those of each
 * subschema applied to it ($ref, allOf, then or else, dependentSchemas), then anyOf, oneOf and
 * not. It calls itself directly, once per schema applied (verdicts are looked up where it is
 * called, never through another method that calls it), so that a value 128 levels deep needs few
 * frames per level: the generator applies at most 4 subschemas to one value before a keyword
 * descends into it. (Context.child, which keeps the path and the values above, adds two frames
 * per level where problems are recorded.)
 */
class CheckRun {
  // Per node, its verdicts by value: objects and arrays by identity (each lives as long as the
  // document), everything else by value, which is sound because a string's, a number's, a
  // boolean's or null's verdict depends on nothing else.
  private readonly verdicts: (Map<JsonValue, boolean> | undefined)[];
  // Per node, the paths (as pointers) where it has reported its problems.
  private readonly reported: (Set<string> | undefined)[];

  constructor(size: number) {
    this.verdicts = new Array<Map<JsonValue, boolean> | undefined>(size);
    this.reported = new Array<Set<string> | undefined>(size);
  }

  /** The remembered verdict of node on value, if any (never calls check: no frame is added). */
  private known(node: CheckNode, value: JsonValue): boolean | undefined {
    return this.verdicts[node.index]?.get(value);
  }

  private remember(node: CheckNode, value: JsonValue, verdict: boolean): boolean {
    let memo = this.verdicts[node.index];
    if (memo === undefined) memo = this.verdicts[node.index] = new Map();
    memo.set(value, verdict);
    return verdict;
  }

  /** The verdict of node on value, for the root (check looks its subschemas' up itself). */
  valid(node: CheckSchema, value: JsonValue): boolean {
    if (node === true) return true;
    const verdict = this.known(node, value);
    return verdict !== undefined ? verdict : this.remember(node, value, this.check(node, value, null));
  }

  /** Whether node accepts value; with a context, every problem is recorded there (once per node and path). */
  check(node: CheckNode, value: JsonValue, ctx: Context | null): boolean {
    if (ctx !== null) {
      let seen = this.reported[node.index];
      if (seen === undefined) seen = this.reported[node.index] = new Set();
      const at = pointer(ctx.path);
      if (seen.has(at)) return false;
      seen.add(at);
    }
    const msgs = node.messages;
    if (node.isFalse) {
      if (ctx !== null) schemaProblem(ctx, msg(msgs, "false"), "false", undefined, value);
      return false;
    }
    const types = node.types;
    if (types !== undefined) {
      let typed = false;
      for (const t of types) if (schemaType(t, value)) typed = true;
      if (!typed) {
        if (ctx !== null) schemaProblem(ctx, msg(msgs, "type"), "type", undefined, value);
        return false; // what else is wrong with a value of another type says little
      }
    }
    // Each problem: [message, keyword, key below the value]; without a context the first ends the walk.
    let problems: readonly Problem[] = NO_PROBLEMS;
    if (node.const !== undefined || node.enum !== undefined) {
      const key = sameKey(value, 0);
      if (node.const !== undefined && !node.const.has(key)) problems = [[msg(msgs, "const"), "const", undefined]];
      if (node.enum !== undefined && !node.enum.has(key)) problems = [...problems, [msg(msgs, "enum"), "enum", undefined]];
    }
    let keyword: string | undefined;
    if (typeof value === "string") keyword = stringProblem(node, value);
    else if (typeof value === "number" || value instanceof JsonNumber) keyword = numberProblem(node, exactOf(value));
    if (keyword !== undefined) problems = [...problems, [msg(msgs, keyword), keyword, undefined]];
    if (problems.length > 0 && ctx === null) return false;
    let ok = problems.length === 0;
    for (const [message, keyword, below] of problems) schemaProblem(ctx!, message, keyword, below, value);
    const obj = Array.isArray(value) ? null : asObject(value);
    if (Array.isArray(value)) {
      problems = arrayProblems(node, value);
      if (node.contains !== undefined) {
        const sub = node.contains;
        let found = 0;
        for (const item of value) {
          let verdict: boolean | undefined = true;
          if (sub !== true) {
            verdict = this.known(sub, item);
            if (verdict === undefined) verdict = this.remember(sub, item, this.check(sub, item, null));
          }
          if (verdict) found++;
        }
        const counted: Problem[] = [];
        if (found < node.minContains) counted.push([msg(msgs, "minContains"), "minContains", undefined]);
        if (node.maxContains !== undefined && found > node.maxContains) counted.push([msg(msgs, "maxContains"), "maxContains", undefined]);
        if (counted.length > 0) problems = [...problems, ...counted];
      }
      if (problems.length > 0 && ctx === null) return false;
      ok = ok && problems.length === 0;
      for (const [message, keyword, below] of problems) schemaProblem(ctx!, message, keyword, below, value);
      const prefix = node.prefixItems;
      // items: false is reported once by the array (arrayProblems), not by each item past the prefix.
      const rest = node.items === false ? true : node.items;
      for (let i = 0; i < value.length; i++) {
        const sub = i < prefix.length ? prefix[i]! : rest;
        if (sub === true) continue;
        const item = value[i]!;
        let verdict = this.known(sub, item);
        if (verdict === undefined) verdict = this.remember(sub, item, this.check(sub, item, null));
        if (!verdict) {
          if (ctx === null) return false;
          ok = false;
          ctx.child(i, item, (v, c) => (this.check(sub, v, c) ? v : INVALID));
        }
      }
    } else if (obj !== null) {
      const entries = entriesOf(obj);
      problems = objectProblems(node, obj, entries.length);
      if (node.propertyNames !== undefined) {
        const sub = node.propertyNames;
        const named: Problem[] = [];
        for (const [name] of entries) {
          let verdict: boolean | undefined = true;
          if (sub !== true) {
            verdict = this.known(sub, name);
            if (verdict === undefined) verdict = this.remember(sub, name, this.check(sub, name, null));
          }
          if (!verdict) named.push([msg(msgs, "propertyNames"), "propertyNames", name]);
        }
        if (named.length > 0) problems = [...problems, ...named];
      }
      if (problems.length > 0 && ctx === null) return false;
      ok = ok && problems.length === 0;
      for (const [message, keyword, below] of problems) schemaProblem(ctx!, message, keyword, below, value);
      const properties = node.properties;
      const subs: CheckSchema[] = [];
      for (const [name, item] of entries) {
        subs.length = 0;
        const listed = properties.get(name);
        if (listed !== undefined) subs.push(listed);
        for (const [matcher, sub] of node.patternProperties) if (matcher.test(name)) subs.push(sub);
        if (subs.length === 0) subs.push(node.additionalProperties);
        for (const sub of subs) {
          if (sub === true) continue;
          let verdict = this.known(sub, item);
          if (verdict === undefined) verdict = this.remember(sub, item, this.check(sub, item, null));
          if (!verdict) {
            if (ctx === null) return false;
            ok = false;
            ctx.child(name, item, (v, c) => (this.check(sub, v, c) ? v : INVALID));
          }
        }
      }
    }
    // The subschemas applied to this same value: each that fails reports its own problems here.
    let applied = node.always;
    if (node.if !== undefined || (obj !== null && node.dependentSchemas.length > 0)) {
      const more = [...applied];
      if (node.if !== undefined) {
        const sub = node.if;
        let verdict: boolean | undefined = true;
        if (sub !== true) {
          verdict = this.known(sub, value);
          if (verdict === undefined) verdict = this.remember(sub, value, this.check(sub, value, null));
        }
        more.push(verdict ? node.then : node.else);
      }
      if (obj !== null) for (const [trigger, sub] of node.dependentSchemas) if (member(obj, trigger) !== undefined) more.push(sub);
      applied = more;
    }
    for (const sub of applied) {
      if (sub === true) continue;
      let verdict = this.known(sub, value);
      if (verdict === undefined) verdict = this.remember(sub, value, this.check(sub, value, null));
      if (!verdict) {
        if (ctx === null) return false;
        ok = false;
        this.check(sub, value, ctx);
      }
    }
    // anyOf, oneOf and not: how many of their subschemas accept the value (looked up here, not in a
    // call of valid(), to keep to one frame per schema applied).
    for (const [keyword, subs] of node.counted) {
      let matched = 0;
      for (const sub of subs) {
        let verdict: boolean | undefined = true;
        if (sub !== true) {
          verdict = this.known(sub, value);
          if (verdict === undefined) verdict = this.remember(sub, value, this.check(sub, value, null));
        }
        if (verdict) {
          matched++;
          if (keyword === "anyOf") break;
        }
      }
      if (matched === (keyword === "not" ? 0 : 1) || (keyword === "anyOf" && matched > 0)) continue;
      if (ctx === null) return false;
      ok = false;
      schemaProblem(ctx, msg(msgs, keyword), keyword, undefined, value);
    }
    return ok;
  }


}

/** The array's own problems but contains' (check counts the items contains accepts, and checks the items). */
function arrayProblems(node: CheckNode, value: JsonValue[]): readonly Problem[] {
  const failed: string[] = [];
  if (node.minItems !== undefined && value.length < node.minItems) failed.push("minItems");
  if (node.maxItems !== undefined && value.length > node.maxItems) failed.push("maxItems");
  if (node.uniqueItems && hasDuplicates(value, 0)) failed.push("uniqueItems");
  if (node.items === false && value.length > node.prefixItems.length) failed.push("items");
  return failed.length === 0 ? NO_PROBLEMS : failed.map((keyword) => [msg(node.messages, keyword), keyword, undefined]);
}

/** The object's own problems but propertyNames' (check judges the names, and checks the fields' values). */
function objectProblems(node: CheckNode, obj: JsonObject, size: number): readonly Problem[] {
  const msgs = node.messages;
  const failed: Problem[] = [];
  if (node.minProperties !== undefined && size < node.minProperties) failed.push([msg(msgs, "minProperties"), "minProperties", undefined]);
  if (node.maxProperties !== undefined && size > node.maxProperties) failed.push([msg(msgs, "maxProperties"), "maxProperties", undefined]);
  for (const name of node.required) if (member(obj, name) === undefined) failed.push([msg(msgs, "required"), "required", name]);
  for (const [trigger, names, message] of node.dependentRequired) {
    if (member(obj, trigger) === undefined) continue;
    for (const name of names) if (member(obj, name) === undefined) failed.push([message, "dependentRequired", name]);
  }
  return failed.length === 0 ? NO_PROBLEMS : failed;
}

/** The first string keyword the value fails, if any. */
function stringProblem(node: CheckNode, value: string): string | undefined {
  // Python counts characters (code points); .length counts UTF-16 units.
  if (node.minLength !== undefined && codePoints(value) < node.minLength) return "minLength";
  if (node.maxLength !== undefined && codePoints(value) > node.maxLength) return "maxLength";
  if (node.pattern !== undefined && !node.pattern.test(value)) return "pattern";
  if (node.format !== undefined && !formatOk(node.format, value)) return "format";
  if (node.base64 && !isBase64(value)) return "contentEncoding";
  return undefined;
}

/** The first number keyword the value fails, if any: compared by exact values, as JSON Schema compares numbers. */
function numberProblem(node: CheckNode, value: Exact): string | undefined {
  // An integer a typed definition holds, reached by a $ref: 64-bit, as the typed parsers read it.
  if (node.int64 && (value < -(2n ** 63n) || value > 2n ** 63n - 1n)) return "int64";
  if (node.minimum !== undefined && value < node.minimum) return "minimum";
  if (node.maximum !== undefined && value > node.maximum) return "maximum";
  if (node.exclusiveMinimum !== undefined && value <= node.exclusiveMinimum) return "exclusiveMinimum";
  if (node.exclusiveMaximum !== undefined && value >= node.exclusiveMaximum) return "exclusiveMaximum";
  if (node.multipleOf !== undefined && !isMultipleOf(value, node.multipleOf)) return "multipleOf";
  return undefined;
}

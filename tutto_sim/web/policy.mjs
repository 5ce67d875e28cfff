// Generated from js/reader/*.mjs by scripts/bundle_js.py: do not edit; edit the sources and run it.
// tutto-sim policy reader for JavaScript: one dependency-free ES module.
//
// Reads the versioned policy files tutto-sim writes (docs/policy-format.md,
// docs/macke-solver.md, docs/rutsmieter.md, docs/win.md) and answers the same
// questions as the Python loaders:
//
//   Tutto           tutto_sim/tutto/policy.py        load_policy          keep, bank, draw, Straße
//   Macke, V. Lotte tutto_sim/macke/policy.py        load_macke_policy    keep, bank, return units
//   Rutsmieter      tutto_sim/rutsmieter/policy.py   load_weights_policy  the move
//   Tutto win table tutto_sim/tutto/win/table.py     load_win_table       W, the chance after banking
//     of N players  tutto_sim/tutto/win/table.py     load_win_table_n     each player's chance (W, E)
//   Macke win table tutto_sim/macke/win/table.py     load_win_table       W, the last turn's chance
//
// It refuses, with a one-line PolicyError, what Python refuses, in Python's
// order: unreadable or non-UTF-8 bytes, broken JSON, another format, version,
// game or kind, a schema violation (the package's JSON Schemas, embedded
// below, checked with the keywords they use), a content hash that does not
// match (the same canonical JSON as Python's json.dumps(sort_keys=True,
// separators=(",", ":"), ensure_ascii=True), floats written as Python's repr),
// invalid rules or a rules hash that does not match, rules other than the
// caller's, and decisions that are not legal for their throw or state.
//
// It also gives the Tutto cards one may bank on and the Rutsmieter board and
// legal moves, which the advisor page words its advice with.
//
// Works in node >= 18 and in browsers (file:// or any static host); SHA-256
// comes from globalThis.crypto.subtle. See docs/advisor.md, "JavaScript policy
// reader".

export const FORMAT = "tutto-sim-policy";
export const VERSION = 1;
export const POINT_UNIT = 50;
export const GAMES = ["tutto", "macke", "rutsmieter", "tutto-win", "macke-win"];

/** A policy file that must not be used; `message` says why in one line, `reason` is a code. */
export class PolicyError extends Error {
  constructor(message, reason) {
    super(message);
    this.name = "PolicyError";
    this.reason = reason;
  }
}

/** What every loaded file tells: its game, JSON, rules, the rules' and content's SHA-256, summary. */
class LoadedFile {
  constructor(game, d, rules, contentSha256) {
    this.game = game;
    this.doc = d;
    this.rules = rules;
    this.rulesSha256 = d.rules_sha256;
    this.contentSha256 = contentSha256;
    this.summary = d.summary;
  }
}

// ---------------------------------------------------------------------------
// JSON as Python reads it: numbers keep their lexeme (int or float), objects
// keep every key; `toValue` turns the raw tree into plain JavaScript values.
// ---------------------------------------------------------------------------

class RawNumber {
  constructor(lexeme, isFloat) {
    this.lexeme = lexeme;
    this.isFloat = isFloat;
  }
}
class RawObject {
  constructor(entries) {
    this.entries = entries; // [key, value] in file order, duplicates kept
  }
}

class JsonSyntaxError extends Error {}

function lineCol(text, pos) {
  let line = 1;
  let last = -1;
  for (let i = 0; i < pos; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return `line ${line}, column ${pos - last}`;
}

const WORDS = [["null", null], ["true", true], ["false", false], ["NaN", "number"], ["Infinity", "number"],
  ["-Infinity", "number"]];

/** Parse JSON text as Python's json.loads does (NaN/Infinity accepted, control characters in strings not). */
export function parseRawJson(text) {
  let i = 0;
  const n = text.length;
  const fail = (msg, at = i) => {  // as Python's reader says it: "at" once ("... starting at line 1")
    throw new JsonSyntaxError(`${msg.endsWith(" at") ? msg : `${msg} at`} ${lineCol(text, at)}`);
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const numRe = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
  function string() {
    // text[i] === '"'
    let out = "";
    let start = ++i;
    for (;;) {
      if (i >= n) fail("Unterminated string starting at", start - 1);
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 32) fail("Invalid control character", i);
      if (c === 92) {
        out += text.slice(start, i);
        const e = text[i + 1];
        if (e === undefined) fail("Unterminated string starting at", start - 1);
        const simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" }[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === "u") {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Invalid \\uXXXX escape", i + 1);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          fail("Invalid \\escape", i);
        }
        start = i;
      } else {
        i++;
      }
    }
  }
  /** The members of an object or array (text[i] is its opening bracket) up to `close`, each read by `item`. */
  function items(close, what, item) {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      ws();
      if (text[i] === ",") {
        i++;
        ws();
        if (text[i] === close) fail(`Illegal trailing comma before end of ${what}`);
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail("Expecting ',' delimiter");
    }
  }
  function value(depth) {
    if (depth > 900) throw new RangeError("nested too deep");
    ws();
    if (i >= n) fail("Expecting value");
    const c = text[i];
    if (c === "{") {
      const entries = [];
      items("}", "object", () => {
        if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
        const key = string();
        ws();
        if (text[i] !== ":") fail("Expecting ':' delimiter");
        i++;
        entries.push([key, value(depth + 1)]);
      });
      return new RawObject(entries);
    }
    if (c === "[") {
      const list = [];
      items("]", "array", () => list.push(value(depth + 1)));
      return list;
    }
    if (c === '"') return string();
    numRe.lastIndex = i;
    const m = numRe.exec(text);
    if (m) {
      i += m[0].length;
      return new RawNumber(m[0], m[1] !== undefined || m[2] !== undefined);
    }
    for (const [word, v] of WORDS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v === "number" ? new RawNumber(word, true) : v;
      }
    }
    fail("Expecting value");
  }
  const v = value(0);
  ws();
  if (i < n) fail("Extra data");
  return v;
}

function numberValue(r) {
  if (r.lexeme === "NaN") return NaN;
  if (r.lexeme === "Infinity") return Infinity;
  if (r.lexeme === "-Infinity") return -Infinity;
  return Number(r.lexeme);
}

function setKey(o, k, v) {
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** Plain JavaScript values of a raw tree (the last of duplicate keys wins, as in Python). */
export function toValue(raw) {
  if (raw instanceof RawNumber) return numberValue(raw);
  if (raw instanceof RawObject) {
    const o = {};
    for (const [k, v] of raw.entries) setKey(o, k, toValue(v));
    return o;
  }
  if (Array.isArray(raw)) return raw.map(toValue);
  return raw;
}

function rawGet(raw, key) {
  let found;
  for (const [k, v] of raw.entries) if (k === key) found = v;
  return found;
}

// ---------------------------------------------------------------------------
// Canonical JSON, byte for byte as Python's
// json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
// ---------------------------------------------------------------------------

/** Python's repr of a float (shortest round-trip digits; exponent form when the
 * decimal point is more than 16 places right or 4 left of the first digit). */
export function pyFloatRepr(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mant, e] = Math.abs(x).toExponential().split("e");
  const digits = mant.replace(".", "");
  const decpt = Number(e) + 1;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const exp = decpt - 1;
  const ed = String(Math.abs(exp)).padStart(2, "0");
  return `${sign}${digits[0]}${digits.length > 1 ? "." + digits.slice(1) : ""}e${exp < 0 ? "-" : "+"}${ed}`;
}

const ESC = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function pyJsonString(s) {
  if (PLAIN.test(s)) return '"' + s + '"';
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const c = s.charCodeAt(i);
    if (ESC[ch] !== undefined) out += ESC[ch];
    else if (c < 0x20 || c > 0x7e) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}

function compareCodePoints(a, b) {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return (x.done ? 0 : 1) - (y.done ? 0 : 1);
    const d = x.value.codePointAt(0) - y.value.codePointAt(0);
    if (d) return d;
  }
}

/** Canonical JSON of a raw tree (or of plain values: numbers then print as JavaScript would not;
 * use raw trees for hashing). */
export function canonicalJson(raw) {
  if (raw === null) return "null";
  if (raw === true) return "true";
  if (raw === false) return "false";
  if (typeof raw === "string") return pyJsonString(raw);
  if (raw instanceof RawNumber) {
    if (raw.isFloat) return pyFloatRepr(numberValue(raw));
    return BigInt(raw.lexeme).toString();
  }
  if (typeof raw === "number") return Number.isInteger(raw) ? String(raw) : pyFloatRepr(raw);
  if (Array.isArray(raw)) return "[" + raw.map(canonicalJson).join(",") + "]";
  let entries;
  if (raw instanceof RawObject) {
    const last = new Map();
    for (const [k, v] of raw.entries) last.set(k, v);
    entries = [...last.entries()];
  } else {
    entries = Object.entries(raw);
  }
  entries.sort((a, b) => compareCodePoints(a[0], b[0]));
  return "{" + entries.map(([k, v]) => pyJsonString(k) + ":" + canonicalJson(v)).join(",") + "}";
}

/** SHA-256 (hex) of a string's UTF-8 bytes. */
async function webCryptoSubtle() {
  if (globalThis.crypto && globalThis.crypto.subtle) return globalThis.crypto.subtle;
  // node 18 has Web Crypto only as node:crypto's webcrypto (global from node 19 on)
  if (typeof process !== "undefined" && process.versions && process.versions.node) {
    const nodeCrypto = await import("node:crypto");
    if (nodeCrypto.webcrypto && nodeCrypto.webcrypto.subtle) return nodeCrypto.webcrypto.subtle;
  }
  throw new Error("this JavaScript runtime has no crypto.subtle (SHA-256); use node >= 18 or a browser over https or from disk");
}

export async function sha256Hex(text) {
  const subtle = await webCryptoSubtle();
  const buf = await subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The fields each content hash covers (Python's HASHED_FIELDS / _WIN_HASHED). */
export const HASHED_FIELDS = {
  tutto: ["format", "version", "game", "rules", "rules_sha256", "point_unit", "turn_total_rows", "throws",
    "keeps", "keep", "tutto_keep", "bank", "draw", "street_take", "x2_by_card_points"],
  macke: ["format", "version", "game", "rules", "rules_sha256", "point_unit", "dice", "throws_per_series",
    "units", "states", "throws", "keeps", "returns", "locked_rows", "keep", "return", "bank", "clear"],
  rutsmieter: ["format", "version", "game", "rules", "rules_sha256", "evaluator", "features", "weights"],
  "tutto-win": ["format", "version", "game", "kind", "win_table_version", "rules", "rules_sha256",
    "point_unit", "target_units", "margin_cap_units", "W", "last_turn"],
  "tutto-win-n": ["format", "version", "game", "kind", "win_table_version", "rules", "rules_sha256",
    "players", "point_unit", "target_units", "margin_cap_units", "W", "E"],
  "macke-win": ["format", "version", "game", "kind", "win_table_version", "rules", "rules_sha256",
    "point_unit", "target_units", "floor_units", "cap_units", "W", "last_turn"],
};

/** Fields a content hash covers where the file has them (files without keep their hash):
 * Rutsmieter's weight sets per table size (rutsmieter/policy.py content_hash). */
export const OPTIONAL_HASHED_FIELDS = { rutsmieter: ["weights_by_players"] };

/** content_sha256 of a raw tree, as Python's content_hash(d) computes it. */
export async function contentHash(raw, game) {
  const optional = (OPTIONAL_HASHED_FIELDS[game] ?? []).filter((k) => rawGet(raw, k) !== undefined);
  const body = new RawObject([...HASHED_FIELDS[game], ...optional].map((k) => {
    const v = rawGet(raw, k);
    return [k, v === undefined ? null : v];
  }));
  return sha256Hex(canonicalJson(body));
}

// ---------------------------------------------------------------------------
// Python's repr, for messages that quote values (jsonschema's, the rules')
// ---------------------------------------------------------------------------

export function pyRepr(v) {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return Number.isInteger(v) && Math.abs(v) < 1e16 ? String(v) : pyFloatRepr(v);
  if (typeof v === "string") {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    let out = q;
    for (const ch of v) {
      const c = ch.codePointAt(0);
      if (ch === q || ch === "\\") out += "\\" + ch;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
      else out += ch;
    }
    return out + q;
  }
  if (Array.isArray(v)) return "[" + v.map(pyRepr).join(", ") + "]";
  return "{" + Object.entries(v).map(([k, x]) => pyRepr(k) + ": " + pyRepr(x)).join(", ") + "}";
}

// ---------------------------------------------------------------------------
// JSON Schema (draft 2020-12), the keywords the policy schemas use, with
// jsonschema's messages and its best_match choice among the errors
// ---------------------------------------------------------------------------

function isType(v, t) {
  switch (t) {
    case "object": return v !== null && typeof v === "object" && !Array.isArray(v);
    case "array": return Array.isArray(v);
    case "string": return typeof v === "string";
    case "boolean": return typeof v === "boolean";
    case "null": return v === null;
    case "number": return typeof v === "number";
    case "integer": return typeof v === "number" && Number.isInteger(v);
    default: return false;
  }
}

function jsonEqual(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isType(a, "object") && isType(b, "object")) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

const REGEXES = new Map();

function pyPatternTest(pattern, s) {
  let re = REGEXES.get(pattern);
  if (re === undefined) REGEXES.set(pattern, (re = new RegExp(pattern, "u")));
  if (re.test(s)) return true;
  // Python's `$` also matches before a final newline
  return pattern.endsWith("$") && s.endsWith("\n") && re.test(s.slice(0, -1));
}

function descend(root, schema, inst, path, key, out) {
  path.push(key);
  schemaErrors(root, schema, inst, path, out);
  path.pop();
}

function schemaErrors(root, schema, inst, path, out) {
  const err = (validator, message, ctx) => out.push({ path: [...path], validator, message, schema, inst, context: ctx || [] });
  for (const [kw, arg] of Object.entries(schema)) {
    switch (kw) {
      case "$ref": {
        const target = arg.replace(/^#\//, "").split("/").reduce((o, k) => o[k], root);
        schemaErrors(root, target, inst, path, out);
        break;
      }
      case "type": {
        const types = Array.isArray(arg) ? arg : [arg];
        if (!types.some((t) => isType(inst, t))) err(kw, `${pyRepr(inst)} is not of type ${types.map(pyRepr).join(", ")}`);
        break;
      }
      case "const":
        if (!jsonEqual(inst, arg)) err(kw, `${pyRepr(arg)} was expected`);
        break;
      case "enum":
        if (!arg.some((e) => jsonEqual(inst, e))) err(kw, `${pyRepr(inst)} is not one of ${pyRepr(arg)}`);
        break;
      case "required":
        if (isType(inst, "object")) for (const p of arg) if (!Object.hasOwn(inst, p)) err(kw, `${pyRepr(p)} is a required property`);
        break;
      case "properties":
        if (isType(inst, "object")) {
          for (const [p, sub] of Object.entries(arg)) if (Object.hasOwn(inst, p)) descend(root, sub, inst[p], path, p, out);
        }
        break;
      case "additionalProperties":
        if (isType(inst, "object")) {
          const known = schema.properties || {};
          const extras = Object.keys(inst).filter((p) => !Object.hasOwn(known, p));
          if (arg === false) {
            if (extras.length) {
              extras.sort();
              err(kw, `Additional properties are not allowed (${extras.map(pyRepr).join(", ")} ${extras.length === 1 ? "was" : "were"} unexpected)`);
            }
          } else if (isType(arg, "object")) {
            for (const p of extras) descend(root, arg, inst[p], path, p, out);
          }
        }
        break;
      case "propertyNames":
        if (isType(inst, "object")) for (const p of Object.keys(inst)) schemaErrors(root, arg, p, path, out);
        break;
      case "allOf":
        for (const sub of arg) schemaErrors(root, sub, inst, path, out);
        break;
      case "oneOf": {
        const all = [];
        let valid = 0;
        for (const sub of arg) {
          const errs = [];
          schemaErrors(root, sub, inst, path, errs);
          if (errs.length === 0) valid++;
          else all.push(...errs);
        }
        if (valid === 0) err(kw, `${pyRepr(inst)} is not valid under any of the given schemas`, all);
        else if (valid > 1) err(kw, `${pyRepr(inst)} is valid under more than one of the given schemas`);
        break;
      }
      case "prefixItems":
        if (Array.isArray(inst)) arg.forEach((sub, k) => k < inst.length && descend(root, sub, inst[k], path, k, out));
        break;
      case "items":
        if (Array.isArray(inst)) {
          const from = schema.prefixItems ? schema.prefixItems.length : 0;
          for (let k = from; k < inst.length; k++) descend(root, arg, inst[k], path, k, out);
        }
        break;
      case "minItems":
        if (Array.isArray(inst) && inst.length < arg) err(kw, `${pyRepr(inst)} ${arg === 1 ? "should be non-empty" : "is too short"}`);
        break;
      case "maxItems":
        if (Array.isArray(inst) && inst.length > arg) err(kw, `${pyRepr(inst)} ${arg === 0 ? "is expected to be empty" : "is too long"}`);
        break;
      case "uniqueItems":
        if (arg && Array.isArray(inst) && inst.some((x, k) => inst.slice(k + 1).some((y) => jsonEqual(x, y)))) {
          err(kw, `${pyRepr(inst)} has non-unique elements`);
        }
        break;
      case "pattern":
        if (typeof inst === "string" && !pyPatternTest(arg, inst)) err(kw, `${pyRepr(inst)} does not match ${pyRepr(arg)}`);
        break;
      case "minimum":
        if (isType(inst, "number") && inst < arg) err(kw, `${pyRepr(inst)} is less than the minimum of ${pyRepr(arg)}`);
        break;
      case "maximum":
        if (isType(inst, "number") && inst > arg) err(kw, `${pyRepr(inst)} is greater than the maximum of ${pyRepr(arg)}`);
        break;
      case "multipleOf":
        if (isType(inst, "number") && Number.isFinite(inst) && inst % arg !== 0) err(kw, `${pyRepr(inst)} is not a multiple of ${arg}`);
        break;
      default:
        break; // annotations: $schema, $id, $defs, title, description
    }
  }
}

function relevanceCmp(a, b) {
  // jsonschema.exceptions.relevance: shallower, later sibling path, not weak, type matches
  if (a.path.length !== b.path.length) return b.path.length - a.path.length;
  for (let k = 0; k < a.path.length; k++) {
    const x = a.path[k];
    const y = b.path[k];
    if (x !== y) return x < y ? -1 : 1;
  }
  const weak = (e) => (e.validator === "oneOf" || e.validator === "anyOf" ? 0 : 1);
  if (weak(a) !== weak(b)) return weak(a) - weak(b);
  const mt = (e) => {
    const t = e.schema.type;
    if (t === undefined) return 1;
    return (Array.isArray(t) ? t : [t]).some((x) => isType(e.inst, x)) ? 0 : 1;
  };
  return mt(a) - mt(b);
}

function bestMatch(errors) {
  let best = null;
  for (const e of errors) if (best === null || relevanceCmp(e, best) > 0) best = e;
  while (best && best.context.length) {
    const sorted = [...best.context].sort((a, b) => relevanceCmp(a, b));
    if (sorted.length >= 2 && relevanceCmp(sorted[0], sorted[1]) === 0) return best;
    best = sorted[0];
  }
  return best;
}

/** The first schema error as Python reports it: [where, message], or null. */
export function schemaError(schema, doc) {
  const errors = [];
  schemaErrors(schema, schema, doc, [], errors);
  const e = bestMatch(errors);
  if (!e) return null;
  let msg = e.message.split(/\s+/).filter(Boolean).join(" ");
  if (msg.length > 160) msg = msg.slice(0, 157) + "...";
  return [e.path.length ? e.path.join("/") : "(top level)", msg];
}

// ---------------------------------------------------------------------------
// The rules of each game: defaults, checks and to_dict as in Python
// ---------------------------------------------------------------------------

const MAX_POINTS = 1000000;
const RULES = {
  tutto: {
    title: "Tutto",
    defaults: { six_of_kind: "two-triples", x2_scope: "turn", plusminus_chain: "continue", plusminus_deduction: "bank",
      reshuffle: "full", target: 6000, game_end: "round", cloverleaf_value: 0, deck: "real" },
    choices: { x2_scope: ["turn", "card"], plusminus_chain: ["continue", "bank", "flat"],
      plusminus_deduction: ["bank", "tutto"], reshuffle: ["full", "discard"], game_end: ["round", "immediate"],
      deck: ["real", "iid"] },
    check(r) {
      for (const name of ["target", "cloverleaf_value"]) {
        const v = r[name];
        const lowOk = name === "target" ? v > 0 : v >= 0;
        if (!(typeof v === "number" && Number.isInteger(v)) || !lowOk || v % POINT_UNIT || v > MAX_POINTS) {
          const kind = name === "target" ? "positive" : "non-negative";
          return `${name} must be a ${kind} multiple of ${POINT_UNIT} up to 1,000,000, not ${v}`;
        }
      }
      if (!["two-triples", "one-triple"].includes(r.six_of_kind)) {
        return `six_of_kind must be one of two-triples, one-triple, not ${pyRepr(r.six_of_kind)}`;
      }
      return null;
    },
    toDict(r) {
      const d = { game: "tutto", ...r };
      if (d.deck === "real") delete d.deck;
      return d;
    },
  },
};

RULES.macke = {
  title: "Berliner Macke",
  defaults: { variant: "standard", min_score: 300, throws: 3, bust: "subtract", target: 5000,
    six_of_kind: "two-triples", win_value: 5000 },
  choices: { variant: ["standard", "instant-win", "jackpot", "ones-and-fives", "volle-lotte"],
    bust: ["subtract", "zero"], six_of_kind: ["two-triples", "one-triple"] },
  check(r) {
    for (const name of ["min_score", "target", "win_value"]) {
      const v = r[name];
      const top = name === "min_score" ? 10000 : MAX_POINTS;
      if (!(typeof v === "number" && Number.isInteger(v)) || v < 0 || v % POINT_UNIT || v > top
          || (name === "target" && v === 0)) {
        return `${name} must be a non-negative multiple of ${POINT_UNIT} up to ${top.toLocaleString("en-US")}, not ${v}`;
      }
    }
    if (!(typeof r.throws === "number" && Number.isInteger(r.throws)) || r.throws < 1 || r.throws > 6) {
      return `throws must be 1..6, not ${r.throws}`;
    }
    return null;
  },
  toDict(r) {
    return { game: "macke", ...r };
  },
};

function checkedRules(game, raw) {
  // RulesCls.from_dict(d) then .to_dict(): the file's rules as Python rebuilds them
  const spec = RULES[game];
  if (!isType(raw, "object")) return [null, "rules must be an object"];
  const d = { ...raw };
  const g = Object.hasOwn(d, "game") ? d.game : game;
  delete d.game;
  if (g !== game) return [null, `not a ${spec.title} rules object`];
  const names = Object.keys(spec.defaults);
  const unknown = Object.keys(d).filter((k) => !names.includes(k)).sort();
  if (unknown.length) {
    return [null, `unknown ${spec.title.split(" ").pop()} rule option(s): ${unknown.join(", ")}; valid: ${[...names].sort().join(", ")}`];
  }
  const r = { ...spec.defaults, ...d };
  for (const [name, choices] of Object.entries(spec.choices)) {
    if (!choices.includes(r[name])) return [null, `${name} must be one of ${choices.join(", ")}, not ${pyRepr(r[name])}`];
  }
  const bad = spec.check(r);
  if (bad) return [null, bad];
  return [spec.toDict(r), null];
}

// ---------------------------------------------------------------------------
// Dice, shared by Tutto and Macke: the throws, a keep's points (dice/throws.py, dice/reference.py)
// ---------------------------------------------------------------------------

/** Every throw of 1..6 dice as sorted faces, ids in order (version 1's list). */
export function tuttoThrowNames() {
  const out = [];
  const rec = (n, from, s) => {
    if (s.length === n) {
      out.push(s);
      return;
    }
    for (let f = from; f <= 6; f++) rec(n, f, s + f);
  };
  for (let n = 1; n <= 6; n++) rec(n, 1, "");
  return out;
}

/** The faces of a throw (a string or a list, any order) sorted, as the throw's name. */
function sortedDice(dice) {
  const faces = typeof dice === "string" ? [...dice].map(Number) : [...dice];
  if (!faces.length || faces.length > 6 || faces.some((f) => !Number.isInteger(f) || f < 1 || f > 6)) {
    throw new RangeError(`a throw is 1 to 6 dice with faces 1-6, not ${JSON.stringify(dice)}`);
  }
  return faces.sort((a, b) => a - b).join("");
}

const singlePoints = (f) => (f === 1 ? 100 : f === 5 ? 50 : 0);
const triplePoints = (f) => (f === 1 ? 1000 : 100 * f);

/** Most points for setting aside exactly these dice (sorted faces), or null when a die
 * would belong to no unit (dice/reference.py best_split). */
function bestSplit(kept, maxTriples, taken = []) {
  if (!kept.length) return 0;
  const [first, ...rest] = kept;
  let best = null;
  if (singlePoints(first)) {
    const sub = bestSplit(rest, maxTriples, taken);
    if (sub !== null) best = sub + singlePoints(first);
  }
  if (rest.filter((x) => x === first).length >= 2 && taken.filter((x) => x === first).length < maxTriples) {
    const r = [...rest];
    r.splice(r.indexOf(first), 1);
    r.splice(r.indexOf(first), 1);
    const sub = bestSplit(r, maxTriples, [...taken, first]);
    if (sub !== null && (best === null || sub + triplePoints(first) > best)) best = sub + triplePoints(first);
  }
  return best;
}

// ---------------------------------------------------------------------------
// Tutto (docs/policy-format.md, "Playing a turn from the file")
// ---------------------------------------------------------------------------

export const TUTTO_CARDS = ["stop", "fireworks", "bonus200", "bonus300", "bonus400", "bonus500", "bonus600", "x2",
  "plusminus", "street", "cloverleaf"];
/** How many of each card the deck holds (56 in all), in the order of TUTTO_CARDS. */
export const TUTTO_DECK = [10, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1];
export const BANKABLE = ["bonus200", "bonus300", "bonus400", "bonus500", "bonus600", "x2"];
const TUTTO_ONLY = ["plusminus", "cloverleaf", "fireworks"];

function checkKeepRows(strings, rows, keeps, what, fail) {
  if (strings.length !== rows || strings.some((s) => s.length !== keeps.length)) {
    fail(`${what} must have ${rows} rows of ${keeps.length} decisions`);
  }
  // legal[i]: bit c set when c dice may be set aside from throw i (bit 0: a Niete)
  const legal = keeps.map((ks) => (ks.length ? ks.reduce((b, k) => b | (1 << k[0]), 0) : 1));
  const bad = new Array(keeps.length).fill(0);
  let any = false;
  for (const s of strings) {
    for (let i = 0; i < s.length; i++) {
      const bit = 1 << (s.charCodeAt(i) - 48);
      if (!(legal[i] & bit)) {
        bad[i] |= bit;
        any = true;
      }
    }
  }
  if (any) {
    const i = bad.findIndex((b) => b);
    const list = [0, 1, 2, 3, 4, 5, 6].filter((c) => bad[i] & (1 << c)).join(", ");
    fail(`${what} sets aside [${list}] dice from throw ${TUTTO_THROWS[i]}, which is not a legal keep`);
  }
}

const TUTTO_THROWS = tuttoThrowNames();

/** The `keeps` of a Tutto policy file, built from the scoring rules as tutto/policy.py
 * keeps_table does: per throw, [k, faces, points] of the best keep of each size k
 * (faces: the first such keep in sorted order). */
export function tuttoKeepsTable(sixOfKind) {
  const maxTriples = sixOfKind === "two-triples" ? 2 : 1;
  return TUTTO_THROWS.map((name) => {
    const dice = [...name].map(Number);
    const bySize = new Map(); // k -> sorted distinct combinations
    for (let mask = 1; mask < 1 << dice.length; mask++) {
      const sub = dice.filter((_, i) => mask & (1 << i)).join("");
      if (!bySize.has(sub.length)) bySize.set(sub.length, new Set());
      bySize.get(sub.length).add(sub);
    }
    const row = [];
    for (let k = 1; k <= dice.length; k++) {
      const combos = [...bySize.get(k)].sort();
      let best = null;
      let faces = null;
      for (const c of combos) {
        const pts = bestSplit([...c].map(Number), maxTriples);
        if (pts !== null && (best === null || pts > best)) {
          best = pts;
          faces = c;
        }
      }
      if (best !== null) row.push([k, faces, best]);
    }
    return row;
  });
}

export class TuttoPolicy extends LoadedFile {
  constructor(d, contentSha256, fail) {
    super("tutto", d, d.rules, contentSha256);
    this.turnTotalRows = d.turn_total_rows;
    this.turnEv = d.summary.turn_ev;
    // the legality checks of tutto/policy.py _from_json
    if (!jsonEqual(d.throws, TUTTO_THROWS)) fail("its list of throws is not this version's");
    if (!jsonEqual(d.keeps, tuttoKeepsTable(d.rules.six_of_kind))) {
      fail("its keeps (dice and points per throw) are wrong for these rules");
    }
    this.throwIds = new Map(TUTTO_THROWS.map((t, i) => [t, i]));
    const rows = d.turn_total_rows;
    for (const c of BANKABLE) {
      checkKeepRows(d.keep[c], rows, d.keeps, `keep/${c}`, fail);
      for (let n = 1; n <= 5; n++) if (d.bank[c][String(n)].length !== rows) fail(`bank/${c} dice ${n} must have ${rows} decisions`);
    }
    for (const c of TUTTO_ONLY) checkKeepRows([d.tutto_keep[c]], 1, d.keeps, `tutto_keep/${c}`, fail);
    if (d.draw.length !== rows) fail(`draw must have ${rows} decisions`);
    for (let m = 0; m < 7; m++) {
      for (let j = 0; j < 7; j++) {
        const v = d.street_take[m][j];
        const possible = j >= 1 && m + j <= 6;
        if (!(possible ? v >= 1 && v <= j : v === 0)) fail(`street_take[${m}][${j}] = ${v} is not legal`);
      }
    }
    if ((d.x2_by_card_points !== null) !== (d.rules.x2_scope === "card")) {
      fail("x2_by_card_points must be present exactly for x2_scope=card");
    }
    if (d.x2_by_card_points !== null) {
      // tutto/solver.py max_card_points: the most one card's dice can collect before its Tutto
      const most = [0];
      for (let n = 1; n <= 6; n++) {
        most.push(Math.max(...d.keeps.flatMap((ks, id) => (TUTTO_THROWS[id].length === n
          ? ks.map(([k, , pts]) => pts / POINT_UNIT + most[n - k]) : []))));
      }
      if (d.x2_by_card_points.length !== most[6] + 1) {
        fail(`x2_by_card_points needs ${most[6] + 1} entries (card points 0..${most[6] * POINT_UNIT}), not ${d.x2_by_card_points.length}`);
      }
      d.x2_by_card_points.forEach((p, i) => {
        checkKeepRows(p.keep, rows, d.keeps, `x2_by_card_points/${i}/keep`, fail);
        for (let n = 1; n <= 5; n++) if (p.bank[String(n)].length !== rows) fail(`x2_by_card_points/${i}/bank dice ${n} must have ${rows} decisions`);
      });
    }
    const forced = d.keeps.map((ks) => (ks.length ? String(ks[ks.length - 1][0]) : "0")).join("");
    if (d.tutto_keep.fireworks !== forced) fail("the Feuerwerk keep must be the forced one (every scoring die)");
  }

  /** Row of a turn total: min(T // 50, rows - 1). */
  row(turnTotal) {
    return Math.min(Math.floor(turnTotal / POINT_UNIT), this.turnTotalRows - 1);
  }

  /** Throw id of the dice (faces in any order). */
  throwId(dice) {
    return this.throwIds.get(sortedDice(dice));
  }

  _x2(cardPoints) {
    const parts = this.doc.x2_by_card_points;
    if (parts === null) return null;
    return parts[Math.min(Math.floor(cardPoints / POINT_UNIT), parts.length - 1)];
  }

  /** The keep for `dice` thrown on `card` with `turnTotal` before the throw:
   * {dice, faces, points}, or null for a Niete. */
  keep(card, turnTotal, dice, cardPoints = 0) {
    const id = this.throwId(dice);
    let k;
    if (TUTTO_ONLY.includes(card)) k = this.doc.tutto_keep[card][id];
    else if (BANKABLE.includes(card)) {
      const part = card === "x2" ? this._x2(cardPoints) : null;
      k = (part ? part.keep : this.doc.keep[card])[this.row(turnTotal)][id];
    } else throw new RangeError(`keep: card must be one of ${[...BANKABLE, ...TUTTO_ONLY].join(", ")}, not ${card}`);
    if (k === "0") return null;
    const [n, faces, points] = this.doc.keeps[id].find((e) => String(e[0]) === k);
    return { dice: n, faces, points };
  }

  /** After setting aside on a Bonus or x2 card: bank (true) or throw on (false). */
  bank(card, diceLeft, turnTotal, cardPoints = 0) {
    if (!BANKABLE.includes(card)) throw new RangeError(`bank: card must be one of ${BANKABLE.join(", ")}, not ${card}`);
    if (!(diceLeft >= 1 && diceLeft <= 5)) throw new RangeError(`bank: dice left must be 1-5, not ${diceLeft}`);
    const part = card === "x2" ? this._x2(cardPoints) : null;
    return (part ? part.bank : this.doc.bank[card])[String(diceLeft)][this.row(turnTotal)] === "1";
  }

  /** After a Tutto (its reward added): draw another card (true) or bank (false). */
  draw(turnTotal) {
    return this.doc.draw[this.row(turnTotal)] === "1";
  }

  /** Straße: how many of the `newNumbers` numbers showing to set aside (smallest first), `aside` numbers already aside. */
  streetTake(aside, newNumbers) {
    return this.doc.street_take[aside][newNumbers];
  }
}

// ---------------------------------------------------------------------------
// Berliner Macke / Volle Lotte (docs/macke-solver.md; macke/policy.py)
// ---------------------------------------------------------------------------

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

const faceCounts = (faces) => {
  const c = [0, 0, 0, 0, 0, 0];
  for (const f of faces) c[f - 1]++;
  return c;
};

/** The kinds of unit under Macke `rules` (macke/tables.py unit_types): name, dice, points
 * (units of 50) and the face counts that form it. */
function mackeUnitTypes(rules) {
  const n = rules.variant === "volle-lotte" ? 6 : 5;
  const u = [{ name: "1", dice: 1, points: 2, patterns: [faceCounts([1])] },
    { name: "5", dice: 1, points: 1, patterns: [faceCounts([5])] }];
  const faces = rules.variant === "ones-and-fives" ? [1, 5] : [1, 2, 3, 4, 5, 6];
  for (const f of faces) u.push({ name: String(f).repeat(3), dice: 3, points: triplePoints(f) / POINT_UNIT, patterns: [faceCounts([f, f, f])] });
  if (rules.variant !== "ones-and-fives") {
    u.push({ name: "small straight", dice: 4, points: 10, patterns: [1, 2, 3].map((a) => faceCounts([a, a + 1, a + 2, a + 3])) });
    if (n === 6) u.push({ name: "big straight", dice: 6, points: 40, patterns: [faceCounts([1, 2, 3, 4, 5, 6])] });
    else u.push({ name: "big straight", dice: 5, points: 20, patterns: [faceCounts([1, 2, 3, 4, 5]), faceCounts([2, 3, 4, 5, 6])] });
  }
  if (rules.variant === "jackpot") {
    u.push({ name: "five 5s", dice: 5, points: 100, patterns: [faceCounts([5, 5, 5, 5, 5])] });
    u.push({ name: "five 1s", dice: 5, points: 200, patterns: [faceCounts([1, 1, 1, 1, 1])] });
  }
  return u;
}

/** Every non-empty keep of a throw (face counts) as unit counts (macke/tables.py throw_keeps). */
function mackeThrowKeeps(counts, rules, types) {
  const pats = [];
  types.forEach((t, i) => t.patterns.forEach((p) => pats.push([i, p])));
  const maxTriples = rules.six_of_kind === "two-triples" ? 2 : 1;
  const out = new Map();
  const left = [...counts];
  const vec = new Array(types.length).fill(0);
  const rec = (j) => {
    if (j === pats.length) {
      if (vec.some((x) => x)) out.set(vec.join(","), [...vec]);
      return;
    }
    const [i, p] = pats[j];
    let times = 0;
    for (;;) {
      rec(j + 1);
      if (left.some((l, f) => l < p[f])) break;
      if (types[i].dice === 3 && vec[i] >= maxTriples) break; // six of a kind: two triples at most
      for (let f = 0; f < 6; f++) left[f] -= p[f];
      vec[i]++;
      times++;
    }
    for (let f = 0; f < 6; f++) left[f] += p[f] * times;
    vec[i] -= times;
  };
  rec(0);
  let keeps = [...out.values()];
  if (rules.variant === "jackpot") {
    // five 1s (five 5s) in one throw score only as the jackpot
    for (const face of [1, 5]) {
      if (counts[face - 1] === 5) {
        const single = types.findIndex((t) => t.name === String(face));
        const triple = types.findIndex((t) => t.name === String(face).repeat(3));
        keeps = keeps.filter((k) => k[single] + 3 * k[triple] < 5);
      }
    }
  }
  return keeps;
}

const lexCompare = (a, b) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/** The self-describing tables of a Macke policy file for `rules` (macke/policy.py tables_of):
 * units, states, throws, keeps, returns. */
export function mackeTables(rules) {
  const types = mackeUnitTypes(rules);
  const n = rules.variant === "volle-lotte" ? 6 : 5;
  const diceOf = (v) => v.reduce((s, k, i) => s + k * types[i].dice, 0);
  const states = [];
  const rec = (i, dice, vec) => {
    if (i === types.length) {
      states.push([...vec]);
      return;
    }
    for (let k = 0; dice + k * types[i].dice <= n; k++) {
      vec.push(k);
      rec(i + 1, dice + k * types[i].dice, vec);
      vec.pop();
    }
  };
  rec(0, 0, []);
  states.sort((a, b) => diceOf(a) - diceOf(b) || lexCompare(a, b));
  const index = new Map(states.map((v, s) => [v.join(","), s]));
  const dice = states.map(diceOf);
  const throws = tuttoThrowNames().filter((t) => t.length <= n);
  const keeps = throws.map((t) => mackeThrowKeeps(faceCounts([...t].map(Number)), rules, types)
    .map((k) => index.get(k.join(","))).sort((a, b) => a - b));
  const returns = states.map((v) => {
    const subs = new Set();
    const sub = (i, w) => {
      if (i === v.length) {
        subs.add(index.get(w.join(",")));
        return;
      }
      for (let k = 0; k <= v[i]; k++) sub(i + 1, [...w, k]);
    };
    sub(0, []);
    return [...subs].sort((a, b) => dice[b] - dice[a] || a - b);
  });
  return { units: types.map((t) => [t.name, t.dice, t.points * POINT_UNIT]), states, throws, keeps, returns };
}

export class MackePolicy extends LoadedFile {
  constructor(d, contentSha256, fail) {
    super("macke", d, d.rules, contentSha256);
    this.variant = d.rules.variant;
    this.turnEv = d.summary.turn_ev;
    const nAll = d.rules.variant === "volle-lotte" ? 6 : 5;
    if (d.dice !== nAll || d.throws_per_series !== d.rules.throws) {
      fail(`dice and throws_per_series must be ${nAll} and ${d.rules.throws} for its rules`);
    }
    this.nDice = nAll;
    this.throwsPerSeries = d.throws_per_series;
    this.lockedRows = d.locked_rows;
    // the self-describing tables must be those the rules build (macke/policy.py tables_of)
    const tables = mackeTables(d.rules);
    for (const what of ["units", "states", "throws", "keeps", "returns"]) {
      if (!jsonEqual(d[what], tables[what])) fail(`its ${what} are not the tables this version builds for its rules`);
    }
    this.units = d.units.map(([name, dice, points]) => ({ name, dice, points }));
    this.states = d.states;
    const nUnits = this.units.length;
    this._dice = d.states.map((v) => v.reduce((s, k, u) => s + k * this.units[u].dice, 0));
    this._pts = d.states.map((v) => v.reduce((s, k, u) => s + k * this.units[u].points, 0));
    this._index = new Map(d.states.map((v, s) => [v.join(","), s]));
    this.emptyState = this._index.get(new Array(nUnits).fill(0).join(","));
    const names = d.throws;
    this.throwIds = new Map(names.map((t, i) => [t, i]));
    this._start = [0];
    for (let n = 1; n <= nAll + 1; n++) this._start.push(names.filter((t) => t.length < n).length);
    // keep slots of each set-aside state (solver.slot_layout)
    this._off = [];
    let pos = 0;
    for (let u = 0; u < d.states.length; u++) {
      if (this._dice[u] < nAll) {
        this._off.push(pos);
        pos += this._start[nAll - this._dice[u] + 1] - this._start[nAll - this._dice[u]];
      } else this._off.push(-1);
    }
    const T = this.throwsPerSeries;
    const rows = this.lockedRows;
    const firstWidth = this._start[nAll + 1] - this._start[nAll];
    const checkRows = (strings, width, what) => {
      if (!Array.isArray(strings) || strings.length !== rows || strings.some((s) => s.length !== width)) {
        fail(`${what} must have ${rows} rows of ${width} decisions`);
      }
    };
    for (let j = 1; j <= T; j++) {
      const what = `keep/${j}`;
      const strings = d.keep[String(j)] ?? [];
      checkRows(strings, j === 1 ? firstWidth : pos, what);
      // the throw behind each character, and the legality of its keep index
      const slotThrow = [];
      if (j === 1) for (let ms = this._start[nAll]; ms < this._start[nAll + 1]; ms++) slotThrow.push(ms);
      else {
        for (let u = 0; u < d.states.length; u++) {
          if (this._off[u] < 0) continue;
          const n = nAll - this._dice[u];
          for (let ms = this._start[n]; ms < this._start[n + 1]; ms++) slotThrow.push(ms);
        }
      }
      strings.forEach((s, r) => {
        for (let c = 0; c < s.length; c++) {
          const ms = slotThrow[c];
          const legalN = d.keeps[ms].length;
          const a = s[c] === "-" ? -1 : ALPHABET.indexOf(s[c]);
          if (a < -1 || a >= legalN || (a === -1) !== (legalN === 0)) {
            fail(`${what} row ${r} chooses keep ${a >= 0 ? s[c] : a} for throw ${d.throws[ms]}, which has ${legalN} legal keeps`);
          }
        }
      });
    }
    for (let j = 2; j <= T; j++) {
      const what = `return/${j}`;
      const strings = d.return[String(j)] ?? [];
      checkRows(strings, d.states.length, what);
      strings.forEach((s, r) => {
        for (let c = 0; c < s.length; c++) {
          const a = ALPHABET.indexOf(s[c]);
          if (a < 0 || a >= d.returns[c].length) fail(`${what} row ${r}: state ${c} has no return choice ${pyRepr(s[c])}`);
        }
      });
    }
    for (let j = 1; j < T; j++) {
      const strings = d.bank[String(j)] ?? [];
      if (strings.length !== rows || strings.some((s) => s.length !== d.states.length)) {
        fail(`bank/${j} must have ${rows} rows of ${d.states.length} decisions`);
      }
    }
    const extra = [
      ...Object.keys(d.keep).filter((k) => !(Number(k) >= 1 && Number(k) <= T)),
      ...Object.keys(d.return).filter((k) => !(Number(k) >= 2 && Number(k) <= T)),
      ...Object.keys(d.bank).filter((k) => !(Number(k) >= 1 && Number(k) < T)),
    ];
    if (extra.length) fail(`decisions for throws ${pyRepr([...new Set(extra)].sort())} of a series with ${T} throws`);
  }

  row(locked) {
    return Math.min(Math.floor(locked / POINT_UNIT), this.lockedRows - 1);
  }

  stateDice(s) {
    return this._dice[s];
  }

  statePoints(s) {
    return this._pts[s];
  }

  stateName(s) {
    const parts = [];
    this.states[s].forEach((k, u) => {
      for (let i = 0; i < k; i++) parts.push(this.units[u].name);
    });
    return parts.length ? parts.join(" + ") : "nothing";
  }

  /** State id of a list of unit names (["1", "5", "555"]); undefined if there is none. */
  stateId(unitNames) {
    const v = this.units.map((u) => unitNames.filter((x) => x === u.name).length);
    return this._index.get(v.join(","));
  }

  /** The state of `a` and `b` set aside together (undefined: more dice than there are). */
  add(a, b) {
    return this._index.get(this.states[a].map((k, u) => k + this.states[b][u]).join(","));
  }

  throwId(dice) {
    return this.throwIds.get(sortedDice(dice));
  }

  /** The units to set aside from `dice`, thrown as throw `throwOfSeries` (1-based) of a series
   * with `aside` set aside and `locked` points from earlier series: {state, units, index}, or null (a Macke). */
  keep({ locked, aside, throwOfSeries, dice }) {
    const key = sortedDice(dice);
    const ms = this.throwIds.get(key);
    const n = this.nDice - this._dice[aside];
    if (key.length !== n) throw new RangeError(`keep: with ${this._dice[aside]} dice set aside the throw has ${n} dice`);
    const j = throwOfSeries;
    let col;
    if (j === 1) col = ms - this._start[this.nDice];
    else col = this._off[aside] + ms - this._start[n];
    const ch = this.doc.keep[String(j)][this.row(locked)][col];
    if (ch === "-") return null;
    const index = ALPHABET.indexOf(ch);
    const state = this.doc.keeps[ms][index];
    return { state, units: this.stateName(state).split(" + "), index };
  }

  /** Before throw `throwOfSeries` (>= 2): the state to keep set aside (the rest goes back). */
  returnUnits({ locked, aside, throwOfSeries }) {
    const i = ALPHABET.indexOf(this.doc.return[String(throwOfSeries)][this.row(locked)][aside]);
    return this.doc.returns[aside][i];
  }

  /** After setting aside on throw `throwOfSeries` (`aside` includes the keep): bank (true) or
   * go on (false). With every die set aside (a clear) false starts a new series. */
  bank({ locked, aside, throwOfSeries }) {
    if (this._dice[aside] === this.nDice) {
      const clear = this.doc.clear;
      const total = Math.floor((locked + this._pts[aside]) / POINT_UNIT);
      return clear[Math.min(total, clear.length - 1)] === "1";
    }
    if (!(throwOfSeries >= 1 && throwOfSeries < this.throwsPerSeries)) {
      throw new RangeError(`bank: after throw ${throwOfSeries} of ${this.throwsPerSeries} the turn ends without a choice`);
    }
    return this.doc.bank[String(throwOfSeries)][this.row(locked)][aside] === "1";
  }
}

// ---------------------------------------------------------------------------
// Rutsmieter: the linear move evaluator (rutsmieter/policy.py)
// ---------------------------------------------------------------------------

// the features of the first policy files: a file may give these seven only, the others then weigh 0
export const RUTSMIETER_FEATURES_V1 = ["progress", "capture", "danger_behind", "danger_ahead", "leave_house",
  "enter_goal", "block_start"];
export const RUTSMIETER_FEATURES = [...RUTSMIETER_FEATURES_V1, "capture_progress", "capture_leader",
  "risk_progress", "start_danger", "next_danger", "goal_loose", "own_progress", "own_goal", "own_house",
  "own_threatened", "opp_progress", "lead_progress", "lead_goal", "opp_house", "opp_risk"];
// the features of the position after the move only (rutsmieter/policy.py POSITION_FEATURES)
export const RUTSMIETER_POSITION_FEATURES = RUTSMIETER_FEATURES.slice(RUTSMIETER_FEATURES.indexOf("risk_progress"));
const TABLE_FIELD = "weights_by_players";
// a piece's position in its player's own count: the house, the ring from its start, the goal lane
export const HOUSE = -1;
export const RING = 40;
export const FIRST_GOAL = 40;
const LAST_GOAL = FIRST_GOAL + 3; // LAST_POSITION
export const SEAT_SPACING = 10; // squares between the starts of neighbouring seats

const mod = (a, m) => ((a % m) + m) % m;
/** The board's square of ring position `x` of the player at seat index `p`. */
export const ringSquare = (seats, p, x) => mod(x + SEAT_SPACING * seats[p], RING);
/** The ring position, in the count of the player at seat index `p`, of board square `sq`. */
export const ownPosition = (seats, p, sq) => mod(sq - SEAT_SPACING * seats[p], RING);

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const goalCount = (own) => own.filter((x) => x >= FIRST_GOAL).length;
/** How far a player is (as the places at the end): pieces in the goal lane, then progress. */
const rank = (own) => 1000 * goalCount(own) + sum(own);
const finished = (own) => own.every((x) => x >= FIRST_GOAL);

/** Pieces of player `o` that could land on ring square `sq` with one throw, plus 1 if it is o's start
 * square while o has a piece in the house (rutsmieter/reference.py threats_by). */
function threatsBy(seats, pieces, o, sq) {
  const target = ownPosition(seats, o, sq);
  let total = 0;
  for (const q of pieces[o]) if (q >= 0 && q < RING && target - q >= 1 && target - q <= 6) total++;
  return total + (target === 0 && pieces[o].includes(HOUSE) ? 1 : 0);
}

/** The threats of every opponent of `player` to ring square `sq` (rutsmieter/reference.py threats). */
function threats(seats, pieces, player, sq) {
  let total = 0;
  for (let o = 0; o < seats.length; o++) if (o !== player) total += threatsBy(seats, pieces, o, sq);
  return total;
}

/** The next player clockwise who has not finished (`player` itself if none). */
function nextPlayer(pieces, player) {
  const n = pieces.length;
  for (let step = 1; step < n; step++) {
    const q = (player + step) % n;
    if (!finished(pieces[q])) return q;
  }
  return player;
}

/** The position features (RUTSMIETER_POSITION_FEATURES) of a position for `player`, who has just
 * moved (rutsmieter/policy.py position_features): integers. */
export function positionFeatures(seats, pieces, player) {
  const own = pieces[player];
  const others = seats.map((_, o) => o).filter((o) => o !== player);
  const ring = own.filter((x) => x >= 0 && x < RING);
  const risk = ring.map((x) => threats(seats, pieces, player, ringSquare(seats, player, x)));
  let startDanger = 0;
  for (const x of ring) {
    for (const o of others) {
      const d = ownPosition(seats, o, ringSquare(seats, player, x));
      if (pieces[o].includes(HOUSE) && d >= 1 && d <= 6) startDanger++;
    }
  }
  const q = nextPlayer(pieces, player);
  const nextDanger = q === player ? 0 : sum(ring.map((x) => threatsBy(seats, pieces, q, ringSquare(seats, player, x))));
  const goalLoose = own.filter((x) => {
    if (x < FIRST_GOAL) return false;
    for (let y = x + 1; y <= LAST_GOAL; y++) if (!own.includes(y)) return true;
    return false;
  }).length;
  const progress = others.map((o) => sum(pieces[o].map((x) => x + 1)));
  let oppRisk = 0;
  for (const o of others) {
    for (const y of pieces[o]) {
      if (y >= 0 && y < RING) oppRisk += threatsBy(seats, pieces, player, ringSquare(seats, o, y)) * (y + 1);
    }
  }
  return [
    sum(risk.map((r, i) => r * (ring[i] + 1))),
    startDanger,
    nextDanger,
    goalLoose,
    sum(own.map((x) => x + 1)),
    goalCount(own),
    own.filter((x) => x === HOUSE).length,
    risk.filter((r) => r > 0).length,
    sum(progress),
    progress.length ? Math.max(...progress) : 0,
    others.length ? Math.max(...others.map((o) => goalCount(pieces[o]))) : 0,
    sum(others.map((o) => pieces[o].filter((y) => y === HOUSE).length)),
    oppRisk,
  ];
}

/** The legal moves of a throw of `die` for `player` (rutsmieter/reference.py legal_moves, in piece
 * order): {piece, start, end, victim: [player, piece] or null}. */
export function legalMoves(seats, pieces, player, die, rules) {
  const own = pieces[player];
  const victim = (end) => {
    if (end >= RING) return null;
    const sq = ringSquare(seats, player, end);
    for (let q = 0; q < seats.length; q++) {
      for (let k = 0; k < pieces[q].length; k++) {
        const x = pieces[q][k];
        if (x >= 0 && x < RING && ringSquare(seats, q, x) === sq) return q === player ? null : [q, k];
      }
    }
    return null;
  };
  let moves = [];
  let left = false;
  own.forEach((x, k) => {
    if (x === HOUSE) {
      if (die === 6 && !left && !own.includes(0)) {
        moves.push({ piece: k, start: HOUSE, end: 0, victim: victim(0) });
        left = true;
      }
      return;
    }
    const end = x + die;
    if (end > LAST_GOAL || own.includes(end)) return;
    if (rules.goal_no_jump && end >= FIRST_GOAL && own.some((y) => Math.max(x, FIRST_GOAL - 1) < y && y < end)) return;
    moves.push({ piece: k, start: x, end, victim: victim(end) });
  });
  if (rules.must_leave_house && own.includes(HOUSE)) {
    const leaving = moves.filter((m) => m.start === HOUSE);
    if (leaving.length) moves = leaving;
    else {
      const clearing = moves.filter((m) => m.start === 0);
      if (clearing.length) moves = clearing;
    }
  }
  if (rules.must_capture) {
    const capturing = moves.filter((m) => m.victim !== null);
    if (capturing.length) moves = capturing;
  }
  return moves;
}

/** All weights of a set, in the order of RUTSMIETER_FEATURES: a file's seven are padded with zeros. */
const fullWeights = (set, features) => RUTSMIETER_FEATURES.map((f) => (features.includes(f) ? set[f] : 0.0));

export class RutsmieterPolicy extends LoadedFile {
  constructor(d, contentSha256, fail, callerRules) {
    super("rutsmieter", d, callerRules ? { ...d.rules, ...callerRules, game: "rutsmieter" } : d.rules, contentSha256);
    this.summary = d.summary ?? null;
    const features = d.features;
    if (!jsonEqual(features, RUTSMIETER_FEATURES) && !jsonEqual(features, RUTSMIETER_FEATURES_V1)) {
      fail(`features must be ${RUTSMIETER_FEATURES.join(", ")} in this order (or the first ${RUTSMIETER_FEATURES_V1.length} of them)`);
    }
    const table = d[TABLE_FIELD] ?? {};
    for (const set of [d.weights, ...Object.values(table)]) {
      if (!jsonEqual(Object.keys(set).sort(), [...features].sort())) {
        fail(`every weight set needs the weights of its features, ${features.join(", ")}`);
      }
    }
    this.featureNames = RUTSMIETER_FEATURES;
    this.fileFeatures = [...features];
    this.baseWeights = fullWeights(d.weights, features);
    // table size -> its weight set ("weights_by_players"), in the order of RUTSMIETER_FEATURES
    this.weightsByPlayers = Object.fromEntries(Object.entries(table).map(([n, set]) => [Number(n), fullWeights(set, features)]));
    // the weights for the caller's table (the caller's rules' players), else the file's "weights"
    this.weights = this.weightsFor(callerRules?.players ?? null);
  }

  /** The weight set the bot plays at a table of `players` (the file's set for that size, else "weights"). */
  weightsFor(players) {
    return this.weightsByPlayers[players] ?? this.baseWeights;
  }

  /** The features of `move` (rutsmieter/policy.py move_features) in a situation {seats, pieces, player}:
   * RUTSMIETER_FEATURES' values, integers. */
  features(obs, move) {
    const { seats, player } = obs;
    const before = obs.pieces;
    const pieces = before.map((p) => [...p]);
    if (move.victim) pieces[move.victim[0]][move.victim[1]] = HOUSE;
    pieces[player][move.piece] = move.end;
    const onRing = (sq) => {
      for (let p = 0; p < seats.length; p++) {
        for (const x of pieces[p]) if (x >= 0 && x < RING && ringSquare(seats, p, x) === sq) return p;
      }
      return null;
    };
    let behind = 0;
    let ahead = 0;
    if (move.end < RING) {
      behind = threats(seats, pieces, player, ringSquare(seats, player, move.end));
      for (let dd = 1; dd <= 6; dd++) {
        if (move.end + dd >= RING) break;
        const hit = onRing(ringSquare(seats, player, move.end + dd));
        if (hit !== null && hit !== player) ahead++;
      }
    }
    const own = pieces[player];
    let captureProgress = 0;
    let captureLeader = 0;
    if (move.victim) {
      const [vp, vk] = move.victim;
      captureProgress = before[vp][vk] + 1;
      let lead = -Infinity;
      before.forEach((q, o) => {
        if (o !== player && !finished(q)) lead = Math.max(lead, rank(q));
      });
      captureLeader = rank(before[vp]) === lead ? 1 : 0;
    }
    return [
      move.end - move.start,
      move.victim ? 1 : 0,
      behind,
      ahead,
      move.start === HOUSE ? 1 : 0,
      move.start < FIRST_GOAL && FIRST_GOAL <= move.end ? 1 : 0,
      own.includes(0) && own.includes(HOUSE) ? 1 : 0,
      captureProgress,
      captureLeader,
      ...positionFeatures(seats, pieces, player),
    ];
  }

  /** Σ weight · feature, summed in the order of the features (as Python), with the weight set of a
   * table of `players` (default: the caller's table, else the file's "weights"). */
  score(features, players = null) {
    const weights = players === null ? this.weights : this.weightsFor(players);
    let total = 0.0;
    features.forEach((f, i) => {
      total += weights[i] * f;
    });
    return total;
  }

  /** Index into obs.moves of the move the weights choose (highest score; ties: furthest along, then
   * first), with the weight set of the table of obs (its number of seats). */
  choose(obs) {
    let best = 0;
    let bestKey = null;
    obs.moves.forEach((m, i) => {
      const key = [this.score(this.features(obs, m), obs.seats.length), m.start];
      if (bestKey === null || key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
        best = i;
        bestKey = key;
      }
    });
    return best;
  }
}

// ---------------------------------------------------------------------------
// the features in the players' words (rutsmieter/words.py feature_value_words)
// ---------------------------------------------------------------------------

const count = (n, one, many = null) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many ?? `${one}s`}`;

/** What a move's feature value means to a player, word for word as Python's words.feature_value_words:
 * "2 opponent pieces can reach it", "captures the leader's piece", "its piece had come 23 squares". */
export function rutsmieterValueWords(feature, value) {
  const n = value.toLocaleString("en-US");
  switch (feature) {
    case "progress": return `walks ${count(value, "square")}`;
    case "capture": return value ? "captures" : "captures nothing";
    case "danger_behind": return value === 0 ? "no opponent can reach it" : `${count(value, "opponent piece")} can reach it`;
    case "danger_ahead": return value === 0 ? "no opponent piece just ahead" : `${count(value, "opponent piece")} within reach ahead`;
    case "leave_house": return value ? "brings a piece out" : "leaves the house as it is";
    case "enter_goal": return value ? "reaches the goal lane" : "stays out of the goal lane";
    case "block_start": return value ? "the start square stays blocked" : "the start square is free";
    case "capture_progress": return value ? `its piece had come ${count(value, "square")}` : "no piece to send home";
    case "capture_leader": return value ? "captures the leader's piece" : "not the leader's piece";
    case "risk_progress": return value === 0 ? "no piece of yours within reach" : `your pieces within reach: ${n} (threats times squares come)`;
    case "start_danger": return value === 0 ? "no piece an opponent can reach from its start square"
      : `${count(value, "piece")} an opponent can reach from its start square`;
    case "next_danger": return value === 0 ? "the next player can hit none of your pieces"
      : value === 1 ? "leaves a piece the next player can hit" : `leaves ${value} ways for the next player to hit your pieces`;
    case "goal_loose": return value === 0 ? "the goal lane is closed up" : `${count(value, "piece")} in the goal lane still to move up`;
    case "own_progress": return `your pieces have come ${count(value, "square")} in all`;
    case "own_goal": return `${count(value, "piece")} of yours in the goal lane`;
    case "own_house": return `${count(value, "piece")} of yours in the house`;
    case "own_threatened": return value === 0 ? "none of your pieces within reach" : `${count(value, "piece")} of yours within reach`;
    case "opp_progress": return `the opponents have come ${count(value, "square")} in all`;
    case "lead_progress": return `the opponent furthest along has come ${count(value, "square")}`;
    case "lead_goal": return `an opponent has ${count(value, "piece")} in the goal lane`;
    case "opp_house": return `${count(value, "opponent piece")} in the houses`;
    case "opp_risk": return value === 0 ? "no opponent piece within your reach" : `opponent pieces you can hit: ${n} (threats times squares come)`;
    default: throw new RangeError(`no feature ${feature}`);
  }
}

// ---------------------------------------------------------------------------
// The Tutto win table (tutto/win/table.py; docs/win.md)
// ---------------------------------------------------------------------------

// ---- Decisions inside a turn from the win table (tutto/win/planner.py WinPlanner) ----
// One turn is the turn solver's dynamic programme with the chance to win at its leaves
// (docs/win.md "How it is solved"); this is a readable port of programme._layer in its
// MAX mode, summing in the kernel's order so that the chances agree to the last bits.
// Units of 50 points throughout.

const WIN_PM_UNITS = 20; // a Plus/Minus Tutto: +1000
const WIN_STREET_UNITS = 40; // the Straße: +2000
// the cards in the solver's order (TUTTO_CARDS) and their chances (10/56 Stop, ..., 1/56 Kleeblatt)
const C_STOP = 0, C_FIREWORKS = 1, C_X2 = 7, C_PLUSMINUS = 8, C_STREET = 9, C_CLOVERLEAF = 10;
const CARD_FREQ = TUTTO_DECK.map((c) => c / 56);
const CARD_BONUS = [0, 0, 4, 6, 8, 10, 12, 0, 0, 0, 0];
const WIN_TABLES = new Map();

/** The throw tables the turn programme needs, from the scoring rules (dice/throws.py build_tables):
 * per throw id its chance, dice, faces and the most points (units) for k dice set aside; the
 * throws of d dice that score alike grouped into classes as params._throw_classes does; the
 * Tutto's and the Straße's most and least likely chances; the Feuerwerk's gains. */
function winThrowTables(sixOfKind) {
  if (WIN_TABLES.has(sixOfKind)) return WIN_TABLES.get(sixOfKind);
  const keeps = tuttoKeepsTable(sixOfKind);
  const fact = [1, 1, 2, 6, 24, 120, 720];
  const n = TUTTO_THROWS.length;
  const start = new Array(8).fill(0);
  const prob = [], nDice = [], faces = [], best = [];
  TUTTO_THROWS.forEach((name, id) => {
    const d = name.length;
    const counts = [0, 0, 0, 0, 0, 0];
    for (const ch of name) counts[Number(ch) - 1]++;
    const ways = counts.reduce((w, c) => w / fact[c], fact[d]);
    prob.push(ways / 6 ** d);
    nDice.push(d);
    faces.push(counts.reduce((bits, c, f) => (c ? bits | (1 << f) : bits), 0));
    const row = new Array(7).fill(-1);
    for (const [k, , pts] of keeps[id]) row[k] = pts / POINT_UNIT;
    best.push(row);
  });
  for (let d = 1; d <= 6; d++) start[d + 1] = start[d] + nDice.filter((x) => x === d).length;
  // classes: throws of d dice with the same most points for each number of dice set aside; what a
  // keep leads to depends only on its slot (dice left, points), so each slot is valued once
  const classes = [[]];
  const slots = [], slotOf = new Map();
  for (let d = 1; d <= 6; d++) {
    const list = [];
    const seen = new Map();
    for (let ms = start[d]; ms < start[d + 1]; ms++) {
      const key = best[ms].slice(1, d + 1).join(",");
      if (seen.has(key)) {
        list[seen.get(key)].prob += prob[ms];
        continue;
      }
      seen.set(key, list.length);
      const ks = []; // the slots of its keeps
      for (let k = 1; k <= d; k++) {
        if (best[ms][k] < 0) continue;
        const key = `${d - k},${best[ms][k]}`;
        if (!slotOf.has(key)) {
          slotOf.set(key, slots.length);
          slots.push([d - k, best[ms][k]]); // [dice left, points]
        }
        ks.push(slotOf.get(key));
      }
      list.push({ prob: prob[ms], keeps: ks });
    }
    classes.push(list);
  }
  // programme.tutto_extremes: the most and least likely Tutto from d dice
  const pHi = [1], pLo = [1];
  for (let d = 1; d <= 6; d++) {
    let ah = 0.0, al = 0.0;
    for (let ms = start[d]; ms < start[d + 1]; ms++) {
      let bh = -1.0, bl = 2.0;
      for (let k = 1; k <= d; k++) {
        if (best[ms][k] >= 0) {
          bh = Math.max(bh, pHi[d - k]);
          bl = Math.min(bl, pLo[d - k]);
        }
      }
      if (bh >= 0.0) {
        ah += prob[ms] * bh;
        al += prob[ms] * bl;
      }
    }
    pHi.push(ah);
    pLo.push(al);
  }
  // solver.street_new_numbers and params.street_by_numbers: the Straße with m numbers aside
  const r = Array.from({ length: 7 }, () => new Array(7).fill(0));
  for (let m = 0; m < 6; m++) {
    const mask = (1 << m) - 1;
    for (let ms = start[6 - m]; ms < start[7 - m]; ms++) {
      let nw = faces[ms] & ~mask & 63, j = 0;
      while (nw) {
        nw &= nw - 1;
        j++;
      }
      r[m][j] += prob[ms];
    }
  }
  const qHi = new Array(7).fill(0), qLo = new Array(7).fill(0);
  qHi[6] = qLo[6] = 1.0;
  for (let m = 5; m >= 0; m--) {
    let ah = 0.0, al = 0.0;
    for (let j = 1; j <= 6 - m; j++) {
      let bh = -1.0, bl = 2.0;
      for (let t = 1; t <= j; t++) {
        bh = Math.max(bh, qHi[m + t]);
        bl = Math.min(bl, qLo[m + t]);
      }
      ah += r[m][j] * bh;
      al += r[m][j] * bl;
    }
    qHi[m] = ah;
    qLo[m] = al;
  }
  // solver.max_card_points: the most one card's dice can collect before its Tutto
  const most = [0];
  for (let d = 1; d <= 6; d++) {
    let m = 0;
    for (let ms = start[d]; ms < start[d + 1]; ms++) {
      for (let k = 1; k <= d; k++) if (best[ms][k] >= 0) m = Math.max(m, best[ms][k] + most[d - k]);
    }
    most.push(m);
  }
  const t = { n, start, prob, best, classes, slots, pHi, pLo, qHi, qLo, cpMax: most[6], fw: null };
  WIN_TABLES.set(sixOfKind, t);
  return t;
}

/** programme.fireworks_pmf: pmf[g] = P(a Feuerwerk adds exactly g units before its Niete), g < gmax;
 * surv[g] = P(it adds at least g), g <= gmax. The Feuerwerk sets aside every scoring die. */
function fireworksGains(t, gmax) {
  if (t.fw && t.fw.pmf.length >= gmax) return t.fw;
  const forced = (ms, d) => { // [dice, points] of the forced keep
    for (let k = d; k >= 1; k--) if (t.best[ms][k] >= 0) return [k, t.best[ms][k]];
    return [0, 0];
  };
  const h = Array.from({ length: 7 }, () => new Float64Array(gmax));
  for (let g = 0; g < gmax; g++) {
    for (let d = 1; d <= 6; d++) {
      let acc = 0.0;
      for (let ms = t.start[d]; ms < t.start[d + 1]; ms++) {
        const [used, pts] = forced(ms, d);
        if (used === 0) {
          if (g === 0) acc += t.prob[ms];
        } else if (pts <= g) {
          const left = d - used === 0 ? 6 : d - used;
          acc += t.prob[ms] * h[left][g - pts];
        }
      }
      h[d][g] = acc;
    }
  }
  const pmf = h[6];
  const surv = new Float64Array(gmax + 1);
  let tail = 1.0;
  for (let g = 0; g <= gmax; g++) {
    surv[g] = Math.max(tail, 0.0);
    if (g < gmax) tail -= pmf[g];
  }
  t.fw = { pmf, surv };
  return t.fw;
}

/** programme.win_chain: the opponent's score after j deductions. Who loses is fixed once, from the
 * scores at the start of the turn: an opponent at or above the roller's score (and above 0) loses 1000
 * per Plus/Minus Tutto down to 0, even once below the roller; one below the roller loses nothing. */
function deductionChain(a, b) {
  const chain = [];
  const hit = b >= a && b > 0;
  let e = b;
  for (;;) {
    chain.push(e);
    const e2 = hit ? (e > WIN_PM_UNITS ? e - WIN_PM_UNITS : 0) : e;
    if (e2 === e || chain.length === 64) return chain;
    e = e2;
  }
}

/** programme.last_turn_margin: seat 1's margin behind the leader after `tuttos` Plus/Minus Tuttos of
 * this turn, from the scores at its start (a leader at or above the roller loses 1000 a Tutto, never
 * below 0); every negative margin is -1. */
function lastTurnMargin(own, other, tuttos) {
  const lead = other >= own && other > 0 ? Math.max(0, other - tuttos * WIN_PM_UNITS) : other;
  return Math.max(lead - own, -1);
}

/** programme.margin_next: the margin after one deduction in seat 1's last turn. */
const marginNext = (m) => (m < 0 ? -1 : m >= WIN_PM_UNITS ? m - WIN_PM_UNITS : -1);

/** One layer of one turn (programme._layer, MAX mode, nothing pruned): the turn after j Plus/Minus
 * Tuttos. `bank(T)` is the chance after banking T, `bust` after a Niete or Stop; `next` the layer
 * after a Plus/Minus Tutto (this one when the deduction changes nothing more). Fills, for totals
 * T from tcap - 1 down to tLo: A (after a Tutto: bank or draw), D (drawing a card), U (Bonus or x2
 * card, d dice left: bank or throw on) and UX (x2 per card, by its points). T >= tcap banks. */
class WinLayer {
  constructor(rules, t, tcap, bank, bust) {
    this.t = t;
    this.tcap = tcap;
    this.bank = bank;
    this.bust = bust;
    this.x2Card = rules.x2_scope === "card";
    this.chain = ["continue", "bank", "flat"].indexOf(rules.plusminus_chain);
    this.next = this;
    this.A = new Float64Array(tcap + 1);
    this.D = new Float64Array(tcap + 1);
    this.U = new Float64Array(8 * (tcap + 1) * 6); // [card][T][dice left]
    this.cpw = t.cpMax + 1;
    this.UX = this.x2Card ? new Float64Array((tcap + 1) * this.cpw * 6) : null; // [T][card points][dice left]
  }

  a(T) {
    return T < this.tcap ? this.A[T] : this.bank(T);
  }

  u(card, T, left) {
    return this.U[(card * (this.tcap + 1) + T) * 6 + left];
  }

  ux(T, cp, left) {
    return this.UX[(T * this.cpw + cp) * 6 + left];
  }

  /** Chance after throwing d dice: each class of throws at its best keep (`opt[slot]`: the chance
   * after a keep of that slot), a Niete at bust. */
  throwOn(d, opt) {
    let acc = 0.0;
    for (const g of this.t.classes[d]) {
      if (!g.keeps.length) {
        acc += g.prob * this.bust;
        continue;
      }
      let v = opt[g.keeps[0]];
      for (let i = 1; i < g.keeps.length; i++) v = Math.max(v, opt[g.keeps[i]]);
      acc += g.prob * v;
    }
    return acc;
  }

  /** The chance after a keep: total T2 with `left` dice left (0: the Tutto and its reward). */
  afterKeep(card, T2, cp2, left) {
    if (left === 0) {
      const tt = card === C_X2 ? (this.x2Card ? T2 + cp2 : 2 * T2) : T2 + CARD_BONUS[card];
      return this.a(tt);
    }
    if (T2 >= this.tcap) return this.bank(T2);
    if (card === C_X2 && this.x2Card) return cp2 > this.t.cpMax ? 0.0 : this.ux(T2, cp2, left);
    return this.u(card, T2, left);
  }

  /** The chance after a Plus/Minus Tutto from T (the chain rule: continue, bank, or bank 1000 flat). */
  afterPlusMinus(T) {
    const T2 = T + WIN_PM_UNITS;
    if (this.chain === 0) return T2 < this.tcap ? this.next.a(T2) : this.next.bank(T2);
    if (this.chain === 1) return this.next.bank(T2);
    return this.next.bank(WIN_PM_UNITS);
  }

  /** The chance after the Straße from T. */
  afterStreet(T) {
    return this.a(T + WIN_STREET_UNITS);
  }

  solve(tLo, fw) {
    const { tcap, bust, t } = this;
    this.A[tcap] = this.D[tcap] = this.bank(tcap);
    const pm6Hi = t.pHi[6], pm6Lo = t.pLo[6];
    for (let T = tcap - 1; T >= tLo; T--) {
      const bankT = this.bank(T);
      let D = 0.0;
      for (let c = 2; c <= C_X2; c++) {
        if (c === C_X2 && this.x2Card) {
          D = this._x2Card(T, bankT, D);
          continue;
        }
        const opt = t.slots.map(([left, pts]) => this.afterKeep(c, T + pts, 0, left));
        for (let d = 6; d >= 1; d--) {
            const acc = this.throwOn(d, opt);
          if (d === 6) D += CARD_FREQ[c] * acc;
          else this.U[(c * (tcap + 1) + T) * 6 + d] = bankT >= acc ? bankT : acc;
        }
      }
      // Feuerwerk: banks T + its gain
      const room = tcap - T;
      let s = fw.surv[room] * this.bank(tcap);
      for (let g = 0; g < room; g++) s += fw.pmf[g] * this.bank(T + g);
      D += CARD_FREQ[C_FIREWORKS] * s;
      // Plus/Minus: only its Tutto counts; the player who would rather not reach it plays least likely
      const sc = this.afterPlusMinus(T);
      const p = sc >= bust ? pm6Hi : pm6Lo;
      D += CARD_FREQ[C_PLUSMINUS] * (bust + p * (sc - bust));
      const a20 = this.afterStreet(T);
      const q = a20 >= bust ? t.qHi[0] : t.qLo[0];
      D += CARD_FREQ[C_STREET] * (bust + q * (a20 - bust));
      D += CARD_FREQ[C_CLOVERLEAF] * (bust + pm6Hi * pm6Hi * (1.0 - bust)); // two Tuttos win the game
      D += CARD_FREQ[C_STOP] * bust;
      this.D[T] = D;
      this.A[T] = bankT >= D ? bankT : D;
    }
  }

  /** programme._x2_card_max: x2 per card, states (T, card points, dice); the Tutto adds the card points. */
  _x2Card(T, bankT, D) {
    const cpx = this.t.cpMax;
    for (let cp = 0; cp <= Math.min(T, cpx); cp++) {
      const opt = this.t.slots.map(([left, pts]) => {
        const T2 = T + pts;
        if (left === 0) return this.a(T2 + cp + pts);
        if (T2 >= this.tcap) return this.bank(T2);
        return cp + pts > cpx ? 0.0 : this.ux(T2, cp + pts, left);
      });
      const [dHi, dLo] = cp === 0 ? [6, 6] : [5, 1];
      for (let d = dHi; d >= dLo; d--) {
        const acc = this.throwOn(d, opt);
        if (d === 6) D += CARD_FREQ[C_X2] * acc;
        else this.UX[(T * this.cpw + cp) * 6 + d] = bankT >= acc ? bankT : acc;
      }
    }
    return D;
  }
}

const cardIndex = (card, allowed, what) => {
  const c = TUTTO_CARDS.indexOf(card);
  if (!allowed.includes(card)) throw new RangeError(`${what}: card must be one of ${allowed.join(", ")}, not ${card}`);
  return c;
};
const KEEP_CARDS = [...BANKABLE, "plusminus", "cloverleaf"];

const WIN_FIELDS = ["six_of_kind", "x2_scope", "plusminus_chain", "plusminus_deduction", "target", "game_end"];

export class TuttoWinTable extends LoadedFile {
  constructor(d, fileRules, contentSha256, fail) {
    super("tutto-win", d, fileRules, contentSha256);
    const n = Math.floor(fileRules.target / POINT_UNIT);
    const square = d.W.length === 2 && d.W.every((rows) => rows.length === n && rows.every((r) => r.length === n));
    if (!square || d.target_units !== n) {
      fail(`W must be 2 x ${n} x ${n} for target ${fileRules.target.toLocaleString("en-US")}`);
    }
    if (new Set(d.last_turn.map((r) => r.length)).size !== 1) fail("last_turn rows differ in length");
    this.target = fileRules.target;
    this.units = n;
    this.marginCap = d.margin_cap_units * POINT_UNIT;
    this.immediate = fileRules.game_end === "immediate";
  }

  _units(points, what) {
    if (!(Number.isInteger(points) && points >= 0 && points < this.target)) {
      throw new RangeError(`${what} must be 0 to ${this.target - POINT_UNIT} points, not ${points}`);
    }
    return Math.floor(points / POINT_UNIT);
  }

  /** W: the chance that the player to move (seat 0 moves first in every round) wins, at the start of its turn. */
  W(seat, own, other) {
    if (seat !== 0 && seat !== 1) throw new RangeError(`seat must be 0 or 1, not ${seat}`);
    return this.doc.W[seat][this._units(own, "own score")][this._units(other, "other score")];
  }

  /** Seat 1's chance in its last turn `margin` points behind (`leaderHasPoints`: the leader has more than 0). */
  lastTurn(margin, leaderHasPoints = true) {
    const L = this.doc.last_turn[leaderHasPoints ? 1 : 0];
    const m = Math.floor(margin / POINT_UNIT);
    return L[Math.min(Math.max(m + 1, 0), L.length - 1)];
  }

  _leaf(s, e, x) {
    // programme.leaf_value: the player at seat s banks to x units, the opponent at e
    const n = this.units;
    if (x < n) return 1.0 - this.doc.W[1 - s][e][x];
    if (this.immediate || s === 1) return 1.0;
    const L = this.doc.last_turn[e === 0 ? 0 : 1];
    // his score counted at most at the cap (the target plus the margin cap, L.length - 3)
    return 1.0 - L[Math.min(x, L.length - 3) - e + 1];
  }

  /** The chance to win after banking `turnTotal` now (no Plus/Minus Tutto this turn), as the
   * turn's programme values it: 1 - W(opponent) below the target, then the game's end. */
  bankChance(seat, own, other, turnTotal) {
    const a = this._units(own, "own score");
    const b = this._units(other, "other score");
    const t = Math.floor(turnTotal / POINT_UNIT);
    return this._leaf(seat, b, a + t);
  }

  /** The chance to win after a Niete or Stop (nothing banked). */
  bustChance(seat, own, other) {
    return 1.0 - this.W(1 - seat, other, own);
  }

  // ---- decisions inside a turn (tutto/win/planner.py WinPlanner; docs/advisor.md) ----

  /** The programme of one turn at seat `seat`, `own` against `other` (units, at the start of the turn):
   * its layers, one per number of Plus/Minus Tuttos made (WinPlanner.turn). */
  _turn(seat, own, other) {
    const key = `${seat},${own},${other}`;
    if (!this._turns) this._turns = new Map();
    if (this._turns.has(key)) return this._turns.get(key);
    if (this._turns.size >= 16) this._turns.clear();
    const t = winThrowTables(this.rules.six_of_kind);
    const n = this.units;
    const tcap = n - own + (seat === 0 && !this.immediate ? this.doc.margin_cap_units : 0);
    const dedTutto = this.rules.plusminus_deduction === "tutto";
    const chain = deductionChain(own, other);
    const layers = chain.map((e) => new WinLayer(this.rules, t, tcap, (T) => this._leaf(seat, e, own + T),
      1.0 - this.doc.W[1 - seat][dedTutto ? e : other][own]));
    const fw = fireworksGains(t, tcap + 1);
    for (let j = layers.length - 1; j >= 0; j--) {
      layers[j].next = layers[Math.min(j + 1, layers.length - 1)];
      layers[j].solve(Math.min(WIN_PM_UNITS * j, tcap), fw);
    }
    this._turns.set(key, layers);
    return layers;
  }

  /** Seat 1's last turn `m` units behind the leader (after deductions): its programme by margin,
   * each margin's Plus/Minus Tutto leading to the margin 1000 smaller (WinPlanner.last_turn). */
  _lastTurn(m) {
    if (!this._margins) this._margins = new Map();
    const mmax = this.doc.last_turn[0].length - 2;
    m = Math.min(Math.max(m, -1), mmax);
    if (this._margins.has(m)) return this._margins.get(m);
    const t = winThrowTables(this.rules.six_of_kind);
    const dedTutto = this.rules.plusminus_deduction === "tutto";
    const tie = (x) => (x > m ? 1.0 : x === m ? 0.5 : 0.0);
    const layer = new WinLayer(this.rules, t, Math.max(m + 1, 1), tie, dedTutto ? tie(0) : 0.0);
    if (m >= 0) layer.next = this._lastTurn(marginNext(m));
    layer.solve(0, fireworksGains(t, layer.tcap + 1));
    this._margins.set(m, layer);
    return layer;
  }

  /** The layer of the player to move in situation `sit` (WinPlanner.where): `sit.scores` are the scores
   * at the start of the turn, before its Plus/Minus deductions; `sit.plusMinusTuttos` the Tuttos made. */
  _where(sit) {
    const seat = sit.seat;
    if (seat !== 0 && seat !== 1) throw new RangeError(`seat must be 0 or 1, not ${seat}`);
    const scores = sit.scores;
    if (!Array.isArray(scores) || scores.length !== 2 || !scores.every((x) => Number.isInteger(x) && x >= 0)) {
      throw new RangeError(`scores must be the two players' scores in points, not ${JSON.stringify(scores)}`);
    }
    const pm = sit.plusMinusTuttos ?? 0;
    if (!(Number.isInteger(pm) && pm >= 0)) throw new RangeError(`Plus/Minus Tuttos must be 0 or more, not ${pm}`);
    // the scores at the start of the turn fix who the Plus/Minus Tuttos take from: layer pm of that turn
    const own = Math.floor(scores[seat] / POINT_UNIT);
    const other = Math.floor(scores[1 - seat] / POINT_UNIT);
    if (sit.lastRound && seat === 1 && !this.immediate) return this._lastTurn(lastTurnMargin(own, other, pm));
    this._units(scores[seat], "own score");
    this._units(scores[1 - seat], "other score");
    const layers = this._turn(seat, own, other);
    return layers[Math.min(pm, layers.length - 1)];
  }

  static _total(points, what) {
    if (!(Number.isInteger(points) && points >= 0)) throw new RangeError(`${what} must be 0 or more points, not ${points}`);
    return Math.floor(points / POINT_UNIT);
  }

  /** How many dice to set aside from `sit.throw` (thrown on `sit.card` with `sit.turnTotal` and
   * `sit.cardPoints` before the throw) to win the game most often, and each keep's chance to win:
   * {dice, options: [{dice, points, chance}]}, one option per number of dice (the most points for
   * that many); {dice: 0, options: []} for a Niete. `sit.cloverSecond`: the Kleeblatt's first Tutto is made. */
  keepDice(sit) {
    const card = cardIndex(sit.card, KEEP_CARDS, "keepDice");
    const t = winThrowTables(this.rules.six_of_kind);
    const id = this.throwIds(sortedDice(sit.throw));
    const dice = TUTTO_THROWS[id].length;
    const lay = this._where(sit);
    const T = TuttoWinTable._total(sit.turnTotal, "turn total");
    const cp = TuttoWinTable._total(sit.cardPoints ?? 0, "card points");
    const ks = [1, 2, 3, 4, 5, 6].filter((k) => k <= dice && t.best[id][k] >= 0);
    if (!ks.length) return { dice: 0, options: [] };
    let vals, chances;
    const bust = lay.bust;
    if (card === C_PLUSMINUS || card === C_CLOVERLEAF) {
      const after = card === C_CLOVERLEAF
        ? (sit.cloverSecond ? 1.0 : bust + t.pHi[6] * (1.0 - bust)) : lay.afterPlusMinus(T);
      const hi = card === C_CLOVERLEAF || after >= bust; // the likeliest Tutto, else the least likely
      vals = ks.map((k) => (hi ? t.pHi[dice - k] : -t.pLo[dice - k]));
      chances = ks.map((k) => bust + (hi ? t.pHi[dice - k] : t.pLo[dice - k]) * (after - bust));
    } else {
      vals = chances = ks.map((k) => lay.afterKeep(card, T + t.best[id][k], cp + t.best[id][k], dice - k));
    }
    const i = vals.indexOf(Math.max(...vals));
    return { dice: ks[i], options: ks.map((k, x) => ({ dice: k, points: t.best[id][k] * POINT_UNIT, chance: chances[x] })) };
  }

  throwIds(name) {
    if (!this._ids) this._ids = new Map(TUTTO_THROWS.map((s, i) => [s, i]));
    return this._ids.get(name);
  }

  /** After setting aside on a Bonus or x2 card (`sit.turnTotal`, `sit.cardPoints` after the keep,
   * `sit.dice` dice left, 1-5): {bank: true to bank, false to throw on, chances: {bank, throw}}
   * (throw null past the table's cap, where the programme banks). */
  banks(sit) {
    const card = cardIndex(sit.card, BANKABLE, "banks");
    const d = sit.dice;
    if (!(Number.isInteger(d) && d >= 1 && d <= 5)) throw new RangeError(`dice left must be 1-5, not ${d}`);
    const t = winThrowTables(this.rules.six_of_kind);
    const lay = this._where(sit);
    const T = TuttoWinTable._total(sit.turnTotal, "turn total");
    const cp = TuttoWinTable._total(sit.cardPoints ?? 0, "card points");
    const bank = lay.bank(T);
    let bankNow = true;
    if (T < lay.tcap) {
      const cont = card === C_X2 && lay.x2Card ? lay.ux(T, cp, d) : lay.u(card, T, d);
      bankNow = cont <= bank;
    }
    if (T >= lay.tcap && bank < 1.0) return { bank: bankNow, chances: { bank, throw: null } };
    // throwing on: every throw of d dice at its best keep (WinAdvisor.chances)
    let on = 0.0;
    for (let ms = t.start[d]; ms < t.start[d + 1]; ms++) {
      let v = null;
      for (let k = 1; k <= d; k++) {
        const pts = t.best[ms][k];
        if (pts >= 0) {
          const x = lay.afterKeep(card, T + pts, cp + pts, d - k);
          v = v === null ? x : Math.max(v, x);
        }
      }
      on += t.prob[ms] * (v === null ? lay.bust : v);
    }
    return { bank: bankNow, chances: { bank, throw: on } };
  }

  /** After a Tutto (`sit.turnTotal` with its reward): {bank: true to bank, false to draw a card,
   * chances: {bank, draw}} (draw null past the table's cap). */
  banksAfterTutto(sit) {
    const lay = this._where(sit);
    const T = TuttoWinTable._total(sit.turnTotal, "turn total");
    const bank = lay.bank(T);
    if (T >= lay.tcap) return { bank: true, chances: { bank, draw: null } };
    return { bank: bank >= lay.D[T], chances: { bank, draw: lay.D[T] } };
  }

  /** The ends of the turn in situation `sit` as its programme values them: {bank: the chance to
   * win after banking `sit.turnTotal` now (the pending deductions made), bust: after a Niete or Stop}. */
  turnEnds(sit) {
    const lay = this._where(sit);
    return { bank: lay.bank(TuttoWinTable._total(sit.turnTotal, "turn total")), bust: lay.bust };
  }

  /** Straße: how many of the `sit.newNumbers` new numbers showing to set aside, `sit.aside` numbers
   * already aside, and each choice's chance: {take, options: [{take, chance}]}. */
  streetTake(sit) {
    const have = sit.aside, nw = sit.newNumbers;
    if (!(Number.isInteger(have) && Number.isInteger(nw) && have >= 0 && nw >= 1 && have + nw <= 6)) {
      throw new RangeError(`the Straße needs 0-5 numbers aside and 1 to 6 - aside new ones, not ${have} and ${nw}`);
    }
    const t = winThrowTables(this.rules.six_of_kind);
    const lay = this._where(sit);
    const after = lay.afterStreet(TuttoWinTable._total(sit.turnTotal, "turn total"));
    const hi = after >= lay.bust;
    const takes = Array.from({ length: nw }, (_, i) => i + 1);
    const vals = takes.map((x) => (hi ? t.qHi[have + x] : -t.qLo[have + x]));
    const i = vals.indexOf(Math.max(...vals));
    return { take: takes[i], options: takes.map((x) => ({ take: x, chance: lay.bust + (hi ? t.qHi[have + x] : t.qLo[have + x]) * (after - lay.bust) })) };
  }
}

// ---------------------------------------------------------------------------
// The Tutto win table of N players, version 2 (tutto/win/table.py; docs/win.md)
// ---------------------------------------------------------------------------

/** table._unpack: a packed float64-le array of `shape`, every value a chance; `fail` refuses. */
function unpack(p, shape, what, fail) {
  const same = p.shape.length === shape.length && p.shape.every((v, i) => v === shape[i]);
  if (!same) fail(`${what} must have the shape ${shape.join(" x ")}, not ${p.shape.join(" x ")}`);
  let bin;
  try {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(p.base64) || p.base64.length % 4 !== 0) throw new Error("bad");
    bin = atob(p.base64);
  } catch {
    fail(`${what} is not valid base64`);
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (bin.length !== 8 * count) fail(`${what} holds ${bin.length} bytes, not ${8 * count}`);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = view.getFloat64(8 * i, true);
    if (!(v >= 0.0 && v <= 1.0)) fail(`${what} holds values that are not chances`);
    out[i] = v;
  }
  return out;
}

export class TuttoWinTableN extends LoadedFile {
  constructor(d, fileRules, contentSha256, fail) {
    super("tutto-win", d, fileRules, contentSha256);
    const N = d.players, n = Math.floor(fileRules.target / POINT_UNIT);
    if (d.target_units !== n) fail("target_units does not fit the target");
    this.players = N;
    this.target = fileRules.target;
    this.units = n;
    this.marginCap = d.margin_cap_units * POINT_UNIT;
    this.immediate = fileRules.game_end === "immediate";
    this.M = n + d.margin_cap_units + 1;
    this._W = unpack(d.W, [N, ...new Array(N).fill(n), N], "W", fail);
    this._E = [];
    if (!this.immediate) {
      if (d.E.length !== N - 1) fail(`E must hold ${N - 1} end-phase tables`);
      for (let m = 1; m < N; m++) {
        const rows = this.M ** m * n ** (N - m); // seats m.. below the target, the others to the cap
        this._E.push(unpack(d.E[m - 1], [rows, N], `E[${m}]`, fail));
      }
    }
  }

  _scores(scores, bound, what) {
    const N = this.players;
    if (!Array.isArray(scores) || scores.length !== N || !scores.every((x) => Number.isInteger(x) && x >= 0)) {
      throw new RangeError(`scores must be the ${N} players' scores in points, not ${JSON.stringify(scores)}`);
    }
    return scores.map((x) => Math.min(Math.floor(x / POINT_UNIT), bound - 1));
  }

  /** Each player's chance to win (by seat) at the start of `seat`'s turn with `scores` (points, by
   * seat). `lastRound` (game end round): someone has reached the target and the round is being
   * finished, the seats from `seat` on have not moved since (scores past the cap count as the cap). */
  chances(seat, scores, lastRound = false) {
    const N = this.players, n = this.units;
    if (!(Number.isInteger(seat) && seat >= 0 && seat < N)) throw new RangeError(`seat must be 0 to ${N - 1}, not ${seat}`);
    if (!lastRound || this.immediate) {
      if (!Array.isArray(scores) || !scores.every((x) => Number.isInteger(x) && x >= 0 && x < this.target)) {
        throw new RangeError(`scores must be the ${N} players' scores, 0 to ${this.target - POINT_UNIT} points, not ${JSON.stringify(scores)}`);
      }
      const x = this._scores(scores, n);
      let i = seat;
      for (const v of x) i = i * n + v;
      return Array.from(this._W.subarray(i * N, i * N + N));
    }
    if (seat === 0) throw new RangeError("in the last round seat 0 has moved: the seats after the one who reached the target move");
    const x = this._scores(scores, this.M);
    if (x.slice(seat).some((v) => v >= n)) {
      throw new RangeError(`in the last round the seats from ${seat} on are below the target ${this.target}, not ${JSON.stringify(scores)}`);
    }
    let i = 0; // the rank among the end phase's states: seats before `seat` to the cap, the rest below the target
    x.forEach((v, q) => { i = i * (q < seat ? this.M : n) + v; });
    return Array.from(this._E[seat - 1].subarray(i * N, i * N + N));
  }
}

// ---------------------------------------------------------------------------
// The Macke / Volle Lotte win table (macke/win/table.py; docs/macke-win.md)
// ---------------------------------------------------------------------------

const MACKE_WIN_FIELDS = ["variant", "min_score", "throws", "bust", "target", "six_of_kind"];

/** The most points (units of 50) one series can set aside under `rules`: the best
 * multiset of the rules' units with at most n dice (macke/tables.py unit_types). */
export function mackeSeriesMax(rules) {
  const n = rules.variant === "volle-lotte" ? 6 : 5;
  const best = new Array(n + 1).fill(0); // best[c]: most points with at most c dice
  for (let c = 1; c <= n; c++) {
    for (const u of mackeUnitTypes(rules)) if (u.dice <= c) best[c] = Math.max(best[c], best[c - u.dice] + u.points);
  }
  return best[n];
}

export class MackeWinTable extends LoadedFile {
  constructor(d, fileRules, contentSha256, fail) {
    super("macke-win", d, fileRules, contentSha256);
    this.variant = fileRules.variant;
    const floor = d.floor_units * POINT_UNIT;
    if (floor % POINT_UNIT || !(floor >= -20000 && floor < 0)) {
      fail(`the floor must be a negative multiple of ${POINT_UNIT} from -20,000 to -${POINT_UNIT}, not ${floor}`);
    }
    if (fileRules.target > 20000) {
      fail(`the win solve takes targets up to 20,000, not ${fileRules.target.toLocaleString("en-US")}`);
    }
    const n = Math.floor(fileRules.target / POINT_UNIT) - d.floor_units;
    if (d.target_units !== Math.floor(fileRules.target / POINT_UNIT) || !(d.W.length === n && d.W.every((r) => r.length === n))) {
      fail(`W must be ${n} x ${n} for target ${fileRules.target.toLocaleString("en-US")} and floor ${floor.toLocaleString("en-US")}`);
    }
    const want = d.cap_units + mackeSeriesMax(fileRules) + 1;
    if (d.last_turn.length !== want) fail(`last_turn must have ${want} entries for its cap`);
    this.target = fileRules.target;
    this.floor = floor;
  }

  /** W: the chance that the player to move with `own` points against `other` wins (the seat does not
   * matter); scores below the floor count as the floor. */
  W(own, other) {
    const f = this.doc.floor_units;
    const n = this.doc.W.length;
    const [i, j] = [own, other].map((x) => Math.max(Math.floor(x / POINT_UNIT), f) - f);
    if (!(i < n && j < n)) throw new RangeError(`scores must be below the target ${this.target.toLocaleString("en-US")}`);
    return this.doc.W[i][j];
  }

  /** The best chance in the last turn (nachwerfen) when more than `need` points are needed to pass
   * the opponent (equal scores: one half). */
  lastTurn(need) {
    const L = this.doc.last_turn;
    const d = Math.floor(need / POINT_UNIT);
    if (d < 0) throw new RangeError(`need must be 0 points or more, not ${need}`);
    return L[Math.min(d, L.length - 1)];
  }
}

// ---------------------------------------------------------------------------
// The package's JSON Schemas (tutto_sim/*/schema/*.json), embedded so that the
// module stands alone; tests/web/test_policy_js.py checks they are the same.
// ---------------------------------------------------------------------------

// BEGIN SCHEMAS
const SCHEMAS = {
  "tutto": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://tutto-sim.invalid/policy.schema.json","title":"tutto-sim policy table, version 1 (Tutto)","description":"The optimal decisions of a Tutto turn for one set of rules. See docs/policy-format.md. Turn totals are in rows of point_unit points: row i is a turn total of i * point_unit; totals beyond the last row use the last row.","type":"object","required":["format","version","game","created_by","rules","rules_sha256","objective","point_unit","turn_total_rows","throws","keeps","keep","tutto_keep","bank","draw","street_take","x2_by_card_points","summary","content_sha256"],"additionalProperties":false,"$defs":{"keepRows":{"description":"One string per turn-total row; character i is the number of dice (0-6) to set aside from throw i (0 = bust).","type":"array","minItems":1,"items":{"type":"string","pattern":"^[0-6]+$"}},"keepRow":{"type":"string","pattern":"^[0-6]+$"},"bits":{"description":"One character per turn-total row: 1 = yes, 0 = no.","type":"string","pattern":"^[01]+$"},"bankByDice":{"description":"Dice left after setting aside (1-5) -> bank (1) or throw on (0), per turn-total row.","type":"object","required":["1","2","3","4","5"],"additionalProperties":false,"properties":{"1":{"$ref":"#/$defs/bits"},"2":{"$ref":"#/$defs/bits"},"3":{"$ref":"#/$defs/bits"},"4":{"$ref":"#/$defs/bits"},"5":{"$ref":"#/$defs/bits"}}},"bankableCards":{"type":"object","required":["bonus200","bonus300","bonus400","bonus500","bonus600","x2"],"propertyNames":{"enum":["bonus200","bonus300","bonus400","bonus500","bonus600","x2"]}},"sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"},"threshold":{"type":["integer","null"],"minimum":0}},"properties":{"format":{"const":"tutto-sim-policy"},"version":{"const":1},"game":{"const":"tutto"},"created_by":{"type":"string"},"rules":{"type":"object","required":["game","six_of_kind","x2_scope","plusminus_chain","plusminus_deduction","reshuffle","target","game_end","cloverleaf_value"],"additionalProperties":false,"properties":{"game":{"const":"tutto"},"six_of_kind":{"enum":["two-triples","one-triple"]},"x2_scope":{"enum":["turn","card"]},"plusminus_chain":{"enum":["continue","bank","flat"]},"plusminus_deduction":{"enum":["bank","tutto"]},"reshuffle":{"enum":["full","discard"]},"target":{"type":"integer","minimum":50,"multipleOf":50},"game_end":{"enum":["round","immediate"]},"cloverleaf_value":{"type":"integer","minimum":0,"multipleOf":50}}},"rules_sha256":{"$ref":"#/$defs/sha256"},"objective":{"type":"string"},"point_unit":{"const":50},"turn_total_rows":{"type":"integer","minimum":1},"throws":{"description":"Every throw of 1-6 dice as its sorted faces; a throw's id is its index here.","type":"array","minItems":923,"maxItems":923,"items":{"type":"string","pattern":"^[1-6]{1,6}$"}},"keeps":{"description":"Per throw id: the best keep for each number of dice that can be set aside: [dice, faces set aside, points].","type":"array","minItems":923,"maxItems":923,"items":{"type":"array","maxItems":6,"items":{"type":"array","minItems":3,"maxItems":3,"prefixItems":[{"type":"integer","minimum":1,"maximum":6},{"type":"string","pattern":"^[1-6]{1,6}$"},{"type":"integer","minimum":50,"multipleOf":50}]}}},"keep":{"description":"Bonus and x2 cards: dice to set aside, by turn total before the throw (row) and throw id (character).","allOf":[{"$ref":"#/$defs/bankableCards"}],"additionalProperties":{"$ref":"#/$defs/keepRows"}},"tutto_keep":{"description":"Plus/Minus and Kleeblatt (the keep most likely to reach a Tutto) and Feuerwerk (the forced keep): one row, the same for every turn total.","type":"object","required":["plusminus","cloverleaf","fireworks"],"additionalProperties":false,"properties":{"plusminus":{"$ref":"#/$defs/keepRow"},"cloverleaf":{"$ref":"#/$defs/keepRow"},"fireworks":{"$ref":"#/$defs/keepRow"}}},"bank":{"description":"Bonus and x2 cards: after setting aside, bank or throw on.","allOf":[{"$ref":"#/$defs/bankableCards"}],"additionalProperties":{"$ref":"#/$defs/bankByDice"}},"draw":{"description":"After a Tutto: draw another card (1) or bank (0), per turn-total row.","$ref":"#/$defs/bits"},"street_take":{"description":"street_take[m][j]: with m numbers set aside and j new numbers shown, set aside this many of them (the smallest first).","type":"array","minItems":7,"maxItems":7,"items":{"type":"array","minItems":7,"maxItems":7,"items":{"type":"integer","minimum":0,"maximum":6}}},"x2_by_card_points":{"description":"Only under x2_scope=card: the x2 decisions by the card's own points (index = points / point_unit).","oneOf":[{"type":"null"},{"type":"array","minItems":1,"items":{"type":"object","required":["keep","bank"],"additionalProperties":false,"properties":{"keep":{"$ref":"#/$defs/keepRows"},"bank":{"$ref":"#/$defs/bankByDice"}}}}]},"summary":{"description":"The compact policy: per-card EV and bank thresholds, draw_below, probabilities. Informative; the decisions above are binding.","type":"object","required":["turn_ev","p_tutto","p_street","draw_below","cards"],"properties":{"turn_ev":{"type":"number"},"p_tutto":{"type":"number","minimum":0,"maximum":1},"p_street":{"type":"number","minimum":0,"maximum":1},"draw_below":{"$ref":"#/$defs/threshold"},"cards":{"type":"object"}}},"content_sha256":{"description":"SHA-256 of the canonical JSON (sorted keys, no spaces, ASCII) of the decision fields: format, version, game, rules, rules_sha256, point_unit, turn_total_rows, throws, keeps, keep, tutto_keep, bank, draw, street_take, x2_by_card_points.","$ref":"#/$defs/sha256"}}},
  "macke": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://tutto-sim.invalid/macke-policy.schema.json","title":"tutto-sim policy table, version 1 (Berliner Macke / Volle Lotte)","description":"The optimal decisions of a Berliner Macke or Volle Lotte turn for one set of rules. See docs/macke-solver.md. Locked totals (points of earlier series of the turn) are in rows of point_unit points: row i is a locked total of i * point_unit; larger totals use the last row. Decision characters are indices in the alphabet 0-9a-zA-Z; '-' marks a throw with no scoring unit (a Macke).","type":"object","required":["format","version","game","created_by","rules","rules_sha256","objective","point_unit","dice","throws_per_series","units","states","throws","keeps","returns","locked_rows","keep","return","bank","clear","summary","content_sha256"],"additionalProperties":false,"$defs":{"indexRows":{"description":"One string per locked-total row; character i is a decision index (alphabet 0-9a-zA-Z), '-' for a Macke throw.","type":"array","minItems":1,"items":{"type":"string","pattern":"^[-0-9a-zA-Z]+$"}},"bits":{"type":"string","pattern":"^[01]+$"},"bitRows":{"description":"One string per locked-total row; character s is 1 (bank) or 0 (go on) with set-aside state s.","type":"array","minItems":1,"items":{"$ref":"#/$defs/bits"}},"byThrow":{"description":"Throw of the series (1-6) -> rows.","type":"object","propertyNames":{"pattern":"^[1-6]$"}},"sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"},"threshold":{"type":["integer","null"],"minimum":0}},"properties":{"format":{"const":"tutto-sim-policy"},"version":{"const":1},"game":{"const":"macke"},"created_by":{"type":"string"},"rules":{"type":"object","required":["game","variant","min_score","throws","bust","target","six_of_kind","win_value"],"additionalProperties":false,"properties":{"game":{"const":"macke"},"variant":{"enum":["standard","instant-win","jackpot","ones-and-fives","volle-lotte"]},"min_score":{"type":"integer","minimum":0,"multipleOf":50},"throws":{"type":"integer","minimum":1,"maximum":6},"bust":{"enum":["subtract","zero"]},"target":{"type":"integer","minimum":50,"multipleOf":50},"six_of_kind":{"enum":["two-triples","one-triple"]},"win_value":{"type":"integer","minimum":0,"multipleOf":50}}},"rules_sha256":{"$ref":"#/$defs/sha256"},"objective":{"type":"string"},"point_unit":{"const":50},"dice":{"enum":[5,6]},"throws_per_series":{"type":"integer","minimum":1,"maximum":6},"units":{"description":"The unit types: [name, dice, points]. A set-aside state counts units of each type.","type":"array","minItems":2,"items":{"type":"array","minItems":3,"maxItems":3,"prefixItems":[{"type":"string"},{"type":"integer","minimum":1,"maximum":6},{"type":"integer","minimum":50,"multipleOf":50}]}},"states":{"description":"Every set-aside state (a multiset of units with at most `dice` dice) as its count of each unit type; a state's id is its index here.","type":"array","minItems":2,"items":{"type":"array","items":{"type":"integer","minimum":0,"maximum":6}}},"throws":{"description":"Every throw of 1..dice dice as its sorted faces; a throw's id is its index here (dice count ascending).","type":"array","minItems":1,"items":{"type":"string","pattern":"^[1-6]{1,6}$"}},"keeps":{"description":"Per throw id: the legal keeps (state ids of the units set aside), in order; a keep decision is an index into this list; an empty list is a Macke.","type":"array","minItems":1,"items":{"type":"array","items":{"type":"integer","minimum":0}}},"returns":{"description":"Per state id: the states that can stay set aside when units are returned (the state itself first); a return decision is an index into this list.","type":"array","minItems":2,"items":{"type":"array","minItems":1,"items":{"type":"integer","minimum":0}}},"locked_rows":{"type":"integer","minimum":1},"keep":{"description":"Throw j of a series -> rows. For j = 1 nothing is set aside and character i is the keep for throw i of `dice` dice (the throws of that many dice in id order); for j >= 2 the characters run over the states s with fewer than `dice` dice, in id order, and within each over the throws of dice - dice(s) dice in id order.","allOf":[{"$ref":"#/$defs/byThrow"}],"additionalProperties":{"$ref":"#/$defs/indexRows"}},"return":{"description":"Throw j >= 2 of a series -> rows: before that throw, character s is the index into returns[s] of the units kept set aside (0: return nothing).","allOf":[{"$ref":"#/$defs/byThrow"}],"additionalProperties":{"$ref":"#/$defs/indexRows"}},"bank":{"description":"Throw j < throws_per_series of a series -> rows: after setting aside, with state s set aside (not all dice), bank (1) or go on (0).","allOf":[{"$ref":"#/$defs/byThrow"}],"additionalProperties":{"$ref":"#/$defs/bitRows"}},"clear":{"description":"After a clear, by turn total (character i: total i * point_unit; larger totals use the last character): bank (1) or start a new series (0).","$ref":"#/$defs/bits"},"summary":{"description":"The compact policy: EV, outcome probabilities, bank thresholds. Informative; the decisions above are binding.","type":"object","required":["turn_ev","p_positive","p_negative","p_zero","bank_thresholds","clear_bank_at"],"properties":{"turn_ev":{"type":"number"},"p_positive":{"type":"number","minimum":0,"maximum":1},"p_negative":{"type":"number","minimum":0,"maximum":1},"p_zero":{"type":"number","minimum":0,"maximum":1},"bank_thresholds":{"type":"object"},"clear_bank_at":{"$ref":"#/$defs/threshold"}}},"content_sha256":{"description":"SHA-256 of the canonical JSON (sorted keys, no spaces, ASCII) of the decision fields: format, version, game, rules, rules_sha256, point_unit, dice, throws_per_series, units, states, throws, keeps, returns, locked_rows, keep, return, bank, clear.","$ref":"#/$defs/sha256"}}},
  "rutsmieter": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://tutto-sim.invalid/rutsmieter-policy.schema.json","title":"tutto-sim policy file, version 1 (Rutsmieter linear move evaluator)","description":"The weights of Rutsmieter's linear move evaluator (bot weights:FILE) for one set of house rules: one weight set, and optionally one per table size (weights_by_players), which the bot picks by the table. A move's score is the sum over the features of weight times feature value; the bot makes the legal move with the highest score, ties going to the piece furthest along. The features are documented in docs/rutsmieter.md; a file may give the first seven only (the others then weigh 0).","type":"object","required":["format","version","game","created_by","rules","rules_sha256","evaluator","features","weights","content_sha256"],"additionalProperties":false,"$defs":{"sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"},"feature":{"enum":["progress","capture","danger_behind","danger_ahead","leave_house","enter_goal","block_start","capture_progress","capture_leader","risk_progress","start_danger","next_danger","goal_loose","own_progress","own_goal","own_house","own_threatened","opp_progress","lead_progress","lead_goal","opp_house","opp_risk"]},"weights":{"description":"Feature -> weight (finite numbers), one for each of the file's features. The first seven are required in every file.","type":"object","required":["progress","capture","danger_behind","danger_ahead","leave_house","enter_goal","block_start"],"propertyNames":{"$ref":"#/$defs/feature"},"additionalProperties":{"type":"number","minimum":-1000000,"maximum":1000000}}},"properties":{"format":{"const":"tutto-sim-policy"},"version":{"const":1},"game":{"const":"rutsmieter"},"created_by":{"type":"string"},"rules":{"type":"object","required":["game","players","must_leave_house","must_capture","goal_no_jump","play_to_third"],"additionalProperties":false,"properties":{"game":{"const":"rutsmieter"},"players":{"enum":[2,3,4]},"must_leave_house":{"type":"boolean"},"must_capture":{"type":"boolean"},"goal_no_jump":{"type":"boolean"},"play_to_third":{"type":"boolean"}}},"rules_sha256":{"$ref":"#/$defs/sha256"},"evaluator":{"const":"linear-move-evaluator"},"features":{"description":"The features in the order of the weights: all of them, or the first seven.","type":"array","minItems":7,"maxItems":22,"uniqueItems":true,"items":{"$ref":"#/$defs/feature"}},"weights":{"$ref":"#/$defs/weights"},"weights_by_players":{"description":"A weight set per table size (\"2\", \"3\", \"4\"); the bot plays the one of its table, else weights.","type":"object","propertyNames":{"enum":["2","3","4"]},"additionalProperties":{"$ref":"#/$defs/weights"}},"summary":{"type":"object"},"content_sha256":{"$ref":"#/$defs/sha256"}}},
  "tutto-win": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://tutto-sim.invalid/win-policy.schema.json","title":"tutto-sim win table, version 1 (Tutto, two players)","description":"The chance to win at the start of every turn of a two-player Tutto game when both players play to win (docs/win.md). Scores are in units of point_unit points. W[seat][own][other]: the chance of the player to move in seat 0 (moves first in every round) or 1, with own and other points below the target. last_turn[row][m + 1]: seat 1's chance in its last turn m units behind (row 0: seat 1 has 0 points, row 1: more); the last entry counts for every larger margin. Decisions inside a turn follow from one turn's dynamic programme with these values at its leaves.","type":"object","required":["format","version","game","kind","win_table_version","created_by","rules","rules_sha256","objective","point_unit","target_units","margin_cap_units","W","last_turn","summary","content_sha256"],"additionalProperties":false,"$defs":{"chance":{"type":"number","minimum":0,"maximum":1},"row":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/chance"}}},"properties":{"format":{"const":"tutto-sim-policy"},"version":{"const":1},"game":{"const":"tutto"},"kind":{"const":"win-table"},"win_table_version":{"const":1},"created_by":{"type":"string"},"rules":{"type":"object"},"rules_sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"},"objective":{"type":"string"},"point_unit":{"const":50},"target_units":{"type":"integer","minimum":1},"margin_cap_units":{"type":"integer","minimum":0},"W":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/row"}}},"last_turn":{"type":"array","minItems":2,"maxItems":2,"items":{"$ref":"#/$defs/row"}},"summary":{"type":"object"},"content_sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"}}},
  "macke-win": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://tutto-sim.invalid/macke-win-policy.schema.json","title":"tutto-sim win table, version 1 (Berliner Macke and Volle Lotte, two players)","description":"The chance to win at the start of every turn of a two-player Berliner Macke or Volle Lotte game when both players play to win (docs/macke-win.md). Scores are in units of point_unit points; scores below the floor (floor_units) are held at it. W[own - floor][other - floor]: the chance of the player to move with own points against the opponent's other points, both from the floor to below the target; the seat does not matter. last_turn[d]: the best chance in the last turn (nachwerfen) when the player needs more than d units to pass the opponent (equal: one half); the last entry counts for every larger d. A clear at cap_units or more is banked. Decisions inside a turn follow from one turn's dynamic programme with these values at its leaves.","type":"object","required":["format","version","game","kind","win_table_version","created_by","rules","rules_sha256","objective","point_unit","target_units","floor_units","cap_units","W","last_turn","summary","content_sha256"],"additionalProperties":false,"$defs":{"chance":{"type":"number","minimum":0,"maximum":1},"row":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/chance"}}},"properties":{"format":{"const":"tutto-sim-policy"},"version":{"const":1},"game":{"const":"macke"},"kind":{"const":"win-table"},"win_table_version":{"const":1},"created_by":{"type":"string"},"rules":{"type":"object"},"rules_sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"},"objective":{"type":"string"},"point_unit":{"const":50},"target_units":{"type":"integer","minimum":1},"floor_units":{"type":"integer","maximum":-1},"cap_units":{"type":"integer","minimum":1},"W":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/row"}},"last_turn":{"$ref":"#/$defs/row"},"summary":{"type":"object"},"content_sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"}}},
  "tutto-win-n": {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://tutto-sim.invalid/win-policy-n.schema.json","title":"tutto-sim win table, version 2 (Tutto, N players)","description":"Each player's chance to win at the start of every turn of a Tutto game of N players when everyone plays to win (docs/win.md). Scores in units of point_unit points. W: float64 little-endian, base64, shape [N, n, ..., n, N] (n = target_units): W[s, x_0, ..., x_{N-1}, p] is the chance of seat p at the start of seat s's turn with scores x (all below the target; seat 0 moves first in every round). E (game end round): for seat m = 1 .. N-1, the end phase (the round being finished) at the start of seat m's turn, one row of N chances per scores x with x_m .. x_{N-1} below the target and every score below target_units + margin_cap_units + 1, in increasing order of the index of x in base target_units + margin_cap_units + 1. Decisions inside a turn follow from one turn's dynamic programme with these values at its leaves.","type":"object","required":["format","version","game","kind","win_table_version","created_by","rules","rules_sha256","objective","players","point_unit","target_units","margin_cap_units","W","E","summary","content_sha256"],"additionalProperties":false,"$defs":{"packed":{"type":"object","required":["shape","dtype","base64"],"additionalProperties":false,"properties":{"shape":{"type":"array","items":{"type":"integer","minimum":0}},"dtype":{"const":"float64-le"},"base64":{"type":"string"}}}},"properties":{"format":{"const":"tutto-sim-policy"},"version":{"const":1},"game":{"const":"tutto"},"kind":{"const":"win-table"},"win_table_version":{"const":2},"created_by":{"type":"string"},"rules":{"type":"object"},"rules_sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"},"objective":{"type":"string"},"players":{"type":"integer","minimum":2,"maximum":4},"point_unit":{"const":50},"target_units":{"type":"integer","minimum":1},"margin_cap_units":{"type":"integer","minimum":0},"W":{"$ref":"#/$defs/packed"},"E":{"type":"array","items":{"$ref":"#/$defs/packed"}},"summary":{"type":"object"},"content_sha256":{"type":"string","pattern":"^[0-9a-f]{64}$"}}}
};
// END SCHEMAS

// ---------------------------------------------------------------------------
// Reading a file: the checks every policy file passes (core/policyfile.py)
// ---------------------------------------------------------------------------

const EXPECTED_GAME = { tutto: "tutto", macke: "macke", rutsmieter: "rutsmieter", "tutto-win": "tutto",
  "macke-win": "macke" };
const WIN_GAMES = { "tutto-win": "tutto", "macke-win": "macke" };

function decodeSource(source, name) {
  if (typeof source === "string") return source;
  let bytes = source;
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) throw new TypeError("loadPolicy: source must be a string, Uint8Array or ArrayBuffer");
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new PolicyError(`policy file ${name} is damaged or not a policy file (not UTF-8 text)`, "not-utf8");
  }
}

async function readPolicyFile(source, game, name, callerRules) {
  const text = decodeSource(source, name);
  let raw;
  try {
    // Python reads text files with universal newlines
    raw = parseRawJson(text.replace(/\r\n?/g, "\n"));
  } catch (e) {
    if (e instanceof JsonSyntaxError) {
      throw new PolicyError(`policy file ${name} is damaged or truncated (not valid JSON: ${e.message})`, "not-json");
    }
    if (e instanceof RangeError) {
      throw new PolicyError(`policy file ${name} is damaged (JSON nested or sized beyond any policy)`, "not-json");
    }
    throw e;
  }
  const d = toValue(raw);
  if (WIN_GAMES[game] && isType(d, "object") && Object.hasOwn(d, "kind") && d.kind !== null && d.kind !== "win-table") {
    const how = game === "tutto-win"
      ? `export one with: tutto-sim solve --objective win${d.win_table_version === 2 || Object.hasOwn(d, "players") ? " --players N" : ""}`
      : "write one with: tutto-sim solve --objective win --game macke";
    throw new PolicyError(`${name} is not a win table (kind ${pyRepr(d.kind)}; ${how})`, "kind");
  }
  if (!isType(d, "object") || d.format !== FORMAT) {
    throw new PolicyError(`${name} is not a tutto-sim policy file (format must be '${FORMAT}')`, "format");
  }
  if (d.version !== VERSION && d.version !== true) { // Python: True == 1
    throw new PolicyError(`policy file ${name} has version ${pyRepr(d.version)}; this tutto-sim reads version ${VERSION}`, "version");
  }
  if (d.game !== EXPECTED_GAME[game]) {
    throw new PolicyError(`policy file ${name} is for game ${pyRepr(d.game)}, not ${EXPECTED_GAME[game]}`, "game");
  }
  // a Tutto win table of N players is version 2 of the win table (tutto/win/table.py)
  // (a table that names its players is read as one, whatever its version says, as Python's loader does)
  const form = game === "tutto-win" && (d.win_table_version === 2 || Object.hasOwn(d, "players"))
    ? "tutto-win-n" : game;
  const bad = schemaError(SCHEMAS[form], d);
  if (bad) throw new PolicyError(`policy file ${name} does not match the schema at ${bad[0]}: ${bad[1]}`, "schema");
  const contentSha256 = await contentHash(raw, form);
  if (contentSha256 !== d.content_sha256) {
    throw new PolicyError(`policy file ${name} was changed or damaged: its content hash does not match`, "content-hash");
  }
  // the rules: valid (the schema checks them, except in win tables), then their hash
  let fileRules = d.rules;
  if (WIN_GAMES[game]) {
    const [r, why] = checkedRules(WIN_GAMES[game], d.rules);
    if (why) throw new PolicyError(`policy file ${name} has invalid rules: ${why}`, "invalid-rules");
    fileRules = r;
  }
  if ((await sha256Hex(canonicalJson(fileRules))) !== d.rules_sha256) {
    throw new PolicyError(`policy file ${name}: rules_sha256 does not match its rules`, "rules-hash");
  }
  return { d, fileRules, contentSha256 };
}

function otherRules(callerRules, fileRules, fields) {
  // fields: the rule fields that matter; "field=caller (file: file's)" for each that differs
  const diff = [];
  for (const k of fields) {
    if (Object.hasOwn(callerRules, k) && !jsonEqual(callerRules[k], fileRules[k])) {
      diff.push(`${k}=${pyRepr(callerRules[k])} (file: ${pyRepr(fileRules[k])})`);
    }
  }
  return diff.join(", ");
}

/**
 * Load and check a policy file. `source`: its text or bytes. Options:
 * `game` ("tutto", "macke" (also Volle Lotte), "rutsmieter", "tutto-win", "macke-win" (also Volle Lotte)),
 * `rules` (the rules you play, as in the file's `rules`; a file made for others
 * is refused), `name` (stands for the path in messages), `players` ("tutto-win": the table size
 * asked for; a table of another size is refused; without it either size is read, two players as
 * a TuttoWinTable, three or four, version 2, as a TuttoWinTableN).
 */
export async function loadPolicy(source, { game, rules = null, name = "<policy>", players = null } = {}) {
  if (!GAMES.includes(game)) throw new TypeError(`loadPolicy: game must be one of ${GAMES.join(", ")}, not ${game}`);
  const { d, fileRules, contentSha256 } = await readPolicyFile(source, game, name, rules);
  const fail = (msg) => {
    throw new PolicyError(`policy file ${name}: ${msg}`, "tables");
  };
  if (game === "tutto") {
    if (rules) {
      const diff = otherRules(rules, d.rules, Object.keys(d.rules).filter((k) => k !== "game").concat(
        Object.keys(rules).filter((k) => !Object.hasOwn(d.rules, k) && k !== "game")));
      if (diff) throw new PolicyError(`policy file ${name} was solved for other rules: ${diff}`, "other-rules");
    }
    return new TuttoPolicy(d, contentSha256, fail);
  }
  if (game === "macke") {
    if (rules) {
      const diff = otherRules(rules, d.rules, Object.keys(d.rules).filter((k) => k !== "game"));
      if (diff) throw new PolicyError(`policy file ${name} was solved for other rules: ${diff}`, "other-rules");
    }
    return new MackePolicy(d, contentSha256, fail);
  }
  if (game === "rutsmieter") {
    if (rules) {
      const diff = otherRules(rules, d.rules, Object.keys(d.rules).filter((k) => k !== "game" && k !== "players"));
      if (diff) throw new PolicyError(`policy file ${name} was made for other rules: ${diff}`, "other-rules");
    }
    return new RutsmieterPolicy(d, contentSha256, fail, rules);
  }
  // a win table: checked, then compared on the rule fields it depends on
  const size = game === "tutto-win" ? (d.win_table_version === 2 ? d.players : 2) : null;
  if (players !== null && size !== null && size !== players) {
    throw new PolicyError(`win table ${name} is for ${size} players, not ${players}`, "players");
  }
  const p = game === "macke-win" ? new MackeWinTable(d, fileRules, contentSha256, fail)
    : d.win_table_version === 2 ? new TuttoWinTableN(d, fileRules, contentSha256, fail)
      : new TuttoWinTable(d, fileRules, contentSha256, fail);
  if (rules) {
    const full = { ...RULES[WIN_GAMES[game]].defaults, ...rules };
    const fields = game === "macke-win" ? MACKE_WIN_FIELDS : WIN_FIELDS;
    const wrong = fields.filter((f) => !jsonEqual(full[f], fileRules[f]))
      .map((f) => `${f}=${pyRepr(full[f])} (file: ${pyRepr(fileRules[f])})`);
    if (wrong.length) throw new PolicyError(`win table ${name} was solved for other rules: ${wrong.join(", ")}`, "other-rules");
  }
  return p;
}

/** Read `pathOrUrl` (node: the file system; browser: fetch) and load it; messages name it. */
export async function loadPolicyFile(pathOrUrl, opts = {}) {
  const name = opts.name ?? String(pathOrUrl);
  let bytes;
  const isNode = typeof process !== "undefined" && process.versions && process.versions.node;
  const isUrl = /^(https?|file|blob|data):/.test(String(pathOrUrl)) || typeof pathOrUrl === "object";
  if (isNode && !(isUrl && /^(https?|blob|data):/.test(String(pathOrUrl)))) {
    const fs = await import("node:fs/promises");
    try {
      bytes = new Uint8Array(await fs.readFile(pathOrUrl instanceof URL || /^file:/.test(String(pathOrUrl)) ? new URL(pathOrUrl) : pathOrUrl));
    } catch (e) {
      throw new PolicyError(`cannot read policy file ${name}: ${e.code === "ENOENT" ? "No such file or directory" : e.message}`, "unreadable");
    }
  } else {
    let resp;
    try {
      resp = await fetch(pathOrUrl);
    } catch (e) {
      throw new PolicyError(`cannot read policy file ${name}: ${e.message}`, "unreadable");
    }
    if (!resp.ok && resp.status !== 0) throw new PolicyError(`cannot read policy file ${name}: HTTP ${resp.status}`, "unreadable");
    bytes = new Uint8Array(await resp.arrayBuffer());
  }
  return loadPolicy(bytes, { ...opts, name });
}

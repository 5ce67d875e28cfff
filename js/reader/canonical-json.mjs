// ---------------------------------------------------------------------------
// Canonical JSON, byte for byte as Python's
// json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
// ---------------------------------------------------------------------------

import { numberValue, rawGet, RawNumber, RawObject } from "./raw-json.mjs";

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

// ---------------------------------------------------------------------------
// Reading a file: the checks every policy file passes (core/policyfile.py)
// ---------------------------------------------------------------------------

import { FORMAT, GAMES, PolicyError, VERSION } from "./base.mjs";
import { JsonSyntaxError, parseRawJson, toValue } from "./raw-json.mjs";
import { canonicalJson, contentHash, sha256Hex } from "./canonical-json.mjs";
import { pyRepr } from "./repr.mjs";
import { isType, jsonEqual, schemaError } from "./schema.mjs";
import { checkedRules } from "./rules.mjs";
import { TuttoPolicy } from "./tutto.mjs";
import { MackePolicy } from "./macke.mjs";
import { RutsmieterPolicy } from "./rutsmieter.mjs";
import { TuttoWinTable, WIN_FIELDS } from "./tutto-win.mjs";
import { TuttoWinTableN } from "./tutto-win-n.mjs";
import { MACKE_WIN_FIELDS, MackeWinTable } from "./macke-win.mjs";
import { SCHEMAS } from "./schemas.mjs";

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

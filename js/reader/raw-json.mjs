// ---------------------------------------------------------------------------
// JSON as Python reads it: numbers keep their lexeme (int or float), objects
// keep every key; `toValue` turns the raw tree into plain JavaScript values.
// ---------------------------------------------------------------------------

export class RawNumber {
  constructor(lexeme, isFloat) {
    this.lexeme = lexeme;
    this.isFloat = isFloat;
  }
}
export class RawObject {
  constructor(entries) {
    this.entries = entries; // [key, value] in file order, duplicates kept
  }
}

export class JsonSyntaxError extends Error {}

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

export function numberValue(r) {
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

export function rawGet(raw, key) {
  let found;
  for (const [k, v] of raw.entries) if (k === key) found = v;
  return found;
}

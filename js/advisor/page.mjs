// The advisor's shared helpers: the manifest and its tables, the fields, the words.

import { loadPolicy } from "../reader/policy.mjs";

export const $ = (id) => document.getElementById(id);
export const manifest = globalThis.ADVISOR_MANIFEST || { games: {}, tables: [] };
const loaded = new Map(); // table id -> Promise of the reader's policy

// ---- words ----------------------------------------------------------------
/** 1234 -> "1,234" (the reports' style). */
export function pts(n) {
  return Math.round(n).toLocaleString("en-US");
}
export const pct = (x) => (100 * x).toFixed(1) + "%";
export const diceWord = (n) => (n === 1 ? "1 die" : `${n} dice`);
export const dashes = (faces) => String(faces).split("").join("-");

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
}

export class InputError extends Error {}

/** The dice of a throw typed as "1 5 5 2", "1552" or "1,5,5,2": faces 1-6. */
export function parseDice(text, min, max) {
  const faces = String(text).replace(/[\s,;\-+]/g, "");
  if (!/^[1-6]*$/.test(faces)) {
    throw new InputError(`the throw must be dice faces 1 to 6 (e.g. 1 5 5 2 3 4), not "${text.trim()}"`);
  }
  if (faces.length < min || faces.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw new InputError(`the throw must have ${want} dice, not ${faces.length}`);
  }
  return faces.split("").map(Number);
}

export function points(text, what, { step = 50, min = 0, max = 1_000_000 } = {}) {
  const n = Number(text);
  if (String(text).trim() === "" || !Number.isInteger(n) || n < min || n > max || n % step) {
    const range = min === 0 ? "from 0" : `from ${pts(min)} to ${pts(max)}`;
    throw new InputError(`${what} must be a whole number of points ${range} in steps of ${step}, not "${text}"`);
  }
  return n;
}

// ---- page state -----------------------------------------------------------
export function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}
export function setStatus(text) {
  $("status").textContent = text;
}
export function setAdvice(nodes, data = {}) {
  const body = $("advice-body");
  body.replaceChildren(...nodes);
  for (const a of [...body.attributes]) if (a.name.startsWith("data-")) body.removeAttribute(a.name);
  for (const [k, v] of Object.entries(data)) body.setAttribute(`data-${k}`, String(v));
  $("advice").hidden = nodes.length === 0;
}

export const tablesOf = (game, kind = "turn") => manifest.tables.filter((t) => t.game === game && t.kind === kind);
export const tableById = (id) => manifest.tables.find((t) => t.id === id);

/** The reader's policy for a table of the manifest (its script is loaded on first use). */
export function policyOf(table) {
  if (!loaded.has(table.id)) {
    loaded.set(table.id, (async () => {
      const files = (globalThis.ADVISOR_FILES ||= {});
      if (files[table.id] === undefined) {
        await new Promise((resolve, reject) => {
          const s = document.createElement("script");
          s.src = table.script;
          s.onload = resolve;
          s.onerror = () => reject(new Error(`cannot load ${table.script}`));
          document.head.append(s);
        });
      }
      if (files[table.id] === undefined) throw new Error(`${table.script} does not hold ${table.file}`);
      return loadPolicy(files[table.id], { game: table.reader_game, rules: table.rules, name: table.file });
    })());
  }
  return loaded.get(table.id);
}

export function fillSelect(select, items) {
  select.replaceChildren(...items.map(([value, text]) => el("option", { value, textContent: text })));
}

/** The win tables to choose from, none first. */
export function fillWinTables(select, wins) {
  fillSelect(select, [["", "none (points only)"], ...wins.map((w) => [w.id, `to ${pts(w.target)} points: ${w.rules_words}`])]);
}

/** The chances to win as a table ([when, chance or null] rows), and what they are not. */
export function chanceTable(target, rows, note = null) {
  return [el("table", {},
    el("caption", { class: "small", textContent: `Your chance to win, two players to ${pts(target)} (win table; both play to win)` }),
    el("tr", {}, el("th", { textContent: "when" }), el("th", { class: "num", textContent: "chance to win" })),
    ...rows.map(([what, x]) => el("tr", {}, el("td", { textContent: what }), el("td", { class: "num", textContent: x === null ? "" : pct(x) })))),
  ...(note ? [el("p", { class: "small", textContent: note })] : [])];
}

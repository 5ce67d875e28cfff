// Generated from js/advisor/*.mjs by scripts/bundle_js.py: do not edit; edit the sources and run it.
// The strategy advisor page (tutto-sim advisor). An ES module: every answer
// comes from the JavaScript policy reader, which checks each table before it
// is used; this file only reads the form, asks the reader and words the answer
// as the cheat sheets do. This entry chooses the game and the table and asks
// on submit; page.mjs holds the shared helpers, and each game's form has a module.

import { BANKABLE, FIRST_GOAL, HOUSE, legalMoves, loadPolicy, ownPosition, PolicyError, RING, ringSquare, RUTSMIETER_FEATURES, rutsmieterValueWords } from "./policy.mjs";

// The advisor's shared helpers: the manifest and its tables, the fields, the words.

const $ = (id) => document.getElementById(id);
const manifest = globalThis.ADVISOR_MANIFEST || { games: {}, tables: [] };
const loaded = new Map(); // table id -> Promise of the reader's policy

// ---- words ----------------------------------------------------------------
/** 1234 -> "1,234" (the reports' style). */
function pts(n) {
  return Math.round(n).toLocaleString("en-US");
}
const pct = (x) => (100 * x).toFixed(1) + "%";
const diceWord = (n) => (n === 1 ? "1 die" : `${n} dice`);
const dashes = (faces) => String(faces).split("").join("-");

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c);
  return e;
}

class InputError extends Error {}

/** The dice of a throw typed as "1 5 5 2", "1552" or "1,5,5,2": faces 1-6. */
function parseDice(text, min, max) {
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

function points(text, what, { step = 50, min = 0, max = 1_000_000 } = {}) {
  const n = Number(text);
  if (String(text).trim() === "" || !Number.isInteger(n) || n < min || n > max || n % step) {
    const range = min === 0 ? "from 0" : `from ${pts(min)} to ${pts(max)}`;
    throw new InputError(`${what} must be a whole number of points ${range} in steps of ${step}, not "${text}"`);
  }
  return n;
}

// ---- page state -----------------------------------------------------------
function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}
function setStatus(text) {
  $("status").textContent = text;
}
function setAdvice(nodes, data = {}) {
  const body = $("advice-body");
  body.replaceChildren(...nodes);
  for (const a of [...body.attributes]) if (a.name.startsWith("data-")) body.removeAttribute(a.name);
  for (const [k, v] of Object.entries(data)) body.setAttribute(`data-${k}`, String(v));
  $("advice").hidden = nodes.length === 0;
}

const tablesOf = (game, kind = "turn") => manifest.tables.filter((t) => t.game === game && t.kind === kind);
const tableById = (id) => manifest.tables.find((t) => t.id === id);

/** The reader's policy for a table of the manifest (its script is loaded on first use). */
function policyOf(table) {
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

function fillSelect(select, items) {
  select.replaceChildren(...items.map(([value, text]) => el("option", { value, textContent: text })));
}

/** The win tables to choose from, none first. */
function fillWinTables(select, wins) {
  fillSelect(select, [["", "none (points only)"], ...wins.map((w) => [w.id, `to ${pts(w.target)} points: ${w.rules_words}`])]);
}

/** The chances to win as a table ([when, chance or null] rows), and what they are not. */
function chanceTable(target, rows, note = null) {
  return [el("table", {},
    el("caption", { class: "small", textContent: `Your chance to win, two players to ${pts(target)} (win table; both play to win)` }),
    el("tr", {}, el("th", { textContent: "when" }), el("th", { class: "num", textContent: "chance to win" })),
    ...rows.map(([what, x]) => el("tr", {}, el("td", { textContent: what }), el("td", { class: "num", textContent: x === null ? "" : pct(x) })))),
  ...(note ? [el("p", { class: "small", textContent: note })] : [])];
}

// The advisor's Berliner Macke / Volle Lotte form: keep, bank, return; the chances to win.

const MACKE_WIN_NOTE = "The advice above is the points table's (the most points per turn); the win table gives the chances, and playing to win may bank or throw on elsewhere.";

function parseUnits(p, text) {
  const names = p.doc.units.map((u) => u[0]);
  const cleaned = String(text).toLowerCase().replace(/nothing/g, "").trim();
  if (!cleaned) return p.emptyState;
  const found = cleaned.match(/small straight|big straight|[0-9]+/g) || [];
  const rest = cleaned.replace(/small straight|big straight|[0-9]+|[\s,+]/g, "");
  const bad = found.filter((u) => !names.includes(u));
  if (rest || bad.length) {
    throw new InputError(`set aside: units are ${names.join(", ")} (e.g. 1 + 5), not "${text.trim()}"`);
  }
  const id = p.stateId(found);
  if (id === undefined || id === null || id < 0) throw new InputError(`"${text.trim()}" cannot be set aside in one series`);
  return id;
}

async function adviseMacke(p) {
  const locked = points($("macke-locked").value, "the locked points");
  const aside = parseUnits(p, $("macke-aside").value);
  const throwOfSeries = Number($("macke-throw").value);
  const free = p.nDice - p.stateDice(aside);
  const dice = parseDice($("macke-dice").value, free, free);
  const keep = p.keep({ locked, aside, throwOfSeries, dice });
  const data = { aside, throw: throwOfSeries, dice: dice.join("") };
  const out = [];
  const win = $("macke-win-table").value;
  if (keep === null) {
    data.keep = "macke";
    const first = locked === 0 && throwOfSeries === 1 && aside === p.emptyState;
    out.push(el("p", { class: "verdict bank", textContent: "Macke: nothing scores." }));
    out.push(el("p", { textContent: first ? "On the turn's first throw a Macke costs nothing." : (p.rules.bust === "zero" ? "The turn scores 0." : "The turn total is subtracted.") }));
    if (win) out.push(...await mackeWinLines(tableById(win), null, data));
    return [out, data];
  }
  data.keep = keep.state;
  const now = p.add(aside, keep.state);
  const total = locked + p.statePoints(now);
  data.total = total;
  out.push(el("p", { class: "verdict on", textContent: `Set aside ${p.stateName(keep.state)}.` }));
  const steps = el("ul", { class: "steps" });
  out.push(steps);
  const left = p.nDice - p.stateDice(now);
  steps.append(el("li", { textContent: `Aside in this series: ${p.stateName(now)}; turn total ${pts(total)}, ${left ? `${diceWord(left)} left` : `all ${p.nDice} dice aside (a clear)`}.` }));
  if (left === 0) {
    const bank = p.bank({ locked, aside: now, throwOfSeries });
    data.bank = bank ? "bank" : "on";
    steps.append(el("li", { class: `verdict ${bank ? "bank" : "on"}`, textContent: bank ? `Clear! Bank ${pts(total)}.` : `Clear! Throw all ${p.nDice} dice again (a fresh series of ${p.throwsPerSeries} throws; these points stay locked).` }));
    const at = p.summary && p.summary.clear_bank_at;
    if (at) steps.append(el("li", { class: "small", textContent: `After a clear: bank at ≥ ${pts(at)}, else throw all ${p.nDice} dice again.` }));
  } else if (throwOfSeries >= p.throwsPerSeries) {
    data.bank = "end";
    const min = p.rules.min_score;
    steps.append(el("li", { class: "verdict bank", textContent: `After throw ${throwOfSeries} the turn ends by itself: ${pts(total)} is ${total >= min ? "added" : "subtracted"} (minimum ${pts(min)}).` }));
  } else {
    const bank = p.bank({ locked, aside: now, throwOfSeries });
    data.bank = bank ? "bank" : "on";
    if (bank) {
      steps.append(el("li", { class: "verdict bank", textContent: `Then bank ${pts(total)}.` }));
    } else {
      const back = p.returnUnits({ locked, aside: now, throwOfSeries: throwOfSeries + 1 });
      data.return = back;
      const thrown = p.nDice - p.stateDice(back);
      steps.append(el("li", { class: "verdict on", textContent: back === now ? `Then throw on with ${diceWord(thrown)}.` : back === p.emptyState ? `Then, before throw ${throwOfSeries + 1}, return everything to the cup and throw all ${p.nDice} dice.` : `Then, before throw ${throwOfSeries + 1}, return units to the cup: keep only ${p.stateName(back)} aside and throw ${diceWord(thrown)}.` }));
    }
  }
  if (p.summary && p.summary.turn_ev !== undefined) {
    out.push(el("p", { class: "small", textContent: `A turn is worth ${p.summary.turn_ev.toFixed(2)} points with this play.` }));
  }
  if (win) out.push(...await mackeWinLines(tableById(win), total, data));
  return [out, data];
}

/** Chances to win from a Macke / Volle Lotte win table: at the start of this turn
 * and, after a keep, if the turn ended now with its total (added at or above the
 * minimum score, else subtracted). */
async function mackeWinLines(t, total, data) {
  const w = await policyOf(t);
  const own = points($("macke-own").value, "your score", { min: -1_000_000, max: w.target - 50 });
  const other = points($("macke-other").value, "the opponent's score", { min: -1_000_000, max: w.target - 50 });
  const start = w.W(own, other);
  data.win = start;
  const rows = [["at the start of this turn", start]];
  if (total !== null) {
    const banked = own + (total >= w.rules.min_score ? total : -total);
    if (banked < w.target) {
      const bank = 1 - w.W(other, banked);
      data["win-bank"] = bank;
      rows.push([`if the turn ends now (your score ${pts(banked)})`, bank]);
    } else {
      rows.push([`if you bank now: ${pts(banked)} reaches the target; the opponent throws once more`, null]);
    }
  }
  return chanceTable(w.target, rows, MACKE_WIN_NOTE);
}

const mackeForm = {
  setup(p, t) {
    const wins = tablesOf(t.game, "win");
    fillWinTables($("macke-win-table"), wins);
    $("macke-scores").hidden = wins.length === 0;
    fillSelect($("macke-throw"), Array.from({ length: p.throwsPerSeries }, (_, i) => [String(i + 1), `throw ${i + 1} of ${p.throwsPerSeries}`]));
    $("macke-dice").placeholder = Array.from({ length: p.nDice }, (_, i) => i + 1).join(" ");
  },
  listen() {},
  advise: adviseMacke,
};

// The advisor's Rutsmieter form: every legal move of the throw, scored by the weights.

const COLOURS = ["Red", "Blue", "Green", "Yellow"];
const SEATS = { 2: [0, 2], 3: [0, 1, 2], 4: [0, 1, 2, 3] };

function rutsPlayers() {
  const n = Number($("ruts-players").value);
  const me = $("ruts-me").value || "0";
  fillSelect($("ruts-me"), SEATS[n].map((s, i) => [String(i), `${COLOURS[s]} (player ${i + 1})`]));
  $("ruts-me").value = Number(me) < n ? me : "0";
  const box = $("ruts-pieces");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren(...SEATS[n].map((s, i) => el("div", { class: "field" },
    el("label", { htmlFor: `ruts-p${i}`, textContent: `${COLOURS[s]}'s pieces (player ${i + 1})` }),
    el("input", { id: `ruts-p${i}`, type: "text", autocomplete: "off", value: old[i] || "H H H H" }))));
}

/** A player's positions in their own count, from the viewer's ring numbers. */
function parsePieces(text, who, seats, p, viewer) {
  const parts = String(text).trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
  if (parts.length !== 4) throw new InputError(`${who}: give 4 pieces (H, a square 0-39 or G1-G4), not "${text.trim()}"`);
  return parts.map((x) => {
    if (x === "H") return HOUSE;
    const g = /^G([1-4])$/.exec(x);
    if (g) return FIRST_GOAL + Number(g[1]) - 1;
    if (!/^[0-9]+$/.test(x) || Number(x) > 39) throw new InputError(`${who}: "${x}" is not H, a square 0-39 or G1-G4`);
    return ownPosition(seats, p, ringSquare(seats, viewer, Number(x))); // via the board's square
  });
}

function describeMove(m, seats, player, viewer) {
  const sq = (p, x) => ownPosition(seats, viewer, ringSquare(seats, p, x));
  const where = (x) => (x === HOUSE ? "the house" : x >= FIRST_GOAL ? `goal square ${x - FIRST_GOAL + 1}` : `square ${sq(player, x)}`);
  let text;
  if (m.start === HOUSE) text = `piece ${m.piece + 1} leaves the house onto square ${sq(player, 0)}`;
  else if (m.start < FIRST_GOAL && m.end >= FIRST_GOAL) text = `piece ${m.piece + 1} from square ${sq(player, m.start)} into the goal lane, goal square ${m.end - FIRST_GOAL + 1}`;
  else text = `piece ${m.piece + 1} from ${where(m.start)} to ${m.end >= FIRST_GOAL ? where(m.end) : sq(player, m.end)}`;
  if (m.victim) text += `, captures ${COLOURS[seats[m.victim[0]]]}'s piece ${m.victim[1] + 1}`;
  return text;
}

const signed = (x) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(2);

/** Why the weights prefer move `best` to the next best move `other`: the features that tell them apart,
 * biggest share of the difference first (at most three for it, two against), in the players' words. */
function whyWords(weights, features, best, other) {
  const parts = RUTSMIETER_FEATURES.map((f, k) => ({ f, k, d: weights[k] * (features[best][k] - features[other][k]) }))
    .filter((x) => x.d !== 0).sort((a, b) => Math.abs(b.d) - Math.abs(a.d) || a.k - b.k);
  const say = (x) => `${rutsmieterValueWords(x.f, features[best][x.k])} (${signed(x.d)})`;
  const pro = parts.filter((x) => x.d > 0).slice(0, 3).map(say);
  const con = parts.filter((x) => x.d < 0).slice(0, 2).map(say);
  if (!pro.length && !con.length) return "";
  return pro.join("; ") + (con.length ? `${pro.length ? "; " : ""}against it: ${con.join("; ")}` : "");
}

async function adviseRutsmieter(p) {
  const n = Number($("ruts-players").value);
  const seats = SEATS[n];
  const me = Number($("ruts-me").value);
  const pieces = seats.map((s, i) => parsePieces($(`ruts-p${i}`).value, `${COLOURS[s]}'s pieces`, seats, i, me));
  const squares = new Map();
  pieces.forEach((own, q) => own.forEach((x, k) => {
    if (x >= FIRST_GOAL && own.indexOf(x) !== k) throw new InputError(`${COLOURS[seats[q]]} has two pieces on goal square ${x - FIRST_GOAL + 1}`);
    if (x < 0 || x >= RING) return;
    const sq = ringSquare(seats, q, x);
    if (squares.has(sq)) throw new InputError(`two pieces on square ${ownPosition(seats, me, sq)}`);
    squares.set(sq, q);
  }));
  const die = Number($("ruts-die").value);
  const moves = legalMoves(seats, pieces, me, die, p.rules);
  const data = { moves: moves.length };
  if (moves.length === 0) {
    data.choice = -1;
    return [[el("p", { class: "verdict bank", textContent: `No legal move with a ${die}: the turn passes.` })], data];
  }
  const obs = { seats, pieces, player: me, die, moves };
  const best = p.choose(obs);
  data.choice = best;
  data.move = `${moves[best].piece}:${moves[best].start}:${moves[best].end}`;
  // the weight set of this table's size (the file's own for it, else its one set)
  const weights = p.weightsFor(n);
  const own = Object.hasOwn(p.weightsByPlayers, n);
  data.weights = own ? String(n) : "all";
  const features = moves.map((m) => p.features(obs, m));
  const scores = features.map((f) => p.score(f, n));
  data.scores = scores.map((x) => x.toFixed(2)).join(" ");
  let why = "";
  if (moves.length > 1) {
    const other = scores.map((x, i) => [x, moves[i].start, i]).filter((x) => x[2] !== best)
      .sort((a, b) => b[0] - a[0] || b[1] - a[1] || a[2] - b[2])[0][2];
    const words = whyWords(weights, features, best, other);
    why = words ? `Why, rather than ${describeMove(moves[other], seats, me, me)} (the points it is ahead by): ${words}.`
      : `Why: as good as ${describeMove(moves[other], seats, me, me)}; the piece furthest along moves.`;
  }
  data.why = why;
  const rows = moves.map((m, i) => el("tr", i === best ? { class: "best" } : {},
    el("td", { textContent: (i === best ? "★ " : "") + describeMove(m, seats, me, me) }),
    el("td", { class: "num", textContent: scores[i].toFixed(2) })));
  const which = own ? `the tuned weights for ${n} players` : "the tuned weights (one set for every table size)";
  return [[
    el("p", { class: "verdict on", textContent: `Move ${describeMove(moves[best], seats, me, me)}.` }),
    ...(why ? [el("p", { class: "why", textContent: why })] : []),
    el("table", {}, el("caption", { class: "small", textContent: `Every legal move and its score (${which} times the move's features and those of the position it leaves; the highest is played, ties to the piece furthest along)` }),
      el("tr", {}, el("th", { textContent: "move" }), el("th", { class: "num", textContent: "score" })), ...rows),
  ], data];
}

const rutsmieterForm = {
  setup(p) {
    $("ruts-players").value = String(p.rules.players || 2);
    rutsPlayers();
  },
  listen() {
    $("ruts-players").addEventListener("change", rutsPlayers);
  },
  advise: adviseRutsmieter,
};

// The advisor's Tutto form: keep, bank, draw and the Straße; with a win table the chances.

const CARD_NAMES = {
  bonus200: "Bonus 200", bonus300: "Bonus 300", bonus400: "Bonus 400", bonus500: "Bonus 500",
  bonus600: "Bonus 600", x2: "×2", plusminus: "Plus/Minus", cloverleaf: "Kleeblatt",
  fireworks: "Feuerwerk", street: "Straße",
};
const WIN_NOTE = "“For the most points this turn” is the points table's advice; “to win the game” is the win table's, where both players play to win from these scores. They can differ: the chance to win depends on both scores, the points of one turn do not.";

function tuttoQuestion() {
  const q = $("tutto-question").value;
  for (const f of $("tutto-form").querySelectorAll("[data-for]")) {
    f.hidden = f.dataset.for !== q || (f.hasAttribute("data-x2card") && !x2ByCard())
      || (f.hasAttribute("data-win") && tablesOf("tutto", "win").length === 0);
  }
  $("tutto-scores").hidden = tablesOf("tutto", "win").length === 0;
}
let tuttoRules = {};
const x2ByCard = () => tuttoRules.x2_scope === "card" && $("tutto-card").value === "x2";

/** The seats and score fields of the chosen win table's size (two players, or three or four). */
function winSeats() {
  const t = $("win-table").value ? tableById($("win-table").value) : null;
  const size = (t && t.players) || 2;
  const seat = $("win-seat");
  const names = size === 2 ? ["first in the round", "second in the round"]
    : Array.from({ length: size }, (_, q) => `seat ${q + 1}${q === 0 ? " (first in the round)" : ""}`);
  const was = seat.value;
  seat.replaceChildren(...names.map((n, q) => el("option", { value: String(q), textContent: n })));
  if (Number(was) < size) seat.value = was;
  $("win-scores-field").hidden = size === 2;
  for (const f of $("tutto-scores").querySelectorAll(".win-two")) f.hidden = size !== 2;
  if (size > 2 && !$("win-scores").value) $("win-scores").value = new Array(size).fill(0).join(", ");
}

const tuttoForm = {
  setup(p) {
    tuttoRules = p.rules;
    fillWinTables($("win-table"), tablesOf("tutto", "win"));
    tuttoQuestion();
    winSeats();
  },
  listen() {
    $("tutto-question").addEventListener("change", tuttoQuestion);
    $("tutto-card").addEventListener("change", tuttoQuestion);
    $("win-table").addEventListener("change", winSeats);
  },
  advise: adviseTutto,
};

/** The turn total after a Tutto, the card's reward added (docs/rules.md §4.3-4.5). */
function afterTutto(card, before, kept, cardPoints, rules) {
  if (card.startsWith("bonus")) return before + kept + Number(card.slice(5));
  if (card === "x2") return rules.x2_scope === "card" ? before + kept + cardPoints + kept : 2 * (before + kept);
  if (card === "plusminus") return before + 1000;
  return null;
}

async function adviseTutto(p) {
  const q = $("tutto-question").value;
  if (q === "street") {
    const aside = Number($("street-aside").value);
    const fresh = Number($("street-new").value);
    if (aside + fresh > 6) throw new InputError(`${aside} set aside and ${fresh} new numbers make more than 6 dice`);
    const take = p.streetTake(aside, fresh);
    const data = { take };
    const out = [
      el("p", { class: "verdict on", textContent: `Set aside ${take} of the ${fresh} new number${fresh === 1 ? "" : "s"} (the smallest first).` }),
      el("p", { class: "small", textContent: "Straße: 2,000 points for 1-2-3-4-5-6, nothing otherwise; a throw with no new number is a Niete." }),
    ];
    const w = await winTable();
    if (w && w.players > 2) out.push(...winLinesN(w, data));
    else if (w) {
      const sit = { ...winSituation(w), turnTotal: points($("street-total").value, "the turn total before the Straße"), aside, newNumbers: fresh };
      const r = w.streetTake(sit);
      data["win-take"] = r.take;
      data["win-chances"] = JSON.stringify(r.options.map((o) => o.chance));
      out.unshift(el("p", { class: "small", textContent: "For the most points this turn (points table):" }));
      out.push(...winAdvice(w, `Set aside ${r.take} of the ${fresh} new number${fresh === 1 ? "" : "s"} (the smallest first).`,
        r.options.map((o) => [`set aside ${o.take}`, o.chance, o.take === r.take])));
    }
    return [out, data];
  }
  if (q === "tutto") {
    const total = points($("tutto-after").value, "the turn total after the Tutto");
    const draw = p.draw(total);
    const below = p.summary && p.summary.draw_below;
    const data = { draw };
    const out = [
      el("p", { class: `verdict ${draw ? "on" : "bank"}`, textContent: draw ? "Draw another card." : `Bank ${pts(total)}.` }),
      el("p", { textContent: below ? `With Bonus, ×2, Plus/Minus or Straße: draw another card while the turn total is below ${pts(below)}, bank from ${pts(below)} on.` : "" }),
    ];
    const w = await winTable();
    if (w && w.players > 2) out.push(...winLinesN(w, data));
    else if (w) {
      const r = w.banksAfterTutto({ ...winSituation(w), turnTotal: total });
      data["win-draw"] = !r.bank;
      data["win-chances"] = JSON.stringify([r.chances.bank, r.chances.draw]);
      out.unshift(el("p", { class: "small", textContent: "For the most points this turn (points table):" }));
      out.push(...winAdvice(w, r.bank ? `Bank ${pts(total)}.` : "Draw another card.",
        [[`bank ${pts(total)}`, r.chances.bank, r.bank], ["draw another card", r.chances.draw, !r.bank]]));
    }
    return [out, data];
  }
  const card = $("tutto-card").value;
  const before = points($("tutto-total").value, "the turn total");
  const cardPoints = x2ByCard() ? points($("tutto-card-points").value, "the ×2 card's points") : 0;
  const dice = parseDice($("tutto-dice").value, 1, 6);
  const keep = p.keep(card, before, dice, cardPoints);
  const out = [];
  const data = { dice: dice.join("") };
  const ev = p.summary && p.summary.cards && p.summary.cards[card];
  if (keep === null) {
    data.keep = "niete";
    out.push(el("p", { class: "verdict bank", textContent: "Niete: nothing scores." }));
    out.push(el("p", { textContent: card === "fireworks" ? "A Feuerwerk's Niete banks everything: the whole turn total is written down." : "The turn is over and its points are lost." }));
    const w = await winTable();
    if (w && w.players > 2) out.push(...winLinesN(w, data));
    else if (w) out.push(...winLines(w, null, data, null));
    return [out, data];
  }
  data.keep = `${keep.dice}:${keep.faces}`;
  const left = dice.length - keep.dice;
  const plusminus = card === "plusminus" || card === "cloverleaf";
  const total = plusminus ? before : before + keep.points;
  out.push(el("p", { class: "verdict on", textContent: `Set aside ${dashes(keep.faces)}${plusminus ? "" : ` (${pts(keep.points)} points)`}.` }));
  const steps = el("ul", { class: "steps" });
  out.push(steps);
  if (keep.dice < dice.length && left > 0) {
    steps.append(el("li", { textContent: plusminus ? `${CARD_NAMES[card]}: only the Tutto counts, ${diceWord(left)} left.` : `Turn total ${pts(total)}, ${diceWord(left)} left.` }));
  }
  if (left === 0) {
    data.bank = "tutto";
    if (card === "fireworks") {
      steps.append(el("li", { textContent: "Tutto! Throw all 6 dice again, without a new card: the Feuerwerk ends only with a Niete." }));
    } else if (card === "cloverleaf") {
      steps.append(el("li", { textContent: "Tutto! After the first, throw all 6 dice for the second Tutto; the second wins the game." }));
    } else if (card === "plusminus" && p.rules.plusminus_chain !== "continue") {
      steps.append(el("li", { textContent: p.rules.plusminus_chain === "flat" ? "Tutto! Plus/Minus: the turn ends with exactly 1,000." : `Tutto! Plus/Minus: the turn ends and banks ${pts(before + 1000)}.` }));
    } else {
      const after = afterTutto(card, before, keep.points, cardPoints, p.rules);
      const draw = p.draw(after);
      data.draw = draw;
      steps.append(el("li", { textContent: `Tutto! With the card's reward the turn total is ${pts(after)}: ${draw ? "draw another card" : `bank ${pts(after)}`}.` }));
    }
  } else if (BANKABLE.includes(card)) {
    const bank = p.bank(card, left, total, cardPoints + keep.points);
    data.bank = bank ? "bank" : "on";
    const th = ev && ev.bank_thresholds && ev.bank_thresholds[String(left)];
    steps.append(el("li", { class: `verdict ${bank ? "bank" : "on"}`, textContent: bank ? `Then bank ${pts(total)}.` : `Then throw on with ${diceWord(left)}.` }));
    if (th !== undefined && !x2ByCard()) {
      steps.append(el("li", { class: "small", textContent: `${CARD_NAMES[card]}: with ${diceWord(left)} left bank as soon as the turn total reaches ${pts(th)}.` }));
    }
  } else {
    data.bank = "on";
    const why = card === "fireworks" ? "Feuerwerk: no banking, it ends only with a Niete (which banks everything)" : `${CARD_NAMES[card]}: no banking before the Tutto`;
    steps.append(el("li", { class: "verdict on", textContent: `${why}; throw on with ${diceWord(left)}.` }));
  }
  if (ev && ev.ev !== undefined) {
    out.push(el("p", { class: "small", textContent: `A turn starting with ${CARD_NAMES[card]} is worth ${ev.ev.toFixed(1)} points with this play (a whole turn: ${p.summary.turn_ev.toFixed(2)}).` }));
  }
  const w = await winTable();
  if (w && w.players > 2) out.push(...winLinesN(w, data));
  else if (w) {
    out.unshift(el("p", { class: "small", textContent: "For the most points this turn (points table):" }));
    out.push(...winLines(w, left > 0 && BANKABLE.includes(card) ? total : null, data,
      { p, card, before, cardPoints, dice }));
  }
  return [out, data];
}

/** The situation for the win table from the scores fieldset (seat, scores, last round, Plus/Minus Tuttos). */
function winSituation(w) {
  const seat = Number($("win-seat").value);
  const lastRound = $("win-last").value === "1";
  const own = points($("win-own").value, "your score", { max: w.target - 50 });
  const other = points($("win-other").value, "the opponent's score", lastRound ? {} : { max: w.target - 50 });
  if (lastRound && seat === 0) throw new InputError("in the last round the second player throws last: choose “second in the round”, or the last round “no”");
  if (lastRound && other < w.target) throw new InputError(`in the last round the opponent has reached ${pts(w.target)}: the opponent's score must be at least that, not ${pts(other)}`);
  const pm = Number($("win-pm").value);
  if (String($("win-pm").value).trim() === "" || !Number.isInteger(pm) || pm < 0 || pm > 9) throw new InputError(`Plus/Minus Tuttos this turn must be a whole number from 0 to 9, not "${$("win-pm").value}"`);
  return { seat, scores: seat === 0 ? [own, other] : [other, own], lastRound, plusMinusTuttos: pm, own, other };
}

/** A table of three or four players: the seat, everyone's scores by seat and the last round. */
function winSituationN(w) {
  const N = w.players;
  const seat = Number($("win-seat").value);
  const lastRound = $("win-last").value === "1";
  const text = String($("win-scores").value);
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length !== N) throw new InputError(`give ${N} scores, one per seat, the first in the round first, not "${text}"`);
  const scores = parts.map((x, q) => points(x, `the score of seat ${q + 1}`));
  if (!lastRound) {
    const over = scores.findIndex((x) => x >= w.target);
    if (over >= 0) throw new InputError(`seat ${over + 1} has reached ${pts(w.target)}: then it is the last round (choose “yes”)`);
  } else {
    if (seat === 0) throw new InputError("in the last round the first in the round has moved: choose a later seat, or the last round “no”");
    if (!scores.slice(0, seat).some((x) => x >= w.target)) throw new InputError(`in the last round someone before you has reached ${pts(w.target)}`);
    const late = scores.slice(seat).findIndex((x) => x >= w.target);
    if (late >= 0) throw new InputError(`in the last round seat ${seat + late + 1} has not moved since someone reached the target: its score must be below ${pts(w.target)}`);
  }
  return { seat, scores, lastRound };
}

/** Each player's chance at the start of this turn from a table of three or four players. */
function winLinesN(w, data) {
  const { seat, scores, lastRound } = winSituationN(w);
  const c = w.chances(seat, scores, lastRound);
  data["win-n"] = JSON.stringify(c);
  return [el("table", {},
    el("caption", { class: "small", textContent: `Each player's chance to win at the start of your turn, ${w.players} players to ${pts(w.target)} (win table; all play to win)` }),
    el("tr", {}, el("th", { textContent: "player" }), el("th", { class: "num", textContent: "chance to win" })),
    ...c.map((x, q) => el("tr", q === seat ? { class: "best" } : {},
      el("td", { textContent: q === seat ? `you (seat ${q + 1}, to throw), on ${pts(scores[q])}` : `seat ${q + 1}, on ${pts(scores[q])}` }),
      el("td", { class: "num", textContent: pct(x) })))),
  el("p", { class: "small", textContent: `The chance of each choice inside the turn at a table of ${w.players}: tutto-sim play --game tutto --players ${w.players} --win-table FILE (docs/win.md).` })];
}

/** The chosen win table's reader, or null (none chosen). */
const winTable = () => ($("win-table").value ? policyOf(tableById($("win-table").value)) : null);

/** Table rows of choices ([words, chance to win or null, best]), the best starred. */
const choiceRows = (options) => options.map(([what, x, best]) => el("tr", best ? { class: "best" } : {},
  el("td", { textContent: (best ? "★ " : "") + what }),
  el("td", { class: "num", textContent: x === null ? "bank (past the table's reach)" : pct(x) })));

/** The win table's advice: its verdict and each option's chance to win ([words, chance or null, best]). */
function winAdvice(w, verdict, options) {
  return [
    el("p", { class: "verdict on", textContent: `To win the game (win table): ${verdict}` }),
    el("table", {},
      el("caption", { class: "small", textContent: `Your chance to win after each choice, two players to ${pts(w.target)} (both play to win)` }),
      el("tr", {}, el("th", { textContent: "choice" }), el("th", { class: "num", textContent: "chance to win" })),
      ...choiceRows(options)),
    el("p", { class: "small", textContent: WIN_NOTE }),
  ];
}

function winLines(w, bankTotal, data, throwSit) {
  const sit = winSituation(w);
  const out = [];
  if (throwSit && throwSit.card !== "fireworks") out.push(...winThrow(w, sit, throwSit, data));
  if (sit.lastRound || sit.plusMinusTuttos) return out; // the chances below are for a turn's start
  const { seat, own, other } = sit;
  const start = w.W(seat, own, other);
  data.win = start;
  const rows = [["at the start of this turn", start]];
  if (bankTotal !== null) {
    const bank = w.bankChance(seat, own, other, bankTotal);
    data["win-bank"] = bank;
    rows.push([`if you bank ${pts(bankTotal)} now`, bank]);
  }
  const niete = w.bustChance(seat, own, other);
  data["win-bust"] = niete;
  rows.push(["after a Niete or a Stop", niete]);
  return [...out, ...chanceTable(w.target, rows)];
}

/** The win table's keep for a throw, each keep's chance, and then bank or throw on (Bonus, ×2) or,
 * after a Tutto with a Bonus or ×2, bank or draw. */
function winThrow(w, sit, { p, card, before, cardPoints, dice }, data) {
  const r = w.keepDice({ ...sit, card, turnTotal: before, cardPoints, throw: dice });
  if (r.dice === 0) return [];
  const plusminus = card === "plusminus" || card === "cloverleaf";
  const faces = (k) => p.doc.keeps[p.throwId(dice)].find((e) => e[0] === k)[1];
  const keepWords = (o) => `set aside ${dashes(faces(o.dice))}${plusminus ? "" : ` (${pts(o.points)} points)`}`;
  const best = r.options.find((o) => o.dice === r.dice);
  data["win-keep"] = r.dice;
  data["win-chances"] = JSON.stringify(r.options.map((o) => o.chance));
  const out = winAdvice(w, `${keepWords(best)[0].toUpperCase()}${keepWords(best).slice(1)}.`,
    r.options.map((o) => [keepWords(o), o.chance, o.dice === r.dice]));
  const left = dice.length - r.dice;
  const total = before + best.points;
  let then = null;
  if (BANKABLE.includes(card) && left > 0) {
    const b = w.banks({ ...sit, card, turnTotal: total, cardPoints: cardPoints + best.points, dice: left });
    data["win-then"] = b.bank ? "bank" : "on";
    data["win-then-chances"] = JSON.stringify([b.chances.bank, b.chances.throw]);
    then = [b.bank ? `then bank ${pts(total)}.` : `then throw on with ${diceWord(left)}.`,
      [[`bank ${pts(total)}`, b.chances.bank, b.bank], [`throw on with ${diceWord(left)}`, b.chances.throw, !b.bank]]];
  } else if (BANKABLE.includes(card)) {
    const after = afterTutto(card, before, best.points, cardPoints, p.rules);
    const b = w.banksAfterTutto({ ...sit, turnTotal: after });
    data["win-then"] = b.bank ? "bank" : "draw";
    data["win-then-chances"] = JSON.stringify([b.chances.bank, b.chances.draw]);
    then = [`after the Tutto (turn total ${pts(after)} with the card's reward): ${b.bank ? `bank ${pts(after)}` : "draw another card"}.`,
      [[`bank ${pts(after)}`, b.chances.bank, b.bank], ["draw another card", b.chances.draw, !b.bank]]];
  }
  if (then) {
    out.splice(2, 0, el("p", { class: `verdict ${data["win-then"] === "bank" ? "bank" : "on"}`, textContent: `To win the game, ${then[0]}` }),
      el("table", {}, ...choiceRows(then[1])));
  }
  return out;
}

let answered = 0; // answers given (body data-answered): lets a test wait for the next one

/** Each form (Volle Lotte uses Macke's): its setup for a table, its event listeners, its advice. */
const FORMS = { tutto: tuttoForm, macke: mackeForm, rutsmieter: rutsmieterForm };

function currentGame() {
  return $("game").value;
}
function currentTable() {
  return tableById($("table").value);
}

function tableLabel(t) {
  return `${t.rules_words} (${t.id})`;
}

async function chooseGame() {
  const game = currentGame();
  fillSelect($("table"), tablesOf(game).map((t) => [t.id, tableLabel(t)]));
  for (const form of document.querySelectorAll("form.situation")) form.hidden = true;
  await chooseTable();
}

async function chooseTable() {
  const t = currentTable();
  setAdvice([]);
  showError("");
  delete document.body.dataset.table;
  for (const form of document.querySelectorAll("form.situation")) form.hidden = true;
  if (!t) {
    setStatus("No table for this game in this page.");
    return;
  }
  $("rules-lines").replaceChildren(...t.rules_lines.map((line) => el("li", { textContent: line })));
  setStatus(`Checking the table ${t.file}…`);
  let p;
  try {
    p = await policyOf(t);
  } catch (e) {
    if (t !== currentTable()) return;
    setStatus("");
    showError(`This table is refused: ${e.message}`);
    document.body.dataset.table = `refused:${t.id}`;
    return;
  }
  if (t !== currentTable()) return; // the choice changed while loading
  $("rules-fingerprint").textContent = `Rules fingerprint ${p.rulesSha256.slice(0, 12)}; file ${t.file}, content checked (${p.contentSha256.slice(0, 12)}).`;
  setStatus(`${t.game_name}: ${t.rules_words}. Table checked; enter the situation.`);
  const form = t.game === "volle-lotte" ? "macke" : t.game;
  FORMS[form].setup(p, t);
  $(`${form}-form`).hidden = false;
  document.body.dataset.table = t.id;
}

async function onSubmit(event) {
  event.preventDefault();
  const t = currentTable();
  const form = event.currentTarget.dataset.game;
  showError("");
  try {
    const p = await policyOf(t);
    const [nodes, data] = await FORMS[form].advise(p);
    setAdvice(nodes, data);
    $("advice").scrollIntoView({ block: "nearest" }); // on a phone the advice is below the form
  } catch (e) {
    setAdvice([]);
    showError(e instanceof PolicyError ? `This table is refused: ${e.message}` : `Please check: ${e.message || e}`);
  }
  document.body.dataset.answered = String(++answered);
}

function start() {
  const games = Object.entries(manifest.games).filter(([g]) => tablesOf(g).length);
  if (!games.length) {
    showError("This page holds no tables: build it again with tutto-sim advisor --out DIR.");
    setStatus("");
    return;
  }
  fillSelect($("game"), games);
  $("game").addEventListener("change", chooseGame);
  $("table").addEventListener("change", chooseTable);
  for (const f of Object.values(FORMS)) f.listen();
  for (const form of document.querySelectorAll("form.situation")) form.addEventListener("submit", onSubmit);
  $("choose").addEventListener("submit", (e) => e.preventDefault());
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some(([g]) => g === wanted)) $("game").value = wanted;
  return chooseGame();
}

start();

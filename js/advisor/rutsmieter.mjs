// The advisor's Rutsmieter form: every legal move of the throw, scored by the weights.

import { FIRST_GOAL, HOUSE, legalMoves, ownPosition, RING, ringSquare, RUTSMIETER_FEATURES, rutsmieterValueWords }
  from "../reader/policy.mjs";
import { $, el, fillSelect, InputError } from "./page.mjs";

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
export function whyWords(weights, features, best, other) {
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

export const rutsmieterForm = {
  setup(p) {
    $("ruts-players").value = String(p.rules.players || 2);
    rutsPlayers();
  },
  listen() {
    $("ruts-players").addEventListener("change", rutsPlayers);
  },
  advise: adviseRutsmieter,
};

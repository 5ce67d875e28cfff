// The advisor's Tutto form: keep, bank, draw and the Straße; with a win table the chances.

import { BANKABLE } from "../reader/policy.mjs";
import { $, chanceTable, dashes, diceWord, el, fillWinTables, InputError, parseDice, pct, points, policyOf, pts, tableById,
  tablesOf } from "./page.mjs";

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

export const tuttoForm = {
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

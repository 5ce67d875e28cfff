// The advisor's Berliner Macke / Volle Lotte form: keep, bank, return; the chances to win.

import { $, chanceTable, diceWord, el, fillSelect, fillWinTables, InputError, parseDice, points, policyOf, pts, tableById,
  tablesOf } from "./page.mjs";

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

export const mackeForm = {
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

// ---------------------------------------------------------------------------
// Tutto (docs/policy-format.md, "Playing a turn from the file")
// ---------------------------------------------------------------------------

import { LoadedFile, POINT_UNIT } from "./base.mjs";
import { bestSplit, sortedDice, tuttoThrowNames } from "./dice.mjs";
import { jsonEqual } from "./schema.mjs";

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

export const TUTTO_THROWS = tuttoThrowNames();

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

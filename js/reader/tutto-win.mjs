// ---------------------------------------------------------------------------
// The Tutto win table (tutto/win/table.py; docs/win.md)
// ---------------------------------------------------------------------------

import { LoadedFile, POINT_UNIT } from "./base.mjs";
import { sortedDice } from "./dice.mjs";
import { BANKABLE, TUTTO_CARDS, TUTTO_DECK, TUTTO_THROWS, tuttoKeepsTable } from "./tutto.mjs";

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

export const WIN_FIELDS = ["six_of_kind", "x2_scope", "plusminus_chain", "plusminus_deduction", "target", "game_end"];

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

// ---------------------------------------------------------------------------
// Berliner Macke / Volle Lotte (docs/macke-solver.md; macke/policy.py)
// ---------------------------------------------------------------------------

import { LoadedFile, POINT_UNIT } from "./base.mjs";
import { sortedDice, triplePoints, tuttoThrowNames } from "./dice.mjs";
import { pyRepr } from "./repr.mjs";
import { jsonEqual } from "./schema.mjs";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

const faceCounts = (faces) => {
  const c = [0, 0, 0, 0, 0, 0];
  for (const f of faces) c[f - 1]++;
  return c;
};

/** The kinds of unit under Macke `rules` (macke/tables.py unit_types): name, dice, points
 * (units of 50) and the face counts that form it. */
export function mackeUnitTypes(rules) {
  const n = rules.variant === "volle-lotte" ? 6 : 5;
  const u = [{ name: "1", dice: 1, points: 2, patterns: [faceCounts([1])] },
    { name: "5", dice: 1, points: 1, patterns: [faceCounts([5])] }];
  const faces = rules.variant === "ones-and-fives" ? [1, 5] : [1, 2, 3, 4, 5, 6];
  for (const f of faces) u.push({ name: String(f).repeat(3), dice: 3, points: triplePoints(f) / POINT_UNIT, patterns: [faceCounts([f, f, f])] });
  if (rules.variant !== "ones-and-fives") {
    u.push({ name: "small straight", dice: 4, points: 10, patterns: [1, 2, 3].map((a) => faceCounts([a, a + 1, a + 2, a + 3])) });
    if (n === 6) u.push({ name: "big straight", dice: 6, points: 40, patterns: [faceCounts([1, 2, 3, 4, 5, 6])] });
    else u.push({ name: "big straight", dice: 5, points: 20, patterns: [faceCounts([1, 2, 3, 4, 5]), faceCounts([2, 3, 4, 5, 6])] });
  }
  if (rules.variant === "jackpot") {
    u.push({ name: "five 5s", dice: 5, points: 100, patterns: [faceCounts([5, 5, 5, 5, 5])] });
    u.push({ name: "five 1s", dice: 5, points: 200, patterns: [faceCounts([1, 1, 1, 1, 1])] });
  }
  return u;
}

/** Every non-empty keep of a throw (face counts) as unit counts (macke/tables.py throw_keeps). */
function mackeThrowKeeps(counts, rules, types) {
  const pats = [];
  types.forEach((t, i) => t.patterns.forEach((p) => pats.push([i, p])));
  const maxTriples = rules.six_of_kind === "two-triples" ? 2 : 1;
  const out = new Map();
  const left = [...counts];
  const vec = new Array(types.length).fill(0);
  const rec = (j) => {
    if (j === pats.length) {
      if (vec.some((x) => x)) out.set(vec.join(","), [...vec]);
      return;
    }
    const [i, p] = pats[j];
    let times = 0;
    for (;;) {
      rec(j + 1);
      if (left.some((l, f) => l < p[f])) break;
      if (types[i].dice === 3 && vec[i] >= maxTriples) break; // six of a kind: two triples at most
      for (let f = 0; f < 6; f++) left[f] -= p[f];
      vec[i]++;
      times++;
    }
    for (let f = 0; f < 6; f++) left[f] += p[f] * times;
    vec[i] -= times;
  };
  rec(0);
  let keeps = [...out.values()];
  if (rules.variant === "jackpot") {
    // five 1s (five 5s) in one throw score only as the jackpot
    for (const face of [1, 5]) {
      if (counts[face - 1] === 5) {
        const single = types.findIndex((t) => t.name === String(face));
        const triple = types.findIndex((t) => t.name === String(face).repeat(3));
        keeps = keeps.filter((k) => k[single] + 3 * k[triple] < 5);
      }
    }
  }
  return keeps;
}

const lexCompare = (a, b) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/** The self-describing tables of a Macke policy file for `rules` (macke/policy.py tables_of):
 * units, states, throws, keeps, returns. */
export function mackeTables(rules) {
  const types = mackeUnitTypes(rules);
  const n = rules.variant === "volle-lotte" ? 6 : 5;
  const diceOf = (v) => v.reduce((s, k, i) => s + k * types[i].dice, 0);
  const states = [];
  const rec = (i, dice, vec) => {
    if (i === types.length) {
      states.push([...vec]);
      return;
    }
    for (let k = 0; dice + k * types[i].dice <= n; k++) {
      vec.push(k);
      rec(i + 1, dice + k * types[i].dice, vec);
      vec.pop();
    }
  };
  rec(0, 0, []);
  states.sort((a, b) => diceOf(a) - diceOf(b) || lexCompare(a, b));
  const index = new Map(states.map((v, s) => [v.join(","), s]));
  const dice = states.map(diceOf);
  const throws = tuttoThrowNames().filter((t) => t.length <= n);
  const keeps = throws.map((t) => mackeThrowKeeps(faceCounts([...t].map(Number)), rules, types)
    .map((k) => index.get(k.join(","))).sort((a, b) => a - b));
  const returns = states.map((v) => {
    const subs = new Set();
    const sub = (i, w) => {
      if (i === v.length) {
        subs.add(index.get(w.join(",")));
        return;
      }
      for (let k = 0; k <= v[i]; k++) sub(i + 1, [...w, k]);
    };
    sub(0, []);
    return [...subs].sort((a, b) => dice[b] - dice[a] || a - b);
  });
  return { units: types.map((t) => [t.name, t.dice, t.points * POINT_UNIT]), states, throws, keeps, returns };
}

export class MackePolicy extends LoadedFile {
  constructor(d, contentSha256, fail) {
    super("macke", d, d.rules, contentSha256);
    this.variant = d.rules.variant;
    this.turnEv = d.summary.turn_ev;
    const nAll = d.rules.variant === "volle-lotte" ? 6 : 5;
    if (d.dice !== nAll || d.throws_per_series !== d.rules.throws) {
      fail(`dice and throws_per_series must be ${nAll} and ${d.rules.throws} for its rules`);
    }
    this.nDice = nAll;
    this.throwsPerSeries = d.throws_per_series;
    this.lockedRows = d.locked_rows;
    // the self-describing tables must be those the rules build (macke/policy.py tables_of)
    const tables = mackeTables(d.rules);
    for (const what of ["units", "states", "throws", "keeps", "returns"]) {
      if (!jsonEqual(d[what], tables[what])) fail(`its ${what} are not the tables this version builds for its rules`);
    }
    this.units = d.units.map(([name, dice, points]) => ({ name, dice, points }));
    this.states = d.states;
    const nUnits = this.units.length;
    this._dice = d.states.map((v) => v.reduce((s, k, u) => s + k * this.units[u].dice, 0));
    this._pts = d.states.map((v) => v.reduce((s, k, u) => s + k * this.units[u].points, 0));
    this._index = new Map(d.states.map((v, s) => [v.join(","), s]));
    this.emptyState = this._index.get(new Array(nUnits).fill(0).join(","));
    const names = d.throws;
    this.throwIds = new Map(names.map((t, i) => [t, i]));
    this._start = [0];
    for (let n = 1; n <= nAll + 1; n++) this._start.push(names.filter((t) => t.length < n).length);
    // keep slots of each set-aside state (solver.slot_layout)
    this._off = [];
    let pos = 0;
    for (let u = 0; u < d.states.length; u++) {
      if (this._dice[u] < nAll) {
        this._off.push(pos);
        pos += this._start[nAll - this._dice[u] + 1] - this._start[nAll - this._dice[u]];
      } else this._off.push(-1);
    }
    const T = this.throwsPerSeries;
    const rows = this.lockedRows;
    const firstWidth = this._start[nAll + 1] - this._start[nAll];
    const checkRows = (strings, width, what) => {
      if (!Array.isArray(strings) || strings.length !== rows || strings.some((s) => s.length !== width)) {
        fail(`${what} must have ${rows} rows of ${width} decisions`);
      }
    };
    for (let j = 1; j <= T; j++) {
      const what = `keep/${j}`;
      const strings = d.keep[String(j)] ?? [];
      checkRows(strings, j === 1 ? firstWidth : pos, what);
      // the throw behind each character, and the legality of its keep index
      const slotThrow = [];
      if (j === 1) for (let ms = this._start[nAll]; ms < this._start[nAll + 1]; ms++) slotThrow.push(ms);
      else {
        for (let u = 0; u < d.states.length; u++) {
          if (this._off[u] < 0) continue;
          const n = nAll - this._dice[u];
          for (let ms = this._start[n]; ms < this._start[n + 1]; ms++) slotThrow.push(ms);
        }
      }
      strings.forEach((s, r) => {
        for (let c = 0; c < s.length; c++) {
          const ms = slotThrow[c];
          const legalN = d.keeps[ms].length;
          const a = s[c] === "-" ? -1 : ALPHABET.indexOf(s[c]);
          if (a < -1 || a >= legalN || (a === -1) !== (legalN === 0)) {
            fail(`${what} row ${r} chooses keep ${a >= 0 ? s[c] : a} for throw ${d.throws[ms]}, which has ${legalN} legal keeps`);
          }
        }
      });
    }
    for (let j = 2; j <= T; j++) {
      const what = `return/${j}`;
      const strings = d.return[String(j)] ?? [];
      checkRows(strings, d.states.length, what);
      strings.forEach((s, r) => {
        for (let c = 0; c < s.length; c++) {
          const a = ALPHABET.indexOf(s[c]);
          if (a < 0 || a >= d.returns[c].length) fail(`${what} row ${r}: state ${c} has no return choice ${pyRepr(s[c])}`);
        }
      });
    }
    for (let j = 1; j < T; j++) {
      const strings = d.bank[String(j)] ?? [];
      if (strings.length !== rows || strings.some((s) => s.length !== d.states.length)) {
        fail(`bank/${j} must have ${rows} rows of ${d.states.length} decisions`);
      }
    }
    const extra = [
      ...Object.keys(d.keep).filter((k) => !(Number(k) >= 1 && Number(k) <= T)),
      ...Object.keys(d.return).filter((k) => !(Number(k) >= 2 && Number(k) <= T)),
      ...Object.keys(d.bank).filter((k) => !(Number(k) >= 1 && Number(k) < T)),
    ];
    if (extra.length) fail(`decisions for throws ${pyRepr([...new Set(extra)].sort())} of a series with ${T} throws`);
  }

  row(locked) {
    return Math.min(Math.floor(locked / POINT_UNIT), this.lockedRows - 1);
  }

  stateDice(s) {
    return this._dice[s];
  }

  statePoints(s) {
    return this._pts[s];
  }

  stateName(s) {
    const parts = [];
    this.states[s].forEach((k, u) => {
      for (let i = 0; i < k; i++) parts.push(this.units[u].name);
    });
    return parts.length ? parts.join(" + ") : "nothing";
  }

  /** State id of a list of unit names (["1", "5", "555"]); undefined if there is none. */
  stateId(unitNames) {
    const v = this.units.map((u) => unitNames.filter((x) => x === u.name).length);
    return this._index.get(v.join(","));
  }

  /** The state of `a` and `b` set aside together (undefined: more dice than there are). */
  add(a, b) {
    return this._index.get(this.states[a].map((k, u) => k + this.states[b][u]).join(","));
  }

  throwId(dice) {
    return this.throwIds.get(sortedDice(dice));
  }

  /** The units to set aside from `dice`, thrown as throw `throwOfSeries` (1-based) of a series
   * with `aside` set aside and `locked` points from earlier series: {state, units, index}, or null (a Macke). */
  keep({ locked, aside, throwOfSeries, dice }) {
    const key = sortedDice(dice);
    const ms = this.throwIds.get(key);
    const n = this.nDice - this._dice[aside];
    if (key.length !== n) throw new RangeError(`keep: with ${this._dice[aside]} dice set aside the throw has ${n} dice`);
    const j = throwOfSeries;
    let col;
    if (j === 1) col = ms - this._start[this.nDice];
    else col = this._off[aside] + ms - this._start[n];
    const ch = this.doc.keep[String(j)][this.row(locked)][col];
    if (ch === "-") return null;
    const index = ALPHABET.indexOf(ch);
    const state = this.doc.keeps[ms][index];
    return { state, units: this.stateName(state).split(" + "), index };
  }

  /** Before throw `throwOfSeries` (>= 2): the state to keep set aside (the rest goes back). */
  returnUnits({ locked, aside, throwOfSeries }) {
    const i = ALPHABET.indexOf(this.doc.return[String(throwOfSeries)][this.row(locked)][aside]);
    return this.doc.returns[aside][i];
  }

  /** After setting aside on throw `throwOfSeries` (`aside` includes the keep): bank (true) or
   * go on (false). With every die set aside (a clear) false starts a new series. */
  bank({ locked, aside, throwOfSeries }) {
    if (this._dice[aside] === this.nDice) {
      const clear = this.doc.clear;
      const total = Math.floor((locked + this._pts[aside]) / POINT_UNIT);
      return clear[Math.min(total, clear.length - 1)] === "1";
    }
    if (!(throwOfSeries >= 1 && throwOfSeries < this.throwsPerSeries)) {
      throw new RangeError(`bank: after throw ${throwOfSeries} of ${this.throwsPerSeries} the turn ends without a choice`);
    }
    return this.doc.bank[String(throwOfSeries)][this.row(locked)][aside] === "1";
  }
}

// ---------------------------------------------------------------------------
// The Tutto win table of N players, version 2 (tutto/win/table.py; docs/win.md)
// ---------------------------------------------------------------------------

import { LoadedFile, POINT_UNIT } from "./base.mjs";

/** table._unpack: a packed float64-le array of `shape`, every value a chance; `fail` refuses. */
function unpack(p, shape, what, fail) {
  const same = p.shape.length === shape.length && p.shape.every((v, i) => v === shape[i]);
  if (!same) fail(`${what} must have the shape ${shape.join(" x ")}, not ${p.shape.join(" x ")}`);
  let bin;
  try {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(p.base64) || p.base64.length % 4 !== 0) throw new Error("bad");
    bin = atob(p.base64);
  } catch {
    fail(`${what} is not valid base64`);
  }
  const count = shape.reduce((a, b) => a * b, 1);
  if (bin.length !== 8 * count) fail(`${what} holds ${bin.length} bytes, not ${8 * count}`);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = view.getFloat64(8 * i, true);
    if (!(v >= 0.0 && v <= 1.0)) fail(`${what} holds values that are not chances`);
    out[i] = v;
  }
  return out;
}

export class TuttoWinTableN extends LoadedFile {
  constructor(d, fileRules, contentSha256, fail) {
    super("tutto-win", d, fileRules, contentSha256);
    const N = d.players, n = Math.floor(fileRules.target / POINT_UNIT);
    if (d.target_units !== n) fail("target_units does not fit the target");
    this.players = N;
    this.target = fileRules.target;
    this.units = n;
    this.marginCap = d.margin_cap_units * POINT_UNIT;
    this.immediate = fileRules.game_end === "immediate";
    this.M = n + d.margin_cap_units + 1;
    this._W = unpack(d.W, [N, ...new Array(N).fill(n), N], "W", fail);
    this._E = [];
    if (!this.immediate) {
      if (d.E.length !== N - 1) fail(`E must hold ${N - 1} end-phase tables`);
      for (let m = 1; m < N; m++) {
        const rows = this.M ** m * n ** (N - m); // seats m.. below the target, the others to the cap
        this._E.push(unpack(d.E[m - 1], [rows, N], `E[${m}]`, fail));
      }
    }
  }

  _scores(scores, bound, what) {
    const N = this.players;
    if (!Array.isArray(scores) || scores.length !== N || !scores.every((x) => Number.isInteger(x) && x >= 0)) {
      throw new RangeError(`scores must be the ${N} players' scores in points, not ${JSON.stringify(scores)}`);
    }
    return scores.map((x) => Math.min(Math.floor(x / POINT_UNIT), bound - 1));
  }

  /** Each player's chance to win (by seat) at the start of `seat`'s turn with `scores` (points, by
   * seat). `lastRound` (game end round): someone has reached the target and the round is being
   * finished, the seats from `seat` on have not moved since (scores past the cap count as the cap). */
  chances(seat, scores, lastRound = false) {
    const N = this.players, n = this.units;
    if (!(Number.isInteger(seat) && seat >= 0 && seat < N)) throw new RangeError(`seat must be 0 to ${N - 1}, not ${seat}`);
    if (!lastRound || this.immediate) {
      if (!Array.isArray(scores) || !scores.every((x) => Number.isInteger(x) && x >= 0 && x < this.target)) {
        throw new RangeError(`scores must be the ${N} players' scores, 0 to ${this.target - POINT_UNIT} points, not ${JSON.stringify(scores)}`);
      }
      const x = this._scores(scores, n);
      let i = seat;
      for (const v of x) i = i * n + v;
      return Array.from(this._W.subarray(i * N, i * N + N));
    }
    if (seat === 0) throw new RangeError("in the last round seat 0 has moved: the seats after the one who reached the target move");
    const x = this._scores(scores, this.M);
    if (x.slice(seat).some((v) => v >= n)) {
      throw new RangeError(`in the last round the seats from ${seat} on are below the target ${this.target}, not ${JSON.stringify(scores)}`);
    }
    let i = 0; // the rank among the end phase's states: seats before `seat` to the cap, the rest below the target
    x.forEach((v, q) => { i = i * (q < seat ? this.M : n) + v; });
    return Array.from(this._E[seat - 1].subarray(i * N, i * N + N));
  }
}

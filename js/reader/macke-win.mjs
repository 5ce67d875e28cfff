// ---------------------------------------------------------------------------
// The Macke / Volle Lotte win table (macke/win/table.py; docs/macke-win.md)
// ---------------------------------------------------------------------------

import { LoadedFile, POINT_UNIT } from "./base.mjs";
import { mackeUnitTypes } from "./macke.mjs";

export const MACKE_WIN_FIELDS = ["variant", "min_score", "throws", "bust", "target", "six_of_kind"];

/** The most points (units of 50) one series can set aside under `rules`: the best
 * multiset of the rules' units with at most n dice (macke/tables.py unit_types). */
export function mackeSeriesMax(rules) {
  const n = rules.variant === "volle-lotte" ? 6 : 5;
  const best = new Array(n + 1).fill(0); // best[c]: most points with at most c dice
  for (let c = 1; c <= n; c++) {
    for (const u of mackeUnitTypes(rules)) if (u.dice <= c) best[c] = Math.max(best[c], best[c - u.dice] + u.points);
  }
  return best[n];
}

export class MackeWinTable extends LoadedFile {
  constructor(d, fileRules, contentSha256, fail) {
    super("macke-win", d, fileRules, contentSha256);
    this.variant = fileRules.variant;
    const floor = d.floor_units * POINT_UNIT;
    if (floor % POINT_UNIT || !(floor >= -20000 && floor < 0)) {
      fail(`the floor must be a negative multiple of ${POINT_UNIT} from -20,000 to -${POINT_UNIT}, not ${floor}`);
    }
    if (fileRules.target > 20000) {
      fail(`the win solve takes targets up to 20,000, not ${fileRules.target.toLocaleString("en-US")}`);
    }
    const n = Math.floor(fileRules.target / POINT_UNIT) - d.floor_units;
    if (d.target_units !== Math.floor(fileRules.target / POINT_UNIT) || !(d.W.length === n && d.W.every((r) => r.length === n))) {
      fail(`W must be ${n} x ${n} for target ${fileRules.target.toLocaleString("en-US")} and floor ${floor.toLocaleString("en-US")}`);
    }
    const want = d.cap_units + mackeSeriesMax(fileRules) + 1;
    if (d.last_turn.length !== want) fail(`last_turn must have ${want} entries for its cap`);
    this.target = fileRules.target;
    this.floor = floor;
  }

  /** W: the chance that the player to move with `own` points against `other` wins (the seat does not
   * matter); scores below the floor count as the floor. */
  W(own, other) {
    const f = this.doc.floor_units;
    const n = this.doc.W.length;
    const [i, j] = [own, other].map((x) => Math.max(Math.floor(x / POINT_UNIT), f) - f);
    if (!(i < n && j < n)) throw new RangeError(`scores must be below the target ${this.target.toLocaleString("en-US")}`);
    return this.doc.W[i][j];
  }

  /** The best chance in the last turn (nachwerfen) when more than `need` points are needed to pass
   * the opponent (equal scores: one half). */
  lastTurn(need) {
    const L = this.doc.last_turn;
    const d = Math.floor(need / POINT_UNIT);
    if (d < 0) throw new RangeError(`need must be 0 points or more, not ${need}`);
    return L[Math.min(d, L.length - 1)];
  }
}

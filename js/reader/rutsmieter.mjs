// ---------------------------------------------------------------------------
// Rutsmieter: the linear move evaluator (rutsmieter/policy.py)
// ---------------------------------------------------------------------------

import { LoadedFile } from "./base.mjs";
import { jsonEqual } from "./schema.mjs";

export const RUTSMIETER_FEATURES = ["progress", "capture", "danger_behind", "danger_ahead", "leave_house",
  "enter_goal", "block_start"];
// a piece's position in its player's own count: the house, the ring from its start, the goal lane
export const HOUSE = -1;
export const RING = 40;
export const FIRST_GOAL = 40;
const LAST_GOAL = FIRST_GOAL + 3;
export const SEAT_SPACING = 10; // squares between the starts of neighbouring seats

const mod = (a, m) => ((a % m) + m) % m;
/** The board's square of ring position `x` of the player at seat index `p`. */
export const ringSquare = (seats, p, x) => mod(x + SEAT_SPACING * seats[p], RING);
/** The ring position, in the count of the player at seat index `p`, of board square `sq`. */
export const ownPosition = (seats, p, sq) => mod(sq - SEAT_SPACING * seats[p], RING);

/** The legal moves of a throw of `die` for `player` (rutsmieter/reference.py legal_moves, in piece
 * order): {piece, start, end, victim: [player, piece] or null}. */
export function legalMoves(seats, pieces, player, die, rules) {
  const own = pieces[player];
  const victim = (end) => {
    if (end >= RING) return null;
    const sq = ringSquare(seats, player, end);
    for (let q = 0; q < seats.length; q++) {
      for (let k = 0; k < pieces[q].length; k++) {
        const x = pieces[q][k];
        if (x >= 0 && x < RING && ringSquare(seats, q, x) === sq) return q === player ? null : [q, k];
      }
    }
    return null;
  };
  let moves = [];
  let left = false;
  own.forEach((x, k) => {
    if (x === HOUSE) {
      if (die === 6 && !left && !own.includes(0)) {
        moves.push({ piece: k, start: HOUSE, end: 0, victim: victim(0) });
        left = true;
      }
      return;
    }
    const end = x + die;
    if (end > LAST_GOAL || own.includes(end)) return;
    if (rules.goal_no_jump && end >= FIRST_GOAL && own.some((y) => Math.max(x, FIRST_GOAL - 1) < y && y < end)) return;
    moves.push({ piece: k, start: x, end, victim: victim(end) });
  });
  if (rules.must_leave_house && own.includes(HOUSE)) {
    const leaving = moves.filter((m) => m.start === HOUSE);
    if (leaving.length) moves = leaving;
    else {
      const clearing = moves.filter((m) => m.start === 0);
      if (clearing.length) moves = clearing;
    }
  }
  if (rules.must_capture) {
    const capturing = moves.filter((m) => m.victim !== null);
    if (capturing.length) moves = capturing;
  }
  return moves;
}

export class RutsmieterPolicy extends LoadedFile {
  constructor(d, contentSha256, fail, callerRules) {
    super("rutsmieter", d, callerRules ? { ...d.rules, ...callerRules, game: "rutsmieter" } : d.rules, contentSha256);
    this.summary = d.summary ?? null;
    if (!jsonEqual(d.features, RUTSMIETER_FEATURES)) fail(`features must be ${RUTSMIETER_FEATURES.join(", ")} in this order`);
    this.featureNames = RUTSMIETER_FEATURES;
    this.weights = RUTSMIETER_FEATURES.map((f) => d.weights[f]);
  }

  /** The features of `move` (rutsmieter/policy.py move_features) in a situation {seats, pieces, player}. */
  features(obs, move) {
    const { seats, player } = obs;
    const pieces = obs.pieces.map((p) => [...p]);
    if (move.victim) pieces[move.victim[0]][move.victim[1]] = HOUSE;
    pieces[player][move.piece] = move.end;
    const onRing = (sq) => {
      for (let p = 0; p < seats.length; p++) {
        for (const x of pieces[p]) if (x >= 0 && x < RING && ringSquare(seats, p, x) === sq) return p;
      }
      return null;
    };
    let behind = 0;
    let ahead = 0;
    if (move.end < RING) {
      const square = ringSquare(seats, player, move.end);
      for (let o = 0; o < seats.length; o++) {
        if (o === player) continue;
        const target = ownPosition(seats, o, square);
        for (const q of pieces[o]) if (q >= 0 && q < RING && target - q >= 1 && target - q <= 6) behind++;
        if (target === 0 && pieces[o].includes(HOUSE)) behind++;
      }
      for (let dd = 1; dd <= 6; dd++) {
        if (move.end + dd >= RING) break;
        const hit = onRing(ringSquare(seats, player, move.end + dd));
        if (hit !== null && hit !== player) ahead++;
      }
    }
    const own = pieces[player];
    return [
      move.end - move.start,
      move.victim ? 1 : 0,
      behind,
      ahead,
      move.start === HOUSE ? 1 : 0,
      move.start < FIRST_GOAL && FIRST_GOAL <= move.end ? 1 : 0,
      own.includes(0) && own.includes(HOUSE) ? 1 : 0,
    ];
  }

  /** Σ weight · feature, summed in the order of the features (as Python). */
  score(features) {
    let total = 0.0;
    features.forEach((f, i) => {
      total += this.weights[i] * f;
    });
    return total;
  }

  /** Index into obs.moves of the move the weights choose (highest score; ties: furthest along, then first). */
  choose(obs) {
    let best = 0;
    let bestKey = null;
    obs.moves.forEach((m, i) => {
      const key = [this.score(this.features(obs, m)), m.start];
      if (bestKey === null || key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
        best = i;
        bestKey = key;
      }
    });
    return best;
  }
}

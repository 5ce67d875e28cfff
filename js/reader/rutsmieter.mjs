// ---------------------------------------------------------------------------
// Rutsmieter: the linear move evaluator (rutsmieter/policy.py)
// ---------------------------------------------------------------------------

import { LoadedFile } from "./base.mjs";
import { jsonEqual } from "./schema.mjs";

// the features of the first policy files: a file may give these seven only, the others then weigh 0
export const RUTSMIETER_FEATURES_V1 = ["progress", "capture", "danger_behind", "danger_ahead", "leave_house",
  "enter_goal", "block_start"];
export const RUTSMIETER_FEATURES = [...RUTSMIETER_FEATURES_V1, "capture_progress", "capture_leader",
  "risk_progress", "start_danger", "next_danger", "goal_loose", "own_progress", "own_goal", "own_house",
  "own_threatened", "opp_progress", "lead_progress", "lead_goal", "opp_house", "opp_risk"];
// the features of the position after the move only (rutsmieter/policy.py POSITION_FEATURES)
export const RUTSMIETER_POSITION_FEATURES = RUTSMIETER_FEATURES.slice(RUTSMIETER_FEATURES.indexOf("risk_progress"));
const TABLE_FIELD = "weights_by_players";
// a piece's position in its player's own count: the house, the ring from its start, the goal lane
export const HOUSE = -1;
export const RING = 40;
export const FIRST_GOAL = 40;
const LAST_GOAL = FIRST_GOAL + 3; // LAST_POSITION
export const SEAT_SPACING = 10; // squares between the starts of neighbouring seats

const mod = (a, m) => ((a % m) + m) % m;
/** The board's square of ring position `x` of the player at seat index `p`. */
export const ringSquare = (seats, p, x) => mod(x + SEAT_SPACING * seats[p], RING);
/** The ring position, in the count of the player at seat index `p`, of board square `sq`. */
export const ownPosition = (seats, p, sq) => mod(sq - SEAT_SPACING * seats[p], RING);

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const goalCount = (own) => own.filter((x) => x >= FIRST_GOAL).length;
/** How far a player is (as the places at the end): pieces in the goal lane, then progress. */
const rank = (own) => 1000 * goalCount(own) + sum(own);
const finished = (own) => own.every((x) => x >= FIRST_GOAL);

/** Pieces of player `o` that could land on ring square `sq` with one throw, plus 1 if it is o's start
 * square while o has a piece in the house (rutsmieter/reference.py threats_by). */
function threatsBy(seats, pieces, o, sq) {
  const target = ownPosition(seats, o, sq);
  let total = 0;
  for (const q of pieces[o]) if (q >= 0 && q < RING && target - q >= 1 && target - q <= 6) total++;
  return total + (target === 0 && pieces[o].includes(HOUSE) ? 1 : 0);
}

/** The threats of every opponent of `player` to ring square `sq` (rutsmieter/reference.py threats). */
function threats(seats, pieces, player, sq) {
  let total = 0;
  for (let o = 0; o < seats.length; o++) if (o !== player) total += threatsBy(seats, pieces, o, sq);
  return total;
}

/** The next player clockwise who has not finished (`player` itself if none). */
function nextPlayer(pieces, player) {
  const n = pieces.length;
  for (let step = 1; step < n; step++) {
    const q = (player + step) % n;
    if (!finished(pieces[q])) return q;
  }
  return player;
}

/** The position features (RUTSMIETER_POSITION_FEATURES) of a position for `player`, who has just
 * moved (rutsmieter/policy.py position_features): integers. */
export function positionFeatures(seats, pieces, player) {
  const own = pieces[player];
  const others = seats.map((_, o) => o).filter((o) => o !== player);
  const ring = own.filter((x) => x >= 0 && x < RING);
  const risk = ring.map((x) => threats(seats, pieces, player, ringSquare(seats, player, x)));
  let startDanger = 0;
  for (const x of ring) {
    for (const o of others) {
      const d = ownPosition(seats, o, ringSquare(seats, player, x));
      if (pieces[o].includes(HOUSE) && d >= 1 && d <= 6) startDanger++;
    }
  }
  const q = nextPlayer(pieces, player);
  const nextDanger = q === player ? 0 : sum(ring.map((x) => threatsBy(seats, pieces, q, ringSquare(seats, player, x))));
  const goalLoose = own.filter((x) => {
    if (x < FIRST_GOAL) return false;
    for (let y = x + 1; y <= LAST_GOAL; y++) if (!own.includes(y)) return true;
    return false;
  }).length;
  const progress = others.map((o) => sum(pieces[o].map((x) => x + 1)));
  let oppRisk = 0;
  for (const o of others) {
    for (const y of pieces[o]) {
      if (y >= 0 && y < RING) oppRisk += threatsBy(seats, pieces, player, ringSquare(seats, o, y)) * (y + 1);
    }
  }
  return [
    sum(risk.map((r, i) => r * (ring[i] + 1))),
    startDanger,
    nextDanger,
    goalLoose,
    sum(own.map((x) => x + 1)),
    goalCount(own),
    own.filter((x) => x === HOUSE).length,
    risk.filter((r) => r > 0).length,
    sum(progress),
    progress.length ? Math.max(...progress) : 0,
    others.length ? Math.max(...others.map((o) => goalCount(pieces[o]))) : 0,
    sum(others.map((o) => pieces[o].filter((y) => y === HOUSE).length)),
    oppRisk,
  ];
}

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

/** All weights of a set, in the order of RUTSMIETER_FEATURES: a file's seven are padded with zeros. */
const fullWeights = (set, features) => RUTSMIETER_FEATURES.map((f) => (features.includes(f) ? set[f] : 0.0));

export class RutsmieterPolicy extends LoadedFile {
  constructor(d, contentSha256, fail, callerRules) {
    super("rutsmieter", d, callerRules ? { ...d.rules, ...callerRules, game: "rutsmieter" } : d.rules, contentSha256);
    this.summary = d.summary ?? null;
    const features = d.features;
    if (!jsonEqual(features, RUTSMIETER_FEATURES) && !jsonEqual(features, RUTSMIETER_FEATURES_V1)) {
      fail(`features must be ${RUTSMIETER_FEATURES.join(", ")} in this order (or the first ${RUTSMIETER_FEATURES_V1.length} of them)`);
    }
    const table = d[TABLE_FIELD] ?? {};
    for (const set of [d.weights, ...Object.values(table)]) {
      if (!jsonEqual(Object.keys(set).sort(), [...features].sort())) {
        fail(`every weight set needs the weights of its features, ${features.join(", ")}`);
      }
    }
    this.featureNames = RUTSMIETER_FEATURES;
    this.fileFeatures = [...features];
    this.baseWeights = fullWeights(d.weights, features);
    // table size -> its weight set ("weights_by_players"), in the order of RUTSMIETER_FEATURES
    this.weightsByPlayers = Object.fromEntries(Object.entries(table).map(([n, set]) => [Number(n), fullWeights(set, features)]));
    // the weights for the caller's table (the caller's rules' players), else the file's "weights"
    this.weights = this.weightsFor(callerRules?.players ?? null);
  }

  /** The weight set the bot plays at a table of `players` (the file's set for that size, else "weights"). */
  weightsFor(players) {
    return this.weightsByPlayers[players] ?? this.baseWeights;
  }

  /** The features of `move` (rutsmieter/policy.py move_features) in a situation {seats, pieces, player}:
   * RUTSMIETER_FEATURES' values, integers. */
  features(obs, move) {
    const { seats, player } = obs;
    const before = obs.pieces;
    const pieces = before.map((p) => [...p]);
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
      behind = threats(seats, pieces, player, ringSquare(seats, player, move.end));
      for (let dd = 1; dd <= 6; dd++) {
        if (move.end + dd >= RING) break;
        const hit = onRing(ringSquare(seats, player, move.end + dd));
        if (hit !== null && hit !== player) ahead++;
      }
    }
    const own = pieces[player];
    let captureProgress = 0;
    let captureLeader = 0;
    if (move.victim) {
      const [vp, vk] = move.victim;
      captureProgress = before[vp][vk] + 1;
      let lead = -Infinity;
      before.forEach((q, o) => {
        if (o !== player && !finished(q)) lead = Math.max(lead, rank(q));
      });
      captureLeader = rank(before[vp]) === lead ? 1 : 0;
    }
    return [
      move.end - move.start,
      move.victim ? 1 : 0,
      behind,
      ahead,
      move.start === HOUSE ? 1 : 0,
      move.start < FIRST_GOAL && FIRST_GOAL <= move.end ? 1 : 0,
      own.includes(0) && own.includes(HOUSE) ? 1 : 0,
      captureProgress,
      captureLeader,
      ...positionFeatures(seats, pieces, player),
    ];
  }

  /** Σ weight · feature, summed in the order of the features (as Python), with the weight set of a
   * table of `players` (default: the caller's table, else the file's "weights"). */
  score(features, players = null) {
    const weights = players === null ? this.weights : this.weightsFor(players);
    let total = 0.0;
    features.forEach((f, i) => {
      total += weights[i] * f;
    });
    return total;
  }

  /** Index into obs.moves of the move the weights choose (highest score; ties: furthest along, then
   * first), with the weight set of the table of obs (its number of seats). */
  choose(obs) {
    let best = 0;
    let bestKey = null;
    obs.moves.forEach((m, i) => {
      const key = [this.score(this.features(obs, m), obs.seats.length), m.start];
      if (bestKey === null || key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
        best = i;
        bestKey = key;
      }
    });
    return best;
  }
}

// ---------------------------------------------------------------------------
// the features in the players' words (rutsmieter/words.py feature_value_words)
// ---------------------------------------------------------------------------

const count = (n, one, many = null) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many ?? `${one}s`}`;

/** What a move's feature value means to a player, word for word as Python's words.feature_value_words:
 * "2 opponent pieces can reach it", "captures the leader's piece", "its piece had come 23 squares". */
export function rutsmieterValueWords(feature, value) {
  const n = value.toLocaleString("en-US");
  switch (feature) {
    case "progress": return `walks ${count(value, "square")}`;
    case "capture": return value ? "captures" : "captures nothing";
    case "danger_behind": return value === 0 ? "no opponent can reach it" : `${count(value, "opponent piece")} can reach it`;
    case "danger_ahead": return value === 0 ? "no opponent piece just ahead" : `${count(value, "opponent piece")} within reach ahead`;
    case "leave_house": return value ? "brings a piece out" : "leaves the house as it is";
    case "enter_goal": return value ? "reaches the goal lane" : "stays out of the goal lane";
    case "block_start": return value ? "the start square stays blocked" : "the start square is free";
    case "capture_progress": return value ? `its piece had come ${count(value, "square")}` : "no piece to send home";
    case "capture_leader": return value ? "captures the leader's piece" : "not the leader's piece";
    case "risk_progress": return value === 0 ? "no piece of yours within reach" : `your pieces within reach: ${n} (threats times squares come)`;
    case "start_danger": return value === 0 ? "no piece an opponent can reach from its start square"
      : `${count(value, "piece")} an opponent can reach from its start square`;
    case "next_danger": return value === 0 ? "the next player can hit none of your pieces"
      : value === 1 ? "leaves a piece the next player can hit" : `leaves ${value} ways for the next player to hit your pieces`;
    case "goal_loose": return value === 0 ? "the goal lane is closed up" : `${count(value, "piece")} in the goal lane still to move up`;
    case "own_progress": return `your pieces have come ${count(value, "square")} in all`;
    case "own_goal": return `${count(value, "piece")} of yours in the goal lane`;
    case "own_house": return `${count(value, "piece")} of yours in the house`;
    case "own_threatened": return value === 0 ? "none of your pieces within reach" : `${count(value, "piece")} of yours within reach`;
    case "opp_progress": return `the opponents have come ${count(value, "square")} in all`;
    case "lead_progress": return `the opponent furthest along has come ${count(value, "square")}`;
    case "lead_goal": return `an opponent has ${count(value, "piece")} in the goal lane`;
    case "opp_house": return `${count(value, "opponent piece")} in the houses`;
    case "opp_risk": return value === 0 ? "no opponent piece within your reach" : `opponent pieces you can hit: ${n} (threats times squares come)`;
    default: throw new RangeError(`no feature ${feature}`);
  }
}

// tutto-sim policy reader for JavaScript: one dependency-free ES module.
//
// Reads the versioned policy files tutto-sim writes (docs/policy-format.md,
// docs/macke-solver.md, docs/rutsmieter.md, docs/win.md) and answers the same
// questions as the Python loaders:
//
//   Tutto           tutto_sim/tutto/policy.py        load_policy          keep, bank, draw, Straße
//   Macke, V. Lotte tutto_sim/macke/policy.py        load_macke_policy    keep, bank, return units
//   Rutsmieter      tutto_sim/rutsmieter/policy.py   load_weights_policy  the move
//   Tutto win table tutto_sim/tutto/win/table.py     load_win_table       W, the chance after banking
//     of N players  tutto_sim/tutto/win/table.py     load_win_table_n     each player's chance (W, E)
//   Macke win table tutto_sim/macke/win/table.py     load_win_table       W, the last turn's chance
//
// It refuses, with a one-line PolicyError, what Python refuses, in Python's
// order: unreadable or non-UTF-8 bytes, broken JSON, another format, version,
// game or kind, a schema violation (the package's JSON Schemas, embedded
// below, checked with the keywords they use), a content hash that does not
// match (the same canonical JSON as Python's json.dumps(sort_keys=True,
// separators=(",", ":"), ensure_ascii=True), floats written as Python's repr),
// invalid rules or a rules hash that does not match, rules other than the
// caller's, and decisions that are not legal for their throw or state.
//
// It also gives the Tutto cards one may bank on and the Rutsmieter board and
// legal moves, which the advisor page words its advice with.
//
// Works in node >= 18 and in browsers (file:// or any static host); SHA-256
// comes from globalThis.crypto.subtle. See docs/advisor.md, "JavaScript policy
// reader".

export { FORMAT, GAMES, POINT_UNIT, PolicyError, VERSION } from "./base.mjs";
export { parseRawJson, toValue } from "./raw-json.mjs";
export { canonicalJson, contentHash, HASHED_FIELDS, OPTIONAL_HASHED_FIELDS, pyFloatRepr, sha256Hex } from "./canonical-json.mjs";
export { pyRepr } from "./repr.mjs";
export { schemaError } from "./schema.mjs";
export { loadPolicy, loadPolicyFile } from "./read.mjs";
export { tuttoThrowNames } from "./dice.mjs";
export { BANKABLE, TUTTO_CARDS, TUTTO_DECK, tuttoKeepsTable, TuttoPolicy } from "./tutto.mjs";
export { MackePolicy, mackeTables } from "./macke.mjs";
export { FIRST_GOAL, HOUSE, legalMoves, ownPosition, positionFeatures, RING, ringSquare, RUTSMIETER_FEATURES,
  RUTSMIETER_FEATURES_V1, RUTSMIETER_POSITION_FEATURES, RutsmieterPolicy, rutsmieterValueWords, SEAT_SPACING }
  from "./rutsmieter.mjs";
export { TuttoWinTable } from "./tutto-win.mjs";
export { TuttoWinTableN } from "./tutto-win-n.mjs";
export { mackeSeriesMax, MackeWinTable } from "./macke-win.mjs";

// ---------------------------------------------------------------------------
// The rules of each game: defaults, checks and to_dict as in Python
// ---------------------------------------------------------------------------

import { POINT_UNIT } from "./base.mjs";
import { pyRepr } from "./repr.mjs";
import { isType } from "./schema.mjs";

const MAX_POINTS = 1000000;
const RULES = {
  tutto: {
    title: "Tutto",
    defaults: { six_of_kind: "two-triples", x2_scope: "turn", plusminus_chain: "continue", plusminus_deduction: "bank",
      reshuffle: "full", target: 6000, game_end: "round", cloverleaf_value: 0, deck: "real" },
    choices: { x2_scope: ["turn", "card"], plusminus_chain: ["continue", "bank", "flat"],
      plusminus_deduction: ["bank", "tutto"], reshuffle: ["full", "discard"], game_end: ["round", "immediate"],
      deck: ["real", "iid"] },
    check(r) {
      for (const name of ["target", "cloverleaf_value"]) {
        const v = r[name];
        const lowOk = name === "target" ? v > 0 : v >= 0;
        if (!(typeof v === "number" && Number.isInteger(v)) || !lowOk || v % POINT_UNIT || v > MAX_POINTS) {
          const kind = name === "target" ? "positive" : "non-negative";
          return `${name} must be a ${kind} multiple of ${POINT_UNIT} up to 1,000,000, not ${v}`;
        }
      }
      if (!["two-triples", "one-triple"].includes(r.six_of_kind)) {
        return `six_of_kind must be one of two-triples, one-triple, not ${pyRepr(r.six_of_kind)}`;
      }
      return null;
    },
    toDict(r) {
      const d = { game: "tutto", ...r };
      if (d.deck === "real") delete d.deck;
      return d;
    },
  },
};

RULES.macke = {
  title: "Berliner Macke",
  defaults: { variant: "standard", min_score: 300, throws: 3, bust: "subtract", target: 5000,
    six_of_kind: "two-triples", win_value: 5000 },
  choices: { variant: ["standard", "instant-win", "jackpot", "ones-and-fives", "volle-lotte"],
    bust: ["subtract", "zero"], six_of_kind: ["two-triples", "one-triple"] },
  check(r) {
    for (const name of ["min_score", "target", "win_value"]) {
      const v = r[name];
      const top = name === "min_score" ? 10000 : MAX_POINTS;
      if (!(typeof v === "number" && Number.isInteger(v)) || v < 0 || v % POINT_UNIT || v > top
          || (name === "target" && v === 0)) {
        return `${name} must be a non-negative multiple of ${POINT_UNIT} up to ${top.toLocaleString("en-US")}, not ${v}`;
      }
    }
    if (!(typeof r.throws === "number" && Number.isInteger(r.throws)) || r.throws < 1 || r.throws > 6) {
      return `throws must be 1..6, not ${r.throws}`;
    }
    return null;
  },
  toDict(r) {
    return { game: "macke", ...r };
  },
};

export function checkedRules(game, raw) {
  // RulesCls.from_dict(d) then .to_dict(): the file's rules as Python rebuilds them
  const spec = RULES[game];
  if (!isType(raw, "object")) return [null, "rules must be an object"];
  const d = { ...raw };
  const g = Object.hasOwn(d, "game") ? d.game : game;
  delete d.game;
  if (g !== game) return [null, `not a ${spec.title} rules object`];
  const names = Object.keys(spec.defaults);
  const unknown = Object.keys(d).filter((k) => !names.includes(k)).sort();
  if (unknown.length) {
    return [null, `unknown ${spec.title.split(" ").pop()} rule option(s): ${unknown.join(", ")}; valid: ${[...names].sort().join(", ")}`];
  }
  const r = { ...spec.defaults, ...d };
  for (const [name, choices] of Object.entries(spec.choices)) {
    if (!choices.includes(r[name])) return [null, `${name} must be one of ${choices.join(", ")}, not ${pyRepr(r[name])}`];
  }
  const bad = spec.check(r);
  if (bad) return [null, bad];
  return [spec.toDict(r), null];
}

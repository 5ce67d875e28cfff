// Test driver for tutto_sim/web/policy.mjs (tests/web/test_policy_js.py).
//
//   node driver.mjs answer CASES.json   -> the JS answers to the exported situations, one JSON list
//   node driver.mjs load JOBS.json      -> per job {file, game, rules?, name?}: {ok} or {reason, message}
//   node driver.mjs canon TEXTS.json    -> the canonical JSON (for the hashes) of each JSON text
//   node driver.mjs tables RULES.json   -> per rules object: Tutto's keeps or Macke's tables, built from the rules
//   node driver.mjs chances CASES.json  -> an N-player Tutto win table's chances at each case's turn start
//
// The answers take the shapes of tutto_sim/web/export.py's Python answers.
import { readFileSync } from "node:fs";
import { canonicalJson, loadPolicy, loadPolicyFile, mackeTables, parseRawJson, PolicyError, tuttoKeepsTable }
  from "../../tutto_sim/web/policy.mjs";

const [mode, file] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(file, "utf8"));

function answer(p, game, c) {
  if (game === "tutto") {
    if (c.q === "keep") {
      const k = p.keep(c.card, c.total, c.dice, c.card_points);
      return k === null ? null : { dice: k.dice, points: k.points };
    }
    if (c.q === "bank") return p.bank(c.card, c.left, c.total, c.card_points);
    if (c.q === "draw") return p.draw(c.total);
    if (c.q === "street") return p.streetTake(c.aside, c.new);
  }
  if (game === "macke") {
    const s = { locked: c.locked, aside: c.aside, throwOfSeries: c.throw, dice: c.dice };
    if (c.q === "keep") {
      const k = p.keep(s);
      return k === null ? null : k.state;
    }
    if (c.q === "return") return p.returnUnits(s);
    if (c.q === "bank") return p.bank(s);
  }
  if (game === "rutsmieter") return { move: p.choose(c), features: c.moves.map((m) => p.features(c, m)) };
  if (game === "tutto-win") {
    if (c.q === "W") return p.W(c.seat, c.own, c.other);
    if (c.q === "bank") return p.bankChance(c.seat, c.own, c.other, c.total);
    // inside a turn (tutto/web_cases.py win_turn_cases): the decision and each option's chance
    const sit = { seat: c.seat, scores: c.scores, lastRound: c.last_round, plusMinusTuttos: c.pm, card: c.card,
      turnTotal: c.total, cardPoints: c.card_points, dice: c.dice, throw: c.throw, cloverSecond: c.clover_second,
      aside: c.aside, newNumbers: c.new };
    if (c.q === "turn-keep") {
      const r = p.keepDice(sit);
      return { dice: r.dice, chances: r.options.map((o) => o.chance) };
    }
    if (c.q === "turn-bank") {
      const r = p.banks(sit);
      return { bank: r.bank, chances: [r.chances.bank, r.chances.throw] };
    }
    if (c.q === "turn-tutto") {
      const r = p.banksAfterTutto(sit);
      return { bank: r.bank, chances: [r.chances.bank, r.chances.draw] };
    }
    if (c.q === "turn-street") {
      const r = p.streetTake(sit);
      return { take: r.take, chances: r.options.map((o) => o.chance) };
    }
  }
  if (game === "macke-win") {
    if (c.q === "W") return p.W(c.own, c.other);
    if (c.q === "last") return p.lastTurn(c.need);
  }
  throw new Error(`no question ${c.q} for ${game}`);
}

if (mode === "answer") {
  const p = await loadPolicy(readFileSync(spec.policy), { game: spec.game, name: spec.policy });
  process.stdout.write(JSON.stringify(spec.cases.map((c) => answer(p, spec.game, c))) + "\n");
} else if (mode === "load") {
  const out = [];
  for (const job of spec) {
    try {
      await loadPolicyFile(job.file, { game: job.game, rules: job.rules ?? null, name: job.name,
        players: job.players ?? null });
      out.push({ ok: true });
    } catch (e) {
      if (!(e instanceof PolicyError)) throw e;
      out.push({ reason: e.reason, message: e.message });
    }
  }
  process.stdout.write(JSON.stringify(out) + "\n");
} else if (mode === "chances") {
  const p = await loadPolicy(readFileSync(spec.policy), { game: "tutto-win", name: spec.policy, players: spec.players });
  process.stdout.write(JSON.stringify(spec.cases.map((c) => p.chances(c.seat, c.scores, c.last_round))) + "\n");
} else if (mode === "tables") {
  const tables = (r) => (r.game === "tutto" ? tuttoKeepsTable(r.six_of_kind) : mackeTables(r));
  process.stdout.write(JSON.stringify(spec.map(tables)) + "\n");
} else if (mode === "canon") {
  process.stdout.write(JSON.stringify(spec.map((text) => canonicalJson(parseRawJson(text)))) + "\n");
} else {
  console.error("usage: node driver.mjs answer CASES.json | load JOBS.json | canon TEXTS.json | tables RULES.json | chances CASES.json");
  process.exit(2);
}

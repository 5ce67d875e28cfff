#!/usr/bin/env node
// A Tutto bot in JavaScript: plays whole turns from a tutto-sim policy file
// with the JavaScript policy reader (tutto_sim/web/policy.mjs), under node.
//
//   node examples/tutto_bot.mjs                       5 turns told in words, seed 1
//   node examples/tutto_bot.mjs --turns 200000 --seed 7 --show 0
//   node examples/tutto_bot.mjs --policy my-table.json --card bonus400
//   node examples/tutto_bot.mjs --win-table tests/web/data/tutto-win-300.json --seat 0 --own 100 --other 150
//
// With --win-table the bot plays to win the game instead (two players): every decision from the
// win table's reader (TuttoWinTable: keepDice, banks, banksAfterTutto, streetTake) at the scores
// given (--last-round: the second player's last turn, the opponent at or past the target), and
// each turn is scored by the chance to win it leaves (after a bank, a Niete, a Plus/Minus Tutto's
// deduction, a Kleeblatt's win); their mean approaches the table's chance at the turn's start.
//
// The bot knows the deck and what each card does (docs/rules.md section 4);
// every decision and every point value comes from the policy file, read and
// checked by policy.mjs (a damaged file or one for other rules is refused
// with one line and exit code 2). Cards are drawn independently with the
// deck's frequencies, the convention the table was solved for, so the mean
// banked points approach the file's exact turn EV. Dice and cards come from
// a small seeded generator (xoshiro128**): the same seed plays the same
// turns; tutto-sim's own random streams differ, only the averages agree.

import { fileURLToPath } from "node:url";
import { BANKABLE, loadPolicyFile, PolicyError, TUTTO_CARDS, TUTTO_DECK } from "../tutto_sim/web/policy.mjs";

const DEFAULT_POLICY = fileURLToPath(new URL("../tutto_sim/data/policies/tutto-default.json", import.meta.url));
const DECK = TUTTO_CARDS.flatMap((card, i) => Array(TUTTO_DECK[i]).fill(card));
const BONUS = { bonus200: 200, bonus300: 300, bonus400: 400, bonus500: 500, bonus600: 600 };
const SAY = { stop: "Stop", fireworks: "Feuerwerk", bonus200: "Bonus 200", bonus300: "Bonus 300",
  bonus400: "Bonus 400", bonus500: "Bonus 500", bonus600: "Bonus 600", x2: "x2", plusminus: "Plus/Minus",
  street: "Straße", cloverleaf: "Kleeblatt" };

/** xoshiro128** seeded through splitmix32: 32-bit words, the same on every machine. */
export class Dice {
  constructor(seed) {
    let s = seed >>> 0;
    const split = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s = [split(), split(), split(), split()];
  }

  next() {
    const s = this.s;
    const result = Math.imul(((Math.imul(s[1], 5) << 7) | (Math.imul(s[1], 5) >>> 25)), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ((s[3] << 11) | (s[3] >>> 21)) >>> 0;
    for (let i = 0; i < 4; i++) s[i] >>>= 0;
    return result;
  }

  /** Uniform 0..n-1 without bias (rejection). */
  below(n) {
    const limit = Math.floor(4294967296 / n) * n;
    for (;;) {
      const r = this.next();
      if (r < limit) return r % n;
    }
  }

  throw(n) {
    return Array.from({ length: n }, () => this.below(6) + 1);
  }

  card() {
    return DECK[this.below(DECK.length)];
  }
}

const fmt = (dice) => [...dice].join("-");

/** Straße: true when 1-2-3-4-5-6 is completed, false on a Niete. */
function playStreet(policy, rng, say) {
  const have = new Set();
  while (have.size < 6) {
    const dice = rng.throw(6 - have.size);
    const fresh = [...new Set(dice)].filter((f) => !have.has(f)).sort((a, b) => a - b);
    if (!fresh.length) {
      say(`  throw ${fmt(dice)}: no new number, Niete`);
      return false;
    }
    const take = fresh.slice(0, policy.streetTake(have.size, fresh.length));
    take.forEach((f) => have.add(f));
    say(`  throw ${fmt(dice)}: set aside ${fmt(take)}, the Straße has ${fmt([...have].sort())}`);
  }
  return true;
}

/** A card played with 6 dice: [turn total, true] when the turn ends with that
 * many points banked, [turn total, false] after a Tutto with its reward added. */
function playDiceCard(policy, rng, card, total, say) {
  const rules = policy.rules;
  const bankable = BANKABLE.includes(card);
  const counts = bankable || card === "fireworks"; // Plus/Minus, Kleeblatt: the points do not count
  let left = 6;
  let cardPoints = 0;
  let tuttos = 0;
  for (;;) {
    const dice = rng.throw(left);
    const keep = policy.keep(card, total, dice, cardPoints);
    if (keep === null) {
      const banked = card === "fireworks" ? total : 0;
      say(`  throw ${fmt(dice)}: Niete, ${card === "fireworks" ? "the Feuerwerk banks" : "the turn banks"} ${banked}`);
      return [banked, true];
    }
    left -= keep.dice;
    if (counts) {
      total += keep.points;
      cardPoints += keep.points;
    }
    say(`  throw ${fmt(dice)}: set aside ${fmt(keep.faces)} = ${keep.points}${counts ? "" : " (does not count)"}; `
      + `turn total ${total}, ${left} ${left === 1 ? "die" : "dice"} left`);
    if (left === 0) {
      if (card === "fireworks" || card === "cloverleaf") {
        tuttos++;
        if (card === "cloverleaf" && tuttos === 2) {
          say(`  second Tutto: the Kleeblatt wins the game (worth ${rules.cloverleaf_value} in a turn's count)`);
          return [rules.cloverleaf_value, true];
        }
        say(`  Tutto ${tuttos} under the ${SAY[card]}: 6 dice again`);
        left = 6;
        continue;
      }
      break;
    }
    if (bankable) {
      if (policy.bank(card, left, total, cardPoints)) {
        say(`  bank ${total}`);
        return [total, true];
      }
      say("  throw on");
    }
  }
  // a Tutto: the card's reward
  if (card === "x2") total = rules.x2_scope === "card" ? total + cardPoints : 2 * total;
  else if (card === "plusminus") {
    total += 1000;
    if (rules.plusminus_chain !== "continue") {
      const banked = rules.plusminus_chain === "bank" ? total : 1000;
      say(`  Tutto: Plus/Minus +1000, the turn ends and banks ${banked}`);
      return [banked, true];
    }
  } else total += BONUS[card];
  say(`  Tutto! turn total ${total}`);
  return [total, false];
}

/** One turn played to win from the situation `sit` (seat, scores, lastRound) with the win table
 * `win`; the chance to win that the turn leaves, as the table's turn programme values it. */
export function playWinTurn(win, sit, rng, firstCard = null, say = () => {}) {
  const rules = win.rules;
  const here = { ...sit, scores: [...sit.scores], plusMinusTuttos: 0 };
  const banked = (total) => {
    say(`  bank ${total}`);
    return win.turnEnds({ ...here, turnTotal: total }).bank;
  };
  const bust = (why) => {
    say(`  ${why}: the turn ends with nothing`);
    return win.turnEnds({ ...here, turnTotal: 0 }).bust;
  };
  // a Plus/Minus Tutto: 1,000 from the opponent if he led or tied at the start of the turn (at the bank
  // or now, as the rules say); the reader's layer for the Tuttos made from the scores at the turn's start
  const plusMinus = () => { here.plusMinusTuttos++; };
  let total = 0;
  let card = firstCard ?? rng.card();
  for (;;) {
    say(` card: ${SAY[card]}`);
    if (card === "stop") return bust("Stop");
    if (card === "street") {
      const have = new Set();
      while (have.size < 6) {
        const dice = rng.throw(6 - have.size);
        const fresh = [...new Set(dice)].filter((f) => !have.has(f)).sort((a, b) => a - b);
        if (!fresh.length) return bust(`throw ${fmt(dice)}: no new number, Niete`);
        const take = win.streetTake({ ...here, turnTotal: total, aside: have.size, newNumbers: fresh.length }).take;
        fresh.slice(0, take).forEach((f) => have.add(f));
        say(`  throw ${fmt(dice)}: set aside ${fmt(fresh.slice(0, take))}`);
      }
      total += 2000;
      say(`  Straße complete: turn total ${total}`);
    } else {
      const bankable = BANKABLE.includes(card);
      let left = 6, cardPoints = 0, tuttos = 0, tutto = false;
      while (!tutto) {
        const dice = rng.throw(left);
        let k, points;
        if (card === "fireworks") { // every scoring die, until a Niete, which banks the total
          const forced = win.keepDice({ ...here, card: "bonus200", turnTotal: 0, throw: dice }).options.at(-1);
          if (!forced) {
            say(`  throw ${fmt(dice)}: Niete, the Feuerwerk banks`);
            return banked(total);
          }
          [k, points] = [forced.dice, forced.points];
        } else {
          const r = win.keepDice({ ...here, card, turnTotal: total, cardPoints, throw: dice, cloverSecond: tuttos === 1 });
          if (r.dice === 0) return bust(`throw ${fmt(dice)}: Niete`);
          [k, points] = [r.dice, r.options.find((o) => o.dice === r.dice).points];
        }
        left -= k;
        if (bankable || card === "fireworks") {
          total += points;
          cardPoints += points;
        }
        say(`  throw ${fmt(dice)}: set aside ${k} ${k === 1 ? "die" : "dice"}; turn total ${total}, ${left} ${left === 1 ? "die" : "dice"} left`);
        if (left === 0) {
          if (card === "fireworks" || card === "cloverleaf") {
            tuttos++;
            if (card === "cloverleaf" && tuttos === 2) {
              say("  second Tutto: the Kleeblatt wins the game");
              return 1.0;
            }
            left = 6;
            continue;
          }
          tutto = true;
        } else if (bankable && win.banks({ ...here, card, turnTotal: total, cardPoints, dice: left }).bank) {
          return banked(total);
        }
      }
      if (card === "x2") total = rules.x2_scope === "card" ? total + cardPoints : 2 * total;
      else if (card === "plusminus") {
        total += 1000;
        plusMinus();
        if (rules.plusminus_chain !== "continue") return banked(rules.plusminus_chain === "bank" ? total : 1000);
      } else total += BONUS[card];
      say(`  Tutto! turn total ${total}`);
    }
    if (win.banksAfterTutto({ ...here, turnTotal: total }).bank) return banked(total);
    say("  draw another card");
    card = rng.card();
  }
}

/** One turn; the points banked. */
export function playTurn(policy, rng, firstCard = null, say = () => {}) {
  let total = 0;
  let card = firstCard ?? rng.card();
  for (;;) {
    say(` card: ${SAY[card]}`);
    if (card === "stop") {
      say(`  Stop: the turn total ${total} is lost`);
      return 0;
    }
    if (card === "street") {
      if (!playStreet(policy, rng, say)) return 0;
      total += 2000;
      say(`  Straße complete (+2000, a Tutto): turn total ${total}`);
    } else {
      const [t, ended] = playDiceCard(policy, rng, card, total, say);
      if (ended) return t;
      total = t;
    }
    if (!policy.draw(total)) {
      say(`  bank ${total}`);
      return total;
    }
    say("  draw another card");
    card = rng.card();
  }
}

function parseArgs(argv) {
  const a = { turns: 5, seed: 1, show: null, policy: DEFAULT_POLICY, card: null, win: null, seat: 0, own: 0, other: 0, last: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split("=", 2);
    const value = () => inline ?? argv[++i];
    if (flag === "--turns") a.turns = Number(value());
    else if (flag === "--seed") a.seed = Number(value());
    else if (flag === "--show") a.show = Number(value());
    else if (flag === "--policy") a.policy = value();
    else if (flag === "--card") a.card = value();
    else if (flag === "--win-table") a.win = value();
    else if (flag === "--seat") a.seat = Number(value());
    else if (flag === "--own") a.own = Number(value());
    else if (flag === "--other") a.other = Number(value());
    else if (flag === "--last-round") a.last = true;
    else if (flag === "--help" || flag === "-h") a.help = true;
    else return [null, `unknown option ${argv[i]}; valid: --turns N, --seed S, --show K, --policy FILE, --card CARD, --win-table FILE, --seat 0|1, --own POINTS, --other POINTS, --last-round`];
  }
  if (!Number.isInteger(a.turns) || a.turns < 1) return [null, `--turns must be a whole number of at least 1, not ${a.turns}`];
  if (!Number.isInteger(a.seed) || a.seed < 0 || a.seed > 0xffffffff) return [null, `--seed must be a whole number 0..4294967295, not ${a.seed}`];
  if (a.show !== null && !(Number.isInteger(a.show) && a.show >= 0)) return [null, `--show must be a whole number of turns, not ${a.show}`];
  if (a.card !== null && !TUTTO_CARDS.includes(a.card)) return [null, `unknown card ${a.card}; valid: ${TUTTO_CARDS.join(", ")}`];
  if (a.seat !== 0 && a.seat !== 1) return [null, `--seat must be 0 (first in the round) or 1, not ${a.seat}`];
  for (const [flag, v] of [["--own", a.own], ["--other", a.other]]) {
    if (!(Number.isInteger(v) && v >= 0 && v % 50 === 0)) return [null, `${flag} must be a score in points, 0 or more in steps of 50, not ${v}`];
  }
  if (a.last && a.seat !== 1) return [null, "--last-round is the second player's last turn: give --seat 1"];
  return [a, null];
}

/** The policy file read by the reader, or null after its one-line refusal on stderr. */
async function load(path, game) {
  try {
    return await loadPolicyFile(path, { game });
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    console.error(`tutto_bot: error: ${e.message}`);
    return null;
  }
}

/** --turns turns of `playOne(rng, say)` with the seeded dice, the first --show told in words:
 * the mean of their values, its standard deviation and the 95% CI's half width. */
function playTurns(a, playOne) {
  const show = a.show ?? Math.min(a.turns, 5);
  const rng = new Dice(a.seed);
  let sum = 0;
  let sum2 = 0;
  for (let i = 0; i < a.turns; i++) {
    const say = i < show ? (text) => console.log(text) : () => {};
    say(`turn ${i + 1}`);
    const v = playOne(rng, say);
    sum += v;
    sum2 += v * v;
  }
  const mean = sum / a.turns;
  const sd = a.turns > 1 ? Math.sqrt(Math.max(0, (sum2 - a.turns * mean * mean) / (a.turns - 1))) : 0;
  return { mean, sd, half: (1.96 * sd) / Math.sqrt(a.turns) };
}

async function main() {
  const [a, error] = parseArgs(process.argv.slice(2));
  if (error) {
    console.error(`tutto_bot: error: ${error}`);
    return 2;
  }
  if (a.help) {
    console.log("usage: node examples/tutto_bot.mjs [--turns N] [--seed S] [--show K] [--policy FILE] [--card CARD]\n"
      + "       node examples/tutto_bot.mjs --win-table FILE [--seat 0|1] [--own POINTS] [--other POINTS] [--last-round] [--turns N] [--seed S] [--show K] [--card CARD]");
    return 0;
  }
  if (a.win !== null) return winMain(a);
  const policy = await load(a.policy, "tutto");
  if (policy === null) return 2;
  const { mean, sd, half } = playTurns(a, (rng, say) => {
    const v = playTurn(policy, rng, a.card, say);
    say(` the turn banks ${v}`);
    return v;
  });
  const exact = a.card ? policy.summary.cards[a.card].ev : policy.turnEv;
  console.log(`first card: ${a.card ? SAY[a.card] : "drawn"}; ${a.turns.toLocaleString("en-US")} turns, seed ${a.seed}`);
  console.log(`mean points per turn: ${mean.toFixed(2)} ± ${half.toFixed(2)} (95% CI; standard deviation ${sd.toFixed(2)})`);
  console.log(`the policy file's exact value: ${exact.toFixed(2)}`);
  return 0;
}

/** --win-table: turns played to win from the scores given; the mean chance to win they leave. */
async function winMain(a) {
  const win = await load(a.win, "tutto-win");
  if (win === null) return 2;
  const sit = { seat: a.seat, scores: a.seat === 0 ? [a.own, a.other] : [a.other, a.own], lastRound: a.last };
  let exact;
  try {
    if (a.last && win.immediate) throw new RangeError("--last-round: this win table's game ends at once when the target is reached");
    if (a.last && a.other < win.target) throw new RangeError(`--last-round: the opponent must have reached the target ${win.target}, not ${a.other}`);
    exact = a.last ? win.lastTurn(a.other - a.own) : win.W(a.seat, a.own, a.other);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    console.error(`tutto_bot: error: ${e.message}`);
    return 2;
  }
  const { mean, sd, half } = playTurns(a, (rng, say) => {
    const v = playWinTurn(win, sit, rng, a.card, say);
    say(` the chance to win after this turn: ${(100 * v).toFixed(1)}%`);
    return v;
  });
  const who = a.last ? `second player's last turn, ${a.other - a.own} behind` : `${a.seat === 0 ? "first" : "second"} in the round, ${a.own} against ${a.other}`;
  console.log(`playing to win to ${win.target}: ${who}; first card: ${a.card ? SAY[a.card] : "drawn"}; ${a.turns.toLocaleString("en-US")} turns, seed ${a.seed}`);
  console.log(`mean chance to win after the turn: ${mean.toFixed(5)} ± ${half.toFixed(5)} (95% CI; standard deviation ${sd.toFixed(5)})`);
  console.log(`the win table's chance at the turn's start: ${exact.toFixed(5)}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main();
}

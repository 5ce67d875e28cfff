#!/usr/bin/env python3
"""A tiny Tutto bot that plays whole turns from a tutto-sim policy file alone.

Plain Python, standard library only: it does not import tutto_sim. It knows the
deck and what each card does (docs/rules.md section 4); every decision and every
point value comes from the policy file (format: docs/policy-format.md):

    python examples/tutto_bot.py tutto_sim/data/policies/tutto-default.json --turns 5 --verbose
    python examples/tutto_bot.py POLICY.json --turns 100000 --card bonus400 --seed 1

Dice and cards come from random.Random(seed), so the same seed plays the same
turns. (tutto-sim's own engines use a different random stream; only the
averages agree.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys

FORMAT, VERSION = "tutto-sim-policy", 1

# The deck (docs/rules.md section 4.1): 56 cards, drawn independently with these
# frequencies within a turn (the turn-level convention the policy was solved for).
DECK_COUNTS = {"stop": 10, "fireworks": 5, "bonus200": 5, "bonus300": 5, "bonus400": 5,
               "bonus500": 5, "bonus600": 5, "x2": 5, "plusminus": 5, "street": 5,
               "cloverleaf": 1}
DECK = [card for card, n in DECK_COUNTS.items() for _ in range(n)]
BONUS = {"bonus200": 200, "bonus300": 300, "bonus400": 400, "bonus500": 500, "bonus600": 600}
BANKABLE = set(BONUS) | {"x2"}  # the only cards that allow banking before a Tutto
ALIASES = {"feuerwerk": "fireworks", "strasse": "street", "straße": "street",
           "kleeblatt": "cloverleaf", "stopp": "stop", "plus-minus": "plusminus"}


class PolicyError(Exception):
    """A policy file the bot must not play from."""


class Policy:
    """The checked policy file, plus the throw-id lookup built from it."""

    def __init__(self, d: dict):
        self.d = d
        self.rules = d["rules"]
        self.unit = d["point_unit"]
        self.last_row = d["turn_total_rows"] - 1
        self.throw_id = {faces: i for i, faces in enumerate(d["throws"])}

    def row(self, turn_total: int) -> int:
        """The turn-total row of every decision table."""
        return min(turn_total // self.unit, self.last_row)


# The fields content_sha256 covers (docs/policy-format.md, "The two hashes").
HASHED_FIELDS = ("format", "version", "game", "rules", "rules_sha256", "point_unit",
                 "turn_total_rows", "throws", "keeps", "keep", "tutto_keep", "bank", "draw",
                 "street_take", "x2_by_card_points")

def load_policy(path: str) -> Policy:
    """Read a policy file; raise PolicyError (one line) unless it is sound."""
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except OSError as e:
        raise PolicyError(f"cannot read {path}: {e.strerror}") from None
    except ValueError as e:
        raise PolicyError(f"{path} is damaged or truncated (not valid JSON: {e})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("game") != "tutto":
        raise PolicyError(f"{path} is not a tutto-sim policy file for Tutto")
    if d.get("version") != VERSION:
        raise PolicyError(f"{path} has version {d.get('version')!r}; this bot reads version {VERSION}")
    body = {k: d.get(k) for k in HASHED_FIELDS}  # the decisions, no floats
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    if hashlib.sha256(text.encode()).hexdigest() != d.get("content_sha256"):
        raise PolicyError(f"{path} was changed or damaged: its content_sha256 does not match")
    try:
        rules = d["rules"]
        if (rules["x2_scope"] not in ("turn", "card")
                or rules["plusminus_chain"] not in ("continue", "bank", "flat")):
            raise PolicyError(f"{path} has rules this bot does not know: {rules}")
        return Policy(d)
    except (KeyError, TypeError) as e:
        raise PolicyError(f"{path} lacks a field this bot needs: {e}") from None


# ---- randomness: module-level so a test can swap in another random stream ----
def throw_dice(rng: random.Random, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def draw_card(rng: random.Random) -> str:
    return rng.choice(DECK)


# ---- one card ----------------------------------------------------------------
def play_street(policy: Policy, rng, say) -> bool:
    """Straße: True when 1-2-3-4-5-6 is completed, False on a Niete."""
    have: set[int] = set()
    while len(have) < 6:
        dice = throw_dice(rng, 6 - len(have))
        new = sorted(set(dice) - have)
        if not new:
            say(f"  throw {fmt(dice)}: no new number, Niete")
            return False
        take = policy.d["street_take"][len(have)][len(new)]
        have.update(new[:take])  # the smallest new numbers first
        say(f"  throw {fmt(dice)}: set aside {fmt(new[:take])}, street has {fmt(sorted(have))}")
    return True


def play_dice_card(policy: Policy, rng, card: str, total: int, say) -> tuple[int, bool]:
    """Play a Bonus, x2, Plus/Minus, Kleeblatt or Feuerwerk card with 6 dice.

    Returns (turn total, True) when the turn ends here with that many points
    banked, or (turn total, False) after a Tutto with the card's reward added.
    """
    d, rules = policy.d, policy.rules
    by_points = card == "x2" and rules["x2_scope"] == "card"
    counts = card in BANKABLE or card == "fireworks"  # Plus/Minus, Kleeblatt: points don't count
    dice_left, card_points, tuttos = 6, 0, 0
    while True:
        dice = throw_dice(rng, dice_left)
        throw = policy.throw_id["".join(map(str, sorted(dice)))]
        if by_points:
            k = int(d["x2_by_card_points"][card_points // policy.unit]["keep"][policy.row(total)][throw])
        elif card in BANKABLE:
            k = int(d["keep"][card][policy.row(total)][throw])
        else:
            k = int(d["tutto_keep"][card][throw])
        if k == 0:  # Niete: the Feuerwerk banks everything, any other card loses it
            banked = total if card == "fireworks" else 0
            say(f"  throw {fmt(dice)}: Niete, the turn banks {banked}")
            return banked, True
        kept_dice, points = next((faces, pts) for n, faces, pts in d["keeps"][throw] if n == k)
        dice_left -= k
        if counts:
            total += points
            card_points += points
        worth = f"{points}" if counts else f"{points}, which does not count"
        say(f"  throw {fmt(dice)}: set aside {fmt(kept_dice)} = {worth}; "
            f"turn total {total}, {dice_left} {'die' if dice_left == 1 else 'dice'} left")
        if dice_left == 0:
            if card in ("fireworks", "cloverleaf"):  # go on with 6 dice, no new card
                tuttos += 1
                say(f"  Tutto {tuttos} under this card, 6 dice again")
                if card == "cloverleaf" and tuttos == 2:
                    say(f"  Kleeblatt: two Tuttos in a row win the game (worth {rules['cloverleaf_value']})")
                    return rules["cloverleaf_value"], True
                dice_left = 6
                continue
            break
        if card in BANKABLE:
            bank = (d["x2_by_card_points"][card_points // policy.unit]["bank"] if by_points
                    else d["bank"][card])
            if bank[str(dice_left)][policy.row(total)] == "1":
                say(f"  bank {total}")
                return total, True
            say("  throw on")
    # A Tutto: the card's reward.
    if card == "x2":
        total = total + card_points if by_points else 2 * total
    elif card == "plusminus":
        total += 1000
        if rules["plusminus_chain"] != "continue":  # the turn ends at once
            banked = total if rules["plusminus_chain"] == "bank" else 1000
            say(f"  Tutto: Plus/Minus +1000, the turn ends and banks {banked}")
            return banked, True
    else:
        total += BONUS[card]
    say(f"  Tutto! turn total {total}")
    return total, False


# ---- one turn ----------------------------------------------------------------
def play_turn(policy: Policy, rng, first_card: str | None = None, log=None) -> int:
    """Play one turn; return the points banked. ``log(text)`` hears every event."""
    say = log or (lambda text: None)
    total = 0
    card = first_card or draw_card(rng)
    while True:
        say(f" card: {card}")
        if card == "stop":
            say(f"  Stop: the turn total {total} is lost")
            return 0
        if card == "street":
            if not play_street(policy, rng, say):
                return 0
            total += 2000
            say(f"  Straße complete (+2000, a Tutto): turn total {total}")
        else:
            total, ended = play_dice_card(policy, rng, card, total, say)
            if ended:
                return total
        # After a Tutto: bank, or draw a new card and play on with 6 dice.
        if policy.d["draw"][policy.row(total)] == "0":
            say(f"  bank {total}")
            return total
        say("  draw another card")
        card = draw_card(rng)


def fmt(dice) -> str:
    return "-".join(map(str, dice))


def simulate(policy: Policy, turns: int, seed: int, card: str | None = None,
             log=None) -> tuple[float, float]:
    """Mean banked points of ``turns`` turns and the half-width of its 95% CI."""
    rng = random.Random(seed)
    s = s2 = 0
    for i in range(turns):
        if log:
            log(f"turn {i + 1}")
        v = play_turn(policy, rng, card, log)
        if log:
            log(f" result: {v}")
        s += v
        s2 += v * v
    mean = s / turns
    var = (s2 - turns * mean * mean) / (turns - 1) if turns > 1 else 0.0
    return mean, 1.96 * math.sqrt(max(var, 0.0) / turns)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Play Tutto turns from a tutto-sim policy file.")
    p.add_argument("policy", help="policy file (JSON, version 1)")
    p.add_argument("--turns", type=int, default=10000, help="turns to play (default 10000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--card", help="first card of every turn (default: drawn); e.g. bonus400")
    p.add_argument("--verbose", action="store_true", help="print every turn's events")
    a = p.parse_args(argv)
    card = None
    if a.card is not None:
        card = ALIASES.get(a.card.strip().lower(), a.card.strip().lower())
        if card not in DECK_COUNTS:
            p.error(f"unknown card {a.card!r}; valid: {', '.join(DECK_COUNTS)}")
    if a.turns < 1:
        p.error("--turns must be at least 1")
    try:
        policy = load_policy(a.policy)
    except PolicyError as e:
        print(f"tutto_bot: error: {e}", file=sys.stderr)
        return 2
    mean, half = simulate(policy, a.turns, a.seed, card, print if a.verbose else None)
    summary = policy.d.get("summary", {})
    exact = summary.get("cards", {}).get(card, {}).get("ev") if card else summary.get("turn_ev")
    print(f"first card: {card or 'drawn'}; {a.turns} turns, seed {a.seed}")
    print(f"mean banked points: {mean:.1f} ± {half:.1f} (95% CI {mean - half:.1f} .. {mean + half:.1f})")
    if exact is not None:
        print(f"the policy file's exact value: {exact:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

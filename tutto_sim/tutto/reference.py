"""Reference engine: one whole Tutto turn in plain Python, read beside docs/rules.md §4.

It scores the dice themselves (``dice.scoring``), never the throw tables,
and counts real points. It reads the same random stream as the numba kernel
(``tutto_sim.core.rng``): a card is ``deck[below(56)]`` with the deck in card order,
and a throw of n dice is ``r = below(6**n)`` with die i showing
``(r // 6**i) % 6 + 1``. So for the same seed both engines see the same cards
and dice, and the tests demand the same turns from them.

The policy is a :class:`~tutto_sim.tutto.threshold.ThresholdPolicy`.
"""

from __future__ import annotations

from typing import NamedTuple

from tutto_sim.core.rng import Stream
from tutto_sim.dice.reference import legal_keeps, units_in
from tutto_sim.tutto.cards import BANKABLE_CARDS, DECK_COUNTS, Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.threshold import ThresholdPolicy

#: The deck as the random stream indexes it: every card, in card order.
DECK = [card for card in Card for _ in range(DECK_COUNTS[card])]


class TurnResult(NamedTuple):
    banked: int  # points added to the player's score
    first_card_tuttos: int  # Tuttos made under the first card of the turn
    throws: int


def throw_dice(stream: Stream, n: int) -> list[int]:
    r = stream.below(6**n)
    return [(r // 6**i) % 6 + 1 for i in range(n)]


def draw_card(stream: Stream) -> Card:
    return DECK[stream.below(len(DECK))]


def throw_street(stream: Stream, take) -> tuple[bool, int]:
    """The Straße: each throw sets aside new numbers (smallest first, at most
    ``take(numbers set aside, new numbers)``); a throw with no new number is a
    Niete. (completed, throws)."""
    have: set[int] = set()
    throws = 0
    while len(have) < 6:
        dice = throw_dice(stream, 6 - len(have))
        throws += 1
        new = sorted(set(dice) - have)
        if not new:
            return False, throws
        have.update(new[: take(len(have), len(new))])
    return True, throws


def choose_keep(rule: str, dice: list[int], rules: TuttoRules) -> tuple[int, int]:
    """(dice set aside, points) under a named keep rule; (0, 0) is a bust."""
    keeps = legal_keeps(dice, rules.scoring)
    if not keeps:
        return 0, 0
    if rule == "all" or len(dice) in keeps:  # every scoring die / every die scores
        most = max(keeps)
        return most, keeps[most]
    units = units_in(dice, rules.scoring)
    if rule == "best-unit":
        unit = max(units, key=lambda u: (u.points, -u.size))
        return unit.size, unit.points
    if rule == "fewest-dice":
        fewest = min(keeps)
        return fewest, keeps[fewest]
    if rule == "triples-ones":
        chosen = [u for u in units if u.size == 3 or u.face == 1]
        if not chosen:  # only 5s score: one of them
            chosen = [u for u in units if u.face == 5][:1]
        return sum(u.size for u in chosen), sum(u.points for u in chosen)
    raise ValueError(f"unknown keep rule {rule!r}")


def play_turn(rules: TuttoRules, policy: ThresholdPolicy, stream: Stream,
              first_card: Card | None = None) -> TurnResult:
    """Play one turn; ``first_card`` None draws it from the stream."""
    turn_total = 0
    throws = 0
    first_card_tuttos = 0
    on_first_card = True
    card = draw_card(stream) if first_card is None else first_card

    def result(banked: int) -> TurnResult:
        return TurnResult(banked, first_card_tuttos, throws)

    while True:
        plan = policy[card]
        if card is Card.STOP:  # no throw; the turn total is lost
            return result(0)

        if card is Card.FIREWORKS:
            # Forced: every throw set aside all scoring units; a Tutto goes on
            # with 6 dice and no new card; only a Niete ends it, and banks all.
            dice_left = 6
            while True:
                dice = throw_dice(stream, dice_left)
                throws += 1
                kept, points = choose_keep("all", dice, rules)
                if kept == 0:
                    return result(turn_total)
                turn_total += points
                dice_left -= kept
                if dice_left == 0:
                    dice_left = 6
                    if on_first_card:
                        first_card_tuttos += 1

        if card is Card.STREET:
            done, n = throw_street(stream, lambda have, new, most=plan.street_take: most)
            throws += n
            if done:
                turn_total += 2000  # completing the Straße counts as a Tutto
                first_card_tuttos += on_first_card
            else:
                return result(0)
        else:
            # Bonus, x2, Plus/Minus, Kleeblatt: set aside by the keep rule.
            dice_left = 6
            card_points = 0
            clover_tuttos = 0
            points_count = card in BANKABLE_CARDS  # P/M and Kleeblatt points don't count
            while True:
                dice = throw_dice(stream, dice_left)
                throws += 1
                kept, points = choose_keep(plan.keep, dice, rules)
                if kept == 0:  # Niete: the whole turn total is lost
                    return result(0)
                dice_left -= kept
                if points_count:
                    turn_total += points
                    card_points += points
                if dice_left == 0:
                    if card is not Card.CLOVERLEAF:
                        break
                    # Kleeblatt: a second Tutto in a row wins; no bank between.
                    clover_tuttos += 1
                    if on_first_card:
                        first_card_tuttos += 1
                    if clover_tuttos == 2:
                        return result(rules.cloverleaf_value)
                    dice_left = 6
                elif points_count:
                    threshold = plan.bank_at[dice_left - 1]
                    if threshold is not None and turn_total >= threshold:
                        return result(turn_total)
            if on_first_card:
                first_card_tuttos += 1
            if card is Card.X2:
                turn_total = turn_total + card_points if rules.x2_scope == "card" else 2 * turn_total
            elif card is Card.PLUSMINUS:
                turn_total += 1000
                if rules.plusminus_chain == "bank":
                    return result(turn_total)
                if rules.plusminus_chain == "flat":
                    return result(1000)
            else:
                turn_total += card.bonus
        # After a Tutto: bank, or draw a new card and play it with all 6 dice.
        if plan.draw_below is not None and turn_total >= plan.draw_below:
            return result(turn_total)
        card = draw_card(stream)
        on_first_card = False


def play_turn_exact(rules: TuttoRules, policy, stream: Stream,
                    first_card: Card | None = None) -> TurnResult:
    """Play one turn from a decision table (``tutto.policy.ExactPolicy``).

    The decisions are looked up by card, turn total (in rows of 50 points; a
    total beyond the last row uses the last row), the card's own points (x2
    scope "card" only) and the throw; the points come from the reference
    scorer. The table says how many dice to set aside; the keep is the best
    legal keep of that many dice.
    """
    from tutto_sim.dice.throws import build_tables

    tables = build_tables(rules.scoring)
    last_row = len(policy.draw) - 1
    turn_total = 0
    throws = 0
    first_card_tuttos = 0
    on_first_card = True
    card = draw_card(stream) if first_card is None else first_card

    def row() -> int:
        return min(turn_total // 50, last_row)

    def result(banked: int) -> TurnResult:
        return TurnResult(banked, first_card_tuttos, throws)

    while True:
        if card is Card.STOP:
            return result(0)
        if card is Card.STREET:
            done, n = throw_street(stream, lambda have, new: policy.street_take[have, new])
            throws += n
            if not done:
                return result(0)
            turn_total += 2000
        else:
            dice_left = 6
            card_points = 0
            tuttos_here = 0
            counts = card in BANKABLE_CARDS or card is Card.FIREWORKS
            by_points = card is Card.X2 and rules.x2_scope == "card"
            while True:
                dice = throw_dice(stream, dice_left)
                throws += 1
                ms = tables.multiset_of(dice)
                if by_points:
                    kept = int(policy.keep_x2p[card_points // 50, row(), ms])
                else:
                    kept = int(policy.keep[card, row(), ms])
                if kept == 0:
                    return result(turn_total if card is Card.FIREWORKS else 0)
                points = legal_keeps(dice, rules.scoring)[kept]
                dice_left -= kept
                if counts:
                    turn_total += points
                    card_points += points
                if dice_left == 0:
                    if card in (Card.FIREWORKS, Card.CLOVERLEAF):
                        tuttos_here += 1
                        first_card_tuttos += on_first_card
                        if card is Card.CLOVERLEAF and tuttos_here == 2:
                            return result(rules.cloverleaf_value)
                        dice_left = 6
                        continue
                    break
                if card in BANKABLE_CARDS:
                    table = policy.bank_x2p[card_points // 50] if by_points else policy.bank[card]
                    if table[dice_left, row()]:
                        return result(turn_total)
            if card is Card.X2:
                turn_total = turn_total + card_points if rules.x2_scope == "card" else 2 * turn_total
            elif card is Card.PLUSMINUS:
                turn_total += 1000
                if rules.plusminus_chain != "continue":
                    first_card_tuttos += on_first_card
                    return result(turn_total if rules.plusminus_chain == "bank" else 1000)
            else:
                turn_total += card.bonus
        first_card_tuttos += on_first_card
        if not policy.draw[row()]:
            return result(turn_total)
        card = draw_card(stream)
        on_first_card = False

"""The reference game follows the Tutto rules of docs/rules.md at game level.

Scenarios are played on a scripted stream: every ``below(m)`` call of the game
is listed with the value it returns, so the cards and dice are chosen by hand
and the test also checks the documented order of draws. The expected results
are worked out by hand from docs/rules.md.
"""

from collections import Counter

import numpy as np
import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.rng import Stream
from tutto_sim.dice.game import InstantWin
from tutto_sim.tutto.api import BANK, BANK_OR_DRAW, DRAW, KEEP
from tutto_sim.tutto.bots import RandomBot, ThresholdBot, threshold_policy
from tutto_sim.tutto.cards import DECK_COUNTS, Card
from tutto_sim.tutto.game import (
    Deck,
    GameConfig,
    TuttoGame,
    legal_keeps,
    play_game,
    street_keeps,
)
from tutto_sim.tutto.game_kernel import _deduct, plusminus_losers
from tutto_sim.tutto.rules import TuttoRules

# Positions of the cards in the unshuffled deck (card order).
POS = {Card.STOP: 0, Card.FIREWORKS: 10, Card.BONUS200: 15, Card.BONUS300: 20,
       Card.BONUS400: 25, Card.BONUS500: 30, Card.BONUS600: 35, Card.X2: 40,
       Card.PLUSMINUS: 45, Card.STREET: 50, Card.CLOVERLEAF: 55}


class ScriptedStream:
    """A stream that returns the listed values and checks each ``m``."""

    def __init__(self, script):
        self.script = list(script)

    def below(self, m):
        assert self.script, f"the game asked below({m}) after the script ended"
        want_m, value = self.script.pop(0)
        assert m == want_m, f"the game asked below({m}), the script expected below({want_m})"
        return value


def card(c, drawn=0):
    """The draw that brings card c first from a fresh deck (p = 0)."""
    assert drawn == 0
    return (56, POS[c])


def dice(*faces):
    return (6 ** len(faces), sum((f - 1) * 6**i for i, f in enumerate(faces)))


def scripted_game(bots, script, rules=TuttoRules(), scores=None):
    game = TuttoGame(bots, GameConfig(rules))
    stream = ScriptedStream(script)
    game.stream = stream
    game.deck.stream = stream
    if scores is not None:
        game.scores = list(scores)
    return game, stream


def banker():
    """Keeps every scoring die, banks at >= 300, also after a Tutto."""
    return ThresholdBot(threshold_policy(300, 300, "all"), TuttoRules(), "banker")


def drawer():
    """Keeps every scoring die, never banks: after a Tutto it always draws."""
    return ThresholdBot(threshold_policy(None, None, "all"), TuttoRules(), "drawer")


# ---- the deck --------------------------------------------------------------


def test_deck_without_replacement_then_reshuffled():
    deck = Deck(Stream(4, 0))
    first = [deck.draw() for _ in range(56)]
    assert Counter(first) == DECK_COUNTS
    assert deck.left() == (0,) * 11
    second = [deck.draw() for _ in range(56)]
    assert Counter(second) == DECK_COUNTS  # all 56 again after the deck ran out
    assert first != second


def test_deck_is_a_fisher_yates_shuffle_of_the_stream():
    # the whole shuffle done up front, the textbook way, with the same draws
    s = Stream(7, 3)
    cards = [c for c in Card for _ in range(DECK_COUNTS[c])]
    for p in range(56):
        j = p + s.below(56 - p)
        cards[p], cards[j] = cards[j], cards[p]
    deck = Deck(Stream(7, 3))
    assert [deck.draw() for _ in range(56)] == cards


def test_first_card_of_a_game_is_uniform():
    n = 20000
    stops = sum(Deck(Stream(1, i)).draw() is Card.STOP for i in range(n))
    p = 10 / 56
    assert abs(stops / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_independent_draws_do_not_track_the_deck():
    deck = Deck(Stream(2, 0), independent=True)
    drawn = [deck.draw() for _ in range(56)]
    assert deck.left() == tuple(DECK_COUNTS[c] for c in Card)
    assert Counter(drawn) != DECK_COUNTS  # with replacement: not a permutation of the deck


# ---- keeps -----------------------------------------------------------------


def test_legal_keeps_by_hand():
    keeps = {k.dice: k.points for k in legal_keeps((1, 1, 5, 2, 3, 4), TuttoRules().scoring)}
    assert keeps == {(1,): 100, (5,): 50, (1, 1): 200, (1, 5): 150, (1, 1, 5): 250}
    assert legal_keeps((2, 3, 4, 6), TuttoRules().scoring) == ()  # a Niete
    keeps = {k.dice: k.points for k in legal_keeps((2, 2, 2, 2), TuttoRules().scoring)}
    assert keeps == {(2, 2, 2): 200}
    assert [k.dice for k in street_keeps([2, 5])] == [(2,), (5,), (2, 5)]


# ---- Plus/Minus deductions ---------------------------------------------------

DEDUCTIONS = [
    # scores before the turn, seat banking, its Plus/Minus Tuttos -> scores after deductions
    ([3000, 3000, 500, 3000], 2, 1, [2000, 2000, 500, 2000]),  # every other leader
    # the players who lose are fixed once, at the start of the turn: the second
    # Tutto takes from the same leader although he no longer leads
    ([4000, 3500, 500], 2, 2, [2000, 3500, 500]),
    ([2500, 2500, 2000], 2, 2, [500, 500, 2000]),  # below the roller after the first
    ([3000, 3000, 2500, 1000], 3, 2, [1000, 1000, 2500, 1000]),
    ([3000, 3000, 2500, 1000], 3, 3, [0, 0, 2500, 1000]),  # never below 0
    ([5000, 2000], 0, 1, [5000, 2000]),  # the player leads alone: nobody loses
    ([5000, 2000], 0, 3, [5000, 2000]),
    ([5000, 5000], 0, 1, [5000, 4000]),  # tied with the player: the other loses
    ([5000, 5000, 5000], 1, 2, [3000, 5000, 3000]),
    ([3000, 2500], 1, 2, [1000, 2500]),  # two players: on below the roller
    ([700, 200], 1, 1, [0, 200]),  # never below 0
    ([0, 0, 0], 1, 3, [0, 0, 0]),
]


def _refound(before, seat, tuttos):
    """The reading this project no longer follows: the leaders found afresh at
    each Tutto (the tests below must tell the two apart)."""
    s = list(before)
    for _ in range(tuttos):
        top = max(s)
        s = [max(0, x - 1000) if j != seat and x == top and top > 0 else x for j, x in enumerate(s)]
    return s


@pytest.mark.parametrize("before, seat, tuttos, after", DEDUCTIONS)
def test_plusminus_deduction_both_engines(before, seat, tuttos, after):
    # worked out by hand: k Tuttos take k x 1000 from the players fixed at the start
    game = TuttoGame([RandomBot()] * len(before))
    game.scores = list(before)
    game._deduct(game.plusminus_losers(seat), tuttos)
    assert game.scores == after
    units = np.array(before, dtype=np.int64) // 50
    _deduct(units, plusminus_losers(units, seat, len(before)), len(before), tuttos)
    assert (units * 50).tolist() == after


def test_deductions_tell_the_readings_apart():
    differ = [d for d in DEDUCTIONS if _refound(d[0], d[1], d[2]) != d[3]]
    assert len(differ) >= 5


def _two_plusminus_tuttos(n):
    """Plus/Minus, a Tutto at once (+1000), draw on, a second Plus/Minus (p = 1:
    j = 1 + 45 = 46, the first draw swapped the Stop to 45), a Tutto (+1000),
    bank 2000: the bot draws after a Tutto below 2000."""
    bot = ThresholdBot(threshold_policy(None, 2000, "all"), TuttoRules(), "b")
    script = [card(Card.PLUSMINUS), dice(1, 1, 1, 5, 5, 5), (55, 45), dice(1, 5, 1, 5, 1, 5)]
    return [bot] * n, script


@pytest.mark.parametrize("deduction", ["bank", "tutto"])
@pytest.mark.parametrize("before, seat, after", [
    ([2500, 2500, 2000], 2, [500, 500, 4000]),  # two tied leaders fall below the roller
    ([3000, 3000, 2500, 1000], 3, [1000, 1000, 2500, 3000]),  # and below a third player
    ([3000, 2500], 1, [1000, 4500]),  # two players: below the roller after the first Tutto
])
def test_two_plusminus_tuttos_take_from_the_players_fixed_at_the_start(deduction, before, seat,
                                                                      after):
    bots, script = _two_plusminus_tuttos(len(before))
    rules = TuttoRules(plusminus_deduction=deduction)
    game, stream = scripted_game(bots, script, rules, scores=before)
    banked = game._turn(seat)
    assert banked == 2000 and not stream.script
    game.scores[seat] += banked
    assert game.scores == after
    refound = _refound(before, seat, 2)
    refound[seat] += banked
    assert refound != after


def test_plusminus_banked_takes_1000_from_the_leader():
    # seat 0 draws Plus/Minus, throws 1-1-1-5-5-5 (a Tutto at once), +1000, banks
    script = [card(Card.PLUSMINUS), dice(1, 1, 1, 5, 5, 5)]
    game, stream = scripted_game([banker(), banker()], script, scores=[0, 3000])
    assert game._turn(0) == 1000  # the rolled points do not count
    assert game.scores == [0, 2000]
    assert not stream.script


@pytest.mark.parametrize("deduction, leader_after", [("bank", 3000), ("tutto", 2000)])
def test_plusminus_lost_turn(deduction, leader_after):
    # Plus/Minus Tutto, draw again (p = 1: below(55)), a Stop: the turn is lost;
    # the deduction happens only with the option "tutto"
    script = [card(Card.PLUSMINUS), dice(1, 1, 1, 5, 5, 5), (55, 0)]
    rules = TuttoRules(plusminus_deduction=deduction)
    game, stream = scripted_game([drawer(), banker()], script, rules, scores=[0, 3000])
    assert game._turn(0) == 0
    assert game.scores == [0, leader_after]
    assert not stream.script


@pytest.mark.parametrize("chain, banked", [("continue", 1700), ("bank", 1700), ("flat", 1000)])
def test_plusminus_chain_options(chain, banked):
    # Bonus 200: 2-2-2-3-3-3 = 500, Tutto +200 = 700; the bot draws on below 1000:
    # the second draw (p = 1) is j = 1 + 44 = 45, a Plus/Minus: 1-5-1-5-1-5 is a
    # Tutto (its points do not count), +1000 = 1700. "flat" banks exactly 1000.
    bot = ThresholdBot(threshold_policy(None, 1000, "all"), TuttoRules(plusminus_chain=chain), "b")
    script = [card(Card.BONUS200), dice(2, 2, 2, 3, 3, 3), (55, POS[Card.PLUSMINUS] - 1),
              dice(1, 5, 1, 5, 1, 5)]
    game, stream = scripted_game([bot, banker()], script, TuttoRules(plusminus_chain=chain))
    assert game._turn(0) == banked
    assert not stream.script


@pytest.mark.parametrize("scope, banked", [("turn", 4400), ("card", 3700)])
def test_x2_doubles_the_turn_total(scope, banked):
    # Bonus 200 Tutto: 700; draw on (below 1000): j = 1 + 39 = 40, an x2;
    # 1-1-1-5-5-5 = 1500: scope "turn" (700 + 1500) * 2, scope "card" 700 + 2 * 1500
    rules = TuttoRules(x2_scope=scope)
    bot = ThresholdBot(threshold_policy(None, 1000, "all"), rules, "b")
    script = [card(Card.BONUS200), dice(2, 2, 2, 3, 3, 3), (55, POS[Card.X2] - 1),
              dice(1, 1, 1, 5, 5, 5)]
    game, stream = scripted_game([bot, banker()], script, rules)
    assert game._turn(0) == banked
    assert not stream.script


# ---- Kleeblatt, Feuerwerk, Stop ---------------------------------------------------


def test_kleeblatt_two_tuttos_win_at_once():
    script = [card(Card.CLOVERLEAF), dice(1, 1, 1, 5, 5, 5), dice(2, 2, 2, 6, 6, 6)]
    game, stream = scripted_game([banker(), banker()], script, scores=[0, 5900])
    with pytest.raises(InstantWin):
        game._turn(0)
    assert not stream.script


def test_kleeblatt_niete_loses():
    script = [card(Card.CLOVERLEAF), dice(1, 1, 1, 5, 5, 5), dice(2, 3, 4, 6, 2, 3)]
    game, _ = scripted_game([banker(), banker()], script)
    assert game._turn(0) == 0


def test_feuerwerk_forced_and_banked_at_its_niete():
    # 1-5-2-3-4-6: all scoring dice (1 and 5) are set aside: 150; 2-2-2-1: 300, Tutto:
    # on with 6 dice, no card; 2-3-4-6-2-3: Niete, the Feuerwerk banks 450
    script = [card(Card.FIREWORKS), dice(1, 5, 2, 3, 4, 6), dice(2, 2, 2, 1),
              dice(2, 3, 4, 6, 2, 3)]
    game, stream = scripted_game([drawer(), banker()], script)
    assert game._turn(0) == 450
    assert not stream.script


def test_stop_loses_the_turn_total():
    # Bonus 300: 1-1-1-5-5-5 Tutto = 1500 + 300; the drawer draws again: a Stop
    script = [card(Card.BONUS300), dice(1, 1, 1, 5, 5, 5), (55, 0)]
    game, _ = scripted_game([drawer(), banker()], script)
    assert game._turn(0) == 0


# ---- end of the game, ties ---------------------------------------------------------


def test_round_is_finished_and_the_highest_score_wins():
    bots = parse_bots("cautious,threshold:600,reckless", TuttoRules())
    for i in range(40):
        rec = play_game(bots, GameConfig(), 3, i)
        if rec.end == "round":
            assert rec.turns % 3 == 0 and len(set(rec.turns_by_seat)) == 1
            assert max(rec.scores) >= 6000
            assert set(rec.winners) == {j for j, s in enumerate(rec.scores) if s == max(rec.scores)}
        else:
            assert rec.end == "cloverleaf" and rec.winners == ((rec.turns - 1) % 3,)


def test_immediate_the_first_to_reach_the_target_wins():
    bots = parse_bots("cautious,threshold:600,reckless", TuttoRules())
    rules = TuttoRules(game_end="immediate", target=3000)
    for i in range(40):
        rec = play_game(bots, GameConfig(rules), 3, i)
        last = (rec.turns - 1) % 3
        assert rec.winners == (last,)
        if rec.end == "target":
            assert rec.scores[last] >= 3000
            assert all(s < 3000 for j, s in enumerate(rec.scores) if j != last)


def test_a_tie_shares_the_win():
    rec = None
    bots = parse_bots("cautious,cautious,cautious,cautious", TuttoRules())
    for i in range(400):
        rec = play_game(bots, GameConfig(TuttoRules(target=1000)), 8, i)
        if len(rec.winners) > 1:
            break
    assert len(rec.winners) > 1
    assert sum(rec.share(j) for j in range(4)) == pytest.approx(1.0)
    assert rec.share(rec.winners[0]) == pytest.approx(1 / len(rec.winners))


def test_max_rounds_ends_a_game_of_bots_that_never_bank():
    rec = play_game([drawer(), drawer()], GameConfig(max_rounds=5), 1, 0)
    assert rec.end in ("cap", "cloverleaf") and rec.turns <= 10


# ---- bots that misbehave -----------------------------------------------------------


class Banana:
    name = "banana"

    def act(self, d):
        return "banana"


class Crash:
    name = "crash"

    def act(self, d):
        if d.kind == KEEP:
            return max(d.legal, key=lambda k: len(k.dice))
        raise ZeroDivisionError("oops")


def test_illegal_action_is_reported_by_name_and_counted_as_a_bust():
    rec = play_game([Banana(), banker()], GameConfig(), 1, 0)
    assert rec.errors, "the bot never had to decide"
    assert all(seat == 0 and e.startswith("bot banana returned an illegal action 'banana'")
               for seat, e in rec.errors)
    assert "legal:" in rec.errors[0][1]
    assert rec.winners == (1,)


def test_a_crashing_bot_is_reported_not_raised():
    rec = play_game([Crash(), banker()], GameConfig(), 2, 0)
    assert rec.errors and all(e.startswith("bot crash raised ZeroDivisionError: oops") for _, e in rec.errors)


def test_decision_shows_the_public_state():
    seen = []

    class Spy:
        name = "spy"

        def act(self, d):
            seen.append(d)
            if d.kind in (BANK_OR_DRAW, "bank-or-throw"):
                return BANK
            return d.legal[-1]

    play_game([Spy(), banker()], GameConfig(), 5, 0)
    d = seen[0]
    assert d.game.names == ("spy", "banker") and d.game.seat == 0
    assert d.game.turn == 2 * d.game.round and len(d.game.scores) == 2
    assert 0 <= sum(d.game.deck_left) < 56  # at least this turn's card is drawn
    assert d.rng is not None and d.legal
    assert DRAW not in seen[0].legal or seen[0].kind == BANK_OR_DRAW

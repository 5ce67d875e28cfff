"""The reference Macke game follows the rules of docs/macke.md at game level.

Scenarios are played on a scripted stream: every ``below(m)`` call of the game
is listed with the value it returns, so the throws are chosen by hand and the
test also checks that the game throws exactly as documented (one
``below(6**n)`` per throw of n dice, nothing else). Expected scores, winners
and turns are worked out by hand from docs/macke.md: a turn total >= 300 is
added, a lower one subtracted, a Macke scores 0 on the turn's first throw and
subtracts the turn total later; when a player ends a turn at or above the
target, every other player gets exactly one more turn (nachwerfen); the
highest score wins, ties share; five 1s win at once under ``instant-win``.
"""

import re

import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.rng import Stream
from tutto_sim.macke.bots import KernelBot
from tutto_sim.macke.game import (
    BANK_OR_SERIES,
    END_INSTANT,
    END_NACHWERFEN,
    RETURN,
    GameConfig,
    MackeGame,
    MackeKeep,
    play_macke_game,
    sub_keeps,
    throw_keeps,
)
from tutto_sim.macke.policy import MackeTablePolicy
from tutto_sim.macke.reference import play_turn
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import solve_macke
from tutto_sim.macke.threshold import MackeThresholdPolicy
from tutto_sim.tutto.api import BANK, BANK_OR_THROW, KEEP, THROW
from tutto_sim.tutto.bots import RandomBot

STANDARD = MackeRules()


class ScriptedStream:
    """A stream that returns the listed values and checks each ``m``."""

    def __init__(self, script):
        self.script = list(script)

    def below(self, m):
        assert self.script, f"the game asked below({m}) after the script ended"
        want_m, value = self.script.pop(0)
        assert m == want_m, f"the game asked below({m}), the script expected below({want_m})"
        return value


def dice(*faces):
    """The draw that throws these faces (die i shows (r // 6**i) % 6 + 1)."""
    return (6 ** len(faces), sum((f - 1) * 6**i for i, f in enumerate(faces)))


def banker(rules=STANDARD, k=300, clear=None, endgame=False, name="banker"):
    """Keeps every scoring unit, never returns, banks at >= k (after a clear at >= clear)."""
    return KernelBot(MackeThresholdPolicy(rules, k, k if clear is None else clear), name, endgame)


def scripted(bots, script, rules=STANDARD, scores=None, turn=0, finisher=None):
    game = MackeGame(bots, GameConfig(rules))
    stream = ScriptedStream(script)
    game.stream = stream
    if scores is not None:
        game.scores = list(scores)
    game.turn = turn
    game.finisher = finisher
    return game, stream


# ---- keeps -------------------------------------------------------------------


def test_keeps_of_a_throw_by_hand():
    keeps = {k.units: k.points for k in throw_keeps((1, 1, 1, 1, 5), STANDARD)}
    assert keeps[("1", "111", "5")] == 1150 and keeps[("1", "1", "1", "1")] == 400
    # ones: none, 1, 1+1, 1+1+1, 111, 1+1+1+1, 111+1 (7 ways); with or without the 5; not nothing
    assert keeps[("1",)] == 100 and len(keeps) == 7 * 2 - 1
    assert throw_keeps((2, 2, 3, 4, 6), STANDARD) == ()  # a Macke
    keeps = {k.units: k.points for k in throw_keeps((2, 3, 4, 5, 5), STANDARD)}
    assert keeps[("5", "small straight")] == 550
    assert [k.dice for k in throw_keeps((1, 5, 2, 3, 6), STANDARD)] == sorted(
        k.dice for k in throw_keeps((1, 5, 2, 3, 6), STANDARD))  # fewest dice first


def test_what_can_stay_aside_at_a_return():
    from collections import Counter

    subs = sub_keeps(Counter({"111": 1, "5": 1}), STANDARD)
    assert subs[0] == MackeKeep(("111", "5"), 4, 1050)  # returning nothing comes first
    assert {s.units for s in subs} == {("111", "5"), ("111",), ("5",), ()}


# ---- nachwerfen ---------------------------------------------------------------


def test_nachwerfen_every_other_player_exactly_one_more_turn():
    # seat 0 (4800) banks 1-1-1 = 1000: 5800, the target is reached. Seat 1 (4900)
    # banks 5-5-5: 5400, also at the target, which changes nothing; seat 2 (3000)
    # clears 1-1-1 + 1 + 5 = 1150 and banks: 4150. Then the game is over: seat 0
    # does not throw again.
    script = [dice(1, 1, 1, 2, 3), dice(5, 5, 5, 2, 3), dice(1, 1, 1, 1, 5)]
    game, stream = scripted([banker(), banker(), banker()], script, scores=[4800, 4900, 3000])
    rec = game.play()
    assert not stream.script
    assert rec.scores == [5800, 5400, 4150]
    assert rec.winners == (0,) and rec.end == END_NACHWERFEN
    assert rec.turns == 3 and rec.turns_by_seat == [1, 1, 1]


def test_nachwerfen_when_the_last_seat_reaches_the_target():
    # seats 0 and 1 throw a Macke on their first throw (0); seat 2 (4800) reaches
    # 5800. Seat 0: 5 (50), throws on, 2-2-3-6 is a Macke after the first throw:
    # -50. Seat 1: 1 (100), then 1-1-1 + 5 clears with 1150. Game over.
    script = [dice(2, 2, 3, 4, 6), dice(2, 2, 3, 4, 6), dice(1, 1, 1, 2, 3),
              dice(5, 2, 2, 3, 6), dice(2, 2, 3, 6),
              dice(1, 2, 2, 3, 6), dice(1, 1, 1, 5)]
    game, stream = scripted([banker(), banker(), banker()], script, scores=[0, 0, 4800])
    rec = game.play()
    assert not stream.script
    assert rec.scores == [-50, 1150, 5800]  # scores may go negative
    assert rec.turns == 5 and rec.turns_by_seat == [2, 2, 1]
    assert rec.winners == (2,)


@pytest.mark.parametrize("start, scores, winners", [
    (4100, [5200, 5250], (1,)),  # the nachwerfen overtakes the player who reached the target
    (4050, [5200, 5200], (0, 1)),  # a tie shares the win
    (4000, [5200, 5150], (0,)),
])
def test_highest_score_wins_ties_share(start, scores, winners):
    script = [dice(5, 5, 5, 2, 3), dice(1, 1, 1, 1, 5)]
    game, stream = scripted([banker(), banker()], script, scores=[4700, start])
    rec = game.play()
    assert not stream.script
    assert rec.scores == scores and rec.winners == winners
    assert [rec.share(j) for j in range(2)] == [1 / len(winners) if j in winners else 0 for j in range(2)]


def test_target_option():
    rules = MackeRules(target=1000)
    script = [dice(1, 1, 1, 2, 3), dice(5, 5, 5, 2, 3)]
    game, stream = scripted([banker(rules), banker(rules)], script, rules)
    rec = game.play()
    assert not stream.script and rec.scores == [1000, 500] and rec.turns == 2


def test_nachwerfen_seen_in_random_games():
    """Over random games of 2-5 players: after the first player ends a turn at
    or above the target, each other seat plays exactly once, the finisher never."""
    rules = MackeRules(target=1500)
    for n in (2, 3, 5):
        for i in range(40):
            lines = []
            bots = parse_bots(["random", "cautious", "optimal", "reckless", "endgame"][:n], rules)
            rec = play_macke_game(bots, GameConfig(rules), 3, i, narrate=lines.append)
            turns = [int(m.group(1)) for m in (re.match(r"-- seat (\d)", s) for s in lines) if m]
            assert len(turns) == rec.turns
            for t, seat in enumerate(turns):
                assert seat == t % n
            reached = [k for k, s in enumerate(lines) if "every other player throws once more" in s]
            assert len(reached) == 1 and rec.end == END_NACHWERFEN
            finisher = int(re.match(r"seat (\d)", lines[reached[0]]).group(1))
            after = [int(re.match(r"-- seat (\d)", s).group(1)) for s in lines[reached[0]:]
                     if s.startswith("-- seat")]
            assert sorted(after) == [j for j in range(n) if j != finisher]
            assert after == [(finisher + k) % n for k in range(1, n)]
            assert max(rec.scores) >= rules.target


# ---- scores: the minimum, Mackes, negative scores --------------------------------


def test_turn_below_the_minimum_is_subtracted():
    # 5 (50), throw on; 5 (100), throw on; 1 (200) on the last throw: 200 < 300
    script = [dice(5, 2, 2, 3, 6), dice(5, 2, 3, 6), dice(1, 2, 3)]
    game, stream = scripted([banker(), banker()], script)
    assert game._turn(0) == -200
    assert not stream.script


@pytest.mark.parametrize("bust, result", [("subtract", -1150), ("zero", 0)])
def test_macke_after_a_clear_subtracts_the_locked_total(bust, result):
    # 1-1-1 + 1 + 5 clears with 1150; a new series (bank a clear only at >= 2000);
    # its first throw is a Macke: the whole turn total is lost twice over
    rules = MackeRules(bust=bust)
    script = [dice(1, 1, 1, 1, 5), dice(2, 2, 3, 4, 6)]
    game, stream = scripted([banker(rules, 300, 2000), banker(rules)], script, rules)
    assert game._turn(0) == result
    assert not stream.script


def test_macke_on_the_first_throw_scores_zero():
    game, stream = scripted([banker(), banker()], [dice(2, 2, 3, 4, 6)])
    assert game._turn(0) == 0 and not stream.script


class ReturnAll:
    """Keeps the single 5, throws on, returns everything before the 2nd throw."""

    name = "returner"

    def act(self, d):
        if d.kind == KEEP:
            return d.legal[0]
        if d.kind == RETURN:
            return next(k for k in d.legal if k.units == ())
        return THROW


def test_returning_everything_makes_a_macke_free():
    # 5 (50) set aside, all dice back into the cup: the Macke of the 2nd throw
    # costs the turn total after the return, 0 (docs/macke.md, reading 3)
    script = [dice(5, 2, 2, 3, 6), dice(2, 2, 3, 4, 6)]
    game, stream = scripted([ReturnAll(), banker()], script)
    assert game._turn(0) == 0 and not stream.script


# ---- variants ------------------------------------------------------------------


def test_instant_win_during_the_nachwerfen_ends_the_game_at_once():
    rules = MackeRules.preset("instant-win")
    script = [dice(1, 1, 1, 2, 3), dice(1, 1, 1, 1, 1)]
    game, stream = scripted([banker(rules)] * 3, script, rules, scores=[4800, 0, 0])
    rec = game.play()
    assert not stream.script  # seat 2 never throws
    assert rec.winners == (1,) and rec.end == END_INSTANT
    assert rec.scores == [5800, 0, 0] and rec.turns == 2 and rec.banked == [1000, 0, 0]


def test_instant_win_on_the_first_throw_whatever_the_scores():
    rules = MackeRules.preset("instant-win")
    game, stream = scripted([banker(rules)] * 2, [dice(1, 1, 1, 1, 1)], rules, scores=[-500, 4950])
    rec = game.play()
    assert rec.winners == (0,) and rec.turns == 1 and rec.scores == [-500, 4950]


def test_five_ones_in_the_standard_game_are_a_clear():
    script = [dice(1, 1, 1, 1, 1)]
    game, stream = scripted([banker(), banker()], script)
    assert game._turn(0) == 1200 and not stream.script


def test_volle_lotte_big_straight():
    rules = MackeRules.preset("volle-lotte")
    script = [dice(6, 5, 4, 3, 2, 1)]
    game, stream = scripted([banker(rules), banker(rules)], script, rules)
    assert game._turn(0) == 2000 and not stream.script


# ---- the endgame bot -------------------------------------------------------------


def test_endgame_presses_on_when_behind_in_its_last_turn():
    # seat 0 reached 5100; seat 1 (4000) sets aside 1-1-1 (1000): banking gives 5000,
    # behind, so it throws on: 5 (1050, still behind), 5: a clear at 1100 = 5100,
    # level with the leader and at the target: it banks, and the tie shares the win.
    script = [dice(1, 1, 1, 2, 3), dice(5, 2), dice(5)]
    eg = banker(endgame=True, name="endgame")
    game, stream = scripted([banker(), eg], script, scores=[5100, 4000], turn=1, finisher=0)
    rec = game.play()
    assert not stream.script
    assert rec.scores == [5100, 5100] and rec.winners == (0, 1)
    # the same bot without the endgame rule banks the 1000 and loses
    game, stream = scripted([banker(), banker()], script, scores=[5100, 4000], turn=1, finisher=0)
    rec = game.play()
    assert rec.scores == [5100, 5000] and rec.winners == (0,) and len(stream.script) == 2


def test_endgame_banks_at_once_when_banking_reaches_the_target():
    # its table banks only at 2000; at 4800 the 1000 of 1-1-1 reach the target
    script = [dice(1, 1, 1, 2, 3), dice(2, 2, 3, 4, 6)]
    game, stream = scripted([banker(k=2000, endgame=True, name="eg"), banker()], script,
                            scores=[4800, 0])
    rec = game.play()
    assert not stream.script and rec.scores == [5800, 0]


# ---- illegal actions -------------------------------------------------------------


class Liar:
    name = "liar"

    def act(self, d):
        if d.kind == KEEP:
            return max(d.legal, key=lambda k: k.points)
        return "stop"


def test_illegal_action_is_reported_by_name_and_counts_as_a_bust():
    # the liar sets aside 1-1-1 (1000) and answers "stop": a bust at 1000, -1000.
    # seat 1 reaches the target; the liar's nachwerfen is a Macke on its first throw.
    script = [dice(1, 1, 1, 2, 3), dice(5, 5, 5, 2, 3), dice(2, 2, 3, 4, 6)]
    game, stream = scripted([Liar(), banker()], script, scores=[0, 4800])
    rec = game.play()
    assert not stream.script
    assert rec.scores == [-1000, 5300] and rec.winners == (1,)
    assert len(rec.errors) == 1 and rec.errors[0][0] == 0
    assert rec.errors[0][1].startswith("bot liar returned an illegal action 'stop' at a bank-or-throw")


def test_decisions_offer_what_the_rules_allow():
    seen = []

    class Spy:
        name = "spy"

        def act(self, d):
            seen.append(d)
            if d.kind == KEEP:
                return d.legal[-1]
            if d.kind == RETURN:
                return d.legal[0]
            return THROW if d.kind == BANK_OR_THROW else BANK

    # 1-1-1 + 2 + 3: keep the most; throw on; nothing returned; 5 + 5: a clear; bank
    script = [dice(1, 1, 1, 2, 3), dice(5, 5)]
    game, stream = scripted([Spy(), banker()], script, scores=[100, 4000])
    assert game._turn(0) == 1100 and not stream.script
    kinds = [d.kind for d in seen]
    assert kinds == [KEEP, BANK_OR_THROW, RETURN, KEEP, BANK_OR_SERIES]
    keep1, bank1, ret, keep2, clear = seen
    assert keep1.first_throw and keep1.throw == (1, 1, 1, 2, 3) and keep1.turn_total == 0
    assert keep1.legal[-1] == MackeKeep(("111",), 3, 1000)
    assert keep1.legal[-2] == MackeKeep(("1", "1", "1"), 3, 300)
    assert bank1.turn_total == 1000 and bank1.dice == 2 and bank1.throws_left == 2
    assert bank1.legal == (BANK, THROW) and bank1.bank_result == 1000
    assert ret.throws_left == 2 and ret.legal[0].units == ("111",) and len(ret.legal) == 2
    assert keep2.dice == 2 and not keep2.first_throw and keep2.aside.units == ("111",)
    assert clear.turn_total == 1100 and clear.legal == (BANK, THROW)
    assert bank1.game.scores == (100, 4000) and bank1.game.best_other == 4000
    assert not bank1.game.last_round


# ---- the game's turns are the turns of the turn engine ---------------------------


@pytest.mark.parametrize("rules", [STANDARD, MackeRules.preset("volle-lotte"),
                                   MackeRules.preset("instant-win", bust="zero", target=3000)],
                         ids=["standard", "volle-lotte", "instant-win"])
def test_one_player_game_is_a_run_of_turns_of_the_turn_engine(rules):
    """A one-player game reads its stream turn after turn: its score is the sum
    of ``reference.macke.play_turn`` results on the same stream, up to the first
    turn that reaches the target (or an instant win)."""
    policy = MackeTablePolicy.from_solution(solve_macke(MackeRules.preset(rules.variant, bust=rules.bust)))
    for i in range(15):
        stream = Stream(11, i)
        score, turns, sq, won = 0, 0, 0, False
        while score < rules.target:
            t = play_turn(rules, policy, stream)
            turns += 1
            if t.won:
                won = True
                break
            score += t.result
            sq += t.result**2
        rec = play_macke_game([KernelBot(policy)], GameConfig(rules), 11, i)
        assert (rec.scores[0], rec.turns, rec.banked_sq[0]) == (score, turns, sq)
        assert rec.end == (END_INSTANT if won else END_NACHWERFEN)


def test_random_bot_plays_whole_games():
    rules = MackeRules.preset("ones-and-fives", throws=2, min_score=200, target=2000)
    bots = [RandomBot(), RandomBot("random#2"), *parse_bots("cautious", rules)]
    for i in range(20):
        rec = play_macke_game(bots, GameConfig(rules), 4, i)
        assert not rec.errors and sum(rec.share(j) for j in range(3)) == pytest.approx(1)

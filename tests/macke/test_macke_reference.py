"""The plain-Python Macke engine follows the rules of docs/macke.md (and its
readings), checked on scripted throws, and plays legal turns under any
policy of the protocol."""

import random
from collections import Counter

import pytest

from tutto_sim.core.rng import Stream
from tutto_sim.macke.api import TurnView
from tutto_sim.macke.reference import StateCodec, play_turn, threshold_policy_value
from tutto_sim.macke.rules import VARIANTS, MackeRules
from tutto_sim.macke.tables import build_macke_tables
from tutto_sim.macke.threshold import MackeThresholdPolicy


class Scripted:
    """A stream that throws the given dice, in order (die i = digit i of r)."""

    def __init__(self, *throws):
        self.throws = list(throws)

    def below(self, m):
        dice = self.throws.pop(0)
        assert m == 6 ** len(dice), f"engine threw {m} outcomes, script has {dice}"
        return sum((d - 1) * 6**i for i, d in enumerate(dice))


class Script:
    """A policy that answers from a script and records what it was shown.

    ``steps`` is a list of ("keep", units) / ("bank", bool) / ("return", units)
    in the order the engine asks; units are unit names ("1", "111", ...).
    """

    def __init__(self, rules, *steps):
        self.tables = build_macke_tables(rules)
        self.codec = StateCodec(self.tables)
        self.steps = list(steps)
        self.seen = []

    def _next(self, kind, view):
        self.seen.append((kind, view))
        got, arg = self.steps.pop(0)
        assert got == kind, f"engine asked {kind}, script expected {got}"
        return arg

    def before_throw(self, view):
        return self.codec.index[tuple(sorted(self._next("return", view)))]

    def keep(self, view, throw, keeps):
        return self.codec.index[tuple(sorted(self._next("keep", view)))]

    def bank(self, view):
        return self._next("bank", view)


def _play(rules, steps, *throws):
    policy = Script(rules, *steps)
    res = play_turn(rules, policy, Scripted(*throws))
    assert not policy.steps, f"script not used up: {policy.steps}"
    return res, policy


R = MackeRules()


def test_macke_on_the_first_throw_scores_zero():
    res, _ = _play(R, [], [2, 2, 3, 4, 6])
    assert res.result == 0 and res.macke and res.throws == 1 and not res.reached_min


def test_later_macke_subtracts_the_turn_total():
    steps = [("keep", ["1", "5"]), ("bank", False), ("return", ["1", "5"])]
    res, _ = _play(R, steps, [1, 5, 2, 3, 6], [2, 3, 6])
    assert (res.result, res.turn_total, res.macke, res.throws) == (-150, 150, True, 2)
    res, _ = _play(MackeRules(bust="zero"), steps, [1, 5, 2, 3, 6], [2, 3, 6])
    assert (res.result, res.turn_total, res.macke) == (0, 150, True)
    # at or above the minimum it is subtracted all the same
    steps = [("keep", ["111", "5"]), ("bank", False), ("return", ["111", "5"])]
    res, _ = _play(R, steps, [1, 1, 1, 5, 2], [6])
    assert res.result == -1050


def test_macke_after_returns_subtracts_what_is_left():
    steps = [("keep", ["111", "5"]), ("bank", False), ("return", ["111"])]
    res, pol = _play(R, steps, [1, 1, 1, 5, 2], [2, 3])
    assert res.result == -1000 and res.turn_total == 1000
    # the return was asked before the 2nd throw, with what lay aside
    kind, view = pol.seen[-1]
    assert kind == "return" and view.throws_left == 2 and not view.first_throw_of_turn
    assert pol.codec.keeps[view.aside] == ("111", "5")


def test_throw_all_five_again():
    steps = [("keep", ["1"]), ("bank", False), ("return", []), ("keep", ["1", "1", "111"]),
             ("bank", True)]
    res, _ = _play(R, steps, [1, 2, 3, 4, 6], [1, 1, 1, 1, 1])
    assert res.result == 1200 and res.clears == 1 and res.throws == 2


def test_three_hundred_rule_and_end_after_the_last_throw():
    res, _ = _play(R, [("keep", ["1", "5", "5"]), ("bank", True)], [1, 5, 5, 2, 3])
    assert res.result == -200 and not res.reached_min
    res, _ = _play(R, [("keep", ["1", "1", "5"]), ("bank", True)], [1, 1, 5, 2, 3])
    assert res.result == -250
    res, _ = _play(R, [("keep", ["1", "1", "1"]), ("bank", True)], [1, 1, 1, 2, 3])
    assert res.result == 300 and res.reached_min  # three singles: exactly the minimum
    res, _ = _play(R, [("keep", ["111"]), ("bank", True)], [1, 1, 1, 2, 3])
    assert res.result == 1000 and res.reached_min
    # three throws: after the third the turn ends without a bank question
    steps = [("keep", ["5"]), ("bank", False), ("return", ["5"]),
             ("keep", ["5"]), ("bank", False), ("return", ["5", "5"]), ("keep", ["1"])]
    res, pol = _play(R, steps, [5, 2, 3, 4, 4], [5, 2, 3, 6], [1, 2, 6])
    assert (res.result, res.throws) == (-200, 3)
    assert pol.seen[-1][1].throws_left == 0
    # another minimum
    steps = [("keep", ["1", "1", "5"]), ("bank", True)]
    res, _ = _play(MackeRules(min_score=200), steps, [1, 1, 5, 2, 3])
    assert res.result == 250
    res, _ = _play(MackeRules(min_score=0), [("keep", ["5"]), ("bank", True)], [5, 2, 3, 4, 4])
    assert res.result == 50


def test_clear_new_series_and_locked_units():
    # 2-3-4-5-6 is a clear on the first throw; go on: the next throw is the
    # new series' first (no return question) and a Macke there subtracts
    steps = [("keep", ["big straight"]), ("bank", False)]
    res, pol = _play(R, steps, [2, 3, 4, 5, 6], [2, 2, 3, 4, 6])
    assert (res.result, res.macke, res.clears) == (-1000, True, 1)
    # a clear on the series' last throw still offers a new series, with 3 throws
    steps = [("keep", ["1"]), ("bank", False), ("return", ["1"]),
             ("keep", ["1"]), ("bank", False), ("return", ["1", "1"]),
             ("keep", ["555"]), ("bank", False),
             ("keep", ["5"]), ("bank", False), ("return", ["5"]),
             ("keep", ["1"]), ("bank", True)]
    res, pol = _play(R, steps, [1, 2, 3, 4, 4], [1, 2, 3, 4], [5, 5, 5],
                     [5, 2, 3, 4, 6], [1, 2, 3, 6])
    assert (res.result, res.clears, res.throws) == (850, 1, 5)
    clear_bank = [v for k, v in pol.seen if k == "bank"][2]
    assert clear_bank.throws_left == 0 and clear_bank.locked == 0
    new_keep = [v for k, v in pol.seen if k == "keep"][3]
    assert new_keep.locked == 700 and new_keep.throws_left == 2
    assert pol.codec.keeps[new_keep.aside] == ()
    # returns after a clear only offer this series' units
    ret = [v for k, v in pol.seen if k == "return"][-1]
    assert pol.codec.keeps[ret.aside] == ("5",) and ret.turn_total(pol.tables) == 750


def test_turn_views():
    steps = [("keep", ["1"]), ("bank", False), ("return", ["1"]), ("keep", ["5"]),
             ("bank", True)]
    _, pol = _play(R, steps, [1, 2, 3, 4, 4], [5, 2, 3, 4])
    kinds = [k for k, _ in pol.seen]
    assert kinds == ["keep", "bank", "return", "keep", "bank"]
    v = [v for _, v in pol.seen]
    assert v[0] == TurnView(0, pol.tables.empty, 2, True)
    assert pol.codec.keeps[v[1].aside] == ("1",) and v[1].first_throw_of_turn
    assert v[2].throws_left == 2 and not v[2].first_throw_of_turn
    assert v[3].throws_left == 1 and pol.codec.keeps[v[3].aside] == ("1",)
    assert pol.codec.keeps[v[4].aside] == ("1", "5") and v[4].turn_total(pol.tables) == 150


def test_throws_option():
    r = MackeRules(throws=1)
    res, _ = _play(r, [("keep", ["1"])], [1, 2, 3, 4, 4])  # no bank question: the turn ends
    assert res.result == -100
    r = MackeRules(throws=4)
    steps = [("keep", ["5"]), ("bank", False), ("return", ["5"]),
             ("keep", ["5"]), ("bank", False), ("return", ["5", "5"]),
             ("keep", ["5"]), ("bank", False), ("return", ["5", "5", "5"]),
             ("keep", ["1"])]
    res, _ = _play(r, steps, [5, 2, 3, 4, 4], [5, 2, 3, 4], [5, 2, 3], [1, 2])
    assert (res.result, res.throws) == (-250, 4)


def test_variants():
    res, _ = _play(MackeRules.preset("instant-win"), [], [1, 1, 1, 1, 1])
    assert res.won and res.result == 5000 and not res.macke
    res, _ = _play(MackeRules.preset("instant-win", win_value=100000), [], [1, 1, 1, 1, 1])
    assert res.result == 100000
    res, _ = _play(MackeRules(), [("keep", ["1", "1", "111"]), ("bank", True)], [1] * 5)
    assert res.result == 1200 and not res.won
    jack = MackeRules.preset("jackpot")
    res, _ = _play(jack, [("keep", ["five 1s"]), ("bank", True)], [1] * 5)
    assert res.result == 10000 and res.clears == 1
    res, _ = _play(MackeRules.preset("ones-and-fives"), [], [2, 2, 2, 3, 4])
    assert res.macke and res.result == 0
    vl = MackeRules.preset("volle-lotte")
    res, _ = _play(vl, [("keep", ["big straight"]), ("bank", True)], [6, 5, 4, 3, 2, 1])
    assert res.result == 2000


def test_illegal_answers_are_refused():
    with pytest.raises(ValueError, match="not legal"):
        _play(R, [("keep", ["111"])], [1, 2, 3, 4, 4])
    with pytest.raises(ValueError, match="not part"):
        _play(R, [("keep", ["1"]), ("bank", False), ("return", ["5"])], [1, 2, 3, 4, 4], [5])


class RandomPolicy:
    """Any legal move, at random: exercises every path of the engine."""

    def __init__(self, rules, seed):
        self.t = build_macke_tables(rules)
        self.rng = random.Random(seed)

    def before_throw(self, view):
        subs = self.t.sub_states[self.t.sub_start[view.aside]:self.t.sub_start[view.aside + 1]]
        return int(self.rng.choice(list(subs)))

    def keep(self, view, throw, keeps):
        assert list(keeps) == sorted(keeps)
        assert int(self.t.all_keep[throw]) in keeps
        return self.rng.choice(keeps)

    def bank(self, view):
        return self.rng.random() < 0.3


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_policy_plays_legal_turns(variant):
    rules = MackeRules.preset(variant)
    pol = RandomPolicy(rules, 5)
    ends = Counter()
    for i in range(400):
        t = play_turn(rules, pol, Stream(9, i))
        if t.won:
            assert t.result == rules.win_value
        elif t.macke:
            assert t.result in (0, -t.turn_total)
        else:
            assert t.result == (t.turn_total if t.turn_total >= rules.min_score else -t.turn_total)
            assert t.reached_min == (t.turn_total >= rules.min_score)
        assert t.throws >= 1 and t.turn_total % 50 == 0
        ends[(t.macke, t.clears > 0)] += 1
    assert len(ends) >= 3


def test_exact_value_of_bank_after_the_first_throw():
    """K = 0 banks after the first scoring throw: the value is a sum over the
    6**5 first throws, done here by hand with the rule text's points."""
    from fractions import Fraction
    from itertools import product

    from tutto_sim.macke.scoring import best_keep

    total = Fraction(0)
    for d in product(range(1, 7), repeat=5):
        best = best_keep(d, R)
        if best is not None:
            total += R.result(best[1])
    exact = total / 6**5
    value = threshold_policy_value(R, MackeThresholdPolicy.simple(R, 0))
    assert value == pytest.approx(float(exact), abs=1e-9)
    assert float(exact) == pytest.approx(128.7166, abs=1e-4)

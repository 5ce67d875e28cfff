"""The numba game kernel and the reference game play the same games.

Same seeds, same lineups: every game must end with the same scores, winners,
turns and banked points in both engines, whatever the rules, the bots (table,
compiled threshold, endgame) and the number of threads. The kernel's points
per turn then meet the exact turn values of the solver where no game effect
applies (cards drawn independently, as the turn analysis assumes).
"""

from dataclasses import replace

import numpy as np
import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import kernel_batch, make_lineups, reference_batch, run_tournament
from tutto_sim.tutto.bots import threshold_policy
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.game_kernel import SHARE, TuttoGameKernel
from tutto_sim.tutto.rules import TuttoRules

CASES = [
    # rules, bots, players, games
    (TuttoRules(), "optimal,cautious,threshold:400:900:triples-ones,endgame,reckless", 3, 150),
    (TuttoRules(x2_scope="card", plusminus_deduction="tutto", game_end="immediate", target=3000),
     "optimal,endgame,threshold:250:1500:fewest-dice", 2, 150),
    (TuttoRules(six_of_kind="one-triple", plusminus_chain="flat"),
     "endgame,threshold:350:600:best-unit,optimal,cautious,reckless", 5, 60),
    (TuttoRules(plusminus_chain="bank", target=2000), "endgame,endgame,cautious,reckless", 4, 100),
]


def _compare(rules, specs, players, games, seed=5):
    config = GameConfig(rules)
    bots = parse_bots(specs, rules)
    lineups = make_lineups(len(bots), players)
    k = kernel_batch(TuttoGameKernel(config, [b.table() for b in bots]), seed, 0, games, lineups)
    r = reference_batch(bots, config, seed, 0, games, lineups)
    for field in ("share", "score", "banked", "banked_sq", "turns", "end"):
        a, b = getattr(k, field), getattr(r, field)
        bad = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1))
        assert bad.size == 0, f"{field} differs in games {bad[:5]}: kernel {a[bad[:2]]} reference {b[bad[:2]]}"
    return k


@pytest.mark.parametrize("rules, specs, players, games", CASES,
                         ids=["default-3p", "x2card-tutto-immediate", "one-triple-flat-5p", "bank-4p"])
def test_kernel_plays_the_reference_games(rules, specs, players, games):
    k = _compare(rules, specs, players, games)
    assert (k.share.sum(axis=1) == SHARE).all()  # one win per game, ties share it
    assert (k.banked.sum(axis=1) >= k.score.sum(axis=1)).all()  # deductions only take


DRAWER = "threshold:300:5000:all"  # draws on after a Tutto below 5000: many Plus/Minus chains
# (rules, players, games of seed 5): games in which two Plus/Minus Tuttos of one
# banked turn take from players who no longer lead after the first
FIXED_ONCE = [
    (TuttoRules(), 3, (3, 897)),
    (TuttoRules(), 4, (3, 372, 399)),
    (TuttoRules(plusminus_deduction="tutto"), 3, (118, 582)),
    (TuttoRules(), 2, (727,)),
    (TuttoRules(plusminus_deduction="tutto"), 2, (727,)),
]


@pytest.mark.parametrize("rules, players, games", FIXED_ONCE,
                         ids=["bank-3p", "bank-4p", "tutto-3p", "bank-2p", "tutto-2p"])
def test_kernel_takes_from_the_players_fixed_at_the_start(rules, players, games, monkeypatch):
    """The reference engine (its deductions worked out by hand in
    test_game_rules.py) plays these games with a turn where finding the leaders
    afresh at each Tutto would take from others; the kernel plays them alike."""
    import tutto_sim.tutto.game as game_module

    differ = []
    deduct, turn = game_module.TuttoGame._deduct, game_module.TuttoGame._turn

    def spy_turn(self, seat):
        self.roller = seat
        return turn(self, seat)

    def spy_deduct(self, losers, tuttos):
        refound = list(self.scores)
        for _ in range(tuttos):  # the leaders found afresh at each Tutto
            top = max(refound)
            refound = [max(0, x - 1000) if j != self.roller and x == top and top > 0 else x
                       for j, x in enumerate(refound)]
        deduct(self, losers, tuttos)
        differ.append(refound != self.scores)

    monkeypatch.setattr(game_module.TuttoGame, "_turn", spy_turn)
    monkeypatch.setattr(game_module.TuttoGame, "_deduct", spy_deduct)
    config = GameConfig(rules)
    bots = parse_bots(DRAWER, rules)
    lineups = make_lineups(1, players)
    kernel = TuttoGameKernel(config, [b.table() for b in bots])
    for g in games:
        differ.clear()
        k = kernel_batch(kernel, 5, g, 1, lineups)
        r = reference_batch(bots, config, 5, g, 1, lineups)
        assert any(differ), f"game {g}: no turn where the readings differ"
        for field in ("share", "score", "banked", "turns", "end"):
            assert (getattr(k, field) == getattr(r, field)).all(), (g, field)


def test_independent_draws_same_in_both_engines():
    _compare(TuttoRules(deck="iid"), "optimal,cautious", 2, 100)


def test_game_effects_are_exercised():
    """The cases above see every kind of game end and Plus/Minus deductions."""
    rules, specs, players, _ = CASES[0]
    bots = parse_bots(specs, rules)
    lineups = make_lineups(len(bots), players)
    k = kernel_batch(TuttoGameKernel(GameConfig(rules), [b.table() for b in bots]), 5, 0, 3000, lineups)
    assert set(np.unique(k.end)) >= {0, 2}  # round finished, Kleeblatt
    assert (k.banked.sum(axis=1) > k.score.sum(axis=1)).any()  # someone lost 1000
    assert (k.share.max(axis=1) < SHARE).any()  # ties


def test_endgame_decides_differently_from_its_table():
    rules = TuttoRules()
    config = GameConfig(rules)
    lineups = make_lineups(2, 2)
    plain = parse_bots("optimal,cautious", rules)
    end = parse_bots("endgame,cautious", rules)
    ka = kernel_batch(TuttoGameKernel(config, [b.table() for b in plain]), 1, 0, 2000, lineups)
    kb = kernel_batch(TuttoGameKernel(config, [b.table() for b in end]), 1, 0, 2000, lineups)
    differ = (ka.score != kb.score).any(axis=1)
    assert 0 < differ.sum() < 2000


def test_results_do_not_depend_on_threads_or_blocks():
    bots = parse_bots("optimal,cautious,threshold:500", TuttoRules())
    kernel = TuttoGameKernel(GameConfig(), [b.table() for b in bots])
    lineups = make_lineups(3, 2)
    one = kernel.run(9, 100, 3000, lineups, threads=1, block=3000)
    two = kernel.run(9, 100, 3000, lineups, threads=2, block=37)
    for x, y in zip(one, two):
        assert np.array_equal(x, y)


def test_points_per_turn_meet_the_exact_turn_values():
    """Cards drawn independently: a turn in a game is a turn of the turn
    analysis, so the banked points per turn of the optimal table meet the
    solver's turn EV, and those of threshold:300 its exact policy value
    (within 1.7 half-widths of the 95% CI: a 3.3 sigma band, for a test that
    must not fail by chance)."""
    from tutto_sim.tutto.solver import exact_policy_value, solve_tutto

    rules = TuttoRules()
    res = run_tournament(parse_bots("optimal,threshold:300", rules), 2, 100_000, 1,
                         GameConfig(replace(rules, deck="iid")))
    stats = {b.name: b.points_per_turn for b in res.bot_stats()}
    exact = {"optimal": solve_tutto(rules).turn_ev,
             "threshold:300": exact_policy_value(threshold_policy(300, 300, "all").to_array(), None, rules)}
    for name, value in exact.items():
        est = stats[name]
        assert est.n > 1_000_000
        assert abs(est.mean - value) < 1.7 * est.ci95, f"{name}: {est} vs exact {value:.2f}"
    assert stats["optimal"].mean - stats["threshold:300"].mean > 25

"""The numba Macke game kernel and the reference Macke game play the same games.

Same seeds, same lineups: every game must end with the same scores, winners,
turns and points in both engines, whatever the variant and rule options, the
bots (optimal table, compiled threshold, endgame) and the number of threads.
The kernel's points per turn then meet the solver's exact turn values:
Macke has no deck, so every turn of a bot that ignores the score is an
independent turn of the turn analysis, and by Wald's identity the points per
turn over whole games (which stop at the target) estimate its exact value.
"""

import numpy as np
import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import kernel_batch, make_lineups, reference_batch, run_tournament
from tutto_sim.macke.game import GameConfig
from tutto_sim.macke.game_kernel import END_INSTANT, END_NACHWERFEN, MackeGameKernel
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import exact_macke_policy_value, solve_macke
from tutto_sim.macke.threshold import MackeThresholdPolicy
from tutto_sim.tutto.game_kernel import SHARE

CASES = [
    # rules, bots, players, games
    (MackeRules(), "optimal,cautious,threshold:400,endgame,reckless", 3, 120),
    (MackeRules.preset("volle-lotte"), "optimal,endgame,threshold:300:2000", 4, 60),
    (MackeRules.preset("instant-win", bust="zero", target=2000), "optimal,endgame,cautious", 2, 150),
    (MackeRules.preset("jackpot", min_score=200, throws=4), "optimal,threshold:250:1500,endgame", 5, 40),
    (MackeRules.preset("ones-and-fives", throws=2, target=3000), "optimal,cautious,reckless,endgame", 2, 120),
    (MackeRules.preset("volle-lotte", six_of_kind="one-triple", target=4000), "endgame,cautious", 3, 60),
    (MackeRules(target=3000), "optimal,endgame,cautious", 8, 25),
]
IDS = ["standard-3p", "volle-lotte-4p", "instant-win-zero-2p", "jackpot-min200-4throws-5p",
       "ones-and-fives-2throws-2p", "volle-lotte-one-triple-3p", "standard-8p"]


def _batches(rules, specs, players, games, seed=5, start=0):
    config = GameConfig(rules)
    bots = parse_bots(specs, rules)
    lineups = make_lineups(len(bots), players)
    k = kernel_batch(MackeGameKernel(config, [b.table() for b in bots]), seed, start, games, lineups)
    r = reference_batch(bots, config, seed, start, games, lineups)
    return k, r


def _same(k, r):
    for field in ("share", "score", "banked", "banked_sq", "turns", "end"):
        a, b = getattr(k, field), getattr(r, field)
        bad = np.flatnonzero((a != b).reshape(len(a), -1).any(axis=1))
        assert bad.size == 0, f"{field} differs in games {bad[:5]}: kernel {a[bad[:2]]} reference {b[bad[:2]]}"


@pytest.mark.parametrize("rules, specs, players, games", CASES, ids=IDS)
def test_kernel_plays_the_reference_games(rules, specs, players, games):
    k, r = _batches(rules, specs, players, games)
    _same(k, r)
    assert (k.share.sum(axis=1) == SHARE).all()  # one win per game, ties share it
    assert (k.banked == k.score).all()  # no deductions in Macke: the score is the sum of the turns
    assert (k.end == END_NACHWERFEN).all() or rules.variant == "instant-win"


def test_instant_wins_identical_in_both_engines():
    """Five 1s are rare (1 in 7776 throws of five dice): find games that end
    with one in the kernel and replay exactly those in the reference game."""
    rules = MackeRules.preset("instant-win")
    bots = parse_bots("optimal,endgame,cautious", rules)
    config = GameConfig(rules)
    lineups = make_lineups(3, 3)
    kernel = MackeGameKernel(config, [b.table() for b in bots])
    k = kernel_batch(kernel, 2, 0, 20_000, lineups)
    wins = np.flatnonzero(k.end == END_INSTANT)
    assert 20 < len(wins) < 400  # about 20,000 games x 35 turns x 1.3 throws of 5 dice / 7776
    for g in wins[:6]:
        kg = kernel_batch(kernel, 2, int(g), 1, lineups)
        rg = reference_batch(bots, config, 2, int(g), 1, lineups)
        _same(kg, rg)
        assert kg.end[0] == END_INSTANT and kg.share[0].max() == SHARE
        assert (kg.share[0] == k.share[g]).all()


def test_game_effects_are_exercised():
    """The games see negative final scores, ties and the endgame bot acting."""
    rules = MackeRules()
    config = GameConfig(rules)
    lineups = make_lineups(3, 3)
    plain = parse_bots("optimal,cautious,reckless", rules)
    k = kernel_batch(MackeGameKernel(config, [b.table() for b in plain]), 5, 0, 5000, lineups)
    assert (k.score < 0).any()
    assert (k.share.max(axis=1) < SHARE).any()  # ties share the win
    assert (k.score.max(axis=1) >= rules.target // 50).all()
    end = parse_bots("endgame,cautious,reckless", rules)
    kb = kernel_batch(MackeGameKernel(config, [b.table() for b in end]), 5, 0, 5000, lineups)
    differ = (k.score != kb.score).any(axis=1)
    assert 0 < differ.sum() < 5000


def test_results_do_not_depend_on_threads_or_blocks():
    rules = MackeRules.preset("volle-lotte")
    bots = parse_bots("optimal,cautious,threshold:500", rules)
    kernel = MackeGameKernel(GameConfig(rules), [b.table() for b in bots])
    lineups = make_lineups(3, 2)
    one = kernel.run(9, 100, 3000, lineups, threads=1, block=3000)
    two = kernel.run(9, 100, 3000, lineups, threads=2, block=37)
    for x, y in zip(one, two):
        assert np.array_equal(x, y)


def test_a_table_for_other_rules_is_refused():
    bot = parse_bots("optimal", MackeRules.preset("volle-lotte"))[0]
    with pytest.raises(ValueError, match="other Macke rules"):
        MackeGameKernel(GameConfig(MackeRules()), [bot.table()])


@pytest.mark.parametrize("rules, games", [(MackeRules(), 100_000),
                                          (MackeRules.preset("volle-lotte"), 80_000)],
                         ids=["standard", "volle-lotte"])
def test_points_per_turn_meet_the_exact_turn_values(rules, games):
    """The optimal table's points per turn meet the solver's turn EV, those of
    threshold:300 the exact value of that policy (within 1.7 half-widths of
    the 95% CI: a 3.3 sigma band, for a test that must not fail by chance)."""
    res = run_tournament(parse_bots("optimal,threshold:300", rules), 2, games, 1, GameConfig(rules))
    stats = {b.name: b.points_per_turn for b in res.bot_stats()}
    exact = {"optimal": solve_macke(rules).turn_ev,
             "threshold:300": exact_macke_policy_value(MackeThresholdPolicy.simple(rules, 300), rules)}
    for name, value in exact.items():
        est = stats[name]
        assert est.n > 700_000
        assert abs(est.mean - value) < 1.7 * est.ci95, f"{name}: {est} vs exact {value:.2f}"
    assert stats["optimal"].mean - stats["threshold:300"].mean > 150

"""The optimal Macke policy, read from its exported file, is played by the
numba table kernel; the kernel plays exactly the turns of the reference
engine, and the simulated EV and outcome shares agree with the solver."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tutto_sim.core.rng import Stream
from tutto_sim.core.stats import family_z
from tutto_sim.macke.analysis import explore_macke
from tutto_sim.macke.exact_sim import macke_exact_turns, validate_macke
from tutto_sim.macke.policy import MackeTablePolicy, load_macke_policy
from tutto_sim.macke.reference import play_turn
from tutto_sim.macke.rules import VARIANTS, MackeRules
from tutto_sim.macke.solver import solve_macke
from tutto_sim.macke.turn_kernel import END_MACKE, END_WIN

RULES = [MackeRules.preset(v) for v in VARIANTS] + [MackeRules(bust="zero")]
IDS = [*VARIANTS, "bust-zero"]


@functools.lru_cache(maxsize=None)
def solved(rules: MackeRules):
    return solve_macke(rules)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    """rules -> the optimal policy after a round trip through its file."""
    cache = {}

    def get(rules):
        if rules not in cache:
            path = MackeTablePolicy.from_solution(solved(rules)).write(
                tmp_path_factory.mktemp("p") / "p.json")
            cache[rules] = load_macke_policy(path, rules)
        return cache[rules]

    return get


@pytest.mark.parametrize("rules", [MackeRules(), MackeRules.preset("volle-lotte", bust="zero"),
                                   MackeRules.preset("instant-win"),
                                   MackeRules.preset("jackpot", min_score=0)],
                         ids=["default", "volle-lotte-zero", "instant-win", "jackpot-0"])
def test_table_kernel_plays_like_the_reference(loaded, rules):
    policy = loaded(rules)
    n = 3000
    k = macke_exact_turns(policy, 21, n)
    ref = [play_turn(rules, policy, Stream(21, i)) for i in range(n)]
    r = np.array([(t.result, t.turn_total, t.throws, t.clears) for t in ref])
    assert np.array_equal(k[:, :2] * 50, r[:, :2])
    assert np.array_equal(k[:, 2:4], r[:, 2:4])
    assert np.array_equal(k[:, 4] == END_MACKE, [t.macke for t in ref])
    assert np.array_equal(k[:, 4] == END_WIN, [t.won for t in ref])
    assert k[:, 5].sum() > 0  # the streams exercised returns


def test_table_kernel_plays_like_the_reference_on_rare_turns(loaded):
    """Turns with a clear and a second series, and Mackes after returns."""
    rules = MackeRules()
    policy = loaded(rules)
    k = macke_exact_turns(policy, 5, 200_000)
    rare = np.nonzero((k[:, 3] >= 2) | ((k[:, 4] == END_MACKE) & (k[:, 5] >= 2)))[0][:400]
    assert len(rare) == 400
    for i in rare:
        t = play_turn(rules, policy, Stream(5, int(i)))
        assert (t.result, t.throws, t.clears) == (k[i, 0] * 50, k[i, 2], k[i, 3])


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_simulated_exact_policy_matches_the_solver(loaded, rules):
    sol = solved(rules)
    checks = validate_macke(sol, turns=400_000, seed=77, policy=loaded(rules))
    z = family_z(len(checks) * len(RULES))
    for c in checks:
        assert abs(c.z) <= z, (c.what, c.exact, c.simulated, c.ci95)


def test_explore_minimum_scores():
    df = explore_macke(MackeRules(), min_scores=(0, 300, 500), busts=("subtract", "zero"),
                       returns=True)
    assert len(df) == 6
    assert set(df.columns) >= {"min_score", "bust", "ev", "p_positive", "p_negative", "p_zero",
                               "clear_bank_at", "bank_t1_d1", "value_of_returns"}
    sub = df[df.bust == "subtract"].set_index("min_score")
    # a higher minimum can only hurt, and with minimum 0 nothing is ever subtracted but a Macke
    assert sub.ev[0] > sub.ev[300] > sub.ev[500]
    assert (df.value_of_returns > 0).all()
    row = sub.loc[300]
    assert row.ev == pytest.approx(solved(MackeRules()).turn_ev)

"""The exact Macke solver (tutto_sim.macke.solver): against an independent
plain-Python solver built on the reference scorer, its own two passes against
each other, the cap, threshold-policy values against an independent
enumeration and the threshold kernel, and the optimum against every simpler
policy."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from tutto_sim.core.stats import family_z
from tutto_sim.macke.decisions import decision_arrays
from tutto_sim.macke.reference import threshold_policy_value
from tutto_sim.macke.rules import VARIANTS, MackeRules
from tutto_sim.macke.scoring import is_instant_win, keep_dice, legal_keeps, unit_points
from tutto_sim.macke.turns import run_macke_policies
from tutto_sim.macke.solver import DEFAULT_CAP_UNITS, decisions_value, exact_macke_policy_value, solve_macke
from tutto_sim.macke.threshold import MackeThresholdPolicy
from tutto_sim.macke.turn_kernel import NEVER, POLICY_SHAPE

PRESETS = [MackeRules.preset(v) for v in VARIANTS] + [MackeRules(bust="zero"),
                                                      MackeRules.preset("volle-lotte", bust="zero")]
IDS = [*VARIANTS, "zero", "volle-lotte-zero"]


@functools.lru_cache(maxsize=None)
def solved(rules: MackeRules, cap: int = DEFAULT_CAP_UNITS, returns: bool = True):
    return solve_macke(rules, cap, allow_returns=returns)


# ----------------------------------------------------------- independent solver


def independent_turn_ev(rules: MackeRules, cap_units: int) -> float:
    """Optimal turn EV (real points) by plain recursion over the reference scorer.

    Nothing of the tables, the solver or the kernels: throws are face
    multisets with multinomial weights, keeps are ``reference.macke_scoring``
    keeps (sorted unit names), set-aside units a Counter. A clear at a total
    >= cap is banked, as in the solver.
    """
    n_all, pts = rules.n_dice, unit_points(rules)
    cap = cap_units * 50

    def result(t: int) -> float:
        return float(rules.result(t))

    @functools.lru_cache(maxsize=None)
    def throws(n: int):
        out = []
        for combo in itertools.combinations_with_replacement(range(1, 7), n):
            ways = math.factorial(n)
            for c in Counter(combo).values():
                ways //= math.factorial(c)
            out.append((ways / 6**n, is_instant_win(combo, rules), tuple(legal_keeps(combo, rules))))
        return out

    def points(aside: tuple) -> int:
        return sum(pts[u] for u in aside)

    @functools.lru_cache(maxsize=None)
    def throw_value(locked: int, aside: tuple, left: int) -> float:
        ev = 0.0
        for p, win, keeps in throws(n_all - keep_dice(aside, rules)):
            if win:
                ev += p * rules.win_value
            elif not keeps:
                ev += p * (0.0 if rules.bust == "zero" else -(locked + points(aside)))
            else:
                ev += p * max(after_keep(locked, tuple(sorted(aside + k)), left - 1) for k in keeps)
        return ev

    def after_keep(locked: int, aside: tuple, left: int) -> float:
        total = locked + points(aside)
        if keep_dice(aside, rules) == n_all:
            if total >= cap:
                return result(total)
            return max(result(total), throw_value(total, (), rules.throws))
        if left == 0:
            return result(total)
        return max(result(total), before_throw(locked, aside, left))

    @functools.lru_cache(maxsize=None)
    def before_throw(locked: int, aside: tuple, left: int) -> float:
        subs = {tuple(sorted(s)) for r in range(len(aside) + 1)
                for s in itertools.combinations(aside, r)}
        return max(throw_value(locked, s, left) for s in subs)

    return throw_value(0, (), rules.throws)


@pytest.mark.parametrize("rules", [
    MackeRules(),
    MackeRules.preset("jackpot", bust="zero"),
    MackeRules.preset("instant-win", throws=2, bust="zero", min_score=200),
    MackeRules.preset("ones-and-fives", min_score=0),
    MackeRules.preset("volle-lotte", throws=2),
], ids=["default", "jackpot-zero", "instant-win-zero-2-throws-200", "ones-and-fives-0",
        "volle-lotte-2-throws"])
def test_optimum_matches_an_independent_solver(rules):
    cap = 40  # small, so that plain Python is quick; the solver uses the same cap
    assert solve_macke(rules, cap).turn_ev == pytest.approx(independent_turn_ev(rules, cap),
                                                             abs=1e-9)


# ----------------------------------------------------------- the solver itself


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_forward_pass_agrees_with_backward_pass(rules):
    sol = solved(rules)
    assert sol.reach.turn_ev == pytest.approx(sol.turn_ev, abs=1e-9)
    assert sol.p_positive + sol.p_negative + sol.p_zero == pytest.approx(1.0, abs=1e-12)
    # the decision table as a bot loads it (cut, normalised) is the same policy
    cut = decisions_value(decision_arrays(sol), sol.cap_units)
    assert cut.turn_ev == pytest.approx(sol.turn_ev, abs=1e-9)
    assert (cut.p_positive, cut.p_negative, cut.p_zero) == pytest.approx(
        (sol.p_positive, sol.p_negative, sol.p_zero), abs=1e-12)


@pytest.mark.parametrize("rules", [MackeRules(), MackeRules.preset("volle-lotte", bust="zero"),
                                   MackeRules.preset("jackpot", bust="zero", min_score=500)],
                         ids=["default", "volle-lotte-zero", "jackpot-zero-500"])
def test_raising_the_cap_changes_nothing(rules):
    a = solved(rules)
    b = solve_macke(rules, cap_units=DEFAULT_CAP_UNITS + 400)
    assert b.turn_ev == a.turn_ev
    assert (b.p_positive, b.p_negative, b.p_zero) == pytest.approx(
        (a.p_positive, a.p_negative, a.p_zero), abs=1e-15)
    rows = slice(0, DEFAULT_CAP_UNITS)
    assert np.array_equal(a.throw_value, b.throw_value[rows])
    for name in ("keep", "ret", "bank", "clear_bank"):
        assert np.array_equal(getattr(a.decisions, name), getattr(b.decisions, name)[rows]), name
    # every new series starts far below the cap
    assert a.clear_bank_at < DEFAULT_CAP_UNITS * 50 // 2


def test_headline_values():
    sol = solved(MackeRules())
    assert sol.turn_ev == pytest.approx(431.4766, abs=1e-4)
    assert sol.clear_bank_at == 1950
    # with one die left and one throw to go, bank from 300 on
    assert sol.bank_threshold[1, 1] == 300
    # at the start of a turn a lone 5 goes back into the cup before throw 2
    s = sol.returns_summary()
    assert (s.examples[0].throw, s.examples[0].aside, s.examples[0].kept) == (2, "5", "nothing")
    assert all(e.reach > 0 for e in s.examples[:3])


def test_returns_are_worth_something_and_the_optimum_dominates():
    rules = MackeRules()
    best, no_returns = solved(rules), solved(rules, returns=False)
    assert no_returns.mean_returns == 0.0
    assert best.turn_ev > no_returns.turn_ev
    for k in (0, 300, 350, 500, 1000):
        v = exact_macke_policy_value(MackeThresholdPolicy.simple(rules, k), rules)
        assert v <= no_returns.turn_ev + 1e-9


# ----------------------------------------------------------- threshold policies


def threshold_policies(rules: MackeRules):
    table = tuple(tuple(((t * 3 + d) * 50) % 700 for d in range(rules.n_dice))
                  for t in range(rules.throws))
    return [MackeThresholdPolicy.simple(rules, 300), MackeThresholdPolicy(rules, table, 900),
            MackeThresholdPolicy(rules, None, 1500)]


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_threshold_policy_value_matches_independent_enumeration(rules):
    for pol in threshold_policies(rules):
        assert exact_macke_policy_value(pol, rules) == pytest.approx(
            threshold_policy_value(rules, pol), abs=1e-9), pol.label()


def test_threshold_policy_value_matches_the_threshold_kernel():
    rules = MackeRules()
    pols = threshold_policies(rules) + [MackeThresholdPolicy.simple(rules, 0)]
    res = run_macke_policies(pols, seed=3, n_turns=300_000, rules=rules)
    z = family_z(len(pols))
    for i, pol in enumerate(pols):
        ev = res.ev(i)
        assert abs(ev.mean - exact_macke_policy_value(pol, rules)) <= z / 1.96 * ev.ci95, pol.label()


def test_threshold_array_format():
    rules = MackeRules()
    pol = np.full(POLICY_SHAPE, NEVER, dtype=np.int64)
    pol[:, 0] = 6  # bank every clear, never stop before the series' last throw
    v = exact_macke_policy_value(pol, rules)
    assert v == pytest.approx(threshold_policy_value(
        rules, MackeThresholdPolicy(rules, None, 300)), abs=1e-9)
    with pytest.raises(ValueError, match="shape"):
        exact_macke_policy_value(np.zeros((3, 5)), rules)


def test_cap_must_exceed_the_minimum():
    with pytest.raises(ValueError, match="cap_units"):
        solve_macke(replace(MackeRules(), min_score=500), cap_units=5)

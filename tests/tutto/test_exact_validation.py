"""Solver and simulators validate each other.

The optimal policy, read from its exported file, is played by the numba table
kernel; the kernel plays exactly the turns of its plain-Python twin, and its
mean banked points agree with the solver's exact values for every card."""

import numpy as np
import pytest

from tutto_sim.core.rng import Stream
from tutto_sim.core.stats import family_z
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.exact_sim import exact_turns, run_exact
from tutto_sim.tutto.policy import ExactPolicy, load_policy
from tutto_sim.tutto.reference import play_turn_exact
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import solve_tutto
from tutto_sim.tutto.validate import validate


RULES = [TuttoRules(), TuttoRules(x2_scope="card", plusminus_chain="flat", cloverleaf_value=5000),
         TuttoRules(six_of_kind="one-triple", plusminus_chain="bank")]


@pytest.fixture(scope="module", params=RULES, ids=["default", "x2card-flat-clover", "onetriple-bank"])
def solved(request, tmp_path_factory):
    rules = request.param
    sol = solve_tutto(rules)
    path = ExactPolicy.from_solution(sol).write(tmp_path_factory.mktemp("p") / "p.json")
    return rules, sol, load_policy(path, rules)


def test_table_kernel_plays_like_the_reference(solved):
    rules, _, policy = solved
    k = exact_turns(policy, None, 21, 2500)
    r = np.array([tuple(play_turn_exact(rules, policy, Stream(21, i))) for i in range(2500)])
    k[:, 0] *= 50
    assert np.array_equal(k, r)


@pytest.mark.parametrize("card", [Card.BONUS300, Card.X2, Card.STREET, Card.PLUSMINUS, Card.CLOVERLEAF])
def test_table_kernel_plays_like_the_reference_per_card(solved, card):
    rules, _, policy = solved
    k = exact_turns(policy, card, 22, 600)
    r = np.array([tuple(play_turn_exact(rules, policy, Stream(22, i), card)) for i in range(600)])
    k[:, 0] *= 50
    assert np.array_equal(k, r)


def test_simulated_exact_policy_matches_solver_for_every_card(solved):
    rules, sol, policy = solved
    cards = [None, *Card]
    z = family_z(len(cards))
    for card in cards:
        ev = run_exact(policy, card, seed=77, n_turns=300_000).ev()
        exact = sol.turn_ev if card is None else float(sol.card_ev[card])
        assert abs(ev.mean - exact) <= z / 1.96 * ev.ci95 + 1e-9, (card, ev, exact)


def test_validate_both_ways():
    rules = TuttoRules()
    sol = solve_tutto(rules)
    policy = ExactPolicy.from_solution(sol)
    checks = validate(policy, {c.cli_name: float(sol.card_ev[c]) for c in Card}, sol.turn_ev,
                      turns=200_000, seed=5)
    assert len(checks) == 12 + 3
    z = family_z(len(checks))
    assert all(abs(ch.z) <= z for ch in checks), [(ch.what, ch.card, ch.z) for ch in checks]

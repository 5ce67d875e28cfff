"""The reference win-probability solver (tutto_sim.tutto.win.reference).

Every expected value here is derived independently of the code under test:
by hand from the rules (target 50, first player to bank wins), by brute force
over all ordered throws with a scorer written in this file, from the turn
solver's exact expected points, or by simulation in the game kernel with
cards drawn independently (``--deck iid``).
"""

from __future__ import annotations

import itertools
import json
from functools import lru_cache

import numpy as np
import pytest
from conftest import run_cli as run

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import run_tournament
from tutto_sim.tutto.bots import parse_bot
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import solve_tutto
from tutto_sim.tutto.win.reference import deducted, game_values, reference_p_first_wins, reference_p_first_wins_ev, reference_win_table, reference_win_vs_ev, table_outcomes

# docs/rules.md §4.1: the deck
Q_STOP, Q_BONUS, Q_X2, Q_FW, Q_PM, Q_STREET, Q_KLEE = (10 / 56, 25 / 56, 5 / 56, 5 / 56,
                                                        5 / 56, 5 / 56, 1 / 56)


def keepable_sizes(throw: tuple[int, ...]) -> set[int]:
    """How many dice may be set aside (rules §1, six of a kind = two triples):
    1s and 5s one by one, any other face only as three (or six) of a kind."""
    options = []
    for face in range(1, 7):
        c = throw.count(face)
        options.append(range(c + 1) if face in (1, 5) else [n for n in (0, 3, 6) if n <= c])
    return {sum(pick) for pick in itertools.product(*options)} - {0}


@lru_cache(maxsize=None)
def p_tutto(dice: int) -> float:
    """Best chance to set aside all ``dice`` dice (no banking on the way)."""
    if dice == 0:
        return 1.0
    total = 0
    for throw in itertools.product(range(1, 7), repeat=dice):
        sizes = keepable_sizes(throw)
        total += max((p_tutto(dice - k) for k in sizes), default=0.0)
    return total / 6**dice


@lru_cache(maxsize=None)
def p_street(have: int) -> float:
    """Best chance to complete the Straße with ``have`` numbers set aside."""
    if have == 6:
        return 1.0
    total = 0.0
    for throw in itertools.product(range(1, 7), repeat=6 - have):
        new = len({f for f in throw if f > have})  # numbers 1..have set aside
        total += max((p_street(have + t) for t in range(1, new + 1)), default=0.0)
    return total / 6 ** (6 - have)


def test_target_50_immediate_by_hand():
    """To 50 with ``immediate``, any banked point wins. Per turn the mover
    wins with p = P(Bonus, x2 or Feuerwerk) P(the first throw scores)
    + P(Plus/Minus) P(Tutto) + P(Straße) P(Straße done) + P(Kleeblatt) P(Tutto)^2,
    so W = p + (1 - p)(1 - W), W = 1 / (2 - p), the same for both seats."""
    scores = sum(1 for t in itertools.product(range(1, 7), repeat=6) if keepable_sizes(t)) / 6**6
    assert scores == pytest.approx(1 - 1440 / 46656)  # a Niete: no 1, 5 or triple
    p = ((Q_BONUS + Q_X2 + Q_FW) * scores + Q_PM * p_tutto(6) + Q_STREET * p_street(0)
         + Q_KLEE * p_tutto(6) ** 2)
    w = reference_win_table(TuttoRules(target=50, game_end="immediate"))
    assert w.shape == (2, 1, 1)
    assert w[0, 0, 0] == pytest.approx(1 / (2 - p), abs=1e-10)
    assert w[1, 0, 0] == pytest.approx(1 / (2 - p), abs=1e-10)


@pytest.mark.parametrize("rules", [
    TuttoRules(target=200, game_end="immediate"),
    TuttoRules(target=200, game_end="immediate", plusminus_deduction="tutto",
               plusminus_chain="flat"),
], ids=["immediate", "immediate-tutto-flat"])
def test_win_table_is_a_probability_and_seats_are_alike(rules):
    w = reference_win_table(rules)
    assert w.shape == (2, 4, 4) and (w >= 0).all() and (w <= 1).all()
    # with `immediate` the seats differ in nothing but their names
    assert np.abs(w[0] - w[1]).max() < 1e-9
    # on equal scores the mover is ahead; ahead is better than behind
    assert (np.diag(w[0]) > 0.5).all()
    assert w[0, 3, 0] > w[0, 0, 0] > w[0, 0, 3]


def test_win_optimal_player_beats_the_ev_table():
    """Minimax: the win-optimal strategy keeps at least the game's value against
    any opponent, so its share over both seats is at least 1/2."""
    rules = TuttoRules(target=150, game_end="immediate")
    share = reference_win_vs_ev(rules)
    assert 0.5 < share < 1
    assert 0 < reference_p_first_wins(rules) < 1


def test_table_outcomes_meet_the_turn_solver():
    """The forward propagation of the ``optimal`` table's turn gives the turn
    solver's exact expected points (a different algorithm: backward DP)."""
    rules = TuttoRules()
    out = table_outcomes(rules, parse_bot("optimal", rules).table())
    assert out.bank.sum() + out.bust.sum() + out.win == pytest.approx(1, abs=1e-12)
    ev = (out.bank.sum(axis=1) * np.arange(out.bank.shape[0])).sum() * 50
    assert ev == pytest.approx(solve_tutto(rules).turn_ev, abs=1e-6)


def test_value_iteration_is_a_fixed_point():
    from tutto_sim.tutto.win.reference import Seat, TurnSolver

    rules = TuttoRules(target=150, game_end="immediate")
    solver = TurnSolver(rules)
    w, sweeps = game_values(rules, (Seat("best", solver), Seat("best", solver)), tol=1e-13)
    assert 3 < sweeps < 100
    assert np.abs(w - reference_win_table(rules)).max() < 1e-11


def test_ev_play_matches_the_game_kernel():
    """``optimal`` against itself, cards drawn independently, 250,000 games in
    the game kernel: the first seat's win rate (ties 1/2) holds the exact value
    in its 95% CI."""
    rules = TuttoRules(target=500, game_end="immediate", deck="iid")
    exact = reference_p_first_wins_ev(rules)
    res = run_tournament(parse_bots("optimal,optimal", rules), 2, 250_000, 2026, GameConfig(rules))
    first = res.seat_rates()[0]
    assert first.ci95 < 0.0021
    assert abs(first.mean - exact) < first.ci95, (first, exact)


def test_ev_play_matches_the_cli_tournament(capsys, tmp_path):
    exact = reference_p_first_wins_ev(TuttoRules(target=300))
    code, out, err = run(capsys, "tournament", "--game", "tutto", "--deck", "iid", "--target", "300",
                         "--bots", "optimal,optimal", "--games", "250000", "--seed", "7", "--json",
                         "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["rules"]["deck"] == "iid" and d["games"] == 250_000
    assert abs(d["seat_win_rates"][0] - exact) < d["seat_ci95"][0] < 0.0021, (d["seat_win_rates"], exact)


def test_bad_rules_are_refused():
    with pytest.raises(ValueError, match="targets up to"):
        reference_win_table(TuttoRules(target=5000))
    with pytest.raises(ValueError, match="x2_scope 'turn' only"):
        reference_win_table(TuttoRules(target=100, x2_scope="card"))


def test_round_end_lead_cap_only_helps_the_first_seat():
    """Under ``round`` seat 0 plays on past the target for a lead; the cap on
    that lead only takes options away, so a larger cap raises its chance."""
    rules = TuttoRules(target=50)
    small = reference_win_table(rules, lead_cap=10)
    large = reference_win_table(rules, lead_cap=20)
    assert 0 < small[0, 0, 0] < large[0, 0, 0] < 0.5  # the last turn favours seat 1
    assert 0.5 < large[1, 0, 0] < 1


def test_turn_recursion_with_points_as_leaves_is_the_turn_solver():
    """With the banked points as leaves (bank T -> T, Niete -> 0, Kleeblatt ->
    its points) the win recursion maximises a turn's expected points: the turn
    solver's exact value, from a different program."""
    from tutto_sim.tutto.win.reference import Leaves, TurnSolver

    for rules in (TuttoRules(), TuttoRules(plusminus_chain="flat", cloverleaf_value=6000)):
        cap = 200  # units; the optimal turn banks below 90, but x2 may double past the
        # cap, where a total counts as the cap: about 2e-7 points here
        bank = np.broadcast_to(np.arange(cap + 1.0)[:, None, None, None], (cap + 1, 1, 1, 1))
        value = TurnSolver(rules).solve(Leaves(bank, np.zeros((1, 1, 1)),
                                               rules.cloverleaf_value / 50))
        assert value[0, 0] * 50 == pytest.approx(solve_tutto(rules).turn_ev, abs=1e-6)


def test_deciding_by_w_against_a_win_optimal_opponent_gives_w():
    """The two-row turns (decide by W, carry other values) against a player
    who maximises: the game is again the win-optimal one, so the values are W."""
    from tutto_sim.tutto.win.reference import Seat, TurnSolver

    rules = TuttoRules(target=150, game_end="immediate")
    w = reference_win_table(rules)
    solver = TurnSolver(rules)
    v, _ = game_values(rules, (Seat("decide", solver), Seat("best", solver)), w_opt=(w, None))
    assert np.abs(v - w).max() < 1e-9


@pytest.mark.parametrize("mover, other, m, left", [
    # by hand, units of 50 (a Tutto takes 20): who loses is fixed at the start of the turn
    (35, 50, 1, 30), (35, 50, 2, 10), (35, 50, 3, 0),  # on below the mover
    (50, 50, 2, 10),  # tied: he loses
    (51, 50, 3, 50),  # the mover leads alone: nobody loses
    (0, 0, 2, 0),
    (15, 21, 2, 0),
])
def test_deductions_are_fixed_at_the_start_of_the_turn(mover, other, m, left):
    assert deducted(mover, np.array([other]), m).tolist() == [left]
    # vectorised over the starts, each by its own start
    both = deducted(np.array([mover, 0]), np.array([other, 25]), m)
    assert both.tolist() == [left, max(0, 25 - 20 * m)]

"""The N-player reference win solver (tutto_sim.tutto.win.reference,
``solve_reference_n``) against what is known independently: the closed form
of target 50, the two-player solvers, and the laws of probability."""

from __future__ import annotations

import numpy as np
import pytest

from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.reference import TurnSolver, last_turn, last_turn_reference_n, p_wins_reference, reference_win_table, solve_reference_n
from tutto_sim.tutto.win.solve2 import solve_win


@pytest.mark.parametrize("players", [2, 3, 4])
def test_target_50_immediate_closed_form(players):
    """To 50 under ``immediate`` a turn wins with a chance p (bank anything,
    or the Kleeblatt), the same every turn, so seat s wins when the s seats
    before it failed once more than it: p (1-p)^s / (1 - (1-p)^N). p comes
    from the two-player reference (W = 1 / (2 - p))."""
    rules = TuttoRules(target=50, game_end="immediate")
    p = 2 - 1 / reference_win_table(rules)[0, 0, 0]
    assert p == pytest.approx(0.6488, abs=1e-4)  # docs/win.md: 0.64880 (p = 0.648798)
    expected = [p * (1 - p) ** s / (1 - (1 - p) ** players) for s in range(players)]
    got = p_wins_reference(rules, players)
    assert got == pytest.approx(expected, abs=1e-12)
    sol = solve_reference_n(rules, players)
    for s in range(players):  # at the start of seat s's turn the seats follow from it
        turn = [expected[(p_ - s) % players] for p_ in range(players)]
        assert sol.W[(s,) + (0,) * players] == pytest.approx(turn, abs=1e-12)


def _two_player(w):
    """W[s, x0, x1, p] as the two-player ``W[s, own, other]`` (the mover's chance)."""
    return np.stack([w[0, :, :, 0], w[1].transpose(1, 0, 2)[:, :, 1]])


def test_two_players_equal_the_two_player_solvers_immediate():
    rules = TuttoRules(target=200, game_end="immediate")
    mine = _two_player(solve_reference_n(rules, 2).W)
    assert np.abs(mine - reference_win_table(rules)).max() < 1e-9
    assert np.abs(mine - solve_win(rules, evaluate_ev=False).W).max() < 1e-9


def test_two_players_equal_the_fast_solver_round():
    """Under ``round`` the caps differ in their last point: here the last
    player's score is counted at the cap too, so he ties a leader counted
    there, where the fast solvers (two players and N) let him beat it. That
    moves values by 7e-5 with the default cap of 40 units at this target;
    with a cap of 120 units both stand within 1e-9 of the uncapped game."""
    rules = TuttoRules(target=50, game_end="round")
    mine = _two_player(solve_reference_n(rules, 2, margin_cap=120).W)
    assert np.abs(mine - solve_win(rules, margin_cap=120, evaluate_ev=False).W).max() < 1e-9


@pytest.mark.parametrize("players,rules,cap", [
    (3, TuttoRules(target=150, game_end="round"), 6),
    (3, TuttoRules(target=150, game_end="immediate", plusminus_deduction="tutto",
                   plusminus_chain="flat"), None),
    (4, TuttoRules(target=100, game_end="immediate"), None),
    (4, TuttoRules(target=100, game_end="round", plusminus_deduction="tutto"), 4),
], ids=["3-round", "3-immediate-tutto-flat", "4-immediate", "4-round-tutto"])
def test_every_vector_is_a_distribution(players, rules, cap):
    """Shared wins split, so every state's chances add up to 1 (small caps
    under ``round`` keep it quick; the cap is a rule of the solution)."""
    sol = solve_reference_n(rules, players, margin_cap=cap)
    assert sol.W.shape == (players,) + (rules.target // 50,) * players + (players,)
    assert np.abs(sol.W.sum(axis=-1) - 1).max() < 1e-10
    assert sol.W.min() >= 0 and sol.W.max() <= 1
    assert sol.residual < 1e-13
    for e in sol.end.values():
        seen = ~np.isnan(e[..., 0])
        assert seen.any()
        assert np.abs(e[seen].sum(axis=-1) - 1).max() < 1e-10
        assert e[seen].min() >= 0 and e[seen].max() <= 1
    if players == 3 and rules.game_end == "immediate":
        # under `immediate` the seats differ in nothing but their order
        w = sol.W
        assert np.abs(w[1] - np.roll(w[0].transpose(2, 0, 1, 3), 1, axis=-1)).max() < 1e-9


def test_a_player_who_cannot_matter():
    """Three players, the last turn: seat 0 has 0 points after the round's
    deductions, seat 1 leads on s0 past the target, seat 2 on c plays its
    last turn. Seat 0 can never win (deduction at the bank: a turn that banks
    ends above 0), so seat 2's chance is the two-player last turn of a
    player on c behind a leader on s0."""
    rules = TuttoRules(target=100)
    n, width = 2, 9
    two = last_turn(rules, TurnSolver(rules), width - 1)  # [c, s0 - n]
    states = [(0, s0, c) for c in range(n) for s0 in range(n, n + width)]
    got = last_turn_reference_n(rules, 3, states).reshape(n, width, 3)
    assert np.abs(got[..., 0]).max() == 0
    assert np.abs(got[..., 2] - two).max() < 1e-12
    assert np.abs(got[..., 1] - (1 - two)).max() < 1e-12

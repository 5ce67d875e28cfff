"""Two players with one piece each (``rutsmieter.duel``): hand-worked positions,
value iteration against a direct linear solve, the house rules that play no
part, and the reference engine's games confirming the exact figures."""

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from tutto_sim.rutsmieter.duel import TOL, duel_chain, solve_duel, solve_duel_direct
from tutto_sim.rutsmieter.reference import Board, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules

Z95 = 1.959963984540054
FLAGS = ("must_leave_house", "must_capture", "goal_no_jump", "play_to_third")


@pytest.fixture(scope="module")
def duel():
    return solve_duel()


def test_both_pieces_one_step_from_home_by_hand(duel):
    """First player at 39, second at 39 (ring squares 39 and 19, out of each
    other's reach). Each throw of 1-4 wins for the thrower, a 6 throws again,
    a 5 hands the throw over. So a run ends in a win 4 times out of 5:
    p = 4/5 + 1/5 q, q = 1/5 p  =>  p = 5/6, q = 1/6; and every throw ends the
    game with 4/6 whoever throws: 6/4 throws on average."""
    p = Fraction(4, 5) / (1 - Fraction(1, 25))
    assert p == Fraction(5, 6)
    assert duel.value(39, 39, 0) == pytest.approx((5 / 6, 1 / 6, 1.5), abs=1e-10)
    assert duel.value(39, 39, 1) == pytest.approx((1 / 6, 5 / 6, 1.5), abs=1e-10)


def test_two_and_three_steps_from_home_by_hand(duel):
    """Second player at 39. (38, 39), second to throw: 1-4 win for it, a 5
    passes to the first player at (38, 39), whose 2-5 win, 1 goes to 39 (the
    second's turn at (39, 39), 1/6 from above), 6 passes and throws again:
    W(38,39,first) = (4/6 + 1/6 · 1/6) / (5/6) = 5/6 and
    W(38,39,second) = (1/6 · 5/6) / (5/6) = 1/6. (37, 39), first to throw:
    3-6 win, 1 and 2 hand over at (38, 39) and (39, 39):
    W = 4/6 + 1/6 · 1/6 + 1/6 · 1/6 = 13/18. Every throw of these positions
    ends the game with 4/6: 3/2 throws."""
    w38 = (Fraction(4, 6) + Fraction(1, 36)) / Fraction(5, 6)
    w38_second = Fraction(1, 6) * w38 / Fraction(5, 6)
    w37 = Fraction(4, 6) + Fraction(1, 6) * w38_second + Fraction(1, 6) * Fraction(1, 6)
    assert (w38, w38_second, w37) == (Fraction(5, 6), Fraction(1, 6), Fraction(13, 18))
    for key, w in (((38, 39, 0), w38), ((38, 39, 1), w38_second), ((37, 39, 0), w37)):
        assert duel.value(*key) == pytest.approx((float(w), float(1 - w), 1.5), abs=1e-10)


# Hand-worked throws: (state, [state after 1, ..., after 6]); "W1" / "W2" the
# first / second player has won. States are (first's position, second's
# position, player to throw, tries left in the run); the second player's
# position x is ring square (x + 20) mod 40.
HAND_THROWS = [
    # the start: three tries for a 6; leaving, the first player throws again
    ((-1, -1, 0, 3), [(-1, -1, 0, 2)] * 5 + [(0, -1, 0, 1)]),
    ((-1, -1, 0, 2), [(-1, -1, 0, 1)] * 5 + [(0, -1, 0, 1)]),
    ((-1, -1, 0, 1), [(-1, -1, 1, 3)] * 5 + [(0, -1, 0, 1)]),
    # out of the house; the second player, still in its house, gets three tries
    ((0, -1, 0, 1), [(d, -1, 1, 3) for d in range(1, 6)] + [(6, -1, 0, 1)]),
    # leaving the house captures the second player's piece on ring square 0
    ((-1, 20, 0, 3), [(-1, 20, 0, 2)] * 5 + [(0, -1, 0, 1)]),
    ((-1, 20, 0, 1), [(-1, 20, 1, 1)] * 5 + [(0, -1, 0, 1)]),
    # the second player (ring square 10) captures with a 4 on square 14
    ((14, 30, 1, 1), [(14, 31, 0, 1), (14, 32, 0, 1), (14, 33, 0, 1), (-1, 34, 0, 3),
                      (14, 35, 0, 1), (14, 36, 1, 1)]),
    # exact into the goal: from 38 a 6 passes and throws again
    ((38, 10, 0, 1), [(39, 10, 1, 1), "W1", "W1", "W1", "W1", (38, 10, 0, 1)]),
    ((5, 37, 1, 1), [(5, 38, 0, 1), (5, 39, 0, 1), "W2", "W2", "W2", "W2"]),
]


@pytest.mark.parametrize("state,after", HAND_THROWS, ids=[str(s) for s, _ in HAND_THROWS])
def test_values_satisfy_hand_worked_throws(duel, state, after):
    """W, L and T of a state are the mean over the six throws of the states
    after them (plus one throw for T), with the throws worked out by hand."""
    ends = {"W1": np.array([1.0, 0.0, 0.0]), "W2": np.array([0.0, 1.0, 0.0])}
    mean = sum(ends[s] if isinstance(s, str) else np.array(duel.value(*s)) for s in after) / 6
    assert np.array(duel.value(*state)) == pytest.approx(mean + [0, 0, 1], abs=1e-10)


def test_value_iteration_agrees_with_the_direct_solve(duel):
    assert duel.residual <= TOL and duel.iterations > 1
    direct = solve_duel_direct(duel.chain)
    assert np.abs(direct - duel.values).max() < 1e-10
    # some player wins from every state: the game ends with probability 1
    assert np.abs(duel.values[:, 0] + duel.values[:, 1] - 1).max() < 1e-10
    assert duel.p_first_wins + duel.p_second_wins == pytest.approx(1, abs=1e-10)


def test_states_counted_by_hand(duel):
    """41 positions each (house, ring 0-39), minus the 40 boards with both on
    one ring square; two players to throw; 3 tries when the thrower's piece
    is in the house (41 boards each)."""
    assert duel.states == 2 * ((41 * 41 - 40 - 41) + 41 * 3)


def test_no_house_rule_changes_anything():
    """With one piece a throw allows at most one move (building the chain
    asserts it), so no obligation narrows anything, there is nothing to jump
    over in the goal lane, and two players end at the first winner: all 16
    settings give the same chain (so the same figures); solved with every
    default flipped, the figures are the same to the last bit."""
    base = duel_chain()
    for values in product((False, True), repeat=len(FLAGS)):
        chain = duel_chain(RutsmieterRules(**dict(zip(FLAGS, values))))
        assert chain.keys == base.keys
        assert np.array_equal(chain.succ, base.succ), values
    default = solve_duel(chain=base)
    flipped = solve_duel(RutsmieterRules(must_leave_house=False, must_capture=False,
                                         goal_no_jump=True, play_to_third=True))
    assert np.array_equal(flipped.values, default.values)
    assert (flipped.p_first_wins, flipped.expected_throws) == (default.p_first_wins,
                                                               default.expected_throws)


def test_reference_games_confirm_the_exact_figures(duel):
    """The reference engine plays one-piece games from the start (seats 0 and
    2): the first player's wins and the throws per game within their 95%
    confidence intervals of the exact values."""
    rules = RutsmieterRules(players=2)
    n = 12_000
    board = Board.start(rules.seats, n_pieces=1)
    games = [play_game(["first", "first"], rules, 2025, i, board=board) for i in range(n)]
    assert not any(g.capped for g in games)
    wins = sum(g.winner == 0 for g in games) / n
    half = Z95 * math.sqrt(duel.p_first_wins * duel.p_second_wins / n)
    assert abs(wins - duel.p_first_wins) < half, (wins, half, duel.p_first_wins)
    throws = np.array([g.throws for g in games], dtype=np.float64)
    half = Z95 * throws.std(ddof=1) / math.sqrt(n)
    assert abs(throws.mean() - duel.expected_throws) < half, (throws.mean(), half)


def test_with_one_piece_every_bot_plays_the_games_of_first():
    """One piece each: there is never a choice, so the tuned sets, the
    self-play weights, the first tuned weights and the expert play exactly
    the games of ``first`` (the same throws, moves and winner), whose chances
    are the exact figures above."""
    from pathlib import Path

    from tutto_sim.rutsmieter.bots import engine_of, parse_bot

    rules = RutsmieterRules(players=2)
    board = Board.start(rules.seats, n_pieces=1)
    v1 = Path(__file__).resolve().parents[2] / "tutto_sim" / "data" / "policies" / "rutsmieter-tuned-v1.json"
    specs = ("tuned", "td", f"weights:{v1}", "expert:50")
    bots = [engine_of(parse_bot(s, rules)) for s in specs]
    for i in range(40):
        plain = play_game(["first", "first"], rules, 2026, i, board=board)
        for j in range(len(bots)):
            rec = play_game([bots[j], bots[(j + 1) % len(bots)]], rules, 2026, i, board=board)
            assert (rec.log, rec.winner, rec.throws) == (plain.log, plain.winner, plain.throws)

"""The exact solo expectations: checked by independent small computations,
and confirmed by simulating the kernel and the reference engine."""

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from tutto_sim.rutsmieter import kernel as K
from tutto_sim.rutsmieter.reference import Board, apply_move, legal_moves, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules
from tutto_sim.rutsmieter.solo import optimal_solo_bot, solo_expected_throws

Z95 = 1.959963984540054


@pytest.fixture(scope="module")
def solo():
    return solo_expected_throws()


def _mean_ci(x):
    x = np.asarray(x, dtype=np.float64)
    half = Z95 * x.std(ddof=1) / math.sqrt(len(x))
    return x.mean(), half


def test_one_piece_by_hand():
    """One piece: 6 throws to leave the house on average, then an exact walk
    into the goal lane (alone, a piece anywhere on 40-43 is home)."""

    @lru_cache(maxsize=None)
    def walk(x: int) -> Fraction:  # E from position x: (6 + Σ E after moves) / #moves
        if x >= 40:
            return Fraction(0)
        ends = [x + d for d in range(1, 7) if x + d <= 43]
        return (6 + sum(walk(e) for e in ends)) / len(ends)

    # by hand: from 37, 38 or 39 four of the six numbers enter the lane and the
    # others stay within 37-39, so a geometric 6/4 throws
    assert walk(37) == walk(38) == walk(39) == Fraction(3, 2)
    exact = 6 + walk(0)
    res = solo_expected_throws(pieces=1)
    assert res.first == pytest.approx(float(exact), abs=1e-12)
    assert res.optimal == pytest.approx(float(exact), abs=1e-12)
    assert res.value([0]) == pytest.approx(float(walk(0)), abs=1e-12)


@pytest.mark.parametrize("rules", [RutsmieterRules(), RutsmieterRules(must_leave_house=False),
                                   RutsmieterRules(goal_no_jump=True)],
                         ids=["default", "no-leave", "goal-no-jump"])
def test_two_pieces_by_value_iteration_on_the_reference_moves(rules):
    """Two pieces: value iteration (in-place sweeps) to 1e-12 over the placements,
    with the moves taken from the reference engine, gives the solver's numbers."""
    states = [(-1, -1)] + [(-1, b) for b in range(44)] + [
        (a, b) for a in range(44) for b in range(a + 1, 44)]
    index = {s: i for i, s in enumerate(states)}
    succ = []  # succ[i][d] = list of (start, successor index)
    for s in states:
        row = []
        for die in range(1, 7):
            board = Board((0,), [list(s)])
            opts = []
            for m in legal_moves(board, 0, die, rules):
                after = board.copy()
                apply_move(after, 0, m)
                opts.append((m.start, index[tuple(sorted(after.pieces[0]))]))
            row.append(opts)
        succ.append(row)
    done = {i for i, s in enumerate(states) if min(s) >= 40}  # both in the goal lane
    values = {}
    for policy in ("first", "optimal"):
        e = [0.0] * len(states)
        for _ in range(100_000):
            delta = 0.0
            for i in reversed(range(len(states))):
                if i in done:
                    continue
                total = 1.0
                for opts in succ[i]:
                    if not opts:
                        total += e[i] / 6
                    elif policy == "first":
                        total += e[max(opts)[1]] / 6
                    else:
                        total += min(e[j] for _, j in opts) / 6
                delta = max(delta, abs(total - e[i]))
                e[i] = total
            if delta < 1e-12:
                break
        values[policy] = e[index[(-1, -1)]]
    res = solo_expected_throws(rules, pieces=2)
    assert res.first == pytest.approx(values["first"], abs=1e-9)
    assert res.optimal == pytest.approx(values["optimal"], abs=1e-9)


def test_exact_four_pieces_first_and_optimal(solo):
    assert solo.optimal <= solo.first
    assert 60 < solo.optimal < solo.first < 70


def test_kernel_simulation_confirms_first(solo):
    res = K.simulate(["first"], RutsmieterRules(), seed=2024, n_games=400_000, players=1)
    assert (res.winner == 0).all()
    mean, half = _mean_ci(res.throws)
    assert abs(mean - solo.first) < half, (mean, half, solo.first)


def test_reference_simulation_confirms_optimal_and_first(solo):
    bot = optimal_solo_bot(solo)
    opt = [play_game([bot], RutsmieterRules(), 77, i, seats=(0,)).throws for i in range(2000)]
    mean, half = _mean_ci(opt)
    assert abs(mean - solo.optimal) < half, (mean, half, solo.optimal)
    first = [play_game(["first"], RutsmieterRules(), 78, i, seats=(0,)).throws
             for i in range(400)]
    mean, half = _mean_ci(first)
    assert abs(mean - solo.first) < half, (mean, half, solo.first)


# -- the weights bot alone: its exact expected throws -------------------------------------------

#: Weights that give the solo features (goal lane, progress, house) a say.
SOLO_WEIGHTS = (1.0, 30.0, -4.0, 0.5, 8.0, 6.0, -2.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.0, 0.25, 2.0,
                -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("weights", [SOLO_WEIGHTS, tuple(-w for w in SOLO_WEIGHTS)],
                         ids=["weights", "negated"])
def test_weights_bot_alone_by_value_iteration_on_the_reference_bot(weights):
    """Two pieces: value iteration over the placements with the move the
    reference engine's weights bot makes (``WeightsPolicy.choose`` on the
    observation) gives ``weights_expected_throws``."""
    from tutto_sim.rutsmieter.policy import WeightsPolicy
    from tutto_sim.rutsmieter.reference import Observation
    from tutto_sim.rutsmieter.solo import weights_expected_throws

    rules = RutsmieterRules()
    policy = WeightsPolicy(weights, rules)
    states = [(-1, -1)] + [(-1, b) for b in range(44)] + [
        (a, b) for a in range(44) for b in range(a + 1, 44)]
    index = {s: i for i, s in enumerate(states)}
    succ = []  # succ[i][d]: the successor index of the bot's move, or None
    for s in states:
        row = []
        for die in range(1, 7):
            board = Board((0,), [list(s)])
            moves = tuple(legal_moves(board, 0, die, rules))
            if not moves:
                row.append(None)
                continue
            m = moves[policy.choose(Observation((0,), (tuple(s),), 0, die, moves))]
            after = board.copy()
            apply_move(after, 0, m)
            row.append(index[tuple(sorted(after.pieces[0]))])
        succ.append(row)
    e = [0.0] * len(states)
    for _ in range(100_000):
        delta = 0.0
        for i in reversed(range(len(states))):
            if min(states[i]) >= 40:
                continue
            total = 1.0 + sum((e[i] if j is None else e[j]) / 6 for j in succ[i])
            delta = max(delta, abs(total - e[i]))
            e[i] = total
        if delta < 1e-12:
            break
    assert weights_expected_throws(weights, rules, pieces=2) == pytest.approx(e[0], abs=1e-9)
    # and the choices matter: these weights play otherwise than first
    assert abs(e[0] - solo_expected_throws(rules, pieces=2).first) > 1e-6


def test_zero_weights_alone_are_first(solo):
    """All weights 0: every move scores 0, ties to the piece furthest along: ``first``."""
    from tutto_sim.rutsmieter.solo import weights_expected_throws

    assert weights_expected_throws((0.0,) * 7) == pytest.approx(solo.first, abs=1e-12)


def test_tuned_alone_needs_the_optimum_within_a_fiftieth_of_a_throw(solo):
    """The solo check of the shipped tuned weights (every table size's set): the
    exact expected throws of the bot alone lie within 0.025 throws (0.04%) of
    the exact optimum, and the kernel's games confirm the bot's exact figure
    within their 95% CI."""
    from tutto_sim.rutsmieter.policy import default_policy
    from tutto_sim.rutsmieter.solo import weights_expected_throws

    for n in (2, 3, 4):
        w = default_policy(RutsmieterRules(players=n)).weights
        exact = weights_expected_throws(w)
        assert solo.optimal <= exact < solo.optimal + 0.025, (n, exact, solo.optimal)
        res = K.simulate([K.BOT_WEIGHTS], RutsmieterRules(), seed=70 + n, n_games=200_000,
                         players=1, weights=[w])
        mean, half = _mean_ci(res.throws)
        assert abs(mean - exact) < half, (n, mean, half, exact)

"""The two-player win-probability solver (tutto.win.solve2) against values derived
independently: closed forms from plain enumeration, the game kernel's
tournaments, the plain-Python reference solver, and its own invariants."""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import numba
import numpy as np
import pytest

from tutto_sim.tutto.cards import DECK_COUNTS, DECK_SIZE, Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import cloverleaf_probability, street_probability, tutto_probability
from tutto_sim.tutto.win.solve2 import solve_win


@functools.lru_cache(maxsize=None)
def _solve(**kw):
    margin_cap = kw.pop("margin_cap", None)
    return solve_win(TuttoRules(**kw), margin_cap=margin_cap)


def _p_six_dice_score() -> float:
    """P(6 dice show a scoring unit): a 1, a 5 or three of a face (enumerated)."""
    bust = sum(1 for r in itertools.product(range(1, 7), repeat=6)
               if 1 not in r and 5 not in r and max(Counter(r).values()) < 3)
    return 1 - bust / 6**6


def test_target_50_immediate_is_the_chance_to_bank_anything():
    """Target 50, first to it wins: a turn wins iff it banks at least 50 or
    the Kleeblatt succeeds, else the other player is in the same position, so
    W = p + (1 - p)(1 - W), W = 1 / (2 - p)."""
    q = {c: DECK_COUNTS[c] / DECK_SIZE for c in Card}
    score = _p_six_dice_score()  # Bonus, x2: bank after the first throw; Feuerwerk banks it
    p = (sum(q[c] for c in Card if c.can_bank_before_tutto or c is Card.FIREWORKS) * score
         + q[Card.PLUSMINUS] * tutto_probability()
         + q[Card.STREET] * street_probability()
         + q[Card.CLOVERLEAF] * cloverleaf_probability())
    sol = _solve(target=50, game_end="immediate")
    assert sol.p_first_wins == pytest.approx(1 / (2 - p), abs=1e-12)
    assert sol.W[1, 0, 0] == pytest.approx(1 / (2 - p), abs=1e-12)


@pytest.mark.parametrize("game_end", ["round", "immediate"])
def test_values_are_probabilities_and_monotone(game_end):
    sol = _solve(target=500, game_end=game_end)
    assert (sol.W >= 0).all() and (sol.W <= 1).all()
    assert sol.monotone
    # more points of one's own never hurt here: W grows with the mover's score
    assert (np.diff(sol.W, axis=1) >= -1e-12).all()
    assert (np.diff(sol.W, axis=2) <= 1e-12).all()
    assert sol.residual <= 1e-10
    assert sol.states == 2 * 10 * 10


@pytest.mark.parametrize("game_end", ["round", "immediate"])
def test_playing_to_win_beats_the_ev_player_in_both_seats(game_end):
    """Optimality: against the EV player the win-optimal player does at least
    as well as the EV player itself, in each seat."""
    sol = _solve(target=500, game_end=game_end)
    first, second = sol.win_vs_ev_seats
    assert first >= sol.p_first_wins_ev - 1e-12
    assert second >= 1 - sol.p_first_wins_ev - 1e-12
    assert sol.win_vs_ev > 0.5


def test_results_do_not_depend_on_the_thread_count():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba was started with one thread")  # pragma: no cover
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve_win(TuttoRules(target=300), evaluate_ev=False).W
        numba.set_num_threads(2)
        two = solve_win(TuttoRules(target=300), evaluate_ev=False).W
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, two)


def test_margin_cap_error_is_within_its_bound():
    small = _solve(target=200, margin_cap=20)
    big = _solve(target=200, margin_cap=60)
    assert np.abs(small.W - big.W).max() <= small.cap_error
    assert big.cap_error < small.cap_error


def test_ev_players_match_kernel_tournaments():
    """Both EV-optimal (the ``optimal`` bot) with cards drawn independently:
    the first seat's win rate in the game kernel is the solver's p_first_wins_ev."""
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.tutto.bots import parse_bot
    from tutto_sim.tutto.game import GameConfig

    rules = TuttoRules(target=500, deck="iid")
    sol = _solve(target=500)
    bots = [parse_bot("optimal", rules)]
    res = run_tournament(bots, 2, 60_000, seed=11, config=GameConfig(rules), engine="kernel",
                         catch_interrupt=False)
    seat0 = res.seat_rates()[0]
    assert abs(seat0.mean - sol.p_first_wins_ev) <= seat0.ci95


@pytest.mark.parametrize("chain", ["continue", "flat"])
def test_links_inside_a_group_give_the_fixed_point(chain):
    """From target 1050 on a turn of nothing but Plus/Minus Tuttos can keep the
    score sum (each +1000 to one player, -1000 to the other): the solver
    carries these links as slopes (chain ``flat``: iterates them). The table
    must satisfy one turn's equation at linked states (one turn's programme
    with the table at its leaves gives the table's own value)."""
    from tutto_sim.tutto.win.planner import turn_start

    sol = solve_win(TuttoRules(target=1100, game_end="immediate", plusminus_chain=chain),
                    evaluate_ev=False)
    for seat, own, other in ((0, 0, 20), (1, 0, 21), (0, 1, 21), (1, 21, 0), (0, 20, 1)):
        v = turn_start(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, seat, own, other)
        assert v.value == pytest.approx(sol.W[seat, own, other], abs=1e-12)


def test_deduction_at_the_tutto_sweeps_until_nothing_moves():
    """Deduction at the Tutto: a Niete after a Plus/Minus Tutto leads to a
    smaller score sum (from target 1050 on, where 1000 points do not reach the
    target), so the solver sweeps again; the table then satisfies one turn's
    equation at every state checked (one turn's programme with the table at
    its leaves gives the table's own value)."""
    from tutto_sim.tutto.win.planner import turn_start

    sol = solve_win(TuttoRules(target=1100, game_end="immediate", plusminus_deduction="tutto"),
                    evaluate_ev=False)
    assert sol.sweeps >= 2 and sol.residual <= 1e-10
    for seat, own, other in ((0, 0, 0), (1, 0, 21), (0, 1, 21), (1, 20, 20)):
        v = turn_start(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, seat, own, other)
        assert v.value == pytest.approx(sol.W[seat, own, other], abs=1e-10)


@pytest.mark.parametrize("kw", [dict(target=600), dict(target=600, x2_scope="card"),
                                dict(target=1100, plusminus_deduction="tutto")])
def test_pruning_the_programme_changes_nothing(kw):
    """The solver skips the alternatives to banking where a bound shows that
    banking is best (``win.programme._layer``, ``prune``). Every turn of a solved
    table, run with and without it, must give the same bits: the turn's value,
    its slope, every after-Tutto value and every holding value; only the
    draw values the pruned programme skipped may differ (it must skip some)."""
    from tutto_sim.tutto.win import kernel2 as k
    from tutto_sim.tutto.win.params import WinScratch, params_for, turn_size_for

    rules = TuttoRules(**kw)
    sol = solve_win(rules, evaluate_ev=False)
    n, mc = rules.target // 50, sol.margin_cap
    p = params_for(rules, n, mc)
    tsize = turn_size_for(rules, n, mc, p.t_max)
    x2 = rules.x2_scope == "card"
    skipped = 0
    for seat, own, other in itertools.product((0, 1), range(0, n, 3), range(0, n, 4)):
        tcap = n - own + (mc if seat == 0 else 0)
        got = []
        for prune in (False, True):
            s = WinScratch(1, n // 20 + 3, tsize, x2, p.cpmax)
            v = k.state_value(0, seat, own, other, float(sol.W[1 - seat, other, own]), sol.W,
                               sol.last_turn_table, sol.W, sol.last_turn_table, n, False,
                               rules.plusminus_deduction == "tutto", tcap, tcap, p.tp, p.ev,
                               s.A[0], s.D[0], s.U[0], s.UX[0], s.bl[0], s.bust[0], s.win[0],
                               s.chain[0], s.sc[0], prune)
            got.append((v, s))
        (v0, s0), (v1, s1) = got
        assert v0 == v1
        assert np.array_equal(s0.A[0, :, :, :tcap], s1.A[0, :, :, :tcap])
        assert np.array_equal(s0.U[0], s1.U[0]) and np.array_equal(s0.UX[0], s1.UX[0])
        skipped += int((s0.D[0, :, :, 1:tcap] != s1.D[0, :, :, 1:tcap]).sum())
    assert skipped > 0


# Plus/Minus: the players who lose are fixed once, from the scores at the start
# of the turn (worked out by hand, units of 50: a Tutto takes 20)
CHAINS = [
    # roller a, opponent b -> the opponent's score after 0, 1, 2, ... Tuttos (the last repeats)
    (35, 50, [50, 30, 10, 0]),  # below the roller after the first Tutto, and on
    (50, 50, [50, 30, 10, 0]),  # tied: the opponent loses
    (15, 21, [21, 1, 0]),
    (0, 25, [25, 5, 0]),
    (10, 50, [50, 30, 10, 0]),
    (51, 50, [50]),  # the roller leads alone: nobody loses
    (0, 0, [0]),  # nothing to take
    (45, 60, [60, 40, 20, 0]),
]


@pytest.mark.parametrize("a, b, chain", CHAINS)
def test_deduction_chain_is_fixed_at_the_start_of_the_turn(a, b, chain):
    from tutto_sim.tutto.win.programme import win_chain
    from tutto_sim.tutto.win.params import layers_of

    out = np.zeros(64, dtype=np.int64)
    n = win_chain(a, b, out)
    assert out[:n].tolist() == chain
    assert layers_of(a, b) == len(chain)


def test_deduction_chains_tell_the_readings_apart():
    refound = []  # the leader found afresh at each Tutto: e_{j+1} = e_j - 20 while e_j >= a
    for a, b, chain in CHAINS:
        e = [b]
        while e[-1] >= a and e[-1] > 0:
            e.append(max(0, e[-1] - 20))
        refound.append(e != chain)
    assert sum(refound) == 4


@pytest.mark.parametrize("own, other, tuttos, margin", [
    (10, 130, 0, 120),
    (10, 130, 2, 80),  # the leader loses 20 a Tutto
    (10, 130, 7, -1),  # behind the roller: every negative margin is -1
    (0, 30, 2, 0),  # the leader at 0: tied with a roller at 0
    (140, 130, 3, -1),  # the roller ahead at the start: nobody loses
])
def test_last_turn_margin_after_the_tuttos(own, other, tuttos, margin):
    from tutto_sim.tutto.win.programme import last_turn_margin

    assert last_turn_margin(own, other, tuttos) == margin


@pytest.mark.parametrize("deduction", ["bank", "tutto"])
def test_planner_takes_from_the_player_fixed_at_the_start(deduction):
    """Target 1100 (22 units; a Tutto takes 20): the opponent on 21 against 15
    falls below the roller after one Plus/Minus Tutto and still loses at the
    second. The planner's layer j at the turn's start scores (``turn_start``,
    the current scores already deducted under ``tutto``) banks and busts into
    the table at the opponent's ``max(0, 21 - 20 j)``."""
    from types import SimpleNamespace

    from tutto_sim.tutto.win.planner import WinPlanner
    from tutto_sim.tutto.win.table import WinTable

    sol = solve_win(TuttoRules(target=1100, game_end="immediate", plusminus_deduction=deduction),
                    evaluate_ev=False)
    planner = WinPlanner(WinTable(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, {}))
    W = sol.W
    for seat, a, b in ((0, 15, 21), (1, 15, 21), (0, 21, 21), (1, 2, 21)):
        for j in range(3):
            e = max(0, b - 20 * j)
            now = (50 * a, 50 * e) if deduction == "tutto" else (50 * a, 50 * b)  # points
            start = (50 * a, 50 * b)
            view = SimpleNamespace(seat=seat, last_round=False,
                                   turn_start=start if seat == 0 else start[::-1],
                                   scores=now if seat == 0 else now[::-1])
            lay, layer = planner.where(view, j)
            bust = 1.0 - W[1 - seat, e if deduction == "tutto" else b, a]
            assert lay.bust[layer] == pytest.approx(bust, abs=1e-12), (seat, a, b, j)
            for t in range(20 * j, 22 - a):
                assert lay.bl[layer, t] == pytest.approx(1.0 - W[1 - seat, e, a + t], abs=1e-12)
            assert lay.bl[layer, 22 - a] == 1.0  # reaching the target wins


def test_planner_after_a_plusminus_tutto_takes_from_the_same_player():
    """Deduction at the Tutto, chain ``bank`` (a Plus/Minus Tutto banks at
    once), target 1100 under ``round``: seat 0 on 15 units against 21 has made
    one Plus/Minus Tutto (the opponent now on 1, below him). A second one banks
    past the target and takes the opponent to 0 (he lost at the start of the
    turn): seat 1's last turn from 0 at margin ``15 + T + 20``, row 0 of the
    last-turn table (the trailing player on 0)."""
    from types import SimpleNamespace

    from tutto_sim.tutto.win.planner import WinPlanner
    from tutto_sim.tutto.win.table import WinTable

    sol = solve_win(TuttoRules(target=1100, plusminus_deduction="tutto", plusminus_chain="bank"),
                    evaluate_ev=False)
    planner = WinPlanner(WinTable(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, {}))
    L = sol.last_turn_table
    view = SimpleNamespace(seat=0, last_round=False, turn_start=(750, 1050), scores=(750, 50))
    lay, layer = planner.where(view, 1)
    for t in range(20, 27):  # the turn total after the first Tutto (units), margins within L
        m = 15 + t + 20  # seat 0's lead after banking the second, the opponent on 0
        want = 1.0 - L[0, min(m + 1, L.shape[1] - 1)]
        assert planner.after_plusminus(lay, layer, 50 * t) == pytest.approx(want, abs=1e-12)
        refound = 1.0 - L[1, min(m, L.shape[1] - 1)]  # the opponent left on 1: margin m - 1
        assert abs(want - refound) > 1e-6

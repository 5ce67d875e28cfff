"""Win-probability-optimal two-player Macke (tutto_sim.macke.win.solve2): the
last turn and the Bellman equation against an independent plain-Python turn
solver, the table's properties, optimality against the EV-optimal policy,
threads, cap and floor, and the EV game against game-kernel tournaments."""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import numba
import numpy as np
import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import run_tournament
from tutto_sim.macke.game import GameConfig
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.scoring import is_instant_win, keep_dice, legal_keeps, unit_points
from tutto_sim.macke.solver import solve_macke
from tutto_sim.macke.win.solve2 import ev_game, last_turn_chances
from tutto_sim.macke.win.solve_n import solve_macke_win

SMALL = MackeRules(target=300)
FLOOR = -500
CAP = 60


@functools.lru_cache(maxsize=None)
def solved(rules: MackeRules = SMALL, floor: int = FLOOR, cap: int = CAP):
    return solve_macke_win(rules, floor=floor, cap_units=cap)


# ----------------------------------------------------------- independent solver


def independent_turn(rules: MackeRules, cap_units: int, bank_value, macke_value) -> float:
    """The best expected leaf value of one turn, by plain recursion over the
    reference scorer (nothing of the tables or kernels). ``bank_value(T)``:
    the turn ends with total T points (banked or after its last throw);
    ``macke_value(T)``: a Macke with turn total T (0 on the first throw);
    five 1s (instant-win) are worth 1. A clear at a total >= the cap is
    banked."""
    n_all, pts = rules.n_dice, unit_points(rules)
    cap = cap_units * 50

    @functools.lru_cache(maxsize=None)
    def throws(n: int):
        """Every throw of n dice, counted over all 6**n ordered outcomes."""
        seen = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
        return [(k / 6**n, is_instant_win(faces, rules), tuple(legal_keeps(faces, rules)))
                for faces, k in seen.items()]

    def points(aside: tuple) -> int:
        return sum(pts[u] for u in aside)

    def go_on(locked: int, aside: tuple, left: int) -> float:
        """After setting aside: the better of ending here and throwing on."""
        total = locked + points(aside)
        stop = bank_value(total)
        if keep_dice(aside, rules) == n_all:  # a clear: a new series below the cap
            return stop if total >= cap else max(stop, best(total, (), rules.throws, False))
        return stop if left == 0 else max(stop, best(locked, aside, left, True))

    @functools.lru_cache(maxsize=None)
    def throw(locked: int, kept: tuple, left: int) -> float:
        v = 0.0
        for p, win, keeps in throws(n_all - keep_dice(kept, rules)):
            v += p * (1.0 if win else macke_value(locked + points(kept)) if not keeps
                      else max(go_on(locked, tuple(sorted(kept + k)), left - 1) for k in keeps))
        return v

    def best(locked: int, aside: tuple, left: int, may_return: bool) -> float:
        """Before a throw: the best over what stays aside, then the throw."""
        stays = ({tuple(sorted(c)) for r in range(len(aside) + 1)
                  for c in itertools.combinations(aside, r)} if may_return else {aside})
        return max(throw(locked, kept, left) for kept in stays)

    return best(0, (), rules.throws, False)


def beats_k(r: int, need: int) -> float:
    return 1.0 if r > need else 0.5 if r == need else 0.0


@pytest.mark.parametrize("rules", [
    MackeRules(),
    MackeRules.preset("instant-win", throws=2, bust="zero"),
], ids=["default", "instant-win-zero-2-throws"])
def test_last_turn_matches_an_independent_solver(rules):
    cap = 20
    last = last_turn_chances(rules, cap)
    for d in (6, 15):
        need = d * 50
        expected = independent_turn(
            rules, cap, lambda t: beats_k(rules.result(t), need),
            lambda t: beats_k(0 if rules.bust == "zero" else -t, need))
        assert last[d] == pytest.approx(expected, abs=1e-12), d


def test_last_turn_by_hand():
    # Below the minimum (300) every positive result beats the need, and no
    # result equals it: one chance for d = 50 .. 250, at least the EV-optimal
    # policy's P(result > 0); needing more is never easier.
    last = last_turn_chances(MackeRules(), 60)
    assert np.allclose(last[1:6], last[1], atol=1e-15)
    assert last[1] >= solve_macke(MackeRules()).p_positive - 1e-12
    assert np.all(np.diff(last[1:]) <= 1e-15)
    assert last[-1] == 0.0


@pytest.mark.parametrize("rules", [SMALL, MackeRules(target=300, bust="zero")], ids=["default", "zero"])
def test_bellman_equation_by_an_independent_solver(rules):
    cap = 25  # clears at >= 1250 points banked, in both solvers
    sol = solved(rules, cap=cap)
    f, g = sol.floor // 50, sol.target // 50
    w, last = sol.W[0], sol.last_turn

    for a, b in [(-5, 0), (5, -10)]:
        def after(s_pts: int) -> float:
            s = s_pts // 50
            if s >= g:
                return 1.0 - last[min(s - b, len(last) - 1)]
            return 1.0 - w[b - f, max(s, f) - f]

        value = independent_turn(
            rules, cap, lambda t: after(a * 50 + rules.result(t)),
            lambda t: after(a * 50 - (0 if rules.bust == "zero" else t)))
        assert w[a - f, b - f] == pytest.approx(value, abs=1e-9), (a, b)


# ----------------------------------------------------------- the table


def test_the_table_is_a_probability_table_and_the_seats_agree():
    sol = solved()
    n = (sol.target - sol.floor) // 50
    assert sol.W.shape == (2, n, n) and sol.states == 2 * n * n
    assert np.all(sol.W >= 0) and np.all(sol.W <= 1)
    assert np.array_equal(sol.W[0], sol.W[1])
    assert sol.residual <= 1e-10
    assert sol.p_first_wins == sol.W[0, -sol.floor // 50, -sol.floor // 50] == sol.win(0, 0)


def test_playing_to_win_beats_playing_for_points_in_both_seats():
    sol = solved()
    first, second = sol.win_vs_ev_seats
    assert first >= sol.p_first_wins_ev - 1e-12
    assert second >= 1.0 - sol.p_first_wins_ev - 1e-12
    assert sol.win_vs_ev == pytest.approx((first + second) / 2)
    assert sol.win_vs_ev > 0.51
    assert sol.p_first_wins_ev == pytest.approx(ev_game(SMALL, FLOOR)[10, 10], abs=1e-12)


def test_the_table_does_not_depend_on_the_thread_count(monkeypatch):
    rules, threads = MackeRules(target=200), numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve_macke_win(rules, floor=-300, cap_units=CAP)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = solve_macke_win(rules, floor=-300, cap_units=CAP)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(one.W, many.W) and one.win_vs_ev == many.win_vs_ev


def test_raising_the_cap_changes_nothing():
    a, b = solved(), solved(cap=2 * CAP)
    assert np.abs(a.W - b.W).max() <= 1e-12
    # against the EV player, the last turn may need more than 3,000 points
    # (the EV player's turn is not cut); that chance changes in the 8th digit
    assert a.win_vs_ev == pytest.approx(b.win_vs_ev, abs=1e-7)


def test_bad_floor_and_target():
    with pytest.raises(ValueError, match="floor must be a negative multiple of 50"):
        solve_macke_win(SMALL, floor=-525)
    with pytest.raises(ValueError, match="floor"):
        solve_macke_win(SMALL, floor=0)
    with pytest.raises(ValueError, match="targets up to"):
        solve_macke_win(MackeRules(target=25_000))


# ----------------------------------------------------------- against the game


def test_the_ev_game_matches_a_game_kernel_tournament():
    # optimal against optimal, two players, to 300: the floor lies far below
    # anything these games reach (its effect is shown to be nil first)
    rules = SMALL
    deep, deeper = ev_game(rules, -2500), ev_game(rules, -5000)
    assert abs(deep[50, 50] - deeper[100, 100]) < 1e-7
    p = deeper[100, 100]
    res = run_tournament(parse_bots("optimal", rules), 2, 120_000, 13, GameConfig(rules))
    first = res.seat_rates()[0]
    assert first.n == 120_000 and first.ci95 < 0.003
    assert abs(first.mean - p) < first.ci95, (first.mean, first.ci95, p)


# ----------------------------------------------------------- the command


@pytest.fixture
def small_solve(monkeypatch):
    """The command's solve at a floor of -300 and a cap of 40 units (seconds, not minutes)."""
    import tutto_sim.macke.win.solve_n as wp  # where the command finds solve_macke_win

    monkeypatch.setattr(wp, "solve_macke_win", lambda rules, phase=None: _small(rules))
    return _small


@functools.lru_cache(maxsize=None)
def _small(rules: MackeRules):
    return solve_macke_win(rules, floor=-300, cap_units=CAP)


@pytest.mark.parametrize("game", ["macke", "volle-lotte"])
def test_solve_objective_win_json(capsys, small_solve, game, tmp_path, monkeypatch):
    import json

    from conftest import run_cli

    monkeypatch.chdir(tmp_path)  # the table goes to results/GAME-win-200-<run>.json
    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--game", game, "--target", "200",
                             "--players", "2", "--json")
    assert code == 0, err
    d = json.loads(out)
    sol = small_solve(MackeRules.preset("volle-lotte" if game == "volle-lotte" else "standard", target=200))
    for key in ("p_first_wins", "p_first_wins_ev", "win_vs_ev", "residual", "states"):
        assert d[key] == getattr(sol, key), key
    assert d["target"] == 200 and d["floor"] == -300 and d["seconds"] >= 0
    assert d["game"] == game and d["variant"] == ("volle-lotte" if game == "volle-lotte" else "standard")
    assert d["policy_file"] == f"results/{game}-win-200-{d['run_digest']}.json"
    assert (tmp_path / d["policy_file"]).exists()


def test_solve_objective_win_text(capsys, small_solve, tmp_path):
    from conftest import run_cli

    path = tmp_path / "w.json"
    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--game", "macke", "--target", "200",
                             "--out", str(path))
    assert code == 0, err
    assert f"win table written to {path}" in err and path.exists()
    sol = small_solve(MackeRules(target=200))
    assert f"both play to win: the first player wins {sol.p_first_wins:.4%}" in out
    assert "your chance at the start of your turn" in out


@pytest.mark.parametrize("args, words", [
    (["--target", "25000"], "targets up to 20,000"),
    # a place under a file (a folder named --out takes the table under its own name)
    (["--target", "1000", "--out", f"{__file__}/table.json"], "is a file, not a folder"),
])
def test_solve_objective_win_bad_input(capsys, args, words):
    from conftest import run_cli

    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--game", "macke", *args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err

"""Playing to win at a table of N (tutto_sim.macke.win.solve_n): a third player
who cannot matter (the two-player last turn, its own programme), the tables'
properties, threads, the points game against game-kernel tournaments, the
policy file and the command. At two players (the two-player table is this
solver's at N = 2) it is held to an independent solver of the Bellman
equation in test_macke_win_solve2.py."""

from __future__ import annotations

import functools
import json

import numba
import numpy as np
import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.policyfile import PolicyFileError
from tutto_sim.core.tournament import run_tournament
from tutto_sim.macke.game import GameConfig
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.win.solve2 import last_turn_chances
from tutto_sim.macke.win.solve_n import solve_macke_win
from tutto_sim.macke.win.table import write_win_table
from tutto_sim.macke.win.solve_n import ev_game_n, last_turns_n, solve_macke_win_n
from tutto_sim.macke.win.table import load_win_table_n, write_win_table_n

TINY = MackeRules(target=100)


@functools.lru_cache(maxsize=None)
def two(rules=MackeRules(target=200), floor=-300, cap=40):
    return solve_macke_win(rules, floor=floor, cap_units=cap)


@functools.lru_cache(maxsize=None)
def n_solved(rules=MackeRules(target=200), players=2, floor=-300, cap=40):
    return solve_macke_win_n(rules, players, floor=floor, cap_units=cap)


# ------------------------------------------------------- reduce to what is known


def test_a_third_player_out_of_reach_leaves_the_two_player_last_turn():
    # the finisher ends on s >= target, the second player (score b) throws once
    # more, the third sits so far below that no capped turn reaches s: the
    # chances are the two-player ones, 1 - L(s - b) and L(s - b), and 0
    rules, floor, cap = MackeRules(target=200), -1700, 10
    E = last_turns_n(rules, 3, floor, cap)
    L = last_turn_chances(rules, cap)
    n_t = E.shape[2]
    f, g = floor // 50, rules.target // 50
    assert g - f >= n_t  # the floor itself is out of reach of the target
    checked = 0
    for b in range(f, g, 5):
        for t in range(0, n_t - 1, 3):
            d = g + t - b
            want = L[min(d, len(L) - 1)]
            got = E[b - f, 0, t]
            assert abs(got[1] - want) < 1e-12 and abs(got[0] - (1 - want)) < 1e-12, (b, t)
            assert got[2] == 0.0
            checked += 1
    assert checked > 90


@pytest.mark.parametrize("players", [3, 4])
def test_tables_are_chances_that_sum_to_one(players):
    sol = n_solved(TINY, players, -100, 20)
    assert sol.W.shape == (4,) * players + (players,)
    assert sol.W.min() >= -1e-12 and sol.W.max() <= 1 + 1e-12
    assert np.abs(sol.W.sum(-1) - 1).max() < 1e-12
    assert np.abs(sol.ev_table.sum(-1) - 1).max() < 1e-12
    assert abs(sum(sol.p_wins) - 1) < 1e-12 and abs(sum(sol.p_wins_ev) - 1) < 1e-12
    assert sol.residual <= 1e-10 and sol.states == 4 ** players
    assert all(0 < x < 1 for x in sol.win_vs_ev)
    # the seat is no part of the state: the start is W at everyone's 0
    z = (2,) * players
    assert sol.p_wins == [float(x) for x in sol.W[z]]


def test_playing_to_win_pays_against_points_players():
    sol = n_solved(MackeRules(target=150), 3, -150, 20)
    for s in range(3):
        assert sol.win_vs_ev[s] > sol.p_wins_ev[s]


@pytest.mark.parametrize("rules, players, floor, cap", [
    (MackeRules(target=150), 3, -150, 30),
    (MackeRules(variant="instant-win", target=100), 4, -100, 20),
    (MackeRules.preset("volle-lotte", target=100, bust="zero"), 3, -100, 20),
])
def test_the_fast_kernels_give_the_reference_tables(rules, players, floor, cap):
    # the end solved by families of keys (each turn's levels above the
    # minimum once per family, the others' chances evaluated backwards) and
    # the level with each keep's value computed once, against the kernels as
    # first written (every key whole, forward passes): the same tables
    fast = solve_macke_win_n(rules, players, floor=floor, cap_units=cap)
    ref = solve_macke_win_n(rules, players, floor=floor, cap_units=cap, reference=True)
    assert fast.iterations == ref.iterations
    assert np.abs(fast.W - ref.W).max() < 1e-12
    assert np.array_equal(fast.ev_table, ref.ev_table)
    for a, b in ((fast.p_wins, ref.p_wins), (fast.win_vs_ev, ref.win_vs_ev)):
        assert np.abs(np.array(a) - np.array(b)).max() < 1e-12
    assert fast.max_locked == ref.max_locked
    # the chances of a player who plays to win differ from the points game's
    assert np.abs(fast.W - fast.ev_table).max() > 0.01


@pytest.mark.parametrize("variant", ["standard", "volle-lotte"])
def test_the_level_kernel_values_as_the_turn_solver(variant):
    # one locked total of the turn, random leaves: the win solver's level
    # (each set-aside state's value once, successors from a table) gives the
    # values of the turn solver's own level (macke.solver.turn_level), written
    # apart from it; only the tie-break (within 1e-12) may tell them apart
    from tutto_sim.macke.solver import turn_level
    from tutto_sim.macke.win.kernel_n import _level
    from tutto_sim.macke.win.solve_n import _Setup

    s = _Setup(MackeRules.preset(variant, target=300), 3, -100, 60)
    sf, si, _ = s.scratch()
    n_all, L, tab, _, kpref, spref, ak, _, _, hc = s.turn_args()
    rng = np.random.default_rng(7)
    for t0, tstar in ((0, 30), (12, 30), (29, 30)):
        bankv, mackev, cv = rng.random(s.n_t), rng.random(s.n_t), rng.random(hc)
        got, want = np.zeros_like(sf[3][0]), np.zeros_like(sf[3][0])
        for out, fn, extra in ((got, _level, (kpref, spref, ak)), (want, turn_level, ())):
            vt, bt = np.zeros_like(out), np.zeros_like(out)
            keep, ret, bank = si[1][0][0].copy(), si[2][0][0].copy(), si[3][0][0].copy()
            if extra:
                fn(t0, n_all, L, tab, *extra, bankv, mackev, tstar, cv, vt, bt, keep, ret, bank,
                   0.5)
            else:
                fn(t0, n_all, L, tab, bankv, mackev, 0.5, tstar, cv, vt, bt, keep, ret, bank)
            out[:] = vt
        assert np.abs(got[1:] - want[1:]).max() < 1e-12
        assert want[L, int(s.m.empty)] > 0.3


@pytest.mark.parametrize("rules, players, floor, cap", [
    (TINY, 3, -100, 10),
    (MackeRules(target=150), 3, -150, 30),  # families of many keys, digests that repeat
])
def test_one_and_two_threads_give_the_same_table(rules, players, floor, cap):
    old = numba.get_num_threads()
    try:
        out = []
        for k in (1, 2):
            numba.set_num_threads(k)
            out.append(solve_macke_win_n(rules, players, floor=floor, cap_units=cap))
    finally:
        numba.set_num_threads(old)
    a, b = out
    assert np.array_equal(a.W, b.W) and a.win_vs_ev == b.win_vs_ev and a.p_wins_ev == b.p_wins_ev
    assert a.W.tobytes() == b.W.tobytes() and a.ev_table.tobytes() == b.ev_table.tobytes()


def test_the_same_table_on_a_cluster(capsys, tmp_path, monkeypatch):
    """``--cluster local:2``: each sweep's states go out in tasks (made small
    here, so that a small table has several) and the table is the same to
    the bit, though the tasks run every forward pass (no digests of the sweep
    before) where the threads skip those whose decisions did not change. The
    end tables go to the workers once, each sweep's table once."""
    from conftest import run_cli

    import tutto_sim.macke.win.solve_n as wn

    monkeypatch.setattr(wn, "DEFAULT_FLOOR_N", -100)
    monkeypatch.setattr(wn, "CLUSTER_STATES", 50)
    files, outs = [], []
    for extra in ((), ("--cluster", "local:2")):
        f = tmp_path / f"w{len(files)}.json"
        code, out, err = run_cli(capsys, "solve", "--objective", "win", "--game", "macke",
                                 "--players", "3", "--target", "150", "--out", str(f), "--json",
                                 *extra)
        assert code == 0, err
        assert "nothing of this command ran on the cluster" not in err
        files.append(load_win_table_n(f))
        outs.append(json.loads(out))
    assert files[0].W.tobytes() == files[1].W.tobytes()
    for k in ("p_wins", "p_wins_ev", "win_vs_ev", "residual", "iterations"):
        assert outs[0][k] == outs[1][k], k
    traffic = outs[1]["cluster_traffic"]
    sweeps = outs[1]["iterations"]
    n_states = files[1].W.size // 3
    assert traffic["rounds"] == sweeps and traffic["tables_sent"] == 2 + sweeps
    assert traffic["update_bytes"] == 0
    assert "cluster_traffic" not in outs[0] and n_states > 50


def test_the_points_game_matches_a_three_player_tournament():
    # everyone optimal, three players, to 200: the floor lies far below what
    # these games reach (shown first), so the game kernel (no floor) must agree
    rules = MackeRules(target=200)
    deep, deeper = ev_game_n(rules, 3, -2500), ev_game_n(rules, 3, -3000)
    assert np.abs(deep[50, 50, 50] - deeper[60, 60, 60]).max() < 1e-6
    p = deeper[60, 60, 60]
    res = run_tournament(parse_bots("optimal", rules), 3, 60_000, 17, GameConfig(rules))
    for seat, rate in enumerate(res.seat_rates()):
        assert rate.n == 60_000 and rate.ci95 < 0.005
        assert abs(rate.mean - p[seat]) < rate.ci95, (seat, rate.mean, rate.ci95, p[seat])


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        solve_macke_win_n(TINY, 5)
    with pytest.raises(ValueError, match="floor"):
        solve_macke_win_n(TINY, 3, floor=-125)


# ------------------------------------------------------------ the policy file


def test_the_policy_file_round_trips_and_refuses_what_does_not_fit(tmp_path):
    sol = n_solved(TINY, 3, -100, 10)
    path = tmp_path / "w3.json"
    write_win_table_n(sol, path)
    t = load_win_table_n(path, TINY, 3)
    assert t.players == 3 and t.floor == -100 and t.cap_units == 10
    assert np.array_equal(t.W, np.clip(sol.W, 0, 1))
    assert t.chances([0, 0, 0]) == [float(x) for x in np.clip(sol.W[2, 2, 2], 0, 1)]
    with pytest.raises(PolicyFileError, match="for 3 players, not 4"):
        load_win_table_n(path, TINY, 4)
    with pytest.raises(PolicyFileError, match="other rules"):
        load_win_table_n(path, MackeRules(target=100, bust="zero"))
    d = json.loads(path.read_text())
    d["W"] = d["W"][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    with pytest.raises(PolicyFileError, match="changed or damaged"):
        load_win_table_n(bad)
    # a two-player file of the two-player solver loads as it is
    p2 = tmp_path / "w2.json"
    write_win_table(two(), p2)
    t2 = load_win_table_n(p2, MackeRules(target=200), 2)
    assert t2.players == 2 and np.array_equal(t2.W[..., 0], np.clip(two().W[0], 0, 1))


# ----------------------------------------------------------------- the command


@pytest.fixture
def small_n(monkeypatch):
    import tutto_sim.macke.win.solve_n as wn

    monkeypatch.setattr(wn, "solve_macke_win_n",
                        lambda rules, players, phase=None, checkpoint=None: n_solved(rules, players,
                                                                                     -100, 10))


@pytest.mark.parametrize("game", ["macke", "volle-lotte"])
def test_solve_three_players_json(capsys, small_n, game, tmp_path, monkeypatch):
    from conftest import run_cli

    monkeypatch.chdir(tmp_path)
    args = ["solve", "--objective", "win", "--game", game, "--target", "100", "--json"]
    code, out, err = run_cli(capsys, *(args + (["--players", "3"] if game == "macke" else [])))
    assert code == 0, err
    d = json.loads(out)
    rules = MackeRules.preset("volle-lotte" if game == "volle-lotte" else "standard", target=100)
    sol = n_solved(rules, 3, -100, 10)
    assert d["players"] == 3 and d["p_wins"] == sol.p_wins and d["p_wins_ev"] == sol.p_wins_ev
    assert d["win_vs_ev"] == sol.win_vs_ev and d["states"] == 64 and "note" not in d
    assert d["policy_file"] == f"results/{game}-win-100-3p-{d['run_digest']}.json"
    assert load_win_table_n(tmp_path / d["policy_file"], rules, 3).players == 3


def test_solve_three_players_text(capsys, small_n, tmp_path):
    from conftest import run_cli

    path = tmp_path / "w.json"
    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--game", "macke", "--target",
                             "100", "--players", "3", "--out", str(path))
    assert code == 0, err
    sol = n_solved(TINY, 3, -100, 10)
    # seats numbered as everywhere else (play, tournament, --seat): seat 0 starts
    assert (f"all play to win (seat 0 starts): seat 0 {sol.p_wins[0]:.2%}, seat 1 "
            f"{sol.p_wins[1]:.2%}, seat 2 {sol.p_wins[2]:.2%}\n") in out and path.exists()
    assert f"he wins {sol.win_vs_ev[0]:.2%} in seat 0, " in out and "seat 3" not in out


def test_two_player_volle_lotte_says_the_rules_ask_for_three(capsys, tmp_path, monkeypatch):
    import tutto_sim.macke.win.solve_n as wp  # where the command finds solve_macke_win
    from conftest import run_cli

    monkeypatch.setattr(wp, "solve_macke_win", lambda rules, phase=None: two(rules, -300, 40))
    monkeypatch.chdir(tmp_path)
    base = ["solve", "--objective", "win", "--game", "volle-lotte", "--target", "200", "--players", "2"]
    code, out, err = run_cli(capsys, *base, "--json")
    assert code == 0, err
    assert json.loads(out)["note"] == "the rules ask for three or more players at Volle Lotte"
    code, out, err = run_cli(capsys, *base)
    assert code == 0 and "the rules ask for three or more players" in out

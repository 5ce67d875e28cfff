"""The N-player win solver (``tutto.win.solve_n``) against what is known
independently: the two-player last turn (``kernel2.last_turn_values``, its own
programme) where a third player cannot matter, the closed form at target 50,
and the game kernel's games. At two players it is checked against the
plain-Python reference solver (test_win_solve2_reference.py,
test_win_reference_n.py): the two-player table is its table at N = 2."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from tutto_sim.core.policyfile import PolicyFileError
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.solve2 import solve_win
from tutto_sim.tutto.win.solve_n import solve_win_n
from tutto_sim.tutto.win.table import load_win_table_n, write_win_table_n


@pytest.fixture(scope="module")
def three_round():
    return solve_win_n(TuttoRules(target=100), players=3)


def test_a_third_player_who_cannot_matter_leaves_the_two_player_last_turn(three_round):
    """The last turn of the round (seat 2) with seat 1 done on 0 points: seat 1
    can neither win (seat 0 is past the target) nor lose points (never the
    leader), so seat 2's chance is the two-player last turn's L(margin)."""
    sol = three_round
    two = solve_win(TuttoRules(target=100))
    L = two.last_turn_table  # [row, m + 1]; row 1: the trailing player has points
    n = 2
    checked = 0
    for x0 in range(n, n + 30):
        for x2 in range(1, n):
            m = x0 - x2
            assert abs(sol.E[2, x0, 0, x2, 2] - L[1, m + 1]) < 1e-12
            assert sol.E[2, x0, 0, x2, 1] == 0.0
            checked += 1
    assert checked > 20


def test_closed_form_at_target_50():
    """Target 50, the first to reach it: a turn wins with the chance p that it
    banks anything or wins by the Kleeblatt (the two-player table: W = 1/(2-p));
    seat s of N wins p(1-p)^s / (1 - (1-p)^N)."""
    w2 = solve_win(TuttoRules(target=50, game_end="immediate")).p_first_wins
    p = 2.0 - 1.0 / w2
    for N in (3, 4):
        sol = solve_win_n(TuttoRules(target=50, game_end="immediate"), players=N,
                          evaluate_ev=False)
        want = [p * (1 - p) ** s / (1 - (1 - p) ** N) for s in range(N)]
        assert np.allclose(sol.p_wins, want, atol=1e-12, rtol=0)


def test_every_state_is_a_distribution_of_the_win(three_round):
    for a in (three_round.W, three_round.E[1:]):
        assert a.min() >= -1e-15 and a.max() <= 1 + 1e-15
    assert np.abs(three_round.W.sum(axis=-1) - 1).max() < 1e-12
    assert three_round.residual < 1e-12
    # playing to win never does worse than the points table in any seat
    assert all(w >= e - 1e-12 for w, e in zip(three_round.win_vs_ev, three_round.p_wins_ev))


def test_results_do_not_depend_on_the_thread_count():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba was started with one thread")  # pragma: no cover
    before = numba.get_num_threads()
    rules = TuttoRules(target=150, game_end="immediate")
    try:
        numba.set_num_threads(1)
        one = solve_win_n(rules, players=3)
        numba.set_num_threads(2)
        two = solve_win_n(rules, players=3)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one.W, two.W)
    assert one.win_vs_ev == two.win_vs_ev


def test_the_table_file_round_trips_and_refuses_damage(three_round, tmp_path):
    path = tmp_path / "w.json"
    write_win_table_n(three_round, path)
    t = load_win_table_n(path, TuttoRules(target=100), players=3)
    assert np.array_equal(t.W, three_round.W)
    assert np.array_equal(t.E[1:], three_round.E[1:])
    with pytest.raises(PolicyFileError, match="for 3 players, not 4"):
        load_win_table_n(path, players=4)
    with pytest.raises(PolicyFileError, match="other rules"):
        load_win_table_n(path, TuttoRules(target=150))
    d = json.loads(path.read_text())
    d["W"]["base64"] = d["W"]["base64"][:-8] + "AAAAAAAA"
    path.write_text(json.dumps(d))
    with pytest.raises(PolicyFileError, match="content hash"):
        load_win_table_n(path)


def test_kernel_games_confirm_the_table(three_round, tmp_path):
    """200,000 games of three winopt bots (cards drawn independently, as
    solved) win by seat as the table says, within 99.9% intervals; and one
    winopt among two points players as ``win_vs_ev``."""
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.tutto.bots import parse_bot
    from tutto_sim.tutto.game import GameConfig

    path = tmp_path / "w.json"
    write_win_table_n(three_round, path)
    rules = TuttoRules(target=100, deck="iid")
    games = 200_000
    z = 3.29
    res = run_tournament([parse_bot(f"winopt:{path}", rules) for _ in range(3)], 3, games, 5,
                         GameConfig(rules), "kernel")
    for got, want in zip((e.mean for e in res.seat_rates()), three_round.p_wins):
        assert abs(got - want) < z * np.sqrt(want * (1 - want) / games)
    # one player to win against two points players, each seat in turn: win_vs_ev's mean
    res = run_tournament([parse_bot(f"winopt:{path}", rules), parse_bot("optimal", rules),
                          parse_bot("optimal", rules)], 3, games, 6, GameConfig(rules), "kernel")
    got = res.bot_stats()[0].win.mean if res.bot_stats()[0].name.startswith("winopt") else None
    want = float(np.mean(three_round.win_vs_ev))
    assert got is not None and abs(got - want) < z * np.sqrt(want * (1 - want) / games)


def test_the_command_prints_the_figures_and_writes_the_table(capsys, tmp_path):
    from conftest import run_cli

    out_file = tmp_path / "w3.json"
    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--players", "3", "--target",
                             "100", "--game-end", "immediate", "--out", str(out_file), "--json")
    assert code == 0, err
    d = json.loads(out)
    for key in ("p_wins", "p_wins_ev", "win_vs_ev", "states", "residual", "seconds"):
        assert key in d
    assert len(d["p_wins"]) == 3 and abs(sum(d["p_wins"]) - 1) < 1e-12
    assert load_win_table_n(out_file, players=3).players == 3
    code, _, err = run_cli(capsys, "solve", "--objective", "win", "--players", "5")
    assert code == 2 and "--players must be 2, 3 or 4" in err
    code, _, err = run_cli(capsys, "solve", "--players", "3")
    assert code == 2 and "--objective win only" in err


def test_the_same_table_on_a_cluster(capsys, tmp_path, monkeypatch):
    """``--cluster local:2``: the states go out in tasks (made tiny here, so
    that a small target has several in every stage of the end of the round
    and in the levels; deduction at the Tutto: two sweeps) and the table is
    the same to the bit. The tables go to the workers once each, then only
    the values written."""
    from conftest import run_cli

    from tutto_sim.tutto.win import solve_n

    monkeypatch.setattr(solve_n, "CLUSTER_STATES", 4)
    files = []
    for extra in ((), ("--cluster", "local:2")):
        f = tmp_path / f"w{len(files)}.json"
        code, out, err = run_cli(capsys, "solve", "--objective", "win", "--players", "3",
                                 "--target", "150", "--plusminus-deduction", "tutto",
                                 "--win-only", "--out", str(f), "--json", *extra)
        assert code == 0, err
        assert "nothing of this command ran on the cluster" not in err
        files.append(load_win_table_n(f))
    assert json.loads(out)["sweeps"] == 2
    assert np.array_equal(files[0].W, files[1].W)
    assert np.array_equal(files[0].E, files[1].E)
    # sent whole once each: the table being solved (W and E, also read as the
    # deciding world) and the two-player table's two placeholders of 2 numbers each
    traffic = json.loads(out)["cluster_traffic"]
    table = files[1]
    assert traffic["tables_sent"] == 4
    assert traffic["table_bytes"] == table.W.nbytes + table.E.nbytes + 2 * 2 * 8
    assert 0 < traffic["update_bytes"] < table.E.nbytes


def test_two_tables_at_the_end_of_the_round_on_a_cluster(monkeypatch):
    """The win table's end of the round with the tables of one player to win
    among points players beside it (one programme for both) on ``local:2``:
    the tasks carry the second table's references too, and every table is
    the same to the bit as on threads."""
    from tutto_sim.core import cluster
    from tutto_sim.tutto.win import solve_n

    monkeypatch.setattr(solve_n, "CLUSTER_STATES", 12)
    rules = TuttoRules(target=100)

    def end_tables():
        sv = solve_n._Solver(rules, 3, None, solve_n.DEFAULT_TOL, None)
        W, WE = sv.empty()
        later = {s: sv.empty() for s in (1, 2)}
        sv.end_of_round([("world 1", np.zeros(3, dtype=np.int64), W, WE, W, WE)]
                        + [(f"world {3 + s}", [2 if q == s else 1 for q in range(3)], W, WE,
                            *later[s]) for s in later])
        return sv, [WE, later[1][1], later[2][1]]

    _, here = end_tables()
    with cluster.using("local:2"):
        sv, there = end_tables()
    assert sv.kept is not None and sv.kept.stats["rounds"] > 0
    assert sv.kept.stats["tables_sent"] >= 6  # each world's tables, sent once
    for a, b in zip(here, there):
        assert a.any() and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("players,target,deduction", [(3, 150, "bank"), (3, 150, "tutto"),
                                                       (4, 100, "bank")])
def test_the_reference_solver_gives_the_same_table(players, target, deduction):
    """The plain-numpy reference (``win.reference.solve_reference_n``: every
    keep tried, value iteration, written apart from these kernels) gives the
    same table, every player's chance, under ``immediate``. (Under ``round``
    the two follow the last seat differently at the cap: the reference caps
    it too, this solver lets it throw until it leads; at target 50 they
    differ by 1.7e-4 with a cap of 2,000 points and by 2.7e-7 with 4,000.)"""
    from tutto_sim.tutto.win.reference import solve_reference_n

    rules = TuttoRules(target=target, game_end="immediate", plusminus_deduction=deduction)
    fast = solve_win_n(rules, players=players, evaluate_ev=False)
    ref = solve_reference_n(rules, players=players)
    W = ref["W"] if isinstance(ref, dict) else ref.W
    assert np.abs(fast.W - W).max() < 1e-12


@pytest.mark.parametrize("players, rules, cap", [
    (3, TuttoRules(target=150, plusminus_deduction="tutto"), None),  # links to lower sums: sweeps
    (4, TuttoRules(target=100), 10),  # turns followed 500 points past the target: quick
], ids=["3-deduction-tutto", "4"])
def test_one_to_win_among_points_players_beside_the_win_table_is_that_table_alone(players, rules,
                                                                                    cap):
    """The tables of one player to win among points players are solved beside
    the win table (his turns carried by its Newton runs, then each level's
    linear system): the same values as each table solved alone afterwards,
    from the finished win table, to 1e-12."""
    from tutto_sim.tutto.win.solve_n import DEFAULT_TOL, _Solver

    sol = solve_win_n(rules, players=players, margin_cap=cap)
    N = players
    sv = _Solver(rules, N, cap, DEFAULT_TOL, None)
    W = np.ascontiguousarray(sol.W.reshape(N, -1, N))
    WE = np.ascontiguousarray(sol.E.reshape(N, -1, N))
    for s in range(N):
        V, VE = sv.empty()
        sv.world([2 if q == s else 1 for q in range(N)], W, WE, V, VE)
        assert abs(V[0, 0, s] - sol.win_vs_ev[s]) < 1e-12

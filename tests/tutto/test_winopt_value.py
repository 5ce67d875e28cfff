"""``winopt`` without an N-player table, valued exactly (``win.solve_n.value_winopt``,
``analyze winopt``).

1. At two players the reduced state is the two-player state itself, so the
   N-player solver at N = 2 with ``winopt``'s decisions (kind 3, from the
   two-player table) must give the two-player solver's figures: each seat's
   chance under play to win (a deviation by nobody) and ``win_vs_ev_seats``.
2. At three players ``p_wins`` is an equilibrium: each seat's decisions are
   its best reply to the others', so ``winopt`` in one seat can only lose
   (loss >= 0), and against points players it cannot beat exact play to win.
3. The game kernel's ``winopt`` (cards drawn independently, as the solvers
   draw them) wins as often as the exact values say, in every seat, against
   points players and against players with the exact 3-player table (both
   win tables in one game), within 95% confidence for the family of checks;
   the same games tell the points player's figures apart (the check can fail).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from conftest import one_line, run_cli
from tutto_sim.core.blocks import SHARE
from tutto_sim.core.stats import Z95, Estimate, family_z
from tutto_sim.core.tournament import kernel_batch
from tutto_sim.tutto.bots import WinOptBot, WinOptBotN, parse_bot
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.game_kernel import TuttoGameKernel
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.solve2 import solve_win
from tutto_sim.tutto.win.table import WinTable
from tutto_sim.tutto.win.solve_n import solve_win_n, value_winopt
from tutto_sim.tutto.win.table import WinTableN

pytestmark = pytest.mark.usefixtures("in_tmp_dir")


def _two(rules):
    s = solve_win(rules)
    return s, WinTable(s.rules, s.W, s.last_turn_table, s.margin_cap, s.summary())


def _table_n(rules, players):
    s = solve_win_n(rules, players)
    return s, WinTableN(s.rules, players, s.W, s.E, s.margin_cap, s.summary())


@pytest.mark.parametrize("options", [{"target": 300}, {"target": 200, "game_end": "immediate"},
                                     {"target": 250, "plusminus_deduction": "tutto"}],
                         ids=["round", "immediate", "deduction-tutto"])
def test_at_two_players_winopt_is_the_exact_table(options):
    rules = TuttoRules(**options)
    s2, two = _two(rules)
    _, tab = _table_n(rules, 2)
    v = value_winopt(tab, two)
    assert v.vs_win == pytest.approx(v.exact, abs=1e-9)
    assert max(abs(x) for x in v.loss()) < 1e-9
    # the two solvers count the turns past the cap alike only under ``immediate``
    # (the end of the round: scores past it as the cap here, margins past it
    # as the largest there): 2e-6 apart at target 300
    tol = 1e-9 if rules.game_end == "immediate" else 1e-5
    assert v.vs_win[0] == pytest.approx(s2.p_first_wins, abs=tol)
    assert v.vs_ev == pytest.approx(s2.win_vs_ev_seats, abs=tol)


@pytest.fixture(scope="module")
def three():
    rules = TuttoRules(target=300)
    _, two = _two(rules)
    sol, tab = _table_n(rules, 3)
    return rules, two, tab, value_winopt(tab, two)


def test_winopt_loses_against_exact_play_in_every_seat(three):
    _, _, tab, v = three
    assert v.exact == pytest.approx(tuple(tab.W[(0, 0, 0, 0)]), abs=0)
    assert min(v.loss()) > -1e-9
    assert min(v.loss_vs_ev()) > -1e-9
    assert max(v.loss()) > 1e-3  # it does lose: in the second seat most
    assert sum(v.p_wins_ev) == pytest.approx(1, abs=1e-9)


def _seat_rate(share: np.ndarray, seat: int, z: float) -> Estimate:
    """Bot 0 of lineup (0, 1, 1) in ``seat``: game i seats it at (-i) % 3."""
    x = share[(-seat) % 3::3, seat].astype(np.float64) / SHARE
    e = Estimate.from_sums(float(x.sum()), float((x * x).sum()), len(x))
    return Estimate(e.mean, e.ci95 / Z95 * z, e.n)


def test_kernel_games_win_as_the_values_say(three):
    rules, two, tab, v = three
    config = GameConfig(dataclasses.replace(rules, deck="iid"))
    reduced = WinOptBot(two).table()
    lineup = np.array([[0, 1, 1]], dtype=np.int64)  # rotated game by game
    z = family_z(6)
    games = 450_000
    vs_ev = kernel_batch(TuttoGameKernel(config, [reduced, parse_bot("optimal", rules).table()]),
                         31, 0, games, lineup)
    # the exact 3-player table in the other seats: two win tables in one game
    vs_win = kernel_batch(TuttoGameKernel(config, [reduced, WinOptBotN(tab).table()]), 32, 0,
                          games, lineup)
    for s in range(3):
        e = _seat_rate(vs_ev.share, s, z)
        assert e.contains(v.vs_ev[s]), (s, str(e), v.vs_ev)
        w = _seat_rate(vs_win.share, s, z)
        assert w.contains(v.vs_win[s]), (s, str(w), v.vs_win)
    # the same games tell playing for points apart from winopt (seats 2 and 3)
    for s in (1, 2):
        assert not _seat_rate(vs_ev.share, s, z).contains(v.p_wins_ev[s])


def test_analyze_winopt_from_the_saved_table(capsys, in_tmp_dir, three):
    rules, two, tab, v = three
    base = ["--game", "tutto", "--target", "300", "--players", "3"]
    line = one_line(*run_cli(capsys, "analyze", "winopt", *base))
    assert "solve it first" in line and "--players 3 --target 300" in line
    code, out, err = run_cli(capsys, "solve", "--objective", "win", "--win-only", "--json", *base)
    assert code == 0, err
    code, out, err = run_cli(capsys, "analyze", "winopt", "--json", "--no-points-players", *base)
    assert code == 0, err
    d = json.loads(out)
    assert d["p_wins"] == pytest.approx(list(v.exact), abs=1e-12)
    assert d["winopt_loss"] == pytest.approx(list(v.loss()), abs=1e-12)
    assert d["winopt_vs_ev"] == []
    assert (in_tmp_dir / d["csv"]).exists()
    code, out, _ = run_cli(capsys, "analyze", "winopt", *base, "--no-points-players")
    assert code == 0 and "winopt loses" in out and "points of win probability" in out


@pytest.mark.parametrize("args, words", [
    (["--players", "2"], "--players must be 3 or 4"),
    (["--players", "3", "--target", "7000"], "solved up to target 6,000"),
    (["--players", "3", "--target", "300", "--table", "nowhere.json"], "--table nowhere.json: no such file"),
])
def test_analyze_winopt_refuses_in_one_line(capsys, args, words):
    line = one_line(*run_cli(capsys, "analyze", "winopt", "--game", "tutto", *args))
    assert words in line


def test_analyze_winopt_on_a_cluster_gives_the_same_figures(capsys, monkeypatch):
    """``--cluster local:2``: the turns of ``winopt``'s seat go out in tasks
    (made small here, so that a small target has several: the two-player table
    travels with each) and every figure is the same to the bit."""
    from tutto_sim.tutto.win import solve_n

    base = ["--game", "tutto", "--target", "300", "--players", "3"]
    code, _, err = run_cli(capsys, "solve", "--objective", "win", "--win-only", "--json", *base)
    assert code == 0, err
    monkeypatch.setattr(solve_n, "CLUSTER_STATES", 80)
    got = []
    for extra in ((), ("--cluster", "local:2")):
        code, out, err = run_cli(capsys, "analyze", "winopt", "--json", "--no-points-players",
                                 *base, *extra)
        assert code == 0, err
        assert "nothing of this command ran on the cluster" not in err
        got.append(json.loads(out))
    assert got[0]["winopt_vs_win"] == got[1]["winopt_vs_win"]
    assert got[0]["winopt_loss"] == got[1]["winopt_loss"]

"""The Tutto report's page on tables of three and four players
(``tutto.win.report.sizes_page``): which files it reads, that it says which
are absent, and its thresholds.

The two-player line comes from the two-player solver (``win.solve2``); it must
equal the N-player solver's (``win.solve_n``, an independent programme of the
game) run for two players. The three-player line is the N-player table's turn
programme; its banking leaves are checked against the table's ``W`` read by
hand (below the target: the next seat's turn start on the new scores)."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from report_checks import WIN_TARGET, win_tables_here

from tutto_sim.tutto.win import report as win_pages
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.solve2 import cached_solution
from tutto_sim.tutto.win.table import WinTable, default_win_file
from tutto_sim.tutto.win.planner import programme_of
from tutto_sim.tutto.win.solve_n import solve_win_n

RULES = TuttoRules(target=WIN_TARGET)
N = WIN_TARGET // 50


@functools.lru_cache(maxsize=None)
def _two_player_table() -> WinTable:
    sol = cached_solution(RULES)
    return WinTable(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, sol.summary())


@pytest.fixture(scope="module")
def curves(tmp_path_factory):
    with win_tables_here(tmp_path_factory.mktemp("cwd"), ("tutto",)) as folder:
        return win_pages.size_curves(_two_player_table()), folder


def test_the_page_names_its_files(curves):
    c, _ = curves
    path3, path4 = (default_win_file(RULES, p)[0] for p in (3, 4))
    assert c.found == (3,)
    assert c.files[0] == f"3 players: read from {path3}"
    assert c.files[1] == (f"4 players: {path4} is absent (solving to win for 4 players to "
                          f"{WIN_TARGET} writes it: docs/win.md, Three and four players at the "
                          "table)")
    assert sorted(c.lines) == sorted({50 * (N // 4), 50 * (N // 2), 50 * (3 * N // 4)} - {0})
    for lead, lines in c.lines.items():
        assert [label for label, _ in lines] == [
            "2 players", f"3 players, the others on {lead:,}", "3 players, the others on 0"]


def test_two_players_agree_with_the_n_player_solver(curves):
    c, _ = curves
    prog = programme_of(solve_win_n(RULES, players=2, evaluate_ev=False))
    for lead, lines in c.lines.items():
        want = [win_pages.bank_from_points(prog.turn_start(0, (o, lead // 50)))
                for o in range(N)]
        got = lines[0][1]
        assert all((math.isnan(a) and math.isnan(b)) or a == b for a, b in zip(got, want)), lead


def test_three_players_bank_on_the_tables_leaves(curves):
    c, folder = curves
    from tutto_sim.tutto.win.table import load_win_table_n

    table = load_win_table_n(folder / default_win_file(RULES, 3)[0], RULES, 3)
    prog = programme_of(table)
    for lead, lines in c.lines.items():
        L = lead // 50
        for k, rest in ((1, L), (2, 0)):
            label, th = lines[k]
            assert label == f"3 players, the others on {rest * 50:,}"
            for o in range(N):
                ts = prog.turn_start(0, (o, L, rest))
                assert (math.isnan(th[o]) and ts.bank_from() >= ts.tcap) or \
                    th[o] == 50 * ts.bank_from()
                for t in range(N - o):  # banking below the target: seat 1 moves next
                    assert ts.bank[t] == pytest.approx(table.W[1, o + t, L, rest, 0], abs=1e-12)


def test_the_page_says_when_no_table_is_there(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    c = win_pages.size_curves(_two_player_table())
    assert c.found == () and all("is absent" in f for f in c.files)
    assert all(len(lines) == 1 for lines in c.lines.values())
    pages = win_pages.TuttoWinPages(RULES, RULES, "solved", [], [], c)
    sheet = win_pages.sizes_page(pages, 15)
    assert "No table of three or four players was found" in sheet.caption
    assert str(default_win_file(RULES, 3)[0]) in sheet.caption
    assert all(np.isfinite(lines[0][1]).any() for lines in c.lines.values())

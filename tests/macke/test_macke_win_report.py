"""The report pages on playing to win (Macke's and the shared drawing): the
threshold rule, the bank thresholds against the advice's chances, the
--win-target option."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import run_cli
from report_checks import WIN_TARGET, win_tables_here

from tutto_sim.core.win_report import threshold
from tutto_sim.macke.win import report as win_pages
from tutto_sim.macke.game import MackeDecision, MackeGameView, MackeKeep
from tutto_sim.macke.api import TurnView
from tutto_sim.macke.reference import state_codec
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.win.planner import WinPlanner


def test_threshold_rule():
    t = np.array([100, 150, 200, 250, 300])
    assert threshold(t, [False, False, True, True, True]) == 200
    assert threshold(t, [True, False, True, False, True]) == 300  # banks from 300 on only
    assert threshold(t, [True] * 5) == 100
    assert math.isnan(threshold(t, [True, True, True, True, False]))
    # unsorted, with one total twice (two ways to reach it, one of them throws on)
    assert threshold([300, 200, 200, 100], [True, True, False, False]) == 300


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    with win_tables_here(tmp_path_factory.mktemp("cwd"), ("macke",)):
        return (win_pages.compute(MackeRules(), WIN_TARGET),
                win_pages.win_table(MackeRules(), WIN_TARGET)[0])


def test_pages_read_the_table_and_its_thresholds_are_the_advice(pages):
    pages, table = pages
    assert pages.rules.target == WIN_TARGET and pages.source.startswith("read from results")
    assert pages.floor == -300 and pages.winmap.scores[0] == -300
    assert np.array_equal(pages.winmap.W, table.W)  # the floor is -300: every score shown
    planner = WinPlanner(table)
    codec, rules = state_codec(pages.rules), pages.rules
    aside = MackeKeep(("1", "1", "1", "1", "1"), 5, 0)
    state = codec.state(aside.units)
    for opp, (own, ths) in pages.clear.curves.items():
        for a, th in zip(own[::3], ths[::3]):
            view = MackeGameView("macke", rules, ("a", "b"), (int(a), opp), 0, 0, 0, None)

            def clear_at(total):  # (bank, throw all dice again) after a clear at total
                d = MackeDecision("bank-or-series", ("bank", "throw"), view, int(total), 0, aside,
                                  1, 0, False, 1, None, TurnView(0, state, 1, False), -1, ())
                return planner.option_chances(d)

            bank, again = clear_at(th)
            assert bank >= again, (a, opp, th)
            if th > pages.clear.lowest:
                bank, again = clear_at(th - 50)
                assert again > bank, (a, opp, th)
    assert pages.clear.ev == 1950 and pages.dice.ev == 900  # docs/macke-solver.md's cheat sheet


@pytest.mark.parametrize("args, words", [
    (("--game", "rutsmieter", "--win-target", "1000"), "no pages on playing to win"),
    (("--game", "macke", "--win-target", "75"), "multiple of 50"),
    (("--game", "macke", "--win-target", "0"), "--win-target"),
])
def test_win_target_bad_input(capsys, tmp_path, args, words):
    code, out, err = run_cli(capsys, "report", "--out", str(tmp_path / "r"), *args)
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "r").exists()

"""``play --game macke --win-table FILE``: the advice's chance to win after each
choice, checked against the table over every first throw of a turn."""

from __future__ import annotations

import functools
import io
import itertools

import pytest
from conftest import run_cli

from tutto_sim.dice.scoring import ScoringRules
from tutto_sim.dice.throws import build_tables
from tutto_sim.macke.game import MackeDecision, MackeGameView, MackeKeep, throw_keeps
from tutto_sim.macke.api import TurnView
from tutto_sim.macke.reference import state_codec
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.win.planner import WinPlanner
from tutto_sim.macke.win.solve_n import solve_macke_win
from tutto_sim.macke.win.table import MackeWinTable, write_win_table

RULES = MackeRules(target=200)


@functools.lru_cache(maxsize=None)
def _table() -> MackeWinTable:
    return MackeWinTable.from_solution(solve_macke_win(RULES, floor=-300, cap_units=40))


@pytest.mark.parametrize("scores, finisher", [((0, 0), None), ((100, 150), None),
                                              ((-200, 50), None), ((0, 250), 1)])
def test_first_throw_chances_average_to_the_table(scores, finisher):
    """Over all 6**5 first throws, the best keep's chance (a Macke: the opponent
    moves on the same scores, or in the last turn a loss) averages to W[a, b]
    (in the last turn: the table's L(d))."""
    table, planner = _table(), WinPlanner(_table())
    codec, ms = state_codec(RULES), build_tables(ScoringRules(6, RULES.six_of_kind))
    view = MackeGameView("macke", RULES, ("a", "b"), scores, 0, 0, 0, finisher)
    a, b = scores
    macke = 0.0 if finisher is not None else 1.0 - table.win(b, a)
    total = 0.0
    for faces in itertools.product(range(1, 7), repeat=5):
        keeps = throw_keeps(tuple(sorted(faces)), RULES)
        if not keeps:
            total += macke
            continue
        d = MackeDecision("keep", keeps, view, 0, 0, MackeKeep((), 0, 0), 2, 5, True, 1, faces,
                          TurnView(0, codec.state(()), 2, True), ms.multiset_of(faces),
                          tuple(codec.state(k.units) for k in keeps))
        total += max(planner.option_chances(d))
    want = table.last_turn[(b - a) // 50] if finisher is not None else table.win(a, b)
    assert total / 6**5 == pytest.approx(want, abs=1e-9)


def test_bank_chance_is_the_tables_leaf():
    """From 0 against 100: banking a clear of 350 reaches the target (the
    opponent's last turn needs more than 250); banking 100, below the minimum,
    leaves -100 (the opponent moves on 100 against -100)."""
    table, planner = _table(), WinPlanner(_table())
    codec = state_codec(RULES)
    view = MackeGameView("macke", RULES, ("a", "b"), (0, 100), 0, 0, 0, None)
    aside = MackeKeep(("1", "1", "5", "5", "5"), 5, 350)
    d = MackeDecision("bank-or-series", ("bank", "throw"), view, 350, 0, aside, 1, 0, False, 1,
                      None, TurnView(0, codec.state(aside.units), 1, False), -1, ())
    bank, go_on = planner.option_chances(d)
    assert bank == pytest.approx(1.0 - table.last_turn[250 // 50], abs=1e-15)
    assert 0.0 <= go_on <= 1.0
    aside = MackeKeep(("5", "5"), 2, 100)
    d = MackeDecision("bank-or-throw", ("bank", "throw"), view, 100, 0, aside, 2, 3, True, 1,
                      None, TurnView(0, codec.state(aside.units), 2, True), -1, ())
    bank, go_on = planner.option_chances(d)
    assert bank == pytest.approx(1.0 - table.win(100, -100), abs=1e-15)
    assert go_on > bank  # throwing on beats losing 100


def test_play_shows_the_chances(capsys, monkeypatch, tmp_path):
    path = tmp_path / "w.json"
    write_win_table(solve_macke_win(RULES, floor=-300, cap_units=40), path)
    monkeypatch.setattr("sys.stdin", io.StringIO("?\n" + "1\n" * 400))
    code, out, err = run_cli(capsys, "play", "--game", "macke", "--target", "200", "--bots",
                             "optimal", "--seed", "4", "--win-table", str(path))
    assert code == 0, err
    assert "your chance to win the game" in out and "<- best to win" in out and "%" in out
    for args, words in (((f"--win-table={path}", "--bots", "optimal,optimal"), "two players"),
                        ((f"--win-table={tmp_path / 'none.json'}",), "cannot read"),
                        ((f"--win-table={path}", "--target", "250"), "other rules: target=250")):
        extra = () if "--target" in args else ("--target", "200")
        code, out, err = run_cli(capsys, "play", "--game", "macke", *extra, *args)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err
    code, out, err = run_cli(capsys, "play", "--game", "rutsmieter", f"--win-table={path}")
    assert code == 2 and "Berliner Macke and Volle Lotte" in err, err

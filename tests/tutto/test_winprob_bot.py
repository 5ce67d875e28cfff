"""The winopt bot: legal games under every option, and its tournament win rate
against the EV-optimal bot equals the solver's win_vs_ev (cards drawn
independently, --deck iid)."""

from __future__ import annotations

import pytest

from tutto_sim.core.bots import BotSpecError
from tutto_sim.core.tournament import run_tournament
from tutto_sim.tutto.bots import parse_bot
from tutto_sim.tutto.game import GameConfig, play_game
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.winprob import solve_win


@pytest.mark.parametrize("options", [
    {}, {"game_end": "immediate"}, {"plusminus_deduction": "tutto", "plusminus_chain": "flat"},
    {"x2_scope": "card", "plusminus_chain": "bank"},
])
def test_winopt_plays_legal_games(options):
    rules = TuttoRules(target=200, deck="iid", **options)
    bots = [parse_bot("winopt", rules), parse_bot("optimal", rules)]
    for i in range(12):
        rec = play_game(bots if i % 2 else bots[::-1], GameConfig(rules), seed=3, index=i)
        assert rec.errors == []
        assert rec.end in ("round", "target", "cloverleaf")


def test_winopt_wins_as_the_solver_says():
    rules = TuttoRules(target=200, deck="iid")
    sol = solve_win(TuttoRules(target=200))
    bots = [parse_bot("winopt", rules), parse_bot("optimal", rules)]
    res = run_tournament(bots, 2, 4000, seed=5, config=GameConfig(rules), engine="reference",
                         catch_interrupt=False)
    win = next(b.win for b in res.bot_stats() if b.name == "winopt")
    assert abs(win.mean - sol.win_vs_ev) <= win.ci95


def test_winopt_file_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(BotSpecError, match="damaged or truncated"):
        parse_bot(f"winopt:{bad}", TuttoRules(target=200))

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
from tutto_sim.tutto.win.solve2 import solve_win

#: The winopt bots solve and save their win tables under results/ of the current folder.
pytestmark = pytest.mark.usefixtures("in_tmp_dir")


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


def test_tournament_shows_the_winopt_build_as_a_progress_phase(capsys, monkeypatch, tmp_path):
    """``tournament --bots winopt,optimal``: before the games, a phase of its own
    advances once per turn start (who is to throw, both scores below the
    target: 2 × 6 × 6 at target 300) while the kernel's values are built."""
    import contextlib

    from conftest import run_cli

    from tutto_sim.core import commands_games
    from tutto_sim.tutto.win import bot_kernel

    seen: list[list] = []  # [label, total, advanced]

    @contextlib.contextmanager
    def recording(enabled):
        def phase(label, total):
            seen.append([label, total, 0])
            row = seen[-1]
            return lambda n: row.__setitem__(2, row[2] + n)

        yield phase

    monkeypatch.setattr(commands_games, "progress_phases", recording)
    monkeypatch.setattr(bot_kernel, "_BUILT", {})  # built here, not found from another test
    from tutto_sim.tutto import bots
    from tutto_sim.tutto.win.solve2 import work_units

    monkeypatch.setattr(bots, "_solved", {})  # solved here, not found from another test
    monkeypatch.chdir(tmp_path)  # no saved win table: it is solved as a phase of its own
    code, out, err = run_cli(capsys, "tournament", "--game", "tutto", "--players", "2", "--bots",
                             "winopt,optimal", "--target", "300", "--deck", "iid", "--games",
                             "600", "--seed", "2", "--out-dir", str(tmp_path))
    assert code == 0, err
    turn_starts = 2 * (300 // 50) ** 2
    assert [row[0] for row in seen] == ["loading bots", "solving the win table",
                                        "preparing the win-to-play bot", "games"]
    # every pair of scores below the target (6 × 6) and each margin the second player can
    # trail by in the last turn of the round (1 to 6 + 40 units: the first player's turn is
    # followed 2,000 points past the target), in each of the 4 worlds, one sweep
    assert seen[1][1:] == [work_units(TuttoRules(target=300)), 4 * (6 * 6 + 46)]
    assert seen[2][1:] == [turn_starts, turn_starts]
    assert seen[3][1:] == [600, 600]
    assert "kernel engine" in out

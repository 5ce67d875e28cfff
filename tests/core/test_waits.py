"""No silent wait (issue 22 §2): progress bars with an ETA, one line before a
long run, Python games on every core with the same numbers, and ``winopt``
solving, showing and saving a missing win table."""

import json


from conftest import run_cli
from tutto_sim.core import cli

#: What differs between runs of the same seed on other worker counts (not figures).
RUN_KEYS = ("seconds", "threads", "processes", "csv")


def _json(capsys, *args):
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    d = json.loads(out)
    return d, err


def _figures(d):
    return {k: v for k, v in d.items() if k not in RUN_KEYS}


# -- the progress bar and the long-run line ---------------------------------------------------


def test_the_progress_bar_shows_elapsed_time_and_an_estimate_that_names_its_basis(monkeypatch):
    from rich.progress import TimeElapsedColumn

    seen = []

    class Recorder(cli.Progress):
        def __init__(self, *columns, **kw):
            seen.extend(columns)
            super().__init__(*columns, **kw)

    monkeypatch.setattr(cli, "Progress", Recorder)
    monkeypatch.setattr(cli.err, "_force_terminal", True)
    with cli.progress_phases(True) as phase:
        phase("games", 10)(10)
    kinds = [type(c) for c in seen]
    # the estimate is the phase's own words ("about 2 min more, at the rate of the last ..."),
    # not rich's guess from the first seconds
    assert TimeElapsedColumn in kinds
    assert any(getattr(c, "text_format", "") == "{task.fields[eta]}" for c in seen)


def test_duration_words():
    assert cli.duration_words(40.4) == "about 40 s" and cli.duration_words(0.15) == "about 1 s"
    assert cli.duration_words(7 * 60 + 10) == "about 7 min"
    assert cli.duration_words(3 * 3600 + 20 * 60) == "about 3 h 20 min"
    assert cli.duration_words(2 * 3600 + 10) == "about 2 h"


def _said(monkeypatch, label, total, blocks, **kw):
    """The lines :func:`cli.paced` says for ``blocks`` of (time in s, work) on a fake clock."""
    import time

    now = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])
    lines = []
    tick = cli.paced(label, total, say=lines.append, **kw)
    for t, n in blocks:
        now[0] = t
        tick(n)
    return lines


def test_a_long_phase_says_its_time_at_the_rate_after_the_first_block(monkeypatch):
    # the first block (compiling, starting) is no rate: 600 games in the next 5 s are
    # 120 games/s, and 99,300 left take 827.5 s; said once
    assert _said(monkeypatch, "games", 100_000, [(20.0, 100)]) == []
    assert _said(monkeypatch, "games", 100_000, [(20.0, 100), (25.0, 600), (30.0, 600)]) == [
        "games: about 14 min more, at the rate of the last 5.0 s (120 games/s); "
        "Ctrl-C stops and keeps the games finished"]


def test_a_short_phase_and_blocks_finished_side_by_side_say_nothing(monkeypatch):
    # a second worker's block 0.1 s after the first is no rate; 200 games in 1.1 s then
    # leave 9,700 for about 53 s; decided once, a later slow block changes nothing
    assert _said(monkeypatch, "games", 10_000,
                 [(2.0, 100), (2.1, 100), (3.1, 100), (500.0, 100)]) == []


def test_a_solve_says_ctrl_c_stops_it_and_says_how_far_it_got(monkeypatch):
    # 10 steps in the 90 s after the first: 80 left take 720 s; a solve keeps nothing
    assert _said(monkeypatch, "solving the win table", 100, [(1.0, 10), (91.0, 10)]) == [
        "solving the win table: about 12 min more, at the rate of the last 1 min 30 s; "
        "Ctrl-C stops it and says how far it got"]


def test_other_phases_say_that_ctrl_c_keeps_what_finished(monkeypatch):
    # 1 step per second after the first: 998 left take 16.6 min
    assert _said(monkeypatch, "search, generation 1 of 4", 1000, [(1.0, 1), (2.0, 1)]) == [
        "search, generation 1 of 4: about 17 min more, at the rate of the last 1.0 s; "
        "Ctrl-C stops and keeps what finished"]


# -- Python games in worker processes ---------------------------------------------------------


def test_reference_games_in_two_processes_give_the_figures_of_one(capsys, tmp_path):
    args = ("tournament", "--bots", "optimal,cautious", "--engine", "reference", "--games", "160",
            "--seed", "7", "--out-dir", str(tmp_path))
    one, _ = _json(capsys, *args, "--threads", "1")
    two, _ = _json(capsys, *args, "--threads", "2")
    assert one["processes"] == 1 and two["processes"] == 2
    assert _figures(two) == _figures(one) and one["games"] == 160
    code, out, _ = run_cli(capsys, *args, "--threads", "2")
    assert code == 0 and "(reference engine, 2 processes, " in out


def test_a_python_bot_from_a_file_and_a_peeking_bot_play_in_processes(capsys, tmp_path):
    from pathlib import Path

    bot = tmp_path / "my_bot.py"  # importable only by its path
    bot.write_text("class First:\n    name = 'first'\n\n"
                   "    def act(self, d):\n        return d.legal[0]\n")
    root = Path(__file__).resolve().parents[2]
    for args in (("--game", "rutsmieter", "--bots", f"py:{bot}:First,random"),
                 ("--game", "rutsmieter", "--bots",
                  f"py:{root / 'examples' / 'rutsmieter_bot.py'}:Careful,random"),
                 ("--game", "tutti", "--bots", "cheat,random")):
        run = ("tournament", *args, "--games", "120", "--seed", "3", "--out-dir", str(tmp_path))
        one, _ = _json(capsys, *run, "--threads", "1")
        two, _ = _json(capsys, *run, "--threads", "2")
        assert two["processes"] == 2 and two["engine"] == "reference"
        assert _figures(two) == _figures(one), args


# -- winopt without a saved win table ---------------------------------------------------------


def test_winopt_solves_shows_and_saves_its_table_and_the_next_run_reads_it(capsys, tmp_path,
                                                                           monkeypatch):
    from tutto_sim.tutto import bots
    from tutto_sim.tutto.rules import TuttoRules
    from tutto_sim.tutto.win.table import load_win_table

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(bots, "_solved", {})
    monkeypatch.setattr(bots, "_told", set())
    args = ("tournament", "--game", "tutto", "--bots", "winopt,optimal", "--target", "400",
            "--games", "200", "--seed", "2")
    first, err = _json(capsys, *args)
    from tutto_sim.tutto.win.table import default_win_file

    table = tmp_path / default_win_file(TuttoRules(target=400))[0]
    assert "solving the win table for target 400" in err and "saved for later runs" in err
    assert f"win table written to {table.relative_to(tmp_path)}" in err
    saved = table.read_bytes()
    second, err = _json(capsys, *args)
    assert "solving" not in err and f"read from {table.relative_to(tmp_path)}" in err
    assert table.read_bytes() == saved
    assert _figures(second) == _figures(first)
    # the table is the one solve --objective win writes (its W, last turn and figures)
    code, _, err = run_cli(capsys, "solve", "--objective", "win", "--target", "400",
                           "--out", str(tmp_path / "solved.json"), "--json")
    assert code == 0, err
    mine, theirs = load_win_table(table, TuttoRules(target=400)), load_win_table(tmp_path / "solved.json")
    assert (mine.W == theirs.W).all() and (mine.last_turn_table == theirs.last_turn_table).all()
    assert {k: v for k, v in mine.summary.items() if k != "seconds"} == \
        {k: v for k, v in theirs.summary.items() if k != "seconds"}


# -- the default number of games with a search bot --------------------------------------------


def test_search_bots_name_their_default_games_scaled_by_the_budget():
    from tutto_sim.core.bots import DEFAULT_GAMES, default_games, parse_bots
    from tutto_sim.tutti.rules import TuttiRules

    rules = TuttiRules()
    assert default_games(parse_bots("heuristic,random", rules)) == (DEFAULT_GAMES, False)
    assert default_games(parse_bots("pimc,heuristic", rules)) == (1500, True)
    # a quarter of pimc's 200 deals per decision: four times the games (1500 · 200 / 50)
    assert default_games(parse_bots("pimc:50,heuristic", rules)) == (6000, True)
    assert default_games(parse_bots("ismcts:600,pimc:50", rules)) == (500, True)  # 1000 · 300 / 600
    assert default_games(parse_bots("cheat,random", rules)) == (12000, True)


def test_a_tournament_with_a_python_bot_and_no_games_plays_the_default_and_says_so(
        capsys, tmp_path, monkeypatch):
    from pathlib import Path

    from tutto_sim.core import bots

    monkeypatch.setattr(bots, "PYTHON_BOT_GAMES", 60)  # the rule, on a small number
    careful = Path(__file__).resolve().parents[2] / "examples" / "rutsmieter_bot.py"
    args = ("tournament", "--game", "rutsmieter", "--bots", f"py:{careful}:Careful,tuned",
            "--seed", "3", "--out-dir", str(tmp_path))
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert "60 games (default for search bots; --games for more)" in out
    d, _ = _json(capsys, *args)
    assert d["games"] == 60 and d["games_default"] == "for search bots; --games for more"
    d, _ = _json(capsys, *args, "--games", "40")
    assert d["games"] == 40 and "games_default" not in d


def test_ctrl_c_stops_the_worker_processes_and_keeps_the_finished_games():
    import numba

    from tutto_sim.core import cluster
    from tutto_sim.core.bots import parse_bots
    from tutto_sim.core.tournament import REFERENCE_CHUNK, run_tournament
    from tutto_sim.tutto.game import GameConfig
    from tutto_sim.tutto.rules import TuttoRules

    rules = TuttoRules()
    bots = parse_bots("optimal,cautious", rules)
    calls = []

    def progress(n):
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt

    before = numba.get_num_threads()
    numba.set_num_threads(2)
    try:
        with cluster.processes():
            res = run_tournament(bots, 2, 100 * REFERENCE_CHUNK, 5, GameConfig(rules),
                                 engine="reference", progress=progress)
    finally:
        numba.set_num_threads(before)
    assert res.interrupted and res.processes == 2
    assert cluster._pool is None  # the workers were stopped, not left to finish the run
    # the finished chunks count, whole: 50 games each, every game in two seats
    assert res.games % REFERENCE_CHUNK == 0 and 3 * REFERENCE_CHUNK <= res.games < 100 * REFERENCE_CHUNK
    assert int(res.sums.bot[:, 0].sum()) == 2 * res.games


def test_the_expert_names_its_default_games_scaled_by_its_rollouts():
    from tutto_sim.core.bots import default_games, parse_bots
    from tutto_sim.rutsmieter.rules import RutsmieterRules

    rules = RutsmieterRules()
    assert default_games(parse_bots("expert,tuned", rules)) == (360, True)
    assert default_games(parse_bots("expert:100,tuned", rules)) == (3600, True)  # 360 · 1000 / 100
    assert default_games(parse_bots("tuned,first", rules)) == (100_000, False)

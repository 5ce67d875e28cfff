"""Long work that says what it did (issue 35): Ctrl-C in a win solve and in
``play`` (a real process and a real SIGINT), progress bars that never pass
100% or freeze, estimates that name their basis, a log line per phase."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest

from conftest import interrupt as _interrupt
from conftest import read_until as _read_until
from conftest import run_cli, stop_when
from conftest import SCRIPT, start_cli as _start
from tutto_sim.core import cli

ROOT = Path(__file__).resolve().parents[2]


# -- 1. Ctrl-C in a win solve -------------------------------------------------------------------


@pytest.mark.parametrize("args, first, keeps", [
    (["--game", "tutto", "--target", "1000"], "solving to win", False),
    # tables of three keep their finished steps (tests/tutto/test_win_checkpoint.py)
    (["--game", "tutto", "--target", "400", "--players", "3"], "solving to win", True),
    (["--game", "macke", "--target", "1000"], r"solving to win: sweep 1", False),
    (["--game", "macke", "--target", "500", "--players", "3"],
     r"the last turns of points players \(nachwerfen\)", False),
])
def test_ctrl_c_in_a_win_solve_says_what_was_done_and_that_nothing_was_written(tmp_path, args,
                                                                             first, keeps):
    out = tmp_path / "win.json"
    # a progress line at every step, so the test sees the solve under way (a log's own setting)
    proc = _start(["solve", "--objective", "win", *args, "--out", str(out)], tmp_path,
                  {"TUTTO_SIM_PROGRESS_EVERY": "0"})
    line = [stop_when(proc, rf"{first}[^\n]*: \d[\d,]* of [\d,]+ [^\n]* so far")[0]]
    # the phase under way: how far it got, of how much, and its time
    parts = line[0].removeprefix("tutto-sim: interrupted: ").split("; ")
    done = [m.groups() for m in (re.fullmatch(
        r"([a-z][^;:]*(?:: [^;:]*)?): ([\d,]+) of ([\d,]+) (score pairs|turn-start states|positions) "
        r"\((\d+)%\), [\d.]+ (?:s|min)(?: \d+ s)? \(.* in all\)", p) for p in parts) if m]
    assert len(done) == 1, line[0]
    label, k, total, _, share = done[-1]
    k, total = int(k.replace(",", "")), int(total.replace(",", ""))
    assert 0 <= k <= total and share == f"{k / total:.0%}"[:-1], line[0]
    assert label.startswith(("solving to win", "valuing the points player", "the last turns")), line[0]
    if keeps:
        kept = tmp_path / "win.checkpoint"
        assert re.search(r"\(([\d.]+ s|\d+ min \d+ s) in all\); the finished work is kept in "
                         + re.escape(str(kept)), line[0]), line[0]
        assert f"the win table is written only when complete (to {out})" in line[0]
        assert "run the same command with --resume to go on" in line[0]
        assert list(tmp_path.iterdir()) == [kept], "the checkpoint only, no partial table"
        return
    assert re.search(r"\(([\d.]+ s|\d+ min \d+ s) in all\); nothing written", line[0]), line[0]
    assert f"nothing written: the win table is written only when complete (to {out})" in line[0]
    assert "run the same command again" in line[0]
    assert list(tmp_path.iterdir()) == [], "nothing is kept, not even a partial file"


# -- 2. Ctrl-C and end of input in play ---------------------------------------------------------

PLAY = {
    # game: (args, what the score says at the first choice, derived from the rules)
    "tutto": (["--bots", "optimal"], None),
    "macke": (["--bots", "optimal"], None),
    "rutsmieter": ([], "in the goal lane: you 0 of 4, "),  # the first turn: every piece at home
    "tutti": (["--bots", "heuristic"], "hands won: you 0, player 1 (heuristic) 0; hand 1 so far: "),
}


def _banked(transcript: str) -> dict[str, int]:
    """Each seat's score from the dice games' transcript: the last "scores: you A, B b" line
    (the turn's header), else 0 for everybody."""
    found = re.findall(r"scores: (.*)", transcript)
    if not found:
        return {}
    return {name: int(v.replace(",", "")) for name, v in
            (part.rsplit(" ", 1) for part in found[-1].split(", "))}


@pytest.mark.parametrize("game", sorted(PLAY))
def test_ctrl_c_in_play_says_the_game_was_left_and_the_score(tmp_path, game):
    args, expected = PLAY[game]
    proc = _start(["play", "--game", game, "--seed", "3", *args], tmp_path,
                  stdin=subprocess.PIPE)
    transcript = _read_until(proc, proc.stdout, r"\(\? advice, q quit\): $")
    time.sleep(0.5)  # the prompt is waiting for a line
    code, out, err = _interrupt(proc)
    assert code == 130, err
    line = [x for x in err.splitlines() if x.startswith("tutto-sim: interrupted: ")]
    assert len(line) == 1, err
    assert "you left the game (Ctrl-C): game abandoned; " in line[0]
    if expected is not None:
        assert expected in line[0], line[0]
    else:  # the dice games: the points banked, as the transcript told them
        scores = _banked(transcript)
        you = scores.get("you", 0)
        assert f"points banked: seat 0 (you) {you:,}, seat 1 (optimal) " in line[0], line[0]
        other = int(re.search(r"seat 1 \(optimal\) ([\d,]+)", line[0])[1].replace(",", ""))
        assert other == scores.get("optimal", 0), (line[0], transcript[-400:])
        assert re.search(r"\(target [\d,]+\)$", line[0])


@pytest.mark.parametrize("game", ["tutto", "rutsmieter"])
def test_end_of_input_in_play_leaves_the_game_with_the_score_and_exit_0(tmp_path, game):
    args, _ = PLAY[game]
    proc = subprocess.run([SCRIPT, "play", "--game", game, "--seed", "3", *args], cwd=tmp_path,
                          input="", capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith("input ended: game abandoned; ")
    assert ("points banked: seat 0 (you) " if game == "tutto" else "in the goal lane: you ") in last


# -- 3. bars, estimates and the log -------------------------------------------------------------


class _Recorder:
    """A phase recorder as ``progress_phases`` gives: [label, total, advanced, most ever
    shown past the total] per phase; ``more`` grows a phase's total as the core's does."""

    def __init__(self):
        self.rows: list[list] = []

    def __call__(self, label, total, unit=None, keeps=None):
        row = [label, total, 0]
        self.rows.append(row)

        class Step:
            def __call__(self, n):
                row[2] += n

            def more(self, k):
                row[1] += k

        return Step()


def _check_rows(rows):
    assert rows
    for label, total, advanced in rows:
        assert advanced == total, (label, total, advanced)


def test_macke_win_solve_advances_every_phase_exactly_to_its_total():
    from tutto_sim.macke.win import solve_n
    from tutto_sim.macke.rules import MackeRules

    two = _Recorder()
    sol = solve_n.solve_macke_win(MackeRules(target=200), floor=-300, cap_units=40, phase=two)
    _check_rows(two.rows)
    sweeps = [r for r in two.rows if r[0].startswith("solving to win: sweep")]
    assert len(sweeps) == sol.iterations  # one phase per sweep, as many as it took


def test_macke_three_player_win_solve_advances_every_phase_exactly_to_its_total():
    from tutto_sim.macke.win import solve_n
    from tutto_sim.macke.rules import MackeRules

    three = _Recorder()
    sol = solve_n.solve_macke_win_n(MackeRules(target=100), 3, floor=-100, cap_units=20,
                                    phase=three)
    _check_rows(three.rows)
    labels = [r[0] for r in three.rows]
    assert labels[:2] == ["the last turns of points players (nachwerfen)",
                          "the last turns, playing to win (nachwerfen)"]
    assert len([x for x in labels if "sweep" in x]) == sol.iterations
    # the last turns are solved in many calls, not one frozen call per stage
    n = 100 // 50 + 100 // 50  # units from the floor to the target
    assert three.rows[0][1] > 4 * n


@pytest.mark.parametrize("players, rules", [
    (2, dict(target=300)),
    (2, dict(target=300, plusminus_deduction="tutto")),  # more than one sweep: the total grows
    (3, dict(target=300)),
    (3, dict(target=300, plusminus_deduction="tutto")),  # links to lower sums: sweeps again
])
def test_tutto_win_solves_advance_every_phase_exactly_to_its_total(players, rules):
    from tutto_sim.tutto.rules import TuttoRules
    from tutto_sim.tutto.win.solve2 import solve_win
    from tutto_sim.tutto.win.solve_n import solve_win_n

    rec = _Recorder()
    r = TuttoRules(**rules)
    sol = solve_win(r, phase=rec) if players == 2 else solve_win_n(r, players, phase=rec)
    _check_rows(rec.rows)
    labels = [x[0] for x in rec.rows]
    n, N = r.target // 50, players
    # the end phase (cheap turns) and the levels, each a phase (a two-player table too: it is
    # the N-player solver's at N = 2): the win table and the tables of one player to win among
    # points players in each seat (N beside): their end of the round at once (one programme
    # for two tables where a seat decides in both), then their levels at once (each seat's
    # turns of the win table's Newton runs valued in that seat's table too); then the points
    # players'
    beside = f"solving to win, and one to win among points players ({N} tables beside)"
    assert labels == [
        "preparing the tables of a turn",
        f"{beside}: the last turns after the target",
        f"{beside}: levels of equal score sum",
        "valuing the points players: the last turns after the target",
        "valuing the points players: levels of equal score sum"]
    assert rec.rows[1][1] == (N + 1) * sol.extra["end_states"]  # every end state once a table
    # turn-start scores: n^N a sweep a table; the N beside may go on alone for a sweep or two
    # after the win table has converged
    more = rec.rows[2][1] - (N + 1) * n ** N * sol.sweeps
    assert more >= 0 and more % (N * n ** N) == 0
    assert sol.sweeps > 1 if rules != dict(target=300) else sol.sweeps == 1


def _clock(monkeypatch):
    import time as t

    now = [0.0]
    monkeypatch.setattr(t, "perf_counter", lambda: now[0])
    return now


def test_a_bar_never_passes_its_total_and_the_estimate_names_its_basis(monkeypatch):
    now = _clock(monkeypatch)
    lines = []
    monkeypatch.setattr(cli.Phases, "say", lambda self, line: lines.append(line))
    phases = cli.Phases()
    step = phases("solving to win", 10, "score pairs")
    for t in (5.0, 6.0, 7.0, 8.0):  # the first block (compiling) is no rate; then 1 per second
        now[0] = t
        step(1)
    # 3 pairs in the 3 s after the first block; 6 left at 1 per second
    assert step.eta() == "about 6 s more, at the rate of the last 3.0 s (1 score pairs/s)"
    step(7)  # more than announced: the total grows, the count never passes it
    assert (step.done, step.total) == (11, 11) and step.eta() == ""
    assert "solving to win: 11 of 11 score pairs (100%), " in phases.so_far()


def test_the_rate_is_the_recent_one_not_the_first_blocks(monkeypatch):
    now = _clock(monkeypatch)
    phases = cli.Phases()
    monkeypatch.setattr(cli.Phases, "say", lambda self, line: None)
    step = phases("games", 100_000)
    # slow at first (1 game/s for 100 s), then 100 games/s: the estimate follows the last
    # minute (from the block before it: 61 s), 89,900 games left at 100 games/s
    for t in range(1, 101):
        now[0] = float(t)
        step(1)
    for t in range(101, 201):
        now[0] = float(t)
        step(100)
    assert step.eta() == "about 15 min more, at the rate of the last 1 min 1 s (100 games/s)"
    step(90_000)
    assert step.total == 100_100 and step.done == 100_100  # never shown as 100,100/100,000


def test_a_long_phase_says_its_rest_with_the_basis(monkeypatch):
    now = _clock(monkeypatch)
    lines = []
    tick = cli.paced("games", 100_000, say=lines.append)
    for t, n in [(20.0, 100), (25.0, 600), (30.0, 600)]:
        now[0] = t
        tick(n)
    # said once the rate is known: 600 games in the 5 s after the first block, 120 games/s;
    # 99,300 left take 827.5 s
    assert lines == ["games: about 14 min more, at the rate of the last 5.0 s (120 games/s); "
                     "Ctrl-C stops and keeps the games finished"]


def test_a_first_block_alone_is_no_rate_compiling_is_in_it(monkeypatch):
    # a first block of 90 s (numba compiling) set a rate of days before; now it waits
    now = _clock(monkeypatch)
    lines = []
    tick = cli.paced("solving to win", 1600, say=lines.append)
    now[0] = 90.0
    tick(1)
    assert lines == []
    now[0] = 91.0
    tick(100)  # 100 in 1 s: 1,499 left take 15 s
    assert lines == []


def test_without_a_terminal_every_phase_writes_a_line_with_its_time(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("TUTTO_SIM_PROGRESS_EVERY", "0")
    code, _, err = run_cli(capsys, "solve", "--objective", "win", "--target", "300",
                           "--out", str(tmp_path / "w.json"))
    assert code == 0, err
    done = re.findall(r"^(.*): done in ([\d.]+ s|\d+ min \d+ s)$", err, re.M)
    beside = "solving to win, and one to win among points players (2 tables beside)"
    assert [d[0] for d in done] == [
        "preparing the tables of a turn", f"{beside}: the last turns after the target",
        f"{beside}: levels of equal score sum",
        "valuing the points players: the last turns after the target",
        "valuing the points players: levels of equal score sum"], err


def test_a_log_gets_at_most_a_line_every_ten_seconds_by_default(monkeypatch):
    now = _clock(monkeypatch)
    lines = []
    monkeypatch.delenv("TUTTO_SIM_PROGRESS_EVERY", raising=False)
    monkeypatch.setattr(cli.err, "print", lambda line, **kw: lines.append((now[0], line)))
    phases = cli.Phases()
    for k in range(40):  # 40 phases of 1 s each: a line when 10 s have passed since the last
        step = phases(f"part {k}", 1)
        now[0] += 1.0
        step(1)
    phases.end()
    times = [t for t, _ in lines]
    assert len(lines) == 4 and all(b - a >= 10 for a, b in zip(times, times[1:])), lines
    assert all(re.fullmatch(r"part \d+: done in 1\.0 s", line) for _, line in lines)


# -- 4. one exponent for the time of a win solve ------------------------------------------------


def test_the_win_solve_message_and_the_readme_name_the_same_growth(capsys):
    code, _, err = run_cli(capsys, "solve", "--objective", "win", "--target", "1000000")
    assert code == 2
    said = re.search(r"time grows about as the target to the power ([\d.]+)", err)
    assert said, err
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = (ROOT / "docs" / "win.md").read_text(encoding="utf-8")
    for text in (readme, docs):
        found = re.findall(r"grows about\s+as\s+the\s+target\s+to\s+the\s+power\s+([\d.]+)", text)
        assert found and set(found) == {said[1]}, found

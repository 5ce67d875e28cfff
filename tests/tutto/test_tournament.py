"""Tournaments: seat rotation, win rates and their CIs, the command line."""

import json
import time

import numpy as np
import pytest
from conftest import result_file
from conftest import run_cli as run

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import make_lineups, run_tournament, seat_bots
from tutto_sim.tutto.bots import VALID_BOTS
from tutto_sim.tutto.game import GameConfig
from tutto_sim.tutto.rules import TuttoRules


def test_lineups_and_rotation():
    assert make_lineups(3, 3).tolist() == [[0, 1, 2]]
    assert make_lineups(2, 3).tolist() == [[0, 1, 0]]
    assert make_lineups(4, 2).tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    lineups = make_lineups(3, 3)
    seats = seat_bots(0, 6, lineups)
    assert seats.tolist() == [[0, 1, 2], [1, 2, 0], [2, 0, 1]] * 2  # seat j: bot (j + i) mod 3
    # over L * n games every bot of every lineup holds every seat once
    lineups = make_lineups(4, 3)
    seats = seat_bots(12, len(lineups) * 3, lineups)
    for j in range(3):
        assert np.bincount(seats[:, j], minlength=4).tolist() == [3, 3, 3, 3]


def test_identical_bots_share_the_wins_evenly():
    # cautious is threshold:300: the same decisions, so each wins half within the CI
    res = run_tournament(parse_bots("cautious,threshold:300", TuttoRules()), 2, 20_000, 3, GameConfig())
    a, b = res.bot_stats()
    assert abs(a.win.mean - 0.5) < a.win.ci95 and abs(b.win.mean - 0.5) < b.win.ci95
    assert a.win.mean + b.win.mean == pytest.approx(1.0)


def test_one_bot_in_every_seat_wins_exactly_its_share():
    res = run_tournament(parse_bots("optimal", TuttoRules()), 3, 3000, 2, GameConfig())
    (b,) = res.bot_stats()
    assert b.games == 9000 and b.win.mean == pytest.approx(1 / 3)
    assert sum(e.mean for e in res.seat_rates()) == pytest.approx(1.0)


def test_pairwise_table_is_consistent():
    res = run_tournament(parse_bots("optimal,cautious,reckless", TuttoRules()), 2, 6000, 4, GameConfig())
    pw = res.pairwise()
    for a in pw:
        for b, e in pw[a].items():
            assert e.n == 2000
            assert e.mean + pw[b][a].mean == pytest.approx(1.0)
    assert pw["optimal"]["reckless"].mean > 0.6


def test_the_tournament_of_the_issue(capsys, tmp_path):
    t0 = time.perf_counter()
    code, out, err = run(capsys, "tournament", "--game", "tutto", "--bots", "optimal,cautious,threshold:300",
                         "--players", "3", "--games", "100000", "--seed", "1", "--json",
                         "--out-dir", str(tmp_path))
    seconds = time.perf_counter() - t0
    assert code == 0, err
    d = json.loads(out)
    assert set(d["bots"]) == {"optimal", "cautious", "threshold:300"}
    for b in d["bots"].values():
        assert {"win_rate", "ci95", "games"} <= set(b) and b["games"] == 100_000
    opt, cau = d["bots"]["optimal"], d["bots"]["cautious"]
    assert opt["win_rate"] - opt["ci95"] > cau["win_rate"] + cau["ci95"]  # CIs do not overlap
    assert d["ranking"][0] == "optimal"
    assert len(d["seat_win_rates"]) == 3 and sum(d["seat_win_rates"]) == pytest.approx(1.0)
    assert d["mean_turns"] > 30 and d["engine"] == "kernel"
    assert d["csv"] == str(result_file(tmp_path, "tournament-tutto-3p-seed1"))
    assert seconds < 60


def test_same_seed_same_table_on_1_and_2_threads(capsys, tmp_path):
    args = ("tournament", "--bots", "optimal,cautious,reckless", "--players", "2", "--games", "30000",
            "--seed", "8", "--json", "--out-dir", str(tmp_path))
    outs = []
    for threads in ("1", "2"):
        code, out, err = run(capsys, *args, "--threads", threads)
        assert code == 0, err
        d = json.loads(out)
        for volatile in ("seconds", "threads"):
            d.pop(volatile)
        outs.append(d)
    assert outs[0] == outs[1]
    assert "pairwise" in outs[0]


def test_text_output(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--bots", "optimal,cautious,reckless", "--games", "3000",
                         "--out-dir", str(tmp_path))
    assert code == 0, err
    for needle in ("win rate", "95% CI", "by seat", "pairwise", "first-player advantage",
                   "mean game length", "CSV"):
        assert needle in out


@pytest.mark.parametrize("spec", ["threshold:abc", "wizard", "threshold:320",
                                  "threshold:300:300:nope", "optimal,,cautious", "py:nomodule:Bot"])
def test_bad_bot_spec_is_one_line_naming_the_valid_bots(capsys, tmp_path, spec):
    code, out, err = run(capsys, "tournament", "--bots", spec, "--games", "10", "--out-dir", str(tmp_path))
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert VALID_BOTS in err and "Traceback" not in err + out


def test_a_missing_policy_file_is_one_line_about_the_file(capsys, tmp_path):
    """The spec is right, the file is not there: the line says so, without the
    list of valid bots (issue 35)."""
    missing = tmp_path / "missing.json"
    code, out, err = run(capsys, "tournament", "--bots", f"table:{missing}", "--games", "10",
                         "--out-dir", str(tmp_path))
    assert code == 2 and out == ""
    assert err == (f"tutto-sim: error: bot 'table:{missing}': cannot read policy file {missing}: "
                   "No such file or directory\n")


@pytest.mark.parametrize("args, needle", [
    (("--players", "9"), "--players"),
    (("--games", "0"), "--games"),
    (("--game", "pig"), "--game must be one of tutto, macke, volle-lotte, rutsmieter"),
    (("--engine", "gpu"), "--engine"),
    (("--bots", "random", "--engine", "kernel"), "reference"),
    (("--target", "6001"), "--target"),
])
def test_bad_options(capsys, tmp_path, args, needle):
    code, out, err = run(capsys, "tournament", *args, "--out-dir", str(tmp_path))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


BAD_BOT = '''
class Bot:
    name = "liar"

    def act(self, decision):
        return "bank" if decision.kind == "keep" else decision.legal[0]
'''


def test_a_bot_with_illegal_actions_is_reported_and_the_tournament_goes_on(capsys, tmp_path):
    path = tmp_path / "liar.py"
    path.write_text(BAD_BOT)
    code, out, err = run(capsys, "tournament", "--bots", f"py:{path}:Bot,cautious,random", "--players", "3",
                         "--games", "30", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["engine"] == "reference" and d["games"] == 30
    assert d["illegal_actions"]["liar"]["count"] > 0
    assert d["bots"]["liar"]["win_rate"] < d["bots"]["cautious"]["win_rate"]
    assert "warning: bot liar returned an illegal action" in err
    assert "counted as a bust" in err


def test_reference_and_kernel_tournaments_agree(capsys, tmp_path):
    outs = []
    for engine in ("kernel", "reference"):
        code, out, err = run(capsys, "tournament", "--bots", "optimal,cautious", "--players", "3",
                             "--games", "120", "--seed", "6", "--engine", engine, "--json",
                             "--out-dir", str(tmp_path))
        assert code == 0, err
        d = json.loads(out)
        assert d["engine"] == engine
        outs.append({k: d[k] for k in ("bots", "seat_win_rates", "mean_turns", "game_ends")})
    assert outs[0] == outs[1]
    assert outs[0]["bots"]["optimal"]["games"] == 240  # lineup optimal, cautious, optimal

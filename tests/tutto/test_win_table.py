"""The win table's policy file and ``solve --objective win`` on the command line."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest
from conftest import run_cli

from tutto_sim.core.policyfile import PolicyFileError
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.planner import turn_start
from tutto_sim.tutto.win.solve2 import solve_win
from tutto_sim.tutto.win.table import load_win_table, write_win_table

RULES = TuttoRules(target=200)


@functools.lru_cache(maxsize=None)
def _sol():
    return solve_win(RULES, evaluate_ev=False)


@pytest.fixture
def table_file(tmp_path):
    path = tmp_path / "win.json"
    write_win_table(_sol(), path)
    return path


def test_round_trip_and_turn_values(table_file):
    t = load_win_table(table_file, RULES)
    sol = _sol()
    assert np.array_equal(t.W, sol.W)
    # one turn's programme from the file's table gives back the table's value
    for seat, own, other in ((0, 0, 0), (1, 2, 3), (0, 3, 1)):
        assert t.turn_start(seat, own, other).value == pytest.approx(sol.W[seat, own, other],
                                                                     abs=1e-12)


def test_refuses_damage_other_rules_and_other_kinds(table_file, tmp_path):
    text = table_file.read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    with pytest.raises(PolicyFileError, match="damaged or truncated"):
        load_win_table(cut)
    d = json.loads(text)
    d["W"][0][0][0] = 0.25
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(d))
    with pytest.raises(PolicyFileError, match="content hash"):
        load_win_table(changed)
    d = json.loads(text)
    d["win_table_version"] = 2
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(d))
    with pytest.raises(PolicyFileError, match="win_table_version"):
        load_win_table(newer)
    with pytest.raises(PolicyFileError, match="other rules: target=300"):
        load_win_table(table_file, TuttoRules(target=300))
    d = json.loads(text)
    d["kind"] = "turn-table"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(d))
    with pytest.raises(PolicyFileError, match="not a win table"):
        load_win_table(other)


def test_turn_start_checks_scores():
    sol = _sol()
    with pytest.raises(ValueError, match=r"scores must be 0\.\.3"):
        turn_start(RULES, sol.W, sol.last_turn_table, sol.margin_cap, 0, 4, 0)


def test_cli_json_and_file(capsys, tmp_path):
    out = tmp_path / "w.json"
    code, stdout, err = run_cli(capsys, "solve", "--objective", "win", "--game", "tutto",
                                "--target", "200", "--json", "--out", str(out))
    assert code == 0, err
    d = json.loads(stdout)
    for key in ("p_first_wins", "p_first_wins_ev", "win_vs_ev", "states", "seconds",
                "residual", "target", "game_end"):
        assert key in d
    assert d["p_first_wins"] == pytest.approx(_sol().p_first_wins, abs=1e-15)
    assert load_win_table(out, RULES).W.shape == (2, 4, 4)


def test_cli_text_and_bad_input(capsys, tmp_path):
    code, stdout, err = run_cli(capsys, "solve", "--objective", "win", "--target", "200",
                                "--out", str(tmp_path / "w.json"))
    assert code == 0, err
    assert "first player wins" in stdout and "banks from" in stdout
    code, stdout, err = run_cli(capsys, "solve", "--objective", "win", "--target", "50000")
    assert code == 2
    assert "up to 20,000" in err and len(err.strip().splitlines()) == 1

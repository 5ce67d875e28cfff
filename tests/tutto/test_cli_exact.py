"""`solve`, `optimize --method exact`, `export-policy` and `validate` on the command line."""

import json
import re

import pytest
from conftest import run_cli

from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.solver import solve_tutto


def run(capsys, *args):
    return run_cli(capsys, *args)


@pytest.fixture(scope="module")
def sol():
    return solve_tutto()


def test_solve_json(capsys, sol):
    code, out, err = run(capsys, "solve", "--json")
    assert code == 0, err
    d = json.loads(out)
    for key in ("turn_ev", "p_tutto", "p_street", "draw_below", "cards"):
        assert key in d
    assert set(d["cards"]) == {c.cli_name for c in Card}
    assert d["cards"]["bonus400"]["ev"] == pytest.approx(float(sol.card_ev[Card.BONUS400]))
    assert sorted(d["cards"]["x2"]["bank_thresholds"]) == ["1", "2", "3", "4", "5"]
    assert "bank_thresholds" not in d["cards"]["street"]
    assert d["turn_ev"] == pytest.approx(sol.turn_ev)
    assert d["draw_below"] == sol.draw_below


def test_solve_table(capsys):
    code, out, _ = run(capsys, "solve", "--x2-scope", "card")
    assert code == 0 and "whole turn" in out and "Bonus 400" in out


def test_optimize_exact(capsys, sol):
    code, out, err = run(capsys, "optimize", "--card", "bonus300", "--method", "exact", "--json",
                         "--turns", "20000", "--search-turns", "4000")
    assert code == 0, err
    d = json.loads(out)
    assert d["method"] == "exact" and d["ev"] == pytest.approx(float(sol.card_ev[Card.BONUS300]))
    assert d["gap_to_threshold_policy"] >= 0
    # the first throw 1-2-3-4-5-6: set aside the 1 alone, not 1 and 5
    first = {a["throw"]: a for a in d["keep_advice"]["6"]["throws"]}
    assert first["123456"]["best"]["dice"] == "1"
    assert first["123456"]["every_scoring_die"]["dice"] == "15"


def test_optimize_monte_carlo_shows_exact_optimum(capsys, tmp_path, sol):
    code, out, _ = run(capsys, "optimize", "--card", "x2", "--json", "--turns", "20000",
                       "--search-turns", "4000", "--out-dir", str(tmp_path))
    d = json.loads(out)
    assert code == 0 and d["exact_optimum"]["ev"] == pytest.approx(float(sol.card_ev[Card.X2]))
    assert d["policy_found_exact_ev"] <= d["exact_optimum"]["ev"] + 1e-9


def test_export_and_validate(capsys, tmp_path):
    path = tmp_path / "p.json"
    code, out, err = run(capsys, "export-policy", "--out", str(path))
    assert code == 0 and path.exists(), err
    code, out, err = run(capsys, "validate", "--policy", str(path), "--turns", "100000", "--json")
    d = json.loads(out)
    assert code == 0 and d["ok"] and len(d["checks"]) == 15


@pytest.mark.parametrize("damage, needle", [
    (lambda text: text[: len(text) // 2], "damaged or truncated"),
    (lambda text: text.replace('"version":1', '"version":7', 1), "version 7"),
])
def test_damaged_policy_file_exit_2(capsys, tmp_path, damage, needle):
    path = tmp_path / "p.json"
    assert run(capsys, "export-policy", "--out", str(path))[0] == 0
    path.write_text(damage(path.read_text()))
    code, out, err = run(capsys, "validate", "--policy", str(path), "--turns", "1000")
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_policy_for_other_rules_exit_2(capsys, tmp_path):
    path = tmp_path / "p.json"
    assert run(capsys, "export-policy", "--out", str(path))[0] == 0
    code, _, err = run(capsys, "validate", "--policy", str(path), "--turns", "1000",
                       "--plusminus-chain", "flat")
    assert code == 2 and "other rules" in err and len(err.strip().splitlines()) == 1


def test_export_bad_format_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "export-policy", "--out", str(tmp_path / "x"), "--format", "xml")
    assert code == 2 and "json, csv, parquet" in err


def test_optimize_exact_says_the_dice_to_set_aside_in_words(capsys, tmp_path):
    """The notable throws name the dice as players do ("a 1 and a 5 (150)"),
    not as the table's key ("15 (150)")."""
    code, out, err = run(capsys, "optimize", "--card", "bonus300", "--method", "exact",
                         "--turns", "2000", "--search-turns", "400", "--out-dir", str(tmp_path))
    assert code == 0, err
    rows = {cells[0]: cells[1:] for line in out.splitlines()
            if len(cells := [c.strip() for c in line.strip("│ ").split("│")]) == 6}
    # 1-2-3-4-5-6 from six dice: the 1 alone (100) rather than the 1 and the 5 (150)
    assert rows["1-2-3-4-5-6"][1] == "a 1 (100)" and rows["1-2-3-4-5-6"][3] == "a 1 and a 5 (150)"
    assert rows["1-1-2-3-4-5"][3] == "two 1s and a 5 (250)"
    assert not re.search(r"│ \d+ \(\d+\)", out), out


@pytest.mark.parametrize("faces,words", [
    ("1", "a 1"), ("5", "a 5"), ("15", "a 1 and a 5"), ("115", "two 1s and a 5"),
    ("222", "three 2s"), ("1155", "two 1s and two 5s"), ("155", "a 1 and two 5s"),
    ("111111", "six 1s"), ("123", "a 1, a 2 and a 3"),
])
def test_faces_in_words(faces, words):
    from tutto_sim.tutto.advice import faces_words

    assert faces_words(faces) == words

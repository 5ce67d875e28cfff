"""``tutto-sim solve --game rutsmieter --solo`` / ``--duel``: the exact solo
expectations and two-player chances, and one-line refusals of what makes no
sense."""

import json

import pytest
from conftest import run_cli as run


def _solve_json(capsys, *args):
    code, out, err = run(capsys, "solve", "--game", "rutsmieter", "--json", *args)
    assert code == 0, err
    return json.loads(out)


def test_solve_solo_json(capsys):
    d = _solve_json(capsys, "--solo")
    # docs/rutsmieter.md, "The solo check"
    assert round(d["expected_throws_first"], 5) == 63.98704
    assert round(d["expected_throws_optimal"], 5) == 63.96333
    assert d["players"] == 1 and d["pieces"] == 4
    assert d["rules"] == {"must_leave_house": True, "goal_no_jump": False}


def test_solve_solo_without_the_obligation(capsys):
    d = _solve_json(capsys, "--solo", "--must-leave-house", "off")
    assert round(d["expected_throws_first"], 2) == 74.27
    assert round(d["expected_throws_optimal"], 5) == 63.96333


def test_solve_solo_text(capsys):
    code, out, err = run(capsys, "solve", "--game", "rutsmieter", "--solo")
    assert code == 0, err
    assert "63.98704" in out and "63.96333" in out


def test_solve_duel_json(capsys):
    d = _solve_json(capsys, "--duel")
    # docs/rutsmieter.md, "Exact: two players, one piece each"
    assert round(d["p_first_wins"], 6) == 0.537962
    assert round(d["expected_throws"], 5) == 33.28023
    assert d["p_first_wins"] + d["p_second_wins"] == pytest.approx(1, abs=1e-10)
    assert d["states"] == 2 * ((41 * 41 - 40 - 41) + 41 * 3)  # counted by hand in test_rutsmieter_duel.py
    assert d["residual"] <= d["tolerance"] == 1e-12 and d["iterations"] > 1
    assert d["direct_max_difference"] < 1e-10 and d["seconds"] > 0
    assert d["players"] == 2 and d["pieces"] == 1
    assert d["rules"] == {"must_leave_house": True, "must_capture": True,
                          "goal_no_jump": False, "play_to_third": False}


def test_solve_duel_text(capsys):
    code, out, err = run(capsys, "solve", "--game", "rutsmieter", "--duel")
    assert code == 0, err
    assert "first player wins:    53.796219%" in out
    assert "second player wins:   46.203781%" in out
    assert "33.28023" in out


@pytest.mark.parametrize("args,message", [
    (["--game", "rutsmieter"], ("Rutsmieter is solved exactly for one player alone (--solo) or "
                                "for two players with one piece each (--duel): add one of them")),
    (["--game", "rutsmieter", "--solo", "--cap", "100"], "--cap does not apply to --game rutsmieter"),
    (["--game", "rutsmieter", "--solo", "--must-capture", "off"],
     "--must-capture plays no part in the solo game (nobody to capture); leave it out"),
    (["--game", "rutsmieter", "--solo", "--play-to-third", "on"],
     "--play-to-third plays no part in the solo game (one player); leave it out"),
    (["--game", "tutto", "--solo"], "--solo does not apply to --game tutto"),
    (["--game", "volle-lotte", "--solo"], "--solo does not apply to --game volle-lotte"),
    (["--game", "tutto", "--duel"], "--duel does not apply to --game tutto"),
    (["--game", "macke", "--duel", "--json"], "--duel does not apply to --game macke"),
    (["--game", "rutsmieter", "--duel", "--solo"],
     "--solo and --duel are two different games: give one of them"),
    (["--game", "rutsmieter", "--duel", "--cap", "100"], "--cap does not apply to --game rutsmieter"),
    (["--game", "rutsmieter", "--duel", "--must-leave-house", "off"],
     ("--must-leave-house plays no part with one piece each (a throw never leaves a choice); "
      "leave it out")),
    (["--game", "rutsmieter", "--duel", "--must-capture", "off"],
     ("--must-capture plays no part with one piece each (a throw never leaves a choice); "
      "leave it out")),
    (["--game", "rutsmieter", "--duel", "--goal-no-jump", "on"],
     "--goal-no-jump plays no part with one piece each (no own piece to jump over); leave it out"),
    (["--game", "rutsmieter", "--duel", "--play-to-third", "on"],
     ("--play-to-third plays no part with one piece each (two players: the first winner ends "
      "the game); leave it out")),
])
def test_solve_refusals(capsys, args, message):
    code, out, err = run(capsys, "solve", *args)
    assert code == 2 and out == ""
    assert err.strip() == f"tutto-sim: error: {message}"

"""``tutto-sim solve --game rutsmieter --solo``: the exact solo expectations,
and one-line refusals of what makes no sense."""

import json

import pytest
from conftest import run_cli as run


def test_solve_solo_json(capsys):
    code, out, err = run(capsys, "solve", "--game", "rutsmieter", "--solo", "--json")
    assert code == 0, err
    d = json.loads(out)
    # docs/rutsmieter.md, "The solo check"
    assert round(d["expected_throws_first"], 5) == 63.98704
    assert round(d["expected_throws_optimal"], 5) == 63.96333
    assert d["players"] == 1 and d["pieces"] == 4
    assert d["rules"] == {"must_leave_house": True, "goal_no_jump": False}


def test_solve_solo_without_the_obligation(capsys):
    code, out, err = run(capsys, "solve", "--game", "rutsmieter", "--solo", "--json",
                         "--must-leave-house", "off")
    assert code == 0, err
    d = json.loads(out)
    assert round(d["expected_throws_first"], 2) == 74.27
    assert round(d["expected_throws_optimal"], 5) == 63.96333


def test_solve_solo_text(capsys):
    code, out, err = run(capsys, "solve", "--game", "rutsmieter", "--solo")
    assert code == 0, err
    assert "63.98704" in out and "63.96333" in out


@pytest.mark.parametrize("args,message", [
    (["--game", "rutsmieter"], "Rutsmieter is solved exactly for one player alone: add --solo"),
    (["--game", "rutsmieter", "--solo", "--cap", "100"], "--cap does not apply to --game rutsmieter"),
    (["--game", "rutsmieter", "--solo", "--must-capture", "off"],
     "--must-capture plays no part in the solo game (nobody to capture); leave it out"),
    (["--game", "rutsmieter", "--solo", "--play-to-third", "on"],
     "--play-to-third plays no part in the solo game (one player); leave it out"),
    (["--game", "tutto", "--solo"], "--solo does not apply to --game tutto"),
    (["--game", "volle-lotte", "--solo"], "--solo does not apply to --game volle-lotte"),
])
def test_solve_refusals(capsys, args, message):
    code, out, err = run(capsys, "solve", *args)
    assert code == 2 and out == ""
    assert err.strip() == f"tutto-sim: error: {message}"

"""Words for players (issue 35): what the commands print names no code
identifier, a damaged policy file is one line about the file, a blank name is
refused, a game without ``export-policy`` says where its policy file comes
from, and the tournament says in words how the seats rotate."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import one_line, run_cli

from tutto_sim.core.tournament import make_lineups, seat_bots

ROOT = Path(__file__).resolve().parents[2]
POLICIES = ROOT / "tutto_sim" / "data" / "policies"


# -- a damaged policy file: what is wrong with the file, no list of bots -------------------------

def _damaged(tmp_path, source: Path, how: str) -> Path:
    text = source.read_text()
    path = tmp_path / f"{how}.json"
    if how == "truncated":
        path.write_text(text[: len(text) // 2])
    elif how == "edited":  # the content hash no longer the content's
        d = json.loads(text)
        d["content_sha256"] = "0" * 64
        path.write_text(json.dumps(d))
    else:  # foreign: JSON, but not a policy file
        path.write_text(json.dumps({"players": ["Ana", "Ben"], "scores": [300, 250]}))
    return path


WHAT_IS_WRONG = {
    "truncated": "is damaged or truncated (not valid JSON: ",
    "edited": "was changed or damaged: its content hash does not match",
    "foreign": "is not a tutto-sim policy file (format must be 'tutto-sim-policy')",
}


@pytest.mark.parametrize("how", sorted(WHAT_IS_WRONG))
@pytest.mark.parametrize("game,kind,source,other", [
    ("tutto", "table", "tutto-default.json", "cautious"),
    ("macke", "table", "macke-default.json", "cautious"),
    ("macke", "endgame", "macke-default.json", "cautious"),
    ("rutsmieter", "weights", "rutsmieter-default.json", "first"),
])
def test_a_damaged_policy_file_is_one_line_about_the_file(capsys, tmp_path, game, kind, source,
                                                          other, how):
    path = _damaged(tmp_path, POLICIES / source, how)
    spec = f"{kind}:{path}"
    code, out, err = run_cli(capsys, "tournament", "--game", game, "--bots", f"{spec},{other}",
                             "--games", "4", "--out-dir", str(tmp_path))
    line = one_line(code, out, err)
    assert line.startswith(f"tutto-sim: error: bot {spec!r}: ")
    assert WHAT_IS_WRONG[how] in line
    assert "valid bots" not in line
    assert ";" not in line.split(WHAT_IS_WRONG[how], 1)[1], line  # nothing after what is wrong


def test_a_json_error_says_where_once(capsys, tmp_path):
    """Python's message for a control character ends in "at"; the line says "at" once."""
    path = tmp_path / "bad.json"
    path.write_text('{"format": "tutto\n-sim-policy"}')
    code, out, err = run_cli(capsys, "tournament", "--bots", f"table:{path},cautious",
                             "--games", "4", "--out-dir", str(tmp_path))
    line = one_line(code, out, err)
    assert line.endswith("(not valid JSON: Invalid control character at line 1, column 18)"), line


# -- play --name --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["", " ", "\t  "])
@pytest.mark.parametrize("game", ["tutto", "rutsmieter"])
def test_a_blank_name_is_refused_in_one_line(capsys, monkeypatch, tmp_path, game, name):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run_cli(capsys, "play", "--game", game, "--name", name, "--seed", "1")
    line = one_line(code, out, err)
    assert line == (f"tutto-sim: error: --name needs a name the table can show, not {name!r}; "
                    "e.g. --name Ana")


# -- export-policy of a game whose policy file comes from elsewhere --------------------------------

@pytest.mark.parametrize("game,words", [
    ("rutsmieter", "Rutsmieter has no export policy: its policy file, the move weights, comes "
                   "from tutto-sim optimize --game rutsmieter (--method td: learned by self-play)"),
    ("tutti", "Tutti has no export policy: no Tutti bot reads a policy file (they play by rule "
              "or search at the table)"),
])
def test_export_policy_says_where_the_policy_file_comes_from(capsys, tmp_path, game, words):
    code, out, err = run_cli(capsys, "export-policy", "--game", game, "--out",
                             str(tmp_path / "p.json"))
    assert one_line(code, out, err) == f"tutto-sim: error: {words}"
    assert list(tmp_path.iterdir()) == []


# -- the tournament: how the seats rotate, in words ---------------------------------------------

@pytest.mark.parametrize("bots,players,lineups", [
    ("optimal,cautious,reckless", 3, 1),
    ("optimal,cautious,reckless,endgame", 2, 6),
])
def test_the_seat_rotation_is_said_in_words(capsys, tmp_path, bots, players, lineups):
    games = lineups * players
    code, out, err = run_cli(capsys, "tournament", "--bots", bots, "--players", str(players),
                             "--games", str(games), "--out-dir", str(tmp_path))
    assert code == 0, err
    if lineups == 1:
        want = (f"the seats rotate from game to game: in every {games} games each bot holds every "
                "seat equally often")
    else:
        want = (f"the {lineups} lineups take turns and their seats rotate: in every {games} games "
                "each bot holds every seat equally often")
    assert want + "\n" in out
    assert " mod " not in out and " div " not in out
    # what the line says is what the tournament does: in those games every bot
    # holds every seat equally often
    n_bots = len(bots.split(","))
    seats = seat_bots(0, games, make_lineups(n_bots, players))
    held = np.zeros((n_bots, players), dtype=int)
    for row in seats:
        for j, b in enumerate(row):
            held[b, j] += 1
    assert all(len(set(held[b])) == 1 and held[b][0] > 0 for b in range(n_bots)), held


# -- Rutsmieter's weights by what they count -----------------------------------------------------

def test_rutsmieter_optimize_names_the_weights_in_players_words(capsys, tmp_path):
    """The command export-policy names writes the policy file, and its table
    names each weight by what it counts, not by its identifier."""
    from tutto_sim.rutsmieter.policy import FEATURES, load_weights_policy
    from tutto_sim.rutsmieter.rules import RutsmieterRules
    from tutto_sim.rutsmieter.words import FEATURE_WORDS

    path = tmp_path / "w.json"
    code, out, err = run_cli(capsys, "optimize", "--game", "rutsmieter", "--candidates", "2",
                             "--search-games", "4", "--games", "4", "--field", "first",
                             "--out", str(path), "--out-dir", str(tmp_path))
    assert code == 0, err
    assert len(load_weights_policy(path, RutsmieterRules()).weights) == len(FEATURES)
    text = " ".join(out.split())  # the table wraps long cells
    for f in FEATURES:
        assert f not in re.findall(r"[a-z]+_[a-z_]+", out), f
        assert " ".join(FEATURE_WORDS[f][0].split()[:2]) in text, f
    assert "landing within reach of opponents" in text and "danger_behind" not in out


# -- one choice: "press 1", not "choose 1-1" -------------------------------------------------------

@pytest.mark.parametrize("game", ["tutto", "macke"])
def test_a_single_choice_says_press_1(capsys, monkeypatch, game):
    """A throw with one way to score (a lone 5, say) is one choice: the prompt
    says so; with more the range is asked as before."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5000))
    code, out, err = run_cli(capsys, "play", "--game", game, "--bots", "cautious", "--seed", "5")
    assert code == 0, err
    prompts = [line for line in out.splitlines() if "(? advice, q quit): " in line]
    single = [p for p in prompts if p.startswith("press 1, the only choice (? advice, q quit): ")]
    assert single and "1-1" not in out
    # every single-choice prompt follows a list of exactly one numbered choice
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("press 1, the only choice"):
            listed = []
            for prev in reversed(lines[:i]):
                if not re.match(r"  \d+\) ", prev):
                    break
                listed.append(prev)
            assert [x.split(")")[0].strip() for x in listed] == ["1"], lines[i - 3:i + 1]
    assert any(p.startswith("choose 1-") for p in prompts)


@pytest.mark.parametrize("throws,words", [(1, "1 throw per series"), (2, "2 throws per series")])
def test_macke_rules_line_counts_throws_in_words(capsys, tmp_path, throws, words):
    code, out, err = run_cli(capsys, "tournament", "--game", "macke", "--bots", "cautious,reckless",
                             "--throws", str(throws), "--games", "4", "--out-dir", str(tmp_path))
    assert code == 0, err
    assert f"; {words}; " in out and "1 throws" not in out


def test_rutsmieter_td_names_the_learned_weights_in_players_words(capsys, tmp_path):
    from tutto_sim.rutsmieter.policy import POSITION_FEATURES
    from tutto_sim.rutsmieter.words import FEATURE_WORDS

    code, out, err = run_cli(capsys, "optimize", "--game", "rutsmieter", "--method", "td",
                             "--players", "2", "--games", "100", "--seed", "2",
                             "--out", str(tmp_path / "td.json"), "--out-dir", str(tmp_path))
    assert code == 0, err
    text = " ".join(out.split())
    assert re.findall(r"\b[a-z]+_[a-z_]+\b", out) == [], out
    for f in POSITION_FEATURES:
        assert " ".join(FEATURE_WORDS[f][0].split()[:2]) in text, f
    assert "(a constant, the same for every move)" in text and "bias" not in out

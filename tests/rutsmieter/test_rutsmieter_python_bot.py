"""``py:MODULE:NAME`` bots for Rutsmieter: ``act(obs)`` returns the index of a
move (or the move); illegal answers are counted and the first legal move is
played; the example bot plays a tournament through the command line."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import make_lineups, seat_bots
from tutto_sim.rutsmieter.bots import move_index
from tutto_sim.rutsmieter.reference import BOTS, Board, Bot, Move, Observation, legal_moves, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rutsmieter_bot.py"

BOTS_PY = '''
class PyFirst:
    """Like the built-in first, answering with the move itself."""
    name = "pyfirst"
    def act(self, obs):
        return max(obs.moves, key=lambda m: m.start)

class Liar:
    name = "liar"
    def act(self, obs):
        return 99

class Crasher:
    name = "crasher"
    def act(self, obs):
        raise RuntimeError("boom")

class Zero:
    name = "zero"
    def act(self, obs):
        return 0
'''


@pytest.fixture(scope="module")
def bots_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("bots") / "rbots.py"
    path.write_text(BOTS_PY)
    return path


def _tournament(capsys, tmp_path, bots, games, players=2, seed=4):
    code, out, err = run_cli(capsys, "tournament", "--game", "rutsmieter", "--players", str(players),
                             "--bots", bots, "--games", str(games), "--seed", str(seed), "--json",
                             "--out-dir", str(tmp_path))
    assert code == 0, err
    return json.loads(out), err


def test_a_python_bot_plays_the_games_of_its_built_in_twin(capsys, bots_file, tmp_path):
    """PyFirst (reference engine) and the built-in first (kernel) play the very
    same games against aggressive: every figure of the tournament agrees."""
    games = 72
    py, _ = _tournament(capsys, tmp_path, f"py:{bots_file}:PyFirst,aggressive", games, 3)
    built, _ = _tournament(capsys, tmp_path, "first,aggressive", games, 3)
    assert py["engine"] == "reference" and built["engine"] == "kernel"
    assert py["bots"]["pyfirst"] == built["bots"]["first"]
    assert py["bots"]["aggressive"] == built["bots"]["aggressive"]
    assert (py["seat_win_rates"], py["mean_throws"]) == (built["seat_win_rates"], built["mean_throws"])
    assert py["illegal_actions"] == {}


@pytest.mark.parametrize("name, first", [
    ("Liar", "bot liar returned an illegal move 99 (legal: an index 0..{top} of obs.moves or one "
             "of its moves) at a throw of {die}"),
    ("Crasher", "bot crasher raised RuntimeError: boom at a throw of {die}"),
])
def test_illegal_answers_are_counted_and_the_first_legal_move_is_played(capsys, bots_file, tmp_path,
                                                                        name, first):
    """The games are those of a bot that always makes the first legal move; the
    count is the bot's throws that left a move, summed over the reference games."""
    games, rules = 12, RutsmieterRules(players=2)
    d, err = _tournament(capsys, tmp_path, f"py:{bots_file}:{name},first", games)
    zero, _ = _tournament(capsys, tmp_path, f"py:{bots_file}:Zero,first", games)
    bot = name.lower()
    assert d["bots"][bot] == zero["bots"]["zero"]
    assert d["seat_win_rates"] == zero["seat_win_rates"]

    seats = seat_bots(0, games, make_lineups(2, 2, all_seatings=True))
    calls, firsts = 0, []
    for g in range(games):
        seen = []

        def choose(obs, seen=seen):
            seen.append(obs)
            return 0

        engines = [Bot("zero", choose) if b == 0 else BOTS["first"] for b in seats[g]]
        play_game(engines, rules, 4, g)
        calls += len(seen)
        firsts.append(seen[0])
    entry = d["illegal_actions"][bot]
    assert entry["count"] == calls and entry["games"] == games
    assert entry["first"] == first.format(top=len(firsts[0].moves) - 1, die=firsts[0].die)
    assert (f"warning: bot {bot} returned an illegal action {calls} times in {games} games, each "
            "time the first legal move was played instead; first: ") in err


def test_answers_that_name_a_move():
    board = Board((0, 2), [[5, 12, -1, -1], [-1, -1, -1, -1]])
    moves = tuple(legal_moves(board, 0, 3, RutsmieterRules(players=2)))
    assert moves == (Move(0, 5, 8), Move(1, 12, 15))
    obs = Observation((0, 2), ((5, 12, -1, -1), (-1,) * 4), 0, 3, moves)
    assert [move_index(obs, a) for a in (0, 1, np.int64(1), Move(1, 12, 15), (0, 5, 8, None))] == [
        0, 1, 1, 1, 0]
    for bad in (2, -1, True, False, 1.0, "1", None, Move(2, -1, 0)):
        assert move_index(obs, bad) is None, bad


def test_bad_py_specs_are_one_line(capsys, tmp_path):
    for spec, needle in (("py:nowhere.py:Bot", "cannot load Bot from nowhere.py"),
                         ("py:json", "write py:MODULE:NAME"),
                         ("py:json:JSONDecoder", "has no act(decision) method")):
        code, _, err = run_cli(capsys, "tournament", "--game", "rutsmieter", "--bots",
                               f"{spec},first", "--games", "4", "--out-dir", str(tmp_path))
        assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


# ---- the example bot -----------------------------------------------------------------
def _example():
    spec = importlib.util.spec_from_file_location("rutsmieter_bot_under_test", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Careful()


def test_the_example_plays_a_tournament_through_the_command_line(capsys, tmp_path):
    games = 48
    d, err = _tournament(capsys, tmp_path, f"py:{EXAMPLE}:Careful,first", games)
    assert d["bots"]["careful"]["games"] == games and d["illegal_actions"] == {}
    assert "warning" not in err
    # the same games as the example played directly in the reference engine
    careful = _example()
    rules = RutsmieterRules(players=2)
    seats = seat_bots(0, games, make_lineups(2, 2, all_seatings=True))
    wins = sum(play_game([Bot("c", careful.act) if b == 0 else BOTS["first"] for b in seats[g]],
                         rules, 4, g).winner == list(seats[g]).index(0) for g in range(games))
    assert d["bots"]["careful"]["win_rate"] == pytest.approx(wins / games)


def test_the_example_in_play_and_in_parse_bots(capsys, monkeypatch):
    import io

    rules = RutsmieterRules(players=2)
    (bot,) = parse_bots(f"py:{EXAMPLE}:Careful", rules)
    assert bot.name == "careful" and not callable(getattr(bot, "table", None))
    monkeypatch.setattr("sys.stdin", io.StringIO("a\n" * 400))
    code, out, err = run_cli(capsys, "play", "--game", "rutsmieter", "--bots",
                             f"py:{EXAMPLE}:Careful", "--seed", "3")
    assert code == 0, err
    assert "seat 1 careful" in out and "Green (careful) throws" in out and "places:" in out


def _obs(pieces, player, die, rules=RutsmieterRules(players=2)):
    board = Board(rules.seats, [list(p) for p in pieces])
    moves = tuple(legal_moves(board, player, die, rules))
    return Observation(rules.seats, tuple(map(tuple, pieces)), player, die, moves)


def test_the_example_on_hand_made_positions():
    """Two players: Red at seat 0, Green at seat 2 (Green's own x is Red's x + 20, mod 40)."""
    bot = _example()
    # a capture before the goal lane (capturing is not forced here): Red 18 + 4 = 22 is
    # Green's own 2; Red 37 + 4 = 41 is Red's goal square 2
    obs = _obs([[18, 37, -1, -1], [2, -1, -1, -1]], 0, 4,
               RutsmieterRules(players=2, must_capture=False))
    assert len(obs.moves) == 2
    assert obs.moves[bot.act(obs)] == Move(0, 18, 22, (1, 0))
    # into the goal lane before a plain walk
    obs = _obs([[5, 37, -1, -1], [-1] * 4], 0, 3)
    assert obs.moves[bot.act(obs)].end == 40
    # out of reach: Green's piece stands on Red's own 18 (Green's own 38). Red 17 + 2 = 19
    # would be 1 ahead of it (threatened); Red 10 + 2 = 12 stays out of reach, so the
    # bot moves the piece behind, where first would move the piece furthest along
    obs = _obs([[10, 17, -1, -1], [38, -1, -1, -1]], 0, 2)
    assert obs.moves[BOTS["first"].choose(obs)] == Move(1, 17, 19)
    assert obs.moves[bot.act(obs)] == Move(0, 10, 12)


def test_an_illegal_move_at_the_terminal_is_a_warning(capsys, monkeypatch, bots_file):
    """Against Liar the game is the game against a bot making the first legal move."""
    import io
    import re

    monkeypatch.setattr("sys.stdin", io.StringIO("a\n" * 400))
    code, out, err = run_cli(capsys, "play", "--game", "rutsmieter", "--bots",
                             f"py:{bots_file}:Liar", "--seed", "6")
    assert code == 0, err
    warnings = re.findall(r"^warning: bot liar returned an illegal move 99 .* at a throw of \d; "
                          r"the first legal move is played$", out, re.M)
    seen = []
    rec = play_game([Bot("a", lambda obs: 0), Bot("z", lambda obs: seen.append(obs) or 0)],
                    RutsmieterRules(players=2), 6, 0)
    assert len(warnings) == len(seen) > 0
    assert f"game over after {rec.throws:,} throws" in out

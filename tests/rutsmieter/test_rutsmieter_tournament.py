"""Rutsmieter in the registry and the shared tournament: every seating plays,
the kernel and the reference engine give the same tournament, the JSON of the
issue, the same result on 1 and 2 threads, one-line refusals."""

import itertools
import json

import numpy as np
import pytest
from conftest import run_cli as run

from tutto_sim.core import registry
from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import make_lineups, run_tournament, seat_bots
from tutto_sim.rutsmieter.bots import VALID_BOTS
from tutto_sim.rutsmieter.game import GameConfig
from tutto_sim.rutsmieter.reference import play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules


def test_registry_resolves_rutsmieter():
    entry = registry.by_name("Rutsmieter")
    assert entry.name == "rutsmieter" and entry.rules_type is RutsmieterRules
    assert [f.name for f in entry.rule_flags] == ["must_leave_house", "must_capture",
                                                  "goal_no_jump", "play_to_third"]


@pytest.mark.parametrize("bots,players,expected", [(4, 4, 24), (3, 3, 6), (2, 3, 3), (3, 2, 6),
                                                   (5, 4, 5 * 24), (1, 4, 1)])
def test_every_seating_is_played_equally_often(bots, players, expected):
    lineups = make_lineups(bots, players, all_seatings=True)
    assert len(lineups) == expected
    assert len({tuple(r) for r in lineups.tolist()}) == expected
    cycle = len(lineups) * players
    seen = {}
    for row in seat_bots(0, cycle, lineups).tolist():
        seen[tuple(row)] = seen.get(tuple(row), 0) + 1
    # every distinct seating of every combination of bots, each n times per cycle
    combos = itertools.combinations(range(bots), players) if bots >= players else [
        tuple(np.arange(players) % bots)]
    want = {p for c in combos for p in itertools.permutations(c)}
    assert set(seen) == want and set(seen.values()) == {cycle // len(want)}


def test_all_seatings_only_up_to_four_players():
    with pytest.raises(ValueError, match="at most 4 players"):
        make_lineups(5, 5, all_seatings=True)
    assert len(make_lineups(5, 5)) == 1  # the dice games keep their rotations


@pytest.mark.parametrize("players,options", [(2, (True, True, False, False)),
                                             (3, (False, True, True, True)),
                                             (4, (True, False, False, True))])
def test_kernel_and_reference_play_the_same_tournament(players, options):
    rules = RutsmieterRules(players, *options)
    bots = parse_bots("random,first,last,aggressive,defensive", rules)
    games = 2 * 5 * 24 if players == 4 else 120
    kern = run_tournament(bots, players, games, 11, GameConfig(rules), engine="kernel")
    ref = run_tournament(bots, players, games, 11, GameConfig(rules), engine="reference")
    assert kern.engine == "kernel" and ref.engine == "reference"
    for name in ("bot", "seat", "pair", "turns", "ends"):
        assert np.array_equal(getattr(kern.sums, name), getattr(ref.sums, name)), name
    assert kern.sums.counts.keys() == {"throws"}
    assert np.array_equal(kern.sums.counts["throws"], ref.sums.counts["throws"])
    # and the tournament's game i is reference game (seed, i) with its seating
    lineups = make_lineups(5, players, all_seatings=True)
    total = 0
    for i in range(games):
        seating = seat_bots(i, 1, lineups)[0]
        total += play_game([bots[b].engine for b in seating], rules, 11, i).throws
    assert kern.sums.counts["throws"][0] == total


def test_identical_bots_share_the_wins():
    rules = RutsmieterRules(players=4)
    res = run_tournament(parse_bots("first,first,first,first", rules), 4, 9600, 5,
                         GameConfig(rules))
    stats = res.bot_stats()
    assert [b.games for b in stats] == [9600] * 4
    assert sum(b.win.mean for b in stats) == pytest.approx(1.0)
    for b in stats:
        assert abs(b.win.mean - 0.25) < 1.5 * b.win.ci95, b


def _tournament_json(capsys, tmp_path, *extra):
    code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--players", "4",
                         "--bots", "first,last,aggressive,defensive", "--games", "4800",
                         "--seed", "7", "--json", "--out-dir", str(tmp_path), *extra)
    assert code == 0, err
    return json.loads(out)


def test_the_tournament_of_the_issue(capsys, tmp_path):
    d = _tournament_json(capsys, tmp_path, "--must-capture", "off", "--goal-no-jump", "on")
    assert d["game"] == "rutsmieter" and d["engine"] == "kernel" and d["games"] == 4800
    assert d["rules"] == {"game": "rutsmieter", "players": 4, "must_leave_house": True,
                          "must_capture": False, "goal_no_jump": True, "play_to_third": False}
    assert set(d["bots"]) == {"first", "last", "aggressive", "defensive"}
    for b in d["bots"].values():
        assert {"win_rate", "ci95", "games"} <= set(b) and b["games"] == 4800
        assert "points_per_turn" not in b and 0 < b["ci95"] < 0.05
    assert len(d["lineups"]) == 24
    assert len(d["seat_win_rates"]) == 4 and sum(d["seat_win_rates"]) == pytest.approx(1.0)
    assert sum(b["win_rate"] for b in d["bots"].values()) == pytest.approx(1.0)
    assert 100 < d["mean_turns"] < d["mean_throws"] < 2000
    assert d["mean_throws_ci95"] > 0 and d["game_ends"] == {"won": 4800, "cap": 0}


def test_same_seed_same_json_on_one_and_two_threads(capsys, tmp_path):
    one = _tournament_json(capsys, tmp_path, "--threads", "1")
    two = _tournament_json(capsys, tmp_path, "--threads", "2")
    for d in (one, two):
        for k in ("seconds", "threads", "csv"):
            d.pop(k)
    assert one == two


def test_reference_engine_on_the_command_line_gives_the_kernel_result(capsys, tmp_path):
    args = ("tournament", "--game", "rutsmieter", "--players", "3", "--bots", "random,defensive",
            "--games", "60", "--seed", "3", "--json", "--out-dir", str(tmp_path),
            "--play-to-third", "on")
    outs = []
    for engine in ("kernel", "reference"):
        code, out, err = run(capsys, *args, "--engine", engine)
        assert code == 0, err
        d = json.loads(out)
        assert d["engine"] == engine
        outs.append({k: d[k] for k in ("bots", "seat_win_rates", "mean_turns", "mean_throws")})
    assert outs[0] == outs[1]


def test_text_output(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--players", "2",
                         "--bots", "aggressive,first", "--games", "500", "--out-dir", str(tmp_path))
    assert code == 0, err
    assert "Rutsmieter tournament" in out and "throws" in out and "points per turn" not in out
    assert "must capture on" in out


@pytest.mark.parametrize("args,message", [
    (["--players", "5"], "--players must be 2, 3 or 4 for Rutsmieter, not 5"),
    (["--players", "1"], "--players must be 2, 3 or 4 for Rutsmieter, not 1"),
    (["--bots", "first,best"], f"unknown Rutsmieter bot 'best'; {VALID_BOTS}"),
    (["--must-capture", "maybe"], "--must-capture must be on or off, not 'maybe'"),
    (["--x2-scope", "card"], "--x2-scope does not apply to --game rutsmieter"),
    (["--target", "5000"], "--target does not apply to --game rutsmieter"),
])
def test_one_line_refusals(capsys, tmp_path, args, message):
    base = {"--players": "4", "--bots": "first,last"}
    for k, v in zip(args[::2], args[1::2]):
        base.pop(k, None)
    flat = [x for kv in base.items() for x in kv]
    code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--games", "10",
                         "--out-dir", str(tmp_path), *flat, *args)
    assert code == 2 and out == ""
    assert err.strip() == f"tutto-sim: error: {message}"


def test_rutsmieter_flags_are_refused_by_other_games(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--game", "macke", "--bots", "cautious,cautious",
                         "--games", "10", "--out-dir", str(tmp_path), "--goal-no-jump", "on")
    assert code == 2
    assert err.strip() == "tutto-sim: error: --goal-no-jump does not apply to --game macke"


@pytest.mark.parametrize("args", [
    ["export-policy", "--game", "rutsmieter"],
    ["validate", "--game", "rutsmieter"],
    ["analyze", "threshold", "--game", "rutsmieter"],
])
def test_commands_rutsmieter_lacks_say_so_in_one_line(capsys, tmp_path, args):
    code, out, err = run(capsys, *args)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tutto-sim: error:"), err


def test_every_rule_flag_and_feature_is_documented():
    from pathlib import Path

    from tutto_sim.rutsmieter.policy import FEATURES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rutsmieter.md").read_text()
    for f in registry.by_name("rutsmieter").rule_flags:
        assert f"`--{f.name.replace('_', '-')} on\\|off`" in doc, f.name
        assert f"`{f.name}`" in doc, f.name
    for name in (*FEATURES, "expected_throws_first", "expected_throws_optimal", "mean_throws",
                 "games_per_second_all_cores", "weights:FILE"):
        assert name in doc, name


def test_help_loads_no_numba():
    import subprocess
    import sys

    code = ("import sys\nfrom tutto_sim.cli import main\n"
            "try:\n    main(['tournament', '--help'])\nexcept SystemExit:\n    pass\n"
            "print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "Rutsmieter rules" in out.stdout
    assert out.stdout.strip().endswith("False")

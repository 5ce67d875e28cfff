"""``tutto-sim optimize --game rutsmieter``: the weight search, its games
(common random numbers, checked game by game against the reference engine),
the probe that fixes weights the rules make idle, the policy file it writes,
bad input, Ctrl-C, and the shipped tuned policy against the built-in bots."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli

from tutto_sim.core.analysis import FRESH_START
from tutto_sim.rutsmieter.bots import parse_bot
from tutto_sim.rutsmieter.optimize import START, Games, optimize_weights
from tutto_sim.rutsmieter.policy import FEATURES, WeightsPolicy, load_weights_policy
from tutto_sim.rutsmieter.reference import play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules

ROOT = Path(__file__).resolve().parents[2]
TWO = RutsmieterRules(players=2)
SMALL = ("--search-games", "40", "--games", "30", "--candidates", "3")
#: Keys that may differ between runs of the same search: time, threads, places.
RUN_KEYS = ("seconds", "threads", "policy_file", "csv")


def _field(names, rules=TWO):
    return [parse_bot(n, rules) for n in names]


def _run(capsys, tmp_path, *args):
    return run_cli(capsys, "optimize", "--game", "rutsmieter", *args, "--out-dir", str(tmp_path))


# -- the games: common random numbers ---------------------------------------------------------


def _reference_wins(weights, names, rules, seed, start, n_games):
    """Game i as the docstring says: stream (seed, start + i), table (start + i) mod (F n):
    field bot ((start + i) mod F n) div n, the candidate in seat (start + i) mod n."""
    n, bots = rules.players, _field(names, rules)
    cand = WeightsPolicy(weights, rules).bot("candidate")
    won, throws = [], []
    for g in range(n_games):
        i = start + g
        f, seat = (i % (len(names) * n)) // n, i % n
        engines = [cand if j == seat else bots[f].engine for j in range(n)]
        rec = play_game(engines, rules, seed, i)
        won.append(rec.winner == seat)
        throws.append(rec.throws)
    return np.array(won), np.array(throws)


@pytest.mark.parametrize("weights", [
    START, (0.0, 1.0, 2.5, -3.0, 0.0, -1.0, 4.0),
    # every feature, the position's too
    (1.0, 30.0, -4.0, 0.5, 8.0, 6.0, -2.0, 0.25, 3.0, -0.125, -1.5, -2.0, -1.0, 0.5, 4.0, -3.0,
     -1.0, -0.5, -0.25, -2.0, 1.0, 0.0625)])
def test_every_candidate_plays_the_same_games_as_the_reference(weights):
    """Two candidates, each checked game by game against the reference engine
    playing the stated stream and seating: the games are fixed, only the
    candidate changes."""
    names = ("first", "random", "tuned")
    games = Games(TWO, _field(names), seed=9, per_bot=6)
    got = games.play(weights)
    won, throws = _reference_wins(weights, names, TWO, 9, 0, games.total)
    assert games.total == 18
    assert got.won.tolist() == won.tolist() and got.throws.tolist() == throws.tolist()


def test_a_candidate_played_twice_gets_the_same_games_and_scale_changes_nothing():
    games = Games(RutsmieterRules(players=3), _field(("aggressive", "defensive"),
                                                     RutsmieterRules(players=3)), 4, 200)
    a, b = games.play(START), games.play(START)
    assert a.same_games(b) and np.array_equal(a.won, b.won)
    # the bot plays the highest score: doubling every weight (exact in binary) changes no move
    assert games.play(tuple(2 * w for w in START)).same_games(a)
    # while another direction does change games (the comparison can fail)
    assert not games.play((1.0, 30.0, 4.0, 0.5, 8.0, 6.0, -2.0)).same_games(a)


def test_games_per_field_bot_are_whole_rounds_of_seats():
    games = Games(RutsmieterRules(players=3), _field(("first", "last"), RutsmieterRules(players=3)),
                  1, 7)
    assert games.per_bot == 9 and games.total == 18
    assert np.bincount(games.bot).tolist() == [9, 9]
    for f in range(2):  # the candidate sits in every seat equally often against each bot
        assert np.bincount(games.seat[games.bot == f]).tolist() == [3, 3, 3]


# -- the probe ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules, fixed", [
    # every walk is the throw, leaving the house (1 square) is forced, so is a capture
    # and moving off the start square: the danger / goal weights choose, and which
    # capture (how far the victim had come); at 2 players the one opponent is always
    # the leader; the own progress and house change as progress and leaving do, the
    # opponents' pieces in the house only by a capture, their goal lanes never
    (TWO, ["progress", "capture", "leave_house", "block_start", "capture_leader", "own_progress",
           "own_house", "lead_goal", "opp_house"]),
    # without the obligation to capture, the capture weights choose too
    (RutsmieterRules(players=2, must_capture=False),
     ["progress", "leave_house", "block_start", "own_progress", "own_house", "lead_goal"]),
    # without the obligation to leave, leaving competes with walking (1 square against 6)
    (RutsmieterRules(players=2, must_leave_house=False),
     ["capture", "capture_leader", "lead_goal", "opp_house"]),
])
def test_the_probe_fixes_exactly_the_weights_the_rules_leave_idle(rules, fixed):
    res = optimize_weights(rules, _field(("first", "random"), rules), search_games=300,
                           games=10, candidates=1, seed=2)
    assert res.fixed == fixed
    assert res.free == [f for f in FEATURES if f not in fixed]
    for f in fixed:  # a fixed weight keeps its start value
        assert res.weights[FEATURES.index(f)] == START[FEATURES.index(f)]


def test_the_search_picks_its_best_candidate_and_replays_it_on_fresh_games():
    field = _field(("first", "defensive"))
    res = optimize_weights(TWO, field, search_games=60, games=40, candidates=20, seed=5)
    search = Games(TWO, field, 5, 60)
    # every candidate's score is its win rate on the search games; the result is the best
    for _, w, s in res.candidates[:4] + res.candidates[-2:]:
        assert s == search.play(w).won.mean()
    scores = [s for _, _, s in res.candidates]
    assert res.search_score.mean == max(scores)
    assert res.candidates[scores.index(max(scores))][1] == res.weights
    assert len(res.candidates) == 1 + 20 and [g.candidates for g in res.generations] == [16, 4]
    # the fresh games are streams from FRESH_START on, in the reference engine too
    won, _ = _reference_wins(res.weights, ("first", "defensive"), TWO, 5, FRESH_START, 80)
    fresh_bot = ((FRESH_START + np.arange(80)) % 4) // 2
    for f, name in enumerate(("first", "defensive")):
        assert res.fresh[name].n == 40
        assert res.fresh[name].mean == won[fresh_bot == f].mean()


# -- the command --------------------------------------------------------------------------------


def test_a_small_search_writes_a_policy_file_the_weights_bot_plays(capsys, tmp_path):
    code, out, err = _run(capsys, tmp_path, *SMALL, "--seed", "3", "--json",
                          "--must-capture", "off")
    assert code == 0, err
    d = json.loads(out)
    path = tmp_path / f"rutsmieter-policy-2p-seed3-{d['run_digest']}.json"
    assert d["policy_file"] == str(path)
    assert d["csv"] == str(tmp_path / f"optimize-rutsmieter-2p-seed3-{d['run_digest']}.csv")
    assert d["field"] == ["first", "aggressive", "defensive", "random"]
    assert d["players"] == 2 and d["seed"] == 3 and d["interrupted"] is False
    assert d["search"]["candidates"] == 4 and d["search"]["games_per_bot"] == 40
    assert set(d["fresh"]["bots"]) == set(d["field"])
    assert all(b["games"] == 30 for b in d["fresh"]["bots"].values())
    assert "capture" in d["free_weights"]
    # the file: the house rule, the command, the summary; the weights bot loads it
    rules = RutsmieterRules(must_capture=False)
    policy = load_weights_policy(path, rules)
    assert policy.weights == tuple(d["weights"][f] for f in FEATURES)
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["rules"]["must_capture"] is False and raw["rules"]["players"] == 2
    assert raw["created_by"] == d["command"] == (
        "tutto-sim optimize --game rutsmieter --players 2 --field first,aggressive,defensive,"
        "random --candidates 3 --search-games 40 --games 30 --seed 3 --must-capture off")
    assert raw["summary"]["fresh"] == d["fresh"] and raw["summary"]["interrupted"] is False
    bot = parse_bot(f"weights:{path}", rules)
    assert bot.table() == policy.weights
    code, out, err = run_cli(capsys, "tournament", "--game", "rutsmieter", "--bots",
                             f"weights:{path},first", "--games", "20", "--must-capture", "off",
                             "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    frame = pd.read_csv(d["csv"])
    assert set(frame["kind"]) == {"fresh", "candidate"} and not frame["interrupted"].any()
    assert (frame["kind"] == "candidate").sum() == 4


def test_the_same_seed_gives_the_same_search_on_one_or_two_threads(capsys, tmp_path):
    got = []
    for threads in ("1", "2"):
        code, out, err = _run(capsys, tmp_path / threads, *SMALL, "--players", "3",
                              "--field", "first,tuned", "--threads", threads, "--json")
        assert code == 0, err
        got.append({k: v for k, v in json.loads(out).items() if k not in RUN_KEYS})
    assert got[0] == got[1]
    assert got[0]["players"] == 3 and got[0]["field"] == ["first", "tuned"]


def test_the_text_output_names_seed_file_and_fixed_weights(capsys, tmp_path):
    code, out, err = _run(capsys, tmp_path, *SMALL, "--players", "4", "--field", "last",
                          "--out", str(tmp_path / "mine.json"))
    assert code == 0, err
    assert "seed 1 (replay: tutto-sim optimize --game rutsmieter --players 4 --field last" in out
    assert f"policy file: {tmp_path / 'mine.json'}" in out
    assert "fixed: changed no search game" in out and "fair share 0.2500" in out
    assert load_weights_policy(tmp_path / "mine.json").rules.players == 4


@pytest.fixture
def never(monkeypatch):
    """A refused run must refuse before any game is played."""
    import tutto_sim.rutsmieter.optimize as O

    def boom(*a, **k):
        raise AssertionError("played although the input was refused")

    monkeypatch.setattr(O.Games, "play", boom)


@pytest.mark.parametrize("args, message", [
    (["--field", "first,joker"], "--field: unknown Rutsmieter bot 'joker'; valid bots:"),
    (["--field", "expert"], "--field: bot 'expert' cannot be in the field"),
    (["--field", f"py:{ROOT / 'examples' / 'rutsmieter_bot.py'}:Careful"],
     f"--field: bot 'py:{ROOT / 'examples' / 'rutsmieter_bot.py'}:Careful' cannot be in the field"),
    (["--field", "first,,random"], "--field needs a comma-separated list of bots"),
    (["--field", "first,first"], "--field names first twice"),
    (["--players", "5"], "--players must be 2, 3 or 4 for Rutsmieter, not 5"),
    (["--card", "x2"], "--card does not apply to optimize --game rutsmieter (only to --game tutto)"),
    (["--turns", "5000"], "--turns does not apply to optimize --game rutsmieter (only to --game tutto, macke)"),
    (["--method", "exact"], "--method must be one of cross-entropy, td, not 'exact'"),
    (["--players", "2,3"], "--players takes one table size for the cross-entropy search"),
    (["--games", "0"], "--games must be a positive number, not 0"),
    (["--search-games", "0"], "--search-games must be a positive number, not 0"),
    (["--candidates", "0"], "--candidates must be a positive number, not 0"),
    (["--games", str(10**11)], "--games must be at most 10,000,000,000"),
])
def test_bad_input_is_one_line(capsys, tmp_path, never, args, message):
    code, out, err = _run(capsys, tmp_path, *args)
    assert code == 2 and out == ""
    assert err.strip().startswith(f"tutto-sim: error: {message}"), err
    assert len(err.strip().splitlines()) == 1


def test_the_policy_file_place_is_checked_first(capsys, tmp_path, never):
    code, _, err = _run(capsys, tmp_path, "--out", str(tmp_path))
    assert code == 2 and err.strip() == f"tutto-sim: error: --out {tmp_path}: is a folder; give a file name"


@pytest.mark.parametrize("game, flag, value", [
    ("tutto", "--search-games", "100"), ("tutto", "--field", "first"),
    ("macke", "--players", "3"), ("volle-lotte", "--out", "x.json"), ("tutto", "--candidates", "5"),
])
def test_the_dice_games_refuse_the_whole_game_options(capsys, game, flag, value):
    code, _, err = run_cli(capsys, "optimize", "--game", game, flag, value)
    assert code == 2
    assert err.strip() == (f"tutto-sim: error: {flag} does not apply to optimize --game {game} "
                           "(only to --game rutsmieter)")


def test_ctrl_c_keeps_the_best_so_far_marked_interrupted(capsys, tmp_path, monkeypatch):
    import contextlib

    import tutto_sim.rutsmieter.cli as C

    @contextlib.contextmanager
    def phases(enabled):
        done = [0]

        def phase(label, total):
            def advance(n):
                done[0] += 1
                if done[0] == 12:  # during the search (probe and candidates)
                    raise KeyboardInterrupt
            return advance
        yield phase

    monkeypatch.setattr(C, "progress_phases", phases)
    code, out, err = _run(capsys, tmp_path, *SMALL, "--seed", "4", "--json")
    assert code == 130, err
    d = json.loads(out)
    assert d["interrupted"] is True and d["fresh"] is None
    path = tmp_path / f"rutsmieter-policy-2p-seed4-{d['run_digest']}-interrupted.json"
    assert d["policy_file"] == str(path) and d["csv"].endswith("-interrupted.csv")
    assert [p.name for p in tmp_path.glob("*.json")] == [path.name]  # no complete one
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["summary"]["interrupted"] is True
    assert load_weights_policy(path).weights == tuple(d["weights"][f] for f in FEATURES)
    assert "interrupted" in err and str(path) in err


# -- the shipped tuned policy -------------------------------------------------------------------


def test_tuned_plays_the_shipped_search_result():
    """The shipped file holds a weight set per table size, each the winner of
    its table's comparison on fresh games (scripts/tune_rutsmieter.py), and
    ``tuned`` plays the set of its table's size."""
    raw = json.loads((ROOT / "tutto_sim" / "data" / "policies" / "rutsmieter-default.json").read_text())
    assert raw["created_by"].startswith("python scripts/tune_rutsmieter.py ")
    table = raw["weights_by_players"]
    assert sorted(table) == ["2", "3", "4"] and raw["weights"] == table["4"]
    for n in (2, 3, 4):
        final = raw["summary"]["by_players"][str(n)]["final"]
        rates = {name: c["win_rate"] for name, c in final["contenders"].items()}
        assert rates[final["best"]] == max(rates.values())
        assert final["contenders"][final["best"]]["weights"] == table[str(n)]
        assert parse_bot("tuned", RutsmieterRules(players=n)).table() == tuple(
            float(table[str(n)][f]) for f in raw["features"])


@pytest.mark.parametrize("other", ["first", "aggressive", "defensive"])
def test_tuned_beats_the_built_in_bots_at_two_players(other):
    """Every seating, 6,000 games: tuned's 95% CI lies entirely above the other's."""
    from tutto_sim.core.tournament import run_tournament
    from tutto_sim.rutsmieter.game import GameConfig

    res = run_tournament(_field(("tuned", other)), 2, 6_000, 2024, GameConfig(TWO))
    win = {b.name: b.win for b in res.bot_stats()}
    assert res.engine == "kernel" and res.games == 6_000
    assert win["tuned"].mean - win["tuned"].ci95 > win[other].mean + win[other].ci95


def test_a_mixed_table_in_the_field_seats_its_bots_round_the_candidate(capsys):
    """``first+aggressive+defensive``: the candidate in each seat, the three
    others clockwise after it in that order (kernel ids by hand)."""
    from tutto_sim.rutsmieter import kernel as K
    from tutto_sim.rutsmieter.optimize import MixedTable

    rules = RutsmieterRules(players=4)
    bots = _field(("first", "aggressive", "defensive"), rules)
    games = Games(rules, [bots[0], MixedTable(tuple(bots))], 1, 4)
    c, f, a, d = K.BOT_WEIGHTS, K.BOT_FIRST, K.BOT_AGGRESSIVE, K.BOT_DEFENSIVE
    assert games.lineups.tolist() == [
        [c, f, f, f], [f, c, f, f], [f, f, c, f], [f, f, f, c],
        [c, f, a, d], [d, c, f, a], [a, d, c, f], [f, a, d, c]]
    assert games.names == ["first", "first+aggressive+defensive"]
    # on the command line; a table as large as the table is refused in one line
    code, out, err = run_cli(capsys, "optimize", "--game", "rutsmieter", "--players", "4",
                             "--field", "first+aggressive+defensive+last")
    assert code == 2 and "names 2 to 3 bots joined by +" in err and len(err.strip().splitlines()) == 1

"""Rutsmieter's analyses: ``analyze seats`` at 2-4 players, ``analyze rules``
(game length and skill spread per house rule) and ``analyze pieces`` (the
first piece out, a captured piece). The figures are checked against the
reference engine and direct tournaments on the same seeds, the paired
differences against differences computed here game by game, and the JSON is
the same on 1 and 2 threads."""

import dataclasses
import json
import math

import numpy as np
import pandas as pd
import pytest
from conftest import result_file
from conftest import run_cli as run
from scipy.stats import binomtest

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.rng import Stream
from tutto_sim.core.tournament import make_lineups, run_tournament, seat_bots
from tutto_sim.rutsmieter import analysis as A
from tutto_sim.rutsmieter.game import GameConfig
from tutto_sim.rutsmieter.reference import Board, apply_move, legal_moves, play_game
from tutto_sim.rutsmieter.rules import RutsmieterRules

Z95 = 1.959963984540054


def ci95(x):
    x = np.asarray(x, float)
    return Z95 * x.std(ddof=1) / math.sqrt(len(x))


def without_run_facts(d):
    """The JSON without what may differ between two runs of the same figures."""
    return {k: v for k, v in d.items() if k not in ("seconds", "threads", "csv")}


# -- analyze seats ---------------------------------------------------------------------------


def test_seats_plays_every_rutsmieter_table_size_with_tuned(capsys, tmp_path):
    code, out, err = run(capsys, "analyze", "seats", "--game", "rutsmieter", "--games", "240",
                         "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["bot"] == "tuned" and set(d["players"]) == {"2", "3", "4"}
    for n, row in d["players"].items():
        assert len(row["seat_win_rates"]) == int(n)
        assert sum(row["seat_win_rates"]) == pytest.approx(1.0)  # every game has a winner
        assert "cloverleaf_share" not in row and "instant_win_share" not in row
        assert row["mean_throws"] > 0 and row["mean_throws_ci95"] > 0
    assert set(pd.read_csv(result_file(tmp_path, "seats-rutsmieter-seed1"))["players"]) == {2, 3, 4}


def test_seats_mean_throws_are_the_reference_engines(capsys, tmp_path):
    """first in every seat: game i is reference game (seed, i) at that table."""
    code, out, err = run(capsys, "analyze", "seats", "--game", "rutsmieter", "--bot", "first",
                         "--players", "2,3", "--games", "90", "--seed", "7", "--json",
                         "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    for n in (2, 3):
        recs = [play_game(["first"] * n, RutsmieterRules(players=n), 7, i) for i in range(90)]
        row = d["players"][str(n)]
        assert row["mean_throws"] == pytest.approx(np.mean([r.throws for r in recs]), abs=1e-9)
        wins = np.bincount([r.winner for r in recs], minlength=n) / 90
        assert row["seat_win_rates"] == pytest.approx(wins.tolist(), abs=1e-9)


def test_seats_text_shows_throws_and_no_instant_column(capsys, tmp_path):
    code, out, err = run(capsys, "analyze", "seats", "--game", "rutsmieter", "--bot", "first",
                         "--players", "2", "--games", "30", "--out-dir", str(tmp_path))
    assert code == 0, err
    assert "throws per game" in out and "first in every seat" in out
    assert "instant" not in out and "Kleeblatt" not in out


@pytest.mark.parametrize("args,message", [
    (["--players", "2-5"], "--players must be a range like 2-4 or a list like 2,3 of sizes "
                           "2..4 for Rutsmieter, not '2-5'"),
    (["--players", "1,2"], "--players must be a range like 2-4 or a list like 2,3 of sizes "
                           "2..4 for Rutsmieter, not '1,2'"),
])
def test_seats_refuses_sizes_rutsmieter_lacks(capsys, tmp_path, args, message):
    code, out, err = run(capsys, "analyze", "seats", "--game", "rutsmieter", "--games", "10",
                         "--out-dir", str(tmp_path), *args)
    assert code == 2 and err.strip() == f"tutto-sim: error: {message}"


# -- analyze rules ---------------------------------------------------------------------------

RULES_ARGS = ("analyze", "rules", "--players", "2", "--bot", "first", "--games", "150",
              "--strong", "tuned", "--weak", "random", "--skill-games", "100", "--seed", "3",
              "--json")


def json_on_one_and_two_threads(factory, args):
    """The JSON of a command run with --threads 1 and with --threads 2."""
    import contextlib
    import io

    from tutto_sim.cli import main

    runs = []
    for threads in ("1", "2"):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), pytest.raises(SystemExit) as exc:
            main([*args, "--threads", threads, "--out-dir", str(factory.mktemp("out"))])
            raise SystemExit(0)
        assert exc.value.code == 0
        runs.append(json.loads(buf.getvalue()))
    return runs


@pytest.fixture(scope="module")
def rules_json(tmp_path_factory):
    return json_on_one_and_two_threads(tmp_path_factory, RULES_ARGS)


def test_rules_json_keys_and_shapes(rules_json):
    d = rules_json[0]
    assert d["analysis"] == "rules" and d["game"] == "rutsmieter"
    assert list(d["rule_sets"]) == ["defaults", "must_leave_house", "must_capture",
                                    "goal_no_jump", "play_to_third"]
    keys = {"switched", "rules", "same_skill_games_as_defaults"}
    for k in ("mean_throws", "mean_turns", "throws_vs_defaults", "turns_vs_defaults",
              "strong_win_rate", "weak_win_rate", "skill_spread", "skill_spread_vs_defaults"):
        keys |= {k, f"{k}_ci95"}
    keys |= {f"{k}_{end}" for k in ("strong_win_rate", "weak_win_rate") for end in ("low", "high")}
    diffs = {f"{k}_measurable" for k in ("throws_vs_defaults", "turns_vs_defaults",
                                         "skill_spread_vs_defaults")}
    defaults = RutsmieterRules(players=2).to_dict()
    for name, r in d["rule_sets"].items():
        assert set(r) == keys | (set() if name == "defaults" else diffs), name
        for k in diffs if name != "defaults" else ():  # measurable: the CI leaves out 0
            e, ci = r[k.removesuffix("_measurable")], r[k.replace("_measurable", "_ci95")]
            assert r[k] is (abs(e) > ci), (name, k)
        changed = {k for k in defaults if r["rules"][k] != defaults[k]}
        assert changed == (set() if name == "defaults" else {name})
        assert r["switched"] == (None if name == "defaults" else name)
    assert d["players"] == 2 and d["games"] == 150 and d["skill_games"] == 100
    assert d["interrupted"] is False and d["csv"].endswith(f"rules-rutsmieter-seed3-{d['run_digest']}.csv")


def test_rules_same_figures_on_one_and_two_threads(rules_json):
    assert without_run_facts(rules_json[0]) == without_run_facts(rules_json[1])
    assert {rules_json[0]["threads"], rules_json[1]["threads"]} == {1, 2}


def test_rules_game_length_is_the_reference_engines_game_by_game(rules_json):
    """Each rule set's throws and turns are the reference engine's games (3, 0..149)
    with first in both seats; the differences to the defaults are game by game."""
    d = rules_json[0]["rule_sets"]
    base = RutsmieterRules(players=2)
    per_game = {}
    for name in ("defaults", "must_leave_house", "goal_no_jump"):
        rules = base if name == "defaults" else dataclasses.replace(
            base, **{name: not getattr(base, name)})
        recs = [play_game(["first", "first"], rules, 3, i) for i in range(150)]
        per_game[name] = (np.array([r.throws for r in recs]), np.array([r.turns for r in recs]))
        assert d[name]["mean_throws"] == pytest.approx(per_game[name][0].mean(), abs=1e-9)
        assert d[name]["mean_turns"] == pytest.approx(per_game[name][1].mean(), abs=1e-9)
        assert d[name]["mean_throws_ci95"] == pytest.approx(ci95(per_game[name][0]), rel=1e-9)
    for name in ("must_leave_house", "goal_no_jump"):
        diff = per_game[name][0] - per_game["defaults"][0]
        assert d[name]["throws_vs_defaults"] == pytest.approx(diff.mean(), abs=1e-9)
        assert d[name]["throws_vs_defaults_ci95"] == pytest.approx(ci95(diff), rel=1e-9)
    # the first walks its furthest piece: a capture is open to it only by chance, so
    # must_capture changes its games; play on changes nothing with two players
    assert d["play_to_third"]["throws_vs_defaults"] == 0
    assert d["play_to_third"]["throws_vs_defaults_ci95"] == 0


def test_rules_skill_is_a_direct_tournament_with_those_rules(rules_json):
    """The skill figures of a rule set are a tournament tuned against random with
    those rules (seed 3, games 0..99); the paired difference comes game by game
    from the reference engine's games."""
    d = rules_json[0]["rule_sets"]
    base = RutsmieterRules(players=2)
    lineups = make_lineups(2, 2, all_seatings=True)
    v = {}
    for name in ("defaults", "must_capture"):
        rules = base if name == "defaults" else dataclasses.replace(base, must_capture=False)
        bots = parse_bots("tuned,random", rules)
        res = run_tournament(bots, 2, 100, 3, GameConfig(rules))
        win = {b.name: b.win for b in res.bot_stats()}
        r = d[name]
        assert r["strong_win_rate"] == pytest.approx(win["tuned"].mean, abs=1e-12)
        assert r["weak_win_rate"] == pytest.approx(win["random"].mean, abs=1e-12)
        # the win rate's Wilson interval (no ties: whole wins out of 100 seats)
        wilson = binomtest(round(100 * r["strong_win_rate"]), 100).proportion_ci(method="wilson")
        assert (r["strong_win_rate_low"], r["strong_win_rate_high"]) == pytest.approx(
            (wilson.low, wilson.high), abs=1e-12)
        assert r["strong_win_rate_ci95"] == pytest.approx((wilson.high - wilson.low) / 2)
        # two players, one seat each: the spread is 2 p - 1 of the strong bot's wins
        assert r["skill_spread"] == pytest.approx(2 * win["tuned"].mean - 1, abs=1e-12)
        # game by game in the reference engine: +1 when tuned wins, -1 when random does
        v[name] = []
        for i, seating in enumerate(seat_bots(0, 100, lineups).tolist()):
            rec = play_game([bots[b].engine for b in seating], rules, 3, i)
            v[name].append(1 if seating[rec.winner] == 0 else -1)
        assert r["skill_spread"] == pytest.approx(np.mean(v[name]), abs=1e-12)
        assert r["skill_spread_ci95"] == pytest.approx(ci95(np.array(v[name])), rel=1e-9)
    diff = np.array(v["must_capture"]) - np.array(v["defaults"])
    assert d["must_capture"]["skill_spread_vs_defaults"] == pytest.approx(diff.mean(), abs=1e-12)
    assert d["must_capture"]["skill_spread_vs_defaults_ci95"] == pytest.approx(ci95(diff), rel=1e-9)
    assert d["play_to_third"]["same_skill_games_as_defaults"] is True
    assert d["play_to_third"]["skill_spread"] == d["defaults"]["skill_spread"]
    assert d["play_to_third"]["skill_spread_vs_defaults"] == 0


def test_rules_text_output_and_csv(capsys, tmp_path):
    code, out, err = run(capsys, *RULES_ARGS[:-1], "--games", "40", "--skill-games", "40",
                         "--out-dir", str(tmp_path))
    assert code == 0, err
    assert "no jumping in the goal lane on" in out and "must leave the house off" in out
    assert "seed 3" in out
    frame = pd.read_csv(result_file(tmp_path, "rules-rutsmieter-seed3"))
    assert list(frame["rule_set"]) == ["defaults", "must_leave_house", "must_capture",
                                       "goal_no_jump", "play_to_third"]
    assert not frame["interrupted"].any()


def test_rules_interrupted_keeps_the_finished_parts(capsys, tmp_path, monkeypatch):
    import tutto_sim.core.tournament as T

    real = T.run_tournament
    calls = [0]

    def third_interrupted(*a, **k):
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(T, "run_tournament", third_interrupted)
    code, out, err = run(capsys, *RULES_ARGS, "--games", "30", "--out-dir", str(tmp_path))
    assert code == 130
    d = json.loads(out)
    assert d["interrupted"] is True and d["csv"].endswith("-interrupted.csv")
    sets = d["rule_sets"]
    assert sets["must_leave_house"]["mean_throws"] is not None
    assert sets["must_capture"]["mean_throws"] is None and sets["defaults"]["skill_spread"] is None
    assert pd.read_csv(d["csv"])["interrupted"].all()
    assert [p.name for p in tmp_path.glob("rules-*.csv")] == [d["csv"].split("/")[-1]]  # no complete one


@pytest.mark.parametrize("args,message", [
    (["--game", "tutto"], "Tutto has no 'rules' analysis; it is an analysis of Rutsmieter "
                          "(--game rutsmieter)"),
    (["--players", "5"], "--players must be 2, 3 or 4 for Rutsmieter, not 5"),
    (["--skill-players", "1"], "--skill-players must be 2, 3 or 4 for Rutsmieter, not 1"),
    (["--skill-games", "0"], "--skill-games must be a positive number, not 0"),
    (["--weak", "joker"], "--weak: unknown Rutsmieter bot 'joker'; valid bots: "),
])
def test_rules_bad_input_is_one_line(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.setattr(A, "rule_effects", lambda *a, **k: pytest.fail("computed"))
    code, out, err = run(capsys, "analyze", "rules", "--strong", "tuned", *args,
                         "--out-dir", str(tmp_path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tutto-sim: error: {message}"), err


def test_rules_out_dir_is_checked_before_computing(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(A, "rule_effects", lambda *a, **k: pytest.fail("computed"))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, "analyze", "rules", "--strong", "tuned", "--out-dir", str(blocker))
    assert code == 2 and "cannot write there" in err


# -- analyze pieces --------------------------------------------------------------------------

PIECES_ARGS = ("analyze", "pieces", "--players", "2", "--bot", "first", "--games", "10000",
               "--positions", "200", "--position-games", "16", "--seed", "5", "--json")


@pytest.fixture(scope="module")
def pieces_json(tmp_path_factory):
    return json_on_one_and_two_threads(tmp_path_factory, PIECES_ARGS)


def test_pieces_json_keys_and_same_on_one_and_two_threads(pieces_json):
    d = pieces_json[0]
    assert without_run_facts(d) == without_run_facts(pieces_json[1])
    assert d["analysis"] == "pieces" and d["engine"] == "kernel" and d["players"] == 2
    out = d["first_piece_out"]
    assert [s["seat"] for s in out["seats"]] == [0, 1]
    for s in out["seats"]:
        assert set(s) == {"seat", "win_rate_with_piece_out", "win_rate_with_piece_out_ci95",
                          "win_rate_all_in_house", "win_rate_all_in_house_ci95", "value",
                          "value_ci95", "games"}
        assert s["value"] == pytest.approx(s["win_rate_with_piece_out"]
                                           - s["win_rate_all_in_house"], abs=1e-12)
    # without the piece both start from the plain start: seat rates add up to 1
    assert sum(s["win_rate_all_in_house"] for s in out["seats"]) == pytest.approx(1.0)
    cap = d["capture"]
    assert cap["positions_done"] == 200 == sum(b["positions"] for b in cap["bands"])
    assert [b["squares"] for b in cap["bands"]] == ["0-9", "10-19", "20-29", "30-39"]
    assert cap["sample_games"] >= 200


def test_the_first_piece_out_is_worth_something(pieces_json):
    out = pieces_json[0]["first_piece_out"]
    assert out["value"] - out["value_ci95"] > 0
    assert out["value"] == pytest.approx(np.mean([s["value"] for s in out["seats"]]), abs=1e-12)


def test_a_capture_costs_its_victim(pieces_json):
    cap = pieces_json[0]["capture"]
    assert cap["win_rate_loss"] - cap["win_rate_loss_ci95"] > 0


def test_piece_out_games_are_the_reference_engines():
    """The games from each start are reference games (seed, i) from that board."""
    rules = RutsmieterRules(players=2)
    res = A.piece_values(rules, "first", games=60, positions=1, position_games=1, seed=9)
    plain = [play_game(["first"] * 2, rules, 9, i).winner for i in range(60)]
    for j in range(2):
        pieces = [[-1] * 4, [-1] * 4]
        pieces[j][0] = 0
        board = Board(rules.seats, pieces)
        won = [play_game(["first"] * 2, rules, 9, i, board=board).winner for i in range(60)]
        row = res.piece_out[j]
        assert row.with_piece.mean == pytest.approx(np.mean(np.array(won) == j), abs=1e-12)
        assert row.without.mean == pytest.approx(np.mean(np.array(plain) == j), abs=1e-12)
        diff = (np.array(won) == j).astype(int) - (np.array(plain) == j)
        assert row.value.ci95 == pytest.approx(ci95(diff), rel=1e-9)


def _captures_by_reference(rules, seed, index):
    """(board before, capturer, victim, piece, square) of every capture of a
    reference game, found by replaying its log with the reference's own moves."""
    rec = play_game(["first"] * rules.players, rules, seed, index)
    board = Board.start(rules.seats)
    found = []
    for t in rec.log:
        if t.piece < 0:
            continue
        move = next(m for m in legal_moves(board, t.player, t.die, rules)
                    if m.piece == t.piece and m.end == t.end)
        if move.victim is not None:
            v, k = move.victim
            found.append((board.copy(), t.player, v, k, board.pieces[v][k]))
        apply_move(board, t.player, move)
    return rec, found


@pytest.mark.parametrize("players", [2, 4])
def test_capture_positions_are_the_reference_games_captures(players):
    rules = RutsmieterRules(players=players)
    player = A._Player(parse_bots("first", rules)[0], rules)
    for index in range(3):
        rec, expected = _captures_by_reference(rules, 4, index)
        assert len(expected) == sum(s["captures"] for s in rec.stats)
        got = A.capture_events(player.log(4, index), rules, index)
        assert len(got) == len(expected)
        for ev, (board, c, v, k, x) in zip(got, expected):
            assert ev.pieces.tolist() == board.pieces
            assert (ev.capturer, ev.victim, ev.piece, ev.square) == (c, v, k, x)


def test_capture_losses_follow_the_documented_sampling():
    """One capture per sample game picked by stream PICK_START + g, then games
    EVAL_START + e * M .. from the position with and without the victim's piece,
    the capturer to throw: the victims' mean loss, computed here from the
    reference engine."""
    rules = RutsmieterRules(players=2)
    seed, positions, m = 2, 3, 4
    res = A.piece_values(rules, "first", games=1, positions=positions, position_games=m,
                         seed=seed)
    losses, g = [], 0
    while len(losses) < positions:
        _, found = _captures_by_reference(rules, seed, A.SAMPLE_START + g)
        if found:
            board, c, v, k, x = found[Stream(seed, A.PICK_START + g).below(len(found))]
            home = board.copy()
            home.pieces[v][k] = -1
            e = len(losses)
            diff = [int(play_game(["first"] * 2, rules, seed, A.EVAL_START + e * m + i,
                                  board=board, first_player=c).winner == v)
                    - int(play_game(["first"] * 2, rules, seed, A.EVAL_START + e * m + i,
                                    board=home, first_player=c).winner == v)
                    for i in range(m)]
            losses.append(np.mean(diff))
        g += 1
    assert res.sample_games == g
    assert res.capture_all.mean == pytest.approx(np.mean(losses), abs=1e-12)
    assert res.capture_all.n == positions


def test_pieces_interrupted_keeps_the_first_part(capsys, tmp_path, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(A, "_sample_captures", interrupted)
    code, out, err = run(capsys, *PIECES_ARGS, "--games", "50", "--out-dir", str(tmp_path))
    assert code == 130
    d = json.loads(out)
    assert d["interrupted"] is True and len(d["first_piece_out"]["seats"]) == 2
    assert d["capture"]["bands"] == [] and d["capture"]["positions_done"] == 0
    assert pd.read_csv(d["csv"])["interrupted"].all()


@pytest.mark.parametrize("args,message", [
    (["--game", "macke"], "Berliner Macke has no 'pieces' analysis; it is an analysis of "
                          "Rutsmieter (--game rutsmieter)"),
    (["--players", "5"], "--players must be 2, 3 or 4 for Rutsmieter, not 5"),
    (["--positions", "0"], "--positions must be a positive number, not 0"),
    (["--bot", "weights:/nonexistent.json"], "--bot: bot 'weights:/nonexistent.json': "),
])
def test_pieces_bad_input_is_one_line(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.setattr(A, "piece_values", lambda *a, **k: pytest.fail("computed"))
    code, out, err = run(capsys, "analyze", "pieces", *args, "--out-dir", str(tmp_path))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tutto-sim: error: {message}"), err


def test_rules_with_a_small_expert_is_a_direct_tournament(capsys, tmp_path):
    """With the expert as the strong bot and a small rollout budget the skill
    figures of the defaults are those of a direct tournament."""
    code, out, err = run(capsys, "analyze", "rules", "--players", "2", "--games", "20",
                         "--strong", "expert:8", "--skill-games", "6", "--seed", "4", "--json",
                         "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["strong"] == "expert:8" and d["weak"] == "random"
    rules = RutsmieterRules(players=2)
    res = run_tournament(parse_bots("expert:8,random", rules), 2, 6, 4, GameConfig(rules))
    win = {b.name: b.win for b in res.bot_stats()}
    r = d["rule_sets"]["defaults"]
    assert r["strong_win_rate"] == pytest.approx(win["expert:8"].mean, abs=1e-12)
    assert r["weak_win_rate"] == pytest.approx(win["random"].mean, abs=1e-12)


def test_the_default_skill_tournament_is_tuned_against_random_in_20000_games():
    """The kernel bots, so that the CIs (about ±0.01) are narrower than the effects."""
    import inspect

    from tutto_sim.rutsmieter.analysis_cli import analyze_rules

    for f in (analyze_rules, A.rule_effects):
        p = inspect.signature(f).parameters
        assert (p["strong"].default, p["weak"].default, p["skill_games"].default) == (
            "tuned", "random", 20_000)


def test_rules_text_marks_a_difference_within_its_ci(capsys, tmp_path, rules_json):
    """The table's differences to the first row carry a ``*`` ("no measurable
    difference", the note under the table) exactly where the JSON's
    ``…_measurable`` is false (the same games say so instead)."""
    code, out, err = run(capsys, *RULES_ARGS[:-1], "--out-dir", str(tmp_path))
    assert code == 0, err
    d = rules_json[0]["rule_sets"]
    marked = {True: 0, False: 0}
    for name, r in d.items():
        for k in ("throws_vs_defaults", "turns_vs_defaults", "skill_spread_vs_defaults"):
            if name != "defaults" and not (r[k] == 0 and r[f"{k}_ci95"] == 0):
                marked[r[f"{k}_measurable"]] += 1
    assert marked[False] > 0  # 150 and 100 games: some effect is inside its CI
    tables = out.split("CSV:")[0]
    note = "*: no measurable difference (the difference's 95% CI holds 0)"
    assert tables.count("*") == marked[False] + tables.count(note)  # a * per cell, and notes
    assert 1 <= tables.count(note) <= 2 and "0 (the same games)" in out

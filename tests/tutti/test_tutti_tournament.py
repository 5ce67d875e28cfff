"""Tutti in the registry and the shared tournament: every seating plays, a
pair's win counts for both partners, the kernel and the reference engine give
the same JSON, the same result on 1 and 2 threads, Tutti's own figures read
off the reference matches, and one-line refusals."""

import json

import numpy as np
import pytest
from conftest import run_cli as run
from scipy.stats import binomtest

from tutto_sim.core import registry
from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import make_lineups, run_tournament, seat_bots
from tutto_sim.tutti import kernel as K
from tutto_sim.tutti.bots import VALID_BOTS
from tutto_sim.tutti.game import GameConfig
from tutto_sim.tutti.reference import play_match
from tutto_sim.tutti.rules import TuttiRules

VOLATILE = ("seconds", "threads", "csv", "engine")


def test_registry_resolves_tutti():
    entry = registry.by_name("Tutti")
    assert entry.name == "tutti" and entry.rules_type is TuttiRules
    assert [f.name for f in entry.rule_flags] == ["pairs", "must_answer_trump", "allow_tute",
                                                  "tute_wins", "hands"]


def tournament_json(capsys, tmp_path, *args):
    code, out, err = run(capsys, "tournament", "--game", "tutti", "--json",
                         "--out-dir", str(tmp_path), *args)
    assert code == 0, err
    return json.loads(out)


def without(d, keys=VOLATILE):
    return {k: v for k, v in d.items() if k not in keys}


def test_every_match_is_the_reference_match_and_the_figures_follow():
    """Bots random and heuristic at 3 players, 3 hands to win: the win rates,
    points per hand, hands, ties and Tutes computed here from the reference
    matches of each seating."""
    rules = TuttiRules(players=3, hands=3)
    bots = parse_bots("random,heuristic", rules)
    lineups = make_lineups(2, 3, all_seatings=True)
    games = 2 * len(lineups) * 3
    res = run_tournament(bots, 3, games, 4, GameConfig(rules), engine="reference")
    wins, seats, points, dealt = np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(2)
    hands = ties = tutes = 0
    for i in range(games):
        seating = seat_bots(i, 1, lineups)[0]
        rec = play_match([bots[b] for b in seating], rules, 4, i)
        hands += len(rec.hands)
        ties += sum(h.winner < 0 for h in rec.hands)
        tutes += sum(h.tute >= 0 for h in rec.hands)
        for j, b in enumerate(seating):
            seats[b] += 1
            wins[b] += rec.winner == j
            points[b] += sum(h.scores[j] for h in rec.hands)
            dealt[b] += len(rec.hands)
    d = res.to_dict()
    for b, name in enumerate(("random", "heuristic")):
        assert d["bots"][name]["games"] == seats[b]
        assert d["bots"][name]["win_rate"] == pytest.approx(wins[b] / seats[b])
        assert d["bots"][name]["points_per_hand"] == pytest.approx(points[b] / dealt[b])
    assert d["hands"] == hands and d["replayed_ties"] == ties and d["tute_hands"] == tutes
    assert d["mean_hands"] == pytest.approx(hands / games)
    assert d["tied_hand_share"] == pytest.approx(ties / hands)


def test_a_pairs_win_counts_for_both_partners():
    rules = TuttiRules(players=4, pairs=True)
    res = run_tournament(parse_bots("heuristic,heuristic,heuristic,heuristic", rules), 4, 48, 2,
                         GameConfig(rules), engine="reference")
    d = res.to_dict()
    rates = d["seat_win_rates"]
    # partners opposite win together: seats 0 and 2 alike, 1 and 3 alike, the two pairs sum to 1
    assert rates[0] == rates[2] and rates[1] == rates[3]
    assert rates[0] + rates[1] == pytest.approx(1.0)
    assert res.fair_share() == 0.5
    assert d["first_player_advantage"] == pytest.approx(rates[0] - 0.5)
    bots = parse_bots(["heuristic"] * 4, rules)
    wins = sum(play_match(bots, rules, 2, i).winner == 0 for i in range(48))
    assert rates[0] == pytest.approx(wins / 48)
    assert sum(b["win_rate"] for b in d["bots"].values()) == pytest.approx(2.0)


def rare_window(rules, names, seed):
    """The first match (from the kernel) where a Tute ended a hand and one
    where a tied hand was replayed: the windows both engines then play."""
    res = K.simulate(names, rules, seed, 20_000)
    return int(np.flatnonzero(res.tutes > 0)[0]), int(np.flatnonzero(res.hands > res.wins.sum(1))[0])


@pytest.mark.parametrize("table,options", [
    ("2", ("--must-answer-trump", "on", "--hands", "2")),
    ("3", ("--tute-wins", "hand", "--hands", "3")),
    ("4", ("--allow-tute", "off",)),
    ("4p", ("--hands", "2")),
])
def test_kernel_and_reference_give_the_same_json(capsys, tmp_path, table, options):
    n = table[0]
    pairs = ("--pairs", "on") if table == "4p" else ()
    args = ("--players", n, *pairs, "--bots", "random,heuristic", "--seed", "9", *options)
    games = 2 * {"2": 2, "3": 6, "4": 6, "4p": 6}[table] * int(n)
    outs = []
    for engine in ("kernel", "reference"):
        d = tournament_json(capsys, tmp_path, *args, "--games", str(games), "--engine", engine)
        assert d["engine"] == engine and d["games"] == games
        outs.append(without(d))
    assert outs[0] == outs[1]


def test_kernel_and_reference_agree_on_tutes_and_ties():
    rules = TuttiRules(players=3, hands=2, tute_wins="hand")
    tute, tie = rare_window(rules, ["heuristic"] * 3, 3)
    for start in (tute, tie):
        kern, ref = (run_tournament(parse_bots("heuristic", rules), 3, 4, 3, GameConfig(rules),
                                    engine=e, start=start) for e in ("kernel", "reference"))
        assert without(kern.to_dict()) == without(ref.to_dict())
        assert ref.summary.tutes >= (start == tute) and ref.summary.ties >= (start == tie)


def test_same_seed_same_json_on_one_and_two_threads(capsys, tmp_path):
    args = ("--players", "4", "--bots", "random,heuristic", "--games", "2400", "--seed", "7")
    one = tournament_json(capsys, tmp_path, *args, "--threads", "1")
    two = tournament_json(capsys, tmp_path, *args, "--threads", "2")
    assert without(one) == without(two)


def test_the_tournament_json(capsys, tmp_path):
    d = tournament_json(capsys, tmp_path, "--players", "4", "--pairs", "on", "--bots",
                        "heuristic,random", "--games", "1200", "--seed", "5")
    assert d["game"] == "tutti-pairs" and d["engine"] == "kernel"
    assert d["rules"] == {"game": "tutti", "players": 4, "pairs": True,
                          "must_answer_trump": False, "allow_tute": True, "tute_wins": "match",
                          "hands": 1}
    # two bots at four seats: every distinct seating of a, b, a, b (4! / (2! 2!) = 6)
    assert len(d["lineups"]) == 6
    for b in d["bots"].values():
        assert {"win_rate", "ci95", "games", "points_per_hand", "points_per_hand_ci95"} <= set(b)
        assert b["games"] == 2 * 1200 and "points_per_turn" not in b
    assert len(d["seat_win_rates"]) == 4
    assert d["hands"] == round(d["mean_hands"] * 1200)
    assert set(d["game_ends"]) == {"won", "tute", "cap"}
    assert 0 <= d["tute_hand_share"] < 0.05 and 0 <= d["tied_hand_share"] < 0.05
    # hand shares are chances: Wilson intervals of the counted hands (scipy), inside [0, 1]
    for share, hits in (("tute_hand_share", d["tute_hands"]), ("tied_hand_share", d["replayed_ties"])):
        ci = binomtest(hits, d["hands"]).proportion_ci(method="wilson")
        assert (d[f"{share}_low"], d[f"{share}_high"]) == pytest.approx((ci.low, ci.high), abs=1e-12)
        assert d[f"{share}_interval"] == "wilson-95"


def test_text_output(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--game", "tutti", "--bots", "heuristic,random",
                         "--games", "200", "--out-dir", str(tmp_path))
    assert code == 0, err
    assert "Tutti tournament" in out and "points per hand" in out and "a Tute ended" in out
    assert "points per turn" not in out and "2 players; first to 1 hand wins" in out


@pytest.mark.parametrize("args,message", [
    (["--pairs", "on"], "--pairs on needs --players 4, not 2"),
    (["--pairs", "on", "--players", "3"], "--pairs on needs --players 4, not 3"),
    (["--hands", "0"], "--hands must be 1..5 (hands to win the match), not 0"),
    (["--hands", "6"], "--hands must be 1..5 (hands to win the match), not 6"),
    (["--players", "5"], "--players must be 2, 3 or 4 for Tutti, not 5"),
    (["--bots", "heuristic,clever"], f"unknown Tutti bot 'clever'; {VALID_BOTS}"),
    (["--pairs", "yes"], "--pairs must be on or off, not 'yes'"),
    (["--tute-wins", "game"], "--tute-wins must be one of match, hand, not 'game'"),
    (["--must-leave-house", "off"], "--must-leave-house does not apply to --game tutti"),
    (["--engine", "kernel", "--bots", "py:tutto_sim.tutti.bots:HeuristicBot"],
     "bots heuristic play only in the reference engine; use --engine reference or auto"),
])
def test_one_line_refusals(capsys, tmp_path, args, message):
    base = {"--bots": "random,heuristic"}
    for k in args[::2]:
        base.pop(k, None)
    flat = [x for kv in base.items() for x in kv]
    code, out, err = run(capsys, "tournament", "--game", "tutti", "--games", "10",
                         "--out-dir", str(tmp_path), *flat, *args)
    assert code == 2 and out == ""
    assert err.strip() == f"tutto-sim: error: {message}"


@pytest.mark.parametrize("game,flag", [("macke", ["--hands", "3"]), ("tutto", ["--pairs", "on"]),
                                       ("rutsmieter", ["--allow-tute", "off"])])
def test_tutti_flags_are_refused_by_other_games(capsys, tmp_path, game, flag):
    code, _, err = run(capsys, "tournament", "--game", game, "--bots", "random,random",
                         "--games", "10", "--out-dir", str(tmp_path), *flag)
    assert code == 2
    assert err.strip() == f"tutto-sim: error: {flag[0]} does not apply to --game {game}"


def test_a_python_bot_plays_in_the_reference_engine(capsys, tmp_path):
    d = tournament_json(capsys, tmp_path, "--bots", "py:tutto_sim.tutti.bots:HeuristicBot,random",
                        "--games", "20", "--seed", "3")
    assert d["engine"] == "reference" and d["illegal_actions"] == {}
    assert sum(b["win_rate"] for b in d["bots"].values()) == pytest.approx(1.0)


@pytest.mark.parametrize("args", [
    ["optimize", "--game", "tutti"],
    ["analyze", "threshold", "--game", "tutti"],
    ["analyze", "pieces", "--game", "tutti"],
])
def test_commands_tutti_lacks_say_so_in_one_line(capsys, tmp_path, args):
    code, _, err = run(capsys, *args)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tutto-sim: error:"), err


def test_the_help_names_every_game(capsys):
    code, out, err = run(capsys, "--help")
    assert code == 0, err
    text = " ".join(out.split())
    for entry in registry.entries():
        assert entry.title in text, entry.title
    assert "Volle Lotte" in text and "Tutti rules" not in text
    code, out, err = run(capsys, "tournament", "--help")
    assert "Tutti rules" in out and "--must-answer-trump" in out


def test_every_rule_flag_and_json_key_is_documented():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "tutti.md").read_text()
    for f in registry.by_name("tutti").rule_flags:
        assert f"`--{f.name.replace('_', '-')} " in doc and f"`{f.name}`" in doc, f.name
    for key in ("points_per_hand", "mean_hands", "mean_ties", "mean_tutes", "tute_hand_share",
                "tied_hand_share", "replayed_ties", "lead_advantage", "uses_per_hand",
                "points_value", "win_rate_value", "leader_hands_won", "p_dealt_tute",
                "exact_fraction", "table_sampled_ci95"):
        assert key in doc, key
    for command in ("analyze lead", "analyze exchange", "analyze declare", "analyze trump",
                    "analyze tute"):
        assert command in doc, command

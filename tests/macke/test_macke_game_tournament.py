"""Berliner Macke / Volle Lotte tournaments: win rates, seats, the command line."""

import json
import time
from pathlib import Path

import pytest
from conftest import result_file
from conftest import run_cli as run

from tutto_sim.core.bots import parse_bots
from tutto_sim.core.tournament import run_tournament
from tutto_sim.macke.bots import VALID_BOTS
from tutto_sim.macke.game import GameConfig
from tutto_sim.macke.policy import MackeTablePolicy
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import solve_macke

POLICIES = Path(__file__).resolve().parents[2] / "tutto_sim" / "data" / "policies"


def test_identical_bots_share_the_wins_evenly():
    # cautious is threshold:300 under the default rules: the same decisions
    rules = MackeRules()
    res = run_tournament(parse_bots("cautious,threshold:300", rules), 2, 30_000, 3, GameConfig(rules))
    a, b = res.bot_stats()
    assert abs(a.win.mean - 0.5) < a.win.ci95 and abs(b.win.mean - 0.5) < b.win.ci95
    assert a.win.mean + b.win.mean == pytest.approx(1.0)


def test_three_symmetric_bots_get_a_third_each():
    rules = MackeRules.preset("volle-lotte")
    res = run_tournament(parse_bots("optimal,optimal,optimal", rules), 3, 30_000, 4, GameConfig(rules))
    for b in res.bot_stats():
        assert abs(b.win.mean - 1 / 3) < b.win.ci95, b


def test_one_bot_in_every_seat_wins_exactly_its_share():
    rules = MackeRules()
    res = run_tournament(parse_bots("optimal", rules), 4, 3000, 2, GameConfig(rules))
    (b,) = res.bot_stats()
    assert b.games == 12_000 and b.win.mean == pytest.approx(1 / 4)
    assert sum(e.mean for e in res.seat_rates()) == pytest.approx(1.0)
    assert res.game == "macke" and res.end_counts() == {"nachwerfen": 3000, "instant-win": 0, "cap": 0}


def test_the_tournament_of_the_issue(capsys, tmp_path):
    t0 = time.perf_counter()
    code, out, err = run(capsys, "tournament", "--game", "macke", "--bots", "optimal,cautious,threshold:300",
                         "--players", "3", "--games", "100000", "--seed", "1", "--json",
                         "--out-dir", str(tmp_path))
    seconds = time.perf_counter() - t0
    assert code == 0, err
    d = json.loads(out)
    assert d["game"] == "macke" and d["engine"] == "kernel" and d["games"] == 100_000
    assert set(d["bots"]) == {"optimal", "cautious", "threshold:300"}
    for b in d["bots"].values():
        assert {"win_rate", "ci95", "games", "mean_final_score", "points_per_turn"} <= set(b)
        assert b["games"] == 100_000
    opt, cau = d["bots"]["optimal"], d["bots"]["cautious"]
    assert opt["win_rate"] - opt["ci95"] > cau["win_rate"] + cau["ci95"]
    assert d["ranking"][0] == "optimal"
    assert len(d["seat_win_rates"]) == 3 and sum(d["seat_win_rates"]) == pytest.approx(1.0)
    assert d["game_ends"] == {"nachwerfen": 100_000, "instant-win": 0, "cap": 0}
    assert d["rules"]["target"] == 5000 and d["mean_turns"] > 20
    assert d["csv"] == str(result_file(tmp_path, "tournament-macke-3p-seed1"))
    assert seconds < 60


def test_same_seed_same_table_on_1_and_2_threads(capsys, tmp_path):
    args = ("tournament", "--game", "volle-lotte", "--bots", "optimal,cautious,reckless", "--players", "2",
            "--games", "30000", "--seed", "8", "--json", "--out-dir", str(tmp_path))
    outs = []
    for threads in ("1", "2"):
        code, out, err = run(capsys, *args, "--threads", threads)
        assert code == 0, err
        d = json.loads(out)
        for volatile in ("seconds", "threads"):
            d.pop(volatile)
        outs.append(d)
    assert outs[0] == outs[1]
    assert "pairwise" in outs[0] and outs[0]["rules"]["variant"] == "volle-lotte"
    assert outs[0]["rules"]["target"] == 6000


def test_text_output(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--game", "macke", "--bots", "optimal,endgame,cautious",
                         "--games", "3000", "--out-dir", str(tmp_path))
    assert code == 0, err
    for needle in ("Berliner Macke tournament", "win rate", "95% CI", "by seat", "pairwise",
                   "first-player advantage", "mean game length", "nachwerfen", "CSV"):
        assert needle in out


def test_variant_and_rule_flags(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--game", "macke", "--variant", "instant-win",
                         "--min-score", "200", "--throws", "4", "--bust", "zero", "--target", "3000",
                         "--win-value", "1000", "--bots", "optimal,cautious", "--games", "20000",
                         "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    r = d["rules"]
    assert (r["variant"], r["min_score"], r["throws"], r["bust"], r["target"], r["win_value"]) == \
        ("instant-win", 200, 4, "zero", 3000, 1000)
    assert d["game_ends"]["instant-win"] > 0
    assert d["game_ends"]["instant-win"] + d["game_ends"]["nachwerfen"] == 20_000
    assert d["csv"] == str(result_file(tmp_path, "tournament-macke-instant-win-2p-seed1"))


@pytest.mark.parametrize("args, needle", [
    (("--game", "macke", "--x2-scope", "card"), "--x2-scope does not apply to --game macke"),
    (("--game", "tutto", "--variant", "jackpot"), "--variant does not apply to --game tutto"),
    (("--game", "volle-lotte", "--variant", "jackpot"), "takes no --variant"),
    (("--game", "macke", "--min-score", "275"), "--min-score"),
    (("--game", "macke", "--throws", "0"), "--throws"),
    (("--game", "pig",), "--game must be one of tutto, macke, volle-lotte, rutsmieter"),
    (("--game", "macke", "--bots", "random", "--engine", "kernel"), "reference"),
])
def test_bad_options(capsys, tmp_path, args, needle):
    code, out, err = run(capsys, "tournament", *args, "--games", "10", "--out-dir", str(tmp_path))
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("spec", ["threshold:abc", "threshold:300:300:all", "threshold:320",
                                  "wizard", "optimal,,cautious", "py:nomodule:Bot"])
def test_bad_bot_spec_is_one_line_naming_the_valid_macke_bots(capsys, tmp_path, spec):
    code, out, err = run(capsys, "tournament", "--game", "macke", "--bots", spec, "--games", "10",
                         "--out-dir", str(tmp_path))
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert VALID_BOTS in err and "Traceback" not in err + out


@pytest.mark.parametrize("file,words", [
    ("missing.json", "cannot read policy file missing.json: No such file or directory"),
    (POLICIES / "tutto-default.json", "is for game 'tutto'"),
    (POLICIES / "volle-lotte-default.json", "was solved for other rules"),
])
def test_a_policy_file_that_cannot_serve_is_one_line_about_the_file(capsys, tmp_path, file, words):
    """The spec is right, the file is not: the line says what is wrong with it,
    without the list of valid bots (issue 35)."""
    code, out, err = run(capsys, "tournament", "--game", "macke", "--bots", f"table:{file}",
                         "--games", "10", "--out-dir", str(tmp_path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"tutto-sim: error: bot 'table:{file}': ") and words in err
    assert "valid bots" not in err and "Traceback" not in err


def test_table_file_plays_like_optimal_whatever_the_target(capsys, tmp_path):
    path = tmp_path / "macke.json"
    MackeTablePolicy.from_solution(solve_macke(MackeRules())).write(path)
    code, out, err = run(capsys, "tournament", "--game", "macke", "--bots", f"table:{path},optimal",
                         "--target", "3000", "--games", "20000", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    for b in d["bots"].values():  # the same decisions: half the wins each
        assert abs(b["win_rate"] - 0.5) < b["ci95"]
    assert d["bots"][f"table:{path}"]["points_per_turn"] == pytest.approx(431.48, abs=3)


BAD_BOT = '''
class Bot:
    name = "liar"

    def act(self, decision):
        return "bank" if decision.kind == "keep" else decision.legal[0]
'''


def test_a_bot_with_illegal_actions_is_reported_and_the_tournament_goes_on(capsys, tmp_path):
    path = tmp_path / "liar.py"
    path.write_text(BAD_BOT)
    code, out, err = run(capsys, "tournament", "--game", "macke", "--bots", f"py:{path}:Bot,cautious,random",
                         "--players", "3", "--games", "30", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["engine"] == "reference" and d["games"] == 30
    assert d["illegal_actions"]["liar"]["count"] > 0
    assert "bot liar returned an illegal action 'bank' at a keep decision" in d["illegal_actions"]["liar"]["first"]
    assert d["bots"]["liar"]["win_rate"] < d["bots"]["cautious"]["win_rate"]
    assert "warning: bot liar returned an illegal action" in err and "counted as a bust" in err


def test_reference_and_kernel_tournaments_agree(capsys, tmp_path):
    outs = []
    for engine in ("kernel", "reference"):
        code, out, err = run(capsys, "tournament", "--game", "volle-lotte", "--bots", "optimal,endgame",
                             "--players", "3", "--games", "90", "--seed", "6", "--engine", engine,
                             "--json", "--out-dir", str(tmp_path))
        assert code == 0, err
        d = json.loads(out)
        assert d["engine"] == engine
        outs.append({k: d[k] for k in ("bots", "seat_win_rates", "mean_turns", "game_ends")})
    assert outs[0] == outs[1]
    assert outs[0]["bots"]["optimal"]["games"] == 180  # lineup optimal, endgame, optimal


def test_analyze_seats_macke(capsys, tmp_path):
    code, out, err = run(capsys, "analyze", "seats", "--game", "macke", "--players", "2,4",
                         "--games", "4000", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["game"] == "macke" and set(d["players"]) == {"2", "4"}
    for n, row in d["players"].items():
        assert len(row["seat_win_rates"]) == int(n)
        assert sum(row["seat_win_rates"]) == pytest.approx(1.0)
        assert row["instant_win_share"] == 0
    assert d["csv"] == str(result_file(tmp_path, "seats-macke-seed1"))


def test_analyze_threshold_macke(capsys):
    code, out, err = run(capsys, "analyze", "threshold", "--game", "macke", "--games", "4000",
                         "--search-games", "1000", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["game"] == "macke" and d["best_threshold"] in range(200, 1001, 50)
    assert d["turn_ev"]["optimal"] == pytest.approx(431.48, abs=0.01)
    assert d["turn_ev"]["threshold:300"] == pytest.approx(246.46, abs=0.01)
    assert d["optimal_win_rate"] > 0.7

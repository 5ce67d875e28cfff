"""``tutto-sim ladder`` and its rating fit (``core.ladder``), on answers known
independently: win counts made exactly from known ratings by the model's own
formula (the fit must give those ratings back), counts drawn at random from
known ratings (their CIs must hold them about 95% of the time), a bot
against itself (equal ratings, 50% head to head), and bots whose order is
not in doubt. The time per decision (``core.api.timing``) is checked on a
bot whose decisions are counted."""

from __future__ import annotations

import itertools
import json
import math
import time
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import run_cli

from tutto_sim.core.api import DecisionTimes, checked_act, timed, timing
from tutto_sim.core.blocks import SHARE
from tutto_sim.core.ladder import ELO, Outcomes, fit, ladder_games, pairs_per_cycle, seat_sides
from tutto_sim.core.tournament import make_lineups

#: Known ratings on the Elo scale, mean 0.
KNOWN = np.array([180.0, 60.0, -50.0, -190.0])


def _luce(r: np.ndarray) -> np.ndarray:
    """P(each side wins) for side strengths ``r`` (model units)."""
    e = np.exp(r - r.max())
    return e / e.sum()


def _tables(players: int, r: np.ndarray, total: float, draw=None):
    """Every table of ``players`` of the bots, one bot per side: (A, W) with
    ``total`` games each, wins exact from the model (or drawn by ``draw``)."""
    m = len(r)
    a, w = [], []
    for table in itertools.combinations(range(m), players):
        x = np.zeros((players, m))
        x[np.arange(players), table] = 1.0
        p = _luce(r[list(table)])
        a.append(x)
        w.append(total * p if draw is None else draw.multinomial(int(total), p).astype(float))
    return np.array(a), np.array(w)


def test_a_constructed_win_matrix_gives_its_ratings_back():
    r = KNOWN / ELO
    a, w = _tables(2, r, 1e6)
    f = fit(a, w, prior=0)
    assert np.abs(ELO * f.r - KNOWN).max() < 1e-6
    # the CI of a million games a pair: a few Elo points
    se = ELO * np.sqrt(np.diag(f.cov))
    assert (se > 0.1).all() and (se < 2).all(), se


def test_the_luce_fit_at_three_and_four_seats_gives_its_ratings_back():
    r = KNOWN / ELO
    for players in (3, 4):
        a, w = _tables(players, r, 1e6)
        f = fit(a, w, prior=0)
        assert np.abs(ELO * f.r - KNOWN).max() < 1e-6, players


def test_partners_a_sides_strength_is_the_sum_of_its_two_ratings():
    """Four bots in pairs (seats 0, 2 against 1, 3), every pairing: the sides'
    sums identify every rating."""
    r = KNOWN / ELO
    a, w = [], []
    for left in ((0, 1), (0, 2), (0, 3)):
        right = tuple(sorted(set(range(4)) - set(left)))
        x = np.zeros((2, 4))
        x[0, list(left)] = x[1, list(right)] = 1.0
        a.append(x)
        w.append(1e6 * _luce(np.array([r[list(left)].sum(), r[list(right)].sum()])))
    f = fit(np.array(a), np.array(w), prior=0)
    assert np.abs(ELO * f.r - KNOWN).max() < 1e-6


def test_ratings_drawn_at_random_lie_in_their_cis_about_95_percent_of_the_time():
    r = KNOWN / ELO
    rng = np.random.default_rng(2026)
    inside = trials = 0
    for players in (2, 3):
        for _ in range(40):
            a, w = _tables(players, r, 400, rng)
            f = fit(a, w)
            se = ELO * np.sqrt(np.diag(f.cov))
            inside += int((np.abs(ELO * f.r - KNOWN) <= 1.96 * se).sum())
            trials += len(KNOWN)
    # 320 intervals at 95%: 304 expected, sd 3.9
    assert 0.90 <= inside / trials <= 0.99, (inside, trials)


def test_a_bot_that_wins_every_game_gets_a_finite_rating():
    a, w = _tables(2, np.zeros(3), 50)
    w[:, 0], w[:, 1] = 50, 0  # the first of every pair wins all: bot 0 everything, bot 2 nothing
    f = fit(a, w)
    assert np.isfinite(f.r).all() and np.isfinite(f.cov).all()
    assert f.r[0] > f.r[1] > f.r[2]
    assert ELO * (f.r[0] - f.r[2]) > 400


def _batch(seats, share):
    return SimpleNamespace(share=np.array(share, np.int64)), np.array(seats, np.int64)


def test_outcomes_count_ties_as_shares_and_leave_out_games_no_one_won():
    out = Outcomes(3, 3, seat_sides(3, 0, False))
    out.add(*_batch([[0, 1, 2], [0, 1, 2], [1, 2, 0], [2, 0, 1]],
                    [[SHARE, 0, 0], [SHARE // 2, SHARE // 2, 0], [0, 0, 0], [0, 0, SHARE]]))
    assert out.games == 4 and out.decided() == 3
    a, w = out.tables()
    assert w.sum() == 3
    games, wins = out.head_to_head()
    # 0 against 1: game 1 (0 wins), game 2 (a tie of the two: half), game 4 (1 wins)
    assert games[0, 1] == 3 and wins[0, 1] == pytest.approx(1.5)
    # 0 against 2: game 1 (0 wins), game 2 (0 has half, 2 nothing: all 0's); game 4 neither
    assert games[0, 2] == 2 and wins[0, 2] == pytest.approx(2.0)


def test_outcomes_of_partners_count_the_side_once():
    out = Outcomes(2, 4, seat_sides(4, 2, True))
    out.add(*_batch([[0, 1, 0, 1], [1, 0, 1, 0]], [[SHARE, 0, SHARE, 0], [SHARE, 0, SHARE, 0]]))
    a, w = out.tables()
    assert a.shape == (2, 2, 2) and w.sum() == 2  # two games, one win each, not two
    games, wins = out.head_to_head()
    assert games[0, 1] == 2 and wins[0, 1] == 1


def test_the_games_are_whole_rotations_with_each_pair_about_k_times():
    for bots, players, seatings in ((3, 2, False), (4, 3, False), (5, 4, False), (4, 2, True),
                                    (4, 4, True), (2, 3, False)):
        lineups = make_lineups(bots, players, seatings)
        games, cycles, meets = ladder_games(lineups, bots, 400)
        assert games == cycles * len(lineups) * players
        assert cycles * meets >= 400 > (cycles - 1) * meets
        assert meets == pairs_per_cycle(lineups, bots) > 0
    # five bots at tables of four: each pair in C(3, 2) = 3 of the 5 tables, 4 rotations
    assert pairs_per_cycle(make_lineups(5, 4), 5) == 12


# -- the timer -------------------------------------------------------------------------------

class _Sleeper:
    def __init__(self, name, seconds):
        self.name, self.seconds = name, seconds

    def act(self, decision):
        time.sleep(self.seconds)
        return decision


def test_the_timer_records_each_decision_once_and_costs_nothing_outside():
    bot = _Sleeper("slow", 0.002)
    legal = lambda a: a  # noqa: E731
    assert checked_act(bot, 1, legal, str) == (1, None)  # outside timing: nothing recorded
    with timing() as times:
        for _ in range(20):
            checked_act(bot, 1, legal, str)
        wrapper = SimpleNamespace(name="slow", act=lambda d: checked_act(bot, d, legal, str)[0])
        checked_act(wrapper, 1, legal, str)  # a wrapper and the bot inside: one decision
    assert times.decisions("slow") == 21
    median = times.quantile_ms("slow", 0.5)
    assert 1.9 <= median < 4.0, median  # within a bin and sleep's slack
    assert times.quantile_ms("other", 0.5) is None


def test_time_histograms_merge_exactly_and_read_quantiles_within_a_bin():
    a, b = DecisionTimes(), DecisionTimes()
    values = np.geomspace(1e-4, 1e-1, 1001)
    for k, v in enumerate(values):
        (a if k % 2 else b).add("x", float(v))
    a.merge(b)
    assert a.decisions("x") == 1001
    for q in (0.5, 0.95):
        true = float(np.quantile(values, q)) * 1000
        assert abs(math.log10(a.quantile_ms("x", q) / true)) < 1 / 20, q
    assert timed("x", lambda d: d + 1, 1) == 2


@pytest.mark.parametrize("game, specs", [("tutto", "cautious,reckless"), ("macke", "optimal,cautious"),
                                         ("rutsmieter", "first,random"), ("tutti", "heuristic,random")])
def test_the_reference_engine_times_every_bot_and_the_kernel_none(game, specs):
    """Every game's reference engine asks its bots through ``core.api`` (the
    built-in bots of the kernel too, when they play there)."""
    from tutto_sim.core import registry
    from tutto_sim.core.bots import parse_bots
    from tutto_sim.core.tournament import run_tournament

    hooks = registry.by_name(game).hooks
    rules = hooks.table_rules(registry.by_name(game).rules_type(), 2)
    bots = parse_bots(specs, rules)
    ref = run_tournament(bots, 2, 4, 1, hooks.config(rules), "reference", timed=True)
    assert all(ref.decision_times.decisions(b) >= 4 for b in specs.split(",")), \
        ref.decision_times.counts.keys()
    ker = run_tournament(bots, 2, 4, 1, hooks.config(rules), "kernel", timed=True)
    assert ker.decision_times is None
    assert (ref.sums.bot == ker.sums.bot).all()  # the same games either way


# -- the command -----------------------------------------------------------------------------

KEYS = {"ratings", "matrix", "ms_per_decision", "model", "game", "players", "seed", "games",
        "reproducible", "ran_on"}
#: What depends on the machine, not on the games.
RUN_KEYS = ("ms_per_decision", "seconds", "ran_on", "timing")


def _ladder(capsys, *args):
    code, out, err = run_cli(capsys, "ladder", *args, "--json")
    assert code == 0, err
    d = json.loads(out)
    assert KEYS <= set(d), sorted(KEYS - set(d))
    return d


def _games(d):
    return {k: v for k, v in d.items() if k not in RUN_KEYS}


@pytest.mark.parametrize("game, bots, best", [
    ("tutto", "cautious,reckless,random", None),
    ("rutsmieter", "first,random,tuned", None),
    ("tutti", "heuristic,random", "heuristic"),
])
def test_every_game_has_a_ladder(capsys, game, bots, best):
    per_pair = 200 if game == "tutti" else 20
    d = _ladder(capsys, "--game", game, "--bots", bots, "--games-per-pair", str(per_pair))
    names = bots.split(",")
    assert set(d["ratings"]) == set(names) == set(d["matrix"]) == set(d["ms_per_decision"])
    assert d["game"] == game and d["players"] == 2 and d["reproducible"] is True
    assert all(d["matrix"][a][b]["games"] >= per_pair * 0.8 for a in names for b in names if a != b)
    assert abs(sum(x["rating"] for x in d["ratings"].values())) < 0.1  # mean 0
    if d["engine"] == "kernel":
        assert all(v == {"median": None, "p95": None, "decisions": None}
                   for v in d["ms_per_decision"].values())
    if best is not None:  # heuristic beats random by a wide margin
        worst = d["ranking"][-1]
        assert d["ranking"][0] == best and d["ratings"][best]["low"] > d["ratings"][worst]["high"]


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_a_bot_against_itself_rates_equal_and_wins_half(capsys, bot):
    d = _ladder(capsys, "--game", "tutti", "--bots", f"{bot},{bot}", "--games-per-pair", "400")
    one, two = d["ratings"][bot], d["ratings"][f"{bot}#2"]
    assert one["rating"] == pytest.approx(-two["rating"], abs=0.02)
    assert one["low"] <= 0 <= one["high"] and two["low"] <= 0 <= two["high"]
    cell = d["matrix"][bot][f"{bot}#2"]
    assert cell["low"] <= 0.5 <= cell["high"] and cell["games"] == 400


def test_three_and_four_players_and_pairs(capsys):
    for args in (("--players", "3"), ("--players", "4"), ("--players", "4", "--pairs", "on")):
        d = _ladder(capsys, "--game", "tutti", "--bots", "heuristic,random,random",
                    "--games-per-pair", "60", *args)
        assert d["ranking"][0] == "heuristic", args
        assert ("Luce" in d["model"]) == (args[-1] != "on"), d["model"]
        assert d["matrix"]["heuristic"]["random"]["win_rate"] > 0.5


def test_the_same_seed_gives_the_same_ladder_on_any_number_of_threads(capsys):
    args = ("--game", "tutti", "--bots", "heuristic,random,random", "--games-per-pair", "40",
            "--seed", "5")
    one = _ladder(capsys, *args, "--threads", "1")
    assert _games(_ladder(capsys, *args, "--threads", "2")) == _games(one)
    ref = _ladder(capsys, *args, "--engine", "reference")
    assert _games(ref) == {**_games(one), "engine": "reference"}
    assert _games(_ladder(capsys, *args, "--engine", "reference")) == _games(ref)
    assert all(v["decisions"] > 0 and 0 < v["median"] <= v["p95"]
               for v in ref["ms_per_decision"].values())


def test_the_chart_and_the_json_beside_it(capsys, tmp_path):
    d = _ladder(capsys, "--game", "tutti", "--bots", "heuristic,random", "--games-per-pair", "20",
                "--out", str(tmp_path))
    png = tmp_path / d["chart"].rsplit("/", 1)[-1]
    assert png.read_bytes()[:4] == b"\x89PNG" and png.name.startswith("ladder-tutti-2p-seed1-")
    assert json.loads(png.with_suffix(".json").read_text())["ratings"] == d["ratings"]
    d = _ladder(capsys, "--game", "tutti", "--bots", "heuristic,random", "--games-per-pair", "20",
                "--out", str(tmp_path / "mine.png"))
    assert (tmp_path / "mine.png").exists() and (tmp_path / "mine.json").exists()


@pytest.mark.parametrize("args, words", [
    (("--bots", "heuristic,nobot"), "valid bots"),
    (("--bots", "heuristic"), "at least 2 bots"),
    (("--bots", "heuristic,random", "--games-per-pair", "0"), "--games-per-pair"),
    (("--bots", "heuristic,random", "--games-per-pair", "100000000"), "--games-per-pair"),
    (("--bots", "heuristic,random", "--players", "9"), "--players"),
    (("--bots", "heuristic,random", "--out", "chart.pdf"), "--out"),
    (("--bots", "heuristic,random", "--engine", "fast"), "--engine"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, words):
    code, out, err = run_cli(capsys, "ladder", "--game", "tutti", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tutto-sim: error: ") and words in err, err


def test_the_text_says_the_model_the_seed_and_what_is_not_measured(capsys):
    code, out, err = run_cli(capsys, "ladder", "--game", "tutti", "--bots", "heuristic,random",
                             "--games-per-pair", "20", "--seed", "3")
    assert code == 0, err
    for words in ("Bradley-Terry", "seed 3", "Elo scale", "in the kernel: time per decision not "
                  "measured", "head to head", "same seed gives the same"):
        assert words in " ".join(out.split()), words


def test_on_a_cluster_the_times_come_back_with_each_chunk(capsys):
    pytest.importorskip("distributed")
    args = ("--game", "tutti", "--bots", "heuristic,random", "--games-per-pair", "120",
            "--engine", "reference")
    here = _ladder(capsys, *args)
    there = _ladder(capsys, *args, "--cluster", "local:1")
    assert there["ran_on"]["cluster"] == "local:1"
    assert _games(there) == _games(here)
    assert all(v["decisions"] == here["ms_per_decision"][k]["decisions"] and v["median"] > 0
               for k, v in there["ms_per_decision"].items())


def test_a_ladder_stopped_before_any_game_still_rates(capsys):
    """Ctrl-C before the first chunk: the prior alone, every rating 0, no matrix."""
    from tutto_sim.core.ladder import LadderResult

    res = LadderResult(["a", "b", "c"], 3, Outcomes(3, 3, seat_sides(3, 0, False)), "m", 10)
    assert [x.rating for x in res.ratings()] == [0.0, 0.0, 0.0]
    assert all(x.se > 0 for x in res.ratings()) and res.matrix() == {"a": {}, "b": {}, "c": {}}
    assert res.json()["games"] == 0


def test_ctrl_c_keeps_the_finished_games_and_says_so(capsys, monkeypatch, tmp_path):
    from tutto_sim.core import cluster

    def first_chunk_then_ctrl_c(work, total, chunk, take, progress=None, weight=1, python=False):
        take(0, chunk, work(0, chunk))
        raise KeyboardInterrupt

    monkeypatch.setattr(cluster, "run_chunks", first_chunk_then_ctrl_c)
    code, out, err = run_cli(capsys, "ladder", "--game", "tutti", "--bots", "heuristic,random",
                             "--games-per-pair", "400", "--engine", "reference", "--json",
                             "--out", str(tmp_path))
    assert code == 130
    d = json.loads(out)
    assert d["interrupted"] is True and d["games"] == 50 < d["games_planned"] == 400
    assert d["chart"].endswith("-interrupted.png") and d["ms_per_decision"]["random"]["decisions"]
    code, out, err = run_cli(capsys, "ladder", "--game", "tutti", "--bots", "heuristic,random",
                             "--games-per-pair", "400", "--engine", "reference")
    assert code == 130 and "interrupted: the ratings cover only the finished games" in out


def test_a_bot_on_the_clock_makes_the_ladder_say_it_is_not_reproducible(capsys, tmp_path):
    bot = tmp_path / "clock_bot.py"
    bot.write_text("class Clock:\n    budget_ms = 5\n\n    def act(self, obs):\n"
                   "        return obs.legal[0]\n")
    args = ("--game", "tutti", "--bots", f"py:{bot}:Clock,random", "--games-per-pair", "4")
    d = _ladder(capsys, *args)
    assert d["reproducible"] is False and d["engine"] == "reference"
    code, out, _ = run_cli(capsys, "ladder", *args)
    assert code == 0 and "decides by the clock (a time budget) are not reproducible" in " ".join(out.split())

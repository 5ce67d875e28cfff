"""Tutti's analyses: the exact chance of a dealt Tute against an enumeration of
where the Kings and Horses go, the sampled chance within its CI, the deals of
the analyses are the engines' deals, every figure read off reference hands and
matches, the same deals with and without the exchange or declaring, Ctrl-C
keeps finished tables, one-line refusals."""

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import result_file
from conftest import run_cli as run
from scipy.stats import binomtest

from tutto_sim.core.bots import parse_bots
from tutto_sim.tutti import analysis as A
from tutto_sim.tutti.bots import VALID_BOTS, make_bot
from tutto_sim.tutti.cards import rank
from tutto_sim.tutti.reference import deal, play_hand, play_match
from tutto_sim.tutti.rules import TuttiRules

TABLE = {2: (40, 8), 3: (36, 12), 4: (40, 10)}  # cards in the deck, cards per hand


def enumerate_tute(n):
    """P(a given player / some player holds four Kings or four Horses), by
    assigning each of the 4 Kings and 4 Horses to a hand (or the 2-player
    stock) and counting the ways to deal the other cards around them."""
    size, h = TABLE[n]
    caps = [h] * n + ([size - n * h] if size > n * h else [])

    def ways(ks):
        return math.factorial(size - 8) // math.prod(math.factorial(c - k) for c, k in zip(caps, ks))

    total = math.factorial(size) // math.prod(math.factorial(c) for c in caps)
    player = table = 0
    for owners in itertools.product(range(len(caps)), repeat=8):
        ks = [owners.count(o) for o in range(len(caps))]
        if any(k > c for k, c in zip(ks, caps)):
            continue
        w = ways(ks)
        tute = [(len(set(owners[:4])) == 1 and owners[0] == p) or
                (len(set(owners[4:])) == 1 and owners[4] == p) for p in range(n)]
        player += w * tute[0]
        table += w * any(tute)
    return Fraction(player, total), Fraction(table, total)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_exact_chance_of_a_dealt_tute(n):
    player, table = enumerate_tute(n)
    exact = A.p_dealt_tute(n)
    assert exact["player"] == player and exact["table"] == table
    # and per player by falling factorials: P(4 given cards in h of N) = h⁽⁴⁾ / N⁽⁴⁾
    size, h = TABLE[n]
    four = Fraction(math.perm(h, 4), math.perm(size, 4))
    eight = Fraction(math.perm(h, 8), math.perm(size, 8))
    assert exact["player"] == 2 * four - eight


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_analyses_deal_the_engines_deals(n):
    rules = TuttiRules(players=n)
    hands, shown = A.deals(n, 17, 1000, 40)
    for g in range(40):
        state = deal(rules, 17, 1000 + g)
        assert list(hands[g]) == state.hands and shown[g] == state.shown


def test_sampled_chance_of_a_dealt_tute_within_its_ci(capsys, tmp_path):
    code, out, err = run(capsys, "analyze", "tute", "--game", "tutti", "--deals", "200000",
                         "--seed", "1", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    whole = json.loads(out)
    d = whole["p_dealt_tute"]
    assert set(d) == {"2", "3", "4"}
    for n, row in d.items():
        player, table = enumerate_tute(int(n))
        assert row["exact_fraction"] == str(player) and row["table_exact_fraction"] == str(table)
        assert row["deals"] == 200_000
        assert 0 <= row["sampled_low"] <= float(player) <= row["sampled_high"] <= 1, n
        assert row["sampled_interval"] == row["table_sampled_interval"] == "wilson-95"
        # some player has one: whole deals out of 200,000, the Wilson interval
        ci = binomtest(round(row["table_sampled"] * 200_000), 200_000).proportion_ci(
            method="wilson")
        assert (row["table_sampled_low"], row["table_sampled_high"]) == pytest.approx(
            (ci.low, ci.high), abs=1e-12)
        assert ci.low <= float(table) <= ci.high, n
    # the text: each sampled chance said to be within its CI, as its digits show
    code, out, err = run(capsys, "analyze", "tute", "--game", "tutti", "--deals", "200000",
                         "--seed", "1", "--out-dir", str(tmp_path))
    assert code == 0 and out.count("(within)") == 6 and "(outside)" not in out, out
    assert whole["csv"] == str(result_file(tmp_path, "tute-tutti-seed1"))


def test_lead_figures_are_the_reference_matches():
    base = TuttiRules(hands=2)
    res = A.lead_advantage(base, ["3", "4p"], "heuristic", 24, seed=6)
    for row in res.rows:
        rules = A.named_table_rules(base, row.table)
        n = rules.players
        wins, points, hands = np.zeros(n), np.zeros(n), 0
        for i in range(24):
            rec = play_match(parse_bots(["heuristic"] * n, rules), rules, 6, i)
            hands += len(rec.hands)
            for j in range(n):
                wins[j] += rules.side(j) == rec.winner
                points[j] += sum(h.scores[rules.side(j)] for h in rec.hands)
        assert [e.mean for e in row.seats] == pytest.approx(list(wins / 24))
        assert [e.mean for e in row.points] == pytest.approx(list(points / hands))
        assert row.fair == 1 / rules.sides and row.hands.mean == pytest.approx(hands / 24)
        assert row.advantage.mean == pytest.approx(wins[0] / 24 - row.fair)
        ci = binomtest(int(wins[0]), 24).proportion_ci(method="wilson")  # matches: no ties
        assert (row.seats[0].low, row.seats[0].high) == pytest.approx((ci.low, ci.high))
        assert (row.advantage.low, row.advantage.high) == pytest.approx(
            (ci.low - row.fair, ci.high - row.fair))


def test_the_exchange_is_valued_on_the_same_deals():
    rules = TuttiRules(players=2)
    res = A.abstain_value(rules, "exchange", ["2"], "heuristic", 16, seed=4)
    (row,) = res.rows
    exchanges = points = 0
    for i in range(16):
        full = play_hand(parse_bots("heuristic,heuristic", rules), rules, 4, i)
        exchanges += len(full.exchanges)
        points += sum(full.scores) / 2
        for side in (0, 1):
            bots = parse_bots("heuristic,heuristic", rules)
            bots[side] = A.Abstain(make_bot("heuristic", side, 4, i), ("exchange",))
            without = play_hand(bots, rules, 4, i)
            assert not any(e.seat == side for e in without.exchanges)
            if not any(e.seat == side for e in full.exchanges):
                # heuristic exchanges whenever it may: no exchange, nothing changes
                assert without.actions == full.actions
    assert exchanges > 0
    assert row.uses.mean == pytest.approx(exchanges / 2 / 16)
    assert row.points_with.mean == pytest.approx(points / 16)


def test_a_pair_that_never_declares_passes():
    rules = TuttiRules(players=4, pairs=True)
    declared = 0
    for i in range(12):
        bots = [A.Abstain(make_bot("random", j, 2, i), ("declare", "tute"))
                if j % 2 == 0 else make_bot("random", j, 2, i) for j in range(4)]
        rec = play_hand(bots, rules, 2, i)
        assert not any(d.seat % 2 == 0 for d in rec.declarations)
        declared += len(rec.declarations)
    assert declared > 0  # the other pair still declares


def test_trump_rank_figures_are_the_reference_hands():
    base = TuttiRules()
    res = A.trump_rank(base, ["3"], "random", 120, seed=8)
    rules = TuttiRules(players=3)
    by_rank = {}
    for i in range(120):
        rec = play_hand(parse_bots("random,random,random", rules), rules, 8, i)
        by_rank.setdefault(rank(rec.shown), []).append(rec)
    assert sorted(r.rank for r in res.rows) == sorted(by_rank)
    for row in res.rows:
        recs = by_rank[row.rank]
        assert row.leader_wins.n == len(recs)
        assert row.leader_wins.mean == pytest.approx(np.mean([r.winner == 0 for r in recs]))
        for s in range(3):
            assert row.points[s].mean == pytest.approx(np.mean([r.scores[s] for r in recs]))


def test_ctrl_c_keeps_the_finished_tables():
    def phase(label, total):
        if label != "2 players":
            raise KeyboardInterrupt
        return lambda n: None

    res = A.lead_advantage(TuttiRules(), ["2", "3"], "heuristic", 40, 1, phase)
    assert res.interrupted and [r.table for r in res.rows] == ["2"]
    assert res.to_dict()["interrupted"] is True


def test_ctrl_c_on_the_command_line(capsys, tmp_path, monkeypatch):
    real = A.deals

    def stop_at_three(players, *args):
        if players == 3:
            raise KeyboardInterrupt
        return real(players, *args)

    monkeypatch.setattr(A, "deals", stop_at_three)
    code, out, err = run(capsys, "analyze", "tute", "--tables", "2,3", "--deals", "1000",
                         "--json", "--out-dir", str(tmp_path))
    assert code == 130 and "interrupted" in err
    d = json.loads(out)
    assert d["interrupted"] is True and list(d["p_dealt_tute"]) == ["2"]
    assert d["csv"] == str(result_file(tmp_path, "tute-tutti-seed1", "-interrupted.csv"))


@pytest.mark.parametrize("args", [
    ["lead", "--games", "30", "--tables", "2,4p"],
    ["exchange", "--deals", "3"],
    ["declare", "--deals", "2", "--tables", "3,4p"],
    ["trump", "--deals", "500", "--tables", "2"],
    ["tute", "--deals", "500", "--tables", "4"],
])
def test_every_analysis_prints_json_and_text(capsys, tmp_path, args):
    code, out, err = run(capsys, "analyze", *args, "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["game"] == "tutti" and d["analysis"] == args[0] and d["seed"] == 1
    assert not d["interrupted"] and d["rules"]["game"] == "tutti"
    code, out, err = run(capsys, "analyze", *args, "--out-dir", str(tmp_path))
    assert code == 0, err
    assert "Tutti" in out and "seed 1" in out and "CSV:" in out


@pytest.mark.parametrize("args,message", [
    (["lead", "--tables", "5"], "--tables must be a list of 2, 3, 4, 4p (4p: four in pairs), not '5'"),
    (["tute", "--tables", "4p"], "--tables must be a list of 2, 3, 4, not '4p'"),
    (["lead", "--pairs", "on"], "the tables come from --tables: write 4p there for four in pairs, "
                                "not --pairs on"),
    (["lead", "--bot", "clever"], f"--bot: unknown Tutti bot 'clever'; {VALID_BOTS}"),
    (["declare", "--bot", "py:x:y"], "--bot for analyze declare must be one of random, heuristic "
                                     "(the bots the analysis can vary), not 'py:x:y'"),
    (["trump", "--deals", "0"], "--deals must be a positive number, not 0"),
    (["lead", "--hands", "9"], "--hands must be 1..5 (hands to win the match), not 9"),
    (["exchange", "--hands", "2"], "No such option: --hands"),  # one hand per deal: no match length
    (["lead", "--game", "macke"], "Berliner Macke has no 'lead' analysis; it is an analysis of "
                                  "Tutti (--game tutti)"),
])
def test_one_line_refusals(capsys, tmp_path, args, message):
    code, out, err = run(capsys, "analyze", *args, "--out-dir", str(tmp_path))
    assert code == 2 and out == ""
    assert err.strip() == f"tutto-sim: error: {message}"

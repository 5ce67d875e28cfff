"""core/stats: the Wilson interval of a proportion against scipy and the score
test it inverts; the decimals that make "within its 95% CI" visibly true; a
20-game tournament whose JSON intervals stay inside [0, 1]."""

import json
import math

import pytest
from conftest import run_cli as run
from scipy.optimize import brentq
from scipy.stats import binomtest, norm

from tutto_sim.core.stats import WILSON, Estimate, decimals_beside, wilson

CASES = [(0, 20), (1, 20), (20, 20), (19, 20), (0, 1), (1, 1), (7, 13), (500, 1000),
         (3, 100_000)]


@pytest.mark.parametrize("k,n", CASES)
def test_wilson_equals_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson(k, n)
    assert low == pytest.approx(ci.low, abs=1e-12) and high == pytest.approx(ci.high, abs=1e-12)
    assert 0 <= low <= k / n <= high <= 1


@pytest.mark.parametrize("k,n", [(k, n) for k, n in CASES if 0 < k < n])
def test_wilson_bounds_are_where_the_score_test_is_at_its_limit(k, n):
    """The Wilson bounds are the p at which (k/n - p) / sqrt(p(1-p)/n) = ±z."""
    z, q = norm.ppf(0.975), k / n

    def score(p):
        return (q - p) / math.sqrt(p * (1 - p) / n)

    low = brentq(lambda p: score(p) - z, 1e-15, q)
    high = brentq(lambda p: score(p) + z, q, 1 - 1e-15)
    assert wilson(k, n) == pytest.approx((low, high), abs=1e-10)


def test_wilson_at_zero_and_all_hits():
    # k = 0: [0, z² / (n + z²)]; k = n: [n / (n + z²), 1]
    z2 = norm.ppf(0.975) ** 2
    assert wilson(0, 20) == (0.0, pytest.approx(z2 / (20 + z2), abs=1e-15))
    assert wilson(20, 20) == (pytest.approx(20 / (20 + z2), abs=1e-15), 1.0)


def test_proportion_carries_its_interval_and_shows_it():
    e = Estimate.proportion(1, 20)
    assert e.interval == WILSON and e.n == 20 and e.mean == 0.05
    assert e.ci95 == pytest.approx((e.high - e.low) / 2)
    assert e.text(4) == "0.0500 [0.0089, 0.2361]"  # the Wald interval went to -0.0455
    assert e.contains(0.2) and not e.contains(0.0) and not e.contains(0.25)
    d = e.json("win_rate", mean="win_rate")
    assert d == {"win_rate": 0.05, "win_rate_ci95": e.ci95, "win_rate_low": e.low,
                 "win_rate_high": e.high, "win_rate_interval": WILSON}
    # a tie's share of a win: 2.5 effective wins of 20
    assert Estimate.share(2 * 840 + 420, 20, 840).mean == 0.125
    assert (Estimate.share(2100, 20, 840).low, Estimate.share(2100, 20, 840).high) \
        == pytest.approx(wilson(2.5, 20))
    # minus the fair share: the interval moves with it
    fpa = e.shift(-0.5)
    assert (fpa.mean, fpa.low, fpa.high) == pytest.approx((-0.45, e.low - 0.5, e.high - 0.5))
    assert fpa.text(4, sign=True) == "-0.4500 [-0.4911, -0.2639]"


def test_means_keep_plus_minus():
    e = Estimate(423.123, 0.48, 2_000_000)
    assert (e.low, e.high) == (423.123 - 0.48, 423.123 + 0.48) and e.text() == "423.12 ± 0.48"
    assert not e.is_wilson and "interval" not in e.json("ev")


def _shown_inside(text: str, exact_text: str) -> bool:
    """Whether the printed interval holds the printed exact value, as a reader checks it."""
    x = float(exact_text.rstrip("%"))
    if "[" in text:
        lo, hi = (float(v) for v in text.split("[")[1].rstrip("]%").split(","))
    else:
        m, h = (float(v) for v in text.rstrip("%").split(" ± "))
        lo, hi = m - h, m + h
    return lo - 1e-12 <= x <= hi + 1e-12


def test_digits_make_within_its_ci_visibly_true():
    # the report's duel: simulated 55.60 ± 1.96% beside an exact 53.7962%: inside (by 0.16)
    duel, exact = Estimate(0.5560, 0.0196, 4000), 0.537962
    assert duel.contains(exact)
    assert not _shown_inside(duel.text(0, percent=True), "53.7962%")  # "56 ± 2%": 54..58
    d = decimals_beside(duel, exact, start=0, exact_decimals=4, percent=True)
    assert d == 1 and _shown_inside(duel.text(d, percent=True), "53.7962%")  # 55.6 ± 2.0
    # the solo race: 64.0855 ± 0.0990 throws beside an exact 63.98704: inside (by 0.0005)
    solo, exact = Estimate(64.0855, 0.0990, 20000), 63.98704
    assert solo.contains(exact) and solo.text(2) == "64.09 ± 0.10"
    assert not _shown_inside("64.09 ± 0.10", "63.98704")  # 63.99..64.19
    d = decimals_beside(solo, exact, start=2, exact_decimals=5)
    assert d == 3 and _shown_inside(solo.text(d), "63.98704")  # 64.086 ± 0.099
    # outside stays visibly outside; the default start is the estimate's own digits
    far = Estimate(64.30, 0.10, 20000)
    d = decimals_beside(far, exact, exact_decimals=5)
    assert d == far.decimals() and not _shown_inside(far.text(d), "63.98704")
    # a Wilson interval just missing its exact share: "[0.34, 0.74]" would hold 0.34205
    p = Estimate.proportion(11, 20)  # [0.342085, 0.741802]
    assert not p.contains(0.34205) and _shown_inside(p.text(2), "0.34205")
    d = decimals_beside(p, 0.34205, start=2, exact_decimals=5)
    assert d == 4 and not _shown_inside(p.text(d), "0.34205")  # [0.3421, 0.7418]


def test_twenty_game_tournament_intervals_stay_in_zero_one(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "--game", "rutsmieter", "--bots", "tuned,random",
                         "--games", "20", "--seed", "3", "--json", "--out-dir", str(tmp_path))
    assert code == 0, err
    d = json.loads(out)
    assert d["interval"] == WILSON
    rates = [(b["win_rate"], b["low"], b["high"], b["games"]) for b in d["bots"].values()]
    rates += [(r, lo, hi, d["games"]) for r, lo, hi in
              zip(d["seat_win_rates"], d["seat_low"], d["seat_high"])]
    rates += [(e["win_rate"], e["low"], e["high"], e["games"])
              for row in d["pairwise"].values() for e in row.values()]
    assert min(r for r, *_ in rates) <= 0.2  # random wins few of its 20: Wald would go below 0
    for r, lo, hi, n in rates:
        assert 0 <= lo <= r <= hi <= 1
        ci = binomtest(round(r * n), n).proportion_ci(method="wilson")  # no ties in Rutsmieter
        assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-12)
    fair = 1 / 2
    assert d["first_player_advantage_low"] == pytest.approx(d["seat_low"][0] - fair)
    assert d["first_player_advantage_high"] == pytest.approx(d["seat_high"][0] - fair)


def test_seat_table_marks_a_seat_within_its_fair_share(capsys, tmp_path):
    """analyze seats: "seat 0 − fair" and "last − fair" carry a * exactly where
    the seat's Wilson interval holds the fair share, with the note under the table."""
    args = ("analyze", "seats", "--game", "rutsmieter", "--games", "400", "--seed", "2",
            "--out-dir", str(tmp_path))
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    d = json.loads(out)["players"]
    inside = sum(lo <= 1 / int(n) <= hi for n, r in d.items()
                 for lo, hi in ((r["seat_low"][0], r["seat_high"][0]),
                                (r["seat_low"][-1], r["seat_high"][-1])))
    for n, r in d.items():
        lo, hi = r["seat_low"][0], r["seat_high"][0]
        assert r["first_player_advantage_measurable"] is not (lo <= 1 / int(n) <= hi)
    code, out, err = run(capsys, *args)
    assert code == 0, err
    table = out.split("seed 2")[0]
    note = "*: no measurable difference (the difference's 95% CI holds 0)"
    assert inside > 0 and table.count(" *") == inside and table.count(note) == 1

"""How the report pages print an estimate (core.report.estimate_text): the
signs of the mean and of the interval's bounds, written out by hand."""

import pytest
from scipy.stats import binomtest

from tutto_sim.core.report import estimate_text
from tutto_sim.core.stats import WILSON, Estimate


@pytest.mark.parametrize("e,sign,expected", [
    # a negative advantage keeps its minus, and so do its bounds
    (Estimate(-0.007, 0.0075, 21600, -0.0144, 0.0006, WILSON), True,
     "−0.7 [−1.4, 0.1] points"),
    # a bound that rounds to zero is printed without a sign ("0.0", never "−0.0")
    (Estimate(0.005, 0.0055, 28800, -0.0002, 0.0108, WILSON), True, "+0.5 [0.0, 1.1] points"),
    # a mean that rounds to zero has neither + nor −
    (Estimate(-0.0004, 0.0075, 21600, -0.0079, 0.0071, WILSON), True,
     "0.0 [−0.8, 0.7] points"),
])
def test_signs_of_a_shifted_share(e, sign, expected):
    assert estimate_text(e, True, sign, unit=" points") == expected


def test_means_keep_their_sign_unless_they_round_to_zero():
    assert estimate_text(Estimate(-4.2, 0.9, 9), sign=True) == "−4.2 ± 0.9"
    assert estimate_text(Estimate(-0.04, 0.9, 9), sign=True) == "0.0 ± 0.9"
    assert estimate_text(Estimate(0.04, 0.9, 9), sign=True) == "0.0 ± 0.9"


def test_a_share_of_few_games_prints_scipys_wilson_interval():
    ci = binomtest(1, 20).proportion_ci(method="wilson")  # [0.0089, 0.2361]
    assert estimate_text(Estimate.proportion(1, 20), True) == \
        f"5 [{100 * ci.low:.0f}, {100 * ci.high:.0f}]%" == "5 [1, 24]%"
    # stacked: the interval on a line of its own, for narrow bars
    assert estimate_text(Estimate.proportion(1, 20), True, stacked=True) == "5\n[1, 24]%"

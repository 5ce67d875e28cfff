"""Throw sampling as the kernels do it hits every multiset with its exact
probability from the throw tables.

The kernel draws a throw of n dice as ``ordered[ordered_off[n] + below(6**n)]``
(``tutto_sim.tutto.turn_kernel.draw_throw``). Exact enumeration checks Monte Carlo
here, never the reverse: the expected counts come from ``ways / 6**n``, and a
chi-square goodness-of-fit test at p = 1e-4 (fixed seed) must accept the draws.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from numba import njit

from tutto_sim.core.streams import below, stream_start
from tutto_sim.dice.scoring import ScoringRules
from tutto_sim.dice.throws import MAX_DICE, build_tables
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.turn_kernel import TuttoKernelData, draw_throw

DRAWS = 300_000
SEED = 987654321


@njit
def _sample(n, k, seed, index, ordered, ordered_off, n_ms):
    """Histogram over multiset ids of k throws of n dice, drawn as the kernel does."""
    st = np.empty(1, dtype=np.uint64)
    st[0] = stream_start(seed, index)
    hist = np.zeros(n_ms, dtype=np.int64)
    for _ in range(k):
        hist[ordered[ordered_off[n] + below(st, 6**n)]] += 1
    return hist


@njit
def _sample_kernel_throw(n, k, seed, index, ordered, ordered_off, n_ms):
    """The same through the kernel's own ``draw_throw``."""
    st = np.empty(1, dtype=np.uint64)
    st[0] = stream_start(seed, index)
    hist = np.zeros(n_ms, dtype=np.int64)
    for _ in range(k):
        hist[draw_throw(st, n, ordered, ordered_off)] += 1
    return hist


def critical_value(df: int, p: float = 1e-4) -> float:
    """Upper p-quantile of chi-square(df), Wilson-Hilferty approximation."""
    z = NormalDist().inv_cdf(1 - p)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def pooled_chi2(observed: np.ndarray, expected: np.ndarray) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom, cells with expected < 5
    pooled (smallest first) until every cell expects at least 5."""
    order = np.argsort(expected, kind="stable")
    cells_o, cells_e = [], []
    acc_o = acc_e = 0.0
    for i in order:
        acc_o += observed[i]
        acc_e += expected[i]
        if acc_e >= 5:
            cells_o.append(acc_o)
            cells_e.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0:  # leftover tail joins the last cell
        cells_o[-1] += acc_o
        cells_e[-1] += acc_e
    o, e = np.array(cells_o), np.array(cells_e)
    return float(((o - e) ** 2 / e).sum()), len(o) - 1


def test_pooling():
    chi2, df = pooled_chi2(np.array([1, 2, 50, 47]), np.array([2.0, 3.0, 50.0, 45.0]))
    assert df == 2  # the cells expecting 2 and 3 become one
    assert chi2 == pytest.approx((3 - 5) ** 2 / 5 + 0 / 50 + (47 - 45) ** 2 / 45)


@pytest.mark.parametrize("six", ["two-triples", "one-triple"])
@pytest.mark.parametrize("n", range(1, MAX_DICE + 1))
def test_throw_frequencies(six, n):
    t = build_tables(ScoringRules(six_of_kind=six))
    ordered = np.ascontiguousarray(t.ordered)
    off = np.ascontiguousarray(t.ordered_off)
    hist = _sample(np.int64(n), DRAWS, np.uint64(SEED), np.uint64(n), ordered, off,
                   t.n_multisets)
    ids = t.ids(n)
    # every draw lands on a multiset of n dice
    assert hist.sum() == DRAWS
    assert hist[ids.start:ids.stop].sum() == DRAWS
    expected = DRAWS * t.ways[ids.start:ids.stop] / 6.0**n
    chi2, df = pooled_chi2(hist[ids.start:ids.stop], expected)
    assert df >= 1
    assert chi2 < critical_value(df), (n, chi2, df, critical_value(df))


def test_kernel_throw_is_this_sampling():
    """The kernel's ``draw_throw`` draws exactly what the test's loop draws."""
    data = TuttoKernelData(TuttoRules())
    n_ms = build_tables(ScoringRules()).n_multisets
    for n in range(1, MAX_DICE + 1):
        a = _sample(np.int64(n), 5000, np.uint64(3), np.uint64(n), data.ordered,
                    data.ordered_off, n_ms)
        b = _sample_kernel_throw(np.int64(n), 5000, np.uint64(3), np.uint64(n),
                                 data.ordered, data.ordered_off, n_ms)
        assert (a == b).all()


def test_bust_rate_six_dice():
    """The sampled Niete rate with 6 dice matches 1440/46656 within 4 sigma."""
    t = build_tables(ScoringRules())
    hist = _sample(np.int64(6), DRAWS, np.uint64(SEED + 1), np.uint64(0),
                   np.ascontiguousarray(t.ordered), np.ascontiguousarray(t.ordered_off),
                   t.n_multisets)
    busts = sum(int(hist[ms]) for ms in t.ids(6) if t.best_pts[ms].max() < 0)
    p = 1440 / 46656
    sigma = math.sqrt(DRAWS * p * (1 - p))
    assert abs(busts - DRAWS * p) < 4 * sigma

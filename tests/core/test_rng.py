"""The random stream: the numba kernels (``tutto_sim.core.streams``) draw bit for
bit what the pure-Python ``tutto_sim.core.rng.Stream`` draws, and ``below(m)`` is
uniform on 0..m-1.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from numba import njit

from tutto_sim.core import rng as pyrng
from tutto_sim.core import streams as nbrng

SEEDS = [0, 1, 2, 12345, 2**32 + 7, 2**63 - 1, 2**64 - 1]
INDICES = [0, 1, 2, 999, 2**40 + 3]
MODULI = [1, 2, 6, 56, 6**2, 6**5, 6**6]


@njit
def _draws(seed, index, m, k):
    st = np.empty(1, dtype=np.uint64)
    st[0] = nbrng.stream_start(seed, index)
    out = np.empty(k, dtype=np.int64)
    for j in range(k):
        out[j] = nbrng.below(st, m)
    return out


@njit
def _start_and_raw(seed, index, k):
    """Stream start and the first k raw 64-bit outputs."""
    out = np.empty(k + 1, dtype=np.uint64)
    s = nbrng.stream_start(seed, index)
    out[0] = s
    for j in range(k):
        s = s + nbrng._GOLDEN
        out[j + 1] = nbrng.mix64(s)
    return out


def draws(seed: int, index: int, m: int, k: int) -> list[int]:
    return _draws(np.uint64(seed), np.uint64(index), np.int64(m), k).tolist()


def critical_value(df: int, p: float = 1e-4) -> float:
    """Upper p-quantile of chi-square(df), Wilson-Hilferty approximation."""
    z = NormalDist().inv_cdf(1 - p)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def test_mix64_known_values():
    # SplitMix64 reference: seed 0 gives 0xe220a8397b1dcdaf first
    s = pyrng.Stream.__new__(pyrng.Stream)
    s.state = 0
    assert s.next_u64() == 0xE220A8397B1DCDAF
    assert pyrng.mix64(0) == 0
    assert int(_start_and_raw(np.uint64(0), np.uint64(0), 0)[0]) == pyrng.stream_start(0, 0)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("index", INDICES)
def test_raw_stream_identical(seed, index):
    raw = _start_and_raw(np.uint64(seed), np.uint64(index), 16).tolist()
    s = pyrng.Stream(seed, index)
    assert raw[0] == pyrng.stream_start(seed, index) == s.state
    assert raw[1:] == [s.next_u64() for _ in range(16)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("index", INDICES)
@pytest.mark.parametrize("m", MODULI)
def test_below_identical(seed, index, m):
    k = 200
    s = pyrng.Stream(seed, index)
    expected = [s.below(m) for _ in range(k)]
    assert draws(seed, index, m, k) == expected
    assert all(0 <= x < m for x in expected)


def test_mixed_moduli_identical():
    """A turn mixes card draws (56) and throws (6**n) on one stream."""
    @njit
    def mixed(seed, index, ms):
        st = np.empty(1, dtype=np.uint64)
        st[0] = nbrng.stream_start(seed, index)
        out = np.empty(ms.shape[0], dtype=np.int64)
        for j in range(ms.shape[0]):
            out[j] = nbrng.below(st, ms[j])
        return out

    ms = np.array([56] + [6**n for n in (6, 4, 1, 6, 5, 3, 2)] * 20, dtype=np.int64)
    for seed, index in [(0, 0), (1, 5), (2**63 - 1, 2**33)]:
        s = pyrng.Stream(seed, index)
        assert mixed(np.uint64(seed), np.uint64(index), ms).tolist() == [
            s.below(int(m)) for m in ms
        ]


def test_streams_differ():
    """Different seeds and indices give different streams (no trivial aliasing)."""
    firsts = {tuple(draws(seed, index, 6**6, 4)) for seed in SEEDS for index in INDICES}
    assert len(firsts) == len(SEEDS) * len(INDICES)


def chi2_sf(x: float, df: int) -> float:
    """Exact P(chi-square(df) > x) from the series of the lower incomplete gamma."""
    a, y = df / 2, x / 2
    term = total = 1 / a
    j = 0
    while term > 1e-17 * total:
        j += 1
        term *= y / (a + j)
        total += term
    return 1 - total * math.exp(-y + a * math.log(y) - math.lgamma(a))


def test_critical_value_sane():
    # printed tables: df=5 at p=1e-4 is 25.745; Wilson-Hilferty errs on the safe side
    assert critical_value(5) == pytest.approx(25.745, rel=0.03)
    assert critical_value(5) >= 25.745
    for df in (5, 55, 100, 461):
        assert 5e-5 < chi2_sf(critical_value(df), df) <= 1e-4, df


@pytest.mark.parametrize("m", [6, 56])
def test_below_uniform(m):
    n = 200_000
    x = _draws(np.uint64(20240601), np.uint64(m), np.int64(m), n)
    assert x.min() >= 0 and x.max() < m
    observed = np.bincount(x, minlength=m)
    expected = n / m
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < critical_value(m - 1), (chi2, critical_value(m - 1))

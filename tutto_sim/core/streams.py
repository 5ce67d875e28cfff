"""SplitMix64 streams for the numba kernels, bit for bit ``tutto_sim.core.rng``.

A stream's state lives in a one-element uint64 scratch array that the caller
owns, so drawing allocates nothing.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO_POW_M53 = 1.0 / 2.0**53


@njit(cache=True, inline="always")
def mix64(z):
    z = (z ^ (z >> _S30)) * _MUL1
    z = (z ^ (z >> _S27)) * _MUL2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def stream_start(seed, index):
    """State of stream ``index`` (both uint64) of a run with ``seed``."""
    return mix64(mix64(seed) + index * _GOLDEN)


@njit(cache=True, inline="always")
def below(state, m):
    """Uniform integer in 0..m-1; advances ``state[0]``."""
    s = state[0] + _GOLDEN
    state[0] = s
    x = mix64(s)
    return np.int64(np.float64(x >> _S11) * _TWO_POW_M53 * m)

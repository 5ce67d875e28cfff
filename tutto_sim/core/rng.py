"""The random stream every simulation uses, in plain Python.

Each simulated turn (or game) ``i`` of a run with seed ``s`` reads its own
stream, started by :func:`stream_start` ``(s, i)``, so a result depends only on
the seed and the turn's index: never on threads, block sizes or on what other
turns did. The stream is SplitMix64 (Steele, Lea & Flood 2014). The numba
kernels in ``tutto_sim.core.streams`` implement the same arithmetic on uint64;
the reference engines use this class, and the tests demand identical draws.

>>> a, b = Stream(seed=1, index=0), Stream(seed=1, index=0)
>>> [a.below(6) for _ in range(8)] == [b.below(6) for _ in range(8)]
True
>>> mix64(0)
0
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB
TWO_POW_M53 = 1.0 / (1 << 53)


def mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit integers."""
    z &= MASK
    z = ((z ^ (z >> 30)) * MUL1) & MASK
    z = ((z ^ (z >> 27)) * MUL2) & MASK
    return z ^ (z >> 31)


def stream_start(seed: int, index: int) -> int:
    """Initial state of stream ``index`` of a run with ``seed``."""
    return mix64((mix64(seed) + (index & MASK) * GOLDEN) & MASK)


class Stream:
    """One turn's random numbers: ``below(m)`` is uniform on 0..m-1."""

    def __init__(self, seed: int, index: int):
        self.state = stream_start(seed, index)

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return mix64(self.state)

    def below(self, m: int) -> int:
        # 53 random bits scaled to [0, m): bias below m / 2**53, negligible.
        return int((self.next_u64() >> 11) * TWO_POW_M53 * m)

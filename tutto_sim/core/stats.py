"""Means with their 95% confidence intervals, from exact integer sums.

Part of ``tutto_sim.sim``. The kernels return integer sums (exact, so the
result cannot depend on the order in which threads add), and these helpers
turn them into estimates. Every estimate the tool prints carries n and a CI.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo mean: ``mean ± ci95`` over ``n`` samples."""

    mean: float
    ci95: float
    n: int

    @classmethod
    def from_sums(cls, total: float, total_sq: float, n: int, scale: float = 1.0) -> "Estimate":
        """From the sum and the sum of squares of n samples (times ``scale``)."""
        if n == 0:
            return cls(math.nan, math.nan, 0)
        mean = total / n
        var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
        return cls(mean * scale, Z95 * math.sqrt(var / n) * scale, n)

    @classmethod
    def ratio(cls, x: float, xx: float, y: float, yy: float, xy: float, n: int) -> "Estimate":
        """The ratio ``Σx / Σy`` of n sample pairs (points per hand over matches of
        several hands), its CI by the delta method from the sums of ``x``, ``x²``,
        ``y``, ``y²`` and ``x·y``; with every ``y = 1`` it is :meth:`from_sums`.

        >>> Estimate.ratio(20, 200, 4, 8, 40, 2)  # (10 over 2) and (10 over 2)
        Estimate(mean=5.0, ci95=0.0, n=2)
        >>> e, m = Estimate.ratio(9, 45, 3, 3, 9, 3), Estimate.from_sums(9, 45, 3)
        >>> (e.mean, round(e.ci95, 12)) == (m.mean, round(m.ci95, 12))
        True
        """
        if n == 0 or y == 0:
            return cls(math.nan, math.nan, n)
        r = x / y
        spread = max(xx - 2 * r * xy + r * r * yy, 0.0) / max(n - 1, 1)
        return cls(r, Z95 * math.sqrt(spread / n) / (y / n), n)

    @classmethod
    def proportion(cls, hits: int, n: int) -> "Estimate":
        """A probability from hits out of n (Wald interval; n is large here)."""
        return cls.from_sums(hits, hits, n)

    def contains(self, value: float, slack: float = 0.0) -> bool:
        return abs(self.mean - value) <= self.ci95 + slack

    def decimals(self) -> int:
        """Decimals that show the CI with two significant digits (at least 2)."""
        if not self.ci95 > 0 or math.isinf(self.ci95):
            return 2 if abs(self.mean) >= 1 or self.mean == 0 else 4
        return max(2, 1 - math.floor(math.log10(self.ci95)))

    def __str__(self) -> str:
        """``0.0812 ± 0.0038 (n=20,000)``: enough digits that the CI is never ``± 0.00``.

        >>> str(Estimate(0.08121, 0.00378, 20000))
        '0.0812 ± 0.0038 (n=20,000)'
        >>> str(Estimate(423.123, 0.48, 2000000))
        '423.12 ± 0.48 (n=2,000,000)'
        """
        d = self.decimals()
        return f"{self.mean:.{d}f} ± {self.ci95:.{d}f} (n={self.n:,})"


def family_z(m: int, level: float = 0.95) -> float:
    """Per-check z for m checks that together keep a ``level`` test."""
    return NormalDist().inv_cdf(1 - (1 - level) / (2 * max(m, 1)))

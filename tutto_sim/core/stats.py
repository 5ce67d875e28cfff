"""Means with their 95% confidence intervals, from exact integer sums.

Part of the simulation layer. The kernels return integer sums (exact, so the
result cannot depend on the order in which threads add), and these helpers
turn them into estimates. Every estimate the tool prints carries n and a CI.

Two kinds of interval (``Estimate.interval``):

- ``normal-95``: a mean ± its half-width ``ci95`` (the normal approximation;
  points, throws, paired differences);
- ``wilson-95``: a proportion (a win rate, the chance of an event, a share of hands), the
  Wilson score interval ``[low, high]``, which stays inside [0, 1] and is not
  symmetric about the rate. ``ci95`` is then half its width. A win shared in a
  k-way tie counts 1/k, so a win rate's hits need not be whole: the interval is
  Wilson's on that effective count (wins plus shares of ties) out of n.

Shown as ``0.0500 ± 0.0098`` (normal) and ``0.0500 [0.0089, 0.2361]``
(Wilson); :meth:`Estimate.text`. JSON carries ``low``, ``high`` and
``"interval": "wilson-95"`` (:meth:`Estimate.json`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

Z95 = 1.959963984540054

#: The interval of a proportion, as the JSON names it.
WILSON = "wilson-95"
#: The interval of a mean: mean ± ci95.
NORMAL = "normal-95"
#: What a difference whose 95% CI holds 0 is called.
NO_DIFFERENCE = "no measurable difference"
#: The note under a table whose cells mark such differences with ``*``.
NO_DIFFERENCE_NOTE = "*: no measurable difference (the difference's 95% CI holds 0)"


def wilson(hits: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` successes out of ``n`` (hits may be
    fractional: a tie's share of a win), clipped to [0, 1] against rounding.

    >>> wilson(0, 20)[0], round(wilson(0, 20)[1], 4), wilson(20, 20)[1]
    (0.0, 0.1611, 1.0)
    """
    if n <= 0:
        return math.nan, math.nan
    p = min(max(hits / n, 0.0), 1.0)
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low, high = centre - half, centre + half
    # p = 0 and p = 1 end exactly at 0 and 1 (rounding may leave 1e-17 outside)
    return (0.0 if p == 0 else max(low, 0.0)), (1.0 if p == 1 else min(high, 1.0))


@dataclass(frozen=True)
class ExactCheck:
    """One exact value beside its simulation: ``z`` in standard errors."""

    what: str
    exact: float
    simulated: float
    ci95: float
    n: int

    @property
    def z(self) -> float:
        se = self.ci95 / Z95
        return 0.0 if se == 0 else (self.simulated - self.exact) / se


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate over ``n`` samples: ``mean`` and its 95% CI
    ``[low, high]``; ``ci95`` is the CI's half-width (for a mean the CI is
    ``mean ± ci95``). ``interval``: :data:`NORMAL` or :data:`WILSON`."""

    mean: float
    ci95: float
    n: int
    low: float = field(default=math.nan, repr=False, compare=False)
    high: float = field(default=math.nan, repr=False, compare=False)
    interval: str = field(default=NORMAL, repr=False, compare=False)

    def __post_init__(self):
        if math.isnan(self.low) and math.isnan(self.high):
            object.__setattr__(self, "low", self.mean - self.ci95)
            object.__setattr__(self, "high", self.mean + self.ci95)

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
    def proportion(cls, hits: float, n: int) -> "Estimate":
        """A probability from ``hits`` out of ``n``, with the Wilson interval
        (``hits`` may be fractional: wins plus the shares of tied wins).

        >>> e = Estimate.proportion(1, 20)
        >>> e.mean, round(e.low, 4), round(e.high, 4), e.interval
        (0.05, 0.0089, 0.2361, 'wilson-95')
        """
        if n <= 0:
            return cls(math.nan, math.nan, 0, interval=WILSON)
        low, high = wilson(hits, n)
        return cls(hits / n, (high - low) / 2, n, low, high, WILSON)

    @classmethod
    def share(cls, total: int, n: int, per_win: int = 1) -> "Estimate":
        """A win rate from its summed shares: ``total / per_win`` effective wins
        (a win adds ``per_win``, a k-way tie ``per_win / k``) out of ``n`` seats
        held; Wilson interval on that effective count."""
        return cls.proportion(total / per_win, n)

    @classmethod
    def share_of_means(cls, e: "Estimate") -> "Estimate":
        """A share that is a mean of dependent 0/1 samples (the seats of one deal),
        its standard error ``e.ci95 / Z95`` from whole samples, as a proportion:
        the Wilson interval on the effective number of trials ``p(1-p)/SE²``
        (``e.n`` where that is undefined: p = 0 or 1, or no spread).

        >>> e = Estimate.from_sums(30, 30, 1000)  # 30 of 1,000 independent trials
        >>> w, p = Estimate.share_of_means(e), Estimate.proportion(30, 1000)
        >>> round(w.low, 12) == round(p.low, 12), w.mean == e.mean
        (False, True)
        >>> abs(w.low - p.low) < 1e-4  # n/(n-1) in the sample variance: ~n_eff = 999
        True
        """
        p, se = e.mean, e.ci95 / Z95
        n = p * (1 - p) / (se * se) if se > 0 and 0 < p < 1 else e.n
        if not n > 0:
            return cls(math.nan, math.nan, e.n, interval=WILSON)
        low, high = wilson(p * n, n)
        return cls(p, (high - low) / 2, e.n, low, high, WILSON)

    def shift(self, by: float) -> "Estimate":
        """The estimate minus a constant, e.g. a seat's win rate minus the fair share
        (its interval moved with it, so it keeps its kind)."""
        return Estimate(self.mean + by, self.ci95, self.n, self.low + by, self.high + by,
                        self.interval)

    @property
    def is_wilson(self) -> bool:
        return self.interval == WILSON

    def contains(self, value: float, slack: float = 0.0) -> bool:
        """Whether ``value`` lies in the 95% CI (widened by ``slack`` each side)."""
        return self.low - slack <= value <= self.high + slack

    @property
    def measurable(self) -> bool:
        """A difference whose 95% CI does not hold 0; one whose CI holds 0 is
        shown as :data:`NO_DIFFERENCE` (a difference that is 0 in every sample,
        the same games, has the CI [0, 0] and is not measurable either)."""
        return not self.contains(0.0)

    def difference_text(self, decimals: int | None = None, percent: bool = False,
                        mark: str | None = None) -> str:
        """A difference with its sign and CI, and ``(no measurable difference)``
        where the CI holds 0, or instead ``mark`` (a table cell's footnote sign,
        the table's :data:`NO_DIFFERENCE_NOTE` below it).

        >>> Estimate(0.068, 0.0105, 20000).difference_text(4)
        '+0.0680 ± 0.0105'
        >>> Estimate(-0.012, 0.0164, 100).difference_text(4)
        '-0.0120 ± 0.0164 (no measurable difference)'
        >>> Estimate(-0.012, 0.0164, 100).difference_text(4, mark="*")
        '-0.0120 ± 0.0164 *'
        """
        text = self.text(decimals, percent, sign=True)
        if self.measurable:
            return text
        return f"{text} {mark}" if mark else f"{text} ({NO_DIFFERENCE})"

    def decimals(self) -> int:
        """Decimals that show the CI with two significant digits (at least 2)."""
        width = min(self.mean - self.low, self.high - self.mean) if self.is_wilson else self.ci95
        if self.is_wilson and not width > 0:
            width = self.ci95
        if not width > 0 or math.isinf(width):
            return 2 if abs(self.mean) >= 1 or self.mean == 0 else 4
        return max(2, 1 - math.floor(math.log10(width)))

    def text(self, decimals: int | None = None, percent: bool = False, sign: bool = False,
             unit: str | None = None) -> str:
        """The estimate and its CI: ``0.0500 ± 0.0098`` for a mean, ``0.0500
        [0.0089, 0.2361]`` for a proportion (Wilson, asymmetric). ``percent``:
        shares printed in per cent (``5.0 [0.9, 23.6]%``); ``sign``: a + on a
        positive mean. ``decimals``: in the printed unit (default
        :meth:`decimals`, shifted by 2 for per cent); ``unit``: what follows
        the figures instead of ``%`` (`` points`` for percentage points).

        >>> Estimate.proportion(1, 20).text(4)
        '0.0500 [0.0089, 0.2361]'
        >>> Estimate(0.05, 0.0098, 2000).text(percent=True, sign=True)
        '+5.00 ± 0.98%'
        """
        scale = 100.0 if percent else 1.0
        d = decimals if decimals is not None else max(self.decimals() - (2 if percent else 0), 0)
        s = "+" if sign else ""
        unit = ("%" if percent else "") if unit is None else unit
        if self.is_wilson:
            return (f"{self.mean * scale:{s}.{d}f} [{self.low * scale:.{d}f}, "
                    f"{self.high * scale:.{d}f}]{unit}")
        return f"{self.mean * scale:{s}.{d}f} ± {self.ci95 * scale:.{d}f}{unit}"

    def ci_text(self, decimals: int | None = None) -> str:
        """The CI alone, for a table's "95% CI" column: ``[0.0089, 0.2361]`` or ``± 0.0098``."""
        d = decimals if decimals is not None else self.decimals()
        if self.is_wilson:
            return f"[{self.low:.{d}f}, {self.high:.{d}f}]"
        return f"± {self.ci95:.{d}f}"

    def json(self, key: str = "", mean: str | None = None) -> dict:
        """The estimate's JSON fields: ``{mean, ci95, low, high}`` named after
        ``key`` (``key``, ``key_ci95``, ``key_low``, ``key_high``; without key:
        ``mean``, ``ci95``, ``low``, ``high``) plus ``interval`` where the
        interval is Wilson's. ``mean`` renames the mean's own key."""
        pre = f"{key}_" if key else ""
        out = {mean or key or "mean": self.mean, f"{pre}ci95": self.ci95,
               f"{pre}low": self.low, f"{pre}high": self.high}
        if self.is_wilson:
            out[f"{pre}interval"] = WILSON
        return out

    def __str__(self) -> str:
        """``0.0812 ± 0.0038 (n=20,000)``: enough digits that the CI is never ``± 0.00``.

        >>> str(Estimate(0.08121, 0.00378, 20000))
        '0.0812 ± 0.0038 (n=20,000)'
        >>> str(Estimate(423.123, 0.48, 2000000))
        '423.12 ± 0.48 (n=2,000,000)'
        >>> str(Estimate.proportion(1, 20))
        '0.050 [0.009, 0.236] (n=20)'
        """
        return f"{self.text()} (n={self.n:,})"


def no_difference_note(shown) -> str:
    """:data:`NO_DIFFERENCE_NOTE` if one of the differences ``shown`` (Estimates,
    None for a part that did not run) was marked ``*`` by
    :meth:`Estimate.difference_text`, else ``""``."""
    return NO_DIFFERENCE_NOTE if any(e is not None and not e.measurable for e in shown) else ""


def decimals_beside(e: Estimate, exact: float, start: int | None = None,
                    exact_decimals: int | None = None, percent: bool = False,
                    most: int = 12) -> int:
    """Decimals to print ``e`` beside an ``exact`` value with, such that the
    printed interval holds the printed exact value exactly when the unrounded
    interval holds the unrounded one ("within its 95% CI" is then visibly true).

    ``start``: the fewest decimals (default: what :meth:`Estimate.text` would
    print); ``exact_decimals``: the decimals the exact value is printed with
    (None: as many as the estimate's); ``percent``: decimals of per cent.

    >>> e = Estimate(0.5560, 0.0196, 2000)  # 55.60 ± 1.96%, exact 53.7962%
    >>> e.text(0, percent=True), decimals_beside(e, 0.537962, 0, 4, percent=True)
    ('56 ± 2%', 1)
    """
    scale = 100.0 if percent else 1.0
    first = start if start is not None else max(e.decimals() - (2 if percent else 0), 0)
    inside = e.contains(exact)
    for d in range(first, most + 1):
        x = round(exact * scale, d if exact_decimals is None else max(exact_decimals, 0))
        if e.is_wilson:
            lo, hi = round(e.low * scale, d), round(e.high * scale, d)
        else:
            m, h = round(e.mean * scale, d), round(e.ci95 * scale, d)
            lo, hi = m - h, m + h
        tol = 0.5 * 10.0 ** -(d + 3)  # the sum of two rounded numbers carries float noise
        if (lo - tol <= x <= hi + tol) == inside:
            return d
    return most


def family_z(m: int, level: float = 0.95) -> float:
    """Per-check z for m checks that together keep a ``level`` test."""
    return NormalDist().inv_cdf(1 - (1 - level) / (2 * max(m, 1)))

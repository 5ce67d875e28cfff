"""Threshold policies for Berliner Macke: the simple family players use.

Part of the policy layer. A :class:`MackeThresholdPolicy` answers the
questions of the Macke protocol (``macke.api``) like this:

- **keep**: set aside every scoring unit of the throw (``macke.tables``
  ``all_keep``: most dice, then most points);
- **before a throw**: never return a unit to the cup;
- **bank**: after a scoring throw that leaves ``dice_left`` dice and
  ``throws_left`` throws in the series, bank when the turn total is
  ``>= K[throws_left][dice_left]``; after a *clear* (every die set aside)
  bank when it is ``>= bank_at_clear``, else start a new series.

``K`` is one number for the plain rule "bank at >= K" (``None``: never), or a
table indexed ``[throws_left][dice_left]`` of shape ``(throws, n_dice)``
whose row 0 and column 0 are never read (no question is asked with no throw
or no die left; a clear uses ``bank_at_clear``).

:meth:`MackeThresholdPolicy.to_array` gives the int64 array the kernel reads
(``macke.turn_kernel``), in units of 50.

>>> from tutto_sim.macke.rules import MackeRules
>>> p = MackeThresholdPolicy.simple(MackeRules(), 350)
>>> p.threshold(2, 3), p.bank_at_clear
(350, 350)
>>> MackeThresholdPolicy.from_array(MackeRules(), p.to_array()) == p
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.api import TurnView
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.tables import MackeTables, build_macke_tables
from tutto_sim.macke.turn_kernel import NEVER, POLICY_SHAPE

Threshold = int | None
ThresholdTable = tuple[tuple[Threshold, ...], ...]


def _check(t: Threshold) -> Threshold:
    if t is None:
        return None
    if isinstance(t, (np.integer,)):
        t = int(t)
    if not isinstance(t, int) or isinstance(t, bool) or t < 0 or t % POINT_UNIT:
        raise ValueError(f"thresholds must be non-negative multiples of {POINT_UNIT} or None, not {t!r}")
    return t


def _units(t: Threshold) -> int:
    return NEVER if t is None else t // POINT_UNIT


def _points(units) -> Threshold:
    return None if units >= NEVER else int(units) * POINT_UNIT


@dataclass(frozen=True)
class MackeThresholdPolicy:
    """Keep every scoring unit, never return, bank at a threshold (points)."""

    rules: MackeRules = MackeRules()
    bank_at: Threshold | ThresholdTable = 300
    bank_at_clear: Threshold = 300

    def __post_init__(self) -> None:
        if self.bank_at is None or isinstance(self.bank_at, (int, np.integer)):
            object.__setattr__(self, "bank_at", _check(self.bank_at))
        else:
            # row 0 and column 0 are never read: stored as None, so equal
            # policies compare equal
            table = tuple(tuple(None if t == 0 or d == 0 else _check(k) for d, k in enumerate(row))
                          for t, row in enumerate(self.bank_at))
            shape = (self.rules.throws, self.rules.n_dice)
            if len(table) != shape[0] or any(len(row) != shape[1] for row in table):
                raise ValueError(f"a bank_at table needs shape (throws, n_dice) = {shape} "
                                 "indexed [throws_left][dice_left]")
            object.__setattr__(self, "bank_at", table)
        object.__setattr__(self, "bank_at_clear", _check(self.bank_at_clear))

    @classmethod
    def simple(cls, rules: MackeRules, k: Threshold) -> "MackeThresholdPolicy":
        """"Bank at >= k" everywhere, after a clear too (``None``: never bank)."""
        return cls(rules, k, k)

    @classmethod
    def first_chance(cls, rules: MackeRules) -> "MackeThresholdPolicy":
        """Bank at the first chance to add points: turn total >= ``min_score``."""
        return cls.simple(rules, rules.min_score)

    @property
    def is_constant(self) -> bool:
        return not isinstance(self.bank_at, tuple)

    def threshold(self, throws_left: int, dice_left: int) -> Threshold:
        """Bank at >= this (points; None: never) with that many throws and dice left."""
        if dice_left == 0:
            return self.bank_at_clear
        if self.is_constant:
            return self.bank_at
        return self.bank_at[throws_left][dice_left]

    def label(self) -> str:
        def pts(t):
            return "never" if t is None else f"{t:,}"
        if self.is_constant and self.bank_at == self.bank_at_clear:
            return "never bank" if self.bank_at is None else f"bank at ≥ {self.bank_at:,}"
        main = "by throws and dice left" if not self.is_constant else pts(self.bank_at)
        return f"bank at ≥ {main}, after a clear ≥ {pts(self.bank_at_clear)}"

    @functools.cached_property
    def tables(self) -> MackeTables:
        return build_macke_tables(self.rules)

    # --- the MackePolicy protocol -------------------------------------------------
    def before_throw(self, view: TurnView) -> int:
        return view.aside

    def keep(self, view: TurnView, throw: int, keeps: list[int]) -> int:
        k = int(self.tables.all_keep[throw])
        if k not in keeps:
            raise ValueError(f"throw {throw}: the all-units keep {k} is not among the legal keeps")
        return k

    def bank(self, view: TurnView) -> bool:
        t = self.tables
        dice_left = self.rules.n_dice - int(t.state_dice[view.aside])
        k = self.threshold(view.throws_left, dice_left)
        return k is not None and view.turn_total(t) >= k

    # --- the kernel's form ----------------------------------------------------------
    def to_array(self) -> np.ndarray:
        """int64 ``a[throws_left, dice_left]`` (units of 50), column 0 the clear."""
        a = np.full(POLICY_SHAPE, NEVER, dtype=np.int64)
        for t in range(POLICY_SHAPE[0]):
            a[t, 0] = _units(self.bank_at_clear)
            for d in range(1, POLICY_SHAPE[1]):
                if self.is_constant:
                    a[t, d] = _units(self.bank_at)
                elif t < self.rules.throws and d < self.rules.n_dice:
                    a[t, d] = _units(self.bank_at[t][d])
        return a

    @classmethod
    def from_array(cls, rules: MackeRules, a: np.ndarray) -> "MackeThresholdPolicy":
        """Inverse of :meth:`to_array` (a constant table comes back as one number)."""
        used = a[1:rules.throws, 1:rules.n_dice]
        clear = _points(a[0, 0])
        if used.size == 0 or (used == used.flat[0]).all():
            return cls(rules, _points(a[1, 1]), clear)
        table = tuple(tuple(_points(a[t, d]) for d in range(rules.n_dice))
                      for t in range(rules.throws))
        return cls(rules, table, clear)

"""Threshold policies: what players actually do, as a small parameter table.

Part of the policy layer. Per card the player follows

- a **keep rule** from ``tables.KEEP_RULES`` (which scoring dice to set aside);
- **bank thresholds** by dice left after setting aside (1..5): bank as soon as
  the turn total reaches the threshold (Bonus and x2 only: no other card
  allows banking before a Tutto);
- a **draw-below** threshold: after a Tutto with this card, draw another card
  while the turn total is below it, else bank (reported as dice left "6":
  after a Tutto the player has 6 dice again);
- for the Straße, how many new numbers to set aside per throw at most.

:meth:`ThresholdPolicy.to_array` gives the int64 array the kernels and the
exact evaluator read (``kernels.tutto_turn.COL_*``), in units of 50.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import KEEP_RULES
from tutto_sim.tutto.cards import BANKABLE_CARDS, N_CARDS, Card
from tutto_sim.tutto.turn_kernel import COL_DRAW, COL_KEEP, COL_STREET, N_COLS, NEVER

DICE_LEFT = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class CardPolicy:
    """Decisions under one card. Thresholds in points; ``None`` means never."""

    keep: str = "all"
    bank_at: tuple[int | None, ...] = (None,) * 5  # by dice left 1..5
    draw_below: int | None = 0  # 0: always bank after a Tutto
    street_take: int = 6

    def __post_init__(self) -> None:
        if self.keep not in KEEP_RULES:
            raise ValueError(f"unknown keep rule {self.keep!r}; valid: {', '.join(KEEP_RULES)}")
        if len(self.bank_at) != 5:
            raise ValueError("bank_at needs one threshold for each of 1..5 dice left")
        for t in (*self.bank_at, self.draw_below):
            if t is not None and (t < 0 or t % POINT_UNIT):
                raise ValueError(f"thresholds must be non-negative multiples of 50, not {t}")
        if not 1 <= self.street_take <= 6:
            raise ValueError(f"street_take must be 1..6, not {self.street_take}")

    def thresholds(self) -> dict[str, int | None]:
        """Dice left "1".."6" -> bank at >= points ("6": after a Tutto)."""
        d = {str(n): t for n, t in zip(DICE_LEFT, self.bank_at)}
        d["6"] = self.draw_below
        return d


def _units(points: int | None) -> int:
    return NEVER if points is None else points // POINT_UNIT


def _points(units: int) -> int | None:
    return None if units >= NEVER else int(units) * POINT_UNIT


@dataclass(frozen=True)
class ThresholdPolicy:
    """One :class:`CardPolicy` per card.

    >>> p = ThresholdPolicy.uniform(bank_at=300)
    >>> ThresholdPolicy.from_array(p.to_array()) == p
    True
    """

    cards: tuple[CardPolicy, ...] = field(default_factory=lambda: (CardPolicy(),) * N_CARDS)

    def __post_init__(self) -> None:
        if len(self.cards) != N_CARDS:
            raise ValueError(f"need {N_CARDS} card policies, got {len(self.cards)}")

    def __getitem__(self, card: Card) -> CardPolicy:
        return self.cards[int(card)]

    def with_card(self, card: Card, cp: CardPolicy) -> "ThresholdPolicy":
        cards = list(self.cards)
        cards[int(card)] = cp
        return replace(self, cards=tuple(cards))

    @classmethod
    def uniform(cls, bank_at: int | None = 300, draw_below: int | None = 0,
                keep: str = "all", street_take: int = 6) -> "ThresholdPolicy":
        """The same thresholds under every card (banking only where allowed)."""
        cards = []
        for c in Card:
            bank = (bank_at,) * 5 if c in BANKABLE_CARDS else (None,) * 5
            cards.append(CardPolicy(keep, bank, draw_below, street_take))
        return cls(tuple(cards))

    def to_array(self) -> np.ndarray:
        a = np.zeros((N_CARDS, N_COLS), dtype=np.int64)
        for c, cp in enumerate(self.cards):
            a[c, COL_KEEP] = KEEP_RULES.index(cp.keep)
            for n, t in zip(DICE_LEFT, cp.bank_at):
                a[c, n] = _units(t) if Card(c) in BANKABLE_CARDS else NEVER
            a[c, COL_DRAW] = _units(cp.draw_below)
            a[c, COL_STREET] = cp.street_take
        return a

    @classmethod
    def from_array(cls, a: np.ndarray) -> "ThresholdPolicy":
        cards = []
        for c in range(N_CARDS):
            cards.append(CardPolicy(
                keep=KEEP_RULES[int(a[c, COL_KEEP])],
                bank_at=tuple(_points(a[c, n]) for n in DICE_LEFT),
                draw_below=_points(a[c, COL_DRAW]),
                street_take=int(a[c, COL_STREET]),
            ))
        return cls(tuple(cards))


def baseline_bank_at_300() -> ThresholdPolicy:
    """Baseline: bank as soon as the turn total is 300 or more (also after a Tutto)."""
    return ThresholdPolicy.uniform(bank_at=300, draw_below=300)


def baseline_never_bank() -> ThresholdPolicy:
    """Baseline: never bank before a Tutto; bank right after it."""
    return ThresholdPolicy.uniform(bank_at=None, draw_below=0)


#: What the other cards do while ``optimize`` searches one card: a plain
#: rule of thumb (documented in docs/optimize.md), not an optimum.
DEFAULT_POLICY = ThresholdPolicy(tuple(
    CardPolicy("all", (300, 400, 700, 1500, 3000) if c in BANKABLE_CARDS else (None,) * 5,
               draw_below=2000)
    for c in Card
))

"""What every reference game shares: the record of one game and each bot's
private random generator. Game-independent."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tutto_sim.core.rng import GOLDEN, MASK, stream_start


@dataclass
class GameRecord:
    """What happened in one game (real points)."""

    scores: list[int]  # final scores by seat
    winners: tuple[int, ...]  # seats sharing the win
    turns: int  # turns played, all seats together
    end: str  # one of END_KINDS
    banked: list[int]  # points banked by seat, summed over its turns (before deductions)
    banked_sq: list[int]  # sum of squares of the banked points per turn, by seat
    turns_by_seat: list[int]
    errors: list[tuple[int, str]] = field(default_factory=list)  # (seat, message) per illegal action

    def share(self, seat: int) -> float:
        """This seat's part of the win: 1/k for each of k tied winners."""
        return 1.0 / len(self.winners) if seat in self.winners else 0.0


def bot_rng(seed: int, index: int, seat: int) -> random.Random:
    """The private generator of the bot in ``seat`` of game ``index``."""
    return random.Random(stream_start(seed, index) ^ ((seat + 1) * GOLDEN & MASK))


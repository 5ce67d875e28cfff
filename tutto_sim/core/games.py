"""What every reference game shares: the record of one game, each bot's private
random generator, and closing a game (the highest score wins, ties share).
Game-independent."""

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


def game_over(game, winners, end, banked, banked_sq, turns_by_seat, errors) -> GameRecord:
    """Close a dice game's reference game: the highest score wins and
    ties share unless ``winners`` is already decided; narrate and record."""
    n = len(game.scores)
    if winners is None:
        top = max(game.scores)
        winners = tuple(j for j in range(n) if game.scores[j] == top)
    game.say("game over: " + ", ".join(f"{game._who(j)} {s:,}" for j, s in enumerate(game.scores))
             + "; winner" + ("s " if len(winners) > 1 else " ")
             + ", ".join(game._who(j) for j in winners))
    return GameRecord(list(game.scores), winners, game.turn, end, banked, banked_sq,
                      turns_by_seat, errors)

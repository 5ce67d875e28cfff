"""The bot API: what a bot sees at a decision and what it may answer.

Part of the game layer (full games for N players, bots, tournaments). A
bot is any object with a ``name`` and an ``act(decision)`` method
(:class:`Bot`). At every choice the game hands it a :class:`Decision`: the
public game state (:class:`GameView`: scores, whose turn, the round, the cards
left in the deck), the card, the throw and the tuple of ``legal`` actions.
The bot returns one element of ``decision.legal``; anything else is an
illegal action, which the game reports by the bot's name and counts as a
bust (the turn ends and its turn total is lost), and the game goes on.

Nothing here is specific to one game except the decision kinds, which are
Tutto's; a second game (Berliner Macke) adds its own kinds and reuses the
rest.

A bot that always keeps the most dice and banks at 400:

>>> class Greedy:
...     name = "greedy"
...     def act(self, d):
...         if d.kind in (KEEP, STREET):
...             return max(d.legal, key=lambda k: (len(k.dice), k.points))
...         if d.kind == BANK_OR_THROW:
...             return BANK if d.turn_total >= 400 else THROW
...         return BANK                      # after a Tutto: bank
>>> isinstance(Greedy(), Bot)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

from tutto_sim.core.api import Bot, IllegalAction, ask  # noqa: F401  (part of the bot API)
from tutto_sim.dice.api import BANK, BANK_OR_THROW, KEEP, THROW  # noqa: F401

# Tutto's own decision kinds and actions (the shared ones: dice.api).
STREET = "street"  # Straße: set aside new numbers (legal: Keep with points 0)
BANK_OR_DRAW = "bank-or-draw"  # after a Tutto (legal: BANK, DRAW)
DRAW = "draw"


class Keep(NamedTuple):
    """Dice to set aside: the faces (sorted) and what they score alone.

    ``points`` are the dice's points even where the card does not count
    them (Plus/Minus, Kleeblatt, Straße: 0 under the Straße).
    """

    dice: tuple[int, ...]
    points: int

    def __str__(self) -> str:
        return " ".join(map(str, self.dice)) + (f" ({self.points})" if self.points else "")


@dataclass(frozen=True)
class GameView:
    """The public state of a game at a decision (everything every player sees)."""

    game: str  # "tutto"
    rules: object  # the game's rules object (TuttoRules)
    names: tuple[str, ...]  # bot names by seat
    scores: tuple[int, ...]  # banked scores by seat, real points
    seat: int  # whose turn it is
    turn: int  # turns played before this one (all players)
    round: int  # 0-based; seat 0 starts every round
    last_round: bool  # someone reached the target: the game ends after this round
    deck_left: tuple[int, ...]  # cards left in the deck, per card kind (index = Card)
    #: the banked scores at the start of this turn, before its Plus/Minus deductions
    #: (None: ``scores``); they fix who the turn's Plus/Minus Tuttos take from
    turn_start: tuple[int, ...] | None = None

    @property
    def my_score(self) -> int:
        return self.scores[self.seat]

    @property
    def best_other(self) -> int:
        return max((s for i, s in enumerate(self.scores) if i != self.seat), default=0)


@dataclass(frozen=True)
class Decision:
    """One choice of the player whose turn it is.

    ``turn_total`` and ``card_points`` (points rolled under this card) are
    real points: before the throw for ``KEEP`` and ``STREET``, after the keep
    for ``BANK_OR_THROW`` and after the Tutto's reward for ``BANK_OR_DRAW``.
    ``dice`` is the number of dice thrown (``KEEP``, ``STREET``) or left to
    throw (``BANK_OR_THROW``). ``rng`` is a generator private to this seat and
    game, seeded from the run's seed, for bots that randomise.
    """

    kind: str
    legal: tuple
    game: GameView
    card: object  # rules.Card
    turn_total: int
    card_points: int = 0
    dice: int = 6
    throw: tuple[int, ...] | None = None
    street_numbers: tuple[int, ...] = ()  # Straße: numbers set aside so far
    plusminus_tuttos: int = 0  # Plus/Minus Tuttos this turn (made so far)
    rng: random.Random | None = field(default=None, compare=False, repr=False)



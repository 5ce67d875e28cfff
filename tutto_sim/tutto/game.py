"""Reference Tutto game: whole games for 1-8 players in plain Python (docs/rules.md §4-5).

Part of the game layer. Written to be read beside docs/rules.md; the numba game
kernel (``tutto.game_kernel``) plays the same games and the tests demand
identical results on the same seeds. Any :class:`~tutto_sim.tutto.api.Bot`
can play here; only table and threshold bots also run in the kernel.

Random numbers: game ``i`` of a run with seed ``s`` reads stream ``(s, i)``
(``tutto_sim.core.rng``) for its cards and dice, in the order they are needed:

- **Cards** (rule option ``deck="real"``, the default) are drawn without
  replacement. The deck starts in card order (10 Stop, 5 Feuerwerk, ...
  1 Kleeblatt); drawing is one step of a forward Fisher–Yates shuffle: with
  ``p`` cards drawn, ``j = p + below(56 - p)``, swap cards ``p`` and ``j``,
  the card drawn is card ``p``. When all 56 are drawn the next draw starts
  again at ``p = 0``: all 56 cards reshuffled (the ``reshuffle`` option
  ``discard``, docs/rules.md §5, is identical: the discard pile is then the
  whole deck). With ``deck="iid"`` every card is ``DECK[below(56)]``, one
  draw from the stream: the deck in card order is the table of the inverse
  distribution function at steps of 1/56, so card c comes with probability
  (its count)/56 (10/56 Stop, 5/56 Feuerwerk, ..., 1/56 Kleeblatt), whatever
  was drawn before, exactly as the turn analysis assumes (docs/rules.md §6).
- **A throw** of n dice is ``r = below(6**n)``, die i showing
  ``(r // 6**i) % 6 + 1``, as in ``tutto.reference``.

Game flow: seat 0 starts; a turn draws a card and plays it (docs/rules.md
§4). The players a Plus/Minus Tutto takes from are fixed once, at the start
of the turn, from the banked scores before it: every *other* player holding
the highest score (the roller's included in finding it; a roller strictly
ahead takes from nobody). When the turn is banked, k Plus/Minus Tuttos take
k x 1000 from each of them, never below 0 (option
``plusminus_deduction="tutto"``: 1000 at each Tutto itself, from the same
players, even if the turn is later lost). A Kleeblatt success wins at once.
When a player ends a turn at or above the target, ``game_end="round"``
finishes the round (the highest score wins, ties share the win: 1/k each);
``"immediate"`` ends the game with that player the winner (the loop and the
``max_rounds`` cap: ``dice.game``).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Callable, Sequence

from tutto_sim.core.games import GameRecord
from tutto_sim.core.rng import Stream
from tutto_sim.dice.game import DiceGame, InstantWin
from tutto_sim.dice.reference import best_split
from tutto_sim.dice.scoring import ScoringRules
from tutto_sim.tutto.api import (
    BANK,
    BANK_OR_DRAW,
    BANK_OR_THROW,
    DRAW,
    KEEP,
    STREET,
    THROW,
    Bot,
    Decision,
    GameView,
    Keep,
    ask,
)
from tutto_sim.tutto.cards import BANKABLE_CARDS, N_CARDS, Card
from tutto_sim.tutto.reference import DECK
from tutto_sim.tutto.rules import TuttoRules

END_ROUND = "round"  # the round after someone reached the target was finished
END_TARGET = "target"  # game_end "immediate": the first to reach the target won
END_CLOVERLEAF = "cloverleaf"  # a Kleeblatt success
END_CAP = "cap"  # max_rounds reached
END_KINDS = (END_ROUND, END_TARGET, END_CLOVERLEAF, END_CAP)


@dataclass(frozen=True)
class GameConfig:
    """Rules plus the engine knobs that are not rules (cards drawn independently
    are the rule option ``rules.deck="iid"``)."""

    rules: TuttoRules = TuttoRules()
    #: Safety net: a game ends after this many rounds (never reached by sane bots).
    max_rounds: int = 1000

    def __post_init__(self) -> None:
        if self.max_rounds < 1:
            raise ValueError(f"max_rounds must be >= 1, not {self.max_rounds}")


@functools.lru_cache(maxsize=4096)
def legal_keeps(dice: tuple[int, ...], scoring: ScoringRules) -> tuple[Keep, ...]:
    """Every distinct set of dice that may be set aside from a throw (docs/rules.md §3),
    with its points; fewest dice first. Empty: the throw is a Niete."""
    keeps = []
    for size in range(1, len(dice) + 1):
        for subset in sorted(set(itertools.combinations(sorted(dice), size))):
            points = best_split(subset, scoring)
            if points is not None:
                keeps.append(Keep(subset, points))
    return tuple(keeps)


def street_keeps(new: Sequence[int]) -> tuple[Keep, ...]:
    """Straße: every non-empty set of the new numbers (one die each); fewest first."""
    return tuple(Keep(s, 0) for size in range(1, len(new) + 1)
                 for s in itertools.combinations(sorted(new), size))


def throw_dice(stream: Stream, n: int) -> tuple[int, ...]:
    r = stream.below(6**n)
    return tuple((r // 6**i) % 6 + 1 for i in range(n))


class Deck:
    """The 56 cards, drawn without replacement, or independently at the deck
    frequencies with ``independent`` (see the module docstring)."""

    def __init__(self, stream: Stream, independent: bool = False):
        self.stream = stream
        self.independent = independent
        self.cards = list(DECK)
        self.drawn = 0

    def draw(self) -> Card:
        n = len(self.cards)
        if self.independent:
            return DECK[self.stream.below(n)]
        if self.drawn == n:  # empty: all 56 cards are shuffled again
            self.drawn = 0
        p = self.drawn
        j = p + self.stream.below(n - p)
        self.cards[p], self.cards[j] = self.cards[j], self.cards[p]
        self.drawn += 1
        return self.cards[p]

    def left(self) -> tuple[int, ...]:
        rest = DECK if self.independent else self.cards[self.drawn:]
        counts = [0] * N_CARDS
        for c in rest:
            counts[c] += 1
        return tuple(counts)


class TuttoGame(DiceGame):
    """One game: ``TuttoGame(bots, config, seed, index).play()`` -> :class:`GameRecord`.

    ``bots[j]`` plays seat j. ``narrate``, if given, receives one line of text
    per event (cards, throws, keeps, banks), for the terminal game. The loop is
    ``dice.game.DiceGame``'s; a second Tutto in a row under the Kleeblatt is its
    instant win.
    """

    END_FINISHED, END_TARGET, END_INSTANT, END_CAP = END_ROUND, END_TARGET, END_CLOVERLEAF, END_CAP
    INSTANT_WIN_WORDS = "wins at once with the Kleeblatt!"

    def __init__(self, bots: Sequence[Bot], config: GameConfig = GameConfig(), seed: int = 1,
                 index: int = 0, narrate: Callable[[str], None] | None = None):
        super().__init__(bots, config, seed, index, narrate)
        self.deck = Deck(self.stream, self.rules.deck == "iid")
        self.turn_start = tuple(self.scores)  # the banked scores at the start of this turn

    def immediate(self) -> bool:
        return self.rules.game_end == "immediate"

    def _reached(self, seat: int) -> None:
        self.say(f"{self._who(seat)} reached {self.rules.target:,}: the round is finished")

    # ---- one turn (docs/rules.md §4) --------------------------------------
    def _turn(self, seat: int) -> int:
        """Play one turn; return the points banked (0 if lost)."""
        scoring = self.rules.scoring
        turn_total = 0
        pm_tuttos = 0  # Plus/Minus Tuttos of this turn
        self.turn_start = tuple(self.scores)
        losers = self.plusminus_losers(seat)
        card = self._draw(seat)
        while True:
            if card is Card.STOP:
                self.say("Stop: the turn total is lost")
                return 0

            if card is Card.STREET:
                have: list[int] = []
                while len(have) < 6:
                    dice = self._throw(6 - len(have))
                    new = sorted(set(dice) - set(have))
                    if not new:
                        self.say("Niete: no new number; the turn total is lost")
                        return 0
                    keep = self._ask(seat, STREET, street_keeps(new), card, turn_total,
                                     throw=dice, street_numbers=tuple(sorted(have)),
                                     plusminus_tuttos=pm_tuttos)
                    have += keep.dice
                    self.say(f"sets aside {' '.join(map(str, keep.dice))}; Straße so far "
                             f"{' '.join(map(str, sorted(have)))}")
                turn_total += 2000  # completing the Straße counts as a Tutto
                self.say(f"Straße complete: +2000, turn total {turn_total:,}")
            else:
                dice_left = 6
                card_points = 0
                clover_tuttos = 0
                counts = card in BANKABLE_CARDS or card is Card.FIREWORKS
                while True:
                    dice = self._throw(dice_left)
                    keeps = legal_keeps(tuple(sorted(dice)), scoring)
                    if not keeps:
                        if card is Card.FIREWORKS:  # the Feuerwerk ends with a Niete and banks
                            self.say(f"Niete: the Feuerwerk ends; banks {turn_total:,}")
                            return self._bank(losers, turn_total, pm_tuttos)
                        self.say("Niete: the turn total is lost")
                        return 0
                    if card is Card.FIREWORKS:  # forced: every scoring die
                        most = max(len(k.dice) for k in keeps)
                        keep = max((k for k in keeps if len(k.dice) == most), key=lambda k: k.points)
                    else:
                        keep = self._ask(seat, KEEP, keeps, card, turn_total, card_points,
                                         dice=dice_left, throw=dice, plusminus_tuttos=pm_tuttos)
                    dice_left -= len(keep.dice)
                    if counts:
                        turn_total += keep.points
                        card_points += keep.points
                    shown = keep if counts else " ".join(map(str, keep.dice))  # no points here
                    left = "1 die" if dice_left == 1 else f"{dice_left} dice"
                    self.say(f"sets aside {shown}; turn total {turn_total:,}, {left} left")
                    if dice_left == 0:
                        if card is Card.FIREWORKS:
                            self.say("Tutto under the Feuerwerk: on with 6 dice")
                            dice_left = 6
                            continue
                        if card is Card.CLOVERLEAF:
                            clover_tuttos += 1
                            if clover_tuttos == 2:
                                raise InstantWin
                            self.say("first Tutto under the Kleeblatt: one more in a row wins")
                            dice_left = 6
                            continue
                        break
                    if card in BANKABLE_CARDS:
                        choice = self._ask(seat, BANK_OR_THROW, (BANK, THROW), card, turn_total,
                                           card_points, dice=dice_left, plusminus_tuttos=pm_tuttos)
                        if choice == BANK:
                            self.say(f"banks {turn_total:,}")
                            return self._bank(losers, turn_total, pm_tuttos)
                # a Tutto under a Bonus, x2 or Plus/Minus card
                if card is Card.X2:
                    turn_total = (turn_total + card_points if self.rules.x2_scope == "card"
                                  else 2 * turn_total)
                    self.say(f"Tutto with x2: turn total {turn_total:,}")
                elif card is Card.PLUSMINUS:
                    turn_total += 1000
                    self.say(f"Tutto with Plus/Minus: +1000, turn total {turn_total:,}")
                    pm_tuttos += 1
                    if self.rules.plusminus_deduction == "tutto":
                        self._deduct(losers, 1)
                    if self.rules.plusminus_chain == "bank":
                        return self._bank(losers, turn_total, pm_tuttos)
                    if self.rules.plusminus_chain == "flat":
                        return self._bank(losers, 1000, pm_tuttos)
                else:
                    turn_total += card.bonus
                    self.say(f"Tutto with {card.display}: +{card.bonus}, turn total {turn_total:,}")
            # after a Tutto: bank, or draw a new card and play it with 6 dice
            choice = self._ask(seat, BANK_OR_DRAW, (BANK, DRAW), card, turn_total,
                               plusminus_tuttos=pm_tuttos)
            if choice == BANK:
                self.say(f"banks {turn_total:,}")
                return self._bank(losers, turn_total, pm_tuttos)
            card = self._draw(seat)

    def _bank(self, losers: tuple[int, ...], points: int, pm_tuttos: int) -> int:
        if self.rules.plusminus_deduction == "bank":
            self._deduct(losers, pm_tuttos)
        return points

    def plusminus_losers(self, seat: int) -> tuple[int, ...]:
        """The players this turn's Plus/Minus Tuttos take from, fixed at its
        start: every other player holding the highest banked score (the
        roller's included in finding it), none of them at 0."""
        top = max(self.scores)
        return tuple(j for j in range(self.n) if j != seat and self.scores[j] == top and top > 0)

    def _deduct(self, losers: tuple[int, ...], tuttos: int) -> None:
        """``tuttos`` Plus/Minus Tuttos: 1000 each from every player in
        ``losers``, never below 0."""
        for j in losers:
            if tuttos > 0 and self.scores[j] > 0:
                self.scores[j] = max(0, self.scores[j] - 1000 * tuttos)
                self.say(f"Plus/Minus: {self._who(j)} loses {1000 * tuttos:,}, "
                         f"now {self.scores[j]:,}")

    # ---- helpers -------------------------------------------------------
    def _draw(self, seat: int) -> Card:
        card = self.deck.draw()
        self.say(f"{self._who(seat)} draws {card.display}")
        return card

    def _throw(self, n: int) -> tuple[int, ...]:
        dice = throw_dice(self.stream, n)
        self.say(f"throws {' '.join(map(str, dice))}")
        return dice

    def view(self, seat: int) -> GameView:
        return GameView("tutto", self.rules, tuple(b.name for b in self.bots), tuple(self.scores),
                        seat, self.turn, self.turn // self.n, self.last_round, self.deck.left(),
                        self.turn_start)

    def _ask(self, seat: int, kind: str, legal: tuple, card: Card, turn_total: int,
             card_points: int = 0, dice: int = 6, throw=None, street_numbers=(),
             plusminus_tuttos: int = 0):
        decision = Decision(kind, legal, self.view(seat), card, turn_total, card_points, dice,
                            None if throw is None else tuple(throw), tuple(street_numbers),
                            plusminus_tuttos, self.rngs[seat])
        return ask(self.bots[seat], decision)


def play_game(bots: Sequence[Bot], config: GameConfig = GameConfig(), seed: int = 1,
              index: int = 0, narrate: Callable[[str], None] | None = None) -> GameRecord:
    """Play game ``index`` of a run with ``seed``: stream ``(seed, index)``."""
    return TuttoGame(bots, config, seed, index, narrate).play()

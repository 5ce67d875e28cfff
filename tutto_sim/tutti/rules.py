"""Tutti's rules as one frozen settings object (docs/tutti.md).

Tutti is a Tute with the 40-card Italian deck (``tutti.cards``). This module
is the first link of the game's chain: rules → ``reference`` (the readable
engine) → kernels and search bots later. Every option is a field here, with
its default; docs/tutti.md gives the reason for each default.

The game, as states and moves
-----------------------------
*Seats.* ``n ∈ {2, 3, 4}`` players at seats ``0..n-1``; playing order is
``p → p + 1 (mod n)``. Sides: with ``pairs`` (``n = 4``) side ``p mod 2``
(partners opposite), else side ``p``.

*Cards.* Deck ``D`` = 40 cards (36 without the 2s for ``n = 3``); each card
has a suit, a rank ``r`` (0 = Ace strongest … 9 = Two) and points
``v`` (11, 10, 4, 3, 2, 0…); ``Σ_D v = 120``.

*Deal.* Leader ``ℓ`` (seat 0 in the first hand), dealer ``ℓ - 1``. The
shuffled deck is dealt in blocks of ``h`` cards (``h`` = 8, 12, 10 for
``n`` = 2, 3, 4) to ``ℓ, ℓ+1, …``, the dealer last. ``n = 2``: card 17 is the
face-up trump card ``t``; the stock is the other 23 cards in order, then
``t``. ``n ≥ 3``: the dealer's last card is shown, its suit is trump ``T``.

*Trick.* Led suit ``L``. A follower's legal set ``M ⊆ H`` (his hand):
with duties (``n ≥ 3``, or ``n = 2`` and empty stock)

1. ``H_L ≠ ∅``: ``M = H_L``; if no trump lies in the trick (or ``L = T``),
   ``M`` = the cards of ``H_L`` beating the best ``L`` card, if any;
2. ``H_L = ∅``: ``M`` = the trumps beating every trump in the trick, if any;
3. else ``M = H``.

Without duties ``M = H``; with ``must_answer_trump``, ``L = T`` and
``H_T ≠ ∅``: ``M = H_T``. The highest trump wins, else the highest ``L``.
``n = 2``: the winner draws, then the other, while the stock lasts.

*Exchange* (``n = 2``, stock not empty, own turn before the card, at least
one trick won this hand): trump 7 ↔ ``t`` if ``t`` is A, 3, K, H or J; trump
2 ↔ ``t`` if ``t`` is 7, 6, 5 or 4.

*Declarations.* Right after winning a trick, until the next card: one of
K+H of suit ``s`` (not declared yet): 40 if ``s = T``, else 20; no 20 while
the 40 can be declared. ``n = 2``: stock not empty after the draw, and not
with the card just drawn. ``pairs``: either partner. *Tute*
(``allow_tute``): four Kings or four Horses, by a player with an earlier
declaration this hand; it ends the hand and wins the match (``tute_wins =
"match"``) or the hand (``"hand"``).

*Score.* Side score = card points + 10 for the last trick + declarations;
without a Tute the sides' scores sum to ``130 + Σ declarations``. Most
points wins the hand; a tie replays it with the same leader. The first side
to win ``hands`` hands wins the match; the next hand is led by ``ℓ + 1``.

Examples
--------
>>> TuttiRules().players, TuttiRules().tute_wins
(2, 'match')
>>> TuttiRules(players=4, pairs=True).sides
2
>>> TuttiRules.from_dict(TuttiRules(hands=3).to_dict()) == TuttiRules(hands=3)
True
>>> TuttiRules(players=3, pairs=True)
Traceback (most recent call last):
...
ValueError: pairs needs 4 players, not 3
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from tutto_sim.core.rules import GameRules

PLAYER_CHOICES = (2, 3, 4)
TUTE_WINS_CHOICES = ("match", "hand")
HANDS_CHOICES = (1, 2, 3, 4, 5)
#: Cards per hand at the deal.
HAND_SIZE = {2: 8, 3: 12, 4: 10}
#: Cards in the 2-player stock (the face-up trump card last).
STOCK_SIZE = 24


@dataclass(frozen=True)
class TuttiRules(GameRules):
    """Settings of a Tutti match; docs/tutti.md gives each default's reason."""

    GAME = "tutti"
    TITLE = "Tutti"

    #: Table size: 2 (with a stock), 3 (the 2s removed) or 4.
    players: int = 2
    #: 4 players only: partners sit opposite (seats 0+2, 1+3) and score together.
    pairs: bool = False
    #: 2 players, stock not empty: a trump led must be answered with a trump.
    must_answer_trump: bool = False
    #: Four Kings or four Horses may be declared as a Tute.
    allow_tute: bool = True
    #: What a Tute wins: the whole "match" at once, or only the "hand".
    tute_wins: str = "match"
    #: Hands a player (pair) must win to win the match.
    hands: int = 1

    def __post_init__(self) -> None:
        self.check_choice("players", PLAYER_CHOICES)
        self.check_flags("pairs", "must_answer_trump", "allow_tute")
        if self.pairs and self.players != 4:
            raise ValueError(f"pairs needs 4 players, not {self.players}")
        self.check_choice("tute_wins", TUTE_WINS_CHOICES)
        self.check_choice("hands", HANDS_CHOICES)

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 with pairs, else one per player."""
        return 2 if self.pairs else self.players

    def side(self, seat: int) -> int:
        """The scoring side of a seat."""
        return seat % 2 if self.pairs else seat

    @property
    def hand_size(self) -> int:
        return HAND_SIZE[self.players]

    def to_dict(self) -> dict:
        return {"game": self.GAME, **asdict(self)}


def table_rules(rules: TuttiRules, players: int) -> TuttiRules:
    """The rules for a table of ``players`` (``--players``): 2, 3 or 4; pairs only at 4."""
    from tutto_sim.core.cli import UserError

    if players not in PLAYER_CHOICES:
        raise UserError(f"--players must be 2, 3 or 4 for Tutti, not {players}")
    if rules.pairs and players != 4:
        raise UserError(f"--pairs on needs --players 4, not {players}")
    if rules.must_answer_trump and players != 2:
        raise UserError(f"--must-answer-trump on is a rule of the 2-player game (while the stock "
                        f"lasts); it does not apply to --players {players}")
    return replace(rules, players=players)

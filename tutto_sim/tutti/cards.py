"""The 40-card Italian deck of Tutti: card ids, trick order, points and codes.

A card is an integer ``c = 10·s + r`` (``0 ≤ c < 40``): suit ``s`` and rank
index ``r``. Sets of cards are 40-bit masks (bit ``c``), so a numba kernel
can hold a hand in one ``int64``.

- Suits ``s``: 0 denari (coins, ``D``), 1 coppe (cups, ``C``), 2 spade
  (swords, ``S``), 3 bastoni (batons, ``B``).
- Ranks ``r``, in trick order high to low: 0 Ace ``A``, 1 Three ``3``,
  2 King (Re) ``K``, 3 Horse (Cavallo) ``H``, 4 Jack (Fante) ``J``, then
  ``7 6 5 4 2``. Within a suit the smaller ``r`` wins.
- Points: 11, 10, 4, 3, 2 and 0 for the rest: 30 per suit, 120 in the deck.
  With 3 players the four 2s are removed (36 cards, still 120 points).

A card's **code** is its rank letter and suit letter: ``AD`` (Ace of
denari), ``3C`` (Three of coppe), ``KS`` (King of spade), ``HB`` (Horse of
bastoni). Codes are read in any case.

>>> code(0), parse("3c"), code(parse("HB"))
('AD', 11, 'HB')
>>> sum(POINTS[c] for c in deck(3)), len(deck(3)), len(deck(4))
(120, 36, 40)
>>> parse("ZZ")
Traceback (most recent call last):
...
ValueError: unknown card 'ZZ'; valid: a rank A 3 K H J 7 6 5 4 2 then a suit D (denari) C (coppe) S (spade) B (bastoni), as AD, 3C, KS, HB
"""

from __future__ import annotations

from typing import Iterable

#: Suit letters and names (index = suit number).
SUITS = "DCSB"
SUIT_NAMES = ("denari", "coppe", "spade", "bastoni")
SUIT_ENGLISH = ("coins", "cups", "swords", "batons")
#: Rank letters and names in trick order, high to low (index = rank number).
RANKS = "A3KHJ76542"
RANK_NAMES = ("Ace", "Three", "King", "Horse", "Jack", "Seven", "Six", "Five", "Four", "Two")
ACE, THREE, KING, HORSE, JACK, SEVEN, SIX, FIVE, FOUR, TWO = range(10)
#: Ranks whose face-up trump card the trump 7 may take; those the trump 2 may take.
HIGH_RANKS = (ACE, THREE, KING, HORSE, JACK)
LOW_RANKS = (SEVEN, SIX, FIVE, FOUR)

N_SUITS = 4
N_RANKS = 10
N_CARDS = 40
RANK_POINTS = (11, 10, 4, 3, 2, 0, 0, 0, 0, 0)
#: Points of every card id.
POINTS = tuple(RANK_POINTS[c % N_RANKS] for c in range(N_CARDS))
#: Card points in a deck (either size).
DECK_POINTS = 120
#: Bonus for the last trick ("dieci dell'ultima").
LAST_TRICK = 10
#: Mask of every card of a suit.
SUIT_MASK = tuple(((1 << N_RANKS) - 1) << (N_RANKS * s) for s in range(N_SUITS))
ALL_CARDS = (1 << N_CARDS) - 1

_VALID = ("a rank A 3 K H J 7 6 5 4 2 then a suit D (denari) C (coppe) S (spade) "
          "B (bastoni), as AD, 3C, KS, HB")


def card(suit: int, rank: int) -> int:
    """The id of the card of ``rank`` in ``suit``."""
    return N_RANKS * suit + rank


def suit(c: int) -> int:
    return c // N_RANKS


def rank(c: int) -> int:
    return c % N_RANKS


def deck(players: int) -> list[int]:
    """The cards in play, ascending: all 40, without the 2s for 3 players."""
    return [c for c in range(N_CARDS) if not (players == 3 and rank(c) == TWO)]


def code(c: int) -> str:
    """``AD``, ``3C``, ...: rank letter then suit letter."""
    return RANKS[rank(c)] + SUITS[suit(c)]


def name(c: int) -> str:
    """``Ace of denari``."""
    return f"{RANK_NAMES[rank(c)]} of {SUIT_NAMES[suit(c)]}"


def parse(text: str) -> int:
    """The card of a code (any case); a one-line ValueError naming the scheme."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"unknown card {text!r}; valid: {_VALID}")
    return card(SUITS.index(t[1]), RANKS.index(t[0]))


def bit(c: int) -> int:
    return 1 << c


def mask(cards: Iterable[int]) -> int:
    """The mask of a set of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(m: int) -> list[int]:
    """The cards of a mask, ascending."""
    return [c for c in range(N_CARDS) if m >> c & 1]


def codes(m: int) -> str:
    """The codes of a mask, space-separated, ascending by id."""
    return " ".join(code(c) for c in cards_of(m))


def stronger_in_suit(s: int, r: int) -> int:
    """Mask of the cards of suit ``s`` that beat rank ``r`` of that suit."""
    return mask(card(s, q) for q in range(r))

"""The Tutto deck: card kinds, their counts, names on the CLI and in reports.

Part of the rules layer (what the games are; no numba). The integer value of
each :class:`Card` is the index the throw tables, kernels and policy arrays use,
so the order below is part of the policy file format: append, never reorder.
"""

from __future__ import annotations

import enum


class Card(enum.IntEnum):
    STOP = 0
    FIREWORKS = 1
    BONUS200 = 2
    BONUS300 = 3
    BONUS400 = 4
    BONUS500 = 5
    BONUS600 = 6
    X2 = 7
    PLUSMINUS = 8
    STREET = 9
    CLOVERLEAF = 10

    @property
    def cli_name(self) -> str:
        return self.name.lower()

    @property
    def display(self) -> str:
        return _DISPLAY[self]

    @property
    def bonus(self) -> int:
        """Points added on a Tutto for a Bonus card, 0 for every other card."""
        return BONUS_POINTS.get(self, 0)

    @property
    def can_bank_before_tutto(self) -> bool:
        return self in BANKABLE_CARDS


N_CARDS = len(Card)

#: Cards in a full deck (docs/rules.md §4.1): 56 in all.
DECK_COUNTS: dict[Card, int] = {
    Card.STOP: 10,
    Card.FIREWORKS: 5,
    Card.BONUS200: 5,
    Card.BONUS300: 5,
    Card.BONUS400: 5,
    Card.BONUS500: 5,
    Card.BONUS600: 5,
    Card.X2: 5,
    Card.PLUSMINUS: 5,
    Card.STREET: 5,
    Card.CLOVERLEAF: 1,
}
DECK_SIZE = sum(DECK_COUNTS.values())
assert DECK_SIZE == 56

BONUS_POINTS: dict[Card, int] = {
    Card.BONUS200: 200,
    Card.BONUS300: 300,
    Card.BONUS400: 400,
    Card.BONUS500: 500,
    Card.BONUS600: 600,
}

#: Cards under which the player may bank before a Tutto (Bonus and x2).
BANKABLE_CARDS = frozenset(BONUS_POINTS) | {Card.X2}

_DISPLAY = {
    Card.STOP: "Stop",
    Card.FIREWORKS: "Feuerwerk (Fireworks)",
    Card.BONUS200: "Bonus 200",
    Card.BONUS300: "Bonus 300",
    Card.BONUS400: "Bonus 400",
    Card.BONUS500: "Bonus 500",
    Card.BONUS600: "Bonus 600",
    Card.X2: "x2",
    Card.PLUSMINUS: "Plus/Minus",
    Card.STREET: "Straße (Street)",
    Card.CLOVERLEAF: "Kleeblatt (Cloverleaf)",
}

_ALIASES = {
    "feuerwerk": Card.FIREWORKS,
    "strasse": Card.STREET,
    "straße": Card.STREET,
    "kleeblatt": Card.CLOVERLEAF,
    "×2": Card.X2,
    "2x": Card.X2,
    "double": Card.X2,
    "plus-minus": Card.PLUSMINUS,
    "plus/minus": Card.PLUSMINUS,
    "stopp": Card.STOP,
}

CARD_CHOICES = [c.cli_name for c in Card]


def parse_card(text: str) -> Card:
    """Card from its CLI name (``bonus400``) or German alias (``kleeblatt``).

    >>> parse_card("Straße")
    <Card.STREET: 9>
    >>> parse_card("bonus450")
    Traceback (most recent call last):
    ...
    ValueError: unknown card 'bonus450'; valid: stop, fireworks, bonus200, bonus300, bonus400, bonus500, bonus600, x2, plusminus, street, cloverleaf (also feuerwerk, strasse, straße, kleeblatt)
    """
    key = text.strip().lower()
    for card in Card:
        if card.cli_name == key:
            return card
    if key in _ALIASES:
        return _ALIASES[key]
    raise ValueError(
        f"unknown card {text!r}; valid: {', '.join(CARD_CHOICES)} "
        "(also feuerwerk, strasse, straße, kleeblatt)"
    )

"""What the games are: cards, scoring units and rule settings (no numba)."""

from .cards import BANKABLE_CARDS, CARD_CHOICES, DECK_COUNTS, DECK_SIZE, N_CARDS, Card, parse_card
from .scoring import POINT_UNIT, ScoringRules, single_points, triple_points
from .tutto import TuttoRules

__all__ = [
    "BANKABLE_CARDS",
    "CARD_CHOICES",
    "DECK_COUNTS",
    "DECK_SIZE",
    "N_CARDS",
    "POINT_UNIT",
    "Card",
    "ScoringRules",
    "TuttoRules",
    "parse_card",
    "single_points",
    "triple_points",
]

"""Dice scoring shared by every dice game here (docs/rules.md §3).

Part of the rules layer: plain data, no numba. :class:`ScoringRules` says
which units exist; ``tutto_sim.dice.throws`` turns it into throw tables and
``tutto_sim.dice.reference`` scores real dice with it directly. Points are counted in
*units of 50* everywhere inside the package (``POINT_UNIT``); only user-facing
text shows real points.
"""

from __future__ import annotations

from dataclasses import dataclass

#: All points in the games are multiples of 50; the package counts in these units.
POINT_UNIT = 50
#: Ceiling of every points option (targets, values of a win): beyond it a game or
#: a solve would never finish, so a larger number is a typing error.
MAX_POINTS = 1_000_000

SIX_OF_KIND_CHOICES = ("two-triples", "one-triple")


@dataclass(frozen=True)
class ScoringRules:
    """Which scoring units a throw can contain.

    Attributes
    ----------
    n_dice:
        Dice in a full throw (6 for Tutto, 5 for Berliner Macke).
    six_of_kind:
        ``"two-triples"`` (default): six of a face score as two triples;
        ``"one-triple"``: at most one triple of a face per throw, the other
        dice of that face score only as singles (1s and 5s) or not at all.
    """

    n_dice: int = 6
    six_of_kind: str = "two-triples"

    def __post_init__(self) -> None:
        if self.six_of_kind not in SIX_OF_KIND_CHOICES:
            raise ValueError(
                f"six_of_kind must be one of {', '.join(SIX_OF_KIND_CHOICES)}, "
                f"not {self.six_of_kind!r}"
            )
        if not 1 <= self.n_dice <= 6:
            raise ValueError(f"n_dice must be 1..6, not {self.n_dice}")

    @property
    def max_triples_per_face(self) -> int:
        return 2 if self.six_of_kind == "two-triples" else 1


def triple_points(face: int) -> int:
    """Points (real, not units) of a triple of ``face``: f x 100, 1-1-1 = 1000."""
    return 1000 if face == 1 else 100 * face


def single_points(face: int) -> int:
    """Points of a single die of ``face``: 1 = 100, 5 = 50, others do not score."""
    return {1: 100, 5: 50}.get(face, 0)

"""Tutti, the platform's Tute with the 40-card Italian deck (docs/tutti.md).

Data flows one way through the package: ``cards`` (ids, points, codes) →
``rules`` (the settings) → ``reference`` (the readable engine: deal, legal
actions, tricks, declarations, scoring, observations, whole hands and
matches) → ``bots`` (``random`` and ``heuristic``, which see only an
observation) → ``kernel`` (numba hands and matches between those bots,
identical to the reference's). The search bots: ``sampling`` (deals of the
unseen cards, uniform over what an observation allows) and ``search`` (a
numba face-up engine: playouts, exact alpha-beta) → ``pimc`` (``pimc`` and
the cheating ``cheat``) and ``ismcts``.
"""

from .rules import TuttiRules

__all__ = ["TuttiRules"]

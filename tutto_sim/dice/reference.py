"""Reference scorer: legal keeps of a throw, from the dice themselves.

Plain Python, written to be read beside docs/rules.md §3 and deliberately built
another way than ``tutto_sim.dice.throws``: it tries every subset of the dice and
every way of splitting it into units, by brute force. The tests compare the
two on all 6**n ordered throws.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import NamedTuple

from tutto_sim.dice.scoring import ScoringRules, single_points, triple_points


class Unit(NamedTuple):
    face: int
    size: int  # 1 (single) or 3 (triple)
    points: int


def units_in(dice: list[int], scoring: ScoringRules) -> list[Unit]:
    """The throw taken apart into units, triples first (docs/rules.md §3)."""
    units = []
    for face, count in sorted(Counter(dice).items()):
        triples = min(count // 3, scoring.max_triples_per_face)
        units += [Unit(face, 3, triple_points(face))] * triples
        if single_points(face):
            units += [Unit(face, 1, single_points(face))] * (count - 3 * triples)
    return units


def best_split(kept: tuple[int, ...], scoring: ScoringRules,
               triples_taken: tuple[int, ...] = ()) -> int | None:
    """Most points for setting aside exactly these dice, or None when some die
    would belong to no unit. Tries every split into singles and triples;
    ``triples_taken`` lists the faces of triples already in the split."""
    if not kept:
        return 0
    first, rest = kept[0], list(kept[1:])
    best = None
    if single_points(first):
        sub = best_split(tuple(rest), scoring, triples_taken)
        if sub is not None:
            best = sub + single_points(first)
    if rest.count(first) >= 2 and triples_taken.count(first) < scoring.max_triples_per_face:
        rest.remove(first)
        rest.remove(first)
        sub = best_split(tuple(rest), scoring, triples_taken + (first,))
        if sub is not None and (best is None or sub + triple_points(first) > best):
            best = sub + triple_points(first)
    return best


def legal_keeps(dice: list[int], scoring: ScoringRules) -> dict[int, int]:
    """dice set aside -> most points, over every non-empty legal keep."""
    out: dict[int, int] = {}
    for size in range(1, len(dice) + 1):
        for subset in set(itertools.combinations(sorted(dice), size)):
            pts = best_split(subset, scoring)
            if pts is not None and pts > out.get(size, -1):
                out[size] = pts
    return out

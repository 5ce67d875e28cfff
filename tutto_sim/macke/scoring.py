"""Reference scorer for Berliner Macke and Volle Lotte throws, from the dice.

Plain Python, read beside docs/rules.md §3 and docs/macke.md, and built
another way than ``tutto_sim.macke.tables`` (which matches face-count
patterns): here every subset of the thrown dice is taken, and every way of
splitting it into units is found by giving the smallest die left to each unit
that could contain it.
A *keep* is the multiset of units set aside, written as a sorted tuple of
unit names (``("1", "small straight")``); the names are those of
``macke.tables.unit_types`` so the tests can compare the two unit by unit.

>>> from tutto_sim.macke.rules import MackeRules
>>> best_keep([1, 2, 3, 4, 5], MackeRules())
(('big straight',), 1000)
>>> legal_keeps([2, 3, 4, 5, 5], MackeRules())[("5", "small straight")]
550
>>> legal_keeps([2, 2, 3, 4, 6], MackeRules())
{}
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from typing import NamedTuple

from tutto_sim.macke.rules import MackeRules

Keep = tuple[str, ...]


class Unit(NamedTuple):
    name: str
    faces: tuple[int, ...]  # the dice it takes, sorted
    points: int  # real points


def units_of(rules: MackeRules) -> tuple[Unit, ...]:
    """Every unit the rules know, one entry per face pattern (docs/rules.md §3
    and docs/macke.md).

    Read off the rule text: single 1 = 100, single 5 = 50, triple of f =
    f x 100 and 1-1-1 = 1000; small straight (4 long) = 500; big straight =
    1000 with 5 dice (1-5 or 2-6), 2000 with 6 (1-6, Volle Lotte); the
    jackpot's five 5s = 5000, five 1s = 10000; ``ones-and-fives`` keeps only
    1s and 5s (singles, 1-1-1, 5-5-5).
    """
    only_1_5 = rules.variant == "ones-and-fives"
    units = [Unit("1", (1,), 100), Unit("5", (5,), 50)]
    for f in ((1, 5) if only_1_5 else range(1, 7)):
        units.append(Unit(str(f) * 3, (f,) * 3, 1000 if f == 1 else 100 * f))
    if not only_1_5:
        for low in (1, 2, 3):
            units.append(Unit("small straight", tuple(range(low, low + 4)), 500))
        if rules.n_dice == 6:
            units.append(Unit("big straight", (1, 2, 3, 4, 5, 6), 2000))
        else:
            units += [Unit("big straight", (1, 2, 3, 4, 5), 1000),
                      Unit("big straight", (2, 3, 4, 5, 6), 1000)]
    if rules.variant == "jackpot":
        units += [Unit("five 5s", (5,) * 5, 5000), Unit("five 1s", (1,) * 5, 10000)]
    return tuple(units)


@functools.lru_cache(maxsize=None)
def unit_points(rules: MackeRules) -> dict[str, int]:
    """Unit name -> real points (every pattern of a name scores the same)."""
    return {u.name: u.points for u in units_of(rules)}


@functools.lru_cache(maxsize=None)
def unit_dice(rules: MackeRules) -> dict[str, int]:
    """Unit name -> dice it takes."""
    return {u.name: len(u.faces) for u in units_of(rules)}


def _take(dice: tuple[int, ...], faces: tuple[int, ...]) -> tuple[int, ...] | None:
    """``dice`` without ``faces`` (both sorted), None if they are not all there."""
    rest = list(dice)
    for f in faces:
        if f not in rest:
            return None
        rest.remove(f)
    return tuple(rest)


@functools.lru_cache(maxsize=None)
def splits(dice: tuple[int, ...], rules: MackeRules) -> frozenset[Keep]:
    """Every way of splitting exactly these (sorted) dice into units.

    The smallest die must belong to some unit; try each unit that contains
    its face, and split the rest the same way.
    """
    if not dice:
        return frozenset({()})
    out = set()
    for u in units_of(rules):
        if dice[0] not in u.faces:
            continue
        rest = _take(dice, u.faces)
        if rest is None:
            continue
        for tail in splits(rest, rules):
            out.add(tuple(sorted((u.name, *tail))))
    return frozenset(out)


def _allowed(keep: Keep, rules: MackeRules) -> bool:
    # Six of a kind (6 dice only): two triples of one face, or one (option).
    if rules.six_of_kind == "one-triple":
        return all(n <= 1 for name, n in Counter(keep).items() if len(name) == 3 and name[0] == name[1])
    return True


def legal_keeps(dice, rules: MackeRules) -> dict[Keep, int]:
    """Every non-empty keep of a throw -> its points (real); empty: a Macke."""
    dice = tuple(sorted(dice))
    jackpot = (rules.variant == "jackpot" and len(dice) == 5 and dice[0] == dice[-1]
               and dice[0] in (1, 5))
    out: dict[Keep, int] = {}
    pts = unit_points(rules)
    for size in range(1, len(dice) + 1):
        for subset in set(itertools.combinations(dice, size)):
            if jackpot and size == 5:
                # five 1s / five 5s in one throw score as the jackpot, instead
                # of their normal value
                ways = {("five 1s",) if dice[0] == 1 else ("five 5s",)}
            else:
                ways = splits(subset, rules)
            for keep in ways:
                if _allowed(keep, rules):
                    out[keep] = sum(pts[name] for name in keep)
    return out


def keep_dice(keep: Keep, rules: MackeRules) -> int:
    return sum(unit_dice(rules)[name] for name in keep)


def best_keep(dice, rules: MackeRules) -> tuple[Keep, int] | None:
    """The keep "set aside every scoring unit": most dice, then most points."""
    keeps = legal_keeps(dice, rules)
    if not keeps:
        return None
    return max(keeps.items(), key=lambda kv: (keep_dice(kv[0], rules), kv[1]))


def is_instant_win(dice, rules: MackeRules) -> bool:
    """``instant-win``: five 1s in one throw win the game at once."""
    return rules.variant == "instant-win" and len(dice) == 5 and all(d == 1 for d in dice)

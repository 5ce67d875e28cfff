"""Throw tables for Berliner Macke and Volle Lotte: units, keeps, unit states.

Part of the throw-table layer (rules -> **tables** -> solve | kernels). Macke
adds straights (and, by variant, jackpots) to the dice scoring of
docs/rules.md §3 and lets the player return set-aside *units* to the cup, so
the tables here work with units, not just dice and points:

``unit types``   (dice, points) of each kind of unit the rules allow, e.g. a
                 single 1 (1, 100), 2-2-2 (3, 200), a small straight (4, 500);
                 two units of one type are interchangeable.
``states``       every multiset of units with at most ``n_dice`` dice: what
                 can lie set aside in a series. A keep is a state too (the
                 units taken from one throw). ``state_counts[s, u]``,
                 ``state_dice[s]``, ``state_pts[s]`` (units of 50).
``add[s, k]``    the state after adding keep ``k`` to ``s`` (-1: too many dice).
``subs``         for each state the states left after returning any part of
                 it: ``sub_states[sub_start[s]:sub_start[s+1]]`` (``s`` itself,
                 i.e. returning nothing, comes first).
``keeps``        for each throw (multiset id of ``dice.throws``, 1..n dice)
                 every legal non-empty keep as a state index:
                 ``keep_states[keep_start[ms]:keep_start[ms+1]]``.
``all_keep[ms]`` the keep of "set aside every scoring unit" (most dice, then
                 most points), -1 for a Macke (no unit).
``win[ms]``      instant-win variant: five 1s in one throw.

Throws are sampled exactly as for Tutto (``dice.throws``: ``ordered``).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT, ScoringRules, single_points, triple_points
from tutto_sim.dice.throws import build_tables
from tutto_sim.macke.rules import MackeRules


@dataclass(frozen=True)
class UnitType:
    name: str
    dice: int
    points: int  # units of 50
    patterns: tuple[tuple[int, ...], ...]  # face-count vectors (6) that form it


def _counts(faces) -> tuple[int, ...]:
    c = [0] * 6
    for f in faces:
        c[f - 1] += 1
    return tuple(c)


def unit_types(rules: MackeRules) -> list[UnitType]:
    """The kinds of unit a throw can contain under ``rules`` (docs/macke.md)."""
    u = [UnitType("1", 1, single_points(1) // POINT_UNIT, (_counts([1]),)),
         UnitType("5", 1, single_points(5) // POINT_UNIT, (_counts([5]),))]
    faces = (1, 5) if rules.variant == "ones-and-fives" else (1, 2, 3, 4, 5, 6)
    for f in faces:
        u.append(UnitType(str(f) * 3, 3, triple_points(f) // POINT_UNIT, (_counts([f] * 3),)))
    if rules.variant != "ones-and-fives":
        small = tuple(_counts(range(a, a + 4)) for a in (1, 2, 3))
        u.append(UnitType("small straight", 4, 500 // POINT_UNIT, small))
        if rules.n_dice == 6:
            u.append(UnitType("big straight", 6, 2000 // POINT_UNIT, (_counts(range(1, 7)),)))
        else:
            u.append(UnitType("big straight", 5, 1000 // POINT_UNIT,
                              (_counts(range(1, 6)), _counts(range(2, 7)))))
    if rules.variant == "jackpot":
        u.append(UnitType("five 5s", 5, 5000 // POINT_UNIT, (_counts([5] * 5),)))
        u.append(UnitType("five 1s", 5, 10000 // POINT_UNIT, (_counts([1] * 5),)))
    return u


def throw_keeps(counts: tuple[int, ...], rules: MackeRules, types: list[UnitType]) -> set[tuple[int, ...]]:
    """Every non-empty keep of a throw as a unit-count vector over ``types``."""
    pats = [(i, p) for i, t in enumerate(types) for p in t.patterns]
    max_triples = 2 if rules.six_of_kind == "two-triples" else 1
    out: set[tuple[int, ...]] = set()

    def rec(j: int, left: list[int], vec: list[int]) -> None:
        if j == len(pats):
            if any(vec):
                out.add(tuple(vec))
            return
        i, p = pats[j]
        times = 0
        while True:
            rec(j + 1, left, vec)
            if any(have < need for have, need in zip(left, p)):
                break
            if types[i].dice == 3 and vec[i] >= max_triples:  # six of a kind: two triples at most
                break
            for f in range(6):
                left[f] -= p[f]
            vec[i] += 1
            times += 1
        for f in range(6):
            left[f] += p[f] * times
        vec[i] -= times

    rec(0, list(counts), [0] * len(types))
    if rules.variant == "jackpot":
        # Five 1s (five 5s) in one throw score only as the jackpot: a keep
        # that sets all five aside as ordinary units is not allowed.
        for face in (1, 5):
            if counts[face - 1] == 5:
                single = _type_index(types, str(face))
                triple = _type_index(types, str(face) * 3)
                out = {k for k in out if k[single] + 3 * k[triple] < 5}
    return out


def _type_index(types, name) -> int:
    return next(i for i, t in enumerate(types) if t.name == name)


@dataclass(frozen=True)
class MackeTables:
    rules: MackeRules
    types: tuple[UnitType, ...]
    unit_dice: np.ndarray
    unit_pts: np.ndarray
    state_counts: np.ndarray  # (S, n_types)
    state_dice: np.ndarray
    state_pts: np.ndarray
    add: np.ndarray  # (S, S) -> state or -1
    sub_start: np.ndarray
    sub_states: np.ndarray
    keep_start: np.ndarray  # per multiset id of tables.throws
    keep_states: np.ndarray
    all_keep: np.ndarray
    win: np.ndarray
    empty: int  # the state with no unit

    def state_name(self, s: int) -> str:
        parts = []
        for t, k in zip(self.types, self.state_counts[s]):
            parts += [t.name] * int(k)
        return " + ".join(parts) if parts else "nothing"


def _states(types: list[UnitType], n_dice: int) -> list[tuple[int, ...]]:
    out = []

    def rec(i: int, dice: int, vec: list[int]) -> None:
        if i == len(types):
            out.append(tuple(vec))
            return
        k = 0
        while dice + k * types[i].dice <= n_dice:
            vec.append(k)
            rec(i + 1, dice + k * types[i].dice, vec)
            vec.pop()
            k += 1

    rec(0, 0, [])
    out.sort(key=lambda v: (sum(k * t.dice for k, t in zip(v, types)), v))
    return out


@functools.lru_cache(maxsize=16)
def build_macke_tables(rules: MackeRules = MackeRules()) -> MackeTables:
    """Unit and keep tables for ``rules`` (cached; immutable)."""
    types = unit_types(rules)
    n = rules.n_dice
    states = _states(types, n)
    index = {v: i for i, v in enumerate(states)}
    dice = np.array([sum(k * t.dice for k, t in zip(v, types)) for v in states], dtype=np.int64)
    pts = np.array([sum(k * t.points for k, t in zip(v, types)) for v in states], dtype=np.int64)
    S = len(states)
    add = np.full((S, S), -1, dtype=np.int64)
    for a, va in enumerate(states):
        for b, vb in enumerate(states):
            add[a, b] = index.get(tuple(x + y for x, y in zip(va, vb)), -1)
    sub_start = [0]
    sub_states = []
    for v in states:
        subs = sorted({index[w] for w in itertools.product(*(range(k + 1) for k in v))},
                      key=lambda s: (-dice[s], s))
        sub_states += subs
        sub_start.append(len(sub_states))
    t = build_tables(ScoringRules(6, rules.six_of_kind))
    keep_start = [0]
    keep_states = []
    all_keep = np.full(t.n_multisets, -1, dtype=np.int64)
    win = np.zeros(t.n_multisets, dtype=np.bool_)
    for ms in range(t.n_multisets):
        counts = tuple(int(c) for c in t.counts[ms])
        if int(t.n_dice[ms]) <= n:
            ks = sorted(index[k] for k in throw_keeps(counts, rules, types))
            keep_states += ks
            if ks:
                all_keep[ms] = max(ks, key=lambda s: (dice[s], pts[s], -s))
            win[ms] = rules.variant == "instant-win" and counts[0] == 5
        keep_start.append(len(keep_states))
    arrays = dict(
        unit_dice=np.array([u.dice for u in types], dtype=np.int64),
        unit_pts=np.array([u.points for u in types], dtype=np.int64),
        state_counts=np.array(states, dtype=np.int64).reshape(S, len(types)),
        state_dice=dice, state_pts=pts, add=add,
        sub_start=np.array(sub_start, dtype=np.int64),
        sub_states=np.array(sub_states, dtype=np.int64),
        keep_start=np.array(keep_start, dtype=np.int64),
        keep_states=np.array(keep_states, dtype=np.int64),
        all_keep=all_keep, win=win,
    )
    for a in arrays.values():
        a.setflags(write=False)
    return MackeTables(rules=rules, types=tuple(types), empty=index[tuple([0] * len(types))], **arrays)

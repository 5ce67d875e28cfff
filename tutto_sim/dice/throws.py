"""Throw tables: every throw of 1..6 dice as a multiset, with its exact
probability and the points of every legal keep, built from the rules.

Part of the throw-table layer (rules -> **tables** -> solve | kernels). The
solver and the numba simulator both read these arrays, so they cannot disagree
about what a throw is worth. Nothing here is typed by hand: the tests rebuild
every entry by brute force over all 6**n ordered throws with the independent
scorer of ``tutto_sim.dice.reference``.

Layout (``ms`` = multiset id, 0..922 over all dice counts; points in units of 50):

``counts[ms, f]``     dice showing face f+1
``n_dice[ms]``        dice in the throw; ids for n dice are ``start[n]:start[n+1]``
``ways[ms]``          ordered throws giving this multiset (probability ways / 6**n)
``faces[ms]``         bit f set when face f+1 shows (Straße)
``best_pts[ms, k]``   most points setting aside exactly k dice, -1 if no keep uses k
``ordered[off[n] + r]`` multiset of the ordered throw r of n dice, where die i
                      shows ``(r // 6**i) % 6 + 1``; sampling draws r uniformly.
``keep_dice[rule, ms]``, ``keep_pts[rule, ms]`` the keep a named keep rule takes
                      (0 dice: the throw is a bust).
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT, ScoringRules, single_points, triple_points

#: Named keep rules of the threshold policy family (index = value in policy arrays).
KEEP_RULES = ("all", "best-unit", "triples-ones", "fewest-dice")
KEEP_RULE_HELP = {
    "all": "set aside every scoring die (most points; the Feuerwerk's forced keep)",
    "best-unit": "set aside only the single unit worth most, unless every die scores",
    "triples-ones": "set aside triples and 1s; a 5 only when nothing else scores "
    "or every die scores",
    "fewest-dice": "set aside as few dice as possible (the most points among "
    "those: a 1 before a 5), unless every die scores",
}
MAX_DICE = 6


def _units_of_face(face: int, kept: int, scoring: ScoringRules) -> int | None:
    """Best points (units of 50) for ``kept`` dice of one face, None if they
    cannot all belong to scoring units."""
    triples = min(kept // 3, scoring.max_triples_per_face)
    rest = kept - 3 * triples
    single = single_points(face)
    if rest and not single:
        return None
    return (triples * triple_points(face) + rest * single) // POINT_UNIT


def keep_options(counts: tuple[int, ...], scoring: ScoringRules) -> dict[int, int]:
    """dice set aside -> best points (units), over all legal non-empty keeps."""
    per_face = []
    for face, c in enumerate(counts, start=1):
        opts = []
        for kept in range(c + 1):
            pts = _units_of_face(face, kept, scoring)
            if pts is not None:
                opts.append((kept, pts))
        per_face.append(opts)
    best: dict[int, int] = {}
    for combo in itertools.product(*per_face):
        dice = sum(k for k, _ in combo)
        if dice == 0:
            continue
        pts = sum(p for _, p in combo)
        if pts > best.get(dice, -1):
            best[dice] = pts
    return best


def _units(counts: tuple[int, ...], scoring: ScoringRules) -> list[tuple[int, int]]:
    """All units a throw offers when taken apart greedily: (dice, points)."""
    units = []
    for face, c in enumerate(counts, start=1):
        triples = min(c // 3, scoring.max_triples_per_face)
        units += [(3, triple_points(face) // POINT_UNIT)] * triples
        if single_points(face):
            units += [(1, single_points(face) // POINT_UNIT)] * (c - 3 * triples)
    return units


def rule_keep(rule: str, counts: tuple[int, ...], scoring: ScoringRules) -> tuple[int, int]:
    """(dice, points) the named keep rule sets aside; (0, 0) for a bust."""
    opts = keep_options(counts, scoring)
    if not opts:
        return 0, 0
    n = sum(counts)
    most = max(opts)
    if rule == "all" or most == n:
        return most, opts[most]
    units = _units(counts, scoring)
    if rule == "best-unit":
        dice, pts = max(units, key=lambda u: (u[1], -u[0]))
        return dice, pts
    if rule == "fewest-dice":  # a 1 out of 1-1-1 too: any die of a unit may go alone
        fewest = min(opts)
        return fewest, opts[fewest]
    if rule == "triples-ones":
        ones = counts[0] - 3 * min(counts[0] // 3, scoring.max_triples_per_face)
        chosen = [u for u in units if u[0] == 3] + [(1, 2)] * ones
        if not chosen:  # only single 5s score: take one of them
            chosen = [(1, 1)]
        return sum(d for d, _ in chosen), sum(p for _, p in chosen)
    raise ValueError(f"unknown keep rule {rule!r}; valid: {', '.join(KEEP_RULES)}")


@dataclass(frozen=True)
class ThrowTables:
    scoring: ScoringRules
    counts: np.ndarray
    n_dice: np.ndarray
    start: np.ndarray
    ways: np.ndarray
    prob: np.ndarray
    faces: np.ndarray
    best_pts: np.ndarray
    ordered: np.ndarray
    ordered_off: np.ndarray
    keep_dice: np.ndarray
    keep_pts: np.ndarray

    @property
    def n_multisets(self) -> int:
        return len(self.n_dice)

    def ids(self, n: int) -> range:
        return range(int(self.start[n]), int(self.start[n + 1]))

    def exact_prob(self, ms: int) -> Fraction:
        return Fraction(int(self.ways[ms]), 6 ** int(self.n_dice[ms]))

    def multiset_of(self, dice) -> int:
        """Id of the multiset of a throw given as dice faces."""
        counts = [0] * 6
        for d in dice:
            counts[d - 1] += 1
        return self._index[(len(dice), tuple(counts))]

    @functools.cached_property
    def _index(self) -> dict:
        return {
            (int(self.n_dice[i]), tuple(int(c) for c in self.counts[i])): i
            for i in range(self.n_multisets)
        }


def _multisets(n: int):
    """Face-count vectors of n dice, in a fixed (lexicographic) order."""
    for combo in itertools.combinations_with_replacement(range(6), n):
        counts = [0] * 6
        for f in combo:
            counts[f] += 1
        yield tuple(counts)


def _multinomial(counts) -> int:
    out = 1
    total = 0
    for c in counts:
        total += c
        out *= math.comb(total, c)
    return out


@functools.lru_cache(maxsize=8)
def build_tables(scoring: ScoringRules = ScoringRules()) -> ThrowTables:
    """Throw tables for ``scoring`` (cached: tables are immutable)."""
    rows = [(n, c) for n in range(1, MAX_DICE + 1) for c in _multisets(n)]
    m = len(rows)
    counts = np.array([c for _, c in rows], dtype=np.int8)
    n_dice = np.array([n for n, _ in rows], dtype=np.int8)
    start = np.zeros(MAX_DICE + 2, dtype=np.int64)
    for n in range(1, MAX_DICE + 1):
        start[n + 1] = start[n] + int(np.sum(n_dice == n))
    ways = np.array([_multinomial(c) for _, c in rows], dtype=np.int64)
    prob = ways / np.array([6.0**n for n, _ in rows])
    faces = np.array(
        [sum(1 << f for f in range(6) if c[f]) for _, c in rows], dtype=np.int8
    )
    best_pts = np.full((m, MAX_DICE + 1), -1, dtype=np.int16)
    keep_dice = np.zeros((len(KEEP_RULES), m), dtype=np.int8)
    keep_pts = np.zeros((len(KEEP_RULES), m), dtype=np.int16)
    for i, (_, c) in enumerate(rows):
        for k, p in keep_options(c, scoring).items():
            best_pts[i, k] = p
        for r, rule in enumerate(KEEP_RULES):
            keep_dice[r, i], keep_pts[r, i] = rule_keep(rule, c, scoring)

    index = {row: i for i, row in enumerate(rows)}
    ordered_off = np.zeros(MAX_DICE + 2, dtype=np.int64)
    for n in range(1, MAX_DICE + 1):
        ordered_off[n + 1] = ordered_off[n] + 6**n
    ordered = np.empty(int(ordered_off[MAX_DICE + 1]), dtype=np.int16)
    for n in range(1, MAX_DICE + 1):
        # die i is base-6 digit i of r, least significant first
        digits = (np.arange(6**n)[:, None] // 6 ** np.arange(n)[None, :]) % 6
        cnt = np.stack([(digits == f).sum(axis=1) for f in range(6)], axis=1)
        keys = [index[(n, tuple(int(x) for x in row))] for row in cnt]
        ordered[ordered_off[n] : ordered_off[n + 1]] = keys
    for arr in (counts, n_dice, start, ways, prob, faces, best_pts, ordered,
                ordered_off, keep_dice, keep_pts):
        arr.setflags(write=False)
    return ThrowTables(scoring, counts, n_dice, start, ways, prob, faces, best_pts,
                       ordered, ordered_off, keep_dice, keep_pts)

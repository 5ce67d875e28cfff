"""Throw tables (``tutto_sim.dice.throws``) against brute force.

Every entry of the tables is rebuilt here another way: probabilities by
enumerating all 6**n ordered throws, points with the independent scorer of
``tutto_sim.dice.reference`` (which splits the dice themselves), the ordered map by
decoding r digit by digit. A few values are written out by hand from the rule
text (docs/rules.md §3), so that a shared misreading of the rules by both the
tables and the reference scorer cannot pass unnoticed.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from tutto_sim.core.rng import Stream
from tutto_sim.dice.reference import legal_keeps
from tutto_sim.dice.scoring import POINT_UNIT, ScoringRules
from tutto_sim.dice.throws import KEEP_RULES, MAX_DICE, build_tables
from tutto_sim.tutto.reference import choose_keep, throw_dice
from tutto_sim.tutto.rules import TuttoRules

SIX_OF_KIND = ("two-triples", "one-triple")
DICE_COUNTS = range(1, MAX_DICE + 1)


@functools.lru_cache(maxsize=None)
def tables(six_of_kind: str):
    return build_tables(ScoringRules(six_of_kind=six_of_kind))


def counts_of(dice) -> tuple[int, ...]:
    c = Counter(dice)
    return tuple(c[f] for f in range(1, 7))


def dice_of(counts) -> list[int]:
    """The dice of a multiset, ascending."""
    return [f + 1 for f in range(6) for _ in range(int(counts[f]))]


@functools.lru_cache(maxsize=None)
def ordered_counts(n: int) -> Counter:
    """multiset (face counts) -> number of ordered throws of n dice giving it."""
    return Counter(counts_of(t) for t in itertools.product(range(1, 7), repeat=n))


@functools.lru_cache(maxsize=None)
def reference_keeps(counts: tuple[int, ...], six_of_kind: str) -> dict[int, int]:
    return legal_keeps(dice_of(counts), ScoringRules(six_of_kind=six_of_kind))


# ---------------------------------------------------------------- layout

@pytest.mark.parametrize("six", SIX_OF_KIND)
def test_layout(six):
    t = tables(six)
    # multisets of n dice: C(n + 5, 5); 923 over n = 1..6
    sizes = [len(t.ids(n)) for n in DICE_COUNTS]
    assert sizes == [6, 21, 56, 126, 252, 462]
    assert t.n_multisets == 923
    for n in DICE_COUNTS:
        for ms in t.ids(n):
            assert int(t.n_dice[ms]) == n
            assert int(t.counts[ms].sum()) == n
            assert int(t.faces[ms]) == sum(1 << f for f in range(6) if t.counts[ms, f])
    # every multiset appears once
    assert len({(int(t.n_dice[i]), tuple(int(x) for x in t.counts[i]))
                for i in range(t.n_multisets)}) == t.n_multisets


# ---------------------------------------------------------------- (a) ways / prob

@pytest.mark.parametrize("six", SIX_OF_KIND)
@pytest.mark.parametrize("n", DICE_COUNTS)
def test_ways_match_enumeration(six, n):
    t = tables(six)
    enum = ordered_counts(n)
    table = {tuple(int(x) for x in t.counts[ms]): ms for ms in t.ids(n)}
    assert set(table) == set(enum)
    total = Fraction(0)
    for counts, ms in table.items():
        assert int(t.ways[ms]) == enum[counts], counts
        assert t.exact_prob(ms) == Fraction(enum[counts], 6**n)
        assert t.prob[ms] == pytest.approx(enum[counts] / 6**n, rel=1e-15)
        total += t.exact_prob(ms)
    assert total == 1
    assert sum(int(t.ways[ms]) for ms in t.ids(n)) == 6**n


# ---------------------------------------------------------------- (b) best_pts

@pytest.mark.parametrize("six", SIX_OF_KIND)
def test_best_pts_match_reference_scorer(six):
    t = tables(six)
    for ms in range(t.n_multisets):
        counts = tuple(int(x) for x in t.counts[ms])
        ref = reference_keeps(counts, six)
        expected = [-1] * (MAX_DICE + 1)
        for k, pts in ref.items():
            assert pts % POINT_UNIT == 0
            expected[k] = pts // POINT_UNIT
        assert [int(x) for x in t.best_pts[ms]] == expected, dice_of(counts)


# ---------------------------------------------------------------- (c) keep rules

@pytest.mark.parametrize("six", SIX_OF_KIND)
@pytest.mark.parametrize("rule", KEEP_RULES)
def test_keep_rules_match_reference(six, rule):
    t = tables(six)
    r = KEEP_RULES.index(rule)
    rules = TuttoRules(six_of_kind=six)
    for ms in range(t.n_multisets):
        dice = dice_of(t.counts[ms])
        kept, pts = choose_keep(rule, dice, rules)
        assert (int(t.keep_dice[r, ms]), int(t.keep_pts[r, ms]) * POINT_UNIT) == (kept, pts), dice
        # a keep is always a legal keep of the throw, and never more than its best
        if kept:
            best = reference_keeps(tuple(int(x) for x in t.counts[ms]), six)
            assert kept in best and pts <= best[kept]
        else:
            assert int(t.best_pts[ms].max()) == -1


def test_keep_rules_same_for_ordered_dice():
    """choose_keep sees dice in throw order; the table only the multiset."""
    t = tables("two-triples")
    rules = TuttoRules()
    for dice in ([5, 1, 2, 2, 2, 1], [3, 5, 3, 3, 6, 1], [1, 1, 5, 1, 1, 5]):
        ms = t.multiset_of(dice)
        for r, rule in enumerate(KEEP_RULES):
            kept, pts = choose_keep(rule, dice, rules)
            assert (int(t.keep_dice[r, ms]), int(t.keep_pts[r, ms]) * POINT_UNIT) == (kept, pts)


# ---------------------------------------------------------------- (d) ordered map

@pytest.mark.parametrize("n", DICE_COUNTS)
def test_ordered_map(n):
    t = tables("two-triples")
    assert int(t.ordered_off[n + 1] - t.ordered_off[n]) == 6**n
    off = int(t.ordered_off[n])
    ordered = t.ordered[off:off + 6**n].tolist()
    counts = t.counts.tolist()
    for r in range(6**n):
        dice = [(r // 6**i) % 6 + 1 for i in range(n)]
        ms = ordered[r]
        assert int(t.n_dice[ms]) == n
        assert tuple(counts[ms]) == counts_of(dice), (n, r, dice)
    # the ordered map does not depend on the scoring rules
    assert (tables("one-triple").ordered == t.ordered).all()


def test_ordered_map_matches_reference_throw():
    """The reference engine's throw_dice and the table's ordered map decode r alike."""
    t = tables("two-triples")
    a, b = Stream(seed=7, index=3), Stream(seed=7, index=3)
    for i in range(600):
        n = i % 6 + 1
        dice = throw_dice(a, n)
        ms = int(t.ordered[t.ordered_off[n] + b.below(6**n)])
        assert tuple(int(x) for x in t.counts[ms]) == counts_of(dice)


# ---------------------------------------------------------------- (e) by hand

def best(dice, six="two-triples") -> int | None:
    """Most real points of any keep of these dice (None: bust), from the table."""
    t = tables(six)
    row = t.best_pts[t.multiset_of(dice)]
    top = int(row.max())
    return None if top < 0 else top * POINT_UNIT


def best_with(dice, k, six="two-triples") -> int | None:
    t = tables(six)
    v = int(t.best_pts[t.multiset_of(dice), k])
    return None if v < 0 else v * POINT_UNIT


# (dice, six_of_kind, most points, dice set aside for them) -- docs/rules.md §3 by hand
HAND = [
    ([1], "two-triples", 100, 1),
    ([5], "two-triples", 50, 1),
    ([2], "two-triples", None, 0),
    ([1, 1, 1], "two-triples", 1000, 3),
    ([5, 5, 5], "two-triples", 500, 3),
    ([6, 6, 6], "two-triples", 600, 3),
    ([2, 2, 2], "two-triples", 200, 3),
    ([1, 1, 1, 1], "two-triples", 1100, 4),     # triple + single
    ([2, 2, 2, 2], "two-triples", 200, 3),      # the 4th 2 scores nothing
    ([5, 5, 5, 5, 5], "two-triples", 600, 5),   # 500 + 50 + 50
    ([1, 1, 1, 1, 1, 1], "two-triples", 2000, 6),
    ([1, 1, 1, 1, 1, 1], "one-triple", 1300, 6),  # 1000 + three singles
    ([2, 2, 2, 2, 2, 2], "two-triples", 400, 6),
    ([2, 2, 2, 2, 2, 2], "one-triple", 200, 3),   # only 3 dice score
    ([5, 5, 5, 5, 5, 5], "two-triples", 1000, 6),
    ([5, 5, 5, 5, 5, 5], "one-triple", 650, 6),   # 500 + 3 x 50
    ([6, 6, 6, 6, 6, 6], "one-triple", 600, 3),
    ([1, 5, 2, 3, 4, 6], "two-triples", 150, 2),  # no straights in Tutto
    ([2, 3, 4, 6, 2, 3], "two-triples", None, 0),  # three pairs do not score
    ([2, 2, 3, 3, 4, 4], "two-triples", None, 0),
    ([3, 3, 3, 4, 4, 4], "two-triples", 700, 6),
    ([1, 1, 1, 5, 5, 5], "one-triple", 1500, 6),
    ([1, 1, 5, 5, 2, 2], "two-triples", 300, 4),
    ([3, 3, 3, 1, 5, 6], "two-triples", 450, 5),
]


@pytest.mark.parametrize("dice,six,points,kept", HAND)
def test_hand_checked(dice, six, points, kept):
    assert best(dice, six) == points
    if points is not None:
        t = tables(six)
        row = t.best_pts[t.multiset_of(dice)]
        # the best keep uses `kept` dice (more dice never score less here)
        assert max(k for k in range(7) if row[k] >= 0) == kept
        assert best_with(dice, kept, six) == points
    # and the reference scorer agrees with the hand value
    ref = legal_keeps(dice, ScoringRules(six_of_kind=six))
    assert (max(ref.values()) if ref else None) == points


def test_hand_checked_partial_keeps():
    # 1-1-1-1: 1 die = 100, 2 = 200, 3 = 1000 (the triple), 4 = 1100
    assert [best_with([1, 1, 1, 1], k) for k in range(1, 5)] == [100, 200, 1000, 1100]
    # 2-2-2-2: only the triple; 1, 2 or 4 twos cannot be set aside
    assert [best_with([2, 2, 2, 2], k) for k in range(1, 5)] == [None, None, 200, None]
    # six 5s, two triples: 5 dice = triple + 2 singles = 600, 6 dice = 1000
    assert best_with([5] * 6, 5) == 600 and best_with([5] * 6, 6) == 1000
    # 1-5-2-3-4-6: one die = the 1 (100), two dice = 150, three impossible
    assert [best_with([1, 5, 2, 3, 4, 6], k) for k in (1, 2, 3)] == [100, 150, None]


def test_keep_rules_by_hand():
    t = tables("two-triples")

    def keep(rule, dice):
        ms = t.multiset_of(dice)
        r = KEEP_RULES.index(rule)
        return int(t.keep_dice[r, ms]), int(t.keep_pts[r, ms]) * POINT_UNIT

    dice = [1, 5, 2, 2, 2, 3]  # units: 2-2-2 (200), 1 (100), 5 (50)
    assert keep("all", dice) == (5, 350)
    assert keep("best-unit", dice) == (3, 200)
    assert keep("triples-ones", dice) == (4, 300)
    assert keep("fewest-dice", dice) == (1, 100)
    assert keep("fewest-dice", [1, 1, 1, 2, 3, 4]) == (1, 100)  # a 1 alone out of 1-1-1
    assert keep("fewest-dice", [2, 2, 2, 3, 4, 6]) == (3, 200)
    assert keep("triples-ones", [5, 5, 2, 3, 4, 6]) == (1, 50)
    assert keep("best-unit", [1, 1, 5, 5, 5, 5]) == (6, 750)  # every die scores: all
    for rule in KEEP_RULES:
        assert keep(rule, [2, 3, 4, 6, 2, 3]) == (0, 0)


def test_bust_probability_six_dice():
    """P(Niete with 6 dice): no 1, no 5 and no face three times, counted directly."""
    bust = 0
    for throw in itertools.product(range(1, 7), repeat=6):
        c = Counter(throw)
        if c[1] == 0 and c[5] == 0 and max(c.values()) < 3:
            bust += 1
    # faces 2,3,4,6 at most twice each: 4 * 6!/(2!2!2!) + 6 * 6!/(2!2!) = 1440
    assert bust == 1440
    p_bust = Fraction(bust, 6**6)
    assert float(p_bust) == pytest.approx(0.030864, abs=1e-6)
    for six in SIX_OF_KIND:
        t = tables(six)
        table = sum(t.exact_prob(ms) for ms in t.ids(6) if t.best_pts[ms].max() < 0)
        assert table == p_bust


@pytest.mark.parametrize("n,bust_ways", [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1440)])
def test_bust_ways_per_dice_count(n, bust_ways):
    """Busts of n dice, counted from the ordered throws (no 1, no 5, no triple)."""
    direct = sum(
        1 for throw in itertools.product((2, 3, 4, 6), repeat=n)
        if max(Counter(throw).values()) < 3
    )
    assert direct == bust_ways
    t = tables("two-triples")
    assert sum(int(t.ways[ms]) for ms in t.ids(n) if t.best_pts[ms].max() < 0) == bust_ways

"""Exact turn values (tutto_sim.tutto.solver) against the Monte Carlo kernel,
against independent brute force with Fractions, and the optimum against
threshold policies."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.cards import N_CARDS, Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import (
    CARD_FREQ,
    DEFAULT_CAP_UNITS,
    cloverleaf_probability,
    exact_policy_value,
    fireworks_gain,
    policy_tutto_probability,
    policy_value,
    solve_tutto,
    street_probability,
    tutto_probability,
)
from tutto_sim.tutto.turn_kernel import (
    COL_DRAW,
    COL_KEEP,
    COL_STREET,
    N_COLS,
    NEVER,
    TuttoKernelData,
    simulate_batch,
)

MC_TURNS = 400_000
MC_SEED = 12345

# ---------------------------------------------------------------- policies


def uniform_policy(bank: int, draw: int, keep: int = 0, take: int = 6) -> np.ndarray:
    """Same bank threshold for every card and dice count (units)."""
    pol = np.full((N_CARDS, N_COLS), bank, dtype=np.int64)
    pol[:, COL_KEEP] = keep
    pol[:, COL_DRAW] = draw
    pol[:, COL_STREET] = take
    return pol


def mixed_policy() -> np.ndarray:
    """Different keep rules, thresholds by dice left, draw thresholds and take."""
    pol = uniform_policy(NEVER, 18, take=2)
    keeps = {Card.BONUS200: 1, Card.BONUS300: 2, Card.BONUS400: 3, Card.BONUS500: 0,
             Card.BONUS600: 1, Card.X2: 2, Card.PLUSMINUS: 3, Card.CLOVERLEAF: 1}
    for card, rule in keeps.items():
        pol[card, COL_KEEP] = rule
    #                     dice left:  1   2   3   4   5
    pol[Card.BONUS200, 1:6] = [5, 4, 8, 20, 60]
    pol[Card.BONUS300, 1:6] = [6, 6, 10, 25, NEVER]
    pol[Card.BONUS400, 1:6] = [4, 8, 12, 16, 40]
    pol[Card.BONUS500, 1:6] = [NEVER, 6, 6, 30, 50]
    pol[Card.BONUS600, 1:6] = [8, 3, 9, 18, 70]
    pol[Card.X2, 1:6] = [10, 10, 20, 40, 90]
    pol[Card.X2, COL_DRAW] = 30
    pol[Card.STREET, COL_DRAW] = 12
    pol[Card.PLUSMINUS, COL_DRAW] = 25
    return pol


POLICIES = {
    "bank300": uniform_policy(6, 6),
    "tutto-then-bank": uniform_policy(NEVER, 0),
    "mixed": mixed_policy(),
    "fewest-dice-bank500": uniform_policy(10, 10, keep=3, take=1),
    "never-bank": uniform_policy(NEVER, NEVER),
}

RULES = {
    "default": TuttoRules(),
    "x2-card": TuttoRules(x2_scope="card"),
    "pm-bank": TuttoRules(plusminus_chain="bank"),
    "pm-flat": TuttoRules(plusminus_chain="flat"),
    "clover1000": TuttoRules(cloverleaf_value=1000),
    "one-triple": TuttoRules(six_of_kind="one-triple"),
}


@functools.lru_cache(maxsize=None)
def _solved(rules_name: str, cap_units: int = DEFAULT_CAP_UNITS):
    return solve_tutto(RULES[rules_name], cap_units)


# ---------------------------------------------------- Monte Carlo agreement


@functools.lru_cache(maxsize=None)
def _kernel_data(rules_name: str) -> TuttoKernelData:
    return TuttoKernelData(RULES[rules_name])


def _mc(pol: np.ndarray, first_card: int, rules_name: str, n: int = MC_TURNS):
    """Mean and standard error (real points), P(>=1), P(>=2) first-card Tuttos."""
    out = simulate_batch(pol[None], first_card, np.uint64(MC_SEED), 0, n, 8192,
                         *_kernel_data(rules_name).args())
    s = out[0].sum(axis=0).astype(np.float64)
    mean = s[0] / n
    var = s[1] / n - mean * mean
    return mean * POINT_UNIT, math.sqrt(var / n) * POINT_UNIT, s[2] / n, s[3] / n


MC_CASES = [
    ("default", "bank300", Card.BONUS300),
    ("default", "bank300", Card.X2),
    ("default", "bank300", -1),
    ("default", "tutto-then-bank", Card.BONUS600),
    ("default", "tutto-then-bank", Card.STREET),
    ("default", "tutto-then-bank", -1),
    ("default", "mixed", Card.BONUS200),
    ("default", "mixed", Card.X2),
    ("default", "mixed", Card.FIREWORKS),
    ("default", "mixed", -1),
    ("default", "fewest-dice-bank500", Card.STREET),
    ("default", "never-bank", -1),
    ("x2-card", "mixed", Card.X2),
    ("x2-card", "mixed", -1),
    ("pm-bank", "mixed", Card.PLUSMINUS),
    ("pm-bank", "mixed", -1),
    ("pm-flat", "mixed", Card.PLUSMINUS),
    ("pm-flat", "never-bank", -1),
    ("clover1000", "tutto-then-bank", Card.CLOVERLEAF),
    ("one-triple", "bank300", -1),
]


# Each case makes 3 comparisons (value, P(>= 1 Tutto), P(>= 2 Tuttos)). With
# 60 comparisons a per-comparison 95% interval (z = 1.96) would fail about
# 3 times by chance alone, so the intervals are Bonferroni-widened to make the
# whole family a 95% test (z = 3.34). A bug shows up far beyond that: with
# 400_000 turns one standard error is about 0.1% of the value.
N_COMPARISONS = 3 * len(MC_CASES)
Z_FAMILY = NormalDist().inv_cdf(1 - 0.05 / (2 * N_COMPARISONS))


@pytest.mark.parametrize("rules_name,pol_name,card", MC_CASES)
def test_exact_value_matches_monte_carlo(rules_name, pol_name, card):
    rules, pol = RULES[rules_name], POLICIES[pol_name]
    exact = exact_policy_value(pol, card, rules)
    # A policy that never banks is cut off at the cap; the error falls like
    # cap^-4, so twice the change from doubling the cap bounds it.
    cap_slack = 2 * abs(exact - exact_policy_value(pol, card, rules, 2 * DEFAULT_CAP_UNITS))
    mean, se, p1, p2 = _mc(pol, int(card), rules_name)
    assert abs(mean - exact) <= Z_FAMILY * se + cap_slack + 1e-9, (
        f"exact {exact:.4f}, MC {mean:.4f} +- {Z_FAMILY * se:.4f} (n={MC_TURNS})")
    # the Tutto statistics the kernel counts under the first card
    q1, q2 = policy_tutto_probability(pol, card, rules)
    for p_mc, p_exact in ((p1, q1), (p2, q2)):
        half = Z_FAMILY * math.sqrt(max(p_exact * (1 - p_exact), 1e-300) / MC_TURNS)
        assert abs(p_mc - p_exact) <= half + 1e-12, (p_mc, p_exact)


# ------------------------------------------------------------------ the cap


@pytest.mark.parametrize("rules_name", list(RULES))
@pytest.mark.parametrize("pol_name", ["bank300", "tutto-then-bank", "mixed", "fewest-dice-bank500"])
def test_raising_the_cap_changes_nothing(rules_name, pol_name):
    rules, pol = RULES[rules_name], POLICIES[pol_name]
    a = policy_value(pol, rules)
    b = policy_value(pol, rules, cap_units=2 * DEFAULT_CAP_UNITS)
    np.testing.assert_allclose(a.card_ev, b.card_ev, rtol=0, atol=1e-9)
    assert abs(a.turn_ev - b.turn_ev) <= 1e-9


def test_never_banking_policy_converges_in_the_cap():
    pol = POLICIES["never-bank"]
    values = [exact_policy_value(pol, -1, cap_units=c) for c in (300, 600, 1200, 2400)]
    steps = np.abs(np.diff(values))
    assert np.all(steps[1:] < steps[:-1] / 8)  # power-law tail: ~cap^-4
    assert steps[-1] < 0.01


@pytest.mark.parametrize("rules_name", ["default", "x2-card", "pm-flat"])
def test_optimum_does_not_depend_on_the_cap(rules_name):
    a = _solved(rules_name)
    b = _solved(rules_name, 2 * DEFAULT_CAP_UNITS)
    np.testing.assert_allclose(a.card_ev, b.card_ev, rtol=0, atol=1e-9)
    assert abs(a.turn_ev - b.turn_ev) <= 1e-9
    assert a.draw_below == b.draw_below
    np.testing.assert_array_equal(a.bank_threshold, b.bank_threshold)


# ------------------------------------------- independent exact enumeration


def _all_scoring(faces: tuple[int, ...], max_triples: int) -> tuple[int, int]:
    """(dice, real points) of Feuerwerk's forced keep: every scoring die."""
    used = pts = 0
    for f, c in Counter(faces).items():
        t = min(c // 3, max_triples)
        pts += t * (1000 if f == 1 else 100 * f)
        used += 3 * t
        rest = c - 3 * t
        if f in (1, 5):
            pts += rest * (100 if f == 1 else 50)
            used += rest
    return used, pts


def _ordered_throws(n: int):
    return itertools.product(range(1, 7), repeat=n)


@pytest.mark.parametrize("six_of_kind,max_triples", [("two-triples", 2), ("one-triple", 1)])
def test_fireworks_value_by_brute_force(six_of_kind, max_triples):
    # F_d = a_d + b_d F_6 over all 6**d ordered throws, in exact fractions
    a = [Fraction(0)] * 7
    b = [Fraction(1)] + [Fraction(0)] * 6
    for d in range(1, 7):
        for faces in _ordered_throws(d):
            used, pts = _all_scoring(faces, max_triples)
            if used:
                a[d] += Fraction(pts + 0) + a[d - used]
                b[d] += b[d - used]
        a[d] /= 6**d
        b[d] /= 6**d
    f6 = a[6] / (1 - b[6])
    rules = TuttoRules(six_of_kind=six_of_kind)
    pol = POLICIES["mixed"]  # Feuerwerk ignores the policy
    assert exact_policy_value(pol, Card.FIREWORKS, rules) == pytest.approx(float(f6), rel=1e-12)
    assert fireworks_gain(rules) == pytest.approx(float(f6), rel=1e-12)
    p1, p2 = policy_tutto_probability(pol, Card.FIREWORKS, rules)
    assert p1 == pytest.approx(float(b[6]), rel=1e-12)
    assert p2 == pytest.approx(float(b[6]) ** 2, rel=1e-12)


def _legal_keep_sizes(faces: tuple[int, ...]) -> set[int]:
    """Dice counts of all legal non-empty keeps (two triples of a face allowed)."""
    per_face = []
    for f, c in Counter(faces).items():
        if f in (1, 5):
            per_face.append(range(c + 1))  # any mix of triples and singles
        else:
            per_face.append([k for k in (0, 3, 6) if k <= c])
    return {sum(ks) for ks in itertools.product(*per_face)} - {0}


def test_best_tutto_probability_by_brute_force():
    p = [Fraction(1)]
    for d in range(1, 7):
        total = Fraction(0)
        for faces in _ordered_throws(d):
            sizes = _legal_keep_sizes(faces)
            if sizes:
                total += max(p[d - k] for k in sizes)
        p.append(total / 6**d)
    for d in range(1, 7):
        assert tutto_probability(dice=d) == pytest.approx(float(p[d]), rel=1e-12)
    assert cloverleaf_probability() == pytest.approx(float(p[6]) ** 2, rel=1e-12)
    assert _solved("default").p_tutto == pytest.approx(float(p[6]), rel=1e-12)


@functools.lru_cache(maxsize=None)
def _face_sets(n: int) -> dict[frozenset, int]:
    """Ordered throws of n dice by the set of numbers they show."""
    return Counter(frozenset(faces) for faces in _ordered_throws(n))


def _street_brute(mask: frozenset, take: int | None, memo: dict) -> Fraction:
    """P(Straße) from the numbers ``mask`` set aside, full state, no symmetry:
    ``take`` = smallest new numbers first, at most take a throw; None = best
    subset of the new numbers."""
    if len(mask) == 6:
        return Fraction(1)
    if mask in memo:
        return memo[mask]
    n = 6 - len(mask)
    total = Fraction(0)
    for shown, ways in _face_sets(n).items():
        new = sorted(shown - mask)
        if not new:
            continue
        if take is None:
            best = max(_street_brute(mask | set(sub), take, memo)
                       for r in range(1, len(new) + 1)
                       for sub in itertools.combinations(new, r))
        else:
            best = _street_brute(mask | set(new[:take]), take, memo)
        total += ways * best
    memo[mask] = total / 6**n
    return memo[mask]


@pytest.mark.parametrize("take", [None, 1, 2, 3, 6])
def test_street_probability_by_brute_force(take):
    exact = _street_brute(frozenset(), take, {})
    assert street_probability(take) == pytest.approx(float(exact), rel=1e-12)
    if take is not None:
        pol = uniform_policy(NEVER, 0, take=take)
        assert policy_tutto_probability(pol, Card.STREET)[0] == pytest.approx(float(exact))
        # banked right after the Straße: 2000 points with that probability
        assert exact_policy_value(pol, Card.STREET) == pytest.approx(2000 * float(exact))


def test_simple_cards_closed_forms():
    pol = POLICIES["tutto-then-bank"]
    p = tutto_probability(keep_rule=0)
    assert exact_policy_value(pol, Card.STOP) == 0.0
    assert exact_policy_value(pol, Card.PLUSMINUS) == pytest.approx(1000 * p)
    assert exact_policy_value(pol, Card.CLOVERLEAF) == 0.0
    rules = TuttoRules(cloverleaf_value=5000)
    assert exact_policy_value(pol, Card.CLOVERLEAF, rules) == pytest.approx(5000 * p * p)
    v = policy_value(pol)
    assert v.turn_ev == pytest.approx(float(CARD_FREQ @ v.card_ev))
    assert exact_policy_value(pol, None) == exact_policy_value(pol, -1) == v.turn_ev


def test_bad_policy_is_rejected():
    pol = uniform_policy(6, 6)
    pol[Card.STREET, COL_STREET] = 0
    with pytest.raises(ValueError, match="Straße take"):
        exact_policy_value(pol, -1)
    pol = uniform_policy(6, 6, keep=7)
    with pytest.raises(ValueError, match="keep rule"):
        exact_policy_value(pol, -1)
    with pytest.raises(ValueError, match="shape"):
        exact_policy_value(pol[:, :7], -1)


# ------------------------------------------------------------- the optimum


def _policy_grid():
    yield from POLICIES.values()
    for keep in range(4):
        for bank in (5, 12, 40, NEVER):
            for draw in (0, 18):
                yield uniform_policy(bank, draw, keep=keep, take=keep + 2)


@pytest.mark.parametrize("rules_name", list(RULES))
def test_optimum_beats_every_threshold_policy(rules_name):
    rules = RULES[rules_name]
    sol = _solved(rules_name)
    # the optimal thresholds with a named keep rule are one more policy
    for pol in [*_policy_grid(), *(sol.threshold_policy(k) for k in range(4))]:
        v = policy_value(pol, rules)
        assert np.all(sol.card_ev >= v.card_ev - 1e-9), (pol, sol.card_ev - v.card_ev)
        assert sol.turn_ev >= v.turn_ev - 1e-9
        assert np.all(sol.draw_value >= v.draw_value - 1e-12)


def test_optimal_values_are_consistent():
    sol = _solved("default")
    t = build_tables()
    # values never fall with the turn total (why only best_pts[ms, k] matters)
    assert np.all(np.diff(sol.draw_value) >= 0)
    assert np.all(np.diff(sol.start_value, axis=1) >= -1e-12)
    assert np.allclose(sol.after_tutto_value, np.maximum(np.arange(sol.cap_units), sol.draw_value))
    # E[c, T, 6] recomputed from the public keep values
    for card in (Card.BONUS200, Card.BONUS600, Card.X2):
        for total in (0, 150, 900, 3000):
            e = sum(t.prob[ms] * max(0.0, sol.keep_values(card, ms, total).max())
                    for ms in t.ids(6))
            assert e == pytest.approx(sol.throw_value[card, total // POINT_UNIT, 6], rel=1e-12)
    # the reported thresholds are the decisions
    for card in (Card.BONUS300, Card.X2):
        for d in range(1, 6):
            th = sol.bank_threshold[card, d] // POINT_UNIT
            T = np.arange(6 - d, sol.cap_units)
            bank = T >= sol.throw_value[card, T, d]
            assert np.all(bank[T >= th])
            assert not np.any(bank[T < th]) or sol.bank_exceptions
    assert np.all((np.arange(1, sol.cap_units) >= sol.draw_value[1:])
                  == (np.arange(1, sol.cap_units) * POINT_UNIT >= sol.draw_below))
    assert sol.p_street == max(sol.p_street_by_take)
    assert sol.turn_ev == pytest.approx(float(CARD_FREQ @ sol.card_ev))


def test_best_keep():
    sol = _solved("default")
    t = build_tables()
    for throw in ([1, 5, 2, 3, 4, 6], [1, 1, 1, 5, 2, 3], [2, 3, 4, 6, 6, 2]):
        ms = t.multiset_of(throw)
        for card in (Card.BONUS400, Card.X2, Card.PLUSMINUS):
            dice, pts = sol.best_keep(card, throw, 300)
            if dice == 0:
                assert t.best_pts[ms, 1:].max() < 0  # a bust
            else:
                assert pts == t.best_pts[ms, dice] * POINT_UNIT
    assert sol.best_keep(Card.FIREWORKS, [1, 1, 1, 5, 2, 3]) == (4, 1050)
    assert sol.best_keep(Card.BONUS200, [2, 3, 4, 6, 6, 2]) == (0, 0)


def test_solution_x2_card_scope():
    sol = _solved("x2-card")
    assert sol.x2_throw_value is not None and sol.x2_card_threshold is not None
    # for each reachable card-points value the x2 row is the largest threshold
    for d in range(1, 6):
        row = sol.x2_card_threshold[d]
        assert sol.bank_threshold[Card.X2, d] == row[row >= 0].max()
    assert _solved("default").card_ev[Card.X2] > sol.card_ev[Card.X2]  # doubling all is worth more

"""The Feuerwerk (Fireworks) card has no decisions: its exact value solves a
small Markov chain, here built independently of the throw tables by
enumerating every ordered throw, and the simulator must agree with it."""

import itertools
from fractions import Fraction

import pytest

from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.threshold import DEFAULT_POLICY
from tutto_sim.tutto.turns import run_policies


def forced_keep(dice, six_of_kind="two-triples"):
    """Points and dice of 'set aside every scoring unit, triples first'."""
    pts = used = 0
    for face in range(1, 7):
        c = dice.count(face)
        triples = min(c // 3, 2 if six_of_kind == "two-triples" else 1)
        pts += triples * (1000 if face == 1 else 100 * face)
        used += 3 * triples
        rest = c - 3 * triples
        if face in (1, 5):
            pts += rest * (100 if face == 1 else 50)
            used += rest
    return pts, used


def fireworks_value(six_of_kind="two-triples") -> Fraction:
    """E[points of a Fireworks card]: solve E_n = sum_throws p (pts + E_{n-used}),
    E_0 = E_6 (a Tutto goes on with 6 dice), with Gauss-Jordan on Fractions."""
    # unknowns E_1..E_6; row n: E_n - sum p * E_{next} = sum p * pts
    a = [[Fraction(0)] * 7 for _ in range(6)]
    for n in range(1, 7):
        row = a[n - 1]
        row[n - 1] += 1
        p = Fraction(1, 6**n)
        for dice in itertools.product(range(1, 7), repeat=n):
            pts, used = forced_keep(list(dice), six_of_kind)
            if used == 0:
                continue
            nxt = n - used or 6
            row[nxt - 1] -= p
            row[6] += p * pts
    for i in range(6):
        piv = next(r for r in range(i, 6) if a[r][i] != 0)
        a[i], a[piv] = a[piv], a[i]
        a[i] = [x / a[i][i] for x in a[i]]
        for r in range(6):
            if r != i and a[r][i] != 0:
                f = a[r][i]
                a[r] = [x - f * y for x, y in zip(a[r], a[i])]
    return a[5][6]  # E_6


@pytest.mark.parametrize("six_of_kind", ["two-triples", "one-triple"])
def test_fireworks_ev_matches_markov_chain(six_of_kind):
    exact = float(fireworks_value(six_of_kind))
    assert 500 < exact < 800  # a sanity range, not the check
    res = run_policies(DEFAULT_POLICY.to_array(), Card.FIREWORKS, seed=2024, n_turns=400_000,
                       rules=TuttoRules(six_of_kind=six_of_kind))
    ev = res.ev()
    assert ev.contains(exact), f"simulated {ev} vs exact {exact:.3f}"
    assert ev.ci95 < 5

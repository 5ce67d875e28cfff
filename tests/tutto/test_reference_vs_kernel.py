"""The numba turn kernel and the plain-Python reference engine play the same
turns: same seed, same cards, same dice, same decisions, same points."""

import numpy as np
import pytest

from tutto_sim.core.rng import Stream
from tutto_sim.dice.throws import KEEP_RULES
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.reference import play_turn
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.threshold import DEFAULT_POLICY, CardPolicy, ThresholdPolicy, baseline_bank_at_300
from tutto_sim.tutto.turn_kernel import TuttoKernelData, simulate_turns


def _kernel(rules, policy, seed, n, first_card=None):
    kd = TuttoKernelData(rules)
    card = -1 if first_card is None else int(first_card)
    return simulate_turns(policy.to_array(), card, np.uint64(seed), 0, n, 512, *kd.args())


def _reference(rules, policy, seed, n, first_card=None):
    turns = [play_turn(rules, policy, Stream(seed, i), first_card) for i in range(n)]
    return np.array([(t.banked, t.first_card_tuttos, t.throws) for t in turns])


def _assert_same(rules, policy, seed, n, first_card=None):
    k = _kernel(rules, policy, seed, n, first_card)
    r = _reference(rules, policy, seed, n, first_card)
    k[:, 0] *= 50  # kernel counts in units of 50
    bad = np.flatnonzero((k != r).any(axis=1))
    assert bad.size == 0, f"turn {bad[:5]} differ: kernel {k[bad[:3]]} reference {r[bad[:3]]}"
    return r


MIXED = ThresholdPolicy(tuple(
    CardPolicy(KEEP_RULES[c % 4], (250, None, 600, 1200, 0), draw_below=(c * 450) % 3000,
               street_take=1 + c % 6)
    for c in range(11)
))

RULE_SETS = [
    TuttoRules(),
    TuttoRules(six_of_kind="one-triple", x2_scope="card"),
    TuttoRules(plusminus_chain="bank", cloverleaf_value=1000),
    TuttoRules(plusminus_chain="flat"),
]
POLICIES = {"default": DEFAULT_POLICY, "bank300": baseline_bank_at_300(), "mixed": MIXED}


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.six_of_kind}-{r.x2_scope}-{r.plusminus_chain}")
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_random_first_card(rules, name):
    results = _assert_same(rules, POLICIES[name], seed=11, n=3000)
    assert results[:, 0].max() > 0  # the turns did something


@pytest.mark.parametrize("card", list(Card), ids=lambda c: c.cli_name)
@pytest.mark.parametrize("keep", KEEP_RULES)
def test_every_card_every_keep_rule(card, keep):
    policy = ThresholdPolicy.uniform(bank_at=None, draw_below=1500, keep=keep, street_take=2)
    _assert_same(TuttoRules(x2_scope="card"), policy, seed=5, n=600, first_card=card)


def test_draw_never_bank_after_tutto():
    # None after a Tutto means: always draw again (play on until Stop or Niete)
    policy = ThresholdPolicy.uniform(bank_at=300, draw_below=None)
    r = _assert_same(TuttoRules(), policy, seed=3, n=1500, first_card=Card.BONUS600)
    assert (r[:, 1] > 0).any()

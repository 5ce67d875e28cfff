"""Cross-validation of the exact solver and the simulators, both ways.

1. The optimal policy, read from its exported table, is played by the table
   kernel; its simulated EV for every first card (and a random one) must lie
   within the confidence interval around the solver's exact value.
2. Fixed threshold policies (``DEFAULT_POLICY`` and the baselines) are valued
   exactly by the solver's policy evaluation and simulated by the threshold
   kernel; again the two must agree.

With many comparisons at once, each check uses the Bonferroni-corrected z so
that the whole family is a 95% test (``family_z``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tutto_sim.core.stats import ExactCheck
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.exact_sim import run_exact
from tutto_sim.tutto.policy import ExactPolicy
from tutto_sim.tutto.threshold import DEFAULT_POLICY, baseline_bank_at_300, baseline_never_bank
from tutto_sim.tutto.turns import run_policies


@dataclass(frozen=True)
class Check(ExactCheck):
    """``what``: "optimal policy" or a threshold policy's name."""

    card: str = "random"  # card name or "random"


def validate(policy: ExactPolicy, exact_card_ev: dict[str, float], exact_turn_ev: float,
             turns: int, seed: int, threshold_checks: bool = True, phase=None) -> list[Check]:
    """Run every check; ``exact_*`` are the solver's values (real points)."""
    from tutto_sim.tutto.solver import exact_policy_value

    hook = phase or (lambda label, total: None)
    checks = []
    for card in [None, *Card]:
        name = "random" if card is None else card.cli_name
        res = run_exact(policy, card, seed, turns, progress=hook(f"optimal policy, {name}", turns))
        ev = res.ev()
        exact = exact_turn_ev if card is None else exact_card_ev[name]
        checks.append(Check("optimal policy (table)", exact, ev.mean, ev.ci95, ev.n, card=name))
        if res.interrupted:
            return checks
    if threshold_checks:
        named = {"default rule of thumb": DEFAULT_POLICY, "bank at 300": baseline_bank_at_300(),
                 "never bank before a Tutto": baseline_never_bank()}
        for what, pol in named.items():
            arr = pol.to_array()
            res = run_policies(arr, None, seed, turns, policy.rules,
                               progress=hook(f"threshold policy: {what}", turns))
            ev = res.ev()
            exact = exact_policy_value(arr, None, policy.rules)
            checks.append(Check(f"threshold: {what}", exact, ev.mean, ev.ci95, ev.n))
            if res.interrupted:
                break
    return checks

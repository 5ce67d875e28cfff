"""The best simple Berliner Macke / Volle Lotte policy by Monte Carlo: the
threshold search behind ``optimize --game macke`` (batches of turns:
``macke.turns``).

``optimize_macke`` finds the best *simple* policy (keep every scoring unit,
never return a unit, bank when the turn total is >= K) over the grid
``K = 0, 50, ..., 3000`` and "never": all candidates on the same search turns
(streams ``0 .. search_turns-1``); then, with that K, the threshold for a
clear over the same grid. The policy found and the baselines "bank at >= 300"
and "bank at the first chance >= min_score" are then evaluated on **fresh**
turns (streams from ``EVAL_START`` = 2**40), so the reported EV is not
inflated by the search; the policy found is also valued exactly
(``macke.reference.threshold_policy_value``) when it banks clears at all.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from tutto_sim.core.stats import Estimate
from tutto_sim.macke.reference import threshold_policy_value
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.threshold import MackeThresholdPolicy
from tutto_sim.macke.turn_kernel import SUM
from tutto_sim.macke.turns import MackeBatchResult, ProgressHook, run_macke_policies


#: First stream of the evaluation on fresh turns.
EVAL_START = 1 << 40

#: The K grid of the search (points); ``None`` is "never bank".
GRID: tuple[int | None, ...] = (*range(0, 3001, 50), None)

PhaseHook = Callable[[str, int], ProgressHook]
"""``phase(label, total_turns)`` returns a hook advanced by policy-turns done."""


@dataclass(frozen=True)
class MackeEvaluation:
    """One policy played on the fresh evaluation turns."""

    policy: MackeThresholdPolicy
    ev: Estimate
    p_positive: Estimate
    p_negative: Estimate
    p_zero: Estimate
    p_macke: Estimate
    mean_throws: float

    @classmethod
    def of(cls, policy: MackeThresholdPolicy, batch: MackeBatchResult, p: int) -> "MackeEvaluation":
        return cls(policy, batch.ev(p), batch.p_positive(p), batch.p_negative(p),
                   batch.p_zero(p), batch.p_macke(p), batch.mean_throws(p))

    def to_json(self) -> dict:
        return {
            "policy": self.policy.label(),
            "bank_at": self.policy.bank_at,
            "bank_at_clear": self.policy.bank_at_clear,
            "ev": self.ev.mean, "ci95": self.ev.ci95,
            "p_positive": self.p_positive.mean, "p_negative": self.p_negative.mean,
            "p_zero": self.p_zero.mean, "p_macke": self.p_macke.mean,
            "mean_throws": self.mean_throws,
        }


@dataclass
class MackeOptimizeResult:
    """The best simple policy found and its evaluation on fresh turns."""

    rules: MackeRules
    seed: int
    turns: int  # evaluation turns actually played (fewer after Ctrl-C)
    search_turns: int
    best: MackeEvaluation
    baselines: dict[str, MackeEvaluation] = field(default_factory=dict)
    #: K -> EV on the search turns (common random numbers; with bank_at_clear = K)
    search: dict[int | None, Estimate] = field(default_factory=dict)
    #: bank_at_clear -> EV on the search turns, with the best K
    search_clear: dict[int | None, Estimate] = field(default_factory=dict)
    #: the policy found, valued exactly (None when it never banks a clear:
    #: the turn is then unbounded and is not enumerated)
    exact_ev: float | None = None
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def policy(self) -> MackeThresholdPolicy:
        return self.best.policy

    @property
    def bank_at(self) -> int | None:
        return self.best.policy.bank_at

    @property
    def bank_at_clear(self) -> int | None:
        return self.best.policy.bank_at_clear

    @property
    def ev(self) -> Estimate:
        return self.best.ev

    def to_json(self) -> dict:
        def key(k):
            return "never" if k is None else str(k)
        return {
            "game": self.rules.game,
            "variant": self.rules.variant,
            "rules": self.rules.to_dict(),
            "method": "threshold-search",
            "seed": self.seed,
            "turns": self.turns,
            "search_turns": self.search_turns,
            "bank_at": self.bank_at,
            "bank_at_clear": self.bank_at_clear,
            "ev": self.best.ev.mean,
            "ci95": self.best.ev.ci95,
            "p_positive": self.best.p_positive.mean,
            "p_negative": self.best.p_negative.mean,
            "p_zero": self.best.p_zero.mean,
            "p_macke": self.best.p_macke.mean,
            "mean_throws": self.best.mean_throws,
            "exact_ev": self.exact_ev,
            "baselines": {name: b.to_json() for name, b in self.baselines.items()},
            "search_ev": {key(k): e.mean for k, e in self.search.items()},
            "search_ev_clear": {key(k): e.mean for k, e in self.search_clear.items()},
            "interrupted": self.interrupted,
            "seconds": self.seconds,
        }


def baselines(rules: MackeRules) -> dict[str, MackeThresholdPolicy]:
    """The baselines ``optimize_macke`` reports beside its result (stable names;
    the first chance is a turn total >= ``min_score``, so under the default
    rules the two are the same policy)."""
    return {
        "bank at ≥ 300": MackeThresholdPolicy.simple(rules, 300),
        "bank at the first chance": MackeThresholdPolicy.first_chance(rules),
    }


def _best(batch: MackeBatchResult) -> int:
    # exact integer sums on common turns: ties go to the first (smaller) threshold
    return int(np.argmax(batch.sums[:, SUM]))


def optimize_macke(rules: MackeRules = MackeRules(), turns: int = 2_000_000, seed: int = 1,
                   search_turns: int = 200_000, phase: PhaseHook | None = None,
                   grid: Sequence[int | None] = GRID) -> MackeOptimizeResult:
    """Search "bank at >= K" (then the clear's threshold), evaluate on fresh turns."""
    if turns <= 0 or search_turns < 0:
        raise ValueError(f"turns must be > 0 and search_turns >= 0, not {turns} and {search_turns}")
    t0 = time.perf_counter()
    hook = phase or (lambda label, total: None)
    grid = list(grid)
    interrupted = False
    best = MackeThresholdPolicy.simple(rules, rules.min_score)
    search: dict = {}
    search_clear: dict = {}

    def run(policies, n, start, label):
        return run_macke_policies(policies, seed, n, rules, start=start,
                                  progress=hook(label, n * len(policies)) if n else None)

    if search_turns:
        cands = [MackeThresholdPolicy.simple(rules, k) for k in grid]
        batch = run(cands, search_turns, 0, "search bank at ≥ K")
        interrupted = batch.interrupted
        if batch.n:
            best = cands[_best(batch)]
            search = {k: batch.ev(i) for i, k in enumerate(grid)}
        if not interrupted:
            cands = [MackeThresholdPolicy(rules, best.bank_at, k) for k in grid]
            batch = run(cands, search_turns, 0, "search bank at ≥ K after a clear")
            interrupted = batch.interrupted
            if batch.n and not interrupted:
                best = cands[_best(batch)]
                search_clear = {k: batch.ev(i) for i, k in enumerate(grid)}

    rows = {"best": best, **baselines(rules)}
    names = list(rows)
    final = run([rows[k] for k in names], turns, EVAL_START, "evaluate on fresh turns")
    interrupted = interrupted or final.interrupted
    evals = {name: MackeEvaluation.of(rows[name], final, i) for i, name in enumerate(names)}
    best_eval = evals.pop("best")
    exact = None if best.bank_at_clear is None else threshold_policy_value(rules, best)
    return MackeOptimizeResult(
        rules=rules, seed=seed, turns=final.n, search_turns=search_turns, best=best_eval,
        baselines=evals, search=search, search_clear=search_clear, exact_ev=exact,
        interrupted=interrupted, seconds=time.perf_counter() - t0,
    )

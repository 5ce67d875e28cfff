"""Monte Carlo for Berliner Macke / Volle Lotte turns: batches and the threshold search.

The Python side of ``macke.turn_kernel``.

``run_macke_policies`` plays turns ``start .. start+n-1`` of a seed under a
batch of threshold policies, every policy on the same turn streams (common
random numbers), in chunks so that a progress bar moves and Ctrl-C keeps
every finished chunk. Turn ``i`` always reads stream ``(seed, start + i)``,
so chunking and thread count change nothing in the results.

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

import functools
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from tutto_sim.core import cluster
from tutto_sim.core.stats import Estimate
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.reference import threshold_policy_value
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.threshold import MackeThresholdPolicy
from tutto_sim.macke.turn_kernel import (
    N_CLEARS,
    N_MACKE,
    N_NEGATIVE,
    N_POSITIVE,
    N_SUMS,
    N_THROWS,
    N_WINS,
    N_ZERO,
    SUM,
    SUM_SQ,
    MackeKernelData,
    simulate_batch,
)

#: Turns per unit of parallel work inside a kernel call.
BLOCK = 8192
#: Policy-turns per kernel call (keeps progress and Ctrl-C responsive).
CHUNK_WORK = 4_000_000
#: First stream of the evaluation on fresh turns.
EVAL_START = 1 << 40
#: The K grid of the search (points); ``None`` is "never bank".
GRID: tuple[int | None, ...] = (*range(0, 3001, 50), None)

ProgressHook = Callable[[int], None]
PhaseHook = Callable[[str, int], ProgressHook]
"""``phase(label, total_turns)`` returns a hook advanced by policy-turns done."""


@dataclass
class MackeBatchResult:
    """Integer sums per policy (``macke.turn_kernel`` columns); ``n`` turns each."""

    sums: np.ndarray  # (n_policies, N_SUMS)
    n: int
    interrupted: bool = False

    def ev(self, p: int = 0) -> Estimate:
        """Expected turn result (points added to the score, signed)."""
        return Estimate.from_sums(float(self.sums[p, SUM]), float(self.sums[p, SUM_SQ]), self.n,
                                  POINT_UNIT)

    def _share(self, col: int, p: int) -> Estimate:
        return Estimate.proportion(int(self.sums[p, col]), self.n)

    def p_positive(self, p: int = 0) -> Estimate:
        return self._share(N_POSITIVE, p)

    def p_negative(self, p: int = 0) -> Estimate:
        return self._share(N_NEGATIVE, p)

    def p_zero(self, p: int = 0) -> Estimate:
        return self._share(N_ZERO, p)

    def p_macke(self, p: int = 0) -> Estimate:
        return self._share(N_MACKE, p)

    def p_win(self, p: int = 0) -> Estimate:
        return self._share(N_WINS, p)

    def mean_throws(self, p: int = 0) -> float:
        return float(self.sums[p, N_THROWS]) / self.n if self.n else float("nan")

    def mean_clears(self, p: int = 0) -> float:
        return float(self.sums[p, N_CLEARS]) / self.n if self.n else float("nan")


_KERNEL_DATA: dict[MackeRules, MackeKernelData] = {}


def kernel_data(rules: MackeRules) -> MackeKernelData:
    if rules not in _KERNEL_DATA:
        _KERNEL_DATA[rules] = MackeKernelData(rules)
    return _KERNEL_DATA[rules]


def _as_arrays(pols, rules: MackeRules) -> np.ndarray:
    if isinstance(pols, MackeThresholdPolicy):
        pols = [pols]
    if isinstance(pols, np.ndarray):
        arr = pols
    else:
        rows = []
        for p in pols:
            if isinstance(p, MackeThresholdPolicy):
                if p.rules != rules:
                    raise ValueError("a policy was built for other rules than the batch's")
                p = p.to_array()
            rows.append(np.asarray(p, dtype=np.int64))
        arr = np.stack(rows) if rows else np.zeros((0, 7, 7), dtype=np.int64)
    arr = np.ascontiguousarray(arr, dtype=np.int64)
    return arr[None] if arr.ndim == 2 else arr


def run_macke_policies(pols: Sequence[MackeThresholdPolicy | np.ndarray] | np.ndarray
                       | MackeThresholdPolicy,
                       seed: int, n_turns: int, rules: MackeRules = MackeRules(),
                       start: int = 0, progress: ProgressHook | None = None,
                       catch_interrupt: bool = True) -> MackeBatchResult:
    """Play turns ``start .. start+n_turns-1`` of ``seed`` under each policy.

    ``pols``: threshold policies (or their ``to_array()`` forms). All see the
    same streams (common random numbers). ``progress`` is called with the
    policy-turns of each finished chunk. On Ctrl-C the finished chunks are
    returned with ``interrupted=True``.
    """
    if n_turns < 0:
        raise ValueError(f"number of turns must be >= 0, not {n_turns}")
    arr = _as_arrays(pols, rules)
    data = kernel_data(rules)
    n_pols = len(arr)
    chunk = max(BLOCK, (CHUNK_WORK // max(n_pols, 1)) // BLOCK * BLOCK)
    sums = np.zeros((n_pols, N_SUMS), dtype=np.int64)
    work = functools.partial(_policy_chunk, arr, seed, start, data.args())
    done, interrupted = cluster.add_up(work, sums, n_turns, chunk, BLOCK, progress,
                                       catch_interrupt, weight=n_pols)
    return MackeBatchResult(sums, done, interrupted)


def _policy_chunk(arr, seed: int, start: int, args, offset: int, n: int) -> np.ndarray:
    """Turns ``start + offset ..`` (``n``) under each policy: sums per policy."""
    return simulate_batch(arr, np.uint64(seed), start + offset, n, BLOCK, *args).sum(axis=1)


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

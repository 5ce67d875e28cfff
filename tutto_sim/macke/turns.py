"""Monte Carlo for Berliner Macke / Volle Lotte turns: batches of turns.

The Python side of ``macke.turn_kernel``.

``run_macke_policies`` plays turns ``start .. start+n-1`` of a seed under a
batch of threshold policies, every policy on the same turn streams (common
random numbers), in chunks so that a progress bar moves and Ctrl-C keeps
every finished chunk. Turn ``i`` always reads stream ``(seed, start + i)``,
so chunking and thread count change nothing in the results.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from tutto_sim.core import cluster
from tutto_sim.core.stats import Estimate
from tutto_sim.dice.scoring import POINT_UNIT
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

ProgressHook = Callable[[int], None]


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

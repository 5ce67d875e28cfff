"""Run many Tutto turns for a batch of policies, in chunks.

The Python side of ``tutto.turn_kernel``. Work is
cut into chunks so that a progress bar moves and Ctrl-C keeps every finished
chunk; turn ``i`` always reads stream ``(seed, start + i)``, so chunking and
thread count change nothing in the results.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from tutto_sim.core import cluster
from tutto_sim.core.stats import Estimate
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.turn_kernel import TuttoKernelData, simulate_batch

#: Turns per unit of parallel work inside a kernel call.
BLOCK = 8192
#: Policy-turns per kernel call (keeps progress and Ctrl-C responsive).
CHUNK_WORK = 2_000_000

ProgressHook = Callable[[int], None]


@dataclass
class BatchResult:
    """Integer sums per policy; ``n`` turns were played for every policy."""

    sums: np.ndarray  # (n_policies, 5): banked units, squares, >=1 Tutto, >=2 Tuttos, throws
    n: int
    interrupted: bool = False

    def ev(self, p: int = 0) -> Estimate:
        return Estimate.from_sums(float(self.sums[p, 0]), float(self.sums[p, 1]), self.n, POINT_UNIT)

    def p_tutto(self, p: int = 0) -> Estimate:
        return Estimate.proportion(int(self.sums[p, 2]), self.n)

    def p_two_tuttos(self, p: int = 0) -> Estimate:
        return Estimate.proportion(int(self.sums[p, 3]), self.n)

    def mean_throws(self, p: int = 0) -> float:
        return float(self.sums[p, 4]) / self.n if self.n else float("nan")


_KERNEL_DATA: dict[TuttoRules, TuttoKernelData] = {}


def kernel_data(rules: TuttoRules) -> TuttoKernelData:
    if rules not in _KERNEL_DATA:
        _KERNEL_DATA[rules] = TuttoKernelData(rules)
    return _KERNEL_DATA[rules]


def run_policies(pols: Sequence[np.ndarray] | np.ndarray, first_card: Card | None,
                 seed: int, n_turns: int, rules: TuttoRules = TuttoRules(),
                 start: int = 0, progress: ProgressHook | None = None,
                 catch_interrupt: bool = True) -> BatchResult:
    """Play turns ``start .. start+n_turns-1`` of ``seed`` under each policy.

    All policies see the same streams (common random numbers). On Ctrl-C the
    finished chunks are returned with ``interrupted=True``.
    """
    if n_turns < 0:
        raise ValueError(f"number of turns must be >= 0, not {n_turns}")
    pols = np.ascontiguousarray(np.asarray(pols, dtype=np.int64))
    if pols.ndim == 2:
        pols = pols[None]
    data = kernel_data(rules)
    card = -1 if first_card is None else int(first_card)
    chunk = max(BLOCK, (CHUNK_WORK // len(pols)) // BLOCK * BLOCK)
    work = functools.partial(_policy_chunk, pols, card, seed, start, data.args())
    return run_chunked(work, len(pols), n_turns, chunk, progress, catch_interrupt)


def _policy_chunk(pols, card: int, seed: int, start: int, args, offset: int, n: int) -> np.ndarray:
    """Turns ``start + offset ..`` (``n``) under each policy: sums per policy."""
    return simulate_batch(pols, card, np.uint64(seed), start + offset, n, BLOCK, *args).sum(axis=1)


def run_chunked(work: Callable[[int, int], np.ndarray], n_pols: int, n_turns: int,
                chunk: int, progress: ProgressHook | None = None,
                catch_interrupt: bool = True) -> BatchResult:
    """Add up ``work(offset, n)`` (sums per policy) over chunks of turns, in
    this process or as tasks on a cluster (``core.cluster``; ``work`` a
    ``functools.partial`` of a module-level function).

    On Ctrl-C the finished chunks are returned with ``interrupted=True``.
    """
    if n_turns < 0:
        raise ValueError(f"number of turns must be >= 0, not {n_turns}")
    sums = np.zeros((n_pols, 5), dtype=np.int64)
    done, interrupted = cluster.add_up(work, sums, n_turns, chunk, BLOCK, progress, catch_interrupt)
    return BatchResult(sums, done, interrupted)

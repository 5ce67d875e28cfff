"""Monte Carlo play of an exact policy table: the check of the solver.

Part of the simulation layer. ``run_exact`` plays turns with
``tutto.table_kernel`` from an :class:`~tutto_sim.tutto.policy.ExactPolicy`
(as loaded from its exported file), on the same random streams as every other
simulation, so the simulated EVs can be set beside the solver's exact values.
"""

from __future__ import annotations

import functools

import numpy as np

from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.policy import ExactPolicy
from tutto_sim.tutto.table_kernel import simulate_table
from tutto_sim.tutto.turns import BLOCK, CHUNK_WORK, BatchResult, ProgressHook, kernel_data, run_chunked


def table_args(policy: ExactPolicy) -> tuple:
    data = kernel_data(policy.rules)
    t = build_tables(policy.rules.scoring)
    return (*policy.kernel_arrays(), data.ordered, data.ordered_off,
            np.ascontiguousarray(t.best_pts), data.faces, data.deck, data.bonus,
            data.bankable, data.params)


def run_exact(policy: ExactPolicy, first_card: Card | None, seed: int, n_turns: int,
              start: int = 0, progress: ProgressHook | None = None) -> BatchResult:
    """Play ``n_turns`` turns (streams ``start..``) of ``seed`` with the table policy."""
    card = -1 if first_card is None else int(first_card)
    work = functools.partial(_table_chunk, card, seed, start, table_args(policy))
    return run_chunked(work, 1, n_turns, CHUNK_WORK, progress)


def _table_chunk(card: int, seed: int, start: int, args, offset: int, n: int) -> np.ndarray:
    """Turns ``start + offset ..`` (``n``) with the table: their sums."""
    sums, _ = simulate_table(card, np.uint64(seed), start + offset, n, BLOCK, False, *args)
    return sums.sum(axis=0)[None]


def exact_turns(policy: ExactPolicy, first_card: Card | None, seed: int, n_turns: int,
                start: int = 0) -> np.ndarray:
    """Each turn's (banked units, Tuttos under the first card, throws)."""
    card = -1 if first_card is None else int(first_card)
    _, turns = simulate_table(card, np.uint64(seed), start, n_turns, BLOCK, True,
                              *table_args(policy))
    return turns

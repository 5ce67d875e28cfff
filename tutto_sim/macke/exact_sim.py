"""Monte Carlo play of exact Macke policy tables.

Part of the simulation layer. :func:`run_macke_exact` plays turns with
``macke.table_kernel`` from a :class:`~tutto_sim.macke.policy.MackeTablePolicy`
(as loaded from its file), on the same random streams as every other
simulation, so that the simulated EV and outcome shares can be set beside the
solver's exact values (:func:`validate_macke`).
"""

from __future__ import annotations

import functools

import numpy as np

from tutto_sim.core import cluster
from tutto_sim.core.stats import Estimate, ExactCheck
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.policy import MackeTablePolicy
from tutto_sim.macke.turns import BLOCK, MackeBatchResult, ProgressHook
from tutto_sim.macke.solver import MackeSolution, slot_layout, throw_tables
from tutto_sim.macke.table_kernel import N_RETURNS, simulate_table
from tutto_sim.macke.tables import build_macke_tables

#: Turns per kernel call (keeps progress and Ctrl-C responsive).
CHUNK = 4_000_000


class MackeTableResult(MackeBatchResult):
    """Sums of table-policy turns: ``MackeBatchResult`` plus the returns column."""

    def mean_returns(self, p: int = 0) -> float:
        return float(self.sums[p, N_RETURNS]) / self.n if self.n else float("nan")


def table_args(policy: MackeTablePolicy) -> tuple:
    """Everything ``simulate_table`` reads after its first five arguments."""
    rules = policy.rules
    m = build_macke_tables(rules)
    t = throw_tables(rules)
    off, _ = slot_layout(m)
    params = np.array([rules.n_dice, rules.throws, rules.min_score // POINT_UNIT,
                       1 if rules.bust == "zero" else 0, rules.win_value // POINT_UNIT],
                      dtype=np.int64)
    c = np.ascontiguousarray
    return (*policy.kernel_arrays(), c(t.ordered), c(t.ordered_off), c(t.start),
            c(m.state_dice), c(m.state_pts), c(m.add), c(m.sub_start), c(m.sub_states),
            c(m.keep_start), c(m.keep_states), c(m.win), c(off), int(m.empty), params)


def run_macke_exact(policy: MackeTablePolicy, seed: int, n_turns: int, start: int = 0,
                    progress: ProgressHook | None = None,
                    catch_interrupt: bool = True) -> MackeTableResult:
    """Play turns ``start .. start+n_turns-1`` of ``seed`` with the table policy.

    On Ctrl-C the finished chunks are returned with ``interrupted=True``.
    """
    if n_turns < 0:
        raise ValueError(f"number of turns must be >= 0, not {n_turns}")
    sums = np.zeros((1, N_RETURNS + 1), dtype=np.int64)
    work = functools.partial(_table_chunk, seed, start, table_args(policy))
    done, interrupted = cluster.add_up(work, sums, n_turns, CHUNK, BLOCK, progress, catch_interrupt)
    return MackeTableResult(sums, done, interrupted)


def _table_chunk(seed: int, start: int, args, offset: int, n: int) -> np.ndarray:
    """Turns ``start + offset ..`` (``n``) with the table: their sums."""
    s, _ = simulate_table(np.uint64(seed), start + offset, n, BLOCK, False, *args)
    return s.sum(axis=0)


def macke_exact_turns(policy: MackeTablePolicy, seed: int, n_turns: int,
                      start: int = 0) -> np.ndarray:
    """Each turn's (result, turn total, throws, clears, end, returns); points in units of 50."""
    _, turns = simulate_table(np.uint64(seed), start, n_turns, BLOCK, True, *table_args(policy))
    return turns


# --------------------------------------------------------------------------
# the solver against the simulation
# --------------------------------------------------------------------------


def validate_macke(sol: MackeSolution, turns: int, seed: int,
                   policy: MackeTablePolicy | None = None,
                   progress: ProgressHook | None = None) -> list[ExactCheck]:
    """Simulate the optimal policy (its table, as a bot loads it) and compare
    EV, P(>0), P(<0), P(=0) with the solver's exact values."""
    policy = policy or MackeTablePolicy.from_solution(sol)
    res = run_macke_exact(policy, seed, turns, progress=progress)
    sims: dict[str, Estimate] = {"ev": res.ev(), "p_positive": res.p_positive(),
                                 "p_negative": res.p_negative(), "p_zero": res.p_zero()}
    exact = {"ev": sol.turn_ev, "p_positive": sol.p_positive, "p_negative": sol.p_negative,
             "p_zero": sol.p_zero}
    return [ExactCheck(k, exact[k], e.mean, e.ci95, e.n) for k, e in sims.items()]

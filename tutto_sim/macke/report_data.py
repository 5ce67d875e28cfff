"""The numbers behind the Berliner Macke / Volle Lotte report, computed once
and drawn by ``macke.report_figures``.

Part of the report layer. Everything exact comes from the solver
(``macke.solver.solve_macke``, ``exact_macke_policy_value``) and the exact
minimum-score sweep (``macke.analysis.explore_macke``); everything simulated
from the threshold kernel (``macke.turns.run_macke_policies``) and the table
kernel (``macke.exact_sim.run_macke_exact``), always from ``seed`` on turn
streams ``0 .. turns-1`` so that the same seed gives the same report.

The simple policies
-------------------
"Bank at >= K" is the family of ``macke.threshold``: keep every
scoring unit, never return a unit, bank when the turn total is >= K after a
scoring throw, and after a clear bank at >= K_clear (else a new series). The
report sweeps K with K_clear = K (the plain rule a player can remember), then
K_clear with K at its best value. Every point of a sweep is played on the same
turns (common random numbers) and valued exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tutto_sim.core.report import PhaseHook
from tutto_sim.core.stats import Estimate
from tutto_sim.macke.analysis import explore_macke
from tutto_sim.macke.exact_sim import run_macke_exact
from tutto_sim.macke.policy import MackeTablePolicy
from tutto_sim.macke.rules import VARIANTS, MackeRules
from tutto_sim.macke.turns import run_macke_policies
from tutto_sim.macke.solver import (
    NEVER,
    MackeSolution,
    ReturnsSummary,
    exact_macke_policy_value,
    slot_layout,
    solve_macke,
    throw_tables,
)
from tutto_sim.macke.tables import build_macke_tables
from tutto_sim.macke.threshold import MackeThresholdPolicy


#: Minimum scores of the "300-point rule" figure (points).
MIN_SCORES = tuple(range(0, 601, 50))
BUSTS = ("subtract", "zero")
#: "Bank at >= K" (after a clear too): the K swept (points).
K_GRID = tuple(range(0, 3001, 50))
#: The clear's threshold is valued exactly up to this (points) to find its best.
CLEAR_EXACT_MAX = 20_000
#: Simulated points of the clear's sweep: at most this many.
CLEAR_POINTS = 81
#: Exact values closer than this (points) count as equal (the first, smallest
#: threshold wins): float noise only, so the best matches docs/macke-solver.md.
TIE_POINTS = 1e-9


@dataclass(frozen=True)
class SimpleSweep:
    """EV of "bank at >= K" (``what`` = "K", clear at K too) or of the clear's
    threshold with K fixed (``what`` = "clear"), exact and simulated."""

    what: str
    fixed_k: int | None  # K of the clear's sweep
    exact_x: np.ndarray  # thresholds (points), fine grid
    exact: np.ndarray  # exact EV per threshold of exact_x
    mc_x: np.ndarray  # thresholds simulated (points)
    mc: list[Estimate]  # common random numbers

    @property
    def best(self) -> int:
        """The threshold with the highest exact EV (the smallest among ties)."""
        top = self.exact.max()
        return int(self.exact_x[np.argmax(self.exact >= top - TIE_POINTS)])

    @property
    def best_ev(self) -> float:
        return float(self.exact.max())

    def exact_at(self, x: int) -> float:
        return float(self.exact[list(self.exact_x).index(x)])


@dataclass(frozen=True)
class KeepRow:
    """Throws where the optimal policy sets aside less than every scoring unit,
    with nothing aside and nothing locked: the turn's first throw, and throws
    2 and 3 of the first series after everything went back to the cup."""

    every_unit: str  # what "set aside every scoring unit" takes, e.g. "1 + 1 + 5"
    keeps: tuple[str, ...]  # per throw of the series: the optimal keep ("" = every unit)
    probability: float  # of a throw in this group (of all dice)
    example: str  # the group's most likely throw, sorted faces


@dataclass(frozen=True)
class VariantRow:
    variant: str
    bust: str
    rules: MackeRules
    ev: float
    p_positive: float
    p_negative: float
    p_zero: float
    clear_bank_at: int
    ev_no_returns: float


@dataclass
class MackeReportData:
    rules: MackeRules
    seed: int
    turns: int
    sol: MackeSolution
    sol_no_returns: MackeSolution
    other_bust: MackeSolution  # the same rules under the other bust rule
    explore: object  # pandas DataFrame of explore_macke(..., returns=True)
    variants: list[VariantRow]
    returns_any: ReturnsSummary  # every locked total
    returns_start: ReturnsSummary  # locked 0
    keep_rows: list[KeepRow]
    sweep_k: SimpleSweep
    sweep_clear: SimpleSweep
    optimal_mc: Estimate  # the optimal table simulated on the same turns
    optimal_mc_p: tuple[Estimate, Estimate, Estimate]  # P(+), P(-), P(0)
    tournament: object | None = None  # common.Tournament

    @property
    def name(self) -> str:
        return game_name(self.rules)

    @property
    def best_simple(self) -> MackeThresholdPolicy:
        return MackeThresholdPolicy(self.rules, self.sweep_k.best, self.sweep_clear.best)

    @property
    def best_simple_ev(self) -> float:
        return self.sweep_clear.best_ev


def game_name(rules: MackeRules) -> str:
    name = "Volle Lotte" if rules.variant == "volle-lotte" else "Berliner Macke"
    if rules.variant not in ("standard", "volle-lotte"):
        name += f" ({rules.variant})"
    return name


def th(points) -> int | None:
    """A threshold in points, None for "never"."""
    return None if points is None or points >= NEVER else int(points)


def _clear_mc_grid(best: int) -> np.ndarray:
    hi = max(3000, 500 * -(-int(best * 1.5) // 500))
    for step in (50, 100, 250, 500, 1000, 2000):
        if hi // step + 1 < CLEAR_POINTS:
            break
    return np.union1d(np.arange(0, hi + 1, step), [best])  # the best is always simulated


def _keep_rows(sol: MackeSolution) -> list[KeepRow]:
    """:class:`KeepRow` groups, most likely first; throws after the first count
    only when the optimal policy returns everything before them."""
    from tutto_sim.macke.policy import throw_names

    rules = sol.rules
    m = build_macke_tables(rules)
    t = throw_tables(rules)
    off, _ = slot_layout(m)
    names = throw_names(rules)
    n, L = rules.n_dice, rules.throws
    lo, hi = int(t.start[n]), int(t.start[n + 1])
    used = [j == 1 or bool(sol.reach.at_return[0, L - j + 1].any()) for j in range(1, L + 1)]
    groups: dict[tuple, list] = {}
    for ms in range(lo, hi):
        every = int(m.all_keep[ms])
        if every < 0:
            continue
        keeps = []
        for j in range(1, L + 1):
            idx = int(sol.decisions.keep[0, L - j + 1, off[m.empty] + ms - lo])
            k = int(m.keep_states[m.keep_start[ms] + idx])
            keeps.append("" if k == every or not used[j - 1] else m.state_name(k))
        if not any(keeps):
            continue
        key = (m.state_name(every), tuple(keeps))
        p = float(t.prob[ms])
        g = groups.setdefault(key, [0.0, 0.0, ""])
        g[0] += p
        if p > g[1]:
            g[1], g[2] = p, names[ms]
    rows = [KeepRow(e, k, g[0], g[2]) for (e, k), g in groups.items()]
    return sorted(rows, key=lambda r: (-r.probability, r.every_unit, r.keeps))


def _variant_rules(rules: MackeRules, variant: str, bust: str) -> MackeRules:
    return MackeRules.preset(variant, min_score=rules.min_score, throws=rules.throws, bust=bust,
                             win_value=rules.win_value, six_of_kind=rules.six_of_kind)


def compute(rules: MackeRules, seed: int, turns: int, phase: PhaseHook,
            tournament=None) -> MackeReportData:
    """Every number of the report (exact first, then the simulations)."""
    other = "zero" if rules.bust == "subtract" else "subtract"
    n_solves = 3 + 2 * len(BUSTS) * len(MIN_SCORES) + 2 * len(VARIANTS) * len(BUSTS)
    advance = phase("solving exactly", n_solves)
    sol = solve_macke(rules)
    no_ret = solve_macke(rules, allow_returns=False)
    other_sol = solve_macke(replace(rules, bust=other))
    advance(3)

    import pandas as pd

    frames = []
    for bust in BUSTS:
        for k in MIN_SCORES:
            frames.append(explore_macke(rules, (k,), (bust,), returns=True))
            advance(2)
    explore = pd.concat(frames, ignore_index=True)

    variants = []
    for v in VARIANTS:
        for bust in BUSTS:
            r = _variant_rules(rules, v, bust)
            s = solve_macke(r)
            nr = solve_macke(r, allow_returns=False)
            variants.append(VariantRow(v, bust, r, s.turn_ev, s.p_positive, s.p_negative,
                                       s.p_zero, s.clear_bank_at, nr.turn_ev))
            advance(2)

    returns_any = sol.returns_summary(locked=None, top=12)
    returns_start = sol.returns_summary(locked=0, top=12)
    keep_rows = _keep_rows(sol)

    # the simple family, exact: K (clear at K), then the clear's threshold at the best K
    k_x = np.union1d(K_GRID, [rules.min_score])  # "bank at the first chance" is on it
    advance = phase("valuing bank at ≥ K exactly", len(k_x))
    k_exact = []
    for k in k_x:
        k_exact.append(exact_macke_policy_value(MackeThresholdPolicy.simple(rules, int(k)), rules))
        advance(1)
    k_exact = np.array(k_exact)
    top = k_exact.max()
    best_k = int(k_x[np.argmax(k_exact >= top - TIE_POINTS)])
    c_x = np.arange(0, min(CLEAR_EXACT_MAX, sol.cap_units * 50 - 50) + 1, 50)
    advance = phase("valuing the clear's threshold exactly", len(c_x))
    c_exact = []
    for kc in c_x:
        pol = MackeThresholdPolicy(rules, best_k, int(kc))
        c_exact.append(exact_macke_policy_value(pol, rules))
        advance(1)
    c_exact = np.array(c_exact)
    best_c = int(c_x[np.argmax(c_exact >= c_exact.max() - TIE_POINTS)])

    # the same, simulated on common turns
    pols = [MackeThresholdPolicy.simple(rules, int(k)) for k in k_x]
    batch = run_macke_policies(pols, seed, turns, rules, catch_interrupt=False,
                               progress=phase("simulating bank at ≥ K", turns * len(pols)))
    sweep_k = SimpleSweep("K", None, k_x, k_exact, k_x, [batch.ev(i) for i in range(len(pols))])
    mc_c = _clear_mc_grid(best_c)
    pols = [MackeThresholdPolicy(rules, best_k, int(kc)) for kc in mc_c]
    batch = run_macke_policies(pols, seed, turns, rules, catch_interrupt=False,
                               progress=phase("simulating the clear's threshold",
                                              turns * len(pols)))
    sweep_clear = SimpleSweep("clear", best_k, c_x, c_exact, mc_c,
                              [batch.ev(i) for i in range(len(pols))])

    advance = phase("simulating the optimal policy", turns)
    opt = run_macke_exact(MackeTablePolicy.from_solution(sol), seed, turns,
                          progress=advance, catch_interrupt=False)
    return MackeReportData(
        rules=rules, seed=seed, turns=turns, sol=sol, sol_no_returns=no_ret,
        other_bust=other_sol, explore=explore, variants=variants, returns_any=returns_any,
        returns_start=returns_start, keep_rows=keep_rows, sweep_k=sweep_k,
        sweep_clear=sweep_clear, optimal_mc=opt.ev(),
        optimal_mc_p=(opt.p_positive(), opt.p_negative(), opt.p_zero()),
        tournament=tournament)

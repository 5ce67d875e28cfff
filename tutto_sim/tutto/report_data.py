"""The numbers behind the Tutto report, computed once and drawn by ``tutto.report_figures``.

Part of the report layer. Everything exact comes from the solver
(``tutto.solver.solve_tutto``, ``tutto.solver.policy_value``); everything simulated from the
turn kernels (``tutto.turns.run_policies`` for threshold sweeps,
``tutto.exact_sim.exact_turns`` and ``tutto.turn_kernel.simulate_turns`` for
per-turn results), always from ``seed`` so that the same seed gives the same
report.

The threshold sweeps
--------------------
For each card that may bank before a Tutto (Bonus 200 ... 600, x2) and each
number of dice left ``d`` the report varies the bank threshold for ``d`` along
a grid and keeps everything else at the **reference threshold policy**: the
solver's optimal bank thresholds (other dice left, other cards; under x2
scope "card" x2's thresholds with the fewest own points, see
:func:`policy_rows`), its after-Tutto threshold, its best fixed Straße take, and per card the named keep
rule that gives that card the highest exact EV (the optimal keep is not a
named rule, so a threshold policy cannot use it). Every grid point is played on
the same turns (common random numbers: the differences between points are far
more precise than each point's CI) and valued exactly with
:func:`~tutto_sim.tutto.solver.policy_value`.

The exact values use a cap just above the policy's largest threshold instead
of the solver's default: past every threshold the policy banks anyway, so
the value is the same (``DEFAULT_CAP_UNITS``: exact "for every threshold
policy whose thresholds are below the cap"; ``tests/tutto/test_report.py`` checks
it), and the evaluation is about ten times faster.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from tutto_sim.core.report import PhaseHook
from tutto_sim.core.stats import Estimate
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import KEEP_RULES
from tutto_sim.tutto.advice import keep_advice
from tutto_sim.tutto.cards import BANKABLE_CARDS, Card
from tutto_sim.tutto.exact_sim import exact_turns
from tutto_sim.tutto.policy import ExactPolicy
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.solver import DEFAULT_CAP_UNITS, TuttoSolution, policy_value, solve_tutto
from tutto_sim.tutto.threshold import baseline_bank_at_300
from tutto_sim.tutto.turn_kernel import COL_DRAW, COL_KEEP, NEVER, simulate_turns
from tutto_sim.tutto.turns import BLOCK, kernel_data, run_policies


#: The cards of the sweeps and of the policy heat map, in deck order.
SWEEP_CARDS = tuple(c for c in Card if c in BANKABLE_CARDS)
#: Cards whose keep rule a threshold policy chooses.
KEEP_CARDS = SWEEP_CARDS + (Card.PLUSMINUS, Card.CLOVERLEAF)
DICE_LEFT = (1, 2, 3, 4, 5)


def _grid(*parts: tuple[int, int, int]) -> tuple[int, ...]:
    return tuple(sorted({t for lo, hi, step in parts for t in range(lo, hi + 1, step)}))


#: Bank thresholds (points) swept for each number of dice left: steps of 50
#: where the value changes quickly, coarser where it is flat. The optimal
#: thresholds (default rules: 200-350, 200-300, 400-500, 950-1,350,
#: 2,900-4,400) lie inside.
THRESHOLD_GRID = {
    1: _grid((0, 1000, 50)),
    2: _grid((0, 1000, 50)),
    3: _grid((0, 1500, 50)),
    4: _grid((0, 1000, 50), (1000, 3000, 200)),
    5: _grid((0, 1000, 50), (1000, 6000, 250)),
}

#: Exact values closer than this (points) count as equally good thresholds.
TIE_POINTS = 0.01

#: The policies the report compares, by the names the figures print.
OPTIMAL = "optimal"
REFERENCE = "reference threshold policy"
BANK_300 = "bank at 300"

#: Turns of the per-turn distributions start here: streams no sweep reads.
DIST_START = 1 << 40

#: Keep-advice states (dice to throw, turn total before the throw): the first
#: throw, then the totals after setting aside one 1 per throw.
KEEP_STATES = ((6, 0), (5, 100), (4, 200), (3, 300))


@dataclass(frozen=True)
class ThresholdSweep:
    """EV of a turn starting with ``card`` against the bank threshold for
    ``dice_left`` (points), the rest of the reference policy fixed."""

    card: Card
    dice_left: int
    thresholds: np.ndarray  # points
    mc: list[Estimate]  # per threshold, common random numbers
    exact: np.ndarray  # points, per threshold
    reference_threshold: int | None  # the solver's threshold (points); None = never

    @property
    def best_threshold(self) -> int:
        """The grid threshold with the highest exact value; among values within
        ``TIE_POINTS`` of it (flat stretches, where the totals cannot or hardly
        ever occur) the one nearest the solver's."""
        top = self.exact.max()
        best = self.thresholds[self.exact >= top - TIE_POINTS]
        ref = self.reference_threshold if self.reference_threshold is not None else 1 << 40
        return int(best[np.argmin(np.abs(best - ref))])


@dataclass(frozen=True)
class KeepRow:
    """A group of throws where the optimal keep sets aside fewer dice."""

    dice: int  # dice thrown
    turn_total: int  # points before the throw
    scoring: str  # every scoring die of the throw, e.g. "115"
    keep: str  # what to set aside instead, e.g. "1"
    probability: float  # of a throw in this group
    cards: tuple[Card, ...]  # cards under which this is the optimal keep


@dataclass(frozen=True)
class PolicyRows:
    """The optimal bank decisions of one card over a range of turn totals."""

    totals: np.ndarray  # points, after setting aside
    bank: np.ndarray  # bool [5, n]: dice left 1..5 x totals
    possible: np.ndarray  # bool [5, n]: the state can occur at all
    thresholds: dict[int, int | None]  # dice left -> bank from (points); None = never
    card_points: dict[int, int] | None = None  # x2 scope "card": own points shown (points)


@dataclass(frozen=True)
class TuttoReportData:
    rules: TuttoRules
    seed: int
    turns: int
    sol: TuttoSolution
    policy: ExactPolicy  # the optimal decisions (heat map, distribution)
    reference: np.ndarray  # the reference threshold policy (kernel format)
    keep_rule: dict[Card, str]  # its keep rule per card
    sweeps: dict[tuple[Card, int], ThresholdSweep]
    rows: dict[Card, PolicyRows]  # the optimal bank decisions (heat map, cheat sheet)
    card_values: dict[str, np.ndarray]  # policy label -> exact EV per card (points)
    turn_values: dict[str, float]  # policy label -> exact EV of a turn
    banked: dict[str, np.ndarray]  # policy label -> banked points per simulated turn
    keep_rows: list[KeepRow]
    first_throw_fewer: dict[Card, float]  # P(first throw: set aside fewer than all scoring)
    tutto_keep_rows: list[KeepRow]  # Plus/Minus and Kleeblatt: most likely Tutto


def exact_cap(pol: np.ndarray) -> int:
    """The smallest cap (units) at which :func:`policy_value` of ``pol`` is
    exact: above every threshold the policy can reach (see the module doc)."""
    th = pol[:, 1:COL_DRAW + 1]
    finite = th[th < NEVER // POINT_UNIT]
    top = int(finite.max()) + 1 if finite.size else DEFAULT_CAP_UNITS
    return int(min(DEFAULT_CAP_UNITS, max(80, top)))


def exact_card_ev(pol: np.ndarray, rules: TuttoRules) -> np.ndarray:
    """Exact EV (points) of a turn that starts with each card, under ``pol``."""
    return policy_value(pol, rules, exact_cap(pol)).card_ev


def policy_rows(sol: TuttoSolution, policy: ExactPolicy, card: Card,
                totals: np.ndarray) -> PolicyRows:
    """Bank or throw on with 1..5 dice left at each of ``totals`` (points).

    A state is possible from 50 points per die set aside on. Under x2 scope
    "card" the x2 decision also depends on the card's own points; the rows
    then hold it with the fewest own points that many dice can have (its
    thresholds are the lowest, and they are the ones of an x2 drawn after
    other cards), and ``card_points`` says which.
    """
    t = np.minimum(totals // POINT_UNIT, policy.t_max)
    bank = np.zeros((len(DICE_LEFT), len(totals)), dtype=bool)
    possible = np.zeros_like(bank)
    thresholds: dict[int, int | None] = {}
    own = None
    for i, d in enumerate(DICE_LEFT):
        low = (6 - d) * POINT_UNIT
        if card is Card.X2 and policy.bank_x2p is not None:
            p = int(np.nonzero(sol.x2_card_threshold[d] >= 0)[0][0])
            own = own or {}
            own[d] = p * POINT_UNIT
            low = max(low, p * POINT_UNIT)
            bank[i] = policy.bank_x2p[p, d, t]
            th = int(sol.x2_card_threshold[d, p])
        else:
            bank[i] = policy.bank[int(card), d, t]
            th = int(sol.bank_threshold[card, d])
        possible[i] = totals >= low
        thresholds[d] = None if th >= NEVER else th
    return PolicyRows(totals, bank, possible, thresholds, own)


def reference_policy(sol: TuttoSolution, rows: dict[Card, PolicyRows] | None = None
                     ) -> tuple[np.ndarray, dict[Card, str]]:
    """The solver's thresholds with, per card, the best named keep rule.

    The bank thresholds are those of ``rows`` (default: the solver's); the
    keep rule: first the one rule that is best for a whole turn, then per card
    the rule that gives that card the highest exact EV (a tie keeps the turn's
    rule).
    """
    rules = sol.rules

    def thresholds(rule: int) -> np.ndarray:
        pol = sol.threshold_policy(rule)
        for card, r in (rows or {}).items():
            for d, th in r.thresholds.items():
                pol[card, d] = NEVER if th is None else th // POINT_UNIT
        return pol

    turn_ev = [policy_value(thresholds(r), rules, exact_cap(thresholds(r))).turn_ev
               for r in range(len(KEEP_RULES))]
    base_rule = int(np.argmax(np.round(turn_ev, 9)))
    pol = thresholds(base_rule)
    for c in KEEP_CARDS:
        best, best_ev = base_rule, exact_card_ev(pol, rules)[c]
        for r in range(len(KEEP_RULES)):
            trial = pol.copy()
            trial[c, COL_KEEP] = r
            ev = exact_card_ev(trial, rules)[c]
            if ev > best_ev + 1e-9:
                best, best_ev = r, ev
        pol[c, COL_KEEP] = best
    return pol, {c: KEEP_RULES[int(pol[c, COL_KEEP])] for c in KEEP_CARDS}


def threshold_sweep(reference: np.ndarray, card: Card, dice_left: int, rules: TuttoRules,
                    seed: int, turns: int,
                    thresholds: tuple[int, ...] | None = None) -> ThresholdSweep:
    """One curve: vary ``reference[card, dice_left]`` along the grid."""
    grid = np.array(thresholds or THRESHOLD_GRID[dice_left], dtype=np.int64)
    pols = np.repeat(reference[None], len(grid), axis=0)
    pols[:, int(card), dice_left] = grid // POINT_UNIT
    res = run_policies(pols, card, seed, turns, rules, catch_interrupt=False)
    exact = np.array([exact_card_ev(p, rules)[card] for p in pols])
    ref = int(reference[card, dice_left])
    return ThresholdSweep(card, dice_left, grid, [res.ev(i) for i in range(len(grid))],
                          exact, None if ref >= NEVER // POINT_UNIT else ref * POINT_UNIT)


def banked_points(policy: ExactPolicy, pol_300: np.ndarray, rules: TuttoRules, seed: int,
                  turns: int) -> dict[str, np.ndarray]:
    """Banked points of each of ``turns`` whole turns (random first card),
    optimal play and bank-at-300 on the same streams."""
    optimal = exact_turns(policy, None, seed, turns, start=DIST_START)[:, 0]
    simple = simulate_turns(pol_300, -1, np.uint64(seed), DIST_START, turns, BLOCK,
                            *kernel_data(rules).args())[:, 0]
    return {OPTIMAL: optimal * POINT_UNIT, BANK_300: simple * POINT_UNIT}


def keep_rows(sol: TuttoSolution, cards, states) -> list[KeepRow]:
    """The keep advice of ``tutto.advice`` grouped by what the throw scores and
    what to set aside instead, over ``cards``; most likely first per state."""
    rows = []
    for dice, total in states:
        groups: dict[tuple[str, str], dict] = defaultdict(lambda: {"p": 0.0, "cards": set()})
        per_card: dict[tuple[str, str], dict[Card, float]] = defaultdict(dict)
        for card in cards:
            for a in keep_advice(sol, card, dice, total, top=10_000):
                key = (a.all_scoring[1], a.best[1])
                per_card[key][card] = per_card[key].get(card, 0.0) + a.probability
        for key, by_card in per_card.items():
            groups[key]["p"] = max(by_card.values())
            groups[key]["cards"] = set(by_card)
        for (scoring, keep), g in sorted(groups.items(), key=lambda kv: (-kv[1]["p"], kv[0])):
            rows.append(KeepRow(dice, total, scoring, keep, g["p"],
                                tuple(sorted(g["cards"]))))
    return rows


def compute(rules: TuttoRules, seed: int, turns: int,
            phase: PhaseHook | None = None) -> TuttoReportData:
    """Everything the Tutto report shows. ``phase(label, total)`` (as the CLI's
    ``progress_phases``) is told about each step."""
    phase = phase or (lambda label, total: (lambda n: None))
    phase("solving exactly", 1)
    sol = solve_tutto(rules)
    policy = ExactPolicy.from_solution(sol)

    advance = phase("choosing the keep rules of the reference threshold policy", 1)
    finite = [int(sol.bank_threshold[c, d]) for c in SWEEP_CARDS for d in DICE_LEFT
              if sol.bank_threshold[c, d] < NEVER]
    top = max(2000, int(np.ceil((max(finite, default=3000) + 600) / 1000)) * 1000)
    totals = np.arange(0, top + 1, POINT_UNIT)
    rows = {c: policy_rows(sol, policy, c, totals) for c in SWEEP_CARDS}
    reference, keep_rule = reference_policy(sol, rows)
    advance(1)

    sweeps = {}
    advance = phase("threshold sweeps (Monte Carlo and exact)",
                    len(SWEEP_CARDS) * len(DICE_LEFT))
    for card in SWEEP_CARDS:
        for d in DICE_LEFT:
            sweeps[card, d] = threshold_sweep(reference, card, d, rules, seed, turns)
            advance(1)

    advance = phase("exact values and per-turn distributions", 3)
    pol_300 = baseline_bank_at_300().to_array()
    ev_ref = policy_value(reference, rules, exact_cap(reference))
    ev_300 = policy_value(pol_300, rules, exact_cap(pol_300))
    card_values = {OPTIMAL: sol.card_ev.copy(), REFERENCE: ev_ref.card_ev,
                   BANK_300: ev_300.card_ev}
    turn_values = {OPTIMAL: sol.turn_ev, REFERENCE: ev_ref.turn_ev, BANK_300: ev_300.turn_ev}
    advance(1)
    banked = banked_points(policy, pol_300, rules, seed, turns)
    advance(1)
    advice = keep_rows(sol, SWEEP_CARDS, KEEP_STATES)
    fewer = {c: sum(a.probability for a in keep_advice(sol, c, 6, 0, top=10_000))
             for c in SWEEP_CARDS}
    tutto_rows = keep_rows(sol, (Card.PLUSMINUS, Card.CLOVERLEAF), ((6, 0), (5, 100)))
    advance(1)
    return TuttoReportData(rules, seed, turns, sol, policy, reference, keep_rule, sweeps, rows,
                           card_values, turn_values, banked, advice, fewer, tutto_rows)

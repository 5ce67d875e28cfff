"""Monte Carlo search for the best threshold policy of one Tutto card.

Part of the simulation layer. ``optimize_card`` searches the card's row of a
:class:`~tutto_sim.tutto.threshold.ThresholdPolicy` by coordinate descent: one
parameter at a time, every candidate value in one batch on the *same* turns
(common random numbers, turn streams ``0 .. search_turns-1``), first on a
coarse grid, then finer around the best value, until a sweep changes nothing.
The policy found is then evaluated on **fresh** turns (streams from
``EVAL_START`` on), so its EV is not inflated by the search (no winner's curse),
together with the baselines on the same fresh turns.

Parameters searched, by card:

- Bonus and x2: keep rule, bank thresholds for 1..5 dice left, after-Tutto
  threshold ("6");
- Straße: how many new numbers to set aside per throw, after-Tutto threshold;
- Plus/Minus: keep rule (the chance of a Tutto), after-Tutto threshold;
- Kleeblatt: keep rule, maximising the chance of two Tuttos;
- Feuerwerk and Stop: nothing to decide; the EV is simply estimated.

While one card is searched, the other cards (drawn after a Tutto) follow
``tutto.threshold.DEFAULT_POLICY``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from tutto_sim.core.cli import plural
from tutto_sim.core.stats import Estimate
from tutto_sim.dice.throws import KEEP_RULES
from tutto_sim.tutto.cards import BANKABLE_CARDS, Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.threshold import DEFAULT_POLICY, CardPolicy, ThresholdPolicy
from tutto_sim.tutto.turns import BatchResult, run_policies

EVAL_START = 1 << 40
COARSE = [0, 100, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500,
          3000, 4000, 5000, 6000, 8000, 10000, None]
FINE_STEP = 50
FINE_HALF_WIDTH = 300
MAX_SWEEPS = 4

PhaseHook = Callable[[str, int], Callable[[int], None]]
"""``phase(label, total_turns)`` returns a hook advanced by turns done."""


@dataclass
class OptimizeResult:
    card: Card
    rules: TuttoRules
    seed: int
    search_turns: int
    policy: CardPolicy
    ev: Estimate
    p_tutto: Estimate
    p_two_tuttos: Estimate
    mean_throws: float
    baselines: dict[str, tuple[CardPolicy, Estimate, Estimate]] = field(default_factory=dict)
    street: dict[int, tuple[Estimate, Estimate]] = field(default_factory=dict)  # take -> (P, EV)
    sweeps: int = 0
    policies_tried: int = 0
    interrupted: bool = False
    seconds: float = 0.0


def _params(card: Card, rules: TuttoRules) -> list[str]:
    if card in BANKABLE_CARDS:
        return ["keep", "bank1", "bank2", "bank3", "bank4", "bank5", "draw"]
    if card is Card.STREET:
        return ["street_take", "draw"]
    if card is Card.PLUSMINUS:
        return ["keep", "draw"] if rules.plusminus_chain == "continue" else ["keep"]
    if card is Card.CLOVERLEAF:
        return ["keep"]
    return []


def param_words(name: str) -> str:
    """A searched parameter in the players' words (the progress bar's label):
    ``bank3`` -> "bank threshold, 3 dice left"."""
    if name.startswith("bank"):
        return f"bank threshold, {plural(int(name[4:]), 'die', 'dice')} left"
    return {"keep": "which scoring dice to set aside",
            "draw": "after a Tutto: bank or draw a card",
            "street_take": "how many new numbers to set aside"}[name]


def _get(cp: CardPolicy, name: str):
    if name.startswith("bank"):
        return cp.bank_at[int(name[4:]) - 1]
    return {"keep": cp.keep, "draw": cp.draw_below, "street_take": cp.street_take}[name]


def _set(cp: CardPolicy, name: str, value) -> CardPolicy:
    if name.startswith("bank"):
        bank = list(cp.bank_at)
        bank[int(name[4:]) - 1] = value
        return replace(cp, bank_at=tuple(bank))
    key = {"keep": "keep", "draw": "draw_below", "street_take": "street_take"}[name]
    return replace(cp, **{key: value})


def _candidates(name: str, current, fine: bool) -> list:
    if name == "keep":
        return list(KEEP_RULES)
    if name == "street_take":
        return [1, 2, 3, 4, 5, 6]
    if not fine:
        return list(COARSE)
    if current is None:
        return [None] + [COARSE[-2] - FINE_STEP * i for i in range(4)]
    lo = max(0, current - FINE_HALF_WIDTH)
    return list(range(lo, current + FINE_HALF_WIDTH + 1, FINE_STEP))


def _score(card: Card, batch: BatchResult, p: int) -> float:
    if card is Card.CLOVERLEAF:  # EV is 0 by default: maximise P(two Tuttos)
        return float(batch.sums[p, 3]) + 1e-9 * float(batch.sums[p, 0])
    return float(batch.sums[p, 0])


def decision_thresholds(card: Card, cp: CardPolicy, rules: TuttoRules) -> dict[str, int | None]:
    """Dice left "1".."6" -> bank at >= points, None where the card allows no
    such decision ("6" is the after-Tutto choice)."""
    t = cp.thresholds()
    if card not in BANKABLE_CARDS:
        t.update({str(n): None for n in range(1, 6)})
    if "draw" not in _params(card, rules):
        t["6"] = None
    return t


def baseline_rows(card: Card) -> dict[str, CardPolicy]:
    """The baselines ``optimize`` reports beside its result."""
    if card in BANKABLE_CARDS:
        return {
            "bank at 300": CardPolicy("all", (300,) * 5, draw_below=300),
            "never bank before a Tutto": CardPolicy("all", (None,) * 5, draw_below=0),
        }
    return {"keep all, bank after the Tutto": CardPolicy("all", (None,) * 5, draw_below=0)}


def optimize_card(card: Card, rules: TuttoRules = TuttoRules(), turns: int = 2_000_000,
                  seed: int = 1, search_turns: int = 200_000,
                  others: ThresholdPolicy = DEFAULT_POLICY,
                  phase: PhaseHook | None = None) -> OptimizeResult:
    """Search the threshold policy of ``card``, then evaluate it on fresh turns."""
    if turns <= 0 or search_turns < 0:
        raise ValueError("turns must be > 0 and search_turns >= 0")
    t0 = time.perf_counter()
    hook = phase or (lambda label, total: None)
    best = others[card]
    params = _params(card, rules)
    interrupted = False
    sweeps = tried = 0

    def evaluate(rows: list[CardPolicy], n: int, start: int, label: str) -> BatchResult:
        pols = np.stack([others.with_card(card, r).to_array() for r in rows])
        return run_policies(pols, card, seed, n, rules, start=start,
                            progress=hook(label, n * len(rows)) if n else None)

    if params and search_turns:
        for sweep in range(MAX_SWEEPS):
            changed = False
            for name in params:
                current = _get(best, name)
                values = _candidates(name, current, fine=sweep > 0)
                if current not in values:
                    values.append(current)
                rows = [_set(best, name, v) for v in values]
                batch = evaluate(rows, search_turns, 0, f"{param_words(name)} (sweep {sweep + 1} of at most {MAX_SWEEPS})")
                tried += len(rows)
                if batch.interrupted:
                    interrupted = True
                    break
                scores = [_score(card, batch, p) for p in range(len(rows))]
                top = int(np.argmax(scores))
                if scores[top] > scores[values.index(current)]:
                    best = rows[top]
                    changed = True
            sweeps = sweep + 1
            if interrupted or (not changed and sweep > 0):
                break

    # Fresh turns for the chosen policy and the baselines (and every Straße take).
    rows = {"best": best, **baseline_rows(card)}
    if card is Card.STREET:
        for take in range(1, 7):
            rows[f"take {take}"] = replace(best, street_take=take)
    names = list(rows)
    final = evaluate([rows[k] for k in names], turns, EVAL_START, "evaluate on fresh turns")
    interrupted = interrupted or final.interrupted
    res = OptimizeResult(
        card=card, rules=rules, seed=seed, search_turns=search_turns, policy=best,
        ev=final.ev(0), p_tutto=final.p_tutto(0), p_two_tuttos=final.p_two_tuttos(0),
        mean_throws=final.mean_throws(0), sweeps=sweeps, policies_tried=tried,
        interrupted=interrupted,
    )
    for i, name in enumerate(names):
        if name in baseline_rows(card):
            res.baselines[name] = (rows[name], final.ev(i), final.p_tutto(i))
        elif name.startswith("take "):
            res.street[int(name[5:])] = (final.p_tutto(i), final.ev(i))
    res.seconds = time.perf_counter() - t0
    return res

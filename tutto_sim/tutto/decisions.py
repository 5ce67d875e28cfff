"""The optimal policy as decision arrays: the action in every decision state.

Part of the solver layer. :func:`decision_arrays` reads a
:class:`~tutto_sim.tutto.solver.TuttoSolution` and writes down, for every
turn total ``T`` (units of 50) below the solver's cap,

- ``keep[c, T, ms]``: dice to set aside from throw ``ms`` under card ``c``
  (the best-points keep with that many dice; 0 = bust), for Bonus and x2, and
  for Plus/Minus and Kleeblatt the keep most likely to reach a Tutto (the same
  for every ``T``); the Feuerwerk's forced keep;
- ``bank[c, d, T]``: bank (True) or throw on with ``d`` dice left;
- ``draw[T]``: after a Tutto, draw another card (True) or bank;
- ``street_take[m, j]``: Straße numbers to set aside with ``m`` set, ``j`` new.

Under x2 scope "card" the x2 decisions also depend on the card's own points
``p``: ``keep_x2p[p, T, ms]`` and ``bank_x2p[p, d, T]``; the plain x2 rows
then hold those at ``p = 0``.

Ties go to the smaller number of dice set aside and to banking. The arrays
are then cut at ``t_max``, the smallest total from which no decision changes
any more up to the cap, so that a policy file stays small and exact: a total
above ``t_max`` uses the row of ``t_max``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from tutto_sim.dice.throws import MAX_DICE
from tutto_sim.tutto.cards import N_CARDS, Card
from tutto_sim.tutto.solver import TuttoSolution, value_after_keep, contiguous, rule_params, turn_tables

BANKABLE = [int(c) for c in Card if c.can_bank_before_tutto]


@njit(cache=True)
def _fill_keep(out, c, cp, cap, x2_card, best_pts, n_dice, bonus, after, e, ex):
    """out[T, ms] = optimal dice to set aside (first maximum: fewest dice)."""
    for t in range(out.shape[0]):
        for ms in range(out.shape[1]):
            best = 0
            val = -0.5
            for k in range(1, n_dice[ms] + 1):
                pts = best_pts[ms, k]
                if pts < 0:
                    continue
                v = value_after_keep(c, t + pts, cp + pts, n_dice[ms] - k, cap, x2_card,
                                bonus, after, e, ex)
                if v > val:
                    val = v
                    best = k
            out[t, ms] = best


@dataclass(frozen=True)
class DecisionArrays:
    t_max: int  # rows 0..t_max; larger totals use row t_max
    keep: np.ndarray  # int8 [N_CARDS, t_max+1, n_ms]
    bank: np.ndarray  # bool [N_CARDS, 6, t_max+1] (d = 1..5 used)
    draw: np.ndarray  # bool [t_max+1]
    street_take: np.ndarray  # int8 [7, 7]
    keep_x2p: np.ndarray | None  # int8 [P, t_max+1, n_ms] under x2 scope "card"
    bank_x2p: np.ndarray | None  # bool [P, 6, t_max+1]


def _last_change(rows: np.ndarray) -> int:
    """Smallest t with rows[t:] all equal to rows[t] (axis 0 is T)."""
    same = np.all((rows[1:] == rows[:-1]).reshape(len(rows) - 1, -1), axis=1)
    changed = np.nonzero(~same)[0]
    return 0 if len(changed) == 0 else int(changed[-1]) + 1


def decision_arrays(sol: TuttoSolution) -> DecisionArrays:
    """Every decision of the optimal policy ``sol``, cut at ``t_max``."""
    rules = sol.rules
    t = turn_tables(rules)
    cap = sol.cap_units
    x2_card, _, _, bonus, _ = rule_params(rules)
    best_pts, n_dice = contiguous(t.best_pts), contiguous(t.n_dice)
    ex = sol.x2_throw_value if sol.x2_throw_value is not None else np.zeros((1, 1, 7))
    n_ms = t.n_multisets

    keep = np.zeros((N_CARDS, cap, n_ms), dtype=np.int8)
    bank = np.zeros((N_CARDS, MAX_DICE, cap), dtype=np.bool_)
    totals = np.arange(cap)
    for c in BANKABLE:
        if c == int(Card.X2) and x2_card:
            continue
        _fill_keep(keep[c], c, 0, cap, x2_card, best_pts, n_dice, bonus,
                   sol.after_tutto_value, sol.throw_value, ex)
        for d in range(1, MAX_DICE):
            bank[c, d] = totals >= sol.throw_value[c, :, d]
    # Plus/Minus and Kleeblatt: the keep most likely to reach a Tutto
    p = sol.p_tutto_by_dice
    tutto_keep = np.zeros(n_ms, dtype=np.int8)
    for ms in range(n_ms):
        d = int(n_dice[ms])
        legal = [k for k in range(1, d + 1) if best_pts[ms, k] >= 0]
        if legal:
            tutto_keep[ms] = max(legal, key=lambda k: (p[d - k], -k))
    keep[int(Card.PLUSMINUS)] = tutto_keep
    keep[int(Card.CLOVERLEAF)] = tutto_keep
    keep[int(Card.FIREWORKS)] = t.keep_dice[0]
    draw = sol.draw_value > totals

    keep_x2p = bank_x2p = None
    cuts = [_last_change(keep.transpose(1, 0, 2)), _last_change(bank.transpose(2, 0, 1)),
            _last_change(draw)]
    if x2_card:
        n_p = sol.x2_throw_value.shape[1]
        keep_x2p = np.zeros((n_p, cap, n_ms), dtype=np.int8)
        bank_x2p = np.zeros((n_p, MAX_DICE, cap), dtype=np.bool_)
        for cp in range(n_p):
            _fill_keep(keep_x2p[cp], int(Card.X2), cp, cap, x2_card, best_pts, n_dice,
                       bonus, sol.after_tutto_value, sol.throw_value, ex)
            for d in range(1, MAX_DICE):
                bank_x2p[cp, d] = totals >= ex[:, cp, d]
        cuts += [_last_change(keep_x2p.transpose(1, 0, 2)),
                 _last_change(bank_x2p.transpose(2, 0, 1))]
        # the plain x2 rows hold the decisions at card points 0 (its first throw)
        keep[int(Card.X2)] = keep_x2p[0]
        bank[int(Card.X2)] = bank_x2p[0]
    t_max = max(cuts)
    cut = slice(0, t_max + 1)
    return DecisionArrays(
        t_max=t_max,
        keep=np.ascontiguousarray(keep[:, cut]),
        bank=np.ascontiguousarray(bank[:, :, cut]),
        draw=np.ascontiguousarray(draw[cut]),
        street_take=np.ascontiguousarray(sol.street_take.astype(np.int8)),
        keep_x2p=None if keep_x2p is None else np.ascontiguousarray(keep_x2p[:, cut]),
        bank_x2p=None if bank_x2p is None else np.ascontiguousarray(bank_x2p[:, :, cut]),
    )

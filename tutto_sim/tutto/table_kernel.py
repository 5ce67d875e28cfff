"""numba kernel for Tutto turns played from a decision table (the exact policy).

Part of the kernel layer. Same turn as ``tutto.turn_kernel.play_turn`` and the
same random streams, but every decision is read from the arrays of
``tutto.policy.ExactPolicy`` (``keep[c, T, ms]``, ``bank[c, d, T]``,
``draw[T]``, ``street_take[m, j]``; turn totals above the last row use the
last row). ``tutto.reference.play_turn_exact`` is its readable twin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from tutto_sim.core.streams import below, stream_start
from tutto_sim.tutto.turn_kernel import CLOVERLEAF, FIREWORKS, STOP, STREET, STREET_UNITS, X2, draw_throw
from tutto_sim.tutto.turn_kernel import set_aside, street_aside, street_throw, tutto_bonus


@dataclass(frozen=True)
class BotTable:
    """One game-kernel bot's decisions as arrays (``game_kernel``'s docstring):
    the arrays above by card, rows = turn totals 0..R-1."""

    keep: np.ndarray  # int8 [C, R, M]
    bank: np.ndarray  # bool [C, 6, R]
    draw: np.ndarray  # bool [C, R]
    street: np.ndarray  # int8 [7, 7]
    keep_x2p: np.ndarray  # int8 [P, R, M] (P = 1 and unused under x2 scope "turn")
    bank_x2p: np.ndarray  # bool [P, 6, R]
    endgame: bool = False

    @property
    def rows(self) -> int:
        return self.draw.shape[1]


@njit(cache=True)
def play_turn_table(first_card, st, keep, bank, draw, street_take, keep_x2p, bank_x2p,
                    ordered, ordered_off, best_pts, faces, deck, bonus, bankable, params):
    """One turn. Returns (banked units, Tuttos under the first card, throws)."""
    x2_card_scope = params[0] == 1
    pm_chain = params[1]
    clover_value = params[2]
    t_max = draw.shape[0] - 1
    total = 0
    throws = 0
    first_tuttos = 0
    first = True
    card = first_card
    if card < 0:
        card = deck[below(st, deck.shape[0])]
    while True:
        if card == STOP:
            return 0, first_tuttos, throws
        if card == STREET:
            mask = 0
            dice = 6
            while dice > 0:
                new, j = street_throw(st, dice, mask, ordered, ordered_off, faces)
                throws += 1
                if new == 0:
                    return 0, first_tuttos, throws
                take = street_take[6 - dice, j]
                mask = street_aside(new, mask, take)
                dice -= take
            total += STREET_UNITS
        else:
            can_bank, by_points = bankable[card], x2_card_scope and card == X2
            dice, card_pts, tuttos_here = 6, 0, 0
            while True:
                ms = draw_throw(st, dice, ordered, ordered_off)
                throws += 1
                row = total if total < t_max else t_max
                if by_points:
                    k = keep_x2p[card_pts, row, ms]
                else:
                    k = keep[card, row, ms]
                if k == 0:
                    if card == FIREWORKS:  # only a Niete ends it, and it banks
                        return total, first_tuttos, throws
                    return 0, first_tuttos, throws
                dice, total, card_pts = set_aside(card, k, ms, dice, total, card_pts, can_bank,
                                                  best_pts)
                if dice == 0:
                    if card == FIREWORKS or card == CLOVERLEAF:
                        tuttos_here += 1
                        if first:
                            first_tuttos += 1
                        if card == CLOVERLEAF and tuttos_here == 2:
                            return clover_value, first_tuttos, throws
                        dice = 6
                        continue
                    break
                if can_bank:
                    row = total if total < t_max else t_max
                    if by_points:
                        stop = bank_x2p[card_pts, dice, row]
                    else:
                        stop = bank[card, dice, row]
                    if stop:
                        return total, first_tuttos, throws
            total, ends = tutto_bonus(card, total, card_pts, x2_card_scope, pm_chain, bonus)
            if ends:
                return total, first_tuttos + (1 if first else 0), throws
        if first:
            first_tuttos += 1
        if not draw[total if total < t_max else t_max]:
            return total, first_tuttos, throws
        card = deck[below(st, deck.shape[0])]
        first = False


@njit(cache=True, parallel=True)
def simulate_table(first_card, seed, start, n_turns, block, per_turn, keep, bank, draw,
                   street_take, keep_x2p, bank_x2p, ordered, ordered_off, best_pts, faces,
                   deck, bonus, bankable, params):
    """Sums per block ``sums[b] = (units, squares, >=1 Tutto, >=2 Tuttos, throws)``;
    with ``per_turn`` also each turn's (units, Tuttos, throws) in ``turns``."""
    n_blocks = (n_turns + block - 1) // block
    sums = np.zeros((n_blocks, 5), dtype=np.int64)
    turns = np.zeros((n_turns if per_turn else 0, 3), dtype=np.int64)
    for b in prange(n_blocks):
        st = np.empty(1, dtype=np.uint64)
        for i in range(b * block, min(n_turns, (b + 1) * block)):
            st[0] = stream_start(seed, np.uint64(start + i))
            v, tu, nt = play_turn_table(first_card, st, keep, bank, draw, street_take,
                                        keep_x2p, bank_x2p, ordered, ordered_off, best_pts,
                                        faces, deck, bonus, bankable, params)
            sums[b, 0] += v
            sums[b, 1] += v * v
            if tu >= 1:
                sums[b, 2] += 1
            if tu >= 2:
                sums[b, 3] += 1
            sums[b, 4] += nt
            if per_turn:
                turns[i, 0] = v
                turns[i, 1] = tu
                turns[i, 2] = nt
    return sums, turns

"""numba kernel for Macke / Volle Lotte turns played from a decision table.

Part of the kernel layer. The same turn as ``macke.reference.play_turn``
and the same random streams as every simulation (turn ``i`` reads stream
``(seed, start + i)``; a throw of n dice is ``ordered[ordered_off[n] +
below(6**n)]``), but every decision is read from the arrays of
``macke.policy.MackeTablePolicy`` (``macke.decisions``):

``keep[row, tl, slot]``   keep index at a throw with ``tl`` throws left (counting it)
``ret[row, tl, u]``       before such a throw (``tl < L``): index of the sub-state kept
``bank[row, tl', u']``    after setting aside, ``tl'`` throws left: bank?
``clear_bank[T]``         after a clear at turn total ``T``: bank?

``row`` is the locked total (units of 50), past the last row the last row;
clear totals past the last entry use the last entry. Per-turn results and the
sums use the columns of ``macke.turn_kernel`` (plus the number of returns).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tutto_sim.core.streams import below, stream_start
from tutto_sim.dice.throws import MAX_DICE
from tutto_sim.macke.turn_kernel import END_BANK, END_MACKE, END_WIN, N_CLEARS, N_MACKE, N_NEGATIVE, N_POSITIVE
from tutto_sim.macke.turn_kernel import N_SUMS, N_THROWS, N_WINS, N_ZERO, SUM, SUM_SQ

#: Extra column of the table kernel's sums: throws before which units were returned.
N_RETURNS = N_SUMS
N_TABLE_SUMS = N_SUMS + 1

_POW6 = np.array([6**n for n in range(MAX_DICE + 1)], dtype=np.int64)


@njit(cache=True, inline="always")
def last_rows(keep, ret, bank, clear):
    """The last row of each decision array (locked totals; the clear's turn
    totals), with or without the game kernel's first axis of bots."""
    return (keep.shape[keep.ndim - 3] - 1, ret.shape[ret.ndim - 3] - 1,
            bank.shape[bank.ndim - 3] - 1, clear.shape[clear.ndim - 1] - 1)


@njit(cache=True, inline="always")
def throw_rest(st, u, n_all, state_dice, ordered, ordered_off, start):
    """Throw the dice not set aside in state ``u``: the throw (multiset index)
    and its place among the throws of that many dice (the keep table's slot)."""
    nd = n_all - state_dice[u]
    ms = ordered[ordered_off[nd] + below(st, _POW6[nd])]
    return ms, ms - start[nd]


@njit(cache=True)
def play_turn_table(st, keep, ret, bank, clear_bank, ordered, ordered_off, start, state_dice,
                    state_pts, add, sub_start, sub_states, keep_start, keep_states, win,
                    slot_off, empty, params):
    """One turn. Returns (result, turn total, throws, clears, end, returns); units of 50."""
    n_all = params[0]
    n_throws = params[1]
    min_u = params[2]
    bust_zero = params[3] == 1
    win_u = params[4]
    rows, rrows, brows, crows = last_rows(keep, ret, bank, clear_bank)
    locked = 0
    u = empty
    tl = n_throws
    throws = 0
    clears = 0
    returns = 0
    while True:
        if tl < n_throws:
            s = sub_states[sub_start[u] + ret[min(locked, rrows), tl, u]]
            if s != u:
                returns += 1
                u = s
        ms, slot = throw_rest(st, u, n_all, state_dice, ordered, ordered_off, start)
        throws += 1
        total = locked + state_pts[u]
        if win[ms]:
            return win_u, total, throws, clears, END_WIN, returns
        k0 = keep_start[ms]
        if k0 == keep_start[ms + 1]:  # Macke: -total (0 on the first throw: total is 0)
            return (0 if bust_zero else -total), total, throws, clears, END_MACKE, returns
        j = keep[min(locked, rows), tl, slot_off[u] + slot]
        u = add[u, keep_states[k0 + j]]
        total = locked + state_pts[u]
        tl -= 1
        if state_dice[u] == n_all:
            clears += 1
            if clear_bank[min(total, crows)]:
                break
            locked = total
            u = empty
            tl = n_throws
        elif tl == 0 or bank[min(locked, brows), tl, u]:
            break
    if total >= min_u:
        return total, total, throws, clears, END_BANK, returns
    return -total, total, throws, clears, END_BANK, returns


@njit(cache=True, parallel=True)
def simulate_table(seed, start_turn, n_turns, block, per_turn, keep, ret, bank, clear_bank,
                   ordered, ordered_off, start, state_dice, state_pts, add, sub_start,
                   sub_states, keep_start, keep_states, win, slot_off, empty, params):
    """Sums per block ``sums[b, col]`` (columns of ``macke.turn_kernel`` and
    :data:`N_RETURNS`); with ``per_turn`` also each turn's (result, turn
    total, throws, clears, end, returns) in ``turns``."""
    n_blocks = (n_turns + block - 1) // block
    sums = np.zeros((n_blocks, N_TABLE_SUMS), dtype=np.int64)
    turns = np.zeros((n_turns if per_turn else 0, 6), dtype=np.int64)
    for b in prange(n_blocks):
        st = np.empty(1, dtype=np.uint64)
        row = sums[b]
        for i in range(b * block, min(n_turns, (b + 1) * block)):
            st[0] = stream_start(seed, np.uint64(start_turn + i))
            v, tot, nt, nc, end, nr = play_turn_table(
                st, keep, ret, bank, clear_bank, ordered, ordered_off, start, state_dice,
                state_pts, add, sub_start, sub_states, keep_start, keep_states, win,
                slot_off, empty, params)
            row[SUM] += v
            row[SUM_SQ] += v * v
            if v > 0:
                row[N_POSITIVE] += 1
            elif v < 0:
                row[N_NEGATIVE] += 1
            else:
                row[N_ZERO] += 1
            if end == END_MACKE:
                row[N_MACKE] += 1
            elif end == END_WIN:
                row[N_WINS] += 1
            row[N_THROWS] += nt
            row[N_CLEARS] += nc
            row[N_RETURNS] += nr
            if per_turn:
                turns[i, 0] = v
                turns[i, 1] = tot
                turns[i, 2] = nt
                turns[i, 3] = nc
                turns[i, 4] = end
                turns[i, 5] = nr
    return sums, turns

"""Numba kernels of the two-player win table (:mod:`tutto_sim.tutto.win.solve2`):
a state's value from its turn's programme and its leaves (:func:`state_value`,
what the planners run at a turn start) and seat 1's last turn
(:func:`last_turn_values`). The table itself is solved by the N-player solver
(:mod:`tutto_sim.tutto.win.kernel_n`). The mathematics is in the docstring of
:mod:`tutto_sim.tutto.win.solve2`; the turn itself is
:mod:`tutto_sim.tutto.win.programme`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tutto_sim.tutto.win.programme import (
    EV_MODE,
    MAX_MODE,
    leaf_value,
    margin_next,
    one_layer,
    turn_programme,
    win_chain,
)

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto two-player win table's kernels"


@njit(cache=True)
def last_turn_values(mode, mmax, ded_tutto, floor0, tcap_min, tp, ev, A, D, U, UX,
                      bl, bust, win, sc_buf, out):
    """``out[m + 1]`` for margins m = -1..mmax: the trailing player's chance in
    the last turn when the leader is m units ahead (win 1, tie 1/2).

    A margin's turn after a deduction is the turn of the smaller margin with a
    larger turn total, so margins are solved upwards and each keeps its
    after-Tutto values ``A[0, m + 1, T]`` for the larger ones."""
    win[0] = 1.0
    for m in range(-1, mmax + 1):
        if floor0 and m < 0:
            out[m + 1] = 1.0
            continue
        tcap = max(m + 1, tcap_min, 1)
        row = m + 1
        for t in range(tcap + 1):
            bl[0, row, t] = 1.0 if t > m else (0.5 if t == m else 0.0)
        if ded_tutto:
            bust[0, row] = 1.0 if m < 0 else (0.5 if m == 0 else 0.0)
        else:
            bust[0, row] = 0.0
        nxt = margin_next(m, floor0) + 1
        # A and bl beyond this margin's tcap are read as bank values: fill them
        for t in range(tcap + 1, bl.shape[2]):
            bl[0, row, t] = 1.0 if t > m else (0.5 if t == m else 0.0)
        # np.int64, not the literals 1 and 0: the layer kernel compiles once for all callers
        one_layer(mode, np.int64(1), tcap, np.int64(0), row, nxt, sc_buf, bl, bust, win, A, D,
                   U, UX, tp, ev)
        for t in range(tcap + 1, A.shape[2]):
            A[0, row, t] = bl[0, row, t]
        out[row] = D[0, row, 0]


@njit(cache=True)
def state_value(kind, s, a, b, beta, W, LW, V, LV, n_units, immediate, ded_tutto,
                 tcap_win, tcap_ev, tp, ev, A, D, U, UX, bl, bust, win, chain, sc_buf,
                 prune=False):
    """One turn of the player at seat s (a points) against b points.

    kind 0: win-optimal, values from W (V = W); kind 1: EV table, values from
    V; kind 2: win-optimal decisions (from W) valued in V. ``beta`` is the
    partner's value (the opponent to move at (b, a)) used in place of V's.
    Returns (value, d value / d beta)."""
    n_layers = win_chain(a, b, chain)
    if kind == 1:
        mode, nv, iv, idv, tcap = EV_MODE, 2, 0, 1, tcap_ev
    elif kind == 0:
        mode, nv, iv, idv, tcap = MAX_MODE, 2, 0, 1, tcap_win
    else:
        mode, nv, iv, idv, tcap = MAX_MODE, 3, 1, 2, tcap_win
    for f in range(nv):
        win[f] = 1.0
    win[idv] = 0.0
    for j in range(n_layers):
        e = chain[j]
        for t in range(bl.shape[2]):
            x = a + t
            if kind == 2:
                bl[0, j, t] = leaf_value(W, LW, s, a, e, x, n_units, immediate)
            bl[iv, j, t] = leaf_value(V, LV, s, a, e, x, n_units, immediate)
            bl[idv, j, t] = 0.0
        eb = e if ded_tutto else b
        if kind == 2:
            bust[0, j] = 1.0 - W[1 - s, eb, a]
        if eb == b:
            bust[iv, j] = 1.0 - beta
            bust[idv, j] = -1.0
        else:
            bust[iv, j] = 1.0 - V[1 - s, eb, a]
            bust[idv, j] = 0.0
    # banking nothing (a Feuerwerk's first throw a Niete) hands over like a bust
    bl[iv, 0, 0] = 1.0 - beta
    bl[idv, 0, 0] = -1.0
    turn_programme(mode, nv, tcap, n_layers, bl, bust, win, A, D, U, UX, sc_buf, tp, ev, prune)
    return D[iv, 0, 0], D[idv, 0, 0]

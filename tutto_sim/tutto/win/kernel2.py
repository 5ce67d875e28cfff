"""Numba kernels of the two-player win solver (:mod:`tutto_sim.tutto.win.solve2`):
a state's value from its turn's programme and its leaves (:func:`state_value`),
seat 1's last turn (:func:`last_turn_values`), the pairs of a level solved
together (:func:`group_states`, with the links' slopes), the EV table's player
valued from its turn outcomes (:func:`_ev_state`). The mathematics is in the
docstring of :mod:`tutto_sim.tutto.win.solve2`; the turn itself is
:mod:`tutto_sim.tutto.win.programme`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tutto_sim.tutto.win.programme import (
    EV_MODE,
    FIREWORKS,
    MAX_MODE,
    PLUSMINUS,
    PM_UNITS,
    ev_row,
    leaf_value,
    margin_next,
    one_layer,
    turn_programme,
    win_chain,
)

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto two-player win solver's kernels"


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


@njit(cache=True)
def _link_slopes(kind, a, b, n_units, tcap, n_layers, chain, bl, bust, A, D, tp, ev, dm, am,
                 out_r, out_e):
    """Links inside a group: banking exactly 20 j after j Plus/Minus Tuttos
    (each deducting 20 from the opponent) keeps the score sum. For each such
    leaf (layer j, total 20 j, the opponent's score ``chain[j]``) write its
    weight in the turn's value, ``out_r[j]`` (the chance of ending the turn
    there, under the decisions of component 0), and ``out_e[j] = chain[j]``;
    ``out_e[j] = -1`` where there is none.

    Only the layer's lowest total ``20 j`` reaches such a leaf (every other
    card adds points), by a Feuerwerk's empty first throw or by banking
    after the Tutto, or by more Plus/Minus Tuttos."""
    (x2_card, pm_chain, gstart, gprob, gk, kdice, kpts, best_pts, freq, bonus, p_hi, p_lo,
     q_hi, q_lo, fw_pmf, fw_surv, kslot, slot_lk, p_niete, rho, kappa) = tp
    (ev_keep, ev_bank, ev_draw, ev_kx, ev_bx, t_max, ev_p_pm, ev_p_clover, ev_q, egstart,
     egprob, egrep) = ev
    nl = out_r.shape[0]
    any_link = False
    for m in range(nl):
        out_r[m] = 0.0
        out_e[m] = -1
        if 1 <= m < n_layers:
            t = PM_UNITS * m
            if chain[m] + t == b and a + t < n_units and t < tcap:
                out_e[m] = chain[m]
                any_link = True
    if not any_link or pm_chain == 2:
        # flat: a Plus/Minus Tutto from any total banks exactly 20 (layer 1);
        # these links are not carried but iterated (see solve2._solve_group)
        return
    for j in range(n_layers - 1, -1, -1):
        t = PM_UNITS * j
        for m in range(nl):
            dm[j, m] = 0.0
            am[j, m] = 0.0
        if t >= tcap:
            continue
        nxt = j + 1 if j + 1 < n_layers else j
        t2 = t + PM_UNITS
        # the Plus/Minus decision (component 0) and where its Tutto leads
        if pm_chain == 0:
            s0 = A[0, nxt, t2] if t2 < tcap else bl[0, nxt, t2]
        elif pm_chain == 1:
            s0 = bl[0, nxt, t2]
        else:
            s0 = bl[0, nxt, PM_UNITS]
        if kind == 1:
            p = ev_p_pm
            banks = not ev_draw[ev_row(t, t_max)]
        else:
            p = p_hi if s0 >= bust[0, j] else p_lo
            banks = bl[0, j, t] >= D[0, j, t]
        for m in range(nl):
            if out_e[m] < 0:
                continue
            if pm_chain == 0 and t2 < tcap:
                sc = am[nxt, m] if nxt == j + 1 else 0.0
            elif pm_chain == 2:
                sc = 1.0 if (m == nxt and m == 1) else 0.0
            else:
                sc = 1.0 if (m == nxt and nxt == j + 1) else 0.0
            v = freq[PLUSMINUS] * p * sc
            if m == j:
                v += freq[FIREWORKS] * fw_pmf[0]
            dm[j, m] = v
            am[j, m] = (1.0 if m == j else 0.0) if banks else v
    for m in range(nl):
        if out_e[m] >= 0:
            out_r[m] = dm[0, m]


@njit(cache=True, parallel=True)
def group_states(seat, own, other, beta, kind0, kind1, W, LW0, LW1, V, LV0, LV1, n_units,
                  immediate, ded_tutto, margin_cap, te, tp, ev, A, D, U, UX, bl, bust, win,
                  chain, sc_buf, dm, am, ev_q, ev_po, ev_hfw, ev_pb, ev_pw, out_v, out_p, out_r,
                  out_e):
    """One turn's programme for each listed state (seat, own, other), with the
    partner's value ``beta``: its value, the slope in ``beta`` and the weights
    of its links inside the group (:func:`_link_slopes`); the EV-optimal
    player's turns from its outcomes (:func:`_ev_state`). Each thread has its
    own scratch (slot = index modulo the slots: results do not depend on the
    threads)."""
    n = seat.shape[0]
    slots = A.shape[0]
    for blk in prange(slots):
        for i in range(blk, n, slots):
            s = seat[i]
            a = own[i]
            b = other[i]
            kind = kind0 if s == 0 else kind1
            tw = n_units - a + (margin_cap if s == 0 and not immediate else 0)
            te_s = max(te, tw)
            LV = LV0 if s == 0 else LV1
            if kind == 1:
                v, dv = _ev_state(s, a, b, beta[i], V, LV, n_units, immediate, ded_tutto, te_s,
                                  chain[blk], ev_q, ev_po, ev_hfw, ev_pb, ev_pw, out_r[i],
                                  out_e[i])
                out_v[i] = v
                out_p[i] = dv
                continue
            # np.bool_, not the literal True: the turn kernels compile once for every caller
            if s == 0:
                v, dv = state_value(kind, s, a, b, beta[i], W, LW0, V, LV0, n_units, immediate,
                                     ded_tutto, tw, te_s, tp, ev, A[blk], D[blk], U[blk],
                                     UX[blk], bl[blk], bust[blk], win[blk], chain[blk],
                                     sc_buf[blk], np.bool_(True))
            else:
                v, dv = state_value(kind, s, a, b, beta[i], W, LW1, V, LV1, n_units, immediate,
                                     ded_tutto, tw, te_s, tp, ev, A[blk], D[blk], U[blk],
                                     UX[blk], bl[blk], bust[blk], win[blk], chain[blk],
                                     sc_buf[blk], np.bool_(True))
            out_v[i] = v
            out_p[i] = dv
            tcap = te_s if kind == 1 else tw
            nl = win_chain(a, b, chain[blk])
            _link_slopes(kind, a, b, n_units, tcap, nl, chain[blk], bl[blk], bust[blk],
                         A[blk], D[blk], tp, ev, dm[blk], am[blk], out_r[i], out_e[i])


@njit(cache=True)
def _ev_state(s, a, b, beta, V, LV, n_units, immediate, ded_tutto, tcap, chain, q, po, hfw,
              pb, pw, out_r, out_e):
    """The EV-optimal player's turn at seat s (a points against b) from its
    outcomes (:func:`ev_turn_outcomes`; ``q[j, T]`` = banks at T below ``tcap``
    including the Feuerwerk's, ``hfw[j, tcap]`` = the Feuerwerk's gains
    that reach ``tcap``, counted there as the programme does). Returns
    (value, d value / d beta) and the links as :func:`_link_slopes`."""
    nl = win_chain(a, b, chain)
    n_j = q.shape[0]
    v = pw
    dv = 0.0
    for m in range(out_r.shape[0]):
        out_r[m] = 0.0
        out_e[m] = -1
    for j in range(n_j):
        ll = j if j < nl else nl - 1
        e = chain[ll]
        eb = e if ded_tutto else b
        if eb == b:
            v += pb[j] * (1.0 - beta)
            dv -= pb[j]
        else:
            v += pb[j] * (1.0 - V[1 - s, eb, a])
        for t in range(PM_UNITS * j, max(tcap, po.shape[1])):
            c = q[j, t] if t < tcap else po[j, t]
            if c == 0.0:
                continue
            if j == 0 and t == 0:
                v += c * (1.0 - beta)  # a Feuerwerk's empty first throw hands over
                dv -= c
                continue
            v += c * leaf_value(V, LV, s, a, e, a + t, n_units, immediate)
        v += hfw[j, tcap] * leaf_value(V, LV, s, a, e, a + tcap, n_units, immediate)
        t = PM_UNITS * j
        if 1 <= j < nl and e + t == b and a + t < n_units and t < tcap:
            out_r[j] = q[j, t]
            out_e[j] = e
    return v, dv

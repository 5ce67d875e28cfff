"""Numba kernels of one turn played to win: the programme both win solvers,
the planners and the ``winopt`` bot run (:mod:`tutto_sim.tutto.win`).

The mathematics is in the docstring of :mod:`tutto_sim.tutto.win.solve2`.
Points are in units of 50. Every value array has a leading *component* axis
``f``: component 0 makes the decisions (the most win probability in ``MAX``
mode, the EV-optimal table in ``EV`` mode) and every other component follows
those decisions with its own leaves (the value under another opponent, the
derivative with respect to the partner state of a pair, which feeds Newton's
method, or another player's chance at a table of N). Here: the card chances
that do not depend on the turn total, one turn's layers
(:func:`turn_programme`, :func:`one_layer`), who loses to a Plus/Minus Tutto
(:func:`win_chain`, :func:`last_turn_margin`), a leaf of two players
(:func:`leaf_value`) and the EV table's turn outcomes
(:func:`ev_turn_outcomes`). Nothing here allocates inside the loops: the
callers pass scratch arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto win solver's kernels"
COMPILE_SECONDS = 45  # the first run of its main command, 2 cores

MAX_DICE = 6
MAX_MODE = 0
EV_MODE = 1
STOP, FIREWORKS, X2, PLUSMINUS, STREET, CLOVERLEAF = 0, 1, 7, 8, 9, 10
FIRST_BANKABLE, LAST_BANKABLE = 2, 7  # Bonus 200 .. x2
PM_UNITS, STREET_UNITS = 20, 40


# --------------------------------------------------------------------------
# card chances that do not depend on the turn total
# --------------------------------------------------------------------------


@njit(cache=True)
def tutto_extremes(prob, start, best_pts):
    """Most and least likely Tutto from d dice when the player never banks."""
    hi = np.zeros(MAX_DICE + 1)
    lo = np.zeros(MAX_DICE + 1)
    hi[0] = 1.0
    lo[0] = 1.0
    for d in range(1, MAX_DICE + 1):
        ah = 0.0
        al = 0.0
        for ms in range(start[d], start[d + 1]):
            bh = -1.0
            bl = 2.0
            for k in range(1, d + 1):
                if best_pts[ms, k] >= 0:
                    bh = max(bh, hi[d - k])
                    bl = min(bl, lo[d - k])
            if bh >= 0.0:
                ah += prob[ms] * bh
                al += prob[ms] * bl
        hi[d] = ah
        lo[d] = al
    return hi, lo


@njit(cache=True)
def tutto_value_table(prob, start, keep_row):
    """P(Tutto) from 6 dice when the keep of each throw is ``keep_row[ms]`` dice."""
    p = np.zeros(MAX_DICE + 1)
    p[0] = 1.0
    for d in range(1, MAX_DICE + 1):
        acc = 0.0
        for ms in range(start[d], start[d + 1]):
            k = keep_row[ms]
            if k > 0:
                acc += prob[ms] * p[d - k]
        p[d] = acc
    return p[MAX_DICE]


@njit(cache=True)
def street_extremes(r):
    """Most and least likely Straße (``r[m, j]`` as in the turn solver)."""
    hi = np.zeros(MAX_DICE + 1)
    lo = np.zeros(MAX_DICE + 1)
    hi[MAX_DICE] = 1.0
    lo[MAX_DICE] = 1.0
    for m in range(MAX_DICE - 1, -1, -1):
        ah = 0.0
        al = 0.0
        for j in range(1, MAX_DICE - m + 1):
            bh = -1.0
            bl = 2.0
            for t in range(1, j + 1):
                bh = max(bh, hi[m + t])
                bl = min(bl, lo[m + t])
            ah += r[m, j] * bh
            al += r[m, j] * bl
        hi[m] = ah
        lo[m] = al
    return hi[0], lo[0]


@njit(cache=True)
def street_table(r, take):
    """P(completing the Straße) when ``take[m, j]`` numbers are set aside."""
    q = np.zeros(MAX_DICE + 1)
    q[MAX_DICE] = 1.0
    for m in range(MAX_DICE - 1, -1, -1):
        acc = 0.0
        for j in range(1, MAX_DICE - m + 1):
            acc += r[m, j] * q[m + take[m, j]]
        q[m] = acc
    return q[0]


@njit(cache=True)
def fireworks_pmf(prob, start, keep_dice, keep_pts, gmax):
    """``pmf[g]``: P(a Feuerwerk adds exactly g units before its Niete), g < gmax,
    and ``surv[g]`` = P(it adds at least g), g <= gmax."""
    h = np.zeros((MAX_DICE + 1, gmax))
    for g in range(gmax):
        for d in range(1, MAX_DICE + 1):
            acc = 0.0
            for ms in range(start[d], start[d + 1]):
                used = keep_dice[0, ms]
                if used == 0:
                    if g == 0:
                        acc += prob[ms]
                else:
                    pts = keep_pts[0, ms]
                    if pts <= g:
                        left = d - used
                        if left == 0:
                            left = MAX_DICE
                        acc += prob[ms] * h[left, g - pts]
            h[d, g] = acc
    pmf = h[MAX_DICE].copy()
    surv = np.zeros(gmax + 1)
    tail = 1.0
    for g in range(gmax + 1):
        surv[g] = max(tail, 0.0)
        if g < gmax:
            tail -= pmf[g]
    return pmf, surv


# --------------------------------------------------------------------------
# one layer of one turn
# --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def ev_row(t, t_max):
    return t if t < t_max else t_max


@njit(cache=True, inline="always")
def _add_keep(nv, c, j, t2, left, tcap, pg, acc, A, U, bl, bonus):
    """acc += pg * the value after keeping dice to total t2 with ``left`` dice left."""
    if left == 0:
        tt = 2 * t2 if c == X2 else t2 + bonus[c]
        if tt < tcap:
            for f in range(nv):
                acc[f] += pg * A[f, j, tt]
        else:
            for f in range(nv):
                acc[f] += pg * bl[f, j, tt]
    elif t2 < tcap:
        for f in range(nv):
            acc[f] += pg * U[f, c, t2, left]
    else:
        for f in range(nv):
            acc[f] += pg * bl[f, j, t2]


@njit(cache=True, inline="always")
def _best_keeps(nv, d, j, gstart, gprob, gk, kslot, opt, bust, acc):
    """acc += each class of d dice times the value after its best keep (the
    first of the largest ``opt[0, slot]``), or a Niete's value."""
    for g in range(gstart[d], gstart[d + 1]):
        i0 = gk[g]
        i1 = gk[g + 1]
        if i0 == i1:  # a Niete
            for f in range(nv):
                acc[f] += gprob[g] * bust[f, j]
            continue
        sb = kslot[i0]
        vbest = opt[0, sb]
        for i in range(i0 + 1, i1):
            v = opt[0, kslot[i]]
            if v > vbest:
                vbest = v
                sb = kslot[i]
        for f in range(nv):
            acc[f] += gprob[g] * opt[f, sb]


@njit(cache=True)
def _layer(mode, nv, tcap, t_lo, j, nxt, sc_buf, bl, bust, win, A, D, U, UX, x2_card, pm_chain,
           gstart, gprob, gk, kdice, kpts, best_pts, freq, bonus, p_hi, p_lo, q_hi, q_lo,
           fw_pmf, fw_surv, ev_keep, ev_bank, ev_draw, ev_kx, ev_bx, t_max, ev_p_pm,
           ev_p_clover, ev_q, egstart, egprob, egrep, kslot, slot_lk, p_niete, rho, kappa,
           top0, n_layers, prune):
    """Fill ``A[:, j, T]`` (after a Tutto) and ``D[:, j, T]`` (drawing a card) for
    T = tcap-1 .. 0 of layer j; T >= tcap banks (``bl[:, j, tcap]``).

    ``nxt``: the layer after a Plus/Minus Tutto (``j`` itself when the
    deduction no longer changes anything). ``bl[f, j, T]``: value of banking
    T; ``bust[f, j]``: value of a Niete or Stop; ``win[f]``: a Kleeblatt
    success (1 for values, 0 for derivatives).

    ``prune`` (``MAX`` mode): skip what cannot change a decision. Every value
    of component 0 is at most 1, so throwing ``d`` dice on is worth at most
    ``pN_d b + (1 - pN_d)`` (``pN_d`` the Niete's chance, ``b`` a Niete's
    value), and drawing a card after a Tutto at most ``rho b + (1 - rho)``
    (``rho``: the chance that the card ends the turn with a Niete's value
    at once, Stop, a first throw's Niete, a missed Plus/Minus, Straße or
    Kleeblatt at their likeliest). Where banking is worth more than that
    (with 1e-12 to spare) the player banks: ``U`` and ``A`` are the bank's
    values without working out the alternatives, exactly what they would
    be. ``D`` is then not needed there (it is set to the bank's value; only
    the turn's start ``T = 0`` reads it, and that is never skipped). Used
    by the solver; the planner, whose ``D`` the bots read, does not prune.

    The bound is tighter than "at most 1": whatever follows a throw ends in a
    bank at a larger total (in this layer or a later one), a Niete (this
    layer's or a later one's) or a Kleeblatt's win, so every value but the
    win is at most ``m``, the largest of those leaves (``bl[0, j', T']`` for
    ``j' >= j``, ``T' > T``, every later layer's Niete; after a Tutto ``T' =
    T`` too: a Feuerwerk may add nothing), and a Kleeblatt's win comes after
    a later card at most ``kappa`` of the time
    (:func:`tutto_sim.tutto.win.params.kleeblatt_bound`).
    ``top0``: ``m`` before any total below ``tcap`` is seen (every later
    layer's Niete and banks past ``tcap``, :func:`turn_programme`).
    Throwing on is then worth at most ``pN_d b + (1 - pN_d)(m + kappa (1 -
    m))``; drawing after a Tutto at most ``rho b + c + (1 - rho - c)(m +
    kappa (1 - m))``, ``c`` the drawn Kleeblatt's likeliest win. ``m >= b``,
    so no choice of a less likely Tutto can beat it. ``n_layers``: the
    turn's layers (``j' < n_layers``); the leaves read are ``T' < 2 tcap +
    90``.
    """
    tm = t_max
    for f in range(nv):
        A[f, j, tcap] = bl[f, j, tcap]
        D[f, j, tcap] = bl[f, j, tcap]
    acc = sc_buf[0]
    sc = sc_buf[1]
    opt = sc_buf[2:]
    # the largest leaf a continuation reaches past the totals the loop below
    # has seen (it runs T downwards and adds each T's leaves): see the bound above
    top = top0
    pruning = prune and mode == MAX_MODE
    c_cl = freq[CLOVERLEAF] * p_hi * p_hi
    for t in range(tcap - 1, t_lo - 1, -1):
        for f in range(nv):
            D[f, j, t] = 0.0
        # pruning: banks after a Tutto for sure (skip_d), banks holding d <= dcut dice
        skip_d = False
        dcut = np.int64(0)  # not the literal 0: one compile of the x2 kernels
        if pruning:
            b0 = bust[0, j]
            v0 = bl[0, j, t] - 1e-12
            after = top + kappa * (1.0 - top)  # a throw adds points: T' > T
            for jj in range(j, n_layers):
                top = max(top, bl[0, jj, t])
            draw = top + kappa * (1.0 - top)  # a Feuerwerk may add nothing: T' >= T
            skip_d = t > 0 and v0 >= rho * b0 + c_cl + (1.0 - rho - c_cl) * draw
            for d in range(1, MAX_DICE):
                if v0 >= p_niete[d] * b0 + (1.0 - p_niete[d]) * after:
                    dcut = d
                else:
                    break
        for c in range(FIRST_BANKABLE, LAST_BANKABLE + 1):
            if c == X2 and x2_card:
                if mode == MAX_MODE:
                    _x2_card_max(nv, tcap, j, t, bl, bust, A, D, UX, gstart, gprob, gk, kslot,
                                 slot_lk, freq[c], acc, opt, skip_d, dcut)
                else:
                    _x2_card_total(nv, tcap, j, t, bl, bust, A, D, UX, best_pts, freq[c],
                                   ev_kx, ev_bx, tm, acc, egstart, egprob, egrep)
                continue
            for d in range(1, dcut + 1):
                for f in range(nv):
                    U[f, c, t, d] = bl[f, j, t]
            if skip_d and dcut == MAX_DICE - 1:
                continue
            if mode == MAX_MODE:
                # the value after each keep (dice left, points) at this total and card,
                # for every throw class below (keeps add points: read only T' > T)
                for sl in range(slot_lk.shape[0]):
                    left = slot_lk[sl, 0]
                    t2 = t + slot_lk[sl, 1]
                    if left == 0:
                        tt = 2 * t2 if c == X2 else t2 + bonus[c]
                        if tt < tcap:
                            for f in range(nv):
                                opt[f, sl] = A[f, j, tt]
                        else:
                            for f in range(nv):
                                opt[f, sl] = bl[f, j, tt]
                    elif t2 < tcap:
                        for f in range(nv):
                            opt[f, sl] = U[f, c, t2, left]
                    else:
                        for f in range(nv):
                            opt[f, sl] = bl[f, j, t2]
            for d in range(MAX_DICE, dcut, -1):
                if d == MAX_DICE and skip_d:
                    continue
                for f in range(nv):
                    acc[f] = 0.0
                if mode == MAX_MODE:
                    _best_keeps(nv, d, j, gstart, gprob, gk, kslot, opt, bust, acc)
                else:
                    row = ev_row(t, tm)
                    for g in range(egstart[d], egstart[d + 1]):
                        ms = egrep[g]
                        kbest = ev_keep[c, row, ms]
                        if kbest == 0:
                            for f in range(nv):
                                acc[f] += egprob[g] * bust[f, j]
                            continue
                        _add_keep(nv, c, j, t + best_pts[ms, kbest], d - kbest, tcap, egprob[g],
                                  acc, A, U, bl, bonus)
                if d == MAX_DICE:
                    for f in range(nv):
                        D[f, j, t] += freq[c] * acc[f]
                else:
                    if mode == MAX_MODE:
                        banks = bl[0, j, t] >= acc[0]
                    else:
                        banks = ev_bank[c, d, ev_row(t, tm)]
                    for f in range(nv):
                        U[f, c, t, d] = bl[f, j, t] if banks else acc[f]
        if skip_d:
            for f in range(nv):
                A[f, j, t] = bl[f, j, t]
                D[f, j, t] = bl[f, j, t]
            continue
        # Feuerwerk: banks T + its gain; the gain does not depend on T
        room = tcap - t
        for f in range(nv):
            s = fw_surv[room] * bl[f, j, tcap]
            for g in range(room):
                s += fw_pmf[g] * bl[f, j, t + g]
            D[f, j, t] += freq[FIREWORKS] * s
        # Plus/Minus: the Tutto chance only; then the next layer (deduction)
        t2 = t + PM_UNITS
        if pm_chain == 0:
            for f in range(nv):
                sc[f] = A[f, nxt, t2] if t2 < tcap else bl[f, nxt, t2]
        elif pm_chain == 1:
            for f in range(nv):
                sc[f] = bl[f, nxt, t2]
        else:
            for f in range(nv):
                sc[f] = bl[f, nxt, PM_UNITS]
        if mode == MAX_MODE:
            p = p_hi if sc[0] >= bust[0, j] else p_lo
        else:
            p = ev_p_pm
        for f in range(nv):
            D[f, j, t] += freq[PLUSMINUS] * (bust[f, j] + p * (sc[f] - bust[f, j]))
        # Straße: +2000 and a Tutto
        t2 = t + STREET_UNITS
        a20 = A[0, j, t2] if t2 < tcap else bl[0, j, t2]
        if mode == MAX_MODE:
            q = q_hi if a20 >= bust[0, j] else q_lo
        else:
            q = ev_q
        for f in range(nv):
            a2 = A[f, j, t2] if t2 < tcap else bl[f, j, t2]
            D[f, j, t] += freq[STREET] * (bust[f, j] + q * (a2 - bust[f, j]))
        # Kleeblatt: two Tuttos in a row win the game
        p = p_hi * p_hi if mode == MAX_MODE else ev_p_clover
        for f in range(nv):
            D[f, j, t] += freq[CLOVERLEAF] * (bust[f, j] + p * (win[f] - bust[f, j]))
            D[f, j, t] += freq[STOP] * bust[f, j]
        # after a Tutto: bank or draw
        if mode == MAX_MODE:
            banks = bl[0, j, t] >= D[0, j, t]
        else:
            banks = not ev_draw[ev_row(t, tm)]
        for f in range(nv):
            A[f, j, t] = bl[f, j, t] if banks else D[f, j, t]


@njit(cache=True)
def _x2_card_max(nv, tcap, j, t, bl, bust, A, D, UX, gstart, gprob, gk, kslot, slot_lk, fq, acc,
                 opt, skip_d, dcut):
    """x2 under scope "card", ``MAX`` mode: states (T, card points p, dice); the
    Tutto adds p. Six dice (drawing the card) have p = 0, fewer dice p >= 1.
    Keeps are valued by their slots as in :func:`_layer`, once per (T, p);
    ``skip_d``, ``dcut``: pruned as there."""
    cpx = UX.shape[2] - 1
    for cp in range(0, min(t, cpx) + 1):
        if cp == 0:
            if skip_d:
                continue
            d_hi = MAX_DICE
            d_lo = MAX_DICE
        else:
            for d in range(1, dcut + 1):
                for f in range(nv):
                    UX[f, t, cp, d] = bl[f, j, t]
            d_hi = MAX_DICE - 1
            d_lo = dcut + 1
            if d_lo > d_hi:
                continue
        for sl in range(slot_lk.shape[0]):
            left = slot_lk[sl, 0]
            pts = slot_lk[sl, 1]
            t2 = t + pts
            if left == 0:
                tt = t2 + cp + pts
                if tt < tcap:
                    for f in range(nv):
                        opt[f, sl] = A[f, j, tt]
                else:
                    for f in range(nv):
                        opt[f, sl] = bl[f, j, tt]
            elif t2 >= tcap:
                for f in range(nv):
                    opt[f, sl] = bl[f, j, t2]
            elif cp + pts > cpx:
                for f in range(nv):  # more card points than dice can hold: never reached
                    opt[f, sl] = 0.0
            else:
                for f in range(nv):
                    opt[f, sl] = UX[f, t2, cp + pts, left]
        for d in range(d_hi, d_lo - 1, -1):
            for f in range(nv):
                acc[f] = 0.0
            _best_keeps(nv, d, j, gstart, gprob, gk, kslot, opt, bust, acc)
            if d == MAX_DICE:
                for f in range(nv):
                    D[f, j, t] += fq * acc[f]
            else:
                banks = bl[0, j, t] >= acc[0]
                for f in range(nv):
                    UX[f, t, cp, d] = bl[f, j, t] if banks else acc[f]


@njit(cache=True)
def _x2_card_total(nv, tcap, j, t, bl, bust, A, D, UX, best_pts, fq, ev_kx, ev_bx, tm, acc,
                   egstart, egprob, egrep):
    """x2 under scope "card", ``EV`` mode (the EV table's keeps and banks)."""
    for d in range(MAX_DICE, 0, -1):
        lo = 0 if d == MAX_DICE else 1
        hi = 0 if d == MAX_DICE else min(t, UX.shape[2] - 1)
        for cp in range(lo, hi + 1):
            for f in range(nv):
                acc[f] = 0.0
            row = ev_row(t, tm)
            for g in range(egstart[d], egstart[d + 1]):
                ms = egrep[g]
                kbest = ev_kx[cp, row, ms]
                if kbest == 0:
                    for f in range(nv):
                        acc[f] += egprob[g] * bust[f, j]
                    continue
                _add_keep_x2(nv, j, t, cp, best_pts[ms, kbest], d - kbest, tcap, egprob[g],
                             acc, A, UX, bl)
            if d == MAX_DICE:
                for f in range(nv):
                    D[f, j, t] += fq * acc[f]
            else:
                banks = ev_bx[cp, d, ev_row(t, tm)]
                for f in range(nv):
                    UX[f, t, cp, d] = bl[f, j, t] if banks else acc[f]


@njit(cache=True, inline="always")
def _add_keep_x2(nv, j, t, cp, pts, left, tcap, pg, acc, A, UX, bl):
    t2 = t + pts
    if left == 0:
        tt = t2 + cp + pts
        for f in range(nv):
            acc[f] += pg * (A[f, j, tt] if tt < tcap else bl[f, j, tt])
    elif t2 >= tcap:
        for f in range(nv):
            acc[f] += pg * bl[f, j, t2]
    else:
        for f in range(nv):
            acc[f] += pg * UX[f, t2, cp + pts, left]


@njit(cache=True)
def turn_programme(mode, nv, tcap, n_layers, bl, bust, win, A, D, U, UX, sc_buf, tp, ev, prune):
    """All layers of one turn (deepest first); returns nothing, fills A and D.

    Layer j is the turn after j Plus/Minus Tuttos; the last layer's Plus/Minus
    leads back to itself (the deduction changes nothing any more)."""
    (x2_card, pm_chain, gstart, gprob, gk, kdice, kpts, best_pts, freq, bonus, p_hi, p_lo,
     q_hi, q_lo, fw_pmf, fw_surv, kslot, slot_lk, p_niete, rho, kappa) = tp
    (ev_keep, ev_bank, ev_draw, ev_kx, ev_bx, t_max, ev_p_pm, ev_p_clover, ev_q, egstart,
     egprob, egrep) = ev
    # the bound on banking (``_layer``): the largest leaf of layers j.. past the totals
    # a layer's loop sees, built up from the deepest layer (a suffix maximum)
    top = -1.0
    hi = min(2 * tcap + 90, bl.shape[2])
    for j in range(n_layers - 1, -1, -1):
        nxt = j + 1 if j + 1 < n_layers else j
        if prune and mode == MAX_MODE:
            top = max(top, bust[0, j])
            for tt in range(tcap, hi):
                top = max(top, bl[0, j, tt])
            if pm_chain == 2:  # flat: a Plus/Minus Tutto banks exactly 20
                top = max(top, bl[0, j, PM_UNITS])
        # layer j is reached after j Plus/Minus Tuttos: T >= 20 j
        t_lo = min(PM_UNITS * j, tcap)
        _layer(mode, nv, tcap, t_lo, j, nxt, sc_buf, bl, bust, win, A, D, U, UX, x2_card,
               pm_chain, gstart, gprob, gk, kdice, kpts, best_pts, freq, bonus, p_hi, p_lo,
               q_hi, q_lo, fw_pmf, fw_surv, ev_keep, ev_bank, ev_draw, ev_kx, ev_bx, t_max,
               ev_p_pm, ev_p_clover, ev_q, egstart, egprob, egrep, kslot, slot_lk, p_niete, rho,
               kappa, top, n_layers, prune)


# --------------------------------------------------------------------------
# the last turn of a round (seat 1 against a leader at or above the target)
# --------------------------------------------------------------------------


@njit(cache=True)
def margin_next(m, floor0):
    """Margin after one more deduction: the leader, fixed at the start of the
    turn (he held at least the roller's score), loses 20 units per Tutto; once
    the margin is negative it stays so, and all negative margins are alike
    (-1: banking anything wins). ``floor0``: the trailing player has 0 points,
    so the leader cannot fall below 0 (margin 0, no more deductions)."""
    if m < 0:
        return -1
    if floor0:
        return m - PM_UNITS if m > PM_UNITS else 0
    return m - PM_UNITS if m >= PM_UNITS else -1


@njit(cache=True)
def last_turn_margin(own, other, tuttos):
    """Seat 1's margin behind the leader (units) after ``tuttos`` Plus/Minus
    Tuttos of this turn, from the scores at its start: a leader at or above
    the roller's score loses 20 units per Tutto, never below 0; all negative
    margins are alike (-1)."""
    lead = other
    if other >= own and other > 0:
        lead = max(0, other - tuttos * PM_UNITS)
    m = lead - own
    return m if m >= -1 else -1


@njit(cache=True)
def one_layer(mode, nv, tcap, t_lo, j, nxt, sc_buf, bl, bust, win, A, D, U, UX, tp, ev):
    (x2_card, pm_chain, gstart, gprob, gk, kdice, kpts, best_pts, freq, bonus, p_hi, p_lo,
     q_hi, q_lo, fw_pmf, fw_surv, kslot, slot_lk, p_niete, rho, kappa) = tp
    (ev_keep, ev_bank, ev_draw, ev_kx, ev_bx, t_max, ev_p_pm, ev_p_clover, ev_q, egstart,
     egprob, egrep) = ev
    _layer(mode, nv, tcap, t_lo, j, nxt, sc_buf, bl, bust, win, A, D, U, UX, x2_card, pm_chain,
           gstart, gprob, gk, kdice, kpts, best_pts, freq, bonus, p_hi, p_lo, q_hi, q_lo,
           fw_pmf, fw_surv, ev_keep, ev_bank, ev_draw, ev_kx, ev_bx, t_max, ev_p_pm,
           ev_p_clover, ev_q, egstart, egprob, egrep, kslot, slot_lk, p_niete, rho, kappa,
           # not literals: one compile with turn_programme's
           np.float64(-1.0), np.int64(bl.shape[1]), np.bool_(False))


# --------------------------------------------------------------------------
# the whole game: leaves of one turn from the tables, pairs, groups
# --------------------------------------------------------------------------


@njit(cache=True)
def win_chain(a, b, chain):
    """Opponent's score after j deductions: ``chain[j]``; returns the layers.

    Who loses is fixed once, from the scores at the start of the turn: an
    opponent at or above the roller's ``a`` (and above 0) loses 20 units per
    Plus/Minus Tutto down to 0, ``e_j = max(0, b - 20 j)``, even once he is
    below ``a``; an opponent below ``a`` loses nothing. The last layer is the
    first whose score no further Tutto changes."""
    e = b
    n = 0
    hit = b >= a and b > 0
    while True:
        chain[n] = e
        n += 1
        e2 = (e - PM_UNITS if e > PM_UNITS else 0) if hit else e
        if e2 == e or n == chain.shape[0]:
            return n
        e = e2


@njit(cache=True)
def leaf_value(V, L, s, a, e, x, n_units, immediate):
    """Value for the player who banks to ``x`` leaving the opponent at ``e``."""
    if x < n_units:
        return 1.0 - V[1 - s, e, x]
    if immediate or s == 1:
        return 1.0
    # the leader's margin in seat 1's last turn, his score counted at most at the cap
    # (the target plus the margin cap, ``L.shape[1] - 3``), as the N-player solver counts it
    m = min(x, L.shape[1] - 3) - e
    row = 0 if e == 0 else 1
    return 1.0 - L[row, m + 1]


# --------------------------------------------------------------------------
# the EV-optimal player: its turn's outcomes, once for all scores
# --------------------------------------------------------------------------


@njit(cache=True)
def _ev_roll(c, j, t, d, m, tm, ev_keep, egstart, egprob, egrep, best_pts, bonus, Am, Um, pb):
    row = ev_row(t, tm)
    for g in range(egstart[d], egstart[d + 1]):
        ms = egrep[g]
        kb = ev_keep[c, row, ms]
        if kb == 0:
            pb[j] += m * egprob[g]
            continue
        t2 = t + best_pts[ms, kb]
        left = d - kb
        if left == 0:
            Am[j, 2 * t2 if c == X2 else t2 + bonus[c]] += m * egprob[g]
        else:
            Um[c, j, t2, left] += m * egprob[g]


@njit(cache=True)
def _ev_roll_x2(cp, j, t, d, m, tm, ev_kx, egstart, egprob, egrep, best_pts, Am, UXm, pb):
    row = ev_row(t, tm)
    for g in range(egstart[d], egstart[d + 1]):
        ms = egrep[g]
        kb = ev_kx[cp, row, ms]
        if kb == 0:
            pb[j] += m * egprob[g]
            continue
        pts = best_pts[ms, kb]
        t2 = t + pts
        left = d - kb
        if left == 0:
            Am[j, t2 + cp + pts] += m * egprob[g]
        else:
            UXm[cp + pts, j, t2, left] += m * egprob[g]


@njit(cache=True)
def ev_turn_outcomes(tp, ev, n_j, tsize, cpx):
    """The EV-optimal player's turn, forward: the chance of banking ``T``
    after ``j`` Plus/Minus Tuttos other than by a Feuerwerk (``po[j, T]``),
    of drawing the Feuerwerk at ``(j, T)`` (``fw[j, T]``), of a Niete or Stop
    after ``j`` of them (``pb[j]``) and of the Kleeblatt's win. ``j`` counts
    up to ``n_j - 1`` (more count as that many). Its decisions do not look at
    the scores, so these are the same for every state; the kernel
    :func:`_layer` in ``EV`` mode is the same turn, backwards."""
    (x2_card, pm_chain, gstart, gprob, gk, kdice, kpts, best_pts, freq, bonus, p_hi, p_lo,
     q_hi, q_lo, fw_pmf, fw_surv, kslot, slot_lk, p_niete, rho, kappa) = tp
    (ev_keep, ev_bank, ev_draw, ev_kx, ev_bx, tm, ev_p_pm, ev_p_clover, ev_q, egstart,
     egprob, egrep) = ev
    po = np.zeros((n_j, tsize))
    fw = np.zeros((n_j, tsize))
    pb = np.zeros(n_j)
    Dm = np.zeros((n_j, tsize))
    Am = np.zeros((n_j, tsize))
    Um = np.zeros((LAST_BANKABLE + 1, n_j, tsize, MAX_DICE))
    UXm = np.zeros((cpx, n_j, tsize, MAX_DICE))
    pw = 0.0
    Dm[0, 0] = 1.0
    for t in range(tsize):
        row = ev_row(t, tm)
        for j in range(n_j):
            m = Am[j, t]
            if m != 0.0:
                if ev_draw[row]:
                    Dm[j, t] += m
                else:
                    po[j, t] += m
            for c in range(FIRST_BANKABLE, LAST_BANKABLE + 1):
                for d in range(1, MAX_DICE):
                    if c == X2 and x2_card:
                        for cp in range(cpx):
                            m = UXm[cp, j, t, d]
                            if m == 0.0:
                                continue
                            if ev_bx[cp, d, row]:
                                po[j, t] += m
                            else:
                                _ev_roll_x2(cp, j, t, d, m, tm, ev_kx, egstart, egprob, egrep,
                                            best_pts, Am, UXm, pb)
                        continue
                    m = Um[c, j, t, d]
                    if m == 0.0:
                        continue
                    if ev_bank[c, d, row]:
                        po[j, t] += m
                    else:
                        _ev_roll(c, j, t, d, m, tm, ev_keep, egstart, egprob, egrep, best_pts,
                                 bonus, Am, Um, pb)
            m = Dm[j, t]
            if m == 0.0:
                continue
            for c in range(FIRST_BANKABLE, LAST_BANKABLE + 1):
                if c == X2 and x2_card:
                    _ev_roll_x2(0, j, t, MAX_DICE, m * freq[c], tm, ev_kx, egstart, egprob,
                                egrep, best_pts, Am, UXm, pb)
                else:
                    _ev_roll(c, j, t, MAX_DICE, m * freq[c], tm, ev_keep, egstart, egprob,
                             egrep, best_pts, bonus, Am, Um, pb)
            fw[j, t] += m * freq[FIREWORKS]
            nj = j + 1 if j + 1 < n_j else j
            mp = m * freq[PLUSMINUS]
            pb[j] += mp * (1.0 - ev_p_pm)
            if pm_chain == 0:
                Am[nj, t + PM_UNITS] += mp * ev_p_pm
            elif pm_chain == 1:
                po[nj, t + PM_UNITS] += mp * ev_p_pm
            else:
                po[nj, PM_UNITS] += mp * ev_p_pm
            ms = m * freq[STREET]
            Am[j, t + STREET_UNITS] += ms * ev_q
            pb[j] += ms * (1.0 - ev_q)
            pw += m * freq[CLOVERLEAF] * ev_p_clover
            pb[j] += m * freq[CLOVERLEAF] * (1.0 - ev_p_clover)
            pb[j] += m * freq[STOP]
    return po, fw, pb, pw

"""Numba kernels of the N-player win solver (``tutto.win.solve_n``).

Private and small; the mathematics is in the docstring of
:mod:`tutto_sim.tutto.win.solve_n`. One turn is the two-player solver's
programme (:func:`tutto_sim.tutto.win.programme.turn_programme`) with more
components: component ``o + f`` is the chance of the player ``f`` seats after
the mover (``o`` = 0, or 1 when component 0 holds the deciding values of
another world), then the slope in the Niete's state (the next seat at the same
scores) and one slope per link inside the level (a turn of nothing but
Plus/Minus Tuttos banked at exactly 1000 each, taken from one leader).

Scores are units of 50. A main-phase state is (seat, scores) with every score
below ``n``; its scores' index is ``ravel(x)`` in base ``n``. An end-phase
state (the round is being finished, ``round`` only) is (seat, scores) with
scores up to ``M - 1 = n + C``; index in base ``M``. Nothing allocates in the
loops: the callers pass scratch arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tutto_sim.tutto.win.programme import MAX_MODE, PM_UNITS, last_turn_margin, leaf_value, turn_programme, win_chain
from tutto_sim.tutto.win.seat import two_player_state

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto N-player win solver's kernels"

MAIN, END, TERMINAL, WINS = 0, 1, 2, 3


@njit(cache=True, inline="always")
def ravel(x, nplayers, base):
    i = 0
    for q in range(nplayers):
        i = i * base + x[q]
    return i


@njit(cache=True)
def unravel(i, nplayers, base, x):
    for q in range(nplayers - 1, -1, -1):
        x[q] = i % base
        i //= base


@njit(cache=True)
def terminal(x, nplayers, out):
    """The finished game: the highest score wins, k tied share 1/k each."""
    top = x[0]
    for q in range(1, nplayers):
        if x[q] > top:
            top = x[q]
    k = 0
    for q in range(nplayers):
        if x[q] == top:
            k += 1
    for q in range(nplayers):
        out[q] = 1.0 / k if x[q] == top else 0.0


@njit(cache=True)
def losers_of(x, s, nplayers, lose):
    """Plus/Minus: the players who lose, fixed at the turn's start: every other
    player at the highest score (the roller's counted); none when the roller
    leads alone. Returns the number of layers (deduction steps that change
    something, plus one)."""
    top = x[0]
    for q in range(1, nplayers):
        if x[q] > top:
            top = x[q]
    most = 0
    for q in range(nplayers):
        lose[q] = q != s and x[q] == top and top > 0
        if lose[q] and x[q] > most:
            most = x[q]
    return 1 + (most + PM_UNITS - 1) // PM_UNITS


@njit(cache=True, inline="always")
def deducted(x, lose, j, nplayers, y):
    for q in range(nplayers):
        y[q] = max(0, x[q] - PM_UNITS * j) if lose[q] else x[q]


@njit(cache=True)
def where(s, y, end_phase, nplayers, n, M, immediate):
    """Where the turn of seat s leads when it ends with scores ``y`` (y[s]
    already the new score, unclipped): (kind, seat, index); ``y`` is clipped
    in place."""
    if not end_phase:
        if y[s] < n:
            return MAIN, (s + 1) % nplayers, ravel(y, nplayers, n)
        if immediate or s == nplayers - 1:
            return WINS, s, 0
    if s == nplayers - 1:
        return TERMINAL, 0, 0  # the finished game compares scores: no cap needed
    if y[s] > M - 1:
        y[s] = M - 1
    return END, s + 1, ravel(y, nplayers, M)


@njit(cache=True, inline="always")
def read(kind, seat, idx, s, y, V, E, nplayers, out):
    """The value vector (absolute seats) of an outcome of :func:`where`."""
    if kind == MAIN:
        for q in range(nplayers):
            out[q] = V[seat, idx, q]
    elif kind == END:
        for q in range(nplayers):
            out[q] = E[seat, idx, q]
    elif kind == TERMINAL:
        terminal(y, nplayers, out)
    else:
        for q in range(nplayers):
            out[q] = 1.0 if q == s else 0.0


@njit(cache=True)
def find_links(s, x, end_phase, nplayers, n, level, lose, n_layers, y, link_layer, link_idx,
               nlink):
    """The links of seat s's turn at x inside its level (``level``: the score
    sum): banking exactly ``20 j`` after ``j`` Plus/Minus Tuttos to a
    main-phase state of the same sum. Writes ``link_layer``, ``link_idx``
    and their number ``nlink[0]``; returns it."""
    nl = 0
    for j in range(1, n_layers):
        t = PM_UNITS * j
        if end_phase or x[s] + t >= n:
            break
        deducted(x, lose, j, nplayers, y)
        y[s] = x[s] + t
        tot = 0
        for q in range(nplayers):
            tot += y[q]
        if tot == level and nl < link_layer.shape[0]:
            link_layer[nl] = j
            link_idx[nl] = ravel(y, nplayers, n)
            nl += 1
    nlink[0] = nl
    return nl


@njit(cache=True)
def niete_state(s, x, j, end_phase, ded_tutto, nplayers, n, M, immediate, lose, y):
    """Where a Niete or a Stop in layer ``j`` of seat s's turn at x leads: the
    scores of the turn's start, or with the deductions made at the Tuttos
    (deduction at the Tutto), in ``y``; returns (kind, seat, index, the same
    scores as x)."""
    if ded_tutto:
        deducted(x, lose, j, nplayers, y)
    else:
        for q in range(nplayers):
            y[q] = x[q]
    same = True
    for q in range(nplayers):
        if y[q] != x[q]:
            same = False
    if end_phase:
        kind, seat, idx = where(s, y, True, nplayers, n, M, immediate)
        return kind, seat, idx, same
    return MAIN, (s + 1) % nplayers, ravel(y, nplayers, n), same


@njit(cache=True)
def fill_leaves(deciding, read_d, s, x, end_phase, nplayers, n, M, immediate, ded_tutto, level,
                Vd, Ed, V, E, lose, n_layers, nlink, tsize_used, bl, bust, win, y, vec, vecd,
                link_layer, link_idx):
    """The leaves of one turn of seat s at scores x, for the programme.

    Components: ``o + f`` (o = 1 if ``deciding`` else 0) the chance of seat
    ``(s + f) % N`` in the world (V, E); component 0 with ``deciding`` the
    mover's chance in the deciding world (Vd, Ed: its decisions; read only with
    ``read_d``, else left for the caller, :func:`reduced_leaves`); then
    ``o + N``: the slope in the Niete's state (main phase: the next seat at the
    same scores), ``o + N + 1 + k``: the slope in the k-th link (a main-phase
    state of the same score sum, ``level``, reached by banking exactly
    ``20 j`` after ``j`` Plus/Minus Tuttos from one leader). Returns the
    number of components; ``link_layer[k]``, ``link_idx[k]`` (the link's
    next seat is ``s + 1``) for k < ``nlink[0]``."""
    o = 1 if deciding else 0
    ic = o + nplayers
    nl = find_links(s, x, end_phase, nplayers, n, level, lose, n_layers, y, link_layer,
                    link_idx, nlink)
    nv = ic + (0 if end_phase else 1 + nl)
    for f in range(nv):
        win[f] = 0.0
    world_leaves(s, x, end_phase, nplayers, n, M, immediate, ded_tutto, lose, n_layers,
                 tsize_used, V, E, bl, bust, win, y, vec, o, False)
    if read_d:
        world_leaves(s, x, end_phase, nplayers, n, M, immediate, ded_tutto, lose, n_layers,
                     tsize_used, Vd, Ed, bl, bust, win, y, vecd, 0, True)
    elif deciding:
        win[0] = 1.0
    if end_phase:
        return nv
    # the slopes: the Niete's state is the turn's start (t = 0 of layer 0, a main-phase
    # state: x is below the target) or, deducting at the Tutto, as niete_state says
    for j in range(n_layers):
        kl = -1
        for k in range(nl):
            if link_layer[k] == j:
                kl = k
        for t in range(tsize_used):
            bl[ic, j, t] = 1.0 if (j == 0 and t == 0) else 0.0
            for k in range(nl):
                bl[ic + 1 + k, j, t] = 1.0 if (k == kl and t == PM_UNITS * j) else 0.0
        same = niete_state(s, x, j, end_phase, ded_tutto, nplayers, n, M, immediate, lose, y)[3]
        bust[ic, j] = 1.0 if same else 0.0
        for k in range(nl):
            bust[ic + 1 + k, j] = 0.0
    return nv


@njit(cache=True)
def world_leaves(s, x, end_phase, nplayers, n, M, immediate, ded_tutto, lose, n_layers, tsize_used,
                 V, E, bl, bust, win, y, vec, off, own_only):
    """Seat s's turn at x: its leaves in the world (V, E) as components ``off +
    f``, the chance of seat ``(s + f) % N`` (a bank at each total ``t`` of each
    Plus/Minus layer ``j``, then a Niete or a Stop: the turn's start, or with
    the deductions made at the Tuttos), and ``win`` (a Kleeblatt: the mover
    wins); ``own_only``: the mover's chance alone, as component ``off`` (a
    deciding world's). :func:`fill_leaves` reads its world with it, and
    ``run_states`` a second world beside (``extra``): one programme then values
    the same decisions in both. Returns ``off + N`` (``off + 1`` own only)."""
    for f in range(1 if own_only else nplayers):
        win[off + f] = 1.0 if f == 0 else 0.0
    for j in range(n_layers):
        for t in range(tsize_used):
            deducted(x, lose, j, nplayers, y)
            y[s] = x[s] + t
            kind, seat, idx = where(s, y, end_phase, nplayers, n, M, immediate)
            read(kind, seat, idx, s, y, V, E, nplayers, vec)
            if own_only:
                bl[off, j, t] = vec[s]
            else:
                for f in range(nplayers):
                    bl[off + f, j, t] = vec[(s + f) % nplayers]
        kind, seat, idx, _ = niete_state(s, x, j, end_phase, ded_tutto, nplayers, n, M, immediate,
                                         lose, y)
        read(kind, seat, idx, s, y, V, E, nplayers, vec)
        if own_only:
            bust[off, j] = vec[s]
        else:
            for f in range(nplayers):
                bust[off + f, j] = vec[(s + f) % nplayers]
    return off + (1 if own_only else nplayers)


@njit(cache=True)
def reduced_leaves(s, x, end_phase, nplayers, n, immediate, ded_tutto, W2, L2, n_layers,
                   tsize_used, bl, bust, chain):
    """Component 0 of seat s's turn at x as ``winopt`` values it at a table of
    N without an N-player table (:mod:`tutto_sim.tutto.win.seat`): the
    two-player table (``W2``, its last turns ``L2``) in the reduced state
    (two-player seat 1 for the last seat of the round, else 0; own score
    against the leader among the others at the turn's start, who loses 20
    per Plus/Minus Tutto when he is at or above the roller). In the main
    phase its leaves are the two-player solver's (``programme.leaf_value``,
    a Niete as there); in the last round (the end phase) seat 1's last turn
    against the leader's margin after the Tuttos so far: banking wins above
    it, 1/2 level with it. Overwrites ``bl[0]`` and ``bust[0]`` of the
    ``n_layers`` layers up to ``tsize_used``."""
    sig, own, other = two_player_state(x, s, nplayers)
    nl2 = win_chain(own, other, chain)
    for j in range(n_layers):
        e = chain[j if j < nl2 else nl2 - 1]
        if end_phase:
            m = last_turn_margin(own, other, j)
            for t in range(tsize_used):
                bl[0, j, t] = 1.0 if t > m else (0.5 if t == m else 0.0)
            if ded_tutto:
                bust[0, j] = 1.0 if m < 0 else (0.5 if m == 0 else 0.0)
            else:
                bust[0, j] = 0.0
        else:
            for t in range(tsize_used):
                bl[0, j, t] = leaf_value(W2, L2, sig, own, e, own + t, n, immediate)
            eb = e if ded_tutto else other
            bust[0, j] = 1.0 - W2[1 - sig, eb, own]


@njit(cache=True)
def tcap_of(s, x, end_phase, nplayers, n, M, immediate):
    """The turn total from which the programme banks: the target for a player
    after whom nobody moves (or ``immediate``), else the cap ``M - 1``."""
    if not end_phase and (immediate or s == nplayers - 1):
        return n - x[s]
    if end_phase and s == nplayers - 1:
        # the last turn of the game: banking wins once ahead of everyone
        top = 0
        for q in range(nplayers):
            if q != s and x[q] > top:
                top = x[q]
        return max(top - x[s] + 1, 1)
    return M - 1 - x[s]


@njit(cache=True)
def ev_state(s, x, end_phase, nplayers, n, M, immediate, ded_tutto, level, V, E, t_max, q,
             po, hfw, pb, pw, lose, y, vec, out, link_layer, link_idx, nlink):
    """The EV-optimal player's turn at seat s from its outcomes (the same for
    every state: its decisions do not look at the scores); ``out`` as the
    programme's ``D[:, 0, 0]`` (values, Niete slope, link slopes)."""
    n_layers = losers_of(x, s, nplayers, lose)
    ic = nplayers
    nl = find_links(s, x, end_phase, nplayers, n, level, lose, n_layers, y, link_layer,
                    link_idx, nlink)
    for f in range(out.shape[0]):
        out[f] = 0.0
    out[s] += pw
    tcap = max(t_max + 1, tcap_of(s, x, end_phase, nplayers, n, M, immediate))
    n_j = q.shape[0]
    for j in range(n_j):
        ll = j if j < n_layers else n_layers - 1
        # a Niete or a Stop
        kind, seat, idx, same = niete_state(s, x, ll, end_phase, ded_tutto, nplayers, n, M,
                                            immediate, lose, y)
        if same and not end_phase:
            out[ic] += pb[j]
        read(kind, seat, idx, s, y, V, E, nplayers, vec)
        for f in range(nplayers):
            out[f] += pb[j] * vec[f]
        top = max(tcap, po.shape[1])
        for t in range(PM_UNITS * j, top + 1):
            if t < tcap:
                c = q[j, t]
            elif t == tcap:
                c = hfw[j, tcap] + (po[j, t] if t < po.shape[1] else 0.0)
            else:
                c = po[j, t] if t < po.shape[1] else 0.0
            if c == 0.0:
                continue
            deducted(x, lose, ll, nplayers, y)
            y[s] = x[s] + t
            kind, seat, idx = where(s, y, end_phase, nplayers, n, M, immediate)
            if kind == MAIN and j == 0 and t == 0:
                out[ic] += c
            elif kind == MAIN and ll == j:
                for k in range(nl):
                    if link_layer[k] == j and t == PM_UNITS * j:
                        out[ic + 1 + k] += c
            read(kind, seat, idx, s, y, V, E, nplayers, vec)
            for f in range(nplayers):
                out[f] += c * vec[f]


@njit(cache=True, parallel=True)
def run_states(seat, idx, end_phase, kinds, nplayers, n, M, immediate, ded_tutto, level, Vd,
               Ed, V, E, tp, ev, t_max, q, po, hfw, pb, pw, A, D, U, UX, bl, bust, win, sc_buf,
               xs, ys, lose, vec, vecd, link_layer, link_idx, nlink, out_c, out_p, out_w,
               out_lk, out_nl, tsize, W2, L2, chain, extra, V2, E2, out_c2):
    """One turn for each listed state, in the world (V, E) with its inputs
    from there: ``kinds[seat]`` 0 win-optimal (deciding in V itself), 1 the
    EV table, 2 win-optimal decisions (from Vd, Ed) valued in V, 3 ``winopt``
    without an N-player table (decisions from the two-player table ``W2``,
    ``L2`` in the reduced state, :func:`reduced_leaves`) valued in V. Writes the
    value vector (absolute seats) with the Niete's state and the links at
    their current values in ``out_c``, the Niete slope ``out_p`` and the link
    slopes ``out_w`` (targets ``out_lk``, ``out_nl`` of them). With ``extra``
    (kind 0 only): the same decisions valued in the world (V2, E2) too, in
    ``out_c2`` (:func:`world_leaves`; the numbers are those of a kind-2 turn
    there; its slopes are ``out_p`` and ``out_w``: they depend on the
    decisions alone). Each thread slot has its own scratch: results do not
    depend on the threads."""
    ns = seat.shape[0]
    slots = A.shape[0]
    for blk in prange(slots):
        x = xs[blk]
        y = ys[blk]
        for i in range(blk, ns, slots):
            s = seat[i]
            unravel(idx[i], nplayers, M if end_phase else n, x)
            kind = kinds[s]
            if kind == 1:
                ev_state(s, x, end_phase, nplayers, n, M, immediate, ded_tutto, level, V, E,
                         t_max, q, po, hfw, pb, pw, lose[blk], y, vec[blk], vecd[blk],
                         link_layer[blk], link_idx[blk], nlink[blk])
                nl = nlink[blk][0]
                for f in range(nplayers):
                    out_c[i, f] = vecd[blk][f]
                pc = vecd[blk][nplayers] if not end_phase else 0.0
                out_p[i] = pc
                for k in range(nl):
                    out_w[i, k] = vecd[blk][nplayers + 1 + k]
                    out_lk[i, k] = link_idx[blk][k]
                out_nl[i] = nl
            else:
                n_layers = losers_of(x, s, nplayers, lose[blk])
                if n_layers > bl.shape[2]:
                    n_layers = bl.shape[2]
                tcap = tcap_of(s, x, end_phase, nplayers, n, M, immediate)
                used = min(2 * tcap + 90, tsize)
                deciding = kind >= 2
                nv = fill_leaves(deciding, kind == 2, s, x, end_phase, nplayers, n, M, immediate,
                                 ded_tutto, level, Vd, Ed, V, E, lose[blk], n_layers,
                                 nlink[blk], used, bl[blk], bust[blk], win[blk], y, vec[blk],
                                 vecd[blk], link_layer[blk], link_idx[blk])
                if kind == 3:
                    reduced_leaves(s, x, end_phase, nplayers, n, immediate, ded_tutto, W2, L2,
                                   n_layers, used, bl[blk], bust[blk], chain[blk])
                off = nv
                if extra:
                    nv = world_leaves(s, x, end_phase, nplayers, n, M, immediate, ded_tutto,
                                      lose[blk], n_layers, used, V2, E2, bl[blk], bust[blk],
                                      win[blk], y, vec[blk], off, False)
                turn_programme(MAX_MODE, nv, tcap, n_layers, bl[blk], bust[blk], win[blk],
                               A[blk], D[blk], U[blk], UX[blk], sc_buf[blk], tp, ev,
                               np.bool_(True))
                o = 1 if deciding else 0
                nl = nlink[blk][0]
                for f in range(nplayers):
                    out_c[i, (s + f) % nplayers] = D[blk][o + f, 0, 0]
                out_p[i] = D[blk][o + nplayers, 0, 0] if not end_phase else 0.0
                for k in range(nl):
                    out_w[i, k] = D[blk][o + nplayers + 1 + k, 0, 0]
                    out_lk[i, k] = link_idx[blk][k]
                out_nl[i] = nl
                if extra:
                    for f in range(nplayers):
                        out_c2[i, (s + f) % nplayers] = D[blk][off + f, 0, 0]


@njit(cache=True)
def affine(seat, idx, out_c, out_p, out_w, out_lk, out_nl, V, nplayers, n):
    """Turn each state's value into its affine form in the values it was
    computed with: ``c = value - p V[cycle] - sum w V[link]`` (in place)."""
    for i in range(seat.shape[0]):
        s = seat[i]
        ns = (s + 1) % nplayers
        for f in range(nplayers):
            out_c[i, f] -= out_p[i] * V[ns, idx[i], f]
            for k in range(out_nl[i]):
                out_c[i, f] -= out_w[i, k] * V[ns, out_lk[i, k], f]


@njit(cache=True)
def solve_level(seat, idx, out_c, out_p, out_w, out_lk, out_nl, V, nplayers, n, tol, max_iter,
                cur, r, tmp):
    """Solve the level's linear system ``X_i = c_i + p_i X[next seat, same
    scores] + sum_k w_ik X[next seat, link k]`` in V (in place): the Niete's
    cycle of each scores exactly, the links by Gauss-Seidel. States come in
    groups of ``nplayers`` (seats 0..N-1 of one scores). Returns the sweeps."""
    ng = seat.shape[0] // nplayers
    it = 0
    while it < max_iter:
        it += 1
        change = 0.0
        for g in range(ng):
            base = g * nplayers
            for m in range(nplayers):
                i = base + m
                s = seat[i]
                ns = (s + 1) % nplayers
                for f in range(nplayers):
                    acc = out_c[i, f]
                    for k in range(out_nl[i]):
                        acc += out_w[i, k] * V[ns, out_lk[i, k], f]
                    r[m, f] = acc
            # the cycle: X_s = r_s + p_s X_{s+1}, s = 0..N-1 (seats in order)
            prod = 1.0
            for f in range(nplayers):
                tmp[f] = 0.0
            for m in range(nplayers):
                for f in range(nplayers):
                    tmp[f] += prod * r[m, f]
                prod *= out_p[base + m]
            for f in range(nplayers):
                cur[0, f] = tmp[f] / (1.0 - prod)
            for m in range(nplayers - 1, 0, -1):
                nxt = (m + 1) % nplayers
                for f in range(nplayers):
                    cur[m, f] = r[m, f] + out_p[base + m] * cur[nxt, f]
            for m in range(nplayers):
                i = base + m
                for f in range(nplayers):
                    d = abs(cur[m, f] - V[seat[i], idx[i], f])
                    if d > change:
                        change = d
                    V[seat[i], idx[i], f] = cur[m, f]
        if change <= tol:
            break
    return it


@njit(cache=True)
def input_moves(seat, idx, out_lk, out_nl, V, used_cyc, used_lk, nplayers):
    """The largest move of the mover's chance in the inputs each state was
    computed with (the Niete's state and the links), against V now."""
    ns_ = seat.shape[0]
    res = np.zeros(ns_)
    for i in range(ns_):
        s = seat[i]
        ns = (s + 1) % nplayers
        m = abs(V[ns, idx[i], s] - used_cyc[i])
        for k in range(out_nl[i]):
            d = abs(V[ns, out_lk[i, k], s] - used_lk[i, k])
            if d > m:
                m = d
        res[i] = m
    return res


@njit(cache=True)
def record_inputs(seat, idx, out_lk, out_nl, V, used_cyc, used_lk, nplayers, which):
    for i in range(seat.shape[0]):
        if not which[i]:
            continue
        s = seat[i]
        ns = (s + 1) % nplayers
        used_cyc[i] = V[ns, idx[i], s]
        for k in range(out_nl[i]):
            used_lk[i, k] = V[ns, out_lk[i, k], s]

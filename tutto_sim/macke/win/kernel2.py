"""numba kernels of the two-player Macke win solver
(:mod:`tutto_sim.macke.win.solve2`; its module docstring has the mathematics):
a turn's leaves from the table (:func:`win_leaves`), the last turn
(:func:`last_turn`), a sweep of every pair of scores (:func:`greedy_sweep`)
and the settling of fixed decisions (:func:`settle_all`). Units of 50; one
turn is :mod:`tutto_sim.macke.win.programme`'s. Pairs of scores are split
into ``n_blocks`` fixed interleaved blocks, each with its own scratch
(``prange`` over blocks); a pair's result depends on nothing but its inputs,
so no value depends on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tutto_sim.macke.win.programme import turn_outcomes, turn_value

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Macke win solver's kernels"


@njit(cache=True, inline="always")
def _result(t, min_u):
    return t if t >= min_u else -t


@njit(cache=True)
def _after(s, b, w, last, floor_u, target_u):
    """Value for the player who just ended a turn at score ``s`` (opponent ``b``
    to move, ``w`` the opponent's turn-start row ``W[b, .]``, ``last[d]`` the
    opponent's chance in its last turn when it needs more than ``d``)."""
    if s >= target_u:
        d = s - b
        return 1.0 - last[min(d, last.shape[0] - 1)]
    return 1.0 - w[max(s, floor_u) - floor_u]


@njit(cache=True)
def win_leaves(a, b, w, last, floor_u, target_u, min_u, subtract, bankv, mackev):
    for t in range(bankv.shape[0]):
        bankv[t] = _after(a + _result(t, min_u), b, w, last, floor_u, target_u)
        mackev[t] = _after(a - t if subtract else a, b, w, last, floor_u, target_u)


@njit(cache=True)
def bank_bound_cap(bankv, mackev, p0, hard_cap):
    """Smallest ``tstar`` (>= 1) such that banking a clear at every total
    ``tstar <= T < hard_cap`` is provably optimal: a new series is worth at
    most ``p0 * mackev[T] + (1 - p0)`` (``p0``: a Macke on the first throw)."""
    for t in range(hard_cap - 1, 0, -1):
        if bankv[t] < p0 * mackev[t] + (1.0 - p0):
            return t + 1
    return 1


@njit(cache=True)
def _settle(a, b, min_u, subtract, floor_u, target_u, bank_mass, macke_mass, p_win,
            lw, le, q, c):
    """A turn's outcome at ``(a, b)`` as new scores: ``q[s - floor]`` for
    ``s < target``, and ``c[0]``/``c[1]`` the chance of winning through the
    outcomes at or above the target (or five 1s) when the opponent's last
    turn is win-optimal (``lw``) / EV-optimal (``le``)."""
    q[:] = 0.0
    c[0] = p_win
    c[1] = p_win
    for t in range(bank_mass.shape[0]):
        for k in range(2):
            p = bank_mass[t] if k == 0 else macke_mass[t]
            if p == 0.0:
                continue
            if k == 0:
                s = a + _result(t, min_u)
            else:
                s = a - t if subtract else a
            if s >= target_u:
                d = s - b
                c[0] += p * (1.0 - lw[min(d, lw.shape[0] - 1)])
                c[1] += p * (1.0 - le[min(d, le.shape[0] - 1)])
            else:
                q[max(s, floor_u) - floor_u] += p


@njit(cache=True, parallel=True)
def last_turn(n_d, hard_cap, p0, min_u, subtract, n_all, n_throws, tab, empty, sf, si):
    """``out[d]``, d = 0..n_d-1: the best chance to end one turn with a result
    above ``d`` (ties count 1/2; five 1s win)."""
    out = np.zeros(n_d)
    n_blocks = sf[0].shape[0]
    for blk in prange(n_blocks):
        bankv, mackev, cv, vt, bt = sf[0][blk], sf[1][blk], sf[2][blk], sf[3][blk], sf[4][blk]
        cbank, keep, ret, bank = si[0][blk], si[1][blk], si[2][blk], si[3][blk]
        for d in range(blk, n_d, n_blocks):
            for t in range(bankv.shape[0]):
                r = _result(t, min_u)
                bankv[t] = 1.0 if r > d else (0.5 if r == d else 0.0)
                r = -t if subtract else 0
                mackev[t] = 1.0 if r > d else (0.5 if r == d else 0.0)
            tstar = bank_bound_cap(bankv, mackev, p0, hard_cap)
            out[d] = turn_value(tstar, False, n_all, n_throws, tab, empty, bankv, mackev, 1.0,
                                cv, cbank, vt, bt, keep, ret, bank)
    return out


@njit(cache=True, parallel=True)
def greedy_sweep(w, lw, le, floor_u, target_u, hard_cap, p0, min_u, subtract, n_all, n_throws,
                 tab, empty, sf, si, mass, w_new, q, c, tstars, lo, hi):
    """One sweep of the Bellman operator over all score pairs, with the greedy
    turn's outcomes: ``w_new[i] = max over the turn of E[leaf]`` for pair
    ``i = (a - floor) * n + (b - floor)``, ``q[i]``/``c[i]`` its outcomes
    (:func:`_settle`), ``tstars[i]`` the locked totals it needed. Only the
    pairs ``lo <= i < hi`` (the caller sweeps in chunks, to show how far it is)."""
    n = w.shape[0]
    n_blocks = sf[0].shape[0]
    top = min(hi, n * n)
    for blk in prange(n_blocks):
        bankv, mackev, cv, vt, bt = sf[0][blk], sf[1][blk], sf[2][blk], sf[3][blk], sf[4][blk]
        bank_mass, macke_mass = sf[5][blk], sf[6][blk]
        cbank, keep, ret, bank = si[0][blk], si[1][blk], si[2][blk], si[3][blk]
        for i in range(lo + blk, top, n_blocks):
            a = i // n + floor_u
            b = i % n + floor_u
            win_leaves(a, b, w[b - floor_u], lw, floor_u, target_u, min_u, subtract, bankv, mackev)
            tstar = bank_bound_cap(bankv, mackev, p0, hard_cap)
            tstars[i] = tstar
            w_new[i] = turn_value(tstar, True, n_all, n_throws, tab, empty, bankv, mackev, 1.0,
                                  cv, cbank, vt, bt, keep, ret, bank)
            p_win = turn_outcomes(tstar, n_all, n_throws, tab, empty, keep, ret, bank, cbank,
                                  mass[blk], bank_mass, macke_mass)
            _settle(a, b, min_u, subtract, floor_u, target_u, bank_mass, macke_mass, p_win,
                    lw, le, q[i], c[i])


@njit(cache=True, parallel=True)
def settle_all(n, floor_u, target_u, min_u, subtract, bank_mass, macke_mass, p_win, lw, le, q, c):
    """:func:`_settle` of one score-independent turn (the EV policy) at every pair."""
    for i in prange(n * n):
        _settle(i // n + floor_u, i % n + floor_u, min_u, subtract, floor_u, target_u,
                bank_mass, macke_mass, p_win, lw, le, q[i], c[i])

"""numba kernels of one Macke turn played to win, with general leaves: its
value and decisions (:func:`turn_value`), and where a turn of fixed decisions
ends (:func:`turn_outcomes`, :func:`move_mass`); the two-player solver
(:mod:`tutto_sim.macke.win.solve2`, whose docstring has the mathematics) and
the N-player solver (:mod:`tutto_sim.macke.win.solve_n`) both use them.

Everything is in units of 50 points. A *turn* here is the turn DP of
``macke.solver`` with general leaves instead of the signed result:

``bankv[T]``   value of ending the turn with total ``T`` (bank, last throw,
               or a clear at ``T >= tstar``, which is banked);
``mackev[T]``  value of a Macke at turn total ``T`` after the turn's first
               throw (the turn's first throw has ``T = 0``);
``winv``       value of five 1s (variant instant-win).

Decision arrays have the layout of ``solver.MackeDecisions`` (row = locked
total ``T0``).
"""

from __future__ import annotations

from numba import njit

from tutto_sim.macke.solver import turn_level

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Macke win solver's kernels"


@njit(cache=True)
def turn_value(tstar, store, n_all, n_throws, tab, empty, bankv, mackev, winv, cv, cbank, vt,
               bt, keep, ret, bank):
    """Optimal value of a turn with the given leaves; locked totals ``tstar - 1 .. 0``.

    With ``store`` the decisions of locked total ``T0`` go to row ``T0`` of
    ``keep``/``ret``/``bank`` (else all to row 0) and ``cbank[T]`` says
    whether a clear at ``T < tstar`` is banked.
    """
    for t0 in range(tstar - 1, -1, -1):
        row = t0 if store else 0
        turn_level(t0, n_all, n_throws, tab, bankv, mackev, winv, tstar, cv, vt, bt, keep[row],
                   ret[row], bank[row])
        series = vt[n_throws, empty]
        cbank[t0] = bankv[t0] >= series
        cv[t0] = max(bankv[t0], series)
    return vt[n_throws, empty]


@njit(cache=True)
def turn_outcomes(tstar, n_all, n_throws, tab, empty, keep, ret, bank, cbank, mass, bank_mass,
                  macke_mass):
    """Push one turn's probability through the states under stored decisions.

    Decision rows past the last use the last (a clear at ``T >= tstar`` is
    banked). Fills ``bank_mass[T]`` (the turn ends with total ``T``: banked,
    last throw or banked clear) and ``macke_mass[T]`` (a Macke at total ``T``;
    the first throw's is at 0); returns the probability of five 1s.
    """
    (state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states, win, prob,
     start, slot_off) = tab
    n_states = state_dice.shape[0]
    rows = keep.shape[0]
    bank_mass[:] = 0.0
    macke_mass[:] = 0.0
    mass[:tstar] = 0.0
    mass[0, n_throws, empty] = 1.0
    p_win = 0.0
    for t0 in range(tstar):
        r = min(t0, rows - 1)
        for tl in range(n_throws, 0, -1):
            for u in range(n_states):
                m = mass[t0, tl, u]
                if m == 0.0:
                    continue
                s = u
                if tl < n_throws:
                    s = sub_states[sub_start[u] + ret[r, tl, u]]
                n = n_all - state_dice[s]
                lo = start[n]
                for ms in range(lo, start[n + 1]):
                    p = m * prob[ms]
                    k0 = keep_start[ms]
                    if win[ms]:
                        p_win += p
                        continue
                    if k0 == keep_start[ms + 1]:
                        macke_mass[t0 + state_pts[s]] += p
                        continue
                    u2 = add[s, keep_states[k0 + keep[r, tl, slot_off[s] + ms - lo]]]
                    move_mass(p, u2, t0, tl, r, tstar, n_all, n_throws, empty, state_dice,
                              state_pts, bank, cbank, mass, bank_mass)
    return p_win


@njit(cache=True, inline="always")
def move_mass(p, u2, t0, tl, r, tstar, n_all, n_throws, empty, state_dice, state_pts, bank, cbank,
              mass, bank_mass):
    """Chance ``p`` that, at locked total ``t0`` with ``tl`` throws left, the
    set-aside state becomes ``u2``: to where the turn goes on or ends
    (decision row ``r``)."""
    t = t0 + state_pts[u2]
    if state_dice[u2] == n_all:
        if t >= tstar or cbank[min(t, cbank.shape[0] - 1)]:
            bank_mass[t] += p
        else:
            mass[t, n_throws, empty] += p
    elif tl == 1 or bank[r, tl - 1, u2]:
        bank_mass[t] += p
    else:
        mass[t0, tl - 1, u2] += p

r"""Playing to win at a table of N = 2, 3 or 4: exact win chances of Berliner Macke and Volle Lotte.

Part of the solver layer, beside the two-player solver ``macke.winprob``
(read its docstring first: units of 50, the floor ``F``, the turn DP with
general leaves, policy iteration). Every player maximises his own chance of
winning; a win shared by ``k`` tied players counts ``1/k``; the value of a
state is the vector of all players' chances (docs/macke-win.md, "Three and
four players").

The reduction to the mover
--------------------------
docs/macke.md: when a player ends a turn at or above the target ``G``, every
other player gets exactly one more turn (nachwerfen) in seat order after him;
then the highest score wins. Nothing in this end depends on the seats, only
on who reached the target and the order after him; and play has no rounds.
So the chance of every player is a function of the scores written from the
mover on, ``x = (x_0, x_1, ..., x_{N-1})``: the mover's score, then the next
player's and so on round the table (exact, no approximation). The table is

.. math:: W[x_0 - F, \dots, x_{N-1} - F, k]

the chance of the player ``k`` seats after the mover (``k = 0``: the mover),
all scores in units, ``F <= x_i < G`` (scores below the floor held at it).
Seat 0 moves first, so ``p_wins[k] = W[-F, ..., -F, k]``.

A turn of the mover ends with the signed result ``r`` (as in the two-player
solver), his new score ``s = max(F, x_0 + r)``. If ``s < G`` the next player
moves at ``y = (x_1, ..., x_{N-1}, s)``, so the value for the player ``k``
seats after the old mover is ``W[y, k - 1]`` (``W[y, N - 1]`` for the old
mover). If ``s >= G`` the end phase starts (below). Five 1s (variant
``instant-win``) win at once. The mover plays the turn DP with his own
component at the leaves; the others' values follow from the distribution of
where that turn ends (the forward pass).

Tie-break
---------
Where options give the mover the same chance within ``EPS`` (1e-12), the turn
prefers ending the turn (banking, or banking a clear), then the keep (or what
stays aside before a throw) with the most points, then the one with the
fewest dice. It decides whom a player who cannot win anyway hands the game
to, and makes the table a function of the rules alone.

The end phase
-------------
After the finisher, players ``j = 1, ..., N - 1`` (seats after him) play one
turn each. Before player ``j``'s turn only three things matter: ``M``, the
highest score of the players who are done (the finisher and players
``1..j-1``), ``k``, how many of them hold it, and the scores of the players
still to come relative to player ``j``. So a *stage* ``j`` table is indexed by

.. math:: (d_M = M - x_j \ge 1,\; k,\; e_m = x_j - x_m \text{ for } m > j)

and holds ``[chance of the done players at M (together; they share equally),
player j's, player j+1's, ...]``. Player ``j``'s result ``r`` either passes
``M`` (then he alone is done at the top), ties it (``k + 1`` at the top) or
falls short; then stage ``j + 1`` at the new key. The last player's stage
needs no later table. A player who cannot reach ``M`` in the capped turn
(``d_M`` beyond every result) changes nothing but through five 1s. Scores are
not held at the floor in the end phase (it decides nothing there).

*Families.* Player ``j``'s own chance is 0 for every result short of ``M``
(a Macke too) and, above it, a function of where he ends relative to ``M``
and the later players. So the keys that share ``M`` and the later scores
(a *family*: ``d_M + e_m`` fixed) differ only in his own score, and from a
locked total of at least the minimum score on, their turns are one
programme over his locked score: it is solved once per family (the same
arithmetic, so the same numbers, as each key's own), and each key solves
only its locked totals below the minimum on top of it (a key whose ``t*``
does not fit the family's is solved whole). The other players' chances
under those decisions come from evaluating them backwards, level by level
(the same sums as the forward pass, in another order). This cuts the
second thrower's turns by about ``2n`` at three players.

Solve and figures
-----------------
Policy iteration as in the two-player solver: a *sweep* solves every state's
turn against the current table (numba, fixed interleaved blocks of states, so
no value depends on the thread count) and records where it ends; then the
exact values of that policy for all players (a linear system, Jacobi to
1e-14). It starts from everyone playing for points and stops when a sweep
changes no component by more than ``tol``; ``residual`` is that change.
Where a state's decisions are those of the sweep before (a 64-bit digest of
them), where its turn ends is too: its forward pass is skipped.

``p_wins_ev``: everyone plays the points-optimal turn of ``solve_macke`` (the
``optimal`` bot), in the last turn too. ``win_vs_ev[s]``: seat ``s`` plays
the win-optimal decisions of the solved table (those of a table where all
play to win, as the ``winopt`` bot would), the other seats play for points;
exact by the same linear evaluation over ``N`` roles (where the win player
sits relative to the mover). With ``N = 2`` these are the two-player
solver's figures.

The cap and the EV turn
-----------------------
A clear at ``cap_units`` or more is banked, as in the two-player solver, so
no turn's result reaches ``R = cap + best series``. The turn DP of a state
runs over the locked totals below ``t*``, the smallest total from which
banking a clear is provably optimal: a new series at ``T`` is worth at most
``p0 v_Macke(T) + (1 - p0) max_{T' > T}(leaf)`` (a tighter bound than the
two-player solver's, exact all the same). The points-optimal turn is
solved with its own (larger) cap; its outcomes at totals of ``R`` or more
(probability below 1e-20) count at ``R``.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

from tutto_sim.core.blocks import chunks
from tutto_sim.core.policyfile import fields_sha256, schema_of, win_table_document, write_compact
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.win_kernel import move_mass, turn_outcomes
from tutto_sim.macke.winprob import (DEFAULT_CAP_UNITS, DEFAULT_FLOOR, DEFAULT_TOL, WIN_FIELDS,
                                     WinSetup, check_win_rules, sweep_label)

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the N-player Macke win solver's kernels"
#: Options within this chance of the best count as equal for the tie-break.
EPS = 1e-12
#: Players the N-player solve takes.
PLAYERS = (2, 3, 4)
#: Default floor (points) at three and four players: the table grows with
#: ((target - floor)/50) ** N (docs/macke-win.md measures what it changes).
DEFAULT_FLOOR_N = -1000
#: Fixed blocks of states (each with its own scratch) for the parallel sweeps.
N_BLOCKS = 8
_EVAL_TOL = 1e-14


# --------------------------------------------------------------------------
# numba kernels: one turn with the tie-break
# --------------------------------------------------------------------------


@njit(cache=True)
def _level(t0, n_all, n_throws, tab, kpref, spref, ak, bankv, mackev, tstar, cv, vt, bt, keep, ret,
           bank, winv):
    """``turn_level`` of ``macke.solver`` with the tie-break (module docstring):
    the first option in the order of preference within ``EPS`` of the best.
    The value of every set-aside state at this level is computed once per
    number of throws left (into ``vt[0]``, a row no throw uses) and each
    keep's successor read from ``ak[u, keep]`` (:func:`_successors`), not each
    keep's value twice from the tables: the same numbers, six times faster."""
    (state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states, win, prob,
     start, slot_off) = tab
    n_states = state_dice.shape[0]
    kv = vt[0]
    for tl in range(1, n_throws + 1):
        for u2 in range(n_states):
            kv[u2] = _keep_value(u2, t0, tl, n_all, tstar, state_dice, state_pts, bankv, cv, bt)
        for u in range(n_states):
            n = n_all - state_dice[u]
            if n == 0 or (tl == n_throws and state_dice[u] != 0):
                continue
            acc = 0.0
            lo = start[n]
            mk = mackev[t0 + state_pts[u]]
            aku = ak[u]
            for ms in range(lo, start[n + 1]):
                k0 = keep_start[ms]
                k1 = keep_start[ms + 1]
                if win[ms]:
                    v = winv
                elif k0 == k1:
                    v = mk
                elif k1 - k0 == 1:
                    v = kv[aku[k0]]
                    keep[tl, slot_off[u] + ms - lo] = 0
                else:
                    top = -1e300
                    for kk in range(k0, k1):
                        w = kv[aku[kk]]
                        if w > top:
                            top = w
                    v = top
                    for r in range(k1 - k0):
                        j = kpref[k0 + r]
                        w = kv[aku[k0 + j]]
                        if w >= top - EPS:
                            v = w
                            keep[tl, slot_off[u] + ms - lo] = j
                            break
                acc += prob[ms] * v
            vt[tl, u] = acc
        if tl == n_throws:
            break
        _returns(t0, tl, n_all, tab, spref, bankv, vt, bt, ret, bank)


@njit(cache=True, inline="always")
def _returns(t0, tl, n_all, tab, spref, bankv, vt, bt, ret, bank):
    """Before a throw with ``tl`` throws left: what stays aside (the first in
    the order of preference within ``EPS`` of the best) and whether to bank."""
    state_dice, state_pts, sub_start, sub_states = tab[0], tab[1], tab[3], tab[4]
    for u in range(state_dice.shape[0]):
        if state_dice[u] == n_all:
            continue
        s0 = sub_start[u]
        top = -1e300
        for j in range(sub_start[u + 1] - s0):
            w = vt[tl, sub_states[s0 + j]]
            if w > top:
                top = w
        for r in range(sub_start[u + 1] - s0):
            j = spref[s0 + r]
            w = vt[tl, sub_states[s0 + j]]
            if w >= top - EPS:
                ret[tl, u] = j
                break
        b = bankv[t0 + state_pts[u]] >= w - EPS
        bank[tl, u] = b
        bt[tl, u] = bankv[t0 + state_pts[u]] if b else w


@njit(cache=True, inline="always")
def _keep_value(u2, t0, tl, n_all, tstar, state_dice, state_pts, bankv, cv, bt):
    t = t0 + state_pts[u2]
    if state_dice[u2] == n_all:
        return cv[t] if t < tstar else bankv[t]
    if tl == 1:
        return bankv[t]
    return bt[tl - 1, u2]  # already the chosen of banking and throwing on


@njit(cache=True)
def _tstar(bankv, mackev, win_max, p0, hard_cap):
    """Smallest ``t* >= 1`` from which banking a clear is provably optimal (module docstring)."""
    top = win_max
    for t in range(bankv.shape[0] - 1, hard_cap - 1, -1):
        top = max(top, bankv[t], mackev[t])
    for t in range(hard_cap - 1, 0, -1):
        if bankv[t] < p0 * mackev[t] + (1.0 - p0) * top:
            return t + 1
        top = max(top, bankv[t], mackev[t])
    return 1


@njit(cache=True)
def _one_turn(n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max, hard_cap, bankv, mackev,
              cv, cbank, vt, bt, keep, ret, bank, mass, bank_mass, macke_mass):
    """The mover's best turn for the leaves ``bankv``/``mackev`` (five 1s: 1),
    with the tie-break; fills ``bank_mass``/``macke_mass`` (where it ends) and
    returns ``(its value, chance of five 1s, t*)``."""
    value, tstar = _turn_programme(n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max,
                                   hard_cap, bankv, mackev, cv, cbank, vt, bt, keep, ret, bank)
    p_win = turn_outcomes(tstar, n_all, n_throws, tab, empty, keep, ret, bank, cbank, mass,
                          bank_mass, macke_mass)
    return value, p_win, tstar


@njit(cache=True)
def _turn_programme(n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max, hard_cap, bankv,
                    mackev, cv, cbank, vt, bt, keep, ret, bank):
    """The decisions of :func:`_one_turn` (rows ``0 .. t* - 1``): ``(value, t*)``."""
    tstar = _tstar(bankv, mackev, win_max, p0, hard_cap)
    for t0 in range(tstar - 1, -1, -1):
        _level(t0, n_all, n_throws, tab, kpref, spref, ak, bankv, mackev, tstar, cv, vt, bt,
               keep[t0], ret[t0], bank[t0], 1.0)
        series = vt[n_throws, empty]
        cbank[t0] = bankv[t0] >= series - EPS
        cv[t0] = bankv[t0] if cbank[t0] else series
    return vt[n_throws, empty], tstar


@njit(cache=True)
def _outcomes(tstar, n_all, n_throws, tab, ak, empty, keep, ret, bank, cbank, mass, bank_mass,
              macke_mass, acc, touched):
    """Where the turn of the decisions in ``keep``/``ret``/``bank``/``cbank``
    ends (``win_kernel.turn_outcomes``, the forward pass): for each state a
    throw reaches, the chances of its throws are first added up by the state
    they lead to (``acc``, the states in ``touched``), then moved on once per
    state: the same sums in another order."""
    (state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states, win, prob,
     start, slot_off) = tab
    n_states = state_dice.shape[0]
    bank_mass[:] = 0.0
    macke_mass[:] = 0.0
    mass[:tstar] = 0.0
    mass[0, n_throws, empty] = 1.0
    acc[:] = 0.0
    p_win = 0.0
    for t0 in range(tstar):
        if mass[t0, n_throws, empty] == 0.0:
            continue
        for tl in range(n_throws, 0, -1):
            for u in range(n_states):
                m = mass[t0, tl, u]
                if m == 0.0:
                    continue
                s = u if tl == n_throws else sub_states[sub_start[u] + ret[t0, tl, u]]
                n = n_all - state_dice[s]
                lo = start[n]
                aks = ak[s]
                off = slot_off[s] - lo
                pw = 0.0
                pm = 0.0
                nt = 0
                for ms in range(lo, start[n + 1]):
                    p = prob[ms]
                    k0 = keep_start[ms]
                    if win[ms]:
                        pw += p
                    elif k0 == keep_start[ms + 1]:
                        pm += p
                    else:
                        u2 = aks[k0 + keep[t0, tl, off + ms]]
                        if acc[u2] == 0.0:
                            touched[nt] = u2
                            nt += 1
                        acc[u2] += p
                p_win += m * pw
                macke_mass[t0 + state_pts[s]] += m * pm
                for x in range(nt):
                    u2 = touched[x]
                    p = m * acc[u2]
                    acc[u2] = 0.0
                    move_mass(p, u2, t0, tl, t0, tstar, n_all, n_throws, empty, state_dice,
                              state_pts, bank, cbank, mass, bank_mass)
    return p_win


_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _mix(x, v):
    x = (x ^ v) * _MIX
    return x ^ (x >> np.uint64(29))


@njit(cache=True)
def _decisions_hash(tstar, keep, ret, bank, cbank):
    """A 64-bit digest of a turn's decisions (rows below ``t*``, which is in it
    too): equal digests, the same decisions, but for a chance of about 2**-64."""
    x = _mix(np.uint64(0), np.uint64(tstar))
    flat = keep[:tstar].reshape(-1)
    n8 = flat.shape[0] // 8 * 8
    for v in flat[:n8].view(np.uint64):
        x = _mix(x, v)
    for b in range(n8, flat.shape[0]):
        x = _mix(x, np.uint64(flat[b] + 128))
    for t0 in range(tstar):
        x = _mix(x, np.uint64(cbank[t0]))
        for tl in range(ret.shape[1]):
            for u in range(ret.shape[2]):
                x = _mix(x, np.uint64(ret[t0, tl, u] * 2 + bank[t0, tl, u] + 256))
    return x


@njit(cache=True, inline="always")
def _signed(t, min_u):
    return t if t >= min_u else -t


# --------------------------------------------------------------------------
# numba kernels: the end phase (stages)
# --------------------------------------------------------------------------


@njit(cache=True)
def _stage_vec(r, j, N, n, dm, k, e_idx, nxt, out):
    """``out[:N - j + 1]``: the stage-``j`` vector when player ``j`` (key
    ``dm, k, e_idx``) ends his last turn with result ``r``."""
    delta = r - dm
    if j == N - 1:
        if delta > 0:
            out[0], out[1] = 0.0, 1.0
        elif delta == 0:
            out[0], out[1] = k / (k + 1.0), 1.0 / (k + 1.0)
        else:
            out[0], out[1] = 1.0, 0.0
        return
    base = 2 * n - 1
    e1 = e_idx % base - (n - 1)
    rest = e_idx // base
    e2 = 0
    mul = 1
    for _ in range(N - 2 - j):
        e2 += (rest % base - (n - 1) - e1 + (n - 1)) * mul
        rest //= base
        mul *= base
    if delta > 0:
        row = nxt[r + e1, 0, e2]
        out[0] = 0.0
        out[1] = row[0]
    elif delta == 0:
        row = nxt[dm + e1, k, e2]
        out[0] = row[0] * k / (k + 1.0)
        out[1] = row[0] / (k + 1.0)
    else:
        row = nxt[dm + e1, k - 1, e2]
        out[0] = row[0]
        out[1] = 0.0
    for c in range(1, N - j):
        out[c + 1] = row[c]


@njit(cache=True)
def _key_valid(j, N, n, dm, e_idx):
    """Every later player below ``M`` (``dm + e_m >= 1``) and all scores within
    ``n`` of each other: other keys are never read."""
    base = 2 * n - 1
    lo, hi = 0, 0
    for _ in range(N - 1 - j):
        em = e_idx % base - (n - 1)
        if dm + em < 1:
            return False
        lo, hi = min(lo, em), max(hi, em)
        e_idx //= base
    return hi - lo <= n - 1


@njit(cache=True, parallel=True)
def _stage(j, N, n, dp, min_u, subtract, reach, p_out, nxt_dec, nxt_val, nxt_val2, ev_bank,
           ev_macke, ev_win, n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max, hard_cap, sf,
           si, mass, out, out2, lo, hi):
    """Fill stage ``j``'s table ``out[dm, k - 1, e, :]``. ``dp``: player ``j``
    plays the best turn against ``nxt_dec`` (else the points turn of
    ``ev_*``); the values come from ``nxt_val`` (and, into ``out2`` when it
    has the shape of ``out``, from ``nxt_val2``: the same turns, other players
    after him). ``reach``: no result reaches it; ``p_out``: the chance of five
    1s of a player who cannot reach ``M``. Only the keys ``lo <= kk < hi``
    (``kk = (dm * n_k + k - 1) * n_e + e``): the caller runs the table in
    chunks, to show how far it is."""
    n_dm, n_k, n_e, n_c = out.shape
    total = min(hi, n_dm * n_k * n_e)
    second = out2.shape[0] == n_dm
    nb = sf[0].shape[0]
    for blk in prange(nb):
        bankv, mackev, cv, vt, bt = sf[0][blk], sf[1][blk], sf[2][blk], sf[3][blk], sf[4][blk]
        bank_mass, macke_mass, vec = sf[5][blk], sf[6][blk], sf[7][blk]
        cbank, keep, ret, bank = si[0][blk], si[1][blk], si[2][blk], si[3][blk]
        for kk in range(lo + blk, total, nb):
            dm = kk // (n_k * n_e)
            k = (kk // n_e) % n_k + 1
            e = kk % n_e
            for h in range(2 if second else 1):
                (out2 if h else out)[dm, k - 1, e, :] = 0.0
            if dm == 0 or not _key_valid(j, N, n, dm, e):
                continue
            if dm >= reach:  # cannot reach M: nothing but five 1s changes
                for h in range(2 if second else 1):
                    o = out2[dm, k - 1, e] if h else out[dm, k - 1, e]
                    _stage_vec(-1, j, N, n, dm, k, e, nxt_val2 if h else nxt_val, vec)
                    for c in range(n_c):
                        o[c] = (1.0 - p_out) * vec[c]
                    o[1] += p_out
                continue
            if dp:
                for t in range(bankv.shape[0]):
                    _stage_vec(_signed(t, min_u), j, N, n, dm, k, e, nxt_dec, vec)
                    bankv[t] = vec[1]
                    _stage_vec(-t if subtract else 0, j, N, n, dm, k, e, nxt_dec, vec)
                    mackev[t] = vec[1]
                _, p_win, _ = _one_turn(n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max,
                                        hard_cap, bankv, mackev, cv, cbank, vt, bt, keep, ret,
                                        bank, mass[blk], bank_mass, macke_mass)
            else:
                bank_mass[:] = ev_bank
                macke_mass[:] = ev_macke
                p_win = ev_win
            for h in range(2 if second else 1):
                o = out2[dm, k - 1, e] if h else out[dm, k - 1, e]
                nv = nxt_val2 if h else nxt_val
                o[1] += p_win
                for t in range(bank_mass.shape[0]):
                    for side in range(2):
                        p = bank_mass[t] if side == 0 else macke_mass[t]
                        if p == 0.0:
                            continue
                        r = _signed(t, min_u) if side == 0 else (-t if subtract else 0)
                        _stage_vec(r, j, N, n, dm, k, e, nv, vec)
                        for c in range(n_c):
                            o[c] += p * vec[c]


@njit(cache=True)
def _eval_level(t0, n_all, n_throws, tab, ak, keep, ret, bank, tstar, bankvec, short, cvv, vv,
                bvv, n_c):
    """Every player's chance at locked total ``t0`` under the decisions ``_level``
    just made there (rows ``keep``/``ret``/``bank``): ``vv[tl, u, :]``, ``bvv``
    as ``vt``/``bt``, from ``bankvec[T]`` (the vector of ending the turn at
    ``T``), ``short`` (a Macke: short of ``M``), five 1s (the mover alone,
    component 1 of each block of ``n_c``) and ``cvv[T]`` (after a clear). The
    backward twin of the forward pass: the same sums in another order."""
    (state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states, win, prob,
     start, slot_off) = tab
    n_states = state_dice.shape[0]
    C = vv.shape[2]
    for tl in range(1, n_throws + 1):
        for u in range(n_states):
            n = n_all - state_dice[u]
            if n == 0 or (tl == n_throws and state_dice[u] != 0):
                continue
            acc = vv[tl, u]
            acc[:] = 0.0
            p_win = 0.0
            p_short = 0.0
            lo = start[n]
            for ms in range(lo, start[n + 1]):
                k0 = keep_start[ms]
                p = prob[ms]
                if win[ms]:
                    p_win += p
                    continue
                if k0 == keep_start[ms + 1]:
                    p_short += p
                    continue
                u2 = ak[u, k0 + keep[tl, slot_off[u] + ms - lo]]
                t = t0 + state_pts[u2]
                if state_dice[u2] == n_all:
                    row = cvv[t] if t < tstar else bankvec[t]
                elif tl == 1:
                    row = bankvec[t]
                else:
                    row = bvv[tl - 1, u2]
                for c in range(C):
                    acc[c] += p * row[c]
            for c in range(C):
                acc[c] += p_short * short[c]
            for c in range(1, C, n_c):
                acc[c] += p_win
        if tl == n_throws:
            break
        for u in range(n_states):
            if state_dice[u] == n_all:
                continue
            if bank[tl, u]:
                bvv[tl, u, :] = bankvec[t0 + state_pts[u]]
            else:
                bvv[tl, u, :] = vv[tl, sub_states[sub_start[u] + ret[tl, u]]]


@njit(cache=True)
def _levels(top, n_all, n_throws, tab, empty, kpref, spref, ak, bankv, mackev, cv, bankvec, short,
            cvv, vt, bt, vv, bvv, keep, ret, bank, n_c, tstar=-1):
    """Locked totals ``top - 1`` down to 0 of a last turn (clears at
    ``tstar``, default ``top``, or more banked): the mover's programme
    (:func:`_level`), every player's chance under it (:func:`_eval_level`)
    and, after a clear, bank or throw on (``cv``, ``cvv``)."""
    tstar = top if tstar < 0 else tstar
    for t0 in range(top - 1, -1, -1):
        _level(t0, n_all, n_throws, tab, kpref, spref, ak, bankv, mackev, tstar, cv, vt, bt, keep,
               ret, bank, 1.0)
        _eval_level(t0, n_all, n_throws, tab, ak, keep, ret, bank, tstar, bankvec, short, cvv, vv,
                    bvv, n_c)
        series = vt[n_throws, empty]
        if bankv[t0] >= series - EPS:
            cv[t0] = bankv[t0]
            cvv[t0, :] = bankvec[t0]
        else:
            cv[t0] = series
            cvv[t0, :] = vv[n_throws, empty]


@njit(cache=True, inline="always")
def _stage_leaf(r, j, N, n, dm, k, e, nxt_val, nxt_val2, n_c, two, tmp, dst):
    """``dst``: the stage vector of result ``r`` from ``nxt_val`` (and, with
    ``two``, from ``nxt_val2`` into ``dst[n_c:]``)."""
    _stage_vec(r, j, N, n, dm, k, e, nxt_val, tmp)
    for c in range(n_c):
        dst[c] = tmp[c]
    if two:
        _stage_vec(r, j, N, n, dm, k, e, nxt_val2, tmp)
        for c in range(n_c):
            dst[n_c + c] = tmp[c]


@njit(cache=True)
def _family_key(j, N, n, f, m, n_dm):
    """Key ``m`` (``0 <= m < 2n - 1``; every ``m`` at the last stage) of family
    ``f`` of stage ``j``: ``(dm, k, e_idx)``, ``dm = 0`` where it is no key."""
    base = 2 * n - 1
    k = f % j + 1
    if j == N - 1:
        return m + 1, k, 0
    rest = f // j
    n_rel = base ** (N - 2 - j)
    rel = rest % n_rel
    d1 = rest // n_rel + 1
    dm = d1 - (n - 1) + m
    e1 = d1 - dm
    if dm < 1 or dm >= n_dm:
        return 0, k, 0
    e = e1 + n - 1
    mul = base
    for _ in range(N - 2 - j):
        em = e1 + rel % base - (n - 1) + n - 1
        if em < 0 or em >= base:
            return 0, k, 0
        e += em * mul
        rel //= base
        mul *= base
    return dm, k, e


@njit(cache=True, parallel=True)
def _stage_win(j, N, n, min_u, reach, p_out, nxt_dec, nxt_val, nxt_val2, n_all, n_throws, tab,
               empty, kpref, spref, ak, p0, win_max, hard_cap, sf, si, fs, out, out2, lo, hi):
    """Stage ``j``'s table, player ``j`` playing to win: what :func:`_stage`
    gives with ``dp``, by families of keys. The keys of one family share the
    leader's score ``M`` and the later players' scores and differ in player
    ``j``'s own; above the turn's first levels (locked totals of at least the
    minimum score) the turn of each is the same programme over his locked
    score, so it is solved once for the family (bit for bit what each key's
    own programme computes there) and each key solves only the locked totals
    below the minimum; a key whose ``t*`` does not fit the family's is solved
    whole. The other players' chances come from evaluating the decisions
    backwards (:func:`_eval_level`) instead of the forward pass. Families
    ``lo <= f < hi`` (:meth:`_Setup.families`)."""
    n_dm, n_k, n_e, n_c = out.shape
    two = out2.shape[0] == n_dm
    C = n_c * (2 if two else 1)
    n_keys = n_dm - 1 if j == N - 1 else 2 * n - 1
    state_pts = tab[1]
    smax = state_pts.max()
    nb = sf[0].shape[0]
    for blk in prange(nb):
        bankv, zeros, cv, vt, bt = sf[0][blk], sf[1][blk], sf[2][blk], sf[3][blk], sf[4][blk]
        tmp = sf[7][blk]
        keep, ret, bank = si[1][blk][0], si[2][blk][0], si[3][blk][0]
        own_s, zeros_s, cvs, vec_s, cvv_s = fs[0][blk], fs[1][blk], fs[2][blk], fs[3][blk], fs[4][blk]
        bankvec, cvv, vv, bvv, short, res = (fs[5][blk], fs[6][blk], fs[7][blk], fs[8][blk],
                                             fs[9][blk], fs[10][blk])
        tst = fs[11][blk]
        zeros[:] = 0.0
        zeros_s[:] = 0.0
        for f in range(lo + blk, hi, nb):
            # each key's t*, and the family's programme over the locked score
            ustar, dmax, dm_r, k_r, e_r = 0, -1, 0, 0, 0
            for m in range(n_keys):
                tst[m] = 0
                dm, k, e = _family_key(j, N, n, f, m, n_dm)
                if dm == 0 or dm >= reach or not _key_valid(j, N, n, dm, e):
                    continue
                for t in range(bankv.shape[0]):
                    _stage_vec(_signed(t, min_u), j, N, n, dm, k, e, nxt_dec, tmp)
                    bankv[t] = tmp[1]
                ts = _tstar(bankv, zeros, win_max, p0, hard_cap)
                tst[m] = ts
                if ts <= min_u:
                    continue
                if dmax < 0:
                    ustar = ts - dm
                if ts - dm == ustar:
                    dmax, dm_r, k_r, e_r = dm, dm, k, e
            if dmax >= 0:
                u_lo = min_u - dmax
                i_top = ustar - 1 - u_lo
                for i in range(min(own_s.shape[0], i_top + 2 + smax)):
                    r = i + u_lo + dm_r
                    _stage_vec(r, j, N, n, dm_r, k_r, e_r, nxt_dec, tmp)
                    own_s[i] = tmp[1]
                    _stage_leaf(r, j, N, n, dm_r, k_r, e_r, nxt_val, nxt_val2, n_c, two, tmp,
                                vec_s[i])
                _stage_leaf(-1, j, N, n, dm_r, k_r, e_r, nxt_val, nxt_val2, n_c, two, tmp, short)
                _levels(i_top + 1, n_all, n_throws, tab, empty, kpref, spref, ak, own_s, zeros_s,
                        cvs, vec_s, short, cvv_s, vt, bt, vv, bvv, keep, ret, bank, n_c)
            # each key: its locked totals below the family's (all, if it has none)
            for m in range(n_keys):
                dm, k, e = _family_key(j, N, n, f, m, n_dm)
                if dm == 0 or not _key_valid(j, N, n, dm, e):
                    continue
                if dm >= reach:  # cannot reach M: nothing but five 1s changes
                    _stage_leaf(-1, j, N, n, dm, k, e, nxt_val, nxt_val2, n_c, two, tmp, res)
                    for c in range(C):
                        res[c] *= 1.0 - p_out
                    for c in range(1, C, n_c):
                        res[c] += p_out
                else:
                    ts = tst[m]
                    shared = dmax >= 0 and ts > min_u and ts - dm == ustar and dm <= dmax
                    ptop = min_u if shared else ts
                    top = min(bankv.shape[0], ptop + smax + 1)
                    for t in range(top):
                        r = _signed(t, min_u)
                        _stage_vec(r, j, N, n, dm, k, e, nxt_dec, tmp)
                        bankv[t] = tmp[1]
                        _stage_leaf(r, j, N, n, dm, k, e, nxt_val, nxt_val2, n_c, two, tmp,
                                    bankvec[t])
                    _stage_leaf(-1, j, N, n, dm, k, e, nxt_val, nxt_val2, n_c, two, tmp, short)
                    if shared:
                        for t in range(ptop, ts):
                            cv[t] = cvs[t - dm - u_lo]
                            cvv[t, :] = cvv_s[t - dm - u_lo]
                    _levels(ptop, n_all, n_throws, tab, empty, kpref, spref, ak, bankv, zeros, cv,
                            bankvec, short, cvv, vt, bt, vv, bvv, keep, ret, bank, n_c, ts)
                    res[:C] = vv[n_throws, empty]
                for c in range(n_c):
                    out[dm, k - 1, e, c] = res[c]
                    if two:
                        out2[dm, k - 1, e, c] = res[n_c + c]


@njit(cache=True, parallel=True)
def _end_table(N, n, floor_u, target_u, stage1, out):
    """``out[o, s - G, :]``: the chances when the mover ends at ``s >= G`` and
    the others hold the scores of ``o`` (module docstring), from stage 1."""
    n_o, n_s, _ = out.shape
    base = 2 * n - 1
    for o in prange(n_o):
        x1 = o // n ** (N - 2)
        e = 0
        mul = 1
        for m in range(2, N):  # e_2 least significant
            xm = (o // n ** (N - 1 - m)) % n
            e += (x1 - xm + n - 1) * mul
            mul *= base
        for t in range(n_s):
            out[o, t] = stage1[target_u + t - (x1 + floor_u), 0, e]


# --------------------------------------------------------------------------
# numba kernels: the main phase
# --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _mover_leaf(s, o, n, floor_u, target_u, N, V, E):
    if s >= target_u:
        return E[o, s - target_u, 0]
    return V[o * n + max(s, floor_u) - floor_u, N - 1]


@njit(cache=True, parallel=True)
def _sweep(N, n, floor_u, target_u, min_u, subtract, V, E, E2, n_all, n_throws, tab, empty, kpref,
           spref, ak, p0, win_max, hard_cap, sf, si, mass, w_new, q, c, c2, tstars, digests, lo,
           hi):
    """One sweep: every state's best turn against ``V`` (mover's value in
    ``w_new``), where it ends: ``q[i, s - F]`` below the target, ``c[i]`` /
    ``c2[i]`` the chances through the end phase of ``E`` / ``E2`` and five 1s.
    A state whose decisions have the digest of the last sweep's
    (``digests[i]``; 0: none kept) keeps its ``q[i]``, ``c[i]``, ``c2[i]``
    (they depend on nothing else): no forward pass; the others' forward pass
    is :func:`_outcomes` (``bt[0]``, a row no throw uses, adds up its
    chances). Only the states ``lo <= i < hi`` (the caller sweeps in chunks)."""
    n_states = min(hi, V.shape[0])
    n_o = n ** (N - 1)
    nb = sf[0].shape[0]
    for blk in prange(nb):
        bankv, mackev, cv, vt, bt = sf[0][blk], sf[1][blk], sf[2][blk], sf[3][blk], sf[4][blk]
        bank_mass, macke_mass = sf[5][blk], sf[6][blk]
        cbank, keep, ret, bank = si[0][blk], si[1][blk], si[2][blk], si[3][blk]
        for i in range(lo + blk, n_states, nb):
            a = i // n_o + floor_u
            o = i % n_o
            for t in range(bankv.shape[0]):
                bankv[t] = _mover_leaf(a + _signed(t, min_u), o, n, floor_u, target_u, N, V, E)
                mackev[t] = _mover_leaf(a - t if subtract else a, o, n, floor_u, target_u, N, V, E)
            w, ts = _turn_programme(n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max,
                                    hard_cap, bankv, mackev, cv, cbank, vt, bt, keep, ret, bank)
            w_new[i] = w
            tstars[i] = ts
            if digests.shape[0]:
                h = _decisions_hash(ts, keep, ret, bank, cbank)
                if h == digests[i] and h != 0:
                    continue
                digests[i] = h
                p_win = _outcomes(ts, n_all, n_throws, tab, ak, empty, keep, ret, bank, cbank,
                                  mass[blk], bank_mass, macke_mass, bt[0], si[4][blk])
            else:  # the reference: the forward pass as first written
                p_win = turn_outcomes(ts, n_all, n_throws, tab, empty, keep, ret, bank, cbank,
                                      mass[blk], bank_mass, macke_mass)
            _settle(a, o, target_u, min_u, subtract, bank_mass, macke_mass, p_win, E, E2, q[i],
                    c[i], c2[i], True)


@njit(cache=True)
def _settle(a, o, target_u, min_u, subtract, bank_mass, macke_mass, p_win, E, E2, q, c, c2,
            both):
    """Where a turn from score ``a`` (others ``o``) ends: ``q[s - F]`` below the
    target (``s`` held at the floor), ``c``/``c2`` through the end phase ``E``/``E2``."""
    floor_u = target_u - q.shape[0]
    q[:] = 0.0
    c[:] = 0.0
    c2[:] = 0.0
    c[0] = p_win
    c2[0] = p_win
    for t in range(bank_mass.shape[0]):
        for side in range(2):
            p = bank_mass[t] if side == 0 else macke_mass[t]
            if p == 0.0:
                continue
            s = a + _signed(t, min_u) if side == 0 else (a - t if subtract else a)
            if s >= target_u:
                for k in range(c.shape[0]):
                    c[k] += p * E[o, s - target_u, k]
                    if both:
                        c2[k] += p * E2[o, s - target_u, k]
            else:
                q[max(s, floor_u) - floor_u] += p


@njit(cache=True, parallel=True)
def _settle_ev(n, floor_u, target_u, min_u, subtract, bank_mass, macke_mass, p_win, E, q, q_tmp, c):
    """The points turn at every state: ``q[a - F, s - F]`` and ``c[i]`` (end
    phase ``E``); ``q_tmp`` (like ``q``) takes the repeats."""
    n_states, N = c.shape
    n_o = n ** (N - 1)
    for a in prange(n):
        for o in range(n_o):
            i = a * n_o + o
            _settle(a + floor_u, o, target_u, min_u, subtract, bank_mass, macke_mass, p_win,
                    E, E, q[a] if o == 0 else q_tmp[a], c[i], c[i], False)


@njit(cache=True, parallel=True)
def _evaluate_step(n, q_win, q_ev, c, role_ev, V, out, delta):
    """One Jacobi step of ``V_r[i] = c_r[i] + sum_s q_r[i, s] rot(V_{r-1}[next])``
    over roles ``r`` (the win player ``r`` seats after the mover); role ``r``'s
    mover plays the points turn (``q_ev[a]``) where ``role_ev[r]``, else
    ``q_win[i]``. Returns the largest change."""
    R, n_states, N = c.shape
    n_o = n ** (N - 1)
    for blk in prange(N_BLOCKS):
        d = 0.0
        for idx in range(blk, R * n_states, N_BLOCKS):
            r = idx // n_states
            i = idx % n_states
            rp = (r - 1) % R
            qrow = q_ev[i // n_o] if role_ev[r] else q_win[i]
            base = (i % n_o) * n
            for k in range(N):
                acc = c[r, i, k]
                km = (k - 1) % N
                for s in range(n):
                    p = qrow[s]
                    if p != 0.0:
                        acc += p * V[rp, base + s, km]
                d = max(d, abs(acc - V[r, i, k]))
                out[r, i, k] = acc
        delta[blk] = d
    return delta.max()


# --------------------------------------------------------------------------
# the solve
# --------------------------------------------------------------------------


def _evaluate(q_win, q_ev, c, role_ev, start, n, tol=_EVAL_TOL, max_iter=1_000_000):
    v, w, d = start.copy(), np.empty_like(start), np.zeros(N_BLOCKS)
    for it in range(max_iter):
        delta = _evaluate_step(n, q_win, q_ev, c, role_ev, v, w, d)
        v, w = w, v
        if delta <= tol:
            return v
    raise RuntimeError(f"policy evaluation did not converge ({delta:.2e} after {max_iter} steps)")


def _preferences(m):
    """Orders of preference of the keeps of each throw and of what stays aside
    before a throw: the most points, then the fewest dice (the tie-break)."""
    kpref = np.zeros(len(m.keep_states), dtype=np.int64)
    for ms in range(len(m.keep_start) - 1):
        k0, k1 = m.keep_start[ms], m.keep_start[ms + 1]
        ks = m.keep_states[k0:k1]
        kpref[k0:k1] = sorted(range(k1 - k0), key=lambda j: (-m.state_pts[ks[j]],
                                                               m.state_dice[ks[j]], j))
    spref = np.zeros(len(m.sub_states), dtype=np.int64)
    for u in range(len(m.sub_start) - 1):
        s0, s1 = m.sub_start[u], m.sub_start[u + 1]
        ss = m.sub_states[s0:s1]
        spref[s0:s1] = sorted(range(s1 - s0), key=lambda j: (-m.state_pts[ss[j]],
                                                               m.state_dice[ss[j]], j))
    return kpref, spref


def _successors(m, start) -> np.ndarray:
    """``ak[u, k]``: the set-aside state after keeping keep ``k`` (an index of
    ``keep_states``) from state ``u`` (0 where ``u`` never faces that throw)."""
    ak = np.zeros((len(m.state_dice), len(m.keep_states)), dtype=np.int64)
    n_all = int(m.rules.n_dice)
    for u, d in enumerate(m.state_dice):
        if d < n_all:
            n = n_all - int(d)
            k0, k1 = m.keep_start[start[n]], m.keep_start[start[n + 1]]
            ak[u, k0:k1] = m.add[u, m.keep_states[k0:k1]]
    return ak


class _Setup:
    """Tables, scalars and scratch of one rule set and table size (units of 50)."""

    def __init__(self, rules: MackeRules, players: int, floor: int, cap_units: int,
                 reference: bool = False):
        two = WinSetup(rules, floor, cap_units)
        self.two = two
        self.N = players
        self.m, self.tab, self.empty = two.m, two.tab, int(two.m.empty)
        self.n_all, self.L = two.n_all, two.L
        self.min_u, self.subtract = two.min_u, two.subtract
        self.floor_u, self.target_u, self.n = two.floor_u, two.target_u, two.n
        self.hc, self.n_t, self.p0 = two.hc, two.n_t, two.p0
        self.win_max = 1.0 if bool(np.any(two.m.win)) else 0.0
        self.kpref, self.spref = _preferences(two.m)
        self.reach = self.n_t  # no result of a capped turn reaches n_t
        self.by_family = not reference  # the reference: every key of the end whole
        self.ak = _successors(two.m, self.tab[9])

    def scratch(self):
        ns, L1, nb, nt, hc = len(self.m.state_dice), self.L + 1, N_BLOCKS, self.n_t, self.hc
        sf = (np.zeros((nb, nt)), np.zeros((nb, nt)), np.zeros((nb, hc)), np.zeros((nb, L1, ns)),
              np.zeros((nb, L1, ns)), np.zeros((nb, nt)), np.zeros((nb, nt)),
              np.zeros((nb, self.N + 1)))
        si = (np.zeros((nb, hc), dtype=np.bool_),
              np.zeros((nb, hc, L1, self.two.n_slots), np.int8),
              np.zeros((nb, hc, L1, ns), np.int8), np.zeros((nb, hc, L1, ns), np.bool_),
              np.zeros((nb, ns), np.int64))
        mass = np.zeros((nb, hc, L1, ns))
        return sf, si, mass

    def turn_args(self):
        return (self.n_all, self.L, self.tab, self.empty, self.kpref, self.spref, self.ak,
                self.p0, self.win_max, self.hc)

    def ev_turn(self):
        """The points turn's outcomes (``solve_macke``), totals from ``n_t`` on at ``n_t - 1``."""
        bank, macke, p_win = self.two.ev_outcomes()
        out = []
        for x in (bank, macke):
            y = np.zeros(self.n_t)
            k = min(len(x), self.n_t)
            y[:k] = x[:k]
            y[-1] += x[k:].sum()
            out.append(y)
        return out[0], out[1], float(p_win)

    def out_of_reach(self, scratch) -> float:
        """The chance of five 1s of a player whom nothing else helps (0 without instant-win)."""
        if not self.win_max:
            return 0.0
        sf, si, mass = scratch
        sf[0][0][:] = 0.0
        sf[1][0][:] = 0.0
        _, p_win, _ = _one_turn(*self.turn_args(), sf[0][0], sf[1][0], sf[2][0], si[0][0],
                                sf[3][0], sf[4][0], si[1][0], si[2][0], si[3][0], mass[0],
                                sf[5][0], sf[6][0])
        return float(p_win)

    def stage_shape(self, j: int) -> tuple:
        n = self.n
        return (self.n_t + j * n + 1, j, (2 * n - 1) ** (self.N - 1 - j), self.N - j + 1)

    def families(self, j: int) -> int:
        """Stage ``j``'s families of keys (:func:`_stage_win`): one per number
        tied at ``M`` and, before the last stage, per ``M`` minus the next
        player's score and the later players' scores relative to his."""
        if j == self.N - 1:
            return j
        n = self.n
        return j * (self.stage_shape(j)[0] + n - 2) * (2 * n - 1) ** (self.N - 2 - j)

    def family_scratch(self, j: int, two: bool):
        """Per block: the family's leaves and values over the locked score, a
        key's vectors, the backward values, each key's ``t*``."""
        nb, nt, hc, ns, L1 = N_BLOCKS, self.n_t, self.hc, len(self.m.state_dice), self.L + 1
        n_dm = self.stage_shape(j)[0]
        C = (self.N - j + 1) * (2 if two else 1)
        S = nt + n_dm + 1
        n_keys = n_dm - 1 if j == self.N - 1 else 2 * self.n - 1
        return (np.zeros((nb, S)), np.zeros((nb, S)), np.zeros((nb, S)), np.zeros((nb, S, C)),
                np.zeros((nb, S, C)), np.zeros((nb, nt, C)), np.zeros((nb, hc, C)),
                np.zeros((nb, L1, ns, C)), np.zeros((nb, L1, ns, C)), np.zeros((nb, C)),
                np.zeros((nb, C)), np.zeros((nb, n_keys), dtype=np.int64))

    def stage_keys(self, j: int) -> int:
        """The positions of stage ``j``'s table (what :meth:`stage` advances by)."""
        return int(np.prod(self.stage_shape(j)[:3]))

    def stage(self, j, dp, dec, nxt, scratch, ev, p_out, nxt2=None, advance=None):
        """Stage ``j``'s table: player ``j`` plays to win against ``dec`` (the
        next stage's table of everyone playing to win; default ``nxt``) where
        ``dp``, else for points; the values from ``nxt`` (the next stage as
        played). With ``nxt2`` also the table of the same turns followed by
        ``nxt2``: ``(table, table2)``. Solved in chunks of positions, each
        told to ``advance(k)``."""
        sf, si, mass = scratch
        dummy = np.zeros((1, 1, 1, 1))
        nxt = dummy if nxt is None else nxt
        dec = nxt if dec is None else dec
        tab = np.zeros(self.stage_shape(j))
        tab2 = np.zeros(self.stage_shape(j)) if nxt2 is not None or (
            dp and j == self.N - 1) else dummy
        nxt2 = nxt if nxt2 is None else nxt2
        if dp and self.by_family:
            fs = self.family_scratch(j, tab2.shape[0] == tab.shape[0])
            keys, fams = self.stage_keys(j), self.families(j)
            for lo, hi in chunks(fams):
                _stage_win(j, self.N, self.n, self.min_u, self.reach, p_out, dec, nxt, nxt2,
                           *self.turn_args(), sf, si, fs, tab, tab2, lo, hi)
                if advance is not None:
                    advance(keys * hi // fams - keys * lo // fams)
            return tab, tab2
        for lo, hi in chunks(self.stage_keys(j)):
            _stage(j, self.N, self.n, bool(dp), self.min_u, self.subtract, self.reach,
                   p_out if dp else ev[2], dec, nxt, nxt2, ev[0], ev[1], ev[2], *self.turn_args(),
                   sf, si, mass, tab, tab2, lo, hi)
            if advance is not None:
                advance(hi - lo)
        return tab, tab2

    def stages(self, dp, scratch, ev, p_out, advance, evs=None):
        """Stage tables ``j = N-1 .. 1`` (list index ``j``; ``N`` holds None), all
        players playing to win (``dp``) or all for points. With ``evs`` (the
        points tables) also, for each ``j``, the table of player ``j`` playing
        to win and everyone after him for points: ``(tables, those)``.
        ``advance(k)`` hears the positions solved (:meth:`stages_keys` in all)."""
        out, mixed = [None] * (self.N + 1), [None] * (self.N + 1)
        for j in range(self.N - 1, 0, -1):
            nxt2 = evs[j + 1] if evs is not None and j < self.N - 1 else None
            out[j], mixed[j] = self.stage(j, dp, None, out[j + 1], scratch, ev, p_out, nxt2,
                                          advance)
        return (out, mixed) if evs is not None else out

    def stages_keys(self) -> int:
        """The positions of all stages (:meth:`stages`)."""
        return sum(self.stage_keys(j) for j in range(1, self.N))

    def mixed_stage1(self, r, mixed, scratch, ev, p_out):
        """Stage 1 when only player ``r`` (``r`` seats after the finisher) plays
        to win (``mixed[r]``, from :meth:`stages`), the rest for points."""
        tab = mixed[r]
        for j in range(r - 1, 0, -1):
            tab = self.stage(j, False, None, tab, scratch, ev, p_out)[0]
        return tab

    def end_table(self, stage1) -> np.ndarray:
        n, N = self.n, self.N
        E = np.zeros((n ** (N - 1), self.n_t, N))
        _end_table(N, n, self.floor_u, self.target_u, stage1, E)
        return E


@dataclass(frozen=True)
class MackeWinNSolution:
    """Exact win chances of N-player Macke (module docstring).

    ``W[x_0 - floor, ..., x_{N-1} - floor, k]`` (units of 50; ``x_0`` the
    mover's score, ``x_k`` the score of the player ``k`` seats after him):
    the chance of the player ``k`` seats after the mover, all playing to win.
    ``p_wins[s]``: seat ``s``'s chance at the start (seat 0 moves first);
    ``p_wins_ev``: the same when all play for points; ``win_vs_ev[s]``: seat
    ``s`` playing to win against points players. ``floor``, ``target``: points.
    """

    rules: MackeRules
    players: int
    floor: int
    cap_units: int
    W: np.ndarray
    p_wins: list
    p_wins_ev: list
    win_vs_ev: list
    residual: float
    iterations: int
    seconds: float
    max_locked: int = 0
    ev_table: np.ndarray = field(default=None, repr=False)

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def states(self) -> int:
        """Turn-start states: every score of every player (the seat is not needed)."""
        return int(self.W.size // self.players)

    def chances(self, scores) -> list[float]:
        """Every player's chance, mover first, for scores in points from the mover on."""
        return chances_of(self.W, self.floor, self.target, scores)

    def summary(self) -> dict:
        """The figures of ``solve --objective win --players N --json``."""
        d = {"game": self.rules.game, "variant": self.rules.variant, "objective": "win",
             "players": self.players, "target": self.target, "floor": self.floor,
             "p_wins": self.p_wins, "p_wins_ev": self.p_wins_ev, "win_vs_ev": self.win_vs_ev,
             "states": self.states, "residual": self.residual, "iterations": self.iterations,
             "seconds": round(self.seconds, 3), "cap_units": self.cap_units,
             "rules": self.rules.to_dict()}
        if self.rules.variant == "volle-lotte" and self.players < 3:
            d["note"] = VOLLE_LOTTE_NOTE
        return d


#: What a two-player Volle Lotte table says (docs/macke.md).
VOLLE_LOTTE_NOTE = "the rules ask for three or more players at Volle Lotte"


def chances_of(W: np.ndarray, floor: int, target: int, scores) -> list[float]:
    f = floor // POINT_UNIT
    n = W.shape[0]
    idx = tuple(max(x // POINT_UNIT, f) - f for x in scores)
    if len(idx) != W.ndim - 1 or not all(i < n for i in idx):
        raise ValueError(f"give {W.ndim - 1} scores, each below the target {target:,}")
    return [float(x) for x in W[idx]]


def check_players(players) -> None:
    """ValueError in one line for a player count the N-player solve does not take."""
    if players not in PLAYERS:
        raise ValueError(f"players must be 2, 3 or 4, not {players}")


def _prepare(rules, players, floor, cap_units, phase, reference=False):
    check_players(players)
    if floor is None:
        floor = DEFAULT_FLOOR if players == 2 else DEFAULT_FLOOR_N
    check_win_rules(rules, floor)
    phase = phase or (lambda label, total, unit=None: (lambda k: None))
    return _Setup(rules, players, floor, cap_units, reference), floor, phase


def _points_game(s, scratch, advance):
    """Everyone playing for points: the points turn, the out-of-reach chance of
    five 1s, the stage tables, the end table, ``q_ev`` and the values."""
    n, N = s.n, s.N
    ev = s.ev_turn()
    p_out = s.out_of_reach(scratch)
    ev_stages = s.stages(False, scratch, ev, p_out, advance)
    E_ev = s.end_table(ev_stages[1])
    q_ev, q_tmp, c_ev = np.zeros((n, n)), np.zeros((n, n)), np.zeros((1, n ** N, N))
    _settle_ev(n, s.floor_u, s.target_u, s.min_u, s.subtract, ev[0], ev[1], ev[2], E_ev, q_ev,
               q_tmp, c_ev[0])
    V_ev = _evaluate(np.zeros((1, n)), q_ev, c_ev, np.array([True]), c_ev, n)
    return ev, p_out, ev_stages, E_ev, q_ev, V_ev


def ev_game_n(rules: MackeRules = MackeRules(), players: int = 3, floor: int | None = None,
              cap_units: int = DEFAULT_CAP_UNITS) -> np.ndarray:
    """Everyone plays the points-optimal turn (the ``optimal`` bot), exact: the
    table of :class:`MackeWinNSolution`'s ``W`` layout (no sweep, so cheap
    enough for a deep floor)."""
    s, floor, _ = _prepare(rules, players, floor, cap_units, None)
    V_ev = _points_game(s, s.scratch(), lambda k: None)[-1]
    return V_ev[0].reshape((s.n,) * players + (players,))


def last_turns_n(rules: MackeRules = MackeRules(), players: int = 3, floor: int | None = None,
                 cap_units: int = DEFAULT_CAP_UNITS) -> np.ndarray:
    """The end phase alone, all playing to win: ``E[x_1 - floor, ..., x_{N-1} - floor,
    s - target, k]``, every player's chance (``k`` seats after the finisher)
    when the finisher has just ended his turn at ``s >= target`` and the others
    (scores ``x_1, ...`` in seat order after him) throw once more."""
    s, floor, _ = _prepare(rules, players, floor, cap_units, None)
    scratch = s.scratch()
    ev = s.ev_turn()
    stages = s.stages(True, scratch, ev, s.out_of_reach(scratch), lambda k: None)
    return s.end_table(stages[1]).reshape((s.n,) * (players - 1) + (s.n_t, players))


def solve_macke_win_n(rules: MackeRules = MackeRules(), players: int = 3,
                      floor: int | None = None, cap_units: int = DEFAULT_CAP_UNITS,
                      tol: float = DEFAULT_TOL, max_iter: int = 50,
                      phase=None, reference: bool = False) -> MackeWinNSolution:
    """Win chances of N-player Macke / Volle Lotte, all playing to win (module docstring).

    ``floor`` defaults to -2,500 points at two players (the two-player
    solver's) and :data:`DEFAULT_FLOOR_N` at three and four.
    ``phase(label, total) -> advance(n)`` reports progress. ``reference``:
    the end as first written (every key's last turn solved whole, the others'
    chances by forward passes; several times slower) and every sweep's
    forward passes as first written, which the tests hold the families of
    :func:`_stage_win` and the digests and forward passes of :func:`_sweep` to.

    Examples
    --------
    >>> sol = solve_macke_win_n(MackeRules(target=100), 3, floor=-100, cap_units=20)
    >>> round(sum(sol.p_wins), 12), sol.residual <= 1e-10
    (1.0, True)
    """
    s, floor, phase = _prepare(rules, players, floor, cap_units, phase, reference)
    t_start = time.perf_counter()
    N, n, f, g = players, s.n, s.floor_u, s.target_u
    scratch = s.scratch()
    sf, si, mass = scratch
    # one phase each: the points players' last turns are far cheaper per position
    advance = phase("the last turns of points players (nachwerfen)", s.stages_keys(), "positions")
    ev, p_out, ev_stages, E_ev, q_ev, V_ev = _points_game(s, scratch, advance)
    advance = phase("the last turns, playing to win (nachwerfen)", s.stages_keys(), "positions")
    eq_stages, mixed = s.stages(True, scratch, ev, p_out, advance, ev_stages)
    E_eq = s.end_table(eq_stages[1])
    n_states = n ** N
    q_tmp = np.zeros((n, n))
    # policy iteration
    q, c, c2 = np.zeros((n_states, n)), np.zeros((1, n_states, N)), np.zeros((n_states, N))
    w_new, tstars = np.zeros(n_states), np.zeros(n_states, dtype=np.int64)
    digests = np.zeros(0 if reference else n_states, dtype=np.uint64)
    V = V_ev[0]
    tv = np.empty((1, n_states, N))
    residual = np.inf
    for it in range(1, max_iter + 1):
        advance = phase(sweep_label(it), n_states, "turn-start states")
        for lo, hi in chunks(n_states):
            _sweep(N, n, f, g, s.min_u, s.subtract, V, E_eq, E_ev, *s.turn_args(), sf, si, mass,
                   w_new, q, c[0], c2, tstars, digests, lo, hi)
            advance(hi - lo)
        _evaluate_step(n, q, q_ev, c, np.array([False]), V[None], tv, np.zeros(N_BLOCKS))
        tv[0, :, 0] = w_new
        residual = float(np.abs(tv[0] - V).max())
        if residual <= tol:
            break
        V = _evaluate(q, q_ev, c, np.array([False]), tv, n)[0]
    else:
        raise RuntimeError(f"the win solve did not reach {tol:g} in {max_iter} sweeps "
                           f"(residual {residual:.2e})")
    W = tv[0].copy()
    # one win player against points players: roles r = where he sits after the mover
    roles_c = np.zeros((N, n_states, N))
    roles_c[0] = c2
    advance = phase("valuing one player to win against points players", N, "steps")
    for r in range(1, N):
        E_r = s.end_table(s.mixed_stage1(r, mixed, scratch, ev, p_out))
        _settle_ev(n, f, g, s.min_u, s.subtract, ev[0], ev[1], ev[2], E_r, q_ev, q_tmp, roles_c[r])
        advance(1)
    role_ev = np.array([r != 0 for r in range(N)])
    start = np.repeat(W[None], N, axis=0)
    V_mix = _evaluate(q, q_ev, roles_c, role_ev, start, n)
    advance(1)
    z = sum((-f) * n ** (N - 1 - m) for m in range(N))
    shape = (n,) * N + (N,)
    return MackeWinNSolution(
        rules=rules, players=N, floor=floor, cap_units=s.hc, W=W.reshape(shape),
        p_wins=[float(x) for x in W[z]], p_wins_ev=[float(x) for x in V_ev[0, z]],
        win_vs_ev=[float(V_mix[r, z, r]) for r in range(N)], residual=residual, iterations=it,
        seconds=time.perf_counter() - t_start, max_locked=int(tstars.max()) * POINT_UNIT,
        ev_table=V_ev[0].reshape(shape))


# --------------------------------------------------------------------------
# the policy file
# --------------------------------------------------------------------------

WIN_TABLE_KIND = "win-table"
#: Version 1 is the two-player file of ``macke.winprob``; it stays as it is.
WIN_TABLE_VERSION_N = 2
WIN_OBJECTIVE_N = ("every player maximises his own chance of winning; a win shared by k tied "
                   "players counts 1/k (docs/macke-win.md; scores below the floor are held at it)")
_HASHED_N = ("format", "version", "game", "kind", "win_table_version", "rules", "rules_sha256",
             "players", "point_unit", "target_units", "floor_units", "cap_units", "W")


@dataclass(frozen=True)
class MackeWinNTable:
    """A win table of ``players`` players: ``W`` in the layout of
    :class:`MackeWinNSolution` (read from a version-2 file, or from a
    two-player version-1 file with the opponent's chance as one minus the mover's)."""

    rules: MackeRules
    players: int
    floor: int
    cap_units: int
    W: np.ndarray
    summary: dict = field(default_factory=dict)

    @property
    def target(self) -> int:
        return self.rules.target

    def chances(self, scores) -> list[float]:
        """Every player's chance, mover first, for scores in points from the mover on."""
        return chances_of(self.W, self.floor, self.target, scores)


def _hash_n(d: dict) -> str:
    return fields_sha256(d, _HASHED_N)


def win_table_n_dict(sol: MackeWinNSolution) -> dict:
    """The JSON document of the N-player win policy file (schema/macke-win-n-policy.schema.json)."""
    r, N = sol.rules, sol.players
    return win_table_document(r.GAME, r, WIN_TABLE_KIND, WIN_TABLE_VERSION_N, WIN_OBJECTIVE_N, {
        "players": N, "point_unit": POINT_UNIT, "target_units": r.target // POINT_UNIT,
        "floor_units": sol.floor // POINT_UNIT, "cap_units": sol.cap_units,
        "W": np.clip(sol.W.reshape(-1, N), 0.0, 1.0).tolist(), "summary": sol.summary(),
    }, _hash_n)


def write_win_table_n(sol: MackeWinNSolution, path) -> None:
    """Write the policy file (the caller makes the write atomic)."""
    write_compact(path, win_table_n_dict(sol))


def win_n_schema() -> dict:
    """The JSON Schema of the N-player win policy file."""
    return schema_of(__package__, "macke-win-n-policy.schema.json")


def load_win_table_n(path, rules: MackeRules | None = None,
                     players: int | None = None) -> MackeWinNTable:
    """Read a Macke / Volle Lotte win table of any number of players (a
    two-player version-1 file too); :class:`PolicyFileError` in one line for a
    damaged file, another kind or version, shapes that do not fit, rules other
    than ``rules`` (the fields of ``winprob.WIN_FIELDS``) or other ``players``."""
    from tutto_sim.core.policyfile import PolicyFileError, check_win_kind, read_policy_file
    from tutto_sim.macke.winprob import load_win_table

    check_win_kind(path, WIN_TABLE_KIND, "write one with: tutto-sim solve --objective win --game macke")
    try:
        version = json.loads(open(path, encoding="utf-8").read()).get("win_table_version")
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        version = None
    if version == 1:
        t = load_win_table(path, rules)
        found, W = 2, np.stack([t.W, 1.0 - t.W], axis=-1)
        out = MackeWinNTable(t.rules, 2, t.floor, t.cap_units, W, t.summary)
    else:
        d, file_rules, path = read_policy_file(path, MackeRules.GAME, win_n_schema(), MackeRules,
                                               _hash_n, asked=rules)
        floor, found = d["floor_units"] * POINT_UNIT, d["players"]
        try:
            check_win_rules(file_rules, floor)
        except ValueError as e:
            raise PolicyFileError(f"policy file {path}: {e}") from None
        n = file_rules.target // POINT_UNIT - d["floor_units"]
        w = d["W"]
        if d["target_units"] != file_rules.target // POINT_UNIT or len(w) != n ** found or any(
                len(row) != found for row in w):
            raise PolicyFileError(f"policy file {path}: W must have {n ** found:,} rows of "
                                  f"{found} chances for {found} players, target "
                                  f"{file_rules.target:,} and floor {floor:,}")
        W = np.array(w, dtype=float).reshape((n,) * found + (found,))
        out = MackeWinNTable(file_rules, found, floor, int(d["cap_units"]), W, d["summary"])
        if rules is not None:
            wrong = [f"{f}={getattr(rules, f)!r} (file: {getattr(file_rules, f)!r})"
                     for f in WIN_FIELDS if getattr(rules, f) != getattr(file_rules, f)]
            if wrong:
                raise PolicyFileError(f"win table {path} was solved for other rules: {', '.join(wrong)}")
    if players is not None and players != found:
        raise PolicyFileError(f"win table {path} is for {found} players, not {players}")
    return out


def default_win_file_n(rules: MackeRules, players: int):
    """(path, run digest) of the ``players``-player win table of ``rules``:
    ``results/GAME-win-TARGET-Np-<run>.json``; two players: the two-player
    solver's ``results/GAME-win-TARGET-<run>.json``."""
    from tutto_sim.core.cli import game_label
    from tutto_sim.core.runs import RESULTS_DIR, run_digest, run_file
    from tutto_sim.macke.winprob import default_win_file, win_rules

    if players == 2:
        return default_win_file(rules)
    label, wr = game_label(rules), win_rules(rules)
    digest = run_digest("win-table", game=label, rules=wr, players=players)
    return run_file(RESULTS_DIR, f"{label}-win-{wr.target}-{players}p", digest, ".json"), digest

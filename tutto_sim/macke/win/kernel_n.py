"""numba kernels of the N-player Macke win solver
(:mod:`tutto_sim.macke.win.solve_n`; its module docstring has the
mathematics): one turn's programme with the mover's preferences
(:func:`one_turn`), its outcomes and the digest of its decisions, the end
phase's stages (:func:`stage`, :func:`stage_win`, :func:`end_table`), a
sweep over the states (:func:`sweep`) and the settling and evaluation of
fixed decisions (:func:`settle_ev`, :func:`evaluate_step`). Units of 50.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tutto_sim.macke.win.programme import move_mass, turn_outcomes

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the N-player Macke win solver's kernels"
#: Options within this chance of the best count as equal for the tie-break.
EPS = 1e-12
#: Fixed blocks of states (each with its own scratch) for the parallel sweeps.
N_BLOCKS = 8


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
def one_turn(n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max, hard_cap, bankv, mackev,
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
    """The decisions of :func:`one_turn` (rows ``0 .. t* - 1``): ``(value, t*)``."""
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
    ends (``programme.turn_outcomes``, the forward pass): for each state a
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
def stage(j, N, n, dp, min_u, subtract, reach, p_out, nxt_dec, nxt_val, nxt_val2, ev_bank,
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
                _, p_win, _ = one_turn(n_all, n_throws, tab, empty, kpref, spref, ak, p0, win_max,
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
def stage_win(j, N, n, min_u, reach, p_out, nxt_dec, nxt_val, nxt_val2, n_all, n_throws, tab,
               empty, kpref, spref, ak, p0, win_max, hard_cap, sf, si, fs, out, out2, lo, hi):
    """Stage ``j``'s table, player ``j`` playing to win: what :func:`stage`
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
def end_table(N, n, floor_u, target_u, stage1, out):
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
def sweep(N, n, floor_u, target_u, min_u, subtract, V, E, E2, n_all, n_throws, tab, empty, kpref,
           spref, ak, p0, win_max, hard_cap, sf, si, mass, w_new, q, c, c2, tstars, digests, lo,
           hi, off):
    """One sweep: every state's best turn against ``V`` (mover's value in
    ``w_new``), where it ends: ``q[i, s - F]`` below the target, ``c[i]`` /
    ``c2[i]`` the chances through the end phase of ``E`` / ``E2`` and five 1s.
    A state whose decisions have the digest of the last sweep's
    (``digests[i]``; 0: none kept) keeps its ``q[i]``, ``c[i]``, ``c2[i]``
    (they depend on nothing else): no forward pass; the others' forward pass
    is :func:`_outcomes` (``bt[0]``, a row no throw uses, adds up its
    chances). Only the states ``lo <= i < hi`` (the caller sweeps in chunks);
    state ``i``'s results are in row ``i - off`` of the outputs (``off`` 0:
    arrays of every state; ``lo``: a cluster task's arrays of its own states)."""
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
            r = i - off
            w_new[r] = w
            tstars[r] = ts
            if digests.shape[0]:
                h = _decisions_hash(ts, keep, ret, bank, cbank)
                if h == digests[r] and h != 0:
                    continue
                digests[r] = h
                p_win = _outcomes(ts, n_all, n_throws, tab, ak, empty, keep, ret, bank, cbank,
                                  mass[blk], bank_mass, macke_mass, bt[0], si[4][blk])
            else:  # the reference: the forward pass as first written
                p_win = turn_outcomes(ts, n_all, n_throws, tab, empty, keep, ret, bank, cbank,
                                      mass[blk], bank_mass, macke_mass)
            _settle(a, o, target_u, min_u, subtract, bank_mass, macke_mass, p_win, E, E2, q[r],
                    c[r], c2[r], True)


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
def settle_ev(n, floor_u, target_u, min_u, subtract, bank_mass, macke_mass, p_win, E, q, q_tmp, c):
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
def evaluate_step(n, q_win, q_ev, c, role_ev, V, out, delta):
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

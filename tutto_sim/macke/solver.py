r"""Exact turn values for Berliner Macke and Volle Lotte: the optimal policy
and the exact value of any decision table.

Part of the solver layer (rules -> tables -> **solve** | kernels). It reads
the unit tables of ``tutto_sim.macke.tables`` (unit types, set-aside *states*,
the legal keeps of every throw as states, ``add``, ``sub_states``) and the
exact multiset probabilities of ``tutto_sim.dice.throws``, the same arrays
the simulators read. The objective is the turn result of docs/macke.md at
the level of one turn: maximise the expected signed turn result.

Mathematics
-----------
Points are in units of 50. ``N`` is the number of dice (5, Volle Lotte 6),
``L`` the throws per series (``rules.throws``, 3), ``m`` the minimum
(``rules.min_score``). A turn ending with total ``T`` by banking (or by its
last throw) scores

.. math:: r(T) = T \text{ if } T \ge m \text{ else } -T,

which is **not** monotone in ``T``: below the minimum more points are worse.
So every legal keep of a throw is considered, not only the most points.

*States.* ``T_0`` is the locked total (points of earlier series of the turn),
``U`` the set-aside state of the current series (a multiset of units, an index
of ``macke.tables``; ``|U|`` its dice, ``\pi(U)`` its points), ``\ell`` the
throws left in the series *including* the coming one (``L`` at the start of a
series). ``ms`` is a throw of ``N - |U|`` dice with probability ``P(ms)``,
``K(ms)`` its legal keeps (empty: a Macke), ``U + K`` the state after setting
``K`` aside and ``T = T_0 + \pi(U + K)`` the turn total then.

*Before a throw* the player may return any sub-multiset of ``U`` (only before
the 2nd and later throw of a series, i.e. ``\ell < L``):

.. math:: B(T_0, U, \ell) = \max_{U' \subseteq U} V(T_0, U', \ell).

*The throw*:

.. math::
   V(T_0, U, \ell) = \sum_{ms} P(ms)
   \begin{cases}
     w & \text{five 1s, variant instant-win } (w = \text{win\_value}) \\
     -(T_0 + \pi(U)) \text{ (bust=zero: } 0) & K(ms) = \emptyset \text{ (Macke)} \\
     \max_{K \in K(ms)} A(T_0, U + K, \ell - 1) & \text{otherwise,}
   \end{cases}

where a Macke on the turn's first throw (``T_0 = 0``, ``U`` empty) scores
``-0 = 0`` by the same formula, and after setting aside (``\ell' = \ell - 1``
throws left, ``T = T_0 + \pi(U')``):

.. math::
   A(T_0, U', \ell') =
   \begin{cases}
     C(T) = \max\bigl(r(T),\; V(T, \emptyset, L)\bigr) & |U'| = N \text{ (a clear)} \\
     r(T) & \ell' = 0 \text{ (the last throw)} \\
     \max\bigl(r(T),\; B(T_0, U', \ell')\bigr) & \text{otherwise.}
   \end{cases}

The turn's value is :math:`V(0, \emptyset, L)`.

*Backward induction.* Inside one ``T_0`` the throws left fall strictly, and
every keep scores, so a clear makes the new locked total ``T > T_0``. All
values therefore follow for ``T_0 = cap - 1, ..., 0`` (and, inside each,
``\ell = 1, ..., L``) once ``C(T) = r(T)`` is fixed for ``T \ge cap``: there
the player is assumed to bank a clear. This is exact as soon as banking a
clear is optimal at every total ``>= cap``; the tests check that raising the
cap changes nothing.

*Probabilities and policy values.* The optimal decisions (first maximum in the
tables' order; ties go to banking and to returning nothing) are stored as
arrays, and a second, forward pass pushes the probability mass of the turn
through the same states under those decisions (``T_0`` ascending, ``\ell``
descending). It gives the exact ``P(result > 0)``, ``P(< 0)``, ``P(= 0)``,
the expected number of throws and returns, and which decision states are
reachable. The same forward pass values any decision table, e.g. the simple
threshold family (:func:`exact_macke_policy_value`): a policy is just other
arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from tutto_sim.dice.scoring import POINT_UNIT, ScoringRules
from tutto_sim.dice.throws import ThrowTables, build_tables
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.tables import MackeTables, build_macke_tables
from tutto_sim.macke.turn_kernel import NEVER, POLICY_SHAPE

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Macke solver's kernels"

#: Turn totals (units of 50) from which a clear is assumed to be banked:
#: 400 units = 20,000 points. Under every preset, with both bust rules and
#: minimums up to 500, every optimal decision to start a new series lies far
#: below (the largest is about 4,000 points, jackpot with bust=zero), and the
#: tests check that doubling the cap changes no value and no decision.
DEFAULT_CAP_UNITS = 800

# sign classes of a turn result, for the forward pass
_POS, _NEG, _ZERO = 0, 1, 2


# --------------------------------------------------------------------------
# numba kernels (private, small)
# --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _result(t, min_u):
    """r(T): the signed result of a turn that ends with total t."""
    return float(t) if t >= min_u else -float(t)


@njit(cache=True)
def turn_level(t0, n_all, n_throws, tab, bankv, mackev, winv, tstar, cv, vt, bt, keep, ret, bank):
    """Values ``vt``/``bt`` and decisions of one locked total ``t0`` for general
    leaves: ``bankv[T]`` (the turn ends with total ``T``; also a clear at
    ``T >= tstar``), ``mackev[T]`` (a Macke at total ``T``), ``winv`` (five
    1s); the values after a clear ``cv[T]`` are known for ``t0 < T < tstar``.
    ``tab``: the table arrays of :func:`kernel_args`. The turn solver's
    leaves are ``r(T)``, ``-T`` (or 0) and ``win_value``; ``macke.win.solve2``'s
    are win probabilities."""
    (state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states, win, prob,
     start, slot_off) = tab
    n_states = state_dice.shape[0]
    for tl in range(1, n_throws + 1):
        for u in range(n_states):
            n = n_all - state_dice[u]
            if n == 0 or (tl == n_throws and state_dice[u] != 0):
                continue  # a series starts with nothing set aside
            acc = 0.0
            lo = start[n]
            for ms in range(lo, start[n + 1]):
                k0 = keep_start[ms]
                k1 = keep_start[ms + 1]
                if win[ms]:
                    v = winv
                elif k0 == k1:  # Macke
                    v = mackev[t0 + state_pts[u]]
                else:
                    v = -1e300
                    best = 0
                    for j in range(k1 - k0):
                        u2 = add[u, keep_states[k0 + j]]
                        t = t0 + state_pts[u2]
                        if state_dice[u2] == n_all:
                            w = cv[t] if t < tstar else bankv[t]
                        elif tl == 1:
                            w = bankv[t]
                        else:
                            w = max(bankv[t], bt[tl - 1, u2])
                        if w > v:
                            v = w
                            best = j
                    keep[tl, slot_off[u] + ms - lo] = best
                acc += prob[ms] * v
            vt[tl, u] = acc
        if tl == n_throws:
            break
        for u in range(n_states):  # before a throw with tl < L throws left: returns
            if state_dice[u] == n_all:
                continue
            s0 = sub_start[u]
            v = -1e300
            best = 0
            for j in range(sub_start[u + 1] - s0):
                w = vt[tl, sub_states[s0 + j]]
                if w > v:
                    v = w
                    best = j
            bt[tl, u] = v
            ret[tl, u] = best
            bank[tl, u] = bankv[t0 + state_pts[u]] >= v


@njit(cache=True)
def _solve(cap, n_all, n_throws, min_u, subtract, win_u, state_dice, state_pts, add,
           sub_start, sub_states, keep_start, keep_states, win, prob, start, slot_off,
           keep_template, empty):
    """Backward induction over the locked total; values and decision arrays."""
    n_states = state_dice.shape[0]
    n_slots = keep_template.shape[0]
    vt = np.zeros((cap, n_throws + 1, n_states))
    bt = np.zeros((cap, n_throws + 1, n_states))
    clear_v = np.zeros(cap)
    clear_bank = np.zeros(cap, dtype=np.bool_)
    keep = np.empty((cap, n_throws + 1, n_slots), dtype=np.int8)
    ret = np.zeros((cap, n_throws + 1, n_states), dtype=np.int8)
    bank = np.zeros((cap, n_throws + 1, n_states), dtype=np.bool_)
    for t0 in range(cap):
        for tl in range(n_throws + 1):
            keep[t0, tl] = keep_template
    tab = (state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states, win,
           prob, start, slot_off)
    n_t = cap + state_pts.max() + 1
    bankv = np.empty(n_t)
    mackev = np.empty(n_t)
    for t in range(n_t):
        bankv[t] = _result(t, min_u)
        mackev[t] = -float(t) if subtract else 0.0
    for t0 in range(cap - 1, -1, -1):
        turn_level(t0, n_all, n_throws, tab, bankv, mackev, win_u, cap, clear_v, vt[t0], bt[t0],
                   keep[t0], ret[t0], bank[t0])
        series = vt[t0, n_throws, empty]
        r = _result(t0, min_u)
        clear_bank[t0] = r >= series
        clear_v[t0] = max(r, series)
    return vt, bt, clear_v, keep, ret, bank, clear_bank


@njit(cache=True)
def _add_terminal(out, p, v):
    out[3] += p * v
    if v > 0:
        out[_POS] += p
    elif v < 0:
        out[_NEG] += p
    else:
        out[_ZERO] += p


@njit(cache=True)
def _forward(cap, n_all, n_throws, min_u, subtract, win_u, state_dice, state_pts, add,
             sub_start, sub_states, keep_start, keep_states, win, prob, start, slot_off,
             empty, keep, ret, bank, clear_bank):
    """Push the turn's probability mass through the states under given decisions.

    Decision arrays may be cut: locked totals past their last row use the last
    row (clears: totals past the last entry use the last entry); a clear at a
    total >= cap is banked. Returns ``out`` = (P(>0), P(<0), P(=0), E[result],
    E[throws], E[returns]) and the mass reaching each return, bank and clear
    decision.
    """
    n_states = state_dice.shape[0]
    crows = clear_bank.shape[1]
    mass = np.zeros((cap, n_throws + 1, n_states))
    at_ret = np.zeros((cap, n_throws + 1, n_states))
    at_bank = np.zeros((cap, n_throws + 1, n_states))
    at_clear = np.zeros(cap)
    out = np.zeros(6)
    mass[0, n_throws, empty] = 1.0
    for t0 in range(cap):
        krow = min(t0, keep.shape[0] - 1)
        rrow = min(t0, ret.shape[0] - 1)
        brow = min(t0, bank.shape[0] - 1)
        for tl in range(n_throws, 0, -1):
            for u in range(n_states):
                m = mass[t0, tl, u]
                if m == 0.0:
                    continue
                s = u
                if tl < n_throws:
                    at_ret[t0, tl, u] += m
                    s = sub_states[sub_start[u] + ret[rrow, tl, u]]
                    if s != u:
                        out[5] += m
                out[4] += m
                n = n_all - state_dice[s]
                lo = start[n]
                for ms in range(lo, start[n + 1]):
                    p = m * prob[ms]
                    k0 = keep_start[ms]
                    if win[ms]:
                        _add_terminal(out, p, win_u)
                        continue
                    if k0 == keep_start[ms + 1]:
                        _add_terminal(out, p, -float(t0 + state_pts[s]) if subtract else 0.0)
                        continue
                    u2 = add[s, keep_states[k0 + keep[krow, tl, slot_off[s] + ms - lo]]]
                    t = t0 + state_pts[u2]
                    if state_dice[u2] == n_all:
                        if t >= cap or clear_bank[tl - 1, min(t, crows - 1)]:
                            if t < cap:
                                at_clear[t] += p
                            _add_terminal(out, p, _result(t, min_u))
                        else:
                            at_clear[t] += p
                            mass[t, n_throws, empty] += p
                    elif tl == 1:
                        _add_terminal(out, p, _result(t, min_u))
                    else:
                        at_bank[t0, tl - 1, u2] += p
                        if bank[brow, tl - 1, u2]:
                            _add_terminal(out, p, _result(t, min_u))
                        else:
                            mass[t0, tl - 1, u2] += p
    return out, at_ret, at_bank, at_clear


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def throw_tables(rules: MackeRules) -> ThrowTables:
    """The throw tables Macke samples and scores from (six of a kind as in ``rules``)."""
    return build_tables(ScoringRules(6, rules.six_of_kind))


def slot_layout(tables: MackeTables) -> tuple[np.ndarray, int]:
    """Where the keep decisions of each set-aside state start in a row.

    The throws a state ``u`` can face are the multisets of ``N - dice(u)``
    dice, ``ids(n)`` of ``dice.throws`` in order; state ``u``'s block of a
    keep row starts at ``slot_off[u]`` (-1 for full states, which never throw).
    """
    t = throw_tables(tables.rules)
    n_all = tables.rules.n_dice
    off = np.full(len(tables.state_dice), -1, dtype=np.int64)
    pos = 0
    for u, d in enumerate(tables.state_dice):
        if d < n_all:
            off[u] = pos
            pos += len(t.ids(n_all - int(d)))
    off.setflags(write=False)
    return off, pos


def keep_template(tables: MackeTables) -> np.ndarray:
    """A keep row with -1 at every Macke throw (no keep) and 0 elsewhere."""
    t = throw_tables(tables.rules)
    off, n_slots = slot_layout(tables)
    n_all = tables.rules.n_dice
    row = np.zeros(n_slots, dtype=np.int8)
    for u, d in enumerate(tables.state_dice):
        if d < n_all:
            ids = np.arange(t.start[n_all - d], t.start[n_all - d + 1])
            nk = tables.keep_start[ids + 1] - tables.keep_start[ids]
            row[off[u]:off[u] + len(ids)] = np.where(nk == 0, -1, 0)
    return row


def _arr(a):
    return np.ascontiguousarray(a)


def kernel_args(rules: MackeRules):
    """(tables, throw tables, the table arrays the kernels take, in order)."""
    m = build_macke_tables(rules)
    t = throw_tables(rules)
    off, _ = slot_layout(m)
    args = (_arr(m.state_dice), _arr(m.state_pts), _arr(m.add), _arr(m.sub_start),
            _arr(m.sub_states), _arr(m.keep_start), _arr(m.keep_states), _arr(m.win),
            _arr(t.prob), _arr(t.start), off)
    return m, t, args


def _scalars(rules: MackeRules) -> tuple[int, int, int, bool, float]:
    return (rules.n_dice, rules.throws, rules.min_score // POINT_UNIT,
            rules.bust == "subtract", float(rules.win_value // POINT_UNIT))


def _check_cap(cap_units: int, rules: MackeRules) -> int:
    cap = int(cap_units)
    low = rules.min_score // POINT_UNIT + 1  # banked clears past the cap count as +T
    if cap < low:
        raise ValueError(f"cap_units must be >= {low} for these rules, not {cap_units}")
    return cap


# --------------------------------------------------------------------------
# evaluation of decision arrays
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MackeDecisions:
    """Every decision of a Macke turn policy, as arrays (see ``macke.decisions``).

    ``tl`` = throws left in the series including the coming throw (1..L),
    ``row`` = locked total in units of 50 (rows past the last use the last).

    keep:
        int8 ``[row, tl, slot]``: index into the legal keeps of the throw
        (``tables.keep_states[keep_start[ms]:]``), -1 at a Macke throw; slot
        ``slot_off[u] + ms - start[N - dice(u)]`` (:func:`slot_layout`).
    ret:
        int8 ``[row, tl, u]`` (tl < L): index into ``sub_states`` of ``u``
        (0 = return nothing): the state kept before the throw.
    bank:
        bool ``[row, tl', u']``: after setting aside, with ``tl'`` = 1..L-1
        throws left, bank (True) or go on.
    clear_bank:
        bool ``[T]``: after a clear at turn total ``T`` (units), bank (True)
        or start a new series; totals past the last entry use the last. A
        threshold policy may also depend on the throws left after the clearing
        throw: ``[tl', T]``, ``tl'`` = 0..L-1.
    """

    rules: MackeRules
    keep: np.ndarray
    ret: np.ndarray
    bank: np.ndarray
    clear_bank: np.ndarray


@dataclass(frozen=True)
class MackeValue:
    """Exact statistics of a turn played by a :class:`MackeDecisions` policy.

    ``turn_ev`` in real points; probabilities of a positive, negative and zero
    signed result; expected throws and returns (a return = at least one unit
    put back before a throw) per turn. ``at_return[T0, tl, u]``,
    ``at_bank[T0, tl', u']`` and ``at_clear[T]`` hold the probability of
    reaching each decision (the expected number of visits).
    """

    turn_ev: float
    p_positive: float
    p_negative: float
    p_zero: float
    mean_throws: float
    mean_returns: float
    at_return: np.ndarray
    at_bank: np.ndarray
    at_clear: np.ndarray


def decisions_value(dec: MackeDecisions, cap_units: int = DEFAULT_CAP_UNITS) -> MackeValue:
    """Exact value and outcome probabilities of the policy ``dec`` (forward pass).

    A clear at a total ``>= cap_units`` is banked whatever ``dec`` says (the
    same convention as the solver; exact for every policy that banks clears
    below the cap).
    """
    rules = dec.rules
    cap = _check_cap(cap_units, rules)
    m, _, args = kernel_args(rules)
    clear = np.asarray(dec.clear_bank, dtype=np.bool_)
    if clear.ndim == 1:  # the same after a clear with any throws left
        clear = np.broadcast_to(clear, (rules.throws, len(clear)))
    out, at_ret, at_bank, at_clear = _forward(
        cap, *_scalars(rules), *args, m.empty, _arr(dec.keep), _arr(dec.ret),
        _arr(dec.bank), _arr(clear))
    return MackeValue(float(out[3]) * POINT_UNIT, float(out[_POS]), float(out[_NEG]),
                      float(out[_ZERO]), float(out[4]), float(out[5]), at_ret, at_bank, at_clear)


# --------------------------------------------------------------------------
# the simple threshold family
# --------------------------------------------------------------------------


def threshold_decisions(pol, rules: MackeRules = MackeRules(),
                        cap_units: int = DEFAULT_CAP_UNITS) -> MackeDecisions:
    """The decision arrays of a simple threshold policy in the kernel's format.

    ``pol`` is ``macke.turn_kernel``'s int64 ``pol[throws_left, dice_left]``
    (units of 50; ``macke.threshold.MackeThresholdPolicy.to_array``):
    keep every scoring unit (``macke.tables`` ``all_keep``), never return,
    after a throw that leaves ``throws_left`` >= 1 throws and ``dice_left``
    >= 1 dice bank iff the turn total ``>= pol[throws_left, dice_left]``;
    after a clear bank iff it is ``>= pol[throws_left, 0]``.
    """
    m = build_macke_tables(rules)
    t = throw_tables(rules)
    n_all, n_throws = rules.n_dice, rules.throws
    pol = np.asarray(pol, dtype=np.int64)
    if pol.shape != POLICY_SHAPE:
        raise ValueError(f"a threshold policy array must have shape {POLICY_SHAPE} "
                         f"[throws_left, dice_left], not {pol.shape}")
    # no total of the forward pass reaches cap + 1000 units: clip "never" there
    pol = np.minimum(pol[:n_throws, :n_all], int(cap_units) + 1000)
    off, n_slots = slot_layout(m)
    keep_row = keep_template(m)
    for u, d in enumerate(m.state_dice):
        if d == n_all:
            continue
        lo, hi = int(t.start[n_all - d]), int(t.start[n_all - d + 1])
        for ms in range(lo, hi):
            k = int(m.all_keep[ms])
            if k >= 0:
                ks = m.keep_states[m.keep_start[ms]:m.keep_start[ms + 1]].tolist()
                keep_row[off[u] + ms - lo] = ks.index(k)
    n_states = len(m.state_dice)
    keep = np.broadcast_to(keep_row, (1, n_throws + 1, n_slots)).copy()
    ret = np.zeros((1, n_throws + 1, n_states), dtype=np.int8)
    rows = int(max(pol[1:, 1:].max(initial=0), pol[:, 0].max())) + 1
    t0 = np.arange(rows)
    bank = np.zeros((rows, n_throws + 1, n_states), dtype=np.bool_)
    for tl in range(1, n_throws):
        for u, d in enumerate(m.state_dice):
            if 0 < d < n_all:
                bank[:, tl, u] = t0 + m.state_pts[u] >= pol[tl, n_all - d]
    clear_bank = t0[None, :] >= pol[:, :1]
    return MackeDecisions(rules, keep, ret, bank, clear_bank)


def exact_macke_policy_value(threshold_policy_array, rules: MackeRules = MackeRules(),
                             cap_units: int = DEFAULT_CAP_UNITS) -> float:
    """Exact expected signed result (real points) of a simple threshold policy.

    Parameters
    ----------
    threshold_policy_array:
        The int64 array ``pol[throws_left, dice_left]`` (shape
        ``macke.turn_kernel.POLICY_SHAPE``, units of 50) that the threshold
        kernel plays, or a ``MackeThresholdPolicy``: keep every scoring unit,
        never return, bank iff the turn total ``>= pol[throws_left,
        dice_left]`` after a throw, ``>= pol[throws_left, 0]`` after a clear.
    rules, cap_units:
        As in :func:`solve_macke`; clears at totals >= ``cap_units`` are
        banked (exact for every policy whose clear threshold is below it).

    Examples
    --------
    "Bank at >= 300", after a clear too:

    >>> pol = np.full(POLICY_SHAPE, 300 // POINT_UNIT)
    >>> round(exact_macke_policy_value(pol), 4)
    246.4607
    """
    pol = threshold_policy_array
    if hasattr(pol, "to_array"):
        pol = pol.to_array()
    return decisions_value(threshold_decisions(pol, rules, cap_units), cap_units).turn_ev


# --------------------------------------------------------------------------
# the optimal policy
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MackeSolution:
    """The optimal Macke turn policy and its exact values.

    Values are in units of 50 unless the name says points; thresholds and
    totals in summaries are real points.

    Attributes
    ----------
    rules, cap_units, allow_returns:
        What was solved; clears at totals ``>= cap_units`` are banked.
    throw_value:
        ``V[T0, tl, u]`` (module docstring), ``tl`` = 1..L.
    before_value:
        ``B[T0, tl, u]`` (tl < L): the value before a throw, returns included.
    clear_value:
        ``C[T]``: the value right after a clear at total ``T``.
    decisions:
        :class:`MackeDecisions` of the optimal policy, ``cap_units`` rows.
    turn_ev:
        Real points: ``V(0, nothing, L)``.
    p_positive, p_negative, p_zero:
        Exact probabilities of the signed result's sign under the policy
        (``reach``'s).
    mean_throws, mean_returns:
        Expected throws, and expected number of throws before which units
        are returned, per turn (``reach``'s).
    bank_threshold:
        ``[tl', d]`` real points (``tl'`` = throws left after the throw 1..L-1,
        ``d`` = dice left 1..N-1): over the decision states the optimal policy
        reaches, it banks at every turn total ``>=`` this; ``NEVER`` if it
        never banks there; row/column 0 unused.
    bank_exceptions:
        Where the optimal policy banks below the threshold (reached states
        only): ``(throws_left, dice_left, set-aside state, lowest total,
        highest total)`` (real points), one entry per run of reached totals
        with that state set aside that all bank.
    clear_bank_at, clear_exceptions:
        After a clear: bank iff total ``>= clear_bank_at`` (real points),
        except at the listed totals below it, which bank too.
    reach:
        :class:`MackeValue` of the optimal policy (forward pass).
    """

    rules: MackeRules
    cap_units: int
    allow_returns: bool
    throw_value: np.ndarray
    before_value: np.ndarray
    clear_value: np.ndarray
    decisions: MackeDecisions
    turn_ev: float
    bank_threshold: np.ndarray
    bank_exceptions: tuple[tuple, ...]
    clear_bank_at: int
    clear_exceptions: tuple[int, ...]
    reach: MackeValue

    p_positive = property(lambda self: self.reach.p_positive)
    p_negative = property(lambda self: self.reach.p_negative)
    p_zero = property(lambda self: self.reach.p_zero)
    mean_throws = property(lambda self: self.reach.mean_throws)
    mean_returns = property(lambda self: self.reach.mean_returns)

    @property
    def tables(self) -> MackeTables:
        return build_macke_tables(self.rules)

    def returns_summary(self, locked: int | None = 0, top: int = 10) -> "ReturnsSummary":
        """When returning units pays: see :func:`returns_summary`."""
        return returns_summary(self, locked, top)


def _threshold(totals: np.ndarray, banks: np.ndarray) -> tuple[int, list[int]]:
    """Smallest total from which every entry banks, and the banking totals below it."""
    if len(totals) == 0:
        return NEVER, []
    no = totals[~banks]
    th = int(no.max()) + 1 if len(no) else int(totals.min())
    if th > int(totals.max()):
        return NEVER, []
    return th, sorted({int(x) for x in totals[banks & (totals < th)]})


def _ranges(values: list[int], inside: list[bool]) -> list[tuple[int, int]]:
    """Runs of ``inside`` over the sorted ``values``: [(first, last), ...]."""
    out: list[tuple[int, int]] = []
    run = None
    for v, ok in zip(values, inside):
        if ok:
            run = (run[0], v) if run else (v, v)
        elif run:
            out.append(run)
            run = None
    if run:
        out.append(run)
    return out


def _summaries(rules: MackeRules, m: MackeTables, dec: MackeDecisions, reach: MackeValue):
    n_all, n_throws = rules.n_dice, rules.throws
    cap = reach.at_bank.shape[0]
    bank_threshold = np.full((n_throws, n_all), NEVER, dtype=np.int64)
    exceptions = []
    for tl in range(1, n_throws):
        for d in range(1, n_all):
            states = np.nonzero(m.state_dice == n_all - d)[0]
            t0s, idx = np.nonzero(reach.at_bank[:, tl, states] > 0)
            us = states[idx]
            totals = t0s + m.state_pts[us]
            banks = dec.bank[np.minimum(t0s, dec.bank.shape[0] - 1), tl, us]
            th, _ = _threshold(totals, banks)
            bank_threshold[tl, d] = th if th >= NEVER else th * POINT_UNIT
            if th >= NEVER:
                continue
            for u in np.unique(us):
                sel = us == u
                order = np.argsort(totals[sel])
                tot, bk = totals[sel][order], banks[sel][order]
                below = tot < th
                for lo, hi in _ranges(tot[below].tolist(), bk[below].tolist()):
                    exceptions.append((tl, d, m.state_name(int(u)), lo * POINT_UNIT, hi * POINT_UNIT))
    totals = np.nonzero(reach.at_clear > 0)[0]
    cb = dec.clear_bank[np.minimum(totals, len(dec.clear_bank) - 1)]
    th, exc = _threshold(totals, cb)
    if th >= NEVER and len(totals):  # never banks a clear below the cap
        th = cap
    return (bank_threshold, tuple(sorted(exceptions)), th * POINT_UNIT if th < NEVER else NEVER,
            tuple(x * POINT_UNIT for x in exc))


def solve_macke(rules: MackeRules = MackeRules(), cap_units: int = DEFAULT_CAP_UNITS,
                allow_returns: bool = True) -> MackeSolution:
    """The policy that maximises the expected signed result of a Macke turn.

    The player picks the keep (any legal one), the units to return before the
    2nd and later throw of a series, bank or throw on, and after a clear bank
    or start a new series. See the module docstring for the Bellman equations.
    ``allow_returns=False`` solves the game without returns (to measure what
    they are worth).

    Examples
    --------
    >>> sol = solve_macke()
    >>> round(sol.turn_ev, 2), round(sol.p_positive + sol.p_negative + sol.p_zero, 12)
    (431.48, 1.0)
    """
    cap = _check_cap(cap_units, rules)
    m, t, args = kernel_args(rules)
    (state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states, win,
     prob, start, off) = args
    if not allow_returns:  # only "return nothing": each state's first sub-state is itself
        sub_start = np.arange(len(state_dice) + 1, dtype=np.int64)
        sub_states = np.arange(len(state_dice), dtype=np.int64)
        for a in (sub_start, sub_states):  # read-only like the tables: one compiled kernel
            a.setflags(write=False)
    vt, bt, clear_v, keep, ret, bank, clear_bank = _solve(
        cap, *_scalars(rules), state_dice, state_pts, add, sub_start, sub_states,
        keep_start, keep_states, win, prob, start, off, keep_template(m), m.empty)
    if not allow_returns:  # indices into the real sub lists: 0 is "nothing" there too
        ret[:] = 0
    dec = MackeDecisions(rules, keep, ret, bank, clear_bank)
    reach = decisions_value(dec, cap)
    bank_threshold, bank_exc, clear_at, clear_exc = _summaries(rules, m, dec, reach)
    return MackeSolution(
        rules=rules, cap_units=cap, allow_returns=allow_returns, throw_value=vt,
        before_value=bt, clear_value=clear_v, decisions=dec,
        turn_ev=float(vt[0, rules.throws, m.empty]) * POINT_UNIT,
        bank_threshold=bank_threshold, bank_exceptions=bank_exc,
        clear_bank_at=clear_at, clear_exceptions=clear_exc, reach=reach)


# --------------------------------------------------------------------------
# when returning units pays
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ReturnExample:
    throw: int  # the coming throw of the series (2..L)
    locked: int  # real points of earlier series
    aside: str  # set-aside state before the return
    returned: str  # units put back into the cup
    kept: str  # units left set aside
    gain: float  # real points: value with the best return minus value returning nothing
    reach: float  # probability that the optimal policy meets this decision


@dataclass(frozen=True)
class ReturnsSummary:
    """Return decisions of the optimal policy.

    ``locked``: the locked total (points) looked at, None for all of them.
    ``by_throw[j]``: before throw ``j`` of a series, the set-aside states
    (names) the optimal policy reaches where it returns something (at
    ``locked``; for ``locked=None`` at any locked total); ``examples``: those
    decisions with the largest contribution ``reach * gain`` first;
    ``mean_returns``: expected returns per turn.
    """

    locked: int | None
    by_throw: dict
    examples: tuple[ReturnExample, ...]
    mean_returns: float


def returns_summary(sol: MackeSolution, locked: int | None = 0, top: int = 10) -> ReturnsSummary:
    """Where the optimal policy returns units: at locked total ``locked``
    (points), or at every locked total the policy reaches (``None``).

    At the start of a turn (locked 0) returning everything is free insurance:
    a Macke then costs the turn total after the return, 0.

    >>> s = solve_macke().returns_summary()
    >>> s.examples[0].aside, s.examples[0].returned, s.examples[0].throw
    ('5', '5', 2)
    """
    m = sol.tables
    n_throws = sol.rules.throws
    dec = sol.decisions
    reach = sol.reach.at_return
    t0s = range(sol.cap_units) if locked is None else [locked // POINT_UNIT]
    by_throw: dict = {n_throws - tl + 1: [] for tl in range(n_throws - 1, 0, -1)}
    examples = []
    for t0 in t0s:
        if t0 >= sol.cap_units or not reach[t0].any():
            continue
        for tl in range(1, n_throws):
            j = n_throws - tl + 1
            for u in np.nonzero((dec.ret[t0, tl] > 0) & (reach[t0, tl] > 0))[0]:
                s = int(m.sub_states[m.sub_start[u] + dec.ret[t0, tl, u]])
                gone = m.state_counts[u] - m.state_counts[s]
                gone_state = int(np.nonzero((m.state_counts == gone).all(axis=1))[0][0])
                gain = float(sol.before_value[t0, tl, u] - sol.throw_value[t0, tl, u]) * POINT_UNIT
                name = m.state_name(int(u))
                if name not in by_throw[j]:
                    by_throw[j].append(name)
                examples.append(ReturnExample(j, t0 * POINT_UNIT, name, m.state_name(gone_state),
                                              m.state_name(s), gain, float(reach[t0, tl, u])))
    examples.sort(key=lambda e: (-e.reach * e.gain, -e.gain))
    return ReturnsSummary(locked, by_throw, tuple(examples[:top]), sol.mean_returns)

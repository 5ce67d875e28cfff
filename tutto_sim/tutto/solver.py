r"""Exact turn values for Tutto: policy evaluation and the optimal policy.

Part of the solver layer (rules -> tables -> **solve** | kernels). It reads
the throw tables of the throw-table layer (exact multiset probabilities and the
points of every keep), so it scores throws exactly as the Monte Carlo kernel
``tutto_sim.tutto.turn_kernel`` does, and it reads threshold policies in that
kernel's ``pol[card, col]`` format. Conventions are the turn-analysis
conventions of docs/rules.md §6: cards are drawn independently with the deck
frequencies, the value of a turn is the expected number of points banked, a
Kleeblatt success is worth ``rules.cloverleaf_value``.

Mathematics
-----------
All points are in units of 50. ``T`` is the turn total, ``q_c`` the deck
frequency of card ``c`` (10/56 Stop, ...), ``ms`` a throw of ``d`` dice as a
multiset with probability ``P(ms)``, ``K(ms)`` the dice counts ``k`` a legal
keep can set aside and ``pi(ms, k)`` the most points such a keep scores
(``best_pts``; ``K(ms)`` empty is a bust). Only the most points per ``k``
matter because every value below is non-decreasing in ``T`` (and in the x2
card points ``p``): a player with more points can copy the play of one with
fewer and bank at least as much, since every card adds to or doubles the total.

*Drawing and Tutto.* With turn total ``T`` at risk, drawing a card is worth

.. math:: D(T) = \sum_c q_c\, S_c(T),

and after a Tutto the player banks or draws: :math:`W(T) = \max(T, D(T))`.

*Bonus b and x2* (may bank before a Tutto). State ``(T, d)``: ``d`` dice are
about to be thrown, plus the card's own points ``p`` under x2 scope "card":

.. math::
   E_c(T, p, d) = \sum_{ms} P(ms) \max_{k \in K(ms)}
                  U_c\bigl(T + \pi(ms,k),\; p + \pi(ms,k),\; d - k\bigr),

   U_c(T', p', d') = \max\bigl(T',\, E_c(T', p', d')\bigr) \quad (d' \ge 1),
   \qquad U_c(T', p', 0) = W(\tau_c(T', p')),

with the Tutto total :math:`\tau_b = T' + \text{bonus}_b`,
:math:`\tau_{x2} = 2T'` (scope "turn") or :math:`T' + p'` (scope "card"), and
the start value :math:`S_c(T) = E_c(T, 0, 6)` (a drawn card is always played).
The card points are bounded by the dice, ``p <= p_max = 40`` (2000 points:
two triples of 1s), so the ``p`` dimension needs no cap.

*Plus/Minus and Kleeblatt* (no banking, rolled points do not count): only the
chance of a Tutto matters, maximised by

.. math:: P^*_d = \sum_{ms} P(ms) \max_{k \in K(ms)} P^*_{d-k}, \qquad P^*_0 = 1;

:math:`S_{PM}(T) = P^*_6\, W(T + 20)` (``plusminus_chain`` "continue"),
:math:`P^*_6 (T + 20)` ("bank") or :math:`20 P^*_6` ("flat");
:math:`S_K(T) = (P^*_6)^2 v_K`.

*Straße.* With ``m`` numbers set aside the ``6 - m`` dice show ``j`` new
numbers with probability ``r(m, j)`` (by symmetry it does not matter which
numbers are set aside); the player sets aside ``t in 1..j`` of them:

.. math:: Q^*_m = \sum_{j \ge 1} r(m, j) \max_{1 \le t \le j} Q^*_{m+t},
   \qquad Q^*_6 = 1, \qquad S_{St}(T) = Q^*_0\, W(T + 40).

*Feuerwerk.* The keep is forced (all scoring dice) and the card ends only with
a bust, which banks everything. With ``F_d`` the expected points still to come
when ``d`` dice are about to be thrown, :math:`F_d = \sum_{ms} P(ms)
[k_{ms} > 0] (\pi_{ms} + F_{d - k_{ms}})`, :math:`F_0 \equiv F_6`. Each
:math:`F_d = a_d + b_d F_6` is linear in :math:`F_6`, so
:math:`F_6 = a_6 / (1 - b_6)` and :math:`S_F(T) = T + F_6`.

*Stop:* :math:`S_{Stop}(T) = 0`.

*Backward induction.* Every transition except the Feuerwerk loop (closed form)
and the dice of the no-points cards (which do not depend on ``T``) strictly
raises ``T``. So all values follow for ``T = cap - 1, ..., 0`` once the values
at ``T >= cap`` are fixed: there the player is assumed to bank (``U = T'``,
``W(T) = T``). This is exact as soon as banking is optimal at every total
``>= cap``; the tests check that raising the cap changes nothing.

*A given threshold policy* (the kernel's ``pol``; see :func:`exact_policy_value`)
is evaluated by the same recursion with every ``max`` replaced by the policy's
choice: the keep rule's keep, bank iff ``T' >= pol[c, d']``, after a Tutto bank
iff ``T >= pol[c, 6]``, under Straße ``t = min(j, pol[Straße, 7])``. Past the
cap that policy is assumed to bank too, which is an approximation only for
policies that never bank at high totals (see :data:`DEFAULT_CAP_UNITS`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numba import njit

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import KEEP_RULES, MAX_DICE, ThrowTables, build_tables
from tutto_sim.tutto.cards import DECK_COUNTS, DECK_SIZE, N_CARDS, Card
from tutto_sim.tutto.rules import PLUSMINUS_CHAIN_CHOICES, TuttoRules
from tutto_sim.tutto.turn_kernel import (
    CLOVERLEAF,
    COL_DRAW,
    COL_KEEP,
    COL_STREET,
    FIREWORKS,
    N_COLS,
    NEVER,
    PLUSMINUS,
    PLUSMINUS_UNITS,
    STOP,
    STREET,
    STREET_UNITS,
    X2,
)

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto solver's kernels"
COMPILE_SECONDS = 10  # the first run of its main command, 2 cores

#: Turn totals (units of 50) from which every player is assumed to bank:
#: 1200 units = 60000 points. Under default rules every optimal decision to
#: throw on or draw lies below 4500 points, so the optimal values are exact
#: (raising the cap changes nothing), and so are the values of every threshold
#: policy whose thresholds are below the cap. Only for a policy that never
#: banks at all is the cap an approximation: x2 doubles the total, which gives
#: the turn total a power-law tail (P(T > x) ~ x^-5), and the error falls like
#: cap^-4 (about 1e-3 points at this cap, 6e-5 at twice it).
DEFAULT_CAP_UNITS = 1200

#: Deck frequencies q_c of the turn-level analysis.
CARD_FREQ = np.array([DECK_COUNTS[Card(c)] / DECK_SIZE for c in range(N_CARDS)])


# --------------------------------------------------------------------------
# numba kernels (private, small)
# --------------------------------------------------------------------------


@njit(cache=True)
def _tutto_prob_rule(prob, start, keep_dice, rule):
    """P(Tutto) from d dice under a keep rule, no banking: ``p[d]``, ``p[0] = 1``."""
    p = np.zeros(MAX_DICE + 1)
    p[0] = 1.0
    for d in range(1, MAX_DICE + 1):
        acc = 0.0
        for ms in range(start[d], start[d + 1]):
            used = keep_dice[rule, ms]
            if used > 0:
                acc += prob[ms] * p[d - used]
        p[d] = acc
    return p


@njit(cache=True)
def _tutto_prob_best(prob, start, best_pts):
    """Most likely Tutto: ``p[d] = max over keeps``, and the best k per multiset."""
    p = np.zeros(MAX_DICE + 1)
    p[0] = 1.0
    best_k = np.zeros(prob.shape[0], dtype=np.int64)
    for d in range(1, MAX_DICE + 1):
        acc = 0.0
        for ms in range(start[d], start[d + 1]):
            best = -1.0
            for k in range(1, d + 1):
                # ties go to the keep with fewer dice: the more points is
                # irrelevant here, fewer dice is the natural reading
                if best_pts[ms, k] >= 0 and p[d - k] > best:
                    best = p[d - k]
                    best_k[ms] = k
            if best > 0.0:
                acc += prob[ms] * best
        p[d] = acc
    return p, best_k


@njit(cache=True)
def street_new_numbers(prob, start, faces):
    """``r[m, j]``: P(the 6 - m dice show j numbers not among the m set aside)."""
    r = np.zeros((MAX_DICE + 1, MAX_DICE + 1))
    for m in range(MAX_DICE):
        n = MAX_DICE - m
        mask = (1 << m) - 1  # by symmetry any m numbers will do
        for ms in range(start[n], start[n + 1]):
            new = faces[ms] & ~mask & 63
            j = 0
            while new != 0:
                new &= new - 1
                j += 1
            r[m, j] += prob[ms]
    return r


@njit(cache=True)
def _street_prob(r, take):
    """``Q[m]``: P(completing the Straße) with m numbers set aside, taking at
    most ``take`` new numbers per throw (``take <= 0``: the best number)."""
    q = np.zeros(MAX_DICE + 1)
    best_t = np.zeros((MAX_DICE + 1, MAX_DICE + 1), dtype=np.int64)
    q[MAX_DICE] = 1.0
    for m in range(MAX_DICE - 1, -1, -1):
        acc = 0.0
        for j in range(1, MAX_DICE - m + 1):
            if take > 0:
                best_t[m, j] = min(j, take)
                v = q[m + best_t[m, j]]
            else:
                v = -1.0
                for t in range(1, j + 1):
                    if q[m + t] > v:  # ties: fewer numbers, more dice kept
                        v = q[m + t]
                        best_t[m, j] = t
            acc += r[m, j] * v
        q[m] = acc
    return q, best_t


@njit(cache=True)
def _fireworks_gain(prob, start, keep_dice, keep_pts):
    """``F[d]``: expected points still to come under Feuerwerk with d dice to
    throw (``F[0] = F[6]``), from :math:`F_d = a_d + b_d F_6`; also ``b_6``."""
    a = np.zeros(MAX_DICE + 1)
    b = np.zeros(MAX_DICE + 1)
    b[0] = 1.0  # F_0 = F_6: a Tutto goes on with 6 dice
    for d in range(1, MAX_DICE + 1):
        for ms in range(start[d], start[d + 1]):
            used = keep_dice[0, ms]
            if used > 0:
                a[d] += prob[ms] * (keep_pts[0, ms] + a[d - used])
                b[d] += prob[ms] * b[d - used]
    f6 = a[MAX_DICE] / (1.0 - b[MAX_DICE])
    f = a + b * f6
    f[0] = f6
    return f, b[MAX_DICE]


@njit(cache=True)
def _policy_first_tutto(pol, c, cpmax, prob, start, keep_dice, keep_pts):
    """P(a bankable card c, played from turn total 0 by ``pol``, reaches a Tutto)."""
    rule = pol[c, COL_KEEP]
    # h[T, d]: probability of the Tutto from total T (= this card's points)
    h = np.zeros((cpmax + 1, MAX_DICE + 1))
    for t in range(cpmax, -1, -1):
        for d in range(1, MAX_DICE + 1):
            acc = 0.0
            for ms in range(start[d], start[d + 1]):
                used = keep_dice[rule, ms]
                if used == 0:
                    continue
                t2 = t + keep_pts[rule, ms]
                left = d - used
                if left == 0:
                    acc += prob[ms]
                elif t2 < pol[c, left] and t2 <= cpmax:
                    acc += prob[ms] * h[t2, left]
            h[t, d] = acc
    return h[0, MAX_DICE]


@njit(cache=True)
def _policy_after_tutto(pol, c, tt, cap, draw):
    """Value of the policy after a Tutto of card c that made the total tt."""
    if tt >= cap or tt >= pol[c, COL_DRAW]:
        return float(tt)
    return draw[tt]


@njit(cache=True)
def _policy_throw(pol, c, t, cp, d, cap, x2_card, prob, start, keep_dice,
                  keep_pts, bonus, draw, e, ex):
    """E_c(t, cp, d) under ``pol`` for a bankable card c."""
    rule = pol[c, COL_KEEP]
    acc = 0.0
    for ms in range(start[d], start[d + 1]):
        used = keep_dice[rule, ms]
        if used == 0:
            continue  # bust: the turn total is lost
        pts = keep_pts[rule, ms]
        t2 = t + pts
        left = d - used
        if left == 0:
            if c == X2:
                tt = t2 + cp + pts if x2_card else 2 * t2
            else:
                tt = t2 + bonus[c]
            v = _policy_after_tutto(pol, c, tt, cap, draw)
        elif t2 >= cap or t2 >= pol[c, left]:
            v = float(t2)
        elif c == X2 and x2_card:
            v = ex[t2, cp + pts, left]
        else:
            v = e[c, t2, left]
        acc += prob[ms] * v
    return acc


@njit(cache=True)
def _policy_values(pol, cap, x2_card, pm_chain, clover_value, cpmax, freq,
                   bonus, bankable, prob, start, keep_dice, keep_pts,
                   p_keep, street_q, fw_gain):
    """Backward induction over T for a threshold policy: ``D[T]``, ``S[c, T]``."""
    n_cards = freq.shape[0]
    draw = np.zeros(cap)
    s = np.zeros((n_cards, cap))
    e = np.zeros((n_cards, cap, MAX_DICE + 1))
    ex = np.zeros((cap if x2_card else 1, cpmax + 1, MAX_DICE + 1))
    for t in range(cap - 1, -1, -1):
        for c in range(n_cards):
            if bankable[c] and c == X2 and x2_card:
                for d in range(1, MAX_DICE + 1):
                    lo = 0 if d == MAX_DICE else 1
                    hi = 0 if d == MAX_DICE else min(t, cpmax)
                    for cp in range(lo, hi + 1):
                        ex[t, cp, d] = _policy_throw(
                            pol, c, t, cp, d, cap, x2_card, prob, start,
                            keep_dice, keep_pts, bonus, draw, e, ex)
                s[c, t] = ex[t, 0, MAX_DICE]
            elif bankable[c]:
                for d in range(1, MAX_DICE + 1):
                    e[c, t, d] = _policy_throw(
                        pol, c, t, 0, d, cap, x2_card, prob, start, keep_dice,
                        keep_pts, bonus, draw, e, ex)
                s[c, t] = e[c, t, MAX_DICE]
            elif c == FIREWORKS:
                s[c, t] = t + fw_gain
            elif c == PLUSMINUS:
                p = p_keep[pol[c, COL_KEEP], MAX_DICE]
                if pm_chain == 0:
                    s[c, t] = p * _policy_after_tutto(pol, c, t + PLUSMINUS_UNITS, cap, draw)
                elif pm_chain == 1:
                    s[c, t] = p * (t + PLUSMINUS_UNITS)
                else:
                    s[c, t] = p * PLUSMINUS_UNITS
            elif c == STREET:
                s[c, t] = street_q * _policy_after_tutto(pol, c, t + STREET_UNITS, cap, draw)
            elif c == CLOVERLEAF:
                p = p_keep[pol[c, COL_KEEP], MAX_DICE]
                s[c, t] = p * p * clover_value
            # Stop: 0
        acc = 0.0
        for c in range(n_cards):
            acc += freq[c] * s[c, t]
        draw[t] = acc
    return draw, s


@njit(cache=True)
def value_after_keep(c, t2, cp2, left, cap, x2_card, bonus, after, e, ex):
    """U_c(t2, cp2, left): optimal value right after setting dice aside."""
    if left == 0:
        if c == X2:
            tt = t2 + cp2 if x2_card else 2 * t2
        else:
            tt = t2 + bonus[c]
        return float(tt) if tt >= cap else after[tt]
    if t2 >= cap:
        return float(t2)
    if c == X2 and x2_card:
        return max(float(t2), ex[t2, cp2, left])
    return max(float(t2), e[c, t2, left])


@njit(cache=True)
def _keep_values(c, ms, t, cp, cap, x2_card, best_pts, n_dice, bonus, after, e, ex):
    """``v[k]`` = U after the best keep of k dice from throw ms, -1 if illegal."""
    d = n_dice[ms]
    v = np.full(MAX_DICE + 1, -1.0)
    for k in range(1, d + 1):
        pts = best_pts[ms, k]
        if pts >= 0:
            v[k] = value_after_keep(c, t + pts, cp + pts, d - k, cap, x2_card, bonus,
                               after, e, ex)
    return v


@njit(cache=True)
def _optimal_throw(c, t, cp, d, cap, x2_card, prob, start, best_pts, bonus,
                   after, e, ex):
    """E_c(t, cp, d) under optimal play for a bankable card c."""
    acc = 0.0
    for ms in range(start[d], start[d + 1]):
        best = 0.0  # a bust (no legal keep) is worth 0
        for k in range(1, d + 1):
            pts = best_pts[ms, k]
            if pts >= 0:
                v = value_after_keep(c, t + pts, cp + pts, d - k, cap, x2_card,
                                bonus, after, e, ex)
                if v > best:
                    best = v
        acc += prob[ms] * best
    return acc


@njit(cache=True)
def _optimal_values(cap, x2_card, pm_chain, clover_value, cpmax, freq, bonus,
                    bankable, prob, start, best_pts, p_tutto6, p_street, fw_gain):
    """Backward induction over T for the optimal policy.

    Returns ``D[T]``, ``W[T]``, ``S[c, T]``, ``E[c, T, d]`` and, for x2 scope
    "card", ``EX[T, p, d]`` (x2's E with its own points p).
    """
    n_cards = freq.shape[0]
    draw = np.zeros(cap)
    after = np.zeros(cap)
    s = np.zeros((n_cards, cap))
    e = np.zeros((n_cards, cap, MAX_DICE + 1))
    ex = np.zeros((cap if x2_card else 1, cpmax + 1, MAX_DICE + 1))
    for t in range(cap - 1, -1, -1):
        for c in range(n_cards):
            if bankable[c] and c == X2 and x2_card:
                for d in range(1, MAX_DICE + 1):
                    lo = 0 if d == MAX_DICE else 1
                    hi = 0 if d == MAX_DICE else min(t, cpmax)
                    for cp in range(lo, hi + 1):
                        ex[t, cp, d] = _optimal_throw(
                            c, t, cp, d, cap, x2_card, prob, start, best_pts,
                            bonus, after, e, ex)
                s[c, t] = ex[t, 0, MAX_DICE]
            elif bankable[c]:
                for d in range(1, MAX_DICE + 1):
                    e[c, t, d] = _optimal_throw(c, t, 0, d, cap, x2_card, prob,
                                                start, best_pts, bonus, after, e, ex)
                s[c, t] = e[c, t, MAX_DICE]
            elif c == FIREWORKS:
                s[c, t] = t + fw_gain
            elif c == PLUSMINUS:
                tt = t + PLUSMINUS_UNITS
                if pm_chain == 0:
                    s[c, t] = p_tutto6 * (float(tt) if tt >= cap else after[tt])
                elif pm_chain == 1:
                    s[c, t] = p_tutto6 * tt
                else:
                    s[c, t] = p_tutto6 * PLUSMINUS_UNITS
            elif c == STREET:
                tt = t + STREET_UNITS
                s[c, t] = p_street * (float(tt) if tt >= cap else after[tt])
            elif c == CLOVERLEAF:
                s[c, t] = p_tutto6 * p_tutto6 * clover_value
        acc = 0.0
        for c in range(n_cards):
            acc += freq[c] * s[c, t]
        draw[t] = acc
        after[t] = max(float(t), acc)
    return draw, after, s, e, ex


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def turn_tables(rules: TuttoRules) -> ThrowTables:
    return build_tables(rules.scoring)


def contiguous(a):
    return np.ascontiguousarray(a)


def max_card_points(tables: ThrowTables) -> int:
    """Most points (units) one card's dice can collect before its Tutto.

    Six dice, set aside over one or more throws, each throw scored alone:
    ``m[n] = max_{ms of n dice, k} best_pts[ms, k] + m[n - k]``.

    >>> max_card_points(build_tables()) * POINT_UNIT  # two triples of 1s
    2000
    """
    return _max_card_points(tables.scoring)


@functools.lru_cache(maxsize=8)
def _max_card_points(scoring) -> int:
    tables = build_tables(scoring)  # cached too: the tables are immutable
    m = [0] * (MAX_DICE + 1)
    for n in range(1, MAX_DICE + 1):
        best = 0
        for ms in tables.ids(n):
            for k in range(1, n + 1):
                p = int(tables.best_pts[ms, k])
                if p >= 0:
                    best = max(best, p + m[n - k])
        m[n] = best
    return m[MAX_DICE]


def _card_index(first_card) -> int:
    if first_card is None:
        return -1
    c = int(first_card)
    if not -1 <= c < N_CARDS:
        raise ValueError(f"first_card must be a Card, -1 or None, not {first_card!r}")
    return c


def _check_policy(pol) -> np.ndarray:
    pol = np.ascontiguousarray(pol, dtype=np.int64)
    if pol.shape != (N_CARDS, N_COLS):
        raise ValueError(f"policy must have shape ({N_CARDS}, {N_COLS}), not {pol.shape}")
    for c in Card:
        if c in (Card.STOP, Card.FIREWORKS, Card.STREET):
            continue
        if not 0 <= pol[c, COL_KEEP] < len(KEEP_RULES):
            raise ValueError(
                f"keep rule of {c.cli_name} must be 0..{len(KEEP_RULES) - 1} "
                f"({', '.join(KEEP_RULES)}), not {pol[c, COL_KEEP]}"
            )
    if pol[STREET, COL_STREET] < 1:
        raise ValueError(
            f"Straße take (column {COL_STREET}) must be >= 1, not {pol[STREET, COL_STREET]}"
        )
    return pol


def _check_cap(cap_units: int) -> int:
    cap = int(cap_units)
    if cap < 2 * STREET_UNITS:
        raise ValueError(f"cap_units must be >= {2 * STREET_UNITS}, not {cap_units}")
    return cap


def rule_params(rules: TuttoRules):
    bonus = np.array([Card(c).bonus // POINT_UNIT for c in range(N_CARDS)], dtype=np.int64)
    bankable = np.array([Card(c).can_bank_before_tutto for c in range(N_CARDS)])
    return (
        rules.x2_scope == "card",
        PLUSMINUS_CHAIN_CHOICES.index(rules.plusminus_chain),
        rules.cloverleaf_value // POINT_UNIT,
        bonus,
        bankable,
    )


# --------------------------------------------------------------------------
# probabilities
# --------------------------------------------------------------------------


def tutto_probability(rules: TuttoRules = TuttoRules(), keep_rule: int | None = None,
                      dice: int = MAX_DICE) -> float:
    """P(setting all dice aside) from ``dice`` dice when the player never banks.

    This is the Tutto chance of a Plus/Minus or Kleeblatt card, and of any card
    played to its Tutto. ``keep_rule`` is an index into ``tables.KEEP_RULES``;
    ``None`` means the keep that maximises the chance.

    >>> round(tutto_probability(), 6)
    0.270998
    """
    t = turn_tables(rules)
    if keep_rule is None:
        p, _ = _tutto_prob_best(contiguous(t.prob), contiguous(t.start), contiguous(t.best_pts))
    else:
        p = _tutto_prob_rule(contiguous(t.prob), contiguous(t.start), contiguous(t.keep_dice), int(keep_rule))
    return float(p[dice])


def cloverleaf_probability(rules: TuttoRules = TuttoRules(),
                           keep_rule: int | None = None) -> float:
    """P(two Tuttos in a row with 6 dice each): the Kleeblatt's success chance."""
    return tutto_probability(rules, keep_rule) ** 2


def street_probability(take: int | None = None, numbers_set: int = 0,
                       rules: TuttoRules = TuttoRules()) -> float:
    """P(completing the Straße) with ``numbers_set`` numbers already set aside.

    ``take`` = at most this many new numbers per throw (the kernel's column 7);
    ``None`` = the best number in every situation.

    >>> round(street_probability(take=6), 6), round(street_probability(), 6)
    (0.162763, 0.196902)
    """
    t = turn_tables(rules)
    r = street_new_numbers(contiguous(t.prob), contiguous(t.start), contiguous(t.faces))
    q, _ = _street_prob(r, 0 if take is None else max(1, int(take)))
    return float(q[numbers_set])


def fireworks_gain(rules: TuttoRules = TuttoRules()) -> float:
    """Expected points (real) a Feuerwerk adds to the turn total before its bust."""
    t = turn_tables(rules)
    f, _ = _fireworks_gain(contiguous(t.prob), contiguous(t.start), contiguous(t.keep_dice), contiguous(t.keep_pts))
    return float(f[MAX_DICE]) * POINT_UNIT


def policy_tutto_probability(pol, first_card, rules: TuttoRules = TuttoRules()
                             ) -> tuple[float, float]:
    """P(>= 1 Tutto) and P(>= 2 Tuttos) under the first card of a turn played by ``pol``.

    Exactly the statistics ``simulate_batch`` counts (k = 2 and 3): Bonus and
    x2 cards may bank before their Tutto; only Feuerwerk and Kleeblatt can
    reach a second Tutto under the same card. ``first_card`` -1 or None: the
    card is drawn with the deck frequencies.
    """
    pol = _check_policy(pol)
    c0 = _card_index(first_card)
    t = turn_tables(rules)
    prob, start = contiguous(t.prob), contiguous(t.start)
    kd, kp = contiguous(t.keep_dice), contiguous(t.keep_pts)
    cpmax = max_card_points(t)

    def one(c: int) -> tuple[float, float]:
        if c == STOP:
            return 0.0, 0.0
        if c == FIREWORKS:
            _, b6 = _fireworks_gain(prob, start, kd, kp)
            return b6, b6 * b6
        if c == STREET:
            p = street_probability(int(pol[STREET, COL_STREET]), 0, rules)
            return p, 0.0
        p = float(_tutto_prob_rule(prob, start, kd, int(pol[c, COL_KEEP]))[MAX_DICE])
        if c == CLOVERLEAF:
            return p, p * p
        if c == PLUSMINUS:
            return p, 0.0
        return _policy_first_tutto(pol, c, cpmax, prob, start, kd, kp), 0.0

    if c0 >= 0:
        return one(c0)
    both = np.array([one(c) for c in range(N_CARDS)])
    p1, p2 = CARD_FREQ @ both
    return float(p1), float(p2)


# --------------------------------------------------------------------------
# policy evaluation
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyValue:
    """Exact values of a threshold policy (see :func:`policy_value`).

    Attributes
    ----------
    draw_value:
        ``D[T]`` in units: value of drawing a card with turn total ``T`` at risk.
    start_value:
        ``S[c, T]`` in units: value of playing card ``c`` from total ``T``.
    card_ev:
        ``card_ev[c]`` in real points: a turn that starts by drawing ``c``.
    turn_ev:
        Real points: a turn with a random first card.
    """

    rules: TuttoRules
    cap_units: int
    draw_value: np.ndarray
    start_value: np.ndarray
    card_ev: np.ndarray
    turn_ev: float


def policy_value(pol, rules: TuttoRules = TuttoRules(),
                 cap_units: int = DEFAULT_CAP_UNITS) -> PolicyValue:
    """All exact values of the threshold policy ``pol`` (kernel format).

    Parameters
    ----------
    pol:
        int64 array ``(N_CARDS, 8)`` read exactly as ``play_turn`` of
        ``tutto_sim.tutto.turn_kernel`` reads it (thresholds in units of 50).
    rules:
        The rule settings (x2 scope, Plus/Minus chain, Kleeblatt value, six of
        a kind).
    cap_units:
        Turn total (units) from which the player is assumed to bank.
    """
    pol = _check_policy(pol)
    cap = _check_cap(cap_units)
    t = turn_tables(rules)
    x2_card, pm_chain, clover_value, bonus, bankable = rule_params(rules)
    prob, start = contiguous(t.prob), contiguous(t.start)
    kd, kp = contiguous(t.keep_dice), contiguous(t.keep_pts)
    p_keep = np.array([_tutto_prob_rule(prob, start, kd, r) for r in range(len(KEEP_RULES))])
    r = street_new_numbers(prob, start, contiguous(t.faces))
    street_q = float(_street_prob(r, int(pol[STREET, COL_STREET]))[0][0])
    fw, _ = _fireworks_gain(prob, start, kd, kp)
    draw, s = _policy_values(pol, cap, x2_card, pm_chain, clover_value,
                             max_card_points(t), CARD_FREQ, bonus, bankable, prob,
                             start, kd, kp, p_keep, street_q, float(fw[MAX_DICE]))
    card_ev = s[:, 0] * POINT_UNIT
    return PolicyValue(rules, cap, draw, s, card_ev, float(draw[0]) * POINT_UNIT)


def exact_policy_value(pol, first_card, rules: TuttoRules = TuttoRules(),
                       cap_units: int = DEFAULT_CAP_UNITS) -> float:
    """Exact expected banked points (real points) of a turn played by ``pol``.

    Parameters
    ----------
    pol:
        Threshold policy ``pol[card, col]`` in the kernel's format: col 0 keep
        rule, cols 1..5 bank thresholds by dice left, col 6 bank-after-Tutto
        threshold, col 7 Straße numbers per throw.
    first_card:
        The turn's first card (a :class:`Card` or its index), or -1 / None for
        a card drawn with the deck frequencies.
    rules, cap_units:
        As in :func:`policy_value`.

    Examples
    --------
    Play every card to its Tutto and bank then (only Bonus and x2 could stop
    earlier):

    >>> from tutto_sim.tutto.turn_kernel import NEVER
    >>> pol = np.full((N_CARDS, N_COLS), NEVER, dtype=np.int64)
    >>> pol[:, 0] = 0; pol[:, 6] = 0; pol[:, 7] = 6
    >>> round(exact_policy_value(pol, Card.PLUSMINUS), 3)  # 1000 x P(Tutto)
    264.565
    """
    c = _card_index(first_card)
    v = policy_value(pol, rules, cap_units)
    return v.turn_ev if c < 0 else float(v.card_ev[c])


# --------------------------------------------------------------------------
# the optimal policy
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TuttoSolution:
    """The optimal single-turn policy of Tutto and its values.

    Values are in units of 50 (``value * POINT_UNIT`` = real points) unless
    the name says points; thresholds are in real points.

    Attributes
    ----------
    rules, cap_units:
        What was solved; totals ``>= cap_units`` are banked.
    draw_value:
        ``D[T]``: value of drawing a card with turn total ``T`` at risk.
    after_tutto_value:
        ``W[T] = max(T, D[T])``.
    start_value:
        ``S[c, T]``: value of playing card ``c`` from total ``T``.
    throw_value:
        ``E[c, T, d]`` for Bonus cards (and x2 under scope "turn"): value
        before throwing ``d`` dice.
    x2_throw_value:
        ``EX[T, p, d]``: x2's throw value with its own points ``p`` under scope
        "card"; None under scope "turn".
    card_ev:
        Real points of a turn that starts with card ``c`` (index ``Card``).
    turn_ev:
        Real points of a turn (first card drawn with the deck frequencies).
    p_tutto, p_tutto_by_dice:
        Most likely Tutto from 6 dice (``by_dice[d]`` from d dice).
    p_cloverleaf:
        ``p_tutto ** 2``.
    p_street, p_street_by_take:
        Best Straße chance; ``by_take[t]`` with at most t numbers a throw
        (index 0 = best play).
    street_take:
        ``street_take[m, j]``: numbers to set aside with m set and j new shown.
    draw_below:
        Real points: after a Tutto, bank iff turn total >= this (draw below).
    draw_exceptions:
        Totals (real points) below ``draw_below`` where banking is optimal.
    bank_threshold:
        ``[c, d]`` real points, d = dice left 1..5 (column 0 unused): bank
        iff turn total >= it; ``NEVER`` for cards that may not bank. Under x2
        scope "card" the x2 row holds the largest threshold over its card points.
    x2_card_threshold:
        Under x2 scope "card": ``[d, p]`` real points, the x2 threshold with
        d dice left and the card's own points p (units; -1 where best-points
        keeps cannot leave d dice with p points); else None.
    bank_exceptions:
        ``(card, dice_left, turn_total, card_points)`` (points; card_points
        None except x2 scope "card") where banking is optimal below the
        threshold.
    """

    rules: TuttoRules
    cap_units: int
    draw_value: np.ndarray
    after_tutto_value: np.ndarray
    start_value: np.ndarray
    throw_value: np.ndarray
    x2_throw_value: np.ndarray | None
    card_ev: np.ndarray
    turn_ev: float
    p_tutto: float
    p_tutto_by_dice: np.ndarray
    p_cloverleaf: float
    p_street: float
    p_street_by_take: np.ndarray
    street_take: np.ndarray
    draw_below: int
    draw_exceptions: tuple[int, ...]
    bank_threshold: np.ndarray
    x2_card_threshold: np.ndarray | None
    bank_exceptions: tuple[tuple, ...]

    def keep_values(self, card, throw, turn_total: int, card_points: int = 0) -> np.ndarray:
        """Value (units) of each number of dice to set aside, -1 where illegal.

        ``throw`` is a multiset id or the dice faces; ``turn_total`` and
        ``card_points`` (x2 scope "card" only) are real points *before* the
        throw. Under Plus/Minus and Kleeblatt the value is the Tutto chance.
        """
        c = int(card)
        t = turn_tables(self.rules)
        ms = throw if isinstance(throw, (int, np.integer)) else t.multiset_of(list(throw))
        d = int(t.n_dice[ms])
        if c in (PLUSMINUS, CLOVERLEAF):
            v = np.full(MAX_DICE + 1, -1.0)
            for k in range(1, d + 1):
                if t.best_pts[ms, k] >= 0:
                    v[k] = self.p_tutto_by_dice[d - k]
            return v
        if not Card(c).can_bank_before_tutto:
            raise ValueError(f"{Card(c).cli_name} has no keep choice")
        x2_card, _, _, bonus, _ = rule_params(self.rules)
        ex = self.x2_throw_value if self.x2_throw_value is not None else np.zeros((1, 1, 7))
        return _keep_values(c, int(ms), turn_total // POINT_UNIT, card_points // POINT_UNIT,
                            self.cap_units, x2_card, contiguous(t.best_pts), contiguous(t.n_dice),
                            bonus, self.after_tutto_value, self.throw_value, ex)

    def best_keep(self, card, throw, turn_total: int = 0, card_points: int = 0
                  ) -> tuple[int, int]:
        """Optimal keep ``(dice, points)`` (real points) for a throw; (0, 0) = bust.

        For the same number of dice only the most points matter, so the keep
        is one of ``best_pts[ms, k]``. Feuerwerk: the forced keep. Straße: use
        :attr:`street_take`.

        Examples
        --------
        >>> sol = solve_tutto()
        >>> sol.best_keep(Card.BONUS300, [1, 5, 2, 3, 4, 6])  # the 1, not 1 and 5
        (1, 100)
        >>> sol.best_keep(Card.BONUS300, [1, 1, 5, 2, 3, 4], turn_total=1000)
        (3, 250)
        """
        c = int(card)
        t = turn_tables(self.rules)
        ms = throw if isinstance(throw, (int, np.integer)) else t.multiset_of(list(throw))
        if c == FIREWORKS:
            return int(t.keep_dice[0, ms]), int(t.keep_pts[0, ms]) * POINT_UNIT
        if c in (STOP, STREET):
            raise ValueError(f"{Card(c).cli_name} has no keep of scoring units")
        v = self.keep_values(c, ms, turn_total, card_points)
        if v.max() < 0:
            return 0, 0
        # ties: fewer dice (more dice left to throw)
        k = int(np.argmax(v))
        return k, int(t.best_pts[ms, k]) * POINT_UNIT

    def threshold_policy(self, keep_rule: int = 0) -> np.ndarray:
        """The optimal bank/draw thresholds as a kernel policy ``pol[card, col]``.

        The optimal keep is not a named keep rule, so ``keep_rule`` fills
        column 0; Straße gets the best fixed number of numbers per throw.
        """
        pol = np.full((N_CARDS, N_COLS), NEVER, dtype=np.int64)
        pol[:, COL_KEEP] = keep_rule
        for c in range(N_CARDS):
            for d in range(1, MAX_DICE):
                th = self.bank_threshold[c, d]
                pol[c, d] = NEVER if th >= NEVER else th // POINT_UNIT
        pol[:, COL_DRAW] = self.draw_below // POINT_UNIT
        pol[:, COL_STREET] = int(np.argmax(self.p_street_by_take[1:])) + 1
        return pol


def _threshold(bank: np.ndarray, lo: int) -> tuple[int, list[int]]:
    """Smallest t with ``bank[T]`` for all T >= t (over T >= lo), and the T < t
    where ``bank`` is nevertheless True."""
    not_bank = np.nonzero(~bank[lo:])[0]
    t = lo if len(not_bank) == 0 else lo + int(not_bank[-1]) + 1
    if t >= len(bank):
        return NEVER, []
    exc = [lo + int(i) for i in np.nonzero(bank[lo:t])[0]]
    return t, exc


def solve_tutto(rules: TuttoRules = TuttoRules(),
                cap_units: int = DEFAULT_CAP_UNITS) -> TuttoSolution:
    """The policy that maximises the expected banked points of a turn.

    Cards are drawn independently with the deck frequencies. The player picks
    the keep, banks or throws on (Bonus and x2 only), banks or draws after a
    Tutto, the Straße numbers to set aside, and under Plus/Minus and Kleeblatt
    the keep most likely to reach the Tutto. See the module docstring for the
    Bellman equations.

    Examples
    --------
    >>> sol = solve_tutto()
    >>> round(sol.turn_ev, 2) == round(float(CARD_FREQ @ sol.card_ev), 2)
    True
    """
    cap = _check_cap(cap_units)
    t = turn_tables(rules)
    x2_card, pm_chain, clover_value, bonus, bankable = rule_params(rules)
    prob, start, best_pts = contiguous(t.prob), contiguous(t.start), contiguous(t.best_pts)
    kd, kp = contiguous(t.keep_dice), contiguous(t.keep_pts)
    cpmax = max_card_points(t)

    p_tutto, _ = _tutto_prob_best(prob, start, best_pts)
    r = street_new_numbers(prob, start, contiguous(t.faces))
    q_best, street_take = _street_prob(r, 0)
    p_by_take = np.array([q_best[0]] + [_street_prob(r, k)[0][0] for k in range(1, 7)])
    fw, _ = _fireworks_gain(prob, start, kd, kp)

    draw, after, s, e, ex = _optimal_values(
        cap, x2_card, pm_chain, clover_value, cpmax, CARD_FREQ, bonus, bankable,
        prob, start, best_pts, float(p_tutto[MAX_DICE]), float(q_best[0]),
        float(fw[MAX_DICE]))

    # after a Tutto: bank iff T >= D(T)? (T >= 1: a Tutto never leaves 0)
    tt = np.arange(cap)
    draw_below, draw_exc = _threshold(tt >= draw, 1)

    bank_threshold = np.full((N_CARDS, MAX_DICE), NEVER, dtype=np.int64)
    x2_threshold = None
    exceptions: list[tuple] = []
    for c in range(N_CARDS):
        if not bankable[c]:
            continue
        for d in range(1, MAX_DICE):
            lo = MAX_DICE - d  # each die set aside scores at least 1 unit
            if c == X2 and x2_card:
                if x2_threshold is None:
                    x2_threshold = np.full((MAX_DICE, cpmax + 1), -1, dtype=np.int64)
                worst = lo
                for cp in range(lo, cpmax + 1):
                    if cp not in _reachable_card_points(rules.scoring)[d]:
                        continue
                    th, exc = _threshold(tt >= ex[:, cp, d], max(lo, cp))
                    x2_threshold[d, cp] = th if th >= NEVER else th * POINT_UNIT
                    worst = max(worst, th)
                    exceptions += [(Card(c), d, T * POINT_UNIT, cp * POINT_UNIT)
                                   for T in exc]
                bank_threshold[c, d] = worst if worst >= NEVER else worst * POINT_UNIT
            else:
                th, exc = _threshold(tt >= e[c, :, d], lo)
                bank_threshold[c, d] = th if th >= NEVER else th * POINT_UNIT
                exceptions += [(Card(c), d, T * POINT_UNIT, None) for T in exc]

    return TuttoSolution(
        rules=rules,
        cap_units=cap,
        draw_value=draw,
        after_tutto_value=after,
        start_value=s,
        throw_value=e,
        x2_throw_value=ex if x2_card else None,
        card_ev=s[:, 0] * POINT_UNIT,
        turn_ev=float(draw[0]) * POINT_UNIT,
        p_tutto=float(p_tutto[MAX_DICE]),
        p_tutto_by_dice=p_tutto,
        p_cloverleaf=float(p_tutto[MAX_DICE]) ** 2,
        p_street=float(q_best[0]),
        p_street_by_take=p_by_take,
        street_take=street_take,
        draw_below=draw_below if draw_below >= NEVER else draw_below * POINT_UNIT,
        draw_exceptions=tuple(T * POINT_UNIT for T in draw_exc),
        bank_threshold=bank_threshold,
        x2_card_threshold=x2_threshold,
        bank_exceptions=tuple(exceptions),
    )


@functools.lru_cache(maxsize=8)
def _reachable_card_points(scoring) -> tuple[frozenset, ...]:
    """``[d]``: the card points (units) best-points keeps can leave with d dice."""
    tables = build_tables(scoring)
    reach: list[set[int]] = [set() for _ in range(MAX_DICE + 1)]
    reach[MAX_DICE].add(0)
    for d in range(MAX_DICE, 0, -1):
        gains = {(k, int(tables.best_pts[ms, k])) for ms in tables.ids(d)
                 for k in range(1, d + 1) if tables.best_pts[ms, k] >= 0}
        for cp in reach[d]:
            for k, p in gains:
                reach[d - k].add(cp + p)
    return tuple(frozenset(r) for r in reach)

r"""Reference win probabilities of two-player Tutto, by plain value iteration.

A readable, deliberately slow second implementation (numpy, no numba) of the
win-probability view of the game (issue 13): written from the rules
(docs/rules.md §4-5), not from the fast solver, so that the two can check each
other, and small enough to read beside the rules. It solves tiny targets
(50 ... 1000 points) in seconds to minutes.

Conventions
-----------
Points are in units of 50 (``POINT_UNIT``); ``N = target / 50``. Cards are
drawn independently at the deck frequencies ``q_c`` (10/56 Stop, ...; the
rule option ``deck="iid"``, as the turn analysis assumes). Seat 0 moves first
in every round. ``W[s, a, b]`` is the probability that the player to move in
seat ``s`` wins when both players maximise their chance of winning, with the
mover on ``a`` and the opponent on ``b`` (``0 <= a, b < N``); a tie (round
end, equal highest scores) counts one half. ``p_first_wins = W[0, 0, 0]``.

One turn
--------
Within a turn of the player on ``a`` against ``b`` the state is the turn
total ``T``, the number ``m`` of Plus/Minus Tuttos made in this turn, and the
card's own state (dice left ``d``; numbers set aside under the Straße; the
Tuttos under the Kleeblatt). Every chance node is a throw of ``d`` dice taken
as a multiset ``x`` with its exact probability ``P(x)`` (multinomial over
``6**d`` ordered throws); ``K(x)`` are the distinct (dice ``k``, points
``pi``) of its legal keeps, each scored by ``dice.reference.best_split`` (a
throw with ``K(x)`` empty is a Niete). No keep is assumed to dominate another:
win probabilities need not rise with the turn total (a player who ties the
leader is hit by the leader's Plus/Minus), so every keep is tried.

Leaves. With ``D^m(b)`` the opponent's score after ``m`` Plus/Minus
deductions (who loses is fixed at the start of the turn: if the opponent
holds the highest score then, ``b >= a`` and ``b > 0``, each takes 20 units
from him, never below 0, else nothing; ``D^m(b) = max(0, b - 20 m)`` or ``b``):

* bank ``T``: :math:`B(T, m) = 1 - W[1-s, D^m(b), a + T]` while
  ``a + T < N``; at or above the target see *Game end*;
* Niete or Stop: :math:`Z(m) = 1 - W[1-s, b', a]` with ``b' = b`` (deduction
  ``bank``) or ``b' = D^m(b)`` (deduction ``tutto``: made at the Tutto, it
  stands);
* the Kleeblatt's second Tutto in a row: 1 (the game is won at once).

Values, from the highest turn total down (every step but the no-points cards
raises ``T``; those depend on ``T`` only through their leaves):

.. math::
   \mathrm{Draw}(T, m) = \sum_c q_c\, S_c(T, m), \qquad
   \mathrm{Post}(T, m) = \max\bigl(B(T, m), \mathrm{Draw}(T, m)\bigr)

(after a Tutto: bank or draw); the turn is worth :math:`\mathrm{Draw}(0, 0)`.

* Stop: :math:`S = Z(m)`.
* Bonus ``v`` and ×2 (may bank before a Tutto):
  :math:`E_c(T, m, d) = \sum_x P(x) \max_{(k, \pi) \in K(x)} U_c(T + \pi, m, d - k)`
  (a Niete gives ``Z(m)``), :math:`U_c(T', m, d') = \max(B(T', m), E_c(T', m, d'))`
  for ``d' >= 1`` and :math:`U_c(T', m, 0) = \mathrm{Post}(\tau_c(T'), m)` with
  :math:`\tau = T' + v` (Bonus) or :math:`2T'` (×2, scope ``turn``); :math:`S_c = E_c(T, m, 6)`.
* Plus/Minus: rolled points do not count, so with the Tutto value
  :math:`V_0 = \mathrm{Post}(T + 20, m + 1)` (chain ``continue``),
  :math:`B(T + 20, m + 1)` (``bank``) or :math:`B(20, m + 1)` (``flat``):
  :math:`V_d = \sum_x P(x) \max_{(k, \pi)} V_{d-k}`, Niete ``Z(m)``; :math:`S = V_6`.
* Kleeblatt: :math:`K^{(2)}_0 = 1`, :math:`K^{(1)}_0 = K^{(2)}_6`, each
  :math:`K_d = \sum_x P(x) \max K_{d-k}` (Niete ``Z(m)``); :math:`S = K^{(1)}_6`.
* Straße: with ``j`` numbers set aside the ``6 - j`` dice show ``n`` new
  numbers (by symmetry, which ``j`` are set aside does not matter); the player
  sets aside ``t`` of them, ``1 <= t <= n``:
  :math:`Q_j = \sum_x P(x) \max_t Q_{j+t}` (``n = 0``: ``Z(m)``),
  :math:`Q_6 = \mathrm{Post}(T + 40, m)`, :math:`S = Q_0`.
* Feuerwerk: the keep is forced (the most dice, then the most points) and a
  Niete banks everything, so only the distribution of the points ``X`` still
  to come matters: :math:`F_d(x) = \sum_x P(x)[\text{Niete}]\,\delta_{x0} +
  P(x)[\text{keep } (k,\pi)]\,F_{d-k}(x - \pi)`, :math:`F_0 = F_6` (a Tutto goes
  on with 6 dice); every keep scores, so ``F(x)`` needs only smaller ``x``.
  :math:`S = \sum_x F_6(x)\, B(T + x, m)`.

Game end
--------
``immediate``: banking at or above the target wins (1). ``round``: seat 1
reaching the target wins (seat 0 is below it: the round is complete). When
seat 0 banks ``a + T >= N``, seat 1 has one last turn:
:math:`B(T, m) = 1 - L[D^m(b), a + T]`, where ``L[c, s0]`` is the chance that
seat 1 on ``c`` beats seat 0 on ``s0``. That last turn is the same turn
recursion with terminal leaves: bank ``T`` gives 1, 1/2 or 0 as ``c + T`` is
above, equal to or below seat 0's score after the deductions (Plus/Minus still
applies), a Niete compares ``c`` with that score, the Kleeblatt wins.

Caps (the only approximation): a turn total above the cap is counted as
the cap, where the player banks. For ``immediate`` and seat 1 the cap is
``N - a`` (banking there wins, so this is exact); for seat 0 under ``round``
it is ``N - a + lead_cap`` (a lead over the target above ``lead_cap`` counts
as ``lead_cap``: seat 0 banks there); the last turn's cap is exact. Seat 0
does press on far past a small target, so the cap matters: to 50 points
(``round``), ``p_first_wins`` is 0.429215, 0.434559, 0.434629 and 0.434632
with lead caps of 20, 40, 60 and 80 units (default 80 = 4000 points).

The whole game
--------------
Scores only rise, except the deductions, and a Niete only swaps the mover,
so the game graph has cycles; plain value iteration (Gauss-Seidel sweeps,
seat 0 then seat 1, highest own score first) from ``W = 0`` converges
geometrically and stops when no entry moves by more than ``tol``.

Three and four players
----------------------
:func:`solve_reference_n` plays the same game at a table of ``N`` (2-4) with
vector values ``W[s, x_0, ..., x_{N-1}, p]`` (player ``p``'s chance at the
start of seat ``s``'s turn); see the comments above it and docs/win.md.

Fixed policies
--------------
A player who follows a decision table (the ``optimal`` bot: the EV-optimal
turn table of ``tutto_sim.tutto.solver``, choices by card and row
``min(T, rows - 1)``) decides without looking at the scores, so the chances
of his turn's ends (bank ``T`` after ``m`` Plus/Minus Tuttos, Niete after
``m``, Kleeblatt) are found once, forwards in the order of ``T``
(:func:`table_outcomes`; no cap matters: the table banks long before 400
units), and each of his turns in the value iteration is the sum of its ends'
chances times their leaves. A win-optimal player against him decides by the
fixed win-optimal ``W`` while the values are carried with the game against
the table: the turn arrays carry two rows, row 0 decides, row 1 is the
value. Ties go to the first option: bank before throwing on or drawing,
keeps in the order fewest dice, then fewest points.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from tutto_sim.dice.reference import best_split
from tutto_sim.dice.scoring import POINT_UNIT, ScoringRules
from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.cards import BONUS_POINTS, DECK_COUNTS, DECK_SIZE, Card
from tutto_sim.tutto.rules import TuttoRules

PM_UNITS = 1000 // POINT_UNIT
STREET_UNITS = 2000 // POINT_UNIT
DEFAULT_LEAD_CAP = 80
DEFAULT_TOL = 1e-12
MAX_TARGET = 2000  # points: beyond this the reference takes too long to be useful
BANKABLE = [c for c in Card if c in BONUS_POINTS] + [Card.X2]


# --------------------------------------------------------------------------
# throws of d dice as multisets
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DiceThrows:
    """Every multiset of ``d`` dice: probability, keeps, forced keep, faces.

    ``keep_k[x, i], keep_pts[x, i]`` are the distinct (dice, points) keeps of
    multiset ``x`` (fewest dice, then fewest points first), padded to a common
    width with ``ok[x, i] = False``; a Niete has no keep at all.
    """

    prob: np.ndarray
    keep_k: np.ndarray
    keep_pts: np.ndarray
    ok: np.ndarray
    niete: np.ndarray  # bool [x]
    forced: list  # (k, points) of the Feuerwerk keep, (0, 0) for a Niete
    faces: list  # set of faces shown
    counts: list  # face counts, for the decision tables' multiset ids


def _multisets(d: int):
    for dice in itertools.combinations_with_replacement(range(1, 7), d):
        counts = [dice.count(f) for f in range(1, 7)]
        ways = math.factorial(d)
        for c in counts:
            ways //= math.factorial(c)
        yield dice, counts, ways / 6**d


@functools.lru_cache(maxsize=4)
def dice_throws(scoring: ScoringRules) -> dict[int, DiceThrows]:
    out = {}
    for d in range(1, 7):
        probs, keeps, forced, faces, counts = [], [], [], [], []
        for dice, cnt, p in _multisets(d):
            found = set()
            for size in range(1, d + 1):
                for sub in set(itertools.combinations(dice, size)):
                    pts = best_split(sub, scoring)
                    if pts is not None:
                        found.add((size, pts // POINT_UNIT))
            probs.append(p)
            keeps.append(sorted(found))
            forced.append(max(found) if found else (0, 0))
            faces.append(set(dice))
            counts.append(tuple(cnt))
        width = max(len(k) for k in keeps)
        kk = np.zeros((len(keeps), width), dtype=np.int64)
        kp = np.zeros_like(kk)
        ok = np.zeros(kk.shape, dtype=bool)
        for x, ks in enumerate(keeps):
            for i, (k, pts) in enumerate(ks):
                kk[x, i], kp[x, i], ok[x, i] = k, pts, True
        out[d] = DiceThrows(np.array(probs), kk, kp, ok, ~ok.any(axis=1), forced, faces, counts)
    return out


@functools.lru_cache(maxsize=64)
def fireworks_points(scoring: ScoringRules, x_max: int) -> np.ndarray:
    """``F[x]``, x = 0..x_max: the chance that a Feuerwerk played from 6 dice
    collects exactly ``x`` units before its Niete; the rest (more than
    ``x_max``) is added to ``F[x_max]``."""
    throws = dice_throws(scoring)
    f = np.zeros((7, x_max + 1))  # f[d, x]; f[0] = f[6]
    for x in range(x_max + 1):
        for d in range(1, 7):
            th = throws[d]
            total = 0.0
            for i, p in enumerate(th.prob):
                k, pts = th.forced[i]
                if k == 0:
                    total += p * (x == 0)
                elif pts <= x:
                    total += p * f[6 if k == d else d - k, x - pts]
            f[d, x] = total
    out = f[6].copy()
    out[x_max] += 1.0 - out.sum()
    return out


def street_chances() -> dict[int, np.ndarray]:
    """``r[j][n]``: with ``j`` numbers set aside, the chance that the ``6 - j``
    dice show exactly ``n`` new numbers (numbers 1..j set aside, by symmetry)."""
    out = {}
    for j in range(6):
        r = np.zeros(7)
        for dice, _, p in _multisets(6 - j):
            r[len({f for f in dice if f > j})] += p
        out[j] = r
    return out


def deducted(mover: np.ndarray | int, other: np.ndarray, m: int) -> np.ndarray:
    """The other player's score after ``m`` Plus/Minus deductions by the mover.
    Who loses is fixed once, from the scores at the start of the turn: if he
    holds the highest score then (ties too, above 0), each takes 20 units,
    never below 0, even once he has fallen below the mover."""
    other = np.array(other, dtype=np.int64)
    hit = (other >= mover) & (other > 0)
    return np.where(hit, np.maximum(0, other - m * PM_UNITS), other)


def compare(mine, theirs) -> np.ndarray:
    """1 if mine is higher, 1/2 on a tie, 0 below."""
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    return np.where(mine > theirs, 1.0, np.where(mine == theirs, 0.5, 0.0))


# --------------------------------------------------------------------------
# one turn, vectorised over a set of starts (rows R x starts S)
# --------------------------------------------------------------------------


@dataclass
class Leaves:
    """The leaves of a turn for S starts: ``bank[T, m, r, s]`` for T = 0..t_cap
    (a higher total counts as t_cap), ``bust[m, r, s]``; rows r: 0 decides,
    the last is the value (one row: both). ``win``: the Kleeblatt's second
    Tutto (default 1: the game is won)."""

    bank: np.ndarray
    bust: np.ndarray
    win: float = 1.0

    @property
    def t_cap(self) -> int:
        return self.bank.shape[0] - 1


def _pick(options: list[np.ndarray]) -> np.ndarray:
    """The option with the highest row 0, per start; ties to the first."""
    best = options[0]
    for o in options[1:]:
        best = np.where(o[0:1] > best[0:1], o, best)
    return best


class TurnSolver:
    """The turn recursion of the module docstring (the player maximises)."""

    def __init__(self, rules: TuttoRules):
        if rules.x2_scope != "turn":
            raise ValueError("the reference win solver plays x2_scope 'turn' only")
        self.rules = rules
        self.throws = dice_throws(rules.scoring)
        self.street = street_chances()
        self.q = {c: DECK_COUNTS[c] / DECK_SIZE for c in Card}

    def _throw(self, d: int, values: np.ndarray, niete: np.ndarray) -> np.ndarray:
        """Expected value of throwing d dice. ``values[x, i]`` ([x, i, R, S]) is
        the value after keep i of multiset x; a Niete gives ``niete`` ([R, S])."""
        th = self.throws[d]
        if values.shape[2] == 1:  # the deciding row is the value row
            chosen = np.where(th.ok[:, :, None, None], values, -np.inf).max(axis=1)
        else:
            dec = np.where(th.ok[:, :, None], values[:, :, 0, :], -np.inf)
            choice = dec.argmax(axis=1)  # [x, S]; the first maximum
            chosen = np.take_along_axis(values, choice[:, None, None, :], axis=1)[:, 0]
        chosen = np.where(th.niete[:, None, None], 0.0, chosen)
        flat = th.prob @ chosen.reshape(len(th.prob), -1)
        return flat.reshape(niete.shape) + th.prob[th.niete].sum() * niete

    def _no_points_card(self, tutto: np.ndarray, niete: np.ndarray) -> np.ndarray:
        """Plus/Minus, or one Tutto of the Kleeblatt: V_6 from the Tutto value V_0."""
        v = np.zeros((7,) + tutto.shape)
        v[0] = tutto
        for d in range(1, 7):
            v[d] = self._throw(d, v[d - self.throws[d].keep_k], niete)
        return v[6]

    def _street(self, done: np.ndarray, niete: np.ndarray) -> np.ndarray:
        q = {6: done}
        for j in range(5, -1, -1):
            r = self.street[j]
            acc = r[0] * niete
            for n in range(1, 7 - j):
                acc = acc + r[n] * _pick([q[j + t] for t in range(1, n + 1)])
            q[j] = acc
        return q[0]

    def solve(self, leaves: Leaves) -> np.ndarray:
        """``Draw(0, 0)``: the value of the turn for every start ([R, S])."""
        rules, cap = self.rules, leaves.t_cap
        bank, bust = leaves.bank, leaves.bust
        n_m, shape = bank.shape[1], bank.shape[2:]
        fw = fireworks_points(rules.scoring, cap)
        totals = np.arange(cap + 1)
        # after[m, T' * 7 + d', r, c, s]: the value once a keep under bankable card c
        # (all six side by side) leaves total T' and d' dice: d' >= 1 bank or throw
        # on (U_c), d' = 0 the Tutto (Post at tau_c(T'))
        tau = [np.minimum(2 * totals if c is Card.X2 else totals + BONUS_POINTS[c] // POINT_UNIT,
                          cap) for c in BANKABLE]
        n_r, n_s, n_c = shape[0], shape[1], len(BANKABLE)
        after = np.zeros((n_m, (cap + 1) * 7, n_r, n_c, n_s))
        post = np.zeros((cap + 1, n_m) + shape)  # after a Tutto: bank or draw
        draw = np.zeros((cap + 1, n_m) + shape)
        win = np.full(shape, leaves.win)
        kleeblatt = {}  # m -> the Kleeblatt's value (it does not depend on T)
        for t in range(cap, -1, -1):
            for m in range(n_m):
                if t == cap:  # the player banks at the cap
                    post[t, m] = bank[t, m]
                    after[m, t * 7:(t + 1) * 7] = bank[t, m][:, None, :]
                    continue
                starts = {Card.STOP: bust[m]}
                for i in range(n_c):
                    after[m, 7 * totals, :, i] = post[tau[i], m]  # the Tuttos (valid above t)
                niete = np.repeat(bust[m][:, None, :], n_c, axis=1).reshape(n_r, n_c * n_s)
                here = np.repeat(bank[t, m][:, None, :], n_c, axis=1)
                for d in range(1, 7):
                    th = self.throws[d]
                    where = 7 * np.minimum(t + th.keep_pts, cap) + d - th.keep_k
                    values = after[m][where].reshape(where.shape + (n_r, n_c * n_s))
                    e = self._throw(d, values, niete).reshape(n_r, n_c, n_s)
                    if d == 6:
                        starts.update((c, e[:, i]) for i, c in enumerate(BANKABLE))
                    else:  # reached with d dice left and total t: bank or throw on
                        after[m, 7 * t + d] = _pick([here, e])
                m1 = min(m + 1, n_m - 1)
                chain = rules.plusminus_chain
                pm_tutto = (post[min(t + PM_UNITS, cap), m1] if chain == "continue"
                            else bank[min(t + PM_UNITS, cap), m1] if chain == "bank"
                            else bank[min(PM_UNITS, cap), m1])
                starts[Card.PLUSMINUS] = self._no_points_card(pm_tutto, bust[m])
                starts[Card.STREET] = self._street(post[min(t + STREET_UNITS, cap), m], bust[m])
                starts[Card.FIREWORKS] = np.tensordot(
                    fw, bank[np.minimum(t + totals, cap), m], axes=1)
                if m not in kleeblatt:
                    second = self._no_points_card(win, bust[m])
                    kleeblatt[m] = self._no_points_card(second, bust[m])
                starts[Card.CLOVERLEAF] = kleeblatt[m]
                draw[t, m] = sum(self.q[c] * starts[c] for c in Card)
                post[t, m] = _pick([bank[t, m], draw[t, m]])
        return draw[0, 0]


# --------------------------------------------------------------------------
# a player who follows a decision table: the turn's outcomes do not depend
# on the scores, so they are found once, forwards
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnOutcomes:
    """Chances of the ends of one turn: ``bank[T, m]`` (bank T units after m
    Plus/Minus Tuttos; totals above the cap are counted at the cap), ``bust[m]``
    (a Niete or Stop after m Plus/Minus Tuttos) and ``win`` (the Kleeblatt)."""

    bank: np.ndarray
    bust: np.ndarray
    win: float


def table_outcomes(rules: TuttoRules, table, t_cap: int = 400) -> TurnOutcomes:
    """The turn of a player who follows ``table`` (a ``table_kernel.BotTable``:
    keep, bank, draw and Straße choices by card and turn total, row
    ``min(T, rows - 1)``), by forward propagation of exact probabilities in
    the order of the turn total; the Feuerwerk keeps are forced."""
    if rules.x2_scope != "turn":
        raise ValueError("the reference win solver plays x2_scope 'turn' only")
    throws = dice_throws(rules.scoring)
    ids = build_tables(rules.scoring)._index
    rows = table.draw.shape[1]
    q = {c: DECK_COUNTS[c] / DECK_SIZE for c in Card}
    n_m = t_cap // PM_UNITS + 2  # every Plus/Minus Tutto adds 20 units

    @functools.lru_cache(maxsize=None)
    def keeps(card: Card, row: int, d: int):
        th = throws[d]
        tid = np.array([ids[(d, c)] for c in th.counts])
        k = table.keep[int(card), row, tid].astype(np.int64)
        # the most points for k dice, as the table's bot scores its keep
        pts = np.where(th.ok & (th.keep_k == k[:, None]), th.keep_pts, 0).max(axis=1)
        return k, pts

    @functools.lru_cache(maxsize=None)
    def tutto_chance(card: Card, row: int) -> float:
        p = [1.0]
        for d in range(1, 7):
            k, _ = keeps(card, row, d)
            p.append(sum(throws[d].prob[x] * p[d - k[x]] for x in range(len(k)) if k[x]))
        return p[6]

    def street_chance() -> float:
        r, qq = street_chances(), {6: 1.0}
        for j in range(5, -1, -1):
            qq[j] = sum(r[j][n] * qq[j + int(table.street[j, n])] for n in range(1, 7 - j))
        return qq[0]

    def row(t: int) -> int:
        return min(t, rows - 1)

    bank = np.zeros((t_cap + 1, n_m))
    bust = np.zeros(n_m)
    win = 0.0
    draw = np.zeros((t_cap + 1, n_m))
    draw[0, 0] = 1.0
    tutto = {c: np.zeros((t_cap + 1, n_m)) for c in BANKABLE + [Card.PLUSMINUS, Card.STREET]}
    dice = {c: np.zeros((t_cap + 1, n_m, 7)) for c in BANKABLE}
    fw = fireworks_points(rules.scoring, t_cap)
    p_street = street_chance()
    for t in range(t_cap + 1):
        for c, mass in tutto.items():  # Tuttos reaching t: bank or draw
            if t < t_cap and table.draw[int(c), row(t)]:
                draw[t] += mass[t]
            else:
                bank[t] += mass[t]
        for c in BANKABLE:
            dice[c][t, :, 6] += q[c] * draw[t]
            for d in range(6, 0, -1):
                mass = dice[c][t, :, d]
                if t == t_cap:
                    bank[t] += mass
                    continue
                if not mass.any():
                    continue
                th = throws[d]
                k, pts = keeps(c, row(t), d)
                bust += th.prob[k == 0].sum() * mass
                scores = k > 0
                t2 = np.minimum(t + pts[scores], t_cap)
                d2 = d - k[scores]
                share = np.outer(th.prob[scores], mass)
                done = d2 == 0  # a Tutto
                top = 2 * t2 if c is Card.X2 else t2 + BONUS_POINTS[c] // POINT_UNIT
                np.add.at(tutto[c], np.minimum(top[done], t_cap), share[done])
                banks = ~done & table.bank[int(c), np.maximum(d2, 1), np.minimum(t2, rows - 1)]
                np.add.at(bank, t2[banks], share[banks])
                on = ~done & ~banks
                np.add.at(dice[c], (t2[on], slice(None), d2[on]), share[on])
        here = draw[t]
        if t == t_cap or not here.any():
            continue
        bust += q[Card.STOP] * here
        p_pm = tutto_chance(Card.PLUSMINUS, row(t))
        bust += q[Card.PLUSMINUS] * (1 - p_pm) * here
        moved = np.zeros(n_m)
        moved[1:] = here[:-1]
        moved[-1] += here[-1]
        moved *= q[Card.PLUSMINUS] * p_pm
        if rules.plusminus_chain == "continue":
            tutto[Card.PLUSMINUS][min(t + PM_UNITS, t_cap)] += moved
        else:
            bank[min(t + PM_UNITS if rules.plusminus_chain == "bank" else PM_UNITS, t_cap)] += moved
        tutto[Card.STREET][min(t + STREET_UNITS, t_cap)] += q[Card.STREET] * p_street * here
        bust += q[Card.STREET] * (1 - p_street) * here
        np.add.at(bank, np.minimum(t + np.arange(t_cap + 1), t_cap),
                  np.outer(q[Card.FIREWORKS] * fw, here))
        p_k = tutto_chance(Card.CLOVERLEAF, row(t)) ** 2
        win += q[Card.CLOVERLEAF] * p_k * here.sum()
        bust += q[Card.CLOVERLEAF] * (1 - p_k) * here
    return TurnOutcomes(bank, bust, win)


# --------------------------------------------------------------------------
# the whole game
# --------------------------------------------------------------------------


def last_turn(rules: TuttoRules, solver: TurnSolver, lead_cap: int) -> np.ndarray:
    """``L[c, s0 - N]``: seat 1 on ``c < N`` beats seat 0 on ``s0``
    (``N <= s0 <= N + lead_cap``) in its last turn, maximising its chance
    (ties 1/2). One turn recursion for all pairs at once; at its cap banking
    always wins, so it is exact."""
    n = _units(rules)
    c = np.repeat(np.arange(n), lead_cap + 1)
    s0 = np.tile(np.arange(n, n + lead_cap + 1), n)
    cap = n + lead_cap + 1
    n_m = _deductions(c, s0)
    bank = np.zeros((cap + 1, n_m, 1, len(c)))
    bust = np.zeros((n_m, 1, len(c)))
    for m in range(n_m):
        left = deducted(c, s0, m)
        for t in range(cap + 1):
            bank[t, m, 0] = compare(c + t, left)
        bust[m, 0] = compare(c, left if rules.plusminus_deduction == "tutto" else s0)
    return solver.solve(Leaves(bank, bust))[0].reshape(n, lead_cap + 1)


def table_last_turn(rules: TuttoRules, out: TurnOutcomes) -> np.ndarray:
    """``L[c, s0 - N]`` for a seat-1 player who follows a table, exactly, for
    ``N <= s0 <= N + cap`` of the outcomes."""
    n = _units(rules)
    width = out.bank.shape[0]
    c = np.arange(n)[:, None]
    s0 = np.arange(n, n + width)[None, :]
    total = np.full((n, width), out.win)
    for m in np.flatnonzero(out.bust):
        left = deducted(c, s0, m) if rules.plusminus_deduction == "tutto" else s0
        total = total + out.bust[m] * compare(c, left)
    for m in np.flatnonzero(out.bank.any(axis=0)):
        left = deducted(c, s0, m)
        for t in np.flatnonzero(out.bank[:, m]):
            total = total + out.bank[t, m] * compare(c + t, left)
    return total


def _turn_leaves(rules, seat, worlds, cap) -> Leaves:
    """Leaves of the turns of seat ``seat`` from every state (a, b), flattened
    ``a * N + b``, totals 0..cap. ``worlds`` is one (V, L) per row: V[s, a, b]
    the mover's chance, L the last turn (leads beyond its width count as its
    last column)."""
    n = _units(rules)
    a = np.repeat(np.arange(n), n)
    b = np.tile(np.arange(n), n)
    final_round = rules.game_end == "round" and seat == 0
    n_m = _deductions(a, b)
    bank = np.zeros((cap + 1, n_m, len(worlds), n * n))
    bust = np.zeros((n_m, len(worlds), n * n))
    for r, (v, last) in enumerate(worlds):
        for m in range(n_m):
            left = deducted(a, b, m)
            for t in range(cap + 1):
                mine = a + t
                if final_round:
                    above = 1.0 - last[left, np.minimum(mine - n, last.shape[1] - 1)]
                else:
                    above = 1.0  # immediate, or seat 1 completes the round
                below = 1.0 - v[1 - seat, left, np.minimum(mine, n - 1)]
                bank[t, m, r] = np.where(mine < n, below, above)
            hit = left if rules.plusminus_deduction == "tutto" else b
            bust[m, r] = 1.0 - v[1 - seat, hit, a]
    return Leaves(bank, bust)


@dataclass
class Seat:
    """How a seat plays. ``best``: maximises its chance by the values being
    computed (``solver``); ``decide``: maximises by the fixed win-optimal
    ``(W, L)`` of ``game_values``, its values carried separately; ``table``:
    follows a decision table (``outcomes``). ``last``: this player's last
    turn in seat 1 under ``round``."""

    mode: str
    solver: TurnSolver | None = None
    outcomes: TurnOutcomes | None = None
    last: np.ndarray | None = None


def game_values(rules: TuttoRules, seats: tuple[Seat, Seat], lead_cap: int = DEFAULT_LEAD_CAP,
                tol: float = DEFAULT_TOL, w_opt: tuple | None = None,
                max_sweeps: int = 10_000) -> tuple[np.ndarray, int]:
    """``V[s, a, b]``: the chance that the mover wins, the seats playing as
    given; and the number of sweeps (each: every turn of seat 0, then of
    seat 1 with seat 0's new values). ``w_opt = (W, L)`` for ``decide``."""
    n = _units(rules)
    v = np.zeros((2, n, n))
    last = seats[1].last
    for sweep in range(1, max_sweeps + 1):
        change = 0.0
        for seat in (0, 1):
            player = seats[seat]
            if player.mode == "table":
                out = player.outcomes
                lv = _turn_leaves(rules, seat, [(v, last)], out.bank.shape[0] - 1)
                n_m = lv.bust.shape[0]
                m = np.minimum(np.arange(out.bank.shape[1]), n_m - 1)
                new = (np.einsum("tm,tmrs->rs", out.bank, lv.bank[:, m])
                       + np.einsum("m,mrs->rs", out.bust, lv.bust[m]) + out.win)[-1]
            else:
                worlds = [(v, last)] if player.mode == "best" else [w_opt, (v, last)]
                cap = n + (lead_cap if rules.game_end == "round" and seat == 0 else 0)
                new = player.solver.solve(_turn_leaves(rules, seat, worlds, cap))[-1]
            new = new.reshape(n, n)
            change = max(change, float(np.abs(new - v[seat]).max()))
            v[seat] = new
        if change < tol:
            return v, sweep
    raise RuntimeError(f"value iteration did not converge in {max_sweeps} sweeps")


def _units(rules: TuttoRules) -> int:
    if rules.target > MAX_TARGET:
        raise ValueError(f"the reference win solver takes targets up to {MAX_TARGET:,}, "
                         f"not {rules.target:,}")
    return rules.target // POINT_UNIT


def _deductions(mover, others) -> int:
    """How many Plus/Minus counts matter: beyond it the scores no longer change."""
    m = 0
    while not np.array_equal(deducted(mover, others, m), deducted(mover, others, m + 1)):
        m += 1
    return m + 1


@functools.lru_cache(maxsize=8)
def _win_optimal(rules: TuttoRules, lead_cap: int, tol: float):
    _units(rules)
    solver = TurnSolver(rules)
    last = last_turn(rules, solver, lead_cap) if rules.game_end == "round" else None
    w, _ = game_values(rules, (Seat("best", solver), Seat("best", solver, last=last)),
                       lead_cap, tol)
    return w, last


@functools.lru_cache(maxsize=8)
def _ev_outcomes(turn: TuttoRules) -> TurnOutcomes:
    from tutto_sim.tutto.bots import parse_bot

    return table_outcomes(turn, parse_bot("optimal", turn).table())


def _ev_player(rules: TuttoRules) -> Seat:
    """The ``optimal`` bot: the EV-optimal turn table it plays in games (it
    depends on the turn's rules only)."""
    from tutto_sim.tutto.policy import turn_rules

    _units(rules)
    out = _ev_outcomes(turn_rules(rules))
    return Seat("table", outcomes=out, last=table_last_turn(rules, out))


def reference_win_table(rules: TuttoRules, lead_cap: int = DEFAULT_LEAD_CAP,
                        tol: float = DEFAULT_TOL) -> np.ndarray:
    """``W[seat, a, b]`` (module docstring): both players maximise their chance."""
    return _win_optimal(rules, lead_cap, tol)[0].copy()


def reference_p_first_wins(rules: TuttoRules, lead_cap: int = DEFAULT_LEAD_CAP,
                           tol: float = DEFAULT_TOL) -> float:
    """The first player's chance when both maximise their chance of winning."""
    return float(_win_optimal(rules, lead_cap, tol)[0][0, 0, 0])


def reference_p_first_wins_ev(rules: TuttoRules, tol: float = DEFAULT_TOL) -> float:
    """The first player's chance when both play the ``optimal`` (EV) table
    (no cap: a table banks long before the outcomes' cap)."""
    ev = _ev_player(rules)
    v, _ = game_values(rules, (ev, ev), tol=tol)
    return float(v[0, 0, 0])


def reference_win_vs_ev(rules: TuttoRules, lead_cap: int = DEFAULT_LEAD_CAP,
                        tol: float = DEFAULT_TOL) -> float:
    """The win-optimal player's chance against the ``optimal`` (EV) table,
    averaged over both seatings (ties 1/2)."""
    w_opt = _win_optimal(rules, lead_cap, tol)
    ev = _ev_player(rules)
    best = TurnSolver(rules)
    first, _ = game_values(rules, (Seat("decide", best), ev), lead_cap, tol, w_opt)
    second, _ = game_values(rules, (ev, Seat("decide", best, last=w_opt[1])), lead_cap, tol,
                            w_opt)
    return 0.5 * (float(first[0, 0, 0]) + 1.0 - float(second[0, 0, 0]))


# --------------------------------------------------------------------------
# three and four players (issue 24): the same game at a table of N
# --------------------------------------------------------------------------
#
# Values are vectors: ``W[s, x_0, ..., x_{N-1}, p]`` is the chance that player
# ``p`` wins at the start of seat ``s``'s turn, scores ``x`` (units, all below
# the target ``n``). The mover maximises its own component; among options
# whose own chance is within ``TIE_TOL`` of the best it takes the first of:
# bank (before throwing on or drawing), then the keep with the most points,
# then the one with the fewest dice (under Plus/Minus and the Kleeblatt the
# dice score nothing: the fewest dice; under the Straße the fewest numbers).
# The decisions are nested as the rules are: a keep is valued by what the
# player does next (bank or throw on), the throw by its best keep.

TIE_TOL = 1e-12
DEFAULT_TOL_N = 1e-13
MAX_PLAYERS = 4


@dataclass(frozen=True)
class KeepClasses:
    """Throws of ``d`` dice grouped by their keeps: ``prob[x]`` (summed over
    the multisets with the same keeps), ``k[x, i], pts[x, i]`` the keeps in
    the order of preference, ``ok[x, i]`` (padding False); ``niete`` the
    chance of a throw without a keep."""

    prob: np.ndarray
    k: np.ndarray
    pts: np.ndarray
    ok: np.ndarray
    niete: float


@functools.lru_cache(maxsize=8)
def keep_classes(scoring: ScoringRules, points_count: bool) -> dict[int, KeepClasses]:
    """Per number of dice. ``points_count=False`` (Plus/Minus, Kleeblatt):
    only the number of dice set aside matters, fewest first."""
    out = {}
    for d, th in dice_throws(scoring).items():
        groups: dict[tuple, float] = {}
        niete = 0.0
        for x, p in enumerate(th.prob):
            found = {(int(k), int(pts)) for k, pts, ok
                     in zip(th.keep_k[x], th.keep_pts[x], th.ok[x]) if ok}
            if not found:
                niete += p
                continue
            if points_count:
                order = tuple(sorted(found, key=lambda kp: (-kp[1], kp[0])))
            else:
                order = tuple((k, 0) for k in sorted({k for k, _ in found}))
            groups[order] = groups.get(order, 0.0) + p
        width = max(len(o) for o in groups)
        kk = np.zeros((len(groups), width), dtype=np.int64)
        pp = np.zeros_like(kk)
        ok = np.zeros(kk.shape, dtype=bool)
        for x, order in enumerate(groups):
            for i, (k, pts) in enumerate(order):
                kk[x, i], pp[x, i], ok[x, i] = k, pts, True
        out[d] = KeepClasses(np.array(list(groups.values())), kk, pp, ok, niete)
    return out


def pick_first(options: list[np.ndarray], own: int, tol: float = TIE_TOL) -> np.ndarray:
    """The first option (arrays [R, ...]) whose row ``own`` is within ``tol``
    of the best, element by element of the trailing axes."""
    mine = np.stack([o[own] for o in options])
    first = np.argmax(mine >= mine.max(axis=0) - tol, axis=0)
    out = np.array(options[0])
    for i in range(1, len(options)):
        out = np.where(first == i, options[i], out)
    return out


def turn_vector(rules: TuttoRules, bank: np.ndarray, bust: np.ndarray, win: np.ndarray,
                caps: np.ndarray, own: int) -> np.ndarray:
    """One turn for S starts with vector values (rows R): ``bank[T, m, R, S]``
    (T = 0..cap; a higher total reads the cap), ``bust[m, R, S]`` (Niete or
    Stop after m Plus/Minus Tuttos), ``win[R, S]`` (the Kleeblatt), ``caps[S]``:
    the mover banks as soon as the turn total reaches it. The mover decides by
    row ``own``. Returns ``Draw(0, 0)`` [R, S] (the module docstring's
    recursion, every keep tried)."""
    if rules.x2_scope != "turn":
        raise ValueError("the reference win solver plays x2_scope 'turn' only")
    cap, n_m = bank.shape[0] - 1, bank.shape[1]
    n_r, n_start = bank.shape[2], bank.shape[3]
    # the Plus/Minus layers m side by side with the starts: column m * S + s
    n_s = n_m * n_start
    flat_bank = bank.transpose(0, 2, 1, 3).reshape(cap + 1, n_r, n_s)
    niete = bust.transpose(1, 0, 2).reshape(n_r, n_s)
    win = np.tile(win, (1, n_m))
    forced_at = np.tile(caps, n_m)
    col = np.arange(n_s)
    up = np.minimum(col // n_start + 1, n_m - 1) * n_start + col % n_start  # m -> m + 1
    scoring = rules.scoring
    kc = keep_classes(scoring, True)
    kz = keep_classes(scoring, False)
    street = street_chances()
    q = {c: DECK_COUNTS[c] / DECK_SIZE for c in Card}
    fw = fireworks_points(scoring, cap)
    totals = np.arange(cap + 1)
    tau = [np.minimum(2 * totals if c is Card.X2 else totals + BONUS_POINTS[c] // POINT_UNIT,
                      cap) for c in BANKABLE]
    n_c = len(BANKABLE)
    cidx = np.arange(n_c)[None, :, None]
    sidx = np.arange(n_s)[None, None, :]
    # u[T' * 6 + d', c]: after a keep under card c leaving total T' and d'
    # dice (d' = 1..5: bank or throw on; d' = 0: the Tutto, Post(tau_c(T')))
    u = np.zeros(((cap + 1) * 6, n_c, n_r, n_s))
    post = np.zeros((cap + 1, n_r, n_s))

    # Plus/Minus, the Kleeblatt and the Straße end in one of two leaves (the
    # Tutto or the Niete): a value is niete + beta (tutto - niete), beta the
    # chance of the Tutto under the chosen keeps, and the choices compare
    # own components: niete_own + beta delta, delta = tutto_own - niete_own.
    def no_points(tutto: np.ndarray) -> np.ndarray:
        delta = tutto[own] - niete[own]
        beta = [np.ones(n_s)]
        for d in range(1, 7):
            cl = kz[d]
            opts = np.stack([beta[d - k] for k in range(1, d + 1)])  # [k - 1, S]
            got = opts[np.maximum(cl.k - 1, 0)]  # [X, W, S]
            mine = np.where(cl.ok[:, :, None], got * delta, -np.inf)
            first = np.argmax(mine >= mine.max(axis=1, keepdims=True) - TIE_TOL, axis=1)
            chosen = np.take_along_axis(got, first[:, None], axis=1)[:, 0]
            beta.append(cl.prob @ chosen)
        return niete + beta[6] * (tutto - niete)

    def strasse(done: np.ndarray) -> np.ndarray:
        delta = done[own] - niete[own]
        beta = {6: np.ones(n_s)}
        for j in range(5, -1, -1):
            r = street[j]
            opts = np.stack([beta[j + t] for t in range(1, 7 - j)])  # take t = 1.. 6 - j
            mine = opts * delta
            best = np.maximum.accumulate(mine, axis=0)  # best[nn - 1]: up to nn numbers
            acc = np.zeros(n_s)
            for nn in range(1, 7 - j):
                first = np.argmax(mine[:nn] >= best[nn - 1] - TIE_TOL, axis=0)
                acc = acc + r[nn] * opts[first, np.arange(n_s)]
            beta[j] = acc
        return niete + beta[0] * (done - niete)

    kleeblatt = no_points(no_points(win))
    chain = rules.plusminus_chain
    draw = flat_bank[0]
    for t in range(cap, -1, -1):
        forced = t >= forced_at  # [S]
        here = flat_bank[t]
        if forced.all():
            post[t] = here
            u[6 * t:6 * t + 6] = here[None, None]
            draw = here
            continue
        for i in range(n_c):  # the Tutto slots of T' = t + 1
            u[6 * (t + 1), i] = post[tau[i][t + 1]]
        e6 = None
        for d in range(1, 7):
            cl = kc[d]
            slot = 6 * np.minimum(t + cl.pts, cap) + d - cl.k  # [X, W]
            mine = np.where(cl.ok[:, :, None, None], u[slot, :, own], -np.inf)
            first = np.argmax(mine >= mine.max(axis=1, keepdims=True) - TIE_TOL, axis=1)
            chosen = slot[np.arange(len(cl.prob))[:, None, None], first]  # [X, C, S]
            vals = u[chosen, cidx, :, sidx]  # [X, C, S, R]
            e = np.einsum("x,xcsr->crs", cl.prob, vals) + cl.niete * niete[None]
            if d == 6:
                e6 = e
            else:
                er = e.transpose(1, 0, 2)  # [R, C, S]
                go = pick_first([np.broadcast_to(here[:, None], er.shape), er], own)
                u[6 * t + d] = np.where(forced, here[None], go.transpose(1, 0, 2))
        pm_tutto = (post[min(t + PM_UNITS, cap)] if chain == "continue"
                    else flat_bank[min(t + PM_UNITS, cap)] if chain == "bank"
                    else flat_bank[min(PM_UNITS, cap)])[:, up]
        draw = (q[Card.STOP] * niete
                + sum(q[c] * e6[i] for i, c in enumerate(BANKABLE))
                + q[Card.PLUSMINUS] * no_points(pm_tutto)
                + q[Card.STREET] * strasse(post[min(t + STREET_UNITS, cap)])
                + q[Card.FIREWORKS] * np.tensordot(fw, flat_bank[np.minimum(t + totals, cap)],
                                                   axes=1)
                + q[Card.CLOVERLEAF] * kleeblatt)
        post[t] = np.where(forced, here, pick_first([here, draw], own))
    return draw[:, :n_start]  # m = 0


@dataclass
class SolutionN:
    """The N-player reference solution.

    ``W[s, x_0, ..., x_{N-1}, p]``: the chance of player ``p`` at the start of
    seat ``s``'s turn (all scores below the target). ``end[t]`` (``round``):
    ``E_t`` on the same layout with seats before ``t`` holding their final
    scores (0 .. n + C units, the cap C counting higher scores as n + C) and
    seat ``t`` to move, NaN where no game leads; ``residual``: the largest
    change in the last sweep."""

    rules: TuttoRules
    players: int
    W: np.ndarray
    end: dict
    margin_cap: int
    residual: float
    sweeps: int
    seconds: float

    @property
    def p_wins(self) -> np.ndarray:
        return self.W[(0,) * (self.players + 1)].copy()


def _losers(x: np.ndarray, s: int) -> np.ndarray:
    """[S, N] scores, mover s: the players who lose at a Plus/Minus (fixed at
    the turn's start): every other player on the highest score at the table."""
    hit = x == x.max(axis=1, keepdims=True)
    hit[:, s] = False
    return hit


def _after(x: np.ndarray, hit: np.ndarray, m: int) -> np.ndarray:
    return np.where(hit, np.maximum(0, x - PM_UNITS * m), x)


def _layers(x: np.ndarray, hit: np.ndarray) -> int:
    """How many Plus/Minus counts can change a score (then one more)."""
    top = int(np.where(hit, x, 0).max(initial=0))
    return -(-top // PM_UNITS) + 1


class _GameN:
    """Index bookkeeping: states as rows of a leaf table."""

    def __init__(self, rules: TuttoRules, players: int, margin_cap: int | None):
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2 to {MAX_PLAYERS}, not {players}")
        self.rules, self.np_ = rules, players
        self.n = n = _units(rules)
        self.round = rules.game_end == "round"
        self.C = (max(n, 40) if margin_cap is None else int(margin_cap)) if self.round else 0
        self.top = n + self.C  # the highest score counted
        self.K = self.top + 1

    def dims(self, t: int) -> tuple:
        """Shape of E_t (t = 0: the normal states W[s])."""
        return (self.K,) * t + (self.n,) * (self.np_ - t)

    def flat(self, x: np.ndarray, t: int) -> np.ndarray:
        return np.ravel_multi_index(tuple(x.T), self.dims(t))

    def states(self, t: int) -> np.ndarray:
        return np.array(list(np.ndindex(*self.dims(t))), dtype=np.int64).reshape(-1, self.np_)

    def leaf_index(self, x: np.ndarray, s: int, phase_end: bool):
        """For starts ``x`` [S, N] of seat ``s``: indices into the leaf table
        [next states ..., then the end states of seat s + 1 (normal phase,
        ``round``), then the mover's win], for banking T after m Plus/Minus
        Tuttos ``bank[T, m, S]`` and the bust ``bust[m, S]``; ``caps[S]``."""
        n, N = self.n, self.np_
        hit = _losers(x, s)
        n_m = _layers(x, hit)
        own = x[:, s]
        if phase_end:
            caps = self.top - own
            size_next = int(np.prod(self.dims(s + 1)))
        else:
            caps = (self.top if self.round else n) - own
            size_next = n ** N
        cap = int(caps.max())
        size_end = int(np.prod(self.dims(s + 1))) if (self.round and not phase_end
                                                      and s < N - 1) else 0
        win_row = size_next + size_end
        bank = np.zeros((cap + 1, n_m, len(x)), dtype=np.int64)
        bust = np.zeros((n_m, len(x)), dtype=np.int64)
        for m in range(n_m):
            y = _after(x, hit, m)
            for t in range(cap + 1):
                z = y.copy()
                f = np.minimum(own + t, self.top)
                z[:, s] = np.minimum(f, n - 1) if not phase_end else f
                if phase_end:
                    bank[t, m] = self.flat(z, s + 1)
                else:
                    idx = self.flat(z, 0)
                    if self.round and s < N - 1:
                        z[:, s] = f
                        idx = np.where(f < n, idx, size_next + self.flat(z, s + 1))
                    else:
                        idx = np.where(f < n, idx, win_row)
                    bank[t, m] = idx
            hold = y if self.rules.plusminus_deduction == "tutto" else x
            bust[m] = self.flat(hold, s + 1 if phase_end else 0)
        return bank, bust, np.minimum(caps, cap), win_row


def _gather(table: np.ndarray, bank_idx: np.ndarray, bust_idx: np.ndarray):
    """Leaves [T, m, R, S] and [m, R, S] from a table [rows, R]."""
    return (np.moveaxis(table[bank_idx], -1, 2), np.moveaxis(table[bust_idx], -1, 1))


def _shares(f, a, n_a, b, n_b) -> np.ndarray:
    """Rows (the mover on f, each of n_a players on a, each of n_b on b): their
    shares of the win when these are the final scores (lower ones never win)."""
    b = np.where(n_b > 0, b, -1)
    top = np.maximum(np.maximum(f, a), b)
    cnt = (f == top) + n_a * (a == top) + n_b * (b == top)
    return np.stack([(f == top) / cnt, (a == top) / cnt, (b == top) / cnt])


def _last_mover(g: _GameN, x: np.ndarray) -> np.ndarray:
    """``E_{N-1}`` for starts ``x`` [S, N]: the last seat's last turn. Its
    chance depends only on its score c, the highest other score M, how many
    hold it (they lose at a Plus/Minus), the next score M2 below and how many
    hold it (lower scores never win), so one turn programme per such class,
    with rows (own, each player on M, each player on M2)."""
    N, s = g.np_, g.np_ - 1
    out = np.zeros((len(x), N))
    c = x[:, s]
    others = x[:, :s]
    M = others.max(axis=1)
    nl = (others == M[:, None]).sum(axis=1)
    below = np.where(others < M[:, None], others, -1)
    M2 = below.max(axis=1)
    n2 = np.where(M2 >= 0, (others == M2[:, None]).sum(axis=1), 0)
    lead = c > M
    out[lead, s] = 1.0
    keys = np.stack([c, M, nl, M2, n2], axis=1)[~lead]
    uniq, inverse = np.unique(keys, axis=0, return_inverse=True)
    vals = np.zeros((len(uniq), 3))
    caps_all = np.minimum(g.top, uniq[:, 1] + 1) - uniq[:, 0]
    layers_all = -(-uniq[:, 1] // PM_UNITS) + 1
    for n_m in sorted(set(layers_all.tolist())):
        sel = np.flatnonzero(layers_all == n_m)
        cc, mm, nn, m2, k2 = (uniq[sel, i] for i in range(5))
        cap = int(caps_all[sel].max())
        bank = np.zeros((cap + 1, n_m, 3, len(sel)))
        bust = np.zeros((n_m, 3, len(sel)))
        for m in range(n_m):
            a = np.maximum(0, mm - PM_UNITS * m)
            for t in range(cap + 1):
                bank[t, m] = _shares(np.minimum(cc + t, g.top), a, nn, m2, k2)
            bust[m] = _shares(cc, a if g.rules.plusminus_deduction == "tutto" else mm,
                              nn, m2, k2)
        win = np.zeros((3, len(sel)))
        win[0] = 1.0
        vals[sel] = turn_vector(g.rules, bank, bust, win, caps_all[sel], 0).T
    rows = np.flatnonzero(~lead)
    v = vals[inverse.reshape(-1)]
    out[rows, s] = v[:, 0]
    lm = (others == M[:, None])[~lead]
    l2 = (others == M2[:, None])[~lead] & (M2[~lead] >= 0)[:, None]
    out[rows, :s] = lm * v[:, 1:2] + l2 * v[:, 2:3]
    return out


def _solve_turns(g: _GameN, x: np.ndarray, s: int, table: np.ndarray, idx) -> np.ndarray:
    """Turn values [S, N] of seat s from starts x, leaves from ``table``,
    grouped by the number of Plus/Minus layers."""
    bank_idx, bust_idx, caps, win_row = idx
    bank, bust = _gather(table, bank_idx, bust_idx)
    if not (np.isfinite(bank).all() and np.isfinite(bust).all()):
        raise RuntimeError("a turn reads an end position that was not solved")
    win = np.zeros((g.np_, len(x)))
    win[s] = 1.0
    return turn_vector(g.rules, bank, bust, win, caps, s).T


def solve_reference_n(rules: TuttoRules, players: int, margin_cap: int | None = None,
                      tol: float = DEFAULT_TOL_N, max_sweeps: int = 10_000) -> SolutionN:
    """Every player maximises its own chance of winning: ``W`` and the end
    phase (see :class:`SolutionN`), by Gauss-Seidel value iteration (seats in
    the order N-1, ..., 0, each with the next seat's new values) to ``tol``."""
    import time

    t0 = time.perf_counter()
    g = _GameN(rules, players, margin_cap)
    N, n = players, g.n
    normal = g.states(0)
    norm_idx = [g.leaf_index(normal, s, False) for s in range(N)]
    end = {}
    if g.round:
        # which end states a game reaches: from the normal turns, then forwards
        need = {t: set() for t in range(1, N)}
        for s in range(N - 1):
            bank_idx, _, _, win_row = norm_idx[s]
            ref = bank_idx[(bank_idx >= n ** N) & (bank_idx < win_row)] - n ** N
            need[s + 1].update(np.unique(ref).tolist())
        end_idx = {}
        for t in range(1, N - 1):
            # the players before seat t no longer move: solve one order of
            # their scores (ascending) and permute (the rules treat them alike)
            xs = np.array(np.unravel_index(sorted(need[t]), g.dims(t))).T
            canon = np.unique(np.hstack([np.sort(xs[:, :t], axis=1), xs[:, t:]]), axis=0)
            end_idx[t] = (xs, canon, g.leaf_index(canon, t, True))
            b, u = end_idx[t][2][:2]
            need[t + 1].update(np.unique(b).tolist())
            need[t + 1].update(np.unique(u).tolist())
        for t in range(N - 1, 0, -1):
            size = int(np.prod(g.dims(t)))
            e = np.full((size, N), np.nan)
            if t == N - 1:
                xs = np.array(np.unravel_index(sorted(need[t]), g.dims(t))).T
                e[g.flat(xs, t)] = _last_mover(g, xs)
            else:
                xs, canon, idx = end_idx[t]
                table = np.vstack([end[t + 1].reshape(-1, N), np.eye(N)[t][None]])
                e[g.flat(canon, t)] = _solve_turns(g, canon, t, table, idx)
                order = np.argsort(xs[:, :t], axis=1, kind="stable")
                sorted_x = np.hstack([np.take_along_axis(xs[:, :t], order, axis=1), xs[:, t:]])
                v = e[g.flat(sorted_x, t)]
                out = v.copy()
                np.put_along_axis(out, order, v[:, :t], axis=1)
                e[g.flat(xs, t)] = out
            end[t] = e.reshape(g.dims(t) + (N,))
    W = np.zeros((N,) + g.dims(0) + (N,))
    change = np.inf
    for sweep in range(1, max_sweeps + 1):
        change = 0.0
        for s in range(N - 1, -1, -1):
            parts = [W[(s + 1) % N].reshape(-1, N)]
            if g.round and s < N - 1:
                parts.append(end[s + 1].reshape(-1, N))
            parts.append(np.eye(N)[s][None])
            new = _solve_turns(g, normal, s, np.vstack(parts), norm_idx[s])
            new = new.reshape(g.dims(0) + (N,))
            change = max(change, float(np.abs(new - W[s]).max()))
            W[s] = new
        if change < tol:
            break
    else:
        raise RuntimeError(f"value iteration did not converge in {max_sweeps} sweeps")
    return SolutionN(rules, N, W, end, g.C, change, sweep, time.perf_counter() - t0)


def p_wins_reference(rules: TuttoRules, players: int, margin_cap: int | None = None,
                     tol: float = DEFAULT_TOL_N) -> np.ndarray:
    """Each seat's chance at the start of the game, all playing to win."""
    return solve_reference_n(rules, players, margin_cap, tol).p_wins


def last_turn_reference_n(rules: TuttoRules, players: int, states,
                          margin_cap: int | None = None) -> np.ndarray:
    """``E_{N-1}`` (``round``): each player's chance when the last seat plays
    its last turn from ``states`` [S, N] (the others' final scores, up to the
    target plus the cap; the last seat below the target). [S, N]."""
    g = _GameN(rules, players, margin_cap)
    if not g.round:
        raise ValueError("the last turn is a game end 'round' position")
    return _last_mover(g, np.asarray(states, dtype=np.int64).reshape(-1, players))

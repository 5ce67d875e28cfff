r"""Playing to win: the exact win probability of two-player Tutto.

Part of the solver layer (rules -> tables -> **solve**). The turn solver
(:mod:`tutto_sim.tutto.solver`) maximises the points of one turn; here both
players maximise their chance of winning the game, as Neller and Presser did
for Pig and Busche for Farkle. The numba kernels are in
:mod:`tutto_sim.tutto.win_kernel`. Conventions are those of the turn solver:
points in units of 50, cards drawn independently at the deck frequencies
(10/56 Stop, ...), the throw tables of :func:`tutto_sim.dice.throws.build_tables`.

States and values
-----------------
``N = target / 50``. At the start of a turn the state is ``(s, a, b)``: the
player at seat ``s`` (0 moves first in every round, 1 second) is to move with
``a`` points against ``b``, both below ``N``. ``W[s, a, b]`` is the chance that
the player to move wins when both play to win (a tie at the end of a round,
equal highest scores, counts 1/2). The first player's chance is ``W[0, 0, 0]``.

Inside a turn the player is in a turn state of the turn solver (turn total
``T``, card, dice left, points of the x2 card) plus ``j``, the Plus/Minus
Tuttos so far, which fixes the opponent's score if the turn is banked. Who
loses is fixed once, from the scores at the start of the turn: if ``b >= a``
and ``b > 0`` (the opponent holds the highest score) ``e_j = max(0, b - 20 j)``,
every Tutto taking 20 more even once he is below ``a``; else ``e_j = b``
(:func:`win_kernel.win_chain`). The turn's ends are the leaves:

* banking ``T``: :math:`1 - W[1-s, e_j, a + T]` while ``a + T < N``;
  reaching the target: 1 under ``immediate``; under ``round`` 1 for seat 1
  (the round is complete and it leads) and :math:`1 - L(a + T - e_j)` for
  seat 0, where ``L(m)`` is seat 1's chance in its last turn ``m`` behind;
* a Niete or Stop: :math:`1 - W[1-s, b, a]` (deduction ``bank``: nothing was
  deducted) or :math:`1 - W[1-s, e_j, a]` (deduction ``tutto``: already
  deducted at the Tutto);
* a Kleeblatt success: 1.

With these leaves one turn is the turn solver's dynamic programme with the
expected win probability in place of the points (:math:`\max` over keeps, bank
or throw on, bank or draw; the Feuerwerk banks ``T + G`` with the gain ``G``
whose distribution does not depend on ``T``; Plus/Minus, Straße and Kleeblatt
depend only on their chance of a Tutto, where a player who would rather not
reach it takes the least likely keeps). The Bellman equation is

.. math:: W[s, a, b] = \sum_c q_c\, S_c(0, j = 0), \qquad
          S_c(T, j) = \text{the turn solver's } S_c \text{ with these leaves}.

Only the keeps with the most points for their number of dice are tried, as in
the turn solver. That is exact when every leaf grows with ``T`` (a player with
more points can copy the play of one with fewer), i.e. when ``W[s, a, b]``
never grows with ``b`` and ``L`` never grows with ``m``;
:func:`solve_win` checks this on the solution (``monotone``) and says so.

The order of solving
--------------------
Scores only rise, except by the deduction. A bust hands the turn over with the
same scores, so ``(0, a, b)`` and ``(1, b, a)`` form a *pair* that depends on
itself: given the partner's value ``y`` the turn value is convex and piecewise
linear in ``y`` with slope ``P(bust)`` < 1 (a max over policies of linear
functions). Each pair is solved by Newton's method on the two equations,
with the slopes computed along with the values; it stops when nothing moves
(typically 2-4 steps; exactly one when the decisions are fixed, as for the
EV-optimal player).

Under the deduction ``bank`` a banked turn moves from sum ``a + b`` to
``a + T + e_j >= a + b`` (``T >= 20 j`` and each deduction takes at most 20),
so the pairs are solved in groups of equal ``a + b`` from the highest sum
down. Inside a group the only links are turns of nothing but Plus/Minus
Tuttos (each +1000 to one, -1000 to the other): banking exactly ``20 j``
after ``j`` of them. The whole group is solved by Newton's method: each
programme also gives the weight of each such leaf (the chance of ending the
turn there; only the lowest total ``20 j`` of layer ``j`` reaches it), the
group's linear system is solved, and the programmes are run again where an
input moved by more than ``PAIR_TOL`` (chain ``flat``: a Plus/Minus Tutto
from any total banks exactly 20, so those links are iterated instead). Under the
deduction ``tutto`` a Niete after a Plus/Minus Tutto moves to the smaller sum
``e_j + a``: the whole sweep over the groups is repeated until no value moves
by more than ``tol`` (the links back have the small weight of a Plus/Minus
Tutto followed by a Niete). ``residual`` is the largest change of the last
sweep.

The last turn and the cap
-------------------------
Under ``round`` seat 1's last turn is a one-player problem: win by ending the
turn above the leader's score (1/2 when equal; the deduction and the Kleeblatt
still apply). Its value depends only on the margin ``m``: banking wins once
``T > m``, so turn totals above ``m`` never need to be looked at (exact), and a
Plus/Minus Tutto moves to margin ``m - 20`` with 20 more in the turn total (a
leader at or above the roller's score at the start of the turn loses 20 per
Tutto; once behind, every negative margin is alike), so
margins are solved upwards, each reusing the smaller ones. Seat 0 who has
reached the target may throw on to make the margin larger; its turn totals
are followed up to ``margin_cap`` units past the target, where it is assumed
to bank. That changes a leaf by at most ``L(margin_cap + 1) - K``, where
``K`` is the chance of a player who never banks and wins by the Kleeblatt
alone (``L`` falls with the margin towards it, and never below; it does not
fall to 0: a Kleeblatt wins at any margin), and such a leaf ends the game, so every
value is off by at most ``cap_error = L(margin_cap + 1) - K``, reported with
the solution. Margins past ``N + margin_cap + 1`` (a turn can jump past the
cap: an x2 Tutto doubles the total) are counted as that margin, within the
same bound.

EV-optimal players
------------------
``p_first_wins_ev`` is the game when both play the ``optimal`` bot (the turn
solver's EV table, which does not look at the scores), and ``win_vs_ev`` the
win-optimal player (its decisions from ``W``) against it, averaged over both
seatings. Both are exact evaluations of fixed decisions. The EV table's
decisions do not look at the scores, so its turn's outcomes (banked total,
Plus/Minus Tuttos, Niete or Stop, Kleeblatt win) are followed forwards once
(:func:`win_kernel.ev_turn_outcomes`) and each state's value is their sum with
that state's leaves (:func:`win_kernel._ev_state`); the win-optimal
player's turns are programmes as above.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from tutto_sim.core.policyfile import fields_sha256, schema_of, win_table_document, write_compact
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import MAX_DICE, build_tables
from tutto_sim.tutto import win_kernel as k
from tutto_sim.tutto.cards import N_CARDS, Card
from tutto_sim.tutto.rules import PLUSMINUS_CHAIN_CHOICES, TuttoRules
from tutto_sim.tutto.solver import CARD_FREQ, street_new_numbers, max_card_points
from tutto_sim.tutto.win_seat import two_player_state

#: Stop when no value moves by more than this in a sweep.
DEFAULT_TOL = 1e-11
#: Newton steps on one pair stop when neither value moves by more than this.
PAIR_TOL = 1e-14
#: Largest target (points) the solver takes: memory and time grow fast beyond.
MAX_TARGET = 20000
#: The first phase of a win solve (``phase``): the tables of a turn, the last turns.
PREPARING = "preparing the tables of a turn"
#: The time of a solve grows about as the target to this power (measured from target
#: 2000 to 4000 with scripts/bench_solve.py; docs/win.md, *Speed*).
TIME_POWER = 3.3

WIN, EV = 0, 1


def default_margin_cap(n_units: int) -> int:
    """Units past the target that seat 0's turn is followed under ``round``."""
    return max(40, n_units)


@dataclass(frozen=True)
class WinSolution:
    """The exact two-player solution (units of 50 for scores).

    Attributes
    ----------
    W:
        ``W[seat, own, other]``: the chance that the player to move wins.
    W_ev:
        The same when both play the EV-optimal ``optimal`` bot.
    last_turn:
        ``last_turn[m]``: seat 1's chance in its last turn ``m`` units behind
        (``round`` only; index m = 0.. ``margin``), win-optimal.
    last_turn_table:
        ``[row, m + 1]`` for m = -1 ..: row 0 when seat 1 has 0 points (the
        leader cannot fall below 0), row 1 otherwise; what the leaves read.
    """

    rules: TuttoRules
    W: np.ndarray
    W_ev: np.ndarray
    last_turn: np.ndarray
    last_turn_table: np.ndarray
    p_first_wins: float
    p_first_wins_ev: float
    win_vs_ev: float
    win_vs_ev_seats: tuple[float, float]
    states: int
    seconds: float
    residual: float
    sweeps: int
    margin_cap: int
    cap_error: float
    monotone: bool
    extra: dict = field(default_factory=dict)

    @property
    def target(self) -> int:
        return self.rules.target

    def summary(self) -> dict:
        """The JSON keys of ``solve --objective win``."""
        return {
            "game": "tutto",
            "target": self.rules.target,
            "game_end": self.rules.game_end,
            "p_first_wins": self.p_first_wins,
            "p_first_wins_ev": self.p_first_wins_ev,
            "win_vs_ev": self.win_vs_ev,
            "win_vs_ev_first_seat": self.win_vs_ev_seats[0],
            "win_vs_ev_second_seat": self.win_vs_ev_seats[1],
            "states": self.states,
            "seconds": round(self.seconds, 3),
            "residual": self.residual,
            "sweeps": self.sweeps,
            "margin_cap_points": self.margin_cap * POINT_UNIT,
            "cap_error": self.cap_error,
            "monotone": self.monotone,
        }


# --------------------------------------------------------------------------
# parameters for the kernels
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Params:
    tp: tuple
    ev: tuple
    t_max: int
    cpmax: int
    #: the EV table's turn outcomes (q, po, hfw, pb, pw) of :func:`_ev_outcomes`
    ev_out: tuple = ()


def _turn_params(rules: TuttoRules, gmax: int) -> _Params:
    from tutto_sim.tutto.policy import optimal_policy

    t = build_tables(rules.scoring)
    prob = np.ascontiguousarray(t.prob)
    start = np.ascontiguousarray(t.start).astype(np.int64)
    best_pts = np.ascontiguousarray(t.best_pts).astype(np.int64)
    kd = np.ascontiguousarray(t.keep_dice).astype(np.int64)
    kp = np.ascontiguousarray(t.keep_pts).astype(np.int64)
    bonus = np.array([Card(c).bonus // POINT_UNIT for c in range(N_CARDS)], dtype=np.int64)
    p_hi, p_lo = k.tutto_extremes(prob, start, best_pts)
    r = street_new_numbers(prob, start, np.ascontiguousarray(t.faces))
    q_hi, q_lo = k.street_extremes(r)
    pol = optimal_policy(rules)
    cpmax = max_card_points(t)
    # the Feuerwerk's gains as far as a turn of the EV table reaches (_ev_outcomes)
    pmf, surv = k.fireworks_pmf(prob, start, kd, kp,
                                 max(gmax, _ev_reach(int(pol.t_max), best_pts, bonus, cpmax) + 3))
    gstart, gprob, _, gk, kdice, kpts = _throw_classes(prob, start, best_pts, None)
    kslot, slot_lk = _keep_slots(gstart, gk, kdice, kpts)
    p_niete, rho = _bust_chances(gstart, gprob, gk, float(p_hi[MAX_DICE]), float(q_hi))
    tp = (rules.x2_scope == "card", PLUSMINUS_CHAIN_CHOICES.index(rules.plusminus_chain),
          gstart, gprob, gk, kdice, kpts, best_pts, np.ascontiguousarray(CARD_FREQ), bonus,
          float(p_hi[MAX_DICE]), float(p_lo[MAX_DICE]), float(q_hi), float(q_lo), pmf, surv,
          kslot, slot_lk, p_niete, rho)

    _check_ev_banks_at_top(pol)
    keep = np.ascontiguousarray(pol.keep.astype(np.int64))
    p_pm = float(k.tutto_value_table(prob, start, keep[Card.PLUSMINUS, 0]))
    p_cl = float(k.tutto_value_table(prob, start, keep[Card.CLOVERLEAF, 0])) ** 2
    q_ev = float(k.street_table(r, np.ascontiguousarray(pol.street_take.astype(np.int64))))
    if pol.keep_x2p is not None:
        kx = np.ascontiguousarray(pol.keep_x2p.astype(np.int64))
        bx = np.ascontiguousarray(pol.bank_x2p)
    else:
        kx = np.zeros((1, 1, keep.shape[2]), dtype=np.int64)
        bx = np.zeros((1, MAX_DICE, 1), dtype=np.bool_)
    # the EV table's throws: alike when they score alike and the table keeps alike
    ev_key = np.concatenate([keep.reshape(-1, keep.shape[2]), kx.reshape(-1, kx.shape[2])]).T
    egstart, egprob, egrep, _, _, _ = _throw_classes(prob, start, best_pts, ev_key)
    ev = (keep, np.ascontiguousarray(pol.bank), np.ascontiguousarray(pol.draw), kx, bx,
          int(pol.t_max), p_pm, p_cl, q_ev, egstart, egprob, egrep)
    return _Params(tp, ev, int(pol.t_max), cpmax, _ev_outcomes(tp, ev, gmax - 2, cpmax))


def _ev_reach(t_max: int, best_pts, bonus, cpmax: int) -> int:
    """A bound on the largest total a turn of the EV table reaches: it draws
    and throws only below ``t_max``; an x2 Tutto doubles."""
    return 2 * (t_max + int(best_pts.max()) + cpmax) + int(bonus.max()) + 2 * k.STREET_UNITS


def _ev_outcomes(tp, ev, tsize: int, cpmax: int) -> tuple:
    """The EV table's turn outcomes for :func:`win_kernel._ev_state`: with
    ``po, fw, pb, pw`` of :func:`win_kernel.ev_turn_outcomes`, ``q[j, T]`` adds
    the Feuerwerk's banks (gain ``g`` from ``fw[j, T - g]``) and ``hfw[j, c]``
    is the chance that a Feuerwerk from below ``c`` reaches ``c``; ``po`` is
    cut after its last total."""
    t_max = ev[5]
    width = max(tsize, _ev_reach(t_max, tp[7], tp[9], cpmax) + 1)
    n_j = width // (2 * k.PM_UNITS) + 4  # at least the layers of any turn
    po, fw, pb, pw = k.ev_turn_outcomes(tp, ev, n_j, width, cpmax + 1 if tp[0] else 1)
    pmf, surv = tp[14], tp[15]
    q = po.copy()
    hfw = np.zeros((n_j, width))
    for t0 in range(t_max + 1):
        w = fw[:, t0]
        q[:, t0:] += w[:, None] * pmf[None, :width - t0]
        hfw[:, t0 + 1:] += w[:, None] * surv[None, 1:width - t0]
    assert not fw[:, t_max + 1:].any()
    last = int(np.flatnonzero(po.any(axis=0)).max()) + 1
    return (q, np.ascontiguousarray(po[:, :last]), hfw, pb, float(pw))


def _throw_classes(prob, start, best_pts, extra):
    """Throws of d dice that score alike (the most points for each number of
    dice set aside, and the row ``extra[ms]`` if given) are one class: a turn's
    value after a throw depends only on its class.

    Returns ``start[d]`` (classes of d dice are ``start[d]..start[d+1]-1``),
    the class's chance, one throw of it, and its keeps: ``keep[start_k[g]:
    start_k[g+1]]`` dice with ``pts`` points, fewer dice first (a Niete has none)."""
    cstart = np.zeros(MAX_DICE + 2, dtype=np.int64)
    cprob, rep, kstart, kdice, kpts = [], [], [0], [], []
    for d in range(1, MAX_DICE + 1):
        cstart[d] = len(cprob)
        seen: dict = {}
        for ms in range(start[d], start[d + 1]):
            sig = tuple(int(best_pts[ms, kk]) for kk in range(1, d + 1))
            key = sig if extra is None else (sig, extra[ms].tobytes())
            if key in seen:
                cprob[seen[key]] += float(prob[ms])
                continue
            seen[key] = len(cprob)
            cprob.append(float(prob[ms]))
            rep.append(ms)
            for kk, pts in enumerate(sig, start=1):
                if pts >= 0:
                    kdice.append(kk)
                    kpts.append(pts)
            kstart.append(len(kdice))
    cstart[MAX_DICE + 1] = len(cprob)
    cstart[0] = 0
    return (cstart, np.array(cprob), np.array(rep, dtype=np.int64),
            np.array(kstart, dtype=np.int64), np.array(kdice, dtype=np.int64),
            np.array(kpts, dtype=np.int64))


def _bust_chances(gstart, gprob, gk, p_hi: float, q_hi: float) -> tuple[np.ndarray, float]:
    """For the kernel's pruning (:func:`win_kernel._layer`): ``p_niete[d]``, the
    chance of a Niete with d dice, and ``rho``, the least chance that a card
    drawn after a Tutto ends the turn at once with a Niete's value: a Stop, a
    Niete in the first throw under a Bonus or x2 card, a Plus/Minus, Straße
    or Kleeblatt missed even at its likeliest (the Feuerwerk never does)."""
    p_niete = np.zeros(MAX_DICE + 1)
    for d in range(1, MAX_DICE + 1):
        p_niete[d] = sum(gprob[g] for g in range(gstart[d], gstart[d + 1]) if gk[g] == gk[g + 1])
    f = CARD_FREQ
    bankable = sum(f[c] for c in range(N_CARDS) if Card(c).can_bank_before_tutto)
    rho = (f[Card.STOP] + bankable * p_niete[MAX_DICE] + f[Card.PLUSMINUS] * (1.0 - p_hi)
           + f[Card.STREET] * (1.0 - q_hi) + f[Card.CLOVERLEAF] * (1.0 - p_hi * p_hi))
    return p_niete, float(rho)


#: Width of the kernels' small scratch rows: at least the keep slots of :func:`_keep_slots`.
SLOT_WIDTH = 256


def _keep_slots(gstart, gk, kdice, kpts) -> tuple[np.ndarray, np.ndarray]:
    """What a keep leads to depends only on the dice left and its points: the
    distinct pairs are the *slots* (83 for the standard scoring, against 576
    keeps). ``kslot[i]`` is keep i's slot, ``slot_lk[s] = (dice left, points)``.
    The kernel values each slot once per card and total and each class then
    compares its keeps' slots."""
    slots: dict = {}
    kslot = np.zeros(len(kdice), dtype=np.int64)
    for d in range(1, MAX_DICE + 1):
        for g in range(gstart[d], gstart[d + 1]):
            for i in range(gk[g], gk[g + 1]):
                key = (d - int(kdice[i]), int(kpts[i]))
                kslot[i] = slots.setdefault(key, len(slots))
    if len(slots) > SLOT_WIDTH or kpts.min(initial=1) < 1:
        raise ValueError("keep slots do not fit the kernels' scratch")
    return kslot, np.array(list(slots), dtype=np.int64).reshape(-1, 2)


def _check_ev_banks_at_top(pol) -> None:
    """The EV table banks at every decision of its last row, so the kernel
    may stop following its turns there (its totals beyond repeat that row)."""
    row = pol.t_max
    ok = not pol.draw[row] and all(
        pol.bank[c, d, row] for c in range(N_CARDS) if Card(c).can_bank_before_tutto
        for d in range(1, MAX_DICE))
    if pol.bank_x2p is not None:
        ok = ok and bool(pol.bank_x2p[:, 1:, row].all())
    if not ok:
        raise ValueError("the EV-optimal table does not bank at every decision of its "
                         "last row; the win solver cannot follow it")


class WinScratch:
    """Per-thread scratch of the kernels (never shared between threads)."""

    def __init__(self, slots: int, layers: int, tsize: int, x2_card: bool, cpmax: int,
                 nv: int = 3):
        self.A = np.zeros((slots, nv, layers, tsize))
        self.D = np.zeros((slots, nv, layers, tsize))
        self.U = np.zeros((slots, nv, N_CARDS, tsize, MAX_DICE))
        ux = (tsize, cpmax + 1, MAX_DICE) if x2_card else (1, 1, MAX_DICE)
        self.UX = np.zeros((slots, nv) + ux)
        self.bl = np.zeros((slots, nv, layers, tsize))
        self.bust = np.zeros((slots, nv, layers))
        self.win = np.zeros((slots, nv))
        self.chain = np.zeros((slots, layers), dtype=np.int64)
        self.sc = np.zeros((slots, 2 + nv, SLOT_WIDTH))
        self.dm = np.zeros((slots, layers, layers))
        self.am = np.zeros((slots, layers, layers))


def _last_turn(mode: int, mmax: int, ded_tutto: bool, floor0: bool, tcap_min: int,
               p: _Params, tsize: int, x2_card: bool) -> np.ndarray:
    s = WinScratch(1, mmax + 2, tsize, x2_card, p.cpmax)
    out = np.zeros(mmax + 2)
    k.last_turn_values(mode, mmax, ded_tutto, floor0, tcap_min, p.tp, p.ev, s.A[0], s.D[0],
                        s.U[0], s.UX[0], s.bl[0], s.bust[0], s.win[0], s.sc[0], out)
    return out


def _last_turn_table(mode: int, mmax: int, rules: TuttoRules, p: _Params, tsize: int
                     ) -> np.ndarray:
    """``L[row, m + 1]``: row 0 when the trailing player has 0 points, else row 1."""
    ded_tutto = rules.plusminus_deduction == "tutto"
    tmin = p.t_max + 1 if mode == k.EV_MODE else 0
    x2 = rules.x2_scope == "card"
    pos = _last_turn(mode, mmax, ded_tutto, False, tmin, p, tsize, x2)
    # the floor at 0 only matters when a Niete keeps the deductions made
    zero = _last_turn(mode, mmax, ded_tutto, True, tmin, p, tsize, x2) if ded_tutto else pos
    return np.ascontiguousarray(np.stack([zero, pos]))


# --------------------------------------------------------------------------
# the solver
# --------------------------------------------------------------------------


def _group_pairs(n: int, total: int) -> tuple[np.ndarray, np.ndarray]:
    a = np.arange(max(0, total - n + 1), min(n - 1, total) + 1, dtype=np.int64)
    return a, total - a


def _solve_world(kinds, W, LW, V, LV, n, rules, margin_cap, p, scratch, tol, progress,
                 max_sweeps=200, max_iter=60):
    """Fill V (in place) for seats playing ``kinds`` (0 win-optimal in W's world,
    1 EV table, 2 win-optimal decisions valued in V). Returns (residual, sweeps)."""
    immediate = rules.game_end == "immediate"
    ded_tutto = rules.plusminus_deduction == "tutto"
    te = p.t_max + 1 if k.EV_MODE in kinds or 2 in kinds else 0
    linear = 0 not in kinds
    sweeps = 0
    while True:
        sweeps += 1
        if sweeps > 1 and hasattr(progress, "more"):  # another sweep: the bar's total grows
            progress.more(n * n)
        sweep_change = 0.0  # against the values at the start of this sweep
        final = 0.0  # the last Newton step's change, over the groups
        for total in range(2 * n - 2, -1, -1):
            a, b = _group_pairs(n, total)
            if sweeps == 1:
                xs, ys = _first_guess(V[0], a, b, n), _first_guess(V[1], b, a, n)
            else:
                xs, ys = V[0, a, b].copy(), V[1, b, a].copy()
            x0, y0 = xs.copy(), ys.copy()
            z, last = _solve_group(kinds, linear, a, b, np.concatenate([xs, ys]), W, LW, V, LV,
                                   n, immediate, ded_tutto, margin_cap, te, p, scratch,
                                   max_iter)
            xs, ys = z[:len(a)], z[len(a):]
            final = max(final, last)
            if sweeps > 1:
                sweep_change = max(sweep_change, float(np.abs(xs - x0).max(initial=0.0)),
                                   float(np.abs(ys - y0).max(initial=0.0)))
            if progress is not None:
                progress(len(a))  # the turn starts of the group: groups grow to the middle sum
        residual = max(final, sweep_change)
        # under deduction at the Tutto a Niete can lead to a smaller score sum:
        # sweep again until a whole sweep moves nothing
        if not ded_tutto or (sweeps > 1 and sweep_change <= tol) or sweeps >= max_sweeps:
            return residual, sweeps


def _first_guess(V: np.ndarray, a: np.ndarray, b: np.ndarray, n: int) -> np.ndarray:
    """Newton's starting values for ``V[a, b]`` from the solved larger sums:
    ``V[a + 1, b] + V[a, b + 1] - V[a + 1, b + 1]`` (a plane through the
    three), one neighbour where the others are past the target, else 1/2.
    A close start saves programmes: the decisions are then right at once."""
    a1, b1 = np.minimum(a + 1, n - 1), np.minimum(b + 1, n - 1)
    up, right, diag = V[a1, b], V[a, b1], V[a1, b1]
    ok_a, ok_b = a + 1 < n, b + 1 < n
    guess = np.where(ok_a & ok_b, up + right - diag,
                     np.where(ok_b, right, np.where(ok_a, up, 0.5)))
    return np.clip(guess, 0.0, 1.0)


def _solve_group(kinds, linear, a, b, z, W, LW, V, LV, n, immediate, ded_tutto, margin_cap,
                 te, p, scratch, max_iter):
    """The states of one score sum: ``z`` = seat 0's values (pairs ``a``
    against ``b``), then seat 1's (``b`` against ``a``). Newton's method on the
    whole group: each turn's programme gives its value, its slope in the
    partner's value (a Niete hands over) and in the values it links to inside
    the group (:func:`win_kernel._link_slopes`); the group's linear system
    is then solved exactly. With fixed decisions (``linear``) one step is
    exact; else the programmes are run again, for the states whose inputs
    moved, until no input moves by more than :data:`PAIR_TOL`.
    Returns (z, the last step's change)."""
    P = len(a)
    S = 2 * P
    seat = np.repeat(np.array([0, 1], dtype=np.int64), P)
    own = np.concatenate([a, b])
    other = np.concatenate([b, a])
    partner = np.concatenate([np.arange(P, S), np.arange(P)])
    nl = scratch.dm.shape[2]
    v = np.zeros(S)
    slope = np.zeros(S)
    r = np.zeros((S, nl))
    e = np.full((S, nl), -1, dtype=np.int64)
    beta_in = np.zeros(S)  # the partner's value each programme was run with
    link_in = np.zeros((S, nl))  # and its links' values
    tgt = np.zeros((S, nl), dtype=np.int64)
    todo = np.arange(S)
    a_lo = int(a[0])
    # flat: a Plus/Minus Tutto from any total links; iterated, not carried
    iterate_links = p.tp[1] == 2
    it = 0
    change = 0.0
    while True:
        V[0, a, b] = z[:P]
        V[1, b, a] = z[P:]
        m = len(todo)
        ov, op, orr = np.zeros(m), np.zeros(m), np.zeros((m, nl))
        oe = np.full((m, nl), -1, dtype=np.int64)
        beta = z[partner[todo]]
        k.group_states(seat[todo], own[todo], other[todo], beta, kinds[0], kinds[1], W, LW,
                        LW, V, LV, LV, n, immediate, ded_tutto, margin_cap, te, p.tp, p.ev,
                        scratch.A, scratch.D, scratch.U, scratch.UX, scratch.bl, scratch.bust,
                        scratch.win, scratch.chain, scratch.sc, scratch.dm, scratch.am, *p.ev_out,
                        ov, op, orr, oe)
        v[todo], slope[todo], r[todo], e[todo] = ov, op, orr, oe
        beta_in[todo] = beta
        # a link of (s, own, other) leads to the other seat at (e, own + 20 j)
        has = oe >= 0
        jj = np.broadcast_to(np.arange(nl) * k.PM_UNITS, oe.shape)
        s_t = 1 - seat[todo][:, None]
        pair0 = np.where(s_t == 0, oe, own[todo][:, None] + jj) - a_lo
        t_idx = np.where(has, pair0 + s_t * P, 0)
        tgt[todo] = t_idx
        link_in[todo] = np.where(has, z[t_idx], 0.0)
        # x_u = v_u + slope_u (x_partner - beta_u) - sum r_um (x_tgt - link_um)
        M = np.eye(S)
        M[np.arange(S), partner] -= slope
        rows = np.repeat(np.arange(S), nl)
        np.add.at(M, (rows, tgt.ravel()), np.where(e >= 0, r, 0.0).ravel())
        rhs = v - slope * beta_in + (np.where(e >= 0, r * link_in, 0.0)).sum(axis=1)
        z_new = np.linalg.solve(M, rhs)
        change = float(np.abs(z_new - z).max(initial=0.0))
        z = z_new
        it += 1
        if linear and it == 1:
            change = 0.0  # fixed decisions: the step is exact (but for flat links)
        if linear and not iterate_links:
            break
        if it >= max_iter:
            break
        # run again where an input moved (fixed decisions, flat: a link's value)
        moved = np.zeros(S, dtype=bool) if linear else np.abs(z[partner] - beta_in) > PAIR_TOL
        moved |= ((e >= 0) & (np.abs(z[tgt] - link_in) > PAIR_TOL)).any(axis=1)
        todo = np.flatnonzero(moved)
        if len(todo) == 0:
            break
    V[0, a, b] = z[:P]
    V[1, b, a] = z[P:]
    return z, change


def solve_win(rules: TuttoRules = TuttoRules(), margin_cap: int | None = None,
              tol: float = DEFAULT_TOL, evaluate_ev: bool = True, progress=None, phase=None
              ) -> WinSolution:
    """Both players maximise their chance of winning: ``W`` and the figures.

    Parameters
    ----------
    rules:
        Any Tutto rules (target a multiple of 50 up to :data:`MAX_TARGET`).
    margin_cap:
        ``round``: units past the target that seat 0's turn is followed
        (default :func:`default_margin_cap`); the error bound is reported.
    tol:
        Sweeps stop when no value moves by more than this.
    evaluate_ev:
        Also evaluate the EV-optimal player (``p_first_wins_ev``, ``win_vs_ev``).
    progress:
        Called after every group of every world with its number of score
        pairs (for a progress bar); :func:`work_units` says how many to expect
        in one sweep.
    phase:
        Instead of ``progress``: ``phase(label, total, unit) -> advance``
        (``core.cli.progress_phases``), one phase for the win table and one
        for the three tables of the points player (cheaper per score pair:
        its decisions are fixed), so each phase's rate is its own.

    Examples
    --------
    >>> sol = solve_win(TuttoRules(target=300))  # the first player wins 45.0% (round finished)
    >>> 0.449 < sol.p_first_wins < 0.451
    True
    """
    if rules.target > MAX_TARGET:
        raise ValueError(f"target must be at most {MAX_TARGET:,} for the win solver, "
                         f"not {rules.target:,}")
    t0 = time.perf_counter()
    ready = phase(PREPARING, 1, "steps") if phase is not None else None
    n = rules.target // POINT_UNIT
    immediate = rules.game_end == "immediate"
    mc = 0 if immediate else int(default_margin_cap(n) if margin_cap is None else margin_cap)
    probe = _turn_params(rules, 8)
    # a turn followed up to tcap reads leaves up to 2 tcap + 82 (an x2 Tutto)
    mmax = n + mc + 1
    tsize = 2 * max(n + mc, probe.t_max + 1, mmax + 1) + 90
    p = _turn_params(rules, tsize + 2)
    layers = n // 20 + 3
    slots = max(1, numba.get_num_threads())
    scratch = WinScratch(slots, layers, tsize, rules.x2_scope == "card", p.cpmax)

    LW = _last_turn_table(k.MAX_MODE, mmax, rules, p, tsize)
    W = np.zeros((2, n, n))
    if phase is not None:
        ready(1)
        progress = phase("solving to win", n * n, "score pairs")
    res, sweeps = _solve_world((0, 0), W, LW, W, LW, n, rules, mc, p, scratch, tol, progress)
    residual = res
    W_ev = np.zeros((2, n, n))
    seats = (float("nan"), float("nan"))
    if evaluate_ev:
        LE = _last_turn_table(k.EV_MODE, mmax, rules, p, tsize)
        if phase is not None:
            progress = phase("valuing the points player (3 tables)", 3 * n * n, "score pairs")
        r2, _ = _solve_world((1, 1), W, LW, W_ev, LE, n, rules, mc, p, scratch, tol, progress)
        V_we = np.zeros((2, n, n))  # win-optimal at seat 0
        r3, _ = _solve_world((2, 1), W, LW, V_we, LE, n, rules, mc, p, scratch, tol, progress)
        V_ew = np.zeros((2, n, n))  # win-optimal at seat 1
        r4, _ = _solve_world((1, 2), W, LW, V_ew, LW, n, rules, mc, p, scratch, tol, progress)
        residual = max(residual, r2, r3, r4)
        seats = (float(V_we[0, 0, 0]), float(1.0 - V_ew[0, 0, 0]))
    cap_error = 0.0 if immediate else max(float(LW[:, mc + 2].max()) - _cloverleaf_floor(p), 0.0)
    mono = _monotone(W, LW[1, 1:], immediate)
    return WinSolution(
        rules=rules, W=W, W_ev=W_ev, last_turn=LW[1, 1:].copy(), last_turn_table=LW,
        p_first_wins=float(W[0, 0, 0]), p_first_wins_ev=float(W_ev[0, 0, 0]),
        win_vs_ev=float(np.mean(seats)), win_vs_ev_seats=seats,
        states=int(2 * n * n), seconds=time.perf_counter() - t0, residual=float(residual),
        sweeps=sweeps, margin_cap=mc, cap_error=cap_error, monotone=mono)


def _cloverleaf_floor(p: _Params) -> float:
    """A chance that seat 1 has in its last turn at any margin: never bank,
    draw after every Tutto, win by the Kleeblatt. ``L`` never falls below it,
    so throwing on past the cap can gain at most ``L(cap) - this``."""
    (_, pm_chain, _, _, _, _, _, _, freq, _, p_hi, _, q_hi, *_) = p.tp
    again = sum(freq[c] for c in range(N_CARDS) if Card(c).can_bank_before_tutto) * p_hi
    again += freq[Card.STREET] * q_hi + (freq[Card.PLUSMINUS] * p_hi if pm_chain == 0 else 0.0)
    return float(freq[Card.CLOVERLEAF] * p_hi * p_hi / (1.0 - again))


def work_units(rules: TuttoRules, evaluate_ev: bool = True) -> int:
    """Progress of one sweep of :func:`solve_win`: the score pairs of every world."""
    n = rules.target // POINT_UNIT
    return n * n * (4 if evaluate_ev else 1)


def _monotone(W: np.ndarray, last: np.ndarray, immediate: bool, eps: float = 1e-12) -> bool:
    """Every leaf grows with the turn total: W never grows with the opponent's
    score, L never grows with the margin (see the module docstring)."""
    ok = bool((np.diff(W, axis=2) <= eps).all())
    if not immediate:
        ok = ok and bool((np.diff(last) <= eps).all())
    return ok


@functools.lru_cache(maxsize=4)
def cached_solution(rules: TuttoRules) -> WinSolution:
    """:func:`solve_win` (W only, no EV evaluation) once per rules in this process."""
    return solve_win(rules, evaluate_ev=False)


# --------------------------------------------------------------------------
# one turn's decisions from the table
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnStart:
    """Layer 0 of one turn of the win-optimal player (units of 50).

    ``bank[T]``: the chance after banking ``T``; ``draw[T]``: after drawing a
    card with ``T`` at risk; after a Tutto the player banks iff
    ``bank[T] >= draw[T]``; ``value`` = ``draw[0]``, the turn's chance."""

    bank: np.ndarray
    draw: np.ndarray
    tcap: int

    @property
    def value(self) -> float:
        return float(self.draw[0])

    def banks_after_tutto(self, turn_total: int) -> bool:
        t = turn_total
        return t >= self.tcap or bool(self.bank[t] >= self.draw[t])

    def bank_from(self) -> int | None:
        """Smallest total (units) from which the player banks after every Tutto
        (None: never below the cap)."""
        t = self.tcap
        while t > 1 and self.banks_after_tutto(t - 1):
            t -= 1
        return t


def turn_start(rules: TuttoRules, W: np.ndarray, last_turn_table: np.ndarray,
               margin_cap: int, seat: int, own: int, other: int) -> TurnStart:
    """The win-optimal turn of ``seat`` on ``own`` units against ``other``."""
    n = rules.target // POINT_UNIT
    if not (0 <= own < n and 0 <= other < n and seat in (0, 1)):
        raise ValueError(f"scores must be 0..{n - 1} units and seat 0 or 1")
    immediate = rules.game_end == "immediate"
    mc = 0 if immediate else margin_cap
    p = _params_for(rules, n, mc)
    tsize = _tsize(rules, n, mc, p.t_max)
    s = WinScratch(1, n // 20 + 3, tsize, rules.x2_scope == "card", p.cpmax)
    tcap = n - own + (mc if seat == 0 else 0)
    if immediate:
        tcap = n - own
    beta = float(W[1 - seat, other, own])
    W = np.ascontiguousarray(W)
    k.state_value(0, seat, own, other, beta, W, last_turn_table, W, last_turn_table, n,
                   immediate, rules.plusminus_deduction == "tutto", tcap, tcap, p.tp, p.ev,
                   s.A[0], s.D[0], s.U[0], s.UX[0], s.bl[0], s.bust[0], s.win[0],
                   s.chain[0], s.sc[0])
    return TurnStart(s.bl[0, 0, 0, :tcap + 1].copy(), s.D[0, 0, 0, :tcap + 1].copy(), tcap)


def _tsize(rules: TuttoRules, n: int, mc: int, t_max: int) -> int:
    return 2 * max(n + mc, t_max + 1, n + mc + 2) + 90


@functools.lru_cache(maxsize=4)
def _params_for(rules: TuttoRules, n: int, mc: int) -> _Params:
    probe = _turn_params(rules, 8)
    return _turn_params(rules, _tsize(rules, n, mc, probe.t_max) + 2)


@functools.lru_cache(maxsize=4)
def turn_params_for(rules: TuttoRules, turn_size: int) -> _Params:
    """The kernels' parameters for turn totals below ``turn_size`` (units),
    at least the EV table's reach: ``(params, size)``; the N-player solver's."""
    probe = _turn_params(rules, 8)
    size = max(turn_size, probe.t_max + 2)
    return _turn_params(rules, size + 2), size


# --------------------------------------------------------------------------
# the policy file
# --------------------------------------------------------------------------

WIN_TABLE_KIND = "win-table"
WIN_TABLE_VERSION = 1
WIN_OBJECTIVE = ("both players maximise their chance of winning a two-player game "
                 "(docs/win.md; cards drawn independently at the deck frequencies)")
_WIN_HASHED = ("format", "version", "game", "kind", "win_table_version", "rules",
               "rules_sha256", "point_unit", "target_units", "margin_cap_units", "W",
               "last_turn")
#: Rule fields a win table depends on (the deck, the reshuffle and the
#: Kleeblatt's turn-analysis value do not change it).
WIN_FIELDS = ("six_of_kind", "x2_scope", "plusminus_chain", "plusminus_deduction", "target",
              "game_end")


@dataclass(frozen=True)
class WinTable:
    """A win table read from its policy file."""

    rules: TuttoRules
    W: np.ndarray
    last_turn_table: np.ndarray
    margin_cap: int
    summary: dict

    def turn_start(self, seat: int, own: int, other: int) -> TurnStart:
        return turn_start(self.rules, self.W, self.last_turn_table, self.margin_cap, seat,
                          own, other)


def _win_hash(d: dict) -> str:
    return fields_sha256(d, _WIN_HASHED)


def win_table_dict(sol: WinSolution) -> dict:
    """The JSON document of the win policy file (schema/win-policy.schema.json)."""
    return win_table_document("tutto", sol.rules, WIN_TABLE_KIND, WIN_TABLE_VERSION, WIN_OBJECTIVE, {
        "point_unit": POINT_UNIT,
        "target_units": sol.rules.target // POINT_UNIT, "margin_cap_units": sol.margin_cap,
        "W": np.clip(sol.W, 0.0, 1.0).tolist(),
        "last_turn": np.clip(sol.last_turn_table, 0.0, 1.0).tolist(),
        "summary": sol.summary(),
    }, _win_hash)


def write_win_table(sol: WinSolution, path) -> None:
    """Write the policy file (the caller makes the write atomic)."""
    write_compact(path, win_table_dict(sol))


def win_schema() -> dict:
    return schema_of(__package__, "win-policy.schema.json")


def load_win_table(path, rules: TuttoRules | None = None) -> WinTable:
    """Read a win policy file; :class:`PolicyFileError` (one line) for a damaged
    file, another version or kind, shapes that do not fit the target, or
    rules other than ``rules`` (the fields of :data:`WIN_FIELDS`)."""
    from tutto_sim.core.policyfile import PolicyFileError, check_win_kind, read_policy_file

    check_win_kind(path, WIN_TABLE_KIND, "export one with: tutto-sim solve --objective win")
    d, file_rules, path = read_policy_file(path, "tutto", win_schema(), TuttoRules, _win_hash,
                                           asked=rules)
    n = file_rules.target // POINT_UNIT
    W = np.array(d["W"], dtype=float) if _square(d["W"], n) else None
    if W is None or d["target_units"] != n:
        raise PolicyFileError(f"policy file {path}: W must be 2 x {n} x {n} for target "
                              f"{file_rules.target:,}")
    last = d["last_turn"]
    if len({len(r) for r in last}) != 1:
        raise PolicyFileError(f"policy file {path}: last_turn rows differ in length")
    if rules is not None:
        wrong = [f"{f}={getattr(rules, f)!r} (file: {getattr(file_rules, f)!r})"
                 for f in WIN_FIELDS if getattr(rules, f) != getattr(file_rules, f)]
        if wrong:
            raise PolicyFileError(f"win table {path} was solved for other rules: {', '.join(wrong)}")
    return WinTable(file_rules, W, np.ascontiguousarray(np.array(last, dtype=float)),
                    int(d["margin_cap_units"]), d["summary"])


def _square(w, n: int) -> bool:
    return len(w) == 2 and all(len(rows) == n and all(len(r) == n for r in rows) for rows in w)


# --------------------------------------------------------------------------
# decisions inside a turn (the winopt bot)
# --------------------------------------------------------------------------


@dataclass
class _Layers:
    """One turn's arrays, layer by layer (component 0 only is read)."""

    tcap: int
    bl: np.ndarray
    bust: np.ndarray
    A: np.ndarray
    D: np.ndarray
    U: list
    UX: list
    nxt: list


class TurnPlanner:
    """Win-optimal decisions inside a turn, read from one turn's programme
    (component 0: the mover's own chance) layer by layer: the decision code
    shared by the two-player :class:`WinPlanner` and the N-player
    :class:`tutto_sim.tutto.winprob_n.WinPlannerN`. A subclass says where the
    mover is, :meth:`where` (the programme and its layer)."""

    def __init__(self, rules: TuttoRules, p):
        self.rules = rules
        self.p = p
        self.x2_card = rules.x2_scope == "card"
        t = build_tables(rules.scoring)
        self.best_pts = np.asarray(t.best_pts)
        prob, start = np.ascontiguousarray(t.prob), np.ascontiguousarray(t.start).astype(np.int64)
        self.p_hi, self.p_lo = k.tutto_extremes(prob, start, self.best_pts.astype(np.int64))
        r = street_new_numbers(prob, start, np.ascontiguousarray(t.faces))
        self.q_hi, self.q_lo = street_by_numbers(r)
        self.tables = t

    def _run(self, s, n_layers, tcap, rows_from_top):
        """Solve the layers ``rows_from_top`` of the programme in scratch ``s``
        (slot 0, leaves filled) for component 0, keeping each layer's ``U``."""
        x2 = self.x2_card
        U, UX, nxt = [None] * n_layers, [None] * n_layers, [0] * n_layers
        for j in rows_from_top:
            nj = j + 1 if j + 1 < n_layers else j
            nxt[j] = nj
            k.one_layer(k.MAX_MODE, 1, tcap, min(k.PM_UNITS * j, tcap), j, nj, s.sc[0],
                         s.bl[0], s.bust[0], s.win[0], s.A[0], s.D[0], s.U[0], s.UX[0],
                         self.p.tp, self.p.ev)
            U[j] = s.U[0, 0].copy()
            UX[j] = s.UX[0, 0].copy() if x2 else None
        return _Layers(tcap, s.bl[0, 0].copy(), s.bust[0, 0].copy(), s.A[0, 0].copy(),
                       s.D[0, 0].copy(), U, UX, nxt)

    def where(self, view, plusminus_tuttos: int) -> tuple[_Layers, int]:
        """The programme and layer of the player to move in ``view``."""
        raise NotImplementedError

    # ---- the decisions -------------------------------------------------
    def after_keep(self, lay, j, card, t2, cp2, left) -> float:
        """The chance after a keep under a Bonus or x2 card in layer ``j`` of
        the programme ``lay``: turn total ``t2`` and card points ``cp2``
        (units) after it, ``left`` dice left (0: the Tutto)."""
        tc = lay.tcap
        if left == 0:
            if card == k.X2:
                tt = t2 + cp2 if self.x2_card else 2 * t2
            else:
                tt = t2 + Card(card).bonus // POINT_UNIT
            return lay.A[j, tt] if tt < tc else lay.bl[j, min(tt, lay.bl.shape[1] - 1)]
        if t2 >= tc:
            return lay.bl[j, min(t2, lay.bl.shape[1] - 1)]
        if card == k.X2 and self.x2_card:
            return lay.UX[j][t2, cp2, left]
        return lay.U[j][card, t2, left]

    def keep_dice(self, view, card, turn_total, card_points, dice, throw, pm_tuttos) -> int:
        """How many dice to set aside (the most points for that many)."""
        t = self.tables
        ms = t.multiset_of(list(throw))
        lay, j = self.where(view, pm_tuttos)
        ks = [kk for kk in range(1, dice + 1) if self.best_pts[ms, kk] >= 0]
        if card in (k.PLUSMINUS, k.CLOVERLEAF):
            hi = card == k.CLOVERLEAF or self._wants_tutto(lay, j, turn_total)
            pr = self.p_hi if hi else self.p_lo
            vals = [pr[dice - kk] * (1 if hi else -1) for kk in ks]
        else:
            T, cp = turn_total // POINT_UNIT, card_points // POINT_UNIT
            vals = [self.after_keep(lay, j, int(card), T + self.best_pts[ms, kk],
                                     cp + self.best_pts[ms, kk], dice - kk) for kk in ks]
        return ks[int(np.argmax(vals))]

    def after_plusminus(self, lay, j, turn_total) -> float:
        """The chance after a Plus/Minus Tutto from ``turn_total`` (points) in
        layer ``j`` (the next layer, as the Plus/Minus chain rule says)."""
        T = turn_total // POINT_UNIT + k.PM_UNITS
        nj = lay.nxt[j]
        chain = PLUSMINUS_CHAIN_CHOICES.index(self.rules.plusminus_chain)
        cap = lay.bl.shape[1] - 1
        if chain == 0:
            return float(lay.A[nj, T] if T < lay.tcap else lay.bl[nj, min(T, cap)])
        if chain == 1:
            return float(lay.bl[nj, min(T, cap)])
        return float(lay.bl[nj, k.PM_UNITS])

    def after_street(self, lay, j, turn_total) -> float:
        """The chance after completing the Straße from ``turn_total`` (points)."""
        T = turn_total // POINT_UNIT + k.STREET_UNITS
        return float(lay.A[j, T] if T < lay.tcap else lay.bl[j, min(T, lay.bl.shape[1] - 1)])

    def _wants_tutto(self, lay, j, turn_total) -> bool:
        return self.after_plusminus(lay, j, turn_total) >= lay.bust[j]

    def banks(self, view, card, turn_total, card_points, dice, pm_tuttos) -> bool:
        lay, j = self.where(view, pm_tuttos)
        T = turn_total // POINT_UNIT
        if T >= lay.tcap:
            return True
        if card == k.X2 and self.x2_card:
            cont = lay.UX[j][T, card_points // POINT_UNIT, dice]
        else:
            cont = lay.U[j][int(card), T, dice]
        return bool(cont <= lay.bl[j, T])

    def banks_after_tutto(self, view, turn_total, pm_tuttos) -> bool:
        lay, j = self.where(view, pm_tuttos)
        T = turn_total // POINT_UNIT
        return T >= lay.tcap or bool(lay.bl[j, T] >= lay.D[j, T])

    def street_take(self, view, turn_total, have: int, new: int, pm_tuttos) -> int:
        lay, j = self.where(view, pm_tuttos)
        if self.after_street(lay, j, turn_total) >= lay.bust[j]:
            vals = [self.q_hi[have + t] for t in range(1, new + 1)]
        else:
            vals = [-self.q_lo[have + t] for t in range(1, new + 1)]
        return int(np.argmax(vals)) + 1


class WinPlanner(TurnPlanner):
    """Win-optimal decisions inside a turn from a win table (two players).

    Each turn's programme is solved once (per seat and scores) with ``W`` at
    its leaves, and the decisions read from it; in seat 1's last turn of a
    round the last-turn programme of the current margin is used.
    """

    def __init__(self, table: WinTable):
        self.table = table
        rules = table.rules
        self.n = rules.target // POINT_UNIT
        self.immediate = rules.game_end == "immediate"
        self.mc = 0 if self.immediate else table.margin_cap
        p = _params_for(rules, self.n, self.mc)
        super().__init__(rules, p)
        self.tsize = _tsize(rules, self.n, self.mc, p.t_max)
        self._turns: dict = {}
        self._last = None

    # ---- where the mover is (the decisions: TurnPlanner's) ----------------
    def turn(self, seat: int, own: int, other: int) -> _Layers:
        key = (seat, own, other)
        if key not in self._turns:
            if len(self._turns) > 64:
                self._turns.clear()
            n, W, L = self.n, self.table.W, self.table.last_turn_table
            s = WinScratch(1, n // 20 + 3, self.tsize, self.x2_card, self.p.cpmax)
            tcap = n - own + (self.mc if seat == 0 else 0)
            ded_tutto = self.rules.plusminus_deduction == "tutto"
            # fill the leaves as the solver does, then solve the layers here
            k.state_value(0, seat, own, other, float(W[1 - seat, other, own]), W, L, W, L, n,
                           self.immediate, ded_tutto, tcap, tcap, self.p.tp, self.p.ev,
                           s.A[0], s.D[0], s.U[0], s.UX[0], s.bl[0], s.bust[0], s.win[0],
                           s.chain[0], s.sc[0])
            layers = layers_of(own, other)
            self._turns[key] = self._run(s, layers, tcap, range(layers - 1, -1, -1))
        return self._turns[key]

    def last_turn(self, margin: int) -> tuple[_Layers, int]:
        """Seat 1's last turn ``margin`` units behind (after deductions)."""
        mmax = self.table.last_turn_table.shape[1] - 2
        if self._last is None:
            s = WinScratch(1, mmax + 2, self.tsize, self.x2_card, self.p.cpmax)
            out = np.zeros(mmax + 2)
            k.last_turn_values(k.MAX_MODE, mmax, self.rules.plusminus_deduction == "tutto",
                                False, 0, self.p.tp, self.p.ev, s.A[0], s.D[0], s.U[0],
                                s.UX[0], s.bl[0], s.bust[0], s.win[0], s.sc[0], out)
            self._last = s
        s = self._last
        m = min(max(margin, -1), mmax)
        row = m + 1
        tcap = max(m + 1, 1)
        nj = k.margin_next(m, False) + 1
        k.one_layer(k.MAX_MODE, 1, tcap, 0, row, nj, s.sc[0], s.bl[0], s.bust[0], s.win[0],
                     s.A[0], s.D[0], s.U[0], s.UX[0], self.p.tp, self.p.ev)
        lay = _Layers(tcap, s.bl[0, 0], s.bust[0, 0], s.A[0, 0], s.D[0, 0],
                      {row: s.U[0, 0].copy()}, {row: s.UX[0, 0].copy() if self.x2_card else None},
                      {row: nj})
        return lay, row

    def where(self, view, plusminus_tuttos: int) -> tuple[_Layers, int]:
        """The programme and layer of the player to move in ``view`` after
        ``plusminus_tuttos`` Plus/Minus Tuttos this turn. The players they take
        from are fixed at the start of the turn, so under either deduction it
        is that layer of the turn from the scores at its start
        (``view.turn_start`` if it has one, else ``view.scores``)."""
        start = getattr(view, "turn_start", None) or view.scores
        # at a table of three or more: the reduced two-player state (tutto.win_seat)
        units = np.array([x // POINT_UNIT for x in start], dtype=np.int64)
        seat, own, other = two_player_state(units, view.seat, len(units))
        if view.last_round and not self.immediate:
            return self.last_turn(k.last_turn_margin(own, other, plusminus_tuttos))
        lay = self.turn(seat, own, other)
        return lay, min(plusminus_tuttos, len(lay.U) - 1)


def layers_of(own: int, other: int) -> int:
    chain = np.zeros(64, dtype=np.int64)
    return int(k.win_chain(own, other, chain))


def street_by_numbers(r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Most and least likely Straße with m numbers set aside (m = 0..6)."""
    hi = np.zeros(MAX_DICE + 1)
    lo = np.zeros(MAX_DICE + 1)
    hi[MAX_DICE] = lo[MAX_DICE] = 1.0
    for m in range(MAX_DICE - 1, -1, -1):
        hi[m] = sum(r[m, j] * max(hi[m + t] for t in range(1, j + 1))
                    for j in range(1, MAX_DICE - m + 1))
        lo[m] = sum(r[m, j] * min(lo[m + t] for t in range(1, j + 1))
                    for j in range(1, MAX_DICE - m + 1))
    return hi, lo


def win_rules(rules: TuttoRules) -> TuttoRules:
    """The rule fields a win table depends on, the others at their defaults."""
    return TuttoRules(**{f: getattr(rules, f) for f in WIN_FIELDS})


def default_win_file(rules, players: int = 2):
    """(path, run digest) of the win table of ``rules``: where ``solve --objective
    win`` writes it by default and where ``winopt``, the report and the
    advisor look for it, ``results/tutto-win-TARGET-<run>.json``, ``<run>`` the run digest
    (``core.runs``) of the rule fields the table depends on."""
    from tutto_sim.core.runs import win_table_file

    return win_table_file("tutto", win_rules(rules), players=players)

r"""Playing to win: the exact win probability of two-player Tutto.

Part of the solver layer (rules -> tables -> **solve**). The turn solver
(:mod:`tutto_sim.tutto.solver`) maximises the points of one turn; here both
players maximise their chance of winning the game, as Neller and Presser did
for Pig and Busche for Farkle. One turn's numba kernels are in
:mod:`tutto_sim.tutto.win.programme`, this solver's own in
:mod:`tutto_sim.tutto.win.kernel2`, the tables a turn reads in
:mod:`tutto_sim.tutto.win.params`. Conventions are those of the turn solver:
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
(:func:`tutto_sim.tutto.win.programme.win_chain`). The turn's ends are the leaves:

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
the solution. A bank past the cap (a turn can jump past it: an x2 Tutto
doubles the total) counts as a score of ``N + margin_cap``, within the same
bound: the N-player solver's convention (scores past the cap count as the
cap), so that its table at N = 2 is this one.

EV-optimal players
------------------
``p_first_wins_ev`` is the game when both play the ``optimal`` bot (the turn
solver's EV table, which does not look at the scores), and ``win_vs_ev`` the
win-optimal player (its decisions from ``W``) against it, averaged over both
seatings. Both are exact evaluations of fixed decisions. The EV table's
decisions do not look at the scores, so its turn's outcomes (banked total,
Plus/Minus Tuttos, Niete or Stop, Kleeblatt win) are followed forwards once
(:func:`tutto_sim.tutto.win.programme.ev_turn_outcomes`) and each state's value is their sum with
that state's leaves (:func:`tutto_sim.tutto.win.kernel2._ev_state`); the win-optimal
player's turns are programmes as above.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.cards import N_CARDS, Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win import kernel2 as k2
from tutto_sim.tutto.win import programme as k
from tutto_sim.tutto.win.params import PREPARING, TurnParams, WinScratch, turn_params

#: Stop when no value moves by more than this in a sweep.
DEFAULT_TOL = 1e-11
#: Newton steps on one pair stop when neither value moves by more than this.
PAIR_TOL = 1e-14
#: Largest target (points) the solver takes: memory and time grow fast beyond.
MAX_TARGET = 20000
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


def _last_turn(mode: int, mmax: int, ded_tutto: bool, floor0: bool, tcap_min: int,
               p: TurnParams, tsize: int, x2_card: bool) -> np.ndarray:
    s = WinScratch(1, mmax + 2, tsize, x2_card, p.cpmax)
    out = np.zeros(mmax + 2)
    k2.last_turn_values(mode, mmax, ded_tutto, floor0, tcap_min, p.tp, p.ev, s.A[0], s.D[0],
                        s.U[0], s.UX[0], s.bl[0], s.bust[0], s.win[0], s.sc[0], out)
    return out


def _last_turn_table(mode: int, mmax: int, rules: TuttoRules, p: TurnParams, tsize: int
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
    the group (:func:`kernel2._link_slopes`); the group's linear system
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
        k2.group_states(seat[todo], own[todo], other[todo], beta, kinds[0], kinds[1], W, LW,
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
              tol: float = DEFAULT_TOL, evaluate_ev: bool = True, progress=None, phase=None,
              opponent=None) -> WinSolution:
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
    opponent:
        The points player's table for those figures: an
        :class:`tutto_sim.tutto.policy.ExactPolicy` of these rules (default:
        the ``optimal`` bot's, ``params.points_player``).
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
    probe = turn_params(rules, 8, opponent)
    # a turn followed up to tcap reads leaves up to 2 tcap + 82 (an x2 Tutto)
    mmax = n + mc + 1
    tsize = 2 * max(n + mc, probe.t_max + 1, mmax + 1) + 90
    p = turn_params(rules, tsize + 2, opponent)
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


def _cloverleaf_floor(p: TurnParams) -> float:
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

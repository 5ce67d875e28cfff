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
same scores, so ``(0, a, b)`` and ``(1, b, a)`` depend on each other: given
the other's value the turn value is convex and piecewise linear in it with
slope ``P(bust)`` < 1 (a max over policies of linear functions), so Newton's
method solves them, with the slopes computed along with the values; it stops
when nothing moves (exactly one step when the decisions are fixed, as for the
EV-optimal player). Under the deduction ``bank`` the states are solved in
levels of equal ``a + b`` from the highest sum down (a banked turn never lowers
it; inside a level the only links are turns of nothing but Plus/Minus Tuttos);
under the deduction ``tutto`` a Niete after a Plus/Minus Tutto leads to a
smaller sum, so the levels are swept again until no value moves by more than
``tol``. ``residual`` is the largest change of the last sweep.

This table is solved by the N-player solver at N = 2
(:func:`tutto_sim.tutto.win.solve_n.solve_win_n`: the same levels, Newton
runs, links and sweeps for every table size, with checkpoints and the
cluster); :func:`solve_win` reads the two-player table, its last turn and its
figures from that solution. (Until 2026-12 a solver of its own did this; the
N-player one gives its tables to 1e-12 and is faster: docs/win.md.)

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
(:func:`tutto_sim.tutto.win.programme.ev_turn_outcomes`) and each state's value
is their sum with that state's leaves; the win-optimal player's turns are
programmes as above (the N-player solver's worlds 2 to 4).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.cards import N_CARDS, Card
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win import kernel2 as k2
from tutto_sim.tutto.win import programme as k
from tutto_sim.tutto.win.params import TurnParams, WinScratch, turn_params_for

#: Stop when no value moves by more than this in a sweep (the N-player solver's default).
DEFAULT_TOL = 1e-12
#: Largest target (points) the solver takes: memory and time grow fast beyond.
MAX_TARGET = 20000
#: The time of a solve grows about as the target to this power (measured from target
#: 2000 to 4000 and 3000 to 6000 with scripts/bench_solve.py, 2026-12-08; docs/win.md, *Speed*).
TIME_POWER = 3.4


def default_margin_cap(n_units: int) -> int:
    """Units past the target that seat 0's turn is followed under ``round``
    (the N-player solver's default at two players, ``solve_n.default_cap``)."""
    from tutto_sim.tutto.win.solve_n import default_cap

    return default_cap(n_units, 2)


@dataclass(frozen=True)
class WinSolution:
    """The exact two-player solution (units of 50 for scores).

    Attributes
    ----------
    W:
        ``W[seat, own, other]``: the chance that the player to move wins.
    last_turn:
        ``last_turn[m]``: seat 1's chance in its last turn ``m`` units behind
        (``round`` only; index m = 0.. ``margin``), win-optimal.
    last_turn_table:
        ``[row, m + 1]`` for m = -1 ..: row 0 when seat 1 has 0 points (the
        leader cannot fall below 0), row 1 otherwise; what the leaves read.
    """

    rules: TuttoRules
    W: np.ndarray
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


def solve_win(rules: TuttoRules = TuttoRules(), margin_cap: int | None = None,
              tol: float = DEFAULT_TOL, evaluate_ev: bool = True, progress=None, phase=None,
              opponent=None, checkpoint=None) -> WinSolution:
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
        Called with the turn-start states of every world as they are solved
        (for a progress bar); :func:`work_units` says how many to expect in
        one sweep.
    phase:
        Instead of ``progress``: ``phase(label, total, unit) -> advance``
        (``core.cli.progress_phases``), a phase for each part of the solve
        (as :func:`tutto_sim.tutto.win.solve_n.solve_win_n`'s), so each
        phase's rate is its own.
    checkpoint:
        A :class:`tutto_sim.core.checkpoint.Checkpoint` opened with
        ``solve_n.checkpoint_key(rules, 2, margin_cap, tol)``: each finished
        level is kept there, and a resumed solve gives the same bytes.

    Examples
    --------
    >>> sol = solve_win(TuttoRules(target=300))  # the first player wins 45.0% (round finished)
    >>> 0.449 < sol.p_first_wins < 0.451
    True
    """
    from tutto_sim.tutto.win.solve_n import solve_win_n

    t0 = time.perf_counter()
    if rules.target > MAX_TARGET:
        raise ValueError(f"target must be at most {MAX_TARGET:,} for the win solver, "
                         f"not {rules.target:,}")
    n = rules.target // POINT_UNIT
    immediate = rules.game_end == "immediate"
    sol = solve_win_n(rules, 2, margin_cap=margin_cap, tol=tol, evaluate_ev=evaluate_ev,
                      progress=progress, phase=phase, opponent=opponent, checkpoint=checkpoint)
    mc = sol.margin_cap  # the solver's (0 under immediate)
    # W[seat, x0, x1, player] -> W[seat, own, other] of the player to move
    W = np.ascontiguousarray(np.stack([sol.W[0, :, :, 0], sol.W[1, :, :, 1].T]))
    # seat 1's last turn, margin by margin (what the leaves and the planners read)
    mmax = n + mc + 1
    p, tsize = turn_params_for(rules, 2 * (mmax + 1) + 90, opponent)
    LW = _last_turn_table(k.MAX_MODE, mmax, rules, p, tsize)
    nan = float("nan")
    seats = tuple(sol.win_vs_ev) if evaluate_ev else (nan, nan)
    cap_error = 0.0 if immediate else max(float(LW[:, mc + 2].max()) - _cloverleaf_floor(p), 0.0)
    return WinSolution(
        rules=rules, W=W, last_turn=LW[1, 1:].copy(), last_turn_table=LW,
        p_first_wins=float(W[0, 0, 0]),
        p_first_wins_ev=float(sol.p_wins_ev[0]) if evaluate_ev else 0.0,
        win_vs_ev=float(np.mean(seats)), win_vs_ev_seats=seats,
        states=int(2 * n * n), seconds=time.perf_counter() - t0, residual=sol.residual,
        sweeps=sol.sweeps, margin_cap=mc, cap_error=cap_error,
        monotone=_monotone(W, LW[1, 1:], immediate), extra=sol.extra)


def _cloverleaf_floor(p: TurnParams) -> float:
    """A chance that seat 1 has in its last turn at any margin: never bank,
    draw after every Tutto, win by the Kleeblatt. ``L`` never falls below it,
    so throwing on past the cap can gain at most ``L(cap) - this``."""
    (_, pm_chain, _, _, _, _, _, _, freq, _, p_hi, _, q_hi, *_) = p.tp
    again = sum(freq[c] for c in range(N_CARDS) if Card(c).can_bank_before_tutto) * p_hi
    again += freq[Card.STREET] * q_hi + (freq[Card.PLUSMINUS] * p_hi if pm_chain == 0 else 0.0)
    return float(freq[Card.CLOVERLEAF] * p_hi * p_hi / (1.0 - again))


def work_units(rules: TuttoRules, evaluate_ev: bool = True, margin_cap: int | None = None) -> int:
    """Progress of one sweep of :func:`solve_win`: the turn starts of every world
    (:func:`tutto_sim.tutto.win.solve_n.work_units` at two players)."""
    from tutto_sim.tutto.win.solve_n import work_units as units_n

    return units_n(rules, 2, evaluate_ev, margin_cap)


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

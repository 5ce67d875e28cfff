r"""Playing to win: exact win probabilities of two-player Berliner Macke and Volle Lotte.

Part of the solver layer, beside the turn solver ``macke.solver`` (read
its docstring first: the states of one turn, its throws, keeps, returns and
clears are the same here). That solver maximises a turn's expected signed
result; this module maximises the chance of winning the game, for two
players who both play to win (docs/macke-win.md).

Scores and the floor
--------------------
Points are in units of 50. ``G`` is the target (``rules.target``), ``F < 0``
the *floor*: scores below it are held at it (default ``F`` = -2500 points,
as Busche did for Farkle). A turn-start state is ``(a, b)``: the score of
the player to move and the opponent's, ``F <= a, b < G``. The table is

.. math:: W[\text{seat}, a - F, b - F]

(units), the probability that the player to move wins when both maximise
their chances; ties count one half. Seat 0 moves first in each round. In
Macke the seat does not matter (below), so ``W[0] == W[1]``.

Game end, two players
---------------------
docs/macke.md (end of the game): "when a player ends a turn at or above the target, each other
player gets exactly one more turn". With two players this reads the same
for both seats: whoever ends a turn at ``s >= G`` first, the opponent (score
``b``) plays exactly one more turn, and then the higher score wins (the game
engines ``macke.game`` and ``macke.game_kernel`` do this too: after seat 1
finishes, seat 0 throws once more). That last turn is a one-turn problem:
the player needs a result above ``d = s - b >= 1`` (equal: half a win), so
its chance is a function ``L(d)`` alone, the best chance over every turn
policy. Variant ``instant-win``: five 1s in one throw win at once, also in
the last turn.

The Bellman equation
--------------------
A turn from ``(a, b)`` ends with a signed result ``r`` (``+T`` for a total
``T >=`` the minimum, ``-T`` below it, ``-T`` for a Macke after the first
throw, ``0`` with ``bust=zero``), the new score ``s = max(F, a + r)``, and
the value of that outcome for the mover is

.. math::
   g_{ab}(s) = \begin{cases} 1 - L(s - b) & s \ge G \\
                             1 - W[b, s] & s < G \text{ (the opponent moves)} \end{cases}

(five 1s: 1). ``W[a, b]`` is the optimal value of one turn of the turn
solver with these leaves in place of ``r`` (banking at total ``T`` is worth
``g(a + r(T))``, a Macke at ``T`` is worth ``g(a - T)``):

.. math:: W[a, b] = \max_{\text{turn policy}} \mathbb{E}\, g_{ab}(s), \qquad
          L(d) = \max_{\text{turn policy}} P(r > d) + \tfrac12 P(r = d).

*Why iterate.* Scores can fall (a result below the minimum, a Macke), so
``W[a, b]`` depends on ``W[b, s]`` with ``s < a``, and on ``W[b, a]`` (a zero
result) which depends on ``W[a, b]``: no order of the states solves it in one
pass, unlike the turn itself. ``L`` needs no iteration (one turn).

*Solve.* (Since 2026-12-08 by the N-player solver at two players:
:func:`tutto_sim.macke.win.solve_n.solve_macke_win` reads the two-player
table and its figures from
:func:`tutto_sim.macke.win.solve_n.solve_macke_win_n`'s solution, the same
policy iteration for every table size, with checkpoints and the cluster.)
Policy iteration: the greedy turn of every pair against the current
``W`` (one *sweep*: the turn DP per pair, numba, parallel over fixed blocks
of pairs), the exact distribution of that turn's outcomes (a forward pass
under its decisions), then the exact value of playing that policy on both
sides (a linear system, solved by Jacobi iteration to 1e-14). The start is
the value of both playing the EV-optimal turn policy. It stops when a sweep
changes no value by more than ``tol`` (default 1e-10): ``residual`` =
``max |T W - W|`` of the last sweep, whose ``T W`` is returned. The game ends
with probability 1 from every state, so the operator is a contraction over
enough turns and ``W`` is its fixed point (PI is a heuristic for games; the
residual certifies the answer whatever path led there).

*The turn totals that matter.* The turn DP of pair ``(a, b)`` runs over the
locked totals ``T0 < t*`` only: a new series after a clear at ``T`` is worth
at most ``p0 g(a - T) + (1 - p0)`` (``p0``: a Macke on a throw of all dice;
``g(a)`` with ``bust=zero``), so where banking ``g(a + T)`` is at least that
for every larger ``T``, banking the clear is optimal. ``t*`` is the smallest
such total, and ``cap_units`` (default 400 units = 20,000 points) bounds it:
a clear at or above it is banked. The best chance to make 20,000 points in
one turn is about 1e-13 (``last_turn``), so this changes no value by more;
the tests raise the cap and see nothing change.

*The floor.* Holding scores at ``F`` makes the state space finite. It
changes the game only where a score would fall below ``F``; the tests
compare floors and report the largest difference in ``W``.

Figures beside ``W``
--------------------
``p_first_wins = W[0, -F, -F]``; ``p_first_wins_ev``: both play the
EV-optimal turn policy of ``solve_macke`` (the ``optimal`` bot; its turn does
not depend on the scores, so one forward pass gives its outcome
distribution); ``win_vs_ev``: the win-optimal player against the EV-optimal
one, averaged over both seatings, both exact by the same linear evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.solver import kernel_args, slot_layout, solve_macke
from tutto_sim.macke.win import kernel2 as wk
from tutto_sim.macke.win.programme import turn_outcomes

#: A clear at a turn total of at least this many units (20,000 points) is
#: banked: the best chance to make that much in one turn is about 1e-13.
DEFAULT_CAP_UNITS = 400
#: Scores below this (points) are held at it (Busche's Farkle floor).
DEFAULT_FLOOR = -2500
#: Lowest floor accepted (points): the tables grow with target - floor.
MIN_FLOOR = -20_000
#: Largest target (points) the win solve accepts.
MAX_TARGET = 20_000
#: Stop when a sweep changes no value by more than this.
DEFAULT_TOL = 1e-10
#: Fixed blocks of score pairs (each with its own scratch) for the parallel sweeps.
N_BLOCKS = 8
_EVAL_TOL = 1e-14


@dataclass(frozen=True)
class MackeWinSolution:
    """Exact win probabilities of two-player Macke (module docstring).

    ``W[seat, a - floor, b - floor]`` (units of 50) and ``last_turn[d]``
    (the best chance in a last turn that needs a result above ``d`` units)
    are probabilities; ``floor`` and ``target`` are points.
    ``win_vs_ev_seats``: the win-optimal player's chance against the
    EV-optimal one when moving first and second (``win_vs_ev`` their mean);
    ``max_locked``: the largest locked total (points) any pair's turn needed;
    ``ev_table``: ``W`` when both play the EV-optimal turn.
    """

    rules: MackeRules
    floor: int
    target: int
    cap_units: int
    W: np.ndarray
    last_turn: np.ndarray
    p_first_wins: float
    p_first_wins_ev: float
    win_vs_ev: float
    residual: float
    iterations: int
    seconds: float
    win_vs_ev_seats: tuple = (0.0, 0.0)
    max_locked: int = 0
    ev_table: np.ndarray = field(default=None, repr=False)

    @property
    def states(self) -> int:
        """Turn-start states: both seats times every pair of scores."""
        return int(self.W.size)

    def win(self, mine: int, theirs: int, seat: int = 0) -> float:
        """W for the mover's and the opponent's scores in points (held at the floor)."""
        f, n = self.floor // POINT_UNIT, self.W.shape[1]
        i, j = (max(x // POINT_UNIT, f) - f for x in (mine, theirs))
        if not (i < n and j < n):
            raise ValueError(f"scores must be below the target {self.target:,}")
        return float(self.W[seat, i, j])

    def summary(self) -> dict:
        """The figures of ``solve --objective win --json``."""
        return {"game": self.rules.game, "variant": self.rules.variant, "objective": "win",
                "target": self.target, "floor": self.floor, "p_first_wins": self.p_first_wins,
                "p_first_wins_ev": self.p_first_wins_ev, "win_vs_ev": self.win_vs_ev,
                "states": self.states, "residual": self.residual,
                "iterations": self.iterations, "seconds": round(self.seconds, 3),
                "cap_units": self.cap_units, "rules": self.rules.to_dict()}


class WinSetup:
    """Tables, scalars and scratch of one rule set (units of 50)."""

    def __init__(self, rules: MackeRules, floor: int, cap_units: int):
        m, t, args = kernel_args(rules)
        self.rules, self.m = rules, m
        self.tab = tuple(args)
        self.n_all, self.L = rules.n_dice, rules.throws
        self.min_u = rules.min_score // POINT_UNIT
        self.subtract = rules.bust == "subtract"
        self.floor_u, self.target_u = floor // POINT_UNIT, rules.target // POINT_UNIT
        self.n = self.target_u - self.floor_u
        self.hc = int(cap_units)
        self.series_max = int(m.state_pts.max())
        self.n_t = self.hc + self.series_max + 1  # every turn total below the cap's reach
        n = rules.n_dice
        ms = np.arange(t.start[n], t.start[n + 1])
        macke = (m.keep_start[ms + 1] == m.keep_start[ms]) & ~m.win[ms]
        self.p0 = float(t.prob[ms][macke].sum())
        _, self.n_slots = slot_layout(m)

    def scratch(self, rows: int):
        ns, L1, nb = len(self.m.state_dice), self.L + 1, N_BLOCKS
        sf = (np.zeros((nb, self.n_t)), np.zeros((nb, self.n_t)), np.zeros((nb, self.hc)),
              np.zeros((nb, L1, ns)), np.zeros((nb, L1, ns)), np.zeros((nb, self.n_t)),
              np.zeros((nb, self.n_t)))
        si = (np.zeros((nb, self.hc), dtype=np.bool_), np.zeros((nb, rows, L1, self.n_slots), np.int8),
              np.zeros((nb, rows, L1, ns), np.int8), np.zeros((nb, rows, L1, ns), np.bool_))
        return sf, si

    def last_turn(self) -> np.ndarray:
        """``L(d)``, d = 0 .. cap + best series: the win-optimal last turn."""
        sf, si = self.scratch(1)
        return wk.last_turn(self.n_t, self.hc, self.p0, self.min_u, self.subtract, self.n_all,
                            self.L, self.tab, self.m.empty, sf, si)

    def ev_outcomes(self):
        """Outcome distribution of the EV-optimal turn (``solve_macke``): by total."""
        from tutto_sim.macke.rules import macke_turn_rules

        sol = solve_macke(macke_turn_rules(self.rules))
        dec = sol.decisions
        cap = sol.cap_units
        n_t = cap + self.series_max + 1
        bank_mass, macke_mass = np.zeros(n_t), np.zeros(n_t)
        mass = np.zeros((cap, self.L + 1, len(self.m.state_dice)))
        p_win = turn_outcomes(cap, self.n_all, self.L, self.tab, self.m.empty, dec.keep,
                                 dec.ret, dec.bank, dec.clear_bank, mass, bank_mass, macke_mass)
        return bank_mass, macke_mass, p_win

    def chances_above(self, bank_mass, macke_mass, p_win) -> np.ndarray:
        """``out[d]`` = P(result > d) + P(result = d)/2 (+ five 1s) of a turn's outcomes."""
        t = np.arange(len(bank_mass))
        res = np.concatenate([np.where(t >= self.min_u, t, -t), -t if self.subtract else 0 * t])
        mass = np.concatenate([bank_mass, macke_mass])
        d = np.arange(len(bank_mass))[:, None]
        return p_win + ((res[None, :] > d) * mass).sum(1) + 0.5 * ((res[None, :] == d) * mass).sum(1)


def last_turn_chances(rules: MackeRules = MackeRules(),
                      cap_units: int = DEFAULT_CAP_UNITS) -> np.ndarray:
    """``L[d]``: the best chance to end one turn with a result above ``d``
    units (equal: one half; five 1s win), d = 0 .. cap + the best series."""
    return WinSetup(rules, -POINT_UNIT, cap_units).last_turn()


def ev_game(rules: MackeRules = MackeRules(), floor: int = DEFAULT_FLOOR) -> np.ndarray:
    """``E[a - floor, b - floor]``: the mover's chance when both play the
    EV-optimal turn policy (the ``optimal`` bot), exact (module docstring)."""
    check_win_rules(rules, floor)
    s = WinSetup(rules, floor, DEFAULT_CAP_UNITS)
    ev = s.ev_outcomes()
    le = s.chances_above(*ev)
    n = s.n
    q, c = np.zeros((n * n, n)), np.zeros((n * n, 2))
    wk.settle_all(n, s.floor_u, s.target_u, s.min_u, s.subtract, *ev, le, le, q, c)
    (e,), _ = policy_values([q.reshape(n, n, n)], [c.reshape(n, n, 2)[..., 1]])
    return e


def policy_values(q: list, c: list, start: list | None = None, tol: float = _EVAL_TOL,
                  max_iter: int = 1_000_000):
    """Exact values of fixed turn policies (Jacobi iteration).

    Mover ``k`` (of one, or two playing each other) at pair ``(a, b)``
    reaches score ``s < target`` with probability ``q[k][a, b, s]`` and wins
    through the rest of its outcomes with ``c[k][a, b]``:
    ``V_k[a, b] = c_k[a, b] + sum_s q_k[a, b, s] (1 - V_other[b, s])``.
    """
    v = [np.array(x) for x in start] if start is not None else [np.array(x) for x in c]
    other = [0] if len(q) == 1 else [1, 0]
    for it in range(max_iter):
        new = [c[k] + np.einsum("abs,bs->ab", q[k], 1.0 - v[other[k]]) for k in range(len(q))]
        delta = max(float(np.abs(x - y).max()) for x, y in zip(new, v))
        v = new
        if delta <= tol:
            return v, it + 1
    raise RuntimeError(f"policy evaluation did not converge ({delta:.2e} after {max_iter} steps)")


def sweep_label(it: int, players: int = 2) -> str:
    """The phase of sweep ``it`` of a win solve: the number of sweeps is known only
    at the end (measured: 4 to 6 at two players, 7 to 10 at three, docs/macke-win.md)."""
    usual = "4 to 6" if players == 2 else "7 to 10"
    return f"solving to win: sweep {it} (usually {usual})"


def check_win_rules(rules: MackeRules, floor: int) -> None:
    """ValueError in one line for a floor or target the win solve does not take."""
    if not isinstance(floor, int) or floor % POINT_UNIT or not MIN_FLOOR <= floor < 0:
        raise ValueError(f"the floor must be a negative multiple of {POINT_UNIT} from "
                         f"{MIN_FLOOR:,} to -{POINT_UNIT}, not {floor}")
    if rules.target > MAX_TARGET:
        raise ValueError(f"the win solve takes targets up to {MAX_TARGET:,}, not {rules.target:,}")

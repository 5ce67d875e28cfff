r"""Playing to win at a table of N: exact win probabilities of N-player Tutto.

Part of the solver layer, beside the two-player solver
:mod:`tutto_sim.tutto.win.solve2` (read its docstring first: one turn is the same
dynamic programme, :mod:`tutto_sim.tutto.win.programme`, with the same leaves in
other places). The numba kernels are in :mod:`tutto_sim.tutto.win.kernel_n`.

States and values
-----------------
Scores in units of 50, ``n = target / 50``. A turn-start state is
``(s, x)``: seat ``s`` (seat 0 moves first in every round) to move, the
scores ``x = (x_0, ..., x_{N-1})``. Its value is a *vector*: each player's
chance to win when everyone maximises his own (a win shared by k tied players
counts 1/k). ``W[s, x_0, ..., x_{N-1}, p]`` holds it for every ``x < n``
(the *main phase*).

Under ``--game-end round`` the round is finished once somebody ends a turn at
or above the target: the seats after him each have one more turn, then the
highest score wins. Those turns are the *end phase*, states ``(m, x)`` for
``m = 1 .. N-1`` with scores up to ``n + C`` (a player who has reached the
target, or who moves in the end phase, banks as soon as his score reaches
``n + C``; higher scores count as ``n + C``; ``C`` = ``margin_cap``). Each
end-phase turn is one programme whose leaves are the next seat's end-phase
states or, after seat N-1, the finished game; they are solved from seat
``N-1`` down. Under ``immediate`` reaching the target wins.

The turn
--------
One turn of seat ``s`` at ``x`` is the two-player solver's programme with
``N`` value components, component ``f`` the chance of seat ``(s + f) % N``;
component 0, the mover's own chance, makes every decision (ties: banking
first, then the first keep, i.e. the most points with the fewest dice as
the two-player solver; see docs/win.md). Plus/Minus: the players who lose
are fixed at the turn's start (every other player at the highest score; none
when the mover leads alone), each banked Plus/Minus Tutto takes 20 units from
each of them (never below 0): layer ``j`` of the turn holds their scores
after ``j`` deductions.

The order of solving
--------------------
A Niete hands the turn to the next seat at the same scores: the N states of
one ``x`` form a cycle. Every other end of a turn raises the score sum,
except turns of nothing but Plus/Minus Tuttos banked at exactly 1000 each:
taken from one leader they keep the sum (a *link* inside the level), taken
from two or more tied leaders they lower it, and under deduction ``tutto`` a
Niete after such Tuttos lowers it too. The main phase is solved level by
level of equal score sum, from the highest down. Each turn's programme also
carries the slopes in the Niete's state and in each link (components
``N`` and ``N + 1 + k``: leaves 1 at that end, 0 elsewhere), so each state's
value is affine in them; the level's linear system is solved exactly (the
cycle of each ``x`` in closed form, the links by Gauss-Seidel), and the
programmes are run again for the states whose inputs moved by more than
``PAIR_TOL`` (Newton's method, as the two-player solver's groups). The
lower-sum ends are read from the previous sweep; sweeps repeat until no value
moves by more than ``tol`` (``residual``: the largest move of the last sweep).

EV-optimal players
------------------
``p_wins_ev`` is the game when everyone plays the ``optimal`` bot, and
``win_vs_ev[s]`` seat ``s`` playing to win (its decisions from ``W``) against
N-1 ``optimal`` players. The EV table does not look at the scores: its
turn's outcomes are followed forwards once and each state's value is their
sum with that state's leaves; the win-optimal player's turns are programmes
with a deciding component from ``W``. Those turns are the win table's own:
at the end of the round they are run once for both tables, and in the main
phase each seat's turns in the win table's Newton runs carry that seat's
table's values beside (``world``, ``ride``), so that table's level is then
a linear system (the points players' turns from their outcomes). A
decision at a near-tie can differ between two runs within ``PAIR_TOL`` of
each other, so these tables may move a little after the win table has
converged: they then go on alone, by the win table's decisions.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from tutto_sim.core.blocks import chunks
from tutto_sim.core.checkpoint import Steps
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.rules import WIN_FIELDS, TuttoRules
from tutto_sim.tutto.win import kernel_n as kn
from tutto_sim.tutto.win.params import PREPARING, WinScratchN, turn_params_for
from tutto_sim.tutto.win.table import WinTableN

#: Newton's rounds on a level stop when no input moves by more than this.
PAIR_TOL = 1e-14
#: Sweeps stop when no value moves by more than this.
DEFAULT_TOL = 1e-12
#: Table sizes the N-player solver takes.
PLAYERS = (2, 3, 4)
#: Largest target (points) per table size: time and memory grow as the target
#: to the power N + 1.
MAX_TARGETS = {2: 20000, 3: 6000, 4: 1000}


def default_cap(n_units: int, players: int) -> int:
    """Units past the target that turns are followed under ``round``: as the
    two-player solver for two (the target, at least 2000 points); the
    target, at least 1000 points, for more (the end phase grows as the cap
    to the power N)."""
    return max(40, n_units)


def margin_cap_of(rules: TuttoRules, players: int, margin_cap: int | None = None) -> int:
    """The cap a solve of ``rules`` uses: ``margin_cap``, else :func:`default_cap`;
    0 under ``immediate`` (no end of the round)."""
    if rules.game_end == "immediate":
        return 0
    n = rules.target // POINT_UNIT
    return int(default_cap(n, players) if margin_cap is None else margin_cap)


@dataclass(frozen=True)
class WinSolutionN:
    """The exact N-player solution (scores in units of 50).

    ``W``: shape ``(N,) + (n,) * N + (N,)``, see the module docstring;
    ``E``: the end phase, ``(N,) + (n + C + 1,) * N + (N,)`` (seat 0 unused;
    empty under ``immediate``)."""

    rules: TuttoRules
    players: int
    W: np.ndarray
    E: np.ndarray
    p_wins: tuple
    p_wins_ev: tuple
    win_vs_ev: tuple
    states: int
    seconds: float
    residual: float
    sweeps: int
    margin_cap: int
    extra: dict = field(default_factory=dict)

    def summary(self) -> dict:
        """The JSON keys of ``solve --objective win --players N``."""
        return {
            "game": "tutto",
            "players": self.players,
            "target": self.rules.target,
            "game_end": self.rules.game_end,
            "p_wins": list(self.p_wins),
            "p_wins_ev": list(self.p_wins_ev),
            "win_vs_ev": list(self.win_vs_ev),
            "win_vs_ev_mean": float(np.mean(self.win_vs_ev)) if self.win_vs_ev else None,
            "states": self.states,
            "seconds": round(self.seconds, 3),
            "residual": self.residual,
            "sweeps": self.sweeps,
            "margin_cap_points": self.margin_cap * POINT_UNIT,
        }


class _Solver:
    def __init__(self, rules: TuttoRules, players: int, margin_cap: int | None, tol: float,
                 progress, opponent=None):
        if players not in PLAYERS:
            raise ValueError(f"players must be one of {PLAYERS}, not {players}")
        self.rules = rules
        self.N = players
        self.n = n = rules.target // POINT_UNIT
        self.immediate = rules.game_end == "immediate"
        self.ded_tutto = rules.plusminus_deduction == "tutto"
        self.C = margin_cap_of(rules, players, margin_cap)
        self.M = n + self.C + 1
        self.tol = tol
        self.progress = progress
        self.phase = None  # or phase(label, total, unit): a phase per part of each world
        tsize = 2 * (self.M + 1) + 90
        self.p, self.tsize = turn_params_for(rules, tsize, opponent)
        q = self.p.ev_out[0]
        if q.shape[1] <= self.M + self.p.t_max + 2:
            raise ValueError("the EV outcomes do not reach the cap")
        self.layers = self.M // 20 + 3
        if q.shape[0] < self.layers:
            raise ValueError("the EV outcomes have too few Plus/Minus layers for this target")
        self.links = self.layers
        # a deciding turn's components: the values, the Niete's and the links' slopes, and a
        # second world's values beside (``extra``: the end of the round and the levels)
        self.nv = 2 * players + 1 + self.links
        slots = max(1, numba.get_num_threads())
        self.s = WinScratchN(slots, self.nv, self.layers, self.tsize, rules.x2_scope == "card",
                          self.p.cpmax, players, self.links)
        N = players
        # the main phase's levels: every scores x < n by their sum, seats 0..N-1 each
        x = np.indices((n,) * N).reshape(N, -1)
        tot = x.sum(axis=0)
        self.levels = []
        for lev in range(N * (n - 1), -1, -1):
            ids = np.flatnonzero(tot == lev).astype(np.int64)
            self.levels.append((lev, np.repeat(ids, N), np.tile(np.arange(N, dtype=np.int64),
                                                               len(ids))))
        # the end phase: seats m..N-1 below the target (they have not moved since)
        # (seat m, its states, the states whose turns are run, where each state's
        # value is among them): the last seat's turn depends only on the others'
        # scores relative to his own, so one turn serves every state of a key
        self.end_states = [] if self.immediate else end_phase_states(n, self.M, N)
        self.states = N * n ** N + sum(len(e[1]) for e in self.end_states)
        self.end_count = sum(len(e[2]) for e in self.end_states)
        self.timing: dict = {}
        self.world_no = 0
        self.steps = Steps(None)  # or a checkpoint's (solve_win_n)
        # kind 3 (winopt without an N-player table): the two-player table it decides by
        self.two = (np.zeros((2, 1, 1)), np.zeros((2, 1)))
        self.kept = None  # on a cluster: the tables kept on the workers (_run)

    def empty(self):
        N = self.N
        V = np.full((N, self.n ** N, N), 1.0 / N)
        E = np.zeros((N, self.M ** N if not self.immediate else 1, N))
        return V, E

    def _run(self, seat, idx, end_phase, kinds, level, Vd, Ed, V, E, extra=None):
        """:func:`kernel_n.run_states` on these states: here, or on a Dask
        cluster (``--cluster``) in tasks of :data:`CLUSTER_STATES` states, each
        a pure function of its states and the tables it reads (the same
        bytes wherever it runs). The tables stay on the workers
        (:class:`tutto_sim.core.cluster.KeptTables`): sent once, then only the
        values written since the last round (:meth:`_wrote`). ``extra``: a
        second world's tables (V2, E2) valued with the same decisions (kind
        0 only); its values come last in the result."""
        from tutto_sim.core import cluster

        if cluster.active() and len(seat) > CLUSTER_STATES:
            if self.kept is None or not self.kept.current():
                self.kept = cluster.KeptTables()
            tables = self.kept.refs(Vd, Ed, V, E, *self.two, *(extra or ()))
            cuts = list(range(0, len(seat), CLUSTER_STATES))
            tasks = [(self.rules, self.N, self.C, seat[a:a + CLUSTER_STATES],
                      idx[a:a + CLUSTER_STATES], end_phase, kinds, level, *tables)
                     for a in cuts]
            parts: list = [None] * len(tasks)

            def take(i, result):
                parts[i] = result

            cluster.run_tasks(remote_run, tasks, take, kept=self.kept)
            return tuple(np.concatenate([q[k] for q in parts]) for k in range(len(parts[0])))
        return self.run_here(seat, idx, end_phase, kinds, level, Vd, Ed, V, E, extra)

    def _wrote(self, table, index) -> None:
        """``table[index]`` was written: on a cluster the workers' copies get it."""
        if self.kept is not None:
            self.kept.wrote(table, index)

    def run_here(self, seat, idx, end_phase, kinds, level, Vd, Ed, V, E, extra=None):
        s, p = self.s, self.p
        ns = len(seat)
        out_c = np.zeros((ns, self.N))
        out_p = np.zeros(ns)
        out_w = np.zeros((ns, self.links))
        out_lk = np.zeros((ns, self.links), dtype=np.int64)
        out_nl = np.zeros(ns, dtype=np.int64)
        if extra is not None:
            if (kinds[seat] != 0).any():
                raise ValueError("a second world is valued only beside turns that decide in "
                                 "their own world")
            V2, E2 = extra
            out_c2 = np.zeros((ns, self.N))
        else:
            V2, E2, out_c2 = V, E, out_c
        q, po, hfw, pb, pw = p.ev_out
        kn.run_states(seat, idx, end_phase, kinds, self.N, self.n, self.M, self.immediate,
                      self.ded_tutto, level, Vd, Ed, V, E, p.tp, p.ev, p.t_max, q, po, hfw, pb,
                      pw, s.A, s.D, s.U, s.UX, s.bl, s.bust, s.win, s.sc, s.xs, s.ys, s.lose,
                      s.vec, s.vecd, s.link_layer, s.link_idx, s.nlink, out_c, out_p, out_w,
                      out_lk, out_nl, self.tsize, self.two[0], self.two[1], s.chain,
                      extra is not None, V2, E2, out_c2)
        res = (out_c, out_p, out_w, out_lk, out_nl)
        return res + (out_c2,) if extra is not None else res

    def world(self, kinds, Vd, Ed, V, E, max_sweeps=50, max_rounds=40, label="solving to win",
              end=True, ride=None):
        """Fill (V, E) for seats playing ``kinds`` (0 win-optimal, 1 EV table,
        2 win-optimal decisions from (Vd, Ed)). Returns (residual, sweeps).
        With :attr:`phase`, the end phase and the levels are phases of their
        own named after ``label`` (an end-phase turn is far cheaper than a
        level's: one rate for both would mislead). Each finished part of the
        end phase and each level is a step of :attr:`steps`: taken from a
        checkpoint when it holds it, saved there when it is done. ``end``
        False: the end phase is done (:meth:`end_of_round`, several worlds
        at once).

        ``ride`` (kinds all 0, the end phase done): ``{s: (name, V_s, E_s)}``,
        the worlds of one player in seat ``s`` playing this table's decisions
        among points players (kinds ``2`` in ``s``, ``1`` elsewhere), solved
        level by level beside this one: seat ``s``'s turns are the programmes
        of this table's Newton runs with world ``s``'s leaves beside
        (``extra``; their last run's decisions are this table's at inputs
        within ``PAIR_TOL`` of its solution), the points players' turns their
        outcomes, and world ``s``'s level is then linear (:meth:`_ride_level`).
        Each is a step of its own (``name sweep k level L``); a level of this
        table taken from a checkpoint without world ``s``'s solves world
        ``s``'s level alone, as a world of its own would."""
        kinds = np.asarray(kinds, dtype=np.int64)
        N = self.N
        ride = ride or {}
        self.world_no += 1
        w = f"world {self.world_no}"
        if end:
            self.end_of_round([(w, kinds, Vd, Ed, V, E)], label)
        per_sweep = self.n ** N * (1 + len(ride))
        ride_kinds = {s: np.array([2 if q == s else 1 for q in range(N)], dtype=np.int64)
                      for s in ride}
        if self.phase is not None:
            self.progress = self.phase(f"{label}: levels of equal score sum", per_sweep,
                                       "turn-start states")
        t1 = time.perf_counter()
        sweeps = 0
        residual = ride_residual = np.inf
        mine = None  # the sweeps of this table once it has converged (the rides go on alone)
        while sweeps < max_sweeps:
            sweeps += 1
            if sweeps > 1 and hasattr(self.progress, "more"):  # another sweep: the total grows
                self.progress.more(per_sweep if mine is None else self.n ** N * len(ride))
            moved = moved_ride = 0.0
            for lev, idx, seat in self.levels:
                name = f"{w} sweep {sweeps} level {lev}"
                kept = self.steps.get(name) if mine is None else None
                rides = {s: (f"{r[0]} sweep {sweeps} level {lev}",) + tuple(r[1:])
                         for s, r in ride.items()}
                done = []  # steps kept once the whole level is: a stop inside it loses it all
                out = None
                if mine is not None:
                    pass  # this table is solved: the rides' levels alone
                elif kept is None:
                    old = V[seat, idx]
                    out = self._level(kinds, lev, idx, seat, sweeps, max_rounds, Vd, Ed, V, E,
                                      rides)
                    new = V[seat, idx]
                    move = float(np.abs(new - old).max(initial=0.0))
                    done.append((name, new, move))
                    moved = max(moved, move)
                else:
                    V[seat, idx] = kept[0]["v"]
                    self._wrote(V, (seat, idx))
                    moved = max(moved, kept[1]["moved"])
                for s, (nm, Vs, Es) in rides.items():
                    got = self.steps.get(nm)
                    if got is not None:
                        Vs[seat, idx] = got[0]["v"]
                        self._wrote(Vs, (seat, idx))
                        moved_ride = max(moved_ride, got[1]["moved"])
                        continue
                    old = Vs[seat, idx]
                    if out is not None:
                        self._ride_level(s, ride_kinds[s], lev, idx, seat, out, V, E, Vs, Es)
                    else:  # this table's level solved before: world s's level alone
                        self._level(ride_kinds[s], lev, idx, seat, sweeps, max_rounds, V, E, Vs,
                                    Es)
                    mv = float(np.abs(Vs[seat, idx] - old).max(initial=0.0))
                    done.append((nm, Vs[seat, idx], mv))
                    moved_ride = max(moved_ride, mv)
                for nm, v, mv in done:
                    self.steps.done(nm, {"v": v}, {"moved": mv})
                if self.progress is not None:
                    self.progress(len(idx) // N * (len(ride) + (mine is None)))
            if sweeps == 1 and not self._has_back_links():
                residual = ride_residual = 0.0
                break
            if sweeps > 1:
                ride_residual = moved_ride
                if mine is None:
                    residual = moved
                    if residual <= self.tol:
                        # this table is solved; its decisions near-ties can still move the rides
                        # a little from sweep to sweep (a programme of the last Newton run decided
                        # at inputs within PAIR_TOL): they go on alone, by this table's decisions
                        mine = sweeps
                if mine is not None and (not ride or ride_residual <= self.tol):
                    break
        residual = max(residual, ride_residual if ride else 0.0)
        sweeps = mine if mine is not None else sweeps
        self.timing["main_seconds"] = (self.timing.get("main_seconds", 0.0)
                                       + time.perf_counter() - t1)
        return residual, sweeps

    def end_of_round(self, worlds, label="solving to win") -> None:
        """The end phase (the round finished after the target) of several
        worlds ``(name, kinds, Vd, Ed, V, E)``, seat by seat from the last.
        Where a world's seat decides in its own tables (kind 0) and another
        world's same seat plays those decisions (kind 2, deciding tables the
        first's), one programme values both (``run_states`` with ``extra``:
        the same numbers as two runs, one programme instead of two)."""
        if not self.end_states:
            return
        t0 = time.perf_counter()
        if self.phase is not None:
            self.progress = self.phase(f"{label}: the last turns after the target",
                                       self.end_count * len(worlds), "turn-start states")
        kinds = [np.asarray(k, dtype=np.int64) for _, k, *_ in worlds]
        for m, ids, runs, inv in self.end_states:
            merged = set()
            for i, (w, _, Vd, Ed, V, E) in enumerate(worlds):
                if i in merged:
                    continue
                pair = None
                if kinds[i][m] == 0:
                    pair = next((j for j, o in enumerate(worlds) if j != i and j not in merged
                                 and kinds[j][m] == 2 and o[2] is V and o[3] is E), None)
                if pair is not None:
                    merged.add(pair)
                self._end_seat(m, ids, runs, inv, worlds[i], kinds[i],
                               None if pair is None else worlds[pair])
        self.timing["end_seconds"] = (self.timing.get("end_seconds", 0.0)
                                      + time.perf_counter() - t0)

    def _end_seat(self, m, ids, runs, inv, world, kinds, other) -> None:
        """Seat m's end-phase turns of one world, and of ``other`` beside it
        (:meth:`end_of_round`), in parts (to show how far it is: a turn here
        reads only later seats' end phase), each part a checkpoint step."""
        N = self.N
        w, _, Vd, Ed, V, E = world
        Vd_, Ed_ = (V, E) if kinds[m] == 0 else (Vd, Ed)
        outs = [E] if other is None else [E, other[5]]
        out = [np.empty((len(runs), N)) for _ in outs] if inv is not None else None
        for a, b in chunks(len(runs)):
            part = runs[a:b]
            names = [f"{w} end of the round seat {m} states {a}-{b}"]
            if other is not None:
                names.append(f"{other[0]} end of the round seat {m} states {a}-{b}")
            kept = [self.steps.get(nm) for nm in names]
            seat = np.full(len(part), m, dtype=np.int64)
            if kept[0] is None and other is not None:
                res = self._run(seat, part, True, kinds, -1, Vd_, Ed_, V, E, (other[4], other[5]))
                cs = [res[0], res[5]]
            elif kept[0] is None:
                cs = [self._run(seat, part, True, kinds, -1, Vd_, Ed_, V, E)[0]]
            else:
                cs = [kept[0][0]["c"]]
                if other is not None:  # kept for the first world only: the second alone
                    if kept[1] is None:
                        k2 = np.asarray(other[1], dtype=np.int64)
                        cs.append(self._run(seat, part, True, k2, -1, other[2], other[3],
                                            other[4], other[5])[0])
                    else:
                        cs.append(kept[1][0]["c"])
            for nm, kp, c in zip(names, kept, cs):
                if kp is None:
                    self.steps.done(nm, {"c": c})
            for q, (Et, c) in enumerate(zip(outs, cs)):
                if inv is None:
                    Et[m, part] = c
                    self._wrote(Et, (m, part))
                else:
                    out[q][a:b] = c
            if self.progress is not None:
                self.progress(len(part) * len(outs))
        if inv is not None:
            for q, Et in enumerate(outs):
                Et[m, ids] = out[q][inv]
                self._wrote(Et, (m, ids))

    def _level(self, kinds, lev, idx, seat, sweeps, max_rounds, Vd, Ed, V, E, rides=None):
        """Solve one level of equal score sum in V (Newton's method, see the
        module docstring). With ``rides`` (:meth:`world`) each state's turn
        carries world ``seat``'s values beside; returns the outputs of each
        state's last run, world ``seat``'s values last."""
        N = self.N
        deciding = bool((kinds == 0).any())
        cur = np.zeros((N, N))
        r = np.zeros((N, N))
        tmp = np.zeros(N)
        if sweeps == 1:
            V[seat, idx] = self._first_guess(V, seat, idx)
            self._wrote(V, (seat, idx))
        which = np.ones(len(seat), dtype=np.bool_)
        out = None
        used_cyc = np.zeros(len(seat))
        used_lk = np.zeros((len(seat), self.links))
        for _ in range(max_rounds):
            sel = np.flatnonzero(which)
            Vdd, Edd = (V, E) if deciding else (Vd, Ed)
            if rides:
                res = self._run_beside(seat, idx, sel, kinds, lev, V, E, rides)
            else:
                res = self._run(seat[sel], idx[sel], False, kinds, lev, Vdd, Edd, V, E)
            if deciding:  # Newton's programmes of the win table (--json: main_programmes)
                self.timing["main_programmes"] = self.timing.get("main_programmes", 0) + len(sel)
            if out is None:
                out = res
            else:
                for a, b in zip(out, res):
                    a[sel] = b
            oc, op, ow, olk, onl = out[:5]
            kn.record_inputs(seat, idx, olk, onl, V, used_cyc, used_lk, N, which)
            part = tuple(a[sel] for a in out[:5])
            kn.affine(seat[sel], idx[sel], *part, V, N, self.n)
            for a, b in zip(out, part):
                a[sel] = b
            kn.solve_level(seat, idx, oc, op, ow, olk, onl, V, N, self.n, 1e-16, 500,
                           cur, r, tmp)
            self._wrote(V, (seat, idx))
            if not deciding:
                break
            moves = kn.input_moves(seat, idx, olk, onl, V, used_cyc, used_lk, N)
            which = (moves > PAIR_TOL) & (kinds[seat] == 0)
            if not which.any():
                break
        return out

    def _run_beside(self, seat, idx, sel, kinds, lev, V, E, rides):
        """The turns of the states ``sel`` of a level, each with world
        ``seat``'s values beside (``rides``, :meth:`world`): one run per seat."""
        N, ns = self.N, len(sel)
        res = (np.zeros((ns, N)), np.zeros(ns), np.zeros((ns, self.links)),
               np.zeros((ns, self.links), dtype=np.int64), np.zeros(ns, dtype=np.int64),
               np.zeros((ns, N)))
        for s, (_, Vs, Es) in rides.items():
            pos = np.flatnonzero(seat[sel] == s)
            if len(pos):
                st = sel[pos]
                part = self._run(seat[st], idx[st], False, kinds, lev, V, E, V, E, (Vs, Es))
                for a, b in zip(res, part):
                    a[pos] = b
        return res

    def _ride_level(self, s, ks, lev, idx, seat, out, V, E, Vs, Es):
        """World ``s``'s level (kinds ``ks``: 2 in seat ``s``, 1 elsewhere)
        from the win table's last runs (``out``, world ``s``'s values last):
        seat ``s``'s turns as they were valued there, the points players'
        from their outcomes; then the level's linear system, exact for fixed
        decisions (:meth:`world`, ``ride``)."""
        N = self.N
        oc = np.array(out[5])
        op, ow, olk, onl = (np.array(a) for a in out[1:5])
        other = np.flatnonzero(seat != s)
        part = self._run(seat[other], idx[other], False, ks, lev, V, E, Vs, Es)
        for a, b in zip((oc, op, ow, olk, onl), part):
            a[other] = b
        kn.affine(seat, idx, oc, op, ow, olk, onl, Vs, N, self.n)
        kn.solve_level(seat, idx, oc, op, ow, olk, onl, Vs, N, self.n, 1e-16, 500,
                       np.zeros((N, N)), np.zeros((N, N)), np.zeros(N))
        self._wrote(Vs, (seat, idx))

    def _has_back_links(self) -> bool:
        """Ends of a turn at a lower score sum: the deduction at the Tutto, or a
        turn of Plus/Minus Tuttos taken from two tied leaders (three or more
        players) that stays below the target (each Tutto is 20 units: not
        below target 1050)."""
        return self.ded_tutto or (self.N >= 3 and self.n > 20)

    def _first_guess(self, V, seat, idx):
        """Newton's starting values from solved levels: the plane through the
        scores ``x + 1`` (one unit more for everyone) and its ``N``
        neighbours ``x + 1 - e_q``, ``sum_q V(x + 1 - e_q) - (N - 1) V(x + 1)``
        (at two players the two-player solver's guess), where every score is
        below ``n - 1``; else the value of the same seat with one unit more for
        the first player (in seat order from the mover) who can take it. A
        close start saves programmes: at three players to 1000, 2.40 a state
        instead of 3.01 (the plane against the neighbour alone)."""
        N, n = self.N, self.n
        x = np.array(np.unravel_index(idx, (n,) * N))
        guess = np.full((len(idx), N), 1.0 / N)
        inner = np.all(x + 1 < n, axis=0)
        done = inner.copy()  # the plane below; the neighbour where it does not apply
        for f in range(N):
            q = (seat + f) % N
            xq = x[q, np.arange(len(idx))]
            ok = (~done) & (xq < n - 1)
            if ok.any():
                y = x[:, ok].copy()
                y[q[ok], np.arange(ok.sum())] += 1
                guess[ok] = V[seat[ok], np.ravel_multi_index(y, (n,) * N)]
                done |= ok
        if inner.any():
            up = x[:, inner] + 1
            si = seat[inner]
            plane = -(N - 1) * V[si, np.ravel_multi_index(up, (n,) * N)]
            for q in range(N):
                y = up.copy()
                y[q] -= 1
                plane += V[si, np.ravel_multi_index(y, (n,) * N)]
            guess[inner] = np.clip(plane, 0.0, 1.0)
        return guess


def end_phase_states(n: int, M: int, players: int) -> list:
    """The end of the round's turns, seat ``m`` from ``N - 1`` down: ``(m, ids,
    runs, inv)``, ``ids`` its states (scores' index in base ``M``; the seats from
    ``m`` on below the target: they have not moved since; seat 1's with seat 0
    at or above it, who has just reached it), ``runs`` the states
    whose turns are run and ``inv`` where each state's value is among them
    (None: every state is run; the last seat: :func:`last_seat_keys`)."""
    N = players
    xe = np.indices((M,) * N).reshape(N, -1)
    out = []
    for m in range(N - 1, 0, -1):
        ok = np.all(xe[m:] < n, axis=0)
        if m == 1:
            # seat 1 moves in the end of the round only right after seat 0 reached the
            # target (nobody deducts in between): the others are never read (0 in E)
            ok &= xe[0] >= n
        ids = np.flatnonzero(ok).astype(np.int64)
        if m == N - 1:
            reps, inv = last_seat_keys(xe[:, ids], n, M)
            out.append((m, ids, ids[reps], inv))
        else:
            out.append((m, ids, ids, None))
    return out


def last_seat_keys(x: np.ndarray, n: int, M: int) -> tuple[np.ndarray, np.ndarray]:
    """The last seat's end-of-round turns that are alike: ``(reps, inv)`` for the
    scores ``x`` (shape ``(N, k)``), ``x[:, reps]`` one state of each class and
    ``inv[i]`` the class of state ``i``.

    His turn ends the game: every leaf compares the final scores, and he banks
    once ahead of everyone (``tcap_of``), so the turn depends on the others'
    scores relative to his own. The Plus/Minus losers' floor at 0 changes no
    comparison he can reach (after ``j`` Tuttos he holds ``20 j`` more than at
    the start, above a loser floored at 0), and layers past the ones whose
    deductions matter repeat the last (the programme's numbers are the same).
    The tests compare with a turn run for every state, bit for bit."""
    base = M + n
    rel = x[:-1] - x[-1] + (n - 1)
    key = np.zeros(x.shape[1], dtype=np.int64)
    for r in rel:
        key = key * base + r
    _, reps, inv = np.unique(key, return_index=True, return_inverse=True)
    return reps.astype(np.int64), inv.astype(np.int64).ravel()


#: States per Dask task on a cluster.
CLUSTER_STATES = 4096


@functools.lru_cache(maxsize=2)
def _worker_solver(rules: TuttoRules, players: int, cap: int) -> _Solver:
    return _Solver(rules, players, cap, DEFAULT_TOL, None)


def remote_run(rules, players, cap, seat, idx, end_phase, kinds, level, Vd, Ed, V, E, W2, L2,
               V2=None, E2=None):
    """One cluster task: the turns of these states (a worker keeps its solver's
    scratch between tasks, and the tables, references to the worker's kept
    copies, :class:`tutto_sim.core.cluster.KeptTables`; ``W2``, ``L2``: kind
    3's two-player table; ``V2``, ``E2``: a second world valued beside)."""
    from tutto_sim.core.cluster import kept_array

    sv = _worker_solver(rules, players, cap)
    Vd, Ed, V, E, W2, L2 = (kept_array(a) for a in (Vd, Ed, V, E, W2, L2))
    sv.two = (W2, L2)
    extra = None if V2 is None else (kept_array(V2), kept_array(E2))
    return sv.run_here(seat, idx, end_phase, kinds, level, Vd, Ed, V, E, extra)


def work_units(rules: TuttoRules, players: int, evaluate_ev: bool = True,
               margin_cap: int | None = None) -> int:
    """Progress of one sweep of every world of :func:`solve_win_n`."""
    n = rules.target // POINT_UNIT
    mc = margin_cap_of(rules, players, margin_cap)
    M = n + mc + 1
    end = 0 if rules.game_end == "immediate" else sum(len(e[2]) for e in
                                                       end_phase_states(n, M, players))
    worlds = 2 + players if evaluate_ev else 1
    return (n ** players + end) * worlds


#: The layout of the steps a checkpoint keeps (a checkpoint of another is refused).
CHECKPOINT_FORMAT = 1


def checkpoint_key(rules: TuttoRules, players: int, margin_cap: int, tol: float,
                   opponent=None) -> dict:
    """What identifies a solve in its checkpoint (everything that changes its numbers;
    a solve with and without the points players' tables shares its first table's steps;
    a points player other than ``optimal`` adds the digest of its table)."""
    key = {"game": "tutto", "solver": "win", "format": CHECKPOINT_FORMAT, "players": players,
           "rules": rules.to_dict(), "margin cap": margin_cap, "tolerance": tol}
    if opponent is not None:
        key["points player"] = policy_digest(opponent)
    return key


def policy_digest(pol) -> str:
    """SHA-256 of a points player's decisions (its table's arrays)."""
    import hashlib

    h = hashlib.sha256()
    for a in (pol.keep, pol.bank, pol.draw, pol.street_take, pol.keep_x2p, pol.bank_x2p):
        if a is not None:
            h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def solve_win_n(rules: TuttoRules = TuttoRules(), players: int = 3, margin_cap: int | None = None,
                tol: float = DEFAULT_TOL, evaluate_ev: bool = True, progress=None, phase=None,
                checkpoint=None, opponent=None) -> WinSolutionN:
    """Every player maximises his chance of winning: ``W`` and the figures.

    ``opponent``: the points players' table for ``p_wins_ev`` and
    ``win_vs_ev`` (an :class:`tutto_sim.tutto.policy.ExactPolicy` of these
    rules; default the ``optimal`` bot's, ``params.points_player``).

    ``checkpoint``: a :class:`tutto_sim.core.checkpoint.Checkpoint` opened with
    :func:`checkpoint_key` where each finished level and part of the end of the
    round is kept (:class:`tutto_sim.core.checkpoint.Steps`); the steps it
    holds are taken from it (a resumed solve: the same bytes as an unbroken
    one).

    ``progress(n)`` hears the turn-start states of every world as they are
    solved (:func:`work_units` per sweep); or, instead, ``phase(label, total,
    unit) -> advance`` (``core.cli.progress_phases``) starts a phase for the
    end phase and one for the levels of each table (the win table, then each
    table of the points players), so each phase's rate is its own.

    Examples
    --------
    >>> sol = solve_win_n(TuttoRules(target=100, game_end="immediate"), players=3)
    >>> round(sum(sol.p_wins), 12)
    1.0
    """
    t0 = time.perf_counter()
    ready = phase(PREPARING, 1, "steps") if phase is not None else None
    sv = _Solver(rules, players, margin_cap, tol, progress, opponent)
    if checkpoint is not None:
        from tutto_sim.core.checkpoint import plain_key

        if checkpoint.key != plain_key(checkpoint_key(rules, players, sv.C, tol, opponent)):
            raise ValueError("the checkpoint was opened for another solve (checkpoint_key)")
        sv.steps = Steps(checkpoint)
    if phase is not None:
        ready(1)
        sv.phase = phase
    try:
        return _solve_worlds(sv, t0, evaluate_ev)
    finally:
        sv.steps.flush()  # however it stops: every finished step is kept


def _solve_worlds(sv: "_Solver", t0: float, evaluate_ev: bool) -> WinSolutionN:
    N, rules = sv.N, sv.rules
    W, WE = sv.empty()
    zero = (0,) * N
    p_ev: tuple = ()
    vs_ev: tuple = ()
    # the worlds of one win player among points players: world 3 + s for seat s
    seat_kinds = [[2 if q == s else 1 for q in range(N)] for s in range(N)]
    later = {}
    if evaluate_ev:
        # their win player's turns are the win table's programmes, valued in both worlds
        # at once: in the end of the round (seats 1..) and in every level (world, ride)
        later = {s: sv.empty() for s in range(N)}
        sv.end_of_round([("world 1", np.zeros(N, dtype=np.int64), W, WE, W, WE)]
                        + [(f"world {3 + s}", seat_kinds[s], W, WE, *later[s]) for s in later],
                        label=f"solving to win, and one to win among points players ({N} "
                              f"tables beside)")
    ride = {s: (f"world {3 + s}", *later[s]) for s in later}
    res, sweeps = sv.world([0] * N, W, WE, W, WE, end=not evaluate_ev, ride=ride,
                           label=f"solving to win, and one to win among points players ({N} "
                                 f"tables beside)" if ride else "solving to win")
    residual = res
    if evaluate_ev:
        vs_ev = tuple(float(later[s][0][0, 0, s]) for s in range(N))
        del ride, later
        V, VE = sv.empty()
        r2, _ = sv.world([1] * N, W, WE, V, VE, label="valuing the points players")
        residual = max(residual, r2)
        p_ev = tuple(float(v) for v in V[(0, np.ravel_multi_index(zero, (sv.n,) * N))])
        del V, VE
    shape = (N,) + (sv.n,) * N + (N,)
    eshape = (N,) + (sv.M,) * N + (N,) if not sv.immediate else (0,)
    return WinSolutionN(
        rules=rules, players=N, W=W.reshape(shape), E=WE.reshape(eshape) if not sv.immediate
        else np.zeros(0), p_wins=tuple(float(v) for v in W[0, 0]), p_wins_ev=p_ev,
        win_vs_ev=vs_ev, states=sv.states, seconds=time.perf_counter() - t0,
        residual=float(residual), sweeps=sweeps, margin_cap=sv.C,
        extra={"main_states": N * sv.n ** N, "end_states": sv.end_count,
               **{k: round(v, 3) for k, v in sv.timing.items()},
               **({"cluster": dict(sv.kept.stats)} if sv.kept is not None else {})})


# --------------------------------------------------------------------------
# winopt without an N-player table, valued exactly
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class WinoptValue:
    """``winopt`` as it plays at a table of N without an N-player table (the
    two-player table's decisions in a reduced state, :mod:`tutto_sim.tutto.win.seat`),
    valued exactly in the N-player game, seat by seat (the other seats as
    they were).

    ``exact``: each seat's chance when everyone plays to win (``p_wins`` of
    the N-player table); ``vs_win[s]``: seat ``s`` plays ``winopt``, the
    others keep playing to win by the table (their decisions do not change);
    ``win_vs_ev[s]``: seat ``s`` plays to win by the table against N-1
    ``optimal`` (points) players; ``vs_ev[s]``: ``winopt`` in seat ``s``
    against them; ``p_wins_ev``: everyone ``optimal``. Empty tuples for the
    parts not asked for."""

    rules: TuttoRules
    players: int
    exact: tuple
    vs_win: tuple
    win_vs_ev: tuple
    vs_ev: tuple
    p_wins_ev: tuple
    seconds: float
    residual: float

    def loss(self) -> tuple:
        """What ``winopt`` gives away against exact play, per seat (probability)."""
        return tuple(a - b for a, b in zip(self.exact, self.vs_win))

    def loss_vs_ev(self) -> tuple:
        """The same against points players: ``win_vs_ev - vs_ev``."""
        return tuple(a - b for a, b in zip(self.win_vs_ev, self.vs_ev))

    def gain_vs_ev(self) -> tuple:
        """``winopt``'s gain over playing for points, against points players."""
        return tuple(a - b for a, b in zip(self.vs_ev, self.p_wins_ev))

    def summary(self) -> dict:
        return {"game": "tutto", "players": self.players, "target": self.rules.target,
                "game_end": self.rules.game_end, "p_wins": list(self.exact),
                "winopt_vs_win": list(self.vs_win), "winopt_loss": list(self.loss()),
                "win_vs_ev": list(self.win_vs_ev), "winopt_vs_ev": list(self.vs_ev),
                "winopt_loss_vs_ev": list(self.loss_vs_ev()) if self.vs_ev else [],
                "p_wins_ev": list(self.p_wins_ev),
                "winopt_gain_vs_ev": list(self.gain_vs_ev()) if self.vs_ev else [],
                "seconds": round(self.seconds, 3), "residual": self.residual}


def value_winopt(table: WinTableN, table2, against_ev: bool = True, tol: float = DEFAULT_TOL,
                 phase=None, opponent=None) -> WinoptValue:
    """Value ``winopt`` (deciding by the two-player table ``table2``, a
    :class:`tutto_sim.tutto.win.table.WinTable` of the same rules) in every seat
    of the N-player game of ``table``: one world per seat and opponents, each
    a fixed-decision evaluation of the solver (kind 3, :func:`kernel_n.reduced_leaves`).
    The points players' figures are taken from the table's summary when it
    has them (and ``opponent``, their table, is the default ``optimal``'s),
    else valued here too. ``phase`` as :func:`solve_win_n`'s."""
    t0 = time.perf_counter()
    rules, N = table.rules, table.players
    wrong = [f for f in WIN_FIELDS if getattr(rules, f) != getattr(table2.rules, f)]
    if wrong:
        raise ValueError(f"the two-player table was solved for other rules: {', '.join(wrong)}")
    if rules.game_end == "round" and table2.margin_cap != table.margin_cap:
        raise ValueError(f"the two-player table follows turns {table2.margin_cap} units past the "
                         f"target, the {N}-player table {table.margin_cap}: solve them alike")
    sv = _Solver(rules, N, table.margin_cap, tol, None, opponent)
    sv.two = (np.ascontiguousarray(table2.W, dtype=np.float64),
              np.ascontiguousarray(table2.last_turn_table, dtype=np.float64))
    if phase is not None:
        sv.phase = phase
    W = np.ascontiguousarray(table.W.reshape(N, -1, N))
    WE = (np.ascontiguousarray(table.E.reshape(N, -1, N)) if not sv.immediate
          else np.zeros((N, 1, N)))
    residual = 0.0

    def world(kinds, label):
        nonlocal residual
        V, VE = sv.empty()
        r, _ = sv.world(kinds, W, WE, V, VE, label=label)
        residual = max(residual, r)
        return V

    exact = tuple(float(v) for v in W[0, 0])
    vs_win = tuple(float(world([3 if q == s else 2 for q in range(N)],
                               f"winopt in seat {s + 1} of {N}")[0, 0, s]) for s in range(N))
    win_ev = p_ev = vs_ev = ()
    if against_ev:
        summ = (table.summary if isinstance(getattr(table, "summary", None), dict)
                and opponent is None else {})
        win_ev, p_ev = tuple(summ.get("win_vs_ev") or ()), tuple(summ.get("p_wins_ev") or ())
        if not p_ev:
            p_ev = tuple(float(v) for v in world([1] * N, "everyone playing for points")[0, 0])
        if not win_ev:
            win_ev = tuple(float(world([2 if q == s else 1 for q in range(N)],
                                       f"playing to win in seat {s + 1} of {N} against points "
                                       "players")[0, 0, s]) for s in range(N))
        vs_ev = tuple(float(world([3 if q == s else 1 for q in range(N)],
                                  f"winopt in seat {s + 1} of {N} against points players")[0, 0, s])
                      for s in range(N))
    return WinoptValue(rules, N, exact, vs_win, win_ev, vs_ev, p_ev,
                       time.perf_counter() - t0, float(residual))

r"""Playing to win at a table of N = 2, 3 or 4: exact win chances of Berliner Macke and Volle Lotte.

Part of the solver layer, beside the two-player solver ``macke.win.solve2``
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

import functools
import time
from dataclasses import dataclass, field

import numpy as np

from tutto_sim.core.blocks import chunks
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.win.kernel_n import (
    N_BLOCKS,
    end_table,
    evaluate_step,
    one_turn,
    settle_ev,
    stage,
    stage_win,
    sweep,
)
from tutto_sim.macke.win.solve2 import (DEFAULT_CAP_UNITS, DEFAULT_FLOOR, DEFAULT_TOL,
                                        MackeWinSolution, WinSetup, check_win_rules, sweep_label)
from tutto_sim.macke.win.table import chances_of
#: Players the N-player solve takes.
PLAYERS = (2, 3, 4)
#: Default floor (points) at three and four players: the table grows with
#: ((target - floor)/50) ** N (docs/macke-win.md measures what it changes).
DEFAULT_FLOOR_N = -1000
_EVAL_TOL = 1e-14


# --------------------------------------------------------------------------
# the solve
# --------------------------------------------------------------------------


def _evaluate(q_win, q_ev, c, role_ev, start, n, tol=_EVAL_TOL, max_iter=1_000_000):
    v, w, d = start.copy(), np.empty_like(start), np.zeros(N_BLOCKS)
    for it in range(max_iter):
        delta = evaluate_step(n, q_win, q_ev, c, role_ev, v, w, d)
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
        self.rules, self.floor, self.cap_units = rules, floor, cap_units
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
        _, p_win, _ = one_turn(*self.turn_args(), sf[0][0], sf[1][0], sf[2][0], si[0][0],
                                sf[3][0], sf[4][0], si[1][0], si[2][0], si[3][0], mass[0],
                                sf[5][0], sf[6][0])
        return float(p_win)

    def stage_shape(self, j: int) -> tuple:
        n = self.n
        return (self.n_t + j * n + 1, j, (2 * n - 1) ** (self.N - 1 - j), self.N - j + 1)

    def families(self, j: int) -> int:
        """Stage ``j``'s families of keys (:func:`stage_win`): one per number
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
                stage_win(j, self.N, self.n, self.min_u, self.reach, p_out, dec, nxt, nxt2,
                           *self.turn_args(), sf, si, fs, tab, tab2, lo, hi)
                if advance is not None:
                    advance(keys * hi // fams - keys * lo // fams)
            return tab, tab2
        for lo, hi in chunks(self.stage_keys(j)):
            stage(j, self.N, self.n, bool(dp), self.min_u, self.subtract, self.reach,
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
        end_table(N, n, self.floor_u, self.target_u, stage1, E)
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
    #: On a cluster: what travelled to the workers (``KeptTables.stats``).
    cluster_traffic: dict = field(default_factory=dict, repr=False)

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


def default_floor(players: int) -> int:
    """The floor (points) of a solve that names none: the two-player solver's at
    two players, :data:`DEFAULT_FLOOR_N` at three and four."""
    return DEFAULT_FLOOR if players == 2 else DEFAULT_FLOOR_N


def check_players(players) -> None:
    """ValueError in one line for a player count the N-player solve does not take."""
    if players not in PLAYERS:
        raise ValueError(f"players must be 2, 3 or 4, not {players}")


def _prepare(rules, players, floor, cap_units, phase, reference=False):
    check_players(players)
    if floor is None:
        floor = default_floor(players)
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
    settle_ev(n, s.floor_u, s.target_u, s.min_u, s.subtract, ev[0], ev[1], ev[2], E_ev, q_ev,
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


#: The layout of the steps a checkpoint keeps (a checkpoint of another is refused).
CHECKPOINT_FORMAT = 1
#: Turn-start states per Dask task of a sweep on a cluster.
CLUSTER_STATES = 4096


def _on_cluster(n_states: int) -> bool:
    from tutto_sim.core import cluster

    return cluster.active() and n_states > CLUSTER_STATES


def _sweep_on_cluster(s, reference, kept, V, E_eq, E_ev, w_new, q, c, c2, tstars, advance):
    """One sweep on the cluster (``--cluster``): tasks of :data:`CLUSTER_STATES`
    states, each :func:`remote_sweep`, the tables it reads kept on the workers
    (``V`` sent once a sweep, the end tables once; :class:`tutto_sim.core.cluster.KeptTables`).
    Every forward pass runs there (no digests of the sweep before: the same
    numbers, see ``checkpoint``). Returns the kept tables for the next sweep."""
    from tutto_sim.core import cluster

    if kept is None or not kept.current():
        kept = cluster.KeptTables()
    refs = kept.refs(V, E_eq, E_ev)
    n_states = V.shape[0]
    cuts = list(range(0, n_states, CLUSTER_STATES))
    tasks = [(s.rules, s.N, s.floor, s.cap_units, reference, a,
              min(a + CLUSTER_STATES, n_states), *refs) for a in cuts]

    def take(i, result):
        a = cuts[i]
        b = a + len(result[0])
        w_new[a:b], q[a:b], c[a:b], c2[a:b], tstars[a:b] = result
        advance(b - a)

    cluster.run_tasks(remote_sweep, tasks, take, kept=kept)
    return kept


@functools.lru_cache(maxsize=2)
def _worker_setup(rules: MackeRules, players: int, floor: int, cap_units: int, reference: bool):
    s = _Setup(rules, players, floor, cap_units, reference)
    return s, s.scratch()


def remote_sweep(rules, players, floor, cap_units, reference, lo, hi, V, E_eq, E_ev):
    """One cluster task: the sweep's turns of states ``lo .. hi - 1`` (the
    worker keeps its setup and scratch between tasks; ``V``, ``E_eq``,
    ``E_ev``: references to its kept copies). Returns their ``w_new``, ``q``,
    ``c``, ``c2`` and ``tstars`` rows."""
    from tutto_sim.core.cluster import kept_array

    s, (sf, si, mass) = _worker_setup(rules, players, floor, cap_units, reference)
    V, E_eq, E_ev = (kept_array(a) for a in (V, E_eq, E_ev))
    k, N = hi - lo, players
    w_new, tstars = np.zeros(k), np.zeros(k, dtype=np.int64)
    q, c, c2 = np.zeros((k, s.n)), np.zeros((k, N)), np.zeros((k, N))
    digests = np.zeros(0 if reference else k, dtype=np.uint64)
    sweep(N, s.n, s.floor_u, s.target_u, s.min_u, s.subtract, V, E_eq, E_ev, *s.turn_args(), sf,
          si, mass, w_new, q, c, c2, tstars, digests, lo, hi, lo)
    return w_new, q, c, c2, tstars


def checkpoint_key(rules: MackeRules, players: int, floor: int | None = None,
                   cap_units: int = DEFAULT_CAP_UNITS, tol: float = DEFAULT_TOL) -> dict:
    """What identifies a solve in its checkpoint: everything that changes its numbers."""
    if floor is None:
        floor = default_floor(players)
    return {"game": "macke", "solver": "win", "format": CHECKPOINT_FORMAT, "players": players,
            "rules": rules.to_dict(), "floor": floor, "cap units": cap_units, "tolerance": tol}


def solve_macke_win_n(rules: MackeRules = MackeRules(), players: int = 3,
                      floor: int | None = None, cap_units: int = DEFAULT_CAP_UNITS,
                      tol: float = DEFAULT_TOL, max_iter: int = 50,
                      phase=None, reference: bool = False,
                      checkpoint=None) -> MackeWinNSolution:
    """Win chances of N-player Macke / Volle Lotte, all playing to win (module docstring).

    ``floor`` defaults to -2,500 points at two players (the two-player
    solver's) and :data:`DEFAULT_FLOOR_N` at three and four.
    ``phase(label, total) -> advance(n)`` reports progress. ``reference``:
    the end as first written (every key's last turn solved whole, the others'
    chances by forward passes; several times slower) and every sweep's
    forward passes as first written, which the tests hold the families of
    :func:`stage_win` and the digests and forward passes of :func:`sweep` to.

    ``checkpoint``: a :class:`tutto_sim.core.checkpoint.Checkpoint` opened with
    :func:`checkpoint_key`. Each finished sweep keeps the table it leads to
    (the values the next sweep starts from); a resumed solve takes them and
    goes on with the next sweep, whose forward passes all run (the sweep
    before it would have let it skip those whose decisions did not change:
    the same numbers), so it gives the same bytes as an unbroken solve. A
    stop loses at most the sweep it was in.

    Examples
    --------
    >>> sol = solve_macke_win_n(MackeRules(target=100), 3, floor=-100, cap_units=20)
    >>> round(sum(sol.p_wins), 12), sol.residual <= 1e-10
    (1.0, True)
    """
    s, floor, phase = _prepare(rules, players, floor, cap_units, phase, reference)
    t_start = time.perf_counter()
    from tutto_sim.core.checkpoint import Steps, plain_key

    if checkpoint is not None and checkpoint.key != plain_key(
            checkpoint_key(rules, players, floor, cap_units, tol)):
        raise ValueError("the checkpoint was opened for another solve (checkpoint_key)")
    steps = Steps(checkpoint)
    try:
        return _solve(s, rules, players, floor, tol, max_iter, phase, reference, steps, t_start)
    finally:
        steps.flush()  # however it stops: every finished sweep is kept


def solve_macke_win(rules: MackeRules = MackeRules(), floor: int = DEFAULT_FLOOR,
                    cap_units: int = DEFAULT_CAP_UNITS, tol: float = DEFAULT_TOL,
                    max_iter: int = 50, phase=None) -> MackeWinSolution:
    """Win probabilities of two-player Macke under win-optimal play (the
    docstring of :mod:`tutto_sim.macke.win.solve2`): :func:`solve_macke_win_n` at
    two players, read as the two-player table (``MackeWinSolution``, what the
    two-player file, the planner and the bot read).

    ``phase(label, total) -> advance(n)`` reports progress (``core.cli.progress_phases``).

    Examples
    --------
    >>> sol = solve_macke_win(MackeRules(target=200), floor=-300, cap_units=40)
    >>> 0.5 < sol.p_first_wins < 1, sol.residual <= 1e-10
    (True, True)
    """
    check_win_rules(rules, floor)
    t_start = time.perf_counter()
    sol = solve_macke_win_n(rules, 2, floor=floor, cap_units=cap_units, tol=tol,
                            max_iter=max_iter, phase=phase)
    lw = WinSetup(rules, floor, cap_units).last_turn()  # L(d), what the planners read
    w = sol.W[..., 0]  # the mover's chance, by (mover's score, the other's) from the floor
    seats = (float(sol.win_vs_ev[0]), float(sol.win_vs_ev[1]))
    return MackeWinSolution(
        rules=rules, floor=floor, target=rules.target, cap_units=sol.cap_units,
        W=np.stack([w, w]), last_turn=lw, p_first_wins=float(sol.p_wins[0]),
        p_first_wins_ev=float(sol.p_wins_ev[0]), win_vs_ev=float(np.mean(seats)),
        win_vs_ev_seats=seats, residual=sol.residual, iterations=sol.iterations,
        seconds=time.perf_counter() - t_start, max_locked=sol.max_locked,
        ev_table=np.ascontiguousarray(sol.ev_table[..., 0]))


def _solve(s, rules, players, floor, tol, max_iter, phase, reference, steps, t_start):
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
    kept = None  # on a cluster: the tables kept on the workers
    for it in range(1, max_iter + 1):
        advance = phase(sweep_label(it, N), n_states, "turn-start states")
        done = steps.get(f"sweep {it}")
        if done is not None:  # a resumed solve: this sweep is done
            V = done[0]["v"]
            digests[:] = 0  # the next sweep's forward passes all run
            advance(n_states)
            continue
        if _on_cluster(n_states):
            kept = _sweep_on_cluster(s, reference, kept, V, E_eq, E_ev, w_new, q, c[0], c2, tstars,
                                     advance)
        else:
            for lo, hi in chunks(n_states):
                sweep(N, n, f, g, s.min_u, s.subtract, V, E_eq, E_ev, *s.turn_args(), sf, si,
                      mass, w_new, q, c[0], c2, tstars, digests, lo, hi, 0)
                advance(hi - lo)
        evaluate_step(n, q, q_ev, c, np.array([False]), V[None], tv, np.zeros(N_BLOCKS))
        tv[0, :, 0] = w_new
        residual = float(np.abs(tv[0] - V).max())
        if residual <= tol:
            break
        V = _evaluate(q, q_ev, c, np.array([False]), tv, n)[0]
        steps.done(f"sweep {it}", {"v": V}, {"residual": residual})
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
        settle_ev(n, f, g, s.min_u, s.subtract, ev[0], ev[1], ev[2], E_r, q_ev, q_tmp, roles_c[r])
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
        ev_table=V_ev[0].reshape(shape),
        cluster_traffic=dict(kept.stats) if kept is not None else {})

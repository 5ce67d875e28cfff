"""Playing to win inside a turn, from a win table: the decisions of the
``winopt`` bot and the advice (:class:`TurnPlanner`, read layer by layer from
one turn's programme), for a two-player table (:class:`WinPlanner`,
:func:`turn_start`) and an N-player table (:class:`TurnProgramme`,
:class:`WinPlannerN`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.rules import PLUSMINUS_CHAIN_CHOICES, TuttoRules
from tutto_sim.tutto.solver import street_new_numbers
from tutto_sim.tutto.win import kernel2 as k2
from tutto_sim.tutto.win import kernel_n as kn
from tutto_sim.tutto.win import programme as k
from tutto_sim.tutto.win.params import (
    WinScratch,
    WinScratchN,
    layers_of,
    params_for,
    street_by_numbers,
    turn_params_for,
    turn_size_for,
)
from tutto_sim.tutto.win.programme import MAX_MODE, turn_programme
from tutto_sim.tutto.win.seat import two_player_state


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
    p = params_for(rules, n, mc)
    tsize = turn_size_for(rules, n, mc, p.t_max)
    s = WinScratch(1, n // 20 + 3, tsize, rules.x2_scope == "card", p.cpmax)
    tcap = n - own + (mc if seat == 0 else 0)
    if immediate:
        tcap = n - own
    beta = float(W[1 - seat, other, own])
    W = np.ascontiguousarray(W)
    k2.state_value(0, seat, own, other, beta, W, last_turn_table, W, last_turn_table, n,
                   immediate, rules.plusminus_deduction == "tutto", tcap, tcap, p.tp, p.ev,
                   s.A[0], s.D[0], s.U[0], s.UX[0], s.bl[0], s.bust[0], s.win[0],
                   s.chain[0], s.sc[0])
    return TurnStart(s.bl[0, 0, 0, :tcap + 1].copy(), s.D[0, 0, 0, :tcap + 1].copy(), tcap)


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
    :class:`WinPlannerN`. A subclass says where the
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
    """Win-optimal decisions inside a turn from a two-player win table
    (a :class:`table.WinTable`).

    Each turn's programme is solved once (per seat and scores) with ``W`` at
    its leaves, and the decisions read from it; in seat 1's last turn of a
    round the last-turn programme of the current margin is used.
    """

    def __init__(self, table):
        self.table = table
        rules = table.rules
        self.n = rules.target // POINT_UNIT
        self.immediate = rules.game_end == "immediate"
        self.mc = 0 if self.immediate else table.margin_cap
        p = params_for(rules, self.n, self.mc)
        super().__init__(rules, p)
        self.tsize = turn_size_for(rules, self.n, self.mc, p.t_max)
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
            k2.state_value(0, seat, own, other, float(W[1 - seat, other, own]), W, L, W, L, n,
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
            k2.last_turn_values(k.MAX_MODE, mmax, self.rules.plusminus_deduction == "tutto",
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
        # at a table of three or more: the reduced two-player state (tutto.win.seat)
        units = np.array([x // POINT_UNIT for x in start], dtype=np.int64)
        seat, own, other = two_player_state(units, view.seat, len(units))
        if view.last_round and not self.immediate:
            return self.last_turn(k.last_turn_margin(own, other, plusminus_tuttos))
        lay = self.turn(seat, own, other)
        return lay, min(plusminus_tuttos, len(lay.U) - 1)


# --------------------------------------------------------------------------
# one turn's programme from a table (advice, reports, bots)
# --------------------------------------------------------------------------


class TurnProgramme:
    """One turn of the win-optimal player from an N-player table: the
    programme's arrays for the mover's own chance (component 0), layer by
    layer (``A``, ``D``, ``U``, ``UX``, ``bl``, ``bust``: as the two-player
    planner's, :class:`WinPlanner`)."""

    def __init__(self, rules: TuttoRules, players: int, W: np.ndarray, E: np.ndarray,
                 margin_cap: int):
        self.rules = rules
        self.N = players
        self.n = rules.target // POINT_UNIT
        self.immediate = rules.game_end == "immediate"
        self.C = 0 if self.immediate else margin_cap
        self.M = self.n + self.C + 1
        tsize = 2 * (self.M + 1) + 90
        self.p, self.tsize = turn_params_for(rules, tsize)
        self.layers = self.M // 20 + 3
        self.nv = 1 + players + 1 + self.layers
        self.s = WinScratchN(1, self.nv, self.layers, self.tsize, rules.x2_scope == "card",
                          self.p.cpmax, players, self.layers)
        self.V = np.ascontiguousarray(W.reshape(players, -1, players))
        self.Ev = (np.ascontiguousarray(E.reshape(players, -1, players)) if E.size
                   else np.zeros((players, 1, players)))

    def run(self, seat: int, scores, end_phase: bool = False):
        """Solve the turn; returns (tcap, layers): the arrays stay in ``self.s``
        (slot 0) until the next call."""
        s = self.s
        x = s.xs[0]
        x[:] = np.asarray(scores, dtype=np.int64)
        N = self.N
        bound = self.M if end_phase else self.n
        if not (0 <= seat < N and len(scores) == N and x.min() >= 0 and x.max() < bound):
            raise ValueError(f"seat must be 0..{N - 1} and {N} scores below {bound} units")
        if end_phase and (self.immediate or seat == 0):
            raise ValueError("the end of the round has seats 1.. under game end round only")
        n_layers = min(kn.losers_of(x, seat, N, s.lose[0]), self.layers)
        tcap = kn.tcap_of(seat, x, end_phase, N, self.n, self.M, self.immediate)
        used = min(2 * tcap + 90, self.tsize)
        level = int(x.sum())
        nv = kn.fill_leaves(False, False, seat, x, end_phase, N, self.n, self.M, self.immediate,
                            self.rules.plusminus_deduction == "tutto", level, self.V, self.Ev,
                            self.V, self.Ev, s.lose[0], n_layers, s.nlink[0], used, s.bl[0],
                            s.bust[0], s.win[0], s.ys[0], s.vec[0], s.vecd[0],
                            s.link_layer[0], s.link_idx[0])
        turn_programme(MAX_MODE, nv, tcap, n_layers, s.bl[0], s.bust[0], s.win[0], s.A[0],
                       s.D[0], s.U[0], s.UX[0], s.sc[0], self.p.tp, self.p.ev, np.bool_(False))
        return tcap, n_layers

    def turn_start(self, seat: int, scores, end_phase: bool = False):
        """Layer 0 of the turn as a :class:`TurnStart`:
        the mover's chance after banking and after drawing, by turn total."""
        tcap, _ = self.run(seat, scores, end_phase)
        s = self.s
        return TurnStart(s.bl[0, 0, 0, :tcap + 1].copy(), s.D[0, 0, 0, :tcap + 1].copy(), tcap)


def programme_of(table) -> TurnProgramme:
    """The turn programme of a :class:`table.WinTableN` or :class:`solve_n.WinSolutionN`."""
    return TurnProgramme(table.rules, table.players, table.W, table.E, table.margin_cap)


class WinPlannerN(TurnPlanner):
    """Win-optimal decisions inside a turn from an N-player table (the
    advice at ``play``): each turn's :class:`TurnProgramme` is run once per
    seat and scores, its layers kept for the decisions of
    :class:`TurnPlanner`. In the end of the round
    (``view.last_round`` under ``round``) the end-phase state is used, scores
    above the cap counting as the cap."""

    def __init__(self, table):
        self.table = table
        self.prog = programme_of(table)
        super().__init__(table.rules, self.prog.p)
        self._turns: dict = {}

    def turn(self, seat: int, scores: tuple, end_phase: bool = False):
        key = (seat, scores, end_phase)
        if key not in self._turns:
            if len(self._turns) > 64:
                self._turns.clear()
            tcap, layers = self.prog.run(seat, scores, end_phase)
            self._turns[key] = self._run(self.prog.s, layers, tcap, range(layers - 1, -1, -1))
        return self._turns[key]

    def where(self, view, plusminus_tuttos: int):
        """The programme and layer of the player to move in ``view``."""
        prog = self.prog
        if len(view.scores) != prog.N:
            raise ValueError(f"the win table is for {prog.N} players, not {len(view.scores)}")
        end = bool(view.last_round) and not prog.immediate
        # the losers of Plus/Minus are fixed at the turn's start: its scores, that layer
        start = getattr(view, "turn_start", None) or view.scores
        x = tuple(min(s // POINT_UNIT, prog.M - 1) for s in start)
        lay = self.turn(view.seat, x, end)
        return lay, min(plusminus_tuttos, len(lay.U) - 1)

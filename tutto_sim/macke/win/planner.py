"""Playing Macke to win inside a turn, from a two-player win table: the
decisions of the ``winopt`` bot and the advice (:class:`WinPlanner`), at a
table of three or more in the reduced state of :func:`two_player_scores`.
"""

from __future__ import annotations

import numpy as np

from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.solver import turn_level
from tutto_sim.macke.win import kernel2 as wk
from tutto_sim.macke.win.programme import turn_value
from tutto_sim.macke.win.solve2 import WinSetup
from tutto_sim.macke.win.table import MackeWinTable


# --------------------------------------------------------------------------
# decisions inside a turn (the winopt bot)
# --------------------------------------------------------------------------


def two_player_scores(scores, seat: int) -> tuple[int, int]:
    """The two-player state a seat at a table of N plays to win by: its own
    score against the leader's among the others (the strongest opponent).
    The table has no seats (whoever moves, the state is the two scores), and
    in the last round (nachwerfen) the leader's score is the one to pass.
    The one place that decides it: an exact N-player table would be chosen
    here. With two players it is the table itself."""
    if len(scores) < 2:
        raise ValueError("winopt plays against at least one other player")
    return scores[seat], max(x for q, x in enumerate(scores) if q != seat)


class WinPlanner:
    """Win-optimal decisions inside a turn from a win table (two players).

    The turn of a pair of scores is the solver's greedy turn
    (:func:`kernel2.greedy_sweep`): one turn's programme with the table's
    values at its leaves, solved once per pair and kept as
    :class:`~tutto_sim.macke.solver.MackeDecisions` (a clear at or above the
    pair's ``t*`` is banked). The last turn (nachwerfen) needing more than
    ``d`` units is :func:`kernel2.last_turn`'s programme for that ``d``.
    Scores below the floor count as the floor, as in the table.
    """

    def __init__(self, table: MackeWinTable, keep_turns: int = 4096):
        import threading

        self.table = table
        self.rules = table.rules
        self.s = WinSetup(table.rules, table.floor, table.cap_units)
        self._sf, self._si = self.s.scratch(self.s.hc)
        self._turns: dict = {}
        self._advice: dict = {}  # turn -> the values that advice reads
        self._lock = threading.Lock()  # one scratch: one turn programme at a time
        self.keep_turns = keep_turns

    def _solve(self, bankv, mackev):
        from tutto_sim.macke.solver import MackeDecisions

        s = self.s
        cv, vt, bt = self._sf[2][0], self._sf[3][0], self._sf[4][0]
        cbank, keep, ret, bank = self._si[0][0], self._si[1][0], self._si[2][0], self._si[3][0]
        tstar = wk.bank_bound_cap(bankv, mackev, s.p0, s.hc)
        value = turn_value(tstar, True, s.n_all, s.L, s.tab, s.m.empty, bankv, mackev, 1.0,
                              cv, cbank, vt, bt, keep, ret, bank)
        clear = np.append(cbank[:tstar], True)
        dec = MackeDecisions(self.rules, keep[:tstar].copy(), ret[:tstar].copy(),
                             bank[:tstar].copy(), clear)
        return float(value), dec

    def _cached(self, key, leaves):
        """``(chance, decisions, policy)``: the policy plays the decisions
        (:class:`~tutto_sim.macke.policy.MackeTablePolicy`)."""
        from tutto_sim.macke.policy import MackeTablePolicy

        with self._lock:
            if key not in self._turns:
                if len(self._turns) >= self.keep_turns:
                    self._turns.clear()
                bankv, mackev = self._sf[0][0], self._sf[1][0]
                leaves(bankv, mackev)
                value, dec = self._solve(bankv, mackev)
                self._turns[key] = value, dec, MackeTablePolicy(self.rules, dec)
            return self._turns[key]

    def units(self, points: int) -> int:
        """A score in units, held at the floor."""
        return max(points // POINT_UNIT, self.s.floor_u)

    def turn(self, own: int, other: int):
        """``(chance, decisions, policy)`` of the turn from scores ``own``, ``other`` (points)."""
        s = self.s
        a, b = self.units(own), self.units(other)
        if not (a < s.target_u and b < s.target_u):
            raise ValueError(f"scores must be below the target {self.rules.target:,}")
        key = ("turn", a, b)
        return self._cached(key, lambda bankv, mackev: self._fill_leaves(key, bankv, mackev))

    def last_turn(self, own: int, best_other: int):
        """``(chance, decisions, policy)`` of the last turn (nachwerfen) on ``own`` points
        against ``best_other``: more wins, equal is half a win."""
        key = ("last", best_other // POINT_UNIT - self.units(own))
        return self._cached(key, lambda bankv, mackev: self._fill_leaves(key, bankv, mackev))

    def for_view(self, game):
        """``(chance, decisions, policy)`` of the player to move in a game view;
        at a table of three or more in the reduced state of :func:`two_player_scores`."""
        own, other = two_player_scores(game.scores, game.seat)
        if game.last_round:
            return self.last_turn(own, other)
        return self.turn(own, other)

    # ---- advice: the chance to win after each choice ----------------------
    def option_chances(self, d) -> list[float]:
        """The chance to win after each of ``d.legal`` (a ``MackeDecision`` of a
        two-player game), the rest of the game played to win: the values of
        the turn's programme at the decision (docs/macke-win.md)."""
        from tutto_sim.dice.api import BANK_OR_THROW, KEEP
        from tutto_sim.macke.game import BANK_OR_SERIES, RETURN

        g = d.game
        if len(g.scores) != 2:
            raise ValueError(f"the win table is for two players, not {len(g.scores)}")
        s, m = self.s, self.s.m
        own, other = g.scores[g.seat], g.scores[1 - g.seat]
        key = ("last", other // POINT_UNIT - self.units(own)) if g.last_round else (
            "turn", self.units(own), self.units(other))
        t0, u, t = d.locked // POINT_UNIT, d.view.aside, d.turn_total // POINT_UNIT
        with self._lock:
            bankv, cv, tstar = self._values(key)
            if d.kind == BANK_OR_SERIES:
                if t >= s.hc:
                    return [float(bankv[t]), float(bankv[t])]
                vt, _ = self._level(key, t)
                return [float(bankv[t]), float(vt[s.L, m.empty])]
            if t0 >= s.hc:  # past the cap every turn ends banked
                return [float(bankv[t])] * len(d.legal)
            vt, bt = self._level(key, t0)
            if d.kind == KEEP:
                out = []
                for st in d.options:
                    u2 = int(m.add[u, st])
                    tt = t0 + int(m.state_pts[u2])
                    if int(m.state_dice[u2]) == s.n_all:
                        out.append(float(cv[tt] if tt < tstar else bankv[tt]))
                    elif d.throws_left == 0:
                        out.append(float(bankv[tt]))
                    else:
                        out.append(float(max(bankv[tt], bt[d.throws_left, u2])))
                return out
            if d.kind == RETURN:
                return [float(vt[d.throws_left, st]) for st in d.options]
            if d.kind == BANK_OR_THROW:
                return [float(bankv[t]), float(bt[d.throws_left, u])]
        raise ValueError(f"no advice for a {d.kind} decision")

    def _values(self, key):
        """``(leaves, values after a clear, t*)`` of a turn, kept per turn."""
        s = self.s
        if key not in self._advice:
            if len(self._advice) >= 64:
                self._advice.clear()
            bankv, mackev = self._sf[0][0], self._sf[1][0]
            cv, vt, bt = self._sf[2][0], self._sf[3][0], self._sf[4][0]
            cbank, keep, ret, bank = self._si[0][0], self._si[1][0], self._si[2][0], self._si[3][0]
            self._fill_leaves(key, bankv, mackev)
            tstar = wk.bank_bound_cap(bankv, mackev, s.p0, s.hc)
            turn_value(tstar, True, s.n_all, s.L, s.tab, s.m.empty, bankv, mackev, 1.0, cv,
                          cbank, vt, bt, keep, ret, bank)  # fills cv for every total
            self._advice[key] = (bankv.copy(), mackev.copy(), cv.copy(), tstar, {})
        bankv, _, cv, tstar, _ = self._advice[key]
        return bankv, cv, tstar

    def _level(self, key, t0: int):
        """``(vt, bt)``: the values of a turn's locked total ``t0`` (``turn_level``)."""
        s = self.s
        bankv, mackev, cv, tstar, levels = self._advice[key]
        if t0 not in levels:
            vt, bt = np.zeros_like(self._sf[3][0]), np.zeros_like(self._sf[4][0])
            keep, ret, bank = self._si[1][0][0], self._si[2][0][0], self._si[3][0][0]
            turn_level(t0, s.n_all, s.L, s.tab, bankv, mackev, 1.0, tstar, cv, vt, bt, keep, ret,
                       bank)
            levels[t0] = vt, bt
        return levels[t0]

    def _fill_leaves(self, key, bankv, mackev) -> None:
        s = self.s
        if key[0] == "turn":
            _, a, b = key
            wk.win_leaves(a, b, self.table.W[b - s.floor_u], self.table.last_turn, s.floor_u,
                       s.target_u, s.min_u, s.subtract, bankv, mackev)
        else:
            d = key[1]
            t = np.arange(s.n_t)
            res = np.where(t >= s.min_u, t, -t)
            lost = -t if s.subtract else 0 * t
            bankv[:] = (res > d) + 0.5 * (res == d)
            mackev[:] = (lost > d) + 0.5 * (lost == d)

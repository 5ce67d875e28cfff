"""numba kernel for whole Berliner Macke / Volle Lotte games between table bots.

Part of the game layer (beside ``tutto.game_kernel``, the game layer's other
``@njit`` code). It plays the turn of ``macke.table_kernel.play_turn_table``
made game-aware: the scores (for the endgame bot), the nachwerfen and the
instant win. ``macke.game`` is its readable twin; the tests play both on the
same seeds and demand identical games.

Every kernel bot is a **decision table** (:class:`MackeBotTable`) in the
format of ``macke.solver.MackeDecisions``: the optimal policy's arrays as
they are, a threshold policy compiled by ``macke.solver.threshold_decisions``.
Tables of all bots of a run are stacked along a first axis ``b``, each array
padded to the most rows (a row past the last uses the last one anyway):

``keep[b, row, tl, slot]``   keep index at a throw with ``tl`` throws left (counting it)
``ret[b, row, tl, u]``       before such a throw (``tl < L``): sub-state kept
``bank[b, row, tl', u']``    after setting aside, ``tl'`` throws left: bank?
``clear[b, tl', T]``         after a clear at turn total ``T`` with ``tl'`` throws left: bank?
``endgame[b]``               bank at once when banking reaches the target; press on
                             when behind in the last turn (nachwerfen)

``row`` is the locked total (points of earlier series), ``T`` the turn
total, both in units of 50.

The game loop, streams, lineups and end rules are ``dice.game_kernel``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from tutto_sim.dice.game_kernel import NOT_OVER, DiceGameKernel, close_game, endgame_banks
from tutto_sim.dice.game_kernel import game_scratch, next_turn, stack_rows, start_game, turn_played
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.macke.game import END_KINDS, GameConfig
from tutto_sim.macke.solver import slot_layout, throw_tables
from tutto_sim.macke.table_kernel import last_rows, throw_rest
from tutto_sim.macke.tables import build_macke_tables

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Macke game kernel"

# params columns
P_DICE, P_THROWS, P_MIN, P_BUST_ZERO, P_TARGET, P_MAX_ROUNDS = range(6)
END_NACHWERFEN, END_INSTANT, END_CAP = range(3)
assert END_KINDS == ("nachwerfen", "instant-win", "cap")
#: ``dice.game_kernel``'s OVER_* (finished, target: never in Macke, instant, cap) as end kinds.
_ENDS = np.array([END_NACHWERFEN, END_CAP, END_INSTANT, END_CAP], dtype=np.int64)

@dataclass(frozen=True)
class MackeBotTable:
    """One bot's decisions as arrays (module docstring), without the bot axis."""

    keep: np.ndarray  # int8 [R, L+1, slots]
    ret: np.ndarray  # int8 [R, L+1, S]
    bank: np.ndarray  # bool [R, L+1, S]
    clear: np.ndarray  # bool [L, C]
    endgame: bool = False

    @classmethod
    def from_decisions(cls, dec, endgame: bool = False) -> "MackeBotTable":
        """From ``MackeDecisions`` (a 1-D ``clear_bank`` holds for any throws left)."""
        clear = np.asarray(dec.clear_bank, dtype=np.bool_)
        if clear.ndim == 1:
            clear = np.repeat(clear[None, :], dec.rules.throws, axis=0)
        return cls(np.asarray(dec.keep, np.int8), np.asarray(dec.ret, np.int8),
                   np.asarray(dec.bank, np.bool_), clear, endgame)


def stack_tables(tables: list[MackeBotTable]) -> tuple:
    """The kernel's stacked arrays (keep, ret, bank, clear, endgame)."""
    def stack(name: str, axis: int):
        arrs = [getattr(t, name) for t in tables]
        return stack_rows(arrs, axis, max(a.shape[axis] for a in arrs))

    return (stack("keep", 0), stack("ret", 0), stack("bank", 0), stack("clear", 1),
            np.array([t.endgame for t in tables], dtype=np.bool_))


def kernel_params(config: GameConfig) -> np.ndarray:
    r = config.rules
    return np.array([r.n_dice, r.throws, r.min_score // POINT_UNIT, 1 if r.bust == "zero" else 0,
                     r.target // POINT_UNIT, config.max_rounds], dtype=np.int64)


@njit(cache=True, inline="always")
def _result(total, min_u):
    return total if total >= min_u else -total


@njit(cache=True)
def _play_turn(st, b, me, n, scores, last_turn, keep, ret, bank, clear, endgame, ordered,
               ordered_off, start, state_dice, state_pts, add, sub_start, sub_states, keep_start,
               keep_states, win, slot_off, empty, params):
    """One turn of bot b in seat ``me``: (signed result in units of 50, instant win?)."""
    n_all = params[P_DICE]
    n_throws = params[P_THROWS]
    min_u = params[P_MIN]
    bust_zero = params[P_BUST_ZERO] == 1
    target = params[P_TARGET]
    eg = endgame[b]
    krows, rrows, brows, crows = last_rows(keep, ret, bank, clear)
    locked = 0
    u = empty
    tl = n_throws
    while True:
        if tl < n_throws:  # returns before the 2nd and later throw of a series
            u = sub_states[sub_start[u] + ret[b, min(locked, rrows), tl, u]]
        ms, slot = throw_rest(st, u, n_all, state_dice, ordered, ordered_off, start)
        total = locked + state_pts[u]
        if win[ms]:
            return 0, True
        k0 = keep_start[ms]
        if k0 == keep_start[ms + 1]:  # Macke: -total (the turn's first throw: total is 0)
            return (0 if bust_zero else -total), False
        j = keep[b, min(locked, krows), tl, slot_off[u] + slot]
        u = add[u, keep_states[k0 + j]]
        total = locked + state_pts[u]
        tl -= 1
        if state_dice[u] == n_all:  # a clear: bank, or a new series with the total locked
            stop = clear[b, tl, min(total, crows)]
            if eg:
                stop = endgame_banks(stop, _result(total, min_u), me, n, scores, target, last_turn)
            if stop:
                break
            locked = total
            u = empty
            tl = n_throws
        elif tl == 0:
            break
        else:
            stop = bank[b, min(locked, brows), tl, u]
            if eg:
                stop = endgame_banks(stop, _result(total, min_u), me, n, scores, target, last_turn)
            if stop:
                break
    return _result(total, min_u), False


@njit(cache=True, nogil=True)
def _play_games(seed, lo, hi, lineups, keep, ret, bank, clear, endgame, ordered, ordered_off,
                start, state_dice, state_pts, add, sub_start, sub_states, keep_start, keep_states,
                win, slot_off, empty, params, share, score, bsum, bsq, turns, end):
    """Games ``lo .. hi-1`` (stream and output row ``g``). Per game and seat:
    ``share`` (of SHARE; the highest score wins, ties share, an instant winner
    alone), ``score``, ``bsum``/``bsq`` (signed turn results and their
    squares, summed over the seat's turns); per game ``turns`` and ``end``."""
    n = lineups.shape[1]
    target = params[P_TARGET]
    max_turns = params[P_MAX_ROUNDS] * n
    st, seats, scores = game_scratch(n)
    for g in range(lo, hi):
        start_game(seed, g, lineups, seats, scores, st)
        turn, finisher, over = 0, -1, NOT_OVER
        while over == NOT_OVER:
            me, over = next_turn(turn, finisher, n, False, max_turns)
            if over == NOT_OVER:
                v, won = _play_turn(st, seats[me], me, n, scores, finisher >= 0, keep, ret, bank,
                                    clear, endgame, ordered, ordered_off, start, state_dice,
                                    state_pts, add, sub_start, sub_states, keep_start, keep_states,
                                    win, slot_off, empty, params)
                turn, finisher, over = turn_played(me, v, won, turn, finisher, scores, bsum,
                                                   bsq, g - lo, target, False)
        close_game(me, turn, over, _ENDS, scores, n, g - lo, turns, end, score, share)


class MackeGameKernel(DiceGameKernel):
    """The kernel's inputs for a config and a list of bot tables, ready to run."""

    play_games = _play_games

    def __init__(self, config: GameConfig, tables: list[MackeBotTable]):
        rules = config.rules
        m = build_macke_tables(rules)
        t = throw_tables(rules)
        off, n_slots = slot_layout(m)
        n_states = len(m.state_dice)
        for tab in tables:
            if (tab.keep.shape[1:] != (rules.throws + 1, n_slots)
                    or tab.ret.shape[1:] != (rules.throws + 1, n_states)
                    or tab.bank.shape[1:] != (rules.throws + 1, n_states)
                    or tab.clear.shape[0] != rules.throws):
                raise ValueError("a bot table was made for other Macke rules (dice, throws or variant)")
        c = np.ascontiguousarray
        self.config = config
        self.bots = stack_tables(tables)
        self.data = (c(t.ordered), c(t.ordered_off), c(t.start), c(m.state_dice), c(m.state_pts),
                     c(m.add), c(m.sub_start), c(m.sub_states), c(m.keep_start), c(m.keep_states),
                     c(m.win), c(off), int(m.empty))  # the order _play_games reads them
        self.params = kernel_params(config)

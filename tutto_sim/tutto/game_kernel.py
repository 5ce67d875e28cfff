"""numba kernel for whole Tutto games between table bots.

Part of the game layer; it is the game layer's only ``@njit`` code and sits
beside the game (as the solver's helpers sit beside ``solve``) because it
plays games, not turns. It reuses the turn layer: the streams of
``core.streams``, the throw sampler of ``tutto.turn_kernel`` and the turn logic
of ``tutto.table_kernel.play_turn_table``, made game-aware here (the deck,
the scores for Plus/Minus deductions and the endgame bot, the Kleeblatt win).
``tutto.game`` is its readable twin; the tests play both on the same seeds
and demand identical games.

Every kernel bot is a **decision table** (:class:`BotTable`): an exported
optimal policy as it is, a threshold policy compiled into one
(``tutto.bots.ThresholdBot.table``). Tables of all bots of a run are stacked
along a first axis ``b``:

``keep[b, c, T, ms]``   dice to set aside from throw ``ms`` under card c at turn total T
``bank[b, c, d, T]``    bank with d dice left (Bonus, x2)
``draw[b, c, T]``       after a Tutto under card c: draw another card (True) or bank
``street[b, m, j]``     Straße: new numbers to set aside (smallest first)
``keep_x2p[b, p, T, ms]``, ``bank_x2p[b, p, d, T]``  x2 under scope "card" (card points p)
``endgame[b]``          bank at once on reaching the target; press on when behind in the last round

Totals ``T`` (units of 50) beyond the last row use the last row.

Cards: the rule option ``deck`` (``real``: the 56-card deck without
replacement; ``iid``: every card independently at the deck frequencies) is
the parameter ``P_INDEPENDENT``; both draw exactly as ``tutto.game`` does.

The game loop, streams, lineups and end rules are ``dice.game_kernel``'s.
Blocks of fixed games each run in one call of the ``nogil`` kernel on a pool
of threads (plain threads rather than ``prange``: a parallel loop around a
whole game more than doubles the compile time and gains nothing here).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tutto_sim.core.blocks import SHARE  # noqa: F401  (the win shares' unit, for the callers)
from tutto_sim.core.streams import below
from tutto_sim.dice.game_kernel import NOT_OVER, DiceGameKernel, close_game, endgame_banks
from tutto_sim.dice.game_kernel import game_scratch, next_turn, stack_rows, start_game, turn_played
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.game import END_KINDS, GameConfig
from tutto_sim.tutto.rules import PLUSMINUS_CHAIN_CHOICES
from tutto_sim.tutto.table_kernel import BotTable
from tutto_sim.tutto.turn_kernel import CLOVERLEAF, FIREWORKS, PLUSMINUS, PLUSMINUS_UNITS, STOP, STREET
from tutto_sim.tutto.turn_kernel import STREET_UNITS, X2, TuttoKernelData, draw_throw, set_aside, street_aside
from tutto_sim.tutto.turn_kernel import street_throw, tutto_bonus
from tutto_sim.tutto.win.bot_kernel import WinBotTable, kernel_win_args, win_banks, win_banks_after_tutto, win_keep, win_layer_at, win_street, win_turn_start

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto game kernel"

# params columns
P_X2_CARD, P_PM_CHAIN, P_DEDUCT_AT_TUTTO, P_TARGET, P_IMMEDIATE, P_MAX_ROUNDS, P_INDEPENDENT = range(7)
END_ROUND, END_TARGET, END_CLOVERLEAF, END_CAP = range(4)
assert END_KINDS == ("round", "target", "cloverleaf", "cap")
#: ``dice.game_kernel``'s OVER_* (finished, target, instant, cap) as end kinds.
_ENDS = np.array([END_ROUND, END_TARGET, END_CLOVERLEAF, END_CAP], dtype=np.int64)


def stack_tables(tables: list[BotTable]) -> tuple:
    """The kernel's stacked arrays (keep, bank, draw, street, keep_x2p, bank_x2p, endgame)."""
    rows = max(t.rows for t in tables)
    x2_rows = rows if max(t.keep_x2p.shape[0] for t in tables) > 1 else 1

    def stack(name: str, axis: int, r: int = rows):
        return stack_rows([getattr(t, name) for t in tables], axis, r)

    return (stack("keep", 1), stack("bank", 2), stack("draw", 1),
            np.ascontiguousarray(np.stack([t.street for t in tables])),
            stack("keep_x2p", 1, x2_rows), stack("bank_x2p", 2, x2_rows),
            np.array([t.endgame for t in tables], dtype=np.bool_))


def kernel_params(config: GameConfig) -> np.ndarray:
    rules = config.rules
    return np.array([
        1 if rules.x2_scope == "card" else 0,
        PLUSMINUS_CHAIN_CHOICES.index(rules.plusminus_chain),
        1 if rules.plusminus_deduction == "tutto" else 0,
        rules.target // POINT_UNIT,
        1 if rules.game_end == "immediate" else 0,
        config.max_rounds,
        1 if rules.deck == "iid" else 0,
    ], dtype=np.int64)


@njit(cache=True, inline="always")
def _draw_card(st, deck, pos, independent):
    """One card. ``deck="real"``: one step of a forward Fisher–Yates shuffle; an
    empty deck starts over (reshuffle). ``deck="iid"``: ``deck[below(56)]`` from the
    deck in card order, the precomputed inverse-distribution table (card c has
    count(c) of its 56 entries), as the turn kernel draws; nothing is allocated."""
    n = deck.shape[0]
    if independent:
        return deck[below(st, n)]  # deck stays in card order
    p = pos[0]
    if p == n:
        p = 0
    j = p + below(st, n - p)
    c = deck[j]
    deck[j] = deck[p]
    deck[p] = c
    pos[0] = p + 1
    return c


@njit(cache=True)
def plusminus_losers(scores, me, n):
    """The players this turn's Plus/Minus Tuttos take from, fixed at its start
    (bit q set for seat q): every other player holding the highest banked
    score (the roller's included in finding it), none of them at 0."""
    top = 0
    for q in range(n):
        if scores[q] > top:
            top = scores[q]
    losers = 0
    for q in range(n):
        if q != me and scores[q] == top and top > 0:
            losers |= 1 << q
    return losers


@njit(cache=True)
def _deduct(scores, losers, n, tuttos):
    """``tuttos`` Plus/Minus Tuttos: -1000 (20 units) each to every player in
    ``losers`` (:func:`plusminus_losers`), floor 0."""
    for q in range(n):
        if (losers >> q) & 1:
            scores[q] = max(0, scores[q] - tuttos * PLUSMINUS_UNITS)


@njit(cache=True)
def _play_turn(st, b, me, n, scores, last_turn, keep, bank, draw, street, keep_x2p,
               bank_x2p, endgame, win, deck, pos, ordered, ordered_off, best_pts, faces, bonus,
               bankable, params):
    """One turn of bot b in seat ``me``: (banked units, Kleeblatt win?).

    ``play_turn_table`` with the deck, the deductions and the endgame rule;
    a ``winopt`` bot (``win[0][b] >= 0``) decides by ``win.bot_kernel``.
    """
    x2_card = params[P_X2_CARD] == 1
    pm_chain = params[P_PM_CHAIN]
    at_tutto = params[P_DEDUCT_AT_TUTTO] == 1
    target = params[P_TARGET]
    independent = params[P_INDEPENDENT] == 1
    eg = endgame[b]
    wb = win[0][b]
    immediate = params[P_IMMEDIATE] == 1
    t_max = draw.shape[2] - 1
    total = 0
    pm = 0  # Plus/Minus Tuttos of this turn
    losers = plusminus_losers(scores, me, n)
    # the winopt bot's turn start, before any deduction of the turn: its state
    # in an N-player table, or the two-player table's state (tutto.win.seat)
    i0, seat_r, own_r, other_r = (win_turn_start(win, wb, me, n, scores, last_turn, immediate)
                                  if wb >= 0 else (0, 0, 0, 0))
    pending = 0  # Plus/Minus Tuttos whose deduction waits for the bank
    card = _draw_card(st, deck, pos, independent)
    while True:
        if card == STOP:
            return 0, False
        if card == STREET:
            mask = 0
            dice = 6
            while dice > 0:
                new, j = street_throw(st, dice, mask, ordered, ordered_off, faces)
                if new == 0:
                    return 0, False
                take = street[b, 6 - dice, j]
                if wb >= 0:
                    L = win_layer_at(win, wb, i0, seat_r, own_r, other_r, last_turn, pm, immediate)
                    take = win_street(win, L, total, 6 - dice, j)
                mask = street_aside(new, mask, take)
                dice -= take
            total += STREET_UNITS
        else:
            can_bank, by_points = bankable[card], x2_card and card == X2
            dice, card_pts, tuttos_here = 6, 0, 0
            while True:
                ms = draw_throw(st, dice, ordered, ordered_off)
                row = total if total < t_max else t_max
                if wb >= 0 and card != FIREWORKS:
                    L = win_layer_at(win, wb, i0, seat_r, own_r, other_r, last_turn, pm, immediate)
                    k = win_keep(win, wb, L, card, total, card_pts, dice, ms, best_pts, bonus,
                                 x2_card, pm_chain)
                elif by_points:
                    k = keep_x2p[b, card_pts, row, ms]
                else:
                    k = keep[b, card, row, ms]
                if k == 0:
                    if card == FIREWORKS:  # only a Niete ends it, and it banks
                        _deduct(scores, losers, n, pending)
                        return total, False
                    return 0, False
                dice, total, card_pts = set_aside(card, k, ms, dice, total, card_pts, can_bank,
                                                  best_pts)
                if dice == 0:
                    if card == FIREWORKS or card == CLOVERLEAF:
                        tuttos_here += 1
                        if card == CLOVERLEAF and tuttos_here == 2:
                            return 0, True
                        dice = 6
                        continue
                    break
                if can_bank:
                    row = total if total < t_max else t_max
                    if wb >= 0:
                        L = win_layer_at(win, wb, i0, seat_r, own_r, other_r, last_turn, pm, immediate)
                        stop = win_banks(win, wb, L, card, total, card_pts, dice, x2_card)
                    elif by_points:
                        stop = bank_x2p[b, card_pts, dice, row]
                    else:
                        stop = bank[b, card, dice, row]
                    if eg:
                        stop = endgame_banks(stop, total, me, n, scores, target, last_turn)
                    if stop:
                        _deduct(scores, losers, n, pending)
                        return total, False
            total, ends = tutto_bonus(card, total, card_pts, x2_card, pm_chain, bonus)
            if card == PLUSMINUS:
                pm += 1
                if at_tutto:
                    _deduct(scores, losers, n, 1)
                else:
                    pending += 1
            if ends:
                _deduct(scores, losers, n, pending)
                return total, False
        go = draw[b, card, total if total < t_max else t_max]
        if wb >= 0:
            L = win_layer_at(win, wb, i0, seat_r, own_r, other_r, last_turn, pm, immediate)
            go = not win_banks_after_tutto(win, L, total)
        if eg:
            go = not endgame_banks(not go, total, me, n, scores, target, last_turn)
        if not go:
            _deduct(scores, losers, n, pending)
            return total, False
        card = _draw_card(st, deck, pos, independent)


@njit(cache=True, nogil=True)
def _play_games(seed, lo, hi, lineups, keep, bank, draw, street, keep_x2p, bank_x2p, endgame,
                win, ordered, ordered_off, best_pts, faces, deck0, bonus, bankable, params,
                share, score, bsum, bsq, turns, end):
    """Games ``lo .. hi-1`` (stream and output row ``g``); scratch arrays are this
    call's own. Per game and seat: ``share`` (of SHARE; the highest score wins,
    ties share, a Kleeblatt or ``immediate`` winner alone), ``score``, ``bsum``,
    ``bsq`` (banked units and their squares, summed over the seat's turns);
    per game ``turns`` and ``end``."""
    n = lineups.shape[1]
    target = params[P_TARGET]
    immediate = params[P_IMMEDIATE] == 1
    max_turns = params[P_MAX_ROUNDS] * n
    st, seats, scores = game_scratch(n)
    deck = np.empty(deck0.shape[0], dtype=np.int64)
    pos = np.zeros(1, dtype=np.int64)
    for g in range(lo, hi):
        start_game(seed, g, lineups, seats, scores, st)
        deck[:] = deck0
        pos[0] = 0
        turn, finisher, over = 0, -1, NOT_OVER
        while over == NOT_OVER:
            me, over = next_turn(turn, finisher, n, True, max_turns)
            if over == NOT_OVER:
                v, won = _play_turn(st, seats[me], me, n, scores, finisher >= 0, keep, bank, draw,
                                    street, keep_x2p, bank_x2p, endgame, win, deck, pos, ordered,
                                    ordered_off, best_pts, faces, bonus, bankable, params)
                turn, finisher, over = turn_played(me, v, won, turn, finisher, scores, bsum,
                                                   bsq, g - lo, target, immediate)
        close_game(me, turn, over, _ENDS, scores, n, g - lo, turns, end, score, share)


class TuttoGameKernel(DiceGameKernel):
    """The kernel's inputs for a config and a list of bot tables, ready to run."""

    play_games = _play_games

    def __init__(self, config: GameConfig, tables: list):
        kd = TuttoKernelData(config.rules)
        t = build_tables(config.rules.scoring)
        self.config = config
        # a winopt bot (win.bot_kernel.WinBotTable) stacks its forced keeps here
        plain = [x.forced if isinstance(x, WinBotTable) else x for x in tables]
        self.winopt = [isinstance(x, WinBotTable) for x in tables]
        self._tables = tables
        self.bots = stack_tables(plain) + (kernel_win_args(config.rules, tables),)
        self.data = (np.ascontiguousarray(t.ordered), np.ascontiguousarray(t.ordered_off),
                     np.ascontiguousarray(t.best_pts), np.ascontiguousarray(t.faces),
                     kd.deck, kd.bonus, kd.bankable)  # the order _play_games reads them
        self.params = kernel_params(config)

    def check(self, lineups: np.ndarray) -> None:
        sizes = {x.data.players for x, w in zip(self._tables, self.winopt) if w} - {2}
        if sizes and sizes != {lineups.shape[1]}:
            raise ValueError(f"winopt's win table is for {' or '.join(map(str, sorted(sizes)))} "
                             f"players, not {lineups.shape[1]}")
        if any(self.winopt) and lineups.shape[1] < 2:
            raise ValueError("winopt plays against at least one other player")

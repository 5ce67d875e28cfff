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

Game ``i`` of a run reads stream ``(seed, i)``; its lineup is
``lineups[i % L]`` rotated by ``r = (i // L) % n``: seat j gets bot
``lineups[i % L, (j + r) % n]`` (``core.tournament.seat_bots``). Games are
cut into blocks of fixed games (:data:`BLOCK`), each played by one call of
the ``nogil`` kernel with its own scratch arrays on a pool of threads, so
results never depend on the number of threads. (Plain threads rather than
``prange``: a parallel loop around a whole game more than doubles the compile
time and gains nothing here.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from tutto_sim.core.blocks import BLOCK, SHARE, record_result, run_game_blocks  # noqa: F401
from tutto_sim.core.streams import below, stream_start
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.dice.throws import build_tables
from tutto_sim.tutto.game import END_KINDS, GameConfig
from tutto_sim.tutto.rules import PLUSMINUS_CHAIN_CHOICES
from tutto_sim.tutto.turn_kernel import (
    CLOVERLEAF,
    FIREWORKS,
    PLUSMINUS,
    PLUSMINUS_UNITS,
    STOP,
    STREET,
    STREET_UNITS,
    X2,
    TuttoKernelData,
    draw_throw,
)
from tutto_sim.tutto.win_bot_kernel import (
    WinBotTable,
    kernel_win_args,
    win_banks,
    win_banks_after_tutto,
    win_keep,
    win_layer,
    win_street,
)

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutto game kernel"

# params columns
P_X2_CARD, P_PM_CHAIN, P_DEDUCT_AT_TUTTO, P_TARGET, P_IMMEDIATE, P_MAX_ROUNDS, P_INDEPENDENT = range(7)
END_ROUND, END_TARGET, END_CLOVERLEAF, END_CAP = range(4)
assert END_KINDS == ("round", "target", "cloverleaf", "cap")
CLOVER_WIN = -1


@dataclass(frozen=True)
class BotTable:
    """One bot's decisions as arrays (module docstring); rows = turn totals 0..R-1."""

    keep: np.ndarray  # int8 [C, R, M]
    bank: np.ndarray  # bool [C, 6, R]
    draw: np.ndarray  # bool [C, R]
    street: np.ndarray  # int8 [7, 7]
    keep_x2p: np.ndarray  # int8 [P, R, M] (P = 1 and unused under x2 scope "turn")
    bank_x2p: np.ndarray  # bool [P, 6, R]
    endgame: bool = False

    @property
    def rows(self) -> int:
        return self.draw.shape[1]


def _pad_rows(a: np.ndarray, axis: int, rows: int) -> np.ndarray:
    """Repeat the last row up to ``rows``: a larger total uses the last row anyway."""
    extra = rows - a.shape[axis]
    if extra <= 0:
        return a
    pad = [(0, 0)] * a.ndim
    pad[axis] = (0, extra)
    return np.pad(a, pad, mode="edge")


def stack_tables(tables: list[BotTable]) -> tuple:
    """The kernel's stacked arrays (keep, bank, draw, street, keep_x2p, bank_x2p, endgame)."""
    rows = max(t.rows for t in tables)
    x2_rows = rows if max(t.keep_x2p.shape[0] for t in tables) > 1 else 1

    def stack(name: str, axis: int, r: int = rows):
        arrs = [_pad_rows(getattr(t, name), axis, r) for t in tables]
        return np.ascontiguousarray(np.stack(arrs))

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
def _deduct(scores, me, n, tuttos):
    """Each Plus/Minus Tutto: -1000 (20 units) to every other leader, floor 0."""
    for _ in range(tuttos):
        top = 0
        for q in range(n):
            if scores[q] > top:
                top = scores[q]
        for q in range(n):
            if q != me and scores[q] == top and top > 0:
                scores[q] = max(0, top - PLUSMINUS_UNITS)


@njit(cache=True)
def _endgame(table_banks, total, me, n, scores, target, last_round):
    """The endgame bot's bank decision: press on when behind in the last round,
    bank at once when banking reaches the target, else what the table says."""
    mine = scores[me] + total
    best = 0
    for q in range(n):
        if q != me and scores[q] > best:
            best = scores[q]
    if last_round and mine < best:
        return False
    if mine >= target:
        return True
    return table_banks


@njit(cache=True)
def _play_turn(st, b, me, n, scores, last_round, keep, bank, draw, street, keep_x2p,
               bank_x2p, endgame, win, deck, pos, ordered, ordered_off, best_pts, faces, bonus,
               bankable, params):
    """One turn of bot b in seat ``me``: banked units, or CLOVER_WIN.

    ``play_turn_table`` with the deck, the deductions and the endgame rule;
    a ``winopt`` bot (``win[0][b] >= 0``) decides by ``win_bot_kernel``.
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
    pm = 0  # Plus/Minus Tuttos waiting for the bank
    card = _draw_card(st, deck, pos, independent)
    while True:
        if card == STOP:
            return 0
        if card == STREET:
            mask = 0
            dice = 6
            while dice > 0:
                ms = draw_throw(st, dice, ordered, ordered_off)
                new = faces[ms] & ~mask & 63
                if new == 0:
                    return 0
                j = 0
                x = new
                while x != 0:
                    x &= x - 1
                    j += 1
                take = street[b, 6 - dice, j]
                if wb >= 0:
                    L = win_layer(win, wb, me, scores, last_round, pm, immediate)
                    take = win_street(win, L, total, 6 - dice, j)
                for _ in range(take):
                    low = new & -new
                    mask |= low
                    new ^= low
                    dice -= 1
            total += STREET_UNITS
        else:
            can_bank = bankable[card]
            by_points = x2_card and card == X2
            dice = 6
            card_pts = 0
            tuttos_here = 0
            while True:
                ms = draw_throw(st, dice, ordered, ordered_off)
                row = total if total < t_max else t_max
                if wb >= 0 and card != FIREWORKS:
                    L = win_layer(win, wb, me, scores, last_round, pm, immediate)
                    k = win_keep(win, wb, L, card, total, card_pts, dice, ms, best_pts, bonus,
                                 x2_card, pm_chain)
                elif by_points:
                    k = keep_x2p[b, card_pts, row, ms]
                else:
                    k = keep[b, card, row, ms]
                if k == 0:
                    if card == FIREWORKS:  # only a Niete ends it, and it banks
                        _deduct(scores, me, n, pm)
                        return total
                    return 0
                dice -= k
                if can_bank or card == FIREWORKS:
                    pts = best_pts[ms, k]
                    total += pts
                    card_pts += pts
                if dice == 0:
                    if card == FIREWORKS or card == CLOVERLEAF:
                        tuttos_here += 1
                        if card == CLOVERLEAF and tuttos_here == 2:
                            return CLOVER_WIN
                        dice = 6
                        continue
                    break
                if can_bank:
                    row = total if total < t_max else t_max
                    if wb >= 0:
                        L = win_layer(win, wb, me, scores, last_round, pm, immediate)
                        stop = win_banks(win, wb, L, card, total, card_pts, dice, x2_card)
                    elif by_points:
                        stop = bank_x2p[b, card_pts, dice, row]
                    else:
                        stop = bank[b, card, dice, row]
                    if eg:
                        stop = _endgame(stop, total, me, n, scores, target, last_round)
                    if stop:
                        _deduct(scores, me, n, pm)
                        return total
            if card == X2:
                total = total + card_pts if x2_card else 2 * total
            elif card == PLUSMINUS:
                total += PLUSMINUS_UNITS
                if at_tutto:
                    _deduct(scores, me, n, 1)
                else:
                    pm += 1
                if pm_chain == 1:
                    _deduct(scores, me, n, pm)
                    return total
                if pm_chain == 2:
                    _deduct(scores, me, n, pm)
                    return PLUSMINUS_UNITS
            else:
                total += bonus[card]
        go = draw[b, card, total if total < t_max else t_max]
        if wb >= 0:
            L = win_layer(win, wb, me, scores, last_round, pm, immediate)
            go = not win_banks_after_tutto(win, L, total)
        if eg:
            go = not _endgame(not go, total, me, n, scores, target, last_round)
        if not go:
            _deduct(scores, me, n, pm)
            return total
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
    n_lineups, n = lineups.shape
    target = params[P_TARGET]
    immediate = params[P_IMMEDIATE] == 1
    max_turns = params[P_MAX_ROUNDS] * n
    st = np.empty(1, dtype=np.uint64)
    seats = np.empty(n, dtype=np.int64)
    scores = np.empty(n, dtype=np.int64)
    deck = np.empty(deck0.shape[0], dtype=np.int64)
    pos = np.zeros(1, dtype=np.int64)
    for g in range(lo, hi):
        line = g % n_lineups
        r = (g // n_lineups) % n
        for j in range(n):
            seats[j] = lineups[line, (j + r) % n]
            scores[j] = 0
        deck[:] = deck0
        pos[0] = 0
        st[0] = stream_start(seed, np.uint64(g))
        last_round = False
        turn = 0
        winner = -1
        e = END_CAP
        while True:
            me = turn % n
            if me == 0 and last_round:
                e = END_ROUND
                break
            if me == 0 and turn >= max_turns:
                break
            v = _play_turn(st, seats[me], me, n, scores, last_round, keep, bank, draw, street,
                           keep_x2p, bank_x2p, endgame, win, deck, pos, ordered, ordered_off,
                           best_pts, faces, bonus, bankable, params)
            turn += 1
            if v == CLOVER_WIN:
                winner, e = me, END_CLOVERLEAF
                v = 0
            bsum[g - lo, me] += v
            bsq[g - lo, me] += v * v
            if winner >= 0:
                break
            scores[me] += v
            if scores[me] >= target:
                if immediate:
                    winner, e = me, END_TARGET
                    break
                last_round = True
        turns[g - lo] = turn
        end[g - lo] = e
        record_result(scores, winner, n, score[g - lo], share[g - lo])


def simulate_games(seed, start, n_games, lineups, bots, data, params, threads=None, block=BLOCK):
    """Play games ``start .. start+n_games-1``; returns per-game arrays
    ``(share, score, bsum, bsq, turns, end)`` (see :func:`_play_games`)."""
    return run_game_blocks(_play_games, seed, start, n_games, lineups, bots, data, params,
                           threads, block)


class TuttoGameKernel:
    """The kernel's inputs for a config and a list of bot tables, ready to run."""

    def __init__(self, config: GameConfig, tables: list):
        kd = TuttoKernelData(config.rules)
        t = build_tables(config.rules.scoring)
        self.config = config
        # a winopt bot (win_bot_kernel.WinBotTable) stacks its forced keeps here
        plain = [x.forced if isinstance(x, WinBotTable) else x for x in tables]
        self.winopt = [isinstance(x, WinBotTable) for x in tables]
        self.bots = stack_tables(plain) + (kernel_win_args(config.rules, tables),)
        self.data = (np.ascontiguousarray(t.ordered), np.ascontiguousarray(t.ordered_off),
                     np.ascontiguousarray(t.best_pts), np.ascontiguousarray(t.faces),
                     kd.deck, kd.bonus, kd.bankable)  # the order _play_games reads them
        self.params = kernel_params(config)

    def run(self, seed: int, start: int, n_games: int, lineups: np.ndarray,
            threads: int | None = None, block: int = BLOCK):
        lineups = np.ascontiguousarray(lineups, dtype=np.int64)
        if any(self.winopt) and lineups.shape[1] != 2:
            raise ValueError(f"winopt plays two-player games only, not {lineups.shape[1]} players")
        return simulate_games(seed, start, n_games, lineups, self.bots, self.data, self.params,
                              threads, block)

"""numba kernel for whole Berliner Macke / Volle Lotte turns under a threshold policy.

Part of the kernel layer, the only layer with ``@njit``. The turn
mirrors ``tutto_sim.macke.reference.play_turn`` played by
``macke.threshold.MackeThresholdPolicy``: every throw sets aside all
scoring units (``macke.tables`` ``all_keep``), nothing is ever returned to the
cup, and the player banks when the turn total reaches a threshold. The tests
play both engines on the same streams and demand identical turns.

A policy is an int64 array ``pol[throws_left, dice_left]`` (7 x 7, units of
50): after a scoring throw that leaves ``dice_left`` >= 1 dice and
``throws_left`` >= 1 throws, bank when the turn total is >= that entry;
column 0 is the clear (all dice set aside): bank at >= ``pol[t, 0]``, else
start a new series. ``NEVER`` is a threshold no total reaches. A batch of
policies ``pols[p]`` sees the same turn streams (common random numbers).

Turn ``i`` reads stream ``(seed, start + i)``: results do not depend on the
number of threads or on ``block``, which only sets the unit of parallel work.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tutto_sim.core.streams import below, stream_start
from tutto_sim.dice.scoring import POINT_UNIT, ScoringRules
from tutto_sim.dice.throws import MAX_DICE, build_tables
from tutto_sim.macke.rules import MackeRules
from tutto_sim.macke.tables import build_macke_tables

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Macke turn simulator"

NEVER = 1 << 40  # a threshold no turn total reaches
POLICY_SHAPE = (7, MAX_DICE + 1)  # throws_left 0..6, dice_left 0..6 (0: a clear)

# How a turn ended (``end`` in the per-turn output).
END_BANK = 0  # banked, or the series' last throw was made
END_MACKE = 1
END_WIN = 2  # instant-win: five 1s

# Columns of simulate_batch's sums.
SUM, SUM_SQ, N_POSITIVE, N_NEGATIVE, N_ZERO, N_MACKE, N_THROWS, N_CLEARS, N_WINS = range(9)
N_SUMS = 9

_POW6 = np.array([6**n for n in range(MAX_DICE + 1)], dtype=np.int64)


class MackeKernelData:
    """Everything the kernel reads besides the policy, built from the rules."""

    def __init__(self, rules: MackeRules):
        mt = build_macke_tables(rules)
        tt = build_tables(ScoringRules(6, rules.six_of_kind))
        self.rules = rules
        self.ordered = np.ascontiguousarray(tt.ordered)
        self.ordered_off = np.ascontiguousarray(tt.ordered_off)
        ak = mt.all_keep
        self.keep_dice = np.where(ak >= 0, mt.state_dice[np.maximum(ak, 0)], 0).astype(np.int64)
        self.keep_pts = np.where(ak >= 0, mt.state_pts[np.maximum(ak, 0)], 0).astype(np.int64)
        self.win = np.ascontiguousarray(mt.win)
        self.params = np.array([
            rules.n_dice,
            rules.throws,
            rules.min_score // POINT_UNIT,
            1 if rules.bust == "zero" else 0,
            rules.win_value // POINT_UNIT,
        ], dtype=np.int64)

    def args(self):
        return (self.ordered, self.ordered_off, self.keep_dice, self.keep_pts, self.win,
                self.params)


@njit(cache=True)
def play_turn(st, pol, ordered, ordered_off, keep_dice, keep_pts, win, params):
    """One turn. Returns (result, turn total, throws, clears, end); points in units of 50."""
    n = params[0]
    throws = params[1]
    min_score = params[2]
    bust_zero = params[3] == 1
    locked = 0
    aside_dice = 0
    aside_pts = 0
    left = throws
    n_throws = 0
    clears = 0
    while True:
        dice = n - aside_dice
        ms = ordered[ordered_off[dice] + below(st, _POW6[dice])]
        n_throws += 1
        total = locked + aside_pts
        if win[ms]:
            return params[4], total, n_throws, clears, END_WIN
        used = keep_dice[ms]
        if used == 0:  # Macke: 0 on the turn's first throw, else -total (or 0)
            if n_throws == 1 or bust_zero:
                return 0, total, n_throws, clears, END_MACKE
            return -total, total, n_throws, clears, END_MACKE
        aside_dice += used
        aside_pts += keep_pts[ms]
        total += keep_pts[ms]
        left -= 1
        if aside_dice == n:  # a clear: bank, or a new series with the total locked
            clears += 1
            if total >= pol[left, 0]:
                break
            locked = total
            aside_dice = 0
            aside_pts = 0
            left = throws
        elif left == 0 or total >= pol[left, n - aside_dice]:
            break
    if total >= min_score:
        return total, total, n_throws, clears, END_BANK
    return -total, total, n_throws, clears, END_BANK


@njit(cache=True, parallel=True)
def simulate_batch(pols, seed, start, n_turns, block, ordered, ordered_off, keep_dice,
                   keep_pts, win, params):
    """Sums over ``n_turns`` turns for each policy of the batch.

    Returns int64 ``out[p, b, k]`` per policy p and block b, k one of the
    column constants: sum of results (units of 50), sum of squares, turns
    with result > 0, < 0, == 0, Mackes, throws, clears, instant wins.
    """
    n_pol = pols.shape[0]
    n_blocks = (n_turns + block - 1) // block
    out = np.zeros((n_pol, n_blocks, N_SUMS), dtype=np.int64)
    for job in prange(n_pol * n_blocks):
        p = job // n_blocks
        b = job % n_blocks
        pol = pols[p]
        st = np.empty(1, dtype=np.uint64)
        s = 0
        s2 = 0
        pos = 0
        neg = 0
        zero = 0
        mackes = 0
        th = 0
        cl = 0
        wins = 0
        for i in range(b * block, min(n_turns, (b + 1) * block)):
            st[0] = stream_start(seed, np.uint64(start + i))
            v, tot, nt, nc, end = play_turn(st, pol, ordered, ordered_off, keep_dice,
                                            keep_pts, win, params)
            s += v
            s2 += v * v
            if v > 0:
                pos += 1
            elif v < 0:
                neg += 1
            else:
                zero += 1
            if end == END_MACKE:
                mackes += 1
            elif end == END_WIN:
                wins += 1
            th += nt
            cl += nc
        out[p, b, SUM] = s
        out[p, b, SUM_SQ] = s2
        out[p, b, N_POSITIVE] = pos
        out[p, b, N_NEGATIVE] = neg
        out[p, b, N_ZERO] = zero
        out[p, b, N_MACKE] = mackes
        out[p, b, N_THROWS] = th
        out[p, b, N_CLEARS] = cl
        out[p, b, N_WINS] = wins
    return out


@njit(cache=True, parallel=True)
def simulate_turns(pol, seed, start, n_turns, block, ordered, ordered_off, keep_dice,
                   keep_pts, win, params):
    """Per-turn results: int64 ``out[i] = (result, turn total, throws, clears, end)``."""
    out = np.zeros((n_turns, 5), dtype=np.int64)
    n_blocks = (n_turns + block - 1) // block
    for b in prange(n_blocks):
        st = np.empty(1, dtype=np.uint64)
        for i in range(b * block, min(n_turns, (b + 1) * block)):
            st[0] = stream_start(seed, np.uint64(start + i))
            v, tot, nt, nc, end = play_turn(st, pol, ordered, ordered_off, keep_dice,
                                            keep_pts, win, params)
            out[i, 0] = v
            out[i, 1] = tot
            out[i, 2] = nt
            out[i, 3] = nc
            out[i, 4] = end
    return out

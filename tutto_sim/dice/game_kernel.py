"""The dice games' game loop in numba, shared by Tutto's and Macke's game kernels.

Each game kernel keeps its turn; the game around it is here, with the end
rules of ``dice.game`` (``round_end``, ``immediate``, instant wins, the cap):
:func:`start_game`, :func:`next_turn`, :func:`turn_played` and :func:`close_game`
play it (turn count, finisher, end in registers); how a game ended is one of
``OVER_*``, which each game maps to its own end kinds. Game ``g`` reads stream
``(seed, g)``; its lineup is ``lineups[g % L]`` rotated by ``r = (g // L) % n``:
seat j gets bot ``lineups[g % L, (j + r) % n]`` (``core.tournament.seat_bots``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tutto_sim.core.blocks import BLOCK, record_result, run_game_blocks
from tutto_sim.core.streams import stream_start

#: How a game ended (``NOT_OVER``: it goes on).
OVER_FINISHED, OVER_TARGET, OVER_INSTANT, OVER_CAP = range(4)
NOT_OVER = -1
#: Lower than any score (scores may be negative in Macke).
NO_SCORE = -(1 << 62)


def stack_rows(arrays: list, axis: int, rows: int) -> np.ndarray:
    """The bots' arrays stacked along a first axis, each padded to ``rows`` along
    ``axis`` by repeating its last row (a larger total uses the last row anyway)."""
    def pad(a):
        widths = [(0, 0)] * a.ndim
        widths[axis] = (0, max(0, rows - a.shape[axis]))
        return np.pad(a, widths, mode="edge")
    return np.ascontiguousarray(np.stack([pad(a) for a in arrays]))


@njit(cache=True)
def game_scratch(n):
    """A game kernel call's scratch arrays: stream state, bots by seat, scores."""
    return np.empty(1, dtype=np.uint64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)


@njit(cache=True, inline="always")
def start_game(seed, g, lineups, seats, scores, st):
    """Seat game ``g``'s lineup, zero the scores, start its stream."""
    n_lineups, n = lineups.shape
    line = g % n_lineups
    r = (g // n_lineups) % n
    for j in range(n):
        seats[j] = lineups[line, (j + r) % n]
        scores[j] = 0
    st[0] = stream_start(seed, np.uint64(g))


@njit(cache=True, inline="always")
def next_turn(turn, finisher, n, round_end, max_turns):
    """The next turn's seat, and ``OVER_FINISHED``, ``OVER_CAP`` or ``NOT_OVER``."""
    me = turn % n
    if finisher >= 0 and me == (0 if round_end else finisher):
        return me, OVER_FINISHED
    if finisher < 0 and me == 0 and turn >= max_turns:
        return me, OVER_CAP
    return me, NOT_OVER


@njit(cache=True, inline="always")
def turn_played(me, v, won, turn, finisher, scores, bsum, bsq, row, target, immediate):
    """Seat ``me``'s turn added ``v`` (``won``: an instant win): the turns played,
    the finisher, and ``OVER_INSTANT``, ``OVER_TARGET`` or ``NOT_OVER``."""
    bsum[row, me] += v
    bsq[row, me] += v * v
    if won:
        return turn + 1, finisher, OVER_INSTANT
    scores[me] += v
    if scores[me] >= target:
        if immediate:
            return turn + 1, finisher, OVER_TARGET
        if finisher < 0:
            finisher = me
    return turn + 1, finisher, NOT_OVER


@njit(cache=True, inline="always")
def close_game(me, turn, over, ends, scores, n, row, turns, end, score, share):
    """Record game ``row``: its turns, its end kind ``ends[over]``, scores and win shares."""
    turns[row] = turn
    end[row] = ends[over]
    winner = me if over == OVER_INSTANT or over == OVER_TARGET else -1
    record_result(scores, winner, n, score[row], share[row])


@njit(cache=True)
def endgame_banks(table_banks, gain, me, n, scores, target, last_turn):
    """The endgame bot's bank decision (banking adds ``gain``): press on when
    behind in its last turn, bank at once when banking reaches the target,
    else what the table says."""
    mine = scores[me] + gain
    if last_turn:
        best = NO_SCORE
        for q in range(n):
            if q != me and scores[q] > best:
                best = scores[q]
        if mine < best:
            return False
    if mine >= target:
        return True
    return table_banks


class DiceGameKernel:
    """A game kernel's inputs (``config``, ``bots``, ``data``, ``params``, set by
    the game) ready to run its ``play_games`` (``core.blocks.run_game_blocks``)."""

    play_games = None

    def check(self, lineups: np.ndarray) -> None:  # refuse lineups the game cannot play
        pass

    def run(self, seed: int, start: int, n_games: int, lineups: np.ndarray,
            threads: int | None = None, block: int = BLOCK):
        """Play games ``start .. start+n_games-1``; per-game arrays
        ``(share, score, bsum, bsq, turns, end)`` (the game's ``play_games``)."""
        lineups = np.ascontiguousarray(lineups, dtype=np.int64)
        self.check(lineups)
        return run_game_blocks(type(self).play_games, seed, start, n_games, lineups, self.bots,
                               self.data, self.params, threads, block)

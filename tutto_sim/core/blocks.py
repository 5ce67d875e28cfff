"""Fixed blocks of work on threads: results that do not depend on the thread count.

Game-independent. Work (turns or games) is cut into fixed blocks; every turn
or game reads its own random stream derived from (seed, index), and results
are integer sums, so the same seed gives the same numbers on 1 or many
threads (and, later, on a cluster). ``run_chunked`` drives turn kernels in
chunks (progress bar, Ctrl-C keeps what finished); ``run_game_blocks`` drives
game kernels; ``record_result`` is the numba helper that turns final scores
into integer win shares; ``chunks`` cuts a solver's long kernel run into calls.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from numba import njit

#: Win shares are integers: 840 = lcm(1..8) parts per win, 840/k to each of k tied winners.
SHARE = 840
#: Games per unit of parallel work.
BLOCK = 512
#: A long kernel run of a solver (a stage of the last turns, a sweep, an end phase) is cut
#: into this many calls, so that a bar shows how far it is and Ctrl-C is heard between them.
CHUNKS = 40


def chunks(total: int, k: int = CHUNKS) -> list[tuple[int, int]]:
    """``(lo, hi)`` ranges that cover ``0 .. total`` in about ``k`` calls.

    >>> chunks(5, 2)
    [(0, 3), (3, 5)]
    """
    size = max(1, -(-total // k))
    return [(lo, min(lo + size, total)) for lo in range(0, total, size)]


@njit(cache=True, inline="always")
def record_result(scores, winner, n, score_row, share_row):
    """Final scores and win shares of one game: the winner takes all
    (Kleeblatt, instant win, ``immediate``), else the top scores share it."""
    top = scores[0]
    for j in range(n):
        score_row[j] = scores[j]
        top = max(top, scores[j])
    if winner >= 0:
        share_row[winner] = SHARE
        return
    k = 0
    for j in range(n):
        if scores[j] == top:
            k += 1
    for j in range(n):
        if scores[j] == top:
            share_row[j] = SHARE // k


def run_game_blocks(play_games, seed, start, n_games, lineups, bots, data, params,
                    threads=None, block=BLOCK):
    """Run a game kernel's ``play_games`` (a dice game's) over fixed blocks.

    Blocks of ``block`` consecutive games run on ``threads`` threads (numba's
    setting by default); each block's games are fixed, so the results do not
    depend on the number of threads. Returns the per-game arrays
    ``(share, score, bsum, bsq, turns, end)``.
    """
    n = lineups.shape[1]
    share = np.zeros((n_games, n), dtype=np.int32)
    score = np.zeros((n_games, n), dtype=np.int32)
    bsum = np.zeros((n_games, n), dtype=np.int64)
    bsq = np.zeros((n_games, n), dtype=np.int64)
    turns = np.zeros(n_games, dtype=np.int32)
    end = np.zeros(n_games, dtype=np.int8)

    def run(b0: int) -> None:
        b1 = min(n_games, b0 + block)
        rows = slice(b0, b1)
        play_games(np.uint64(seed), start + b0, start + b1, lineups, *bots, *data, params,
                   share[rows], score[rows], bsum[rows], bsq[rows], turns[rows], end[rows])

    threads = threads or numba.get_num_threads()
    starts = range(0, n_games, block)
    if threads == 1 or len(starts) == 1:
        for b0 in starts:
            run(b0)
    else:  # the kernel releases the GIL: plain threads run the blocks in parallel
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(run, starts))
    return share, score, bsum, bsq, turns, end


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (None: all); returns the number in use."""
    limit = numba.config.NUMBA_NUM_THREADS
    if threads is not None:
        if not 1 <= threads <= limit:
            raise ValueError(f"--threads must be 1..{limit} on this machine, not {threads}")
        numba.set_num_threads(threads)
    return numba.get_num_threads()

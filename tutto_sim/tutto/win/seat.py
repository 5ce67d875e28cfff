r"""Which two-player state a seat at a table of N plays to win by.

Part of the game layer, beside the ``winopt`` bot (``tutto.bots.WinOptBot``
in the reference game, ``tutto.win.bot_kernel`` in the game kernel). The win
table (``tutto.win.solve2``) is exact for two players; at a table of three or
more the bot plays the two-player table's decisions in a reduced state:

* **own score** against **the leader among the others** (the strongest
  opponent: the highest banked score of the other players);
* **seat**: under game end ``round`` the two-player table's second seat
  (seat 1) when no opponent moves after this seat in the round (the last
  seat, N - 1), else its first seat (seat 0): the last to move knows that
  nobody answers him in this round, everyone else still faces a reply;
  under ``immediate`` the same;
* **last round** (someone has reached the target, game end ``round``): seat
  1's last turn against the leader's margin, for every seat that still
  moves (it must pass the best score at the table to win).

With two players this is the table itself: seat ``me``, the other's score,
and the last round only in seat 1. :func:`two_player_state` is the one place
that decides it, called by both engines with the same numbers (the tests
demand the same games); an exact N-player table (where one fits) would be
chosen here. numba compiles this function into the kernels that call it
(``tutto.game_kernel``, ``tutto.win.bot_kernel``, ``tutto.win.kernel_n``),
whose caches are keyed by their own files' text: after a change here, delete
``tutto_sim/tutto/__pycache__/game_kernel.*.nb*`` and, in
``tutto_sim/tutto/win/__pycache__/``, ``bot_kernel.*.nb*`` and
``kernel_n.*.nb*``, or the kernels play the old reduction.

Measured (docs/win.md, *At tables of three and four*): to 1,000 with the
cards independent, the second seat for the last of the round wins 0.6
points more in that seat at three players than the first seat everywhere.
"""

from __future__ import annotations

from numba import njit

#: Lower than any score.
_NO_SCORE = -(1 << 62)


@njit(cache=True)
def two_player_state(scores, me, n):
    """``(seat, own, other)`` of the two-player win table for seat ``me`` at a
    table of ``n`` with ``scores`` (units of 50, the banked scores before
    this turn's deductions): the table's seat (1 for the last seat of the
    round, else 0), own score and the leader's among the others."""
    other = _NO_SCORE
    for q in range(n):
        if q != me and scores[q] > other:
            other = scores[q]
    return (1 if me == n - 1 else 0), scores[me], other

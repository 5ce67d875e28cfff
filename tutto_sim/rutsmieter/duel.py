"""Exact win probabilities of a two-player Rutsmieter game with one piece each.

A companion of ``solo`` (rules → reference → kernel → solo, duel): an exact
figure for the smallest game in which the players meet. Two players sit
opposite (seats 0 and 2, start squares 0 and 20), each with **one piece**;
the first to bring it into the goal lane wins.

No choices
----------
With one piece a throw allows at most one move: leaving the house (a 6 while
the piece is in the house) or walking that piece. So every option that
narrows the moves is idle: ``must_leave_house`` (leaving is the only move a 6
allows in the house, and with the piece in the house no own piece stands on
the start square), ``must_capture`` (a single move is kept either way),
``goal_no_jump`` (no own piece to jump over). ``play_to_third`` ends a
two-player game at the first winner as well. None of the four house rules
changes the game (tested: the same chain, to the last bit, for all 16
settings). The game is a Markov chain, not a decision problem; the chain is
built from the reference engine (``legal_moves``, ``apply_move``,
``only_six_helps``), and building it checks that no throw ever leaves two
moves.

States
------
``(a, b, mover, tries)``: ``a`` and ``b`` the positions of the first and
second player's pieces in their own counts (house ``-1``, ring ``0..39``;
a piece reaching ``40..43`` ends the game), never on the same ring square
(the first player's ``a`` is ring square ``a``, the second's ``b`` is ring
square ``(b + 20) mod 40``); ``mover`` is the player throwing; ``tries`` the
throws left in the current run under the three-throws rule: ``3, 2, 1`` while
the mover's piece is in the house (only a 6 helps), else ``1``. Boards:
``41 · 41 − 40 = 1,641``; states ``2 · (1,600 + 41 · 3) = 3,446``.

A throw ``d`` (probability 1/6) from ``(a, b, mover, tries)``:

- the move, if any, is made (a capture sends the other piece home); a piece
  entering the goal lane ends the game: the mover wins;
- after a 6 the mover throws again: a new run, ``tries`` = 3 if only a 6 can
  help, else 1;
- otherwise, with ``tries > 1`` the mover throws again in the same run
  (``tries − 1``), else the other player begins a run.

Values
------
``W(s)`` = P(first player wins), ``L(s)`` = P(second player wins),
``T(s)`` = expected throws still to come (every throw counts, rethrows after
6s and the three-throws tries alike)::

    W(s) = 1/6 Σ_d W(s_d),   L(s) = 1/6 Σ_d L(s_d),   T(s) = 1 + 1/6 Σ_d T(s_d)

with ``W = 1, L = 0`` where the first player has just won, ``W = 0, L = 1``
where the second has, ``T = 0`` at both. Captures send pieces home, so the
chain has cycles: :func:`solve_duel` iterates the three equations together
(Jacobi sweeps from 0) until no value moves by more than ``tol`` (1e-12), and
:func:`solve_duel_direct` solves the same linear system ``(I − Q) x = r``
with numpy, the cross-check. The game starts at ``(−1, −1, 0, 3)``.

>>> chain = duel_chain()
>>> chain.states == 2 * ((41 * 41 - 40 - 41) + 41 * 3)
True
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from itertools import product

import numpy as np

from .reference import Board, apply_move, legal_moves, only_six_helps
from .rules import FIRST_GOAL, HOUSE, RING, SEAT_SPACING, THREE_THROWS, RutsmieterRules

#: The two seats of a two-player table (opposite each other).
SEATS = (0, 2)
#: Value iteration stops when no value moves by more than this in a sweep.
TOL = 1e-12
#: Safety net on the sweeps (convergence takes a few hundred).
MAX_SWEEPS = 1_000_000
#: Positions a piece can hold while the game goes on: house and ring.
POSITIONS = range(HOUSE, FIRST_GOAL)
#: W, L, T where the first player has just won (row 0) and the second (row 1).
TERMINAL = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


def _same_square(a: int, b: int) -> bool:
    """Both pieces on the ring, on one square (impossible: one would be captured)."""
    return a >= 0 and b >= 0 and a == (b + SEAT_SPACING * SEATS[1]) % RING


def _board(a: int, b: int) -> Board:
    return Board(SEATS, [[a], [b]])


@dataclass(frozen=True)
class DuelChain:
    """The Markov chain: ``keys[i]`` = ``(a, b, mover, tries)`` of state ``i``;
    ``succ[i, d - 1]`` the state after throw ``d``, or ``states`` where the
    first player has won, ``states + 1`` where the second has."""

    keys: tuple[tuple[int, int, int, int], ...]
    index: dict
    succ: np.ndarray

    @property
    def states(self) -> int:
        return len(self.keys)

    @property
    def start(self) -> int:
        return self.index[(HOUSE, HOUSE, 0, THREE_THROWS)]


def duel_chain(rules: RutsmieterRules = RutsmieterRules()) -> DuelChain:
    """Build the chain from the reference engine's moves (module docstring).

    Raises ``AssertionError`` if a throw ever left two legal moves: then the
    game would not be a Markov chain."""
    rules_2 = dataclasses.replace(rules, players=2)
    six_only = {}  # (a, b, player) -> only a 6 helps: the run has three tries

    def run_start(a: int, b: int, player: int) -> tuple[int, int, int, int]:
        key = (a, b, player)
        if key not in six_only:
            six_only[key] = only_six_helps(_board(a, b), player, rules_2)
        return a, b, player, THREE_THROWS if six_only[key] else 1

    keys = []
    for a, b, mover in product(POSITIONS, POSITIONS, (0, 1)):
        if _same_square(a, b):
            continue
        top = run_start(a, b, mover)[3]
        keys.extend((a, b, mover, tries) for tries in range(top, 0, -1))
    index = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    succ = np.empty((n, 6), np.int64)
    for i, (a, b, mover, tries) in enumerate(keys):
        for die in range(1, 7):
            board = _board(a, b)
            moves = legal_moves(board, mover, die, rules_2)
            if len(moves) > 1:
                raise AssertionError(f"a choice at {(a, b, mover, tries)} with a {die}")
            if moves:
                apply_move(board, mover, moves[0])
                if board.finished(mover):
                    succ[i, die - 1] = n + mover
                    continue
            na, nb = board.pieces[0][0], board.pieces[1][0]
            if die == 6:  # after every 6 the same player throws again: a new run
                nxt = run_start(na, nb, mover)
            elif tries > 1:  # the three-throws run goes on
                nxt = (na, nb, mover, tries - 1)
            else:
                nxt = run_start(na, nb, 1 - mover)
            succ[i, die - 1] = index[nxt]
    return DuelChain(tuple(keys), index, succ)


@dataclass(frozen=True)
class DuelResult:
    """Exact figures from the start (both pieces in the house, the first player
    to throw), and the values of every state (arrays by state index)."""

    p_first_wins: float
    p_second_wins: float
    expected_throws: float
    states: int
    #: Sweeps of value iteration, and the largest change in the last one.
    iterations: int
    residual: float
    seconds: float
    chain: DuelChain
    #: Columns: P(first wins), P(second wins), expected throws still to come.
    values: np.ndarray

    def value(self, a: int, b: int, mover: int, tries: int = 1) -> tuple[float, float, float]:
        """``(W, L, T)`` of state ``(a, b, mover, tries)`` (module docstring)."""
        return tuple(float(v) for v in self.values[self.chain.index[(a, b, mover, tries)]])


def solve_duel(rules: RutsmieterRules = RutsmieterRules(), tol: float = TOL,
               chain: DuelChain | None = None) -> DuelResult:
    """Value iteration (Jacobi sweeps from 0) to ``tol`` over the whole chain."""
    t0 = time.perf_counter()
    chain = chain if chain is not None else duel_chain(rules)
    n = chain.states
    ext = np.zeros((n + 2, 3))
    ext[n:] = TERMINAL
    step = np.array([0.0, 0.0, 1.0])  # every throw counts
    residual = np.inf
    sweeps = 0
    while residual > tol:
        if sweeps >= MAX_SWEEPS:
            raise RuntimeError(f"no convergence in {MAX_SWEEPS} sweeps (residual {residual})")
        new = ext[chain.succ].sum(axis=1) / 6.0 + step
        residual = float(np.abs(new - ext[:n]).max())
        ext[:n] = new
        sweeps += 1
    w, lose, t = ext[chain.start]
    return DuelResult(float(w), float(lose), float(t), n, sweeps, residual,
                      time.perf_counter() - t0, chain, ext[:n].copy())


def solve_duel_direct(chain: DuelChain) -> np.ndarray:
    """The same values by one linear solve: ``(I − Q) x = r`` (columns W, L, T)."""
    n = chain.states
    q = np.zeros((n, n))
    r = np.zeros((n, 3))
    r[:, 2] = 1.0
    for i in range(n):
        for j in chain.succ[i]:
            if j < n:
                q[i, j] += 1.0 / 6.0
            else:
                r[i] += TERMINAL[j - n] / 6.0
    return np.linalg.solve(np.eye(n) - q, r)

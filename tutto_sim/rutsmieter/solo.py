"""Exact expected throws for one player alone bringing all pieces home.

Last link of the game's chain (rules → reference → kernel → solo): a check
on both engines that does not come from simulation. Alone on the board no
piece is ever captured, so the game is a Markov chain over *placements*.

States and moves
----------------
A placement is the multiset ``s`` of the player's piece positions
(house ``-1``, ring ``0..39``, goal lane ``40..43``; pieces off the house on
distinct squares), ``Σ_{j≤4} C(44, j) = 149,986`` placements for 4 pieces.
A throw ``d`` allows the moves of ``reference.legal_moves`` (leaving the
house, walking exactly, no landing on an own piece, ``goal_no_jump``, and the
obligations leave-the-house and clear-the-start-square; capture never
arises). ``A(s, d)`` is that set and ``D(s) = {d : A(s, d) ≠ ∅}``.

Expected throws
---------------
Every throw counts: the rethrows after 6s and those of the three-throws rule
alike. The three-throws rule only groups throws into turns; alone, a throw
that cannot move is followed by another throw in any case, so the number of
throws does not depend on it. With ``E(s)`` the expected throws still needed
from ``s`` and ``E = 0`` when every piece is in the goal lane::

    E(s) = 1 + 1/6 Σ_{d ∈ D(s)} E(π(s, d)) + (6 - |D(s)|)/6 · E(s)
    ⇔ E(s) = (6 + Σ_{d ∈ D(s)} E(π(s, d))) / |D(s)|

for a policy ``π`` (the placement after its move); the throw-minimising
policy takes ``min_{a ∈ A(s, d)}`` inside the sum (Bellman). Every move
raises the sum of positions (leaving the house ``-1 → 0`` too), so the chain
is acyclic but for the self-loops of passed throws: solving the placements in
order of decreasing sum gives ``E`` exactly, without iteration.

>>> one = solo_expected_throws(pieces=1)
>>> round(one.first, 9) == round(one.optimal, 9)   # one piece: nothing to choose
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from numba import njit

from .policy import FEATURES
from .reference import Bot, Observation, apply_move
from .rules import FIRST_GOAL, HOUSE, LAST_POSITION, PIECES, RutsmieterRules

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Rutsmieter solo solver's kernels"

#: Digits of the placement code: positions -1..43 as 0..44.
_BASE = LAST_POSITION + 2
POLICY_FIRST, POLICY_OPTIMAL, POLICY_WEIGHTS = 0, 1, 2
#: Where the features a lone player's moves can differ in stand in
#: ``policy.FEATURES`` (the others are 0 without opponents).
_F = {f: FEATURES.index(f) for f in ("progress", "leave_house", "enter_goal", "block_start",
                                     "goal_loose", "own_progress", "own_goal", "own_house")}
F_PROGRESS, F_LEAVE, F_ENTER, F_BLOCK, F_LOOSE, F_OWN_PROGRESS, F_OWN_GOAL, F_OWN_HOUSE = _F.values()


def placements(pieces: int = PIECES) -> np.ndarray:
    """Every placement as a sorted row of positions, in order of decreasing sum."""
    rows = []
    for on_board in range(pieces + 1):
        for combo in itertools.combinations(range(LAST_POSITION + 1), on_board):
            rows.append((HOUSE,) * (pieces - on_board) + combo)
    arr = np.array(rows, dtype=np.int64).reshape(len(rows), pieces)
    order = np.argsort(-arr.sum(axis=1), kind="stable")
    return arr[order]


@njit(cache=True)
def _code(x):
    c = 0
    for v in x:
        c = c * _BASE + v + 1
    return c


@njit(cache=True)
def _after(x, i, end, out):
    """``out`` = placement ``x`` with piece ``i`` moved to ``end``, sorted."""
    k = x.shape[0]
    for j in range(k):
        out[j] = end if j == i else x[j]
    out.sort()


@njit(cache=True)
def _moves(x, die, must_leave, no_jump, mv_from, mv_to):
    """Indices into the sorted placement ``x`` of the pieces that may move, with ends."""
    k = x.shape[0]
    cnt = 0
    waiting = x[0] == HOUSE
    start_own = False
    for j in range(k):
        if x[j] == 0:
            start_own = True
    left = False
    for j in range(k):
        p = x[j]
        if p == HOUSE:
            if die == 6 and not left and not start_own:
                left = True
                mv_from[cnt] = j
                mv_to[cnt] = 0
                cnt += 1
            continue
        end = p + die
        if end > LAST_POSITION:
            continue
        ok = True
        for q in range(k):
            y = x[q]
            if y == end:
                ok = False
            if no_jump and end >= FIRST_GOAL and max(p, FIRST_GOAL - 1) < y < end:
                ok = False
        if ok:
            mv_from[cnt] = j
            mv_to[cnt] = end
            cnt += 1
    if must_leave and waiting and cnt > 0:
        pick = -1
        for i in range(cnt):
            if x[mv_from[i]] == HOUSE:
                pick = i
        if pick < 0:
            for i in range(cnt):
                if x[mv_from[i]] == 0:
                    pick = i
        if pick >= 0:
            mv_from[0] = mv_from[pick]
            mv_to[0] = mv_to[pick]
            cnt = 1
    return cnt


@njit(cache=True)
def _weights_score(start, end, after, w):
    """The weights bot's score (``policy.WeightsPolicy.score``) of a lone
    player's move from ``start`` to ``end`` with ``after`` the placement after
    it: the features are counted here from their definitions (docs/rutsmieter.md,
    "The weights bot"), those a lone player always has at 0 left out (adding
    ``w · 0`` changes no sum), the others added in the order of the features."""
    k = after.shape[0]
    has0 = False
    house = 0
    goal = 0
    loose = 0
    prog = 0
    for j in range(k):
        y = after[j]
        prog += y + 1
        if y == 0:
            has0 = True
        if y == HOUSE:
            house += 1
        if y >= FIRST_GOAL:
            goal += 1
            for sq in range(y + 1, LAST_POSITION + 1):
                free = True
                for q in range(k):
                    if after[q] == sq:
                        free = False
                if free:
                    loose += 1
                    break
    total = 0.0
    total += w[F_PROGRESS] * (end - start)
    total += w[F_LEAVE] * (1 if start == HOUSE else 0)
    total += w[F_ENTER] * (1 if (start < FIRST_GOAL and end >= FIRST_GOAL) else 0)
    total += w[F_BLOCK] * (1 if (has0 and house > 0) else 0)
    total += w[F_LOOSE] * loose
    total += w[F_OWN_PROGRESS] * prog
    total += w[F_OWN_GOAL] * goal
    total += w[F_OWN_HOUSE] * house
    return total


@njit(cache=True)
def _solve(states, policy, must_leave, no_jump, value, w):
    """Fill ``value[code]`` for every placement (rows in order of decreasing sum);
    ``w``: the weights of :data:`POLICY_WEIGHTS`."""
    k = states.shape[1]
    mv_from = np.zeros(k, np.int64)
    mv_to = np.zeros(k, np.int64)
    nxt = np.zeros(k, np.int64)
    for r in range(states.shape[0]):
        x = states[r]
        if x[0] >= FIRST_GOAL:  # sorted: every piece in the goal lane
            value[_code(x)] = 0.0
            continue
        total = 6.0
        movable = 0
        for die in range(1, 7):
            cnt = _moves(x, die, must_leave, no_jump, mv_from, mv_to)
            if cnt == 0:
                continue
            movable += 1
            best = np.inf
            best_start = -2
            best_score = 0.0
            for i in range(cnt):
                _after(x, mv_from[i], mv_to[i], nxt)
                e = value[_code(nxt)]
                start = x[mv_from[i]]
                if policy == POLICY_FIRST:
                    if start > best_start:
                        best_start = start
                        best = e
                elif policy == POLICY_WEIGHTS:
                    # the highest score, ties to the piece furthest along (starts differ)
                    score = _weights_score(start, mv_to[i], nxt, w)
                    if i == 0 or score > best_score or (score == best_score and start > best_start):
                        best_score = score
                        best_start = start
                        best = e
                elif e < best:
                    best = e
            total += best
        value[_code(x)] = total / movable if movable > 0 else np.inf


@dataclass(frozen=True)
class SoloResult:
    """Exact expected throws from the start (all pieces in the house)."""

    first: float
    optimal: float
    pieces: int
    #: ``E`` of the throw-minimising policy for every placement, by placement code.
    optimal_values: np.ndarray

    def value(self, placement) -> float:
        """Optimal expected throws still needed from a placement (any order)."""
        return float(self.optimal_values[_code(np.sort(np.asarray(placement, np.int64)))])


def solo_expected_throws(rules: RutsmieterRules = RutsmieterRules(),
                         pieces: int = PIECES) -> SoloResult:
    """Expected throws for one player bringing ``pieces`` pieces home, under
    ``first`` and under the throw-minimising policy (module docstring).
    ``rules.players``, ``must_capture`` and ``play_to_third`` play no part."""
    states = placements(pieces)
    start = np.full(pieces, HOUSE, np.int64)
    out = []
    values = None
    for policy in (POLICY_FIRST, POLICY_OPTIMAL):
        value = np.full(_BASE ** pieces, np.nan)
        _solve(states, policy, rules.must_leave_house, rules.goal_no_jump, value, _NO_WEIGHTS)
        out.append(float(value[_code(start)]))
        values = value
    return SoloResult(out[0], out[1], pieces, values)


_NO_WEIGHTS = np.zeros(len(FEATURES))


def weights_expected_throws(weights, rules: RutsmieterRules = RutsmieterRules(),
                            pieces: int = PIECES) -> float:
    """Exact expected throws for one player bringing ``pieces`` pieces home
    with the weights bot (``policy.WeightsPolicy`` with ``weights``, all of
    ``policy.FEATURES``' or the first seven): the same chain, its move at every
    placement and throw."""
    from .policy import full_weights

    w = np.array(full_weights(weights), np.float64)
    states = placements(pieces)
    value = np.full(_BASE ** pieces, np.nan)
    _solve(states, POLICY_WEIGHTS, rules.must_leave_house, rules.goal_no_jump, value, w)
    return float(value[_code(np.full(pieces, HOUSE, np.int64))])


def optimal_solo_bot(result: SoloResult) -> Bot:
    """A bot playing the throw-minimising policy for player 0 alone (simulation checks)."""

    def choose(obs: Observation) -> int:
        def after(i: int) -> float:
            board = obs.board()
            apply_move(board, obs.player, obs.moves[i])
            return result.value(board.pieces[obs.player])

        return min(range(len(obs.moves)), key=after)

    return Bot("solo-optimal", choose)

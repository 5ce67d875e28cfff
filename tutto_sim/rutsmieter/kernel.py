"""numba kernel for whole Rutsmieter games between the built-in bots (and weights bots).

Third link of the game's chain (rules → reference → kernel → solo): the
games of ``rutsmieter.reference.play_game``, throw for throw, for every rule
option and every built-in bot, fast. The tests play both engines on the same
seeds and demand identical throws, moves, places and counts.

State (scratch arrays the caller owns; nothing is allocated per game):

``pos[4 j + k]``   position of player j's piece k in j's own count (house -1)
``board[r]``       the piece id ``4 j + k`` on ring square ``r``, or -1
``offs[j]``        ``10 · seat`` of player j: ring square of own position x is
                   ``(x + offs[j]) mod 40``
``mask[j]``        bit ``x`` set when one of player j's pieces stands at own
                   position ``x`` (ring and goal lane, 0..43): "no landing on an
                   own piece" and "no jumping in the goal lane" are one AND
``aux``            ring occupancy bitmasks (by ring square) of each player and
                   of all, pieces in each house, the piece at each own position

Speed: the deterministic bots ``first``, ``last`` and ``aggressive`` find
their move from the bitmasks (:func:`_fast_move`), without listing the moves
or looping over the pieces; ``random``, ``defensive`` and the weights bots
list the moves (:func:`_legal_moves`). The three-throws test is cached per
player until one of its pieces moves.

A game's random numbers are drawn exactly as the reference's (its module
docstring): the die ``below(6) + 1``, then, for a ``random`` bot with two
or more moves, ``below(len(moves))``. Bots are ids into
``reference.BOT_NAMES``; game ``i`` of a run plays lineup ``lineups[i % L]``
(bot id per player) and reads stream ``(seed, i)``. Ids from
:data:`BOT_WEIGHTS` on are ``weights:FILE`` bots (``rutsmieter.policy``): id
``BOT_WEIGHTS + w`` scores the moves with row ``w`` of the weights table,
features and sums in the reference's order, so the floats are the same.
Ids from :data:`BOT_EXPERT` on are expert bots (``rutsmieter.expert``): id
``BOT_EXPERT + e`` plays row ``e`` of the experts table, its rollouts being
games of the same loop (:func:`_play_rollout`) in scratch of their own.

:func:`simulate_from` plays games from a given position with a given player
to move (the reference's ``play_game(board=..., first_player=...)``): game
``i`` reads stream ``(seed, i)`` whatever the position, so games from
different positions on the same streams are common random numbers.
:func:`_set_position` builds the board from the positions, :func:`_play_on`
plays on; a game from the start is the start position with player 0 to move.

:func:`simulate` runs fixed blocks of :data:`BLOCK` games with
``numba.prange``. Every game reads only its own stream and writes only its
own rows; per-block totals are integers summed after the loop, so the results
never depend on the number of threads.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from tutto_sim.core import bots as core_bots
from tutto_sim.core.streams import below, mix64, stream_start

from .reference import BOT_NAMES, MAX_THROWS, STAT_NAMES
from .rules import SEATS, RutsmieterRules

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Rutsmieter game kernel"
COMPILE_SECONDS = 25  # the first run of its main command, 2 cores

BOT_RANDOM, BOT_FIRST, BOT_LAST, BOT_AGGRESSIVE, BOT_DEFENSIVE = range(5)
#: Bot ids from here on are weights bots: id ``BOT_WEIGHTS + w`` plays row ``w``
#: of the weights table ``wtab`` (``rutsmieter.policy.FEATURES`` order).
BOT_WEIGHTS = 5
#: Ids from here on are expert bots (``rutsmieter.expert``): id ``BOT_EXPERT + e``
#: plays row ``e`` of the experts table (its rollout policy a weights row).
BOT_EXPERT = 1 << 20
N_FEATURES = 22
N_FEATURES_V1 = 7
#: The first feature of ``policy.POSITION_FEATURES`` (the position after the move).
F_POSITION = 9
assert BOT_NAMES == ("random", "first", "last", "aggressive", "defensive")
ST_THROWS, ST_TURNS, ST_MOVES, ST_CAPTURES, ST_LOST, ST_SIXES, ST_PASSES = range(7)
assert STAT_NAMES == ("throws", "turns", "moves", "captures", "lost", "sixes", "passes")
N_STATS = len(STAT_NAMES)
# params columns
P_PLAYERS, P_MUST_LEAVE, P_MUST_CAPTURE, P_GOAL_NO_JUMP, P_PLAY_TO_THIRD = range(5)
#: Games per unit of parallel work.
BLOCK = 256

_HOUSE = -1
_RING = 40
_FIRST_GOAL = 40
_LAST = 43
_M40 = (1 << 40) - 1
# aux scratch: ring occupancy by ring square of each player, of all players,
# pieces in each player's house, and the piece index at each own position
_AUX_RING = 0
_AUX_OCC = 4
_AUX_HOME = 5
_AUX_AT = 16
_AUX_SIZE = _AUX_AT + 4 * 44


def kernel_params(rules: RutsmieterRules, players: int | None = None) -> np.ndarray:
    """The rules as the kernel's int64 ``params`` row; ``players=1`` is the solo analysis."""
    n = rules.players if players is None else players
    return np.array([n, rules.must_leave_house, rules.must_capture, rules.goal_no_jump,
                     rules.play_to_third], dtype=np.int64)


def kernel_offsets(players: int) -> np.ndarray:
    return np.array([10 * s for s in SEATS[players]], dtype=np.int64)


# -- moves -------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _square(x, off):
    # ring square of own ring position x; cheaper than Python's sign-aware %
    r = x + off
    return r - _RING if r >= _RING else r


@njit(cache=True, nogil=True, inline="always")
def _walk_ok(mask, p, x, die, no_jump):
    """May the own piece at ``x >= 0`` walk ``die`` squares?"""
    end = x + die
    if end > _LAST:
        return False
    m = mask[p]
    if (m >> end) & 1:
        return False
    if no_jump and end >= _FIRST_GOAL:
        lo = x if x > _FIRST_GOAL - 1 else _FIRST_GOAL - 1
        # own pieces strictly between lo and end
        between = ((np.int64(1) << end) - 1) ^ ((np.int64(1) << (lo + 1)) - 1)
        if m & between:
            return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _only_six_helps(pos, mask, p, no_jump):
    # A 6 out of the house is never counted here: only throws 1-5 are asked about.
    for k in range(4):
        x = pos[4 * p + k]
        if x < 0 or x == _LAST:
            continue
        for d in range(1, 6):
            if _walk_ok(mask, p, x, d, no_jump):
                return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _legal_moves(pos, board, mask, p, off, die, must_leave, must_capture, no_jump,
                 mv_piece, mv_start, mv_end, mv_victim):
    """The legal moves after the obligations, in piece order; returns their count."""
    b = 4 * p
    cnt = 0
    left = False
    waiting = False
    for k in range(4):
        x = pos[b + k]
        if x == _HOUSE:
            waiting = True
            if die == 6 and not left and not (mask[p] & 1):
                left = True
                mv_piece[cnt] = k
                mv_start[cnt] = _HOUSE
                mv_end[cnt] = 0
                mv_victim[cnt] = board[off]  # -1 or an opponent's piece on the start square
                cnt += 1
            continue
        if not _walk_ok(mask, p, x, die, no_jump):
            continue
        end = x + die
        vic = -1
        if end < _RING:
            vic = board[_square(end, off)]  # not own: _walk_ok excluded that
        mv_piece[cnt] = k
        mv_start[cnt] = x
        mv_end[cnt] = end
        mv_victim[cnt] = vic
        cnt += 1
    if cnt == 0:
        return 0
    if must_leave and waiting:
        pick = -1
        if left:  # leaving is possible: it is the only move
            for i in range(cnt):
                if mv_start[i] == _HOUSE:
                    pick = i
        else:
            for i in range(cnt):
                if mv_start[i] == 0:
                    pick = i
        if pick >= 0:
            mv_piece[0] = mv_piece[pick]
            mv_start[0] = mv_start[pick]
            mv_end[0] = mv_end[pick]
            mv_victim[0] = mv_victim[pick]
            cnt = 1
    if must_capture:
        c = 0
        for i in range(cnt):
            if mv_victim[i] >= 0:
                mv_piece[c] = mv_piece[i]
                mv_start[c] = mv_start[i]
                mv_end[c] = mv_end[i]
                mv_victim[c] = mv_victim[i]
                c += 1
        if c > 0:
            cnt = c
    return cnt


@njit(cache=True, nogil=True, inline="always")
def _leaver(pos, p):
    """The lowest-numbered piece of player p in the house (leaving is one move)."""
    b = 4 * p
    for k in range(4):
        if pos[b + k] == _HOUSE:
            return k
    return -1


@njit(cache=True, nogil=True, inline="always")
def _fast_move(pos, board, mask, aux, p, off, die, must_leave, must_capture, no_jump, bot):
    """The move of a deterministic bot (``first``, ``last``, ``aggressive``) from
    bitmasks, without listing the moves: the same move as :func:`_legal_moves`
    then :func:`_choose`. Returns ``(piece, end, victim)``, piece -1 for no
    legal move.

    In player p's own count: ``m`` has a bit per own piece off the house, so
    the pieces that may walk ``d`` are ``m & ~(m >> d)`` below ``44 - d``;
    ``opp`` has a bit per ring position that holds an opponent (the ring
    occupancy rotated by the seat), so the capturing walks end on
    ``(walk << d) & opp``. Every move has its own start (own pieces stand on
    distinct squares, leaving is one move): "furthest along" is the highest
    bit, "least far" the lowest, with leaving (start -1) below every walk.
    The obligations, in order: leave the house, clear the start square (when
    a piece waits and ``must_leave``), then the captures (``must_capture``;
    ``aggressive`` prefers a capture anyway), else the bot's best move."""
    m = mask[p]
    waiting = aux[_AUX_HOME + p] > 0
    walk = m & ((np.int64(1) << (_LAST + 1 - die)) - 1) & ~(m >> die)
    if no_jump:
        # walks into or inside the goal lane may not jump over an own piece
        entering = walk & ~((np.int64(1) << (_FIRST_GOAL - die)) - 1)
        while entering:
            x = trailing_zeros(entering)
            entering &= entering - 1
            lo = x if x > _FIRST_GOAL - 1 else _FIRST_GOAL - 1
            between = ((np.int64(1) << (x + die)) - 1) ^ ((np.int64(1) << (lo + 1)) - 1)
            if m & between:
                walk &= ~(np.int64(1) << x)
    can_leave = die == 6 and waiting and (m & 1) == 0
    if not can_leave and walk == 0:
        return -1, -1, -1
    base = _AUX_AT + 44 * p
    if must_leave and waiting:
        if can_leave:
            return _leaver(pos, p), 0, board[off]
        if walk & 1:
            return aux[base], die, board[_square(die, off)]
    occ = aux[_AUX_OCC] & ~aux[_AUX_RING + p]
    opp = ((occ >> off) | (occ << (_RING - off))) & _M40
    cap = (walk << die) & opp
    leave_cap = can_leave and (opp & 1) != 0
    if (cap != 0 or leave_cap) and (must_capture or bot == BOT_AGGRESSIVE):
        if bot == BOT_AGGRESSIVE:
            best_x = -2
            best_key = -(1 << 30)
            if leave_cap:
                best_x = _HOUSE
                best_key = pos[board[off]] * 64 + _HOUSE
            while cap:
                e = trailing_zeros(cap)
                cap &= cap - 1
                key = pos[board[_square(e, off)]] * 64 + e - die
                if key > best_key:
                    best_key = key
                    best_x = e - die
            x = best_x
        elif bot == BOT_LAST:
            x = _HOUSE if leave_cap else trailing_zeros(cap) - die
        else:
            x = 63 - leading_zeros(cap) - die if cap != 0 else _HOUSE
    elif bot == BOT_LAST:
        x = _HOUSE if can_leave else trailing_zeros(walk)
    else:
        x = 63 - leading_zeros(walk) if walk != 0 else _HOUSE
    if x == _HOUSE:
        return _leaver(pos, p), 0, board[off]
    e = x + die
    return aux[base + x], e, board[_square(e, off)] if e < _RING else -1


# -- bots ------------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _threats(pos, n, offs, p, square, victim):
    """``reference.threats`` to ring ``square`` of player p: opponent pieces
    1-6 squares behind it, plus an opponent's house on its start square, with
    ``victim`` (or -1) gone home, without touching the board."""
    total = 0
    for o in range(n):
        if o != p:
            total += _threats_by(pos, offs, o, square, victim)
    return total


@njit(cache=True, nogil=True, inline="always")
def _exposure(pos, n, offs, p, moved, new_x, victim):
    """``reference.exposure`` of player p after ``moved`` went to ``new_x``
    and ``victim`` (or -1) went home, without touching the board."""
    total = 0
    for k in range(4):
        j = 4 * p + k
        x = new_x if j == moved else pos[j]
        if x < 0 or x >= _RING:
            continue
        total += _threats(pos, n, offs, p, _square(x, offs[p]), victim)
    return total


@njit(cache=True, nogil=True, inline="always")
def _threats_by(pos, offs, o, square, victim):
    """``reference.threats_by``: pieces of player o 1-6 squares behind ring
    ``square`` along o's walk, plus 1 if it is o's start square while o has a
    piece in the house; ``victim`` (or -1) counts as gone home."""
    target = square - offs[o]
    if target < 0:
        target += _RING
    total = 0
    home = False
    for kk in range(4):
        jj = 4 * o + kk
        q = _HOUSE if jj == victim else pos[jj]
        if q == _HOUSE:
            home = True
        elif q < _RING:
            dq = target - q
            if 1 <= dq <= 6:
                total += 1
    if target == 0 and home:
        total += 1
    return total


@njit(cache=True, nogil=True, inline="always")
def _finished(pos, o):
    for kk in range(4):
        if pos[4 * o + kk] < _FIRST_GOAL:
            return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _position_features(pos, n, offs, p, need_risk, need_opp_risk):
    """``policy.position_features`` of ``pos`` for player p, as a tuple of 13
    ints (nothing allocated). ``need_risk`` False leaves the four features of
    threats to own pieces (risk_progress, start_danger, next_danger,
    own_threatened) 0, ``need_opp_risk`` False opp_risk: not computed."""
    b = 4 * p
    # own ring pieces: risk (threats × how far it has come), start danger, next danger
    risk = 0
    start_danger = 0
    next_danger = 0
    threatened = 0
    if need_risk:
        waiting = 0  # a bit per opponent with a piece in its house
        for o in range(n):
            for kk in range(4):
                if pos[4 * o + kk] == _HOUSE:
                    waiting |= 1 << o
        q = p
        for step in range(1, n):
            c = p + step
            if c >= n:
                c -= n
            if not _finished(pos, c):
                q = c
                break
        for k in range(4):
            x = pos[b + k]
            if x < 0 or x >= _RING:
                continue
            sq = _square(x, offs[p])
            r = 0
            for o in range(n):
                if o == p:
                    continue
                t = _threats_by(pos, offs, o, sq, -1)
                r += t
                if o == q:
                    next_danger += t
                if (waiting >> o) & 1:
                    target = sq - offs[o]
                    if target < 0:
                        target += _RING
                    if 1 <= target <= 6:
                        start_danger += 1
            risk += r * (x + 1)
            if r > 0:
                threatened += 1
    loose = 0
    prog = 0
    goal = 0
    house = 0
    for k in range(4):
        x = pos[b + k]
        prog += x + 1
        if x == _HOUSE:
            house += 1
        elif x >= _FIRST_GOAL:
            goal += 1
            for y in range(x + 1, _LAST + 1):
                free = True
                for kk in range(4):
                    if pos[b + kk] == y:
                        free = False
                if free:
                    loose += 1
                    break
    opp_prog = 0
    lead_prog = 0
    lead_goal = 0
    opp_house = 0
    opp_risk = 0
    for o in range(n):
        if o == p:
            continue
        po = 0
        go = 0
        for kk in range(4):
            y = pos[4 * o + kk]
            po += y + 1
            if y == _HOUSE:
                opp_house += 1
            elif y >= _FIRST_GOAL:
                go += 1
            elif need_opp_risk:
                opp_risk += _threats_by(pos, offs, p, _square(y, offs[o]), -1) * (y + 1)
        opp_prog += po
        if po > lead_prog:
            lead_prog = po
        if go > lead_goal:
            lead_goal = go
    return (risk, start_danger, next_danger, loose, prog, goal, house, threatened, opp_prog,
            lead_prog, lead_goal, opp_house, opp_risk)


@njit(cache=True, nogil=True)
def _add_position(total, pos, n, offs, p, w):
    """``total`` plus ``w[F_POSITION:]`` times ``policy.position_features`` of
    ``pos`` for player p, added one by one in their order (as the reference's
    ``score``). Features whose weights are 0 are not computed (adding 0 changes no sum)."""
    (risk, start_danger, next_danger, loose, prog, goal, house, threatened, opp_prog, lead_prog,
     lead_goal, opp_house, opp_risk) = _position_features(
        pos, n, offs, p, w[9] != 0.0 or w[10] != 0.0 or w[11] != 0.0 or w[16] != 0.0,
        w[21] != 0.0)
    total += w[9] * risk
    total += w[10] * start_danger
    total += w[11] * next_danger
    total += w[12] * loose
    total += w[13] * prog
    total += w[14] * goal
    total += w[15] * house
    total += w[16] * threatened
    total += w[17] * opp_prog
    total += w[18] * lead_prog
    total += w[19] * lead_goal
    total += w[20] * opp_house
    total += w[21] * opp_risk
    return total


@njit(cache=True, nogil=True, inline="always")
def _rank_of(pos, o):
    goal = 0
    prog = 0
    for kk in range(4):
        y = pos[4 * o + kk]
        prog += y
        if y >= _FIRST_GOAL:
            goal += 1
    return 1000 * goal + prog


@njit(cache=True, nogil=True)
def _weights_choice(w, cnt, pos, board, mask, n, offs, p, mv_start, mv_victim, mv_end):
    """``policy.WeightsPolicy.choose``: the highest score, ties to the furthest start.
    The position features are computed on ``pos`` with the move made in place
    and taken back (nothing is allocated)."""
    off = offs[p]
    b = 4 * p
    in_house = 0
    for k in range(4):
        if pos[b + k] == _HOUSE:
            in_house += 1
    use_position = False
    for f in range(F_POSITION, N_FEATURES):
        if w[f] != 0.0:
            use_position = True
    lead = -(1 << 30)
    if w[8] != 0.0:
        for o in range(n):
            if o != p and not _finished(pos, o):
                r = _rank_of(pos, o)
                if r > lead:
                    lead = r
    best = 0
    best_score = 0.0
    for i in range(cnt):
        x = mv_start[i]
        end = mv_end[i]
        vic = mv_victim[i]
        behind = 0
        ahead = 0
        if end < _RING:
            behind = _threats(pos, n, offs, p, _square(end, off), vic)
            for d in range(1, 7):
                if end + d >= _RING:
                    break
                occ = board[_square(end + d, off)]
                if occ >= 0 and (occ >> 2) != p:
                    ahead += 1
        has0 = end == 0 or (x != 0 and (mask[p] & 1) != 0)
        house_after = in_house - (1 if x == _HOUSE else 0)
        cap_prog = 0
        cap_lead = 0
        if vic >= 0:
            cap_prog = pos[vic] + 1
            if w[8] != 0.0 and _rank_of(pos, vic >> 2) == lead:
                cap_lead = 1
        total = 0.0
        total += w[0] * (end - x)
        total += w[1] * (1 if vic >= 0 else 0)
        total += w[2] * behind
        total += w[3] * ahead
        total += w[4] * (1 if x == _HOUSE else 0)
        total += w[5] * (1 if (x < _FIRST_GOAL and end >= _FIRST_GOAL) else 0)
        total += w[6] * (1 if (has0 and house_after > 0) else 0)
        total += w[7] * cap_prog
        total += w[8] * cap_lead
        if use_position:
            # the move, made in place and taken back below
            j = b
            for k in range(4):
                if pos[b + k] == x:
                    j = b + k
            if x == _HOUSE:
                j = b + _leaver(pos, p)
            old_v = 0
            if vic >= 0:
                old_v = pos[vic]
                pos[vic] = _HOUSE
            pos[j] = end
            total = _add_position(total, pos, n, offs, p, w)
            pos[j] = x
            if vic >= 0:
                pos[vic] = old_v
        if i == 0 or total > best_score or (total == best_score and x > mv_start[best]):
            best = i
            best_score = total
    return best


@njit(cache=True, nogil=True, inline="always")
def _choose(bot, cnt, chance, pos, n, offs, p, mv_piece, mv_start, mv_victim, mv_end):
    if cnt == 1:
        return 0
    if bot == BOT_RANDOM:
        return chance
    best = 0
    if bot == BOT_FIRST:
        for i in range(1, cnt):
            if mv_start[i] > mv_start[best]:
                best = i
        return best
    if bot == BOT_LAST:
        for i in range(1, cnt):
            if mv_start[i] < mv_start[best]:
                best = i
        return best
    if bot == BOT_AGGRESSIVE:
        best = -1
        for i in range(cnt):
            v = mv_victim[i]
            if v < 0:
                continue
            if best < 0 or pos[v] > pos[mv_victim[best]] or (
                    pos[v] == pos[mv_victim[best]] and mv_start[i] > mv_start[best]):
                best = i
        if best >= 0:
            return best
        best = 0
        for i in range(1, cnt):
            if mv_start[i] > mv_start[best]:
                best = i
        return best
    # defensive: least exposure after the move, then furthest along
    best_e = 1 << 30
    for i in range(cnt):
        e = _exposure(pos, n, offs, p, 4 * p + mv_piece[i], mv_end[i], mv_victim[i])
        if e < best_e or (e == best_e and mv_start[i] > mv_start[best]):
            best = i
            best_e = e
    return best


# -- a whole game ------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _set_position(n, offs, pos, board, mask, aux, active, finish, stats, six_only):
    """Build the board, bitmasks and counters from the positions in ``pos``
    (``4 n`` entries, own counts, house -1). A player with all four pieces in
    the goal lane has finished already: out of play, in ``finish`` in player
    order (as the reference). Returns the number of finished players."""
    for r in range(_RING):
        board[r] = -1
    aux[_AUX_OCC] = 0
    nfin = 0
    for j in range(n):
        mask[j] = 0
        aux[_AUX_RING + j] = 0
        aux[_AUX_HOME + j] = 0
        # the three-throws test depends on the player's own pieces only: cached
        # until one of them moves or is captured (-1 = not known)
        six_only[j] = -1
        for s in range(N_STATS):
            stats[j, s] = 0
        for k in range(4):
            x = pos[4 * j + k]
            if x == _HOUSE:
                aux[_AUX_HOME + j] += 1
                continue
            mask[j] |= np.int64(1) << x
            aux[_AUX_AT + 44 * j + x] = k
            if x < _RING:
                sq = _square(x, offs[j])
                board[sq] = 4 * j + k
                aux[_AUX_RING + j] |= np.int64(1) << sq
                aux[_AUX_OCC] |= np.int64(1) << sq
        active[j] = (mask[j] >> _FIRST_GOAL) != 15
        if not active[j]:
            finish[nfin] = j
            nfin += 1
    return nfin


@njit(cache=True, nogil=True)
def _play_game(seed, index, params, offs, bots, wtab, state, pos, board, mask, aux, mv_piece,
               mv_start, mv_end, mv_victim, active, finish, stats, places, six_only, trace):
    """Play one game from the start (every piece in the house, player 0 first);
    see :func:`_play_on`."""
    n = params[P_PLAYERS]
    for j in range(4 * n):
        pos[j] = _HOUSE
    nfin = _set_position(n, offs, pos, board, mask, aux, active, finish, stats, six_only)
    return _play_on(seed, index, params, offs, bots, wtab, 0, nfin, state, pos, board, mask, aux,
                    mv_piece, mv_start, mv_end, mv_victim, active, finish, stats, places, six_only,
                    trace, None)


def _play_on_py(seed, index, params, offs, bots, wtab, first, nfin, state, pos, board, mask, aux,
               mv_piece, mv_start, mv_end, mv_victim, active, finish, stats, places, six_only,
               trace, ex):
    """Play game ``index`` of a run with ``seed`` on from the position that
    :func:`_set_position` built, player ``first`` to throw at the start of a
    run, ``nfin`` players finished already; fills ``stats[j, :]``,
    ``places[j]`` (and ``trace`` rows ``player, die, piece, end`` while it has
    room). Returns ``(winner, throws, turns)``. ``ex``: None, or the expert
    bots' table and scratch (:func:`_expert_scratch`) when ids from
    :data:`BOT_EXPERT` on play; numba prunes the expert's code where it is None."""
    n = params[P_PLAYERS]
    must_leave = params[P_MUST_LEAVE] != 0
    must_capture = params[P_MUST_CAPTURE] != 0
    no_jump = params[P_GOAL_NO_JUMP] != 0
    need = n - 1 if (params[P_PLAY_TO_THIRD] != 0 and n > 1) else 1
    state[0] = stream_start(seed, np.uint64(index))
    n_trace = trace.shape[0]
    tracing = n_trace > 0
    throws = 0
    turns = 0
    p = first
    while nfin < need:
        turns += 1
        stats[p, ST_TURNS] += 1
        off = offs[p]
        bot = bots[p]
        fast = bot == BOT_FIRST or bot == BOT_LAST or bot == BOT_AGGRESSIVE
        turn_over = False
        while not turn_over:
            # The three-throws rule is checked before every run, also after a 6.
            if six_only[p] < 0:
                six_only[p] = 1 if _only_six_helps(pos, mask, p, no_jump) else 0
            tries = 3 if six_only[p] == 1 else 1
            six = False
            for _ in range(tries):
                die = below(state, 6) + 1
                if tracing and throws < n_trace:
                    trace[throws, 0] = p
                    trace[throws, 1] = die
                    trace[throws, 2] = -1
                    trace[throws, 3] = -1
                throws += 1
                stats[p, ST_THROWS] += 1
                if die == 6:
                    stats[p, ST_SIXES] += 1
                if fast:
                    k, end, v = _fast_move(pos, board, mask, aux, p, off, die, must_leave,
                                           must_capture, no_jump, bot)
                else:
                    cnt = _legal_moves(pos, board, mask, p, off, die, must_leave, must_capture,
                                       no_jump, mv_piece, mv_start, mv_end, mv_victim)
                    k = -1
                    end = -1
                    v = -1
                    if cnt > 0:
                        chance = 0
                        if bot == BOT_RANDOM and cnt > 1:
                            chance = below(state, cnt)
                        if bot >= BOT_WEIGHTS:
                            i = 0
                            if cnt <= 1:
                                pass
                            elif ex is None:
                                i = _weights_choice(wtab[bot - BOT_WEIGHTS], cnt, pos, board,
                                                    mask, n, offs, p, mv_start, mv_victim, mv_end)
                            elif bot >= BOT_EXPERT:
                                i = _expert_choice(ex, bot - BOT_EXPERT, cnt, nfin, die, pos,
                                                   board, mask, n, offs, p, active, params, wtab,
                                                   mv_piece, mv_start, mv_end, mv_victim)
                            else:
                                i = _weights_choice(wtab[bot - BOT_WEIGHTS], cnt, pos, board,
                                                    mask, n, offs, p, mv_start, mv_victim, mv_end)
                        else:
                            i = _choose(bot, cnt, chance, pos, n, offs, p, mv_piece, mv_start,
                                        mv_victim, mv_end)
                        k = mv_piece[i]
                        end = mv_end[i]
                        v = mv_victim[i]
                if k < 0:
                    stats[p, ST_PASSES] += 1
                else:
                    x = pos[4 * p + k]
                    six_only[p] = -1
                    if v >= 0:  # a captured piece stands on the ring, on the end square
                        vp = v >> 2
                        mask[vp] ^= np.int64(1) << pos[v]
                        aux[_AUX_RING + vp] ^= np.int64(1) << _square(end, off)
                        aux[_AUX_HOME + vp] += 1
                        pos[v] = _HOUSE
                        six_only[vp] = -1
                        stats[p, ST_CAPTURES] += 1
                        stats[vp, ST_LOST] += 1
                    if x >= 0:
                        mask[p] ^= np.int64(1) << x
                        if x < _RING:
                            sq = _square(x, off)
                            board[sq] = -1
                            aux[_AUX_RING + p] ^= np.int64(1) << sq
                            aux[_AUX_OCC] ^= np.int64(1) << sq
                    else:
                        aux[_AUX_HOME + p] -= 1
                    mask[p] |= np.int64(1) << end
                    aux[_AUX_AT + 44 * p + end] = k
                    if end < _RING:
                        sq = _square(end, off)
                        board[sq] = 4 * p + k
                        aux[_AUX_RING + p] |= np.int64(1) << sq
                        aux[_AUX_OCC] |= np.int64(1) << sq
                    pos[4 * p + k] = end
                    stats[p, ST_MOVES] += 1
                    if tracing and throws - 1 < n_trace:
                        trace[throws - 1, 2] = k
                        trace[throws - 1, 3] = end
                    if end >= _FIRST_GOAL and (mask[p] >> _FIRST_GOAL) == 15:
                        finish[nfin] = p
                        nfin += 1
                        active[p] = False
                        turn_over = True
                        break
                if throws >= MAX_THROWS:
                    turn_over = True
                    break
                if die == 6:
                    six = True
                    break  # after every 6 the same player throws again
            if not six:
                turn_over = True
        if nfin >= need or throws >= MAX_THROWS:
            break
        q = p + 1
        while True:  # next player clockwise still playing
            if q >= n:
                q = 0
            if active[q]:
                break
            q += 1
        p = q
    # places: finishers by order, the rest by (pieces in goal, progress), shared when equal
    for i in range(nfin):
        places[finish[i]] = i + 1
    for j in range(n):
        if not active[j]:
            continue
        kj = _rank_key(pos, j)
        better = 0
        for o in range(n):
            if active[o] and _rank_key(pos, o) > kj:
                better += 1
        places[j] = nfin + 1 + better
    winner = finish[0] if nfin > 0 else -1
    return winner, throws, turns


#: The game loop (:func:`_play_on_py`), and the same loop compiled apart for
#: the expert's rollouts, which it calls from inside a game: numba cannot
#: cache a function that reaches itself, two dispatchers of one loop it can.
_play_on = njit(cache=True, nogil=True)(_play_on_py)
_play_rollout = njit(cache=True, nogil=True)(_play_on_py)


# -- the expert (rutsmieter.expert) -------------------------------------------------------------

#: Columns of the experts table: rollouts per move, the weights row of its
#: rollout policy, rollouts per round, the gate's and the early end's
#: ``expert.Threshold`` (three columns each), and the bot's own seed
#: (``expert.kernel_row`` fills them).
X_BUDGET, X_ROW, X_ROUND, X_GATE, X_DONE, X_SEED = 0, 1, 2, 3, 6, 9
N_EXPERT_COLUMNS = 10
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True, inline="always")
def _hash_step(h, v):
    # expert.decision_seed: h = mix64((h xor (v + 1)) + golden)
    return mix64((h ^ np.uint64(v + 1)) + _GOLDEN)


@njit(cache=True, nogil=True, inline="always")
def _clearly_ahead(a, b, r, expert, col):
    # expert.clearly_ahead with the Threshold (num, den, small) in columns col..col+2
    num = expert[col]
    den = expert[col + 1]
    z2_den_r = num * r + expert[col + 2] * den
    d = a - b
    return d > 0 and d * d * ((r - 1) * den * r + z2_den_r) > z2_den_r * r * (a + b)


@njit(cache=True, nogil=True)
def _expert_choice(ex, e, cnt, nfin, die, pos, board, mask, n, offs, p, active, params, wtab,
                   mv_piece, mv_start, mv_end, mv_victim):
    """``expert.decide`` with the rollouts of ``expert.kernel_rollouts``: the
    same rounds, rollout games, counts and integer tests, so the same move.
    Rollouts play in the scratch of ``ex``, apart from the game's own."""
    (experts, rbots, rstate, rpos, rboard, rmask, raux, rmp, rms, rme, rmv, ractive, rfinish,
     rstats, rplaces, rsix, inits, firsts, wins, no_trace) = ex
    budget = experts[e, X_BUDGET]
    row = experts[e, X_ROW]
    preferred = _weights_choice(wtab[row], cnt, pos, board, mask, n, offs, p, mv_start, mv_victim,
                                mv_end)
    # the position after each move and who throws next; a move bringing the
    # last piece home wins outright (the preferred one if it is such a move)
    b = 4 * p
    pick = -1
    for c in range(cnt):
        for j in range(4 * n):
            inits[c, j] = pos[j]
        if mv_victim[c] >= 0:
            inits[c, mv_victim[c]] = _HOUSE
        inits[c, b + mv_piece[c]] = mv_end[c]
        home = True
        for k in range(4):
            if inits[c, b + k] < _FIRST_GOAL:
                home = False
        if home and (pick < 0 or c == preferred):
            pick = c
        q = p
        if die != 6:  # else the mover throws again
            q = p + 1
            while True:
                if q >= n:
                    q = 0
                if active[q]:
                    break
                q += 1
        firsts[c] = q
    if pick >= 0:
        return pick
    h = mix64(np.uint64(experts[e, X_SEED]))
    h = _hash_step(h, n)
    h = _hash_step(h, p)
    h = _hash_step(h, die)
    for j in range(4 * n):
        h = _hash_step(h, pos[j])
    for j in range(n):
        rbots[j] = BOT_WEIGHTS + row
    r = 0
    while True:
        count = min(experts[e, X_ROUND], budget - r)
        for c in range(cnt):
            for g in range(r, r + count):
                for j in range(4 * n):
                    rpos[j] = inits[c, j]
                nf = _set_position(n, offs, rpos, rboard, rmask, raux, ractive, rfinish, rstats,
                                   rsix)
                _play_rollout(h, g, params, offs, rbots, wtab, firsts[c], nf, rstate, rpos, rboard,
                              rmask, raux, rmp, rms, rme, rmv, ractive, rfinish, rstats, rplaces,
                              rsix, no_trace, None)
                wins[c, g] = 1 if rplaces[p] == nfin + 1 else 0
        r += count
        # expert.lead: the most wins (first such move), ties to the preferred move
        best = 0
        best_total = -1
        preferred_total = 0
        for c in range(cnt):
            t = 0
            for g in range(r):
                t += wins[c, g]
            if t > best_total:
                best_total = t
                best = c
            if c == preferred:
                preferred_total = t
        ahead = 0
        behind = 0
        if best_total == preferred_total:
            best = preferred
        else:
            for g in range(r):
                if wins[best, g] > wins[preferred, g]:
                    ahead += 1
                elif wins[best, g] < wins[preferred, g]:
                    behind += 1
        if best == preferred or r >= budget or _clearly_ahead(ahead, behind, r, experts[e],
                                                              X_DONE):
            break
    if _clearly_ahead(ahead, behind, r, experts[e], X_GATE):
        return best
    return preferred


@njit(cache=True, nogil=True)
def _expert_scratch(experts, n):
    """None without experts; else the experts table and the scratch of their
    rollouts (a game's own board, bots, moves, counters; the positions after
    each move, who throws next, the win of every rollout)."""
    if experts is None:
        return None
    longest = 1
    for e in range(experts.shape[0]):
        longest = max(longest, experts[e, X_BUDGET])
    state, pos, board, mask, aux, mp, ms, me, mv, active, finish, stats, places, six = _scratch(n)
    return (experts, np.zeros(4, np.int64), state, pos, board, mask, aux, mp, ms, me, mv, active,
            finish, stats, places, six, np.zeros((4, 16), np.int64), np.zeros(4, np.int64),
            np.zeros((4, longest), np.uint8), np.zeros((0, 4), np.int64))


@njit(cache=True, nogil=True, inline="always")
def _rank_key(pos, j):
    # pieces in the goal lane first, then progress (-4..166 fits below 1000)
    goal = 0
    prog = 0
    for k in range(4):
        x = pos[4 * j + k]
        prog += x
        if x >= _FIRST_GOAL:
            goal += 1
    return goal * 1000 + prog


@njit(cache=True, nogil=True)
def _scratch(n):
    # state, pos, board, mask, aux, move piece/start/end/victim, active, finish,
    # stats, places, six_only
    return (np.zeros(1, np.uint64), np.zeros(16, np.int64), np.zeros(_RING, np.int64),
            np.zeros(4, np.int64), np.zeros(_AUX_SIZE, np.int64),
            np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
            np.zeros(4, np.int64), np.zeros(4, np.bool_), np.zeros(4, np.int64),
            np.zeros((4, N_STATS), np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64))


def play_traced(seed, index, params, offs, bots, trace, wtab=None, pieces=None, first_player=0,
                experts=None):
    """One game with its throw log (tests): ``(winner, throws, turns, places, stats)``;
    ``wtab``: the weights table of weights bots (ids from :data:`BOT_WEIGHTS`);
    ``pieces`` (flat, ``4 n``) and ``first_player``: play on from that position
    (:func:`simulate_from`) instead of the start; ``experts``: the experts
    table of expert bots (ids from :data:`BOT_EXPERT`)."""
    n = int(params[P_PLAYERS])
    init = (np.full(4 * n, _HOUSE, np.int64) if pieces is None
            else np.ascontiguousarray(pieces, dtype=np.int64).reshape(-1))
    return _play_traced(np.uint64(seed), index, params, offs, np.asarray(bots, np.int64),
                        _wtab(wtab), trace, init, first_player, pieces is None and experts is None,
                        _experts(experts))


def _experts(experts) -> np.ndarray | None:
    if experts is None or len(experts) == 0:
        return None
    return np.ascontiguousarray(experts, dtype=np.int64).reshape(-1, N_EXPERT_COLUMNS)


def _wtab(wtab) -> np.ndarray:
    if wtab is None or len(wtab) == 0:
        return np.zeros((1, N_FEATURES), np.float64)
    rows = np.atleast_2d(np.asarray(wtab, dtype=np.float64))
    if rows.shape[1] == N_FEATURES_V1:  # the first seven features only: the others weigh 0
        rows = np.hstack([rows, np.zeros((rows.shape[0], N_FEATURES - N_FEATURES_V1))])
    return np.ascontiguousarray(rows).reshape(-1, N_FEATURES)


@njit(cache=True, nogil=True)
def _play_traced(seed, index, params, offs, bots, wtab, trace, init, first, from_start, experts):
    n = params[P_PLAYERS]
    state, pos, board, mask, aux, mp, ms, me, mv, active, finish, stats, places, six = _scratch(n)
    ex = _expert_scratch(experts, n)
    if from_start:
        w, t, u = _play_game(seed, index, params, offs, bots, wtab, state, pos, board, mask, aux,
                             mp, ms, me, mv, active, finish, stats, places, six, trace)
    else:
        for j in range(4 * n):
            pos[j] = init[j]
        nfin = _set_position(n, offs, pos, board, mask, aux, active, finish, stats, six)
        w, t, u = _play_on(seed, index, params, offs, bots, wtab, first, nfin, state, pos, board,
                           mask, aux, mp, ms, me, mv, active, finish, stats, places, six, trace, ex)
    return w, t, u, places[:n].copy(), stats[:n].copy()


@njit(cache=True, nogil=True, parallel=True)
def _run_blocks(seed, start, n_games, block, params, offs, lineups, wtab, inits, firsts, winner,
                places, throws, turns, totals, experts):
    """Games ``start .. start + n_games - 1`` from each position ``c`` of
    ``inits`` (rows of ``4 n`` positions) with player ``firsts[c]`` to move:
    game ``i`` plays lineup ``lineups[i % L]``, reads stream ``(seed, i)``
    whatever the position (common random numbers) and writes row ``(c, i - start)``.
    Work comes in fixed blocks of ``block`` games of one position, each with
    its own ``totals`` row: nothing depends on the number of threads."""
    n_blocks = (n_games + block - 1) // block
    for task in prange(inits.shape[0] * n_blocks):
        # np.int64: the parallel loop's index is unsigned inside its worker function, signed
        # when numba first types the loop; one type, one compile of the game loop, not two
        _run_task(np.int64(task), n_blocks, seed, start, n_games, block, params, offs, lineups,
                  wtab, inits, firsts, winner, places, throws, turns, totals, experts)


@njit(cache=True, nogil=True)
def _run_serial(seed, start, n_games, block, params, offs, lineups, wtab, inits, firsts, winner,
                places, throws, turns, totals, experts):
    """:func:`_run_blocks` in the calling thread: for many small runs (the
    expert's rollouts), where starting threads would cost more than it saves."""
    n_blocks = (n_games + block - 1) // block
    for task in range(inits.shape[0] * n_blocks):
        _run_task(task, n_blocks, seed, start, n_games, block, params, offs, lineups, wtab, inits,
                  firsts, winner, places, throws, turns, totals, experts)


@njit(cache=True, nogil=True)
def _run_task(task, n_blocks, seed, start, n_games, block, params, offs, lineups, wtab, inits,
              firsts, winner, places, throws, turns, totals, experts):
    """One block of :func:`_run_blocks`: position ``task // n_blocks``."""
    n = params[P_PLAYERS]
    n_lineups = lineups.shape[0]
    c = task // n_blocks
    blk = task - c * n_blocks
    # scratch once per block: the game loop allocates nothing
    state, pos, board, mask, aux, mp, ms, me, mv, active, finish, stats, pl, six = _scratch(n)
    ex = _expert_scratch(experts, n)
    no_trace = np.zeros((0, 4), np.int64)
    lo = blk * block
    hi = min(n_games, lo + block)
    for g in range(lo, hi):
        i = start + g
        bots = lineups[i % n_lineups]
        for j in range(4 * n):
            pos[j] = inits[c, j]
        nfin = _set_position(n, offs, pos, board, mask, aux, active, finish, stats, six)
        w, t, u = _play_on(seed, i, params, offs, bots, wtab, firsts[c], nfin, state, pos,
                           board, mask, aux, mp, ms, me, mv, active, finish, stats, pl, six,
                           no_trace, ex)
        winner[c, g] = w
        throws[c, g] = t
        turns[c, g] = u
        for j in range(n):
            places[c, g, j] = pl[j]
            for s in range(N_STATS):
                totals[task, j, s] += stats[j, s]


@dataclass
class RunResult:
    """Per-game results of :func:`simulate` and per-player statistic totals."""

    winner: np.ndarray  # int8 [games], -1 for a capped game
    places: np.ndarray  # int8 [games, players]
    throws: np.ndarray  # int32 [games]
    turns: np.ndarray  # int32 [games]
    totals: np.ndarray  # int64 [players, len(STAT_NAMES)]

    @property
    def games(self) -> int:
        return len(self.throws)

    def wins(self) -> np.ndarray:
        n = self.places.shape[1]
        return np.bincount(self.winner[self.winner >= 0], minlength=n)


def bot_ids(bots) -> np.ndarray:
    """Bot names (or ids) as an int64 lineup row."""
    return core_bots.bot_ids(bots, BOT_NAMES, "Rutsmieter")


def simulate(bots, rules: RutsmieterRules = RutsmieterRules(), seed: int = 0, n_games: int = 1000,
             start: int = 0, players: int | None = None, block: int = BLOCK,
             weights=None, experts=None) -> RunResult:
    """Play games ``start .. start + n_games - 1`` of a run with ``seed``.

    ``bots`` is one lineup (a bot name or id per player) or a 2-D array of
    lineups, game ``i`` playing ``lineups[i % L]``. ``players=1`` plays the
    solo analysis (one player at seat 0). ``weights``: rows of feature
    weights for the weights bots (id ``BOT_WEIGHTS + row``); ``experts``: rows
    of the experts table (``expert.kernel_row``) for expert bots (id
    ``BOT_EXPERT + row``).
    """
    params = kernel_params(rules, players)
    n = int(params[P_PLAYERS])
    inits = np.full((1, 4 * n), _HOUSE, np.int64)
    return _simulate(bots, params, inits, np.zeros(1, np.int64), seed, n_games, start, block,
                     weights, experts=experts)[0]


def simulate_from(pieces, first_player: int, bots, rules: RutsmieterRules = RutsmieterRules(),
                  seed: int = 0, n_games: int = 1000, start: int = 0, block: int = BLOCK,
                  weights=None) -> RunResult:
    """Play games ``start .. start + n_games - 1`` of a run with ``seed``, all
    from the position ``pieces`` (int array ``[players, 4]``, positions in each
    owner's count, house -1) with ``first_player`` to throw at the start of a
    run: game ``i`` reads stream ``(seed, i)``, as
    ``reference.play_game(bots, rules, seed, i, board=..., first_player=...)``.
    Players with all pieces in the goal lane have finished already (see
    ``play_game``). ``bots`` and ``weights`` as in :func:`simulate`.
    """
    return simulate_positions([pieces], [first_player], bots, rules, seed, n_games, start, block,
                              weights)[0]


def simulate_positions(positions, first_players, bots, rules: RutsmieterRules = RutsmieterRules(),
                       seed: int = 0, n_games: int = 1000, start: int = 0, block: int = BLOCK,
                       weights=None, parallel: bool = True) -> list[RunResult]:
    """:func:`simulate_from` for several positions at once, one
    :class:`RunResult` each: game ``i`` from every position reads the same
    stream ``(seed, i)`` (common random numbers: differences between the
    positions are not noise between streams). ``parallel=False`` plays in the
    calling thread (the same games)."""
    n = rules.players
    inits = np.array([check_position(p, rules) for p in positions], np.int64).reshape(-1, 4 * n)
    firsts = np.array(first_players, np.int64).reshape(-1)
    if len(firsts) != len(inits):
        raise ValueError(f"{len(inits)} positions need {len(inits)} first players, "
                         f"not {len(firsts)}")
    for c, first in enumerate(firsts):
        if not 0 <= first < n:
            raise ValueError(f"first_player must be 0..{n - 1}, not {int(first)}")
        if (inits[c, 4 * first:4 * first + 4] >= _FIRST_GOAL).all():
            raise ValueError(f"first_player {first} has finished already")
    return _simulate(bots, kernel_params(rules), inits, firsts, seed, n_games, start, block,
                     weights, parallel)


def check_position(pieces, rules: RutsmieterRules) -> np.ndarray:
    """``pieces`` (``[players, 4]``) as the kernel's flat int64 row, or
    ValueError (one line) if it is no position of the game: positions -1..43,
    no two pieces of a player on one position, no two pieces on one ring square."""
    n = rules.players
    arr = np.asarray(pieces)
    if arr.shape != (n, 4) or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"pieces must be an int array of shape ({n}, 4), not {arr.shape}")
    arr = arr.astype(np.int64)
    if arr.min() < _HOUSE or arr.max() > _LAST:
        raise ValueError("piece positions must be -1 (house) .. 43")
    squares = []
    for j, seat in enumerate(SEATS[n]):
        own = [int(x) for x in arr[j] if x >= 0]
        if len(set(own)) < len(own):
            raise ValueError(f"two pieces of player {j} on one position: {arr[j].tolist()}")
        squares += [(x + 10 * seat) % _RING for x in own if x < _RING]
    if len(set(squares)) < len(squares):
        raise ValueError("two pieces on one ring square")
    return arr.reshape(-1)


def _simulate(bots, params, inits, firsts, seed, n_games, start, block, weights,
              parallel=True, experts=None) -> list[RunResult]:
    """The games of :func:`simulate` from each row of ``inits``, one
    :class:`RunResult` per position."""
    n = int(params[P_PLAYERS])
    lineups = core_bots.lineup_rows(bots, n, BOT_NAMES, "Rutsmieter")
    wtab = _wtab(weights)
    n_weights = 0 if weights is None else len(wtab)
    experts = _experts(experts)
    n_experts = 0 if experts is None else len(experts)
    ok = (lineups >= 0) & (lineups < BOT_WEIGHTS + n_weights) | (
        (lineups >= BOT_EXPERT) & (lineups < BOT_EXPERT + n_experts))
    if not ok.all():
        raise ValueError(f"bot ids must be 0..{BOT_WEIGHTS + n_weights - 1} "
                         f"({n_weights} weights rows) or BOT_EXPERT + 0..{n_experts - 1} "
                         f"({n_experts} experts)")
    if experts is not None and not ((experts[:, X_ROW] >= 0) & (experts[:, X_ROW] < n_weights)
                                    & (experts[:, X_BUDGET] >= 1)).all():
        raise ValueError("each expert needs a budget of 1 or more and a weights row")
    m = inits.shape[0]
    winner = np.zeros((m, n_games), np.int8)
    places = np.zeros((m, n_games, n), np.int8)
    throws = np.zeros((m, n_games), np.int32)
    turns = np.zeros((m, n_games), np.int32)
    n_blocks = max(1, (n_games + block - 1) // block)
    totals = np.zeros((m * n_blocks, n, N_STATS), np.int64)
    run = _run_blocks if parallel else _run_serial
    run(np.uint64(seed), start, n_games, block, params, kernel_offsets(n), lineups, wtab, inits,
        firsts, winner, places, throws, turns, totals, experts)
    totals = totals.reshape(m, n_blocks, n, N_STATS).sum(axis=1)
    return [RunResult(winner[c], places[c], throws[c], turns[c], totals[c]) for c in range(m)]


def games_per_second(bots=("first",) * 4, rules: RutsmieterRules = RutsmieterRules(),
                     n_games: int = 200_000, threads: int | None = None) -> float:
    """Measured speed (after a warm-up run that compiles)."""
    import time

    old = numba.get_num_threads()
    if threads:
        numba.set_num_threads(threads)
    try:
        simulate(bots, rules, 0, 1000)
        t0 = time.perf_counter()
        simulate(bots, rules, 1, n_games)
        return n_games / (time.perf_counter() - t0)
    finally:
        numba.set_num_threads(old)


@njit(cache=True, nogil=True)
def _board_of(pos, offs):
    """The board, occupancy masks and ``aux`` of a position (test helpers)."""
    board = np.full(_RING, -1, np.int64)
    mask = np.zeros(4, np.int64)
    aux = np.zeros(_AUX_SIZE, np.int64)
    for j in range(pos.shape[0]):
        x = pos[j]
        p = j >> 2
        if 0 <= x < _RING:
            sq = _square(x, offs[p])
            board[sq] = j
            aux[_AUX_RING + p] |= np.int64(1) << sq
            aux[_AUX_OCC] |= np.int64(1) << sq
        if x >= 0:
            mask[p] |= np.int64(1) << x
            aux[_AUX_AT + 44 * p + x] = j & 3
        else:
            aux[_AUX_HOME + p] += 1
    return board, mask, aux


@njit(cache=True, nogil=True)
def legal_moves_at(pos, params, offs, p, die):
    """The kernel's legal moves for a position (tests hold it against the
    reference): rows ``piece, start, end, victim id`` in piece order."""
    board, mask, aux = _board_of(pos, offs)
    mp = np.zeros(4, np.int64)
    ms = np.zeros(4, np.int64)
    me = np.zeros(4, np.int64)
    mv = np.zeros(4, np.int64)
    cnt = _legal_moves(pos, board, mask, p, offs[p], die, params[P_MUST_LEAVE] != 0,
                       params[P_MUST_CAPTURE] != 0, params[P_GOAL_NO_JUMP] != 0, mp, ms, me, mv)
    out = np.zeros((cnt, 4), np.int64)
    for i in range(cnt):
        out[i, 0] = mp[i]
        out[i, 1] = ms[i]
        out[i, 2] = me[i]
        out[i, 3] = mv[i]
    return out


@njit(cache=True, nogil=True)
def only_six_helps_at(pos, offs, p, no_jump):
    """The kernel's three-throws test for a position (tests)."""
    board, mask, aux = _board_of(pos, offs)
    return _only_six_helps(pos, mask, p, no_jump)


@njit(cache=True, nogil=True)
def fast_move_at(pos, params, offs, p, die, bot):
    """The fast path's move for a deterministic bot (tests): ``(piece, end, victim)``."""
    board, mask, aux = _board_of(pos, offs)
    return _fast_move(pos, board, mask, aux, p, offs[p], die, params[P_MUST_LEAVE] != 0,
                      params[P_MUST_CAPTURE] != 0, params[P_GOAL_NO_JUMP] != 0, bot)


#: The pieces of a game that self-play training (``rutsmieter.td``) builds on,
#: under public names: scratch, the board from positions, the game loop, the
#: ring square of an own position, a player's end, a position's features.
scratch = _scratch
set_position = _set_position
play_on = _play_on
square = _square
finished = _finished
position_features = _position_features

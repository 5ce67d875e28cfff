"""Perfect-information search for Tutti: a numba engine over card masks.

The search bots (``tutti.pimc``, ``tutti.ismcts``) sample the hidden cards
(``tutti.sampling``) and then play each sample as if every card were face
up; the ``cheat`` bot does the same on the true hand. This module is that
face-up engine: the rules of ``tutti.reference`` on a flat ``int64`` array,
so that playouts and exact endgames run at numba speed. It is tested
against the reference: the same playouts give the same scores, and
:func:`exact` gives the values of a plain minimax over the reference's
:func:`~tutto_sim.tutti.reference.apply`.

What is searched
----------------
Only the cards are choices. Every other action follows the heuristic bot's
rule (``tutti.bots``), the *automatic* actions: exchange whenever allowed;
declare a Tute, else the 40, else the 20 of the lowest suit, at every
declaration moment; a partner with nothing to declare passes. (Declaring
costs nothing and one declaration per trick is the limit, so waiting never
gains; the exchange gives a higher trump for a lower one.) The bots that
use this module still weigh their own exchanges and declarations at the
decision itself (``tutti.pimc``).

Value
-----
The value of a finished hand for side ``σ`` is its **margin**
``m = score(σ) − max_{σ' ≠ σ} score(σ')`` in points (2 sides: the
difference of the two scores); a Tute is worth ``±TUTE_MARGIN`` = ±250, more
than any margin of points (at most 130 + 100 + 100). With 3 or 4 players
alone the search is *paranoid*: the other players together minimise the
searcher's margin, which makes every search a two-sided zero-sum game.

- :func:`exact` / ``_alphabeta``: alpha-beta over the card plays to the end
  of the hand, the margin exact.
- ``_playout``: every player plays the heuristic bot's card until at most
  ``endgame`` cards are left to play (in the hands and the stock), then the
  rest is solved exactly.

State layout (one ``int64`` row of :data:`SIZE`)
------------------------------------------------
``H+p`` hand of seat p (40-bit mask), ``WON+p`` tricks won, ``MADE+p`` 1
after a declaration, ``JD+p`` the card drawn at the last trick (2 players,
-1 none), ``PTS+σ`` score of side σ so far, ``TC+k`` the k-th card of the
trick (played by ``LEADER + k``), ``STK..`` the 2-player stock in drawing
order with the face-up trump card last (``STOCKN`` cards, ``DRAWN`` gone).
Seats ``0..N-1``; sides ``p mod 2`` with ``PAIRS``, else ``p``.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from tutto_sim.core.streams import mix64

from .cards import POINTS
from .kernel import answer_card, beats_k, cheapest_card, declarable_masks, legal_card_mask
from .reference import DECLARE, OVER, PLAY, Observation, encode

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutti search bots' kernels"

# layout
H, WON, MADE, JD, PTS, TC = 0, 4, 8, 12, 16, 20
TLEN, LEADER, TOMOVE, MOMENT, PHASE, DECL, TUTE, DRAWN, STOCKN = range(24, 33)
N, PAIRS, MUST_ANSWER, ALLOW_TUTE, TRUMP = range(33, 38)
STK = 40
SIZE = 64
#: A Tute's margin: more than any margin of points.
TUTE_MARGIN = 250
#: Deepest alpha-beta (card plays left, +1).
MAX_DEPTH = 41
#: Action ids (``reference.encode``).
A_EXCHANGE, A_DECLARE, A_TUTE, A_PASS = 40, 80, 84, 86

_RANK_POINTS = np.array(POINTS[:10], dtype=np.int64)
_KINGS = np.int64(sum(1 << (10 * s + 2) for s in range(4)))
_HORSES = np.int64(sum(1 << (10 * s + 3) for s in range(4)))
_SEVEN, _TWO = 5, 9
_INF = 1 << 20
_ALPHA, _BETA, _BEST, _REST, _ALPHA0, _BETA0, _KEY, _BASE = range(8)
_EXACT, _LOWER, _UPPER = range(3)
#: Transposition table slots (a power of 2); a row: key, value, bound, epoch.
TT_SIZE = 1 << 16


# -- building a state ------------------------------------------------------------------------


def state_array(obs: Observation, hands, stock, just_drawn=None) -> np.ndarray:
    """The search state of a full deal seen from ``obs``: ``hands[p]`` every
    seat's hand (a mask), ``stock`` the cards still in the stock in drawing
    order (the face-up trump card last), ``just_drawn`` each seat's card
    drawn at the last trick (default: only the observer's is known, the
    others -1; another seat's never matters before its next draw)."""
    rules = obs.rules
    n = rules.players
    s = np.zeros(SIZE, np.int64)
    for p in range(n):
        s[H + p] = hands[p]
        s[WON + p] = obs.won[p]
        s[JD + p] = -1 if just_drawn is None else just_drawn[p]
    if just_drawn is None:
        s[JD + obs.seat] = obs.drawn
    for side, pts in enumerate(obs.scores):
        s[PTS + side] = pts
    for d in obs.declarations:
        s[MADE + d.seat] = 1
        if d.suit >= 0:
            s[DECL] |= 1 << d.suit
    for k, (_, c) in enumerate(obs.trick):
        s[TC + k] = c
    s[TLEN] = len(obs.trick)
    s[LEADER] = obs.leader
    s[TOMOVE] = (obs.moment + 2) % 4 if obs.phase == DECLARE else (obs.leader + len(obs.trick)) % n
    s[MOMENT] = obs.moment
    s[PHASE] = obs.phase
    s[TUTE] = -1
    s[STOCKN] = len(stock)
    for k, c in enumerate(stock):
        s[STK + k] = c
    s[N] = n
    s[PAIRS] = rules.pairs
    s[MUST_ANSWER] = rules.must_answer_trump
    s[ALLOW_TUTE] = rules.allow_tute
    s[TRUMP] = obs.trump_suit
    return s


def from_state(state) -> np.ndarray:
    """The search state of a reference :class:`~tutto_sim.tutti.reference.State`."""
    from .reference import observe

    return state_array(observe(state, state.to_move), state.hands, state.stock[state.drawn:],
                       state.just_drawn)


# -- the rules on the array --------------------------------------------------------------------


@njit(cache=True, inline="always")
def _side(s, p):
    return p & 1 if s[PAIRS] else p


@njit(cache=True)
def legal_cards(s):
    """The cards the seat to move may play (``reference.legal_cards``) as a mask."""
    tmask = np.int64(0)
    for k in range(s[TLEN]):
        tmask |= np.int64(1) << s[TC + k]
    return legal_card_mask(s[H + s[TOMOVE]], s[TLEN], s[TC], tmask, s[TRUMP],
                        s[N] > 2 or s[STOCKN] == s[DRAWN], s[MUST_ANSWER])


@njit(cache=True)
def _trick_best(s, tlen):
    """The best of the first ``tlen`` cards of the trick: (its seat, the
    card, the points of those cards)."""
    leader = s[LEADER]
    seat = leader
    best = s[TC]
    pts = _RANK_POINTS[best % 10]
    for k in range(1, tlen):
        c = s[TC + k]
        pts += _RANK_POINTS[c % 10]
        if beats_k(c, best, s[TRUMP]):
            best = c
            seat = (leader + k) % s[N]
    return seat, best, pts


@njit(cache=True)
def _exchange_card(s, seat):
    """The trump 7 or 2 ``seat`` may give for the face-up card now, else -1."""
    if s[N] != 2 or s[PHASE] != PLAY or s[TOMOVE] != seat or s[STOCKN] == s[DRAWN] \
            or s[WON + seat] == 0:
        return -1
    r = s[STK + s[STOCKN] - 1] % 10
    if r == _TWO:
        return -1
    give = s[TRUMP] * 10 + (_SEVEN if r < _SEVEN else _TWO)
    return give if s[H + seat] >> give & 1 else -1


@njit(cache=True)
def _declarable(s, seat):
    """``reference.legal_declarations``: (Tutes: bit 0 Kings, bit 1 Horses;
    pairs: bit = suit, only the trump suit's while the 40 can be declared)."""
    moment = s[MOMENT]
    if moment < 0 or _side(s, seat) != _side(s, moment):
        return 0, 0
    two = s[N] == 2
    if two and s[STOCKN] == s[DRAWN]:
        return 0, 0
    fresh = np.int64(0)
    if two and s[JD + seat] >= 0:
        fresh = np.int64(1) << s[JD + seat]
    return declarable_masks(s[H + seat], s[MADE + seat] != 0, s[ALLOW_TUTE] != 0, fresh,
                             s[DECL], s[TRUMP])


@njit(cache=True)
def legal_ids(s, out):
    """The legal action ids of the seat to move into ``out`` (the reference's
    order: exchange, Tutes, declarations, then cards or Pass); their number."""
    if s[PHASE] == OVER:
        return 0
    seat = s[TOMOVE]
    k = 0
    give = _exchange_card(s, seat)
    if give >= 0:
        out[k] = A_EXCHANGE + give
        k += 1
    tutes, pairs = _declarable(s, seat)
    for b in range(2):
        if tutes >> b & 1:
            out[k] = A_TUTE + b
            k += 1
    for su in range(4):
        if pairs >> su & 1:
            out[k] = A_DECLARE + su
            k += 1
    if s[PHASE] == DECLARE:
        out[k] = A_PASS
        return k + 1
    m = legal_cards(s)
    while m:
        out[k] = trailing_zeros(m)
        m &= m - 1
        k += 1
    return k


@njit(cache=True)
def _close_moment(s):
    s[MOMENT] = -1
    s[PHASE] = PLAY
    s[TOMOVE] = s[LEADER]


@njit(cache=True)
def _play(s, c):
    """Play card ``c`` for the seat to move (``reference._play`` without the
    public knowledge, which the search does not need)."""
    n = s[N]
    seat = s[TOMOVE]
    s[H + seat] &= ~(np.int64(1) << c)
    tlen = s[TLEN]
    s[TC + tlen] = c
    s[TLEN] = tlen + 1
    s[MOMENT] = -1
    if tlen + 1 < n:
        s[TOMOVE] = seat + 1 if seat + 1 < n else 0
        return
    w, _, pts = _trick_best(s, n)
    s[WON + w] += 1
    s[PTS + _side(s, w)] += pts
    s[TLEN] = 0
    if s[STOCKN] > s[DRAWN]:
        for q in range(2):
            p = w if q == 0 else 1 - w
            d = s[STK + s[DRAWN]]
            s[DRAWN] += 1
            s[H + p] |= np.int64(1) << d
            s[JD + p] = d
    empty = True
    for p in range(n):
        if s[H + p]:
            empty = False
    if empty:
        s[PTS + _side(s, w)] += 10
        s[PHASE] = OVER
        return
    s[LEADER] = w
    s[TOMOVE] = w
    s[MOMENT] = w
    s[PHASE] = PLAY
    if s[PAIRS]:
        mate = (w + 2) % 4
        s[TOMOVE] = mate
        t, d = _declarable(s, mate)
        if t or d:
            s[PHASE] = DECLARE
        else:
            s[TOMOVE] = w


@njit(cache=True)
def apply_id(s, a):
    """Make action ``a`` (an id of :func:`legal_ids`) for the seat to move."""
    seat = s[TOMOVE]
    if a < A_EXCHANGE:
        _play(s, a)
    elif a < A_DECLARE:
        last = STK + s[STOCKN] - 1
        s[H + seat] ^= (np.int64(1) << (a - A_EXCHANGE)) | (np.int64(1) << s[last])
        s[last] = a - A_EXCHANGE
    elif a < A_TUTE:
        su = a - A_DECLARE
        s[PTS + _side(s, seat)] += 40 if su == s[TRUMP] else 20
        s[DECL] |= 1 << su
        s[MADE + seat] = 1
        _close_moment(s)
    elif a < A_PASS:
        s[TUTE] = seat
        s[MOMENT] = -1
        s[PHASE] = OVER
    else:
        s[PHASE] = PLAY
        s[TOMOVE] = s[LEADER]


@njit(cache=True)
def auto(s):
    """Make the automatic actions (module docstring) until a card is to be
    chosen or the hand is over."""
    while s[PHASE] != OVER:
        seat = s[TOMOVE]
        if s[PHASE] == PLAY:
            give = _exchange_card(s, seat)
            if give >= 0:
                apply_id(s, A_EXCHANGE + give)
                continue
        tutes, pairs = _declarable(s, seat)
        if tutes:
            apply_id(s, A_TUTE + trailing_zeros(tutes))
        elif pairs:
            apply_id(s, A_DECLARE + trailing_zeros(pairs))
        elif s[PHASE] == DECLARE:
            apply_id(s, A_PASS)
        else:
            return


@njit(cache=True)
def margin(s, side):
    """The margin of ``side`` in a finished hand (module docstring)."""
    if s[TUTE] >= 0:
        return TUTE_MARGIN if _side(s, s[TUTE]) == side else -TUTE_MARGIN
    sides = 2 if s[PAIRS] else s[N]
    best = -_INF
    for o in range(sides):
        if o != side and s[PTS + o] > best:
            best = s[PTS + o]
    return s[PTS + side] - best


@njit(cache=True)
def cards_left(s):
    """Cards still to be played: in the hands and in the stock."""
    total = s[STOCKN] - s[DRAWN]
    for p in range(s[N]):
        m = s[H + p]
        while m:
            m &= m - 1
            total += 1
    return total


# -- the heuristic bot's card --------------------------------------------------------------------


@njit(cache=True)
def heuristic_card(s, cards):
    """``bots.HeuristicBot``'s card among ``cards`` for the seat to move."""
    seat = s[TOMOVE]
    trump = s[TRUMP]
    n = s[N]
    hand = s[H + seat]
    keep = np.int64(0)
    if not (n == 2 and s[STOCKN] - s[DRAWN] <= 2):
        for su in range(4):
            both = np.int64(3) << (10 * su + 2)
            if not s[DECL] >> su & 1 and hand & both == both:
                keep |= both
    discard = cheapest_card(cards, trump, keep)
    tlen = s[TLEN]
    if tlen == 0:
        return discard
    best_seat, best, on_table = _trick_best(s, tlen)
    if s[PAIRS] and (best_seat & 1) == (seat & 1):
        return discard
    return answer_card(cards, trump, best, on_table, discard)


# -- search ------------------------------------------------------------------------------------------


@njit(cache=True)
def _tute_possible(s):
    """Could a Tute still be declared (a hand with four Kings or four Horses,
    or cards still to be drawn)?"""
    if not s[ALLOW_TUTE]:
        return False
    if s[STOCKN] > s[DRAWN]:
        return True
    for p in range(s[N]):
        h = s[H + p]
        if h & _KINGS == _KINGS or h & _HORSES == _HORSES:
            return True
    return False


@njit(cache=True)
def _key(s, salt, with_points):
    """The transposition key of a position at the start of a trick: every
    field the rest of the hand depends on (the points only ``with_points``);
    never 0 (an empty slot)."""
    stock = s[STOCKN] > s[DRAWN]
    h = mix64(np.uint64(salt) + np.uint64(0x9E3779B97F4A7C15))
    for p in range(4):
        h = mix64(h ^ np.uint64(s[H + p]))
        small = (1 if s[WON + p] > 0 else 0) | s[MADE + p] << 1
        if stock:
            small |= (s[JD + p] + 1) << 2
        h = mix64(h ^ np.uint64(small))
        if with_points:
            h = mix64(h ^ np.uint64(s[PTS + p] + 1024))
    h = mix64(h ^ np.uint64(s[LEADER] | s[TOMOVE] << 2 | (s[MOMENT] + 1) << 4 | s[PHASE] << 7
                            | s[DECL] << 9 | s[DRAWN] << 13))
    if stock:
        h = mix64(h ^ np.uint64(s[STK + s[STOCKN] - 1]))
    return np.int64(h | np.uint64(1))


@njit(cache=True)
def _alphabeta(stack, frames, tt, side, salt, epoch):
    """The exact margin of ``side`` from ``stack[0]`` by alpha-beta over the
    card plays (automatic actions made on the way), fail-soft, with a
    transposition table ``tt`` at the starts of tricks (rows: key, value,
    bound, epoch; ``salt`` tells deals apart, and a row written under another
    ``epoch`` counts as empty: see :func:`scratch`). Frame ``d`` is the state
    ``stack[d]`` and ``frames[d]``; a single legal card is played in place,
    without a new frame. With two sides and no Tute to come, the rest of the hand adds
    the same points whatever was scored before: the table then keeps the
    value minus the current margin, and a position matches whatever the
    score."""
    d = 0
    entering = True
    v = 0
    mask = tt.shape[0] - 1
    two_sides = s_two_sides(stack[0])
    frames[0, _ALPHA] = -_INF
    frames[0, _BETA] = _INF
    while True:
        if entering:
            s = stack[d]
            f = frames[d]
            auto(s)
            m = np.int64(0)
            while s[PHASE] != OVER:
                m = legal_cards(s)
                if m & (m - 1):
                    break
                _play(s, trailing_zeros(m))
                auto(s)
            if s[PHASE] == OVER:
                v = margin(s, side)
                entering = False
                d -= 1
                if d < 0:
                    return v
                continue
            f[_KEY] = 0
            if s[TLEN] == 0:
                linear = two_sides and not _tute_possible(s)
                f[_BASE] = s[PTS + side] - s[PTS + 1 - side] if linear else 0
                f[_KEY] = _key(s, salt, not linear)
                e = tt[f[_KEY] & mask]
                if e[0] == f[_KEY] and e[3] == epoch:
                    val = e[1] + f[_BASE]
                    if e[2] == _EXACT or (e[2] == _LOWER and val >= f[_BETA]) \
                            or (e[2] == _UPPER and val <= f[_ALPHA]):
                        v = val
                        entering = False
                        d -= 1
                        if d < 0:
                            return v
                        continue
            f[_ALPHA0] = f[_ALPHA]
            f[_BETA0] = f[_BETA]
            first = heuristic_card(s, m)  # a good card first: earlier cut-offs
            f[_REST] = m & ~(np.int64(1) << first)
            f[_BEST] = -_INF if _side(s, s[TOMOVE]) == side else _INF
            c = first
        else:  # value v of a child of frame d
            s = stack[d]
            f = frames[d]
            if _side(s, s[TOMOVE]) == side:
                if v > f[_BEST]:
                    f[_BEST] = v
                    if v > f[_ALPHA]:
                        f[_ALPHA] = v
            elif v < f[_BEST]:
                f[_BEST] = v
                if v < f[_BETA]:
                    f[_BETA] = v
            if f[_ALPHA] >= f[_BETA] or f[_REST] == 0:
                v = f[_BEST]
                if f[_KEY]:
                    e = tt[f[_KEY] & mask]
                    e[0] = f[_KEY]
                    e[1] = v - f[_BASE]
                    e[2] = _UPPER if v <= f[_ALPHA0] else (_LOWER if v >= f[_BETA0] else _EXACT)
                    e[3] = epoch
                d -= 1
                if d < 0:
                    return v
                continue
            c = trailing_zeros(f[_REST])
            f[_REST] &= f[_REST] - 1
        child = stack[d + 1]
        child[:] = s
        _play(child, c)
        frames[d + 1, _ALPHA] = frames[d, _ALPHA]
        frames[d + 1, _BETA] = frames[d, _BETA]
        d += 1
        entering = True


@njit(cache=True, inline="always")
def s_two_sides(s):
    return s[N] == 2 or s[PAIRS] != 0


@njit(cache=True)
def _new_scratch():
    return (np.empty((MAX_DEPTH + 1, SIZE), np.int64), np.empty((MAX_DEPTH + 1, 8), np.int64),
            np.zeros((TT_SIZE, 4), np.int64), np.zeros(1, np.int64))


#: Each thread's :func:`scratch`.
_local = threading.local()


def scratch():
    """This thread's search scratch: ``(stack, frames, tt, epoch)``, allocated
    once per thread (a bot may play in several games at once, one per
    thread). The transposition table (2 MB) is not cleared between searches:
    each :func:`evaluate` takes the next ``epoch``, and a row written under
    another epoch never matches, so every search starts from an empty table
    as with a fresh one."""
    s = getattr(_local, "scratch", None)
    if s is None:
        s = _local.scratch = _new_scratch()
    return s


@njit(cache=True)
def _playout(stack, frames, tt, side, endgame, salt, epoch):
    """The margin of ``side`` from ``stack[0]``: heuristic cards until at most
    ``endgame`` cards are left to play, then exact (``stack[0]`` is changed)."""
    s = stack[0]
    while True:
        auto(s)
        if s[PHASE] == OVER:
            return margin(s, side)
        if cards_left(s) <= endgame:
            return _alphabeta(stack, frames, tt, side, salt, epoch)
        _play(s, heuristic_card(s, legal_cards(s)))


@njit(cache=True)
def evaluate(states, sequences, side, endgame, tail, out, stack, frames, tt, epoch):
    """``out[i, j]``: the margin of ``side`` after the actions ``sequences[j]``
    (ids, -1 padded) on ``states[i]``, then the automatic actions and
    ``_playout``: exact when at most ``endgame`` cards are left to play,
    else heuristic cards until ``tail`` are left, then exact. ``stack,
    frames, tt, epoch``: :func:`scratch` (nothing is allocated here)."""
    epoch[0] += 1
    for i in range(states.shape[0]):
        e = endgame if cards_left(states[i]) <= endgame else tail
        for j in range(sequences.shape[0]):
            s = stack[0]
            s[:] = states[i]
            for a in sequences[j]:
                if a < 0 or s[PHASE] == OVER:
                    break
                apply_id(s, a)
            out[i, j] = _playout(stack, frames, tt, side, e, i, epoch[0])


@njit(cache=True)
def rollout(s, sides, out):
    """Heuristic cards and automatic actions to the end from ``s`` (changed);
    ``out[σ]`` the margin of each side σ < ``sides``."""
    while True:
        auto(s)
        if s[PHASE] == OVER:
            break
        _play(s, heuristic_card(s, legal_cards(s)))
    for o in range(sides):
        out[o] = margin(s, o)


def exact(state: np.ndarray, side: int) -> int:
    """The exact margin of ``side`` from a search state (every card searched)."""
    stack, frames, tt, _ = _new_scratch()
    stack[0] = state
    return int(_alphabeta(stack, frames, tt, side, 0, 1))


def playout(state: np.ndarray, side: int, endgame: int = 0) -> int:
    """The margin of ``side``: heuristic cards until ``endgame`` cards are left, then exact."""
    stack, frames, tt, _ = _new_scratch()
    stack[0] = state
    return int(_playout(stack, frames, tt, side, endgame, 0, 1))


def encode_all(actions) -> list[int]:
    return [encode(a) for a in actions]

"""numba kernel for whole Tutti hands and matches between the built-in bots.

Third link of the game's chain (rules → reference → kernel): the hands of
``tutti.reference.play_hand`` and the matches of ``play_match``, action for
action, for every rule option and both built-in bots (``random``,
``heuristic``), fast. The tests play both engines on the same seeds and
demand identical actions, points, declarations, exchanges, Tutes and results.

Random numbers are drawn exactly as the reference's (its module docstring):
hand ``i`` of a run with seed ``s`` shuffles the deck from stream ``(s, i)``
(Fisher–Yates, ``below(k + 1)`` from the last position down), and the
``random`` bot of seat ``p`` draws ``below(number of legal actions)`` from
stream ``(stream_start(s, i), p + 1)`` whenever it has two or more actions,
in the reference's order of the legal actions (exchange, Tutes, declarations
by suit, then the cards ascending; in a partner's declaration turn the
declarations, then Pass). Match ``m`` deals its hands ``j`` from the run
with seed ``stream_start(s, m)``. ``heuristic`` draws nothing.

State (scratch arrays the caller owns; nothing is allocated per hand):

``sa[_H, p]``      seat p's hand as a 40-bit mask (bit = card id, ``tutti.cards``)
``sa[_WON, p]``    tricks won, ``sa[_CP, p]`` card points (last trick included),
                   ``sa[_DP, p]`` declared points, ``sa[_MADE, p]`` 1 after a
                   20 or 40, ``sa[_JD, p]`` the card drawn at the last trick
``sa[_TS/_TC, k]`` seat and card of the k-th play of the trick
``sa[_DECL, s]``   the seat that declared suit s's King and Horse, or -1
``sa[_SC/_WINS/_PTS, side]`` the hand's scores, the match's hands won and
                   points summed over its hands
``stock``          the 2-player stock in drawing order, the face-up trump card last

Duties, declarations and the bots' choices are computed on the masks: the
legal cards are one mask (:func:`legal_card_mask`), a ``random`` bot's choice
is the k-th entry of the legal actions counted from the masks, without
listing them.

:func:`simulate` (matches) and :func:`simulate_hands` (hands) run fixed
blocks of :data:`BLOCK` games with ``numba.prange``; game ``i`` plays lineup
``lineups[i % L]`` (a bot id per seat) and reads only its own streams. Per-block
totals are integers summed after the loop, so the results never depend on
the number of threads. :func:`play_traced` plays one hand or match with its
action log (tests).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from tutto_sim.core import bots as core_bots
from tutto_sim.core.streams import below, stream_start

from .cards import LAST_TRICK, POINTS
from .reference import BOT_NAMES, MAX_HANDS
from .rules import STOCK_SIZE, TuttiRules

#: What a first run compiles here, for the one line it says (``core.jit``).
COMPILING = "the Tutti game kernel"

BOT_RANDOM, BOT_HEURISTIC = range(2)
assert BOT_NAMES == ("random", "heuristic")
#: Per-seat totals (``RunResult.totals`` columns): tricks won, last tricks won,
#: 20s and 40s declared, Tutes, trump exchanges, card points (last trick included).
STAT_NAMES = ("tricks", "last_tricks", "twenties", "forties", "tutes", "exchanges",
              "card_points")
ST_TRICKS, ST_LAST, ST_TWENTY, ST_FORTY, ST_TUTE, ST_EXCHANGE, ST_POINTS = range(7)
N_STATS = len(STAT_NAMES)
# params columns
P_PLAYERS, P_PAIRS, P_MUST_ANSWER, P_ALLOW_TUTE, P_TUTE_MATCH, P_HANDS = range(6)
#: Games per unit of parallel work.
BLOCK = 512
#: Action ids (``reference.encode``): play 0..39, exchange 40 + card,
#: declare 80 + suit, Tute 84 (Kings) / 85 (Horses), pass 86.
A_EXCHANGE, A_DECLARE, A_TUTE, A_PASS = 40, 80, 84, 86

_PLAY, _DECLARE, _OVER = 0, 1, 2
_H, _WON, _CP, _DP, _MADE, _JD, _TS, _TC, _DECL, _SC, _WINS, _PTS = range(12)
_ROWS = 12
_RANK_POINTS = np.array(POINTS[:10], dtype=np.int64)
_KINGS = sum(1 << (10 * s + 2) for s in range(4))
_HORSES = sum(1 << (10 * s + 3) for s in range(4))
_SEVEN, _TWO = 5, 9
_SUIT = 1023


def kernel_params(rules: TuttiRules) -> np.ndarray:
    """The rules as the kernel's int64 ``params`` row."""
    return np.array([rules.players, rules.pairs, rules.must_answer_trump, rules.allow_tute,
                     rules.tute_wins == "match", rules.hands], dtype=np.int64)


# -- masks ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def suit_mask(s):
    return np.int64(_SUIT) << (10 * s)


@njit(cache=True, nogil=True, inline="always")
def stronger_cards(s, r):
    """Cards of suit ``s`` that beat rank ``r`` of that suit."""
    return ((np.int64(1) << r) - 1) << (10 * s)


@njit(cache=True, nogil=True, inline="always")
def _count(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit(cache=True, nogil=True, inline="always")
def _kth(m, k):
    """The k-th set bit of ``m`` (0 = lowest)."""
    for _ in range(k):
        m &= m - 1
    return trailing_zeros(m)


@njit(cache=True, nogil=True, inline="always")
def beats_k(a, b, trump):
    """``reference.beats``: does ``a``, played after the best card ``b``, beat it?"""
    sa = a // 10
    if sa == b // 10:
        return a < b
    return sa == trump


@njit(cache=True, nogil=True, inline="always")
def _trick_best(sa, tlen, trump):
    """The seat and card winning the trick so far (``reference.trick_winner``)
    and the trick's points."""
    best_seat = sa[_TS, 0]
    best = sa[_TC, 0]
    points = _RANK_POINTS[best % 10]
    for k in range(1, tlen):
        c = sa[_TC, k]
        points += _RANK_POINTS[c % 10]
        if beats_k(c, best, trump):
            best_seat = sa[_TS, k]
            best = c
    return best_seat, best, points


@njit(cache=True, nogil=True, inline="always")
def legal_card_mask(hand, tlen, lead, tmask, trump, duties, must_answer):
    """``reference.legal_cards`` as a mask; ``tmask`` holds the trick's cards."""
    if tlen == 0:
        return hand
    led = lead // 10
    if not duties:
        if must_answer and led == trump:
            t = hand & suit_mask(trump)
            if t:
                return t
        return hand
    follow = hand & suit_mask(led)
    if follow:
        if led == trump or (tmask & suit_mask(trump)) == 0:
            best = trailing_zeros((tmask >> (10 * led)) & _SUIT)
            beating = follow & stronger_cards(led, best)
            if beating:
                return beating
        return follow
    on_table = (tmask >> (10 * trump)) & _SUIT
    limit = trailing_zeros(on_table) if on_table else 10
    beating = hand & stronger_cards(trump, limit)
    return beating if beating else hand


@njit(cache=True, nogil=True, inline="always")
def _declarable(sa, seat, fresh, trump, allow_tute):
    """``reference.legal_declarations`` of ``seat`` as two masks: Tutes (bit 0
    Kings, bit 1 Horses) and pairs (bit = suit; only the trump suit's while
    the 40 can be declared). The caller has checked the moment."""
    declared = 0
    for s in range(4):
        if sa[_DECL, s] >= 0:
            declared |= 1 << s
    return declarable_masks(sa[_H, seat], sa[_MADE, seat] != 0, allow_tute, fresh, declared,
                             trump)


@njit(cache=True, nogil=True, inline="always")
def declarable_masks(hand, made, allow_tute, fresh, declared, trump):
    """The declarations of a ``hand`` (the face-up search shares this):
    Tutes (bit 0 Kings, bit 1 Horses; only after an own declaration, ``made``)
    and pairs (bit = suit, suits in ``declared`` excluded, only the trump
    suit's while the 40 can be declared); cards in ``fresh`` (just drawn)
    take no part."""
    tutes = 0
    if allow_tute and made:
        if hand & _KINGS == _KINGS and not _KINGS & fresh:
            tutes |= 1
        if hand & _HORSES == _HORSES and not _HORSES & fresh:
            tutes |= 2
    pairs = 0
    for s in range(4):
        both = np.int64(3) << (10 * s + 2)
        if not declared >> s & 1 and hand & both == both and not both & fresh:
            pairs |= 1 << s
    if pairs >> trump & 1:
        pairs = 1 << trump
    return tutes, pairs


@njit(cache=True, nogil=True, inline="always")
def cheapest_card(cards, trump, keep):
    """The heuristic's discard: non-trumps, outside a kept pair, fewest
    points, weakest; ties to the lowest card id (the reference's ``min``)."""
    best = -1
    best_key = 1 << 30
    m = cards
    while m:
        c = trailing_zeros(m)
        m &= m - 1
        r = c % 10
        key = (10000 if c // 10 == trump else 0) + (1000 if keep >> c & 1 else 0) \
            + 10 * _RANK_POINTS[r] + 9 - r
        if key < best_key:
            best_key = key
            best = c
    return best


@njit(cache=True, nogil=True)
def _heuristic_card(sa, seat, cards, n, pairs, trump, stock_size, tlen):
    """``bots.HeuristicBot``'s card (rules 3 to 7 of its docstring)."""
    hand = sa[_H, seat]
    keep = np.int64(0)
    if not (n == 2 and stock_size <= 2):
        for s in range(4):
            both = np.int64(3) << (10 * s + 2)
            if sa[_DECL, s] < 0 and hand & both == both:
                keep |= both
    discard = cheapest_card(cards, trump, keep)
    if tlen == 0:
        return discard
    best_seat, best, on_table = _trick_best(sa, tlen, trump)
    if pairs and (best_seat & 1) == (seat & 1):
        return discard
    return answer_card(cards, trump, best, on_table, discard)


@njit(cache=True, nogil=True, inline="always")
def answer_card(cards, trump, best, on_table, discard):
    """The heuristic's answer to a trick whose best card is ``best``: the
    cheapest non-trump that wins, else the weakest trump that wins when the
    trick holds 10 points or more (or only trumps are left), else ``discard``."""
    bs = best // 10
    wins = cards & stronger_cards(bs, best % 10)
    if bs != trump:
        wins |= cards & suit_mask(trump)
    plain = wins & ~suit_mask(trump)
    if plain:  # the cheapest non-trump that wins: fewest points, weakest
        return cheapest_card(plain, trump, 0)
    if wins and (on_table >= 10 or (cards & ~suit_mask(trump)) == 0):
        return 63 - leading_zeros(wins)  # the weakest trump that wins
    return discard


# -- a hand ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _play_hand(hseed, index, leader, params, bots, rs, deck, stock, sa, stats, trace, nt, hand_no):
    """Hand ``index`` of a run with ``hseed`` led by ``leader`` (``reference.play_hand``).

    Scores per side go to ``sa[_SC]``, per-seat counts are added to ``stats``,
    actions to ``trace`` rows ``(hand_no, seat, action id)`` from row ``nt``
    (when it has rows). Returns ``(winning side or -1, Tute seat or -1,
    tricks played, rows traced)``."""
    n = params[P_PLAYERS]
    pairs = params[P_PAIRS] != 0
    must_answer = params[P_MUST_ANSWER] != 0
    allow_tute = params[P_ALLOW_TUTE] != 0
    h = 8 if n == 2 else (12 if n == 3 else 10)
    tracing = trace.shape[0] > 0
    # the streams: the deal (s, i), then each seat's random bot
    first = stream_start(hseed, np.uint64(index))
    rs[0, 0] = first
    for p in range(n):
        rs[1 + p, 0] = stream_start(first, np.uint64(p + 1))
    m = 0
    for c in range(40):
        if n == 3 and c % 10 == _TWO:
            continue
        deck[m] = c
        m += 1
    for k in range(m - 1, 0, -1):
        j = below(rs[0], k + 1)
        t = deck[k]
        deck[k] = deck[j]
        deck[j] = t
    for p in range(4):
        sa[_H, p] = 0
        sa[_WON, p] = 0
        sa[_CP, p] = 0
        sa[_DP, p] = 0
        sa[_MADE, p] = 0
        sa[_JD, p] = -1
        sa[_DECL, p] = -1
        sa[_SC, p] = 0
    for k in range(n):
        p = (leader + k) % n
        hm = np.int64(0)
        for q in range(k * h, (k + 1) * h):
            hm |= np.int64(1) << deck[q]
        sa[_H, p] = hm
    if n == 2:
        shown = deck[2 * h]
        for q in range(STOCK_SIZE - 1):
            stock[q] = deck[2 * h + 1 + q]
        stock[STOCK_SIZE - 1] = shown
    else:
        shown = deck[m - 1]
    trump = shown // 10
    drawn = 0
    stock_size = np.int64(STOCK_SIZE if n == 2 else 0)
    to_move = leader
    phase = _PLAY
    moment = -1
    tute = -1
    tlen = np.int64(0)
    tmask = np.int64(0)
    played = 0
    tricks = 0
    while phase != _OVER:
        seat = to_move
        hand = sa[_H, seat]
        tutes = 0
        decl = 0
        if moment >= 0 and (seat == moment or (pairs and (seat & 1) == (moment & 1))) \
                and not (n == 2 and stock_size == 0):
            fresh = np.int64(0)
            if n == 2 and sa[_JD, seat] >= 0:
                fresh = np.int64(1) << sa[_JD, seat]
            tutes, decl = _declarable(sa, seat, fresh, trump, allow_tute)
        give = -1
        cards = np.int64(0)
        if phase == _PLAY:
            if stock_size > 0 and sa[_WON, seat] > 0:
                r = stock[STOCK_SIZE - 1] % 10
                g = trump * 10 + (_SEVEN if r < _SEVEN else _TWO)
                if r != _TWO and hand >> g & 1:
                    give = g
            duties = n > 2 or stock_size == 0
            cards = legal_card_mask(hand, tlen, sa[_TC, 0], tmask, trump, duties, must_answer)
        # the bot's choice, as an action id
        if bots[seat] == BOT_RANDOM:
            n_ex = 1 if give >= 0 else 0
            n_tu = _count(tutes)
            n_de = _count(decl)
            n_last = 1 if phase == _DECLARE else _count(cards)
            cnt = n_ex + n_tu + n_de + n_last
            k = below(rs[1 + seat], cnt) if cnt > 1 else 0
            if k < n_ex:
                a = A_EXCHANGE + give
            elif k < n_ex + n_tu:
                a = A_TUTE + _kth(tutes, k - n_ex)
            elif k < n_ex + n_tu + n_de:
                a = A_DECLARE + _kth(decl, k - n_ex - n_tu)
            elif phase == _DECLARE:
                a = A_PASS
            else:
                a = _kth(cards, k - n_ex - n_tu - n_de)
        elif give >= 0:
            a = A_EXCHANGE + give
        elif tutes:
            a = A_TUTE + trailing_zeros(tutes)
        elif decl:
            a = A_DECLARE + trailing_zeros(decl)  # the 40 is alone when declarable
        elif phase == _DECLARE:
            a = A_PASS
        else:
            a = _heuristic_card(sa, seat, cards, n, pairs, trump, stock_size, tlen)
        if tracing:
            if nt < trace.shape[0]:
                trace[nt, 0] = hand_no
                trace[nt, 1] = seat
                trace[nt, 2] = a
            nt += 1
        # apply it
        if a >= A_PASS:
            phase = _PLAY
            to_move = leader
        elif a >= A_TUTE:
            tute = seat
            stats[seat, ST_TUTE] += 1
            phase = _OVER
        elif a >= A_DECLARE:
            s = a - A_DECLARE
            if s == trump:
                sa[_DP, seat] += 40
                stats[seat, ST_FORTY] += 1
            else:
                sa[_DP, seat] += 20
                stats[seat, ST_TWENTY] += 1
            sa[_DECL, s] = seat
            sa[_MADE, seat] = 1
            moment = -1
            phase = _PLAY
            to_move = leader
        elif a >= A_EXCHANGE:
            face = stock[STOCK_SIZE - 1]
            sa[_H, seat] = hand ^ ((np.int64(1) << give) | (np.int64(1) << face))
            stock[STOCK_SIZE - 1] = give
            stats[seat, ST_EXCHANGE] += 1
        else:
            sa[_H, seat] = hand & ~(np.int64(1) << a)
            sa[_TS, tlen] = seat
            sa[_TC, tlen] = a
            tlen += 1
            tmask |= np.int64(1) << a
            moment = -1
            played += 1
            if tlen < n:
                to_move = seat + 1 if seat + 1 < n else 0
                continue
            w, _, pts = _trick_best(sa, n, trump)
            sa[_WON, w] += 1
            sa[_CP, w] += pts
            tricks += 1
            tlen = 0
            tmask = 0
            if stock_size > 0:
                for q in range(2):
                    p = w if q == 0 else 1 - w
                    d = stock[drawn]
                    drawn += 1
                    sa[_H, p] |= np.int64(1) << d
                    sa[_JD, p] = d
                stock_size -= 2
            if played == m:
                sa[_CP, w] += LAST_TRICK
                stats[w, ST_LAST] += 1
                phase = _OVER
                break
            leader = w
            to_move = w
            moment = w
            phase = _PLAY
            if pairs:
                mate = (w + 2) % 4
                mt, md = _declarable(sa, mate, np.int64(0), trump, allow_tute)
                if mt or md:
                    phase = _DECLARE
                    to_move = mate
    sides = 2 if pairs else n
    for p in range(n):
        side = p % 2 if pairs else p
        sa[_SC, side] += sa[_CP, p] + sa[_DP, p]
        stats[p, ST_TRICKS] += sa[_WON, p]
        stats[p, ST_POINTS] += sa[_CP, p]
    if tute >= 0:
        winner = tute % 2 if pairs else tute
    else:
        winner = 0
        top = sa[_SC, 0]
        ties = 1
        for side in range(1, sides):
            v = sa[_SC, side]
            if v > top:
                top = v
                winner = side
                ties = 1
            elif v == top:
                ties += 1
        if ties > 1:
            winner = -1
    return winner, tute, tricks, nt


@njit(cache=True, nogil=True)
def _play_game(seed, index, match, params, bots, rs, deck, stock, sa, stats, trace):
    """Hand (``match`` false: ``play_hand(seed, index)``, leader seat 0) or
    match ``index`` (``play_match``) of a run with ``seed``. Hands won per
    side go to ``sa[_WINS]``, points summed over the hands to ``sa[_PTS]``,
    per-seat counts to ``stats`` (zeroed here; ``stats[:, ST_TUTE]`` counts
    the Tutes). Returns ``(winning side or -1, hands dealt, Tute seat in the
    last hand or -1, tricks, rows traced)``."""
    n = params[P_PLAYERS]
    sides = 2 if params[P_PAIRS] else n
    for p in range(4):
        sa[_WINS, p] = 0
        sa[_PTS, p] = 0
        for s in range(N_STATS):
            stats[p, s] = 0
    hseed = stream_start(seed, np.uint64(index)) if match else seed
    # typed, not literal, zeros: literal arguments would compile _play_hand twice
    leader = np.int64(0)
    nt = np.int64(0)
    tricks = 0
    dealt = np.int64(0)
    while dealt < MAX_HANDS:
        w, tute, tr, nt = _play_hand(hseed, dealt if match else index, leader, params, bots, rs,
                                     deck, stock, sa, stats, trace, nt, dealt)
        dealt += 1
        tricks += tr
        for side in range(sides):
            sa[_PTS, side] += sa[_SC, side]
        if w < 0:
            if match:
                continue  # a tie: replayed with the same leader
            return -1, dealt, tute, tricks, nt
        sa[_WINS, w] += 1
        if not match or (tute >= 0 and params[P_TUTE_MATCH]) or sa[_WINS, w] >= params[P_HANDS]:
            return w, dealt, tute, tricks, nt
        leader = (leader + 1) % n
    return -1, dealt, -1, tricks, nt


@njit(cache=True, nogil=True)
def _scratch():
    # streams (deal + 4 seats), deck, stock, seat arrays, per-seat counts
    return (np.zeros((5, 1), np.uint64), np.zeros(40, np.int64), np.zeros(STOCK_SIZE, np.int64),
            np.zeros((_ROWS, 4), np.int64), np.zeros((4, N_STATS), np.int64))


@njit(cache=True, nogil=True)
def _play_traced(seed, index, match, params, bots, trace):
    rs, deck, stock, sa, stats = _scratch()
    w, dealt, tute, tricks, nt = _play_game(seed, index, match, params, bots, rs, deck, stock, sa,
                                            stats, trace)
    return w, dealt, tute, tricks, nt, sa[_WINS].copy(), sa[_PTS].copy(), stats.copy()


@njit(cache=True, nogil=True, parallel=True)
def _run_blocks(seed, start, n_games, block, match, params, lineups, winner, wins, points, hands,
                tute, tutes, tricks, totals):
    """Games ``start .. start + n_games - 1``: game ``i`` plays lineup
    ``lineups[i % L]`` and writes row ``i - start``. Work comes in fixed
    blocks of ``block`` games, each with its own ``totals`` row: nothing
    depends on the number of threads."""
    n = params[P_PLAYERS]
    sides = 2 if params[P_PAIRS] else n
    n_blocks = (n_games + block - 1) // block
    n_lineups = lineups.shape[0]
    for blk in prange(n_blocks):
        # scratch once per block: the game loop allocates nothing
        rs, deck, stock, sa, stats = _scratch()
        no_trace = np.zeros((0, 3), np.int64)
        lo = blk * block
        hi = min(n_games, lo + block)
        for g in range(lo, hi):
            i = start + g
            w, dealt, tu, tr, _ = _play_game(seed, i, match, params, lineups[i % n_lineups], rs,
                                             deck, stock, sa, stats, no_trace)
            winner[g] = w
            hands[g] = dealt
            tute[g] = tu
            tricks[g] = tr
            nt = 0
            for p in range(n):
                nt += stats[p, ST_TUTE]
            tutes[g] = nt
            for side in range(sides):
                wins[g, side] = sa[_WINS, side]
                points[g, side] = sa[_PTS, side]
            for p in range(n):
                for s in range(N_STATS):
                    totals[blk, p, s] += stats[p, s]


# -- the Python side ------------------------------------------------------------------------------


@dataclass
class RunResult:
    """Per-game results of :func:`simulate` / :func:`simulate_hands`; sides are
    seats, or with ``pairs`` side ``seat % 2``."""

    winner: np.ndarray  # int8 [games]: winning side; -1 a tied hand (hands) or a capped match
    wins: np.ndarray  # int8 [games, sides]: hands won
    points: np.ndarray  # int32 [games, sides]: scores summed over the hands dealt
    hands: np.ndarray  # int16 [games]: hands dealt, replays of ties included
    tute: np.ndarray  # int8 [games]: seat whose Tute ended the last hand dealt, else -1
    tutes: np.ndarray  # int8 [games]: hands ended by a Tute (tute_wins "hand": any of them)
    tricks: np.ndarray  # int32 [games]: tricks played over the hands dealt
    totals: np.ndarray  # int64 [players, len(STAT_NAMES)]

    @property
    def games(self) -> int:
        return len(self.winner)


def bot_ids(bots) -> np.ndarray:
    """Bot names (or ids) as an int64 lineup row."""
    return core_bots.bot_ids(bots, BOT_NAMES, "Tutti")


def _lineups(bots, n: int) -> np.ndarray:
    lineups = core_bots.lineup_rows(bots, n, BOT_NAMES, "Tutti")
    if lineups.min() < 0 or lineups.max() >= len(BOT_NAMES):
        raise ValueError(f"bot ids must be 0..{len(BOT_NAMES) - 1}")
    return lineups


def _simulate(bots, rules: TuttiRules, seed: int, n_games: int, start: int, block: int,
              match: bool) -> RunResult:
    n = rules.players
    lineups = _lineups(bots, n)
    sides = rules.sides
    winner = np.zeros(n_games, np.int8)
    wins = np.zeros((n_games, sides), np.int8)
    points = np.zeros((n_games, sides), np.int32)
    hands = np.zeros(n_games, np.int16)
    tute = np.zeros(n_games, np.int8)
    tutes = np.zeros(n_games, np.int8)
    tricks = np.zeros(n_games, np.int32)
    n_blocks = max(1, (n_games + block - 1) // block)
    totals = np.zeros((n_blocks, n, N_STATS), np.int64)
    _run_blocks(np.uint64(seed), start, n_games, block, match, kernel_params(rules), lineups,
                winner, wins, points, hands, tute, tutes, tricks, totals)
    return RunResult(winner, wins, points, hands, tute, tutes, tricks, totals.sum(axis=0))


def simulate(bots, rules: TuttiRules = TuttiRules(), seed: int = 0, n_games: int = 1000,
             start: int = 0, block: int = BLOCK) -> RunResult:
    """Play matches ``start .. start + n_games - 1`` of a run with ``seed``:
    match ``i`` is ``reference.play_match(lineup, rules, seed, i)``.

    ``bots`` is one lineup (a bot name or id per seat) or a 2-D array of
    lineups, match ``i`` playing ``lineups[i % L]``."""
    return _simulate(bots, rules, seed, n_games, start, block, True)


def simulate_hands(bots, rules: TuttiRules = TuttiRules(), seed: int = 0, n_hands: int = 1000,
                   start: int = 0, block: int = BLOCK) -> RunResult:
    """Play hands ``start .. start + n_hands - 1`` of a run with ``seed``, each
    led by seat 0: hand ``i`` is ``reference.play_hand(lineup, rules, seed, i)``;
    ``winner`` is -1 for a tie. ``bots`` as in :func:`simulate`."""
    return _simulate(bots, rules, seed, n_hands, start, block, False)


@dataclass
class Traced:
    """One hand or match of :func:`play_traced`."""

    winner: int
    hands: int
    tute: int
    tricks: int
    wins: tuple[int, ...]  # per side
    points: tuple[int, ...]  # per side, summed over the hands
    stats: np.ndarray  # [players, len(STAT_NAMES)]
    actions: list[tuple[int, int, int]]  # (hand, seat, action id), in order


def play_traced(bots, rules: TuttiRules = TuttiRules(), seed: int = 0, index: int = 0,
                match: bool = False) -> Traced:
    """Hand ``index`` (or match, ``match=True``) of a run with ``seed`` with its action log."""
    size = 256
    params = kernel_params(rules)
    ids = bot_ids(bots)
    if len(ids) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} bots, not {len(ids)}")
    while True:
        trace = np.zeros((size, 3), np.int64)
        w, dealt, tute, tricks, nt, wins, pts, stats = _play_traced(
            np.uint64(seed), index, match, params, ids, trace)
        if nt <= size:
            break
        size = nt
    sides = rules.sides
    return Traced(int(w), int(dealt), int(tute), int(tricks), tuple(int(x) for x in wins[:sides]),
                  tuple(int(x) for x in pts[:sides]), stats[:rules.players],
                  [tuple(int(x) for x in row) for row in trace[:nt]])

"""Hidden cards consistent with what a Tutti seat has seen.

The search bots (``tutti.pimc``, ``tutti.ismcts``) never see another hand:
they deal the cards they have not seen at random, in every way the
observation allows, and search each deal as if the cards were face up.
This module deals them, **uniformly over every consistent deal**.

What an observation fixes
-------------------------
The *unseen* cards ``U`` are the deck minus the own hand, the cards played,
the face-up trump card still under the stock (2 players) and the cards
known to be in another hand (``Observation.known``: the dealer's shown
card, declared Kings and Horses not yet played, a card taken by exchange,
the face-up card drawn last). They go to the *places*: each other seat
``p`` takes ``k_p = hand_sizes[p] − |known[p]|`` of them, and with 2
players the stock takes ``stock_size − 1`` (its last card is the face-up
one). A card ``c`` may go to seat ``p`` only if ``c ∉ excluded[p]`` (the
voids a follower showed: ``reference._record_exclusions``); the stock
takes any card.

Why uniform is right, and how it is exact
----------------------------------------
The shuffle is uniform, so given these facts every deal that satisfies
them is equally likely (the bots do not read anything into *how* the others
played). A card's allowed places depend only on the set of seats that
exclude it, so the unseen cards fall into a few *classes* (at most
``2^3``), the cards of one class interchangeable. The number of deals is

``W(i, k) = Σ_a  multinomial(m_i; a) · W(i + 1, k − a)``

over the splits ``a`` of class ``i``'s ``m_i`` cards among its allowed
places with ``a ≤ k`` (``W(end, 0) = 1``, else 0): a small dynamic
programme over the remaining places' sizes ``k``. A deal is drawn class by
class, the split ``a`` with probability ``multinomial(m_i; a) ·
W(i + 1, k − a) / W(i, k)``, then the class's cards in a uniformly random
order onto those places: every consistent deal has the same probability
``1 / W(0, k_0)``, and no draw can fail. The stock's hidden cards are then
put in a uniformly random order.

2 players: the voids a follower shows (with ``must_answer_trump``) are
forgotten by the observation when he draws a hidden card, and this module
uses what the observation states: such a seat may then be dealt more trumps
than the history of the hand allows (the stock empties after trick 12,
and from then on every card is known).

>>> from tutto_sim.tutti.reference import deal, observe
>>> from tutto_sim.tutti.rules import TuttiRules
>>> from tutto_sim.core.rng import Stream
>>> state = deal(TuttiRules(players=4), seed=1)
>>> hidden = HiddenDeal(observe(state, 0))
>>> from math import factorial as f
>>> hidden.count() == f(29) // (f(10) * f(10) * f(9))  # 29 unseen: 10, 10 and 9 hidden
True
>>> hands, stock = hidden.sample(Stream(5, 0))
>>> hands[0] == state.hands[0] and sum(h.bit_count() for h in hands) == 40 and stock == ()
True
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from math import factorial
from typing import Sequence

import numpy as np
from numba import njit

from tutto_sim.core.rng import Stream, stream_start
from tutto_sim.core.streams import below

from . import search
from .cards import POINTS, deck, mask
from .reference import DECLARE, Observation, State, Trick


def observation_seed(obs: Observation) -> int:
    """A 64-bit seed from everything in ``obs`` (stable across runs and
    machines: a hash of its text, not Python's salted ``hash``)."""
    return int.from_bytes(hashlib.blake2b(repr(obs).encode(), digest_size=8).digest(), "little")


def _multinomial(m: int, split: Sequence[int]) -> int:
    out = factorial(m)
    for a in split:
        out //= factorial(a)
    return out


def _minus(sizes: tuple[int, ...], split: Sequence[int]) -> tuple[int, ...]:
    return tuple(k - a for k, a in zip(sizes, split))


def _splits(allowed: int, m: int, sizes: tuple[int, ...], j: int = 0):
    """Every split of ``m`` cards onto the allowed places ``j..``, within ``sizes``."""
    if j == len(sizes):
        if m == 0:
            yield ()
        return
    top = min(m, sizes[j]) if allowed >> j & 1 else 0
    for a in range(top + 1):
        for rest in _splits(allowed, m - a, sizes, j + 1):
            yield (a, *rest)


class HiddenDeal:
    """The places of an observation's unseen cards, and uniform deals of
    them (module docstring).

    ``places``: the other seats, then ``-1`` for the stock (2 players, when
    it hides a card); ``sizes``: how many unseen cards each place takes;
    ``classes``: ``(allowed places as a bit mask, cards ascending)``.
    The dynamic programme is kept as a graph: node ``(i, k)`` (class ``i``,
    remaining sizes ``k``) lists its splits with positive weight, the next
    node of each and their cumulative probabilities (floats; the last is
    1). :meth:`sample` walks it in Python, :meth:`deal_states` in numba,
    drawing the same numbers from the same stream.
    """

    def __init__(self, obs: Observation):
        self.obs = obs
        n = obs.rules.players
        me = obs.seat
        played = [c for t in obs.tricks for _, c in t.plays] + [c for _, c in obs.trick]
        seen = obs.hand | mask(played)
        if n == 2 and obs.stock_size:
            seen |= 1 << obs.trump_card
        for p in range(n):
            if p != me:
                seen |= obs.known[p]
        unseen = [c for c in deck(n) if not seen >> c & 1]
        self.places = [p for p in range(n) if p != me]
        self.sizes = [obs.hand_sizes[p] - obs.known[p].bit_count() for p in self.places]
        if n == 2 and obs.stock_size > 1:
            self.places.append(-1)
            self.sizes.append(obs.stock_size - 1)
        if sum(self.sizes) != len(unseen) or min(self.sizes, default=0) < 0:
            raise ValueError("the observation's card counts do not add up")
        by_allowed: dict[int, list[int]] = {}
        for c in unseen:
            allowed = 0
            for j, p in enumerate(self.places):
                if p < 0 or not obs.excluded[p] >> c & 1:
                    allowed |= 1 << j
            by_allowed.setdefault(allowed, []).append(c)
        self.classes = sorted(by_allowed.items())
        self._ways = lru_cache(maxsize=None)(self._ways_uncached)
        if self.count() == 0:
            raise ValueError("no deal is consistent with the observation")
        self._build_graph()

    def _ways_uncached(self, i: int, sizes: tuple[int, ...]) -> int:
        """``W(i, k)``: the deals of classes ``i..`` onto the remaining sizes."""
        if i == len(self.classes):
            return 1 if not any(sizes) else 0
        allowed, cards = self.classes[i]
        return sum(_multinomial(len(cards), a) * self._ways(i + 1, _minus(sizes, a))
                   for a in _splits(allowed, len(cards), sizes))

    def count(self) -> int:
        """The number of consistent deals (the stock's order not counted)."""
        return self._ways(0, tuple(self.sizes))

    def _build_graph(self) -> None:
        """Number the reachable nodes ``(i, k)`` and list their options."""
        ids: dict[tuple, int] = {}
        order: list[tuple] = []
        start, splits, nxt, cum = [], [], [], []

        def node(i: int, sizes: tuple[int, ...]) -> int:
            if (i, sizes) not in ids:
                ids[(i, sizes)] = len(order)
                order.append((i, sizes))
            return ids[(i, sizes)]

        node(0, tuple(self.sizes))
        k = 0
        while k < len(order):
            i, sizes = order[k]
            start.append(len(splits))
            if i < len(self.classes):
                allowed, cards = self.classes[i]
                total = self._ways(i, sizes)
                acc = 0
                for a in _splits(allowed, len(cards), sizes):
                    w = _multinomial(len(cards), a) * self._ways(i + 1, _minus(sizes, a))
                    if w:
                        acc += w
                        splits.append(a)
                        nxt.append(node(i + 1, _minus(sizes, a)))
                        cum.append(acc / total)
                cum[-1] = 1.0
            k += 1
        start.append(len(splits))
        width = len(self.places)
        self.node_start = np.array(start, np.int64)
        self.opt_split = np.array(splits, np.int64).reshape(len(splits), width)
        self.opt_next = np.array(nxt, np.int64)
        self.opt_cum = np.array(cum, np.float64)
        self.class_cards = np.array([c for _, cards in self.classes for c in cards], np.int64)
        self.class_start = np.array(np.cumsum([0] + [len(c) for _, c in self.classes]), np.int64)

    def _option(self, node: int, u: float) -> int:
        k = int(self.node_start[node])
        while u >= self.opt_cum[k]:
            k += 1
        return k

    def sample(self, stream: Stream) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """One deal, uniformly: ``(hands, stock)``, every seat's full hand as a
        mask and the cards left in the stock in drawing order, the face-up
        trump card last (``()`` without a stock). For each class: a split
        (``u = below(2^53) / 2^53``, the first option whose cumulative
        probability exceeds ``u``), a Fisher–Yates shuffle of its cards
        (``below(k + 1)`` for ``k`` from the last down to 1), dealt in order
        onto the places; then the same shuffle of the stock's hidden cards."""
        obs = self.obs
        got: list[list[int]] = [[] for _ in self.places]
        node = 0
        for i, (_, cards) in enumerate(self.classes):
            k = self._option(node, stream.below(_U53) / _U53)
            order = list(cards)
            _shuffle(order, stream)
            pos = 0
            for j, take in enumerate(self.opt_split[k].tolist()):
                got[j] += order[pos:pos + take]
                pos += take
            node = int(self.opt_next[k])
        hands = [0] * obs.rules.players
        hands[obs.seat] = obs.hand
        stock: list[int] = []
        for j, p in enumerate(self.places):
            if p < 0:
                stock = got[j]
                _shuffle(stock, stream)
            else:
                hands[p] = obs.known[p] | mask(got[j])
        if obs.stock_size:
            stock.append(obs.trump_card)
        return tuple(hands), tuple(stock)

    def deal_states(self, seed: int, count: int) -> np.ndarray:
        """``count`` deals as search states (``tutti.search``), row ``t`` the
        deal :meth:`sample` draws as its ``t``-th from ``Stream(seed, 0)``."""
        obs = self.obs
        n = obs.rules.players
        hands = [obs.known[p] if p != obs.seat else obs.hand for p in range(n)]
        base = search.state_array(obs, hands, [obs.trump_card] if obs.stock_size else [])
        places = np.array(self.places, np.int64)
        out = np.empty((count, search.SIZE), np.int64)
        rs = np.array([stream_start(seed, 0)], np.uint64)
        _deal_states(base, rs, self.class_cards, self.class_start, places, self.node_start,
                     self.opt_split, self.opt_next, self.opt_cum, out)
        return out


_U53 = 1 << 53


def _shuffle(items: list, stream: Stream) -> None:
    for k in range(len(items) - 1, 0, -1):
        j = stream.below(k + 1)
        items[k], items[j] = items[j], items[k]


@njit(cache=True)
def _fisher_yates(items, m, rs):
    """:func:`_shuffle` of ``items[:m]``."""
    for q in range(m - 1, 0, -1):
        j = below(rs, q + 1)
        x = items[q]
        items[q] = items[j]
        items[j] = x


@njit(cache=True)
def _deal_states(base, rs, class_cards, class_start, places, node_start, opt_split, opt_next,
                 opt_cum, out):
    """:meth:`HiddenDeal.sample`, draw for draw, writing search states."""
    n_classes = class_start.shape[0] - 1
    order = np.empty(40, np.int64)
    stock = np.empty(40, np.int64)
    face = base[search.STK]
    has_stock = base[search.STOCKN] > 0
    for t in range(out.shape[0]):
        s = out[t]
        s[:] = base
        node = 0
        n_stock = 0
        for i in range(n_classes):
            u = below(rs, _U53) / _U53
            k = node_start[node]
            while u >= opt_cum[k]:
                k += 1
            m = 0
            for q in range(class_start[i], class_start[i + 1]):
                order[m] = class_cards[q]
                m += 1
            _fisher_yates(order, m, rs)
            pos = 0
            for j in range(places.shape[0]):
                for _ in range(opt_split[k, j]):
                    c = order[pos]
                    pos += 1
                    if places[j] < 0:
                        stock[n_stock] = c
                        n_stock += 1
                    else:
                        s[search.H + places[j]] |= np.int64(1) << c
            node = opt_next[k]
        _fisher_yates(stock, n_stock, rs)
        for q in range(n_stock):
            s[search.STK + q] = stock[q]
        if has_stock:
            s[search.STK + n_stock] = face
            s[search.STOCKN] = n_stock + 1


def determinize(obs: Observation, hands: Sequence[int], stock: Sequence[int]) -> State:
    """A full reference :class:`State` with these hidden cards, of which
    ``obs`` is the observation (tested: ``observe(state, obs.seat) == obs``).
    What no seat could know of the past (the action log, the order of the
    stock as dealt) is left out; another seat's card drawn at the last trick
    is unknown (-1): it matters only at that seat's declaration moment,
    which comes after its next draw."""
    rules = obs.rules
    n = rules.players
    card_points = [0] * n
    for t in obs.tricks:
        card_points[t.winner] += sum(POINTS[c] for _, c in t.plays)
    decl_points = [0] * n
    declared = [-1] * 4
    for d in obs.declarations:
        decl_points[d.seat] += d.points
        if d.suit >= 0:
            declared[d.suit] = d.seat
    if n == 2:
        shown = stock[-1] if stock else obs.trump_card
    elif obs.trump_card >= 0:
        shown = obs.trump_card
    else:  # the dealer has played his shown card: one of his trumps on the table
        plays = [pc for t in obs.tricks for pc in t.plays] + list(obs.trick)
        shown = next(c for p, c in plays if p == obs.dealer and c // 10 == obs.trump_suit)
    just_drawn = [-1] * n
    just_drawn[obs.seat] = obs.drawn
    to_move = (obs.moment + 2) % 4 if obs.phase == DECLARE else \
        (obs.leader + len(obs.trick)) % n
    return State(
        rules=rules, dealer=obs.dealer, first_leader=(obs.dealer + 1) % n,
        hands=list(hands), stock=list(stock), drawn=0, trump_suit=obs.trump_suit,
        shown=shown, leader=obs.leader, to_move=to_move, phase=obs.phase,
        trick=list(obs.trick), tricks=[Trick(*t) for t in obs.tricks], won=list(obs.won),
        card_points=card_points, decl_points=decl_points, declared=declared,
        declarations=list(obs.declarations), exchanges=list(obs.exchanges),
        just_drawn=just_drawn, moment=obs.moment, known=list(obs.known),
        excluded=list(obs.excluded),
    )


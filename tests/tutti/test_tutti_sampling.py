"""Deals of the unseen cards: every deal is consistent with the observation,
the numba dealer draws the Python one's deals card for card, and over many
deals each hidden card lands in each place as often as an exact enumeration
of the consistent deals says."""

import itertools
import math

import pytest

from tutto_sim.core.rng import Stream
from tutto_sim.core.stats import family_z
from tutto_sim.tutti import search
from tutto_sim.tutti.bots import make_bot
from tutto_sim.tutti.cards import SUIT_MASK, cards_of, deck, mask, parse
from tutto_sim.tutti.reference import Play, State, Trick, apply, deal, is_over, observe
from tutto_sim.tutti.rules import TuttiRules
from tutto_sim.tutti.sampling import HiddenDeal, determinize, observation_seed

RULES = [TuttiRules(), TuttiRules(must_answer_trump=True), TuttiRules(players=3),
         TuttiRules(players=4), TuttiRules(players=4, pairs=True)]
IDS = ["two", "two-answer", "three", "four", "pairs"]


def decisions(rules, seed, hands):
    """(state, observation of the seat to move) along hands of random and heuristic play."""
    for i in range(hands):
        state = deal(rules, seed, i, leader=i % rules.players)
        bots = [make_bot("random" if (p + i) % 2 else "heuristic", p, seed, i)
                for p in range(rules.players)]
        while not is_over(state):
            obs = observe(state, state.to_move)
            yield state, obs
            apply(state, bots[state.to_move].act(obs))


def played(obs):
    return mask([c for t in obs.tricks for _, c in t.plays] + [c for _, c in obs.trick])


def assert_consistent(obs, hands, stock):
    n = obs.rules.players
    assert hands[obs.seat] == obs.hand
    for p in range(n):
        assert hands[p].bit_count() == obs.hand_sizes[p]
        assert hands[p] & obs.known[p] == obs.known[p]
        assert hands[p] & obs.excluded[p] == 0
    every = [c for h in hands for c in cards_of(h)] + list(stock) + cards_of(played(obs))
    assert sorted(every) == deck(n)
    assert len(stock) == obs.stock_size
    if stock:
        assert stock[-1] == obs.trump_card
    assert observe(determinize(obs, hands, stock), obs.seat) == obs


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_every_deal_is_consistent_and_both_dealers_agree(rules):
    for k, (state, obs) in enumerate(decisions(rules, 4, 3)):
        hidden = HiddenDeal(obs)
        seed = observation_seed(obs)
        stream = Stream(seed, 0)
        rows = hidden.deal_states(seed, 3)
        for row in rows:
            hands, stock = hidden.sample(stream)
            assert_consistent(obs, hands, stock)
            assert (row == search.state_array(obs, hands, stock)).all()
        truth = tuple(state.hands), tuple(state.stock[state.drawn:])
        assert_consistent(obs, *truth)  # the true deal is one of them


def enumerate_deals(obs):
    """Every consistent deal, by brute force: (hands of the other seats, stock
    order) with the stock's hidden cards in every order."""
    n = obs.rules.players
    seen = obs.hand | played(obs)
    if obs.stock_size:
        seen |= 1 << obs.trump_card
    for p in range(n):
        seen |= obs.known[p]
    unseen = [c for c in deck(n) if not seen >> c & 1]
    others = [p for p in range(n) if p != obs.seat]
    need = [obs.hand_sizes[p] - obs.known[p].bit_count() for p in others]

    def fill(j, left):
        if j == len(others):
            for order in itertools.permutations(left):
                yield (), order
            return
        p = others[j]
        ok = [c for c in left if not obs.excluded[p] >> c & 1]
        for pick in itertools.combinations(ok, need[j]):
            rest = [c for c in left if c not in pick]
            for tail, order in fill(j + 1, rest):
                yield (obs.known[p] | mask(pick), *tail), order

    return list(fill(0, unseen))


def place_counts(obs, deals):
    """How often each (card, place) occurs: place = another seat, or
    ("stock", position in drawing order)."""
    counts = {}
    others = [p for p in range(obs.rules.players) if p != obs.seat]
    for hands, order in deals:
        for p, h in zip(others, hands):
            for c in cards_of(h & ~obs.known[p]):
                counts[(c, p)] = counts.get((c, p), 0) + 1
        for k, c in enumerate(order):
            counts[(c, ("stock", k))] = counts.get((c, ("stock", k)), 0) + 1
    return counts


def check_frequencies(obs, draws=4000):
    exact = enumerate_deals(obs)
    hidden = HiddenDeal(obs)
    stock_orders = math.factorial(max(obs.stock_size - 1, 0))
    assert hidden.count() * stock_orders == len(exact)
    expected = {k: v / len(exact) for k, v in place_counts(obs, exact).items()}
    others = [p for p in range(obs.rules.players) if p != obs.seat]
    sampled = []
    for row in hidden.deal_states(12345, draws):
        hands = tuple(int(row[search.H + p]) for p in others)
        order = tuple(int(row[search.STK + k]) for k in range(max(obs.stock_size - 1, 0)))
        sampled.append((hands, order))
    got = place_counts(obs, sampled)
    assert set(got) <= set(expected)  # nothing impossible is ever dealt
    z = family_z(len(expected), 0.999)  # a family-wise 99.9% test: chance fails 1 in 1000
    for key, p in expected.items():
        x = got.get(key, 0)
        if p == 1:
            assert x == draws
        else:
            assert abs(x - draws * p) <= z * math.sqrt(draws * p * (1 - p)), (key, x, p)
    return len(exact)


def table(rules, hands, excluded, leader=0):
    """A late position: ``hands`` left, every other card already played
    (kept as one record of plays; the dealer's shown card among them)."""
    n = rules.players
    held = [mask(parse(x) for x in h.split()) for h in hands]
    gone = [c for c in deck(n) if not any(h >> c & 1 for h in held)]
    s = State(rules=rules, dealer=(leader - 1) % n, first_leader=leader, hands=held, stock=[],
              drawn=0, trump_suit=0, shown=gone[0], leader=leader, to_move=leader)
    s.tricks = [Trick(tuple((k % n, c) for k, c in enumerate(gone)), 0)]
    s.excluded = list(excluded)
    return s


def test_frequencies_where_the_voids_bind():
    """Seat 1 has shown it holds no coppe and no denari (trumps), seat 2 no
    spade: the 3 cups and the 2D must go to seats 2 and 3, the 3 spades to
    seats 1 and 3, the 2 batons anywhere. A dealer handing the cards out one
    by one at random would get stuck or lean. By hand: with ``x`` spades,
    ``y`` of the cups and 2D and ``z`` batons for seat 3 (``x + y + z = 3``),
    seat 1 takes ``x`` batons and seat 2 ``y - 1``; summing
    ``C(3,x)·C(4,y)·2!/(x!(y-1)!z!)`` over the cases gives 40 + 48 + 4 = 92."""
    rules = TuttiRules(players=4)
    s = table(rules, ["AB 3B KB", "4S 5S 6B", "2C 5C 7B", "6C 7S 2D"],
              [0, SUIT_MASK[1] | SUIT_MASK[0], SUIT_MASK[2], 0])
    assert check_frequencies(observe(s, 0)) == 92


def test_frequencies_with_the_stock_in_order():
    """2 players, 4 cards left in the stock: the opponent's hidden cards and
    the order of the 3 hidden stock cards (the face-up card is last)."""
    rules = TuttiRules()
    for state, obs in decisions(rules, 6, 1):
        if obs.stock_size == 4:
            hidden = obs.hand_sizes[1 - obs.seat] - obs.known[1 - obs.seat].bit_count()
            assert check_frequencies(obs) == math.comb(hidden + 3, 3) * 6
            return
    pytest.fail("no position with 4 cards in the stock")


@pytest.mark.parametrize("rules", RULES[2:], ids=IDS[2:])
def test_frequencies_in_played_positions(rules):
    """Late positions of 3 and 4 players with voids shown: uniform over the
    consistent deals, counted by brute force."""
    checked = 0
    for state, obs in decisions(rules, 8, 12):
        count = HiddenDeal(obs).count()
        if 30 <= count <= 3000 and any(obs.excluded) and len(HiddenDeal(obs).classes) > 1:
            check_frequencies(obs)
            checked += 1
            if checked == 3:
                return
    pytest.fail(f"only {checked} positions with voids and a small number of deals")


def test_the_seed_is_the_observation():
    """Two seats' observations differ, so do their seeds; the same observation
    (however it was reached) gives the same seed."""
    state = deal(TuttiRules(), 3, 0)
    a, b = observe(state, 0), observe(state, 1)
    assert observation_seed(a) != observation_seed(b)
    again = deal(TuttiRules(), 3, 0)
    assert observation_seed(observe(again, 0)) == observation_seed(a)
    apply(again, Play(cards_of(again.hands[0])[0]))
    assert observation_seed(observe(again, 1)) != observation_seed(b)

"""The face-up search engine (``tutti.search``) against the reference engine:
the same legal actions and the same state after every action, the same
heuristic playouts, and alpha-beta values identical to a plain minimax
over the reference's ``apply``."""

import random

import pytest

from tutto_sim.core.bots import parse_bots
from tutto_sim.tutti import search
from tutto_sim.tutti.bots import HeuristicBot, make_bot
from tutto_sim.tutti.cards import mask, parse
from tutto_sim.tutti.reference import (
    Declaration, State, apply, deal, encode, is_over, legal_actions, observe, play_hand, scores,
)
from tutto_sim.tutti.rules import TuttiRules

RULES = [TuttiRules(), TuttiRules(must_answer_trump=True), TuttiRules(players=3),
         TuttiRules(players=4), TuttiRules(players=4, pairs=True)]
IDS = ["two", "two-answer", "three", "four", "pairs"]
HEURISTIC = HeuristicBot()


def canonical(s):
    """What a search state means: the hands, tricks won, declarations made,
    cards drawn, scores, the trick so far, whose turn, the moment, the cards
    left in the stock."""
    n = int(s[search.N])
    tlen = int(s[search.TLEN])
    return (tuple(int(s[search.H + p]) for p in range(n)),
            tuple(int(s[search.WON + p]) for p in range(n)),
            tuple(int(s[search.MADE + p]) for p in range(n)),
            tuple(int(s[search.JD + p]) for p in range(n)) if n == 2 else (),
            tuple(int(s[search.PTS + p]) for p in range(4)),
            tuple(int(s[search.TC + k]) for k in range(tlen)),
            *(int(s[i]) for i in (search.LEADER, search.TOMOVE, search.MOMENT, search.PHASE,
                                  search.DECL)),
            tuple(int(s[search.STK + k]) for k in range(int(s[search.DRAWN]),
                                                        int(s[search.STOCKN]))))


def margin(state, side):
    """The margin of a finished reference hand (search's docstring)."""
    if state.tute >= 0:
        return search.TUTE_MARGIN if state.rules.side(state.tute) == side else -search.TUTE_MARGIN
    sc = scores(state)
    return sc[side] - max(v for o, v in enumerate(sc) if o != side)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_moves_and_states_match_the_reference(rules):
    ids = search.np.empty(96, search.np.int64)
    kinds = set()
    for i in range(6):
        state = deal(rules, 2, i, leader=i % rules.players)
        bots = [make_bot("random" if p % 2 else "heuristic", p, 2, i) for p in range(rules.players)]
        s = search.from_state(state)
        while not is_over(state):
            legal = legal_actions(state, state.to_move)
            assert ids[:search.legal_ids(s, ids)].tolist() == [encode(a) for a in legal]
            action = bots[state.to_move].act(observe(state, state.to_move))
            kinds.add(action.kind)
            apply(state, action)
            search.apply_id(s, encode(action))
            if is_over(state):
                assert s[search.PHASE] == search.OVER
            else:
                assert canonical(s) == canonical(search.from_state(state))
        for side in range(rules.sides):
            assert search.margin(s, side) == margin(state, side)
    assert {"play", "declare"} <= kinds and ("exchange" in kinds or rules.players > 2)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_heuristic_playouts_match_the_reference(rules):
    for i in range(8):
        state = deal(rules, 5, i)
        bots = [make_bot("random", p, 5, i) for p in range(rules.players)]
        k = 0
        while not is_over(state):
            if k % 4 == 0:
                rec = play_hand(parse_bots(["heuristic"] * rules.players, rules), rules, state=state)
                arr = search.from_state(state)
                for side in range(rules.sides):
                    if rec.tute >= 0:
                        want = search.TUTE_MARGIN * (1 if rules.side(rec.tute) == side else -1)
                    else:
                        want = rec.scores[side] - max(v for o, v in enumerate(rec.scores)
                                                      if o != side)
                    assert search.playout(arr, side) == want
            apply(state, bots[state.to_move].act(observe(state, state.to_move)))
            k += 1


class Minimax:
    """Plain minimax over the reference engine: every card of every player,
    the other actions by the heuristic bot's rule (the search's automatic
    actions); counts the non-card actions it made."""

    def __init__(self):
        self.made = {}

    def value(self, state, side):
        if is_over(state):
            return margin(state, side)
        seat = state.to_move
        legal = legal_actions(state, seat)
        if any(a.kind != "play" for a in legal):
            action = HEURISTIC.act(observe(state, seat))
            self.made[action.kind] = self.made.get(action.kind, 0) + 1
            nxt = state.copy()
            apply(nxt, action)
            return self.value(nxt, side)
        values = []
        for a in legal:
            nxt = state.copy()
            apply(nxt, a)
            values.append(self.value(nxt, side))
        return max(values) if state.rules.side(seat) == side else min(values)


def cards_left(state):
    return sum(h.bit_count() for h in state.hands) + state.stock_size


@pytest.mark.parametrize("rules,left", [(RULES[0], 8), (RULES[2], 9), (RULES[3], 8),
                                        (RULES[4], 8)], ids=["two", "three", "four", "pairs"])
def test_alphabeta_equals_minimax_in_played_endgames(rules, left):
    brute = Minimax()
    checked = 0
    for i in range(10):
        state = deal(rules, 9, i)
        bots = [make_bot("random", p, 9, i) for p in range(rules.players)]
        while not is_over(state) and cards_left(state) > left:
            apply(state, bots[state.to_move].act(observe(state, state.to_move)))
        if is_over(state):
            continue
        arr = search.from_state(state)
        for side in range(rules.sides):
            assert search.exact(arr, side) == brute.value(state, side)
            checked += 1
    assert checked >= 2 * rules.sides


def mini_two(rng, rules):
    """A small 2-player position with a stock: Kings, Horses, 7s and 2s only,
    the leader often holding a King and Horse, so that exchanges and
    declarations come up often."""
    cards = [c for c in range(40) if c % 10 in (2, 3, 5, 9)]
    rng.shuffle(cards)
    k, j = rng.choice([(2, 1), (2, 2), (3, 1)])  # at most 8 cards: plain minimax stays quick
    leader = rng.randrange(2)
    if rng.random() < 0.5:
        pair = [10 * rng.randrange(4) + 2]
        pair.append(pair[0] + 1)
        rest = [c for c in cards if c not in pair]
        cards = pair + rest if leader == 0 else rest[:k] + pair + rest[k:]
    stock = cards[2 * k:2 * k + 2 * j]
    state = State(rules=rules, dealer=1 - leader, first_leader=leader,
                  hands=[mask(cards[:k]), mask(cards[k:2 * k])], stock=stock, drawn=0,
                  trump_suit=stock[-1] // 10, shown=stock[-1], leader=leader, to_move=leader,
                  won=[rng.randrange(2), rng.randrange(2)])
    if rng.random() < 0.8:
        state.moment = leader
    return state


def test_alphabeta_equals_minimax_with_a_stock_exchanges_and_declarations():
    rng = random.Random(3)
    brute = Minimax()
    for _ in range(40):
        state = mini_two(rng, rng.choice(RULES[:2]))
        arr = search.from_state(state)
        for side in range(2):
            assert search.exact(arr, side) == brute.value(state, side)
    assert brute.made.get("exchange", 0) >= 10 and brute.made.get("declare", 0) >= 10


def test_a_tute_ends_the_search():
    """Seat 0 has declared, won the trick and holds all four Kings: the
    automatic Tute wins at once; without ``allow_tute`` play goes on."""
    hands = ["KD KC KS KB", "AD AC AS AB"]
    for allow, want in ((True, search.TUTE_MARGIN), (False, None)):
        rules = TuttiRules(players=2, allow_tute=allow)
        state = State(rules=rules, dealer=1, first_leader=0,
                      hands=[mask(parse(x) for x in h.split()) for h in hands],
                      stock=[parse("7B"), parse("6C")], drawn=0, trump_suit=1,
                      shown=parse("6C"), leader=0, to_move=0, won=[1, 0], moment=0)
        state.declarations = [Declaration(0, 3, 20, 0)]
        state.declared[3] = 0
        value = search.exact(search.from_state(state), 0)
        assert value == (want if allow else Minimax().value(state, 0))
        assert allow or abs(value) < search.TUTE_MARGIN


@pytest.mark.parametrize("rules,left", [(RULES[0], 8), (RULES[3], 8)], ids=["two", "four"])
def test_evaluate_shares_its_scratch_and_each_search_starts_from_an_empty_table(rules, left):
    """``evaluate`` takes its scratch from the caller (``search.scratch()``, one per
    thread: every pimc decision of the thread reuses it) and never clears the
    transposition table; rows of an earlier call must not count. The same
    positions searched for every side in turn, then the first side again,
    through the one scratch: each value is the plain minimax's (a row kept
    from another side's search would give the other side's value)."""
    brute = Minimax()
    states, want = [], []
    for i in range(8):
        state = deal(rules, 11, i)
        bots = [make_bot("random", p, 11, i) for p in range(rules.players)]
        while not is_over(state) and cards_left(state) > left:
            apply(state, bots[state.to_move].act(observe(state, state.to_move)))
        if not is_over(state):
            states.append(search.from_state(state))
            want.append([brute.value(state, side) for side in range(rules.sides)])
    assert len(states) >= 4
    scratch = search.scratch()
    assert search.scratch() is scratch  # allocated once for the thread
    no_action = search.np.full((1, 1), -1, search.np.int64)
    for side in [*range(rules.sides), 0]:
        out = search.np.empty((len(states), 1), search.np.int64)
        search.evaluate(search.np.array(states), no_action, side, 40, 0, out, *scratch)
        assert out[:, 0].tolist() == [w[side] for w in want]
    assert (scratch[2][:, 3] > 0).any() and (scratch[2][:, 3] < scratch[3][0]).any()

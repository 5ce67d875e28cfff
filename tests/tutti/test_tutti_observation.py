"""What a Tutti seat sees: its observation holds no hidden card, records the
voids a follower shows, and a bot's decision depends on nothing else."""

import pytest

from tutto_sim.tutti.bots import HeuristicBot, make_bot
from tutto_sim.tutti.cards import SUIT_MASK, bit, mask, parse, stronger_in_suit
from tutto_sim.tutti.reference import (
    Observation, Play, State, apply, deal, is_over, observe,
)
from tutto_sim.tutti.rules import TuttiRules

D, C, S, B = range(4)


def cs(text):
    return [parse(x) for x in text.split()]


def table(rules, hands, trump=D, stock="", leader=0):
    n = rules.players
    stock_cards = cs(stock)
    shown = stock_cards[-1] if stock_cards else 10 * trump + 8
    return State(rules=rules, dealer=(leader - 1) % n, first_leader=leader,
                 hands=[mask(cs(h)) for h in hands], stock=stock_cards, drawn=0,
                 trump_suit=trump, shown=shown, leader=leader, to_move=leader)


def play(state, *codes):
    for c in codes:
        apply(state, Play(parse(c)))


def test_the_observation_holds_only_public_facts_and_the_own_hand():
    names = set(Observation._fields)
    assert "hands" not in names and "stock" not in names
    state = deal(TuttiRules(players=4), 1, 0)
    obs = observe(state, 2)
    assert obs.hand == state.hands[2] and obs.legal == ()
    assert obs.known == (0, 0, 0, bit(state.shown)) and obs.trump_card == state.shown
    assert obs.hand_sizes == (10, 10, 10, 10)
    two = deal(TuttiRules(), 1, 0)
    assert observe(two, 0).trump_card == two.stock[-1] and observe(two, 0).stock_size == 24


def test_a_follower_who_does_not_follow_shows_a_void():
    s = table(TuttiRules(players=4), ["AC 4S", "5S 4B", "KC 7C", "4C 2D 3S"])
    play(s, "AC", "5S")  # seat 1 has no cups and no trump
    assert s.excluded[1] == SUIT_MASK[C] | SUIT_MASK[D]
    play(s, "KC")  # could not beat the Ace: no cup is above it, nothing new
    assert s.excluded[2] == 0
    s = table(TuttiRules(players=4), ["AC 4S", "5D KS", "2C 7C", "4D 2D JS"])
    play(s, "AC", "5D", "7C", "JS")  # seat 3: no cups, no trump above the 5
    assert s.excluded[1] == SUIT_MASK[C] and s.excluded[2] == 0
    assert s.excluded[3] == SUIT_MASK[C] | stronger_in_suit(D, 7)
    s = table(TuttiRules(players=4), ["HC 4S", "5C KS", "2C 7C", "6D 2D JS"])
    play(s, "HC", "5C")  # did not overtake the Horse: no Ace, Three or King of cups
    assert s.excluded[1] == stronger_in_suit(C, 3)


def test_a_hidden_draw_forgets_the_voids():
    s = table(TuttiRules(must_answer_trump=True), ["AD 4S", "5S KC"], stock="4B 6D")
    play(s, "AD", "5S")  # no trump to answer with; then draws the face-up 6D
    assert s.excluded[1] == SUIT_MASK[D] & ~bit(parse("6D"))
    assert s.known[1] == bit(parse("6D"))
    s = table(TuttiRules(must_answer_trump=True), ["AD 4S", "5S KC"], stock="4B 3B 2B 6D")
    play(s, "AD", "5S")  # draws a hidden card: it may be a trump
    assert s.excluded == [0, 0]


def _same_view(a, b, seat=0):
    oa, ob = observe(a, seat), observe(b, seat)
    assert a.hands != b.hands or a.stock != b.stock
    assert oa == ob
    bot = HeuristicBot()
    assert bot.act(oa) == bot.act(ob)
    return bot.act(oa)


def test_hand_made_two_worlds_one_view():
    """Seat 1 leads a spade, seat 2 shows it has no spades and no trumps; seat 0
    must answer. The other seats' hidden cards differ between the two worlds,
    consistently with what seat 0 has seen."""
    rules = TuttiRules(players=4)
    a = table(rules, ["AC KB HB 7S 4S", "5S KD 4B", "7C 2C 6B", "3S 2D 4C"], leader=1)
    b = table(rules, ["AC KB HB 7S 4S", "5S 2D 4B", "7C 4C 6B", "3S KD 2C"], leader=1)
    for s in (a, b):
        play(s, "5S", "7C", "3S")
        assert s.to_move == 0 and s.excluded[2] == SUIT_MASK[S] | SUIT_MASK[D]
    assert _same_view(a, b) == Play(parse("4S"))
    assert observe(a, 0).legal == (Play(parse("7S")), Play(parse("4S")))


def _hidden_swap(state, seat):
    """A copy of ``state`` whose hidden cards differ, consistently with what
    ``seat`` knows; None if no such swap exists."""
    pools = []
    for p in range(state.n):
        if p != seat:
            hidden = state.hands[p] & ~state.known[p]
            pools += [(p, c) for c in range(40) if hidden >> c & 1]
    stock = [("stock", k) for k in range(state.drawn, len(state.stock) - 1)]
    pools += stock
    for i, (pa, xa) in enumerate(pools):
        for pb, xb in pools[i + 1:]:
            if pa == pb:
                continue
            ca = xa if pa != "stock" else state.stock[xa]
            cb = xb if pb != "stock" else state.stock[xb]
            ok_a = pa == "stock" or not state.excluded[pa] >> cb & 1
            ok_b = pb == "stock" or not state.excluded[pb] >> ca & 1
            if not (ok_a and ok_b):
                continue
            other = state.copy()
            for (p, x), old, new in (((pa, xa), ca, cb), ((pb, xb), cb, ca)):
                if p == "stock":
                    other.stock[x] = new
                else:
                    other.hands[p] ^= bit(old) | bit(new)
                    if other.just_drawn[p] == old:
                        other.just_drawn[p] = new
            return other
    return None


@pytest.mark.parametrize("rules", [TuttiRules(), TuttiRules(must_answer_trump=True),
                                   TuttiRules(players=3), TuttiRules(players=4),
                                   TuttiRules(players=4, pairs=True)],
                         ids=["two", "two-answer", "three", "four", "pairs"])
def test_decisions_do_not_depend_on_hidden_cards(rules):
    checked = 0
    for i in range(12):
        state = deal(rules, 21, i)
        bots = [make_bot("random", p, 21, i) for p in range(rules.players)]
        while not is_over(state):
            seat = state.to_move
            obs = observe(state, seat)
            other = _hidden_swap(state, seat)
            if other is not None:
                _same_view(state, other, seat)
                checked += 1
            apply(state, bots[seat].act(obs))
    assert checked > 200

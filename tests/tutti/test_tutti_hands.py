"""Whole Tutti hands and matches on seeded streams: points add up, every card
is played once, public knowledge never contradicts the hands, the same seed
gives the same hand, and matches replay ties and end on a Tute."""

import itertools
from dataclasses import replace

import pytest

from tutto_sim.core.api import IllegalAction
from tutto_sim.core.bots import parse_bots
from tutto_sim.core.rng import stream_start
from tutto_sim.tutti.bots import HeuristicBot, make_bot
from tutto_sim.tutti.cards import DECK_POINTS, LAST_TRICK, deck
from tutto_sim.tutti.reference import (
    BOT_NAMES, Observation, apply, deal, decode, encode, is_over, legal_actions, observe, play_hand,
    play_match,
)
from tutto_sim.tutti.rules import TuttiRules

TABLES = [(2, False), (3, False), (4, False), (4, True)]
COMBOS = [TuttiRules(players=n, pairs=p, must_answer_trump=m, allow_tute=a, tute_wins=t)
          for (n, p), m, a, t in itertools.product(TABLES, (False, True), (False, True),
                                                   ("match", "hand"))]


def lineup(rules, k):
    """Bots for a table: random and heuristic mixed, rotating with k."""
    names = ["random", "heuristic"]
    return parse_bots([names[(k + p) % 2] if k % 3 else names[k % 2] for p in range(rules.players)],
                      rules)


@pytest.mark.parametrize("rules", COMBOS, ids=lambda r: r.digest()[:8])
def test_points_add_up_in_every_hand(rules):
    for i in range(30):
        rec = play_hand(lineup(rules, i), rules, seed=11, index=i, leader=i % rules.players)
        assert rec.leader == i % rules.players and rec.dealer == (rec.leader - 1) % rules.players
        suits = [d.suit for d in rec.declarations if d.suit >= 0]
        assert len(suits) == len(set(suits)) <= 4
        assert all(d.points == (40 if d.suit == rec.trump_suit else 20)
                   for d in rec.declarations if d.suit >= 0)
        if rec.tute >= 0:
            assert rules.allow_tute and rec.winner == rules.side(rec.tute)
            assert sum(rec.card_points) <= DECK_POINTS
            continue
        assert sum(rec.card_points) == DECK_POINTS + LAST_TRICK == 130
        assert sum(rec.scores) == 130 + rec.declared_points
        played = [c for t in rec.tricks for _, c in t.plays]
        assert sorted(played) == deck(rules.players)
        assert len(rec.tricks) == len(deck(rules.players)) // rules.players
        assert rec.last_trick == rec.tricks[-1].winner
        top = max(rec.scores)
        assert rec.winner == (rec.scores.index(top) if rec.scores.count(top) == 1 else -1)
        if rules.players > 2:
            assert not rec.exchanges


@pytest.mark.parametrize("rules", [c for c in COMBOS if c.tute_wins == "match"],
                         ids=lambda r: r.digest()[:8])
def test_public_knowledge_never_contradicts_the_hands(rules):
    """Step by step: cards known in a hand are there, cards ruled out are not;
    every legal action round-trips through its integer id."""
    for i in range(8):
        state = deal(rules, 3, i, leader=i % rules.players)
        bots = [b.for_hand(p, 3, i) for p, b in enumerate(lineup(rules, i))]
        while not is_over(state):
            for p in range(rules.players):
                assert state.known[p] & ~state.hands[p] == 0
                assert state.excluded[p] & state.hands[p] == 0
            seat = state.to_move
            obs = observe(state, seat)
            assert all(decode(encode(a)) == a for a in obs.legal)
            assert len({encode(a) for a in obs.legal}) == len(obs.legal)
            assert all(legal_actions(state, p) == [] for p in range(rules.players) if p != seat)
            apply(state, bots[seat].act(obs))


def test_same_seed_same_hand_and_match():
    for rules in (TuttiRules(), TuttiRules(players=3), TuttiRules(players=4, pairs=True)):
        names = parse_bots(["random"] * rules.players, rules)
        assert play_hand(names, rules, 9, 4) == play_hand(names, rules, 9, 4)
        assert play_hand(names, rules, 9, 4) != play_hand(names, rules, 9, 5)
        r3 = replace(rules, hands=3)
        assert play_match(names, r3, 9, 2) == play_match(names, r3, 9, 2)


def test_random_bots_have_their_own_streams():
    obs_free = play_hand(parse_bots("random,random", TuttiRules()), TuttiRules(), 1, 0)
    again = play_hand([make_bot("random", 0, 1, 0), make_bot("random", 1, 1, 0)], TuttiRules(), 1, 0)
    assert obs_free.actions == again.actions
    a, b = make_bot("random", 0, 1, 0), make_bot("random", 1, 1, 0)
    assert [a.stream.below(1000) for _ in range(5)] != [b.stream.below(1000) for _ in range(5)]


def test_bots_see_only_observations_and_bad_bots_are_named():
    class Checker(HeuristicBot):
        name = "checker"

        def act(self, obs):
            assert type(obs) is Observation
            return super().act(obs)

    play_hand([Checker(), *parse_bots("random", TuttiRules())], TuttiRules(), 2, 0)

    class Bad:
        name = "bad"

        def act(self, obs):
            return "nonsense"

    with pytest.raises(IllegalAction, match="bad"):
        play_hand([Bad(), *parse_bots("random", TuttiRules())], TuttiRules(), 2, 0)
    with pytest.raises(ValueError, match="valid: random, heuristic"):
        make_bot("clever", 0, 0, 0)
    with pytest.raises(ValueError, match="2 players need 2 bots"):
        play_hand(parse_bots("random", TuttiRules()), TuttiRules())
    assert BOT_NAMES == ("random", "heuristic")


def test_matches_rotate_the_leader_and_replay_ties():
    rules = TuttiRules(hands=3)
    found_tie = False
    for m in range(300):
        rec = play_match(parse_bots("random,random", rules), rules, 4, m)
        if not rec.tute:
            assert rec.wins[rec.winner] == 3 == max(rec.wins) and not rec.capped
        leader = 0
        for k, h in enumerate(rec.hands):
            assert h.leader == leader and h.seed == stream_start(4, m) and h.index == k
            if h.winner >= 0:
                leader = (leader + 1) % 2
            else:
                found_tie = True
        if found_tie and m > 20:
            break
    assert found_tie


def test_a_tute_wins_the_match_or_only_the_hand():
    bots = parse_bots("heuristic,heuristic", TuttiRules())
    for m in range(2000):
        first = play_hand(bots, TuttiRules(), stream_start(5, m), 0, 0)
        if first.tute >= 0 and first.winner >= 0:
            break
    else:
        pytest.fail("no Tute found")
    match = play_match(bots, TuttiRules(hands=3), 5, m)
    assert match.tute and len(match.hands) == 1 and match.winner == first.winner
    assert match.wins[first.winner] == 1
    hand = play_match(bots, TuttiRules(hands=3, tute_wins="hand"), 5, m)
    assert not hand.tute and hand.hands[0].tute == first.tute and len(hand.hands) > 1
    assert max(hand.wins) == 3
    assert hand.hands[1].leader == 1


@pytest.mark.parametrize("n, pairs", TABLES)
def test_matches_to_every_number_of_hands(n, pairs):
    for hands in (1, 2, 3, 4, 5):
        rules = TuttiRules(players=n, pairs=pairs, hands=hands, tute_wins="hand")
        rec = play_match(lineup(rules, hands), rules, seed=8, index=hands)
        assert not rec.capped and rec.wins[rec.winner] == hands == max(rec.wins)
        assert sum(rec.wins) == sum(h.winner >= 0 for h in rec.hands)
        assert all(h.winner >= 0 or h.tute < 0 for h in rec.hands)

"""The heuristic bot's rules of thumb, each in a hand-made position."""

from tutto_sim.tutti.bots import HeuristicBot, RandomBot
from tutto_sim.core.rng import Stream
from tutto_sim.tutti.cards import mask, parse
from tutto_sim.tutti.reference import (
    Declare, Exchange, Pass, Play, State, apply, observe,
)
from tutto_sim.tutti.rules import TuttiRules

D, C, S, B = range(4)
BOT = HeuristicBot()


def cs(text):
    return [parse(x) for x in text.split()]


def table(rules, hands, trick="", stock="", leader=0, won=None):
    n = rules.players
    stock_cards = cs(stock)
    shown = stock_cards[-1] if stock_cards else 8
    s = State(rules=rules, dealer=(leader - 1) % n, first_leader=leader,
              hands=[mask(cs(h)) for h in hands], stock=stock_cards, drawn=0,
              trump_suit=D, shown=shown, leader=leader, to_move=leader)
    for k, c in enumerate(cs(trick)):
        s.trick.append(((leader + k) % n, c))
    s.to_move = (leader + len(s.trick)) % n
    if won:
        s.won = list(won)
    return s


def choose(s):
    return BOT.act(observe(s, s.to_move))


def test_exchange_then_declare_then_lead_cheap():
    s = table(TuttiRules(), ["7D HD AC 4S KB HB", "4C"], stock="4B 5B KD", won=(1, 0))
    s.moment = 0
    assert choose(s) == Exchange(parse("7D"))
    apply(s, choose(s))
    assert choose(s) == Declare(D)  # the 40 before the 20 in bastoni
    apply(s, choose(s))
    assert choose(s) == Play(parse("4S"))  # cheapest, keeping the undeclared batons pair


def test_win_cheaply_keep_trumps_for_aces_and_threes():
    two = TuttiRules()
    assert choose(table(two, ["", "5D 2S 6C AC"], trick="4C", stock="4B 6D")) == Play(parse("6C"))
    assert choose(table(two, ["", "5D 2S 4B"], trick="AC", stock="4B 6D")) == Play(parse("5D"))
    assert choose(table(two, ["", "5D 2S 4B"], trick="JC", stock="4B 6D")) == Play(parse("2S"))
    assert choose(table(two, ["", "5D 4D"], trick="JC", stock="4B 6D")) == Play(parse("4D"))


def test_discard_when_the_partner_wins_and_pass_with_nothing():
    pairs = TuttiRules(players=4, pairs=True)
    s = table(pairs, ["", "", "AS 4S JS", ""], trick="AC 5C")
    assert choose(s) == Play(parse("4S"))
    s.phase, s.moment, s.to_move = 1, 0, 2
    assert BOT.act(observe(s, 2)._replace(legal=(Pass(),))) == Pass()


def test_random_bot_is_uniform_over_legal_actions():
    s = table(TuttiRules(players=4), ["AC 4S JS 2B", "", "", ""])
    bot = RandomBot(Stream(3, 0))
    seen = {bot.act(observe(s, 0)) for _ in range(200)}
    assert seen == {Play(c) for c in cs("AC 4S JS 2B")}

"""Tutti as an OpenSpiel game (``tutti.openspiel_game``) and OpenSpiel's bots
at our table (``tutti.openspiel_bots``): OpenSpiel's own random-simulation
checks, matches played through the OpenSpiel API equal the reference
engine's (the same deals fed as chance outcomes, the same actions), what a
player's information state holds, resampling, returns, and the bots'
specs, seeds and refusals."""

import json

import numpy as np
import pyspiel
import pytest

from conftest import run_cli
from tutto_sim.core.bots import BotSpecError, parse_bots
from tutto_sim.core.rng import Stream
from tutto_sim.tutti import kernel
from tutto_sim.tutti.bots import VALID_BOTS, make_bot, parse_bot
from tutto_sim.tutti.cards import cards_of, code, deck
from tutto_sim.tutti.openspiel_bots import search_game
from tutto_sim.tutti.openspiel_game import SHORT_NAME, params_of
from tutto_sim.tutti.reference import (
    apply, deal, encode, is_over, legal_actions, observe, play_match, scores,
)
from tutto_sim.tutti.rules import TuttiRules
from tutto_sim.tutti.sampling import HiddenDeal, determinize


def load(rules: TuttiRules):
    return pyspiel.load_game(SHORT_NAME, params_of(rules))


def test_registered_with_the_options_as_parameters():
    game = pyspiel.load_game(SHORT_NAME)
    t = game.get_type()
    assert (t.dynamics, t.chance_mode, t.information, t.utility, t.reward_model) == (
        pyspiel.GameType.Dynamics.SEQUENTIAL, pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        pyspiel.GameType.Information.IMPERFECT_INFORMATION, pyspiel.GameType.Utility.ZERO_SUM,
        pyspiel.GameType.RewardModel.TERMINAL)
    assert game.rules == TuttiRules()
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (2, 87, 40)
    four = pyspiel.load_game(f"{SHORT_NAME}(players=4,pairs=True,hands=3,tute_wins=hand)")
    assert four.rules == TuttiRules(players=4, pairs=True, hands=3, tute_wins="hand")
    assert four.num_players() == 4
    three = load(TuttiRules(players=3, must_answer_trump=True, allow_tute=False))
    assert three.num_players() == 3 and three.rules.allow_tute is False
    for params, message in (({"players": 5}, "players must be one of 2, 3, 4, not 5"),
                            ({"hands": 0}, "hands must be one of 1, 2, 3, 4, 5, not 0"),
                            ({"tute_wins": "set"}, "tute_wins must be one of match, hand, not 'set'")):
        with pytest.raises(pyspiel.SpielError) as e:
            pyspiel.load_game(SHORT_NAME, params)
        assert str(e.value) == f"{SHORT_NAME}: {message}"


@pytest.mark.parametrize("rules", [TuttiRules(), TuttiRules(players=3, hands=2),
                                   TuttiRules(players=4, pairs=True, must_answer_trump=True)],
                         ids=["two", "three", "pairs"])
def test_openspiel_random_simulation_checks(rules):
    """OpenSpiel's own checks (``random_sim_test``: legal actions sorted and
    within range, chance probabilities, clones, strings and tensors of every
    player at every state, returns within the utilities and zero-sum)."""
    pyspiel.random_sim_test(load(rules), num_sims=1, serialize=True, verbose=False)


def deck_order(rec) -> list[int]:
    """A shuffled deck that deals the reference hand ``rec``: the hands in
    blocks from the leader round to the dealer (3-4 players: the dealer's
    shown card last of all); 2 players: then the card that shows trumps and
    the stock."""
    n = rec.rules.players
    order = []
    for k in range(n):
        seat = (rec.leader + k) % n
        block = cards_of(rec.deal[seat])
        if n > 2 and seat == rec.dealer:
            block.remove(rec.shown)
            block.append(rec.shown)
        order += block
    if n == 2:
        order += [rec.stock[-1], *rec.stock[:-1]]
    return order


def replay(game, match):
    """Play a reference match through the OpenSpiel API: its deals as chance
    outcomes, its actions as actions; check every step on the way."""
    rules = game.rules
    state = game.new_initial_state()
    wins = [0] * rules.sides
    for rec in match.hands:
        for c in deck_order(rec):
            assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = dict(state.chance_outcomes())
            assert sorted(outcomes) == sorted(set(deck(rules.players)) - set(state.shuffle))
            assert sum(outcomes.values()) == pytest.approx(1)
            assert len(set(outcomes.values())) == 1
            state.apply_action(c)
        hand = state.hand
        assert (tuple(hand.hands), tuple(hand.stock), hand.leader, hand.dealer) == (
            rec.deal, rec.stock, rec.leader, rec.dealer)
        for seat, action in rec.actions:
            assert state.current_player() == seat
            assert state.legal_actions() == sorted(encode(a) for a in legal_actions(hand, seat))
            assert all(state.legal_actions(p) == [] for p in range(rules.players) if p != seat)
            last = hand.copy()
            state.apply_action(encode(action))
        apply(last, action)
        assert scores(last) == list(rec.scores)
        if rec.winner >= 0:
            wins[rec.winner] += 1
        assert state.wins == wins
    return state


def find(rules, bots, want, n=4000):
    """The first match index (seed 1) whose kernel result satisfies ``want``."""
    res = kernel.simulate(bots, rules, 1, n)
    return int(np.flatnonzero(want(res))[0])


RULES = [TuttiRules(), TuttiRules(must_answer_trump=True, hands=3), TuttiRules(players=3, hands=2),
         TuttiRules(players=4), TuttiRules(players=4, pairs=True, hands=3, tute_wins="hand")]


@pytest.mark.parametrize("rules", RULES, ids=["two", "two-answer", "three", "four", "pairs"])
def test_a_match_through_openspiel_is_the_reference_match(rules):
    bots = ["heuristic", "random"] * 3
    for index in (0, 1):
        lineup = bots[index:index + rules.players]
        match = play_match(parse_bots(lineup, rules), rules, 1, index)
        state = replay(load(rules), match)
        assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
        won = [rules.side(p) == match.winner for p in range(rules.players)]
        lose = -1.0 if rules.pairs or rules.players == 2 else -1 / (rules.players - 1)
        assert state.returns() == [1.0 if w else lose for w in won]
        assert sum(state.returns()) == pytest.approx(0)
        assert state.history()[:len(deck(rules.players))] == deck_order(match.hands[0])


@pytest.mark.parametrize("rules, want", [
    (TuttiRules(hands=2), lambda r: r.hands > r.wins.sum(axis=1)),  # a tied hand replayed
    (TuttiRules(players=3, hands=3), lambda r: r.tutes > 0),  # a Tute ends the match at once
    (TuttiRules(players=3, hands=3, tute_wins="hand"), lambda r: (r.tutes > 0) & (r.hands > 1)),
], ids=["tie", "tute-match", "tute-hand"])
def test_ties_and_tutes_through_openspiel(rules, want):
    lineup = ["heuristic"] * rules.players
    index = find(rules, lineup, want)
    match = play_match(parse_bots(lineup, rules), rules, 1, index)
    state = replay(load(rules), match)
    assert state.is_terminal()
    assert state.winner == match.winner and tuple(state.wins) == match.wins
    assert state.returns() == [1.0 if p == match.winner else -0.5 if rules.players == 3 else -1.0
                               for p in range(rules.players)]


def positions(rules, seed, hands=2):
    """OpenSpiel states along hands of heuristic play, at every decision."""
    game = load(rules)
    bots = [make_bot("heuristic", p, seed, 0) for p in range(rules.players)]
    for i in range(hands):
        hand = deal(rules, seed, i)
        state = game.state_from(hand)
        while state.current_player() >= 0:  # to the end of the hand (a tie: to the next deal)
            yield state
            p = state.current_player()
            state.apply_action(encode(bots[p].act(observe(state.hand, p))))


@pytest.mark.parametrize("rules", [TuttiRules(), TuttiRules(players=4, pairs=True)],
                         ids=["two", "pairs"])
def test_the_information_state_is_the_observation(rules):
    """A player's information state changes with his observation and with
    nothing else: resampled hidden cards leave it (string and tensor) as it
    is, while the state itself — another player's hand — differs; it holds
    the own hand but not another's."""
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    moved = 0
    for k, state in enumerate(positions(rules, 5)):
        if k % 5:
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, sampler)
        assert observe(other.hand, p) == observe(state.hand, p)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.observation_string(p) == state.observation_string(p)
        assert other.legal_actions() == state.legal_actions()
        q = (p + 1) % rules.players
        if other.hand.hands[q] != state.hand.hands[q]:
            moved += 1
            assert other.information_state_string(q) != state.information_state_string(q)
        text = state.information_state_string(p)
        assert f"hand {' '.join(code(c) for c in cards_of(state.hand.hands[p]))} " in text
        mine = np.array(state.information_state_tensor(p))[rules.players:rules.players + 40]
        assert np.flatnonzero(mine).tolist() == cards_of(state.hand.hands[p])
        while not other.is_terminal():  # a resampled state plays on to a legal end
            other.apply_action(other.legal_actions()[0])
    assert moved >= 3


def test_a_resampled_deal_follows_the_observation():
    """``resample_from_infostate`` deals the hidden cards uniformly over what
    the observation allows (``sampling.HiddenDeal``): at the start of a
    4-player hand seat 0 has seen only his cards and the dealer's (seat 3)
    shown card, so of the 29 unseen cards seats 1 and 2 each get a given one
    with chance 10/29, the dealer with chance 9/29 (he holds the shown card
    besides)."""
    rules = TuttiRules(players=4)
    state = load(rules).state_from(deal(rules, 2, 0))
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    n = 300
    counts = np.zeros((4, 40))
    for _ in range(n):
        hands = state.resample_from_infostate(0, sampler).hand.hands
        for p in range(4):
            counts[p, cards_of(hands[p])] += 1
    shown = state.hand.shown
    assert counts[3, shown] == n and counts[0].tolist() == [n * (state.hand.hands[0] >> c & 1)
                                                            for c in range(40)]
    unseen = [c for c in range(40) if not state.hand.hands[0] >> c & 1 and c != shown]
    assert len(unseen) == 29
    share = counts[1:, unseen] / n
    assert share.sum(axis=0).tolist() == [1.0] * 29  # each card in one hand
    for p, chance in zip((1, 2, 3), (10 / 29, 10 / 29, 9 / 29)):
        sigma = np.sqrt(chance * (1 - chance) / n)
        assert np.all(np.abs(share[p - 1] - chance) < 4.5 * sigma)  # 87 cells: 4.5 sigma each


def test_openspiel_ismcts_decides_from_the_observation_alone():
    """Positions that differ only in the hidden cards (dealt again consistently
    with what the seat to move has seen): ``openspiel-ismcts`` of the same
    seat and seed decides the same, while ``openspiel-mcts``, which is shown
    the state, does not always (so the comparison can tell a bot that sees
    the cards). OpenSpiel's ISMCTS itself checks on every iteration that the
    resampled state has the root's information state."""
    rules = TuttiRules()
    state = deal(rules, 9, 0)
    mover = make_bot("heuristic", 0, 9, 0)
    compared = changed = 0
    while not is_over(state) and compared < 8:
        obs = observe(state, state.to_move)
        if len(obs.legal) > 1:
            hands, stock = HiddenDeal(obs).sample(Stream(compared, 0))
            other = determinize(obs, hands, stock)
            if hands != tuple(state.hands):
                assert observe(other, obs.seat) == obs
                picks = []
                for s in (state, other):
                    ismcts = make_bot("openspiel-ismcts:6", obs.seat, 4, 0)
                    mcts = make_bot("openspiel-mcts:6", obs.seat, 4, 0)
                    mcts.see(s.copy())
                    picks.append((ismcts.act(observe(s, obs.seat)), mcts.act(observe(s, obs.seat))))
                assert picks[0][0] == picks[1][0] and picks[0][0] in obs.legal
                changed += picks[0][1] != picks[1][1]
                compared += 1
        apply(state, mover.act(obs))
    assert compared == 8 and changed >= 1


def test_bot_specs_and_one_line_refusals():
    ismcts, named, mcts = (parse_bot(s, TuttiRules()) for s in
                           ("openspiel-ismcts", "OpenSpiel-ISMCTS:7", "openspiel-mcts:9(cheat)"))
    assert (ismcts.name, ismcts.budget) == ("openspiel-ismcts", 100)
    assert (named.name, named.budget) == ("openspiel-ismcts:7", 7)
    assert (mcts.name, mcts.budget) == ("openspiel-mcts:9(cheat)", 9)
    assert all(b.engine is b for b in (ismcts, named, mcts))
    assert make_bot("openspiel-mcts:9", 1, 2, 3).sees_state is True
    assert make_bot("openspiel-ismcts:7", 1, 2, 3).sees_state is False
    for spec, what in (("openspiel-ismcts:0", "iterations"), ("openspiel-mcts:x", "simulations"),
                       ("openspiel-ismcts:100001", "iterations")):
        kind = spec.partition(":")[0]
        with pytest.raises(BotSpecError) as e:
            parse_bot(spec, TuttiRules())
        assert str(e.value) == (f"bot {spec!r}: the {what} per decision must be a whole number "
                                f"1..100,000, as {kind}:100; {VALID_BOTS}")
    assert "openspiel-mcts:SIMULATIONS (sees every card)" in VALID_BOTS


def test_the_seed_and_seat_fix_the_bots_random_numbers():
    """Bot of seat p in hand i of seed s: everything from stream_start(stream_start(s, i), p + 1)."""
    from tutto_sim.core.rng import stream_start

    a, b = make_bot("openspiel-ismcts:4", 1, 5, 2), make_bot("openspiel-ismcts:4", 1, 5, 2)
    assert a.seed == b.seed == stream_start(stream_start(5, 2), 2)
    assert make_bot("openspiel-ismcts:4", 0, 5, 2).seed != a.seed
    obs = observe(deal(TuttiRules(), 5, 2), 0)
    assert [a.act(obs) for _ in range(3)] == [b.act(obs) for _ in range(3)]


def test_a_tournament_with_openspiel_bots_on_the_command_line(capsys, tmp_path):
    args = ["tournament", "--game", "tutti", "--players", "2", "--bots",
            "openspiel-ismcts:2,openspiel-mcts:2", "--games", "2", "--seed", "2",
            "--json", "--out-dir", str(tmp_path)]
    code_, out, err = run_cli(capsys, *args)
    assert code_ == 0, err
    res = json.loads(out)
    assert set(res["bots"]) == {"openspiel-ismcts:2", "openspiel-mcts:2(cheat)"}
    assert res["engine"] == "reference" and res["games"] == 2
    assert res["illegal_actions"] == {} and sum(res["game_ends"].values()) == 2
    again = json.loads(run_cli(capsys, *args)[1])
    for r in (res, again):
        r.pop("seconds")
    assert again == res  # the seed fixes the bots' numbers too


@pytest.mark.parametrize("spec", ["openspiel-ismcts:0", "openspiel-mcts:-3", "openspiel-ismcts:1e3"])
def test_a_bad_budget_is_one_line_and_exit_2(capsys, spec):
    code_, out, err = run_cli(capsys, "tournament", "--game", "tutti", "--bots",
                              f"{spec},random", "--games", "2")
    assert code_ == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"bot {spec!r}: the " in err and "per decision must be a whole number 1..100,000" in err


def test_the_search_game_is_one_hand_of_the_tables_rules():
    rules = TuttiRules(players=4, pairs=True, hands=4, must_answer_trump=True)
    game = search_game(rules)
    assert game.rules == TuttiRules(players=4, pairs=True, hands=1, must_answer_trump=True)
    hand = deal(rules, 1, 0)
    state = game.state_from(hand)
    while not is_over(state.hand):
        state.apply_action(state.legal_actions()[-1])
    assert state.is_terminal()
    with pytest.raises(ValueError, match="the hand's rules are not the game's"):
        game.state_from(deal(TuttiRules(players=4), 1, 0))

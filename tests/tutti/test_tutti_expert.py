"""Tutti's ``expert`` bot and the time budgets: its specs and one-line
refusals; the inference rebuilds the other players' hands exactly with 3
and 4 players (the true deal, played by the heuristic, has the probability
(1 − ε)^k, k the plays with a choice, counted in the reference engine); it
decides from the observation alone (a different consistent deal of the
hidden cards changes nothing) and is handed only observations; it is exact
where every card is known; a timed bot answers within its budget (loosely:
timings belong in benchmarks) and a timed tournament says it is not
reproducible."""

import json

import numpy as np
import pytest
from conftest import run_cli as run

from tutto_sim.core.bots import BotSpecError
from tutto_sim.tutti import expert, pimc
from tutto_sim.tutti.bots import VALID_BOTS, make_bot, parse_bot
from tutto_sim.tutti.game import GameConfig, play_tournament_game
from tutto_sim.tutti.reference import (
    Observation, apply, deal, is_over, legal_actions, legal_cards, observe, play_hand,
)
from tutto_sim.tutti.rules import TuttiRules
from tutto_sim.tutti import search

from test_tutti_search import Minimax
from test_tutti_search_bots import decide, known_endgame, redeal


def test_specs_and_one_line_refusals():
    rules = TuttiRules()
    names = {s: parse_bot(s, rules) for s in ("expert", "EXPERT:50", "expert@40ms",
                                              "expert-uniform", "expert-points:9",
                                              "expert-heuristic-end", "pimc@2s", "ismcts@30ms")}
    assert [b.name for b in names.values()] == [
        "expert", "expert:50", "expert@40ms", "expert-uniform", "expert-points:9",
        "expert-heuristic-end", "pimc@2000ms", "ismcts@30ms"]
    assert names["EXPERT:50"].samples == 50 and names["expert"].budget_ms is None
    assert names["expert@40ms"].budget_ms == 40 and names["pimc@2s"].budget_ms == 2000
    assert names["expert-uniform"].inference is False
    assert names["expert-points:9"].objective == "points"
    assert names["expert-heuristic-end"].exact is False
    assert all(b.engine is b for b in names.values())
    for spec in ("expert:0", "expert:5@50ms", "pimc@fast", "expert@0ms", "expert@99999999ms"):
        with pytest.raises(BotSpecError) as e:
            parse_bot(spec, rules)
        assert "\n" not in str(e.value) and str(e.value).endswith(VALID_BOTS)


@pytest.mark.parametrize("players", [3, 4])
def test_the_inference_rebuilds_past_hands_exactly(players):
    """Heuristic players throughout: at every decision of seat 0 the true
    deal's weight is (1 − ε)^k, k the other players' plays (in the window)
    that had two or more legal cards, counted in the reference engine."""
    rules = TuttiRules(players=players)
    eps = 0.3
    checked = 0
    for seed in range(3):
        state = deal(rules, seed, 0)
        bots = [make_bot("heuristic", p, seed, 0) for p in range(players)]
        choices = []  # (trick number, had a choice) of the other seats' plays
        while not is_over(state):
            seat = state.to_move
            if seat == 0 and state.phase != 2 and state.tricks:
                obs = observe(state, 0)
                past = expert.history(obs)
                w = np.empty(1)
                expert.likelihoods(search.from_state(state)[None, :], *past, eps,
                                   np.uint64(1), w)
                first = len(state.tricks) + 1 - expert.WINDOW
                k = sum(c for t, c in choices if t >= first)
                assert w[0] == pytest.approx((1 - eps) ** k, rel=1e-12)
                assert len(past[1]) == sum(1 for t, _ in choices if t >= first)
                checked += 1
            action = bots[seat].act(observe(state, seat))
            if action.kind == "play" and seat != 0:
                choices.append((len(state.tricks), len(legal_cards(state, seat)) > 1))
            apply(state, action)
    assert checked >= 20


def test_a_play_against_the_model_lowers_the_weight():
    """One card of seat 1 that is not the heuristic's weighs ε/(k − 1), k its
    legal cards; the other plays (the heuristic's) 1 − ε each when they had
    a choice."""
    from tutto_sim.tutti.reference import Play

    rules = TuttiRules(players=4)
    state = deal(rules, 5, 0)
    bots = [make_bot("heuristic", p, 5, 0) for p in range(4)]
    expected = 1.0
    deviated = False
    while not (deviated and state.to_move == 0):
        seat = state.to_move
        action = bots[seat].act(observe(state, seat))
        k = len(legal_cards(state, seat)) if action.kind == "play" else 0
        if seat == 1 and action.kind == "play" and k > 1 and not deviated:
            action = Play(next(c for c in legal_cards(state, seat) if c != action.card))
            expected *= 0.3 / (k - 1)
            deviated = True
        elif seat != 0 and action.kind == "play" and k > 1:
            expected *= 0.7
        apply(state, action)
    w = np.empty(1)
    expert.likelihoods(search.from_state(state)[None, :], *expert.history(state_obs(state)),
                       0.3, np.uint64(1), w)
    assert w[0] == pytest.approx(expected, rel=1e-12)


def state_obs(state):
    return observe(state, state.to_move)


@pytest.mark.parametrize("rules", [TuttiRules(), TuttiRules(players=3),
                                   TuttiRules(players=4, pairs=True)],
                         ids=["two", "three", "pairs"])
def test_a_different_deal_of_the_hidden_cards_changes_nothing(rules):
    bot = expert.ExpertBot(8)
    compared = 0
    state = deal(rules, 17, 0)
    mover = make_bot("heuristic", 0, 17, 0)
    while not is_over(state):
        if len(legal_actions(state, state.to_move)) > 1:
            other = redeal(state, compared)
            if other is not None:
                seat = state.to_move
                assert decide(bot, state) == decide(bot, other)
                assert bot.explain(observe(state, seat)) == bot.explain(observe(other, seat))
                compared += 1
        apply(state, mover.act(observe(state, state.to_move)))
    assert compared >= 6


def test_the_expert_is_handed_observations_only():
    rules = TuttiRules()
    handed: list = []

    def spy(bot):
        act = bot.act

        def act_spy(obs):
            handed.append(type(obs))
            return act(obs)

        bot.act = act_spy
        return bot

    assert not getattr(expert.ExpertBot(), "sees_state", False)
    play_hand([spy(expert.ExpertBot(4)), make_bot("heuristic", 1, 3, 0)], rules, 3, 0)
    play_tournament_game([spy(parse_bot("expert:4", rules)), parse_bot("heuristic", rules)],
                         GameConfig(rules), 3, 1)
    assert handed and set(handed) == {Observation}


def test_the_expert_is_exact_when_every_card_is_known():
    """With the stock empty there is one deal, searched once: each card's
    margin is the exact one of plain minimax (2 players: the points
    objective, margin + 30 for a win)."""
    brute = Minimax()
    bot = expert.ExpertBot(5)
    for seed in (1, 2):
        state = known_endgame(seed)
        seat = state.to_move
        side = state.rules.side(seat)
        est = bot.explain(observe(state, seat))
        for a, e in est.items():
            nxt = state.copy()
            apply(nxt, a)
            m = brute.value(nxt, side)
            assert e.deals == 1 and e.margin == m
            assert e.value == m + pimc.WIN_BONUS * ((m > 0) - (m < 0))


def test_the_win_objective_scores_wins_ties_and_losses():
    bot = expert.ExpertBot(objective="win")
    margins = np.array([[12, 0, -3]])
    assert bot._scores(margins, "win").tolist() == [
        [1 + 12 * expert.TIEBREAK, 0.5, -3 * expert.TIEBREAK]]


@pytest.mark.parametrize("spec", ["pimc@20ms", "expert@20ms"])
def test_a_timed_bot_decides_within_its_budget_loosely(spec):
    import time

    rules = TuttiRules()
    bot = parse_bot(spec, rules)
    state = deal(rules, 4, 0)
    obs = observe(state, state.to_move)
    t = time.perf_counter()
    est = bot.explain(obs)
    elapsed = time.perf_counter() - t
    assert set(est) == set(obs.legal) and all(e.deals >= pimc.BATCH for e in est.values())
    assert elapsed < 0.02 + 5.0  # generous: one batch may overrun, compilation too
    assert bot.act(obs) in obs.legal


def test_a_timed_tournament_says_it_is_not_reproducible(capsys, tmp_path):
    args = ("tournament", "--game", "tutti", "--games", "4", "--out-dir", str(tmp_path))
    code, out, _ = run(capsys, *args, "--bots", "pimc@5ms,heuristic", "--json")
    assert code == 0 and json.loads(out)["reproducible"] is False
    code, out, _ = run(capsys, *args, "--bots", "pimc:4,heuristic", "--json")
    assert code == 0 and json.loads(out)["reproducible"] is True
    code, out, _ = run(capsys, *args, "--bots", "expert@5ms,heuristic")
    assert code == 0 and "expert@5ms) decide by the clock: this run is not reproducible" in out

"""``tutto-sim play --game macke``: a human against bots, driven by scripted input,
and the advice it shows against the optimal table."""

import io

import pytest
from conftest import run_cli

from tutto_sim.core.bots import parse_bots
from tutto_sim.macke.game import GameConfig, play_macke_game
from tutto_sim.macke.human import MackeAdvisor, MackeHumanBot
from tutto_sim.macke.rules import MackeRules


def play(capsys, monkeypatch, text, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run_cli(capsys, "play", *args)


def test_a_whole_game_with_scripted_input(capsys, monkeypatch):
    # "1" everywhere: the fewest dice, bank at once, return nothing
    code, out, err = play(capsys, monkeypatch, "1\n" * 3000, "--game", "macke", "--bots", "cautious,optimal",
                          "--seed", "5")
    assert code == 0, err
    assert out.startswith("Berliner Macke to 5,000: seat 0 you, seat 1 cautious, seat 2 optimal; seed 5")
    assert "your throw (1 of 3 in this series):" in out and "  1) set aside" in out
    assert "game over:" in out and "winner" in out


def test_advice_and_letters(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "?\n2\n?\nb\n" + "t\n1\n" * 3000, "--game", "volle-lotte",
                        "--bots", "optimal", "--seed", "5", "--seat", "1", "--target", "2000")
    assert code == 0
    assert out.startswith("Volle Lotte to 2,000")
    assert "advice (optimal turn policy; expected points this turn adds):" in out and "<- best" in out


def test_quit(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "q\n", "--game", "macke", "--bots", "optimal", "--seed", "2")
    assert code == 0 and "you left the game: game abandoned" in out


@pytest.mark.parametrize("rules", [MackeRules(), MackeRules.preset("volle-lotte"),
                                   MackeRules.preset("jackpot", bust="zero", throws=2, target=3000)],
                         ids=["standard", "volle-lotte", "jackpot-zero-2throws"])
def test_following_the_advice_is_playing_the_optimal_table(rules):
    """The advice's values come from the solver's value arrays; picking the
    best one at every decision (ties as the solver breaks them) plays exactly
    the games of the ``optimal`` bot, which reads the decision table."""
    advisor = MackeAdvisor(rules)

    class Follower:
        name = "follower"

        def act(self, d):
            return d.legal[advisor.best(d)]

    optimal, other = parse_bots("optimal,cautious", rules)
    for i in range(25):
        a = play_macke_game([Follower(), other], GameConfig(rules), 3, i)
        b = play_macke_game([optimal, other], GameConfig(rules), 3, i)
        assert (a.scores, a.turns, a.banked_sq) == (b.scores, b.turns, b.banked_sq)


def test_advice_at_the_first_throw_averages_to_the_turn_value():
    """Over every first throw of a turn, the best keep's value averages to the
    solver's turn EV (431.48 under the default rules; a Macke scores 0)."""
    import itertools

    from tutto_sim.dice.scoring import ScoringRules
    from tutto_sim.dice.throws import build_tables
    from tutto_sim.macke.game import MackeDecision, MackeGameView, MackeKeep, throw_keeps
    from tutto_sim.macke.api import TurnView
    from tutto_sim.macke.reference import state_codec

    rules = MackeRules()
    advisor = MackeAdvisor(rules)
    codec, ms = state_codec(rules), build_tables(ScoringRules(6, rules.six_of_kind))
    view = MackeGameView("macke", rules, ("a", "b"), (0, 0), 0, 0, 0, None)
    total = 0.0
    for faces in itertools.product(range(1, 7), repeat=5):
        keeps = throw_keeps(tuple(sorted(faces)), rules)
        if not keeps:
            continue
        d = MackeDecision("keep", keeps, view, 0, 0, MackeKeep((), 0, 0), 2, 5, True, 1, faces,
                          TurnView(0, codec.state(()), 2, True), ms.multiset_of(faces),
                          tuple(codec.state(k.units) for k in keeps))
        total += max(advisor.values(d))
    assert total / 6**5 == pytest.approx(advisor.sol.turn_ev, abs=1e-9)


def test_human_bot_asks_again_on_bad_input():
    lines = iter(["x", "9", "t"] + ["b"] * 20)
    out = []
    human = MackeHumanBot("you", lambda prompt: next(lines), out.append)
    rules = MackeRules()
    seen = []

    class Spy:
        name = "spy"

        def act(self, d):
            if d.kind == "bank-or-throw":
                seen.append(d)
                return human.act(d)
            return d.legal[-1]

    play_macke_game([Spy()], GameConfig(rules, max_rounds=1), 1, 0)
    assert seen and any("please answer 1-2 or b, t" in s for s in out)


def _bank_or_throw(units, total, throws_left, dice, locked=0):
    from tutto_sim.dice.api import BANK, THROW
    from tutto_sim.macke.api import TurnView
    from tutto_sim.macke.game import MackeDecision, MackeGameView, MackeKeep
    from tutto_sim.macke.reference import state_codec

    rules = MackeRules()
    view = MackeGameView("macke", rules, ("you", "b"), (0, 0), 0, 0, 0, None)
    aside = MackeKeep(tuple(units), total - locked, sum(map(len, units)))
    return MackeDecision("bank-or-throw", (BANK, THROW), view, total, locked, aside, throws_left,
                         dice, False, 1 if not locked else 2, None,
                         TurnView(locked, state_codec(rules).state(tuple(units)), throws_left, False))


def test_advice_that_departs_from_the_threshold_says_why():
    """6-6-6 set aside after the first throw (600, two dice and two throws left):
    the advice banks though solve's threshold there is 1,050; the line under the
    advice names the exception. Where advice and threshold agree, no such line."""
    advisor = MackeAdvisor(MackeRules())
    assert int(advisor.sol.bank_threshold[2, 2]) == 1050
    out = []
    answers = iter(["?", "1"])
    human = MackeHumanBot("you", lambda prompt: next(answers), out.append, advisor=advisor)
    d = _bank_or_throw(["666"], 600, 2, 2)
    assert human.act(d) == d.legal[0]  # "1": bank
    text = "\n".join(out)
    assert "  1) bank" in text and "<- best" in text.split("  1) bank", 2)[2].splitlines()[0]
    assert ("  why: with 2 throws and 2 dice left the threshold is bank at ≥ 1,050, but the "
            "optimal table banks 6-6-6 at 600–1,000 (an exception: which units lie aside "
            "matters, not only the total)") in out
    # above the threshold the advice banks too, and says nothing more
    d = _bank_or_throw(["1", "5", "5"], 1200, 2, 2, locked=1000)
    assert advisor.best(d) == 0 and advisor.explain(d, advisor.values(d), 0) == []

"""``tutto-sim play``: a human against bots, driven here by scripted input."""

import io

import numpy as np
import pytest
from conftest import run_cli

from tutto_sim.tutto.api import BANK, BANK_OR_DRAW, BANK_OR_THROW, DRAW, KEEP, THROW, Decision, GameView, Keep
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.game import legal_keeps
from tutto_sim.tutto.human import Advisor, HumanBot, QuitGame
from tutto_sim.tutto.rules import TuttoRules


def play(capsys, monkeypatch, text, *args):
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run_cli(capsys, "play", *args)


def test_a_whole_game_with_scripted_input(capsys, monkeypatch):
    # "1" everywhere: the first keep (fewest dice), then bank at once
    code, out, err = play(capsys, monkeypatch, "1\n" * 5000, "--game", "tutto", "--bots", "cautious,optimal",
                          "--seed", "5")
    assert code == 0, err
    assert "seed 5" in out and "seat 0 you" in out
    assert "your throw:" in out and "  1) set aside" in out
    assert "game over:" in out and "winner" in out


def test_advice_on_request(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "?\n1\n?\nb\n" + "1\n" * 5000, "--bots", "cautious",
                        "--seed", "5", "--seat", "1")
    assert code == 0
    assert "advice (optimal turn policy" in out and "<- best" in out


def test_quit_and_end_of_input(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "q\n", "--bots", "optimal", "--seed", "2", "--seat", "1")
    assert code == 0 and "you left the game: game abandoned" in out
    code, out, _ = play(capsys, monkeypatch, "", "--bots", "optimal", "--seed", "2")
    assert code == 0 and "input ended: game abandoned" in out


@pytest.mark.parametrize("args, needle", [
    (("--seat", "3"), "--seat"),
    (("--bots", "nobody"), "valid bots"),
    (("--game", "pig"), "--game"),
    (("--name", "optimal"), "--name"),
])
def test_bad_options(capsys, monkeypatch, args, needle):
    code, out, err = play(capsys, monkeypatch, "", *args)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def _decision(kind, legal, card=Card.BONUS300, turn_total=0, dice=6, throw=None):
    view = GameView("tutto", TuttoRules(), ("you", "bot"), (0, 0), 0, 0, 0, False, (10,) * 11)
    return Decision(kind, tuple(legal), view, card, turn_total, 0, dice, throw)


def test_human_bot_reads_numbers_letters_and_asks_again():
    lines = iter(["7", "x", "b"])
    said = []
    bot = HumanBot("me", lambda prompt: next(lines), said.append)
    d = _decision(BANK_OR_THROW, (BANK, THROW), turn_total=450, dice=3)
    assert bot.act(d) == BANK
    assert sum("please answer 1-2" in s for s in said) == 2
    lines = iter(["q"])
    with pytest.raises(QuitGame):
        HumanBot("me", lambda prompt: next(lines), said.append).act(d)


@pytest.fixture(scope="module")
def advisor():
    return Advisor(TuttoRules())


def test_advice_agrees_with_the_solver(advisor):
    """The value of the best keep of each size is the solver's keep_values."""
    sol = advisor.sol
    scoring = TuttoRules().scoring
    for card, throw, total in [(Card.BONUS300, (1, 5, 2, 3, 4, 6), 0), (Card.X2, (1, 1, 5, 2, 3, 4), 1000),
                               (Card.BONUS600, (5, 5, 5, 1, 2), 350), (Card.BONUS200, (1, 5), 2000)]:
        keeps = legal_keeps(tuple(sorted(throw)), scoring)
        d = _decision(KEEP, keeps, card, total, len(throw), throw)
        vals, meaning = advisor.values(d)
        expect = sol.keep_values(card, list(throw), total) * 50
        for k, v in zip(keeps, vals):
            best_of_size = max(x.points for x in keeps if len(x.dice) == len(k.dice))
            if k.points == best_of_size:
                assert v == pytest.approx(expect[len(k.dice)])
            else:
                assert v <= expect[len(k.dice)] + 1e-9
        best = keeps[int(np.argmax(vals))]
        assert len(best.dice) == sol.best_keep(card, list(throw), total)[0]
    # after a Tutto: bank or draw, against the solver's draw value
    d = _decision(BANK_OR_DRAW, (BANK, DRAW), turn_total=600)
    vals, _ = advisor.values(d)
    assert vals == [600, pytest.approx(sol.draw_value[12] * 50)]
    assert vals[1] > vals[0]  # below 900 the optimum draws again


def test_advice_under_plusminus_is_the_tutto_chance(advisor):
    keeps = legal_keeps((1, 2, 3, 4, 5, 6), TuttoRules().scoring)
    d = _decision(KEEP, keeps, Card.PLUSMINUS, 0, 6, (1, 2, 3, 4, 5, 6))
    vals, meaning = advisor.values(d)
    assert meaning == "chance of the Tutto"
    p = advisor.sol.p_tutto_by_dice
    assert vals == [pytest.approx(p[5]), pytest.approx(p[5]), pytest.approx(p[4])]
    assert isinstance(keeps[0], Keep)

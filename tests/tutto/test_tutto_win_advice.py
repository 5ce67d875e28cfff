"""``play --game tutto --win-table FILE``: each choice's chance to win in the
advice, checked against the win table over every first throw of a turn.

Independent path: at the start of a turn the table's ``W[s, a, b]`` is the
sum over the cards of their frequency times the card's value, and a card's
value is the average over all first throws of the best choice's chance (a
Niete or the Stop: the opponent moves on the same scores; the Feuerwerk, which
has no choice, from the reference engine's distribution of its points and the
table's leaves). So the chances the advice shows after the first throw must
average back to the solver's ``W`` (and, in the last turn of a round, to its
last-turn chance ``L``)."""

from __future__ import annotations

import functools
import io
import itertools

import pytest
from conftest import run_cli

from tutto_sim.tutto.api import BANK_OR_DRAW, BANK_OR_THROW, KEEP, STREET, Decision, GameView
from tutto_sim.tutto.bots import WinOptBot
from tutto_sim.tutto.cards import DECK_COUNTS, DECK_SIZE, Card
from tutto_sim.tutto.game import legal_keeps, street_keeps
from tutto_sim.tutto.human import WinAdvisor
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.reference import _multisets, fireworks_points
from tutto_sim.tutto.win.solve2 import solve_win
from tutto_sim.tutto.win.table import WinTable, write_win_table

RULES = TuttoRules(target=300)
N = RULES.target // 50


@functools.lru_cache(maxsize=None)
def _solution(rules: TuttoRules):
    return solve_win(rules, evaluate_ev=False)


def _table(rules: TuttoRules = RULES) -> WinTable:
    sol = _solution(rules)
    return WinTable(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, sol.summary())


def _view(rules, scores, seat, last_round=False):
    return GameView("tutto", rules, ("a", "b"), scores, seat, 3, 1, last_round, (0,) * 11)


def _turn_value(rules, table, view, bust: float, bank) -> float:
    """Sum over the cards of q_c times the mean over first throws of the best
    chance the advice shows; ``bust`` the Niete/Stop leaf, ``bank(x)`` the leaf
    of banking x units (the Feuerwerk)."""
    adv, bot = WinAdvisor(table), WinOptBot(table)
    total = DECK_COUNTS[Card.STOP] / DECK_SIZE * bust
    fw = fireworks_points(rules.scoring, 3 * N)
    total += DECK_COUNTS[Card.FIREWORKS] / DECK_SIZE * sum(f * bank(x) for x, f in enumerate(fw))
    for card in Card:
        if card in (Card.STOP, Card.FIREWORKS):
            continue
        value = 0.0
        for dice, _, p in _multisets(6):
            if card is Card.STREET:
                d = Decision(STREET, street_keeps(sorted(set(dice))), view, card, 0, 0, 6, dice)
            else:
                keeps = legal_keeps(dice, rules.scoring)
                if not keeps:
                    value += p * bust
                    continue
                d = Decision(KEEP, keeps, view, card, 0, 0, 6, dice)
            chances = adv.chances(d)
            best = max(chances)
            # the winopt bot's choice is the one advised to win
            assert chances[d.legal.index(bot.act(d))] == pytest.approx(best, abs=1e-12)
            value += p * best
        total += DECK_COUNTS[card] / DECK_SIZE * value
    return total


@pytest.mark.parametrize("game_end, seat, a, b", [("round", 1, 0, 0), ("round", 1, 3, 5),
                                                   ("round", 1, 5, 2),
                                                   ("immediate", 0, 0, 0),
                                                   ("immediate", 0, 4, 1)])
def test_first_throw_chances_average_to_the_table(game_end, seat, a, b):
    """Banking at or above the target wins at once here (seat 1 completes the
    round; or the game ends at once), so the Feuerwerk's leaves are the
    table's W below the target and 1 above it."""
    rules = TuttoRules(target=300, game_end=game_end)
    table = _table(rules)
    W = table.W
    scores = (a * 50, b * 50) if seat == 0 else (b * 50, a * 50)
    view = _view(rules, scores, seat)
    got = _turn_value(rules, table, view, 1.0 - W[1 - seat, b, a],
                      lambda x: 1.0 - W[1 - seat, b, a + x] if a + x < N else 1.0)
    assert got == pytest.approx(W[seat, a, b], abs=1e-9)


@pytest.mark.parametrize("over", [0, 5])
def test_last_turn_chances_average_to_L(over):
    """Seat 1's last turn on 250 against seat 0 ``over`` units past the target:
    it wins by banking more than the lead, ties at the lead (1/2); the first
    throws average to the table's last-turn chance at that lead."""
    table = _table()
    c = N - 1
    view = _view(RULES, ((N + over) * 50, c * 50), 1, last_round=True)
    lead = N + over - c
    leaf = lambda x: 1.0 if x > lead else 0.5 if x == lead else 0.0  # noqa: E731
    got = _turn_value(RULES, table, view, leaf(0), leaf)
    assert got == pytest.approx(table.last_turn_table[1, lead + 1], abs=1e-9)


def test_bank_and_draw_chances_are_the_tables_leaves():
    table, adv = _table(), WinAdvisor(_table())
    W = table.W
    # seat 0 on 50 against 100: banking 100 leaves the opponent to move on 100 against 150
    view = _view(RULES, (50, 100), 0)
    d = Decision(BANK_OR_THROW, ("bank", "throw"), view, Card.BONUS300, 100, 100, 3)
    bank, on = adv.chances(d)
    assert bank == pytest.approx(1.0 - W[1, 2, 3], abs=1e-15) and 0.0 <= on <= 1.0
    d = Decision(BANK_OR_DRAW, ("bank", "draw"), view, Card.BONUS300, 150, 150, 0)
    bank, draw = adv.chances(d)
    assert bank == pytest.approx(1.0 - W[1, 2, 4], abs=1e-15)
    # the draw from a Tutto with 0 in the turn: the turn start's value W
    d = Decision(BANK_OR_DRAW, ("bank", "draw"), view, Card.BONUS300, 0, 0, 0)
    assert adv.chances(d)[1] == pytest.approx(W[0, 1, 2], abs=1e-9)
    # seat 1 reaching the target completes the round and wins: banking 50 on 250
    # wins; throwing on 1 die is a Tutto (a 1 or a 5: 1/3, then the target) or a
    # Niete (the opponent moves on 250 against 250)
    view = _view(RULES, (250, 250), 1)
    d = Decision(BANK_OR_THROW, ("bank", "throw"), view, Card.BONUS300, 50, 50, 1)
    bank, on = adv.chances(d)
    assert bank == 1.0 and on == pytest.approx(1 / 3 + 2 / 3 * (1.0 - W[0, 5, 5]), abs=1e-12)


def test_bank_or_throw_on_as_the_winopt_bot():
    """At every pair of scores, turn total (below the target; seat 0 also past
    it, where it may press on for a larger lead) and dice left: the winopt bot
    banks where banking's chance is the higher and throws on where throwing
    on's is (ties: either)."""
    table = _table()
    adv, bot = WinAdvisor(table), WinOptBot(table)
    kinds = set()
    for seat, a, b in itertools.product((0, 1), range(N), range(N)):
        view = _view(RULES, (a * 50, b * 50) if seat == 0 else (b * 50, a * 50), seat)
        top = N - a + (table.margin_cap if seat == 0 else 0)  # seat 0 may press on
        for t, dice in itertools.product(range(1, top, 1 if seat else 3), (1, 3, 5)):
            d = Decision(BANK_OR_THROW, ("bank", "throw"), view, Card.BONUS200, 50 * t, 50 * t,
                         dice)
            bank, on = adv.chances(d)
            if abs(bank - on) > 1e-12:
                kinds.add(bot.act(d))
                assert bot.act(d) == ("bank" if bank > on else "throw"), (a, b, t, dice)
    assert kinds == {"bank", "throw"}


def test_play_shows_the_chances(capsys, monkeypatch, tmp_path):
    path = tmp_path / "w.json"
    write_win_table(_solution(RULES), path)
    monkeypatch.setattr("sys.stdin", io.StringIO("?\n" + "1\n" * 400))
    code, out, err = run_cli(capsys, "play", "--game", "tutto", "--target", "300", "--seed", "4",
                             "--win-table", str(path))
    assert code == 0, err
    assert "your chance to win the game" in out and "<- best to win" in out, out
    assert "set aside 3 3 3 5 (350)" in out and "%  <- best to win" in out
    bad = tmp_path / "bad.json"
    bad.write_text(path.read_text()[:200])
    for args, words in (((f"--win-table={path}", "--bots", "optimal,optimal"), "is for 2 players, not 3"),
                        ((f"--win-table={bad}",), "damaged or truncated"),
                        ((f"--win-table={tmp_path / 'none.json'}",), "cannot read"),
                        ((f"--win-table={path}", "--target", "250"), "other rules: target=250")):
        extra = () if "--target" in args else ("--target", "300")
        code, out, err = run_cli(capsys, "play", "--game", "tutto", *extra, *args)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_kleeblatt_after_its_first_tutto():
    """Once the first Tutto under the Kleeblatt is made (the human set aside
    every die), the next one wins: over every throw of 6 dice the best keep's
    chance averages to Z + p6 (1 - Z), p6 the turn solver's chance of a Tutto
    from 6 dice (an independent programme); before it, to Z + p6^2 (1 - Z)."""
    from tutto_sim.tutto.human import Advisor, HumanBot

    table = _table()
    W = table.W
    view = _view(RULES, (100, 150), 0)
    bust = 1.0 - W[1, 3, 2]
    p6 = float(Advisor(RULES).sol.p_tutto_by_dice[6])
    out: list[str] = []
    answers = ["?", "15"]  # advice, then the 15th keep of 1 1 1 5 5 5: every die
    human = HumanBot("you", lambda prompt: answers.pop(0), out.append, Advisor(RULES), False)
    human.win = WinAdvisor(table)

    def mean_best() -> float:
        total = 0.0
        for dice, _, p in _multisets(6):
            keeps = legal_keeps(dice, RULES.scoring)
            d = Decision(KEEP, keeps, view, Card.CLOVERLEAF, 0, 0, 6, dice)
            total += p * (max(human.win.chances(d, human._clover_turn == view.turn))
                          if keeps else bust)
        return total

    assert mean_best() == pytest.approx(bust + p6 * p6 * (1.0 - bust), abs=1e-9)
    keeps = legal_keeps((1, 1, 1, 5, 5, 5), RULES.scoring)
    assert len(keeps) == 15
    d = Decision(KEEP, keeps, view, Card.CLOVERLEAF, 0, 0, 6, (1, 1, 1, 5, 5, 5))
    assert human.act(d) == keeps[-1] and len(keeps[-1].dice) == 6
    assert "<- best to win" in "\n".join(out)
    assert mean_best() == pytest.approx(bust + p6 * (1.0 - bust), abs=1e-9)

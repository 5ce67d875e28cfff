"""``play --game tutto --players 3 --win-table FILE``: each choice's chance to
win at a table of three, checked against the N-player table over every first
throw of a turn.

Independent path, as for two players (tests/tutto/test_tutto_win_advice.py):
at the start of seat s's turn the table's value for s is the sum over the
cards of their frequency times the card's value, a card's value the average
over all first throws of the best choice's chance the advice shows (a Niete
or the Stop: the next seat moves on the same scores; the Feuerwerk, which has
no choice, from the reference engine's distribution of its points). The
leaves are read here from the rules of the end of the game: below the target
the next seat's turn start ``W``; reaching it under ``immediate``, or as the
last seat of the round, wins; else the next seat's end of the round ``E``
(scores past the cap counting as the cap); after the last seat's turn in the
end of the round the highest score wins, ties share."""

from __future__ import annotations

import functools
import io

import numpy as np
import pytest
from conftest import run_cli

from tutto_sim.tutto.api import KEEP, STREET, Decision, GameView
from tutto_sim.tutto.cards import DECK_COUNTS, DECK_SIZE, Card
from tutto_sim.tutto.game import legal_keeps, street_keeps
from tutto_sim.tutto.human import WinAdvisor
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.win.reference import _multisets, fireworks_points
from tutto_sim.tutto.win.solve_n import solve_win_n
from tutto_sim.tutto.win.table import WinTableN, write_win_table_n

P = 3
TARGET = 200
N = TARGET // 50


@functools.lru_cache(maxsize=None)
def _solution(game_end: str):
    return solve_win_n(TuttoRules(target=TARGET, game_end=game_end), players=P,
                       evaluate_ev=False)


def _table(game_end: str) -> WinTableN:
    sol = _solution(game_end)
    return WinTableN(sol.rules, P, sol.W, sol.E, sol.margin_cap, sol.summary())


def _leaf(table: WinTableN, s: int, y: tuple, end_phase: bool) -> float:
    """Seat s's chance when its turn ends with the scores ``y`` (units)."""
    M = N + table.margin_cap + 1
    clip = tuple(min(v, M - 1) for v in y)
    immediate = table.rules.game_end == "immediate"
    if not end_phase and y[s] < N:
        return float(table.W[((s + 1) % P,) + y + (s,)])
    if not end_phase and (immediate or s == P - 1):
        return 1.0  # the target reached: at once, or the round is complete
    if s == P - 1:  # the last turn of the game: the highest score wins
        top = max(y)
        return 1.0 / y.count(top) if y[s] == top else 0.0
    return float(table.E[(s + 1,) + clip + (s,)])


def _turn_value(table: WinTableN, seat: int, x: tuple, end_phase: bool) -> float:
    rules = table.rules
    adv = WinAdvisor(table)
    names = tuple("abc"[:P])
    view = GameView("tutto", rules, names, tuple(50 * v for v in x), seat, 3, 1, end_phase,
                    (0,) * 11)

    def bank(t: int) -> float:
        y = list(x)
        y[seat] += t
        return _leaf(table, seat, tuple(y), end_phase)

    bust = bank(0) if end_phase else float(table.W[((seat + 1) % P,) + x + (seat,)])
    total = DECK_COUNTS[Card.STOP] / DECK_SIZE * bust
    fw = fireworks_points(rules.scoring, 2 * (N + table.margin_cap + 2))
    total += DECK_COUNTS[Card.FIREWORKS] / DECK_SIZE * sum(f * bank(t) for t, f in enumerate(fw))
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
            value += p * max(adv.chances(d))
        total += DECK_COUNTS[card] / DECK_SIZE * value
    return total


@pytest.mark.parametrize("game_end, seat, x", [("round", 0, (0, 0, 0)), ("round", 1, (2, 1, 3)),
                                               ("round", 2, (3, 3, 0)),
                                               ("immediate", 0, (0, 0, 0)),
                                               ("immediate", 2, (1, 3, 2))])
def test_first_throw_chances_average_to_the_table(game_end, seat, x):
    table = _table(game_end)
    got = _turn_value(table, seat, x, False)
    assert got == pytest.approx(float(table.W[(seat,) + x + (seat,)]), abs=1e-9)


@pytest.mark.parametrize("seat, x", [(1, (N + 2, 1, 3)), (2, (N, N + 5, 2)), (2, (N + 60, 0, 1))])
def test_end_of_the_round_averages_to_E(seat, x):
    """Someone has reached the target: the seats after him have one more turn
    (the last of them against the highest score; scores past the cap count
    as the cap)."""
    table = _table("round")
    M = N + table.margin_cap + 1
    clip = tuple(min(v, M - 1) for v in x)
    got = _turn_value(table, seat, clip, True)
    assert got == pytest.approx(float(table.E[(seat,) + clip + (seat,)]), abs=1e-9)
    if clip != x:  # the advice reads the capped state for a score past the cap
        adv = WinAdvisor(table)
        view = GameView("tutto", table.rules, ("a", "b", "c"), tuple(50 * v for v in x), seat,
                        3, 1, True, (0,) * 11)
        lay, _ = adv.planner.where(view, 0)
        assert np.isclose(lay.D[0, 0], table.E[(seat,) + clip + (seat,)], atol=1e-9)


def test_play_at_a_table_of_three(capsys, monkeypatch, tmp_path):
    path = tmp_path / "w3.json"
    write_win_table_n(_solution("round"), path)
    monkeypatch.setattr("sys.stdin", io.StringIO("?\n" + "1\n" * 600))
    code, out, err = run_cli(capsys, "play", "--game", "tutto", "--players", "3", "--target",
                             str(TARGET), "--seed", "4", "--win-table", str(path))
    assert code == 0, err
    assert "all 3 players play to win from here" in out and "%  <- best to win" in out, out
    for args, words in ((("--players", "4"), "is for 3 players, not 4"),
                        ((), "is for 3 players, not 2"),
                        (("--players", "3", "--game-end", "immediate"),
                         "other rules: game_end='immediate'"),
                        (("--players", "3", "--target", "250"), "other rules: target=250")):
        extra = () if "--target" in args else ("--target", str(TARGET))
        code, out, err = run_cli(capsys, "play", "--game", "tutto", *extra, *args,
                                 f"--win-table={path}")
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1, err

"""The Tutto report's pages on playing to win (two players).

Part of the report layer. :func:`compute` loads the win table
(docs/win.md) of the report's rules at a quick target, or of the game's own
target when ``results/tutto-win-TARGET-<run>.json`` holds one, else solves it;
:func:`heatmap` and :func:`thresholds` draw the chance to win over both
scores for either seat and how the bank threshold of the win-optimal player
moves with the score difference (``core.win_report``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

import numpy as np

from tutto_sim import __version__
from tutto_sim.core.report import rules_label, sentence
from tutto_sim.core.win_report import BankCurves, WinMap, heatmap_sheet, threshold, thresholds_sheet
from tutto_sim.dice.scoring import POINT_UNIT
from tutto_sim.tutto.cards import Card
from tutto_sim.tutto.rules import TuttoRules

#: The win table's target when none is given and no file of the game's own
#: target is at hand (solves in well under a minute on 2 cores).
DEFAULT_WIN_TARGET = 1000
#: The situation of the threshold page: the card and the dice left after setting aside.
CARD, DICE = Card.BONUS300, 2
SEATS = ("moving first in each round", "moving second")


@dataclass(frozen=True)
class TuttoWinPages:
    report_rules: TuttoRules  # the report's rules
    rules: TuttoRules  # the win table's rules (its target)
    source: str  # where the table came from, in words
    maps: list
    curves: list


def win_table(rules: TuttoRules, win_target: int | None = None):
    """(table, words): ``results/tutto-win-T-<run>.json`` when it fits (``T`` the
    game's own target without ``win_target``, then the quick default), else
    solved now (``tutto.bots.win_table``)."""
    from tutto_sim.core.policyfile import PolicyFileError
    from tutto_sim.tutto.bots import win_table as table_of
    from tutto_sim.tutto.winprob import default_win_file, load_win_table

    targets = [win_target] if win_target else [rules.target, DEFAULT_WIN_TARGET]
    for t in targets:
        path = default_win_file(replace(rules, target=t))[0]
        if path.exists():
            try:
                return load_win_table(path, replace(rules, target=t)), f"read from {path}"
            except PolicyFileError:
                pass  # other rules: solve
    return table_of(replace(rules, target=targets[-1])), "solved for this report"


def compute(rules: TuttoRules, ev_bank_threshold: int | None, win_target: int | None = None
            ) -> TuttoWinPages:
    """``ev_bank_threshold``: the points-optimal threshold (points; None: never)
    of :data:`CARD` with :data:`DICE` dice left."""
    from tutto_sim.tutto.winprob import WinPlanner

    table, source = win_table(rules, win_target)
    r, u = table.rules, POINT_UNIT
    n = r.target // u
    scores = np.arange(n) * u
    maps = [WinMap(f"seat {seat}: {SEATS[seat]}", scores, np.asarray(table.W[seat]))
            for seat in (0, 1)]
    planner = WinPlanner(table)
    lowest = (6 - DICE) * u
    opps = sorted({0, n // 4, n // 2, 3 * n // 4, n - 2})
    curves = []
    for seat in (0, 1):
        lines = {}
        for opp in opps:
            ths = []
            for own in range(n):
                scores_ = (own * u, opp * u) if seat == 0 else (opp * u, own * u)
                view = SimpleNamespace(seat=seat, scores=scores_, last_round=False)
                top = (n - own + planner.mc + 2) * u
                totals = np.arange(lowest, top + u, u)
                banks = [planner.banks(view, CARD, int(t), 0, DICE, 0) for t in totals]
                ths.append(threshold(totals, banks))
            lines[opp * u] = (scores, np.array(ths, dtype=float))
        curves.append(BankCurves(f"seat {seat}: {SEATS[seat]}", lines, ev_bank_threshold,
                                 lowest))
    return TuttoWinPages(rules, r, source, maps, curves)


def _table_words(w: TuttoWinPages) -> str:
    end = ("the round is finished when someone reaches it" if w.rules.game_end == "round"
           else "the first to reach it wins")
    return (f"Two players to {w.rules.target:,} ({end}), exact win table (docs/win.md; cards "
            "drawn independently at the deck's frequencies). "
            f"{sentence(rules_label(w.report_rules))} (the target aside); "
            f"tutto-sim {__version__}.")


def heatmap(w: TuttoWinPages, number: int):
    r = w.rules
    title = "Tutto played to win: your chance at the start of your turn"
    caption = (f"Colour: your chance to win a two-player game of Tutto to {r.target:,} at the "
               "start of your turn, with your score up the side and the opponent's along the "
               "bottom, when both of you play to win from here on; lines: 25%, 50% and 75%. "
               "Left: you move first in each round; right: you move second (when the first "
               "player reaches the target, you still get your turn of that round). "
               f"{_table_words(w)}")
    return heatmap_sheet(w.maps, title, caption, number, "win-chance")


def thresholds(w: TuttoWinPages, number: int):
    bonus = CARD.name.replace("BONUS", "Bonus ")
    title = "Playing to win: when to bank, by the score"
    caption = (
        f"With the card {bonus} and {DICE} dice left after setting aside: the smallest turn "
        "total from which a player who plays to win banks (and banks at every larger total), "
        "against your score minus the opponent's, for a few scores of the opponent (crosses "
        "along the top: it never banks there and throws on); dashed: the threshold of the "
        "player who plays for the most points per turn, whatever the scores. Left: you move "
        "first in each round; right: second. Behind, the winner throws on for more; near "
        f"the end it plays for what it needs to win. {_table_words(w)}")
    return thresholds_sheet(w.curves, title, caption, number, "win-bank-thresholds")

"""The Tutto report's pages on playing to win (two players).

Part of the report layer. :func:`compute` loads the win table
(docs/win.md) of the report's rules at a quick target, or of the game's own
target when ``results/tutto-win-TARGET-<run>.json`` holds one, else solves it;
:func:`heatmap` and :func:`thresholds` draw the chance to win over both
scores for either seat and how the bank threshold of the win-optimal player
moves with the score difference (``core.win_report``). :func:`sizes_page`
sets the two-player answer beside the tables of three and four players that
``results/`` holds at the same target (``tutto.win.solve_n``; none is solved
here): the bank threshold after a Tutto by own score and the leader's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

import numpy as np

from tutto_sim import __version__
from tutto_sim.core.report import BLUE, GREEN, GREY, INK, ORANGE, Sheet, landscape_page, rules_label, sentence
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


#: The table sizes set beside two players on the page of :func:`sizes_page`.
SIZES = (3, 4)


@dataclass(frozen=True)
class SizeCurves:
    """The bank threshold after a Tutto (points; NaN: it never banks below the
    cap) of the win-optimal player in seat 0 at the start of his turn, by own
    score ``own``: ``lines[leader]`` a list of (label, thresholds), the
    leader (seat 1) on ``leader`` points; ``files`` per table size in words,
    ``found`` the sizes whose tables were read."""

    own: np.ndarray
    lines: dict
    files: list
    found: tuple = ()


@dataclass(frozen=True)
class TuttoWinPages:
    report_rules: TuttoRules  # the report's rules
    rules: TuttoRules  # the win table's rules (its target)
    source: str  # where the table came from, in words
    maps: list
    curves: list
    sizes: SizeCurves | None = None


def win_table(rules: TuttoRules, win_target: int | None = None):
    """(table, words): ``results/tutto-win-T-<run>.json`` when it fits (``T`` the
    game's own target without ``win_target``, then the quick default), else
    solved now (``tutto.bots.win_table``)."""
    from tutto_sim.core.policyfile import PolicyFileError
    from tutto_sim.tutto.bots import win_table as table_of
    from tutto_sim.tutto.win.table import default_win_file, load_win_table

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
    from tutto_sim.tutto.win.planner import WinPlanner

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
    return TuttoWinPages(rules, r, source, maps, curves, size_curves(table))


def bank_from_points(ts) -> float:
    """A ``TurnStart``'s bank threshold after a Tutto in points (NaN: never below the cap)."""
    t = ts.bank_from()
    return float("nan") if t >= ts.tcap else float(t * POINT_UNIT)


def size_tables(rules: TuttoRules) -> tuple[dict, list]:
    """({players: table}, words per size) for the tables of :data:`SIZES` at
    ``rules`` in ``results/`` (``table.default_win_file(rules, players)``)."""
    from tutto_sim.core.policyfile import PolicyFileError
    from tutto_sim.tutto.win.table import default_win_file
    from tutto_sim.tutto.win.table import load_win_table_n

    tables, files = {}, []
    for size in SIZES:
        path = default_win_file(rules, size)[0]
        make = (f"solving to win for {size} players to {rules.target:,} writes it: docs/win.md, "
                "Three and four players at the table")
        if not path.exists():
            files.append(f"{size} players: {path} is absent ({make})")
            continue
        try:
            tables[size] = load_win_table_n(path, rules, size)
            files.append(f"{size} players: read from {path}")
        except PolicyFileError as e:
            files.append(f"{size} players: {path} was not used ({e}; {make})")
    return tables, files


def size_curves(table) -> SizeCurves:
    """:class:`SizeCurves` of the two-player ``table`` and the tables of three
    and four at its rules: the leader on a quarter, half and three quarters
    of the target; the others (seats 2..) on the leader's score or on 0."""
    from tutto_sim.tutto.win.planner import turn_start
    from tutto_sim.tutto.win.planner import programme_of

    r, u = table.rules, POINT_UNIT
    n = r.target // u
    tables, files = size_tables(r)
    progs = {size: programme_of(t) for size, t in tables.items()}
    own = np.arange(n)
    lines = {}
    for lead in sorted({n // 4, n // 2, 3 * n // 4} - {0}):
        two = [bank_from_points(turn_start(r, table.W, table.last_turn_table, table.margin_cap,
                                           0, o, lead)) for o in own]
        ls = [("2 players", np.array(two))]
        for size, prog in progs.items():
            for rest in (lead, 0):
                th = [bank_from_points(prog.turn_start(0, (o, lead) + (rest,) * (size - 2)))
                      for o in own]
                ls.append((f"{size} players, the others on {rest * u:,}", np.array(th)))
        lines[lead * u] = ls
    return SizeCurves(own * u, lines, files, tuple(progs))


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


_STYLES = (dict(color=INK, marker="o", ls="-"), dict(color=BLUE, marker="s", ls="-"),
           dict(color=BLUE, marker="s", ls=":"), dict(color=ORANGE, marker="^", ls="-"),
           dict(color=ORANGE, marker="^", ls=":"), dict(color=GREEN, marker="D", ls="-"))


def sizes_page(w: TuttoWinPages, number: int) -> Sheet:
    """Two players against three and four: the bank threshold after a Tutto."""
    c, r = w.sizes, w.rules
    title = "Playing to win at a table of three or four: when to bank after a Tutto"
    caption = (
        "After a Tutto at the start of the turn (nothing deducted yet): the smallest turn "
        "total from which a player who plays to win banks rather than draws another card "
        "(and banks at every larger total), against his own score, when he moves first in the "
        "round (seat 0) and the leader moves next (seat 1) on the score above each panel; at a "
        "table of three or four the other players (seats 2 and 3) are on the leader's score "
        "(solid) or on 0 (dotted). Black: two players, the same leader. Crosses along the "
        "top: it never banks there (it draws on to the cap). "
        f"{'Tables' if c.found else 'No table of three or four players was found'}: "
        + "; ".join(c.files) + ". " + _table_words(w).replace("Two players", "The two-player "
                                                              "table:", 1))
    fig = landscape_page(title, caption)
    axes = fig.subplots(1, max(1, len(c.lines)), squeeze=False)[0]
    for ax, (lead, ls) in zip(axes, sorted(c.lines.items())):
        finite = [float(np.nanmax(th)) for _, th in ls if np.isfinite(th).any()]
        ymax = max(finite + [float(POINT_UNIT)]) * 1.08 + 50
        for k, (label, th) in enumerate(ls):
            st = _STYLES[k % len(_STYLES)]
            ax.plot(c.own, th, lw=1.3, ms=3.5, mfc="white", label=label, **st)
            never = np.isnan(th)
            ax.plot(c.own[never], np.full(int(never.sum()), ymax), ls="none", ms=4,
                    marker="x", color=st["color"])
        ax.axvline(lead, color="#AAAAAA", lw=0.8)
        ax.set_ylim(0, ymax + 60)
        ax.set_xlabel("your score (points)")
        ax.set_ylabel("after a Tutto, banks from (points)")
        ax.set_title(f"leader (seat 1) on {lead:,} of {r.target:,}", loc="left", fontsize=10)
        ax.legend(loc="upper right", fontsize=7.5)
    if not c.lines:
        axes[0].text(0.5, 0.5, "the target is too small for this page", ha="center",
                     transform=axes[0].transAxes, color=GREY)
    return Sheet(fig, f"{number:02d}-win-table-sizes", title, caption)

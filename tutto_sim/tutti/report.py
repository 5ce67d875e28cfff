"""The Tutti report: compute (``report_data``), draw (``report_figures``), write.

:func:`build` writes ``tutti-report.pdf`` (a cover page and one page per
figure), one PNG per figure and a ``README.md`` index with every caption into
``out_dir`` (``core.report.build_report``); docs/reports.md describes the
pages. ``tournament`` adds a page of win rates from a tournament CSV.
``games`` (the report command's ``--games``) is the number of **matches per
table** (a match is a game of Tutti): every kernel tournament plays that many
matches at each table, and the other parts a fixed share or multiple of it
(``report_data.sizes``).
"""

from __future__ import annotations

from pathlib import Path

from tutto_sim.core import report as R
from tutto_sim.core.report import ReportFiles, ReportSize, Tournament

from . import report_figures as figs
from .report_data import PhaseHook, compute, report_rules
from .rules import TuttiRules

#: Matches per table (each kernel tournament; the other parts scale with it):
#: about a minute and a half for the whole report on 2 cores.
SIZE = ReportSize("--games", 21_600, "matches per table")


def check_rules(rules: TuttiRules) -> None:
    """The report plays every table itself, pairs included: ``--pairs on`` and
    the 2-player rule ``--must-answer-trump on`` (its 3- and 4-player tables
    would drop it) are refused in one line (``core.cli.UserError``) before
    anything is written."""
    from tutto_sim.core.cli import UserError

    if rules.pairs:
        raise UserError("--pairs does not apply to report --game tutti: the report plays "
                        "every table, 2, 3 and 4 players and 4 in pairs")
    if rules.must_answer_trump:
        raise UserError("--must-answer-trump on is a rule of the 2-player game and the report "
                        "plays 2, 3 and 4 players: leave it off here (tournament --players 2 and "
                        "the analyses with --tables 2 take it)")


def build(out_dir: Path, rules: TuttiRules = TuttiRules(), seed: int = 1,
          games: int = SIZE.default, phase: PhaseHook | None = None,
          tournament: Tournament | Path | str | None = None) -> ReportFiles:
    """Compute and write the Tutti report; ``games`` matches per table. The
    options come from ``rules``; the tables are the report's own (2, 3, 4
    players and 4 in pairs). ``tournament`` (a CSV of ``tutto-sim tournament
    --game tutti``) adds its page of win rates; one of another game is refused
    (:class:`~tutto_sim.core.report.TournamentFileError`) before anything is computed."""
    return R.build_report(pages, SIZE, out_dir, report_rules(rules), seed, games, phase,
                          tournament)


#: The report's numbers (``report_data``) and pages (``report_figures``).
pages = R.figure_report("tutti", compute, figs, SIZE, "matches_per_table")

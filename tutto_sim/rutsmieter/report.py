"""The Rutsmieter report: compute (``report_data``), draw (``report_figures``),
write.

:func:`build` writes ``rutsmieter-report.pdf`` (a cover page and one page per
figure), one PNG per figure and a ``README.md`` index with every caption into
``out_dir`` (``core.report.build_report``); docs/reports.md describes the
pages. ``tournament`` adds a page of win rates from a tournament CSV.
``games`` (the report command's ``--games``) is the number of **games per
table**: every tournament and every table size of the report plays that many
games in the kernel.
"""

from __future__ import annotations

from pathlib import Path

from tutto_sim.core import report as R
from tutto_sim.core.report import ReportFiles, ReportSize, Tournament

from . import report_figures as figs
from .report_data import PhaseHook, compute
from .rules import RutsmieterRules, table_rules

#: Games per table (each bot tournament, each table size, each rule set of the
#: house-rule analysis): about a minute and a half for the whole report on 2 cores.
SIZE = ReportSize("--games", 28_800, "games per table")


def build(out_dir: Path, rules: RutsmieterRules = RutsmieterRules(), seed: int = 1,
          games: int = SIZE.default, phase: PhaseHook | None = None,
          tournament: Tournament | Path | str | None = None) -> ReportFiles:
    """Compute and write the Rutsmieter report; ``games`` games per table.
    The house rules come from ``rules``; the table sizes are the report's own
    (2, 3 and 4 players), the fingerprints those of ``rules`` at each size.
    ``tournament`` (a CSV of ``tutto-sim tournament --game rutsmieter``) adds
    its page of win rates; one of another game is refused
    (:class:`~tutto_sim.core.report.TournamentFileError`) before anything is computed."""
    return R.build_report(pages, SIZE, out_dir, table_rules(rules, 4), seed, games, phase,
                          tournament)


#: The report's numbers (``report_data``) and pages (``report_figures``).
pages = R.figure_report("rutsmieter", compute, figs, SIZE, "games_per_table")

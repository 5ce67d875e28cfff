"""The Rutsmieter report: compute (``report_data``), draw (``report_figures``),
write.

:func:`build` writes ``rutsmieter-report.pdf`` (a cover page and one page per
figure), one PNG per figure and a ``README.md`` index with every caption into
``out_dir``; docs/reports.md describes the pages. ``tournament`` adds a page
of win rates from a tournament CSV. ``turns`` (the report
command's ``--turns``) means **games per table** here: every tournament and
every table size of the report plays that many games in the kernel
(:data:`SIZE_WORDS`).
"""

from __future__ import annotations

from pathlib import Path

from tutto_sim.core.report import (
    ReportFiles,
    Tournament,
    count,
    report_tournament,
    rules_label,
    write_report,
)

from . import report_figures as figs
from .report_data import PhaseHook, compute
from .rules import RutsmieterRules, table_rules

#: Games per table (each bot tournament, each table size, each rule set of the
#: house-rule analysis): about a minute and a half for the whole report on 2 cores.
DEFAULT_TURNS = 28_800

STEM = "rutsmieter-report"

#: What ``--turns`` counts in this report (the report command says so).
SIZE_WORDS = "games per table"


def build(out_dir: Path, rules: RutsmieterRules = RutsmieterRules(), seed: int = 1,
          turns: int = DEFAULT_TURNS, phase: PhaseHook | None = None,
          tournament: Tournament | Path | str | None = None) -> ReportFiles:
    """Compute and write the Rutsmieter report; ``turns`` games per table.
    The house rules come from ``rules``; the table sizes are the report's own
    (2, 3 and 4 players), the fingerprints those of ``rules`` at each size.
    ``tournament`` (a CSV of ``tutto-sim tournament --game rutsmieter``) adds
    its page of win rates; one of another game is refused
    (:class:`~tutto_sim.core.report.TournamentFileError`) before anything is computed."""
    if turns < 1:
        raise ValueError(f"turns must be a positive number, not {turns}")
    rules = table_rules(rules, 4)
    tournament = report_tournament(tournament, rules)
    phase = phase or (lambda label, total: (lambda n: None))
    data = compute(rules, seed, turns, phase)
    data.tournament = tournament

    makers = [figs.cheat_sheet, figs.bot_win_rates, figs.house_rules, figs.game_length,
              figs.seat_advantage, figs.exact_checks]
    if tournament is not None:
        makers.append(figs.tournament)
    intro = (f"Rutsmieter (docs/rutsmieter.md): the built-in bots and the tuned policy in "
             f"tournaments, the house rules, game length and seats, simulated "
             f"({count(turns, 'game')} per table, seed {seed}), and the exact figures "
             f"beside their simulation checks; {rules_label(rules)}. "
             "What each page shows: docs/reports.md.")
    return write_report(out_dir, STEM, "Rutsmieter: bots, house rules and how to move", rules,
                        seed, f"games_per_table={turns}",
                        [lambda n, m=m: m(data, n) for m in makers],
                        lambda titles: figs.cover(data, titles), intro, phase)

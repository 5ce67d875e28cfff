"""The Tutto report: compute (``tutto_data``), draw (``tutto_figures``), write.

Part of ``tutto_sim.report``. :func:`build` writes ``tutto-report.pdf`` (a
cover page and one page per figure), one PNG per figure and a ``README.md``
index with every caption into ``out_dir``; docs/reports.md describes the
figures.
"""

from __future__ import annotations

from pathlib import Path

from tutto_sim import __version__
from tutto_sim.core.report import (
    ReportFiles,
    ReportWriter,
    Tournament,
    check_tournament_game,
    count,
    read_tournament,
    rules_label,
    style,
    tournament_game,
    tournament_sheet,
)
from tutto_sim.tutto import report_figures as figs
from tutto_sim.tutto.report_data import SWEEP_CARDS, PhaseHook, compute
from tutto_sim.tutto.rules import TuttoRules

#: Monte Carlo turns per point of a threshold sweep (and per policy of the
#: distribution of banked points): about 1 minute for the report on 2 cores.
DEFAULT_TURNS = 200_000

STEM = "tutto-report"


def build(out_dir: Path, rules: TuttoRules = TuttoRules(), seed: int = 1,
          turns: int = DEFAULT_TURNS, phase: PhaseHook | None = None,
          tournament: Tournament | Path | str | None = None) -> ReportFiles:
    """Compute and write the Tutto report; returns the files written.

    ``tournament``: a CSV of ``tutto-sim tournament`` (or its parsed form)
    adds a page of win rates with 95% CIs; a tournament of another game is
    refused (:class:`~tutto_sim.core.report.TournamentFileError`)."""
    if turns < 1:
        raise ValueError(f"turns must be a positive number, not {turns}")
    if tournament is not None:
        if not isinstance(tournament, Tournament):
            tournament = read_tournament(tournament, game=tournament_game(rules))
        check_tournament_game(tournament, tournament_game(rules))
    phase = phase or (lambda label, total: (lambda n: None))
    data = compute(rules, seed, turns, phase)

    makers = [lambda n: figs.cheat_sheet(data, n)]
    makers += [lambda n, c=c: figs.threshold_sweeps(data, c, n) for c in SWEEP_CARDS]
    makers += [lambda n: figs.policy_map(data, n),
               lambda n: figs.draw_or_bank(data, n),
               lambda n: figs.card_values(data, n),
               lambda n: figs.banked_distribution(data, n),
               lambda n: figs.street(data, n)]
    if tournament is not None:
        makers.append(lambda n: tournament_sheet(tournament, rules, n,
                                                 f"Report: Tutto, {rules_label(rules)}; "
                                                 f"tutto-sim {__version__}."))
    advance = phase("drawing the figures", len(makers) + 1)
    with style():
        writer = ReportWriter(out_dir, STEM, "Tutto: optimal single-turn strategy", rules,
                              seed, extra_keywords=f"turns={turns}")
        try:
            sheets = []
            for n, make in enumerate(makers, 1):
                sheets.append(make(n))
            writer.add(*_cover(data, sheets))
            advance(1)
            for sheet in sheets:
                writer.add(sheet.fig, sheet.name, sheet.title, sheet.caption)
                advance(1)
        except BaseException:
            writer.abort()
            raise
        intro = (f"Optimal single-turn play of Tutto, exact (dynamic programming) and "
                 f"simulated ({count(turns, 'turn')} per point, seed {seed}); "
                 f"{rules_label(rules)}. "
                 "What each figure shows: docs/reports.md.")
        return writer.close(intro)


def _cover(data, sheets):
    c = figs.cover(data, [s.title for s in sheets])
    return c.fig, c.name, c.title, c.caption

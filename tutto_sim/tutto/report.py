"""The Tutto report: compute (``tutto.report_data``), draw (``tutto.report_figures``), write.

Part of the report layer. :func:`build` writes ``tutto-report.pdf`` (a
cover page and one page per figure), one PNG per figure and a ``README.md``
index with every caption into ``out_dir`` (``core.report.build_report``);
docs/reports.md describes the figures.
"""

from __future__ import annotations

from pathlib import Path

from tutto_sim.core import report as R
from tutto_sim.core.report import ReportFiles, ReportPages, ReportSize, Tournament
from tutto_sim.tutto import report_figures as figs
from tutto_sim.tutto.win import report as win_pages
from tutto_sim.tutto.report_data import SWEEP_CARDS, PhaseHook, compute
from tutto_sim.tutto.rules import TuttoRules
from tutto_sim.tutto.turn_kernel import NEVER

#: Monte Carlo turns per point of a threshold sweep (and per policy of the
#: distribution of banked points): about 1 minute for the report on 2 cores.
SIZE = ReportSize("--turns", 200_000, "turns per point")


def sample_win_target(rules: TuttoRules | None = None) -> int:
    """The target of the win pages in the committed sample (``scripts/make_reports.py``)."""
    return win_pages.DEFAULT_WIN_TARGET


def build(out_dir: Path, rules: TuttoRules = TuttoRules(), seed: int = 1,
          turns: int = SIZE.default, phase: PhaseHook | None = None,
          tournament: Tournament | Path | str | None = None,
          win_target: int | None = None) -> ReportFiles:
    """Compute and write the Tutto report; returns the files written.

    The pages on playing to win use the two-player win table of
    ``win_target`` (default: ``results/tutto-win-TARGET-<run>.json`` of the rules'
    target when present, else a quick target, ``win.report``).

    ``tournament``: a CSV of ``tutto-sim tournament`` (or its parsed form)
    adds a page of win rates with 95% CIs; a tournament of another game is
    refused (:class:`~tutto_sim.core.report.TournamentFileError`)."""
    return R.build_report(pages, SIZE, out_dir, rules, seed, turns, phase, tournament,
                          win_target=win_target)


def pages(rules: TuttoRules, seed: int, turns: int, phase: PhaseHook,
          tournament: Tournament | None, win_target: int | None = None) -> ReportPages:
    """The Tutto report's numbers and pages (:func:`build`)."""
    data = compute(rules, seed, turns, phase)
    ev_th = int(data.sol.bank_threshold[win_pages.CARD, win_pages.DICE])
    win = win_pages.compute(rules, None if ev_th >= NEVER else ev_th, win_target)

    makers = [lambda n: figs.cheat_sheet(data, n)]
    makers += [lambda n, c=c: figs.threshold_sweeps(data, c, n) for c in SWEEP_CARDS]
    makers += [lambda n: figs.policy_map(data, n),
               lambda n: figs.draw_or_bank(data, n),
               lambda n: figs.card_values(data, n),
               lambda n: figs.banked_distribution(data, n),
               lambda n: figs.street(data, n),
               lambda n: win_pages.heatmap(win, n),
               lambda n: win_pages.thresholds(win, n),
               lambda n: win_pages.sizes_page(win, n)]
    if tournament is not None:
        makers.append(lambda n: R.tournament_sheet(tournament, rules, n,
                                                   R.report_footer(rules, "Tutto")))
    intro = (f"Optimal single-turn play of Tutto, exact (dynamic programming) and "
             f"simulated ({R.count(turns, 'turn')} per point, seed {seed}); "
             f"{R.rules_label(rules)}. Playing to win, two players: the exact win table "
             f"to {win.rules.target:,}. "
             "What each figure shows: docs/reports.md.")
    return ReportPages("tutto-report", "Tutto: optimal single-turn strategy",
                       f"turns={turns} win_target={win.rules.target}", makers,
                       lambda titles: figs.cover(data, titles), intro)

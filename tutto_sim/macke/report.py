"""The Berliner Macke / Volle Lotte report: compute (``macke.report_data``), draw
(``macke.report_figures``), write.

Part of the report layer. :func:`build` writes ``macke-report.pdf``
(``volle-lotte-report.pdf`` for Volle Lotte: a cover page and one page per
figure), one PNG per figure and a ``README.md`` index with every caption into
``out_dir`` (``core.report.build_report``); docs/reports.md describes the
figures. ``tournament`` (a :class:`~tutto_sim.core.report.Tournament` or the
path of a CSV written by ``tutto-sim tournament``) adds a page of win rates.
"""

from __future__ import annotations

from pathlib import Path

from tutto_sim.core import report as R
from tutto_sim.core.report import ReportFiles, ReportPages, ReportSize, Tournament
from tutto_sim.macke import report_figures as figs
from tutto_sim.macke.win import report as win_pages
from tutto_sim.macke.report_data import PhaseHook, compute, game_name
from tutto_sim.macke.rules import MackeRules

#: Monte Carlo turns per point of a threshold sweep (and for the optimal
#: policy): about 15 s for the whole report on 2 cores.
SIZE = ReportSize("--turns", 1_000_000, "turns per point")


def default_rules(game: str = "macke") -> MackeRules:
    """The default rules of ``game`` (``macke`` or ``volle-lotte``; docs/macke.md)."""
    return MackeRules.preset("volle-lotte" if game == "volle-lotte" else "standard")


def sample_win_target(rules: MackeRules | None = None) -> int:
    """The target of the win pages in the committed sample (``scripts/make_reports.py``)."""
    return win_pages.default_win_target(rules or MackeRules())


def build(out_dir: Path, rules: MackeRules = MackeRules(), seed: int = 1,
          turns: int = SIZE.default, phase: PhaseHook | None = None,
          tournament: Tournament | Path | str | None = None,
          win_target: int | None = None) -> ReportFiles:
    """Compute and write the Macke report; returns the files written.

    The pages on playing to win use the two-player win table of
    ``win_target`` (default: ``results/GAME-win-TARGET-<run>.json`` of the game's
    target when present, else a quick target, ``win.report``).

    A ``tournament`` of another game (or variant) is refused
    (:class:`~tutto_sim.core.report.TournamentFileError`)."""
    return R.build_report(pages, SIZE, out_dir, rules, seed, turns, phase, tournament,
                          win_target=win_target)


def pages(rules: MackeRules, seed: int, turns: int, phase: PhaseHook,
          tournament: Tournament | None, win_target: int | None = None) -> ReportPages:
    """The Macke report's numbers and pages (:func:`build`)."""
    data = compute(rules, seed, turns, phase, tournament)
    win = win_pages.compute(rules, win_target, phase)

    makers = [figs.cheat_sheet, figs.min_score, figs.variants, figs.bank_thresholds,
              figs.returns, figs.simple_vs_optimal]
    makers = [lambda n, m=m: m(data, n) for m in makers]
    makers += [lambda n: win_pages.heatmap(win, n), lambda n: win_pages.thresholds(win, n)]
    if tournament is not None:
        makers.append(lambda n: figs.tournament(data, n))
    intro = (f"Optimal turn play of {game_name(rules)}, exact (dynamic programming) and "
             f"simulated ({R.count(turns, 'turn')} per point, seed {seed}); "
             f"{R.rules_label(rules)}. Playing to win, two players: the exact win table "
             f"to {win.rules.target:,}. "
             "What each figure shows: docs/reports.md.")
    return ReportPages(f"{rules.game}-report", f"{game_name(rules)}: optimal turn strategy",
                       f"turns={turns} win_target={win.rules.target}", makers,
                       lambda titles: figs.cover(data, titles), intro)

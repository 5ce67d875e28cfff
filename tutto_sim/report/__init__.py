"""Reports: matplotlib figures of a game's analysis as one PDF and PNGs.

Part of ``tutto_sim.report``, the top of the layout (rules -> tables ->
solve | kernels -> policy -> sim -> **report** / cli): it reads the solver and
the simulations and draws; nothing below imports it. One module per game
builds that game's report; :data:`GAMES` names them, so ``tutto-sim report
--game NAME`` and ``scripts/make_reports.py`` find every game here. A game's
module provides ``build(out_dir, rules, seed, turns, phase) -> ReportFiles``
and ``DEFAULT_TURNS``; optionally ``default_rules(game)`` (games that share a
module, e.g. Volle Lotte) and a ``tournament`` argument of ``build`` (a
``common.Tournament``: a page of win rates).
"""

from __future__ import annotations

import importlib

#: Game name -> the module that builds its report. Volle Lotte is Berliner
#: Macke's variant preset: the same module, with ``default_rules(game)``.
GAMES = {
    "tutto": "tutto_sim.report.tutto",
    "macke": "tutto_sim.report.macke",
    "volle-lotte": "tutto_sim.report.macke",
}

#: The games whose sample report is committed under ``reports/``.
SAMPLE_GAMES = ("tutto", "macke")


def report_module(game: str):
    """The report module of ``game``.

    >>> report_module("tutto").STEM
    'tutto-report'
    >>> report_module("Volle-Lotte").default_rules("volle-lotte").n_dice
    6
    >>> report_module("kniffel")
    Traceback (most recent call last):
    ...
    ValueError: unknown game 'kniffel'; valid: tutto, macke, volle-lotte
    """
    key = game.strip().lower()
    if key not in GAMES:
        raise ValueError(f"unknown game {game!r}; valid: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[key])

"""``tutto-sim report``: write a game's report (PDF and PNGs) from the command line.

Registers itself on the ``app`` of ``tutto_sim.cli`` when that module loads
it; the figures live in ``tutto_sim.report`` (docs/reports.md). Parse, call,
print: no logic of its own.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from .cli import UserError, _positive, _seed, app, out, progress_phases, with_rules
from .report import GAMES


@app.command()
@with_rules(games=GAMES)
def report(
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Directory for the PDF, the PNGs and README.md (default: reports/GAME).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every simulation in the report.")] = 1,
    turns: Annotated[Optional[int], typer.Option("--turns", help="Monte Carlo turns per point of a curve (default: the game's; 200,000 for Tutto, 1,000,000 for Macke).")] = None,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all cores); results do not depend on it.")] = None,
    tournament: Annotated[Optional[Path], typer.Option("--tournament", help="A CSV written by `tutto-sim tournament`: adds a page of win rates with 95% CIs.")] = None,
    rules=None,
) -> None:
    """Write a report: one multi-page PDF and one PNG per figure (docs/reports.md)."""
    from .report import report_module
    from .report.common import TournamentFileError, read_tournament
    from .sim.turns import set_threads

    key = "tutto" if getattr(rules, "game", "tutto") == "tutto" else rules.game
    module = report_module(key)
    n_turns = module.DEFAULT_TURNS if turns is None else _positive("--turns", turns)
    _seed(seed)
    extra = {}
    if tournament is not None:
        try:
            extra["tournament"] = read_tournament(tournament)
        except TournamentFileError as e:
            raise UserError(str(e)) from None
    try:
        n_threads = set_threads(threads)
    except ValueError as e:
        raise UserError(str(e)) from None
    target_dir = out_dir if out_dir is not None else Path("reports") / key
    if target_dir.exists() and not target_dir.is_dir():
        raise UserError(f"--out must be a directory, not the file {target_dir}")
    t0 = time.perf_counter()
    try:
        with progress_phases(True) as phase:
            files = module.build(target_dir, rules, seed=seed, turns=n_turns, phase=phase,
                                 **extra)
    except OSError as e:
        raise UserError(f"cannot write the report to {target_dir}: {e.strerror or e}") from None
    seconds = time.perf_counter() - t0
    out.print(f"wrote {files.pdf} ({len(files.pages)} pages), {len(files.pngs)} PNGs and "
              f"{files.index} in {target_dir}")
    out.print(f"seed {seed}; {n_turns:,} turns per point; {n_threads} thread(s); {seconds:.1f} s")

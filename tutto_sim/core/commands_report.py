"""``tutto-sim report``: write a game's report (PDF and PNGs) from the command line.

Game-independent: the game's report module comes from the registry (its
``report_module`` hook; docs/reports.md). Parse, call, print: no logic of
its own.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from tutto_sim.core.cli import (
    RESULTS_DIR,
    UserError,
    UserInterrupt,
    positive,
    use_threads,
    game_label,
    out,
    plural,
    prepare_dir,
    progress_phases,
    save,
    with_rules,
)
from tutto_sim.core.cli import seed as _seed
from tutto_sim.core import registry
from tutto_sim.core.commands_games import game_help
from tutto_sim.core.report import report_games
from tutto_sim.core.runs import file_digest, run_digest, run_file


@with_rules(games=report_games())
def report(
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Folder for the PDF, the PNGs and README.md (default: results/report-GAME-<run>, <run> a digest of every setting that changes the figures).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every simulation in the report.")] = 1,
    turns: Annotated[Optional[int], typer.Option("--turns", help=game_help("report --turns", "Turns simulated for each point of a curve, for the dice games (default: ", "; see docs/reports.md)."))] = None,
    games: Annotated[Optional[int], typer.Option("--games", help=game_help("report --games", "Games played at each table (default: ", "; see docs/reports.md)."))] = None,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all cores); results do not depend on it.")] = None,
    tournament: Annotated[Optional[Path], typer.Option("--tournament", help="A CSV written by `tutto-sim tournament` for the same game: adds a page of win rates with 95% CIs.")] = None,
    players: Annotated[Optional[int], typer.Option("--players", metavar="N", help="Rutsmieter: the table size the cheat sheet (page 1) teaches, 2, 3 or 4 (default 4): the tuned policy's weight set for that table.")] = None,
    win_target: Annotated[Optional[int], typer.Option("--win-target", help=game_help("report --win-target", "", "). Solved unless that file is in results/."))] = None,
    rules=None,
) -> None:
    """Write a report: one multi-page PDF and one PNG per figure (docs/reports.md).

    The report is built in a temporary folder inside the target and moved in
    when complete (``core.cli.save``), so an interrupted run leaves the folder
    as it was; a full disk saves it in the temporary folder and says where.
    """
    from tutto_sim.core.report import TournamentFileError, read_tournament, report_module

    key = game_label(rules) if game_label(rules) in report_games() else \
        getattr(rules, "game", None) or registry.for_rules(rules).name
    module = report_module(key)
    size = module.SIZE
    given = {"--turns": turns, "--games": games}
    for option, value in given.items():
        if value is not None and option != size.option:
            raise UserError(f"{option} does not apply to report --game {key}: give "
                            f"{size.option} ({size.words})")
    n = given[size.option]
    n = size.default if n is None else positive(size.option, n)
    _seed(seed)
    hooks = registry.for_rules(rules).hooks
    hooks.check_report(rules)  # a rule the report cannot take: one line
    extra = {}
    if win_target is not None:
        import inspect

        if "win_target" not in inspect.signature(module.build).parameters:
            raise UserError(f"--win-target: the {key} report has no pages on playing to win "
                            f"({game_help('win tables')} have)")
        positive("--win-target", win_target)
        if win_target % 50 or win_target > 20_000:
            raise UserError(f"--win-target must be a multiple of 50 up to 20,000, not {win_target}")
        extra["win_target"] = win_target
    if players is not None:
        import inspect

        if "players" not in inspect.signature(module.build).parameters:
            raise UserError(f"--players: the {key} report plays its own table sizes (only the "
                            "Rutsmieter report takes --players, for its cheat sheet)")
        if players not in (2, 3, 4):
            raise UserError(f"--players must be 2, 3 or 4 (the cheat sheet's table size), not {players}")
        extra["players"] = players
    if tournament is not None:
        try:
            extra["tournament"] = read_tournament(tournament, game=game_label(rules))
        except TournamentFileError as e:
            raise UserError(str(e)) from None
    n_threads = use_threads(threads)
    digest = run_digest("report", game=key, rules=rules, seed=seed, turns=n,
                        win_target=win_target, tournament=file_digest(tournament),
                        **({"players": players} if players is not None else {}))
    target_dir = out_dir if out_dir is not None else run_file(RESULTS_DIR, f"report-{key}", digest, "")
    if target_dir.exists() and not target_dir.is_dir():
        raise UserError(f"--out {target_dir}: is a file, not a folder")
    prepare_dir(target_dir, "--out")
    t0 = time.perf_counter()
    built = []

    def build(folder: Path) -> None:  # the report into a folder; save moves it in when complete
        with progress_phases(True) as phase:
            built.append(module.build(folder, rules, seed=seed, phase=phase, **{size.keyword: n},
                                      **extra))

    try:
        saved = save(target_dir, build, folder=True)
    except KeyboardInterrupt:
        raise UserInterrupt(f"report not written; {target_dir} is unchanged") from None
    files = built[-1]
    seconds = time.perf_counter() - t0
    out.print(f"{saved.verb} {saved / files.pdf.name} ({len(files.pages)} pages), "
              f"{len(files.pngs)} PNGs and {saved / files.index.name} in {saved}", soft_wrap=True)
    out.print(f"seed {seed}; {n:,} {size.words}; {plural(n_threads, 'thread')}; {seconds:.1f} s")


def mount(app) -> None:
    app.command()(report)

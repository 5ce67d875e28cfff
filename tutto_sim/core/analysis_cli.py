"""What the games' own analyses share on the command line (each game's
``analysis_cli``): the figures in words and the delivery of a result (the
CSV, the JSON or the tables, and Ctrl-C). Game-independent."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from tutto_sim.core.cli import MAX_GAMES, err, positive, prepare_dir, progress_phases, write_csv
from tutto_sim.core.cli import seed as check_seed
from tutto_sim.core.cli import use_threads
from tutto_sim.core.commands_games import ran_on


def run(sizes: dict[str, int], seed: int, out_dir: Path, as_json: bool, compute,
        threads=None, kernel: bool = True, check=None):
    """Check the run sizes (``sizes``: flag -> value), the seed, then
    ``check()`` (the bots, ...), and the output folder before anything runs;
    set the threads (``kernel``), then ``compute(phase)`` with a progress bar.
    Returns the result and where it ran (``ran_on``: the thread count, or the
    cluster of ``--cluster``)."""
    for flag, size in sizes.items():
        positive(flag, size, ceiling=MAX_GAMES)
    check_seed(seed)
    if check is not None:
        check()
    prepare_dir(out_dir, "--out-dir")
    n_threads = use_threads(threads) if kernel else 1
    with progress_phases(not as_json) as phase:
        return compute(phase), ran_on(n_threads)


def pm(e, digits: int = 4, sign: bool = False) -> str:
    """``12.34 ± 0.56``; a share (win rate, chance) with its Wilson interval
    ``0.5210 [0.5141, 0.5279]``; ``–`` for a part that did not run (None)."""
    return "–" if e is None else e.text(digits, sign=sign)


def diff(e, digits: int = 4) -> str:
    """A difference (with minus without, to the first row, a seat minus its
    fair share): signed, and a ``*`` where its 95% CI holds 0 (no measurable
    difference, explained by ``note_no_difference``); ``–`` for a part that
    did not run (None)."""
    return "–" if e is None else e.difference_text(digits, mark="*")


def deliver(res, head: dict, rules, rows: list[dict], csv_path: Path, digest: str, ran,
            as_json: bool, show, finished: str) -> None:
    """Write the CSV (``digest``: its run digest), print the JSON (``head``,
    then the result's ``to_dict()``) or ``show(csv_path)``; after Ctrl-C say
    so in one line (``finished``: what the figures cover, with its comma or
    semicolon) and exit 130, the finished parts kept."""
    csv_path = write_csv(csv_path, rows, res.interrupted, digest)
    if as_json:
        print(json.dumps({**head, **res.to_dict(), "rules": rules.to_dict(), **ran.json(),
                          "csv": str(csv_path), "run_digest": digest}, indent=2))
    else:
        show(csv_path)
    if res.interrupted:
        err.print(f"interrupted: {finished} saved in {csv_path}", markup=False, highlight=False)
        raise typer.Exit(130)

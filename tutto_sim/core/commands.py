"""The commands every game shares: ``optimize``, ``solve``, ``export-policy``,
``validate`` (turn analysis). Each parses and checks what all games have in
common, resolves ``--game`` through the registry and hands the rest to the
game's handler (``GameEntry`` hooks of the same name). Game-independent: no
command here knows a game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tutto_sim.core import registry
from tutto_sim.core.cli import (
    RESULTS_DIR,
    UserError,
    _choice,
    _positive,
    game_label,
    prepare_dir,
    with_rules,
)
from tutto_sim.core.cli import seed as _seed


def _threads(threads: Optional[int]) -> int:
    from tutto_sim.core.blocks import set_threads

    try:
        return set_threads(threads)
    except ValueError as e:
        raise UserError(str(e)) from None


def _hook(rules, what: str):
    return registry.for_rules(rules).hook(what)


@with_rules()
def optimize(
    card: Annotated[Optional[str], typer.Option("--card", help="Tutto card to optimise: stop, fireworks, bonus200, bonus300, bonus400, bonus500, bonus600, x2, plusminus, street, cloverleaf (German names too). Default bonus400.")] = None,
    method: Annotated[str, typer.Option("--method", help="monte-carlo (search threshold policies by simulation) or exact (the optimal policy from the solver).")] = "monte-carlo",
    turns: Annotated[int, typer.Option("--turns", help="Fresh turns to evaluate the policy found (and the baselines).")] = 2_000_000,
    search_turns: Annotated[int, typer.Option("--search-turns", help="Turns per candidate in the search (common random numbers).")] = 500_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random number of the run.")] = 1,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all cores); results do not depend on it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables; no progress bar.")] = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for the CSV of the results (created if missing).")] = RESULTS_DIR,
    rules=None,
) -> None:
    """Find the best stop-or-continue thresholds for one Tutto card (or for Macke)."""
    _choice("--method", method, ("monte-carlo", "exact"))
    _positive("--turns", turns)
    _positive("--search-turns", search_turns)
    _seed(seed)
    handler = _hook(rules, "optimize")
    check = getattr(registry.for_rules(rules).module(), "check_optimize", None)
    if check is not None:
        check(rules=rules, card=card, method=method)
    if method == "monte-carlo":
        prepare_dir(out_dir, "--out-dir")
    n_threads = _threads(threads)
    handler(rules=rules, card=card, method=method, turns=turns, search_turns=search_turns,
            seed=seed, as_json=as_json, out_dir=out_dir, n_threads=n_threads)


@with_rules()
def solve(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    cap: Annotated[Optional[int], typer.Option("--cap", help="Tutto: turn total (points) from which the solver assumes banking; raising it changes nothing (tested). Default 60000.")] = None,
    solo: Annotated[bool, typer.Option("--solo", help="Rutsmieter: one player alone, exact expected throws to bring all pieces home.")] = False,
    duel: Annotated[bool, typer.Option("--duel", help="Rutsmieter: two players with one piece each, exact chances to win and expected throws.")] = False,
    rules=None,
) -> None:
    """Solve exactly: the optimal turn policy (Tutto: every card's value; --game macke too)."""
    handler = _hook(rules, "solve")
    extra = {}
    for name, given in (("solo", solo), ("duel", duel)):
        if given:  # only games whose hooks declare it take --solo / --duel
            if name not in getattr(registry.for_rules(rules).module(), "SOLVE_OPTIONS", ()):
                raise UserError(f"--{name} does not apply to --game {game_label(rules)}")
            extra[name] = True
    handler(rules=rules, as_json=as_json, cap=cap, **extra)


@with_rules()
def export_policy(
    out_path: Annotated[Optional[Path], typer.Option("--out", help="File to write (default: results/GAME-policy.json, .csv with --format csv).")] = None,
    fmt: Annotated[str, typer.Option("--format", help="json (for bots, versioned; default) | csv | parquet (analysis).")] = "json",
    rules=None,
) -> None:
    """Solve exactly and write the optimal policy table (docs/policy-format.md)."""
    _choice("--format", fmt, ("json", "csv", "parquet"))
    _hook(rules, "export_policy")(rules=rules, out_path=out_path, fmt=fmt)


@with_rules()
def validate(
    turns: Annotated[int, typer.Option("--turns", help="Simulated turns per check.")] = 2_000_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulations.")] = 1,
    policy_file: Annotated[Optional[Path], typer.Option("--policy", help="Policy file to check (default: solve and export to a temporary file).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all).")] = None,
    rules=None,
) -> None:
    """Check the solver against simulation both ways (exit 1 if a check fails)."""
    _positive("--turns", turns)
    _seed(seed)
    _threads(threads)
    _hook(rules, "validate")(rules=rules, turns=turns, seed=seed, policy_file=policy_file,
                             as_json=as_json)


def mount(app) -> None:
    """Put these commands on the root app, in the order ``--help`` lists them."""
    app.command()(optimize)
    app.command()(solve)
    app.command("export-policy")(export_policy)
    app.command()(validate)

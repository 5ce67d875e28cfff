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
    MAX_GAMES,
    RESULTS_DIR,
    UserError,
    choice,
    positive,
    game_label,
    prepare_dir,
    with_rules,
    use_threads,
)
from tutto_sim.core.cli import seed as _seed
from tutto_sim.core.commands_games import Cluster, game_help, on_cluster


def _hooks(rules):
    """The game's hooks (``core.contract.GameHooks``)."""
    return registry.for_rules(rules).hooks


#: Options of ``optimize`` that only some games take, with their flags: a game's
#: hooks list the ones it takes in ``OPTIMIZE_OPTIONS``; any other given on the
#: command line is refused in one line.
GAME_OPTIMIZE_OPTIONS = {
    "card": "--card", "method": "--method", "turns": "--turns", "search_turns": "--search-turns",
    "games": "--games", "search_games": "--search-games", "candidates": "--candidates",
    "players": "--players", "field": "--field", "out_path": "--out",
}
#: The most candidates a search may try (a larger number is a typing error).
MAX_CANDIDATES = 1_000_000


def _given(ctx, name: str) -> bool:
    """Whether option ``name`` was given (command line or environment), not defaulted."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name != "DEFAULT"


def _refuse_foreign(rules, given: set[str], takes: tuple[str, ...]) -> None:
    """One line for the first option given that the game of ``rules`` does not take,
    naming the games that take it."""
    for name in GAME_OPTIMIZE_OPTIONS:
        if name in given and name not in takes:
            others = [e.name for e in registry.entries() if name in e.hooks.OPTIMIZE_OPTIONS]
            only = f" (only to --game {', '.join(others)})" if others else ""
            raise UserError(f"{GAME_OPTIMIZE_OPTIONS[name]} does not apply to optimize "
                            f"--game {game_label(rules)}{only}")


@with_rules()
def optimize(
    ctx: typer.Context,
    card: Annotated[Optional[str], typer.Option("--card", help=game_help("optimize --card"))] = None,
    method: Annotated[Optional[str], typer.Option("--method", help=game_help("optimize --method"))] = None,
    turns: Annotated[int, typer.Option("--turns", help="Fresh turns to evaluate the policy found (and the baselines).")] = 2_000_000,
    search_turns: Annotated[int, typer.Option("--search-turns", help="Turns per candidate in the search (common random numbers).")] = 500_000,
    games: Annotated[Optional[int], typer.Option("--games", help=game_help("optimize --games"))] = None,
    search_games: Annotated[Optional[int], typer.Option("--search-games", help=game_help("optimize --search-games"))] = None,
    candidates: Annotated[Optional[int], typer.Option("--candidates", help=game_help("optimize --candidates"))] = None,
    players: Annotated[Optional[str], typer.Option("--players", help=game_help("optimize --players"))] = None,
    field: Annotated[Optional[str], typer.Option("--field", help=game_help("optimize --field"))] = None,
    out_path: Annotated[Optional[Path], typer.Option("--out", help="Whole-game searches: the policy file to write (default results/GAME-policy-Np-seedS-<run>.json, <run> a digest of every setting that changes the figures).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random number of the run.")] = 1,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all cores); results do not depend on it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables; no progress bar.")] = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for the CSV of the results (created if missing).")] = RESULTS_DIR,
    cluster: Cluster = None,
    rules=None,
) -> None:
    """Search for the best simple policy of the game (the help's words come from the games: hooks ``HELP["optimize"]``)."""
    hooks = _hooks(rules)
    methods = hooks.OPTIMIZE_METHODS
    method = methods[0] if method is None else choice("--method", method, methods)
    positive("--turns", turns)
    positive("--search-turns", search_turns)
    for flag, value, ceiling in (("--games", games, MAX_GAMES),
                                 ("--search-games", search_games, MAX_GAMES),
                                 ("--candidates", candidates, MAX_CANDIDATES)):
        if value is not None:
            positive(flag, value, ceiling=ceiling)
    _seed(seed)
    hooks.require("optimize")
    takes = hooks.OPTIMIZE_OPTIONS
    values = {"card": card, "method": method, "turns": turns, "search_turns": search_turns,
              "games": games, "search_games": search_games, "candidates": candidates,
              "players": players, "field": field, "out_path": out_path}
    _refuse_foreign(rules, {k for k in values if _given(ctx, k)}, takes)
    own = {k: v for k, v in values.items() if k in takes}
    hooks.check_optimize(rules=rules, seed=seed, out_dir=out_dir, **own)
    if method == "monte-carlo":
        prepare_dir(out_dir, "--out-dir")
    n_threads = use_threads(threads)
    with on_cluster(cluster):
        hooks.optimize(rules=rules, seed=seed, as_json=as_json, out_dir=out_dir, n_threads=n_threads,
                       **own)


@with_rules()
def solve(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    cap: Annotated[Optional[int], typer.Option("--cap", help=game_help("solve --cap"))] = None,
    solo: Annotated[bool, typer.Option("--solo", help=game_help("solve --solo"))] = False,
    duel: Annotated[bool, typer.Option("--duel", help=game_help("solve --duel"))] = False,
    objective: Annotated[str, typer.Option("--objective", help=game_help("solve --objective", "ev: the most expected points per turn (default) | win: the most chances to win a two-player game to --target (", ")."))] = "ev",
    out_path: Annotated[Optional[Path], typer.Option("--out", help="--objective win: the win-table policy file to write (default: results/GAME-win-TARGET-<run>.json, <run> a digest of the rules the table depends on; winopt, report and advisor find it there); a folder (or a name without .json) gets the table under that name.")] = None,
    players: Annotated[Optional[int], typer.Option("--players", help="--objective win: players at the table, 2-4 (default: the game's usual table for its win tables).")] = None,
    win_only: Annotated[bool, typer.Option("--win-only", help="--objective win --players 3 or 4: only the table where everyone plays to win (not the figures of points players: sooner done at large targets).")] = False,
    resume: Annotated[bool, typer.Option("--resume", help="--objective win --players 3 or 4: go on from the finished levels (Tutto) or sweeps (Berliner Macke, Volle Lotte) kept beside the table (FILE.checkpoint/) by a solve that was stopped.")] = False,
    cluster: Cluster = None,
    rules=None,
) -> None:
    """Solve exactly: the game's optimal policy, or playing to win (the help's words come from the games: hooks ``HELP["solve"]``)."""
    choice("--objective", objective, ("ev", "win"))
    if objective == "win":
        if solo or duel or cap is not None:
            raise UserError("--objective win does not take --solo, --duel or --cap")
        takes = [e.name for e in registry.entries() if e.hooks.offers("solve_win")]
        hooks = _hooks(rules)
        if not hooks.offers("solve_win"):
            raise UserError(f"--objective win does not apply to --game {game_label(rules)} "
                            f"(only to --game {', '.join(takes)})" if takes else
                            f"--objective win does not apply to --game {game_label(rules)}")
        if players is not None and not 2 <= players <= 4:
            raise UserError(f"--players must be 2, 3 or 4 for --objective win, not {players}")
        extra = {}
        for flag, name, given in (("--resume", "resume", resume),
                                  ("--win-only", "win_only", win_only)):
            if not given:
                continue
            import inspect

            def takes_it(h, name=name) -> bool:
                return name in inspect.signature(h.solve_win).parameters

            if not takes_it(hooks):
                those = [e.name for e in registry.entries()
                         if e.hooks.offers("solve_win") and takes_it(e.hooks)]
                raise UserError(f"{flag} does not apply to --game {game_label(rules)} (only to "
                                f"--game {', '.join(those)})")
            extra[name] = True
        with on_cluster(cluster):
            hooks.solve_win(rules=rules, as_json=as_json, out_path=out_path, players=players,
                            **extra)
        return
    if cluster is not None:
        raise UserError("--cluster applies to solve --objective win only")
    if out_path is not None:
        raise UserError("--out applies to solve --objective win only")
    for flag, given in (("--resume", resume), ("--win-only", win_only)):
        if given:
            raise UserError(f"{flag} applies to solve --objective win only")
    if players is not None:
        raise UserError("--players applies to solve --objective win only")
    hooks = _hooks(rules)
    hooks.require("solve")
    extra = {}
    for name, given in (("solo", solo), ("duel", duel)):
        if given:  # only games whose hooks declare it take --solo / --duel
            if name not in hooks.SOLVE_OPTIONS:
                raise UserError(f"--{name} does not apply to --game {game_label(rules)}")
            extra[name] = True
    hooks.solve(rules=rules, as_json=as_json, cap=cap, **extra)


@with_rules()
def export_policy(
    out_path: Annotated[Optional[Path], typer.Option("--out", help="File to write (default: results/GAME-policy-<run>.json, <run> a digest of the rules; .csv with --format csv).")] = None,
    fmt: Annotated[str, typer.Option("--format", help="json (for bots, versioned; default) | csv | parquet (analysis).")] = "json",
    rules=None,
) -> None:
    """Solve exactly and write the optimal policy table (docs/policy-format.md)."""
    choice("--format", fmt, ("json", "csv", "parquet"))
    _hooks(rules).export_policy(rules=rules, out_path=out_path, fmt=fmt)


@with_rules()
def validate(
    turns: Annotated[int, typer.Option("--turns", help="Simulated turns per check.")] = 2_000_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulations.")] = 1,
    policy_file: Annotated[Optional[Path], typer.Option("--policy", help="Policy file to check (default: solve and export to a temporary file).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all).")] = None,
    cluster: Cluster = None,
    rules=None,
) -> None:
    """Check the solver against simulation both ways (exit 1 if a check fails)."""
    positive("--turns", turns)
    _seed(seed)
    use_threads(threads)
    hooks = _hooks(rules)
    hooks.require("validate")
    with on_cluster(cluster):
        hooks.validate(rules=rules, turns=turns, seed=seed, policy_file=policy_file, as_json=as_json)


def mount(app) -> None:
    """Put these commands on the root app, in the order ``--help`` lists them."""
    app.command(help=game_help("optimize", "Find the best stop-or-continue thresholds for one ", "."))(optimize)
    app.command(help=game_help("solve", "Solve exactly: the optimal turn policy (", "); --objective win: play to win."))(solve)
    app.command("export-policy")(export_policy)
    app.command()(validate)

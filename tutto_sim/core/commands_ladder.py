"""``tutto-sim ladder``: every bot against every other, a rating per bot.

Game-independent, as ``core.commands_games`` (whose helpers it shares):
the game of ``--game`` comes from the registry; the games are a tournament
(``core.tournament.run_tournament``: every pair, or every table of ``n``
drawn from the bots, seats rotated), the ratings and the head-to-head
matrix come from ``core.ladder``, and the time per decision from the
reference engine's timer (``core.api.timing``). Parse, call, render; every
user error is one line with exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from tutto_sim.core import registry
from tutto_sim.core.cli import (
    MAX_GAMES,
    UserError,
    game_label,
    game_title,
    interrupted_name,
    out,
    plural,
    positive,
    prepare_dir,
    prepare_file,
    progress_phases,
    save,
    use_threads,
    with_rules,
)
from tutto_sim.core.cli import seed as _seed
from tutto_sim.core.commands_games import Cluster, Threads, bots_by_game, on_cluster, ran_on
from tutto_sim.core.ladder import DEFAULT_PER_PAIR, MAX_PER_PAIR
from tutto_sim.core.runs import bot_specs, run_digest, run_file

#: What the output says of the time per decision when the games ran in the kernel.
KERNEL_TIMES = ("in the kernel: time per decision not measured "
                "(--engine reference plays the same games and times every decision)")


@with_rules()
def ladder(
    bots: Annotated[Optional[str], typer.Option("--bots", help="Comma-separated bots of the game, at least 2; each game's bots and its default are listed below.")] = None,
    players: Annotated[int, typer.Option("--players", help="Players at the table: 2 plays every pair of bots, 3 or 4 every table drawn from them; seats rotate, so every bot holds every seat equally often.")] = 2,
    games_per_pair: Annotated[int, typer.Option("--games-per-pair", help=f"How often each pair of bots meets at a table (rounded up to whole rotations of the seats), 1..{MAX_PER_PAIR:,}.")] = DEFAULT_PER_PAIR,
    seed: Annotated[int, typer.Option("--seed", help="Seed: game i reads stream (seed, i).")] = 1,
    engine: Annotated[str, typer.Option("--engine", help="auto (kernel when every bot has a table) | kernel | reference (times every decision of every bot).")] = "auto",
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object; no progress bar.")] = False,
    out_place: Annotated[Optional[Path], typer.Option("--out", help="A folder, or a file NAME.png: the chart of the ratings and the matrix, with the JSON beside it (NAME.json).")] = None,
    cluster: Cluster = None,
    rules=None,
) -> None:
    """Rate bots against each other: every pair (or table) plays, seats rotated; ratings with 95% CIs, head-to-head win rates, time per decision."""
    from tutto_sim.core.bots import BotSpecError, is_timed, parse_bots, prepare_bots
    from tutto_sim.core.ladder import LadderResult, Outcomes, ladder_games, model_name, seat_sides
    from tutto_sim.core.tournament import ENGINES, choose_engine, game_kind, make_lineups, run_tournament

    hooks = registry.for_rules(rules).hooks
    rules = hooks.table_rules(rules, players)
    if bots is None:  # the game's own default (hook tournament_bots)
        bots = hooks.tournament_bots(rules)
    positive("--games-per-pair", games_per_pair, ceiling=MAX_PER_PAIR)
    _seed(seed)
    if engine not in ENGINES:
        raise UserError(f"--engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    label = game_label(rules)
    digest = run_digest("ladder", game=label, rules=rules, bots=bot_specs(bots), players=players,
                        games_per_pair=games_per_pair, seed=seed)
    png = _chart_place(out_place, f"ladder-{label}-{players}p-seed{seed}", digest)
    config = hooks.config(rules)
    kind = game_kind(config)
    n_threads = use_threads(threads)
    with on_cluster(cluster) as where, progress_phases(not as_json) as phase:
        phase("loading bots", 1)
        try:
            the_bots = parse_bots(bots, rules)
        except BotSpecError as e:
            raise UserError(str(e)) from None
        if len(the_bots) < 2:
            raise UserError(f"--bots needs at least 2 bots for a ladder, not {len(the_bots)} "
                            f"({bots!r}); {hooks.valid_bots(rules)}")
        lineups = make_lineups(len(the_bots), players, kind.all_seatings)
        games, cycles, meets = ladder_games(lineups, len(the_bots), games_per_pair)
        if games > MAX_GAMES:
            raise UserError(f"--games-per-pair {games_per_pair:,} makes {games:,} games; at most "
                            f"{MAX_GAMES:,}")
        sides = seat_sides(players, kind.sides, kind.partners)
        outcomes = Outcomes(len(the_bots), players, sides)
        try:
            if choose_engine(engine, the_bots) == "kernel":
                prepare_bots(the_bots, phase)
            res = run_tournament(the_bots, players, games, seed, config, engine,
                                 progress=phase("games", games), game=label,
                                 on_batch=outcomes.add, timed=True)
        except ValueError as e:
            raise UserError(str(e)) from None
    ran = ran_on(n_threads if res.engine == "kernel" else 1, where)
    result = LadderResult([b.name for b in the_bots], players, outcomes,
                          model_name(players, kind.sides if kind.partners else 0), games_per_pair)
    times = _times(result.names, res.decision_times)
    reproducible = not is_timed(the_bots)
    d = {"game": label, **result.json(), "ms_per_decision": times,
         "timing": "reference engine: every decision of every bot" if res.decision_times is not None
         else KERNEL_TIMES,
         "players": players, "seed": seed, "games_planned": games,
         "fewer_bots_than_seats": len(the_bots) < players, "cycles": cycles,
         "cycle_games": int(lineups.shape[0] * lineups.shape[1]),
         "pair_meetings_per_cycle": meets, "engine": res.engine, "reproducible": reproducible,
         "ran_on": {**ran.json(), "processes": res.processes}, "seconds": round(res.seconds, 2),
         "rules": rules.to_dict(), "run_digest": digest, "interrupted": res.interrupted}
    shown = None
    if png is not None:
        if res.interrupted:  # never in place of a finished run's chart
            png = interrupted_name(png)
        shown = _write_chart(result, d, png, game_title(rules))
    if as_json:
        print(json.dumps(d, indent=2))
    else:
        _print_ladder(result, d, game_title(rules), hooks.rules_line(rules), ran.words()
                      if res.processes <= 1 else plural(res.processes, "process", "processes"),
                      shown)
    if res.interrupted:
        raise typer.Exit(130)


def _chart_place(place: Optional[Path], stem: str, digest: str) -> Optional[Path]:
    """Where ``--out`` puts the chart: ``NAME.png`` as given, else the run's
    own file name in that folder (created if missing); checked before any game."""
    if place is None:
        return None
    if place.is_dir():  # an existing folder is a folder, whatever its name
        return run_file(prepare_dir(place, "--out"), stem, digest, ".png")
    if place.suffix.lower() == ".png":
        return prepare_file(place, "--out")
    if place.suffix:
        raise UserError(f"--out {place}: give a folder or a file name ending in .png")
    return run_file(prepare_dir(place, "--out"), stem, digest, ".png")


def _times(names: list[str], times) -> dict:
    """``ms_per_decision``: each bot's median and 95th percentile (None when not
    measured). A game's engine may name the bots of one spec alike (``x`` for
    ``x#2``): then they share the figure."""
    d = {}
    for name in names:
        key = name if times is None or name in times.counts else name.split("#")[0]
        n = times.decisions(key) if times is not None else 0
        d[name] = {"median": _ms(times.quantile_ms(key, 0.5)) if n else None,
                   "p95": _ms(times.quantile_ms(key, 0.95)) if n else None,
                   "decisions": n if times is not None else None}
    return d


def _ms(x: float) -> float:
    return float(f"{x:.3g}")


def _print_ladder(result, d: dict, title: str, rules_line: Optional[str], where: str,
                  shown: Optional[str] = None) -> None:
    """The tables: ratings best first, the head-to-head matrix, the notes
    (``shown``: where the chart went)."""
    n = result.players
    out.print(f"[bold]{title} ladder[/bold]: {n} players, {plural(len(result.names), 'bot')}, "
              f"{result.games:,} games (each pair at one table "
              f"{d['cycles'] * d['pair_meetings_per_cycle']:,} times: {d['cycles']:,} rotations "
              f"of {d['cycle_games']:,} games), seed {d['seed']} "
              f"({d['engine']} engine, {where}, {d['seconds']:.1f} s)")
    if rules_line:
        out.print(rules_line)
    out.print(f"model: {result.model}; fitted by maximum likelihood to every game "
              f"({d['decided_games']:,} with a winner)", highlight=False)
    t = Table("rank", "bot", "rating", "95% CI", "ms per decision (median)", "95th percentile",
              title="ratings (Elo scale, mean 0; 95% CI from the Fisher information; prior: "
                    "1 virtual game per pair, shared half and half)", title_justify="left")
    timed = d["ms_per_decision"]
    for i, x in enumerate(result.ranking(), start=1):
        ms = timed[x.name]
        t.add_row(str(i), x.name, f"{x.rating:+.0f}", f"[{x.low:+.0f}, {x.high:+.0f}]",
                  _ms_text(ms["median"]), _ms_text(ms["p95"]))
    out.print(t)
    m = result.matrix()
    order = [x.name for x in result.ranking()]
    t = Table("win rate of ↓ against →", *order, title="head to head (95% CI, games)",
              title_justify="left")
    for a in order:
        t.add_row(a, *[f"{m[a][b].text(3)} ({m[a][b].n:,})" if b in m[a] else "–"
                       for b in order])
    out.print(t)
    if len(result.names) < n:
        out.print(f"fewer bots than seats: the bots fill the seats in turn, so some sit at every "
                  f"table more than once (partners of themselves where the game has partners); "
                  f"with at least {n} bots every table is drawn from them")
    if n > 2:
        out.print("head to head at tables of more than two: among the games where both bots sat at "
                  "the table (not as partners) and one of them won, the row bot's share (a tie of "
                  "the two: half each)")
    out.print(f"time per decision: {d['timing']}")
    out.print("results with a bot that decides by the clock (a time budget) are not reproducible"
              if not d["reproducible"] else "the same seed gives the same games and ratings "
              "(the times per decision are measured, not reproducible)")
    if shown:
        out.print(shown, soft_wrap=True)
    if d["interrupted"]:
        out.print("[yellow]interrupted: the ratings cover only the finished games[/yellow]")


def _ms_text(x: Optional[float]) -> str:
    return "not measured" if x is None else f"{x:.3g}"


def _write_chart(result, d: dict, png: Path, title: str) -> str:
    """The chart (house style, ``core.report``): the ratings with their 95% CIs,
    best on top, and the head-to-head matrix as a heat map with the numbers
    in the cells; the JSON beside it (``d["chart"]``, ``d["json"]``: where
    they went, ``core.cli.save``). Returns the line that says where."""
    from tutto_sim import __version__
    from tutto_sim.core.report import ladder_panels, landscape_page, save_png, style

    field = ("every bot against every other" if result.players == 2 else
             f"every table of {result.players} drawn from the bots")
    caption = (f"{title}, {plural(result.players, 'player')}: {field}, seats rotated, "
               f"{result.games:,} games, seed {d['seed']}. Left: each bot's rating (Elo scale, the "
               "bots' mean at 0; 100 points apart is a 64% chance for the stronger of two) with "
               "its 95% CI, fitted to every game by "
               + ("the Bradley-Terry model" if "Bradley" in result.model else "Luce's model of "
                  "the winner") + ". Right: the row bot's win rate against the column bot, "
               "with its 95% CI (Wilson)" + ("; at tables of more than two, among the games where "
                                            "both sat and one of them won" if result.players > 2
                                            else "") + f". tutto-sim {__version__}.")
    with style():
        fig = landscape_page("Ladder: ratings and head-to-head win rates", caption)
        ladder_panels(fig, d)
        chart = save(png, lambda tmp: save_png(fig, tmp, {
            "Software": f"tutto-sim {__version__}", "Title": "Ladder", "Description": caption}))
    d["chart"], d["json"] = str(chart), str(chart.with_suffix(".json"))  # beside the chart
    beside = save(chart.with_suffix(".json"),
                  lambda tmp: tmp.write_text(json.dumps(d, indent=2) + "\n", encoding="utf-8"))
    d["json"] = str(beside)
    return f"chart: {chart.shown}; JSON: {beside.shown}"


ladder.help_tail = bots_by_game("tournament_bots")


def mount(app) -> None:
    """Put ``ladder`` on the root app."""
    app.command()(ladder)

"""``tutto-sim tournament``, ``play`` and ``analyze``: whole games on the command line.

Game-independent: the game of ``--game`` comes from the registry, which
gives its config, bots, tournament engine and words (``GameEntry`` hooks).
Parse, call, render; every user error is one line with exit code 2, and
flags of another game are refused (``core.cli.with_rules``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from tutto_sim.core import registry
from tutto_sim.core.contract import DEFAULT_TABLE_SIZES
from tutto_sim.core.cli import (
    MAX_GAMES,
    RESULTS_DIR,
    UserError,
    UserInterrupt,
    positive,
    write_csv,
    err,
    game_label,
    game_title,
    note_no_difference,
    out,
    plural,
    prepare_dir,
    progress_phases,
    with_rules,
    use_threads,
)
from tutto_sim.core.cli import seed as _seed
from tutto_sim.core.runs import bot_specs, run_digest, run_file
from tutto_sim.core.stats import WILSON

Threads = Annotated[Optional[int], typer.Option("--threads", help="numba threads (default: all cores); results do not depend on it.")]
#: The options of the games' own analyses (``analyze_commands`` hooks).
AsJson = Annotated[bool, typer.Option("--json", help="Print one JSON object; no progress bar.")]
OutDir = Annotated[Path, typer.Option("--out-dir", help="Folder for the CSV (created if missing).")]
Cluster = Annotated[Optional[str], typer.Option("--cluster", help="Run on a Dask cluster (docs/cluster.md): local, local:N (N worker processes on this machine) or tcp://HOST:PORT (a running scheduler). Default: this process's threads. The same seed gives the same numbers.")]


def game_help(key: str, before: str = "", after: str = "") -> str:
    """An option's help in the games' own words (hooks ``HELP[key]``, in
    registration order) between core's ``before`` and ``after``."""
    return before + "".join(e.hooks.HELP.get(key, "") for e in registry.entries()) + after


@contextlib.contextmanager
def on_cluster(spec: Optional[str]):
    """The block of a command that runs on ``--cluster`` (None: in this
    process); yields the parsed spec or None. A cluster that cannot be used
    is one line, exit 2."""
    from tutto_sim.core.cluster import ClusterError, processes, using

    try:
        with using(spec) as where, processes():  # off a cluster, Python games in processes
            yield where
    except ClusterError as e:
        raise UserError(str(e)) from None


@dataclasses.dataclass(frozen=True)
class RanOn:
    """Where a command's work ran, as its output says it: ``threads`` of this
    process, or the Dask ``cluster`` (its label; ``threads`` is then 1: each
    task runs on one thread of its worker)."""

    threads: int
    cluster: Optional[str] = None

    def json(self) -> dict:
        """The JSON keys: ``threads``, and ``cluster`` on a cluster."""
        return {"threads": self.threads, **({"cluster": self.cluster} if self.cluster else {})}

    def words(self) -> str:
        """``4 threads``, or ``played on the Dask cluster local:2``."""
        if self.cluster:
            return f"played on the Dask cluster {self.cluster}"
        return plural(self.threads, "thread")


def ran_on(n_threads: int, where=None) -> RanOn:
    """Where the work of a command that takes ``--cluster`` ran: the spec
    :func:`on_cluster` yielded (``where``), else the cluster in use now (a
    game's own analysis or handler runs inside the command's
    :func:`on_cluster`), else this process's ``n_threads``."""
    from tutto_sim.core.cluster import current

    spec = where if where is not None else current()
    return RanOn(n_threads) if spec is None else RanOn(1, spec.label())


def _hooks(rules):
    """The game's hooks (``core.contract.GameHooks``)."""
    return registry.for_rules(rules).hooks


def _config(rules):
    """The game's config (each game's ``GameConfig``)."""
    return _hooks(rules).config(rules)


def _label(rules) -> str:
    """The game's name in file names (its ``label`` hook)."""
    return game_label(rules)


def _title(rules) -> str:
    return game_title(rules)


def _table_rules(rules, players: int):
    """The rules for a table of ``players`` (hook ``table_rules``: the game checks the size)."""
    return _hooks(rules).table_rules(rules, players)


def _bots(specs: str, rules):
    from tutto_sim.core.bots import BotSpecError, parse_bots

    try:
        return parse_bots(specs, rules)
    except BotSpecError as e:
        raise UserError(str(e)) from None


def _vs_fair(e, fair: float) -> str:
    """A seat's win rate minus the fair share, ``*`` where its CI holds the fair
    share (no measurable difference; ``note_no_difference`` under the table)."""
    return f"{e.mean - fair:+.4f}" + ("" if e.shift(-fair).measurable else " *")


def _rate(e) -> str:
    return f"{e.mean:.4f}"


def _ci(e) -> str:
    """The 95% CI column: ``[low, high]`` for a win rate (Wilson), ``± h`` for a mean."""
    return e.ci_text(4)


def bots_by_game(default: str, flag: str = "--bots", note: str = ""):
    """The end of a command's ``--help``: each game's bots and its hook
    ``default`` (``tournament_bots``, ...), the command's default there (asked
    only when the help is shown, so core lists no game itself)."""
    def tail() -> str:
        lines = [f"Bots of each game ({flag}{note}):"]
        for e in registry.entries():
            rules = e.rules_type()
            specs = e.hooks.valid_bots(rules).removeprefix("valid bots: ")
            lines.append(f"  {e.title} (--game {' | '.join(e.names)}): {specs}; "
                         f"default {getattr(e.hooks, default)(rules)}")
        return "\n".join(lines)

    return tail


@with_rules()
def tournament(
    bots: Annotated[Optional[str], typer.Option("--bots", help="Comma-separated bots of the game; each game's bots and its default are listed below.")] = None,
    players: Annotated[int, typer.Option("--players", help="Players at the table, 2..8. More bots than players: every combination of bots plays (pairs for 2 players).")] = 2,
    games: Annotated[Optional[int], typer.Option("--games", help=game_help("tournament --games", "Games to play in all (default 100,000; with a search bot at the table, as many as it plays in about two minutes on one core: ", " at their default budgets, scaled by the budget; py: bots 2,000)."), show_default=False)] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed: game i reads stream (seed, i).")] = 1,
    engine: Annotated[str, typer.Option("--engine", help="auto (kernel when every bot has a table) | kernel | reference.")] = "auto",
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object; no progress bar.")] = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for the CSV (created if missing).")] = RESULTS_DIR,
    cluster: Cluster = None,
    rules=None,
) -> None:
    """Play many whole games between bots; win rates with 95% CIs, seat advantage."""
    from tutto_sim.core.bots import prepare_bots
    from tutto_sim.core.tournament import ENGINES, choose_engine, run_tournament

    rules = _table_rules(rules, players)
    if bots is None:  # the game's own default (hook tournament_bots)
        bots = _hooks(rules).tournament_bots(rules)
    if games is not None:
        positive("--games", games, ceiling=MAX_GAMES)
    _seed(seed)
    if engine not in ENGINES:
        raise UserError(f"--engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    label = _label(rules)
    prepare_dir(out_dir, "--out-dir")
    n_threads = use_threads(threads)
    with on_cluster(cluster) as where, progress_phases(not as_json) as phase:
        phase("loading bots", 1)
        the_bots = _bots(bots, rules)
        chosen = games is None  # the default: fewer games with a search bot at the table
        if chosen:
            from tutto_sim.core.bots import default_games

            games, chosen = default_games(the_bots)
        try:
            if choose_engine(engine, the_bots) == "kernel":  # e.g. winopt's values, before the games
                prepare_bots(the_bots, phase)
            res = run_tournament(the_bots, players, games, seed, _config(rules), engine,
                                 progress=phase("games", games), game=label)
        except ValueError as e:
            raise UserError(str(e)) from None
    ran = ran_on(n_threads if res.engine == "kernel" else 1, where)
    res.threads = ran.threads
    digest = run_digest("tournament", game=label, rules=rules, bots=bot_specs(bots),
                        players=players, games=games, seed=seed)  # both engines: the same games
    csv_path = write_csv(run_file(out_dir, f"tournament-{label}-{players}p-seed{seed}", digest),
                          res.csv_rows(), res.interrupted, digest)
    from tutto_sim.core.bots import is_timed

    timed = [b.name for b in the_bots if getattr(b, "budget_ms", None)]
    if as_json:
        d = res.to_dict()
        d.update(ran.json(), csv=str(csv_path), run_digest=digest, reproducible=not is_timed(the_bots))
        if chosen:
            d["games_default"] = "for search bots; --games for more"
        print(json.dumps(d, indent=2))
    else:
        _print_tournament(res, csv_path, chosen, ran)
        if timed:
            out.print(f"Timed bots ({', '.join(timed)}) decide by the clock: this run is not "
                      "reproducible from its seed.", markup=False, highlight=False)
    instead = _hooks(rules).illegal_words(rules)  # what the game did instead
    for name, e in res.errors.items():
        err.print(f"warning: bot {name} returned an illegal action {plural(e['count'], 'time')} in "
                  f"{plural(e['games'], 'game')}, {instead}; first: {e['first']}",
                  markup=False, highlight=False)
    if res.interrupted:
        raise typer.Exit(130)


def _ends_line(res) -> str:
    """How the games ended, in the game's words."""
    return _hooks(res.config.rules).ends_line(res)


def _print_tournament(res, csv_path: Path, search_default: bool = False,
                      ran: RanOn | None = None) -> None:
    """The tables of a tournament; the header says where it ran (``ran``: the
    processes or threads, or the cluster: never "1 thread" for a cluster's run)
    and whether the games are the search bots' default."""
    from tutto_sim.core.tournament import game_kind

    n = res.players
    rules = res.config.rules
    kind = game_kind(res.config)
    fair, sides = res.fair_share(), kind.sides or n
    shared = kind.ties.split(":")[0]  # "a tie shares the win", or the game's words
    where = (plural(res.processes, "process", "processes") if res.processes > 1
             else (ran or RanOn(res.threads)).words())
    default = " (default for search bots; --games for more)" if search_default else ""
    out.print(f"[bold]{_title(rules)} tournament[/bold]: {n} players, {res.games:,} games{default}, seed {res.seed} "
              f"({res.engine} engine, {where}, {res.seconds:.1f} s)")
    line = _hooks(rules).rules_line(rules)
    if line:
        out.print(line)
    t = Table("rank", "bot", "win rate", "95% CI", "seats",
              *(("mean final score", "points per turn") if kind.points else ()),
              title=f"win rate per seat held (fair share 1/{sides} = {fair:.4f}; {shared})",
              title_justify="left")
    for i, b in enumerate(res.bot_stats(), start=1):
        t.add_row(str(i), b.name, _rate(b.win), _ci(b.win), f"{b.games:,}",
                  *((f"{b.mean_score.mean:,.0f} ± {b.mean_score.ci95:.0f}",
                     f"{b.points_per_turn.mean:.1f} ± {b.points_per_turn.ci95:.1f}")
                    if kind.points else ()))
    out.print(t)
    t = Table("seat", "win rate", "95% CI", "vs fair share", title="by seat (seat 0 starts)",
              title_justify="left")
    for j, e in enumerate(res.seat_rates()):
        t.add_row(str(j), _rate(e), _ci(e), f"{e.mean - fair:+.4f}")
    out.print(t)
    pw = res.pairwise()
    if pw and len(res.names) > 2:
        t = Table("win rate of ↓ against →", *res.names, title="pairwise (two-player games)",
                  title_justify="left")
        for a in res.names:
            t.add_row(a, *[pw[a][b].text(4) if b in pw[a] else "–"
                           for b in res.names])
        out.print(t)
    fpa = res.first_player_advantage()
    turns = res.game_turns()
    out.print(f"first-player advantage (seat 0 minus 1/{sides}): {fpa.text(4, sign=True)} (95% CI)")
    counts = "".join(f", {res.game_count(c).mean:.2f} ± {res.game_count(c).ci95:.2f} {c}"
                     for c in kind.counts)
    out.print(f"mean game length: {turns.mean:.2f} ± {turns.ci95:.2f} turns{counts} "
              f"({res.mean_rounds():.2f} rounds); {_ends_line(res)}")
    out.print(rotation_words(len(res.lineups), n))
    for line in (res.summary.lines() if res.summary is not None else ()):
        out.print(line)
    out.print(f"CSV: {csv_path.shown}", soft_wrap=True)
    if res.interrupted:
        out.print("[yellow]interrupted: the figures cover only the finished games[/yellow]")


def rotation_words(lineups: int, players: int) -> str:
    """How the tournament seats its bots (``core.tournament.seat_bots``), in words:
    the lineups take turns, each rotated one seat further every round of them."""
    every = plural(lineups * players, "game")
    if lineups == 1:
        return (f"the seats rotate from game to game: in every {every} each bot holds every "
                "seat equally often")
    return (f"the {lineups:,} lineups take turns and their seats rotate: in every {every} each "
            "bot holds every seat equally often")


@with_rules()
def play(
    bots: Annotated[Optional[str], typer.Option("--bots", help="The other players, comma-separated; each game's bots and its default are listed below.")] = None,
    players: Annotated[Optional[int], typer.Option("--players", help="Players at the table, you included (default: you and the bots); without --bots the default bots fill the table.")] = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat (0 starts).")] = 0,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "you",
    seed: Annotated[Optional[int], typer.Option("--seed", help="Seed of the game (default: a new one, printed).")] = None,
    hints: Annotated[bool, typer.Option("--hints", help="Show the table's advice at every decision, not only on '?'.")] = False,
    win_table: Annotated[Optional[Path], typer.Option("--win-table", help=game_help("play --win-table", "", ": a win table (solve --objective win; Tutto: --players N for a table of three or four) whose chance to win the advice shows beside each choice's expected points."))] = None,
    rules=None,
) -> None:
    """Play a game against bots in the terminal (? at any choice: the table's advice)."""
    from tutto_sim.core.play import QuitGame

    if not name.strip():
        raise UserError(f"--name needs a name the table can show, not {name!r}; e.g. --name Ana")
    game_hooks = _hooks(rules)
    if players is not None:
        rules = _table_rules(rules, players)
    if bots is None:
        bots = game_hooks.play_bots(rules)
        if players is not None:  # the default opponents, as many as the table takes
            default = [b.strip() for b in bots.split(",")]
            bots = ",".join((default * players)[:players - 1])
    others = _bots(bots, rules)
    if players is not None and len(others) != players - 1:
        raise UserError(f"--players {players} needs {plural(players - 1, 'bot')} in --bots "
                        f"(you take the other seat), not {len(others)}")
    most = max(game_hooks.table_sizes(rules)) - 1
    if len(others) > most:
        _rule_for_sizes(rules, str(len(others) + 1))  # a rule that rules the size out says so
        at = f" at {_title(rules)}" if most != max(DEFAULT_TABLE_SIZES) - 1 else ""
        raise UserError(f"--bots: at most {plural(most, 'bot')} play against you{at}, "
                        f"not {len(others)}")
    rules = _table_rules(rules, len(others) + 1)
    if not 0 <= seat <= len(others):
        raise UserError(f"--seat must be 0..{len(others)} with {plural(len(others), 'bot')}, not {seat}")
    if name in {b.name for b in others}:
        raise UserError(f"--name {name!r} is a bot's name; choose another")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    _seed(seed)

    def read(prompt: str) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            sys.stdout.write("\n")
            raise EOFError
        if not sys.stdin.isatty():  # scripted input: echo it, so the transcript reads right
            sys.stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    write = lambda text: print(text, flush=True)  # noqa: E731
    make_human = game_hooks.human
    extra = {}
    if win_table is not None:
        import inspect

        if "win_table" not in inspect.signature(make_human).parameters:
            raise UserError(f"--win-table: {_title(rules)} advice has no win table "
                            f"({game_help('win tables')} have)")
        if "players" in inspect.signature(make_human).parameters:  # tables of any size it has
            extra["players"] = len(others) + 1
        elif len(others) != 1:
            raise UserError(f"--win-table: the win table is for two players, not {len(others) + 1}")
        extra["win_table"] = win_table
    human = make_human(name, read, write, hints, rules, **extra)
    players = others[:seat] + [human] + others[seat:]
    heading, how = game_hooks.play_intro(rules)  # the game's heading and how to answer
    print(f"{heading}: " + ", ".join(f"seat {j} {p.name}" for j, p in enumerate(players))
          + f"; seed {seed} (replay: --seed {seed})")
    print(how)
    game = game_hooks.interactive_game(players, _config(rules), seed, write)
    try:
        rec = game.play()
    except QuitGame as e:
        print(f"{e}: game abandoned; {game.standing()}")
        return
    except KeyboardInterrupt:  # Ctrl-C at a prompt or while the bots play: the score, exit 130
        print(flush=True)  # end the prompt's line
        raise UserInterrupt(f"you left the game (Ctrl-C): game abandoned; {game.standing()}") from None
    if seat in rec.winners:
        print("you win!" if len(rec.winners) == 1 else "you share the win!")


analyze_app = typer.Typer(no_args_is_help=True,
                          help="Game-level analyses: seat advantage, optimal vs threshold, and "
                               "each game's own.")


@analyze_app.command("seats")
@with_rules()
def analyze_seats(
    bot: Annotated[Optional[str], typer.Option("--bot", help="The bot in every seat; each game's bots and its default are listed below.")] = None,
    players: Annotated[Optional[str], typer.Option("--players", help=game_help("analyze seats --players", "Table sizes: a range 2-8 or a list 2,3,5 (default: every size the game has, 2-8", ")."))] = None,
    games: Annotated[int, typer.Option("--games", help="Games per table size.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed.")] = 1,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    out_dir: Annotated[Path, typer.Option("--out-dir", help="Folder for the CSV (created if missing).")] = RESULTS_DIR,
    cluster: Cluster = None,
    rules=None,
) -> None:
    """First-player advantage by number of players (the same bot in every seat)."""
    from tutto_sim.core.analysis import seat_advantage
    from tutto_sim.core.bots import kernel_capable

    game_hooks = _hooks(rules)
    try:
        sizes = _sizes(players, game_hooks.table_sizes(rules), _title(rules))
    except UserError as e:  # a size a rule rules out: the rule's own line (--pairs, ...)
        _rule_for_sizes(rules, players)
        raise e from None
    if bot is None:
        bot = game_hooks.default_bot(rules)
    positive("--games", games, ceiling=MAX_GAMES)
    _seed(seed)
    prepare_dir(out_dir, "--out-dir")
    the_game = _label(rules)
    # (header, JSON key, shown), or None for a game where no game ends at once
    instant = game_hooks.instant_column(rules)
    if not kernel_capable(_bots(bot, rules)):
        raise UserError(f"--bot {bot!r} plays only in the reference engine; analyses need bots "
                        "that play in the kernel (tables, thresholds, built-in bots)")
    n_threads = use_threads(threads)
    import time

    from tutto_sim.core.analysis import Interrupted

    t0 = time.perf_counter()
    interrupted = False
    try:
        with on_cluster(cluster) as where, progress_phases(not as_json) as phase:
            rows = seat_advantage(bot, sizes, games, seed, _config(rules), phase)
    except Interrupted as e:  # keep the table sizes that finished
        rows, interrupted = e.finished, True
    seconds = time.perf_counter() - t0
    ran = ran_on(n_threads, where)
    csv_rows = [{"game": the_game, "bot": bot, "players": r.players, "seat": j,
                 "win_rate": e.mean, "ci95": e.ci95, "low": e.low, "high": e.high, "games": e.n,
                 **{f"mean_{c}": x.mean for c, x in r.counts.items()}, "seed": seed,
                 "rules_sha256": rules.digest()} for r in rows for j, e in enumerate(r.seats)]
    digest = run_digest("seats", game=the_game, rules=rules, bot=bot_specs(bot), players=sizes,
                        games=games, seed=seed)
    csv_path = write_csv(run_file(out_dir, f"seats-{the_game}-seed{seed}", digest), csv_rows,
                          interrupted, digest)
    if interrupted:
        err.print(f"interrupted: {plural(len(rows), 'table size')} finished, saved in {csv_path}",
                  markup=False, highlight=False)
        if not rows:
            raise typer.Exit(130)
    if as_json:
        print(json.dumps({
            "game": the_game, "bot": bot, "games": games, "seed": seed, "interval": WILSON,
            **ran.json(),
            "rules": rules.to_dict(), "seconds": round(seconds, 2), "csv": str(csv_path),
            "run_digest": digest,
            "players": {str(r.players): {
                "seat_win_rates": [e.mean for e in r.seats], "seat_ci95": [e.ci95 for e in r.seats],
                "seat_low": [e.low for e in r.seats], "seat_high": [e.high for e in r.seats],
                **r.first_player_advantage.json("first_player_advantage"),
                "first_player_advantage_measurable": r.first_player_advantage.measurable,
                "mean_rounds": r.mean_rounds,
                **({instant[1]: r.instant_share} if instant else {}),
                **{k: v for c, x in r.counts.items()
                   for k, v in ((f"mean_{c}", x.mean), (f"mean_{c}_ci95", x.ci95))}}
                for r in rows}, **({"interrupted": True} if interrupted else {})}, indent=2))
        if interrupted:
            raise typer.Exit(130)
        return
    counted = list(rows[0].counts) if rows else []
    t = Table("players", "seat 0 (first)", "fair share", "seat 0 − fair", "last seat",
              "last − fair", "rounds", *([instant[0]] if instant else ()),
              *(f"{c} per game" for c in counted),
              title=f"{_title(rules)}: win rate by seat, {bot} in every seat ({games:,} games per "
                    "size, 95% CI)", title_justify="left")
    for r in rows:
        n, fair = r.players, r.fair_share
        first, last = r.seats[0], r.seats[-1]
        t.add_row(str(n), first.text(4), f"{fair:.4f}", _vs_fair(first, fair), last.text(4),
                  _vs_fair(last, fair), f"{r.mean_rounds:.2f}",
                  *([f"{r.instant_share:.2%}" if instant[2] else "–"] if instant else ()),
                  *(f"{r.counts[c].mean:.1f} ± {r.counts[c].ci95:.1f}" for c in counted))
    out.print(t)
    note_no_difference([e.shift(-r.fair_share) for r in rows for e in (r.seats[0], r.seats[-1])])
    out.print(f"seed {seed}; {ran.words()}; {seconds:.1f} s")
    out.print(f"every seat of every size in the CSV: {csv_path.shown}", soft_wrap=True)
    if interrupted:
        raise typer.Exit(130)


def _rule_for_sizes(rules, text: str) -> None:
    """The one line of a rule that rules out a table size of ``text`` (a size
    no rule allows, or no size at all, is left to :func:`_sizes`)."""
    try:
        sizes = _sizes(text, DEFAULT_TABLE_SIZES)
    except UserError:
        return
    for n in sizes:
        try:
            _table_rules(rules, n)
        except UserError as e:
            if not str(e).startswith("--players"):
                raise e from None


def _sizes(text: str | None, allowed, title: str = "") -> list[int]:
    """The table sizes of ``--players`` (None: every size the game has, ``allowed``)."""
    allowed = list(allowed)
    if text is None:
        return allowed
    try:
        if "-" in text:
            lo, hi = (int(x) for x in text.split("-", 1))
            sizes = list(range(lo, hi + 1))
        else:
            sizes = [int(x) for x in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or any(n not in allowed for n in sizes):
        lo, hi = allowed[0], allowed[-1]
        example = ",".join(map(str, allowed[:2] + allowed[3:4]))
        game = f" for {title}" if allowed != list(DEFAULT_TABLE_SIZES) else ""
        raise UserError(f"--players must be a range like {lo}-{hi} or a list like {example} of "
                        f"sizes {lo}..{hi}{game}, not {text!r}")
    return sizes


@analyze_app.command("threshold")
@with_rules()
def analyze_threshold(
    players: Annotated[int, typer.Option("--players", help="Players: optimal in one seat, the threshold bot in the others.")] = 2,
    games: Annotated[int, typer.Option("--games", help="Fresh games for the final comparison.")] = 200_000,
    search_games: Annotated[int, typer.Option("--search-games", help="Games per candidate threshold in the search.")] = 40_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed.")] = 1,
    threads: Threads = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    cluster: Cluster = None,
    rules=None,
) -> None:
    """How much the optimal turn policy wins against the best single bank threshold."""
    from tutto_sim.core.analysis import optimal_vs_threshold

    _hooks(rules).require("exact_turn_values")  # a game without the turn analysis: one line
    rules = _table_rules(rules, players)
    positive("--games", games, ceiling=MAX_GAMES)
    positive("--search-games", search_games, ceiling=MAX_GAMES)
    _seed(seed)
    n_threads = use_threads(threads)
    with on_cluster(cluster) as where, progress_phases(not as_json) as phase:
        duel = optimal_vs_threshold(players, games, search_games, seed, _config(rules), phase=phase)
    opt = duel.optimal
    best = f"threshold:{duel.best}"
    ran = ran_on(n_threads, where)
    if as_json:
        print(json.dumps({
            "game": _label(rules), "players": players, "games": games,
            "search_games": search_games, "seed": seed, "best_threshold": duel.best,
            "interval": WILSON,
            "search": {str(x): {**e.json(mean="win_rate"), "games": e.n}
                       for x, e in duel.search.items()},
            **opt.win.json("optimal", mean="optimal_win_rate"), "fair_share": 1 / players,
            "optimal_edge": opt.win.mean - 1 / players,
            "turn_ev": duel.turn_ev, "final": duel.final.to_dict(), **ran.json(),
            "rules": rules.to_dict(), "seconds": round(duel.seconds, 2)}, indent=2))
        return
    t = Table("bank at ≥", "threshold bot's win rate vs optimal", "95% CI",
              title=f"search: {search_games:,} games per threshold (common random numbers)",
              title_justify="left")
    for x, e in duel.search.items():
        t.add_row(f"{x:,}", f"{e.mean:.4f}", e.ci_text(4), style="bold" if x == duel.best else None)
    out.print(t)
    how = _hooks(rules).threshold_words()
    out.print(f"{_title(rules)}: best single threshold against optimal: bank at ≥ {duel.best:,} "
              f"({how})")
    out.print(f"[bold]optimal wins {opt.win.text(4)}[/bold] (95% CI) of its games against "
              f"{best} at {players} players (fair share {1 / players:.4f}; edge "
              f"{opt.win.mean - 1 / players:+.4f}); {duel.final.games:,} fresh games, seed {seed}")
    evs = ", ".join(f"{k} {v:.2f}" for k, v in duel.turn_ev.items())
    out.print(f"exact points per turn (turn analysis): {evs}")
    out.print(f"{ran.words()}; {duel.seconds:.1f} s")


# core.cli.polish_help shows these at the end of --help
tournament.help_tail = bots_by_game("tournament_bots")
play.help_tail = bots_by_game("play_bots")
analyze_seats.help_tail = bots_by_game("default_bot", "--bot", "; those that play in the kernel")


def mount_play(app) -> None:
    """Put ``tournament`` and ``play`` on the root app."""
    app.command()(tournament)
    app.command()(play)


def mount_analyze(app) -> None:
    """Put ``analyze`` on the root app, with each game's own analyses (optional
    hook ``analyze_commands()``: ``(name, function)`` pairs; the function takes
    typer options and ``rules``). A game's analysis takes every ``--game`` and
    refuses the others in one line; ``--game`` defaults to its own game. It
    offers its game's rule flags only (those named in the function's optional
    ``rule_flags``: the others play no part in it)."""
    for entry in registry.entries():
        for name, fn in entry.hooks.analyze_commands():
            if _GAME_ANALYSES.get(name) == entry.name:
                continue  # mounted already (a second app)
            if name in _GAME_ANALYSES or name in ("seats", "threshold"):
                raise ValueError(f"analyze {name}: the name is taken ({entry.title})")
            _GAME_ANALYSES[name] = entry.name
            analyze_app.command(name)(with_rules(default_game=entry.name, only=entry,
                                                 taken=getattr(fn, "rule_flags", None))(
                _only_for(entry, name, fn)))
    app.add_typer(analyze_app, name="analyze")


#: The games' own analyses on ``analyze_app``: name -> the game's name.
_GAME_ANALYSES: dict[str, str] = {}


def _only_for(entry, name: str, fn):
    """``fn`` for the game of ``entry`` only: another ``--game`` is one line.
    The analysis gets ``--cluster`` too (its tournaments run there)."""
    import functools
    import inspect

    @functools.wraps(fn)
    def analysis(*args, rules=None, cluster=None, **kwargs):
        if registry.for_rules(rules) is not entry:
            raise UserError(f"{_title(rules)} has no '{name}' analysis; it is an analysis of "
                            f"{entry.title} (--game {entry.name})")
        with on_cluster(cluster):
            return fn(*args, rules=rules, **kwargs)

    sig = inspect.signature(fn, eval_str=True)  # the options, not their names as strings
    params = [p for p in sig.parameters.values() if p.name != "rules"]
    extra = inspect.Parameter("cluster", inspect.Parameter.KEYWORD_ONLY if any(
        p.kind == p.KEYWORD_ONLY for p in params) else inspect.Parameter.POSITIONAL_OR_KEYWORD,
        default=None, annotation=Cluster)
    rules_param = [p for p in sig.parameters.values() if p.name == "rules"]
    analysis.__signature__ = sig.replace(parameters=params + [extra] + rules_param)
    return analysis

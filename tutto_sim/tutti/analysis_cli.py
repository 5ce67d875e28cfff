"""``tutto-sim analyze lead | exchange | declare | trump | tute``: Tutti's own
analyses (``tutti.analysis``) on the command line, mounted on the shared
``analyze`` app through the hook ``analyze_commands`` (``core.commands_games``).

Parse, check everything (the output folder too) before any hand is played,
call, render; a CSV of every figure goes to ``results/``. Ctrl-C keeps the
tables that finished (exit 130). docs/tutti.md, "Analyses", has the JSON keys.
Light on purpose: the analyses (and numba) load only when one runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from tutto_sim.core.analysis_cli import deliver, diff, pm, run
from tutto_sim.core.cli import RESULTS_DIR, UserError, note_no_difference, out, plural
from tutto_sim.core.commands_games import AsJson, OutDir, Threads
from tutto_sim.core.runs import bot_specs, run_digest, run_file

ALL_TABLES = "2,3,4,4p"
Seed = Annotated[int, typer.Option("--seed", help="Seed: hand (or match) i is dealt from stream (seed, i), the same for every side of a comparison.")]
Tables = Annotated[str, typer.Option("--tables", help="Tables, comma-separated: 2, 3, 4 (each for himself), 4p (four in pairs).")]
Bot = Annotated[str, typer.Option("--bot", help="The bot in every seat: heuristic | random.")]


def _tables(text: str, rules, allowed=None) -> list[str]:
    from .analysis import TABLES, parse_tables

    if rules.pairs:
        raise UserError("the tables come from --tables: write 4p there for four in pairs, "
                        "not --pairs on")
    try:
        chosen = parse_tables(text, allowed or TABLES)
    except ValueError as e:
        raise UserError(str(e)) from None
    if rules.must_answer_trump and chosen != ["2"]:
        raise UserError("--must-answer-trump on is a rule of the 2-player game (while the stock "
                        "lasts): give --tables 2 with it")
    return chosen


#: The rule flags of the analyses that play single hands (not matches: no --hands)
#: and of those that only deal (no rule plays a part).
HAND_RULES = ("pairs", "must_answer_trump", "allow_tute", "tute_wins")
DEAL_RULES = ()


def _builtin(bot: str, what: str) -> str:
    from .reference import BOT_NAMES

    key = bot.strip().lower()
    if key not in BOT_NAMES:
        raise UserError(f"--bot for analyze {what} must be one of {', '.join(BOT_NAMES)} "
                        f"(the bots the analysis can vary), not {bot!r}")
    return key


def _deliver(res, rules, rows: list[dict], out_dir: Path, stem: str, settings: dict, ran,
             as_json: bool, show) -> None:
    """Write the CSV to ``out_dir`` as ``stem-<run digest>.csv`` (the digest of
    the rules and ``settings``) and print (``core.analysis_cli.deliver``)."""
    digest = run_digest(res.analysis, game="tutti", rules=rules, **settings)
    deliver(res, {"game": "tutti"}, rules, rows, run_file(out_dir, stem, digest), digest, ran,
            as_json, show, f"{plural(len(res.rows), 'row')} finished,")


def _base(rules, res) -> dict:
    return {"game": "tutti", "analysis": res.analysis, "bot": res.bot, "seed": res.seed,
            "rules_sha256": rules.digest()}


def _footer(res, ran, csv_path: Path) -> None:
    out.print(f"seed {res.seed}; {ran.words()}; {res.seconds:.1f} s")
    out.print(f"CSV: {csv_path.shown}", soft_wrap=True)


# -- analyze lead ------------------------------------------------------------------------------


def analyze_lead(
    tables: Tables = ALL_TABLES,
    bot: Annotated[str, typer.Option("--bot", help="The bot in every seat (any Tutti bot; heuristic and random play in the kernel).")] = "heuristic",
    games: Annotated[int, typer.Option("--games", help="Matches per table.")] = 20_000,
    seed: Seed = 1, threads: Threads = None, as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Tutti: the first leader's advantage at 2, 3, 4 players and 4 in pairs."""
    from tutto_sim.core.bots import BotSpecError

    from .analysis import lead_advantage, named_table_rules
    from .bots import parse_bot

    chosen = _tables(tables, rules)
    try:
        for t in chosen:
            parse_bot(bot, named_table_rules(rules, t))
    except BotSpecError as e:
        raise UserError(f"--bot: {e}") from None
    res, ran = run({"--games": games}, seed, out_dir, as_json, lambda phase: lead_advantage(
        rules, chosen, bot.strip(), games, seed, phase), threads)
    rows = [{**_base(rules, res), "table": r.table, "seat": j, "games": r.games,
             "win_rate": e.mean, "ci95": e.ci95, "low": e.low, "high": e.high,
             "fair_share": r.fair, "vs_fair_measurable": e.shift(-r.fair).measurable,
             "points_per_hand": r.points[j].mean, "points_per_hand_ci95": r.points[j].ci95}
            for r in res.rows for j, e in enumerate(r.seats)]
    _deliver(res, rules, rows, out_dir, f"lead-tutti-seed{seed}",
             {"tables": chosen, "bot": bot_specs(bot), "games": games, "seed": seed}, ran, as_json,
             lambda csv_path: _print_lead(res, ran, csv_path))


def _print_lead(res, ran, csv_path: Path) -> None:
    from .analysis import table_words

    t = Table("table", "leader wins", "fair share", "leader − fair", "dealer wins",
              "leader's points per hand", "dealer's points per hand", "hands per match",
              title=(f"Tutti: the first leader (player 0 leads the first hand, the last player "
                     f"deals), {res.bot} in every seat, {res.size:,} matches per table (95% CI)"),
              title_justify="left")
    for r in res.rows:
        t.add_row(table_words(r.table), pm(r.seats[0]), f"{r.fair:.4f}",
                  diff(r.advantage), pm(r.seats[-1]), pm(r.points[0], 2),
                  pm(r.points[-1], 2), pm(r.hands, 3))
    out.print(t)
    note_no_difference([r.advantage for r in res.rows])
    out.print("the dealer keeps the card that shows trumps (3-4 players); in pairs he is "
              "player 1's partner, and a pair's points are both partners'")
    _footer(res, ran, csv_path)


# -- analyze exchange / declare ----------------------------------------------------------------


def _abstain(what: str, tables: list[str], bot: str, deals: int, seed: int, as_json: bool,
             out_dir: Path, rules) -> None:
    from .analysis import abstain_value

    bot = _builtin(bot, what)
    res, ran = run({"--deals": deals}, seed, out_dir, as_json, lambda phase: abstain_value(
        rules, what, tables, bot, deals, seed, phase), kernel=False)
    rows = [{**_base(rules, res), "table": r.table, **r.to_dict()} for r in res.rows]
    _deliver(res, rules, rows, out_dir, f"{what}-tutti-seed{seed}",
             {"tables": tables, "bot": bot, "deals": deals, "seed": seed}, ran, as_json,
             lambda csv_path: _print_abstain(res, ran, csv_path))


def _print_abstain(res, ran, csv_path: Path) -> None:
    from .analysis import table_words

    act = {"exchange": ("exchanges", "never exchanges the trump 7 or 2"),
           "declare": ("declarations", "never declares (no 20, 40 or Tute)")}[res.analysis]
    t = Table("table", f"{act[0]} per hand", "points with", "points without", "value in points",
              "hands won with", "hands won without", "value in hands won",
              title=(f"Tutti: what {'the trump exchange' if res.analysis == 'exchange' else 'declaring'}"
                     f" is worth to a player (a pair in pairs): {res.bot} against {res.bot} that "
                     f"{act[1]} on the same {res.size:,} deals (95% CI of the deal-by-deal "
                     "difference; a tied hand is not won)"), title_justify="left")
    for r in res.rows:
        t.add_row(table_words(r.table), pm(r.uses, 3), f"{r.points_with.mean:.2f}",
                  f"{r.points_without.mean:.2f}", diff(r.points_value, 2),
                  f"{r.wins_with.mean:.4f}", f"{r.wins_without.mean:.4f}",
                  diff(r.wins_value))
    out.print(t)
    note_no_difference([e for r in res.rows for e in (r.points_value, r.wins_value)])
    _footer(res, ran, csv_path)


def analyze_exchange(
    bot: Bot = "heuristic",
    deals: Annotated[int, typer.Option("--deals", help="Deals, each played with and without the exchange (reference engine: about 3 hands per deal).")] = 1_000,
    seed: Seed = 1, as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Tutti, 2 players: what the trump exchange is worth (the same deals with and without)."""
    if rules.pairs:
        raise UserError("the trump exchange is a 2-player rule; analyze exchange takes no --pairs")
    _abstain("exchange", ["2"], bot, deals, seed, as_json, out_dir, rules)


analyze_exchange.rule_flags = HAND_RULES


def analyze_declare(
    tables: Tables = ALL_TABLES,
    bot: Bot = "heuristic",
    deals: Annotated[int, typer.Option("--deals", help="Deals per table, each played with and without declaring (reference engine).")] = 1_000,
    seed: Seed = 1, as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Tutti: what declaring (20, 40, Tute) is worth (the same deals with and without)."""
    _abstain("declare", _tables(tables, rules), bot, deals, seed, as_json, out_dir, rules)


analyze_declare.rule_flags = HAND_RULES


# -- analyze trump -----------------------------------------------------------------------------


def analyze_trump(
    tables: Tables = ALL_TABLES,
    bot: Bot = "heuristic",
    deals: Annotated[int, typer.Option("--deals", help="Hands per table (kernel).")] = 200_000,
    seed: Seed = 1, threads: Threads = None, as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Tutti: points per hand by the rank of the card that shows trumps."""
    from .analysis import trump_rank

    chosen = _tables(tables, rules)
    bot = _builtin(bot, "trump")
    res, ran = run({"--deals": deals}, seed, out_dir, as_json, lambda phase: trump_rank(
        rules, chosen, bot, deals, seed, phase), threads)
    rows = [{**_base(rules, res), "table": r.table, **r.to_dict(),
             "points_per_hand": ";".join(f"{e.mean:.4f}" for e in r.points),
             "points_per_hand_ci95": ";".join(f"{e.ci95:.4f}" for e in r.points)}
            for r in res.rows]
    _deliver(res, rules, rows, out_dir, f"trump-tutti-seed{seed}",
             {"tables": chosen, "bot": bot, "deals": deals, "seed": seed}, ran, as_json,
             lambda csv_path: _print_trump(res, ran, csv_path))


analyze_trump.rule_flags = HAND_RULES


def _print_trump(res, ran, csv_path: Path) -> None:
    from .analysis import side_words, table_words
    from .cards import RANK_NAMES

    for table in dict.fromkeys(r.table for r in res.rows):
        rows = [r for r in res.rows if r.table == table]
        shows = ("the face-up card under the stock" if table == "2"
                 else "the dealer's last card, which he keeps")
        t = Table("trump card", "hands", *(side_words(table, s) for s in range(len(rows[0].points))),
                  "leader's hands won", title=(
                      f"Tutti, {table_words(table)}: points per hand by the card that shows trumps "
                      f"({shows}); {res.bot} in every seat (95% CI)"), title_justify="left")
        for r in rows:
            t.add_row(RANK_NAMES[r.rank], f"{r.leader_wins.n:,}", *(pm(e, 2) for e in r.points),
                      pm(r.leader_wins))
        out.print(t)
    _footer(res, ran, csv_path)


# -- analyze tute ------------------------------------------------------------------------------


def analyze_tute(
    tables: Annotated[str, typer.Option("--tables", help="Table sizes, comma-separated: 2, 3, 4 (the deal is the same in pairs).")] = "2,3,4",
    deals: Annotated[int, typer.Option("--deals", help="Deals per table size.")] = 1_000_000,
    seed: Seed = 1, threads: Threads = None, as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Tutti: the chance to be dealt a Tute (four Kings or four Horses), exact and sampled."""
    from .analysis import dealt_tute

    chosen = [int(t) for t in _tables(tables, rules, ("2", "3", "4"))]
    res, ran = run({"--deals": deals}, seed, out_dir, as_json,
                          lambda phase: dealt_tute(chosen, deals, seed, phase), threads)
    rows = [{**_base(rules, res), "players": r.players, **r.to_dict()} for r in res.rows]
    _deliver(res, rules, rows, out_dir, f"tute-tutti-seed{seed}",
             {"tables": chosen, "deals": deals, "seed": seed}, ran, as_json,
             lambda csv_path: _print_tute(res, ran, csv_path))


analyze_tute.rule_flags = DEAL_RULES


def _beside(e, exact) -> str:
    """A sampled chance beside its exact value (printed with 6 decimals): as many
    decimals as "within"/"outside its CI" takes to be visibly true."""
    from tutto_sim.core.stats import decimals_beside

    inside = "within" if e.contains(float(exact)) else "outside"
    return f"{pm(e, decimals_beside(e, float(exact), start=6, exact_decimals=6))} ({inside})"


def _print_tute(res, ran, csv_path: Path) -> None:
    t = Table("players", "a player: exact", "a player: sampled", "at the table: exact",
              "at the table: sampled", title=(
                  f"Tutti: P(a Tute is dealt): four Kings or four Horses in one hand at the deal "
                  f"(2 players: the 8 cards dealt); exact by counting, sampled from {res.size:,} "
                  "deals (95% CI; within or outside: where the exact value lies)"),
              title_justify="left")
    for r in res.rows:
        t.add_row(str(r.players), f"{float(r.exact_player):.6f}", _beside(r.player, r.exact_player),
                  f"{float(r.exact_table):.6f}", _beside(r.table, r.exact_table))
    out.print(t)
    out.print("one in " + ", ".join(f"{1 / float(r.exact_player):,.0f} ({r.players} players)"
                                    for r in res.rows) + " hands is a dealt Tute")
    _footer(res, ran, csv_path)

"""``tutto-sim analyze rules`` and ``analyze pieces``: Rutsmieter's own analyses
(``rutsmieter.analysis``) on the command line, mounted on the shared
``analyze`` app through the hook ``analyze_commands`` (``core.commands_games``).

Parse, check everything (the output folder too) before any game is played,
call, render; a CSV of every figure goes to ``results/``. Ctrl-C keeps what
finished (exit 130). docs/rutsmieter.md, "Analyses", has the JSON keys.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from tutto_sim.core.analysis_cli import deliver, diff, pm, run
from tutto_sim.core.cli import RESULTS_DIR, UserError, note_no_difference, out, plural
from tutto_sim.core.commands_games import AsJson, OutDir, Threads
from tutto_sim.core.runs import bot_specs, run_digest, run_file

from .rules import PLAYER_CHOICES, RutsmieterRules

#: What the figures of an interrupted analysis cover (``core.analysis_cli.deliver``).
FINISHED = "the figures cover only the parts that finished;"
Seed = Annotated[int, typer.Option("--seed", help="Seed: every game reads stream (seed, its number); the same for every side of a comparison.")]


def _table(flag: str, players: int) -> int:
    if players not in PLAYER_CHOICES:
        raise UserError(f"{flag} must be 2, 3 or 4 for Rutsmieter, not {players}")
    return players


def _bot(flag: str, spec: str, rules: RutsmieterRules):
    from tutto_sim.core.bots import BotSpecError

    from .bots import parse_bot

    try:
        return parse_bot(spec, rules)
    except BotSpecError as e:
        raise UserError(f"{flag}: {e}") from None


# -- analyze rules ------------------------------------------------------------------------------


def analyze_rules(
    players: Annotated[int, typer.Option("--players", help="Table size for the game length: 2, 3 or 4.")] = 4,
    games: Annotated[int, typer.Option("--games", help="Games per rule set for the game length.")] = 20_000,
    bot: Annotated[str, typer.Option("--bot", help="The bot in every seat for the game length.")] = "tuned",
    skill_players: Annotated[int, typer.Option("--skill-players", help="Table size of the skill tournament: 2, 3 or 4.")] = 2,
    skill_games: Annotated[int, typer.Option("--skill-games", help="Games per rule set of the skill tournament (the default's CIs, about ±0.01, are narrower than the rules' effects; the defaults take about 8 s in all on the idle 2-core machine, 23 s on a first run that compiles; --strong expert plays a few games a second).")] = 20_000,
    strong: Annotated[str, typer.Option("--strong", help="The strong bot of the skill spread (expert: slow, give fewer --skill-games).")] = "tuned",
    weak: Annotated[str, typer.Option("--weak", help="The weak bot of the skill spread.")] = "random",
    seed: Seed = 1, threads: Threads = None, as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Rutsmieter: each house rule's effect on game length and on how much skill matters."""
    from .analysis import rule_effects, rule_sets

    _table("--players", players)
    _table("--skill-players", skill_players)

    def check() -> None:
        for _, r in rule_sets(rules):  # every bot must play under every rule set
            _bot("--bot", bot, dataclasses.replace(r, players=players))
            for flag, spec in (("--strong", strong), ("--weak", weak)):
                _bot(flag, spec, dataclasses.replace(r, players=skill_players))

    res, ran = run({"--games": games, "--skill-games": skill_games}, seed, out_dir, as_json,
                   lambda phase: rule_effects(rules, players, games, skill_games, seed, bot,
                                              strong, weak, skill_players, phase),
                   threads, check=check)
    base = rules.digest()
    rows = [{"game": "rutsmieter", "rule_set": r.name, "rules_sha256": r.rules.digest(),
             "base_rules_sha256": base, "players": players, "games": games, "bot": bot,
             "skill_players": skill_players, "skill_games": skill_games, "strong": strong,
             "weak": weak, "seed": seed,
             **{k: v for k, v in r.to_dict().items() if k not in ("rules", "switched")}}
            for r in res.rows]
    digest = run_digest("rules", game="rutsmieter", rules=rules, players=players, games=games,
                        bot=bot_specs(bot), skill_players=skill_players, skill_games=skill_games,
                        strong=bot_specs(strong), weak=bot_specs(weak), seed=seed)
    deliver(res, {"game": "rutsmieter", "analysis": "rules"}, rules, rows,
            run_file(out_dir, f"rules-rutsmieter-seed{seed}", digest), digest, ran, as_json,
            lambda csv_path: _print_rules(res, rules, ran, csv_path), FINISHED)


def _print_rules(res, rules, ran, csv_path: Path) -> None:
    from .analysis import words

    t = Table("rule set", "throws per game", "turns per game", "throws vs first row",
              "turns vs first row", title=(
                  f"Rutsmieter, game length: {res.bot} in every seat, {res.players} players, "
                  f"{plural(res.games, 'game')} per rule set, the same dice for every rule set (95% CI)"),
              title_justify="left")
    same, shown = [], []
    for r in res.rows:
        first = r is res.rows[0]
        d = r.throws_vs_defaults
        unchanged = not first and d is not None and d.mean == 0 and d.ci95 == 0 \
            and r.turns_vs_defaults.ci95 == 0
        if unchanged:
            same.append(words(r.name, rules))
        elif not first:
            shown += [r.throws_vs_defaults, r.turns_vs_defaults]
        t.add_row(words(r.name, rules), pm(r.throws, 1), pm(r.turns, 1),
                  *("–" if first else "0 (the same games)" if unchanged else diff(e, 1)
                    for e in (r.throws_vs_defaults, r.turns_vs_defaults)))
    out.print(t)
    note_no_difference(shown)
    if same:
        out.print(f"the same games as the first row (the rule never changes a move of "
                  f"{res.bot}): {', '.join(same)}")
    t = Table("rule set", f"{res.strong} wins", f"{res.weak} wins", "skill spread",
              "spread vs first row", title=(
                  f"skill: {res.strong} against {res.weak}, {res.skill_players} players, every "
                  f"seating, {plural(res.skill_games, 'game')} per rule set; spread = win rate per seat "
                  f"of {res.strong} minus {res.weak}'s (95% CI)"), title_justify="left")
    for r in res.rows:
        first = r is res.rows[0]
        t.add_row(words(r.name, rules), pm(r.strong), pm(r.weak), pm(r.spread),
                  "–" if first else ("0 (the same games)" if r.same_games
                                     else diff(r.spread_vs_defaults)))
    out.print(t)
    note_no_difference([r.spread_vs_defaults for r in res.rows[1:] if not r.same_games])
    if any(r.same_games for r in res.rows):
        out.print(f"play on for the places changes nothing with {res.skill_players} players: "
                  "the first winner ends the game either way")
    out.print(f"first row: {words('defaults', rules)}; seed {res.seed}; "
              f"{ran.words()}; {res.seconds:.1f} s")
    out.print(f"CSV: {csv_path.shown}", soft_wrap=True)


# -- analyze pieces ---------------------------------------------------------------------------


def analyze_pieces(
    players: Annotated[int, typer.Option("--players", help="Table size: 2, 3 or 4.")] = 4,
    games: Annotated[int, typer.Option("--games", help="Games for each start of the first-piece-out comparison.")] = 100_000,
    positions: Annotated[int, typer.Option("--positions", help="Capture positions sampled from real games (one per game).")] = 2_000,
    position_games: Annotated[int, typer.Option("--position-games", help="Games from each capture position, with and without the captured piece.")] = 16,
    bot: Annotated[str, typer.Option("--bot", help="The bot in every seat.")] = "tuned",
    seed: Seed = 1, threads: Threads = None, as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Rutsmieter: what a piece is worth in games won: the first piece out, a captured piece."""
    from .analysis import piece_values

    _table("--players", players)
    rules = dataclasses.replace(rules, players=players)

    def check() -> None:
        if getattr(_bot("--bot", bot, rules), "engine", None) is None:
            raise UserError(f"--bot {bot!r}: a Python bot does not play in analyze pieces; use a "
                            "built-in bot, tuned or weights:FILE")

    res, ran = run({"--games": games, "--positions": positions, "--position-games": position_games},
                   seed, out_dir, as_json, lambda phase: piece_values(
                       rules, bot, games, positions, position_games, seed, phase),
                   threads, check=check)
    base = {"game": "rutsmieter", "players": players, "bot": bot, "seed": seed,
            "rules_sha256": rules.digest()}
    rows = [{**base, "part": "first piece out", "seat": r.seat, "squares": "",
             "win_rate_with": r.with_piece.mean, "win_rate_without": r.without.mean,
             "value": r.value.mean, "ci95": r.value.ci95, "n": r.value.n} for r in res.piece_out]
    rows += [{**base, "part": "capture", "seat": "", "squares": b.to_dict()["squares"],
              "win_rate_with": "", "win_rate_without": "", "value": b.loss.mean,
              "ci95": b.loss.ci95, "n": b.loss.n} for b in res.bands]
    digest = run_digest("pieces", game="rutsmieter", rules=rules, games=games, positions=positions,
                        position_games=position_games, bot=bot_specs(bot), seed=seed)
    deliver(res, {"game": "rutsmieter", "analysis": "pieces"}, rules, rows,
            run_file(out_dir, f"pieces-rutsmieter-{players}p-seed{seed}", digest), digest, ran,
            as_json, lambda csv_path: _print_pieces(res, ran, csv_path), FINISHED)


def _print_pieces(res, ran, csv_path: Path) -> None:
    out.print(f"[bold]Rutsmieter: what a piece is worth[/bold], {res.bot} in every seat, "
              f"{res.players} players, seed {res.seed} ({res.engine} engine)")
    t = Table("player", "wins with a piece out", "wins all in the house", "value of the piece",
              title=(f"the first piece out: starting with one piece on the own start square "
                     f"instead of all four in the house (player 0 throws first; {res.games:,} "
                     f"games from each start, the same dice; 95% CI)"), title_justify="left")
    for r in res.piece_out:
        t.add_row(str(r.seat), pm(r.with_piece), pm(r.without), diff(r.value))
    out.print(t)
    note_no_difference([r.value for r in res.piece_out])
    if res.piece_out_mean is not None:
        out.print(f"a piece out at the start is worth {res.piece_out_mean.difference_text(4)} "
                  f"in win rate (mean over the players)")
    t = Table("the piece had come", "positions", "mean square", "its owner's loss in win rate",
              title=(f"a capture: the victim's chance to win with the piece where it stood minus "
                     f"with it back in the house, right before the capture, the capturing player "
                     f"to throw; one capture from each of {res.sample_games:,} real games, "
                     f"{res.position_games:,} games from each position (95% CI)"),
              title_justify="left")
    for b in res.bands:
        t.add_row(f"squares {b.lo}-{b.hi}", f"{b.loss.n:,}", f"{b.mean_square:.1f}", diff(b.loss))
    if res.capture_all is not None:
        t.add_row("all", f"{res.capture_all.n:,}", "", pm(res.capture_all))
    out.print(t)
    note_no_difference([b.loss for b in res.bands])
    out.print(f"{ran.words()}; {res.seconds:.1f} s")
    out.print(f"CSV: {csv_path.shown}", soft_wrap=True)

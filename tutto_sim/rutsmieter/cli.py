"""Rutsmieter's handlers of the shared commands: ``solve --solo`` (the exact
expected throws of one player alone, ``rutsmieter.solo``), ``solve --duel``
(two players with one piece each, ``rutsmieter.duel``) and ``optimize`` (the
weight search, ``rutsmieter.optimize``).

``optimize`` checks everything before a game is played (table size, field bots,
the policy file's place); then the search runs with a progress bar, the CSV
(every candidate and the fresh results) goes to ``results/`` and the policy
file (``--out``, default ``results/rutsmieter-policy-Np-seedS-<run>.json``, ``<run>``
the run digest of ``core.runs``) is written atomically, with a ``summary`` of
the measured results and the command that made it. Ctrl-C keeps the best
weights found so far: both files are written under ``…-interrupted`` names,
marked, and the exit code is 130. docs/rutsmieter.md, "The policy search", has
the JSON keys.

``optimize --method td`` (:func:`td_optimize`) learns a position's value by
self-play instead (``rutsmieter.td``) at each table size of ``--players``
(``2,3,4``), and writes the policy file (a weight set per table size) with the
training curve's chart beside it; docs/rutsmieter.md, "Learning by self-play".
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import typer
from rich.table import Table

from tutto_sim.core.cli import (
    UserError,
    write_csv,
    save,
    err,
    interrupted_name,
    out,
    plural,
    prepare_file,
    progress_phases,
)
from tutto_sim.core.runs import bot_specs, run_digest, run_file

from .rules import HOUSE_RULES, RutsmieterRules, table_rules


def solve(rules: RutsmieterRules, as_json: bool = False, cap=None,
          solo: bool = False, duel: bool = False) -> None:
    """``tutto-sim solve --game rutsmieter --solo [--json]``: expected throws for
    one player alone to bring all four pieces home, under ``first`` and under
    the throw-minimising policy; ``--duel``: two players with one piece each
    (:func:`duel_solve`). Refuses what plays no part."""
    if solo and duel:
        raise UserError("--solo and --duel are two different games: give one of them")
    if not (solo or duel):
        raise UserError("Rutsmieter is solved exactly for one player alone (--solo) or for two "
                        "players with one piece each (--duel): add one of them")
    if cap is not None:
        raise UserError("--cap does not apply to --game rutsmieter")
    if duel:
        duel_solve(rules, as_json)
        return
    if not rules.must_capture:
        raise UserError("--must-capture plays no part in the solo game (nobody to capture); leave it out")
    if rules.play_to_third:
        raise UserError("--play-to-third plays no part in the solo game (one player); leave it out")
    from .solo import solo_expected_throws

    res = solo_expected_throws(rules)
    used = {"must_leave_house": rules.must_leave_house, "goal_no_jump": rules.goal_no_jump}
    if as_json:
        print(json.dumps({
            "game": "rutsmieter", "solo": True, "players": 1, "pieces": res.pieces,
            "expected_throws_first": res.first, "expected_throws_optimal": res.optimal,
            "rules": used,
            "method": "exact Markov chain over placements, solved in order of decreasing "
                      "position sum; every throw counts, rethrows after 6s included",
        }, indent=2))
        return
    on = {True: "on", False: "off"}
    out.print(f"[bold]Rutsmieter alone[/bold]: expected throws to bring all {res.pieces} pieces "
              f"home (must leave the house {on[rules.must_leave_house]}, no jumping in the "
              f"goal lane {on[rules.goal_no_jump]})")
    out.print(f"  first (furthest piece):    {res.first:.5f}")
    out.print(f"  fewest throws (optimal):   {res.optimal:.5f}")


#: House rules that play no part with one piece each, and why (docs/rutsmieter.md).
_IDLE_IN_DUEL = (
    ("--must-leave-house", lambda r: not r.must_leave_house, "a throw never leaves a choice"),
    ("--must-capture", lambda r: not r.must_capture, "a throw never leaves a choice"),
    ("--goal-no-jump", lambda r: r.goal_no_jump, "no own piece to jump over"),
    ("--play-to-third", lambda r: r.play_to_third, "two players: the first winner ends the game"),
)


def duel_solve(rules: RutsmieterRules, as_json: bool = False) -> None:
    """``tutto-sim solve --game rutsmieter --duel [--json]``: the exact chances
    of the first and second player and the expected throws of a game of two
    players with one piece each, by value iteration, checked by a linear solve."""
    for flag, changed, why in _IDLE_IN_DUEL:
        if changed(rules):
            raise UserError(f"{flag} plays no part with one piece each ({why}); leave it out")
    import numpy as np

    from .duel import TOL, solve_duel, solve_duel_direct

    res = solve_duel(rules)
    direct = float(np.abs(solve_duel_direct(res.chain) - res.values).max())
    if as_json:
        print(json.dumps({
            "game": "rutsmieter", "duel": True, "players": 2, "pieces": 1,
            "p_first_wins": res.p_first_wins, "p_second_wins": res.p_second_wins,
            "expected_throws": res.expected_throws, "states": res.states,
            "iterations": res.iterations, "residual": res.residual, "tolerance": TOL,
            "direct_max_difference": direct, "seconds": res.seconds,
            "rules": {k: getattr(rules, k) for k in ("must_leave_house", "must_capture",
                                                     "goal_no_jump", "play_to_third")},
            "method": "exact Markov chain over both pieces, the player to throw and the "
                      "three-throws tries; value iteration to the tolerance, checked by a "
                      "direct linear solve (direct_max_difference); every throw counts",
        }, indent=2))
        return
    out.print("[bold]Rutsmieter, two players with one piece each[/bold] (exact; the house "
              "rules play no part)")
    out.print(f"  first player wins:    {res.p_first_wins:.6%}")
    out.print(f"  second player wins:   {res.p_second_wins:.6%}")
    out.print(f"  throws in a game:     {res.expected_throws:.5f} on average")
    out.print(f"  {res.states:,} game states, {res.iterations} rounds of value iteration (last "
              f"change {res.residual:.1e}); a direct solve agrees to {direct:.1e}")


# -- optimize: the weight search --------------------------------------------------------------

#: Defaults of the options a whole-game search has (``core.commands.optimize``).
DEFAULT_PLAYERS = 2
DEFAULT_SEARCH_GAMES = 2_000
DEFAULT_GAMES = 100_000
DEFAULT_CANDIDATES = 160


def _players_number(text) -> int:
    """A table size from ``--players`` (an int, or its text); one line if it is no number."""
    if isinstance(text, int):
        return text
    if not re.fullmatch(r"\s*[0-9]{1,3}\s*", str(text)):
        raise UserError(f"--players must be 2, 3 or 4 for Rutsmieter, not {text!r}")
    return int(text)


def _table(rules: RutsmieterRules, players) -> RutsmieterRules:
    if isinstance(players, str) and "," in players:
        raise UserError("--players takes one table size for the cross-entropy search (a list "
                        "such as 2,3,4 with --method td)")
    return table_rules(rules, DEFAULT_PLAYERS if players is None else _players_number(players))


def _field(spec, rules: RutsmieterRules) -> tuple[list[str], list]:
    """The field's specs and parsed bots; one line for an unknown bot, a bot that
    plays only in the reference engine, or a bot named twice."""
    from tutto_sim.core.bots import BotSpecError

    from .bots import VALID_BOTS, KernelBot, WeightsBot, parse_bot
    from .optimize import FIELD, MixedTable

    specs = list(FIELD) if spec is None else [s.strip() for s in spec.split(",")]
    if not specs or any(not s for s in specs):
        raise UserError(f"--field needs a comma-separated list of bots, not {spec!r}; {VALID_BOTS}")

    def one(s: str):
        try:
            bot = parse_bot(s, rules)
        except BotSpecError as e:
            raise UserError(f"--field: {e}") from None
        if not isinstance(bot, (KernelBot, WeightsBot)):
            raise UserError(f"--field: bot {s!r} cannot be in the field, which plays many games "
                            "fast in the kernel: random, first, last, aggressive, defensive, "
                            "tuned, weights:FILE (or a table of them, first+aggressive+defensive)")
        return bot

    bots = []
    for s in specs:
        parts = [p.strip() for p in s.split("+")]
        if len(parts) > 1 and (any(not p for p in parts) or len(parts) >= rules.players):
            raise UserError(f"--field: a table of bots {s!r} names 2 to 3 bots joined by + at 3 "
                            f"or 4 players (the candidate takes the other seat), as "
                            f"first+aggressive+defensive at 4; this table has {rules.players}")
        bot = one(parts[0]) if len(parts) == 1 else MixedTable(tuple(one(p) for p in parts))
        if bot.name in {b.name for b in bots}:
            raise UserError(f"--field names {bot.name} twice; name each bot once")
        bots.append(bot)
    return specs, bots


def _sizes(games, search_games, candidates) -> tuple[int, int, int]:
    """The run sizes, the defaults for those not given."""
    return (DEFAULT_GAMES if games is None else games,
            DEFAULT_SEARCH_GAMES if search_games is None else search_games,
            DEFAULT_CANDIDATES if candidates is None else candidates)


def _digest(table: RutsmieterRules, specs, games: int, search_games: int, candidates: int,
            seed: int) -> str:
    """The run digest (``core.runs``) of the CSV's and the policy file's names."""
    return run_digest("optimize", game="rutsmieter", rules=table, field=bot_specs(",".join(specs)),
                      games=games, search_games=search_games, candidates=candidates, seed=seed)


def _policy_path(out_path, out_dir: Path, players: int, seed: int, digest: str) -> Path:
    if out_path is not None:
        return Path(out_path)
    return run_file(out_dir, f"rutsmieter-policy-{players}p-seed{seed}", digest, ".json")


def check_optimize(rules, seed, out_dir, games=None, search_games=None, candidates=None,
                   players=None, field=None, out_path=None, method="cross-entropy") -> None:
    """Before any game is played: table size, field bots, the policy file's place."""
    if method == "td":
        _td_check(rules, seed, out_dir, games, search_games, candidates, players, field, out_path)
        return
    table = _table(rules, players)
    specs, _ = _field(field, table)
    digest = _digest(table, specs, *_sizes(games, search_games, candidates), seed)
    prepare_file(_policy_path(out_path, out_dir, table.players, seed, digest), "--out")


def command_line(rules: RutsmieterRules, specs, candidates: int, search_games: int,
                 games: int, seed: int) -> str:
    """The command that makes the same search (every option spelled out)."""
    return (f"tutto-sim optimize --game rutsmieter --players {rules.players} "
            f"--field {','.join(specs)} --candidates {candidates} --search-games {search_games} "
            f"--games {games} --seed {seed}{_rule_flags(rules)}")


def _rule_flags(rules: RutsmieterRules) -> str:
    """The house rules that differ from the defaults, as flags (`` --goal-no-jump on``)."""
    return "".join(f" --{f.replace('_', '-')} {'on' if getattr(rules, f) else 'off'}"
                   for f in HOUSE_RULES if getattr(rules, f) != getattr(RutsmieterRules(), f))


def _est(e) -> dict:
    return {"win_rate": e.mean, "ci95": e.ci95, "games": e.n}


def result_json(res, command: str) -> dict:
    """The run's figures: the JSON of ``--json`` and (without file names) the
    policy file's ``summary``."""
    from .optimize import weights_dict

    fresh = None
    if res.evaluated:
        fresh = {
            "games_per_bot": res.games,
            "bots": {name: {**_est(e), "start_weights": _est(res.start_fresh[name])}
                     for name, e in res.fresh.items()},
            **_est(res.fresh_all),
            "gain_vs_start": res.gain_vs_start.mean,
            "gain_vs_start_ci95": res.gain_vs_start.ci95,
        }
    best = res.search_score
    return {
        "game": "rutsmieter", "players": res.rules.players, "field": res.field, "seed": res.seed,
        "command": command,
        "weights": weights_dict(res.weights),
        "start_weights": weights_dict(res.start),
        "free_weights": res.free, "fixed_weights": res.fixed,
        "search": {
            "method": _method(res.generations),
            "candidates": len(res.candidates),
            "games_per_bot": res.search_games,
            "win_rate": best.mean if best else None,
            "ci95": best.ci95 if best else None,
            "start_win_rate": res.start_search_score.mean if res.start_search_score else None,
            "generations": [{"generation": g.number, "candidates": g.candidates,
                             "best_win_rate": g.best, "mean_win_rate": g.mean,
                             "centre": weights_dict(g.centre), "spread": g.spread}
                            for g in res.generations],
        },
        "fresh": fresh,
        "rules": res.rules.to_dict(),
        "seconds": round(res.seconds, 2),
        "interrupted": res.interrupted,
    }


def _csv_rows(res) -> list[dict]:
    from .optimize import weights_dict

    base = {"players": res.rules.players, "seed": res.seed, "rules_sha256": res.rules.digest()}
    rows = []
    for name, e in res.fresh.items():
        s = res.start_fresh[name]
        rows.append({**base, "kind": "fresh", "bot": name, "win_rate": e.mean, "ci95": e.ci95,
                     "games": e.n, "start_win_rate": s.mean, "start_ci95": s.ci95,
                     **weights_dict(res.weights)})
    for generation, weights, score in res.candidates:
        rows.append({**base, "kind": "candidate", "generation": generation, "bot": "all",
                     "win_rate": score, "games": res.search_games * len(res.field),
                     **weights_dict(weights)})
    return rows


def optimize(rules, seed: int, as_json: bool, out_dir: Path, n_threads: int,
             games=None, search_games=None, candidates=None, players=None,
             field=None, out_path=None, method="cross-entropy") -> None:
    """``tutto-sim optimize --game rutsmieter`` (module docstring); ``--method td``:
    :func:`td_optimize`."""
    from tutto_sim.core.commands_games import ran_on

    if method == "td":
        _td_check(rules, seed, out_dir, games, search_games, candidates, players, field, out_path)
        td_optimize(rules, seed, as_json, out_dir, n_threads, games, players, out_path)
        return

    from .optimize import optimize_weights
    from .policy import WeightsPolicy

    table = _table(rules, players)
    specs, bots = _field(field, table)
    games, search_games, candidates = _sizes(games, search_games, candidates)
    n = table.players
    digest = _digest(table, specs, games, search_games, candidates, seed)
    policy_path = prepare_file(_policy_path(out_path, out_dir, n, seed, digest), "--out")
    command = command_line(table, specs, candidates, search_games, games, seed)
    with progress_phases(not as_json) as phase:
        res = optimize_weights(table, bots, search_games, games, candidates, seed, phase)
    d = result_json(res, command)
    csv_path = write_csv(run_file(out_dir, f"optimize-rutsmieter-{n}p-seed{seed}", digest),
                          _csv_rows(res), res.interrupted, digest)
    if res.interrupted:
        policy_path = interrupted_name(policy_path)
    policy = WeightsPolicy(res.weights, table)
    summary = {k: v for k, v in d.items() if k not in ("game", "rules", "weights")}
    policy_path = save(policy_path, lambda tmp: policy.write(tmp, created_by=command, summary=summary))
    ran = ran_on(n_threads)
    d.update({**ran.json(), "policy_file": str(policy_path), "csv": str(csv_path),
              "run_digest": digest})
    if as_json:
        print(json.dumps(d, indent=2))
    else:
        _print(res, d, ran.words(), policy_path, csv_path)
    if res.interrupted:
        err.print("interrupted: the best weights found so far are saved, marked interrupted, in "
                  f"{policy_path}", markup=False, highlight=False)
        raise typer.Exit(130)


def _method(generations) -> str:
    """The search in words, by the generations it played: ``cross-entropy, 1
    generation of 10 candidates``, ``2 generations of 16 + 4 candidates``."""
    sizes = [g.candidates for g in generations]
    if not sizes:
        return "cross-entropy (no generation played)"
    if len(set(sizes)) == 1 or len(sizes) > 3:
        each, last = f"{sizes[0]}", "" if len(set(sizes)) == 1 else f" (the last {sizes[-1]})"
    else:
        each, last = " + ".join(str(n) for n in sizes), ""
    return f"cross-entropy, {plural(len(sizes), 'generation')} of {each} candidates{last}"


def _pm(e) -> str:
    """A win rate and its Wilson interval: ``0.2610 [0.2528, 0.2694]``."""
    return e.text(4)


def _print(res, d: dict, ran_words: str, policy_path, csv_path) -> None:
    from .policy import FEATURES
    from .words import FEATURE_WORDS

    s = d["search"]
    out.print(f"[bold]Rutsmieter[/bold]: the move weights searched against "
              f"{', '.join(res.field)} at {res.rules.players} players ({s['method']}; "
              f"the start weights and {plural(s['candidates'] - 1, 'candidate')}, each on the same "
              f"{s['games_per_bot']:,} games against each field bot)")
    t = Table("what the weight counts", "start", "found", "", title="weights (a move's score is the "
              "sum of weight × count; the highest is played)", title_justify="left")
    for f, a, b in zip(FEATURES, res.start, res.weights):
        t.add_row(FEATURE_WORDS[f][0], f"{a:g}", f"{b:g}", "searched" if f in res.free else
                  "fixed: changed no search game")
    out.print(t)
    if res.evaluated:
        t = Table("against", "win rate", "95% CI", "games", "start weights",
                  title=f"fresh games (never seen by the search; fair share "
                        f"{1 / res.rules.players:.4f})", title_justify="left")
        for name, e in res.fresh.items():
            t.add_row(name, f"{e.mean:.4f}", e.ci_text(4), f"{e.n:,}",
                      _pm(res.start_fresh[name]))
        t.add_row("all", f"{res.fresh_all.mean:.4f}", res.fresh_all.ci_text(4),
                  f"{res.fresh_all.n:,}", "")
        out.print(t)
        out.print(f"gain over the start weights on the same fresh games: "
                  f"{res.gain_vs_start.mean:+.4f} ± {res.gain_vs_start.ci95:.4f}")
    if s["win_rate"] is not None:
        out.print(f"search games: best {_pm(res.search_score)}, start weights "
                  f"{s['start_win_rate']:.4f} (the best of many is flattered there: the fresh "
                  "games tell)")
    out.print(f"seed {res.seed} (replay: {d['command']}); {ran_words}; "
              f"{res.seconds:.1f} s", soft_wrap=True)
    out.print(f"policy file: {policy_path.shown} (play it: --bots weights:{policy_path})",
              soft_wrap=True)
    out.print(f"CSV: {csv_path.shown}", soft_wrap=True)


# -- optimize --method td: a position's value learned by self-play (rutsmieter.td) -------------


def _td_tables(players) -> tuple[int, ...]:
    """The table sizes of ``--players`` for ``--method td``: 2,3,4 by default."""
    if players is None:
        return (2, 3, 4)
    parts = [p.strip() for p in str(players).split(",")]
    sizes = [_players_number(p) for p in parts]
    for n in sizes:
        table_rules(RutsmieterRules(), n)  # 2, 3 or 4: one line otherwise
        if sizes.count(n) > 1:
            raise UserError(f"--players names {n} twice; name each table size once")
    return tuple(sorted(sizes))


def _td_digest(rules: RutsmieterRules, tables, games: int, seed: int) -> str:
    from .td import ALPHA, LAMBDA

    return run_digest("optimize", game="rutsmieter", method="td", rules=rules, players=list(tables),
                      games=games, seed=seed, alpha=ALPHA, lam=LAMBDA)


def _td_paths(rules, seed, out_dir, games, tables, out_path) -> tuple[Path, Path]:
    """The policy file and the chart beside it (``…-curve.png``)."""
    from .td import GAMES

    games = GAMES if games is None else games
    if out_path is not None:
        path = Path(out_path)
    else:
        sizes = "-".join(map(str, tables))
        path = run_file(out_dir, f"rutsmieter-td-{sizes}p-seed{seed}",
                        _td_digest(rules, tables, games, seed), ".json")
    return path, path.with_name(f"{path.stem}-curve.png")


def _td_check(rules, seed, out_dir, games, search_games, candidates, players, field,
              out_path) -> None:
    """``--method td`` before any game: no search options, the table sizes, the files' place."""
    for flag, value in (("--search-games", search_games), ("--candidates", candidates),
                        ("--field", field)):
        if value is not None:
            raise UserError(f"{flag} does not apply to --method td (self-play plays no search; "
                            "its curve is measured against a fixed field)")
    tables = _td_tables(players)
    for path in _td_paths(rules, seed, out_dir, games, tables, out_path):
        prepare_file(path, "--out")


def td_command_line(rules: RutsmieterRules, tables, games: int, seed: int) -> str:
    """The command that learns the same weights (every option spelled out)."""
    return (f"tutto-sim optimize --game rutsmieter --method td --players "
            f"{','.join(map(str, tables))} --games {games} --seed {seed}{_rule_flags(rules)}")


def td_json(res, command: str, rules: RutsmieterRules) -> dict:
    """The run's figures: ``--json`` and (without the weights and file names)
    the policy file's ``summary``."""
    from .optimize import weights_dict
    from .td import POSITION_FEATURES, SCALE

    return {
        "game": "rutsmieter", "method": f"TD(lambda) by self-play, alpha {res.alpha:g}, "
        f"lambda {res.lam:g}: V = sigmoid(b + theta . features / scale) over the position "
        "features; the greedy move is the weights bot with theta / scale on them",
        "players": list(res.players), "seed": res.seed, "command": command,
        "alpha": res.alpha, "lambda": res.lam, "games": res.games, "games_done": res.games_done,
        "scale": dict(zip(POSITION_FEATURES, map(float, SCALE))),
        "bias": {str(n): th[0] for n, th in res.thetas.items()},
        "weights_by_players": {str(n): weights_dict(res.weights(n)) for n in res.thetas},
        "field": res.field,
        "curve": [{"games": c.games, "players": c.players, "win_rate": c.win_rate,
                   "ci95_low": c.low, "ci95_high": c.high, "games_against_field": c.n}
                  for c in res.curve],
        "final": {str(n): {bot: _est(e) for bot, e in f.items()} for n, f in res.final.items()},
        "train_seconds": round(res.train_seconds, 2), "seconds": round(res.seconds, 2),
        "rules": rules.to_dict(), "interrupted": res.interrupted,
    }


def td_optimize(rules, seed: int, as_json: bool, out_dir: Path, n_threads: int, games=None,
                players=None, out_path=None) -> None:
    """``optimize --game rutsmieter --method td``: train at each table size,
    write the policy file (a weight set per table size) and the chart beside
    it; Ctrl-C keeps the games trained so far (files marked interrupted, exit 130)."""
    from tutto_sim.core.commands_games import ran_on

    from .policy import WeightsPolicy
    from .td import GAMES, chart, learn

    tables = _td_tables(players)
    games = GAMES if games is None else games
    policy_path, chart_path = _td_paths(rules, seed, out_dir, games, tables, out_path)
    command = td_command_line(rules, tables, games, seed)
    if not as_json:
        out.print(f"[bold]Rutsmieter[/bold]: learning a position's value by self-play at "
                  f"{', '.join(map(str, tables))} players, {games:,} games each; seed {seed}",
                  soft_wrap=True)
    with progress_phases(not as_json) as phase:
        res = learn(tables, seed, games, rules=rules, phase=phase)
    d = td_json(res, command, rules)
    if res.interrupted:
        policy_path, chart_path = interrupted_name(policy_path), interrupted_name(chart_path)
    main = 4 if 4 in tables else tables[0]
    policy = WeightsPolicy(res.weights(main), replace(rules, players=main),
                           by_players=tuple((n, res.weights(n)) for n in tables))
    summary = {k: v for k, v in d.items() if k not in ("game", "rules", "weights_by_players")}
    policy_path = save(policy_path, lambda tmp: policy.write(tmp, created_by=command, summary=summary))
    chart_path = save(chart_path, lambda tmp: chart(res, tmp))
    ran = ran_on(n_threads)
    d.update({**ran.json(), "policy_file": str(policy_path), "chart": str(chart_path)})
    if as_json:
        print(json.dumps(d, indent=2))
    else:
        _td_print(res, d, ran.words(), policy_path, chart_path)
    if res.interrupted:
        err.print(f"interrupted after {res.games_done:,} games of self-play at each table size: "
                  f"the weights so far are saved, marked interrupted, in {policy_path}",
                  markup=False, highlight=False)
        raise typer.Exit(130)


def _td_print(res, d: dict, ran_words: str, policy_path, chart_path) -> None:
    from .policy import FEATURES
    from .td import N_POSITION
    from .words import FEATURE_WORDS

    out.print("win rate against the field (the learner in one seat, " + ", ".join(res.field) +
              " in the others; 95% CI)", soft_wrap=True)
    t = Table("games of self-play", *(f"{n} players (fair {1 / n:.3f})" for n in res.players))
    for g in sorted({c.games for c in res.curve}):
        by = {c.players: c for c in res.curve if c.games == g}
        t.add_row(f"{g:,}", *(f"{by[n].win_rate:.4f} [{by[n].low:.4f}, {by[n].high:.4f}]"
                              if n in by else "" for n in res.players))
    out.print(t)
    if res.final:
        bots = list(next(iter(res.final.values())))
        t = Table("against", *(f"{n} players" for n in res.final),
                  title="final weights on more games against the field (95% CI)",
                  title_justify="left")
        for bot in bots:
            t.add_row(bot, *(_pm(f[bot]) for f in res.final.values()))
        out.print(t)
    out.print("weights learned (a move's score: the sum of weight × count of the position "
              "after it)", soft_wrap=True)
    t = Table("what the weight counts", *(f"{n} players" for n in res.thetas))
    for i, f in enumerate(FEATURES[-N_POSITION:]):
        t.add_row(FEATURE_WORDS[f][0], *(f"{res.weights(n)[-N_POSITION + i]:+.4f}" for n in res.thetas))
    t.add_row("(a constant, the same for every move)", *(f"{th[0]:+.4f}" for th in res.thetas.values()))
    out.print(t)
    out.print(f"seed {res.seed} (replay: {d['command']}); {ran_words}; self-play "
              f"{res.train_seconds:.1f} s, {res.seconds:.1f} s in all", soft_wrap=True)
    out.print(f"policy file: {policy_path.shown} (play it: --bots weights:{policy_path})",
              soft_wrap=True)
    out.print(f"chart: {chart_path.shown}", soft_wrap=True)

"""``tutto-sim analyze winopt``: Tutto's own analysis on the command line,
mounted on the shared ``analyze`` app through the hook ``analyze_commands``
(``core.commands_games``).

How good is playing to win without a table of the whole table? ``winopt``
at three or four players decides by the two-player win table in a reduced
state (its own score against the leader's, :mod:`tutto_sim.tutto.win.seat`).
Here it is valued exactly in the N-player game (``win.solve_n.value_winopt``),
seat by seat, against players who play to win by the exact N-player table and
against points players. Exact: no seed. docs/win.md, *How good is winopt
without an N-player table*, has the figures and the JSON keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tutto_sim.core.cli import RESULTS_DIR, UserError, err, out
from tutto_sim.core.commands_games import AsJson, OutDir
from tutto_sim.tutto.rules import WIN_FIELDS



def analyze_winopt(
    players: Annotated[int, typer.Option("--players", help="Table size: 3 or 4 (at two, winopt plays the exact table).")] = 3,
    table: Annotated[Optional[Path], typer.Option("--table", help="The N-player win table (solve --objective win --players N); default: where that command saves it for these rules.")] = None,
    points_players: Annotated[bool, typer.Option("--points-players/--no-points-players", help="Also value winopt against points players (the optimal bot): one more table per seat.")] = True,
    as_json: AsJson = False, out_dir: OutDir = RESULTS_DIR,
    rules=None,
) -> None:
    """Tutto: how much playing to win without an N-player table (winopt) loses against exact play, seat by seat."""
    import json

    from tutto_sim.core.cli import prepare_dir, progress_phases, write_csv
    from tutto_sim.core.policyfile import load_for_cli
    from tutto_sim.core.runs import run_digest, run_file
    from tutto_sim.tutto.bots import win_table
    from tutto_sim.tutto.win.table import default_win_file, win_rules
    from tutto_sim.tutto.win.solve_n import MAX_TARGETS, value_winopt
    from tutto_sim.tutto.win.table import load_win_table_n

    if players not in (3, 4):
        raise UserError(f"--players must be 3 or 4 for analyze winopt (at two players winopt "
                        f"plays the exact table), not {players}")
    if rules.target > MAX_TARGETS[players]:
        raise UserError(f"analyze winopt --players {players} needs the exact {players}-player "
                        f"table, solved up to target {MAX_TARGETS[players]:,}, not "
                        f"{rules.target:,}")
    rules = win_rules(rules)
    if table is not None and not table.is_file():
        raise UserError(f"--table {table}: no such file")
    path = table or default_win_file(rules, players)[0]
    if not Path(path).exists():
        raise UserError(
            f"no {players}-player win table for these rules in {path}; solve it first (it can "
            f"be stopped and resumed): tutto-sim solve --game tutto --objective win --players "
            f"{players} --target {rules.target}"
            + ("" if rules.game_end == "round" else f" --game-end {rules.game_end}"))
    tab = load_for_cli(load_win_table_n, path, rules, players, prefix="--table: ")
    prepare_dir(out_dir, "--out-dir")
    with progress_phases(not as_json) as phase:
        two = win_table(rules, None, phase)
        try:
            res = value_winopt(tab, two, against_ev=points_players, phase=phase)
        except KeyboardInterrupt:
            err.print("interrupted: nothing kept (each seat's figure is one exact evaluation; "
                      "run the command again)", markup=False, highlight=False)
            raise typer.Exit(130) from None
        except ValueError as e:
            raise UserError(str(e)) from None
    summ = res.summary()
    digest = run_digest("winopt", game="tutto", rules=rules, players=players,
                        points_players=points_players, margin_cap=tab.margin_cap)
    rows = []
    for s in range(players):
        row = {"game": "tutto", "players": players, "target": rules.target, "seat": s + 1,
               "p_wins": res.exact[s], "winopt": res.vs_win[s], "loss": res.loss()[s]}
        if res.vs_ev:
            row.update({"win_vs_ev": res.win_vs_ev[s], "winopt_vs_ev": res.vs_ev[s],
                        "loss_vs_ev": res.loss_vs_ev()[s], "p_wins_ev": res.p_wins_ev[s],
                        "gain_vs_ev": res.gain_vs_ev()[s]})
        rows.append(row)
    csv_path = write_csv(run_file(out_dir, f"winopt-tutto-{players}p-{rules.target}", digest),
                         rows, False, digest)
    if as_json:
        print(json.dumps({**summ, "win_table": str(path), "rules": rules.to_dict(),
                          "csv": str(csv_path), "run_digest": digest}, indent=2))
        return
    _print(res, path, csv_path)


analyze_winopt.rule_flags = WIN_FIELDS


def _print(res, path, csv_path) -> None:
    from rich.table import Table

    N = res.players
    ends = ("the round is finished" if res.rules.game_end == "round"
            else "the first to reach it wins")
    t = Table("seat", "everyone plays to win", "winopt in this seat", "winopt loses",
              title=(f"Tutto, {N} players to {res.rules.target:,} ({ends}), exact: winopt (the "
                     "two-player table's decisions, own score against the leader's) in one seat, "
                     "every other player playing to win by the exact table; chance to win"),
              title_justify="left")
    for s in range(N):
        t.add_row(str(s + 1), f"{res.exact[s]:.4%}", f"{res.vs_win[s]:.4%}",
                  f"{100 * res.loss()[s]:.3f} points")
    out.print(t)
    if res.vs_ev:
        t = Table("seat", "playing for points", "playing to win (exact)", "winopt",
                  "winopt loses", "winopt gains over points play",
                  title=(f"the same seat against {N - 1} points players (the optimal bot)"),
                  title_justify="left")
        for s in range(N):
            t.add_row(str(s + 1), f"{res.p_wins_ev[s]:.4%}", f"{res.win_vs_ev[s]:.4%}",
                      f"{res.vs_ev[s]:.4%}", f"{100 * res.loss_vs_ev()[s]:.3f} points",
                      f"{100 * res.gain_vs_ev()[s]:.3f} points")
        out.print(t)
    loss = res.loss()
    out.print(f"winopt gives away {100 * sum(loss) / N:.3f} points of win probability per seat on "
              f"average ({100 * max(loss):.3f} in seat {loss.index(max(loss)) + 1}) against exact "
              "play")
    out.print(f"win table {path}; {res.seconds:.1f} s; largest change in the last sweep "
              f"{res.residual:.1e}")
    out.print(f"CSV: {csv_path.shown}", soft_wrap=True)

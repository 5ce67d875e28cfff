"""What the shared commands and engines ask of Tutto: its ``GameHooks``
(``core.contract``): the game config, bots, the tournament's game kind, play
at the terminal, the command handlers and the report; names are the
defaults (``tutto``, Tutto)."""

from __future__ import annotations

from tutto_sim.core.contract import GameHooks
from tutto_sim.tutto.entry import ENTRY


def sol_turn(sol, seat, own, other):
    from tutto_sim.tutto.win.planner import turn_start

    return turn_start(sol.rules, sol.W, sol.last_turn_table, sol.margin_cap, seat, own, other)


class TuttoHooks(GameHooks):
    HELP = {
        "optimize": "Tutto card",
        "solve": "Tutto: every card's value",
        "optimize --card": "Tutto card to optimise: stop, fireworks, bonus200, bonus300, bonus400, bonus500, bonus600, x2, plusminus, street, cloverleaf (German names too). Default bonus400.",
        "optimize --method": "Tutto (and Macke): monte-carlo (search threshold policies by simulation; default) or exact (the optimal policy from the solver). ",
        "solve --cap": "Tutto: turn total (points) from which the solver assumes banking; raising it changes nothing (tested). Default 60000.",
        "report --turns": "200,000 for Tutto",
        "solve --objective": "Tutto",
        "play --win-table": "Tutto",
        "report --win-target": "Tutto",
        "win tables": "Tutto",
    }

    OPTIMIZE_OPTIONS = ("card", "method", "turns", "search_turns")

    def game_kind(self, config):
        from tutto_sim.core.tournament import GameKind
        from tutto_sim.dice.scoring import POINT_UNIT
        from tutto_sim.tutto.game import END_KINDS, play_game
        from tutto_sim.tutto.game_kernel import TuttoGameKernel

        return GameKind("tutto", END_KINDS, play_game, TuttoGameKernel, POINT_UNIT)

    def exact_turn_values(self, rules, thresholds) -> dict[str, float]:
        from tutto_sim.tutto.bots import threshold_policy
        from tutto_sim.tutto.policy import turn_rules
        from tutto_sim.tutto.solver import exact_policy_value, solve_tutto

        ev = {"optimal": float(solve_tutto(turn_rules(rules)).turn_ev)}
        for x in thresholds:
            pol = threshold_policy(x, x, "all").to_array()
            ev[f"threshold:{x}"] = exact_policy_value(pol, None, turn_rules(rules))
        return ev

    def threshold_words(self) -> str:
        return "also after a Tutto; keep every scoring die"

    def ends_line(self, res) -> str:
        ends = res.end_counts()
        return f"ended by the Kleeblatt: {ends['cloverleaf'] / max(res.games, 1):.2%}"

    def instant_column(self, rules) -> tuple[str, str, bool]:
        return "Kleeblatt ends", "cloverleaf_share", True

    def human(self, name, read, write, hints, rules, win_table=None, players=2):
        """The human at ``play``; ``win_table`` (a policy file from ``solve --objective
        win``, for ``players`` players: ``--players N`` for three or four) adds each
        choice's chance to win to the advice."""
        from tutto_sim.tutto.human import Advisor, HumanBot, WinAdvisor

        win = None
        if win_table is not None:  # first: a file that does not fit stops before any solving
            from tutto_sim.core.cli import UserError
            from tutto_sim.core.policyfile import load_for_cli
            from tutto_sim.tutto.win.table import table_size

            size = table_size(win_table)
            if size is not None and size != players:
                raise UserError(f"--win-table: win table {win_table} is for {size} players, not "
                                f"{players} (solve --objective win --players {players})")
            if players == 2:
                from tutto_sim.tutto.win.table import load_win_table

                table = load_for_cli(load_win_table, win_table, rules, prefix="--win-table: ")
            else:
                from tutto_sim.tutto.win.table import load_win_table_n

                table = load_for_cli(lambda p, r: load_win_table_n(p, r, players), win_table,
                                     rules, prefix="--win-table: ")
            win = WinAdvisor(table)
        bot = HumanBot(name, read, write, Advisor(rules), hints)
        bot.win = win
        return bot

    def interactive_game(self, players, config, seed, narrate):
        from tutto_sim.tutto.game import TuttoGame

        return TuttoGame(players, config, seed, 0, narrate=narrate)

    def optimize(self, **kw):
        from tutto_sim.tutto.cli import optimize as run

        return run(**kw)

    def solve(self, **kw):
        from tutto_sim.tutto.cli import solve as run

        return run(**kw)

    def export_policy(self, **kw):
        from tutto_sim.tutto.cli import export_policy as run

        return run(**kw)

    def validate(self, **kw):
        from tutto_sim.tutto.cli import validate as run

        return run(**kw)

    def solve_win(self, rules, as_json: bool, out_path, players: int | None = None,
                  resume: bool = False, win_only: bool = False) -> None:
        """``solve --objective win``: the exact two-player win table (docs/win.md),
        written as a policy file; JSON or a short table in the players' words."""
        import json

        from tutto_sim.core.cli import (UserError, err, out,
                                        prepare_file, solve_and_save, solve_output)
        from tutto_sim.dice.scoring import POINT_UNIT
        from tutto_sim.tutto.win.solve2 import MAX_TARGET, TIME_POWER
        from tutto_sim.tutto.win.table import default_win_file, write_win_table
        from tutto_sim.tutto.win.solve2 import solve_win as solve

        if players not in (None, 2):
            return self._solve_win_n(rules, as_json, out_path, players, resume, win_only)
        for given, flag in ((resume, "--resume"), (win_only, "--win-only")):
            if given:
                raise UserError(f"{flag} applies to the tables of three and four players "
                                f"(--players 3 or 4): a two-player table is solved in minutes")

        if rules.target > MAX_TARGET:
            raise UserError(f"--objective win solves targets up to {MAX_TARGET:,} points "
                            f"(memory grows with the square of the target and time grows about "
                            f"as the target to the power {TIME_POWER}: docs/win.md, *Speed*), "
                            f"not {rules.target:,}")
        default, digest = default_win_file(rules)
        path = solve_output(out_path, default)
        prepare_file(path, "--out")
        sol, path = solve_and_save(lambda phase: solve(rules, phase=phase),
                                   write_win_table, path, not as_json)
        summary = {**sol.summary(), "policy_file": str(path), "run_digest": digest}
        if as_json:
            print(json.dumps(summary, indent=2))
            return
        err.print(f"win table written to {path.shown}")
        u = POINT_UNIT
        out.print(f"Tutto, two players to {rules.target:,} ({'the round is finished' if rules.game_end == 'round' else 'the first to reach it wins'}), exact:")
        out.print(f"  both play to win: the first player wins {sol.p_first_wins:.4%}")
        out.print(f"  both play for the most points per turn: the first player wins {sol.p_first_wins_ev:.4%}")
        first, second = sol.win_vs_ev_seats
        out.print(f"  playing to win against a points player: wins {sol.win_vs_ev:.4%} "
                  f"({first:.4%} moving first, {second:.4%} second)")
        n = rules.target // u
        rows = sorted({(0, 0), (n // 2, n // 2), (n - 1 - n // 10, n - 1), (n - 1, n - 1 - n // 10),
                       (max(n - 1 - n // 3, 0), n - 1)})
        out.print("  after a Tutto, the first player banks from (points in the turn):")
        for own, other in rows:
            start = sol_turn(sol, 0, own, other)
            frm = start.bank_from()
            shown = "never below the cap" if frm is None or frm >= start.tcap else f"{frm * u:,}"
            out.print(f"    own {own * u:>6,}, opponent {other * u:>6,}: {shown}")
        out.print(f"  ({sol.states:,} turn-start states, {sol.seconds:.1f} s, largest change in the "
                  f"last sweep {sol.residual:.1e}; error bound of the last-turn cap {sol.cap_error:.1e})")

    def _solve_win_n(self, rules, as_json: bool, out_path, players: int,
                     resume: bool = False, win_only: bool = False) -> None:
        """``solve --objective win --players N`` (N = 3, 4): the exact table of N
        players (docs/win.md, *Three and four players*). The finished levels are
        kept beside the table (``…-<run>.checkpoint/``) until it is written;
        ``--resume`` goes on from them."""
        import json

        from tutto_sim.core.checkpoint import Checkpoint
        from tutto_sim.core.cli import (UserError, err, out,
                                        prepare_file, solve_and_save, solve_output)
        from tutto_sim.tutto.win.table import default_win_file
        from tutto_sim.tutto.win.solve_n import DEFAULT_TOL, MAX_TARGETS, checkpoint_key, margin_cap_of, solve_win_n
        from tutto_sim.tutto.win.table import write_win_table_n

        most = MAX_TARGETS[players]
        if rules.target > most:
            raise UserError(f"--objective win --players {players} solves targets up to {most:,} "
                            f"points (time and memory grow with the target to the power "
                            f"{players + 1}), not {rules.target:,}")
        default, digest = default_win_file(rules, players)
        path = solve_output(out_path, default)
        prepare_file(path, "--out")
        ck = Checkpoint.open(path.with_suffix(".checkpoint"),
                             checkpoint_key(rules, players, margin_cap_of(rules, players),
                                            DEFAULT_TOL), resume,
                             f"the {players}-player win table to {rules.target:,}")
        if resume:
            err.print(f"resuming from {ck.folder}: {ck.summary()}" if ck.parts else
                      f"--resume: nothing saved in {ck.folder} yet; solving from the start")
        sol, path = solve_and_save(lambda phase: solve_win_n(rules, players, phase=phase,
                                                             checkpoint=ck,
                                                             evaluate_ev=not win_only),
                                   write_win_table_n, path, not as_json, checkpoint=ck)
        summary = {**sol.summary(), "policy_file": str(path), "run_digest": digest}
        traffic = sol.extra.get("cluster")
        if traffic:  # what went to the workers: the tables once, then what changed
            summary["cluster_traffic"] = traffic
        if as_json:
            print(json.dumps(summary, indent=2))
            return
        err.print(f"win table written to {path.shown}")
        if traffic:
            from tutto_sim.core.cluster import traffic_line

            err.print(traffic_line(traffic))
        ends = "the round is finished" if rules.game_end == "round" else "the first to reach it wins"
        out.print(f"Tutto, {players} players to {rules.target:,} ({ends}), exact; seats in the "
                  f"order they move, fair share {1 / players:.2%}:")
        seats = ", ".join(f"{p:.4%}" for p in sol.p_wins)
        out.print(f"  everyone plays to win: {seats}")
        if sol.p_wins_ev:
            seats = ", ".join(f"{p:.4%}" for p in sol.p_wins_ev)
            out.print(f"  everyone plays for the most points per turn: {seats}")
            seats = ", ".join(f"{p:.4%}" for p in sol.win_vs_ev)
            out.print(f"  one player plays to win against points players, in each seat: {seats} "
                      f"(average {sum(sol.win_vs_ev) / players:.4%})")
        out.print(f"  ({sol.states:,} turn-start states, {sol.seconds:.1f} s, largest change in the "
                  f"last sweep {sol.residual:.1e}; turns followed {sol.margin_cap * 50:,} points past "
                  f"the target)")

    def analyze_commands(self) -> list:
        """Tutto's own analysis: ``analyze winopt``."""
        from tutto_sim.tutto.analysis_cli import analyze_winopt

        return [("winopt", analyze_winopt)]

    def web_cases(self, kind: str, path, n: int, seed: int) -> list[dict]:
        """Seeded situations with the Python answers for the JavaScript reader's
        tests (``web.export``): ``kind`` "turn" (the points table) or "win"."""
        from tutto_sim.tutto import web_cases as cases

        return (cases.win_cases if kind == "win" else cases.tutto_cases)(path, n, seed)

    def advisor_table(self, kind, path) -> tuple:
        """The advisor's view of a Tutto file (``kind`` "win-table" or None), read
        with its loader (a refusal is one line, exit 2): (page key, reader's game, kind, rules, words,
        rule lines, extra)."""
        from tutto_sim.core.policyfile import load_for_cli
        from tutto_sim.tutto import words

        if kind == "win-table":
            from tutto_sim.tutto.win.table import load_win_table
            from tutto_sim.tutto.win.table import load_win_table_n, table_size

            if (table_size(path) or 2) > 2:  # three or four players: each player's chance
                table = load_for_cli(load_win_table_n, path)
                return ("tutto", "tutto-win", "win", table.rules.to_dict(),
                        f"{words.rules_words(table.rules)}, {table.players} players",
                        words.rules_lines(table.rules)[:6],
                        {"target": table.rules.target, "summary": table.summary,
                         "players": table.players})
            table = load_for_cli(load_win_table, path)
            return ("tutto", "tutto-win", "win", table.rules.to_dict(), words.rules_words(table.rules),
                    words.rules_lines(table.rules)[:6], {"target": table.rules.target, "summary": table.summary})
        from tutto_sim.tutto.policy import load_policy

        pol = load_for_cli(load_policy, path)
        return ("tutto", "tutto", "turn", pol.rules.to_dict(), words.rules_words(pol.rules),
                words.rules_lines(pol.rules), {"summary": pol.summary})


HOOKS = TuttoHooks(ENTRY)

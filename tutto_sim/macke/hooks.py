"""What the shared commands and engines ask of Berliner Macke and Volle Lotte:
their ``GameHooks`` (``core.contract``): names for files and players, the game config, bots, the
tournament's game kind, play at the terminal, the command handlers, the
report, and Macke's own command (``explore``)."""

from __future__ import annotations

from tutto_sim.core.contract import GameHooks
from tutto_sim.macke.entry import ENTRY



class MackeHooks(GameHooks):
    HELP = {
        "optimize": " (or for Macke)",
        "solve": "; --game macke too",
        "report --turns": ", 1,000,000 for Berliner Macke and Volle Lotte",
        "solve --objective": ", Macke, Volle Lotte",
        "win tables": ", Berliner Macke and Volle Lotte",
        "play --win-table": ", Berliner Macke, Volle Lotte",
        "report --win-target": (", Berliner Macke, Volle Lotte: the target of the pages on playing to win (two players; default: "
                                "the table solve --objective win saved in results/ for the game's target when present, else "
                                "1,000; Volle Lotte 500"),
    }

    OPTIMIZE_OPTIONS = ("method", "turns", "search_turns")

    def label(self, rules) -> str:
        return rules.game if rules.variant in ("standard", "volle-lotte") else f"macke-{rules.variant}"

    def title(self, rules) -> str:
        name = "Volle Lotte" if rules.variant == "volle-lotte" else "Berliner Macke"
        if rules.variant not in ("standard", "volle-lotte"):
            name += f" ({rules.variant})"
        return name

    def game_kind(self, config):
        from tutto_sim.core.tournament import GameKind
        from tutto_sim.dice.scoring import POINT_UNIT
        from tutto_sim.macke.game import END_KINDS, play_macke_game
        from tutto_sim.macke.game_kernel import MackeGameKernel

        return GameKind(config.rules.game, END_KINDS, play_macke_game, MackeGameKernel, POINT_UNIT)

    def exact_turn_values(self, rules, thresholds) -> dict[str, float]:
        from tutto_sim.macke.rules import macke_turn_rules
        from tutto_sim.macke.solver import exact_macke_policy_value, solve_macke
        from tutto_sim.macke.threshold import MackeThresholdPolicy

        tr = macke_turn_rules(rules)
        ev = {"optimal": float(solve_macke(tr).turn_ev)}
        for x in thresholds:
            ev[f"threshold:{x}"] = exact_macke_policy_value(MackeThresholdPolicy.simple(tr, x), tr)
        return ev

    def threshold_words(self) -> str:
        return "also after a clear; keep every scoring unit, never return"

    def ends_line(self, res) -> str:
        ends = res.end_counts()
        g = max(res.games, 1)
        line = f"ended after the nachwerfen: {ends['nachwerfen'] / g:.2%}"
        if res.config.rules.variant == "instant-win":
            line += f"; by five 1s (instant win): {ends['instant-win'] / g:.2%}"
        if ends["cap"]:
            line += f"; at the {res.config.max_rounds:,}-round cap: {ends['cap'] / g:.2%}"
        return line

    def rules_line(self, rules) -> str | None:
        from tutto_sim.core.cli import plural

        return (f"target {rules.target:,}; minimum score {rules.min_score:,}; "
                f"{plural(rules.throws, 'throw')} per series; Macke after the first throw: "
                f"{rules.bust}; the target reached, every other player throws once more "
                "(nachwerfen)")

    def instant_column(self, rules) -> tuple[str, str, bool]:
        return "instant wins", "instant_win_share", rules.variant == "instant-win"

    def human(self, name, read, write, hints, rules, win_table=None):
        """The human at ``play``; ``win_table`` (a policy file from ``solve --objective
        win``) adds each choice's chance to win to the advice (two players)."""
        from tutto_sim.macke.human import MackeAdvisor, MackeHumanBot

        bot = MackeHumanBot(name, read, write, MackeAdvisor(rules), hints)
        if win_table is not None:
            from tutto_sim.core.policyfile import load_for_cli
            from tutto_sim.macke.win.planner import WinPlanner
            from tutto_sim.macke.win.table import load_win_table

            bot.win = WinPlanner(load_for_cli(load_win_table, win_table, rules, prefix="--win-table: "))
        return bot

    def interactive_game(self, players, config, seed, narrate):
        from tutto_sim.macke.game import MackeGame

        return MackeGame(players, config, seed, 0, narrate=narrate)

    def optimize(self, **kw):
        from tutto_sim.macke.cli import optimize as macke_optimize

        return macke_optimize(card=None, **kw)  # no cards in Macke: --card is refused before

    def solve(self, **kw):
        from tutto_sim.macke.cli import solve as macke_solve

        return macke_solve(**kw)

    def export_policy(self, **kw):
        from tutto_sim.macke.cli import export_policy as macke_export

        return macke_export(**kw)

    def validate(self, **kw):
        from tutto_sim.macke.cli import validate as macke_validate

        return macke_validate(**kw)

    def commands(self) -> list:
        """Commands of this game alone, mounted on the root app: ``explore``."""
        from tutto_sim.macke.analysis_cli import explore

        return [("explore", explore)]

    def title_of_label(self, label: str) -> str | None:
        from tutto_sim.macke.words import title_of_label as title

        return title(label)

    def variant_words(self, variant: str) -> str:
        from tutto_sim.macke.words import variant_words as words

        return words(variant)

    def solve_win(self, rules, as_json: bool, out_path, players: int | None = None,
                  resume: bool = False) -> None:
        """``solve --objective win``: exact chances to win Berliner Macke or Volle
        Lotte when every player plays to win (docs/macke-win.md), written as a
        policy file; JSON or a short table in the players' words. ``players``
        None: two at Berliner Macke, three at Volle Lotte (its rules ask for
        three or more); two players take the two-player solver."""
        from tutto_sim.core.cli import UserError

        if players is None:
            players = 3 if rules.variant == "volle-lotte" else 2
        if players != 2:
            return self._solve_win_n(rules, as_json, out_path, players, resume)
        if resume:
            raise UserError("--resume applies to the tables of three and four players "
                            "(--players 3 or 4): a two-player table is solved in minutes")
        import json

        from tutto_sim.core.cli import err, out, prepare_file, solve_and_save, solve_output
        from tutto_sim.macke.win.solve2 import DEFAULT_FLOOR, check_win_rules
        from tutto_sim.macke.win.solve_n import solve_macke_win
        from tutto_sim.macke.win.table import default_win_file, write_win_table
        from tutto_sim.macke.win.solve_n import VOLLE_LOTTE_NOTE

        try:
            check_win_rules(rules, DEFAULT_FLOOR)
        except ValueError as e:
            raise UserError(str(e)) from None
        default, digest = default_win_file(rules)
        path = solve_output(out_path, default)
        prepare_file(path, "--out")
        sol, path = solve_and_save(lambda phase: solve_macke_win(rules, phase=phase),
                                   write_win_table, path, not as_json)
        note = rules.variant == "volle-lotte"
        if as_json:
            extra = {"note": VOLLE_LOTTE_NOTE} if note else {}
            print(json.dumps({**sol.summary(), "policy_file": str(path), "run_digest": digest, **extra},
                             indent=2))
            return
        err.print(f"win table written to {path.shown}")
        first, second = sol.win_vs_ev_seats
        out.print(f"{self.title(rules)}, two players to {rules.target:,} (reaching it, the other throws "
                  "once more), exact:")
        if note:
            out.print(f"  (note: {VOLLE_LOTTE_NOTE}; --players 3 or 4 solves such a table)")
        out.print(f"  both play to win: the first player wins {sol.p_first_wins:.4%}")
        out.print(f"  both play for the most points per turn: the first player wins "
                  f"{sol.p_first_wins_ev:.4%}")
        out.print(f"  playing to win against a points player: wins {sol.win_vs_ev:.4%} "
                  f"({first:.4%} moving first, {second:.4%} second)")
        g = rules.target
        scores = sorted({0, g // 2 // 50 * 50, g - 50 - g // 10 // 50 * 50, g - 50})
        out.print("  your chance at the start of your turn (rows: your score, columns: the opponent's):")
        out.print("    " + " " * 8 + "".join(f"{b:>9,}" for b in scores))
        for a in scores:
            out.print(f"    {a:>8,}" + "".join(f"{sol.win(a, b):>9.2%}" for b in scores))
        out.print(f"  ({sol.states:,} turn-start states, scores held at {sol.floor:,} at the lowest; "
                  f"{sol.seconds:.1f} s, {sol.iterations} sweeps, the last changed no chance by more "
                  f"than {sol.residual:.1e})")

    def _solve_win_n(self, rules, as_json: bool, out_path, players: int,
                     resume: bool = False) -> None:
        """``solve --objective win --players 3|4`` (``macke.win.solve_n``): each
        finished sweep kept beside the table (FILE.checkpoint/), ``resume`` goes
        on from there."""
        import json

        from tutto_sim.core.checkpoint import Checkpoint

        from tutto_sim.core.cli import (UserError, err, out,
                                        prepare_file, solve_and_save, solve_output)
        from tutto_sim.macke.win import solve_n as wn
        from tutto_sim.macke.win.solve2 import check_win_rules
        from tutto_sim.macke.win.table import default_win_file_n, write_win_table_n

        try:
            wn.check_players(players)
            check_win_rules(rules, wn.DEFAULT_FLOOR_N)
        except ValueError as e:
            raise UserError(str(e)) from None
        default, digest = default_win_file_n(rules, players)
        path = solve_output(out_path, default)
        prepare_file(path, "--out")
        ck = Checkpoint.open(path.with_suffix(".checkpoint"), wn.checkpoint_key(rules, players),
                             resume, f"the {players}-player win table to {rules.target:,}")
        if resume:
            err.print(f"resuming from {ck.folder}: {ck.summary()}" if ck.parts else
                      f"--resume: nothing saved in {ck.folder} yet; solving from the start")
        sol, path = solve_and_save(lambda phase: wn.solve_macke_win_n(rules, players, phase=phase,
                                                                      checkpoint=ck),
                                   write_win_table_n, path, not as_json, checkpoint=ck)
        summary = {**sol.summary(), "policy_file": str(path), "run_digest": digest}
        traffic = sol.cluster_traffic
        if traffic:  # what went to the workers: the tables once, then what changed
            summary["cluster_traffic"] = traffic
        if as_json:
            print(json.dumps(summary, indent=2))
            return
        err.print(f"win table written to {path.shown}")
        if traffic:
            from tutto_sim.core.cluster import traffic_line

            err.print(traffic_line(traffic))
        seats = ", ".join(f"seat {s} {p:.2%}" for s, p in enumerate(sol.p_wins))
        out.print(f"{self.title(rules)}, {players} players to {rules.target:,} (reaching it, every other "
                  "player throws once more), exact:")
        out.print(f"  all play to win (seat 0 starts): {seats}")
        out.print("  all play for the most points per turn: "
                  + ", ".join(f"seat {s} {p:.2%}" for s, p in enumerate(sol.p_wins_ev)))
        out.print("  one plays to win, the others for points: he wins "
                  + ", ".join(f"{p:.2%} in seat {s}" for s, p in enumerate(sol.win_vs_ev))
                  + f" (a fair share is {1 / players:.2%})")
        out.print(f"  ({sol.states:,} turn-start states, scores held at {sol.floor:,} at the lowest; "
                  f"{sol.seconds:.1f} s, {sol.iterations} sweeps, the last changed no chance by more "
                  f"than {sol.residual:.1e})")

    def web_cases(self, kind: str, path, n: int, seed: int) -> list[dict]:
        """Seeded situations with the Python answers for the JavaScript reader's
        tests (``web.export``): ``kind`` "turn" (the points table) or "win"."""
        from tutto_sim.macke import web_cases as cases

        return (cases.macke_win_cases if kind == "win" else cases.macke_cases)(path, n, seed)

    def advisor_table(self, kind, path) -> tuple:
        """The advisor's view of a Berliner Macke / Volle Lotte file (``kind``
        "win-table" or None), read with its loader (a refusal is one line, exit 2): (page key,
        reader's game, kind, rules, words, rule lines, extra)."""
        from tutto_sim.core.policyfile import load_for_cli
        from tutto_sim.macke import words

        if kind == "win-table":
            from tutto_sim.macke.win.table import load_win_table

            table = load_for_cli(load_win_table, path)
            extra = {"target": table.rules.target, "floor": table.floor, "summary": table.summary}
            reader, what = "macke-win", "win"
        else:
            from tutto_sim.macke.policy import load_macke_policy

            table = load_for_cli(load_macke_policy, path)
            extra = {"summary": table.summary}
            reader, what = "macke", "turn"
        key = "volle-lotte" if table.rules.variant == "volle-lotte" else "macke"
        return (key, reader, what, table.rules.to_dict(), words.rules_words(table.rules),
                words.rules_lines(table.rules), extra)


HOOKS = MackeHooks(ENTRY)

"""What the shared commands and engines ask of Rutsmieter: its ``GameHooks``
(``core.contract``; names are the defaults): the table size, the config, bots, the
tournament's game kind and words, play at the terminal (``rutsmieter.human``),
the exact checks (``solve --solo``, ``solve --duel``) and the weight search
(``optimize``). A hook Rutsmieter does not have (export-policy, ...) makes
the command say so in one line."""

from __future__ import annotations

from tutto_sim.core.contract import GameHooks
from tutto_sim.rutsmieter.entry import ENTRY
from tutto_sim.rutsmieter.rules import PLAYER_CHOICES, table_rules


class RutsmieterHooks(GameHooks):
    HELP = {
        "tournament --games": "expert 360",
        "optimize": "; Rutsmieter's move weights",
        "optimize --games": "Whole-game searches (Rutsmieter): fresh games against each field bot to evaluate the weights found. Default 100,000. With --method td: games of self-play at each table size (default 200,000).",
        "optimize --search-games": "Whole-game searches: games per candidate against each field bot, the same games for every candidate (common random numbers). Default 2,000.",
        "optimize --candidates": "Whole-game searches: weight vectors to try. Default 160.",
        "optimize --method": "Rutsmieter: cross-entropy (the weight search against the field; default) or td (a position's value learned by self-play, at each table size of --players).",
        "optimize --players": "Whole-game searches: table size (Rutsmieter 2, 3 or 4); the field bot takes every other seat. Default 2. With --method td: the table sizes to learn at, as 2,3,4 (the default).",
        "optimize --field": "Whole-game searches: the bots to beat, comma-separated. Default first,aggressive,defensive,random.",
        "solve --solo": "Rutsmieter: one player alone, exact expected throws to bring all pieces home.",
        "solve --duel": "Rutsmieter: two players with one piece each, exact chances to win and expected throws.",
        "analyze seats --players": "; Rutsmieter 2-4",
        "report --games": "28,800 for Rutsmieter",
    }

    SOLVE_OPTIONS = ("solo", "duel")
    MISSING = {"export_policy": "its policy file, the move weights, comes from tutto-sim optimize "
                                "--game rutsmieter (--method td: learned by self-play)"}
    OPTIMIZE_OPTIONS = ("method", "games", "search_games", "candidates", "players", "field", "out_path")
    OPTIMIZE_METHODS = ("cross-entropy", "td")

    #: ``--players`` 2, 3 or 4 (one line otherwise).
    table_rules = staticmethod(table_rules)

    def table_sizes(self, rules) -> tuple[int, ...]:
        return PLAYER_CHOICES

    def default_bot(self, rules) -> str:
        return "tuned"

    def instant_column(self, rules) -> None:
        """Nothing ends a Rutsmieter game at once: the seat analysis has no such column."""
        return None

    def analyze_commands(self) -> list:
        """Rutsmieter's own analyses: ``analyze rules`` and ``analyze pieces``."""
        from tutto_sim.rutsmieter.analysis_cli import analyze_pieces, analyze_rules

        return [("rules", analyze_rules), ("pieces", analyze_pieces)]

    def game_kind(self, config):
        from tutto_sim.core.tournament import GameKind
        from tutto_sim.rutsmieter.game import (
            COUNTS,
            END_KINDS,
            RutsmieterGameKernel,
            play_tournament_game,
        )

        return GameKind("rutsmieter", END_KINDS, play_tournament_game, RutsmieterGameKernel,
                        all_seatings=True, points=False, counts=COUNTS)

    def ends_line(self, res) -> str:
        ends = res.end_counts()
        line = "every seating of each lineup plays"
        if ends.get("cap"):
            line += f"; stopped unfinished at the throw cap: {ends['cap'] / max(res.games, 1):.2%}"
        return line

    def rules_line(self, rules) -> str | None:
        def on(v):
            return "on" if v else "off"

        return (f"must leave the house {on(rules.must_leave_house)}; must capture "
                f"{on(rules.must_capture)}; no jumping in the goal lane {on(rules.goal_no_jump)}; "
                f"play on for the places {on(rules.play_to_third)}")

    def human(self, name, read, write, hints, rules):
        from tutto_sim.rutsmieter.human import Advisor, HumanPlayer

        return HumanPlayer(name, read, write, Advisor(rules), hints)

    def interactive_game(self, players, config, seed, narrate):
        from tutto_sim.rutsmieter.human import InteractiveGame

        return InteractiveGame(players, config, seed, narrate)

    def play_intro(self, rules) -> tuple[str, str]:
        """``play``'s heading (no target: the first home wins) and how to answer."""
        how = "at each choice type its letter; ? shows the expert's advice, q leaves"
        return (f"Rutsmieter, {rules.players} players", how)

    def play_bots(self, rules) -> str:
        """``play``'s opponents unless ``--bots`` says otherwise: the full board."""
        return "tuned,tuned,tuned"

    def tournament_bots(self, rules) -> str:
        """``tournament``'s bots unless ``--bots`` says otherwise: the tuned policy
        against the strongest simple rule, both in the kernel."""
        return "tuned,aggressive"

    def illegal_words(self, rules) -> str:
        return "each time the first legal move was played instead"

    def check_optimize(self, **kw):
        from tutto_sim.rutsmieter.cli import check_optimize as check

        return check(**kw)

    def optimize(self, **kw):
        """``optimize --game rutsmieter``: the search for the weights bot's weights
        (``--method td``: weights learned by self-play)."""
        from tutto_sim.rutsmieter.cli import optimize as rutsmieter_optimize

        return rutsmieter_optimize(**kw)

    def solve(self, **kw):
        from tutto_sim.rutsmieter.cli import solve as rutsmieter_solve

        return rutsmieter_solve(**kw)

    def web_cases(self, kind: str, path, n: int, seed: int) -> list[dict]:
        """Seeded positions with the Python answers for the JavaScript reader's
        tests (``web.export``); Rutsmieter has weights only (``kind`` "turn")."""
        from tutto_sim.rutsmieter.web_cases import rutsmieter_cases

        return rutsmieter_cases(path, n, seed)

    def advisor_table(self, kind, path) -> tuple:
        """The advisor's view of a Rutsmieter weights file, read with
        ``load_for_cli(loader, path)``: (page key, reader's game, kind, rules, words,
        rule lines, extra)."""
        from tutto_sim.core.policyfile import load_for_cli
        from tutto_sim.rutsmieter import words
        from tutto_sim.rutsmieter.policy import load_weights_policy

        pol = load_for_cli(load_weights_policy, path)
        return ("rutsmieter", "rutsmieter", "turn", pol.rules.to_dict(), words.rules_words(pol.rules),
                words.rules_lines(pol.rules), {})


HOOKS = RutsmieterHooks(ENTRY)

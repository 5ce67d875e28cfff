"""What the shared commands and engines ask of Tutti: its ``GameHooks``
(``core.contract``): names for files and players, the table size, the config, bots, the tournament's
game kind and words, and Tutti's own analyses (``analyze lead``, ``exchange``,
``declare``, ``trump``, ``tute``; ``tutti.analysis_cli``), play at the
terminal (``tutti.human``) and the report. A hook Tutti does not have
(optimize, solve, ...) makes the command say so in one line."""

from __future__ import annotations

from tutto_sim.core.contract import GameHooks
from tutto_sim.tutti.entry import ENTRY
from tutto_sim.tutti.rules import PLAYER_CHOICES, table_rules


class TuttiHooks(GameHooks):
    HELP = {
        "tournament --games": ", pimc 1,500, ismcts 1,000, cheat 12,000, openspiel-ismcts 40, openspiel-mcts 80",
        "report --games": ", 21,600 matches for Tutti",
    }
    MISSING = {"export_policy": "no Tutti bot reads a policy file (they play by rule or search "
                                "at the table)"}

    def label(self, rules) -> str:
        """The game's name in file names: ``tutti``, ``tutti-pairs``."""
        return "tutti-pairs" if rules.pairs else "tutti"

    def title(self, rules) -> str:
        return "Tutti in pairs" if rules.pairs else "Tutti"

    def title_of_label(self, label: str) -> str | None:
        return {"tutti": "Tutti", "tutti-pairs": "Tutti in pairs"}.get(label)

    #: ``--players`` 2, 3 or 4; pairs only at 4 (one line otherwise).
    table_rules = staticmethod(table_rules)

    def table_sizes(self, rules) -> tuple[int, ...]:
        """The table sizes Tutti has (``analyze seats`` plays all by default): 4 with
        pairs, 2 with the 2-player rule ``must_answer_trump``."""
        return (4,) if rules.pairs else (2,) if rules.must_answer_trump else PLAYER_CHOICES

    def default_bot(self, rules) -> str:
        return "heuristic"

    def tournament_bots(self, rules) -> str:
        """``tournament``'s bots unless ``--bots`` says otherwise: the two that play
        in the kernel (the search bots take a fifth of a second a match or more,
        too slow for the default 100,000 games)."""
        return "heuristic,random"

    def instant_column(self, rules) -> None:
        """``analyze seats`` has no instant-win column for Tutti (``analyze tute`` has the Tutes)."""
        return None

    def analyze_commands(self) -> list:
        from tutto_sim.tutti import analysis_cli as a

        return [("lead", a.analyze_lead), ("exchange", a.analyze_exchange),
                ("declare", a.analyze_declare), ("trump", a.analyze_trump), ("tute", a.analyze_tute)]

    def game_kind(self, config):
        from tutto_sim.core.tournament import GameKind
        from tutto_sim.tutti.game import (
            COUNTS,
            END_KINDS,
            TuttiGameKernel,
            TuttiSummary,
            play_tournament_game,
        )

        pairs = config.rules.pairs
        return GameKind("tutti", END_KINDS, play_tournament_game, TuttiGameKernel,
                        all_seatings=True, points=False, counts=COUNTS, partners=pairs,
                        sides=2 if pairs else 0, summary=TuttiSummary,
                        ties="a tied hand is replayed; a pair's win counts for both partners"
                        if pairs else "a tied hand is replayed, a match has one winner")

    def ends_line(self, res) -> str:
        ends = res.end_counts()
        games = max(res.games, 1)
        line = "turns are cards played, rounds tricks; every seating of each lineup plays"
        if res.config.rules.pairs:
            line += " (a bot partners every bot, itself included)"
        if ends.get("tute"):
            line += f"; matches won by a Tute at once: {ends['tute'] / games:.2%}"
        if ends.get("cap"):
            line += f"; stopped unfinished at the hands cap: {ends['cap'] / games:.2%}"
        return line

    def rules_line(self, rules) -> str:
        def on(v):
            return "on" if v else "off"

        table = "4 players in pairs, partners opposite" if rules.pairs else f"{rules.players} players"
        line = f"{table}; first to {rules.hands} hand{'s' if rules.hands > 1 else ''} wins the match"
        if rules.players == 2:
            line += f"; must answer a trump lead with a trump {on(rules.must_answer_trump)}"
        tute = f"a Tute wins the {rules.tute_wins}" if rules.allow_tute else "no Tute"
        return f"{line}; {tute}"

    def human(self, name, read, write, hints, rules):
        """The human at ``play --game tutti`` (``tutti.human``), with pimc's advice."""
        from tutto_sim.tutti.human import Advisor, HumanPlayer

        return HumanPlayer(name, read, write, Advisor(), hints)

    def interactive_game(self, players, config, seed, narrate):
        from tutto_sim.tutti.human import InteractiveGame

        return InteractiveGame(players, config, seed, narrate)

    def play_intro(self, rules) -> tuple[str, str]:
        table = "4 players in pairs" if rules.pairs else f"{rules.players} players"
        return (f"Tutti, {table}",
                "at each choice type its number or the card's code (AC = Ace of Cups); "
                "? shows pimc's advice, q leaves")

    def play_bots(self, rules) -> str:
        """``play``'s opponents unless ``--bots`` says otherwise: ``pimc`` in every other seat."""
        return ",".join(["pimc"] * (rules.players - 1))

    def check_report(self, rules) -> None:
        self.report_module().check_rules(rules)

    def illegal_words(self, rules) -> str:
        return "each time the first legal action was played instead"


HOOKS = TuttiHooks(ENTRY)

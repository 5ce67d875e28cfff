"""Tutti's entry in the game registry (``core.registry``): its names, rules
class and rule flags (panel "Tutti rules", docs/tutti.md). Light on purpose:
the hooks (``tutti.hooks``) import what they need.

The table size is not a rule flag: ``--players`` of the command sets it
(hook ``table_rules``), 2, 3 or 4. With ``--pairs on`` the rules are made for
4 players, and a command with another ``--players`` is refused in one line.
"""

from __future__ import annotations

from typing import Annotated

import typer

from tutto_sim.core.cli import UserError
from tutto_sim.core.registry import GameEntry, RuleFlag
from tutto_sim.tutti.rules import HANDS_CHOICES, TUTE_WINS_CHOICES, TuttiRules

#: The bots of ``--bots`` (``tutti.bots`` parses them); here, light, for ``--help``.
BOT_SPECS = ("random", "heuristic", "pimc", "pimc:SAMPLES", "ismcts", "ismcts:ITERATIONS",
             "cheat (sees every card)", "openspiel-ismcts", "openspiel-ismcts:ITERATIONS",
             "openspiel-mcts", "openspiel-mcts:SIMULATIONS (sees every card)", "py:MODULE:NAME")
VALID_BOTS = "valid bots: " + ", ".join(BOT_SPECS)

PANEL = "Tutti rules"
ON_OFF = ("on", "off")

Pairs = Annotated[str, typer.Option("--pairs", help="Tutti: on | off. Four players in two pairs, partners opposite (needs --players 4).", rich_help_panel=PANEL)]
MustAnswerTrump = Annotated[str, typer.Option("--must-answer-trump", help="Tutti: on | off. Two players, stock not empty: a trump led must be answered with a trump.", rich_help_panel=PANEL)]
AllowTute = Annotated[str, typer.Option("--allow-tute", help="Tutti: on | off. Four Kings or four Horses may be declared as a Tute.", rich_help_panel=PANEL)]
TuteWins = Annotated[str, typer.Option("--tute-wins", help="Tutti: match | hand. What a Tute wins.", rich_help_panel=PANEL)]
Hands = Annotated[int, typer.Option("--hands", help="Tutti: hands to win the match, 1..5.", rich_help_panel=PANEL)]

RULE_FLAGS = (
    RuleFlag("pairs", Pairs, "off"),
    RuleFlag("must_answer_trump", MustAnswerTrump, "off"),
    RuleFlag("allow_tute", AllowTute, "on"),
    RuleFlag("tute_wins", TuteWins, "match"),
    RuleFlag("hands", Hands, 1),
)


def tutti_rules(game: str, values: dict) -> TuttiRules:
    """TuttiRules from the flag values; the table size is the default (2, or 4
    with ``--pairs on``) until the command sets it (``hooks.table_rules``)."""
    flags = {}
    for name in ("pairs", "must_answer_trump", "allow_tute"):
        text = str(values[name]).strip().lower()
        if text not in ON_OFF:
            raise UserError(f"--{name.replace('_', '-')} must be on or off, not {values[name]!r}")
        flags[name] = text == "on"
    tute_wins = str(values["tute_wins"]).strip().lower()
    if tute_wins not in TUTE_WINS_CHOICES:
        raise UserError(f"--tute-wins must be one of {', '.join(TUTE_WINS_CHOICES)}, "
                        f"not {values['tute_wins']!r}")
    hands = values["hands"]
    if hands not in HANDS_CHOICES:
        raise UserError(f"--hands must be 1..5 (hands to win the match), not {hands}")
    return TuttiRules(players=4 if flags["pairs"] else 2, tute_wins=tute_wins, hands=hands,
                      **flags)


ENTRY = GameEntry(
    names=("tutti",),
    title="Tutti",
    rules_type=TuttiRules,
    rule_flags=RULE_FLAGS,
    rules_from_flags=tutti_rules,
    hooks_module="tutto_sim.tutti.hooks",
    extra={"sample_report": True},
)

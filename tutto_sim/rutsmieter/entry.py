"""Rutsmieter's entry in the game registry (``core.registry``): its names, rules
class and rule flags (panel "Rutsmieter rules", docs/rutsmieter.md). Light on
purpose: the hooks (``rutsmieter.hooks``) import what they need.

The table size is not a rule flag: ``--players`` of the command sets it
(hook ``table_rules``), 2, 3 or 4.
"""

from __future__ import annotations

from typing import Annotated

import typer

from tutto_sim.core.cli import UserError
from tutto_sim.core.registry import GameEntry, RuleFlag
from tutto_sim.rutsmieter.rules import RutsmieterRules

#: The bots of ``--bots`` (``rutsmieter.bots`` parses them); here, light, for ``--help``.
BOT_SPECS = ("random", "first", "last", "aggressive", "defensive", "tuned", "expert",
             "expert:ROLLOUTS", "weights:FILE", "py:MODULE:NAME")
VALID_BOTS = "valid bots: " + ", ".join(BOT_SPECS)

PANEL = "Rutsmieter rules"
ON_OFF = ("on", "off")

MustLeaveHouse = Annotated[str, typer.Option("--must-leave-house", help="Rutsmieter: on | off. A 6 must bring a piece out; a piece on the own start square moves first while pieces wait in the house.", rich_help_panel=PANEL)]
MustCapture = Annotated[str, typer.Option("--must-capture", help="Rutsmieter: on | off. If a move captures, a capturing move must be made.", rich_help_panel=PANEL)]
GoalNoJump = Annotated[str, typer.Option("--goal-no-jump", help="Rutsmieter: on | off. No jumping over own pieces in (and into) the goal lane.", rich_help_panel=PANEL)]
PlayToThird = Annotated[str, typer.Option("--play-to-third", help="Rutsmieter: on | off. After the first winner the others play on for the places.", rich_help_panel=PANEL)]

RULE_FLAGS = (
    RuleFlag("must_leave_house", MustLeaveHouse, "on"),
    RuleFlag("must_capture", MustCapture, "on"),
    RuleFlag("goal_no_jump", GoalNoJump, "off"),
    RuleFlag("play_to_third", PlayToThird, "off"),
)


def rutsmieter_rules(game: str, values: dict) -> RutsmieterRules:
    """RutsmieterRules from the flag values (``on``/``off``); the table size is
    the default until the command sets it (``hooks.table_rules``)."""
    flags = {}
    for name, value in values.items():
        text = str(value).strip().lower()
        if text not in ON_OFF:
            raise UserError(f"--{name.replace('_', '-')} must be on or off, not {value!r}")
        flags[name] = text == "on"
    return RutsmieterRules(**flags)


ENTRY = GameEntry(
    names=("rutsmieter",),
    title="Rutsmieter",
    rules_type=RutsmieterRules,
    rule_flags=RULE_FLAGS,
    rules_from_flags=rutsmieter_rules,
    hooks_module="tutto_sim.rutsmieter.hooks",
    extra={"sample_report": True},
)

"""Rutsmieter's words on the command line, light for ``--help``: the rule flags'
options (docs/rutsmieter.md: every option with its reason; ``rutsmieter.entry`` lists
them) and the bot specs of ``--bots`` (``rutsmieter.bots`` parses them)."""

from __future__ import annotations

from typing import Annotated

import typer

#: The bots of ``--bots`` (``rutsmieter.bots`` parses them).
BOT_SPECS = ("random", "first", "last", "aggressive", "defensive", "tuned", "td", "expert",
             "expert:ROLLOUTS", "expert@MSms", "weights:FILE", "py:MODULE:NAME")
VALID_BOTS = "valid bots: " + ", ".join(BOT_SPECS)

PANEL = "Rutsmieter rules"

MustLeaveHouse = Annotated[str, typer.Option("--must-leave-house", help="Rutsmieter: on | off. A 6 must bring a piece out; a piece on the own start square moves first while pieces wait in the house.", rich_help_panel=PANEL)]
MustCapture = Annotated[str, typer.Option("--must-capture", help="Rutsmieter: on | off. If a move captures, a capturing move must be made.", rich_help_panel=PANEL)]
GoalNoJump = Annotated[str, typer.Option("--goal-no-jump", help="Rutsmieter: on | off. No jumping over own pieces in (and into) the goal lane.", rich_help_panel=PANEL)]
PlayToThird = Annotated[str, typer.Option("--play-to-third", help="Rutsmieter: on | off. After the first winner the others play on for the places.", rich_help_panel=PANEL)]

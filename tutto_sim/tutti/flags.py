"""Tutti's words on the command line, light for ``--help``: the rule flags'
options (docs/tutti.md: every option with its reason; ``tutti.entry`` lists
them) and the bot specs of ``--bots`` (``tutti.bots`` parses them)."""

from __future__ import annotations

from typing import Annotated

import typer

#: The bots of ``--bots`` (``tutti.bots`` parses them).
BOT_SPECS = ("random", "heuristic", "pimc", "pimc:SAMPLES", "pimc@MSms", "ismcts",
             "ismcts:ITERATIONS", "ismcts@MSms", "expert", "expert:SAMPLES", "expert@MSms",
             "expert-uniform", "expert-points", "expert-heuristic-end", "cheat (sees every card)",
             "openspiel-ismcts", "openspiel-ismcts:ITERATIONS", "openspiel-ismcts@MSms",
             "openspiel-mcts", "openspiel-mcts:SIMULATIONS (sees every card)", "py:MODULE:NAME")
VALID_BOTS = "valid bots: " + ", ".join(BOT_SPECS)

PANEL = "Tutti rules"

Pairs = Annotated[str, typer.Option("--pairs", help="Tutti: on | off. Four players in two pairs, partners opposite (needs --players 4).", rich_help_panel=PANEL)]
MustAnswerTrump = Annotated[str, typer.Option("--must-answer-trump", help="Tutti: on | off. Two players, stock not empty: a trump led must be answered with a trump.", rich_help_panel=PANEL)]
AllowTute = Annotated[str, typer.Option("--allow-tute", help="Tutti: on | off. Four Kings or four Horses may be declared as a Tute.", rich_help_panel=PANEL)]
TuteWins = Annotated[str, typer.Option("--tute-wins", help="Tutti: match | hand. What a Tute wins.", rich_help_panel=PANEL)]
Hands = Annotated[int, typer.Option("--hands", help="Tutti: hands to win the match, 1..5.", rich_help_panel=PANEL)]

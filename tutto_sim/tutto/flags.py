"""Tutto's words on the command line, light for ``--help``: the rule flags'
options (docs/rules.md: every option with its reason; ``tutto.entry`` lists
them) and the bot specs of ``--bots`` (``tutto.bots`` parses them)."""

from __future__ import annotations

from typing import Annotated

import typer

X2Scope = Annotated[str, typer.Option("--x2-scope", help="x2 on a Tutto doubles the whole turn total (turn) or only this card's points (card).", rich_help_panel="Rules")]
PMChain = Annotated[str, typer.Option("--plusminus-chain", help="After a Plus/Minus Tutto: continue | bank | flat.", rich_help_panel="Rules")]
PMDeduction = Annotated[str, typer.Option("--plusminus-deduction", help="Plus/Minus deduction when the turn is banked (bank) or at the Tutto (tutto). Game-level only.", rich_help_panel="Rules")]
Reshuffle = Annotated[str, typer.Option("--reshuffle", help="Empty deck: reshuffle all 56 cards (full) or the discard pile; identical in effect. Game-level only.", rich_help_panel="Rules")]
GameEnd = Annotated[str, typer.Option("--game-end", help="round: finish the round, highest wins | immediate: first to target wins. Game-level only.", rich_help_panel="Rules")]
DeckFlag = Annotated[str, typer.Option("--deck", help="Cards in whole games: real (the 56-card deck, without replacement) | iid (each card drawn independently at the deck frequencies, as the turn analysis assumes). Game-level only.", rich_help_panel="Rules")]
CloverValue = Annotated[int, typer.Option("--cloverleaf-value", help="Turn analysis: points a Kleeblatt success is worth.", rich_help_panel="Rules")]

#: The bots of ``--bots`` (``tutto.bots.parse_bot``).
BOT_SPECS = ("optimal", "winopt[:FILE]", "endgame[:FILE]", "table:FILE", "threshold[:BANK[:AFTER_TUTTO[:KEEP]]]",
             "cautious", "reckless", "random", "py:MODULE:NAME")
VALID_BOTS = "valid bots: " + ", ".join(BOT_SPECS)

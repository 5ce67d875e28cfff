"""Berliner Macke's words on the command line, light for ``--help``: the rule
flags' options (docs/macke.md: every option with its reason; ``macke.entry``
lists them, ``macke.cli`` reuses them) and the bot specs of ``--bots``
(``macke.bots`` parses them)."""

from __future__ import annotations

from typing import Annotated

import typer

Variant = Annotated[str, typer.Option("--variant", help="Macke: standard | instant-win | jackpot | ones-and-fives | volle-lotte.", rich_help_panel="Macke rules")]
MinScore = Annotated[int, typer.Option("--min-score", help="Macke: a turn total below this is subtracted.", rich_help_panel="Macke rules")]
Throws = Annotated[int, typer.Option("--throws", help="Macke: throws per series.", rich_help_panel="Macke rules")]
Bust = Annotated[str, typer.Option("--bust", help="Macke after the first throw: subtract the turn total | zero.", rich_help_panel="Macke rules")]
WinValue = Annotated[int, typer.Option("--win-value", help="Macke instant-win, turn analysis: points an instant win is worth.", rich_help_panel="Macke rules")]

#: The bots of ``--bots`` (``macke.bots.parse_bot``).
BOT_SPECS = ("optimal", "winopt[:FILE]", "endgame[:FILE]", "table:FILE", "threshold[:K[:CLEAR]]", "cautious",
                   "reckless", "random", "py:MODULE:NAME")
VALID_BOTS = "valid bots: " + ", ".join(BOT_SPECS)

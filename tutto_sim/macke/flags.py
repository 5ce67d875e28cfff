"""Berliner Macke's rule flags on the command line (docs/macke.md: every option
with its reason); ``macke.entry`` lists them, ``macke.cli`` reuses them."""

from __future__ import annotations

from typing import Annotated

import typer

Variant = Annotated[str, typer.Option("--variant", help="Macke: standard | instant-win | jackpot | ones-and-fives | volle-lotte.", rich_help_panel="Macke rules")]
MinScore = Annotated[int, typer.Option("--min-score", help="Macke: a turn total below this is subtracted.", rich_help_panel="Macke rules")]
Throws = Annotated[int, typer.Option("--throws", help="Macke: throws per series.", rich_help_panel="Macke rules")]
Bust = Annotated[str, typer.Option("--bust", help="Macke after the first throw: subtract the turn total | zero.", rich_help_panel="Macke rules")]
WinValue = Annotated[int, typer.Option("--win-value", help="Macke instant-win, turn analysis: points an instant win is worth.", rich_help_panel="Macke rules")]

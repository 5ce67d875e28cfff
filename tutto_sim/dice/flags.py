"""Rule flags the dice games share on the command line (docs/rules.md §3)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from tutto_sim.dice.scoring import SIX_OF_KIND_CHOICES

SixOfKind = Annotated[str, typer.Option("--six-of-kind", help=f"Six of a kind: {' | '.join(SIX_OF_KIND_CHOICES)}.", rich_help_panel="Rules")]
Target = Annotated[Optional[int], typer.Option("--target", help="Points to win (multiple of 50; default 6000 for Tutto and Volle Lotte, 5000 for Macke). Game-level only.", rich_help_panel="Rules")]

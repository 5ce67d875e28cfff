"""Checks of the words on report pages, for every game's report tests."""

import re

from matplotlib.table import Table
from matplotlib.text import Text

from tutto_sim.core import report as common

#: Texts a player should never read on a page: the old name of the rules file,
#: code names, command-line flags where words belong.
CODE_NAMES = re.compile(r"RULES\.md|keep_advice|digest|sha256|cli_name|returns_summary|"
                        r"MackeSolution|TuttoRules|MackeRules|K_clear|bust=|--[a-z]")
#: snake_case identifiers (file names such as tournament_tutto_2p_seed3.csv excepted).
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b(?!\.(csv|py))")
#: "1 dice", "1 turns", ...: a count of one with a plural noun.
ONE_PLURAL = re.compile(r"(?<![\d,.])1 (dice|turns|throws|sweeps|exceptions|games|players|"
                        r"groups|points per)\b")
#: A 95% CI that rounds to zero: "± 0.00", "± 0.0%".
ZERO_CI = re.compile(r"± 0\.0+(?!\d*[1-9])")
#: A threshold of 0 that means "always bank".
BANK_AT_ZERO = re.compile(r"bank (at ≥|from|at) 0\b|draw below 0\b")


def record_texts(texts: dict):
    """A patched ``ReportWriter.add`` that also records every text drawn on a page."""
    add = common.ReportWriter.add

    def recording(self, fig, name, title, caption):
        add(self, fig, name, title, caption)  # draws the figure (PNG) first
        found = [t.get_text() for t in fig.findobj(Text)]
        found += [cell.get_text().get_text() for table in fig.findobj(Table)
                  for cell in table.get_celld().values()]
        texts[name or "cover"] = [t for t in found if t]
    return recording

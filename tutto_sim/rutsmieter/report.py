"""The Rutsmieter report: compute (``report_data``), draw (``report_figures``),
write.

:func:`build` writes ``rutsmieter-report.pdf`` (a cover page and one page per
figure), one PNG per figure and a ``README.md`` index with every caption into
``out_dir`` (``core.report.build_report``); docs/reports.md describes the
pages. ``tournament`` adds a page of win rates from a tournament CSV.
``games`` (the report command's ``--games``) is the number of **games per
table**: every tournament and every table size of the report plays that many
games in the kernel. ``players`` (``--players``, default 4) is the table size
the cheat sheet (page 1) teaches: the shipped policy's weight set for it.
:func:`cheat_sheet_png` draws that page alone (the sample's 2-player sheet).
"""

from __future__ import annotations

from pathlib import Path

from tutto_sim.core import report as R
from tutto_sim.core.report import ReportFiles, ReportSize, Tournament

from . import report_figures as figs
from .report_data import CHEAT_SHEET_PLAYERS, PhaseHook, compute
from .rules import PLAYER_CHOICES, RutsmieterRules, table_rules

#: Games per table (each bot tournament, each table size, each rule set of the
#: house-rule analysis): about a minute and a half for the whole report on 2 cores.
SIZE = ReportSize("--games", 28_800, "games per table")


def build(out_dir: Path, rules: RutsmieterRules = RutsmieterRules(), seed: int = 1,
          games: int = SIZE.default, phase: PhaseHook | None = None,
          tournament: Tournament | Path | str | None = None,
          players: int = CHEAT_SHEET_PLAYERS) -> ReportFiles:
    """Compute and write the Rutsmieter report; ``games`` games per table.
    The house rules come from ``rules``; the table sizes are the report's own
    (2, 3 and 4 players), the fingerprints those of ``rules`` at each size.
    ``tournament`` (a CSV of ``tutto-sim tournament --game rutsmieter``) adds
    its page of win rates; one of another game is refused
    (:class:`~tutto_sim.core.report.TournamentFileError`) before anything is computed.
    ``players``: the cheat sheet's table size (2, 3 or 4)."""
    check_players(players)
    extra = {} if players == CHEAT_SHEET_PLAYERS else {"players": players}
    return R.build_report(pages, SIZE, out_dir, table_rules(rules, 4), seed, games, phase,
                          tournament, **extra)


def check_players(players: int) -> None:
    if players not in PLAYER_CHOICES:
        raise ValueError(f"--players must be one of {', '.join(map(str, PLAYER_CHOICES))} "
                         f"(the cheat sheet's table size), not {players}")


def cheat_sheet_png(path: Path, rules: RutsmieterRules = RutsmieterRules(), seed: int = 1,
                    games: int = SIZE.default, players: int = 2) -> Path:
    """The cheat sheet alone for a table of ``players`` (its sample of choices only,
    as the report of the same seed and games draws it) as a PNG at ``path``, with
    its title and caption in the PNG's text chunks like every report page."""
    from types import SimpleNamespace

    from tutto_sim import __version__
    from tutto_sim.core.report import save_png, style

    from .report_data import cheat_sheet_choices

    check_players(players)
    rules = table_rules(rules, 4)
    choices = cheat_sheet_choices(rules, players, games, seed)
    data = SimpleNamespace(rules=rules, seed=seed, games=games, choices=choices,
                           policy=choices.policy, bots={})
    path = Path(path)
    with style():
        sheet = figs.cheat_sheet(data, 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        save_png(sheet.fig, path, {"Software": f"tutto-sim {__version__}",
                                   "Title": sheet.title, "Description": sheet.caption})
    return path


#: The report's numbers (``report_data``) and pages (``report_figures``).
pages = R.figure_report("rutsmieter", compute, figs, SIZE, "games_per_table")


#: The sample's other cheat sheets (``scripts/make_reports.py``): the report is at 4 players.
SAMPLE_SHEETS = (2,)


def sample_extras(out_dir: Path, seed: int, games: int) -> list[Path]:
    """What ``scripts/make_reports.py`` adds to the sample report in ``out_dir``:
    the cheat sheet alone at each of :data:`SAMPLE_SHEETS` players
    (``01-how-to-move-2-players.png``), listed at the end of its README.md."""
    from PIL import Image

    out = []
    index = Path(out_dir) / "README.md"
    text = index.read_text(encoding="utf-8").rstrip("\n") + "\n"
    for n in SAMPLE_SHEETS:
        path = cheat_sheet_png(Path(out_dir) / f"01-how-to-move-{n}-players.png", seed=seed,
                               games=games, players=n)
        with Image.open(path) as im:
            title, caption = im.text["Title"], im.text["Description"]
        text += (f"\n## {title}\n\n![{title}]({path.name})\n\n{caption} (Not in the PDF: "
                 f"page 1 of the same report with --players {n}.)\n")
        out.append(path)
    index.write_text(text, encoding="utf-8")
    return out

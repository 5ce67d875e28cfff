"""The ``tutto-sim`` command (typer): the root app. It mounts the commands every
game shares (``core.commands*``) and each game's own (``GameEntry`` hook
``commands``), nothing else. The games themselves are listed once, in
``tutto_sim/games.py``.
"""

from __future__ import annotations

import typer

import tutto_sim.games  # noqa: F401  (registers every game)
from tutto_sim.core import commands, commands_games, commands_ladder, commands_report, registry
from tutto_sim.core.cli import main as run
from tutto_sim.web.advisor import advisor

HELP = "Strategy analysis for Tutto, Berliner Macke, Volle Lotte, Rutsmieter and Tutti."

app = typer.Typer(add_completion=False, no_args_is_help=True, help=HELP)


@app.callback()
def _root() -> None:
    """Strategy analysis for Tutto, Berliner Macke, Volle Lotte, Rutsmieter and Tutti."""


commands.mount(app)
commands_games.mount_play(app)
commands_ladder.mount(app)
for entry in registry.entries():
    for name, fn in entry.hooks.commands():
        app.command(name)(fn)
commands_report.mount(app)
commands_games.mount_analyze(app)
app.command()(advisor)


def main(argv: list[str] | None = None) -> None:
    """Entry point of ``tutto-sim``: one-line errors, exit codes 0/1/2/130."""
    run(app, argv)


if __name__ == "__main__":
    main()

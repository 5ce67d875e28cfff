"""Saved measurements: a bot's strength measured once at its full budget,
cited by the reports instead of a short run of their own.

A search bot at its own budget (a few hundred deals or a thousand
games played out per decision)
takes minutes to hours for a match whose CI is narrow enough to say how
strong it is; a report cannot play that in its time. So the match is played
once by the command the README and the game's docs quote, its result kept
in ``tutto_sim/data/measured/GAME-BOT-AGAINST.json`` (this format), and the report
reads it and prints the figure with its budget and command. A file is used
only for the rules it was measured under (``rules_sha256`` equals the
report's rules' digest at that table size); under other rules the report
says so.

The file (JSON, UTF-8)::

    {"format": "tutto-sim-measured", "version": 1, "game": "GAME",
     "bot": "BOT", "budget": 200, "against": "AGAINST",
     "players": 2, "rules": {...}, "rules_sha256": "...",
     "unit": "hand", "n": 400, "wins": 281, "ties": 10, "how": "...",
     "seed": 1, "command": "python scripts/bench_tutti_search.py ...",
     "machine": "..."}

``wins + ties / 2`` out of ``n`` is the bot's share (a tie counts one half);
its 95% interval comes from :meth:`core.stats.Estimate.proportion`, so it is
printed as every other win rate is.
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import dataclass
from pathlib import Path

from .bots import DATA_DIR
from .stats import Estimate

FORMAT = "tutto-sim-measured"
VERSION = 1
#: Where the saved measurements live (``tutto_sim/data/measured``, beside the policies).
MEASURED_DIR = DATA_DIR / "measured"


class MeasuredFileError(ValueError):
    """A saved measurement that cannot be read (one line, naming the file)."""


@dataclass(frozen=True)
class Measured:
    """One saved match: ``bot`` (at ``budget``) against ``against``."""

    path: Path
    game: str
    bot: str
    budget: int | None
    against: str
    players: int
    rules_sha256: str
    unit: str  # what n counts: "game", "hand"
    n: int
    wins: int
    ties: int
    seed: int
    command: str
    how: str = ""
    machine: str = ""

    @property
    def share(self) -> float:
        """The bot's share: wins and half the ties, out of n."""
        return (self.wins + self.ties / 2) / self.n

    @property
    def win(self) -> Estimate:
        """The bot's share with its 95% interval (``Estimate.proportion``)."""
        return Estimate.proportion(self.wins + self.ties / 2, self.n)

    @property
    def other(self) -> Estimate:
        """The opponent's share with its 95% interval."""
        return Estimate.proportion(self.n - self.wins - self.ties / 2, self.n)


def _machine() -> str:
    return f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores"


def write_measured(path: Path | str, *, game: str, bot: str, budget: int | None, against: str,
                   rules, unit: str, n: int, wins: int, ties: int, seed: int, command: str,
                   how: str = "") -> Path:
    """Write a saved measurement (module docstring); ``rules`` has ``to_dict``,
    ``digest`` and ``players``. No run time: one taken on a shared machine
    would mislead (the docs quote times with their machine and load)."""
    path = Path(path)
    body = {"format": FORMAT, "version": VERSION, "game": game, "bot": bot, "budget": budget,
            "against": against, "players": rules.players, "rules": rules.to_dict(),
            "rules_sha256": rules.digest(), "unit": unit, "n": int(n), "wins": int(wins),
            "ties": int(ties), "how": how, "seed": seed, "command": command,
            "machine": _machine()}
    from tutto_sim.core.cli import save  # a full disk: saved in the temporary folder, said

    return save(path, lambda tmp: tmp.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8"))


def read_measured(path: Path | str) -> Measured:
    """One saved measurement; :class:`MeasuredFileError` if it is not sound."""
    path = Path(path)
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MeasuredFileError(f"saved measurement {path}: cannot be read ({e})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("version") != VERSION:
        raise MeasuredFileError(f"saved measurement {path}: not a {FORMAT} file of version "
                                f"{VERSION}")
    try:
        m = Measured(path, str(d["game"]), str(d["bot"]), d.get("budget"), str(d["against"]),
                     int(d["players"]), str(d["rules_sha256"]), str(d["unit"]), int(d["n"]),
                     int(d["wins"]), int(d["ties"]), int(d["seed"]), str(d["command"]),
                     str(d.get("how", "")), str(d.get("machine", "")))
    except (KeyError, TypeError, ValueError) as e:
        raise MeasuredFileError(f"saved measurement {path}: missing or bad field {e}") from None
    if not (m.n > 0 and 0 <= m.wins and 0 <= m.ties and m.wins + m.ties <= m.n):
        raise MeasuredFileError(f"saved measurement {path}: wins {m.wins} and ties {m.ties} "
                                f"do not fit in {m.n}")
    return m


def measured(game: str, bot: str, against: str, rules, folder: Path | None = None
             ) -> Measured | None:
    """The saved match of ``bot`` (its name without budget, as "pimc") against
    ``against`` in ``game`` under exactly ``rules`` (its digest), or None."""
    folder = MEASURED_DIR if folder is None else folder
    for path in sorted(folder.glob(f"{game}-*.json")):
        m = read_measured(path)
        if (m.game == game and m.bot.split(":")[0] == bot and m.against == against
                and m.rules_sha256 == rules.digest()):
            return m
    return None

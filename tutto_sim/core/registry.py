"""The games, addressed by name: ``--game NAME`` -> the game's entry.

As OpenSpiel registers games by name and parameters, each game package
describes itself once in a :class:`GameEntry` (its module ``entry.py``): the
names ``--game`` accepts, its rules class and rule flags, and the hooks the
shared commands call (bots, configs, tournaments, optimize, solve, reports,
...). ``tutto_sim/games.py`` lists the entries, one line per game; nothing
else in ``core`` knows which games exist. Adding a game is a new package plus
that one line (docs/architecture.md).

The entry modules are light (rules and flags only); what a hook needs is
imported when the hook runs, so ``tutto-sim --help`` stays fast.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable


class MissingHook(LookupError):
    """A game that does not offer what a command asks of it (one line, exit 2)."""


#: The module that registers every game (imported on first use).
GAMES_MODULE = "tutto_sim.games"


@dataclass(frozen=True)
class RuleFlag:
    """One rule option on the command line: ``--NAME`` (``name`` with dashes)."""

    name: str  # the parameter name, e.g. "x2_scope"
    annotation: Any  # typing.Annotated[type, typer.Option(...)]
    default: Any


@dataclass
class GameEntry:
    """Everything the shared commands need to know about one game.

    ``names``: the values of ``--game`` (the first is the game's own name;
    the others are, say, its variant presets).
    ``rule_flags``: this game's rule options; a flag of another game left at
    its default is ignored, set to anything else it is refused.
    ``rules_from_flags(name, values)``: the rules object (``values`` holds
    every flag of this game). ``hooks_module``: the module whose ``HOOKS``
    (a ``core.contract.GameHooks``) holds the command handlers and game
    functions, imported on first use (:attr:`hooks`).
    """

    names: tuple[str, ...]
    title: str
    rules_type: type
    rule_flags: tuple[RuleFlag, ...]
    rules_from_flags: Callable[[str, dict], Any]
    hooks_module: str
    extra: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.names[0]

    @functools.cached_property
    def hooks(self) -> "GameHooks":  # noqa: F821  (core.contract.GameHooks)
        """The game's hooks (``core.contract``: ``label``, ``config``, ``parse_bot`` ...)."""
        return importlib.import_module(self.hooks_module).HOOKS


_ENTRIES: list[GameEntry] = []


def register(entry: GameEntry) -> GameEntry:
    """Add a game (called by ``tutto_sim/games.py``); names must be new."""
    taken = {n for e in _ENTRIES for n in e.names}
    clash = taken.intersection(entry.names)
    if clash:
        raise ValueError(f"game name(s) already registered: {', '.join(sorted(clash))}")
    _ENTRIES.append(entry)
    return entry


def entries() -> list[GameEntry]:
    if not _ENTRIES:
        importlib.import_module(GAMES_MODULE)
    return list(_ENTRIES)


def game_names() -> tuple[str, ...]:
    """Every value ``--game`` accepts, in registration order."""
    return tuple(n for e in entries() for n in e.names)


def by_name(name: str) -> GameEntry:
    """The entry of ``--game NAME``; ``ValueError`` names the valid choices."""
    key = name.strip().lower()
    for e in entries():
        if key in e.names:
            return e
    raise ValueError(f"unknown game {name!r}; valid: {', '.join(game_names())}")


def for_rules(rules) -> GameEntry:
    """The entry whose rules class ``rules`` is an instance of."""
    for e in entries():
        if isinstance(rules, e.rules_type):
            return e
    raise TypeError(f"no registered game plays {type(rules).__name__}")


def for_config(config) -> GameEntry:
    """The entry of a game config (any object with a ``rules`` attribute)."""
    return for_rules(config.rules)

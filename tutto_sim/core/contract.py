"""The contract between core and a game: :class:`GameHooks`, every hook the
shared commands and engines call, in one place.

A game is a ``GameEntry`` (its ``entry.py``: names, rules class, rule flags;
``core.registry``) and a subclass of :class:`GameHooks` (its ``hooks.py``, one
module-level instance ``HOOKS``). A *required* hook is one core cannot do
without where it is used: the base raises :class:`MissingHook`, one line
"<Title> has no <what> (yet)" (exit 2; the game's ``MISSING`` may say why
instead of "(yet)"), so a game may leave out what it does not have (a game
without policy files has no export-policy). An *optional* hook has its
default here; a game overrides it only to differ. Core calls the hooks object and keeps
no defaults of its own.

Hooks modules stay light (``tutto-sim --help`` reads them): what a hook needs
is imported when it runs.
"""

from __future__ import annotations

import functools
import importlib

from tutto_sim.core.registry import MissingHook

#: The table sizes of a game whose rules do not hold one (hook ``table_sizes``).
DEFAULT_TABLE_SIZES = range(2, 9)


def _missing(hooks: GameHooks, what: str) -> MissingHook:
    why = hooks.MISSING.get(what)
    return MissingHook(f"{hooks.entry.title} has no {what.replace('_', ' ')}"
                       + (f": {why}" if why else " (yet)"))


def required(hook):
    """Mark a hook every game that has the feature writes; the base raises
    :class:`MissingHook`, worded from the hook's name."""
    @functools.wraps(hook)
    def missing(self, *args, **kwargs):
        raise _missing(self, hook.__name__)

    missing.required = True
    return missing


class GameHooks:
    """What core asks of one game (``entry``: its ``GameEntry``): the
    ``@required`` hooks raise :class:`MissingHook` here, the others have their
    defaults here (``config``, ``parse_bot``, ``report_module`` ...: the
    game's modules of the common file set)."""

    #: This game's words in the shared commands' option help, by ``"command --option"``
    #: (and in core's one-line messages, e.g. ``"win tables"``: the games that have them):
    #: each game's, in registration order, between core's own (``core.commands_games.game_help``).
    HELP: dict[str, str] = {}
    #: Options of the shared ``optimize`` command this game takes (``core.commands``).
    OPTIMIZE_OPTIONS: tuple[str, ...] = ()
    #: The choices of ``optimize --method`` where the game takes it, the default first.
    OPTIMIZE_METHODS: tuple[str, ...] = ("monte-carlo", "exact")
    #: Options of the shared ``solve`` command this game takes (``--solo``, ``--duel``).
    SOLVE_OPTIONS: tuple[str, ...] = ()
    #: Why the game has no required hook, by the hook's name, said instead of "(yet)"
    #: (e.g. where its policy file comes from instead of ``export-policy``).
    MISSING: dict[str, str] = {}

    def __init__(self, entry):
        self.entry = entry

    def offers(self, what: str) -> bool:
        """Whether the game has hook ``what`` (an optional hook: always)."""
        return not getattr(getattr(type(self), what), "required", False)

    def require(self, what: str) -> None:
        """:class:`MissingHook` unless the game has hook ``what``."""
        if not self.offers(what):
            raise _missing(self, what)

    def game_module(self, name: str):
        """The game's module ``name`` (every game has the same file set:
        ``game``, ``bots``, ``report``, ``words`` ...), imported when asked."""
        return importlib.import_module(f"{self.entry.hooks_module.rpartition('.')[0]}.{name}")

    def label(self, rules) -> str:
        """The game's name in file names (a variant may have its own); default: its first name."""
        return self.entry.name

    def title(self, rules) -> str:
        """The game's name for players; default: the entry's title."""
        return self.entry.title

    def title_of_label(self, label: str) -> str | None:
        """The title of a ``label`` of this game, None for another game's label."""
        return self.entry.title if label == self.entry.name else None

    def variant_words(self, variant: str) -> str:
        """A rules variant in the players' words; default: as it is."""
        return variant

    def table_rules(self, rules, players: int):
        """The rules for a table of ``--players``; default: 2..8 players, the
        rules unchanged (a game whose rules hold the table size sets it)."""
        if players not in DEFAULT_TABLE_SIZES:
            from tutto_sim.core.cli import UserError

            raise UserError(f"--players must be 2..8, not {players}")
        return rules

    def table_sizes(self, rules):
        """The table sizes the game has (``analyze seats`` plays all by default)."""
        return DEFAULT_TABLE_SIZES

    def config(self, rules):
        """The game's config for ``rules``: ``game.GameConfig(rules)``."""
        return self.game_module("game").GameConfig(rules)

    def parse_bot(self, spec: str, rules):
        """One bot from its ``--bots`` spec: ``bots.parse_bot`` (``core.bots.BotSpecError``
        if there is none)."""
        return self.game_module("bots").parse_bot(spec, rules)

    def valid_bots(self, rules) -> str:
        """The one line ``valid bots: ...``: ``flags.VALID_BOTS`` (light, for ``--help``)."""
        return self.game_module("flags").VALID_BOTS

    def tournament_bots(self, rules) -> str:
        """``tournament``'s bots unless ``--bots`` says otherwise."""
        return "optimal,cautious"

    def play_bots(self, rules) -> str:
        """``play``'s opponents unless ``--bots`` says otherwise."""
        return "optimal"

    def default_bot(self, rules) -> str:
        """``analyze seats``' bot unless ``--bot`` says otherwise."""
        return "optimal"

    @required
    def game_kind(self, config):
        """The tournament's ``core.tournament.GameKind`` of ``config``."""

    @required
    def ends_line(self, res) -> str:
        """How a tournament's games ended, in the game's words."""

    def rules_line(self, rules) -> str | None:
        """A line on the rules in play above a tournament's table (None: nothing to add)."""
        return None

    def illegal_words(self, rules) -> str:
        """What the game does with a ``py:`` bot's illegal action (the tournament's warning)."""
        return "each counted as a bust"

    @required
    def instant_column(self, rules):
        """``analyze seats``: (column header, JSON key, shown) of games ended at once, or None."""

    def analyze_commands(self) -> list:
        """The game's own analyses under ``analyze``: ``(name, function)`` pairs."""
        return []

    def commands(self) -> list:
        """Commands of this game alone on the root app: ``(name, function)`` pairs."""
        return []

    @required
    def human(self, name, read, write, hints, rules):
        """The human at ``play`` (a game with win tables takes ``win_table=None`` too)."""

    @required
    def interactive_game(self, players, config, seed, narrate):
        """The game ``play`` runs (its ``play()`` returns the record; its
        ``standing()`` says the score so far in the game's words, for a game
        the human leaves: ``q``, end of input or Ctrl-C)."""

    def play_intro(self, rules) -> tuple[str, str]:
        """``play``'s heading and how to answer; default: the dice games'."""
        return (f"{self.title(rules)} to {rules.target:,}",
                "at each choice type its number; ? shows the optimal table's advice, q leaves")

    @required
    def exact_turn_values(self, rules, thresholds) -> dict[str, float]:
        """Exact points per turn of ``optimal`` and each ``threshold:X``."""

    @required
    def threshold_words(self) -> str:
        """How ``threshold:X`` plays, for the optimal-vs-threshold analysis."""

    def check_optimize(self, **kw) -> None:
        """One line for ``optimize`` options that do not fit, before any work; default: none."""

    @required
    def optimize(self, **kw):
        """``optimize``: ``rules, seed, as_json, out_dir, n_threads`` and the
        options in :attr:`OPTIMIZE_OPTIONS`."""

    @required
    def solve(self, **kw):
        """``solve``: ``rules, as_json, cap`` and the options in :attr:`SOLVE_OPTIONS`."""

    @required
    def solve_win(self, rules, as_json: bool, out_path, players: int | None = None) -> None:
        """``solve --objective win``: the win table for ``players`` (None: the game's
        default table size), written as a policy file."""

    @required
    def export_policy(self, **kw):
        """``export-policy``: ``rules, out_path, fmt``."""

    @required
    def validate(self, **kw):
        """``validate``: ``rules, turns, seed, policy_file, as_json``."""

    def report_module(self):
        """The module that builds the report (``build`` and its ``SIZE``): ``report``."""
        return self.game_module("report")

    def check_report(self, rules) -> None:
        """One line for rules the report cannot take; default: it takes all."""

    def words(self):
        """The module with the rules in the players' words: ``words``."""
        return self.game_module("words")

    @required
    def web_cases(self, kind: str, path, n: int, seed: int) -> list[dict]:
        """Seeded situations with the Python answers, for the JavaScript reader's tests."""

    @required
    def advisor_table(self, kind, path) -> tuple:
        """The advisor's view of a policy file of this game."""

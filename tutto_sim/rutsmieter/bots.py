"""Rutsmieter bots on the command line (``--bots a,b,...``, as for the dice games).

A parsed bot has a ``name`` and ``engine``, the reference engine's
:class:`~tutto_sim.rutsmieter.reference.Bot`. The built-in bots (``random``,
``first``, ``last``, ``aggressive``, ``defensive``; docs/rutsmieter.md) also
play in the numba kernel: their ``table()`` is the kernel's bot id, so a
tournament of built-in bots runs in the kernel (``core.tournament``).
``weights:FILE`` (the linear move evaluator of ``rutsmieter.policy``) and
``tuned`` (the same with the shipped tuned weights,
``tutto_sim/data/policies/rutsmieter-default.json``) play in both too: its ``table()`` is its weights, a row of the kernel's weights table.
``td`` is the same with the weights learned by self-play (``rutsmieter.td``,
``tutto_sim/data/policies/rutsmieter-td.json``), the weight set of the table's size.
``expert`` / ``expert:ROLLOUTS`` (``rutsmieter.expert``) plays in both: its
``table()`` is an ``expert.ExpertTable`` (budget and rollout weights), a row
of the kernel's experts table. ``expert@MS`` (e.g. ``expert@50ms``) rolls
out for that long a decision instead: it reads the clock, which the kernel
cannot, so it plays in the reference engine only (its rollouts still in the
kernel), and a run with it is not reproducible.

``py:MODULE:NAME`` / ``py:FILE.py:NAME`` is ``NAME()`` from a Python module or
file: an object with ``act(obs)``, which gets the reference engine's
:class:`~tutto_sim.rutsmieter.reference.Observation` at every throw that
leaves a move (also a single one) and returns the index of its move in
``obs.moves`` (or the :class:`~tutto_sim.rutsmieter.reference.Move` itself).
It plays in the reference engine only. Anything else it returns, or an
exception it raises, is an **illegal move**: reported (:func:`engine_of`),
and the first legal move is played instead.
"""

from __future__ import annotations

import operator
import re
from typing import Callable

from tutto_sim.core.api import checked_act
from tutto_sim.core.bots import BotSpecError, file_error, python_bot

from .flags import BOT_SPECS, VALID_BOTS
from .reference import BOT_NAMES, BOTS, Bot, Observation

assert BOT_SPECS[:len(BOT_NAMES)] == BOT_NAMES


class KernelBot:
    """A built-in bot: plays in the reference engine and in the kernel."""

    def __init__(self, name: str):
        self.name = name
        self.engine: Bot = BOTS[name]
        self.kernel_id = BOT_NAMES.index(name)

    def table(self) -> int:
        """The kernel's bot id (``kernel.BOT_*``)."""
        return self.kernel_id


class WeightsBot:
    """``weights:FILE``: the linear move evaluator, in both engines."""

    def __init__(self, name: str, policy):
        self.name = name
        self.policy = policy
        self.engine: Bot = policy.bot(name)

    def table(self) -> tuple[float, ...]:
        """The weights, in the order of ``policy.FEATURES`` (the kernel's row)."""
        return self.policy.weights


class ExpertBot:
    """``expert`` / ``expert:ROLLOUTS`` (``rutsmieter.expert``): rollouts with the
    tuned policy, in both engines (the kernel's ``BOT_EXPERT`` ids)."""

    def __init__(self, name: str, rules, rollouts: int):
        from tutto_sim.core.bots import budget_games

        from .expert import DEFAULT_ROLLOUTS, expert_bot, tuned_policy

        self.name = name
        self.rollouts = rollouts
        # without --games, about two minutes' worth (core.bots.default_games; one core of a
        # the idle 2-core machine against tuned on 2026-12-02: 3.1 games per second at 1,000 rollouts)
        self.tournament_games = budget_games(360, DEFAULT_ROLLOUTS, rollouts)
        self.weights = tuned_policy(rules).weights
        self.engine: Bot = expert_bot(rules, rollouts, name)

    def table(self):
        """The kernel's expert: its budget and rollout weights (``expert.ExpertTable``)."""
        from .expert import ExpertTable

        return ExpertTable(self.rollouts, self.weights)


class TimedExpertBot:
    """``expert@MS``: the expert by the clock (``expert.decide_timed``), in
    the reference engine only (no ``table``)."""

    def __init__(self, rules, budget_ms: float):
        from tutto_sim.core.bots import budget_games

        from .expert import DEFAULT_ROLLOUTS, expert_bot

        self.name = f"expert@{budget_ms:g}ms"
        self.budget_ms = budget_ms
        # about two minutes' worth, as ExpertBot's, at MS_AT_DEFAULT ms a decision at the default
        self.tournament_games = budget_games(360, MS_AT_DEFAULT, budget_ms)
        self.engine: Bot = expert_bot(rules, DEFAULT_ROLLOUTS, self.name, budget_ms=budget_ms)


#: About the milliseconds of a decision of ``expert`` with two or more moves (one
#: core of the idle 2-core machine, 2 players, 2026-12-03): scales a timed expert's games.
MS_AT_DEFAULT = 10


def _expert(spec: str, arg: str | None, rules):
    from tutto_sim.core.bots import split_time_budget
    from tutto_sim.core.policyfile import PolicyFileError

    from .expert import DEFAULT_ROLLOUTS, MAX_ROLLOUTS

    base, ms = split_time_budget(spec, VALID_BOTS)
    if ms is not None:
        if base != "expert":
            raise BotSpecError(f"bot {spec!r}: expert takes rollouts or a time, as "
                               f"expert:{DEFAULT_ROLLOUTS} or expert@50ms; {VALID_BOTS}")
        try:
            return TimedExpertBot(rules, ms)
        except PolicyFileError as e:
            raise file_error(spec, e) from None
    rollouts, name = DEFAULT_ROLLOUTS, "expert"
    if arg is not None:
        if not (re.fullmatch(r"[0-9]{1,9}", arg.strip()) and 1 <= int(arg) <= MAX_ROLLOUTS):
            raise BotSpecError(f"bot {spec!r}: the rollouts per move must be a whole number "
                               f"1..{MAX_ROLLOUTS:,}, as expert:{DEFAULT_ROLLOUTS}; {VALID_BOTS}")
        rollouts = int(arg)
        name = f"expert:{rollouts}"
    try:
        return ExpertBot(name, rules, rollouts)
    except PolicyFileError as e:
        raise file_error(spec, e) from None


def parse_bot(spec: str, rules):
    """A Rutsmieter bot from its spec; :class:`BotSpecError` (one line, naming
    the valid bots) if there is no such bot or its policy file is unsound."""
    key = spec.strip().lower()
    if key in BOT_NAMES:
        return KernelBot(key)
    if key == "tuned":
        from tutto_sim.core.policyfile import PolicyFileError

        from .policy import default_policy

        try:
            return WeightsBot("tuned", default_policy(rules))
        except PolicyFileError as e:
            raise file_error("tuned", e) from None
    if key == "td":
        from tutto_sim.core.bots import POLICY_DIR
        from tutto_sim.core.policyfile import PolicyFileError

        from .policy import TD_FILE, load_weights_policy

        try:  # as tuned: made for the default house rules, played under any (the
            # features mean the same under every option)
            return WeightsBot("td", load_weights_policy(POLICY_DIR / TD_FILE).at(rules))
        except PolicyFileError as e:
            raise file_error("td", e) from None
    kind, sep, arg = spec.strip().partition(":")
    if kind.lower().partition("@")[0] == "expert":
        return _expert(spec.strip().lower(), arg if sep else None, rules)
    if kind.lower() == "py":
        return python_bot(spec.strip(), arg, VALID_BOTS)
    if kind.lower() == "weights":
        from tutto_sim.core.policyfile import PolicyFileError

        from .policy import load_weights_policy, weights_file

        if not arg:
            raise BotSpecError(f"bot {spec.strip()!r}: weights needs a policy file, weights:FILE; "
                               f"{VALID_BOTS}")
        try:
            policy = load_weights_policy(weights_file(arg), rules)
        except PolicyFileError as e:
            raise file_error(spec.strip(), e) from None
        name = spec.strip()
        return WeightsBot(name, policy)
    raise BotSpecError(f"unknown Rutsmieter bot {spec.strip()!r}; {VALID_BOTS}")


def move_index(obs: Observation, answer) -> int | None:
    """The index in ``obs.moves`` a bot's answer names: an integer index, or a
    move of ``obs.moves``; None if it names none."""
    if isinstance(answer, tuple):
        return obs.moves.index(answer) if answer in obs.moves else None
    if isinstance(answer, bool):
        return None
    try:
        i = operator.index(answer)
    except TypeError:
        return None
    return i if 0 <= i < len(obs.moves) else None


def engine_of(bot, report: Callable[[str], None] | None = None) -> Bot:
    """The reference engine's bot for a parsed bot: a built-in bot's own
    ``engine``; for a ``py:`` bot its ``act(obs)``, checked. An illegal answer
    (or an exception) is passed to ``report`` as one line naming the bot, and
    the first legal move is played."""
    engine = getattr(bot, "engine", None)
    if engine is not None:
        return engine

    def choose(obs: Observation) -> int:
        i, problem = checked_act(bot, obs, lambda answer: move_index(obs, answer), lambda answer: (
            f"move {answer!r} (legal: an index 0..{len(obs.moves) - 1} of obs.moves or one of its moves)"))
        if problem is None:
            return i
        if report is not None:
            report(f"{problem} at a throw of {obs.die}")
        return 0

    return Bot(bot.name, choose)

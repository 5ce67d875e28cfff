"""Rutsmieter bots on the command line (``--bots a,b,...``, as for the dice games).

A parsed bot has a ``name`` and ``engine``, the reference engine's
:class:`~tutto_sim.rutsmieter.reference.Bot`. The built-in bots (``random``,
``first``, ``last``, ``aggressive``, ``defensive``; docs/rutsmieter.md) also
play in the numba kernel: their ``table()`` is the kernel's bot id, so a
tournament of built-in bots runs in the kernel (``core.tournament``).
``weights:FILE`` (the linear move evaluator of ``rutsmieter.policy``) and
``tuned`` (the same with the shipped tuned weights,
``data/policies/rutsmieter-default.json``) play in both too: its ``table()`` is its weights, a row of the kernel's weights table.
"""

from __future__ import annotations

from tutto_sim.core.bots import BotSpecError

from .reference import BOT_NAMES, BOTS, Bot

#: The bot specs ``--bots`` accepts, for the one-line errors.
SPECS = (*BOT_NAMES, "tuned", "weights:FILE")
VALID_BOTS = "valid bots: " + ", ".join(SPECS)


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


def parse_rutsmieter_bot(spec: str, rules):
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
            raise BotSpecError(f"bot 'tuned': {e}; {VALID_BOTS}") from None
    kind, sep, arg = spec.strip().partition(":")
    if kind.lower() == "weights":
        from tutto_sim.core.policyfile import PolicyFileError

        from .policy import load_weights_policy

        if not arg:
            raise BotSpecError(f"bot {spec.strip()!r}: weights needs a policy file, weights:FILE; "
                               f"{VALID_BOTS}")
        try:
            policy = load_weights_policy(arg, rules)
        except PolicyFileError as e:
            raise BotSpecError(f"bot {spec.strip()!r}: {e}; {VALID_BOTS}") from None
        name = spec.strip()
        return WeightsBot(name, policy)
    raise BotSpecError(f"unknown Rutsmieter bot {spec.strip()!r}; {VALID_BOTS}")

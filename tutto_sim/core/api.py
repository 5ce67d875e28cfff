"""The bot protocol every game shares: a bot has a ``name`` and ``act(decision)``.

A game hands its bot a decision (the game's own decision class) with a tuple
``legal`` of the actions allowed; :func:`ask` checks the answer, so a bot that
answers with anything else, or crashes, is reported by name as an
:class:`IllegalAction` and the game goes on. Game-independent.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """A player: ``act`` returns one element of ``decision.legal``."""

    name: str

    def act(self, decision) -> object: ...


class IllegalAction(Exception):
    """A bot answered with something not in ``decision.legal`` (or raised).

    The message names the bot; games count it as a bust and go on.
    """


def ask(bot: Bot, decision):
    """``bot.act(decision)``, checked: raise :class:`IllegalAction` unless legal."""
    try:
        action = bot.act(decision)
    except Exception as e:  # a crashing bot must not crash the tournament
        raise IllegalAction(
            f"bot {bot.name} raised {type(e).__name__}: {e} (at a {decision.kind} decision)"
        ) from None
    if action not in decision.legal:
        legal = ", ".join(str(a) for a in decision.legal[:8])
        more = ", ..." if len(decision.legal) > 8 else ""
        raise IllegalAction(
            f"bot {bot.name} returned an illegal action {action!r} at a {decision.kind} "
            f"decision (legal: {legal}{more})"
        )
    return action

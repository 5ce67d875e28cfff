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


def checked_act(bot: Bot, decision, legal, illegal, raised: str = ""):
    """``bot.act(decision)``, checked: ``(legal(answer), None)`` when that is
    not None (the answer, or what it stands for, was legal), else ``(None,
    problem)``, one line naming the bot: the exception it raised (then
    ``raised``) or ``returned an illegal`` and ``illegal(answer)``."""
    try:
        answer = bot.act(decision)
    except Exception as e:  # a crashing bot must not crash the tournament
        return None, f"bot {bot.name} raised {type(e).__name__}: {e}{raised}"
    choice = legal(answer)
    if choice is None:
        return None, f"bot {bot.name} returned an illegal {illegal(answer)}"
    return choice, None


def ask(bot: Bot, decision):
    """``bot.act(decision)``, checked: raise :class:`IllegalAction` unless legal."""
    def illegal(action) -> str:
        legal = ", ".join(str(a) for a in decision.legal[:8])
        more = ", ..." if len(decision.legal) > 8 else ""
        return f"action {action!r} at a {decision.kind} decision (legal: {legal}{more})"

    action, problem = checked_act(bot, decision, lambda a: a if a in decision.legal else None,
                                  illegal, f" (at a {decision.kind} decision)")
    if problem is not None:
        raise IllegalAction(problem)
    return action

"""The bot protocol every game shares: a bot has a ``name`` and ``act(decision)``.

A game hands its bot a decision (the game's own decision class) with a tuple
``legal`` of the actions allowed; :func:`ask` checks the answer, so a bot that
answers with anything else, or crashes, is reported by name as an
:class:`IllegalAction` and the game goes on. Game-independent.

**Time per decision.** Inside :func:`timing` (a context manager that
installs a :class:`DecisionTimes` for the current thread), :func:`checked_act`
times every ``bot.act`` and adds it to the bot's histogram, keyed by the
bot's name; an engine that asks its bots in another way times the call
with :func:`timed`. Outside, the cost is one look-up of a thread-local
attribute per decision. A decision asked inside another (a wrapper that
checks a bot it wraps) counts once, at the outermost call. The histogram
has :data:`TIME_BINS_PER_DECADE` log-spaced bins per power of ten from
:data:`TIME_LOW` seconds up, so histograms of threads, worker processes and
cluster tasks add up exactly, and a quantile read from them is within one
bin (about 12%) of the true one.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from typing import Callable, Iterator, Protocol, runtime_checkable


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
        answer = timed(bot.name, bot.act, decision)
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


#: The time histogram's bins: this many per power of ten, from ``TIME_LOW``
#: seconds (below it: the first bin) over ``TIME_DECADES`` decades (above: the last).
TIME_BINS_PER_DECADE = 20
TIME_LOW = 1e-6
TIME_DECADES = 9
TIME_BINS = TIME_BINS_PER_DECADE * TIME_DECADES


class DecisionTimes:
    """Histograms of the time per decision, one per bot name: ``counts[name]``
    holds :data:`TIME_BINS` integer counts, bin ``k`` the times in
    ``[TIME_LOW·10^(k/TIME_BINS_PER_DECADE), TIME_LOW·10^((k+1)/...)``. Merging
    adds counts, so the result does not depend on how the work was split."""

    def __init__(self, counts: dict[str, list[int]] | None = None):
        self.counts: dict[str, list[int]] = {k: list(v) for k, v in (counts or {}).items()}
        self.depth = 0  # decisions being asked right now (a wrapped bot counts once)

    def add(self, name: str, seconds: float) -> None:
        row = self.counts.get(name)
        if row is None:
            row = self.counts[name] = [0] * TIME_BINS
        k = (int((math.log10(seconds) - math.log10(TIME_LOW)) * TIME_BINS_PER_DECADE)
             if seconds > TIME_LOW else 0)
        row[min(max(k, 0), TIME_BINS - 1)] += 1

    def merge(self, other: "DecisionTimes | None") -> None:
        for name, row in (other.counts if other is not None else {}).items():
            mine = self.counts.setdefault(name, [0] * TIME_BINS)
            for k, c in enumerate(row):
                mine[k] += c

    def decisions(self, name: str) -> int:
        return sum(self.counts.get(name, ()))

    def quantile_ms(self, name: str, q: float) -> float | None:
        """The ``q`` quantile of the bot's time per decision in milliseconds,
        read from the histogram (log-interpolated inside its bin); None
        without decisions."""
        row = self.counts.get(name)
        total = sum(row) if row else 0
        if not total:
            return None
        want, seen = q * total, 0
        for k, c in enumerate(row):
            if c and seen + c >= want:
                where = (k + (want - seen) / c) / TIME_BINS_PER_DECADE
                return TIME_LOW * 10 ** where * 1000
            seen += c
        return TIME_LOW * 10 ** TIME_DECADES * 1000


_local = threading.local()


@contextlib.contextmanager
def timing() -> Iterator[DecisionTimes]:
    """Time every decision asked in this thread inside the block (module
    docstring); yields the histograms. Blocks nest: the inner one records."""
    before = getattr(_local, "times", None)
    _local.times = times = DecisionTimes()
    try:
        yield times
    finally:
        _local.times = before


def timed(name: str, act: Callable, decision):
    """``act(decision)``, its time added to bot ``name``'s histogram inside
    :func:`timing` (the outermost of nested calls counts)."""
    times = getattr(_local, "times", None)
    if times is None or times.depth:
        return act(decision)
    times.depth += 1
    t0 = time.perf_counter()
    try:
        return act(decision)
    finally:
        times.add(name, time.perf_counter() - t0)
        times.depth -= 1

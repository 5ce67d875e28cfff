"""Tutti's built-in bots: each sees only its seat's :class:`Observation`.

A bot has a ``name`` and ``act(observation)``, which returns one element of
``observation.legal`` (the core bot protocol, ``tutto_sim.core.api``).

- ``random``: uniform among the legal actions (exchanges, declarations,
  passes and cards alike), from the seat's own stream: seat ``p`` in hand
  ``i`` of a run with seed ``s`` draws ``below(len(legal))`` from stream
  ``(stream_start(s, i), p + 1)``, only when there are two or more actions.
- ``heuristic``: rules of thumb, in this order:

  1. exchange whenever allowed (the 7 for a high card, the 2 for a low one);
  2. declare a Tute whenever allowed, else a 40, else a 20 (lowest suit);
     a partner with nothing to declare passes;
  3. leading: the cheapest card that is neither a trump nor part of an
     undeclared King + Horse pair (fewest points, then the weakest); failing
     that the cheapest non-trump, failing that the weakest trump;
  4. following, when the partner (``pairs``) is winning the trick: discard;
  5. following: win with the cheapest non-trump card that wins, if any;
  6. else trump (with the weakest trump that wins) only when the trick holds
     10 points or more (an Ace or a Three), or when only trumps are legal:
     trumps are kept for Aces and Threes;
  7. else discard: the cheapest legal card, non-trumps and cards outside an
     undeclared pair first (fewest points, then the weakest).

  ``heuristic`` is deterministic: the same observation gives the same action.

The search bots (their modules say how they decide; docs/tutti.md their
strength and speed):

- ``pimc`` / ``pimc:SAMPLES`` (``tutti.pimc``): deals the unseen cards
  ``SAMPLES`` times (default 200) consistently with its observation and
  plays the action with the best average over the deals searched face up;
- ``ismcts`` / ``ismcts:ITERATIONS`` (``tutti.ismcts``): information-set
  Monte Carlo tree search, ``ITERATIONS`` deals and playouts (default 300);
- ``cheat`` (``tutti.pimc``): the search of ``pimc`` on the true cards. It
  is the only bot the engine shows the hidden cards (``sees_state``), a
  cheating reference, always named so.

They decide from the observation alone (``cheat`` excepted), drawing their
random numbers from a stream seeded by the observation's hash: the same
observation gives the same action. They play in the reference engine only.

OpenSpiel's search bots (``tutti.openspiel_bots``, with the optional
``open_spiel``): ``openspiel-ismcts`` / ``openspiel-ismcts:ITERATIONS``
(its ISMCTS from the observation) and ``openspiel-mcts`` /
``openspiel-mcts:SIMULATIONS`` (its MCTS on the true state, shown as
``openspiel-mcts(cheat)``); seeded from the run's seed and the seat.

>>> [parse_bot(s, None).name for s in ("pimc:50", "ISMCTS", "cheat")]
['pimc:50', 'ismcts', 'cheat']
>>> parse_bot("pimc:0", None)
Traceback (most recent call last):
...
tutto_sim.core.bots.BotSpecError: bot 'pimc:0': the deals per decision must be a whole number 1..10,000, as pimc:200; valid bots: random, heuristic, pimc, pimc:SAMPLES, pimc@MSms, ismcts, ismcts:ITERATIONS, ismcts@MSms, expert, expert:SAMPLES, expert@MSms, expert-uniform, expert-points, expert-heuristic-end, cheat (sees every card), openspiel-ismcts, openspiel-ismcts:ITERATIONS, openspiel-ismcts@MSms, openspiel-mcts, openspiel-mcts:SIMULATIONS (sees every card), py:MODULE:NAME
>>> parse_bot("openspiel-mcts", None).name
'openspiel-mcts(cheat)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tutto_sim.core.bots import BotSpecError
from tutto_sim.core.rng import Stream, stream_start

from . import openspiel_bots
from .cards import HORSE, KING, N_SUITS, POINTS, bit, card, rank, suit
from .flags import BOT_SPECS, VALID_BOTS
from .reference import BOT_NAMES, Observation, Pass, Play, beats


@dataclass
class RandomBot:
    """Uniform among the legal actions, from its own stream (module docstring)."""

    stream: Stream
    name: str = field(default="random")

    def act(self, obs: Observation):
        if len(obs.legal) < 2:
            return obs.legal[0]
        return obs.legal[self.stream.below(len(obs.legal))]


def _pair_cards(obs: Observation) -> int:
    """The Kings and Horses of undeclared pairs in the hand (kept while declaring is possible)."""
    if obs.rules.players == 2 and obs.stock_size <= 2:
        return 0  # no declaration after the last draw
    declared = {d.suit for d in obs.declarations}
    keep = 0
    for s in range(N_SUITS):
        both = bit(card(s, KING)) | bit(card(s, HORSE))
        if s not in declared and obs.hand & both == both:
            keep |= both
    return keep


def _cheap(c: int, trump: int, keep: int) -> tuple:
    """Discard order: non-trumps, outside a kept pair, fewest points, weakest."""
    return (suit(c) == trump, bool(keep >> c & 1), POINTS[c], -rank(c))


class HeuristicBot:
    """The rules of thumb of the module docstring."""

    name = "heuristic"

    def act(self, obs: Observation):
        legal = obs.legal
        for kind in ("exchange", "tute"):
            found = [a for a in legal if a.kind == kind]
            if found:
                return found[0]
        declares = [a for a in legal if a.kind == "declare"]
        if declares:
            return next((a for a in declares if a.suit == obs.trump_suit), declares[0])
        if Pass() in legal:
            return Pass()
        cards = [a.card for a in legal if a.kind == "play"]
        trump = obs.trump_suit
        keep = _pair_cards(obs)
        if not obs.trick:
            return Play(min(cards, key=lambda c: _cheap(c, trump, keep)))
        best_seat, best = obs.trick[0]
        for seat, c in obs.trick[1:]:
            if beats(c, best, trump):
                best_seat, best = seat, c
        discard = min(cards, key=lambda c: _cheap(c, trump, keep))
        if obs.rules.pairs and obs.rules.side(best_seat) == obs.rules.side(obs.seat):
            return Play(discard)
        winners = [c for c in cards if beats(c, best, trump)]
        plain = [c for c in winners if suit(c) != trump]
        if plain:
            return Play(min(plain, key=lambda c: (POINTS[c], -rank(c))))
        on_table = sum(POINTS[c] for _, c in obs.trick)
        if winners and (on_table >= 10 or all(suit(c) == trump for c in cards)):
            return Play(max(winners, key=rank))
        return Play(discard)


def make_bot(name: str, seat: int, seed: int, index: int):
    """The bot ``name`` for ``seat`` in hand ``index`` of a run with ``seed``
    (a search or OpenSpiel bot's spec too: :func:`search_bot`, ``openspiel_bots.parse``)."""
    if name == "random":
        return RandomBot(Stream(stream_start(seed, index), seat + 1))
    if name == "heuristic":
        return HeuristicBot()
    bot = search_bot(name) or openspiel_bots.parse(name)
    if bot is None:
        raise ValueError(f"unknown Tutti bot {name!r}; valid: {', '.join(BOT_NAMES + SEARCH_SPECS)}")
    return bot.for_hand(seat, seed, index) if hasattr(bot, "for_hand") else bot


#: The search bots' specs.
SEARCH_SPECS = ("pimc", "pimc:SAMPLES", "pimc@MSms", "ismcts", "ismcts:ITERATIONS",
                "ismcts@MSms", "expert", "expert:SAMPLES", "expert@MSms", "expert-uniform", "expert-points",
                "expert-heuristic-end", "cheat (sees every card)")
#: ``expert`` and its ablations (``tutti.expert.VARIANTS``).
EXPERTS = ("expert", "expert-uniform", "expert-points", "expert-heuristic-end")
#: The games ``expert`` plays in about two minutes on one core against heuristic.
EXPERT_GAMES = 1000


def _budget(spec: str, arg: str, what: str, top: int, default: int) -> int:
    kind = spec.partition(":")[0]
    if not (re.fullmatch(r"[0-9]{1,9}", arg.strip()) and 1 <= int(arg) <= top):
        raise BotSpecError(f"bot {spec!r}: the {what} must be a whole number 1..{top:,}, "
                           f"as {kind}:{default}; {VALID_BOTS}")
    return int(arg)


def search_bot(spec: str):
    """``pimc``, ``pimc:SAMPLES``, ``ismcts``, ``ismcts:ITERATIONS``,
    ``expert``, ``expert:SAMPLES`` (and its ablations ``expert-uniform``,
    ``expert-points``, ``expert-heuristic-end``), any of them with a time
    budget ``@MSms`` instead of the count (``pimc@50ms``), or ``cheat`` (any
    case); None for any other spec, a one-line ``core.bots.BotSpecError``
    for a bad budget. The bot is its own ``engine``
    (``tutti.game.engine_of``): it keeps nothing between decisions, so one
    object plays every hand, and the engine can show ``cheat`` the cards."""
    from tutto_sim.core.bots import budget_games, split_time_budget

    key = spec.strip().lower()
    if "@" in key and key.partition("@")[0].partition(":")[0] not in ("pimc", "ismcts", *EXPERTS):
        return None  # another bot's budget (openspiel-ismcts@50ms) or no bot
    key, ms = split_time_budget(key, VALID_BOTS) if "@" in key else (key, None)
    kind, sep, arg = key.partition(":")
    if ms is not None and sep:
        raise BotSpecError(f"bot {spec.strip()!r}: a time budget replaces the count "
                           f"(pimc@50ms, not pimc:200@50ms); "
                           f"{VALID_BOTS}")
    timed = f"@{ms:g}ms" if ms is not None else ""
    if kind == "pimc":
        from .pimc import DEFAULT_SAMPLES, MAX_SAMPLES, PimcBot

        n = _budget(key, arg, "deals per decision", MAX_SAMPLES, DEFAULT_SAMPLES) if sep \
            else DEFAULT_SAMPLES
        bot = PimcBot(n, name=(f"pimc:{n}" if sep else "pimc") + timed, budget_ms=ms)
    elif kind in EXPERTS:
        from .expert import DEFAULT_SAMPLES, MAX_SAMPLES, VARIANTS, ExpertBot

        n = _budget(key, arg, "deals per decision", MAX_SAMPLES, DEFAULT_SAMPLES) if sep \
            else DEFAULT_SAMPLES
        bot = ExpertBot(n, name=(f"{kind}:{n}" if sep else kind) + timed, budget_ms=ms,
                        **VARIANTS[kind])
    elif kind == "ismcts":
        from .ismcts import DEFAULT_ITERATIONS, MAX_ITERATIONS, MS_AT_DEFAULT, IsmctsBot

        n = _budget(key, arg, "iterations per decision", MAX_ITERATIONS, DEFAULT_ITERATIONS) \
            if sep else DEFAULT_ITERATIONS
        bot = IsmctsBot(n, name=f"ismcts:{n}" if sep else None, budget_ms=ms)
        n = n if ms is None else round(DEFAULT_ITERATIONS * ms / MS_AT_DEFAULT)
    elif key == "cheat":
        from .pimc import CheatBot

        bot = CheatBot()
    else:
        return None
    bot.engine = bot
    # without --games, a tournament plays about two minutes' worth (core.bots.default_games;
    # one core of the idle 2-core machine against heuristic, `tournament --game tutti --bots
    # B,heuristic --games N --threads 1` on 2026-12-02: pimc 15, ismcts 9, cheat 100 games per second)
    bot.tournament_games = (budget_games(1500, DEFAULT_SAMPLES, n) if kind == "pimc" else
                            budget_games(EXPERT_GAMES, DEFAULT_SAMPLES, n) if kind in EXPERTS else
                            budget_games(1000, DEFAULT_ITERATIONS, n) if kind == "ismcts" else 12000)
    if ms is not None:  # about 20 decisions a match at the budget each: two minutes' worth
        bot.tournament_games = max(10, round(120_000 / (20 * ms) / 10) * 10)
    return bot


# -- bots on the command line (``--bots a,b``) ------------------------------------------------

assert BOT_SPECS == (*BOT_NAMES, *SEARCH_SPECS, *openspiel_bots.SPECS, "py:MODULE:NAME")


class KernelBot:
    """A built-in bot parsed from ``--bots``: its own ``engine``, which gives
    ``reference.play_hand`` each hand's bot (``for_hand``: :func:`make_bot`),
    ``table()`` its kernel id (``tutti.kernel``), so a tournament of built-in
    bots runs in the kernel."""

    def __init__(self, name: str):
        self.name = self.builtin = name
        self.engine = self

    def for_hand(self, seat: int, seed: int, index: int):
        return make_bot(self.builtin, seat, seed, index)

    def table(self) -> int:
        return BOT_NAMES.index(self.builtin)


def parse_bot(spec: str, rules):
    """A Tutti bot from its spec (``core.bots.BotSpecError``, one line naming
    the valid bots, if there is none). ``py:MODULE:NAME`` / ``py:FILE.py:NAME``
    is ``NAME()``: an object with ``act(observation)`` returning one of
    ``observation.legal``; it plays in the reference engine only."""
    from tutto_sim.core.bots import BotSpecError, python_bot

    key = spec.strip().lower()
    if key in BOT_NAMES:
        return KernelBot(key)
    bot = search_bot(key)
    if bot is not None:
        return bot
    try:
        bot = openspiel_bots.parse(key)
    except ValueError as e:
        raise BotSpecError(f"{e}; {VALID_BOTS}") from None
    if bot is not None:
        return bot
    kind, _, arg = spec.strip().partition(":")
    if kind.lower() == "py":
        return python_bot(spec.strip(), arg, VALID_BOTS)
    raise BotSpecError(f"unknown Tutti bot {spec.strip()!r}; {VALID_BOTS}")

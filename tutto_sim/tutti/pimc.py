"""Tutti's sampling bot ``pimc`` and the cheating reference bot ``cheat``.

Perfect-information Monte Carlo (Long, Sturtevant, Buro & Furtak 2010):
``pimc`` deals the cards it has not seen (``tutti.sampling``, uniformly over
every deal its observation allows), plays each deal face up with the
search of ``tutti.search`` and takes the action with the best average.
``cheat`` runs the same search on the true cards: it is the only bot that
sees them, a yardstick for what hidden cards cost, and is always labelled a
cheat.

One decision
------------
1. The *own sequences*: the legal action, and when it is an exchange or a
   declaration (after which the same player moves again), every way of
   going on with the own exchanges and declarations up to a card (or to
   the end of a partner's declaration turn).
2. Each sequence is played on each deal, then the rest of the hand by
   ``tutti.search``: exactly (alpha-beta) when at most ``ENDGAME`` cards
   are left to play in the hands and the stock (16 with 2 players, where
   every card is known once the stock is empty; 12 with 3 or 4, where an
   exact search per deal costs more), else by a playout in which every
   player plays the heuristic bot's card and makes the automatic actions.
3. A deal's result for the bot's side is the margin ``m`` (points of the
   own side minus the best other side; a Tute ±250) and the bot scores it
   ``m + WIN_BONUS·sign(m)``: the margin, and a bonus for winning the hand,
   which is what a match counts.
4. A sequence's value is its average over the deals; an action's value is
   the best value of the sequences that start with it (the bot will choose
   the rest of its turn the same way). The bot plays the action of highest
   value, the first legal one of equal value.

The deals come from a stream seeded by a hash of the observation
(``sampling.observation_seed``): the same observation always gives the same
decision, whatever the hidden cards are, and a game with ``pimc`` replays
exactly from its seed. :meth:`PimcBot.explain` gives every action's value.
"""

from __future__ import annotations

import threading
import time
from typing import NamedTuple

import numpy as np

from tutto_sim.core.streams import stream_start

from . import search
from .reference import DECLARE, Action, Observation
from .sampling import HiddenDeal, observation_seed

#: Deals per decision of ``pimc`` (``pimc:SAMPLES``).
DEFAULT_SAMPLES = 200
MAX_SAMPLES = 10_000
#: Cards left to play (hands and stock) at which the search turns exact, by
#: table size: with 2 players every card is known once the stock is empty
#: (16 left), with 3 or 4 an exact search per deal of many costs more.
ENDGAME = {2: 16, 3: 12, 4: 12}
#: Cards left at which a heuristic playout turns exact (0: never).
TAIL = 0
#: Deals per batch of a timed decision (``pimc@MSms``, ``expert@MSms``).
BATCH = 32
#: Points a won hand adds to a deal's margin (a lost one takes away).
WIN_BONUS = 30


class Estimate(NamedTuple):
    """What the search expects of an action: ``value`` (the bot's score:
    margin + WIN_BONUS·sign), ``margin`` (mean points margin), ``win``
    (share of the deals won), over ``deals`` deals."""

    value: float
    margin: float
    win: float
    deals: int


def own_sequences(state: np.ndarray) -> list[list[int]]:
    """Every own sequence of actions from a search state (module docstring,
    step 1), as action ids; prefixes that reach the same state are kept once."""
    out: list[list[int]] = []
    seen: set[bytes] = set()
    ids = np.empty(96, np.int64)

    def walk(s: np.ndarray, prefix: list[int]) -> None:
        for a in ids[:search.legal_ids(s, ids)].tolist():
            if a < search.A_EXCHANGE or a >= search.A_TUTE or s[search.PHASE] == DECLARE:
                out.append(prefix + [a])
                continue
            nxt = s.copy()
            search.apply_id(nxt, a)
            key = nxt.tobytes()
            if key not in seen:
                seen.add(key)
                walk(nxt, prefix + [a])

    walk(state, [])
    return out


def sequence_table(state: np.ndarray) -> tuple[list[list[int]], np.ndarray]:
    """The own sequences of :func:`own_sequences` and the same as a ``-1``
    padded array, as ``search.evaluate`` takes them."""
    seqs = own_sequences(state)
    width = max(len(q) for q in seqs)
    table = np.full((len(seqs), width), -1, np.int64)
    for j, q in enumerate(seqs):
        table[j, :len(q)] = q
    return seqs, table


def points_score(margins: np.ndarray) -> np.ndarray:
    """``pimc``'s score of a deal: the margin plus ``WIN_BONUS·sign``."""
    return margins + WIN_BONUS * np.sign(margins)


def search_deals(obs: Observation, draw, endgame: int, score=points_score,
                 budget_ms: float | None = None, tail: int = TAIL,
                 once: bool = False) -> dict[Action, Estimate]:
    """Every legal action's :class:`Estimate` over the deals ``draw(batch)``
    gives (search states, each distinct deal once, and how often it was
    drawn): batch 0 alone, or with a time budget batch after batch until
    ``budget_ms`` milliseconds have passed (at least one batch, at most
    ``MAX_SAMPLES`` deals; one batch when ``once``, as when there is only one
    deal). ``score(margins)`` turns margins into the values
    averaged; an action's value is the best of the sequences it starts."""
    t0 = time.perf_counter()
    side = obs.rules.side(obs.seat)
    seqs = table = sums = None
    deals = batch = 0
    while True:
        states, weights = draw(batch)
        if seqs is None:
            seqs, table = sequence_table(states[0])
            sums = np.zeros((3, len(seqs)))
        margins = np.empty((len(states), len(seqs)), np.int64)
        search.evaluate(np.asarray(states), table, side, endgame, tail, margins,
                        *search.scratch())
        w = np.array(weights, np.float64)[:, None]
        sums[0] += (score(margins) * w).sum(axis=0)
        sums[1] += (margins * w).sum(axis=0)
        sums[2] += ((margins > 0) * w).sum(axis=0)
        deals += int(w.sum())
        batch += 1
        if not budget_ms or (time.perf_counter() - t0) * 1000 >= budget_ms \
                or deals >= MAX_SAMPLES or once:
            break
    value, mean, win = sums / deals
    best: dict[int, int] = {}
    for j, q in enumerate(seqs):
        if q[0] not in best or value[j] > value[best[q[0]]]:
            best[q[0]] = j
    out = {}
    for a in obs.legal:
        j = best[search.encode_all([a])[0]]
        out[a] = Estimate(float(value[j]), float(mean[j]), float(win[j]), deals)
    return out


def evaluate(obs: Observation, states: np.ndarray, weights: list[int],
             endgame: int | None = None, tail: int = TAIL) -> dict[Action, Estimate]:
    """Every legal action's :class:`Estimate` over the full deals ``states``
    (search states, ``weights[i]`` copies of deal ``i``)."""
    if endgame is None:
        endgame = ENDGAME[obs.rules.players]
    return search_deals(obs, lambda batch: (states, weights), endgame, tail=tail)


def distinct(states: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The distinct rows of ``states`` in order of first appearance, and how
    often each appears."""
    counts: dict[bytes, int] = {}
    first: dict[bytes, int] = {}
    for i, row in enumerate(states):
        key = row.tobytes()
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, i)
    return states[list(first.values())], list(counts.values())


def choose(estimates: dict[Action, Estimate]) -> Action:
    """The action of highest value; the first in legal order among equals."""
    top = max(e.value for e in estimates.values())
    return next(a for a, e in estimates.items() if e.value == top)


class PimcBot:
    """``pimc`` / ``pimc:SAMPLES`` / ``pimc@MSms`` (module docstring). With a
    time budget (``budget_ms``) it searches batches of :data:`BATCH` deals,
    each from its own stream (batch ``b``: ``stream_start(seed, b)``), until
    the budget is spent: a decision then depends on the clock."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, name: str | None = None,
                 endgame: int | None = None, tail: int = TAIL, budget_ms: float | None = None):
        self.samples = samples
        self.endgame = endgame
        self.tail = tail
        self.budget_ms = budget_ms
        self.name = name or ("pimc" if samples == DEFAULT_SAMPLES else f"pimc:{samples}")

    def deals(self, obs: Observation) -> tuple[np.ndarray, list[int]]:
        """The sampled deals as search states, each distinct deal once, with
        how often it was drawn."""
        states = HiddenDeal(obs).deal_states(observation_seed(obs), self.samples)
        return distinct(states)

    def explain(self, obs: Observation) -> dict[Action, Estimate]:
        """Every legal action's :class:`Estimate`: what ``pimc`` would play and why."""
        if not self.budget_ms:
            states, weights = self.deals(obs)
            return evaluate(obs, states, weights, self.endgame, self.tail)
        hidden = HiddenDeal(obs)
        seed = observation_seed(obs)

        def draw(batch: int):
            return distinct(hidden.deal_states(batch_seed(seed, batch), BATCH))

        endgame = ENDGAME[obs.rules.players] if self.endgame is None else self.endgame
        return search_deals(obs, draw, endgame, budget_ms=self.budget_ms,
                            tail=self.tail, once=hidden.count() == 1)

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        return choose(self.explain(obs))


def batch_seed(seed: int, batch: int) -> int:
    """The seed of a timed decision's batch ``batch`` of deals (batch 0: ``seed``)."""
    if batch == 0:
        return seed
    return int(stream_start(np.uint64(seed), np.uint64(batch)))


class CheatBot:
    """``cheat``: the search of ``pimc`` on the true cards. The engine shows
    it the state (``see``) before each of its decisions; it is the only bot
    that is shown anything but its observation. (What it was shown is kept
    per thread, so one object may play in several games at once.)"""

    name = "cheat"
    sees_state = True

    def __init__(self, endgame: int | None = None, tail: int = TAIL):
        self.endgame = endgame
        self.tail = tail
        self._shown = threading.local()

    def __getstate__(self) -> dict:
        """A copy (pickled for a cluster's worker, ``core.cluster``) is shown nothing yet."""
        return {k: v for k, v in self.__dict__.items() if k != "_shown"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._shown = threading.local()

    def see(self, state) -> None:
        self._shown.state = state

    def explain(self, obs: Observation) -> dict[Action, Estimate]:
        state = getattr(self._shown, "state", None)
        if state is None or state.to_move != obs.seat:
            raise RuntimeError("cheat plays only where the engine shows it the cards (see)")
        return evaluate(obs, [search.from_state(state)], [1], self.endgame, self.tail)

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        return choose(self.explain(obs))


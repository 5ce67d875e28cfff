"""Tutti's ``ismcts`` bot: single-observer information-set Monte Carlo tree
search (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 4(2)).

One tree for the bot's own information set: a node is a sequence of actions
from the decision, whoever made them, so it stands for every deal in which
that sequence could happen. Each iteration

1. *determinises*: deals the hidden cards afresh, uniformly over every deal
   the observation allows (``tutti.sampling``);
2. *selects*: from the root, among the actions legal **in this deal**, an
   action not tried yet (the first in legal order), else the child of
   highest ``mean + C·sqrt(ln(availability) / visits)``: a child's
   *availability* counts the iterations in which its action was legal, so
   that a card a player holds in few deals is not penalised for being rarely
   there;
3. *expands* that one new child, then
4. *rolls out* to the end of the hand: every player plays the heuristic
   bot's card with the automatic exchanges and declarations
   (``tutti.search``);
5. *backpropagates*: every node on the path gets a visit and the reward of
   the player who chose its action (the reward of his side, each side for
   itself also with 3 or 4 players).

The reward of a finished hand for a side with margin ``m`` (its points
minus the best other side's, a Tute ±250) is
``1/2 + (m + WIN_BONUS·sign(m)) / (2·(250 + WIN_BONUS))``, in ``[0, 1]``:
the ``pimc`` score scaled.

Choices in the tree: at the decision itself and while the bot goes on
moving in the same turn (after an exchange or a declaration) every legal
action is a branch; after that only the cards are, the other actions are
the automatic ones (as in ``tutti.search``). The bot plays the root child
with the most visits, the first in legal order among equals. The deals and
nothing else is random: the deals come from a stream seeded by the
observation's hash, so the same observation gives the same decision.

A time budget instead of a count (``ismcts@50ms``): the iterations go on
until the budget per decision has passed on the machine's clock, in batches
of :data:`CLOCK_EVERY` deals (batch ``k`` dealt from a stream seeded by the
observation's hash and ``k``); the clock is read after each batch, so there
is at least one batch and the decision may overrun by one. How many
iterations fit depends on the machine and its load: a timed decision is not
reproducible, the counted one is.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from tutto_sim.core.rng import stream_start

from . import search
from .pimc import WIN_BONUS
from .reference import Action, Observation, encode
from .sampling import HiddenDeal, observation_seed

#: Iterations per decision of ``ismcts`` (``ismcts:ITERATIONS``).
DEFAULT_ITERATIONS = 300
MAX_ITERATIONS = 100_000
#: The exploration constant C of the selection (rewards in [0, 1]).
EXPLORATION = 0.25
#: About the milliseconds of a decision at DEFAULT_ITERATIONS (one core of the
#: idle 2-core machine, 2 players, 2026-12-03): scales a timed bot's default games.
MS_AT_DEFAULT = 4
#: Iterations between two readings of the clock of a timed ``ismcts@Nms``.
CLOCK_EVERY = 8


class _Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class RootStats(NamedTuple):
    """A root action's ``visits`` and ``mean`` reward (in ``[0, 1]``)."""

    visits: int
    mean: float


def reward(m: int) -> float:
    """The reward of a margin (module docstring)."""
    bonus = WIN_BONUS * ((m > 0) - (m < 0))
    return 0.5 + (m + bonus) / (2 * (search.TUTE_MARGIN + WIN_BONUS))


class IsmctsBot:
    """``ismcts`` / ``ismcts:ITERATIONS``, or with ``budget_ms`` (milliseconds
    per decision) ``ismcts@Nms``, which ignores ``iterations`` (module docstring)."""

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, name: str | None = None,
                 exploration: float = EXPLORATION, budget_ms: float | None = None):
        self.iterations = iterations
        self.exploration = exploration
        self.budget_ms = budget_ms
        self.name = name or (f"ismcts@{budget_ms:g}ms" if budget_ms else
                             "ismcts" if iterations == DEFAULT_ITERATIONS
                             else f"ismcts:{iterations}")

    def _deals(self, obs: Observation, seed: int):
        """The determinisations: ``iterations`` deals, or batches of
        :data:`CLOCK_EVERY` until ``budget_ms`` has passed."""
        deadline = time.perf_counter() + (self.budget_ms or 0) / 1000
        hidden = HiddenDeal(obs)
        if not self.budget_ms:
            yield from hidden.deal_states(seed, self.iterations)
            return
        k = 0
        while True:
            yield from hidden.deal_states(stream_start(seed, k), CLOCK_EVERY)
            k += 1
            if time.perf_counter() >= deadline:
                return

    def explain(self, obs: Observation) -> dict[Action, RootStats]:
        """Every legal action's visits and mean reward after the search."""
        rules = obs.rules
        me = obs.seat
        states = self._deals(obs, observation_seed(obs))
        sides = rules.sides
        side_of = [rules.side(p) for p in range(rules.players)]
        c = self.exploration
        root = _Node()
        ids = np.empty(96, np.int64)
        margins = np.empty(4, np.int64)
        rewards = [0.0] * sides
        for s in states:
            node = root
            path: list[tuple[_Node, int]] = []
            own_turn = True
            while True:
                if own_turn and s[search.TOMOVE] != me:
                    own_turn = False
                if not own_turn:
                    search.auto(s)
                if s[search.PHASE] == search.OVER:
                    break
                acts = ids[:search.legal_ids(s, ids)].tolist()
                mover_side = side_of[s[search.TOMOVE]]
                children = node.children
                new = -1
                best, best_score = None, -1.0
                for a in acts:
                    child = children.get(a)
                    if child is None:
                        if new < 0:
                            new = a
                        continue
                    child.avail += 1
                    if new < 0:
                        score = child.total / child.visits + c * math.sqrt(
                            math.log(child.avail) / child.visits)
                        if score > best_score:
                            best, best_score = a, score
                if new >= 0:
                    child = children[new] = _Node()
                    child.avail = 1
                    path.append((child, mover_side))
                    search.apply_id(s, new)
                    break
                node = children[best]
                path.append((node, mover_side))
                search.apply_id(s, best)
                if best < search.A_EXCHANGE:
                    own_turn = False
            search.rollout(s, sides, margins)
            for o in range(sides):
                rewards[o] = reward(int(margins[o]))
            for n, sd in path:
                n.visits += 1
                n.total += rewards[sd]
        out = {}
        for a in obs.legal:
            child = root.children.get(encode(a))
            out[a] = (RootStats(child.visits, child.total / child.visits) if child and child.visits
                      else RootStats(0, 0.0))
        return out

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        stats = self.explain(obs)
        top = max(st.visits for st in stats.values())
        return next(a for a, st in stats.items() if st.visits == top)

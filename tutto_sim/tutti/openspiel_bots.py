"""OpenSpiel's search bots at our table: ``openspiel-ismcts`` and
``openspiel-mcts`` (needs the optional ``open_spiel``).

Both are OpenSpiel's own code, used as it comes:
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` and
``open_spiel.python.algorithms.mcts.MCTSBot``, each with OpenSpiel's
``RandomRolloutEvaluator`` (one rollout of uniformly random actions to the
end of the hand), exploration constant ``UCT_C = 2`` (the default of
OpenSpiel's MCTS example) and the final choice by most visits. They search
``tutti.openspiel_game`` with the table's rules and ``hands = 1``: our
table shows a bot the hand, not the match score, so each hand is played to
be won (as our own search bots do).

- ``openspiel-ismcts`` / ``openspiel-ismcts:ITERATIONS`` (default 100):
  information-set MCTS from the observation alone. The root of its search
  is a state dealt from the observation (``sampling.HiddenDeal``, uniform
  over the deals it allows) and every iteration deals the hidden cards anew
  from it (OpenSpiel's ``set_resampler``, the same deals as
  ``TuttiState.resample_from_infostate``). It never sees another hand.
- ``openspiel-mcts`` / ``openspiel-mcts:SIMULATIONS`` (default 100):
  plain MCTS on **the true state**: OpenSpiel's MCTS is for perfect
  information, so it is given every card (it ``sees_state``, as our
  ``cheat``) and is named ``openspiel-mcts(cheat)``: a cheating
  reference, never a fair opponent.

A time budget instead of a count, ``openspiel-ismcts@50ms``: OpenSpiel's
``ISMCTSBot.run_search`` runs ``max_simulations`` and has no clock, and it
starts a fresh tree at every call, so :class:`TimedISMCTS` is its minimal
subclass: the same search, but the loop of simulations reads the clock after
each and stops once the budget per decision has passed (at least one
simulation; it may overrun by one). Not reproducible: how many simulations
fit depends on the machine and its load.

Random numbers: the bot of seat ``p`` in hand ``i`` of a run with seed ``s``
draws everything (OpenSpiel's ``numpy`` random state, and the deals) from
the seed ``stream_start(stream_start(s, i), p + 1)``, so a tournament with
a given seed plays the same hands again. A decision with one legal action is
made without searching.

>>> from tutto_sim.tutti.reference import deal, observe
>>> from tutto_sim.tutti.rules import TuttiRules
>>> state = deal(TuttiRules(), seed=3)
>>> bot = parse("openspiel-ismcts:5").for_hand(seat=0, seed=3, index=0)
>>> bot.name, bot.act(observe(state, 0)) in observe(state, 0).legal
('openspiel-ismcts:5', True)
>>> parse("openspiel-mcts:8").name
'openspiel-mcts:8(cheat)'
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from tutto_sim.core.rng import Stream, stream_start

from .reference import Action, Observation, State, decode
from .rules import TuttiRules

#: Iterations (ISMCTS) and simulations (MCTS) per decision by default, and at most.
DEFAULT_BUDGET = 100
MAX_BUDGET = 100_000
#: OpenSpiel's exploration constant (its MCTS example's default).
UCT_C = 2.0
#: About the milliseconds of one ISMCTS simulation (one core of the idle
#: 2-core machine, 2 players, 2026-12-03): scales a timed bot's default games.
MS_PER_SIMULATION = 1.6
ISMCTS, MCTS = "openspiel-ismcts", "openspiel-mcts"
#: The specs, for the lists of valid bots.
SPECS = (ISMCTS, f"{ISMCTS}:ITERATIONS", f"{ISMCTS}@MSms", MCTS, f"{MCTS}:SIMULATIONS (sees every card)")
CHEAT = "(cheat)"
INSTALL = "pip install 'tutto-sim[openspiel]'"


class Spec:
    """A parsed ``openspiel-*`` bot: ``name`` as shown; its own ``engine``,
    which gives the reference engine one bot per seat and hand
    (``for_hand``; module docstring: its random numbers); no kernel."""

    def __init__(self, kind: str, budget: int, explicit: bool, budget_ms: float | None = None):
        self.kind = kind
        self.budget = budget
        self.budget_ms = budget_ms
        self.engine = self
        self.name = (f"{kind}@{budget_ms:g}ms" if budget_ms else
                     f"{kind}:{budget}" if explicit else kind) + (CHEAT if kind == MCTS else "")
        # without --games, about two minutes' worth (core.bots.default_games; one core of a
        # the idle 2-core machine against heuristic on 2026-12-02: ismcts 0.33, mcts 0.68 games
        # per second)
        from tutto_sim.core.bots import budget_games

        self.tournament_games = budget_games(40 if kind == ISMCTS else 80, DEFAULT_BUDGET, budget
                                             if not budget_ms else budget_ms / MS_PER_SIMULATION)

    def for_hand(self, seat: int, seed: int, index: int):
        base = stream_start(stream_start(seed, index), seat + 1)
        bot = (IsmctsBot if self.kind == ISMCTS else MctsBot)(self.budget, self.name, base)
        bot.budget_ms = self.budget_ms
        return bot


def parse(spec: str) -> Spec | None:
    """The :class:`Spec` of ``openspiel-ismcts[:N]`` or
    ``openspiel-mcts[:N]`` (any case; ``(cheat)`` may follow the latter);
    None for any other spec. A bad budget, or OpenSpiel missing, is a
    ``ValueError`` whose one-line text says what is valid.
    ``openspiel-ismcts@Nms`` searches for ``N`` ms a decision instead."""
    from tutto_sim.core.bots import split_time_budget

    key = spec.strip().lower()
    if key.endswith(CHEAT):
        key = key[:-len(CHEAT)]
    kind, sep, arg = key.partition(":")
    if kind.partition("@")[0] == ISMCTS and "@" in key:
        base, ms = split_time_budget(key, f"valid: {ISMCTS}@50ms or {ISMCTS}:{DEFAULT_BUDGET}")
        if base != ISMCTS:
            raise ValueError(f"bot {spec.strip()!r}: {ISMCTS} takes iterations or a time, as "
                             f"{ISMCTS}:{DEFAULT_BUDGET} or {ISMCTS}@50ms")
        _need_openspiel(spec)
        return Spec(ISMCTS, DEFAULT_BUDGET, False, ms)
    if kind not in (ISMCTS, MCTS):
        return None
    what = "iterations" if kind == ISMCTS else "simulations"
    if sep and not (re.fullmatch(r"[0-9]{1,9}", arg.strip())
                    and 1 <= int(arg) <= MAX_BUDGET):
        raise ValueError(f"bot {spec.strip()!r}: the {what} per decision must be a whole "
                         f"number 1..{MAX_BUDGET:,}, as {kind}:{DEFAULT_BUDGET}")
    _need_openspiel(spec)
    return Spec(kind, int(arg) if sep else DEFAULT_BUDGET, bool(sep))


def _need_openspiel(spec: str) -> None:
    try:
        from . import openspiel_game  # noqa: F401  (is OpenSpiel installed?)
    except ImportError:
        raise ValueError(f"bot {spec.strip()!r} needs OpenSpiel: {INSTALL}") from None


@lru_cache(maxsize=16)
def search_game(rules: TuttiRules):
    """The OpenSpiel game the bots search: the table's rules, one hand."""
    import pyspiel

    from .openspiel_game import SHORT_NAME, params_of

    return pyspiel.load_game(SHORT_NAME, {**params_of(rules), "hands": 1})


class _Bot:
    budget_ms: float | None = None

    def __init__(self, budget: int, name: str, seed: int):
        self.budget = budget
        self.name = name
        self.seed = seed
        self.random = np.random.RandomState(np.random.MT19937(seed))
        self.deals = Stream(seed, 1)

    def evaluator(self):
        from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

        return RandomRolloutEvaluator(n_rollouts=1, random_state=self.random)


class IsmctsBot(_Bot):
    """``openspiel-ismcts``: OpenSpiel's ISMCTS from the observation alone."""

    sees_state = False

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        from open_spiel.python.algorithms.ismcts import ISMCTSBot

        from .openspiel_game import resample
        from .sampling import HiddenDeal

        game = search_game(obs.rules)
        hidden = HiddenDeal(obs)
        root = resample(game, hidden, self.deals)
        if self.budget_ms:
            bot = timed_ismcts()(game, self.evaluator(), UCT_C, self.budget,
                                 random_state=self.random)
            bot.budget_ms = self.budget_ms
        else:
            bot = ISMCTSBot(game, self.evaluator(), UCT_C, self.budget, random_state=self.random)
        bot.set_resampler(lambda state, player: resample(game, hidden, self.deals))
        return decode(int(bot.step(root)))


class MctsBot(_Bot):
    """``openspiel-mcts(cheat)``: OpenSpiel's MCTS on the true state, which
    the engine shows it (``sees_state``)."""

    sees_state = True

    def __init__(self, budget: int, name: str, seed: int):
        super().__init__(budget, name, seed)
        self.state: State | None = None

    def see(self, state: State) -> None:
        self.state = state

    def act(self, obs: Observation) -> Action:
        if len(obs.legal) == 1:
            return obs.legal[0]
        from open_spiel.python.algorithms.mcts import MCTSBot

        if self.state is None or self.state.to_move != obs.seat:
            raise ValueError("openspiel-mcts plays only where the engine shows it the state")
        game = search_game(obs.rules)
        bot = MCTSBot(game, UCT_C, self.budget, self.evaluator(), random_state=self.random)
        return decode(int(bot.step(game.state_from(self.state))))


@lru_cache(maxsize=1)
def timed_ismcts():
    """:class:`TimedISMCTS`, made on first use (OpenSpiel is optional)."""
    import time

    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    class TimedISMCTS(ISMCTSBot):
        """OpenSpiel's ``ISMCTSBot`` searching for ``budget_ms`` a decision:
        its ``run_search`` with the loop of simulations ended by the clock
        (module docstring), the rest of it OpenSpiel's own."""

        budget_ms = 50.0

        def run_search(self, state):
            deadline = time.perf_counter() + self.budget_ms / 1000
            self.reset()
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            key = self.get_state_key(state)
            while True:
                sampled = self.sample_root_state(state)
                assert key == self.get_state_key(sampled)
                self.run_simulation(sampled)
                if time.perf_counter() >= deadline:
                    break
            return self.get_final_policy(state, self._root_node)

    return TimedISMCTS
